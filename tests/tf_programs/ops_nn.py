"""tf.nn activations, normalisation, convolutions and pooling: outputs and gradients at fixed
inputs (SAME/VALID/explicit padding, strides, dilations, ties), and their errors."""

from ._registry import catch, tf_raises


def _img(tf, shape, scale=0.02, offset=0.0):
    """A deterministic, tie-free test input of ``shape``."""
    n = 1
    for d in shape:
        n *= d
    v = tf.sin(tf.range(n, dtype=tf.float32) * 1.7 + offset) * (1.0 + tf.range(n, dtype=tf.float32) * scale)
    return tf.reshape(v, shape)


def _value_and_grads(tf, fn, *xs, weights=None):
    """fn(*xs), and the gradients of sum(fn(*xs) * weights) with respect to every x."""
    with tf.GradientTape() as tape:
        tape.watch(list(xs))
        y = fn(*xs)
        loss = tf.reduce_sum(y if weights is None else y * weights)
    return {"y": y, "grads": tape.gradient(loss, list(xs))}


def _second(tf, fn, x):
    """Gradient of the squared gradient norm: a second derivative through fn."""
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(fn(x) * _img(tf, fn(x).shape, 0.05, 2.0))
        g = inner.gradient(y, x)
        z = tf.reduce_sum(g * g)
    return outer.gradient(z, x)


# --------------------------------------------------------------------------- activations
def case_activations_values_and_grads(tf):
    x = tf.constant([-7.0, -2.5, -1.0, -0.25, 0.0, 0.25, 1.0, 3.0, 6.0, 8.0])
    out = {}
    for name in ("relu6", "elu", "selu", "softsign", "softplus", "gelu", "silu", "swish", "leaky_relu"):
        out[name] = _value_and_grads(tf, getattr(tf.nn, name), x)
    out["leaky_relu_alpha"] = _value_and_grads(tf, lambda t: tf.nn.leaky_relu(t, alpha=0.01), x)
    out["gelu_approx"] = _value_and_grads(tf, lambda t: tf.nn.gelu(t, approximate=True), x)
    out["silu_beta"] = _value_and_grads(tf, lambda t: tf.nn.silu(t, beta=0.5), x)
    return out


def case_activation_kinks(tf):
    # gradients exactly at the kinks: relu6 at 0 and 6, elu/selu/leaky_relu at 0
    x = tf.constant([0.0, 6.0, -0.0])
    return {name: _value_and_grads(tf, getattr(tf.nn, name), x)["grads"]
            for name in ("relu6", "elu", "selu", "leaky_relu")}


def case_activation_second_derivatives(tf):
    x = tf.constant([-2.0, -0.5, 0.3, 1.5, 4.0])
    return {name: _second(tf, getattr(tf.nn, name), x)
            for name in ("elu", "selu", "gelu", "silu", "softplus")}


def case_activations_float64(tf):
    # (gelu is left out: TensorFlow's float64 erf is accurate to about 1e-8 only)
    x = tf.constant([-1.5, 0.5, 2.0], tf.float64)
    return {name: _value_and_grads(tf, getattr(tf.nn, name), x)
            for name in ("relu6", "elu", "selu", "softsign", "leaky_relu")}


def case_activations_extreme(tf):
    x = tf.constant([-1000.0, -80.0, 80.0, 1000.0])
    return {name: _value_and_grads(tf, getattr(tf.nn, name), x)
            for name in ("elu", "selu", "softsign", "gelu", "silu", "softplus")}


def case_relu6_int(tf):
    return tf.nn.relu6(tf.constant([-3, 2, 9]))


def case_leaky_relu_int_becomes_float(tf):
    return tf.nn.leaky_relu(tf.constant([-3, 2]))


def case_leaky_relu_alpha_above_one(tf):
    return _value_and_grads(tf, lambda t: tf.nn.leaky_relu(t, alpha=2.0), tf.constant([-1.0, 2.0]))


@tf_raises("InvalidArgumentError")
def case_elu_int_error(tf):
    return tf.nn.elu(tf.constant([1, 2]))


# --------------------------------------------------------------------------- losses, statistics
def case_l2_loss(tf):
    return _value_and_grads(tf, tf.nn.l2_loss, tf.constant([[1.0, -2.0], [3.0, 0.5]]))


