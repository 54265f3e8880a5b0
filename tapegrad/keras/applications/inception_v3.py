"""``keras.applications.inception_v3``: InceptionV3 (Szegedy et al. 2015) as Keras 3 builds it
(same layers, names and weight layout, so Keras's weight files load), ``preprocess_input``
(``mode="tf"``) and ``decode_predictions``.

>>> import numpy as np
>>> from tapegrad import keras
>>> keras.applications.inception_v3.preprocess_input(np.array([0.0, 255.0], np.float32))
array([-1.,  1.], dtype=float32)
"""
from __future__ import annotations

from typing import Any

from .. import layers
from ..backend import image_data_format
from ..models import Model
from . import imagenet_utils
from .imagenet_utils import _preprocess_tf as preprocess_input, decode_predictions

__all__ = ["InceptionV3", "preprocess_input", "decode_predictions"]

_HASHES = ("9a0d58056eeedaa3f26cb7ebd46da564", "bcbd6486424b2319ff4ef7d526e38f63")


def InceptionV3(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
                input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
                classifier_activation: Any = "softmax", name: str = "inception_v3") -> Model:
    """InceptionV3: a stem of five convolutions and two max poolings, eleven Inception modules
    (``mixed0`` to ``mixed10``), then the top. Each convolution has no bias and is followed by
    batch norm (without scale) and relu.

    Args:
      include_top: end with global average pooling and a ``classes``-way Dense layer.
      weights: None (random initialization), ``"imagenet"`` (Keras's pretrained file, read from
        Keras's download cache: tapegrad downloads nothing) or the path of a weights file.
      input_tensor: a Keras tensor to build the network on.
      input_shape: ``(rows, cols, channels)``, each side at least 75 (the default and, with the
        top and ImageNet weights, the only shape is ``(299, 299, 3)``).
      pooling: without the top, ``None`` (4-D output), ``"avg"`` or ``"max"``.
      classes: the top's classes.
      classifier_activation: the top's activation (None: logits).
      name: the model's name.

    Inputs are preprocessed with ``keras.applications.inception_v3.preprocess_input`` (to [-1, 1]).

    >>> from tapegrad import keras
    >>> model = keras.applications.InceptionV3(weights=None, input_shape=(75, 75, 3), classes=10)
    >>> model.output.shape, len(model.layers), model.count_params()
    ((None, 10), 313, 21823274)
    """
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=299, min_size=75,
                                                    data_format=image_data_format(),
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    channel_axis = 1 if image_data_format() == "channels_first" else 3

    def avg_pool(t: Any) -> Any:
        return layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same")(t)

    def max_pool(t: Any) -> Any:
        return layers.MaxPooling2D((3, 3), strides=(2, 2))(t)

    def mixed(branches: list, name: str | None) -> Any:
        return layers.concatenate(branches, axis=channel_axis, name=name)

    x = conv2d_bn(img_input, 32, 3, 3, strides=(2, 2), padding="valid")
    x = conv2d_bn(x, 32, 3, 3, padding="valid")
    x = conv2d_bn(x, 64, 3, 3)
    x = max_pool(x)
    x = conv2d_bn(x, 80, 1, 1, padding="valid")
    x = conv2d_bn(x, 192, 3, 3, padding="valid")
    x = max_pool(x)
    # mixed 0, 1, 2: 35 x 35 x 256, 288, 288
    for i, pool_filters in enumerate((32, 64, 64)):
        branch1x1 = conv2d_bn(x, 64, 1, 1)
        branch5x5 = conv2d_bn(conv2d_bn(x, 48, 1, 1), 64, 5, 5)
        branch3x3dbl = conv2d_bn(conv2d_bn(conv2d_bn(x, 64, 1, 1), 96, 3, 3), 96, 3, 3)
        branch_pool = conv2d_bn(avg_pool(x), pool_filters, 1, 1)
        x = mixed([branch1x1, branch5x5, branch3x3dbl, branch_pool], f"mixed{i}")
    # mixed 3: 17 x 17 x 768
    branch3x3 = conv2d_bn(x, 384, 3, 3, strides=(2, 2), padding="valid")
    branch3x3dbl = conv2d_bn(conv2d_bn(x, 64, 1, 1), 96, 3, 3)
    branch3x3dbl = conv2d_bn(branch3x3dbl, 96, 3, 3, strides=(2, 2), padding="valid")
    x = mixed([branch3x3, branch3x3dbl, max_pool(x)], "mixed3")
    # mixed 4, 5, 6, 7: 17 x 17 x 768
    for i, filters in enumerate((128, 160, 160, 192)):
        branch1x1 = conv2d_bn(x, 192, 1, 1)
        branch7x7 = conv2d_bn(x, filters, 1, 1)
        branch7x7 = conv2d_bn(branch7x7, filters, 1, 7)
        branch7x7 = conv2d_bn(branch7x7, 192, 7, 1)
        branch7x7dbl = conv2d_bn(x, filters, 1, 1)
        branch7x7dbl = conv2d_bn(branch7x7dbl, filters, 7, 1)
        branch7x7dbl = conv2d_bn(branch7x7dbl, filters, 1, 7)
        branch7x7dbl = conv2d_bn(branch7x7dbl, filters, 7, 1)
        branch7x7dbl = conv2d_bn(branch7x7dbl, 192, 1, 7)
        branch_pool = conv2d_bn(avg_pool(x), 192, 1, 1)
        x = mixed([branch1x1, branch7x7, branch7x7dbl, branch_pool], f"mixed{4 + i}")
    # mixed 8: 8 x 8 x 1280
    branch3x3 = conv2d_bn(conv2d_bn(x, 192, 1, 1), 320, 3, 3, strides=(2, 2), padding="valid")
    branch7x7x3 = conv2d_bn(x, 192, 1, 1)
    branch7x7x3 = conv2d_bn(branch7x7x3, 192, 1, 7)
    branch7x7x3 = conv2d_bn(branch7x7x3, 192, 7, 1)
    branch7x7x3 = conv2d_bn(branch7x7x3, 192, 3, 3, strides=(2, 2), padding="valid")
    x = mixed([branch3x3, branch7x7x3, max_pool(x)], "mixed8")
    # mixed 9, 10: 8 x 8 x 2048
    for i in range(2):
        branch1x1 = conv2d_bn(x, 320, 1, 1)
        branch3x3 = conv2d_bn(x, 384, 1, 1)
        branch3x3 = mixed([conv2d_bn(branch3x3, 384, 1, 3), conv2d_bn(branch3x3, 384, 3, 1)], f"mixed9_{i}")
        branch3x3dbl = conv2d_bn(conv2d_bn(x, 448, 1, 1), 384, 3, 3)
        branch3x3dbl = mixed([conv2d_bn(branch3x3dbl, 384, 1, 3), conv2d_bn(branch3x3dbl, 384, 3, 1)], None)
        branch_pool = conv2d_bn(avg_pool(x), 192, 1, 1)
        x = mixed([branch1x1, branch3x3, branch3x3dbl, branch_pool], f"mixed{9 + i}")
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
    imagenet_utils.load_weights(model, weights, f"inception_v3_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
                                _HASHES[0 if include_top else 1])
    return model


def conv2d_bn(x: Any, filters: int, num_row: int, num_col: int, padding: str = "same",
              strides: tuple = (1, 1), name: str | None = None) -> Any:
    """A ``num_row`` x ``num_col`` convolution without bias, batch norm without scale, relu (layers
    ``{name}_conv``, ``{name}_bn`` and ``name``; named automatically when ``name`` is None)."""
    bn_axis = 1 if image_data_format() == "channels_first" else 3
    x = layers.Conv2D(filters, (num_row, num_col), strides=strides, padding=padding, use_bias=False,
                      name=None if name is None else f"{name}_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, scale=False, name=None if name is None else f"{name}_bn")(x)
    return layers.Activation("relu", name=name)(x)
