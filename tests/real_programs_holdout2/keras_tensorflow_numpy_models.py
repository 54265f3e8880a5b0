"""Title: Writing Keras Models With TensorFlow NumPy (Keras example)
Source: https://github.com/keras-team/keras-io/blob/403a34d1ca15441ad581765f3b7e2f7460bdba7e/examples/keras_recipes/tensorflow_numpy_models.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: keras.datasets.boston_housing.load_data (404/102 rows of 13 features) -> 404/102
synthetic rows from a seeded NumPy generator (a noisy linear target); epochs 200 -> 5;
keras.utils.set_random_seed(0); each model built (model.build((None, input_dim))) where it is not
yet and its kernels fixed (fix_weights) before it trains; the TensorBoard logs written in a
temporary directory that the program changes into; summary() removed; prints -> RESULTS (the
percent errors before and after training, the strategy's name, the final losses).
"""
import os
import tempfile

import numpy as np
from _corpus import fix_weights

os.environ["KERAS_BACKEND"] = "tensorflow"

import tensorflow as tf
import tensorflow.experimental.numpy as tnp
import keras
from keras import layers

keras.utils.set_random_seed(0)
RESULTS = {"errors": []}
os.chdir(tempfile.mkdtemp())
_rng = np.random.default_rng(0)
_x = _rng.normal(0, 1, (506, 13)) * 10 + 20
_y = _x @ _rng.uniform(-0.2, 0.3, 13) + _rng.normal(0, 1, 506) + 10

(x_train, y_train), (x_test, y_test) = (_x[:404], _y[:404]), (_x[404:], _y[404:])
input_dim = x_train.shape[1]


def evaluate_model(model: keras.Model):
    loss, percent_error = model.evaluate(x_test, y_test, verbose=0)
    RESULTS["errors"].append(percent_error)
    model.fit(x_train, y_train, epochs=5, verbose=0)
    loss, percent_error = model.evaluate(x_test, y_test, verbose=0)
    RESULTS["errors"].append(percent_error)


class TNPForwardFeedRegressionNetwork(keras.Model):
    def __init__(self, blocks=None, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(blocks, list):
            raise ValueError(f"blocks must be a list, got blocks={blocks}")
        self.blocks = blocks
        self.block_weights = None
        self.biases = None

    def build(self, input_shape):
        current_shape = input_shape[1]
        self.block_weights = []
        self.biases = []
        for i, block in enumerate(self.blocks):
            self.block_weights.append(
                self.add_weight(
                    shape=(current_shape, block),
                    trainable=True,
                    name=f"block-{i}",
                    initializer="glorot_normal",
                )
            )
            self.biases.append(
                self.add_weight(
                    shape=(block,),
                    trainable=True,
                    name=f"bias-{i}",
                    initializer="zeros",
                )
            )
            current_shape = block

        self.linear_layer = self.add_weight(
            shape=(current_shape, 1),
            name="linear_projector",
            trainable=True,
            initializer="glorot_normal",
        )

    def call(self, inputs):
        activations = inputs
        for w, b in zip(self.block_weights, self.biases):
            activations = tnp.matmul(activations, w) + b
            # ReLu activation function
            activations = tnp.maximum(activations, 0.0)

        return tnp.matmul(activations, self.linear_layer)


model = TNPForwardFeedRegressionNetwork(blocks=[3, 3])
model.compile(
    optimizer="adam",
    loss="mean_squared_error",
    metrics=[keras.metrics.MeanAbsolutePercentageError()],
)
model.build((None, input_dim))
fix_weights(model)
evaluate_model(model)


def tnp_mse(y_true, y_pred):
    return tnp.mean(tnp.square(y_true - y_pred), axis=0)


keras.backend.clear_session()
model = TNPForwardFeedRegressionNetwork(blocks=[3, 3])
model.compile(
    optimizer="adam",
    loss=tnp_mse,
    metrics=[keras.metrics.MeanAbsolutePercentageError()],
)
model.build((None, input_dim))
fix_weights(model)
evaluate_model(model)


def tnp_relu(x):
    return tnp.maximum(x, 0)


class TNPDense(keras.layers.Layer):
    def __init__(self, units, activation=None):
        super().__init__()
        self.units = units
        self.activation = activation

    def build(self, input_shape):
        self.w = self.add_weight(
            name="weights",
            shape=(input_shape[1], self.units),
            initializer="random_normal",
            trainable=True,
        )
        self.bias = self.add_weight(
            name="bias",
            shape=(self.units,),
            initializer="zeros",
            trainable=True,
        )

    def call(self, inputs):
        outputs = tnp.matmul(inputs, self.w) + self.bias
        if self.activation:
            return self.activation(outputs)
        return outputs


def create_layered_tnp_model():
    return keras.Sequential(
        [
            TNPDense(3, activation=tnp_relu),
            TNPDense(3, activation=tnp_relu),
            TNPDense(1),
        ]
    )


model = create_layered_tnp_model()
model.compile(
    optimizer="adam",
    loss="mean_squared_error",
    metrics=[keras.metrics.MeanAbsolutePercentageError()],
)
model.build((None, input_dim))
fix_weights(model)

evaluate_model(model)


def create_mixed_model():
    return keras.Sequential(
        [
            TNPDense(3, activation=tnp_relu),
            # The model will have no issue using a normal Dense layer
            layers.Dense(3, activation="relu"),
            # ... or switching back to tnp layers!
            TNPDense(1),
        ]
    )


model = create_mixed_model()
model.compile(
    optimizer="adam",
    loss="mean_squared_error",
    metrics=[keras.metrics.MeanAbsolutePercentageError()],
)
model.build((None, input_dim))
fix_weights(model)

evaluate_model(model)

gpus = tf.config.list_logical_devices("GPU")
if gpus:
    strategy = tf.distribute.MirroredStrategy(gpus)
else:
    # We can fallback to a no-op CPU strategy.
    strategy = tf.distribute.get_strategy()
RESULTS["strategy"] = str(strategy.__class__.__name__)

with strategy.scope():
    model = create_layered_tnp_model()
    model.compile(
        optimizer="adam",
        loss="mean_squared_error",
        metrics=[keras.metrics.MeanAbsolutePercentageError()],
    )
    model.build((None, input_dim))
    fix_weights(model)
    evaluate_model(model)

keras.backend.clear_session()

models = [
    (
        TNPForwardFeedRegressionNetwork(blocks=[3, 3]),
        "TNPForwardFeedRegressionNetwork",
    ),
    (create_layered_tnp_model(), "layered_tnp_model"),
    (create_mixed_model(), "mixed_model"),
]
RESULTS["final_loss"] = []
for model, model_name in models:
    model.compile(
        optimizer="adam",
        loss="mean_squared_error",
        metrics=[keras.metrics.MeanAbsolutePercentageError()],
    )
    model.build((None, input_dim))
    fix_weights(model)
    history = model.fit(
        x_train,
        y_train,
        epochs=5,
        verbose=0,
        callbacks=[keras.callbacks.TensorBoard(log_dir=f"logs/{model_name}")],
    )
    RESULTS["final_loss"].append(history.history["loss"])
RESULTS["log_dirs"] = sorted(os.listdir("logs"))
