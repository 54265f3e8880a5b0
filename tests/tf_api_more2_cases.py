"""The cases of tools/record_tf_api_more2.py, shared with tests/test_tf_api_more2.py: more TensorFlow
names tapegrad added late (tf.experimental.numpy's remaining functions, tf.errors' codes, ...). Each
case is a function of ``tf`` (TensorFlow when recorded, tapegrad when replayed), encoded as
tests/sparse_cases.py encodes (an error as its type and message: the test compares the type, and the
words of ``MESSAGES``)."""
import numpy as np

from sparse_cases import encode, run  # noqa: F401  (run: the recorder's and the test's entry)

CASES = {}  # (filled topic by topic below)


def _np(tf):
    return tf.experimental.numpy


def _grad(tf, f, *xs):
    """``f(*xs)`` and the gradient of its sum with respect to each ``xs`` (float64 variables)."""
    vs = [tf.Variable(np.asarray(x, np.float64)) for x in xs]
    with tf.GradientTape() as t:
        y = f(*vs)
        s = tf.reduce_sum(y)
    return [y, t.gradient(s, vs)]


_F32 = np.array([-2.5, -0.5, 0.0, 0.75, 3.0], np.float32)
_POS = np.array([1.5, 2.0, 4.0], np.float64)
_UNIT = np.array([-0.5, 0.0, 0.25], np.float64)


def _c(tf, z):
    """A complex result as its real and imaginary parts (JSON has no complex numbers)."""
    return [tf.math.real(z), tf.math.imag(z)]


def _unary(name, x):
    return lambda tf: getattr(_np(tf), name)(x)


def _each(tf, name, *xs):
    return [getattr(_np(tf), name)(x) for x in xs]


# ---- tf.experimental.numpy -----------------------------------------------------------------------

