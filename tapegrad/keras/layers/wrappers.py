"""Keras 3's layer wrappers: the ``Wrapper`` base class, and ``TimeDistributed`` (one layer applied
to every time step)."""
from __future__ import annotations

from typing import Any, Sequence

from .._engine import cond, convert_to_tensor
from ...ops.array import reshape, stack, stop_gradient, transpose
from ...ops.linalg import matmul
from ...ops.math import cast, equal
from ...ops.reduction import reduce_all
from .. import initializers, ops as _kops
from .input_spec import InputSpec
from .layer import Layer
from ..saving import deserialize_keras_object, serialize_keras_object

__all__ = ["Wrapper", "TimeDistributed", "SpectralNormalization"]


def _swap01(x: Any) -> Any:
    return transpose(x, [1, 0, *range(2, x.ndim)])


class Wrapper(Layer):
    """Base class of the layers that hold another ``layer`` and change how it is applied
    (Keras's ``keras.layers.Wrapper``; :class:`TimeDistributed` is one). Building the wrapper
    builds the held layer with the same input shape, unless it is built; the config holds the
    layer's serialized config. A subclass writes ``call``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> class Twice(keras.layers.Wrapper):
    ...     def call(self, x):
    ...         return self.layer(self.layer(x))
    >>> w = Twice(keras.layers.Dense(2, kernel_initializer="ones"))
    >>> w(tf.ones([1, 2])).numpy()
    array([[4., 4.]], dtype=float32)
    >>> type(Twice.from_config(w.get_config()).layer).__name__
    'Dense'
    """

    def __init__(self, layer: Layer, **kwargs: Any) -> None:
        if not isinstance(layer, Layer):
            raise ValueError(f"Layer {layer} supplied to Wrapper isn't a supported layer type. Please ensure "
                             "wrapped layer is a valid Keras layer.")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape: Any = None) -> None:
        if not self.layer.built:
            self.layer.__dict__["_build_input_shape"] = input_shape  # (its build_config, as Keras records)
            self.layer.build(input_shape)
            self.layer.built = True
        self.built = True

    def get_config(self) -> dict:
        return {**super().get_config(), "layer": serialize_keras_object(self.layer)}

    @classmethod
    def from_config(cls, config: dict, custom_objects: dict | None = None) -> Wrapper:
        config = dict(config)
        layer = config.pop("layer")
        if isinstance(layer, dict):
            layer = deserialize_keras_object(layer, custom_objects=custom_objects)
        return cls(layer, **config)


class TimeDistributed(Wrapper):
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
        super().__init__(layer, **kwargs)
        self.supports_masking = True

    @staticmethod
    def _child_shape(input_shape: Sequence) -> tuple:
        if not isinstance(input_shape, (tuple, list)) or len(input_shape) < 3:
            raise ValueError("`TimeDistributed` Layer should be passed an `input_shape` with at least 3 "
                             f"dimensions, received: {input_shape}")
        return (input_shape[0], *input_shape[2:])

    def build(self, input_shape: Sequence) -> None:
        super().build(self._child_shape(input_shape))

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


class SpectralNormalization(Wrapper):
    """Divides the wrapped layer's ``kernel`` (or ``embeddings``) by its largest singular value,
    estimated by ``power_iterations`` steps of power iteration from the non-trainable
    ``vector_u`` (Miyato et al., 2018). In training calls the kernel and ``vector_u`` are
    assigned the normalized values before the layer runs (an all-zero kernel is left as is);
    inference calls use the kernel as it stands.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> sn = keras.layers.SpectralNormalization(keras.layers.Dense(2))
    >>> sn(np.ones((1, 3), "float32"), training=True).shape
    TensorShape([1, 2])
    >>> [w.name for w in sn.weights]
    ['kernel', 'vector_u', 'bias']
    """

    def __init__(self, layer: Layer, power_iterations: int = 1, **kwargs: Any) -> None:
        super().__init__(layer, **kwargs)
        if power_iterations <= 0:
            raise ValueError("`power_iterations` should be greater than zero. Received: "
                             f"`power_iterations={power_iterations}`")
        self.power_iterations = power_iterations

    def build(self, input_shape: Any) -> None:
        super().build(input_shape)
        self.input_spec = InputSpec(min_ndim=1, axes={-1: input_shape[-1]})
        if hasattr(self.layer, "kernel"):
            self.kernel = self.layer.kernel
        elif hasattr(self.layer, "embeddings"):
            self.kernel = self.layer.embeddings
        else:
            raise ValueError(f"{type(self.layer).__name__} object has no attribute 'kernel' nor 'embeddings'")
        self.kernel_shape = self.kernel.shape
        self.vector_u = self.add_weight(shape=(1, self.kernel_shape[-1]),
                                        initializer=initializers.TruncatedNormal(stddev=0.02), trainable=False,
                                        name="vector_u", dtype=self.kernel.dtype)

    def call(self, inputs: Any, training: Any = False) -> Any:
        if training:
            kernel = convert_to_tensor(self.kernel)
            new_vector_u, new_kernel = cond(reduce_all(equal(kernel, 0)),
                                            lambda: (convert_to_tensor(self.vector_u), kernel),
                                            self.normalized_weights)
            self.vector_u.assign(new_vector_u)
            self.kernel.assign(new_kernel)
        output = self.layer(inputs)
        return cast(output, convert_to_tensor(inputs).dtype)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return self.layer.compute_output_shape(input_shape)

    def normalized_weights(self) -> tuple:
        """The power-iteration estimate: the new ``vector_u`` and the kernel divided by sigma."""
        kernel = convert_to_tensor(self.kernel)
        weights = reshape(kernel, [-1, self.kernel_shape[-1]])
        vector_u = convert_to_tensor(self.vector_u)
        for _ in range(self.power_iterations):
            vector_v = _kops.normalize(matmul(vector_u, transpose(weights)), axis=None)
            vector_u = _kops.normalize(matmul(vector_v, weights), axis=None)
        vector_u, vector_v = stop_gradient(vector_u), stop_gradient(vector_v)
        sigma = matmul(matmul(vector_v, weights), transpose(vector_u))
        new_kernel = reshape(kernel / sigma, self.kernel_shape)
        return cast(vector_u, self.vector_u.dtype), cast(new_kernel, self.kernel.dtype)

    def get_config(self) -> dict:
        return {**super().get_config(), "power_iterations": self.power_iterations}
