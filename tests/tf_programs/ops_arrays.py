"""Array ops: gather_nd/scatter_nd family, boolean_mask, reverse, roll, repeat, one_hot,
sequence_mask, meshgrid, norm, clip_by_norm, clip_by_global_norm, einsum, tensordot,
embedding_lookup: values, gradients (duplicates, ties, zeros) and errors."""

import numpy as np

from ._registry import tf_raises

M = [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]


def _grads(tf, fn, *xs, seed=None):
    with tf.GradientTape() as tape:
        tape.watch(list(xs))
        y = fn(*xs)
    g = tape.gradient(y, list(xs), output_gradients=seed)
    return y, g


def _w(tf, shape, start=1.0):
    n = int(np.prod(shape))
    return tf.constant((np.arange(n, dtype=np.float32) * 0.5 + start).reshape(shape))


# ---------------------------------------------------------------- gather_nd
def case_gather_nd_elements_with_duplicates(tf):
    return _grads(tf, lambda x: tf.gather_nd(x, [[0, 1], [1, 2], [0, 1]]) * tf.constant([1.0, 2.0, 3.0]),
                  tf.constant(M))


def case_gather_nd_rows_gradient_is_indexed_slices(tf):
    return _grads(tf, lambda x: tf.gather_nd(x, [[1], [1], [0]]) ** 2, tf.constant(M))


def case_gather_nd_nested_indices(tf):
    x = _w(tf, [2, 3, 2])
    return _grads(tf, lambda x: tf.gather_nd(x, [[[0, 2], [1, 0]], [[1, 1], [0, 2]]]) * x[0, 0], x)


def case_gather_nd_batch_dims(tf):
    x = _w(tf, [2, 3, 2])
    return _grads(tf, lambda x: tf.gather_nd(x, [[[1], [0]], [[2], [2]]], batch_dims=1) * 3.0, x)


def case_gather_nd_batch_dims_elements(tf):
    x = _w(tf, [2, 3, 2])
    return _grads(tf, lambda x: tf.gather_nd(x, [[1, 0], [2, 1]], batch_dims=1), x)


def case_gather_nd_empty_index_vector(tf):
    return tf.gather_nd(tf.constant(M), tf.zeros([2, 0], tf.int32))


def case_gather_nd_int64_indices_float64(tf):
    x = tf.constant(M, tf.float64)
    return _grads(tf, lambda x: tf.gather_nd(x, tf.constant([[1, 1]], tf.int64)), x)


def case_gather_nd_int_params(tf):
    return tf.gather_nd(tf.constant([[1, 2], [3, 4]]), [[1, 0]])


def case_gather_nd_jacobian(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.gather_nd(x * x, [[2], [0], [2]])
    return tape.jacobian(y, x)


def case_gather_nd_second_order(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.reduce_sum(tf.gather_nd(x, [[[1]], [[1]]]) ** 3)
        g = t1.gradient(y, x)
    return g, t2.gradient(g, x)


def case_gather_nd_forward_mode(tf):
    x = tf.constant(M)
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y = tf.gather_nd(x * x, [[0, 2], [1, 0]])
    return y, acc.jvp(y)


@tf_raises("InvalidArgumentError")
def case_gather_nd_out_of_range_raises(tf):
    return tf.gather_nd(tf.constant(M), [[2, 0]])


@tf_raises("InvalidArgumentError")
def case_gather_nd_negative_index_raises(tf):
    return tf.gather_nd(tf.constant(M), [[0, -1]])


@tf_raises("InvalidArgumentError")
def case_gather_nd_index_too_long_raises(tf):
    return tf.gather_nd(tf.constant(M), [[0, 0, 0]])


@tf_raises("InvalidArgumentError")
def case_gather_nd_float_indices_raises(tf):
    return tf.gather_nd(tf.constant(M), tf.constant([[0.0, 1.0]]))


# ---------------------------------------------------------------- scatter_nd
def case_scatter_nd_duplicates_add(tf):
    u = tf.constant([1.0, 2.0, 3.0, 4.0])
    return _grads(tf, lambda u: tf.scatter_nd([[1], [1], [0], [3]], u, [5]) * tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]), u)


