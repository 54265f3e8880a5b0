"""``keras.applications.inception_resnet_v2``: InceptionResNetV2 (Szegedy et al. 2016) as Keras 3
builds it (same layers, names and weight layout, so Keras's weight files load), its
``CustomScaleLayer``, ``preprocess_input`` (``mode="tf"``) and ``decode_predictions``.

>>> import numpy as np
>>> from tapegrad import keras
>>> layer = keras.applications.inception_resnet_v2.CustomScaleLayer(0.5)
>>> layer([np.ones((1, 2), np.float32), np.full((1, 2), 4.0, np.float32)]).numpy()
array([[3., 3.]], dtype=float32)
"""
from __future__ import annotations

from typing import Any

from .. import layers
from ..backend import image_data_format
from ..layers.layer import Layer
from ..models import Model
from . import imagenet_utils
from .imagenet_utils import _preprocess_tf as preprocess_input, decode_predictions

__all__ = ["InceptionResNetV2", "CustomScaleLayer", "preprocess_input", "decode_predictions"]

_HASHES = ("e693bd0210a403b3192acc6073ad2e96", "d19885ff4a710c122648d3b5c3b684e4")


def InceptionResNetV2(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
                      input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
                      classifier_activation: Any = "softmax",
                      name: str = "inception_resnet_v2") -> Model:
    """InceptionResNetV2: the Inception stem, ``mixed_5b``, ten ``block35`` residual Inception
    blocks (scale 0.17), ``mixed_6a``, twenty ``block17`` (scale 0.1), ``mixed_7a``, ten ``block8``
    (scale 0.2, the last without activation and scale 1), a 1x1 convolution to 1536 channels, then
    the top.

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

    Inputs are preprocessed with ``keras.applications.inception_resnet_v2.preprocess_input``.

    Example (it builds the whole network, so it is not run as a doctest)::

        model = keras.applications.InceptionResNetV2(weights=None)
        model.count_params()  # 55873736, as in Keras
    """
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=299, min_size=75,
                                                    data_format=image_data_format(),
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    channel_axis = 1 if image_data_format() == "channels_first" else 3
    # stem: 35 x 35 x 192
    x = conv2d_bn(img_input, 32, 3, strides=2, padding="valid")
    x = conv2d_bn(x, 32, 3, padding="valid")
    x = conv2d_bn(x, 64, 3)
    x = layers.MaxPooling2D(3, strides=2)(x)
    x = conv2d_bn(x, 80, 1, padding="valid")
    x = conv2d_bn(x, 192, 3, padding="valid")
    x = layers.MaxPooling2D(3, strides=2)(x)
    # mixed 5b (Inception-A): 35 x 35 x 320
    branch_0 = conv2d_bn(x, 96, 1)
    branch_1 = conv2d_bn(conv2d_bn(x, 48, 1), 64, 5)
    branch_2 = conv2d_bn(conv2d_bn(conv2d_bn(x, 64, 1), 96, 3), 96, 3)
    branch_pool = conv2d_bn(layers.AveragePooling2D(3, strides=1, padding="same")(x), 64, 1)
    x = layers.Concatenate(axis=channel_axis, name="mixed_5b")([branch_0, branch_1, branch_2, branch_pool])
    for block_idx in range(1, 11):
        x = inception_resnet_block(x, scale=0.17, block_type="block35", block_idx=block_idx)
    # mixed 6a (Reduction-A): 17 x 17 x 1088
    branch_0 = conv2d_bn(x, 384, 3, strides=2, padding="valid")
    branch_1 = conv2d_bn(conv2d_bn(conv2d_bn(x, 256, 1), 256, 3), 384, 3, strides=2, padding="valid")
    branch_pool = layers.MaxPooling2D(3, strides=2, padding="valid")(x)
    x = layers.Concatenate(axis=channel_axis, name="mixed_6a")([branch_0, branch_1, branch_pool])
    for block_idx in range(1, 21):
        x = inception_resnet_block(x, scale=0.1, block_type="block17", block_idx=block_idx)
    # mixed 7a (Reduction-B): 8 x 8 x 2080
    branch_0 = conv2d_bn(conv2d_bn(x, 256, 1), 384, 3, strides=2, padding="valid")
    branch_1 = conv2d_bn(conv2d_bn(x, 256, 1), 288, 3, strides=2, padding="valid")
    branch_2 = conv2d_bn(conv2d_bn(conv2d_bn(x, 256, 1), 288, 3), 320, 3, strides=2, padding="valid")
    branch_pool = layers.MaxPooling2D(3, strides=2, padding="valid")(x)
    x = layers.Concatenate(axis=channel_axis, name="mixed_7a")([branch_0, branch_1, branch_2, branch_pool])
    for block_idx in range(1, 10):
        x = inception_resnet_block(x, scale=0.2, block_type="block8", block_idx=block_idx)
    x = inception_resnet_block(x, scale=1.0, activation=None, block_type="block8", block_idx=10)
    x = conv2d_bn(x, 1536, 1, name="conv_7b")
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
    imagenet_utils.load_weights(model, weights,
                                f"inception_resnet_v2_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
                                _HASHES[0 if include_top else 1])
    return model