TNP = {
    "arcsinh": lambda tf: _each(tf, "arcsinh", _F32, [1, 2], 0.5),
    "arccosh": lambda tf: _each(tf, "arccosh", _POS, [1, 3]),
    "arctanh": lambda tf: _each(tf, "arctanh", _UNIT, np.float32(0.5)),
    "deg2rad": lambda tf: _each(tf, "deg2rad", _F32, [90, 180]),
    "rad2deg": lambda tf: _each(tf, "rad2deg", tf.constant(_F32), tf.constant(_POS)),
    "angle": lambda tf: [_np(tf).angle(np.array([1 + 1j, -2j, -1.0], np.complex64)),
                         _np(tf).angle(_F32), _np(tf).angle(np.array([1j, -1 + 0j]), deg=True)],
    "cbrt": lambda tf: _each(tf, "cbrt", _F32, [8, -27]),
    "exp2": lambda tf: _each(tf, "exp2", _F32, [3, 0]),
    "fabs": lambda tf: _each(tf, "fabs", _F32, np.array([-3, 2], np.int32)),
    "fix": lambda tf: _each(tf, "fix", _F32, [3, -2]),
    "sinc": lambda tf: _each(tf, "sinc", _F32, [0, 1, 2]),
    "signbit": lambda tf: _each(tf, "signbit", _F32, np.array([-1, 0, 4], np.int32), [True, False]),
    "conj": lambda tf: [_c(tf, _np(tf).conj(np.array([1 + 2j], np.complex64))), _np(tf).conjugate(_F32)],
    "real_imag": lambda tf: [_np(tf).real(np.array([1 + 2j, 3 - 1j])), _np(tf).imag(np.array([1 + 2j, 3 - 1j])),
                             _np(tf).real(_F32), _np(tf).imag(_F32)],
    "iscomplex": lambda tf: [_np(tf).iscomplex(np.array([1 + 2j, 3 + 0j])), _np(tf).isreal(np.array([1 + 2j, 3 + 0j])),
                             _np(tf).iscomplex(_F32), _np(tf).isreal(_F32)],
    "iscomplexobj": lambda tf: [_np(tf).iscomplexobj(np.array([1j])), _np(tf).iscomplexobj([1.0]),
                                _np(tf).isrealobj(np.array([1j])), _np(tf).isrealobj(tf.constant([1]))],
    "isscalar": lambda tf: [_np(tf).isscalar(1.0), _np(tf).isscalar([1.0]), _np(tf).isscalar(tf.constant(2))],
    "isneginf": lambda tf: [_np(tf).isneginf(tf.constant([-np.inf, np.inf, 0.0])),
                            _np(tf).isposinf(tf.constant([-np.inf, np.inf, 0.0])),
                            _np(tf).isneginf(tf.constant([1, 2]))],
    "heaviside": lambda tf: [_np(tf).heaviside(_F32, np.float32(0.5)), _np(tf).heaviside([-1, 0, 2], [5, 6, 7]),
                             _np(tf).heaviside([-1, 0, 2], 0.5)],
    "nextafter": lambda tf: [_np(tf).nextafter(np.float32([1.0, 0.0]), np.float32([2.0, -1.0])),
                             _np(tf).nextafter(np.array([1.0]), 0.0)],
    "float_power": lambda tf: [_np(tf).float_power(_POS, 2.0), _np(tf).float_power([2, 3], [3, 2])],
    "divmod": lambda tf: [_np(tf).divmod([7, -7], [2, 2]), _np(tf).divmod(_F32, np.float32(2.0))],
    "logaddexp2": lambda tf: [_np(tf).logaddexp2(_F32.astype(np.float64), 1.0), _np(tf).logaddexp2(np.array([1, 2]), np.array([3, 3])),
                              _np(tf).logaddexp2(np.array([-np.inf, np.inf]), np.array([-np.inf, np.inf]))],
    "gcd_lcm": lambda tf: [_np(tf).gcd([12, -18, 0, 7], [8, 12, 5, 0]), _np(tf).lcm([4, -6, 0], [6, 4, 3]),
                           _np(tf).gcd(np.array([12], np.int32), 18)],
    "gcd_float": lambda tf: _np(tf).gcd([1.5], [2.0]),
    "bitwise": lambda tf: [_np(tf).bitwise_and([12, 10], [6, 3]), _np(tf).bitwise_or(np.array([5], np.uint8), 3),
                           _np(tf).bitwise_xor([True, False], [True, True]), _np(tf).bitwise_not([0, 5]),
                           _np(tf).bitwise_not([True, False]), _np(tf).bitwise_and([True], [False])],
    "polyval": lambda tf: [_np(tf).polyval([1.0, 2.0, 3.0], _F32), _np(tf).polyval([2, 1], [[1, 2], [3, 4]]),
                           _np(tf).polyval(3.0, [1.0, 2.0])],
    "nansum": lambda tf: [_np(tf).nansum(np.array([[1.0, np.nan], [2.0, 3.0]])),
                          _np(tf).nansum(np.array([[1.0, np.nan], [2.0, 3.0]], np.float32), axis=0),
                          _np(tf).nanprod(np.array([[1.5, np.nan], [2.0, 3.0]]), axis=1, keepdims=True),
                          _np(tf).nansum([1, 2, 3])],
    "nanmean": lambda tf: [_np(tf).nanmean(np.array([[1.0, np.nan], [2.0, 3.0]])),
                           _np(tf).nanmean(np.array([[1.0, np.nan], [2.0, 3.0]], np.float32), axis=0),
                           _np(tf).nanmean([1, 2, 4])],
    "tri": lambda tf: [_np(tf).tri(3), _np(tf).tri(3, 4, 1, dtype=np.int32), _np(tf).tri(4, 3, -1),
                       _np(tf).tri(2, 2, -5), _np(tf).tri(2, 3, 7, dtype=bool)],
    "diag_indices": lambda tf: [_np(tf).diag_indices(3), _np(tf).diag_indices(2, 3)],
    "logspace": lambda tf: [_np(tf).logspace(0, 2, 3), _np(tf).logspace(0.0, 1.0, 4, endpoint=False, base=2.0),
                            _np(tf).logspace(np.float32(1), np.float32(2), 3)],
    "geomspace": lambda tf: [_np(tf).geomspace(1, 1000, 4), _np(tf).geomspace(-1.0, -16.0, 5),
                             _np(tf).geomspace(2.0, 32.0, 3, endpoint=False), _np(tf).geomspace(1, 8, 4, dtype=np.int32),
                             _np(tf).geomspace(np.float32(1), np.float32(100), 3)],
    "vander": lambda tf: [_np(tf).vander([1, 2, 3]), _np(tf).vander(np.float32([1.5, -2.0]), 4, increasing=True)],
    "vander_rank": lambda tf: _np(tf).vander([[1, 2]]),
    "atleast_3d": lambda tf: [_np(tf).atleast_3d(1.0), _np(tf).atleast_3d([1, 2]), _np(tf).atleast_3d([[1, 2]]),
                              _np(tf).atleast_3d(np.zeros([1, 2, 3, 4])).shape.as_list(),
                              _np(tf).atleast_3d([1], [[2]])],
    "dstack": lambda tf: [_np(tf).dstack([[1, 2], [3.5, 4]]), _np(tf).dstack([np.ones([2, 2], np.float32), np.zeros([2, 2])])],
    "splits": lambda tf: [_np(tf).vsplit(np.arange(12).reshape(4, 3), 2), _np(tf).hsplit(np.arange(12).reshape(2, 6), [1, 4]),
                          _np(tf).hsplit(np.arange(6), 3), _np(tf).dsplit(np.arange(16).reshape(2, 2, 4), 2)],
    "split_unequal": lambda tf: _np(tf).vsplit(np.arange(9).reshape(3, 3), 2),
    "append": lambda tf: [_np(tf).append([1, 2], [[3.5, 4]]), _np(tf).append([[1, 2]], [[3, 4]], axis=0),
                          _np(tf).append(np.float32([1]), 2.0)],
    "broadcast_arrays": lambda tf: _np(tf).broadcast_arrays([1, 2, 3], [[1.5], [2.5]], 7),
    "diagonal": lambda tf: [_np(tf).diagonal(np.arange(12).reshape(3, 4)), _np(tf).diagonal(np.arange(12).reshape(3, 4), 1),
                            _np(tf).diagonal(np.arange(12).reshape(3, 4), -2),
                            _np(tf).diagonal(np.arange(24).reshape(2, 3, 4), 1, 1, 2),
                            _np(tf).diagonal(np.arange(24).reshape(2, 3, 4), 0, 2, 0),
                            _np(tf).diagonal(np.arange(12).reshape(3, 4), 5)],
    "diagflat": lambda tf: [_np(tf).diagflat([[1, 2], [3, 4]]), _np(tf).diagflat([1.5, 2], k=-1)],
    "compress": lambda tf: [_np(tf).compress([True, False, True], np.arange(6).reshape(3, 2), axis=0),
                            _np(tf).compress([False, True], np.arange(6).reshape(3, 2), axis=1),
                            _np(tf).compress([True, False, True], np.arange(6).reshape(3, 2)),
                            _np(tf).compress([False, True], np.arange(6).reshape(3, 2), axis=-2)],
    "nonzero": lambda tf: [_np(tf).nonzero([[0, 1], [2, 0]]), _np(tf).nonzero(5), _np(tf).nonzero([0.0, 1.5, 0.0])],
    "ix": lambda tf: [_np(tf).ix_([0, 1], [True, False, True]), _np(tf).ix_(np.array([2], np.int32))],
    "ix_float": lambda tf: _np(tf).ix_([1.5]),
    "rot90": lambda tf: [_np(tf).rot90(np.arange(6).reshape(2, 3)), _np(tf).rot90(np.arange(6).reshape(2, 3), 2),
                         _np(tf).rot90(np.arange(6).reshape(2, 3), -1), _np(tf).rot90(tf.constant(np.arange(6).reshape(2, 3)), 4),
                         _np(tf).rot90(np.arange(24).reshape(2, 3, 4), 1, (2, 0))],
    "select": lambda tf: [_np(tf).select([tf.constant([True, False, False]), tf.constant([True, True, False])],
                                         [[1, 2, 3], [4.5, 5, 6]], default=-1),
                          _np(tf).select([[False, True]], [np.float32([1.0, 2.0])])],
    "select_lengths": lambda tf: _np(tf).select([[True]], [[1], [2]]),
    "take_along_axis": lambda tf: [
        _np(tf).take_along_axis(np.array([[3, 1, 2], [9, 8, 7]]), np.array([[0, 2], [1, -1]]), 1),
        _np(tf).take_along_axis(np.array([[3.5, 1], [2, 9]]), np.array([[1, 0]]), 0),
        _np(tf).take_along_axis(np.arange(24).reshape(2, 3, 4), np.zeros([2, 1, 4], np.int64), 1),
        _np(tf).take_along_axis(np.array([[5, 6], [7, 8]]), np.array([3, 0]), None)],
    "vdot": lambda tf: [_np(tf).vdot([[1, 2], [3, 4]], [[1, 1], [2, 2]]), _c(tf, _np(tf).vdot(np.array([1 + 2j, 3j]), np.array([2 - 1j, 1])))],
    "kron": lambda tf: [_np(tf).kron([[1, 2], [3, 4]], [1, 10]), _np(tf).kron([1.5, 2], [[1], [2]]),
                        _np(tf).kron(np.ones([2, 1, 2], np.float32), np.float32([[1, 2]]))],
    "cross": lambda tf: [_np(tf).cross([1.0, 2, 3], [4.0, 5, 6]), _np(tf).cross([1, 2], [3, 4]),
                         _np(tf).cross([[1.0, 2], [0, 1]], [[3.0, 4, 5], [1, 0, 0]]),
                         _np(tf).cross(np.arange(6.0).reshape(3, 2), np.arange(6.0, 12.0).reshape(3, 2)[::-1].copy(), axisa=0, axisb=0),
                         _np(tf).cross(np.arange(6.0).reshape(2, 3), np.ones([2, 3]), axisc=0)],
    "dtypes": lambda tf: [_np(tf).inexact is np.inexact, _np(tf).object_ is np.object_, _np(tf).string_ is np.bytes_,
                          _np(tf).unicode_ is np.str_],
    # gradients
    "grad_unary": lambda tf: [_grad(tf, getattr(_np(tf), f), [0.3, 1.7]) for f in
                              ("arcsinh", "arctanh", "deg2rad", "rad2deg", "cbrt", "exp2", "fix", "sinc", "real")]
    + [_grad(tf, _np(tf).arccosh, [1.5, 2.5])],
    "grad_binary": lambda tf: [_grad(tf, lambda a, b: _np(tf).logaddexp2(a, b), [0.5, -1.0], [1.0, 2.0]),
                               _grad(tf, lambda a, b: _np(tf).heaviside(a, b), [0.0, 1.0], [0.5, 0.5]),
                               _grad(tf, lambda a, b: _np(tf).cross(a, b), [1.0, 2, 3], [4.0, 5, 6]),
                               _grad(tf, lambda a, b: _np(tf).kron(a, b), [1.0, 2], [[1.0, 3]]),
                               _grad(tf, lambda a, b: _np(tf).vdot(a, b), [1.0, 2], [3.0, 4]),
                               _grad(tf, lambda p, x: _np(tf).polyval(p, x), [1.0, 2, 3], [0.5, 2.0]),
                               _grad(tf, lambda a, b: _np(tf).float_power(a, b), [1.5, 2.0], [2.0, 0.5])],
    "grad_shape": lambda tf: [_grad(tf, lambda a: _np(tf).take_along_axis(a, np.array([[1, 0], [1, 1]]), 1), [[1.0, 2], [3, 4]]),
                              _grad(tf, lambda a: _np(tf).diagonal(a, 1), [[1.0, 2, 3], [4, 5, 6]]),
                              _grad(tf, lambda a: _np(tf).rot90(a) * np.array([[1.0, 2], [3, 4], [5, 6]]), [[1.0, 2, 3], [4, 5, 6]]),
                              _grad(tf, lambda a: _np(tf).compress([True, False, True], a), [1.0, 2, 3]),
                              _grad(tf, lambda a: _np(tf).nansum(a * 2.0), [1.0, np.nan]),
                              _grad(tf, lambda a: _np(tf).nanmean(a), [1.0, np.nan, 3.0]),
                              _grad(tf, lambda a: _np(tf).select([a > 1.5], [a * 3.0], 0.0), [1.0, 2.0]),
                              _grad(tf, lambda a: _np(tf).dstack([a, a * 2.0]), [1.0, 2.0]),
                              _grad(tf, lambda a: _np(tf).append(a, a), [[1.0, 2.0]])],
    "in_function": lambda tf: tf.function(lambda x: _np(tf).cbrt(x) + _np(tf).sinc(x) + _np(tf).exp2(x))(
        tf.constant([1.0, -8.0])),
}

