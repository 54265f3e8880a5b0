"""Keras 3's newer image augmentation layers (``BaseImagePreprocessingLayer``'s family): MixUp,
CutMix, RandAugment, AugMix, the colour layers (RandomHue, RandomSaturation, RandomGrayscale,
RandomColorJitter, RandomColorDegeneration, RandomInvert, Solarization, RandomPosterization,
RandomSharpness, AutoContrast, Equalization, ContrastLimitedAdaptiveHistogramEqualization),
RandomErasing, RandomGaussianBlur, the warps (RandomShear, RandomPerspective,
RandomElasticTransform) and MaxNumBoundingBoxes.

Each layer draws its random parameters from ``keras.random`` with its own ``SeedGenerator``, in
Keras's order and shapes (an unbatched image draws as a batch of one), so a seeded layer gives
Keras's numbers on TensorFlow. A call takes images (rank 4, or one rank-3 image; channels last
unless ``data_format="channels_first"``) or a dict with ``"images"`` and optionally ``"labels"``
and ``"segmentation_masks"``; MixUp and CutMix mix the labels too, the warps resample the masks
with ``"nearest"``. ``training=False`` leaves the images as they are (AutoContrast, Equalization
and CLAHE, which draw nothing, apply always, as Keras).
"""
from __future__ import annotations

from typing import Any, Sequence

import random as _py_random

import numpy as np

from .._engine import convert_to_tensor
from .._engine import Tensor
from ...ops.array import broadcast_to, expand_dims, squeeze, stack
from ...ops.indexing import gather
from ...ops.math import cast, clip_by_value, where
from ...ops.reduction import reduce_max, reduce_mean, reduce_min, reduce_sum
from ... import image as _image
from ... import random as _tf_random
from .. import random
from .layer import Layer
from .conv import data_format_arg
from .image_layers import images_arg
from .._image_ops import blur, elastic_displacement, gaussian_kernel, homography, map_images
from .augmentation import (RandomBrightness, RandomContrast, RandomRotation, RandomTranslation, _Affine,
                           _check_modes, _factor_pair, affine_transform)

__all__ = ["MixUp", "CutMix", "RandomHue", "RandomSaturation", "RandomGrayscale", "RandomColorJitter",
           "RandomColorDegeneration", "RandomInvert", "Solarization", "RandomPosterization", "RandomSharpness",
           "AutoContrast", "Equalization", "RandomErasing", "RandomGaussianBlur", "RandomShear", "RandomPerspective",
           "MaxNumBoundingBoxes", "RandAugment", "AugMix", "RandomElasticTransform",
           "ContrastLimitedAdaptiveHistogramEqualization"]

_EPSILON = 1e-7


def _value_range(value_range: Any) -> list:
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError("The `value_range` argument should be a list of two numbers. "
                         f"Received: value_range={value_range}")
    return sorted(value_range)


def _to_range(x: Tensor, source: Sequence, target: Sequence) -> Tensor:
    """Keras's ``_transform_value_range``: ``x`` mapped linearly from ``source`` to ``target``."""
    if source[0] == target[0] and source[1] == target[1]:
        return x
    lo, hi = (cast(v, x.dtype) for v in source)
    tlo, thi = (cast(v, x.dtype) for v in target)
    return (x - lo) / (hi - lo) * (thi - tlo) + tlo


def _beta(shape: tuple, alpha: Any, beta: Any, seed: Any, dtype: str = "float32") -> Tensor:
    """Keras's TensorFlow ``random.beta``: ``Ga / (Ga + Gb)``, two gammas, the second seed the
    first's plus 12."""
    s1 = random._seed_pair(seed)
    a = broadcast_to(cast(alpha, dtype), shape)
    b = broadcast_to(cast(beta, dtype), shape)
    ga = _tf_random.stateless_gamma(shape, seed=s1, alpha=a, dtype=dtype)
    gb = _tf_random.stateless_gamma(shape, seed=s1 + 12, alpha=b, dtype=dtype)
    return ga / (ga + gb)


def _randint(shape: tuple, low: int, high: int, seed: Any, dtype: str = "int64") -> np.ndarray:
    """Keras's TensorFlow ``random.randint``: drawn as ``dtype`` (int32 or int64; Keras draws
    other dtypes as int64)."""
    return _tf_random.stateless_uniform(shape, seed=random._seed_pair(seed), minval=low, maxval=high,
                                        dtype=dtype).numpy()


def _box_mask(h: int, w: int, x0: np.ndarray, x1: np.ndarray, y0: np.ndarray, y1: np.ndarray) -> np.ndarray:
    """(batch, h, w, 1): the pixels with ``x0 <= x < x1`` and ``y0 <= y < y1``."""
    gy, gx = np.meshgrid(np.arange(h, dtype=np.float32), np.arange(w, dtype=np.float32), indexing="ij")
    gx, gy = gx[None, :, :, None], gy[None, :, :, None]
    x0, x1, y0, y1 = (v.reshape(-1, 1, 1, 1) for v in (x0, x1, y0, y1))
    return (gx >= x0) & (gx < x1) & (gy >= y0) & (gy < y1)


def _crop_bounds(b: int, length: int, ratio: np.ndarray, seed: Any) -> tuple:
    """Keras's ``_compute_crop_bounds``: a window of ``ratio * length`` at a uniform start."""
    crop = (ratio * np.float32(length)).astype(np.float32)
    start = random.uniform([b], 0, 1, seed=seed).numpy() * (np.float32(length) - crop)
    return start, start + crop


class _ImageAugmentation(Layer):
    """Keras's ``BaseImagePreprocessingLayer``: draws a transformation for the input's batch
    (``_draw``), then transforms images, labels and segmentation masks with it."""

    _data_layer = True  # (Keras's DataLayer: see Layer._data_layer)
    _keeps_boxes = True   # bounding boxes pass through unchanged (the colour layers)
    _masks_as_images = False   # segmentation masks transformed as images (else unchanged)

    def __init__(self, seed: Any = None, data_format: Any = None, bounding_box_format: Any = None,
                 seeded: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bounding_box_format = bounding_box_format
        self.data_format = data_format_arg(data_format, type(self).__name__)
        if seeded:
            self.seed = seed
            self.generator = random.SeedGenerator(seed)

    # the transformation: None, or whatever _images, _labels and _masks take
    def _draw(self, x: Tensor, training: bool) -> Any:
        return None

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        raise NotImplementedError

    def _labels(self, labels: Tensor, t: Any, training: bool) -> Tensor:
        return labels

    def _masks(self, masks: Tensor, t: Any, training: bool) -> Tensor:
        """Segmentation masks: unchanged, or (``_masks_as_images``) transformed as the images."""
        return self._images(masks, t, training) if self._masks_as_images else masks

    def call(self, data: Any, training: bool = True) -> Any:
        if not isinstance(data, dict):
            x, back = images_arg(self, data)
            return back(self._images(x, self._draw(x, training), training))
        x, back = images_arg(self, data["images"])
        single = convert_to_tensor(data["images"]).shape.rank == 3
        t = self._draw(x, training)
        data["images"] = back(self._images(x, t, training))
        if "bounding_boxes" in data:
            if not self.bounding_box_format:
                raise ValueError("You passed an input with a 'bounding_boxes' key, but you didn't specify a bounding "
                                 f"box format. Pass a `bounding_box_format` argument to your {type(self).__name__} "
                                 "layer, e.g. `bounding_box_format='xyxy'`.")
            if not self._keeps_boxes:
                raise NotImplementedError(f"tapegrad's {type(self).__name__} does not transform bounding boxes; "
                                          "pass the images, labels and segmentation masks only.")
        if "labels" in data:
            labels = convert_to_tensor(data["labels"])
            labels = self._labels(expand_dims(labels, 0) if single else labels, t, training)
            data["labels"] = squeeze(labels, [0]) if single else labels
        if "segmentation_masks" in data:
            m, mback = images_arg(self, data["segmentation_masks"])
            data["segmentation_masks"] = mback(self._masks(m, t, training))
        return data

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        config = {**super().get_config(), "data_format": self.data_format}
        if self.bounding_box_format is not None:
            config["bounding_box_format"] = self.bounding_box_format
        return config


class _Factored(_ImageAugmentation):
    """A colour layer of Keras's with a ``factor`` in ``_bounds``, a ``value_range`` (sorted where
    Keras sorts it) and a seed."""

    _bounds = (0, 1)
    _sorted_range = True

    def __init__(self, factor: Any, value_range: Sequence, seed: Any, data_format: Any, **kwargs: Any) -> None:
        factor = _factor_pair(factor, self._bounds)
        if self._sorted_range:
            value_range = _value_range(value_range)
        super().__init__(seed, data_format, **kwargs)
        self.factor, self.value_range = factor, value_range

    def _draw(self, x: Tensor, training: bool) -> Any:   # (RandomHue, RandomSaturation)
        return self._draw_with(self, int(x.shape[0]), self.generator)

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        return self._apply_with(x, t, self.value_range) if training else x

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}


