"""``tapegrad.keras.ops``: Keras 3's backend-agnostic ops (the NumPy-like ones and the common
neural-network ones), with keras.ops's names and arguments (``axis=``, ``keepdims=``), on
tapegrad's differentiable ops: results are tapegrad tensors, on the tape.

Binary ops promote mixed dtypes as keras.ops does (an integer with a float gives the float type;
two floats or two integers give the wider one); Python numbers take the other operand's type.

>>> import tapegrad as tf
>>> from tapegrad.keras import ops
>>> x = ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
>>> ops.sum(x, axis=1, keepdims=True).numpy()
array([[3.],
       [7.]], dtype=float32)
>>> ops.add(x, ops.arange(2)).numpy()
array([[1., 3.],
       [3., 5.]], dtype=float32)
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = ops.mean(ops.square(x))
>>> tape.gradient(y, x).numpy()
array([[0.5, 1. ],
       [1.5, 2. ]], dtype=float32)
"""
from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from .. import dtypes as _dt
from .._convert import convert_to_tensor as _convert
from .._tensor import Tensor, VariableBase
from ..ops import array as _a
from ..ops import indexing as _ix
from ..ops import linalg as _la
from ..ops import math as _m
from ..ops import nn as _nn
from ..ops import reduction as _r
from ..ops import sort as _s
from ..ops import special as _sp
from . import _logits
from ._keras_tensor import operation as _operation
from .losses import _FLOATX, _bce_elementwise, _l2_normalize, _missing_name
from .losses import categorical_crossentropy as _cce
from .losses import sparse_categorical_crossentropy as _scce

__all__ = [
    "convert_to_tensor", "convert_to_numpy", "cast", "shape", "ndim", "size", "stop_gradient",
    "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "mod", "power",
    "negative", "maximum", "minimum", "equal", "not_equal", "greater", "greater_equal", "less",
    "less_equal", "logical_and", "logical_or", "logical_not", "matmul", "dot", "tensordot",
    "einsum", "abs", "absolute", "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "rsqrt",
    "square", "sign", "sin", "cos", "tan", "tanh", "arctan", "floor", "ceil", "round", "erf",
    "clip", "where", "sum", "mean", "max", "min", "prod", "std", "var", "argmax", "argmin", "all",
    "any", "logsumexp", "norm", "cumsum", "cumprod", "concatenate", "stack", "unstack", "split",
    "reshape", "transpose", "expand_dims", "squeeze", "broadcast_to", "tile", "repeat", "flip",
    "pad", "take", "take_along_axis", "sort", "argsort", "top_k", "ones", "zeros", "full",
    "ones_like", "zeros_like", "full_like", "arange", "linspace", "eye", "one_hot", "softmax",
    "log_softmax", "sigmoid", "relu", "relu6", "elu", "selu", "gelu", "silu", "swish", "softplus",
    "leaky_relu", "normalize", "binary_crossentropy", "categorical_crossentropy",
    "sparse_categorical_crossentropy", "trace", "diagonal",
]


def _t(x: Any, dtype: Any = None) -> Tensor:
    t = x if type(x) is Tensor else _convert(x)
    if dtype is not None and t.dtype != _dt.as_dtype(dtype):
        t = _m.cast(t, dtype)
    return t


def _result_type(a: np.dtype, b: np.dtype) -> np.dtype:
    fa, fb = a.kind in "fc", b.kind in "fc"
    if fa != fb:
        return a if fa else b
    return np.promote_types(a, b)


