"""Behaviour that docs/differences.md states and no other test asserts (the TF programs of
tests/test_tf_programs.py and the area tests cover the rest)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tapegrad as tf


def _grad_of(fn, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x)


@pytest.mark.parametrize("bad, message", [
    (lambda dy: tf.constant([1.0, 2.0]), "shape"),
    (lambda dy: tf.constant(1.0, dtype=tf.float64), "dtype"),
])
def test_custom_gradient_results_are_checked(bad, message):
    @tf.custom_gradient
    def f(x):
        return x * 2.0, bad

    with pytest.raises(ValueError, match=message):
        _grad_of(f, tf.constant(3.0))


def test_lstsq_exact_is_differentiable_and_warns_about_l2_regularizer():
    a = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]], dtype=tf.float64)
    b = tf.constant([[1.0], [2.0], [3.0]], dtype=tf.float64)
    g = _grad_of(lambda m: tf.linalg.lstsq(m, b, fast=False), a)
    assert g is not None and g.shape == a.shape
    with pytest.warns(UserWarning, match="l2_regularizer"):
        tf.linalg.lstsq(a, b, l2_regularizer=0.5, fast=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tf.linalg.lstsq(a, b, fast=False)          # no regulariser, no warning


def test_sort_puts_nan_as_the_largest_value():
    x = tf.constant([3.0, np.nan, 1.0])
    np.testing.assert_array_equal(tf.sort(x).numpy(), [1.0, 3.0, np.nan])
    np.testing.assert_array_equal(tf.sort(x, direction="DESCENDING").numpy(), [np.nan, 3.0, 1.0])


def test_top_k_unsorted_is_still_sorted():
    values = tf.math.top_k(tf.constant([1.0, 5.0, 3.0, 2.0, 4.0]), k=3, sorted=False).values
    np.testing.assert_array_equal(values.numpy(), [5.0, 4.0, 3.0])


def test_list_target_jacobian_error_is_type_and_attribute_error():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y1, y2 = x * x, x * 3.0
    for kind in (TypeError, AttributeError):
        with pytest.raises(kind, match="single target"):
            tape.jacobian([y1, y2], x)


def test_unconnected_gradients_raise_is_a_member():
    assert tf.UnconnectedGradients("raise") is tf.UnconnectedGradients.RAISE
