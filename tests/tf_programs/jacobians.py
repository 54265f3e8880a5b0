"""tape.jacobian() and tape.batch_jacobian()."""

from ._registry import tf_raises


def case_jacobian_elementwise_is_diagonal(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.jacobian(y, x)


def case_jacobian_matvec(tf):
    w = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    x = tf.constant([1.0, -1.0, 0.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.linalg.matvec(w, x)
    return tape.jacobian(y, x)


def case_jacobian_matrix_target_matrix_source(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.matmul(x, x)
    return tape.jacobian(y, x)


def case_jacobian_scalar_target(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x)
    return tape.jacobian(y, x)


def case_jacobian_scalar_source(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.stack([x, x * x, x * x * x])
    return tape.jacobian(y, x)


def case_jacobian_scalar_target_scalar_source(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.exp(x)
    return tape.jacobian(y, x)


def case_jacobian_list_sources(tf):
    a = tf.constant([1.0, 2.0])
    b = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = a * b
    return tape.jacobian(y, [a, b])


def case_jacobian_dict_sources(tf):
    a = tf.constant([1.0, 2.0])
    b = tf.constant([[1.0], [2.0]])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = a * a * tf.reshape(b, [2])
    return tape.jacobian(y, {"b": b, "a": a})


def case_jacobian_unconnected_none(tf):
    x = tf.constant([1.0, 2.0])
    z = tf.constant([3.0, 4.0, 5.0])
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = x * 2.0
    return tape.jacobian(y, [x, z])


def case_jacobian_unconnected_zero(tf):
    x = tf.constant([1.0, 2.0])
    z = tf.constant([3.0, 4.0, 5.0])
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = x * 2.0
    return tape.jacobian(y, [x, z], unconnected_gradients=tf.UnconnectedGradients.ZERO)


def case_jacobian_int_target_none(tf):
    x = tf.constant([1.5, 2.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(x, tf.int32)
    return tape.jacobian(y, x)


def case_jacobian_tanh_matvec_pfor(tf):
    w = tf.constant([[0.5, -1.0, 0.25], [1.0, 0.0, -0.5]])
    x = tf.constant([0.1, 0.2, 0.3])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(tf.linalg.matvec(w, x))
    return tape.jacobian(y, x)


def case_jacobian_tanh_matvec_no_pfor_persistent(tf):
    w = tf.constant([[0.5, -1.0, 0.25], [1.0, 0.0, -0.5]])
    x = tf.constant([0.1, 0.2, 0.3])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.tanh(tf.linalg.matvec(w, x))
    return tape.jacobian(y, x, experimental_use_pfor=False)


@tf_raises("RuntimeError")
def case_jacobian_tanh_matvec_no_pfor_nonpersistent(tf):
    w = tf.constant([[0.5, -1.0, 0.25], [1.0, 0.0, -0.5]])
    x = tf.constant([0.1, 0.2, 0.3])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(tf.linalg.matvec(w, x))
    return tape.jacobian(y, x, experimental_use_pfor=False)


def case_jacobian_parallel_iterations_same_result(tf):
    w = tf.constant([[0.5, -1.0, 0.25], [1.0, 0.0, -0.5]])
    x = tf.constant([0.1, 0.2, 0.3])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(tf.linalg.matvec(w, x))
    return tape.jacobian(y, x, parallel_iterations=3)


def case_jacobian_inside_context_nonpersistent(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sin(x) * x
        j = tape.jacobian(y, x)
    return j


@tf_raises("RuntimeError")
def case_jacobian_on_used_tape_raises(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    return tape.jacobian(y, x)


def case_gradient_after_jacobian_on_used_tape(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    j = tape.jacobian(y, x)
    try:
        second = tape.gradient(y, x)
    except RuntimeError as exc:
        second = exc
    return [j, second]


def case_jacobian_persistent_twice(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x * x
    return [tape.jacobian(y, x), tape.jacobian(y, x)]


@tf_raises("AttributeError")
def case_jacobian_list_target_raises(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y1 = x * x
        y2 = x * 3.0
    return tape.jacobian([y1, y2], x)


def case_jacobian_of_gather_is_dense(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.gather(x, [2, 0]) * 5.0
    return tape.jacobian(y, x)


def case_jacobian_empty_source(tf):
    x = tf.zeros([0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    return tape.jacobian(y, x)


def case_jacobian_empty_target(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x[:0] * 2.0
    return tape.jacobian(y, x)


def case_jacobian_variable_source(tf):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    x = tf.constant([1.0, -1.0])
    with tf.GradientTape() as tape:
        y = tf.linalg.matvec(v, x)
    return tape.jacobian(y, v)


def case_jacobian_float64(tf):
    x = tf.constant([0.5, 1.5], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.exp(x) * tf.reduce_sum(x)
    return tape.jacobian(y, x)


def case_jacobian_softmax(tf):
    x = tf.constant([1.0, 2.0, 0.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.softmax(x)
    return tape.jacobian(y, x)


def case_jacobian_target_is_source(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
    return tape.jacobian(x, x)


def case_batch_jacobian_elementwise(tf):
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.batch_jacobian(y, x)


def case_batch_jacobian_matmul(tf):
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    w = tf.constant([[1.0, 0.5], [-1.0, 2.0], [0.0, 3.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(tf.matmul(x, w) * 0.1)
    return tape.batch_jacobian(y, x)


def case_batch_jacobian_rank3_target(tf):
    x = tf.constant([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reshape(x * x, [2, 2, 2])
    return tape.batch_jacobian(y, x)


def case_batch_jacobian_rows_interact(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * tf.reduce_sum(x, axis=0)
    return tape.batch_jacobian(y, x)


@tf_raises("ValueError")
def case_batch_jacobian_first_dim_mismatch_raises(tf):
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.concat([x, x], axis=0)
    return tape.batch_jacobian(y, x)


@tf_raises("ValueError")
def case_batch_jacobian_rank1_raises(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.batch_jacobian(y, x)


def case_batch_jacobian_unconnected_none(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    z = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = x * 2.0
    return tape.batch_jacobian(y, z, unconnected_gradients=tf.UnconnectedGradients.NONE)


def case_batch_jacobian_unconnected_zero(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    z = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = x * 2.0
    return tape.batch_jacobian(y, z, unconnected_gradients="zero")


def case_batch_jacobian_sigmoid_pfor(tf):
    x = tf.constant([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]])
    w = tf.constant([[1.0, 2.0, -1.0], [0.5, -0.5, 1.5]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sigmoid(tf.matmul(x, w))
    return tape.batch_jacobian(y, x)


def case_batch_jacobian_sigmoid_no_pfor_persistent(tf):
    x = tf.constant([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]])
    w = tf.constant([[1.0, 2.0, -1.0], [0.5, -0.5, 1.5]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.sigmoid(tf.matmul(x, w))
    return tape.batch_jacobian(y, x, experimental_use_pfor=False)


@tf_raises("RuntimeError")
def case_batch_jacobian_sigmoid_no_pfor_nonpersistent(tf):
    x = tf.constant([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]])
    w = tf.constant([[1.0, 2.0, -1.0], [0.5, -0.5, 1.5]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sigmoid(tf.matmul(x, w))
    return tape.batch_jacobian(y, x, experimental_use_pfor=False)


def case_batch_jacobian_degenerate_zero_width(tf):
    x = tf.zeros([1, 0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.batch_jacobian(y, x)


@tf_raises("RuntimeError")
def case_batch_jacobian_on_used_tape_raises(tf):
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    return tape.batch_jacobian(y, x)


def case_batch_jacobian_float64_variable(tf):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float64)
    with tf.GradientTape() as tape:
        y = tf.exp(v) * 2.0
    return tape.batch_jacobian(y, v)
