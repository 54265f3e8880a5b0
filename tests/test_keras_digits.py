"""The issue's proof: ``fit`` of a Sequential CNN (Conv2D-MaxPooling2D-Flatten-Dense) on
scikit-learn's digits, from the same initial weights with unshuffled batches, follows Keras 3.15's
curve: per-epoch loss and val_loss to a relative 1e-4, accuracy and val_accuracy exactly
(tests/fixtures/keras_digits.json, recorded by ``tools/record_keras_core.py --digits``)."""

import numpy as np
import pytest

from tapegrad import keras
import tf_compare

import keras_core_cases as cases

datasets = pytest.importorskip("sklearn.datasets")

REC = tf_compare.load_fixture("keras_digits.json")


def test_digits_cnn_follows_keras_curve():
    digits = datasets.load_digits()
    (x, y), (vx, vy) = cases.digits_split(digits.data, digits.target)
    keras.backend.clear_session()
    model = cases.digits_cnn(keras)
    history = model.fit(x, y, validation_data=(vx, vy), verbose=0, **cases.DIGITS_FIT)
    assert sorted(history.history) == sorted(REC["history"])
    for key in ("loss", "val_loss"):
        tf_compare.assert_close(history.history[key], REC["history"][key], rtol=1e-4, err_msg=key)
    for key in ("accuracy", "val_accuracy"):  # counts of right answers: exactly Keras's
        assert np.round(np.array(history.history[key]) * np.array([len(y), len(vy)][key != "accuracy"])).tolist() == \
            np.round(np.array(REC["history"][key]) * [len(y), len(vy)][key != "accuracy"]).tolist()
    for w, ref in zip(model.get_weights(), REC["weights"]):
        tf_compare.assert_close(w, ref, rtol=1e-3, atol=1e-5, err_msg="weights")
