"""NumPy interop: arrays on the left of operators, NumPy calls on tensors, dtypes."""
import numpy as np


def case_array_times_tensor(tf):
    return np.array([1.0, 2.0]) * tf.constant([3.0, 4.0])


def case_array_matmul_tensor(tf):
    return np.array([[0.0, 1.0], [1.0, 0.0]]) @ tf.constant([[1.0, 2.0], [3.0, 4.0]])


def case_array_plus_variable(tf):
    return np.array([1.0, 2.0]) + tf.Variable([3.0, 4.0])


def case_int_array_plus_float_tensor(tf):
    return np.array([1, 2]) + tf.constant([0.5, 0.5])


def case_numpy_scalar_times_tensor(tf):
    return np.float64(2.0) * tf.constant([1.5])


def case_gradient_through_array_operand(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(np.array([2.0, 3.0]) * x + tf.reshape(x, [1, 2]) @ np.array([[1.0], [1.0]]))
    return tape.gradient(y, x)


def case_np_sin_of_tensor_is_array(tf):
    return isinstance(np.sin(tf.constant([0.5])), np.ndarray)


def case_np_sum_of_tensor_is_numpy(tf):
    return isinstance(np.sum(tf.constant([0.5, 1.0])), (np.ndarray, np.generic))


def case_gradient_through_np_sin(tf):
    x = tf.constant([0.5, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.convert_to_tensor(np.sin(x)) * 2.0)
    return tape.gradient(y, x)


def case_gradient_through_unmapped_numpy_call(tf):
    x = tf.constant([3.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.convert_to_tensor(np.percentile(x, [0.0, 100.0]).astype(np.float32)) * x)
    return tape.gradient(y, x)
