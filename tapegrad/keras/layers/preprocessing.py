"""Keras 3's Normalization preprocessing layer."""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .._engine import convert_to_tensor
from .._engine import Tensor
from ...ops.array import broadcast_to, reshape
from ...ops.math import cast, maximum, sqrt
from .. import backend
from .layer import Layer
from .._keras_tensor import get_mask
from .._tree import map_structure
from ..saving import deserialize_keras_object, serialize_keras_object

__all__ = ["Normalization", "Pipeline"]


class Normalization(Layer):
    """Shifts and scales inputs to mean 0 and variance 1: ``(x - mean) / sqrt(variance)``
    (the denominator at least ``keras.backend.epsilon()``), with ``invert=True`` the inverse.

    The statistics are kept for each position along ``axis`` (default ``-1``, the features;
    ``None`` for one mean and variance over everything) and come from ``mean=``/``variance=``
    or from :meth:`adapt`, which sets the non-trainable weights ``[mean, variance, count]``.
    Once built, :attr:`mean` and :attr:`variance` are those statistics shaped to broadcast
    against the inputs (Keras 3's attributes).

    >>> import numpy as np
    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> norm = keras.layers.Normalization()
    >>> norm.adapt(np.array([[1.0, 10.0], [3.0, 30.0]]))
    >>> norm(np.array([[2.0, 50.0]])).numpy()
    array([[0., 3.]], dtype=float32)
    >>> norm.mean.numpy()
    array([[ 2., 20.]], dtype=float32)
    >>> keras.layers.Normalization(mean=2.0, variance=4.0, invert=True)(np.array([1.0])).numpy()
    array([4.], dtype=float32)
    """

    def __init__(self, axis: Any = -1, mean: Any = None, variance: Any = None, invert: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if axis is None:
            self.axis: tuple = ()
        elif isinstance(axis, int) and not isinstance(axis, bool):
            self.axis = (axis,)
        else:
            try:
                self.axis = tuple(int(a) for a in axis)
            except TypeError:
                raise TypeError(f"Normalization: expected an int, a tuple of ints or None for `axis`. "
                                f"Received: axis={axis!r}") from None
        if (mean is None) != (variance is None):
            raise ValueError(f"Normalization: set both `mean` and `variance`, or neither (to call adapt()). "
                             f"Received: mean={mean!r} and variance={variance!r}")
        if mean is not None:
            if np.shape(mean) != np.shape(variance):
                raise ValueError("Normalization: `mean` and `variance` must have the same shape. "
                                 f"Received: mean shape {np.shape(mean)} and variance shape "
                                 f"{np.shape(variance)}")
            if len(np.shape(mean)) > len(self.axis):
                raise ValueError("Normalization: the rank of `mean` must be less than or equal to the "
                                 f"number of axes ({len(self.axis)}). Received: mean shape "
                                 f"{np.shape(mean)} for axis {self.axis}")
        self.input_mean, self.input_variance, self.invert = mean, variance, bool(invert)
        self._given_stats: tuple | None = None

    @property
    def mean(self) -> Tensor | None:
        """The mean, shaped to broadcast against the inputs (``None`` until built)."""
        return self._stat(0)

    @property
    def variance(self) -> Tensor | None:
        """The variance, shaped to broadcast against the inputs (``None`` until built)."""
        return self._stat(1)

    def _stat(self, i: int) -> Tensor | None:
        if not self.built:
            return None
        if self._given_stats is not None:
            return self._given_stats[i]
        return cast(reshape((self.adapt_mean, self.adapt_variance)[i], self._bshape), self.compute_dtype)

    def build(self, input_shape: Sequence) -> None:
        ndim = len(input_shape)
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError(f"Normalization: all `axis` values must be in the range [-ndim, ndim). "
                             f"Received inputs with ndim={ndim}, while axis={self.axis}")
        self._input_shape = tuple(input_shape)
        self._keep = tuple(sorted(a % ndim for a in self.axis))
        self._reduce = tuple(d for d in range(ndim) if d not in self._keep)
        self._bshape = [input_shape[d] if d in self._keep else 1 for d in range(ndim)]
        shape = tuple(input_shape[d] for d in self._keep)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(name="mean", shape=shape, initializer="zeros", trainable=False)
            self.adapt_variance = self.add_weight(name="variance", shape=shape, initializer="ones", trainable=False)
            self.count = self.add_weight(name="count", shape=(), dtype="int32", initializer="zeros", trainable=False)
        else:
            self._given_stats = (self._given(self.input_mean), self._given(self.input_variance))
        self.built = True

    def _given(self, value: Any) -> Tensor:
        v = np.asarray(value, self.compute_dtype)
        if v.ndim:
            expanded = [1] * len(self._bshape)
            for i in range(1, v.ndim + 1):
                expanded[self._keep[-i]] = v.shape[-i]
            v = v.reshape(expanded)
        return broadcast_to(convert_to_tensor(v), self._bshape)

    def adapt(self, data: Any) -> None:
        """Set the mean and variance from ``data``: an array or tensor, or an iterable of batches
        (e.g. a list of arrays or a batched ``tf.data.Dataset``)."""
        if self.input_mean is not None:
            raise ValueError("Normalization: adapt() cannot be used on a layer given `mean` and `variance`.")
        if isinstance(data, (np.ndarray, Tensor)) or np.isscalar(data):
            batches: Any = [data.numpy() if isinstance(data, Tensor) else np.asarray(data)]
        else:
            spec = getattr(data, "element_spec", None)
            spec = spec[0] if isinstance(spec, tuple) else spec
            if spec is not None and len(spec.shape) == 1:  # a dataset of single rows: batch it
                data = data.batch(128)
            batches = (np.asarray(b[0] if isinstance(b, tuple) else b, np.float32) for b in data)
        mean = var = None
        total = 0
        for batch in batches:
            if not self.built:
                self.build(batch.shape)
            if tuple(batch.shape[d] for d in self._keep) != tuple(self._input_shape[d] for d in self._keep):
                raise ValueError(f"Normalization: the layer was built with input_shape={self._input_shape}, "
                                 f"but adapt() received data with an incompatible shape {batch.shape}.")
            bm, bv = batch.mean(axis=self._reduce), batch.var(axis=self._reduce)
            n = math.prod(batch.shape[d] for d in self._reduce)
            if mean is None:
                mean, var, total = bm, bv, n
                continue
            total += n
            w = n / total
            new = mean * (1 - w) + bm * w
            var = (var + (mean - new) ** 2) * (1 - w) + (bv + (bm - new) ** 2) * w
            mean = new
        if mean is None:
            raise ValueError("Normalization: adapt() received no data (an empty iterable).")
        self.adapt_mean.assign(mean.astype(self.adapt_mean.dtype.name))
        self.adapt_variance.assign(var.astype(self.adapt_variance.dtype.name))

    def call(self, inputs: Any) -> Any:
        x = cast(convert_to_tensor(inputs), self.compute_dtype)
        mean, var = self.mean, self.variance
        scale = maximum(sqrt(var), backend.epsilon())
        return mean + x * scale if self.invert else (x - mean) / scale

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        return tuple(input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis, "invert": self.invert,
                "mean": np.array(self.input_mean).tolist(), "variance": np.array(self.input_variance).tolist()}


class Pipeline(Layer):
    """Applies ``layers`` one after the other (Keras's ``keras.layers.Pipeline``): a plain layer,
    not a model, for preprocessing and augmentation chains. ``training`` (default True) goes to
    each layer whose ``call`` takes it, and each layer's output mask to the next.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> pipe = keras.layers.Pipeline([keras.layers.Rescaling(2.0), keras.layers.Rescaling(1.0, offset=1.0)])
    >>> pipe(tf.constant([[1.0, 2.0]])).numpy()
    array([[3., 5.]], dtype=float32)
    >>> [type(layer).__name__ for layer in keras.layers.Pipeline.from_config(pipe.get_config()).layers]
    ['Rescaling', 'Rescaling']
    """

    def __init__(self, layers: Sequence, name: str | None = None) -> None:
        super().__init__(name=name)
        self._pipeline_layers = layers

    @property
    def layers(self) -> Sequence:
        return self._pipeline_layers

    def call(self, inputs: Any, training: Any = True, mask: Any = None) -> Any:
        outputs = inputs
        for layer in self._pipeline_layers:
            kwargs: dict = {}
            if layer._call_has_mask:
                kwargs["mask"] = mask
            if layer._call_has_training and training is not None:
                kwargs["training"] = training
            outputs = layer(inputs, **kwargs)
            inputs = outputs
            mask = map_structure(get_mask, outputs)
        return outputs

    def get_config(self) -> dict:
        return {"layers": [serialize_keras_object(layer) for layer in self._pipeline_layers], "name": self.name}

    @classmethod
    def from_config(cls, config: dict) -> Pipeline:
        layers = config.get("layers")
        if not isinstance(layers, (list, tuple)):
            raise ValueError("`Pipeline` config must contain a `layers` key mapping to a list of serialized "
                             f"layers. Received config with layers={layers}.")
        return cls(**{**config, "layers": [deserialize_keras_object(x) for x in layers]})
