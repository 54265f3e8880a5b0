"""``tf.RaggedTensor``: rows of different lengths, as TensorFlow models them.

A ragged tensor is ``values`` (a Tensor, or another RaggedTensor for nested ragged dimensions) cut
into rows by a *row partition*: ``row_splits``, an int64 (or int32) vector from 0 to
``len(values)`` whose row ``i`` is ``values[row_splits[i]:row_splits[i + 1]]``. ``flat_values``
is the innermost Tensor: every op here works on it with ordinary tapegrad ops (gathers, segment
reductions), so a tape follows a ragged computation through its flat values, and gradients with
respect to a RaggedTensor come back as a RaggedTensor of the same partition.

Row partitions are read into NumPy (through ``host_value``, which a ``tf.function`` trace
guards); values stay tensors.
"""
from __future__ import annotations

import builtins
import re
from typing import Any, Iterator

import numpy as np

from .. import _strings, dtypes as _dt
from .._convert import convert_to_tensor, host_value
from .._spec import TypeSpec
from .._tensor import CompositeTensor, Tensor, TensorShape, constant_maker, wrap as _wrap
from ..errors import InvalidArgumentError
from ..ops.array import broadcast_to, concat, reshape
from ..ops.indexing import gather
from ..ops.math import cast
from ..ops.strings import as_string
from ..sparse._sparse_tensor import SparseTensor

__all__ = ["RaggedTensor", "RaggedTensorSpec", "DynamicRaggedShape"]

_SPLIT_DTYPES = (np.dtype(np.int64), np.dtype(np.int32))


def _np(t: Any, how: str) -> np.ndarray:
    """A row-partition tensor's value in NumPy (guarded in a tf.function trace)."""
    return host_value(t, how) if isinstance(t, Tensor) else np.asarray(t)


@constant_maker  # (row partitions read through host_value)
def _splits_tensor(x: Any, dtype: Any, what: str) -> Tensor:
    """A row-partition argument as an integer vector tensor (int64 unless it has its own dtype)."""
    t = convert_to_tensor(x, dtype_hint=_dt.int64 if dtype is None else dtype)
    if t._value.dtype not in _SPLIT_DTYPES:
        if t._value.dtype.kind in "iu" and not isinstance(x, Tensor):
            t = cast(t, _dt.int64 if dtype is None else _dt.as_dtype(dtype))
        else:
            raise TypeError(f"{what} must be an int32 or int64 tensor, got {t.dtype.name}.")
    if dtype is not None and t._value.dtype != _dt.as_dtype(dtype)._np:
        t = cast(t, _dt.as_dtype(dtype))  # (an op: a trace casts each call's splits)
    if t._value.ndim != 1:
        raise ValueError(f"{what} must be a vector (rank 1), got shape {list(t._value.shape)}.")
    return t


def _invalid(factory: str, why: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"Arguments to {factory} do not form a valid RaggedTensor: {why}.")


def _nvals(values: Any) -> int:
    return values.nrows_int() if isinstance(values, RaggedTensor) else values._value.shape[0]


@constant_maker  # (row partitions read through host_value)
def _as_values(values: Any) -> Any:
    if isinstance(values, RaggedTensor):
        return values
    v = convert_to_tensor(values)
    if v._value.ndim == 0:
        raise ValueError("values must have rank at least 1 (a RaggedTensor's values are its rows' "
                         f"items), got a scalar {v.dtype.name} tensor.")
    return v


