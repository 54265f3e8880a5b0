"""Elementwise math (tapegrad/ops/math.py): where, clipping by norm, polyval and add_n against
NumPy, TensorFlow's conventions, batched (Jacobian) rules and errors."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError
from op_helpers import grads, jacobians_agree, normal_tensor, tape_gradient


# special points produce inf/NaN on purpose (tapegrad silences these warnings; pytest re-enables them)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def test_polyval():
    x = tf.constant([2.0, -1.0])
    np.testing.assert_array_equal(tf.math.polyval([1.0, 2.0, 3.0], x).numpy(), [11, 2])
    np.testing.assert_array_equal(tf.math.polyval([], x).numpy(), [0, 0])
    assert tf.math.polyval([1, 2], tf.constant(3)).numpy() == 5
    x64 = tf.constant(3.0, tf.float64)
    assert tf.math.polyval([1.0, 2.0], x64).dtype == tf.float64  # Python numbers take x's dtype
    with pytest.raises(ValueError, match="list"):
        tf.math.polyval(tf.constant([1.0, 2.0]), x)


def test_add_n():
    a, b = np.array([1.0, 2.0]), np.array([3.0, 4.0])
    np.testing.assert_array_equal(tf.add_n([tf.constant(a), tf.constant(b), tf.constant(a)]).numpy(), 2 * a + b)
    one = tf.constant(a)
    assert tf.add_n([one]) is one
    assert tf.add_n([1.0, 2.0]).numpy() == 3.0
    s = tf.IndexedSlices(tf.constant([[1.0]]), tf.constant([0]), tf.constant([2, 1]))
    np.testing.assert_array_equal(tf.add_n([s, tf.constant([[1.0], [2.0]])]).numpy(), [[2], [2]])
    ga, gb = grads(lambda x, y: tf.add_n([x, y, x]), a, b)
    np.testing.assert_array_equal(ga, [2, 2])
    np.testing.assert_array_equal(gb, [1, 1])
    with pytest.raises(ValueError, match="at least one"):
        tf.add_n([])
    with pytest.raises(InvalidArgumentError, match="same size and shape"):
        tf.add_n([tf.constant([1.0, 2.0]), tf.constant(1.0)])
    with pytest.raises(InvalidArgumentError, match="int32"):
        tf.add_n([tf.constant([1.0]), tf.constant([1])])



def test_where_one_argument():
    out = tf.where(tf.constant([[True, False], [False, True]]))
    assert out.dtype == tf.int64
    np.testing.assert_array_equal(out.numpy(), [[0, 0], [1, 1]])


def test_clip_by_norm_values_and_indexed_slices():
    x = tf.constant([[3.0, 4.0], [0.0, 0.5]])
    np.testing.assert_allclose(tf.clip_by_norm(x, 1.0, axes=[1]).numpy(), [[0.6, 0.8], [0, 0.5]], rtol=1e-6)
    np.testing.assert_allclose(tf.clip_by_norm(x, 10.0).numpy(), x.numpy())
    s = tf.IndexedSlices(tf.constant([[3.0, 4.0]]), tf.constant([1]), tf.constant([3, 2]))
    r = tf.clip_by_norm(s, 1.0)
    assert isinstance(r, tf.IndexedSlices) and r.indices is s.indices
    (g,) = tape_gradient(lambda x: tf.clip_by_norm(x, 1.0), tf.zeros([3]))
    np.testing.assert_array_equal(g.numpy(), [1, 1, 1])


def test_clip_by_global_norm_structure_and_values():
    a, b = tf.constant([3.0]), tf.constant([[4.0]])
    out, n = tf.clip_by_global_norm((a, None, b), 1.0)
    assert isinstance(out, list) and out[1] is None
    np.testing.assert_allclose([out[0].numpy()[0], out[2].numpy()[0, 0], n.numpy()], [0.6, 0.8, 5.0], rtol=1e-6)
    out2, n2 = tf.clip_by_global_norm([a], 1.0, use_norm=10.0)
    np.testing.assert_allclose(out2[0].numpy(), [0.3], rtol=1e-6)
    with pytest.raises(TypeError, match="sequence"):
        tf.clip_by_global_norm(a, 1.0)
    jacobians_agree(lambda x: tf.stack(tf.clip_by_global_norm([x, x * x], 1.0)[0]), normal_tensor((3,)))


def test_clip_by_norm_batched_rules():
    jacobians_agree(lambda x: tf.clip_by_norm(x, 0.5, axes=[1]), normal_tensor((2, 3)))
    jacobians_agree(lambda x: tf.norm(x, ord=3, axis=0), normal_tensor((2, 3)))
    jacobians_agree(lambda x: tf.norm(x, ord=np.inf, axis=[1, 0]), normal_tensor((2, 3)))
