"""The ``tf.sparse`` namespace: ops on :class:`SparseTensor`, as TensorFlow 2.21 defines them.

Each op reads the indices and dense shape in NumPy (they are integer bookkeeping) and computes
the values with tapegrad ops (``gather``, ``scatter_nd``, the segment reductions, ``matmul``),
so gradients reach ``sp.values`` and any dense operand through the ordinary tape.
"""
from __future__ import annotations

import itertools
from typing import Any, Callable

import numpy as np

from .. import _dispatch, dtypes as _dt
from .._convert import convert_to_tensor
from .._tensor import IndexedSlices, Tensor, constant_maker, wrap as _wrap
from ..errors import InvalidArgumentError
from ..ops.array import concat as _concat, fill, identity, rank, reshape as _reshape, shape as _shape, size, \
    transpose as _transpose
from ..ops.indexing import gather, gather_nd, scatter_nd, tensor_scatter_nd_update
from ..ops.linalg import matmul
from ..ops.math import cast, conj, exp, maximum as _maximum, minimum as _minimum, sign, truediv, where
from ..ops.reduction import reduce_prod
from ..ops.segment import unsorted_segment_max, unsorted_segment_sum
from ._sparse_tensor import SparseTensor, _np

__all__ = ["add", "concat", "cross", "cross_hashed", "expand_dims", "eye", "fill_empty_rows", "from_dense",
           "map_values", "mask", "maximum", "minimum", "reduce_max", "reduce_sum", "reorder", "reset_shape",
           "reshape", "retain", "segment_mean", "segment_sqrt_n", "segment_sum", "slice", "softmax",
           "sparse_dense_matmul", "split", "to_dense", "to_indicator", "transpose"]


# --------------------------------------------------------------------------- helpers
@constant_maker  # (indices and shapes read through host_value)
def _sp(x: Any, op: str, what: str = "sp_input") -> SparseTensor:
    if not isinstance(x, SparseTensor):
        raise TypeError(f"tf.sparse.{op}: {what} must be a SparseTensor, got {type(x).__name__}; make one with "
                        "tf.sparse.from_dense or tf.SparseTensor(indices, values, dense_shape).")
    return x


@constant_maker  # (indices and shapes read through host_value)
def _parts(sp: SparseTensor, op: str) -> tuple[np.ndarray, np.ndarray]:
    return sp._index_array(op), sp._shape_array(op)


@constant_maker  # (indices and shapes read through host_value)
def _linear(idx: np.ndarray, shape: np.ndarray) -> np.ndarray:
    """Row-major linear positions of index rows (the order TensorFlow's sorted indices follow)."""
    strides = np.ones(len(shape), np.int64)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * max(int(shape[d + 1]), 1)
    return (idx.astype(np.int64) * strides).sum(axis=1) if idx.size else np.zeros(len(idx), np.int64)


@constant_maker  # (indices and shapes read through host_value)
def _order(idx: np.ndarray) -> np.ndarray:
    """The stable permutation that sorts index rows lexicographically."""
    return np.lexsort(idx.T[::-1]) if idx.shape[1] else np.arange(len(idx))


@constant_maker  # (indices and shapes read through host_value)
def _pick(sp: SparseTensor, rows: np.ndarray, indices: np.ndarray, shape: Any) -> SparseTensor:
    """A SparseTensor of ``sp``'s values at positions ``rows`` (a gather, so gradients flow)."""
    return SparseTensor(indices.reshape(-1, len(np.asarray(shape))), gather(sp.values, rows.astype(np.int64)),
                        np.asarray(shape, np.int64))


@constant_maker  # (indices and shapes read through host_value)
def _fmt(v: np.ndarray) -> str:
    return "[" + ",".join(str(int(x)) for x in v) + "]"


@constant_maker  # (indices and shapes read through host_value)
def _validate(idx: np.ndarray, shape: np.ndarray) -> None:
    """TensorFlow's index checks (in bounds, strictly increasing in row-major order), first bad entry first."""
    bad_bounds = ((idx < 0) | (idx >= shape)).any(axis=1) if idx.size else np.zeros(len(idx), bool)
    lin = _linear(np.clip(idx, 0, None), shape)
    bad_order = np.concatenate([[False], np.diff(lin) <= 0]) if len(idx) else bad_bounds
    bad = np.flatnonzero(bad_bounds | bad_order)
    if not bad.size:
        return
    i = int(bad[0])
    where_ = f"indices[{i}] = {_fmt(idx[i])}"
    if bad_bounds[i]:
        raise InvalidArgumentError(f"{where_} is out of bounds: need 0 <= index < {_fmt(shape)}")
    if lin[i] == lin[i - 1]:
        raise InvalidArgumentError(f"{where_} is repeated")
    raise InvalidArgumentError(f"{where_} is out of order. Many sparse ops require sorted indices.\n"
                               "    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n")


@constant_maker  # (indices and shapes read through host_value)
def _int_vector(x: Any, what: str) -> np.ndarray:
    v = _np(x, what) if isinstance(x, Tensor) else np.asarray(x)
    if v.dtype.kind not in "iu" and v.size:
        raise TypeError(f"{what} must be integers, got {v.dtype}.")
    return v.astype(np.int64).reshape(-1)


@constant_maker  # (indices and shapes read through host_value)
def _zero(dtype: _dt.DType) -> Any:
    return b"" if dtype == _dt.string else np.zeros((), dtype.as_numpy_dtype)


# --------------------------------------------------------------------------- conversion
@constant_maker  # (indices and shapes read through host_value)
def to_dense(sp_input: SparseTensor, default_value: Any = None, validate_indices: bool = True,
             name: Any = None) -> Tensor:
    """The dense tensor: ``values`` at ``indices``, ``default_value`` (zero) elsewhere.

    With ``validate_indices`` (the default) the indices must be in bounds, in row-major order and
    without repeats (InvalidArgumentError naming the first bad one, as TensorFlow); without it, a
    repeated index keeps its last value. Out-of-bounds indices are always an error.

    >>> import tapegrad as tf
    >>> st = tf.SparseTensor([[0, 1], [2, 0]], [5, 6], [3, 2])
    >>> tf.sparse.to_dense(st, default_value=-1).numpy()
    array([[-1,  5],
           [-1, -1],
           [ 6, -1]], dtype=int32)
    """
    sp = _sp(sp_input, "to_dense")
    idx, shape = _parts(sp, "to_dense")
    if validate_indices:
        _validate(idx, shape)
    dtype = sp.dtype
    default = _zero(dtype) if default_value is None else default_value
    base = fill(shape, convert_to_tensor(default, dtype=dtype))
    return tensor_scatter_nd_update(base, sp.indices, sp.values)


