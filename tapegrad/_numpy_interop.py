"""NumPy interop: NumPy ufuncs and functions on tensors stay on the tape.

``Tensor`` and ``Variable`` get ``__array_ufunc__`` and ``__array_function__`` (installed below,
when ``tapegrad`` is imported). NumPy calls them only when one of its functions receives a tensor,
so tapegrad's own ops never pass through here.

* A NumPy callable listed in :data:`UFUNCS` or :data:`FUNCTIONS` runs the tapegrad function it
  maps to and returns a Tensor that GradientTapes follow::

      >>> import numpy as np, tapegrad as tf
      >>> x = tf.constant([0.0, 1.0])
      >>> with tf.GradientTape() as tape:
      ...     tape.watch(x)
      ...     y = np.sum(np.sin(x) * np.array([2.0, 3.0]))     # a Tensor, recorded
      >>> print(tape.gradient(y, x).numpy().round(4))       # 2 cos(0), 3 cos(1)
      [2.     1.6209]

* Anything else (other callables, unsupported arguments such as ``out=``, ``dtype=``,
  ``ufunc.reduce``) converts the tensors to arrays and runs NumPy as before; the result is a
  NumPy array and a constant for tapes, and in explain mode (:mod:`tapegrad.diagnosis`) the
  value is reported as having left the tape through that call.

Dtypes follow TensorFlow, not NumPy: an array or Python number combined with a tensor is
converted to the tensor's dtype (``np.ones(2) * tf.ones(2)`` is float32, not float64), and two
tensors of different dtypes are an error, as in tapegrad's own ops. Operators with the array on
the left (``array * tensor``, ``array @ tensor``) give Tensors.

The tables are written out by hand. A value is either the public tapegrad function, given by its
name in the ``tapegrad`` namespace (looked up when called, so every op family can be listed without
import-order constraints; a name that does not exist falls back to NumPy), or an adapter that
translates NumPy's arguments, raising :class:`_Unsupported` for arguments it does not translate.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable

import numpy as np

from ._convert import convert_to_tensor
from ._recorders import note_escape as _note_escape
from ._tensor import IndexedSlices, Tensor
from ._variable import Variable


class _Unsupported(Exception):
    """An adapter does not handle these arguments: run NumPy on arrays instead."""


_tf_module: Any = None


def _tf(path: str) -> Callable:
    """The public tapegrad function ``path`` (``"reduce_sum"``, ``"linalg.inv"``)."""
    global _tf_module
    if _tf_module is None:
        _tf_module = importlib.import_module("tapegrad")
    obj = _tf_module
    for part in path.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise _Unsupported(path)
    return obj


def _like(values: Any) -> list:
    """Tensors from a sequence; arrays and numbers take the first tensor's dtype (TF's rule)."""
    values = list(values)
    dt = next((v.dtype for v in values if isinstance(v, (Tensor, Variable))), None)
    return [v if isinstance(v, (Tensor, Variable)) else convert_to_tensor(v, dtype=dt) for v in values]


def _no(**given: Any) -> None:
    """Arguments the adapter does not translate must have their NumPy defaults."""
    for name, (value, default) in given.items():
        if value is default:
            continue
        if isinstance(default, (bool, int, str)) and type(value) is type(default) and value == default:
            continue
        raise _Unsupported(name)


# ---------------------------------------------------------------------------- ufuncs
def _matmul(a: Any, b: Any) -> Tensor:
    """``np.matmul``: 1-D operands are promoted to matrices and the added axis removed."""
    a, b = _like((a, b))
    a1, b1 = a.ndim == 1, b.ndim == 1
    if a1:
        a = _tf("expand_dims")(a, 0)
    if b1:
        b = _tf("expand_dims")(b, -1)
    out = _tf("matmul")(a, b)
    if b1:
        out = _tf("squeeze")(out, -1)
    if a1:
        out = _tf("squeeze")(out, -2 if out.ndim >= 2 else -1)
    return out


def _positive(x: Any) -> Tensor:
    return _tf("identity")(x)


UFUNCS: dict = {
    np.add: "add", np.subtract: "subtract", np.multiply: "multiply",
    np.true_divide: "truediv", np.floor_divide: "floordiv", np.remainder: "math.floormod",
    np.power: "pow", np.negative: "negative", np.positive: _positive, np.absolute: "abs",
    np.sign: "sign", np.square: "square", np.sqrt: "sqrt", np.reciprocal: "reciprocal",
    np.exp: "exp", np.expm1: "math.expm1", np.log: "log", np.log1p: "math.log1p",
    np.sin: "sin", np.cos: "cos", np.tan: "tan", np.tanh: "tanh",
    np.arcsin: "math.asin", np.arccos: "math.acos", np.arctan: "math.atan",
    np.sinh: "math.sinh", np.cosh: "math.cosh", np.arcsinh: "math.asinh",
    np.arccosh: "math.acosh", np.arctanh: "math.atanh", np.arctan2: "math.atan2",
    np.floor: "math.floor", np.ceil: "math.ceil", np.rint: "math.round",
    np.maximum: "maximum", np.minimum: "minimum",
    np.equal: "equal", np.not_equal: "not_equal", np.less: "less", np.less_equal: "less_equal",
    np.greater: "greater", np.greater_equal: "greater_equal",
    np.logical_and: "logical_and", np.logical_or: "logical_or", np.logical_xor: "math.logical_xor",
    np.logical_not: "logical_not", np.conjugate: "conj",
    np.isnan: "math.is_nan", np.isinf: "math.is_inf", np.isfinite: "math.is_finite",
    np.matmul: _matmul,
}


# ---------------------------------------------------------------------------- functions
def _reduction(name: str) -> Callable:
    def adapter(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False,
                initial: Any = np._NoValue, where: Any = np._NoValue) -> Tensor:
        _no(dtype=(dtype, None), out=(out, None), initial=(initial, np._NoValue), where=(where, np._NoValue))
        return _tf(name)(a, axis=axis, keepdims=bool(keepdims))
    return adapter


def _minmax(name: str) -> Callable:
    def adapter(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False,
                initial: Any = np._NoValue, where: Any = np._NoValue) -> Tensor:
        _no(out=(out, None), initial=(initial, np._NoValue), where=(where, np._NoValue))
        return _tf(name)(a, axis=axis, keepdims=bool(keepdims))
    return adapter


def _moment(name: str) -> Callable:
    def adapter(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: Any = 0,
                keepdims: Any = False, **kw: Any) -> Tensor:
        _no(dtype=(dtype, None), out=(out, None))
        if ddof != 0 or any(v is not np._NoValue and v is not None for v in kw.values()):
            raise _Unsupported("ddof")
        return _tf(name)(a, axis=axis, keepdims=bool(keepdims))
    return adapter


def _dot(a: Any, b: Any, out: Any = None) -> Tensor:
    """``np.dot``: scalars multiply, vectors contract, otherwise the last axis of ``a`` with the
    second-to-last of ``b`` (the last for a 1-D ``b``)."""
    _no(out=(out, None))
    a, b = _like((a, b))
    if a.ndim == 0 or b.ndim == 0:
        return _tf("multiply")(a, b)
    if a.ndim <= 2 and b.ndim <= 2:
        return _matmul(a, b)
    return _tf("linalg.tensordot")(a, b, [[a.ndim - 1], [max(b.ndim - 2, 0)]])


def _outer(a: Any, b: Any, out: Any = None) -> Tensor:
    _no(out=(out, None))
    a, b = _like((a, b))
    reshape = _tf("reshape")
    return reshape(a, [-1, 1]) * reshape(b, [1, -1])


def _tensordot(a: Any, b: Any, axes: Any = 2) -> Tensor:
    a, b = _like((a, b))
    return _tf("linalg.tensordot")(a, b, axes)


def _einsum(subscripts: Any, *operands: Any, out: Any = None, optimize: Any = False, **kw: Any) -> Tensor:
    _no(out=(out, None))
    if not isinstance(subscripts, str) or kw:
        raise _Unsupported("einsum")
    return _tf("linalg.einsum")(subscripts, *_like(operands))


def _where(condition: Any, x: Any = np._NoValue, y: Any = np._NoValue) -> Tensor:
    if x is np._NoValue or y is np._NoValue:
        raise _Unsupported("where with one argument")
    x, y = _like((x, y))
    if not isinstance(condition, (Tensor, Variable)):
        condition = np.asarray(condition, dtype=bool)
    elif condition.dtype.name != "bool":
        condition = _tf("not_equal")(condition, 0)
    return _tf("where")(condition, x, y)


def _concatenate(arrays: Any, axis: Any = 0, out: Any = None, dtype: Any = None, casting: Any = "same_kind") -> Tensor:
    _no(out=(out, None), dtype=(dtype, None))
    values = _like(arrays)
    if axis is None:
        values, axis = [_tf("reshape")(v, [-1]) for v in values], 0
    return _tf("concat")(values, axis)


def _stack(arrays: Any, axis: Any = 0, out: Any = None, dtype: Any = None, casting: Any = "same_kind") -> Tensor:
    _no(out=(out, None), dtype=(dtype, None))
    return _tf("stack")(_like(arrays), axis)


def _reshape(a: Any, shape: Any = None, order: Any = "C", *, newshape: Any = None, copy: Any = None) -> Tensor:
    if order != "C":
        raise _Unsupported("order")
    shape = newshape if shape is None else shape
    return _tf("reshape")(a, [shape] if isinstance(shape, (int, np.integer)) else shape)


def _transpose(a: Any, axes: Any = None) -> Tensor:
    return _tf("transpose")(a, perm=axes)


def _squeeze(a: Any, axis: Any = None) -> Tensor:
    return _tf("squeeze")(a, axis)


def _expand_dims(a: Any, axis: Any) -> Tensor:
    if not isinstance(axis, (int, np.integer)):
        raise _Unsupported("axis")
    return _tf("expand_dims")(a, int(axis))


def _clip(a: Any, a_min: Any = np._NoValue, a_max: Any = np._NoValue, out: Any = None, **kw: Any) -> Tensor:
    _no(out=(out, None))
    lo, hi = kw.pop("min", a_min), kw.pop("max", a_max)
    if lo is None or hi is None or lo is np._NoValue or hi is np._NoValue or kw:
        raise _Unsupported("clip bounds")
    return _tf("clip_by_value")(*_like((a, lo, hi)))


def _scan(name: str) -> Callable:
    def adapter(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Tensor:
        _no(dtype=(dtype, None), out=(out, None))
        if axis is None:
            a, axis = _tf("reshape")(a, [-1]), 0
        return _tf(name)(a, axis=axis)
    return adapter


def _broadcast_to(array: Any, shape: Any, subok: Any = False) -> Tensor:
    return _tf("broadcast_to")(array, [shape] if isinstance(shape, (int, np.integer)) else shape)


def _trace(a: Any, offset: Any = 0, axis1: Any = 0, axis2: Any = 1, dtype: Any = None, out: Any = None) -> Tensor:
    _no(offset=(offset, 0), dtype=(dtype, None), out=(out, None))
    t = _like((a,))[0]
    if t.ndim != 2 or {axis1 % 2, axis2 % 2} != {0, 1}:
        raise _Unsupported("trace axes")
    return _tf("linalg.trace")(t)


def _round(a: Any, decimals: Any = 0, out: Any = None) -> Tensor:
    _no(decimals=(decimals, 0), out=(out, None))
    return _tf("math.round")(a)


def _linalg_solve(a: Any, b: Any) -> Tensor:
    a, b = _like((a, b))
    if b.ndim == 1:  # NumPy's 1-D right-hand side is a vector
        return _tf("squeeze")(_tf("linalg.solve")(a, _tf("expand_dims")(b, -1)), -1)
    return _tf("linalg.solve")(a, b)


def _linalg_norm(x: Any, ord: Any = None, axis: Any = None, keepdims: Any = False) -> Tensor:  # noqa: A002
    t = _like((x,))[0]
    if ord is None or ord == "fro":
        if axis is None and t.ndim == 2:
            axis = (-2, -1)
        return _tf("norm")(t, "euclidean", axis=axis, keepdims=bool(keepdims))
    if axis is None and t.ndim == 1 and ord in (1, 2, np.inf):
        return _tf("norm")(t, ord, axis=None, keepdims=bool(keepdims))
    raise _Unsupported("ord")


def _linalg_svd(a: Any, full_matrices: Any = True, compute_uv: Any = True, hermitian: Any = False) -> Any:
    _no(hermitian=(hermitian, False))
    if not compute_uv:
        return _tf("linalg.svd")(a, full_matrices=bool(full_matrices), compute_uv=False)
    s, u, v = _tf("linalg.svd")(a, full_matrices=bool(full_matrices))
    return u, s, _tf("linalg.adjoint")(v)  # NumPy returns v^H


def _linalg_qr(a: Any, mode: Any = "reduced") -> Any:
    if mode not in ("reduced", "complete", "r"):
        raise _Unsupported("mode")
    q, r = _tf("linalg.qr")(a, full_matrices=mode == "complete")
    return r if mode == "r" else (q, r)


def _linalg_eigh(a: Any, UPLO: Any = "L") -> Any:  # noqa: N803 (NumPy's name)
    _no(UPLO=(UPLO, "L"))
    return _tf("linalg.eigh")(a)


def _linalg_eigvalsh(a: Any, UPLO: Any = "L") -> Tensor:  # noqa: N803
    _no(UPLO=(UPLO, "L"))
    return _tf("linalg.eigvalsh")(a)


def _linalg_pinv(a: Any, rcond: Any = None, hermitian: Any = False, **kw: Any) -> Tensor:
    _no(rcond=(rcond, None), hermitian=(hermitian, False))
    if kw.get("rtol", np._NoValue) not in (None, np._NoValue):
        raise _Unsupported("rtol")
    return _tf("linalg.pinv")(a)


FUNCTIONS: dict = {
    np.sum: _reduction("reduce_sum"), np.mean: _reduction("reduce_mean"),
    np.prod: _reduction("reduce_prod"),
    np.max: _minmax("reduce_max"), np.min: _minmax("reduce_min"),
    np.std: _moment("reduce_std"), np.var: _moment("reduce_variance"),
    np.dot: _dot, np.outer: _outer, np.tensordot: _tensordot, np.einsum: _einsum,
    np.where: _where, np.concatenate: _concatenate, np.stack: _stack,
    np.reshape: _reshape, np.transpose: _transpose, np.squeeze: _squeeze,
    np.expand_dims: _expand_dims, np.clip: _clip, np.broadcast_to: _broadcast_to,
    np.cumsum: _scan("cumsum"), np.cumprod: _scan("math.cumprod"),
    np.trace: _trace, np.round: _round,
    np.linalg.inv: "linalg.inv", np.linalg.det: "linalg.det", np.linalg.slogdet: "linalg.slogdet",
    np.linalg.cholesky: "linalg.cholesky", np.linalg.solve: _linalg_solve,
    np.linalg.norm: _linalg_norm, np.linalg.svd: _linalg_svd, np.linalg.qr: _linalg_qr,
    np.linalg.eigh: _linalg_eigh, np.linalg.eigvalsh: _linalg_eigvalsh,
    np.linalg.pinv: _linalg_pinv,
}
if hasattr(np, "amax"):  # aliases that are separate functions in some NumPy versions
    FUNCTIONS.setdefault(np.amax, FUNCTIONS[np.max])
    FUNCTIONS.setdefault(np.amin, FUNCTIONS[np.min])
if hasattr(np.linalg, "matmul"):  # NumPy >= 2
    FUNCTIONS[np.linalg.matmul] = _matmul
    FUNCTIONS[np.linalg.matrix_transpose] = "linalg.matrix_transpose"


# ---------------------------------------------------------------------------- the protocols
def _name(f: Any) -> str:
    """How to name a NumPy callable in explain mode's report (``np.linalg.det``)."""
    name = getattr(f, "__name__", repr(f))
    if isinstance(f, np.ufunc):
        return f"np.{name}" if getattr(np, name, None) is f else f"ufunc:{name}"
    mod = getattr(f, "__module__", None) or "numpy"
    parts = [p for p in mod.split(".") if not p.startswith("_")]
    if parts and parts[0] == "numpy":
        parts[0] = "np"
    return ".".join(parts + [name]) if parts and parts[0] == "np" else f"np.{name}"