class MixUp(_ImageAugmentation):
    """MixUp: each image (and its label) blended with another of the batch (a random
    permutation), by a weight drawn from Beta(``alpha``, ``alpha``):
    ``w * x + (1 - w) * x[perm]``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> out = keras.layers.MixUp(alpha=0.2, seed=1)({"images": tf.ones([4, 2, 2, 3]),
    ...                                             "labels": tf.one_hot([0, 1, 2, 0], 3)})
    >>> [float(v) for v in tf.reduce_sum(out["labels"], axis=1)]
    [1.0, 1.0, 1.0, 1.0]
    """

    _keeps_boxes = False
    _masks_as_images = True

    def __init__(self, alpha: float = 0.2, data_format: Any = None, seed: int | None = None,
                 **kwargs: Any) -> None:
        super().__init__(seed, data_format, **kwargs)
        self.alpha = alpha

    def _draw(self, x: Tensor, training: bool) -> Any:
        b = int(x.shape[0])
        perm = random.shuffle(np.arange(b, dtype=np.int64), seed=self.generator)
        weight = _beta((b,), self.alpha, self.alpha, self.generator)
        return {"mix_weight": weight, "permutation_order": perm}

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if not training:
            return x
        w = cast(t["mix_weight"], x.dtype)[:, None, None, None]
        return w * x + (1.0 - w) * gather(x, t["permutation_order"], axis=0)

    def _labels(self, labels: Tensor, t: Any, training: bool) -> Tensor:
        if not training:
            return labels
        w = cast(t["mix_weight"], labels.dtype)[:, None]
        return w * labels + (1.0 - w) * gather(labels, t["permutation_order"], axis=0)

    def get_config(self) -> dict:
        return {**super().get_config(), "alpha": self.alpha, "seed": self.seed}


class CutMix(_ImageAugmentation):
    """CutMix: a random box of each image replaced by the same box of another image of the batch
    (a random permutation); the labels mixed by the area kept. The box's side ratio is
    ``sqrt(1 - w)``, ``w`` from Beta(a, a) with ``a`` drawn in ``factor``. One image (rank 3)
    passes through.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.CutMix(seed=3)(tf.ones([2, 4, 4, 3])).shape
    TensorShape([2, 4, 4, 3])
    """

    _keeps_boxes = False
    _masks_as_images = True

    def __init__(self, factor: Any = 1.0, seed: int | None = None, data_format: Any = None,
                 **kwargs: Any) -> None:
        factor = _factor_pair(factor, (0, 1))
        super().__init__(seed, data_format, **kwargs)
        self.factor = factor

    def _draw(self, x: Tensor, training: bool) -> Any:
        if not training or self._single:
            return None
        b, h, w = (int(d) for d in x.shape[:3])
        dtype = self.compute_dtype
        alpha = random.uniform((), self.factor[0], self.factor[1], dtype=dtype, seed=self.generator) + 1e-6
        weight = _beta((b,), alpha, alpha, self.generator, dtype).numpy()
        ratio = np.sqrt(np.float32(1.0) - weight)
        x0, x1 = _crop_bounds(b, w, ratio, self.generator)
        y0, y1 = _crop_bounds(b, h, ratio, self.generator)
        mask = _box_mask(h, w, x0, x1, y0, y1)
        mix = np.float32(1.0) - (x1 - x0) * (y1 - y0) / np.float32(w * h)
        perm = random.shuffle(np.arange(b, dtype=np.int32), seed=self.generator)
        return {"permutation_order": perm, "batch_masks": mask, "mix_weight": mix}

    def call(self, data: Any, training: bool = True) -> Any:
        self._single = convert_to_tensor(data["images"] if isinstance(data, dict) else data).shape.rank == 3
        return super().call(data, training)

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if t is None:
            return x
        return where(t["batch_masks"], gather(x, t["permutation_order"], axis=0), x)

    def _labels(self, labels: Tensor, t: Any, training: bool) -> Tensor:
        if t is None:
            return labels
        w = convert_to_tensor(t["mix_weight"].reshape(-1, 1).astype(labels.dtype.as_numpy_dtype))
        return w * labels + (1.0 - w) * gather(labels, t["permutation_order"], axis=0)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "seed": self.seed}


def _hue_draw(layer: Any, b: int, seed: Any) -> Tensor:
    invert = random.uniform((b,), seed=seed)
    invert = where(invert > 0.5, -1.0 * (invert * 0 + 1), invert * 0 + 1)
    factor = random.uniform((b,), layer.factor[0], layer.factor[1], seed=seed)
    return invert * factor * 0.5


def _hue_apply(x: Tensor, delta: Tensor, value_range: Sequence) -> Tensor:
    x = _to_range(x, value_range, (0, 1))
    hsv = _image.rgb_to_hsv(x)
    h = hsv[..., 0] + cast(delta, x.dtype)[:, None, None]
    h = where(h > 1.0, h - 1.0, h)
    h = where(h < 0.0, h + 1.0, h)
    rgb = clip_by_value(_image.hsv_to_rgb(stack([h, hsv[..., 1], hsv[..., 2]], axis=-1)), 0, 1)
    return _to_range(rgb, (0, 1), value_range)


def _saturation_draw(layer: Any, b: int, seed: Any) -> Tensor:
    f = random.uniform((b,), layer.factor[0], layer.factor[1], seed=seed)
    return f / (1 - f + _EPSILON)


def _saturation_apply(x: Tensor, factor: Tensor, value_range: Sequence) -> Tensor:
    hsv = _image.rgb_to_hsv(x)
    s = clip_by_value(hsv[..., 1] * cast(factor, x.dtype)[:, None, None], value_range[0], value_range[1])
    return _image.hsv_to_rgb(stack([hsv[..., 0], s, hsv[..., 2]], axis=-1))


