"""Behaviour of the extra tf.math ops: values against NumPy/SciPy, TensorFlow's conventions at
special points, dtypes, errors, and batched Jacobians (rules that keep leading axes)."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import special

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError

# special points produce inf/NaN on purpose (tapegrad silences these warnings; pytest re-enables them)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def grads(f, *xs):
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
    return [None if g is None else tf.convert_to_tensor(g).numpy() for g in tape.gradient(y, xs)]


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


# --------------------------------------------------------------------------- segments
def test_segment_values():
    d = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    ids = tf.constant([0, 0, 2])
    np.testing.assert_array_equal(tf.math.segment_sum(d, ids).numpy(), [[4, 6], [0, 0], [5, 6]])
    np.testing.assert_array_equal(tf.math.segment_mean(d, ids).numpy(), [[2, 3], [0, 0], [5, 6]])
    np.testing.assert_array_equal(tf.math.segment_max(d, ids).numpy(), [[3, 4], [0, 0], [5, 6]])
    lo = np.finfo(np.float32).min
    np.testing.assert_array_equal(tf.math.unsorted_segment_max(d, [2, -1, 2], 3).numpy(),
                                  [[lo, lo], [lo, lo], [5, 6]])
    np.testing.assert_array_equal(tf.math.unsorted_segment_mean(d, [2, -1, 2], 3).numpy(),
                                  [[0, 0], [0, 0], [3, 4]])


def test_segment_integer_dtypes():
    d = tf.constant([1, 2, -5])
    m = tf.math.segment_mean(d, [0, 0, 1])
    assert m.dtype == tf.int32
    np.testing.assert_array_equal(m.numpy(), [1, -5])
    assert tf.math.unsorted_segment_mean(d, [0, 0, 1], 2).dtype == tf.float64
    np.testing.assert_array_equal(tf.math.unsorted_segment_max(d, [0, 0, 1], 3).numpy(),
                                  [2, -5, np.iinfo(np.int32).min])


def test_segment_max_ties_share_gradient():
    g = grads(lambda d: tf.math.segment_max(d, [0, 0, 0, 2]) * [1.0, 2.0, 3.0], np.array([1.0, 3.0, 3.0, 4.0]))
    np.testing.assert_allclose(g[0], [0, 0.5, 0.5, 3])
    g = grads(lambda d: tf.math.unsorted_segment_max(d, [0, 0, -1, 2], 3), np.array([3.0, 3.0, 3.0, 4.0]))
    np.testing.assert_allclose(g[0], [0.5, 0.5, 0, 1])


@pytest.mark.parametrize("values,expect", [([1.0, np.nan, 3.0], 3.0), ([np.nan, 1.0], 1.0), ([1.0, np.nan], np.nan),
                                           ([np.nan], np.nan), ([3.0, np.nan, 1.0], 1.0)])
def test_segment_extremes_treat_nan_as_tf(values, expect):
    # TF's running extreme: a NaN replaces it and the next entry replaces the NaN
    # (so with one entry after the last NaN, max and min agree)
    ids = [0] * len(values)
    x = tf.constant(values)
    for out in (tf.math.segment_max(x, ids), tf.math.unsorted_segment_max(x, ids, 1),
                tf.math.segment_min(x, ids), tf.math.unsorted_segment_min(x, ids, 1)):
        np.testing.assert_array_equal(out.numpy(), [expect])


def test_segment_extremes_nan_per_column_in_data_order():
    x = tf.constant([[1.0, np.nan], [np.nan, 2.0]])
    np.testing.assert_array_equal(tf.math.unsorted_segment_max(x, [0, 0], 1).numpy(), [[np.nan, 2.0]])
    np.testing.assert_array_equal(tf.math.unsorted_segment_max(x, [[0, 0], [0, 0]], 1).numpy(), [2.0])


def test_segment_min():
    d = tf.constant([1.0, 3.0, 3.0, -4.0])
    np.testing.assert_array_equal(tf.math.segment_min(d, [0, 0, 2, 2]).numpy(), [1, 0, -4])
    np.testing.assert_array_equal(tf.math.unsorted_segment_min(tf.constant([1, 2]), [0, 0], 2).numpy(),
                                  [1, np.iinfo(np.int32).max])
    g = grads(lambda t: tf.math.unsorted_segment_min(t, [1, 1, 1, 0], 2) * [1.0, 2.0],
              np.array([3.0, 1.0, 1.0, 0.0]))
    np.testing.assert_allclose(g[0], [0, 1, 1, 1])


@pytest.mark.parametrize("ids,msg", [([0, 2, 1], "not increasing"), ([-1, 0, 1], "out of range"),
                                     ([[0, 0, 1]], "does not start with"), ([0, 0], "does not start with")])
def test_segment_sum_rejects_bad_ids(ids, msg):
    with pytest.raises(InvalidArgumentError, match=msg):
        tf.math.segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant(ids))


def test_segment_ids_must_be_integers():
    with pytest.raises(InvalidArgumentError, match="int32 or int64"):
        tf.math.segment_max(tf.constant([1.0]), tf.constant([0.0]))
    with pytest.raises(InvalidArgumentError, match=r"out of range \[0, 3\)"):
        tf.math.unsorted_segment_max(tf.constant([1.0, 2.0]), [0, 5], 3)


def test_segment_prod_and_sqrt_n():
    x = np.array([2.0, 3.0, 0.0, 4.0, 5.0, 0.0, 7.0])
    ids = [0, 0, 1, 1, 1, 2, -1]
    y, = [tf.math.unsorted_segment_prod(tf.constant(x), ids, 4).numpy()]
    np.testing.assert_array_equal(y, [6, 0, 0, 1])
    g = grads(lambda t: tf.math.unsorted_segment_prod(t, ids, 4), x)[0]
    np.testing.assert_array_equal(g, [3, 2, 20, 0, 0, 1, 0])  # exact at zeros (TF's rule)
    g = grads(lambda t: tf.math.unsorted_segment_prod(t, [0, 0, 0], 1), np.array([0.0, 0.0, 5.0]))[0]
    np.testing.assert_array_equal(g, [0, 0, 0])  # two zeros: every gradient is 0
    np.testing.assert_array_equal(tf.math.segment_prod(tf.constant([2, 3, 4]), [0, 0, 2]).numpy(), [6, 1, 4])
    s = tf.math.unsorted_segment_sqrt_n(tf.constant([2.0, 3.0, 4.0]), [0, 0, -1], 3)
    np.testing.assert_allclose(s.numpy(), [5 / np.sqrt(2), 0, 0], rtol=1e-6)
    with pytest.raises(InvalidArgumentError, match="int32"):
        tf.math.unsorted_segment_sqrt_n(tf.constant([2, 3]), [0, 0], 1)


# --------------------------------------------------------------------------- sorting
def test_sort_and_argsort_values():
    x = np.array([[3.0, 1.0, 2.0, 1.0], [0.5, -1.0, 7.0, 0.5]])
    np.testing.assert_array_equal(tf.sort(tf.constant(x)).numpy(), np.sort(x))
    np.testing.assert_array_equal(tf.sort(tf.constant(x), direction="DESCENDING").numpy(), -np.sort(-x))
    np.testing.assert_array_equal(tf.sort(tf.constant(x), axis=0).numpy(), np.sort(x, axis=0))
    np.testing.assert_array_equal(tf.argsort(tf.constant(x)).numpy(), np.argsort(x, kind="stable"))
    # descending ties keep index order, as TF's top_k
    np.testing.assert_array_equal(tf.argsort(tf.constant([1.0, 2.0, 1.0, 2.0]), direction="DESCENDING").numpy(),
                                  [1, 3, 0, 2])
    assert tf.argsort(tf.constant(x)).dtype == tf.int32
    u = tf.constant([3, 1, 2, 0], tf.uint8)
    np.testing.assert_array_equal(tf.sort(u, direction="DESCENDING").numpy(), [3, 2, 1, 0])
    np.testing.assert_array_equal(tf.argsort(tf.constant([3, 1, 2, -2**31])).numpy(), [3, 1, 2, 0])


def test_sort_gradient_is_a_permutation():
    x = tf.constant([3.0, 1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sort(x, direction="DESCENDING")
    np.testing.assert_array_equal(tape.jacobian(y, x).numpy(), [[1, 0, 0], [0, 0, 1], [0, 1, 0]])


def test_top_k():
    x = tf.constant([[1.0, 3.0, 3.0, 2.0], [np.nan, 0.0, 5.0, 1.0]])
    r = tf.math.top_k(x, k=2)
    v, i = r
    assert r.values is v and r.indices is i
    np.testing.assert_array_equal(v.numpy(), [[3, 3], [np.nan, 5]])
    np.testing.assert_array_equal(i.numpy(), [[1, 2], [0, 2]])
    assert i.dtype == tf.int32
    assert tf.math.top_k(x, 1, index_type=tf.int64).indices.dtype == tf.int64
    assert tf.nn.top_k(x, k=tf.constant(0)).values.shape == (2, 0)
    g = grads(lambda t: tf.math.top_k(t, 2).values * [1.0, 2.0], np.array([1.0, 3.0, 3.0, 2.0]))
    np.testing.assert_array_equal(g[0], [0, 1, 2, 0])


@pytest.mark.parametrize("call,exc,msg", [
    (lambda: tf.math.top_k(tf.constant([1.0, 3.0]), k=3), InvalidArgumentError, "at least k columns"),
    (lambda: tf.math.top_k(tf.constant([1.0, 3.0]), k=-1), InvalidArgumentError, "k >= 0"),
    (lambda: tf.math.top_k(tf.constant(1.0)), InvalidArgumentError, ">= 1-D"),
    (lambda: tf.math.top_k(tf.constant([True])), InvalidArgumentError, "bool"),
    (lambda: tf.sort(tf.constant([1j])), InvalidArgumentError, "complex128"),
    (lambda: tf.sort(tf.constant([1.0]), direction="UP"), ValueError, "ASCENDING, DESCENDING"),
    (lambda: tf.sort(tf.constant([1.0]), axis=1), InvalidArgumentError, "out of range"),
    (lambda: tf.argsort(tf.constant(1.0)), InvalidArgumentError, ">= 1-D"),
])
def test_sort_errors(call, exc, msg):
    with pytest.raises(exc, match=msg):
        call()


# --------------------------------------------------------------------------- norms and combinations
def test_reduce_euclidean_norm():
    x = np.array([[3.0, 4.0], [5.0, 12.0]])
    np.testing.assert_allclose(tf.math.reduce_euclidean_norm(tf.constant(x), axis=1).numpy(), [5, 13])
    np.testing.assert_allclose(tf.math.reduce_euclidean_norm(tf.constant(x), keepdims=True).numpy(),
                               [[np.linalg.norm(x)]])
    i = tf.math.reduce_euclidean_norm(tf.constant([[1, 2, 3], [1, 1, 1]]), axis=1)
    assert i.dtype == tf.int32
    np.testing.assert_array_equal(i.numpy(), [3, 1])
    assert tf.math.reduce_euclidean_norm(tf.zeros([0])).numpy() == 0
    g = grads(tf.math.reduce_euclidean_norm, np.array([3.0, 4.0]))[0]
    np.testing.assert_allclose(g, [0.6, 0.8])
    assert np.isnan(grads(tf.math.reduce_euclidean_norm, np.array([0.0, 0.0]))[0]).all()
    with pytest.raises(InvalidArgumentError, match="bool"):
        tf.math.reduce_euclidean_norm(tf.constant([True]))


def test_count_nonzero():
    x = tf.constant([[0.0, 1.0], [np.nan, 0.0]])
    c = tf.math.count_nonzero(x, axis=0)
    assert c.dtype == tf.int64
    np.testing.assert_array_equal(c.numpy(), [1, 1])
    assert tf.math.count_nonzero(tf.constant([True, False]), dtype=tf.int32).numpy() == 1
    assert tf.math.count_nonzero(x, keepdims=True).shape == (1, 1)
    assert grads(lambda t: tf.cast(tf.math.count_nonzero(t), tf.float32), np.array([1.0, 0.0])) == [None]


def test_l2_normalize():
    x = tf.constant([[3.0, 4.0], [0.0, 0.0]])
    np.testing.assert_allclose(tf.math.l2_normalize(x, axis=1).numpy(), [[0.6, 0.8], [0, 0]])
    np.testing.assert_allclose(tf.nn.l2_normalize(x, dim=1, epsilon=100.0).numpy(), [[0.3, 0.4], [0, 0]])
    np.testing.assert_allclose(tf.math.l2_normalize(tf.constant([3 + 4j, 0j])).numpy(), [0.6 + 0.8j, 0])
    g = grads(lambda t: tf.math.l2_normalize(t) * [1.0, 2.0], np.array([0.0, 0.0]))[0]
    np.testing.assert_allclose(g, [1e6, 2e6])  # 1/sqrt(epsilon)
    with pytest.raises(TypeError, match="floating"):
        tf.math.l2_normalize(tf.constant([3, 4]))
    with pytest.raises(ValueError, match="not both"):
        tf.math.l2_normalize(x, axis=0, dim=0)


def test_polyval():
    x = tf.constant([2.0, -1.0])
    np.testing.assert_array_equal(tf.math.polyval([1.0, 2.0, 3.0], x).numpy(), [11, 2])
    np.testing.assert_array_equal(tf.math.polyval([], x).numpy(), [0, 0])
    assert tf.math.polyval([1, 2], tf.constant(3)).numpy() == 5
    x64 = tf.constant(3.0, tf.float64)
    assert tf.math.polyval([1.0, 2.0], x64).dtype == tf.float64  # Python numbers take x's dtype
    with pytest.raises(ValueError, match="list"):
        tf.math.polyval(tf.constant([1.0, 2.0]), x)


def test_add_n():
    a, b = np.array([1.0, 2.0]), np.array([3.0, 4.0])
    np.testing.assert_array_equal(tf.add_n([tf.constant(a), tf.constant(b), tf.constant(a)]).numpy(), 2 * a + b)
    one = tf.constant(a)
    assert tf.add_n([one]) is one
    assert tf.add_n([1.0, 2.0]).numpy() == 3.0
    s = tf.IndexedSlices(tf.constant([[1.0]]), tf.constant([0]), tf.constant([2, 1]))
    np.testing.assert_array_equal(tf.add_n([s, tf.constant([[1.0], [2.0]])]).numpy(), [[2], [2]])
    ga, gb = grads(lambda x, y: tf.add_n([x, y, x]), a, b)
    np.testing.assert_array_equal(ga, [2, 2])
    np.testing.assert_array_equal(gb, [1, 1])
    with pytest.raises(ValueError, match="at least one"):
        tf.add_n([])
    with pytest.raises(InvalidArgumentError, match="same size and shape"):
        tf.add_n([tf.constant([1.0, 2.0]), tf.constant(1.0)])
    with pytest.raises(InvalidArgumentError, match="int32"):
        tf.add_n([tf.constant([1.0]), tf.constant([1])])


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


# expected values below: TF 2.21, recorded as literals
@pytest.mark.parametrize("x, dtype, grad, jvp, rtol", [
    ([1e7, 1e7], np.float32, [0.5, 0.5], 1.0, 1e-6),                  # was [0.3679, 0.3679]
    ([-1e6, -1e6 - 1, -1e6 - 2], np.float32, [0.66524, 0.24473, 0.09003], 0.71239, 1e-4),  # 3% low
    ([1000.0, 1000.0], np.float16, [0.5, 0.5], 1.0, 1e-3),             # 21% off
    ([1000.0, 999.0, 998.0], np.float16, [0.66504, 0.24463, 0.09003], 0.7124, 2e-3),
    ([-np.inf, 1.0], np.float32, [0.0, 1.0], 1.5, 1e-6),
])
def test_reduce_logsumexp_derivatives_are_accurate_at_large_magnitude(x, dtype, grad, jvp, rtol):
    """The rule computed exp(x - lse) with lse rounded to x's precision; it now normalises
    exp(x - max), as TF's (autodiffed) composition does."""
    x = tf.constant(np.array(x, dtype))
    u = tf.constant(np.linspace(0.5, 1.5, x.shape[0]), x.dtype)
    with tf.autodiff.ForwardAccumulator(x, u) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_logsumexp(x)
    g = tape.gradient(y, x)
    assert g.dtype == x.dtype
    np.testing.assert_allclose(g.numpy().astype(np.float64), grad, rtol=rtol, atol=1e-5)
    np.testing.assert_allclose(float(acc.jvp(y)), jvp, rtol=rtol)


