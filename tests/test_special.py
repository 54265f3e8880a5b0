"""Special functions (tapegrad/ops/special.py): values against NumPy/SciPy, TensorFlow's
conventions at special points, dtypes, errors, and batched Jacobians (rules that keep leading axes)."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import special

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError
from op_helpers import grads


# special points produce inf/NaN on purpose (tapegrad silences these warnings; pytest re-enables them)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def first_second(f, x):
    """First and second derivative of an elementwise ``f`` at ``x`` (nested tapes)."""
    x = tf.constant(x)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = f(x)
        g = t1.gradient(y, x)
    return g.numpy(), t2.gradient(g, x).numpy()


def jvp(f, x, t):
    x = tf.constant(x)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(t)) as acc:
        y = f(x)
    return acc.jvp(y)


X = np.array([-1.7, -0.3, 0.0, 0.4, 2.5])


U = np.array([-0.8, -0.2, 0.0, 0.5, 0.9])


P = np.array([0.3, 1.0, 1.5, 4.0])


# --------------------------------------------------------------------------- values
@pytest.mark.parametrize("fn,ref,x", [
    (tf.math.sinh, np.sinh, X), (tf.math.cosh, np.cosh, X), (tf.math.asin, np.arcsin, U),
    (tf.math.acos, np.arccos, U), (tf.math.atan, np.arctan, X), (tf.math.asinh, np.arcsinh, X),
    (tf.math.acosh, np.arccosh, P + 1), (tf.math.atanh, np.arctanh, U),
    (tf.math.erf, special.erf, X), (tf.math.erfc, special.erfc, X), (tf.math.erfinv, special.erfinv, U),
    (tf.math.lgamma, special.gammaln, P), (tf.math.digamma, special.psi, P),
    (tf.math.softplus, lambda v: np.logaddexp(0, v), X),
    (tf.math.log_sigmoid, lambda v: -np.logaddexp(0, -v), X),
    (tf.floor, np.floor, X), (tf.math.ceil, np.ceil, X), (tf.round, np.round, X), (tf.math.rint, np.rint, X),
    (tf.math.ndtri, special.ndtri, (U + 1) / 2), (tf.math.erfcinv, special.erfcinv, U + 1),
    (tf.math.bessel_i0, special.i0, X), (tf.math.bessel_i0e, special.i0e, X),
    (tf.math.bessel_i1, special.i1, X), (tf.math.bessel_i1e, special.i1e, X),
])
def test_unary_values_match_numpy_scipy(fn, ref, x):
    for dt in (np.float32, np.float64):
        out = fn(tf.constant(x.astype(dt)))
        assert out.dtype == tf.as_dtype(dt)
        np.testing.assert_allclose(out.numpy(), ref(x.astype(np.float64)), rtol=1e-6 if dt == np.float64 else 2e-6,
                                   atol=1e-6)


@pytest.mark.parametrize("fn,ref", [
    (tf.math.atan2, np.arctan2), (tf.math.xlogy, lambda a, b: a * np.log(b)),
    (tf.math.xlog1py, lambda a, b: a * np.log1p(b)), (tf.math.xdivy, lambda a, b: a / b),
    (tf.math.divide_no_nan, lambda a, b: a / b), (tf.math.squared_difference, lambda a, b: (a - b) ** 2),
])
def test_binary_values_match_numpy_with_broadcasting(fn, ref):
    a = np.array([[0.5], [-1.5]])
    b = np.array([0.25, 1.0, 3.0])
    np.testing.assert_allclose(fn(tf.constant(a), tf.constant(b)).numpy(), ref(a, b), rtol=1e-12)


def test_polygamma_values():
    a = tf.constant(np.array([0.0, 1.0, 2.0, 3.0, 0.5, -1.0]))
    x = tf.constant(np.array([1.5, 1.5, 2.5, 0.7, 1.5, 1.5]))
    out = tf.math.polygamma(a, x).numpy()
    np.testing.assert_allclose(out[:4], special.polygamma([0, 1, 2, 3], [1.5, 1.5, 2.5, 0.7]), rtol=1e-12)
    assert np.isnan(out[4:]).all()  # non-integer and negative orders


def test_zeta_lbeta_reciprocal_no_nan():
    x, q = np.array([2.0, 3.0, 0.5]), np.array([1.5, 2.0, 1.0])
    np.testing.assert_allclose(tf.math.zeta(tf.constant(x), tf.constant(q)).numpy(), special.zeta(x, q))
    gx, gq = grads(tf.math.zeta, x[:2], q[:2])
    assert gx is None
    np.testing.assert_allclose(gq, -x[:2] * special.zeta(x[:2] + 1, q[:2]))
    a = np.array([[1.0, 2.0], [3.0, 4.5]])
    np.testing.assert_allclose(tf.math.lbeta(tf.constant(a)).numpy(), np.log(special.beta(a[:, 0], a[:, 1])))
    np.testing.assert_array_equal(tf.math.lbeta(tf.zeros([2, 0])).numpy(), [-np.inf, -np.inf])
    with pytest.raises(InvalidArgumentError, match="scalar"):
        tf.math.lbeta(tf.constant(2.0))
    np.testing.assert_array_equal(tf.math.reciprocal_no_nan(tf.constant([0.0, 2.0])).numpy(), [0, 0.5])
    with pytest.raises(InvalidArgumentError, match="int32"):
        tf.math.reciprocal_no_nan(tf.constant([0, 2]))


def test_bessel_derivatives_at_zero_are_exact():
    for fn, first, second in [(tf.math.bessel_i0, 0.0, 0.5), (tf.math.bessel_i1, 0.5, 0.0),
                              (tf.math.bessel_i1e, 0.5, 0.0)]:
        assert first_second(fn, np.array([0.0])) == ([first], [second])


def test_special_values():
    assert np.isinf(tf.math.lgamma(tf.constant([0.0, -1.0])).numpy()).all()
    assert np.isnan(tf.math.digamma(tf.constant([0.0, -1.0])).numpy()).all()  # TF: NaN at the poles
    np.testing.assert_array_equal(tf.math.erfinv(tf.constant([-1.0, 1.0, 2.0])).numpy(), [-np.inf, np.inf, np.nan])
    np.testing.assert_array_equal(tf.round(tf.constant([0.5, 1.5, 2.5, -0.5, -2.5])).numpy(), [0, 2, 2, -0.0, -2])
    np.testing.assert_array_equal(tf.math.softplus(tf.constant([-800.0, 800.0], tf.float64)).numpy(), [0, 800])
    np.testing.assert_allclose(tf.math.log_sigmoid(tf.constant([100.0])).numpy(), [0.0], atol=1e-40)
    v = tf.constant([np.nan, np.inf, -np.inf, 1.0])
    np.testing.assert_array_equal(tf.math.is_nan(v).numpy(), [True, False, False, False])
    np.testing.assert_array_equal(tf.math.is_inf(v).numpy(), [False, True, True, False])
    np.testing.assert_array_equal(tf.math.is_finite(v).numpy(), [False, False, False, True])


def test_x_times_family_is_zero_where_x_is_zero():
    z = tf.constant([0.0, 0.0, 0.0, 1.0])
    y = tf.constant([0.0, np.inf, np.nan, 0.0])
    np.testing.assert_array_equal(tf.math.xlogy(z, y).numpy(), [0, 0, 0, -np.inf])
    np.testing.assert_array_equal(tf.math.xdivy(z, y).numpy(), [0, 0, 0, np.inf])
    np.testing.assert_array_equal(tf.math.xlog1py(z, y - 1.0).numpy(), [0, 0, 0, -np.inf])


def test_divide_no_nan_values_and_int_inputs():
    np.testing.assert_array_equal(tf.math.divide_no_nan(tf.constant([np.nan, np.inf, 3.0]),
                                                        tf.constant([0.0, 0.0, 2.0])).numpy(), [0, 0, 1.5])
    out = tf.math.divide_no_nan(tf.constant([1, 2]), tf.constant([0, 2]))
    assert out.dtype == tf.float64
    np.testing.assert_array_equal(out.numpy(), [0.0, 1.0])


def test_angle():
    z = np.array([1 + 1j, -2 + 0.5j, -1 + 0j])
    np.testing.assert_allclose(tf.math.angle(tf.constant(z)).numpy(), np.angle(z))
    assert tf.math.angle(tf.constant(z.astype(np.complex64))).dtype == tf.float32
    np.testing.assert_allclose(tf.math.angle(tf.constant([-1.0, -0.0, 2.0])).numpy(), [np.pi, 0, 0])
    assert grads(tf.math.angle, np.array([1.0, -2.0])) == [None]


def test_complex_inputs():
    z = np.array([0.3 + 0.4j, -0.5 + 0.2j])
    for fn, ref in [(tf.math.sinh, np.sinh), (tf.math.acosh, np.arccosh), (tf.math.atanh, np.arctanh)]:
        np.testing.assert_allclose(fn(tf.constant(z)).numpy(), ref(z))
    d = tf.math.squared_difference(tf.constant([1 + 2j]), tf.constant([0j]))
    np.testing.assert_allclose(d.numpy(), [5 + 0j])
    n = tf.math.reduce_euclidean_norm(tf.constant([3 + 4j, 0j]))
    assert n.dtype == tf.complex128 and n.numpy() == 5


# --------------------------------------------------------------------------- gradients at special points
def test_xlogy_gradients_at_zero():
    gx, gy = grads(tf.math.xlogy, np.array([0.0, 0.0, 1.0, 2.0]), np.array([0.0, 1.0, 0.0, 3.0]))
    np.testing.assert_allclose(gx, [0, 0, -np.inf, np.log(3)])
    np.testing.assert_allclose(gy, [0, 0, np.inf, 2 / 3])


def test_divide_no_nan_gradients_at_zero():
    gx, gy = grads(tf.math.divide_no_nan, np.array([3.0, 3.0]), np.array([0.0, 2.0]))
    np.testing.assert_allclose(gx, [0, 0.5])
    np.testing.assert_allclose(gy, [0, -0.75])


def test_divide_no_nan_infinite_cotangent_as_tf():
    # TF's rule: div_no_nan(g, y) for x (0 even for g = inf), g * div_no_nan(-x/y, y) for y (inf * 0)
    x, y = tf.constant([3.0]), tf.constant([0.0])
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        out = tf.math.divide_no_nan(x, y)
    gx, gy = tape.gradient(out, [x, y], output_gradients=tf.constant([np.inf]))
    assert gx.numpy()[0] == 0 and np.isnan(gy.numpy()[0])


@pytest.mark.parametrize("fn,x,expect", [
    (tf.math.asin, [1.0], np.inf), (tf.math.acos, [1.0], -np.inf), (tf.math.acosh, [1.0], np.inf),
    (tf.math.atanh, [1.0], np.inf), (tf.math.erfinv, [1.0], np.inf),
])
def test_inverse_functions_have_infinite_slope_at_the_edge(fn, x, expect):
    assert grads(fn, np.array(x))[0][0] == expect


def test_atan2_gradients():
    gy, gx = grads(tf.math.atan2, np.array([1.0, 0.0]), np.array([2.0, 0.0]))
    np.testing.assert_allclose(gy[0], 0.4)
    np.testing.assert_allclose(gx[0], -0.2)
    assert np.isnan(gy[1]) and np.isnan(gx[1])


def test_gamma_family_derivatives():
    x = np.array([0.7, 2.5])
    np.testing.assert_allclose(grads(tf.math.lgamma, x)[0], special.psi(x))
    np.testing.assert_allclose(grads(tf.math.digamma, x)[0], special.polygamma(1, x))
    a = np.array([1.0, 2.0])
    ga, gx = grads(tf.math.polygamma, a, x)
    assert ga is None
    np.testing.assert_allclose(gx, special.polygamma([2, 3], x))


def test_softplus_and_log_sigmoid_gradients():
    x = np.array([-100.0, 0.0, 100.0])
    np.testing.assert_allclose(grads(tf.math.softplus, x)[0], [0, 0.5, 1], atol=1e-30)
    np.testing.assert_allclose(grads(tf.math.log_sigmoid, x)[0], [1, 0.5, 0], atol=1e-30)


@pytest.mark.parametrize("fn", [tf.floor, tf.math.ceil, tf.round, tf.math.is_nan, tf.math.is_inf,
                                tf.math.is_finite])
def test_piecewise_constant_ops_have_no_gradient(fn):
    assert grads(fn, np.array([1.5, -0.5])) == [None]
    x = tf.constant([1.5, -0.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    g = tape.gradient(y, x, unconnected_gradients="zero")
    np.testing.assert_array_equal(g.numpy(), [0, 0])


def test_round_integer_is_identity():
    x = tf.constant([1, -2])
    assert tf.round(x) is x


def test_second_derivatives():
    x = np.array([0.7, 1.3])
    np.testing.assert_allclose(first_second(tf.math.lgamma, x)[1], special.polygamma(1, x))
    np.testing.assert_allclose(first_second(tf.math.erf, x)[1], -2 * x * 2 / np.sqrt(np.pi) * np.exp(-x * x))


# --------------------------------------------------------------------------- dtypes and errors
INT = tf.constant([1, 2])


FLOAT_ONLY = [tf.math.erf, tf.math.erfc, tf.math.erfinv, tf.math.lgamma, tf.math.digamma, tf.math.softplus,
              tf.math.log_sigmoid, tf.floor, tf.math.ceil, tf.math.is_nan, tf.math.is_inf, tf.math.is_finite]


FLOAT_OR_COMPLEX = [tf.math.sinh, tf.math.cosh, tf.math.asin, tf.math.acos, tf.math.atan, tf.math.asinh,
                    tf.math.acosh, tf.math.atanh]


@pytest.mark.parametrize("fn", FLOAT_ONLY + FLOAT_OR_COMPLEX, ids=lambda f: f.__name__)
def test_integer_input_is_rejected(fn):
    with pytest.raises(InvalidArgumentError, match="int32"):
        fn(INT)


@pytest.mark.parametrize("fn", FLOAT_ONLY, ids=lambda f: f.__name__)
def test_complex_input_is_rejected_where_tf_rejects_it(fn):
    with pytest.raises(InvalidArgumentError, match="complex128"):
        fn(tf.constant([1j]))


@pytest.mark.parametrize("fn", [tf.math.atan2, tf.math.xlogy, tf.math.xlog1py, tf.math.xdivy,
                                tf.math.polygamma], ids=lambda f: f.__name__)
def test_binary_integer_input_is_rejected(fn):
    with pytest.raises(InvalidArgumentError, match="int32"):
        fn(INT, INT)


def test_binary_dtype_rules():
    with pytest.raises(InvalidArgumentError, match="float32 and float64"):
        tf.math.atan2(tf.constant([1.0]), tf.constant([1.0], tf.float64))
    with pytest.raises(TypeError, match="float32 and float64"):
        tf.math.divide_no_nan(tf.constant([1.0]), tf.constant([1.0], tf.float64))
    assert tf.math.xlogy(2.0, tf.constant([1.0], tf.float64)).dtype == tf.float64
    assert tf.math.squared_difference(tf.constant([1, 5]), 3).numpy().tolist() == [4, 4]
    with pytest.raises(InvalidArgumentError, match="int8"):
        tf.math.squared_difference(tf.constant([1], tf.int8), tf.constant([1], tf.int8))
    with pytest.raises(TypeError, match="floating or complex"):
        tf.math.angle(INT)
    with pytest.raises(InvalidArgumentError, match="Incompatible shapes"):
        tf.math.atan2(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))


def test_float16_is_kept():
    h = tf.constant([0.5, 1.5], tf.float16)
    for fn in (tf.math.sinh, tf.math.erf, tf.math.lgamma, tf.math.softplus, tf.floor):
        assert fn(h).dtype == tf.float16


# --------------------------------------------------------------------------- forward mode and batched Jacobians
def test_forward_mode():
    x = np.array([0.5, 1.5])
    np.testing.assert_allclose(jvp(tf.math.sinh, x, np.ones(2)).numpy(), np.cosh(x))
    np.testing.assert_allclose(jvp(tf.math.lgamma, x, np.ones(2)).numpy(), special.psi(x))
    np.testing.assert_array_equal(jvp(lambda t: tf.sort(t, direction="DESCENDING"), x, np.array([1.0, 2.0])).numpy(),
                                  [2, 1])
    np.testing.assert_array_equal(jvp(lambda t: tf.math.segment_max(t, [0, 0]), x, np.array([1.0, 2.0])).numpy(), [2])


JAC_CASES = {
    "atan2": lambda x: tf.math.atan2(x, x[::-1] + 3.0),
    "xlogy": lambda x: tf.math.xlogy(x, x * x + 1.0),
    "divide_no_nan": lambda x: tf.math.divide_no_nan(x, x[::-1]),
    "squared_difference": lambda x: tf.math.squared_difference(x, tf.reduce_sum(x)),
    "segment_max": lambda x: tf.math.segment_max(tf.reshape(x, [2, 2]), [0, 0]) * x[:2],
    "unsorted_segment_mean": lambda x: tf.math.unsorted_segment_mean(x, [1, 0, 1, -1], 2),
    "unsorted_segment_prod": lambda x: tf.math.unsorted_segment_prod(x, [1, 0, 1, -1], 2) * x[:2],
    "sort": lambda x: tf.sort(tf.reshape(x, [2, 2]), axis=0) * tf.reshape(x, [2, 2]),
    "top_k": lambda x: tf.math.top_k(x * x, 3).values,
    "euclidean_norm": lambda x: tf.math.reduce_euclidean_norm(tf.reshape(x, [2, 2]), axis=0) * x[:2],
    "add_n": lambda x: tf.add_n([x, x * x]),
    "l2_normalize": lambda x: tf.math.l2_normalize(x),
    "polygamma": lambda x: tf.math.polygamma(tf.ones_like(x), x + 1.0),
}


@pytest.mark.parametrize("name", sorted(JAC_CASES))
def test_batched_jacobian_matches_row_by_row(name):
    f = JAC_CASES[name]
    x = tf.constant([0.3, -1.2, 2.0, 0.7], tf.float64)
    out = []
    for pfor in (True, False):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = f(x)
        out.append(tape.jacobian(y, x, experimental_use_pfor=pfor).numpy())
    np.testing.assert_allclose(out[0], out[1], rtol=1e-12)
    th, nu = tf.test.compute_gradient(f, [x])
    np.testing.assert_allclose(th[0], nu[0], rtol=1e-4, atol=1e-6)


# ----------------------------------------------------------------------------- special values (TF 2.21's)
INF = np.inf


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_special_functions_at_inf_and_nan_match_tensorflow(dtype):
    def f(fn, *args):
        return fn(*[tf.constant(a, dtype) for a in args]).numpy().tolist()

    assert f(tf.math.lgamma, [-INF, INF, 0.0, -1.0]) == [INF, INF, INF, INF]   # C99: lgamma(±inf) = +inf
    q = [-INF, -2.0, -0.0, 0.5, 1.0, 1.5, 2.0, 10.0, INF]
    assert f(tf.math.zeta, [INF] * 9, q) == [INF, INF, INF, INF, 1.0, 0.0, 0.0, 0.0, 0.0]
    assert np.isnan(f(tf.math.zeta, [np.nan] * 9, q)).all()
    # at a pole of the series: inf for an even order, NaN for an odd one (the terms change sign)
    assert f(tf.math.zeta, [2.0, 4.0], [-1.0, 0.0]) == [INF, INF]
    assert np.isnan(f(tf.math.zeta, [3.0, 3.0, 5.0], [-INF, 0.0, -2.0])).all()
    assert f(tf.math.polygamma, [1.0, 3.0], [0.0, -1.0]) == [INF, INF]
    assert np.isnan(f(tf.math.polygamma, [0.0, 2.0, 2.0, 1.5, -1.0], [0.0, 0.0, -INF, 2.0, 2.0])).all()
    np.testing.assert_allclose(f(tf.math.polygamma, [2.0, 3.0], [0.5, 2.0]),
                               [special.polygamma(2, 0.5), special.polygamma(3, 2.0)], rtol=1e-5)
    np.testing.assert_allclose(f(tf.math.zeta, [2.5], [-0.5]), [special.zeta(2.5, -0.5)], rtol=1e-5)


@pytest.mark.parametrize("fn", [tf.math.xlogy, tf.math.xlog1py, tf.math.xdivy])
def test_x_log_y_family_keeps_the_sign_of_a_zero_x(fn):
    y = tf.constant([-1.0, 0.0, 2.0, INF, np.nan])
    out = fn(tf.constant([-0.0] * 5), y).numpy()
    assert (out == 0).all() and np.signbit(out).all()
    out = fn(tf.constant([0.0] * 5), y).numpy()
    assert (out == 0).all() and not np.signbit(out).any()


def test_erf_at_inf_and_erfinv_of_tiny_values_are_exact_where_tf_is_not():
    # docs/differences.md: TF 2.21 gives NaN for float64 erf(±inf), and 0 for erfinv of tiny x
    for dtype in (tf.float32, tf.float64):
        np.testing.assert_array_equal(tf.math.erf(tf.constant([-INF, INF], dtype)).numpy(), [-1.0, 1.0])
        x = tf.constant([1e-30, -1e-20, 1e-10], dtype)
        np.testing.assert_allclose(tf.math.erfinv(x).numpy(), np.sqrt(np.pi) / 2 * x.numpy(), rtol=1e-6)


def test_igamma_betainc_cumulative_logsumexp_and_aliases_give_tensorflows_numbers():
    # tests/math_linalg_programs.py, recorded under TensorFlow in tests/fixtures/tf_signal_image.npz
    from math_linalg_programs import math_names
    from test_signal import compare
    compare("math_names", math_names(tf))
