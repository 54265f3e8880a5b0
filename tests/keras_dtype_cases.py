"""The cases of tools/record_keras_dtypes.py, shared with tests/test_keras_dtypes.py: every
keras.ops op over every dtype (unary) or pair of dtypes and Python scalars (binary), and layers
over every input dtype. ``ops``/``keras`` are the modules passed in (Keras's or tapegrad's);
``tensor(name)`` builds the input of one dtype."""
import numpy as np

DTYPES = ["bool", "uint8", "uint16", "uint32", "int8", "int16", "int32", "int64",
          "float16", "float32", "float64"]
SCALARS = {"pyint": 2, "pyfloat": 1.5, "pybool": True}
PROMOTION = DTYPES + ["uint64", "complex64", "complex128", "int", "float"]  # for result_type


def promotion_type(name):
    """A name of PROMOTION as result_type takes it ("int" and "float": the weak Python types)."""
    return {"int": int, "float": float}.get(name, name)


def array(dtype, k=0):
    """A 2x2 array of ``dtype`` with values every dtype holds (nonzero, so division is defined)."""
    if dtype == "bool":
        return np.array([[True, False], [True, True]][::1 - 2 * k])
    return (np.array([[1, 2], [3, 4]]) if k == 0 else np.array([[2, 1], [1, 3]])).astype(dtype)


