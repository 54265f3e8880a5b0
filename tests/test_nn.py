"""tf.nn (tapegrad/ops/nn.py): activations, losses, normalisation, bias_add and dropout against
references written here, plus TF's conventions, batched (Jacobian) backward walks and errors."""
from __future__ import annotations

import math

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError
from op_helpers import grads, value_and_grads


RNG = np.random.default_rng(1234)


def rand(*shape):
    return RNG.standard_normal(shape)


# --------------------------------------------------------------------------- activations
X = np.array([-7.0, -2.5, -1.0, -0.25, 0.25, 1.0, 3.0, 6.5, 8.0])


SELU_A, SELU_S = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


ACTIVATIONS = {
    "relu6": (lambda x: np.clip(x, 0, 6), lambda x: ((x > 0) & (x < 6)).astype(float)),
    "elu": (lambda x: np.where(x > 0, x, np.expm1(x)), lambda x: np.where(x > 0, 1, np.exp(x))),
    "selu": (lambda x: SELU_S * np.where(x > 0, x, SELU_A * np.expm1(x)),
             lambda x: SELU_S * np.where(x > 0, 1, SELU_A * np.exp(x))),
    "leaky_relu": (lambda x: np.where(x > 0, x, 0.2 * x), lambda x: np.where(x > 0, 1, 0.2)),
    "softsign": (lambda x: x / (1 + abs(x)), lambda x: 1 / (1 + abs(x)) ** 2),
    "gelu": (lambda x: x * 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2))),
             lambda x: 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2))) + x * np.exp(-x * x / 2) / math.sqrt(2 * math.pi)),
    "silu": (lambda x: x / (1 + np.exp(-x)), lambda x: (1 + np.exp(-x) + x * np.exp(-x)) / (1 + np.exp(-x)) ** 2),
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activations_values_and_derivatives(name):
    f, df = ACTIVATIONS[name]
    fn = getattr(tf.nn, name)
    y, (dx,) = value_and_grads(fn, X)
    np.testing.assert_allclose(y, f(X), rtol=1e-6 if name == "leaky_relu" else 1e-12, atol=1e-12)
    np.testing.assert_allclose(dx, df(X), rtol=1e-6 if name == "leaky_relu" else 1e-12, atol=1e-12)
    assert fn(tf.constant(X, tf.float32)).dtype == tf.float32


def test_activation_kinks_follow_tensorflow():
    x = [0.0, 6.0]
    assert value_and_grads(tf.nn.relu6, x)[1][0].tolist() == [0.0, 0.0]
    assert value_and_grads(tf.nn.elu, x)[1][0].tolist() == [1.0, 1.0]
    np.testing.assert_allclose(value_and_grads(tf.nn.selu, x)[1][0], [SELU_S, SELU_S])
    np.testing.assert_allclose(value_and_grads(lambda t: tf.nn.leaky_relu(t, 0.3), x)[1][0], [0.3, 1.0], rtol=1e-7)


def test_gelu_approximate_and_swish_beta():
    x = X
    c = math.sqrt(2 / math.pi)
    np.testing.assert_allclose(tf.nn.gelu(x, approximate=True).numpy(), 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x ** 3))))
    np.testing.assert_allclose(tf.nn.swish(x, beta=2.0).numpy(), x / (1 + np.exp(-2 * x)))


def test_activations_reject_integers_except_relu6_and_leaky_relu():
    with pytest.raises(InvalidArgumentError, match="int32"):
        tf.nn.elu(tf.constant([1, 2]))
    assert tf.nn.relu6(tf.constant([-3, 2, 9])).numpy().tolist() == [0, 2, 6]
    assert tf.nn.leaky_relu(tf.constant([-3, 2])).dtype == tf.float32


# --------------------------------------------------------------------------- statistics, bias, dropout
def test_l2_loss():
    y, (dx,) = value_and_grads(tf.nn.l2_loss, np.array([[1.0, -2.0], [3.0, 0.5]]))
    assert y == pytest.approx(7.125)
    np.testing.assert_array_equal(dx, [[1.0, -2.0], [3.0, 0.5]])


@pytest.mark.parametrize("axes,keepdims", [([0], False), ([0, 2], True), ([-1], False), (None, False)])
def test_moments(axes, keepdims):
    x = rand(3, 4, 5)
    m, v = tf.nn.moments(x, axes=axes if axes is not None else [0, 1, 2], keepdims=keepdims)
    ax = tuple(axes) if axes is not None else None
    np.testing.assert_allclose(m.numpy(), x.mean(axis=ax, keepdims=keepdims), rtol=1e-12)
    np.testing.assert_allclose(v.numpy(), x.var(axis=ax, keepdims=keepdims), rtol=1e-12)


def test_moments_float16_is_computed_in_float32():
    x = tf.constant(np.full(4096, 10.0) + np.arange(4096) % 2, tf.float16)
    m, v = tf.nn.moments(x, [0])
    assert m.dtype == tf.float16 and float(m) == 10.5 and float(v) == 0.25


