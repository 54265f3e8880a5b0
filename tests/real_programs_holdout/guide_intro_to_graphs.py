"""Title: Introduction to graphs and tf.function (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/intro_to_graphs.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: tf.random.set_seed(0) added (the uniform draws are unseeded); the timing cells run
number=2 instead of 1000 and their times are not recorded; the AutoGraph code, the GraphDef and the
pretty-printed signatures are produced but only their type (str) recorded (their text is
TensorFlow's internals); printed values recorded in RESULTS (the InvalidArgumentError's type name).
"""
import tensorflow as tf
import timeit
from datetime import datetime  # noqa: F401 (as published)

tf.random.set_seed(0)
RESULTS = {}


def a_regular_function(x, y, b):
    x = tf.matmul(x, y)
    x = x + b
    return x


a_function_that_uses_a_graph = tf.function(a_regular_function)

x1 = tf.constant([[1.0, 2.0]])
y1 = tf.constant([[2.0], [3.0]])
b1 = tf.constant(4.0)

orig_value = a_regular_function(x1, y1, b1).numpy()
tf_function_value = a_function_that_uses_a_graph(x1, y1, b1).numpy()
assert(orig_value == tf_function_value)
RESULTS["tf_function_value"] = tf_function_value


def inner_function(x, y, b):
    x = tf.matmul(x, y)
    x = x + b
    return x


@tf.function
def outer_function(x):
    y = tf.constant([[2.0], [3.0]])
    b = tf.constant(4.0)

    return inner_function(x, y, b)


RESULTS["outer"] = outer_function(tf.constant([[1.0, 2.0]])).numpy()


def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0


tf_simple_relu = tf.function(simple_relu)

RESULTS["relu_branches"] = [tf_simple_relu(tf.constant(1)).numpy(), tf_simple_relu(tf.constant(-1)).numpy()]

RESULTS["to_code_is_str"] = isinstance(tf.autograph.to_code(simple_relu), str)

_graph_def = tf_simple_relu.get_concrete_function(tf.constant(1)).graph.as_graph_def()
RESULTS["graph_def_is_str"] = isinstance(str(_graph_def), str)


@tf.function
def my_relu(x):
    return tf.maximum(0., x)


RESULTS["my_relu_1"] = my_relu(tf.constant(5.5))
RESULTS["my_relu_2"] = my_relu([1, -1])
RESULTS["my_relu_3"] = my_relu(tf.constant([3., -3.]))
RESULTS["my_relu_4"] = my_relu(tf.constant(-2.5))
RESULTS["my_relu_5"] = my_relu(tf.constant([-1., 1.]))

RESULTS["signatures_is_str"] = isinstance(my_relu.pretty_printed_concrete_signatures(), str)


@tf.function
def get_MSE(y_true, y_pred):
    sq_diff = tf.pow(y_true - y_pred, 2)
    return tf.reduce_mean(sq_diff)


y_true = tf.random.uniform([5], maxval=10, dtype=tf.int32)
y_pred = tf.random.uniform([5], maxval=10, dtype=tf.int32)
RESULTS["y_true"] = y_true
RESULTS["y_pred"] = y_pred

RESULTS["mse_graph"] = get_MSE(y_true, y_pred)

tf.config.run_functions_eagerly(True)
RESULTS["mse_eager"] = get_MSE(y_true, y_pred)
tf.config.run_functions_eagerly(False)


@tf.function
def get_MSE(y_true, y_pred):
    print("Calculating MSE!")
    sq_diff = tf.pow(y_true - y_pred, 2)
    return tf.reduce_mean(sq_diff)


error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)

tf.config.run_functions_eagerly(True)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
tf.config.run_functions_eagerly(False)
RESULTS["error"] = error


def unused_return_eager(x):
    # Get index 1 will fail when `len(x) == 1`
    tf.gather(x, [1])  # unused
    return x


try:
    RESULTS["unused_eager"] = unused_return_eager(tf.constant([0.0]))
except tf.errors.InvalidArgumentError as e:
    RESULTS["unused_eager_error"] = type(e).__name__


@tf.function
def unused_return_graph(x):
    tf.gather(x, [1])  # unused
    return x


RESULTS["unused_graph"] = unused_return_graph(tf.constant([0.0]))

x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)


def power(x, y):
    result = tf.eye(10, dtype=tf.dtypes.int32)
    for _ in range(y):
        result = tf.matmul(x, result)
    return result


print("Eager execution:", timeit.timeit(lambda: power(x, 100), number=2), "seconds")

power_as_graph = tf.function(power)
print("Graph execution:", timeit.timeit(lambda: power_as_graph(x, 100), number=2), "seconds")
RESULTS["power_eager"] = power(x, 5)
RESULTS["power_graph"] = power_as_graph(x, 5)


@tf.function
def a_function_with_python_side_effect(x):
    print("Tracing!")  # An eager-only side effect.
    return x * x + tf.constant(2)


RESULTS["side_effect"] = [a_function_with_python_side_effect(tf.constant(2)),
                          a_function_with_python_side_effect(tf.constant(3)),
                          a_function_with_python_side_effect(2),
                          a_function_with_python_side_effect(3)]
