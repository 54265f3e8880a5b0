"""The backward walk: cotangents from targets to sources over a tape's entries.

Entries are in execution order, so walking them in reverse is a topological
order of the recorded graph; no recursion, no sort. Cotangents live in a dict keyed by tensor id.
Each entry pops its outputs' cotangents (skipping the entry when there are none), calls the op's
VJP for the inputs in ``needs``, sums broadcast cotangents back to the input's shape, and adds
the results into the dict. Leaves keep their cotangent; an intermediate source has its cotangent
copied out when its producer is reached. On a one-shot tape each entry is dropped as soon as it
has been used, so saved values are freed during the walk.

Accumulation. The first contribution to a tensor is stored as is; the second allocates a sum the
walk owns; later ones add into it in place (when no recorder needs to see the addition). Gradients
from ``gather`` stay ``IndexedSlices`` and concatenate with each other, as in TensorFlow; a dense
contribution densifies them.
"""
from __future__ import annotations

import enum
from typing import Any

import numpy as np

from . import _recorders as _rec, _seam
from ._tensor import IndexedSlices, Tensor, next_id, wrap
from ._convert import convert_to_tensor
from ._dispatch import _FLOATING, times_deriv, vjp, zeros_like
from ._recorders import NEEDS0_SHAPED
from .errors import InternalError

class UnconnectedGradients(enum.Enum):
    """What ``gradient`` returns for a source the target does not depend on.

    ``NONE`` (the default) gives ``None``; ``ZERO`` gives zeros of the source's shape and dtype.
    ``RAISE`` (a tapegrad extension) raises :class:`tapegrad.errors.UnconnectedGradientError`,
    naming for each unconnected source why it is unconnected (see :mod:`tapegrad.diagnosis`).
    The strings ``"none"``, ``"zero"`` and ``"raise"`` are accepted too.
    """

    NONE = "none"
    ZERO = "zero"
    RAISE = "raise"


def _parse_unconnected(u: Any) -> UnconnectedGradients:
    try:
        return UnconnectedGradients(u)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {u!r}. Use "
                         "tf.UnconnectedGradients.NONE, tf.UnconnectedGradients.ZERO, 'none', "
                         "'zero' or 'raise'.") from None


def accumulate(ct: dict, owned: set, key: int, g: Any) -> None:
    prev = ct.get(key)
    if prev is None:
        ct[key] = g
        return
    if type(g) is IndexedSlices or type(prev) is IndexedSlices:
        ct[key] = _add_sparse(prev, g)
        owned.discard(key)
        return
    if not (_rec.active and _rec.tls.stack) and type(prev) is Tensor and type(g) is Tensor:
        pv, gv = prev._value, g._value
        if key in owned:
            np.add(pv, gv, out=pv)
            return
        s = np.add(pv, gv)
        if type(s) is np.ndarray and s.shape == pv.shape:
            owned.add(key)
        ct[key] = wrap(s)
        return
    ct[key] = prev + g


def _add_sparse(a: Any, b: Any) -> Any:
    if type(a) is IndexedSlices and type(b) is IndexedSlices:
        concat = _seam.concat
        return IndexedSlices(concat([a.values, b.values], 0), concat([a.indices, b.indices], 0),
                             a.dense_shape)
    if type(a) is IndexedSlices:
        a = a._dense()
    if type(b) is IndexedSlices:
        b = b._dense()
    return a + b