def case_moments(tf):
    x = _img(tf, [2, 3, 4])
    out = {}
    for axes in ([0], [0, 1], [-1], [0, 1, 2]):
        for keep in (False, True):
            m, v = tf.nn.moments(x, axes=axes, keepdims=keep)
            out[f"{axes}-{keep}"] = (m, v)
    out["grads"] = _value_and_grads(tf, lambda t: tf.stack(tf.nn.moments(t, [0])), x[0])
    return out


def case_moments_first_order_gradient_of_variance(tf):
    x = tf.constant([1.0, 2.0, 4.0, 7.0])
    return _value_and_grads(tf, lambda t: tf.nn.moments(t, [0])[1], x)


def case_moments_hessian_of_variance(tf):
    # TensorFlow stops the gradient through the mean inside the variance: its Hessian is 2/n * I
    # instead of the exact 2/n * (I - 1/n).
    x = tf.constant([1.0, 2.0, 4.0, 7.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            v = tf.nn.moments(x, [0])[1]
        g = inner.gradient(v, x)
    return outer.jacobian(g, x)


def case_batch_normalization(tf):
    x = _img(tf, [4, 3])
    mean = tf.constant([0.1, -0.2, 0.3])
    var = tf.constant([0.5, 1.5, 2.0])
    off = tf.constant([1.0, 0.0, -1.0])
    sc = tf.constant([2.0, 0.5, 1.0])
    full = _value_and_grads(tf, lambda a, m, v, o, s: tf.nn.batch_normalization(a, m, v, o, s, 1e-3),
                            x, mean, var, off, sc)
    bare = _value_and_grads(tf, lambda a, m, v: tf.nn.batch_normalization(a, m, v, None, None, 0.01),
                            x, mean, var)
    return {"full": full, "bare": bare}


def case_bias_add(tf):
    x = _img(tf, [2, 3, 2])
    b = tf.constant([0.5, -1.0])
    nhwc = _value_and_grads(tf, tf.nn.bias_add, x, b, weights=_img(tf, [2, 3, 2], 0.2, 1.0))
    b3 = tf.constant([0.5, -1.0, 2.0])
    nchw = _value_and_grads(tf, lambda a, c: tf.nn.bias_add(a, c, data_format="NCHW"),
                            _img(tf, [2, 3, 2, 2]), b3, weights=_img(tf, [2, 3, 2, 2], 0.2, 1.0))
    return {"nhwc": nhwc, "nchw": nchw}


@tf_raises("InvalidArgumentError")
def case_bias_add_wrong_size(tf):
    return tf.nn.bias_add(tf.zeros([2, 2]), tf.zeros([3]))


@tf_raises("InvalidArgumentError")
def case_bias_add_bias_not_1d(tf):
    return tf.nn.bias_add(tf.zeros([2, 2]), tf.zeros([1, 2]))


def case_dropout_rate_zero_is_identity(tf):
    x = tf.constant([1.0, 2.0])
    return _value_and_grads(tf, lambda t: tf.nn.dropout(t, 0.0), x)


def case_dropout_mask_and_gradient_agree(tf):
    tf.random.set_seed(5)
    x = tf.ones([200])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.dropout(x, rate=0.25)
    g = tape.gradient(y, x)
    values = sorted(set(y.numpy().tolist()))
    return {"values": values, "grad_equals_output": bool(tf.reduce_all(g == y))}


@tf_raises("ValueError")
def case_dropout_rate_one(tf):
    return tf.nn.dropout(tf.ones([2]), 1.0)


@tf_raises("ValueError")
def case_dropout_int_input(tf):
    return tf.nn.dropout(tf.constant([1, 2]), 0.5)


# --------------------------------------------------------------------------- convolutions
def _conv_case(tf, xs, ws, **kw):
    x, w = _img(tf, xs), _img(tf, ws, 0.05, 1.0)
    return _value_and_grads(tf, lambda a, b: tf.nn.conv2d(a, b, **kw), x, w,
                            weights=None)


def case_conv2d_same_stride1(tf):
    return _conv_case(tf, [2, 5, 5, 2], [3, 3, 2, 3], strides=1, padding="SAME")


def case_conv2d_same_stride2_even(tf):
    return _conv_case(tf, [1, 6, 6, 1], [3, 3, 1, 2], strides=2, padding="SAME")


def case_conv2d_same_stride2_odd_kernel2(tf):
    # total padding odd: the extra row/column goes at the bottom/right
    return _conv_case(tf, [1, 5, 4, 2], [2, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")


def case_conv2d_valid_strides_rect(tf):
    return _conv_case(tf, [2, 7, 6, 1], [3, 2, 1, 2], strides=[2, 3], padding="VALID")


def case_conv2d_valid_leftover_rows(tf):
    # the last row and column are in no window: zero input gradient there
    return _conv_case(tf, [1, 6, 6, 1], [2, 2, 1, 1], strides=3, padding="VALID")


def case_convolution_dilated(tf):
    # TensorFlow's CPU kernels have no dilated conv2d gradient; tf.nn.convolution has one
    x, w = _img(tf, [1, 7, 6, 2]), _img(tf, [3, 2, 2, 2], 0.05, 1.0)
    return {"same": _value_and_grads(tf, lambda a, b: tf.nn.convolution(a, b, padding="SAME", dilations=[2, 3]), x, w),
            "valid": _value_and_grads(tf, lambda a, b: tf.nn.convolution(a, b, padding="VALID", dilations=2), x, w),
            "conv2d_forward": tf.nn.conv2d(x, w, 1, "SAME", dilations=[2, 3])}


def case_convolution_strided_and_1d(tf):
    x, w = _img(tf, [2, 7, 2]), _img(tf, [3, 2, 3], 0.05, 1.0)
    return {"1d_dilated": _value_and_grads(tf, lambda a, b: tf.nn.convolution(a, b, padding="SAME", dilations=2), x, w),
            "2d_strided": _value_and_grads(tf, lambda a, b: tf.nn.convolution(a, b, strides=2, padding="SAME"),
                                           _img(tf, [1, 5, 5, 1]), _img(tf, [2, 2, 1, 2]))}


def case_conv2d_dilated_strided_forward(tf):
    x, w = _img(tf, [1, 9, 9, 1]), _img(tf, [2, 2, 1, 1], 0.05, 1.0)
    return tf.nn.conv2d(x, w, 2, "SAME", dilations=2)


def case_conv2d_explicit_padding(tf):
    return _conv_case(tf, [1, 5, 4, 2], [3, 3, 2, 2], strides=[1, 2, 1, 1],
                      padding=[[0, 0], [2, 1], [0, 3], [0, 0]])


def case_conv2d_filter_larger_than_input(tf):
    # an empty output (TensorFlow's filter gradient is then uninitialised memory: not compared)
    x, w = _img(tf, [1, 2, 2, 1]), _img(tf, [3, 3, 1, 1])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.conv2d(x, w, 1, "VALID")
    return {"y": y, "dx": tape.gradient(tf.reduce_sum(y), x)}


def case_conv2d_float64(tf):
    # TensorFlow's float64 CPU convolution is accurate to float32 precision only: compare in float32
    x = tf.cast(_img(tf, [1, 4, 4, 2]), tf.float64)
    w = tf.cast(_img(tf, [2, 2, 2, 2], 0.05, 1.0), tf.float64)
    r = _value_and_grads(tf, lambda a, b: tf.nn.conv2d(a, b, 1, "SAME"), x, w)
    return {"dtypes": [r["y"].dtype.name] + [g.dtype.name for g in r["grads"]],
            "y": tf.cast(r["y"], tf.float32), "grads": [tf.cast(g, tf.float32) for g in r["grads"]]}


def case_conv2d_extra_batch_axes(tf):
    return _conv_case(tf, [2, 1, 4, 4, 1], [2, 2, 1, 2], strides=1, padding="SAME")


def case_conv2d_grouped_forward(tf):
    x, w = _img(tf, [1, 4, 4, 4]), _img(tf, [2, 2, 2, 4], 0.05, 1.0)
    return tf.nn.conv2d(x, w, 1, "VALID")


def case_conv2d_second_order(tf):
    w = _img(tf, [2, 2, 1, 2], 0.05, 1.0)
    return _second(tf, lambda a: tf.nn.conv2d(a * a, w, 2, "SAME"), _img(tf, [1, 5, 5, 1]))


def case_conv2d_hessian_vector_in_filter(tf):
    x = _img(tf, [1, 4, 4, 1])
    w = _img(tf, [2, 2, 1, 1], 0.05, 1.0)
    with tf.GradientTape() as outer:
        outer.watch(w)
        with tf.GradientTape() as inner:
            inner.watch(w)
            y = tf.reduce_sum(tf.nn.conv2d(x, w * w, 1, "VALID") ** 2)
        g = inner.gradient(y, w)
    return outer.jacobian(g, w)


def case_conv1d(tf):
    x, w = _img(tf, [2, 7, 2]), _img(tf, [3, 2, 3], 0.05, 1.0)
    out = {}
    for name, kw in {"same": dict(stride=1, padding="SAME"),
                     "valid_s2": dict(stride=2, padding="VALID"),
                     "same_list_stride": dict(stride=[1, 2, 1], padding="SAME")}.items():
        out[name] = _value_and_grads(tf, lambda a, b: tf.nn.conv1d(a, b, **kw), x, w)
    return out


def case_depthwise_conv2d(tf):
    x, w = _img(tf, [2, 5, 5, 3]), _img(tf, [3, 3, 3, 2], 0.05, 1.0)
    out = {}
    for name, kw in {"same": dict(strides=[1, 1, 1, 1], padding="SAME"),
                     "valid_s2": dict(strides=[1, 2, 2, 1], padding="VALID"),
                     "dilated": dict(strides=[1, 1, 1, 1], padding="SAME", dilations=[2, 2]),
                     "explicit": dict(strides=[1, 1, 1, 1], padding=[[0, 0], [1, 0], [2, 1], [0, 0]])}.items():
        out[name] = _value_and_grads(tf, lambda a, b: tf.nn.depthwise_conv2d(a, b, **kw), x, w)
    return out


def case_conv2d_transpose(tf):
    x, w = _img(tf, [2, 3, 3, 2]), _img(tf, [3, 3, 4, 2], 0.05, 1.0)
    out = {}
    for name, (shape, strides, pad) in {"same_s2": ([2, 6, 6, 4], 2, "SAME"),
                                        "same_s2_odd": ([2, 5, 5, 4], 2, "SAME"),
                                        "valid_s2": ([2, 7, 7, 4], 2, "VALID"),
                                        "valid_s2_extra": ([2, 8, 8, 4], 2, "VALID"),
                                        "same_s1": ([2, 3, 3, 4], 1, "SAME"),
                                        "explicit": ([2, 5, 5, 4], 2, [[0, 0], [1, 1], [1, 1], [0, 0]])}.items():
        out[name] = _value_and_grads(tf, lambda a, b: tf.nn.conv2d_transpose(a, b, shape, strides, pad), x, w)
    return out


@tf_raises("InvalidArgumentError")
def case_conv2d_transpose_inconsistent_output_shape(tf):
    return tf.nn.conv2d_transpose(tf.ones([1, 3, 3, 2]), tf.ones([3, 3, 4, 2]), [1, 8, 8, 4], 2, "SAME")


@tf_raises("InvalidArgumentError")
def case_conv2d_transpose_channel_mismatch(tf):
    return tf.nn.conv2d_transpose(tf.ones([1, 3, 3, 3]), tf.ones([3, 3, 4, 2]), [1, 6, 6, 4], 2, "SAME")


@tf_raises("InvalidArgumentError")
def case_conv2d_input_rank3(tf):
    return tf.nn.conv2d(tf.ones([5, 5, 3]), tf.ones([3, 3, 3, 2]), 1, "SAME")


@tf_raises("InvalidArgumentError")
def case_conv2d_filter_rank3(tf):
    return tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3]), 1, "SAME")


@tf_raises("InvalidArgumentError")
def case_conv2d_channel_mismatch(tf):
    return tf.nn.conv2d(tf.ones([1, 5, 5, 4]), tf.ones([3, 3, 3, 2]), 1, "SAME")


@tf_raises("InvalidArgumentError")
def case_conv2d_lowercase_padding(tf):
    return tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3, 2]), 1, "same")


