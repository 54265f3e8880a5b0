"""Title: Deep Learning with Python, 3rd ed., chapter 3: Introduction to TensorFlow, PyTorch, JAX and Keras (TensorFlow and Keras parts)
Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/dea84a4e12cc3bb3cb61ce952a0168bca113d315/chapter03_introduction-to-ml-frameworks.ipynb
Licence: MIT (fchollet/deep-learning-with-python-notebooks)
Changed: the notebook's TensorFlow cells ("Introduction to TensorFlow", the pure-TensorFlow linear
classifier) and its Keras cells (SimpleDense, compile/fit of the linear classifier), in order;
the PyTorch and JAX sections are left out (they need torch / jax) and the Keras cells run on the
TensorFlow backend instead of the notebook's KERAS_BACKEND="jax"; the pip cell and the
%%backend magic's registration removed; keras.utils.set_random_seed(0) at the top (the notebook
draws its toy data with np.random and its tensors with tf.random unseeded); matplotlib scatter /
line plots removed (the decision line's values are kept); fit / predict verbose=0; the printed
losses and the cells' displayed values -> RESULTS. The data (2000 two-dimensional points) is the
notebook's own synthetic data, kept at full size. Added: the tf.function and jit_compile dense functions, which the notebook only
defines, are each called once on small constant inputs; the four-SimpleDense Sequential is only
built, as in the notebook (its SimpleDense("relu") is a string activation that this layer would try
to call), and its layer count recorded.
"""
import os

os.environ["KERAS_BACKEND"] = "tensorflow"
import keras

keras.utils.set_random_seed(0)
RESULTS = {}

import tensorflow as tf
RESULTS["ones"] = tf.ones(shape=(2, 1))
RESULTS["zeros"] = tf.zeros(shape=(2, 1))
RESULTS["constant"] = tf.constant([1, 2, 3], dtype="float32")
x = tf.random.normal(shape=(3, 1), mean=0., stddev=1.)
print(x)
RESULTS["random_normal"] = x
x = tf.random.uniform(shape=(3, 1), minval=0., maxval=1.)
print(x)
RESULTS["random_uniform"] = x
import numpy as np

x = np.ones(shape=(2, 2))
x[0, 0] = 0.0
v = tf.Variable(initial_value=tf.random.normal(shape=(3, 1)))
print(v)
RESULTS["variable_init"] = v.numpy()
v.assign(tf.ones((3, 1)))
RESULTS["variable_assign"] = v.numpy()
v[0, 0].assign(3.)
RESULTS["variable_slice_assign"] = v.numpy()
v.assign_add(tf.ones((3, 1)))
RESULTS["variable_assign_add"] = v.numpy()
a = tf.ones((2, 2))
b = tf.square(a)
c = tf.sqrt(a)
d = b + c
e = tf.matmul(a, b)
f = tf.concat((a, b), axis=0)
RESULTS["ops_d"] = d
RESULTS["ops_e"] = e
RESULTS["ops_f"] = f


def dense(inputs, W, b):
    return tf.nn.relu(tf.matmul(inputs, W) + b)


input_var = tf.Variable(initial_value=3.0)
with tf.GradientTape() as tape:
    result = tf.square(input_var)
gradient = tape.gradient(result, input_var)
RESULTS["grad_variable"] = gradient
input_const = tf.constant(3.0)
with tf.GradientTape() as tape:
    tape.watch(input_const)
    result = tf.square(input_const)
gradient = tape.gradient(result, input_const)
RESULTS["grad_watched_constant"] = gradient
time = tf.Variable(0.0)
with tf.GradientTape() as outer_tape:
    with tf.GradientTape() as inner_tape:
        position = 4.9 * time**2
    speed = inner_tape.gradient(position, time)
acceleration = outer_tape.gradient(speed, time)
RESULTS["speed"] = speed
RESULTS["acceleration"] = acceleration


@tf.function
def dense(inputs, W, b):
    return tf.nn.relu(tf.matmul(inputs, W) + b)


RESULTS["dense_tf_function"] = dense(tf.ones((2, 3)), tf.fill((3, 2), 0.5), tf.constant([-1.0, 0.25]))


@tf.function(jit_compile=True)
def dense(inputs, W, b):
    return tf.nn.relu(tf.matmul(inputs, W) + b)


RESULTS["dense_jit"] = dense(tf.ones((2, 3)), tf.fill((3, 2), 0.5), tf.constant([-1.0, 0.25]))

import numpy as np

num_samples_per_class = 1000
negative_samples = np.random.multivariate_normal(
    mean=[0, 3], cov=[[1, 0.5], [0.5, 1]], size=num_samples_per_class
)
positive_samples = np.random.multivariate_normal(
    mean=[3, 0], cov=[[1, 0.5], [0.5, 1]], size=num_samples_per_class
)
inputs = np.vstack((negative_samples, positive_samples)).astype(np.float32)
targets = np.vstack(
    (
        np.zeros((num_samples_per_class, 1), dtype="float32"),
        np.ones((num_samples_per_class, 1), dtype="float32"),
    )
)
input_dim = 2
output_dim = 1
W = tf.Variable(initial_value=tf.random.uniform(shape=(input_dim, output_dim)))
b = tf.Variable(initial_value=tf.zeros(shape=(output_dim,)))
RESULTS["W_init"] = W.numpy()