def test_reduce_logsumexp_special_values_match_tf():
    inf, nan = np.inf, np.nan
    for v, y, g in [([inf, 1.0], inf, [nan, 0.0]), ([-inf, -inf], -inf, [nan, nan]),
                    ([inf, -inf], inf, [nan, 0.0]), ([nan, 1.0], nan, [nan, nan])]:
        x = tf.constant(v)
        with tf.GradientTape() as tape:
            tape.watch(x)
            r = tf.reduce_logsumexp(x)
        np.testing.assert_array_equal(r.numpy(), y)
        np.testing.assert_array_equal(tape.gradient(r, x).numpy(), g)
    x = tf.constant([[1.0, 2.0], [3e5, -3e5]])
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            r = tf.reduce_logsumexp(x, axis=1, keepdims=True)
        g = tape.gradient(r, x)
        s = tf.reduce_sum(g * np.linspace(0.5, 1.5, 4, dtype=np.float32).reshape(2, 2))
    assert r.shape == (2, 1)
    np.testing.assert_allclose(r.numpy().ravel(), [2.31326, 3e5], rtol=1e-5)
    np.testing.assert_allclose(g.numpy(), [[0.26894, 0.73106], [1.0, 0.0]], atol=1e-5)
    np.testing.assert_allclose(t2.gradient(s, x).numpy(), [[-0.06554, 0.06554], [0.0, 0.0]], atol=1e-5)
