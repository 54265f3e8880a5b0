"""Convolutions and pooling (tapegrad/ops/conv.py) against loop references written here, plus
TF's conventions, batched (Jacobian) backward walks and error messages."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError, UnimplementedError
from op_helpers import value_and_grads


RNG = np.random.default_rng(1234)


def rand(*shape):
    return RNG.standard_normal(shape)


# --------------------------------------------------------------------------- references (loops)
def same_pads(n, k, s, d):
    out = -(-n // s)
    total = max((out - 1) * s + (k - 1) * d + 1 - n, 0)
    return total // 2, total - total // 2


def ref_conv(x, w, strides, pads, dil, groups=1):
    """Direct convolution with a loop over output pixels and kernel taps."""
    n, h, wd, c = x.shape
    kh, kw, cg, o = w.shape
    og = o // groups
    xp = np.zeros((n, h + sum(pads[0]), wd + sum(pads[1]), c))
    xp[:, pads[0][0]:pads[0][0] + h, pads[1][0]:pads[1][0] + wd] = x
    oh = (xp.shape[1] - (kh - 1) * dil[0] - 1) // strides[0] + 1
    ow = (xp.shape[2] - (kw - 1) * dil[1] - 1) // strides[1] + 1
    y = np.zeros((n, max(oh, 0), max(ow, 0), o))
    for a in range(max(oh, 0)):
        for b in range(max(ow, 0)):
            for i in range(kh):
                for j in range(kw):
                    px = xp[:, a * strides[0] + i * dil[0], b * strides[1] + j * dil[1], :]
                    for gi in range(groups):
                        cs, os_ = slice(gi * cg, (gi + 1) * cg), slice(gi * og, (gi + 1) * og)
                        y[:, a, b, os_] += px[:, cs] @ w[i, j, :, os_]
    return y


def ref_conv_grads(x, w, seed, strides, pads, dil, groups=1):
    """Gradients of sum(conv(x, w) * seed) by the same loops, transposed."""
    n, h, wd, c = x.shape
    kh, kw, cg, o = w.shape
    og = o // groups
    xp = np.zeros((n, h + sum(pads[0]), wd + sum(pads[1]), c))
    xp[:, pads[0][0]:pads[0][0] + h, pads[1][0]:pads[1][0] + wd] = x
    dxp, dw = np.zeros_like(xp), np.zeros_like(w)
    for a in range(seed.shape[1]):
        for b in range(seed.shape[2]):
            for i in range(kh):
                for j in range(kw):
                    r, q = a * strides[0] + i * dil[0], b * strides[1] + j * dil[1]
                    for gi in range(groups):
                        cs, os_ = slice(gi * cg, (gi + 1) * cg), slice(gi * og, (gi + 1) * og)
                        dxp[:, r, q, cs] += seed[:, a, b, os_] @ w[i, j, :, os_].T
                        dw[i, j, :, os_] += xp[:, r, q, cs].T @ seed[:, a, b, os_]
    return dxp[:, pads[0][0]:pads[0][0] + h, pads[1][0]:pads[1][0] + wd], dw


CONV_CONFIGS = [
    # x shape, w shape, strides, padding, dilations
    ((2, 5, 5, 3), (3, 3, 3, 4), (1, 1), "SAME", (1, 1)),
    ((1, 6, 7, 2), (3, 2, 2, 3), (2, 3), "SAME", (1, 1)),
    ((2, 7, 6, 1), (2, 3, 1, 2), (2, 2), "VALID", (1, 1)),
    ((1, 8, 8, 2), (3, 3, 2, 2), (1, 1), "SAME", (2, 3)),
    ((1, 9, 9, 1), (2, 2, 1, 1), (2, 2), "SAME", (2, 2)),
    ((1, 5, 4, 2), (3, 3, 2, 2), (2, 1), [[0, 0], [2, 1], [0, 3], [0, 0]], (1, 1)),
    ((1, 6, 6, 4), (3, 3, 2, 6), (1, 2), "SAME", (1, 1)),       # 2 groups
    ((1, 2, 2, 1), (3, 3, 1, 1), (1, 1), "VALID", (1, 1)),      # empty output
]


def _pads(x_shape, w_shape, strides, padding, dil):
    if padding == "VALID":
        return ((0, 0), (0, 0))
    if padding == "SAME":
        return tuple(same_pads(x_shape[1 + a], w_shape[a], strides[a], dil[a]) for a in range(2))
    return tuple(tuple(p) for p in padding[1:3])


@pytest.mark.parametrize("xs,ws,strides,padding,dil", CONV_CONFIGS)
def test_conv2d_matches_loop_reference(xs, ws, strides, padding, dil):
    x, w = rand(*xs), rand(*ws)
    groups = xs[3] // ws[2]
    pads = _pads(xs, ws, strides, padding, dil)
    ref = ref_conv(x, w, strides, pads, dil, groups)
    seed = rand(*ref.shape)
    y, (dx, dw) = value_and_grads(lambda a, b: tf.nn.conv2d(a, b, list(strides), padding, dilations=list(dil)),
                        x, w, seed=seed)
    np.testing.assert_allclose(y, ref, rtol=1e-12, atol=1e-12)
    rdx, rdw = ref_conv_grads(x, w, seed, strides, pads, dil, groups)
    np.testing.assert_allclose(dx, rdx, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(dw, rdw, rtol=1e-12, atol=1e-12)


def test_same_padding_puts_the_odd_pixel_after():
    # 5 wide, kernel 2, stride 2: output 3, total padding 1, all of it on the right
    x = np.arange(5.0).reshape(1, 1, 5, 1)
    y = tf.nn.conv2d(x, np.ones((1, 2, 1, 1)), 2, "SAME").numpy().ravel()
    np.testing.assert_array_equal(y, [1.0, 5.0, 4.0])


def test_conv1d_is_conv2d_of_height_one():
    x, w = rand(2, 9, 3), rand(3, 3, 4)
    y = tf.nn.conv1d(x, w, 2, "SAME", dilations=2).numpy()
    ref = ref_conv(x[:, None], w[None], (1, 2), ((0, 0), same_pads(9, 3, 2, 2)), (1, 2))[:, 0]
    np.testing.assert_allclose(y, ref, rtol=1e-12)


def test_conv_data_format_channels_first_and_extra_batch_axes():
    x, w = rand(2, 3, 4, 5, 5), rand(3, 3, 5, 2)
    y = tf.nn.conv2d(x, w, 1, "SAME").numpy()
    ref = ref_conv(x.reshape(6, 4, 5, 5), w, (1, 1), ((1, 1), (1, 1)), (1, 1))
    np.testing.assert_allclose(y, ref.reshape(2, 3, 4, 5, 2))
    xc = np.moveaxis(x[0], -1, 1)
    yc = tf.nn.conv2d(xc, w, [1, 1, 1, 1], "SAME", data_format="NCHW").numpy()
    np.testing.assert_allclose(yc, np.moveaxis(y[0], -1, 1), rtol=1e-12)


def test_depthwise_conv2d_matches_loops():
    x, w = rand(2, 6, 5, 3), rand(3, 2, 3, 2)
    y, (dx, dw) = value_and_grads(lambda a, b: tf.nn.depthwise_conv2d(a, b, [1, 2, 2, 1], "SAME"), x, w)
    pads = (same_pads(6, 3, 2, 1), same_pads(5, 2, 2, 1))
    ref = np.concatenate([ref_conv(x[..., c:c + 1], w[:, :, c:c + 1, :], (2, 2), pads, (1, 1)) for c in range(3)], -1)
    np.testing.assert_allclose(y, ref, rtol=1e-12)
    for c in range(3):
        seed = np.ones(ref.shape[:3] + (2,))
        rdx, rdw = ref_conv_grads(x[..., c:c + 1], w[:, :, c:c + 1, :], seed, (2, 2), pads, (1, 1))
        np.testing.assert_allclose(dx[..., c:c + 1], rdx, rtol=1e-12)
        np.testing.assert_allclose(dw[:, :, c:c + 1], rdw, rtol=1e-12)


@pytest.mark.parametrize("out_shape,strides,padding", [
    ((2, 6, 6, 4), 2, "SAME"), ((2, 5, 5, 4), 2, "SAME"), ((2, 7, 8, 4), 2, "VALID"),
    ((2, 5, 5, 4), 2, [[0, 0], [1, 1], [1, 1], [0, 0]]),
])
def test_conv2d_transpose_is_the_adjoint_of_conv2d(out_shape, strides, padding):
    g, w = rand(2, 3, 3, 2), rand(3, 3, 4, 2)
    y = tf.nn.conv2d_transpose(g, w, out_shape, strides, padding).numpy()
    x = rand(*out_shape)
    conv = tf.nn.conv2d(x, w, strides, padding).numpy()
    assert conv.shape == g.shape
    np.testing.assert_allclose(np.vdot(y, x), np.vdot(g, conv), rtol=1e-12)


def test_conv1d_transpose_is_the_adjoint_of_conv1d():
    g, w = rand(2, 4, 3), rand(3, 2, 3)
    y = tf.nn.conv1d_transpose(g, w, [2, 8, 2], 2, "SAME").numpy()
    x = rand(2, 8, 2)
    np.testing.assert_allclose(np.vdot(y, x), np.vdot(g, tf.nn.conv1d(x, w, 2, "SAME").numpy()), rtol=1e-12)


def test_separable_and_atrous_are_their_compositions():
    x, d, p = rand(1, 6, 6, 2), rand(3, 3, 2, 2), rand(1, 1, 4, 3)
    sep = tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "SAME").numpy()
    ref = tf.nn.conv2d(tf.nn.depthwise_conv2d(x, d, [1, 1, 1, 1], "SAME"), p, 1, "VALID").numpy()
    np.testing.assert_allclose(sep, ref, rtol=1e-12)
    w = rand(2, 2, 2, 3)
    np.testing.assert_allclose(tf.nn.atrous_conv2d(x, w, 2, "VALID").numpy(),
                               ref_conv(x, w, (1, 1), ((0, 0), (0, 0)), (2, 2)), rtol=1e-12)
    with pytest.raises(InvalidArgumentError, match="pointwise_filter"):
        tf.nn.separable_conv2d(x, d, rand(2, 1, 4, 3), [1, 1, 1, 1], "SAME")


def test_conv_second_order_and_forward_over_reverse():
    x, w = tf.constant(rand(1, 5, 5, 2)), tf.constant(rand(3, 3, 2, 2))
    v = tf.constant(rand(3, 3, 2, 2))

    def loss(w_):
        return tf.reduce_sum(tf.nn.conv2d(x, w_, 2, "SAME") ** 2)

    with tf.autodiff.ForwardAccumulator(w, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(w)
            y = loss(w)
        g = tape.gradient(y, w)
    hvp_fwd = acc.jvp(g).numpy()
    with tf.GradientTape() as outer:
        outer.watch(w)
        with tf.GradientTape() as inner:
            inner.watch(w)
            y = loss(w)
        g2 = inner.gradient(y, w)
    hvp_rev = outer.gradient(g2, w, output_gradients=v).numpy()
    np.testing.assert_allclose(hvp_fwd, hvp_rev, rtol=1e-10)
    # the loss is quadratic in w: H v = 2 * conv-normal-equations applied to v
    j = tf.nn.conv2d(x, v, 2, "SAME")
    with tf.GradientTape() as t3:
        t3.watch(w)
        z = tf.reduce_sum(tf.nn.conv2d(x, w, 2, "SAME") * j)
    np.testing.assert_allclose(hvp_rev, 2 * t3.gradient(z, w).numpy(), rtol=1e-10)


@pytest.mark.parametrize("fn", [
    lambda x, w: tf.nn.conv2d(x, w, 2, "SAME"),
    lambda x, w: tf.nn.conv2d_transpose(x[:, :3, :3, :2], w[..., :2], [2, 5, 5, 2], 2, "SAME"),
    lambda x, w: tf.nn.max_pool2d(x * w[0, 0, 0, 0], 2, 1, "SAME"),
    lambda x, w: tf.nn.avg_pool2d(x * w[0, 0, 0, 0], 3, 2, "SAME"),
])
def test_jacobians_batched_equal_row_by_row(fn):
    x, w = tf.constant(rand(2, 4, 4, 2)), tf.constant(rand(2, 2, 2, 3))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        y = fn(x, w)
    fast = tape.jacobian(y, [x, w])
    slow = tape.jacobian(y, [x, w], experimental_use_pfor=False)
    for a, b in zip(fast, slow):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12, atol=1e-12)


def test_jacobian_of_jacobian_through_conv_and_pooling():
    x, w = tf.constant(rand(2, 3, 3, 1)), tf.constant(rand(2, 2, 1, 1))

    def hessians(pfor):
        with tf.GradientTape(persistent=True) as outer:
            outer.watch([x, w])
            with tf.GradientTape(persistent=True) as inner:
                inner.watch([x, w])
                y = tf.nn.max_pool2d(tf.nn.conv2d(x * x, w * w, 1, "SAME"), 2, 1, "VALID")
                y = tf.nn.avg_pool2d(y, 2, 1, "SAME")
            j = inner.jacobian(y, w, experimental_use_pfor=pfor)
        return [outer.jacobian(j, v, experimental_use_pfor=pfor).numpy() for v in (x, w)]

    for a, b in zip(hessians(True), hessians(False)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


# --------------------------------------------------------------------------- pooling
def ref_pool(x, k, s, padding, kind):
    n, h, w, c = x.shape
    pads = ((0, 0), (0, 0)) if padding == "VALID" else tuple(same_pads(x.shape[1 + a], k[a], s[a], 1) for a in range(2))
    oh = (h + sum(pads[0]) - k[0]) // s[0] + 1
    ow = (w + sum(pads[1]) - k[1]) // s[1] + 1
    y, dx = np.zeros((n, oh, ow, c)), np.zeros_like(x)
    for b in range(n):
        for a in range(oh):
            for q in range(ow):
                for ch in range(c):
                    cells = [(r, cc) for r in range(a * s[0] - pads[0][0], a * s[0] - pads[0][0] + k[0])
                             for cc in range(q * s[1] - pads[1][0], q * s[1] - pads[1][0] + k[1])
                             if 0 <= r < h and 0 <= cc < w]
                    vals = [x[b, r, cc, ch] for r, cc in cells]
                    if kind == "max":
                        i = int(np.argmax(vals))  # first maximum
                        y[b, a, q, ch] = vals[i]
                        dx[(b,) + cells[i] + (ch,)] += 1
                    else:
                        y[b, a, q, ch] = np.mean(vals)
                        for r, cc in cells:
                            dx[b, r, cc, ch] += 1 / len(cells)
    return y, dx


@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize("k,s,padding", [((2, 2), (2, 2), "VALID"), ((3, 3), (2, 2), "SAME"),
                                         ((3, 2), (1, 2), "SAME"), ((3, 3), (1, 1), "VALID"),
                                         ((2, 2), (3, 3), "SAME")])
def test_pool2d_matches_loop_reference(kind, k, s, padding):
    x = np.round(rand(2, 6, 7, 2), 1)  # rounding makes ties
    fn = tf.nn.max_pool2d if kind == "max" else tf.nn.avg_pool2d
    y, (dx,) = value_and_grads(lambda a: fn(a, list(k), list(s), padding), x)
    ry, rdx = ref_pool(x, k, s, padding, kind)
    np.testing.assert_allclose(y, ry, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(dx, rdx, rtol=1e-12, atol=1e-15)


def test_max_pool_ties_route_to_the_first_maximum():
    x = np.array([[3.0, 3.0], [3.0, 3.0]]).reshape(1, 2, 2, 1)
    _, (dx,) = value_and_grads(lambda a: tf.nn.max_pool2d(a, 2, 2, "VALID"), x)
    np.testing.assert_array_equal(dx.ravel(), [1, 0, 0, 0])


@pytest.mark.parametrize("padding", ["VALID", "SAME"])
def test_max_pool_nan_wins_its_window(padding):
    x = np.round(rand(2, 7, 7, 2), 1)  # SAME pads 7 to 9: the padded path
    x[0, 1, 2, 0] = x[1, 4, 5, 1] = np.nan
    y, (dx,) = value_and_grads(lambda a: tf.nn.max_pool2d(a, 3, 3, padding), x)
    ry, rdx = ref_pool(x, (3, 3), (3, 3), padding, "max")
    np.testing.assert_array_equal(np.isnan(y), np.isnan(ry))
    np.testing.assert_allclose(y, ry)
    np.testing.assert_array_equal(dx, rdx)


def test_max_pool_infinite_cotangent_reaches_only_the_maximum():
    x = tf.constant(np.arange(16.0).reshape(1, 4, 4, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 2, 2, "VALID")
    dx = tape.gradient(y, x, output_gradients=tf.constant([[[[np.inf], [1.0]], [[2.0], [3.0]]]])).numpy()
    want = np.zeros((4, 4))
    want[1, 1], want[1, 3], want[3, 1], want[3, 3] = np.inf, 1, 2, 3
    np.testing.assert_array_equal(dx[0, :, :, 0], want)


def test_max_pool_padding_never_wins():
    x = -np.ones((1, 3, 3, 1)) * 5
    y, (dx,) = value_and_grads(lambda a: tf.nn.max_pool2d(a, 2, 2, "SAME"), x)
    np.testing.assert_array_equal(y.ravel(), [-5, -5, -5, -5])
    assert dx.sum() == 4


def test_pool1d_and_generic_names():
    x = rand(2, 7, 3)
    np.testing.assert_allclose(tf.nn.max_pool1d(x, 3, 2, "SAME").numpy(),
                               ref_pool(x[:, None], (1, 3), (1, 2), "SAME", "max")[0][:, 0])
    np.testing.assert_allclose(tf.nn.avg_pool(x, 2, 1, "VALID").numpy(),
                               ref_pool(x[:, None], (1, 2), (1, 1), "VALID", "avg")[0][:, 0])


def test_dtypes_are_kept():
    for dt in (tf.float16, tf.float32, tf.float64):
        x, w = tf.cast(rand(1, 4, 4, 2), dt), tf.cast(rand(2, 2, 2, 3), dt)
        assert tf.nn.conv2d(x, w, 1, "SAME").dtype == dt
        assert tf.nn.max_pool2d(x, 2, 2, "SAME").dtype == dt
        assert tf.nn.avg_pool2d(x, 2, 2, "SAME").dtype == dt
    xi = tf.reshape(tf.range(16), [1, 4, 4, 1])
    assert tf.nn.conv2d(xi, tf.ones([2, 2, 1, 1], tf.int32), 2, "VALID").numpy().ravel().tolist() == [10, 18, 42, 50]


# --------------------------------------------------------------------------- errors
@pytest.mark.parametrize("call,exc,words", [
    (lambda: tf.nn.conv2d(tf.ones([5, 5, 3]), tf.ones([3, 3, 3, 2]), 1, "SAME"), InvalidArgumentError, "4-dimensional"),
    (lambda: tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3]), 1, "SAME"), InvalidArgumentError, "filter must be 4-dimensional"),
    (lambda: tf.nn.conv2d(tf.ones([1, 5, 5, 4]), tf.ones([3, 3, 3, 2]), 1, "SAME"), InvalidArgumentError, "4 vs 3"),
    (lambda: tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3, 2]), 1, "same"), InvalidArgumentError, '"SAME"'),
    (lambda: tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3, 2]), 1, "FULL"), InvalidArgumentError, "FULL"),
    (lambda: tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3, 2]), 1, [[1, 1], [1, 1]]), ValueError, "4 pairs"),
    (lambda: tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3, 2]), 1, [[1, 1], [1, 1], [1, 1], [0, 0]]), ValueError, "batch and channel"),
    (lambda: tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3, 2]), [1, 1, 1], "SAME"), ValueError, "length 1, 2 or 4"),
    (lambda: tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3, 2]), 0, "SAME"), InvalidArgumentError, "positive"),
    (lambda: tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3, 2]), [2, 1, 1, 1], "SAME"), UnimplementedError, "batch or channel"),
    (lambda: tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3, 2], tf.float64), 1, "SAME"), InvalidArgumentError, "tf.cast"),
    (lambda: tf.nn.conv2d(tf.ones([1, 5, 5, 3], tf.bool), tf.ones([3, 3, 3, 2], tf.bool), 1, "SAME"), InvalidArgumentError, "bool"),
    (lambda: tf.nn.conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 3, 2]), 1, "SAME", data_format="NHCW"), ValueError, "data_format"),
    (lambda: tf.nn.conv1d(tf.ones([5, 3]), tf.ones([3, 3, 2]), 1, "SAME"), InvalidArgumentError, "3-dimensional"),
    (lambda: tf.nn.depthwise_conv2d(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 2, 2]), [1, 1, 1, 1], "SAME"), InvalidArgumentError, "same depth"),
    (lambda: tf.nn.conv2d_transpose(tf.ones([1, 3, 3, 2]), tf.ones([3, 3, 4, 2]), [1, 8, 8, 4], 2, "SAME"), InvalidArgumentError, "doesn't match"),
    (lambda: tf.nn.conv2d_transpose(tf.ones([1, 3, 3, 3]), tf.ones([3, 3, 4, 2]), [1, 6, 6, 4], 2, "SAME"), InvalidArgumentError, "out_depth"),
    (lambda: tf.nn.conv2d_transpose(tf.ones([1, 3, 3, 2]), tf.ones([3, 3, 4, 2]), [2, 6, 6, 4], 2, "SAME"), InvalidArgumentError, "batch"),
    (lambda: tf.nn.max_pool2d(tf.ones([5, 5, 3]), 2, 2, "SAME"), InvalidArgumentError, "4-dimensional"),
    (lambda: tf.nn.max_pool2d(tf.ones([1, 5, 5, 3]), [2, 2, 2], 1, "SAME"), ValueError, "ksize"),
    (lambda: tf.nn.max_pool2d(tf.ones([1, 5, 5, 3]), 0, 1, "SAME"), InvalidArgumentError, "positive"),
    (lambda: tf.nn.max_pool2d(tf.ones([1, 5, 5, 3]), 2, 1, [[0, 0], [2, 0], [0, 0], [0, 0]]), InvalidArgumentError, "smaller than the window"),
    (lambda: tf.nn.avg_pool2d(tf.ones([1, 5, 5, 3]), 2, 1, [[0, 0], [1, 0], [0, 0], [0, 0]]), TypeError, "no explicit padding"),
    (lambda: tf.nn.avg_pool2d(tf.ones([1, 5, 5, 3], tf.int32), 2, 2, "SAME"), InvalidArgumentError, "int32"),
    (lambda: tf.nn.max_pool(tf.ones([1, 2, 5, 5, 3]), 2, 2, "SAME"), ValueError, "rank"),
    (lambda: tf.nn.conv2d(tf.ones([1, 3, 3, 1]), tf.ones([5, 5, 1, 1]), 1, "VALID"), InvalidArgumentError,
     "Computed output size would be negative: -1 [input_size: 3, effective_filter_size: 5, stride: 1]"),
    (lambda: tf.nn.avg_pool1d(tf.ones([1, 3, 1]), 3, 1, "VALID") + tf.nn.max_pool1d(tf.ones([1, 3, 1]), 5, 1, "VALID"),
     InvalidArgumentError, "window is larger than the padded input"),
])
def test_errors_say_what_is_wrong(call, exc, words):
    with pytest.raises(exc, match=None) as info:
        call()
    assert words in str(info.value), str(info.value)


def test_channels_first_1d_and_transposed():
    x, w = rand(2, 9, 3), rand(3, 3, 4)
    y = tf.nn.conv1d(x, w, 2, "SAME").numpy()
    ncw = tf.nn.conv1d(np.moveaxis(x, -1, 1), w, 2, "SAME", data_format="NCW").numpy()
    np.testing.assert_allclose(np.moveaxis(ncw, 1, -1), y, rtol=1e-12)
    back = tf.nn.conv1d_transpose(np.moveaxis(y, -1, 1), w, [2, 3, 9], 2, "SAME", data_format="NCW").numpy()
    np.testing.assert_allclose(np.moveaxis(back, 1, -1), tf.nn.conv1d_transpose(y, w, [2, 9, 3], 2, "SAME").numpy())
    pooled = tf.nn.max_pool1d(np.moveaxis(x, -1, 1), 2, 2, "SAME", data_format="NCW").numpy()
    np.testing.assert_array_equal(np.moveaxis(pooled, 1, -1), tf.nn.max_pool1d(x, 2, 2, "SAME").numpy())
    g, f = rand(1, 3, 3, 2), rand(2, 2, 4, 2)
    nchw = tf.nn.conv2d_transpose(np.moveaxis(g, -1, 1), f, [1, 4, 6, 6], 2, "SAME", data_format="NCHW").numpy()
    np.testing.assert_allclose(np.moveaxis(nchw, 1, -1), tf.nn.conv2d_transpose(g, f, [1, 6, 6, 4], 2, "SAME").numpy())