# ---- tf.nn: dropout, depthwise backprops, space-to-batch ----------------------------------------

def _rand(shape, seed, dtype=np.float32):
    return np.random.RandomState(seed).randn(*shape).astype(dtype)


def _depthwise(tf, strides, padding, dilations=None, data_format="NHWC"):
    x = _rand([2, 5, 6, 3], 0) if data_format == "NHWC" else _rand([2, 3, 5, 6], 0)
    w = _rand([3, 2, 3, 2], 1)
    y = tf.nn.depthwise_conv2d(x, w, strides, padding, data_format=data_format, dilations=dilations)
    g = _rand(list(y.shape), 2)
    return [tf.nn.depthwise_conv2d_backprop_input(list(x.shape), w, g, strides, padding, data_format=data_format,
                                                  dilations=dilations),
            tf.nn.depthwise_conv2d_backprop_filter(x, [3, 2, 3, 2], g, strides, padding, data_format=data_format,
                                                   dilations=dilations)]


def _stb(tf, rate, padding, **kw):
    x = tf.constant(_rand([2, 7, 6, 2], 3))
    w = tf.constant(_rand([3, 2, 2, 4], 4))
    return tf.nn.with_space_to_batch(x, rate, padding, lambda t, n, p: tf.nn.conv2d(t, w, 1, p), **kw)


