"""tf.autodiff.ForwardAccumulator (forward-mode JVPs)."""

from ._registry import tf_raises


def case_jvp_square(tf):
    x = tf.constant(2.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = x * x
    return acc.jvp(y)


def case_jvp_vector_tangent(tf):
    x = tf.constant([0.0, 1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.5, 2.0])) as acc:
        y = tf.sin(x)
    return [y, acc.jvp(y)]


def case_jvp_of_primal_is_tangent(tf):
    x = tf.constant([2.0, 40.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 10.0])) as acc:
        pass
    return acc.jvp(x)


def case_jvp_list_primals(tf):
    a = tf.constant(2.0)
    b = tf.constant(3.0)
    with tf.autodiff.ForwardAccumulator([a, b], [tf.constant(1.0), tf.constant(10.0)]) as acc:
        y = a * b
        z = a + b * b
    return acc.jvp([y, z, a])


def case_jvp_dict_structure(tf):
    a = tf.constant(2.0)
    b = tf.constant([1.0, 2.0])
    primals = {"a": a, "b": b}
    tangents = {"a": tf.constant(1.0), "b": tf.constant([0.0, 1.0])}
    with tf.autodiff.ForwardAccumulator(primals, tangents) as acc:
        y = a * b
    return acc.jvp({"y": y, "b": b})


def case_jvp_unconnected_none(tf):
    x = tf.constant(2.0)
    c = tf.constant(3.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = c * 2.0
    return acc.jvp(y)


def case_jvp_unconnected_zero(tf):
    x = tf.constant(2.0)
    c = tf.constant([3.0, 4.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = c * 2.0
    return acc.jvp([y, x], unconnected_gradients=tf.UnconnectedGradients.ZERO)


def case_jvp_op_after_exit_has_no_jvp(tf):
    x = tf.constant(2.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = x * x
    z = y * x
    return [acc.jvp(y), acc.jvp(z)]


def case_jvp_matmul(tf):
    w = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    x = tf.constant([[1.0], [-1.0]])
    with tf.autodiff.ForwardAccumulator(w, tf.constant([[1.0, 0.0], [0.0, 1.0]])) as acc:
        y = tf.matmul(w, x)
    return acc.jvp(y)


def case_jvp_chain_exp_log(tf):
    x = tf.constant([0.5, 1.0], dtype=tf.float64)
    t = tf.constant([1.0, 2.0], dtype=tf.float64)
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = tf.math.log(tf.exp(x) + x * x)
    return acc.jvp(y)


def case_jvp_reduce_sum(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    t = tf.constant([[1.0, 0.0], [2.0, 3.0]])
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = tf.reduce_sum(x * x, axis=1)
    return acc.jvp(y)


def case_jvp_nested_outer_of_inner(tf):
    x = tf.constant(1.1)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as outer:
        with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as inner:
            y = x * x * x * x
        first = inner.jvp(y)
    return [first, outer.jvp(first)]


def case_jvp_nested_inner_of_outer_is_none(tf):
    x = tf.constant(1.1)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as outer:
        with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as inner:
            y = x * x * x * x
            first = outer.jvp(y)
    return [first, inner.jvp(first)]


def case_hvp_forward_over_backward(tf):
    x = tf.constant([1.0, 2.0])
    v = tf.constant([1.0, 0.0])
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x[0] * x[0] * x[0] + x[0] * x[1]
        g = tape.gradient(y, x)
    return [g, acc.jvp(g)]


def case_hvp_forward_over_backward_variable(tf):
    v = tf.Variable([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(v, tf.constant([0.0, 1.0])) as acc:
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v * v * v)
        g = tape.gradient(y, v)
    return acc.jvp(g)


def case_backward_over_forward(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
            y = tf.reduce_sum(x * x * x)
        d = acc.jvp(y)
    return [d, tape.gradient(d, x)]


def case_jvp_sign_piecewise_constant(tf):
    x = tf.constant([-2.0, 3.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
        y = tf.sign(x)
    return acc.jvp(y)


def case_jvp_round_piecewise_constant(tf):
    x = tf.constant([1.2, 2.7])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
        y = tf.round(x)
    return acc.jvp(y)


def case_jvp_floor_piecewise_constant(tf):
    x = tf.constant([1.2, 2.7])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
        y = tf.floor(x)
    return acc.jvp(y)


@tf_raises("ValueError")
def case_jvp_duplicate_primal_raises(tf):
    x = tf.constant(1.0)
    acc = tf.autodiff.ForwardAccumulator([x, x], [tf.constant(1.0), tf.constant(2.0)])
    return acc


@tf_raises("ValueError")
def case_jvp_structure_mismatch_raises(tf):
    a = tf.constant(1.0)
    b = tf.constant(2.0)
    acc = tf.autodiff.ForwardAccumulator([a, b], [tf.constant(1.0)])
    return acc


def case_jvp_int_primal_gives_none(tf):
    i = tf.constant(3)
    with tf.autodiff.ForwardAccumulator(i, tf.constant(1)) as acc:
        y = i * i
    return acc.jvp(y)


@tf_raises("ValueError")
def case_jvp_reenter_active_raises(tf):
    x = tf.constant(1.0)
    acc = tf.autodiff.ForwardAccumulator(x, tf.constant(1.0))
    with acc:
        with acc:
            y = x * x
    return y


def case_jvp_never_entered_accumulator(tf):
    x = tf.constant([1.0, 2.0])
    acc = tf.autodiff.ForwardAccumulator(x, tf.constant([3.0, 4.0]))
    return acc.jvp(x)


def case_jvp_python_float_tangent_is_cast(tf):
    x = tf.constant(2.0, dtype=tf.float64)
    with tf.autodiff.ForwardAccumulator(x, 1.0) as acc:
        y = x * x * x
    return acc.jvp(y)


def case_jvp_variable_primal(tf):
    v = tf.Variable([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(v, tf.constant([1.0, -1.0])) as acc:
        y = v * v
    return acc.jvp(y)


@tf_raises("ValueError")
def case_jvp_tangent_shape_mismatch_raises(tf):
    x = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 2.0, 3.0])) as acc:
        y = x * x
    return acc.jvp(y)


def case_jvp_relu_and_where(tf):
    x = tf.constant([-1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
        y = tf.nn.relu(x) + tf.where(x > 0.0, x * x, -x)
    return acc.jvp(y)


def case_jvp_two_accumulators_independent(tf):
    x = tf.constant(3.0)
    y = tf.constant(5.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as ax:
        with tf.autodiff.ForwardAccumulator(y, tf.constant(1.0)) as ay:
            z = x * y
    return [ax.jvp(z), ay.jvp(z)]