def _pair(x1: Any, x2: Any) -> tuple[Tensor, Tensor]:
    """Both operands as tensors of one dtype, promoted as keras.ops promotes."""
    scalar1 = isinstance(x1, (int, float, builtins.bool)) and not isinstance(x1, np.generic)
    scalar2 = isinstance(x2, (int, float, builtins.bool)) and not isinstance(x2, np.generic)
    if scalar1 and not scalar2:
        t2 = _t(x2)
        want = t2.dtype.as_numpy_dtype if not (isinstance(x1, float) and t2.dtype.is_integer) else _FLOATX
        return _t(np.asarray(x1, want)), _t(t2, want)
    if scalar2 and not scalar1:
        t1 = _t(x1)
        want = t1.dtype.as_numpy_dtype if not (isinstance(x2, float) and t1.dtype.is_integer) else _FLOATX
        return _t(t1, want), _t(np.asarray(x2, want))
    t1, t2 = _t(x1), _t(x2)
    if t1.dtype != t2.dtype:
        want = _result_type(np.dtype(t1.dtype.as_numpy_dtype), np.dtype(t2.dtype.as_numpy_dtype))
        t1, t2 = _t(t1, want), _t(t2, want)
    return t1, t2


def _float(x: Any) -> Tensor:
    t = _t(x)
    return t if t.dtype.is_floating or t.dtype.is_complex else _m.cast(t, _FLOATX)


def _axis(axis: Any) -> Any:
    return list(axis) if isinstance(axis, tuple) else axis


# ---- conversion and structure ------------------------------------------------------------------

def convert_to_tensor(x: Any, dtype: Any = None, sparse: Any = None, ragged: Any = None) -> Tensor:
    """``x`` as a tensor (cast to ``dtype`` when given)."""
    return _t(x, dtype)


def convert_to_numpy(x: Any) -> np.ndarray:
    """``x`` as a NumPy array."""
    return np.asarray(x.numpy() if isinstance(x, (Tensor, VariableBase)) else x)


def cast(x: Any, dtype: Any) -> Tensor:
    """``x`` converted to ``dtype``."""
    return _m.cast(_t(x), dtype)


def shape(x: Any) -> tuple:
    """The shape of ``x`` as a tuple of ints."""
    return tuple(_t(x).shape.as_list())


def ndim(x: Any) -> int:
    """The number of axes of ``x``."""
    return _t(x).shape.rank


def size(x: Any) -> int:
    """The number of entries of ``x``."""
    return int(np.prod(shape(x)))


def stop_gradient(variable: Any) -> Tensor:
    """``variable``'s value, a constant for tapes."""
    return _a.stop_gradient(_t(variable))


# ---- elementwise binary ------------------------------------------------------------------------

def add(x1: Any, x2: Any) -> Tensor:
    """``x1 + x2``."""
    return _m.add(*_pair(x1, x2))


def subtract(x1: Any, x2: Any) -> Tensor:
    """``x1 - x2``."""
    return _m.subtract(*_pair(x1, x2))


def multiply(x1: Any, x2: Any) -> Tensor:
    """``x1 * x2``."""
    return _m.multiply(*_pair(x1, x2))


def divide(x1: Any, x2: Any) -> Tensor:
    """``x1 / x2`` (integers give floats)."""
    a, b = _pair(x1, x2)
    return _m.truediv(_float(a), _float(b))


true_divide = divide


def floor_divide(x1: Any, x2: Any) -> Tensor:
    """``x1 // x2``."""
    return _m.floordiv(*_pair(x1, x2))


def mod(x1: Any, x2: Any) -> Tensor:
    """``x1 % x2`` (the sign of ``x2``)."""
    return _m.mod(*_pair(x1, x2))


def power(x1: Any, x2: Any) -> Tensor:
    """``x1 ** x2``."""
    return _m.pow(*_pair(x1, x2))


def negative(x: Any) -> Tensor:
    """``-x``."""
    return _m.negative(_t(x))


def maximum(x1: Any, x2: Any) -> Tensor:
    """The elementwise maximum."""
    return _m.maximum(*_pair(x1, x2))


def minimum(x1: Any, x2: Any) -> Tensor:
    """The elementwise minimum."""
    return _m.minimum(*_pair(x1, x2))


def equal(x1: Any, x2: Any) -> Tensor:
    """``x1 == x2``."""
    return _m.equal(*_pair(x1, x2))


def not_equal(x1: Any, x2: Any) -> Tensor:
    """``x1 != x2``."""
    return _m.not_equal(*_pair(x1, x2))


