"""Title: Convolutional and pooling layers, tf.nn.conv2d and tf.nn.max_pool, a custom depthwise pooling layer, a CNN for Fashion MNIST and a ResNet-34 built from a custom ResidualUnit layer (Hands-On ML 3rd ed., chapter 14)
Source: https://github.com/ageron/handson-ml3/blob/e3f3f9e66d58cfa1d068a498433063a1d3fba9ef/14_deep_computer_vision_with_cnns.ipynb
Licence: Apache-2.0 (ageron/handson-ml3)
Changed: the notebook's code cells of "Convolutional Layers" through "Implementing a ResNet-34 CNN
Using Keras" (cells 16-58) in order, after the setup cells (5, 9, 13); tf.keras.utils.set_random_seed(42)
at the top (Keras 3's initializers do not follow tf.random.set_seed alone); the sklearn version
check (cell 7) and the matplotlib setup and plotting cells (11, 20, 32's plotting, 38, 43's
plotting) removed, the arrays they show -> RESULTS; sklearn's load_sample_images() (two 427x640
RGB uint8 photos) -> two synthetic 100x160x3 uint8 images from a seeded NumPy generator (smooth
gradients plus noise; the 70x120 center crop kept); Fashion MNIST (60000 + 10000 images,
downloaded) -> 160 + 32 synthetic 28x28 uint8 images and labels (the last 32 training images as
the validation set instead of 5000); epochs 10 -> 1; the ResNet-34 (cell 58) is built as
published and its parameter count, layer count and output shape -> RESULTS (not run on
224x224 images, to keep the run short); every displayed shape and value -> RESULTS.
"""
RESULTS = {}

import numpy as np
# [cell 5]
import sys

assert sys.version_info >= (3, 7)
# [cell 9]
from packaging import version
import tensorflow as tf

assert version.parse(tf.__version__) >= version.parse("2.8.0")
tf.keras.utils.set_random_seed(42)
# [cell 13]
# Is this notebook running on Colab or Kaggle?
IS_COLAB = "google.colab" in sys.modules
IS_KAGGLE = "kaggle_secrets" in sys.modules

if not tf.config.list_physical_devices('GPU'):
    print("No GPU was detected. Neural nets can be very slow without a GPU.")
    if IS_COLAB:
        print("Go to Runtime > Change runtime and select a GPU hardware "
              "accelerator.")
    if IS_KAGGLE:
        print("Go to Settings > Accelerator and select GPU.")

_rng = np.random.default_rng(42)
def load_sample_images():
    yy, xx = np.mgrid[0:100, 0:160]
    base = np.stack([xx / 160, yy / 100, (xx + yy) / 260], axis=-1) * 200
    images = [np.clip(base[..., ::s] + _rng.normal(0, 20, base.shape), 0, 255).astype(np.uint8)
              for s in (1, -1)]
    return {"images": images}

# [cell 16]
import tensorflow as tf

images = load_sample_images()["images"]
images = tf.keras.layers.CenterCrop(height=70, width=120)(images)
images = tf.keras.layers.Rescaling(scale=1 / 255)(images)
# [cell 17]
RESULTS["images_shape"] = list(images.shape)
RESULTS["images_corner"] = images[:, :2, :2, :]
# [cell 18]
tf.random.set_seed(42)  # extra code – ensures reproducibility
conv_layer = tf.keras.layers.Conv2D(filters=32, kernel_size=7)
fmaps = conv_layer(images)
# [cell 19]
RESULTS["fmaps_valid_shape"] = list(fmaps.shape)
RESULTS["fmaps_valid_shown"] = fmaps[:, ::10, ::10, :2]
# [cell 23]
conv_layer = tf.keras.layers.Conv2D(filters=32, kernel_size=7,
                                    padding="same")
fmaps = conv_layer(images)
# [cell 24]
RESULTS["fmaps_same_shape"] = list(fmaps.shape)
RESULTS["fmaps_same_mean"] = tf.reduce_mean(fmaps, axis=[0, 1, 2])
# [cell 25]
# extra code – shows the output shape when we set strides=2
conv_layer = tf.keras.layers.Conv2D(filters=32, kernel_size=7, padding="same",
                                    strides=2)
fmaps = conv_layer(images)
RESULTS["fmaps_strides2_shape"] = list(fmaps.shape)
RESULTS["fmaps_strides2_corner"] = fmaps[0, :3, :3, :3]
# [cell 26]
# extra code – this utility function can be useful to compute the size of the
#              feature maps output by a convolutional layer. It also returns
#              the number of ignored rows or columns if padding="valid", or the
#              number of zero-padded rows or columns if padding="same"."""

