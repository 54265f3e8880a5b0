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
