"""Keras 3's 1-D and 3-D reshaping layers: ZeroPadding1D/3D, UpSampling1D/3D, Cropping1D/3D
(the 2-D ones are in ``reshaping``)."""
from __future__ import annotations

from typing import Any, Sequence

from .._engine import convert_to_tensor
from ...ops.array import pad, repeat
from .layer import Layer
from .conv import check_input, data_format_arg, int_tuple

__all__ = ["ZeroPadding1D", "ZeroPadding3D", "UpSampling1D", "UpSampling3D", "Cropping1D", "Cropping3D"]


def _pairs3(value: Any, arg: str, layer: str) -> tuple:
    """An int, 3 ints or 3 pairs of ints as three ``(before, after)`` pairs, all >= 0."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * 3
    if not isinstance(value, (tuple, list)) or len(value) != 3:
        raise ValueError(f"{layer}: `{arg}` should be either an int, a tuple of 3 ints or a tuple of 3 tuples "
                         f"of 2 ints. Received: {arg}={value!r}")
    return tuple(int_tuple(v, 2, f"{arg}[{i}]", layer, allow_zero=True) if isinstance(v, (tuple, list))
                 else int_tuple(v, 1, f"{arg}[{i}]", layer, allow_zero=True) * 2 for i, v in enumerate(value))


class _Spatial(Layer):
    """A layer over the ``rank`` spatial axes of ``(batch, *spatial, channels)`` inputs (channels
    second with ``data_format="channels_first"``)."""

    rank = 1
    data_format = "channels_last"

    def _axes(self) -> list:
        first = 1 if self.data_format == "channels_last" else 2
        return list(range(first, first + self.rank))

    def _x(self, inputs: Any) -> Any:
        x = convert_to_tensor(inputs)
        check_input(self, x.shape, self.rank + 2)
        return x


class _ZeroPadding(_Spatial):
    def call(self, inputs: Any) -> Any:
        x = self._x(inputs)
        widths = [[0, 0]] * (self.rank + 2)
        for ax, p in zip(self._axes(), self._pads):
            widths[ax] = list(p)
        return pad(x, widths)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        out = list(input_shape)
        for ax, (a, b) in zip(self._axes(), self._pads):
            out[ax] = None if out[ax] is None else out[ax] + a + b
        return tuple(out)

    def get_config(self) -> dict:
        return {**super().get_config(), "padding": self.padding, "data_format": self.data_format}


class ZeroPadding1D(_ZeroPadding):
    """Adds zeros at the start and end of the steps of ``(batch, steps, features)``: ``padding``
    is an int or a pair ``(start, end)``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.ZeroPadding1D((1, 2))(tf.ones([1, 3, 2])).shape
    TensorShape([1, 6, 2])
    """

    def __init__(self, padding: Any = 1, data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = data_format_arg(data_format, "ZeroPadding1D")
        self.padding = int_tuple(padding, 2, "padding", "ZeroPadding1D", allow_zero=True)
        self._pads = (self.padding,)


class ZeroPadding3D(_ZeroPadding):
    """Adds zeros around volumes: ``padding`` is an int, 3 ints (symmetric per axis) or 3 pairs.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.ZeroPadding3D(((1, 0), 1, (0, 2)))(tf.ones([1, 2, 2, 2, 1])).shape
    TensorShape([1, 3, 4, 4, 1])
    """

    rank = 3

    def __init__(self, padding: Any = ((1, 1), (1, 1), (1, 1)), data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = data_format_arg(data_format, "ZeroPadding3D")
        self.padding = self._pads = _pairs3(padding, "padding", "ZeroPadding3D")


class UpSampling1D(_Spatial):
    """Repeats each step ``size`` times: ``(batch, steps, features) -> (batch, steps * size, features)``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.UpSampling1D(2)(tf.constant([[[1.0], [2.0]]])).numpy().ravel()
    array([1., 1., 2., 2.], dtype=float32)
    """

    def __init__(self, size: int = 2, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not isinstance(size, int) or isinstance(size, bool):
            raise TypeError(f"Expected an integer value for `size`, got {type(size)}.")
        if size <= 0:
            raise ValueError(f"Argument `size` should be a positive integer. Received: size={size}")
        self.size = size

    def call(self, inputs: Any) -> Any:
        return repeat(self._x(inputs), self.size, axis=1)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        return (input_shape[0], None if input_shape[1] is None else input_shape[1] * self.size, input_shape[2])

    def get_config(self) -> dict:
        return {**super().get_config(), "size": self.size}


class UpSampling3D(_Spatial):
    """Repeats the three spatial axes of volumes ``size`` times each (nearest neighbour).

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.UpSampling3D((1, 2, 3))(tf.ones([1, 2, 2, 2, 1])).shape
    TensorShape([1, 2, 4, 6, 1])
    """

    rank = 3

    def __init__(self, size: Any = (2, 2, 2), data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = data_format_arg(data_format, "UpSampling3D")
        self.size = int_tuple(size, 3, "size", "UpSampling3D")

    def call(self, inputs: Any) -> Any:
        x = self._x(inputs)
        for ax, s in zip(self._axes(), self.size):
            if s > 1:
                x = repeat(x, s, axis=ax)
        return x

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        out = list(input_shape)
        for ax, s in zip(self._axes(), self.size):
            out[ax] = None if out[ax] is None else out[ax] * s
        return tuple(out)

    def get_config(self) -> dict:
        return {**super().get_config(), "size": self.size, "data_format": self.data_format}


class _Cropping(_Spatial):
    def call(self, inputs: Any) -> Any:
        x = self._x(inputs)
        self.compute_output_shape(tuple(x.shape))
        index = [slice(None)] * (self.rank + 2)
        for ax, (a, b) in zip(self._axes(), self._crops):
            index[ax] = slice(a, x.shape[ax] - b)
        return x[tuple(index)]

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        out = list(input_shape)
        for ax, (a, b) in zip(self._axes(), self._crops):
            if out[ax] is not None:
                if out[ax] - a - b <= 0:
                    raise ValueError(f"`cropping` parameter of `{type(self).__name__}` layer must be smaller than "
                                     f"the input size. Received: input_shape={tuple(input_shape)}, "
                                     f"cropping={self.cropping}")
                out[ax] = out[ax] - a - b
        return tuple(out)


class Cropping1D(_Cropping):
    """Removes steps at the start and end of ``(batch, steps, features)``: ``cropping`` is an
    int or a pair ``(start, end)``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.Cropping1D((1, 2))(tf.ones([1, 5, 2])).shape
    TensorShape([1, 2, 2])
    """

    def __init__(self, cropping: Any = (1, 1), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cropping = int_tuple(cropping, 2, "cropping", "Cropping1D", allow_zero=True)
        self._crops = (self.cropping,)

    def get_config(self) -> dict:
        return {**super().get_config(), "cropping": self.cropping}


class Cropping3D(_Cropping):
    """Removes the edges of volumes: ``cropping`` is an int, 3 ints (symmetric per axis) or 3 pairs.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.Cropping3D(((1, 0), 1, (0, 2)))(tf.ones([1, 4, 4, 4, 1])).shape
    TensorShape([1, 3, 2, 2, 1])
    """

    rank = 3

    def __init__(self, cropping: Any = ((1, 1), (1, 1), (1, 1)), data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = data_format_arg(data_format, "Cropping3D")
        self.cropping = self._crops = _pairs3(cropping, "cropping", "Cropping3D")

    def get_config(self) -> dict:
        return {**super().get_config(), "cropping": self.cropping, "data_format": self.data_format}
