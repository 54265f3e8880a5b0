"""tf.py_function, tf.numpy_function and the small eager names (identity_n, ensure_shape,
get_static_value, is_tensor, executing_eagerly, no_op, group, control_dependencies) against
TensorFlow 2.21's recorded results, and where tapegrad deliberately differs."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tapegrad as tf
from cf_encoding import compare, recorded, run
from cf_programs import PROGRAMS

TF = recorded()
NAMES = [n for n in PROGRAMS if n.startswith(("py_function_", "numpy_function_", "identity_n_",
                                              "ensure_shape_", "control_dependencies_"))]


@pytest.mark.parametrize("name", NAMES)
def test_matches_tensorflow(name):
    compare(TF[name], run(PROGRAMS[name], tf))


def test_py_function_receives_tensors_and_works_as_a_decorator():
    seen = []

    @tf.py_function(Tout=tf.float32)
    def f(a, b):
        seen.append((type(a), type(b)))
        return a * b

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x, 2.0)
    assert seen == [(tf.Tensor, tf.Tensor)] and float(y) == 6.0
    assert float(tape.gradient(y, x)) == 2.0


def test_py_function_gives_gradients_to_variables_it_reads():
    # TensorFlow gives None here (its py_function differentiates only w.r.t. inp); see differences.md
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.py_function(lambda a: a * v ** 2, [tf.constant(3.0)], tf.float32)
    assert float(tape.gradient(y, v)) == 12.0


def test_py_function_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cast it inside func"):
        tf.py_function(lambda a: a, [tf.constant(1.0)], tf.float64)
    with pytest.raises(ValueError, match="returned 2 value.s. but Tout has 1"):
        tf.py_function(lambda a: (a, a), [tf.constant(1.0)], [tf.float32])
    with pytest.raises(TypeError, match=r"pass \[x\]"):
        tf.py_function(lambda a: a, tf.constant(1.0), tf.float32)
    with pytest.raises(ValueError, match="Expected func to be callable"):
        tf.py_function(3, [1.0], tf.float32)
    with pytest.raises(RuntimeError, match="read_value"):
        tf.py_function(lambda a: tf.Variable(1.0), [1.0], tf.float32)


def test_numpy_function_receives_arrays_and_gives_no_gradient():
    seen = []

    @tf.numpy_function(Tout=tf.float32)
    def f(a):
        seen.append(type(a))
        return np.sinh(a)

    x = tf.constant([0.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert seen == [np.ndarray]
    np.testing.assert_allclose(y.numpy(), np.sinh(0.5), rtol=1e-6)
    assert tape.gradient(y, x) is None


def test_numpy_function_in_a_tf_function_runs_at_every_call_without_falling_back():
    calls = []

    def env_step(action):  # a stateful Python function, as an RL environment's step
        calls.append(int(action))
        return np.float32(len(calls) * action), np.int32(len(calls))

    @tf.function
    def f(a):
        reward, n = tf.numpy_function(env_step, [a], (tf.float32, tf.int32))
        return reward * 2.0, n

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback warning
        got = [f(tf.constant(1.0)) for _ in range(3)] + [f(tf.constant(2.0))]
    assert [float(r) for r, _ in got] == [2.0, 4.0, 6.0, 16.0]
    assert [int(n) for _, n in got] == [1, 2, 3, 4]
    assert calls == [1, 1, 1, 2] and f.experimental_get_tracing_count() == 1


def test_numpy_function_in_a_tf_function_must_keep_its_result_dtypes():
    flip = iter([np.float32(1.0), np.int32(1)])

    @tf.function
    def f(a):
        return tf.numpy_function(lambda _: next(flip), [a], tf.float32)

    f(tf.constant(0.0))
    with pytest.raises(tf.errors.InvalidArgumentError, match="same dtypes and ranks"):
        f(tf.constant(0.0))


def test_a_guard_after_a_stateful_numpy_function_runs_the_function_eagerly_never_twice():
    calls = []

    def env_step(a):
        calls.append(1)
        return np.float32(len(calls))

    @tf.function
    def f(a):
        r = tf.numpy_function(env_step, [a], tf.float32)
        if r > 2.0:  # a Python `if` on the result: a retrace on a miss would step again
            return r * 10.0
        return r

    with pytest.warns(UserWarning, match="runs eagerly.*stateful tf.numpy_function"):
        got = [float(f(tf.constant(0.0))) for _ in range(4)]
    assert got == [1.0, 2.0, 30.0, 40.0] and len(calls) == 4


def test_numpy_function_hands_scalars_as_a_graph_does():
    # TensorFlow 2.21 (run on these calls): eagerly 0-d arrays; in a tf.function or a
    # Dataset.map function (graphs) a scalar is a NumPy scalar, a string scalar bytes
    import numpy as np
    seen = []

    def f(s, x):
        seen.append((type(s).__name__, type(x).__name__))
        return np.float32(0)

    tf.numpy_function(f, [tf.constant(b"a"), tf.constant(1)], tf.float32)
    list(tf.data.Dataset.from_tensor_slices(([b"p"], [2])).map(
        lambda a, b: tf.numpy_function(f, [a, b], tf.float32)))
    g = tf.function(lambda a, b: tf.numpy_function(f, [a, b], tf.float32))
    g(tf.constant(b"z"), tf.constant(2.0))
    g(tf.constant(b"z"), tf.constant(2.0))
    assert seen == [("ndarray", "ndarray"), ("bytes", "int32"), ("bytes", "float32"), ("bytes", "float32")]
