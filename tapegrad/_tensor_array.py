"""``tf.TensorArray``, as TensorFlow runs it eagerly: a Python list of tensors.

Reads, ``stack``, ``gather`` and ``concat`` are tapegrad ops on the stored tensors, and
``unstack``/``scatter``/``split`` store the outputs of tapegrad ops, so gradients flow through a
TensorArray as through any other tensors (write → stack and unstack → read as in TensorFlow).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes as _dt
from ._convert import convert_to_tensor
from ._spec import TypeSpec
from ._tensor import Tensor, TensorShape
from ._variable import Variable
from .errors import InvalidArgumentError, OutOfRangeError
from .ops.array import concat, split, stack, unstack, zeros

__all__ = ["TensorArray"]


def _index(i: Any) -> int:
    if isinstance(i, (Tensor, Variable)):
        i = i.numpy()
    return int(i)


class TensorArray:
    """A list of tensors of one dtype, written and read by index (TensorFlow's eager TensorArray).

    ``write``, ``unstack``, ``scatter`` and ``split`` return the TensorArray itself, so TensorFlow's
    ``ta = ta.write(i, x)`` style works. ``size`` is required; with ``dynamic_size=True`` writes
    past the end grow the array. With ``clear_after_read`` (the default) an element can be read
    once. An element never written reads as zeros of ``element_shape`` (known once one element
    has been written, when ``infer_shape``). Gradients flow from ``stack``/``read``/``gather``/
    ``concat`` back to what was written.

    >>> import tapegrad as tf
    >>> x = tf.constant([1.0, 2.0, 3.0])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     ta = tf.TensorArray(tf.float32, size=3)
    ...     for i in range(3):
    ...         ta = ta.write(i, x[i] ** 2)
    ...     y = tf.reduce_sum(ta.stack())
    >>> tape.gradient(y, x).numpy()
    array([2., 4., 6.], dtype=float32)
    """

    def __init__(self, dtype: Any, size: Any = None, dynamic_size: Any = None,
                 clear_after_read: Any = None, tensor_array_name: Any = None, handle: Any = None,
                 flow: Any = None, infer_shape: bool = True, element_shape: Any = None,
                 colocate_with_first_write_call: bool = True, name: Any = None) -> None:
        if handle is not None:
            raise ValueError("TensorArray handles are not supported when executing eagerly "
                             "(tapegrad always does): pass dtype and size instead.")
        if size is None:
            raise ValueError("TensorArray needs size= (the number of elements; 0 with "
                             "dynamic_size=True to grow as you write), as in TensorFlow's eager mode.")
        self._dtype = _dt.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        self._clear_after_read = True if clear_after_read is None else bool(clear_after_read)
        self._infer_shape = infer_shape
        self._element_shape = TensorShape(element_shape)
        self._read_before: set = set()
        n = _index(size)
        if n < 0:
            raise ValueError(f"TensorArray size must be >= 0, got {n}.")
        self._items: list = [None] * n

    @property
    def _type_spec(self) -> "TensorArraySpec":
        return TensorArraySpec(self._element_shape, self._dtype, self._dynamic_size, self._infer_shape)

    def __repr__(self) -> str:
        return (f"<tapegrad.TensorArray: dtype={self._dtype.name}, size={len(self._items)}, "
                f"element_shape={self._element_shape}>")

    @property
    def dtype(self) -> _dt.DType:
        return self._dtype

    @property
    def dynamic_size(self) -> bool:
        return self._dynamic_size

    @property
    def element_shape(self) -> TensorShape:
        """The elements' shape as far as known (``TensorShape(None)`` before the first write)."""
        return self._element_shape

    @property
    def handle(self) -> None:
        return None

    def identity(self) -> "TensorArray":
        """This TensorArray (nothing to order when executing eagerly)."""
        return self

    def size(self, name: Any = None) -> Tensor:
        """The number of elements, an int32 scalar."""
        return convert_to_tensor(np.int32(len(self._items)))

    def close(self, name: Any = None) -> None:
        """Drop every element (the size becomes 0)."""
        del self._items[:]

    # ------------------------------------------------------------------------ writing
    def _convert(self, value: Any, what: str) -> Tensor:
        t = value if type(value) is Tensor else convert_to_tensor(value, dtype_hint=self._dtype)
        if t._value.dtype != self._dtype._np:
            raise InvalidArgumentError(
                f"TensorArray dtype is {self._dtype.name} but Op is trying to write dtype "
                f"{t.dtype.name} ({what}). Cast the value with tf.cast, or make the TensorArray "
                f"with dtype={t.dtype.name}.")
        return t

    def _check_shape(self, t: Tensor, what: str) -> None:
        if not self._element_shape.is_compatible_with(t.shape):
            raise ValueError(f"Incompatible shape for value ({t.shape}), expected "
                             f"({self._element_shape}) ({what}): every element of a TensorArray has "
                             "one shape; pass infer_shape=False to allow others.")
        if self._infer_shape:
            self._element_shape = self._element_shape.merge_with(t.shape)

    def _write(self, index: Any, value: Any) -> None:
        i = _index(index)
        if i < 0:
            raise OutOfRangeError(f"Writing to negative indices (index {i}) is not allowed.")
        n = len(self._items)
        if i >= n:
            if not self._dynamic_size:
                raise OutOfRangeError(f"Tried to write to index {i} but array is not resizeable "
                                      f"and size is: {n} (make it with dynamic_size=True to grow).")
            self._items.extend([None] * (i - n + 1))
        t = self._convert(value, f"write({i}, ...)")
        self._check_shape(t, f"write({i}, ...)")
        self._items[i] = t

    def write(self, index: Any, value: Any, name: Any = None) -> "TensorArray":
        """Store ``value`` at ``index``; returns the TensorArray."""
        self._write(index, value)
        return self

    def unstack(self, value: Any, name: Any = None) -> "TensorArray":
        """Store the rows of ``value`` as the elements (the size becomes the number of rows)."""
        t = self._convert(value, "unstack")
        if t._value.ndim == 0:
            raise InvalidArgumentError("TensorArray.unstack needs a value of rank >= 1, got a scalar.")
        rows = unstack(t)
        if len(rows) > len(self._items) and not self._dynamic_size:
            raise ValueError(f"Cannot unstack {len(rows)} tensors into a TensorArray of static "
                             f"size {len(self._items)} (make it with dynamic_size=True to grow).")
        if rows:
            self._check_shape(rows[0], "unstack")
        self._items = rows
        return self

    def scatter(self, indices: Any, value: Any, name: Any = None) -> "TensorArray":
        """Store the rows of ``value`` at ``indices``."""
        t = self._convert(value, "scatter")
        idx = np.asarray(indices.numpy() if isinstance(indices, Tensor) else indices).reshape(-1)
        rows = unstack(t)
        if len(idx) != len(rows):
            raise InvalidArgumentError(f"TensorArray.scatter got {len(idx)} indices for a value "
                                       f"with {len(rows)} rows.")
        for i, row in zip(idx, rows):
            self._write(int(i), row)
        return self

    def split(self, value: Any, lengths: Any, name: Any = None) -> "TensorArray":
        """Store consecutive pieces of ``value`` (along axis 0) of the given ``lengths``."""
        t = self._convert(value, "split")
        ls = np.asarray(lengths.numpy() if isinstance(lengths, Tensor) else lengths)
        if ls.ndim != 1:
            raise InvalidArgumentError(f"Expected lengths to be a vector, received shape: {list(ls.shape)}")
        if t._value.ndim == 0:
            raise InvalidArgumentError("Expected value to be at least a vector, but received shape: []")
        if int(ls.sum()) != t._value.shape[0]:
            raise InvalidArgumentError(
                f"Expected sum of lengths to be equal to values.shape[0], but sum of lengths is "
                f"{int(ls.sum())} and value's shape is: {list(t._value.shape)}")
        if not self._dynamic_size and len(ls) != len(self._items):
            raise InvalidArgumentError(
                f"TensorArray's size is not equal to the size of lengths ({len(self._items)} vs. "
                f"{len(ls)}), and the TensorArray is not marked as dynamically resizeable.")
        self._items = split(t, [int(v) for v in ls])
        return self

    # ------------------------------------------------------------------------ reading
    def _zeros_at(self, i: int) -> Tensor:
        t = self._items[i]
        if t is None:
            if not self._element_shape.is_fully_defined():
                raise ValueError(
                    f"TensorArray element {i} was never written and the element shape "
                    f"({self._element_shape}) is not fully known, so no zeros can stand in for it. "
                    "Write it first, or make the TensorArray with element_shape=.")
            t = self._items[i] = zeros(self._element_shape.as_list(), self._dtype)
        return t

    def _check_index(self, i: int, verb: str) -> None:
        if i < 0:
            raise OutOfRangeError(f"{verb.capitalize()} from negative indices (index {i}) is not allowed.")
        if i >= len(self._items):
            raise OutOfRangeError(f"Tried to {verb} from index {i} but array size is: {len(self._items)}")

    def read(self, index: Any, name: Any = None) -> Tensor:
        """The element at ``index`` (zeros if never written; see ``clear_after_read``)."""
        i = _index(index)
        self._check_index(i, "read")
        if self._items[i] is None and i in self._read_before:
            raise InvalidArgumentError(
                f"Could not read index {i} twice because it was cleared after a previous read "
                "(perhaps try setting clear_after_read = false?)")
        t = self._zeros_at(i)
        if self._clear_after_read:
            self._items[i] = None
            self._read_before.add(i)
        return t

    def stack(self, name: Any = None) -> Tensor:
        """The elements stacked along a new axis 0."""
        if not self._items:
            shape = self._element_shape.as_list() if self._element_shape.is_fully_defined() else []
            return zeros([0] + shape, self._dtype)
        return stack([self._zeros_at(i) for i in range(len(self._items))])

    def gather(self, indices: Any, name: Any = None) -> Tensor:
        """The elements at ``indices``, stacked."""
        idx = np.asarray(indices.numpy() if isinstance(indices, Tensor) else indices).reshape(-1)
        for i in idx:
            self._check_index(int(i), "gather")
        return stack([self._zeros_at(int(i)) for i in idx])

    def concat(self, name: Any = None) -> Tensor:
        """The elements joined along their axis 0."""
        items = [self._zeros_at(i) for i in range(len(self._items))]
        for i, t in enumerate(items):
            if t._value.ndim == 0:
                raise InvalidArgumentError(f"Concat saw a scalar shape at index {i} but requires "
                                           "at least vectors.")
        return concat(items, 0)


class TensorArraySpec(TypeSpec):
    """The type of a :class:`TensorArray`: its elements' shape and dtype, ``dynamic_size`` and
    ``infer_shape``.

    >>> import tapegrad as tf
    >>> tf.TensorArraySpec([2], tf.int32).is_compatible_with(tf.TensorArray(tf.int32, 1, element_shape=[2]))
    True
    """

    __slots__ = ("_element_shape", "_dtype", "_dynamic_size", "_infer_shape")

    def __init__(self, element_shape: Any = None, dtype: Any = _dt.float32, dynamic_size: bool = False,
                 infer_shape: bool = True) -> None:
        self._element_shape = TensorShape(element_shape)
        self._dtype = _dt.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        self._infer_shape = bool(infer_shape)

    @property
    def value_type(self) -> type:
        return TensorArray

    @staticmethod
    def from_value(value: Any) -> "TensorArraySpec":
        """The spec of a TensorArray."""
        if not isinstance(value, TensorArray):
            raise ValueError(f"Expected value to be a TensorArray, but saw: {type(value).__name__}")
        return value._type_spec

    def _compatible(self, other: TypeSpec) -> bool:
        o: Any = other
        return (o._dtype == self._dtype and o._dynamic_size == self._dynamic_size
                and self._element_shape.is_compatible_with(o._element_shape))

    def __eq__(self, other: Any) -> bool:
        return type(other) is TensorArraySpec and repr(other) == repr(self)

    def __hash__(self) -> int:
        return hash(repr(self))

    def __repr__(self) -> str:
        return (f"TensorArraySpec({self._element_shape!r}, {self._dtype!r}, {self._dynamic_size}, "
                f"{self._infer_shape})")
