"""TF's no-NaN-on-zero-cotangent convention, audited over every real elementwise op.

The reference is tests/fixtures/zero_cotangent.json, recorded under TensorFlow 2.21 by
tools/audit_zero_cotangent.py (first and second derivatives and JVPs with zero cotangents or
tangents at 0, ±1, ±2, ±0.5, ±inf). Where TF gives 0 tapegrad must give 0; where TF gives NaN,
NaN. The few arrays that differ on purpose are listed in KNOWN with the reason.
"""
import importlib.util
import json
import os

import numpy as np
import pytest

import tapegrad as tf
from tapegrad._dispatch import REGISTRY

_HERE = os.path.dirname(__file__)
_spec = importlib.util.spec_from_file_location(
    "audit_zero_cotangent", os.path.join(_HERE, "..", "tools", "audit_zero_cotangent.py"))
audit = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(audit)

_BESSEL0 = "TF's derivative at x = 0 is wrong (I1'(0) = 0.5, TF 1.0; I0''(0) = 0.5, TF 1.0) and its " \
           "second derivative there NaN; tapegrad's is exact (docs/differences.md)"
KNOWN = {
    ("BesselI0", "h11", 0): _BESSEL0, ("BesselI1", "g1", 0): _BESSEL0,
    ("BesselI1", "h01", 0): _BESSEL0, ("BesselI1", "h10", 0): _BESSEL0,
    ("BesselI1", "h00", 0): _BESSEL0, ("BesselI1", "h11", 0): _BESSEL0,
    ("BesselI1", "hw", 0): _BESSEL0, ("BesselI1e", "h01", 0): _BESSEL0,
    ("BesselI1e", "h10", 0): _BESSEL0, ("BesselI1e", "h00", 0): _BESSEL0,
    ("BesselI1e", "h11", 0): _BESSEL0, ("BesselI1e", "hw", 0): _BESSEL0,
    # TF patches J1'(0) and spence'(1) with where(), which makes every second derivative there
    # NaN; tapegrad's are exact (J1''(0) = 0, spence''(1) = 1/2: docs/differences.md)
    **{("BesselJ1", q, 0): "TF's second derivatives at x = 0 are NaN" for q in ("h01", "h10", "h00", "h11", "hw")},
    **{("Spence", q, 0): "TF's second derivatives at x = 1 are NaN" for q in ("h01", "h10", "h00", "h11", "hw")},
    # floormod(x, ±inf): NumPy's floor_divide(1, -inf) is -1, TF's -0 (a forward value)
    ("FloorMod", "g1", 1): "floor_divide by an infinite divisor",
}


@pytest.fixture(scope="module")
def reference():
    with open(os.path.join(_HERE, "fixtures", "zero_cotangent.json")) as f:
        return json.load(f)


def test_every_differentiable_registry_op_is_audited_or_excluded_with_a_reason():
    listed = set(audit.UNARY) | set(audit.BINARY) | {"Polygamma"}
    excluded = {n for names in audit.NOT_AUDITED.values() for n in names}
    assert not listed & excluded
    diff_ops = {n for n, op in REGISTRY.items() if not op.nondiff}
    assert diff_ops - listed - excluded == set(), "classify new ops in tools/audit_zero_cotangent.py"


def test_zero_cotangents_match_tf_at_singular_points(reference):
    got = audit.run(tf)
    diffs = {(op, q, i) for op, q, i, _, _ in audit.differences(reference, got)}
    assert diffs - set(KNOWN) == set(), "new differences from TF (run tools/audit_zero_cotangent.py)"
    assert set(KNOWN) - diffs == set(), "a known difference is gone: remove it from KNOWN"


def test_reciprocal_and_rsqrt_under_where_give_zero_not_nan():
    """The issue's example: tf.where(x > 0, tf.math.reciprocal(x), 0) at x = [0, 2] had
    gradient [nan, -0.25] (TF [0, -0.25]); Jacobian entries that should be 0 were NaN."""
    x = tf.constant([0.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.where(x > 0, tf.math.reciprocal(x), 0.0)
        z = tf.where(x > 0, tf.math.rsqrt(x), 0.0)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [0.0, -0.25])
    np.testing.assert_allclose(tape.gradient(z, x).numpy(), [0.0, -0.5 * 2 ** -1.5], rtol=1e-6)
    np.testing.assert_array_equal(tape.jacobian(y, x).numpy(), [[0.0, 0.0], [0.0, -0.25]])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([0.0, 1.0])) as acc:
        y = tf.math.reciprocal(x)
    np.testing.assert_array_equal(acc.jvp(y).numpy(), [0.0, -0.25])


@pytest.mark.parametrize("fn, x", [(tf.math.log, 0.0), (tf.math.log1p, -1.0), (tf.math.acos, 1.0),
                                   (tf.math.asin, -1.0), (tf.math.atanh, 1.0), (tf.math.acos, 2.0)])
def test_second_derivatives_at_singular_points_are_zero_where_masked(fn, x):
    x = tf.constant([x, 0.5], tf.float64)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.where(tf.constant([False, True]), fn(x), tf.zeros_like(x))
        g = t1.gradient(y, x)
    h = t2.gradient(g, x).numpy()
    assert h[0] == 0.0 and np.isfinite(h[1])


def test_pow_second_derivative_at_nonpositive_base_is_nan_free_as_in_tf():
    x, p = tf.constant([0.0, -1.0, 2.0], tf.float64), tf.constant(2.0, tf.float64)
    with tf.GradientTape() as t2:
        t2.watch([x, p])
        with tf.GradientTape() as t1:
            t1.watch([x, p])
            y = x ** p
        gp = t1.gradient(y, p)
    np.testing.assert_allclose(t2.gradient(gp, x).numpy(), [0.0, 0.0, 2 * 2 * np.log(2) + 2])