def test_batch_normalization():
    x, m, v, o, s = rand(4, 3), rand(3), np.abs(rand(3)) + 0.5, rand(3), rand(3)
    y = tf.nn.batch_normalization(x, m, v, o, s, 1e-3).numpy()
    np.testing.assert_allclose(y, s * (x - m) / np.sqrt(v + 1e-3) + o, rtol=1e-12)
    y0 = tf.nn.batch_normalization(x, m, v, None, None, 1e-3).numpy()
    np.testing.assert_allclose(y0, (x - m) / np.sqrt(v + 1e-3), rtol=1e-12)


def test_bias_add():
    x, b = rand(2, 3, 4), rand(4)
    y, (dx, db) = value_and_grads(tf.nn.bias_add, x, b)
    np.testing.assert_allclose(y, x + b)
    np.testing.assert_array_equal(db, np.full(4, 6.0))
    b3 = rand(3)
    np.testing.assert_allclose(tf.nn.bias_add(x, b3, data_format="NCW").numpy(), x + b3[:, None])
    with pytest.raises(InvalidArgumentError, match="as many biases"):
        tf.nn.bias_add(x, rand(3))
    with pytest.raises(InvalidArgumentError, match="1D"):
        tf.nn.bias_add(x, rand(1, 4))
    with pytest.raises(InvalidArgumentError, match="at least 2D"):
        tf.nn.bias_add(rand(4), rand(4))
    with pytest.raises(InvalidArgumentError, match="float64"):
        tf.nn.bias_add(tf.zeros([2, 2]), tf.zeros([2], tf.float64))


def test_dropout_statistics_mask_and_gradient():
    tf.random.set_seed(0)
    x = tf.ones([20000])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.dropout(x, rate=0.3)
    g = tape.gradient(y, x).numpy()
    vals = y.numpy()
    assert set(np.unique(vals).tolist()) == {0.0, np.float32(1 / 0.7)}
    assert abs((vals == 0).mean() - 0.3) < 0.02
    np.testing.assert_array_equal(g, vals)


def test_dropout_noise_shape_and_seeds():
    tf.random.set_seed(1)
    y = tf.nn.dropout(tf.ones([50, 4]), 0.5, noise_shape=[50, 1]).numpy()
    assert all(len(set(row)) == 1 for row in y.tolist())
    tf.random.set_seed(2)
    a = tf.nn.dropout(tf.ones([100]), 0.5, seed=4).numpy()
    tf.random.set_seed(2)
    assert np.array_equal(a, tf.nn.dropout(tf.ones([100]), 0.5, seed=4).numpy())
    assert tf.nn.dropout(tf.ones([3]), 0.0).numpy().tolist() == [1, 1, 1]
    y = tf.nn.dropout(tf.ones([1000]), tf.constant(0.5)).numpy()
    assert set(np.unique(y).tolist()) == {0.0, 2.0}
    with pytest.raises(ValueError, match="range"):
        tf.nn.dropout(tf.ones([3]), 1.0)
    with pytest.raises(ValueError, match="floating"):
        tf.nn.dropout(tf.constant([1, 2]), 0.5)
    with pytest.raises(InvalidArgumentError, match="noise_shape"):
        tf.nn.dropout(tf.ones([2, 3]), 0.5, noise_shape=[3, 3])


# ----------------------------------------------------------------------------- round 2: edges (TF 2.21's values)
INF = np.inf


def test_softmax_of_inf_logits_is_tensorflows_nan():
    # TF computes x - max(x): inf - inf is NaN for the whole row; -inf alone is an ordinary 0
    np.testing.assert_array_equal(tf.nn.softmax([[INF, 1.0]]).numpy(), [[np.nan, np.nan]])
    np.testing.assert_array_equal(tf.nn.log_softmax([[INF, 1.0]]).numpy(), [[np.nan, np.nan]])
    np.testing.assert_array_equal(tf.nn.softmax([[-INF, 1.0]]).numpy(), [[0.0, 1.0]])
    np.testing.assert_array_equal(tf.nn.log_softmax([[-INF, 1.0]]).numpy(), [[-INF, 0.0]])
    np.testing.assert_array_equal(tf.nn.softmax([[-INF, -INF]]).numpy(), [[np.nan, np.nan]])
    assert np.isnan(tf.nn.softmax_cross_entropy_with_logits(labels=[[1.0, 0.0]], logits=[[INF, 1.0]]).numpy()).all()
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1], logits=[[-INF, 1.0], [-INF, 1.0]])
    np.testing.assert_array_equal(loss.numpy(), [INF, 0.0])


@pytest.mark.parametrize("logits,label", [([[1e30, 1.0]], 0), ([[-INF, 1.0]], 1), ([[-1e30, 0.0]], 1),
                                          ([[50.0, -50.0]], 0)])
