"""Indexing: ops that read or write at positions given by indices or masks: ``x[key]``
(``getitem``) and ``tf.slice``, ``gather``, the ``gather_nd``/``scatter_nd`` family and
``tensor_scatter_nd_*``, ``boolean_mask`` and ``embedding_lookup``.

Indexing ops take a static ``lead``: the number of leading axes of the indexed operand that the
indices do not address. Public calls use ``lead=0``; rules add the cotangent's batch axes
(``_lead(g, ans)``) to it, so the same primitives serve Jacobian walks and every order.
"""
from __future__ import annotations

import builtins
import functools
import math
from typing import Any

import numpy as np

from .. import _backend as _bk, _strings, _vmap
from .._convert import as_tensor, binary_operands, check_values, host_value
from .._dispatch import apply, composite_api, defop
from .._tensor import IndexedSlices, Tensor, constant_maker, wrap as _wrap
from .._variable import Variable
from .array import (_concat, _err, _int_list, _lead, _reshape, _slice, _transpose, concat, norm_axis, reshape,
                    stop_gradient, transpose, stack)
from .math import add, cast, clip_by_norm, equal, where, zeros_like

__all__ = ["getitem", "slice", "gather", "gather_nd", "scatter_nd", "tensor_scatter_nd_update",
    "tensor_scatter_nd_add", "boolean_mask", "embedding_lookup", "tensor_scatter_nd_sub",
    "tensor_scatter_nd_max", "tensor_scatter_nd_min", "dynamic_partition", "dynamic_stitch",
    "unravel_index", "reverse_sequence", "strided_slice"]


def _normalize_key(x: Tensor, key: Any) -> tuple:
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    for k in key:
        if k is None or k is Ellipsis or type(k) is builtins.slice and all(
                v is None or isinstance(v, (int, np.integer)) for v in (k.start, k.stop, k.step)):
            if type(k) is builtins.slice and k.step == 0:
                raise ValueError("slice step cannot be zero")
            out.append(k)
        elif type(k) is builtins.slice:
            out.append(builtins.slice(*(None if v is None else _index_int(v) for v in (k.start, k.stop, k.step))))
        elif isinstance(k, (bool, np.bool_)):
            raise TypeError(_INDEX_MSG.format(k=k))
        elif isinstance(k, (int, np.integer)):
            out.append(int(k))
        else:
            out.append(_index_int(k))
    # range checks for integer indices, as TensorFlow does
    shape = x._value.shape
    dim = 0
    n_real = builtins.sum(1 for k in out if k is not None and k is not Ellipsis)
    if n_real > len(shape):
        raise _err("StridedSlice", f"Index out of range using input dim {len(shape)}; input has only "
                                   f"{len(shape)} dims")
    for k in out:
        if k is Ellipsis:
            dim = len(shape) - builtins.sum(1 for q in out[out.index(Ellipsis) + 1:] if q is not None)
            continue
        if k is None:
            continue
        if isinstance(k, int) and not -shape[dim] <= k < shape[dim]:
            raise _err("StridedSlice", f"slice index {k} of dimension {dim} out of bounds (size "
                                       f"{shape[dim]})")
        dim += 1
    return tuple(out)


_INDEX_MSG = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
              "tf.int32/tf.int64 tensors are valid indices, got {k!r}. To pick several entries "
              "along an axis use tf.gather(x, indices, axis=...); for a mask use tf.boolean_mask.")


def _index_int(k: Any) -> int:
    if isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)):  # (x[1:n], n a tensor)
        return int(k)
    if isinstance(k, Variable):
        k = k._read()
    if isinstance(k, Tensor) and k._value.ndim == 0 and k._value.dtype.kind in "iu":
        return int(host_value(k, "index"))
    raise TypeError(_INDEX_MSG.format(k=k))


def _is_mask_key(key: Any) -> bool:
    """Whether ``x[key]`` is ``tf.boolean_mask(x, key)``: as in TF's ``_slice_helper``, a whole key
    that is a Python bool, a bool tensor or a bool NumPy array (not a bool variable, nor a mask
    inside a tuple of indices)."""
    return (type(key) is bool or type(key) is np.ndarray and key.dtype == np.bool_
            or isinstance(key, Tensor) and key._value.dtype == np.bool_)


numpy_style = False  # tnp.experimental_enable_numpy_behavior sets it: keys index as in NumPy
_PLAIN_KEYS = (int, tuple, builtins.slice)  # (never a mask: skip the check)


def getitem(x: Any, key: Any) -> Tensor:
    """``x[key]`` with ints, slices (any step), ``...``, ``None`` and scalar integer tensors; a
    bool tensor or array as the whole key is ``tf.boolean_mask(x, key)``. Under NumPy behavior
    (``tnp.experimental_enable_numpy_behavior``), any NumPy key: index arrays, lists, tuples and
    masks among the indices."""
    x = as_tensor(x)
    if numpy_style:
        try:
            k = _normalize_key(x, key)
        except TypeError:
            return _numpy_getitem(x, key)
        return apply(_slice, (x,), {"key": k})
    if type(key) not in _PLAIN_KEYS and _is_mask_key(key):
        return boolean_mask(x, key)
    k = _normalize_key(x, key)
    return apply(_slice, (x,), {"key": k})


def _numpy_index(k: Any) -> Any:
    if isinstance(k, Variable):
        k = k._read()
    if isinstance(k, Tensor):
        return np.asarray(host_value(k, "index"))
    if isinstance(k, (list, tuple)):
        return np.asarray([_numpy_index(v) for v in k]) if k else np.asarray(k, np.intp)
    if type(k) is builtins.slice:
        return builtins.slice(*(None if v is None else int(_numpy_index(v)) for v in (k.start, k.stop, k.step)))
    return k


