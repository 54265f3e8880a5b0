"""Every registered op passes the generic gradient checker; no op is missing from the table."""
from __future__ import annotations

import zlib

import numpy as np
import pytest

import tapegrad as tf
from tapegrad._dispatch import REGISTRY

from optable import OpCase, all_cases

CASES = all_cases()


def _params() -> list:
    out = []
    for c in CASES:
        for i, shp in enumerate(c.shapes):
            out.append(pytest.param(c, shp, id=f"{c.name}-{i}"))
    return out


def _args(case: OpCase, shapes: tuple, rng: np.random.Generator) -> list:
    if case.make is not None:
        return [np.asarray(a) for a in case.make(rng, shapes)]
    doms = case.domain if isinstance(case.domain, list) else [case.domain] * len(shapes)
    out = []
    for s, (lo, hi) in zip(shapes, doms):
        a = rng.uniform(lo, hi, size=s)
        if case.complex:
            a = a + 1j * rng.uniform(lo, hi, size=s)
        out.append(np.asarray(a))
    return out


@pytest.mark.parametrize("case,shapes", _params())
def test_op_derivatives(case: OpCase, shapes: tuple) -> None:
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    args = _args(case, shapes, rng)
    ts = [tf.constant(a) for a in args]
    if case.nondiff:
        with tf.GradientTape() as tape:
            tape.watch(ts)
            y = case.fn(*ts)
        flat = y if isinstance(y, (list, tuple)) else [y]
        assert all(g is None for g in tape.gradient(flat, ts))
        return
    tf.test.check_grads(case.fn, ts, order=case.order, modes=case.modes, rtol=case.rtol,
                        atol=case.atol, eps=case.eps)


def test_every_registered_op_is_in_the_table() -> None:
    covered = {name for c in CASES for name in c.covers}
    missing = sorted(n for n in REGISTRY if n not in covered)
    assert not missing, f"ops with no entry in tests/optable: {missing}"


def test_table_names_only_registered_ops() -> None:
    unknown = sorted({n for c in CASES for n in c.covers} - set(REGISTRY))
    assert not unknown, f"tests/optable names ops that are not registered: {unknown}"