class RandomHue(_Factored):
    """Shifts each image's hue by a random ``±f / 2`` of the colour wheel, ``f`` drawn in
    ``factor`` (a number in [0, 1] for ``[0, f]``, or a pair); images are RGB in ``value_range``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandomHue(0.5, value_range=(0, 1), seed=2)(tf.fill([1, 2, 2, 3], 0.5)).shape
    TensorShape([1, 2, 2, 3])
    """

    _sorted_range = False

    _draw_with, _apply_with = staticmethod(_hue_draw), staticmethod(_hue_apply)

    def __init__(self, factor: Any, value_range: Sequence = (0, 255), data_format: Any = None,
                 seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(factor, value_range, seed, data_format, **kwargs)



class RandomSaturation(_Factored):
    """Scales each image's saturation by ``f / (1 - f)``, ``f`` drawn in ``factor`` (a number
    ``f`` for ``[-f, f]``, or a pair in [-1, 1]: 0.5 keeps, 0 greys, 1 saturates fully), the
    saturation clipped to ``value_range``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandomSaturation((0.5, 0.5), value_range=(0, 1), seed=1)(tf.fill([2, 2, 3], 0.5)).shape
    TensorShape([2, 2, 3])
    """

    _bounds = (-1, 1)

    _draw_with, _apply_with = staticmethod(_saturation_draw), staticmethod(_saturation_apply)

    def __init__(self, factor: Any, value_range: Sequence = (0, 255), data_format: Any = None,
                 seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(factor, value_range, seed, data_format, **kwargs)

    def call(self, data: Any, training: bool = True) -> Any:
        dtype = convert_to_tensor(data["images"] if isinstance(data, dict) else data).dtype
        if training and not dtype.is_floating:
            raise ValueError(f"Invalid images dtype: expected float dtype. Received: images.dtype={dtype.name}")
        return super().call(data, training)


class RandomGrayscale(_ImageAugmentation):
    """Turns each image grey (``0.2989 R + 0.587 G + 0.114 B`` in every channel) with
    probability ``factor``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> x = tf.constant([[[[1.0, 0.0, 0.0]]]])
    >>> keras.layers.RandomGrayscale(factor=1.0, seed=1)(x).numpy().round(4)
    array([[[[0.2989, 0.2989, 0.2989]]]], dtype=float32)
    """

    def __init__(self, factor: float = 0.5, data_format: Any = None, seed: int | None = None,
                 **kwargs: Any) -> None:
        if factor < 0 or factor > 1:
            raise ValueError(f"`factor` should be between 0 and 1. Received: factor={factor}")
        super().__init__(seed, data_format, **kwargs)
        self.factor = factor

    def call(self, data: Any, training: bool = True) -> Any:
        dtype = convert_to_tensor(data["images"] if isinstance(data, dict) else data).dtype
        out = super().call(data, training)
        if not dtype.is_integer:
            return out
        if isinstance(out, dict):   # (Keras keeps integer images' dtype: the grey cast back)
            out["images"] = cast(out["images"], dtype)
            return out
        return cast(out, dtype)

    def _draw(self, x: Tensor, training: bool) -> Any:
        u = random.uniform((int(x.shape[0]),), 0, 1, seed=self.generator)
        return (u < self.factor)[:, None, None, None]

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if not training:
            return x
        c = int(x.shape[-1])
        if c not in (1, 3):
            raise ValueError("Invalid channel size: expected 3 (RGB) or 1 (Grayscale). "
                             f"Received input with shape: images.shape={tuple(x.shape)}")
        return x if c == 1 else where(broadcast_to(t, x.shape), broadcast_to(_image.rgb_to_grayscale(x), x.shape), x)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor}


class RandomColorJitter(_ImageAugmentation):
    """Keras's colour jitter: RandomBrightness, RandomContrast, RandomSaturation and RandomHue
    in that order, each where its factor is given, all drawing from this layer's generator.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> jitter = keras.layers.RandomColorJitter(value_range=(0, 1), brightness_factor=0.2, hue_factor=0.1, seed=4)
    >>> jitter(tf.fill([2, 3, 3, 3], 0.5)).shape
    TensorShape([2, 3, 3, 3])
    """

    def __init__(self, value_range: Sequence = (0, 255), brightness_factor: Any = None, contrast_factor: Any = None,
                 saturation_factor: Any = None, hue_factor: Any = None, seed: int | None = None,
                 data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(seed, data_format, **kwargs)
        self.value_range = value_range
        self.brightness_factor, self.contrast_factor = brightness_factor, contrast_factor
        self.saturation_factor, self.hue_factor = saturation_factor, hue_factor
        # (Keras builds one layer for each factor given, each with a generator of its own: an
        # unseeded one draws its start from Python's random)
        self._brightness = self._contrast = self._saturation = self._hue = None
        if brightness_factor is not None:
            self._brightness = _Sub(_factor_pair(brightness_factor, (-1, 1)), seed)
            _value_range(value_range)
        if contrast_factor is not None:
            self._contrast = _Sub(_factor_pair(contrast_factor, (0, 1)), seed)
        if saturation_factor is not None:
            self._saturation = _Sub(_factor_pair(saturation_factor, (-1, 1)), seed)
            _value_range(value_range)
        if hue_factor is not None:
            self._hue = _Sub(_factor_pair(hue_factor, (0, 1)), seed)

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if not training:
            return x
        b, g = int(x.shape[0]), self.generator
        vr = sorted(self.value_range)
        if self._brightness is not None:
            delta = random.uniform((b, 1, 1, 1), self._brightness.factor[0], self._brightness.factor[1], seed=g)
            x = clip_by_value(x + cast(delta * (vr[1] - vr[0]), x.dtype), vr[0], vr[1])
        if self._contrast is not None:
            f = random.uniform((b, 1, 1, 1), 1.0 - self._contrast.factor[0], 1.0 + self._contrast.factor[1],
                               dtype=self.compute_dtype, seed=g)
            mean = reduce_mean(reduce_mean(x, 1, keepdims=True), 2, keepdims=True)
            x = clip_by_value((x - mean) * f + mean, self.value_range[0], self.value_range[1])
        if self._saturation is not None:
            x = _saturation_apply(x, _saturation_draw(self._saturation, b, g), vr)
        if self._hue is not None:
            x = _hue_apply(x, _hue_draw(self._hue, b, g), self.value_range)
        return x

    def get_config(self) -> dict:
        return {**super().get_config(), "value_range": self.value_range, "brightness_factor": self.brightness_factor,
                "contrast_factor": self.contrast_factor, "saturation_factor": self.saturation_factor,
                "hue_factor": self.hue_factor, "seed": self.seed}


class _Sub:
    """One of RandomColorJitter's parts: its factor (and, as Keras, a generator of its own)."""

    def __init__(self, factor: tuple, seed: Any) -> None:
        self.factor = factor
        self.generator = random.SeedGenerator(seed)


class RandomColorDegeneration(_Factored):
    """Blends each image towards its greyscale version by a factor drawn in ``factor`` (a
    number ``f`` for ``[-f, f]``, or a pair in [-1, 1]), clipped to ``value_range``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandomColorDegeneration(0.5, seed=1)(tf.fill([1, 2, 2, 3], 100.0)).shape
    TensorShape([1, 2, 2, 3])
    """

    _bounds = (-1, 1)

    def __init__(self, factor: Any, value_range: Sequence = (0, 255), data_format: Any = None,
                 seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(factor, value_range, seed, data_format, **kwargs)

    def _draw(self, x: Tensor, training: bool) -> Any:
        return random.uniform((int(x.shape[0]), 1, 1, 1), self.factor[0], self.factor[1], seed=self.generator)

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if not training:
            return x
        grey = _image.rgb_to_grayscale(x)
        return clip_by_value(x + cast(t, x.dtype) * (grey - x), self.value_range[0], self.value_range[1])

    def compute_output_shape(self, input_shape: Any) -> Any:
        if len(input_shape) not in (3, 4):
            raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). "
                             f"Received: input_shape={input_shape}")
        c = input_shape[-1 if self.data_format == "channels_last" else -3]
        if c is not None and c != 3:
            raise ValueError(f"Input images must have 3 channels, but received images with {c} channels.")
        return input_shape


class RandomInvert(_Factored):
    """Inverts each image (``value_range[1] - x``) with a probability drawn in ``factor`` (a
    number ``f`` for ``[0, f]``, or a pair in [0, 1]).

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandomInvert(factor=(1.0, 1.0), value_range=(0, 1), seed=0)(tf.zeros([1, 1, 2, 1])).numpy().ravel()
    array([1., 1.], dtype=float32)
    """

    _sorted_range = False

    def __init__(self, factor: Any = 1.0, value_range: Sequence = (0, 255), seed: int | None = None,
                 data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(factor, value_range, seed, data_format, **kwargs)

    def _draw(self, x: Tensor, training: bool) -> Any:
        if not training:
            return None
        b = int(x.shape[0])
        p = random.uniform((b,), self.factor[0], self.factor[1], seed=self.generator)
        return random.uniform((b,), 0, 1, seed=self.generator) < p

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if not training:
            return x
        return where(broadcast_to(t[:, None, None, None], x.shape), self.value_range[1] - x, x)


class _Warp(_ImageAugmentation):
    """A layer that resamples the images: segmentation masks resampled the same way with
    ``"nearest"`` interpolation, as Keras."""

    _keeps_boxes = False

    def _masks(self, masks: Tensor, t: Any, training: bool) -> Tensor:
        keep = self.interpolation
        self.interpolation = "nearest"
        try:
            return self._images(masks, t, training)
        finally:
            self.interpolation = keep


def _unit_pair(factor: Any, name: str, msg: str, signed: bool) -> tuple:
    """Solarization's and RandomShear's factors: numbers in [0, 1]; a pair is sorted, a number
    ``f`` is ``(0, f)`` (``signed``: ``(-f, f)``)."""
    def check(v: float) -> None:
        if v > 1.0 or v < 0:
            raise ValueError(msg + f"Received: input_number={v}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(msg + f"Received: {name}={factor}")
        check(factor[0])
        check(factor[1])
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)) and not isinstance(factor, bool):
        check(factor)
        return (-factor if signed else 0), factor
    raise ValueError(msg + f"Received: {name}={factor}")


def _solarization_factor(factor: Any, name: str) -> tuple:
    return _unit_pair(factor, name, "The `addition_factor` and `threshold_factor` arguments should be a number (or a "
                      "list of two numbers) in the range [0, 1]. ", False)


class Solarization(_ImageAugmentation):
    """Adds a random amount (drawn in ``[addition_factor[0], addition_factor[1] * 255]``) to the
    pixels on a 0-255 scale, then inverts those at or above a random threshold (drawn in
    ``[threshold_factor[0], threshold_factor[1] * 255]``); images are in ``value_range``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.Solarization(value_range=(0, 255))(tf.constant([[[[10.0]], [[200.0]]]])).numpy().ravel()
    array([245.,  55.], dtype=float32)
    """

    def __init__(self, addition_factor: Any = 0.0, threshold_factor: Any = 0.0, value_range: Sequence = (0, 255),
                 seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(seed, kwargs.pop("data_format", None), **kwargs)
        self.addition_factor = _solarization_factor(addition_factor, "addition_factor")
        self.threshold_factor = _solarization_factor(threshold_factor, "threshold_factor")
        self.value_range = _value_range(value_range)

    def _draw(self, x: Tensor, training: bool) -> Any:
        if not training:
            return None
        shape, dt = (int(x.shape[0]), 1, 1, 1), self.compute_dtype
        add = random.uniform(shape, self.addition_factor[0], self.addition_factor[1] * 255, dtype=dt,
                             seed=self.generator)
        threshold = random.uniform(shape, self.threshold_factor[0], self.threshold_factor[1] * 255, dtype=dt,
                                   seed=self.generator)
        return add, threshold

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if not training or t is None:
            return x
        y = clip_by_value(_to_range(x, self.value_range, (0, 255)) + t[0], 0, 255)
        y = where(y < t[1], y, 255 - y)
        return _to_range(y, (0, 255), self.value_range)

    def get_config(self) -> dict:
        return {**super().get_config(), "value_range": self.value_range, "addition_factor": self.addition_factor,
                "threshold_factor": self.threshold_factor, "seed": self.seed}


class RandomPosterization(_Factored):
    """Keeps each image's ``bits`` highest bits per channel (on a 0-255 scale), ``bits`` an
    integer drawn in ``[factor[0], factor[1])`` (a number ``f`` for ``[1, f)``; equal bounds
    keep that many bits).

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandomPosterization((1, 1), seed=1)(tf.constant([[[[200.0, 100.0]]]])).numpy().ravel()
    array([128.,   0.], dtype=float32)
    """

    _bounds = (1, 8)

    def __init__(self, factor: Any, value_range: Sequence = (0, 255), data_format: Any = None,
                 seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(factor, value_range, seed, data_format, **kwargs)

    def _draw(self, x: Tensor, training: bool) -> Any:
        b = int(x.shape[0])
        if self.factor[0] != self.factor[1]:
            bits = _randint((b,), self.factor[0], self.factor[1], self.generator).astype(np.uint8)
        else:
            bits = np.full((b,), self.factor[0], np.uint8)
        return (np.uint8(8) - bits).reshape(b, 1, 1, 1)

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if not training:
            return x
        v = _to_range(x, self.value_range, (0, 255))
        v = cast(v, "uint8").numpy()
        v = np.left_shift(np.right_shift(v, t), t)
        return _to_range(convert_to_tensor(v.astype(x.dtype.as_numpy_dtype)), (0, 255), self.value_range)


class RandomSharpness(_Factored):
    """Sharpens (or smooths) each image: ``x + (1 - 2 f) * (smooth(x) - x)``, ``f`` drawn in
    ``factor`` (a number ``f`` for ``[0, f]``, or a pair in [0, 1]), ``smooth`` PIL's 3x3
    smoothing kernel; clipped to ``value_range``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandomSharpness(0.5, seed=1)(tf.fill([1, 3, 3, 1], 100.0)).shape
    TensorShape([1, 3, 3, 1])
    """

    def __init__(self, factor: Any, value_range: Sequence = (0, 255), data_format: Any = None,
                 seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(factor, value_range, seed, data_format, **kwargs)

    def _draw(self, x: Tensor, training: bool) -> Any:
        return random.uniform((int(x.shape[0]),), self.factor[0], self.factor[1], seed=self.generator)

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if not training:
            return x
        f = cast(t * 2, x.dtype)[:, None, None, None]
        a, b = 1.0 / 13.0, 5.0 / 13.0
        smooth = blur(x, np.array([[a, a, a], [a, b, a], [a, a, a]], np.float32))
        return clip_by_value(x + (1.0 - f) * (smooth - x), self.value_range[0], self.value_range[1])


class AutoContrast(_ImageAugmentation):
    """Stretches each channel of each image to the full ``value_range`` (its minimum to the low
    end, its maximum to the high end); a flat channel is left as it is. Applies in and out of
    training, as Keras.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.AutoContrast(value_range=(0, 1))(tf.constant([[[[0.25], [0.5]]]])).numpy().ravel()
    array([0., 1.], dtype=float32)
    """

    def __init__(self, value_range: Sequence = (0, 255), **kwargs: Any) -> None:
        value_range = _value_range(value_range)
        super().__init__(None, kwargs.pop("data_format", None), seeded=False, **kwargs)
        self.value_range = value_range

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        v = _to_range(x, self.value_range, (0, 255))
        # (Keras takes the extremes over axes 1 and 2 of the batch: height and width, or with
        # channels first, channels and height)
        axes = (1, 2) if self.data_format == "channels_last" else (1, 3)
        low = reduce_min(v, axis=axes, keepdims=True)
        high = reduce_max(v, axis=axes, keepdims=True)
        scale = 255.0 / (high - low)
        y = clip_by_value(v * scale + (-low * scale), 0.0, 255.0)
        y = _to_range(y, (0, 255), self.value_range)
        return where(y != y, x, y)

    def get_config(self) -> dict:
        return {**super().get_config(), "value_range": self.value_range}


class Equalization(_ImageAugmentation):
    """Histogram equalization of each channel, the histogram (``bins`` bins over
    ``value_range``) taken over the whole batch, as Keras; a channel with one level is kept.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.Equalization()(tf.constant([[[[0.0], [64.0], [128.0], [255.0]]]])).numpy().ravel()
    array([  0.,  85., 170., 255.], dtype=float32)
    """

    def __init__(self, value_range: Sequence = (0, 255), bins: int = 256, data_format: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(None, data_format, seeded=False, **kwargs)
        self.bins = bins
        self.value_range = sorted(value_range)

    def _channel(self, ch: np.ndarray) -> np.ndarray:
        lo, hi = self.value_range
        scale = (255 - 0) / (hi - lo)
        ch = ch * np.float32(scale) + np.float32(0 - lo * scale)
        idx = np.clip((ch * np.float32(self.bins - 1) / np.float32(255)).astype(np.int32), 0, self.bins - 1)
        hist = np.bincount(idx.ravel(), minlength=self.bins).astype(np.int32)
        if np.count_nonzero(hist) <= 1:
            out = ch.astype(np.float64)
        else:
            cdf = np.cumsum(hist).astype(np.int32)
            cdf_min = cdf[np.nonzero(cdf)[0][0]]
            denominator = cdf[-1] - cdf_min
            denominator = 1 if denominator == 0 else denominator
            table = np.clip(np.round(((cdf - cdf_min) * 255).astype(np.float64) / denominator), 0, 255)
            out = table[np.clip(ch / np.float32(255.0) * np.float32(self.bins - 1), 0, self.bins - 1).astype(np.int32)]
        back = (hi - lo) / (255 - 0)
        return out * back + (lo - 0 * back)

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if not training:
            return x
        v = x.numpy()
        out = np.stack([self._channel(v[..., i]) for i in range(v.shape[-1])], axis=-1)
        return convert_to_tensor(out.astype(x.dtype.as_numpy_dtype))

    def get_config(self) -> dict:
        return {**super().get_config(), "bins": self.bins, "value_range": self.value_range}


class RandomErasing(_ImageAugmentation):
    """Erases a random box of each image with probability drawn in ``factor``: the box's sides
    are ``sqrt(s)`` of the image's, ``s`` drawn in ``scale``; it is filled with ``fill_value`` (a
    number, or three per-channel numbers) or, if ``None``, with Gaussian noise times
    ``value_range[1]``, clipped to ``value_range``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandomErasing(fill_value=0.0, seed=2)(tf.ones([2, 4, 4, 3])).shape
    TensorShape([2, 4, 4, 3])
    """

    _keeps_boxes = False

    def __init__(self, factor: Any = 1.0, scale: Any = (0.02, 0.33), fill_value: Any = None,
                 value_range: Sequence = (0, 255), seed: int | None = None, data_format: Any = None,
                 **kwargs: Any) -> None:
        f = _factor_pair(factor, (0, 1))
        s = _factor_pair(scale, (0, 1), "scale")
        super().__init__(seed, data_format, **kwargs)
        self.factor, self.scale, self.fill_value, self.value_range = f, s, fill_value, value_range

    def call(self, data: Any, training: bool = True) -> Any:
        self._shape_in = tuple(int(d) for d in convert_to_tensor(data["images"] if isinstance(data, dict)
                                                                 else data).shape)
        return super().call(data, training)

    def _draw(self, x: Tensor, training: bool) -> Any:
        if not training:
            return None
        b, h, w, c = (int(d) for d in x.shape)
        g, dt = self.generator, self.compute_dtype
        weight = np.sqrt(random.uniform((b, 2), self.scale[0], self.scale[1], dtype=dt, seed=g).numpy())
        x0, x1 = _crop_bounds(b, w, weight[:, 0], g)
        y0, y1 = _crop_bounds(b, h, weight[:, 1], g)
        mask = _box_mask(h, w, x0, x1, y0, y1)
        p = random.uniform((b,), self.factor[0], self.factor[1], seed=g)
        apply = (random.uniform((b,), 0.0, 1.0, seed=g) < p).numpy()
        fill = self.fill_value
        if fill is None:
            noise = random.normal(self._shape_in, dtype=dt, seed=g).numpy() * np.float32(self.value_range[1])
            if self.data_format == "channels_first":
                noise = np.moveaxis(noise, -3, -1)
            fill = noise.reshape(-1, h, w, c)
        elif isinstance(fill, (tuple, list)):
            if len(fill) != 3:
                raise ValueError("The `fill_value` argument should be a number (or a list of three numbers) ")
            fill = np.broadcast_to(np.asarray(fill, np.float32), (b, h, w, c))
        elif isinstance(fill, (int, float)):
            fill = np.full((b, h, w, c), fill, np.float32)
        else:
            raise ValueError("The `fill_value` argument should be a number (or a list of three numbers) ")
        fill = np.clip(fill, self.value_range[0], self.value_range[1]).astype(np.float32)
        return mask & apply.reshape(-1, 1, 1, 1), fill

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if t is None:
            return x
        mask = np.broadcast_to(t[0], x.shape)
        return where(mask, cast(np.broadcast_to(t[1], x.shape), x.dtype), x)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "scale": self.scale, "fill_value": self.fill_value,
                "value_range": self.value_range, "seed": self.seed}


def _kernel_size(k: Any) -> tuple:
    msg = f"kernel_size must be an odd number. Received: kernel_size={k}"
    if isinstance(k, (tuple, list)):
        if len(k) != 2:
            raise ValueError(f"The `kernel_size` argument should be a number (or a list of two numbers) "
                             f"Received: kernel_size={k}")
        if k[0] % 2 == 0 or k[1] % 2 == 0:
            raise ValueError(msg)
        return tuple(k)
    if isinstance(k, (int, float)) and not isinstance(k, bool):
        if k % 2 == 0:
            raise ValueError(msg)
        return k, k
    raise ValueError(msg)


class RandomGaussianBlur(_ImageAugmentation):
    """Blurs each image with probability drawn in ``factor`` by a Gaussian of ``kernel_size``
    (odd) and standard deviations drawn (one pair for the batch) in ``sigma`` (a number ``s``
    for ``[0, s]``, or a pair in [0, 1]); clipped to ``value_range``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandomGaussianBlur(kernel_size=3, seed=1)(tf.ones([1, 4, 4, 3])).shape
    TensorShape([1, 4, 4, 3])
    """

    def __init__(self, factor: Any = 1.0, kernel_size: Any = 3, sigma: Any = 1.0, value_range: Sequence = (0, 255),
                 data_format: Any = None, seed: int | None = None, **kwargs: Any) -> None:
        f = _factor_pair(factor, (0, 1))
        k = _kernel_size(kernel_size)
        s = _factor_pair(sigma, (0, 1), "sigma")
        super().__init__(seed, data_format, **kwargs)
        self.factor, self.kernel_size, self.sigma, self.value_range = f, k, s, value_range

    def _draw(self, x: Tensor, training: bool) -> Any:
        if not training:
            return None
        b, g = int(x.shape[0]), self.generator
        p = random.uniform((b,), self.factor[0], self.factor[1], seed=g)
        apply = (random.uniform((b,), 0.0, 1.0, seed=g) < p).numpy()
        sigma = random.uniform((2,), self.sigma[0], self.sigma[1], dtype=self.compute_dtype, seed=g).numpy()
        return apply, sigma + np.float32(1e-6)

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if t is None:
            return x
        blurred = blur(x, gaussian_kernel(self.kernel_size, t[1]))
        y = where(np.broadcast_to(t[0].reshape(-1, 1, 1, 1), x.shape), blurred, x)
        return clip_by_value(y, self.value_range[0], self.value_range[1])

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "kernel_size": self.kernel_size, "sigma": self.sigma,
                "value_range": self.value_range, "seed": self.seed}


def _shear_factor(factor: Any, name: str) -> tuple:
    return _unit_pair(factor, name, "The `factor` argument should be a number (or a list of two numbers) in the range "
                      "[0, 1.0]. ", True)


class RandomShear(_Warp):
    """Shears each image along x and y by random factors drawn in ``x_factor`` and ``y_factor``
    (a number ``f`` for ``[-f, f]``, or a pair in [0, 1]), with a random sign, resampled as
    ``ImageProjectiveTransformV3`` (``fill_mode``, ``interpolation``).

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandomShear(x_factor=0.3, seed=1)(tf.ones([2, 4, 4, 1])).shape
    TensorShape([2, 4, 4, 1])
    """

    def __init__(self, x_factor: Any = 0.0, y_factor: Any = 0.0, interpolation: str = "bilinear",
                 fill_mode: str = "reflect", fill_value: float = 0.0, data_format: Any = None, seed: int | None = None,
                 **kwargs: Any) -> None:
        xf, yf = _shear_factor(x_factor, "x_factor"), _shear_factor(y_factor, "y_factor")
        _check_modes(fill_mode, interpolation)
        super().__init__(seed, data_format, **kwargs)
        self.x_factor, self.y_factor = xf, yf
        self.fill_mode, self.fill_value, self.interpolation = fill_mode, fill_value, interpolation

    def _draw(self, x: Tensor, training: bool) -> Any:
        if not training:
            return None
        b, g, dt = int(x.shape[0]), self.generator, self.compute_dtype
        invert = random.uniform([b, 1], 0, 1, dtype=dt, seed=g).numpy()
        invert = np.where(invert > 0.5, np.float32(-1), np.float32(1))
        sy = random.uniform([b, 1], self.y_factor[0], self.y_factor[1], dtype=dt, seed=g).numpy()
        sx = random.uniform([b, 1], self.x_factor[0], self.x_factor[1], dtype=dt, seed=g).numpy()
        s = np.concatenate([sx, sy], axis=1).astype(np.float32) * invert
        one, zero = np.ones(b, np.float32), np.zeros(b, np.float32)
        return np.stack([one, s[:, 0], zero, s[:, 1], one, zero, zero, zero], axis=1)

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if t is None or not training:
            return x
        return affine_transform(x, t, self.interpolation, self.fill_mode, self.fill_value)

    def get_config(self) -> dict:
        return {**super().get_config(), "x_factor": self.x_factor, "y_factor": self.y_factor,
                "fill_mode": self.fill_mode, "interpolation": self.interpolation, "seed": self.seed,
                "fill_value": self.fill_value, "data_format": self.data_format}


class RandomPerspective(_Warp):
    """With probability drawn in ``factor``, warps each image by a random perspective: each corner
    moves by up to ``scale / 2`` of its coordinates; outside pixels take ``fill_value``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandomPerspective(scale=0.5, seed=1)(tf.ones([2, 5, 5, 3])).shape
    TensorShape([2, 5, 5, 3])
    """

    def __init__(self, factor: Any = 1.0, scale: float = 1.0, interpolation: str = "bilinear", fill_value: float = 0.0,
                 seed: int | None = None, data_format: Any = None, **kwargs: Any) -> None:
        f = _factor_pair(factor, (0, 1))
        if scale < 0.0 or scale > 1.0:
            raise ValueError(f"The `scale` argument should be a number in the range [0,1]. Received: scale={scale}")
        _check_modes("constant", interpolation)
        super().__init__(seed, data_format, **kwargs)
        self.factor, self.scale, self.interpolation, self.fill_value = f, scale, interpolation, fill_value

    def _draw(self, x: Tensor, training: bool) -> Any:
        if not training:
            return None
        b, h, w = (int(d) for d in x.shape[:3])
        g = self.generator
        p = random.uniform((b,), self.factor[0], self.factor[1], seed=g)
        apply = (random.uniform((b,), 0.0, 1.0, seed=g) < p).numpy()
        f = random.uniform((b, 4, 2), -0.5 * self.scale, 0.5 * self.scale, seed=g, dtype=self.compute_dtype).numpy()
        start = np.repeat(np.array([[[0.0, 0.0], [w - 1, 0.0], [0.0, h - 1], [w - 1, h - 1]]], np.float32), b, axis=0)
        return apply, homography(start, start + start * f)

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if t is None or not training:
            return x
        warped = affine_transform(x, t[1], self.interpolation, "constant", self.fill_value)
        return where(np.broadcast_to(t[0].reshape(-1, 1, 1, 1), x.shape), warped, x)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "scale": self.scale,
                "interpolation": self.interpolation, "fill_value": self.fill_value, "seed": self.seed}


class MaxNumBoundingBoxes(_ImageAugmentation):
    """Pads (with ``fill_value``) or truncates a dict input's ``bounding_boxes`` (``"boxes"``
    ``(batch, n, 4)`` and ``"labels"`` ``(batch, n)``) to ``max_number`` boxes; images pass
    through.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> out = keras.layers.MaxNumBoundingBoxes(3, bounding_box_format="xyxy")(
    ...     {"images": np.zeros((1, 4, 4, 3), "float32"),
    ...      "bounding_boxes": {"boxes": np.ones((1, 1, 4), "float32"), "labels": np.array([[2]])}})
    >>> out["bounding_boxes"]["labels"].numpy()
    array([[ 2, -1, -1]])
    """

    def __init__(self, max_number: int, fill_value: int = -1, **kwargs: Any) -> None:
        super().__init__(None, kwargs.pop("data_format", None), seeded=False, **kwargs)
        self.max_number, self.fill_value = int(max_number), int(fill_value)

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        return x

    def call(self, data: Any, training: bool = True) -> Any:
        boxes = data.get("bounding_boxes") if isinstance(data, dict) else None
        out = super().call(data, training)
        if boxes is not None:
            single = convert_to_tensor(data["images"]).shape.rank == 3
            b = np.asarray(convert_to_tensor(boxes["boxes"]))
            lab = np.asarray(convert_to_tensor(boxes["labels"]))
            if single:
                b, lab = b[None], lab[None]
            pad = max(self.max_number - b.shape[1], 0)
            b = np.pad(b[:, :self.max_number], [[0, 0], [0, pad], [0, 0]], constant_values=self.fill_value)
            lab = np.pad(lab[:, :self.max_number], [[0, 0], [0, pad]], constant_values=self.fill_value)
            if single:
                b, lab = b[0], lab[0]
            out["bounding_boxes"] = {**boxes, "boxes": convert_to_tensor(b), "labels": convert_to_tensor(lab)}
        return out

    def compute_output_shape(self, input_shape: Any) -> Any:
        if isinstance(input_shape, dict) and "bounding_boxes" in input_shape:
            extra = set(input_shape["bounding_boxes"]) - {"boxes", "labels"}
            if extra:
                raise KeyError(f"There are unsupported keys in `bounding_boxes`: {list(extra)}. "
                               "Only `boxes` and `labels` are supported.")
            for key in ("boxes", "labels"):
                shape = list(input_shape["bounding_boxes"][key])
                shape[1] = self.max_number
                input_shape["bounding_boxes"][key] = shape
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "max_number": self.max_number}


def _sub_draw(layer: Layer, x: Tensor) -> Any:
    """A RandAugment or AugMix part's transformation for ``x`` (from the part's ``generator``:
    the parent's)."""
    b, g = int(x.shape[0]), getattr(layer, "generator", None)
    if isinstance(layer, _ImageAugmentation):
        return layer._draw(x, True)
    if isinstance(layer, _Affine):
        return layer._transforms(b, int(x.shape[1]), int(x.shape[2]))
    if isinstance(layer, RandomBrightness):
        return random.uniform((b, 1, 1, 1), layer.factor[0], layer.factor[1], seed=g)
    return random.uniform((b, 1, 1, 1), 1.0 - layer.factor[0], 1.0 + layer.factor[1], dtype=layer.compute_dtype,
                          seed=g)


def _sub_apply(layer: Layer, x: Tensor, t: Any) -> Tensor:
    if isinstance(layer, _ImageAugmentation):
        return layer._images(x, t, True)
    if isinstance(layer, _Affine):
        return affine_transform(x, t, layer.interpolation, layer.fill_mode, layer.fill_value)
    vr = layer.value_range
    if isinstance(layer, RandomBrightness):
        return clip_by_value(x + cast(t * (vr[1] - vr[0]), x.dtype), vr[0], vr[1])
    mean = reduce_mean(reduce_mean(x, 1, keepdims=True), 2, keepdims=True)
    return clip_by_value((x - mean) * cast(t, x.dtype) + mean, vr[0], vr[1])


class _Composite(_ImageAugmentation):
    """RandAugment's and AugMix's parts: Keras's layers built with this layer's factor (each with
    a generator of its own, as Keras, though they draw from this layer's)."""

    _keeps_boxes = False

    def _parts(self, names: Sequence, interpolation: str, kwargs: dict) -> None:
        f, vr = self.factor, self.value_range
        extra = {k: v for k, v in kwargs.items() if k == "dtype"}
        make = {
            "random_shear": lambda: RandomShear(x_factor=f, y_factor=f, interpolation=interpolation, seed=self.seed,
                                                **extra),
            "random_translation": lambda: RandomTranslation(height_factor=f, width_factor=f,
                                                            interpolation=interpolation, seed=self.seed, **extra),
            "random_rotation": lambda: RandomRotation(factor=f, interpolation=interpolation, seed=self.seed, **extra),
            "random_brightness": lambda: RandomBrightness(factor=f, value_range=vr, seed=self.seed, **extra),
            "random_color_degeneration": lambda: RandomColorDegeneration(factor=f, value_range=vr, seed=self.seed,
                                                                         **extra),
            "random_contrast": lambda: RandomContrast(factor=f, value_range=vr, seed=self.seed, **extra),
            "random_sharpness": lambda: RandomSharpness(factor=f, value_range=vr, seed=self.seed, **extra),
            "solarization": lambda: Solarization(addition_factor=f, threshold_factor=f, value_range=vr,
                                                 seed=self.seed, **extra),
            "random_posterization": lambda: RandomPosterization(factor=max(1, int(8 * f[1])), value_range=vr,
                                                                seed=self.seed, **extra),
            "auto_contrast": lambda: AutoContrast(value_range=vr, **extra),
            "equalization": lambda: Equalization(value_range=vr, **extra),
        }
        self._part = {}
        for name in names:
            part = make[name]()
            if hasattr(part, "generator"):
                part.generator = self.generator
            self._part[name] = part

    def _part_masks(self, name: str, masks: Tensor, t: Any) -> Tensor:
        part = self._part[name]
        if isinstance(part, _Affine):   # (Keras's base layer: resampled with "nearest")
            return affine_transform(masks, t, "nearest", part.fill_mode, part.fill_value)
        return part._masks(masks, t, True) if isinstance(part, _ImageAugmentation) else masks

    def build(self, input_shape: Any = None) -> None:
        # (Keras's own build, which builds the parts: no build by tracing, which would draw
        # AugMix's choices from Python's random)
        for part in self._part.values():
            part.build(input_shape)
        self.built = True


_RAND_AUGMENT_OPS = ("random_shear", "random_translation", "random_rotation", "random_brightness",
                     "random_color_degeneration", "random_contrast", "random_sharpness", "random_posterization",
                     "solarization", "auto_contrast", "equalization")


class RandAugment(_Composite):
    """RandAugment: ``num_ops`` operations drawn (with repetition) from Keras's eleven (shear,
    translation, rotation, brightness, colour degeneration, contrast, sharpness, posterization,
    solarization, auto-contrast, equalization), each of strength ``factor``, applied in turn; every
    operation's parameters are drawn at each call, as Keras.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandAugment(value_range=(0, 1), seed=1)(tf.fill([2, 4, 4, 3], 0.5)).shape
    TensorShape([2, 4, 4, 3])
    """

    def __init__(self, value_range: Sequence = (0, 255), num_ops: int = 2, factor: Any = 0.5,
                 interpolation: str = "bilinear", seed: int | None = None, data_format: Any = None,
                 **kwargs: Any) -> None:
        f = _factor_pair(factor, (0, 1))
        super().__init__(seed, data_format, **kwargs)
        self.value_range, self.num_ops, self.factor, self.interpolation = value_range, num_ops, f, interpolation
        self._parts(_RAND_AUGMENT_OPS, interpolation, kwargs)

    def _draw(self, x: Tensor, training: bool) -> Any:
        if not training:
            return None
        idx = _randint((self.num_ops,), 0, len(_RAND_AUGMENT_OPS), self.generator, "int32")
        return idx, {name: _sub_draw(self._part[name], x) for name in _RAND_AUGMENT_OPS}

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if t is None or not training:
            return x
        for i in t[0]:
            name = _RAND_AUGMENT_OPS[int(i)]
            x = _sub_apply(self._part[name], x, t[1][name])
        return x

    def _masks(self, masks: Tensor, t: Any, training: bool) -> Tensor:
        for name in ([] if t is None or not training else [_RAND_AUGMENT_OPS[int(i)] for i in t[0]]):
            masks = self._part_masks(name, masks, t[1][name])
        return masks

    def get_config(self) -> dict:
        return {**super().get_config(), "value_range": self.value_range, "num_ops": self.num_ops,
                "factor": self.factor, "interpolation": self.interpolation, "seed": self.seed}


_AUG_MIX_OPS = ("random_shear", "random_translation", "random_rotation", "random_posterization", "solarization",
                "auto_contrast", "equalization")
_AUG_MIX_ALL = _AUG_MIX_OPS + ("random_brightness", "random_color_degeneration", "random_contrast",
                               "random_sharpness")


class AugMix(_Composite):
    """AugMix: ``num_chains`` chains of up to ``chain_depth`` operations (each step one of the
    operations, or none, chosen with Python's ``random``, as Keras), mixed with Dirichlet(``alpha``)
    weights, then blended with the image by a Beta(``alpha``, ``alpha``) weight and clipped to
    ``value_range``. ``all_ops=False`` leaves out brightness, colour, contrast and sharpness.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.AugMix(value_range=(0, 1), seed=1)(tf.fill([2, 4, 4, 3], 0.5)).shape
    TensorShape([2, 4, 4, 3])
    """

    def __init__(self, value_range: Sequence = (0, 255), num_chains: int = 3, chain_depth: int = 3,
                 factor: Any = 0.3, alpha: float = 1.0, all_ops: bool = True, interpolation: str = "bilinear",
                 seed: int | None = None, data_format: Any = None, **kwargs: Any) -> None:
        f = _factor_pair(factor, (0, 1))
        super().__init__(seed, data_format, **kwargs)
        self.value_range, self.num_chains, self.chain_depth, self.factor = value_range, num_chains, chain_depth, f
        self.alpha, self.all_ops, self.interpolation = alpha, all_ops, interpolation
        self._ops = _AUG_MIX_ALL if all_ops else _AUG_MIX_OPS
        self._parts(self._ops, interpolation, kwargs)

    def _draw(self, x: Tensor, training: bool) -> Any:
        if not training:
            return None
        g, dt = self.generator, self.compute_dtype
        gam = _tf_random.stateless_gamma([self.num_chains], seed=random._seed_pair(g), alpha=self.alpha, dtype=dt)
        weights = (gam / reduce_sum(gam, -1, keepdims=True)).numpy()
        ws = _beta((), self.alpha, self.alpha, g, dt)
        chains = []
        for _ in range(self.num_chains):
            steps = []
            for _ in range(self.chain_depth):
                name = _py_random.choice(list(self._ops) + [None])
                if name is not None:
                    steps.append((name, _sub_draw(self._part[name], x)))
            chains.append(steps)
        return weights, ws, chains

    def _mix(self, x: Tensor, t: Any, step: Any) -> Tensor:
        """The chains run on ``x`` (``step(name, y, transformation)`` one operation), mixed."""
        weights, ws, chains = t
        aug = x * 0
        for i, steps in enumerate(chains):
            y = x
            for name, sub in steps:
                y = step(name, y, sub)
            aug = aug + y * weights[i]
        ws = cast(ws, x.dtype)
        return ws * x + (1 - ws) * aug

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if t is None or not training:
            return x
        y = self._mix(x, t, lambda name, y, sub: _sub_apply(self._part[name], y, sub))
        return clip_by_value(y, self.value_range[0], self.value_range[1])

    def _masks(self, masks: Tensor, t: Any, training: bool) -> Tensor:
        return masks if t is None or not training else self._mix(masks, t, self._part_masks)

    def get_config(self) -> dict:
        return {**super().get_config(), "value_range": self.value_range, "num_chains": self.num_chains,
                "chain_depth": self.chain_depth, "factor": self.factor, "alpha": self.alpha,
                "all_ops": self.all_ops, "interpolation": self.interpolation, "seed": self.seed}


class RandomElasticTransform(_Warp):
    """With probability drawn in ``factor``, displaces each image's pixels by a smoothed Gaussian
    noise field (Keras's ``elastic_transform``: strength ``0.1 * s * max(h, w)``, smoothing
    ``0.05 * s * min(h, w)``, ``s`` drawn in ``scale``), resampled with ``interpolation`` and
    ``fill_mode``, clipped to ``value_range``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RandomElasticTransform(seed=1)(tf.ones([2, 8, 8, 3])).shape
    TensorShape([2, 8, 8, 3])
    """

    _FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")

    def __init__(self, factor: Any = 1.0, scale: Any = 1.0, interpolation: str = "bilinear", fill_mode: str = "reflect",
                 fill_value: float = 0.0, value_range: Sequence = (0, 255), seed: int | None = None,
                 data_format: Any = None, **kwargs: Any) -> None:
        f = _factor_pair(factor, (0, 1))
        s = _factor_pair(scale, (0, 1), "scale")
        if interpolation not in ("nearest", "bilinear"):
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one "
                                      "('nearest', 'bilinear').")
        if fill_mode not in self._FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one {set(self._FILL_MODES)}.")
        super().__init__(seed, data_format, **kwargs)
        self.factor, self.scale, self.interpolation, self.fill_mode = f, s, interpolation, fill_mode
        self.fill_value, self.value_range = fill_value, value_range

    def _draw(self, x: Tensor, training: bool) -> Any:
        if not training or self.scale[1] == 0 or self.factor[1] == 0:
            return None
        b, g = int(x.shape[0]), self.generator
        p = random.uniform((b,), self.factor[0], self.factor[1], seed=g)
        apply = (random.uniform((b,), 0.0, 1.0, seed=g) < p).numpy()
        distortion = random.uniform((), self.scale[0], self.scale[1], seed=g, dtype=self.compute_dtype).numpy()
        return apply, distortion

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        if t is None or not training:
            return x
        if self.fill_mode == "mirror":   # (the layer takes "mirror"; Keras's TF backend does not)
            raise ValueError("Invalid value for argument `fill_mode`. Expected of one ('constant', 'nearest', "
                             "'wrap', 'reflect'). "
                             f"Received: fill_mode={self.fill_mode}")
        b, h, w, _ = (int(d) for d in x.shape)
        alpha = np.float32(max(h, w)) * (np.float32(0.1) * t[1])
        sigma = np.float32(min(h, w)) * (np.float32(0.05) * t[1])
        # (the seed is drawn when the images are transformed; dx and dy share it)
        ys, xs = elastic_displacement(b, h, w, alpha, sigma, self.generator, x.dtype.as_numpy_dtype)
        moved = map_images(x, ys, xs, 0 if self.interpolation == "nearest" else 1, self.fill_mode, self.fill_value)
        y = where(np.broadcast_to(t[0].reshape(-1, 1, 1, 1), x.shape), moved, x)
        return clip_by_value(y, self.value_range[0], self.value_range[1])

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "scale": self.scale,
                "interpolation": self.interpolation, "fill_mode": self.fill_mode, "fill_value": self.fill_value,
                "value_range": self.value_range, "seed": self.seed}


