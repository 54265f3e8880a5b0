"""Title: Regression Model on Boston Housing Dataset (Keras example)
Source: https://github.com/keras-team/keras-io/blob/abf63bfae530c46a8bb7e6a84843fa58270a3d1f/examples/structured_data/regression_boston_housing.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: tf.keras.datasets.boston_housing.load_data(path=..., test_split=0.3, seed=42)
(downloaded; 506 rows of 13 features) -> 506 synthetic rows (features on the dataset's scales,
a price from a fixed linear rule plus noise) from a seeded NumPy generator, split 70:30 in order;
`import pandas` (unused) and matplotlib removed; epochs 100 -> 30; verbose=2 -> 0 (evaluate) and
verbose=0 (predict); keras.utils.set_random_seed(0) (the validation model's initializers are
unseeded); the model's kernels fixed (fix_weights); summary() and prints -> RESULTS (shapes, the
history, the test loss, predictions and errors).
"""

import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)
_x = _rng.uniform(0, 1, (506, 13)) * np.array([90, 100, 28, 1, 0.5, 4, 100, 12, 24, 700, 10, 400, 38]) \
    + np.array([0, 0, 0, 0, 0.38, 3.5, 3, 1, 1, 187, 12, 0, 2])
_x[:, 3] = np.round(_x[:, 3])
_y = np.clip(22 + 0.5 * (_x[:, 5] - 6) * 9 - 0.3 * (_x[:, 12] - 12) + _rng.normal(0, 3, 506), 5, 50)

# The dataset is splitted by 70:30 proportion
(x_train, y_train), (x_test, y_test) = (_x[:354], _y[:354]), (_x[354:], _y[354:])

RESULTS["train_dimension"] = list(x_train.shape)
RESULTS["test_dimension"] = list(x_test.shape)


def build_model():
    model = keras.Sequential(
        [
            # input_shape is number of features
            layers.Dense(32, activation="relu", input_shape=[x_train.shape[1]]),
            layers.Dense(32, activation="relu"),
            layers.Dense(1),
        ]
    )

    # The loss function is mean squared error
    # The metrics is Mean Absolute Error and Mean Squared Error
    model.compile(loss="mse", optimizer="adam", metrics=["mae", "mse"])
    return model


# Build the model
model = build_model()
fix_weights(model)
RESULTS["count_params"] = model.count_params()

# Use early stopping to break the training if the val_loss doesn't changed in 10 epochs
early_stop = keras.callbacks.EarlyStopping(monitor="val_loss", patience=10)


history = model.fit(
    x_train,
    y_train,
    batch_size=32,
    epochs=30,
    verbose=0,
    validation_split=0.3,
    callbacks=[early_stop],
)
RESULTS["loss"] = history.history["loss"]
RESULTS["val_loss"] = history.history["val_loss"]

# Test Loss
loss, mae, mse = model.evaluate(x_test, y_test, verbose=0)
RESULTS["test"] = [loss, mae, mse]

prediction = model.predict(x_test, verbose=0).flatten()
RESULTS["prediction"] = prediction

error = prediction - y_test
RESULTS["error"] = error.astype(np.float32)  # (float32 predictions: judged at float32 precision)
