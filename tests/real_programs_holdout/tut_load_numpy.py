"""Title: Load NumPy data (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/load_data/numpy.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: mnist.npz (downloaded with keras.utils.get_file; 60000/10000 uint8 28x28 images) -> a
synthetic mnist.npz of 256/64 images and uint8 labels from a seeded NumPy generator, written in a
temporary directory and read as the tutorial reads it; epochs 10 -> 2; verbose=0;
keras.utils.set_random_seed(0) (Dataset.shuffle is unseeded); the model's kernels fixed
(fix_weights); the history and evaluation recorded in RESULTS.
"""
import os
import tempfile

import numpy as np
import tensorflow as tf
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)
path = os.path.join(tempfile.mkdtemp(), 'mnist.npz')
np.savez(path, x_train=_rng.integers(0, 256, (256, 28, 28)).astype(np.uint8),
         y_train=_rng.integers(0, 10, 256).astype(np.uint8),
         x_test=_rng.integers(0, 256, (64, 28, 28)).astype(np.uint8),
         y_test=_rng.integers(0, 10, 64).astype(np.uint8))

with np.load(path) as data:
    train_examples = data['x_train']
    train_labels = data['y_train']
    test_examples = data['x_test']
    test_labels = data['y_test']

train_dataset = tf.data.Dataset.from_tensor_slices((train_examples, train_labels))
test_dataset = tf.data.Dataset.from_tensor_slices((test_examples, test_labels))
RESULTS["element_spec"] = [str(s.dtype.name) + str(s.shape) for s in train_dataset.element_spec]

BATCH_SIZE = 64
SHUFFLE_BUFFER_SIZE = 100

train_dataset = train_dataset.shuffle(SHUFFLE_BUFFER_SIZE).batch(BATCH_SIZE)
test_dataset = test_dataset.batch(BATCH_SIZE)

model = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28)),
    tf.keras.layers.Dense(128, activation='relu'),
    tf.keras.layers.Dense(10)
])
fix_weights(model)

model.compile(optimizer=tf.keras.optimizers.RMSprop(),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['sparse_categorical_accuracy'])

history = model.fit(train_dataset, epochs=2, verbose=0)
RESULTS["loss"] = history.history["loss"]
RESULTS["accuracy"] = history.history["sparse_categorical_accuracy"]

RESULTS["evaluate"] = model.evaluate(test_dataset, verbose=0)
