"""Keras's logits cache (tapegrad/keras/_logits.py): a softmax or sigmoid output keeps its logits
and the crossentropy losses use them, with Keras 3.15's numbers (tests/keras_logits_cases.py,
recorded by tools/record_keras_logits.py).

The saturated cases tell the two ways apart by a factor of about 2 to 4 (60 against 16.1); the
others are float32 results of a few operations: a relative 1e-5 covers their rounding.
"""
import json
import os
import warnings

import numpy as np
import pytest

import tapegrad as tf
import keras_logits_cases as cases

keras = tf.keras
HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "keras_logits.json"), encoding="utf-8") as _f:
    RECORDED = json.load(_f)["cases"]


@pytest.mark.parametrize("case", cases.CASES, ids=lambda c: c.__name__)
def test_keras_s_numbers(case):
    got = case(tf, keras)
    want = RECORDED[case.__name__]
    assert sorted(got) == sorted(want)
    for k in want:
        np.testing.assert_allclose(np.asarray(got[k], np.float64), np.asarray(want[k], np.float64),
                                   rtol=1e-5, atol=1e-6, err_msg=f"{case.__name__}: {k}")


def test_the_logits_are_an_attribute_only_of_activation_outputs():
    x = tf.constant([[1.0, 2.0]])
    p = keras.activations.softmax(x)
    assert p._keras_logits is not None and np.array_equal(p._keras_logits.numpy(), x.numpy())
    assert not hasattr(tf.nn.softmax(x), "_keras_logits")
    assert not hasattr(p + 0.0, "_keras_logits")


def test_from_logits_true_on_a_softmax_output_warns_as_keras():
    p = keras.activations.softmax(tf.constant(cases.X))
    with pytest.warns(UserWarning, match=r"`categorical_crossentropy` received `from_logits=True`, but "
                                         r"the `output` argument was produced by a Softmax activation"):
        keras.losses.categorical_crossentropy(cases.ONE_HOT, p, from_logits=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        keras.losses.categorical_crossentropy(cases.ONE_HOT, p)


def test_the_logits_are_dropped_with_their_tensor():
    from tapegrad.keras import _logits
    before = len(_logits._table)
    for _ in range(50):
        keras.activations.sigmoid(tf.constant([1.0]))
    assert len(_logits._table) <= before + 1
