"""Title: Better performance with tf.function and AutoGraph (TensorFlow 2.0 guide)
Source: https://github.com/tensorflow/docs/blob/0762243af06403a5d5b82e37e4a01242b6e838db/site/en/guide/autograph.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the guide's code cells in order (its TF 2.0 version, before it was replaced); the
Colab `%tensorflow_version` cell removed; the __future__ import moved to the top of the file; keras.utils.set_random_seed(0) at the top
(tf.random.uniform, the Keras initializers and the shuffle are unseeded); the conv timing cell's
image [1, 200, 200, 100] -> [1, 40, 40, 100] (timings are printed, not recorded);
tf.keras.datasets.mnist.load_data() -> 1000 synthetic uint8 28x28 images with labels from a
seeded NumPy generator (same shapes and dtypes; ds.take(20000).shuffle(20000).batch(100) kept,
so 10 steps instead of 200); tf.print outputs go to stderr and are not recorded; the values the
cells display and the training's final step, loss and accuracy -> RESULTS.
"""
from __future__ import absolute_import, division, print_function, unicode_literals
import numpy as np

RESULTS = {}
_rng = np.random.default_rng(0)
_MNIST = ((_rng.integers(0, 256, (1000, 28, 28)).astype(np.uint8),
           _rng.integers(0, 10, (1000,)).astype(np.uint8)),
          (_rng.integers(0, 256, (100, 28, 28)).astype(np.uint8),
           _rng.integers(0, 10, (100,)).astype(np.uint8)))


def _mnist_load_data():
  return _MNIST


import numpy as np
import tensorflow as tf
import keras
keras.utils.set_random_seed(0)


@tf.function
def simple_nn_layer(x, y):
  return tf.nn.relu(tf.matmul(x, y))


x = tf.random.uniform((3, 3))
y = tf.random.uniform((3, 3))

RESULTS["simple_nn_layer"] = simple_nn_layer(x, y)
simple_nn_layer


def linear_layer(x):
  return 2 * x + 1


@tf.function
def deep_net(x):
  return tf.nn.relu(linear_layer(x))


RESULTS["deep_net"] = deep_net(tf.constant((1, 2, 3)))
import timeit
conv_layer = tf.keras.layers.Conv2D(100, 3)


@tf.function
def conv_fn(image):
  return conv_layer(image)

image = tf.zeros([1, 40, 40, 100])
conv_layer(image); conv_fn(image)
print("Eager conv:", timeit.timeit(lambda: conv_layer(image), number=10))
print("Function conv:", timeit.timeit(lambda: conv_fn(image), number=10))
print("Note how there's not much difference in performance for convolutions")

lstm_cell = tf.keras.layers.LSTMCell(10)


@tf.function
def lstm_fn(input, state):
  return lstm_cell(input, state)

input = tf.zeros([10, 10])
state = [tf.zeros([10, 10])] * 2
lstm_cell(input, state); lstm_fn(input, state)
print("eager lstm:", timeit.timeit(lambda: lstm_cell(input, state), number=10))
print("function lstm:", timeit.timeit(lambda: lstm_fn(input, state), number=10))
_lstm_out, _lstm_state = lstm_fn(tf.ones([10, 10]), state)
RESULTS["lstm_fn_output"] = _lstm_out
RESULTS["lstm_fn_state"] = list(_lstm_state)


@tf.function
def square_if_positive(x):
  if x > 0:
    x = x * x
  else:
    x = 0
  return x


print('square_if_positive(2) = {}'.format(square_if_positive(tf.constant(2))))
print('square_if_positive(-2) = {}'.format(square_if_positive(tf.constant(-2))))
RESULTS["square_if_positive_2"] = square_if_positive(tf.constant(2))
RESULTS["square_if_positive_m2"] = square_if_positive(tf.constant(-2))


@tf.function
def sum_even(items):
  s = 0
  for c in items:
    if c % 2 > 0:
      continue
    s += c
  return s


RESULTS["sum_even"] = sum_even(tf.constant([10, 12, 15, 20]))
print(tf.autograph.to_code(sum_even.python_function))


