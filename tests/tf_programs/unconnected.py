"""unconnected_gradients: NONE / ZERO and what counts as connected."""


def case_default_is_none(tf):
    x = tf.constant(2.0)
    z = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = x * x
    return tape.gradient(y, [x, z])


def case_none_enum_explicit(tf):
    x = tf.constant(2.0)
    z = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = x * x
    return tape.gradient(y, [x, z], unconnected_gradients=tf.UnconnectedGradients.NONE)


def case_none_string(tf):
    x = tf.constant(2.0)
    z = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = x * x
    return tape.gradient(y, [x, z], unconnected_gradients="none")


def case_zero_enum_gives_zeros_of_source(tf):
    x = tf.constant(2.0)
    z = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = x * x
    return tape.gradient(y, [x, z], unconnected_gradients=tf.UnconnectedGradients.ZERO)


def case_zero_string(tf):
    x = tf.constant(2.0)
    z = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = x * x
    return tape.gradient(y, [x, z], unconnected_gradients="zero")


def case_enum_values(tf):
    return [tf.UnconnectedGradients.NONE.value, tf.UnconnectedGradients.ZERO.value]


def case_zero_for_variable_source(tf):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float64)
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, v, unconnected_gradients="zero")


def case_zero_for_int_source(tf):
    i = tf.constant([1, 2, 3])
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([x, i])
        y = x * tf.cast(tf.reduce_sum(i), tf.float32)
    return tape.gradient(y, [x, i], unconnected_gradients="zero")


def case_zero_for_int64_source(tf):
    i = tf.constant([1, 2], dtype=tf.int64)
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([x, i])
        y = x * x
    return tape.gradient(y, i, unconnected_gradients="zero")


def case_zero_in_nested_dict_sources(tf):
    a = tf.constant(2.0)
    b = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = a * 3.0
    return tape.gradient(y, {"a": a, "rest": [b]}, unconnected_gradients="zero")


def case_zeros_like_disconnects(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.zeros_like(x) + 1.0
    return tape.gradient(y, x)


def case_ones_like_disconnects(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.ones_like(x) * 2.0
    return tape.gradient(y, x)


def case_shape_disconnects(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(tf.shape(x)[0], tf.float32) * 2.0
    return tape.gradient(y, x)


def case_dead_relu_gives_zero(tf):
    x = tf.constant(-1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.relu(x)
    return tape.gradient(y, x)


def case_partially_dead_relu(tf):
    x = tf.constant([-1.0, 2.0, -3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.relu(x) * 3.0
    return tape.gradient(y, x)


def case_multiply_by_zero_gives_zero(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 0.0
    return tape.gradient(y, x)


def case_cast_to_int_cuts_path(tf):
    x = tf.constant([1.5, 2.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.cast(tf.cast(x, tf.int32), tf.float32))
    return tape.gradient(y, x)


def case_cast_to_int_cuts_only_that_path(tf):
    x = tf.constant([1.5, 2.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(tf.cast(x, tf.int32), tf.float32) * x
    return tape.gradient(y, x)


def case_argmax_cuts_path(tf):
    x = tf.constant([1.0, 3.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(tf.argmax(x), tf.float32)
    return tape.gradient(y, x)


def case_round_cuts_path(tf):
    x = tf.constant([1.2, 2.7])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.round(x) * 2.0
    return tape.gradient(y, x)


def case_floor_cuts_path(tf):
    x = tf.constant([1.2, 2.7])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.floor(x) * 2.0
    return tape.gradient(y, x)


def case_round_with_zero(tf):
    x = tf.constant([1.2, 2.7])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.round(x)
    return tape.gradient(y, x, unconnected_gradients="zero")


def case_comparison_cuts_path(tf):
    x = tf.constant([-1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(x > 0.0, tf.float32)
    return tape.gradient(y, x)


def case_int_target_gives_none(tf):
    x = tf.constant(2.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(x, tf.int32)
    return tape.gradient(y, x)


def case_int_target_zero(tf):
    x = tf.constant(2.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(x, tf.int32)
    return tape.gradient(y, x, unconnected_gradients="zero")


def case_unwatched_constant_zero(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = x * x
    return tape.gradient(y, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)


def case_unconnected_value_checked_before_tape_is_used(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    try:
        tape.gradient(y, x, unconnected_gradients="nonsense")
        first = "no error"
    except ValueError as exc:
        first = exc
    return [first, tape.gradient(y, x)]
