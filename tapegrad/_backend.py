"""The array-backend seam: tensors that hold Dask, CuPy or other array-API arrays.

A NumPy value lives in a plain :class:`~tapegrad._tensor.Tensor` and takes the dispatcher's
NumPy fast path, untouched. Any other array lives in an :class:`ArrayTensor`, whose ``_value``
is a :class:`Boxed`: the array plus its NumPy dtype, shape, ``ndim`` and ``size``, so that the
engine and the ops' rules read a foreign value's metadata exactly as they read a NumPy array's.
The dispatcher sends every call with an ArrayTensor input to :func:`run_op`, which runs the op
on its inputs' backend:

1. the op's array-API form in :data:`FORMS` (written against the namespace that
   ``array-api-compat`` gives for the array, and registered by the op's family file beside the
   op's declaration; a form may decline a case by returning NotImplemented), else
2. for a NumPy ufunc forward, the namespace's function of the same (array-API) name, else
3. on a backend that takes NumPy's functions (Dask and CuPy implement NumPy's
   ``__array_function__``), the op's NumPy forward itself: on Dask, an elementwise op's (one
   declared with ``deriv=``) is mapped over the chunks of its broadcast inputs; any other runs
   with Dask's scheduler set to refuse: a forward that would compute the graph raises instead of
   loading the data, else
4. :class:`~tapegrad.errors.UnimplementedError` naming the op and the backend.

Rules are written with tapegrad's ops, so backward and forward mode run on the backend too: on
Dask they build lazy graphs, and nothing is computed until ``.numpy()`` or ``dask.compute``.

Devices: a CuPy array is on ``/GPU:<n>``; Dask and the other backends are on the CPU. An op
whose backend inputs are on two devices (or two backends) raises, naming both. A NumPy tensor
meeting a CPU backend's array joins that backend; meeting a GPU's, it is copied there (as
TensorFlow's default device policy does: gradient rules make small NumPy constants).
``tf.device("/GPU:<n>")``, when CuPy and a GPU are present, places on that GPU every tensor a
maker creates (:func:`place`: constants, zeros, ranges, random draws, Variables).
"""
from __future__ import annotations

import functools
import importlib
import math
import sys
import threading
from typing import Any, Callable

import numpy as np

from . import _recorders as _rec, dtypes as _dt
from ._tensor import Tensor, next_id
from .errors import InvalidArgumentError, UnimplementedError

_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


class Boxed:
    """An ArrayTensor's ``_value``: the backend array ``a`` with NumPy metadata."""

    __slots__ = ("a", "dtype", "shape", "ndim", "size", "itemsize", "nbytes", "backend")

    def __init__(self, a: Any, backend: "Backend") -> None:
        self.a = a
        self.backend = backend
        self.dtype = backend.np_dtype(a.dtype)
        self.shape = tuple(a.shape)
        self.ndim = len(self.shape)
        self.size = math.prod(self.shape)
        self.itemsize = self.dtype.itemsize
        self.nbytes = self.size * self.itemsize

    def __repr__(self) -> str:
        return f"<{self.backend.name} array of shape {self.shape}, dtype {self.dtype}>"

    # code that works on NumPy values directly, outside an op, lands here: say so
    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # protocol and duck-typing probes (copy, pickle, hasattr) see a plain object
            raise AttributeError(name)
        raise _outside_ops(self.backend, f"reads .{name} of the value")

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        raise _outside_ops(self.backend, "converts the value to NumPy")

    def __getitem__(self, key: Any) -> Any:
        raise _outside_ops(self.backend, "indexes the value")


def _outside_ops(be: "Backend", what: str) -> UnimplementedError:
    return UnimplementedError(
        f"This tapegrad function {what} with NumPy outside its ops, so it has no {be.name} form. "
        "Run it on NumPy: convert the input with tf.constant(t.numpy()) first (this computes or "
        "copies the array).")


