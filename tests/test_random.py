"""tf.random: seeding semantics (reproducibility as in TensorFlow), distributions, dtypes, errors,
and gradients (to mean/stddev only; none through shuffle)."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError


def draw_all():
    return [tf.random.normal([3]).numpy(), tf.random.uniform([3]).numpy(),
            tf.random.uniform([3], 0, 100, dtype=tf.int64).numpy(),
            tf.random.shuffle(tf.range(10)).numpy(), tf.random.categorical([[0.0, 1.0, 2.0]], 5).numpy(),
            tf.random.truncated_normal([3]).numpy()]


def same(a, b):
    return all(np.array_equal(p, q) for p, q in zip(a, b))


def test_global_seed_makes_the_sequence_reproducible():
    tf.random.set_seed(7)
    first = draw_all()
    tf.random.set_seed(7)
    assert same(first, draw_all())
    tf.random.set_seed(8)
    assert not same(first, draw_all())


def test_calls_in_a_sequence_differ():
    tf.random.set_seed(1)
    a, b = tf.random.normal([5]).numpy(), tf.random.normal([5]).numpy()
    assert not np.array_equal(a, b)


def test_op_seed_stream_continues_and_restarts_with_set_seed():
    tf.random.set_seed(3)
    a1, a2 = tf.random.uniform([4], seed=11).numpy(), tf.random.uniform([4], seed=11).numpy()
    assert not np.array_equal(a1, a2)
    tf.random.set_seed(3)
    assert np.array_equal(tf.random.uniform([4], seed=11).numpy(), a1)
    # other ops in between do not disturb a seeded stream
    tf.random.set_seed(3)
    tf.random.normal([7])
    assert np.array_equal(tf.random.uniform([4], seed=11).numpy(), a1)
    # a different op seed is a different stream
    tf.random.set_seed(3)
    assert not np.array_equal(tf.random.uniform([4], seed=12).numpy(), a1)


def test_op_seed_without_global_seed_is_deterministic_from_a_reset():
    tf.random.set_seed(None)
    a = tf.random.normal([4], seed=5).numpy()
    tf.random.set_seed(None)
    assert np.array_equal(tf.random.normal([4], seed=5).numpy(), a)


def test_unseeded_calls_are_random():
    tf.random.set_seed(None)
    assert not np.array_equal(tf.random.normal([8]).numpy(), tf.random.normal([8]).numpy())


def test_normal_distribution_dtype_and_parameters():
    tf.random.set_seed(0)
    x = tf.random.normal([20000], mean=3.0, stddev=2.0)
    assert x.dtype == tf.float32 and x.shape == (20000,)
    assert abs(float(tf.reduce_mean(x)) - 3.0) < 0.05
    assert abs(float(tf.math.reduce_std(x)) - 2.0) < 0.05
    assert tf.random.normal([2, 3], dtype=tf.float64).dtype == tf.float64
    assert tf.random.normal([2], dtype=tf.float16).dtype == tf.float16
    m = tf.random.normal([2], mean=[0.0, 100.0], stddev=0.01).numpy()
    assert abs(m[1] - 100) < 1 and abs(m[0]) < 1


def test_truncated_normal_stays_within_two_stddevs():
    tf.random.set_seed(0)
    x = tf.random.truncated_normal([5000], mean=1.0, stddev=0.5).numpy()
    assert x.min() >= 0.0 and x.max() <= 2.0


def test_uniform_float_and_int():
    tf.random.set_seed(0)
    x = tf.random.uniform([10000], -2.0, 3.0).numpy()
    assert x.min() >= -2.0 and x.max() < 3.0 and abs(x.mean() - 0.5) < 0.05
    i = tf.random.uniform([10000], 5, 9, dtype=tf.int32)
    assert i.dtype == tf.int32 and set(np.unique(i.numpy()).tolist()) == {5, 6, 7, 8}
    assert tf.random.uniform([3], maxval=2**40, dtype=tf.int64).dtype == tf.int64


def test_uniform_errors():
    with pytest.raises(ValueError, match="maxval"):
        tf.random.uniform([2], dtype=tf.int32)
    with pytest.raises(InvalidArgumentError, match="minval < maxval"):
        tf.random.uniform([2], 5, 3, dtype=tf.int32)
    with pytest.raises(ValueError, match="dtype"):
        tf.random.uniform([2], dtype=tf.bool)
    with pytest.raises(InvalidArgumentError, match=">= 0"):
        tf.random.normal([-1])
    with pytest.raises(ValueError, match="floating"):
        tf.random.normal([2], dtype=tf.int32)


def test_gradients_flow_to_mean_and_stddev_only():
    mean, std = tf.Variable(1.0), tf.Variable(2.0)
    tf.random.set_seed(4)
    with tf.GradientTape() as tape:
        z = tf.random.normal([1000], mean=mean, stddev=std)
        loss = tf.reduce_sum(z)
    dm, ds = tape.gradient(loss, [mean, std])
    tf.random.set_seed(4)
    eps = tf.random.normal([1000]).numpy()
    assert float(dm) == 1000.0
    assert float(ds) == pytest.approx(eps.sum(), rel=1e-4)
    lo, hi = tf.Variable(0.0), tf.Variable(1.0)
    with tf.GradientTape() as tape:
        u = tf.reduce_sum(tf.random.uniform([10], lo, hi))
    assert all(g is not None for g in tape.gradient(u, [lo, hi]))


def test_shuffle_permutes_the_first_axis_and_cuts_gradients():
    tf.random.set_seed(0)
    x = tf.reshape(tf.range(20.0), [10, 2])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.random.shuffle(x)
    rows = y.numpy()
    assert sorted(rows[:, 0].tolist()) == list(range(0, 20, 2))
    np.testing.assert_array_equal(rows[:, 1], rows[:, 0] + 1)
    assert tape.gradient(y, x) is None
    assert tf.random.shuffle(tf.constant(3.0)).numpy() == 3.0


def test_categorical_frequencies_dtype_and_errors():
    tf.random.set_seed(0)
    logits = tf.constant([[np.log(0.1), np.log(0.6), np.log(0.3)], [0.0, -np.inf, -np.inf]], tf.float32)
    s = tf.random.categorical(logits, 20000)
    assert s.dtype == tf.int64 and s.shape == (2, 20000)
    freq = np.bincount(s.numpy()[0], minlength=3) / 20000
    np.testing.assert_allclose(freq, [0.1, 0.6, 0.3], atol=0.02)
    assert set(s.numpy()[1].tolist()) == {0}  # -inf logits are never drawn
    assert tf.random.categorical([[0.0, 0.0]], 3, dtype=tf.int32).dtype == tf.int32
    assert tf.random.categorical([[0.0, 0.0]], 0).shape == (1, 0)
    with pytest.raises(InvalidArgumentError, match="matrix"):
        tf.random.categorical([1.0, 2.0], 3)
    with pytest.raises(InvalidArgumentError, match="non-negative"):
        tf.random.categorical([[1.0, 2.0]], -1)
    with pytest.raises(ValueError, match="int32 or int64"):
        tf.random.categorical([[1.0, 2.0]], 2, dtype=tf.float32)
    with pytest.raises(InvalidArgumentError, match="floating"):
        tf.random.categorical([[1, 2]], 2)


# ---- gamma, poisson, binomial, index_shuffle (TF's numbers: tests/test_philox.py) -----------------

def test_variable_sample_distributions_have_their_means():
    g = tf.random.stateless_gamma([20000, 3], [1, 2], alpha=[0.4, 1.0, 6.0], beta=[1.0, 2.0, 3.0]).numpy()
    np.testing.assert_allclose(g.mean(axis=0), [0.4, 0.5, 2.0], rtol=0.03)
    p = tf.random.stateless_poisson([20000, 3], [3, 4], lam=[0.5, 9.5, 40.0], dtype=tf.float64).numpy()
    np.testing.assert_allclose(p.mean(axis=0), [0.5, 9.5, 40.0], rtol=0.03)
    np.testing.assert_allclose(p.var(axis=0), [0.5, 9.5, 40.0], rtol=0.06)
    b = tf.random.stateless_binomial([20000, 4], [5, 6], counts=[10.0, 50.0, 200.0, 30.0],
                                     probs=[0.3, 0.5, 0.95, 0.02]).numpy()
    np.testing.assert_allclose(b.mean(axis=0), [3.0, 25.0, 190.0, 0.6], rtol=0.03)
    assert b.min() >= 0 and (b <= [10, 50, 200, 30]).all()


def test_gamma_gradient_is_the_implicit_reparameterization():
    alpha = tf.Variable([0.5, 3.0])
    with tf.GradientTape() as tape:
        x = tf.random.stateless_gamma([4000, 2], [7, 7], alpha)
        mean = tf.reduce_mean(x, axis=0)
    np.testing.assert_allclose(tape.gradient(mean, alpha).numpy(), [1.0, 1.0], rtol=0.05)  # d E[x] / d alpha


def test_variable_sample_bad_input():
    with pytest.raises(InvalidArgumentError, match="must end with"):
        tf.random.stateless_gamma([3, 2], [1, 2], alpha=[1.0, 2.0, 3.0])
    with pytest.raises(InvalidArgumentError, match="one floating dtype"):
        tf.random.stateless_binomial([2], [1, 2], counts=tf.constant([5.0, 6.0], tf.float64), probs=[0.5, 0.5])
    with pytest.raises(ValueError, match="floating"):
        tf.random.gamma([2], 1.0, dtype=tf.int32)
    with pytest.raises(InvalidArgumentError, match="max_index must be >= index"):
        tf.random.experimental.index_shuffle(5, [1, 2], 3)
    with pytest.raises(InvalidArgumentError, match="shape \\[2\\]"):
        tf.random.experimental.index_shuffle(tf.range(2), [[1, 2], [3, 4]], tf.constant([3, 3]))


def test_index_shuffle_is_a_permutation():
    got = tf.random.experimental.index_shuffle(tf.range(1000), [3, 8], tf.fill([1000], 999)).numpy()
    assert sorted(got.tolist()) == list(range(1000))
