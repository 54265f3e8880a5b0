"""Error cases: which exception type is raised."""

import numpy as np

from ._registry import catch, tf_raises


@tf_raises("RuntimeError")
def case_nonpersistent_second_gradient_raises(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    return tape.gradient(y, x)


def case_nonpersistent_first_gradient_then_error(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    first = tape.gradient(y, x)
    return [first, catch(tape.gradient, y, x)]


def case_persistent_tape_allows_many_gradients(tf):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * x
    return [tape.gradient(y, x), tape.gradient(z, x), tape.gradient(z, y)]


@tf_raises("RuntimeError")
def case_never_entered_gradient_raises(tf):
    x = tf.constant(2.0)
    tape = tf.GradientTape()
    return tape.gradient(x * x, x)


@tf_raises("RuntimeError")
def case_never_entered_persistent_gradient_raises(tf):
    x = tf.constant(2.0)
    tape = tf.GradientTape(persistent=True)
    return tape.gradient(x * x, x)


@tf_raises("AttributeError")
def case_never_entered_watch_raises(tf):
    x = tf.constant(2.0)
    tape = tf.GradientTape()
    tape.watch(x)
    return None


@tf_raises("RuntimeError")
def case_never_entered_stop_recording_raises(tf):
    tape = tf.GradientTape()
    with tape.stop_recording():
        pass
    return None


@tf_raises("ValueError")
def case_never_entered_reset_raises(tf):
    tape = tf.GradientTape()
    tape.reset()
    return None


@tf_raises("ValueError")
def case_reset_after_exit_raises(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
    tape.reset()
    return None


@tf_raises("ValueError")
def case_stop_recording_after_exit_raises(tf):
    with tf.GradientTape() as tape:
        pass
    with tape.stop_recording():
        pass
    return None


@tf_raises("ValueError")
def case_reenter_active_tape_raises(tf):
    tape = tf.GradientTape()
    with tape:
        with tape:
            pass
    return None


def case_reenter_active_tape_keeps_outer_recording(tf):
    x = tf.constant(2.0)
    tape = tf.GradientTape()
    with tape:
        tape.watch(x)
        try:
            with tape:
                pass
            err = None
        except ValueError as exc:
            err = exc
        y = x * x
    return [err, tape.gradient(y, x)]


@tf_raises("TypeError")
def case_target_none_raises(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
    return tape.gradient(None, x)


@tf_raises("AttributeError")
def case_source_python_float_raises(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, 2.0)


@tf_raises("AttributeError")
def case_source_ndarray_raises(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, np.array(2.0, dtype=np.float32))


@tf_raises("TypeError")
def case_none_in_sources_raises(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, [x, None])


@tf_raises("AttributeError")
def case_target_python_float_raises(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
    return tape.gradient(3.0, x)


@tf_raises("ValueError")
def case_watch_python_float_raises(tf):
    with tf.GradientTape() as tape:
        tape.watch(1.0)
    return None


@tf_raises("ValueError")
def case_watch_ndarray_raises(tf):
    with tf.GradientTape() as tape:
        tape.watch(np.array([1.0, 2.0]))
    return None


@tf_raises("ValueError")
def case_watch_none_raises(tf):
    with tf.GradientTape() as tape:
        tape.watch(None)
    return None


@tf_raises("ValueError")
def case_watch_list_with_python_float_raises(tf):
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch([x, 2.0])
    return None


@tf_raises("ValueError")
def case_unknown_unconnected_value_raises(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x, unconnected_gradients="nonsense")


@tf_raises("ValueError")
def case_unknown_unconnected_value_raises_in_jacobian(tf):
    x = tf.constant([2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.jacobian(y, x, unconnected_gradients="nonsense")


@tf_raises("LookupError")
def case_op_without_gradient_raises_lookup_error(tf):
    x = tf.constant([1.0, 2.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        unique_values, _ = tf.unique(x)
        y = tf.reduce_sum(unique_values)
    return tape.gradient(y, x)


def case_failed_backward_then_retry(tf):
    @tf.custom_gradient
    def f(x):
        def grad(dy):
            raise ArithmeticError("backward failed")

        return x * 2.0, grad

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    first = catch(tape.gradient, y, x)
    second = catch(tape.gradient, y, x)
    return [first, second]


@tf_raises("InvalidArgumentError")
def case_matmul_shape_mismatch_raises(tf):
    a = tf.constant([[1.0, 2.0]])
    return tf.matmul(a, a)


@tf_raises("InvalidArgumentError")
def case_broadcast_incompatible_raises(tf):
    return tf.constant([1.0, 2.0]) + tf.constant([1.0, 2.0, 3.0])


@tf_raises("InvalidArgumentError")
def case_reshape_wrong_size_raises(tf):
    return tf.reshape(tf.constant([1.0, 2.0, 3.0]), [2, 2])


def case_error_classes_hierarchy(tf):
    return [
        issubclass(tf.errors.InvalidArgumentError, tf.errors.OpError),
        issubclass(tf.errors.InternalError, tf.errors.OpError),
        issubclass(tf.errors.OpError, Exception),
    ]


@tf_raises("InvalidArgumentError")
def case_gather_index_out_of_range_raises(tf):
    return tf.gather(tf.constant([1.0, 2.0]), [5])
