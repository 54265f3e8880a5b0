"""The keras.ops calls (issue #24's names) that tests/test_keras_ops_more.py replays on
tapegrad.keras.ops and that tools/record_keras_ops_more.py records under Keras 3 (shared, so both
run the same calls): ``value_cases`` for values and dtypes, ``grad_cases`` for gradients."""
import numpy as np


def _inputs():
    rng = np.random.default_rng(24)
    f = lambda *s: rng.normal(size=s).astype(np.float32)  # noqa: E731
    nan = f(3, 5)
    nan[0, 1] = nan[2, 3] = nan[2, 0] = np.nan
    allnan = nan.copy()
    allnan[1] = np.nan
    a = f(3, 3).astype(np.float64)
    return dict(x=f(3, 5), v=f(7), nan=nan, allnan=allnan, img=f(2, 6, 7, 4), img_cf=f(2, 4, 6, 7), sig=f(2, 40),
                a=a, spd=a @ a.T + 3 * np.eye(3), i=np.array([12, 10, 7, -5], np.int32),
                i8=np.array([3, 1, 3, 2, 1, 3], np.int8), u=np.array([5, 3, 250], np.uint8),
                logits=f(2, 8, 5), k3=f(3, 3, 4, 2), pw=f(1, 1, 8, 3), kt=f(3, 3, 6, 4), kt1=f(3, 6, 4),
                tall=rng.normal(size=(6, 3)), rhs=rng.normal(size=(6, 2)), cols=f(2, 16, 30))


