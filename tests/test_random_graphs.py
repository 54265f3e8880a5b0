"""TensorFlow's graph seeds and kernels for random ops outside eager code: the ``for t in
tf.range(n)`` body of a ``tf.function`` (one kernel per op of the body), the traces of one
signature (one kernel per op for all of them, a replay abandoned at a guard taking its draws
back), and Keras's train step (``random.graph_step``). TensorFlow's numbers for these are in
tests/fixtures/tf_random.npz (programs ``loop_draws``, ``branch_draws``, ``keras_step_draws``,
``samplers_in_function``)."""
import warnings

import numpy as np

import tapegrad as tf


def _stream(seed, n, shape=(2,)):
    """``n`` draws of the kernel with op seed ``seed`` under global seed 5 (its eager stream)."""
    tf.random.set_seed(5)
    return [tf.random.uniform(shape, seed=seed).numpy() for _ in range(n)]


def test_fit_steps_draw_from_graph_kernels():
    draws = []

    class M(tf.keras.Model):
        def train_step(self, data):
            draws.append((tf.random.uniform([2]).numpy(), tf.random.uniform([2]).numpy()))
            return {"loss": tf.constant(0.0)}
    m = M()
    m.compile()
    tf.random.set_seed(5)
    m.fit(np.zeros((12, 1), np.float32), batch_size=4, epochs=1, verbose=0)
    assert len(draws) == 3
    for k in (0, 1):  # the step's k-th op: op seed k, its kernel going on from step to step
        np.testing.assert_array_equal([d[k] for d in draws], _stream(k, 3))
    tf.random.set_seed(None)


def test_one_step_graph_for_every_batch_shape_and_fit_call():
    draws = []

    class M(tf.keras.Model):
        def train_step(self, data):
            draws.append(tf.random.uniform([2]).numpy())
            return {"loss": tf.constant(0.0)}
    m = M()
    m.compile()
    tf.random.set_seed(5)
    m.fit(np.zeros((10, 1), np.float32), batch_size=4, epochs=1, verbose=0)  # 4, 4, then 2 rows
    m.fit(np.zeros((9, 1), np.float32), batch_size=4, epochs=1, verbose=0)  # 4, 4, then 1 row
    # one graph whatever the batch shapes, going on from fit to fit (TF 2.21 and Keras 3 do so)
    np.testing.assert_array_equal(draws, _stream(0, 6))
    tf.random.set_seed(None)


def test_loop_body_ops_are_one_kernel_each_across_iterations_and_traces():
    tf.random.set_seed(5)

    @tf.function
    def f(n):
        out = []
        for _ in tf.range(n):
            out.append(tf.random.uniform([2]))
            out.append(tf.random.uniform([2]))
        return tf.stack(out), tf.random.uniform([2])
    a, b = f(tf.constant(2))
    c, d = f(tf.constant(1))  # a shape guard misses: traced again, sharing the kernels
    first, second = _stream(0, 3), _stream(1, 3)
    np.testing.assert_array_equal(np.concatenate([a, c]), [first[0], second[0], first[1], second[1],
                                                            first[2], second[2]])
    # after the loop: the function's op seed 0 (the body's ops took none of its seeds), own kernel
    np.testing.assert_array_equal([b, d], first[:2])
    tf.random.set_seed(None)


def test_a_replay_that_misses_a_guard_takes_its_draws_back():
    tf.random.set_seed(5)

    @tf.function
    def f(x):
        u = tf.random.uniform([2])
        if x > 0:
            return u
        return -u
    got = [np.abs(f(tf.constant(v)).numpy()) for v in (1.0, -1.0, 1.0, -1.0)]
    np.testing.assert_array_equal(got, _stream(0, 4))
    tf.random.set_seed(None)


def test_a_function_that_runs_eagerly_draws_as_its_graph_would():
    # TF runs a tf.function as a graph whatever Python it holds: a function tapegrad cannot replay
    # (here: a Python `if` on a stateful numpy_function's result) runs eagerly, but its random ops
    # keep the graph's op seeds and kernels, loop bodies included
    def body(x, escape):
        out = []
        for _ in tf.range(3):
            out.append(tf.random.uniform([2]))
        r = tf.numpy_function(lambda a: np.float32(a), [x], tf.float32)
        if escape and r > 100.0:
            out.append(r)
        return tf.stack(out) + tf.random.normal([2])

    draws = {}
    for escape in (False, True):
        tf.random.set_seed(7)
        f = tf.function(lambda x, e=escape: body(x, e))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            draws[escape] = [f(tf.constant(1.0)).numpy() for _ in range(3)]
    for a, b in zip(draws[False], draws[True]):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(draws[True][0], draws[True][1])  # kernels move on between calls
