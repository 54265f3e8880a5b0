"""Title: Eager execution (TensorFlow guide)
Source: https://github.com/tensorflow/docs/blob/8f11555b908688be8e3904c117118d2f6a7ead05/site/en/guide/eager.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the guide's code cells in order (its last version, before it was removed); the
matplotlib plot and `!ls tb/` cells removed; keras.utils.set_random_seed(0) at the top (the
Keras initializers, tf.random.normal and the dataset shuffle are unseeded); MNIST (60000 images)
-> 320 synthetic uint8 28x28 images with labels from a seeded NumPy generator (10 batches of 32,
3 epochs as in the guide); model.save_weights('weights') / load_weights -> a
'linear.weights.h5' path (Keras 3 saves weights only to a .weights.h5 file); './ckpt/',
'path/to/model_dir' and './tb/' -> paths in a tempfile directory; the matmul timing cell's
shape (1000, 1000) x 200 steps -> (200, 200) x 20 steps (its timings are printed, not
recorded); the printed values, the loss history and the trained weights -> RESULTS.
"""
import os
import tempfile

import numpy as np

RESULTS = {}
_tmp = tempfile.mkdtemp()

import os

import tensorflow as tf

import cProfile
import keras
keras.utils.set_random_seed(0)
RESULTS["executing_eagerly"] = tf.executing_eagerly()
x = [[2.]]
m = tf.matmul(x, x)
print("hello, {}".format(m))
RESULTS["hello"] = m
a = tf.constant([[1, 2],
                 [3, 4]])
print(a)
b = tf.add(a, 1)
print(b)
print(a * b)
RESULTS["a_times_b"] = a * b
import numpy as np

c = np.multiply(a, b)
print(c)
RESULTS["np_multiply"] = c
print(a.numpy())
_fizz = []


def fizzbuzz(max_num):
  counter = tf.constant(0)
  max_num = tf.convert_to_tensor(max_num)
  for num in range(1, max_num.numpy()+1):
    num = tf.constant(num)
    if int(num % 3) == 0 and int(num % 5) == 0:
      print('FizzBuzz')
      _fizz.append(-15)
    elif int(num % 3) == 0:
      print('Fizz')
      _fizz.append(-3)
    elif int(num % 5) == 0:
      print('Buzz')
      _fizz.append(-5)
    else:
      print(num.numpy())
      _fizz.append(num.numpy())
    counter += 1
  RESULTS["fizzbuzz_counter"] = counter
fizzbuzz(15)
RESULTS["fizzbuzz"] = _fizz
w = tf.Variable([[1.0]])
with tf.GradientTape() as tape:
  loss = w * w

grad = tape.gradient(loss, w)
print(grad)  # => tf.Tensor([[ 2.]], shape=(1, 1), dtype=float32)
RESULTS["w_grad"] = grad
_rng = np.random.default_rng(0)
mnist_images = _rng.integers(0, 256, (320, 28, 28)).astype(np.uint8)
mnist_labels = _rng.integers(0, 10, (320,)).astype(np.uint8)

dataset = tf.data.Dataset.from_tensor_slices(
  (tf.cast(mnist_images[...,tf.newaxis]/255, tf.float32),
   tf.cast(mnist_labels,tf.int64)))
dataset = dataset.shuffle(1000).batch(32)
mnist_model = tf.keras.Sequential([
  tf.keras.layers.Conv2D(16,[3,3], activation='relu',
                         input_shape=(None, None, 1)),
  tf.keras.layers.Conv2D(16,[3,3], activation='relu'),
  tf.keras.layers.GlobalAveragePooling2D(),
  tf.keras.layers.Dense(10)
])
for images,labels in dataset.take(1):
  print("Logits: ", mnist_model(images[0:1]).numpy())
  RESULTS["first_logits"] = mnist_model(images[0:1]).numpy()
optimizer = tf.keras.optimizers.Adam()
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

loss_history = []


