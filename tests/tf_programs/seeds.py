"""Programs taken from user questions about GradientTape (shared/seeds)."""


def _forward(tf, inputs, labels, w, b):
    logits = tf.matmul(inputs, w) + b
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)


def case_xentropy_per_example_vs_mean(tf):
    # seed 003: gradients of the per-example losses are the summed gradients;
    # the mean loss gives half of them for a batch of two.
    inputs = tf.convert_to_tensor([[0.1, 0.0], [0.5, 0.51]])
    w = tf.Variable(initial_value=inputs)
    b = tf.Variable(tf.zeros((2,)))
    labels = tf.convert_to_tensor([0, 1])
    with tf.GradientTape() as g:
        xentropy = _forward(tf, inputs, labels, w, b)
        reduced = tf.reduce_mean(xentropy)
    grads = g.gradient(xentropy, [w, b])
    with tf.GradientTape() as g:
        xentropy2 = _forward(tf, inputs, labels, w, b)
        reduced2 = tf.reduce_mean(xentropy2)
    reduced_grads = g.gradient(reduced2, [w, b])
    return {
        "xentropy": xentropy,
        "reduced": reduced,
        "grads": grads,
        "reduced_grads": reduced_grads,
    }


def case_xentropy_list_target_sums(tf):
    # target=[y1, y2] gives [dy1/dx1 + dy2/dx1, dy1/dx2 + dy2/dx2]
    x1 = tf.constant(1.5)
    x2 = tf.constant(-0.5)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x1, x2])
        y1 = x1 * x1 * x2
        y2 = tf.exp(x1 + x2)
    summed = tape.gradient([y1, y2], [x1, x2])
    separate = [tape.gradient(y1, [x1, x2]), tape.gradient(y2, [x1, x2])]
    return [summed, separate]


def case_output_gradients_two_targets(tf):
    # seed 000: two targets, one seed per target, vs the default ones seeds.
    x = tf.constant([[0.9], [0.2], [0.3]])
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(x)
        eta1 = x * 2.0
        eta2 = x * x + 1.0
        mean = eta1 / eta2
        varsqrt = tf.sqrt(eta2)
    d_mean = x * 0.33
    d_var = tf.ones_like(x)
    seeded = tape.gradient((mean, varsqrt), [eta1, eta2], output_gradients=[d_mean, d_var])
    plain = tape.gradient((mean, varsqrt), [eta1, eta2], output_gradients=None)
    return {"seeded": seeded, "plain": plain}
