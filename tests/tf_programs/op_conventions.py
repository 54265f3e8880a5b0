"""Per-op gradient conventions (ties, kinks, singular points, where, sort)."""


def _grad(tf, fn, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x)


def case_reduce_max_ties_split(tf):
    return _grad(tf, tf.reduce_max, tf.constant([2.0, 2.0, 1.0]))


def case_reduce_min_ties_split(tf):
    return _grad(tf, tf.reduce_min, tf.constant([1.0, 3.0, 1.0, 1.0]))


def case_reduce_max_axis_with_ties(tf):
    x = tf.constant([[1.0, 5.0, 5.0], [7.0, 2.0, 3.0]])
    return _grad(tf, lambda t: tf.reduce_max(t, axis=1), x)


def case_maximum_tie_goes_to_first(tf):
    x = tf.constant(1.0)
    y = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = tf.maximum(x, y)
    return tape.gradient(z, [x, y])


def case_minimum_tie_goes_to_first(tf):
    x = tf.constant([1.0, 2.0])
    y = tf.constant([1.0, 0.0])
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = tf.minimum(x, y)
    return tape.gradient(z, [x, y])


def case_maximum_broadcast(tf):
    x = tf.constant([[1.0, 4.0], [3.0, 0.0]])
    y = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = tf.maximum(x, y)
    return tape.gradient(z, [x, y])


def case_abs_at_zero(tf):
    return _grad(tf, tf.abs, tf.constant([-2.0, 0.0, 3.0]))


def case_sign_gradient_is_zero(tf):
    return _grad(tf, tf.sign, tf.constant([-2.0, 0.0, 3.0]))


def case_relu_at_zero(tf):
    return _grad(tf, tf.nn.relu, tf.constant([-1.0, 0.0, 1.0]))


def case_sqrt_at_zero_is_inf(tf):
    return _grad(tf, tf.sqrt, tf.constant([0.0, 4.0]))


def case_log_at_zero_is_inf(tf):
    return _grad(tf, tf.math.log, tf.constant([0.0, 2.0]))


def case_norm_at_zero_is_nan(tf):
    return _grad(tf, tf.norm, tf.constant([0.0, 0.0]))


def case_norm_nonzero(tf):
    return _grad(tf, tf.norm, tf.constant([3.0, 4.0]))


def case_clip_by_value_boundaries_inclusive(tf):
    x = tf.constant([-1.0, 0.0, 0.5, 1.0, 2.0])
    return _grad(tf, lambda t: tf.clip_by_value(t, 0.0, 1.0), x)


def case_pow_at_zero(tf):
    x = tf.constant(0.0)
    p = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([x, p])
        y = tf.pow(x, p)
    return tape.gradient(y, [x, p])


def case_pow_positive_base(tf):
    x = tf.constant([2.0, 3.0])
    p = tf.constant([3.0, 0.5])
    with tf.GradientTape() as tape:
        tape.watch([x, p])
        y = x ** p
    return tape.gradient(y, [x, p])


