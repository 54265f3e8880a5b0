"""``tf.experimental.Optional``: a value or nothing, as ``iterator.get_next_as_optional()``
returns (tf.data's and tf.distribute's iterators)."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _nest
from .._convert import convert_to_tensor
from .._spec import TensorSpec, TypeSpec
from .._tensor import Tensor, wrap
from ..errors import InvalidArgumentError

__all__ = ["Optional", "next_as_optional"]


class Optional:
    """A value or nothing (``tf.experimental.Optional``), as
    ``iterator.get_next_as_optional()`` returns: a loop stops when ``has_value()`` is False
    instead of catching ``StopIteration``.

    >>> import tapegrad as tf
    >>> it = iter(tf.data.Dataset.range(1))
    >>> o = it.get_next_as_optional()
    >>> bool(o.has_value()), int(o.get_value())
    (True, 0)
    >>> bool(it.get_next_as_optional().has_value())
    False
    """

    _EMPTY = object()

    def __init__(self, value: Any, element_spec: Any) -> None:
        self._value, self._spec = value, element_spec

    @staticmethod
    def from_value(value: Any) -> "Optional":
        """An Optional holding ``value`` (a tensor or a nest of them)."""
        value = _nest.map_structure(convert_to_tensor, value)
        return Optional(value, _nest.map_structure(TensorSpec.from_tensor, value))

    @staticmethod
    def empty(element_spec: Any) -> "Optional":
        """An Optional with no value, of the given element spec."""
        return Optional(Optional._EMPTY, element_spec)

    def has_value(self, name: str | None = None) -> Tensor:
        """A scalar ``tf.bool``: whether there is a value."""
        return wrap(np.array(self._value is not Optional._EMPTY))

    def get_value(self, name: str | None = None) -> Any:
        """The value; ``InvalidArgumentError`` when there is none."""
        if self._value is Optional._EMPTY:
            raise InvalidArgumentError("The Optional does not have a value: check has_value() "
                                       "before get_value() (the iterator reached its end).")
        return self._value

    @property
    def element_spec(self) -> Any:
        """The spec of the value (of what it would hold, when empty)."""
        return self._spec

    @property
    def _type_spec(self) -> "OptionalSpec":
        return OptionalSpec(self._spec)


class OptionalSpec(TypeSpec):
    """The type of an :class:`Optional`: the spec of the value it may hold.

    >>> import tapegrad as tf
    >>> tf.OptionalSpec(tf.TensorSpec([], tf.int32))
    OptionalSpec(TensorSpec(shape=(), dtype=tf.int32, name=None),)
    """

    __slots__ = ("_element_spec",)

    def __init__(self, element_spec: Any) -> None:
        self._element_spec = element_spec

    @property
    def element_spec(self) -> Any:
        return self._element_spec

    @property
    def value_type(self) -> type:
        return Optional

    @staticmethod
    def from_value(value: Any) -> "OptionalSpec":
        """The spec of an Optional."""
        return OptionalSpec(value.element_spec)

    def _compatible(self, other: TypeSpec) -> bool:
        o: Any = other
        a, b = _nest.flatten(self._element_spec), _nest.flatten(o._element_spec)
        return len(a) == len(b) and all(x.is_compatible_with(y) for x, y in zip(a, b))

    def __eq__(self, other: Any) -> bool:
        return type(other) is OptionalSpec and other._element_spec == self._element_spec

    def __hash__(self) -> int:
        return hash(repr(self))

    def __repr__(self) -> str:
        return f"OptionalSpec({self._element_spec!r},)"


def next_as_optional(iterator: Any) -> Optional:
    """``iterator``'s next element as an :class:`Optional`, empty at its end (the
    ``get_next_as_optional`` of tf.data's and tf.distribute's iterators)."""
    try:
        return Optional(next(iterator), iterator.element_spec)
    except StopIteration:
        return Optional.empty(iterator.element_spec)