def case_scatter_nd_slices(tf):
    u = _w(tf, [2, 3])
    return _grads(tf, lambda u: tf.scatter_nd([[2], [0]], u, [4, 3]) ** 2, u)


def case_scatter_nd_elements_2d(tf):
    u = tf.constant([5.0, 6.0, 7.0])
    return _grads(tf, lambda u: tf.scatter_nd([[0, 0], [1, 2], [0, 0]], u, tf.constant([2, 3])), u)


def case_scatter_nd_int_updates(tf):
    return tf.scatter_nd([[1], [1]], [1, 2], [3])


def case_scatter_nd_jacobian(tf):
    u = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(u)
        y = tf.scatter_nd([[2], [2], [0]], tf.stack([u[0], u[1], u[0] * u[1]]), [3])
    return tape.jacobian(y, u)


def case_scatter_nd_forward_mode(tf):
    u = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(u, tf.constant([1.0, -1.0])) as acc:
        y = tf.scatter_nd([[1], [1]], u * u, [3])
    return tf.convert_to_tensor(acc.jvp(y))  # TF's JVP comes out as IndexedSlices here


@tf_raises("InvalidArgumentError")
def case_scatter_nd_out_of_range_raises(tf):
    return tf.scatter_nd([[3]], [1.0], [3])


@tf_raises("InvalidArgumentError")
def case_scatter_nd_updates_shape_mismatch_raises(tf):
    return tf.scatter_nd([[1]], [1.0, 2.0], [3])


# ---------------------------------------------------------------- tensor_scatter_nd_*
def case_tensor_scatter_nd_update_gradients(tf):
    t = tf.constant([1.0, 2.0, 3.0, 4.0])
    u = tf.constant([10.0, 20.0])
    return _grads(tf, lambda t, u: tf.tensor_scatter_nd_update(t, [[3], [0]], u) * tf.constant([1.0, 2.0, 3.0, 4.0]), t, u)


def case_tensor_scatter_nd_update_duplicates(tf):
    t = tf.constant([1.0, 2.0, 3.0])
    u = tf.constant([5.0, 7.0])
    return _grads(tf, lambda t, u: tf.tensor_scatter_nd_update(t, [[1], [1]], u) * 2.0, t, u)


def case_tensor_scatter_nd_update_rows(tf):
    t = _w(tf, [3, 2])
    u = tf.constant([[-1.0, -2.0]])
    return _grads(tf, lambda t, u: tf.tensor_scatter_nd_update(t, [[1]], u) ** 2, t, u)


def case_tensor_scatter_nd_update_python_updates(tf):
    return tf.tensor_scatter_nd_update(tf.constant([1.0, 2.0, 3.0]), [[1]], [1])


def case_tensor_scatter_nd_add_duplicates(tf):
    t = tf.constant([1.0, 2.0, 3.0])
    u = tf.constant([5.0, 7.0])
    return _grads(tf, lambda t, u: tf.tensor_scatter_nd_add(t, [[1], [1]], u) * tf.constant([1.0, 2.0, 3.0]), t, u)


def case_tensor_scatter_nd_add_elements_2d(tf):
    t = tf.constant(M)
    u = tf.constant([1.0, 1.0, 1.0])
    return _grads(tf, lambda t, u: tf.tensor_scatter_nd_add(t, [[0, 0], [1, 1], [0, 0]], u * u) * t, t, u)


@tf_raises("InvalidArgumentError")
def case_tensor_scatter_nd_update_out_of_range_raises(tf):
    return tf.tensor_scatter_nd_update(tf.constant([1.0, 2.0, 3.0]), [[3]], [1.0])


@tf_raises("InvalidArgumentError")
def case_tensor_scatter_nd_add_negative_index_raises(tf):
    return tf.tensor_scatter_nd_add(tf.constant([1.0, 2.0, 3.0]), [[-1]], [1.0])


@tf_raises("InvalidArgumentError")
def case_tensor_scatter_nd_update_dtype_mismatch_raises(tf):
    return tf.tensor_scatter_nd_update(tf.constant([1.0, 2.0, 3.0]), [[1]], tf.constant([1.0], tf.float64))


