"""Keras 3's RNN draws its dropout masks at every call, in inference too (its seed generator moves
on), and uses them only in training: an evaluation between training steps (fit's validation)
leaves the next training masks where Keras's are. Numbers recorded from Keras 3.15 by
tools/record_keras_rnn_masks.py; float32 recurrences of 5 steps, compared to 1e-5."""
import json
import os

import numpy as np
import pytest

from tapegrad import keras

import keras_rnn_mask_cases as cases

with open(os.path.join(os.path.dirname(__file__), "fixtures", "keras_rnn_masks.json"), encoding="utf-8") as f:
    WANT = json.load(f)["cases"]


@pytest.fixture(scope="module")
def got():
    return cases.run(keras)


@pytest.mark.parametrize("name", sorted(WANT))
def test_masks_are_drawn_in_inference_too(got, name):
    for call, (g, w) in enumerate(zip(got[name], WANT[name])):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=f"{name}, call {call}")