@constant_maker  # (indices and shapes read through host_value)
def from_dense(tensor: Any, name: Any = None) -> SparseTensor:
    """The SparseTensor of ``tensor``'s non-zero (non-empty for strings) entries, in row-major order.

    >>> import tapegrad as tf
    >>> st = tf.sparse.from_dense([[0, 3], [4, 0]])
    >>> st.indices.numpy().tolist(), st.values.numpy().tolist()
    ([[0, 1], [1, 0]], [3, 4])
    """
    t = convert_to_tensor(tensor)
    v = np.asarray(_np(t, "from_dense"))
    idx = np.argwhere(v != _zero(t.dtype)).astype(np.int64)
    return SparseTensor(idx, gather_nd(t, idx), np.asarray(v.shape, np.int64))


@constant_maker  # (indices and shapes read through host_value)
def reorder(sp_input: SparseTensor, name: Any = None) -> SparseTensor:
    """The same entries with the indices sorted in row-major order (the order most ops require).

    >>> import tapegrad as tf
    >>> st = tf.sparse.reorder(tf.SparseTensor([[1, 0], [0, 2]], [1.0, 2.0], [2, 3]))
    >>> st.indices.numpy().tolist(), st.values.numpy().tolist()
    ([[0, 2], [1, 0]], [2.0, 1.0])
    """
    sp = _sp(sp_input, "reorder")
    idx, shape = _parts(sp, "reorder")
    perm = _order(idx)
    return _pick(sp, perm, idx[perm], shape)


@constant_maker  # (indices and shapes read through host_value)
def reshape(sp_input: SparseTensor, shape: Any, name: Any = None) -> SparseTensor:
    """The same entries in a dense shape of as many elements (one dimension may be -1).

    >>> import tapegrad as tf
    >>> st = tf.sparse.reshape(tf.SparseTensor([[0, 1], [1, 2]], [1, 2], [2, 3]), [3, -1])
    >>> st.indices.numpy().tolist(), st.dense_shape.numpy().tolist()
    ([[0, 1], [2, 1]], [3, 2])
    """
    sp = _sp(sp_input, "reshape")
    idx, old = _parts(sp, "reshape")
    new = _int_vector(shape, "tf.sparse.reshape: shape").copy()
    total = int(np.prod(old))
    unknown = np.flatnonzero(new == -1)
    if len(unknown) > 1:
        raise InvalidArgumentError(f"only one output dimension may be -1, not both {int(unknown[0])} and "
                                   f"{int(unknown[1])}")
    if (new < -1).any():
        raise InvalidArgumentError(f"size {int(np.flatnonzero(new < -1)[0])} must be non-negative, not "
                                   f"{int(new[new < -1][0])}")
    known = int(np.prod(new[new != -1]))
    if len(unknown):
        if known == 0 or total % known:
            raise InvalidArgumentError(f"Input to reshape is a SparseTensor with {total} dense values, but the "
                                       f"requested shape requires a multiple of {known}. "
                                       f"inputShape={_fmt(old)} outputShape={_fmt(new)}")
        new[unknown[0]] = total // known
    elif known != total:
        raise InvalidArgumentError(f"Input to reshape is a tensor with {total} dense values, but the requested "
                                   f"shape has {known}. inputShape={_fmt(old)} outputShape={_fmt(new)}")
    lin = _linear(idx, old)
    out = np.stack(np.unravel_index(lin, tuple(int(d) for d in new)), axis=1) if len(new) else \
        np.zeros((len(idx), 0), np.int64)
    return SparseTensor(out.astype(np.int64).reshape(len(idx), len(new)), sp.values, new)


@constant_maker  # (indices and shapes read through host_value)
def transpose(sp_input: SparseTensor, perm: Any = None, name: Any = None) -> SparseTensor:
    """The dimensions permuted by ``perm`` (default: reversed); the result is reordered.

    >>> import tapegrad as tf
    >>> st = tf.sparse.transpose(tf.SparseTensor([[0, 2], [1, 0]], [1, 2], [2, 3]))
    >>> st.indices.numpy().tolist(), st.values.numpy().tolist(), st.dense_shape.numpy().tolist()
    ([[0, 1], [2, 0]], [2, 1], [3, 2])
    """
    sp = _sp(sp_input, "transpose")
    idx, shape = _parts(sp, "transpose")
    rank = len(shape)
    p = np.arange(rank)[::-1] if perm is None else _int_vector(perm, "tf.sparse.transpose: perm")
    if sorted(p.tolist()) != list(range(rank)):
        raise InvalidArgumentError(f"tf.sparse.transpose: perm must be a permutation of 0..{rank - 1}, got "
                                   f"{p.tolist()}")
    return reorder(SparseTensor(idx[:, p], sp.values, shape[p]))


# --------------------------------------------------------------------------- arithmetic
@constant_maker  # (indices and shapes read through host_value)
def add(a: Any, b: Any, threshold: Any = 0, name: Any = None) -> Any:
    """``a + b`` with at least one SparseTensor.

    Two SparseTensors of one shape give a SparseTensor in row-major order; an index in both
    keeps its sum only if ``abs(sum) >= threshold`` (entries of one operand are kept, as in
    TensorFlow). A SparseTensor and a dense tensor give a dense tensor.

    >>> import tapegrad as tf
    >>> a = tf.SparseTensor([[0], [2]], [1.0, 2.0], [4])
    >>> b = tf.SparseTensor([[2], [3]], [-2.0, 5.0], [4])
    >>> s = tf.sparse.add(a, b, threshold=0.5)
    >>> s.indices.numpy().ravel().tolist(), s.values.numpy().tolist()
    ([0, 3], [1.0, 5.0])
    >>> tf.sparse.add(a, tf.ones([4])).numpy()
    array([2., 1., 3., 1.], dtype=float32)
    """
    sa, sb = isinstance(a, SparseTensor), isinstance(b, SparseTensor)
    if not (sa or sb):
        raise TypeError("At least one input should be SparseTensor; do you mean to use tf.add()?")
    if not (sa and sb):
        sp, dense = (a, b) if sa else (b, a)
        d = convert_to_tensor(dense, dtype=sp.dtype)
        idx, shape = _parts(sp, "add")
        if list(d._value.shape) != shape.tolist():
            raise InvalidArgumentError(f"Dimensions [0,{len(shape)}) of indices[shape={list(idx.shape)}] must "
                                       f"match dims [0,{len(shape)}) of b[shape={list(d._value.shape)}]" if
                                       len(shape) != d._value.ndim else
                                       f"a.shape = {_fmt(shape)} and b.shape = {list(d._value.shape)} "
                                       "must be equal")
        return d + scatter_nd(sp.indices, sp.values, shape)
    if a.dtype != b.dtype:
        raise TypeError(f"tf.sparse.add: the operands' dtypes differ ({a.dtype.name} and {b.dtype.name}); cast one "
                        "with tf.cast.")
    ia, shape = _parts(a, "add")
    ib, shape_b = _parts(b, "add")
    if shape.tolist() != shape_b.tolist():
        raise InvalidArgumentError(f"Operands do not have the same ranks; got shapes: {_fmt(shape)} and "
                                   f"{_fmt(shape_b)}" if len(shape) != len(shape_b) else
                                   f"Operands' shapes do not match: got {_fmt(shape)} and {_fmt(shape_b)} for "
                                   "the two SparseTensors")
    keys = _linear(np.concatenate([ia, ib]), shape)
    uniq, ids, counts = np.unique(keys, return_inverse=True, return_counts=True)
    sums = unsorted_segment_sum(_concat([a.values, b.values], 0), ids.astype(np.int64), len(uniq))
    idx = np.concatenate([ia, ib])[np.unique(ids, return_index=True)[1]] if len(uniq) else ia[:0]
    thr = float(_np(convert_to_tensor(threshold), "add")) if isinstance(threshold, Tensor) else float(threshold)
    if thr > 0:
        keep = (counts == 1) | (np.abs(_np(sums, "add")) >= thr)
        rows = np.flatnonzero(keep)
        return SparseTensor(idx[rows], gather(sums, rows), shape)
    return SparseTensor(idx.reshape(-1, len(shape)), sums, shape)


