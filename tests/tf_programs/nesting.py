"""Nested tapes and higher-order derivatives."""

from ._registry import catch


def case_second_derivative_cube(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = x * x * x
        g = t1.gradient(y, x)
    h = t2.gradient(g, x)
    return [y, g, h]


def case_third_derivative_three_tapes(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = x ** 4
            g1 = t1.gradient(y, x)
        g2 = t2.gradient(g1, x)
    g3 = t3.gradient(g2, x)
    return [g1, g2, g3]


def case_persistent_tape_differentiates_own_gradient(tf):
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x ** 3
        g = tape.gradient(y, x)
        h = tape.gradient(g, x)
    k = tape.gradient(h, x)
    return [y, g, h, k]


def case_inner_gradient_after_outer_exit_is_constant(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x
    g = inner.gradient(y, x)
    return [g, outer.gradient(g, x)]


def case_outer_tape_must_watch_source(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x
        g = inner.gradient(y, x)
    return [g, outer.gradient(g, x)]


def case_hessian_via_jacobian_of_gradient(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x[0] * x[0] * x[1] + x[1] ** 3
        g = inner.gradient(y, x)
    return [g, outer.jacobian(g, x)]


def case_gradient_of_gradient_vector_gives_row_sums(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x[0] * x[0] * x[1] + x[1] ** 3
        g = inner.gradient(y, x)
    return outer.gradient(g, x)


def case_hvp_via_output_gradients(tf):
    x = tf.constant([1.0, 2.0])
    v = tf.constant([1.0, -1.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x[0] * x[0] * x[1] + x[1] ** 3
        g = inner.gradient(y, x)
    return outer.gradient(g, x, output_gradients=v)


def case_hessian_of_quadratic_form(tf):
    a = tf.constant([[2.0, 1.0], [0.0, 3.0]], dtype=tf.float64)
    x = tf.constant([1.0, -1.0], dtype=tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(x * tf.linalg.matvec(a, x))
        g = inner.gradient(y, x)
    return [y, g, outer.jacobian(g, x)]


def case_in_context_gradient_nonpersistent_then_reuse(tf):
    x = tf.constant(2.0)
    tape = tf.GradientTape()
    with tape:
        tape.watch(x)
        y = x * x
        g = tape.gradient(y, x)
        z = g * x
    return [g, z, catch(tape.gradient, z, x)]


def case_in_context_gradient_nonpersistent_stops_watching(tf):
    v = tf.Variable(2.0)
    w = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = v * v
        g = tape.gradient(y, v)
        z = w * w
    ws = tape.watched_variables()
    return [g, z, len(ws), ws[0] is v]


def case_in_context_gradient_nonpersistent_outer_records(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
            g = inner.gradient(y, x)
            z = g * x
    return [g, z, outer.gradient(z, x)]


def case_persistent_gradient_in_context_is_recorded(tf):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x * x
        g = tape.gradient(y, x)
    return [g, tape.gradient(g, x)]


def case_persistent_gradient_outside_context_not_recorded(tf):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x * x
    g = tape.gradient(y, x)
    return [g, tape.gradient(g, x)]


def case_mixed_partial_derivative(tf):
    x = tf.constant(2.0)
    y = tf.constant(3.0)
    with tf.GradientTape() as outer:
        outer.watch(y)
        with tf.GradientTape() as inner:
            inner.watch(x)
            f = x * y * y
        dfdx = inner.gradient(f, x)
    return [dfdx, outer.gradient(dfdx, y)]


def case_second_derivative_sin(tf):
    x = tf.constant([0.0, 0.5, 1.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.sin(x)
        g = inner.gradient(y, x)
    return [g, outer.gradient(g, x)]


def case_second_derivative_exp_tanh_sigmoid(tf):
    x = tf.constant([-1.0, 0.25, 2.0], dtype=tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.exp(x) + tf.tanh(x) + tf.sigmoid(x)
        g = inner.gradient(y, x)
    return [g, outer.gradient(g, x)]


def case_second_derivative_of_variable(tf):
    v = tf.Variable(1.5)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = v * v * v
        g = inner.gradient(y, v)
    return [g, outer.gradient(g, v)]


def case_gradient_penalty(tf):
    x = tf.constant([1.0, 2.0])
    w = tf.Variable([0.5, -1.0])
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(w * x * x)
        g = inner.gradient(y, x)
        penalty = tf.reduce_sum(g * g)
    return [g, penalty, outer.gradient(penalty, w)]


def case_second_derivative_relu_squared(tf):
    x = tf.constant([-1.0, 2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            r = tf.nn.relu(x)
            y = r * r
        g = inner.gradient(y, x)
    return [g, outer.gradient(g, x)]


def case_second_derivative_of_linear_is_zero(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(x * x)
        g = inner.gradient(y, x)
        h = g * 3.0 + x
    return [h, outer.gradient(h, x)]


def case_jacobian_of_jacobian(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        j = inner.jacobian(y, x)
    return [j, outer.jacobian(j, x)]


def case_non_lifo_exit_is_tolerated(tf):
    x = tf.constant(2.0)
    a = tf.GradientTape()
    b = tf.GradientTape()
    a.__enter__()
    b.__enter__()
    try:
        a.watch(x)
        b.watch(x)
        y = x * x
        a.__exit__(None, None, None)
        z = y * x
    finally:
        b.__exit__(None, None, None)
    return [a.gradient(y, x), b.gradient(z, x)]


def case_nested_tapes_different_sources(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        y = x * x
        with tf.GradientTape() as inner:
            inner.watch(y)
            z = y * y
    return [inner.gradient(z, y), outer.gradient(z, x)]


def case_hessian_diagonal_nested_gradients(tf):
    x = tf.constant([0.5, 1.0, 1.5], dtype=tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.exp(x) * x)
        g = inner.gradient(y, x)
    return outer.gradient(g, x)