def greater(x1: Any, x2: Any) -> Tensor:
    """``x1 > x2``."""
    return _m.greater(*_pair(x1, x2))


def greater_equal(x1: Any, x2: Any) -> Tensor:
    """``x1 >= x2``."""
    return _m.greater_equal(*_pair(x1, x2))


def less(x1: Any, x2: Any) -> Tensor:
    """``x1 < x2``."""
    return _m.less(*_pair(x1, x2))


def less_equal(x1: Any, x2: Any) -> Tensor:
    """``x1 <= x2``."""
    return _m.less_equal(*_pair(x1, x2))


def logical_and(x1: Any, x2: Any) -> Tensor:
    """Elementwise ``and`` of the truth values."""
    return _m.logical_and(cast(x1, "bool"), cast(x2, "bool"))


def logical_or(x1: Any, x2: Any) -> Tensor:
    """Elementwise ``or`` of the truth values."""
    return _m.logical_or(cast(x1, "bool"), cast(x2, "bool"))


def logical_not(x: Any) -> Tensor:
    """Elementwise ``not`` of the truth values."""
    return _m.logical_not(cast(x, "bool"))


def matmul(x1: Any, x2: Any) -> Tensor:
    """The matrix product (batched over leading axes; a 1-D operand is a vector)."""
    a, b = _pair(x1, x2)
    if a.shape.rank == 1 and b.shape.rank == 1:
        return _r.reduce_sum(a * b)
    if a.shape.rank == 1:
        return _a.squeeze(_la.matmul(_a.expand_dims(a, 0), b), -2)
    if b.shape.rank == 1:
        return _a.squeeze(_la.matmul(a, _a.expand_dims(b, -1)), -1)
    return _la.matmul(a, b)


def dot(x1: Any, x2: Any) -> Tensor:
    """NumPy's ``dot``: a product for scalars, the matrix product otherwise (the last axis of
    ``x1`` against the second-to-last of ``x2``)."""
    a, b = _pair(x1, x2)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return a * b
    if b.shape.rank <= 2:
        return matmul(a, b)
    return _la.tensordot(a, b, [[a.shape.rank - 1], [b.shape.rank - 2]])


def tensordot(x1: Any, x2: Any, axes: Any = 2) -> Tensor:
    """Sum of products over ``axes`` (an int: the last of ``x1`` with the first of ``x2``)."""
    return _la.tensordot(*_pair(x1, x2), axes)


def einsum(subscripts: str, *operands: Any) -> Tensor:
    """Einstein summation over ``operands`` as ``subscripts`` says."""
    return _la.einsum(subscripts, *operands)


# ---- elementwise unary -------------------------------------------------------------------------

def abs(x: Any) -> Tensor:  # noqa: A001 (keras.ops's name)
    """``|x|``."""
    return _m.abs(_t(x))


absolute = abs


def exp(x: Any) -> Tensor:
    """``e**x``."""
    return _m.exp(_float(x))


def expm1(x: Any) -> Tensor:
    """``e**x - 1``, exact near 0."""
    return _m.expm1(_float(x))


def log(x: Any) -> Tensor:
    """The natural logarithm."""
    return _m.log(_float(x))


def log1p(x: Any) -> Tensor:
    """``log(1 + x)``, exact near 0."""
    return _m.log1p(_float(x))


def log2(x: Any) -> Tensor:
    """The base-2 logarithm."""
    x = _float(x)
    return _m.log(x) / _t(np.log(2.0), x.dtype)


def log10(x: Any) -> Tensor:
    """The base-10 logarithm."""
    x = _float(x)
    return _m.log(x) / _t(np.log(10.0), x.dtype)


def sqrt(x: Any) -> Tensor:
    """The square root."""
    return _m.sqrt(_float(x))


def rsqrt(x: Any) -> Tensor:
    """``1 / sqrt(x)``."""
    return _m.rsqrt(_float(x))


def square(x: Any) -> Tensor:
    """``x * x``."""
    return _m.square(_t(x))


def sign(x: Any) -> Tensor:
    """-1, 0 or 1."""
    return _m.sign(_t(x))