# ----------------------------------------------------------------------------- argmax / argmin with NaN
NAN = np.nan


@pytest.mark.parametrize("row,imax,imin", [   # TF 2.21's CPU results
    ([NAN, 1, 2], 2, 1), ([1, NAN, 2], 2, 0), ([1, 2, NAN], 1, 0), ([2, NAN, 2], 0, 0),
    ([NAN, NAN, 1], 2, 2), ([1, NAN, NAN], 0, 0), ([3, 3, NAN], 0, 0), ([NAN, 3, 3], 1, 1),
    ([np.inf, NAN, -np.inf], 0, 2), ([-np.inf, NAN, np.inf], 2, 0), ([NAN, NAN, NAN], 0, 0),
    ([1, 2, 2, NAN, 3], 4, 0), ([5, NAN, 1, 5], 0, 2), ([NAN, -np.inf], 1, 1),
])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_argmax_argmin_skip_nan_as_tensorflow(row, imax, imin, dtype):
    x = np.array(row, dtype)
    assert int(tf.math.argmax(x)) == imax and int(tf.math.argmin(x)) == imin
    m = np.stack([x, x[::-1]])   # along either axis, and with other rows that need no fix
    np.testing.assert_array_equal(tf.math.argmax(m, axis=1).numpy(), [imax, len(row) - 1 - _last(x, imax)])
    np.testing.assert_array_equal(tf.math.argmin(m.T, axis=0).numpy(), [imin, len(row) - 1 - _last(x, imin)])