class ArrayTensor(Tensor):
    """A Tensor holding a non-NumPy array (Dask, CuPy, array_api_strict, ...).

    It behaves as a Tensor: ops, tapes and accumulators accept it, and results of ops on it are
    ArrayTensors of the same backend. ``numpy()`` computes (Dask) or copies to the host (CuPy);
    :attr:`array` is the backend array itself, e.g. for ``dask.compute``.

    >>> import tapegrad as tf, dask.array as da
    >>> x = tf.convert_to_tensor(da.ones((4, 2), chunks=2))
    >>> y = tf.reduce_sum(x * 3.0)
    >>> type(y.array).__name__, float(y)
    ('Array', 24.0)
    """

    __slots__ = ()

    @property
    def array(self) -> Any:
        """The backend array (a ``dask.array.Array``, a ``cupy.ndarray``, ...)."""
        return self._value.a

    @property
    def backend(self) -> str:
        """The backend's name: ``"dask"``, ``"cupy"``, or the array namespace's module name."""
        return self._value.backend.name

    @property
    def device(self) -> str:
        """The device of the array: ``.../device:GPU:<n>`` for CuPy, else the CPU's name."""
        return self._value.backend.device_of(self._value.a)

    def _host(self, how: str) -> np.ndarray:
        """The value as a NumPy array; the recorders hear that it left the library (``how``)."""
        _rec.note_escape(self, how)
        return self._value.backend.to_numpy(self._value.a)

    def numpy(self) -> Any:
        """The value as a NumPy array (computing a Dask graph, copying from a GPU)."""
        v = self._host("numpy")
        return v[()] if v.ndim == 0 else v

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        v = self._host("__array__")
        return v if dtype is None else v.astype(dtype)

    def __bool__(self) -> bool:
        if self._value.size != 1 or self._value.ndim:
            raise ValueError(
                f"The truth value of a tensor of shape {self.shape} is ambiguous; use "
                "tf.reduce_any or tf.reduce_all, or compare a scalar.")
        return bool(self._host("__bool__"))

    def __float__(self) -> float:
        return float(self._host("__float__"))

    def __int__(self) -> int:
        return int(self._host("__int__"))

    def __index__(self) -> int:
        if self._value.dtype.kind not in "iu" or self._value.ndim:
            raise TypeError(f"Only scalar integer tensors can be used as an index; got shape "
                            f"{self.shape} and dtype {self.dtype.name}.")
        return int(self._host("__index__"))

    def __complex__(self) -> complex:
        return complex(np.asarray(self))

    def __format__(self, spec: str) -> str:
        return format(self.numpy(), spec)

    def __repr__(self) -> str:
        return (f"<tapegrad.Tensor: shape={self.shape}, dtype={self.dtype.name}, "
                f"backend={self.backend}, device={self.device}>")

    __str__ = __repr__

    def __reduce__(self) -> Any:
        return (wrap_array, (self._value.a,))

    # Dask's collection protocol, delegated: dask.compute(t) computes t's graph
    def __dask_graph__(self) -> Any:
        a = self._value.a
        return a.__dask_graph__() if hasattr(a, "__dask_graph__") else None

    def __dask_keys__(self) -> Any:
        return self._value.a.__dask_keys__()

    def __dask_layers__(self) -> Any:
        return self._value.a.__dask_layers__()

    def __dask_postcompute__(self) -> Any:
        return self._value.a.__dask_postcompute__()

    def __dask_postpersist__(self) -> Any:
        return self._value.a.__dask_postpersist__()

    def __dask_tokenize__(self) -> Any:
        return self._value.a.__dask_tokenize__()

    @property
    def __dask_optimize__(self) -> Any:
        return self._value.a.__dask_optimize__

    @property
    def __dask_scheduler__(self) -> Any:
        return self._value.a.__dask_scheduler__


# --------------------------------------------------------------------------- backends
_DTYPE_NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float16", "float32", "float64", "complex64", "complex128")