def _numpy_getitem(x: Tensor, key: Any) -> Tensor:
    """NumPy's indexing (TF's ``_numpy_style_getitem``): the positions NumPy's key picks from
    ``x``'s flattened entries, gathered (so the gradient scatters back to them)."""
    k = tuple(_numpy_index(v) for v in key) if type(key) is tuple else _numpy_index(key)
    try:
        positions = np.arange(x._value.size, dtype=np.int64).reshape(x._value.shape)[k]
    except IndexError as e:
        raise _err("StridedSlice", f"{e} (indexing a tensor of shape {list(x._value.shape)})") from None
    flat = apply(_reshape, (x,), {"shape": (-1,)})
    return apply(_gather, (flat, _wrap(np.asarray(positions))), {"axis": 0, "batch_dims": 0})


def slice(input_: Any, begin: Any, size: Any, name: Any = None) -> Tensor:  # noqa: A001
    """``input_[begin[i]:begin[i]+size[i]]`` on every axis (``size[i] = -1`` means to the end)."""
    x = as_tensor(input_)
    b = _int_list(begin, "slice: begin")
    s = _int_list(size, "slice: size")
    shape = x._value.shape
    if len(b) != len(shape) or len(s) != len(shape):
        raise _err("Slice", f"begin and size must have one entry per axis of the input, of shape "
                            f"{list(shape)}; got begin={b}, size={s}")
    for i, (bb, ss, d) in enumerate(zip(b, s, shape)):   # NumPy would clip silently; TF checks
        if not 0 <= bb <= d:
            raise _err("Slice", f"Expected begin[{i}] in [0, {d}], but got {bb}")
        if ss != -1 and not 0 <= ss <= d - bb:
            raise _err("Slice", f"Expected size[{i}] in [0, {d - bb}], but got {ss}")
    key = tuple(builtins.slice(bb, None if ss == -1 else bb + ss) for bb, ss in zip(b, s))
    return apply(_slice, (x,), {"key": key})


# --------------------------------------------------------------------------- gather / segments
def _gather_fwd(p: np.ndarray, idx: np.ndarray, axis: int, batch_dims: int) -> np.ndarray:
    if batch_dims == 0:
        return _strings.held(np.take(p, idx, axis=axis))
    # batch_dims > 0: leading batch axes shared by params and indices
    bshape = p.shape[:batch_dims]
    nb = int(np.prod(bshape, dtype=np.int64))
    pf = p.reshape((nb,) + p.shape[batch_dims:])
    jf = idx.reshape((nb,) + idx.shape[batch_dims:])
    out = [np.take(pf[b], jf[b], axis=axis - batch_dims) for b in builtins.range(nb)]
    rest = np.take(pf[:1].reshape(p.shape[batch_dims:]) if nb else np.zeros(p.shape[batch_dims:], p.dtype),
                   jf[0] if nb else np.zeros(idx.shape[batch_dims:], idx.dtype), axis=axis - batch_dims).shape
    return np.stack(out).reshape(bshape + rest) if nb else np.zeros(bshape + rest, p.dtype)


@constant_maker
def _gather_vjp(g: Tensor, ans: Tensor, p: Tensor, idx: Tensor, axis: int, batch_dims: int) -> Any:
    lead = _lead(g, ans)
    pshape = p._value.shape
    if lead == 0 and axis == 0 and batch_dims == 0:
        vals = reshape(g, (idx._value.size,) + pshape[1:])
        return IndexedSlices(vals, reshape(idx, (-1,)), _wrap(np.asarray(pshape, np.int32)))
    return apply(_gather_grad, (g, idx), {"shape": pshape, "axis": axis, "batch_dims": batch_dims})


def _gather_grad_fwd(g: np.ndarray, idx: np.ndarray, shape: tuple, axis: int, batch_dims: int) -> np.ndarray:
    out_nd = len(shape) - 1 + idx.ndim - batch_dims
    lead = g.ndim - out_nd
    out = np.zeros(g.shape[:lead] + shape, g.dtype)
    if batch_dims == 0:
        # move the gathered axes of g to the front and add them into out along axis
        gm = np.moveaxis(g, tuple(builtins.range(lead + axis, lead + axis + idx.ndim)), tuple(builtins.range(idx.ndim)))
        om = np.moveaxis(out, lead + axis, 0)
        np.add.at(om, idx, gm)
        return out
    nb = int(np.prod(shape[:batch_dims], dtype=np.int64))
    of = out.reshape(g.shape[:lead] + (nb,) + shape[batch_dims:])
    gf = g.reshape(g.shape[:lead] + (nb,) + g.shape[lead + batch_dims:])
    jf = idx.reshape((nb,) + idx.shape[batch_dims:])
    a = axis - batch_dims
    for b in builtins.range(nb):
        ob = np.moveaxis(of[(builtins.slice(None),) * lead + (b,)], lead + a, 0)
        gb = gf[(builtins.slice(None),) * lead + (b,)]
        gb = np.moveaxis(gb, tuple(builtins.range(lead + a, lead + a + jf[b].ndim)), tuple(builtins.range(jf[b].ndim)))
        np.add.at(ob, jf[b], gb)
    return of.reshape(out.shape)


_gather_grad = defop("GatherGrad", _gather_grad_fwd,
                     vjp=(lambda g, ans, gg, idx, shape, axis, batch_dims:
                          apply(_gather, (g, idx), {"axis": axis, "batch_dims": batch_dims}) if _lead(g, ans) == 0
                          else _gather_batched(g, idx, axis, batch_dims, _lead(g, ans)), None),
                     jvp="linear")
