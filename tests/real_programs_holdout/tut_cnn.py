"""Title: Convolutional Neural Network (CNN) (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/images/cnn.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: CIFAR-10 (50000/10000 uint8 32x32x3 images, (n, 1) uint8 labels) -> 64/16 synthetic ones
from a seeded NumPy generator; epochs 10 -> 2; verbose=0; keras.utils.set_random_seed(0) for fit's
shuffling; the model's kernels fixed (fix_weights) once built; matplotlib plots removed; the
summaries' parameter counts, the history and the evaluation recorded in RESULTS.
"""
import numpy as np
import tensorflow as tf

from tensorflow.keras import datasets, layers, models  # noqa: F401 (as published)
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)
train_images = _rng.integers(0, 256, (64, 32, 32, 3)).astype(np.uint8)
train_labels = _rng.integers(0, 10, (64, 1)).astype(np.uint8)
test_images = _rng.integers(0, 256, (16, 32, 32, 3)).astype(np.uint8)
test_labels = _rng.integers(0, 10, (16, 1)).astype(np.uint8)

# Normalize pixel values to be between 0 and 1
train_images, test_images = train_images / 255.0, test_images / 255.0

model = models.Sequential()
model.add(layers.Conv2D(32, (3, 3), activation='relu', input_shape=(32, 32, 3)))
model.add(layers.MaxPooling2D((2, 2)))
model.add(layers.Conv2D(64, (3, 3), activation='relu'))
model.add(layers.MaxPooling2D((2, 2)))
model.add(layers.Conv2D(64, (3, 3), activation='relu'))
RESULTS["conv_params"] = model.count_params()
RESULTS["conv_output_shape"] = list(model.output_shape[1:])

model.add(layers.Flatten())
model.add(layers.Dense(64, activation='relu'))
model.add(layers.Dense(10))
RESULTS["params"] = model.count_params()
fix_weights(model)

model.compile(optimizer='adam',
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])

history = model.fit(train_images, train_labels, epochs=2, verbose=0,
                    validation_data=(test_images, test_labels))
RESULTS["accuracy"] = history.history['accuracy']
RESULTS["val_accuracy"] = history.history['val_accuracy']
RESULTS["loss"] = history.history['loss']
RESULTS["val_loss"] = history.history['val_loss']

test_loss, test_acc = model.evaluate(test_images, test_labels, verbose=2)
RESULTS["test_loss"] = test_loss
RESULTS["test_acc"] = test_acc
