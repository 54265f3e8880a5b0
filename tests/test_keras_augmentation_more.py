"""Keras 3's newer image augmentation layers against Keras 3.15 on TensorFlow
(tests/fixtures/keras_augmentation_more.json, recorded by tools/record_keras_augmentation_more.py
from tests/keras_augmentation_more_cases.py): seeded draws in Keras's order, so the same numbers."""
import json
import os

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras

import keras_augmentation_more_cases as cases

with open(os.path.join(os.path.dirname(__file__), "fixtures", "keras_augmentation_more.json")) as _f:
    FIXTURE = json.load(_f)["cases"]


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_matches_keras(name):
    keras.utils.clear_session()
    got = cases.run(name, tf, keras)
    want = FIXTURE[name]
    # float32 pixels up to `scale`: the colour-space round trips and filters round at ~1e-7 of
    # the scale each step; a few steps, so 1e-5 of the scale
    atol = 1e-5 * cases.CASES[name][3].get("scale", 255.0)
    assert len(got["outputs"]) == len(want["outputs"])
    for g, w in zip(got["outputs"], want["outputs"]):
        np.testing.assert_allclose(np.asarray(g, np.float32), np.asarray(w, np.float32), rtol=1e-5, atol=atol)
    if "labels" in want:
        np.testing.assert_allclose(got["labels"], want["labels"], rtol=1e-5, atol=1e-6)


def _make(name):
    factor = {"RandomHue": 0.5, "RandomSaturation": 0.5, "RandomColorDegeneration": 0.5, "RandomSharpness": 0.5,
              "RandomPosterization": 4}
    if name == "MaxNumBoundingBoxes":
        return keras.layers.MaxNumBoundingBoxes(3)
    if name in ("AutoContrast", "Equalization", "ContrastLimitedAdaptiveHistogramEqualization"):
        return getattr(keras.layers, name)()
    kw = {"factor": factor[name]} if name in factor else {}
    return getattr(keras.layers, name)(seed=1, **kw)


NAMES = ["MixUp", "CutMix", "RandomHue", "RandomSaturation", "RandomGrayscale", "RandomColorJitter",
         "RandomColorDegeneration", "RandomInvert", "Solarization", "RandomPosterization", "RandomSharpness",
         "AutoContrast", "Equalization", "RandomErasing", "RandomGaussianBlur", "RandomShear", "RandomPerspective",
         "MaxNumBoundingBoxes", "RandAugment", "AugMix", "RandomElasticTransform",
         "ContrastLimitedAdaptiveHistogramEqualization"]


@pytest.mark.parametrize("name", NAMES)
def test_config_round_trip_and_functional_model(name):
    layer = _make(name)
    config = layer.get_config()
    assert type(layer).from_config(config).get_config() == config
    assert type(keras.layers.deserialize(keras.layers.serialize(layer))) is type(layer)
    inp = keras.Input((5, 5, 3))
    out = layer(inp)
    assert tuple(out.shape) == (None, 5, 5, 3)
    x = np.random.RandomState(1).uniform(0, 255, (2, 5, 5, 3)).astype(np.float32)
    assert keras.Model(inp, out).predict(x, verbose=0).shape == (2, 5, 5, 3)


@pytest.mark.parametrize("name", ["RandomHue", "RandomSaturation", "RandomGrayscale", "RandomInvert", "Solarization",
                                  "RandomErasing", "RandomGaussianBlur", "RandomShear", "RandAugment", "CutMix"])
def test_training_false_passes_images_through(name):
    x = tf.constant(np.random.RandomState(2).uniform(0, 255, (3, 4, 4, 3)).astype(np.float32))
    np.testing.assert_array_equal(_make(name)(x, training=False).numpy(), x.numpy())


def test_inside_tf_function_matches_eager():
    x = tf.constant(np.random.RandomState(3).uniform(0, 255, (2, 4, 4, 3)).astype(np.float32))
    eager = keras.layers.RandomHue(0.5, seed=4)(x).numpy()
    layer = keras.layers.RandomHue(0.5, seed=4)
    np.testing.assert_allclose(tf.function(lambda t: layer(t))(x).numpy(), eager, rtol=1e-6, atol=1e-4)


