"""Title: Migrate TensorBoard: TensorFlow's visualization toolkit (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/migrate/tensorboard.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the TensorFlow 1 Estimator cells dropped (tf.compat.v1.estimator is not in TF 2.21, and
they are not TF2 eager code) and the tensorboard magics removed; mnist.load_data() (downloaded;
60000/10000 uint8 28x28 images) -> 640/64 synthetic uint8 images and labels from a seeded NumPy
generator; Dense 512 -> 64 units; epochs 10 -> 3; verbose=0; keras.utils.set_random_seed(0)
(dropout and initializers are unseeded); the model's kernels fixed (fix_weights); the history
and the event-file folders TensorBoard wrote -> RESULTS.
"""
import tensorflow.compat.v1 as tf1
import tensorflow as tf
import tempfile
import numpy as np
import datetime
import os
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)

(x_train, y_train),(x_test, y_test) = (
    (_rng.integers(0, 256, (640, 28, 28)).astype(np.uint8), _rng.integers(0, 10, 640).astype(np.uint8)),
    (_rng.integers(0, 256, (64, 28, 28)).astype(np.uint8), _rng.integers(0, 10, 64).astype(np.uint8)))
x_train, x_test = x_train / 255.0, x_test / 255.0

def create_model():
  return tf.keras.models.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28), name='layers_flatten'),
    tf.keras.layers.Dense(64, activation='relu', name='layers_dense'),
    tf.keras.layers.Dropout(0.2, name='layers_dropout'),
    tf.keras.layers.Dense(10, activation='softmax', name='layers_dense_2')
  ])

model = create_model()
fix_weights(model)
model.compile(optimizer='adam',
              loss='sparse_categorical_crossentropy',
              metrics=['accuracy'],
              steps_per_execution=10)

log_dir = tempfile.mkdtemp()
tensorboard_callback = tf.keras.callbacks.TensorBoard(
  log_dir=log_dir,
  histogram_freq=1) # Enable histogram computation with each epoch.

history = model.fit(x=x_train,
          y=y_train,
          epochs=3,
          validation_data=(x_test, y_test),
          callbacks=[tensorboard_callback], verbose=0)
RESULTS["history"] = [history.history[k] for k in sorted(history.history)]
RESULTS["history_keys"] = sorted(history.history)
RESULTS["log_dirs"] = sorted(os.listdir(tensorboard_callback.log_dir))
RESULTS["kernel"] = model.get_layer('layers_dense_2').kernel
