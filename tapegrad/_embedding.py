"""``tf.nn.embedding_lookup_sparse`` and ``safe_embedding_lookup_sparse``: gathers and segment
sums of tapegrad ops, so the gradient reaches the embedding table (TensorFlow's is an
IndexedSlices there, tapegrad's dense or IndexedSlices as ``gather`` gives it)."""
from __future__ import annotations

from typing import Any

from ._convert import as_tensor
from ._tensor import Tensor
from .ops.array import concat, reshape, shape, unique
from .ops.indexing import embedding_lookup, gather
from .ops.math import cast, logical_and, sqrt, where
from .ops.special import divide_no_nan
from .ops.segment import segment_sum
from .sparse import SparseTensor, fill_empty_rows, retain
from .sparse import segment_mean as _sparse_segment_mean, segment_sqrt_n as _sparse_segment_sqrt_n
from .sparse import segment_sum as _sparse_segment_sum

__all__ = ["embedding_lookup_sparse", "safe_embedding_lookup_sparse"]


def _table(params: Any) -> Tensor:
    if isinstance(params, (list, tuple)):  # (shards: TF2's "div" strategy is their concatenation)
        return as_tensor(params[0]) if len(params) == 1 else concat([as_tensor(p) for p in params], 0)
    return params


def embedding_lookup_sparse(params: Any, sp_ids: SparseTensor, sp_weights: SparseTensor | None,
                            combiner: str | None = None, max_norm: Any = None, name: Any = None,
                            allow_fast_lookup: bool = False) -> Tensor:
    """The embeddings of each row of the SparseTensor ``sp_ids`` combined: ``"sum"``, ``"mean"``
    (the default) or ``"sqrtn"`` (sum over the root of the sum of squared weights), weighted by
    ``sp_weights`` (a SparseTensor of ``sp_ids``' indices) or by 1. The result has a row per
    row id up to the largest present, as TensorFlow's (segment sums).

    >>> import tapegrad as tf
    >>> params = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([0, 2, 1], tf.int64), [2, 2])
    >>> tf.nn.embedding_lookup_sparse(params, ids, None).numpy()
    array([[3., 4.],
           [3., 4.]], dtype=float32)
    """
    combiner = "mean" if combiner is None else combiner
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(f"sp_ids must be SparseTensor, got {type(sp_ids)}")
    if sp_weights is not None and not isinstance(sp_weights, SparseTensor):
        raise TypeError(f"sp_weights must be either None or SparseTensor, got {type(sp_weights)}")
    table = _table(params)
    rows = cast(sp_ids.indices[:, 0], "int32")
    ids, idx = unique(sp_ids.values)
    emb = embedding_lookup(table, ids, max_norm=max_norm)
    if sp_weights is None:
        op = {"sum": _sparse_segment_sum, "mean": _sparse_segment_mean, "sqrtn": _sparse_segment_sqrt_n}[combiner]
        return op(emb, idx, rows)
    w = cast(sp_weights.values, emb.dtype)
    emb = gather(emb, idx) * reshape(w, concat([[-1], [1] * (emb.shape.rank - 1)], 0))
    total = segment_sum(emb, rows)
    if combiner == "sum":
        return total
    wsum = segment_sum(w if combiner == "mean" else w * w, rows)
    if combiner == "sqrtn":
        wsum = sqrt(wsum)
    return divide_no_nan(total, reshape(wsum, concat([[-1], [1] * (emb.shape.rank - 1)], 0)))


def safe_embedding_lookup_sparse(embedding_weights: Any, sparse_ids: SparseTensor, sparse_weights: Any = None,
                                 combiner: str = "mean", default_id: Any = None, max_norm: Any = None,
                                 name: Any = None, allow_fast_lookup: bool = False) -> Tensor:
    """``embedding_lookup_sparse`` made safe, as TensorFlow's: ids below 0 (and weights not
    above 0) are dropped, a row left empty gets the embedding of ``default_id`` (zeros when
    None), and the result has ``sparse_ids``' dense shape but its last dimension, then the
    embedding's.

    >>> import tapegrad as tf
    >>> params = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> ids = tf.SparseTensor([[0, 0], [2, 0]], tf.constant([1, -1], tf.int64), [3, 2])
    >>> tf.nn.safe_embedding_lookup_sparse(params, ids).numpy()
    array([[3., 4.],
           [0., 0.],
           [0., 0.]], dtype=float32)
    """
    table = _table(embedding_weights)
    dim = shape(table)[1:]
    dense = shape(sparse_ids.dense_shape)
    rank = int(dense.numpy()[0])
    ids = sparse_ids
    weights = sparse_weights
    if rank > 2:  # (rows of the leading dimensions, flattened)
        lead = cast(sparse_ids.dense_shape[:-1], "int64")
        flat_rows = reshape(_ravel(sparse_ids.indices[:, :-1], lead), [-1, 1])
        n_rows = _prod(lead)
        new_shape = concat([reshape(n_rows, [1]), sparse_ids.dense_shape[-1:]], 0)
        ids = SparseTensor(concat([flat_rows, sparse_ids.indices[:, -1:]], 1), sparse_ids.values, new_shape)
        if weights is not None:
            weights = SparseTensor(ids.indices, weights.values, new_shape)
    keep = ids.values >= 0
    if weights is not None:
        keep = logical_and(keep, weights.values > 0)
        weights = retain(weights, keep)
    ids = retain(ids, keep)
    ids, empty = fill_empty_rows(ids, 0 if default_id is None else default_id)
    if weights is not None:
        weights, _ = fill_empty_rows(weights, 1.0)
    out = embedding_lookup_sparse(table, ids, weights, combiner=combiner, max_norm=max_norm)
    if default_id is None:
        out = where(reshape(empty, [-1, 1]), 0.0 * out, out)
    return reshape(out, concat([cast(sparse_ids.dense_shape[:-1], "int32"), cast(dim, "int32")], 0))


def _ravel(idx: Tensor, dims: Tensor) -> Tensor:
    """Row-major flat index of each row of ``idx`` in ``dims``."""
    out = idx[:, 0]
    for k in range(1, int(dims.shape[0])):
        out = out * dims[k] + idx[:, k]
    return out


def _prod(dims: Tensor) -> Tensor:
    out = dims[0]
    for k in range(1, int(dims.shape[0])):
        out = out * dims[k]
    return out