def _gather_grad_rule(op: Any, n: int, xs: list, bat: tuple, p: dict) -> Any:
    if not bat[1]:  # the cotangent's leading axes are kept (as in a Jacobian walk)
        return apply(op, xs, p)
    return apply(op, _vmap.lift_all(n, xs, bat), {**p, "shape": (n,) + tuple(p["shape"]), "axis": p["axis"] + 1,
                                                  "batch_dims": p["batch_dims"] + 1})


def _batch_rows(be: Any, idx: Any, batch_dims: int, n: int) -> Any:
    """A batched gather's indices as rows of the batches' ``n``-row blocks stacked: ``[nb * K]``."""
    xp = be.xp
    nb = math.prod(idx.shape[:batch_dims])
    j = xp.reshape(idx, (nb, -1))
    return xp.reshape(j + xp.reshape(xp.arange(nb) * n, (nb, 1)), (-1,))


def _gather_grad_form(be: Any, g: Any, idx: Any, shape: tuple, axis: int, batch_dims: int) -> Any:
    lead = g.ndim - (len(shape) - 1 + idx.ndim - batch_dims)
    if not batch_dims:
        return _bk.scatter_add(be, g, idx, shape[axis], lead + axis)
    xp = be.xp
    ls, b, pre, n = tuple(g.shape[:lead]), shape[:batch_dims], shape[batch_dims:axis], shape[axis]
    k, q = idx.ndim - batch_dims, len(pre)
    if not (math.prod(b) and math.prod(idx.shape[batch_dims:])):
        return NotImplemented
    # g: lead, B, pre, I, post -> lead, (B I), pre, post: the rows of the stacked blocks
    gb = xp.reshape(g, ls + (-1,) + tuple(g.shape[lead + batch_dims:]))
    a = lead + 1
    gb = xp.permute_dims(gb, tuple(builtins.range(a)) + tuple(builtins.range(a + q, a + q + k))
                         + tuple(builtins.range(a, a + q)) + tuple(builtins.range(a + q + k, gb.ndim)))
    post = tuple(gb.shape[a + k + q:])
    gb = xp.reshape(gb, ls + (-1,) + pre + post)
    out = _bk.scatter_add(be, gb, _batch_rows(be, idx, batch_dims, n), math.prod(b) * n, lead)
    out = xp.moveaxis(xp.reshape(out, ls + (-1, n) + pre + post), lead + 1, lead + 1 + q)
    return xp.reshape(out, ls + tuple(shape))


_vmap.register(_gather_grad, _gather_grad_rule)
_bk.register(_gather_grad, _gather_grad_form)


def _gather_batched(g: Tensor, idx: Tensor, axis: int, batch_dims: int, lead: int) -> Tensor:
    if batch_dims == 0:
        return apply(_gather, (g, idx), {"axis": axis + lead, "batch_dims": 0})
    rows = [apply(_gather, (g[r], idx), {"axis": axis, "batch_dims": batch_dims}) for r in builtins.range(g._value.shape[0])]
    return stack(rows)


_gather = defop("GatherV2", _gather_fwd, vjp=(_gather_vjp, None), jvp="linear")
def _move_to_front(x: Tensor, a: int) -> Tensor:
    if a == 0:
        return x
    nd = x._value.ndim
    return apply(_transpose, (x,), {"perm": (a,) + tuple(i for i in builtins.range(nd) if i != a)})


def _gather_rule(op: Any, n: int, xs: list, bat: tuple, p: dict) -> Any:
    a, bd = p["axis"], p["batch_dims"]
    if bd == 0 and not bat[1]:
        return apply(op, xs, {**p, "axis": a + 1})
    if bd == 0 and not bat[0]:  # the batch axis of the indices lands at `axis`
        return _move_to_front(apply(op, xs, p), a)
    return apply(op, _vmap.lift_all(n, xs, bat), {**p, "axis": a + 1, "batch_dims": bd + 1})


def _gather_form(be: Any, p: Any, idx: Any, axis: int, batch_dims: int) -> Any:
    if not batch_dims:
        return _bk.take(be, p, idx, axis)
    xp = be.xp
    b, pre, n, post = (tuple(p.shape[:batch_dims]), tuple(p.shape[batch_dims:axis]), p.shape[axis],
                       tuple(p.shape[axis + 1:]))
    ii = tuple(idx.shape[batch_dims:])
    if not (math.prod(b) and math.prod(ii)):
        return NotImplemented
    blocks = xp.moveaxis(xp.reshape(p, (-1,) + pre + (n,) + post), 1 + len(pre), 1)  # nb, n, pre, post
    t = xp.take(xp.reshape(blocks, (-1,) + pre + post), _batch_rows(be, idx, batch_dims, n), axis=0)
    t = xp.reshape(t, (-1,) + ii + pre + post)
    k, q = len(ii), len(pre)
    t = xp.permute_dims(t, (0,) + tuple(builtins.range(1 + k, 1 + k + q)) + tuple(builtins.range(1, 1 + k))
                        + tuple(builtins.range(1 + k + q, t.ndim)))
    return xp.reshape(t, b + pre + ii + post)


_vmap.register(_gather, _gather_rule)
_bk.register(_gather, _gather_form)


