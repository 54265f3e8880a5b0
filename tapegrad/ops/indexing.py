"""More array ops: the gather_nd/scatter_nd family, boolean_mask, reverse, roll, repeat, one_hot,
sequence_mask, meshgrid; norms and clipping by norm; einsum and tensordot; embedding_lookup.

Indexing ops take a static ``lead``: the number of leading axes of the indexed operand that the
indices do not address. Public calls use ``lead=0``; rules add the cotangent's batch axes
(``_lead(g, ans)``) to it, so the same primitives serve Jacobian walks and every order.
"""
from __future__ import annotations

import numbers
from typing import Any, Sequence

import numpy as np

from .. import dtypes as _dt
from .._core import (IndexedSlices, Tensor, Variable, _wrap, apply, as_tensor, binary_operands,
                     convert_to_tensor, defop)
from ..errors import InvalidArgumentError
from .array import (_err, _gather, _gather_grad, _int_list, _lead, _reshape, broadcast_to,
                        concat, gather, norm_axes, norm_axis, reshape, stack, transpose)
from .math import (_check_kind, abs as _abs, add, cast, conj, maximum, minimum, pow as _pow,
                       sqrt, where, zeros_like)
from .reduction import reduce_max, reduce_sum

_INDEX_KINDS = (np.int16, np.int32, np.int64)


# --------------------------------------------------------------------------- nd indexing
def _nd_key(idx: np.ndarray, lead: int) -> tuple:
    return (slice(None),) * lead + tuple(np.moveaxis(idx, -1, 0))


def _gather_nd_fwd(p: np.ndarray, idx: np.ndarray, lead: int) -> np.ndarray:
    if idx.shape[-1] == 0:  # every index picks the whole tensor
        m = idx.ndim - 1
        e = np.expand_dims(p, tuple(range(lead, lead + m)))
        return np.broadcast_to(e, p.shape[:lead] + idx.shape[:-1] + p.shape[lead:])
    return p[_nd_key(idx, lead)]


def _scatter_nd_fwd(idx: np.ndarray, upd: np.ndarray, shape: tuple, lead: int) -> np.ndarray:
    out = np.zeros(shape, upd.dtype)
    if idx.shape[-1] == 0:
        m = idx.ndim - 1
        out += np.sum(upd, axis=tuple(range(lead, lead + m)), dtype=upd.dtype)
        return out
    np.add.at(out, _nd_key(idx, lead), upd)
    return out


def _gather_nd_vjp(g: Tensor, ans: Tensor, p: Tensor, idx: Tensor, lead: int) -> Any:
    L = _lead(g, ans)
    iv = idx._value
    if L + lead == 0 and iv.ndim == 2 and iv.shape[1] == 1:
        # whole rows picked by a [n, 1] index matrix: TensorFlow's gradient is IndexedSlices
        return IndexedSlices(g, _wrap(iv[:, 0]), _wrap(np.asarray(p._value.shape, iv.dtype)))
    return apply(_scatter_nd, (idx, g), {"shape": g._value.shape[:L] + p._value.shape, "lead": L + lead})


def _scatter_nd_vjp(g: Tensor, ans: Tensor, idx: Tensor, upd: Tensor, shape: tuple, lead: int) -> Tensor:
    return apply(_gather_nd, (g, idx), {"lead": _lead(g, ans) + lead})


_gather_nd = defop("GatherNd", _gather_nd_fwd, vjp=(_gather_nd_vjp, None), jvp="linear")
_scatter_nd = defop("ScatterNd", _scatter_nd_fwd, vjp=(None, _scatter_nd_vjp), jvp="linear")


def _tsu_fwd(t: np.ndarray, idx: np.ndarray, upd: np.ndarray, lead: int) -> np.ndarray:
    out = np.array(t, copy=True)
    if idx.shape[-1] == 0:
        n = int(np.prod(idx.shape[:-1], dtype=np.int64))
        if n:
            u = upd.reshape(upd.shape[:lead] + (n,) + t.shape[lead:])
            out[...] = u[(slice(None),) * lead + (-1,)]
        return out
    out[_nd_key(idx, lead)] = upd  # duplicates: the last update wins
    return out


def _tsu_vjp_tensor(g: Tensor, ans: Tensor, t: Tensor, idx: Tensor, upd: Tensor, lead: int) -> Tensor:
    hit = np.zeros(t._value.shape, np.bool_)
    if idx._value.shape[-1] == 0:
        hit[...] = idx._value.size > 0
    else:
        hit[_nd_key(np.asarray(idx._value), lead)] = True
    return where(_wrap(hit), zeros_like(g), g)


def _tsu_vjp_updates(g: Tensor, ans: Tensor, t: Tensor, idx: Tensor, upd: Tensor, lead: int) -> Tensor:
    return apply(_gather_nd, (g, idx), {"lead": _lead(g, ans) + lead})


_tsu = defop("TensorScatterUpdate", _tsu_fwd, vjp=(_tsu_vjp_tensor, None, _tsu_vjp_updates),
             jvp="linear")


def _nd_indices(indices: Any, op: str) -> Tensor:
    idx = as_tensor(indices)
    if idx._value.dtype.type not in _INDEX_KINDS:
        raise _err(op, f"indices must be an int16, int32 or int64 tensor, got {idx.dtype.name}; "
                       "cast them with tf.cast(indices, tf.int32)")
    if idx._value.ndim == 0:
        raise _err(op, "indices must have rank at least 1 (the last axis holds the coordinates), "
                       "got a scalar; for a single coordinate use [i]")
    return idx


def _check_nd(idx: np.ndarray, shape: tuple, op: str, what: str = "param shape") -> None:
    """Every coordinate row of ``idx`` indexes into ``shape`` (TF rejects negatives too)."""
    k = idx.shape[-1]
    if k > len(shape):
        raise _err(op, f"index innermost dimension length must be <= params rank; saw: {k} vs. "
                       f"{len(shape)} (indices shape {list(idx.shape)}, {what} {list(shape)})")
    if not idx.size or not k:
        return
    rows = idx.reshape(-1, k)
    bad = np.any((rows < 0) | (rows >= np.asarray(shape[:k])), axis=1)
    if bad.any():
        r = int(np.argmax(bad))
        pos = [int(i) for i in np.unravel_index(r, idx.shape[:-1])] if idx.ndim > 1 else []
        raise _err(op, f"indices{pos} = {rows[r].tolist()} does not index into {what} "
                       f"{list(shape)}")


