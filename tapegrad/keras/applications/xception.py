"""``keras.applications.xception``: Xception (Chollet 2017) as Keras 3 builds it (same layers, names
and weight layout, so Keras's weight files load), ``preprocess_input`` (``mode="tf"``) and
``decode_predictions``.

>>> import numpy as np
>>> from tapegrad import keras
>>> keras.applications.xception.preprocess_input(np.array([0.0, 255.0], np.float32))
array([-1.,  1.], dtype=float32)
"""
from __future__ import annotations

from typing import Any

from .. import layers
from ..backend import image_data_format
from ..models import Model
from . import imagenet_utils
from .imagenet_utils import _preprocess_tf as preprocess_input, decode_predictions

__all__ = ["Xception", "preprocess_input", "decode_predictions"]

_HASHES = ("0a58e3b7378bc2990ea3b43d5981f1f6", "b0042744bf5b25fce3cb969f33bebb97")


def Xception(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
             input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
             classifier_activation: Any = "softmax", name: str = "xception") -> Model:
    """Xception: an entry flow (two convolutions, three blocks of separable convolutions with
    strided 1x1 convolution shortcuts), a middle flow of eight residual blocks of three separable
    convolutions (728 channels), an exit flow, then the top.

    Args:
      include_top: end with global average pooling and a ``classes``-way Dense layer.
      weights: None (random initialization), ``"imagenet"`` (Keras's pretrained file, read from
        Keras's download cache: tapegrad downloads nothing) or the path of a weights file.
      input_tensor: a Keras tensor to build the network on.
      input_shape: ``(rows, cols, channels)``, each side at least 71 (the default and, with the
        top and ImageNet weights, the only shape is ``(299, 299, 3)``).
      pooling: without the top, ``None`` (4-D output), ``"avg"`` or ``"max"``.
      classes: the top's classes.
      classifier_activation: the top's activation (None: logits).
      name: the model's name.

    Inputs are preprocessed with ``keras.applications.xception.preprocess_input`` (to [-1, 1]).

    Example (it builds the whole network, so it is not run as a doctest)::

        model = keras.applications.Xception(weights=None, input_shape=(71, 71, 3), classes=10)
        model.count_params()  # 20881970, as in Keras
    """
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=299, min_size=71,
                                                    data_format=image_data_format(),
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    channel_axis = 1 if image_data_format() == "channels_first" else -1

    def bn(t: Any, name: str | None = None) -> Any:
        return layers.BatchNormalization(axis=channel_axis, name=name)(t)

    def sepconv(t: Any, filters: int, name: str) -> Any:
        t = layers.SeparableConv2D(filters, (3, 3), padding="same", use_bias=False, name=name)(t)
        return bn(t, f"{name}_bn")

    def shortcut(t: Any, filters: int) -> Any:
        return bn(layers.Conv2D(filters, (1, 1), strides=(2, 2), padding="same", use_bias=False)(t))

    x = layers.Conv2D(32, (3, 3), strides=(2, 2), use_bias=False, name="block1_conv1")(img_input)
    x = bn(x, "block1_conv1_bn")
    x = layers.Activation("relu", name="block1_conv1_act")(x)
    x = layers.Conv2D(64, (3, 3), use_bias=False, name="block1_conv2")(x)
    x = bn(x, "block1_conv2_bn")
    x = layers.Activation("relu", name="block1_conv2_act")(x)
    # entry flow: blocks 2-4 (block 2 starts without relu: block1_conv2_act is one)
    for block, filters in ((2, 128), (3, 256), (4, 728)):
        residual = shortcut(x, filters)
        if block > 2:
            x = layers.Activation("relu", name=f"block{block}_sepconv1_act")(x)
        x = sepconv(x, filters, f"block{block}_sepconv1")
        x = layers.Activation("relu", name=f"block{block}_sepconv2_act")(x)
        x = sepconv(x, filters, f"block{block}_sepconv2")
        x = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same", name=f"block{block}_pool")(x)
        x = layers.add([x, residual])
    # middle flow: blocks 5-12
    for block in range(5, 13):
        residual = x
        for i in (1, 2, 3):
            x = layers.Activation("relu", name=f"block{block}_sepconv{i}_act")(x)
            x = sepconv(x, 728, f"block{block}_sepconv{i}")
        x = layers.add([x, residual])
    # exit flow
    residual = shortcut(x, 1024)
    x = layers.Activation("relu", name="block13_sepconv1_act")(x)
    x = sepconv(x, 728, "block13_sepconv1")
    x = layers.Activation("relu", name="block13_sepconv2_act")(x)
    x = sepconv(x, 1024, "block13_sepconv2")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same", name="block13_pool")(x)
    x = layers.add([x, residual])
    x = sepconv(x, 1536, "block14_sepconv1")
    x = layers.Activation("relu", name="block14_sepconv1_act")(x)
    x = sepconv(x, 2048, "block14_sepconv2")
    x = layers.Activation("relu", name="block14_sepconv2_act")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D()(x)
    model = Model(imagenet_utils.model_inputs(input_tensor, img_input), x, name=name)
    suffix = "" if include_top else "_notop"
    imagenet_utils.load_weights(model, weights, f"xception_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
                                _HASHES[0 if include_top else 1])
    return model