def _guarantee(tf):
    return [tf.guarantee_const(tf.constant([1.0, 2.0])), tf.guarantee_const(tf.Variable([3]))]


CASES.update({
    "stateless_dropout": lambda tf: [tf.nn.experimental.stateless_dropout(tf.ones([3, 4]), 0.4, seed=[3, 7]),
                                     tf.nn.experimental.stateless_dropout(tf.ones([3, 4], tf.float64), 0.5, seed=[1, 2],
                                                                          noise_shape=[3, 1]),
                                     tf.nn.experimental.stateless_dropout(tf.ones([5]), 0.3, seed=[5, 6], rng_alg="philox")],
    "general_dropout": lambda tf: tf.nn.experimental.general_dropout(
        tf.constant([[1.0, 2.0, 3.0]]), 0.5, lambda shape, dtype: tf.reshape(tf.constant([0.7, 0.2, 0.5], dtype), shape)),
    "depthwise_backprop": lambda tf: _depthwise(tf, [1, 2, 1, 1], "SAME"),
    "depthwise_backprop_valid": lambda tf: _depthwise(tf, [1, 1, 2, 1], "VALID"),
    "atrous_conv2d_transpose": lambda tf: [tf.nn.atrous_conv2d_transpose(_rand([1, 3, 4, 2], 5), _rand([3, 3, 3, 2], 6),
                                                                         [1, 7, 8, 3], 2, "VALID"),
                                           tf.nn.atrous_conv2d_transpose(_rand([1, 3, 4, 2], 5), _rand([2, 2, 3, 2], 6),
                                                                         [1, 3, 4, 3], 3, "SAME")],
    "required_space_to_batch_paddings": lambda tf: [tf.required_space_to_batch_paddings([5, 4], [2, 3], [[1, 0], [0, 0]]),
                                                    tf.required_space_to_batch_paddings([7], [4]),
                                                    tf.required_space_to_batch_paddings([6, 6], [3, 2], [[2, 1], [1, 1]])],
    "with_space_to_batch_valid": lambda tf: _stb(tf, [2, 2], "VALID"),
    "with_space_to_batch_same": lambda tf: _stb(tf, [2, 3], "SAME", filter_shape=[3, 2]),
    "with_space_to_batch_rate1": lambda tf: _stb(tf, [1, 1], "SAME"),
    "with_space_to_batch_same_no_filter": lambda tf: _stb(tf, [2, 2], "SAME"),
    "guarantee_const": _guarantee,
})


