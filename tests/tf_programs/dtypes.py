"""dtype rules: kept float dtypes, Python literals, casts, complex convention."""

import numpy as np

from ._registry import tf_raises


def case_float16_gradient_kept(tf):
    x = tf.constant([1.0, 2.0], dtype=tf.float16)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x * x)
    return tape.gradient(y, x)


def case_float64_gradient_kept(tf):
    x = tf.constant([1.0, 2.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.sin(x) * x)
    return tape.gradient(y, x)


def case_python_int_constant_is_int32(tf):
    a = tf.constant(3)
    b = tf.constant([1, 2])
    return [a, b, a.dtype.name, b.dtype.name]


def case_python_float_constant_is_float32(tf):
    a = tf.constant(3.0)
    b = tf.constant([[1.0, 2.5]])
    return [a, b, a.dtype.name]


def case_python_bool_constant(tf):
    return tf.constant([True, False])


def case_numpy_float64_array_constant(tf):
    x = tf.constant(np.array([1.0, 2.0]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x)
    return [x, tape.gradient(y, x)]


def case_convert_to_tensor_python_list(tf):
    return [tf.convert_to_tensor([1.0, 2.0]), tf.convert_to_tensor([[1, 2]])]


def case_constant_with_explicit_dtype(tf):
    return [tf.constant(1, dtype=tf.float64), tf.constant([1.5, 2.5], dtype=tf.float16)]


def case_python_float_mixed_into_float64(tf):
    x = tf.constant([1.0, 2.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.5 + 1.0
    return [y, tape.gradient(y, x)]


@tf_raises("InvalidArgumentError")
def case_mixed_float_dtypes_raise(tf):
    a = tf.constant(1.0, dtype=tf.float32)
    b = tf.constant(2.0, dtype=tf.float64)
    return a * b


@tf_raises("InvalidArgumentError")
def case_mixed_int_float_raise(tf):
    return tf.constant(1) + tf.constant(1.0)


def case_cast_float32_to_float64_differentiable(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.cast(x, tf.float64) ** 2)
    return [y, tape.gradient(y, x)]


def case_cast_float64_to_float32_differentiable(tf):
    x = tf.constant([1.0, 2.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.cast(x, tf.float32) * 3.0)
    return tape.gradient(y, x)


def case_cast_float32_to_float16(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(x, tf.float16) * tf.constant(2.0, dtype=tf.float16)
    return [y, tape.gradient(y, x)]


def case_bool_source_gives_none(tf):
    b = tf.constant([True, False])
    with tf.GradientTape() as tape:
        tape.watch(b)
        y = tf.cast(b, tf.float32) * 2.0
    return tape.gradient(y, b)


def case_int_variable_dtype(tf):
    return [tf.Variable(1), tf.Variable(1.0), tf.Variable([1, 2], dtype=tf.int64)]


def case_complex_holomorphic_conjugate(tf):
    z = tf.constant(1.0 + 2.0j)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = z * z
    return [z, tape.gradient(y, z)]


def case_complex_abs_squared(tf):
    z = tf.constant([1.0 + 2.0j, -3.0 + 0.5j], dtype=tf.complex128)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = tf.reduce_sum(tf.math.real(z * tf.math.conj(z)))
    return tape.gradient(y, z)


def case_complex_abs(tf):
    z = tf.constant(3.0 + 4.0j)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = tf.abs(z)
    return [y, tape.gradient(y, z)]


def case_complex_target_real_source(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.complex(x, x * x)
    return [y, tape.gradient(y, x)]


def case_complex_default_seed(tf):
    z = tf.constant([1.0 + 1.0j, 2.0 - 1.0j])
    with tf.GradientTape() as tape:
        pass
    return tape.gradient(z, z)


def case_complex_from_float_parts(tf):
    a = tf.constant([1.0, 2.0])
    b = tf.constant([0.5, -1.0])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        c = tf.complex(a, b)
        y = tf.reduce_sum(tf.math.real(c * c))
    return [c, tape.gradient(y, [a, b])]


def case_complex_exp(tf):
    z = tf.constant(0.5 + 1.0j, dtype=tf.complex128)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = tf.exp(z)
    return tape.gradient(y, z)


def case_complex_imag_part(tf):
    z = tf.constant([1.0 + 2.0j, 3.0 - 1.0j])
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = tf.reduce_sum(tf.math.imag(z * z))
    return tape.gradient(y, z)


def case_float16_result_dtype_and_values(tf):
    x = tf.constant([0.5, 1.5], dtype=tf.float16)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.exp(x)
    return [y, tape.gradient(y, x)]


def case_int32_arithmetic_stays_int32(tf):
    a = tf.constant([7, -7])
    b = tf.constant([2, 2])
    return [a + b, a * b, a // b, a % b]


def case_float_division_of_ints(tf):
    a = tf.constant([7, 8])
    b = tf.constant([2, 4])
    return a / b


def case_float64_constant_from_python_floats_is_exact(tf):
    # Python floats are doubles: a float64 tensor made from them must not be
    # rounded through float32 on the way.
    return [
        tf.constant([2.1, 0.3], dtype=tf.float64),
        tf.constant(2.1, dtype=tf.float64),
        tf.convert_to_tensor([[0.1, 1e-9]], dtype=tf.float64),
        tf.Variable([2.1], dtype=tf.float64),
    ]


def case_python_float_operand_with_float64_tensor_is_exact(tf):
    x = tf.constant(np.array([2.1, -0.7]))
    return [x * 0.1, x + 0.1, 0.3 - x, x / 3.3]


def case_float64_gradient_at_inexact_values(tf):
    x = tf.constant([0.1, 2.1], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x * x) + tf.reduce_sum(x * 0.3)
    return [y, tape.gradient(y, x)]


def case_float64_variable_from_python_floats_gradient(tf):
    v = tf.Variable([[0.1, 0.2], [0.3, 0.7]], dtype=tf.float64)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.matmul(v, v))
    return [v, tape.gradient(y, v)]
