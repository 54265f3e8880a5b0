"""Jacobians through custom gradients, recompute_grad and nested tapes; more batch_jacobian shapes."""

from ._registry import tf_raises


def case_jacobian_through_custom_gradient(tf):
    @tf.custom_gradient
    def f(x):
        def grad(dy):
            return dy * 5.0

        return x * 2.0, grad

    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x) * tf.constant([0.5, 2.0, -3.0])
    return [tape.jacobian(y, x), tape.jacobian(y, x, experimental_use_pfor=False)]


def case_jacobian_through_custom_gradient_with_clip(tf):
    @tf.custom_gradient
    def f(x):
        def grad(dy):
            return tf.clip_by_value(dy, -1.0, 1.0)

        return tf.identity(x), grad

    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x) * tf.constant([0.5, 2.0, -3.0])
    return tape.jacobian(y, x)


def case_jacobian_through_recompute_grad(tf):
    def block(x):
        return tf.sin(x) * x

    x = tf.constant([0.1, 0.2, 0.3], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.recompute_grad(block)(x)
    return tape.jacobian(y, x)


def case_hessian_of_custom_gradient_uses_grad_fn(tf):
    @tf.custom_gradient
    def f(x):
        def grad(dy):
            return dy * tf.sin(x)

        return tf.reduce_sum(x * x), grad

    x = tf.constant([0.5, 1.0], dtype=tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return [g, outer.jacobian(g, x)]


def case_jacobian_two_variable_sources(tf):
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    b = tf.Variable([0.5, -0.5])
    x = tf.constant([1.0, -1.0])
    with tf.GradientTape() as tape:
        y = tf.tanh(tf.linalg.matvec(w, x) + b)
    return tape.jacobian(y, [w, b])


def case_jacobian_variable_target(tf):
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = v * 1.0
    return tape.jacobian(v, v)


def case_jacobian_reduce_max_ties(tf):
    x = tf.constant([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_max(x, axis=1)
    return tape.jacobian(y, x)


def case_jacobian_broadcast_add(tf):
    x = tf.constant([[1.0], [2.0]])
    b = tf.constant([10.0, 20.0, 30.0])
    with tf.GradientTape() as tape:
        tape.watch([x, b])
        y = x * b + b
    return tape.jacobian(y, [x, b])


def _exp_matmul_jacobian(tf, **kwargs):
    w = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=tf.float64)
    x = tf.constant([[0.5, -1.0]], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.exp(tf.matmul(x, w, transpose_b=True))
    return tape.jacobian(y, x, **kwargs)


def case_jacobian_exp_matmul_float64(tf):
    return _exp_matmul_jacobian(tf)


@tf_raises("ValueError")
def case_jacobian_parallel_iterations_one_float64(tf):
    # TF 2.21 fails to vectorise with parallel_iterations=1; tapegrad walks one row at a time
    return _exp_matmul_jacobian(tf, parallel_iterations=1)


def case_gradient_of_jacobian_trace(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        j = inner.jacobian(y, x)
        trace = tf.linalg.trace(j)
    return [j, outer.gradient(trace, x)]


def case_batch_jacobian_rank3_source(tf):
    x = tf.constant([[[1.0, 2.0], [3.0, 4.0]], [[0.5, -1.0], [2.0, 0.0]]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x, axis=2) + tf.reduce_prod(x, axis=[1, 2])[:, None]
    return tape.batch_jacobian(y, x)


def case_batch_jacobian_of_per_example_gradient(tf):
    x = tf.constant([[1.0, 2.0], [0.5, -1.0], [0.0, 3.0]])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.sin(x[:, 0]) * x[:, 1] ** 2)
        g = inner.gradient(y, x)
    return [g, outer.batch_jacobian(g, x)]


def case_batch_jacobian_variable_float64_matmul(tf):
    w = tf.constant([[1.0, -1.0, 0.5], [2.0, 0.0, 1.0]], dtype=tf.float64)
    x = tf.Variable([[0.1, 0.2], [0.3, -0.4]], dtype=tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        y = tf.sigmoid(tf.matmul(x, w))
    return tape.batch_jacobian(y, x, experimental_use_pfor=False)


@tf_raises("ValueError")
def case_batch_jacobian_rank1_source_raises(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.stack([x, x])
    return tape.batch_jacobian(y, x)


def case_forward_mode_custom_gradient_two_outputs(tf):
    @tf.custom_gradient
    def f(x):
        def grad(da, db):
            return da * 100.0 + db * 1000.0

        return (tf.sin(x), x * x), grad

    x = tf.constant([0.5, 1.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 2.0])) as acc:
        a, b = f(x)
    return [acc.jvp(a), acc.jvp(b)]


def case_custom_gradient_list_output_structure(tf):
    @tf.custom_gradient
    def f(x):
        def grad(da, db, dc):
            return da + db * 10.0 + dc * 100.0

        return [x * 2.0, [x * 3.0, x * 4.0]], grad

    x = tf.constant(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        out = f(x)
    return [out, tape.gradient(out[1][0], x), tape.gradient(out, x)]


def case_grad_pass_through_two_inputs(tf):
    a = tf.constant([1.4, 2.6])
    b = tf.constant([0.2, 0.7])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        ra, rb = tf.grad_pass_through(lambda p, q: (tf.round(p), tf.round(q)))(a, b)
        y = tf.reduce_sum(ra * 2.0 + rb * 3.0)
    return [y, tape.gradient(y, [a, b])]


def case_recompute_grad_multiple_outputs(tf):
    def block(x):
        return x * x, tf.exp(x)

    x = tf.constant([0.5, -1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        a, b = tf.recompute_grad(block)(x)
        y = tf.reduce_sum(a * 3.0 + b)
    return [y, tape.gradient(y, x)]


def case_jacobian_complex(tf):
    x = tf.constant([1.0 + 2.0j, -0.5 + 1.0j], dtype=tf.complex128)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x * tf.constant([1.0 - 1.0j, 2.0 + 0.5j], dtype=tf.complex128)
    return tape.jacobian(y, x)


def case_batch_jacobian_complex64(tf):
    x = tf.constant([[1.0 + 1.0j, 2.0], [0.5j, -1.0]], dtype=tf.complex64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.exp(x) * tf.reduce_sum(x, axis=1, keepdims=True)
    return tape.batch_jacobian(y, x)
