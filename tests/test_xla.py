"""``tensorflow.compiler.tf2xla.python.xla``'s dynamic slices (values checked against TF 2.21:
XLA clamps each start so that the block lies inside the operand)."""
import numpy as np
import pytest

import tapegrad as tf


def test_the_module_imports_under_tensorflow_s_path():
    from tapegrad import _xla as ours
    with tf.install_as_tensorflow():
        from tensorflow.compiler.tf2xla.python import xla   # (the forward-forward example)
    assert xla.dynamic_update_slice is ours.dynamic_update_slice


@pytest.mark.parametrize("start,want", [([4], [0, 0, 0, 1, 1]), ([-3], [1, 1, 0, 0, 0]), ([1], [0, 1, 1, 0, 0])])
def test_dynamic_update_slice_clamps_its_start_as_xla(start, want):
    from tapegrad import _xla as xla
    got = xla.dynamic_update_slice(tf.zeros([5]), tf.ones([2]), [tf.constant(s) for s in start])
    assert got.numpy().tolist() == want


def test_dynamic_slice_and_gradients_through_operand_and_update():
    from tapegrad import _xla as xla
    assert xla.dynamic_slice(tf.range(10), [tf.constant(7)], [4]).numpy().tolist() == [6, 7, 8, 9]
    m = tf.Variable(np.arange(12, dtype=np.float32).reshape(3, 4))
    u = tf.Variable(np.full((1, 4), 5.0, np.float32))
    with tf.GradientTape() as t:
        y = xla.dynamic_update_slice(m * 2.0, u * 3.0, [tf.constant(1), 0])
        loss = tf.reduce_sum(y * y)
    gm, gu = t.gradient(loss, [m, u])
    expect = 8.0 * m.numpy()
    expect[1] = 0.0   # (overwritten)
    np.testing.assert_allclose(gm.numpy(), expect)
    np.testing.assert_allclose(gu.numpy(), np.full((1, 4), 90.0))
    with pytest.raises(ValueError, match="start indices"):
        xla.dynamic_update_slice(tf.zeros([2, 2]), tf.ones([1, 1]), [0])
