"""tf.image: values, dtypes and gradients against TensorFlow's (tests/image_programs.py, recorded
in tests/fixtures/tf_signal_image.npz), errors, and the op-table compositions."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from image_programs import PROGRAMS
from test_signal import compare


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_gives_tensorflows_numbers(name):
    compare(name, PROGRAMS[name](tf))


def test_numpy_arrays_are_accepted_where_tensorflow_raises():
    # TF: AttributeError 'numpy.ndarray' object has no attribute 'get_shape' (docs/differences.md)
    img = np.random.default_rng(0).uniform(size=(2, 3, 4, 1)).astype(np.float32)
    assert tf.image.grayscale_to_rgb(img).shape == (2, 3, 4, 3)
    dy, dx = tf.image.image_gradients(img)
    np.testing.assert_allclose(dy.numpy()[:, :-1], np.diff(img, axis=1), rtol=1e-6)
    np.testing.assert_allclose(tf.image.total_variation(img).numpy(),
                               np.abs(np.diff(img, axis=1)).sum((1, 2, 3)) + np.abs(np.diff(img, axis=2)).sum((1, 2, 3)),
                               rtol=1e-5)


@pytest.mark.parametrize("f", [lambda x: tf.image.adjust_contrast(x, 0.7), tf.image.hsv_to_rgb,
                               lambda x: tf.image.adjust_saturation(x, 0.6), lambda x: tf.image.adjust_hue(x, 0.3)])
def test_colour_ops_tensorflow_cannot_differentiate_are_differentiable(f):
    x = tf.constant(np.random.default_rng(1).uniform(0.1, 0.9, (2, 2, 3)))
    tf.test.check_grads(f, [x], order=1)


def test_resize_gradient_is_the_transposed_resampling():
    # the gradient of a bilinear upsampling is the transposed weight matrix applied to the seed
    x = tf.constant(np.random.default_rng(2).uniform(size=(3, 4, 1)).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, [6, 8])
    g = tape.gradient(y, x).numpy()
    assert g.shape == (3, 4, 1)
    np.testing.assert_allclose(g.sum(), 6 * 8, rtol=1e-5)  # each output row of weights sums to 1


@pytest.mark.parametrize("call,err,match", [
    (lambda: tf.image.resize(tf.ones([4, 4]), [2, 2]), ValueError, "3 or 4"),
    (lambda: tf.image.resize(tf.ones([4, 4, 1]), [2]), ValueError, "2 elements"),
    (lambda: tf.image.resize(tf.ones([4, 4, 1]), [2, 2], method="cubic"), ValueError, "cubic"),
    (lambda: tf.image.central_crop(tf.ones([4, 4, 1]), 0.0), ValueError, r"\(0, 1\]"),
    (lambda: tf.image.crop_to_bounding_box(tf.ones([4, 4, 1]), 2, 0, 3, 4), ValueError, "does not fit"),
    (lambda: tf.image.pad_to_bounding_box(tf.ones([4, 4, 1]), 1, 0, 4, 4), ValueError, "too small"),
    (lambda: tf.image.random_crop(tf.ones([4, 4, 1]), [5, 2, 1]), tf.errors.InvalidArgumentError, "value.shape >= size"),
    (lambda: tf.image.rgb_to_hsv(tf.ones([2, 2, 4])), tf.errors.InvalidArgumentError, "must be 3"),
    (lambda: tf.image.rgb_to_hsv(tf.ones([2, 3], tf.int32)), TypeError, "float"),
    (lambda: tf.image.adjust_hue(tf.ones([1, 1, 3]), 1.5), ValueError, r"\[-1, 1\]"),
    (lambda: tf.image.ssim(tf.ones([4, 4, 1]), tf.ones([4, 4, 1]), 1.0), tf.errors.InvalidArgumentError, "filter_size"),
    (lambda: tf.image.psnr(tf.ones([2, 2, 1]), tf.ones([2, 2, 1], tf.float64), 1.0), TypeError, "same dtype"),
])
def test_bad_input(call, err, match):
    with pytest.raises(err, match=match):
        call()
