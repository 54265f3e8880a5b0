"""Keras 3's convolution layers: Conv1D, Conv2D, Conv2DTranspose, SeparableConv2D, DepthwiseConv2D.

Each is a thin layer over ``tapegrad.nn``'s im2col convolutions; kernels have Keras's shapes
(``kernel_size + (in_channels // groups, filters)``; ``(kh, kw, filters, in_channels)`` for the
transpose) whatever the ``data_format``, so weights move between Keras and tapegrad unchanged.
This module also holds the argument checks the other layer modules share.
"""
from __future__ import annotations

from typing import Any, Sequence

from ... import nn
from ...ops.array import pad, reshape
from .. import activations, backend, initializers, ops as _kops, regularizers
from .layer import Layer

__all__ = ["Conv1D", "Conv2D", "Conv2DTranspose", "SeparableConv2D", "DepthwiseConv2D", "Convolution1D",
           "Convolution2D", "Convolution2DTranspose", "SeparableConvolution2D", "DepthwiseConv1D", "SeparableConv1D",
           "SeparableConvolution1D"]


# --------------------------------------------------------------------------- shared argument checks
def int_tuple(value: Any, n: int, arg: str, layer: str, allow_zero: bool = False) -> tuple:
    """``value`` (an int or ``n`` ints) as a tuple of ``n`` ints, each > 0 (>= 0 with ``allow_zero``)."""
    vals = (value,) * n if isinstance(value, int) and not isinstance(value, bool) else value
    try:
        vals = tuple(vals)
        ok = len(vals) == n and all(isinstance(v, int) and not isinstance(v, bool) or
                                    (hasattr(v, "__index__") and not isinstance(v, bool)) for v in vals)
    except TypeError:
        ok = False
    if not ok:
        raise ValueError(f"{layer}: the `{arg}` argument must be an int or a tuple of {n} integers. "
                         f"Received: {arg}={value!r}")
    vals = tuple(int(v) for v in vals)
    bad = [v for v in vals if v < 0 or (v == 0 and not allow_zero)]
    if bad:
        raise ValueError(f"{layer}: the `{arg}` argument must be a tuple of {n} integers, each "
                         f"{'>= 0' if allow_zero else '> 0'}. Received: {arg}={value!r}, including "
                         f"values {bad}.")
    return vals


def padding_arg(value: Any, layer: str, allowed: Sequence[str] = ("valid", "same")) -> str:
    """``padding`` lower-cased and checked against ``allowed``."""
    p = value.lower() if isinstance(value, str) else value
    if p not in allowed:
        raise ValueError(f"{layer}: the `padding` argument must be one of {', '.join(map(repr, allowed))}. "
                         f"Received: padding={value!r}")
    return p


def data_format_arg(value: Any, layer: str) -> str:
    """``"channels_last"`` or ``"channels_first"``; ``None`` is ``keras.backend.image_data_format()``."""
    fmt = backend.image_data_format() if value is None else value
    fmt = fmt.lower() if isinstance(fmt, str) else fmt
    if fmt not in ("channels_last", "channels_first"):
        raise ValueError(f"{layer}: the `data_format` argument must be one of 'channels_last', "
                         f"'channels_first'. Received: data_format={value!r}")
    return fmt


def check_input(layer: Layer, shape: Sequence, ndim: int, axis: int | None = None, size: int | None = None) -> None:
    """A clear error when ``shape`` does not have ``ndim`` axes (or axis ``axis`` not ``size``)."""
    name = f"Input 0 of layer \"{layer.name}\" ({type(layer).__name__})"
    if len(shape) != ndim:
        raise ValueError(f"{name} is incompatible with the layer: expected ndim={ndim}, found "
                         f"ndim={len(shape)}. Full shape received: {tuple(shape)}")
    if axis is not None and shape[axis] != size:
        raise ValueError(f"{name} is incompatible with the layer: expected axis {axis % ndim} of input "
                         f"shape to have value {size}, but received input with shape {tuple(shape)}")


def serialized(obj: Any) -> Any:
    """An initializer's or regularizer's config for ``get_config`` (``None`` stays ``None``)."""
    if obj is None:
        return None
    return (initializers if isinstance(obj, initializers.Initializer) else regularizers).serialize(obj)