class Backend:
    """One array library: how to reach its namespace, convert to and from NumPy, name devices.

    ``numpy_api``: the library implements NumPy's ``__array_function__`` and ufuncs (Dask, CuPy),
    so ops without an array-API form may run their NumPy forward on its arrays.
    """

    def __init__(self, name: str, module: Any, numpy_api: bool, gpu: bool = False) -> None:
        self.name, self.module, self.numpy_api, self.gpu = name, module, numpy_api, gpu
        self._xp: Any = None
        self._to_np: dict = {}
        self._from_np: dict = {}

    @property
    def xp(self) -> Any:
        """The array-API namespace (through ``array-api-compat`` where it has one)."""
        if self._xp is None:
            self._xp = _compat_namespace(self)
        return self._xp

    def np_dtype(self, d: Any) -> np.dtype:
        if isinstance(d, np.dtype):
            return d
        r = self._to_np.get(d)
        if r is None:
            self._dtype_maps()
            r = self._to_np.get(d)
            if r is None:
                raise TypeError(f"tapegrad has no dtype for the {self.name} dtype {d!r}.")
        return r

    def dtype(self, npdt: np.dtype) -> Any:
        """The backend's dtype for a NumPy dtype."""
        if self.numpy_api:
            return npdt
        if not self._from_np:
            self._dtype_maps()
        return self._from_np[np.dtype(npdt)]

    def _dtype_maps(self) -> None:
        xp = self.xp
        for n in _DTYPE_NAMES:
            d = getattr(xp, n, None)
            if d is not None:
                self._to_np[d] = np.dtype(n)
                self._from_np[np.dtype(n)] = d

    def to_numpy(self, a: Any) -> np.ndarray:
        if self.name == "dask":
            return np.asarray(a.compute())
        if self.gpu:
            return np.asarray(a.get())
        return np.asarray(a)

    def from_numpy(self, v: np.ndarray, like: Any = None) -> Any:
        """``v`` as this backend's array (on ``like``'s device, for a GPU; on Dask, chunked as
        ``like`` along the trailing axes they share, so that no operand is rechunked whole)."""
        if self.name == "dask":
            if like is None or not v.ndim or v.ndim > like.ndim:
                return self.module.from_array(v, chunks=-1)
            lead = like.ndim - v.ndim
            return self.module.from_array(v, chunks=tuple(
                like.chunks[lead + i] if s == like.shape[lead + i] else -1 for i, s in enumerate(v.shape)))
        if self.gpu and like is not None:
            with self.module.cuda.Device(like.device.id):
                return self.module.asarray(v)
        return self.module.asarray(v) if self.numpy_api else self.xp.asarray(v)

    def device_of(self, a: Any) -> str:
        if self.gpu:
            return f"/job:localhost/replica:0/task:0/device:GPU:{a.device.id}"
        return _CPU

    def on(self, a: Any) -> Any:
        """A context in which new arrays are made on ``a``'s device (CuPy's current device)."""
        return self.module.cuda.Device(a.device.id) if self.gpu else _NO_GUARD

    def whole(self, a: Any, axes: tuple) -> Any:
        """``a`` with each of ``axes`` in one chunk (matrix routines and FFTs need it), else ``a``."""
        if self.name == "dask":
            return a.rechunk({ax % a.ndim: -1 for ax in axes})
        return a

    def guard(self) -> Any:
        """A context in which computing this backend's lazy arrays raises (Dask)."""
        if self.name == "dask":
            return sys.modules["dask"].config.set(scheduler=_refuse_compute)  # (loaded: its array is here)
        return _NO_GUARD

    def __repr__(self) -> str:
        return f"<backend {self.name}>"


class _NoGuard:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


_NO_GUARD = _NoGuard()


class _WouldCompute(Exception):
    pass


def _refuse_compute(*args: Any, **kwargs: Any) -> Any:
    raise _WouldCompute


