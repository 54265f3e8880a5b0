"""Keras 3's UnitNormalization (L2-normalize along axes) and GroupNormalization (normalize
groups of channels per sample, then scale by ``gamma`` and shift by ``beta``)."""
from __future__ import annotations

from typing import Any, Sequence

from .._engine import convert_to_tensor
from .._engine import Tensor
from ... import nn
from .. import ops as _kops
from ...ops.array import reshape, shape as _shape
from ...ops.math import cast, rsqrt
from .input_spec import InputSpec
from .layer import Layer
from .conv import new_weight, weight_args, weight_config
from .normalization import float32_inside, in_compute_dtype
from .merging import l2_normalize

__all__ = ["UnitNormalization", "GroupNormalization", "RMSNormalization"]


class UnitNormalization(Layer):
    """Scales each sample to unit L2 norm along ``axis`` (an int or a list of ints):
    ``x * min(rsqrt(sum(x ** 2)), 1e12)``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.UnitNormalization()(tf.constant([[3.0, 4.0]])).numpy()
    array([[0.6, 0.8]], dtype=float32)
    """

    def __init__(self, axis: Any = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError("Invalid value for `axis` argument: expected an int or a list/tuple of ints. "
                            f"Received: axis={axis}")
        self.supports_masking = True

    def call(self, inputs: Any) -> Tensor:
        return l2_normalize(convert_to_tensor(inputs), self.axis, epsilon=1e-12)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis}


class GroupNormalization(Layer):
    """Splits the channels (``axis``) into ``groups`` groups and normalizes each group of each
    sample by its mean and variance over the group's channels and every other non-batch axis;
    ``groups=-1`` is instance normalization and ``groups=1`` layer normalization. ``gamma`` and
    ``beta`` (one per channel) scale and shift.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> layer = keras.layers.GroupNormalization(groups=2)
    >>> y = layer(tf.reshape(tf.range(8.0), [1, 2, 4]))
    >>> [w.shape for w in layer.weights], y.shape
    ([TensorShape([4]), TensorShape([4])], TensorShape([1, 2, 4]))
    """

    def __init__(self, groups: int = 32, axis: int = -1, epsilon: float = 1e-3, center: bool = True,
                 scale: bool = True, beta_initializer: Any = "zeros", gamma_initializer: Any = "ones",
                 beta_regularizer: Any = None, gamma_regularizer: Any = None, beta_constraint: Any = None,
                 gamma_constraint: Any = None, **kwargs: Any) -> None:
        if not isinstance(groups, int) or (groups <= 0 and groups != -1):
            raise ValueError("Received an invalid value for argument `groups`, expected a positive integer (or "
                             f"`-1` for instance normalization). Received: groups={groups}")
        super().__init__(**kwargs)
        self.supports_masking = True
        self.autocast = False  # (float16 inputs are normalized in float32)
        self.groups, self.axis, self.epsilon, self.center, self.scale = groups, axis, epsilon, center, scale
        weight_args(self, "beta", beta_initializer, beta_regularizer, beta_constraint)
        weight_args(self, "gamma", gamma_initializer, gamma_regularizer, gamma_constraint)

    def build(self, input_shape: Sequence) -> None:
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined dimension but the layer "
                             f"received an input with shape {tuple(input_shape)}.")
        if self.groups == -1:
            self.groups = dim
        if dim < self.groups:
            raise ValueError(f"Number of groups ({self.groups}) cannot be more than the number of channels ({dim}).")
        if dim % self.groups:
            raise ValueError(f"Number of groups ({self.groups}) must be a multiple of the number of channels ({dim}).")
        self.input_spec = InputSpec(ndim=len(input_shape), axes={self.axis: dim})
        self.gamma = new_weight(self, "gamma", (dim,), autocast=False) if self.scale else None
        self.beta = new_weight(self, "beta", (dim,), autocast=False) if self.center else None
        self.built = True

    def call(self, inputs: Any) -> Tensor:
        x = float32_inside(convert_to_tensor(inputs))
        rank = x.shape.rank
        a = self.axis % rank
        dims = [d if d is not None else _shape(x)[i] for i, d in enumerate(x.shape)]
        c = dims[a]
        grouped = [-1] + dims[1:a] + [self.groups, c // self.groups] + dims[a + 1:]
        xg = reshape(x, grouped)
        mean, var = nn.moments(xg, [i for i in range(1, rank + 1) if i != a], keepdims=True)
        bshape = [1] * a + [self.groups, c // self.groups] + [1] * (rank - a - 1)
        inv = rsqrt(var + self.epsilon)
        if self.gamma is not None:  # (not autocast: the weights follow the input's dtype, as Keras)
            inv = inv * reshape(cast(self.gamma, x.dtype), bshape)
        res = -mean * inv
        if self.beta is not None:
            res = res + reshape(cast(self.beta, x.dtype), bshape)
        return in_compute_dtype(reshape(xg * inv + res, [-1] + dims[1:]), self)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "groups": self.groups, "axis": self.axis, "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale, **weight_config(self, "beta", "gamma")}


class RMSNormalization(Layer):
    """Root-mean-square normalization: ``x * rsqrt(mean(x ** 2, axis) + epsilon) * scale``, with
    ``scale`` (ones at first) over the ``axis`` dimensions (``keras.ops.rms_normalization``).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.layers.RMSNormalization()(np.array([[3.0, 4.0]], "float32")).numpy().round(4)
    array([[0.8485, 1.1314]], dtype=float32)
    """

    def __init__(self, axis: Any = -1, epsilon: float = 1e-6, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis
        self.epsilon = epsilon

    def build(self, input_shape: Sequence) -> None:
        if isinstance(self.axis, (list, tuple)):
            self.axis = sorted(self.axis)
            shape = tuple(input_shape[dim] for dim in self.axis)
        else:
            shape = (input_shape[self.axis],)
            self.axis = [self.axis]
        self.scale = self.add_weight(name="scale", shape=shape, initializer="ones")
        self.built = True

    def call(self, x: Any) -> Tensor:
        return _kops.rms_normalization(x, scale=self.scale, axis=self.axis, epsilon=self.epsilon)

    def compute_output_shape(self, input_shape: Any) -> Any:
        for axis in [self.axis] if isinstance(self.axis, int) else self.axis:
            if axis >= len(input_shape) or axis < -len(input_shape):
                raise ValueError(f"Axis {axis} is out of bounds for input shape {input_shape}. "
                                 f"Received: axis={self.axis}")
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon}