@tf.function
def fizzbuzz(n):
  for i in tf.range(n):
    if i % 3 == 0:
      tf.print('Fizz')
    elif i % 5 == 0:
      tf.print('Buzz')
    else:
      tf.print(i)

fizzbuzz(tf.constant(15))


class CustomModel(tf.keras.models.Model):

  @tf.function
  def call(self, input_data):
    if tf.reduce_mean(input_data) > 0:
      return input_data
    else:
      return input_data // 2


model = CustomModel()

RESULTS["custom_model"] = model(tf.constant([-2, -4]))
v = tf.Variable(5)


@tf.function
def find_next_odd():
  v.assign(v + 1)
  if v % 2 == 0:
    v.assign(v + 1)


find_next_odd()
v
RESULTS["find_next_odd"] = v.numpy()


@tf.function
def f(x):
  if x > 0:
    # Try setting a breakpoint here!
    # Example:
    #   import pdb
    #   pdb.set_trace()
    x = x + 1
  return x

tf.config.experimental_run_functions_eagerly(True)

RESULTS["f_eagerly"] = f(tf.constant(1))

tf.config.experimental_run_functions_eagerly(False)


def prepare_mnist_features_and_labels(x, y):
  x = tf.cast(x, tf.float32) / 255.0
  y = tf.cast(y, tf.int64)
  return x, y


def mnist_dataset():
  (x, y), _ = _mnist_load_data()
  ds = tf.data.Dataset.from_tensor_slices((x, y))
  ds = ds.map(prepare_mnist_features_and_labels)
  ds = ds.take(20000).shuffle(20000).batch(100)
  return ds

train_dataset = mnist_dataset()
model = tf.keras.Sequential((
    tf.keras.layers.Reshape(target_shape=(28 * 28,), input_shape=(28, 28)),
    tf.keras.layers.Dense(100, activation='relu'),
    tf.keras.layers.Dense(100, activation='relu'),
    tf.keras.layers.Dense(10)))
model.build()
optimizer = tf.keras.optimizers.Adam()
compute_loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

compute_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()


def train_one_step(model, optimizer, x, y):
  with tf.GradientTape() as tape:
    logits = model(x)
    loss = compute_loss(y, logits)

  grads = tape.gradient(loss, model.trainable_variables)
  optimizer.apply_gradients(zip(grads, model.trainable_variables))

  compute_accuracy(y, logits)
  return loss


@tf.function
def train(model, optimizer):
  train_ds = mnist_dataset()
  step = 0
  loss = 0.0
  accuracy = 0.0
  for x, y in train_ds:
    step += 1
    loss = train_one_step(model, optimizer, x, y)
    if step % 10 == 0:
      tf.print('Step', step, ': loss', loss, '; accuracy', compute_accuracy.result())
  return step, loss, accuracy

step, loss, accuracy = train(model, optimizer)
print('Final step', step, ': loss', loss, '; accuracy', compute_accuracy.result())
RESULTS["train_step"] = step
RESULTS["train_loss"] = loss
RESULTS["train_accuracy_returned"] = accuracy
RESULTS["train_accuracy_metric"] = compute_accuracy.result()
RESULTS["train_last_kernel"] = model.layers[-1].kernel


def square_if_positive(x):
  return [i ** 2 if i > 0 else i for i in x]


RESULTS["square_if_positive_python"] = square_if_positive(range(-5, 5))


@tf.function
def square_if_positive_naive(x):
  result = tf.TensorArray(tf.int32, size=x.shape[0])
  for i in tf.range(x.shape[0]):
    if x[i] > 0:
      result = result.write(i, x[i] ** 2)
    else:
      result = result.write(i, x[i])
  return result.stack()


RESULTS["square_if_positive_naive"] = square_if_positive_naive(tf.range(-5, 5))


def square_if_positive_vectorized(x):
  return tf.where(x > 0, x ** 2, x)


RESULTS["square_if_positive_vectorized"] = square_if_positive_vectorized(tf.range(-5, 5))