def _compat_namespace(be: Backend) -> Any:
    try:  # optional dependencies are imported on first use
        array_api_compat = importlib.import_module("array_api_compat")
    except ImportError:
        if hasattr(be.module, "__array_namespace_info__"):  # a namespace of the standard itself
            return be.module
        raise ImportError(f"tapegrad needs array-api-compat to run ops on {be.name} arrays: "
                          "pip install array-api-compat (or pip install 'tapegrad[dask]').") from None
    return array_api_compat.array_namespace(be.module.asarray(np.zeros(1)) if not be.gpu
                                            else be.module.zeros(1))


_BACKENDS: dict[type, Backend] = {}
# whether an ArrayTensor was ever made: until then ``apply`` skips looking for one
seen = False


def backend_of(a: Any) -> Backend | None:
    """The backend of an array, or None for NumPy values and things that are not arrays."""
    t = type(a)
    be = _BACKENDS.get(t)
    if be is not None:
        return be
    if t is np.ndarray or isinstance(a, np.generic):
        return None
    root = t.__module__.partition(".")[0]
    if root == "dask" and hasattr(a, "__dask_graph__") and hasattr(a, "chunks"):
        be = Backend("dask", sys.modules["dask.array"], numpy_api=True)
    elif root == "cupy":
        be = Backend("cupy", sys.modules["cupy"], numpy_api=True, gpu=True)
    elif hasattr(a, "__array_namespace__") and hasattr(a, "shape") and hasattr(a, "dtype"):
        ns = a.__array_namespace__()
        be = Backend(ns.__name__.partition(".")[0], ns, numpy_api=False)
    else:
        return None
    _BACKENDS[t] = be
    return be


def wrap_array(a: Any, backend: Backend | None = None) -> Tensor:
    """A tensor holding ``a``: an ArrayTensor for a backend array, a Tensor for a NumPy one."""
    be = backend if backend is not None and type(a) is not np.ndarray else backend_of(a)
    t: Tensor
    if be is None:
        t = Tensor()
        t._value = a
    else:
        global seen
        seen = True
        t = ArrayTensor()
        t._value = Boxed(a, be)
    t._id = next_id()
    return t


def filled(v: Boxed, value: int, lead: tuple = (), dtype: np.dtype | None = None) -> Tensor:
    """A tensor of ``value`` (0 or 1) of ``v``'s backend and device, shape ``lead + v.shape``,
    dtype ``dtype`` (``v``'s by default)."""
    be = v.backend
    dt = be.dtype(v.dtype if dtype is None else dtype)
    if be.name == "dask":  # chunked as ``v`` (Dask's own choice can put a matrix in one chunk)
        f = be.module.ones if value else be.module.zeros
        return wrap_array(f(lead + v.shape, dtype=dt, chunks=tuple((s,) for s in lead) + v.a.chunks), be)
    with be.on(v.a):
        f = be.xp.ones if value else be.xp.zeros
        return wrap_array(f(lead + v.shape, dtype=dt), be)


def moved(v: Any, like: Any) -> Any:
    """Value ``v`` (a NumPy array or a :class:`Boxed`) where value ``like`` lives: copied to the
    host, or to ``like``'s backend and device (a Variable's assignment, an optimizer's update)."""
    if type(like) is not Boxed:
        return v.backend.to_numpy(v.a) if type(v) is Boxed else v
    be = like.backend
    if type(v) is Boxed:
        if v.backend is be and be.device_of(v.a) == be.device_of(like.a):
            return v
        v = v.backend.to_numpy(v.a)
    return Boxed(be.from_numpy(np.asarray(v), like.a), be)


def computed_together(ts: list) -> list:
    """``ts`` with its Dask tensors computed to NumPy arrays in one pass over their data
    (``dask.compute``), anything else as it is."""
    idx = [i for i, t in enumerate(ts) if type(t) is ArrayTensor and t._value.backend.name == "dask"]
    if not idx:
        return ts
    out = list(ts)
    for i, v in zip(idx, sys.modules["dask"].compute(*(ts[i]._value.a for i in idx))):
        out[i] = np.asarray(v)
    return out