# ---- tf.image ------------------------------------------------------------------------------------

def _ms(tf, shape=(2, 180, 190, 3), seed=7, **kw):
    a = np.random.RandomState(seed).rand(*shape).astype(np.float32)
    b = np.clip(a + np.random.RandomState(seed + 1).randn(*shape).astype(np.float32) * 0.1, 0, 1)
    return tf.image.ssim_multiscale(a, b, 1.0, **kw)


def _ms_grad(tf):
    a = np.random.RandomState(3).rand(1, 40, 44, 2).astype(np.float32)
    v = tf.Variable(np.clip(a + 0.1 * np.random.RandomState(4).randn(*a.shape).astype(np.float32), 0, 1))
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.image.ssim_multiscale(a, v, 1.0, power_factors=(0.3, 0.7), filter_size=7))
    return [y, t.gradient(y, v)]


_BOXES = np.array([[[0.1, 0.2, 0.6, 0.9], [0.5, 0.5, 0.55, 0.58]]], np.float32)


def _sdbb(tf, seed=(5, 7), size=(300, 400, 3), boxes=_BOXES, **kw):
    return list(tf.image.stateless_sample_distorted_bounding_box(tf.constant(size), boxes, seed=seed, **kw))


def _sdbb_stateful(tf):
    tf.random.set_seed(11)
    out = [list(tf.image.sample_distorted_bounding_box([300, 400, 3], _BOXES, seed=4, min_object_covered=0.5))
           for _ in range(3)]
    out.append(list(tf.image.sample_distorted_bounding_box([120, 90, 1], _BOXES[:, :1], seed=4, min_object_covered=0.5)))
    out.append(list(tf.image.sample_distorted_bounding_box([50, 60, 3], _BOXES, seed=9, area_range=(0.3, 0.9))))
    return out


CASES.update({
    "stateless_sdbb": lambda tf: [_sdbb(tf, (s, 3 * s + 1), min_object_covered=c) for s in range(6)
                                  for c in (0.0, 0.1, 0.5, 0.9)],
    "stateless_sdbb_ranges": lambda tf: [_sdbb(tf, (s, 2), aspect_ratio_range=(0.5, 2.0), area_range=(0.2, 0.6),
                                               max_attempts=20) for s in range(8)]
    + [_sdbb(tf, (3, 4), size=(7, 5, 1), area_range=(0.5, 1.0)), _sdbb(tf, (3, 4), size=(1, 1, 1)),
       _sdbb(tf, (1, 1), size=tf.constant([64, 48, 3], tf.int64), min_object_covered=0.3)],
    "stateless_sdbb_no_boxes": lambda tf: [_sdbb(tf, (2, 9), boxes=np.zeros([1, 0, 4], np.float32),
                                                 use_image_if_no_bounding_boxes=True)],
    "stateless_sdbb_no_boxes_refused": lambda tf: _sdbb(tf, (2, 9), boxes=np.zeros([1, 0, 4], np.float32)),
    "stateless_sdbb_bad_box": lambda tf: _sdbb(tf, (2, 9), boxes=np.array([[[0.1, 0.2, 1.5, 0.9]]], np.float32)),
    "stateless_sdbb_few_attempts": lambda tf: [_sdbb(tf, (s, 0), min_object_covered=1.0, max_attempts=2) for s in range(4)],
    "sample_distorted_bounding_box": _sdbb_stateful,
    "ssim_multiscale": lambda tf: _ms(tf),
    "ssim_multiscale_small": lambda tf: [_ms(tf, (3, 45, 37, 1), power_factors=(0.2, 0.3, 0.5), filter_size=5,
                                             filter_sigma=1.0),
                                         _ms(tf, (2, 2, 33, 35, 2), seed=2, power_factors=(0.5, 0.5), filter_size=7,
                                             k1=0.02, k2=0.05)],
    "ssim_multiscale_uint8": lambda tf: tf.image.ssim_multiscale(
        (np.random.RandomState(0).rand(24, 24, 3) * 255).astype(np.uint8),
        (np.random.RandomState(1).rand(24, 24, 3) * 255).astype(np.uint8), 255, power_factors=(0.5, 0.5), filter_size=5),
    "ssim_multiscale_too_small": lambda tf: _ms(tf, (1, 60, 60, 1)),
    "ssim_multiscale_grad": _ms_grad,
})


