"""Layers with ``call(self, x, context)`` built as Keras 3 builds them (by tracing ``call`` on
the call's own arguments, which lets MultiHeadAttention take the inputs' masks off), called with
all-keyword inputs, summarised ("?" for a layer of the program's own without
``compute_output_shape``); MultiHeadAttention zeroing rows masked whole; TextVectorization's
``ragged=True``. Numbers recorded from Keras 3.15 by tools/record_keras_two_input.py; float32
attention over 4 positions and a layer norm, compared to 1e-5."""
import json
import os

import numpy as np
import pytest

from tapegrad import keras

import keras_two_input_cases as cases

with open(os.path.join(os.path.dirname(__file__), "fixtures", "keras_two_input.json"), encoding="utf-8") as f:
    WANT = json.load(f)["cases"]


@pytest.fixture(scope="module")
def got():
    return cases.run(keras)


@pytest.mark.parametrize("name", sorted(WANT))
def test_as_keras(got, name):
    if isinstance(WANT[name], list) and WANT[name] and isinstance(np.asarray(WANT[name], dtype=object).flat[0], float):
        np.testing.assert_allclose(np.asarray(got[name]), np.asarray(WANT[name]), rtol=1e-5, atol=1e-6)
    else:
        assert got[name] == WANT[name]


def test_first_call_attends_everywhere_then_masks(got):
    first, second = np.asarray(got["cross_first_scores"]), np.asarray(got["cross_second_scores"])
    assert (first > 0).all()  # (the building trace took the masks off the inputs)
    assert (second[:, :, :, 3] == 0).all() and (second[1, :, 1:] == 0).all()


def test_ragged_only_with_int_output():
    with pytest.raises(ValueError, match="ragged"):
        keras.layers.TextVectorization(ragged=True, output_mode="multi_hot")
