"""``keras.applications.mobilenet_v2``: MobileNetV2 (Sandler et al. 2018) as Keras 3 builds it
(same layers, names and weight layout, so Keras's weight files load), ``preprocess_input``
(``mode="tf"``) and ``decode_predictions``.

>>> from tapegrad import keras
>>> model = keras.applications.MobileNetV2(weights=None, input_shape=(32, 32, 3), include_top=False)
>>> model.output.shape, len(model.layers)
((None, 1, 1, 1280), 154)
"""
from __future__ import annotations

import warnings
from typing import Any

from .. import layers
from ..backend import image_data_format
from ..models import Model
from . import imagenet_utils
from .imagenet_utils import _preprocess_tf as preprocess_input, decode_predictions

__all__ = ["MobileNetV2", "preprocess_input", "decode_predictions"]

_SIZES = (96, 128, 160, 192, 224)  # the input sizes Keras has pretrained weights for


def _make_divisible(v: float, divisor: int, min_value: int | None = None) -> int:
    min_value = divisor if min_value is None else min_value
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    return new_v + divisor if new_v < 0.9 * v else new_v


def _default_size(input_shape: Any, input_tensor: Any) -> int:
    if input_shape is None and input_tensor is None:
        return 224
    if input_shape is None:
        shape = input_tensor.shape[1:]
    else:
        shape = tuple(input_shape)
    rows, cols = (shape[1], shape[2]) if image_data_format() == "channels_first" else (shape[0], shape[1])
    return rows if rows == cols and rows in _SIZES else 224