def value_cases(ops):
    """name -> a call of ``ops`` (keras.ops or tapegrad.keras.ops) giving a tensor or a tuple of them."""
    d = _inputs()
    x, v, nan, allnan, img, i, i8, u = d["x"], d["v"], d["nan"], d["allnan"], d["img"], d["i"], d["i8"], d["u"]
    return {
        # bitwise and integer
        "bitwise_and": lambda: ops.bitwise_and(i, np.int32(6)), "bitwise_or_i8": lambda: ops.bitwise_or(i8, i8[::-1]),
        "bitwise_xor_mixed": lambda: ops.bitwise_xor(i8, np.arange(6, dtype=np.int16)),
        "bitwise_not": lambda: ops.bitwise_not(i), "bitwise_invert_u8": lambda: ops.bitwise_invert(u),
        "left_shift": lambda: ops.left_shift(i, 2), "right_shift": lambda: ops.right_shift(i, np.array([1, 2, 3, 1], np.int32)),
        "bitwise_left_shift_u8": lambda: ops.bitwise_left_shift(u, np.uint8(1)),
        "bitwise_right_shift_int": lambda: ops.bitwise_right_shift(u, 2),
        "gcd": lambda: ops.gcd(i, np.int32(4)), "lcm": lambda: ops.lcm(i, np.array([3, 4, 5, 6], np.int32)),
        "gcd_i8": lambda: ops.gcd(i8, np.int8(6)),
        # elementwise
        "angle": lambda: ops.angle(x), "angle_int": lambda: ops.angle(i), "angle_complex": lambda: ops.angle(x + 1j * x[::-1]),
        "fabs": lambda: ops.fabs(x), "fabs_int": lambda: ops.fabs(i), "fmax": lambda: ops.fmax(nan, x),
        "fmin_scalar": lambda: ops.fmin(nan, 0.5), "fmax_int": lambda: ops.fmax(i, np.int32(8)),
        "heaviside": lambda: ops.heaviside(np.array([-1.5, 0.0, 2.0], np.float32), 0.5),
        "heaviside_int": lambda: ops.heaviside(np.array([-1, 0, 2], np.int32), np.int32(3)),
        "i0": lambda: ops.i0(x), "i0_int": lambda: ops.i0(i), "i0_f64": lambda: ops.i0(d["a"]),
        "ldexp": lambda: ops.ldexp(x, np.array([1, 2, -1, 0, 3], np.int32)), "ldexp_int": lambda: ops.ldexp(i, np.int32(2)),
        "nextafter": lambda: ops.nextafter(x, np.float32(0.0)), "nextafter_f64": lambda: ops.nextafter(d["a"], 10.0),
        # windows and spaces
        "bartlett": lambda: ops.bartlett(7), "blackman": lambda: ops.blackman(6), "hamming": lambda: ops.hamming(7),
        "hanning": lambda: ops.hanning(6), "kaiser": lambda: ops.kaiser(7, 4.0), "blackman1": lambda: ops.blackman(1),
        "geomspace": lambda: ops.geomspace(1.0, 1000.0, 7), "geomspace_neg": lambda: ops.geomspace(-2.0, -32.0, 5, endpoint=False),
        "geomspace_arr": lambda: ops.geomspace(np.array([1.0, 2.0]), np.array([100.0, 32.0]), 4),
        "logspace": lambda: ops.logspace(0.0, 2.0, 5), "logspace_base": lambda: ops.logspace(1.0, 4.0, 4, base=2.0),
        # counting and bins
        "bincount": lambda: ops.bincount(np.array([1, 1, 3, 0], np.int32)),
        "bincount_w": lambda: ops.bincount(np.array([1, 1, 3], np.int32), weights=np.array([0.5, 1.0, 2.0], np.float32), minlength=6),
        "bincount_2d": lambda: ops.bincount(np.array([[1, 1, 3], [0, 2, 2]], np.int32), minlength=5),
        "bincount_i8_wi": lambda: ops.bincount(i8, weights=np.arange(6, dtype=np.int16)),
        "digitize": lambda: ops.digitize(x, [-1.0, 0.0, 0.5, 2.0]), "digitize_int": lambda: ops.digitize(i, [0, 8, 11]),
        "histogram": lambda: ops.histogram(v, bins=4), "histogram_range": lambda: ops.histogram(x.ravel(), bins=5, range=(-1.0, 1.0)),
        "unique": lambda: ops.unique(i8), "unique_all": lambda: ops.unique(i8, return_index=True, return_inverse=True, return_counts=True),
        "unique_unsorted": lambda: ops.unique(i8, sorted=False, return_inverse=True),
        "unique_axis": lambda: ops.unique(np.array([[1, 2], [3, 4], [1, 2]], np.int32), axis=0, return_counts=True),
        "unique_size": lambda: ops.unique(i8, size=5, fill_value=-1),
        "unravel_index": lambda: ops.unravel_index(np.array([5, 7, 11], np.int32), (3, 4)),
        # shapes
        "dsplit": lambda: ops.dsplit(img, [1, 3]), "rot90": lambda: ops.rot90(x), "rot90_k2": lambda: ops.rot90(img[:, :6, :6], 2, axes=(1, 2)),
        "rot90_k3": lambda: ops.rot90(img, -1, axes=(2, 1)), "view": lambda: ops.view(x, "int32"),
        "view_int8": lambda: ops.view(np.arange(4, dtype=np.int32), "int8"), "view_wide": lambda: ops.view(np.arange(8, dtype=np.int16), "int32"),
        "vander": lambda: ops.vander(v), "vander_inc": lambda: ops.vander(np.array([1, 2, 3], np.int32), 4, increasing=True),
        "select": lambda: ops.select([x > 0.5, x < -0.5], [x, -x], 7.0),
        "select_int": lambda: ops.select([i > 8, i < 0], [i, np.zeros(4, np.int32)], 1),
        "trapezoid": lambda: ops.trapezoid(x), "trapezoid_x": lambda: ops.trapezoid(x, x=np.cumsum(np.abs(x), axis=0), axis=0),
        "trapezoid_int": lambda: ops.trapezoid(i, dx=0.5),
        "cross": lambda: ops.cross(x[:, :3], x[::-1, 1:4]), "cross_2d": lambda: ops.cross(x[:, :2], x[:, 2:4]),
        "cross_mixed": lambda: ops.cross(x[:, :2], x[:, 2:5]), "cross_axis": lambda: ops.cross(x[:, :3].T, x[:, 1:4].T, axis=0),
        "corrcoef": lambda: ops.corrcoef(x), "corrcoef_int": lambda: ops.corrcoef(np.array([[1, 2, 4, 7], [3, 1, 0, 2]], np.int32)),
        "correlate_valid": lambda: ops.correlate(v, v[:3]), "correlate_same": lambda: ops.correlate(v, v[:4], mode="same"),
        "correlate_full": lambda: ops.correlate(v[:4], v, mode="full"), "correlate_int": lambda: ops.correlate(i, i[:2]),
        # NaN-aware reductions
        "nanargmax": lambda: ops.nanargmax(nan, axis=1), "nanargmin_all": lambda: ops.nanargmin(allnan, axis=1),
        "nanargmax_flat": lambda: ops.nanargmax(nan), "nanargmin_int": lambda: ops.nanargmin(i),
        "nancumsum": lambda: ops.nancumsum(nan, axis=1), "nancumprod": lambda: ops.nancumprod(nan),
        "nanprod": lambda: ops.nanprod(nan, axis=0), "nanprod_int": lambda: ops.nanprod(i, keepdims=True),
        "nanvar": lambda: ops.nanvar(nan, axis=1), "nanstd": lambda: ops.nanstd(nan), "nanstd_all": lambda: ops.nanstd(allnan, axis=1, keepdims=True),
        "nanvar_int": lambda: ops.nanvar(i),
        "nanquantile": lambda: ops.nanquantile(nan, 0.3, axis=1), "nanquantile_q": lambda: ops.nanquantile(nan, [0.25, 0.8], axis=0),
        "nanquantile_all": lambda: ops.nanquantile(allnan, 0.5, axis=1), "nanmedian": lambda: ops.nanmedian(nan),
        "nanmedian_k": lambda: ops.nanmedian(nan, axis=1, keepdims=True),
        "nanquantile_lower": lambda: ops.nanquantile(nan, 0.4, axis=1, method="lower"),
        "nanquantile_higher": lambda: ops.nanquantile(nan, 0.4, axis=1, method="higher"),
        "nanquantile_midpoint": lambda: ops.nanquantile(nan, 0.4, axis=1, method="midpoint"),
        "nanquantile_nearest": lambda: ops.nanquantile(nan, 0.4, axis=1, method="nearest"),
        "nanpercentile": lambda: ops.nanpercentile(nan, 70.0, axis=0),
        # math
        "segment_min": lambda: ops.segment_min(x, np.array([0, 2, 0], np.int32)),
        "segment_max_gap": lambda: ops.segment_max(x, np.array([0, 3, 0], np.int32)),
        "segment_sum_gap": lambda: ops.segment_sum(x, np.array([0, 1, 0], np.int32)),
        "segment_prod": lambda: ops.segment_prod(x, np.array([0, 0, 1], np.int32), sorted=True),
        "segment_prod_n": lambda: ops.segment_prod(v, np.array([1, 1, 0, 3, 3, 3, 0], np.int32), num_segments=5),
        "extract_sequences": lambda: ops.extract_sequences(d["sig"], 8, 5),
        "fft": lambda: ops.fft((x, x[::-1])), "fft2": lambda: ops.fft2((img[..., 0], img[..., 1])),
        "ifft2": lambda: ops.ifft2((img[..., 0], img[..., 1])), "rfft": lambda: ops.rfft(x), "rfft_len": lambda: ops.rfft(x, 8),
        "irfft": lambda: ops.irfft((x, x[::-1])), "irfft_len": lambda: ops.irfft((x, x[::-1]), 6),
        "stft": lambda: ops.stft(d["sig"], 8, 4, 16), "stft_hamming": lambda: ops.stft(d["sig"], 10, 3, 10, window="hamming", center=False),
        "stft_none": lambda: ops.stft(d["sig"], 8, 4, 8, window=None),
        "istft": lambda: ops.istft(ops.stft(d["sig"], 8, 4, 16), 8, 4, 16),
        "istft_len": lambda: ops.istft(ops.stft(d["sig"], 10, 3, 10, window="hamming", center=False), 10, 3, 10, length=30,
                                       window="hamming", center=False),
        "view_as_complex": lambda: ops.view_as_complex(x[:, :2]), "view_as_real": lambda: ops.view_as_real(x + 2j * x),
        # nn
        "sparse_sigmoid": lambda: ops.sparse_sigmoid(2 * x), "sparsemax": lambda: ops.sparsemax(x),
        "sparsemax_axis0": lambda: ops.sparsemax(2 * x, axis=0), "polar": lambda: ops.polar(np.abs(x), x),
        "layer_normalization": lambda: ops.layer_normalization(x), "layer_normalization_gb": lambda: ops.layer_normalization(
            img, gamma=np.linspace(0.5, 2, 4, dtype=np.float32), beta=np.ones(4, np.float32), epsilon=1e-3),
        "layer_normalization_axes": lambda: ops.layer_normalization(img, axis=(1, 2)),
        "depth_to_space": lambda: ops.depth_to_space(img, 2), "depth_to_space_cf": lambda: ops.depth_to_space(d["img_cf"], 2, "channels_first"),
        "space_to_depth": lambda: ops.space_to_depth(img[:, :, :6], 2), "space_to_depth_cf": lambda: ops.space_to_depth(
            d["img_cf"][:, :, :, :6], 3, "channels_first"),
        "unfold": lambda: ops.unfold(d["img_cf"], 2), "unfold_args": lambda: ops.unfold(d["img_cf"], (2, 3), dilation=(1, 2), padding=1, stride=2),
        "fold": lambda: ops.fold(ops.unfold(d["img_cf"], 2), (6, 7), 2),
        "fold_args": lambda: ops.fold(ops.unfold(d["img_cf"], (2, 3), dilation=(1, 2), padding=1, stride=2), (6, 7), (2, 3),
                                      dilation=(1, 2), padding=1, stride=2),
        "separable_conv": lambda: ops.separable_conv(img, d["k3"], d["pw"], strides=2, padding="same"),
        "separable_conv_1d": lambda: ops.separable_conv(img[:, 0], d["k3"][0], d["pw"][0], dilation_rate=2),
        "conv_transpose": lambda: ops.conv_transpose(img, d["kt"], strides=2, padding="same"),
        "conv_transpose_valid": lambda: ops.conv_transpose(img, d["kt"], strides=(2, 3)),
        "conv_transpose_op": lambda: ops.conv_transpose(img[:, 0], d["kt1"], strides=2, output_padding=1),
        "conv_transpose_cf": lambda: ops.conv_transpose(d["img_cf"], d["kt"], strides=2, padding="same", data_format="channels_first",
                                                        output_padding=0),
        "adaptive_average_pool": lambda: ops.adaptive_average_pool(ops.convert_to_tensor(img), (4, 3)),
        "adaptive_max_pool": lambda: ops.adaptive_max_pool(ops.convert_to_tensor(img), 4),
        "adaptive_average_pool_1d": lambda: ops.adaptive_average_pool(ops.convert_to_tensor(img[:, 0]), 3),
        "adaptive_max_pool_cf": lambda: ops.adaptive_max_pool(d["img_cf"], (5, 2), data_format="channels_first"),
        "ctc_loss": lambda: ops.ctc_loss(np.array([[1, 2, 2], [3, 1, 0]], np.int32), d["logits"], np.array([3, 2], np.int32),
                                         np.array([8, 6], np.int32)),
        "ctc_loss_mask": lambda: ops.ctc_loss(np.array([[1, 2, 0], [3, 1, 0]], np.int32), d["logits"], np.array([3, 2], np.int32),
                                              np.array([8, 6], np.int32), mask_index=4),
        "ctc_decode": lambda: ops.ctc_decode(d["logits"], np.array([8, 6], np.int32)),
        "ctc_decode_nomerge": lambda: ops.ctc_decode(d["logits"], np.array([8, 5], np.int32), merge_repeated=False, mask_index=2),
        "ctc_decode_blank_last": lambda: ops.ctc_decode(d["logits"], np.array([8, 7], np.int32), mask_index=None),
        "ctc_decode_beam_mask": lambda: ops.ctc_decode(d["logits"], np.array([8, 7], np.int32), strategy="beam_search",
                                                       beam_width=5, top_paths=3, mask_index=2),
        "ctc_decode_beam": lambda: ops.ctc_decode(d["logits"], np.array([8, 6], np.int32), strategy="beam_search", beam_width=20,
                                                  top_paths=2),
        # linalg
        "cholesky_inverse": lambda: ops.cholesky_inverse(np.linalg.cholesky(d["spd"])),
        "cholesky_inverse_upper": lambda: ops.cholesky_inverse(np.linalg.cholesky(d["spd"]).T, upper=True),
        "eig": lambda: ops.eig(d["spd"])[0], "lu_factor": lambda: ops.lu_factor(d["a"]),
        "lstsq": lambda: ops.lstsq(d["tall"], d["rhs"]), "lstsq_vec": lambda: ops.lstsq(d["tall"], d["rhs"][:, 0]),
        "matrix_rank": lambda: ops.matrix_rank(np.outer(v, v)), "matrix_rank_tol": lambda: ops.matrix_rank(d["a"], tol=0.5),
        "jvp": lambda: ops.jvp(lambda a, b: ops.sin(a) * b, (ops.convert_to_tensor(x), ops.convert_to_tensor(x[::-1])),
                              (ops.convert_to_tensor(np.ones_like(x)), ops.convert_to_tensor(x))),
        # core and einops
        "associative_scan": lambda: ops.associative_scan(lambda a, b: a + b, v),
        "associative_scan_rev": lambda: ops.associative_scan(lambda a, b: a * b, x, reverse=True, axis=1),
        "associative_scan_tree": lambda: ops.associative_scan(lambda a, b: (a[0] + b[0], a[1] * b[1]), (x, x + 2.0)),
        "rearrange": lambda: ops.rearrange(img, "b (h1 h) w c -> (b h1) w h c", h1=2),
        "rearrange_merge": lambda: ops.rearrange(img, "b h w c -> b (c h) w"),
    }


