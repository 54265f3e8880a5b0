"""Recurrent cells, the generic RNN layer, attention layers and TimeDistributed against Keras
3.15's numbers (tests/fixtures/keras_rnn.json, recorded by tools/record_keras_rnn.py from the
cases in tests/keras_rnn_cases.py), plus their arguments, errors and gradients."""
import json
import os

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras

import keras_rnn_cases as cases

with open(os.path.join(os.path.dirname(__file__), "fixtures", "keras_rnn.json")) as _f:
    REC = json.load(_f)


def close(got, want, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", sorted(cases.LAYER_CASES))
def test_layer_matches_keras(name):
    want, got = REC["layers"][name], cases.run_layer_case(keras, tf, name)
    assert got["weights"] == want["weights"]
    assert len(got["outs"]) == len(want["outs"])
    for g, w in zip(got["outs"], want["outs"]):
        close(g, w)
    assert len(got["grads"]) == len(want["grads"])
    for i, (g, w) in enumerate(zip(got["grads"], want["grads"])):
        assert (g is None) == (w is None), i
        if w is not None:
            close(g, w, atol=1e-5)


@pytest.mark.parametrize("name", sorted(cases.TRAIN_CASES))
def test_training_matches_keras(name):
    want, got = REC["train"][name], cases.run_train_case(keras, tf, name)
    close(got["losses"], want["losses"], rtol=1e-5)
    for g, w in zip(got["weights"], want["weights"]):
        close(g, w, rtol=1e-4, atol=1e-5)
