"""The batches Keras 3's fit gives ``train_step`` (as tensors), epoch by epoch, with and without
``steps_per_epoch``: a pass goes on across epochs and restarts once it ran out, as
tools/record_keras_epochs.py recorded under TF 2.21 + Keras 3 (tests/fixtures/keras_epochs.json).
"""
import json
import os
import sys

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools"))
from record_keras_epochs import run_case  # noqa: E402

with open(os.path.join(HERE, "fixtures", "keras_epochs.json"), encoding="utf-8") as _fh:
    CASES = json.load(_fh)["cases"]

# Two deliberate differences (docs/differences.md): Keras re-yields the batches it peeked at from
# an exhausted generator, and warns that a generator without steps_per_epoch "ran out of data".
DIFFERENT = {"gen6-4-3": {"seen": [0, 10, 20, 30, 40, 50]}, "gen6-None-1": {"ran_out": 0}}


@pytest.mark.parametrize("key", sorted(CASES))
def test_fit_gives_train_step_the_batches_keras_gives(key):
    data, spe, epochs = key.split("-")
    got = run_case(tf, keras, np, data, None if spe == "None" else int(spe), int(epochs))
    assert got == {**CASES[key], **DIFFERENT.get(key, {})}
