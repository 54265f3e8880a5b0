"""The extra tf.math ops: values and gradients at fixed inputs, special points, dtypes, errors."""

import numpy as np

from ._registry import catch, tf_raises


def _vg(tf, fn, *xs):
    """``[fn(*xs), [d sum(fn) / d x for x in xs]]``."""
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(*xs)
    return [y, tape.gradient(y, xs)]


def _second(tf, fn, x):
    """Value, first and second derivative of an elementwise ``fn`` at ``x``."""
    x = tf.constant(x)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = fn(x)
        g = t1.gradient(y, x)
    return [y, g, t2.gradient(g, x)]


X = [-1.7, -0.3, 0.0, 0.4, 2.5]
U = [-0.8, -0.2, 0.0, 0.5, 0.9]
P = [0.3, 1.0, 1.5, 4.0]


# --------------------------------------------------------------------------- hyperbolic, inverse trig
def case_sinh_cosh(tf):
    return [_second(tf, tf.math.sinh, X), _second(tf, tf.math.cosh, X)]


def case_asin_acos_atan(tf):
    return [_second(tf, tf.math.asin, U), _second(tf, tf.math.acos, U), _second(tf, tf.math.atan, X)]


def case_asinh_acosh_atanh(tf):
    return [_second(tf, tf.math.asinh, X), _second(tf, tf.math.acosh, [1.5, 2.0, 5.0]),
            _second(tf, tf.math.atanh, U)]


def case_inverse_functions_at_domain_edges(tf):
    return [_vg(tf, tf.math.asin, [1.0, -1.0, 2.0]), _vg(tf, tf.math.acos, [1.0, -1.0]),
            _vg(tf, tf.math.acosh, [1.0, 0.5]), _vg(tf, tf.math.atanh, [1.0, -1.0])]


def case_top_level_trig_names(tf):
    x = tf.constant([0.25, 0.5])
    return [tf.sinh(x), tf.cosh(x), tf.asin(x), tf.acos(x), tf.atan(x), tf.asinh(x),
            tf.acosh(x + 1.0), tf.atanh(x), tf.atan2(x, x + 1.0)]


def case_complex_trig_gradients(tf):
    z = np.array([0.3 + 0.4j, -0.5 + 0.2j])
    return [_vg(tf, tf.math.sinh, z), _vg(tf, tf.math.asinh, z), _vg(tf, tf.math.acos, z),
            _vg(tf, tf.math.atanh, z)]


def case_atan2(tf):
    return _vg(tf, tf.math.atan2, [1.0, -1.0, 0.0, 2.0], [2.0, -3.0, -1.0, 0.0])


def case_atan2_origin_and_signed_zero(tf):
    return _vg(tf, tf.math.atan2, [0.0, -0.0, 0.0], [0.0, -1.0, -0.0])


def case_atan2_broadcast_float64(tf):
    return _vg(tf, tf.math.atan2, np.array([[0.5], [-1.5]]), np.array([0.25, 1.0, 3.0]))


# --------------------------------------------------------------------------- erf and gamma families
def case_erf_erfc(tf):
    return [_second(tf, tf.math.erf, X), _second(tf, tf.math.erfc, X)]


def case_erfinv(tf):
    return _second(tf, tf.math.erfinv, U)


def case_erfinv_special_values(tf):
    return _vg(tf, tf.math.erfinv, [-1.0, 1.0, 2.0])


def case_lgamma_digamma(tf):
    return [_second(tf, tf.math.lgamma, P), _second(tf, tf.math.digamma, P)]


def case_lgamma_negative_and_poles(tf):
    return [_vg(tf, tf.math.lgamma, [-0.5, -2.5, 0.0, -1.0]), tf.math.digamma(tf.constant([-0.5, 0.0, -3.0]))]


def case_polygamma(tf):
    a = tf.constant([0.0, 1.0, 2.0, 3.0], tf.float64)
    x = tf.constant(np.array([1.5, 0.5, 2.5, 4.0]))
    with tf.GradientTape() as tape:
        tape.watch([a, x])
        y = tf.math.polygamma(a, x)
    return [y, tape.gradient(y, [a, x])]


def case_polygamma_invalid_orders_are_nan(tf):
    return tf.math.polygamma(tf.constant([0.5, -1.0]), tf.constant([1.5, 1.5]))


