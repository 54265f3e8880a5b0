"""Keras 3's quantizers: abs-max int8 (and int4-range) quantization, int4 packing, and the
float8 scaling helpers."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import backend
from .. import ops

__all__ = ["Quantizer", "AbsMaxQuantizer", "abs_max_quantize", "abs_max_quantize_grouped_with_zero_point",
           "dequantize_with_sz_map", "fake_quant_with_min_max_vars", "compute_float8_scale",
           "compute_float8_amax_history", "quantize_and_dequantize", "pack_int4", "unpack_int4"]

# float8 formats: (mantissa bits, smallest normal exponent, largest finite value)
_FLOAT8 = {"float8_e4m3fn": (3, -6, 448.0), "float8_e5m2": (2, -14, 57344.0)}


class Quantizer:
    """The base class of quantizers: ``quantizer(x)`` returns the quantized ``x`` (and, for the
    abs-max quantizer, its scale); ``output_dtype`` names the quantized dtype.

    >>> from tapegrad import keras
    >>> keras.quantizers.Quantizer().output_dtype
    'int8'
    """

    def __init__(self, output_dtype: str = "int8") -> None:
        self.output_dtype = output_dtype

    def __call__(self, x: Any) -> Any:
        return x

    @classmethod
    def from_config(cls, config: dict) -> "Quantizer":
        return cls(**config)

    def get_config(self) -> dict:
        raise NotImplementedError(f"{self} does not implement get_config()")


def abs_max_quantize(inputs: Any, axis: Any, value_range: tuple = (-127, 127), dtype: str = "int8",
                     epsilon: float | None = None, to_numpy: bool = False) -> tuple:
    """``(quantized, scale)``: ``scale = value_range[1] / (max(|inputs|) over axis + epsilon)``
    (kept dims), ``quantized = clip(round(inputs * scale), *value_range)`` cast to ``dtype``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> q, scale = keras.quantizers.abs_max_quantize(np.array([[0.5, -1.0], [2.0, 0.25]], "float32"), axis=-1)
    >>> q.numpy()
    array([[  63, -127],
           [ 127,   16]], dtype=int8)
    >>> scale.shape
    TensorShape([2, 1])
    """
    epsilon = backend.epsilon() if epsilon is None else epsilon
    if to_numpy:  # (Keras computes on the host here: the same float32 arithmetic)
        dt = backend.standardize_dtype(inputs.dtype)
        x = ops.convert_to_numpy(inputs)
        ax = tuple(axis) if isinstance(axis, (list, tuple)) else axis
        scale = np.divide(value_range[1], np.add(np.max(np.abs(x), axis=ax, keepdims=True), epsilon))
        out = np.clip(np.round(np.multiply(x, scale)), value_range[0], value_range[1]).astype(dtype)
        return ops.convert_to_tensor(out), ops.convert_to_tensor(scale, dtype=dt)
    x = ops.convert_to_tensor(inputs)
    scale = ops.divide(value_range[1], ops.add(ops.max(ops.abs(x), axis=axis, keepdims=True), epsilon))
    scale = ops.cast(scale, backend.standardize_dtype(x.dtype))
    out = ops.clip(ops.round(ops.multiply(x, scale)), value_range[0], value_range[1])
    return ops.cast(out, dtype), scale


def abs_max_quantize_grouped_with_zero_point(inputs: Any, block_size: int, value_range: tuple = (-8, 7),
                                             dtype: str = "int8", epsilon: float | None = None,
                                             to_numpy: bool = False) -> tuple:
    """``(quantized, scale, zero_point)`` of a 2-D ``inputs`` ``(input_dim, output_dim)``, quantized
    asymmetrically per group of ``block_size`` rows (the last group padded with zeros) and column:
    ``scale = (max - min + epsilon) / (qmax - qmin)``, ``zero_point = clip(round(-min / scale) +
    qmin)``, ``quantized = clip(round(inputs / scale) + zero_point)``; ``scale`` and the int8
    ``zero_point`` have shape ``(ceil(input_dim / block_size), output_dim)``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> q, scale, zero = keras.quantizers.abs_max_quantize_grouped_with_zero_point(
    ...     np.array([[0.0, -1.0], [3.0, 1.0]], "float32"), block_size=2)
    >>> q.numpy(), zero.numpy()
    (array([[-8, -8],
           [ 7,  6]], dtype=int8), array([[-8, -1]], dtype=int8))
    """
    epsilon = backend.epsilon() if epsilon is None else epsilon
    qmin, qmax = value_range
    dt = backend.standardize_dtype(inputs.dtype)
    if to_numpy:
        x = ops.convert_to_numpy(inputs)
        rows, cols = x.shape
        groups = -(-rows // block_size)
        padded = np.concatenate([x, np.zeros((groups * block_size - rows, cols), x.dtype)])
        g = padded.reshape(groups, block_size, cols)
        low, high = np.min(g, axis=1, keepdims=True), np.max(g, axis=1, keepdims=True)
        scale = np.divide(np.subtract(high, low) + epsilon, qmax - qmin)
        zero = np.clip(np.round(np.divide(-low, scale)) + qmin, qmin, qmax)
        out = np.clip(np.round(np.divide(g, scale)) + zero, qmin, qmax).astype(dtype)
        return (ops.convert_to_tensor(out.reshape(-1, cols)[:rows]),
                ops.convert_to_tensor(np.squeeze(scale, 1), dtype=dt),
                ops.convert_to_tensor(np.squeeze(zero, 1).astype("int8")))
    # (on tensors, Keras's compute_quantization_parameters: a constant group widens to [min-1, max+1])
    x = ops.convert_to_tensor(inputs)
    rows, cols = int(x.shape[0]), int(x.shape[1])
    groups = -(-rows // block_size)
    g = ops.reshape(ops.pad(x, [[0, groups * block_size - rows], [0, 0]]), (groups, block_size, cols))
    low, high = ops.min(g, axis=1), ops.max(g, axis=1)
    flat = ops.equal(low, high)
    low, high = ops.where(flat, low - 1, low), ops.where(flat, high + 1, high)
    scale = ops.divide(ops.add(ops.subtract(high, low), epsilon), ops.cast(qmax - qmin, dt))
    scale = ops.where(ops.less_equal(scale, 0), 1e-8, scale)
    zero = ops.clip(ops.add(ops.round(ops.divide(ops.negative(low), scale)), qmin), qmin, qmax)
    out = ops.clip(ops.add(ops.round(ops.divide(g, ops.expand_dims(scale, 1))), ops.expand_dims(zero, 1)),
                   qmin, qmax)
    return ops.reshape(ops.cast(out, dtype), (-1, cols))[:rows], scale, ops.cast(zero, "int8")


def dequantize_with_sz_map(weights_matrix: Any, scale: Any, zero: Any, g_idx: Any, group_axis: int = -1) -> Any:
    """``(weights_matrix - zero[g]) * scale[g]``, the group ``g`` of each position given by
    ``g_idx``, taken along ``group_axis`` of ``scale`` and ``zero``."""
    groups = ops.cast(g_idx, "int32")
    scales = ops.take(scale, groups, axis=group_axis)
    zeros = ops.cast(ops.take(zero, groups, axis=group_axis), scales.dtype)
    return ops.multiply(ops.subtract(weights_matrix, zeros), scales)


class AbsMaxQuantizer(Quantizer):
    """Abs-max quantization (:func:`abs_max_quantize`) along ``axis`` (given here or per call;
    -1 when neither gives it).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> q, scale = keras.quantizers.AbsMaxQuantizer()(np.array([[1.0, -0.5]], "float32"))
    >>> q.numpy()
    array([[127, -63]], dtype=int8)
    >>> bool(np.allclose(scale.numpy(), 127.0))   # (127 / (max|x| + epsilon))
    True
    """

    def __init__(self, axis: Any = None, value_range: tuple = (-127, 127), epsilon: float | None = None,
                 output_dtype: str = "int8") -> None:
        super().__init__(output_dtype=output_dtype)
        self.axis = None if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
        self.value_range = tuple(value_range)
        self.epsilon = backend.epsilon() if epsilon is None else epsilon
        if output_dtype == "int8" and (value_range[0] < -128 or value_range[1] > 127):
            raise ValueError("Quantizer with output_dtype='int8' requires value_range to be within the "
                             f"interval [-128, 127]. Received: value_range={value_range}")

    def __call__(self, x: Any, axis: Any = None, to_numpy: bool = False) -> tuple:
        axis = self.axis if axis is None else axis
        return abs_max_quantize(x, -1 if axis is None else axis, self.value_range, self.output_dtype,
                                self.epsilon, to_numpy)

    def get_config(self) -> dict:
        config = {"value_range": self.value_range, "epsilon": self.epsilon, "output_dtype": self.output_dtype}
        if self.axis is not None:
            config["axis"] = self.axis
        return config


def fake_quant_with_min_max_vars(inputs: Any, min_vals: Any, max_vals: Any, num_bits: int = 8,
                                 narrow_range: bool = False, axis: int | None = None) -> Any:
    """``inputs`` clamped to ``[min_vals, max_vals]`` (nudged so that 0 is a level), quantized to
    ``num_bits`` (levels ``1 .. 2**num_bits - 1`` with ``narrow_range``) and dequantized, per
    tensor, or per channel along ``axis``; as TensorFlow's
    ``tf.quantization.fake_quant_with_min_max_vars(_per_channel)``, which Keras calls. The
    gradient passes to the inputs inside the range; the ones below (above) it go to ``min_vals``
    (``max_vals``), so the range trains.

    >>> from tapegrad import keras
    >>> keras.quantizers.fake_quant_with_min_max_vars([-1.0, 0.12, 0.5, 2.0], -0.5, 1.0, num_bits=4).numpy().round(4)
    array([-0.5, 0.1, 0.5, 1. ], dtype=float32)
    """
    num_bits = int(num_bits)
    if not 2 <= num_bits <= 16:
        raise ValueError(f"fake_quant_with_min_max_vars: num_bits must be between 2 and 16; received {num_bits}.")
    x = ops.convert_to_tensor(inputs)
    dtype = backend.standardize_dtype(x.dtype)
    rank = len(x.shape)
    if axis is not None:
        axis = axis + rank if axis < 0 else axis
        x = ops.swapaxes(x, axis, rank - 1)
    low, high = ops.cast(min_vals, "float32"), ops.cast(max_vals, "float32")
    if axis is None:
        low, high = ops.reshape(low, ()), ops.reshape(high, ())
    qmin, qmax = float(1 if narrow_range else 0), float((1 << num_bits) - 1)

    @ops.custom_gradient
    def fake_quant(x: Any, low: Any, high: Any) -> tuple:
        scale = ops.divide(ops.subtract(high, low), qmax - qmin)
        zero = ops.subtract(qmin, ops.divide(low, scale))
        rounded = ops.multiply(ops.sign(zero), ops.floor(ops.add(ops.abs(zero), 0.5)))  # (std::round)
        zero = ops.where(ops.less(zero, qmin), qmin, ops.where(ops.greater(zero, qmax), qmax, rounded))
        nudged_min, nudged_max = ops.multiply(qmin - zero, scale), ops.multiply(qmax - zero, scale)
        shifted = ops.subtract(ops.clip(x, nudged_min, nudged_max), nudged_min)
        out = ops.add(ops.multiply(ops.floor(ops.add(ops.divide(shifted, scale), 0.5)), scale), nudged_min)

        def grad(dy: Any) -> tuple:
            zero_dy = ops.zeros_like(dy)
            inside = ops.logical_and(ops.greater_equal(x, nudged_min), ops.less_equal(x, nudged_max))
            over = list(range(rank - 1)) if axis is not None else None
            d_low = ops.sum(ops.where(ops.less(x, nudged_min), dy, zero_dy), axis=over)
            d_high = ops.sum(ops.where(ops.greater(x, nudged_max), dy, zero_dy), axis=over)
            return ops.where(inside, dy, zero_dy), d_low, d_high
        return out, grad

    out = ops.cast(fake_quant(ops.cast(x, "float32"), low, high), dtype)
    return out if axis is None else ops.swapaxes(out, axis, rank - 1)


def compute_float8_scale(amax: Any, scale: Any, dtype_max: Any, margin: int = 0) -> Any:
    """The new float8 scale from the largest magnitude seen (``amax``): ``amax / dtype_max *
    2**margin``, or the old ``scale`` when ``amax`` is 0 or not finite.

    >>> from tapegrad import keras
    >>> float(keras.quantizers.compute_float8_scale(896.0, 1.0, 448.0))
    2.0
    """
    old = ops.reciprocal(scale)
    sf = ops.divide(ops.divide(dtype_max, amax), 2 ** margin)
    sf = ops.where(ops.greater(amax, 0.0), sf, old)
    sf = ops.where(ops.isfinite(amax), sf, old)
    return ops.reciprocal(sf)


def compute_float8_amax_history(x: Any, amax_history: Any) -> Any:
    """``amax_history`` rolled by one, with ``max(|x|)`` in front.

    >>> from tapegrad import keras
    >>> keras.quantizers.compute_float8_amax_history([1.0, -5.0], keras.ops.array([1.0, 2.0, 3.0])).numpy()
    array([5., 3., 1.], dtype=float32)
    """
    amax = ops.cast(ops.max(ops.abs(x)), amax_history.dtype)
    return ops.scatter_update(ops.roll(amax_history, shift=-1), [[0]], ops.reshape(amax, [1]))


def _rounded(x: Any, mant: int, min_exp: int) -> Any:
    """``x`` rounded to ``mant`` bits after the leading one (ties to even), subnormal below
    ``2**min_exp``: a cast to a narrower float format and back, in ``x``'s dtype."""
    a = ops.abs(x)
    e = ops.floor(ops.log2(ops.maximum(a, 2.0 ** min_exp)))
    e = ops.where(ops.less(a, ops.power(2.0, e)), e - 1, e)  # (log2's rounding near a power of two)
    e = ops.maximum(e, float(min_exp))  # (subnormals share the smallest exponent's step)
    step = ops.power(2.0, e - mant)
    return ops.multiply(ops.round(ops.divide(x, step)), step)


