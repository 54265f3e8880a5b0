"""``keras.applications.efficientnet``: EfficientNetB0 to B7 (Tan and Le 2019) as Keras 3 builds
them (same layers, names and weight layout), the ``EfficientNet`` builder, ``preprocess_input``
(which returns its input: the models rescale and normalise inside, from pixels in [0, 255]) and
``decode_predictions``.

>>> from tapegrad import keras
>>> keras.applications.efficientnet.preprocess_input([1.0, 2.0])
[1.0, 2.0]
"""
from __future__ import annotations

import copy
import math
from typing import Any

from .. import layers
from ..backend import image_data_format
from ..models import Model
from . import imagenet_utils
from .imagenet_utils import _preprocess_identity as preprocess_input, decode_predictions

__all__ = ["EfficientNet", "EfficientNetB0", "EfficientNetB1", "EfficientNetB2", "EfficientNetB3",
           "EfficientNetB4", "EfficientNetB5", "EfficientNetB6", "EfficientNetB7", "preprocess_input",
           "decode_predictions"]

DEFAULT_BLOCKS_ARGS = [
    {"kernel_size": 3, "repeats": 1, "filters_in": 32, "filters_out": 16, "expand_ratio": 1, "id_skip": True,
     "strides": 1, "se_ratio": 0.25},
    {"kernel_size": 3, "repeats": 2, "filters_in": 16, "filters_out": 24, "expand_ratio": 6, "id_skip": True,
     "strides": 2, "se_ratio": 0.25},
    {"kernel_size": 5, "repeats": 2, "filters_in": 24, "filters_out": 40, "expand_ratio": 6, "id_skip": True,
     "strides": 2, "se_ratio": 0.25},
    {"kernel_size": 3, "repeats": 3, "filters_in": 40, "filters_out": 80, "expand_ratio": 6, "id_skip": True,
     "strides": 2, "se_ratio": 0.25},
    {"kernel_size": 5, "repeats": 3, "filters_in": 80, "filters_out": 112, "expand_ratio": 6, "id_skip": True,
     "strides": 1, "se_ratio": 0.25},
    {"kernel_size": 5, "repeats": 4, "filters_in": 112, "filters_out": 192, "expand_ratio": 6, "id_skip": True,
     "strides": 2, "se_ratio": 0.25},
    {"kernel_size": 3, "repeats": 1, "filters_in": 192, "filters_out": 320, "expand_ratio": 6, "id_skip": True,
     "strides": 1, "se_ratio": 0.25},
]
CONV_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                           "config": {"scale": 2.0, "mode": "fan_out", "distribution": "truncated_normal"}}
DENSE_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                            "config": {"scale": 1.0 / 3.0, "mode": "fan_out", "distribution": "uniform"}}
IMAGENET_STDDEV_RGB = [0.229, 0.224, 0.225]
_HASHES = {"b0": ("902e53a9f72be733fc0bcb005b3ebbac", "50bc09e76180e00e4465e1a485ddc09d"),
           "b1": ("1d254153d4ab51201f1646940f018540", "74c4e6b3e1f6a1eea24c589628592432"),
           "b2": ("b15cce36ff4dcbd00b6dd88e7857a6ad", "111f8e2ac8aa800a7a99e3239f7bfb39"),
           "b3": ("ffd1fdc53d0ce67064dc6a9c7960ede0", "af6d107764bb5b1abb91932881670226"),
           "b4": ("18c95ad55216b8f92d7e70b3a046e2fc", "ebc24e6d6c33eaebbd558eafbeedf1ba"),
           "b5": ("ace28f2a6363774853a83a0b21b9421a", "38879255a25d3c92d5e44e04ae6cec6f"),
           "b6": ("165f6e37dce68623721b423839de8be5", "9ecce42647a20130c1f39a5d4cb75743"),
           "b7": ("8c03f828fec3ef71311cd463b6759d99", "cbcfe4450ddf6f3ad90b1b398090fe4a")}