def model(inputs, W, b):
    return tf.matmul(inputs, W) + b


def mean_squared_error(targets, predictions):
    per_sample_losses = tf.square(targets - predictions)
    return tf.reduce_mean(per_sample_losses)


learning_rate = 0.1


@tf.function(jit_compile=True)
def training_step(inputs, targets, W, b):
    with tf.GradientTape() as tape:
        predictions = model(inputs, W, b)
        loss = mean_squared_error(predictions, targets)
    grad_loss_wrt_W, grad_loss_wrt_b = tape.gradient(loss, [W, b])
    W.assign_sub(grad_loss_wrt_W * learning_rate)
    b.assign_sub(grad_loss_wrt_b * learning_rate)
    return loss


_losses = []
for step in range(40):
    loss = training_step(inputs, targets, W, b)
    print(f"Loss at step {step}: {loss:.4f}")
    _losses.append(float(loss))
RESULTS["tf_linear_losses"] = np.array(_losses)
RESULTS["tf_linear_W"] = W.numpy()
RESULTS["tf_linear_b"] = b.numpy()
predictions = model(inputs, W, b)
RESULTS["tf_linear_predicted_positive"] = int(np.sum(predictions[:, 0] > 0.5))
x = np.linspace(-1, 4, 100)
y = -W[0] / W[1] * x + (0.5 - b) / W[1]
RESULTS["tf_linear_decision_line"] = y

import keras


class SimpleDense(keras.Layer):
    def __init__(self, units, activation=None):
        super().__init__()
        self.units = units
        self.activation = activation

    def build(self, input_shape):
        batch_dim, input_dim = input_shape
        self.W = self.add_weight(
            shape=(input_dim, self.units), initializer="random_normal"
        )
        self.b = self.add_weight(shape=(self.units,), initializer="zeros")

    def call(self, inputs):
        y = keras.ops.matmul(inputs, self.W) + self.b
        if self.activation is not None:
            y = self.activation(y)
        return y


my_dense = SimpleDense(units=32, activation=keras.ops.relu)
input_tensor = keras.ops.ones(shape=(2, 784))
output_tensor = my_dense(input_tensor)
print(output_tensor.shape)
RESULTS["simple_dense_output_shape"] = np.array(output_tensor.shape)
RESULTS["simple_dense_output"] = output_tensor
from keras import layers

layer = layers.Dense(32, activation="relu")
from keras import models
from keras import layers

model = models.Sequential(
    [
        layers.Dense(32, activation="relu"),
        layers.Dense(32),
    ]
)
model = keras.Sequential(
    [
        SimpleDense(32, activation="relu"),
        SimpleDense(64, activation="relu"),
        SimpleDense(32, activation="relu"),
        SimpleDense(10, activation="softmax"),
    ]
)
RESULTS["simple_dense_stack_layers"] = len(model.layers)
model = keras.Sequential([keras.layers.Dense(1)])
model.compile(
    optimizer="rmsprop",
    loss="mean_squared_error",
    metrics=["accuracy"],
)
model.compile(
    optimizer=keras.optimizers.RMSprop(),
    loss=keras.losses.MeanSquaredError(),
    metrics=[keras.metrics.BinaryAccuracy()],
)
history = model.fit(
    inputs,
    targets,
    epochs=5,
    batch_size=128,
    verbose=0,
)
print(history.history)
RESULTS["keras_fit_loss"] = history.history["loss"]
RESULTS["keras_fit_binary_accuracy"] = history.history["binary_accuracy"]
model = keras.Sequential([keras.layers.Dense(1)])
model.compile(
    optimizer=keras.optimizers.RMSprop(learning_rate=0.1),
    loss=keras.losses.MeanSquaredError(),
    metrics=[keras.metrics.BinaryAccuracy()],
)

indices_permutation = np.random.permutation(len(inputs))
shuffled_inputs = inputs[indices_permutation]
shuffled_targets = targets[indices_permutation]

num_validation_samples = int(0.3 * len(inputs))
val_inputs = shuffled_inputs[:num_validation_samples]
val_targets = shuffled_targets[:num_validation_samples]
training_inputs = shuffled_inputs[num_validation_samples:]
training_targets = shuffled_targets[num_validation_samples:]
history = model.fit(
    training_inputs,
    training_targets,
    epochs=5,
    batch_size=16,
    validation_data=(val_inputs, val_targets),
    verbose=0,
)
RESULTS["keras_val_fit_history"] = np.array(
    [history.history[k] for k in ("loss", "binary_accuracy", "val_loss", "val_binary_accuracy")])
predictions = model.predict(val_inputs, batch_size=128, verbose=0)
print(predictions[:10])
RESULTS["keras_val_predictions_head"] = predictions[:10]
RESULTS["keras_val_predictions_mean"] = float(np.mean(predictions))