# ---- tf.math.sobol_sample, tf.nn.isotonic_regression ------------------------------------------

def _iso_grad(tf, **kw):
    v = tf.Variable([[3.0, 1.0, 2.0, 2.0, 5.0], [1.0, 2.0, 0.0, 0.0, -1.0]])
    with tf.GradientTape() as t:
        out, seg = tf.nn.isotonic_regression(v, **kw)
        y = tf.reduce_sum(out * tf.constant([[1.0, 2.0, 3.0, 4.0, 5.0], [5.0, 4.0, 3.0, 2.0, 1.0]]))
    return [out, seg, t.gradient(y, v)]


_ISO = np.array([[3.0, 1.0, 2.0, 2.0, 2.0, 5.0, -1.0], [1.0, 1.0, 2.0, 0.0, 0.0, -1.0, 4.0], [0, 1, 2, 3, 4, 5, 6]])

CASES.update({
    "sobol_sample": lambda tf: [tf.math.sobol_sample(3, 7), tf.math.sobol_sample(5, 4, skip=10, dtype=tf.float64),
                                tf.math.sobol_sample(40, 3, skip=1000), tf.math.sobol_sample(1, 2, skip=tf.constant(3))],
    "sobol_sample_bad_dim": lambda tf: tf.math.sobol_sample(0, 3),
    "isotonic_regression": lambda tf: [list(tf.nn.isotonic_regression(_ISO.astype(np.float32))),
                                       list(tf.nn.isotonic_regression(_ISO, decreasing=False)),
                                       list(tf.nn.isotonic_regression(_ISO.T.astype(np.float32), axis=0)),
                                       list(tf.nn.isotonic_regression(np.array([[4, 1, 3]], np.int32))),
                                       list(tf.nn.isotonic_regression(np.array([[4, 1, 3]], np.int16)))],
    "isotonic_regression_grad": lambda tf: [_iso_grad(tf), _iso_grad(tf, decreasing=False)],
})


# ---- type specs -----------------------------------------------------------------------------------

def _specs(tf):
    ds = tf.data.Dataset.range(3)
    ta = tf.TensorArray(tf.int32, 1, element_shape=[2])
    return [repr(tf.IndexedSlicesSpec([None, 3])), repr(tf.IndexedSlicesSpec([4], tf.int32, tf.int32, tf.int64, [2])),
            repr(tf.TensorArraySpec([2], tf.int32)), repr(tf.OptionalSpec(tf.TensorSpec([], tf.int32))),
            repr(tf.NoneTensorSpec()), repr(tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))),
            repr(tf.type_spec_from_value(ds)), repr(tf.type_spec_from_value(iter(ds))),
            repr(ds.window(2).element_spec), repr(tf.experimental.Optional.from_value(1)._type_spec),
            [issubclass(c, tf.TypeSpec) for c in (tf.TensorSpec, tf.RaggedTensorSpec, tf.SparseTensorSpec,
                                                   tf.IndexedSlicesSpec, tf.TensorArraySpec, tf.OptionalSpec,
                                                   tf.NoneTensorSpec, tf.data.DatasetSpec, tf.data.IteratorSpec)],
            tf.TensorArraySpec([2], tf.int32).is_compatible_with(ta), tf.TensorArraySpec([3], tf.int32).is_compatible_with(ta),
            tf.TensorArraySpec(None, tf.int32).is_compatible_with(tf.TensorArraySpec([2], tf.int32)),
            tf.IndexedSlicesSpec([None, 3]).is_compatible_with(tf.IndexedSlicesSpec([5, 3])),
            tf.IndexedSlicesSpec([None, 3]).is_compatible_with(tf.IndexedSlicesSpec([5, 4])),
            tf.data.DatasetSpec(tf.TensorSpec([], tf.int64)) == tf.type_spec_from_value(ds),
            tf.data.DatasetSpec(tf.TensorSpec(None, tf.int64)).is_compatible_with(tf.type_spec_from_value(ds)),
            tf.OptionalSpec(tf.TensorSpec([], tf.int32)) == tf.OptionalSpec(tf.TensorSpec([], tf.int32)),
            [c.__name__ for c in (tf.IndexedSlicesSpec([1]).value_type, tf.TensorArraySpec().value_type)],
            type(ds.as_numpy_iterator()) is tf.data.NumpyIterator]


