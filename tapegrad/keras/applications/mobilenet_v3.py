"""``keras.applications.mobilenet_v3``: MobileNetV3Small and MobileNetV3Large (Howard et al.
2019) as Keras 3 builds them (same layers, names and weight layout, so Keras's weight files
load), ``preprocess_input`` (which returns its input: the models rescale inside, from pixels in
[0, 255]) and ``decode_predictions``.

>>> from tapegrad import keras
>>> model = keras.applications.MobileNetV3Small(weights=None, input_shape=(32, 32, 3), classes=5)
>>> model.output.shape, model.count_params()  # (Keras 3.15's numbers)
((None, 5), 1535093)
"""
from __future__ import annotations

import warnings
from typing import Any, Callable

from .. import layers
from ..backend import image_data_format
from ..models import Model
from . import imagenet_utils
from .imagenet_utils import _preprocess_identity as preprocess_input, decode_predictions

__all__ = ["MobileNetV3Small", "MobileNetV3Large", "preprocess_input", "decode_predictions"]

WEIGHTS_HASHES = {
    "large_224_0.75_float": ("765b44a33ad4005b3ac83185abf1d0eb", "40af19a13ebea4e2ee0c676887f69a2e"),
    "large_224_1.0_float": ("59e551e166be033d707958cf9e29a6a7", "07fb09a5933dd0c8eaafa16978110389"),
    "large_minimalistic_224_1.0_float": ("675e7b876c45c57e9e63e6d90a36599c",
                                         "ec5221f64a2f6d1ef965a614bdae7973"),
    "small_224_0.75_float": ("cb65d4e5be93758266aa0a7f2c6708b7", "ebdb5cc8e0b497cd13a7c275d475c819"),
    "small_224_1.0_float": ("8768d4c2e7dee89b9d02b2d03d65d862", "d3e8ec802a04aa4fc771ee12a9a9b836"),
    "small_minimalistic_224_1.0_float": ("99cd97fb2fcdad2bf028eb838de69e37",
                                         "cde8136e733e811080d9fcd8a252f7e4"),
}


