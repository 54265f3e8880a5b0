"""Title: Custom layers (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/customization/custom_layers.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: `self.add_weight("kernel", shape=...)` -> `self.add_weight(name="kernel", shape=...)`
(Keras 3's first positional argument is `shape`: the original raises TypeError under TF 2.21);
each layer's and model's kernels fixed (fix_weights) after it is built, and each also called on a
seeded NumPy input besides the tutorial's zeros; summary() output not recorded (its parameter
counts are); displayed values recorded in RESULTS.
"""
import numpy as np
import tensorflow as tf
from _corpus import fix_weights

RESULTS = {}
_x = np.random.default_rng(0).random((10, 5)).astype(np.float32)
_img = np.random.default_rng(1).random((1, 2, 3, 3)).astype(np.float32)

RESULTS["gpus"] = len(tf.config.list_physical_devices('GPU'))

layer = tf.keras.layers.Dense(100)
layer = tf.keras.layers.Dense(10, input_shape=(None, 5))
RESULTS["dense_zeros"] = layer(tf.zeros([10, 5]))
RESULTS["dense_variable_shapes"] = [d for v in layer.variables for d in v.shape]
RESULTS["dense_variable_names"] = [v.name for v in layer.variables]
fix_weights(layer)
RESULTS["dense_x"] = layer(_x)
RESULTS["kernel_bias_shapes"] = list(layer.kernel.shape) + list(layer.bias.shape)


class MyDenseLayer(tf.keras.layers.Layer):
    def __init__(self, num_outputs):
        super(MyDenseLayer, self).__init__()
        self.num_outputs = num_outputs

    def build(self, input_shape):
        self.kernel = self.add_weight(name="kernel",
                                      shape=[int(input_shape[-1]),
                                             self.num_outputs])

    def call(self, inputs):
        return tf.matmul(inputs, self.kernel)


layer = MyDenseLayer(10)
_ = layer(tf.zeros([10, 5]))  # Calling the layer `.builds` it.
RESULTS["my_dense_names"] = [var.name for var in layer.trainable_variables]
fix_weights(layer, seed=1)
RESULTS["my_dense_x"] = layer(_x)


class ResnetIdentityBlock(tf.keras.Model):
    def __init__(self, kernel_size, filters):
        super(ResnetIdentityBlock, self).__init__(name='')
        filters1, filters2, filters3 = filters

        self.conv2a = tf.keras.layers.Conv2D(filters1, (1, 1))
        self.bn2a = tf.keras.layers.BatchNormalization()

        self.conv2b = tf.keras.layers.Conv2D(filters2, kernel_size, padding='same')
        self.bn2b = tf.keras.layers.BatchNormalization()

        self.conv2c = tf.keras.layers.Conv2D(filters3, (1, 1))
        self.bn2c = tf.keras.layers.BatchNormalization()

    def call(self, input_tensor, training=False):
        x = self.conv2a(input_tensor)
        x = self.bn2a(x, training=training)
        x = tf.nn.relu(x)

        x = self.conv2b(x)
        x = self.bn2b(x, training=training)
        x = tf.nn.relu(x)

        x = self.conv2c(x)
        x = self.bn2c(x, training=training)

        x += input_tensor
        return tf.nn.relu(x)


block = ResnetIdentityBlock(1, [1, 2, 3])
_ = block(tf.zeros([1, 2, 3, 3]))
RESULTS["block_zeros"] = _
RESULTS["block_layers"] = [type(l).__name__ for l in block.layers]
RESULTS["block_n_variables"] = len(block.variables)
RESULTS["block_params"] = block.count_params()
fix_weights(block, seed=2)
RESULTS["block_x"] = block(_img)
RESULTS["block_x_training"] = block(_img, training=True)

my_seq = tf.keras.Sequential([tf.keras.layers.Conv2D(1, (1, 1),
                                                     input_shape=(
                                                         None, None, 3)),
                              tf.keras.layers.BatchNormalization(),
                              tf.keras.layers.Conv2D(2, 1,
                                                     padding='same'),
                              tf.keras.layers.BatchNormalization(),
                              tf.keras.layers.Conv2D(3, (1, 1)),
                              tf.keras.layers.BatchNormalization()])
RESULTS["seq_zeros"] = my_seq(tf.zeros([1, 2, 3, 3]))
RESULTS["seq_params"] = my_seq.count_params()
fix_weights(my_seq, seed=3)
RESULTS["seq_x"] = my_seq(_img)