def _threading(tf):
    o = tf.data.Options()
    o.threading.private_threadpool_size = 4
    return [o.threading.private_threadpool_size, o.threading.max_intra_op_parallelism,
            isinstance(o.threading, tf.data.ThreadingOptions)]


def _flr(tf, body=bytes(range(12)), compress=None, **kw):
    import gzip
    import os
    import tempfile
    import zlib
    d = tempfile.mkdtemp()
    out = []
    for i in range(2):
        raw = b"HH" + bytes(b + i for b in body) + b"F"
        data = {None: raw, "GZIP": gzip.compress(raw), "ZLIB": zlib.compress(raw)}[compress]
        with open(os.path.join(d, f"{i}.bin"), "wb") as f:
            f.write(data)
    names = [os.path.join(d, f"{i}.bin") for i in range(2)]
    try:
        for x in tf.data.FixedLengthRecordDataset(names, 4, 2, 1, compression_type=compress, **kw):
            out.append(x.numpy())
    except Exception as e:  # noqa: BLE001  (the error is part of the result)
        out.append(type(e).__name__)
    return out


def _protos(tf):
    made = [tf.make_tensor_proto(np.array([[1.5, 2], [3, 4]], np.float32)), tf.make_tensor_proto(3),
            tf.make_tensor_proto([b"a", b"bc"]), tf.make_tensor_proto(1.0, dtype=tf.float64, shape=[2]),
            tf.make_tensor_proto([1, 2, 3], tf.int8), tf.make_tensor_proto(np.arange(4, dtype=np.int64).reshape(2, 2)),
            tf.make_tensor_proto(True), tf.make_tensor_proto([2.5], shape=[1]), tf.make_tensor_proto(np.float16(1.5)),
            tf.make_tensor_proto(np.array(2 + 1j, np.complex64)), tf.make_tensor_proto(np.zeros([0, 2], np.float32))]
    def arr(a):
        return [a.real, a.imag] if a.dtype.kind == "c" else a
    return [[p.SerializeToString(), arr(tf.make_ndarray(p)), int(p.dtype), [d.size for d in p.tensor_shape.dim]]
            for p in made]


def _conversion(tf):
    class Meters:
        def __init__(self, v):
            self.v = v

    class Skipped(Meters):
        pass

    def first(x, dtype=None, name=None, as_ref=False):
        return NotImplemented if isinstance(x, Skipped) else tf.constant(x.v, dtype or tf.float32)

    def second(x, dtype=None, name=None, as_ref=False):
        return tf.constant([x.v, x.v], dtype or tf.float32)
    tf.register_tensor_conversion_function(Meters, first, priority=10)
    tf.register_tensor_conversion_function(Meters, second, priority=20)
    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.convert_to_tensor(Meters(v * 3.0)))
    return [tf.constant(1.0) + Meters(2.0), tf.convert_to_tensor(Meters(3.0), tf.float64), tf.convert_to_tensor(Skipped(4.0)),
            t.gradient(y, v)]


def _register_gradient(tf):
    @tf.RegisterGradient("TapegradCaseGrad")
    def g(op, grad):
        return grad
    return [g(None, 1.5), tf.RegisterGradient("TapegradCaseGrad2")(g) is g]


def _register_twice(tf):
    tf.RegisterGradient("TapegradCaseTwice")(lambda op, grad: grad)
    tf.RegisterGradient("TapegradCaseTwice")(lambda op, grad: grad)


CASES.update({"register_gradient": _register_gradient, "register_gradient_twice": _register_twice,
              "make_tensor_proto": _protos, "register_tensor_conversion_function": _conversion,
              "register_conversion_of_numbers": lambda tf: tf.register_tensor_conversion_function(
                  float, lambda x, dtype=None, name=None, as_ref=False: x),
              "make_tensor_proto_too_many": lambda tf: tf.make_tensor_proto([1, 2, 3], shape=[2]),
              "type_specs": _specs, "threading_options": _threading,
              "fixed_length_records": lambda tf: [_flr(tf), _flr(tf, num_parallel_reads=2), _flr(tf, compress="GZIP"),
                                                  _flr(tf, compress="ZLIB"), _flr(tf, bytes(range(13))),
                                                  _flr(tf, bytes(range(13)), "GZIP"),
                                                  repr(tf.data.FixedLengthRecordDataset("x", 4).element_spec)]})


# run with experimental_enable_numpy_behavior() on (as programs that use tnp run: TF's module needs it)
NUMPY = {f"tnp_{k}": v for k, v in TNP.items()}

