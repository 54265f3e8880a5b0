"""Targets and sources: nests, summation, intermediates, repeats, identity."""

from collections import namedtuple

Pair = namedtuple("Pair", ["first", "second"])


def case_list_target_is_summed(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y1 = x * x
        y2 = 3.0 * x
    return tape.gradient([y1, y2], x)


def case_nonscalar_target_is_summed(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x)


def case_matrix_target_is_summed(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.matmul(x, x)
    return tape.gradient(y, x)


def case_dict_target_is_summed(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        targets = {"b": x * x, "a": 2.0 * x}
    return tape.gradient(targets, x)


def case_nested_target_is_summed(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        targets = [x * 1.0, (x * x, {"k": x * x * x})]
    return tape.gradient(targets, x)


def case_tuple_target_is_summed(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        targets = (tf.reduce_sum(x), x * 3.0)
    return tape.gradient(targets, x)


def case_list_sources_give_list(tf):
    a = tf.constant(2.0)
    b = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = a * a * b
    return tape.gradient(y, [a, b])


def case_tuple_sources_give_tuple(tf):
    a = tf.constant(2.0)
    b = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = a * a * b
    return tape.gradient(y, (a, b))


def case_dict_sources_give_dict(tf):
    a = tf.constant(2.0)
    b = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = a * a * b
    return tape.gradient(y, {"zeta": a, "alpha": b})


def case_nested_dict_of_lists_sources(tf):
    a = tf.constant(1.0)
    b = tf.constant(2.0)
    c = tf.constant([3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch([a, b, c])
        y = a * b * tf.reduce_sum(c * c)
    return tape.gradient(y, {"z": [a], "a": (b, [c])})


def case_namedtuple_sources_give_namedtuple(tf):
    a = tf.constant(2.0)
    b = tf.constant([1.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = a * tf.reduce_sum(b)
    return tape.gradient(y, Pair(first=a, second=b))


def case_namedtuple_target(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        targets = Pair(first=x * x, second=x * 5.0)
    return tape.gradient(targets, x)


def case_single_source_gives_single_tensor(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x * x)
    return tape.gradient(y, x)


def case_single_element_list_source(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x * x)
    return tape.gradient(y, [x])


def case_empty_source_list(tf):
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, [])


def case_intermediate_and_input_sources(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * y + x
    return tape.gradient(z, [y, x])


def case_intermediate_source_only(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = tf.sin(y) + y
    return tape.gradient(z, y)


def case_repeated_source_gets_full_gradient(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, [x, x])


def case_repeated_source_in_dict(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x)
    return tape.gradient(y, {"one": x, "two": x})


def case_target_is_source_without_watch(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        pass
    return tape.gradient(x, x)


def case_target_is_source_float64_matrix(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float64)
    with tf.GradientTape() as tape:
        pass
    return tape.gradient(x, x)


def case_target_is_source_bool(tf):
    b = tf.constant(False)
    with tf.GradientTape() as tape:
        pass
    return tape.gradient(b, b)


def case_target_is_source_with_seed(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        pass
    return tape.gradient(x, x, output_gradients=tf.constant([5.0, 7.0]))


def case_target_is_source_with_wrong_shape_seed(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        pass
    return tape.gradient(x, x, output_gradients=tf.constant([5.0, 7.0, 9.0]))


def case_target_is_source_watched_and_used(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient([x, y], x)


def case_target_is_intermediate_of_other_target(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    return tape.gradient([y, z], x, output_gradients=[tf.constant(10.0), tf.constant(1.0)])


def case_target_list_contains_source(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient([x, y], x)


def case_target_list_contains_unwatched_source(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    return tape.gradient([x, y], x)


def case_variable_in_target_list(tf):
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = v * v
    return tape.gradient([v, y], v)


def case_int_target_in_list_is_ignored(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        n = tf.constant(7)
    return tape.gradient([y, n], x)


def case_broadcast_vector_plus_matrix(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    c = tf.constant([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = (x + c) * c
    return tape.gradient(y, x)


def case_broadcast_scalar_source(tf):
    x = tf.constant(2.0)
    m = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * m
    return tape.gradient(y, x)


def case_broadcast_column_and_row(tf):
    a = tf.constant([[1.0], [2.0]])
    b = tf.constant([[3.0, 4.0, 5.0]])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = a * b - b / a
    return tape.gradient(y, [a, b])


def case_source_used_on_two_paths(tf):
    x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x + tf.sin(x) * x
    return tape.gradient(y, x)


def case_matmul_both_operands(tf):
    a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    b = tf.constant([[1.0, -1.0], [0.5, 2.0], [-2.0, 1.0]])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = tf.matmul(a, b)
    return tape.gradient(y, [a, b])


def case_gradient_wrt_reshaped_intermediate(tf):
    x = tf.constant([1.0, 2.0, 3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        m = tf.reshape(x, [2, 2])
        y = tf.reduce_sum(tf.matmul(m, m))
    return tape.gradient(y, [m, x])


def case_dict_target_dict_sources(tf):
    a = tf.constant(2.0)
    b = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        targets = {"p": a * b, "q": a + b}
    return tape.gradient(targets, {"a": a, "b": b})


def case_unrelated_and_related_in_nest(tf):
    a = tf.constant(2.0)
    b = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = a * a
    return tape.gradient(y, {"a": a, "b": [b, a]})


def case_same_target_twice_in_list(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient([y, y], x)


def case_source_not_recorded_but_target_recorded(tf):
    x = tf.constant(2.0)
    c = tf.constant(5.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * c
    return tape.gradient(y, [x, c])
