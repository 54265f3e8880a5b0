"""tf.TensorArray against TensorFlow 2.21's recorded results (values, gradients through
write → stack and unstack → read, error types), and its error messages."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from cf_encoding import compare, recorded, run
from cf_programs import PROGRAMS

TF = recorded()
NAMES = [n for n in PROGRAMS if n.startswith("tensor_array_")]


@pytest.mark.parametrize("name", NAMES)
def test_matches_tensorflow(name):
    compare(TF[name], run(PROGRAMS[name], tf))


def test_write_returns_the_array_and_repr_says_what_it_holds():
    ta = tf.TensorArray(tf.float32, size=2)
    assert ta.write(0, [1.0, 2.0]) is ta and ta.identity() is ta
    assert repr(ta) == "<tapegrad.TensorArray: dtype=float32, size=2, element_shape=(2,)>"
    ta.close()
    assert int(ta.size()) == 0


def test_errors_say_how_to_fix_them():
    with pytest.raises(tf.errors.OutOfRangeError, match="dynamic_size=True"):
        tf.TensorArray(tf.float32, size=1).write(1, 0.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cast the value with tf.cast"):
        tf.TensorArray(tf.float32, size=1).write(0, tf.constant(1))
    with pytest.raises(ValueError, match="infer_shape=False"):
        tf.TensorArray(tf.float32, size=2).write(0, [1.0]).write(1, [1.0, 2.0])
    with pytest.raises(ValueError, match="make the TensorArray with element_shape="):
        tf.TensorArray(tf.float32, size=2).stack()
    with pytest.raises(tf.errors.InvalidArgumentError, match="clear_after_read"):
        ta = tf.TensorArray(tf.float32, size=1).write(0, 1.0)
        ta.read(0)
        ta.read(0)


def test_gradient_of_a_variable_written_in_a_loop():
    w = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        ta = tf.TensorArray(tf.float32, size=3)
        h = tf.zeros(2)
        for i in range(3):
            h = tf.tanh(h + w)
            ta = ta.write(i, h)
        y = tf.reduce_sum(ta.stack())
    g = tape.gradient(y, w).numpy()
    eps = 1e-3
    def f(wv):
        h, s = np.zeros(2), 0.0
        for _ in range(3):
            h = np.tanh(h + wv)
            s = s + h
        return s.sum()
    num = [(f(w.numpy().astype(float) + eps * e) - f(w.numpy().astype(float) - eps * e)) / (2 * eps)
           for e in np.eye(2)]
    np.testing.assert_allclose(g, num, rtol=1e-4)
