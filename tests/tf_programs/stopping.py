"""tf.stop_gradient, tape.stop_recording() and tape.reset()."""


def case_stop_gradient_plus_x(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.stop_gradient(x * x) + x
    return [y, tape.gradient(y, x)]


def case_stop_gradient_only_is_none(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.stop_gradient(x * x)
    return tape.gradient(y, x)


def case_stop_gradient_only_zero(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.stop_gradient(x * x)
    return tape.gradient(y, x, unconnected_gradients="zero")


def case_stop_gradient_product(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.stop_gradient(x) * x
    return tape.gradient(y, x)


def case_stop_gradient_on_variable(tf):
    v = tf.Variable(4.0)
    with tf.GradientTape() as tape:
        y = tf.stop_gradient(v) * v
    return tape.gradient(y, v)


def case_stop_gradient_applies_to_all_tapes(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.stop_gradient(x * x) * x
    return [inner.gradient(y, x), outer.gradient(y, x)]


def case_stop_gradient_nested_structure(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        s = tf.stop_gradient(x * 3.0)
        y = tf.reduce_sum(s * x + x)
    return [s, tape.gradient(y, x)]


def case_stop_recording_result_is_constant(tf):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        with tape.stop_recording():
            c = x * x
        y = c * x
    return [y, tape.gradient(y, x), tape.gradient(c, x)]


def case_stop_recording_before_and_after_recorded(tf):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a = x * x
        with tape.stop_recording():
            b = a * 3.0
        c = a * b
    return [tape.gradient(c, x), tape.gradient(b, x), tape.gradient(c, a), tape.gradient(c, b)]


def case_stop_recording_pauses_only_this_tape(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            with inner.stop_recording():
                y = x * x * x
    return [inner.gradient(y, x), outer.gradient(y, x)]


def case_stop_recording_repushes_after_exception(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        try:
            with tape.stop_recording():
                raise LookupError("inside stop_recording")
        except LookupError:
            pass
        y = x * x
    return tape.gradient(y, x)


def case_stop_recording_variable_read_not_recorded(tf):
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        with tape.stop_recording():
            y = v * v
    return [y, tape.gradient(y, v), len(tape.watched_variables())]


def case_stop_recording_then_watch_inside(tf):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        with tape.stop_recording():
            tape.watch(x)
            a = x * x
        b = x * 5.0
    return [tape.gradient(a, x), tape.gradient(b, x)]


def case_reset_discards_records_and_watches(tf):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        tape.reset()
        z = x * 3.0
    return [tape.gradient(y, x), tape.gradient(z, x)]


def case_reset_then_watch_again(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        tape.reset()
        tape.watch(x)
        z = y + x * 3.0
    return tape.gradient(z, x)


def case_reset_discards_watched_variables(tf):
    v = tf.Variable(2.0)
    w = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        a = v * v
        tape.reset()
        b = w * w + a
    ws = tape.watched_variables()
    return [len(ws), ws[0] is w, tape.gradient(b, [v, w])]


def case_reset_in_loop(tf):
    x = tf.constant(1.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for step in range(3):
            y = y * x
            if step == 1:
                tape.reset()
                tape.watch(x)
    return [y, tape.gradient(y, x)]


def case_reset_persistent_tape_still_persistent(tf):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        tape.reset()
        tape.watch(x)
        y = x * x * x
    return [tape.gradient(y, x), tape.gradient(y, x)]


def case_two_tapes_equivalent_to_reset(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = x * x
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = loss + x * 10.0
    return tape.gradient(loss, x)
