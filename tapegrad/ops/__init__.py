"""The op library, one family a file: array, math, special, reduction, indexing, linalg,
decompositions, nn, conv, segment, sort, random, sampled (docs/contributing.md says what goes where). This module
binds the ops the engine needs (``tapegrad/_seam.py``) and gives Tensor and Variable their Python
operators."""
from __future__ import annotations

from typing import Any

from .. import _seam, dtypes as _dt
from ..errors import InvalidArgumentError
from .._convert import binary_operands, convert_to_tensor
from .._dispatch import REGISTRY, apply, unary  # noqa: F401  (REGISTRY: op name -> Op; Op.module names its family)
from .._tensor import Tensor
from .._variable import Variable
# (in dependency order: each family imports only those before it at module level)
from . import array, math, reduction, special, indexing, linalg, decompositions, sort, segment, random, nn, conv, sampled  # noqa: F401,E501

_m, _a, _i, _l, _s = math, array, indexing, linalg, segment
_BOOL = _dt.bool


def _rev(f: Any) -> Any:
    return lambda self, other: f(other, self)


def _eq(self: Any, other: Any) -> Any:
    if other is None or not Tensor._USE_EQUALITY:  # (TF1's identity: tf.compat.v1.disable_tensor_equality)
        return self is other
    try:
        return _m.equal(self, other)
    except Exception:
        return False


def _ne(self: Any, other: Any) -> Any:
    if other is None or not Tensor._USE_EQUALITY:
        return self is not other
    try:
        return _m.not_equal(self, other)
    except Exception:
        return True


def _is_bool(v: Any) -> bool:
    return v._value.dtype.kind == "b" if type(v) is Tensor else isinstance(v, (Tensor, Variable)) and v.dtype is _BOOL


def _mul(x: Any, y: Any) -> Any:  # (TF's operator: bools multiply as int32, then back to bool)
    try:
        return _m.multiply(x, y)
    except (InvalidArgumentError, TypeError):  # (no bool kernel: the rare case costs nothing before)
        if not (_is_bool(x) or _is_bool(y)):
            raise
    return _m.cast(_m.multiply(_m.cast(x, "int32"), _m.cast(y, "int32")), "bool")


def _bitwise(logical: Any, op: Any) -> Any:
    """TF's ``&``, ``|``, ``^``: logical on bools, bitwise on integers."""
    def f(x: Any, y: Any) -> Any:
        a, b = binary_operands(x, y, op.name)
        if a._value.dtype.kind == "b":
            return logical(a, b)
        return apply(_integers(op, a), (a, b))
    return f


def _integers(op: Any, x: Tensor) -> Any:
    if x._value.dtype.kind not in "iu":
        raise InvalidArgumentError(f"{op.name} takes integer or bool tensors; got {x.dtype.name} "
                                   "(cast with tf.cast, or use a comparison for a bool mask).")
    return op


_and = _bitwise(_m.logical_and, _m.bitwise_and_op)
_or = _bitwise(_m.logical_or, _m.bitwise_or_op)
_xor = _bitwise(_m.logical_xor, _m.bitwise_xor_op)


def _invert(x: Any) -> Any:
    """TF's ``~``: logical on bools, bitwise on integers."""
    if _is_bool(x) or getattr(x, "dtype", None) is _BOOL:   # (a bool RaggedTensor too)
        return _m.logical_not(x)
    if hasattr(x, "with_flat_values"):   # (an integer RaggedTensor: its flat values)
        return x.with_flat_values(_invert(x.flat_values))
    x = convert_to_tensor(x)
    return unary(_integers(_m.invert_op, x), x)


_OPERATORS = {
    "__add__": _m.add, "__radd__": _rev(_m.add),
    "__sub__": _m.subtract, "__rsub__": _rev(_m.subtract),
    "__mul__": _mul, "__rmul__": _rev(_mul),
    "__truediv__": _m.truediv, "__rtruediv__": _rev(_m.truediv),
    "__floordiv__": _m.floordiv, "__rfloordiv__": _rev(_m.floordiv),
    "__mod__": _m.mod, "__rmod__": _rev(_m.mod),
    "__pow__": _m.pow, "__rpow__": _rev(_m.pow),
    "__matmul__": _l.matmul, "__rmatmul__": _rev(_l.matmul),
    "__neg__": _m.negative, "__abs__": _m.abs, "__pos__": lambda self: self,
    "__invert__": _invert,
    "__and__": _and, "__rand__": _rev(_and), "__or__": _or, "__ror__": _rev(_or),
    "__xor__": _xor, "__rxor__": _rev(_xor),
    "__lt__": _m.less, "__le__": _m.less_equal, "__gt__": _m.greater, "__ge__": _m.greater_equal,
    "__eq__": _eq, "__ne__": _ne,
    "__getitem__": _i.getitem,
}

for _name, _fn in _OPERATORS.items():
    setattr(Tensor, _name, _fn)
    if _name != "__getitem__":
        setattr(Variable, _name, _fn)

_seam.bind(MUL=_m._mul, conj=_m.conj, stack=_a.stack, concat=_a.concat, cast=_m.cast, real=_m.real,
           broadcast_to=_a.broadcast_to, unbroadcast=_a.unbroadcast, reshape=_a.reshape,
           transpose=_a.transpose, unstack=_a.unstack, unsorted_segment_sum=_s.unsorted_segment_sum)

# tf.dtypes' ops (TF exports tf.cast, tf.complex, tf.saturate_cast there too): the dtype module sits
# below the op library, which fills them in as it fills the seam
_dt.cast, _dt.complex, _dt.saturate_cast = _m.cast, _m.complex_, _m.saturate_cast
