"""``tf.TensorSpec``: the description of a tensor (shape, possibly partial, and dtype)."""
from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes as _dt
from ._tensor import Tensor, TensorShape


class TensorSpec:
    """The type of a tensor: a shape (``None`` for an unknown dimension, ``shape=None`` for an
    unknown rank), a dtype and an optional name, as TensorFlow's ``tf.TensorSpec``.

    Used for ``tf.function(input_signature=[...])`` and ``get_concrete_function``.

    >>> import tapegrad as tf
    >>> s = tf.TensorSpec([None, 3], tf.float32, name="x")
    >>> s
    TensorSpec(shape=(None, 3), dtype=tf.float32, name='x')
    >>> s.is_compatible_with(tf.zeros([5, 3])), s.is_compatible_with(tf.zeros([5, 4]))
    (True, False)
    >>> tf.TensorSpec.from_tensor(tf.constant([1, 2]))
    TensorSpec(shape=(2,), dtype=tf.int32, name=None)
    """

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape: Any, dtype: Any = _dt.float32, name: str | None = None) -> None:
        try:
            self._shape = TensorShape(shape)
        except (TypeError, ValueError):
            raise TypeError(
                f"Failed to convert {shape!r} to a shape: a shape is None (unknown rank) or an "
                "iterable of dimensions, each an int or None (e.g. [1, 10, None]).") from None
        self._dtype = _dt.as_dtype(dtype)
        self._name = name

    @property
    def shape(self) -> TensorShape:
        """The shape (``TensorShape``; dimensions may be ``None``)."""
        return self._shape

    @property
    def dtype(self) -> _dt.DType:
        """The dtype."""
        return self._dtype

    @property
    def name(self) -> str | None:
        """The name (or ``None``)."""
        return self._name

    @classmethod
    def from_tensor(cls, tensor: Any, name: str | None = None) -> "TensorSpec":
        """The spec of ``tensor`` (its shape and dtype)."""
        if isinstance(tensor, Tensor):
            return cls(tensor.shape, tensor.dtype, name)
        if isinstance(tensor, np.ndarray):
            return cls(tensor.shape, tensor.dtype, name)
        raise ValueError(f"`tensor` should be a tf.Tensor; got {type(tensor).__name__}: {tensor!r}")

    @classmethod
    def from_spec(cls, spec: "TensorSpec", name: str | None = None) -> "TensorSpec":
        """A copy of ``spec`` (with ``name``, if given)."""
        return cls(spec.shape, spec.dtype, spec.name if name is None else name)

    def is_compatible_with(self, spec_or_tensor: Any) -> bool:
        """Whether a tensor or spec has this dtype and a shape compatible with this one."""
        other = spec_or_tensor
        if isinstance(other, (TensorSpec, Tensor)):
            return self._dtype == other.dtype and self._shape.is_compatible_with(other.shape)
        return False

    def is_subtype_of(self, other: Any) -> bool:
        """Whether every tensor this spec describes is also described by ``other`` (TF's rule:
        same dtype and name; ``other``'s shape is this one's with some dimensions unknown)."""
        if type(other) is not TensorSpec or other._dtype != self._dtype or other._name != self._name:
            return False
        o = other._shape
        if o.rank is None:
            return True
        if self._shape.rank is None or len(o) != len(self._shape):
            return False
        return all(b is None or a == b for a, b in zip(self._shape, o))

    def most_specific_common_supertype(self, others: list) -> "TensorSpec | None":
        """The most specific spec that describes this and every spec in ``others`` (None: none)."""
        shape = self._shape
        for o in others:
            if type(o) is not TensorSpec or o._dtype != self._dtype or o._name != self._name:
                return None
            shape = shape.most_specific_compatible_shape(o._shape)
        return TensorSpec(shape, self._dtype, self._name)

    def _key(self) -> tuple:
        s = self._shape
        return (None if s.rank is None else tuple(s), self._dtype, self._name)

    def __eq__(self, other: Any) -> bool:
        return type(other) is TensorSpec and self._key() == other._key()

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        s = self._shape
        shape = "<unknown>" if s.rank is None else str(s)
        return f"TensorSpec(shape={shape}, dtype={self._dtype!r}, name={self._name!r})"

    def __reduce__(self) -> Any:
        return TensorSpec, (None if self._shape.rank is None else list(self._shape), self._dtype.name,
                            self._name)
