"""``tf.math.special`` against TensorFlow's recorded values, first and second derivatives
(tests/fixtures/tf_math_special.json, written by tools/record_tf_special.py)."""
import json
import os

import numpy as np
import pytest

import tapegrad as tf
from math_special_cases import NAMES, derivatives

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "tf_math_special.json")
with open(FIXTURE, encoding="utf-8") as _f:
    RECORDED = json.load(_f)["functions"]

# Where tapegrad differs from TensorFlow on purpose (docs/differences.md): (function, what, x).
# bessel_i1's derivative at 0 is 0.5 (TF hard-codes 1, so its bessel_i0'' is 1 too); TF's
# where-trick makes some second derivatives at 0 or 1 NaN, tapegrad's are the true values; Ei(x)
# for x < 0 is real (TF: NaN); TF's float32 bessel_y1(0) is NaN, its float64 one -inf (tapegrad:
# -inf in both).
DIFFERENT = {("bessel_i0", "grad2", 0.0), ("bessel_i1", "grad", 0.0), ("bessel_i1", "grad2", 0.0),
             ("bessel_i1e", "grad2", 0.0), ("bessel_j1", "grad2", 0.0), ("spence", "grad2", 1.0),
             ("expint", "y", -3.0), ("expint", "y", -1.0), ("expint", "y", -0.5),
             ("expint", "y32", -3.0), ("expint", "y32", -1.0), ("expint", "y32", -0.5),
             ("bessel_y1", "y32", 0.0)}


def _floats(values):
    return np.array([float(v) for v in values])


def _derivatives(fn, x):
    return derivatives(tf, fn, x)


def test_the_namespace_has_tensorflows_names():
    assert tf.math.special.__all__ == sorted(RECORDED) == sorted(NAMES)
    assert tf.math.special.bessel_i0 is tf.math.bessel_i0


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_values_and_derivatives_match_tensorflow(name):
    rec = RECORDED[name]
    fn = getattr(tf.math.special, name)
    xs = rec["x"]
    y, g, h = _derivatives(fn, tf.constant(xs, tf.float64))
    y32 = fn(tf.constant(xs, tf.float32))
    assert y32.dtype == tf.float32
    # float64: SciPy's and TF's (Cephes') kernels agree to a few ulps; float32: TF computes in
    # float32, tapegrad in float64 then rounds, so they differ by a few float32 ulps
    for what, got, rtol in (("y", y, 1e-9), ("grad", g, 1e-9), ("grad2", h, 1e-9), ("y32", y32, 1e-5)):
        want = _floats(rec[what])
        got = got.numpy().astype(np.float64)
        for x, a, b in zip(xs, got, want):
            if (name, what, x) in DIFFERENT:
                assert not np.isclose(a, b) or np.isnan(b), (name, what, x)  # still a difference
                continue
            assert np.isclose(a, b, rtol=rtol, atol=1e-12) or (np.isnan(a) and np.isnan(b)), (name, what, x, a, b)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_integer_input_is_rejected_as_tensorflow_does(name):
    with pytest.raises(getattr(tf.errors, RECORDED[name]["int_error"])):
        getattr(tf.math.special, name)(tf.constant([1, 2]))


def test_true_values_where_tensorflow_differs():
    from scipy import special
    x = tf.constant([-2.0, -0.5], tf.float64)
    np.testing.assert_allclose(tf.math.special.expint(x).numpy(), -special.exp1(2.0 * np.array([1.0, 0.25])))
    _, g, h = _derivatives(tf.math.special.spence, tf.constant(1.0, tf.float64))
    assert float(g) == -1.0 and float(h) == pytest.approx(0.5)   # log(x)/(1-x) = -1 + (x-1)/2 + ...