@tf_raises("InvalidArgumentError")
def case_conv2d_unknown_padding(tf):
    return tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3, 2]), 1, "FULL")


@tf_raises("ValueError")
def case_conv2d_explicit_padding_wrong_length(tf):
    return tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3, 2]), 1, [[1, 2], [0, 1]])


@tf_raises("InvalidArgumentError")
def case_conv2d_zero_stride(tf):
    return tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3, 2]), 0, "SAME")


@tf_raises("UnimplementedError")
def case_conv2d_batch_stride(tf):
    return tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3, 2]), [2, 1, 1, 1], "SAME")


@tf_raises("InvalidArgumentError")
def case_conv2d_dtype_mismatch(tf):
    return tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3, 2], tf.float64), 1, "SAME")


@tf_raises("InvalidArgumentError")
def case_conv1d_input_rank2(tf):
    return tf.nn.conv1d(tf.ones([5, 3]), tf.ones([3, 3, 2]), 1, "SAME")


@tf_raises("InvalidArgumentError")
def case_depthwise_channel_mismatch(tf):
    return tf.nn.depthwise_conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 2, 2]), [1, 1, 1, 1], "SAME")


def case_conv2d_int32_forward(tf):
    x = tf.reshape(tf.range(16), [1, 4, 4, 1])
    return tf.nn.conv2d(x, tf.ones([2, 2, 1, 1], tf.int32), 2, "VALID")