def convert_array(a: Any, dtype: Any = None) -> Tensor | None:
    """``convert_to_tensor`` of a backend array (None if ``a`` is not one)."""
    be = backend_of(a)
    if be is None:
        return None
    t = wrap_array(a, be)
    if dtype is not None and _dt.as_dtype(dtype)._np != t._value.dtype:
        raise ValueError(f"Tensor conversion requested dtype {_dt.as_dtype(dtype).name} for a "
                         f"{be.name} array of dtype {t.dtype.name}. Use tf.cast to change the dtype.")
    return t


# --------------------------------------------------------------------------- running ops
# Array-API forms of ops whose NumPy forward uses more than NumPy's ufuncs: ``form(backend,
# *arrays, **params)``, the same params as the op's forward, registered by the op's family file
# right after the op's declaration (:func:`register`). A form returns NotImplemented for a case
# it does not cover (the next way in the module docstring's order is tried).
FORMS: dict[Any, Callable] = {}  # Op -> its form


def register(op: Any, form: Callable) -> None:
    """Register ``form`` as ``op``'s array-API form (in the op's family file, beside its declaration)."""
    where = sys._getframe(1).f_globals.get("__name__")
    if where != op.module:
        raise ValueError(f"the array-API form of {op.name} is registered in {where}: register it "
                         f"in {op.module}, beside the op's declaration")
    if op in FORMS:
        raise ValueError(f"op {op.name} has an array-API form already")
    FORMS[op] = form


# ----- helpers the forms of several families share (a one-hot contraction stands for NumPy's ``add.at``)
def take(be: Backend, x: Any, idx: Any, axis: int) -> Any:
    """NumPy's ``take``: indices of any shape (the standard's ``take`` wants one axis)."""
    xp = be.xp
    out = xp.take(x, xp.reshape(idx, (-1,)), axis=axis)
    return xp.reshape(out, tuple(x.shape[:axis]) + tuple(idx.shape) + tuple(x.shape[axis + 1:]))


def hits(be: Backend, idx: Any, n: int) -> Any:
    """``[..., n]`` one-hot rows of ``idx``, bool (indices outside ``[0, n)``: all False)."""
    xp = be.xp
    return xp.reshape(idx, tuple(idx.shape) + (1,)) == xp.arange(n)


def scatter_add(be: Backend, g: Any, idx: Any, n: int, axis: int) -> Any:
    """Sum the slices of ``g`` along the ``idx.ndim`` axes from ``axis`` into ``n`` rows by index."""
    xp = be.xp
    k = math.prod(idx.shape)
    gm = xp.reshape(g, tuple(g.shape[:axis]) + (k,) + tuple(g.shape[axis + idx.ndim:]))
    onehot = xp.astype(hits(be, xp.reshape(idx, (k,)), n), g.dtype)
    out = xp.tensordot(gm, onehot, axes=([axis], [0]))  # (axes >= 0: Dask)
    last = out.ndim - 1
    return xp.permute_dims(out, tuple(range(axis)) + (last,) + tuple(range(axis, last)))


# ----- matrix ops on Dask: the op's NumPy forward per block of matrices
def per_matrix(be: Backend, fwd: Callable, xs: tuple, p: dict) -> Any:
    """``fwd(*xs, **p)`` (an op's NumPy forward) on Dask arrays of matrices, each put in one
    chunk: one lazy call per chunk of the leading (batch) axes, which keep their chunks (and
    broadcast). The outputs' trailing shapes and dtypes are those ``fwd`` gives for an empty batch."""
    xs = tuple(be.whole(x, (-2, -1)) for x in xs)
    probe = fwd(*(np.zeros((0,) + tuple(x.shape[-2:]), x.dtype) for x in xs), **p)
    outs = probe if isinstance(probe, tuple) else (probe,)
    sizes: dict = {}
    sig = []
    for k, o in enumerate(outs):
        names = [f"o{k}_{j}" for j in range(o.ndim - 1)]
        sizes.update(zip(names, o.shape[1:]))
        sig.append("(" + ",".join(names) + ")")
    ins = ",".join(f"(m{k},n{k})" for k in range(len(xs)))
    return be.module.apply_gufunc(functools.partial(fwd, **p), ins + "->" + ",".join(sig), *xs,
                                  output_dtypes=[o.dtype for o in outs], output_sizes=sizes)