def gather_nd(params: Any, indices: Any, batch_dims: int = 0, name: Any = None) -> Tensor:
    """Gather slices of ``params`` at the coordinates in the last axis of ``indices``.

    ``out[i...] = params[indices[i..., 0], ..., indices[i..., k-1], ...]``; the output shape is
    ``indices.shape[:-1] + params.shape[batch_dims + k:]``. With ``batch_dims = b`` the first
    ``b`` axes of ``params`` and ``indices`` are batch axes, indexed in step. The gradient with
    respect to ``params`` is a dense tensor (a scatter-add; duplicates add), except that, as in
    TensorFlow, whole rows picked by an ``[n, 1]`` index matrix give an :class:`IndexedSlices`.

    >>> import tapegrad as tf
    >>> tf.gather_nd(tf.constant([[1.0, 2.0], [3.0, 4.0]]), [[1, 0], [0, 1]]).numpy()
    array([3., 2.], dtype=float32)
    """
    p = as_tensor(params)
    idx = _nd_indices(indices, "GatherNd")
    b = int(batch_dims)
    iv = np.asarray(idx._value)
    pshape = p._value.shape
    if b < 0 or (b and b >= min(len(pshape), iv.ndim)):
        raise ValueError(f"gather_nd: batch_dims must be in [0, min(rank(params), rank(indices)) - 1]"
                         f" = [0, {min(len(pshape), iv.ndim) - 1}], got {batch_dims}.")
    if pshape[:b] != iv.shape[:b]:
        raise _err("GatherNd", f"params.shape[:batch_dims] = {list(pshape[:b])} must equal "
                               f"indices.shape[:batch_dims] = {list(iv.shape[:b])}")
    _check_nd(iv, pshape[b:], "GatherNd")
    if b:
        # prepend each entry's batch coordinates: a batch_dims=0 gather on the same params
        grid = np.indices(iv.shape[:b], dtype=iv.dtype)
        grid = np.moveaxis(grid, 0, -1).reshape(iv.shape[:b] + (1,) * (iv.ndim - 1 - b) + (b,))
        grid = np.broadcast_to(grid, iv.shape[:-1] + (b,))
        idx = _wrap(np.concatenate([grid, iv], axis=-1))
    return apply(_gather_nd, (p, idx), {"lead": 0})


def _check_updates(idx: np.ndarray, upd: Tensor, shape: tuple, op: str) -> None:
    k = idx.shape[-1]
    want = idx.shape[:-1] + tuple(shape[k:])
    if upd._value.shape != want:
        raise _err(op, f"updates must have shape indices.shape[:-1] + shape[indices.shape[-1]:] = "
                       f"{list(want)}, got {list(upd._value.shape)} (indices shape "
                       f"{list(idx.shape)}, shape {list(shape)})")


def scatter_nd(indices: Any, updates: Any, shape: Any, name: Any = None) -> Tensor:
    """A tensor of ``shape``, zero except at ``indices``, where ``updates`` are added.

    Duplicate indices add up. The gradient with respect to ``updates`` is ``gather_nd``.

    >>> import tapegrad as tf
    >>> tf.scatter_nd([[1], [1], [3]], tf.constant([1.0, 2.0, 5.0]), [4]).numpy()
    array([0., 3., 0., 5.], dtype=float32)
    """
    idx = _nd_indices(indices, "ScatterNd")
    upd = as_tensor(updates)
    s = tuple(_int_list(shape, "scatter_nd: shape"))
    if min(s, default=0) < 0:
        raise _err("ScatterNd", f"shape must be non-negative, got {list(s)}")
    iv = np.asarray(idx._value)
    _check_nd(iv, s, "ScatterNd", "shape")
    _check_updates(iv, upd, s, "ScatterNd")
    return apply(_scatter_nd, (idx, upd), {"shape": s, "lead": 0})


def _scatter_args(tensor: Any, indices: Any, updates: Any, op: str) -> tuple:
    t, upd = binary_operands(tensor, updates, op)
    idx = _nd_indices(indices, op)
    iv = np.asarray(idx._value)
    _check_nd(iv, t._value.shape, op, "shape")
    _check_updates(iv, upd, t._value.shape, op)
    return t, idx, upd


def tensor_scatter_nd_update(tensor: Any, indices: Any, updates: Any, name: Any = None) -> Tensor:
    """A copy of ``tensor`` with the entries (or slices) at ``indices`` replaced by ``updates``.

    With duplicate indices the last update is kept. Gradients follow TensorFlow: ``tensor`` gets
    the cotangent with the replaced positions zeroed, and every update (duplicates included)
    gets ``gather_nd`` of the cotangent.

    >>> import tapegrad as tf
    >>> tf.tensor_scatter_nd_update(tf.zeros([3]), [[2]], [7.0]).numpy()
    array([0., 0., 7.], dtype=float32)
    """
    t, idx, upd = _scatter_args(tensor, indices, updates, "TensorScatterUpdate")
    return apply(_tsu, (t, idx, upd), {"lead": 0})


def tensor_scatter_nd_add(tensor: Any, indices: Any, updates: Any, name: Any = None) -> Tensor:
    """``tensor`` plus ``updates`` added at ``indices`` (duplicates add up).

    >>> import tapegrad as tf
    >>> tf.tensor_scatter_nd_add(tf.ones([3]), [[0], [0]], [1.0, 2.0]).numpy()
    array([4., 1., 1.], dtype=float32)
    """
    t, idx, upd = _scatter_args(tensor, indices, updates, "TensorScatterAdd")
    return add(t, apply(_scatter_nd, (idx, upd), {"shape": t._value.shape, "lead": 0}))


