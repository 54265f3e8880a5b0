"""Elements of datasets: nests (tuples, namedtuples, dicts) whose leaves are NumPy values.

Inside a pipeline an element is a nest of NumPy arrays or scalars (strings as ``bytes`` or
object arrays of ``bytes``, nested datasets as themselves); it becomes tapegrad tensors (string
tensors for text) only where it leaves the pipeline (iteration, the user functions of ``map``, ``filter``, ...).
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable

import numpy as np

from .. import _nest, dtypes as _dt
from .._backend import ArrayTensor, Boxed
from .._convert import convert_to_tensor
from .._spec import TensorSpec, TypeSpec
from .._tensor import Tensor, TensorShape, wrap
from ..ragged import RaggedTensor, RaggedTensorSpec
from ..sparse import SparseTensor, SparseTensorSpec


def tensor_spec(shape: Any, dtype: Any) -> TensorSpec:
    """The spec of an element component."""
    return TensorSpec(shape, dtype)


class RaggedValue:
    """A RaggedTensor inside a pipeline: its flat values and row splits as NumPy arrays (what
    TensorFlow calls a ``RaggedTensorValue``). Indexing takes rows, as a dataset slices them: an
    int gives a row (an array, or a RaggedValue when nested), a slice, range or index array a
    RaggedValue of those rows."""

    __slots__ = ("flat", "splits", "splits_dtype")

    def __init__(self, flat: np.ndarray, splits: list, splits_dtype: Any) -> None:
        self.flat, self.splits, self.splits_dtype = flat, splits, splits_dtype

    @classmethod
    def of(cls, rt: RaggedTensor) -> "RaggedValue":
        return cls(rt.flat_values._value, [s._value for s in rt.nested_row_splits], rt.row_splits_dtype)

    @classmethod
    def from_rows(cls, rows: list) -> "RaggedValue":
        """Rows (arrays of one inner shape, or RaggedValues of one ragged rank) as a RaggedValue."""
        if all(isinstance(r, RaggedValue) for r in rows):
            n = np.array([len(r) for r in rows], np.int64)
            inner = [RaggedValue._concat(rows)]
            top = np.concatenate([[0], np.cumsum(n)]).astype(rows[0].splits_dtype._np)
            return cls(inner[0].flat, [top] + inner[0].splits, rows[0].splits_dtype)
        arrays = [np.asarray(r) for r in rows]
        if len({a.shape[1:] for a in arrays}) > 1 or any(a.ndim == 0 for a in arrays):
            from ..errors import InvalidArgumentError
            raise InvalidArgumentError(
                "Cannot batch these elements into a RaggedTensor: they need rank >= 1 and the "
                f"same dimensions after the first, got shapes {sorted({a.shape for a in arrays})}.")
        lens = np.array([a.shape[0] for a in arrays], np.int64)
        flat = np.concatenate(arrays) if arrays else np.zeros((0,), np.float32)
        return cls(flat, [np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)], _dt.int64)

    @staticmethod
    def _concat(rows: list) -> "RaggedValue":
        flat = np.concatenate([r.flat for r in rows])
        splits = []
        for level in range(len(rows[0].splits)):
            parts, off = [np.zeros(1, np.int64)], 0
            for r in rows:
                sp = r.splits[level].astype(np.int64)
                parts.append(sp[1:] + off)
                off += int(sp[-1])
            splits.append(np.concatenate(parts).astype(rows[0].splits[level].dtype))
        return RaggedValue(flat, splits, rows[0].splits_dtype)

    def __len__(self) -> int:
        return self.splits[0].shape[0] - 1

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, (int, np.integer)):
            return self._rows(np.array([int(key) % len(self)]), one=True)
        idx = np.arange(len(self))[key] if isinstance(key, (slice, range)) else np.asarray(key)
        return self._rows(idx.astype(np.int64), one=False)

    def _rows(self, idx: np.ndarray, one: bool) -> Any:
        splits, lens = [], None
        for level, sp in enumerate(self.splits):
            starts, stops = sp[idx], sp[idx + 1]
            lens = stops - starts
            if not (one and level == 0):
                splits.append(np.concatenate([[0], np.cumsum(lens)]).astype(sp.dtype))
            total = int(lens.sum())
            offs = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
            idx = np.arange(total, dtype=np.int64) - np.repeat(offs - starts.astype(np.int64), lens)
        flat = self.flat[idx]
        if one and not splits:
            return flat
        return RaggedValue(flat, splits, self.splits_dtype)

    def tensor(self) -> RaggedTensor:
        return RaggedTensor.from_nested_row_splits(wrap(self.flat), [wrap(s) for s in self.splits],
                                                   validate=False)

    def spec(self, rows: bool = False) -> RaggedTensorSpec:
        """Its spec; ``rows``: the spec of one of its rows (as ``from_tensor_slices`` gives them)."""
        rt = self.tensor()
        shape = list(rt.shape)
        return RaggedTensorSpec(shape[1:] if rows else shape, _dt._from_np(self.flat.dtype),
                                rt.ragged_rank - rows, self.splits_dtype)


class SparseValue:
    """A SparseTensor inside a pipeline: its indices, values and dense shape as NumPy arrays (what
    TensorFlow calls a ``SparseTensorValue``). Indexing takes rows (entries of the first
    dimension), as a dataset slices it; ``from_rows`` batches rows into one of rank one more,
    each dimension the largest of the rows' (TensorFlow's batching of SparseTensors)."""

    __slots__ = ("indices", "values", "shape")

    def __init__(self, indices: np.ndarray, values: np.ndarray, shape: np.ndarray) -> None:
        self.indices, self.values, self.shape = indices, values, shape

    @classmethod
    def of(cls, st: SparseTensor) -> "SparseValue":
        return cls(st.indices._value, st.values._value, st.dense_shape._value)

    @classmethod
    def from_rows(cls, rows: list) -> "SparseValue":
        if not all(type(r) is SparseValue for r in rows) or len({len(r.shape) for r in rows}) > 1:
            from ..errors import InvalidArgumentError
            raise InvalidArgumentError("Cannot batch these elements: SparseTensors batch only with SparseTensors "
                                       "of one rank.")
        idx = [np.concatenate([np.full((len(r.indices), 1), i, np.int64), r.indices], 1) for i, r in enumerate(rows)]
        shape = np.concatenate([[len(rows)], np.max([r.shape for r in rows], axis=0)]).astype(np.int64)
        return cls(np.concatenate(idx), np.concatenate([r.values for r in rows]), shape)

    def __len__(self) -> int:
        return int(self.shape[0])

    def __getitem__(self, key: Any) -> "SparseValue":
        if isinstance(key, (int, np.integer)):
            keep = self.indices[:, 0] == int(key) % len(self)
            return SparseValue(self.indices[keep, 1:], self.values[keep], self.shape[1:])
        rows = np.arange(len(self))[key] if isinstance(key, (slice, range)) else np.asarray(key, np.int64)
        parts = [np.flatnonzero(self.indices[:, 0] == r) for r in rows]
        at = np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, np.int64)
        idx = self.indices[at].copy()
        idx[:, 0] = np.repeat(np.arange(len(rows)), [len(p) for p in parts])
        return SparseValue(idx, self.values[at], np.concatenate([[len(rows)], self.shape[1:]]).astype(np.int64))

    def tensor(self) -> SparseTensor:
        return SparseTensor(wrap(self.indices), wrap(self.values), wrap(self.shape))

    def spec(self, rows: bool = False) -> SparseTensorSpec:
        """Its spec; ``rows``: the spec of one of its rows (as ``from_tensor_slices`` gives them)."""
        shape = [int(d) for d in self.shape]
        return SparseTensorSpec(shape[1:] if rows else shape, _dt._from_np(self.values.dtype))


class ExtensionValue:
    """An extension type's value inside a pipeline (``tf.experimental.BatchableExtensionType``):
    its spec and its components as NumPy arrays. Its rows are the rows of every component (and
    the spec unbatched, a ``TensorShape`` field losing its first dimension), as TensorFlow's
    default batch encoder slices and stacks it."""

    __slots__ = ("parts", "type_spec")

    def __init__(self, type_spec: Any, parts: list) -> None:
        self.type_spec, self.parts = type_spec, parts

    @classmethod
    def of(cls, x: Any) -> "ExtensionValue":
        return cls(x._type_spec, [value(c) for c in x._components()])

    def _batchable(self) -> Any:
        if not hasattr(self.type_spec, "_unbatch"):
            raise AttributeError(f"{self.type_spec.value_type.__name__} is not batchable: a dataset slices or batches "
                            "only a tf.experimental.BatchableExtensionType.")
        return self.type_spec

    @classmethod
    def from_rows(cls, rows: list) -> "ExtensionValue":
        spec = rows[0]._batchable()  # (of unknown batch size, as TensorFlow decodes a batch with the element spec)
        return cls(spec._batch(None), [np.stack(col) for col in zip(*(r.parts for r in rows))])

    def __len__(self) -> int:
        self._batchable()
        return int(np.shape(self.parts[0])[0]) if self.parts else 0

    def __getitem__(self, key: Any) -> "ExtensionValue":
        spec = self._batchable()
        if isinstance(key, (int, np.integer)):
            return ExtensionValue(spec._unbatch(), [p[key] for p in self.parts])
        idx = np.arange(len(self))[key] if isinstance(key, (slice, range)) else np.asarray(key)
        return ExtensionValue(spec._unbatch()._batch(None), [p[idx] for p in self.parts])

    def tensor(self) -> Any:
        return self.type_spec._from_components([wrap(p) for p in self.parts])

    def spec(self, rows: bool = False) -> Any:
        """Its spec; ``rows``: the spec of one of its rows."""
        return self._batchable()._unbatch() if rows else self.type_spec


COMPOSITE_VALUES = (RaggedValue, SparseValue, ExtensionValue)


class DatasetSpec(TypeSpec):
    """The type of a dataset (``tf.data.DatasetSpec``): its ``element_spec`` and
    ``dataset_shape`` (``[]`` for one dataset); the spec of the elements of ``window``.

    >>> import tapegrad as tf
    >>> tf.data.DatasetSpec(tf.TensorSpec([], tf.int64)) == tf.type_spec_from_value(tf.data.Dataset.range(3))
    True
    """

    __slots__ = ("element_spec", "_dataset_shape")

    def __init__(self, element_spec: Any, dataset_shape: Any = ()) -> None:
        self.element_spec = element_spec
        self._dataset_shape = TensorShape(dataset_shape)

    _VALUE_TYPE: Any = None  # (tf.data.Dataset: set by the dataset module, which imports this one)

    @property
    def value_type(self) -> type:
        return DatasetSpec._VALUE_TYPE

    @staticmethod
    def from_value(value: Any) -> "DatasetSpec":
        """The spec of a dataset."""
        return DatasetSpec(value.element_spec)

    def _compatible(self, other: TypeSpec) -> bool:
        o: Any = other
        a, b = _nest.flatten(self.element_spec), _nest.flatten(o.element_spec)
        return len(a) == len(b) and all(x.is_compatible_with(y) for x, y in zip(a, b))

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, DatasetSpec) and other.element_spec == self.element_spec
                and list(other._dataset_shape) == list(self._dataset_shape))

    def __hash__(self) -> int:
        return hash(repr(self))

    def __repr__(self) -> str:
        return f"DatasetSpec({self.element_spec!r}, {self._dataset_shape!r})"


class IteratorSpec(TypeSpec):
    """The type of a dataset's iterator (``tf.data.IteratorSpec``): its ``element_spec``.

    >>> import tapegrad as tf
    >>> tf.type_spec_from_value(iter(tf.data.Dataset.range(3)))
    IteratorSpec(TensorSpec(shape=(), dtype=tf.int64, name=None),)
    """

    __slots__ = ("element_spec",)

    def __init__(self, element_spec: Any) -> None:
        self.element_spec = element_spec

    _VALUE_TYPE: Any = None  # (the iterator type: set by the dataset module, which imports this one)

    @property
    def value_type(self) -> type:
        return IteratorSpec._VALUE_TYPE

    @staticmethod
    def from_value(value: Any) -> "IteratorSpec":
        """The spec of an iterator."""
        return IteratorSpec(value.element_spec)

    _compatible = DatasetSpec._compatible

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, IteratorSpec) and other.element_spec == self.element_spec

    def __hash__(self) -> int:
        return hash(repr(self))

    def __repr__(self) -> str:
        return f"IteratorSpec({self.element_spec!r},)"


def is_text(v: Any) -> bool:
    return type(v) is bytes or (type(v) is np.ndarray and v.dtype == object)


def _text(x: Any) -> Any:
    a = np.asarray(x, dtype=object)
    out = np.empty(a.shape, dtype=object)
    for i, s in enumerate(a.flat):
        out.flat[i] = s.encode() if isinstance(s, str) else bytes(s)
    return out[()] if out.ndim == 0 else out


def value(x: Any, lazy: bool = False) -> Any:
    """A leaf as a NumPy value, by TensorFlow's conversion rules (strings become bytes). A Dask
    tensor is computed here (a map's result: one element at a time) unless ``lazy``, where its
    :class:`~tapegrad._backend.Boxed` value is kept for the dataset to compute when iterated."""
    if type(x) is Tensor:
        return x._value
    if type(x) is ArrayTensor:
        return x._value if lazy else computed(x._value)
    if isinstance(x, (str, bytes)):
        return x.encode() if isinstance(x, str) else x
    if isinstance(x, np.ndarray) and x.dtype.kind in "USO":
        return _text(x)
    if isinstance(x, RaggedTensor):
        return RaggedValue.of(x)
    if isinstance(x, SparseTensor):
        return SparseValue.of(x)
    if getattr(x, "_TRACED_BY_COMPONENTS", False):  # (an extension type)
        return ExtensionValue.of(x)
    try:
        return convert_to_tensor(x)._value
    except TypeError:
        if isinstance(x, list) and np.asarray(x).dtype.kind in "US":
            return _text(x)
        raise


def computed(v: Any) -> Any:
    """A leaf's value as NumPy: a backend array (:class:`~tapegrad._backend.Boxed`) computed or
    copied to the host."""
    return v.backend.to_numpy(v.a) if type(v) is Boxed else v


def normalize(x: Any, lists_are_tuples: bool, lazy: bool = False) -> Any:
    """``x`` as an element: tuples, namedtuples and dicts kept as structure, leaves converted
    (lists are tensors, as in ``from_tensor_slices``, or tuples, as in ``map``'s results;
    ``lazy``: see :func:`value`)."""
    if type(x) is Tensor:
        return x._value
    if isinstance(x, tuple) or (lists_are_tuples and isinstance(x, list)):
        items = [normalize(v, lists_are_tuples, lazy) for v in x]
        return type(x)(*items) if hasattr(x, "_fields") else tuple(items)
    if isinstance(x, dict):
        d = {k: normalize(v, lists_are_tuples, lazy) for k, v in x.items()}
        return OrderedDict(d) if isinstance(x, OrderedDict) else d  # (TF keeps an OrderedDict's type)
    if _is_dataset(x):
        return x
    return value(x, lazy)


def _is_dataset(x: Any) -> bool:
    return hasattr(x, "_elements") and hasattr(x, "element_spec")


def packer(template: Any) -> Callable[[list], Any]:
    """A function from a flat list of leaves to an element shaped as ``template``."""
    if not isinstance(template, (tuple, dict)):
        return _first
    if type(template) is tuple and not any(isinstance(c, (tuple, dict)) for c in template):
        return tuple
    return lambda flat: _nest.pack_sequence_as(template, flat)


def _first(flat: list) -> Any:
    return flat[0]


def leaf_spec(v: Any) -> Any:
    if type(v) in COMPOSITE_VALUES:
        return v.spec()
    if _is_dataset(v):
        return DatasetSpec(v.element_spec)
    if is_text(v):
        return tensor_spec(np.shape(v), _dt.string)
    return tensor_spec(v.shape, _dt._from_np(v.dtype))


def spec_of(e: Any) -> Any:
    return _nest.map_structure(leaf_spec, e)


def unbatched_spec(s: Any) -> Any:
    """The spec of one row of a component of spec ``s``."""
    if isinstance(s, RaggedTensorSpec):
        return RaggedTensorSpec(s.shape[1:], s.dtype, s.ragged_rank - 1, s.row_splits_dtype)
    if isinstance(s, SparseTensorSpec):
        return SparseTensorSpec(s.shape[1:], s.dtype)
    if hasattr(s, "_unbatch"):  # (a batchable extension type's spec)
        return s._unbatch()
    return tensor_spec(s.shape[1:], s.dtype)


def batched_spec(s: Any, dim: Any) -> Any:
    """The spec of a batch of ``dim`` components of spec ``s`` (a RaggedTensorSpec one ragged
    rank more)."""
    if isinstance(s, RaggedTensorSpec):
        return RaggedTensorSpec([dim, *s.shape], s.dtype, s.ragged_rank + 1, s.row_splits_dtype)
    if isinstance(s, SparseTensorSpec):
        return SparseTensorSpec([dim, *s.shape], s.dtype)
    if hasattr(s, "_batch"):  # (a batchable extension type's spec)
        return s._batch(dim)
    return tensor_spec([dim, *s.shape], s.dtype)


def _out(v: Any) -> Any:
    if type(v) is bytes:
        return wrap(np.array(v, dtype=object))
    if type(v) in COMPOSITE_VALUES:
        return v.tensor()
    if _is_dataset(v):
        return v
    return wrap(v)


def to_tensors(e: Any) -> Any:
    """An element as the user sees it: tensors (``tf.string`` ones for text)."""
    t = type(e)
    if t is np.ndarray or isinstance(e, np.generic):
        return wrap(e)
    if t is tuple and all(type(v) is np.ndarray or isinstance(v, np.generic) for v in e):
        return tuple(map(wrap, e))
    return _nest.map_structure(_out, e)


def _np_out(v: Any) -> Any:
    if type(v) is np.ndarray and v.ndim == 0:
        return v[()]
    if type(v) is RaggedValue:  # (its rows as NumPy arrays, as TensorFlow's)
        return v.tensor().numpy()
    if type(v) in (SparseValue, ExtensionValue):
        return v.tensor()
    return v


def to_numpy(e: Any) -> Any:
    """An element as ``as_numpy_iterator`` gives it: NumPy arrays and scalars, bytes."""
    if type(e) is np.ndarray or isinstance(e, np.generic):
        return _np_out(e)
    return _nest.map_structure(_np_out, e)


def stack(col: list, where: str, ragged: bool = False) -> Any:
    """One component of a batch: the components of ``col`` stacked on a new first axis (rows of
    a RaggedValue when ``ragged`` or when they are RaggedValues)."""
    first = col[0]
    if ragged or type(first) is RaggedValue:
        return RaggedValue.from_rows(col)
    if type(first) in (SparseValue, ExtensionValue):
        return type(first).from_rows(col)
    try:
        if is_text(first):
            out = np.empty((len(col),) + np.shape(first), dtype=object)
            for i, v in enumerate(col):
                if np.shape(v) != np.shape(first):
                    raise ValueError
                out[i] = v[()] if type(v) is np.ndarray and not v.ndim else v  # (a scalar tensor's value)
            return out
        return np.stack(col)
    except ValueError:
        shapes = [np.shape(v) for v in col]
        bad = next(i for i, s in enumerate(shapes) if s != shapes[0])
        from ..errors import InvalidArgumentError
        raise InvalidArgumentError(
            f"Cannot batch tensors with different shapes in {where}: the first element has shape "
            f"{list(shapes[0])} and element {bad} has shape {list(shapes[bad])}. Use padded_batch to "
            "pad them to a common shape, ragged_batch to batch them as a RaggedTensor, or make them "
            "one shape in map.") from None


def host_scalar(x: Any, dtype: Any, what: str) -> Any:
    """``x`` converted to a scalar of ``dtype`` as TensorFlow converts it, as a Python number."""
    v = np.asarray(convert_to_tensor(x, dtype=dtype)._value)
    if v.ndim:
        raise ValueError(f"`{what}` must be a scalar; got a value of shape {v.shape}.")
    return v.item()