def _check_indices(idx: np.ndarray, n: int, op: str) -> None:
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        bad = idx[(idx < 0) | (idx >= n)].reshape(-1)[0]
        pos = np.argwhere((idx < 0) | (idx >= n))[0].tolist()
        raise _err(op, f"indices{pos} = {bad} is not in [0, {n})")


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def gather(params: Any, indices: Any, validate_indices: Any = None, axis: Any = None,
           batch_dims: int = 0, name: Any = None) -> Tensor:
    """Pick slices of ``params`` along ``axis`` at ``indices``.

    The gradient with respect to ``params`` (for ``axis=0``) is an :class:`IndexedSlices`, as in
    TensorFlow; it densifies when added to a dense gradient or converted.
    """
    p = as_tensor(params)
    idx = as_tensor(indices)
    if idx._value.dtype.kind not in "iu":
        raise TypeError(f"gather: indices must be an integer tensor, got {idx.dtype.name}.")
    nd = p._value.ndim
    bd = int(batch_dims)
    if bd < 0:
        bd += idx._value.ndim
    a = bd if axis is None else norm_axis(axis, nd, "GatherV2")
    if a < bd:
        raise _err("GatherV2", f"batch_dims ({bd}) must be less than or equal to axis ({a})")
    if bd > idx._value.ndim or (bd and p._value.shape[:bd] != idx._value.shape[:bd]):
        raise _err("GatherV2", f"params.shape[:batch_dims] {list(p._value.shape[:bd])} must equal "
                               f"indices.shape[:batch_dims] {list(idx._value.shape[:bd])}")
    n = p._value.shape[a]
    check_values(functools.partial(_check_indices, n=n, op="GatherV2"), idx)
    return apply(_gather, (p, idx), {"axis": a, "batch_dims": bd})


_INDEX_KINDS = (np.int16, np.int32, np.int64)


# --------------------------------------------------------------------------- nd indexing
def _nd_key(idx: np.ndarray, lead: int) -> tuple:
    return (builtins.slice(None),) * lead + tuple(np.moveaxis(idx, -1, 0))


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
    ish = idx._value.shape
    if L + lead == 0 and len(ish) == 2 and ish[1] == 1:
        # whole rows picked by a [n, 1] index matrix: TensorFlow's gradient is IndexedSlices
        return IndexedSlices(g, reshape(idx, (-1,)), _wrap(np.asarray(p._value.shape, idx._value.dtype)))
    return apply(_scatter_nd, (idx, g), {"shape": g._value.shape[:L] + p._value.shape, "lead": L + lead})


def _scatter_nd_vjp(g: Tensor, ans: Tensor, idx: Tensor, upd: Tensor, shape: tuple, lead: int) -> Tensor:
    return apply(_gather_nd, (g, idx), {"lead": _lead(g, ans) + lead})


_gather_nd = defop("GatherNd", _gather_nd_fwd, vjp=(_gather_nd_vjp, None), jvp="linear")
_scatter_nd = defop("ScatterNd", _scatter_nd_fwd, vjp=(None, _scatter_nd_vjp), jvp="linear")
def _row_index(n: int, idx: Tensor) -> Tensor:
    """Batched nd-indices ``[n, ..., k]`` with each row's number put first: ``[n, ..., 1 + k]``."""
    iv = idx._value
    rows = np.broadcast_to(np.arange(n, dtype=iv.dtype).reshape((n,) + (1,) * (iv.ndim - 1)), iv.shape[:-1] + (1,))
    return apply(_concat, (_wrap(rows), idx), {"axis": iv.ndim - 1})


def _nd_rule(op: Any, n: int, xs: list, bat: tuple, p: dict) -> Any:
    """GatherNd (params, idx), ScatterNd (idx, updates), TensorScatterUpdate (tensor, idx,
    updates); ``lead``: leading axes that the indices do not index."""
    i = 0 if op is _scatter_nd else 1
    q = {**p, "shape": (n,) + tuple(p["shape"])} if "shape" in p else dict(p)
    xs = list(xs)
    if not bat[i]:  # the batch axis joins the axes that are not indexed
        q["lead"] = p["lead"] + 1
        return apply(op, [x if j == i or op is _gather_nd else (x if bat[j] else _vmap.lift(x, n))
                          for j, x in enumerate(xs)], q)
    if p["lead"]:
        raise _vmap.Unbatchable(f"op {op.name} with lead axes and indices that depend on the row")
    xs = _vmap.lift_all(n, xs, bat)
    xs[i] = _row_index(n, xs[i])
    return apply(op, xs, q)


_vmap.register(_gather_nd, _nd_rule)
_vmap.register(_scatter_nd, _nd_rule)


def _tsu_fwd(t: np.ndarray, idx: np.ndarray, upd: np.ndarray, lead: int) -> np.ndarray:
    out = np.array(t, copy=True)
    if idx.shape[-1] == 0:
        n = int(np.prod(idx.shape[:-1], dtype=np.int64))
        if n:
            u = upd.reshape(upd.shape[:lead] + (n,) + t.shape[lead:])
            out[...] = u[(builtins.slice(None),) * lead + (-1,)]
        return out
    out[_nd_key(idx, lead)] = upd  # duplicates: the last update wins
    return out


@constant_maker
def _tsu_vjp_tensor(g: Tensor, ans: Tensor, t: Tensor, idx: Tensor, upd: Tensor, lead: int) -> Tensor:
    # the updated positions: an update of False with True (a step of a tf.function trace)
    hit = apply(_tsu, (_wrap(np.zeros(t._value.shape, np.bool_)), idx,
                       _wrap(np.ones(upd._value.shape, np.bool_))), {"lead": lead})
    return where(hit, zeros_like(g), g)


def _tsu_vjp_updates(g: Tensor, ans: Tensor, t: Tensor, idx: Tensor, upd: Tensor, lead: int) -> Tensor:
    return apply(_gather_nd, (g, idx), {"lead": _lead(g, ans) + lead})