def matrix_form(fwd: Callable, form: Callable | None = None, blocked: Callable | None = None) -> Callable:
    """The form of a decomposition op: on Dask, ``blocked`` (Dask's blocked algorithm, for one
    matrix in several chunks) where it applies, else :func:`per_matrix` of its NumPy forward
    ``fwd``; elsewhere ``form`` (the namespace's linalg extension, or None)."""
    def run(be: Backend, *xs: Any, **p: Any) -> Any:
        if be.name == "dask":
            out = NotImplemented
            if blocked is not None and all(x.ndim == 2 for x in xs) and any(x.numblocks != (1, 1) for x in xs):
                out = blocked(be.module, *xs, **p)
            return per_matrix(be, fwd, xs, p) if out is NotImplemented else out
        return NotImplemented if form is None else form(be, *xs, **p)
    return run


# NumPy ufunc names that the array API standard spells otherwise
_UFUNC_NAMES = {
    "true_divide": "divide", "power": "pow", "absolute": "abs", "negative": "negative",
    "arcsin": "asin", "arccos": "acos", "arctan": "atan", "arctan2": "atan2", "arcsinh": "asinh",
    "arccosh": "acosh", "arctanh": "atanh", "invert": "bitwise_invert", "conjugate": "conj",
    "left_shift": "bitwise_left_shift", "right_shift": "bitwise_right_shift", "rint": "round",
    "bitwise_and": "bitwise_and", "mod": "remainder",
}


def _no_form(op: Any, be: Backend, why: str = "") -> UnimplementedError:
    return UnimplementedError(
        f"The op {op.name} has no {be.name} form in tapegrad{why}. Run it on NumPy: convert the "
        f"input with tf.constant(t.numpy()) first (this computes or copies the array), or register "
        f"an array-API form for {op.name} beside its declaration in {op.module} "
        f"(tapegrad._backend.register). [Op:{op.name}]")


def forward(op: Any, be: Backend, vals: list, p: dict) -> Any:
    """Run ``op``'s forward on backend arrays ``vals`` (see the module docstring for the order)."""
    with be.on(vals[0]):
        return _forward(op, be, vals, p)


def _forward(op: Any, be: Backend, vals: list, p: dict) -> Any:
    form = FORMS.get(op)
    if form is not None:
        out = form(be, *vals, **p)
        if out is not NotImplemented:
            return out
    if op.ufunc:
        if be.numpy_api:
            return op.fwd(*vals)
        f = getattr(be.xp, _UFUNC_NAMES.get(op.fwd.__name__, op.fwd.__name__), None)
        if f is not None:
            return f(*vals)
        raise _no_form(op, be)
    if not be.numpy_api:
        raise _no_form(op, be)
    if op.derivs is not None and be.name == "dask":
        return _chunkwise(be, op, vals, p)
    try:
        with be.guard():
            out = op.fwd(*vals, **p)
    except _WouldCompute:
        raise _no_form(op, be, f": its NumPy forward would compute the {be.name} array") from None
    except TypeError as e:  # (CuPy refuses NumPy's conversion; a ufunc it lacks returns NotImplemented)
        raise _no_form(op, be, f": its NumPy forward fails on {be.name} arrays ({e})") from None
    return out