def weight_args(layer: Layer, prefix: str, initializer: Any, regularizer: Any, constraint: Any) -> None:
    """Set ``<prefix>_initializer``, ``_regularizer`` and ``_constraint`` from a constructor's arguments."""
    setattr(layer, f"{prefix}_initializer", initializers.get(initializer))
    setattr(layer, f"{prefix}_regularizer", regularizers.get(regularizer))
    setattr(layer, f"{prefix}_constraint", constraint)


def weight_config(layer: Layer, *prefixes: str) -> dict:
    """The ``get_config`` entries of :func:`weight_args`' attributes."""
    out = {}
    for p in prefixes:
        out[f"{p}_initializer"] = serialized(getattr(layer, f"{p}_initializer"))
        out[f"{p}_regularizer"] = serialized(getattr(layer, f"{p}_regularizer"))
        out[f"{p}_constraint"] = getattr(layer, f"{p}_constraint")
    return out


def new_weight(layer: Layer, prefix: str, shape: tuple, name: str | None = None, initializer: Any = None,
               **kw: Any) -> Any:
    """``add_weight`` with the initializer, regularizer and constraint of :func:`weight_args`."""
    return layer.add_weight(name=name or prefix, shape=shape,
                            initializer=initializer or getattr(layer, f"{prefix}_initializer"),
                            regularizer=getattr(layer, f"{prefix}_regularizer"),
                            constraint=getattr(layer, f"{prefix}_constraint"), **kw)


def positive_int(value: Any, arg: str, layer: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{layer}: invalid value for argument `{arg}`. Expected a strictly positive "
                         f"integer. Received: {arg}={value!r}")
    return value


# --------------------------------------------------------------------------- the convolutions
class _Conv(Layer):
    """What Conv1D, Conv2D, Conv2DTranspose, SeparableConv2D and DepthwiseConv2D share."""

    _checkpoint_names = {"kernel": "_kernel"}  # (Keras 3 keeps the kernel as `_kernel`)

    rank = 2
    paddings: tuple = ("valid", "same")

    def __init__(self, kernel_size: Any, strides: Any, padding: str, data_format: Any, dilation_rate: Any,
                 activation: Any, use_bias: bool, bias_initializer: Any, bias_regularizer: Any,
                 activity_regularizer: Any, bias_constraint: Any, **kwargs: Any) -> None:
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        cls, r = type(self).__name__, self.rank
        self.kernel_size = int_tuple(kernel_size, r, "kernel_size", cls)
        self.strides = int_tuple(strides, r, "strides", cls)
        self.padding = padding_arg(padding, cls, self.paddings)
        self.data_format = data_format_arg(data_format, cls)
        self.dilation_rate = int_tuple(dilation_rate, r, "dilation_rate", cls)
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(f"{cls}: `strides > 1` is not compatible with `dilation_rate > 1`. "
                             f"Received: strides={self.strides}, dilation_rate={self.dilation_rate}")
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        # (resolved by _bias_args after the kernels': Keras makes the bias initializer last, and an
        # unseeded initializer draws its seed when made)
        self._bias_spec = (bias_initializer, bias_regularizer, bias_constraint)

    def _bias_args(self) -> None:
        weight_args(self, "bias", *self._bias_spec)
        del self._bias_spec

    @property
    def _channel_axis(self) -> int:
        return -1 if self.data_format == "channels_last" else 1

    def _in_channels(self, input_shape: Sequence) -> int:
        check_input(self, input_shape, self.rank + 2)
        return int(input_shape[self._channel_axis])

    def _check(self, x: Any) -> None:
        check_input(self, x.shape, self.rank + 2, self._channel_axis, self._input_channels)
        if self.padding == "valid" and any(
                n < (k - 1) * d + 1 for n, k, d in
                zip(_spatial(x.shape, self.data_format, self.rank), self.kernel_size, self.dilation_rate)):
            raise ValueError(f"{type(self).__name__} {self.name!r}: computed output size would be negative. "
                             f"Received inputs of shape {tuple(x.shape)}, kernel_size={self.kernel_size}, "
                             f"dilation_rate={self.dilation_rate} with padding='valid' (the window is larger "
                             f"than the input; use padding='same' or a smaller kernel).")

    def _add_bias(self, size: int) -> None:
        self.bias = new_weight(self, "bias", (size,)) if self.use_bias else None

    def _finish(self, y: Any) -> Any:
        if self.bias is not None:
            b = self.bias if self.data_format == "channels_last" else reshape(self.bias, (-1,) + (1,) * self.rank)
            y = y + b
        return self.activation(y)

    @property
    def _tf_format(self) -> str:
        formats = ("NWC", "NHWC", "NDHWC") if self.data_format == "channels_last" else ("NCW", "NCHW", "NCDHW")
        return formats[self.rank - 1]

    def _base_config(self) -> dict:
        return {"kernel_size": self.kernel_size, "strides": self.strides, "padding": self.padding,
                "data_format": self.data_format, "dilation_rate": self.dilation_rate,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
                "activity_regularizer": serialized(self.activity_regularizer), **weight_config(self, "bias")}


