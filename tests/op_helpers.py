"""Helpers shared by the op tests (tests/test_<family>.py)."""
import numpy as np

import tapegrad as tf

RNG = np.random.default_rng(7)


def normal_tensor(shape, dtype=np.float64):
    return tf.constant(RNG.standard_normal(shape).astype(dtype))


def tape_gradient(fn, *xs, seed=None):
    with tf.GradientTape() as tape:
        tape.watch(list(xs))
        y = fn(*xs)
    return tape.gradient(y, list(xs), output_gradients=seed)


def grads(f, *xs):
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
    return [None if g is None else tf.convert_to_tensor(g).numpy() for g in tape.gradient(y, xs)]


def value_and_grads(fn, *xs, seed=None):
    ts = [tf.constant(x) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(ts)
        y = fn(*ts)
        loss = tf.reduce_sum(y * seed) if seed is not None else tf.reduce_sum(y)
    return y.numpy(), [g.numpy() for g in tape.gradient(loss, ts)]


def jacobians_agree(fn, *xs):
    """The batched Jacobian walk (every rule sees a leading batch axis) equals the row loop,
    for the Jacobian and for the Jacobian of the gradient (batch axes at second order)."""
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(list(xs))
        y = fn(*xs)
    fast = tape.jacobian(y, list(xs))
    slow = tape.jacobian(y, list(xs), experimental_use_pfor=False)
    for a, b in zip(fast, slow):
        np.testing.assert_allclose(np.asarray(tf.convert_to_tensor(a)), np.asarray(tf.convert_to_tensor(b)),
                                   rtol=1e-12, atol=1e-12)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(list(xs))
        with tf.GradientTape() as inner:
            inner.watch(list(xs))
            s = tf.reduce_sum(fn(*xs) ** 2)
        gs = [tf.convert_to_tensor(g) for g in inner.gradient(s, list(xs))]
    for g in gs:
        fast = outer.jacobian(g, list(xs), unconnected_gradients="zero")
        slow = outer.jacobian(g, list(xs), unconnected_gradients="zero", experimental_use_pfor=False)
        for a, b in zip(fast, slow):
            np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-10, atol=1e-10)
