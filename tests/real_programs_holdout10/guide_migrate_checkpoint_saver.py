"""Title: Migrate checkpoint saving (TensorFlow migration guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/migrate/checkpoint_saver.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the TensorFlow 1 Estimator cells dropped (tf.compat.v1.estimator is not in TF 2.21) and
the `%ls` cells replaced by listing the directory into RESULTS; keras.utils.set_random_seed(0)
(the Keras initializers and Dropout are unseeded); MNIST (60000/10000 images) -> 1000/200
synthetic uint8 28x28 images with uint8 labels from a seeded NumPy generator (then / 255.0 as in
the guide); verbose=0; ModelCheckpoint(filepath=log_dir) -> filepath=log_dir + "/model.keras"
(Keras 3 refuses a checkpoint path that does not end in .keras); the history and the checkpoint
directory's listing -> RESULTS.
"""
import os

import numpy as np

RESULTS = {}

import tensorflow.compat.v1 as tf1
import tensorflow as tf
import numpy as np
import tempfile
import keras
keras.utils.set_random_seed(0)

_rng = np.random.default_rng(0)
(x_train, y_train), (x_test, y_test) = (
    (_rng.integers(0, 256, (1000, 28, 28)).astype(np.uint8), _rng.integers(0, 10, (1000,)).astype(np.uint8)),
    (_rng.integers(0, 256, (200, 28, 28)).astype(np.uint8), _rng.integers(0, 10, (200,)).astype(np.uint8)))
x_train, x_test = x_train / 255.0, x_test / 255.0


def create_model():
  return tf.keras.models.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28)),
    tf.keras.layers.Dense(512, activation='relu'),
    tf.keras.layers.Dropout(0.2),
    tf.keras.layers.Dense(10, activation='softmax')
  ])

model = create_model()
model.compile(optimizer='adam',
              loss='sparse_categorical_crossentropy',
              metrics=['accuracy'],
              steps_per_execution=10)

log_dir = tempfile.mkdtemp()

model_checkpoint_callback = tf.keras.callbacks.ModelCheckpoint(
    filepath=os.path.join(log_dir, "model.keras"))

history = model.fit(x=x_train,
          y=y_train,
          epochs=10,
          validation_data=(x_test, y_test),
          callbacks=[model_checkpoint_callback], verbose=0)
RESULTS["loss"] = history.history["loss"]
RESULTS["accuracy"] = history.history["accuracy"]
RESULTS["val_loss"] = history.history["val_loss"]
RESULTS["val_accuracy"] = history.history["val_accuracy"]
RESULTS["log_dir_files"] = np.array(sorted(os.listdir(log_dir)))