# ---- tf.errors -----------------------------------------------------------------------------------

_CODES = ("OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
          "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
          "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED")
_ERRORS = ("CancelledError", "UnknownError", "InvalidArgumentError", "DeadlineExceededError", "NotFoundError",
           "AlreadyExistsError", "PermissionDeniedError", "ResourceExhaustedError", "FailedPreconditionError",
           "AbortedError", "OutOfRangeError", "UnimplementedError", "InternalError", "UnavailableError",
           "DataLossError", "UnauthenticatedError")


def _error_codes(tf):
    return [[getattr(tf.errors, c) for c in _CODES],
            [getattr(tf.errors, e)(None, None, "m").error_code for e in _ERRORS],
            tf.errors.OpError(None, None, "m", tf.errors.ABORTED).error_code,
            issubclass(tf.errors.OperatorNotAllowedInGraphError, TypeError)]


def _op_error_code(tf):
    try:
        tf.reshape(tf.zeros([2, 3]), [4])
    except tf.errors.OpError as e:
        return [e.error_code, type(e).__name__]


CASES["errors_codes"] = _error_codes


# ---- decoders and edit distance ------------------------------------------------------------------

def _logits(t=6, b=3, c=4, seed=0, dtype=np.float32):
    return np.random.RandomState(seed).randn(t, b, c).astype(dtype) * 2


def _beam(tf, lengths=(6, 4, 0), **kw):
    dec, logp = tf.nn.ctc_beam_search_decoder(_logits(), lengths, **kw)
    return [dec, logp]


def _edit(tf, normalize):
    h = tf.SparseTensor([[0, 0, 0], [1, 0, 0], [1, 0, 1], [2, 0, 0], [2, 0, 1], [2, 0, 2]],
                        ["a", "b", "c", "k", "i", "t"], [3, 1, 3])
    t = tf.SparseTensor([[0, 0, 0], [0, 0, 1], [2, 0, 0], [2, 0, 1], [2, 0, 2], [2, 0, 3]],
                        ["a", "x", "s", "i", "t", "s"], [3, 2, 4])
    return tf.edit_distance(h, t, normalize=normalize)


CASES.update({
    "ctc_beam_default": lambda tf: _beam(tf),
    "ctc_beam_narrow": lambda tf: _beam(tf, beam_width=2, top_paths=2),
    "ctc_beam_top3": lambda tf: _beam(tf, (6, 6, 5), beam_width=5, top_paths=3),
    "ctc_beam_wide_classes": lambda tf: [tf.nn.ctc_beam_search_decoder(_logits(8, 2, 6, seed=3), [8, 7], beam_width=3,
                                                                       top_paths=3)],
    "ctc_beam_float64": lambda tf: [tf.nn.ctc_beam_search_decoder(_logits(5, 2, 3, seed=1, dtype=np.float64), [5, 3],
                                                                  beam_width=4, top_paths=2)],
    "ctc_beam_too_many_paths": lambda tf: _beam(tf, beam_width=2, top_paths=3),
    "ctc_beam_long_length": lambda tf: _beam(tf, (7, 1, 1)),
    "ctc_unique_labels": lambda tf: tf.nn.ctc_unique_labels(tf.constant([[3, 4, 4, 3, 0], [1, 1, 0, 0, 0], [0, 2, 5, 2, 7]])),
    "ctc_unique_labels_int64": lambda tf: tf.nn.ctc_unique_labels(tf.constant([[9, 9, 1]], tf.int64)),
    "edit_distance": lambda tf: _edit(tf, True),
    "edit_distance_raw": lambda tf: _edit(tf, False),
    "edit_distance_ints": lambda tf: tf.edit_distance(tf.SparseTensor([[0, 1], [0, 3], [1, 0]], [1, 2, 3], [2, 4]),
                                                      tf.SparseTensor([[0, 0], [0, 1], [1, 2]], [1, 2, 3], [2, 3])),
    "edit_distance_rank_mismatch": lambda tf: tf.edit_distance(tf.SparseTensor([[0, 1]], [1], [2, 4]),
                                                               tf.SparseTensor([[0, 0, 0]], [1], [2, 3, 1])),
})
CASES["errors_raised_code"] = _op_error_code

# the words of TF's messages that tapegrad's say too
MESSAGES = {"stateless_sdbb_no_boxes_refused": "No bounding boxes provided as input",
            "stateless_sdbb_bad_box": "All bounding box coordinates must be in [0.0, 1.0]",
            "tnp_split_unequal": "array split does not result in an equal division",
            "tnp_select_lengths": "condlist must have length equal to choicelist",
            "tnp_vander_rank": "x must be a one-dimensional array",
            "tnp_ix_float": "Only integer and bool dtypes are supported",
            "tnp_gcd_float": "Arguments to gcd must be integers"}
