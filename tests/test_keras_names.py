"""keras.losses.Reduction, tf.keras.backend's legacy random functions,
keras.utils.timeseries_dataset_from_array, keras.initializers.get through add_weight and
Normalization's mean/variance against Keras 3.15's numbers (recorded by
tools/record_keras_names.py; the cases are in tests/keras_names_cases.py)."""
from __future__ import annotations

import os

import numpy as np
import pytest

import keras_names_cases as cases
import tapegrad as tf
import tf_compare
from tapegrad import keras

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "keras_names.json")
DATA = tf_compare.load_fixture("keras_names.json")

ERRORS = {"ValueError": ValueError, "TypeError": TypeError}


def close(got, want, rtol=1e-5):
    tf_compare.assert_close(np.asarray(got, np.float64), want, rtol=rtol, atol=1e-6, broadcast=True)


# ---- Reduction ------------------------------------------------------------------------------------

def test_reduction_names_match_keras():
    assert list(keras.losses.Reduction.all()) == DATA["reduction_all"]
    keras.losses.Reduction.validate("sum")
    with pytest.raises(ValueError, match="Invalid Reduction Key"):
        keras.losses.Reduction.validate("mean")


@pytest.mark.parametrize("name", cases.REDUCTIONS)
def test_losses_accept_reduction_values(name):
    close(cases.run_reduction(keras, name), DATA["reduction"][name])


def test_reduction_auto_is_refused_as_in_keras_3():
    assert DATA["reduction_auto_error"] == "ValueError"
    with pytest.raises(ValueError, match="sum_over_batch_size"):
        keras.losses.Huber(reduction=keras.losses.Reduction.AUTO)


# ---- backend random -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(cases.BACKEND_RANDOM))
def test_backend_random_draws_tf_numbers(name):
    got, want = cases.run_backend_random(tf, keras, name), DATA["backend_random"][name]
    assert got["dtype"] == want["dtype"] and got["variable"] == want["variable"]
    close(got["seeded"], want["seeded"])
    close(got["unseeded"], want["unseeded"])


def test_backend_random_bad_input():
    with pytest.raises(ValueError, match="dtype"):
        keras.backend.random_normal((2,), dtype="int32", seed=1)
    with pytest.raises((ValueError, TypeError)):
        keras.backend.random_bernoulli("a", p=0.5, seed=1)


# ---- timeseries_dataset_from_array ----------------------------------------------------------------

@pytest.mark.parametrize("name", list(cases.TIMESERIES))
def test_timeseries_dataset_matches_keras(name):
    tf.random.set_seed(None)
    got, want = cases.run_timeseries(keras, name), DATA["timeseries"][name]
    assert got["dtypes"] == want["dtypes"]
    assert len(got["passes"][0]) == len(want["passes"][0])
    for got_pass, want_pass in zip(got["passes"], want["passes"]):
        for got_element, want_element in zip(got_pass, want_pass, strict=True):
            for g, w in zip(got_element, want_element, strict=True):
                close(g, w)


def test_timeseries_dataset_is_a_tapegrad_dataset():
    ds = keras.utils.timeseries_dataset_from_array(cases.series(), None, sequence_length=4,
                                                   batch_size=8)
    assert isinstance(ds, tf.data.Dataset)
    assert [b.shape[0] for b in ds] == [8, 8, 4]


@pytest.mark.parametrize("name", list(cases.TIMESERIES_BAD))
def test_timeseries_bad_arguments_are_refused(name):
    with pytest.raises(ERRORS[DATA["timeseries_bad"][name]]):
        keras.utils.timeseries_dataset_from_array(**cases.timeseries_kwargs(name, cases.TIMESERIES_BAD))


def test_timeseries_non_int_arguments_and_format():
    with pytest.raises(TypeError, match="sequence_stride"):
        keras.utils.timeseries_dataset_from_array(cases.series(), None, 3, sequence_stride=1.5)
    with pytest.raises(ValueError, match="format"):
        keras.utils.timeseries_dataset_from_array(cases.series(), None, 3, format="grain")


# ---- initializers.get / add_weight ----------------------------------------------------------------

@pytest.mark.parametrize("name", list(cases.INITIALIZER_IDS))
def test_add_weight_resolves_initializers_as_keras(name):
    got, want = cases.run_add_weight(keras, name), DATA["add_weight"][name]
    assert got["dtype"] == want["dtype"] and got["shape"] == want["shape"]
    assert got["n_weights"] == want["n_weights"]
    if "value" in want:
        close(got["value"], want["value"])


def test_initializers_get_bad_input():
    assert set(DATA["initializer_bad"].values()) == {"ValueError"}
    with pytest.raises(ValueError, match="Could not interpret initializer identifier: 5"):
        keras.initializers.get(5)
    with pytest.raises(ValueError, match="glorot"):
        keras.initializers.get("glorot")
    with pytest.raises(ValueError, match="Expected `shape` to be"):
        keras.initializers.get(cases.norm_data())((2, 2))
    with pytest.raises(ValueError, match="not callable"):
        keras.layers.Layer().add_weight(shape=(2,), initializer=int)


def test_initializers_get_keeps_instances_and_callables():
    init = keras.initializers.Ones()
    assert keras.initializers.get(init) is init
    assert keras.initializers.get(cases._ones_fn) is cases._ones_fn
    assert isinstance(keras.initializers.get(keras.initializers.GlorotUniform),
                      keras.initializers.GlorotUniform)
    assert keras.initializers.get(None) is None


# ---- Normalization ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(cases.NORMALIZATION))
def test_normalization_mean_variance_match_keras(name):
    got, want = cases.run_normalization(tf, keras, name), DATA["normalization"][name]
    assert got["mean_before"] == want["mean_before"]
    assert got["mean_shape"] == want["mean_shape"]
    close(got["mean"], want["mean"])
    close(got["variance"], want["variance"])
    close(got["y"], want["y"], rtol=1e-4)


@pytest.mark.parametrize("name", list(cases.NORMALIZATION_BAD))
def test_normalization_bad_statistics_are_refused(name):
    with pytest.raises(ERRORS[DATA["normalization_bad"][name]], match="mean"):
        keras.layers.Normalization(**cases.NORMALIZATION_BAD[name])


def test_normalization_follows_its_weights_after_set_weights():
    # Keras keeps the last adapt's statistics (a snapshot); tapegrad reads the weights (differences.md)
    layer = keras.layers.Normalization()
    layer.adapt(np.array([[1.0, 2.0], [3.0, 6.0]], np.float32))
    close(layer.mean, [[2.0, 4.0]])
    layer.set_weights([np.array([1.0, 1.0]), np.array([4.0, 4.0]), np.array(0)])
    close(layer.mean, [[1.0, 1.0]])
    close(layer(np.array([[3.0, 5.0]], np.float32)), [[1.0, 2.0]])