_tsu = defop("TensorScatterUpdate", _tsu_fwd, vjp=(_tsu_vjp_tensor, None, _tsu_vjp_updates),
             jvp="linear")
_vmap.register(_tsu, _nd_rule)


# ----- array-API forms (tapegrad._backend): an index row is a flat position in the indexed axes,
# taken along them flattened; writes go through ``[k updates, n positions]`` one-hots (O(k*n))
def _flat_nd(be: Any, idx: Any, shape: tuple) -> Any:
    """Row-major flat positions (int64) of ``idx``'s coordinate rows in ``shape[:idx.shape[-1]]``."""
    xp = be.xp
    k = idx.shape[-1]
    i64 = be.dtype(np.dtype(np.int64))
    strides = xp.asarray([math.prod(shape[j + 1:k]) for j in builtins.range(k)], dtype=i64)
    return xp.sum(xp.astype(idx, i64) * strides, axis=-1, dtype=i64)


def _nd_flat(be: Any, x: Any, lead: int, k: int) -> tuple:
    """``x`` with its ``k`` indexed axes after ``lead`` flattened into one, and their size."""
    s = tuple(x.shape)
    n = math.prod(s[lead:lead + k])
    return be.xp.reshape(x, s[:lead] + (n,) + s[lead + k:]), n


def _gather_nd_form(be: Any, p: Any, idx: Any, lead: int) -> Any:
    flat, _ = _nd_flat(be, p, lead, idx.shape[-1])
    return _bk.take(be, flat, _flat_nd(be, idx, tuple(p.shape)[lead:]), lead)


def _scatter_nd_form(be: Any, idx: Any, upd: Any, shape: tuple, lead: int) -> Any:
    xp = be.xp
    n = math.prod(shape[lead:lead + idx.shape[-1]])
    flag = be.np_dtype(upd.dtype) == np.bool_  # (add.at on bools: a logical or)
    u = xp.astype(upd, be.dtype(np.dtype(np.int64))) if flag else upd
    out = xp.reshape(_bk.scatter_add(be, u, _flat_nd(be, idx, shape[lead:]), n, lead), shape)
    return out > 0 if flag else out


def _written(be: Any, idx: Any, shape: tuple) -> tuple:
    """The flat positions of ``idx``'s rows in ``shape`` (a vector), their count, the size of the
    indexed axes, and for each position the last row written there (-1: none)."""
    xp = be.xp
    lin = xp.reshape(_flat_nd(be, idx, shape), (-1,))
    k, n = lin.shape[0], math.prod(shape[:idx.shape[-1]])
    rows = xp.reshape(xp.arange(k, dtype=lin.dtype), (k, 1))
    last = xp.max(xp.where(_bk.hits(be, lin, n), rows, xp.asarray(-1, dtype=lin.dtype)), axis=0) if k else None
    return lin, k, n, last


def _tsu_form(be: Any, t: Any, idx: Any, upd: Any, lead: int) -> Any:
    xp = be.xp
    s = tuple(t.shape)
    _, k, n, last = _written(be, idx, s[lead:])
    if not k:
        return t
    flat, _ = _nd_flat(be, t, lead, idx.shape[-1])
    tail = tuple(flat.shape[lead + 1:])
    u = xp.reshape(upd, s[:lead] + (k,) + tail)
    hit = last >= 0
    picked = xp.take(u, xp.where(hit, last, xp.zeros_like(last)), axis=lead)  # the last write wins
    hit = xp.reshape(hit, (1,) * lead + (n,) + (1,) * len(tail))
    return xp.reshape(xp.where(hit, picked, flat), s)


_bk.register(_gather_nd, _gather_nd_form)
_bk.register(_scatter_nd, _scatter_nd_form)
_bk.register(_tsu, _tsu_form)


def _scatter_extreme_form(be: Any, t: Any, idx: Any, upd: Any, ufunc: Any) -> Any:
    xp = be.xp
    s = tuple(t.shape)
    lin, k, n, _ = _written(be, idx, s)
    if not k:
        return t
    flat, _ = _nd_flat(be, t, 0, idx.shape[-1])
    tail = tuple(flat.shape[1:])
    hits = xp.reshape(_bk.hits(be, lin, n), (k, n) + (1,) * len(tail))
    high = ufunc is np.maximum
    # each position's extreme over its updates, and over ``t`` itself where no update falls
    m = (xp.max if high else xp.min)(xp.where(hits, xp.reshape(upd, (k, 1) + tail), flat), axis=0)
    return xp.reshape((xp.maximum if high else xp.minimum)(flat, m), s)


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


@constant_maker
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
    ish, nd = idx._value.shape, idx._value.ndim
    pshape = p._value.shape
    if b < 0 or (b and b >= min(len(pshape), nd)):
        raise ValueError(f"gather_nd: batch_dims must be in [0, min(rank(params), rank(indices)) - 1]"
                         f" = [0, {min(len(pshape), nd) - 1}], got {batch_dims}.")
    if pshape[:b] != ish[:b]:
        raise _err("GatherNd", f"params.shape[:batch_dims] = {list(pshape[:b])} must equal "
                               f"indices.shape[:batch_dims] = {list(ish[:b])}")
    check_values(functools.partial(_check_nd, shape=tuple(pshape[b:]), op="GatherNd"), idx)
    if b:
        # prepend each entry's batch coordinates: a batch_dims=0 gather on the same params
        grid = np.indices(ish[:b], dtype=idx._value.dtype)
        grid = np.moveaxis(grid, 0, -1).reshape(ish[:b] + (1,) * (nd - 1 - b) + (b,))
        grid = np.broadcast_to(grid, ish[:-1] + (b,))
        idx = concat([_wrap(np.ascontiguousarray(grid)), idx], -1)
    return apply(_gather_nd, (p, idx), {"lead": 0})