# --------------------------------------------------------------------------- masks and flips
def boolean_mask(tensor: Any, mask: Any, axis: Any = None, name: Any = None) -> Tensor:
    """The entries of ``tensor`` where ``mask`` is true.

    ``mask`` (rank ``m``) must match ``tensor.shape[axis:axis + m]``; those ``m`` axes become one
    axis holding the selected entries, in row-major order. A numeric mask selects its non-zero
    entries, as in TensorFlow. The gradient is dense.

    >>> import tapegrad as tf
    >>> tf.boolean_mask(tf.constant([[1, 2], [3, 4]]), [True, False]).numpy()
    array([[1, 2]], dtype=int32)
    """
    x = as_tensor(tensor)
    m = as_tensor(mask)
    mv = np.asarray(m._value)
    if mv.ndim == 0:
        raise ValueError("boolean_mask: mask cannot be scalar; give a mask with at least one axis.")
    xs = x._value.shape
    a = 0 if axis is None else norm_axis(axis, max(len(xs), 1), "boolean_mask")
    if xs[a:a + mv.ndim] != mv.shape:
        raise ValueError(f"boolean_mask: the mask's shape {list(mv.shape)} must equal the tensor's "
                         f"shape {list(xs)} on axes {a}..{a + mv.ndim - 1} (got "
                         f"{list(xs[a:a + mv.ndim])}).")
    flat_shape = xs[:a] + (int(mv.size),) + xs[a + mv.ndim:]
    # Reshape is always recorded (even when the shape is unchanged) so the gradient is dense,
    # as in TensorFlow, rather than gather's IndexedSlices.
    flat = apply(_reshape, (x,), {"shape": flat_shape})
    sel = _wrap(np.flatnonzero(mv).astype(np.int64))
    return apply(_gather, (flat, sel), {"axis": a, "batch_dims": 0})


def _reverse_vjp(g: Tensor, ans: Tensor, x: Tensor, axes: tuple) -> Tensor:
    L = _lead(g, ans)
    return apply(_reverse, (g,), {"axes": tuple(a + L for a in axes)})


_reverse = defop("ReverseV2", lambda x, axes: np.flip(x, axes), vjp=(_reverse_vjp,), jvp="linear")


def reverse(tensor: Any, axis: Any, name: Any = None) -> Tensor:
    """Reverse ``tensor`` along each axis in ``axis`` (a list of ints; negative counts from the end).

    >>> import tapegrad as tf
    >>> tf.reverse(tf.constant([[1, 2, 3]]), [-1]).numpy()
    array([[3, 2, 1]], dtype=int32)
    """
    x = as_tensor(tensor)
    av = np.asarray(axis._value if isinstance(axis, Tensor) else axis)
    if av.ndim != 1:
        raise _err("ReverseV2", f"'axis' must be a list of axes (1-D), got {axis!r}; write "
                                f"tf.reverse(x, [{axis!r}])")
    nd = x._value.ndim
    axes = []
    for i, a in enumerate(_int_list(av, "reverse: axis")):
        if not -nd <= a < nd:
            raise _err("ReverseV2", f"'axis'[{i}] = {a} is out of valid range [{-nd}, {nd}) for a "
                                    f"tensor of rank {nd}")
        if a % nd in axes:
            raise _err("ReverseV2", f"axis {a % nd} specified more than once.")
        axes.append(a % nd)
    return apply(_reverse, (x,), {"axes": tuple(axes)})


def _roll_vjp(g: Tensor, ans: Tensor, x: Tensor, shifts: tuple, axes: tuple) -> Tensor:
    L = _lead(g, ans)
    return apply(_roll, (g,), {"shifts": tuple(-s for s in shifts), "axes": tuple(a + L for a in axes)})


_roll = defop("Roll", lambda x, shifts, axes: np.roll(x, shifts, axes) if axes else x,
              vjp=(_roll_vjp,), jvp="linear")