def _to_float8(x: Any, dtype: str) -> Any:
    """``x`` (already within the format's range) rounded to the nearest ``dtype`` value, as a
    cast to ``dtype`` and back rounds (NumPy has no float8 dtype); no gradient, as TensorFlow's
    Cast to float8 has none."""
    mant, min_exp, _ = _FLOAT8[dtype]
    return _rounded(ops.stop_gradient(x), mant, min_exp)


@ops.custom_gradient
def through_bfloat16(x: Any) -> Any:
    """float32 ``x`` cast to bfloat16 and back (NumPy has no bfloat16); the gradient is cast so
    too, as TensorFlow's two Casts pass it."""
    return _rounded(x, 7, -126), lambda dy: _rounded(dy, 7, -126)


def quantize_and_dequantize(inputs: Any, scale: Any, quantized_dtype: str, compute_dtype: str) -> Any:
    """``inputs / scale`` clipped to ``quantized_dtype``'s range (``"float8_e4m3fn"`` or
    ``"float8_e5m2"``), rounded to that float8 format, times ``scale``, in ``compute_dtype``.

    >>> from tapegrad import keras
    >>> keras.quantizers.quantize_and_dequantize([1.0, 0.3, 500.0], 1.0, "float8_e4m3fn", "float32").numpy().tolist()
    [1.0, 0.3125, 448.0]
    """
    if quantized_dtype not in _FLOAT8:
        raise ValueError(f"quantize_and_dequantize: quantized_dtype must be one of {sorted(_FLOAT8)}; "
                         f"received {quantized_dtype!r}.")
    top = ops.cast(_FLOAT8[quantized_dtype][2], compute_dtype)
    s = ops.cast(scale, compute_dtype)
    x = ops.clip(ops.divide(ops.cast(inputs, compute_dtype), s), -top, top)
    return ops.multiply(ops.cast(_to_float8(x, quantized_dtype), compute_dtype), s)


