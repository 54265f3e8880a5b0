"""Title: Better performance with tf.function (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/function.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the guide's numeric cells in order (timing, graph-size and autograph.to_code cells left
out; the conv image 200x200x100 -> 8x8x3 with Conv2D(4, 3) and fixed kernel); tf.random.set_seed(0)
for the unseeded uniform draws; trace counts and returned values recorded in RESULTS.
"""
import tensorflow as tf
from _corpus import fix_weights
tf.random.set_seed(0)
RESULTS = {}

@tf.function
def add(a, b):
  return a + b

RESULTS["add"] = add(tf.ones([2, 2]), tf.ones([2, 2]))
v = tf.Variable(1.0)
with tf.GradientTape() as tape:
  result = add(v, 1.0)
RESULTS["add_grad"] = tape.gradient(result, v)

@tf.function
def dense_layer(x, w, b):
  return add(tf.matmul(x, w), b)

RESULTS["dense_layer"] = dense_layer(tf.ones([3, 2]), tf.ones([2, 2]), tf.ones([2]))

conv_layer = tf.keras.layers.Conv2D(4, 3)

@tf.function
def conv_fn(image):
  return conv_layer(image)

image = tf.zeros([1, 8, 8, 3]) + 0.5
conv_layer(image)
fix_weights(conv_layer)
RESULTS["conv"] = conv_fn(image)

traces = []

@tf.function
def double(a):
  traces.append(a.dtype.name)
  return a + a

RESULTS["double_int"] = double(tf.constant(1))
RESULTS["double_float"] = double(tf.constant(1.1))
RESULTS["double_str"] = double(tf.constant("a"))
RESULTS["double_str_b"] = double(tf.constant("b"))
RESULTS["double_traces"] = len(traces)

@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def next_collatz(x):
  return tf.where(x % 2 == 0, x // 2, 3 * x + 1)

RESULTS["collatz"] = next_collatz(tf.constant([1, 2]))
errors = []
for bad in (tf.constant([[1, 2], [3, 4]]), tf.constant([1.0, 2.0])):
  try:
    next_collatz(bad)
    errors.append(False)
  except TypeError:
    errors.append(True)
RESULTS["collatz_errors"] = errors

g_traces = []

@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def g(x):
  g_traces.append(1)
  return x

RESULTS["g"] = g(tf.constant([1, 2, 3, 4, 5]))
g(tf.constant([1, 2, 3]))
RESULTS["g_traces"] = len(g_traces)

@tf.function
def pow(a, b):
  return a ** b

square = pow.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
RESULTS["square"] = square(tf.constant(10.0))

@tf.function
def f(x):
  while tf.reduce_sum(x) > 1:
    x = tf.tanh(x)
  return x

RESULTS["while"] = f(tf.random.uniform([5]))

@tf.function
def train(dataset):
  loss = tf.constant(0)
  for x, y in dataset:
    loss += tf.abs(y - x)
  return loss

small_data = [(1, 1)] * 3
RESULTS["train_python_list"] = train(small_data)
RESULTS["train_generator"] = train(tf.data.Dataset.from_generator(
    lambda: [(1, 3)] * 4, (tf.int32, tf.int32)))

batch_size = 2
seq_len = 3
feature_size = 4

def rnn_step(inp, state):
  return inp + state

@tf.function
def dynamic_rnn(rnn_step, input_data, initial_state):
  input_data = tf.transpose(input_data, [1, 0, 2])
  max_seq_len = input_data.shape[0]

  states = tf.TensorArray(tf.float32, size=max_seq_len)
  state = initial_state
  for i in tf.range(max_seq_len):
    state = rnn_step(input_data[i], state)
    states = states.write(i, state)
  return tf.transpose(states.stack(), [1, 0, 2])

RESULTS["dynamic_rnn"] = dynamic_rnn(rnn_step,
            tf.random.uniform([batch_size, seq_len, feature_size]),
            tf.zeros([batch_size, feature_size]))

class Model(tf.Module):
  def __init__(self):
    self.v = tf.Variable(0)
    self.counter = 0

  @tf.function
  def __call__(self):
    if self.counter == 0:
      self.counter += 1
      self.v.assign_add(1)
    return self.v

m = Model()
RESULTS["python_side_effect"] = [m().numpy() for n in range(3)]

class Model(tf.Module):
  def __init__(self):
    self.v = tf.Variable(0)
    self.counter = 0

  @tf.function
  def __call__(self):
    if self.counter == 0:
      with tf.init_scope():
        self.counter += 1
        self.v.assign_add(1)
    return self.v

m = Model()
RESULTS["python_side_effect_2"] = [m().numpy() for n in range(3)]
