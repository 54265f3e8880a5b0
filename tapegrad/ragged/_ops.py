"""The ops on RaggedTensors: TensorFlow's ragged indexing, elementwise broadcasting, reductions
over ragged axes, ``concat``/``stack``/``gather``/``shape``, and the ``tf.ragged`` functions.

Everything is built from ordinary tapegrad ops on the flat values (``gather``, the unsorted
segment reductions, elementwise ops) with row partitions computed in NumPy, so tapes and
forward accumulators follow ragged computations and no op here needs rules of its own.
"""
from __future__ import annotations

import builtins
from typing import Any, Callable

import numpy as np

from .. import _control_flow, _dispatch, _nest, dtypes as _dt
from .._convert import convert_to_tensor
from .._tensor import Tensor, constant_maker, wrap as _wrap
from ..errors import InvalidArgumentError
from ..ops import (array as _array, indexing as _indexing, math as _math, nn as _nn, reduction as _reduction,
                   special as _special)
from ..ops import segment as _segment_ops
from ..ops.segment import unsorted_segment_max, unsorted_segment_min, unsorted_segment_prod, unsorted_segment_sum
from .._spec import TensorSpec
from ._ragged_tensor import DynamicRaggedShape, RaggedTensor, RaggedTensorSpec, _norm_axis, _np

__all__ = ["constant", "range", "stack", "boolean_mask", "map_flat_values", "row_splits_to_segment_ids",
           "segment_ids_to_row_splits", "getitem"]


def _is_int(k: Any) -> bool:
    if isinstance(k, (bool, np.bool_)):
        return False
    if isinstance(k, (int, np.integer)):
        return True
    return isinstance(k, Tensor) and k._value.ndim == 0 and k._value.dtype.kind in "iu"


