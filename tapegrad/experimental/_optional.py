"""``tf.experimental.Optional``: a value or nothing, as ``iterator.get_next_as_optional()``
returns (tf.data's and tf.distribute's iterators)."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _nest
from .._convert import convert_to_tensor
from .._spec import TensorSpec
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


def next_as_optional(iterator: Any) -> Optional:
    """``iterator``'s next element as an :class:`Optional`, empty at its end (the
    ``get_next_as_optional`` of tf.data's and tf.distribute's iterators)."""
    try:
        return Optional(next(iterator), iterator.element_spec)
    except StopIteration:
        return Optional.empty(iterator.element_spec)
