"""``keras.applications.vgg16``: VGG16 (Simonyan and Zisserman 2014) as Keras 3 builds it (same
layers, names and weight layout), ``preprocess_input`` (``mode="caffe"``) and
``decode_predictions``.

>>> import numpy as np
>>> from tapegrad import keras
>>> keras.applications.vgg16.preprocess_input(np.full((1, 1, 1, 3), 255.0, np.float32))[0, 0, 0].round(2)
array([151.06, 138.22, 131.32], dtype=float32)
"""
from __future__ import annotations

from typing import Any

from .. import layers
from ..backend import image_data_format
from ..models import Model
from . import imagenet_utils
from .imagenet_utils import _preprocess_caffe as preprocess_input, decode_predictions

__all__ = ["VGG16", "preprocess_input", "decode_predictions"]

_HASHES = {"vgg16": ("64373286793e3c8b2b4e3219cbf3544b", "6d6bbae143d832006294945121d1f1fc"),
           "vgg19": ("cbe5617147190e668d6c5d5026f83318", "253f8cb515780f3b799900260a226db6")}


def vgg(convs: tuple, include_top: bool, weights: Any, input_tensor: Any, input_shape: Any,
        pooling: str | None, classes: int, classifier_activation: Any, name: str, net: str) -> Model:
    """A VGG network: five blocks of ``convs[i]`` 3x3 relu convolutions, each ending in 2x2 max
    pooling; the top is Flatten and three Dense layers (4096, 4096, ``classes``)."""
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=224, min_size=32,
                                                    data_format=image_data_format(),
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    x = img_input
    for block, (filters, n) in enumerate(zip((64, 128, 256, 512, 512), convs), start=1):
        for i in range(1, n + 1):
            x = layers.Conv2D(filters, (3, 3), activation="relu", padding="same",
                              name=f"block{block}_conv{i}")(x)
        x = layers.MaxPooling2D((2, 2), strides=(2, 2), name=f"block{block}_pool")(x)
    if include_top:
        x = layers.Flatten(name="flatten")(x)
        x = layers.Dense(4096, activation="relu", name="fc1")(x)
        x = layers.Dense(4096, activation="relu", name="fc2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D()(x)
    model = Model(imagenet_utils.model_inputs(input_tensor, img_input), x, name=name)
    suffix = "" if include_top else "_notop"
    imagenet_utils.load_weights(model, weights, f"{net}_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
                                _HASHES[net][0 if include_top else 1])
    return model


def VGG16(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
          input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
          classifier_activation: Any = "softmax", name: str = "vgg16") -> Model:
    """VGG16: 13 convolutions in five blocks (2, 2, 3, 3, 3), then the top.

    Args:
      include_top: end with Flatten and Dense layers of 4096, 4096 and ``classes`` units.
      weights: None (random initialization), ``"imagenet"`` (Keras's pretrained file, read from
        Keras's download cache: tapegrad downloads nothing) or the path of a weights file.
      input_tensor: a Keras tensor to build the network on.
      input_shape: ``(rows, cols, channels)``, each side at least 32 (``(224, 224, 3)`` with the
        top and ImageNet weights).
      pooling: without the top, ``None`` (4-D output), ``"avg"`` or ``"max"``.
      classes: the top's classes.
      classifier_activation: the top's activation (None: logits).
      name: the model's name.

    Inputs are preprocessed with ``keras.applications.vgg16.preprocess_input``.

    >>> from tapegrad import keras
    >>> keras.applications.VGG16(weights=None, include_top=False, input_shape=(32, 32, 3)).count_params()
    14714688
    """
    return vgg((2, 2, 3, 3, 3), include_top, weights, input_tensor, input_shape, pooling, classes,
               classifier_activation, name, "vgg16")