def roll(input: Any, shift: Any, axis: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Shift elements cyclically by ``shift`` along ``axis`` (ints or equal-length lists; shifts
    on a repeated axis add up).

    >>> import tapegrad as tf
    >>> tf.roll(tf.constant([1, 2, 3, 4]), shift=1, axis=0).numpy()
    array([4, 1, 2, 3], dtype=int32)
    """
    x = as_tensor(input)
    sh = _int_list(shift, "roll: shift")
    ax = _int_list(axis, "roll: axis")
    if len(sh) != len(ax) or np.ndim(shift._value if isinstance(shift, Tensor) else shift) > 1:
        raise _err("Roll", f"shift and axis must have the same size (got shift {sh} and axis {ax})")
    nd = x._value.ndim
    total: dict[int, int] = {}
    for s, a in zip(sh, ax):
        if not -nd <= a < nd:
            raise _err("Roll", f"axis {a} is out of range for a tensor of rank {nd}")
        total[a % nd] = total.get(a % nd, 0) + s
    axes = tuple(sorted(total))
    return apply(_roll, (x,), {"shifts": tuple(total[a] for a in axes), "axes": axes})


def _repeat_vjp(g: Tensor, ans: Tensor, x: Tensor, idx: Tensor, axis: int) -> Tensor:
    return apply(_gather_grad, (g, idx), {"shape": x._value.shape, "axis": axis, "batch_dims": 0})


_repeat = defop("Repeat", lambda x, idx, axis: np.take(x, idx, axis=axis),
                vjp=(_repeat_vjp, None), jvp="linear")


def repeat(input: Any, repeats: Any, axis: Any = None, name: Any = None) -> Tensor:  # noqa: A002
    """Repeat each element (``axis=None``: of the flattened input) or each slice along ``axis``
    ``repeats`` times (an int, or one count per slice). The gradient sums the copies.

    >>> import tapegrad as tf
    >>> tf.repeat(tf.constant([1, 2]), [2, 3], axis=0).numpy()
    array([1, 1, 2, 2, 2], dtype=int32)
    """
    x = as_tensor(input)
    if axis is None:
        x = reshape(x, [-1])
        a = 0
    else:
        if x._value.ndim == 0:
            raise _err("Repeat", "a scalar input has no axis to repeat along; use axis=None")
        a = norm_axis(axis, x._value.ndim, "Repeat")
    r = np.asarray(_int_list(repeats, "repeat: repeats"))
    if np.ndim(repeats._value if isinstance(repeats, Tensor) else repeats) > 1:
        raise ValueError(f"repeat: repeats must be an int or a 1-D list, got {repeats!r}.")
    n = x._value.shape[a]
    if r.size not in (1, n):
        raise _err("Repeat", f"repeats has {r.size} entries but axis {a} has length {n}; give one "
                             "count per slice or a single count")
    if (r < 0).any():
        raise _err("Repeat", f"repeats must be non-negative, got {r.tolist()}")
    idx = np.repeat(np.arange(n, dtype=np.int64), np.broadcast_to(r, (n,)))
    return apply(_repeat, (x, _wrap(idx)), {"axis": a})


# --------------------------------------------------------------------------- masks and grids (no gradient)
def _one_hot_fwd(idx: np.ndarray, on: np.ndarray, off: np.ndarray, depth: int, axis: int) -> np.ndarray:
    hit = idx[..., None] == np.arange(depth)
    out = np.where(hit, on, off).astype(np.result_type(on, off))
    return np.moveaxis(out, -1, axis) if axis != -1 else out


_one_hot = defop("OneHot", _one_hot_fwd, nondiff=True)


def one_hot(indices: Any, depth: Any, on_value: Any = None, off_value: Any = None, axis: Any = None,
            dtype: Any = None, name: Any = None) -> Tensor:
    """One-hot vectors of length ``depth`` along a new axis (last by default).

    Indices outside ``[0, depth)`` give all-``off_value`` vectors. The dtype is ``dtype``, or that
    of ``on_value``/``off_value``, or float32. No gradient flows to ``on_value``/``off_value``
    (as in TensorFlow).

    >>> import tapegrad as tf
    >>> tf.one_hot([0, 2, -1], 3).numpy()
    array([[1., 0., 0.],
           [0., 0., 1.],
           [0., 0., 0.]], dtype=float32)
    """
    idx = as_tensor(indices)
    if idx._value.dtype.type not in (np.uint8, np.int8, np.int32, np.int64):
        raise _err("OneHot", f"indices must be uint8, int8, int32 or int64, got {idx.dtype.name}; "
                             "cast them with tf.cast(indices, tf.int32)")
    want = None if dtype is None else _dt.as_dtype(dtype)
    on = None if on_value is None else convert_to_tensor(on_value, dtype_hint=want)
    off = None if off_value is None else convert_to_tensor(off_value, dtype_hint=want)
    for what, v in (("on_value", on), ("off_value", off)):
        if v is not None and want is not None and v.dtype != want:
            raise TypeError(f"one_hot: dtype {v.dtype.name} of {what} does not match the dtype "
                            f"parameter {want.name}.")
    if on is not None and off is not None and on.dtype != off.dtype:
        raise TypeError(f"one_hot: dtype {on.dtype.name} of on_value does not match dtype "
                        f"{off.dtype.name} of off_value.")
    npdt = (want or (on.dtype if on is not None else off.dtype if off is not None else _dt.float32))._np
    on = _wrap(npdt.type(1)) if on is None else on
    off = _wrap(npdt.type(0)) if off is None else off
    if on._value.ndim or off._value.ndim:
        raise _err("OneHot", "on_value and off_value must be scalars")
    dv = np.asarray(depth._value if isinstance(depth, Tensor) else depth)
    if dv.ndim or dv.dtype.kind not in "iu":   # int() would truncate 2.5 to 2 silently
        raise TypeError(f"one_hot: depth must be a scalar integer, got {depth!r}.")
    d = int(dv)
    if d < 0:
        raise _err("OneHot", f"depth must be non-negative, got: {d}")
    nd = idx._value.ndim
    a = -1 if axis is None else int(axis)
    if a != -1 and not 0 <= a <= nd:
        raise _err("OneHot", f"Expected axis to be -1 or between [0, {nd + 1}). But received: {a}")
    return apply(_one_hot, (idx, on, off), {"depth": d, "axis": a})


def sequence_mask(lengths: Any, maxlen: Any = None, dtype: Any = _dt.bool, name: Any = None) -> Tensor:
    """``mask[i..., j] = j < lengths[i...]`` for ``j`` in ``[0, maxlen)`` (``maxlen`` defaults to
    ``max(lengths)``); cast to ``dtype``. No gradient.

    >>> import tapegrad as tf
    >>> tf.sequence_mask([1, 3], 4).numpy()
    array([[ True, False, False, False],
           [ True,  True,  True, False]])
    """
    lv = np.asarray(as_tensor(lengths)._value)
    if lv.dtype.kind not in "iuf":
        raise TypeError(f"sequence_mask: lengths must be numbers, got {lv.dtype}.")
    if maxlen is None:
        mx = lv.max() if lv.size else lv.dtype.type(0)
    else:
        mv = np.asarray(as_tensor(maxlen)._value)
        if mv.ndim:
            raise ValueError(f"sequence_mask: maxlen must be a scalar, got shape {list(mv.shape)}.")
        mx = mv[()]
    if mx < 0:
        raise _err("Range", f"Requires start <= limit when delta > 0: 0/{mx} (maxlen must be >= 0)")
    row = np.arange(mx, dtype=np.asarray(mx).dtype)
    hit = row < lv[..., None].astype(row.dtype)
    return _wrap(hit.astype(_dt.as_dtype(dtype)._np))


def meshgrid(*args: Any, **kwargs: Any) -> list:
    """N-D coordinate grids from 1-D coordinate vectors (higher-rank inputs are flattened).

    ``indexing='xy'`` (default, Cartesian) swaps the first two output axes; ``'ij'`` (matrix
    indexing) does not. Gradients sum over the broadcast axes.

    >>> import tapegrad as tf
    >>> X, Y = tf.meshgrid([1, 2, 3], [4, 5])
    >>> X.numpy()
    array([[1, 2, 3],
           [1, 2, 3]], dtype=int32)
    """
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"meshgrid: unexpected keyword arguments {sorted(kwargs)}; only indexing "
                        "and name are accepted.")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be either 'xy' or 'ij', got {indexing!r}.")
    if not args:
        return []
    xs = [reshape(as_tensor(a), [-1]) for a in args]
    for i, t in enumerate(xs[1:], 1):
        if t._value.dtype != xs[0]._value.dtype:
            raise _err("Meshgrid", f"all inputs must have one dtype: args[0] is "
                                   f"{xs[0].dtype.name} but args[{i}] is {t.dtype.name}")
    n = len(xs)
    sizes = [t._value.shape[0] for t in xs]
    if indexing == "xy" and n > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, t in enumerate(xs):
        pos = (1 - i if i < 2 else i) if indexing == "xy" and n > 1 else i
        s = [1] * n
        s[pos] = -1
        out.append(broadcast_to(reshape(t, s), sizes))
    return out


# --------------------------------------------------------------------------- norms and clipping
def _scalar_int_axis(a: Any) -> bool:
    return isinstance(a, (int, np.integer)) and not isinstance(a, bool)


def norm(tensor: Any, ord: Any = "euclidean", axis: Any = None, keepdims: Any = None,  # noqa: A002
         name: Any = None) -> Tensor:
    """Vector or matrix norm.

    ``axis`` None (all entries as one vector) or an int gives a vector norm: ``ord`` is
    ``'euclidean'``, 1, 2, ``np.inf`` or any real ``p > 0``. A pair of axes gives a matrix norm:
    ``'fro'``/``'euclidean'`` (Frobenius), 1 (max column sum), ``np.inf`` (max row sum) or 2
    (largest singular value, through :func:`tapegrad.linalg.svd`). As in TensorFlow, the
    gradient of a Euclidean or p-norm at the zero vector is NaN (``sqrt``'s infinite slope times
    zero); use :func:`clip_by_norm` or add a small constant inside when that matters. Ties in the
    1- and inf-norms share the gradient.

    >>> import tapegrad as tf
    >>> float(tf.norm(tf.constant([3.0, 4.0])))
    5.0
    """
    kd = bool(keepdims)
    is_matrix = isinstance(axis, (list, tuple)) and len(axis) == 2
    if is_matrix:
        if not all(_scalar_int_axis(a) for a in axis) or axis[0] == axis[1]:
            raise ValueError(f"norm: 'axis' must be None, an integer, or a tuple of 2 unique "
                             f"integers, got {axis!r}.")
        if not _is_one_of(ord, ("euclidean", "fro", 1, 2, np.inf)):
            raise ValueError(f"norm: 'ord' must be a supported matrix norm in ['euclidean', "
                             f"'fro', 1, 2, inf], got {ord!r}.")
    else:
        if not (axis is None or _scalar_int_axis(axis)):
            raise ValueError(f"norm: 'axis' must be None, an integer, or a tuple of 2 unique "
                             f"integers, got {axis!r}.")
        if not (_is_one_of(ord, ("euclidean", 1, 2, np.inf)) or (
                isinstance(ord, numbers.Real) and not isinstance(ord, bool) and ord > 0)):
            raise ValueError(f"norm: 'ord' must be a supported vector norm ('euclidean', 1, 2, "
                             f"np.inf or a real p > 0), got {ord!r}.")
    x = as_tensor(tensor)
    _check_kind(x, "fc", "Norm")
    nd = x._value.ndim
    axes = norm_axes(axis, nd, "Norm") if axis is not None else tuple(range(nd))
    if is_matrix and _is_one_of(ord, (2,)):
        r = _matrix_2_norm(x, axes)
    elif _is_one_of(ord, ("euclidean", "fro", 2)):
        r = sqrt(reduce_sum(x * conj(x), axes, keepdims=True))
    elif _is_one_of(ord, (1,)):
        r = reduce_sum(_abs(x), axes[:1] if is_matrix else axes, keepdims=True)
        if is_matrix:
            r = reduce_max(r, axes[1], keepdims=True)
    elif _is_one_of(ord, (np.inf,)):
        r = _abs(x)
        if is_matrix:
            r = reduce_sum(r, axes[1], keepdims=True)
        r = reduce_max(r, axes[:1] if is_matrix else axes, keepdims=True)
    else:
        a = _abs(x)
        p = a._value.dtype.type(ord)
        r = _pow(reduce_sum(_pow(a, p), axes, keepdims=True), a._value.dtype.type(1) / p)
    if not kd:
        r = reshape(r, [d for i, d in enumerate(r._value.shape) if i not in axes])
    return r


def _is_one_of(v: Any, options: tuple) -> bool:
    for o in options:
        if isinstance(o, str):
            if isinstance(v, str) and v == o:
                return True
        elif not isinstance(v, (str, bool)) and isinstance(v, numbers.Real) and v == o:
            return True
    return False


def _matrix_2_norm(x: Tensor, axes: tuple) -> Tensor:
    from .decompositions import svd
    nd = x._value.ndim
    rest = [i for i in range(nd) if i not in axes]
    perm = rest + list(axes)
    s = svd(transpose(x, perm), compute_uv=False)
    r = reduce_max(_abs(s), -1, keepdims=True)
    r = reshape(r, r._value.shape + (1,))
    return transpose(r, list(np.argsort(perm)))


def _float_values(t: Any, op: str) -> Tensor:
    v = as_tensor(t.values if isinstance(t, IndexedSlices) else t)
    _check_kind(v, "f", op)
    return v


def _like(t: Any, values: Tensor) -> Any:
    return IndexedSlices(values, t.indices, t.dense_shape) if isinstance(t, IndexedSlices) else values


def clip_by_norm(t: Any, clip_norm: Any, axes: Any = None, name: Any = None) -> Any:
    """Rescale ``t`` so its L2 norm over ``axes`` (all axes when None) is at most ``clip_norm``:
    ``t * clip_norm / max(norm(t), clip_norm)``.

    A negative ``clip_norm`` counts as 0. At ``t = 0`` the result and gradient are finite (the
    norm is computed safely), as in TensorFlow. An :class:`IndexedSlices` ``t`` gives an
    IndexedSlices with clipped values.

    >>> import tapegrad as tf
    >>> tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0).numpy().round(4)
    array([0.6, 0.8], dtype=float32)
    """
    v = _float_values(t, "clip_by_norm")
    dt = v.dtype
    if isinstance(clip_norm, (int, float, np.integer, np.floating)) and not isinstance(clip_norm, bool):
        c = _wrap(dt._np.type(max(clip_norm, 0)))
    else:
        c = cast(maximum(as_tensor(clip_norm), 0), dt)
    try:
        np.broadcast_shapes(v._value.shape, c._value.shape)
    except ValueError:
        raise _err("Mul", f"clip_norm of shape {list(c._value.shape)} does not broadcast against "
                          f"t of shape {list(v._value.shape)}") from None
    if np.broadcast_shapes(v._value.shape, c._value.shape) != v._value.shape:
        raise ValueError(f"clip_by_norm: clip_norm of shape {list(c._value.shape)} would change "
                         f"the shape of t {list(v._value.shape)}.")
    ax = None if axes is None else list(norm_axes(axes, v._value.ndim, "clip_by_norm"))
    l2sum = reduce_sum(v * v, ax, keepdims=True)
    pos = l2sum > 0
    one = _wrap(np.ones_like(l2sum._value))
    l2norm = where(pos, sqrt(where(pos, l2sum, one)), l2sum)  # no NaN gradient at 0
    return _like(t, (v * c) / maximum(l2norm, c))


def global_norm(t_list: Any, name: Any = None) -> Tensor:
    """``sqrt(Σ sum(t ** 2))`` over the tensors in ``t_list`` (None entries are skipped).

    >>> import tapegrad as tf
    >>> float(tf.linalg.global_norm([tf.constant([3.0]), None, tf.constant([4.0])]))
    5.0
    """
    vals = _norm_list(t_list, "global_norm")
    sq = [reduce_sum(v * v) for v in vals if v is not None]
    if not sq:
        return _wrap(np.float32(0))
    return sqrt(reduce_sum(stack(sq)))


def _norm_list(t_list: Any, op: str) -> list:
    if isinstance(t_list, (str, Tensor, Variable, IndexedSlices, np.ndarray)) or not isinstance(
            t_list, Sequence):
        raise TypeError(f"{op}: t_list should be a sequence (list or tuple) of tensors, got "
                        f"{type(t_list).__name__}.")
    return [None if t is None else _float_values(t, op) for t in t_list]


def clip_by_global_norm(t_list: Any, clip_norm: Any, use_norm: Any = None, name: Any = None) -> tuple:
    """Scale every tensor in ``t_list`` by ``clip_norm / max(global_norm, clip_norm)``.

    Returns ``(list_clipped, global_norm)``; None entries stay None, IndexedSlices stay
    IndexedSlices. ``use_norm`` replaces the computed global norm. If the norm is infinite or
    NaN, every clipped value is NaN (as in TensorFlow). Gradients flow through the global norm.

    >>> import tapegrad as tf
    >>> clipped, n = tf.clip_by_global_norm([tf.constant([3.0]), tf.constant([4.0])], 1.0)
    >>> [c.numpy().round(4) for c in clipped], float(n)
    ([array([0.6], dtype=float32), array([0.8], dtype=float32)], 5.0)
    """
    vals = _norm_list(t_list, "clip_by_global_norm")
    if use_norm is None:
        n = global_norm(vals)
    elif isinstance(use_norm, (Tensor, Variable)):
        n = as_tensor(use_norm)
    else:
        dts = [v.dtype for v in vals if v is not None]
        n = convert_to_tensor(use_norm, dtype=dts[0] if dts else None)
    _check_kind(n, "f", "clip_by_global_norm")
    c = binary_operands(n, clip_norm, "clip_by_global_norm")[1]
    one = _wrap(n._value.dtype.type(1))
    scale = c * minimum(one / n, one / c) + (n - n)  # NaN when the norm is inf or NaN
    out = []
    for t, v in zip(t_list, vals):
        if v is None:
            out.append(None)
            continue
        s = scale if v._value.dtype == scale._value.dtype else cast(scale, v.dtype)
        out.append(_like(t, v * s))
    return out, n


# --------------------------------------------------------------------------- einsum / tensordot
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _einsum_fwd(*xs: np.ndarray, ins: tuple, out: str) -> np.ndarray:
    r = np.einsum(",".join(ins) + "->" + out, *xs, optimize=len(xs) > 2)
    return np.asarray(r, dtype=np.result_type(*xs))


def _fresh(used: set, n: int) -> list:
    free = [c for c in _LETTERS if c not in used]
    if len(free) < n:
        raise ValueError(f"einsum: the equation uses too many labels (at most {len(_LETTERS)} "
                         "distinct axes, ellipsis and batch axes included).")
    return free[:n]


def _einsum_vjp(g: Tensor, ans: Tensor, needs: Any, *xs: Tensor, ins: tuple, out: str) -> list:
    used = set("".join(ins)) | set(out)
    batch = "".join(_fresh(used, _lead(g, ans)))
    used |= set(batch)
    sizes = {c: d for s, x in zip(ins, xs) for c, d in zip(s, x._value.shape)}
    dt = g._value.dtype
    res = []
    for i in needs:
        ops = [g] + [conj(x) for j, x in enumerate(xs) if j != i]
        subs = [batch + out] + [s for j, s in enumerate(ins) if j != i]
        have = set("".join(subs))
        target = ""
        seen: set = set()
        for c in ins[i]:
            if c in seen:  # a repeated label (a diagonal): a fresh label tied to c by an identity
                f = _fresh(used, 1)[0]
                used.add(f)
                ops.append(_wrap(np.eye(sizes[c], dtype=dt)))
                subs.append(c + f)
                target += f
                continue
            seen.add(c)
            target += c
            if c not in have:  # summed over in this operand only: the cotangent is constant along it
                ops.append(_wrap(np.ones(sizes[c], dtype=dt)))
                subs.append(c)
                have.add(c)
        res.append(apply(_einsum, ops, {"ins": tuple(subs), "out": batch + target}))
    return res


def _einsum_jvp(ts: Any, ans: Tensor, *xs: Tensor, ins: tuple, out: str) -> Tensor:
    r = None
    for i, t in enumerate(ts):
        if t is not None:
            term = apply(_einsum, [t if j == i else x for j, x in enumerate(xs)], {"ins": ins, "out": out})
            r = term if r is None else r + term
    return r


_einsum = defop("Einsum", _einsum_fwd, vjp=_einsum_vjp, jvp=_einsum_jvp)


def _parse_term(term: str, k: int) -> tuple[list, bool]:
    """A subscript term as a list of labels, with ``"..."`` as one item where the ellipsis is."""
    if term.count("...") > 1 or "." in term.replace("...", ""):
        raise ValueError(f"einsum: subscripts {term!r} of operand {k} have a '.' that is not part "
                         "of a single ellipsis ('...').")
    labels: list = []
    for part_i, part in enumerate(term.split("...")):
        if part_i:
            labels.append("...")
        for c in part:
            if c not in _LETTERS:
                raise ValueError(f"einsum: invalid subscript {c!r} in {term!r}; use letters a-z, "
                                 "A-Z and '...'.")
            labels.append(c)
    return labels, "..." in labels


def _parse_einsum(equation: str, shapes: list) -> tuple[tuple, str]:
    """Explicit labels for every axis: the ellipsis becomes letters (broadcast right-aligned;
    an axis of size 1 broadcast against a longer one gets a label of its own)."""
    eq = equation.replace(" ", "")
    if eq.count("->") > 1:
        raise ValueError(f"einsum: equation {equation!r} has more than one '->'.")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"einsum: got {len(shapes)} inputs for equation {equation!r}, "
                         f"expecting {len(terms)}.")
    parsed = [_parse_term(t, k) for k, t in enumerate(terms)]
    user = {c for labels, _ in parsed for c in labels if c != "..."}
    used = set(user) | {c for c in rhs if c in _LETTERS}
    ell_ranks = []
    for k, ((labels, has_ell), s) in enumerate(zip(parsed, shapes)):
        n = len(labels) - has_ell
        if (has_ell and len(s) < n) or (not has_ell and len(s) != n):
            raise InvalidArgumentError(None, None, f"einsum: expected input {k} to have rank "
                                       f"{n}{' or more' if has_ell else ''} for subscripts "
                                       f"{terms[k]!r} but got shape {list(s)} [Op:Einsum]")
        ell_ranks.append(len(s) - n if has_ell else 0)
    E = max(ell_ranks, default=0)
    ell = _fresh(used, E)
    used |= set(ell)
    ell_size = [1] * E
    for (labels, has_ell), s, r in zip(parsed, shapes, ell_ranks):
        if has_ell:
            p = labels.index("...")
            for j, d in enumerate(s[p:p + r]):
                pos = E - r + j
                if d != 1:
                    if ell_size[pos] not in (1, d):
                        raise InvalidArgumentError(None, None, f"einsum: broadcast dimensions "
                                                   f"{ell_size[pos]} and {d} do not match "
                                                   f"(shapes {[list(q) for q in shapes]}) [Op:Einsum]")
                    ell_size[pos] = d
    ins = []
    for (labels, has_ell), s, r in zip(parsed, shapes, ell_ranks):
        sub = ""
        for c in labels:
            if c != "...":
                sub += c
                continue
            p = len(sub)
            for j in range(r):
                pos = E - r + j
                if s[p + j] == 1 and ell_size[pos] != 1:
                    f = _fresh(used, 1)[0]
                    used.add(f)
                    sub += f
                else:
                    sub += ell[pos]
        ins.append(sub)
    if arrow:
        out_labels, out_ell = _parse_term(rhs, -1)
        for c in out_labels:
            if c != "..." and c not in user:
                raise ValueError(f"einsum: output subscripts contain the label {c!r} not present "
                                 "in the input subscripts.")
            if c != "..." and out_labels.count(c) > 1:
                raise ValueError(f"einsum: output subscripts contain the label {c!r} twice.")
        if E and not out_ell:
            raise ValueError("einsum: the inputs have ellipsis ('...') axes, so the output "
                             "subscripts need a '...' too.")
        out = "".join("".join(ell) if c == "..." else c for c in out_labels)
    else:
        counts: dict = {}
        for labels, _ in parsed:
            for c in labels:
                if c != "...":
                    counts[c] = counts.get(c, 0) + 1
        out = "".join(ell) + "".join(sorted(c for c, k in counts.items() if k == 1))
    sizes: dict = {}
    for k, (sub, s) in enumerate(zip(ins, shapes)):
        for c, d in zip(sub, s):
            if sizes.setdefault(c, d) != d:
                raise InvalidArgumentError(None, None, f"einsum: label {c!r} has dimension "
                                           f"{sizes[c]} in one place and {d} in input {k} (shape "
                                           f"{list(s)}); they must be equal [Op:Einsum]")
    return tuple(ins), out


def einsum(equation: str, *inputs: Any, **kwargs: Any) -> Tensor:
    """Einstein summation, with NumPy's equation syntax: explicit (``'ij,jk->ik'``) or implicit
    (``'ij,jk'``), ``...`` for broadcast axes, and repeated labels in one operand for diagonals
    and traces (``'ii->'``, ``'ii->i'``).

    The gradient with respect to each operand is another einsum.

    >>> import tapegrad as tf
    >>> a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> float(tf.einsum('ii', a)), tf.einsum('ij,jk->ik', a, a).numpy()[0]
    (5.0, array([ 7., 10.], dtype=float32))
    """
    kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"einsum: unexpected keyword arguments {sorted(kwargs)}.")
    if not isinstance(equation, str):
        raise TypeError(f"einsum: the equation must be a string, got {type(equation).__name__}.")
    if not inputs:
        raise ValueError("einsum: no input tensors given.")
    xs = [as_tensor(x) for x in inputs]
    for i, t in enumerate(xs[1:], 1):
        if t._value.dtype != xs[0]._value.dtype:
            raise _err("Einsum", f"all inputs must have one dtype: inputs[0] is {xs[0].dtype.name} "
                                 f"but inputs[{i}] is {t.dtype.name}; cast with tf.cast")
    _check_kind(xs[0], "fciu", "Einsum")
    ins, out = _parse_einsum(equation, [x._value.shape for x in xs])
    return apply(_einsum, xs, {"ins": ins, "out": out})


def tensordot(a: Any, b: Any, axes: Any, name: Any = None) -> Tensor:
    """Sum the products of ``a`` and ``b`` over the given axes.

    ``axes`` is an int ``n`` (the last ``n`` axes of ``a`` with the first ``n`` of ``b``) or a
    pair ``[a_axes, b_axes]`` of equal-length lists (or ints). The result has ``a``'s free axes
    followed by ``b``'s.

    >>> import tapegrad as tf
    >>> float(tf.tensordot(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]), 1))
    11.0
    """
    x, y = binary_operands(a, b, "Tensordot")
    na, nb = x._value.ndim, y._value.ndim
    if isinstance(axes, Tensor):
        axes = axes._value.tolist()
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n < 0:
            raise ValueError(f"tensordot: axes must be at least 0, got {n}.")
        if n > min(na, nb):
            raise ValueError(f"tensordot: axes={n} is more than the rank of a ({na}) or b ({nb}).")
        ax_a, ax_b = list(range(na - n, na)), list(range(n))
    else:
        if not isinstance(axes, (list, tuple, np.ndarray)) or len(axes) != 2:
            raise ValueError(f"tensordot: axes must be an int or a pair [a_axes, b_axes], got {axes!r}.")
        ax_a = [axes[0]] if isinstance(axes[0], (int, np.integer)) else list(axes[0])
        ax_b = [axes[1]] if isinstance(axes[1], (int, np.integer)) else list(axes[1])
        if len(ax_a) != len(ax_b):
            raise ValueError(f"tensordot: different number of contraction axes for a and b, "
                             f"{len(ax_a)} != {len(ax_b)}.")
        ax_a = [norm_axis(i, na, "Tensordot") for i in ax_a]
        ax_b = [norm_axis(i, nb, "Tensordot") for i in ax_b]
        if len(set(ax_a)) != len(ax_a) or len(set(ax_b)) != len(ax_b):
            raise ValueError(f"tensordot: an axis is contracted twice in {axes!r}.")
    sa, sb = x._value.shape, y._value.shape
    for i, j in zip(ax_a, ax_b):
        if sa[i] != sb[j]:
            raise _err("Tensordot", f"a's axis {i} has size {sa[i]} but b's axis {j} has size "
                                    f"{sb[j]} (shapes {list(sa)} and {list(sb)})")
    if na + nb - len(ax_a) > len(_LETTERS):
        raise ValueError("tensordot: the operands have too many axes.")
    la = _LETTERS[:na]
    lb = list(_LETTERS[na:na + nb])
    for i, j in zip(ax_a, ax_b):
        lb[j] = la[i]
    lb = "".join(lb)
    out = "".join(c for i, c in enumerate(la) if i not in ax_a) + \
        "".join(c for j, c in enumerate(lb) if j not in ax_b)
    return apply(_einsum, (x, y), {"ins": (la, lb), "out": out})


# --------------------------------------------------------------------------- embeddings
def embedding_lookup(params: Any, ids: Any, max_norm: Any = None, name: Any = None) -> Tensor:
    """Rows of ``params`` at ``ids``: ``gather(params, ids)``.

    ``params`` may be a list of shards (split along axis 0, in order, as TensorFlow's ``"div"``
    strategy does). With ``max_norm``, each looked-up embedding with a larger L2 norm is scaled
    down to it. The gradient with respect to ``params`` (or each shard) is an
    :class:`IndexedSlices`, as in TensorFlow.

    >>> import tapegrad as tf
    >>> table = tf.Variable([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
    >>> with tf.GradientTape() as tape:
    ...     e = tf.nn.embedding_lookup(table, [2, 0, 2])
    >>> g = tape.gradient(e, table)
    >>> type(g).__name__, tf.convert_to_tensor(g).numpy()[:, 0]
    ('IndexedSlices', array([1., 0., 2.], dtype=float32))
    """
    shards = list(params) if isinstance(params, (list, tuple)) else [params]
    if not shards:
        raise ValueError("embedding_lookup: params is an empty list; give a tensor or a list of shards.")
    idx = as_tensor(ids)
    if idx._value.dtype.kind not in "iu":
        raise TypeError(f"embedding_lookup: ids must be integers, got {idx.dtype.name}.")
    if len(shards) == 1:
        out = gather(shards[0], idx)
    else:
        ts = [as_tensor(s) for s in shards]
        sizes = np.array([t._value.shape[0] if t._value.ndim else 0 for t in ts])
        starts = np.concatenate([[0], np.cumsum(sizes)])
        iv = np.asarray(idx._value).reshape(-1)
        if iv.size and (iv.min() < 0 or iv.max() >= starts[-1]):
            bad = iv[(iv < 0) | (iv >= starts[-1])][0]
            raise _err("GatherV2", f"ids contain {bad}, not in [0, {starts[-1]}) (the total "
                                   "number of rows in the shards)")
        shard = np.searchsorted(starts, iv, side="right") - 1
        parts, order = [], []
        for s, t in enumerate(ts):
            sel = np.flatnonzero(shard == s)
            if sel.size:
                parts.append(gather(t, _wrap(iv[sel] - starts[s])))
                order.append(sel)
        pos = np.empty(iv.size, np.int64)
        pos[np.concatenate(order) if order else np.zeros(0, np.int64)] = np.arange(iv.size)
        rows = concat(parts, 0) if len(parts) > 1 else parts[0] if parts else _wrap(
            np.zeros((0,) + ts[0]._value.shape[1:], ts[0]._value.dtype))
        out = reshape(gather(rows, _wrap(pos)), idx._value.shape + rows._value.shape[1:])
    if max_norm is not None:
        emb_axes = list(range(idx._value.ndim, out._value.ndim))
        out = clip_by_norm(out, max_norm, axes=emb_axes or None)
    return out