def _check_updates(ish: tuple, upd: Tensor, shape: tuple, op: str) -> None:
    k = ish[-1]
    want = ish[:-1] + tuple(shape[k:])
    if upd._value.shape != want:
        raise _err(op, f"updates must have shape indices.shape[:-1] + shape[indices.shape[-1]:] = "
                       f"{list(want)}, got {list(upd._value.shape)} (indices shape "
                       f"{list(ish)}, shape {list(shape)})")


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
    check_values(functools.partial(_check_nd, shape=tuple(s), op="ScatterNd", what="shape"), idx)
    _check_updates(idx._value.shape, upd, s, "ScatterNd")
    return apply(_scatter_nd, (idx, upd), {"shape": s, "lead": 0})


def _scatter_args(tensor: Any, indices: Any, updates: Any, op: str) -> tuple:
    t, upd = binary_operands(tensor, updates, op)
    idx = _nd_indices(indices, op)
    ts = t._value.shape
    check_values(functools.partial(_check_nd, shape=tuple(ts), op=op, what="shape"), idx)
    _check_updates(idx._value.shape, upd, ts, op)
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
    ms = m._value.shape
    if not ms:
        raise ValueError("boolean_mask: mask cannot be scalar; give a mask with at least one axis.")
    xs = x._value.shape
    a = 0 if axis is None else norm_axis(axis, max(len(xs), 1), "boolean_mask")
    if xs[a:a + len(ms)] != ms:
        raise ValueError(f"boolean_mask: the mask's shape {list(ms)} must equal the tensor's "
                         f"shape {list(xs)} on axes {a}..{a + len(ms) - 1} (got "
                         f"{list(xs[a:a + len(ms)])}).")
    flat_shape = xs[:a] + (int(m._value.size),) + xs[a + len(ms):]
    # Reshape is always recorded (even when the shape is unchanged) so the gradient is dense,
    # as in TensorFlow, rather than gather's IndexedSlices.
    flat = apply(_reshape, (x,), {"shape": flat_shape})
    sel = apply(_reshape, (where(apply(_reshape, (m,), {"shape": (-1,)})),), {"shape": (-1,)})
    return apply(_gather, (flat, sel), {"axis": a, "batch_dims": 0})


# --------------------------------------------------------------------------- embeddings
@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
@constant_maker
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
        iv = np.asarray(host_value(idx, "embedding_lookup: ids split among shards")).reshape(-1)
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


# --------------------------------------------------------------------------- more scatters, partitions
def tensor_scatter_nd_sub(tensor: Any, indices: Any, updates: Any, name: Any = None) -> Tensor:
    """``tensor`` minus ``updates`` subtracted at ``indices`` (duplicates add up).

    >>> import tapegrad as tf
    >>> tf.tensor_scatter_nd_sub(tf.ones([3]), [[0], [2]], [1.0, 2.0]).numpy()
    array([ 0.,  1., -1.], dtype=float32)
    """
    t, idx, upd = _scatter_args(tensor, indices, updates, "TensorScatterSub")
    return add(t, apply(_scatter_nd, (idx, -upd), {"shape": t._value.shape, "lead": 0}))


def _scatter_extreme_fwd(t: np.ndarray, idx: np.ndarray, upd: np.ndarray, ufunc: np.ufunc) -> np.ndarray:
    out = np.array(t, copy=True)
    if idx.shape[-1] == 0:
        return ufunc(out, ufunc.reduce(upd.reshape((-1,) + t.shape), axis=0)) if upd.size else out
    ufunc.at(out, _nd_key(idx, 0), upd)
    return out


def _ties(ans: Tensor, t: Tensor, idx: Tensor, upd: Tensor) -> tuple:
    """TensorFlow's split of a max/min scatter's gradient: ``(t wins, update wins, winners)``
    (ops on the values, so a tf.function trace replays them)."""
    dt = ans.dtype
    xi = cast(equal(stop_gradient(t), stop_gradient(ans)), dt)
    yi = cast(equal(stop_gradient(upd), apply(_gather_nd, (stop_gradient(ans), idx), {"lead": 0})), dt)
    return xi, yi, xi + apply(_scatter_nd, (idx, yi), {"shape": ans._value.shape, "lead": 0})


def _extreme_vjp_t(g: Tensor, ans: Tensor, t: Tensor, idx: Tensor, upd: Tensor, ufunc: Any) -> Tensor:
    xi, _, n = _ties(ans, t, idx, upd)
    return g * xi / n


def _extreme_vjp_u(g: Tensor, ans: Tensor, t: Tensor, idx: Tensor, upd: Tensor, ufunc: Any) -> Tensor:
    _, yi, n = _ties(ans, t, idx, upd)
    return apply(_gather_nd, (g / n, idx), {"lead": _lead(g, ans)}) * yi


def _extreme_jvp_u(tan: Tensor, ans: Tensor, t: Tensor, idx: Tensor, upd: Tensor, ufunc: Any) -> Tensor:
    _, yi, n = _ties(ans, t, idx, upd)
    return apply(_scatter_nd, (idx, tan * yi), {"shape": ans._value.shape, "lead": 0}) / n


_scatter_max = defop("TensorScatterMax", _scatter_extreme_fwd, vjp=(_extreme_vjp_t, None, _extreme_vjp_u),
                     jvp=(_extreme_vjp_t, None, _extreme_jvp_u))
