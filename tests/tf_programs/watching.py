"""tape.watch(): explicit watching, nests, idempotence, timing, dtypes."""

from ._registry import tf_raises


def case_watch_constant_square(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x)


def case_unwatched_constant_gives_none(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    return tape.gradient(y, x)


def case_watch_list_of_tensors(tf):
    a = tf.constant(2.0)
    b = tf.constant(5.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = a * b + a
    return tape.gradient(y, [a, b])


def case_watch_dict_of_tensors(tf):
    a = tf.constant([1.0, 2.0])
    b = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch({"a": a, "b": b})
        y = tf.reduce_sum(a * b)
    return tape.gradient(y, {"a": a, "b": b})


def case_watch_nested_tuple_list_dict(tf):
    a = tf.constant(2.0)
    b = tf.constant(3.0)
    c = tf.constant(4.0)
    with tf.GradientTape() as tape:
        tape.watch((a, [b, {"c": c}]))
        y = a * b * c
    return tape.gradient(y, (a, [b, {"c": c}]))


def case_watch_twice_is_idempotent(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        tape.watch(x)
        tape.watch([x, x])
        y = x * x
    return tape.gradient(y, x)


def case_watch_after_use_gives_none(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
        tape.watch(x)
    return tape.gradient(y, x)


def case_watch_only_affects_later_ops(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
        tape.watch(x)
        z = y + 4.0 * x
    return tape.gradient(z, x)


def case_watch_int32_gives_none(tf):
    x = tf.constant(3)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x)


def case_watch_int32_zero_gives_int_zeros(tf):
    x = tf.constant([3, 4])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)


def case_watch_int_and_float_sources(tf):
    i = tf.constant(2)
    f = tf.constant(2.5)
    with tf.GradientTape() as tape:
        tape.watch([i, f])
        y = tf.cast(i, tf.float32) * f * f
    return tape.gradient(y, [i, f])


def case_watch_bool_gives_none(tf):
    b = tf.constant(True)
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([b, x])
        y = tf.cast(b, tf.float32) * x
    return tape.gradient(y, [b, x])


def case_watch_float64_keeps_dtype(tf):
    x = tf.constant([1.0, -2.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x * x)
    return tape.gradient(y, x)


def case_watch_between_with_blocks(tf):
    x = tf.constant(2.0)
    tape = tf.GradientTape(persistent=True)
    with tape:
        pass
    tape.watch(x)
    with tape:
        y = x * x
    return tape.gradient(y, x)


def case_ops_between_with_blocks_are_constants(tf):
    x = tf.constant(2.0)
    tape = tf.GradientTape(persistent=True)
    with tape:
        tape.watch(x)
        y = x * 3.0
    z = y * y
    with tape:
        w = z + x
    return [tape.gradient(w, x), tape.gradient(y, x), tape.gradient(z, x)]


def case_reenter_keeps_earlier_records(tf):
    x = tf.constant(3.0)
    tape = tf.GradientTape()
    with tape:
        tape.watch(x)
        y = x * x
    with tape:
        z = y * 2.0
    return tape.gradient(z, x)


def case_watch_is_per_tape(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            outer.watch(x)
            y = x * x
    return [inner.gradient(y, x), outer.gradient(y, x)]


def case_watch_on_both_nested_tapes(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
    return [inner.gradient(y, x), outer.gradient(y, x)]


def case_watch_intermediate_tensor(tf):
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x * 2.0
        tape.watch(y)
        z = y * y
    return [tape.gradient(z, y), tape.gradient(z, x)]


def case_equal_valued_constants_are_distinct(tf):
    a = tf.constant(2.0)
    b = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = a * b * 3.0
    return tape.gradient(y, [a, b])


def case_records_survive_exception_in_body(tf):
    x = tf.constant(2.0)
    tape = tf.GradientTape()
    y = None
    try:
        with tape:
            tape.watch(x)
            y = x * x * x
            raise KeyError("boom")
    except KeyError:
        pass
    return [y, tape.gradient(y, x)]


@tf_raises("ArithmeticError")
def case_exception_in_body_propagates(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        raise ArithmeticError("inside the tape")


def case_watch_empty_list(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([])
        y = x * x
    return tape.gradient(y, x)


def case_watch_matrix_gradient_shape(tf):
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x) + tf.reduce_sum(x)
    return tape.gradient(y, x)


def case_watch_returns_none(tf):
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        result = tape.watch(x)
    return result


def case_watch_enter_returns_tape(tf):
    tape = tf.GradientTape()
    with tape as entered:
        same = entered is tape
    return same


def case_watch_variable_trainable_false_explicit(tf):
    v = tf.Variable([1.0, 2.0], trainable=False)
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.reduce_sum(v * v)
    return tape.gradient(y, v)


def case_watch_in_nested_tape_after_outer_used(tf):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        a = x * x
        with tf.GradientTape() as inner:
            inner.watch(x)
            b = a * x
    return [inner.gradient(b, x), outer.gradient(b, x)]
