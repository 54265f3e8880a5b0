"""The array-backend seam: tensors that hold Dask, CuPy or other array-API arrays.

A NumPy value lives in a plain :class:`~tapegrad._tensor.Tensor` and takes the dispatcher's
NumPy fast path, untouched. Any other array lives in an :class:`ArrayTensor`, whose ``_value``
is a :class:`Boxed`: the array plus its NumPy dtype, shape, ``ndim`` and ``size``, so that the
engine and the ops' rules read a foreign value's metadata exactly as they read a NumPy array's.
The dispatcher sends every call with an ArrayTensor input to :func:`run_op`, which runs the op
on its inputs' backend:

1. the op's array-API form in :data:`FORMS` (written against the namespace that
   ``array-api-compat`` gives for the array; a form may decline a case by returning
   NotImplemented, and an ops module may register forms beside its ops), else
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
def _sum(be: Backend, x: Any, axes: tuple, keepdims: bool) -> Any:
    return be.xp.sum(x, axis=axes, keepdims=keepdims, dtype=x.dtype)


def _unbroadcast(be: Backend, g: Any, shape: tuple, lead: int) -> Any:
    nd = g.ndim - lead - len(shape)
    axes = list(range(lead, lead + nd))
    axes += [lead + nd + i for i, s in enumerate(shape) if s == 1 and g.shape[lead + nd + i] != 1]
    r = be.xp.sum(g, axis=tuple(axes), keepdims=True, dtype=g.dtype) if axes else g
    return be.xp.reshape(r, tuple(g.shape[:lead]) + tuple(shape))


def _matmul(be: Backend, a: Any, b: Any, adj_a: bool, adj_b: bool) -> Any:
    xp = be.xp
    if adj_a:
        a = xp.conj(xp.matrix_transpose(a)) if xp.isdtype(a.dtype, "complex floating") else xp.matrix_transpose(a)
    if adj_b:
        b = xp.conj(xp.matrix_transpose(b)) if xp.isdtype(b.dtype, "complex floating") else xp.matrix_transpose(b)
    return xp.matmul(a, b)


def _cast(be: Backend, x: Any, dtype: Any) -> Any:
    xp = be.xp
    if xp.isdtype(x.dtype, "complex floating") and dtype.kind != "c":
        x = xp.real(x)
    if dtype.kind in "iu" and xp.isdtype(x.dtype, "real floating"):
        x = xp.trunc(x)
    return xp.astype(x, be.dtype(dtype))


def _sigmoid(be: Backend, x: Any) -> Any:
    return 1 / (1 + be.xp.exp(-x))


def _softplus(be: Backend, x: Any) -> Any:
    """``log(1 + exp(x))``: ``x`` or ``exp(x)`` far from 0 (as the NumPy forward)."""
    xp = be.xp
    t = math.log(xp.finfo(x.dtype).eps) + 2
    e = xp.exp(xp.minimum(x, xp.asarray(-t, dtype=x.dtype)))
    return xp.where(x > -t, x, xp.where(x < t, e, xp.log1p(e)))


def _euclidean_norm(be: Backend, x: Any, axes: tuple, keepdims: bool) -> Any:
    xp = be.xp
    if xp.isdtype(x.dtype, "complex floating"):
        return xp.astype(xp.sqrt(xp.sum(xp.real(x * xp.conj(x)), axis=axes, keepdims=keepdims)), x.dtype)
    if not xp.isdtype(x.dtype, "real floating"):
        return NotImplemented
    return xp.sqrt(xp.sum(x * x, axis=axes, keepdims=keepdims))


def _where0(be: Backend, c: Any, x: Any) -> Any:
    return be.xp.where(c, x, be.xp.zeros_like(x))


def _keys(shape: tuple, key: tuple) -> tuple:
    """A basic index as the standard takes it (Ellipsis ending a partial one; newaxis dropped),
    and the shape its result has with the new axes (NumPy on the shape only)."""
    full = key if Ellipsis in key else key + (Ellipsis,)
    return tuple(k for k in full if k is not None), np.broadcast_to(False, shape)[key].shape


def _strided_slice(be: Backend, x: Any, key: tuple) -> Any:
    k, shape = _keys(tuple(x.shape), key)
    return be.xp.reshape(x[k], shape)


def _slice_pads(shape: tuple, k: tuple) -> tuple | None:
    """The zeros before and after a slice of ``shape`` by ``k`` along each axis, and the shape of
    the slice with its indexed axes kept (length 1); None if a step is not 1."""
    i = k.index(Ellipsis)
    k = k[:i] + (slice(None),) * (len(shape) - len(k) + 1) + k[i + 1:]
    pads, kept = [], []
    for n, e in zip(shape, k):
        if type(e) is slice:
            start, stop, step = e.indices(n)
            if step != 1:
                return None
            m = max(stop - start, 0)
        else:
            start, m = e % n, 1
        pads.append((start, n - start - m))
        kept.append(m)
    return tuple(pads), tuple(kept)


def _slice_grad(be: Backend, g: Any, shape: tuple, key: tuple) -> Any:
    k, sliced = _keys(shape, key)
    extra = g.ndim - len(sliced)
    padded = _slice_pads(shape, k) if be.name == "dask" else None  # (Dask's setitem copies the graph)
    if padded is not None:
        g = be.xp.reshape(g, tuple(g.shape[:extra]) + padded[1])
        return _pad(be, g, ((0, 0),) * extra + padded[0], "constant", 0)
    out = be.xp.zeros(tuple(g.shape[:extra]) + shape, dtype=g.dtype)
    out[(slice(None),) * extra + k] = be.xp.reshape(g, tuple(g.shape[:extra]) + np.broadcast_to(False, shape)[k].shape)
    return out


def _cumulative(name: str) -> Callable:
    def form(be: Backend, x: Any, axis: int, exclusive: bool, reverse: bool) -> Any:
        xp = be.xp
        if reverse:
            x = xp.flip(x, axis=axis)
        r = getattr(xp, name)(x, axis=axis, dtype=x.dtype, include_initial=exclusive)
        if exclusive:  # drop the total: keep the first n of the n + 1 partial sums (products)
            r = xp.take(r, xp.arange(x.shape[axis]), axis=axis)
        return xp.flip(r, axis=axis) if reverse else r
    return form


def _zero_where(be: Backend, c: Any, v: Any) -> Any:
    return be.xp.where(c, be.xp.zeros_like(v), v)


def _softmax(be: Backend, x: Any, axis: int) -> Any:
    xp = be.xp
    e = xp.exp(x - xp.max(x, axis=axis, keepdims=True))
    return e / xp.sum(e, axis=axis, keepdims=True)


def _log_softmax(be: Backend, x: Any, axis: int) -> Any:
    xp = be.xp
    s = x - xp.max(x, axis=axis, keepdims=True)
    return s - xp.log(xp.sum(xp.exp(s), axis=axis, keepdims=True))


# ----- indexing, one-hot, segments (a one-hot contraction stands for NumPy's ``add.at``)
def _take(be: Backend, x: Any, idx: Any, axis: int) -> Any:
    """NumPy's ``take``: indices of any shape (the standard's ``take`` wants one axis)."""
    xp = be.xp
    out = xp.take(x, xp.reshape(idx, (-1,)), axis=axis)
    return xp.reshape(out, tuple(x.shape[:axis]) + tuple(idx.shape) + tuple(x.shape[axis + 1:]))


def _hits(be: Backend, idx: Any, n: int) -> Any:
    """``[..., n]`` one-hot rows of ``idx``, bool (indices outside ``[0, n)``: all False)."""
    xp = be.xp
    return xp.reshape(idx, tuple(idx.shape) + (1,)) == xp.arange(n)


def _scatter_add(be: Backend, g: Any, idx: Any, n: int, axis: int) -> Any:
    """Sum the slices of ``g`` along the ``idx.ndim`` axes from ``axis`` into ``n`` rows by index."""
    xp = be.xp
    k = math.prod(idx.shape)
    gm = xp.reshape(g, tuple(g.shape[:axis]) + (k,) + tuple(g.shape[axis + idx.ndim:]))
    hits = xp.astype(_hits(be, xp.reshape(idx, (k,)), n), g.dtype)
    out = xp.tensordot(gm, hits, axes=([axis], [0]))  # (axes >= 0: Dask)
    last = out.ndim - 1
    return xp.permute_dims(out, tuple(range(axis)) + (last,) + tuple(range(axis, last)))


def _batch_rows(be: Backend, idx: Any, batch_dims: int, n: int) -> Any:
    """A batched gather's indices as rows of the batches' ``n``-row blocks stacked: ``[nb * K]``."""
    xp = be.xp
    nb = math.prod(idx.shape[:batch_dims])
    j = xp.reshape(idx, (nb, -1))
    return xp.reshape(j + xp.reshape(xp.arange(nb) * n, (nb, 1)), (-1,))


def _gather(be: Backend, p: Any, idx: Any, axis: int, batch_dims: int) -> Any:
    if not batch_dims:
        return _take(be, p, idx, axis)
    xp = be.xp
    b, pre, n, post = (tuple(p.shape[:batch_dims]), tuple(p.shape[batch_dims:axis]), p.shape[axis],
                       tuple(p.shape[axis + 1:]))
    ii = tuple(idx.shape[batch_dims:])
    if not (math.prod(b) and math.prod(ii)):
        return NotImplemented
    blocks = xp.moveaxis(xp.reshape(p, (-1,) + pre + (n,) + post), 1 + len(pre), 1)  # nb, n, pre, post
    t = xp.take(xp.reshape(blocks, (-1,) + pre + post), _batch_rows(be, idx, batch_dims, n), axis=0)
    t = xp.reshape(t, (-1,) + ii + pre + post)
    k, q = len(ii), len(pre)
    t = xp.permute_dims(t, (0,) + tuple(range(1 + k, 1 + k + q)) + tuple(range(1, 1 + k))
                        + tuple(range(1 + k + q, t.ndim)))
    return xp.reshape(t, b + pre + ii + post)


def _gather_grad(be: Backend, g: Any, idx: Any, shape: tuple, axis: int, batch_dims: int) -> Any:
    lead = g.ndim - (len(shape) - 1 + idx.ndim - batch_dims)
    if not batch_dims:
        return _scatter_add(be, g, idx, shape[axis], lead + axis)
    xp = be.xp
    ls, b, pre, n = tuple(g.shape[:lead]), shape[:batch_dims], shape[batch_dims:axis], shape[axis]
    k, q = idx.ndim - batch_dims, len(pre)
    if not (math.prod(b) and math.prod(idx.shape[batch_dims:])):
        return NotImplemented
    # g: lead, B, pre, I, post -> lead, (B I), pre, post: the rows of the stacked blocks
    gb = xp.reshape(g, ls + (-1,) + tuple(g.shape[lead + batch_dims:]))
    a = lead + 1
    gb = xp.permute_dims(gb, tuple(range(a)) + tuple(range(a + q, a + q + k)) + tuple(range(a, a + q))
                         + tuple(range(a + q + k, gb.ndim)))
    post = tuple(gb.shape[a + k + q:])
    gb = xp.reshape(gb, ls + (-1,) + pre + post)
    out = _scatter_add(be, gb, _batch_rows(be, idx, batch_dims, n), math.prod(b) * n, lead)
    out = xp.moveaxis(xp.reshape(out, ls + (-1, n) + pre + post), lead + 1, lead + 1 + q)
    return xp.reshape(out, ls + tuple(shape))


def _one_hot(be: Backend, idx: Any, on: Any, off: Any, depth: int, axis: int) -> Any:
    xp = be.xp
    out = xp.where(_hits(be, idx, depth), on, off)
    return out if axis == -1 else xp.moveaxis(out, -1, axis)


def _pad(be: Backend, x: Any, pads: tuple, mode: str, value: Any) -> Any:
    xp = be.xp
    for ax, (b, a) in enumerate(pads):
        if not (b or a):
            continue
        if mode == "constant":
            side = tuple(x.shape[:ax]), tuple(x.shape[ax + 1:])
            parts = [xp.full(side[0] + (n,) + side[1], value, dtype=x.dtype) for n in (b, a)]
            x = xp.concat([parts[0], x, parts[1]], axis=ax)
        else:  # each output position copies one input position (NumPy's pad of the positions)
            src = np.pad(np.arange(x.shape[ax]), (b, a), mode=mode)
            x = xp.take(x, xp.asarray(src), axis=ax)
    return x


# ----- softmax cross-entropies, logsumexp, argmax
def _neg_log_softmax(be: Backend, x: Any) -> Any:
    xp = be.xp
    s = x - xp.max(x, axis=-1, keepdims=True)
    return xp.log(xp.sum(xp.exp(s), axis=-1, keepdims=True)) - s


def _sparse_xent(be: Backend, logits: Any, labels: Any) -> Any:
    nls = _neg_log_softmax(be, logits)
    return be.xp.sum(be.xp.where(_hits(be, labels, logits.shape[-1]), nls, be.xp.zeros_like(nls)), axis=-1)


def _lse_shift(be: Backend, x: Any, axes: tuple) -> Any:
    xp = be.xp
    m = xp.max(x, axis=axes, keepdims=True)
    return xp.where(xp.isfinite(m), m, xp.zeros_like(m))


def _lse(be: Backend, x: Any, axes: tuple, keepdims: bool) -> Any:
    xp = be.xp
    m = _lse_shift(be, x, axes)
    r = xp.log(xp.sum(xp.exp(x - m), axis=axes, keepdims=True)) + m
    return r if keepdims else xp.squeeze(r, axis=axes)


def _arg(be: Backend, x: Any, axis: int, out: np.dtype, high: bool) -> Any:
    """TF's ArgMax/ArgMin: NaN skipped (an all-NaN slice gives 0)."""
    xp = be.xp
    if xp.isdtype(x.dtype, "real floating"):
        x = xp.where(xp.isnan(x), xp.asarray(-math.inf if high else math.inf, dtype=x.dtype), x)
    return xp.astype((xp.argmax if high else xp.argmin)(x, axis=axis), be.dtype(out))


