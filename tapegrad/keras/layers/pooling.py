"""Keras 3's pooling layers: Max/AveragePooling1D/2D and the global poolings.

Window pooling runs ``tapegrad.nn``'s strided-window max and average pools (no Python loop over
pixels); ``"same"`` average pooling divides by the window's non-padded elements, as Keras does.
"""
from __future__ import annotations

from typing import Any, Sequence

from ... import nn
from ...ops.math import cast, where
from ...ops.array import expand_dims
from ...ops.reduction import reduce_max, reduce_mean, reduce_sum
from .. import backend, ops as _kops
from .layer import Layer
from .conv import _conv_length, _spatial, _with_spatial, check_input, data_format_arg, int_tuple, padding_arg

__all__ = ["MaxPooling1D", "MaxPooling2D", "AveragePooling1D", "AveragePooling2D", "GlobalAveragePooling1D",
           "GlobalAveragePooling2D", "GlobalMaxPooling1D", "GlobalMaxPooling2D", "MaxPool1D", "MaxPool2D",
           "AvgPool1D", "AvgPool2D", "GlobalAvgPool1D", "GlobalAvgPool2D", "GlobalMaxPool1D", "GlobalMaxPool2D",
           "AdaptiveAveragePooling1D", "AdaptiveAveragePooling2D", "AdaptiveAveragePooling3D",
           "AdaptiveMaxPooling1D", "AdaptiveMaxPooling2D", "AdaptiveMaxPooling3D"]