def train_step(images, labels):
  with tf.GradientTape() as tape:
    logits = mnist_model(images, training=True)

    # Add asserts to check the shape of the output.
    tf.debugging.assert_equal(logits.shape, (32, 10))

    loss_value = loss_object(labels, logits)

  loss_history.append(loss_value.numpy().mean())
  grads = tape.gradient(loss_value, mnist_model.trainable_variables)
  optimizer.apply_gradients(zip(grads, mnist_model.trainable_variables))


def train(epochs):
  for epoch in range(epochs):
    for (batch, (images, labels)) in enumerate(dataset):
      train_step(images, labels)
    print ('Epoch {} finished'.format(epoch))
train(epochs = 3)
RESULTS["mnist_loss_history"] = loss_history
RESULTS["mnist_dense_kernel"] = mnist_model.layers[-1].kernel


class Linear(tf.keras.Model):
  def __init__(self):
    super(Linear, self).__init__()
    self.W = tf.Variable(5., name='weight')
    self.B = tf.Variable(10., name='bias')
  def call(self, inputs):
    return inputs * self.W + self.B
NUM_EXAMPLES = 2000
training_inputs = tf.random.normal([NUM_EXAMPLES])
noise = tf.random.normal([NUM_EXAMPLES])
training_outputs = training_inputs * 3 + 2 + noise


def loss(model, inputs, targets):
  error = model(inputs) - targets
  return tf.reduce_mean(tf.square(error))


def grad(model, inputs, targets):
  with tf.GradientTape() as tape:
    loss_value = loss(model, inputs, targets)
  return tape.gradient(loss_value, [model.W, model.B])
model = Linear()
optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)

print("Initial loss: {:.3f}".format(loss(model, training_inputs, training_outputs)))
RESULTS["linear_initial_loss"] = loss(model, training_inputs, training_outputs)

steps = 300
_linear_losses = []
for i in range(steps):
  grads = grad(model, training_inputs, training_outputs)
  optimizer.apply_gradients(zip(grads, [model.W, model.B]))
  if i % 20 == 0:
    print("Loss at step {:03d}: {:.3f}".format(i, loss(model, training_inputs, training_outputs)))
    _linear_losses.append(loss(model, training_inputs, training_outputs))
RESULTS["linear_losses"] = _linear_losses
print("Final loss: {:.3f}".format(loss(model, training_inputs, training_outputs)))
print("W = {}, B = {}".format(model.W.numpy(), model.B.numpy()))
RESULTS["linear_final_loss"] = loss(model, training_inputs, training_outputs)
RESULTS["linear_W_B"] = [model.W.numpy(), model.B.numpy()]
model.save_weights(os.path.join(_tmp, 'linear.weights.h5'))
status = model.load_weights(os.path.join(_tmp, 'linear.weights.h5'))
RESULTS["linear_W_B_loaded"] = [model.W.numpy(), model.B.numpy()]
x = tf.Variable(10.)
checkpoint = tf.train.Checkpoint(x=x)
x.assign(2.)   # Assign a new value to the variables and save.
checkpoint_path = os.path.join(_tmp, 'ckpt/')
checkpoint.save(checkpoint_path)
x.assign(11.)  # Change the variable after saving.

checkpoint.restore(tf.train.latest_checkpoint(checkpoint_path))

print(x)  # => 2.0
RESULTS["restored_x"] = x.numpy()
model = tf.keras.Sequential([
  tf.keras.layers.Conv2D(16,[3,3], activation='relu'),
  tf.keras.layers.GlobalAveragePooling2D(),
  tf.keras.layers.Dense(10)
])
optimizer = tf.keras.optimizers.Adam(learning_rate=0.001)
checkpoint_dir = os.path.join(_tmp, 'path/to/model_dir')
if not os.path.exists(checkpoint_dir):
  os.makedirs(checkpoint_dir)
checkpoint_prefix = os.path.join(checkpoint_dir, "ckpt")
root = tf.train.Checkpoint(optimizer=optimizer,
                           model=model)