class _BaseConv(_Conv):
    """Conv1D and Conv2D."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 data_format: Any = None, dilation_rate: Any = 1, groups: int = 1, activation: Any = None,
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None, bias_constraint: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         bias_initializer, bias_regularizer, activity_regularizer, bias_constraint, **kwargs)
        cls = type(self).__name__
        self.filters = positive_int(filters, "filters", cls)
        self.groups = positive_int(groups, "groups", cls)
        if self.filters % self.groups:
            raise ValueError(f"{cls}: the number of filters must be evenly divisible by the number of "
                             f"groups. Received: groups={groups}, filters={filters}.")
        weight_args(self, "kernel", kernel_initializer, kernel_regularizer, kernel_constraint)
        self._bias_args()

    def build(self, input_shape: Sequence) -> None:
        c = self._in_channels(input_shape)
        if c % self.groups:
            raise ValueError(f"{type(self).__name__}: the number of input channels must be evenly "
                             f"divisible by the number of groups. Received groups={self.groups}, but the "
                             f"input has {c} channels (full input shape is {tuple(input_shape)}).")
        self._input_channels = c
        self.kernel = new_weight(self, "kernel", self.kernel_size + (c // self.groups, self.filters))
        self._add_bias(self.filters)
        self.built = True

    def call(self, inputs: Any) -> Any:
        self._check(inputs)
        if self.padding != "causal":
            return self._finish(self.convolution_op(inputs, self.kernel))
        # (Keras's Conv1D: pad the start of the sequence, then a valid convolution, not convolution_op)
        left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
        x = pad(inputs, [[0, 0], [left, 0], [0, 0]] if self.data_format == "channels_last" else [[0, 0], [0, 0], [left, 0]])
        return self._finish(self._conv(x, self.kernel, self.strides, "VALID", self._tf_format, self.dilation_rate))

    def convolution_op(self, inputs: Any, kernel: Any) -> Any:
        """The convolution of ``inputs`` with ``kernel`` under this layer's strides, padding,
        dilation and data format, without bias or activation (Keras's hook: ``call`` uses it, and
        a subclass may override it, e.g. to standardize the kernel)."""
        return self._conv(inputs, kernel, self.strides, self.padding.upper(), self._tf_format, self.dilation_rate)

    def _conv(self, x: Any, kernel: Any, strides: tuple, padding: str, fmt: str, dilations: tuple) -> Any:
        return (nn.conv1d if self.rank == 1 else nn.conv2d)(x, kernel, strides, padding, fmt, dilations)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        sp = _spatial(input_shape, self.data_format, self.rank)
        out = [_conv_length(n, k, s, d, self.padding)
               for n, k, s, d in zip(sp, self.kernel_size, self.strides, self.dilation_rate)]
        return _with_spatial(input_shape, out, self.filters, self.data_format)

    def get_config(self) -> dict:
        return {**super().get_config(), **self._base_config(), "filters": self.filters, "groups": self.groups,
                **weight_config(self, "kernel")}


def _conv_length(n: Any, k: int, s: int, d: int, padding: str) -> Any:
    if n is None:
        return None
    if padding in ("same", "causal"):
        return -(-n // s)
    return (n - (k - 1) * d - 1) // s + 1


def _spatial(shape: Sequence, data_format: str, rank: int) -> list:
    return list(shape[1:1 + rank] if data_format == "channels_last" else shape[2:2 + rank])


def _with_spatial(shape: Sequence, spatial: list, channels: Any, data_format: str) -> tuple:
    if data_format == "channels_last":
        return (shape[0], *spatial, channels)
    return (shape[0], channels, *spatial)


class Conv1D(_BaseConv):
    """1-D convolution layer (temporal convolution) over ``(batch, steps, channels)`` inputs.

    Keras 3's arguments and defaults: ``filters``, ``kernel_size``, ``strides=1``,
    ``padding="valid"`` (or ``"same"``, ``"causal"``), ``data_format``, ``dilation_rate=1``,
    ``groups=1``, ``activation``, ``use_bias``, initializers, regularizers and constraints.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> layer = keras.layers.Conv1D(4, 3, padding="causal")
    >>> layer(tf.ones([2, 10, 3])).shape
    TensorShape([2, 10, 4])
    """

    rank = 1
    paddings = ("valid", "same", "causal")


class Conv2D(_BaseConv):
    """2-D convolution layer over ``(batch, height, width, channels)`` images.

    Keras 3's arguments and defaults: ``filters``, ``kernel_size``, ``strides=(1, 1)``,
    ``padding="valid"`` or ``"same"``, ``data_format`` (``"channels_last"`` unless
    ``keras.backend.image_data_format()`` says otherwise), ``dilation_rate``, ``groups``,
    ``activation``, ``use_bias``, initializers, regularizers and constraints.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> layer = keras.layers.Conv2D(16, 3, activation="relu")
    >>> layer(tf.ones([64, 8, 8, 1])).shape
    TensorShape([64, 6, 6, 16])
    >>> [w.shape for w in layer.weights]
    [TensorShape([3, 3, 1, 16]), TensorShape([16])]
    """

    rank = 2


def _transpose_length(n: Any, k: int, s: int, d: int, padding: str, output_padding: Any) -> Any:
    """Keras's output length of a transposed convolution."""
    if n is None:
        return None
    k = (k - 1) * d + 1
    if output_padding is None:
        return n * s + max(k - s, 0) if padding == "valid" else n * s
    return (n - 1) * s + k - 2 * (k // 2 if padding == "same" else 0) + output_padding


class Conv2DTranspose(_Conv):
    """Transposed 2-D convolution ("deconvolution"): the gradient of a ``Conv2D`` with respect to
    its input, as a layer that upsamples.

    The kernel has shape ``(kh, kw, filters, in_channels)``. With ``output_padding=None`` the
    output is ``size * stride`` (``"same"``) or ``size * stride + max(kernel - stride, 0)``
    (``"valid"``), as in Keras.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> layer = keras.layers.Conv2DTranspose(3, 3, strides=2, padding="same")
    >>> layer(tf.ones([1, 4, 4, 8])).shape
    TensorShape([1, 8, 8, 3])
    """

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 output_padding: Any = None, data_format: Any = None, dilation_rate: Any = (1, 1),
                 activation: Any = None, use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None, bias_constraint: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         bias_initializer, bias_regularizer, activity_regularizer, bias_constraint, **kwargs)
        cls = type(self).__name__
        self.filters = positive_int(filters, "filters", cls)
        self.output_padding = None if output_padding is None else int_tuple(output_padding, self.rank, "output_padding",
                                                                            cls, allow_zero=True)
        if self.output_padding is not None:
            for op, s in zip(self.output_padding, self.strides):
                if op >= s:
                    raise ValueError(f"{cls}: the `output_padding` {self.output_padding} must be smaller "
                                     f"than the `strides` {self.strides} on each axis.")
        weight_args(self, "kernel", kernel_initializer, kernel_regularizer, kernel_constraint)
        self._bias_args()

    def build(self, input_shape: Sequence) -> None:
        c = self._input_channels = self._in_channels(input_shape)
        self.kernel = new_weight(self, "kernel", self.kernel_size + (self.filters, c))
        self._add_bias(self.filters)
        self.built = True

    def call(self, inputs: Any) -> Any:
        self._check(inputs)
        out = self.compute_output_shape(tuple(inputs.shape))
        transpose = {1: nn.conv1d_transpose, 2: nn.conv2d_transpose, 3: nn.conv3d_transpose}[self.rank]
        y = transpose(inputs, self.kernel, out, self.strides, self.padding.upper(), self._tf_format, self.dilation_rate)
        return self._finish(y)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        ops = self.output_padding or (None,) * self.rank
        out = [_transpose_length(n, k, s, d, self.padding, op) for n, k, s, d, op in
               zip(_spatial(input_shape, self.data_format, self.rank), self.kernel_size, self.strides,
                   self.dilation_rate, ops)]
        return _with_spatial(input_shape, out, self.filters, self.data_format)

    def get_config(self) -> dict:
        return {**super().get_config(), **self._base_config(), "filters": self.filters,
                "output_padding": self.output_padding,
                **weight_config(self, "kernel")}