def case_polygamma_second_order(tf):
    return _second(tf, lambda t: tf.math.polygamma(tf.ones_like(t), t), [0.5, 2.0])


def case_ndtri_erfcinv(tf):
    return [_second(tf, tf.math.ndtri, [0.1, 0.5, 0.975]), _second(tf, tf.math.erfcinv, [0.3, 1.0, 1.8]),
            tf.math.ndtri(tf.constant([0.0, 1.0, 1.5])), tf.math.erfcinv(tf.constant([0.0, 2.0, 2.5]))]


def case_zeta(tf):
    x = tf.constant([2.0, 3.0, 4.0])
    q = tf.constant([1.5, 2.0, 0.5])
    with tf.GradientTape() as tape:
        tape.watch([x, q])
        y = tf.math.zeta(x, q)
    return [y, tape.gradient(y, [x, q]), tf.math.zeta(tf.constant([0.5, 1.0]), tf.constant([1.0, 1.0]))]


def case_lbeta(tf):
    return [_second(tf, tf.math.lbeta, [[0.5, 2.0], [1.5, 3.0]]), tf.math.lbeta(tf.zeros([2, 0]))]


@tf_raises("InvalidArgumentError")
def case_lbeta_scalar_raises(tf):
    return tf.math.lbeta(tf.constant(2.0))


def case_bessel(tf):
    x = [-1.5, 0.3, 2.0]
    return [_second(tf, tf.math.bessel_i0, x), _second(tf, tf.math.bessel_i0e, x),
            _second(tf, tf.math.bessel_i1, x), _second(tf, tf.math.bessel_i1e, x)]


def case_bessel_gradients_at_zero(tf):
    return [_vg(tf, f, [0.0]) for f in (tf.math.bessel_i0, tf.math.bessel_i0e, tf.math.bessel_i1e)]


def case_bessel_i1_gradient_at_zero(tf):
    return _vg(tf, tf.math.bessel_i1, [0.0])


def case_reciprocal_no_nan(tf):
    return _second(tf, tf.math.reciprocal_no_nan, [0.0, 2.0, -0.5])


def case_rint(tf):
    return _vg(tf, tf.math.rint, [0.5, 1.5, -2.5, 2.7])


# --------------------------------------------------------------------------- softplus family
def case_softplus(tf):
    return [_second(tf, tf.math.softplus, X), _vg(tf, tf.nn.softplus, [-100.0, 100.0])]


def case_softplus_float64_extremes(tf):
    return _vg(tf, tf.nn.softplus, np.array([-800.0, -30.0, 0.0, 30.0, 800.0]))


def case_log_sigmoid(tf):
    return [_second(tf, tf.math.log_sigmoid, X), _vg(tf, tf.math.log_sigmoid, [-100.0, 100.0])]


# --------------------------------------------------------------------------- x * f(y)
def case_xlogy(tf):
    return _vg(tf, tf.math.xlogy, [0.0, 0.0, 1.0, 2.0, 0.0], [0.0, 1.0, 0.0, 3.0, np.nan])


def case_xlog1py(tf):
    return _vg(tf, tf.math.xlog1py, [0.0, 0.0, 1.0, 2.0], [-1.0, 1.0, -1.0, 3.0])


def case_xdivy(tf):
    return _vg(tf, tf.math.xdivy, [0.0, 0.0, 1.0, 2.0], [0.0, 1.0, 0.0, 3.0])


def case_xlogy_broadcast_and_python_scalar(tf):
    return [_vg(tf, tf.math.xlogy, [[0.0], [2.0]], [0.5, 1.0, 4.0]),
            tf.math.xlogy(2.0, tf.constant([1.0, 2.0]))]


def case_xlogy_second_order(tf):
    x = tf.constant([0.0, 1.5])
    y = tf.constant([2.0, 3.0])
    with tf.GradientTape(persistent=True) as t2:
        t2.watch([x, y])
        with tf.GradientTape() as t1:
            t1.watch([x, y])
            z = tf.math.xlogy(x, y)
        gx, gy = t1.gradient(z, [x, y])
    return [t2.gradient(gx, [x, y]), t2.gradient(gy, [x, y])]


def case_xlogy_complex_gradient(tf):
    return _vg(tf, tf.math.xlogy, np.array([1 + 2j]), np.array([2 + 0.5j]))