# --------------------------------------------------------------------------- pooling
def _pool_case(tf, fn, shape, **kw):
    return _value_and_grads(tf, lambda a: fn(a, **kw), _img(tf, shape),
                            weights=None)


def case_max_pool2d(tf):
    out = {}
    for name, kw in {"same_k3_s2": dict(ksize=3, strides=2, padding="SAME"),
                     "valid_k2_s2": dict(ksize=2, strides=2, padding="VALID"),
                     "overlap_k3_s1": dict(ksize=3, strides=1, padding="VALID"),
                     "rect": dict(ksize=[2, 3], strides=[1, 2], padding="SAME"),
                     "list4": dict(ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME"),
                     "explicit": dict(ksize=3, strides=2, padding=[[0, 0], [1, 1], [2, 0], [0, 0]])}.items():
        out[name] = _pool_case(tf, tf.nn.max_pool2d, [2, 5, 6, 2], **kw)
    return out


def case_max_pool_ties_first_max(tf):
    x = tf.constant([[[[1.0], [3.0], [3.0], [0.0]],
                      [[3.0], [2.0], [3.0], [3.0]],
                      [[0.0], [0.0], [5.0], [5.0]],
                      [[0.0], [0.0], [5.0], [5.0]]]])
    return {"k2s2": _value_and_grads(tf, lambda a: tf.nn.max_pool2d(a, 2, 2, "VALID"), x),
            "k2s1": _value_and_grads(tf, lambda a: tf.nn.max_pool2d(a, 2, 1, "VALID"), x),
            "k3s2same": _value_and_grads(tf, lambda a: tf.nn.max_pool2d(a, 3, 2, "SAME"), x)}


def case_max_pool_negative_values_same_padding(tf):
    # padded positions never win, even when every real value is negative
    x = -tf.abs(_img(tf, [1, 3, 3, 1])) - 1.0
    return _value_and_grads(tf, lambda a: tf.nn.max_pool2d(a, 2, 2, "SAME"), x)


def case_max_pool_second_order(tf):
    return _second(tf, lambda a: tf.nn.max_pool2d(a * a, 2, 1, "SAME"), _img(tf, [1, 4, 4, 1]))


def case_max_pool_hessian_is_zero(tf):
    x = _img(tf, [1, 4, 4, 1])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.nn.max_pool2d(x, 2, 2, "VALID"))
        g = inner.gradient(y, x)
    return outer.gradient(g, x)