def sin(x: Any) -> Tensor:
    """The sine."""
    return _m.sin(_float(x))


def cos(x: Any) -> Tensor:
    """The cosine."""
    return _m.cos(_float(x))


def tan(x: Any) -> Tensor:
    """The tangent."""
    return _m.tan(_float(x))


def tanh(x: Any) -> Tensor:
    """The hyperbolic tangent."""
    return _m.tanh(_float(x))


def arctan(x: Any) -> Tensor:
    """The inverse tangent."""
    return _sp.atan(_float(x))


def floor(x: Any) -> Tensor:
    """Rounded down."""
    return _sp.floor(_float(x))


def ceil(x: Any) -> Tensor:
    """Rounded up."""
    return _sp.ceil(_float(x))


def round(x: Any, decimals: int = 0) -> Tensor:  # noqa: A001 (keras.ops's name)
    """Rounded half to even, to ``decimals`` places."""
    x = _t(x)
    if not decimals:
        return _sp.round(x)
    scale = _t(10.0 ** decimals, x.dtype)
    return _sp.round(x * scale) / scale


def erf(x: Any) -> Tensor:
    """The error function."""
    return _sp.erf(_float(x))


def clip(x: Any, x_min: Any, x_max: Any) -> Tensor:
    """``x`` clipped to ``[x_min, x_max]``."""
    x = _t(x)
    return _m.clip_by_value(x, _t(x_min, x.dtype), _t(x_max, x.dtype))


def where(condition: Any, x1: Any = None, x2: Any = None) -> Tensor:
    """``x1`` where ``condition`` holds, ``x2`` elsewhere; with only ``condition``, the indices of
    its true entries."""
    if x1 is None and x2 is None:
        return _t(np.stack(np.nonzero(convert_to_numpy(condition)), -1).astype(np.int64))
    a, b = _pair(x1, x2)
    return _m.where(cast(condition, "bool"), a, b)


# ---- reductions --------------------------------------------------------------------------------

