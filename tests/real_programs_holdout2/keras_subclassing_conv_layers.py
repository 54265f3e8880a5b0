"""Title: Customizing the convolution operation of a Conv2D layer (Keras example)
Source: https://github.com/keras-team/keras-io/blob/12d96f9887792509a1f84dc3b70505ba97bb0890/examples/keras_recipes/subclassing_conv_layers.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: keras.datasets.mnist.load_data() (60000/10000 uint8 28x28 images) -> 256/64 synthetic
uint8 images and labels from a seeded NumPy generator; epochs 5 -> 2; verbose=0;
keras.utils.set_random_seed(0); the model's kernels fixed (fix_weights); summary() and prints ->
RESULTS (the shapes, the parameter count, the history).
"""
import tensorflow.keras as keras
from _corpus import fix_weights

RESULTS = {}
RESULTS["version_major"] = int(keras.__version__.split(".")[0])

import tensorflow as tf
import tensorflow.keras as keras
import keras.layers as layers
import numpy as np

keras.utils.set_random_seed(0)


class StandardizedConv2DWithOverride(layers.Conv2D):
    def convolution_op(self, inputs, kernel):
        mean, var = tf.nn.moments(kernel, axes=[0, 1, 2], keepdims=True)
        return tf.nn.conv2d(
            inputs,
            (kernel - mean) / tf.sqrt(var + 1e-10),
            padding="VALID",
            strides=list(self.strides),
            name=self.__class__.__name__,
        )


class StandardizedConv2DWithCall(layers.Conv2D):
    def call(self, inputs):
        mean, var = tf.nn.moments(self.kernel, axes=[0, 1, 2], keepdims=True)
        result = self.convolution_op(
            inputs, (self.kernel - mean) / tf.sqrt(var + 1e-10)
        )
        if self.use_bias:
            result = result + self.bias
        return result


# Model / data parameters
num_classes = 10
input_shape = (28, 28, 1)

# the data, split between train and test sets
_rng = np.random.default_rng(0)
(x_train, y_train), (x_test, y_test) = (
    (_rng.integers(0, 256, (256, 28, 28)).astype(np.uint8), _rng.integers(0, 10, 256).astype(np.uint8)),
    (_rng.integers(0, 256, (64, 28, 28)).astype(np.uint8), _rng.integers(0, 10, 64).astype(np.uint8)))

# Scale images to the [0, 1] range
x_train = x_train.astype("float32") / 255
x_test = x_test.astype("float32") / 255
# Make sure images have shape (28, 28, 1)
x_train = np.expand_dims(x_train, -1)
x_test = np.expand_dims(x_test, -1)
RESULTS["x_train_shape"] = x_train.shape
RESULTS["counts"] = [x_train.shape[0], x_test.shape[0]]

# convert class vectors to binary class matrices
y_train = keras.utils.to_categorical(y_train, num_classes)
y_test = keras.utils.to_categorical(y_test, num_classes)

model = keras.Sequential(
    [
        keras.layers.InputLayer(input_shape=input_shape),
        StandardizedConv2DWithCall(32, kernel_size=(3, 3), activation="relu"),
        layers.MaxPooling2D(pool_size=(2, 2)),
        StandardizedConv2DWithOverride(64, kernel_size=(3, 3), activation="relu"),
        layers.MaxPooling2D(pool_size=(2, 2)),
        layers.Flatten(),
        layers.Dropout(0.5),
        layers.Dense(num_classes, activation="softmax"),
    ]
)
fix_weights(model)

RESULTS["params"] = model.count_params()

batch_size = 128
epochs = 2

model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])

history = model.fit(x_train, y_train, batch_size=batch_size, epochs=2, validation_split=0.1,
                    verbose=0)
RESULTS["history"] = [history.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")]
