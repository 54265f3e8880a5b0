"""Keras 3's training-time noise layers: GaussianNoise, GaussianDropout, AlphaDropout and
SpatialDropout1D/2D/3D. Each draws from ``keras.random`` with its own ``SeedGenerator`` (TF's
stateless Philox streams, as Keras on TensorFlow) and passes its inputs through unless
``training=True``."""
from __future__ import annotations

import math
from typing import Any

from .._engine import convert_to_tensor
from ...ops.math import cast, greater_equal
from .. import random
from .input_spec import InputSpec
from .layer import Layer
from .conv import data_format_arg
from .core import Dropout

__all__ = ["GaussianNoise", "GaussianDropout", "AlphaDropout", "SpatialDropout1D", "SpatialDropout2D",
           "SpatialDropout3D"]


def _rate(value: float, arg: str = "rate") -> float:
    if not 0 <= value <= 1:
        raise ValueError(f"Invalid value received for argument `{arg}`. Expected a float value between 0 and 1. "
                         f"Received: {arg}={value}")
    return value


class _Noise(Layer):
    def __init__(self, amount: float, seed: int | None, arg: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        setattr(self, arg, _rate(amount, arg))
        self.seed = seed
        if amount > 0:
            self.seed_generator = random.SeedGenerator(seed)
        self.supports_masking = True

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape


class GaussianNoise(_Noise):
    """In training, adds zero-mean normal noise of standard deviation ``stddev`` (in ``[0, 1]``).

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> layer = keras.layers.GaussianNoise(0.1, seed=0)
    >>> bool(tf.reduce_all(layer(tf.ones([2, 3])) == 1.0)), layer(tf.ones([2, 3]), training=True).shape
    (True, TensorShape([2, 3]))
    """

    def __init__(self, stddev: float, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(stddev, seed, "stddev", **kwargs)

    def call(self, inputs: Any, training: bool = False) -> Any:
        if training and self.stddev > 0:
            x = convert_to_tensor(inputs)
            return x + random.normal(x.shape, 0.0, self.stddev, dtype=self.compute_dtype, seed=self.seed_generator)
        return inputs

    def get_config(self) -> dict:
        return {**super().get_config(), "stddev": self.stddev, "seed": self.seed}


class GaussianDropout(_Noise):
    """In training, multiplies by normal noise of mean 1 and standard deviation
    ``sqrt(rate / (1 - rate))``."""

    def __init__(self, rate: float, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(rate, seed, "rate", **kwargs)

    def call(self, inputs: Any, training: bool = False) -> Any:
        if training and self.rate > 0:
            x = convert_to_tensor(inputs)
            std = math.sqrt(self.rate / (1.0 - self.rate))
            return x * random.normal(x.shape, 1.0, std, dtype=self.compute_dtype, seed=self.seed_generator)
        return inputs

    def get_config(self) -> dict:
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}


class AlphaDropout(_Noise):
    """In training, sets dropped entries to SELU's negative saturation value and applies the
    affine map that keeps the inputs' mean and variance (for self-normalizing networks)."""

    def __init__(self, rate: float, noise_shape: Any = None, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(rate, seed, "rate", **kwargs)
        self.noise_shape = noise_shape

    def call(self, inputs: Any, training: bool = False) -> Any:
        if not (training and self.rate > 0):
            return inputs
        x = convert_to_tensor(inputs)
        shape = (x.shape if self.noise_shape is None else
                 [x.shape[i] if d is None else d for i, d in enumerate(self.noise_shape)])
        alpha_p = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
        kept = cast(greater_equal(random.uniform(shape, seed=self.seed_generator), self.rate), x.dtype)
        a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * self.rate
        return a * (x * kept + alpha_p * (1 - kept)) + b

    def get_config(self) -> dict:
        return {**super().get_config(), "rate": self.rate, "seed": self.seed, "noise_shape": self.noise_shape}


class _SpatialDropout(Dropout):
    rank = 1

    def __init__(self, rate: float, seed: int | None = None, name: Any = None, dtype: Any = None,
                 data_format: Any = None) -> None:
        super().__init__(rate=rate, seed=seed, name=name, dtype=dtype)
        if self.rank > 1:
            self.data_format = data_format_arg(data_format, type(self).__name__)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def call(self, inputs: Any, training: bool = False) -> Any:
        if training and self.rate > 0:
            s = list(convert_to_tensor(inputs).shape)
            if self.rank > 1 and self.data_format == "channels_first":
                noise = s[:2] + [1] * self.rank
            else:
                noise = [s[0]] + [1] * self.rank + [s[-1]]
            return random.dropout(inputs, self.rate, noise, seed=self.seed_generator)
        return inputs

    def get_config(self) -> dict:  # Keras's keys only: the constructor takes no others
        base = super().get_config()
        cfg = {"rate": self.rate, "seed": self.seed, "name": base["name"], "dtype": base["dtype"]}
        return {**cfg, "data_format": self.data_format} if self.rank > 1 else cfg


class SpatialDropout1D(_SpatialDropout):
    """Dropout of whole feature maps of ``(batch, steps, channels)`` inputs: one draw per sample
    and channel, scaled by ``1 / (1 - rate)``."""

    def __init__(self, rate: float, seed: int | None = None, name: Any = None, dtype: Any = None) -> None:
        super().__init__(rate, seed, name, dtype)


class SpatialDropout2D(_SpatialDropout):
    """Dropout of whole 2-D feature maps (one draw per sample and channel)."""

    rank = 2

    def __init__(self, rate: float, data_format: Any = None, seed: int | None = None, name: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(rate, seed, name, dtype, data_format)


class SpatialDropout3D(_SpatialDropout):
    """Dropout of whole 3-D feature maps (one draw per sample and channel)."""

    rank = 3

    def __init__(self, rate: float, data_format: Any = None, seed: int | None = None, name: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(rate, seed, name, dtype, data_format)