class _Pooling(Layer):
    rank = 2
    mode = "max"

    def __init__(self, pool_size: Any, strides: Any = None, padding: str = "valid", data_format: Any = None,
                 name: Any = None, **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        cls = type(self).__name__
        self.pool_size = int_tuple(pool_size, self.rank, "pool_size", cls)
        self.strides = int_tuple(pool_size if strides is None else strides, self.rank, "strides", cls)
        self.padding = padding_arg(padding, cls)
        self.data_format = data_format_arg(data_format, cls)

    def call(self, inputs: Any) -> Any:
        check_input(self, inputs.shape, self.rank + 2)
        fmt = ("NWC", "NHWC", "NDHWC", "NCW", "NCHW", "NCDHW")[
            self.rank - 1 + 3 * (self.data_format == "channels_first")]
        pool = {(1, "max"): nn.max_pool1d, (2, "max"): nn.max_pool2d, (3, "max"): nn.max_pool3d,
                (1, "average"): nn.avg_pool1d, (2, "average"): nn.avg_pool2d, (3, "average"): nn.avg_pool3d}[
            self.rank, self.mode]
        return pool(inputs, self.pool_size, self.strides, self.padding.upper(), fmt)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        c = input_shape[-1 if self.data_format == "channels_last" else 1]
        out = [_conv_length(n, k, s, 1, self.padding) for n, k, s in
               zip(_spatial(input_shape, self.data_format, self.rank), self.pool_size, self.strides)]
        return _with_spatial(input_shape, out, c, self.data_format)

    def get_config(self) -> dict:
        return {**super().get_config(), "pool_size": self.pool_size, "padding": self.padding,
                "strides": self.strides, "data_format": self.data_format}


class MaxPooling1D(_Pooling):
    """Maximum over windows of ``pool_size`` steps of ``(batch, steps, features)`` inputs;
    ``strides`` defaults to ``pool_size``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> x = tf.reshape(tf.range(6.0), [1, 6, 1])
    >>> keras.layers.MaxPooling1D()(x).numpy().ravel()
    array([1., 3., 5.], dtype=float32)
    """

    rank, mode = 1, "max"

    def __init__(self, pool_size: Any = 2, strides: Any = None, padding: str = "valid", data_format: Any = None,
                 name: Any = None, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding, data_format, name, **kwargs)


class MaxPooling2D(_Pooling):
    """Maximum over ``pool_size`` windows of ``(batch, height, width, channels)`` images;
    ``strides`` defaults to ``pool_size``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    >>> keras.layers.MaxPooling2D()(x).numpy()[0, :, :, 0]
    array([[ 5.,  7.],
           [13., 15.]], dtype=float32)
    """

    rank, mode = 2, "max"

    def __init__(self, pool_size: Any = (2, 2), strides: Any = None, padding: str = "valid",
                 data_format: Any = None, name: Any = None, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding, data_format, name, **kwargs)


class AveragePooling1D(_Pooling):
    """Mean over windows of ``pool_size`` steps; ``strides`` defaults to ``pool_size``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> x = tf.reshape(tf.range(6.0), [1, 6, 1])
    >>> keras.layers.AveragePooling1D(pool_size=3)(x).numpy().ravel()
    array([1., 4.], dtype=float32)
    """

    rank, mode = 1, "average"


class AveragePooling2D(_Pooling):
    """Mean over ``pool_size`` windows of images; ``strides`` defaults to ``pool_size``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    >>> keras.layers.AveragePooling2D(pool_size=2)(x).numpy()[0, :, :, 0]
    array([[ 2.5,  4.5],
           [10.5, 12.5]], dtype=float32)
    """

    rank, mode = 2, "average"


class _GlobalPooling(Layer):
    rank = 1
    reduce = staticmethod(reduce_mean)

    def __init__(self, data_format: Any = None, keepdims: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = data_format_arg(data_format, type(self).__name__)
        self.keepdims = bool(keepdims)

    @property
    def _axes(self) -> list:
        first = 1 if self.data_format == "channels_last" else 2
        return list(range(first, first + self.rank))

    def call(self, inputs: Any) -> Any:
        check_input(self, inputs.shape, self.rank + 2)
        return self.reduce(inputs, self._axes, keepdims=self.keepdims)

    def compute_mask(self, inputs: Any, mask: Any = None) -> None:
        return None

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        if self.keepdims:
            return tuple(1 if i in self._axes else d for i, d in enumerate(input_shape))
        return tuple(d for i, d in enumerate(input_shape) if i not in self._axes)

    def get_config(self) -> dict:
        return {**super().get_config(), "data_format": self.data_format, "keepdims": self.keepdims}


class GlobalAveragePooling1D(_GlobalPooling):
    """Mean over the steps of ``(batch, steps, features)``; with a ``mask`` (from an
    ``Embedding(mask_zero=True)``, or passed), the mean of the unmasked steps.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> x = tf.reshape(tf.range(6.0), [1, 3, 2])
    >>> keras.layers.GlobalAveragePooling1D()(x, mask=tf.constant([[True, True, False]])).numpy()
    array([[1., 2.]], dtype=float32)
    """

    def call(self, inputs: Any, mask: Any = None) -> Any:
        if mask is None:
            return super().call(inputs)
        check_input(self, inputs.shape, 3)
        m = expand_dims(cast(mask, "bool"), 2 if self.data_format == "channels_last" else 1)
        total = reduce_sum(where(m, inputs, 0.0), self._axes, keepdims=self.keepdims)
        return total / reduce_sum(cast(m, inputs.dtype), self._axes, keepdims=self.keepdims)


class GlobalAveragePooling2D(_GlobalPooling):
    """Mean over the height and width of images.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.GlobalAveragePooling2D(keepdims=True)(tf.ones([2, 4, 4, 3])).shape
    TensorShape([2, 1, 1, 3])
    """

    rank = 2


class GlobalMaxPooling1D(_GlobalPooling):
    """Maximum over the steps of ``(batch, steps, features)``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.GlobalMaxPooling1D()(tf.reshape(tf.range(6.0), [1, 3, 2])).numpy()
    array([[4., 5.]], dtype=float32)
    """

    reduce = staticmethod(reduce_max)


class GlobalMaxPooling2D(_GlobalPooling):
    """Maximum over the height and width of images.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.GlobalMaxPooling2D()(tf.ones([2, 4, 4, 3])).shape
    TensorShape([2, 3])
    """

    rank, reduce = 2, staticmethod(reduce_max)


# Keras's other names for the same classes
MaxPool1D, MaxPool2D, AvgPool1D, AvgPool2D = MaxPooling1D, MaxPooling2D, AveragePooling1D, AveragePooling2D
GlobalAvgPool1D, GlobalAvgPool2D, GlobalMaxPool1D, GlobalMaxPool2D = (
    GlobalAveragePooling1D, GlobalAveragePooling2D, GlobalMaxPooling1D, GlobalMaxPooling2D)


_AXES = {1: "integer or tuple of 1 integer", 2: "integer or (height, width) tuple",
         3: "integer or (depth, height, width) tuple"}


class _AdaptivePooling(Layer):
    """Pooling to a fixed ``output_size`` per spatial axis: output ``i`` of an axis of length
    ``L`` pools entries ``floor(i L / out)`` to ``ceil((i + 1) L / out)``."""

    rank = 1
    mode = "average"

    def __init__(self, output_size: Any, data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        n = self.rank
        if isinstance(output_size, int):
            output_size = (output_size,) * n
        elif isinstance(output_size, (tuple, list)) and len(output_size) == n:
            output_size = tuple(output_size)
        elif n == 1 and isinstance(output_size, (tuple, list)):
            raise ValueError(f"For 1D input, `output_size` tuple must have length 1. Received: {output_size}")
        else:
            raise TypeError(f"`output_size` must be an {_AXES[n]}. Received: {output_size} of type "
                            f"{type(output_size)}")
        self.output_size = output_size
        self.data_format = data_format or backend.image_data_format()
        if self.data_format not in {"channels_first", "channels_last"}:
            raise ValueError(f"Invalid data_format: {self.data_format}. Expected 'channels_first' or "
                             "'channels_last'.")

    def call(self, inputs: Any) -> Any:
        pool = _kops.adaptive_average_pool if self.mode == "average" else _kops.adaptive_max_pool
        return pool(inputs, output_size=self.output_size, data_format=self.data_format)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        if self.data_format == "channels_last":
            return (input_shape[0], *self.output_size, input_shape[-1])
        return (input_shape[0], input_shape[1], *self.output_size)

    def get_config(self) -> dict:
        return {**super().get_config(), "output_size": self.output_size, "data_format": self.data_format}


class AdaptiveAveragePooling1D(_AdaptivePooling):
    """Average pooling of ``(batch, steps, channels)`` to ``output_size`` steps.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.layers.AdaptiveAveragePooling1D(2)(np.arange(5.0).reshape(1, 5, 1)).numpy()[0, :, 0]
    array([1., 3.], dtype=float32)
    """


class AdaptiveAveragePooling2D(_AdaptivePooling):
    """Average pooling of 2-D feature maps to ``output_size`` (an int or ``(height, width)``).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.layers.AdaptiveAveragePooling2D(2)(np.ones((1, 5, 7, 3))).shape
    TensorShape([1, 2, 2, 3])
    """

    rank = 2


class AdaptiveAveragePooling3D(_AdaptivePooling):
    """Average pooling of 3-D feature maps to ``output_size`` (an int or ``(depth, height, width)``).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.layers.AdaptiveAveragePooling3D((1, 2, 3))(np.ones((1, 4, 5, 7, 2))).shape
    TensorShape([1, 1, 2, 3, 2])
    """

    rank = 3


class AdaptiveMaxPooling1D(_AdaptivePooling):
    """Max pooling of ``(batch, steps, channels)`` to ``output_size`` steps.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.layers.AdaptiveMaxPooling1D(2)(np.arange(5.0).reshape(1, 5, 1)).numpy()[0, :, 0]
    array([2., 4.], dtype=float32)
    """

    mode = "max"


class AdaptiveMaxPooling2D(_AdaptivePooling):
    """Max pooling of 2-D feature maps to ``output_size`` (an int or ``(height, width)``).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.layers.AdaptiveMaxPooling2D((2, 3))(np.ones((1, 5, 7, 3))).shape
    TensorShape([1, 2, 3, 3])
    """

    rank, mode = 2, "max"


class AdaptiveMaxPooling3D(_AdaptivePooling):
    """Max pooling of 3-D feature maps to ``output_size`` (an int or ``(depth, height, width)``).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.layers.AdaptiveMaxPooling3D(2)(np.ones((1, 4, 5, 7, 2))).shape
    TensorShape([1, 2, 2, 2, 2])
    """

    rank, mode = 3, "max"
