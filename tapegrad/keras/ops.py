"""``tapegrad.keras.ops``: Keras 3's backend-agnostic ops (the NumPy-like ones and the common
neural-network ones), with keras.ops's names and arguments (``axis=``, ``keepdims=``), on
tapegrad's differentiable ops: results are tapegrad tensors, on the tape.

The ops promote their operands' dtypes as keras.ops do, by Keras's lattice
(``keras.backend.result_type``: an integer with a float gives the float type, two of a kind the wider
one, signed with unsigned the next signed type wide enough), each op with Keras's own casts (integer
labels of ``one_hot``, ``sum`` of small integers in 32 bits, ...); ``add``-like ops take a Python
number as weak (it takes the other operand's type), comparisons as ``int32``/``float32``. The
``tf.*`` ops do not promote.

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
import inspect
import re as _re
import sys as _sys
from importlib.machinery import ModuleSpec as _ModuleSpec
import types as _types
import warnings as _warnings
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ._engine import _nest
from .. import dtypes as _dt
from ._engine import convert_to_tensor as _convert
from ._engine import Tensor, VariableBase
from .backend import PYTHON_DTYPES as _PYTHON_DTYPES, floatx as _floatx
from .backend import result_type as _result_type
from .backend import image_data_format as _image_data_format
from .. import image as _tf_image
from ._engine import vectorized_map as _vectorized_map
from ._engine import custom_gradient as _custom_gradient
from ..ops import array as _a
from ..ops import conv as _conv
from ..ops import decompositions as _dec
from ..ops import indexing as _ix
from ..ops import linalg as _la
from ..ops import math as _m
from ..ops import nn as _nn
from ..ops import reduction as _r
from ..ops import segment as _seg
from ..sparse._sparse_tensor import SparseTensor as _SparseTensor
from ..sparse.ops import sparse_dense_matmul as _sparse_dense_matmul
from ..ops import signal as _sig
from ..ops import sort as _s
from ._engine import apply as _apply
from .. import autodiff as _autodiff
from ..ops import special as _sp
from . import _logits
from . import _image_ops
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
    if type(x) is float and dtype is not None and _dt.as_dtype(dtype).is_floating:
        return _convert(x, dtype)  # (exact in float64: not through float32)
    t = x if type(x) is Tensor else _convert(x)
    if dtype is not None and t.dtype != _dt.as_dtype(dtype):
        t = _m.cast(t, dtype)
    return t


def _weak(x: Any) -> Any:
    """What Keras promotes ``x`` as: a Python int or float is weak (its type), else a tensor."""
    return x if type(x) in (int, float) else _t(x)


def _promote(*xs: Any, extra: Any = None, weak: bool = True) -> list:
    """``xs`` as tensors of the dtype Keras's ops give them (``result_type`` of theirs and
    ``extra``); with ``weak``, Python ints and floats take the others' type, else they are int32 and
    float32 tensors first (as Keras converts them)."""
    xs = [_weak(x) if weak else _t(x) for x in xs]
    kinds = [type(x) if type(x) in (int, float) else x.dtype.name for x in xs]
    if extra is None and builtins.all(k == kinds[0] for k in kinds) and type(kinds[0]) is str:
        return xs
    want = _result_type(*kinds, *(() if extra is None else (extra,)))
    return [_t(np.asarray(x, want)) if type(x) in (int, float) else _t(x, want) for x in xs]


def _pair(x1: Any, x2: Any) -> list:
    return _promote(x1, x2)


def _strong_pair(x1: Any, x2: Any) -> list:
    return _promote(x1, x2, weak=False)


def _widened(x: Tensor) -> Tensor:
    """``x`` in the type Keras sums it in: bool and small integers in 32 bits (as JAX)."""
    name = x.dtype.name
    if name in ("bool", "int8", "int16"):
        return _m.cast(x, "int32")
    return _m.cast(x, "uint32") if name in ("uint8", "uint16") else x


def _float(x: Any) -> Tensor:
    t = _t(x)
    return t if t.dtype.is_floating or t.dtype.is_complex else _m.cast(t, _FLOATX)


def _axis(axis: Any) -> Any:
    return list(axis) if isinstance(axis, tuple) else axis


# ---- conversion and structure ------------------------------------------------------------------

def convert_to_tensor(x: Any, dtype: Any = None, sparse: Any = None, ragged: Any = None) -> Tensor:
    """``x`` as a tensor (cast to ``dtype`` when given); a KerasTensor's ``ConvertToTensor`` node."""
    if type(x).__name__ == "KerasTensor":
        return _operation("convert_to_tensor", (x,), {} if dtype is None else {"dtype": dtype})
    return _t(x, dtype)


def convert_to_numpy(x: Any) -> np.ndarray:
    """``x`` as a NumPy array."""
    return np.asarray(x.numpy() if isinstance(x, (Tensor, VariableBase)) else x)


def cast(x: Any, dtype: Any) -> Tensor:
    """``x`` converted to ``dtype`` (a ``tf.SparseTensor`` stays one, its values cast, as Keras's)."""
    return _m.cast(x if type(x) is _SparseTensor else _t(x), dtype)


def shape(x: Any) -> tuple:
    """The shape of ``x`` as a tuple of ints (a KerasTensor's: ``None`` for unknown dims)."""
    if type(x).__name__ == "KerasTensor":
        return x.shape
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
    return _m.truediv(*_promote(x1, x2, extra=float))


true_divide = divide


def floor_divide(x1: Any, x2: Any) -> Tensor:
    """``x1 // x2``."""
    return _m.floordiv(*_pair(x1, x2))


def mod(x1: Any, x2: Any) -> Tensor:
    """``x1 % x2`` (the sign of ``x2``; bools as int32)."""
    a, b = _strong_pair(x1, x2)
    if a.dtype.name == "bool":
        a, b = _m.cast(a, "int32"), _m.cast(b, "int32")
    return _m.mod(a, b)


def power(x1: Any, x2: Any) -> Tensor:
    """``x1 ** x2`` (unsigned integers computed in int32)."""
    a, b = _pair(x1, x2)
    if a.dtype.is_unsigned:
        return _m.cast(_m.pow(_m.cast(a, "int32"), _m.cast(b, "int32")), a.dtype)
    return _m.pow(a, b)


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
    return _m.equal(*_strong_pair(x1, x2))


def not_equal(x1: Any, x2: Any) -> Tensor:
    """``x1 != x2``."""
    return _m.not_equal(*_strong_pair(x1, x2))


def greater(x1: Any, x2: Any) -> Tensor:
    """``x1 > x2``."""
    return _m.greater(*_strong_pair(x1, x2))


def greater_equal(x1: Any, x2: Any) -> Tensor:
    """``x1 >= x2``."""
    return _m.greater_equal(*_strong_pair(x1, x2))


def less(x1: Any, x2: Any) -> Tensor:
    """``x1 < x2``."""
    return _m.less(*_strong_pair(x1, x2))


def less_equal(x1: Any, x2: Any) -> Tensor:
    """``x1 <= x2``."""
    return _m.less_equal(*_strong_pair(x1, x2))


def logical_and(x1: Any, x2: Any) -> Tensor:
    """Elementwise ``and`` of the truth values."""
    return _m.logical_and(cast(x1, "bool"), cast(x2, "bool"))


def logical_or(x1: Any, x2: Any) -> Tensor:
    """Elementwise ``or`` of the truth values."""
    return _m.logical_or(cast(x1, "bool"), cast(x2, "bool"))


def logical_not(x: Any) -> Tensor:
    """Elementwise ``not`` of the truth values."""
    return _m.logical_not(cast(x, "bool"))


def _in_float(x1: Any, x2: Any, keep: tuple = ()) -> tuple:
    """The operands in the type Keras multiplies them in (a float, unless ``keep`` holds the
    promoted type), and the type of the result."""
    a, b = _t(x1), _t(x2)
    out = _result_type(a.dtype.name, b.dtype.name)
    if out in keep:
        return _t(a, out), _t(b, out), out
    work = _result_type(out, float)
    return _t(a, work), _t(b, work), out


def _matmul(a: Tensor, b: Tensor) -> Tensor:
    if a.shape.rank == 1 and b.shape.rank == 1:
        return _r.reduce_sum(a * b)
    if a.shape.rank == 1:
        return _a.squeeze(_la.matmul(_a.expand_dims(a, 0), b), -2)
    if b.shape.rank == 1:
        return _a.squeeze(_la.matmul(a, _a.expand_dims(b, -1)), -1)
    if b.shape.rank == 2 and a.shape.rank > 2:   # as Keras on TF: one product of the stacked rows,
        return _la.tensordot(a, b, [[-1], [0]])  # whose gradient for b is one product too
    return _la.matmul(a, b)


def matmul(x1: Any, x2: Any) -> Tensor:
    """The matrix product (batched over leading axes; a 1-D operand is a vector), computed in a
    float type and given the promoted type (int8 by int8 gives int32)."""
    if type(x1) is _SparseTensor or type(x2) is _SparseTensor:
        return _sparse_matmul(x1, x2)
    a, b = _t(x1), _t(x2)
    if a.dtype == b.dtype and a.dtype.is_floating:  # (the common case: nothing to promote)
        return _matmul(a, b)
    if a.dtype.name == b.dtype.name == "int8":
        return _m.cast(_matmul(_m.cast(a, "int32"), _m.cast(b, "int32")), "int32")
    a, b, out = _in_float(a, b)
    return _t(_matmul(a, b), out)


def _sparse_matmul(x1: Any, x2: Any) -> Tensor:
    """Keras's matmul with a rank-2 ``tf.SparseTensor`` operand: a dense result, computed in a
    float type and given the promoted type."""
    if type(x1) is type(x2):
        raise NotImplementedError("keras.ops.matmul of two SparseTensors is not implemented in tapegrad; "
                                  "densify one with tf.sparse.to_dense.")
    sp, dense = (x1, _t(x2)) if type(x1) is _SparseTensor else (x2, _t(x1))
    if sp.shape.rank != 2:
        raise NotImplementedError(f"keras.ops.matmul with a SparseTensor of rank {sp.shape.rank}: tapegrad "
                                  "multiplies rank-2 SparseTensors only.")
    out = _result_type(sp.dtype.name, dense.dtype.name)
    work = _result_type(out, float)
    sp = _SparseTensor(sp.indices, _t(sp.values, work), sp.dense_shape)
    dense = _t(dense, work)
    res = _sparse_dense_matmul(sp, dense) if type(x1) is _SparseTensor else \
        _la.matrix_transpose(_sparse_dense_matmul(sp, _la.matrix_transpose(dense), adjoint_a=True))
    return _t(res, out)


def dot(x1: Any, x2: Any) -> Tensor:
    """NumPy's ``dot``: a product for scalars, the matrix product otherwise (the last axis of
    ``x1`` against the second-to-last of ``x2``)."""
    a, b, out = _in_float(x1, x2)
    if a.shape.rank == 0 or b.shape.rank == 0:
        res = a * b
    elif b.shape.rank <= 2:
        res = _matmul(a, b)
    else:
        res = _la.tensordot(a, b, [[a.shape.rank - 1], [b.shape.rank - 2]])
    return _t(res, out)


def tensordot(x1: Any, x2: Any, axes: Any = 2) -> Tensor:
    """Sum of products over ``axes`` (an int: the last of ``x1`` with the first of ``x2``)."""
    a, b, out = _in_float(x1, x2, keep=("int32", "int64", "float16", "float32", "float64",
                                        "complex64", "complex128"))
    return _t(_la.tensordot(a, b, axes), out)


# the int8 einsums Keras's TensorFlow backend runs as int8 matmuls with exact int32 sums (the
# others it computes in floatx, as tapegrad does), by their subscripts with letters renamed a, b, ...
_EXACT_INT8 = frozenset({
    "a,b->ab", "ab,b->a", "ab,bc->ac", "ab,cb->ac", "abc,cd->abd", "abc,dc->abd", "abcd,abde->abce",
    "abcd,abed->abce", "abcd,acbe->adbe", "abcd,adbe->acbe", "abcd,aecd->acbe", "abcd,aecd->aceb",
    "abc,cde->abde", "abc,dce->abde", "abc,dec->abde", "abcd,cde->abe", "abcd,ced->abe", "abcd,ecd->abe",
    "abcde,aebf->adbcf", "abcde,afce->acdbf"})


def _normalized(subscripts: str) -> str:
    names: dict = {}
    return "".join(names.setdefault(c, chr(ord("a") + len(names))) if c.isalpha() else c for c in subscripts)


def einsum(subscripts: str, *operands: Any) -> Tensor:
    """Einstein summation over ``operands`` as ``subscripts`` says (integers computed in
    :func:`keras.backend.floatx`; int8 operands give int32)."""
    xs = [_t(x) for x in operands]
    names = {x.dtype.name for x in xs}
    if len(names) == 1 and xs[0].dtype.is_floating:  # (the common case: nothing to promote)
        return _la.einsum(subscripts, *xs)
    out = "int32" if names == {"int8"} else _result_type(*names)
    if names == {"int8"} and _normalized(subscripts) in _EXACT_INT8:  # (int32 sums, as TF's int8 matmuls)
        return _la.einsum(subscripts, *[_t(x, "int32") for x in xs])
    work = _floatx() if "int" in out else out
    return _t(_la.einsum(subscripts, *[_t(x, work) for x in xs]), out)


# ---- elementwise unary -------------------------------------------------------------------------

def abs(x: Any) -> Tensor:  # noqa: A001 (keras.ops's name)
    """``|x|`` (unsigned integers and bools unchanged)."""
    x = _t(x)
    return x if x.dtype.is_unsigned or x.dtype.name == "bool" else _m.abs(x)


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
    """``x * x`` (bools as int32)."""
    x = _t(x)
    return _m.square(_m.cast(x, "int32") if x.dtype.name == "bool" else x)


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
    if x.dtype.name == "bool":
        x = _m.cast(x, "int32")
    return _m.clip_by_value(x, _t(x_min, x.dtype), _t(x_max, x.dtype))


def where(condition: Any, x1: Any = None, x2: Any = None) -> Tensor:
    """``x1`` where ``condition`` holds, ``x2`` elsewhere; with only ``condition``, the indices of
    its true entries, one int32 tensor per axis (NumPy's ``nonzero``)."""
    if x1 is None and x2 is None:
        return tuple(_t(i.astype(np.int32)) for i in np.nonzero(convert_to_numpy(condition)))
    if x1 is None or x2 is None:
        raise ValueError("keras.ops.where: give both x1 and x2, or neither (for the indices of "
                         "condition's true entries).")
    a, b = _pair(x1, x2)
    return _m.where(cast(condition, "bool"), a, b)


# ---- reductions --------------------------------------------------------------------------------

