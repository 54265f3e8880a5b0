"""Title: Introduction to Variables (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/variable.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: prints -> results recorded in RESULTS (values, shapes, dtypes as strings, the exception's
type name of the resizing assign); the GPU:0 placement cell runs on CPU:0 (no GPU here).
"""
import tensorflow as tf

RESULTS = {}

my_tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])
my_variable = tf.Variable(my_tensor)

# Variables can be all kinds of types, just like tensors
bool_variable = tf.Variable([False, False, False, True])
complex_variable = tf.Variable([5 + 4j, 6 + 1j])
RESULTS["bool_variable"] = bool_variable.numpy()
RESULTS["complex_variable"] = complex_variable.numpy()
RESULTS["complex_dtype"] = complex_variable.dtype.name

RESULTS["shape"] = list(my_variable.shape)
RESULTS["dtype"] = my_variable.dtype.name
RESULTS["as_numpy"] = my_variable.numpy()

RESULTS["as_tensor"] = tf.convert_to_tensor(my_variable)
RESULTS["argmax"] = tf.math.argmax(my_variable)
RESULTS["reshaped"] = tf.reshape(my_variable, [1, 4])

a = tf.Variable([2.0, 3.0])
# This will keep the same dtype, float32
a.assign([1, 2])
RESULTS["assigned"] = a.numpy()
RESULTS["assigned_dtype"] = a.dtype.name
# Not allowed as it resizes the variable:
try:
    a.assign([1.0, 2.0, 3.0])
    RESULTS["resize_error"] = "none"
except Exception as e:
    RESULTS["resize_error"] = type(e).__name__

a = tf.Variable([2.0, 3.0])
# Create b based on the value of a
b = tf.Variable(a)
a.assign([5, 6])

# a and b are different
RESULTS["a"] = a.numpy()
RESULTS["b"] = b.numpy()

# There are other versions of assign
RESULTS["assign_add"] = a.assign_add([2, 3]).numpy()  # [7. 9.]
RESULTS["assign_sub"] = a.assign_sub([7, 9]).numpy()  # [0. 0.]

a = tf.Variable(my_tensor, name="Mark")
b = tf.Variable(my_tensor + 1, name="Mark")
RESULTS["a_eq_b"] = a == b
RESULTS["names"] = [a.name, b.name]

step_counter = tf.Variable(1, trainable=False)
RESULTS["step_counter_trainable"] = step_counter.trainable
RESULTS["step_counter_dtype"] = step_counter.dtype.name

with tf.device('CPU:0'):
    a = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    c = tf.matmul(a, b)
RESULTS["c"] = c

with tf.device('CPU:0'):
    a = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    b = tf.Variable([[1.0, 2.0, 3.0]])

with tf.device('CPU:0'):
    # Element-wise multiply
    k = a * b
RESULTS["k"] = k
