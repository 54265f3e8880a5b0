"""Title: Customizing what happens in fit() with TensorFlow (Keras guide)
Source: https://github.com/keras-team/keras-io/blob/b4108fbfe9f0cbad37f4f3c2bc5e4db0dd8bd2b6/guides/custom_train_step_in_tensorflow.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: np.random.random data -> a seeded NumPy generator, 1000 rows -> 64; epochs 3/5 -> 2;
keras.utils.set_random_seed(0) for fit's shuffling; each model's kernel fixed (fix_weights);
verbose=0; the History and evaluate results recorded in RESULTS.
"""
import os
os.environ["KERAS_BACKEND"] = "tensorflow"

import tensorflow as tf
import keras
from keras import layers
import numpy as np
from _corpus import fix_weights
keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)


class CustomModel(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply(gradients, trainable_vars)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


inputs = keras.Input(shape=(32,))
outputs = keras.layers.Dense(1)(inputs)
model = CustomModel(inputs, outputs)
fix_weights(model, seed=1)
model.compile(optimizer="adam", loss="mse", metrics=["mae"])
x = _rng.random((64, 32))
y = _rng.random((64, 1))
h = model.fit(x, y, epochs=2, verbose=0)
RESULTS["first_loss"] = h.history["loss"]
RESULTS["first_mae"] = h.history["mae"]


class CustomModel(keras.Model):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.loss_tracker = keras.metrics.Mean(name="loss")
        self.mae_metric = keras.metrics.MeanAbsoluteError(name="mae")
        self.loss_fn = keras.losses.MeanSquaredError()

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.loss_fn(y, y_pred)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply(gradients, trainable_vars)
        self.loss_tracker.update_state(loss)
        self.mae_metric.update_state(y, y_pred)
        return {
            "loss": self.loss_tracker.result(),
            "mae": self.mae_metric.result(),
        }

    @property
    def metrics(self):
        return [self.loss_tracker, self.mae_metric]


inputs = keras.Input(shape=(32,))
outputs = keras.layers.Dense(1)(inputs)
model = CustomModel(inputs, outputs)
fix_weights(model, seed=2)
model.compile(optimizer="adam")
x = _rng.random((64, 32))
y = _rng.random((64, 1))
h = model.fit(x, y, epochs=2, verbose=0)
RESULTS["lower_level_loss"] = h.history["loss"]


class CustomModel(keras.Model):
    def train_step(self, data):
        if len(data) == 3:
            x, y, sample_weight = data
        else:
            sample_weight = None
            x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(
                y=y,
                y_pred=y_pred,
                sample_weight=sample_weight,
            )
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply(gradients, trainable_vars)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred, sample_weight=sample_weight)
        return {m.name: m.result() for m in self.metrics}


inputs = keras.Input(shape=(32,))
outputs = keras.layers.Dense(1)(inputs)
model = CustomModel(inputs, outputs)
fix_weights(model, seed=3)
model.compile(optimizer="adam", loss="mse", metrics=["mae"])
x = _rng.random((64, 32))
y = _rng.random((64, 1))
sw = _rng.random((64, 1))
h = model.fit(x, y, sample_weight=sw, epochs=2, verbose=0)
RESULTS["sample_weight_loss"] = h.history["loss"]


class CustomModel(keras.Model):
    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        loss = self.compute_loss(y=y, y_pred=y_pred)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


inputs = keras.Input(shape=(32,))
outputs = keras.layers.Dense(1)(inputs)
model = CustomModel(inputs, outputs)
fix_weights(model, seed=4)
model.compile(loss="mse", metrics=["mae"])
x = _rng.random((64, 32))
y = _rng.random((64, 1))
RESULTS["evaluate"] = model.evaluate(x, y, verbose=0)