UNARY = {
    "abs": lambda o, x: o.abs(x), "negative": lambda o, x: o.negative(x),
    "exp": lambda o, x: o.exp(x), "expm1": lambda o, x: o.expm1(x), "log": lambda o, x: o.log(x),
    "log1p": lambda o, x: o.log1p(x), "log2": lambda o, x: o.log2(x),
    "log10": lambda o, x: o.log10(x), "sqrt": lambda o, x: o.sqrt(x),
    "rsqrt": lambda o, x: o.rsqrt(x), "square": lambda o, x: o.square(x),
    "sign": lambda o, x: o.sign(x), "sin": lambda o, x: o.sin(x), "cos": lambda o, x: o.cos(x),
    "tan": lambda o, x: o.tan(x), "tanh": lambda o, x: o.tanh(x),
    "arctan": lambda o, x: o.arctan(x), "floor": lambda o, x: o.floor(x),
    "ceil": lambda o, x: o.ceil(x), "round": lambda o, x: o.round(x), "erf": lambda o, x: o.erf(x),
    "sum": lambda o, x: o.sum(x), "sum_axis": lambda o, x: o.sum(x, axis=0),
    "mean": lambda o, x: o.mean(x), "max": lambda o, x: o.max(x), "min": lambda o, x: o.min(x),
    "max_initial": lambda o, x: o.max(x, initial=2), "prod": lambda o, x: o.prod(x),
    "std": lambda o, x: o.std(x), "var": lambda o, x: o.var(x),
    "argmax": lambda o, x: o.argmax(x), "argmin": lambda o, x: o.argmin(x),
    "all": lambda o, x: o.all(x), "any": lambda o, x: o.any(x),
    "logsumexp": lambda o, x: o.logsumexp(x), "norm": lambda o, x: o.norm(x),
    "cumsum": lambda o, x: o.cumsum(x), "cumprod": lambda o, x: o.cumprod(x),
    "sort": lambda o, x: o.sort(x), "argsort": lambda o, x: o.argsort(x),
    "softmax": lambda o, x: o.softmax(x), "log_softmax": lambda o, x: o.log_softmax(x),
    "sigmoid": lambda o, x: o.sigmoid(x), "relu": lambda o, x: o.relu(x),
    "relu6": lambda o, x: o.relu6(x), "elu": lambda o, x: o.elu(x), "selu": lambda o, x: o.selu(x),
    "gelu": lambda o, x: o.gelu(x), "silu": lambda o, x: o.silu(x),
    "softplus": lambda o, x: o.softplus(x), "leaky_relu": lambda o, x: o.leaky_relu(x),
    "normalize": lambda o, x: o.normalize(x), "ones_like": lambda o, x: o.ones_like(x),
    "zeros_like": lambda o, x: o.zeros_like(x), "full_like": lambda o, x: o.full_like(x, 3),
    "transpose": lambda o, x: o.transpose(x), "flip": lambda o, x: o.flip(x),
    "trace": lambda o, x: o.trace(x), "diagonal": lambda o, x: o.diagonal(x),
    "logical_not": lambda o, x: o.logical_not(x), "clip": lambda o, x: o.clip(x, 0, 3),
    "one_hot": lambda o, x: o.one_hot(x, 5), "reshape": lambda o, x: o.reshape(x, (4,)),
    "expand_dims": lambda o, x: o.expand_dims(x, 0), "tile": lambda o, x: o.tile(x, 2),
    "repeat": lambda o, x: o.repeat(x, 2), "stop_gradient": lambda o, x: o.stop_gradient(x),
    "take": lambda o, x: o.take(x, [0, 1]), "top_k": lambda o, x: o.top_k(x, 1)[0],
    "pad": lambda o, x: o.pad(x, [[1, 0], [0, 1]]),
    "where_1": lambda o, x: o.where(x),
    "binary_crossentropy": lambda o, x: o.binary_crossentropy(x, o.cast(x, "float32") / 8),
    "arccos": lambda o, x: o.arccos(x), "arccosh": lambda o, x: o.arccosh(x),
    "arcsin": lambda o, x: o.arcsin(x), "arcsinh": lambda o, x: o.arcsinh(x),
    "arctanh": lambda o, x: o.arctanh(x), "cosh": lambda o, x: o.cosh(x),
    "sinh": lambda o, x: o.sinh(x), "exp2": lambda o, x: o.exp2(x),
    "reciprocal": lambda o, x: o.reciprocal(x), "trunc": lambda o, x: o.trunc(x),
    "isnan": lambda o, x: o.isnan(x), "isinf": lambda o, x: o.isinf(x),
    "isfinite": lambda o, x: o.isfinite(x), "nan_to_num": lambda o, x: o.nan_to_num(x),
    "copy": lambda o, x: o.copy(x), "conjugate": lambda o, x: o.conjugate(x),
    "ravel": lambda o, x: o.ravel(x), "count_nonzero": lambda o, x: o.count_nonzero(x, axis=0),
    "amax": lambda o, x: o.amax(x, axis=1), "ptp": lambda o, x: o.ptp(x, axis=0),
    "average": lambda o, x: o.average(x, axis=0),
    "average_weighted": lambda o, x: o.average(x, axis=1, weights=np.array([1.0, 3.0], "float32")),
    "moveaxis": lambda o, x: o.moveaxis(o.expand_dims(x, 0), 0, -1),
    "swapaxes": lambda o, x: o.swapaxes(x, 0, 1), "roll": lambda o, x: o.roll(x, 1),
    "roll_axis": lambda o, x: o.roll(x, 1, axis=1), "fliplr": lambda o, x: o.fliplr(x),
    "flipud": lambda o, x: o.flipud(x), "tril": lambda o, x: o.tril(x), "triu": lambda o, x: o.triu(x, 1),
    "diag": lambda o, x: o.diag(x), "diag_vector": lambda o, x: o.diag(o.ravel(x), -1),
    "nonzero": lambda o, x: o.nonzero(x), "log_sigmoid": lambda o, x: o.log_sigmoid(x),
    "softsign": lambda o, x: o.softsign(x), "hard_sigmoid": lambda o, x: o.hard_sigmoid(x),
    "hard_silu": lambda o, x: o.hard_silu(x), "celu": lambda o, x: o.celu(x),
    "glu": lambda o, x: o.glu(x), "hard_tanh": lambda o, x: o.hard_tanh(x),
    "hard_shrink": lambda o, x: o.hard_shrink(x, 1.5), "soft_shrink": lambda o, x: o.soft_shrink(x, 1.5),
    "tanh_shrink": lambda o, x: o.tanh_shrink(x), "squareplus": lambda o, x: o.squareplus(x),
    "sparse_plus": lambda o, x: o.sparse_plus(x), "threshold": lambda o, x: o.threshold(x, 2, 0),
    "moments": lambda o, x: o.moments(x, [0]), "multi_hot": lambda o, x: o.multi_hot(x, 5),
    "slice": lambda o, x: o.slice(x, [0, 1], [2, 1]),
    "slice_update": lambda o, x: o.slice_update(x, [1, 0], x[:1]),
    "scatter_update": lambda o, x: o.scatter_update(x, [[0, 1]], x[1, :1]),
    "searchsorted": lambda o, x: o.searchsorted(o.ravel(x), x),
    "cbrt": lambda o, x: o.cbrt(x), "deg2rad": lambda o, x: o.deg2rad(x),
    "rad2deg": lambda o, x: o.rad2deg(x), "signbit": lambda o, x: o.signbit(x),
    "sinc": lambda o, x: o.sinc(x), "diff": lambda o, x: o.diff(x), "diff_2_axis0": lambda o, x: o.diff(
        o.concatenate([x, x]), 2, axis=0),
    "isposinf": lambda o, x: o.isposinf(x), "isneginf": lambda o, x: o.isneginf(x),
    "isreal": lambda o, x: o.isreal(x), "real": lambda o, x: o.real(x), "erfc": lambda o, x: o.erfc(x),
    "diagflat": lambda o, x: o.diagflat(x), "array_split": lambda o, x: o.stack(o.array_split(
        o.concatenate([x, x[:1]]), 3)[1:]),
    "vsplit": lambda o, x: o.vsplit(x, 2)[1], "hsplit": lambda o, x: o.hsplit(x, 2)[0],
    "nansum": lambda o, x: o.nansum(x, axis=0), "nanmax": lambda o, x: o.nanmax(x),
    "nanmin": lambda o, x: o.nanmin(x, axis=1), "nanmean": lambda o, x: o.nanmean(x),
    "median": lambda o, x: o.median(x, axis=0), "quantile": lambda o, x: o.quantile(x, 0.25),
}