def sum(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """The sum over ``axis`` (all axes when None; bools and 8- and 16-bit integers in 32 bits)."""
    return _r.reduce_sum(_widened(_t(x)), axis=_axis(axis), keepdims=keepdims)


def mean(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The mean over ``axis`` (integers give floats)."""
    return _r.reduce_mean(_float(x), axis=_axis(axis), keepdims=keepdims)


def max(x: Any, axis: Any = None, keepdims: bool = False, initial: Any = None) -> Tensor:  # noqa: A001
    """The maximum over ``axis`` (at least ``initial`` when given)."""
    x = _t(x)
    if x.dtype.name == "bool":
        out = _r.reduce_any(x, axis=_axis(axis), keepdims=keepdims)
        return out if initial is None else _m.cast(maximum(_m.cast(out, "int32"), _t(initial, "int32")), "bool")
    out = _r.reduce_max(x, axis=_axis(axis), keepdims=keepdims)
    return out if initial is None else _m.maximum(out, _t(initial, out.dtype))


def min(x: Any, axis: Any = None, keepdims: bool = False, initial: Any = None) -> Tensor:  # noqa: A001
    """The minimum over ``axis`` (at most ``initial`` when given)."""
    x = _t(x)
    if x.dtype.name == "bool":
        out = _r.reduce_all(x, axis=_axis(axis), keepdims=keepdims)
        return out if initial is None else _m.cast(minimum(_m.cast(out, "int32"), _t(initial, "int32")), "bool")
    out = _r.reduce_min(x, axis=_axis(axis), keepdims=keepdims)
    return out if initial is None else _m.minimum(out, _t(initial, out.dtype))


def prod(x: Any, axis: Any = None, keepdims: bool = False, dtype: Any = None) -> Tensor:
    """The product over ``axis`` (bools and 8- and 16-bit integers in 32 bits, unless ``dtype``)."""
    x = _t(x, dtype) if dtype is not None else _widened(_t(x))
    return _r.reduce_prod(x, axis=_axis(axis), keepdims=keepdims)


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
    if x.dtype.name == "bool":
        x = _m.cast(x, "int32")
    if axis is None:
        x, axis = _a.reshape(x, [-1]), 0
    return _m.cumsum(x, axis=axis)


def cumprod(x: Any, axis: Any = None, dtype: Any = None) -> Tensor:
    """The running product along ``axis`` (of the flattened ``x`` when None)."""
    x = _t(x, dtype)
    if x.dtype.name == "bool":
        x = _m.cast(x, "int32")
    if axis is None:
        x, axis = _a.reshape(x, [-1]), 0
    return _m.cumprod(x, axis=axis)


# ---- shapes and arrays -------------------------------------------------------------------------

def concatenate(xs: Sequence, axis: int = 0) -> Tensor:
    """The tensors ``xs`` joined along ``axis`` (in their promoted dtype)."""
    return _a.concat(_promote(*xs, weak=False), axis=axis)


def stack(x: Sequence, axis: int = 0) -> Tensor:
    """The tensors ``x`` stacked along a new ``axis`` (in their promoted dtype)."""
    return _a.stack(_promote(*x), axis=axis)


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
    x = _t(x)
    if x.dtype.name == "bool":
        return _m.cast(_s.sort(_m.cast(x, "int8"), axis=axis), "bool")
    return _s.sort(x, axis=axis)


def argsort(x: Any, axis: int = -1) -> Tensor:
    """The indices that sort ``x`` ascending along ``axis``."""
    x = _t(x)
    return _s.argsort(_m.cast(x, "uint8") if x.dtype.name == "bool" else x, axis=axis, stable=True)


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
    """One-hot vectors of length ``num_classes`` for the labels ``x`` (cast to integers first,
    as Keras: float labels are truncated)."""
    return _a.one_hot(_t(x, "int64"), num_classes, axis=axis, dtype=dtype or _FLOATX)


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


def _relu_static(x: Any, negative_slope: float, max_value: float | None, threshold: float) -> Tensor:
    """``keras.activations.relu`` on tensors (its ``ReLU`` operation's ``static_call`` in Keras 3)."""
    x = _t(x)
    if negative_slope != 0.0 and max_value is None and threshold == 0:
        return _nn.leaky_relu(x, alpha=negative_slope)
    below = _nn.relu(threshold - x if threshold != 0 else -x) if negative_slope != 0.0 else None
    clip = max_value is not None
    if threshold != 0:
        x = x * _m.cast(_m.greater(x, _convert(threshold, x.dtype)), x.dtype)
    elif max_value == 6:
        x, clip = _nn.relu6(x), False
    else:
        x = _nn.relu(x)
    if clip:
        x = _m.clip_by_value(x, _convert(0.0, x.dtype), _convert(max_value, x.dtype))
    if below is not None:
        x = x - negative_slope * below
    return x


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
    """The sum of the ``offset`` diagonal over ``axis1`` and ``axis2`` (bools and 8- and 16-bit
    integers in 32 bits)."""
    return _r.reduce_sum(_widened(diagonal(x, offset, axis1, axis2)), axis=-1)


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
    if isinstance(key, list) and builtins.any(isinstance(k, builtins.slice) or k is Ellipsis or k is None for k in key):
        key = tuple(key)
    return _t(x)[key]


# ---- more of keras.ops: NumPy-like math and arrays, activations, control flow, indexing ----------

def _unary_float(fn: Any, doc: str) -> Any:
    def op(x: Any) -> Tensor:
        return fn(_float(x))
    op.__doc__ = doc
    return op


arccos = _unary_float(_sp.acos, "The inverse cosine (integers give floats).")
arccosh = _unary_float(_sp.acosh, "The inverse hyperbolic cosine.")
arcsin = _unary_float(_sp.asin, "The inverse sine.")
arcsinh = _unary_float(_sp.asinh, "The inverse hyperbolic sine.")
arctanh = _unary_float(_sp.atanh, "The inverse hyperbolic tangent.")
cosh = _unary_float(_sp.cosh, "The hyperbolic cosine.")
sinh = _unary_float(_sp.sinh, "The hyperbolic sine.")
for _f, _n in ((arccos, "arccos"), (arccosh, "arccosh"), (arcsin, "arcsin"), (arcsinh, "arcsinh"),
               (arctanh, "arctanh"), (cosh, "cosh"), (sinh, "sinh")):
    _f.__name__ = _f.__qualname__ = _n


def exp2(x: Any) -> Tensor:
    """``2**x`` (integers give floats)."""
    x = _float(x)
    return _m.pow(_t(2.0, x.dtype), x)


def reciprocal(x: Any) -> Tensor:
    """``1 / x``."""
    return _m.reciprocal(_t(x))


def trunc(x: Any) -> Tensor:
    """Rounded toward zero (integers and bools unchanged)."""
    x = _t(x)
    if not x.dtype.is_floating:
        return x
    return _m.where(_m.less(x, _t(0, x.dtype)), _sp.ceil(x), _sp.floor(x))


def _float_test(fn: Any, fill: bool) -> Any:
    def op(x: Any) -> Tensor:
        x = _t(x)
        if not (x.dtype.is_floating or x.dtype.is_complex):
            return _t(np.full(x.shape.as_list(), fill))
        return fn(x)
    return op


isnan = _float_test(_sp.is_nan, False)
isnan.__doc__, isnan.__name__ = "Where ``x`` is NaN (never for integers).", "isnan"
isinf = _float_test(_sp.is_inf, False)
isinf.__doc__, isinf.__name__ = "Where ``x`` is infinite (never for integers).", "isinf"
isfinite = _float_test(_sp.is_finite, True)
isfinite.__doc__, isfinite.__name__ = "Where ``x`` is finite (always for integers).", "isfinite"


def nan_to_num(x: Any, nan: float = 0.0, posinf: Any = None, neginf: Any = None) -> Tensor:
    """``x`` with NaN, +inf and -inf replaced (by ``nan``, and the dtype's largest and smallest
    values unless given); integers unchanged."""
    x = _t(x)
    if not x.dtype.is_floating:
        return x
    info = np.finfo(x.dtype.as_numpy_dtype)
    big = _t(info.max if posinf is None else posinf, x.dtype)
    small = _t(info.min if neginf is None else neginf, x.dtype)
    x = _m.where(_sp.is_nan(x), _m.zeros_like(x) + _t(nan, x.dtype), x)
    x = _m.where(_m.logical_and(_sp.is_inf(x), _m.greater(x, _t(0, x.dtype))), _m.zeros_like(x) + big, x)
    return _m.where(_m.logical_and(_sp.is_inf(x), _m.less(x, _t(0, x.dtype))), _m.zeros_like(x) + small, x)


def copy(x: Any) -> Tensor:
    """A copy of ``x``."""
    return _a.identity(_t(x))


def conjugate(x: Any) -> Tensor:
    """The complex conjugate (real ``x`` unchanged)."""
    x = _t(x)
    return _m.conj(x) if x.dtype.is_complex else x


conj = conjugate


def ravel(x: Any) -> Tensor:
    """``x`` flattened."""
    return _a.reshape(_t(x), [-1])


def count_nonzero(x: Any, axis: Any = None) -> Tensor:
    """The number of nonzero entries over ``axis``, int32."""
    return _m.cast(_r.count_nonzero(_t(x), axis=_axis(axis)), "int32")


amax = max
amin = min


def ptp(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The range ``max - min`` over ``axis``."""
    x = _t(x)
    return _m.subtract(_r.reduce_max(x, axis=_axis(axis), keepdims=keepdims),
                       _r.reduce_min(x, axis=_axis(axis), keepdims=keepdims))


def average(x: Any, axis: Any = None, weights: Any = None) -> Tensor:
    """The mean over ``axis``, weighted by ``weights`` (the shape of ``x``, or 1-D along ``axis``)."""
    if weights is None:
        x, = _promote(x, extra=float, weak=False)
        return _r.reduce_mean(x, axis=axis)
    x, w = _promote(x, weights, extra=float, weak=False)
    if w.shape.rank == 1 and x.shape.rank > 1 and axis is not None:
        w = _a.reshape(w, [-1 if i == axis % x.shape.rank else 1 for i in builtins.range(x.shape.rank)])
    return _m.truediv(_r.reduce_sum(x * w, axis=axis), _r.reduce_sum(w + _m.zeros_like(x), axis=axis))


def moveaxis(x: Any, source: Any, destination: Any) -> Tensor:
    """``x`` with the axes ``source`` moved to ``destination`` (ints or sequences)."""
    x = _t(x)
    r = x.shape.rank
    src = [a % r for a in ([source] if isinstance(source, int) else source)]
    dst = [a % r for a in ([destination] if isinstance(destination, int) else destination)]
    order = [a for a in builtins.range(r) if a not in src]
    for d, s_ in sorted(zip(dst, src)):
        order.insert(d, s_)
    return _a.transpose(x, order)


def swapaxes(x: Any, axis1: int, axis2: int) -> Tensor:
    """``x`` with ``axis1`` and ``axis2`` exchanged."""
    x = _t(x)
    perm = list(builtins.range(x.shape.rank))
    a, b = axis1 % len(perm), axis2 % len(perm)
    perm[a], perm[b] = perm[b], perm[a]
    return _a.transpose(x, perm)


def roll(x: Any, shift: Any, axis: Any = None) -> Tensor:
    """``x`` rolled by ``shift`` along ``axis`` (the flattened ``x`` when None)."""
    x = _t(x)
    if axis is None:
        return _a.reshape(_a.roll(_a.reshape(x, [-1]), shift, 0), x.shape.as_list())
    return _a.roll(x, shift, axis)


def fliplr(x: Any) -> Tensor:
    """``x`` reversed along axis 1."""
    return flip(x, 1)


def flipud(x: Any) -> Tensor:
    """``x`` reversed along axis 0."""
    return flip(x, 0)


def _band(x: Any, k: int, lower: bool) -> Tensor:
    x = _t(x)
    rows, cols = x.shape[-2], x.shape[-1]
    i, j = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    keep = (i >= j - k) if lower else (j >= i + k)
    return _m.where(_t(np.broadcast_to(keep, x.shape.as_list())), x, _m.zeros_like(x))


def tril(x: Any, k: int = 0) -> Tensor:
    """``x`` (the last two axes a matrix) with the entries above the ``k``-th diagonal zeroed."""
    return _band(x, k, True)


def triu(x: Any, k: int = 0) -> Tensor:
    """``x`` (the last two axes a matrix) with the entries below the ``k``-th diagonal zeroed."""
    return _band(x, k, False)


def diag(x: Any, k: int = 0) -> Tensor:
    """The ``k``-th diagonal of a matrix, or the matrix with vector ``x`` on it."""
    x = _t(x)
    if x.shape.rank == 1:
        n = x.shape[0] + builtins.abs(k)
        return _la.matrix_diag(x, k=k, num_rows=n, num_cols=n)
    if x.shape.rank == 2:
        return _la.diag_part(x, k=k)
    raise ValueError(f"`x` must be 1-D or 2-D; received x.shape={tuple(x.shape.as_list())}.")


def append(x1: Any, x2: Any, axis: Any = None) -> Tensor:
    """``x2`` appended to ``x1`` along ``axis`` (both flattened when None)."""
    a, b = _strong_pair(x1, x2)
    if axis is None:
        return _a.concat([_a.reshape(a, [-1]), _a.reshape(b, [-1])], axis=0)
    return _a.concat([a, b], axis=axis)


def hstack(xs: Sequence) -> Tensor:
    """The tensors joined along axis 1 (axis 0 for vectors)."""
    xs = _promote(*xs)
    return _a.concat(xs, axis=0 if xs[0].shape.rank == 1 else 1)


def vstack(xs: Sequence) -> Tensor:
    """The tensors joined along axis 0."""
    return _a.concat(_promote(*xs), axis=0)


def outer(x1: Any, x2: Any) -> Tensor:
    """The outer product of the flattened ``x1`` and ``x2``."""
    a, b = _strong_pair(x1, x2)
    a, b = _a.reshape(a, [-1, 1]), _a.reshape(b, [-1])
    return _m.logical_and(a, b) if a.dtype.name == "bool" else a * b  # (TF's `*` on bools: `and`)


def inner(x1: Any, x2: Any) -> Tensor:
    """The sum of products over the last axes (a product for a scalar)."""
    a, b, out = _in_float(x1, x2)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return _t(a * b, out)
    return _t(_la.tensordot(a, b, [[a.shape.rank - 1], [b.shape.rank - 1]]), out)


def vdot(x1: Any, x2: Any) -> Tensor:
    """The dot product of the flattened ``x1`` and ``x2``."""
    a, b, out = _in_float(x1, x2)
    return _t(_r.reduce_sum(_a.reshape(a, [-1]) * _a.reshape(b, [-1])), out)


def _binary_float(fn: Any, name: str, doc: str) -> Any:
    def op(x1: Any, x2: Any) -> Tensor:
        return fn(*_promote(x1, x2, extra=float, weak=False))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


arctan2 = _binary_float(_sp.atan2, "arctan2", "The angle of the point ``(x2, x1)``.")


def _logaddexp(a: Tensor, b: Tensor) -> Tensor:
    d = a - b
    return _m.where(_sp.is_nan(d), a + b, _m.maximum(a, b) + _m.log1p(_m.exp(-_m.abs(d))))


logaddexp = _binary_float(_logaddexp, "logaddexp", "``log(exp(x1) + exp(x2))``, without overflow.")


def hypot(x1: Any, x2: Any) -> Tensor:
    """``sqrt(x1**2 + x2**2)`` (small integers give floatx, int64 float64)."""
    a, b = _strong_pair(x1, x2)
    name = a.dtype.name
    want = _floatx() if name in ("int8", "int16", "int32", "uint8", "uint16", "uint32") else (
        "float64" if name == "int64" else name)
    a, b = _t(a, want), _t(b, want)
    return _m.sqrt(_m.square(a) + _m.square(b))


def divide_no_nan(x1: Any, x2: Any) -> Tensor:
    """``x1 / x2``, 0 where ``x2`` is 0."""
    return _sp.divide_no_nan(*_promote(x1, x2, extra=float))


def logical_xor(x1: Any, x2: Any) -> Tensor:
    """Elementwise ``xor`` of the truth values."""
    return _m.logical_xor(cast(x1, "bool"), cast(x2, "bool"))


def isclose(x1: Any, x2: Any, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False) -> Tensor:
    """Where ``|x1 - x2| <= atol + rtol * |x2|`` (integers: equal)."""
    a, b = _strong_pair(x1, x2)
    if not a.dtype.is_floating:
        return _m.equal(a, b)
    out = _m.less_equal(_m.abs(a - b), _t(atol, a.dtype) + _t(rtol, a.dtype) * _m.abs(b))
    return _m.logical_or(out, _m.logical_and(_sp.is_nan(a), _sp.is_nan(b))) if equal_nan else out


def allclose(x1: Any, x2: Any, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False) -> Tensor:
    """Whether :func:`isclose` holds everywhere."""
    return _r.reduce_all(isclose(x1, x2, rtol, atol, equal_nan))


def nonzero(x: Any) -> tuple:
    """The indices of the nonzero entries, one int32 tensor per axis."""
    return tuple(_t(i.astype(np.int32)) for i in np.nonzero(convert_to_numpy(x)))


def meshgrid(*x: Any, indexing: str = "xy") -> list:
    """Coordinate grids from 1-D ``x`` (``"xy"``: Cartesian, ``"ij"``: matrix indexing)."""
    return _a.meshgrid(*[_t(v) for v in x], indexing=indexing)


def identity(n: int, dtype: Any = None) -> Tensor:
    """The ``n`` x ``n`` identity matrix."""
    return eye(n, dtype=dtype)


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None) -> Tensor:  # noqa: N803
    """Ones at and below the ``k``-th diagonal."""
    return _t(np.tri(N, M, k, dtype=_dt.as_dtype(dtype or _FLOATX).as_numpy_dtype))


def empty(shape: Any, dtype: Any = None) -> Tensor:
    """A tensor of ``shape`` (zeros)."""
    return zeros(shape, dtype)


def empty_like(x: Any, dtype: Any = None) -> Tensor:
    """A tensor of ``x``'s shape (zeros)."""
    return zeros_like(x, dtype)


def is_tensor(x: Any) -> bool:
    """Whether ``x`` is a tensor."""
    return isinstance(x, (Tensor, VariableBase))


def dtype(x: Any) -> str:
    """``x``'s dtype as Keras names it (``"float32"``)."""
    return _t(x).dtype.name


def moments(x: Any, axes: Any, keepdims: bool = False, synchronized: bool = False) -> tuple:
    """The mean and variance over ``axes`` (float16 computed in float32)."""
    x = _t(x)
    name = x.dtype.name
    work = _m.cast(x, "float32") if name == "float16" else x
    mean_ = _r.reduce_mean(work, axis=_axis(axes), keepdims=True)
    var_ = _r.reduce_mean(_m.square(work - _a.stop_gradient(mean_)), axis=_axis(axes), keepdims=keepdims)
    mean_ = mean_ if keepdims else _a.squeeze(mean_, _axis(axes) if not isinstance(axes, int) else [axes])
    if name == "float16":
        mean_, var_ = _m.cast(mean_, name), _m.cast(var_, name)
    return mean_, var_


def searchsorted(sorted_sequence: Any, values: Any, side: str = "left") -> Tensor:
    """Where ``values`` would be inserted in the 1-D ``sorted_sequence`` to keep it sorted, int32."""
    seq = _t(sorted_sequence)
    if seq.shape.rank != 1:
        raise ValueError("`searchsorted` only supports 1-D sorted sequences; received "
                         f"sorted_sequence.shape={tuple(seq.shape.as_list())}.")
    return _s.searchsorted(seq, _t(values, seq.dtype), side=side, out_type="int32")


def multi_hot(inputs: Any, num_classes: int, axis: int = -1, dtype: Any = None, sparse: bool = False) -> Tensor:
    """Multi-hot vectors: ones at the labels of each row of ``inputs`` (a batch of label lists)."""
    x = _t(inputs)
    rank1 = x.shape.rank == 1
    if rank1:
        x = _a.expand_dims(x, 0)
    out = _r.reduce_max(one_hot(x, num_classes, axis=axis, dtype=dtype or _FLOATX), axis=-2)
    return _a.squeeze(out, [0]) if rank1 else out


# activations (keras.ops.nn), as Keras's TensorFlow backend computes them

def log_sigmoid(x: Any) -> Tensor:
    """``log(sigmoid(x))``."""
    return _sp.log_sigmoid(_t(x))


def softsign(x: Any) -> Tensor:
    """``x / (1 + |x|)``."""
    return _nn.softsign(_t(x))


def hard_sigmoid(x: Any) -> Tensor:
    """``relu6(x + 3) / 6``."""
    x = _t(x)
    return _nn.relu6(x + _t(3.0, x.dtype)) / _t(6.0, x.dtype)


def hard_silu(x: Any) -> Tensor:
    """``x * hard_sigmoid(x)``."""
    x = _t(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def celu(x: Any, alpha: float = 1.0) -> Tensor:
    """``max(x, 0) + alpha * expm1(min(x, 0) / alpha)``."""
    x = _t(x)
    a = _t(alpha, x.dtype)
    return _m.maximum(x, _t(0.0, x.dtype)) + a * _m.expm1(_m.minimum(x, _t(0.0, x.dtype)) / a)


def glu(x: Any, axis: int = -1) -> Tensor:
    """The gated linear unit: the first half of ``axis`` times the sigmoid of the second."""
    x = _t(x)
    if x.shape[axis] % 2:
        raise ValueError(f"axis size must be divisible by 2. Received: x.shape={tuple(x.shape.as_list())} "
                         f"with axis={axis}")
    a, b = _a.split(x, 2, axis=axis)
    return a * _m.sigmoid(b)


def hard_tanh(x: Any) -> Tensor:
    """``x`` clipped to ``[-1, 1]``."""
    x = _t(x)
    return _m.clip_by_value(x, _t(-1.0, x.dtype), _t(1.0, x.dtype))


def hard_shrink(x: Any, threshold: float = 0.5) -> Tensor:
    """``x`` where ``|x| > threshold``, else 0."""
    x = _t(x)
    return _m.where(_m.greater(_m.abs(x), _t(threshold, x.dtype)), x, _m.zeros_like(x))


def soft_shrink(x: Any, threshold: float = 0.5) -> Tensor:
    """``x`` moved ``threshold`` toward 0, and 0 within ``threshold`` of it."""
    x = _t(x)
    t = _t(threshold, x.dtype)
    return _m.where(_m.greater(x, t), x - t, _m.where(_m.less(x, -t), x + t, _m.zeros_like(x)))


def tanh_shrink(x: Any) -> Tensor:
    """``x - tanh(x)``."""
    x = _t(x)
    return x - _m.tanh(x)


def squareplus(x: Any, b: float = 4) -> Tensor:
    """``(x + sqrt(x**2 + b)) / 2``."""
    x = _t(x)
    return (x + _m.sqrt(_m.square(x) + _t(b, x.dtype))) / _t(2, x.dtype)


def sparse_plus(x: Any) -> Tensor:
    """0 below -1, ``(x + 1)**2 / 4`` up to 1, ``x`` above."""
    x = _t(x)
    one = _t(1.0, x.dtype)
    return _m.where(_m.less_equal(x, -one), _m.zeros_like(x),
                    _m.where(_m.less(x, one), _t(0.25, x.dtype) * _m.square(x + one), x))


def threshold(x: Any, threshold: float, default_value: float) -> Tensor:
    """``x`` where ``x > threshold``, else ``default_value``."""
    x = _t(x)
    return _m.where(_m.greater(x, _t(threshold, x.dtype)), x, _m.zeros_like(x) + _t(default_value, x.dtype))


# control flow, run as Python (tapegrad's tf.function traces Python control flow)

def cond(pred: Any, true_fn: Any, false_fn: Any) -> Any:
    """``true_fn()`` if ``pred`` holds, else ``false_fn()``."""
    return true_fn() if builtins.bool(pred) else false_fn()


def switch(index: Any, branches: Sequence, *operands: Any) -> Any:
    """``branches[index](*operands)`` (``index`` clipped to the branches)."""
    i = builtins.min(builtins.max(int(index), 0), len(branches) - 1)
    return branches[i](*operands)


def fori_loop(lower: Any, upper: Any, body_fun: Any, init_val: Any) -> Any:
    """``val = body_fun(i, val)`` for ``i`` from ``lower`` to ``upper - 1``."""
    val = init_val
    for i in builtins.range(int(lower), int(upper)):
        val = body_fun(i, val)
    return val


def while_loop(cond: Any, body: Any, loop_vars: Any, maximum_iterations: int | None = None) -> Any:
    """``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` (at most
    ``maximum_iterations`` times); a lone tensor or a dict is one value, a list or tuple gives a
    tuple."""
    single = not isinstance(loop_vars, (list, tuple))
    vals = (loop_vars,) if single else tuple(loop_vars)
    n = 0
    while (maximum_iterations is None or n < maximum_iterations) and builtins.bool(cond(*vals)):
        out = body(*vals)
        vals = (out,) if single else tuple(out)
        n += 1
    return vals[0] if single else vals


def scan(f: Any, init: Any, xs: Any = None, length: int | None = None, reverse: bool = False,
         unroll: int = 1) -> tuple:
    """``carry, y = f(carry, x)`` over the leading axis of ``xs`` (``length`` times with ``xs``
    None); the last carry and the stacked ``y``."""
    if xs is None and length is None:
        raise ValueError("Got no `xs` to scan over and `length` not provided.")
    items = [None] * length if xs is None else unstack(xs)
    if reverse:
        items = items[::-1]
    carry, ys = init, []
    for x in items:
        carry, y = f(carry, x)
        ys.append(y)
    if reverse:
        ys = ys[::-1]
    if not ys or ys[0] is None:
        return carry, None
    flat = [_nest.flatten(y) for y in ys]
    stacked = [_a.stack([_t(f[i]) for f in flat]) for i in builtins.range(len(flat[0]))]
    return carry, _nest.pack_sequence_as(ys[0], stacked)


def map(f: Any, xs: Any) -> Any:  # noqa: A001 (keras.ops's name)
    """``f`` applied to each slice of ``xs`` along its first axis, stacked."""
    return _a.stack([_t(f(x)) for x in unstack(xs)])


def slice(inputs: Any, start_indices: Any, shape: Any) -> Tensor:  # noqa: A001
    """The block of ``shape`` at ``start_indices``."""
    return _ix.slice(_t(inputs), [int(i) for i in convert_to_numpy(start_indices)],
                     [int(i) for i in convert_to_numpy(shape)])


def slice_update(inputs: Any, start_indices: Any, updates: Any) -> Tensor:
    """``inputs`` with the block at ``start_indices`` replaced by ``updates``."""
    x, u = _t(inputs), _t(updates)
    start = [int(i) for i in convert_to_numpy(start_indices)]
    grid = np.stack(np.meshgrid(*[np.arange(s_, s_ + n) for s_, n in zip(start, u.shape.as_list())],
                                indexing="ij"), -1)
    return _ix.tensor_scatter_nd_update(x, _t(grid.astype(np.int64)), _t(u, x.dtype))


def scatter(indices: Any, values: Any, shape: Any) -> Tensor:
    """A tensor of ``shape``: zeros, plus ``values`` added at ``indices`` (summed where repeated)."""
    return _ix.scatter_nd(_t(indices), _t(values), [int(d) for d in shape])


def scatter_update(inputs: Any, indices: Any, updates: Any) -> Tensor:
    """``inputs`` with ``updates`` written at ``indices``."""
    x = _t(inputs)
    return _ix.tensor_scatter_nd_update(x, _t(indices), _t(updates, x.dtype))


# convolution and pooling (channels_last unless data_format says otherwise)

def _channels_last(x: Tensor, data_format: Any) -> bool:
    if data_format not in (None, "channels_last", "channels_first"):
        raise ValueError("data_format must be 'channels_last' or 'channels_first'; received "
                         f"data_format={data_format!r}.")
    return data_format != "channels_first"


def _to_last(x: Tensor) -> Tensor:
    return _a.transpose(x, [0] + list(builtins.range(2, x.shape.rank)) + [1])


def _to_first(x: Tensor) -> Tensor:
    return _a.transpose(x, [0, x.shape.rank - 1] + list(builtins.range(1, x.shape.rank - 1)))


def _spatial(v: Any, n: int) -> list:
    return [int(v)] * n if isinstance(v, (int, np.integer)) else [int(u) for u in v]


def conv(inputs: Any, kernel: Any, strides: Any = 1, padding: str = "valid", data_format: Any = None,
         dilation_rate: Any = 1) -> Tensor:
    """The N-D convolution of ``inputs`` (batch, spatial..., channels) with ``kernel``
    (spatial..., in, out)."""
    x = _t(inputs)
    last = _channels_last(x, data_format)
    n = x.shape.rank - 2
    x = x if last else _to_last(x)
    out = _conv.convolution(x, _t(kernel, x.dtype), strides=_spatial(strides, n), padding=padding.upper(),
                            dilations=_spatial(dilation_rate, n))
    return out if last else _to_first(out)


def extract_patches(images: Any, size: Any, strides: Any = None, dilation_rate: Any = 1, padding: str = "valid",
                    data_format: Any = None) -> Tensor:
    """Patches of images (``size`` of 2 ints or one int) or volumes (``size`` of 3 ints), each
    flattened into the channel axis in row-major order of its positions, then channels (Keras's
    ``keras.ops.image.extract_patches``). ``strides`` default to ``size``; unbatched inputs
    (``(H, W, C)``, ``(D, H, W, C)``) give unbatched patches.

    >>> from tapegrad.keras import ops
    >>> ops.extract_patches(ops.ones((2, 20, 20, 3)), (5, 5)).shape
    TensorShape([2, 4, 4, 75])
    """
    if not isinstance(size, int):
        if not isinstance(size, (tuple, list)):
            raise TypeError(f"Invalid `size` argument. Expected an int or a tuple. Received: size={size} of type "
                            f"{type(size).__name__}")
        if len(size) not in (2, 3):
            raise ValueError(f"Invalid `size` argument. Expected a tuple of length 2 or 3. Received: size={size} "
                             f"with length {len(size)}")
    n = 2 if isinstance(size, int) else len(size)
    strides = strides or size
    if n == 3 and not isinstance(strides, int) and len(strides) != 3:
        raise ValueError(f"Invalid `strides` argument. Got: {strides}")
    x = _t(images)
    unbatched = x.shape.rank == n + 1
    x = _a.expand_dims(x, 0) if unbatched else x
    last = _channels_last(x, data_format or _image_data_format())
    x = x if last else _to_last(x)
    ones = [1]
    out = _conv._patches(x, ones + _spatial(size, n) + ones, ones + _spatial(strides, n) + ones,
                         ones + _spatial(dilation_rate, n) + ones, str(padding).upper(), n,
                         "ExtractImagePatches" if n == 2 else "ExtractVolumePatches")
    out = out if last else _to_first(out)
    return _a.squeeze(out, [0]) if unbatched else out


def depthwise_conv(inputs: Any, kernel: Any, strides: Any = 1, padding: str = "valid",
                   data_format: Any = None, dilation_rate: Any = 1) -> Tensor:
    """The depthwise 1-D or 2-D convolution: each input channel with its own ``kernel`` slice
    (spatial..., in, multiplier)."""
    x = _t(inputs)
    last = _channels_last(x, data_format)
    x = x if last else _to_last(x)
    k = _t(kernel, x.dtype)
    one_d = x.shape.rank == 3
    if one_d:
        x, k = _a.expand_dims(x, 1), _a.expand_dims(k, 0)
    s_, d_ = _spatial(strides, 1 if one_d else 2), _spatial(dilation_rate, 1 if one_d else 2)
    s_, d_ = ([1] + s_, [1] + d_) if one_d else (s_, d_)
    out = _conv.depthwise_conv2d(x, k, strides=[1, *s_, 1], padding=padding.upper(), dilations=d_)
    out = _a.squeeze(out, [1]) if one_d else out
    return out if last else _to_first(out)


def _pool(kind: str, inputs: Any, pool_size: Any, strides: Any, padding: str, data_format: Any) -> Tensor:
    x = _t(inputs)
    last = _channels_last(x, data_format)
    n = x.shape.rank - 2
    x = x if last else _to_last(x)
    window = _spatial(pool_size, n)
    out = _conv.pool(x, window, kind, strides=window if strides is None else _spatial(strides, n),
                     padding=padding.upper())
    return out if last else _to_first(out)


def max_pool(inputs: Any, pool_size: Any, strides: Any = None, padding: str = "valid",
             data_format: Any = None) -> Tensor:
    """The maximum over each ``pool_size`` window (``strides`` default to ``pool_size``)."""
    return _pool("MAX", inputs, pool_size, strides, padding, data_format)


def average_pool(inputs: Any, pool_size: Any, strides: Any = None, padding: str = "valid",
                 data_format: Any = None) -> Tensor:
    """The mean over each ``pool_size`` window (``strides`` default to ``pool_size``)."""
    return _pool("AVG", inputs, pool_size, strides, padding, data_format)


# segments, linear algebra and the rest

def segment_sum(data: Any, segment_ids: Any, num_segments: Any = None, sorted: bool = False) -> Tensor:  # noqa: A002
    """The sums of ``data``'s rows by ``segment_ids`` (``num_segments`` rows; by default one per
    distinct id)."""
    return _segment(_seg.segment_sum, _seg.unsorted_segment_sum, data, segment_ids, num_segments, sorted)


def segment_max(data: Any, segment_ids: Any, num_segments: Any = None, sorted: bool = False) -> Tensor:  # noqa: A002
    """The maxima of ``data``'s rows by ``segment_ids`` (as :func:`segment_sum`)."""
    return _segment(_seg.segment_max, _seg.unsorted_segment_max, data, segment_ids, num_segments, sorted, True)


def _segment(in_order: Any, any_order: Any, data: Any, ids: Any, num: Any, is_sorted: bool,
             by_max: bool = False) -> Tensor:
    if is_sorted:
        if num is not None:
            raise ValueError("Argument `num_segments` cannot be set when sorted is True (as Keras's "
                             f"TensorFlow backend). Received: num_segments={num}, sorted={is_sorted}.")
        return in_order(_t(data), _t(ids))
    ids = _t(ids)
    if num is None:  # (Keras: segment_sum counts the distinct ids, the others take the largest + 1)
        v = convert_to_numpy(ids)
        num = int(v.max()) + 1 if by_max else len(np.unique(v))
    return any_order(_t(data), ids, int(num))


def in_top_k(targets: Any, predictions: Any, k: int) -> Tensor:
    """Whether each target is among the ``k`` largest of its row of ``predictions``."""
    return _s.in_top_k(_t(targets), _t(predictions), k)


def erfinv(x: Any) -> Tensor:
    """The inverse error function (float16 computed in float32)."""
    x = _float(x)
    if x.dtype.name == "float16":
        return _m.cast(_sp.erfinv(_m.cast(x, "float32")), "float16")
    return _sp.erfinv(x)


def saturate_cast(x: Any, dtype: Any) -> Tensor:
    """``x`` cast to ``dtype``, clipped to its range first."""
    return _m.saturate_cast(_t(x), dtype)


def array(x: Any, dtype: Any = None) -> Tensor:
    """``x`` as a tensor (of ``dtype`` when given)."""
    return _t(x, dtype)


def custom_gradient(f: Any) -> Any:
    """``f`` (returning ``(y, grad_fn)``) as a function whose gradient is ``grad_fn``'s."""
    return _custom_gradient(f)


def vectorized_map(function: Any, elements: Any) -> Any:
    """``function`` over the slices of ``elements`` along the first axis, stacked."""
    return _vectorized_map(function, elements)


def inv(x: Any) -> Tensor:
    """The inverse of the square matrices ``x``."""
    return _dec.inv(_float(x))


def det(x: Any) -> Tensor:
    """The determinant of the square matrices ``x``."""
    return _dec.det(_float(x))


def solve(a: Any, b: Any) -> Tensor:
    """``x`` with ``a @ x = b`` (``b`` a vector or matrices)."""
    a, b = _promote(a, b, extra=float, weak=False)
    vector = b.shape.rank == a.shape.rank - 1
    out = _dec.solve(a, _a.expand_dims(b, -1) if vector else b)
    return _a.squeeze(out, [-1]) if vector else out


def cholesky(x: Any, upper: bool = False) -> Tensor:
    """The Cholesky factor of the positive definite matrices ``x`` (lower, or ``upper``)."""
    out = _dec.cholesky(_float(x))
    return _la.matrix_transpose(out) if upper else out


def svd(x: Any, full_matrices: bool = True, compute_uv: bool = True) -> Any:
    """``(u, s, vh)`` with ``x = u @ diag(s) @ vh`` (only ``s`` without ``compute_uv``)."""
    x = _float(x)
    if not compute_uv:
        return _dec.svd(x, full_matrices=full_matrices, compute_uv=False)
    s_, u, v = _dec.svd(x, full_matrices=full_matrices)
    return u, s_, _la.adjoint(v)


def qr(x: Any, mode: str = "reduced") -> tuple:
    """``(q, r)`` with ``x = q @ r`` (``mode`` ``"reduced"`` or ``"complete"``)."""
    if mode not in ("reduced", "complete"):
        raise ValueError(f"`mode` must be 'reduced' or 'complete'; received mode={mode!r}.")
    return tuple(_dec.qr(_float(x), full_matrices=mode == "complete"))


def eigh(x: Any) -> tuple:
    """The eigenvalues (ascending) and eigenvectors of the symmetric matrices ``x``."""
    return tuple(_dec.eigh(_float(x)))


def cdist(x: Any, y: Any) -> Tensor:
    """The Euclidean distance between each row of ``x`` and each row of ``y`` (over the last axis)."""
    x, y = _t(x), _t(y)
    if x.shape.rank < 2 or y.shape.rank < 2 or x.shape[-1] != y.shape[-1]:
        raise ValueError("`cdist` takes inputs of rank >= 2 whose last dimensions match; received "
                         f"shapes {tuple(x.shape.as_list())} and {tuple(y.shape.as_list())}.")
    d = _a.expand_dims(x, -2) - _a.expand_dims(y, -3)
    return _m.sqrt(_r.reduce_sum(_m.square(d), axis=-1))


# more NumPy-like ops

def _float_wide(x: Any) -> Tensor:
    """``x`` in the float type Keras's cbrt/deg2rad give it: int64 in float64, other integers and
    bools in floatx."""
    x = _t(x)
    if x.dtype.is_floating:
        return x
    return _m.cast(x, "float64" if x.dtype.name == "int64" else _floatx())


def cbrt(x: Any) -> Tensor:
    """The real cube root."""
    x = _float_wide(x)
    return _m.sign(x) * _m.pow(_m.abs(x), _t(1.0 / 3.0, x.dtype))


def deg2rad(x: Any) -> Tensor:
    """Degrees to radians."""
    x = _float_wide(x)
    return x * (_t(np.pi, x.dtype) / _t(180.0, x.dtype))


def rad2deg(x: Any) -> Tensor:
    """Radians to degrees."""
    x = _float_wide(x)
    return x * (_t(180.0, x.dtype) / _t(np.pi, x.dtype))


def signbit(x: Any) -> Tensor:
    """Where the sign bit is set (-0.0 included)."""
    x = _t(x)
    if x.dtype.name == "bool":
        return _t(np.zeros(x.shape.as_list(), bool))
    if not x.dtype.is_floating:
        return _m.less(x, _t(0, x.dtype))
    return _m.less(_a.bitcast(_m.cast(x, "float32"), "int32"), _t(0, "int32"))  # (the sign bit)


def sinc(x: Any) -> Tensor:
    """``sin(pi x) / (pi x)``, 1 at 0."""
    x = _float(x)
    px = x * _t(np.pi, x.dtype)
    zero = _m.equal(x, _t(0, x.dtype))
    return _m.where(zero, _m.ones_like(x), _m.sin(px) / _m.where(zero, _m.ones_like(x), px))


def diff(a: Any, n: int = 1, axis: int = -1) -> Tensor:
    """The ``n``-th discrete difference along ``axis`` (bools: where neighbours differ)."""
    a = _t(a)
    if n < 0:
        raise ValueError(f"Order `n` must be non-negative. Received n={n}")
    if n and a.shape.rank == 0:
        raise ValueError("`diff` requires input that is at least one dimensional.")
    ax = axis % builtins.max(a.shape.rank, 1)
    hi = tuple(builtins.slice(1, None) if i == ax else builtins.slice(None) for i in builtins.range(a.shape.rank))
    lo = tuple(builtins.slice(None, -1) if i == ax else builtins.slice(None) for i in builtins.range(a.shape.rank))
    for _ in builtins.range(n):
        a = _m.not_equal(a[hi], a[lo]) if a.dtype.name == "bool" else _m.subtract(a[hi], a[lo])
    return a


def fmod(x1: Any, x2: Any) -> Tensor:
    """The remainder of ``x1 / x2`` with the sign of ``x1`` (C's ``fmod``)."""
    a, b = _strong_pair(x1, x2)
    out = "int32" if a.dtype.name == "bool" else a.dtype.name
    work = "int32" if out in ("uint8", "uint16", "uint32") else out
    a, b = _t(a, work), _t(b, work)
    return _t(_m.sign(a) * _m.floormod(_m.abs(a), _m.abs(b)), out)


def logaddexp2(x1: Any, x2: Any) -> Tensor:
    """``log2(2**x1 + 2**x2)``, without overflow."""
    a, b = _promote(x1, x2, extra=float, weak=False)
    d = a - b
    ln2 = _m.cast(_m.log(_t(2.0)), a.dtype)  # (log(2) in float32, as Keras)
    return _m.where(_sp.is_nan(d), a + b, _m.maximum(a, b) + _m.log1p(_m.exp(-_m.abs(d) * ln2)) / ln2)


def isin(x1: Any, x2: Any, assume_unique: bool = False, invert: bool = False) -> Tensor:
    """Where the entries of ``x1`` are among those of ``x2`` (or not, with ``invert``)."""
    a, b = _strong_pair(x1, x2)
    hit = _r.reduce_any(_m.equal(_a.reshape(a, [-1, 1]), _a.reshape(b, [1, -1])), axis=1)
    hit = _m.logical_not(hit) if invert else hit
    return _a.reshape(hit, a.shape.as_list())


def _inf_test(sign: int) -> Any:
    def op(x: Any) -> Tensor:
        x = _t(x)
        if not x.dtype.is_floating:
            return _t(np.zeros(x.shape.as_list(), bool))
        return _m.equal(x, _t(sign * np.inf, x.dtype))
    return op


isposinf = _inf_test(1)
isposinf.__name__, isposinf.__doc__ = "isposinf", "Where ``x`` is +inf."
isneginf = _inf_test(-1)
isneginf.__name__, isneginf.__doc__ = "isneginf", "Where ``x`` is -inf."


def isreal(x: Any) -> Tensor:
    """Where the imaginary part is 0 (everywhere for real dtypes)."""
    x = _t(x)
    return _m.equal(_m.imag(x), _t(0, _m.imag(x).dtype)) if x.dtype.is_complex else \
        _t(np.ones(x.shape.as_list(), bool))


def real(x: Any) -> Tensor:
    """The real part."""
    return _m.real(_t(x))


def imag(x: Any) -> Tensor:
    """The imaginary part."""
    return _m.imag(_t(x))


def erfc(x: Any) -> Tensor:
    """``1 - erf(x)``, exact for large ``x``."""
    return _sp.erfc(_float(x))


def kron(x1: Any, x2: Any) -> Tensor:
    """The Kronecker product."""
    a, b = _strong_pair(x1, x2)
    while a.shape.rank < b.shape.rank:
        a = _a.expand_dims(a, 0)
    while b.shape.rank < a.shape.rank:
        b = _a.expand_dims(b, 0)
    r = a.shape.rank
    out = _a.reshape(a, [d for n in a.shape.as_list() for d in (n, 1)]) * \
        _a.reshape(b, [d for n in b.shape.as_list() for d in (1, n)])
    return _a.reshape(out, [m * n for m, n in zip(a.shape.as_list(), b.shape.as_list())]) if r else out


def diagflat(x: Any, k: int = 0) -> Tensor:
    """A matrix with the flattened ``x`` on its ``k``-th diagonal."""
    return diag(ravel(x), k)


def dstack(xs: Sequence) -> Tensor:
    """The tensors joined along axis 2 (vectors and matrices given axes first)."""
    xs = _promote(*xs, weak=False)
    shaped = []
    for x in xs:
        r = x.shape.rank
        shaped.append(_a.reshape(x, [1, -1, 1]) if r <= 1 else _a.expand_dims(x, -1) if r == 2 else x)
    return _a.concat(shaped, axis=2)


def array_split(x: Any, indices_or_sections: int, axis: int = 0) -> list:
    """``x`` split into ``indices_or_sections`` parts along ``axis``, the first ones a row longer
    when it does not divide."""
    x = _t(x)
    n, total = int(indices_or_sections), x.shape[axis]
    sizes = [total // n + 1] * (total % n) + [total // n] * (n - total % n)
    return _a.split(x, sizes, axis=axis)


def vsplit(x: Any, indices_or_sections: Any) -> list:
    """:func:`split` along axis 0."""
    return split(x, indices_or_sections, axis=0)


def hsplit(x: Any, indices_or_sections: Any) -> list:
    """:func:`split` along axis 1 (axis 0 for vectors)."""
    x = _t(x)
    return split(x, indices_or_sections, axis=0 if x.shape.rank == 1 else 1)


def _nan_reduce(fill: Any, reduce: Any, int_reduce: Any) -> Any:
    def op(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
        x = _t(x)
        if not x.dtype.is_floating:
            return int_reduce(x, axis=axis, keepdims=keepdims)
        clean = _m.where(_sp.is_nan(x), _m.zeros_like(x) + _t(fill, x.dtype), x)
        return reduce(clean, axis=_axis(axis), keepdims=keepdims)
    return op


nansum = _nan_reduce(0.0, _r.reduce_sum, sum)
nansum.__name__, nansum.__doc__ = "nansum", "The sum over ``axis``, NaNs counted as 0."
nanmax = _nan_reduce(-np.inf, _r.reduce_max, max)
nanmax.__name__, nanmax.__doc__ = "nanmax", "The maximum over ``axis``, NaNs left out."
nanmin = _nan_reduce(np.inf, _r.reduce_min, min)
nanmin.__name__, nanmin.__doc__ = "nanmin", "The minimum over ``axis``, NaNs left out."


def nanmean(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The mean over ``axis`` of the entries that are not NaN."""
    x = _t(x)
    if not x.dtype.is_floating:
        return _r.reduce_mean(_m.cast(x, "float32"), axis=_axis(axis), keepdims=keepdims)
    ok = _m.logical_not(_sp.is_nan(x))
    total = _r.reduce_sum(_m.where(ok, x, _m.zeros_like(x)), axis=_axis(axis), keepdims=keepdims)
    return total / _r.reduce_sum(_m.cast(ok, x.dtype.name), axis=_axis(axis), keepdims=keepdims)


def logdet(x: Any) -> Tensor:
    """``log(det(x))`` of positive definite matrices."""
    return _dec.logdet(_float(x))


def slogdet(x: Any) -> tuple:
    """The sign and the log of the absolute value of the determinant."""
    x = _float(x)
    d = _dec.det(x)
    return _m.sign(d), _m.log(_m.abs(d))


def pinv(x: Any, rcond: float = 1e-15) -> Tensor:
    """The Moore-Penrose pseudo-inverse (singular values below ``rcond`` times the largest cut)."""
    x = _float(x)
    s_, u, v = _dec.svd(x)
    cut = _t(rcond, x.dtype) * _r.reduce_max(s_, axis=-1, keepdims=True)
    s_inv = _m.where(_m.greater(s_, cut), _m.reciprocal(_m.where(_m.greater(s_, cut), s_, _m.ones_like(s_))),
                     _m.zeros_like(s_))
    return _la.matmul(v * _a.expand_dims(s_inv, -2), _la.adjoint(u))


def solve_triangular(a: Any, b: Any, lower: bool = False) -> Tensor:
    """``x`` with ``a @ x = b`` for triangular ``a`` (its ``lower`` or upper triangle)."""
    a, b = _promote(a, b, extra=float, weak=False)
    a = tril(a) if lower else triu(a)
    vector = b.shape.rank == a.shape.rank - 1
    out = _dec.solve(a, _a.expand_dims(b, -1) if vector else b)
    return _a.squeeze(out, [-1]) if vector else out


# quantiles

def quantile(x: Any, q: Any, axis: Any = None, method: str = "linear", keepdims: bool = False) -> Tensor:
    """The ``q``-th quantiles (``q`` in [0, 1], a scalar or an array: its axes come first) over
    ``axis`` (every axis when None), by ``method``: ``"linear"``, ``"lower"``, ``"higher"``,
    ``"midpoint"`` or ``"nearest"``; NaN where the data holds a NaN."""
    if method not in ("linear", "lower", "higher", "midpoint", "nearest"):
        raise ValueError(f"Invalid `method`: {method!r}; expected 'linear', 'lower', 'higher', "
                         "'midpoint' or 'nearest'.")
    x, = _promote(x, extra=float, weak=False)
    qs = np.asarray(convert_to_numpy(q), np.float64)
    rank = x.shape.rank
    axes = None if axis is None else sorted(a % rank for a in ([axis] if isinstance(axis, int) else axis))
    if axes is None:
        y = _a.reshape(x, [-1])
    else:
        others = [i for i in builtins.range(rank) if i not in axes]
        y = _a.reshape(_a.transpose(x, others + axes), [x.shape[i] for i in others] + [-1])
    ys = _s.sort(y, axis=-1)
    n = y.shape[-1]

    def at(idx: np.ndarray) -> Tensor:
        return _ix.gather(ys, _t(np.clip(idx, 0, n - 1).astype(np.int32)), axis=y.shape.rank - 1)

    exact = (n - 1) * qs
    if method == "lower":
        out = at(np.floor(exact))
    elif method == "higher":
        out = at(np.ceil(exact))
    elif method == "nearest":
        out = at(np.round(exact))
    elif method == "midpoint":
        out = _t(0.5, ys.dtype) * (at(np.floor(exact)) + at(np.ceil(exact)))
    else:
        larger = np.clip(np.ceil(exact), 0, n - 1)
        smaller = np.maximum(larger - 1, 0)
        larger = np.minimum(smaller + 1, n - 1)
        frac = _t((larger - exact).astype(ys.dtype.as_numpy_dtype))
        out = at(larger) * (_t(1, ys.dtype) - frac) + at(smaller) * frac
    has_nan = _r.reduce_any(_sp.is_nan(x), axis=axes)
    out = _m.where(_a.reshape(has_nan, has_nan.shape.as_list() + [1] * qs.ndim), _m.zeros_like(out) + _t(
        np.nan, out.dtype), out)
    if keepdims:
        if axes is None:
            out = _a.reshape(out, [1] * rank + list(qs.shape))
        else:
            for i in axes:
                out = _a.expand_dims(out, i)
    k = out.shape.rank
    if k >= 2 and qs.ndim % k:  # (the axes of q first)
        shift = qs.ndim % k
        out = _a.transpose(out, list(builtins.range(k - shift, k)) + list(builtins.range(k - shift)))
    return out


def median(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The median over ``axis`` (every axis when None)."""
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


def percentile(x: Any, q: Any, axis: Any = None, method: str = "linear", keepdims: bool = False) -> Tensor:
    """:func:`quantile` with ``q`` in percent."""
    return quantile(x, np.asarray(convert_to_numpy(q), np.float32) / np.float32(100.0), axis=axis,
                    method=method, keepdims=keepdims)


# normalization and attention (keras.ops.nn)

def batch_normalization(x: Any, mean: Any, variance: Any, axis: int, offset: Any = None, scale: Any = None,
                        epsilon: float = 1e-3) -> Tensor:
    """``(x - mean) / sqrt(variance + epsilon) * scale + offset`` with the statistics along ``axis``."""
    x = _t(x)
    shape = [1] * x.shape.rank
    shape[axis] = -1

    def along(v: Any) -> Any:
        return None if v is None else (_a.reshape(_t(v, x.dtype), shape) if axis not in (-1, x.shape.rank - 1)
                                        else _t(v, x.dtype))
    return _nn.batch_normalization(x, along(mean), along(variance), along(offset), along(scale), epsilon)


def rms_normalization(x: Any, scale: Any = None, axis: Any = -1, epsilon: float | None = None) -> Tensor:
    """``x * rsqrt(mean(x**2) + epsilon) * scale`` over ``axis`` (computed in at least float32)."""
    x = _t(x)
    out_dtype = x.dtype.name
    x = _t(x, _result_type(out_dtype, "float32"))
    eps = 1e-7 if epsilon is None else epsilon
    rrms = _m.rsqrt(_r.reduce_mean(_m.square(x), axis=_axis(axis), keepdims=True) + _t(eps, x.dtype))
    out = x * rrms
    if scale is not None:
        out = out * _t(scale, x.dtype)
    return _t(out, out_dtype)


def dot_product_attention(query: Any, key: Any, value: Any, bias: Any = None, mask: Any = None,
                          scale: Any = None, is_causal: bool = False, flash_attention: Any = None,
                          attn_logits_soft_cap: Any = None) -> Tensor:
    """Scaled dot-product attention of ``(batch, T, heads, dim)`` queries over ``(batch, S, heads,
    dim)`` keys and values: ``softmax(q k / sqrt(dim) + bias, masked) v`` (grouped keys repeated
    over the query heads; ``mask`` true where attention is allowed, ``is_causal`` for a causal
    mask)."""
    if flash_attention:
        raise ValueError("Flash attention is not supported in tapegrad (nor in Keras's TensorFlow backend).")
    q, k, v = _t(query), _t(key), _t(value)
    if q.shape.rank != 4:
        raise ValueError("`dot_product_attention` only supports 4D inputs. Received: "
                         f"query.shape={tuple(q.shape.as_list())}, key.shape={tuple(k.shape.as_list())}, "
                         f"value.shape={tuple(v.shape.as_list())}.")
    q, k, v = _promote(q, k, v, weak=False)
    if q.shape[2] > k.shape[2] > 1:
        groups = q.shape[2] // k.shape[2]
        k, v = _a.repeat(k, groups, axis=2), _a.repeat(v, groups, axis=2)
    if scale is None:
        scale = _m.cast(_m.reciprocal(_m.sqrt(_t(float(k.shape[-1])))), q.dtype)
    logits_dtype = _result_type(q.dtype.name, "float32")
    logits = _t(_la.einsum("BTNH,BSNH->BNTS", q, k), logits_dtype)
    logits = logits * _t(scale, logits_dtype)
    if bias is not None:
        logits = logits + _t(bias, logits_dtype)
    if mask is not None or is_causal:
        allowed = _t(np.ones(logits.shape.as_list(), bool))
        if mask is not None:
            allowed = _m.logical_and(allowed, cast(mask, "bool"))
        if is_causal:
            t_, s_ = logits.shape[2], logits.shape[3]
            allowed = _m.logical_and(allowed, _t(np.tril(np.ones((t_, s_), bool))[None, None]))
        big = (65500.0 if logits_dtype == "float16" else 3.38953e38) * -0.7
        logits = _m.where(allowed, logits, _m.zeros_like(logits) + _t(big, logits_dtype))
    probs = _t(_nn.softmax(_t(logits, _result_type(logits_dtype, "float32")), axis=-1), k.dtype)
    return _la.einsum("BNTS,BSNH->BTNH", probs, v)


def psnr(x1: Any, x2: Any, max_val: Any) -> Tensor:
    """The peak signal-to-noise ratio ``20 log10(max_val) - 10 log10(mse)``."""
    a, b = _t(x1), _t(x2)
    if a.shape.as_list() != b.shape.as_list():
        raise ValueError(f"Input shapes {tuple(a.shape.as_list())} and {tuple(b.shape.as_list())} must "
                         "match for PSNR calculation.")
    mse = _r.reduce_mean(_m.square(a - b))
    return _t(20.0, mse.dtype) * log10(_t(max_val, b.dtype)) - _t(10.0, mse.dtype) * log10(mse)


# ---- keras.ops's remaining names: NumPy-like (keras.ops.numpy) ----------------------------------

def _run(op: Any, *xs: Any, **p: Any) -> Tensor:
    """``op`` (an integer-valued primitive of tapegrad.ops, without gradient) on ``xs``."""
    return _apply(op, [_t(x) for x in xs], p)


def _int_pair(x: Any, y: Any, what: str, bools: bool = True) -> list:
    x, y = _strong_pair(x, y)
    if x.dtype.is_floating or x.dtype.is_complex or (not bools and x.dtype.name == "bool"):
        raise TypeError(f"Arguments to {what} must be integers{' (or bool)' if bools else ''}. Received: "
                        f"dtype={x.dtype.name}.")
    return [x, y]




def bitwise_and(x: Any, y: Any) -> Tensor:
    """The bitwise AND of integers.

    >>> from tapegrad.keras import ops
    >>> ops.bitwise_and([12, 10], [10, 6]).numpy()
    array([8, 2], dtype=int32)
    """
    return _run(_m.bitwise_and_op, *_int_pair(x, y, "bitwise_and"))


def bitwise_or(x: Any, y: Any) -> Tensor:
    """The bitwise OR of integers."""
    return _run(_m.bitwise_or_op, *_int_pair(x, y, "bitwise_or"))


def bitwise_xor(x: Any, y: Any) -> Tensor:
    """The bitwise XOR of integers."""
    return _run(_m.bitwise_xor_op, *_int_pair(x, y, "bitwise_xor"))


def bitwise_invert(x: Any) -> Tensor:
    """The bitwise NOT of integers (``~x``; logical NOT of bools)."""
    x = _t(x)
    if x.dtype.is_floating or x.dtype.is_complex:
        raise TypeError(f"Argument to bitwise_invert must be integer or bool. Received: dtype={x.dtype.name}.")
    return _run(_m.invert_op, x)


bitwise_not = bitwise_invert


def _shift(fn: Any, x: Any, y: Any, what: str) -> Tensor:
    x = _t(x)
    if type(y) is int and x.dtype.name != "bool":
        y = _t(np.asarray(y, x.dtype.as_numpy_dtype))
    x, y = _int_pair(x, y, what, bools=False)
    return _run(fn, x, y)


def bitwise_left_shift(x: Any, y: Any) -> Tensor:
    """``x << y`` for integers."""
    return _shift(_m.left_shift_op, x, y, "bitwise_left_shift")


def bitwise_right_shift(x: Any, y: Any) -> Tensor:
    """``x >> y`` for integers (arithmetic for signed types)."""
    return _shift(_m.right_shift_op, x, y, "bitwise_right_shift")


left_shift = bitwise_left_shift
right_shift = bitwise_right_shift


def angle(x: Any) -> Tensor:
    """The argument of complex ``x`` (0 or pi for reals), in floats.

    >>> import numpy as np
    >>> from tapegrad.keras import ops
    >>> ops.angle(np.array([1.0 + 1.0j, -2.0])).numpy().round(4)  # (Keras: complex128 with float is complex64)
    array([0.7854, 3.1416], dtype=float32)
    """
    x = _t(x)
    want = _floatx() if x.dtype.name == "int64" else _result_type(x.dtype.name, float)
    return _sp.angle(_t(x, want))


def fabs(x: Any) -> Tensor:
    """``|x|``, integers and bools as floats."""
    return _m.abs(_float(x))


def _fminmax(pick: Any, x1: Any, x2: Any) -> Tensor:
    a, b = _pair(x1, x2)
    if not a.dtype.is_floating:
        return pick(a, b)
    na, nb = _sp.is_nan(a), _sp.is_nan(b)
    out = pick(a, b)
    out = _m.where(_m.logical_and(na, _m.logical_not(nb)), b, out)
    return _m.where(_m.logical_and(nb, _m.logical_not(na)), a, out)


def fmax(x1: Any, x2: Any) -> Tensor:
    """The elementwise maximum, ignoring a NaN where the other operand is a number."""
    return _fminmax(_m.maximum, x1, x2)


def fmin(x1: Any, x2: Any) -> Tensor:
    """The elementwise minimum, ignoring a NaN where the other operand is a number."""
    return _fminmax(_m.minimum, x1, x2)




def gcd(x1: Any, x2: Any) -> Tensor:
    """The greatest common divisor of integers (of their absolute values)."""
    return _run(_m.gcd_op, *_int_pair(x1, x2, "gcd", bools=False))


def lcm(x1: Any, x2: Any) -> Tensor:
    """The least common multiple of integers (0 where either is 0)."""
    for v in (x1, x2):  # (each operand an integer, as Keras checks before promoting)
        if type(v) is not int and not _t(v).dtype.is_integer:
            raise TypeError(f"Arguments to lcm must be integers. Received: dtype={_t(v).dtype.name}.")
    return _run(_m.lcm_op, *_int_pair(x1, x2, "lcm", bools=False))


def heaviside(x1: Any, x2: Any) -> Tensor:
    """The Heaviside step: 0 where ``x1 < 0``, 1 where ``x1 > 0``, ``x2`` where ``x1 == 0``."""
    a, b = _strong_pair(x1, x2)
    name = a.dtype.name
    if name == "bool":
        raise TypeError("heaviside needs numbers: both arguments are bool; cast one to a numeric dtype.")
    if name in ("int8", "int16", "int32", "uint8", "uint16", "uint32"):
        a, b = _t(a, _floatx()), _t(b, _floatx())
    elif name in ("int64", "uint64"):
        a, b = _t(a, "float64"), _t(b, "float64")
    b = _a.broadcast_to(b, np.broadcast_shapes(tuple(a.shape.as_list()), tuple(b.shape.as_list())))
    zero, one = _m.zeros_like(b), _m.ones_like(b)
    return _m.where(_m.less(a, _m.zeros_like(a)), zero, _m.where(_m.greater(a, _m.zeros_like(a)), one, b))


def i0(x: Any) -> Tensor:
    """The modified Bessel function of the first kind, order 0."""
    x = _t(x)
    name = x.dtype.name
    want = "float64" if name in ("int64", "float64") else name if name in ("bfloat16", "float16") else _floatx()
    return _sp.bessel_i0(_t(x, want))


def ldexp(x1: Any, x2: Any) -> Tensor:
    """``x1 * 2**x2`` for integer exponents ``x2``."""
    x2 = _t(x2)
    if not x2.dtype.is_integer:
        raise TypeError(f"ldexp exponent must be an integer type. Received: x2 dtype={x2.dtype.name}.")
    a = _t(x1)
    want = _result_type(a.dtype.name, x2.dtype.name, float)
    a = _t(a, want)
    out = a * _m.pow(_m.ones_like(a) * _t(2.0, want), _t(x2, want))
    return _m.where(_m.logical_or(_sp.is_inf(a), _m.equal(a, _m.zeros_like(a))), a + _m.zeros_like(out), out)


def nextafter(x1: Any, x2: Any) -> Tensor:
    """The next float after ``x1`` towards ``x2`` (taken in float64, then cast to the result type)."""
    a, b = _t(x1), _t(x2)
    want = _result_type(a.dtype.name, b.dtype.name, float)
    return _m.cast(_sp.nextafter(_t(a, "float64"), _t(b, "float64")), want)


def _window(fn: Any) -> Any:
    def op(x: Any) -> Tensor:
        n = int(convert_to_numpy(x))
        return _t(np.asarray(fn(n), np.float64), _floatx())
    return op


def bartlett(x: Any) -> Tensor:
    """The Bartlett (triangular) window of ``x`` points, in floatx.

    >>> from tapegrad.keras import ops
    >>> ops.bartlett(5).numpy()
    array([0. , 0.5, 1. , 0.5, 0. ], dtype=float32)
    """
    return _window(np.bartlett)(x)


def blackman(x: Any) -> Tensor:
    """The Blackman window of ``x`` points, in floatx."""
    return _window(np.blackman)(x)


def hamming(x: Any) -> Tensor:
    """The (symmetric) Hamming window of ``x`` points, in float32."""
    return _sig.hamming_window(_t(x, "int32"), periodic=False)


def hanning(x: Any) -> Tensor:
    """The (symmetric) Hann window of ``x`` points, in float32."""
    return _sig.hann_window(_t(x, "int32"), periodic=False)


def kaiser(x: Any, beta: Any) -> Tensor:
    """The Kaiser window of ``x`` points with shape parameter ``beta``, in float32."""
    return _sig.kaiser_window(_t(x, "int32"), beta=beta)


def bincount(x: Any, weights: Any = None, minlength: int = 0, sparse: bool = False) -> Any:
    """The count of each value of the non-negative integers ``x`` (summed ``weights`` instead when
    given), at least ``minlength`` long; a 2-D ``x`` counts each row. ``sparse``: a SparseTensor
    holding the values that occur.

    >>> from tapegrad.keras import ops
    >>> ops.bincount([1, 1, 3]).numpy()
    array([0, 2, 0, 1], dtype=int32)
    """
    x = _t(x)
    want = "int32" if weights is None else _result_type(x.dtype.name, _t(weights).dtype.name)
    if x.dtype.name not in ("int32", "int64"):
        x = _t(x, "int32")
    if weights is not None:
        weights = _t(weights)
        if weights.dtype.name not in ("int32", "int64", "float32", "float64"):
            weights = _t(weights, "int32" if weights.dtype.is_integer or weights.dtype.name == "bool" else "float32")
    axis = -1 if x.shape.rank == 2 else None
    out = _m.cast(_seg.bincount(x, weights=weights, minlength=minlength, axis=axis,
                                dtype=weights.dtype if weights is not None else "int32"), want)
    if not sparse:
        return out
    present = convert_to_numpy(_seg.bincount(x, minlength=minlength, axis=axis)) > 0
    where_ = np.argwhere(present).astype(np.int64)
    return _SparseTensor(where_, _ix.gather_nd(out, _t(where_)), list(out.shape.as_list()))


def column_stack(xs: Sequence) -> Tensor:
    """1-D tensors as columns, 2-D ones as they are, joined along axis 1."""
    xs = _promote(*xs, weak=False)
    return _a.concat([_a.reshape(x, [-1, 1]) if x.shape.rank == 1 else x for x in xs], axis=1)


def dsplit(x: Any, indices_or_sections: Any) -> list:
    """:func:`split` along axis 2 (depth)."""
    return split(x, indices_or_sections, axis=2)


def corrcoef(x: Any) -> Tensor:
    """Pearson correlation coefficients of the rows of ``x`` (clipped to [-1, 1])."""
    x = _t(x)
    if x.dtype.name in ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32"):
        x = _t(x, _floatx())
    if x.shape.rank == 0:
        return _t(np.nan, _floatx())
    centered = x - _r.reduce_mean(x, axis=-1, keepdims=True)
    cov = _la.matmul(centered, _la.adjoint(centered) if centered.shape.rank == 2 else centered) / _t(
        float(x.shape[-1] - 1), x.dtype)
    std_ = _m.sqrt(_m.real(_la.diag_part(cov)) if cov.shape.rank == 2 else _m.real(cov))
    corr = cov / _m.cast(_la.tensordot(std_, std_, axes=0), cov.dtype)
    if corr.dtype.is_complex:
        return _m.complex_(_m.clip_by_value(_m.real(corr), -1.0, 1.0), _m.clip_by_value(_m.imag(corr), -1.0, 1.0))
    return _m.clip_by_value(corr, _t(-1.0, corr.dtype), _t(1.0, corr.dtype))


def correlate(x1: Any, x2: Any, mode: str = "valid") -> Tensor:
    """The cross-correlation ``sum_j x1[k + j] * x2[j]`` of two 1-D tensors (``mode``: ``"valid"``,
    ``"same"`` or ``"full"``)."""
    if mode not in ("valid", "same", "full"):
        raise ValueError(f"Invalid mode: '{mode}'. Mode must be one of: 'full', 'same', 'valid'.")
    a, b = _strong_pair(x1, x2)
    name = a.dtype.name
    want = "float64" if name in ("int64", "float64") else name if name in ("bfloat16", "float16") else "float32"
    a, b = _t(a, want), _t(b, want)
    n, m = a.shape[0], b.shape[0]
    if mode != "valid":
        a = _a.pad(a, [[m - 1, m - 1]])
    length = a.shape[0] - m + 1
    windows = _ix.gather(a, _t((np.arange(max(length, 0))[:, None] + np.arange(m)[None, :]).astype(np.int32)))
    out = _la.matmul(windows, _a.reshape(b, [m, 1]))[:, 0] if length > 0 else _a.reshape(a[:0], [0])
    if mode == "same":
        keep = builtins.max(n, m)
        start = (n + m - 1 - keep) // 2
        out = out[start:start + keep]
    return out


def cross(x1: Any, x2: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: Any = None) -> Tensor:
    """The cross product of vectors of 2 or 3 components along ``axisa``/``axisb`` (``axis`` sets
    all three); 2-component vectors give the z component only when both are 2-D.

    >>> from tapegrad.keras import ops
    >>> ops.cross([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]).numpy()
    array([0., 0., 1.], dtype=float32)
    """
    a, b = _strong_pair(x1, x2)
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    da, db = a.shape[-1], b.shape[-1]
    for d in (da, db):
        if d not in (2, 3):
            raise ValueError(f"Incompatible dimensions for cross product (dimension must be 2 or 3); got {d}.")

    def three(v: Tensor) -> Tensor:
        return _a.pad(v, [[0, 0]] * (v.shape.rank - 1) + [[0, 1]]) if v.shape[-1] == 2 else v
    a, b = three(a), three(b)
    shape_ = np.broadcast_shapes(tuple(a.shape.as_list()), tuple(b.shape.as_list()))
    c = _la.cross(_a.broadcast_to(a, shape_), _a.broadcast_to(b, shape_))
    if da == 2 and db == 2:
        return c[..., 2]
    return moveaxis(c, -1, axisc)


def digitize(x: Any, bins: Any) -> Tensor:
    """The index of the bin of each entry of ``x``: ``i`` with ``bins[i-1] <= x < bins[i]`` (int32)."""
    x = _t(x)
    name = x.dtype.name
    if name in ("bool", "int8", "int16", "uint8", "uint16"):
        x = _t(x, "int32")
    elif name == "uint32":
        x = _t(x, "int64")
    elif name in ("bfloat16", "float16"):
        x = _t(x, "float32")
    edges = np.asarray([float(b) for b in convert_to_numpy(bins)], np.float64)
    return _run(_m.bucketize_op, x, edges=edges)




def _spaced(start: Any, stop: Any, num: int, endpoint: bool, dtype: Any, axis: int) -> Tensor:
    """``start + (stop - start) * t`` for ``num`` steps ``t`` in [0, 1] on a new ``axis``
    (differentiable in ``start`` and ``stop``)."""
    lo, hi = _t(start, dtype), _t(stop, dtype)
    shape_ = np.broadcast_shapes(tuple(lo.shape.as_list()), tuple(hi.shape.as_list()))
    lo, hi = _a.broadcast_to(lo, shape_), _a.broadcast_to(hi, shape_)
    ax = axis % (len(shape_) + 1)
    steps = np.linspace(0.0, 1.0, num, endpoint=endpoint)
    t_ = _t(steps.reshape([num if i == ax else 1 for i in builtins.range(len(shape_) + 1)]), dtype)
    lo, hi = _a.expand_dims(lo, ax), _a.expand_dims(hi, ax)
    return lo + (hi - lo) * t_


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None,
              axis: int = 0) -> Tensor:
    """``num`` numbers evenly spaced on a log scale from ``start`` to ``stop`` (sign of ``start``)."""
    want = dtype or _floatx()
    s0 = _t(start)
    out = _m.exp(_spaced(_m.log(_t(_m.abs(s0), want)), _m.log(_t(_m.abs(_t(stop)), want)), num, endpoint, want,
                         axis))
    return out * _m.sign(_t(s0, want))


def histogram(x: Any, bins: int = 10, range: Any = None) -> tuple:  # noqa: A002 (keras.ops's name)
    """The counts of the 1-D ``x`` in ``bins`` equal bins over ``range`` (default: x's min to max),
    and the ``bins + 1`` edges, both in ``x``'s dtype."""
    x = _t(x)
    if x.shape.rank != 1:
        raise ValueError(f"Input tensor must be 1-dimensional. Received: input.shape={tuple(x.shape.as_list())}")
    if not isinstance(bins, int) or bins <= 0:
        raise ValueError(f"Argument `bins` should be a positive integer. Received: bins={bins}")
    v = convert_to_numpy(x)
    lo, hi = (v.min(), v.max()) if range is None else range
    edges = np.linspace(np.float64(lo), np.float64(hi), bins + 1).astype(v.dtype)
    kept = v[(v >= lo) & (v <= hi)]
    idx = np.searchsorted(edges[1:-1], kept, side="right")
    return _t(np.bincount(idx, minlength=bins).astype(v.dtype)), _t(edges)


def rot90(array: Any, k: int = 1, axes: tuple = (0, 1)) -> Tensor:
    """``array`` rotated by ``k`` quarter turns in the plane of ``axes`` (from the first axis
    towards the second).

    >>> from tapegrad.keras import ops
    >>> ops.rot90([[1, 2], [3, 4]]).numpy()
    array([[2, 4],
           [1, 3]], dtype=int32)
    """
    x = _t(array)
    if x.shape.rank < 2:
        raise ValueError(f"Input array must have at least 2 dimensions. Received: array.ndim={x.shape.rank}")
    if len(axes) != 2 or axes[0] == axes[1]:
        raise ValueError(f"Invalid axes: {axes}. Axes must be a tuple of two different dimensions.")
    a0, a1 = (int(a) % x.shape.rank for a in axes)
    k = k % 4
    if k == 0:
        return x
    if k == 2:
        return _a.reverse(x, [a0, a1])
    perm = list(builtins.range(x.shape.rank))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    return _a.transpose(_a.reverse(x, [a1]), perm) if k == 1 else _a.reverse(_a.transpose(x, perm), [a1])


def select(condlist: Sequence, choicelist: Sequence, default: Any = 0) -> Tensor:
    """From the first ``condlist[i]`` true at each place, ``choicelist[i]``; ``default`` where none is."""
    if len(condlist) != len(choicelist):
        raise ValueError(f"condlist and choicelist must have the same length; got {len(condlist)} and "
                         f"{len(choicelist)}.")
    if not condlist:
        raise ValueError("select needs at least one condition and choice.")
    conds = [_t(c, "bool") for c in condlist]
    choices = _promote(*choicelist, weak=False)
    out = _t(default, choices[0].dtype)
    shape_ = np.broadcast_shapes(*[tuple(v.shape.as_list()) for v in conds + choices + [out]])
    out = _a.broadcast_to(out, shape_)
    for c, v in zip(reversed(conds), reversed(choices)):
        out = _m.where(_a.broadcast_to(c, shape_), _a.broadcast_to(v, shape_), out)
    return out


def trapezoid(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1) -> Tensor:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule (at points ``x``, or ``dx`` apart)."""
    y = _t(y)
    want = _result_type(y.dtype.name, float)
    y = moveaxis(_t(y, want), axis, -1)
    if x is None:
        step = _t(dx, want)
    else:
        step = moveaxis(diff(_t(x, want), axis=axis), axis, -1)
    return _r.reduce_sum(_t(0.5, want) * (y[..., 1:] + y[..., :-1]) * step, axis=-1)


def vander(x: Any, N: int | None = None, increasing: bool = False) -> Tensor:  # noqa: N803
    """The Vandermonde matrix of the 1-D ``x``: its columns the powers ``N-1, ..., 0`` of ``x``
    (``0, ..., N-1`` with ``increasing``)."""
    x = _t(x)
    if x.shape.rank != 1:
        raise ValueError(f"Input tensor must be 1-dimensional. Received: input.shape={tuple(x.shape.as_list())}")
    n = x.shape[0] if N is None else int(N)
    if n < 0:
        raise ValueError(f"Argument 'N' must be nonnegative. Received: N={N}")
    powers = np.arange(n) if increasing else np.arange(n - 1, -1, -1)
    work = _result_type(x.dtype.name, "float32")
    return _m.cast(_m.pow(_t(_a.expand_dims(x, -1), work), _t(powers.astype(np.float64), work)), x.dtype.name)


def unravel_index(indices: Any, shape: Any) -> tuple:
    """The coordinates in an array of ``shape`` of the flat ``indices`` (one tensor per axis)."""
    if builtins.any(d is None for d in shape):
        raise ValueError(f"`shape` argument cannot contain `None`. Received: shape={shape}")
    idx = _t(indices)
    coords = []
    for d in reversed(list(shape)):
        dim = _t(np.asarray(d, idx.dtype.as_numpy_dtype))
        coords.append(_m.floormod(idx, dim))
        idx = _m.floordiv(idx, dim)
    return tuple(reversed(coords))


def _unique_arrays(v: np.ndarray, axis: Any, is_sorted: bool) -> tuple:
    vals, index, inverse, counts = np.unique(v, return_index=True, return_inverse=True, return_counts=True,
                                             axis=axis)
    if not is_sorted:  # (order of first occurrence)
        order = np.argsort(index, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        vals, index, counts, inverse = np.take(vals, order, axis=0 if axis is None else axis), index[order], \
            counts[order], rank[inverse.reshape(-1)]
    return vals, index.astype(np.int32), inverse.reshape(-1).astype(np.int32), counts.astype(np.int32)


def unique(x: Any, sorted: bool = True, return_index: bool = False, return_inverse: bool = False,  # noqa: A002
           return_counts: bool = False, axis: Any = None, size: Any = None, fill_value: Any = None) -> Any:
    """The distinct values of ``x`` (flattened, or the distinct slices along ``axis``), sorted (or
    in order of first occurrence), with where each first occurs, the inverse mapping and the
    counts when asked; ``size`` pads (with ``fill_value``, default 0) or truncates to that many.

    >>> from tapegrad.keras import ops
    >>> values, counts = ops.unique([3, 1, 3, 2], return_counts=True)
    >>> values.numpy(), counts.numpy()
    (array([1, 2, 3], dtype=int32), array([1, 1, 2], dtype=int32))
    """
    t_ = _t(x)
    v = convert_to_numpy(t_)
    ax = None if axis is None else int(axis) % v.ndim
    vals, index, inverse, counts = _unique_arrays(v, ax, sorted)
    if axis is None:
        inverse = inverse.reshape(v.shape)
    if size is not None:
        have = vals.shape[0 if ax is None else ax]
        keep = builtins.min(have, size)
        vals = np.take(vals, np.arange(keep), axis=0 if ax is None else ax)
        index, counts = index[:keep], counts[:keep]
        extra = size - keep
        if extra:
            widths = [(0, 0)] * vals.ndim
            widths[0 if ax is None else ax] = (0, extra)
            vals = np.pad(vals, widths, constant_values=0 if fill_value is None else fill_value)
            index = np.pad(index, (0, extra), constant_values=1)
            counts = np.pad(counts, (0, extra))
    out = [_t(vals)]
    if return_index:
        out.append(_t(index))
    if return_inverse:
        out.append(_t(inverse))
    if return_counts:
        out.append(_t(counts))
    return tuple(out) if len(out) > 1 else out[0]


def view(x: Any, dtype: Any = None) -> Tensor:
    """``x``'s bytes read as ``dtype`` (the last axis grows or shrinks by the ratio of item sizes)."""
    x = _t(x)
    new = _dt.as_dtype(dtype or x.dtype)
    old_size, new_size = x.dtype.size, new.size
    shape_ = x.shape.as_list()
    last = shape_[-1] if shape_ else -1
    if (last == -1 and old_size != new_size) or (last * old_size) % new_size:
        raise ValueError(f"Cannot view array of shape {tuple(shape_)} and dtype {x.dtype.name} as dtype "
                         f"{new.name} because the total number of bytes is not divisible by the new itemsize.")
    if old_size == new_size:
        return _a.bitcast(x, new)
    if old_size > new_size:
        return _a.reshape(_a.bitcast(x, new), shape_[:-1] + [last * (old_size // new_size)])
    ratio = new_size // old_size
    return _a.bitcast(_a.reshape(x, shape_[:-1] + [last // ratio, ratio]), new)




def argpartition(x: Any, kth: int, axis: int = -1) -> Tensor:
    """Indices that partition ``x`` along ``axis``: the ``kth`` entry in its sorted place, the
    smaller ones before it and the larger after it, each side in no particular order (int32)."""
    x = _t(x)
    if axis is None:
        x, axis = _a.reshape(x, [-1]), 0
    return _apply(_s.argpartition_op, [x], {"kth": int(kth), "axis": int(axis)})


def vectorize(pyfunc: Any, *, excluded: Any = None, signature: str | None = None) -> Any:
    """``pyfunc`` made to map over its arguments' leading (broadcast) axes, as ``numpy.vectorize``:
    with no ``signature`` it takes scalars; with one such as ``"(m,n),(n)->(m)"`` arrays with those
    core axes. Arguments at the positions in ``excluded`` pass through unmapped."""
    if not callable(pyfunc):
        raise ValueError(f"Expected argument `pyfunc` to be a callable. Received: pyfunc={pyfunc}")
    excluded = set(excluded or ())
    core_in: list = []
    if signature is not None:
        m_ = _re.fullmatch(r"\s*((?:\([\w,\s]*\),?\s*)*)->\s*((?:\([\w,\s]*\),?\s*)*)", signature)
        if m_ is None:
            raise ValueError(f"Invalid signature: {signature!r}; expected one like '(m,n),(n)->(m)'.")
        parse = (lambda part: [[d.strip() for d in g.split(",") if d.strip()]
                               for g in _re.findall(r"\(([^)]*)\)", part)])
        core_in = parse(m_.group(1))  # (the outputs' core axes follow from pyfunc's results)

    def mapped(*args: Any) -> Any:
        moving = [i for i in builtins.range(len(args)) if i not in excluded]
        if core_in and len(core_in) != len(moving):
            raise TypeError(f"wrong number of positional arguments: expected {len(core_in)} (signature "
                            f"{signature!r}), got {len(moving)}.")
        ts = {i: _t(args[i]) for i in moving}
        cores = {i: (len(core_in[k]) if core_in else 0) for k, i in enumerate(moving)}
        loop = np.broadcast_shapes(*[tuple(ts[i].shape.as_list()[:ts[i].shape.rank - cores[i]]) for i in moving])
        flat = {i: _a.reshape(_a.broadcast_to(ts[i], list(loop) + ts[i].shape.as_list()[ts[i].shape.rank - cores[i]:]),
                              [-1] + ts[i].shape.as_list()[ts[i].shape.rank - cores[i]:]) for i in moving}

        def one(elems: Any) -> Any:
            call = list(args)
            for i, e in zip(moving, elems):
                call[i] = e
            return pyfunc(*call)
        out = _vectorized_map(one, tuple(flat[i] for i in moving))
        return _nest.map_structure(lambda o: _a.reshape(o, list(loop) + o.shape.as_list()[1:]), out)
    mapped.__name__ = getattr(pyfunc, "__name__", "vectorized")
    mapped.__doc__ = getattr(pyfunc, "__doc__", None)
    return mapped


def _nan_arg(fn: Any, fill: float) -> Any:
    def op(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
        x = _t(x)
        if not x.dtype.is_floating:
            return fn(x, axis=axis, keepdims=keepdims)
        nan = _sp.is_nan(x)
        found = fn(_m.where(nan, _m.zeros_like(x) + _t(fill, x.dtype), x), axis=axis, keepdims=keepdims)
        none = _r.reduce_all(nan, axis=_axis(axis), keepdims=keepdims)
        return _m.where(none, _m.zeros_like(found) - _t(1, found.dtype), found)
    return op


nanargmax = _nan_arg(argmax, -np.inf)
nanargmax.__name__ = "nanargmax"
nanargmax.__doc__ = "The index of the maximum over ``axis``, NaNs left out (-1 where all are NaN)."
nanargmin = _nan_arg(argmin, np.inf)
nanargmin.__name__ = "nanargmin"
nanargmin.__doc__ = "The index of the minimum over ``axis``, NaNs left out (-1 where all are NaN)."


def nancumsum(x: Any, axis: Any = None, dtype: Any = None) -> Tensor:
    """The cumulative sum along ``axis`` (flattened when None), NaNs counted as 0."""
    return cumsum(nan_to_num(x, posinf=np.inf, neginf=-np.inf), axis=axis, dtype=dtype)


def nancumprod(x: Any, axis: Any = None, dtype: Any = None) -> Tensor:
    """The cumulative product along ``axis`` (flattened when None), NaNs counted as 1."""
    return cumprod(nan_to_num(x, nan=1.0, posinf=np.inf, neginf=-np.inf), axis=axis, dtype=dtype)


def nanprod(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The product over ``axis``, NaNs counted as 1."""
    x = _t(x)
    if x.dtype.is_floating:
        x = _m.where(_sp.is_nan(x), _m.ones_like(x), x)
    return prod(x, axis=axis, keepdims=keepdims)


def nanvar(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The variance over ``axis`` of the entries that are not NaN."""
    x = _t(x)
    x = _t(x, _result_type(x.dtype.name, float))
    ok = _m.logical_not(_sp.is_nan(x))
    zeros_ = _m.zeros_like(x)
    count_all = _r.reduce_sum(_m.cast(ok, x.dtype.name), axis=_axis(axis), keepdims=True)
    mean_ = _r.reduce_sum(_m.where(ok, x, zeros_), axis=_axis(axis), keepdims=True) / count_all
    centered = _m.where(ok, x - mean_, zeros_)
    sq = _m.real(centered * _m.conj(centered)) if x.dtype.is_complex else _m.square(centered)
    count = _r.reduce_sum(_m.cast(ok, sq.dtype.name), axis=_axis(axis), keepdims=keepdims)
    return _r.reduce_sum(sq, axis=_axis(axis), keepdims=keepdims) / count


def nanstd(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The standard deviation over ``axis`` of the entries that are not NaN."""
    return _m.sqrt(nanvar(x, axis=axis, keepdims=keepdims))


_QUANTILE_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def nanquantile(x: Any, q: Any, axis: Any = None, method: str = "linear", keepdims: bool = False) -> Tensor:
    """The ``q``-th quantiles over ``axis`` of the entries that are not NaN (NaN where all are):
    the axes of ``q`` come first, as in :func:`quantile`.

    >>> import numpy as np
    >>> from tapegrad.keras import ops
    >>> ops.nanquantile([[1.0, np.nan, 3.0, 4.0]], 0.5, axis=1).numpy()
    array([3.], dtype=float32)
    """
    if method not in _QUANTILE_METHODS:
        raise ValueError(f"Invalid `method`: {method!r}; expected 'linear', 'lower', 'higher', "
                         "'midpoint' or 'nearest'.")
    x = _t(x)
    qs = np.asarray(convert_to_numpy(q), np.float32).astype(np.float64)  # (Keras takes q in floatx)
    rank = x.shape.rank
    if axis is not None and (axis == () or axis == []):
        return x
    axes = list(builtins.range(rank)) if axis is None else sorted(
        int(a) % rank for a in ([axis] if isinstance(axis, int) else axis))
    others = [i for i in builtins.range(rank) if i not in axes]
    rows = _a.reshape(_a.transpose(x, others + axes), [-1, int(np.prod([x.shape[i] for i in axes]))])
    work = rows if rows.dtype.is_floating else _t(rows, _floatx())
    nan = _sp.is_nan(work)
    valid = _r.reduce_sum(_m.cast(_m.logical_not(nan), "int32"), axis=1)  # (batch,)
    ys = _s.sort(_m.where(nan, _m.zeros_like(work) + _t(np.inf, work.dtype), work), axis=-1)
    nv = np.asarray(convert_to_numpy(valid), np.float64)
    exact = (np.maximum(nv, 1) - 1)[:, None] * qs.reshape(1, -1)  # (batch, nq)
    top = np.maximum(nv - 1, 0)[:, None]

    def at(idx: np.ndarray) -> Tensor:
        return _ix.gather(ys, _t(np.clip(idx, 0, top).astype(np.int32)), axis=1, batch_dims=1)
    if method == "lower":
        out = at(np.floor(exact))
    elif method == "higher":
        out = at(np.ceil(exact))
    elif method == "nearest":
        out = at(np.round(exact))
    elif method == "midpoint":
        out = _t(0.5, ys.dtype) * (at(np.floor(exact)) + at(np.ceil(exact)))
    else:
        larger = np.minimum(np.ceil(exact), top)
        smaller = np.maximum(larger - 1, 0)
        larger = np.minimum(smaller + 1, top)
        frac = _t((larger - exact).astype(ys.dtype.as_numpy_dtype))
        out = at(larger) * (_t(1, ys.dtype) - frac) + at(smaller) * frac
    out = _m.where(_t((nv == 0)[:, None] + np.zeros(out.shape.as_list(), bool)),
                   _m.zeros_like(out) + _t(np.nan, out.dtype), out)
    out = _t(out, x.dtype.name) if x.dtype.is_floating else out
    out = _a.reshape(_a.transpose(out, [1, 0]), list(qs.shape) + [x.shape[i] for i in others])
    if keepdims:
        for ax in axes:
            out = _a.expand_dims(out, ax + qs.ndim)
    return out


def nanmedian(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The median over ``axis`` of the entries that are not NaN."""
    return nanquantile(x, 0.5, axis=axis, keepdims=keepdims)


def nanpercentile(x: Any, q: Any, axis: Any = None, method: str = "linear", keepdims: bool = False) -> Tensor:
    """:func:`nanquantile` with ``q`` in percent."""
    return nanquantile(x, np.asarray(convert_to_numpy(q), np.float32) / np.float32(100.0), axis=axis,
                       method=method, keepdims=keepdims)


# ---- keras.ops.math: segments, FFTs, STFT, framing ----------------------------------------------

def segment_min(data: Any, segment_ids: Any, num_segments: Any = None, sorted: bool = False) -> Tensor:  # noqa: A002
    """The minima of ``data``'s rows by ``segment_ids`` (``num_segments`` default: the largest id + 1)."""
    return _segment(_seg.segment_min, _seg.unsorted_segment_min, data, segment_ids, num_segments, sorted, True)


def segment_prod(data: Any, segment_ids: Any, num_segments: Any = None, sorted: bool = False) -> Tensor:  # noqa: A002
    """The products of ``data``'s rows by ``segment_ids`` (``num_segments`` default: the largest id + 1)."""
    return _segment(_seg.segment_prod, _seg.unsorted_segment_prod, data, segment_ids, num_segments, sorted, True)


def extract_sequences(x: Any, sequence_length: int, sequence_stride: int) -> Tensor:
    """The windows of ``sequence_length`` entries, ``sequence_stride`` apart, of ``x``'s last axis
    (a new axis of windows before it)."""
    return _sig.frame(_t(x), frame_length=sequence_length, frame_step=sequence_stride, axis=-1, pad_end=False)


def _complex_of(x: Any) -> Tensor:
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError(f"Input `x` should be a tuple of two tensors - real and imaginary. Received: x={x}")
    re_, im_ = _t(x[0]), _t(x[1])
    if re_.shape.as_list() != im_.shape.as_list():
        raise ValueError("Input `x` should be a tuple of two tensors - real and imaginary. Both the real and "
                         f"imaginary parts should have the same shape. Received: x[0].shape = "
                         f"{tuple(re_.shape.as_list())}, x[1].shape = {tuple(im_.shape.as_list())}")
    if not re_.dtype.is_floating or not im_.dtype.is_floating:
        raise ValueError(f"At least one tensor in input `x` is not of type float. Received: x={x}.")
    return _m.complex_(re_, im_)


def _parts(z: Tensor) -> tuple:
    return _m.real(z), _m.imag(z)


def fft(x: tuple) -> tuple:
    """The FFT over the last axis of the complex tensor given as ``(real, imag)``; returns
    ``(real, imag)``.

    >>> import numpy as np
    >>> from tapegrad.keras import ops
    >>> re, im = ops.fft((np.array([1.0, 0.0, 0.0, 0.0]), np.zeros(4)))
    >>> re.numpy()
    array([1., 1., 1., 1.])
    """
    return _parts(_sig.fft(_complex_of(x)))


def fft2(x: tuple) -> tuple:
    """The 2-D FFT over the last two axes of ``(real, imag)``; returns ``(real, imag)``."""
    return _parts(_sig.fft2d(_complex_of(x)))


def ifft2(x: tuple) -> tuple:
    """The inverse 2-D FFT over the last two axes of ``(real, imag)``; returns ``(real, imag)``."""
    return _parts(_sig.ifft2d(_complex_of(x)))


def rfft(x: Any, fft_length: int | None = None) -> tuple:
    """The FFT of the real ``x`` over its last axis (``fft_length`` points), the
    ``fft_length // 2 + 1`` non-negative frequencies as ``(real, imag)``."""
    return _parts(_sig.rfft(_t(x), fft_length=None if fft_length is None else [fft_length]))


def irfft(x: tuple, fft_length: int | None = None) -> Tensor:
    """The inverse of :func:`rfft`: a real signal of ``fft_length`` points from ``(real, imag)``."""
    return _sig.irfft(_complex_of(x), fft_length=None if fft_length is None else [fft_length])


def _stft_window(window: Any, sequence_length: int, fft_length: int, dtype: Any) -> Any:
    if window is None:
        return None
    if isinstance(window, str):
        if window not in ("hann", "hamming"):
            raise ValueError("If a string is passed to `window`, it must be one of `\"hann\"`, `\"hamming\"`. "
                             f"Received: window={window}")
        make = _sig.hann_window if window == "hann" else _sig.hamming_window
        win = make(sequence_length, periodic=True, dtype=dtype)
    else:
        win = _t(window, dtype)
    if win.shape.rank != 1 or win.shape[-1] != sequence_length:
        raise ValueError(f"The shape of `window` must be equal to [sequence_length]. Received: window shape="
                         f"{tuple(win.shape.as_list())}")
    left = (fft_length - sequence_length) // 2
    return _a.pad(win, [[left, fft_length - sequence_length - left]])


def stft(x: Any, sequence_length: int, sequence_stride: int, fft_length: int, window: Any = "hann",
         center: bool = True) -> tuple:
    """The short-time Fourier transform of the real ``x`` over its last axis, ``(real, imag)`` of
    shape ``(..., frames, fft_length // 2 + 1)``; ``center`` pads ``fft_length // 2`` on each side
    by reflection; ``window``: ``"hann"``, ``"hamming"``, an array of ``sequence_length`` or None.

    >>> import numpy as np
    >>> from tapegrad.keras import ops
    >>> real, imag = ops.stft(np.zeros(16, np.float32), 8, 4, 8)
    >>> real.shape
    TensorShape([5, 5])
    """
    x = _t(x)
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError(f"Invalid input type. Expected `float32` or `float64`. Received: input type={x.dtype.name}")
    if fft_length < sequence_length:
        raise ValueError("`fft_length` must equal or larger than `sequence_length`. Received: sequence_length="
                         f"{sequence_length}, fft_length={fft_length}")
    win = _stft_window(window, sequence_length, fft_length, x.dtype)
    if center:
        x = _a.pad(x, [[0, 0]] * (x.shape.rank - 1) + [[fft_length // 2, fft_length // 2]], mode="REFLECT")
    out = _sig.stft(x, frame_length=fft_length, frame_step=sequence_stride, fft_length=fft_length,
                    window_fn=None if win is None else (lambda n, dtype: win))
    return _parts(out)


def istft(x: tuple, sequence_length: int, sequence_stride: int, fft_length: int, length: int | None = None,
          window: Any = "hann", center: bool = True) -> Tensor:
    """The inverse of :func:`stft` from ``(real, imag)``: the signal (``length`` samples when given)."""
    z = _complex_of(x)
    dtype_ = _m.real(z).dtype
    expected = fft_length + sequence_stride * (z.shape[-2] - 1)
    win = _stft_window(window, sequence_length, fft_length, dtype_)
    window_fn = None if win is None else _sig.inverse_stft_window_fn(sequence_stride, lambda n, dtype: win)
    out = _sig.inverse_stft(z, frame_length=fft_length, frame_step=sequence_stride, fft_length=fft_length,
                            window_fn=window_fn)
    start = fft_length // 2 if center else 0
    end = start + length if length is not None else expected - fft_length // 2 if center else expected
    return out[..., start:end]


def view_as_complex(x: Any) -> Tensor:
    """The complex64 tensor whose real and imaginary parts are the last axis (of size 2) of ``x``."""
    x = _t(x)
    if x.shape.rank < 1 or x.shape[-1] != 2:
        raise ValueError(f"Last dimension of input must be size 2 (real and imaginary). Received shape: "
                         f"{tuple(x.shape.as_list())}")
    return _m.complex_(_t(x[..., 0], "float32"), _t(x[..., 1], "float32"))


def view_as_real(x: Any) -> Tensor:
    """The real and imaginary parts of ``x`` stacked on a new last axis."""
    x = _t(x)
    return _a.stack([real(x), imag(x)], axis=-1)


def gammainc(x1: Any, x2: Any) -> Tensor:
    """The regularized lower incomplete gamma function ``P(x1, x2)``."""
    a, b = _t(x1), _t(x2)
    want = _result_type(a.dtype.name, b.dtype.name, float)
    work = "float32" if want in ("float16", "bfloat16") else want
    return _m.cast(_sp.igamma(_t(a, work), _t(b, work)), want)


# ---- keras.ops.nn: more activations, normalization, convolutions, pooling, CTC ------------------

def sparse_sigmoid(x: Any) -> Tensor:
    """0 below -1, 1 above 1, ``(x + 1) / 2`` between (float input)."""
    x = _t(x)
    if not x.dtype.is_floating:
        raise TypeError(f"sparse_sigmoid needs a float tensor; received dtype={x.dtype.name}: cast it first.")
    zero, one = _m.zeros_like(x), _m.ones_like(x)
    return _m.where(_m.less_equal(x, -one), zero, _m.where(_m.greater_equal(x, one), one,
                                                          _t(0.5, x.dtype) * (x + one)))


def sparsemax(x: Any, axis: int = -1) -> Tensor:
    """The Euclidean projection of ``x`` onto the probability simplex along ``axis`` (a softmax
    with exact zeros).

    >>> from tapegrad.keras import ops
    >>> ops.sparsemax([[1.0, 2.0, 0.1]]).numpy()
    array([[0., 1., 0.]], dtype=float32)
    """
    x = _t(x)
    rank = x.shape.rank
    ax = axis % rank
    ordered = _a.reverse(_s.sort(x, axis=ax), [ax])
    csum = _m.cumsum(ordered, axis=ax)
    r = np.arange(1, x.shape[ax] + 1).reshape([-1 if i == ax else 1 for i in builtins.range(rank)])
    r = _t(r.astype(x.dtype.as_numpy_dtype))
    support = _m.greater(ordered - (csum - _m.ones_like(csum)) / r, _m.zeros_like(csum))
    k = _r.reduce_sum(_m.cast(support, x.dtype.name), axis=ax, keepdims=True)
    tau = (_r.reduce_sum(_m.where(support, csum, _m.zeros_like(csum)), axis=ax, keepdims=True) - _t(1, x.dtype)) / k
    return _m.maximum(x - tau, _m.zeros_like(x))


def polar(abs_: Any, angle: Any) -> Tensor:
    """The complex numbers ``abs_ * (cos(angle) + i sin(angle))``."""
    r_, th = _strong_pair(abs_, angle)
    r_, th = _float(r_), _float(th)
    return _m.complex_(r_ * _m.cos(th), r_ * _m.sin(th))


def layer_normalization(x: Any, gamma: Any = None, beta: Any = None, axis: Any = -1, epsilon: float | None = None,
                        **kwargs: Any) -> Tensor:
    """``(x - mean) / sqrt(var + epsilon) * gamma + beta`` with the statistics over ``axis`` of each
    example (computed in at least float32; ``epsilon`` default 1e-7)."""
    rms_scaling = kwargs.pop("rms_scaling", False)
    if kwargs:
        raise TypeError(f"layer_normalization got unexpected keyword arguments {sorted(kwargs)}.")
    eps = 1e-7 if epsilon is None else epsilon
    x = _t(x)
    original = x.dtype.name
    x = _t(x, _result_type(original, "float32"))
    rank = x.shape.rank
    axes = sorted(a % rank for a in ([axis] if isinstance(axis, int) else axis))
    shape_ = [x.shape[i] if i in axes else 1 for i in builtins.range(rank)]

    def along(v: Any) -> Any:
        if v is None:
            return None
        v = _t(v, x.dtype)
        return _a.reshape(v, shape_) if v.shape.rank != rank and axes != [rank - 1] else v
    gamma, beta = along(gamma), along(beta)
    if rms_scaling:
        _warnings.warn("You passed `rms_scaling=True`, which is deprecated. This argument incorrectly scales the "
                      "input by the variance, not the root mean square. To correctly use RMS Normalization, "
                      "please use `keras.ops.rms_normalization` / `keras.ops.nn.rms_normalization` instead.")
        inv = _m.rsqrt(_r.reduce_variance(x, axis=axes, keepdims=True) + _t(eps, x.dtype))
        out = x * inv if gamma is None else x * inv * gamma
    else:
        mean_, var_ = moments(x, axes=axes, keepdims=True)
        inv = _m.rsqrt(var_ + _t(eps, x.dtype))
        if gamma is not None:
            inv = inv * gamma
        res = -mean_ * inv
        if beta is not None:
            res = res + beta
        out = x * inv + res
    return _m.cast(out, original)


def depth_to_space(x: Any, block_size: int, data_format: str = "channels_last") -> Tensor:
    """Moves ``block_size`` x ``block_size`` blocks of channels into space (4-D ``x``)."""
    x = _t(x)
    if _channels_last(x, data_format):
        return _nn.depth_to_space(x, block_size, data_format="NHWC")
    return _a.transpose(_nn.depth_to_space(_a.transpose(x, [0, 2, 3, 1]), block_size), [0, 3, 1, 2])


def space_to_depth(x: Any, block_size: int, data_format: str = "channels_last") -> Tensor:
    """Moves ``block_size`` x ``block_size`` blocks of space into channels (4-D ``x``)."""
    x = _t(x)
    if _channels_last(x, data_format):
        return _nn.space_to_depth(x, block_size, data_format="NHWC")
    return _a.transpose(_nn.space_to_depth(_a.transpose(x, [0, 2, 3, 1]), block_size), [0, 3, 1, 2])


def _pair_of(v: Any) -> tuple:
    return (int(v), int(v)) if isinstance(v, (int, np.integer)) else tuple(int(u) for u in v)


def unfold(x: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Tensor:
    """The sliding blocks of a ``(N, C, H, W)`` image as columns: ``(N, C * kh * kw, blocks)``
    (PyTorch's ``unfold``, im2col)."""
    x = _t(x)
    if x.shape.rank != 4:
        raise ValueError(f"unfold expects a 4-D (N, C, H, W) input; got shape {tuple(x.shape.as_list())}.")
    k, d, p_, st = _pair_of(kernel_size), _pair_of(dilation), _pair_of(padding), _pair_of(stride)
    n, c = x.shape[0], x.shape[1]
    if builtins.any(v > 0 for v in p_):
        x = _a.pad(x, [[0, 0], [0, 0], [p_[0], p_[0]], [p_[1], p_[1]]])
    patches = _conv._patches(_a.transpose(x, [0, 2, 3, 1]), [1, k[0], k[1], 1], [1, st[0], st[1], 1],
                             [1, d[0], d[1], 1], "VALID", 2, "ExtractImagePatches")
    nh, nw = patches.shape[1], patches.shape[2]
    patches = _a.transpose(_a.reshape(patches, [n, nh, nw, k[0], k[1], c]), [0, 5, 3, 4, 1, 2])
    return _a.reshape(patches, [n, c * k[0] * k[1], nh * nw])


def fold(x: Any, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Tensor:
    """The inverse arrangement of :func:`unfold` (col2im): ``(N, C * kh * kw, blocks)`` columns summed
    into a ``(N, C, *output_size)`` image where blocks overlap.

    >>> import numpy as np
    >>> from tapegrad.keras import ops
    >>> ops.fold(ops.unfold(np.ones((1, 1, 3, 3), np.float32), 2), (3, 3), 2).numpy()[0, 0]
    array([[1., 2., 1.],
           [2., 4., 2.],
           [1., 2., 1.]], dtype=float32)
    """
    x = _t(x)
    k, o, d, p_, st = (_pair_of(kernel_size), _pair_of(output_size), _pair_of(dilation), _pair_of(padding),
                       _pair_of(stride))
    n, ckk = x.shape[0], x.shape[1]
    c = ckk // (k[0] * k[1])
    nh = (o[0] + 2 * p_[0] - d[0] * (k[0] - 1) - 1) // st[0] + 1
    nw = (o[1] + 2 * p_[1] - d[1] * (k[1] - 1) - 1) // st[1] + 1
    if c * k[0] * k[1] != ckk or nh * nw != x.shape[2]:
        raise ValueError(f"fold: input of shape {tuple(x.shape.as_list())} does not match kernel_size={k}, "
                         f"output_size={o}, dilation={d}, padding={p_}, stride={st} (expected "
                         f"({n}, {c * k[0] * k[1]}, {nh * nw})).")
    hp, wp = o[0] + 2 * p_[0], o[1] + 2 * p_[1]
    ci, ii, jj, hi, wi = np.meshgrid(np.arange(c), np.arange(k[0]), np.arange(k[1]), np.arange(nh), np.arange(nw),
                                     indexing="ij")
    idx = np.stack([ci, hi * st[0] + ii * d[0], wi * st[1] + jj * d[1]], -1).reshape(-1, 3).astype(np.int32)
    cols = _a.transpose(_a.reshape(x, [n, -1]), [1, 0])  # (C*kh*kw*nh*nw, N)
    out = _a.transpose(_ix.scatter_nd(_t(idx), cols, [c, hp, wp, n]), [3, 0, 1, 2])
    return out[:, :, p_[0]:hp - p_[0], p_[1]:wp - p_[1]]


def separable_conv(inputs: Any, depthwise_kernel: Any, pointwise_kernel: Any, strides: Any = 1,
                   padding: str = "valid", data_format: Any = None, dilation_rate: Any = 1) -> Tensor:
    """A depthwise convolution then a pointwise (1x1) one, for 1-D or 2-D inputs."""
    x = _t(inputs)
    n = x.shape.rank - 2
    if n not in (1, 2):
        raise ValueError(f"`num_spatial_dims` must be 1 or 2. Received: num_spatial_dims={n}.")
    depth = depthwise_conv(x, depthwise_kernel, strides=strides, padding=padding, data_format=data_format,
                           dilation_rate=dilation_rate)
    return conv(depth, pointwise_kernel, strides=1, padding="valid", data_format=data_format)


def _transpose_size(size: int, k: int, stride: int, padding: str, out_pad: Any, dilation: int) -> int:
    k = (k - 1) * dilation + 1
    if padding.lower() == "valid":
        return (size - 1) * stride + k + (builtins.max(k, stride) - k if out_pad is None else out_pad)
    return size * stride if out_pad is None else (size - 1) * stride + k % 2 + out_pad


def conv_transpose(inputs: Any, kernel: Any, strides: Any = 1, padding: str = "valid", output_padding: Any = None,
                   data_format: Any = None, dilation_rate: Any = 1) -> Tensor:
    """The transposed N-D convolution of ``inputs`` with ``kernel`` (spatial..., out, in), with
    Keras's output size rule (``output_padding`` extra rows at the end).

    >>> import numpy as np
    >>> from tapegrad.keras import ops
    >>> ops.conv_transpose(np.ones((1, 3, 3, 1), np.float32), np.ones((2, 2, 4, 1), np.float32), strides=2).shape
    TensorShape([1, 6, 6, 4])
    """
    if padding.lower() not in ("valid", "same"):
        raise ValueError(f"The `padding` argument must be one of 'valid', 'same'. Received: padding={padding}")
    x = _t(inputs)
    last = _channels_last(x, data_format)
    x = x if last else _to_last(x)
    k = _t(kernel, x.dtype)
    n = x.shape.rank - 2
    s_, d_ = _spatial(strides, n), _spatial(dilation_rate, n)
    op_ = [None] * n if output_padding is None else _spatial(output_padding, n)
    sizes = [_transpose_size(x.shape[1 + i], k.shape[i], s_[i], padding, op_[i], d_[i]) for i in builtins.range(n)]
    out = _conv.conv_transpose(x, k, [x.shape[0], *sizes, k.shape[-2]], s_, padding=padding.upper(),
                               dilations=d_)
    return out if last else _to_first(out)


def _adaptive(kind: str, inputs: Any, output_size: Any, data_format: Any) -> Tensor:
    x = _t(inputs)
    n = x.shape.rank - 2
    if n not in (1, 2, 3):
        raise ValueError(f"adaptive_{kind}_pool supports 1D, 2D, or 3D inputs only.")
    last = _channels_last(x, data_format or _image_data_format())
    x = x if last else _to_last(x)
    sizes = _spatial(output_size, n)
    if kind == "average" and not x.dtype.is_floating:
        raise TypeError(f"adaptive_average_pool needs a float input; received dtype={x.dtype.name}: cast it first.")
    reduce = _r.reduce_mean if kind == "average" else _r.reduce_max
    for i, out_n in enumerate(sizes):
        ax, length = 1 + i, x.shape[1 + i]
        parts = []
        for j in builtins.range(out_n):
            lo, hi = (j * length) // out_n, -(-((j + 1) * length) // out_n)
            parts.append(reduce(x[(builtins.slice(None),) * ax + (builtins.slice(lo, hi),)], axis=ax, keepdims=True))
        x = _a.concat(parts, axis=ax)
    return x if last else _to_first(x)


def adaptive_average_pool(inputs: Any, output_size: Any, data_format: Any = None) -> Tensor:
    """Average pooling to a fixed ``output_size``: output ``i`` of an axis of length ``L`` averages
    entries ``floor(i L / out)`` to ``ceil((i + 1) L / out)`` (PyTorch's windows)."""
    return _adaptive("average", inputs, output_size, data_format)


def adaptive_max_pool(inputs: Any, output_size: Any, data_format: Any = None) -> Tensor:
    """Max pooling to a fixed ``output_size`` (the windows of :func:`adaptive_average_pool`)."""
    return _adaptive("max", inputs, output_size, data_format)


def ctc_loss(target: Any, output: Any, target_length: Any, output_length: Any, mask_index: int = 0) -> Tensor:
    """The CTC loss per batch entry of the ``(batch, time, classes)`` logits ``output`` for the
    padded labels ``target`` (``mask_index``: the blank class)."""
    out = _t(output)
    want = _result_type(out.dtype.name, "float32")
    work = "float32" if want == "float64" else want
    loss = _nn.ctc_loss(labels=_t(target, "int32"), logits=_t(out, work), label_length=_t(target_length),
                        logit_length=_t(output_length), blank_index=mask_index, logits_time_major=False)
    return _m.cast(loss, want)



def ctc_decode(inputs: Any, sequence_lengths: Any, strategy: str = "greedy", beam_width: int = 100,
               top_paths: int = 1, merge_repeated: bool = True, mask_index: int = 0) -> tuple:
    """Decodes the ``(batch, time, classes)`` scores ``inputs`` by CTC: ``"greedy"`` (the best class
    each step, repeats merged with ``merge_repeated``, blanks (``mask_index``) dropped; scores: the
    negative sum of the best scores) or ``"beam_search"`` (the ``top_paths`` most likely label
    sequences of a prefix beam search of ``beam_width``; scores: their log probabilities).
    Returns the labels ``(paths, batch, time)`` padded with -1, int32, and the scores."""
    x = _t(inputs)
    x = _t(x, _result_type(x.dtype.name, "float32"))
    n = _t(sequence_lengths, "int32")
    if strategy == "greedy":
        return _apply(_nn.ctc_greedy_op, [x, n], {"merge": bool(merge_repeated),
                                           "blank": -1 if mask_index is None else int(mask_index)})
    if strategy == "beam_search":
        return _apply(_nn.ctc_beam_op, [x, n], {"beam": int(beam_width), "top": int(top_paths),
                                         "blank": int(mask_index if mask_index is not None else -1)})
    raise ValueError(f"Invalid strategy {strategy}. Supported values are 'greedy' and 'beam_search'.")


# ---- keras.ops.linalg --------------------------------------------------------------------------

def _square(x: Tensor, what: str) -> None:
    if x.shape.rank < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{what} expects square matrices in its last two axes; received shape "
                         f"{tuple(x.shape.as_list())}.")


def cholesky_inverse(x: Any, upper: bool = False) -> Tensor:
    """The inverse of ``A`` from its Cholesky factor ``x`` (``A = x x^H``, or ``x^H x`` with ``upper``)."""
    x = _float(x)
    _square(x, "cholesky_inverse")
    eye_ = _a.eye(x.shape[-1], batch_shape=x.shape.as_list()[:-2], dtype=x.dtype)
    inv_chol = _dec.triangular_solve(x, eye_, lower=not upper)
    return _la.matmul(inv_chol, _la.adjoint(inv_chol)) if upper else _la.matmul(_la.adjoint(inv_chol), inv_chol)


def eig(x: Any) -> tuple:
    """The eigenvalues and eigenvectors (columns) of general square matrices, complex."""
    x = _float(x)
    _square(x, "eig")
    return _dec.eig(x)


def lu_factor(x: Any) -> tuple:
    """The packed LU factors of square matrices (unit lower part below the diagonal) and the row
    pivots: row ``i`` of the factored matrix is row ``pivots[i]`` of ``x``."""
    x = _float(x)
    _square(x, "lu_factor")
    lu_, p = _dec.lu(x)
    return lu_, _a.invert_permutation(p) if p.shape.rank == 1 else _vectorized_map(_a.invert_permutation, p)


def lstsq(a: Any, b: Any, rcond: Any = None) -> Tensor:
    """The least-squares solution ``x`` of ``a @ x = b`` (2-D ``a``; 1-D or 2-D ``b``), by SVD with
    singular values below ``rcond`` times the largest cut (default: eps * max(m, n)).

    >>> from tapegrad.keras import ops
    >>> ops.lstsq([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]], [1.0, 4.0, 5.0]).numpy()
    array([1., 2.], dtype=float32)
    """
    a, b = _promote(a, b, extra=float, weak=False)
    if a.shape.rank != 2:
        raise TypeError(f"{a.shape.rank}-dimensional array given. Array must be two-dimensional")
    if a.shape[0] != b.shape[0]:
        raise ValueError("Leading dimensions of input arrays must match")
    vector = b.shape.rank == 1
    b = _a.expand_dims(b, -1) if vector else b
    if b.shape.rank != 2:
        raise TypeError(f"{b.shape.rank}-dimensional array given. Array must be one or two-dimensional")
    m, n = a.shape
    eps = float(np.finfo(a.dtype.as_numpy_dtype).eps)
    rcond = eps * builtins.max(n, m) if rcond is None else (eps if rcond < 0 else rcond)
    s_, u, v = _dec.svd(a, full_matrices=False)
    keep = _m.greater_equal(s_, _t(rcond, s_.dtype) * s_[0])
    s_inv = _m.where(keep, _m.reciprocal(_m.where(keep, s_, _m.ones_like(s_))), _m.zeros_like(s_))
    x = _la.matmul(v, _a.expand_dims(s_inv, -1) * _la.matmul(_la.adjoint(u), b))
    return _a.reshape(x, [-1]) if vector else x


def matrix_rank(x: Any, tol: Any = None) -> Tensor:
    """The number of singular values above ``tol`` (default: eps * max(m, n) * the largest), int32."""
    return _dec.matrix_rank(_float(x), tol=tol)


def matrix_power(a: Any, n: int) -> Tensor:
    """The integer power ``a^n`` of square matrices (the inverse's for negative ``n``)."""
    a = _t(a)
    _square(a, "matrix_power")
    if int(n) != n:
        raise TypeError(f"matrix_power needs an integer exponent; received n={n!r}.")
    n = int(n)
    eye_ = _a.eye(a.shape[-1], batch_shape=a.shape.as_list()[:-2], dtype=a.dtype)
    if n == 0:
        return eye_
    if n < 0:
        a, n = inv(a), -n
    if n == 1:
        return a
    result, base = eye_, a
    while n > 0:
        if n % 2:
            result = _la.matmul(result, base)
        base = _la.matmul(base, base)
        n //= 2
    return result


def jvp(fun: Any, primals: Any, tangents: Any, has_aux: bool = False) -> tuple:
    """``(fun(*primals), J v)``: the forward-mode product of ``fun``'s Jacobian at ``primals`` with
    ``tangents`` (``(out, J v, aux)`` with ``has_aux``, ``fun`` returning ``(out, aux)``).

    >>> from tapegrad.keras import ops
    >>> out, t = ops.jvp(ops.sin, (ops.convert_to_tensor(0.1),), (ops.convert_to_tensor(0.2),))
    >>> print(f"{float(t):.6f}")
    0.199001
    """
    flat_p = [_t(p) for p in _nest.flatten(primals)]
    flat_t = [_t(t, p.dtype) for t, p in zip(_nest.flatten(tangents), flat_p)]
    args = _nest.pack_sequence_as(primals, flat_p)
    with _autodiff.ForwardAccumulator(flat_p, flat_t) as acc:
        out = fun(*args)
        if has_aux:
            out, aux = out
        out_t = _nest.map_structure(
            lambda o: acc.jvp(o, unconnected_gradients="zero"), out)
    return (out, out_t, aux) if has_aux else (out, out_t)


# ---- keras.ops.core and keras.ops.einops -------------------------------------------------------

def associative_scan(f: Any, elems: Any, reverse: bool = False, axis: int = 0) -> Any:
    """The inclusive scan of ``elems`` (a tensor or a structure of them) along ``axis`` under the
    associative ``f`` (``f(a, b)`` combines slices elementwise), by the parallel odd/even
    recursion; ``reverse`` scans from the end.

    >>> from tapegrad.keras import ops
    >>> ops.associative_scan(lambda a, b: a + b, ops.arange(1, 6)).numpy()
    array([ 1,  3,  6, 10, 15], dtype=int32)
    """
    if not callable(f):
        raise TypeError(f"`f` should be a callable. Received: f={f}")
    flat = [_t(e) for e in _nest.flatten(elems)]
    ax = axis % flat[0].shape.rank
    n = flat[0].shape[ax]
    if builtins.any(e.shape[ax] != n for e in flat[1:]):
        raise ValueError("Array inputs to associative_scan must have the same first dimension. (saw: "
                         f"{[tuple(e.shape.as_list()) for e in flat]})")

    def sl(x: Tensor, start: Any, stop: Any = None, step: Any = None) -> Tensor:
        return x[(builtins.slice(None),) * ax + (builtins.slice(start, stop, step),)]

    def combine(a: list, b: list) -> list:
        return [_t(c) for c in _nest.flatten(f(_nest.pack_sequence_as(elems, a), _nest.pack_sequence_as(elems, b)))]

    def interleave(even: Tensor, odd: Tensor) -> Tensor:
        ne, no = even.shape[ax], odd.shape[ax]
        head = sl(even, 0, no)
        pairs = _a.stack([head, odd], axis=ax + 1)
        shape_ = even.shape.as_list()
        shape_[ax] = 2 * no
        merged = _a.reshape(pairs, shape_)
        return _a.concat([merged, sl(even, no)], axis=ax) if ne > no else merged

    def scan(xs: list) -> list:
        size = xs[0].shape[ax]
        if size < 2:
            return xs
        reduced = combine([sl(x, 0, -1, 2) for x in xs], [sl(x, 1, None, 2) for x in xs])
        odd = scan(reduced)
        if size % 2 == 0:
            even = combine([sl(o, 0, -1) for o in odd], [sl(x, 2, None, 2) for x in xs])
        else:
            even = combine(odd, [sl(x, 2, None, 2) for x in xs])
        even = [_a.concat([sl(x, 0, 1), e], axis=ax) for x, e in zip(xs, even)]
        return [interleave(e, o) for e, o in zip(even, odd)]
    if reverse:
        flat = [_a.reverse(e, [ax]) for e in flat]
    out = scan(flat)
    if reverse:
        out = [_a.reverse(e, [ax]) for e in out]
    return _nest.pack_sequence_as(elems, out)


def rearrange(tensor: Any, pattern: str, **axes_lengths: int) -> Tensor:
    """``tensor``'s axes rearranged by an einops pattern such as ``"b (h w) c -> b h w c"``
    (names regroup, split with the lengths given as keywords, merge and move axes).

    >>> from tapegrad.keras import ops
    >>> ops.rearrange(ops.zeros((2, 6, 3)), "b (h w) c -> b c h w", h=2).shape
    TensorShape([2, 3, 2, 3])
    """
    x = _t(tensor)
    sides = _re.split(r"\s*->\s*", pattern.strip())
    if len(sides) != 2:
        raise ValueError(f"rearrange pattern must have one '->'; received {pattern!r}.")
    ins, outs = (_re.findall(r"\w+|\(.*?\)", side) for side in sides)
    if len(ins) != x.shape.rank:
        raise ValueError(f"rearrange pattern {pattern!r} names {len(ins)} input axes; the tensor has "
                         f"{x.shape.rank} (shape {tuple(x.shape.as_list())}).")
    lengths = dict(axes_lengths)
    sizes: dict = {}
    flat_in: list = []
    for axis_, dim in zip(ins, x.shape.as_list()):
        inner = _re.findall(r"\w+", axis_)
        if axis_.startswith("("):
            unknown = [a for a in inner if a not in lengths]
            if len(unknown) > 1:
                raise ValueError(f"rearrange cannot infer the lengths of {unknown} in {axis_}: give all but one.")
            known = int(np.prod([lengths[a] for a in inner if a in lengths]))
            if unknown:
                lengths[unknown[0]] = dim // known
            if int(np.prod([lengths[a] for a in inner])) != dim:
                raise ValueError(f"rearrange: the lengths of {axis_} do not multiply to {dim}.")
            sizes.update({a: lengths[a] for a in inner})
        else:
            sizes[axis_] = dim
        flat_in.extend(inner)
    groups = [_re.findall(r"\w+", a) for a in outs]
    flat_out = [a for g in groups for a in g]
    if sorted(flat_out) != sorted(flat_in):
        raise ValueError(f"rearrange pattern {pattern!r}: the output names {flat_out} must be the input names "
                         f"{flat_in}, reordered.")
    x = _a.reshape(x, [sizes[a] for a in flat_in])
    x = _a.transpose(x, [flat_in.index(a) for a in flat_out])
    return _a.reshape(x, [int(np.prod([sizes[a] for a in g])) for g in groups])


def logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, base: float = 10, dtype: Any = None,
             axis: int = 0) -> Tensor:
    """``num`` numbers from ``base**start`` to ``base**stop``, evenly spaced on a log scale."""
    want = dtype or _result_type(*[type(v) if type(v) in (int, float) else _t(v).dtype.name for v in (start, stop)],
                                 float)
    exps = _spaced(start, stop, num, endpoint, want, axis)
    return _m.pow(_m.zeros_like(exps) + _t(base, want), exps)


def _python_dtype(dtype: Any) -> Any:
    try:
        return _PYTHON_DTYPES.get(dtype, dtype)
    except TypeError:   # (unhashable: not one of them)
        return dtype


def _symbolic(name: str, fn: Any) -> Any:
    """``fn``, or, when an argument is a KerasTensor (keras.Input or a layer's symbolic output), a
    node of the functional graph that calls ``fn`` when the model runs (as keras.ops does)."""
    params = list(inspect.signature(fn).parameters)
    at = params.index("dtype") if "dtype" in params else None

    def op(*args: Any, **kwargs: Any) -> Any:
        if at is not None:   # (Python's int, float, ... as Keras reads them: int64, float32, ...)
            if "dtype" in kwargs:
                kwargs["dtype"] = _python_dtype(kwargs["dtype"])
            elif len(args) > at:
                args = args[:at] + (_python_dtype(args[at]),) + args[at + 1:]
        for a in (*args, *kwargs.values()):
            if type(a).__name__ == "KerasTensor" or isinstance(a, (list, tuple)) and builtins.any(
                    type(b).__name__ == "KerasTensor" for b in a):
                return _operation(name, args, kwargs)
        return fn(*args, **kwargs)
    op.__name__, op.__qualname__, op.__doc__, op.__wrapped__ = fn.__name__, fn.__qualname__, fn.__doc__, fn
    return op


__all__ += ["get_item", "arccos", "arccosh", "arcsin", "arcsinh", "arctanh", "cosh", "sinh", "exp2",
            "reciprocal", "trunc", "isnan", "isinf", "isfinite", "nan_to_num", "copy", "conjugate",
            "conj", "ravel", "count_nonzero", "amax", "amin", "ptp", "average", "moveaxis", "swapaxes",
            "roll", "fliplr", "flipud", "tril", "triu", "diag", "append", "hstack", "vstack", "outer",
            "inner", "vdot", "arctan2", "logaddexp", "hypot", "divide_no_nan", "logical_xor", "isclose",
            "allclose", "nonzero", "meshgrid", "identity", "tri", "empty", "empty_like", "is_tensor",
            "dtype", "moments", "searchsorted", "multi_hot", "log_sigmoid", "softsign", "hard_sigmoid",
            "hard_silu", "hard_swish", "celu", "glu", "hard_tanh", "hard_shrink", "soft_shrink",
            "tanh_shrink", "squareplus", "sparse_plus", "threshold", "cond", "switch", "fori_loop",
            "while_loop", "scan", "map", "slice", "slice_update", "scatter", "scatter_update", "conv",
            "depthwise_conv", "max_pool", "average_pool", "segment_sum", "segment_max", "in_top_k",
            "erfinv", "saturate_cast", "array", "custom_gradient", "vectorized_map", "inv", "det",
            "solve", "cholesky", "svd", "qr", "eigh", "cdist", "cbrt", "deg2rad", "rad2deg", "signbit",
            "sinc", "diff", "fmod", "logaddexp2", "isin", "isposinf", "isneginf", "isreal", "real",
            "imag", "erfc", "kron", "diagflat", "dstack", "array_split", "vsplit", "hsplit", "nansum",
            "nanmax", "nanmin", "nanmean", "logdet", "slogdet", "pinv", "solve_triangular",
            "batch_normalization", "rms_normalization", "dot_product_attention", "psnr", "quantile",
            "median", "percentile", "extract_patches"]
__all__ += ["adaptive_average_pool", "adaptive_max_pool", "angle", "argpartition", "associative_scan", "bartlett",
            "bincount", "bitwise_and", "bitwise_invert", "bitwise_left_shift", "bitwise_not", "bitwise_or",
            "bitwise_right_shift", "bitwise_xor", "blackman", "cholesky_inverse", "column_stack", "conv_transpose",
            "corrcoef", "correlate", "cross", "ctc_decode", "ctc_loss", "depth_to_space", "digitize", "dsplit", "eig",
            "extract_sequences", "fabs", "fft", "fft2", "fmax", "fmin", "fold", "gammainc", "gcd", "geomspace",
            "hamming", "hanning", "heaviside", "histogram", "i0", "ifft2", "irfft", "istft", "jvp", "kaiser",
            "layer_normalization", "lcm", "ldexp", "left_shift", "lstsq", "lu_factor", "matrix_power", "matrix_rank",
            "nanargmax", "nanargmin", "nancumprod", "nancumsum", "nanmedian", "nanpercentile", "nanprod", "nanquantile",
            "nanstd", "nanvar", "nextafter", "polar", "rearrange", "rfft", "right_shift", "rot90", "segment_min",
            "segment_prod", "select", "separable_conv", "space_to_depth", "sparse_sigmoid", "sparsemax", "stft",
            "trapezoid", "unfold", "unique", "unravel_index", "vander", "vectorize", "view", "view_as_complex",
            "view_as_real", "logspace"]
for _name in __all__:
    if _name not in ("convert_to_tensor", "convert_to_numpy", "shape", "ndim", "size", "ones", "zeros",
                     "full", "arange", "linspace", "eye", "identity", "tri", "empty", "is_tensor", "cond",
                     "switch", "fori_loop", "while_loop", "scan", "map", "custom_gradient",
                     "vectorized_map", "vectorize"):
        globals()[_name] = _symbolic(_name, globals()[_name])
del _name

# ---- keras.ops.image ------------------------------------------------------------------------------

def _crop_box(h: int, w: int, th: int, tw: int) -> tuple:
    """Keras's central crop to the target's aspect ratio: ``(top, left, height, width)``."""
    ch = builtins.max(builtins.min(h, int(float(w * th) / tw)), 1)
    cw = builtins.max(builtins.min(w, int(float(h * tw) / th)), 1)
    return int((h - ch) / 2), int((w - cw) / 2), ch, cw


def _resize_channels_last(x: Tensor, size: tuple, interpolation: str, antialias: bool = False, crop_to_aspect_ratio: bool = False,
           pad_to_aspect_ratio: bool = False, fill_value: float = 0.0) -> Tensor:
    """Keras's ``ops.image.resize`` of a channels-last batch (TensorFlow backend)."""
    h, w = int(x.shape[1]), int(x.shape[2])
    th, tw = size
    if crop_to_aspect_ratio:
        top, left, ch, cw = _crop_box(h, w, th, tw)
        x = x[:, top:top + ch, left:left + cw, :]
    elif pad_to_aspect_ratio:   # the same number of fill rows (columns) on each side, as Keras
        ph = int((builtins.max(h, int(float(w * th) / tw)) - h) / 2)
        pw = int((builtins.max(w, int(float(h * tw) / th)) - w) / 2)
        b, c = int(x.shape[0]), int(x.shape[3])
        if ph > 0:
            band = _a.fill([b, ph, w, c], _m.cast(fill_value, x.dtype))
            x = _a.concat([band, x, band], axis=1)
        if pw > 0:
            band = _a.fill([b, int(x.shape[1]), pw, c], _m.cast(fill_value, x.dtype))
            x = _a.concat([band, x, band], axis=2)
    return _tf_image.resize(x, [th, tw], method=interpolation, antialias=antialias)



def _extract_patches_3d(volumes: Any, size: Any, strides: Any = None, dilation_rate: Any = 1, padding: str = "valid",
                        data_format: Any = None) -> Tensor:
    """Keras's ``keras.ops.image.extract_patches_3d``: :func:`extract_patches` of volumes
    (``size`` one int or 3; ``strides`` default to ``size``, one int or 3).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.ops.image.extract_patches_3d(np.ones((2, 6, 6, 6, 1), "float32"), 3).shape
    TensorShape([2, 2, 2, 2, 27])
    """
    if isinstance(size, int):
        size = (size, size, size)
    elif len(size) != 3:
        raise TypeError(f"Invalid `size` argument. Expected an int or a tuple of length 3. Received: size={size}")
    strides = size if strides is None else strides
    strides = (strides,) * 3 if isinstance(strides, int) else strides
    if len(strides) != 3:
        raise ValueError(f"Invalid `strides` argument. Got: {strides}")
    return extract_patches(volumes, tuple(size), tuple(strides), dilation_rate, padding, data_format)


def _image_batch(images: Any, data_format: str | None) -> tuple:
    """``images`` as a channels-last batch, and how to give a result back in the caller's layout."""
    x = _t(images)
    if x.shape.rank not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). "
                         f"Received: images.shape={tuple(x.shape.as_list())}")
    single, first = x.shape.rank == 3, (data_format or _image_data_format()) == "channels_first"
    if single:
        x = _a.expand_dims(x, 0)
    if first:
        x = _a.transpose(x, [0, 2, 3, 1])

    def back(y: Tensor) -> Tensor:
        if first:
            y = _a.transpose(y, [0, 3, 1, 2])
        return _a.squeeze(y, [0]) if single else y
    return x, back


def _image_resize(images: Any, size: Any, interpolation: str = "bilinear", antialias: bool = False,
                  crop_to_aspect_ratio: bool = False, pad_to_aspect_ratio: bool = False, fill_mode: str = "constant",
                  fill_value: float = 0.0, data_format: str | None = None) -> Tensor:
    """Keras's ``ops.image.resize``: images (rank 3 or 4, ``data_format``) resized to ``size``
    ``(height, width)`` with ``interpolation``, after a central crop (``crop_to_aspect_ratio``) or
    a padding (``pad_to_aspect_ratio``, ``fill_value``) to the target's aspect ratio."""
    if len(size) != 2:
        raise ValueError(f"Expected `size` to be a tuple of 2 integers. Received: size={size}")
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("Only one of `pad_to_aspect_ratio` & `crop_to_aspect_ratio` can be True.")
    if fill_mode != "constant":
        raise ValueError(f"Invalid value for argument `fill_mode`. Only `'constant'` is supported. "
                         f"Received: fill_mode={fill_mode}")
    x, back = _image_batch(images, data_format)
    dtype = x.dtype
    if not dtype.is_floating:
        x = _m.cast(x, _floatx())
    y = _resize_channels_last(x, (int(size[0]), int(size[1])), interpolation, antialias, crop_to_aspect_ratio,
                              pad_to_aspect_ratio, fill_value)
    if y.dtype != dtype:  # Keras's own rule: an integer image rounds, and any other dtype casts back
        y = saturate_cast(round(y) if dtype.is_integer else y, dtype)
    return back(y)


def _rgb_to_grayscale(images: Any, data_format: str | None = None) -> Tensor:
    """Keras's ``ops.image.rgb_to_grayscale``: one channel, ``0.2989 R + 0.587 G + 0.114 B``."""
    x, back = _image_batch(images, data_format)
    return back(_tf_image.rgb_to_grayscale(x))


def _rgb_to_hsv(images: Any, data_format: str | None = None) -> Tensor:
    """Keras's ``ops.image.rgb_to_hsv`` (float images in [0, 1])."""
    x, back = _image_batch(images, data_format)
    return back(_tf_image.rgb_to_hsv(x))


def _hsv_to_rgb(images: Any, data_format: str | None = None) -> Tensor:
    """Keras's ``ops.image.hsv_to_rgb``."""
    x, back = _image_batch(images, data_format)
    return back(_tf_image.hsv_to_rgb(x))


# keras.ops.image, as far as tapegrad has it: a module of its own, in sys.modules, and this module
# a package with no files (an empty __path__), so that `import keras.ops.image` and `from
# keras.ops.image import extract_patches` find it as Keras's submodule
image = _types.ModuleType(__name__ + ".image", "Keras's ``keras.ops.image``.")
image.__spec__ = _ModuleSpec(image.__name__, None)
image.extract_patches = extract_patches
_extract_patches_3d.__name__ = _extract_patches_3d.__qualname__ = "extract_patches_3d"
image.extract_patches_3d = _symbolic("extract_patches_3d", _extract_patches_3d)
for _f, _n in ((_image_resize, "resize"), (_rgb_to_grayscale, "rgb_to_grayscale"), (_rgb_to_hsv, "rgb_to_hsv"),
               (_hsv_to_rgb, "hsv_to_rgb")):
    _f.__name__ = _f.__qualname__ = _n
    setattr(image, _n, _symbolic(_n, _f))
for _n in ("affine_transform", "crop_images", "elastic_transform", "gaussian_blur", "map_coordinates", "pad_images",
           "perspective_transform", "scale_and_translate", "sobel_edges", "ssim"):
    setattr(image, _n, _symbolic(_n, getattr(_image_ops, _n)))
image.__all__ = ["affine_transform", "crop_images", "elastic_transform", "extract_patches", "extract_patches_3d",
                 "gaussian_blur", "hsv_to_rgb", "map_coordinates", "pad_images", "perspective_transform", "resize",
                 "rgb_to_grayscale", "rgb_to_hsv", "scale_and_translate", "sobel_edges", "ssim"]
del _f, _n
_sys.modules[image.__name__] = image
__path__: list = []

# keras.ops.numpy, keras.ops.nn and keras.ops.linalg: Keras's names of each family, the same
# functions as this module's, each submodule registered as ``image`` is
_FAMILIES = {
    "numpy": ("abs", "absolute", "add", "all", "allclose", "amax", "amin", "angle", "any", "append", "arange",
              "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "argmax", "argmin",
              "argpartition", "argsort", "array", "array_split", "average", "bartlett", "bincount", "bitwise_and",
              "bitwise_invert", "bitwise_left_shift", "bitwise_not", "bitwise_or", "bitwise_right_shift",
              "bitwise_xor", "blackman", "broadcast_to", "cbrt", "ceil", "clip", "concatenate", "conj", "conjugate",
              "copy", "corrcoef", "correlate", "cos", "cosh", "count_nonzero", "cross", "cumprod", "cumsum",
              "deg2rad", "diag", "diagflat", "diagonal", "diff", "digitize", "divide", "divide_no_nan", "dot",
              "dsplit", "dstack", "einsum", "empty", "empty_like", "equal", "exp", "exp2", "expand_dims", "expm1",
              "eye", "fabs", "flip", "fliplr", "flipud", "floor", "floor_divide", "fmax", "fmin", "fmod", "full",
              "full_like", "gcd", "geomspace", "get_item", "greater", "greater_equal", "hamming", "hanning",
              "heaviside", "histogram", "hsplit", "hstack", "hypot", "i0", "identity", "imag", "inner", "isclose",
              "isfinite", "isin", "isinf", "isnan", "isneginf", "isposinf", "isreal", "kaiser", "kron", "lcm",
              "ldexp", "left_shift", "less", "less_equal", "linspace", "log", "log10", "log1p", "log2", "logaddexp",
              "logaddexp2", "logical_and", "logical_not", "logical_or", "logical_xor", "logspace", "matmul", "max",
              "maximum", "mean", "median", "meshgrid", "min", "minimum", "mod", "moveaxis", "multiply",
              "nan_to_num", "nanargmax", "nanargmin", "nancumprod", "nancumsum", "nanmax", "nanmean", "nanmedian",
              "nanmin", "nanpercentile", "nanprod", "nanquantile", "nanstd", "nansum", "nanvar", "ndim", "negative",
              "nextafter", "nonzero", "not_equal", "ones", "ones_like", "outer", "pad", "percentile", "power",
              "prod", "ptp", "quantile", "rad2deg", "ravel", "real", "reciprocal", "repeat", "reshape",
              "right_shift", "roll", "rot90", "round", "searchsorted", "select", "sign", "signbit", "sin", "sinc",
              "sinh", "size", "slogdet", "sort", "split", "sqrt", "square", "squeeze", "stack", "std", "subtract",
              "sum", "swapaxes", "take", "take_along_axis", "tan", "tanh", "tensordot", "tile", "trace",
              "transpose", "trapezoid", "tri", "tril", "triu", "true_divide", "trunc", "unique", "unravel_index",
              "vander", "var", "vdot", "vectorize", "view", "vsplit", "vstack", "where", "zeros", "zeros_like"),
    "nn": ("adaptive_average_pool", "adaptive_max_pool", "average_pool", "batch_normalization",
           "binary_crossentropy", "categorical_crossentropy", "celu", "conv", "conv_transpose", "ctc_decode",
           "ctc_loss", "depth_to_space", "depthwise_conv", "dot_product_attention", "elu", "fold", "gelu", "glu",
           "hard_shrink", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh", "layer_normalization",
           "leaky_relu", "log_sigmoid", "log_softmax", "max_pool", "moments", "multi_hot", "normalize", "one_hot",
           "polar", "psnr", "relu", "relu6", "rms_normalization", "selu", "separable_conv", "sigmoid", "silu",
           "soft_shrink", "softmax", "softplus", "softsign", "space_to_depth", "sparse_categorical_crossentropy",
           "sparse_plus", "sparse_sigmoid", "sparsemax", "squareplus", "swish", "tanh_shrink", "threshold", "unfold"),
    "linalg": ("cholesky", "cholesky_inverse", "det", "eig", "eigh", "inv", "jvp", "lstsq", "lu_factor",
               "matrix_rank", "norm", "pinv", "qr", "solve", "solve_triangular", "svd"),
}
for _family, _names in _FAMILIES.items():
    _sub = _types.ModuleType(f"{__name__}.{_family}", f"Keras's ``keras.ops.{_family}``.")
    _sub.__spec__ = _ModuleSpec(_sub.__name__, None)
    _sub.__all__ = list(_names)
    for _name in _names:
        setattr(_sub, _name, globals()[_name])
    _sys.modules[_sub.__name__] = _sub
    globals()[_family] = _sub
del _family, _names, _sub, _name


if not TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "did you mean" for a typo
        raise _missing_name(__name__, name, __all__)
