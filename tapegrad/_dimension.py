"""``tf.compat.v1.Dimension``: TensorFlow 1's object for one dimension of a shape, an ``int`` or
``None`` (unknown). TensorFlow 2 still gives it from ``TensorShape.dims`` and
``tf.compat.dimension_at_index``; indexing or iterating a ``TensorShape`` gives plain ints.

Arithmetic with an unknown dimension is unknown; a comparison with one is ``None``; a Dimension is
unhashable (it compares equal to its int).

>>> import tapegrad as tf
>>> d = tf.TensorShape([16, None]).dims
>>> d, d[0] + 4, d[1] + 4, d[0].is_compatible_with(16), d[1] == 3
([Dimension(16), Dimension(None)], Dimension(20), Dimension(None), True, None)
"""
from __future__ import annotations

import operator
from typing import Any, Callable


class Dimension:
    """One dimension: ``value`` is a non-negative ``int`` or ``None`` (unknown)."""

    __slots__ = ("_size",)
    __hash__ = None  # type: ignore[assignment]  (equal to its int, as TensorFlow's: unhashable)

    def __init__(self, value: Any) -> None:
        if isinstance(value, Dimension):
            value = value._size
        if value is not None:
            try:
                value = operator.index(value)
            except TypeError:
                raise TypeError(f"Dimension value must be integer or None or have an __index__ method, got value "
                                f"'{value!r}' with type '{type(value)}'") from None
            if value < 0:
                raise ValueError(f"Dimension {value} must be >= 0")
        self._size = value

    @property
    def value(self) -> int | None:
        """The size, or ``None`` when unknown."""
        return self._size

    def __repr__(self) -> str:
        return f"Dimension({self._size!r})"

    def __str__(self) -> str:
        return "?" if self._size is None else str(self._size)

    def __int__(self) -> int:
        if self._size is None:
            raise TypeError("an unknown Dimension has no int value (test `.value is None` first)")
        return self._size

    __index__ = __int__

    def __bool__(self) -> bool:
        return bool(self._size)

    def __reduce__(self) -> tuple:
        return Dimension, (self._size,)

    def is_compatible_with(self, other: Any) -> bool:
        """Whether ``other`` may be the same size (either unknown, or both equal)."""
        other = as_dimension(other)
        return self._size is None or other._size is None or self._size == other._size

    def assert_is_compatible_with(self, other: Any) -> None:
        """``ValueError`` unless :meth:`is_compatible_with`."""
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {other} are not compatible")

    def merge_with(self, other: Any) -> "Dimension":
        """The dimension known from both (``ValueError`` when they are incompatible)."""
        other = as_dimension(other)
        self.assert_is_compatible_with(other)
        return Dimension(other._size if self._size is None else self._size)


def as_dimension(value: Any) -> Dimension:
    """``value`` as a :class:`Dimension` (a Dimension unchanged)."""
    return value if isinstance(value, Dimension) else Dimension(value)


def _other(fn: Callable) -> Callable:
    """A binary method whose other operand converts to a Dimension (``NotImplemented`` if it cannot)."""
    def method(self: Dimension, other: Any) -> Any:
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        return fn(self._size, other._size)
    return method


def _arith(op: Callable, swap: bool = False) -> Callable:
    def fn(a: Any, b: Any) -> Dimension:
        return Dimension(None if a is None or b is None else op(b, a) if swap else op(a, b))
    return _other(fn)


def _compare(op: Callable) -> Callable:
    return _other(lambda a, b: None if a is None or b is None else op(a, b))


for _name, _op in (("add", operator.add), ("sub", operator.sub), ("mul", operator.mul),
                   ("floordiv", operator.floordiv), ("mod", operator.mod)):
    setattr(Dimension, f"__{_name}__", _arith(_op))
    setattr(Dimension, f"__r{_name}__", _arith(_op, swap=True))
for _name, _op in (("eq", operator.eq), ("ne", operator.ne), ("lt", operator.lt), ("le", operator.le),
                   ("gt", operator.gt), ("ge", operator.ge)):
    setattr(Dimension, f"__{_name}__", _compare(_op))
del _name, _op


def _no_truediv(self: Dimension, other: Any) -> Any:
    raise TypeError(f"unsupported operand type(s) for /: 'Dimension' and '{type(other).__name__}', please use "
                    "// instead")


Dimension.__truediv__ = _no_truediv  # type: ignore[attr-defined]
Dimension.__rtruediv__ = _no_truediv  # type: ignore[attr-defined]