BINARY = {
    "add": lambda o, a, b: o.add(a, b), "subtract": lambda o, a, b: o.subtract(a, b),
    "multiply": lambda o, a, b: o.multiply(a, b), "divide": lambda o, a, b: o.divide(a, b),
    "true_divide": lambda o, a, b: o.true_divide(a, b),
    "floor_divide": lambda o, a, b: o.floor_divide(a, b), "mod": lambda o, a, b: o.mod(a, b),
    "power": lambda o, a, b: o.power(a, b), "maximum": lambda o, a, b: o.maximum(a, b),
    "minimum": lambda o, a, b: o.minimum(a, b), "equal": lambda o, a, b: o.equal(a, b),
    "not_equal": lambda o, a, b: o.not_equal(a, b), "greater": lambda o, a, b: o.greater(a, b),
    "greater_equal": lambda o, a, b: o.greater_equal(a, b), "less": lambda o, a, b: o.less(a, b),
    "less_equal": lambda o, a, b: o.less_equal(a, b),
    "logical_and": lambda o, a, b: o.logical_and(a, b),
    "logical_or": lambda o, a, b: o.logical_or(a, b),
    "where": lambda o, a, b: o.where(np.array([[True, False], [False, True]]), a, b),
    "append": lambda o, a, b: o.append(a, b), "arctan2": lambda o, a, b: o.arctan2(a, b),
    "logaddexp": lambda o, a, b: o.logaddexp(a, b), "hypot": lambda o, a, b: o.hypot(a, b),
    "divide_no_nan": lambda o, a, b: o.divide_no_nan(a, b),
    "logical_xor": lambda o, a, b: o.logical_xor(a, b), "isclose": lambda o, a, b: o.isclose(a, b),
    "fmod": lambda o, a, b: o.fmod(a, b), "logaddexp2": lambda o, a, b: o.logaddexp2(a, b),
    "isin": lambda o, a, b: o.isin(a, b),
}
BINARY_TENSORS = {  # operands that must be tensors (no Python scalar side)
    "matmul": lambda o, a, b: o.matmul(a, b), "dot": lambda o, a, b: o.dot(a, b),
    "tensordot": lambda o, a, b: o.tensordot(a, b, axes=1),
    "concatenate": lambda o, a, b: o.concatenate([a, b]), "stack": lambda o, a, b: o.stack([a, b]),
    "hstack": lambda o, a, b: o.hstack([a, b]), "vstack": lambda o, a, b: o.vstack([a, b]),
    "outer": lambda o, a, b: o.outer(a, b), "inner": lambda o, a, b: o.inner(a, b),
    "vdot": lambda o, a, b: o.vdot(a, b), "kron": lambda o, a, b: o.kron(a, b),
    "dstack": lambda o, a, b: o.dstack([a, b]),
}

