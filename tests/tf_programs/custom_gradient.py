"""tf.custom_gradient, tf.grad_pass_through and tf.recompute_grad."""

from ._registry import tf_raises


def case_custom_gradient_single_output(tf):
    @tf.custom_gradient
    def double_with_fake_grad(x):
        def grad(dy):
            return dy * 5.0

        return x * 2.0, grad

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = double_with_fake_grad(x)
    return [y, tape.gradient(y, x)]


def case_custom_gradient_grad_returns_list(tf):
    @tf.custom_gradient
    def f(x):
        def grad(dy):
            return [dy * 7.0]

        return x * 2.0, grad

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


def case_custom_gradient_softplus_overflowing_forward(tf):
    @tf.custom_gradient
    def softplus(x):
        e = tf.exp(x)

        def grad(dy):
            return dy * (1.0 - 1.0 / (1.0 + e))

        return tf.math.log(1.0 + e), grad

    x = tf.constant([0.0, 2.0, 100.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = softplus(x)
    return [y, tape.gradient(y, x)]


def case_custom_gradient_two_inputs(tf):
    @tf.custom_gradient
    def mul(a, b):
        def grad(dy):
            return dy * b * 10.0, dy * a * 100.0

        return a * b, grad

    a = tf.constant(2.0)
    b = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = mul(a, b)
    return tape.gradient(y, [a, b])


def case_custom_gradient_none_for_one_input(tf):
    @tf.custom_gradient
    def mul(a, b):
        def grad(dy):
            return dy * b, None

        return a * b, grad

    a = tf.constant(2.0)
    b = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = mul(a, b)
    return tape.gradient(y, [a, b])


def case_custom_gradient_multi_output(tf):
    @tf.custom_gradient
    def split(x):
        def grad(da, db):
            return da * 10.0 + db * 100.0

        return (x * 2.0, x * 3.0), grad

    x = tf.constant(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a, b = split(x)
    return [a, b, tape.gradient(a, x), tape.gradient(b, x), tape.gradient([a, b], x)]


def case_custom_gradient_unused_output_receives_zeros(tf):
    @tf.custom_gradient
    def split(x):
        def grad(da, db):
            return da * 0.0 + db + 1.0

        return (x * 2.0, x * 3.0), grad

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        a, b = split(x)
    return tape.gradient(a, x)


def case_custom_gradient_with_variables(tf):
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def scale(x):
        def grad(dy, variables=None):
            return dy * 3.0, [dy * 4.0 for _ in variables]

        return x * v, grad

    x = tf.constant(5.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scale(x)
    return [y, tape.gradient(y, [x, v])]


def case_custom_gradient_with_two_variables(tf):
    v = tf.Variable([1.0, 2.0])
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def f(x):
        def grad(dy, variables):
            return dy * 0.5, [tf.ones_like(v) * 6.0, dy * 7.0]

        return tf.reduce_sum(v * x) * w, grad

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, [x, v, w])


@tf_raises("TypeError")
def case_custom_gradient_missing_variables_kwarg_raises(tf):
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def scale(x):
        def grad(dy):
            return dy * 3.0

        return x * v, grad

    x = tf.constant(5.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scale(x)
    return tape.gradient(y, x)


@tf_raises("ValueError")
def case_custom_gradient_wrong_grad_count_raises(tf):
    @tf.custom_gradient
    def mul(a, b):
        def grad(dy):
            return (dy * b,)

        return a * b, grad

    a = tf.constant(2.0)
    b = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = mul(a, b)
    return tape.gradient(y, [a, b])


@tf_raises("ValueError")
def case_custom_gradient_empty_grad_list_raises(tf):
    @tf.custom_gradient
    def f(x):
        def grad(dy):
            return []

        return x * 2.0, grad

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


@tf_raises("ValueError")
def case_custom_gradient_wrong_variable_grad_count_raises(tf):
    v = tf.Variable(2.0)
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def f(x):
        def grad(dy, variables=None):
            return dy, [dy]

        return x * v * w, grad

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, [x, v, w])


def case_custom_gradient_variable_as_positional_input(tf):
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x, var):
        def grad(dy):
            return dy * 11.0, dy * 13.0

        return x * var, grad

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x, v)
    return tape.gradient(y, [x, v])


def case_custom_gradient_keyword_with_positional(tf):
    @tf.custom_gradient
    def scaled(x, scale=1.0):
        def grad(dy):
            return dy * 100.0

        return x * scale, grad

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scaled(x, scale=5.0)
    return [y, tape.gradient(y, x)]


def case_custom_gradient_all_keyword_call(tf):
    @tf.custom_gradient
    def double_with_fake_grad(x):
        def grad(dy):
            return dy * 5.0

        return x * 2.0, grad

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = double_with_fake_grad(x=x)
    return [y, tape.gradient(y, x)]


def case_custom_gradient_higher_order(tf):
    @tf.custom_gradient
    def cube(x):
        def grad(dy):
            return dy * 3.0 * x * x

        return x * x * x, grad

    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = cube(x)
        g = inner.gradient(y, x)
    return [g, outer.gradient(g, x)]


def case_custom_gradient_nested_overrides_second_order(tf):
    @tf.custom_gradient
    def cube(x):
        y = x * x * x

        def first(dy):
            @tf.custom_gradient
            def first_order(x_again):
                def second(ddy):
                    return ddy * 100.0

                return dy * 3.0 * x_again * x_again, second

            return first_order(x)

        return y, first

    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = cube(x)
        g = inner.gradient(y, x)
    return [g, outer.gradient(g, x)]


def case_custom_gradient_forward_mode_uses_forward_ops(tf):
    @tf.custom_gradient
    def double_with_fake_grad(x):
        def grad(dy):
            return dy * 5.0

        return x * 2.0, grad

    x = tf.constant(3.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = double_with_fake_grad(x)
    return acc.jvp(y)


@tf_raises("ZeroDivisionError")
def case_custom_gradient_grad_fn_raises(tf):
    @tf.custom_gradient
    def f(x):
        def grad(dy):
            raise ZeroDivisionError("custom grad failed")

        return x * 2.0, grad

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


def case_custom_gradient_clip_by_norm(tf):
    @tf.custom_gradient
    def clip_grad_layer(x):
        def grad(dy):
            return tf.clip_by_norm(dy, 1.0)

        return tf.identity(x), grad

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(clip_grad_layer(x) * tf.constant([3.0, 4.0]))
    return tape.gradient(y, x)


def case_custom_gradient_inside_larger_graph(tf):
    @tf.custom_gradient
    def identity_times_two_grad(x):
        def grad(dy):
            return dy * 2.0

        return tf.identity(x), grad

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        h = x * x
        y = tf.reduce_sum(tf.sin(identity_times_two_grad(h)))
    return tape.gradient(y, x)


def case_custom_gradient_body_ops_recorded_by_other_tape(tf):
    @tf.custom_gradient
    def f(x):
        inner_value = x * x

        def grad(dy):
            return dy * 5.0

        return inner_value, grad

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


def case_grad_pass_through_round(tf):
    x = tf.constant([1.2, 2.6])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.grad_pass_through(tf.round)(x) * 3.0
    return [y, tape.gradient(y, x)]


def case_grad_pass_through_assign(tf):
    v = tf.Variable(0.0)
    z = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = tf.grad_pass_through(v.assign)(z * z)
    return [y, v, tape.gradient(y, z)]


def case_grad_pass_through_variable_inside_gets_none(tf):
    v = tf.Variable(2.0)
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.grad_pass_through(lambda t: t * v)(x)
    return [y, tape.gradient(y, [x, v])]


def case_recompute_grad_matches_plain(tf):
    def block(x):
        return tf.tanh(x * 2.0) * x

    x = tf.constant([0.5, -1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y_plain = tf.reduce_sum(block(x))
        y_re = tf.reduce_sum(tf.recompute_grad(block)(x))
    return [y_plain, y_re, tape.gradient(y_plain, x), tape.gradient(y_re, x)]


def case_recompute_grad_call_count(tf):
    calls = []

    def block(x):
        calls.append(1)
        return x * x

    wrapped = tf.recompute_grad(block)
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = wrapped(x) + wrapped(x)
    after_forward = len(calls)
    g = tape.gradient(y, x)
    return [after_forward, len(calls), g]


def case_recompute_grad_second_order(tf):
    def block(x):
        return x * x * x

    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.recompute_grad(block)(x)
        g = inner.gradient(y, x)
    return [g, outer.gradient(g, x)]


def case_recompute_grad_with_variable(tf):
    w = tf.Variable([1.0, -2.0])

    def block(x):
        return tf.reduce_sum(w * x * x)

    x = tf.constant([3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.recompute_grad(block)(x)
    return [y, tape.gradient(y, [x, w])]


@tf_raises("NotImplementedError")
def case_recompute_grad_forward_mode_raises(tf):
    def block(x):
        return x * x

    x = tf.constant(3.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = tf.recompute_grad(block)(x)
    return acc.jvp(y)
