"""Keras 3 semantics that decide a program's numbers without being arithmetic (initial weights
of sub-layers, which batches fit gives, when random streams advance, fit's input dtypes, the
callbacks' steps, layers' metrics, BackupAndRestore's resumes), each
case run on tapegrad and compared with what tools/record_keras_semantics.py recorded under
TF 2.21 + Keras 3.15 (tests/fixtures/keras_semantics.json).
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
import record_keras_semantics as record  # noqa: E402

with open(os.path.join(HERE, "fixtures", "keras_semantics.json"), encoding="utf-8") as _fh:
    FIXTURE = json.load(_fh)["cases"]


def _close(got, want, path="result"):
    """Equal structure, strings and ints; floats within 1e-5 (float32 initial weights and one
    or two float32 steps: a few ulps of values of order 1, rounded to 6 decimals on record)."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), (path, got, want)
        for k in want:
            _close(got[k], want[k], f"{path}[{k!r}]")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (path, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _close(g, w, f"{path}[{i}]")
    elif isinstance(want, float):
        assert abs(got - want) <= 1e-5 + 1e-5 * abs(want), (path, got, want)
    else:
        assert got == want, (path, got, want)


# Keras's "ran out of data" warning for a dataset of unknown size without steps_per_epoch is a
# deliberate difference (docs/differences.md, "Keras training extras"): tapegrad does not warn.
DIFFERENT = {"fit_epoch_iterators": {"unknown_size": {"ran_out": 0}},
             "steps_per_execution": {"unknown": {"ran_out": 0}}}


@pytest.mark.parametrize("case", record.CASES, ids=lambda c: c.__name__)
def test_case_gives_keras_results(case):
    if case.__name__ == "fit_under_strategy_reads_a_batch_first":
        pytest.importorskip("distributed")   # (MirroredStrategy runs on Dask: the dask extra)
    keras.utils.clear_session()
    want = FIXTURE[case.__name__]
    for key, change in DIFFERENT.get(case.__name__, {}).items():
        want = {**want, key: {**want[key], **change}}
    _close(case(tf, keras, np), want)


def test_mha_sub_layers_start_apart():
    """Unseeded, the query, key and value kernels are different draws (each sub-layer has its
    own clone of the initializer with its own default seed)."""
    mha = keras.layers.MultiHeadAttention(num_heads=1, key_dim=2)
    mha(np.ones((1, 2, 2), "float32"), np.ones((1, 2, 2), "float32"))
    q, k, v = (d.kernel.numpy() for d in (mha.query_dense, mha.key_dense, mha.value_dense))
    assert not np.array_equal(q, k) and not np.array_equal(k, v)


def test_parallel_map_with_random_ops_warns_once(monkeypatch):
    """TF's parallel map serves its random kernel in thread order (TF's numbers vary run to
    run); tapegrad draws in element order and says so once."""
    from tapegrad.data import _dataset

    monkeypatch.setattr(_dataset, "_warned_parallel", [False])
    ds = tf.data.Dataset.range(3).map(lambda x: tf.random.uniform([]), num_parallel_calls=2)
    with pytest.warns(UserWarning, match="num_parallel_calls") as caught:
        list(ds)
        list(ds)
    assert sum("num_parallel_calls" in str(w.message) for w in caught) == 1
    quiet = tf.data.Dataset.range(3).map(lambda x: x + 1, num_parallel_calls=2)
    monkeypatch.setattr(_dataset, "_warned_parallel", [False])
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        list(quiet)  # no random op: no warning


def test_stateless_construction_puts_state_back():
    """Variables read or advanced inside the scope (a SeedGenerator, a variable masked in
    place) get their values back; eager random streams are untouched."""
    from tapegrad.keras.backend import StatelessConstruction

    gen = keras.random.SeedGenerator(3)
    v = tf.Variable([1.0, 2.0])
    tf.random.set_seed(5)
    want = tf.random.uniform([2]).numpy()
    tf.random.set_seed(5)
    with StatelessConstruction():
        keras.random.uniform((2,), seed=gen)
        v.assign(v * 0.0)
        tf.random.uniform([2])
    assert gen.state.numpy().tolist() == [3, 0]
    assert v.numpy().tolist() == [1.0, 2.0]
    np.testing.assert_array_equal(tf.random.uniform([2]).numpy(), want)


def test_functional_model_on_a_string_input():
    """keras.Input(dtype="string") into StringLookup, and that model called on a string Input in
    another: construction runs the inner model's call on a string placeholder (Keras's symbolic
    string tensor); the models then map the strings."""
    inp = keras.Input(shape=(1,), dtype="string")
    out = keras.layers.CategoryEncoding(num_tokens=3)(keras.layers.StringLookup(vocabulary=["a", "b"])(inp))
    assert tuple(out.shape) == (None, 3)
    head = keras.Model(inp, out)
    outer_in = keras.Input(shape=(1,), dtype="string")
    model = keras.Model(outer_in, keras.layers.Dense(1, kernel_initializer="ones")(head(outer_in)))
    np.testing.assert_array_equal(head(np.array([["b"], ["z"]])).numpy(), [[0, 0, 1], [1, 0, 0]])
    np.testing.assert_allclose(model(np.array([["b"], ["z"]])).numpy(), [[1.0], [1.0]])


def test_bad_steps_per_execution_and_validation_freq_say_what_is_wrong():
    """Keras fails inside (``range`` with a step of 0, a modulo by 0); tapegrad says which
    argument is wrong and what it takes."""
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    for bad in (0, -2, 1.5, True):
        with pytest.raises(ValueError, match="steps_per_execution"):
            model.compile(optimizer="sgd", loss="mse", steps_per_execution=bad)
    model.compile(optimizer="sgd", loss="mse")
    x = np.ones((4, 1), "float32")
    for bad, match in ((0, "must not be 0"), ("2", "list or int")):
        with pytest.raises(ValueError, match=match):
            model.fit(x, x, epochs=1, verbose=0, validation_data=(x, x), validation_freq=bad)
