"""Title: Trainer pattern (Keras example)
Source: https://github.com/keras-team/keras-io/blob/3b8cb115628c5736c2ca8a016d859d2d53f19a95/examples/keras_recipes/trainer_pattern.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: keras.datasets.mnist.load_data() (60000/10000 uint8 28x28 images) -> 256/64 synthetic
uint8 images and labels from a seeded NumPy generator; epochs 5 -> 2; verbose=0;
keras.utils.set_random_seed(0) (fit's shuffling and Dropout); model_a built
(model_a.build((None, 28, 28))) and both models' kernels fixed (fix_weights); the histories ->
RESULTS.
"""
import os

os.environ["KERAS_BACKEND"] = "tensorflow"

import numpy as np
import tensorflow as tf
import keras
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}

# Load MNIST dataset and standardize the data
_rng = np.random.default_rng(0)
(x_train, y_train), (x_test, y_test) = (
    (_rng.integers(0, 256, (256, 28, 28)).astype(np.uint8), _rng.integers(0, 10, 256).astype(np.uint8)),
    (_rng.integers(0, 256, (64, 28, 28)).astype(np.uint8), _rng.integers(0, 10, 64).astype(np.uint8)))
x_train, x_test = x_train / 255.0, x_test / 255.0


class MyTrainer(keras.Model):
    def __init__(self, model):
        super().__init__()
        self.model = model
        # Create loss and metrics here.
        self.loss_fn = keras.losses.SparseCategoricalCrossentropy()
        self.accuracy_metric = keras.metrics.SparseCategoricalAccuracy()

    @property
    def metrics(self):
        # List metrics here.
        return [self.accuracy_metric]

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self.model(x, training=True)  # Forward pass
            # Compute loss value
            loss = self.loss_fn(y, y_pred)

        # Compute gradients
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)

        # Update weights
        self.optimizer.apply_gradients(zip(gradients, trainable_vars))

        # Update metrics
        for metric in self.metrics:
            metric.update_state(y, y_pred)

        # Return a dict mapping metric names to current value.
        return {m.name: m.result() for m in self.metrics}

    def test_step(self, data):
        x, y = data

        # Inference step
        y_pred = self.model(x, training=False)

        # Update metrics
        for metric in self.metrics:
            metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}

    def call(self, x):
        # Equivalent to `call()` of the wrapped keras.Model
        x = self.model(x)
        return x


# A model defined using Sequential API
model_a = keras.models.Sequential(
    [
        keras.layers.Flatten(),
        keras.layers.Dense(256, activation="relu"),
        keras.layers.Dropout(0.2),
        keras.layers.Dense(10, activation="softmax"),
    ]
)
model_a.build((None, 28, 28))
fix_weights(model_a)

# A model defined using Functional API
func_input = keras.Input(shape=(28, 28, 1))
x = keras.layers.Flatten()(func_input)
x = keras.layers.Dense(512, activation="relu")(x)
x = keras.layers.Dropout(0.4)(x)
func_output = keras.layers.Dense(10, activation="softmax")(x)

model_b = keras.Model(func_input, func_output)
fix_weights(model_b, seed=1)

trainer_1 = MyTrainer(model_a)
trainer_2 = MyTrainer(model_b)

trainer_1.compile(optimizer=keras.optimizers.SGD())
history = trainer_1.fit(
    x_train, y_train, epochs=2, batch_size=64, validation_data=(x_test, y_test), verbose=0
)
RESULTS["history_1"] = [history.history[k] for k in sorted(history.history)]
RESULTS["history_1_keys"] = sorted(history.history)

trainer_2.compile(optimizer=keras.optimizers.Adam())
history = trainer_2.fit(
    x_train, y_train, epochs=2, batch_size=64, validation_data=(x_test, y_test), verbose=0
)
RESULTS["history_2"] = [history.history[k] for k in sorted(history.history)]