def sum(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """The sum over ``axis`` (all axes when None)."""
    return _r.reduce_sum(_t(x), axis=_axis(axis), keepdims=keepdims)


def mean(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The mean over ``axis`` (integers give floats)."""
    return _r.reduce_mean(_float(x), axis=_axis(axis), keepdims=keepdims)


def max(x: Any, axis: Any = None, keepdims: bool = False, initial: Any = None) -> Tensor:  # noqa: A001
    """The maximum over ``axis`` (at least ``initial`` when given)."""
    out = _r.reduce_max(_t(x), axis=_axis(axis), keepdims=keepdims)
    return out if initial is None else maximum(out, initial)


def min(x: Any, axis: Any = None, keepdims: bool = False, initial: Any = None) -> Tensor:  # noqa: A001
    """The minimum over ``axis`` (at most ``initial`` when given)."""
    out = _r.reduce_min(_t(x), axis=_axis(axis), keepdims=keepdims)
    return out if initial is None else minimum(out, initial)


def prod(x: Any, axis: Any = None, keepdims: bool = False, dtype: Any = None) -> Tensor:
    """The product over ``axis``."""
    return _r.reduce_prod(_t(x, dtype), axis=_axis(axis), keepdims=keepdims)


def std(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The (population) standard deviation over ``axis``."""
    return _r.reduce_std(_float(x), axis=_axis(axis), keepdims=keepdims)


def var(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The (population) variance over ``axis``."""
    return _r.reduce_variance(_float(x), axis=_axis(axis), keepdims=keepdims)


def _arg(fn: Any, x: Any, axis: Any, keepdims: bool) -> Tensor:
    x = _t(x)
    if axis is None:
        x, axis = _a.reshape(x, [-1]), 0
    out = _m.cast(fn(x, axis=axis), "int32")
    return _a.expand_dims(out, axis) if keepdims else out


def argmax(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The index of the largest entry along ``axis`` (of the flattened ``x`` when None), int32."""
    return _arg(_r.argmax, x, axis, keepdims)


def argmin(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The index of the smallest entry along ``axis`` (of the flattened ``x`` when None), int32."""
    return _arg(_r.argmin, x, axis, keepdims)


def all(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """Whether every entry along ``axis`` is true."""
    return _r.reduce_all(cast(x, "bool"), axis=_axis(axis), keepdims=keepdims)


def any(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """Whether some entry along ``axis`` is true."""
    return _r.reduce_any(cast(x, "bool"), axis=_axis(axis), keepdims=keepdims)


def logsumexp(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """``log(sum(exp(x)))`` over ``axis``, without overflow."""
    return _r.reduce_logsumexp(_float(x), axis=_axis(axis), keepdims=keepdims)


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A002
    """The vector norm (over one axis, or of the flattened ``x``) or the matrix norm (over two
    axes) of order ``ord`` (2-norm / Frobenius by default)."""
    x = _float(x)
    if ord is None or (ord == "fro"):
        return _m.sqrt(_r.reduce_sum(_m.square(_m.abs(x)), axis=_axis(axis), keepdims=keepdims))
    return _la.norm(x, ord=ord, axis=_axis(axis), keepdims=keepdims)


def cumsum(x: Any, axis: Any = None, dtype: Any = None) -> Tensor:
    """The running sum along ``axis`` (of the flattened ``x`` when None)."""
    x = _t(x, dtype)
    if axis is None:
        x, axis = _a.reshape(x, [-1]), 0
    return _m.cumsum(x, axis=axis)


def cumprod(x: Any, axis: Any = None, dtype: Any = None) -> Tensor:
    """The running product along ``axis`` (of the flattened ``x`` when None)."""
    x = _t(x, dtype)
    if axis is None:
        x, axis = _a.reshape(x, [-1]), 0
    return _m.cumprod(x, axis=axis)


# ---- shapes and arrays -------------------------------------------------------------------------

def concatenate(xs: Sequence, axis: int = 0) -> Tensor:
    """The tensors ``xs`` joined along ``axis``."""
    return _a.concat([_t(x) for x in xs], axis=axis)


def stack(x: Sequence, axis: int = 0) -> Tensor:
    """The tensors ``x`` stacked along a new ``axis``."""
    return _a.stack([_t(v) for v in x], axis=axis)


def unstack(x: Any, num: Any = None, axis: int = 0) -> list:
    """``x`` split into its slices along ``axis``."""
    return _a.unstack(_t(x), num=num, axis=axis)


def split(x: Any, indices_or_sections: Any, axis: int = 0) -> list:
    """``x`` split into equal sections, or at the given indices, along ``axis``."""
    x = _t(x)
    if isinstance(indices_or_sections, int):
        return _a.split(x, indices_or_sections, axis=axis)
    bounds = [0] + list(indices_or_sections) + [x.shape[axis]]
    return _a.split(x, [b - a for a, b in zip(bounds, bounds[1:])], axis=axis)


def reshape(x: Any, newshape: Any) -> Tensor:
    """``x`` with shape ``newshape`` (one entry may be -1)."""
    return _a.reshape(_t(x), newshape)


def transpose(x: Any, axes: Any = None) -> Tensor:
    """``x`` with its axes permuted (reversed by default)."""
    return _a.transpose(_t(x), perm=axes)


def expand_dims(x: Any, axis: Any) -> Tensor:
    """``x`` with new length-1 axes at ``axis`` (an int or a tuple)."""
    x = _t(x)
    if not isinstance(axis, (tuple, list)):
        return _a.expand_dims(x, axis)
    out_rank = x.shape.rank + len(axis)
    for a in sorted(a % out_rank for a in axis):
        x = _a.expand_dims(x, a)
    return x


def squeeze(x: Any, axis: Any = None) -> Tensor:
    """``x`` without its length-1 axes (or those in ``axis``)."""
    return _a.squeeze(_t(x), axis=_axis(axis) if not isinstance(axis, int) else [axis])


def broadcast_to(x: Any, shape: Any) -> Tensor:
    """``x`` broadcast to ``shape``."""
    return _a.broadcast_to(_t(x), shape)


def tile(x: Any, repeats: Any) -> Tensor:
    """``x`` repeated ``repeats`` times along each axis."""
    x = _t(x)
    reps = [repeats] if isinstance(repeats, int) else list(repeats)
    if len(reps) < x.shape.rank:
        reps = [1] * (x.shape.rank - len(reps)) + reps
    while x.shape.rank < len(reps):
        x = _a.expand_dims(x, 0)
    return _a.tile(x, reps)


def repeat(x: Any, repeats: Any, axis: Any = None) -> Tensor:
    """Each entry of ``x`` repeated ``repeats`` times along ``axis`` (of the flattened ``x`` when
    None)."""
    return _a.repeat(_t(x), repeats, axis=axis)


def flip(x: Any, axis: Any = None) -> Tensor:
    """``x`` reversed along ``axis`` (every axis when None)."""
    x = _t(x)
    axes = list(builtins.range(x.shape.rank)) if axis is None else (
        [axis] if isinstance(axis, int) else list(axis))
    return _a.reverse(x, axes)


def pad(x: Any, pad_width: Any, mode: str = "constant", constant_values: Any = None) -> Tensor:
    """``x`` padded by ``pad_width`` (``[[before, after], ...]``) in ``mode`` (``"constant"``,
    ``"reflect"``, ``"symmetric"``)."""
    x = _t(x)
    width = np.broadcast_to(np.asarray(pad_width, np.int64), (x.shape.rank, 2)).tolist()
    return _a.pad(x, width, mode=mode.upper(), constant_values=constant_values or 0)


def take(x: Any, indices: Any, axis: Any = None) -> Tensor:
    """The entries of ``x`` at ``indices`` along ``axis`` (of the flattened ``x`` when None);
    negative indices count from the end."""
    x = _t(x)
    if axis is None:
        x, axis = _a.reshape(x, [-1]), 0
    idx = convert_to_numpy(indices)
    idx = np.where(idx < 0, idx + x.shape[axis], idx)
    return _ix.gather(x, _t(idx.astype(np.int64)), axis=axis)


def take_along_axis(x: Any, indices: Any, axis: Any = None) -> Tensor:
    """NumPy's ``take_along_axis``: ``x`` gathered along ``axis`` at ``indices`` (which has
    ``x``'s rank and broadcasts with it on the other axes)."""
    x = _t(x)
    if axis is None:
        x, axis = _a.reshape(x, [-1]), 0
    axis = axis % x.shape.rank
    idx = convert_to_numpy(indices).astype(np.int64)
    idx = np.where(idx < 0, idx + x.shape[axis], idx)
    out_shape = list(np.broadcast_shapes(
        tuple(d if i != axis else 1 for i, d in enumerate(x.shape.as_list())),
        tuple(d if i != axis else 1 for i, d in enumerate(idx.shape))))
    out_shape[axis] = idx.shape[axis]
    idx = np.broadcast_to(idx, out_shape)
    grid = list(np.indices(out_shape, sparse=False))
    grid[axis] = idx
    x = _a.broadcast_to(x, [out_shape[i] if i != axis else x.shape[axis] for i in builtins.range(len(out_shape))])
    return _ix.gather_nd(x, _t(np.stack(grid, -1)))


def sort(x: Any, axis: int = -1) -> Tensor:
    """``x`` sorted ascending along ``axis``."""
    return _s.sort(_t(x), axis=axis)


def argsort(x: Any, axis: int = -1) -> Tensor:
    """The indices that sort ``x`` ascending along ``axis``."""
    return _s.argsort(_t(x), axis=axis, stable=True)


def top_k(x: Any, k: int, sorted: bool = True) -> tuple:  # noqa: A002
    """The ``k`` largest entries along the last axis and their indices."""
    out = _s.top_k(_t(x), k=k, sorted=sorted)
    return out.values, out.indices


# ---- creation ----------------------------------------------------------------------------------

def ones(shape: Any, dtype: Any = None) -> Tensor:
    """A tensor of ones (``float32`` by default)."""
    return _a.ones(shape, dtype=dtype or _FLOATX)


def zeros(shape: Any, dtype: Any = None) -> Tensor:
    """A tensor of zeros (``float32`` by default)."""
    return _a.zeros(shape, dtype=dtype or _FLOATX)


def full(shape: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    """A tensor of ``shape`` filled with ``fill_value``."""
    return _a.fill(shape, _t(fill_value, dtype))


def ones_like(x: Any, dtype: Any = None) -> Tensor:
    """Ones of ``x``'s shape (and dtype, unless given)."""
    return _m.ones_like(_t(x), dtype=dtype)


def zeros_like(x: Any, dtype: Any = None) -> Tensor:
    """Zeros of ``x``'s shape (and dtype, unless given)."""
    return _m.zeros_like(_t(x), dtype=dtype)


def full_like(x: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    """``fill_value`` in ``x``'s shape (and dtype, unless given)."""
    x = _t(x)
    return _a.fill(x.shape.as_list(), _t(fill_value, dtype or x.dtype))


def arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None) -> Tensor:
    """``start, start + step, ...`` below ``stop`` (ints give int32, floats float32)."""
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    if dtype is None:
        dtype = "int32" if builtins.all(isinstance(v, (int, np.integer)) for v in (start, stop, step)) else _FLOATX
    return _t(np.arange(start, stop, step).astype(_dt.as_dtype(dtype).as_numpy_dtype))


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype: Any = None, axis: int = 0) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop`` (inclusive with ``endpoint``)."""
    values, step = np.linspace(convert_to_numpy(start), convert_to_numpy(stop), num, endpoint=endpoint,
                               retstep=True, axis=axis)
    out = _t(values.astype(_dt.as_dtype(dtype or _FLOATX).as_numpy_dtype))
    return (out, step) if retstep else out


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None) -> Tensor:  # noqa: N803
    """A matrix with ones on the ``k``-th diagonal."""
    return _t(np.eye(N, M, k, dtype=_dt.as_dtype(dtype or _FLOATX).as_numpy_dtype))


def one_hot(x: Any, num_classes: int, axis: int = -1, dtype: Any = None, sparse: bool = False) -> Tensor:
    """One-hot vectors of length ``num_classes`` for the integer labels ``x``."""
    return _a.one_hot(_t(x), num_classes, axis=axis, dtype=dtype or _FLOATX)


# ---- neural-network ops ------------------------------------------------------------------------

def softmax(x: Any, axis: int = -1) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``axis`` (the output keeps ``x`` as its logits)."""
    x = _float(x)
    return _logits.attach(_nn.softmax(x, axis=axis), x)


def log_softmax(x: Any, axis: int = -1) -> Tensor:
    """``x - logsumexp(x)`` along ``axis``."""
    return _nn.log_softmax(_float(x), axis=axis)


def sigmoid(x: Any) -> Tensor:
    """``1 / (1 + exp(-x))`` (the output keeps ``x`` as its logits)."""
    x = _float(x)
    return _logits.attach(_m.sigmoid(x), x)


def relu(x: Any) -> Tensor:
    """``max(x, 0)``."""
    return _nn.relu(_t(x))


def relu6(x: Any) -> Tensor:
    """``min(max(x, 0), 6)``."""
    return _nn.relu6(_t(x))


def elu(x: Any, alpha: float = 1.0) -> Tensor:
    """``x`` for ``x > 0``, ``alpha (exp(x) - 1)`` elsewhere."""
    x = _float(x)
    out = _nn.elu(x)
    return out if alpha == 1.0 else _m.where(x > 0, out, alpha * out)


def selu(x: Any) -> Tensor:
    """The scaled ELU."""
    return _nn.selu(_float(x))


def gelu(x: Any, approximate: bool = True) -> Tensor:
    """The Gaussian error linear unit (the tanh approximation by default, as keras.ops)."""
    return _nn.gelu(_float(x), approximate=approximate)


def silu(x: Any) -> Tensor:
    """``x * sigmoid(x)``."""
    return _nn.silu(_float(x))


swish = silu


def softplus(x: Any) -> Tensor:
    """``log(1 + exp(x))``."""
    return _sp.softplus(_float(x))


def leaky_relu(x: Any, negative_slope: float = 0.2) -> Tensor:
    """``x`` for ``x > 0``, ``negative_slope * x`` elsewhere."""
    return _nn.leaky_relu(_float(x), alpha=negative_slope)


def normalize(x: Any, axis: int = -1, order: int = 2, epsilon: float | None = None) -> Tensor:
    """``x`` divided by its ``order``-norm along ``axis`` (norms below ``epsilon`` floored)."""
    x = _float(x)
    if order == 2 and epsilon is None:
        return _l2_normalize(x, axis)
    n = _la.norm(x, ord=order, axis=axis, keepdims=True)
    return x / _m.maximum(n, _t(epsilon if epsilon is not None else 1e-7, x.dtype))


def binary_crossentropy(target: Any, output: Any, from_logits: bool = False) -> Tensor:
    """The elementwise binary crossentropy (``output`` clipped to ``[eps, 1 - eps]``, or logits)."""
    output = _float(output)
    output, from_logits = _logits.get_logits(output, from_logits, "Sigmoid", "binary_crossentropy")
    return _bce_elementwise(_t(target, output.dtype), output, from_logits)


def categorical_crossentropy(target: Any, output: Any, from_logits: bool = False, axis: int = -1) -> Tensor:
    """The crossentropy over ``axis`` against a distribution ``target``."""
    return _cce(target, output, from_logits=from_logits, axis=axis)


def sparse_categorical_crossentropy(target: Any, output: Any, from_logits: bool = False, axis: int = -1) -> Tensor:
    """The crossentropy over the last axis against integer labels ``target``."""
    return _scce(target, output, from_logits=from_logits, axis=axis)


def trace(x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    """The sum of the ``offset`` diagonal over ``axis1`` and ``axis2``."""
    return _r.reduce_sum(diagonal(x, offset, axis1, axis2), axis=-1)


def diagonal(x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    """The ``offset`` diagonal over ``axis1`` and ``axis2`` (moved to the last axis)."""
    x = _t(x)
    r = x.shape.rank
    a1, a2 = axis1 % r, axis2 % r
    perm = [i for i in builtins.range(r) if i not in (a1, a2)] + [a1, a2]
    return _la.diag_part(_a.transpose(x, perm), k=offset)


def get_item(x: Any, key: Any) -> Tensor:
    """``x[key]`` (what ``keras_tensor[key]`` becomes in a functional model; a key saved in a
    model's config comes back as a list, read as the tuple it was)."""
    if isinstance(key, list) and builtins.any(isinstance(k, slice) or k is Ellipsis or k is None for k in key):
        key = tuple(key)
    return _t(x)[key]


def _symbolic(name: str, fn: Any) -> Any:
    """``fn``, or, when an argument is a KerasTensor (keras.Input or a layer's symbolic output), a
    node of the functional graph that calls ``fn`` when the model runs (as keras.ops does)."""
    def op(*args: Any, **kwargs: Any) -> Any:
        for a in (*args, *kwargs.values()):
            if type(a).__name__ == "KerasTensor" or isinstance(a, (list, tuple)) and builtins.any(
                    type(b).__name__ == "KerasTensor" for b in a):
                return _operation(name, args, kwargs)
        return fn(*args, **kwargs)
    op.__name__, op.__qualname__, op.__doc__, op.__wrapped__ = fn.__name__, fn.__qualname__, fn.__doc__, fn
    return op


__all__.append("get_item")
for _name in __all__:
    if _name not in ("convert_to_tensor", "convert_to_numpy", "shape", "ndim", "size", "ones", "zeros",
                     "full", "arange", "linspace", "eye"):
        globals()[_name] = _symbolic(_name, globals()[_name])
del _name


if not TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "did you mean" for a typo
        raise _missing_name(__name__, name, __all__)
