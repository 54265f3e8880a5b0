"""Title: Simple custom layer example: Antirectifier (Keras example)
Source: https://github.com/keras-team/keras-io/blob/2dd71c68bd2a1ebbe588f3571571abcb16d96c27/examples/keras_recipes/antirectifier.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: keras.datasets.mnist.load_data() (60000/10000 uint8 28x28 images) -> 512/128
synthetic uint8 images and labels from a seeded NumPy generator; epochs 20 -> 2; verbose=0;
keras.utils.set_random_seed(0); the model's kernels fixed (fix_weights, which also replaces the
Antirectifier kernels' he_normal draw); prints -> RESULTS (the sample counts, the history, the
evaluation, the layer's config).
"""
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}


class Antirectifier(layers.Layer):
    def __init__(self, initializer="he_normal", **kwargs):
        super(Antirectifier, self).__init__(**kwargs)
        self.initializer = keras.initializers.get(initializer)

    def build(self, input_shape):
        output_dim = input_shape[-1]
        self.kernel = self.add_weight(
            shape=(output_dim * 2, output_dim),
            initializer=self.initializer,
            name="kernel",
            trainable=True,
        )

    def call(self, inputs):
        inputs -= tf.reduce_mean(inputs, axis=-1, keepdims=True)
        pos = tf.nn.relu(inputs)
        neg = tf.nn.relu(-inputs)
        concatenated = tf.concat([pos, neg], axis=-1)
        mixed = tf.matmul(concatenated, self.kernel)
        return mixed

    def get_config(self):
        # Implement get_config to enable serialization. This is optional.
        base_config = super(Antirectifier, self).get_config()
        config = {"initializer": keras.initializers.serialize(self.initializer)}
        return dict(list(base_config.items()) + list(config.items()))


# Training parameters
batch_size = 128
num_classes = 10
epochs = 2

# The data, split between train and test sets
_rng = np.random.default_rng(0)
(x_train, y_train), (x_test, y_test) = (
    (_rng.integers(0, 256, (512, 28, 28)).astype(np.uint8), _rng.integers(0, 10, 512).astype(np.uint8)),
    (_rng.integers(0, 256, (128, 28, 28)).astype(np.uint8), _rng.integers(0, 10, 128).astype(np.uint8)))

x_train = x_train.reshape(-1, 784)
x_test = x_test.reshape(-1, 784)
x_train = x_train.astype("float32")
x_test = x_test.astype("float32")
x_train /= 255
x_test /= 255
RESULTS["samples"] = [x_train.shape[0], x_test.shape[0]]

# Build the model
model = keras.Sequential(
    [
        keras.Input(shape=(784,)),
        layers.Dense(256),
        Antirectifier(),
        layers.Dense(256),
        Antirectifier(),
        layers.Dropout(0.5),
        layers.Dense(10),
    ]
)
fix_weights(model)
RESULTS["config_initializer"] = str(model.layers[1].get_config()["initializer"]["class_name"])

# Compile the model
model.compile(
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    optimizer=keras.optimizers.RMSprop(),
    metrics=[keras.metrics.SparseCategoricalAccuracy()],
)

# Train the model
history = model.fit(x_train, y_train, batch_size=batch_size, epochs=epochs, validation_split=0.15,
                    verbose=0)
RESULTS["history"] = [history.history[k] for k in sorted(history.history)]

# Test the model
RESULTS["evaluate"] = model.evaluate(x_test, y_test, verbose=0)
