"""``model.summary()`` and the progress lines of ``fit``/``evaluate``/``predict`` against Keras
3.15's printed text (tests/fixtures/keras_surface.json, models in tests/keras_surface_cases.py).

The summaries must match character for character. The progress lines match once the timings
are masked (``1s``, ``143ms/step``), the metric values are masked (the models' initial weights
come from different random numbers), each line is taken as last redrawn (Keras redraws at most
every 0.05 s, so how many intermediate bars are printed depends on the machine) and the spaces
that blank out a longer previous bar are dropped."""
import json
import os
import re

import numpy as np
import pytest

import keras_surface_cases as cases
from tapegrad import keras

with open(os.path.join(os.path.dirname(__file__), "fixtures", "keras_surface.json")) as _f:
    WANT = json.load(_f)["summary"]


@pytest.fixture(scope="module")
def got():
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "200"  # (as the recorder ran)
    try:
        return cases.summaries(keras, np)
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


TEXTS = [(m, k) for m, rec in WANT.items() for k in rec
         if not k.startswith("fit_") and k not in ("evaluate", "predict")]
PROGRESS = [(m, k) for m, rec in WANT.items() for k in rec
            if k.startswith("fit_") or k in ("evaluate", "predict")]


KNOWN: dict = {}


@pytest.mark.parametrize("model, what", [
    pytest.param(m, k, marks=pytest.mark.xfail(strict=True, reason=KNOWN[m, k])) if (m, k) in KNOWN else (m, k)
    for m, k in TEXTS])
def test_summary_text_is_keras(got, model, what):
    assert got[model][what] == WANT[model][what]


def _progress(text):
    lines = []
    for line in text.split("\n"):
        line = line.split("\r")[-1]  # (the bar as last redrawn)
        line = re.sub(r"\x1b\[1m\d+s\x1b\[0m", "<T>", line)
        line = re.sub(r" - \d+s - ", " - <T> - ", line)
        line = re.sub(r"\d+(s|ms|us)/step", "<T>/step", line)
        line = re.sub(r"-?\d+\.\d{4}(e[+-]\d+)?", "<V>", line)
        lines.append(line.rstrip(" \b"))
    return lines


@pytest.mark.parametrize("model, what", PROGRESS)
def test_progress_lines_are_keras(got, model, what):
    assert _progress(got[model][what]) == _progress(WANT[model][what])


def test_progress_line_shape():
    # the final bar of an epoch, as Keras writes it into a log file (colour codes included)
    final = _progress(WANT["sequential"]["fit_verbose1"])[1]
    assert final == ("\x1b[1m3/3\x1b[0m \x1b[32m━━━━━━━━━━━━━━━━━━━━\x1b[0m\x1b[37m\x1b[0m <T> "
                     "<T>/step - loss: <V> - mae: <V> - val_loss: <V> - val_mae: <V>")


def test_print_fn_gets_the_whole_text_once():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    calls = []
    model.summary(print_fn=calls.append, line_length=60)
    assert len(calls) == 1 and calls[0].count("\n") == 9 and calls[0].endswith("\n")


def test_summary_arguments_checked():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="d")])
    with pytest.raises(ValueError, match="Insufficient console width"):
        model.summary(line_length=8)
    with pytest.raises(ValueError, match="do not match the layer names"):
        model.summary(layer_range=["nope", "d"])
    with pytest.raises(ValueError, match="length 2"):
        model.summary(layer_range=["d"])
