"""Keras 3's image preprocessing layers Resizing and CenterCrop (``tf.image.resize``'s
interpolations; the aspect-ratio crop and pad of Keras's TensorFlow backend). Images are
``(batch, height, width, channels)`` or one ``(height, width, channels)`` image (channels
first with ``data_format="channels_first"``)."""
from __future__ import annotations

from typing import Any, Sequence

from .._engine import convert_to_tensor
from .._engine import Tensor
from ...ops.array import expand_dims, squeeze, transpose
from ...ops.math import cast, clip_by_value
from ...ops.special import round as round_
from ..ops import _resize_channels_last as resize
from .layer import Layer
from .conv import data_format_arg

__all__ = ["Resizing", "CenterCrop"]

_INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")


def images_arg(layer: Layer, inputs: Any) -> tuple:
    """``inputs`` as a float batch of channels-last images, and how to undo that."""
    x = convert_to_tensor(inputs)
    if x.shape.rank not in (3, 4):
        raise ValueError("Expected image tensor to have rank 3 (single image) or 4 (batch of images). "
                         f"Received: data.shape={tuple(x.shape)}")
    if x.dtype != layer.compute_dtype:
        x = cast(x, layer.compute_dtype)
    single = x.shape.rank == 3
    if single:
        x = expand_dims(x, 0)
    first = layer.data_format == "channels_first"
    if first:
        x = transpose(x, [0, 2, 3, 1])

    def back(y: Tensor) -> Tensor:
        if first:
            y = transpose(y, [0, 3, 1, 2])
        return squeeze(y, [0]) if single else y
    return x, back


class Resizing(Layer):
    """Resizes images to ``(height, width)`` with ``interpolation`` (``"bilinear"``,
    ``"nearest"``, ``"bicubic"``, ``"area"``, ``"lanczos3"``, ``"lanczos5"``);
    ``crop_to_aspect_ratio`` first crops the largest central window of the target's aspect
    ratio, ``pad_to_aspect_ratio`` first pads with ``fill_value`` to it. Integer images come
    back in their dtype (rounded, saturated); others in the layer's dtype.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.Resizing(2, 3)(tf.ones([4, 8, 6, 3])).shape
    TensorShape([4, 2, 3, 3])
    """

    _data_layer = True  # (Keras's DataLayer: see Layer._data_layer)

    def __init__(self, height: int, width: int, interpolation: str = "bilinear", crop_to_aspect_ratio: bool = False,
                 pad_to_aspect_ratio: bool = False, fill_mode: str = "constant", fill_value: float = 0.0,
                 antialias: bool = False, data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if interpolation not in _INTERPOLATIONS:
            raise ValueError(f"Invalid value for argument `interpolation`. Expected of one {_INTERPOLATIONS}. "
                             f"Received: interpolation={interpolation}")
        if fill_mode != "constant":
            raise ValueError(f"Invalid value for argument `fill_mode`. Only `'constant'` is supported. "
                             f"Received: fill_mode={fill_mode}")
        if pad_to_aspect_ratio and crop_to_aspect_ratio:
            raise ValueError("Only one of `pad_to_aspect_ratio` & `crop_to_aspect_ratio` can be `True`.")
        self.height, self.width, self.interpolation = height, width, interpolation
        self.crop_to_aspect_ratio, self.pad_to_aspect_ratio = crop_to_aspect_ratio, pad_to_aspect_ratio
        self.fill_mode, self.fill_value, self.antialias = fill_mode, fill_value, bool(antialias)
        self.data_format = data_format_arg(data_format, "Resizing")

    def call(self, inputs: Any, training: bool = True) -> Tensor:  # (Keras's signature)
        dtype = convert_to_tensor(inputs).dtype
        x, back = images_arg(self, inputs)
        y = back(resize(x, (self.height, self.width), self.interpolation, self.antialias,
                        self.crop_to_aspect_ratio, self.pad_to_aspect_ratio, self.fill_value))
        if dtype.is_integer:   # integer images keep their dtype: rounded, saturated
            y = cast(clip_by_value(round_(y), dtype.min, dtype.max), dtype)
        return y

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        out = list(input_shape)
        h, w = (-3, -2) if self.data_format == "channels_last" else (-2, -1)
        out[h], out[w] = self.height, self.width
        return tuple(out)

    def get_config(self) -> dict:
        return {**super().get_config(), "height": self.height, "width": self.width,
                "interpolation": self.interpolation, "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
                "pad_to_aspect_ratio": self.pad_to_aspect_ratio, "fill_mode": self.fill_mode,
                "fill_value": self.fill_value, "antialias": self.antialias, "data_format": self.data_format}


class CenterCrop(Layer):
    """The central ``(height, width)`` window of images; an image smaller than that on either
    side is instead cropped to the target's aspect ratio and resized (bilinear), as Keras's
    ``smart_resize``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    >>> keras.layers.CenterCrop(2, 2)(x).numpy()[0, :, :, 0]
    array([[ 5.,  6.],
           [ 9., 10.]], dtype=float32)
    """

    _data_layer = True  # (Keras's DataLayer: see Layer._data_layer)

    def __init__(self, height: int, width: int, data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.height, self.width = height, width
        self.data_format = data_format_arg(data_format, "CenterCrop")

    def call(self, inputs: Any, training: bool = True) -> Tensor:  # (Keras's signature)
        x, back = images_arg(self, inputs)
        h, w = int(x.shape[1]), int(x.shape[2])
        if h >= self.height and w >= self.width:
            top, left = (h - self.height) // 2, (w - self.width) // 2
            return back(x[:, top:top + self.height, left:left + self.width, :])
        return back(resize(x, (self.height, self.width), "bilinear", crop_to_aspect_ratio=True))

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        out = list(input_shape)
        h, w = (-3, -2) if self.data_format == "channels_last" else (-2, -1)
        out[h], out[w] = self.height, self.width
        return tuple(out)

    def get_config(self) -> dict:
        return {**super().get_config(), "height": self.height, "width": self.width, "data_format": self.data_format}