# ---------------------------------------------------------------- boolean_mask
def case_boolean_mask_rows_gradient_is_dense(tf):
    return _grads(tf, lambda x: tf.boolean_mask(x, [True, False]) * 2.0, tf.constant(M))


def case_boolean_mask_2d_mask(tf):
    return _grads(tf, lambda x: tf.boolean_mask(x, [[True, False, True], [False, True, True]]) ** 2, tf.constant(M))


def case_boolean_mask_axis1(tf):
    return _grads(tf, lambda x: tf.boolean_mask(x, [True, False, True], axis=1), tf.constant(M))


def case_boolean_mask_numeric_mask(tf):
    return tf.boolean_mask(tf.constant(M), [0, 3])


def case_boolean_mask_all_false(tf):
    return _grads(tf, lambda x: tf.boolean_mask(x, [False, False, False]), tf.constant([1.0, 2.0, 3.0]))


@tf_raises("ValueError")
def case_boolean_mask_shape_mismatch_raises(tf):
    return tf.boolean_mask(tf.constant(M), [True])


@tf_raises("ValueError")
def case_boolean_mask_scalar_mask_raises(tf):
    return tf.boolean_mask(tf.constant(M), True)


# ---------------------------------------------------------------- where with one argument
def case_where_one_argument_coordinates(tf):
    return tf.where(tf.constant([[True, False], [True, True]])), tf.where(tf.constant([0.0, 2.0, -1.0]))


# ---------------------------------------------------------------- reverse / roll
def case_reverse_gradient(tf):
    w = tf.constant(M)
    return _grads(tf, lambda x: tf.reverse(x, [1]) * w, tf.constant(M))


def case_reverse_two_axes_negative(tf):
    w = tf.constant(M)
    return _grads(tf, lambda x: tf.reverse(x, [-1, 0]) * w, tf.constant(M))


@tf_raises("InvalidArgumentError")
def case_reverse_duplicate_axis_raises(tf):
    return tf.reverse(tf.constant(M), [1, -1])


@tf_raises("InvalidArgumentError")
def case_reverse_axis_out_of_range_raises(tf):
    return tf.reverse(tf.constant(M), [2])


def case_roll_gradient(tf):
    w = tf.constant([1.0, 2.0, 3.0, 4.0])
    return _grads(tf, lambda x: tf.roll(x, 1, 0) * w, tf.constant([1.0, 2.0, 3.0, 4.0]))


def case_roll_repeated_axis_adds_shifts(tf):
    w = tf.constant(M)
    return _grads(tf, lambda x: tf.roll(x, [1, 1, -1], [1, 1, 0]) * w, tf.constant(M))


def case_roll_large_negative_shift(tf):
    return tf.roll(tf.constant([1, 2, 3, 4, 5]), -7, 0)


@tf_raises("InvalidArgumentError")
def case_roll_shift_axis_mismatch_raises(tf):
    return tf.roll(tf.constant(M), [1, 2], [0])


# ---------------------------------------------------------------- repeat
def case_repeat_scalar_count(tf):
    return _grads(tf, lambda x: tf.repeat(x, 2, axis=0) * _w(tf, [4, 3]), tf.constant(M))


def case_repeat_counts_with_zero(tf):
    return _grads(tf, lambda x: tf.repeat(x, [1, 0, 2], axis=1) ** 2, tf.constant(M))


def case_repeat_flattened(tf):
    return _grads(tf, lambda x: tf.repeat(x, 2) * _w(tf, [12]), tf.constant(M))


def case_repeat_negative_axis(tf):
    return tf.repeat(tf.constant([[1, 2], [3, 4]]), [3, 1], axis=-1)


# ---------------------------------------------------------------- one_hot / sequence_mask / meshgrid
def case_one_hot_defaults_out_of_range_rows(tf):
    return tf.one_hot([0, 2, -1, 5], 3)


def case_one_hot_on_off_int(tf):
    return tf.one_hot([0, 2], 3, on_value=5, off_value=-1)


def case_one_hot_axis0_dtype(tf):
    return tf.one_hot([[0, 2]], 3, axis=0), tf.one_hot([1], 2, dtype=tf.int64)


def case_one_hot_on_value_gets_no_gradient(tf):
    return _grads(tf, lambda a: tf.one_hot([0, 2], 3, on_value=a, off_value=0.0), tf.constant(2.0))