def _chunkwise(be: Backend, op: Any, vals: list, p: dict) -> Any:
    """An elementwise op's NumPy forward run lazily on each chunk of its broadcast inputs (Dask)."""
    da = be.module
    xs = da.broadcast_arrays(*vals)
    dt = op.fwd(*(np.empty((0,), x.dtype) for x in xs), **p).dtype  # (no data: just the dtype)
    f = functools.partial(op.fwd, **p) if p else op.fwd
    return da.map_blocks(f, *xs, dtype=dt, meta=np.empty((0,) * xs[0].ndim, dt))


def operands(op: Any, xs: Any) -> tuple[Backend, list]:
    """The backend of the op's inputs and their arrays, NumPy inputs moved to it (joining a CPU
    backend's graph, or copied to the GPU as TensorFlow's default device policy does); an error
    naming both devices if backend inputs live on two."""
    be = None
    first = None
    for x in xs:
        if type(x) is ArrayTensor:
            b = x._value.backend
            if be is None:
                be, first = b, x
            elif b is not be or (be.gpu and be.device_of(x._value.a) != be.device_of(first._value.a)):
                raise _device_error(op, first, x)
    assert be is not None and first is not None
    vals = []
    for x in xs:
        if type(x) is ArrayTensor:
            vals.append(x._value.a)
        else:
            vals.append(be.from_numpy(np.asarray(x._value), first._value.a))
    return be, vals


def _device_error(op: Any, a: Tensor, b: Tensor) -> InvalidArgumentError:
    def where(t: Tensor) -> str:
        return f"{t.device} ({t.backend if type(t) is ArrayTensor else 'numpy'})"
    return InvalidArgumentError(
        f"Tensors on conflicting devices: cannot compute {op.name} with inputs on {where(a)} and "
        f"{where(b)}. Move one of them first: tf.constant(t.numpy()) brings a tensor to the CPU; "
        f"inside tf.device('/GPU:0'), tf.constant(t.numpy()) puts it on the GPU. [Op:{op.name}]")


# --------------------------------------------------------------------------- placement
_tls = threading.local()


_gpus: list = []  # the count, once known


def gpu_count() -> int:
    """The number of GPUs CuPy sees (0 without CuPy or without a GPU); asked once."""
    if not _gpus:
        try:
            cupy = importlib.import_module("cupy")
            _gpus.append(int(cupy.cuda.runtime.getDeviceCount()))
        except Exception:  # noqa: BLE001  (no CuPy, no driver, no device: no GPU)
            _gpus.append(0)
    return _gpus[0]


def push_device(spec: Any) -> None:
    """Enter a ``tf.device`` scope: a GPU scope places new constants with CuPy when a GPU exists."""
    stack = getattr(_tls, "stack", None)
    if stack is None:
        stack = _tls.stack = []
    idx = None
    if spec is not None and spec.device_type == "GPU":
        idx = spec.device_index or 0
        if idx >= gpu_count():
            idx = None  # soft placement: no such GPU, the CPU runs it (as TF's eager mode)
    elif spec is not None and spec.device_type is None and stack:
        idx = stack[-1]  # a job/task-only scope keeps the enclosing device
    stack.append(idx)
    global placing
    placing += idx is not None


def pop_device() -> None:
    global placing
    placing -= _tls.stack.pop() is not None


# how many GPU scopes are open (in any thread): makers look at the thread's scope only then
placing = 0


def place(t: Tensor) -> Tensor:
    """``t`` copied to this thread's GPU inside a ``tf.device("/GPU:n")`` scope (with CuPy and
    that GPU), else ``t`` itself: every tensor maker returns through it. Strings stay on the host."""
    if not placing or type(t) is not Tensor:
        return t
    stack = getattr(_tls, "stack", None)
    idx = stack[-1] if stack else None
    if idx is None or t._value.dtype.kind in "OSU":
        return t
    cupy = sys.modules["cupy"]  # (imported by gpu_count when the scope was entered)
    with cupy.cuda.Device(idx):
        return wrap_array(cupy.asarray(t._value))
