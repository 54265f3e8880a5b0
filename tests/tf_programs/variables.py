"""tf.Variable: auto-watch, trainable=False, assign, watched_variables()."""


def case_trainable_variable_auto_watched(tf):
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = v * v
    return tape.gradient(y, v)


def case_non_trainable_variable_not_watched(tf):
    v = tf.Variable(3.0, trainable=False)
    with tf.GradientTape() as tape:
        y = v * v
    return tape.gradient(y, v)


def case_non_trainable_variable_explicit_watch(tf):
    v = tf.Variable(3.0, trainable=False)
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = v * v
    return tape.gradient(y, v)


def case_auto_watch_off_unwatched_variable(tf):
    v = tf.Variable(3.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = v * v
    return [tape.gradient(y, v), len(tape.watched_variables())]


def case_auto_watch_off_explicit_watch(tf):
    v = tf.Variable(2.0)
    w = tf.Variable(5.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(v)
        y = v * v * v * w
    return [tape.gradient(y, [v, w]), len(tape.watched_variables())]


def case_value_read_before_tape_is_constant(tf):
    v = tf.Variable(2.0)
    r = v * 1.0
    with tf.GradientTape() as tape:
        y = r * r + v
    return tape.gradient(y, v)


def case_assign_inside_tape_disconnects(tf):
    x = tf.constant(2.0)
    v = tf.Variable(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        v.assign(x * 3.0)
        y = v * v
    return [tape.gradient(y, x), tape.gradient(y, v), v]


def case_assign_add_inside_tape(tf):
    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        v.assign_add(2.0)
        y = v * v
    return [tape.gradient(y, v), v]


def case_assign_sub_inside_tape(tf):
    v = tf.Variable([4.0, 5.0])
    with tf.GradientTape() as tape:
        v.assign_sub([1.0, 1.0])
        y = tf.reduce_sum(v * v)
    return [tape.gradient(y, v), v]


def case_assign_then_read_uses_new_value(tf):
    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        a = v * 10.0
        v.assign(5.0)
        b = v * v
        y = a + b
    return [y, tape.gradient(y, v)]


def case_watched_variables_creation_order(tf):
    a = tf.Variable(1.0)
    b = tf.Variable(2.0)
    c = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = c * b * a
    ws = tape.watched_variables()
    return [
        isinstance(ws, tuple),
        len(ws),
        ws[0] is a,
        ws[1] is b,
        ws[2] is c,
    ]


def case_watched_variables_includes_unused_reads(tf):
    u = tf.Variable(1.0)
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        unused = u + 1.0
        y = v * v
    ws = tape.watched_variables()
    return [len(ws), ws[0] is u, ws[1] is v, tape.gradient(y, [u, v]), unused]


def case_watched_variables_empty_before_use(tf):
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        empty_inside = len(tape.watched_variables())
    with tf.GradientTape(watch_accessed_variables=False) as tape2:
        y = v * v
    return [empty_inside, len(tape.watched_variables()), len(tape2.watched_variables()), y]


def case_watched_variables_explicit_non_trainable(tf):
    v = tf.Variable(2.0, trainable=False)
    w = tf.Variable(3.0, trainable=False)
    with tf.GradientTape() as tape:
        tape.watch(w)
        y = v * w
    ws = tape.watched_variables()
    return [len(ws), ws[0] is w]


def case_watched_variables_after_reset_empty(tf):
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = v * v
        before = len(tape.watched_variables())
        tape.reset()
        after = len(tape.watched_variables())
    return [before, after, y]


def case_watched_variables_cached_after_gradient(tf):
    v = tf.Variable(2.0)
    w = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = v * v
    g = tape.gradient(y, v)
    with tf.GradientTape() as other:
        z = w * v
    ws = tape.watched_variables()
    return [g, len(ws), ws[0] is v, other.gradient(z, [v, w])]


def case_int_variable_auto_watched_gets_none(tf):
    iv = tf.Variable(3)
    fv = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = fv * tf.cast(iv, tf.float32)
    ws = tape.watched_variables()
    return [tape.gradient(y, [iv, fv]), len(ws), ws[0] is iv, ws[1] is fv]


def case_int_variable_zero_gives_int_zeros(tf):
    iv = tf.Variable([3, 4])
    fv = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = fv * tf.cast(tf.reduce_sum(iv), tf.float32)
    return tape.gradient(y, [iv, fv], unconnected_gradients="zero")


def case_variable_float64_matrix(tf):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float64)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.matmul(v, v))
    return tape.gradient(y, v)


def case_rebinding_variable_name_loses_auto_watch(tf):
    v = tf.Variable(2.0)
    x = v + 1.0
    with tf.GradientTape() as tape:
        y = x * x
    return tape.gradient(y, [x, v])


def case_variable_target_is_source(tf):
    v = tf.Variable(4.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        pass
    return tape.gradient(v, v)


def case_variable_target_other_variable(tf):
    v = tf.Variable(4.0)
    w = tf.Variable(5.0)
    with tf.GradientTape() as tape:
        pass
    return tape.gradient(v, w)


def case_variable_vector_target_is_source(tf):
    v = tf.Variable([1.0, 2.0, 3.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        pass
    return tape.gradient(v, v)


def case_auto_watch_on_all_active_tapes(tf):
    v = tf.Variable(3.0)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = v * v
    return [inner.gradient(y, v), outer.gradient(y, v)]


def case_auto_watch_off_on_inner_tape_only(tf):
    v = tf.Variable(3.0)
    with tf.GradientTape() as outer:
        with tf.GradientTape(watch_accessed_variables=False) as inner:
            y = v * v
    return [inner.gradient(y, v), outer.gradient(y, v)]


def case_variable_through_convert_to_tensor(tf):
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        t = tf.convert_to_tensor(v)
        y = tf.reduce_sum(t * t * t)
    return tape.gradient(y, v)


def case_variable_read_value(tf):
    v = tf.Variable([1.0, -2.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.exp(v.read_value()))
    return tape.gradient(y, v)


def case_variable_returned_in_result(tf):
    v = tf.Variable([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * 3.0)
    return [v, tape.gradient(y, v)]


def case_variable_broadcast_grad_has_variable_shape(tf):
    v = tf.Variable([[1.0], [2.0], [3.0]])
    x = tf.constant([[1.0, 2.0, 3.0, 4.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * x)
    return tape.gradient(y, v)


def case_variable_in_python_loop(tf):
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.constant(1.0)
        for _ in range(3):
            y = y * v
    return [y, tape.gradient(y, v)]


def case_variables_and_tensor_sources(tf):
    v = tf.Variable(2.0)
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = v * x * x
    return tape.gradient(y, [v, x])


def case_variable_watch_accessed_reads_after_watch_off(tf):
    v = tf.Variable(2.0)
    w = tf.Variable(3.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(w)
        y = v * w
    ws = tape.watched_variables()
    return [tape.gradient(y, [v, w]), len(ws), ws[0] is w]


def case_variable_float16_gradient(tf):
    v = tf.Variable([1.0, 2.0], dtype=tf.float16)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v)
    return tape.gradient(y, v)
