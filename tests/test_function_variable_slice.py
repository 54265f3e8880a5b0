"""A slice of a Variable read inside a tf.function (``v[0]``, ``kernel[:, :4]``, as recurrent
cells read their gates) is read again on each replay, not kept as the value of the trace."""
import numpy as np

import tapegrad as tf


def test_a_replay_reads_a_variable_s_slice_again():
    v = tf.Variable(np.ones((2, 3), np.float32))

    @tf.function
    def f(x):
        return x * v[0] + v[1], tf.matmul(x * tf.ones((1, 2)), v[:, :2])

    a, b = f(tf.constant(1.0))
    np.testing.assert_array_equal(a.numpy(), [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(b.numpy(), [[2.0, 2.0]])
    v.assign(np.arange(6, dtype=np.float32).reshape(2, 3))
    a, b = f(tf.constant(1.0))
    np.testing.assert_array_equal(a.numpy(), [3.0, 5.0, 7.0])
    np.testing.assert_array_equal(b.numpy(), [[3.0, 5.0]])
    assert f.experimental_get_tracing_count() == 1


def test_a_slice_read_still_writes_its_part_of_the_variable():
    v = tf.Variable(np.zeros((2, 3), np.float32))
    s = v[1, 1:]
    s.assign([1.0, 2.0])
    np.testing.assert_array_equal(v.numpy(), [[0, 0, 0], [0, 1, 2]])
    np.testing.assert_array_equal(s.numpy(), [0.0, 0.0])   # (the value it was read with)