@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_a_zero_cross_entropy_is_positive_zero(logits, label, dtype):
    # -log_softmax gave -0.0 where TF's kernel (log Σ exp(s) - s) gives +0.0
    x = tf.constant(logits, dtype)
    losses = [tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[label], logits=x)]
    if np.isfinite(logits).all():   # with -inf, TF's 0 * inf in the one-hot sum is NaN too
        losses.append(tf.nn.softmax_cross_entropy_with_logits(labels=np.eye(2)[[label]], logits=x))
    for loss in losses:
        assert loss.numpy()[0] == 0.0 and not np.signbit(loss.numpy()[0])


@pytest.mark.parametrize("labels", [tf.constant([[0, 1, 0]]), tf.constant([[0, 1, 0]], tf.int64),
                                    [[0, 1, 0]], np.array([[0, 1, 0]]), tf.constant([[False, True, False]]),
                                    tf.constant([[0.0, 1.0, 0.0]], tf.float64), np.array([[0.0, 1.0, 0.0]])],
                         ids=["int32", "int64", "list", "np-int", "bool", "float64", "np-float64"])
@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_softmax_cross_entropy_casts_labels_to_the_logits_dtype(labels, dtype):
    # TF casts labels of any dtype to the logits' dtype
    logits = tf.Variable(tf.constant([[2.0, 1.0, 0.1]], dtype))
    with tf.GradientTape() as tape:
        loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    assert loss.dtype == dtype
    p = np.exp([2.0, 1.0, 0.1]) / np.exp([2.0, 1.0, 0.1]).sum()
    np.testing.assert_allclose(loss.numpy(), [-np.log(p[1])], rtol=1e-6)
    np.testing.assert_allclose(tape.gradient(loss, logits).numpy(), [p - [0, 1, 0]], rtol=1e-5, atol=1e-7)


def test_float_labels_still_get_a_gradient_through_the_cast():
    labels = tf.Variable([[0.25, 0.75]], dtype=tf.float64)
    with tf.GradientTape() as tape:
        loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=tf.constant([[1.0, 2.0]]))
    g = tape.gradient(loss, labels)
    assert g.dtype == tf.float64
    np.testing.assert_allclose(g.numpy(), -tf.nn.log_softmax([[1.0, 2.0]]).numpy(), rtol=1e-6)


def test_cross_entropies_reject_integer_logits_naming_the_logits():
    for call in (lambda: tf.nn.softmax_cross_entropy_with_logits(labels=[[1.0, 0.0]], logits=[[2, 1]]),
                 lambda: tf.nn.sigmoid_cross_entropy_with_logits(labels=[1.0, 0.0], logits=tf.constant([1, 2]))):
        with pytest.raises(tf.errors.InvalidArgumentError, match="does not accept a int32 tensor"):
            call()
    with pytest.raises(tf.errors.InvalidArgumentError, match="labels must be int32 or int64 class indices"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1.0], logits=[[1.0, 2.0]])


@pytest.mark.parametrize("act", [tf.nn.relu, tf.nn.relu6, lambda x: tf.nn.leaky_relu(x, 0.2)])
def test_piecewise_linear_second_derivative_is_zeros_not_none(act):
    # TF's ReluGrad/Relu6Grad/LeakyReluGrad gradients return zeros_like(x) for x: connected zeros
    x = tf.constant([-1.0, 0.0, 2.0, 7.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = act(x)
        g = inner.gradient(y, x)
    np.testing.assert_array_equal(outer.gradient(g, x).numpy(), np.zeros(4))
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = act(x)
        g = tape.gradient(y, x)
    np.testing.assert_array_equal(acc.jvp(g).numpy(), np.zeros(4))


# special points produce inf/NaN on purpose (tapegrad silences these warnings; pytest re-enables them)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


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


def test_elu_and_selu_keep_negative_zero():
    for fn in (tf.nn.elu, tf.nn.selu):
        out = fn(tf.constant([-0.0, 0.0, np.nan, -INF])).numpy()
        assert np.signbit(out[0]) and not np.signbit(out[1]) and np.isnan(out[2]) and out[3] < 0


def test_elu_and_selu_compute_exp_minus_one_as_tensorflow_s_kernels():
    # TF's Elu/Selu kernels take exp(x) - 1 (not expm1): just below 0 the result carries exp's
    # rounding near 1, 1.7e-4 relative here (values recorded from TF 2.21); a SELU net follows it
    x = tf.constant([-1e-4, -0.5, -3.0, 2.0], tf.float32)
    # the formula (NumPy's exp in this process: its last bit may differ on other CPUs, as TF's may)
    e = np.exp(x.numpy()[:3]) - np.float32(1)
    np.testing.assert_array_equal(tf.nn.elu(x).numpy()[:3], e)
    np.testing.assert_array_equal(tf.nn.selu(x).numpy()[:3], np.float32(1.7580993408473768599402175208123) * e)
    np.testing.assert_allclose(tf.nn.selu(x).numpy(), [-1.7583910e-04, -6.9175816e-01, -1.6705687e+00, 2.1014020e+00],
                               rtol=2e-7)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.nn.selu(x)
    np.testing.assert_allclose(t.gradient(y, x).numpy(), [1.7579235, 1.0663412, 0.08753061, 1.050701], rtol=2e-7)