def EfficientNet(width_coefficient: float, depth_coefficient: float, default_size: int,
                 dropout_rate: float = 0.2, drop_connect_rate: float = 0.2, depth_divisor: int = 8,
                 activation: Any = "swish", blocks_args: Any = "default", name: str = "efficientnet",
                 include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
                 input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
                 classifier_activation: Any = "softmax", weights_name: str | None = None) -> Model:
    """An EfficientNet: a stem, mobile inverted bottleneck blocks with squeeze-and-excitation
    (``blocks_args``, their filters scaled by ``width_coefficient`` and repeats by
    ``depth_coefficient``), a 1x1 convolution, then the top (dropout ``dropout_rate``). The model
    rescales its [0, 255] inputs itself (``Rescaling`` and ``Normalization`` layers). Other
    arguments as in ``keras.applications.resnet.ResNet``; ``default_size`` is the input side
    when ``input_shape`` is not given.

    >>> from tapegrad import keras
    >>> blocks = [dict(kernel_size=3, repeats=1, filters_in=32, filters_out=16, expand_ratio=1,
    ...                id_skip=True, strides=1, se_ratio=0.25)]
    >>> model = keras.applications.efficientnet.EfficientNet(0.5, 1.0, 32, blocks_args=blocks,
    ...                                                      weights=None, classes=3)
    >>> model.output.shape, len(model.layers), model.count_params()  # (Keras 3.15's numbers)
    ((None, 3), 23, 10622)
    """
    if blocks_args == "default":
        blocks_args = DEFAULT_BLOCKS_ARGS
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=default_size, min_size=32,
                                                    data_format=image_data_format(),
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    bn_axis = 3 if image_data_format() == "channels_last" else 1

    def round_filters(filters: float, divisor: int = depth_divisor) -> int:
        filters *= width_coefficient
        new = max(divisor, int(filters + divisor / 2) // divisor * divisor)
        return int(new + divisor if new < 0.9 * filters else new)

    def round_repeats(repeats: int) -> int:
        return int(math.ceil(depth_coefficient * repeats))

    x = layers.Rescaling(1.0 / 255.0)(img_input)
    x = layers.Normalization(axis=bn_axis)(x)
    if weights == "imagenet":
        x = layers.Rescaling([1.0 / math.sqrt(s) for s in IMAGENET_STDDEV_RGB])(x)
    x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3), name="stem_conv_pad")(x)
    x = layers.Conv2D(round_filters(32), 3, strides=2, padding="valid", use_bias=False,
                      kernel_initializer=CONV_KERNEL_INITIALIZER, name="stem_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, name="stem_bn")(x)
    x = layers.Activation(activation, name="stem_activation")(x)
    blocks_args = copy.deepcopy(blocks_args)
    b = 0
    blocks = float(sum(round_repeats(args["repeats"]) for args in blocks_args))
    for i, args in enumerate(blocks_args):
        if args["repeats"] <= 0:
            raise ValueError(f"The number of repeats in `EfficientNet` must be > 0. Received: "
                             f"repeats={args['repeats']}")
        args["filters_in"] = round_filters(args["filters_in"])
        args["filters_out"] = round_filters(args["filters_out"])
        for j in range(round_repeats(args.pop("repeats"))):
            if j > 0:
                args["strides"] = 1
                args["filters_in"] = args["filters_out"]
            x = block(x, activation, drop_connect_rate * b / blocks, name=f"block{i + 1}{chr(j + 97)}_", **args)
            b += 1
    x = layers.Conv2D(round_filters(1280), 1, padding="same", use_bias=False,
                      kernel_initializer=CONV_KERNEL_INITIALIZER, name="top_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, name="top_bn")(x)
    x = layers.Activation(activation, name="top_activation")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout_rate > 0:
            x = layers.Dropout(dropout_rate, name="top_dropout")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, kernel_initializer=DENSE_KERNEL_INITIALIZER,
                         name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D(name="max_pool")(x)
    model = Model(imagenet_utils.model_inputs(input_tensor, img_input), x, name=name)
    hashes = _HASHES.get(weights_name, (None, None))
    imagenet_utils.load_weights(model, weights, name + (".h5" if include_top else "_notop.h5"),
                                hashes[0 if include_top else 1])
    return model


def block(inputs: Any, activation: Any = "swish", drop_rate: float = 0.0, name: str = "",
          filters_in: int = 32, filters_out: int = 16, kernel_size: int = 3, strides: int = 1,
          expand_ratio: int = 1, se_ratio: float = 0.0, id_skip: bool = True) -> Any:
    """A mobile inverted bottleneck block: 1x1 expansion, depthwise convolution,
    squeeze-and-excitation, 1x1 projection, and (same shape, stride 1) dropout and the skip."""
    bn_axis = 3 if image_data_format() == "channels_last" else 1
    filters = filters_in * expand_ratio
    if expand_ratio != 1:
        x = layers.Conv2D(filters, 1, padding="same", use_bias=False, kernel_initializer=CONV_KERNEL_INITIALIZER,
                          name=f"{name}expand_conv")(inputs)
        x = layers.BatchNormalization(axis=bn_axis, name=f"{name}expand_bn")(x)
        x = layers.Activation(activation, name=f"{name}expand_activation")(x)
    else:
        x = inputs
    if strides == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size), name=f"{name}dwconv_pad")(x)
        conv_pad = "valid"
    else:
        conv_pad = "same"
    x = layers.DepthwiseConv2D(kernel_size, strides=strides, padding=conv_pad, use_bias=False,
                               depthwise_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}dwconv")(x)
    x = layers.BatchNormalization(axis=bn_axis, name=f"{name}bn")(x)
    x = layers.Activation(activation, name=f"{name}activation")(x)
    if 0 < se_ratio <= 1:
        filters_se = max(1, int(filters_in * se_ratio))
        se = layers.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
        se = layers.Reshape((filters, 1, 1) if bn_axis == 1 else (1, 1, filters), name=f"{name}se_reshape")(se)
        se = layers.Conv2D(filters_se, 1, padding="same", activation=activation,
                           kernel_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}se_reduce")(se)
        se = layers.Conv2D(filters, 1, padding="same", activation="sigmoid",
                           kernel_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}se_expand")(se)
        x = layers.multiply([x, se], name=f"{name}se_excite")
    x = layers.Conv2D(filters_out, 1, padding="same", use_bias=False, kernel_initializer=CONV_KERNEL_INITIALIZER,
                      name=f"{name}project_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, name=f"{name}project_bn")(x)
    if id_skip and strides == 1 and filters_in == filters_out:
        if drop_rate > 0:
            x = layers.Dropout(drop_rate, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = layers.add([x, inputs], name=f"{name}add")
    return x


def _variant(key: str, width: float, depth: float, size: int, dropout: float) -> Any:
    def build(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
              input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
              classifier_activation: Any = "softmax", name: str = f"efficientnet{key}") -> Model:
        return EfficientNet(width, depth, size, dropout, name=name, include_top=include_top, weights=weights,
                            input_tensor=input_tensor, input_shape=input_shape, pooling=pooling,
                            classes=classes, classifier_activation=classifier_activation, weights_name=key)
    build.__name__ = build.__qualname__ = f"EfficientNet{key.upper()}"
    build.__doc__ = (f"EfficientNet{key.upper()}: width {width}, depth {depth}, {size}x{size} inputs by "
                     f"default, dropout {dropout}; arguments as in :func:`EfficientNet`.\n\n"
                     "    Example (it builds the whole network, so it is not run as a doctest)::\n\n"
                     f"        model = keras.applications.EfficientNet{key.upper()}(weights=None, "
                     "include_top=False, pooling='avg')\n")
    return build


EfficientNetB0 = _variant("b0", 1.0, 1.0, 224, 0.2)
EfficientNetB1 = _variant("b1", 1.0, 1.1, 240, 0.2)
EfficientNetB2 = _variant("b2", 1.1, 1.2, 260, 0.3)
EfficientNetB3 = _variant("b3", 1.2, 1.4, 300, 0.3)
EfficientNetB4 = _variant("b4", 1.4, 1.8, 380, 0.4)
EfficientNetB5 = _variant("b5", 1.6, 2.2, 456, 0.4)
EfficientNetB6 = _variant("b6", 1.8, 2.6, 528, 0.5)
EfficientNetB7 = _variant("b7", 2.0, 3.1, 600, 0.5)