def test_mixup_gradients_reach_the_images():
    x = tf.Variable(np.random.RandomState(4).uniform(0, 1, (3, 2, 2, 1)).astype(np.float32))
    layer = keras.layers.MixUp(seed=2)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(layer(x))
    # each image appears with weight w in its own row and 1 - w in its partner's: the weights sum to 1
    np.testing.assert_allclose(float(tf.reduce_sum(tape.gradient(y, x))), 3 * 4, rtol=1e-5)


def test_segmentation_masks_follow_the_images_in_cutmix():
    x = np.random.RandomState(5).uniform(0, 255, (4, 6, 6, 1)).astype(np.float32)
    out = keras.layers.CutMix(seed=3)({"images": tf.constant(x), "segmentation_masks": tf.constant(x)})
    np.testing.assert_array_equal(out["images"].numpy(), out["segmentation_masks"].numpy())


@pytest.mark.parametrize("make, error, match", [
    (lambda: keras.layers.RandomHue(1.5), ValueError, r"in the range \[0, 1\]"),
    (lambda: keras.layers.RandomSaturation(0.5, value_range=3), ValueError, "list of two numbers"),
    (lambda: keras.layers.RandomGrayscale(factor=2.0), ValueError, "between 0 and 1"),
    (lambda: keras.layers.Solarization(addition_factor=1.5), ValueError, "addition_factor"),
    (lambda: keras.layers.RandomGaussianBlur(kernel_size=4), ValueError, "odd number"),
    (lambda: keras.layers.RandomShear(x_factor=-0.2), ValueError, r"\[0, 1.0\]"),
    (lambda: keras.layers.RandomShear(fill_mode="mirror"), NotImplementedError, "fill_mode"),
    (lambda: keras.layers.RandomPerspective(scale=2.0), ValueError, "scale"),
    (lambda: keras.layers.RandomElasticTransform(interpolation="bicubic"), NotImplementedError, "interpolation"),
    (lambda: keras.layers.RandomPosterization(9), ValueError, r"\[1, 8\]"),
])
def test_constructor_errors(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_call_errors():
    with pytest.raises(ValueError, match="rank 3"):
        keras.layers.RandomHue(0.5)(tf.ones([4, 4]))
    with pytest.raises(ValueError, match="bounding box format"):
        keras.layers.RandomHue(0.5)({"images": tf.ones([1, 2, 2, 3]),
                                     "bounding_boxes": {"boxes": tf.ones([1, 1, 4]), "labels": tf.ones([1, 1])}})
    with pytest.raises(NotImplementedError, match="bounding boxes"):
        keras.layers.RandomShear(0.2, bounding_box_format="xyxy")(
            {"images": tf.ones([1, 2, 2, 3]), "bounding_boxes": {"boxes": tf.ones([1, 1, 4]),
                                                                "labels": tf.ones([1, 1])}})
    with pytest.raises(ValueError, match="fill_mode"):
        keras.layers.RandomElasticTransform(fill_mode="mirror", seed=1)(tf.ones([1, 4, 4, 1]))
    with pytest.raises(ValueError, match="3 channels"):
        keras.layers.RandomColorDegeneration(0.5).compute_output_shape((None, 4, 4, 2))


def test_integer_images():
    x = np.random.RandomState(6).randint(0, 255, (2, 3, 3, 3)).astype(np.uint8)
    grey = keras.layers.RandomGrayscale(factor=1.0, seed=1)(x)
    assert grey.dtype == tf.uint8   # (Keras: the grey of integer images cast back, truncated)
    want = np.floor(x.astype(np.float32) @ np.array([0.2989, 0.587, 0.114], np.float32))
    # (a sum within float32 round-off of an integer may land on either side of it)
    np.testing.assert_allclose(grey.numpy()[..., 0], want, atol=1)
    assert keras.layers.MixUp(seed=1)(x).dtype == tf.float32
    with pytest.raises(ValueError, match="expected float dtype"):
        keras.layers.RandomSaturation(0.5)(x)
