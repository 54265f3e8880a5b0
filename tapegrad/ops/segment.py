"""Segment reductions: ``unsorted_segment_sum/mean/max/min/prod/sqrt_n`` and
``segment_sum/mean/max/min/prod`` (sorted ids).

Sums and means reuse ``UnsortedSegmentSum`` (declared here); maxima and minima are the ops
``UnsortedSegmentMax`` and ``UnsortedSegmentMin``, whose gradient splits equally between tied
extremes of a segment, as TensorFlow's does. Segment ids are validated here (with
TensorFlow's messages), so the forwards can trust them.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _backend as _bk, _vmap, dtypes as _dt
from .._convert import as_tensor, check_values, convert_to_tensor, host_value
from .._dispatch import apply, composite_api, defop
from .._tensor import Tensor, constant_maker, wrap as _wrap
from ..errors import InvalidArgumentError
from .array import _err, _lead, reshape
from .math import (_add, _check_kind, _where, abs as abs_, cast, conj, equal, floordiv, less, logical_and,
                   logical_not, maximum, ones_like, sign, truediv, where, zeros_like)
from .indexing import _gather

__all__ = ["unsorted_segment_sum", "segment_sum", "segment_mean", "unsorted_segment_mean",
    "segment_max", "unsorted_segment_max", "segment_min", "unsorted_segment_min", "segment_prod",
    "unsorted_segment_prod", "unsorted_segment_sqrt_n", "bincount", "confusion_matrix",
    "histogram_fixed_width", "histogram_fixed_width_bins"]


def _uss_fwd(data: np.ndarray, ids: np.ndarray, num_segments: int) -> np.ndarray:
    out = np.zeros((num_segments,) + data.shape[ids.ndim:], data.dtype)
    ok = ids >= 0
    if ok.all():
        np.add.at(out, ids, data)
    else:
        np.add.at(out, ids[ok], data[ok])
    return out


@constant_maker
def _uss_vjp(g: Tensor, ans: Tensor, data: Tensor, ids: Tensor, num_segments: int) -> Tensor:
    lead = _lead(g, ans)
    idx = np.maximum(host_value(ids, "segment ids"), 0)
    r = apply(_gather, (g, _wrap(idx)), {"axis": lead, "batch_dims": 0})
    if (host_value(ids, "segment ids") < 0).any():
        mask = _wrap(np.broadcast_to((host_value(ids, "segment ids") >= 0).reshape(ids._value.shape + (1,) * (data._value.ndim - ids._value.ndim)), data._value.shape))
        r = where(mask, r, zeros_like(r))
    return r


_uss = defop("UnsortedSegmentSum", _uss_fwd, vjp=(_uss_vjp, None), batch_ok=False, jvp="linear")
def _segment_rule(op: Any, n: int, xs: list, bat: tuple, p: dict) -> Any:
    """Segment ``k`` of row ``i`` becomes segment ``i * num + k`` of one flat call."""
    data, ids = _vmap.lift_all(n, xs, bat)
    num = p["num_segments"]
    iv = ids._value
    k = iv.ndim - 1
    off = _wrap((np.arange(n, dtype=iv.dtype) * iv.dtype.type(num)).reshape((n,) + (1,) * k))
    dropped = less(ids, _wrap(iv.dtype.type(0)))  # (id -1: the entry is dropped)
    ids = apply(_where, (dropped, ids, apply(_add, (ids, off))))
    m = int(np.prod(iv.shape, dtype=np.int64))
    flat = apply(op, (_vmap.reshape(data, (m,) + data._value.shape[k + 1:]), _vmap.reshape(ids, (m,))),
                 {**p, "num_segments": n * num})
    return _vmap.reshape(flat, (n, num) + flat._value.shape[1:])


_vmap.register(_uss, _segment_rule)
_bk.register(_uss, lambda be, data, ids, num_segments: _bk.scatter_add(be, data, ids, num_segments, 0))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def unsorted_segment_sum(data: Any, segment_ids: Any, num_segments: Any, name: Any = None) -> Tensor:
    """``out[s] = Σ data[i]`` over ``i`` with ``segment_ids[i] == s`` (negative ids are dropped)."""
    d = as_tensor(data)
    ids = as_tensor(segment_ids)
    n = int(host_value(num_segments, "num_segments") if isinstance(num_segments, Tensor) else num_segments)
    ish = ids._value.shape
    if ids._value.dtype.kind not in "iu":
        raise TypeError(f"unsorted_segment_sum: segment_ids must be integers, got {ids.dtype.name}.")
    if d._value.shape[:len(ish)] != ish:
        raise _err("UnsortedSegmentSum", f"data.shape = {list(d._value.shape)} does not start with "
                                         f"segment_ids.shape = {list(ish)}")

    def in_range(iv: np.ndarray) -> None:
        if iv.size and iv.max() >= n:
            raise _err("UnsortedSegmentSum", f"segment_ids[{np.argmax(iv >= n)}] = {iv.max()} is out of "
                                             f"range [0, {n})")
    check_values(in_range, ids)
    return apply(_uss, (d, ids), {"num_segments": n})


def _ids(segment_ids: Any, data: Tensor, op: str) -> np.ndarray:
    ids = as_tensor(segment_ids)
    iv = host_value(ids, "segment ids")
    if iv.dtype not in (np.int32, np.int64):
        raise _err(op, f"segment_ids must be int32 or int64, got {ids.dtype.name}")
    if data._value.ndim < iv.ndim or data._value.shape[:iv.ndim] != iv.shape:
        raise _err(op, f"data.shape = {list(data._value.shape)} does not start with "
                       f"segment_ids.shape = {list(iv.shape)}")
    return iv


def _num(num_segments: Any, op: str) -> int:
    v = np.asarray(host_value(num_segments, f"{op}: num_segments"))
    if v.ndim or v.dtype.kind not in "iu":
        raise _err(op, f"num_segments must be a scalar integer, got {num_segments!r}")
    if int(v) < 0:
        raise _err(op, f"num_segments must be >= 0, got {int(v)}")
    return int(v)


def _unsorted_ids(data: Tensor, segment_ids: Any, num_segments: Any, op: str) -> tuple[np.ndarray, int]:
    iv = _ids(segment_ids, data, op)
    n = _num(num_segments, op)
    if iv.size and iv.max() >= n:
        pos = np.argwhere(iv >= n)[0].tolist()
        raise _err(op, f"segment_ids{pos} = {iv[tuple(pos)]} is out of range [0, {n})")
    return iv, n


def _sorted_ids(data: Tensor, segment_ids: Any, op: str) -> tuple[np.ndarray, int]:
    """Validate sorted segment ids (a vector along data's first axis); return them and the count."""
    iv = _ids(segment_ids, data, op)
    if iv.ndim != 1:
        raise _err(op, f"segment_ids should be a vector, got shape {list(iv.shape)}")
    if iv.size and iv.min() < 0:
        raise _err(op, f"Segment id {iv.min()} out of range [0, {iv.max() + 1}), possibly because "
                       "'segment_ids' input is not sorted")
    if iv.size > 1 and np.any(np.diff(iv) < 0):
        raise _err(op, "segment ids are not increasing")
    return iv, int(iv[-1]) + 1 if iv.size else 0


def _sorted_data(data: Any, segment_ids: Any, kinds: str, op: str) -> tuple[Tensor, np.ndarray, int]:
    d = as_tensor(data)
    _check_kind(d, kinds, op)
    return (d,) + _sorted_ids(d, segment_ids, op)


def _counts(iv: np.ndarray, n: int) -> np.ndarray:
    return np.bincount(iv[iv >= 0].ravel(), minlength=n)[:n]


@constant_maker
def _per_segment(c: np.ndarray, data: Tensor, iv: np.ndarray) -> Tensor:
    """A per-segment constant shaped to broadcast against the segment reduction's output."""
    return _wrap(c.astype(data._value.dtype).reshape(c.shape + (1,) * (data._value.ndim - iv.ndim)))


# --------------------------------------------------------------------------- sums and means
@constant_maker
def segment_sum(data: Any, segment_ids: Any, name: Any = None) -> Tensor:
    """``out[s] = Σ data[i]`` over the rows with ``segment_ids[i] == s``.

    ``segment_ids`` is a sorted int32/int64 vector as long as ``data``'s first axis; the output
    has ``segment_ids[-1] + 1`` rows (empty segments are 0).

    >>> import tapegrad as tf
    >>> tf.math.segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 0, 2])).numpy()
    array([3., 0., 3.], dtype=float32)
    """
    d, iv, n = _sorted_data(data, segment_ids, "fciu", "SegmentSum")
    return apply(_uss, (d, _wrap(iv)), {"num_segments": n})


@constant_maker
def _mean(d: Tensor, iv: np.ndarray, n: int) -> Tensor:
    s = apply(_uss, (d, _wrap(iv)), {"num_segments": n})
    c = np.maximum(_counts(iv, n), 1)
    if d._value.dtype.kind in "iu":  # integer mean, truncated toward zero (no gradient)
        return sign(s) * floordiv(abs_(s), _per_segment(c, d, iv))
    return s / _per_segment(c, d, iv)


def segment_mean(data: Any, segment_ids: Any, name: Any = None) -> Tensor:
    """Mean of each segment (sorted ids, as :func:`segment_sum`); empty segments are 0.

    >>> import tapegrad as tf
    >>> tf.math.segment_mean(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 0, 2])).numpy()
    array([1.5, 0. , 3. ], dtype=float32)
    """
    d, iv, n = _sorted_data(data, segment_ids, "fciu", "SegmentMean")
    return _mean(d, iv, n)


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
@constant_maker
def unsorted_segment_mean(data: Any, segment_ids: Any, num_segments: Any, name: Any = None) -> Tensor:
    """Mean of each of ``num_segments`` segments (ids in any order; negative ids are dropped).

    Empty segments are 0. Integer data gives a float result (the sum divided by the count, as
    :func:`tf.math.truediv`), as in TensorFlow.
    """
    d = as_tensor(data)
    _check_kind(d, "fciu", "UnsortedSegmentMean")
    iv, n = _unsorted_ids(d, segment_ids, num_segments, "UnsortedSegmentMean")
    s = unsorted_segment_sum(d, _wrap(iv), n)
    c = np.maximum(_counts(iv, n), 1)
    return truediv(s, _per_segment(c, d, iv))


# --------------------------------------------------------------------------- maxima and minima
def _lowest(dt: np.dtype) -> Any:
    return np.finfo(dt).min if dt.kind == "f" else np.iinfo(dt).min


def _highest(dt: np.dtype) -> Any:
    return np.finfo(dt).max if dt.kind == "f" else np.iinfo(dt).max


def _extreme_fwd(pick: Any, start: Any) -> Any:
    """Forward of a segment max/min: ``pick`` is np.maximum or np.minimum, ``start`` the value of
    a segment before its first entry (also the result for an empty segment unless ``empty``)."""
    def fwd(data: np.ndarray, ids: np.ndarray, num_segments: int, empty: Any) -> np.ndarray:
        inner = data.shape[ids.ndim:]
        out = np.full((num_segments,) + inner, start(data.dtype), data.dtype)
        ok = ids >= 0
        d, s = data[ok], ids[ok]  # entries in data order
        nan = np.isnan(d) if d.dtype.kind == "f" else None
        if nan is None or not nan.any():
            pick.at(out, s, d)
        else:
            # TensorFlow keeps a running extreme that a NaN replaces and the next entry replaces
            # again: the result is the extreme of the entries after the segment's last NaN
            # (NaN when the NaN is last)
            row = np.arange(len(s)).reshape((-1,) + (1,) * len(inner))
            last = np.full(out.shape, -1)
            np.maximum.at(last, s, np.where(nan, row, -1))
            after = row > last[s]
            pick.at(out, s, np.where(after, d, start(data.dtype)))
            kept = np.zeros(out.shape, np.int64)
            np.add.at(kept, s, after)
            out[(last >= 0) & (kept == 0)] = np.nan
        if empty is not None:
            out[_counts(ids, num_segments) == 0] = empty
        return out
    return fwd


# ----- array-API forms (tapegrad._backend): reductions over ``[k entries, n segments]`` one-hots
def _by_segment(be: Any, data: Any, ids: Any, n: int) -> tuple:
    """``[k, n, 1...]`` hits of each entry's segment (none for a negative id), the data as
    ``[k, 1, inner...]``, and ``k``."""
    xp = be.xp
    k = math.prod(ids.shape)
    inner = tuple(data.shape[ids.ndim:])
    hits = xp.reshape(_bk.hits(be, xp.reshape(ids, (k,)), n), (k, n) + (1,) * len(inner))
    return hits, xp.reshape(data, (k, 1) + inner), k


def _extreme_form(high: bool) -> Any:
    def form(be: Any, data: Any, ids: Any, num_segments: int, empty: Any) -> Any:
        xp = be.xp
        dt = be.np_dtype(data.dtype)
        start = xp.asarray((_lowest if high else _highest)(dt), dtype=data.dtype)
        hits, d, k = _by_segment(be, data, ids, num_segments)
        if not k:
            out = xp.full((num_segments,) + tuple(data.shape[ids.ndim:]), start, dtype=data.dtype)
        else:
            kept, lost = hits, None
            if dt.kind == "f":  # TensorFlow's running extreme: only the entries after the last NaN
                rows = xp.reshape(xp.arange(k), (k,) + (1,) * (d.ndim - 1))
                last = xp.max(xp.where(hits & xp.isnan(d), rows, xp.asarray(-1, dtype=rows.dtype)), axis=0)
                kept = hits & (rows > last)
                lost = (last >= 0) & ~xp.any(kept, axis=0)
            out = (xp.max if high else xp.min)(xp.where(kept, d, start), axis=0)
            if lost is not None:
                out = xp.where(lost, xp.asarray(math.nan, dtype=data.dtype), out)
        if empty is not None:
            out = xp.where(xp.any(hits, axis=0), out, xp.asarray(empty, dtype=data.dtype))
        return out
    return form


def _prod_form(be: Any, data: Any, ids: Any, num_segments: int) -> Any:
    xp = be.xp
    hits, d, k = _by_segment(be, data, ids, num_segments)
    if not k:
        return xp.ones((num_segments,) + tuple(data.shape[ids.ndim:]), dtype=data.dtype)
    return xp.prod(xp.where(hits, d, xp.asarray(1, dtype=data.dtype)), axis=0, dtype=data.dtype)


@constant_maker
def _kept(data: Tensor, ids: Tensor) -> tuple[Tensor, Tensor]:
    """Each entry's segment (0 for a dropped entry) and whether it is kept, shaped like ``data``."""
    iv = host_value(ids, "segment ids")
    ok = iv >= 0
    okb = np.broadcast_to(ok.reshape(ok.shape + (1,) * (data._value.ndim - iv.ndim)), data._value.shape)
    return _wrap(np.where(ok, iv, 0)), _wrap(okb)


def _selection(ans: Tensor, data: Tensor, ids: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """Where each entry is its segment's extreme, each entry's segment, and 1 / (number of tied
    extremes) there; ops on the values (a tf.function trace replays them)."""
    safe, okb = _kept(data, ids)
    at = {"axis": 0, "batch_dims": 0}
    sel = logical_and(equal(data, apply(_gather, (ans, safe), at)), okb)
    num = apply(_uss, (cast(sel, _dt.int64), ids), {"num_segments": ans._value.shape[0]})
    share = cast(1.0 / maximum(cast(num, _dt.float64), 1.0), data.dtype)
    return sel, safe, apply(_gather, (share, safe), at)


def _extreme_vjp(g: Tensor, ans: Tensor, data: Tensor, ids: Tensor, num_segments: int, empty: Any) -> Tensor:
    sel, safe, share = _selection(ans, data, ids)
    r = apply(_gather, (g, safe), {"axis": _lead(g, ans), "batch_dims": 0}) * share
    return where(sel, r, zeros_like(r))


def _extreme_jvp(t: Any, ans: Tensor, data: Tensor, ids: Tensor, num_segments: int, empty: Any) -> Tensor:
    sel, safe, share = _selection(ans, data, ids)
    t = where(sel, t * share, zeros_like(t))
    return apply(_uss, (t, ids), {"num_segments": num_segments})


# ties share the gradient equally (the rules only look at which entries equal the result)
_usmax = defop("UnsortedSegmentMax", _extreme_fwd(np.maximum, _lowest), vjp=(_extreme_vjp, None), jvp=(_extreme_jvp,))
_usmin = defop("UnsortedSegmentMin", _extreme_fwd(np.minimum, _highest), vjp=(_extreme_vjp, None), jvp=(_extreme_jvp,))
_vmap.register(_usmax, _segment_rule)
_vmap.register(_usmin, _segment_rule)
_bk.register(_usmax, _extreme_form(True))
_bk.register(_usmin, _extreme_form(False))


@constant_maker
def _unsorted_extreme(op: Any, data: Any, segment_ids: Any, num_segments: Any) -> Tensor:
    d = as_tensor(data)
    _check_kind(d, "fiu", op.name)
    iv, n = _unsorted_ids(d, segment_ids, num_segments, op.name)
    return apply(op, (d, _wrap(iv)), {"num_segments": n, "empty": None})


@constant_maker
def segment_max(data: Any, segment_ids: Any, name: Any = None) -> Tensor:
    """Maximum of each segment (sorted ids, as :func:`segment_sum`); empty segments are 0.

    Tied maxima in a segment share its gradient equally (TensorFlow's rule).

    >>> import tapegrad as tf
    >>> tf.math.segment_max(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 0, 2])).numpy()
    array([2., 0., 3.], dtype=float32)
    """
    d, iv, n = _sorted_data(data, segment_ids, "fiu", "SegmentMax")
    return apply(_usmax, (d, _wrap(iv)), {"num_segments": n, "empty": 0})


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def unsorted_segment_max(data: Any, segment_ids: Any, num_segments: Any, name: Any = None) -> Tensor:
    """Maximum of each of ``num_segments`` segments (ids in any order; negative ids are dropped).

    Empty segments hold the lowest value of the dtype (``-3.4028235e38`` for float32), as in
    TensorFlow. Tied maxima share the gradient equally. NaN entries follow TensorFlow's running
    maximum: a NaN replaces the maximum so far and the next entry replaces the NaN.

    >>> import tapegrad as tf
    >>> tf.math.unsorted_segment_max(tf.constant([1.0, 5.0, 3.0]), tf.constant([1, 0, 1]), 2).numpy()
    array([5., 3.], dtype=float32)
    """
    return _unsorted_extreme(_usmax, data, segment_ids, num_segments)


@constant_maker
def segment_min(data: Any, segment_ids: Any, name: Any = None) -> Tensor:
    """Minimum of each segment (sorted ids, as :func:`segment_sum`); empty segments are 0.

    Tied minima in a segment share its gradient equally (TensorFlow's rule).
    """
    d, iv, n = _sorted_data(data, segment_ids, "fiu", "SegmentMin")
    return apply(_usmin, (d, _wrap(iv)), {"num_segments": n, "empty": 0})


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def unsorted_segment_min(data: Any, segment_ids: Any, num_segments: Any, name: Any = None) -> Tensor:
    """Minimum of each of ``num_segments`` segments (ids in any order; negative ids are dropped).

    Empty segments hold the highest value of the dtype; ties and NaN as
    :func:`unsorted_segment_max`.

    >>> import tapegrad as tf
    >>> tf.math.unsorted_segment_min(tf.constant([1.0, 5.0, 3.0]), tf.constant([1, 0, 1]), 2).numpy()
    array([5., 1.], dtype=float32)
    """
    return _unsorted_extreme(_usmin, data, segment_ids, num_segments)


# --------------------------------------------------------------------------- products
def _usprod_fwd(data: np.ndarray, ids: np.ndarray, num_segments: int) -> np.ndarray:
    out = np.ones((num_segments,) + data.shape[ids.ndim:], data.dtype)
    ok = ids >= 0
    np.multiply.at(out, ids[ok], data[ok])
    return out


def _others(ans: Tensor, data: Tensor, ids: Tensor, num_segments: int) -> Tensor:
    """For each entry, the product of the other entries of its segment (0 for dropped entries),
    exact when the segment holds zeros (TensorFlow's rule); ops on the values."""
    safe, okb = _kept(data, ids)
    gather = lambda t: apply(_gather, (t, safe), {"axis": 0, "batch_dims": 0})  # noqa: E731
    zero = logical_and(equal(data, zeros_like(data)), okb)
    nz = apply(_uss, (cast(zero, _dt.int64), ids), {"num_segments": ans._value.shape[0]})
    lone_zero = logical_and(zero, equal(gather(nz), 1))  # the only zero of its segment
    nonzero_data = where(zero, ones_like(data), data)
    prod_nonzero = apply(_usprod, (nonzero_data, ids), {"num_segments": num_segments})
    others = where(lone_zero, gather(prod_nonzero), gather(ans) / nonzero_data)
    return where(logical_and(okb, logical_not(logical_and(zero, logical_not(lone_zero)))), others,
                 zeros_like(others))


def _usprod_vjp(g: Tensor, ans: Tensor, data: Tensor, ids: Tensor, num_segments: int) -> Tensor:
    safe = _kept(data, ids)[0]
    return apply(_gather, (g, safe), {"axis": _lead(g, ans), "batch_dims": 0}) * \
        conj(_others(ans, data, ids, num_segments))


_usprod = defop("UnsortedSegmentProd", _usprod_fwd, vjp=(_usprod_vjp, None),
                jvp=(lambda t, ans, data, ids, num_segments: apply(
                    _uss, (t * _others(ans, data, ids, num_segments), ids), {"num_segments": num_segments}),))
_vmap.register(_usprod, _segment_rule)
_bk.register(_usprod, _prod_form)


@constant_maker
def segment_prod(data: Any, segment_ids: Any, name: Any = None) -> Tensor:
    """Product of each segment (sorted ids, as :func:`segment_sum`); empty segments are 1.

    The gradient of an entry is the product of the other entries of its segment, exact when the
    segment holds zeros (TensorFlow's rule).
    """
    d, iv, n = _sorted_data(data, segment_ids, "fciu", "SegmentProd")
    return apply(_usprod, (d, _wrap(iv)), {"num_segments": n})


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
@constant_maker
def unsorted_segment_prod(data: Any, segment_ids: Any, num_segments: Any, name: Any = None) -> Tensor:
    """Product of each of ``num_segments`` segments (ids in any order; negative ids are dropped;
    empty segments are 1). Gradients as :func:`segment_prod`.

    >>> import tapegrad as tf
    >>> tf.math.unsorted_segment_prod(tf.constant([2.0, 3.0, 4.0]), tf.constant([1, 0, 1]), 3).numpy()
    array([3., 8., 1.], dtype=float32)
    """
    d = as_tensor(data)
    _check_kind(d, "fciu", "UnsortedSegmentProd")
    iv, n = _unsorted_ids(d, segment_ids, num_segments, "UnsortedSegmentProd")
    return apply(_usprod, (d, _wrap(iv)), {"num_segments": n})


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
@constant_maker
def unsorted_segment_sqrt_n(data: Any, segment_ids: Any, num_segments: Any, name: Any = None) -> Tensor:
    """Sum of each segment divided by the square root of its size (floating or complex data;
    empty segments are 0), as used to combine embeddings.

    >>> import tapegrad as tf
    >>> tf.math.unsorted_segment_sqrt_n(tf.constant([2.0, 2.0]), tf.constant([0, 0]), 1).numpy().round(4)
    array([2.8284], dtype=float32)
    """
    d = as_tensor(data)
    _check_kind(d, "fc", "Sqrt")
    iv, n = _unsorted_ids(d, segment_ids, num_segments, "UnsortedSegmentSum")
    c = np.sqrt(np.maximum(_counts(iv, n), 1))
    return apply(_uss, (d, _wrap(iv)), {"num_segments": n}) / _per_segment(c, d, iv)


@constant_maker
def _bin_sums(ids: np.ndarray, n: int, weights: Any, dtype: Any) -> Tensor:
    """Σ weights (or 1s) per id in [0, n): a sum of segments, differentiable in ``weights``."""
    if weights is None:
        return _wrap(np.bincount(ids, minlength=n)[:n].astype(_dt.as_dtype(dtype).as_numpy_dtype))
    return unsorted_segment_sum(as_tensor(weights), _wrap(ids.astype(np.int64)), n)


def bincount(arr: Any, weights: Any = None, minlength: Any = None, maxlength: Any = None, dtype: Any = _dt.int32,
             name: Any = None, axis: Any = None, binary_output: bool = False) -> Tensor:
    """How many times each value ``0, 1, ..., max(arr)`` occurs in ``arr`` (``minlength`` and
    ``maxlength`` bound the length; values past it are dropped), or the sum of ``weights`` at
    them; ``axis=-1`` counts each row of a matrix; ``binary_output`` gives 1 for present values.

    >>> import tapegrad as tf
    >>> tf.math.bincount(tf.constant([1, 1, 3])).numpy()
    array([0, 2, 0, 1], dtype=int32)
    """
    a = as_tensor(arr)
    if weights is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. Please specify "
                         "only one.")
    v = np.asarray(host_value(a, "bincount"))
    v = v.astype(np.int32) if v.dtype.kind not in "iu" else v
    if axis not in (None, 0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are currently supported.")
    if v.size and v.min() < 0:
        raise InvalidArgumentError(f"bincount: arr must be non-negative, got {int(v.min())}.")
    size = int(v.max()) + 1 if v.size else 0
    size = max(size, int(minlength)) if minlength is not None else size
    size = min(size, int(maxlength)) if maxlength is not None else size
    if axis == -1 and v.ndim != 2:
        raise ValueError(f"bincount with axis=-1 needs a matrix, got shape {list(v.shape)}.")
    rows = v.shape[0] if axis == -1 else 1
    ids = ((np.arange(rows)[:, None] * size + v) if axis == -1 else v).reshape(-1)
    keep = (v < size).reshape(-1)
    w = None if weights is None else reshape(as_tensor(weights), [-1])
    if w is not None and not keep.all():
        w = w[keep]
    out = _bin_sums(ids[keep], rows * size, w, dtype)
    out = reshape(out, [rows, size]) if axis == -1 else out
    if binary_output:
        return cast(out > 0, out.dtype)
    return out


def confusion_matrix(labels: Any, predictions: Any, num_classes: Any = None, weights: Any = None,
                     dtype: Any = _dt.int32, name: Any = None) -> Tensor:
    """``[num_classes, num_classes]`` counts (or summed ``weights``) of each (label, prediction)
    pair; ``num_classes`` defaults to the largest class seen plus one.

    >>> import tapegrad as tf
    >>> tf.math.confusion_matrix([1, 2, 4], [2, 2, 4]).numpy()
    array([[0, 0, 0, 0, 0],
           [0, 0, 1, 0, 0],
           [0, 0, 1, 0, 0],
           [0, 0, 0, 0, 0],
           [0, 0, 0, 0, 1]], dtype=int32)
    """
    lab = np.asarray(host_value(as_tensor(labels), "labels")).astype(np.int64).reshape(-1)
    pred = np.asarray(host_value(as_tensor(predictions), "predictions")).astype(np.int64).reshape(-1)
    if lab.shape != pred.shape:
        raise ValueError(f"confusion_matrix: labels and predictions must have the same size, got {lab.size} "
                         f"and {pred.size}.")
    if (lab < 0).any() or (pred < 0).any():
        raise InvalidArgumentError("confusion_matrix: `labels` and `predictions` must be non-negative.")
    n = int(max(lab.max(initial=-1), pred.max(initial=-1)) + 1) if num_classes is None else int(num_classes)
    if (lab >= n).any() or (pred >= n).any():
        raise InvalidArgumentError(f"confusion_matrix: `labels` or `predictions` out of bound (num_classes = {n}).")
    w = None if weights is None else reshape(cast(as_tensor(weights), dtype), [-1])
    return reshape(_bin_sums(lab * n + pred, n * n, w, dtype), [n, n])


def _bins_fwd(v: np.ndarray, r: np.ndarray, nbins: int, dtype: np.dtype) -> np.ndarray:
    scaled = (v - r[0]) / (r[1] - r[0])
    return np.clip(np.floor(nbins * scaled), 0, nbins - 1).astype(dtype)


def _histogram_fwd(v: np.ndarray, r: np.ndarray, nbins: int, dtype: np.dtype) -> np.ndarray:
    return np.bincount(_bins_fwd(v, r, nbins, np.int64).ravel(), minlength=nbins).astype(dtype)


_bins = defop("HistogramFixedWidthBins", _bins_fwd, nondiff=True)
_histogram = defop("HistogramFixedWidth", _histogram_fwd, nondiff=True)


def _histogram_args(values: Any, value_range: Any, nbins: Any, op: str) -> tuple:
    v = as_tensor(values)
    _check_kind(v, "fiu", op)
    r = convert_to_tensor(value_range, dtype=v.dtype)
    if r._value.shape != (2,):
        raise _err(op, f"value_range must be [lo, hi], got shape {list(r._value.shape)}")
    n = int(nbins)
    if n <= 0:
        raise _err(op, f"nbins should be a positive number, but got '{n}'")
    return v, r, n


def histogram_fixed_width(values: Any, value_range: Any, nbins: Any = 100, dtype: Any = _dt.int32,
                          name: Any = None) -> Tensor:
    """How many ``values`` fall in each of ``nbins`` equal bins spanning ``value_range = [lo, hi]``
    (values below ``lo`` count in the first bin, values from ``hi`` up in the last).

    >>> import tapegrad as tf
    >>> tf.histogram_fixed_width(tf.constant([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0]), [0.0, 5.0], nbins=5).numpy()
    array([2, 1, 1, 0, 2], dtype=int32)
    """
    v, r, n = _histogram_args(values, value_range, nbins, "HistogramFixedWidth")
    return apply(_histogram, (v, r), {"nbins": n, "dtype": _dt.as_dtype(dtype)._np})


def histogram_fixed_width_bins(values: Any, value_range: Any, nbins: Any = 100, dtype: Any = _dt.int32,
                               name: Any = None) -> Tensor:
    """The bin of each of ``values`` among ``nbins`` equal bins spanning ``value_range`` (clipped
    to the first and last bin), shaped as ``values``.

    >>> import tapegrad as tf
    >>> tf.histogram_fixed_width_bins(tf.constant([-1.0, 1.5, 15.0]), [0.0, 5.0], nbins=5).numpy()
    array([0, 1, 4], dtype=int32)
    """
    v, r, n = _histogram_args(values, value_range, nbins, "HistogramFixedWidthBins")
    return apply(_bins, (v, r), {"nbins": n, "dtype": _dt.as_dtype(dtype)._np})