class DepthwiseConv2D(_Conv):
    """Depthwise 2-D convolution: each input channel is convolved with its own
    ``depth_multiplier`` filters (kernel ``(kh, kw, in_channels, depth_multiplier)``); output
    channel ``c * depth_multiplier + m``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> layer = keras.layers.DepthwiseConv2D(3, depth_multiplier=2)
    >>> layer(tf.ones([1, 5, 5, 3])).shape
    TensorShape([1, 3, 3, 6])
    """

    def __init__(self, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid", depth_multiplier: int = 1,
                 data_format: Any = None, dilation_rate: Any = (1, 1), activation: Any = None,
                 use_bias: bool = True, depthwise_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", depthwise_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, depthwise_constraint: Any = None, bias_constraint: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         bias_initializer, bias_regularizer, activity_regularizer, bias_constraint, **kwargs)
        self.depth_multiplier = positive_int(depth_multiplier, "depth_multiplier", type(self).__name__)
        weight_args(self, "depthwise", depthwise_initializer, depthwise_regularizer, depthwise_constraint)
        self._bias_args()

    def build(self, input_shape: Sequence) -> None:
        c = self._input_channels = self._in_channels(input_shape)
        self.kernel = new_weight(self, "depthwise", self.kernel_size + (c, self.depth_multiplier), "kernel")
        self._add_bias(c * self.depth_multiplier)
        self.built = True

    def call(self, inputs: Any) -> Any:
        self._check(inputs)
        if self.rank == 1:  # (as Keras: a 2-D depthwise convolution over a length-1 axis)
            y = _kops.depthwise_conv(inputs, self.kernel, self.strides, self.padding, self.data_format,
                                     self.dilation_rate)
        else:
            y = nn.depthwise_conv2d(inputs, self.kernel, self.strides, self.padding.upper(),
                                    self._tf_format, self.dilation_rate)
        return self._finish(y)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        c = input_shape[self._channel_axis]
        out = [_conv_length(n, k, s, d, self.padding) for n, k, s, d in
               zip(_spatial(input_shape, self.data_format, self.rank), self.kernel_size, self.strides,
                   self.dilation_rate)]
        return _with_spatial(input_shape, out, None if c is None else c * self.depth_multiplier, self.data_format)

    def get_config(self) -> dict:
        return {**super().get_config(), **self._base_config(), "depth_multiplier": self.depth_multiplier,
                **weight_config(self, "depthwise")}


class SeparableConv2D(_Conv):
    """Depthwise separable 2-D convolution: a depthwise convolution (``depthwise_kernel``
    ``(kh, kw, in_channels, depth_multiplier)``) then a 1x1 convolution (``pointwise_kernel``
    ``(1, 1, in_channels * depth_multiplier, filters)``).

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> layer = keras.layers.SeparableConv2D(8, 3, padding="same")
    >>> layer(tf.ones([1, 5, 5, 3])).shape
    TensorShape([1, 5, 5, 8])
    """

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 data_format: Any = None, dilation_rate: Any = (1, 1), depth_multiplier: int = 1,
                 activation: Any = None, use_bias: bool = True, depthwise_initializer: Any = "glorot_uniform",
                 pointwise_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 depthwise_regularizer: Any = None, pointwise_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, depthwise_constraint: Any = None,
                 pointwise_constraint: Any = None, bias_constraint: Any = None, **kwargs: Any) -> None:
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         bias_initializer, bias_regularizer, activity_regularizer, bias_constraint, **kwargs)
        cls = type(self).__name__
        self.filters = positive_int(filters, "filters", cls)
        self.depth_multiplier = positive_int(depth_multiplier, "depth_multiplier", cls)
        weight_args(self, "depthwise", depthwise_initializer, depthwise_regularizer, depthwise_constraint)
        weight_args(self, "pointwise", pointwise_initializer, pointwise_regularizer, pointwise_constraint)
        self._bias_args()

    def build(self, input_shape: Sequence) -> None:
        c = self._input_channels = self._in_channels(input_shape)
        self.depthwise_kernel = new_weight(self, "depthwise", self.kernel_size + (c, self.depth_multiplier),
                                           "depthwise_kernel")
        self.pointwise_kernel = new_weight(self, "pointwise", (1,) * self.rank + (c * self.depth_multiplier,
                                                                                  self.filters), "pointwise_kernel")
        self._add_bias(self.filters)
        self.built = True

    def call(self, inputs: Any) -> Any:
        self._check(inputs)
        if self.rank == 1:
            y = _kops.separable_conv(inputs, self.depthwise_kernel, self.pointwise_kernel, self.strides,
                                     self.padding, self.data_format, self.dilation_rate)
        else:
            y = nn.separable_conv2d(inputs, self.depthwise_kernel, self.pointwise_kernel, self.strides,
                                    self.padding.upper(), self._tf_format, self.dilation_rate)
        return self._finish(y)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        out = [_conv_length(n, k, s, d, self.padding) for n, k, s, d in
               zip(_spatial(input_shape, self.data_format, self.rank), self.kernel_size, self.strides,
                   self.dilation_rate)]
        return _with_spatial(input_shape, out, self.filters, self.data_format)

    def get_config(self) -> dict:
        return {**super().get_config(), **self._base_config(), "filters": self.filters,
                "depth_multiplier": self.depth_multiplier, **weight_config(self, "depthwise", "pointwise")}


