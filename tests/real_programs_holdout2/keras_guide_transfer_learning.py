"""Title: Transfer learning & fine-tuning (Keras guide)
Source: https://github.com/keras-team/keras-io/blob/0a57de48c864d63b80083820e8988368ee5c3149/guides/transfer_learning.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: tfds.load("cats_vs_dogs") (23262 JPEGs of varying sizes) -> three
Dataset.from_tensor_slices splits of 64/16/16 synthetic 60x80x3 uint8 images and int64 labels
from a seeded NumPy generator; keras.applications.Xception(weights="imagenet") (a download) -> a
small convolutional base model (Conv2D, BatchNormalization, ReLU) built in the program, its kernels
fixed (fix_weights) in place of pretrained weights; size (150, 150) -> (32, 32); epochs 20 -> 2
and 10 -> 1; verbose=0; keras.utils.set_random_seed(0); the new model's kernels fixed
(fix_weights); matplotlib and summary() removed; prints -> RESULTS (the weight counts, the
cardinalities, the augmented images' sums, the histories).
"""
import numpy as np
import tensorflow as tf
import keras
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}

layer = keras.layers.Dense(3)
layer.build((None, 4))  # Create the weights

RESULTS["dense_counts"] = [len(layer.weights), len(layer.trainable_weights),
                           len(layer.non_trainable_weights)]

layer = keras.layers.BatchNormalization()
layer.build((None, 4))  # Create the weights

RESULTS["bn_counts"] = [len(layer.weights), len(layer.trainable_weights),
                        len(layer.non_trainable_weights)]

layer = keras.layers.Dense(3)
layer.build((None, 4))  # Create the weights
layer.trainable = False  # Freeze the layer

RESULTS["frozen_counts"] = [len(layer.weights), len(layer.trainable_weights),
                            len(layer.non_trainable_weights)]

# Make a model with 2 layers
layer1 = keras.layers.Dense(3, activation="relu")
layer2 = keras.layers.Dense(3, activation="sigmoid")
model = keras.Sequential([keras.Input(shape=(3,)), layer1, layer2])

# Freeze the first layer
layer1.trainable = False

# Keep a copy of the weights of layer1 for later reference
initial_layer1_weights_values = layer1.get_weights()

# Train the model
model.compile(optimizer="adam", loss="mse")
model.fit(np.random.random((2, 3)), np.random.random((2, 3)), verbose=0)

# Check that the weights of layer1 have not changed during training
final_layer1_weights_values = layer1.get_weights()
np.testing.assert_allclose(
    initial_layer1_weights_values[0], final_layer1_weights_values[0]
)
np.testing.assert_allclose(
    initial_layer1_weights_values[1], final_layer1_weights_values[1]
)

inner_model = keras.Sequential(
    [
        keras.Input(shape=(3,)),
        keras.layers.Dense(3, activation="relu"),
        keras.layers.Dense(3, activation="relu"),
    ]
)

model = keras.Sequential(
    [
        keras.Input(shape=(3,)),
        inner_model,
        keras.layers.Dense(3, activation="sigmoid"),
    ]
)

model.trainable = False  # Freeze the outer model

assert inner_model.trainable == False  # All layers in `model` are now frozen
assert inner_model.layers[0].trainable == False  # `trainable` is propagated recursively

_rng = np.random.default_rng(0)
_images = _rng.integers(0, 256, (96, 60, 80, 3)).astype(np.uint8)
_labels = _rng.integers(0, 2, 96).astype(np.int64)
train_ds, validation_ds, test_ds = (
    tf.data.Dataset.from_tensor_slices((_images[:64], _labels[:64])),
    tf.data.Dataset.from_tensor_slices((_images[64:80], _labels[64:80])),
    tf.data.Dataset.from_tensor_slices((_images[80:], _labels[80:])))

RESULTS["cardinalities"] = [tf.data.experimental.cardinality(train_ds),
                            tf.data.experimental.cardinality(validation_ds),
                            tf.data.experimental.cardinality(test_ds)]

