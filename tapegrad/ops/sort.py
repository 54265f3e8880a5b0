"""Sorting: ``sort``, ``argsort`` and ``top_k``.

The order is computed with NumPy (a constant index map: sorting has no derivative of its own);
the values are then picked with ``TakeAlongLastAxis``, whose VJP scatters the cotangent back
with ``PutAlongLastAxis`` (and the other way round), so the gradient of a sort is a
permutation and every order of derivative works. Ties keep their original order (stable), and
NaN counts as larger than every number, as in TensorFlow's ``top_k``.
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import _backend as _bk, _vmap, dtypes as _dt
from .._convert import as_tensor, host_value
from .._dispatch import apply, defop
from .._tensor import Tensor, wrap as _wrap
from .._variable import Variable
from ..errors import InvalidArgumentError
from .array import norm_axis, transpose

__all__ = ["sort", "argsort", "top_k", "in_top_k", "approx_max_k", "approx_min_k", "searchsorted"]


def _full_index(idx: np.ndarray, ndim: int) -> np.ndarray:
    """``idx`` with leading length-1 axes so it broadcasts against an array of rank ``ndim``."""
    return idx.reshape((1,) * (ndim - idx.ndim) + idx.shape)


def _take_fwd(x: np.ndarray, idx: np.ndarray) -> np.ndarray:
    i = _full_index(idx, x.ndim)
    return np.take_along_axis(x, np.broadcast_to(i, x.shape[:-1] + i.shape[-1:]), axis=-1)


def _put_fwd(g: np.ndarray, idx: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros(g.shape[:-1] + (n,), g.dtype)
    i = np.broadcast_to(_full_index(idx, g.ndim), g.shape)
    np.put_along_axis(out, i, g, axis=-1)  # indices are distinct within a row
    return out


_take = defop("TakeAlongLastAxis", _take_fwd,
              vjp=(lambda g, ans, x, idx: apply(_put, (g, idx), {"n": x._value.shape[-1]}), None),
              jvp="linear")
_put = defop("PutAlongLastAxis", _put_fwd,
             vjp=(lambda g, ans, x, idx, n: apply(_take, (g, idx)), None), jvp="linear")
def _take_rule(op: Any, n: int, xs: list, bat: tuple, p: dict) -> Any:
    if not bat[1]:  # sort and top_k compute the order from the values in Python: row 0's order
        raise _vmap.Unbatchable("tf.sort/tf.math.top_k order each row in Python")
    return _vmap.leading(op, n, xs, bat, p)


def _along(be: Any, idx: Any, shape: tuple) -> Any:
    """``idx`` (leading axes of length 1 added) broadcast to ``shape``."""
    xp = be.xp
    return xp.broadcast_to(xp.reshape(idx, (1,) * (len(shape) - idx.ndim) + tuple(idx.shape)), shape)


def _take_form(be: Any, x: Any, idx: Any) -> Any:
    xp = be.xp
    i = _along(be, idx, tuple(x.shape[:-1]) + tuple(idx.shape[-1:]))
    if hasattr(xp, "take_along_axis"):
        return xp.take_along_axis(x, i, axis=-1)
    picked = xp.where(_bk.hits(be, i, x.shape[-1]),  # (Dask has none)
                      xp.reshape(x, tuple(x.shape[:-1]) + (1, x.shape[-1])), xp.zeros((), dtype=x.dtype))
    return xp.sum(picked, axis=-1, dtype=x.dtype)


def _put_form(be: Any, g: Any, idx: Any, n: int) -> Any:
    """Distinct indices in a row: each output entry takes the one ``g`` entry sent there."""
    xp = be.xp
    i = _along(be, idx, tuple(g.shape))
    picked = xp.where(_bk.hits(be, i, n), xp.reshape(g, tuple(g.shape) + (1,)), xp.zeros((), dtype=g.dtype))
    return xp.sum(picked, axis=-2, dtype=g.dtype)


_vmap.register(_take, _take_rule)
_vmap.register(_put, _vmap.leading)
_bk.register(_take, _take_form)
_bk.register(_put, _put_form)


def _order(v: np.ndarray, descending: bool) -> np.ndarray:
    """Stable sort order along the last axis (NaN largest); descending keeps ties in index order."""
    if not descending:
        return np.argsort(v, axis=-1, kind="stable")
    n = v.shape[-1]
    return (n - 1 - np.argsort(v[..., ::-1], axis=-1, kind="stable"))[..., ::-1]


def _order_fwd(v: np.ndarray, axis: int, descending: bool, k: int | None, dtype: Any) -> np.ndarray:
    o = _order(np.moveaxis(v, axis, -1), descending)[..., :k]
    return np.moveaxis(o, -1, axis).astype(dtype, copy=False)


_sort_order = defop("SortOrder", _order_fwd, nondiff=True)  # the sort order as a step of a trace
_vmap.register(_sort_order, _vmap.one_axis("axis"))


def _sort_order_form(be: Any, v: Any, axis: int, descending: bool, k: int | None, dtype: Any) -> Any:
    xp = be.xp
    o = xp.argsort(v, axis=axis, descending=descending, stable=True)
    if k is not None:
        o = o[(slice(None),) * (axis % v.ndim) + (slice(0, k), ...)]
    return xp.astype(o, be.dtype(np.dtype(dtype)))


_bk.register(_sort_order, _sort_order_form)


def _order_of(x: Tensor, descending: bool, axis: int = -1, k: int | None = None, dtype: Any = np.intp) -> Tensor:
    return apply(_sort_order, (x,), {"axis": axis, "descending": descending, "k": k, "dtype": dtype})


def _check_sortable(x: Tensor, op: str) -> None:
    if x._value.dtype.kind not in "fiu":
        raise InvalidArgumentError(f"{op} does not accept a {x.dtype.name} tensor (allowed: "
                                   f"floating and integer types) [Op:{op}]")
    if x._value.ndim == 0:
        raise InvalidArgumentError(f"input must be >= 1-D, got shape [] [Op:{op}]")


def _sort_input(values: Any, direction: Any) -> tuple[Tensor, bool]:
    """The tensor to sort and whether the order is descending, validated."""
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError("Argument `direction` should be one of ASCENDING, DESCENDING. Received: "
                         f"direction={direction}")
    x = as_tensor(values)
    _check_sortable(x, "Sort")
    return x, direction == "DESCENDING"


def _to_last(x: Tensor, axis: Any, op: str) -> tuple[Tensor, Any]:
    """Move ``axis`` to the end; return the moved tensor and the permutation that undoes it."""
    nd = x._value.ndim
    a = norm_axis(axis, nd, op)
    if a == nd - 1:
        return x, None
    perm = [i for i in range(nd) if i != a] + [a]
    return transpose(x, perm), list(np.argsort(perm))


def sort(values: Any, axis: Any = -1, direction: str = "ASCENDING", name: Any = None) -> Tensor:
    """Sort along ``axis``. The gradient is the inverse permutation of the cotangent.

    Ties keep their order; NaN sorts as the largest value.

    >>> import tapegrad as tf
    >>> tf.sort(tf.constant([3.0, 1.0, 2.0]), direction="DESCENDING").numpy()
    array([3., 2., 1.], dtype=float32)
    """
    x, desc = _sort_input(values, direction)
    xl, back = _to_last(x, axis, "Sort")
    out = apply(_take, (xl, _order_of(xl, desc)))
    return out if back is None else transpose(out, back)


def argsort(values: Any, axis: Any = -1, direction: str = "ASCENDING", stable: bool = False,
            name: Any = None) -> Tensor:
    """The int32 indices that sort ``values`` along ``axis`` (no gradient).

    The sort is always stable (equal values keep their order), which also satisfies
    ``stable=False``.

    >>> import tapegrad as tf
    >>> tf.argsort(tf.constant([1.0, 2.0, 1.0]), direction="DESCENDING").numpy()
    array([1, 0, 2], dtype=int32)
    """
    x, desc = _sort_input(values, direction)
    nd = x._value.ndim
    a = norm_axis(axis, nd, "Sort")
    return _order_of(x, desc, a, dtype=np.int32)


def _k(k: Any) -> int:
    if isinstance(k, (Tensor, Variable)):
        k = host_value(as_tensor(k), "k")
    kv = np.asarray(k)
    if kv.ndim or kv.dtype.kind not in "iu":
        raise InvalidArgumentError(f"k must be a scalar integer, got {k!r} [Op:TopKV2]")
    if int(kv) < 0:
        raise InvalidArgumentError(f"Need k >= 0, got {int(kv)} [Op:TopKV2]")
    return int(kv)


class TopKV2(NamedTuple):
    """``(values, indices)`` returned by :func:`top_k` (a named tuple, as in TensorFlow)."""

    values: Tensor
    indices: Tensor


def top_k(input: Any, k: Any = 1, sorted: bool = True, index_type: Any = _dt.int32,  # noqa: A002
          name: Any = None) -> TopKV2:
    """The ``k`` largest entries along the last axis and their indices.

    Returns a ``(values, indices)`` pair (also ``.values``, ``.indices``). Equal values are
    taken in index order; NaN counts as the largest value. ``values`` is differentiable: the
    gradient scatters back to the chosen positions (zeros elsewhere); ``indices`` (int32 unless
    ``index_type`` says otherwise) has none. ``sorted=False`` lets TensorFlow return the ``k``
    entries in any order; tapegrad always returns them sorted.

    >>> import tapegrad as tf
    >>> v, i = tf.math.top_k(tf.constant([1.0, 3.0, 3.0, 2.0]), k=2)
    >>> v.numpy(), i.numpy()
    (array([3., 3.], dtype=float32), array([1, 2], dtype=int32))
    """
    x = as_tensor(input)
    _check_sortable(x, "TopKV2")
    kk = _k(k)
    n = x._value.shape[-1]
    if kk > n:
        raise InvalidArgumentError(f"input must have at least k columns. Had {n}, needed "
                                   f"{kk} [Op:TopKV2]")
    it = _dt.as_dtype(index_type)
    if it not in (_dt.int32, _dt.int64):
        raise TypeError(f"top_k: index_type must be tf.int32 or tf.int64, got {it.name}.")
    idx = _order_of(x, True, k=kk, dtype=it._np)
    return TopKV2(apply(_take, (x, idx)), idx)


def in_top_k(targets: Any, predictions: Any, k: Any, name: Any = None) -> Tensor:
    """Whether ``predictions[i, targets[i]]`` is among the ``k`` largest of row ``i`` (ties at the
    boundary count as in; a row with a non-finite prediction says False).

    >>> import tapegrad as tf
    >>> tf.math.in_top_k([0, 2], tf.constant([[0.1, 0.9, 0.0], [0.3, 0.3, 0.4]]), 1).numpy()
    array([False,  True])
    """
    p = np.asarray(host_value(as_tensor(predictions), "predictions"))
    t = np.asarray(host_value(as_tensor(targets), "targets"))
    if p.ndim != 2 or t.shape != (p.shape[0],):
        raise InvalidArgumentError(f"in_top_k: predictions must be [batch, classes] and targets [batch], got "
                                   f"shapes {list(p.shape)} and {list(t.shape)}.")
    ok = (t >= 0) & (t < p.shape[1])
    own = p[np.arange(p.shape[0]), np.clip(t, 0, p.shape[1] - 1)]
    above = (p > own[:, None]).sum(1)
    return _wrap(ok & np.isfinite(p).all(1) & (above < _k(k)))


def _approx_k(operand: Any, k: Any, dim: int, largest: bool) -> tuple:
    x = as_tensor(operand)
    nd = x._value.ndim
    d = norm_axis(dim, nd, "ApproxTopK")
    perm = [i for i in range(nd) if i != d] + [d]
    xt = transpose(x, perm) if d != nd - 1 else x
    v, i = top_k(xt if largest else -xt, k)
    v = v if largest else -v
    back = list(np.argsort(perm))
    return (transpose(v, back), transpose(i, back)) if d != nd - 1 else (v, i)


def approx_max_k(operand: Any, k: Any, reduction_dimension: int = -1, recall_target: float = 0.95,
                 reduction_input_size_override: int = -1, aggregate_to_topk: bool = True,
                 name: Any = None) -> tuple:
    """The ``k`` largest values along ``reduction_dimension`` and their indices (exact on a CPU, as
    TensorFlow's CPU kernel; ``recall_target`` is accepted and unused).

    >>> import tapegrad as tf
    >>> tf.math.approx_max_k(tf.constant([[1.0, 5.0, 3.0]]), 2)[0].numpy()
    array([[5., 3.]], dtype=float32)
    """
    return _approx_k(operand, k, reduction_dimension, True)


def approx_min_k(operand: Any, k: Any, reduction_dimension: int = -1, recall_target: float = 0.95,
                 reduction_input_size_override: int = -1, aggregate_to_topk: bool = True,
                 name: Any = None) -> tuple:
    """The ``k`` smallest values along ``reduction_dimension`` and their indices.

    >>> import tapegrad as tf
    >>> tf.math.approx_min_k(tf.constant([[1.0, 5.0, 3.0]]), 2)[0].numpy()
    array([[1., 3.]], dtype=float32)
    """
    return _approx_k(operand, k, reduction_dimension, False)


def _searchsorted_fwd(seq: np.ndarray, v: np.ndarray, side: str, out_type: np.dtype) -> np.ndarray:
    s2, v2 = seq.reshape(-1, seq.shape[-1]), v.reshape(-1, v.shape[-1])
    out = np.stack([np.searchsorted(a, b, side=side) for a, b in zip(s2, v2)])
    return out.reshape(v.shape).astype(out_type)


_searchsorted = defop("SearchSorted", _searchsorted_fwd, nondiff=True)
_vmap.register(_searchsorted, _vmap.leading)


def _searchsorted_form(be: Any, seq: Any, v: Any, side: str, out_type: np.dtype) -> Any:
    """The standard's ``searchsorted`` (one sorted vector) row by row."""
    xp = be.xp
    if be.numpy_api or not hasattr(xp, "searchsorted"):  # (Dask and CuPy run NumPy's forward)
        return NotImplemented
    s2, v2 = xp.reshape(seq, (-1, seq.shape[-1])), xp.reshape(v, (-1, v.shape[-1]))
    rows = [xp.searchsorted(s2[i, ...], v2[i, ...], side=side) for i in range(s2.shape[0])]
    out = xp.stack(rows) if rows else xp.zeros((0, v.shape[-1]), dtype=be.dtype(np.dtype(np.int64)))
    return xp.astype(xp.reshape(out, tuple(v.shape)), be.dtype(out_type))


_bk.register(_searchsorted, _searchsorted_form)


def searchsorted(sorted_sequence: Any, values: Any, side: str = "left", out_type: Any = _dt.int32,
                 name: Any = None) -> Tensor:
    """Where each of ``values`` would go in ``sorted_sequence`` to keep it sorted, row by row over
    the last axis (the leading axes of both must agree); ``side="right"`` goes after equal entries.

    >>> import tapegrad as tf
    >>> tf.searchsorted([1.0, 2.0, 3.0], [2.0, 0.5]).numpy()
    array([1, 0], dtype=int32)
    """
    seq, v = as_tensor(sorted_sequence), as_tensor(values)
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}.")
    if seq._value.ndim == 0 or v._value.ndim == 0:
        raise InvalidArgumentError("searchsorted: sorted_sequence and values must have rank at least 1 "
                                   "(give a scalar as [x]).")
    if seq._value.shape[:-1] != v._value.shape[:-1]:
        raise InvalidArgumentError(f"searchsorted: the leading axes of sorted_sequence "
                                   f"{list(seq._value.shape)} and values {list(v._value.shape)} must agree.")
    if seq.dtype != v.dtype:
        raise InvalidArgumentError(f"searchsorted: values ({v.dtype.name}) must have sorted_sequence's "
                                   f"dtype ({seq.dtype.name}).")
    return apply(_searchsorted, (seq, v), {"side": side, "out_type": _dt.as_dtype(out_type)._np})


# keras.ops.argpartition: NumPy's partition order (int32 indices, no gradient)
argpartition_op = defop("Argpartition", lambda v, kth, axis: np.argpartition(v, kth, axis=axis).astype(np.int32),
                        nondiff=True)
_vmap.register(argpartition_op, _vmap.one_axis("axis"))