class DepthwiseConv1D(DepthwiseConv2D):
    """Depthwise 1-D convolution: each input channel convolved with its own ``depth_multiplier``
    filters (kernel ``(k, in_channels, depth_multiplier)``); output channel ``c * depth_multiplier + m``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.DepthwiseConv1D(3, depth_multiplier=2)(tf.ones([1, 5, 3])).shape
    TensorShape([1, 3, 6])
    """

    rank = 1

    def __init__(self, kernel_size: Any, strides: Any = 1, padding: str = "valid", depth_multiplier: int = 1,
                 data_format: Any = None, dilation_rate: Any = 1, activation: Any = None, use_bias: bool = True,
                 depthwise_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 depthwise_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 depthwise_constraint: Any = None, bias_constraint: Any = None, **kwargs: Any) -> None:
        super().__init__(kernel_size, strides, padding, depth_multiplier, data_format, dilation_rate, activation,
                         use_bias, depthwise_initializer, bias_initializer, depthwise_regularizer,
                         bias_regularizer, activity_regularizer, depthwise_constraint, bias_constraint, **kwargs)


class SeparableConv1D(SeparableConv2D):
    """Depthwise separable 1-D convolution: a depthwise convolution (``depthwise_kernel``
    ``(k, in_channels, depth_multiplier)``) then a pointwise one (``pointwise_kernel``
    ``(1, in_channels * depth_multiplier, filters)``).

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.SeparableConv1D(4, 3, padding="same")(tf.ones([1, 5, 3])).shape
    TensorShape([1, 5, 4])
    """

    rank = 1

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 data_format: Any = None, dilation_rate: Any = 1, depth_multiplier: int = 1,
                 activation: Any = None, use_bias: bool = True, depthwise_initializer: Any = "glorot_uniform",
                 pointwise_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 depthwise_regularizer: Any = None, pointwise_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, depthwise_constraint: Any = None,
                 pointwise_constraint: Any = None, bias_constraint: Any = None, **kwargs: Any) -> None:
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, depth_multiplier,
                         activation, use_bias, depthwise_initializer, pointwise_initializer, bias_initializer,
                         depthwise_regularizer, pointwise_regularizer, bias_regularizer, activity_regularizer,
                         depthwise_constraint, pointwise_constraint, bias_constraint, **kwargs)


# Keras's other names for the same classes
Convolution1D, Convolution2D, Convolution2DTranspose, SeparableConvolution2D, SeparableConvolution1D = (
    Conv1D, Conv2D, Conv2DTranspose, SeparableConv2D, SeparableConv1D)