# ----- linear algebra: the namespace's linalg extension (CuPy's, NumPy's on the host; Dask: per_matrix)
def _linalg(be: Backend, name: str) -> Any:
    return getattr(getattr(be.xp, "linalg", None), name, None)


def _adj(be: Backend, x: Any) -> Any:
    xp = be.xp
    t = xp.matrix_transpose(x)
    return xp.conj(t) if xp.isdtype(x.dtype, "complex floating") else t


def _band(be: Backend, x: Any, lo: int, hi: int) -> Any:
    xp = be.xp
    i = xp.reshape(xp.arange(x.shape[-2]), (-1, 1))
    j = xp.reshape(xp.arange(x.shape[-1]), (1, -1))
    keep = None  # (a negative count keeps the whole triangle)
    for d, n in ((i - j, lo), (j - i, hi)):
        if n >= 0:
            keep = d <= n if keep is None else keep & (d <= n)
    return x if keep is None else xp.where(keep, x, xp.zeros_like(x))


def _linalg_form(name: str) -> Callable:
    def form(be: Backend, x: Any, *rest: Any, adjoint: bool = False) -> Any:
        f = _linalg(be, name)
        if f is None:
            return NotImplemented
        return f(_adj(be, x) if adjoint else x, *rest)
    return form


def _slogdet(be: Backend, x: Any) -> Any:
    f = _linalg(be, "slogdet")
    if f is None:
        return NotImplemented
    s, l = f(x)
    return s, be.xp.astype(l, x.dtype)


