"""Title: TensorFlow 1.x vs TensorFlow 2 - Behaviors and APIs (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/migrate/tf1_vs_tf2.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the displayed values and prints -> RESULTS (shapes as lists with -1 for None, booleans,
the caught exceptions' type names).
"""
import tensorflow as tf

RESULTS = {}


def _dims(s):
  return [-1 if d is None else d for d in s]


# Create a shape and choose an index
i = 0
shape = tf.TensorShape([16, None, 256])
RESULTS["shape"] = _dims(shape)

value = shape[i]
RESULTS["value"] = value

_values = []
for value in shape:
  print(value)
  _values.append(-1 if value is None else value)
RESULTS["values"] = _values

other_dim = 16
Dimension = tf.compat.v1.Dimension

if shape.rank is None:
  dim = Dimension(None)
else:
  dim = shape.dims[i]
RESULTS["compatible"] = dim.is_compatible_with(other_dim) # or any other dimension method

shape = tf.TensorShape(None)

RESULTS["unknown_shape_truthy"] = bool(shape)
if shape:
  dim = shape.dims[i]
  dim.is_compatible_with(other_dim) # or any other dimension method

print(bool(tf.TensorShape([])))      # Scalar
print(bool(tf.TensorShape([0])))     # 0-length vector
print(bool(tf.TensorShape([1])))     # 1-length vector
print(bool(tf.TensorShape([None])))  # Unknown-length vector
print(bool(tf.TensorShape([1, 10, 100])))       # 3D tensor
print(bool(tf.TensorShape([None, None, None]))) # 3D tensor with no known dimensions
print()
print(bool(tf.TensorShape(None)))  # A tensor with unknown rank.
RESULTS["bools"] = [bool(tf.TensorShape([])), bool(tf.TensorShape([0])), bool(tf.TensorShape([1])),
                    bool(tf.TensorShape([None])), bool(tf.TensorShape([1, 10, 100])),
                    bool(tf.TensorShape([None, None, None])), bool(tf.TensorShape(None))]

RESULTS["errors"] = []
try:
  # Create a shape and choose an index
  shape = tf.TensorShape([16, None, 256])
  value = shape[0].value
except AttributeError as e:
  # 'int' object has no attribute 'value'
  print(e)
  RESULTS["errors"].append(type(e).__name__)

try:
  # Create a shape and choose an index
  shape = tf.TensorShape([16, None, 256])
  dim = shape[1]
  other_dim = shape[2]
  dim.assert_is_compatible_with(other_dim)
except AttributeError as e:
  # 'NoneType' object has no attribute 'assert_is_compatible_with'
  print(e)
  RESULTS["errors"].append(type(e).__name__)

tf.compat.v1.disable_tensor_equality()
x = tf.Variable(0.0)
y = tf.Variable(0.0)

RESULTS["equality_disabled"] = bool(x == y)

tf.compat.v1.enable_tensor_equality()
x = tf.Variable(0.0)
y = tf.Variable(0.0)

RESULTS["equality_enabled"] = x == y

tf.compat.v1.enable_tensor_equality()
x = tf.Variable(0.0)
y = tf.Variable(0.0)

RESULTS["identity"] = x is y

tf.compat.v1.enable_tensor_equality()
x = tf.Variable(0.0)

try:
  set([x, tf.constant(2.0)])
except TypeError as e:
  # TypeError: Variable is unhashable. Instead, use tensor.ref() as the key.
  print(e)
  RESULTS["errors"].append(type(e).__name__)

tf.compat.v1.enable_tensor_equality()
x = tf.Variable(0.0)

tensor_set = set([x.ref(), tf.constant(2.0).ref()])
assert x.ref() in tensor_set

RESULTS["tensor_set_size"] = len(tensor_set)

referenced_var = x.ref().deref()
assert referenced_var is x
RESULTS["referenced_var"] = referenced_var
