"""The op library. Each module declares a family of primitives with their rules (one family a
file: array, math, special, reduction, indexing, linalg, decompositions, nn, conv, segment, sort);
this module gives Tensor its Python operators."""
from __future__ import annotations

from typing import Any

from .._core import REGISTRY, Tensor, Variable

DECLARED_IN: dict[str, str] = {}  # op name -> the family (module name here) that declares it


def _declares(family: Any) -> None:
    """Record the ops registered so far and not yet recorded as ``family``'s. The families are
    imported below in an order where each one's module-level imports are already loaded, so the
    ops that enter the registry while one loads are its own."""
    for name in REGISTRY:
        DECLARED_IN.setdefault(name, family.__name__.rsplit(".", 1)[1])


from . import array  # noqa: E402
_declares(array)
from . import math  # noqa: E402
_declares(math)
from . import reduction  # noqa: E402
_declares(reduction)
from . import special  # noqa: E402
_declares(special)
from . import indexing  # noqa: E402
_declares(indexing)
from . import linalg  # noqa: E402
_declares(linalg)
from . import decompositions  # noqa: E402
_declares(decompositions)
from . import sort  # noqa: E402
_declares(sort)
from . import segment  # noqa: E402
_declares(segment)
from . import nn  # noqa: E402
_declares(nn)
from . import conv  # noqa: E402
_declares(conv)

_m, _i, _l = math, indexing, linalg
_core_ops = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__")


def _rev(f: Any) -> Any:
    return lambda self, other: f(other, self)


def _eq(self: Any, other: Any) -> Any:
    if other is None:
        return False
    try:
        return _m.equal(self, other)
    except Exception:
        return False


def _ne(self: Any, other: Any) -> Any:
    if other is None:
        return True
    try:
        return _m.not_equal(self, other)
    except Exception:
        return True


def _and(x: Any, y: Any) -> Any:
    return _m.logical_and(x, y)


def _or(x: Any, y: Any) -> Any:
    return _m.logical_or(x, y)


def _xor(x: Any, y: Any) -> Any:
    return _m.logical_xor(x, y)


_OPERATORS = {
    "__add__": _m.add, "__radd__": _rev(_m.add),
    "__sub__": _m.subtract, "__rsub__": _rev(_m.subtract),
    "__mul__": _m.multiply, "__rmul__": _rev(_m.multiply),
    "__truediv__": _m.truediv, "__rtruediv__": _rev(_m.truediv),
    "__floordiv__": _m.floordiv, "__rfloordiv__": _rev(_m.floordiv),
    "__mod__": _m.mod, "__rmod__": _rev(_m.mod),
    "__pow__": _m.pow, "__rpow__": _rev(_m.pow),
    "__matmul__": _l.matmul, "__rmatmul__": _rev(_l.matmul),
    "__neg__": _m.negative, "__abs__": _m.abs, "__pos__": lambda self: self,
    "__invert__": _m.logical_not,
    "__and__": _and, "__rand__": _rev(_and), "__or__": _or, "__ror__": _rev(_or),
    "__xor__": _xor, "__rxor__": _rev(_xor),
    "__lt__": _m.less, "__le__": _m.less_equal, "__gt__": _m.greater, "__ge__": _m.greater_equal,
    "__eq__": _eq, "__ne__": _ne,
    "__getitem__": _i.getitem,
}

for _name, _fn in _OPERATORS.items():
    # + - * are in Tensor's body (C slots when compiled); the compiled build also holds the
    # type-checking declarations of the others there, which these replace
    if _name not in _core_ops:
        setattr(Tensor, _name, _fn)
    if _name != "__getitem__":
        setattr(Variable, _name, _fn)


def _unhashable(self: Any) -> int:
    raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key.")


Variable.__hash__ = _unhashable  # type: ignore[assignment]  (elementwise ==, as in TensorFlow)
