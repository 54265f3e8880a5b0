"""Segment reductions (tapegrad/ops/segment.py): values, dtypes, ties, NaN and bad ids, as
TensorFlow."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError
from op_helpers import grads


# special points produce inf/NaN on purpose (tapegrad silences these warnings; pytest re-enables them)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


# --------------------------------------------------------------------------- segments
def test_segment_values():
    d = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    ids = tf.constant([0, 0, 2])
    np.testing.assert_array_equal(tf.math.segment_sum(d, ids).numpy(), [[4, 6], [0, 0], [5, 6]])
    np.testing.assert_array_equal(tf.math.segment_mean(d, ids).numpy(), [[2, 3], [0, 0], [5, 6]])
    np.testing.assert_array_equal(tf.math.segment_max(d, ids).numpy(), [[3, 4], [0, 0], [5, 6]])
    lo = np.finfo(np.float32).min
    np.testing.assert_array_equal(tf.math.unsorted_segment_max(d, [2, -1, 2], 3).numpy(),
                                  [[lo, lo], [lo, lo], [5, 6]])
    np.testing.assert_array_equal(tf.math.unsorted_segment_mean(d, [2, -1, 2], 3).numpy(),
                                  [[0, 0], [0, 0], [3, 4]])


def test_segment_integer_dtypes():
    d = tf.constant([1, 2, -5])
    m = tf.math.segment_mean(d, [0, 0, 1])
    assert m.dtype == tf.int32
    np.testing.assert_array_equal(m.numpy(), [1, -5])
    assert tf.math.unsorted_segment_mean(d, [0, 0, 1], 2).dtype == tf.float64
    np.testing.assert_array_equal(tf.math.unsorted_segment_max(d, [0, 0, 1], 3).numpy(),
                                  [2, -5, np.iinfo(np.int32).min])


def test_segment_max_ties_share_gradient():
    g = grads(lambda d: tf.math.segment_max(d, [0, 0, 0, 2]) * [1.0, 2.0, 3.0], np.array([1.0, 3.0, 3.0, 4.0]))
    np.testing.assert_allclose(g[0], [0, 0.5, 0.5, 3])
    g = grads(lambda d: tf.math.unsorted_segment_max(d, [0, 0, -1, 2], 3), np.array([3.0, 3.0, 3.0, 4.0]))
    np.testing.assert_allclose(g[0], [0.5, 0.5, 0, 1])


@pytest.mark.parametrize("values,expect", [([1.0, np.nan, 3.0], 3.0), ([np.nan, 1.0], 1.0), ([1.0, np.nan], np.nan),
                                           ([np.nan], np.nan), ([3.0, np.nan, 1.0], 1.0)])
def test_segment_extremes_treat_nan_as_tf(values, expect):
    # TF's running extreme: a NaN replaces it and the next entry replaces the NaN
    # (so with one entry after the last NaN, max and min agree)
    ids = [0] * len(values)
    x = tf.constant(values)
    for out in (tf.math.segment_max(x, ids), tf.math.unsorted_segment_max(x, ids, 1),
                tf.math.segment_min(x, ids), tf.math.unsorted_segment_min(x, ids, 1)):
        np.testing.assert_array_equal(out.numpy(), [expect])


def test_segment_extremes_nan_per_column_in_data_order():
    x = tf.constant([[1.0, np.nan], [np.nan, 2.0]])
    np.testing.assert_array_equal(tf.math.unsorted_segment_max(x, [0, 0], 1).numpy(), [[np.nan, 2.0]])
    np.testing.assert_array_equal(tf.math.unsorted_segment_max(x, [[0, 0], [0, 0]], 1).numpy(), [2.0])


def test_segment_min():
    d = tf.constant([1.0, 3.0, 3.0, -4.0])
    np.testing.assert_array_equal(tf.math.segment_min(d, [0, 0, 2, 2]).numpy(), [1, 0, -4])
    np.testing.assert_array_equal(tf.math.unsorted_segment_min(tf.constant([1, 2]), [0, 0], 2).numpy(),
                                  [1, np.iinfo(np.int32).max])
    g = grads(lambda t: tf.math.unsorted_segment_min(t, [1, 1, 1, 0], 2) * [1.0, 2.0],
              np.array([3.0, 1.0, 1.0, 0.0]))
    np.testing.assert_allclose(g[0], [0, 1, 1, 1])


@pytest.mark.parametrize("ids,msg", [([0, 2, 1], "not increasing"), ([-1, 0, 1], "out of range"),
                                     ([[0, 0, 1]], "does not start with"), ([0, 0], "does not start with")])
def test_segment_sum_rejects_bad_ids(ids, msg):
    with pytest.raises(InvalidArgumentError, match=msg):
        tf.math.segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant(ids))


def test_segment_ids_must_be_integers():
    with pytest.raises(InvalidArgumentError, match="int32 or int64"):
        tf.math.segment_max(tf.constant([1.0]), tf.constant([0.0]))
    with pytest.raises(InvalidArgumentError, match=r"out of range \[0, 3\)"):
        tf.math.unsorted_segment_max(tf.constant([1.0, 2.0]), [0, 5], 3)


def test_segment_prod_and_sqrt_n():
    x = np.array([2.0, 3.0, 0.0, 4.0, 5.0, 0.0, 7.0])
    ids = [0, 0, 1, 1, 1, 2, -1]
    y, = [tf.math.unsorted_segment_prod(tf.constant(x), ids, 4).numpy()]
    np.testing.assert_array_equal(y, [6, 0, 0, 1])
    g = grads(lambda t: tf.math.unsorted_segment_prod(t, ids, 4), x)[0]
    np.testing.assert_array_equal(g, [3, 2, 20, 0, 0, 1, 0])  # exact at zeros (TF's rule)
    g = grads(lambda t: tf.math.unsorted_segment_prod(t, [0, 0, 0], 1), np.array([0.0, 0.0, 5.0]))[0]
    np.testing.assert_array_equal(g, [0, 0, 0])  # two zeros: every gradient is 0
    np.testing.assert_array_equal(tf.math.segment_prod(tf.constant([2, 3, 4]), [0, 0, 2]).numpy(), [6, 1, 4])
    s = tf.math.unsorted_segment_sqrt_n(tf.constant([2.0, 3.0, 4.0]), [0, 0, -1], 3)
    np.testing.assert_allclose(s.numpy(), [5 / np.sqrt(2), 0, 0], rtol=1e-6)
    with pytest.raises(InvalidArgumentError, match="int32"):
        tf.math.unsorted_segment_sqrt_n(tf.constant([2, 3]), [0, 0], 1)


def test_bincount_confusion_matrix_in_top_k_and_friends_give_tensorflows_numbers():
    # tests/math_linalg_programs.py, recorded under TensorFlow in tests/fixtures/tf_signal_image.npz
    from math_linalg_programs import counting_names
    from test_signal import compare
    compare("counting_names", counting_names(tf))
