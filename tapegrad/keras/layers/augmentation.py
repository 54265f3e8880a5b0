"""Keras 3's random image augmentation layers: RandomFlip, RandomRotation, RandomZoom,
RandomTranslation, RandomContrast, RandomBrightness and RandomCrop.

As in Keras, a call augments unless ``training=False`` (a direct call ``layer(images)``
augments; ``Model.predict`` and ``evaluate`` do not). Each layer draws its parameters from
``keras.random`` with its own ``SeedGenerator``, in Keras's order and shapes, so a seeded layer
draws the same parameters as Keras on TensorFlow. The rotation, zoom and translation resample
the images as TensorFlow's ``ImageProjectiveTransformV3`` (pixel-index coordinates, the
``"reflect"``, ``"wrap"``, ``"constant"`` and ``"nearest"`` fill modes, ``"bilinear"`` or
``"nearest"`` interpolation), by gathers with fixed weights, so gradients reach the images.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .._engine import convert_to_tensor
from .._engine import Tensor
from ...ops.array import reverse
from ...ops.math import cast, clip_by_value, less_equal, where
from ...ops.reduction import reduce_mean
from .. import random
from ... import image as _image
from .layer import Layer
from .conv import data_format_arg
from .image_layers import images_arg, resize
from .._image_ops import projective_warp as affine_transform

__all__ = ["RandomFlip", "RandomRotation", "RandomZoom", "RandomTranslation", "RandomContrast",
           "RandomBrightness", "RandomCrop", "RandomHeight", "RandomWidth"]

_FILL_MODES = ("reflect", "wrap", "constant", "nearest")
_INTERPOLATIONS = ("nearest", "bilinear")


def _factor_pair(factor: Any, bounds: tuple, name: str = "factor") -> tuple:
    """Keras's ``_set_factor``: a number ``f`` is ``(max(-f, low), f)``, a pair is sorted."""
    msg = (f"The `{name}` argument should be a number (or a list of two numbers) in the range "
           f"[{bounds[0]}, {bounds[1]}]. Received: {name}={factor}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or factor[0] > bounds[1] or factor[1] < bounds[0]:
            raise ValueError(msg)
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)) and not isinstance(factor, bool):
        if factor < bounds[0] or factor > bounds[1]:
            raise ValueError(msg)
        return max(-abs(factor), bounds[0]), abs(factor)
    raise ValueError(msg)


def _hw_factor(factor: Any, name: str, low_open: bool) -> tuple:
    """RandomTranslation's and RandomZoom's factors: a number ``f`` is ``(-|f|, |f|)``; each bound
    in [-1, 1] (zoom: (-1, 1])."""
    def check(v: float) -> None:
        if v > 1.0 or v < -1.0 or (low_open and v == -1.0):
            raise ValueError(f"The `height_factor` and `width_factor` arguments should be a number (or a list of two "
                             f"numbers) in the range {'(' if low_open else '['}-1.0, 1.0]. Received: {name}={factor}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(f"`{name}` should be a number or a list of two numbers. Received: {name}={factor}")
        check(factor[0])
        check(factor[1])
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)) and not isinstance(factor, bool):
        check(factor)
        return -abs(factor), abs(factor)
    raise ValueError(f"`{name}` should be a number or a list of two numbers. Received: {name}={factor}")


def _check_modes(fill_mode: str, interpolation: str) -> None:
    if fill_mode not in _FILL_MODES:
        raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one {_FILL_MODES}.")
    if interpolation not in _INTERPOLATIONS:
        raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one {_INTERPOLATIONS}.")