def case_max_pool1d(tf):
    return {"same": _pool_case(tf, tf.nn.max_pool1d, [2, 7, 2], ksize=3, strides=2, padding="SAME"),
            "valid": _pool_case(tf, tf.nn.max_pool1d, [2, 7, 2], ksize=2, strides=1, padding="VALID"),
            "explicit": _pool_case(tf, tf.nn.max_pool1d, [1, 5, 3], ksize=2, strides=2,
                                   padding=[[0, 0], [1, 1], [0, 0]])}


def case_max_pool_int32(tf):
    return tf.nn.max_pool2d(tf.reshape(tf.range(16), [1, 4, 4, 1]), 2, 2, "VALID")


def case_avg_pool2d(tf):
    out = {}
    for name, kw in {"same_k3_s2": dict(ksize=3, strides=2, padding="SAME"),
                     "same_k2_s1": dict(ksize=2, strides=1, padding="SAME"),
                     "valid_k2_s2": dict(ksize=2, strides=2, padding="VALID"),
                     "overlap_k3_s1": dict(ksize=3, strides=1, padding="VALID"),
                     "rect": dict(ksize=[2, 3], strides=[1, 2], padding="SAME")}.items():
        out[name] = _pool_case(tf, tf.nn.avg_pool2d, [2, 5, 6, 2], **kw)
    return out


