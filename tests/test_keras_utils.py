"""tapegrad.keras.utils and keras.applications' preprocess_input against Keras 3.15's numbers
(recorded by tools/record_keras_losses.py)."""
from __future__ import annotations

import json
import os
import random

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "keras_losses.json")
with open(FIXTURE) as _fh:
    DATA = json.load(_fh)


def _pid(c):
    return f"{c['net']}-{c.get('mode', '')}-{c['data_format']}"


@pytest.mark.parametrize("case", DATA["preprocess"], ids=_pid)
def test_preprocess_input_matches_keras(case):
    if case["net"] == "imagenet_utils":
        fn = lambda x, **kw: keras.applications.imagenet_utils.preprocess_input(x, mode=case["mode"], **kw)  # noqa: E731
    else:
        fn = getattr(keras.applications, case["net"]).preprocess_input
    x = np.array(case["x"], np.float32)
    before = x.copy()
    out = fn(x, data_format=case["data_format"])
    np.testing.assert_allclose(np.asarray(out), np.array(case["out"], np.float32), rtol=1e-6, atol=1e-5)
    if case["net"] not in ("efficientnet", "efficientnet_v2", "convnext", "mobilenet_v3"):
        np.testing.assert_array_equal(x, before)  # the input is left alone
        # a tensor gives a tensor with the same numbers, and a gradient
        t = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(t)
            y = fn(t, data_format=case["data_format"])
            total = tf.reduce_sum(y)
        assert isinstance(y, tf.Tensor)
        np.testing.assert_allclose(y.numpy(), np.array(case["out"], np.float32), rtol=1e-6, atol=1e-5)
        assert tape.gradient(total, t).shape == x.shape


def test_preprocess_integer_images_and_errors():
    img = np.full((2, 2, 3), 255, np.uint8)
    out = keras.applications.mobilenet_v2.preprocess_input(img)
    assert out.dtype == np.float32 and np.all(out == 1.0)
    with pytest.raises(ValueError, match="mode"):
        keras.applications.imagenet_utils.preprocess_input(img, mode="keras")
    with pytest.raises(ValueError, match="data_format"):
        keras.applications.vgg16.preprocess_input(img, data_format="NHWC")
    with pytest.MonkeyPatch.context() as mp:  # (an empty Keras cache: tapegrad downloads nothing)
        mp.setenv("KERAS_HOME", os.path.join(os.path.dirname(__file__), "no_such_keras_home"))
        with pytest.raises(FileNotFoundError, match="class index file"):
            keras.applications.resnet50.decode_predictions(np.zeros((1, 1000)))


@pytest.mark.parametrize("case", DATA["utils"]["pad_sequences"]["cases"], ids=lambda c: str(c["kwargs"]))
def test_pad_sequences_matches_keras(case):
    out = keras.utils.pad_sequences(DATA["utils"]["pad_sequences"]["sequences"], **case["kwargs"])
    assert str(out.dtype) == case["dtype"]
    np.testing.assert_array_equal(out, np.array(case["out"]))


@pytest.mark.parametrize("case", DATA["utils"]["to_categorical"], ids=str)
def test_to_categorical_matches_keras(case):
    out = keras.utils.to_categorical(case["x"], case["num_classes"])
    np.testing.assert_array_equal(out, np.array(case["out"]))
    t = keras.utils.to_categorical(tf.constant(case["x"]), case["num_classes"])
    np.testing.assert_array_equal(t.numpy(), np.array(case["out"]))


@pytest.mark.parametrize("case", DATA["utils"]["normalize"], ids=str)
def test_normalize_matches_keras(case):
    x = np.array(case["x"], np.float32)
    out = keras.utils.normalize(x, axis=case["axis"], order=case["order"])
    np.testing.assert_allclose(out, np.array(case["out"], np.float32), rtol=1e-5)
    t = keras.utils.normalize(tf.constant(x), axis=case["axis"], order=case["order"])
    np.testing.assert_allclose(t.numpy(), np.array(case["out"], np.float32), rtol=1e-5)


def test_set_random_seed_seeds_python_numpy_and_tapegrad():
    def draw():
        return random.random(), np.random.rand(), tf.random.normal([3]).numpy().tolist()
    keras.utils.set_random_seed(123)
    first = draw()
    keras.utils.set_random_seed(123)
    assert draw() == first
    keras.utils.set_random_seed(124)
    assert draw() != first
    with pytest.raises(ValueError, match="integer"):
        keras.utils.set_random_seed(1.5)


def test_to_categorical_out_of_range_label():
    with pytest.raises(ValueError, match=r"\[0, 3\)"):
        keras.utils.to_categorical([0, 3], num_classes=3)


@pytest.mark.parametrize("name", sorted(DATA["ops"]))
def test_keras_ops_match_keras_values_and_dtypes(name):
    import sys
    sys.path.insert(0, os.path.dirname(__file__))
    from keras_ops_cases import ops_cases
    from tapegrad.keras import ops
    got = np.asarray(ops.convert_to_numpy(ops_cases(ops)[name]()))
    want = DATA["ops"][name]
    assert str(got.dtype) == want["dtype"]
    np.testing.assert_allclose(got.astype(float), np.array(want["value"], float), rtol=1e-5, atol=1e-6)


def test_keras_ops_are_on_the_tape():
    from tapegrad.keras import ops
    x = tf.Variable([[1.0, -2.0], [3.0, 0.5]])
    with tf.GradientTape() as tape:
        y = ops.sum(ops.take_along_axis(x, np.array([[1], [0]]), axis=1) * ops.logsumexp(x, axis=1, keepdims=True))
    g = tape.gradient(y, x)
    tf.test.check_grads(lambda v: ops.sum(ops.take_along_axis(v, np.array([[1], [0]]), axis=1)
                                          * ops.logsumexp(v, axis=1, keepdims=True)),
                        [tf.constant(np.array([[1.0, -2.0], [3.0, 0.5]]))], order=1)
    assert g.shape == (2, 2)
