"""``keras.applications.vgg19``: VGG19 as Keras 3 builds it, ``preprocess_input``
(``mode="caffe"``) and ``decode_predictions``.
"""
from __future__ import annotations

from typing import Any

from ..models import Model
from .imagenet_utils import _preprocess_caffe as preprocess_input, decode_predictions
from .vgg16 import vgg

__all__ = ["VGG19", "preprocess_input", "decode_predictions"]


def VGG19(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
          input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
          classifier_activation: Any = "softmax", name: str = "vgg19") -> Model:
    """VGG19: 16 convolutions in five blocks (2, 2, 4, 4, 4), then the top; arguments as in
    ``keras.applications.VGG16``.

    Example (it builds the whole network, so it is not run as a doctest)::

        model = keras.applications.VGG19(weights=None, input_shape=(64, 64, 3), classes=4)
        model.count_params()  # 45214788, as in Keras
    """
    return vgg((2, 2, 4, 4, 4), include_top, weights, input_tensor, input_shape, pooling, classes,
               classifier_activation, name, "vgg19")
