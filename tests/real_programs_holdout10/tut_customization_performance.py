"""Title: Better performance with tf.function (TensorFlow tutorial)
Source: https://github.com/tensorflow/docs/blob/84618e76cde6edf23c2e71fd1d126c3d18ba53d5/site/en/tutorials/customization/performance.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the tutorial's code cells in order (its last version at this path, before the tf.function
guide replaced it); tf.random.set_seed(0) at the top (tf.random.uniform is unseeded); the conv
timing cell's image [1, 200, 200, 100] -> [1, 40, 40, 100] (its timings are printed, not
recorded); assert_raises records the type name of the error it catches (any Exception, "none"
when nothing is raised) instead of checking the class and printing the traceback, since TF 2.21
raises other types than TF 2.2 in some cells; the tf.print outputs go to stderr as in the
original and are not recorded, but the values they show are (the variables and returned tensors);
measure_graph_size's node counts are printed, and RESULTS records only how they compare (a
Python-list loop unrolls into a bigger graph, a dataset loop does not). The printed "Tracing"
lines are counted (a print that also appends to a list).
"""
import builtins

import numpy as np

RESULTS = {}
_printed = []
_caught = []


def print(*args, **kwargs):
  _printed.append(" ".join(str(a) for a in args))
  builtins.print(*args, **kwargs)


def _traces():
  return sum(1 for line in _printed if line.startswith("Trac"))


import tensorflow as tf
import traceback
import contextlib
tf.random.set_seed(0)


@contextlib.contextmanager
def assert_raises(error_class):
  try:
    yield
  except Exception as e:
    print('Caught exception \n  {}:'.format(type(e)))
    _caught.append(type(e).__name__)
  else:
    _caught.append("none")


@tf.function
def add(a, b):
  return a + b

RESULTS["add"] = add(tf.ones([2, 2]), tf.ones([2, 2]))  #  [[2., 2.], [2., 2.]]
v = tf.Variable(1.0)
with tf.GradientTape() as tape:
  result = add(v, 1.0)
RESULTS["add_grad"] = tape.gradient(result, v)


@tf.function
def dense_layer(x, w, b):
  return add(tf.matmul(x, w), b)

RESULTS["dense_layer"] = dense_layer(tf.ones([3, 2]), tf.ones([2, 2]), tf.ones([2]))
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
RESULTS["conv_fn_shape"] = conv_fn(image).shape.as_list()
RESULTS["conv_fn_equal_eager"] = bool(np.array_equal(conv_fn(image).numpy(), conv_layer(image).numpy()))


@tf.function
def double(a):
  print("Tracing with", a)
  return a + a

print(double(tf.constant(1)))
print()
print(double(tf.constant(1.1)))
print()
print(double(tf.constant("a")))
print()
RESULTS["double_int"] = double(tf.constant(1))
RESULTS["double_float"] = double(tf.constant(1.1))
RESULTS["double_string"] = double(tf.constant("a"))
RESULTS["traces_after_double"] = _traces()


def f():
  print('Tracing!')
  tf.print('Executing')

tf.function(f)()
tf.function(f)()
RESULTS["traces_after_f"] = _traces()
print("Obtaining concrete trace")
double_strings = double.get_concrete_function(tf.TensorSpec(shape=None, dtype=tf.string))
print("Executing traced function")
print(double_strings(tf.constant("a")))
print(double_strings(a=tf.constant("b")))
RESULTS["double_strings_b"] = double_strings(a=tf.constant("b"))
print("Using a concrete trace with incompatible types will throw an error")
with assert_raises(tf.errors.InvalidArgumentError):
  double_strings(tf.constant(1))