# --------------------------------------------------------------------------- divide_no_nan
def case_divide_no_nan(tf):
    return _vg(tf, tf.math.divide_no_nan, [0.0, 3.0, 1.0, 2.0], [0.0, 0.0, 2.0, 3.0])


def case_divide_no_nan_nan_and_inf_numerators(tf):
    return tf.math.divide_no_nan(tf.constant([np.nan, np.inf, 3.0]), tf.constant([0.0, 0.0, 2.0]))


def case_divide_no_nan_int_inputs(tf):
    return [tf.math.divide_no_nan(tf.constant([1, 2]), tf.constant([0, 2])),
            tf.math.divide_no_nan(1, tf.constant([1, 0]))]


def case_divide_no_nan_complex(tf):
    return _vg(tf, tf.math.divide_no_nan, np.array([1 + 2j, 1j]), np.array([2 + 0.5j, 0j]))


def case_divide_no_nan_second_order(tf):
    x = tf.constant([3.0, 3.0])
    y = tf.constant([0.0, 2.0])
    with tf.GradientTape() as t2:
        t2.watch(y)
        with tf.GradientTape() as t1:
            t1.watch(y)
            z = tf.math.divide_no_nan(x, y)
        g = t1.gradient(z, y)
    return [g, t2.gradient(g, y)]


@tf_raises("TypeError")
def case_divide_no_nan_mixed_dtypes_raises(tf):
    return tf.math.divide_no_nan(tf.constant([1.0]), tf.constant([1.0], tf.float64))


# --------------------------------------------------------------------------- squared_difference
def case_squared_difference(tf):
    return _vg(tf, tf.math.squared_difference, [[1.0], [2.0]], [1.0, 2.0, 4.0])


def case_squared_difference_int_and_scalar(tf):
    return [tf.math.squared_difference(tf.constant([1, 5]), 3), tf.math.squared_difference(tf.constant([1.0]), 3)]


def case_squared_difference_complex(tf):
    return _vg(tf, tf.math.squared_difference, np.array([1 + 2j]), np.array([0.5j]))


# --------------------------------------------------------------------------- angle
def case_angle_complex(tf):
    return _vg(tf, tf.math.angle, np.array([1 + 1j, -2 + 0.5j, -1 + 0j]))


def case_angle_real_input(tf):
    return _vg(tf, tf.math.angle, [-1.0, -0.0, 2.0])


def case_angle_complex64(tf):
    return tf.math.angle(tf.constant([1j, -1 + 0j], tf.complex64))


@tf_raises("TypeError")
def case_angle_int_raises(tf):
    return tf.math.angle(tf.constant([1, -2]))


# --------------------------------------------------------------------------- piecewise constant
def case_floor_ceil_round_values(tf):
    x = tf.constant([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.7])
    return [tf.floor(x), tf.math.ceil(x), tf.round(x), tf.math.round(tf.constant([1, -2]))]


def case_floor_ceil_round_no_gradient(tf):
    x = tf.constant([1.2, 2.7])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        ys = [tf.math.floor(x), tf.math.ceil(x), tf.math.round(x)]
    return [tape.gradient(y, x) for y in ys] + [tape.gradient(ys[1], x, unconnected_gradients="zero")]


def case_is_nan_inf_finite(tf):
    x = tf.constant([np.nan, np.inf, -np.inf, 1.0, 0.0])
    return [tf.math.is_nan(x), tf.math.is_inf(x), tf.math.is_finite(x)]