def _last(x: np.ndarray, i: int) -> int:
    """In the reversed row the winner is the last index holding x[i] (0 for an all-NaN row)."""
    if np.isnan(x).all():
        return len(x) - 1
    return int(np.flatnonzero(x == x[i])[-1])


def test_argmax_with_nan_matches_a_nan_skipping_reference_on_random_arrays():
    rng = np.random.default_rng(5)
    for _ in range(50):
        shape = tuple(rng.integers(1, 9, size=rng.integers(1, 4)))
        x = rng.integers(-3, 4, size=shape).astype(np.float32)
        x[rng.random(shape) < rng.random()] = np.nan
        axis = int(rng.integers(0, len(shape)))
        for fn, ref in ((tf.math.argmax, np.nanargmax), (tf.math.argmin, np.nanargmin)):
            moved = np.moveaxis(x, axis, -1).reshape(-1, shape[axis])
            want = [0 if np.isnan(r).all() else ref(r) for r in moved]
            got = fn(x, axis=axis).numpy()
            np.testing.assert_array_equal(got.reshape(-1), want)


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


def test_elu_and_selu_keep_negative_zero():
    for fn in (tf.nn.elu, tf.nn.selu):
        out = fn(tf.constant([-0.0, 0.0, np.nan, -INF])).numpy()
        assert np.signbit(out[0]) and not np.signbit(out[1]) and np.isnan(out[2]) and out[3] < 0