@constant_maker  # (indices and shapes read through host_value)
def _union(a: SparseTensor, b: SparseTensor, op: str) -> tuple[np.ndarray, Tensor, Tensor, np.ndarray]:
    """The union of two SparseTensors' indices (row-major) and each one's values there (zero where absent)."""
    a, b = _sp(a, op, "sp_a"), _sp(b, op, "sp_b")
    ia, shape = _parts(a, op)
    ib, shape_b = _parts(b, op)
    if shape.tolist() != shape_b.tolist():
        raise InvalidArgumentError(f"Operands' shapes do not match: got {_fmt(shape)} and {_fmt(shape_b)}")
    if a.dtype != b.dtype:
        raise TypeError(f"tf.sparse.{op}: the operands' dtypes differ ({a.dtype.name} and {b.dtype.name}).")
    keys = _linear(np.concatenate([ia, ib]), shape)
    uniq, ids = np.unique(keys, return_inverse=True)
    idx = np.concatenate([ia, ib])[np.unique(ids, return_index=True)[1]] if len(uniq) else ia[:0]
    ids = ids.astype(np.int64)
    va = unsorted_segment_sum(a.values, ids[:len(ia)], len(uniq))
    vb = unsorted_segment_sum(b.values, ids[len(ia):], len(uniq))
    return idx.reshape(-1, len(shape)), va, vb, shape


@constant_maker  # (indices and shapes read through host_value)
def maximum(sp_a: SparseTensor, sp_b: SparseTensor, name: Any = None) -> SparseTensor:
    """The elementwise maximum of two SparseTensors of one shape, at the union of their indices
    (an index in one only is compared with the other's implicit zero).

    >>> import tapegrad as tf
    >>> a = tf.SparseTensor([[0], [1]], [-1.0, 3.0], [3])
    >>> b = tf.SparseTensor([[1], [2]], [4.0, -2.0], [3])
    >>> tf.sparse.maximum(a, b).values.numpy()
    array([0., 4., 0.], dtype=float32)
    """
    idx, va, vb, shape = _union(sp_a, sp_b, "maximum")
    return SparseTensor(idx, _maximum(va, vb), shape)


@constant_maker  # (indices and shapes read through host_value)
def minimum(sp_a: SparseTensor, sp_b: SparseTensor, name: Any = None) -> SparseTensor:
    """The elementwise minimum of two SparseTensors of one shape (as :func:`maximum`).

    >>> import tapegrad as tf
    >>> a = tf.SparseTensor([[0], [1]], [-1.0, 3.0], [3])
    >>> b = tf.SparseTensor([[1], [2]], [4.0, -2.0], [3])
    >>> tf.sparse.minimum(a, b).values.numpy()
    array([-1.,  3., -2.], dtype=float32)
    """
    idx, va, vb, shape = _union(sp_a, sp_b, "minimum")
    return SparseTensor(idx, _minimum(va, vb), shape)


@constant_maker  # (indices and shapes read through host_value)
def sparse_dense_matmul(sp_a: Any, b: Any, adjoint_a: bool = False, adjoint_b: bool = False,
                        name: Any = None) -> Tensor:
    """``op(sp_a) @ op(b)`` for a rank-2 SparseTensor and a dense matrix (either may be the sparse
    one); ``op`` is the conjugate transpose when ``adjoint_*`` is set. Repeated indices add.

    Gradients reach the sparse values and the dense matrix.

    >>> import tapegrad as tf
    >>> a = tf.SparseTensor([[0, 0], [1, 2]], [2.0, 3.0], [2, 3])
    >>> tf.sparse.sparse_dense_matmul(a, tf.ones([3, 2])).numpy()
    array([[2., 2.],
           [3., 3.]], dtype=float32)
    """
    if not isinstance(sp_a, SparseTensor):
        if isinstance(b, SparseTensor):
            return matmul(sp_a, to_dense(b, validate_indices=False), adjoint_a=adjoint_a, adjoint_b=adjoint_b)
        raise TypeError("tf.sparse.sparse_dense_matmul: one of sp_a and b must be a SparseTensor; for two dense "
                        "matrices use tf.linalg.matmul.")
    idx, shape = _parts(sp_a, "sparse_dense_matmul")
    d = convert_to_tensor(b, dtype=sp_a.dtype)
    if len(shape) != 2:
        raise InvalidArgumentError("Tensor 'a_shape' must have 2 elements")
    if d._value.ndim != 2:
        raise InvalidArgumentError("Tensor 'b' is not a matrix")
    rows, cols = (idx[:, 1], idx[:, 0]) if adjoint_a else (idx[:, 0], idx[:, 1])
    n_out, inner = (int(shape[1]), int(shape[0])) if adjoint_a else (int(shape[0]), int(shape[1]))
    vals = sp_a.values
    if adjoint_a and sp_a.dtype.is_complex:
        vals = conj(vals)
    # op(b) transposed: its columns are op(b)'s rows, gathered along axis 1 so that the gradient with
    # respect to b is a dense tensor (TensorFlow's), not the IndexedSlices of a row gather
    dmt = (conj(d) if d.dtype.is_complex else d) if adjoint_b else _transpose(d)
    if dmt._value.shape[1] != inner:
        raise InvalidArgumentError(f"Cannot multiply A and B because inner dimension does not match: {inner} vs. "
                                   f"{dmt._value.shape[1]}.  Did you forget a transpose?  Dimensions of A: "
                                   f"[{int(shape[0])}, {int(shape[1])}).  Dimensions of B: "
                                   f"{list(d._value.shape)}")
    if len(idx) and ((cols < 0) | (cols >= inner) | (rows < 0) | (rows >= n_out)).any():
        k = int(np.flatnonzero((cols < 0) | (cols >= inner) | (rows < 0) | (rows >= n_out))[0])
        raise InvalidArgumentError(f"sp_a.indices[{k}] = {_fmt(idx[k])} is out of bounds for a matrix of shape "
                                   f"{_fmt(shape)}")
    prod = _reshape(vals, [-1, 1]) * _transpose(gather(dmt, cols.astype(np.int64), axis=1))
    return unsorted_segment_sum(prod, rows.astype(np.int64), n_out)


