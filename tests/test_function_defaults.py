"""A tf.function with an input_signature called without a parameter that has a default: the
default fills it and the signature's spec converts it (TensorFlow's canonicalization), as
TensorFlow's DeepDream tutorial calls ``TiledGradients(img, size)`` with ``tile_size=512``."""
import numpy as np
import pytest

import tapegrad as tf


class Scale(tf.Module):
    @tf.function(input_signature=(tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)))
    def __call__(self, x, n=3):
        return x * tf.cast(n, tf.float32), n.dtype


def test_default_fills_a_signature_entry():
    m = Scale()
    out, dtype = m(tf.constant([1.0, 2.0]))
    np.testing.assert_array_equal(out.numpy(), [3.0, 6.0])
    assert dtype == tf.int32   # (the default, converted by the spec)
    np.testing.assert_array_equal(m(tf.constant([1.0]), 2)[0].numpy(), [2.0])
    np.testing.assert_array_equal(m(x=tf.constant([1.0]))[0].numpy(), [3.0])


def test_missing_required_argument_is_a_binding_error():
    with pytest.raises(TypeError, match="missing a required argument: 'x'"):
        Scale()()
