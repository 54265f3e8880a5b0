"""What ``compile`` makes of structured losses, loss weights and metrics (Keras 3's CompileLoss
and CompileMetrics) and the step Keras begins on the batch a dataset of unknown size lacks, each
case run on tapegrad and compared with what tools/record_keras_compile.py recorded under
TF 2.21 + Keras 3.15 (tests/fixtures/keras_compile.json).
"""
import json
import os
import sys
import warnings

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools"))
import record_keras_compile as record  # noqa: E402

with open(os.path.join(HERE, "fixtures", "keras_compile.json"), encoding="utf-8") as _fh:
    FIXTURE = json.load(_fh)["cases"]


def _close(got, want, path="result"):
    """Equal structure, names and counts; floats within 1e-5 relative (two epochs of float32
    SGD/Adam on 12 rows: a few ulps of values of order 1-10, rounded to 6 decimals on record).
    An error is the same type, its message starting as Keras's (the first 40 characters)."""
    if isinstance(want, dict) and "error" in want:
        assert got["error"] == want["error"], (path, got, want)
        if want["error"] is not None:
            assert got["message"][:40] == want["message"][:40], (path, got, want)
    elif isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), (path, got, want)
        for k in want:
            _close(got[k], want[k], f"{path}[{k!r}]")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (path, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _close(g, w, f"{path}[{i}]")
    elif isinstance(want, float):
        assert abs(got - want) <= 1e-5 * max(1.0, abs(want)), (path, got, want)
    else:
        assert got == want, (path, got, want)


@pytest.mark.parametrize("case", record.CASES, ids=lambda c: c.__name__)
def test_case_gives_keras_results(case):
    keras.backend.clear_session()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # (Keras's warnings: gradients missing, data ran out)
        got = case(tf, keras, np)
    _close(got, FIXTURE[case.__name__])


def test_mismatched_dict_targets_say_which_keys():
    x, ya, yb = record._data(np)
    model = record._two(keras, np)
    model.compile("sgd", loss=["mse", "mse"])
    with pytest.raises(ValueError, match=r"keys \['a', 'zz'\], but the model names its outputs "
                                         r"\['a', 'b'\]: \['zz'\] name no output; no target for \['b'\]"):
        model.fit(x, {"a": ya, "zz": yb}, verbose=0)


def test_per_loss_trackers_weigh_batches_by_size_only_when_eager():
    """Keras's traced step sees no batch size (the dataset's batch dimension is None): each
    output's loss is a plain mean over batches; run eagerly, a mean weighted by batch size."""
    x, ya, yb = record._data(np, 10)   # batches of 4, 4 and 2
    logs = {}
    for eager in (False, True):
        model = record._two(keras, np)
        model.compile(keras.optimizers.SGD(0.0), loss=["mse", "mse"], run_eagerly=eager)
        logs[eager] = model.evaluate(x, [ya, yb], batch_size=4, verbose=0, return_dict=True)
    model = record._two(keras, np)
    per_batch = [float(np.mean((model.predict(x[i:i + 4], verbose=0)[0] - ya[i:i + 4]) ** 2))
                 for i in (0, 4, 8)]
    np.testing.assert_allclose(logs[False]["a_loss"], np.mean(per_batch), rtol=1e-5)
    np.testing.assert_allclose(logs[True]["a_loss"], np.average(per_batch, weights=[4, 4, 2]), rtol=1e-5)