def _arrays(obj: Any, how: str) -> Any:
    """``obj`` with every tensor replaced by a NumPy array (noting that it left the tapes)."""
    if isinstance(obj, Tensor):
        _note_escape(obj, how)
        return np.asarray(obj._value)
    if isinstance(obj, Variable):
        _note_escape(obj._snap, how)
        return np.array(obj._snap._value)
    if isinstance(obj, IndexedSlices):
        return _arrays(convert_to_tensor(obj), how)
    if type(obj) in (list, tuple):
        return type(obj)(_arrays(o, how) for o in obj)
    if type(obj) is dict:
        return {k: _arrays(v, how) for k, v in obj.items()}
    return obj


def _call(target: Any, args: tuple, kwargs: dict) -> Any:
    fn = _tf(target) if isinstance(target, str) else target
    return fn(*args, **kwargs)


def _foreign(types: Any) -> bool:
    return any(not issubclass(t, (Tensor, Variable, IndexedSlices, np.ndarray)) for t in types)


def __array_ufunc__(self: Any, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
    """NumPy ufunc on tensors: the tapegrad op (a Tensor, recorded) when :data:`UFUNCS` lists
    the ufunc and the call is a plain ``ufunc(...)``; otherwise NumPy on arrays."""
    if _foreign(type(x) for x in inputs if hasattr(x, "__array_ufunc__")):
        return NotImplemented
    out = kwargs.get("out")
    if out is not None and any(isinstance(o, (Tensor, Variable)) for o in out):
        raise TypeError(f"{_name(ufunc)}(..., out=...): tapegrad tensors are immutable and cannot "
                        "be written into; drop out= (Variables: use v.assign(...)).")
    target = UFUNCS.get(ufunc) if method == "__call__" and not kwargs else None
    if target is not None:
        try:
            return _call(target, inputs, {})
        except _Unsupported:
            pass
    how = _name(ufunc) if method == "__call__" else f"{_name(ufunc)}.{method}"
    return getattr(ufunc, method)(*_arrays(inputs, how), **_arrays(kwargs, how))


def __array_function__(self: Any, func: Any, types: Any, args: tuple, kwargs: dict) -> Any:
    """NumPy function on tensors: the tapegrad function (Tensors, recorded) when
    :data:`FUNCTIONS` lists it and the arguments translate; otherwise NumPy on arrays."""
    if _foreign(types):
        return NotImplemented
    target = FUNCTIONS.get(func)
    if target is not None:
        try:
            return _call(target, args, kwargs)
        except _Unsupported:
            pass
    how = _name(func)
    return func(*_arrays(args, how), **_arrays(kwargs, how))


for _cls in (Tensor, Variable):
    _cls.__array_ufunc__ = __array_ufunc__  # type: ignore[attr-defined]
    _cls.__array_function__ = __array_function__  # type: ignore[attr-defined]
