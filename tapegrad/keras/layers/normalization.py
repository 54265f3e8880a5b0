"""Keras 3's BatchNormalization and LayerNormalization.

BatchNormalization keeps its moving statistics as non-trainable variables: a call with
``training=True`` normalizes with the batch's mean and (biased) variance and moves the
statistics by ``moving = moving * momentum + batch * (1 - momentum)`` (an assignment, outside
the tape); any other call normalizes with the moving statistics.
"""
from __future__ import annotations

import warnings
from typing import Any, Sequence

from ... import nn
from ...ops.array import broadcast_to, expand_dims, reshape, shape
from ...ops.math import cast, rsqrt, square
from ...ops.reduction import reduce_sum
from .. import backend, initializers
from .layer import Layer
from .conv import check_input, new_weight, serialized, weight_args, weight_config

__all__ = ["BatchNormalization", "LayerNormalization"]


def _axis(value: Any, ndim: int, layer: Layer) -> int:
    if not -ndim <= value < ndim:
        raise ValueError(f"{type(layer).__name__}: axis {value} is out of bounds for an input of rank "
                         f"{ndim}. Received: axis={value}")
    return value % ndim


def _broadcaster(axes: list, ndim: int, shape: list, dtype: Any = None) -> Any:
    """Reshape a per-axis weight or statistic to ``shape`` unless it is over the last axis only
    (and cast it to ``dtype`` when given)."""
    def fit(v: Any) -> Any:
        if v is None:
            return None
        if dtype is not None and v.dtype != dtype:
            v = cast(v, dtype)
        return v if axes == [ndim - 1] else reshape(v, shape)
    return fit


def float32_inside(x: Any) -> Any:
    """A float16 input as float32: the normalization layers compute their statistics in float32
    (Keras 3: float16's range overflows a variance)."""
    return cast(x, "float32") if x.dtype.name == "float16" else x


def in_compute_dtype(x: Any, layer: Layer) -> Any:
    return x if x.dtype.name == layer.compute_dtype else cast(x, layer.compute_dtype)


class BatchNormalization(Layer):
    """Normalizes each channel (``axis``) with the batch's statistics in training and with
    moving statistics in inference; ``gamma`` and ``beta`` scale and shift.

    Keras 3's arguments and defaults: ``axis=-1``, ``momentum=0.99``, ``epsilon=1e-3``,
    ``center=True``, ``scale=True``, initializers, regularizers and constraints. The weights are
    ``[gamma, beta, moving_mean, moving_variance]`` (the last two non-trainable). A ``mask``
    (one axis less than the input) leaves masked entries out of the batch statistics.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> bn = keras.layers.BatchNormalization(momentum=0.5)
    >>> x = tf.constant([[0.0, 1.0], [2.0, 5.0]])
    >>> bn(x, training=True).numpy().round(4)
    array([[-0.9995, -0.9999],
           [ 0.9995,  0.9999]], dtype=float32)
    >>> bn.moving_mean.numpy(), bn.moving_variance.numpy()
    (array([0.5, 1.5], dtype=float32), array([1. , 2.5], dtype=float32))
    """

    def __init__(self, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3, center: bool = True,
                 scale: bool = True, beta_initializer: Any = "zeros", gamma_initializer: Any = "ones",
                 moving_mean_initializer: Any = "zeros", moving_variance_initializer: Any = "ones",
                 beta_regularizer: Any = None, gamma_regularizer: Any = None, beta_constraint: Any = None,
                 gamma_constraint: Any = None, renorm: bool = False, renorm_clipping: Any = None,
                 renorm_momentum: float = 0.99, synchronized: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if renorm:
            raise NotImplementedError("BatchNormalization: batch renormalization (renorm=True) is not "
                                      "implemented in tapegrad; see docs/differences.md.")
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"BatchNormalization: `axis` must be an int. Received: axis={axis!r}")
        self.axis, self.momentum, self.epsilon = axis, float(momentum), float(epsilon)
        self.center, self.scale, self.synchronized = bool(center), bool(scale), bool(synchronized)
        self.renorm_momentum = float(renorm_momentum)
        weight_args(self, "beta", beta_initializer, beta_regularizer, beta_constraint)
        weight_args(self, "gamma", gamma_initializer, gamma_regularizer, gamma_constraint)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.supports_masking = True

    def build(self, input_shape: Sequence) -> None:
        ndim = len(input_shape)
        self._ndim, ax = ndim, _axis(self.axis, ndim, self)
        shape = (input_shape[ax],)
        self._size = shape[0]
        self.gamma = new_weight(self, "gamma", shape, autocast=False) if self.scale else None
        self.beta = new_weight(self, "beta", shape, autocast=False) if self.center else None
        self.moving_mean = self.add_weight(name="moving_mean", shape=shape, initializer=self.moving_mean_initializer,
                                           trainable=False, autocast=False)
        self.moving_variance = self.add_weight(name="moving_variance", shape=shape, trainable=False,
                                               initializer=self.moving_variance_initializer, autocast=False)
        self._reduction_axes = [d for d in range(ndim) if d != ax]
        self._bshape = [input_shape[d] if d == ax else 1 for d in range(ndim)]
        self.built = True

    def _moments(self, x: Any, mask: Any) -> tuple:
        if mask is None:
            return nn.moments(x, self._reduction_axes)
        if len(mask.shape) != len(x.shape) - 1:
            raise ValueError(f"BatchNormalization: the mask must have one axis less than the inputs. "
                             f"Received: mask.shape={tuple(mask.shape)}, inputs.shape={tuple(x.shape)}")
        w = broadcast_to(expand_dims(cast(mask, x.dtype), -1), shape(x))
        total = reduce_sum(w, self._reduction_axes, keepdims=True) + backend.epsilon()
        mean = reduce_sum(w * x, self._reduction_axes, keepdims=True) / total
        var = reduce_sum(w * square(w * x - mean), self._reduction_axes, keepdims=True) / total
        return reshape(mean, [-1]), reshape(var, [-1])

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        ax = _axis(self.axis, self._ndim, self)
        check_input(self, inputs.shape, self._ndim, ax, self._size)
        if inputs.dtype.name != "float64":  # (Keras: in result_type(x, float32): integers too)
            inputs = float32_inside(inputs) if inputs.dtype.is_floating else cast(inputs, "float32")
        if training and self.trainable:
            mean, var = self._moments(inputs, mask)
            m = self.momentum
            self.moving_mean.assign(self.moving_mean * m + mean * (1.0 - m))
            self.moving_variance.assign(self.moving_variance * m + var * (1.0 - m))
        else:
            mean, var = self.moving_mean, self.moving_variance
        b = _broadcaster([ax], self._ndim, self._bshape)
        out = nn.batch_normalization(inputs, b(mean), b(var), b(self.beta), b(self.gamma), self.epsilon)
        return in_compute_dtype(out, self)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        return tuple(input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis, "momentum": self.momentum, "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale, **weight_config(self, "beta", "gamma"),
                "moving_mean_initializer": serialized(self.moving_mean_initializer),
                "moving_variance_initializer": serialized(self.moving_variance_initializer),
                "synchronized": self.synchronized, "renorm": False, "renorm_clipping": None,
                "renorm_momentum": self.renorm_momentum}