def pack_int4(arr: Any, axis: int = 0, dtype: str = "int8") -> tuple:
    """``(packed, packed_shape, orig_len)``: int4 values (``[-8, 7]`` in an int8 tensor) packed two
    a byte along ``axis`` (padded to an even length), the first of each pair in the low nibble.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> packed, shape, n = keras.quantizers.pack_int4(np.array([[-3, 7], [2, -8], [1, 0]], "int8"))
    >>> packed.numpy(), n
    (array([[  45, -121],
           [   1,    0]], dtype=int8), 3)
    >>> keras.quantizers.unpack_int4(packed, n).numpy()
    array([[-3,  7],
           [ 2, -8],
           [ 1,  0]], dtype=int8)
    """
    if dtype not in ("int8", "uint8"):
        raise ValueError(f"Expected dtype to be 'int8' or 'uint8', but got '{dtype}'.")
    if backend.standardize_dtype(arr.dtype) != dtype:
        raise TypeError(f"Expected {dtype} tensor for packing, got {backend.standardize_dtype(arr.dtype)}.")
    a = np.moveaxis(ops.convert_to_numpy(arr), axis, 0)
    n = a.shape[0]
    if n % 2:
        a = np.concatenate([a, np.zeros((1,) + a.shape[1:], a.dtype)])
    low, high = a[::2].astype(dtype) & 0x0F, a[1::2].astype(dtype) & 0x0F
    packed = np.moveaxis((low | (high << 4)).astype(dtype), 0, axis)
    return ops.convert_to_tensor(packed), tuple(packed.shape), n


