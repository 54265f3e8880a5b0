"""Functions TensorFlow 2.21 dispatches to RaggedTensor versions (ragged_dispatch.ragged_op_list)
that tapegrad had no ragged handler for: elementwise ones act on the flat values (checked against
the dense function there), add_n sums ragged tensors of one partition, and the unsorted segment
reductions take ragged segment ids of the data's partition (values below checked under TF 2.21)."""
import numpy as np
import pytest

import tapegrad as tf

F = tf.ragged.constant([[0.5, 0.25], [0.75]])
G = tf.ragged.constant([[1.5, 2.0], [3.0]])
I = tf.ragged.constant([[1, 2], [3]])

UNARY = [tf.math.log_sigmoid, tf.math.reciprocal_no_nan, tf.math.erfcinv, tf.math.real, tf.math.imag,
         tf.math.conj, tf.math.angle]
BINARY = [tf.realdiv, tf.math.zeta]


@pytest.mark.parametrize("fn", UNARY, ids=lambda f: f.__name__)
def test_unary_acts_on_the_flat_values(fn):
    r = fn(F)
    assert isinstance(r, tf.RaggedTensor) and r.row_splits.numpy().tolist() == [0, 2, 3]
    np.testing.assert_array_equal(r.flat_values.numpy(), fn(F.flat_values).numpy())


@pytest.mark.parametrize("fn", BINARY, ids=lambda f: f.__name__)
def test_binary_acts_on_the_flat_values(fn):
    r = fn(G, F + 1.0)
    np.testing.assert_array_equal(r.flat_values.numpy(), fn(G.flat_values, F.flat_values + 1.0).numpy())


def test_integer_and_scalar_forms():
    assert tf.truncatediv(I, I).to_list() == [[1, 1], [1]] and tf.truncatemod(I, I).to_list() == [[0, 0], [0]]
    assert tf.math.scalar_mul(2.0, F).to_list() == [[1.0, 0.5], [1.5]]
    assert tf.bitcast(I, tf.uint32).to_list() == [[1, 2], [3]]
    assert tf.math.add_n([F, G]).to_list() == [[2.0, 2.25], [3.75]]


def test_unsorted_segments_of_ragged_data():
    ids = tf.ragged.constant([[0, 1], [1]])
    assert tf.math.unsorted_segment_sum(F, ids, 2).numpy().tolist() == [0.5, 1.0]
    assert tf.math.unsorted_segment_max(F, ids, 2).numpy().tolist() == [0.5, 0.75]
    assert tf.math.unsorted_segment_mean(F, ids, 2).numpy().tolist() == [0.5, 0.5]
    np.testing.assert_allclose(tf.math.unsorted_segment_sqrt_n(F, ids, 2).numpy(), [0.5, 0.70710677], rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError, match="same row lengths"):
        tf.math.unsorted_segment_sum(F, tf.ragged.constant([[0], [1, 1]]), 2)


def test_gradients_flow_through_the_values():
    with tf.GradientTape() as tape:
        tape.watch(F.flat_values)
        y = tf.reduce_sum(tf.math.add_n([F, F]).flat_values)
    assert tape.gradient(y, F.flat_values).numpy().tolist() == [2.0, 2.0, 2.0]


def test_reverse_rows_items_and_inner_axes():
    r = tf.ragged.constant([[1, 2, 3], [], [4, 5]])
    assert tf.reverse(r, [0]).to_list() == [[4, 5], [], [1, 2, 3]]
    assert tf.reverse(r, [1]).to_list() == tf.reverse(r, [-1]).to_list() == [[3, 2, 1], [], [5, 4]]
    assert tf.reverse(r, [0, 1]).to_list() == [[5, 4], [], [3, 2, 1]]
    r3 = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    assert tf.reverse(r3, [2]).to_list() == [[[2, 1], [3]], [[6, 5, 4]]]
    assert tf.reverse(r3, [1]).to_list() == [[[3], [1, 2]], [[4, 5, 6]]]
    ri = tf.RaggedTensor.from_row_splits(tf.reshape(tf.range(6), [3, 2]), [0, 2, 3])
    assert tf.reverse(ri, [2]).to_list() == [[[1, 0], [3, 2]], [[5, 4]]]
    with tf.GradientTape() as tape:
        tape.watch(F.flat_values)
        y = tf.reduce_sum(tf.reverse(F, [1]).flat_values * tf.constant([1.0, 2.0, 3.0]))
    assert tape.gradient(y, F.flat_values).numpy().tolist() == [2.0, 1.0, 3.0]