_scatter_min = defop("TensorScatterMin", _scatter_extreme_fwd, vjp=(_extreme_vjp_t, None, _extreme_vjp_u),
                     jvp=(_extreme_vjp_t, None, _extreme_jvp_u))
_bk.register(_scatter_max, _scatter_extreme_form)
_bk.register(_scatter_min, _scatter_extreme_form)


def tensor_scatter_nd_max(tensor: Any, indices: Any, updates: Any, name: Any = None) -> Tensor:
    """``tensor`` with each entry at ``indices`` replaced by the maximum of it and its updates.

    As in TensorFlow, the gradient goes to the winners, split evenly between tied ones.

    >>> import tapegrad as tf
    >>> tf.tensor_scatter_nd_max(tf.zeros([3]), [[0], [0], [2]], [1.0, 3.0, -1.0]).numpy()
    array([3., 0., 0.], dtype=float32)
    """
    t, idx, upd = _scatter_args(tensor, indices, updates, "TensorScatterMax")
    return apply(_scatter_max, (t, idx, upd), {"ufunc": np.maximum})


def tensor_scatter_nd_min(tensor: Any, indices: Any, updates: Any, name: Any = None) -> Tensor:
    """``tensor`` with each entry at ``indices`` replaced by the minimum of it and its updates.

    >>> import tapegrad as tf
    >>> tf.tensor_scatter_nd_min(tf.zeros([3]), [[0], [2]], [1.0, -1.0]).numpy()
    array([ 0.,  0., -1.], dtype=float32)
    """
    t, idx, upd = _scatter_args(tensor, indices, updates, "TensorScatterMin")
    return apply(_scatter_min, (t, idx, upd), {"ufunc": np.minimum})


def _int_indices(x: Any, op: str, what: str) -> tuple:
    t = as_tensor(x)
    if t._value.dtype.kind not in "iu":
        raise _err(op, f"{what} must be an integer tensor, got {t.dtype.name}")
    return t, np.asarray(host_value(t, op))


@constant_maker  # (indices read through guarded reads)
def dynamic_partition(data: Any, partitions: Any, num_partitions: int, name: Any = None) -> list:
    """Split ``data`` into ``num_partitions`` tensors: output ``i`` holds the slices of ``data``
    whose entry in ``partitions`` (a prefix of ``data``'s shape) is ``i``, in row-major order.

    >>> import tapegrad as tf
    >>> [p.numpy() for p in tf.dynamic_partition(tf.constant([1, 2, 3, 4]), [1, 0, 1, 0], 2)]
    [array([2, 4], dtype=int32), array([1, 3], dtype=int32)]
    """
    x = as_tensor(data)
    _, pv = _int_indices(partitions, "DynamicPartition", "partitions")
    n = int(num_partitions)
    xs = x._value.shape
    if xs[:pv.ndim] != pv.shape:
        raise _err("DynamicPartition", f"data.shape must start with partitions.shape, got data.shape = "
                                       f"{list(xs)}, partitions.shape = {list(pv.shape)}")
    flat_p = pv.ravel()
    bad = np.flatnonzero((flat_p < 0) | (flat_p >= n))
    if bad.size:
        raise _err("DynamicPartition", f"partitions[{bad[0]}] = {flat_p[bad[0]]} is not in [0, {n})")
    flat = reshape(x, (-1,) + xs[pv.ndim:])
    from_ = [_wrap(np.flatnonzero(flat_p == i).astype(np.int32)) for i in range(n)]
    return [apply(_gather, (flat, i), {"axis": 0, "batch_dims": 0}) for i in from_]


@constant_maker  # (indices read through guarded reads)
def dynamic_stitch(indices: Any, data: Any, name: Any = None) -> Tensor:
    """Interleave the tensors of ``data`` into one: ``merged[indices[m][i]] = data[m][i]``, the
    last one written winning where indices repeat (the inverse of :func:`dynamic_partition`).

    >>> import tapegrad as tf
    >>> tf.dynamic_stitch([[0, 2], [1, 3]], [tf.constant([1.0, 3.0]), tf.constant([2.0, 4.0])]).numpy()
    array([1., 2., 3., 4.], dtype=float32)
    """
    if len(indices) != len(data) or not len(data):
        raise ValueError(f"dynamic_stitch: give as many index tensors as data tensors (at least one), "
                         f"got {len(indices)} and {len(data)}.")
    ivs = [_int_indices(i, "DynamicStitch", "indices")[1] for i in indices]
    ds = [as_tensor(d) for d in data]
    suffix = ds[0]._value.shape[ivs[0].ndim:]
    for iv, d in zip(ivs, ds):
        if d._value.shape != iv.shape + suffix:
            raise _err("DynamicStitch", f"data[m].shape must be indices[m].shape + {list(suffix)}, got "
                                        f"{list(d._value.shape)} for indices of shape {list(iv.shape)}")
    flat_i = np.concatenate([iv.ravel() for iv in ivs]).astype(np.int64)
    if flat_i.size and flat_i.min() < 0:
        raise _err("DynamicStitch", f"indices must be non-negative, got {flat_i.min()}")
    size = int(flat_i.max()) + 1 if flat_i.size else 0
    last = np.full(size, -1, np.int64)
    last[flat_i] = np.arange(flat_i.size)  # the last write wins
    hit = np.flatnonzero(last >= 0)
    flat = concat([reshape(d, (-1,) + suffix) for d in ds], 0)
    picked = apply(_gather, (flat, _wrap(last[hit])), {"axis": 0, "batch_dims": 0})
    return apply(_scatter_nd, (_wrap(hit[:, None]), picked), {"shape": (size,) + suffix, "lead": 0})