def backward(entries: list, ct: dict, owned: set, src_ids: set, free: bool,
             batch: int | None, observe: Any = None) -> dict:
    """Walk ``entries`` backwards from the cotangents in ``ct``; returns the cotangents of the
    intermediate tensors in ``src_ids`` (leaves keep theirs in ``ct``). ``batch``: cotangents carry
    a leading axis of that many rows (a Jacobian walk). ``observe(k, i, cotangent)``: explain
    mode's record of cotangent norms (``i = -1``: the output's)."""
    unbroadcast = _seam.unbroadcast
    found: dict[int, Any] = {}
    pop = ct.pop
    plain = batch is None
    # nobody records the walk: an elementwise op's cotangent is NumPy's product g * ∂y/∂x_i
    raw = not (_rec.active and _rec.tls.stack)
    for k in range(len(entries) - 1, -1, -1):
        op, xs, p, ans, needs = entries[k]
        if free:
            entries[k] = None
        if op.nout == 1:
            aid = ans._id
            g = pop(aid, None)
            if g is None:
                continue
            if aid in src_ids:
                found[aid] = g
            if owned:
                owned.discard(aid)
            if type(g) is IndexedSlices and not (op.slices and plain):
                g = g._dense()
        else:
            g = _outputs_cotangent(ans, pop, src_ids, found, owned, batch)
            if g is None:
                continue
        if observe is not None:
            observe(k, -1, g)
        ds = op.derivs
        rules = op.vjps
        grads = None
        if not (plain or op.batch_ok):
            grads = dict(zip(needs, _rowwise(op, g, ans, needs, xs, p, batch)))
        elif ds is None and rules is None:
            grads = dict(zip(needs, op.joint(g, ans, needs, *xs, **p)))
        bc = op.bcast and needs is not NEEDS0_SHAPED
        for i in needs:
            # the op's VJP rule for input i (vjp's, inline)
            if grads is not None:
                gi = grads[i]
                if gi is None:
                    continue
            elif ds is not None:  # elementwise: g * conj(∂y/∂x_i)
                if p:
                    d = ds[i](ans, *xs, **p)
                elif len(xs) == 1:
                    d = ds[0](ans, xs[0])
                else:
                    d = ds[i](ans, *xs)
                if raw and type(d) is Tensor and type(g) is Tensor and (dt := d._value.dtype) is g._value.dtype and dt in _FLOATING:
                    gi = Tensor()  # nobody records the walk: NumPy's product
                    gi._value = g._value * d._value
                    gi._id = next_id()
                else:
                    gi = times_deriv(g, d)
            else:
                gi = rules[i](g, ans, *xs, **p) if p else rules[i](g, ans, *xs)
                if gi is None:
                    continue
            x = xs[i]
            tg = type(gi)
            if tg is not Tensor and tg is not IndexedSlices:
                gi = convert_to_tensor(gi)
                tg = Tensor
            if plain:
                if bc and tg is Tensor and gi._value.shape != x._value.shape:
                    gi = unbroadcast(gi, x._value.shape, 0)
            elif tg is Tensor:
                gi = _batched(op, gi, x, batch, bc)
            if observe is not None:
                observe(k, i, gi)
            xid = x._id
            if xid in ct:
                accumulate(ct, owned, xid, gi)
            else:
                ct[xid] = gi
    return found


def _outputs_cotangent(ans: tuple, pop: Any, src_ids: set, found: dict, owned: set,
                       batch: int | None) -> tuple | None:
    """The cotangents of a multi-output op's outputs (zeros for those without one), or None."""
    gs = [pop(o._id, None) for o in ans]
    if gs.count(None) == len(gs):
        return None
    for i, o in enumerate(ans):
        if o._id in src_ids and gs[i] is not None:
            found[o._id] = gs[i]
        owned.discard(o._id)
        if gs[i] is None:
            gs[i] = zeros_like(o, () if batch is None else (batch,))
        elif type(gs[i]) is IndexedSlices:
            gs[i] = gs[i]._dense()
    return tuple(gs)


def _batched(op: Any, gi: Tensor, x: Tensor, batch: int, bc: bool) -> Tensor:
    """A Jacobian walk's cotangent for ``x``: summed back to ``(batch,) + x.shape`` if the op
    broadcasts; an error if the rule dropped the batch axis."""
    want = (batch,) + x._value.shape
    if bc and gi._value.shape != want:
        gi = _seam.unbroadcast(gi, want, 1)
    if gi._value.shape != want:
        raise InternalError(
            f"In a Jacobian walk the VJP rule of {op.name} returned a cotangent of shape "
            f"{list(gi._value.shape)} for an input of shape {list(x._value.shape)} (expected "
            f"{list(want)}): the rule drops the leading batch axis. Declare the op with "
            "batch_ok=False or keep the axis in the rule.")
    return gi


def _rowwise(op: Any, g: Any, ans: Any, needs: list, xs: Any, p: dict, batch: int) -> list:
    """VJP of an op whose rule cannot take a batch axis: one call per row, then stack."""
    stack, unbroadcast = _seam.stack, _seam.unbroadcast
    rows: list[list] = []
    for r in range(batch):
        gr = tuple(x[r] for x in g) if isinstance(g, tuple) else g[r]
        res = vjp(op, gr, ans, needs, xs, p)
        fixed = []
        for i, gi in zip(needs, res):
            if gi is not None and op.bcast and gi._value.shape != xs[i]._value.shape:
                gi = unbroadcast(gi, xs[i]._value.shape)
            if type(gi) is IndexedSlices:
                gi = gi._dense()
            fixed.append(gi)
        rows.append(fixed)
    out = []
    for j, i in enumerate(needs):
        col = [row[j] for row in rows]
        if all(c is None for c in col):
            out.append(None)
            continue
        col = [c if c is not None else zeros_like(xs[i]) for c in col]
        out.append(stack(col))
    return out