@tf_raises("TypeError")
def case_one_hot_on_off_dtype_mismatch_raises(tf):
    return tf.one_hot([0, 2], 3, on_value=1.0, off_value=0)


@tf_raises("TypeError")
def case_one_hot_on_value_vs_dtype_raises(tf):
    return tf.one_hot([0, 2], 3, on_value=1.0, dtype=tf.int32)


@tf_raises("InvalidArgumentError")
def case_one_hot_negative_depth_raises(tf):
    return tf.one_hot([0, 2], -1)


def case_sequence_mask(tf):
    return (tf.sequence_mask([1, 3, 2], 5), tf.sequence_mask([[1, 3], [2, 0]]),
            tf.sequence_mask([1, 3, 2], dtype=tf.float32), tf.sequence_mask([1, -3, 2], 4),
            tf.sequence_mask(2, 4), tf.sequence_mask([1, 2], 0))


def case_meshgrid_xy_ij(tf):
    return tf.meshgrid([1, 2, 3], [4, 5]), tf.meshgrid([1, 2, 3], [4, 5], indexing="ij"), tf.meshgrid()


def case_meshgrid_gradients_sum(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    y = tf.constant([4.0, 5.0])
    w = _w(tf, [2, 3])
    return _grads(tf, lambda x, y: [g * w for g in tf.meshgrid(x, y)], x, y)


def case_meshgrid_three_inputs(tf):
    out = tf.meshgrid([1.0, 2.0], [3.0, 4.0, 5.0], [6.0])
    return [o.shape.as_list() for o in out], out[1]


@tf_raises("ValueError")
def case_meshgrid_bad_indexing_raises(tf):
    return tf.meshgrid([1, 2], [3], indexing="xx")


# ---------------------------------------------------------------- norm
def case_norm_vector_orders(tf):
    x = tf.constant(M)
    return [tf.norm(x, ord=o) for o in ("euclidean", 1, 2, np.inf, 3, 0.5)]


def case_norm_axis_keepdims(tf):
    x = tf.constant(M)
    return tf.norm(x, axis=1, keepdims=True), tf.norm(x, ord=1, axis=0), tf.norm(x, keepdims=True)


def case_norm_matrix_orders_gradients(tf):
    x = tf.constant([[1.0, -2.0, 3.0], [4.0, 5.5, -6.0]])
    return [_grads(tf, lambda x: tf.norm(x, ord=o, axis=[0, 1]), x) for o in ("fro", "euclidean", 1, np.inf)]


def case_norm_matrix_axes_order(tf):
    x = _w(tf, [2, 2, 3])
    return tf.norm(x, ord=1, axis=[2, 1]), tf.norm(x, ord=np.inf, axis=(-1, 0), keepdims=True)


def case_norm_matrix_2_norm(tf):
    x = tf.constant([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
    return _grads(tf, lambda x: tf.norm(x, ord=2, axis=[0, 1]), x)


def case_norm_gradients_vector(tf):
    x = tf.constant([3.0, -2.0, 1.0])
    return [_grads(tf, lambda x: tf.norm(x, ord=o), x) for o in ("euclidean", 1, np.inf, 3)]


def case_norm_gradient_at_zero(tf):
    z = tf.zeros([2])
    return [_grads(tf, lambda x: tf.norm(x, ord=o), z)[1] for o in ("euclidean", 1, np.inf, 3)]


def case_norm_inf_ties_split(tf):
    return _grads(tf, lambda x: tf.norm(x, ord=np.inf), tf.constant([3.0, -3.0, 1.0]))


def case_norm_float64_axis(tf):
    x = tf.constant(M, tf.float64)
    return _grads(tf, lambda x: tf.norm(x, axis=-1), x)


@tf_raises("ValueError")
def case_norm_fro_on_vector_raises(tf):
    return tf.norm(tf.constant([1.0, 2.0]), ord="fro")


@tf_raises("ValueError")
def case_norm_zero_ord_raises(tf):
    return tf.norm(tf.constant([1.0, 2.0]), ord=0)


@tf_raises("ValueError")
def case_norm_three_axes_raises(tf):
    return tf.norm(tf.constant(M), axis=[0, 1, 2])


@tf_raises("ValueError")
def case_norm_matrix_ord_3_raises(tf):
    return tf.norm(tf.constant(M), ord=3, axis=[0, 1])


@tf_raises("InvalidArgumentError")
def case_norm_int_raises(tf):
    return tf.norm(tf.constant([3, 4]))


# ---------------------------------------------------------------- clip_by_norm / clip_by_global_norm
def case_clip_by_norm_clips(tf):
    return _grads(tf, lambda x: tf.clip_by_norm(x, 2.0), tf.constant(M))


def case_clip_by_norm_axes(tf):
    return _grads(tf, lambda x: tf.clip_by_norm(x, 5.0, axes=[1]), tf.constant(M))


def case_clip_by_norm_no_clip_below(tf):
    return _grads(tf, lambda x: tf.clip_by_norm(x, 100.0), tf.constant(M))


def case_clip_by_norm_at_zero_finite(tf):
    return _grads(tf, lambda x: tf.clip_by_norm(x, 1.0), tf.zeros([3]))


def case_clip_by_norm_negative_clip(tf):
    return tf.clip_by_norm(tf.constant(M), -1.0)


def case_clip_by_norm_clip_norm_gradient(tf):
    return _grads(tf, lambda c: tf.clip_by_norm(tf.constant(M), c), tf.constant(2.0))


def case_clip_by_norm_indexed_slices(tf):
    s = tf.IndexedSlices(tf.constant([[3.0, 4.0]]), tf.constant([1]), tf.constant([3, 2]))
    return tf.clip_by_norm(s, 1.0)


@tf_raises("InvalidArgumentError")
def case_clip_by_norm_int_raises(tf):
    return tf.clip_by_norm(tf.constant([3, 4]), 1)


def case_clip_by_global_norm_none_passes(tf):
    return tf.clip_by_global_norm([tf.constant(M), None, tf.constant([1.0, 2.0])], 2.0)


def case_clip_by_global_norm_gradients(tf):
    a = tf.constant([3.0, 0.0])
    b = tf.constant([4.0])
    return (_grads(tf, lambda a, b: tf.clip_by_global_norm([a, b], 2.0)[0], a, b),
            _grads(tf, lambda a, b: tf.clip_by_global_norm([a, b], 2.0)[1], a, b))


def case_clip_by_global_norm_use_norm(tf):
    return tf.clip_by_global_norm([tf.constant(M)], 2.0, use_norm=tf.constant(4.0))


def case_clip_by_global_norm_inf_and_nan(tf):
    return (tf.clip_by_global_norm([tf.constant([np.inf, 1.0])], 2.0),
            tf.clip_by_global_norm([tf.constant([np.nan, 1.0])], 2.0))


def case_clip_by_global_norm_empty_and_all_none(tf):
    return tf.clip_by_global_norm([], 2.0), tf.clip_by_global_norm([None], 2.0)


def case_clip_by_global_norm_indexed_slices(tf):
    s = tf.IndexedSlices(tf.constant([[3.0, 4.0]]), tf.constant([1]), tf.constant([3, 2]))
    return tf.clip_by_global_norm((s, tf.constant([12.0])), 1.0)


def case_global_norm(tf):
    return tf.linalg.global_norm([tf.constant(M), None])


@tf_raises("TypeError")
def case_clip_by_global_norm_tensor_raises(tf):
    return tf.clip_by_global_norm(tf.constant(M), 2.0)


@tf_raises("InvalidArgumentError")
def case_clip_by_global_norm_mixed_dtypes_raises(tf):
    return tf.clip_by_global_norm([tf.constant([1.0]), tf.constant([1.0], tf.float64)], 2.0)


# ---------------------------------------------------------------- einsum / tensordot
def case_einsum_matmul_gradients(tf):
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    b = tf.constant([[1.0, 0.0, 2.0], [0.0, 1.0, 3.0]])
    return _grads(tf, lambda a, b: tf.einsum("ij,jk->ik", a, b), a, b)


def case_einsum_trace_and_diagonal(tf):
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    return _grads(tf, lambda a: tf.einsum("ii", a), a), _grads(tf, lambda a: tf.einsum("ii->i", a) * tf.constant([2.0, 3.0]), a)


def case_einsum_repeated_with_other_operand(tf):
    a = _w(tf, [2, 2, 3])
    b = _w(tf, [3, 2], start=-1.0)
    return _grads(tf, lambda a, b: tf.einsum("iij,jk->ki", a, b), a, b)


def case_einsum_sum_and_implicit(tf):
    a = tf.constant(M)
    b = tf.constant([[1.0], [2.0], [3.0]])
    return _grads(tf, lambda a: tf.einsum("ij->", a), a), tf.einsum("ij,jk", a, b), tf.einsum("ba", a)


def case_einsum_ellipsis_broadcast_gradients(tf):
    x = _w(tf, [1, 2, 2])
    y = _w(tf, [4, 2, 3], start=-2.0)
    return _grads(tf, lambda x, y: tf.einsum("...ij,...jk->...ik", x, y), x, y)


def case_einsum_ellipsis_in_middle(tf):
    x = _w(tf, [2, 3, 4])
    v = tf.constant([1.0, -1.0, 2.0, 0.5])
    return _grads(tf, lambda x, v: tf.einsum("i...j,j->i...", x, v), x, v)


def case_einsum_three_operands(tf):
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    b = tf.constant([[1.0, 0.0, 2.0], [0.0, 1.0, 3.0]])
    return _grads(tf, lambda a, b: tf.einsum("ij,jk,kl->il", a, b, tf.transpose(b)), a, b)


def case_einsum_outer_and_batch(tf):
    u = tf.constant([1.0, 2.0])
    v = tf.constant([3.0, 4.0, 5.0])
    return _grads(tf, lambda u, v: tf.einsum("i,j->ij", u, v) ** 2, u, v)


def case_einsum_complex_gradient_conjugates(tf):
    x = tf.constant([1 + 1j, 2 + 0j])
    return _grads(tf, lambda x: tf.einsum("i,i->", x, tf.constant([1 + 2j, 3j])), x)


def case_einsum_int(tf):
    return tf.einsum("ij,jk->ik", tf.ones([2, 2], tf.int32), tf.ones([2, 2], tf.int32))


def case_einsum_jacobian_and_hessian(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.einsum("ij,jk,ki->", x, x, x)
        g = t1.gradient(y, x)
    return g, t2.jacobian(g, x)


@tf_raises("InvalidArgumentError")
def case_einsum_dimension_mismatch_raises(tf):
    return tf.einsum("ij,jk->ik", tf.ones([2, 2]), tf.ones([3, 3]))


@tf_raises("ValueError")
def case_einsum_unknown_output_label_raises(tf):
    return tf.einsum("ij,jk->iz", tf.ones([2, 2]), tf.ones([2, 2]))


@tf_raises("ValueError")
def case_einsum_wrong_operand_count_raises(tf):
    return tf.einsum("ij,jk->ik", tf.ones([2, 2]))


@tf_raises("InvalidArgumentError")
def case_einsum_wrong_rank_raises(tf):
    return tf.einsum("ijk->i", tf.ones([2, 2]))


@tf_raises("InvalidArgumentError")
def case_einsum_dtype_mismatch_raises(tf):
    return tf.einsum("ij,jk->ik", tf.ones([2, 2]), tf.ones([2, 2], tf.float64))


def case_tensordot_gradients(tf):
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    b = tf.constant([[1.0, 0.0, 2.0], [0.0, 1.0, 3.0]])
    return _grads(tf, lambda a, b: tf.tensordot(a, b, 1), a, b)


def case_tensordot_axes_forms(tf):
    a = _w(tf, [2, 3, 4])
    b = _w(tf, [4, 3, 5], start=-3.0)
    return (tf.tensordot(a, b, [[1, 2], [1, 0]]), tf.tensordot(a[0], b[:, :, 0], [[1], [0]]),
            tf.tensordot(a[0], b[:, :, 0], [1, 0]), tf.tensordot(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0, 5.0]), 0),
            tf.linalg.tensordot(a[0], b[:, :, 0], [[-1], [0]]))


@tf_raises("ValueError")
def case_tensordot_negative_axes_raises(tf):
    return tf.tensordot(tf.ones([2, 3]), tf.ones([3, 5]), -1)


@tf_raises("ValueError")
def case_tensordot_axes_length_mismatch_raises(tf):
    return tf.tensordot(tf.ones([2, 3]), tf.ones([3, 5]), [[1], [0, 1]])


@tf_raises("InvalidArgumentError")
def case_tensordot_size_mismatch_raises(tf):
    return tf.tensordot(tf.ones([2, 3]), tf.ones([2, 5]), [[1], [0]])


# ---------------------------------------------------------------- embedding_lookup
def case_embedding_lookup_gradient_is_indexed_slices(tf):
    table = tf.Variable([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]])
    with tf.GradientTape() as tape:
        e = tf.nn.embedding_lookup(table, tf.constant([[2, 0], [2, 2]]))
        y = tf.reduce_sum(e * tf.constant([1.0, -1.0]))
    return e, tape.gradient(y, table)


def case_embedding_lookup_sharded(tf):
    s0 = tf.Variable([[0.0, 1.0], [2.0, 3.0]])
    s1 = tf.Variable([[4.0, 5.0]])
    with tf.GradientTape() as tape:
        e = tf.nn.embedding_lookup([s0, s1], tf.constant([2, 0, 1, 2]))
        y = tf.reduce_sum(e * tf.constant([[1.0], [2.0], [3.0], [4.0]]))
    g = tape.gradient(y, [s0, s1])
    return e, [tf.convert_to_tensor(x) for x in g]


def case_embedding_lookup_max_norm(tf):
    table = tf.constant([[3.0, 4.0], [0.3, 0.4]])
    return _grads(tf, lambda t: tf.nn.embedding_lookup(t, [0, 1], max_norm=1.0), table)


@tf_raises("InvalidArgumentError")
def case_embedding_lookup_out_of_range_raises(tf):
    return tf.nn.embedding_lookup(tf.constant([[1.0], [2.0]]), [2])


# ---------------------------------------------------------------- more dtypes, shapes and nesting
def case_norm_complex_keeps_dtype(tf):
    z = tf.constant([3 + 4j, 1j])
    return tf.norm(z), tf.norm(z, ord=1), tf.norm(z, ord=np.inf)


def case_sequence_mask_float_lengths_and_tensor_maxlen(tf):
    return tf.sequence_mask([1.0, 2.5], 4), tf.sequence_mask(tf.constant([1, 3], tf.int64), tf.constant(3))


def case_repeat_scalar_input_and_count_tensor(tf):
    return tf.repeat(tf.constant(2.0), 3), tf.repeat(tf.constant([1, 2]), tf.constant([2, 1]), axis=0)


def case_scatter_nd_int64_indices_float64(tf):
    u = tf.constant([[1.0, 2.0]], tf.float64)
    return _grads(tf, lambda u: tf.scatter_nd(tf.constant([[1]], tf.int64), u * u, tf.constant([3, 2], tf.int64)), u)


def case_tensor_scatter_hessian_vector_product(tf):
    t = tf.constant([1.0, 2.0, 3.0])
    u = tf.constant([4.0])
    with tf.autodiff.ForwardAccumulator(t, tf.constant([1.0, 1.0, 1.0])) as acc:
        with tf.GradientTape() as tape:
            tape.watch([t, u])
            # [[[0]]] rather than [[0]]: TF's forward mode fails on the IndexedSlices that
            # gather_nd's gradient gives for [n, 1] indices
            y = tf.reduce_sum(tf.tensor_scatter_nd_update(t * t * t, [[[0]]], tf.reshape(u * t[1:2], [1, 1])) ** 2)
        g = tape.gradient(y, [t, u])
    return g, acc.jvp(g)


def case_einsum_broadcast_size_one_jacobian(tf):
    x = _w(tf, [1, 2])
    y = _w(tf, [3, 2], start=-1.0)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = tf.einsum("...i,...i->...", x, y)
    return tape.jacobian(z, [x, y])


def case_roll_reverse_forward_mode(tf):
    x = tf.constant(M)
    with tf.autodiff.ForwardAccumulator(x, tf.reverse(x, [0])) as acc:
        y = tf.roll(tf.reverse(x * x, [1]), 1, 1)
    return y, acc.jvp(y)