@tf_raises("LookupError")
def case_float_tests_gradient(tf):
    x = tf.constant([np.nan, np.inf, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        ys = [tf.math.is_nan(x), tf.math.is_inf(x), tf.math.is_finite(x)]
    return tape.gradient(ys, x)


def case_is_finite_float16(tf):
    return tf.math.is_finite(tf.constant([np.nan, 1.0, np.inf], tf.float16))


@tf_raises("InvalidArgumentError")
def case_floor_int_raises(tf):
    return tf.math.floor(tf.constant([1, 2]))


@tf_raises("InvalidArgumentError")
def case_is_nan_int_raises(tf):
    return tf.math.is_nan(tf.constant([1, 2]))


def case_integer_inputs_rejected(tf):
    i = tf.constant([1, 2])
    return [type(catch(f, i)).__name__ for f in (tf.math.sinh, tf.math.erf, tf.math.lgamma, tf.math.softplus,
                                                  tf.math.ceil, tf.math.erfinv, tf.math.atanh)] + \
        [type(catch(f, i, i)).__name__ for f in (tf.math.atan2, tf.math.xlogy, tf.math.polygamma)]


def case_complex_inputs_rejected(tf):
    c = tf.constant([1j])
    return [type(catch(f, c)).__name__ for f in (tf.math.erf, tf.math.digamma, tf.math.softplus,
                                                  tf.math.floor, tf.math.is_inf)]


# --------------------------------------------------------------------------- segments
def case_segment_sum_mean_max_values(tf):
    d = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    ids = tf.constant([0, 0, 2])
    return [tf.math.segment_sum(d, ids), tf.math.segment_mean(d, ids), tf.math.segment_max(d, ids)]


def case_segment_sum_gradient(tf):
    return _vg(tf, lambda d: tf.math.segment_sum(d, [0, 0, 2]) * [1.0, 2.0, 3.0], [1.0, 2.0, 3.0])


def case_segment_mean_gradient(tf):
    return _vg(tf, lambda d: tf.math.segment_mean(d, [0, 0, 2]) * [1.0, 2.0, 3.0], [1.0, 3.0, 3.0])


def case_segment_max_ties_split(tf):
    return _vg(tf, lambda d: tf.math.segment_max(d, [0, 0, 0, 2]) * [1.0, 2.0, 3.0], [1.0, 3.0, 3.0, 4.0])


def case_unsorted_segment_max_ties_and_dropped(tf):
    return _vg(tf, lambda d: tf.math.unsorted_segment_max(d, [0, 0, -1, 2], 3) * [1.0, 2.0, 3.0],
               [3.0, 3.0, 3.0, 4.0])


def case_unsorted_segment_max_empty_is_lowest(tf):
    return [tf.math.unsorted_segment_max(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 0, -1]), 3),
            tf.math.unsorted_segment_max(tf.constant([1, 2, 3]), tf.constant([0, 0, 2]), 4)]


def case_unsorted_segment_max_skips_nan(tf):
    return tf.math.unsorted_segment_max(tf.constant([1.0, np.nan, 3.0]), tf.constant([0, 0, 0]), 1)


def case_segment_extremes_nan_order(tf):
    out = []
    for v in ([1.0, np.nan, 3.0], [np.nan, 1.0], [1.0, np.nan], [np.nan], [3.0, np.nan, 1.0, 2.0]):
        x = tf.constant(v)
        ids = tf.zeros([len(v)], tf.int32)
        out.append([tf.math.segment_max(x, ids), tf.math.segment_min(x, ids),
                    tf.math.unsorted_segment_max(x, ids, 1), tf.math.unsorted_segment_min(x, ids, 1)])
    m = tf.constant([[1.0, np.nan], [np.nan, 2.0]])
    out.append([tf.math.unsorted_segment_max(m, [0, 0], 1), tf.math.unsorted_segment_min(m, [[0, 0], [0, 0]], 1)])
    return out


def case_segment_min(tf):
    return [_vg(tf, lambda d: tf.math.segment_min(d, [0, 0, 2, 2]) * [1.0, 2.0, 3.0], [1.0, 1.0, 3.0, -4.0]),
            _vg(tf, lambda d: tf.math.unsorted_segment_min(d, [1, 1, -1, 0], 3) * [[1.0], [2.0], [3.0]],
                [[3.0, 1.0], [3.0, 0.0], [0.0, 0.0], [2.0, 2.0]]),
            tf.math.unsorted_segment_min(tf.constant([1, 2]), tf.constant([0, 0]), 2)]


def case_segment_prod(tf):
    return [_vg(tf, lambda d: tf.math.unsorted_segment_prod(d, [0, 0, 1, 1, 1, 2, -1], 4),
                [2.0, 3.0, 0.0, 4.0, 5.0, 0.0, 7.0]),
            _vg(tf, lambda d: tf.math.unsorted_segment_prod(d, [0, 0, 0], 1), [0.0, 0.0, 5.0]),
            _vg(tf, lambda d: tf.math.segment_prod(d, [0, 0, 2]) * [[1.0], [2.0], [3.0]],
                [[2.0, 1.0], [3.0, 1.0], [4.0, 1.0]]),
            tf.math.segment_prod(tf.constant([2, 3]), tf.constant([0, 0]))]


