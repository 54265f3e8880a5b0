"""output_gradients (VJP seeds): per-target seeds, dtypes and the footguns."""

from ._registry import tf_raises


def case_tensor_seed_weights_elements(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x, output_gradients=tf.constant([1.0, 0.0, 10.0]))


def case_list_seed_per_target(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y1 = x * x
        y2 = tf.reduce_sum(x) * 1.0
    seeds = [tf.constant([1.0, 2.0]), tf.constant(10.0)]
    return tape.gradient([y1, y2], x, output_gradients=seeds)


def case_list_of_python_float_seeds_for_scalar_targets(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y1 = x * x
        y2 = x * x * x
    return tape.gradient([y1, y2], x, output_gradients=[2.0, 3.0])


def case_python_float_seed_for_scalar_target(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x, output_gradients=2.0)


def case_single_target_list_of_scalar_seeds(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x, output_gradients=[3.0, 0.0, 10.0])


def case_fewer_seeds_than_targets(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y1 = x * x
        y2 = x * x * x
    return tape.gradient([y1, y2], x, output_gradients=[tf.constant(5.0)])


def case_more_seeds_than_targets(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    seeds = [tf.constant(5.0), tf.constant(7.0)]
    return tape.gradient([y], x, output_gradients=seeds)


@tf_raises("InvalidArgumentError")
def case_int_seed_for_float_target(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x, output_gradients=2)


@tf_raises("InvalidArgumentError")
def case_int_tensor_seed_for_float_vector_target(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x, output_gradients=tf.constant([3, 4]))


@tf_raises("ValueError")
def case_none_entry_means_ones(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y1 = x * x
        y2 = x * x * x
    return tape.gradient([y1, y2], x, output_gradients=[None, tf.constant(2.0)])


@tf_raises("ValueError")
def case_single_none_seed_in_list(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x, output_gradients=[None])


@tf_raises("InvalidArgumentError")
def case_wrong_shape_seed_matmul(tf):
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.matmul(a, a)
    return tape.gradient(y, a, output_gradients=tf.constant([1.0, 2.0, 3.0]))


@tf_raises("InvalidArgumentError")
def case_wrong_shape_seed_reshape(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reshape(x, [2, 1])
    return tape.gradient(y, x, output_gradients=tf.ones([2, 3]))


def case_scalar_seed_for_vector_target(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x, output_gradients=tf.constant(2.0))


def case_seeds_for_dict_target_in_sorted_key_order(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        targets = {"b": x * x, "a": x * x * x}
    seeds = [tf.constant(1.0), tf.constant(100.0)]
    return tape.gradient(targets, x, output_gradients=seeds)


def case_seed_for_int_target_is_irrelevant(tf):
    x = tf.constant(2)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x, output_gradients=tf.constant(5))


def case_seed_float64(tf):
    x = tf.constant([1.0, 2.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.exp(x)
    seed = tf.constant([0.5, -1.0], dtype=tf.float64)
    return tape.gradient(y, x, output_gradients=seed)


def case_zero_seed_gives_zero_not_none(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x, output_gradients=tf.zeros([2]))


def case_explicit_none_output_gradients_is_default(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x * x
    return tape.gradient(y, x, output_gradients=None)


def case_vjp_of_matvec(tf):
    w = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    x = tf.constant([1.0, 0.0, -1.0])
    with tf.GradientTape() as tape:
        tape.watch([w, x])
        y = tf.linalg.matvec(w, x)
    return tape.gradient(y, [w, x], output_gradients=tf.constant([2.0, -1.0]))


def case_seeds_two_targets_two_intermediate_sources(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a = x * 2.0
        b = x * x
        mean = a * b
        var = a + b
    seeds = [tf.constant([0.5, 1.0]), tf.constant([2.0, -1.0])]
    seeded = tape.gradient((mean, var), [a, b], output_gradients=seeds)
    unseeded = tape.gradient((mean, var), [a, b], output_gradients=None)
    return [seeded, unseeded]


def case_seed_shaped_like_matrix_target(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.matmul(x, x)
    seed = tf.constant([[1.0, 0.0], [0.0, 2.0]])
    return tape.gradient(y, x, output_gradients=seed)


def case_seed_for_variable_source(tf):
    v = tf.Variable([1.0, -1.0])
    with tf.GradientTape() as tape:
        y = tf.exp(v)
    return tape.gradient(y, v, output_gradients=tf.constant([3.0, 4.0]))
