"""Reductions (tapegrad/ops/reduction.py): values, derivatives and TensorFlow's conventions at
special points (NaN, inf, empty inputs)."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError
from op_helpers import grads


# special points produce inf/NaN on purpose (tapegrad silences these warnings; pytest re-enables them)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


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



@pytest.mark.parametrize("shape,axis", [((1, 31, 31, 16), (0, 1, 2)), ((1, 64, 64, 8), (0, 1, 2)),
                                        ((4000, 7), 0), ((5, 400, 3), (0, 1))])
def test_float32_mean_over_leading_axes_keeps_its_digits(shape, axis):
    # NumPy adds float32 along leading axes one row at a time (errors up to 1.6e-6 here, which a
    # mean of nearly cancelling gradients, as in Grad-CAM, turns into 1e-4); summed in blocks, as
    # TF does, the mean stays within a few float32 roundings
    rng = np.random.default_rng(0)
    x = (rng.normal(size=shape) + 1.0).astype(np.float32)
    exact = np.mean(x.astype(np.float64), axis=axis, keepdims=True)
    got = tf.reduce_mean(tf.constant(x), axis=axis)
    assert got.dtype == tf.float32 and got.shape == np.squeeze(exact, axis).shape
    np.testing.assert_allclose(got.numpy(), np.squeeze(exact, axis), rtol=2e-7)
    np.testing.assert_allclose(tf.reduce_mean(tf.constant(x), axis=axis, keepdims=True).numpy(),
                               exact, rtol=2e-7)
