"""``tapegrad.experimental.numpy``: NumPy's API on tapegrad tensors (TensorFlow's
``tf.experimental.numpy``), differentiable wherever the tapegrad ops underneath are.

Dtypes follow NumPy, as TensorFlow's module does: Python floats and lists become float64 and
ints int64; a Python scalar next to a tensor takes the tensor's dtype when their kinds agree
(``float32 + 1.0`` stays float32; ``int32 + 1.5`` is float64); tensors of different dtypes
promote (``int32 * float32`` is float64); ``true_divide``, ``mean`` and the float functions of
integers give float64; ``sum`` and ``cumsum`` of small integers give int64; indices are int64.

>>> import tapegrad as tf
>>> import tapegrad.experimental.numpy as tnp
>>> tnp.asarray([1.0, 2.0]).dtype
tf.float64
>>> float(tnp.mean(tnp.arange(4)))
1.5
>>> tnp.add(tf.constant([1.0]), 1).dtype
tf.float32
"""
from __future__ import annotations

import builtins
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._convert import convert_to_tensor
from .._dispatch import apply
from .._tensor import Tensor, TensorShape, constant_maker
from .._variable import Variable
from ..ops import array as _a
from ..ops import indexing as _i
from ..ops import linalg as _l
from ..ops import math as _m
from ..ops import _OPERATORS
from . import _numpy_style as _ns, _promotion
from ..ops import reduction as _r
from ..ops import sort as _s
from ..ops import special as _sp
from . import _numpy_random as random  # noqa: F401  (tnp.random)

__all__ = ["abs", "absolute", "add", "all", "allclose", "amax", "amin", "any", "arange", "arccos",
    "arcsin", "arctan", "arctan2", "argmax", "argmin", "argsort", "around", "array", "array_equal",
    "asanyarray", "asarray", "ascontiguousarray", "atleast_1d", "atleast_2d", "average", "bool_",
    "broadcast_to", "ceil", "clip", "complex64", "complex128", "complex_", "concatenate", "copy",
    "cos", "cosh", "count_nonzero", "cumprod", "cumsum", "diag", "diff", "divide", "dot", "e",
    "einsum", "empty", "empty_like", "equal", "exp", "expand_dims",
    "experimental_enable_numpy_behavior", "expm1", "eye", "finfo", "flatten", "flip", "fliplr",
    "flipud", "float16", "float32", "float64", "float_", "floor", "floor_divide", "full",
    "full_like", "greater", "greater_equal", "hstack", "hypot", "identity", "iinfo", "inf",
    "inner", "int8", "int16", "int32", "int64", "int_", "isclose", "isfinite", "isinf", "isnan",
    "issubdtype", "less", "less_equal", "linspace", "log", "log1p", "log2", "log10", "logaddexp",
    "logical_and", "logical_not", "logical_or", "logical_xor", "matmul", "max", "maximum", "mean",
    "meshgrid", "min", "minimum", "mod", "moveaxis", "multiply", "ndarray", "ndim", "negative",
    "newaxis", "not_equal", "ones", "ones_like", "outer", "pad", "pi", "positive", "power", "prod",
    "promote_types", "ptp", "ravel", "reciprocal", "remainder", "repeat", "reshape", "result_type",
    "roll", "round", "shape", "sign", "sin", "sinh", "size", "sort", "split", "sqrt", "square",
    "squeeze", "stack", "std", "subtract", "sum", "swapaxes", "take", "tan", "tanh", "tensordot",
    "tile", "trace", "transpose", "tril", "triu", "true_divide", "uint8", "uint16", "uint32",
    "uint64", "var", "vstack", "where", "zeros", "zeros_like"]

# NumPy's names for dtypes and constants, as tf.experimental.numpy has them
bool_, int8, int16, int32, int64 = np.bool_, np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64, complex64, complex128 = np.float16, np.float32, np.float64, np.complex64, np.complex128
float_, int_, complex_ = np.float64, np.int64, np.complex128
pi, e, inf, newaxis = np.pi, np.e, np.inf, None
ndarray = Tensor
finfo, iinfo, issubdtype, promote_types = np.finfo, np.iinfo, np.issubdtype, np.promote_types


# --------------------------------------------------------------------------- conversion and dtypes
def _np_dtype(dtype: Any) -> np.dtype | None:
    if dtype is None or builtins.any(dtype is t for t in (builtins.bool, int, float, complex)):
        if dtype is not None and _ns.auto():  # (the lattice's: int32, float32, complex128)
            return _promotion.result_type(dtype)[0]._np
        return None if dtype is None else np.dtype(dtype)  # (NumPy's meaning of Python's types)
    return _dt.as_dtype(dtype)._np


def _default_float() -> type:
    """The float of integer inputs to float functions: float64, float32 under auto dtype conversion."""
    return np.float32 if _ns.auto() else np.float64


def _strong(x: Any) -> np.dtype | None:
    """The dtype ``x`` imposes (None for a Python scalar, which adapts, as in NumPy 2)."""
    if isinstance(x, (Tensor, Variable)):
        return x.dtype._np
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype
    if isinstance(x, (builtins.bool, int, float, complex)):
        return None
    return asarray(x).dtype._np


def result_type(*arrays_and_dtypes: Any) -> _dt.DType:
    """The dtype NumPy gives an operation on these arrays, scalars and dtypes.

    >>> import tapegrad as tf
    >>> import tapegrad.experimental.numpy as tnp
    >>> tnp.result_type(tf.constant([1], tf.int32), 1.5)
    tf.float64

    Under auto dtype conversion (modes "safe" and "all"), TensorFlow's lattice instead
    (``tnp.result_type(1.5)`` is float32).
    """
    if _ns.auto():
        return _promotion.result_type(*arrays_and_dtypes)[0]
    return _dt.as_dtype(_result_np(*arrays_and_dtypes))


def _result_np(*arrays_and_dtypes: Any) -> np.dtype:
    parts = []
    for x in arrays_and_dtypes:
        if isinstance(x, (_dt.DType, str, type, np.dtype)):
            parts.append(_np_dtype(x))
        elif isinstance(x, (list, tuple)):  # (TF's module: a list's items count one by one)
            items = _nest_items(x)
            parts.extend(_part(v) for v in items) if items else parts.append(np.dtype(np.float64))
        else:
            parts.append(_part(x))
    return np.result_type(*parts)


def _part(x: Any) -> Any:
    s = _strong(x)
    return _ns.weak_part(x) if s is None else s


def _nest_items(x: Any) -> list:
    out = []
    for v in x:
        out.extend(_nest_items(v) if isinstance(v, (list, tuple)) else [v])
    return out


@constant_maker  # (Python values and the caller's NumPy arrays: constants, as tf.constant makes them)
def asarray(a: Any, dtype: Any = None) -> Tensor:
    """``a`` as a tensor (a tensor stays itself, on the tape), with NumPy's dtype inference.

    >>> import tapegrad.experimental.numpy as tnp
    >>> tnp.asarray([1, 2]).dtype
    tf.int64
    """
    dt = _np_dtype(dtype)
    if isinstance(a, (Tensor, Variable)):
        t = convert_to_tensor(a)
        return t if dt is None or t.dtype._np == dt else _m.cast(t, dt)
    if isinstance(a, (list, tuple)) and builtins.any(isinstance(v, (Tensor, Variable, list, tuple)) for v in a):
        parts = [asarray(v) for v in a]
        common = dt or _result_np(*parts)
        return _a.stack([_m.cast(p, common) if p.dtype._np != common else p for p in parts])
    arr = np.asarray(a, dtype=dt)
    if dt is None and _ns.prefer_float32() and arr.dtype in (np.float64, np.complex128) \
            and type(a) is not np.ndarray and not isinstance(a, np.generic):  # (Python floats as float32)
        arr = arr.astype(np.float32 if arr.dtype == np.float64 else np.complex64)
    return convert_to_tensor(arr)