def _w(out_shape):
    """A fixed cotangent of ``out_shape`` (weights of the loss ``sum(w * out)``)."""
    n = int(np.prod(out_shape))
    return np.cos(np.arange(n) * 0.7 + 0.3).reshape(out_shape)


def grad_cases():
    """name -> (f(ops, x), x): the tests take the gradient of ``sum(w * f(ops, x))`` in x."""
    d = _inputs()
    x, nan, img, v = d["x"], d["nan"], d["img"], d["v"]
    return {
        "angle": (lambda ops, t: ops.angle(t), x), "fabs": (lambda ops, t: ops.fabs(t), x),
        "fmax": (lambda ops, t: ops.fmax(t, ops.convert_to_tensor(nan)), x),
        "fmin": (lambda ops, t: ops.fmin(t, 0.2), x), "i0": (lambda ops, t: ops.i0(t), x),
        "ldexp": (lambda ops, t: ops.ldexp(t, np.array([1, 2, -1, 0, 3], np.int32)), x),
        "geomspace": (lambda ops, t: ops.geomspace(t, 40.0, 5), np.float32(2.0)),
        "nancumsum": (lambda ops, t: ops.nancumsum(t, axis=1), nan), "nancumprod": (lambda ops, t: ops.nancumprod(t, axis=0), nan),
        "nanprod": (lambda ops, t: ops.nanprod(t, axis=1), nan), "nanvar": (lambda ops, t: ops.nanvar(t, axis=1), nan),
        "nanstd": (lambda ops, t: ops.nanstd(t), nan), "nanquantile": (lambda ops, t: ops.nanquantile(t, [0.3, 0.6], axis=1), nan),
        "nanmedian": (lambda ops, t: ops.nanmedian(t, axis=0), nan),
        "rot90": (lambda ops, t: ops.rot90(t), x), "select": (lambda ops, t: ops.select([t > 0.5, t < -0.5], [t, t * t], 7.0), x),
        "trapezoid": (lambda ops, t: ops.trapezoid(t, axis=0), x), "vander": (lambda ops, t: ops.vander(t), v),
        "cross": (lambda ops, t: ops.cross(t[:, :3], t[:, 1:4]), x), "corrcoef": (lambda ops, t: ops.corrcoef(t), x),
        "correlate": (lambda ops, t: ops.correlate(t, t[:3], mode="same"), v),
        "heaviside": (lambda ops, t: ops.heaviside(np.array([-1.0, 0.0, 2.0], np.float32), t), np.float32([0.3, 0.5, 0.7])),
        "segment_min": (lambda ops, t: ops.segment_min(t, np.array([0, 2, 0], np.int32)), x),
        "segment_prod": (lambda ops, t: ops.segment_prod(t, np.array([0, 0, 1], np.int32), num_segments=2), x),
        "extract_sequences": (lambda ops, t: ops.extract_sequences(t, 8, 5), d["sig"]),
        "fft": (lambda ops, t: ops.stack(ops.fft((t, ops.flip(t, 0)))), x),
        "fft2": (lambda ops, t: ops.stack(ops.fft2((t, t * t))), x), "ifft2": (lambda ops, t: ops.stack(ops.ifft2((t, t))), x),
        "rfft": (lambda ops, t: ops.stack(ops.rfft(t, 8)), x), "irfft": (lambda ops, t: ops.irfft((t, ops.flip(t, 0)), 8), x),
        "stft": (lambda ops, t: ops.stack(ops.stft(t, 8, 4, 16)), d["sig"]),
        "istft": (lambda ops, t: ops.istft((t, t * 0.5), 8, 4, 16), d["sig"][:, :36].reshape(8, 9)),
        "sparse_sigmoid": (lambda ops, t: ops.sparse_sigmoid(2 * t), x), "sparsemax": (lambda ops, t: ops.sparsemax(t), x),
        "polar": (lambda ops, t: ops.view_as_real(ops.polar(t, t * 0.5)), x),
        "layer_normalization": (lambda ops, t: ops.layer_normalization(t, gamma=np.linspace(0.5, 2, 4, dtype=np.float32),
                                                                       beta=np.ones(4, np.float32)), img),
        "depth_to_space": (lambda ops, t: ops.depth_to_space(t, 2), img),
        "space_to_depth": (lambda ops, t: ops.space_to_depth(t[:, :, :6], 2), img),
        "dsplit": (lambda ops, t: ops.dsplit(t, [1, 3])[1] * 2.0, img),
        "view_as_complex": (lambda ops, t: ops.view_as_real(ops.view_as_complex(t[:, :2]) * ops.view_as_complex(t[:, 2:4])), x),
        "nanpercentile": (lambda ops, t: ops.nanpercentile(t, 35.0, axis=0), nan),
        "unfold": (lambda ops, t: ops.unfold(t, (2, 3), dilation=(1, 2), padding=1, stride=2), d["img_cf"]),
        "fold": (lambda ops, t: ops.fold(t, (6, 7), 2), d["cols"]),
        "separable_conv": (lambda ops, t: ops.separable_conv(t, d["k3"], d["pw"], strides=2, padding="same"), img),
        "conv_transpose": (lambda ops, t: ops.conv_transpose(t, d["kt"], strides=2, padding="same"), img),
        "adaptive_average_pool": (lambda ops, t: ops.adaptive_average_pool(t, (4, 3)), img),
        "adaptive_max_pool": (lambda ops, t: ops.adaptive_max_pool(t, (4, 3)), img),
        "ctc_loss": (lambda ops, t: ops.ctc_loss(np.array([[1, 2, 2], [3, 1, 0]], np.int32), t, np.array([3, 2], np.int32),
                                                 np.array([8, 6], np.int32)), d["logits"]),
        "cholesky_inverse": (lambda ops, t: ops.cholesky_inverse(t), np.linalg.cholesky(d["spd"])),
        "lstsq": (lambda ops, t: ops.lstsq(t, d["rhs"]), d["tall"]),
        "associative_scan": (lambda ops, t: ops.associative_scan(lambda a, b: a * b, t, axis=1), x),
        "rearrange": (lambda ops, t: ops.rearrange(t, "b (h1 h) w c -> (b h1) w h c", h1=2), img),
        "logspace": (lambda ops, t: ops.logspace(t, 3.0, 4), np.float32(0.5)),
    }