def case_avg_pool1d(tf):
    return {"same": _pool_case(tf, tf.nn.avg_pool1d, [2, 7, 2], ksize=3, strides=2, padding="SAME"),
            "valid": _pool_case(tf, tf.nn.avg_pool1d, [2, 7, 2], ksize=2, strides=1, padding="VALID")}


def case_avg_pool_second_order(tf):
    return _second(tf, lambda a: tf.nn.avg_pool2d(a * a, 2, 1, "SAME"), _img(tf, [1, 4, 4, 1]))


def case_pool_generic_names(tf):
    x = _img(tf, [1, 4, 4, 1])
    return {"max": tf.nn.max_pool(x, 2, 2, "SAME"), "avg": tf.nn.avg_pool(x, 2, 2, "VALID"),
            "max1d": tf.nn.max_pool(x[0], 2, 1, "VALID")}


@tf_raises("ValueError")
def case_max_pool_ksize_length3(tf):
    return tf.nn.max_pool2d(tf.ones([1, 5, 5, 3]), [2, 2, 2], 1, "SAME")


@tf_raises("InvalidArgumentError")
def case_max_pool_rank3(tf):
    return tf.nn.max_pool2d(tf.ones([5, 5, 3]), 2, 2, "SAME")


@tf_raises("InvalidArgumentError")
def case_max_pool_zero_ksize(tf):
    return tf.nn.max_pool2d(tf.ones([1, 5, 5, 3]), 0, 1, "SAME")


@tf_raises("UnimplementedError")
def case_max_pool_batch_window(tf):
    return tf.nn.max_pool2d(tf.ones([1, 5, 5, 3]), [2, 2, 2, 1], [1, 2, 2, 1], "SAME")


@tf_raises("InvalidArgumentError")
def case_avg_pool_lowercase_padding(tf):
    return tf.nn.avg_pool2d(tf.ones([1, 5, 5, 3]), 2, 2, "same")


@tf_raises("InvalidArgumentError")
def case_avg_pool_int(tf):
    return tf.nn.avg_pool2d(tf.ones([1, 5, 5, 3], tf.int32), 2, 2, "SAME")


def case_errors_in_one_program(tf):
    # several misuses at once: each result is the exception raised
    return [catch(tf.nn.conv2d, tf.ones([1, 4, 4, 1]), tf.ones([2, 2, 1, 1]), [1, 1, 1], "SAME"),
            catch(tf.nn.max_pool2d, tf.ones([1, 4, 4, 1]), 2, 2, "FULL"),
            catch(tf.nn.avg_pool1d, tf.ones([1, 4, 1]), 2, 2, [[0, 0], [1, 1], [0, 0]])]


def case_moments_int(tf):
    return tf.nn.moments(tf.constant([[-1, 2], [4, 7]]), [0])


def case_moments_float16(tf):
    return tf.nn.moments(tf.cast(_img(tf, [3, 4]), tf.float16), [0, 1])


