"""Title: TensorFlow graph optimization with Grappler (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/graph_optimization.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the matrix 2000x2000 -> 20x20 (np.random.randn, seeded with np.random.seed(0)); the
timeit timings dropped (clock-dependent) but each function is still called after its trace; prints
-> RESULTS (the optimizer options seen inside each block, the functions' results, and whether
check_numerics raised InvalidArgumentError with and without debug_stripper); at the end,
debug_stripper set back to False (the guide's `options` restores the old options by merging, so
debug_stripper stays on after its block; the program then runs the same twice in one process).
"""
import numpy as np
import timeit
import traceback
import contextlib


import tensorflow as tf

np.random.seed(0)
RESULTS = {}


@contextlib.contextmanager
def options(options):
  old_opts = tf.config.optimizer.get_experimental_options()
  tf.config.optimizer.set_experimental_options(options)
  try:
    yield
  finally:
    tf.config.optimizer.set_experimental_options(old_opts)


def test_function_1():
  @tf.function
  def simple_function(input_arg):
    print('Tracing!')
    a = tf.constant(np.random.randn(20,20), dtype = tf.float32)
    c = a
    for n in range(50):
      c = c@a
    return tf.reduce_mean(c+input_arg)

  return simple_function


with options({'constant_folding': False}):
  print(tf.config.optimizer.get_experimental_options())
  RESULTS["options_off"] = float(tf.config.optimizer.get_experimental_options()['constant_folding'])
  simple_function = test_function_1()
  # Trace once
  x = tf.constant(2.2)
  RESULTS["vanilla"] = simple_function(x)
  RESULTS["vanilla_again"] = simple_function(x)

with options({'constant_folding': True}):
  print(tf.config.optimizer.get_experimental_options())
  RESULTS["options_on"] = float(tf.config.optimizer.get_experimental_options()['constant_folding'])
  simple_function = test_function_1()
  # Trace once
  x = tf.constant(2.2)
  RESULTS["folded"] = simple_function(x)
  RESULTS["folded_again"] = simple_function(x)


def test_function_2():
  @tf.function
  def simple_func(input_arg):
    output = input_arg
    tf.debugging.check_numerics(output, "Bad!")
    return output
  return simple_func


test_func = test_function_2()
p1 = tf.constant(float('inf'))
RESULTS["raised"] = 0.0
try:
  test_func(p1)
except tf.errors.InvalidArgumentError as e:
  traceback.print_exc(limit=2)
  RESULTS["raised"] = 1.0

RESULTS["raised_stripped"] = 0.0
with options({'debug_stripper': True}):
  test_func2 = test_function_2()
  p1 = tf.constant(float('inf'))
  try:
    RESULTS["stripped_output"] = test_func2(p1)
  except tf.errors.InvalidArgumentError as e:
    traceback.print_exc(limit=2)
    RESULTS["raised_stripped"] = 1.0

# (not in the guide: a fresh process's options back, since `options` leaves debug_stripper set)
tf.config.optimizer.set_experimental_options({'debug_stripper': False})