# --------------------------------------------------------------------------- rows
def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The concatenation of ``range(s, s + n)`` for each start and length."""
    total = int(lengths.sum())
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    return np.arange(total, dtype=np.int64) - np.repeat(offsets - starts.astype(np.int64), lengths)


@constant_maker  # (row partitions read through _py_value)
def _take_rows(v: Any, idx: np.ndarray) -> Any:
    """Rows ``idx`` of a Tensor or a RaggedTensor (on the tape through ``gather``)."""
    if isinstance(v, RaggedTensor):
        return _gather_rows(v, idx)
    return _indexing.gather(v, _wrap(idx.astype(np.int64)))


@constant_maker  # (row partitions read through _py_value)
def _gather_rows(rt: RaggedTensor, idx: np.ndarray) -> RaggedTensor:
    sp = rt._splits("RaggedTensor rows")
    starts, lengths = sp[idx], sp[idx + 1] - sp[idx]
    vals = _take_rows(rt._values, _ranges(starts, lengths))
    splits = np.concatenate([[0], np.cumsum(lengths)]).astype(sp.dtype)
    return RaggedTensor(vals, _wrap(splits), rt._uniform, internal=True)


# --------------------------------------------------------------------------- indexing
def getitem(rt: RaggedTensor, key: Any) -> Any:
    """``rt[key]`` with TensorFlow's ragged rules: the first index picks or slices rows; the next
    ones apply within each row; an integer index into a ragged dimension is an error (a row may
    be too short), a slice of one cuts every row."""
    key = list(key) if isinstance(key, tuple) else [key]
    if any(k is None for k in key):
        raise NotImplementedError("tf.newaxis in a RaggedTensor index is not supported by tapegrad; "
                                  "use tf.expand_dims.")
    if builtins.sum(k is Ellipsis for k in key) > 1:
        raise ValueError("Ragged indexing supports at most one Ellipsis")
    if any(k is Ellipsis for k in key):
        i = next(j for j, k in enumerate(key) if k is Ellipsis)
        key[i:i + 1] = [builtins.slice(None)] * builtins.max(rt.ndim - (len(key) - 1), 0)
    if len(key) > rt.ndim and not _is_int(key[0]):  # (an int picks a row: the row's own indexing rules)
        raise ValueError(f"Too many indices for RaggedTensor: {len(key)} indices for a tensor of "
                         f"rank {rt.ndim}.")
    return _getitem(rt, key)


def _getitem(rt: RaggedTensor, key: list) -> Any:
    if not key:
        return rt
    k0, rest = key[0], key[1:]
    if _is_int(k0):
        i = int(_np(k0, "RaggedTensor index")) if isinstance(k0, Tensor) else int(k0)
        n = rt.nrows_int()
        if not -n <= i < n:
            raise IndexError(f"Row key {i} out of bounds (the RaggedTensor has {n} rows)")
        i %= n
        sp = rt._splits("RaggedTensor index")
        a, b = int(sp[i]), int(sp[i + 1])
        v = rt._values
        row = _gather_rows(v, np.arange(a, b)) if isinstance(v, RaggedTensor) else v[a:b]
        if isinstance(row, RaggedTensor):
            return _getitem(row, rest)
        return row[tuple(rest)] if rest else row
    if isinstance(k0, builtins.slice):
        sliced = _gather_rows(rt, np.arange(rt.nrows_int())[k0])
        return _within_rows(sliced, rest) if rest else sliced
    raise TypeError(f"Ragged indices must be integers, slices or Ellipsis; got {k0!r}.")


@constant_maker  # (row partitions read through _py_value)
def _within_rows(rt: RaggedTensor, key: list) -> Any:
    """``key`` applied to the dimensions after the first of every row."""
    k1, rest = key[0], key[1:]
    if _is_int(k1):
        raise ValueError("Cannot index into an inner ragged dimension.")
    if not isinstance(k1, builtins.slice):
        raise TypeError(f"Ragged indices must be integers, slices or Ellipsis; got {k1!r}.")
    if k1 != builtins.slice(None):
        sp = rt._splits("RaggedTensor slice")
        lens = np.diff(sp)
        picks = [np.arange(n)[k1] for n in lens.tolist()]
        new_lens = np.array([p.size for p in picks], np.int64)
        flat = (np.concatenate(picks) + np.repeat(sp[:-1], new_lens)) if picks else np.zeros(0, np.int64)
        vals = _take_rows(rt._values, flat.astype(np.int64))
        splits = np.concatenate([[0], np.cumsum(new_lens)]).astype(sp.dtype)
        rt = RaggedTensor(vals, _wrap(splits), None, internal=True)
    if not rest:
        return rt
    v = rt._values
    inner = _within_rows(v, rest) if isinstance(v, RaggedTensor) else v[(builtins.slice(None),) + tuple(rest)]
    return rt.with_values(inner)


# --------------------------------------------------------------------------- elementwise
def _same_partition(x: RaggedTensor, y: RaggedTensor) -> bool:
    a, b = x.nested_row_splits, y.nested_row_splits
    return len(a) == len(b) and all(s is t or np.array_equal(_np(s, "row partition"), _np(t, "row partition"))
                                    for s, t in zip(a, b))


@constant_maker  # (row partitions read through _py_value)
def _dense_to_flat(rt: RaggedTensor, d: Tensor) -> Tensor:
    """A dense operand broadcast to the flat values of ``rt`` (TensorFlow's ragged broadcasting:
    each dimension of ``d`` is 1 or the size of ``rt``'s, a ragged one only 1)."""
    nd = rt.ndim
    if d._value.ndim > nd:
        raise ValueError(f"a rank-{d._value.ndim} tensor does not broadcast to a RaggedTensor of "
                         f"rank {nd}.")
    d = _array.reshape(d, (1,) * (nd - d._value.ndim) + d._value.shape)
    n = rt.nrows_int()
    if d._value.shape[0] not in (1, n):
        raise InvalidArgumentError(f"Incompatible shapes: a dense operand of shape {list(d._value.shape)} "
                                   f"against a RaggedTensor of shape {rt.shape} ({n} rows).")
    d = _array.broadcast_to(d, (n,) + d._value.shape[1:])
    cur: Any = rt
    while isinstance(cur, RaggedTensor):
        sh = d._value.shape
        lens = np.diff(cur._splits("RaggedTensor broadcast"))
        if sh[1] == 1:
            d = _indexing.gather(_array.reshape(d, (sh[0],) + sh[2:]), _wrap(cur._rowids().astype(np.int64)))
        elif (lens == sh[1]).all():
            d = _array.reshape(d, (-1,) + sh[2:])
        else:
            raise InvalidArgumentError(f"Incompatible shapes: a dense dimension of size {sh[1]} "
                                       f"against a ragged dimension with rows of lengths "
                                       f"{sorted(set(lens.tolist()))}; only size 1 broadcasts to a "
                                       f"ragged dimension.")
        cur = cur._values
    return d


@constant_maker  # (row partitions read through _py_value)
def _binary(fn: Callable, x: Any, y: Any) -> Any:
    """A binary elementwise op with at least one RaggedTensor operand."""
    if isinstance(x, RaggedTensor) and isinstance(y, RaggedTensor):
        if not _same_partition(x, y):
            raise InvalidArgumentError(
                f"the RaggedTensors have different row partitions (shapes {x.shape} and {y.shape}, "
                f"row lengths {[r.numpy().tolist() for r in x.nested_row_lengths()]} and "
                f"{[r.numpy().tolist() for r in y.nested_row_lengths()]}); elementwise ops need "
                f"rows of equal lengths.")
        return x.with_flat_values(fn(x.flat_values, y.flat_values))
    r, o = (x, y) if isinstance(x, RaggedTensor) else (y, x)
    fv = r.flat_values
    o = convert_to_tensor(o, dtype_hint=fv.dtype)  # (a Python float with int values: an error, as TF's)
    if o._value.ndim >= fv._value.ndim:
        o = _dense_to_flat(r, o)
    return r.with_flat_values(fn(fv, o) if r is x else fn(o, fv))


def _map_values(fn: Callable) -> Callable:
    """The handler of an elementwise function of several arguments (``where``, ``clip_by_value``,
    ``one_hot``, ``zeros_like``, ...): RaggedTensor arguments (of one partition) give their flat
    values, dense ones broadcast to them, the rest pass as they are."""
    def handler(*args: Any, **kwargs: Any) -> Any:
        ragged = [a for a in list(args) + list(kwargs.values()) if isinstance(a, RaggedTensor)]
        if not ragged:
            raise _unhandled(getattr(fn, "__name__", "this function"))
        first = ragged[0]
        for r in ragged[1:]:
            if not _same_partition(first, r):
                raise InvalidArgumentError("the RaggedTensor arguments have different row partitions; "
                                           "elementwise ops need rows of equal lengths.")
        nd = first.flat_values._value.ndim

        def flat(a: Any) -> Any:
            if isinstance(a, RaggedTensor):
                return a.flat_values
            if isinstance(a, (Tensor, np.ndarray, list, tuple)):
                t = convert_to_tensor(a, dtype_hint=first.dtype)
                return _dense_to_flat(first, t) if t._value.ndim >= nd else t
            return a
        return first.with_flat_values(fn(*[flat(a) for a in args], **{k: flat(v) for k, v in kwargs.items()}))
    return handler


def _segments_of_values(fn: Callable) -> Callable:
    """The handler of an unsorted segment reduction of a RaggedTensor by RaggedTensor segment ids
    of its partition (TF's ragged dispatch): the reduction of the flat values, a dense tensor."""
    def handler(data: Any, segment_ids: Any, num_segments: Any, name: Any = None) -> Tensor:
        if not (isinstance(data, RaggedTensor) and isinstance(segment_ids, RaggedTensor)
                and _same_partition(data, segment_ids)):
            raise InvalidArgumentError(f"{fn.__name__} of a RaggedTensor takes RaggedTensor segment_ids with "
                                       "the same row lengths (or flatten both: .flat_values).")
        return fn(data.flat_values, segment_ids.flat_values, num_segments)
    return handler


@constant_maker  # (positions from the condition's values, read through _py_value)
def where(condition: Any, x: Any = None, y: Any = None, name: Any = None) -> Any:
    """``tf.where(condition, x, y)`` with RaggedTensors: elementwise on the flat values; with
    ``condition`` alone, the coordinates of its true items (an int64 matrix, as TensorFlow's)."""
    if x is None and y is None:
        if not isinstance(condition, RaggedTensor) or condition.dtype != _dt.bool:
            raise _unhandled("tf.where")
        nz = np.nonzero(_np(condition.flat_values, "tf.where"))
        j, coords = nz[0], list(nz[1:])
        levels, cur = [], condition
        while isinstance(cur, RaggedTensor):
            levels.append(cur)
            cur = cur._values
        for level in reversed(levels):  # innermost partition first: a value's row and place in it
            sp = level._splits("tf.where")
            row = level._rowids()[j]
            coords.insert(0, j - sp[row])
            j = row
        return _wrap(np.stack([j] + coords, axis=1).astype(np.int64) if j.size else
                     np.zeros((0, condition.ndim), np.int64))
    if x is None or y is None:
        raise ValueError("tf.where takes x and y together, or neither.")
    return _map_values(_math.where)(condition, x, y)


@constant_maker  # (row partitions read through _py_value)
def tile(input: Any, multiples: Any, name: Any = None) -> RaggedTensor:  # noqa: A002
    """``tf.tile`` of a RaggedTensor: ``multiples[0]`` copies of its rows, each row's items
    repeated ``multiples[1]`` times, and so on inward.

    >>> import tapegrad as tf
    >>> tf.tile(tf.ragged.constant([[1, 2], [3]]), [2, 2])
    <tf.RaggedTensor [[1, 2, 1, 2], [3, 3], [1, 2, 1, 2], [3, 3]]>
    """
    m = [int(v) for v in np.asarray(_np(multiples, "tile") if isinstance(multiples, Tensor) else multiples).reshape(-1)]
    if len(m) != input.ndim:
        raise ValueError(f"multiples must have {input.ndim} entries (one per dimension), got {len(m)}.")
    if any(v < 0 for v in m):
        raise InvalidArgumentError(f"multiples must be non-negative, got {m}.")
    v = input._values
    if any(x != 1 for x in m[2:]):
        v = tile(v, [1] + m[2:]) if isinstance(v, RaggedTensor) else _array.tile(v, [1] + m[2:])
    sp = input._splits("tile")
    starts, lens = sp[:-1], np.diff(sp)
    rows = [np.tile(np.arange(a, a + n), m[1]) for a, n in zip(starts.tolist(), lens.tolist())]
    idx = np.concatenate(rows).astype(np.int64) if rows else np.zeros(0, np.int64)
    new_splits = np.concatenate([[0], np.cumsum(lens * m[1])]).astype(sp.dtype)
    out = RaggedTensor(_take_rows(v, idx), _wrap(new_splits), None, internal=True)
    return out if m[0] == 1 else _gather_rows(out, np.tile(np.arange(input.nrows_int()), m[0]))


def reshape(tensor: Any, shape: Any, name: Any = None) -> Tensor:
    """``tf.reshape`` of a RaggedTensor to a dense shape: its values, in row order, reshaped."""
    if not isinstance(tensor, RaggedTensor):
        raise _unhandled("tf.reshape")
    if isinstance(shape, DynamicRaggedShape):
        raise NotImplementedError("tf.reshape to a DynamicRaggedShape is not covered by tapegrad; "
                                  "give a dense shape, or build the RaggedTensor with a factory.")
    return _array.reshape(tensor.flat_values, shape)


def embedding_lookup(params: Any, ids: Any, max_norm: Any = None, name: Any = None) -> RaggedTensor:
    """``tf.nn.embedding_lookup`` at ragged ``ids``: the ids' rows of embeddings."""
    if not isinstance(ids, RaggedTensor):
        raise _unhandled("tf.nn.embedding_lookup")
    return ids.with_flat_values(_indexing.embedding_lookup(params, ids.flat_values, max_norm))


def reduce_variance(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: Any = None) -> Any:
    """TensorFlow's ragged variance: mean of squares minus the square of the mean, at least 0."""
    ms = reduce_mean(_math.square(input_tensor), axis, keepdims)
    m = reduce_mean(input_tensor, axis, keepdims)
    return _math.maximum(ms - _math.square(m), 0)


def reduce_std(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: Any = None) -> Any:
    return _math.sqrt(reduce_variance(input_tensor, axis, keepdims))


def map_fn(fn: Callable, elems: Any, dtype: Any = None, parallel_iterations: Any = None, back_prop: bool = True,
           swap_memory: bool = False, infer_shape: bool = True, name: Any = None,
           fn_output_signature: Any = None) -> Any:
    """``tf.map_fn`` over the rows of a RaggedTensor: a RaggedTensor of the results unless
    ``fn_output_signature`` (or ``dtype``) names a dense result."""
    if not isinstance(elems, RaggedTensor):
        raise _unhandled("tf.map_fn (a RaggedTensor inside a structure of elems)")
    sig = dtype if fn_output_signature is None else fn_output_signature
    results = [fn(row) for row in elems]
    dense = sig is not None and not isinstance(sig, RaggedTensorSpec)
    if dense:
        want = sig.dtype if isinstance(sig, TensorSpec) else _dt.as_dtype(sig)
        if not results:
            shape = list(sig.shape) if isinstance(sig, TensorSpec) else []
            return _wrap(np.zeros([0] + [d or 0 for d in shape], want._np))
        out = _array.stack([convert_to_tensor(r) for r in results], 0)
        if out.dtype != want:
            raise TypeError(f"map_fn: fn returned {out.dtype.name}, but fn_output_signature says "
                            f"{want.name}.")
        return out
    if not results:
        return RaggedTensor.from_row_lengths(_wrap(np.zeros(0, elems.dtype._np)), np.zeros(0, np.int64))
    if all(isinstance(r, RaggedTensor) for r in results):
        joined = _concat0(results)
        lens = [r.nrows_int() for r in results]
    else:
        ts = [convert_to_tensor(r) for r in results]
        if any(t._value.ndim == 0 for t in ts):
            return _array.stack(ts, 0)
        joined = _array.concat(ts, 0)
        lens = [t._value.shape[0] for t in ts]
    splits = np.concatenate([[0], np.cumsum(lens)]).astype(elems._row_splits._value.dtype)
    return RaggedTensor(joined, _wrap(splits), None, internal=True)


# --------------------------------------------------------------------------- reductions
_REDUCERS = {"sum": (unsorted_segment_sum, _reduction.reduce_sum),
             "max": (unsorted_segment_max, _reduction.reduce_max),
             "min": (unsorted_segment_min, _reduction.reduce_min),
             "prod": (unsorted_segment_prod, _reduction.reduce_prod)}


@constant_maker  # (row partitions read through _py_value)
def _segment(kind: Any, data: Any, ids: np.ndarray, n: int) -> Any:
    """Rows of ``data`` (a Tensor or a RaggedTensor) combined by segment id. ``kind``: a name of
    :data:`_REDUCERS`, or a pair (unsorted segment reduction, dense reduction) of its form."""
    if not isinstance(data, RaggedTensor):
        return (_REDUCERS[kind] if isinstance(kind, str) else kind)[0](data, _wrap(ids.astype(np.int64)), n)
    # ragged rows: output row s is as long as the longest row in segment s; item j of a row
    # goes to item j of its output row
    lens = np.diff(data._splits("ragged reduction"))
    out_lens = np.zeros(n, np.int64)
    np.maximum.at(out_lens, ids, lens)
    out_splits = np.concatenate([[0], np.cumsum(out_lens)])
    sub = np.repeat(out_splits[ids], lens) + _ranges(np.zeros_like(lens), lens)
    vals = _segment(kind, data._values, sub, int(out_splits[-1]))
    return RaggedTensor(vals, _wrap(out_splits.astype(data._row_splits._value.dtype)), None, internal=True)


def _reduce_axis(kind: Any, rt: Any, axis: int) -> Any:
    if not isinstance(rt, RaggedTensor):
        return (_REDUCERS[kind] if isinstance(kind, str) else kind)[1](rt, axis)
    if axis == 0:
        lens = np.diff(rt._splits("ragged reduction"))
        pos = _ranges(np.zeros_like(lens), lens)
        return _segment(kind, rt._values, pos, int(lens.max()) if lens.size else 0)
    if axis == 1:
        return _segment(kind, rt._values, rt._rowids(), rt.nrows_int())
    return rt.with_values(_reduce_axis(kind, rt._values, axis - 1))


def _reduce(kind: Any, x: Any, axis: Any, keepdims: Any) -> Any:
    if not isinstance(x, RaggedTensor):
        raise _unhandled("a reduction")
    if axis is None:
        out = _reduce_axis(kind, x.flat_values, None)  # type: ignore[arg-type]
        if keepdims:
            out = _array.reshape(out, (1,) * x.ndim)
        return out
    if isinstance(axis, Tensor):
        axis = _np(axis, "axis").tolist()
    axes = sorted({_norm_axis(a, x.ndim, "reduce") for a in (axis if isinstance(axis, (list, tuple)) else [axis])},
                  reverse=True)
    out: Any = x
    for a in axes:
        out = _reduce_axis(kind, out, a)
    if keepdims:
        for a in sorted(axes):
            out = expand_dims(out, a)
    return out


def reduce_rows(segment: Callable, reduce: Callable, x: Any, axis: Any = None, keepdims: Any = False) -> Any:
    """A reduction of a RaggedTensor along ``axis`` (TensorFlow's ``ragged_reduce_aggregate``),
    given as its unsorted segment form ``segment(data, ids, n)`` and its dense form
    ``reduce(x, axis)``: how ``tf.strings.reduce_join`` takes a RaggedTensor."""
    return _reduce((segment, reduce), x, axis, keepdims)


def _as_int32(x: Any) -> Any:
    return _math.cast(x, _dt.int32)


def reduce_sum(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: Any = None) -> Any:
    return _reduce("sum", input_tensor, axis, keepdims)


def reduce_max(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: Any = None) -> Any:
    return _reduce("max", input_tensor, axis, keepdims)


def reduce_min(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: Any = None) -> Any:
    return _reduce("min", input_tensor, axis, keepdims)


def reduce_prod(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: Any = None) -> Any:
    return _reduce("prod", input_tensor, axis, keepdims)


def reduce_mean(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: Any = None) -> Any:
    """TensorFlow's ragged mean: the sum over the count of values (so integers divide to float64,
    and an empty row's mean is nan)."""
    total = _reduce("sum", input_tensor, axis, keepdims)
    count = _reduce("sum", input_tensor.with_flat_values(_math.ones_like(input_tensor.flat_values)), axis, keepdims)
    if isinstance(total, RaggedTensor):
        return total.with_flat_values(total.flat_values / count.flat_values)
    return total / count


def reduce_any(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: Any = None) -> Any:
    return _math.cast(_reduce("sum", _as_int32(input_tensor), axis, keepdims), _dt.bool)


def reduce_all(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: Any = None) -> Any:
    return _math.cast(_reduce("prod", _as_int32(input_tensor), axis, keepdims), _dt.bool)


# --------------------------------------------------------------------------- shape ops
@constant_maker  # (row partitions read through _py_value)
def _reverse_axis(rt: Any, axis: int) -> Any:
    if not isinstance(rt, RaggedTensor):
        return _array.reverse(rt, [axis])
    if axis == 0:
        return _gather_rows(rt, np.arange(rt.nrows_int())[::-1])
    if axis == 1:  # each row's items in reverse order
        sp = rt._splits("reverse")
        lens = np.diff(sp)
        idx = np.repeat(sp[1:] - 1, lens) - _ranges(np.zeros_like(lens), lens)
        return RaggedTensor(_take_rows(rt._values, idx), rt._row_splits, rt._uniform, internal=True)
    return rt.with_values(_reverse_axis(rt._values, axis - 1))


def reverse(tensor: Any, axis: Any, name: Any = None) -> Any:
    """``tf.reverse`` of a RaggedTensor: the rows (axis 0), each row's items (a ragged axis) or a
    uniform inner axis in reverse order, as TensorFlow's ragged version."""
    axes = _np(convert_to_tensor(axis), "axis").reshape(-1).tolist() if isinstance(axis, Tensor) else list(axis)
    out = tensor
    for a in sorted({_norm_axis(a, tensor.ndim, "reverse") for a in axes}):
        out = _reverse_axis(out, a)
    return out


def expand_dims(input: Any, axis: Any, name: Any = None) -> Any:  # noqa: A002
    """A new dimension of size 1 at ``axis`` (of a Tensor or a RaggedTensor)."""
    if not isinstance(input, RaggedTensor):
        return _array.expand_dims(input, axis)
    a = _norm_axis(axis, input.ndim + 1, "expand_dims")
    if a == 0:
        return RaggedTensor.from_uniform_row_length(input, input.nrows_int(), nrows=1)
    if a == 1:
        return RaggedTensor.from_uniform_row_length(input, 1)
    return input.with_values(expand_dims(input._values, a - 1))


@constant_maker  # (row partitions read through _py_value)
def _ragged_rank_at_least(x: Any, k: int, splits_dtype: Any) -> RaggedTensor:
    """``x`` (a Tensor or a RaggedTensor) with at least ``k`` partitioned dimensions."""
    if not isinstance(x, RaggedTensor):
        t = convert_to_tensor(x)
        if t._value.ndim <= k:
            raise ValueError(f"a rank-{t._value.ndim} tensor cannot be joined with a RaggedTensor of "
                             f"ragged rank {k}: it needs rank {k + 1} or more.")
        return RaggedTensor.from_tensor(t, ragged_rank=k, row_splits_dtype=splits_dtype)
    if x.ragged_rank >= k:
        return x
    return x.with_values(_ragged_rank_at_least(x._values, k - 1, splits_dtype))


@constant_maker  # (row partitions read through _py_value)
def _concat0(rts: list) -> RaggedTensor:
    """RaggedTensors of one ragged rank, their rows one after another."""
    vals = [r._values for r in rts]
    if isinstance(vals[0], RaggedTensor):
        v: Any = _concat0(vals)
    else:
        v = _array.concat(vals, 0)
    parts, off = [np.zeros(1, np.int64)], 0
    for r in rts:
        sp = r._splits("concat").astype(np.int64)
        parts.append(sp[1:] + off)
        off += int(sp[-1])
    return RaggedTensor(v, _wrap(np.concatenate(parts).astype(rts[0]._row_splits._value.dtype)), None,
                        internal=True)


@constant_maker  # (row partitions read through _py_value)
def _joinable(values: Any, what: str) -> tuple:
    items = list(values)
    if not items:
        raise ValueError(f"{what} needs at least one tensor.")
    ragged = [v for v in items if isinstance(v, RaggedTensor)]
    sdt = ragged[0].row_splits_dtype if ragged else _dt.int64
    dt = ragged[0].dtype if ragged else None
    items = [v if isinstance(v, RaggedTensor) else convert_to_tensor(v, dtype_hint=dt) for v in items]
    return items, sdt


def concat(values: Any, axis: Any, name: Any = None) -> Any:
    """``tf.concat`` with RaggedTensors: rows after rows (``axis=0``), row by row (``axis=1``),
    or within rows of equal partitions (deeper axes)."""
    items, sdt = _joinable(values, "concat")
    if not any(isinstance(v, RaggedTensor) for v in items):
        return _array.concat(items, axis)
    nd = builtins.max(v.ndim if isinstance(v, RaggedTensor) else v._value.ndim for v in items)
    a = _norm_axis(axis, nd, "concat")
    k = builtins.max(v.ragged_rank for v in items if isinstance(v, RaggedTensor))
    if a == 0:
        return _concat0([_ragged_rank_at_least(v, k, sdt) for v in items])
    if a == 1:
        return stack(items, 1).merge_dims(1, 2)
    rts = [_ragged_rank_at_least(v, 1, sdt) for v in items]
    if not all(_same_partition_outer(rts[0], r) for r in rts[1:]):
        raise InvalidArgumentError("concat along an axis > 1 needs RaggedTensors with the same rows.")
    return rts[0].with_values(concat([r._values for r in rts], a - 1))


def _same_partition_outer(x: RaggedTensor, y: RaggedTensor) -> bool:
    return np.array_equal(x._splits("concat"), y._splits("concat"))


@constant_maker  # (row partitions read through _py_value)
def stack(values: Any, axis: int = 0, name: Any = None) -> Any:
    """Stack Tensors and RaggedTensors along a new ``axis`` (``tf.ragged.stack``; also ``tf.stack``
    with a RaggedTensor among ``values``). The result is always a RaggedTensor.

    >>> import tapegrad as tf
    >>> tf.ragged.stack([tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[4]])])
    <tf.RaggedTensor [[[1, 2], [3]], [[4]]]>
    """
    items, sdt = _joinable(values, "stack")
    nd = builtins.max(v.ndim if isinstance(v, RaggedTensor) else v._value.ndim for v in items)
    a = _norm_axis(axis, nd + 1, "stack")
    if not any(isinstance(v, RaggedTensor) for v in items):
        if nd == 1 and a == 0:  # vectors of any lengths: one row each
            return RaggedTensor.from_row_lengths(_array.concat(items, 0), np.array(  # (int32 lengths: as TF)
                [v._value.shape[0] for v in items], np.int32), validate=False)
        if a >= nd - 1:
            return _array.stack(items, a)
    k = builtins.max([v.ragged_rank for v in items if isinstance(v, RaggedTensor)] + [1])
    # (a RaggedTensor among the values: every value a RaggedTensor of the largest ragged rank)
    rts = [_ragged_rank_at_least(v, k, sdt) for v in items]
    if a == 0:
        return RaggedTensor.from_row_lengths(_concat0(rts), np.array([v.nrows_int() for v in rts], sdt._np),
                                             validate=False)
    if a == 1:
        n = {r.nrows_int() for r in rts}
        if len(n) != 1:
            raise InvalidArgumentError(f"stack along axis 1 needs the same number of rows in every "
                                       f"tensor, got {sorted(n)}.")
        rows = n.pop()
        m = len(rts)
        order = (np.arange(rows)[:, None] + rows * np.arange(m)[None, :]).reshape(-1)
        splits = _wrap((np.arange(rows + 1) * m).astype(sdt._np))  # (rows of m: not uniform, as TF's)
        return RaggedTensor(_gather_rows(_concat0(rts), order), splits, None, internal=True)
    if not all(_same_partition_outer(rts[0], r) for r in rts[1:]):
        raise InvalidArgumentError("stack along an axis > 1 needs RaggedTensors with the same rows.")
    return rts[0].with_values(stack([r._values for r in rts], a - 1))


@constant_maker  # (row partitions read through _py_value)
def gather(params: Any, indices: Any, validate_indices: Any = None, axis: Any = None, batch_dims: int = 0,
           name: Any = None) -> Any:
    """``tf.gather`` with a RaggedTensor: rows of ragged ``params`` (``axis=0``), or a dense
    ``params`` gathered at ragged ``indices`` (a result with the indices' rows)."""
    if batch_dims or axis not in (None, 0):
        raise NotImplementedError("tf.gather of a RaggedTensor supports axis=0 and batch_dims=0 in "
                                  "tapegrad; index rows with rt[...] or gather its values.")
    if isinstance(indices, RaggedTensor):
        if isinstance(params, RaggedTensor):
            return indices.with_flat_values(gather(params, indices.flat_values))
        return indices.with_flat_values(_indexing.gather(params, indices.flat_values))
    idx_t = convert_to_tensor(indices)
    if idx_t._value.dtype.kind not in "iu":
        raise TypeError(f"gather: indices must be an integer tensor, got {idx_t.dtype.name}.")
    idx = _np(idx_t, "gather indices")
    n = params.nrows_int()
    bad = (idx < 0) | (idx >= n)
    if bad.any():
        j = int(np.argmax(bad.reshape(-1)))
        raise InvalidArgumentError(f"indices[{j}] = {idx.reshape(-1)[j]} is not in [0, {n})")
    if idx.ndim == 0:
        return params[int(idx)]
    out: Any = _gather_rows(params, idx.reshape(-1).astype(np.int64))
    for d in reversed(idx.shape[1:]):  # (outer dimensions of the indices: rows of d, as TF's)
        n_out = out.nrows_int() // d
        out = RaggedTensor(out, _wrap((np.arange(n_out + 1) * d).astype(out._row_splits._value.dtype)), None,
                           internal=True)
    return out


def shape(input: Any, out_type: Any = _dt.int32, name: Any = None) -> DynamicRaggedShape:  # noqa: A002
    """``tf.shape`` of a RaggedTensor: a :class:`DynamicRaggedShape` (its uniform dimensions as
    numbers, its ragged ones as row lengths)."""
    if not isinstance(input, RaggedTensor):
        raise _unhandled("tf.shape")
    return DynamicRaggedShape._of(input, out_type)


def size(input: Any, out_type: Any = _dt.int32, name: Any = None) -> Tensor:  # noqa: A002
    """The number of values of a RaggedTensor."""
    if not isinstance(input, RaggedTensor):
        raise _unhandled("tf.size")
    return _array.size(input.flat_values, out_type)


@constant_maker  # (row partitions read through _py_value)
def rank(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """The rank of a RaggedTensor (an int32 scalar)."""
    if not isinstance(input, RaggedTensor):
        raise _unhandled("tf.rank")
    return _wrap(np.array(input.ndim, np.int32))


def cast(x: Any, dtype: Any, name: Any = None) -> Any:
    """``tf.cast`` of a RaggedTensor: its values cast, the same partition."""
    if not isinstance(x, RaggedTensor):
        raise _unhandled("tf.cast")
    return x.with_flat_values(_math.cast(x.flat_values, dtype))


def _unhandled(what: str) -> TypeError:
    return TypeError(f"{what} got a RaggedTensor inside a structure tapegrad does not handle; pass "
                     "the RaggedTensor itself, or convert it with .to_tensor().")


# --------------------------------------------------------------------------- tf.ragged
def _depths(x: Any, d: int, scalars: set, lists: list) -> None:
    if isinstance(x, (list, tuple)):
        lists[0] = builtins.max(lists[0], d + 1)
        for item in x:
            _depths(item, d + 1, scalars, lists)
    else:
        scalars.add(d)


@constant_maker  # (row partitions read through _py_value)
def constant(pylist: Any, dtype: Any = None, ragged_rank: Any = None, inner_shape: Any = None,
             name: Any = None, row_splits_dtype: Any = _dt.int64) -> Any:
    """A RaggedTensor from nested Python lists (TensorFlow's ``tf.ragged.constant``): Python ints
    become int32, floats float32, as ``tf.constant``'s; every scalar must sit at the same depth.
    ``ragged_rank`` (default: all but the innermost dimension... the rank minus 1 minus
    ``len(inner_shape)``) says how many dimensions are partitioned; the rest must be uniform.

    >>> import tapegrad as tf
    >>> tf.ragged.constant([[1.0, 2.0], [3.0]])
    <tf.RaggedTensor [[1.0, 2.0], [3.0]]>
    >>> tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1).shape
    TensorShape([2, None, 2])
    """
    if isinstance(pylist, (RaggedTensor, Tensor)):
        raise TypeError("pylist may not be a RaggedTensor or a Tensor; give nested Python lists.")
    if isinstance(pylist, np.ndarray):
        pylist = pylist.tolist()
    if not isinstance(pylist, (list, tuple)):
        if ragged_rank not in (None, 0):
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank={ragged_rank}")
        return convert_to_tensor(pylist, dtype=dtype)
    scalars: set = set()
    lists = [0]
    _depths(pylist, 0, scalars, lists)
    if len(scalars) > 1:
        raise ValueError("all scalar values must have the same nesting depth")
    has_scalars = bool(scalars)
    rank = scalars.pop() if scalars else lists[0]  # (the depth of the scalars, or of the lists)
    inner = None if inner_shape is None else tuple(int(d) for d in inner_shape)
    if ragged_rank is None:
        ragged_rank = builtins.max(0, rank - 1 - (len(inner) if inner is not None else 0))
    ragged_rank = int(ragged_rank)
    if ragged_rank < 0:
        raise ValueError(f"Invalid ragged_rank={ragged_rank}: must be nonnegative")
    if has_scalars and ragged_rank >= rank:
        raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank={ragged_rank}")
    if inner is not None and has_scalars and ragged_rank + len(inner) + 1 != rank:
        raise ValueError(f"Inconsistent inner_shape={list(inner)}: the values have rank {rank} "
                         f"with ragged_rank={ragged_rank}.")
    sdt = _dt.as_dtype(row_splits_dtype)._np
    if sdt not in (np.int32, np.int64):
        raise ValueError("row_splits_dtype must be int32 or int64")
    nested, level = [], list(pylist)
    for _ in builtins.range(ragged_rank):
        lens = [len(x) for x in level]
        nested.append(np.concatenate([[0], np.cumsum(lens)]).astype(sdt))
        level = [y for x in level for y in x]
    if level:
        try:
            vals = convert_to_tensor(level, dtype=dtype)
        except ValueError as e:
            raise ValueError(f"the inner values of the ragged constant have inconsistent shapes "
                             f"(ragged_rank={ragged_rank} partitions the outer dimensions only): "
                             f"{e}") from None
        if inner is not None and tuple(vals._value.shape[1:]) != inner:
            try:
                vals = _array.reshape(vals, (-1,) + inner)
            except Exception:
                raise ValueError(f"the inner values have shape {list(vals._value.shape[1:])}, not "
                                 f"inner_shape={list(inner)}.") from None
    else:
        np_dt = _dt.float32._np if dtype is None else _dt.as_dtype(dtype)._np
        vals = _wrap(np.zeros((0,) + (inner or (0,) * builtins.max(0, rank - ragged_rank - 1)), np_dt))
    if ragged_rank == 0:
        return vals
    out: Any = vals
    for sp in reversed(nested):
        out = RaggedTensor(out, _wrap(sp), None, internal=True)
    return out


@constant_maker  # (row partitions read through _py_value)
def range(starts: Any, limits: Any = None, deltas: Any = 1, dtype: Any = None, name: Any = None,  # noqa: A001
          row_splits_dtype: Any = _dt.int64) -> RaggedTensor:
    """Row ``i`` is ``range(starts[i], limits[i], deltas[i])`` (scalars broadcast; one argument:
    ``range(0, starts[i])``).

    >>> import tapegrad as tf
    >>> tf.ragged.range([3, 0, 2])
    <tf.RaggedTensor [[0, 1, 2], [], [0, 1]]>
    """
    if limits is None:
        starts, limits = 0, starts
    ts = [convert_to_tensor(a, dtype=dtype) if dtype is not None else convert_to_tensor(a)
          for a in (starts, limits, deltas)]
    dts = {t.dtype for t in ts}
    if len(dts) > 1:
        if dtype is None and all(t._value.dtype.kind in "iu" for t in ts):
            dts = {_dt.int64} if _dt.int64 in dts else dts
        if len(dts) > 1:
            raise TypeError(f"ragged.range: starts, limits and deltas have different dtypes "
                            f"{sorted(d.name for d in dts)}; give them one dtype.")
    dt = dts.pop()
    arrs = [_np(t, "ragged.range") for t in ts]
    if any(a.ndim > 1 for a in arrs):
        raise InvalidArgumentError("starts, limits and deltas must be scalars or vectors [Op:RaggedRange]")
    if len({a.shape for a in arrs if a.ndim}) > 1:
        raise InvalidArgumentError("starts, limits, and deltas must have the same shape [Op:RaggedRange]")
    s, lim, d = np.broadcast_arrays(*arrs)
    if (d == 0).any():
        raise InvalidArgumentError("Requires delta != 0")
    s, lim, d = np.atleast_1d(s), np.atleast_1d(lim), np.atleast_1d(d)
    rows = [np.arange(a, b, c, dtype=dt._np) for a, b, c in zip(s.tolist(), lim.tolist(), d.tolist())]
    lens = np.array([r.size for r in rows], np.int64)
    vals = np.concatenate(rows) if rows else np.zeros(0, dt._np)
    sp = np.concatenate([[0], np.cumsum(lens)]).astype(_dt.as_dtype(row_splits_dtype)._np)
    return RaggedTensor(_wrap(vals.astype(dt._np)), _wrap(sp), None, internal=True)


@constant_maker  # (row partitions read through _py_value)
def boolean_mask(data: Any, mask: Any, name: Any = None) -> Any:
    """Keep the items of ``data`` where ``mask`` is true, without flattening the mask's
    dimensions: a rank-k mask filters dimension k-1 of every row (a RaggedTensor result for
    k > 1).

    >>> import tapegrad as tf
    >>> tf.ragged.boolean_mask([[1, 2, 3], [4, 5, 6]], [[True, False, True], [False, False, True]])
    <tf.RaggedTensor [[1, 3], [6]]>
    """
    m = mask if isinstance(mask, RaggedTensor) else convert_to_tensor(mask)
    if m.dtype != _dt.bool:
        raise TypeError(f"mask must be a bool tensor, got {m.dtype.name}.")
    mrank = m.ndim if isinstance(m, RaggedTensor) else m._value.ndim
    if mrank == 0:
        raise ValueError("mask cannot be a scalar (rank 0).")
    d = data if isinstance(data, RaggedTensor) else convert_to_tensor(data)
    drank = d.ndim if isinstance(d, RaggedTensor) else d._value.ndim
    if mrank > drank:
        raise ValueError(f"the mask's rank ({mrank}) must be at most the data's ({drank}).")
    if mrank == 1:
        mv = _np(m, "boolean_mask")
        n = d.nrows_int() if isinstance(d, RaggedTensor) else d._value.shape[0]
        if mv.shape[0] != n:
            raise ValueError(f"the mask has {mv.shape[0]} rows and the data {n}.")
        return _take_rows(d, np.flatnonzero(mv))
    sdt = d.row_splits_dtype if isinstance(d, RaggedTensor) else (
        m.row_splits_dtype if isinstance(m, RaggedTensor) else _dt.int64)
    d = _ragged_rank_at_least(d, 1, sdt)
    m = _ragged_rank_at_least(m, 1, sdt)
    if not np.array_equal(d._splits("boolean_mask"), m._splits("boolean_mask")):
        raise InvalidArgumentError("the mask's rows must have the same lengths as the data's.")
    if mrank == 2:
        mv = _np(m.flat_values if not isinstance(m._values, RaggedTensor) else m._values, "boolean_mask")
        keep = np.flatnonzero(mv)
        lens = np.bincount(d._rowids()[keep], minlength=d.nrows_int()).astype(np.int64)
        sp = np.concatenate([[0], np.cumsum(lens)]).astype(d._row_splits._value.dtype)
        return RaggedTensor(_take_rows(d._values, keep), _wrap(sp), None, internal=True)
    return d.with_values(boolean_mask(d._values, m._values))


def map_flat_values(op: Callable, *args: Any, **kwargs: Any) -> Any:
    """``op`` applied to the flat values of the RaggedTensors among ``args`` and ``kwargs`` (which
    must share their row partitions); the result keeps that partition.

    >>> import tapegrad as tf
    >>> tf.ragged.map_flat_values(tf.one_hot, tf.ragged.constant([[1, 2], [0]]), 3).shape
    TensorShape([2, None, 3])
    """
    ragged = [x for x in _nest.flatten([list(args), kwargs]) if isinstance(x, RaggedTensor)]
    if not ragged:
        return op(*args, **kwargs)
    first = ragged[0]
    for r in ragged[1:]:
        if not _same_partition(first, r):
            raise ValueError("map_flat_values: the RaggedTensors in the arguments have different "
                             "row partitions (they must all share one).")

    @constant_maker  # (row partitions read through _py_value)
    def flat(x: Any) -> Any:
        return x.flat_values if isinstance(x, RaggedTensor) else x
    out = op(*[_nest.map_structure(flat, a) for a in args],
             **{k: _nest.map_structure(flat, v) for k, v in kwargs.items()})
    out = convert_to_tensor(out)
    want = first.flat_values._value.shape[0]
    if out._value.ndim == 0 or out._value.shape[0] != want:
        raise ValueError(f"map_flat_values: op returned a tensor of shape {list(out._value.shape)}, "
                         f"which does not keep the {want} rows of the flat values.")
    return first.with_flat_values(out)


@constant_maker  # (row partitions read through _py_value)
def row_splits_to_segment_ids(splits: Any, name: Any = None, out_type: Any = None) -> Tensor:
    """The row of each value, from row splits.

    >>> import tapegrad as tf
    >>> tf.ragged.row_splits_to_segment_ids([0, 3, 3, 5]).numpy()
    array([0, 0, 0, 2, 2])
    """
    sp_t = convert_to_tensor(splits, dtype_hint=_dt.int64)
    sp = _np(sp_t, "row_splits_to_segment_ids")
    if sp.ndim != 1 or sp.size == 0 or sp.dtype.kind not in "iu":
        raise ValueError(f"splits must be a non-empty integer vector, got {sp.tolist()!r}.")
    if (np.diff(sp) < 0).any():
        raise InvalidArgumentError(f"splits must be non-decreasing, got {sp.tolist()}.")
    dt = sp.dtype if out_type is None else _dt.as_dtype(out_type)._np
    return _wrap(np.repeat(np.arange(sp.size - 1), np.diff(sp)).astype(dt))


@constant_maker  # (row partitions read through _py_value)
def segment_ids_to_row_splits(segment_ids: Any, num_segments: Any = None, out_type: Any = None,
                              name: Any = None) -> Tensor:
    """Row splits from the (sorted) row of each value.

    >>> import tapegrad as tf
    >>> tf.ragged.segment_ids_to_row_splits([0, 0, 0, 2, 2]).numpy()
    array([0, 3, 3, 5])
    """
    ids_t = convert_to_tensor(segment_ids, dtype_hint=_dt.int64)
    ids = _np(ids_t, "segment_ids_to_row_splits")
    if ids.ndim != 1 or ids.dtype.kind not in "iu":
        raise ValueError(f"segment_ids must be an integer vector, got shape {list(ids.shape)}.")
    if (ids < 0).any():
        raise InvalidArgumentError("segment_ids must be non-negative.")
    n = (int(ids.max()) + 1 if ids.size else 0) if num_segments is None else int(_np(convert_to_tensor(num_segments), "num_segments"))
    counts = np.bincount(ids, minlength=n)[:n] if ids.size else np.zeros(n, np.int64)
    dt = np.int64 if out_type is None else _dt.as_dtype(out_type)._np
    return _wrap(np.concatenate([[0], np.cumsum(counts)]).astype(dt))


# --------------------------------------------------------------------------- dispatch
for _op, _handler in [(_reduction.reduce_sum, reduce_sum), (_reduction.reduce_mean, reduce_mean),
                      (_reduction.reduce_max, reduce_max), (_reduction.reduce_min, reduce_min),
                      (_reduction.reduce_prod, reduce_prod), (_reduction.reduce_any, reduce_any),
                      (_reduction.reduce_all, reduce_all), (_array.concat, concat), (_array.stack, stack),
                      (_array.shape, shape), (_array.size, size), (_array.rank, rank),
                      (_array.expand_dims, expand_dims), (_indexing.gather, gather), (_math.cast, cast),
                      (_array.tile, tile), (_indexing.embedding_lookup, embedding_lookup), (_math.where, where),
                      (_reduction.reduce_variance, reduce_variance), (_reduction.reduce_std, reduce_std),
                      (_control_flow.map_fn, map_fn), (_array.reshape, reshape), (_array.reverse, reverse)]:
    _dispatch.COMPOSITE_APIS[_op, RaggedTensor] = _handler
for _op in (_math.zeros_like, _math.ones_like, _math.clip_by_value, _array.identity, _array.one_hot,
            _math.sign, _math.reciprocal, _special.round, _special.squared_difference, _special.divide_no_nan,
            _nn.relu, _nn.relu6, _nn.elu, _nn.selu, _nn.leaky_relu, _nn.gelu, _nn.silu,
            _math.real, _math.imag, _math.conj, _math.scalar_mul, _math.realdiv, _math.truncatediv,
            _math.truncatemod, _special.erfcinv, _special.zeta, _special.log_sigmoid, _special.reciprocal_no_nan,
            _special.angle, _array.bitcast):
    _dispatch.COMPOSITE_APIS[_op, RaggedTensor] = _map_values(_op)
_dispatch.COMPOSITE_APIS[_math.add_n, RaggedTensor] = \
    lambda inputs, name=None: _map_values(lambda *vs: _math.add_n(list(vs)))(*inputs)
for _op in (_segment_ops.unsorted_segment_sum, _segment_ops.unsorted_segment_mean, _segment_ops.unsorted_segment_max,
            _segment_ops.unsorted_segment_min, _segment_ops.unsorted_segment_prod,
            _segment_ops.unsorted_segment_sqrt_n):
    _dispatch.COMPOSITE_APIS[_op, RaggedTensor] = _segments_of_values(_op)
_dispatch.COMPOSITE_BINARY[RaggedTensor] = _binary
