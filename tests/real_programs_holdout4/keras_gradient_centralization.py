"""Title: Gradient Centralization for Better Training Performance (Keras example, Keras 3 port)
Source: https://github.com/keras-team/keras/blob/2fae37e0c71c70f81baeed9f5e216ae4d8b92280/examples/keras_io/vision/gradient_centralization.py
Licence: Apache-2.0 (keras-team/keras)
Changed: tfds.load("horses_or_humans", as_supervised=True, with_info=True) (downloaded with
tensorflow_datasets; 1027/256 uint8 300x300x3 images) -> 64/16 synthetic uint8 images and int64
labels from a seeded NumPy generator as (image, label) datasets, the metadata prints printing
their shapes and counts; input_shape (300, 300, 3) -> (96, 96, 3) (the smallest size the five
conv/pool stages leave valid is near 76), Dense 512 -> 32 units; batch_size 128 -> 16; epochs
10 -> 2 (both fits); verbose=1 -> 0; keras.utils.set_random_seed(0) (shuffle, augmentation,
dropout and initializers are unseeded) and tf.config.experimental.enable_op_determinism() (the
augmentation runs in a parallel map); the model's kernels fixed (fix_weights); the training
times (clock) not recorded, only how many epochs were timed; prints -> RESULTS.
"""

from time import time

import keras
from keras import layers
from keras.optimizers import RMSprop
from keras import ops

import numpy as np
import tensorflow as tf
from tensorflow import data as tf_data
from _corpus import fix_weights

keras.utils.set_random_seed(0)
tf.config.experimental.enable_op_determinism()
RESULTS = {}
_rng = np.random.default_rng(0)

num_classes = 2
input_shape = (96, 96, 3)
dataset_name = "horses_or_humans"
batch_size = 16
AUTOTUNE = tf_data.AUTOTUNE

(train_ds, test_ds) = (
    tf_data.Dataset.from_tensor_slices((_rng.integers(0, 256, (64, 96, 96, 3)).astype(np.uint8),
                                        _rng.integers(0, 2, 64))),
    tf_data.Dataset.from_tensor_slices((_rng.integers(0, 256, (16, 96, 96, 3)).astype(np.uint8),
                                        _rng.integers(0, 2, 16))),
)

print(f"Image shape: {train_ds.element_spec[0].shape}")
print(f"Training images: {len(train_ds)}")
print(f"Test images: {len(test_ds)}")

rescale = layers.Rescaling(1.0 / 255)

data_augmentation = [
    layers.RandomFlip("horizontal_and_vertical"),
    layers.RandomRotation(0.3),
    layers.RandomZoom(0.2),
]


# Helper to apply augmentation
def apply_aug(x):
    for aug in data_augmentation:
        x = aug(x)
    return x


def prepare(ds, shuffle=False, augment=False):
    # Rescale dataset
    ds = ds.map(lambda x, y: (rescale(x), y), num_parallel_calls=AUTOTUNE)

    if shuffle:
        ds = ds.shuffle(1024)

    # Batch dataset
    ds = ds.batch(batch_size)

    # Use data augmentation only on the training set
    if augment:
        ds = ds.map(
            lambda x, y: (apply_aug(x), y),
            num_parallel_calls=AUTOTUNE,
        )

    # Use buffered prefecting
    return ds.prefetch(buffer_size=AUTOTUNE)


train_ds = prepare(train_ds, shuffle=True, augment=True)
test_ds = prepare(test_ds)

model = keras.Sequential(
    [
        layers.Conv2D(16, (3, 3), activation="relu", input_shape=(96, 96, 3)),
        layers.MaxPooling2D(2, 2),
        layers.Conv2D(32, (3, 3), activation="relu"),
        layers.Dropout(0.5),
        layers.MaxPooling2D(2, 2),
        layers.Conv2D(64, (3, 3), activation="relu"),
        layers.Dropout(0.5),
        layers.MaxPooling2D(2, 2),
        layers.Conv2D(64, (3, 3), activation="relu"),
        layers.MaxPooling2D(2, 2),
        layers.Conv2D(64, (3, 3), activation="relu"),
        layers.MaxPooling2D(2, 2),
        layers.Flatten(),
        layers.Dropout(0.5),
        layers.Dense(32, activation="relu"),
        layers.Dense(1, activation="sigmoid"),
    ]
)
fix_weights(model)


class GCRMSprop(RMSprop):
    def get_gradients(self, loss, params):
        # We here just provide a modified get_gradients() function since we are
        # trying to just compute the centralized gradients.

        grads = []
        gradients = super().get_gradients()
        for grad in gradients:
            grad_len = len(grad.shape)
            if grad_len > 1:
                axis = list(range(grad_len - 1))
                grad -= ops.mean(grad, axis=axis, keep_dims=True)
            grads.append(grad)

        return grads


optimizer = GCRMSprop(learning_rate=1e-4)


class TimeHistory(keras.callbacks.Callback):
    def on_train_begin(self, logs={}):
        self.times = []

    def on_epoch_begin(self, batch, logs={}):
        self.epoch_time_start = time()

    def on_epoch_end(self, batch, logs={}):
        self.times.append(time() - self.epoch_time_start)


time_callback_no_gc = TimeHistory()
model.compile(
    loss="binary_crossentropy",
    optimizer=RMSprop(learning_rate=1e-4),
    metrics=["accuracy"],
)

model.summary()

history_no_gc = model.fit(
    train_ds, epochs=2, verbose=0, callbacks=[time_callback_no_gc]
)

time_callback_gc = TimeHistory()
model.compile(
    loss="binary_crossentropy", optimizer=optimizer, metrics=["accuracy"]
)

model.summary()

history_gc = model.fit(
    train_ds, epochs=2, verbose=0, callbacks=[time_callback_gc]
)

print("Not using Gradient Centralization")
print(f"Loss: {history_no_gc.history['loss'][-1]}")
print(f"Accuracy: {history_no_gc.history['accuracy'][-1]}")
print(f"Training Time: {sum(time_callback_no_gc.times)}")

print("Using Gradient Centralization")
print(f"Loss: {history_gc.history['loss'][-1]}")
print(f"Accuracy: {history_gc.history['accuracy'][-1]}")
print(f"Training Time: {sum(time_callback_gc.times)}")
RESULTS["no_gc"] = [history_no_gc.history["loss"], history_no_gc.history["accuracy"]]
RESULTS["gc"] = [history_gc.history["loss"], history_gc.history["accuracy"]]
RESULTS["timed_epochs"] = [len(time_callback_no_gc.times), len(time_callback_gc.times)]
RESULTS["last_kernel"] = model.layers[-1].kernel
