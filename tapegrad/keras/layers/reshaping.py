"""Keras 3's image reshaping layers: UpSampling2D, ZeroPadding2D, Cropping2D."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .._engine import convert_to_tensor
from ...ops.array import pad, repeat
from ...ops.linalg import einsum
from .layer import Layer
from .conv import check_input, data_format_arg, int_tuple

__all__ = ["UpSampling2D", "ZeroPadding2D", "Cropping2D"]


def _pairs(value: Any, arg: str, layer: str) -> tuple:
    """An int, 2 ints or 2 pairs of ints as ``((top, bottom), (left, right))``, all >= 0."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value, value)
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise ValueError(f"{layer}: `{arg}` should be an int, a tuple of 2 ints or a tuple of 2 tuples of "
                         f"2 ints. Received: {arg}={value!r}")
    out = []
    for i, v in enumerate(value):
        what = f"{arg}[{i}]"
        out.append(int_tuple(v, 2, what, layer, allow_zero=True) if isinstance(v, (tuple, list))
                   else int_tuple(v, 1, what, layer, allow_zero=True) * 2)
    return tuple(out)


def _hw_axes(data_format: str) -> tuple:
    return (1, 2) if data_format == "channels_last" else (2, 3)


def _linear_weights(n_in: int, n_out: int) -> np.ndarray:
    """``(n_out, n_in)`` half-pixel-centred linear interpolation, as TensorFlow's bilinear resize:
    source ``(o + 0.5) * n_in / n_out - 0.5``, neighbours clamped to the edge."""
    src = (np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5
    low = np.floor(src)
    lerp = src - low
    lo = np.clip(low, 0, n_in - 1).astype(int)
    hi = np.clip(np.ceil(src), 0, n_in - 1).astype(int)
    w = np.zeros((n_out, n_in))
    np.add.at(w, (np.arange(n_out), lo), 1 - lerp)
    np.add.at(w, (np.arange(n_out), hi), lerp)
    return w


class UpSampling2D(Layer):
    """Repeats rows and columns ``size`` times (``interpolation="nearest"``) or resizes the
    images to ``size`` times their height and width by bilinear interpolation
    (``"bilinear"``, half-pixel centres, as ``tf.image.resize``).

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> x = tf.reshape(tf.range(4.0), [1, 2, 2, 1])
    >>> keras.layers.UpSampling2D()(x).numpy()[0, :, :, 0]
    array([[0., 0., 1., 1.],
           [0., 0., 1., 1.],
           [2., 2., 3., 3.],
           [2., 2., 3., 3.]], dtype=float32)
    >>> keras.layers.UpSampling2D(interpolation="bilinear")(x).numpy()[0, 0, :, 0]
    array([0.  , 0.25, 0.75, 1.  ], dtype=float32)
    """

    def __init__(self, size: Any = (2, 2), data_format: Any = None, interpolation: str = "nearest",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.size = int_tuple(size, 2, "size", "UpSampling2D")
        self.data_format = data_format_arg(data_format, "UpSampling2D")
        if interpolation not in ("nearest", "bilinear"):
            raise ValueError(f"UpSampling2D: `interpolation` must be 'nearest' or 'bilinear' in tapegrad. "
                             f"Received: interpolation={interpolation!r}")
        self.interpolation = interpolation

    def call(self, inputs: Any) -> Any:
        x = convert_to_tensor(inputs)
        check_input(self, x.shape, 4)
        ah, aw = _hw_axes(self.data_format)
        if self.interpolation == "nearest":
            return repeat(repeat(x, self.size[0], axis=ah), self.size[1], axis=aw)
        h, w = x.shape[ah], x.shape[aw]
        wh = convert_to_tensor(_linear_weights(h, h * self.size[0]).astype(x.dtype.as_numpy_dtype))
        ww = convert_to_tensor(_linear_weights(w, w * self.size[1]).astype(x.dtype.as_numpy_dtype))
        spec = "nhwc" if self.data_format == "channels_last" else "nchw"
        y = einsum(f"ph,{spec}->{spec.replace('h', 'p')}", wh, x)
        return einsum(f"qw,{spec.replace('h', 'p')}->{spec.replace('h', 'p').replace('w', 'q')}", ww, y)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        out = list(input_shape)
        for ax, s in zip(_hw_axes(self.data_format), self.size):
            out[ax] = None if out[ax] is None else out[ax] * s
        return tuple(out)

    def get_config(self) -> dict:
        return {**super().get_config(), "size": self.size, "data_format": self.data_format,
                "interpolation": self.interpolation}


class ZeroPadding2D(Layer):
    """Adds rows and columns of zeros around images: ``padding`` is an int (all sides), a pair
    ``(rows, cols)`` (symmetric) or ``((top, bottom), (left, right))``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.ZeroPadding2D(((1, 0), (2, 2)))(tf.ones([1, 3, 3, 1])).shape
    TensorShape([1, 4, 7, 1])
    """

    def __init__(self, padding: Any = (1, 1), data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.padding = _pairs(padding, "padding", "ZeroPadding2D")
        self.data_format = data_format_arg(data_format, "ZeroPadding2D")

    def call(self, inputs: Any) -> Any:
        x = convert_to_tensor(inputs)
        check_input(self, x.shape, 4)
        p = [[0, 0], list(self.padding[0]), list(self.padding[1])]
        return pad(x, p + [[0, 0]] if self.data_format == "channels_last" else [[0, 0]] + p)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        out = list(input_shape)
        for ax, (a, b) in zip(_hw_axes(self.data_format), self.padding):
            out[ax] = None if out[ax] is None else out[ax] + a + b
        return tuple(out)

    def get_config(self) -> dict:
        return {**super().get_config(), "padding": self.padding, "data_format": self.data_format}


class Cropping2D(Layer):
    """Removes rows and columns at the edges of images: ``cropping`` is an int (all sides), a
    pair ``(rows, cols)`` (symmetric) or ``((top, bottom), (left, right))``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.Cropping2D(((1, 0), (2, 1)))(tf.ones([1, 5, 6, 2])).shape
    TensorShape([1, 4, 3, 2])
    """

    def __init__(self, cropping: Any = ((0, 0), (0, 0)), data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cropping = _pairs(cropping, "cropping", "Cropping2D")
        self.data_format = data_format_arg(data_format, "Cropping2D")

    def call(self, inputs: Any) -> Any:
        x = convert_to_tensor(inputs)
        check_input(self, x.shape, 4)
        self.compute_output_shape(tuple(x.shape))
        (t, b), (left, r) = self.cropping
        ah, aw = _hw_axes(self.data_format)
        rows, cols = slice(t, x.shape[ah] - b), slice(left, x.shape[aw] - r)
        return x[:, rows, cols, :] if self.data_format == "channels_last" else x[:, :, rows, cols]

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        out = list(input_shape)
        for ax, (a, b) in zip(_hw_axes(self.data_format), self.cropping):
            if out[ax] is not None:
                if a + b >= out[ax]:
                    raise ValueError(f"Cropping2D: values in `cropping` should be smaller than the corresponding "
                                     f"spatial dimension of the input. Received: input_shape={tuple(input_shape)}, "
                                     f"cropping={self.cropping}")
                out[ax] = out[ax] - a - b
        return tuple(out)

    def get_config(self) -> dict:
        return {**super().get_config(), "cropping": self.cropping, "data_format": self.data_format}