array = asanyarray = ascontiguousarray = asarray


def copy(a: Any) -> Tensor:
    """A copy of ``a`` (on the tape: an identity)."""
    return _a.identity(asarray(a))


def _same(*xs: Any) -> list:
    dt = _result_np(*xs)
    return [asarray(x, dt) for x in xs]


def _float(x: Any) -> Tensor:
    t = asarray(x)
    return t if t.dtype._np.kind in "fc" else _m.cast(t, _default_float())


def _floats(*xs: Any) -> list:
    dt = _result_np(*xs)
    return [asarray(x, dt if dt.kind in "fc" else _default_float()) for x in xs]


# --------------------------------------------------------------------------- creation
def zeros(shape: Any, dtype: Any = float) -> Tensor:
    """Zeros of ``shape`` (float64 by default)."""
    return convert_to_tensor(np.zeros(shape, _np_dtype(dtype)))


def ones(shape: Any, dtype: Any = float) -> Tensor:
    """Ones of ``shape`` (float64 by default)."""
    return convert_to_tensor(np.ones(shape, _np_dtype(dtype)))


def full(shape: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    """``fill_value`` everywhere in ``shape`` (dtype inferred from ``fill_value``)."""
    v = asarray(fill_value, dtype)
    return _a.broadcast_to(v, tuple(np.atleast_1d(shape)) if np.ndim(shape) else (int(shape),))


empty = zeros


def zeros_like(a: Any, dtype: Any = None) -> Tensor:
    """Zeros shaped and typed as ``a``."""
    return _m.zeros_like(asarray(a, dtype))


def ones_like(a: Any, dtype: Any = None) -> Tensor:
    """Ones shaped and typed as ``a``."""
    return _m.ones_like(asarray(a, dtype))


def full_like(a: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    """``fill_value`` in the shape of ``a``, in ``a``'s dtype (or ``dtype``)."""
    t = asarray(a, dtype)
    return _a.broadcast_to(asarray(fill_value, t.dtype), t.shape)


empty_like = zeros_like


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = float) -> Tensor:  # noqa: N803
    """An ``N x M`` matrix with ones on diagonal ``k``."""
    return convert_to_tensor(np.eye(N, M, k, dtype=_np_dtype(dtype)))


def identity(n: int, dtype: Any = float) -> Tensor:
    """The ``n x n`` identity matrix."""
    return eye(n, dtype=dtype)


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None) -> Tensor:
    """Evenly spaced values in ``[start, stop)`` (int64 for ints, float64 for floats)."""
    r = np.arange(start, stop, step) if stop is not None else np.arange(start, step=step)
    dt = _np_dtype(dtype) if dtype is not None else _result_np(*(v for v in (start, stop, step) if v is not None))
    return convert_to_tensor(r.astype(dt, copy=False))


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype: Any = None, axis: int = 0) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop``."""
    if dtype is None and _ns.auto():  # (TF's lattice, with a float among the operands)
        dtype = _promotion.result_type(start, stop, float(num))[0]._np
    elif dtype is None and _ns.prefer_float32():
        dt = _result_np(start, stop)
        dtype = dt if dt.kind in "fc" else np.float32
    r = np.linspace(start, stop, num, endpoint=endpoint, retstep=retstep, dtype=_np_dtype(dtype), axis=axis)
    return (convert_to_tensor(r[0]), r[1]) if retstep else convert_to_tensor(r)


def meshgrid(*xi: Any, indexing: str = "xy") -> list:
    """Coordinate matrices from coordinate vectors."""
    return _a.meshgrid(*_same(*xi), indexing=indexing)


# --------------------------------------------------------------------------- elementwise
def _unary_float(op: Any, x: Any) -> Tensor:
    return op(_float(x))


def exp(x: Any) -> Tensor:
    """``e ** x`` (integers give float64)."""
    return _unary_float(_m.exp, x)


def log(x: Any) -> Tensor:
    """Natural logarithm."""
    return _unary_float(_m.log, x)


def log2(x: Any) -> Tensor:
    """Base-2 logarithm."""
    t = _float(x)
    return _m.log(t) / _m.cast(np.log(2.0), t.dtype)


def log10(x: Any) -> Tensor:
    """Base-10 logarithm."""
    t = _float(x)
    return _m.log(t) / _m.cast(np.log(10.0), t.dtype)


def log1p(x: Any) -> Tensor:
    """``log(1 + x)``."""
    return _unary_float(_m.log1p, x)


def expm1(x: Any) -> Tensor:
    """``exp(x) - 1``."""
    return _unary_float(_m.expm1, x)


def sqrt(x: Any) -> Tensor:
    """Square root."""
    return _unary_float(_m.sqrt, x)


def sin(x: Any) -> Tensor:
    """Sine."""
    return _unary_float(_m.sin, x)


def cos(x: Any) -> Tensor:
    """Cosine."""
    return _unary_float(_m.cos, x)


def tan(x: Any) -> Tensor:
    """Tangent."""
    return _unary_float(_m.tan, x)


def tanh(x: Any) -> Tensor:
    """Hyperbolic tangent."""
    return _unary_float(_m.tanh, x)


def sinh(x: Any) -> Tensor:
    """Hyperbolic sine."""
    return _unary_float(_sp.sinh, x)


def cosh(x: Any) -> Tensor:
    """Hyperbolic cosine."""
    return _unary_float(_sp.cosh, x)


def arcsin(x: Any) -> Tensor:
    """Inverse sine."""
    return _unary_float(_sp.asin, x)


def arccos(x: Any) -> Tensor:
    """Inverse cosine."""
    return _unary_float(_sp.acos, x)


def arctan(x: Any) -> Tensor:
    """Inverse tangent."""
    return _unary_float(_sp.atan, x)


def arctan2(x1: Any, x2: Any) -> Tensor:
    """``atan(x1 / x2)`` in the right quadrant."""
    return _sp.atan2(*_floats(x1, x2))


def hypot(x1: Any, x2: Any) -> Tensor:
    """``sqrt(x1² + x2²)``."""
    a, b = _floats(x1, x2)
    return _m.sqrt(a * a + b * b)


def logaddexp(x1: Any, x2: Any) -> Tensor:
    """``log(exp(x1) + exp(x2))``, computed stably."""
    a, b = _floats(x1, x2)
    hi = _m.maximum(a, b)
    return hi + _m.log1p(_m.exp(-_m.abs(a - b)))


def abs(x: Any) -> Tensor:  # noqa: A001
    """Absolute value (in ``x``'s dtype)."""
    return _m.abs(asarray(x))


absolute = abs


def negative(x: Any) -> Tensor:
    """``-x``."""
    return _m.negative(asarray(x))


def positive(x: Any) -> Tensor:
    """``+x``."""
    return asarray(x)


def sign(x: Any) -> Tensor:
    """-1, 0 or 1 by the sign of ``x``."""
    return _m.sign(asarray(x))


def square(x: Any) -> Tensor:
    """``x * x`` (in ``x``'s dtype)."""
    return _m.square(asarray(x))


def reciprocal(x: Any) -> Tensor:
    """``1 / x``."""
    return _m.reciprocal(asarray(x))


def floor(x: Any) -> Tensor:
    """Largest integer not above ``x``."""
    return _sp.floor(_float(x))


def ceil(x: Any) -> Tensor:
    """Smallest integer not below ``x``."""
    return _sp.ceil(_float(x))


def around(a: Any, decimals: int = 0) -> Tensor:
    """Round half to even, to ``decimals`` places."""
    t = asarray(a)
    if t.dtype._np.kind not in "fc":
        return t
    if not decimals:
        return _sp.round(t)
    f = _m.cast(10.0 ** decimals, t.dtype)
    return _sp.round(t * f) / f


round = around  # noqa: A001


def isnan(x: Any) -> Tensor:
    """Where ``x`` is NaN."""
    return _sp.is_nan(_float(x))


def isinf(x: Any) -> Tensor:
    """Where ``x`` is infinite."""
    return _sp.is_inf(_float(x))


def isfinite(x: Any) -> Tensor:
    """Where ``x`` is finite."""
    return _sp.is_finite(_float(x))


def add(x1: Any, x2: Any) -> Tensor:
    """``x1 + x2`` with NumPy's dtype promotion."""
    return _m.add(*_same(x1, x2))


def subtract(x1: Any, x2: Any) -> Tensor:
    """``x1 - x2``."""
    return _m.subtract(*_same(x1, x2))


def multiply(x1: Any, x2: Any) -> Tensor:
    """``x1 * x2``."""
    return _m.multiply(*_same(x1, x2))


def true_divide(x1: Any, x2: Any) -> Tensor:
    """``x1 / x2`` (integers give float64)."""
    return _m.truediv(*_floats(x1, x2))


divide = true_divide


def floor_divide(x1: Any, x2: Any) -> Tensor:
    """``floor(x1 / x2)``."""
    return _m.floordiv(*_same(x1, x2))


def mod(x1: Any, x2: Any) -> Tensor:
    """Remainder with the sign of ``x2``."""
    return _m.floormod(*_same(x1, x2))


remainder = mod


def power(x1: Any, x2: Any) -> Tensor:
    """``x1 ** x2``."""
    return _m.pow(*_same(x1, x2))


def maximum(x1: Any, x2: Any) -> Tensor:
    """Elementwise maximum."""
    return _m.maximum(*_same(x1, x2))


def minimum(x1: Any, x2: Any) -> Tensor:
    """Elementwise minimum."""
    return _m.minimum(*_same(x1, x2))


def clip(a: Any, a_min: Any, a_max: Any) -> Tensor:
    """``a`` limited to ``[a_min, a_max]`` (either may be None)."""
    t = asarray(a)
    if a_min is not None:
        t = maximum(t, a_min)
    return t if a_max is None else minimum(t, a_max)


def equal(x1: Any, x2: Any) -> Tensor:
    """``x1 == x2``."""
    return _m.equal(*_same(x1, x2))


def not_equal(x1: Any, x2: Any) -> Tensor:
    """``x1 != x2``."""
    return _m.not_equal(*_same(x1, x2))


def less(x1: Any, x2: Any) -> Tensor:
    """``x1 < x2``."""
    return _m.less(*_same(x1, x2))


def less_equal(x1: Any, x2: Any) -> Tensor:
    """``x1 <= x2``."""
    return _m.less_equal(*_same(x1, x2))


def greater(x1: Any, x2: Any) -> Tensor:
    """``x1 > x2``."""
    return _m.greater(*_same(x1, x2))


def greater_equal(x1: Any, x2: Any) -> Tensor:
    """``x1 >= x2``."""
    return _m.greater_equal(*_same(x1, x2))


def logical_and(x1: Any, x2: Any) -> Tensor:
    """Elementwise and of the truth values."""
    return _m.logical_and(asarray(x1, bool), asarray(x2, bool))


def logical_or(x1: Any, x2: Any) -> Tensor:
    """Elementwise or of the truth values."""
    return _m.logical_or(asarray(x1, bool), asarray(x2, bool))


def logical_xor(x1: Any, x2: Any) -> Tensor:
    """Elementwise exclusive or of the truth values."""
    return _m.logical_xor(asarray(x1, bool), asarray(x2, bool))


def logical_not(x: Any) -> Tensor:
    """Elementwise not of the truth values."""
    return _m.logical_not(asarray(x, bool))


def where(condition: Any, x: Any = None, y: Any = None) -> Tensor:
    """``x`` where ``condition`` holds, else ``y`` (give both)."""
    if x is None or y is None:
        raise ValueError("tapegrad.experimental.numpy.where needs x and y; for the indices of "
                         "the true entries use tf.where(condition).")
    return _m.where(asarray(condition, bool), *_same(x, y))


def isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """Where ``|a - b| <= atol + rtol * |b|``."""
    x, y = _floats(a, b)
    out = _m.less_equal(_m.abs(x - y), atol + rtol * _m.abs(y))
    if equal_nan:
        out = _m.logical_or(out, _m.logical_and(_sp.is_nan(x), _sp.is_nan(y)))
    return _m.logical_or(out, _m.equal(x, y))


def allclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """Whether :func:`isclose` holds everywhere."""
    return _r.reduce_all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1: Any, a2: Any) -> Tensor:
    """Whether both have the same shape and entries."""
    x, y = _same(a1, a2)
    return convert_to_tensor(False) if x.shape != y.shape else _r.reduce_all(_m.equal(x, y))


