"""Title: Concrete functions (TensorFlow guide)
Source: https://github.com/tensorflow/docs/blob/0ba9b22e9a103820a6b82387f3a3bc1f8361b2f1/site/en/guide/concrete_function.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the guide's code cells in order (its last version, before it was folded into the
tf.function guide); the pip cell removed; keras.utils.set_random_seed(0) at the top (the Dropout
module's tf.random.uniform, GlorotNormal and the Keras Dense are unseeded); 'pow', 'mod' and
'module' -> paths in a tempfile directory; linear.fit keeps verbose=0, and its x and y lists
are wrapped in np.array (Keras 3's fit refuses Python lists: "Unrecognized data type"). Each
`try: ...; assert False / except SomeError: traceback.print_exc(limit=1)` cell catches any
Exception and records its type name (or "none" when nothing is raised) instead of printing the
traceback: the guide's expected types are TF 2.3's. The program's printed "Tracing" lines are
counted (a print that also appends to a list) and the counts after each section, and the values
the cells display, -> RESULTS.
"""
import builtins
import os
import tempfile

import numpy as np

RESULTS = {}
_tmp = tempfile.mkdtemp()
_printed = []


def print(*args, **kwargs):
  _printed.append(" ".join(str(a) for a in args))
  builtins.print(*args, **kwargs)


def _traces():
  return sum(1 for line in _printed if "Tracing" in line)


def _catch(key, fn):
  try:
    fn()
    RESULTS[key] = np.array("none")
  except Exception as e:
    RESULTS[key] = np.array(type(e).__name__)


import traceback
import textwrap

import tensorflow as tf
import keras
keras.utils.set_random_seed(0)


@tf.function
def square(x):
  return x*x
RESULTS["square_2"] = square(2).numpy()


def pow(x,y):
  return x ** y

pow = tf.function(pow)
RESULTS["pow_3_4"] = pow(3,4).numpy()


class Pow(tf.Module):
  def __init__(self, exponent):
    self.exponent = tf.Variable(exponent, dtype = tf.float32, name='Pow/exponent')

  @tf.function
  def __call__(self, x):
    return x ** self.exponent
pow = Pow(3)
RESULTS["pow_variables"] = [v.numpy() for v in pow.variables]
RESULTS["pow_call_1"] = pow(tf.constant(2.0)).numpy()
pow.exponent.assign(4)
RESULTS["pow_call_2"] = pow(tf.constant(2.0)).numpy()
tf.saved_model.save(pow, os.path.join(_tmp, 'pow'))
reloaded_pow = tf.saved_model.load(os.path.join(_tmp, 'pow'))
RESULTS["reloaded_pow"] = reloaded_pow(tf.constant(3.0)).numpy()
mod = tf.Module()
mod.increment_by = tf.Variable(2.0)


@tf.function
def increment(x):
  return x+mod.increment_by

mod.inc = increment
RESULTS["mod_inc"] = mod.inc(tf.constant(1.0)).numpy()
mod.cube = Pow(3)
RESULTS["mod_cube"] = mod.cube(tf.constant(2.0)).numpy()
RESULTS["mod_variables"] = [v.numpy() for v in mod.variables]
tf.saved_model.save(mod, os.path.join(_tmp, 'mod'))
reloaded_mod = tf.saved_model.load(os.path.join(_tmp, 'mod'))
RESULTS["reloaded_mod_inc"] = reloaded_mod.inc(4.0).numpy()
RESULTS["reloaded_mod_cube"] = reloaded_mod.cube(4.0).numpy()
linear = tf.keras.Sequential([tf.keras.layers.Dense(units=1, input_shape=[1])])
linear.compile(optimizer='adam', loss='mean_squared_error')
linear.fit(x=np.array([-1, 0, 1, 2, 3, 4]), y=np.array([-3, -1, 1, 3, 5, 7]), epochs=50, verbose=0)
RESULTS["linear_call"] = linear(tf.constant([[1],[2]]))
RESULTS["linear_variables"] = [v.numpy().ravel() for v in linear.variables]
module = tf.Module()
module.linear = linear
RESULTS["module_n_variables"] = len(module.variables)
tf.saved_model.save(module, os.path.join(_tmp, 'module'))
reloaded = tf.saved_model.load(os.path.join(_tmp, 'module'))
_catch("reloaded_linear_error", lambda: RESULTS.__setitem__(
    "reloaded_linear", reloaded.linear([[1.0]])))


@tf.function
def mul(a, b):
  print('Tracing:\n    {a}\n    {b}\n'.format(a=a, b=b))
  return a*b
RESULTS["mul_1"] = mul(tf.constant(2), tf.constant(3)).numpy()
RESULTS["mul_2"] = mul(tf.constant(2.0), tf.constant(3.0)).numpy()
RESULTS["mul_3"] = mul(tf.constant(10), tf.constant(10))
RESULTS["mul_4"] = mul(tf.constant([1.0,3.0]), tf.constant(3.0)).numpy()
RESULTS["mul_5"] = mul(tf.constant([1.0,2.0,3.0, 4.0]), tf.constant(3.0))
RESULTS["traces_after_mul"] = _traces()