root.save(checkpoint_prefix)
root.restore(tf.train.latest_checkpoint(checkpoint_dir))
RESULTS["latest_checkpoint_name"] = np.array(os.path.basename(tf.train.latest_checkpoint(checkpoint_dir)))
m = tf.keras.metrics.Mean("loss")
m(0)
m(5)
RESULTS["mean_1"] = m.result()  # => 2.5
m([8, 9])
RESULTS["mean_2"] = m.result()  # => 5.5
logdir = os.path.join(_tmp, "tb/")
writer = tf.summary.create_file_writer(logdir)

steps = 1000
with writer.as_default():  # or call writer.set_as_default() before the loop.
  for i in range(steps):
    step = i + 1
    # Calculate loss with your real train function.
    loss = 1 - 0.001 * step
    if step % 100 == 0:
      tf.summary.scalar('loss', loss, step=step)


def line_search_step(fn, init_x, rate=1.0):
  with tf.GradientTape() as tape:
    # Variables are automatically tracked.
    # But to calculate a gradient from a tensor, you must `watch` it.
    tape.watch(init_x)
    value = fn(init_x)
  grad = tape.gradient(value, init_x)
  grad_norm = tf.reduce_sum(grad * grad)
  init_value = value
  while value > init_value - rate * grad_norm:
    x = init_x - rate * grad
    value = fn(x)
    rate /= 2.0
  return x, value


@tf.custom_gradient
def clip_gradient_by_norm(x, norm):
  y = tf.identity(x)
  def grad_fn(dresult):
    return [tf.clip_by_norm(dresult, norm), None]
  return y, grad_fn


def log1pexp(x):
  return tf.math.log(1 + tf.exp(x))


def grad_log1pexp(x):
  with tf.GradientTape() as tape:
    tape.watch(x)
    value = log1pexp(x)
  return tape.gradient(value, x)

RESULTS["grad_log1pexp_0"] = grad_log1pexp(tf.constant(0.)).numpy()
RESULTS["grad_log1pexp_100"] = grad_log1pexp(tf.constant(100.)).numpy()


@tf.custom_gradient
def log1pexp(x):
  e = tf.exp(x)
  def grad(dy):
    return dy * (1 - 1 / (1 + e))
  return tf.math.log(1 + e), grad


def grad_log1pexp(x):
  with tf.GradientTape() as tape:
    tape.watch(x)
    value = log1pexp(x)
  return tape.gradient(value, x)

RESULTS["custom_grad_log1pexp_0"] = grad_log1pexp(tf.constant(0.)).numpy()
RESULTS["custom_grad_log1pexp_100"] = grad_log1pexp(tf.constant(100.)).numpy()
import time


def measure(x, steps):
  # TensorFlow initializes a GPU the first time it's used, exclude from timing.
  tf.matmul(x, x)
  start = time.time()
  for i in range(steps):
    x = tf.matmul(x, x)
  # tf.matmul can return before completing the matrix multiplication
  # (e.g., can return after enqueing the operation on a CUDA stream).
  # The x.numpy() call below will ensure that all enqueued operations
  # have completed (and will also copy the result to host memory,
  # so we're including a little more than just the matmul operation
  # time).
  _ = x.numpy()
  end = time.time()
  return end - start

shape = (200, 200)
steps = 20
print("Time to multiply a {} matrix by itself {} times:".format(shape, steps))

with tf.device("/cpu:0"):
  print("CPU: {} secs".format(measure(tf.random.normal(shape), steps)))

if tf.config.list_physical_devices("GPU"):
  with tf.device("/gpu:0"):
    print("GPU: {} secs".format(measure(tf.random.normal(shape), steps)))
else:
  print("GPU: not found")
RESULTS["gpu_found"] = bool(tf.config.list_physical_devices("GPU"))
if tf.config.list_physical_devices("GPU"):
  x = tf.random.normal([10, 10])

  x_gpu0 = x.gpu()
  x_cpu = x.cpu()

  _ = tf.matmul(x_cpu, x_cpu)    # Runs on CPU
  _ = tf.matmul(x_gpu0, x_gpu0)  # Runs on GPU:0