def test_reductions_of_inf_and_overflow_are_silent():
    import warnings
    x = tf.constant([INF, -INF, 3e38, 3e38])
    with warnings.catch_warnings():   # a warning raised from inside NumPy's Python code leaked
        warnings.filterwarnings("error", category=RuntimeWarning, module="numpy")
        assert np.isnan(tf.reduce_sum(x).numpy()) and np.isnan(tf.reduce_mean(x).numpy())
        assert tf.reduce_sum(x[2:]).numpy() == INF and tf.reduce_mean(x[2:]).numpy() == INF
        assert np.isnan(tf.math.lbeta([[INF, 1.0]]).numpy()).all()
    np.testing.assert_array_equal(tf.reduce_mean(tf.constant([1.0, 2.0], tf.float16)).numpy(), 1.5)
    assert np.isnan(tf.reduce_mean(tf.zeros([0])).numpy())


def test_erf_at_inf_and_erfinv_of_tiny_values_are_exact_where_tf_is_not():
    # docs/differences.md: TF 2.21 gives NaN for float64 erf(±inf), and 0 for erfinv of tiny x
    for dtype in (tf.float32, tf.float64):
        np.testing.assert_array_equal(tf.math.erf(tf.constant([-INF, INF], dtype)).numpy(), [-1.0, 1.0])
        x = tf.constant([1e-30, -1e-20, 1e-10], dtype)
        np.testing.assert_allclose(tf.math.erfinv(x).numpy(), np.sqrt(np.pi) / 2 * x.numpy(), rtol=1e-6)
@pytest.mark.parametrize("reduce", [tf.reduce_max, tf.reduce_min])
def test_reduce_max_min_of_empty_input_is_on_the_tape(reduce):
    # TF: the gradient of an empty reduction is an empty tensor, not None; the JVP is 0
    x = tf.constant(np.zeros((0, 3), np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = reduce(x, axis=0)
    assert np.all(np.isinf(y.numpy())) and y.shape == (3,)
    assert tape.gradient(y, x).shape == (0, 3)
    with tf.autodiff.ForwardAccumulator(x, tf.zeros_like(x)) as acc:
        y = reduce(x, axis=0)
    np.testing.assert_array_equal(acc.jvp(y).numpy(), np.zeros(3))
    assert reduce(tf.zeros([2, 0], tf.int32), axis=1).dtype == tf.int32


def test_reduce_mean_of_empty_is_nan_without_numpy_warning():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x = tf.zeros([0, 3])
        assert np.isnan(tf.reduce_mean(x).numpy())
        assert tf.reduce_mean(x, axis=1).shape == (0,)
        assert np.all(np.isnan(tf.math.reduce_variance(x, axis=0).numpy()))