class RaggedTensor(CompositeTensor):
    """A tensor whose rows have different lengths (TensorFlow's ``tf.RaggedTensor``).

    Made with :func:`tapegrad.ragged.constant` or the ``from_*`` factories; ``values`` cut at
    ``row_splits``, nested for more ragged dimensions (``ragged_rank``). Elementwise ops,
    operators, reductions over any axis, ``tf.concat``/``tf.stack``/``tf.gather`` take it as
    TensorFlow's do (docs/ragged.md).

    >>> import tapegrad as tf
    >>> r = tf.ragged.constant([[3, 1, 4], [], [1, 5]])
    >>> r
    <tf.RaggedTensor [[3, 1, 4], [], [1, 5]]>
    >>> r.shape, r.row_splits.numpy()
    (TensorShape([3, None]), array([0, 3, 3, 5]))
    >>> tf.reduce_sum(r, axis=1).numpy()
    array([8, 0, 6], dtype=int32)
    >>> (r * 2)[2]
    <tapegrad.Tensor: shape=(2,), dtype=int32, numpy=array([ 2, 10], dtype=int32)>
    """

    __slots__ = ("_values", "_row_splits", "_uniform")
    __array_priority__ = 100

    def __init__(self, values: Any, row_splits: Tensor, uniform_row_length: int | None = None,
                 internal: bool = False) -> None:
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the factory "
                             "methods instead (e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_splits
        self._uniform = uniform_row_length

    # ------------------------------------------------------------------ factories
    @classmethod
    def _make(cls, values: Any, splits: Tensor, factory: str, validate: bool,
              uniform: int | None = None) -> "RaggedTensor":
        values = _as_values(values)
        if validate:
            sp = _np(splits, factory)
            if sp.size == 0:
                raise _invalid(factory, "row_splits must not be empty (it starts with 0)")
            if sp[0] != 0:
                raise _invalid(factory, f"row_splits must start with 0, got {sp[0]}")
            if (np.diff(sp) < 0).any():
                raise _invalid(factory, f"row_splits must be non-decreasing, got {sp.tolist()}")
            if sp[-1] != _nvals(values):
                raise _invalid(factory, f"the last of row_splits ({sp[-1]}) must equal the number "
                                        f"of values ({_nvals(values)})")
        if isinstance(values, RaggedTensor) and values._row_splits._value.dtype != splits._value.dtype:
            raise ValueError("the row partitions of nested ragged dimensions have different dtypes "
                             f"({splits.dtype.name} and {values._row_splits.dtype.name}); use "
                             "with_row_splits_dtype to make them one.")
        return cls(values, splits, uniform, internal=True)

    @classmethod
    def from_row_splits(cls, values: Any, row_splits: Any, name: Any = None,
                        validate: bool = True) -> "RaggedTensor":
        """Row ``i`` is ``values[row_splits[i]:row_splits[i + 1]]``.

        >>> import tapegrad as tf
        >>> tf.RaggedTensor.from_row_splits([3, 1, 4, 1, 5], row_splits=[0, 3, 3, 5])
        <tf.RaggedTensor [[3, 1, 4], [], [1, 5]]>
        """
        return cls._make(values, _splits_tensor(row_splits, None, "row_splits"), "from_row_splits", validate)

    @classmethod
    @constant_maker  # (row partitions read through host_value)
    def from_row_lengths(cls, values: Any, row_lengths: Any, name: Any = None,
                         validate: bool = True) -> "RaggedTensor":
        """Rows of ``row_lengths[i]`` values each, in order.

        >>> import tapegrad as tf
        >>> tf.RaggedTensor.from_row_lengths([3, 1, 4, 1, 5], row_lengths=[3, 0, 2])
        <tf.RaggedTensor [[3, 1, 4], [], [1, 5]]>
        """
        lens = _splits_tensor(row_lengths, None, "row_lengths")
        lv = _np(lens, "from_row_lengths")
        if validate and (lv < 0).any():
            raise _invalid("from_row_lengths", f"row_lengths must be non-negative, got {lv.tolist()}")
        sp = np.concatenate([[0], np.cumsum(lv)]).astype(lv.dtype)
        return cls._make(values, _wrap(sp), "from_row_lengths", validate)

    @classmethod
    @constant_maker  # (the guarded indices and shape)
    def from_sparse(cls, st_input: Any, name: Any = None, row_splits_dtype: Any = _dt.int64) -> "RaggedTensor":
        """The rows of a rank-2 SparseTensor whose entries fill each row from column 0, in
        row-major order (``to_sparse``'s), as a RaggedTensor of ``dense_shape[0]`` rows.

        >>> import tapegrad as tf
        >>> st = tf.sparse.SparseTensor([[0, 0], [0, 1], [2, 0]], [3, 1, 4], [3, 2])
        >>> tf.RaggedTensor.from_sparse(st)
        <tf.RaggedTensor [[3, 1], [], [4]]>
        """
        if not isinstance(st_input, SparseTensor):
            raise TypeError(f"st_input must be a SparseTensor, got {type(st_input).__name__} "
                            "(tf.RaggedTensor.from_tensor takes a dense tensor).")
        shape = _np(st_input.dense_shape, "from_sparse")
        if shape.shape != (2,):
            raise ValueError(f"rank(st_input) must be 2, got {shape.shape[0]}.")
        idx = _np(st_input.indices, "from_sparse").astype(np.int64)
        rows, cols = idx[:, 0], idx[:, 1]
        starts = np.r_[True, rows[1:] != rows[:-1]] if rows.size else np.zeros(0, bool)
        first = np.maximum.accumulate(np.where(starts, np.arange(rows.size), 0)) if rows.size else rows
        if (np.diff(rows) < 0).any() or (cols != np.arange(rows.size) - first).any():
            raise InvalidArgumentError("SparseTensor is not right-ragged: each row's entries must be at columns "
                                       "0, 1, 2, ... in row-major order (tf.sparse.reorder sorts them).")
        splits = np.searchsorted(rows, np.arange(int(shape[0]) + 1)).astype(_dt.as_dtype(row_splits_dtype)._np)
        return cls.from_row_splits(st_input.values, _wrap(splits), validate=False)

    @classmethod
    @constant_maker  # (row partitions read through host_value)
    def from_value_rowids(cls, values: Any, value_rowids: Any, nrows: Any = None, name: Any = None,
                          validate: bool = True) -> "RaggedTensor":
        """Value ``j`` goes to row ``value_rowids[j]`` (non-decreasing); ``nrows`` rows (default:
        the last id + 1).

        >>> import tapegrad as tf
        >>> tf.RaggedTensor.from_value_rowids([3, 1, 4, 1, 5], [0, 0, 0, 2, 2], nrows=4)
        <tf.RaggedTensor [[3, 1, 4], [], [1, 5], []]>
        """
        ids = _np(_splits_tensor(value_rowids, None, "value_rowids"), "from_value_rowids")
        n = (int(ids[-1]) + 1 if ids.size else 0) if nrows is None else int(_np(convert_to_tensor(nrows), "nrows"))
        if validate:
            if (np.diff(ids) < 0).any() or (ids.size and ids[0] < 0):
                raise _invalid("from_value_rowids", f"value_rowids must be non-negative and "
                                                    f"non-decreasing, got {ids.tolist()}")
            if ids.size and ids[-1] >= n:
                raise _invalid("from_value_rowids", f"value_rowids ({ids[-1]}) must be less than "
                                                    f"nrows ({n})")
        counts = np.bincount(ids, minlength=n)[:n] if ids.size else np.zeros(n, np.int64)
        sp = np.concatenate([[0], np.cumsum(counts)]).astype(ids.dtype)
        return cls._make(values, _wrap(sp), "from_value_rowids", validate)

    @classmethod
    @constant_maker  # (row partitions read through host_value)
    def from_row_starts(cls, values: Any, row_starts: Any, name: Any = None,
                        validate: bool = True) -> "RaggedTensor":
        """Row ``i`` starts at ``row_starts[i]`` and ends where the next starts (the last at the end).

        >>> import tapegrad as tf
        >>> tf.RaggedTensor.from_row_starts([3, 1, 4, 1, 5], row_starts=[0, 3, 3])
        <tf.RaggedTensor [[3, 1, 4], [], [1, 5]]>
        """
        st = _splits_tensor(row_starts, None, "row_starts")
        v = _as_values(values)
        sp = np.concatenate([_np(st, "from_row_starts"), [_nvals(v)]]).astype(st._value.dtype)
        return cls._make(v, _wrap(sp), "from_row_starts", validate)

    @classmethod
    @constant_maker  # (row partitions read through host_value)
    def from_row_limits(cls, values: Any, row_limits: Any, name: Any = None,
                        validate: bool = True) -> "RaggedTensor":
        """Row ``i`` ends at ``row_limits[i]`` and starts where the previous ends (the first at 0).

        >>> import tapegrad as tf
        >>> tf.RaggedTensor.from_row_limits([3, 1, 4, 1, 5], row_limits=[3, 3, 5])
        <tf.RaggedTensor [[3, 1, 4], [], [1, 5]]>
        """
        lim = _splits_tensor(row_limits, None, "row_limits")
        sp = np.concatenate([[0], _np(lim, "from_row_limits")]).astype(lim._value.dtype)
        return cls._make(values, _wrap(sp), "from_row_limits", validate)

    @classmethod
    @constant_maker  # (row partitions read through host_value)
    def from_uniform_row_length(cls, values: Any, uniform_row_length: Any, nrows: Any = None,
                                validate: bool = True, name: Any = None) -> "RaggedTensor":
        """Rows of ``uniform_row_length`` values each: a uniform (not ragged) dimension, which
        ``shape`` reports as a number.

        >>> import tapegrad as tf
        >>> r = tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5, 6], 2)
        >>> r.shape
        TensorShape([3, 2])
        """
        v = _as_values(values)
        w = int(_np(convert_to_tensor(uniform_row_length, dtype_hint=_dt.int64), "uniform_row_length"))
        if w < 0:
            raise ValueError(f"uniform_row_length must be non-negative, got {w}.")
        nv = _nvals(v)
        if nrows is None:
            n = nv // w if w else 0
        else:
            n = int(_np(convert_to_tensor(nrows, dtype_hint=_dt.int64), "nrows"))
        if validate and n * w != nv:
            raise _invalid("from_uniform_row_length", f"nrows * uniform_row_length ({n} * {w}) must "
                                                      f"equal the number of values ({nv})")
        sp = np.arange(n + 1, dtype=np.int64) * w
        return cls._make(v, _wrap(sp), "from_uniform_row_length", validate, uniform=w)

    @classmethod
    def from_nested_row_splits(cls, flat_values: Any, nested_row_splits: Any, name: Any = None,
                               validate: bool = True) -> "RaggedTensor":
        """Nested ragged dimensions, outermost first: ``from_row_splits`` applied innermost first.

        >>> import tapegrad as tf
        >>> tf.RaggedTensor.from_nested_row_splits([1, 2, 3, 4], ([0, 2, 3], [0, 1, 3, 4]))
        <tf.RaggedTensor [[[1], [2, 3]], [[4]]]>
        """
        if isinstance(nested_row_splits, Tensor):
            raise TypeError("nested_row_splits must be a list of tensors, not a Tensor.")
        result = flat_values
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values: Any, nested_row_lengths: Any, name: Any = None,
                                validate: bool = True) -> "RaggedTensor":
        """Nested ragged dimensions from row lengths, outermost first.

        >>> import tapegrad as tf
        >>> tf.RaggedTensor.from_nested_row_lengths([1, 2, 3, 4], ([2, 1], [1, 2, 1]))
        <tf.RaggedTensor [[[1], [2, 3]], [[4]]]>
        """
        if isinstance(nested_row_lengths, Tensor):
            raise TypeError("nested_row_lengths must be a list of tensors, not a Tensor.")
        result = flat_values
        for lengths in reversed(list(nested_row_lengths)):
            result = cls.from_row_lengths(result, lengths, validate=validate)
        return result

    @classmethod
    def from_nested_value_rowids(cls, flat_values: Any, nested_value_rowids: Any, nested_nrows: Any = None,
                                 name: Any = None, validate: bool = True) -> "RaggedTensor":
        """Nested ragged dimensions from value row ids (and optional row counts), outermost first."""
        ids = list(nested_value_rowids)
        nrows = [None] * len(ids) if nested_nrows is None else list(nested_nrows)
        if len(nrows) != len(ids):
            raise ValueError("nested_nrows must have one entry per nested_value_rowids entry.")
        result = flat_values
        for i, n in reversed(list(zip(ids, nrows))):
            result = cls.from_value_rowids(result, i, n, validate=validate)
        return result

    @classmethod
    @constant_maker  # (row partitions read through host_value)
    def from_tensor(cls, tensor: Any, lengths: Any = None, padding: Any = None, ragged_rank: int = 1,
                    name: Any = None, row_splits_dtype: Any = _dt.int64) -> "RaggedTensor":
        """A ragged tensor from a dense one: every row whole, or cut to ``lengths`` (a vector, or
        a list of them for several ragged dimensions), or cut before its trailing ``padding``
        (not both).

        >>> import tapegrad as tf
        >>> tf.RaggedTensor.from_tensor([[1, 0, 0], [2, 3, 0]], padding=0)
        <tf.RaggedTensor [[1], [2, 3]]>
        >>> tf.RaggedTensor.from_tensor([[1, 0, 0], [2, 3, 0]], lengths=[1, 3])
        <tf.RaggedTensor [[1], [2, 3, 0]]>
        """
        t = convert_to_tensor(tensor)
        rank = t._value.ndim
        ragged_rank = int(ragged_rank)
        if rank < 2:
            raise ValueError(f"The rank of a RaggedTensor must be greater than 1, i.e., a list of "
                             f"scalars won't have ragged dimensions. Received argument `tensor` "
                             f"with rank {rank}.")
        if not 0 < ragged_rank < rank:
            raise ValueError(f"ragged_rank must be greater than 0 and less than the rank of the "
                             f"tensor ({rank}), got {ragged_rank}.")
        if lengths is not None and padding is not None:
            raise ValueError("Specify lengths or padding, but not both")
        sdt = _dt.as_dtype(row_splits_dtype)._np
        shape = t._value.shape
        if padding is not None:
            pad = np.asarray(host_value(convert_to_tensor(padding, dtype=t.dtype), "RaggedTensor.from_tensor"))
            inner = shape[ragged_rank + 1:]
            if pad.shape != inner and pad.shape != ():
                raise ValueError(f"padding must have shape {list(inner)} (the shape of one value), "
                                 f"got {list(pad.shape)}.")
            v = _np(t, "from_tensor")
            is_pad = (v == pad).reshape(shape[:ragged_rank + 1] + (-1,)).all(-1)
            flat_is_pad = is_pad.reshape(-1, shape[ragged_rank])
            keep = shape[ragged_rank] - np.argmin(flat_is_pad[:, ::-1], axis=1)
            keep[flat_is_pad.all(axis=1)] = 0
            lengths = keep
        if lengths is not None and not isinstance(lengths, (list, tuple)) or \
                (isinstance(lengths, (list, tuple)) and lengths and not isinstance(lengths[0], (list, tuple, Tensor, np.ndarray))):
            lengths = [lengths]
        # the innermost partitioned dimension, whole or cut to lengths, then the outer ones
        n = int(np.prod(shape[:ragged_rank], dtype=np.int64))
        w = shape[ragged_rank]
        rows = reshape(t, (-1,) + shape[ragged_rank + 1:])
        if lengths is None:  # (whole rows: a uniform dimension, as TensorFlow's)
            result: Any = cls(rows, _wrap(np.arange(n + 1, dtype=sdt) * w), w, internal=True)
        else:
            lens = [_np(convert_to_tensor(ln, dtype_hint=_dt.int64), "lengths") for ln in lengths]
            if len(lens) != 1:
                raise NotImplementedError("from_tensor takes lengths for one ragged dimension in "
                                          "tapegrad; apply it again on the values for more.")
            ln = lens[0].reshape(-1).astype(np.int64)
            if ln.size != n:
                raise ValueError(f"lengths must have {n} entries (one per row), got {ln.size}.")
            if (ln < 0).any() or (ln > w).any():
                raise InvalidArgumentError(f"lengths must be in [0, {w}], got {ln.tolist()}.")
            j = np.arange(w)[None, :]
            idx = (np.arange(n)[:, None] * w + j)[j < ln[:, None]]
            vals = gather(rows, _wrap(idx.astype(np.int64)))
            result = cls(vals, _wrap(np.concatenate([[0], np.cumsum(ln)]).astype(sdt)), None, internal=True)
        for k in builtins.range(ragged_rank - 1, 0, -1):
            n = int(np.prod(shape[:k], dtype=np.int64))
            result = cls(result, _wrap(np.arange(n + 1, dtype=sdt) * shape[k]), shape[k], internal=True)
        return result

    # ------------------------------------------------------------------ accessors
    @property
    def values(self) -> Any:
        """The rows' items, one after another (a Tensor, or a RaggedTensor when nested)."""
        return self._values

    @property
    def flat_values(self) -> Tensor:
        """The innermost values: a Tensor whatever the ragged rank."""
        v = self._values
        while isinstance(v, RaggedTensor):
            v = v._values
        return v

    @property
    def row_splits(self) -> Tensor:
        """Where each row starts in ``values``, and where the last ends (length ``nrows + 1``)."""
        return self._row_splits

    @property
    def nested_row_splits(self) -> tuple:
        """The row splits of every ragged dimension, outermost first."""
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt._row_splits)
            rt = rt._values
        return tuple(out)

    @property
    def _type_spec(self) -> "RaggedTensorSpec":
        """Its :class:`RaggedTensorSpec` (what a concrete function traced with it takes)."""
        return RaggedTensorSpec.from_value(self)

    @property
    def ragged_rank(self) -> int:
        """The number of partitioned dimensions (nested ``values`` levels)."""
        return 1 + (self._values.ragged_rank if isinstance(self._values, RaggedTensor) else 0)

    @property
    def dtype(self) -> _dt.DType:
        """The dtype of the values."""
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self) -> _dt.DType:
        """The dtype of the row partitions (int64 by default, or int32)."""
        return self._row_splits.dtype

    @property
    def uniform_row_length(self) -> Tensor | None:
        """The length of every row when this dimension is uniform (from_uniform_row_length), else None."""
        return None if self._uniform is None else _wrap(np.array(self._uniform, self._row_splits._value.dtype))

    @property
    def shape(self) -> TensorShape:
        """The static shape: ``nrows``, then ``None`` for each ragged dimension (a number for a
        uniform one), then the flat values' inner dimensions."""
        return TensorShape((self.nrows_int(),) + self._inner_shape())

    def _inner_shape(self) -> tuple:
        v = self._values
        inner = v._inner_shape() if isinstance(v, RaggedTensor) else tuple(v._value.shape[1:])
        return (self._uniform,) + inner

    def get_shape(self) -> TensorShape:
        """The same as :attr:`shape`."""
        return self.shape

    @property
    def ndim(self) -> int:
        """The rank: the ragged rank plus the flat values' rank."""
        return self.ragged_rank + self.flat_values._value.ndim

    def nrows_int(self) -> int:
        """The number of rows, as a Python int."""
        return self._row_splits._value.shape[0] - 1

    def _splits(self, how: str) -> np.ndarray:
        return _np(self._row_splits, how)

    @constant_maker  # (from the guarded row splits)
    def nrows(self, out_type: Any = None, name: Any = None) -> Tensor:
        """The number of rows (a scalar of the row-splits dtype, or ``out_type``)."""
        dt = self._row_splits._value.dtype if out_type is None else _dt.as_dtype(out_type)._np
        return _wrap(np.array(self.nrows_int(), dt))

    @constant_maker  # (from the guarded row splits)
    def row_starts(self, name: Any = None) -> Tensor:
        """Where each row starts in ``values``."""
        return _wrap(self._splits("RaggedTensor.row_starts")[:-1].copy())

    @constant_maker  # (from the guarded row splits)
    def row_limits(self, name: Any = None) -> Tensor:
        """Where each row ends in ``values``."""
        return _wrap(self._splits("RaggedTensor.row_limits")[1:].copy())

    @constant_maker  # (from the guarded row splits)
    def row_lengths(self, axis: int = 1, name: Any = None) -> Any:
        """The length of each row (``axis=1``), or of each row of a deeper ragged dimension
        (a RaggedTensor of the lengths, ``axis > 1``).

        >>> import tapegrad as tf
        >>> tf.ragged.constant([[3, 1, 4], [], [1, 5]]).row_lengths().numpy()
        array([3, 0, 2])
        """
        axis = _norm_axis(axis, self.ndim, "row_lengths")
        if axis == 0:
            return self.nrows()
        if axis == 1:
            return _wrap(np.diff(self._splits("RaggedTensor.row_lengths")))
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.row_lengths(axis - 1))
        w = self._values._value.shape[axis - 1]
        return self.with_flat_values(_wrap(np.full(self._values._value.shape[:axis - 1], w,
                                                   self._row_splits._value.dtype)))

    def nested_row_lengths(self, name: Any = None) -> tuple:
        """The row lengths of every ragged dimension, outermost first."""
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt.row_lengths())
            rt = rt._values
        return tuple(out)

    @constant_maker  # (from the guarded row splits)
    def value_rowids(self, name: Any = None) -> Tensor:
        """The row of each value (non-decreasing).

        >>> import tapegrad as tf
        >>> tf.ragged.constant([[3, 1, 4], [], [1, 5]]).value_rowids().numpy()
        array([0, 0, 0, 2, 2])
        """
        return _wrap(self._rowids())

    def _rowids(self) -> np.ndarray:
        sp = self._splits("RaggedTensor.value_rowids")
        return np.repeat(np.arange(sp.shape[0] - 1, dtype=sp.dtype), np.diff(sp))

    def nested_value_rowids(self, name: Any = None) -> tuple:
        """The value row ids of every ragged dimension, outermost first."""
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt.value_rowids())
            rt = rt._values
        return tuple(out)

    @constant_maker  # (from shapes and the guarded row splits)
    def bounding_shape(self, axis: Any = None, name: Any = None, out_type: Any = None) -> Tensor:
        """The smallest dense shape that holds every row: the longest row of each ragged dimension.

        >>> import tapegrad as tf
        >>> tf.ragged.constant([[3, 1, 4], [], [1, 5]]).bounding_shape().numpy()
        array([3, 3])
        """
        dims = [self.nrows_int()]
        rt: Any = self
        while isinstance(rt, RaggedTensor):
            ln = np.diff(rt._splits("RaggedTensor.bounding_shape"))
            dims.append(int(ln.max()) if ln.size else 0)
            rt = rt._values
        dims += list(rt._value.shape[1:])
        dt = self._row_splits._value.dtype if out_type is None else _dt.as_dtype(out_type)._np
        out = np.array(dims, dt)
        if axis is None:
            return _wrap(out)
        ax = np.asarray(_np(convert_to_tensor(axis), "axis")) if isinstance(axis, Tensor) else np.asarray(axis)
        return _wrap(out[ax])

    # ------------------------------------------------------------------ new tensors of the same partition
    def with_values(self, new_values: Any) -> "RaggedTensor":
        """The same row partition around ``new_values`` (as many rows as ``values`` has)."""
        v = _as_values(new_values)
        if _nvals(v) != _nvals(self._values):
            raise ValueError(f"new_values must have {_nvals(self._values)} rows (as many as values), "
                             f"got {_nvals(v)}.")
        if isinstance(v, RaggedTensor) and v.row_splits_dtype != self.row_splits_dtype:
            v = v.with_row_splits_dtype(self.row_splits_dtype)
        return RaggedTensor(v, self._row_splits, self._uniform, internal=True)

    def with_flat_values(self, new_values: Any) -> "RaggedTensor":
        """The same nested row partitions around ``new_values`` (as many rows as ``flat_values``).

        >>> import tapegrad as tf
        >>> r = tf.ragged.constant([[1, 2], [3]])
        >>> r.with_flat_values(tf.constant([1.5, 2.5, 3.5]))
        <tf.RaggedTensor [[1.5, 2.5], [3.5]]>
        """
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    @constant_maker  # (row partitions read through host_value)
    def with_row_splits_dtype(self, dtype: Any) -> "RaggedTensor":
        """The same tensor with its row partitions as ``dtype`` (int32 or int64)."""
        dt = _dt.as_dtype(dtype)._np
        if dt not in _SPLIT_DTYPES:
            raise ValueError(f"row_splits_dtype must be int32 or int64, got {_dt.as_dtype(dtype).name}.")
        v = self._values
        if isinstance(v, RaggedTensor):
            v = v.with_row_splits_dtype(dt)
        sp = self._row_splits if self._row_splits._value.dtype == dt else cast(self._row_splits, _dt.as_dtype(dt))
        return RaggedTensor(v, sp, self._uniform, internal=True)

    @constant_maker  # (row partitions read through host_value)
    def merge_dims(self, outer_axis: int, inner_axis: int) -> Any:
        """Merge dimensions ``outer_axis`` through ``inner_axis`` into one (a Tensor when every
        ragged dimension merges into the first).

        >>> import tapegrad as tf
        >>> tf.ragged.constant([[[1, 2], [3]], [[4]]]).merge_dims(1, 2)
        <tf.RaggedTensor [[1, 2, 3], [4]]>
        """
        nd = self.ndim
        o, i = _norm_axis(outer_axis, nd, "merge_dims"), _norm_axis(inner_axis, nd, "merge_dims")
        if o > i:
            raise ValueError(f"Expected outer_axis ({outer_axis}) to be less than or equal to "
                             f"inner_axis ({inner_axis})")
        if o == i:
            return self
        if o == 0:  # the rows merged with the outer dimension: the values of rows merged to i
            return (self.merge_dims(1, i) if i > 1 else self)._values
        if o > 1:
            v = self._values
            if isinstance(v, RaggedTensor):
                return self.with_values(v.merge_dims(o - 1, i - 1))
            sh = v._value.shape
            return self.with_values(reshape(v, sh[:o - 1] + (-1,) + sh[i:]))
        # o == 1: every row's items flattened to depth i (the row partitions composed)
        sp = self._splits("merge_dims")
        cur = self._values
        for _ in builtins.range(i - 1):
            if isinstance(cur, RaggedTensor):
                sp = cur._splits("merge_dims")[sp]
                cur = cur._values
            else:
                sh = cur._value.shape
                sp = sp * sh[1]
                cur = reshape(cur, (-1,) + sh[2:])
        return RaggedTensor(cur, _wrap(sp), None, internal=True)

    # ------------------------------------------------------------------ to dense and Python
    @constant_maker  # (the guarded row splits)
    def to_sparse(self, name: Any = None) -> SparseTensor:
        """The values as a SparseTensor: an entry at each value's (row, column, ...) position,
        in row-major order, of ``dense_shape`` the bounding shape (int64).

        >>> import tapegrad as tf
        >>> st = tf.ragged.constant([[3, 1], [], [4]]).to_sparse()
        >>> st.indices.numpy().tolist(), st.dense_shape.numpy().tolist()
        ([[0, 0], [0, 1], [2, 0]], [3, 2])
        """
        pos = np.arange(self.nrows_int(), dtype=np.int64)[:, None]
        rt: Any = self
        while isinstance(rt, RaggedTensor):
            sp = rt._splits("RaggedTensor.to_sparse").astype(np.int64)
            lens = np.diff(sp)
            parent = np.repeat(np.arange(lens.size), lens)
            pos = np.concatenate([pos[parent], (np.arange(sp[-1]) - sp[:-1][parent])[:, None]], 1)
            rt = rt._values
        inner = tuple(rt._value.shape[1:])
        if inner:
            cells = np.indices(inner).reshape(len(inner), -1).T
            pos = np.concatenate([np.repeat(pos, len(cells), 0), np.tile(cells, (pos.shape[0], 1))], 1)
        return SparseTensor(_wrap(pos), reshape(rt, (-1,)), self.bounding_shape(out_type=_dt.int64))

    @constant_maker  # (shapes, the guarded row splits)
    def to_tensor(self, default_value: Any = None, name: Any = None, shape: Any = None) -> Tensor:
        """A dense tensor: rows padded with ``default_value`` (0, ``False`` or ``b""`` by default)
        to :meth:`bounding_shape`, or cut and padded to ``shape`` (``None`` entries: the bounding
        size). Differentiable in the values and in ``default_value``.

        >>> import tapegrad as tf
        >>> tf.ragged.constant([[3, 1, 4], [], [1, 5]]).to_tensor(default_value=-1).numpy()
        array([[ 3,  1,  4],
               [-1, -1, -1],
               [ 1,  5, -1]], dtype=int32)
        """
        fv = self.flat_values
        inner = fv._value.shape[1:]
        want = list(_np(self.bounding_shape(), "RaggedTensor.to_tensor"))
        if shape is not None:
            sh = TensorShape(shape)
            if sh.rank is not None:
                if len(sh) != len(want):
                    raise ValueError(f"shape {list(sh)} must have rank {len(want)} (the ragged "
                                     f"tensor's rank).")
                want = [w if s is None else int(s) for s, w in zip(sh, want)]
        nr = self.ragged_rank
        # the flat value at each position of the dense outer dimensions (-1: padding)
        idx = np.arange(want[0])
        idx = np.where(idx < self.nrows_int(), idx, -1)
        rt: Any = self
        for level in builtins.range(nr):
            sp = rt._splits("RaggedTensor.to_tensor")
            w = want[level + 1]
            safe = np.maximum(idx, 0)
            start, length = sp[safe], sp[safe + 1] - sp[safe]
            j = np.arange(w)
            ok = (idx[..., None] >= 0) & (j < length[..., None])
            idx = np.where(ok, start[..., None] + j, -1)
            rt = rt._values
        dt = fv.dtype
        if default_value is None:
            d = _wrap(_strings.empty(()) if fv._value.dtype.kind == "O" else np.zeros((), fv._value.dtype))
        else:
            d = convert_to_tensor(default_value, dtype=dt)
        if d._value.ndim > len(inner) or d._value.shape != inner[len(inner) - d._value.ndim:]:
            raise ValueError(f"default_value must broadcast to the shape of one value, {list(inner)}; "
                             f"got shape {list(d._value.shape)}.")
        ext = concat([fv, broadcast_to(reshape(d, (1,) * (1 + len(inner) - d._value.ndim) + d._value.shape),
                                       (1,) + inner)], 0)
        n = fv._value.shape[0]
        out = gather(ext, _wrap(np.where(idx < 0, n, idx).astype(np.int64)))
        cut = want[nr + 1:]
        if list(cut) != list(inner):
            if any(c > i for c, i in zip(cut, inner)):
                raise ValueError(f"shape {want} is larger than the values' inner shape {list(inner)}; "
                                 "tapegrad pads only the ragged dimensions.")
            out = out[(builtins.slice(None),) * (nr + 1) + tuple(builtins.slice(0, c) for c in cut)]
        return out

    def to_list(self) -> list:
        """The rows as nested Python lists (bytes for strings).

        >>> import tapegrad as tf
        >>> tf.ragged.constant([[3, 1, 4], [], [1, 5]]).to_list()
        [[3, 1, 4], [], [1, 5]]
        """
        v = self._values
        items = v.to_list() if isinstance(v, RaggedTensor) else _np(v, "RaggedTensor.to_list").tolist()
        sp = self._splits("RaggedTensor.to_list").tolist()
        return [items[a:b] for a, b in zip(sp[:-1], sp[1:])]

    def numpy(self) -> np.ndarray:
        """The rows as NumPy arrays, as TensorFlow's: a rank-1 object array of rows when their
        lengths differ, a single array when they are all the same length.

        >>> import tapegrad as tf
        >>> tf.ragged.constant([[1, 2, 3], [4, 5]]).numpy()
        array([array([1, 2, 3], dtype=int32), array([4, 5], dtype=int32)], dtype=object)
        """
        v = self._values
        vals = v.numpy() if isinstance(v, RaggedTensor) else np.array(_np(v, "RaggedTensor.numpy"))
        sp = self._splits("RaggedTensor.numpy")
        rows = [vals[sp[i]:sp[i + 1]] for i in builtins.range(len(sp) - 1)]
        if not rows:
            return np.zeros((0, 0) + vals.shape[1:], dtype=vals.dtype)
        if any(len(r) != len(rows[0]) for r in rows):
            out = np.empty(len(rows), dtype=object)
            for i, r in enumerate(rows):
                out[i] = r
            return out
        return np.array(rows)

    def __repr__(self) -> str:
        with np.printoptions(formatter={"all": _formatter}):
            text = _formatter(self.numpy())
        return f"<tf.RaggedTensor {text}>"

    __str__ = __repr__

    def __iter__(self) -> Iterator[Any]:
        for i in builtins.range(self.nrows_int()):
            yield self[i]

    def __bool__(self) -> bool:
        raise TypeError("RaggedTensor may not be used as a boolean.")

    def __hash__(self) -> int:
        raise TypeError("RaggedTensor is unhashable.")

    def _function_key(self) -> tuple:
        """A tf.function's key for a RaggedTensor argument (the function runs eagerly on it)."""
        return ("RaggedTensor", self.dtype.name, self.ragged_rank, self.row_splits_dtype.name, tuple(self.shape))

    # ------------------------------------------------------------------ the composite protocol
    def _flat(self) -> Tensor:
        return self.flat_values

    def _with_flat(self, t: Tensor) -> "RaggedTensor":
        return self.with_flat_values(t)

    def _components(self) -> list:
        return [self.flat_values, *self.nested_row_splits]

    def _from_components(self, parts: list) -> "RaggedTensor":
        uniform, cur = [], self
        while isinstance(cur, RaggedTensor):
            uniform.append(cur._uniform)
            cur = cur._values
        out: Any = parts[0]
        for splits, u in reversed(list(zip(parts[1:], uniform))):
            out = RaggedTensor(out, splits, u, internal=True)
        return out

    def _print_text(self, summarize: int) -> str:
        """TensorFlow's ``tf.print`` text (its ragged_tensor_to_string): items as
        ``tf.strings.as_string`` writes them (strings quoted), ``, ``-separated rows, and
        ``...`` for all but ``summarize`` rows at each end of a longer dimension."""
        fv = self.flat_values
        v = _np(fv, "tf.print")
        if v.dtype.kind == "O":
            items = ["'" + re.sub(r"(['\\])", r"\\\1", b.decode("utf-8", "backslashreplace")) + "'"
                     for b in v.reshape(-1).tolist()]
        else:
            items = [b.decode() for b in _np(as_string(fv), "tf.print").reshape(-1).tolist()]
        text = np.array(items, dtype=object).reshape(v.shape)

        def join(pieces: list) -> str:
            if summarize is not None and summarize >= 0 and len(pieces) > 2 * summarize:
                pieces = pieces[:summarize] + ["..."] + pieces[len(pieces) - summarize:]
            return "[" + ", ".join(pieces) + "]"

        def dense(a: np.ndarray) -> str:
            return join([dense(r) for r in a]) if a.ndim > 1 else join(list(a))

        def rows(rt: Any, vals: list) -> list:
            sp = rt._splits("tf.print")
            return [join(vals[a:b]) for a, b in zip(sp[:-1].tolist(), sp[1:].tolist())]
        levels, cur = [], self
        while isinstance(cur, RaggedTensor):
            levels.append(cur)
            cur = cur._values
        pieces = [dense(r) if r.ndim else r for r in text] if text.ndim > 1 else list(text)
        for level in reversed(levels):
            pieces = rows(level, pieces)
        return join(pieces)