# dtype sweeps: each op over every dtype (unary) or pair of dtypes and Python scalars (binary), on the
# 2x2 arrays of tests/keras_dtype_cases.py
UNARY = {
    "angle": lambda o, x: o.angle(x), "fabs": lambda o, x: o.fabs(x), "i0": lambda o, x: o.i0(x),
    "nancumsum": lambda o, x: o.nancumsum(x, axis=0), "nancumprod": lambda o, x: o.nancumprod(x),
    "nanprod": lambda o, x: o.nanprod(x, axis=1), "nanvar": lambda o, x: o.nanvar(x), "nanstd": lambda o, x: o.nanstd(x, axis=0),
    "nanargmax": lambda o, x: o.nanargmax(x, axis=1), "nanargmin": lambda o, x: o.nanargmin(x),
    "nanmedian": lambda o, x: o.nanmedian(x, axis=0), "nanquantile": lambda o, x: o.nanquantile(x, 0.3, axis=1),
    "nanpercentile": lambda o, x: o.nanpercentile(x, 30.0), "sparse_sigmoid": lambda o, x: o.sparse_sigmoid(x),
    "sparsemax": lambda o, x: o.sparsemax(x), "trapezoid": lambda o, x: o.trapezoid(x),
    "vander": lambda o, x: o.vander(o.reshape(x, (-1,))), "corrcoef": lambda o, x: o.corrcoef(x),
    "rot90": lambda o, x: o.rot90(x), "bitwise_invert": lambda o, x: o.bitwise_invert(x),
    "digitize": lambda o, x: o.digitize(x, [1.5, 3.0]), "layer_normalization": lambda o, x: o.layer_normalization(x),
    "histogram": lambda o, x: o.histogram(o.reshape(x, (-1,)), bins=3)[0],
    "unique": lambda o, x: o.unique(x), "segment_min": lambda o, x: o.segment_min(x, np.array([0, 1], np.int32)),
    "segment_prod": lambda o, x: o.segment_prod(x, np.array([1, 1], np.int32), num_segments=2),
    "bincount": lambda o, x: o.bincount(o.reshape(x, (-1,))), "right_shift1": lambda o, x: o.right_shift(x, 1),
    "cross": lambda o, x: o.cross(x, x[::-1]), "extract_sequences": lambda o, x: o.extract_sequences(x, 1, 1),
    "fold": lambda o, x: o.fold(o.reshape(x, (1, 1, 4)), (3, 3), 2), "unfold": lambda o, x: o.unfold(o.reshape(x, (1, 1, 2, 2)), 1),
    "depth_to_space": lambda o, x: o.depth_to_space(o.reshape(x, (1, 1, 1, 4)), 2),
    # (a window wider than the input, 2x2 pooled to 1, kills TensorFlow 2.21 with SIGFPE)
    "adaptive_max_pool": lambda o, x: o.adaptive_max_pool(o.reshape(x, (1, 4, 1)), 3),
    "adaptive_average_pool": lambda o, x: o.adaptive_average_pool(o.reshape(x, (1, 4, 1)), 3),
    "rearrange": lambda o, x: o.rearrange(x, "a b -> (b a)"),
}
BINARY = {
    "fmax": lambda o, a, b: o.fmax(a, b), "fmin": lambda o, a, b: o.fmin(a, b), "heaviside": lambda o, a, b: o.heaviside(a, b),
    "nextafter": lambda o, a, b: o.nextafter(a, b), "ldexp": lambda o, a, b: o.ldexp(a, b),
    "bitwise_and": lambda o, a, b: o.bitwise_and(a, b), "bitwise_or": lambda o, a, b: o.bitwise_or(a, b),
    "bitwise_xor": lambda o, a, b: o.bitwise_xor(a, b), "left_shift": lambda o, a, b: o.left_shift(a, b),
    "right_shift": lambda o, a, b: o.right_shift(a, b), "gcd": lambda o, a, b: o.gcd(a, b), "lcm": lambda o, a, b: o.lcm(a, b),
    "cross": lambda o, a, b: o.cross(a, b), "correlate": lambda o, a, b: o.correlate(o.reshape(a, (-1,)), o.reshape(b, (-1,))[:2]),
    "polar": lambda o, a, b: o.polar(a, b), "trapezoid": lambda o, a, b: o.trapezoid(a, b),
}
BINARY_TENSORS = {"cross", "correlate", "trapezoid"}  # (ops that reshape or slice their operands: no Python scalars)


def dtype_cases(ops):
    """key -> a call: ``unary/<op>/<dtype>`` and ``binary/<op>/<dtype or scalar>/<dtype or scalar>``."""
    from keras_dtype_cases import DTYPES, SCALARS, array
    out = {}
    for name, f in UNARY.items():
        for dt in DTYPES:
            out[f"unary/{name}/{dt}"] = lambda f=f, dt=dt: f(ops, ops.convert_to_tensor(array(dt)))
    for name, f in BINARY.items():
        sides = DTYPES + ([] if name in BINARY_TENSORS else list(SCALARS))
        for d1 in sides:
            for d2 in sides:
                if d1 in SCALARS and d2 in SCALARS:
                    continue
                a = SCALARS[d1] if d1 in SCALARS else array(d1, 0)
                b = SCALARS[d2] if d2 in SCALARS else array(d2, 1)
                out[f"binary/{name}/{d1}/{d2}"] = (lambda f=f, a=a, b=b: f(
                    ops, a if type(a) in (int, float, bool) else ops.convert_to_tensor(a),
                    b if type(b) in (int, float, bool) else ops.convert_to_tensor(b)))
    return out
