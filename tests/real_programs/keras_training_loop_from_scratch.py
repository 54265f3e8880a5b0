"""Title: Writing a training loop from scratch in TensorFlow (Keras guide)
Source: https://github.com/keras-team/keras-io/blob/1806537c4333fbff1f9fd038b78179beeda480fb/guides/writing_a_custom_training_loop_in_tensorflow.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: MNIST -> 96 synthetic images (64 train, 32 validation); shuffle(buffer_size=1024) ->
shuffle(1); epochs 3/2/2 -> 1; each fresh model's kernels fixed (fix_weights); the GAN part
left out (keras_custom_train_step_gan has it); losses and accuracies recorded in RESULTS.
"""
import time
import os

os.environ["KERAS_BACKEND"] = "tensorflow"

import tensorflow as tf
import keras
import numpy as np
from _corpus import images, labels, fix_weights
RESULTS = {}


def get_model():
    inputs = keras.Input(shape=(784,), name="digits")
    x1 = keras.layers.Dense(64, activation="relu")(inputs)
    x2 = keras.layers.Dense(64, activation="relu")(x1)
    outputs = keras.layers.Dense(10, name="predictions")(x2)
    model = keras.Model(inputs=inputs, outputs=outputs)
    fix_weights(model)
    return model


model = get_model()
optimizer = keras.optimizers.Adam(learning_rate=1e-3)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

batch_size = 32
x_train = (images(96, 28, 28)[..., 0] * 255).astype(np.uint8); y_train = labels(96, 10).astype(np.uint8)
x_train = np.reshape(x_train, (-1, 784))

x_val = x_train[-32:]
y_val = y_train[-32:]
x_train = x_train[:-32]
y_train = y_train[:-32]

train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
train_dataset = train_dataset.shuffle(buffer_size=1).batch(batch_size)

val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val))
val_dataset = val_dataset.batch(batch_size)

losses = []
epochs = 1
for epoch in range(epochs):
    for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
        with tf.GradientTape() as tape:
            logits = model(x_batch_train, training=True)
            loss_value = loss_fn(y_batch_train, logits)
        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply(grads, model.trainable_weights)
        losses.append(float(loss_value))
RESULTS["basic_losses"] = losses

model = get_model()
optimizer = keras.optimizers.Adam(learning_rate=1e-3)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
val_acc_metric = keras.metrics.SparseCategoricalAccuracy()

for epoch in range(epochs):
    for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
        with tf.GradientTape() as tape:
            logits = model(x_batch_train, training=True)
            loss_value = loss_fn(y_batch_train, logits)
        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply(grads, model.trainable_weights)
        train_acc_metric.update_state(y_batch_train, logits)
    train_acc = train_acc_metric.result()
    RESULTS["train_acc"] = float(train_acc)
    train_acc_metric.reset_state()
    for x_batch_val, y_batch_val in val_dataset:
        val_logits = model(x_batch_val, training=False)
        val_acc_metric.update_state(y_batch_val, val_logits)
    val_acc = val_acc_metric.result()
    val_acc_metric.reset_state()
    RESULTS["val_acc"] = float(val_acc)
    RESULTS["val_logits"] = val_logits


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss_value = loss_fn(y, logits)
    grads = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply(grads, model.trainable_weights)
    train_acc_metric.update_state(y, logits)
    return loss_value


@tf.function
def test_step(x, y):
    val_logits = model(x, training=False)
    val_acc_metric.update_state(y, val_logits)


compiled_losses = []
for epoch in range(epochs):
    for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
        loss_value = train_step(x_batch_train, y_batch_train)
        compiled_losses.append(float(loss_value))
    train_acc_metric.reset_state()
    for x_batch_val, y_batch_val in val_dataset:
        test_step(x_batch_val, y_batch_val)
    RESULTS["compiled_val_acc"] = float(val_acc_metric.result())
    val_acc_metric.reset_state()
RESULTS["compiled_losses"] = compiled_losses


class ActivityRegularizationLayer(keras.layers.Layer):
    def call(self, inputs):
        self.add_loss(1e-2 * tf.reduce_sum(inputs))
        return inputs


inputs = keras.Input(shape=(784,), name="digits")
x = keras.layers.Dense(64, activation="relu")(inputs)
x = ActivityRegularizationLayer()(x)
x = keras.layers.Dense(64, activation="relu")(x)
outputs = keras.layers.Dense(10, name="predictions")(x)

model = keras.Model(inputs=inputs, outputs=outputs)
fix_weights(model, seed=5)
optimizer = keras.optimizers.Adam(learning_rate=1e-3)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss_value = loss_fn(y, logits)
        loss_value += sum(model.losses)
    grads = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply(grads, model.trainable_weights)
    train_acc_metric.update_state(y, logits)
    return loss_value


RESULTS["add_loss_losses"] = [float(train_step(xb, yb)) for xb, yb in train_dataset]