def _trisolve(be: Backend, a: Any, b: Any, lower: bool, adjoint: bool) -> Any:
    """The triangle of ``a`` only (the other is never read), solved by the general solver."""
    solve = _linalg(be, "solve")
    if solve is None:
        return NotImplemented
    t = _band(be, a, -1, 0) if lower else _band(be, a, 0, -1)
    return solve(_adj(be, t) if adjoint else t, b)


def _diag_positions(shape: tuple, k: int) -> tuple:
    """Rows and columns of diagonal ``k`` of an ``m x n`` matrix (NumPy, from the shape)."""
    m, n = shape[-2], shape[-1]
    r = np.arange(max(0, -k), min(m, n - k))
    return r, r + k


def _on_diagonal(be: Backend, d: Any, shape: tuple, k: int) -> Any:
    """``d``'s entries laid on diagonal ``k`` of ``shape`` matrices (another entry of ``d``
    elsewhere), and the mask of that diagonal; None for an empty diagonal. Built from ranges:
    no ``shape``-sized constant (on Dask, no matrix in one chunk)."""
    xp = be.xp
    r, _ = _diag_positions(shape, k)
    if not r.size:
        return None
    i = xp.reshape(xp.arange(shape[0]), (-1, 1))
    j = xp.arange(shape[1])
    col = np.clip(np.arange(shape[1]) - max(k, 0), 0, r.size - 1)  # (the entry of d in each column)
    vals = xp.take(d, xp.asarray(col), axis=d.ndim - 1)
    return xp.reshape(vals, tuple(d.shape[:-1]) + (1, shape[1])), (j - i) == k