def _formatter(x: Any) -> str:
    """TensorFlow's element formatter for ragged reprs: arrays with ", " separators."""
    if isinstance(x, np.ndarray):
        if x.size != 0:
            return np.array2string(x, separator=", ")
        return repr(x.tolist())
    return str(x)


def _norm_axis(axis: Any, ndim: int, what: str) -> int:
    a = int(_np(axis, what)) if isinstance(axis, Tensor) else int(axis)
    if not -ndim <= a < ndim:
        raise ValueError(f"{what}: axis={axis} out of bounds: expected {-ndim}<=axis<{ndim}.")
    return a + ndim if a < 0 else a


# --------------------------------------------------------------------------- DynamicRaggedShape
class DynamicRaggedShape:
    """What ``tf.shape`` returns for a RaggedTensor: the number of rows, each ragged dimension's
    row lengths, and the uniform inner dimensions (TensorFlow's ``DynamicRaggedShape``, read-only).

    >>> import tapegrad as tf
    >>> s = tf.shape(tf.ragged.constant([[1, 2], [3], []]))
    >>> s
    <DynamicRaggedShape lengths=[3, (2, 1, 0)] num_row_partitions=1>
    >>> int(s[0]), s.rank
    (3, 2)
    """

    __slots__ = ("_lengths", "_num_row_partitions", "dtype")

    def __init__(self, lengths: list, num_row_partitions: int, dtype: _dt.DType) -> None:
        self._lengths = lengths
        self._num_row_partitions = num_row_partitions
        self.dtype = dtype

    @classmethod
    def _of(cls, rt: "RaggedTensor", out_type: Any) -> "DynamicRaggedShape":
        dt = _dt.as_dtype(out_type)
        lengths: list = [rt.nrows_int()]
        cur: Any = rt
        while isinstance(cur, RaggedTensor):
            if cur._uniform is not None:
                lengths.append(cur._uniform)
            else:
                lengths.append(tuple(np.diff(cur._splits("tf.shape")).tolist()))
            cur = cur._values
        lengths += list(cur._value.shape[1:])
        return cls(lengths, rt.ragged_rank, dt)

    @property
    def rank(self) -> int:
        """The number of dimensions."""
        return len(self._lengths)

    @property
    def num_row_partitions(self) -> int:
        """The number of partitioned (ragged or uniform-row) dimensions after the first."""
        return self._num_row_partitions

    def static_lengths(self) -> list:
        """Each dimension's size: an int when uniform, a tuple of row lengths when ragged."""
        return list(self._lengths)

    @constant_maker  # (row partitions read through host_value)
    def __getitem__(self, index: Any) -> Tensor:
        i = int(index)
        if not -self.rank <= i < self.rank:
            raise IndexError(f"Index {index} is out of range for a shape of rank {self.rank}.")
        d = self._lengths[i]
        if isinstance(d, tuple):
            raise ValueError(f"Index {index} is not uniform")
        return _wrap(np.array(d, self.dtype._np))

    def __len__(self) -> int:
        return self.rank

    def __repr__(self) -> str:
        text = ", ".join(str(d) for d in self._lengths)
        return f"<DynamicRaggedShape lengths=[{text}] num_row_partitions={self._num_row_partitions}>"