def conv2d_bn(x: Any, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "same",
              activation: Any = "relu", use_bias: bool = False, name: str | None = None) -> Any:
    """A convolution, then (without bias) batch norm without scale, then ``activation`` (layers
    ``name``, ``{name}_bn`` and ``{name}_ac``; named automatically when ``name`` is None)."""
    x = layers.Conv2D(filters, kernel_size, strides=strides, padding=padding, use_bias=use_bias,
                      name=name)(x)
    if not use_bias:
        bn_axis = 1 if image_data_format() == "channels_first" else 3
        x = layers.BatchNormalization(axis=bn_axis, scale=False,
                                      name=None if name is None else f"{name}_bn")(x)
    if activation is not None:
        x = layers.Activation(activation, name=None if name is None else f"{name}_ac")(x)
    return x


class CustomScaleLayer(Layer):
    """``inputs[0] + inputs[1] * scale``: the scaled residual connection of InceptionResNetV2.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> layer = keras.applications.inception_resnet_v2.CustomScaleLayer(scale=0.1, name="scale")
    >>> layer.get_config()["scale"], layer.name
    (0.1, 'scale')
    """

    def __init__(self, scale: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scale = scale

    def get_config(self) -> dict:
        return {**super().get_config(), "scale": self.scale}

    def call(self, inputs: Any) -> Any:
        return inputs[0] + inputs[1] * self.scale


def inception_resnet_block(x: Any, scale: float, block_type: str, block_idx: int,
                           activation: Any = "relu") -> Any:
    """A residual Inception block: ``x + scale * conv1x1(concat(branches))``, then ``activation``.

    ``block_type`` is ``"block35"`` (35 x 35 grid), ``"block17"`` (17 x 17) or ``"block8"``
    (8 x 8); the block's layers are named ``{block_type}_{block_idx}_*``.
    """
    if block_type == "block35":
        branch_0 = conv2d_bn(x, 32, 1)
        branch_1 = conv2d_bn(conv2d_bn(x, 32, 1), 32, 3)
        branch_2 = conv2d_bn(conv2d_bn(conv2d_bn(x, 32, 1), 48, 3), 64, 3)
        branches = [branch_0, branch_1, branch_2]
    elif block_type == "block17":
        branch_0 = conv2d_bn(x, 192, 1)
        branch_1 = conv2d_bn(conv2d_bn(conv2d_bn(x, 128, 1), 160, [1, 7]), 192, [7, 1])
        branches = [branch_0, branch_1]
    elif block_type == "block8":
        branch_0 = conv2d_bn(x, 192, 1)
        branch_1 = conv2d_bn(conv2d_bn(conv2d_bn(x, 192, 1), 224, [1, 3]), 256, [3, 1])
        branches = [branch_0, branch_1]
    else:
        raise ValueError('Unknown Inception-ResNet block type. Expects "block35", "block17" or '
                         f'"block8", but got: {block_type}')
    block_name = f"{block_type}_{block_idx}"
    channel_axis = 1 if image_data_format() == "channels_first" else 3
    mixed = layers.Concatenate(axis=channel_axis, name=f"{block_name}_mixed")(branches)
    up = conv2d_bn(mixed, x.shape[channel_axis], 1, activation=None, use_bias=True, name=f"{block_name}_conv")
    x = CustomScaleLayer(scale)([x, up])
    if activation is not None:
        x = layers.Activation(activation, name=f"{block_name}_ac")(x)
    return x
