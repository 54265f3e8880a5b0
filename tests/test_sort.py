"""Sorting (tapegrad/ops/sort.py): sort, argsort and top_k values, gradients and errors."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError
from op_helpers import grads


# special points produce inf/NaN on purpose (tapegrad silences these warnings; pytest re-enables them)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


# --------------------------------------------------------------------------- sorting
def test_sort_and_argsort_values():
    x = np.array([[3.0, 1.0, 2.0, 1.0], [0.5, -1.0, 7.0, 0.5]])
    np.testing.assert_array_equal(tf.sort(tf.constant(x)).numpy(), np.sort(x))
    np.testing.assert_array_equal(tf.sort(tf.constant(x), direction="DESCENDING").numpy(), -np.sort(-x))
    np.testing.assert_array_equal(tf.sort(tf.constant(x), axis=0).numpy(), np.sort(x, axis=0))
    np.testing.assert_array_equal(tf.argsort(tf.constant(x)).numpy(), np.argsort(x, kind="stable"))
    # descending ties keep index order, as TF's top_k
    np.testing.assert_array_equal(tf.argsort(tf.constant([1.0, 2.0, 1.0, 2.0]), direction="DESCENDING").numpy(),
                                  [1, 3, 0, 2])
    assert tf.argsort(tf.constant(x)).dtype == tf.int32
    u = tf.constant([3, 1, 2, 0], tf.uint8)
    np.testing.assert_array_equal(tf.sort(u, direction="DESCENDING").numpy(), [3, 2, 1, 0])
    np.testing.assert_array_equal(tf.argsort(tf.constant([3, 1, 2, -2**31])).numpy(), [3, 1, 2, 0])


def test_sort_gradient_is_a_permutation():
    x = tf.constant([3.0, 1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sort(x, direction="DESCENDING")
    np.testing.assert_array_equal(tape.jacobian(y, x).numpy(), [[1, 0, 0], [0, 0, 1], [0, 1, 0]])


def test_top_k():
    x = tf.constant([[1.0, 3.0, 3.0, 2.0], [np.nan, 0.0, 5.0, 1.0]])
    r = tf.math.top_k(x, k=2)
    v, i = r
    assert r.values is v and r.indices is i
    np.testing.assert_array_equal(v.numpy(), [[3, 3], [np.nan, 5]])
    np.testing.assert_array_equal(i.numpy(), [[1, 2], [0, 2]])
    assert i.dtype == tf.int32
    assert tf.math.top_k(x, 1, index_type=tf.int64).indices.dtype == tf.int64
    assert tf.nn.top_k(x, k=tf.constant(0)).values.shape == (2, 0)
    g = grads(lambda t: tf.math.top_k(t, 2).values * [1.0, 2.0], np.array([1.0, 3.0, 3.0, 2.0]))
    np.testing.assert_array_equal(g[0], [0, 1, 2, 0])


@pytest.mark.parametrize("call,exc,msg", [
    (lambda: tf.math.top_k(tf.constant([1.0, 3.0]), k=3), InvalidArgumentError, "at least k columns"),
    (lambda: tf.math.top_k(tf.constant([1.0, 3.0]), k=-1), InvalidArgumentError, "k >= 0"),
    (lambda: tf.math.top_k(tf.constant(1.0)), InvalidArgumentError, ">= 1-D"),
    (lambda: tf.math.top_k(tf.constant([True])), InvalidArgumentError, "bool"),
    (lambda: tf.sort(tf.constant([1j])), InvalidArgumentError, "complex128"),
    (lambda: tf.sort(tf.constant([1.0]), direction="UP"), ValueError, "ASCENDING, DESCENDING"),
    (lambda: tf.sort(tf.constant([1.0]), axis=1), InvalidArgumentError, "out of range"),
    (lambda: tf.argsort(tf.constant(1.0)), InvalidArgumentError, ">= 1-D"),
])
def test_sort_errors(call, exc, msg):
    with pytest.raises(exc, match=msg):
        call()


def test_approx_k_work_where_tensorflows_cpu_kernel_is_missing():
    # TF: NotFoundError for approx_min_k and for another axis than the last (docs/differences.md)
    x = tf.constant([[4.0, 1.0], [2.0, 3.0], [0.0, 5.0]])
    v, i = tf.math.approx_min_k(x, 2, reduction_dimension=0)
    np.testing.assert_array_equal(v.numpy(), [[0.0, 1.0], [2.0, 3.0]])
    np.testing.assert_array_equal(i.numpy(), [[2, 0], [1, 1]])
    tf.test.check_grads(lambda t: tf.math.approx_max_k(t, 1, reduction_dimension=0)[0],
                        [tf.constant([[4.0, 1.0], [2.0, 3.0]], tf.float64)], order=2)