# --------------------------------------------------------------------------- reductions
@constant_maker  # (indices and shapes read through host_value)
def _reduce(sp: SparseTensor, axis: Any, keepdims: Any, output_is_sparse: bool, op: str,
            segment: Callable) -> Any:
    idx, shape = _parts(sp, op)
    rank = len(shape)
    axes = list(range(rank)) if axis is None else [int(a) for a in np.atleast_1d(_int_vector(axis, f"{op}: axis"))]
    for a in axes:
        if not -rank <= a < rank:
            raise InvalidArgumentError(f"Invalid reduction dimension {a}, for input with {rank} dimensions.")
    axes = sorted({a % rank for a in axes})
    kept = [d for d in range(rank) if d not in axes]
    kshape = shape[kept]
    keys = _linear(idx[:, kept], kshape) if kept else np.zeros(len(idx), np.int64)
    out_shape = [1 if d in axes else int(shape[d]) for d in range(rank)] if keepdims else kshape.tolist()
    if output_is_sparse:
        uniq, ids = np.unique(keys, return_inverse=True)
        vals = segment(sp.values, ids.astype(np.int64), len(uniq))
        kidx = np.stack(np.unravel_index(uniq, tuple(int(d) for d in kshape)), 1) if kept else \
            np.zeros((len(uniq), 0), np.int64)
        full = np.zeros((len(uniq), rank), np.int64)
        full[:, kept] = kidx
        out_idx = full if keepdims else kidx
        return SparseTensor(out_idx.reshape(len(uniq), len(out_shape)).astype(np.int64), vals,
                            np.asarray(out_shape, np.int64))
    n = int(np.prod(kshape)) if kept else 1
    dense = segment(sp.values, keys, n)
    if segment is unsorted_segment_max:  # (a group with no entries is 0, TensorFlow's result)
        present = np.zeros(n, bool)
        present[keys] = True
        dense = where(present, dense, _zero(sp.dtype))
    return _reshape(dense, out_shape)


@constant_maker  # (indices and shapes read through host_value)
def reduce_sum(sp_input: SparseTensor, axis: Any = None, keepdims: Any = None, output_is_sparse: bool = False,
               name: Any = None) -> Any:
    """The sum over ``axis`` (all by default) of the stored values: a dense Tensor, or with
    ``output_is_sparse`` a SparseTensor of the groups that have entries.

    >>> import tapegrad as tf
    >>> st = tf.SparseTensor([[0, 0], [0, 2], [1, 1]], [1.0, 2.0, 3.0], [2, 3])
    >>> tf.sparse.reduce_sum(st, axis=1).numpy()
    array([3., 3.], dtype=float32)
    """
    return _reduce(_sp(sp_input, "reduce_sum"), axis, keepdims, output_is_sparse, "reduce_sum",
                   unsorted_segment_sum)


@constant_maker  # (indices and shapes read through host_value)
def reduce_max(sp_input: SparseTensor, axis: Any = None, keepdims: Any = None, output_is_sparse: bool = False,
               name: Any = None) -> Any:
    """The maximum over ``axis`` of the stored values only (implicit zeros take no part; a group
    with no entries is 0, as in TensorFlow).

    >>> import tapegrad as tf
    >>> st = tf.SparseTensor([[0, 0], [2, 1]], [-1.0, -2.0], [3, 4])
    >>> tf.sparse.reduce_max(st, axis=1).numpy()
    array([-1.,  0., -2.], dtype=float32)
    """
    return _reduce(_sp(sp_input, "reduce_max"), axis, keepdims, output_is_sparse, "reduce_max",
                   unsorted_segment_max)


@constant_maker  # (indices and shapes read through host_value)
def softmax(sp_input: SparseTensor, name: Any = None) -> SparseTensor:
    """Softmax over the last dimension, among each row's stored entries only (implicit zeros are
    absent, not zero logits). Rank at least 2.

    >>> import tapegrad as tf
    >>> st = tf.SparseTensor([[0, 0], [0, 2], [1, 1]], [1.0, 1.0, 5.0], [2, 3])
    >>> tf.sparse.softmax(st).values.numpy()
    array([0.5, 0.5, 1. ], dtype=float32)
    """
    sp = _sp(sp_input, "softmax")
    idx, shape = _parts(sp, "softmax")
    if len(shape) < 2:
        raise InvalidArgumentError(f"Input should have rank >= 2, but received shape: {_fmt(shape)}")
    _, ids = np.unique(_linear(idx[:, :-1], shape[:-1]), return_inverse=True)
    ids = ids.astype(np.int64)
    n = int(ids.max()) + 1 if ids.size else 0
    v = sp.values
    e = exp(v - gather(unsorted_segment_max(v, ids, n), ids))
    return sp.with_values(truediv(e, gather(unsorted_segment_sum(e, ids, n), ids)))


