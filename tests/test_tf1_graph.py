"""TF1 graph mode (tapegrad.compat._program, _train, _losses, _v1names): the programs of
tests/tf1_graph_cases.py against TensorFlow's results recorded by tools/record_tf1_graph.py
(tests/fixtures/tf1_graph.json). Numbers are float32 computations of a few ops, or of 4 steps of
an optimizer (each step a handful of float32 ops whose rounding may differ from TF's kernels in
the last bit), so floats are compared to 2e-5 relative (2e-6 absolute near 0); names, error
types and integers exactly."""
import json
import math
import os

import numpy as np
import pytest

import tapegrad as tf

import tf1_graph_cases as cases

tf1 = tf.compat.v1
REC = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "tf1_graph.json")))


def same(got, want, path="") -> None:
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), path
        for k in want:
            same(got[k], want[k], f"{path}/{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (path, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            same(g, w, f"{path}[{i}]")
    elif isinstance(want, float) and not isinstance(want, bool):
        assert isinstance(got, (float, int)) and not isinstance(got, bool), (path, got)
        assert math.isclose(got, want, rel_tol=2e-5, abs_tol=2e-6), (path, got, want)
    else:
        assert got == want, (path, got, want)


@pytest.mark.parametrize("name", ["placeholders_and_feeds", "counters_and_dependencies", "graph_optimizers",
                                  "eager_optimizers", "decays", "v1_losses", "v1_nn_and_initializers",
                                  "migration_debugging", "creator_scopes", "v1_as_tf",
                                  "keras_layer_in_graph", "v1_saved_model", "v1_meta_graph"])
def test_tf1_program_as_tensorflow(name):
    same(getattr(cases, name)(tf, tf1), REC[name], name)


def test_disable_eager_execution_as_tensorflow():
    try:
        same(cases.disabled_eager(tf, tf1), REC["disabled_eager"], "disabled_eager")
    finally:
        tf1.enable_eager_execution()
        tf1.reset_default_graph()
    assert tf.executing_eagerly()
    assert float(tf.constant(2.0) * 3.0) == 6.0  # (ops run eagerly again)


def _run_resized(build):
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None, 4])
        y = build(x)
        with tf1.Session() as sess:
            same_size = sess.run(y, {x: np.ones((1, 4), np.float32)})
            return same_size, sess.run(y, {x: np.arange(12, dtype=np.float32).reshape(3, 4)})


def test_steps_follow_fed_sizes():
    """Ops, reductions, tf.shape and v1 dropout run on the fed sizes, not the stand-in's (1)."""
    _, got = _run_resized(lambda x: tf.reduce_sum(tf.nn.softmax(x), axis=1) * tf.cast(tf.shape(x)[0], tf.float32))
    np.testing.assert_allclose(got, [3.0, 3.0, 3.0], rtol=1e-6)
    _, got = _run_resized(lambda x: tf1.nn.dropout(x + 1.0, keep_prob=0.5))
    assert got.shape == (3, 4) and set(np.unique(got / (np.arange(12).reshape(3, 4) + 1.0) / 2.0)) <= {0.0, 1.0}


@pytest.mark.parametrize("build, error, match", [
    (lambda x: tf.ones_like(x) + x, NotImplementedError, "tf.ones_like"),
    (lambda x: tf.fill(tf.shape(x), 2.0), NotImplementedError, "read into Python when the graph was built"),
    (lambda x: tf.reshape(x, [-1, 2, 2]), tf.errors.InvalidArgumentError, "cannot reshape"),
])
def test_a_size_fixed_when_built_raises_at_a_resized_run(build, error, match):
    with pytest.raises(error, match=match) as info:
        _run_resized(build)
    assert "stand-in" in str(info.value) + "".join(getattr(info.value, "__notes__", []))


def test_session_errors_and_build_time_isolation():
    with tf.Graph().as_default():
        v = tf.Variable(1.0)
        step = v.assign_add(1.0)
        op = tf.group(step)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            with pytest.raises(TypeError, match="feed_dict key"):
                sess.run(step, {tf.constant(1.0): 2.0})
            with pytest.raises(NotImplementedError, match="resource handle"):
                sess.run("Variable:0")
            op.run()  # (in the default session: the `with` block's)
            assert float((v * 2.0).eval()) == 4.0 and float(v.read_value().eval(session=sess)) == 2.0
            assert float(sess.run(v)) == 2.0 and sess.run(op) is None and float(sess.run(v)) == 3.0
            sess.run(v.initializer)
            assert float(sess.run(v)) == 1.0 and not tf.executing_eagerly()
        with pytest.raises(ValueError, match="No default session"):
            op.run()
        other = tf1.Session()
        op.run(session=other)
        with other.as_default():
            op.run()
        assert float(other.run(v)) == 3.0
    assert tf.executing_eagerly() and float(tf.constant(1.0) + 1.0) == 2.0
    assert tf.Variable(1.0).initializer is None
    with pytest.raises(NotImplementedError, match="numpy"):
        tf.constant(1.0).eval()


def test_python_steps_in_a_graph_raise():
    """A Keras optimizer's update is a Python step of a trace, which a TF1 graph cannot defer."""
    with tf.Graph().as_default():
        v = tf.Variable(1.0)
        with pytest.raises(NotImplementedError, match="tf.compat.v1.train's optimizers"):
            tf.keras.optimizers.SGD(0.1).apply_gradients([(tf.constant(1.0), v)])


def test_a_constant_computed_from_stand_in_values_raises():
    """in_top_k computes its result outside the ops (a constant of the values it was given): in a
    graph it holds the stand-ins' result, so the run refuses it, as tf.function runs it eagerly."""
    with tf.Graph().as_default():
        p = tf1.placeholder(tf.float32, [None, 3])
        t = tf1.placeholder(tf.int32, [None])
        y = tf.math.in_top_k(t, p, 1)
        with tf1.Session() as sess, pytest.raises(NotImplementedError, match="in_top_k"):
            sess.run(y, {p: [[0.1, 0.9, 0.0], [0.8, 0.1, 0.1]], t: [1, 2]})


def test_building_an_assign_runs_nothing_until_the_session_runs_it():
    # TF1: an op built after the initializer ran leaves the variable as it is (the Mandelbrot
    # tutorial builds its step between runs of an InteractiveSession); Variable.eval reads it
    tf1 = tf.compat.v1
    with tf.Graph().as_default():
        w = tf.Variable(2.0)
        sess = tf1.InteractiveSession()
        sess.run(tf1.global_variables_initializer())
        step = w.assign_add(1.0)
        assert w.eval() == 2.0
        assert sess.run(step) == 3.0 and w.eval() == 3.0
        sess.close()
    with pytest.raises(RuntimeError, match="not supported when eager execution is enabled"):
        tf.Variable(1.0).eval()
