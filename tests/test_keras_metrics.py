"""tapegrad.keras.metrics against Keras 3.15's numbers (recorded by tools/record_keras_losses.py):
each metric through three update_state calls (two with sample weights), then reset_state and one
more call; the accuracy functions; get and resolve_metric (what compile does with "accuracy")."""
from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import tapegrad as tf
import tf_compare
from tapegrad.keras import metrics

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "keras_losses.json")
DATA = tf_compare.load_fixture("keras_losses.json")


def _id(c):
    return c["class"] + "(" + ",".join(f"{k}={v}" for k, v in c["kwargs"].items()) + ")"


@pytest.mark.parametrize("case", DATA["metrics"], ids=_id)
def test_metric_results_after_each_update_match_keras(case):
    m = getattr(metrics, case["class"])(**case["kwargs"])
    got = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for u in case["updates"]:
            args = ([u["y_pred"]] if u["y_true"] is None else
                    [np.array(u["y_true"], np.float32), np.array(u["y_pred"], np.float32)])
            w = None if u["sample_weight"] is None else np.array(u["sample_weight"], np.float32)
            m.update_state(*args, sample_weight=w)
            got.append(m.result().numpy())
        m.reset_state()
        got.append(m.result().numpy())
    for i, (g, want) in enumerate(zip(got, case["results"])):
        tf_compare.assert_close(g, want, rtol=1e-5, atol=1e-6, err_msg=f"after update {i}")


def test_state_lives_in_non_trainable_variables():
    m = metrics.AUC(num_thresholds=5)
    assert len(m.variables) == 4
    assert all(isinstance(v, tf.Variable) and not v.trainable for v in m.variables)
    assert m.variables[0].shape == (5,)
    mean = metrics.Mean()
    assert mean([1.0, 2.0]).numpy() == 1.5
    assert [v.numpy() for v in mean.variables] == [3.0, 2.0]


def test_metric_update_inside_a_tape_leaves_the_gradient_alone():
    w = tf.Variable([0.3, 0.8])
    acc = metrics.BinaryAccuracy()
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w)
        acc.update_state([0.0, 1.0], w)
    np.testing.assert_allclose(tape.gradient(loss, w).numpy(), [0.6, 1.6])
    assert acc.result().numpy() == 1.0


def test_accuracy_functions():
    np.testing.assert_array_equal(metrics.sparse_top_k_categorical_accuracy(
        [2, 0], [[0.3, 0.3, 0.3], [0.1, 0.5, 0.4]], k=1).numpy(), [1.0, 0.0])  # ties count in (TF's in_top_k)
    np.testing.assert_array_equal(metrics.sparse_top_k_categorical_accuracy(
        [2, 0], [[2, 0, 1], [1, 2, 0]], k=2, from_sorted_ids=True).numpy(), [1.0, 0.0])
    np.testing.assert_array_equal(metrics.categorical_accuracy([[0, 1], [1, 0]], [[0.2, 0.8], [0.3, 0.7]]).numpy(),
                                  [1.0, 0.0])


@pytest.mark.parametrize("ident, t, p, cls", [
    ("accuracy", (8, 1), (8, 1), metrics.BinaryAccuracy),
    ("accuracy", (8,), (8, 3), metrics.SparseCategoricalAccuracy),
    ("acc", (8, 1), (8, 3), metrics.SparseCategoricalAccuracy),
    ("accuracy", (8, 3), (8, 3), metrics.CategoricalAccuracy),
    ("mse", (8, 1), (8, 1), metrics.MeanSquaredError),
    ("AUC", (8, 1), (8, 1), metrics.AUC),
])
def test_resolve_metric_follows_compile(ident, t, p, cls):
    m = metrics.resolve_metric(ident, t, p)
    assert type(m) is cls and m.name == ident


def test_get_and_errors():
    assert isinstance(metrics.get("binary_accuracy"), metrics.BinaryAccuracy)
    assert isinstance(metrics.get({"class_name": "AUC", "config": {"curve": "PR"}}), metrics.AUC)
    assert metrics.get(metrics.binary_accuracy) is metrics.binary_accuracy
    with pytest.raises(ValueError, match="Did you mean 'accuracy'"):
        metrics.get("acuracy")
    with pytest.raises(ValueError, match=r"Threshold values must be in \[0, 1\]"):
        metrics.Precision(thresholds=[0.5, 1.5])
    with pytest.raises(ValueError, match="curve"):
        metrics.AUC(curve="ROCK")
    m = metrics.Precision(thresholds=[0.2, 0.7], name="p")
    again = metrics.deserialize(metrics.serialize(m))
    assert again.get_config() == m.get_config()