_R = np.random.default_rng(0)
IMG = _R.normal(size=(2, 5, 5, 3)).astype("float32")
SEQ = _R.normal(size=(2, 7, 3)).astype("float32")
Q4 = _R.normal(size=(2, 4, 2, 3)).astype("float32")
K4 = _R.normal(size=(2, 4, 2, 3)).astype("float32")
NANS = np.array([1.0, np.nan, -2.0, 4.0], "float32")
SPD = (lambda m: (m @ m.T + 3 * np.eye(3)).astype("float32"))(_R.normal(size=(3, 3)))
GENERAL = {  # name -> fn(ops): ops on fixed float32 inputs of their own shapes (values and dtype)
    "conv2d": lambda o: o.conv(IMG, np.ones((2, 2, 3, 4), "float32") / 4),
    "conv2d_same_strided": lambda o: o.conv(IMG, IMG[0, :3, :3, :, None] * np.ones(2, "float32"),
                                            strides=2, padding="same"),
    "conv1d_dilated": lambda o: o.conv(SEQ, np.ones((2, 3, 2), "float32"), dilation_rate=2),
    "conv2d_channels_first": lambda o: o.conv(IMG.transpose(0, 3, 1, 2), np.ones((3, 3, 3, 2), "float32"),
                                              data_format="channels_first"),
    "depthwise_conv2d": lambda o: o.depthwise_conv(IMG, np.ones((2, 2, 3, 2), "float32")),
    "depthwise_conv1d": lambda o: o.depthwise_conv(SEQ, np.ones((3, 3, 1), "float32"), padding="same"),
    "max_pool2d": lambda o: o.max_pool(IMG, 2), "max_pool1d_same": lambda o: o.max_pool(SEQ, 3, 2, "same"),
    "average_pool2d": lambda o: o.average_pool(IMG, (2, 3), strides=1),
    "average_pool_channels_first": lambda o: o.average_pool(IMG.transpose(0, 3, 1, 2), 2,
                                                            data_format="channels_first"),
    "segment_sum": lambda o: o.segment_sum(SEQ[0], np.array([0, 0, 2, 2, 1, 1, 1])),
    "segment_sum_sorted": lambda o: o.segment_sum(SEQ[0], np.array([0, 0, 1, 1, 1, 2, 2]), sorted=True),
    "segment_max": lambda o: o.segment_max(SEQ[0], np.array([0, 0, 2, 2, 1, 1, 1]), num_segments=4),
    "in_top_k": lambda o: o.in_top_k(np.array([0, 2]), SEQ[0, :2], 2),
    "erfinv": lambda o: o.erfinv(np.array([-0.5, 0.0, 0.9], "float32")),
    "erfinv_float16": lambda o: o.erfinv(np.array([-0.5, 0.25], "float16")),
    "saturate_cast": lambda o: o.saturate_cast(np.array([-300.0, 7.5, 300.0], "float32"), "uint8"),
    "array": lambda o: o.array([1, 2], dtype="float64"),
    "inv": lambda o: o.inv(SPD), "det": lambda o: o.det(SPD),
    "solve": lambda o: o.solve(SPD, SEQ[0, :3]), "solve_vector": lambda o: o.solve(SPD, SEQ[0, 0]),
    "cholesky": lambda o: o.cholesky(SPD), "cholesky_upper": lambda o: o.cholesky(SPD, upper=True),
    "svd_s": lambda o: o.svd(SEQ[0], compute_uv=False),
    "svd_reconstructed": lambda o: (lambda u, s_, vh: o.matmul(u * s_, vh))(*o.svd(SEQ[0], full_matrices=False)),
    "qr_reconstructed": lambda o: o.matmul(*o.qr(SEQ[0])),
    "qr_complete_r": lambda o: o.abs(o.qr(SEQ[0], mode="complete")[1]),
    "eigh_values": lambda o: o.eigh(SPD)[0],
    "cdist": lambda o: o.cdist(SEQ[0], SEQ[1]),
    "nan_reductions": lambda o: o.stack([o.nansum(NANS), o.nanmax(NANS), o.nanmin(NANS), o.nanmean(NANS)]),
    "signbit_zeros": lambda o: o.signbit(np.array([-0.0, 0.0, -1.5, np.inf], "float32")),
    "logdet": lambda o: o.logdet(SPD), "slogdet": lambda o: o.stack(o.slogdet(SPD)),
    "pinv": lambda o: o.pinv(SEQ[0]), "solve_triangular": lambda o: o.solve_triangular(SPD, SEQ[0, :3]),
    "solve_triangular_lower": lambda o: o.solve_triangular(SPD, SEQ[0, 0], lower=True),
    "kron_ranks": lambda o: o.kron(SEQ[0, :2, :2], SEQ[0, 0]),
    "batch_normalization": lambda o: o.batch_normalization(SEQ, SEQ[0, 0], np.ones(3, "float32") * 2, -1,
                                                           offset=SEQ[1, 0], scale=SEQ[1, 1]),
    "batch_normalization_axis1": lambda o: o.batch_normalization(SEQ, SEQ[0, :, 0], np.ones(7, "float32"), 1),
    "rms_normalization": lambda o: o.rms_normalization(SEQ, scale=SEQ[1, 0]),
    "rms_normalization_float16": lambda o: o.rms_normalization(SEQ.astype("float16"), axis=(1, 2)),
    "attention": lambda o: o.dot_product_attention(Q4, K4, K4 * 2),
    "attention_causal_masked": lambda o: o.dot_product_attention(
        Q4, K4, K4, mask=np.array([[[[True, False, True, True]]]]), is_causal=True, scale=0.3),
    "attention_bias_grouped": lambda o: o.dot_product_attention(np.concatenate([Q4, Q4 / 2], 2), K4, K4,
                                                                bias=Q4[0, 0, 0, 0]),
    "psnr": lambda o: o.psnr(SEQ[0], SEQ[1], 2.0),
    "quantile_linear": lambda o: o.quantile(SEQ, np.array([0.1, 0.5, 0.9]), axis=1),
    "quantile_lower_keepdims": lambda o: o.quantile(SEQ, 0.3, axis=(0, 2), method="lower", keepdims=True),
    "quantile_higher_all": lambda o: o.quantile(SEQ, [0.25, 0.75], method="higher"),
    "quantile_midpoint": lambda o: o.quantile(SEQ, 0.4, axis=-1, method="midpoint"),
    "quantile_nearest_keepdims_all": lambda o: o.quantile(SEQ, [0.5], method="nearest", keepdims=True),
    "median_nan": lambda o: o.median(np.array([[1.0, np.nan, 3.0], [4.0, 2.0, 0.0]], "float32"), axis=1),
    "percentile": lambda o: o.percentile(SEQ, [10, 50], axis=0),
}