def case_segment_prod_hessian_at_zero(tf):
    x = tf.constant([0.0, 2.0, 3.0])
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.math.unsorted_segment_prod(x, [0, 0, 0], 1)
        g = t1.gradient(y, x)
    return [g, t2.jacobian(g, x)]


def case_segment_prod_complex_gradient(tf):
    return _vg(tf, lambda d: tf.math.unsorted_segment_prod(d, [0, 0, 0], 1), np.array([1 + 2j, 0.5 - 1j, 2 + 0.3j]))


def case_unsorted_segment_sqrt_n(tf):
    return [_vg(tf, lambda d: tf.math.unsorted_segment_sqrt_n(d, [0, 0, -1], 3) * [1.0, 2.0, 3.0], [2.0, 3.0, 4.0]),
            type(catch(tf.math.unsorted_segment_sqrt_n, tf.constant([2, 3]), [0, 0], 1)).__name__]


def case_unsorted_segment_mean(tf):
    return _vg(tf, lambda d: tf.math.unsorted_segment_mean(d, [0, 0, -1], 3) * [1.0, 2.0, 3.0], [1.0, 3.0, 3.0])


def case_unsorted_segment_mean_max_2d_ids(tf):
    d = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    ids = tf.constant([[0, 0], [1, 1]])
    return [_vg(tf, lambda t: tf.math.unsorted_segment_mean(t, ids, 2) * [1.0, 2.0], d),
            _vg(tf, lambda t: tf.math.unsorted_segment_max(t, ids, 2) * [1.0, 2.0], d)]


def case_segment_integer_data(tf):
    d = tf.constant([1, 2, 4])
    ids = tf.constant([0, 0, 2])
    return [tf.math.segment_mean(d, ids), tf.math.segment_max(d, ids),
            tf.math.unsorted_segment_mean(d, ids, 3), tf.math.segment_sum(d, tf.constant([0, 0, 2], tf.int64))]


def case_segment_max_2d_jacobian(tf):
    d = tf.constant([[1.0, 5.0], [3.0, 5.0], [2.0, 0.0]])
    with tf.GradientTape() as tape:
        tape.watch(d)
        y = tf.math.segment_max(d, [0, 0, 1])
    return [y, tape.jacobian(y, d)]


def case_segment_ops_forward_mode(tf):
    x = tf.constant([1.5, 2.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 2.0, 3.0])) as acc:
        ys = [tf.math.segment_max(x, [0, 0, 0]), tf.math.segment_mean(x, [0, 1, 1]),
              tf.math.unsorted_segment_max(x, [1, 1, 0], 2)]
    return acc.jvp(ys)


@tf_raises("InvalidArgumentError")
def case_segment_sum_unsorted_ids_raise(tf):
    return tf.math.segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 2, 1]))


@tf_raises("InvalidArgumentError")
def case_segment_sum_negative_id_raises(tf):
    return tf.math.segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant([-1, 0, 1]))


@tf_raises("InvalidArgumentError")
def case_segment_sum_float_ids_raise(tf):
    return tf.math.segment_sum(tf.constant([1.0, 2.0]), tf.constant([0.0, 1.0]))


@tf_raises("InvalidArgumentError")
def case_segment_sum_length_mismatch_raises(tf):
    return tf.math.segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 0]))


@tf_raises("InvalidArgumentError")
def case_unsorted_segment_max_id_out_of_range_raises(tf):
    return tf.math.unsorted_segment_max(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 0, 5]), 3)


# --------------------------------------------------------------------------- sorting
def case_sort_values_and_dtypes(tf):
    x = tf.constant([[3.0, 1.0, 2.0, 1.0], [0.5, -1.0, 7.0, 0.5]])
    return [tf.sort(x), tf.sort(x, direction="DESCENDING"), tf.sort(x, axis=0), tf.sort(tf.constant([3, 1, 2])),
            tf.sort(tf.constant([3, 1, 2, 0], tf.uint8), direction="DESCENDING"), tf.sort(tf.zeros([0]))]


