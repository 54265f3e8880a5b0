"""IndexedSlices gradients from tf.gather and their aggregation."""


def case_gather_gradient_is_indexed_slices(tf):
    p = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = tf.gather(p, [2, 0])
    return tape.gradient(y, p)


def case_gather_duplicate_indices_kept(tf):
    p = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = tf.gather(p, [1, 1, 0]) * tf.constant([1.0, 2.0, 3.0])
    return tape.gradient(y, p)


def case_gather_densified_adds_duplicates(tf):
    p = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = tf.gather(p, [1, 1, 0]) * tf.constant([1.0, 2.0, 3.0])
    g = tape.gradient(y, p)
    return tf.convert_to_tensor(g)


def case_gather_plus_dense_is_dense(tf):
    p = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = tf.reduce_sum(tf.gather(p, [0, 0])) + tf.reduce_sum(p * p)
    return tape.gradient(y, p)


def case_two_gathers_concatenated(tf):
    p = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = tf.reduce_sum(tf.gather(p, [0, 2])) + tf.reduce_sum(tf.gather(p, [2]) * 5.0)
    return tape.gradient(y, p)


def case_strided_slice_gradient_is_dense(tf):
    p = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = p[1] * 3.0
    return tape.gradient(y, p)


def case_gather_from_variable(tf):
    v = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(v, [1]) * 2.0)
    return tape.gradient(y, v)


def case_gather_axis1(tf):
    p = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = tf.gather(p, [2, 0, 2], axis=1)
    return tape.gradient(y, p)


def case_gather_2d_indices(tf):
    p = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = tf.gather(p, [[0, 1], [1, 2]])
    return tape.gradient(y, p)


def case_indexed_slices_constructed_and_densified(tf):
    s = tf.IndexedSlices(
        values=tf.constant([[1.0, 2.0], [3.0, 4.0], [10.0, 20.0]]),
        indices=tf.constant([2, 0, 2]),
        dense_shape=tf.constant([4, 2]),
    )
    return [s, tf.convert_to_tensor(s)]


def case_indexed_slices_attributes(tf):
    p = tf.constant([1.0, 2.0, 3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = tf.gather(p, [3, 1]) * tf.constant([2.0, 5.0])
    g = tape.gradient(y, p)
    return [g.values, g.indices, g.dense_shape]


def case_gather_unconnected_zero_is_dense(tf):
    p = tf.constant([1.0, 2.0, 3.0])
    q = tf.constant([4.0, 5.0])
    with tf.GradientTape() as tape:
        tape.watch([p, q])
        y = tf.gather(p, [1])
    return tape.gradient(y, [p, q], unconnected_gradients="zero")


def case_embedding_lookup(tf):
    table = tf.Variable([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]])
    with tf.GradientTape() as tape:
        e = tf.nn.embedding_lookup(table, tf.constant([2, 2, 1]))
        y = tf.reduce_sum(e * tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    return tape.gradient(y, table)


def case_gather_with_seed(tf):
    p = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = tf.gather(p, [1, 2])
    return tape.gradient(y, p, output_gradients=tf.constant([[1.0, -1.0], [2.0, 0.5]]))


def case_gather_float64(tf):
    p = tf.constant([1.0, 2.0, 3.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = tf.reduce_sum(tf.gather(p, [0, 2]) ** 2)
    return tape.gradient(y, p)


def case_gather_of_intermediate(tf):
    p = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(p)
        h = p * 2.0
        y = tf.reduce_sum(tf.gather(h, [2, 2]))
    return [tape.gradient(y, h), tape.gradient(y, p)]


def case_gather_then_reduce_mean(tf):
    p = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = tf.reduce_mean(tf.gather(p, [1]))
    return tape.gradient(y, p)