size = (32, 32)

train_ds = train_ds.map(lambda x, y: (tf.image.resize(x, size), y))
validation_ds = validation_ds.map(lambda x, y: (tf.image.resize(x, size), y))
test_ds = test_ds.map(lambda x, y: (tf.image.resize(x, size), y))

batch_size = 32

train_ds = train_ds.cache().batch(batch_size).prefetch(buffer_size=10)
validation_ds = validation_ds.cache().batch(batch_size).prefetch(buffer_size=10)
test_ds = test_ds.cache().batch(batch_size).prefetch(buffer_size=10)

from tensorflow import keras
from tensorflow.keras import layers

data_augmentation = keras.Sequential(
    [
        layers.RandomFlip("horizontal"),
        layers.RandomRotation(0.1),
    ]
)

import numpy as np

for images, labels in train_ds.take(1):
    first_image = images[0]
    augmented = []
    for i in range(9):
        augmented_image = data_augmentation(
            tf.expand_dims(first_image, 0), training=True
        )
        augmented.append(np.sum(augmented_image[0].numpy().astype("int32")))
    RESULTS["augmented_sums"] = augmented
    RESULTS["first_label"] = int(labels[0])

_base_inputs = keras.Input(shape=(32, 32, 3))
_x = layers.Conv2D(8, 3, strides=2, use_bias=False)(_base_inputs)
_x = layers.BatchNormalization()(_x)
_x = layers.Activation("relu")(_x)
_x = layers.Conv2D(16, 3, use_bias=False)(_x)
_x = layers.BatchNormalization()(_x)
_x = layers.Activation("relu")(_x)
base_model = keras.Model(_base_inputs, _x)
fix_weights(base_model, seed=1)

# Freeze the base_model
base_model.trainable = False

# Create new model on top
inputs = keras.Input(shape=(32, 32, 3))
x = data_augmentation(inputs)  # Apply random data augmentation

# Pre-trained Xception weights requires that input be scaled
# from (0, 255) to a range of (-1., +1.), the rescaling layer
# outputs: `(inputs * scale) + offset`
scale_layer = keras.layers.Rescaling(scale=1 / 127.5, offset=-1)
x = scale_layer(x)

# The base model contains batchnorm layers. We want to keep them in inference mode
# when we unfreeze the base model for fine-tuning, so we make sure that the
# base_model is running in inference mode here.
x = base_model(x, training=False)
x = keras.layers.GlobalAveragePooling2D()(x)
x = keras.layers.Dropout(0.2)(x)  # Regularize with dropout
outputs = keras.layers.Dense(1)(x)
model = keras.Model(inputs, outputs)
fix_weights(model.layers[-1])
RESULTS["trainable_count_frozen"] = len(model.trainable_weights)

model.compile(
    optimizer=keras.optimizers.Adam(),
    loss=keras.losses.BinaryCrossentropy(from_logits=True),
    metrics=[keras.metrics.BinaryAccuracy()],
)

epochs = 2
history = model.fit(train_ds, epochs=epochs, validation_data=validation_ds, verbose=0)
RESULTS["history_top"] = [history.history[k] for k in sorted(history.history)]

# Unfreeze the base_model. Note that it keeps running in inference mode
# since we passed `training=False` when calling it. This means that
# the batchnorm layers will not update their batch statistics.
# This prevents the batchnorm layers from undoing all the training
# we've done so far.
base_model.trainable = True
RESULTS["trainable_count_unfrozen"] = len(model.trainable_weights)

model.compile(
    optimizer=keras.optimizers.Adam(1e-5),  # Low learning rate
    loss=keras.losses.BinaryCrossentropy(from_logits=True),
    metrics=[keras.metrics.BinaryAccuracy()],
)

epochs = 1
history = model.fit(train_ds, epochs=epochs, validation_data=validation_ds, verbose=0)
RESULTS["history_fine_tune"] = [history.history[k] for k in sorted(history.history)]
RESULTS["bn_moving_mean"] = base_model.layers[2].moving_mean