def _set_diag(be: Backend, x: Any, d: Any, k: int) -> Any:
    laid = _on_diagonal(be, d, tuple(x.shape[-2:]), k)
    return NotImplemented if laid is None else be.xp.where(laid[1], laid[0], x)


def _diag(be: Backend, d: Any, k: int, rows: int, cols: int, pad: Any) -> Any:
    laid = _on_diagonal(be, d, (rows, cols), k)
    return NotImplemented if laid is None else be.xp.where(laid[1], laid[0], be.xp.asarray(pad, dtype=d.dtype))


# ----- sorting: the order, and picking along the last axis by it
def _sort_order(be: Backend, v: Any, axis: int, descending: bool, k: int | None, dtype: Any) -> Any:
    xp = be.xp
    o = xp.argsort(v, axis=axis, descending=descending, stable=True)
    if k is not None:
        o = o[(slice(None),) * (axis % v.ndim) + (slice(0, k), ...)]
    return xp.astype(o, be.dtype(np.dtype(dtype)))


def _along(be: Backend, idx: Any, shape: tuple) -> Any:
    """``idx`` (leading axes of length 1 added) broadcast to ``shape``."""
    xp = be.xp
    return xp.broadcast_to(xp.reshape(idx, (1,) * (len(shape) - idx.ndim) + tuple(idx.shape)), shape)