import numpy as np

def conv_output_size(input_size, kernel_size, strides=1, padding="valid"):
    if padding=="valid":
        z = input_size - kernel_size + strides
        output_size = z // strides
        num_ignored = z % strides
        return output_size, num_ignored
    else:
        output_size = (input_size - 1) // strides + 1
        num_padded = (output_size - 1) * strides + kernel_size - input_size
        return output_size, num_padded

RESULTS["conv_output_size"] = conv_output_size(np.array([70, 120]), kernel_size=7, strides=2, padding="same")
# [cell 28]
kernels, biases = conv_layer.get_weights()
RESULTS["kernels_shape"] = list(kernels.shape)
# [cell 29]
RESULTS["biases_shape"] = list(biases.shape)
# [cell 30]
# extra code – shows how to use the tf.nn.conv2d() operation

tf.random.set_seed(42)
filters = tf.random.normal([7, 7, 3, 2])
biases = tf.zeros([2])
fmaps = tf.nn.conv2d(images, filters, strides=1, padding="SAME") + biases
RESULTS["nn_conv2d_random_filters"] = fmaps[:, ::10, ::10, :]
# [cell 32]
# extra code – shows how to manually create two filters to get images similar
#              to those in Figure 14–5.

filters = np.zeros([7, 7, 3, 2])
filters[:, 3, :, 0] = 1
filters[3, :, :, 1] = 1
fmaps = tf.nn.conv2d(images, filters, strides=1, padding="SAME") + biases
RESULTS["nn_conv2d_line_filters"] = fmaps[:, ::10, ::10, :]
# [cell 36]
max_pool = tf.keras.layers.MaxPool2D(pool_size=2)
# [cell 37]
output = max_pool(images)
RESULTS["max_pool_shape"] = list(output.shape)
RESULTS["max_pool_first_rows"] = output[0, :3, :5, :]
# [cell 40]
# extra code – shows how to use the max_pool() op; only works on the CPU
np.random.seed(42)
fmaps = np.random.rand(2, 70, 120, 60)
with tf.device("/cpu:0"):
    output = tf.nn.max_pool(fmaps, ksize=(1, 1, 1, 3), strides=(1, 1, 1, 3),
                            padding="VALID")
RESULTS["depth_max_pool_shape"] = list(output.shape)
RESULTS["depth_max_pool_values"] = output[0, 0, :4, :]
# [cell 41]
class DepthPool(tf.keras.layers.Layer):
    def __init__(self, pool_size=2, **kwargs):
        super().__init__(**kwargs)
        self.pool_size = pool_size
    
    def call(self, inputs):
        shape = tf.shape(inputs)  # shape[-1] is the number of channels
        groups = shape[-1] // self.pool_size  # number of channel groups
        new_shape = tf.concat([shape[:-1], [groups, self.pool_size]], axis=0)
        return tf.reduce_max(tf.reshape(inputs, new_shape), axis=-1)
# [cell 42]
# extra code – shows that this custom layer gives the same result as max_pool()
RESULTS["depth_pool_allclose"] = np.allclose(DepthPool(pool_size=3)(fmaps), output)
# [cell 43]
# extra code – computes and displays the output of the depthwise pooling layer

depth_output = DepthPool(pool_size=3)(images)
RESULTS["depth_output_shape"] = list(depth_output.shape)
RESULTS["depth_output_shown"] = depth_output[0, ::10, ::10, 0]
# [cell 45]
global_avg_pool = tf.keras.layers.GlobalAvgPool2D()
RESULTS["global_avg_pool_layer"] = global_avg_pool(images)
# [cell 47]
global_avg_pool = tf.keras.layers.Lambda(
    lambda X: tf.reduce_mean(X, axis=[1, 2]))
# [cell 48]
RESULTS["global_avg_pool_lambda"] = global_avg_pool(images)
# [cell 51]
# extra code – loads the mnist dataset, add the channels axis to the inputs,
#              scales the values to the 0-1 range, and splits the dataset
mnist = ((_rng.integers(0, 256, (160, 28, 28)).astype(np.uint8),
          _rng.integers(0, 10, (160,)).astype(np.uint8)),
         (_rng.integers(0, 256, (32, 28, 28)).astype(np.uint8),
          _rng.integers(0, 10, (32,)).astype(np.uint8)))