# --------------------------------------------------------------------------- structure
@constant_maker  # (indices and shapes read through host_value)
def concat(axis: Any, sp_inputs: Any, expand_nonconcat_dims: bool = False, name: Any = None) -> SparseTensor:
    """SparseTensors joined along ``axis`` (the result in row-major order). Other dimensions must
    agree, or with ``expand_nonconcat_dims`` the result takes their maximum.

    >>> import tapegrad as tf
    >>> a = tf.SparseTensor([[0, 1]], [1], [2, 2])
    >>> b = tf.SparseTensor([[1, 0]], [2], [2, 3])
    >>> tf.sparse.to_dense(tf.sparse.concat(1, [a, b])).numpy()
    array([[0, 1, 0, 0, 0],
           [0, 0, 2, 0, 0]], dtype=int32)
    """
    sps = [_sp(s, "concat", "sp_inputs[i]") for s in sp_inputs]
    if not sps:
        raise ValueError("tf.sparse.concat: sp_inputs must not be empty.")
    parts = [_parts(s, "concat") for s in sps]
    rank = len(parts[0][1])
    if any(len(p[1]) != rank for p in parts):
        raise InvalidArgumentError("Ranks of all input tensors must match: expected " + str(rank) + " but got " +
                                   str(next(len(p[1]) for p in parts if len(p[1]) != rank)))
    ax = int(axis)
    if not -rank <= ax < rank:
        raise InvalidArgumentError(f"Concat dimension must be in range [{-rank}, {rank}), got {ax}")
    ax %= rank
    shapes = np.stack([p[1] for p in parts])
    other = [d for d in range(rank) if d != ax]
    if expand_nonconcat_dims:
        out_shape = shapes.max(axis=0)
    else:
        out_shape = shapes[0].copy()
        for i, s in enumerate(shapes[1:], 1):
            if (s[other] != shapes[0][other]).any():
                d = other[int(np.flatnonzero(s[other] != shapes[0][other])[0])]
                raise InvalidArgumentError(f"All SparseTensors' shapes must match except on the concat dimension "
                                           f"{ax}; input {i} has shape {_fmt(s)}, input 0 {_fmt(shapes[0])} "
                                           f"(dimension {d})")
    out_shape[ax] = int(shapes[:, ax].sum())
    offsets = np.concatenate([[0], np.cumsum(shapes[:, ax])[:-1]])
    idx = np.concatenate([p[0] + np.eye(rank, dtype=np.int64)[ax] * off for p, off in zip(parts, offsets)])
    perm = _order(idx)
    vals = _concat([s.values for s in sps], 0)
    return SparseTensor(idx[perm].reshape(-1, rank), gather(vals, perm.astype(np.int64)), out_shape)


@constant_maker  # (indices and shapes read through host_value)
def slice(sp_input: SparseTensor, start: Any, size: Any, name: Any = None) -> SparseTensor:  # noqa: A001
    """The entries in the box ``[start, start + size)``, re-indexed from ``start``; the dense
    shape is clipped at the input's edge.

    >>> import tapegrad as tf
    >>> st = tf.SparseTensor([[0, 0], [1, 2], [2, 3]], [1, 2, 3], [3, 4])
    >>> s = tf.sparse.slice(st, [1, 1], [5, 2])
    >>> s.indices.numpy().tolist(), s.dense_shape.numpy().tolist()
    ([[0, 1]], [2, 2])
    """
    sp = _sp(sp_input, "slice")
    idx, shape = _parts(sp, "slice")
    st, sz = _int_vector(start, "tf.sparse.slice: start"), _int_vector(size, "tf.sparse.slice: size")
    if len(st) != len(shape) or len(sz) != len(shape):
        raise InvalidArgumentError(f"Expected start and size to have {len(shape)} elements (the input's rank), "
                                   f"got {len(st)} and {len(sz)}")
    if (st < 0).any() or (sz < 0).any():
        raise InvalidArgumentError(f"tf.sparse.slice: start and size must be non-negative, got {st.tolist()} and "
                                   f"{sz.tolist()}")
    end = np.minimum(st + sz, shape)
    out_shape = np.maximum(end - st, 0)
    rows = np.flatnonzero(((idx >= st) & (idx < end)).all(axis=1)) if len(idx) else np.zeros(0, np.int64)
    return _pick(sp, rows, idx[rows] - st, out_shape)


