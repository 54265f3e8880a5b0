"""Keras 3's TimeDistributed wrapper: one layer applied to every time step."""
from __future__ import annotations

from typing import Any, Sequence

from .._engine import convert_to_tensor
from ...ops.array import stack, transpose
from .layer import Layer
from .rnn_cells import layer_spec

__all__ = ["TimeDistributed"]


def _swap01(x: Any) -> Any:
    return transpose(x, [1, 0, *range(2, x.ndim)])


class TimeDistributed(Layer):
    """Applies ``layer`` to every time step (axis 1) of its input, as Keras: the layer's
    ``call`` runs once per step on ``(batch, ...)`` slices with the same weights, and the
    outputs are stacked back on axis 1. A ``(batch, timesteps, ...)`` mask is passed step by
    step to a layer whose ``call`` takes ``mask``, and is the output's mask.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> td = keras.layers.TimeDistributed(keras.layers.Dense(4))
    >>> td(tf.ones([2, 5, 3])).shape, td.layer.kernel.shape
    (TensorShape([2, 5, 4]), TensorShape([3, 4]))
    """

    def __init__(self, layer: Layer, **kwargs: Any) -> None:
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `TimeDistributed` layer with a `keras.layers.Layer` instance. "
                             f"Received: {layer}")
        super().__init__(**kwargs)
        self.layer = layer
        self.supports_masking = True

    @staticmethod
    def _child_shape(input_shape: Sequence) -> tuple:
        if not isinstance(input_shape, (tuple, list)) or len(input_shape) < 3:
            raise ValueError("`TimeDistributed` Layer should be passed an `input_shape` with at least 3 "
                             f"dimensions, received: {input_shape}")
        return (input_shape[0], *input_shape[2:])

    def build(self, input_shape: Sequence) -> None:
        child = self._child_shape(input_shape)
        if not self.layer.built:
            self.layer.build(child)
            self.layer.built = True
        self.built = True

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        x = convert_to_tensor(inputs)
        if mask is not None:
            mask = convert_to_tensor(mask)
            if mask.ndim < 2:
                raise ValueError("The `mask` passed to the `TimeDistributed` layer must be at least 2D (e.g., "
                                 f"`(batch_size, timesteps)`), but it has {mask.ndim} dimension(s) with shape "
                                 f"{tuple(mask.shape)}.")
            if tuple(mask.shape[:2]) != tuple(x.shape[:2]):
                raise ValueError(f"The `mask` passed to the `TimeDistributed` layer has a shape "
                                 f"{tuple(mask.shape)} that is incompatible with the input shape {tuple(x.shape)}. "
                                 "The first two dimensions of the mask (batch size and timesteps) must match the "
                                 f"input's first two dimensions. Expected mask shape prefix: "
                                 f"({x.shape[0]}, {x.shape[1]}).")
            mask = _swap01(mask)
        if x.ndim < 3:
            raise ValueError("`TimeDistributed` Layer should be passed an `input_shape` with at least 3 "
                             f"dimensions, received: {tuple(x.shape)}")
        x = _swap01(x)
        kw = {"training": training} if self.layer._call_has_training else {}
        outs = []
        for i in range(x.shape[0]):
            if self.layer._call_has_mask and mask is not None:
                kw["mask"] = mask[i]
            outs.append(self.layer.call(x[i], **kw))
        return _swap01(stack(outs))

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        out = self.layer.compute_output_shape(self._child_shape(input_shape))
        return (out[0], input_shape[1], *out[1:])

    def get_config(self) -> dict:
        return {**super().get_config(), "layer": layer_spec(self.layer)}

    @classmethod
    def from_config(cls, config: dict) -> TimeDistributed:
        config = dict(config)
        spec = config["layer"]
        if isinstance(spec, dict):
            from .. import layers
            config["layer"] = getattr(layers, spec["class_name"]).from_config(spec["config"])
        return cls(**config)