def _take_along(be: Backend, x: Any, idx: Any) -> Any:
    xp = be.xp
    i = _along(be, idx, tuple(x.shape[:-1]) + tuple(idx.shape[-1:]))
    if hasattr(xp, "take_along_axis"):
        return xp.take_along_axis(x, i, axis=-1)
    picked = xp.where(_hits(be, i, x.shape[-1]),  # (Dask has none)
                      xp.reshape(x, tuple(x.shape[:-1]) + (1, x.shape[-1])), xp.zeros((), dtype=x.dtype))
    return xp.sum(picked, axis=-1, dtype=x.dtype)


def _put_along(be: Backend, g: Any, idx: Any, n: int) -> Any:
    """Distinct indices in a row: each output entry takes the one ``g`` entry sent there."""
    xp = be.xp
    i = _along(be, idx, tuple(g.shape))
    picked = xp.where(_hits(be, i, n), xp.reshape(g, tuple(g.shape) + (1,)), xp.zeros((), dtype=g.dtype))
    return xp.sum(picked, axis=-2, dtype=g.dtype)


def _complex(be: Backend, re: Any, im: Any) -> Any:
    xp = be.xp
    single = np.result_type(be.np_dtype(re.dtype), be.np_dtype(im.dtype)) == np.float32
    c = be.dtype(np.dtype(np.complex64 if single else np.complex128))
    return xp.astype(re, c) + xp.astype(im, c) * 1j


# ----- FFTs: the namespace's fft extension over the last ``rank`` axes
_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128)}
_REAL_OF = {v: k for k, v in _COMPLEX_OF.items()}


def _fft_form(name: str) -> Callable:
    def form(be: Backend, x: Any, rank: int, n: int | None = None) -> Any:
        f = getattr(getattr(be.xp, "fft", None), name, None)
        if f is None:
            return NotImplemented
        axes = tuple(range(-rank, 0))
        dt = be.np_dtype(x.dtype)
        x = be.whole(x, axes)
        if name == "rfftn":
            return be.xp.astype(f(x, axes=axes), be.dtype(_COMPLEX_OF[dt]))
        if name == "irfftn":
            s = tuple(x.shape[x.ndim - rank:-1]) + (n,)
            return be.xp.astype(f(x, s=s, axes=axes), be.dtype(_REAL_OF[dt]))
        return be.xp.astype(f(x, axes=axes), x.dtype)
    return form