(X_train_full, y_train_full), (X_test, y_test) = mnist
X_train_full = np.expand_dims(X_train_full, axis=-1).astype(np.float32) / 255
X_test = np.expand_dims(X_test.astype(np.float32), axis=-1) / 255
X_train, X_valid = X_train_full[:-32], X_train_full[-32:]
y_train, y_valid = y_train_full[:-32], y_train_full[-32:]
# [cell 52]
from functools import partial

tf.random.set_seed(42)  # extra code – ensures reproducibility
DefaultConv2D = partial(tf.keras.layers.Conv2D, kernel_size=3, padding="same",
                        activation="relu", kernel_initializer="he_normal")
model = tf.keras.Sequential([
    DefaultConv2D(filters=64, kernel_size=7, input_shape=[28, 28, 1]),
    tf.keras.layers.MaxPool2D(),
    DefaultConv2D(filters=128),
    DefaultConv2D(filters=128),
    tf.keras.layers.MaxPool2D(),
    DefaultConv2D(filters=256),
    DefaultConv2D(filters=256),
    tf.keras.layers.MaxPool2D(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(units=128, activation="relu",
                          kernel_initializer="he_normal"),
    tf.keras.layers.Dropout(0.5),
    tf.keras.layers.Dense(units=64, activation="relu",
                          kernel_initializer="he_normal"),
    tf.keras.layers.Dropout(0.5),
    tf.keras.layers.Dense(units=10, activation="softmax")
])
# [cell 53]
# extra code – compiles, fits, evaluates, and uses the model to make predictions
model.compile(loss="sparse_categorical_crossentropy", optimizer="nadam",
              metrics=["accuracy"])
history = model.fit(X_train, y_train, epochs=1,
                    validation_data=(X_valid, y_valid))
score = model.evaluate(X_test, y_test)
X_new = X_test[:10]  # pretend we have new images
y_pred = model.predict(X_new)
for _k, _v in history.history.items():
    RESULTS["cnn_history_" + _k] = _v
RESULTS["cnn_count_params"] = model.count_params()
RESULTS["cnn_score"] = score
RESULTS["cnn_y_pred"] = y_pred
# [cell 57]
DefaultConv2D = partial(tf.keras.layers.Conv2D, kernel_size=3, strides=1,
                        padding="same", kernel_initializer="he_normal",
                        use_bias=False)

class ResidualUnit(tf.keras.layers.Layer):
    def __init__(self, filters, strides=1, activation="relu", **kwargs):
        super().__init__(**kwargs)
        self.activation = tf.keras.activations.get(activation)
        self.main_layers = [
            DefaultConv2D(filters, strides=strides),
            tf.keras.layers.BatchNormalization(),
            self.activation,
            DefaultConv2D(filters),
            tf.keras.layers.BatchNormalization()
        ]
        self.skip_layers = []
        if strides > 1:
            self.skip_layers = [
                DefaultConv2D(filters, kernel_size=1, strides=strides),
                tf.keras.layers.BatchNormalization()
            ]

    def call(self, inputs):
        Z = inputs
        for layer in self.main_layers:
            Z = layer(Z)
        skip_Z = inputs
        for layer in self.skip_layers:
            skip_Z = layer(skip_Z)
        return self.activation(Z + skip_Z)
# [cell 58]
model = tf.keras.Sequential([
    DefaultConv2D(64, kernel_size=7, strides=2, input_shape=[224, 224, 3]),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Activation("relu"),
    tf.keras.layers.MaxPool2D(pool_size=3, strides=2, padding="same"),
])
prev_filters = 64
for filters in [64] * 3 + [128] * 4 + [256] * 6 + [512] * 3:
    strides = 1 if filters == prev_filters else 2
    model.add(ResidualUnit(filters, strides=strides))
    prev_filters = filters

model.add(tf.keras.layers.GlobalAvgPool2D())
model.add(tf.keras.layers.Flatten())
model.add(tf.keras.layers.Dense(10, activation="softmax"))
RESULTS["resnet34_count_params"] = model.count_params()
RESULTS["resnet34_n_layers"] = len(model.layers)
RESULTS["resnet34_output_shape"] = str(model.output_shape)
RESULTS["resnet34_trainable_weights"] = len(model.trainable_weights)
RESULTS["resnet34_non_trainable_weights"] = len(model.non_trainable_weights)