# --------------------------------------------------------------------------- reductions
def _axis(axis: Any) -> Any:
    return list(axis) if isinstance(axis, tuple) else axis


def _accumulating(t: Tensor, dtype: Any) -> Tensor:
    """NumPy's sum/prod dtype: small integers and bools widen to int64 (uint64); under auto
    dtype conversion, to 32 bits, as TensorFlow."""
    if dtype is not None:
        return _m.cast(t, _np_dtype(dtype))
    k = t.dtype._np
    width = 4 if _ns.auto() else 8
    if k.kind == "b" or (k.kind == "i" and k.itemsize < width):
        return _m.cast(t, np.int32 if width == 4 else np.int64)
    if k.kind == "u" and k.itemsize < width:
        return _m.cast(t, np.uint32 if width == 4 else np.uint64)
    return t


def sum(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """Sum over ``axis`` (all axes when None)."""
    return _r.reduce_sum(_accumulating(asarray(a), dtype), _axis(axis), keepdims=keepdims)


def prod(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """Product over ``axis``."""
    return _r.reduce_prod(_accumulating(asarray(a), dtype), _axis(axis), keepdims=keepdims)


def mean(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """Mean over ``axis`` (integers give float64)."""
    t = asarray(a, dtype) if dtype is not None else _float(a)
    return _r.reduce_mean(t, _axis(axis), keepdims=keepdims)


def var(a: Any, axis: Any = None, dtype: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Variance over ``axis``, divided by ``n - ddof``."""
    t = asarray(a, dtype) if dtype is not None else _float(a)
    m = _r.reduce_mean(t, _axis(axis), keepdims=True)
    d = t - m
    sq = _m.real(d * _m.conj(d)) if t.dtype._np.kind == "c" else d * d
    s = _r.reduce_sum(sq, _axis(axis), keepdims=keepdims)
    n = t.shape.num_elements() // builtins.max(m.shape.num_elements(), 1)
    return s / _m.cast(n - ddof, s.dtype)


def std(a: Any, axis: Any = None, dtype: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Standard deviation over ``axis``."""
    return _m.sqrt(var(a, axis, dtype, ddof, keepdims))


def average(a: Any, axis: Any = None, weights: Any = None, returned: bool = False) -> Any:
    """Mean over ``axis``, weighted by ``weights`` (same shape as ``a``, or 1-D along ``axis``)."""
    t = _float(a)
    if weights is None:
        avg = _r.reduce_mean(t, _axis(axis))
        n = _m.cast(t.shape.num_elements() // builtins.max(avg.shape.num_elements(), 1), avg.dtype)
        return (avg, _a.broadcast_to(n, avg.shape)) if returned else avg
    t, w = _floats(t, weights)
    if w.shape.rank == 1 and t.shape.rank > 1 and axis is not None:
        w = _a.reshape(w, [-1 if i == axis % t.shape.rank else 1 for i in builtins.range(t.shape.rank)])
        w = _a.broadcast_to(w, t.shape)
    total = _r.reduce_sum(w, _axis(axis))
    avg = _r.reduce_sum(t * w, _axis(axis)) / total
    return (avg, total) if returned else avg


def amax(a: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Maximum over ``axis``."""
    return _r.reduce_max(asarray(a), _axis(axis), keepdims=keepdims)


def amin(a: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Minimum over ``axis``."""
    return _r.reduce_min(asarray(a), _axis(axis), keepdims=keepdims)


max = amax  # noqa: A001
min = amin  # noqa: A001


def ptp(a: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Range (maximum minus minimum) over ``axis``."""
    return amax(a, axis, keepdims) - amin(a, axis, keepdims)


def _flat_or(a: Any, axis: Any) -> tuple:
    t = asarray(a)
    return (_a.reshape(t, [-1]), 0) if axis is None else (t, axis)


def argmax(a: Any, axis: Any = None) -> Tensor:
    """Index of the maximum (of the flattened array when ``axis`` is None), int64."""
    return _r.argmax(*_flat_or(a, axis), output_type=_dt.int64)


def argmin(a: Any, axis: Any = None) -> Tensor:
    """Index of the minimum, int64."""
    return _r.argmin(*_flat_or(a, axis), output_type=_dt.int64)


def all(a: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """Whether every entry is true, over ``axis``."""
    return _r.reduce_all(asarray(a, bool), _axis(axis), keepdims=keepdims)


def any(a: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """Whether some entry is true, over ``axis``."""
    return _r.reduce_any(asarray(a, bool), _axis(axis), keepdims=keepdims)


def count_nonzero(a: Any, axis: Any = None) -> Tensor:
    """How many entries are non-zero, int64."""
    return _r.count_nonzero(asarray(a), _axis(axis), dtype=_dt.int64)


def cumsum(a: Any, axis: Any = None, dtype: Any = None) -> Tensor:
    """Running sum along ``axis`` (of the flattened array when None)."""
    t, ax = _flat_or(a, axis)
    return _m.cumsum(_accumulating(t, dtype), ax)


def cumprod(a: Any, axis: Any = None, dtype: Any = None) -> Tensor:
    """Running product along ``axis``."""
    t, ax = _flat_or(a, axis)
    return _m.cumprod(_accumulating(t, dtype), ax)


# --------------------------------------------------------------------------- shapes
def shape(a: Any) -> TensorShape:
    """The shape, as a :class:`TensorShape` (as TensorFlow's module returns it)."""
    return asarray(a).shape


def ndim(a: Any) -> int:
    """The number of axes."""
    return asarray(a).shape.rank


def size(a: Any, axis: Any = None) -> np.int64:
    """The number of entries (along ``axis``)."""
    s = asarray(a).shape
    return np.int64(s.num_elements() if axis is None else s[axis])


def reshape(a: Any, newshape: Any, order: str = "C") -> Tensor:
    """``a`` with shape ``newshape`` (row-major)."""
    if order != "C":
        raise ValueError("tapegrad.experimental.numpy.reshape supports order='C' only.")
    return _a.reshape(asarray(a), [newshape] if isinstance(newshape, int) else list(newshape))


def ravel(a: Any) -> Tensor:
    """``a`` flattened."""
    return _a.reshape(asarray(a), [-1])


flatten = ravel


def transpose(a: Any, axes: Any = None) -> Tensor:
    """Axes permuted (reversed when ``axes`` is None)."""
    return _a.transpose(asarray(a), None if axes is None else list(axes))


def swapaxes(a: Any, axis1: int, axis2: int) -> Tensor:
    """``a`` with two axes exchanged."""
    t = asarray(a)
    perm = list(builtins.range(t.shape.rank))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return _a.transpose(t, perm)


def moveaxis(a: Any, source: Any, destination: Any) -> Tensor:
    """``a`` with axes moved to new positions."""
    t = asarray(a)
    n = t.shape.rank
    src = [int(v) % n for v in np.atleast_1d(source)]
    dst = [int(v) % n for v in np.atleast_1d(destination)]
    perm = [i for i in builtins.range(n) if i not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return _a.transpose(t, perm)


def expand_dims(a: Any, axis: int) -> Tensor:
    """``a`` with a length-1 axis inserted at ``axis``."""
    return _a.expand_dims(asarray(a), axis)


def squeeze(a: Any, axis: Any = None) -> Tensor:
    """``a`` without its length-1 axes (those in ``axis``)."""
    return _a.squeeze(asarray(a), None if axis is None else list(np.atleast_1d(axis)))


def atleast_1d(*arys: Any) -> Any:
    """Each argument with at least one axis."""
    out = [_a.reshape(t, [1]) if t.shape.rank == 0 else t for t in map(asarray, arys)]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys: Any) -> Any:
    """Each argument with at least two axes."""
    out = [_a.reshape(t, [1] * (2 - t.shape.rank) + list(t.shape)) if t.shape.rank < 2 else t
           for t in map(asarray, arys)]
    return out[0] if len(out) == 1 else out


def broadcast_to(array: Any, shape: Any) -> Tensor:
    """``array`` broadcast to ``shape``."""
    return _a.broadcast_to(asarray(array), shape)


def concatenate(arys: Sequence[Any], axis: Any = 0) -> Tensor:
    """The arrays joined along ``axis`` (flattened first when None)."""
    ts = _same(*arys)
    if axis is None:
        ts, axis = [_a.reshape(t, [-1]) for t in ts], 0
    return _a.concat(ts, axis)


def stack(arrays: Sequence[Any], axis: int = 0) -> Tensor:
    """The arrays stacked along a new axis."""
    return _a.stack(_same(*arrays), axis)


def hstack(tup: Sequence[Any]) -> Tensor:
    """The arrays joined along their second axis (the first for 1-D arrays)."""
    ts = [atleast_1d(t) for t in _same(*tup)]
    return _a.concat(ts, 0 if ts[0].shape.rank == 1 else 1)


def vstack(tup: Sequence[Any]) -> Tensor:
    """The arrays (1-D ones as rows) joined along the first axis."""
    return _a.concat([atleast_2d(t) for t in _same(*tup)], 0)


def split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list:
    """``ary`` split into equal sections, or at the given indices, along ``axis``."""
    t = asarray(ary)
    if isinstance(indices_or_sections, int):
        return _a.split(t, indices_or_sections, axis)
    n = t.shape[axis]
    edges = [0] + [int(i) for i in indices_or_sections] + [n]
    return _a.split(t, [b - a for a, b in itertools.pairwise(edges)], axis)


def tile(A: Any, reps: Any) -> Tensor:  # noqa: N803
    """``A`` repeated ``reps`` times along each axis."""
    t = asarray(A)
    r = [int(v) for v in np.atleast_1d(reps)]
    if len(r) > t.shape.rank:
        t = _a.reshape(t, [1] * (len(r) - t.shape.rank) + list(t.shape))
    return _a.tile(t, [1] * (t.shape.rank - len(r)) + r)


def repeat(a: Any, repeats: Any, axis: Any = None) -> Tensor:
    """Each entry repeated ``repeats`` times (of the flattened array when ``axis`` is None)."""
    t, ax = _flat_or(a, axis)
    return _a.repeat(t, repeats, ax)


def flip(m: Any, axis: Any = None) -> Tensor:
    """``m`` reversed along ``axis`` (all axes when None)."""
    t = asarray(m)
    axes = list(builtins.range(t.shape.rank)) if axis is None else list(np.atleast_1d(axis))
    return _a.reverse(t, axes)


def fliplr(m: Any) -> Tensor:
    """``m`` reversed along its second axis."""
    return flip(m, 1)


def flipud(m: Any) -> Tensor:
    """``m`` reversed along its first axis."""
    return flip(m, 0)


def roll(a: Any, shift: Any, axis: Any = None) -> Tensor:
    """``a`` rotated by ``shift`` along ``axis`` (the flattened array when None)."""
    t = asarray(a)
    if axis is None:
        return _a.reshape(_a.roll(_a.reshape(t, [-1]), shift, 0), t.shape)
    return _a.roll(t, shift, axis)


def pad(array: Any, pad_width: Any, mode: str = "constant", constant_values: Any = 0) -> Tensor:
    """``array`` padded by ``pad_width`` (``n``, ``(before, after)`` or one pair per axis)."""
    t = asarray(array)
    widths = np.broadcast_to(np.asarray(pad_width, np.int64).reshape(-1, 2) if np.ndim(pad_width) else
                             np.asarray([[pad_width, pad_width]]), (t.shape.rank, 2))
    if mode != "constant":
        return _a.pad(t, widths.tolist(), mode.upper())
    return _a.pad(t, widths.tolist(), constant_values=asarray(constant_values, t.dtype))


def take(a: Any, indices: Any, axis: Any = None) -> Tensor:
    """Entries of ``a`` at ``indices`` along ``axis`` (of the flattened array when None)."""
    t, ax = _flat_or(a, axis)
    return _i.gather(t, asarray(indices), axis=ax)


def sort(a: Any, axis: int = -1) -> Tensor:
    """``a`` sorted along ``axis``."""
    return _s.sort(asarray(a), axis)


def argsort(a: Any, axis: int = -1) -> Tensor:
    """The indices that sort ``a`` along ``axis`` (stable), int64."""
    return _m.cast(_s.argsort(asarray(a), axis, stable=True), np.int64)


def diag(v: Any, k: int = 0) -> Tensor:
    """The diagonal matrix of a 1-D ``v``, or the diagonal of a 2-D ``v``."""
    t = asarray(v)
    if t.shape.rank == 1:
        return _l.matrix_diag(t, k=k)
    return _l.diag_part(t, k=k)


def _tri_mask(t: Tensor, k: int, lower: bool) -> Tensor:
    n, m = t.shape[-2], t.shape[-1]
    mask = np.tri(n, m, k, dtype=bool)
    return convert_to_tensor(mask if lower else ~np.tri(n, m, k - 1, dtype=bool))


def tril(m: Any, k: int = 0) -> Tensor:
    """``m`` with the entries above diagonal ``k`` zeroed."""
    t = asarray(m)
    return _m.where(_tri_mask(t, k, True), t, _m.zeros_like(t))


def triu(m: Any, k: int = 0) -> Tensor:
    """``m`` with the entries below diagonal ``k`` zeroed."""
    t = asarray(m)
    return _m.where(_tri_mask(t, k, False), t, _m.zeros_like(t))


def trace(a: Any) -> Tensor:
    """Sum of the diagonal of a matrix."""
    return _l.trace(asarray(a))


def diff(a: Any, n: int = 1, axis: int = -1) -> Tensor:
    """The ``n``-th discrete difference along ``axis``."""
    t = asarray(a)
    ax = axis % t.shape.rank
    for _ in builtins.range(n):
        hi = (builtins.slice(None),) * ax + (builtins.slice(1, None),)
        lo = (builtins.slice(None),) * ax + (builtins.slice(None, -1),)
        t = t[hi] - t[lo]
    return t


# --------------------------------------------------------------------------- products
def dot(a: Any, b: Any) -> Tensor:
    """NumPy's ``dot``: products of scalars, inner products of vectors, matrix products, and
    a sum over the last axis of ``a`` and the second-to-last of ``b``."""
    x, y = _same(a, b)
    if x.shape.rank == 0 or y.shape.rank == 0:
        return x * y
    return _l.tensordot(x, y, [[x.shape.rank - 1], [builtins.max(y.shape.rank - 2, 0)]])


def matmul(x1: Any, x2: Any) -> Tensor:
    """Matrix product with NumPy's rules for 1-D operands and batch broadcasting."""
    x, y = _same(x1, x2)
    if x.shape.rank == 1 and y.shape.rank == 1:
        return _r.reduce_sum(x * y)
    if x.shape.rank == 1:
        return _a.squeeze(_l.matmul(_a.expand_dims(x, 0), y), [-2])
    if y.shape.rank == 1:
        return _a.squeeze(_l.matmul(x, _a.expand_dims(y, -1)), [-1])
    return _l.matmul(x, y)


def tensordot(a: Any, b: Any, axes: Any = 2) -> Tensor:
    """Sum of products over the given axes."""
    return _l.tensordot(*_same(a, b), axes)


def inner(a: Any, b: Any) -> Tensor:
    """Sum of products over the last axes."""
    x, y = _same(a, b)
    if x.shape.rank == 0 or y.shape.rank == 0:
        return x * y
    return _l.tensordot(x, y, [[x.shape.rank - 1], [y.shape.rank - 1]])


def outer(a: Any, b: Any) -> Tensor:
    """``a[i] * b[j]`` of the flattened arrays."""
    x, y = _same(a, b)
    return _a.reshape(x, [-1, 1]) * _a.reshape(y, [1, -1])


def einsum(subscripts: str, *operands: Any) -> Tensor:
    """Einstein summation."""
    return _l.einsum(subscripts, *_same(*operands))


# --------------------------------------------------------------------------- more elementwise
inexact, object_, string_, unicode_ = np.inexact, np.object_, np.bytes_, np.str_


@constant_maker  # (constants from Python values and shapes only)
def _fill_like(t: Tensor, v: Any) -> Tensor:
    return _m.zeros_like(t) + _m.cast(v, t.dtype)


def arcsinh(x: Any) -> Tensor:
    """Inverse hyperbolic sine (integers give float64)."""
    return _unary_float(_sp.asinh, x)


def arccosh(x: Any) -> Tensor:
    """Inverse hyperbolic cosine."""
    return _unary_float(_sp.acosh, x)


def arctanh(x: Any) -> Tensor:
    """Inverse hyperbolic tangent."""
    return _unary_float(_sp.atanh, x)


@constant_maker
def deg2rad(x: Any) -> Tensor:
    """Degrees to radians."""
    t = _float(x)
    return t * _m.cast(np.pi / 180.0, t.dtype)


@constant_maker
def rad2deg(x: Any) -> Tensor:
    """Radians to degrees."""
    t = _float(x)
    return t * _m.cast(180.0 / np.pi, t.dtype)


def angle(z: Any, deg: bool = False) -> Tensor:
    """The argument of complex ``z`` (for real ``z``: ``pi`` where negative, else 0), in radians
    or, with ``deg``, degrees.

    >>> import tapegrad.experimental.numpy as tnp
    >>> tnp.angle([1j, -1.0]).numpy().round(4)
    array([1.5708, 3.1416])
    """
    t = _float(z)
    if t.dtype._np.kind == "c":
        y = _sp.angle(t)
    else:
        y = _m.where(_m.less(t, _m.zeros_like(t)), _fill_like(t, np.pi), _m.zeros_like(t))
    return rad2deg(y) if deg else y


@constant_maker
def cbrt(x: Any) -> Tensor:
    """Cube root (real, negative for negative ``x``)."""
    t = _float(x)
    rt = _m.pow(_m.abs(t), _m.cast(1.0 / 3, t.dtype))
    return _m.where(_m.less(t, _m.zeros_like(t)), -rt, rt)


@constant_maker
def exp2(x: Any) -> Tensor:
    """``2 ** x``."""
    t = _float(x)
    return _m.pow(_m.cast(2, t.dtype), t)


def fabs(x: Any) -> Tensor:
    """Absolute value (as TensorFlow's module: in ``x``'s dtype, integers too)."""
    return abs(x)


@constant_maker
def fix(x: Any) -> Tensor:
    """Round toward zero (integers give float64)."""
    t = _float(x)
    return _m.where(_m.less(t, _m.zeros_like(t)), _sp.ceil(t), _sp.floor(t))


@constant_maker
def sinc(x: Any) -> Tensor:
    """``sin(pi x) / (pi x)``, 1 at 0."""
    t = _float(x)
    pi_x = t * _m.cast(np.pi, t.dtype)
    return _m.where(_m.equal(t, _m.zeros_like(t)), _m.ones_like(t), _m.sin(pi_x) / pi_x)


@constant_maker
def signbit(x: Any) -> Tensor:
    """Where ``x < 0`` (as TensorFlow's module: false for ``-0.0``; all false for bools)."""
    t = asarray(x)
    if t.dtype._np.kind == "b":
        return _m.zeros_like(t)
    return _m.less(t, _m.zeros_like(t))


def conj(x: Any) -> Tensor:
    """Complex conjugate."""
    return _m.conj(asarray(x))


conjugate = conj


def real(val: Any) -> Tensor:
    """Real part (``val`` itself when real)."""
    return _m.real(asarray(val))


def imag(val: Any) -> Tensor:
    """Imaginary part (zeros when real)."""
    return _m.imag(asarray(val))


def iscomplex(x: Any) -> Tensor:
    """Where the imaginary part is non-zero."""
    return _m.not_equal(imag(x), 0)


def isreal(x: Any) -> Tensor:
    """Where the imaginary part is zero."""
    return _m.equal(imag(x), 0)


def iscomplexobj(x: Any) -> bool:
    """Whether ``x``'s dtype is complex."""
    return asarray(x).dtype._np.kind == "c"


def isrealobj(x: Any) -> bool:
    """Whether ``x``'s dtype is not complex."""
    return not iscomplexobj(x)


def isscalar(num: Any) -> bool:
    """Whether ``num`` has no axes."""
    return ndim(num) == 0


@constant_maker
def _inf_test(x: Any, sign: float) -> Any:
    t = asarray(x)
    if t.dtype._np.kind != "f":
        return False  # (TensorFlow's module: a Python False for non-float input)
    return _m.equal(t, _fill_like(t, sign * np.inf))


def isneginf(x: Any) -> Any:
    """Where ``x`` is -inf (``False`` for non-float ``x``)."""
    return _inf_test(x, -1.0)


def isposinf(x: Any) -> Any:
    """Where ``x`` is +inf (``False`` for non-float ``x``)."""
    return _inf_test(x, 1.0)


@constant_maker
def heaviside(x1: Any, x2: Any) -> Tensor:
    """0 where ``x1 < 0``, 1 where ``x1 > 0``, ``x2`` where ``x1 == 0`` (integers give float64)."""
    a, b = _same(x1, x2)
    zero = _m.zeros_like(a)
    ones = _m.ones_like(b)
    y = _m.where(_m.less(a, zero), _m.zeros_like(ones), _m.where(_m.greater(a, zero), ones, b))
    return y if y.dtype._np.kind in "fc" else _m.cast(y, _default_float())


def nextafter(x1: Any, x2: Any) -> Tensor:
    """The next representable float after ``x1`` toward ``x2``."""
    return _sp.nextafter(*_same(x1, x2))


def float_power(x1: Any, x2: Any) -> Tensor:
    """``x1 ** x2`` (as TensorFlow's module: :func:`power`, no widening to float64)."""
    return power(x1, x2)


def divmod(x1: Any, x2: Any) -> tuple:  # noqa: A001
    """``(floor_divide(x1, x2), mod(x1, x2))``."""
    return floor_divide(x1, x2), mod(x1, x2)


@constant_maker
def logaddexp2(x1: Any, x2: Any) -> Tensor:
    """``log2(2**x1 + 2**x2)``, computed stably."""
    a, b = _floats(x1, x2)
    hi = _m.maximum(a, b)
    d = a - b
    return _m.where(_sp.is_nan(d), a + b, hi + _m.log1p(exp2(-_m.abs(d))) / _m.cast(np.log(2), a.dtype))


def _integer_pair(x1: Any, x2: Any, what: str) -> list:
    a, b = _same(x1, x2)
    if a.dtype._np.kind not in "iu":
        raise ValueError(f"Arguments to {what} must be integers; got {a.dtype.name}.")
    shape = np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    return [_a.broadcast_to(a, shape), _a.broadcast_to(b, shape)]


def gcd(x1: Any, x2: Any) -> Tensor:
    """Greatest common divisor of integers (non-negative)."""
    return apply(_m.gcd_op, tuple(_integer_pair(x1, x2, "gcd")))


def lcm(x1: Any, x2: Any) -> Tensor:
    """Least common multiple of integers (non-negative; 0 if either is 0)."""
    return apply(_m.lcm_op, tuple(_integer_pair(x1, x2, "lcm")))


def _bitwise(op: Any, logical: Any, x1: Any, x2: Any) -> Tensor:
    a, b = _same(x1, x2)
    if a.dtype._np.kind == "b":
        return logical(a, b)
    if a.dtype._np.kind not in "iu":
        raise TypeError(f"tapegrad.experimental.numpy bitwise functions take integers or bools; got "
                        f"{a.dtype.name}.")
    return apply(op, (a, b))


def bitwise_and(x1: Any, x2: Any) -> Tensor:
    """Elementwise ``x1 & x2`` of integers (logical and of bools)."""
    return _bitwise(_m.bitwise_and_op, _m.logical_and, x1, x2)


def bitwise_or(x1: Any, x2: Any) -> Tensor:
    """Elementwise ``x1 | x2``."""
    return _bitwise(_m.bitwise_or_op, _m.logical_or, x1, x2)


def bitwise_xor(x1: Any, x2: Any) -> Tensor:
    """Elementwise ``x1 ^ x2``."""
    return _bitwise(_m.bitwise_xor_op, _m.logical_xor, x1, x2)


def bitwise_not(x: Any) -> Tensor:
    """Elementwise ``~x`` (logical not of bools)."""
    t = asarray(x)
    if t.dtype._np.kind == "b":
        return _m.logical_not(t)
    if t.dtype._np.kind not in "iu":
        raise TypeError(f"tapegrad.experimental.numpy.bitwise_not takes integers or bools; got {t.dtype.name}.")
    return apply(_m.invert_op, (t,))


def polyval(p: Any, x: Any) -> Tensor:
    """The polynomial with coefficients ``p`` (highest power first) at ``x``."""
    c, t = _same(p, x)
    if c.shape.rank == 0:
        c = _a.reshape(c, [1])
    cs = _a.unstack(c)
    y = _m.polyval(cs, t)
    return _a.broadcast_to(y, t.shape) if len(cs) == 1 else y


# --------------------------------------------------------------------------- more reductions
def _nan_reduction(reduction: Any, init: int) -> Any:
    def f(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
        t = asarray(a)
        if t.dtype._np.kind in "fc":
            t = _m.where(_sp.is_nan(t), _fill_like(t, init), t)
        return reduction(t, axis=axis, dtype=dtype, keepdims=keepdims)
    return f


nansum = _nan_reduction(sum, 0)
nansum.__name__ = nansum.__qualname__ = "nansum"
nansum.__doc__ = """Sum over ``axis``, NaNs counted as zero."""
nanprod = _nan_reduction(prod, 1)
nanprod.__name__ = nanprod.__qualname__ = "nanprod"
nanprod.__doc__ = """Product over ``axis``, NaNs counted as one."""


def nanmean(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """Mean over ``axis`` of the entries that are not NaN."""
    t = asarray(a)
    if t.dtype._np.kind in "biu":
        return mean(t, axis=axis, dtype=dtype, keepdims=keepdims)
    dt = t.dtype._np if dtype is None else dtype
    count = sum(logical_not(isnan(t)), axis=axis, dtype=dt, keepdims=keepdims)
    return nansum(t, axis=axis, dtype=dt, keepdims=keepdims) / count


# --------------------------------------------------------------------------- more creation
@constant_maker
def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None) -> Tensor:  # noqa: N803
    """Ones at and below diagonal ``k`` of an ``N x M`` matrix (float64 by default)."""
    dt = _np_dtype(float if dtype is None else dtype)
    return convert_to_tensor(np.tri(N, M, k, dtype=dt))


@constant_maker
def diag_indices(n: int, ndim: int = 2) -> tuple:
    """``ndim`` copies of ``range(n)`` (int32, as TensorFlow's module), to index a main diagonal."""
    if n < 0:
        raise ValueError(f"n argument to diag_indices must be nonnegative, got {n}")
    if ndim < 0:
        raise ValueError(f"ndim argument to diag_indices must be nonnegative, got {ndim}")
    return (convert_to_tensor(np.arange(n, dtype=np.int32)),) * ndim


@constant_maker
def logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, base: Any = 10.0,
             dtype: Any = None, axis: int = 0) -> Tensor:
    """``base ** linspace(start, stop, num)``.

    As TensorFlow's module under NumPy 2, the result's dtype is that of ``start * 1.0`` and
    ``stop * 1.0`` (float64 for Python numbers), whatever ``dtype`` says.
    """
    dt = _result_np(asarray(start) * 1.0 if not isinstance(start, (int, float)) else start * 1.0,
                    asarray(stop) * 1.0 if not isinstance(stop, (int, float)) else stop * 1.0)
    r = linspace(_m.cast(asarray(start), dt), _m.cast(asarray(stop), dt), num, endpoint=endpoint, dtype=dt,
                 axis=axis)
    return _m.pow(_m.cast(base, r.dtype), r)


@constant_maker
def geomspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None,
              axis: int = 0) -> Tensor:
    """``num`` values spaced evenly on a log scale from ``start`` to ``stop`` (negative or complex
    ends as NumPy's convention; computed as TensorFlow's module computes it)."""
    dt = _np_dtype(dtype) if dtype else _result_np(start, stop, float(num), np.zeros((), np.float64))
    comp = np.promote_types(dt, np.float32)
    a, b = asarray(start, comp), asarray(stop, comp)
    sa = 1 - _m.sign(_m.real(a))
    sb = 1 - _m.sign(_m.real(b))
    flip = _m.cast(1 - _m.floordiv(_m.cast(sa * sb, comp), _m.cast(2, comp)), comp) if comp.kind != "c" else \
        _m.cast(1 - _m.floor(_m.real(sa * sb) / 2), comp)
    lo, hi = log10(flip * a), log10(flip * b)
    r = linspace(lo, hi, num, endpoint=endpoint, dtype=comp, axis=0)
    res = flip * _m.pow(_m.cast(10.0, comp), r)
    if axis != 0:
        res = moveaxis(res, 0, axis)
    return _m.cast(res, dt)


@constant_maker
def vander(x: Any, N: int | None = None, increasing: bool = False) -> Tensor:  # noqa: N803
    """The Vandermonde matrix of 1-D ``x``: columns ``x ** (N-1)`` ... ``x ** 0`` (reversed with
    ``increasing``)."""
    t = asarray(x)
    if t.shape.rank != 1:
        raise ValueError("x must be a one-dimensional array")
    n = t.shape[0] if N is None else int(N)
    if n < 0:
        raise ValueError("N must be nonnegative")
    powers = np.arange(n) if increasing else np.arange(n - 1, -1, -1)
    return _m.pow(_a.expand_dims(t, -1), convert_to_tensor(powers.astype(t.dtype._np)))


# --------------------------------------------------------------------------- more shapes
def atleast_3d(*arys: Any) -> Any:
    """Each argument with at least three axes (``[n]`` becomes ``[1, n, 1]``, ``[m, n]``
    becomes ``[m, n, 1]``)."""
    def f(t: Tensor) -> Tensor:
        r, s = t.shape.rank, list(t.shape)
        if r >= 3:
            return t
        return _a.reshape(t, [1, 1, 1] if r == 0 else [1] + s + [1] if r == 1 else s + [1])
    out = [f(t) for t in map(asarray, arys)]
    return out[0] if len(out) == 1 else out


def dstack(tup: Sequence[Any]) -> Tensor:
    """The arrays joined along their third axis (after :func:`atleast_3d`)."""
    ts = [atleast_3d(t) for t in tup]
    return _a.concat(_same(*ts), 2)


def _split_on(ary: Any, indices_or_sections: Any, axis: int) -> list:
    t = asarray(ary)
    if axis == 1 and t.shape.rank == 1:
        axis = 0
    if isinstance(indices_or_sections, int) and t.shape[axis] % indices_or_sections:
        raise ValueError("array split does not result in an equal division")
    return split(t, indices_or_sections, axis)


def vsplit(ary: Any, indices_or_sections: Any) -> list:
    """:func:`split` along the first axis."""
    return _split_on(ary, indices_or_sections, 0)


def hsplit(ary: Any, indices_or_sections: Any) -> list:
    """:func:`split` along the second axis (the first for 1-D arrays)."""
    return _split_on(ary, indices_or_sections, 1)


def dsplit(ary: Any, indices_or_sections: Any) -> list:
    """:func:`split` along the third axis."""
    return _split_on(ary, indices_or_sections, 2)


def append(arr: Any, values: Any, axis: Any = None) -> Tensor:
    """``values`` appended to ``arr`` along ``axis`` (both flattened when None)."""
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis)


def broadcast_arrays(*args: Any, subok: bool = False) -> list:
    """The arrays broadcast to their common shape."""
    if subok:
        raise ValueError("subok=True is not supported.")
    ts = [asarray(a) for a in args]
    shape = np.broadcast_shapes(*(tuple(t.shape) for t in ts))
    return [t if tuple(t.shape) == shape else _a.broadcast_to(t, shape) for t in ts]


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    """Diagonal ``offset`` of the matrices in axes ``axis1`` and ``axis2`` (last in the result)."""
    t = moveaxis(a, (axis1, axis2), (-2, -1))
    n, m = t.shape[-2], t.shape[-1]
    if offset <= -n or offset >= m:
        return _m.zeros_like(t[..., :0])[..., 0, :] if n else _a.reshape(t, list(t.shape[:-2]) + [0])
    return _l.diag_part(t, k=offset)


def diagflat(v: Any, k: int = 0) -> Tensor:
    """The diagonal matrix of the flattened ``v``, on diagonal ``k``."""
    return diag(ravel(v), k)


@constant_maker
def compress(condition: Any, a: Any, axis: Any = None) -> Tensor:
    """The slices of ``a`` along ``axis`` where 1-D ``condition`` is true (a shorter
    ``condition`` counts as false beyond its end)."""
    c = asarray(condition, bool)
    t = asarray(a)
    if c.shape.rank != 1:
        raise ValueError("condition must be a 1-d array.")
    if t.shape.rank == 0 or axis is None:
        t, axis = ravel(t), 0
    axis = axis + t.shape.rank if axis < 0 else axis
    if not 0 <= axis < t.shape.rank:
        raise ValueError(f"axis {axis} is out of bounds for an array of rank {t.shape.rank}")
    n = t.shape[axis]
    if c.shape[0] < n:
        c = _a.concat([c, convert_to_tensor(np.zeros(n - c.shape[0], bool))], 0)
    elif c.shape[0] > n:
        raise ValueError(f"condition has {c.shape[0]} entries, more than the {n} of axis {axis}")
    return _i.boolean_mask(t, c, axis=axis)


def nonzero(a: Any) -> list:
    """The indices of the non-zero entries, one int64 array per axis."""
    t = atleast_1d(a)
    coords = _m.where(_m.cast(t, bool))
    return _a.unstack(coords, t.shape.rank, axis=1)


def ix_(*args: Any) -> list:
    """Open meshes from 1-D integer or bool arrays, to index a cross product."""
    n, out = len(args), []
    for i, a in enumerate(args):
        t = asarray(a)
        if t.shape.rank != 1:
            raise ValueError(f"Arguments must be 1-d, got arg {i} of rank {t.shape.rank}")
        shape = [1] * n
        shape[i] = -1
        if t.dtype._np.kind == "b":
            out.append(_a.reshape(nonzero(t)[0], shape))
        elif t.dtype._np.kind in "iu":
            out.append(_a.reshape(t, shape))
        else:
            raise ValueError(f"Only integer and bool dtypes are supported, got {t.dtype!r}")
    return out


def rot90(m: Any, k: int = 1, axes: Any = (0, 1)) -> Tensor:
    """``m`` rotated by 90 degrees ``k`` times in the plane of ``axes``."""
    t = asarray(m)
    r = t.shape.rank
    a1, a2 = (int(v) % r for v in axes)
    k %= 4
    if k == 0:
        return t
    if k == 2:
        return flip(flip(t, a1), a2)
    perm = list(builtins.range(r))
    perm[a1], perm[a2] = a2, a1
    return transpose(flip(t, a2), perm) if k == 1 else flip(transpose(t, perm), a2)


def select(condlist: Sequence[Any], choicelist: Sequence[Any], default: Any = 0) -> Tensor:
    """The entry of the first ``choicelist[i]`` whose ``condlist[i]`` holds, else ``default``."""
    if len(condlist) != len(choicelist):
        raise ValueError(f"condlist must have length equal to choicelist ({len(condlist)} vs {len(choicelist)})")
    if not condlist:
        raise ValueError("condlist must be non-empty")
    out, *choices = _same(default, *choicelist)
    for c, v in zip(condlist[::-1], choices[::-1]):
        out = where(c, v, out)
    return out


@constant_maker
def take_along_axis(arr: Any, indices: Any, axis: Any) -> Tensor:
    """Entries of ``arr`` at ``indices`` along ``axis`` (the two broadcast on the other axes)."""
    t, idx = asarray(arr), asarray(indices)
    if axis is None:
        return take_along_axis(ravel(t), idx, 0)
    r = t.shape.rank
    axis = axis + r if axis < 0 else axis
    ts, ix = list(t.shape), list(idx.shape)
    other = np.broadcast_shapes(tuple(ts[:axis] + [1] + ts[axis + 1:]), tuple(ix[:axis] + [1] + ix[axis + 1:]))
    t = _a.broadcast_to(t, other[:axis] + (ts[axis],) + other[axis + 1:])
    idx = _a.broadcast_to(idx, other[:axis] + (ix[axis],) + other[axis + 1:])
    idx = _m.where(_m.less(idx, _m.zeros_like(idx)), idx + _m.cast(ts[axis], idx.dtype), idx)
    t, idx = swapaxes(t, axis, -1), swapaxes(idx, axis, -1)
    return swapaxes(_i.gather(t, idx, axis=r - 1, batch_dims=r - 1), axis, -1)


# --------------------------------------------------------------------------- more products
def vdot(a: Any, b: Any) -> Tensor:
    """The dot product of the flattened arrays (``a`` conjugated when complex)."""
    x, y = (ravel(t) for t in _same(a, b))
    if x.dtype._np.kind == "c":
        x = _m.conj(x)
    return dot(x, y)


def kron(a: Any, b: Any) -> Tensor:
    """The Kronecker product: blocks ``a[i, j] * b``."""
    x, y = _same(a, b)
    r = builtins.max(x.shape.rank, y.shape.rank)
    xs = [1] * (r - x.shape.rank) + list(x.shape)
    ys = [1] * (r - y.shape.rank) + list(y.shape)
    xr = _a.reshape(x, [v for d in xs for v in (d, 1)])
    yr = _a.reshape(y, [v for d in ys for v in (1, d)])
    return _a.reshape(xr * yr, [p * q for p, q in zip(xs, ys)])


@constant_maker
def cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: Any = None) -> Tensor:
    """The cross product of 2- or 3-vectors along the given axes (a 2-vector's third component is
    0; two 2-vectors give the scalar z component)."""
    x, y = _same(a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    x, y = moveaxis(x, axisa, -1), moveaxis(y, axisb, -1)
    da, db = x.shape[-1], y.shape[-1]
    if da not in (2, 3) or db not in (2, 3):
        raise ValueError(f"incompatible dimensions for cross product (dimension must be 2 or 3): {da}, {db}")

    def pad3(t: Tensor) -> Tensor:
        return _a.pad(t, [[0, 0]] * (t.shape.rank - 1) + [[0, 1]]) if t.shape[-1] == 2 else t
    x, y = broadcast_arrays(pad3(x), pad3(y))
    c = _l.cross(x, y)
    if da == 2 and db == 2:
        return c[..., 2]
    return moveaxis(c, -1, axisc)


def experimental_enable_numpy_behavior(prefer_float32: bool = False, dtype_conversion_mode: str = "legacy") -> None:
    """Make tensors behave more like NumPy arrays, as TensorFlow does.

    Adds NumPy's array methods to tensors (``T``, ``size``, ``tolist``, ``transpose``,
    ``flatten``, ``reshape``, ``ravel``, ``clip``, ``astype``, ``max``, ``mean``, ``min``,
    ``round()``); tensors index as NumPy arrays do (index arrays, lists, tuples and masks among
    the indices; the gradient scatters back); with ``dtype_conversion_mode="legacy"`` (the default) the tensor operators
    promote dtypes as NumPy does (``int32 + int64`` is int64, ``int32 + float32`` is float64;
    ``tf.add`` and the other functions keep TensorFlow's strict rules); ``"off"`` keeps the
    operators strict; ``"all"`` and ``"safe"`` are TensorFlow's auto dtype conversion: Python
    values make weak tensors, whose dtype defers to the other operand's, and the operators, the
    functions TensorFlow wraps and ``Variable.assign*`` promote on TensorFlow's lattice
    (``"safe"`` refuses the promotions that can lose precision, with a ``TypeError``;
    docs/numpy.md). ``prefer_float32`` makes ``tnp`` infer float32 for Python floats. Call it
    again to change the mode.

    It changes every tensor of the process for good, as in TensorFlow (the example is not run by
    the doctests for that reason; tests/test_numpy_behavior.py runs it and puts things back)::

        >>> import tapegrad as tf
        >>> import tapegrad.experimental.numpy as tnp
        >>> tnp.experimental_enable_numpy_behavior()  # doctest: +SKIP
        >>> (tf.constant(1, tf.int32) + tf.constant(2, tf.int64)).dtype  # doctest: +SKIP
        tf.int64
    """
    _ns.set_mode(dtype_conversion_mode, prefer_float32, _OPERATORS, (Tensor, Variable))
    _i.numpy_style = True
    def _reshape(self: Any, *shape: Any, order: str = "C") -> Tensor:
        return reshape(self, shape[0] if len(shape) == 1 else shape, order)

    def _transpose(self: Any, *axes: Any) -> Tensor:
        return transpose(self, (axes[0] if len(axes) == 1 else axes) or None)

    methods = {
        "T": property(lambda self: transpose(self)), "size": property(lambda self: size(self)),
        "tolist": lambda self: np.asarray(self.numpy()).tolist(), "transpose": _transpose,
        "flatten": ravel, "reshape": _reshape, "ravel": ravel, "clip": clip,
        "astype": lambda self, dtype: _m.cast(self, dtype), "__round__": around, "max": amax,
        "mean": mean, "min": amin, "data": property(lambda self: self),
    }
    for k, v in methods.items():
        setattr(Tensor, k, v)


# the public names: what this module defines and re-exports from NumPy (not its own imports)
__all__ = sorted(n for n, v in list(globals().items())
                 if not n.startswith("_") and type(v) is not type(np)
                 and n not in ("annotations", "Any", "Sequence", "Tensor", "TensorShape", "Variable"))
