"""``keras.applications.mobilenet``: MobileNet (v1, Howard et al. 2017) as Keras 3 builds it (same
layers, names and weight layout, so Keras's weight files load), ``preprocess_input``
(``mode="tf"``) and ``decode_predictions``.

>>> from tapegrad import keras
>>> model = keras.applications.MobileNet(weights=None, alpha=0.25, input_shape=(32, 32, 3),
...                                      include_top=False, pooling="avg")
>>> model.name, model.output.shape, len(model.layers)
('mobilenet_0.25_32', (None, 256), 87)
"""
from __future__ import annotations

import warnings
from typing import Any

from .. import layers
from ..backend import image_data_format
from ..models import Model
from . import imagenet_utils
from .imagenet_utils import _preprocess_tf as preprocess_input, decode_predictions

__all__ = ["MobileNet", "preprocess_input", "decode_predictions"]

_SIZES = (128, 160, 192, 224)  # the input sizes Keras has pretrained weights for
_ALPHA_TEXT = {1.0: "1_0", 0.75: "7_5", 0.5: "5_0", 0.25: "2_5"}
# (filters, strides) of the 13 depthwise separable blocks
_BLOCKS = ((64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1), (512, 1),
           (512, 1), (512, 1), (1024, 2), (1024, 1))


def MobileNet(input_shape: Any = None, alpha: float = 1.0, depth_multiplier: int = 1,
              dropout: float = 1e-3, include_top: bool = True, weights: Any = "imagenet",
              input_tensor: Any = None, pooling: str | None = None, classes: int = 1000,
              classifier_activation: Any = "softmax", name: str | None = None) -> Model:
    """MobileNet: a strided 3x3 convolution, then 13 depthwise separable blocks (a 3x3 depthwise
    convolution and a 1x1 pointwise one, each with batch norm and relu6), then the top.

    Args:
      input_shape: ``(rows, cols, channels)``, each side at least 32; the default is 224x224
        (or the given size when it is square and one of 128, 160, 192, 224).
      alpha: the width multiplier: each layer's filters are scaled by it; Keras has pretrained
        weights for 0.25, 0.5, 0.75 and 1.0.
      depth_multiplier: the depthwise convolutions' channel multiplier (the resolution
        multiplier of the paper); 1 with pretrained weights.
      dropout: the dropout rate before the top's classifier.
      include_top: end with global average pooling, dropout, a 1x1 convolution to ``classes``
        channels, a reshape and the activation.
      weights: None (random initialization), ``"imagenet"`` (Keras's pretrained file, read from
        Keras's download cache: tapegrad downloads nothing) or the path of a weights file.
      input_tensor: a Keras tensor to build the network on.
      pooling: without the top, ``None`` (4-D output), ``"avg"`` or ``"max"``.
      classes: the top's classes.
      classifier_activation: the top's activation (None: logits).
      name: the model's name (default ``mobilenet_{alpha:0.2f}_{rows}``).

    Inputs are preprocessed with ``keras.applications.mobilenet.preprocess_input`` (to [-1, 1]).

    >>> from tapegrad import keras
    >>> model = keras.applications.MobileNet(weights=None, input_shape=(128, 128, 3), classes=5)
    >>> model.name, model.output.shape, model.count_params()
    ('mobilenet_1.00_128', (None, 5), 3233989)
    """
    imagenet_utils.check_weights(weights, include_top, classes)
    default_size = 224
    if input_shape is not None:
        axis = 1 if image_data_format() == "channels_first" else 0
        rows, cols = input_shape[axis], input_shape[axis + 1]
        if rows == cols and rows in _SIZES:
            default_size = rows
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=default_size, min_size=32,
                                                    data_format=image_data_format(),
                                                    require_flatten=include_top, weights=weights)
    row_axis = 1 if image_data_format() == "channels_first" else 0
    rows, cols = input_shape[row_axis], input_shape[row_axis + 1]
    if weights == "imagenet":
        if depth_multiplier != 1:
            raise ValueError("If imagenet weights are being loaded, depth multiplier must be 1.  "
                             f"Received depth_multiplier={depth_multiplier}")
        if alpha not in _ALPHA_TEXT:
            raise ValueError("If imagenet weights are being loaded, alpha can be one of`0.25`, `0.50`, "
                             f"`0.75` or `1.0` only.  Received alpha={alpha}")
        if rows != cols or rows not in _SIZES:
            rows = 224
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not in [128, 160, "
                          "192, 224]. Weights for input shape (224, 224) will be loaded as the "
                          "default.", stacklevel=2)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    channel_axis = 1 if image_data_format() == "channels_first" else -1
    x = layers.Conv2D(int(32 * alpha), (3, 3), padding="same", use_bias=False, strides=(2, 2),
                      name="conv1")(img_input)
    x = layers.BatchNormalization(axis=channel_axis, name="conv1_bn")(x)
    x = layers.ReLU(6.0, name="conv1_relu")(x)
    for block_id, (filters, stride) in enumerate(_BLOCKS, start=1):
        x = _depthwise_conv_block(x, filters, alpha, depth_multiplier, stride, block_id)
    if include_top:
        x = layers.GlobalAveragePooling2D(keepdims=True)(x)
        x = layers.Dropout(dropout, name="dropout")(x)
        x = layers.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
        x = layers.Reshape((classes,), name="reshape_2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Activation(activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D()(x)
    if name is None:
        name = f"mobilenet_{alpha:0.2f}_{rows}"
    model = Model(imagenet_utils.model_inputs(input_tensor, img_input), x, name=name)
    top = "" if include_top else "_no_top"
    imagenet_utils.load_weights(model, weights, f"mobilenet_{_ALPHA_TEXT.get(alpha)}_{rows}_tf{top}.h5")
    return model


def _depthwise_conv_block(inputs: Any, filters: int, alpha: float, depth_multiplier: int,
                          stride: int, block_id: int) -> Any:
    channel_axis = 1 if image_data_format() == "channels_first" else -1
    x = inputs
    if stride != 1:
        x = layers.ZeroPadding2D(((0, 1), (0, 1)), name=f"conv_pad_{block_id}")(x)
    x = layers.DepthwiseConv2D((3, 3), padding="same" if stride == 1 else "valid",
                               depth_multiplier=depth_multiplier, strides=(stride, stride),
                               use_bias=False, name=f"conv_dw_{block_id}")(x)
    x = layers.BatchNormalization(axis=channel_axis, name=f"conv_dw_{block_id}_bn")(x)
    x = layers.ReLU(6.0, name=f"conv_dw_{block_id}_relu")(x)
    x = layers.Conv2D(int(filters * alpha), (1, 1), padding="same", use_bias=False, strides=(1, 1),
                      name=f"conv_pw_{block_id}")(x)
    x = layers.BatchNormalization(axis=channel_axis, name=f"conv_pw_{block_id}_bn")(x)
    return layers.ReLU(6.0, name=f"conv_pw_{block_id}_relu")(x)
