"""The hot path records as the slow path does, and the walk's VJP dispatch agrees with ``vjp``.

``unary`` and ``binary`` inline ``Tape.record`` when one plain tape is the only recorder (its
``solo`` flag), and the backward walk inlines ``_dispatch.vjp``. Every case of the op table
(tests/optable) runs under a lone tape (the inlined decision) and under ``[tape, Recorder()]``
(a do-nothing recorder after the tape: every op goes through ``Tape.record``); the two tapes
must hold the same entries, and the walks (the second with a recorder active, so its products
are recorded ops rather than NumPy's) and a plain reference walk built on ``_dispatch.vjp``
must give the same gradients.

Tolerances: the three computations do the same float64 (or complex128) operations; only sums
of several contributions may be associated differently, so rtol 1e-10 is far above their
rounding and far below any real disagreement.
"""
from __future__ import annotations

import zlib

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import _recorders, _seam, _tape
from tapegrad._dispatch import vjp, zeros_like

from optable import all_cases
from test_op_gradients import _args

CASES = [pytest.param(c, shp, id=f"{c.name}-{i}") for c in all_cases() for i, shp in enumerate(c.shapes)]


def _floating(y: object) -> list:
    return [t for t in tf.nest.flatten(y) if isinstance(t, tf.Tensor) and (t.dtype.is_floating or t.dtype.is_complex)]


def _record(case, args: list, slow: bool) -> tuple:
    """The tape's entries (labelled by position, not by id), the watched tensors, the float
    outputs, and the tape, after running the case under a lone tape or under [tape, Recorder()]."""
    ts = [tf.constant(a) for a in args]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(ts)
        extra = _recorders.Recorder()
        if slow:
            _recorders.push(extra)
        try:
            assert _tape.recorder(tape).solo is not slow  # the path under test is the one taken
            y = case.fn(*ts)
        finally:
            _recorders.pop(extra)
    entries = _tape.recorder(tape).entries
    label = {t._id: f"s{i}" for i, t in enumerate(ts)}
    rows = []
    for k, (op, xs, p, ans, needs) in enumerate(entries):
        rows.append((op.name, tuple(label.get(x._id, "c") for x in xs), tuple(needs), sorted(p)))
        for j, o in enumerate(ans if op.nout != 1 else (ans,)):
            label[o._id] = f"e{k}.{j}"
    return rows, ts, _floating(y), tape


def _reference_walk(entries: list, targets: list, ts: list) -> list:
    """The sources' cotangents by the textbook walk: ``vjp`` per entry, unbroadcast, sum."""
    ct: dict = {}

    def add(key: int, g: tf.Tensor) -> None:
        ct[key] = g if key not in ct else ct[key] + g

    for t in targets:
        add(t._id, tf.ones_like(t))
    for op, xs, p, ans, needs in reversed(entries):
        outs = ans if op.nout != 1 else (ans,)
        gs = [ct.pop(o._id, None) for o in outs]
        if all(g is None for g in gs):
            continue
        gs = [zeros_like(o) if g is None else tf.convert_to_tensor(g) for g, o in zip(gs, outs)]
        for i, gi in zip(needs, vjp(op, gs[0] if op.nout == 1 else tuple(gs), ans, needs, xs, p)):
            if gi is None:
                continue
            gi = tf.convert_to_tensor(gi)
            if op.bcast and gi.shape != xs[i].shape:
                gi = _seam.unbroadcast(gi, xs[i]._value.shape)
            add(xs[i]._id, gi)
    return [ct.get(t._id) for t in ts]


def _close(a: list, b: list, what: str) -> None:
    assert len(a) == len(b)
    for i, (x, y) in enumerate(zip(a, b)):
        assert (x is None) == (y is None), f"{what}: source {i} is None in one walk only"
        if x is not None:
            x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
            assert x.dtype == y.dtype and x.shape == y.shape, (what, i, x.dtype, y.dtype, x.shape, y.shape)
            np.testing.assert_allclose(x.numpy(), y.numpy(), rtol=1e-10, atol=1e-12, err_msg=f"{what}: source {i}")


@pytest.mark.parametrize("case,shapes", CASES)
def test_the_fast_and_the_slow_path_record_and_differentiate_alike(case, shapes):
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    args = _args(case, shapes, rng)
    fast, ts_f, ys_f, tape_f = _record(case, args, slow=False)
    slow, ts_s, ys_s, tape_s = _record(case, args, slow=True)
    assert fast == slow
    if case.nondiff or not ys_f:
        return
    g_fast = tape_f.gradient(ys_f, ts_f)
    extra = _recorders.Recorder()
    _recorders.push(extra)  # the walk with a recorder active: its products are recorded ops
    try:
        g_slow = tape_s.gradient(ys_s, ts_s)
    finally:
        _recorders.pop(extra)
    _close(g_fast, g_slow, "the walk under a recorder")
    _close(g_fast, _reference_walk(_tape.recorder(tape_f).entries, ys_f, ts_f), "the reference walk on vjp")


def test_swapping_the_recorder_stack_restores_it_and_the_tapes_solo_flag():
    with tf.GradientTape() as tape:
        rec = _tape.recorder(tape)
        outer = _recorders.tls.stack
        assert rec.solo
        with _recorders.swapped([]) as saved:
            assert saved is outer and _recorders.tls.stack == [] and not rec.solo
            with _recorders.swapped(saved):  # (vmap's outer run: the caller's recorders again)
                assert rec.solo
            assert not rec.solo
        assert _recorders.tls.stack is outer and rec.solo
        with pytest.raises(ZeroDivisionError), _recorders.swapped([]):
            1 / 0
        assert _recorders.tls.stack is outer and rec.solo