class LayerNormalization(Layer):
    """Normalizes each example over ``axis`` (an int or a list), then scales by ``gamma`` and
    shifts by ``beta`` (shaped like the normalized axes).

    Keras 3's arguments and defaults: ``axis=-1``, ``epsilon=1e-3``, ``center=True``,
    ``scale=True``, initializers, regularizers, constraints; and the deprecated
    ``rms_scaling=True``, which (as in Keras) divides by ``sqrt(variance + epsilon)`` without
    subtracting the mean and has no ``beta``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> ln = keras.layers.LayerNormalization(epsilon=0.0)
    >>> ln(tf.constant([[1.0, 3.0], [0.0, 10.0]])).numpy()
    array([[-1.,  1.],
           [-1.,  1.]], dtype=float32)
    """

    def __init__(self, axis: Any = -1, epsilon: float = 1e-3, center: bool = True, scale: bool = True,
                 beta_initializer: Any = "zeros", gamma_initializer: Any = "ones", beta_regularizer: Any = None,
                 gamma_regularizer: Any = None, beta_constraint: Any = None, gamma_constraint: Any = None,
                 **kwargs: Any) -> None:
        rms_scaling = bool(kwargs.pop("rms_scaling", False))
        if rms_scaling:
            warnings.warn("LayerNormalization: `rms_scaling=True` is deprecated in Keras 3: it scales the "
                          "input by the variance, not the root mean square.", UserWarning, stacklevel=2)
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis: Any = list(axis)
        elif isinstance(axis, int) and not isinstance(axis, bool):
            self.axis = axis
        else:
            raise TypeError(f"LayerNormalization: expected an int or a list/tuple of ints for the argument "
                            f"'axis', but received: {axis!r}")
        self.epsilon, self.center, self.scale, self.rms_scaling = float(epsilon), bool(center), bool(scale), rms_scaling
        weight_args(self, "beta", beta_initializer, beta_regularizer, beta_constraint)
        weight_args(self, "gamma", gamma_initializer, gamma_regularizer, gamma_constraint)
        self.supports_masking = True
        self.autocast = False  # (float16 inputs are normalized in float32)

    def build(self, input_shape: Sequence) -> None:
        ndim = len(input_shape)
        axes = self.axis if isinstance(self.axis, list) else [self.axis]
        self._axes = sorted(_axis(a, ndim, self) for a in axes)
        self._ndim = ndim
        shape = tuple(input_shape[a] for a in self._axes)
        self._sizes = shape
        self.gamma = new_weight(self, "gamma", shape, autocast=False) if self.scale or self.rms_scaling else None
        self.beta = new_weight(self, "beta", shape, autocast=False) if self.center and not self.rms_scaling else None
        self._bshape = [input_shape[d] if d in self._axes else 1 for d in range(ndim)]
        self.built = True

    def call(self, inputs: Any) -> Any:
        check_input(self, inputs.shape, self._ndim)
        if tuple(inputs.shape[a] for a in self._axes) != self._sizes:
            raise ValueError(f"LayerNormalization: the layer was built for sizes {self._sizes} on axes "
                             f"{self._axes}; received an input of shape {tuple(inputs.shape)}.")
        inputs = float32_inside(inputs)  # (not autocast: the weights follow the input's dtype, as Keras)
        b = _broadcaster(self._axes, self._ndim, self._bshape, inputs.dtype)
        mean, var = nn.moments(inputs, self._axes, keepdims=True)
        inv = rsqrt(var + self.epsilon)
        if self.rms_scaling:
            return in_compute_dtype(inputs * inv * b(self.gamma), self)
        if self.gamma is not None:
            inv = inv * b(self.gamma)
        res = -mean * inv
        if self.beta is not None:
            res = res + b(self.beta)
        return in_compute_dtype(inputs * inv + res, self)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        return tuple(input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon, "center": self.center,
                "scale": self.scale, "rms_scaling": self.rms_scaling, **weight_config(self, "beta", "gamma")}