@constant_maker  # (indices and shapes read through host_value)
def split(sp_input: Any = None, num_split: Any = None, axis: Any = None, name: Any = None,
          keyword_required: Any = None) -> list:
    """``num_split`` SparseTensors along ``axis``; the first ``shape[axis] % num_split`` are one
    longer.

    >>> import tapegrad as tf
    >>> st = tf.SparseTensor([[0, 0], [0, 4], [1, 2]], [1, 2, 3], [2, 5])
    >>> [s.dense_shape.numpy().tolist() for s in tf.sparse.split(sp_input=st, num_split=2, axis=1)]
    [[2, 3], [2, 2]]
    """
    sp = _sp(sp_input, "split")
    shape = sp._shape_array("split")
    if num_split is None or axis is None:
        raise ValueError("tf.sparse.split needs num_split and axis.")
    n, ax = int(num_split), int(axis)
    if not -len(shape) <= ax < len(shape):
        raise InvalidArgumentError(f"Input axis should be in range [{-len(shape)}, {len(shape)}), got {ax}")
    ax %= len(shape)
    if n < 1:
        raise InvalidArgumentError(f"num_split must be at least 1, got {n}")
    dim = int(shape[ax])
    if n > dim:
        raise InvalidArgumentError(f"Requested num_split {n} is larger than dimension {ax} of size {dim}")
    sizes = [dim // n + (1 if i < dim % n else 0) for i in range(n)]
    out, at = [], 0
    for s in sizes:
        start = np.zeros(len(shape), np.int64)
        start[ax] = at
        size = shape.copy()
        size[ax] = s
        out.append(slice(sp, start, size))
        at += s
    return out


@constant_maker  # (indices and shapes read through host_value)
def retain(sp_input: SparseTensor, to_retain: Any) -> SparseTensor:
    """The entries where the boolean vector ``to_retain`` (one per entry) is true.

    >>> import tapegrad as tf
    >>> st = tf.SparseTensor([[0], [1], [3]], [1, 2, 3], [4])
    >>> tf.sparse.retain(st, [True, False, True]).values.numpy()
    array([1, 3], dtype=int32)
    """
    sp = _sp(sp_input, "retain")
    idx, shape = _parts(sp, "retain")
    keep = np.asarray(_np(convert_to_tensor(to_retain), "retain"))
    if keep.dtype != bool or keep.shape != (len(idx),):
        raise ValueError(f"tf.sparse.retain: to_retain must be a bool vector of length {len(idx)} (one per "
                         f"entry), got {keep.dtype} of shape {list(keep.shape)}")
    rows = np.flatnonzero(keep)
    return _pick(sp, rows, idx[rows], shape)


@constant_maker  # (indices and shapes read through host_value)
def reset_shape(sp_input: SparseTensor, new_shape: Any = None) -> SparseTensor:
    """The same entries in ``new_shape`` (no smaller in any dimension, same rank), or by default
    the tightest shape (each dimension the largest index + 1).

    >>> import tapegrad as tf
    >>> st = tf.SparseTensor([[0, 1], [2, 0]], [1, 2], [5, 6])
    >>> tf.sparse.reset_shape(st).dense_shape.numpy()
    array([3, 2])
    """
    sp = _sp(sp_input, "reset_shape")
    idx, shape = _parts(sp, "reset_shape")
    if new_shape is None:
        out = idx.max(axis=0) + 1 if len(idx) else np.zeros(len(shape), np.int64)
        return SparseTensor(sp.indices, sp.values, out)
    new = _int_vector(new_shape, "tf.sparse.reset_shape: new_shape")
    if len(new) != len(shape):
        raise ValueError(f"Shapes {list(shape)} and {list(new)} must have the same rank: new_shape has rank "
                         f"{len(new)}, the input {len(shape)}")
    if (new < shape).any():
        raise ValueError(f"Requested new_shape should have dimension sizes >= sp_input.shape.  Found new_shape "
                         f"({_fmt(new)}), sp_input.shape ({_fmt(shape)}).")
    return SparseTensor(sp.indices, sp.values, new)


@constant_maker  # (indices and shapes read through host_value)
def fill_empty_rows(sp_input: SparseTensor, default_value: Any, name: Any = None) -> tuple:
    """Every empty row (first dimension) gets one entry ``default_value`` at column 0; also
    returns the bool vector of which rows were empty. The result is ordered by row.

    >>> import tapegrad as tf
    >>> st = tf.SparseTensor([[0, 1], [2, 0]], [1.0, 2.0], [4, 3])
    >>> out, empty = tf.sparse.fill_empty_rows(st, -1.0)
    >>> out.values.numpy().tolist(), empty.numpy().tolist()
    ([1.0, -1.0, 2.0, -1.0], [False, True, False, True])
    """
    sp = _sp(sp_input, "fill_empty_rows")
    idx, shape = _parts(sp, "fill_empty_rows")
    if len(shape) < 1:
        raise InvalidArgumentError("tf.sparse.fill_empty_rows: the input must have rank >= 1")
    nrows = int(shape[0])
    if len(idx) and ((idx[:, 0] < 0) | (idx[:, 0] >= nrows)).any():
        k = int(np.flatnonzero((idx[:, 0] < 0) | (idx[:, 0] >= nrows))[0])
        raise InvalidArgumentError(f"indices({k}, 0) is invalid: {int(idx[k, 0])} >= {nrows}")
    empty = np.ones(nrows, bool)
    empty[idx[:, 0]] = False
    erows = np.flatnonzero(empty)
    new_idx = np.zeros((len(erows), len(shape)), np.int64)
    new_idx[:, 0] = erows
    all_idx = np.concatenate([idx, new_idx])
    perm = np.argsort(all_idx[:, 0], kind="stable")
    d = convert_to_tensor(default_value, dtype=sp.dtype)
    vals = _concat([sp.values, fill([len(erows)], d)], 0)
    return SparseTensor(all_idx[perm], gather(vals, perm.astype(np.int64)), shape), _wrap(empty)


@constant_maker  # (indices and shapes read through host_value)
def expand_dims(sp_input: SparseTensor, axis: Any = None, name: Any = None) -> SparseTensor:
    """A dimension of size 1 inserted at ``axis`` (default -1, the end).

    >>> import tapegrad as tf
    >>> st = tf.sparse.expand_dims(tf.SparseTensor([[1], [3]], [1, 2], [4]), axis=0)
    >>> st.indices.numpy().tolist(), st.dense_shape.numpy().tolist()
    ([[0, 1], [0, 3]], [1, 4])
    """
    sp = _sp(sp_input, "expand_dims")
    idx, shape = _parts(sp, "expand_dims")
    rank = len(shape)
    ax = -1 if axis is None else int(_np(axis, "expand_dims") if isinstance(axis, Tensor) else axis)
    if not -rank - 1 <= ax <= rank:
        raise InvalidArgumentError(f"Tried to expand dim index {ax} for tensor with {rank} dimensions.")
    ax = ax % (rank + 1)
    return SparseTensor(np.insert(idx, ax, 0, axis=1), sp.values, np.insert(shape, ax, 1))


@constant_maker  # (indices and shapes read through host_value)
def eye(num_rows: Any, num_columns: Any = None, dtype: Any = _dt.float32, name: Any = None) -> SparseTensor:
    """The identity matrix as a SparseTensor (ones on the diagonal of ``[num_rows, num_columns]``).

    >>> import tapegrad as tf
    >>> tf.sparse.eye(2, 3).indices.numpy().tolist()
    [[0, 0], [1, 1]]
    """
    r = int(num_rows)
    c = r if num_columns is None else int(num_columns)
    if r < 0 or c < 0:
        raise InvalidArgumentError(f"tf.sparse.eye: num_rows and num_columns must be non-negative, got {r} and {c}")
    k = np.arange(min(r, c), dtype=np.int64)
    dt = _dt.as_dtype(dtype)
    return SparseTensor(np.stack([k, k], 1), _wrap(np.ones(len(k), dt.as_numpy_dtype)), np.array([r, c], np.int64))


@constant_maker  # (indices and shapes read through host_value)
def to_indicator(sp_input: SparseTensor, vocab_size: Any, name: Any = None) -> Tensor:
    """A dense bool tensor of shape ``dense_shape[:-1] + [vocab_size]``, true at
    ``[..., values[i]]`` for each entry (the values are integer ids).

    >>> import tapegrad as tf
    >>> st = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [2, 0, 1], [2, 2])
    >>> tf.sparse.to_indicator(st, 3).numpy()
    array([[ True, False,  True],
           [False,  True, False]])
    """
    sp = _sp(sp_input, "to_indicator")
    if not sp.dtype.is_integer:
        raise TypeError(f"tf.sparse.to_indicator: the values must be integer ids, got {sp.dtype.name}.")
    idx, shape = _parts(sp, "to_indicator")
    ids = np.asarray(_np(sp.values, "to_indicator")).astype(np.int64)
    v = int(vocab_size)
    if len(ids) and ((ids < 0) | (ids >= v)).any():
        k = int(np.flatnonzero((ids < 0) | (ids >= v))[0])
        raise InvalidArgumentError(f"tf.sparse.to_indicator: values[{k}] = {int(ids[k])} is not in [0, {v}) "
                                   "(vocab_size)")
    out = np.zeros(tuple(int(d) for d in shape[:-1]) + (v,), bool)
    out[tuple(idx[:, :-1].T) + (ids,)] = True
    return _wrap(out)


@constant_maker  # (indices and shapes read through host_value)
def map_values(op: Callable, *args: Any, **kwargs: Any) -> SparseTensor:
    """``op`` applied to the values of the SparseTensors among the arguments (all with the same
    indices and dense shape); the result has those indices.

    >>> import tapegrad as tf
    >>> st = tf.SparseTensor([[0], [2]], [1.0, 4.0], [3])
    >>> tf.sparse.map_values(tf.sqrt, st).values.numpy()
    array([1., 2.], dtype=float32)
    """
    found: list[SparseTensor] = []

    def swap(x: Any) -> Any:
        if isinstance(x, SparseTensor):
            found.append(x)
            return x.values
        if isinstance(x, (list, tuple)):
            return type(x)(swap(v) for v in x)
        if isinstance(x, dict):
            return {k: swap(v) for k, v in x.items()}
        return x

    a, kw = swap(list(args)), swap(kwargs)
    if not found:
        raise ValueError("No SparseTensor in argument list of map_values")
    i0, s0 = _parts(found[0], "map_values")
    for s in found[1:]:
        i, sh = _parts(s, "map_values")
        if i.shape != i0.shape or (i != i0).any() or sh.tolist() != s0.tolist():
            raise InvalidArgumentError("tf.sparse.map_values: the SparseTensors must have the same indices and "
                                       "dense shape.")
    return SparseTensor(found[0].indices, op(*a, **kw), found[0].dense_shape)


@constant_maker  # (indices and shapes read through host_value)
def mask(a: IndexedSlices, mask_indices: Any, name: Any = None) -> IndexedSlices:
    """The IndexedSlices ``a`` without the slices whose index is in ``mask_indices``.

    >>> import tapegrad as tf
    >>> s = tf.IndexedSlices(tf.constant([[1.0], [2.0], [3.0]]), tf.constant([0, 4, 7]), tf.constant([8, 1]))
    >>> tf.sparse.mask(s, [4]).indices.numpy()
    array([0, 7], dtype=int32)
    """
    if not isinstance(a, IndexedSlices):
        raise TypeError(f"tf.sparse.mask takes an IndexedSlices, got {type(a).__name__}.")
    idx = np.asarray(_np(convert_to_tensor(a.indices), "mask"))
    drop = np.asarray(_np(convert_to_tensor(mask_indices), "mask")).reshape(-1)
    rows = np.flatnonzero(~np.isin(idx, drop))
    return IndexedSlices(gather(a.values, rows), _wrap(idx[rows]), a.dense_shape)


# --------------------------------------------------------------------------- feature crosses
_M64 = (1 << 64) - 1
_MUL = 0xC6A4A7935BD1E995
_DEFAULT_HASH_KEY = 0xDECAFCAFFE


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def _fingerprint_cat64(fp1: int, fp2: int) -> int:
    """TensorFlow's ``FingerprintCat64``: combines two 64-bit fingerprints."""
    r = fp1 ^ _MUL
    r ^= (_shift_mix((fp2 * _MUL) & _M64) * _MUL) & _M64
    r = (r * _MUL) & _M64
    return _shift_mix((_shift_mix(r) * _MUL) & _M64)


@constant_maker  # (indices and shapes read through host_value)
def _cross_columns(inputs: Any, op: str) -> tuple[list, int]:
    """Each input as a list of per-row feature lists (SparseTensors first, then dense tensors, as
    TensorFlow's kernel orders them); integers as Python ints, strings as bytes."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"tf.sparse.{op}: inputs must be a list of SparseTensors and dense tensors, got "
                        f"{type(inputs).__name__}.")
    sparse_cols, dense_cols, rows = [], [], None
    for x in inputs:
        if isinstance(x, SparseTensor):
            idx, shape = _parts(x, op)
            vals, n = np.asarray(_np(x.values, op)), int(shape[0])
            col: list = [[] for _ in range(n)]
            for r, v in zip(idx[:, 0].tolist(), vals.tolist()):
                col[r].append(v)
            sparse_cols.append((x.dtype, col))
        else:
            t = convert_to_tensor(x)
            v = np.asarray(_np(t, op))
            if v.ndim != 2:
                raise ValueError(f"tf.sparse.{op}: a dense input must be rank 2 ([batch, features]); got "
                                 f"shape {list(v.shape)}. Reshape it, e.g. tf.expand_dims(x, -1).")
            n = v.shape[0]
            dense_cols.append((t.dtype, [list(row) for row in v.tolist()]))
        if rows is not None and n != rows:
            raise InvalidArgumentError(f"tf.sparse.{op}: all inputs must have the same batch size; got {rows} "
                                       f"and {n}.")
        rows = n
    for dt, _ in sparse_cols + dense_cols:
        if not (dt == _dt.string or dt.is_integer):
            raise TypeError(f"tf.sparse.{op}: inputs must be int32, int64 or string; got {dt.name}.")
    return [c for _, c in sparse_cols + dense_cols], rows or 0


def _crossed(inputs: Any, op: str, feature: Callable) -> SparseTensor:
    cols, rows = _cross_columns(inputs, op)
    idx, vals = [], []
    for r in range(rows):
        for j, combo in enumerate(itertools.product(*(c[r] for c in cols))):
            idx.append((r, j))
            vals.append(feature(combo))
    width = max((j + 1 for _, j in idx), default=0)
    index = np.asarray(idx, np.int64).reshape(-1, 2)
    return SparseTensor(index, _wrap(np.asarray(vals, object if op == "cross" else np.int64)
                                     if vals else np.zeros(0, object if op == "cross" else np.int64)),
                        np.array([rows, width], np.int64))


def cross(inputs: Any, name: Any = None, separator: Any = None) -> SparseTensor:
    """The feature cross of ``inputs`` (SparseTensors and rank-2 dense tensors, int or string):
    row ``r`` holds every combination of one feature of each input from its row ``r``, joined by
    ``separator`` (``"_X_"``), integers written in decimal (SparseTensors first, then dense
    tensors, last input varying fastest, as TensorFlow's kernel).

    >>> import tapegrad as tf
    >>> st = tf.sparse.cross([tf.constant([["a"], ["b"]]), tf.constant([[1, 2], [3, 4]])])
    >>> st.values.numpy().tolist()
    [b'a_X_1', b'a_X_2', b'b_X_3', b'b_X_4']
    """
    sep = ("_X_" if separator is None else separator)
    sep = sep.encode() if isinstance(sep, str) else bytes(sep)
    text = (lambda f: f if isinstance(f, bytes) else str(int(f)).encode())
    return _crossed(inputs, "cross", lambda combo: sep.join(text(f) for f in combo))


def cross_hashed(inputs: Any, num_buckets: int = 0, hash_key: Any = None, name: Any = None) -> SparseTensor:
    """The hashed feature cross of ``inputs`` (as :func:`cross`): each combination's
    fingerprint (FarmHash ``Fingerprint64`` of a string feature, an integer feature as itself,
    chained with ``FingerprintCat64`` from ``hash_key``), modulo ``num_buckets`` (0: modulo
    the largest int64), bit for bit as TensorFlow's ``SparseCrossHashed``.

    >>> import tapegrad as tf
    >>> st = tf.sparse.cross_hashed([tf.constant([["A"], ["B"]]), tf.constant([[101], [101]])], 5)
    >>> st.values.numpy().tolist()
    [1, 4]
    """
    from .._fingerprint import fingerprint64
    n = int(num_buckets)
    if n < 0:
        raise InvalidArgumentError(f"tf.sparse.cross_hashed: num_buckets must be >= 0, got {n}.")
    key = _DEFAULT_HASH_KEY if hash_key is None else int(hash_key) & _M64

    def feature(combo: tuple) -> int:
        h = key
        for f in combo:
            h = _fingerprint_cat64(h, fingerprint64(f) if isinstance(f, bytes) else int(f) & _M64)
        return h % n if n > 0 else h % ((1 << 63) - 1)
    return _crossed(inputs, "cross_hashed", feature)


# --------------------------------------------------------------------------- sparse segment ops
@constant_maker  # (indices and shapes read through host_value)
def _sparse_segment(data: Any, indices: Any, segment_ids: Any, num_segments: Any, op: str) -> tuple:
    d = convert_to_tensor(data)
    idx = _int_vector(indices, f"tf.sparse.{op}: indices")
    seg = _int_vector(segment_ids, f"tf.sparse.{op}: segment_ids")
    if len(idx) != len(seg):
        raise InvalidArgumentError(f"segment_ids and indices should have same size. segment_ids shape: "
                                   f"[{len(seg)}] indices shape: [{len(idx)}]")
    n_rows = d._value.shape[0] if d._value.ndim else 0
    if len(idx) and ((idx < 0) | (idx >= n_rows)).any():
        k = int(np.flatnonzero((idx < 0) | (idx >= n_rows))[0])
        raise InvalidArgumentError(f"Bad: indices[{k}] == {int(idx[k])} out of range [0, {n_rows})")
    if num_segments is None:
        if len(seg) and (np.diff(seg) < 0).any():
            raise InvalidArgumentError("segment ids are not increasing")
        n = int(seg[-1]) + 1 if len(seg) else 0
    else:
        n = int(_np(num_segments, op) if isinstance(num_segments, Tensor) else num_segments)
    if len(seg) and ((seg < 0) | (seg >= n)).any():
        raise InvalidArgumentError(f"segment ids must be >= 0 and < {n}, got {seg.tolist()}")
    rows = gather(d, idx)
    counts = np.bincount(seg, minlength=n)[:n].astype(d.dtype.as_numpy_dtype)
    return unsorted_segment_sum(rows, seg, n), counts, d._value.ndim


@constant_maker  # (indices and shapes read through host_value)
def _per_segment(t: Tensor, scale: np.ndarray, ndim: int) -> Tensor:
    return t / _wrap(scale.reshape((-1,) + (1,) * (ndim - 1)))


@constant_maker  # (indices and shapes read through host_value)
def segment_sum(data: Any, indices: Any, segment_ids: Any, num_segments: Any = None, name: Any = None,
                sparse_gradient: bool = False) -> Tensor:
    """``sum(data[indices[j]] for j with segment_ids[j] == i)`` per segment ``i``.

    >>> import tapegrad as tf
    >>> tf.sparse.segment_sum(tf.constant([[1.0], [2.0], [4.0]]), [0, 2, 1], [0, 0, 1]).numpy()
    array([[5.],
           [2.]], dtype=float32)
    """
    return _sparse_segment(data, indices, segment_ids, num_segments, "segment_sum")[0]


@constant_maker  # (indices and shapes read through host_value)
def segment_mean(data: Any, indices: Any, segment_ids: Any, num_segments: Any = None, name: Any = None,
                 sparse_gradient: bool = False) -> Tensor:
    """As :func:`segment_sum`, divided by each segment's count (an empty segment is 0).

    >>> import tapegrad as tf
    >>> tf.sparse.segment_mean(tf.constant([1.0, 2.0, 4.0]), [0, 2, 1], [0, 0, 1]).numpy()
    array([2.5, 2. ], dtype=float32)
    """
    s, counts, nd = _sparse_segment(data, indices, segment_ids, num_segments, "segment_mean")
    return _per_segment(s, np.maximum(counts, 1), nd)


@constant_maker  # (indices and shapes read through host_value)
def segment_sqrt_n(data: Any, indices: Any, segment_ids: Any, num_segments: Any = None, name: Any = None,
                   sparse_gradient: bool = False) -> Tensor:
    """As :func:`segment_sum`, divided by the square root of each segment's count.

    >>> import tapegrad as tf
    >>> tf.sparse.segment_sqrt_n(tf.constant([1.0, 3.0]), [0, 1], [0, 0]).numpy().round(4)
    array([2.8284], dtype=float32)
    """
    s, counts, nd = _sparse_segment(data, indices, segment_ids, num_segments, "segment_sqrt_n")
    return _per_segment(s, np.sqrt(np.maximum(counts, 1)), nd)


# --------------------------------------------------------------------------- TensorFlow's dispatch on SparseTensor
@constant_maker  # (indices and shapes read through host_value)
def _dense_shape(sp: SparseTensor, out_type: Any) -> Tensor:
    return cast(sp.dense_shape, out_type)


_dispatch.COMPOSITE_APIS[cast, SparseTensor] = lambda x, dtype, name=None: x.with_values(cast(x.values, dtype))
_dispatch.COMPOSITE_APIS[sign, SparseTensor] = lambda x, name=None: x.with_values(sign(x.values))
_dispatch.COMPOSITE_APIS[identity, SparseTensor] = lambda input, name=None: input.with_values(identity(input.values))
_dispatch.COMPOSITE_APIS[_shape, SparseTensor] = lambda input, out_type=_dt.int32, name=None: \
    _dense_shape(input, out_type)
_dispatch.COMPOSITE_APIS[size, SparseTensor] = lambda input, out_type=_dt.int32, name=None: \
    reduce_prod(_dense_shape(input, out_type))


@constant_maker  # (indices and shapes read through host_value)
def _rank(input: SparseTensor, name: Any = None) -> Tensor:  # noqa: A002
    return _wrap(np.int32(input.ndim))


_dispatch.COMPOSITE_APIS[rank, SparseTensor] = _rank