def case_conv2d_float16(tf):
    x, w = tf.cast(_img(tf, [1, 4, 4, 2]), tf.float16), tf.cast(_img(tf, [2, 2, 2, 2], 0.05, 1.0), tf.float16)
    return _value_and_grads(tf, lambda a, b: tf.nn.conv2d(a, b, 1, "SAME"), x, w)


def case_dropout_noise_shape_shares_the_decision(tf):
    tf.random.set_seed(2)
    y = tf.nn.dropout(tf.ones([40, 3]), 0.5, noise_shape=[40, 1])
    rows_constant = bool(tf.reduce_all(tf.reduce_max(y, axis=1) == tf.reduce_min(y, axis=1)))
    return {"rows_constant": rows_constant, "shape": y.shape.as_list()}


def case_conv1d_transpose(tf):
    x, w = _img(tf, [2, 4, 2]), _img(tf, [3, 3, 2], 0.05, 1.0)
    return {"same_s2": _value_and_grads(tf, lambda a, b: tf.nn.conv1d_transpose(a, b, [2, 8, 3], 2, "SAME"), x, w),
            "valid_s1": _value_and_grads(tf, lambda a, b: tf.nn.conv1d_transpose(a, b, [2, 6, 3], 1, "VALID"), x, w),
            "valid_s2_extra": _value_and_grads(tf, lambda a, b: tf.nn.conv1d_transpose(a, b, [2, 10, 3], 2, "VALID"),
                                               x, w)}


def case_atrous_conv2d_gradients(tf):
    # dilated convolution gradients (TF runs them through space_to_batch)
    x, w = _img(tf, [2, 7, 8, 2]), _img(tf, [3, 2, 2, 3], 0.05, 1.0)
    return {"same_r2": _value_and_grads(tf, lambda a, b: tf.nn.atrous_conv2d(a, b, 2, "SAME"), x, w),
            "valid_r3": _value_and_grads(tf, lambda a, b: tf.nn.atrous_conv2d(a, b, 3, "VALID"), x, w)}


def case_separable_conv2d(tf):
    x = _img(tf, [2, 5, 5, 3])
    dw, pw = _img(tf, [3, 3, 3, 2], 0.05, 1.0), _img(tf, [1, 1, 6, 4], 0.05, 2.0)
    return {"same": _value_and_grads(tf, lambda a, b, c: tf.nn.separable_conv2d(a, b, c, [1, 1, 1, 1], "SAME"),
                                     x, dw, pw),
            "valid_s2": _value_and_grads(tf, lambda a, b, c: tf.nn.separable_conv2d(a, b, c, [1, 2, 2, 1], "VALID"),
                                         x, dw, pw)}


@tf_raises("InvalidArgumentError")
def case_conv2d_window_overhangs_input(tf):
    return tf.nn.conv2d(tf.ones([1, 3, 3, 1]), tf.ones([5, 5, 1, 1]), 1, "VALID")


def case_windows_larger_than_input(tf):
    # an overhang of less than one stride gives an empty output; more is an error
    return [catch(tf.nn.conv2d, tf.ones([1, 5, 5, 3]), tf.ones([6, 6, 3, 2]), 1, "VALID"),
            catch(tf.nn.conv2d, tf.ones([1, 3, 3, 1]), tf.ones([6, 6, 1, 1]), 2, "VALID"),
            catch(tf.nn.conv2d, tf.ones([1, 3, 3, 1]), tf.ones([2, 2, 1, 1]), 1, "VALID", dilations=3),
            catch(tf.nn.conv2d, tf.ones([1, 3, 3, 1]), tf.ones([5, 5, 1, 1]), 1, [[0, 0], [1, 0], [1, 0], [0, 0]]),
            catch(tf.nn.conv1d, tf.ones([1, 3, 1]), tf.ones([5, 1, 1]), 1, "VALID"),
            catch(tf.nn.max_pool2d, tf.ones([1, 3, 3, 1]), 5, 1, "VALID"),
            catch(tf.nn.max_pool2d, tf.ones([1, 3, 3, 1]), 4, 1, "VALID"),
            catch(tf.nn.avg_pool2d, tf.ones([1, 3, 3, 1]), 5, 1, "VALID"),
            catch(tf.nn.avg_pool2d, tf.ones([1, 3, 3, 1]), 4, 1, "VALID")]