@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def next_collatz(x):
  print("Tracing with", x)
  return tf.where(x % 2 == 0, x // 2, 3 * x + 1)

print(next_collatz(tf.constant([1, 2])))
RESULTS["next_collatz"] = next_collatz(tf.constant([1, 2]))
with assert_raises(ValueError):
  next_collatz(tf.constant([[1, 2], [3, 4]]))
RESULTS["traces_after_collatz"] = _traces()


def train_one_step():
  pass


@tf.function
def train(num_steps):
  print("Tracing with num_steps = {}".format(num_steps))
  for _ in tf.range(num_steps):
    train_one_step()

train(num_steps=10)
train(num_steps=20)
RESULTS["traces_after_train_python"] = _traces()

train(num_steps=tf.constant(10))
train(num_steps=tf.constant(20))
RESULTS["traces_after_train_tensor"] = _traces()


@tf.function
def f(x):
  print("Traced with", x)
  tf.print("Executed with", x)

f(1)
f(1)
f(2)
RESULTS["traces_after_f_python_args"] = _traces()

external_list = []


def side_effect(x):
  print('Python side effect')
  external_list.append(x)


@tf.function
def f(x):
  tf.py_function(side_effect, inp=[x], Tout=[])

f(1)
f(1)
f(1)
assert len(external_list) == 3
assert external_list[0].numpy() == 1
RESULTS["external_list"] = [x.numpy() for x in external_list]

external_var = tf.Variable(0)


@tf.function
def buggy_consume_next(iterator):
  external_var.assign_add(next(iterator))
  tf.print("Value of external_var:", external_var)

iterator = iter([0, 1, 2, 3])
buggy_consume_next(iterator)
RESULTS["external_var_1"] = external_var.numpy()
buggy_consume_next(iterator)
buggy_consume_next(iterator)
RESULTS["external_var_3"] = external_var.numpy()


@tf.function
def f(x):
  v = tf.Variable(1.0)
  v.assign_add(x)
  return v

with assert_raises(ValueError):
  f(1.0)
v = tf.Variable(1.0)


@tf.function
def f(x):
  return v.assign_add(x)

print(f(1.0))  # 2.0
print(f(2.0))  # 4.0
RESULTS["v_after_assign_add"] = v.numpy()


class C:
  pass

obj = C()
obj.v = None


@tf.function
def g(x):
  if obj.v is None:
    obj.v = tf.Variable(1.0)
  return obj.v.assign_add(x)

print(g(1.0))  # 2.0
print(g(2.0))  # 4.0
RESULTS["obj_v"] = obj.v.numpy()
state = []


@tf.function
def fn(x):
  if not state:
    state.append(tf.Variable(2.0 * x))
    state.append(tf.Variable(state[0] * 3.0))
  return state[0] * x * state[1]

print(fn(tf.constant(1.0)))
print(fn(tf.constant(3.0)))
RESULTS["fn_3"] = fn(tf.constant(3.0))
RESULTS["state_values"] = [s.numpy() for s in state]


@tf.function
def f(x):
  while tf.reduce_sum(x) > 1:
    tf.print(x)
    x = tf.tanh(x)
  return x

RESULTS["while_tanh"] = f(tf.random.uniform([5]))
print(tf.autograph.to_code(f.python_function))


@tf.function
def fizzbuzz(n):
  for i in tf.range(1, n + 1):
    print('Tracing for loop')
    if i % 15 == 0:
      print('Tracing fizzbuzz branch')
      tf.print('fizzbuzz')
    elif i % 3 == 0:
      print('Tracing fizz branch')
      tf.print('fizz')
    elif i % 5 == 0:
      print('Tracing buzz branch')
      tf.print('buzz')
    else:
      print('Tracing default branch')
      tf.print(i)

_before = _traces()
fizzbuzz(tf.constant(5))
fizzbuzz(tf.constant(20))
RESULTS["fizzbuzz_trace_lines"] = _traces() - _before
_graph_sizes = []


def measure_graph_size(f, *args):
  g = f.get_concrete_function(*args).graph
  print("{}({}) contains {} nodes in its graph".format(
      f.__name__, ', '.join(map(str, args)), len(g.as_graph_def().node)))
  _graph_sizes.append(len(g.as_graph_def().node))


@tf.function
def train(dataset):
  loss = tf.constant(0)
  for x, y in dataset:
    loss += tf.abs(y - x) # Some dummy computation.
  return loss

small_data = [(1, 1)] * 3
big_data = [(1, 1)] * 10
measure_graph_size(train, small_data)
measure_graph_size(train, big_data)

measure_graph_size(train, tf.data.Dataset.from_generator(
    lambda: small_data, (tf.int32, tf.int32)))
measure_graph_size(train, tf.data.Dataset.from_generator(
    lambda: big_data, (tf.int32, tf.int32)))
RESULTS["list_graph_grows"] = _graph_sizes[1] > _graph_sizes[0]
RESULTS["dataset_graph_same"] = _graph_sizes[3] == _graph_sizes[2]
RESULTS["train_small_list"] = train(small_data)
RESULTS["train_big_dataset"] = train(tf.data.Dataset.from_generator(
    lambda: big_data, (tf.int32, tf.int32)))
batch_size = 2
seq_len = 3
feature_size = 4


def rnn_step(inp, state):
  return inp + state


@tf.function
def dynamic_rnn(rnn_step, input_data, initial_state):
  # [batch, time, features] -> [time, batch, features]
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
RESULTS["caught"] = np.array(_caught)
RESULTS["traces_total"] = _traces()