_fftn, _ifftn, _rfftn, _irfftn = (_fft_form(n) for n in ("fftn", "ifftn", "rfftn", "irfftn"))


# ----- decompositions: the linalg extension; on Dask, the op's NumPy forward per block of matrices
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


# Dask's blocked algorithms for one 2-D matrix in several chunks (``da``: dask.array), on square
# chunks of the row chunks' size; each reads what the NumPy forward reads and gives its result.
# Dask's LU pivots within diagonal blocks only (a valid matrix with a singular diagonal block
# fails) and its TSQR's signs are not LAPACK's, so solve, inv, qr and svd stay per_matrix.
def _blocked_cholesky(da: Any, a: Any) -> Any:
    """The lower factor of ``a``'s lower triangle; Dask's wants equal chunks (and reads the upper
    blocks): ``a`` symmetrized and padded, ``chol([[A, 0], [0, I]]) = [[L, 0], [0, I]]``."""
    n, c = a.shape[0], max(a.chunks[0])
    if c == n:
        return NotImplemented
    i = da.arange(n, chunks=c)
    a = da.where(i[:, None] >= i, a, da.conj(a.T))  # (Dask's tril warns on complex arrays)
    pad = -n % c
    if pad:
        a = da.block([[a, da.zeros((n, pad), dtype=a.dtype)],
                      [da.zeros((pad, n), dtype=a.dtype), da.eye(pad, dtype=a.dtype)]])
    low = da.linalg.cholesky(a.rechunk(c), lower=True)
    return low[:n, :n] if pad else low


def _blocked_trisolve(da: Any, a: Any, b: Any, lower: bool, adjoint: bool) -> Any:
    if adjoint:
        a, lower = da.conj(a.T), not lower
    dt = np.result_type(a.dtype, b.dtype)
    a = a.rechunk(max(a.chunks[0])).astype(dt)
    return da.linalg.solve_triangular(a, b.rechunk({0: a.chunks[1]}).astype(dt), lower=lower)


BLOCKED: dict[str, Callable] = {"Cholesky": _blocked_cholesky, "MatrixTriangularSolve": _blocked_trisolve}


def _finite_only(be: Backend, f: Callable, x: Any, fill: Any) -> tuple:
    """``f(x)``'s outputs with the matrices of ``x`` that hold NaN or Inf given to ``f`` as
    ``fill`` and their results NaN (as the NumPy forwards: LAPACK would not converge)."""
    xp = be.xp
    bad = xp.logical_not(xp.all(xp.isfinite(x), axis=(-2, -1)))
    outs = f(xp.where(xp.reshape(bad, tuple(bad.shape) + (1, 1)), fill, x))

    def nan(o: Any) -> Any:
        b = xp.reshape(bad, tuple(bad.shape) + (1,) * (o.ndim - bad.ndim))
        return xp.where(b, xp.asarray(math.nan, dtype=o.dtype), o)
    return tuple(nan(o) for o in outs)


def _svd(be: Backend, x: Any, full: bool) -> Any:
    f = _linalg(be, "svd")
    if f is None:
        return NotImplemented

    def svd(a: Any) -> tuple:
        u, s, vh = f(a, full_matrices=full)
        return s, u, _adj(be, vh)
    return _finite_only(be, svd, x, be.xp.zeros((), dtype=x.dtype))


def _svdvals(be: Backend, x: Any) -> Any:
    f = _linalg(be, "svdvals")
    return NotImplemented if f is None else _finite_only(be, lambda a: (f(a),), x, be.xp.zeros((), dtype=x.dtype))[0]


def _eig(be: Backend, x: Any) -> Any:
    f = _linalg(be, "eig")  # (the standard's 2025.12 revision)
    if f is None:
        return NotImplemented
    c = be.dtype(np.result_type(be.np_dtype(x.dtype), np.complex64))
    return _finite_only(be, lambda a: tuple(be.xp.astype(o, c) for o in f(a)), x,
                        be.xp.eye(x.shape[-1], dtype=x.dtype))