def MobileNetV3(stack_fn: Callable, last_point_ch: int, input_shape: Any = None, alpha: float = 1.0,
                model_type: str = "large", minimalistic: bool = False, include_top: bool = True,
                weights: Any = "imagenet", input_tensor: Any = None, classes: int = 1000,
                pooling: str | None = None, dropout_rate: float = 0.2,
                classifier_activation: Any = "softmax", include_preprocessing: bool = True,
                name: str | None = None) -> Model:
    """The MobileNetV3 builder behind :func:`MobileNetV3Small` and :func:`MobileNetV3Large`:
    ``stack_fn(x, kernel, activation, se_ratio)`` adds the inverted residual blocks, and
    ``last_point_ch`` is the width of the top's 1x1 convolution. Other arguments as there.

    >>> from tapegrad import keras
    >>> no_blocks = lambda x, kernel, activation, se_ratio: x
    >>> model = keras.applications.mobilenet_v3.MobileNetV3(no_blocks, 64, input_shape=(32, 32, 3),
    ...                                                     weights=None, classes=2)
    >>> [type(layer).__name__ for layer in model.layers[-4:]], model.count_params()
    (['Dropout', 'Conv2D', 'Flatten', 'Activation'], 8754)
    """
    imagenet_utils.check_weights(weights, include_top, classes)
    channels_first = image_data_format() == "channels_first"
    if input_tensor is not None and not imagenet_utils.is_keras_tensor(input_tensor):
        raise ValueError(f"input_tensor specified: {input_tensor!r} is not a keras tensor (keras.Input "
                         "or a layer's output on one); give the shape as input_shape instead.")
    if input_shape is not None and input_tensor is not None:
        axis = 1 if channels_first else 2
        if input_tensor.shape[axis] != input_shape[1]:
            raise ValueError(f"input_shape[1] must equal input_tensor.shape[{axis}].  Received "
                             f"input_shape={input_shape}, input_tensor.shape={input_tensor.shape}")
    if input_shape is None and input_tensor is not None:
        rows, cols = input_tensor.shape[2:4] if channels_first else input_tensor.shape[1:3]
        input_shape = (3, cols, rows) if channels_first else (cols, rows, 3)  # (as Keras: cols first)
    if input_shape is None:
        input_shape = (3, None, None) if channels_first else (None, None, 3)
    input_shape = tuple(input_shape)
    if len(input_shape) != 3:
        raise ValueError(f"`input_shape` must be a tuple of three integers; Received `input_shape={input_shape}`")
    rows, cols = input_shape[1:3] if channels_first else input_shape[0:2]
    if rows and cols and (rows < 32 or cols < 32):
        raise ValueError(f"Input size must be at least 32x32; Received `input_shape={input_shape}`")
    if weights == "imagenet":
        if (not minimalistic and alpha not in (0.75, 1.0)) or (minimalistic and alpha != 1.0):
            raise ValueError("If imagenet weights are being loaded, alpha can be one of `0.75`, `1.0` for "
                             "non minimalistic or `1.0` for minimalistic only.")
        if rows != cols or rows != 224:
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not 224. Weights for "
                          "input shape (224, 224) will be loaded as the default.", stacklevel=3)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    channel_axis = 1 if channels_first else -1
    bn = dict(axis=channel_axis, epsilon=1e-3, momentum=0.999)
    if minimalistic:
        kernel, activation, se_ratio = 3, _relu, None
    else:
        kernel, activation, se_ratio = 5, _hard_swish, 0.25
    x = img_input
    if include_preprocessing:
        x = layers.Rescaling(scale=1.0 / 127.5, offset=-1.0)(x)
    x = layers.Conv2D(16, kernel_size=3, strides=(2, 2), padding="same", use_bias=False, name="conv")(x)
    x = layers.BatchNormalization(**bn, name="conv_bn")(x)
    x = activation(x)
    x = stack_fn(x, kernel, activation, se_ratio)
    last_conv_ch = _depth(x.shape[channel_axis] * 6)
    if alpha > 1.0:
        last_point_ch = _depth(last_point_ch * alpha)
    x = layers.Conv2D(last_conv_ch, kernel_size=1, padding="same", use_bias=False, name="conv_1")(x)
    x = layers.BatchNormalization(**bn, name="conv_1_bn")(x)
    x = activation(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(keepdims=True)(x)
        x = layers.Conv2D(last_point_ch, kernel_size=1, padding="same", use_bias=True, name="conv_2")(x)
        x = activation(x)
        if dropout_rate > 0:
            x = layers.Dropout(dropout_rate)(x)
        x = layers.Conv2D(classes, kernel_size=1, padding="same", name="logits")(x)
        x = layers.Flatten()(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Activation(activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D(name="max_pool")(x)
    model = Model(imagenet_utils.model_inputs(input_tensor, img_input), x, name=name)
    if weights == "imagenet":
        model_name = f"{model_type}{'_minimalistic' if minimalistic else ''}_224_{alpha}_float"
        top = "" if include_top else "_no_top_v2"
        imagenet_utils.load_weights(model, weights, f"weights_mobilenet_v3_{model_name}{top}.h5",
                                    WEIGHTS_HASHES[model_name][0 if include_top else 1])
    elif weights is not None:
        model.load_weights(weights)
    return model


def MobileNetV3Small(input_shape: Any = None, alpha: float = 1.0, minimalistic: bool = False,
                     include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
                     classes: int = 1000, pooling: str | None = None, dropout_rate: float = 0.2,
                     classifier_activation: Any = "softmax", include_preprocessing: bool = True,
                     name: str = "MobileNetV3Small") -> Model:
    """MobileNetV3Small: a 3x3 stem, 11 inverted residual blocks (squeeze-and-excite and
    hard-swish unless ``minimalistic``), a 1x1 convolution, then the top (global pooling, a 1x1
    convolution to 1024 channels, dropout, a 1x1 convolution to ``classes``).

    Args:
      input_shape: ``(rows, cols, channels)``, each side at least 32; the default is
        ``(None, None, 3)`` (any size), or the size of ``input_tensor``.
      alpha: the width multiplier: each block's filters are scaled by it (rounded to a multiple
        of 8); Keras has pretrained weights for 0.75 and 1.0 (1.0 only when ``minimalistic``).
      minimalistic: no squeeze-and-excite, ReLU instead of hard-swish, 3x3 kernels only.
      include_top: end with the classifier; otherwise ``pooling`` says what ends the network.
      weights: None (random initialization), ``"imagenet"`` (Keras's pretrained file, read from
        Keras's download cache: tapegrad downloads nothing) or the path of a weights file.
      input_tensor: a Keras tensor to build the network on.
      classes: the top's classes.
      pooling: without the top, ``None`` (4-D output), ``"avg"`` or ``"max"``.
      dropout_rate: the dropout before the top's last convolution.
      classifier_activation: the top's activation (None: logits).
      include_preprocessing: start with ``Rescaling(1 / 127.5, offset=-1)``, so the model takes
        pixels in [0, 255]; without it, it takes values in [-1, 1].
      name: the model's name.

    >>> from tapegrad import keras
    >>> model = keras.applications.MobileNetV3Small(weights=None, minimalistic=True, alpha=0.75,
    ...                                             include_top=False, pooling="avg")
    >>> model.output.shape, model.count_params()  # (Keras 3.15's numbers)
    ((None, 432), 273800)
    """
    def stack_fn(x: Any, kernel: int, activation: Callable, se_ratio: Any) -> Any:
        def depth(d: float) -> int:
            return _depth(d * alpha)

        x = _inverted_res_block(x, 1, depth(16), 3, 2, se_ratio, _relu, 0)
        x = _inverted_res_block(x, 72.0 / 16, depth(24), 3, 2, None, _relu, 1)
        x = _inverted_res_block(x, 88.0 / 24, depth(24), 3, 1, None, _relu, 2)
        x = _inverted_res_block(x, 4, depth(40), kernel, 2, se_ratio, activation, 3)
        x = _inverted_res_block(x, 6, depth(40), kernel, 1, se_ratio, activation, 4)
        x = _inverted_res_block(x, 6, depth(40), kernel, 1, se_ratio, activation, 5)
        x = _inverted_res_block(x, 3, depth(48), kernel, 1, se_ratio, activation, 6)
        x = _inverted_res_block(x, 3, depth(48), kernel, 1, se_ratio, activation, 7)
        x = _inverted_res_block(x, 6, depth(96), kernel, 2, se_ratio, activation, 8)
        x = _inverted_res_block(x, 6, depth(96), kernel, 1, se_ratio, activation, 9)
        return _inverted_res_block(x, 6, depth(96), kernel, 1, se_ratio, activation, 10)

    return MobileNetV3(stack_fn, 1024, input_shape, alpha, "small", minimalistic, include_top, weights,
                       input_tensor, classes, pooling, dropout_rate, classifier_activation,
                       include_preprocessing, name=name)


def MobileNetV3Large(input_shape: Any = None, alpha: float = 1.0, minimalistic: bool = False,
                     include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
                     classes: int = 1000, pooling: str | None = None, dropout_rate: float = 0.2,
                     classifier_activation: Any = "softmax", include_preprocessing: bool = True,
                     name: str = "MobileNetV3Large") -> Model:
    """MobileNetV3Large: as :func:`MobileNetV3Small` with 15 blocks and a top 1x1 convolution
    to 1280 channels (more when ``alpha > 1``); the arguments are the same.

    >>> from tapegrad import keras
    >>> model = keras.applications.MobileNetV3Large(weights=None, input_shape=(32, 32, 3),
    ...                                             alpha=1.25, classes=7, classifier_activation=None)
    >>> model.output.shape, model.count_params()  # (Keras 3.15's numbers)
    ((None, 7), 6696967)
    """
    def stack_fn(x: Any, kernel: int, activation: Callable, se_ratio: Any) -> Any:
        def depth(d: float) -> int:
            return _depth(d * alpha)

        x = _inverted_res_block(x, 1, depth(16), 3, 1, None, _relu, 0)
        x = _inverted_res_block(x, 4, depth(24), 3, 2, None, _relu, 1)
        x = _inverted_res_block(x, 3, depth(24), 3, 1, None, _relu, 2)
        x = _inverted_res_block(x, 3, depth(40), kernel, 2, se_ratio, _relu, 3)
        x = _inverted_res_block(x, 3, depth(40), kernel, 1, se_ratio, _relu, 4)
        x = _inverted_res_block(x, 3, depth(40), kernel, 1, se_ratio, _relu, 5)
        x = _inverted_res_block(x, 6, depth(80), 3, 2, None, activation, 6)
        x = _inverted_res_block(x, 2.5, depth(80), 3, 1, None, activation, 7)
        x = _inverted_res_block(x, 2.3, depth(80), 3, 1, None, activation, 8)
        x = _inverted_res_block(x, 2.3, depth(80), 3, 1, None, activation, 9)
        x = _inverted_res_block(x, 6, depth(112), 3, 1, se_ratio, activation, 10)
        x = _inverted_res_block(x, 6, depth(112), 3, 1, se_ratio, activation, 11)
        x = _inverted_res_block(x, 6, depth(160), kernel, 2, se_ratio, activation, 12)
        x = _inverted_res_block(x, 6, depth(160), kernel, 1, se_ratio, activation, 13)
        return _inverted_res_block(x, 6, depth(160), kernel, 1, se_ratio, activation, 14)

    return MobileNetV3(stack_fn, 1280, input_shape, alpha, "large", minimalistic, include_top, weights,
                       input_tensor, classes, pooling, dropout_rate, classifier_activation,
                       include_preprocessing, name=name)


def _relu(x: Any) -> Any:
    return layers.ReLU()(x)


def _hard_sigmoid(x: Any) -> Any:
    return layers.ReLU(6.0)(x + 3.0) * (1.0 / 6.0)


def _hard_swish(x: Any) -> Any:
    return layers.Activation("hard_swish")(x)


def _depth(v: float, divisor: int = 8, min_value: int | None = None) -> int:
    # (the channel rounding of TensorFlow's slim MobileNet: a multiple of 8, at most 10% down)
    min_value = divisor if min_value is None else min_value
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    return new_v + divisor if new_v < 0.9 * v else new_v


def _se_block(inputs: Any, filters: int, se_ratio: float, prefix: str) -> Any:
    x = layers.GlobalAveragePooling2D(keepdims=True, name=f"{prefix}squeeze_excite_avg_pool")(inputs)
    x = layers.Conv2D(_depth(filters * se_ratio), kernel_size=1, padding="same",
                      name=f"{prefix}squeeze_excite_conv")(x)
    x = layers.ReLU(name=f"{prefix}squeeze_excite_relu")(x)
    x = layers.Conv2D(filters, kernel_size=1, padding="same", name=f"{prefix}squeeze_excite_conv_1")(x)
    x = _hard_sigmoid(x)
    return layers.Multiply(name=f"{prefix}squeeze_excite_mul")([inputs, x])


def _inverted_res_block(x: Any, expansion: float, filters: int, kernel_size: int, stride: int,
                        se_ratio: Any, activation: Callable, block_id: int) -> Any:
    channel_axis = 1 if image_data_format() == "channels_first" else -1
    bn = dict(axis=channel_axis, epsilon=1e-3, momentum=0.999)
    shortcut = x
    prefix = "expanded_conv_"
    infilters = x.shape[channel_axis]
    if block_id:
        prefix = f"expanded_conv_{block_id}_"
        x = layers.Conv2D(_depth(infilters * expansion), kernel_size=1, padding="same", use_bias=False,
                          name=f"{prefix}expand")(x)
        x = layers.BatchNormalization(**bn, name=f"{prefix}expand_bn")(x)
        x = activation(x)
    if stride == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size),
                                 name=f"{prefix}depthwise_pad")(x)
    x = layers.DepthwiseConv2D(kernel_size, strides=stride, padding="same" if stride == 1 else "valid",
                               use_bias=False, name=f"{prefix}depthwise")(x)
    x = layers.BatchNormalization(**bn, name=f"{prefix}depthwise_bn")(x)
    x = activation(x)
    if se_ratio:
        x = _se_block(x, _depth(infilters * expansion), se_ratio, prefix)
    x = layers.Conv2D(filters, kernel_size=1, padding="same", use_bias=False, name=f"{prefix}project")(x)
    x = layers.BatchNormalization(**bn, name=f"{prefix}project_bn")(x)
    if stride == 1 and infilters == filters:
        x = layers.Add(name=f"{prefix}add")([shortcut, x])
    return x
