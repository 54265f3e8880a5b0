"""tf.cond, case, switch_case, while_loop, map_fn, vectorized_map, scan, foldl, foldr against
TensorFlow 2.21's recorded results (values, gradients w.r.t. inputs and captured variables, and
error types), and tapegrad's own behaviour where it deliberately differs."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from cf_encoding import compare, recorded, run
from cf_programs import PROGRAMS

TF = recorded()
PREFIXES = ("cond_", "case_", "switch_case_", "while_loop_", "map_fn_", "vectorized_map_", "scan_",
            "foldl_", "foldr_")
NAMES = [n for n in PROGRAMS if n.startswith(PREFIXES)]


def test_every_program_has_a_recorded_result():
    assert set(PROGRAMS) == set(TF)


@pytest.mark.parametrize("name", NAMES)
def test_matches_tensorflow(name):
    compare(TF[name], run(PROGRAMS[name], tf))


# ---------------------------------------------------------------------------- errors say what was wrong
def test_cond_errors_name_the_argument():
    with pytest.raises(TypeError, match="'true_fn' argument required"):
        tf.cond(True, None, lambda: 1.0)
    with pytest.raises(TypeError, match="'false_fn' must be callable, got int"):
        tf.cond(True, lambda: 1.0, 2)
    with pytest.raises(ValueError, match=r"tf.cond's pred must be a scalar .* shape \[2\]"):
        tf.cond(tf.constant([True, False]), lambda: 1.0, lambda: 2.0)


def test_while_loop_structure_error_shows_both_structures():
    with pytest.raises(ValueError, match=r"same nested structure as \[int32\[\], float32\[\]\], "
                                         r"but returned \[int32\[\], float32\[\], float32\[\]\]"):
        tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v, v), (tf.constant(0), tf.constant(1.0)))


def test_map_fn_structure_error_suggests_the_signature():
    with pytest.raises(ValueError, match="pass fn_output_signature="):
        tf.map_fn(lambda r: (r, r), tf.ones([2, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32, but float32 was expected"):
        tf.map_fn(lambda r: tf.cast(r, tf.int32), tf.ones([2, 2]))


# ---------------------------------------------------------------------------- beyond TF's eager mode
def test_while_loop_single_tensor_loop_var_is_returned_unwrapped():
    # TF's eager while_loop fails here ("Scalar tensor has no len()"); tf.function's returns a tensor
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.while_loop(lambda v: v < 20, lambda v: v * 2, x)
    assert isinstance(y, tf.Tensor) and float(y) == 24.0
    assert float(tape.gradient(y, x)) == 8.0
    assert float(tf.while_loop(lambda v: v < 100, lambda v: v * 2, x, maximum_iterations=2)) == 12.0


def test_while_loop_one_item_list_accepts_a_bare_body_result():
    out = tf.while_loop(lambda v: v < 10, lambda v: v + 1, [tf.constant(3.0)])
    assert isinstance(out, list) and float(out[0]) == 10.0


def test_while_loop_reads_variables_in_loop_vars_once():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        (y,) = tf.while_loop(lambda a: a < 10, lambda a: [a * a], [v])
    assert float(y) == 16.0 and float(tape.gradient(y, v)) == 32.0  # d(v^4)/dv


def test_forward_mode_and_jacobian_through_loops():
    x = tf.constant([0.5, -1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0, 0.0])) as acc:
        y = tf.scan(lambda a, e: a * 0.5 + tf.sin(e), x)
    np.testing.assert_allclose(acc.jvp(y).numpy(), [1.0, 0.5, 0.25], rtol=1e-6)  # y0 = x0 (no initializer)
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = tf.map_fn(lambda e: e ** 3, x)
    np.testing.assert_allclose(tape.jacobian(z, x).numpy(), np.diag(3 * x.numpy() ** 2), rtol=1e-6)


def test_vectorized_map_equals_map_fn_and_keeps_none():
    x = tf.random.normal([5, 3], seed=1)
    a = tf.vectorized_map(lambda r: tf.reduce_sum(tf.exp(r)), x)
    b = tf.map_fn(lambda r: tf.reduce_sum(tf.exp(r)), x)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert tf.vectorized_map(lambda r: None, x) is None


def test_executing_eagerly_is_false_while_a_function_is_traced():
    seen = []

    @tf.function
    def f(x):
        seen.append(tf.executing_eagerly())
        return x * 2

    assert tf.executing_eagerly()
    f(tf.constant(1.0))
    assert seen[0] is False and tf.executing_eagerly()