class ContrastLimitedAdaptiveHistogramEqualization(_ImageAugmentation):
    """CLAHE, as Keras computes it: each channel's histogram equalized per tile of a
    ``tile_grid_size`` grid (the image padded symmetrically to whole tiles), each bin clipped at
    ``clip_limit`` times the mean bin with the excess spread over all bins, and each pixel's value
    interpolated bilinearly between the four nearest tiles' mappings. Applies in and out of
    training, as Keras.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> clahe = keras.layers.ContrastLimitedAdaptiveHistogramEqualization(tile_grid_size=(2, 2))
    >>> clahe(tf.reshape(tf.range(16.0) * 16, [1, 4, 4, 1])).shape
    TensorShape([1, 4, 4, 1])
    """

    def __init__(self, value_range: Sequence = (0, 255), clip_limit: float = 4.0, tile_grid_size: Sequence = (8, 8),
                 data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(None, data_format, seeded=False, **kwargs)
        self.value_range, self.clip_limit, self.tile_grid_size = value_range, clip_limit, tile_grid_size

    def _images(self, x: Tensor, t: Any, training: bool) -> Tensor:
        f32 = np.float32
        v = _to_range(cast(x, "float32"), self.value_range, (0, 255)).numpy()
        b, h, w, c = v.shape
        gh, gw = self.tile_grid_size
        th, tw = (h + gh - 1) // gh, (w + gw - 1) // gw
        padded = np.pad(v, [[0, 0], [0, th * gh - h], [0, tw * gw - w], [0, 0]], mode="symmetric")
        tiles = padded.reshape(b, gh, th, gw, tw, c).transpose(0, 1, 3, 5, 2, 4).reshape(b, gh, gw, c, th * tw)
        levels = np.clip(tiles.astype(np.int32), 0, 255)
        hists = np.zeros((b * gh * gw * c, 256), f32)   # (Keras sums one-hot rows: exact counts)
        np.add.at(hists, (np.arange(b * gh * gw * c)[:, None], levels.reshape(b * gh * gw * c, -1)), 1)
        hists = hists.reshape(b, gh, gw, c, 256)
        if self.clip_limit > 0:
            limit = f32(self.clip_limit * (th * tw) / 256.0)
            clipped = np.clip(hists, 0, limit)
            hists = clipped + (hists - clipped).sum(axis=-1, keepdims=True, dtype=f32) / f32(256.0)
        cdf = np.cumsum(hists, axis=-1, dtype=f32)
        cdf_min = cdf.min(axis=-1, keepdims=True)
        den = f32(th * tw) - cdf_min
        den = np.where(den == 0, f32(1), den)
        norm = np.clip((cdf - cdf_min) * f32(255.0) / den, 0, 255).astype(f32)
        norm = np.concatenate([norm[:, :1], norm, norm[:, -1:]], axis=1)
        norm = np.concatenate([norm[:, :, :1], norm, norm[:, :, -1:]], axis=2)

        def grid(n: int, tile: int, count: int) -> tuple:
            g = (np.arange(n, dtype=f32) - f32(tile / 2.0)) / f32(tile) + f32(1.0)
            lo = np.floor(g)
            return (np.clip(lo, 0, count + 1).astype(np.int32), np.clip(lo + 1, 0, count + 1).astype(np.int32),
                    (g - lo).astype(f32))
        y0, y1, wy = grid(th * gh, th, gh)
        x0, x1, wx = grid(tw * gw, tw, gw)
        px = np.clip(padded, 0, 255).astype(np.int32)
        bi, ci = np.arange(b)[:, None, None, None], np.arange(c)[None, None, None, :]

        def at(yy: np.ndarray, xx: np.ndarray) -> np.ndarray:
            return norm[bi, yy[None, :, None, None], xx[None, None, :, None], ci, px]
        wy, wx = wy[None, :, None, None], wx[None, None, :, None]
        top = at(y0, x0) * (f32(1.0) - wx) + at(y0, x1) * wx
        bottom = at(y1, x0) * (f32(1.0) - wx) + at(y1, x1) * wx
        out = (top * (f32(1.0) - wy) + bottom * wy)[:, :h, :w, :]
        return cast(_to_range(convert_to_tensor(out.astype(f32)), (0, 255), self.value_range), x.dtype)

    def _masks(self, masks: Tensor, t: Any, training: bool) -> Tensor:
        raise NotImplementedError("ContrastLimitedAdaptiveHistogramEqualization does not transform segmentation "
                                  "masks (Keras's neither); pass the images alone.")

    def get_config(self) -> dict:
        return {**super().get_config(), "value_range": self.value_range, "clip_limit": self.clip_limit,
                "tile_grid_size": self.tile_grid_size, "data_format": self.data_format}