def unpack_int4(packed: Any, orig_len: int, axis: int = 0, dtype: str = "int8") -> Any:
    """The int8 tensor (values in ``[-8, 7]``, or ``[0, 15]`` for ``dtype="uint8"``) that
    :func:`pack_int4` packed along ``axis``, without its padding (an example at :func:`pack_int4`)."""
    if dtype not in ("int8", "uint8"):
        raise ValueError(f"Expected dtype to be 'int8' or 'uint8', but got '{dtype}'.")
    packed = ops.convert_to_tensor(packed)
    if backend.standardize_dtype(packed.dtype) not in ("int8", "uint8"):
        raise TypeError(f"Expected int8 or uint8 tensor for unpacking, got {packed.dtype}")
    rank = len(packed.shape)
    axis = axis + rank if axis < 0 else axis
    perm = [axis] + [i for i in range(rank) if i != axis]
    t = ops.transpose(packed, perm)
    mask = ops.array(0x0F, dtype=t.dtype)
    low = ops.bitwise_and(t, mask)
    high = ops.bitwise_and(ops.bitwise_right_shift(t, ops.array(4, dtype=t.dtype)), mask)
    if dtype == "int8":  # (nibbles 8..15 are -8..-1)
        eight = ops.array(8, dtype=t.dtype)
        low = ops.subtract(ops.bitwise_xor(low, eight), eight)
        high = ops.subtract(ops.bitwise_xor(high, eight), eight)
    both = ops.stack([ops.cast(low, dtype), ops.cast(high, dtype)], axis=1)
    out = ops.reshape(both, (-1,) + tuple(t.shape[1:]))[:orig_len]
    return ops.transpose(out, [perm.index(i) for i in range(rank)])