@constant_maker  # (indices read through guarded reads)
def unravel_index(indices: Any, dims: Any, name: Any = None) -> Tensor:
    """The coordinates of flat ``indices`` in an array of shape ``dims``: shape
    ``[len(dims)] + indices.shape``, in ``indices``'s integer dtype.

    >>> import tapegrad as tf
    >>> tf.unravel_index([5, 7], [3, 4]).numpy()
    array([[1, 1],
           [1, 3]], dtype=int32)
    """
    _, iv = _int_indices(indices, "UnravelIndex", "indices")
    _, dv = _int_indices(dims, "UnravelIndex", "dims")
    if dv.ndim != 1 or iv.ndim > 1:
        raise _err("UnravelIndex", f"dims must be a vector and indices a scalar or a vector, got shapes "
                                   f"{list(dv.shape)} and {list(iv.shape)}")
    total = int(np.prod(dv, dtype=np.int64))
    if iv.size and (iv.min() < 0 or iv.max() >= total):
        raise _err("UnravelIndex", f"index out of bounds for array of dims {dv.tolist()}: every index "
                                   f"must be in [0, {total})")
    out = np.stack(np.unravel_index(iv, tuple(int(d) for d in dv))) if dv.size else np.zeros((0,) + iv.shape)
    return _wrap(out.astype(iv.dtype))


@constant_maker  # (indices read through guarded reads)
def reverse_sequence(input: Any, seq_lengths: Any, seq_axis: Any = None, batch_axis: Any = None,  # noqa: A002
                     name: Any = None) -> Tensor:
    """Reverse the first ``seq_lengths[b]`` entries along ``seq_axis`` of each slice ``b`` along
    ``batch_axis`` (default 0); the rest stay in place.

    >>> import tapegrad as tf
    >>> tf.reverse_sequence(tf.reshape(tf.range(8), [2, 4]), [3, 1], seq_axis=1).numpy()
    array([[2, 1, 0, 3],
           [4, 5, 6, 7]], dtype=int32)
    """
    x = as_tensor(input)
    nd = x._value.ndim
    if seq_axis is None:
        raise ValueError("reverse_sequence: give seq_axis, the axis to reverse.")
    sa = norm_axis(seq_axis, nd, "reverse_sequence")
    ba = norm_axis(0 if batch_axis is None else batch_axis, nd, "reverse_sequence")
    _, lv = _int_indices(seq_lengths, "ReverseSequence", "seq_lengths")
    B, T = x._value.shape[ba], x._value.shape[sa]
    if sa == ba or lv.shape != (B,):
        raise _err("ReverseSequence", f"seq_lengths must be a vector of length input.shape[batch_axis] = "
                                      f"{B} and seq_axis must differ from batch_axis, got seq_lengths "
                                      f"shape {list(lv.shape)}, seq_axis {sa}, batch_axis {ba}")
    if lv.size and (lv.min() < 0 or lv.max() > T):
        raise _err("ReverseSequence", f"seq_lengths must be in [0, {T}], got {lv.tolist()}")
    t = np.arange(T)
    idx = np.where(t < lv[:, None], lv[:, None] - 1 - t, t).astype(np.int32)
    perm = [ba, sa] + [a for a in range(nd) if a not in (ba, sa)]
    inv = np.argsort(perm).tolist()
    moved = transpose(x, perm)
    out = apply(_gather, (moved, _wrap(idx)), {"axis": 1, "batch_dims": 1})
    return transpose(out, inv)


def strided_slice(input_: Any, begin: Any, end: Any, strides: Any = None, begin_mask: int = 0, end_mask: int = 0,
                  ellipsis_mask: int = 0, new_axis_mask: int = 0, shrink_axis_mask: int = 0, var: Any = None,
                  name: Any = None) -> Tensor:
    """``input_[begin:end:strides]`` per axis, with TensorFlow's bit masks: bit ``i`` of
    ``begin_mask``/``end_mask`` ignores ``begin[i]``/``end[i]``; of ``ellipsis_mask``, entry ``i``
    is ``...``; of ``new_axis_mask``, a new length-1 axis; of ``shrink_axis_mask``, the single
    index ``begin[i]``. The same as indexing with ``x[...]``, and as differentiable.

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.range(12), [3, 4])
    >>> tf.strided_slice(x, [0, 1], [2, 4], [1, 2]).numpy()
    array([[1, 3],
           [5, 7]], dtype=int32)
    """
    b = [int(v) for v in np.asarray(host_value(as_tensor(begin), "strided_slice")).reshape(-1)]
    e = [int(v) for v in np.asarray(host_value(as_tensor(end), "strided_slice")).reshape(-1)]
    st = [1] * len(b) if strides is None else [
        int(v) for v in np.asarray(host_value(as_tensor(strides), "strided_slice")).reshape(-1)]
    if not len(b) == len(e) == len(st):
        raise ValueError(f"strided_slice: begin, end and strides must have the same length, got "
                         f"{len(b)}, {len(e)} and {len(st)}.")
    key: list = []
    for i in range(len(b)):
        bit = 1 << i
        if ellipsis_mask & bit:
            key.append(Ellipsis)
        elif new_axis_mask & bit:
            key.append(None)
        elif shrink_axis_mask & bit:
            key.append(b[i])
        else:
            key.append(builtins.slice(None if begin_mask & bit else b[i], None if end_mask & bit else e[i], st[i]))
    return getitem(as_tensor(input_), tuple(key))