@tf.function
def mul(a, b):
  print('Tracing:\n    {a}\n    {b}\n'.format(a=a, b=b))
  return a*b
RESULTS["mul_python_1"] = mul(3.0, tf.constant(3.0)).numpy()
RESULTS["mul_python_2"] = mul(3.0, tf.constant(3.0)).numpy()
RESULTS["traces_after_mul_python"] = _traces()


@tf.function
def power(a,b):
  print('Tracing "power": a={}'.format(a))
  return a**b
p = tf.constant(2)
for n in range(12):
  power(n,p)
RESULTS["traces_after_power_1"] = _traces()
p = tf.constant(2)
for n in range(12):
  power(n,p)
RESULTS["traces_after_power_2"] = _traces()
p = tf.constant(2)
_powers = []
for n in tf.range(12):
  _powers.append(power(n,p))
RESULTS["powers_tensor_loop"] = _powers
RESULTS["traces_after_power_3"] = _traces()


@tf.function(input_signature=(
    tf.TensorSpec(shape=[], dtype=tf.float32),
    tf.TensorSpec(shape=[], dtype=tf.float32),)
)
def power_with_sig(a,b):
  print('Tracing "power_with_sig"')
  return a**b
RESULTS["power_with_sig"] = power_with_sig(3.0, 3.0).numpy()
_catch("power_with_sig_shape_error",
       lambda: power_with_sig(tf.constant([1.0,2.0,3.0]),tf.constant(3.0)))
RESULTS["traces_after_power_with_sig"] = _traces()


class Dropout(tf.Module):
  def __init__(self, rate, name=None):
    super(Dropout, self).__init__(name)
    self.rate = tf.Variable(rate, dtype = tf.float32, trainable=False)

  @tf.function
  def __call__(self, x, training=True):
    print(textwrap.dedent("""
                          Tracing "Dropout":
                              training = {}
                              x = {}
                              name = {:s}
                          """.format(training, x, self.name)))
    if training:
      print('    - Train branch\n')
      mask = tf.random.uniform(x.shape) > self.rate
      return x * tf.cast(mask, tf.float32)/self.rate
    else:
      print('    - Test branch\n')
      return x
dropout = Dropout(0.5)
RESULTS["dropout_1"] = dropout(tf.range(10, dtype=tf.float32), training=True).numpy()
RESULTS["dropout_2"] = dropout(tf.range(10, dtype=tf.float32), training=True).numpy()
RESULTS["dropout_3"] = dropout(tf.range(10, dtype=tf.float32), training=False).numpy()
RESULTS["dropout_4"] = dropout(tf.range(10, dtype=tf.float32), training=False).numpy()
RESULTS["dropout_5"] = dropout(tf.range(10, dtype=tf.float32), training=tf.constant(False)).numpy()
RESULTS["dropout_6"] = dropout(tf.range(10, dtype=tf.float32), training=tf.constant(True)).numpy()
RESULTS["dropout_7"] = dropout(tf.range(10, dtype=tf.float32), training=tf.constant(False)).numpy()
RESULTS["traces_after_dropout"] = _traces()
dropout_a = Dropout(0.5, name='dropout_a')
print(dropout_a(tf.range(10, dtype=tf.float32), True).numpy())
print(dropout_a(tf.range(10, dtype=tf.float32), True).numpy())
dropout_b = Dropout(0.5, name='dropout_b')
print(dropout_b(tf.range(10, dtype=tf.float32), True).numpy())
print(dropout_b(tf.range(10, dtype=tf.float32), True).numpy())
RESULTS["traces_after_dropout_ab"] = _traces()


@tf.function
def run(callable, x):
  print('Tracing "run":\n    callable = {}\n    x = {}\n'.format(callable, x))
  return callable(x)


def plus_1(x):
  return x+1

print(run(plus_1, tf.constant(2.0)).numpy())
print(run(plus_1, tf.constant(5.0)).numpy())
print(run(dropout, tf.range(10.0)).numpy())
print(run(dropout, tf.range(10.0)).numpy())
RESULTS["run_plus_1"] = run(plus_1, tf.constant(5.0)).numpy()
RESULTS["traces_after_run"] = _traces()


@tf.function
def plus_var(x):
  print('Tracing "plus_var":\n    x = {}\n    var = {}\n\n'.format(x, var.name))
  return x + var
var = tf.Variable(1, name="IntVar")
RESULTS["plus_var_int"] = plus_var(tf.constant([1,2])).numpy()
var = tf.Variable(2.0, name="FloatVar")
RESULTS["plus_var_float"] = plus_var(tf.constant([2.0, 10.0])).numpy()
_catch("plus_var_deleted_error", lambda: plus_var(tf.constant([1,2])).numpy())


@tf.function(input_signature=(
    tf.TensorSpec(shape=[None], dtype=tf.float32),
    tf.TensorSpec(shape=[None], dtype=tf.float32),)
)
def power_with_sig(a,b):
  print('Tracing "power_with_sig"\n')
  return a**b