# --------------------------------------------------------------------------- RaggedTensorSpec
class RaggedTensorSpec(TypeSpec):
    """The type of a RaggedTensor: shape (``None`` for ragged dimensions), dtype, ragged rank and
    row-splits dtype (TensorFlow's ``tf.RaggedTensorSpec``, for ``tf.function``'s
    ``input_signature`` and ``tf.data``'s ``element_spec``).

    >>> import tapegrad as tf
    >>> tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)
    RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)
    """

    __slots__ = ("_shape", "_dtype", "_ragged_rank", "_row_splits_dtype", "name")

    def __init__(self, shape: Any = None, dtype: Any = _dt.float32, ragged_rank: Any = None,
                 row_splits_dtype: Any = _dt.int64, flat_values_spec: Any = None, name: Any = None) -> None:
        self._shape = TensorShape(shape)
        self._dtype = _dt.as_dtype(dtype if flat_values_spec is None else flat_values_spec.dtype)
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        self._ragged_rank = int(ragged_rank)
        if rank is not None and not 0 <= self._ragged_rank < builtins.max(rank, 1):
            raise ValueError(f"ragged_rank must be non-negative and less than the rank ({rank}), "
                             f"got {ragged_rank}.")
        self._row_splits_dtype = _dt.as_dtype(row_splits_dtype)
        if self._row_splits_dtype not in (_dt.int32, _dt.int64):
            raise ValueError("row_splits_dtype must be int32 or int64")
        self.name = name

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> _dt.DType:
        return self._dtype

    @property
    def ragged_rank(self) -> int:
        return self._ragged_rank

    @property
    def row_splits_dtype(self) -> _dt.DType:
        return self._row_splits_dtype

    @property
    def value_type(self) -> type:
        return RaggedTensor

    @property
    def _component_specs(self) -> list:
        """The TensorSpecs of a value's flat values and row splits (a trace's inputs)."""
        from .._spec import TensorSpec
        inner = [] if self._shape.rank is None else list(self._shape)[self._ragged_rank + 1:]
        return [TensorSpec([None, *inner], self._dtype)] + [TensorSpec([None], self._row_splits_dtype)] * \
            self._ragged_rank

    def _placeholder(self, sample: Any) -> "RaggedTensor":
        """A value of this spec to trace with: unknown dimensions 1 (rows of length 1), its flat
        values ``sample(spec)``."""
        from .._spec import TensorSpec
        if self._shape.rank is None:
            raise ValueError(f"Cannot trace with {self!r}: its rank is unknown.")
        dims = [1 if d is None else d for d in self._shape]
        n, splits = dims[0], []
        for d in dims[1:self._ragged_rank + 1]:
            splits.append(np.arange(n + 1) * d)
            n *= d
        values = sample(TensorSpec([n, *dims[self._ragged_rank + 1:]], self._dtype))
        return RaggedTensor.from_nested_row_splits(
            values, [_wrap(np.asarray(x, self._row_splits_dtype.as_numpy_dtype)) for x in splits], validate=False)

    @classmethod
    def from_value(cls, value: "RaggedTensor") -> "RaggedTensorSpec":
        """The spec of a RaggedTensor."""
        return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits_dtype)

    def is_compatible_with(self, other: Any) -> bool:
        """Whether ``other`` (a RaggedTensor or a spec) fits this spec."""
        if isinstance(other, RaggedTensor):
            other = RaggedTensorSpec.from_value(other)
        if not isinstance(other, RaggedTensorSpec):
            return False
        return (self._dtype == other._dtype and self._ragged_rank == other._ragged_rank
                and self._row_splits_dtype == other._row_splits_dtype
                and self._shape.is_compatible_with(other._shape))

    def most_specific_compatible_type(self, other: "RaggedTensorSpec") -> "RaggedTensorSpec":
        """The spec both fit (differing dimensions become None)."""
        if not (self._dtype == other._dtype and self._ragged_rank == other._ragged_rank):
            raise ValueError(f"No TypeSpec is compatible with both {self} and {other}")
        a, b = self._shape, other._shape
        shape = None if a.rank is None or b.rank is None or a.rank != b.rank else \
            [x if x == y else None for x, y in zip(a, b)]
        return RaggedTensorSpec(shape, self._dtype, self._ragged_rank, self._row_splits_dtype)

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, RaggedTensorSpec) and self._shape == other._shape and
                self._dtype == other._dtype and self._ragged_rank == other._ragged_rank and
                self._row_splits_dtype == other._row_splits_dtype)

    def __hash__(self) -> int:
        return hash((tuple(self._shape) if self._shape.rank is not None else None, self._dtype.name,
                     self._ragged_rank, self._row_splits_dtype.name))

    def __repr__(self) -> str:
        return (f"RaggedTensorSpec({self._shape!r}, tf.{self._dtype.name}, {self._ragged_rank}, "
                f"tf.{self._row_splits_dtype.name})")