class _Augmentation(Layer):
    """What the augmentation layers share: a seed, a generator, channels-last batching."""

    _data_layer = True  # (Keras's DataLayer: see Layer._data_layer)

    def __init__(self, seed: int | None, data_format: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seed = seed
        self.generator = random.SeedGenerator(seed)
        self.data_format = data_format_arg(data_format, type(self).__name__)

    def call(self, inputs: Any, training: bool = True) -> Tensor:
        x, back = images_arg(self, inputs)
        return back(self._augment(x)) if training else back(x)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        return tuple(input_shape)


class RandomFlip(_Augmentation):
    """Flips each image with probability 1/2: ``mode`` ``"horizontal"``, ``"vertical"`` or
    ``"horizontal_and_vertical"`` (one draw per image flips both axes, as Keras).

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> x = tf.reshape(tf.range(4.0), [1, 1, 4, 1])
    >>> keras.layers.RandomFlip("horizontal", seed=1)(x, training=False).numpy().ravel()
    array([0., 1., 2., 3.], dtype=float32)
    """

    def __init__(self, mode: str = "horizontal_and_vertical", seed: int | None = None, data_format: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(seed, data_format, **kwargs)
        if mode not in ("horizontal", "vertical", "horizontal_and_vertical"):
            raise ValueError(f"RandomFlip layer {self.name} received an unknown mode argument {mode}")
        self.mode = mode

    def _augment(self, x: Tensor) -> Tensor:
        flips = less_equal(random.uniform((int(x.shape[0]), 1, 1, 1), seed=self.generator), 0.5)
        if self.mode in ("horizontal", "horizontal_and_vertical"):
            x = where(flips, reverse(x, [2]), x)
        if self.mode in ("vertical", "horizontal_and_vertical"):
            x = where(flips, reverse(x, [1]), x)
        return x

    def get_config(self) -> dict:
        return {**super().get_config(), "mode": self.mode, "seed": self.seed, "data_format": self.data_format}


class _Affine(_Augmentation):
    def __init__(self, fill_mode: str, interpolation: str, seed: int | None, fill_value: float, data_format: Any,
                 **kwargs: Any) -> None:
        super().__init__(seed, data_format, **kwargs)
        _check_modes(fill_mode, interpolation)
        self.fill_mode, self.interpolation, self.fill_value = fill_mode, interpolation, fill_value

    def _augment(self, x: Tensor) -> Tensor:
        return affine_transform(x, self._transforms(int(x.shape[0]), int(x.shape[1]), int(x.shape[2])),
                                self.interpolation, self.fill_mode, self.fill_value)

    def get_config(self) -> dict:
        return {**super().get_config(), "fill_mode": self.fill_mode, "interpolation": self.interpolation,
                "seed": self.seed, "fill_value": self.fill_value, "data_format": self.data_format}


class RandomRotation(_Affine):
    """Rotates each image about its centre by a random angle of ``factor * 360`` degrees
    (``factor`` a number ``f``, for ``[-f, f]``, or a pair), filling with ``fill_mode``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandomRotation(0.1, seed=0)(tf.ones([2, 5, 5, 3])).shape
    TensorShape([2, 5, 5, 3])
    """

    def __init__(self, factor: Any, fill_mode: str = "reflect", interpolation: str = "bilinear",
                 seed: int | None = None, fill_value: float = 0.0, data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.factor = _factor_pair(factor, (-1, 1))

    def _transforms(self, b: int, h: int, w: int) -> np.ndarray:
        angle = random.uniform((b,), self.factor[0] * 360.0, self.factor[1] * 360.0, seed=self.generator).numpy()
        a = angle * np.float32(math.pi / 180.0)
        cos, sin = np.cos(a), np.sin(a)
        cx, cy = np.float32(0.5) * np.float32(w - 1), np.float32(0.5) * np.float32(h - 1)
        return np.stack([cos, -sin, cx - cx * cos - cy * -sin, sin, cos, cy - cx * sin - cy * cos,
                         np.zeros(b, np.float32), np.zeros(b, np.float32)], axis=1)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor}


class RandomTranslation(_Affine):
    """Shifts each image by random fractions of its height and width (``height_factor`` and
    ``width_factor``: a number ``f`` for ``[-f, f]``, or a pair), filling with ``fill_mode``."""

    def __init__(self, height_factor: Any, width_factor: Any, fill_mode: str = "reflect",
                 interpolation: str = "bilinear", seed: int | None = None, fill_value: float = 0.0,
                 data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _hw_factor(height_factor, "height_factor", False)
        self.width_lower, self.width_upper = _hw_factor(width_factor, "width_factor", False)

    def _transforms(self, b: int, h: int, w: int) -> np.ndarray:
        dy = random.uniform([b, 1], self.height_lower, self.height_upper, seed=self.generator).numpy() * np.float32(h)
        dx = random.uniform([b, 1], self.width_lower, self.width_upper, seed=self.generator).numpy() * np.float32(w)
        one, zero = np.ones((b, 1), np.float32), np.zeros((b, 1), np.float32)
        return np.concatenate([one, zero, -dx, zero, one, -dy, zero, zero], axis=1)

    def get_config(self) -> dict:
        return {**super().get_config(), "height_factor": self.height_factor, "width_factor": self.width_factor}


class RandomZoom(_Affine):
    """Zooms each image about its centre by a random factor: ``height_factor`` (and
    ``width_factor``; ``None`` keeps the aspect ratio) a number ``f`` for ``[-f, f]`` or a pair;
    the image is scaled by ``1 + draw`` (a positive draw zooms out), filling with ``fill_mode``."""

    def __init__(self, height_factor: Any, width_factor: Any = None, fill_mode: str = "reflect",
                 interpolation: str = "bilinear", seed: int | None = None, fill_value: float = 0.0,
                 data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _hw_factor(height_factor, "height_factor", True)
        if width_factor is not None:
            self.width_lower, self.width_upper = _hw_factor(width_factor, "width_factor", True)

    def _transforms(self, b: int, h: int, w: int) -> np.ndarray:
        zh = random.uniform((b, 1), 1.0 + self.height_lower, 1.0 + self.height_upper, seed=self.generator).numpy()
        zw = (zh if self.width_factor is None else
              random.uniform((b, 1), 1.0 + self.width_lower, 1.0 + self.width_upper, seed=self.generator).numpy())
        zero = np.zeros((b, 1), np.float32)
        x_off = (np.float32(w) - np.float32(1)) / np.float32(2) * (np.float32(1) - zw)
        y_off = (np.float32(h) - np.float32(1)) / np.float32(2) * (np.float32(1) - zh)
        return np.concatenate([zw, zero, x_off, zero, zh, y_off, zero, zero], axis=1)

    def get_config(self) -> dict:
        return {**super().get_config(), "height_factor": self.height_factor, "width_factor": self.width_factor}


class RandomContrast(_Augmentation):
    """Scales each image's deviation from its per-channel mean by a random factor in
    ``[1 - lower, 1 + upper]`` and clips to ``value_range``; ``factor`` is a pair in [0, 1], or
    a number ``f`` for ``(0, f)`` (Keras's bounds: a number never lowers the contrast)."""

    def __init__(self, factor: Any, value_range: Sequence = (0, 255), seed: int | None = None,
                 **kwargs: Any) -> None:
        super().__init__(seed, kwargs.pop("data_format", None), **kwargs)
        self.factor = _factor_pair(factor, (0, 1))
        self.value_range = value_range

    def _augment(self, x: Tensor) -> Tensor:
        f = random.uniform((int(x.shape[0]), 1, 1, 1), 1.0 - self.factor[0], 1.0 + self.factor[1],
                           dtype=self.compute_dtype, seed=self.generator)
        mean = reduce_mean(reduce_mean(x, 1, keepdims=True), 2, keepdims=True)
        return clip_by_value((x - mean) * f + mean, self.value_range[0], self.value_range[1])

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed,
                "data_format": self.data_format}


class RandomBrightness(_Augmentation):
    """Adds a random ``delta * (value_range[1] - value_range[0])`` to each image (``delta`` drawn
    in ``factor``: a number ``f`` for ``[-f, f]``, or a pair in [-1, 1]) and clips to ``value_range``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> y = keras.layers.RandomBrightness(0.5, value_range=(0, 1), seed=3)(tf.fill([1, 2, 2, 1], 0.5))
    >>> bool(tf.reduce_all((y >= 0) & (y <= 1)))
    True
    """

    def __init__(self, factor: Any, value_range: Sequence = (0, 255), seed: int | None = None,
                 **kwargs: Any) -> None:
        super().__init__(seed, kwargs.pop("data_format", None), **kwargs)
        self.factor = _factor_pair(factor, (-1, 1))
        if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
            raise ValueError("The `value_range` argument should be a list of two numbers. "
                             f"Received: value_range={value_range}")
        self.value_range = sorted(value_range)

    def _augment(self, x: Tensor) -> Tensor:
        delta = random.uniform((int(x.shape[0]), 1, 1, 1), self.factor[0], self.factor[1], seed=self.generator)
        delta = cast(delta * (self.value_range[1] - self.value_range[0]), x.dtype)
        return clip_by_value(x + delta, self.value_range[0], self.value_range[1])

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed,
                "data_format": self.data_format}


class RandomCrop(_Augmentation):
    """In training, a random ``(height, width)`` window of the images (one window for the whole
    batch, as Keras); an image not larger than the target on both sides is instead cropped
    centrally to the target's aspect ratio and resized. With ``training=False`` the images pass
    through unchanged (Keras 3.15's behaviour).

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandomCrop(3, 4, seed=1)(tf.ones([2, 6, 7, 1])).shape
    TensorShape([2, 3, 4, 1])
    """

    def __init__(self, height: int, width: int, seed: int | None = None, data_format: Any = None,
                 name: Any = None, **kwargs: Any) -> None:
        drawn = seed if seed is not None else random.make_default_seed()  # (Keras: before the generator's)
        super().__init__(seed, data_format, name=name, **kwargs)
        self.height, self.width, self.seed = height, width, drawn

    def _augment(self, x: Tensor) -> Tensor:
        h, w = int(x.shape[1]), int(x.shape[2])
        if h > self.height and w > self.width:
            top = int(random.uniform((), 0, float(h - self.height + 1), seed=self.generator).numpy())
            left = int(random.uniform((), 0, float(w - self.width + 1), seed=self.generator).numpy())
        else:
            ch = max(min(h, int(float(w * self.height) / self.width)), 1)
            cw = max(min(w, int(float(h * self.width) / self.height)), 1)
            top, left = int(float(h - ch) / 2), int(float(w - cw) / 2)
        y = x[:, top:top + self.height, left:left + self.width, :]
        if int(y.shape[1]) != self.height or int(y.shape[2]) != self.width:
            y = resize(y, (self.height, self.width), "bilinear")
        return y

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        out = list(input_shape)
        hx, wx = (-3, -2) if self.data_format == "channels_last" else (-2, -1)
        out[hx], out[wx] = self.height, self.width
        return tuple(out)

    def get_config(self) -> dict:
        return {**super().get_config(), "height": self.height, "width": self.width, "seed": self.seed,
                "data_format": self.data_format}


class _LegacyResize(Layer):
    """tf.keras's RandomHeight and RandomWidth (Keras 2 layers kept in Keras 3.15's
    ``keras.src.legacy.layers``): in training, one factor for the whole batch, drawn uniformly in
    ``[1 + lower, 1 + upper)``, scales one side (``_axis``: -3 height, -2 width) to
    ``int(factor * size)`` with ``tf.image.resize``; outside training the input passes through."""

    _axis = -3
    _side = "height"

    def __init__(self, factor: Any, interpolation: str = "bilinear", seed: int | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.generator = random.SeedGenerator(seed)
        self.factor = factor
        if isinstance(factor, (tuple, list)):
            lower, upper = factor[0], factor[1]
        else:
            lower, upper = -factor, factor
        if upper < lower:
            raise ValueError("`factor` argument cannot have an upper bound less than the lower bound. "
                             f"Received: factor={factor}")
        if lower < -1.0 or upper < -1.0:
            raise ValueError(f"`factor` argument must have values larger than -1. Received: factor={factor}")
        self.lower, self.upper = lower, upper
        self.interpolation = interpolation
        self.seed = seed

    def call(self, inputs: Any, training: bool = True) -> Tensor:
        x = cast(convert_to_tensor(inputs), self.compute_dtype)
        if not training:
            return x
        if x.ndim not in (3, 4):
            raise ValueError(f"{type(self).__name__} takes an image (height, width, channels) or a batch of them; "
                             f"got shape {tuple(x.shape)}.")
        f = random.uniform((), 1.0 + self.lower, 1.0 + self.upper, seed=self.generator)
        size = [int(d) for d in x.shape[-3:-1]]
        size[self._axis + 3] = int(f.numpy() * np.float32(size[self._axis + 3]))
        if size[self._axis + 3] <= 0:
            raise ValueError(f"{type(self).__name__} drew a factor of {float(f.numpy())}, which leaves the images "
                             f"no {self._side}; use a factor whose lower bound is above -1.")
        return cast(_image.resize(x, size, method=self.interpolation), self.compute_dtype)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        shape = list(input_shape)
        shape[self._axis] = None
        return tuple(shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "interpolation": self.interpolation,
                "seed": self.seed}


class RandomHeight(_LegacyResize):
    """In training, resizes the images' height by one random factor in ``[1 + lower, 1 + upper)``
    for the batch (``factor``: a number ``f`` for ``(-f, f)``, or a pair ``(lower, upper)``,
    each above -1), the width kept, with ``interpolation``; outside training the images pass
    through. tf.keras's legacy layer: TensorFlow's numbers under a seed.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandomHeight((0.5, 0.5), seed=1)(tf.ones([2, 4, 3, 1])).shape
    TensorShape([2, 6, 3, 1])
    """

    _keras_module = "keras._legacy.layers"


class RandomWidth(_LegacyResize):
    """In training, resizes the images' width by one random factor in ``[1 + lower, 1 + upper)``
    for the batch (``factor``: a number ``f`` for ``(-f, f)``, or a pair ``(lower, upper)``,
    each above -1), the height kept, with ``interpolation``; outside training the images pass
    through. tf.keras's legacy layer: TensorFlow's numbers under a seed.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandomWidth((-0.5, -0.5), seed=1)(tf.ones([4, 6, 1])).shape
    TensorShape([4, 3, 1])
    """

    _axis = -2
    _side = "width"
    _keras_module = "keras._legacy.layers"