p = power_with_sig.get_concrete_function()
type(p)
RESULTS["concrete_p"] = p(tf.constant([2.0,3.0,4.0]), tf.constant([5.0,4.0,3.0])).numpy()


@tf.function
def power(a,b):
  print('Tracing "power"\n')
  return a**b
float_power = power.get_concrete_function(
  a = tf.TensorSpec(shape=[], dtype=tf.float32),
  b = tf.TensorSpec(shape=[], dtype=tf.float32))
RESULTS["float_power_1"] = float_power(tf.constant(3.0),tf.constant(3.0))
row = tf.range(10)
col = tf.constant([[1],[2],[3]])

concrete_power = power.get_concrete_function(a = row, b = col)
RESULTS["concrete_power_row_col"] = concrete_power(row, col).numpy()
RESULTS["float_power_2"] = float_power(tf.constant(2.0), tf.constant(3.0)).numpy()
_catch("float_power_python_error", lambda: float_power(2.0,3.0))
_catch("float_power_int_error", lambda: float_power(tf.constant(1),tf.constant(3)))
RESULTS["float_power_vector"] = float_power(tf.constant([1.,2.,3.,4.,5.]),tf.constant(3.)).numpy()
_catch("float_power_broadcast_error",
       lambda: float_power(tf.constant([1.,2.,3.]),tf.constant([4., 5.])).numpy())
print(float_power.structured_input_signature)
print(float_power.structured_outputs)
RESULTS["float_power_output_dtype"] = np.array(float_power.structured_outputs.dtype.name)
cube = power.get_concrete_function(
    a = tf.TensorSpec([], dtype=tf.float32),
    b = 3.0)
print(cube.structured_input_signature)
RESULTS["cube_10"] = cube(tf.constant(10.0)).numpy()


class Greeter(object):
  def __init__(self, greeting):
    self.greeting = greeting

  def greet(self, who):
    return " ".join([self.greeting, who])

p = Greeter("Hello")
m = p.greet
print(m)
print(m("TensorFlow!"))
RESULTS["greet"] = np.array(m("TensorFlow!"))


class MyModel(tf.Module):
  def __init__(self, ins, outs):
    initializer = tf.initializers.GlorotNormal()
    self.W = tf.Variable(initializer([ins, outs]))
    self.B = tf.Variable(tf.zeros([outs], dtype = tf.float32))

  @tf.function
  def run(self, x):
    print('Tracing "MyModule":\n    x={}\n'.format(x))
    return tf.matmul(x, self.W)+self.B
mod = MyModel(ins=5, outs=3)
RESULTS["mymodel_run"] = mod.run([[1.0,1.0,1.0, 1.0, 1.0]]).numpy()
concrete_run = mod.run.get_concrete_function(x = tf.TensorSpec([None, None]))
RESULTS["mymodel_concrete_run"] = concrete_run(tf.constant([[1.0,1.0,1.0, 1.0, 1.0],
                          [2.0,2.0,2.0, 2.0, 2.0]])).numpy()
print(concrete_run.structured_input_signature)
print(concrete_run.structured_outputs)
print(float_power)
print(power.pretty_printed_concrete_signatures())
square = power.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
print(square)
print(square(tf.constant(5.0)))  # ok: use default value
RESULTS["square_default_b"] = square(tf.constant(5.0))
_catch("square_explicit_b_error", lambda: RESULTS.__setitem__(
    "square_explicit_b", square(tf.constant(5.0), b=2)))  # ok: explicit value == bound value
_catch("square_other_b_error",
       lambda: print(square(tf.constant(10.0), b=4.0).numpy()))  # error: explicit value != bound value
ragged_power = power.get_concrete_function(
    a = tf.RaggedTensorSpec([None, None], dtype=tf.float32),
    b = tf.TensorSpec([], dtype=tf.float32)
)
print(ragged_power(tf.ragged.constant([[1.0, 2.0], [3.0]]),
                   tf.constant(2.0)))
_rp = ragged_power(tf.ragged.constant([[1.0, 2.0], [3.0]]), tf.constant(2.0))
RESULTS["ragged_power_values"] = _rp.flat_values
RESULTS["ragged_power_row_lengths"] = _rp.row_lengths()


@tf.function
def sum_features(features):
  assert isinstance(features, dict)
  return sum(t for t in features.values())

features = {
    'a': tf.constant([[1.0], [2.0], [8.0]]),
    'b': tf.constant([[5.0], [6.0], [0.0]]),
    'c': tf.ragged.constant([[10.0], [20.0, 30.0, 40.0], [50.0]])
}
print(sum_features(features))
RESULTS["sum_features_values"] = sum_features(features).flat_values

concrete_sum_features = sum_features.get_concrete_function(features)
print(concrete_sum_features(features))
RESULTS["concrete_sum_features_values"] = concrete_sum_features(features).flat_values
_catch("concrete_sum_features_error", lambda: concrete_sum_features({'a': tf.constant([[1.0]])}))
RESULTS["traces_total"] = _traces()