def case_argsort_ties_are_stable(tf):
    x = tf.constant([1.0, 2.0, 1.0, 2.0])
    return [tf.argsort(x), tf.argsort(x, direction="DESCENDING"), tf.argsort(x, stable=True),
            tf.argsort(tf.constant([3, 1, 2, -2147483648])), tf.argsort(tf.constant([[3.0, 1.0], [0.0, 5.0]]), axis=0)]


def case_sort_gradient_axis0(tf):
    return _vg(tf, lambda a: tf.sort(a, axis=0) * [[1.0, 2.0], [3.0, 4.0]], [[3.0, 1.0], [2.0, 5.0]])


def case_sort_second_order(tf):
    return _second(tf, lambda t: tf.sort(t) ** 2 * [1.0, 2.0, 3.0], [3.0, -1.0, 2.0])


def case_sort_forward_mode(tf):
    x = tf.constant([3.0, 1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([10.0, 20.0, 30.0])) as acc:
        y = tf.sort(x, direction="DESCENDING")
    return acc.jvp(y)


def case_top_k(tf):
    v, i = tf.math.top_k(tf.constant([[1.0, 5.0, 3.0], [2.0, 2.0, 2.0]]), k=2)
    return [v, i]


def case_top_k_result_is_a_named_tuple(tf):
    return tf.math.top_k(tf.constant([[1.0, 5.0, 3.0]]), k=2)


def case_top_k_ties_gradient(tf):
    return _vg(tf, lambda d: tf.math.top_k(d, 2).values * [1.0, 2.0], [1.0, 3.0, 3.0, 2.0])


def case_top_k_nan_is_largest(tf):
    r = tf.math.top_k(tf.constant([1.0, np.nan, 3.0, 2.0]), k=2)
    return [r.values, r.indices]


def case_top_k_options(tf):
    x = tf.constant([1.0, 5.0, 3.0])
    r64 = tf.math.top_k(x, k=2, index_type=tf.int64)
    r0 = tf.nn.top_k(x, k=0)
    rk = tf.math.top_k(x, k=tf.constant(2))
    ri = tf.math.top_k(tf.constant([1, 5, 3]), k=2)
    unsorted = tf.math.top_k(tf.constant([1.0, 5.0, 3.0, 2.0, 4.0]), k=3, sorted=False)
    return [r64.indices, r0.values, r0.indices, rk.values, ri.values, ri.indices, tf.sort(unsorted.values)]


def case_top_k_jacobian_batch(tf):
    x = tf.constant([[1.0, 4.0, 2.0], [3.0, 0.0, 5.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.top_k(x, k=2).values
    return tape.jacobian(y, x)


@tf_raises("InvalidArgumentError")
def case_top_k_k_too_large_raises(tf):
    return tf.math.top_k(tf.constant([1.0, 3.0]), k=3)


@tf_raises("InvalidArgumentError")
def case_top_k_negative_k_raises(tf):
    return tf.math.top_k(tf.constant([1.0, 3.0]), k=-1)


@tf_raises("InvalidArgumentError")
def case_top_k_scalar_raises(tf):
    return tf.math.top_k(tf.constant(1.0))


@tf_raises("InvalidArgumentError")
def case_sort_complex_raises(tf):
    return tf.sort(tf.constant([1j, 2 + 0j]))


@tf_raises("ValueError")
def case_sort_bad_direction_raises(tf):
    return tf.sort(tf.constant([3.0, 1.0]), direction="descending")


@tf_raises("InvalidArgumentError")
def case_sort_scalar_raises(tf):
    return tf.sort(tf.constant(3.0))


# --------------------------------------------------------------------------- norms and combinations
def case_reduce_euclidean_norm(tf):
    return [_vg(tf, lambda t: tf.math.reduce_euclidean_norm(t, axis=1), [[3.0, 4.0], [5.0, 12.0]]),
            _vg(tf, lambda t: tf.math.reduce_euclidean_norm(t, keepdims=True), [[1.0, 2.0], [2.0, 4.0]])]


def case_reduce_euclidean_norm_at_zero_is_nan(tf):
    return _vg(tf, tf.math.reduce_euclidean_norm, [0.0, 0.0])


def case_reduce_euclidean_norm_dtypes(tf):
    return [tf.math.reduce_euclidean_norm(tf.constant([[1, 2, 3], [1, 1, 1]]), axis=1),
            tf.math.reduce_euclidean_norm(tf.constant([3.0, 4.0], tf.float16)),
            tf.math.reduce_euclidean_norm(tf.zeros([0]))]


def case_reduce_euclidean_norm_complex(tf):
    return _vg(tf, tf.math.reduce_euclidean_norm, np.array([3 + 4j, 1j]))


def case_reduce_euclidean_norm_second_order(tf):
    return _second(tf, lambda t: tf.math.reduce_euclidean_norm(t) * t, [3.0, 4.0])


def case_count_nonzero(tf):
    x = tf.constant([[0.0, 1.0], [2.0, 0.0]])
    return [tf.math.count_nonzero(x), tf.math.count_nonzero(x, axis=0),
            tf.math.count_nonzero(tf.constant([True, False]), dtype=tf.int32),
            tf.math.count_nonzero(tf.constant([np.nan, 0.0])),
            tf.math.count_nonzero(tf.constant([[1, 0]]), keepdims=True),
            tf.math.count_nonzero(tf.constant([[1, 0], [1, 1]]), axis=[0, 1], dtype=tf.float32)]


def case_count_nonzero_no_gradient(tf):
    x = tf.constant([1.0, 0.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(tf.math.count_nonzero(x), tf.float32) * x
    return tape.gradient(y, x)


def case_l2_normalize(tf):
    return [_vg(tf, lambda t: tf.math.l2_normalize(t) * [1.0, 2.0], [3.0, 4.0]),
            _vg(tf, lambda t: tf.nn.l2_normalize(t, axis=1) * [1.0, 2.0], [[3.0, 4.0], [1.0, -1.0]])]


def case_l2_normalize_at_zero_uses_epsilon(tf):
    return [_vg(tf, lambda t: tf.math.l2_normalize(t) * [1.0, 2.0], [0.0, 0.0]),
            tf.math.l2_normalize(tf.constant([[3.0, 4.0], [0.0, 0.0]]), axis=1, epsilon=100.0),
            tf.nn.l2_normalize(tf.constant([[3.0, 4.0], [0.0, 0.0]]), dim=1)]


def case_l2_normalize_complex(tf):
    return tf.math.l2_normalize(tf.constant([3 + 4j, 0j]))


@tf_raises("TypeError")
def case_l2_normalize_int_raises(tf):
    return tf.math.l2_normalize(tf.constant([3, 4]))


def case_polyval(tf):
    return [_vg(tf, lambda a, x: tf.math.polyval([a, 2.0 * a, 3.0], x), 2.0, [1.0, 2.0]),
            tf.math.polyval([], tf.constant([2.0])),
            tf.math.polyval([1, 2], tf.constant(3)),
            tf.math.polyval([1.0, tf.constant([1.0, 2.0])], tf.constant(3.0))]


@tf_raises("InvalidArgumentError")
def case_polyval_python_floats_float64_x(tf):
    return tf.math.polyval([1.0, 2.0], tf.constant(3.0, tf.float64))


@tf_raises("ValueError")
def case_polyval_tensor_coeffs_raise(tf):
    return tf.math.polyval(tf.constant([1.0, 2.0]), tf.constant(3.0))


def case_add_n(tf):
    return [_vg(tf, lambda a, b: tf.add_n([a, b, a]), [1.0, 2.0], [3.0, 4.0]),
            tf.add_n([tf.constant([1]), tf.constant([2])]),
            tf.add_n([1.0, 2.0]),
            tf.add_n([np.array([1.0]), np.array([2.0])])]


def case_add_n_indexed_slices(tf):
    s = tf.IndexedSlices(tf.constant([[1.0]]), tf.constant([0]), tf.constant([2, 1]))
    return tf.add_n([s, tf.constant([[1.0], [2.0]])])


def case_add_n_of_gather_gradients(tf):
    p = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = tf.reduce_sum(tf.gather(p, [0, 2]) * 2.0)
    g = tape.gradient(y, p)
    return tf.add_n([g, g])


@tf_raises("ValueError")
def case_add_n_empty_raises(tf):
    return tf.add_n([])


@tf_raises("InvalidArgumentError")
def case_add_n_shape_mismatch_raises(tf):
    return tf.add_n([tf.constant([1.0, 2.0]), tf.constant(1.0)])


@tf_raises("InvalidArgumentError")
def case_add_n_dtype_mismatch_raises(tf):
    return tf.add_n([tf.constant([1.0, 2.0]), tf.constant([1, 2])])