LAYERS = {  # name -> build(keras): a layer with fixed weights for a (2, 2) input
    "Dense": lambda k: k.layers.Dense(3, kernel_initializer="ones", bias_initializer="ones"),
    "Dense_relu": lambda k: k.layers.Dense(2, activation="relu", kernel_initializer="ones"),
    "Flatten": lambda k: k.layers.Flatten(),
    "Activation_relu": lambda k: k.layers.Activation("relu"),
    "Dropout": lambda k: k.layers.Dropout(0.5),
    "Rescaling": lambda k: k.layers.Rescaling(0.5),
    # (an integer layer dtype casts scale and offset to it: 1 / 255 -> 0, -1.5 -> 255 in uint8)
    "Rescaling_uint8": lambda k: k.layers.Rescaling(1 / 255, dtype="uint8"),
    "Rescaling_int32": lambda k: k.layers.Rescaling(2.7, offset=1.6, dtype="int32"),
    "Rescaling_channels_uint8": lambda k: k.layers.Rescaling([0.5, 300.0], offset=-1.5, dtype="uint8"),
    "Conv1D": lambda k: k.layers.Conv1D(2, 1, kernel_initializer="ones"),
    "Embedding": lambda k: k.layers.Embedding(5, 2, embeddings_initializer="ones"),
    "EinsumDense": lambda k: k.layers.EinsumDense("ab,bc->ac", output_shape=3, bias_axes="c",
                                                  kernel_initializer="ones", bias_initializer="ones"),
    "BatchNormalization": lambda k: k.layers.BatchNormalization(),
    "Add": lambda k: _merge(k.layers.Add()), "Average": lambda k: _merge(k.layers.Average()),
    "Maximum": lambda k: _merge(k.layers.Maximum()),
}
def _merge(layer):
    """A merge layer on the input and a float32 tensor of ones."""
    return lambda x: layer([x, np.ones((2, 2), np.float32)])


LAYER_INPUT = {"Conv1D": lambda a: a[None]}  # (1, 2, 2)


def cases():
    """Every case as ``(key, fn(ops, tensor))``, ``tensor(dtype, k)`` building an operand."""
    out = []
    for name, fn in UNARY.items():
        for d in DTYPES:
            out.append((f"{name}/{d}", lambda o, t, fn=fn, d=d: fn(o, t(d, 0))))
    for name, fn in {**BINARY, **BINARY_TENSORS}.items():
        sides = DTYPES + ([] if name in BINARY_TENSORS else list(SCALARS))
        for d1 in sides:
            for d2 in sides:
                if d1 in SCALARS and d2 in SCALARS:
                    continue
                out.append((f"{name}/{d1}/{d2}", lambda o, t, fn=fn, d1=d1, d2=d2: fn(
                    o, SCALARS[d1] if d1 in SCALARS else t(d1, 0),
                    SCALARS[d2] if d2 in SCALARS else t(d2, 1))))
    for name, fn in GENERAL.items():
        out.append((f"general/{name}", lambda o, t, fn=fn: fn(o)))
    return out
