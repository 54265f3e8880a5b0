"""``tf.TypeSpec``, the base of the type specs, and ``tf.TensorSpec`` (a tensor's shape, possibly
partial, and dtype), ``tf.IndexedSlicesSpec`` and ``tf.NoneTensorSpec``."""
from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes as _dt
from ._tensor import IndexedSlices, Tensor, TensorShape


class TypeSpec:
    """The base class of the type specs: the type of a tensor or composite value, without its
    values (``tf.TensorSpec``, ``tf.RaggedTensorSpec``, ``tf.SparseTensorSpec``,
    ``tf.IndexedSlicesSpec``, ``tf.TensorArraySpec``, ``tf.OptionalSpec``, ``tf.NoneTensorSpec``,
    ``tf.data.DatasetSpec``, ``tf.data.IteratorSpec``, an extension type's ``Spec``).

    >>> import tapegrad as tf
    >>> isinstance(tf.TensorSpec([2], tf.float32), tf.TypeSpec)
    True
    >>> tf.IndexedSlicesSpec([None, 3]).value_type.__name__
    'IndexedSlices'
    """

    __slots__ = ()  # (subclasses of composite values give ``value_type``; tapegrad tells them by it)

    def is_compatible_with(self, spec_or_value: Any) -> bool:
        """Whether ``spec_or_value`` (a spec, or a value with a ``_type_spec``) is of this type, with
        compatible shapes."""
        other = spec_or_value if isinstance(spec_or_value, TypeSpec) else getattr(spec_or_value, "_type_spec", None)
        if callable(other) and not isinstance(other, TypeSpec):
            other = other()
        return isinstance(other, TypeSpec) and type(other) is type(self) and self._compatible(other)

    def _compatible(self, other: "TypeSpec") -> bool:
        return self == other

    def is_subtype_of(self, other: Any) -> bool:
        """Whether every value this spec describes is also described by ``other``."""
        return self == other

    def most_specific_common_supertype(self, others: list) -> "TypeSpec | None":
        """The most specific spec describing this one and ``others`` (None: none)."""
        return self if all(o == self for o in others) else None


class TensorSpec(TypeSpec):
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


def _shape_eq(a: TensorShape, b: TensorShape) -> bool:
    return (a.rank is None and b.rank is None) or (a.rank == b.rank and a.rank is not None and list(a) == list(b))


class IndexedSlicesSpec(TypeSpec):
    """The type of an ``IndexedSlices`` (a sparse gradient): its dense ``shape``, ``dtype``, the
    dtype of its indices and of its dense shape (None: it has none), and ``indices_shape``.

    >>> import tapegrad as tf
    >>> tf.IndexedSlicesSpec([None, 3])
    IndexedSlicesSpec(TensorShape([None, 3]), tf.float32, tf.int64, None, TensorShape([None]))
    """

    __slots__ = ("_shape", "_values_dtype", "_indices_dtype", "_dense_shape_dtype", "_indices_shape")

    def __init__(self, shape: Any = None, dtype: Any = _dt.float32, indices_dtype: Any = _dt.int64,
                 dense_shape_dtype: Any = None, indices_shape: Any = None) -> None:
        self._shape = TensorShape(shape)
        self._values_dtype = _dt.as_dtype(dtype)
        self._indices_dtype = _dt.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else _dt.as_dtype(dense_shape_dtype)
        self._indices_shape = TensorShape([None] if indices_shape is None else indices_shape)
        if self._indices_shape.rank != 1:
            raise ValueError(f"indices_shape must have rank 1, got {self._indices_shape}")

    @property
    def value_type(self) -> type:
        return IndexedSlices

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> _dt.DType:
        return self._values_dtype

    def _compatible(self, other: TypeSpec) -> bool:
        o: Any = other
        return (o._values_dtype == self._values_dtype and o._indices_dtype == self._indices_dtype
                and self._shape.is_compatible_with(o._shape))

    def __eq__(self, other: Any) -> bool:
        return (type(other) is IndexedSlicesSpec and _shape_eq(self._shape, other._shape)
                and (self._values_dtype, self._indices_dtype, self._dense_shape_dtype)
                == (other._values_dtype, other._indices_dtype, other._dense_shape_dtype)
                and _shape_eq(self._indices_shape, other._indices_shape))

    def __hash__(self) -> int:
        return hash((repr(self),))

    def __repr__(self) -> str:
        return (f"IndexedSlicesSpec({self._shape!r}, {self._values_dtype!r}, {self._indices_dtype!r}, "
                f"{self._dense_shape_dtype!r}, {self._indices_shape!r})")


class NoneTensorSpec(TypeSpec):
    """The type of a ``None`` that stands where a tensor may be (TensorFlow's ``NoneTensor``).

    >>> import tapegrad as tf
    >>> tf.NoneTensorSpec().is_compatible_with(tf.NoneTensorSpec())
    True
    """

    __slots__ = ()

    @property
    def value_type(self) -> type:
        return type(None)

    def is_compatible_with(self, spec_or_value: Any) -> bool:
        return spec_or_value is None or isinstance(spec_or_value, NoneTensorSpec)

    def __eq__(self, other: Any) -> bool:
        return type(other) is NoneTensorSpec

    def __hash__(self) -> int:
        return hash(NoneTensorSpec)

    def __repr__(self) -> str:
        return "NoneTensorSpec()"