def _eigh(be: Backend, x: Any) -> Any:
    f = _linalg(be, "eigh")  # (the lower triangle, as NumPy's)
    if f is None:
        return NotImplemented
    e, v = f(x)
    return be.xp.astype(e, x.dtype), v


def _eigvalsh(be: Backend, x: Any) -> Any:
    f = _linalg(be, "eigvalsh")
    return NotImplemented if f is None else be.xp.astype(f(x), x.dtype)


def _qr(be: Backend, x: Any, full: bool) -> Any:
    f = _linalg(be, "qr")
    return NotImplemented if f is None else tuple(f(x, mode="complete" if full else "reduced"))


# Array-API forms of ops whose NumPy forward uses more than NumPy's ufuncs: ``form(backend,
# *arrays, **params)``, the same params as the op's forward. A form returns NotImplemented for a
# case it does not cover (the next way in the module docstring's order is tried).
FORMS: dict[str, Callable] = {
    "Sum": _sum,
    "Mean": lambda be, x, axes, keepdims: be.xp.mean(x, axis=axes, keepdims=keepdims),
    "Max": lambda be, x, axes, keepdims: be.xp.max(x, axis=axes, keepdims=keepdims),
    "Min": lambda be, x, axes, keepdims: be.xp.min(x, axis=axes, keepdims=keepdims),
    "Prod": lambda be, x, axes, keepdims: be.xp.prod(x, axis=axes, keepdims=keepdims, dtype=x.dtype),
    "Any": lambda be, x, axes, keepdims: be.xp.any(x, axis=axes, keepdims=keepdims),
    "All": lambda be, x, axes, keepdims: be.xp.all(x, axis=axes, keepdims=keepdims),
    "UnbroadcastSum": _unbroadcast,
    "BroadcastTo": lambda be, x, shape: be.xp.broadcast_to(x, shape),
    "Reshape": lambda be, x, shape: be.xp.reshape(x, shape),
    "Transpose": lambda be, x, perm: be.xp.permute_dims(x, perm),
    "Pack": lambda be, *xs, axis: be.xp.stack(xs, axis=axis),
    "ConcatV2": lambda be, *xs, axis: be.xp.concat(xs, axis=axis),
    "ReverseV2": lambda be, x, axes: be.xp.flip(x, axis=axes),
    "Identity": lambda be, x: x,
    "StopGradient": lambda be, x: x,
    "BatchMatMulV2": _matmul,
    "Cast": _cast,
    "CastToNonFloat": _cast,
    "SelectV2": lambda be, c, x, y: be.xp.where(c, x, y),
    "Relu": lambda be, x: _where0(be, x > 0, x),
    "ReluGrad": lambda be, g, x: _where0(be, x > 0, g),
    "Sigmoid": _sigmoid,
    "Rsqrt": lambda be, x: 1 / be.xp.sqrt(x),
    "Softmax": _softmax,
    "LogSoftmax": _log_softmax,
    "AddN": lambda be, *xs: sum(xs[1:], xs[0]),
    "StridedSlice": _strided_slice,
    "StridedSliceGrad": _slice_grad,
    "Tile": lambda be, x, multiples: be.xp.tile(x, tuple(multiples)),
    "Roll": lambda be, x, shifts, axes: be.xp.roll(x, shift=tuple(shifts), axis=tuple(axes)) if axes else x,
    "Cumsum": _cumulative("cumulative_sum"),
    "Cumprod": _cumulative("cumulative_prod"),
    "FloorDiv": lambda be, x, y: be.xp.floor_divide(x, y),
    "FloorMod": lambda be, x, y: be.xp.remainder(x, y),
    "MulNoNan": lambda be, x, y: _zero_where(be, y == 0, x * y),
    "DivNoNan": lambda be, x, y: _zero_where(be, y == 0, x / be.xp.where(y == 0, be.xp.ones_like(y), y)),
    "SquaredDifference": lambda be, x, y: (x - y) * (be.xp.conj(x - y) if be.xp.isdtype(x.dtype, "complex floating") else x - y),
    "Round": lambda be, x: be.xp.round(x),
    "Relu6": lambda be, x: be.xp.clip(x, 0, 6),
    "Softsign": lambda be, x: x / (1 + be.xp.abs(x)),
    "Elu": lambda be, x: be.xp.where(x < 0, be.xp.expm1(be.xp.minimum(x, be.xp.zeros_like(x))), x),
    "Real": lambda be, x: be.xp.real(x),
    "Imag": lambda be, x: be.xp.imag(x),
    "Conj": lambda be, x: be.xp.conj(x),
    "GatherV2": _gather,
    "GatherGrad": _gather_grad,
    "UnsortedSegmentSum": lambda be, data, ids, num_segments: _scatter_add(be, data, ids, num_segments, 0),
    "OneHot": _one_hot,
    "Split": lambda be, x, offsets, axis: tuple(
        x[(slice(None),) * axis + (slice(a, b), ...)] for a, b in zip((0,) + offsets, offsets + (x.shape[axis],))),
    "Unpack": lambda be, x, axis: tuple(x[(slice(None),) * axis + (i, ...)] for i in range(x.shape[axis])),
    "PadV2": _pad,
    "SoftmaxCrossEntropyWithLogits": lambda be, logits, labels: be.xp.sum(labels * _neg_log_softmax(be, logits), axis=-1),
    "SparseSoftmaxCrossEntropyWithLogits": _sparse_xent,
    "LogSumExp": _lse,
    "LogSumExpShift": _lse_shift,
    "ArgMax": lambda be, x, axis, out: _arg(be, x, axis, out, True),
    "ArgMin": lambda be, x, axis, out: _arg(be, x, axis, out, False),
    "LeakyRelu": lambda be, x, alpha: be.xp.where(x > 0, x, x * alpha),
    "Repeat": lambda be, x, idx, axis: _take(be, x, idx, axis),
    "Where": lambda be, c: (NotImplemented if be.numpy_api or not c.ndim else  # (np.argwhere on Dask, CuPy)
                            be.xp.astype(be.xp.stack(be.xp.nonzero(c), axis=-1), be.dtype(np.dtype(np.int64)))),
    "EuclideanNorm": _euclidean_norm,
    "Softplus": _softplus,
    "LeakyReluGrad": lambda be, g, x, alpha: be.xp.where(x > 0, g, g * alpha),
    "Relu6Grad": lambda be, g, x: _where0(be, (x > 0) & (x < 6), g),
    "MatrixBandPart": _band,
    "MatrixDiagPartV3": lambda be, x, k: be.xp.linalg.diagonal(x, offset=k) if hasattr(be.xp, "linalg") else NotImplemented,
    "MatrixSetDiagV3": _set_diag,
    "MatrixDiagV3": _diag,
    "SortOrder": _sort_order,
    "TakeAlongLastAxis": _take_along,
    "PutAlongLastAxis": _put_along,
    "Complex": lambda be, re, im: _complex(be, re, im),
    "Cholesky": _linalg_form("cholesky"),
    "MatrixInverse": _linalg_form("inv"),
    "MatrixDeterminant": _linalg_form("det"),
    "LogMatrixDeterminant": _slogdet,
    "Svd": _svd,
    "SvdValues": _svdvals,
    "Qr": _qr,
    "SelfAdjointEigV2": _eigh,
    "SelfAdjointEigVals": _eigvalsh,
    "Eig": _eig,
    "MatrixSolve": _linalg_form("solve"),
    "MatrixTriangularSolve": _trisolve,
    "FFT": _fftn, "FFT2D": _fftn, "FFT3D": _fftn,
    "IFFT": _ifftn, "IFFT2D": _ifftn, "IFFT3D": _ifftn,
    "RFFT": _rfftn, "RFFT2D": _rfftn, "RFFT3D": _rfftn,
    "IRFFT": _irfftn, "IRFFT2D": _irfftn, "IRFFT3D": _irfftn,
}

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
        f"input with tf.constant(t.numpy()) first (this computes or copies the array), or add an "
        f"array-API form for {op.name} to tapegrad._backend.FORMS. [Op:{op.name}]")


def forward(op: Any, be: Backend, vals: list, p: dict) -> Any:
    """Run ``op``'s forward on backend arrays ``vals`` (see the module docstring for the order)."""
    with be.on(vals[0]):
        return _forward(op, be, vals, p)


def _forward(op: Any, be: Backend, vals: list, p: dict) -> Any:
    form = FORMS.get(op.name)
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
