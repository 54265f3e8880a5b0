"""Keras 3's activation layers ELU and PReLU (a learned slope below zero)."""
from __future__ import annotations

from typing import Any, Sequence

from .._engine import Tensor, convert_to_tensor
from ...ops.math import cast, greater
from .. import activations
from .input_spec import InputSpec
from .layer import Layer
from .conv import new_weight, weight_args, weight_config

__all__ = ["ELU", "PReLU", "ThresholdedReLU"]


class ELU(Layer):
    """``x`` above zero, ``alpha * (exp(x) - 1)`` below.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.ELU(alpha=2.0)(tf.constant([[-1.0, 1.0]])).numpy().round(4)
    array([[-1.2642,  1.    ]], dtype=float32)
    """

    def __init__(self, alpha: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.alpha = alpha
        self.supports_masking = True

    def call(self, inputs: Any) -> Tensor:
        return activations.elu(inputs, alpha=self.alpha)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "alpha": self.alpha}


class PReLU(Layer):
    """Parametric ReLU: ``relu(x) - alpha * relu(-x)`` with a learned ``alpha`` per input entry
    (shape ``input_shape[1:]``), shared (size 1) along ``shared_axes``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> layer = keras.layers.PReLU(alpha_initializer=keras.initializers.Constant(0.1), shared_axes=[1])
    >>> layer(tf.constant([[[-2.0, 3.0]]])).numpy()
    array([[[-0.2,  3. ]]], dtype=float32)
    >>> layer.alpha.shape
    TensorShape([1, 2])
    """

    def __init__(self, alpha_initializer: Any = "Zeros", alpha_regularizer: Any = None,
                 alpha_constraint: Any = None, shared_axes: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.supports_masking = True
        weight_args(self, "alpha", alpha_initializer, alpha_regularizer, alpha_constraint)
        self.shared_axes = (None if shared_axes is None else
                            list(shared_axes) if isinstance(shared_axes, (list, tuple)) else [shared_axes])

    def build(self, input_shape: Sequence) -> None:
        shape = list(input_shape[1:])
        for i in self.shared_axes or ():
            if not 1 <= i < len(input_shape):
                raise ValueError(f"PReLU: `shared_axes` entries must be axes 1..{len(input_shape) - 1} of the "
                                 f"input. Received: shared_axes={self.shared_axes}, input_shape={tuple(input_shape)}")
            shape[i - 1] = 1
        if None in shape:
            raise ValueError(f"PReLU needs every non-shared input axis defined; input_shape={tuple(input_shape)}. "
                             "Pass `shared_axes` for the axes of unknown size.")
        self.alpha = new_weight(self, "alpha", tuple(shape))
        self.input_spec = InputSpec(ndim=len(input_shape), axes={i: input_shape[i] for i in range(1, len(input_shape))
                                                                 if i not in (self.shared_axes or ())})
        self.built = True

    def call(self, inputs: Any) -> Tensor:
        return activations.relu(inputs) - self.alpha * activations.relu(-inputs)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), **weight_config(self, "alpha"), "shared_axes": self.shared_axes}


class ThresholdedReLU(Layer):
    """``x`` where ``x > theta``, else 0 (Keras 2's layer, which Keras 3.15 keeps for tf.keras).
    ``theta`` is kept as a tensor of the layer's dtype; the config holds it as a float.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.ThresholdedReLU(theta=0.5)(tf.constant([[0.2, 0.5, 0.7]])).numpy()
    array([[0. , 0. , 0.7]], dtype=float32)
    """

    _keras_module = "keras._legacy.layers"  # (the module Keras's configs name)

    def __init__(self, theta: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if theta is None:
            raise ValueError(f"Theta of a Thresholded ReLU layer cannot be None, expecting a float. Received: {theta}")
        if theta < 0:
            raise ValueError(f"The theta value of a Thresholded ReLU layer should be >=0. Received: {theta}")
        self.supports_masking = True
        self.theta = convert_to_tensor(theta, self.compute_dtype)

    def call(self, inputs: Any) -> Tensor:
        x = convert_to_tensor(inputs)
        return x * cast(greater(x, cast(self.theta, x.dtype)), self.compute_dtype)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "theta": float(self.theta)}