def case_divide_no_nan_by_zero(tf):
    x = tf.constant([3.0, 3.0])
    d = tf.constant([0.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch([x, d])
        y = tf.math.divide_no_nan(x, d)
    return [y, tape.gradient(y, [x, d])]


def case_where_leaks_nan_from_log(tf):
    x = tf.constant([0.0, 2.0])
    return _grad(tf, lambda t: tf.where(t > 0.0, tf.math.log(t), tf.zeros_like(t)), x)


def case_where_sqrt_zero_no_nan(tf):
    x = tf.constant([0.0, 4.0])
    return _grad(tf, lambda t: tf.where(t > 0.0, tf.sqrt(t), tf.zeros_like(t)), x)


def case_where_double_where_is_safe(tf):
    def safe_log(t):
        positive = t > 0.0
        safe_t = tf.where(positive, t, tf.ones_like(t))
        return tf.where(positive, tf.math.log(safe_t), tf.zeros_like(t))

    return _grad(tf, safe_log, tf.constant([0.0, 2.0]))


def case_where_selects_gradient(tf):
    x = tf.constant([-1.0, 2.0, 3.0])
    return _grad(tf, lambda t: tf.where(t > 0.0, t * t, t * 3.0), x)


def case_sort_gradient_is_permutation(tf):
    x = tf.constant([3.0, 1.0, 2.0])
    w = tf.constant([10.0, 20.0, 30.0])
    return _grad(tf, lambda t: tf.sort(t) * w, x)


def case_sort_jacobian_is_permutation_matrix(tf):
    x = tf.constant([3.0, 1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sort(x, direction="DESCENDING")
    return [y, tape.jacobian(y, x)]


def case_reduce_mean_is_one_over_n(tf):
    return _grad(tf, tf.reduce_mean, tf.constant([[1.0, 2.0], [3.0, 4.0]]))


def case_reduce_sum_axis_keepdims(tf):
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return _grad(tf, lambda t: tf.reduce_sum(t, axis=0, keepdims=True) * t, x)


def case_reduce_prod(tf):
    return _grad(tf, tf.reduce_prod, tf.constant([2.0, 3.0, 4.0]))


def case_softmax(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    w = tf.constant([1.0, 0.0, -1.0])
    return _grad(tf, lambda t: tf.nn.softmax(t) * w, x)


def case_log_softmax(tf):
    x = tf.constant([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    w = tf.constant([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0]])
    return _grad(tf, lambda t: tf.nn.log_softmax(t) * w, x)


def case_sigmoid_tanh_exp(tf):
    x = tf.constant([-2.0, 0.0, 1.5])
    return _grad(tf, lambda t: tf.sigmoid(t) + tf.tanh(t) + tf.exp(t), x)


def case_reduce_logsumexp(tf):
    return _grad(tf, tf.reduce_logsumexp, tf.constant([1.0, 2.0, 3.0]))


def case_softmax_cross_entropy(tf):
    logits = tf.constant([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]])
    labels = tf.constant([[0.0, 1.0, 0.0], [0.5, 0.0, 0.5]])
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return [loss, tape.gradient(loss, logits)]


def case_sparse_softmax_cross_entropy(tf):
    logits = tf.constant([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]])
    labels = tf.constant([1, 2])
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return [loss, tape.gradient(loss, logits)]


def case_concat_stack_reshape_transpose(tf):
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    b = tf.constant([[5.0, 6.0]])
    w = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        c = tf.concat([a, b], axis=0)
        s = tf.stack([c, c * 2.0])
        r = tf.reshape(s, [2, 6])
        t = tf.transpose(tf.reshape(r[0], [3, 2]))
        y = tf.reduce_sum(t * w)
    return tape.gradient(y, [a, b])


def case_expand_dims_squeeze_tile(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        e = tf.expand_dims(x, 0)
        t = tf.tile(e, [3, 1])
        y = tf.reduce_sum(tf.squeeze(t[1:2]) * 3.0 + t)
    return tape.gradient(y, x)


def case_square_subtract_divide(tf):
    x = tf.constant([1.0, 2.0])
    y = tf.constant([4.0, -2.0])
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = tf.square(x - y) / y + tf.math.subtract(x, 1.0) / x
    return tape.gradient(z, [x, y])


def case_abs_negative_values(tf):
    return _grad(tf, tf.abs, tf.constant([-2.0, -0.5, 4.0]))


def case_matmul_transpose_b(tf):
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    b = tf.constant([[0.5, -1.0], [2.0, 1.0], [0.0, 3.0]])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = tf.matmul(a, b, transpose_b=True)
    return tape.gradient(y, [a, b])


def case_trig_and_log1p(tf):
    x = tf.constant([0.25, 1.0], dtype=tf.float64)
    return _grad(tf, lambda t: tf.cos(t) * tf.math.log1p(t) + tf.tan(t), x)


def case_negative_and_reciprocal(tf):
    x = tf.constant([2.0, -4.0])
    return _grad(tf, lambda t: -t + tf.math.reciprocal(t) + 1.0 / (t * t), x)


def case_relu6_and_leaky_relu(tf):
    x = tf.constant([-1.0, 0.0, 3.0, 6.0, 7.0])
    return _grad(tf, lambda t: tf.nn.relu6(t) + tf.nn.leaky_relu(t, alpha=0.1), x)


def case_elu_softplus(tf):
    x = tf.constant([-1.0, 0.0, 2.0])
    return _grad(tf, lambda t: tf.nn.elu(t) + tf.nn.softplus(t), x)


def case_reduce_max_all_equal(tf):
    return _grad(tf, tf.reduce_max, tf.constant([[4.0, 4.0], [4.0, 4.0]]))