def MobileNetV2(input_shape: Any = None, alpha: float = 1.0, include_top: bool = True,
                weights: Any = "imagenet", input_tensor: Any = None, pooling: str | None = None,
                classes: int = 1000, classifier_activation: Any = "softmax",
                name: str | None = None) -> Model:
    """MobileNetV2: a 3x3 stem, 17 inverted residual blocks, a 1x1 convolution to 1280 channels
    (more when ``alpha > 1``), then the top.

    Args:
      input_shape: ``(rows, cols, channels)``, each side at least 32; the default is 224x224
        (or the size of ``input_tensor`` when it is square and one of 96, 128, 160, 192, 224).
      alpha: the width multiplier: each layer's filters are scaled by it (rounded to a multiple
        of 8); Keras has pretrained weights for 0.35, 0.5, 0.75, 1.0, 1.3 and 1.4.
      include_top: end with global average pooling and a ``classes``-way Dense layer.
      weights: None (random initialization), ``"imagenet"`` (Keras's pretrained file, read from
        Keras's download cache: tapegrad downloads nothing) or the path of a weights file.
      input_tensor: a Keras tensor to build the network on.
      pooling: without the top, ``None`` (4-D output), ``"avg"`` or ``"max"``.
      classes: the top's classes.
      classifier_activation: the top's activation (None: logits).
      name: the model's name (default ``mobilenetv2_{alpha:0.2f}_{rows}``).

    Inputs are preprocessed with ``keras.applications.mobilenet_v2.preprocess_input`` (to [-1, 1]).

    >>> from tapegrad import keras
    >>> model = keras.applications.MobileNetV2(weights=None, input_shape=(96, 96, 3), classes=7)
    >>> model.name, model.output.shape, model.count_params()
    ('mobilenetv2_1.00_96', (None, 7), 2266951)
    """
    imagenet_utils.check_weights(weights, include_top, classes)
    if input_tensor is not None and not imagenet_utils.is_keras_tensor(input_tensor):
        raise ValueError(f"input_tensor is not a Keras tensor; Received `input_tensor={input_tensor}`")
    if input_shape is not None and input_tensor is not None:
        axis = 1 if image_data_format() == "channels_first" else 2
        if input_tensor.shape[axis] != input_shape[1]:
            raise ValueError(f"input_tensor.shape[{axis}] must equal input_shape[1]; Received "
                             f"`input_tensor.shape={input_tensor.shape}`, `input_shape={input_shape}`")
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=_default_size(input_shape, input_tensor), min_size=32,
        data_format=image_data_format(), require_flatten=include_top, weights=weights)
    row_axis = 1 if image_data_format() == "channels_first" else 0
    rows, cols = input_shape[row_axis], input_shape[row_axis + 1]
    if weights == "imagenet":
        if alpha not in (0.35, 0.50, 0.75, 1.0, 1.3, 1.4):
            raise ValueError("If imagenet weights are being loaded, alpha must be one of `0.35`, "
                             f"`0.50`, `0.75`, `1.0`, `1.3` or `1.4` only; Received `alpha={alpha}`")
        if rows != cols or rows not in _SIZES:
            rows = 224
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not in [96, 128, "
                          "160, 192, 224]. Weights for input shape (224, 224) will be loaded as the "
                          "default.", stacklevel=2)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    channel_axis = 1 if image_data_format() == "channels_first" else -1
    bn = dict(axis=channel_axis, epsilon=1e-3, momentum=0.999)
    x = layers.Conv2D(_make_divisible(32 * alpha, 8), kernel_size=3, strides=(2, 2), padding="same",
                      use_bias=False, name="Conv1")(img_input)
    x = layers.BatchNormalization(**bn, name="bn_Conv1")(x)
    x = layers.ReLU(6.0, name="Conv1_relu")(x)
    blocks = ((16, 1, 1), (24, 2, 6), (24, 1, 6), (32, 2, 6), (32, 1, 6), (32, 1, 6), (64, 2, 6),
              (64, 1, 6), (64, 1, 6), (64, 1, 6), (96, 1, 6), (96, 1, 6), (96, 1, 6), (160, 2, 6),
              (160, 1, 6), (160, 1, 6), (320, 1, 6))
    for block_id, (filters, stride, expansion) in enumerate(blocks):
        x = _inverted_res_block(x, expansion=expansion, stride=stride, alpha=alpha, filters=filters,
                                block_id=block_id)
    last = _make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
    x = layers.Conv2D(last, kernel_size=1, use_bias=False, name="Conv_1")(x)
    x = layers.BatchNormalization(**bn, name="Conv_1_bn")(x)
    x = layers.ReLU(6.0, name="out_relu")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D()(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D()(x)
    if name is None:
        name = f"mobilenetv2_{alpha:0.2f}_{rows}"
    model = Model(imagenet_utils.model_inputs(input_tensor, img_input), x, name=name)
    top = "" if include_top else "_no_top"
    imagenet_utils.load_weights(
        model, weights, f"mobilenet_v2_weights_tf_dim_ordering_tf_kernels_{float(alpha)}_{rows}{top}.h5")
    return model


def _inverted_res_block(inputs: Any, expansion: int, stride: int, alpha: float, filters: int,
                        block_id: int) -> Any:
    channel_axis = 1 if image_data_format() == "channels_first" else -1
    in_channels = inputs.shape[channel_axis]
    pointwise_filters = _make_divisible(int(filters * alpha), 8)
    bn = dict(axis=channel_axis, epsilon=1e-3, momentum=0.999)
    x = inputs
    prefix = f"block_{block_id}_"
    if block_id:
        x = layers.Conv2D(expansion * in_channels, kernel_size=1, padding="same", use_bias=False,
                          activation=None, name=f"{prefix}expand")(x)
        x = layers.BatchNormalization(**bn, name=f"{prefix}expand_BN")(x)
        x = layers.ReLU(6.0, name=f"{prefix}expand_relu")(x)
    else:
        prefix = "expanded_conv_"
    if stride == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3), name=f"{prefix}pad")(x)
    x = layers.DepthwiseConv2D(kernel_size=3, strides=stride, activation=None, use_bias=False,
                               padding="same" if stride == 1 else "valid", name=f"{prefix}depthwise")(x)
    x = layers.BatchNormalization(**bn, name=f"{prefix}depthwise_BN")(x)
    x = layers.ReLU(6.0, name=f"{prefix}depthwise_relu")(x)
    x = layers.Conv2D(pointwise_filters, kernel_size=1, padding="same", use_bias=False, activation=None,
                      name=f"{prefix}project")(x)
    x = layers.BatchNormalization(**bn, name=f"{prefix}project_BN")(x)
    if in_channels == pointwise_filters and stride == 1:
        return layers.Add(name=f"{prefix}add")([inputs, x])
    return x
