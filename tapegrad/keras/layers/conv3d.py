"""Keras 3's Conv3D, Conv1DTranspose and Conv3DTranspose, and the 3-D poolings (MaxPooling3D,
AveragePooling3D, GlobalAveragePooling3D, GlobalMaxPooling3D): the 1-D/2-D layers' code at rank
1 or 3 over ``tapegrad.nn``'s ``conv3d``, ``conv1d_transpose``, ``conv3d_transpose`` and 3-D pools."""
from __future__ import annotations

from typing import Any

from ... import nn
from ...ops.array import concat, split
from ...ops.reduction import reduce_max
from .conv import Conv2DTranspose, _BaseConv
from .pooling import _GlobalPooling, _Pooling

__all__ = ["Conv3D", "Conv1DTranspose", "Conv3DTranspose", "MaxPooling3D", "AveragePooling3D",
           "GlobalAveragePooling3D", "GlobalMaxPooling3D", "Convolution3D", "Convolution1DTranspose",
           "Convolution3DTranspose", "MaxPool3D", "AvgPool3D", "GlobalAvgPool3D", "GlobalMaxPool3D"]


class Conv3D(_BaseConv):
    """3-D convolution over ``(batch, depth, height, width, channels)`` volumes.

    Keras 3's arguments and defaults: ``filters``, ``kernel_size``, ``strides=(1, 1, 1)``,
    ``padding="valid"`` or ``"same"``, ``data_format``, ``dilation_rate``, ``groups``,
    ``activation``, ``use_bias``, initializers, regularizers and constraints. The kernel has shape
    ``kernel_size + (in_channels // groups, filters)``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.Conv3D(4, 3, padding="same")(tf.ones([2, 5, 6, 7, 3])).shape
    TensorShape([2, 5, 6, 7, 4])
    """

    rank = 3

    def _conv(self, x: Any, kernel: Any, strides: tuple, padding: str, fmt: str, dilations: tuple) -> Any:
        if self.groups == 1:
            return nn.conv3d(x, kernel, strides, padding, fmt, dilations)
        axis = -1 if fmt == "NDHWC" else 1
        parts = zip(split(x, self.groups, axis=axis), split(kernel, self.groups, axis=-1))
        return concat([nn.conv3d(xi, ki, strides, padding, fmt, dilations) for xi, ki in parts], axis=axis)


class Conv1DTranspose(Conv2DTranspose):
    """Transposed 1-D convolution over ``(batch, steps, channels)``; the kernel has shape
    ``(kernel_size, filters, in_channels)``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.Conv1DTranspose(3, 3, strides=2)(tf.ones([1, 4, 2])).shape
    TensorShape([1, 9, 3])
    """

    rank = 1

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 output_padding: Any = None, data_format: Any = None, dilation_rate: Any = 1,
                 **kwargs: Any) -> None:
        super().__init__(filters, kernel_size, strides, padding, output_padding, data_format, dilation_rate,
                         **kwargs)


class Conv3DTranspose(Conv2DTranspose):
    """Transposed 3-D convolution over volumes; the kernel has shape
    ``kernel_size + (filters, in_channels)``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.Conv3DTranspose(3, 2, strides=2, padding="same")(tf.ones([1, 2, 3, 4, 5])).shape
    TensorShape([1, 4, 6, 8, 3])
    """

    rank = 3

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1, 1), padding: str = "valid",
                 output_padding: Any = None, data_format: Any = None, dilation_rate: Any = (1, 1, 1),
                 **kwargs: Any) -> None:
        super().__init__(filters, kernel_size, strides, padding, output_padding, data_format, dilation_rate,
                         **kwargs)


class MaxPooling3D(_Pooling):
    """Maximum over ``pool_size`` windows of ``(batch, depth, height, width, channels)`` volumes;
    ``strides`` defaults to ``pool_size``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.MaxPooling3D()(tf.ones([1, 4, 4, 5, 2])).shape
    TensorShape([1, 2, 2, 2, 2])
    """

    rank, mode = 3, "max"

    def __init__(self, pool_size: Any = (2, 2, 2), strides: Any = None, padding: str = "valid",
                 data_format: Any = None, name: Any = None, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding, data_format, name, **kwargs)


class AveragePooling3D(_Pooling):
    """Mean over ``pool_size`` windows of volumes (``"same"``: over each window's non-padded
    entries); ``strides`` defaults to ``pool_size``."""

    rank, mode = 3, "average"

    def __init__(self, pool_size: Any = (2, 2, 2), strides: Any = None, padding: str = "valid",
                 data_format: Any = None, name: Any = None, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding, data_format, name, **kwargs)


class GlobalAveragePooling3D(_GlobalPooling):
    """Mean over the depth, height and width of volumes (``keepdims`` keeps them as size 1)."""

    rank = 3


class GlobalMaxPooling3D(_GlobalPooling):
    """Maximum over the depth, height and width of volumes (``keepdims`` keeps them as size 1)."""

    rank, reduce = 3, staticmethod(reduce_max)


# Keras's other names for the same classes
Convolution3D, Convolution1DTranspose, Convolution3DTranspose = Conv3D, Conv1DTranspose, Conv3DTranspose
MaxPool3D, AvgPool3D, GlobalAvgPool3D, GlobalMaxPool3D = (MaxPooling3D, AveragePooling3D, GlobalAveragePooling3D,
                                                          GlobalMaxPooling3D)
