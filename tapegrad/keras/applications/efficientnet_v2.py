"""``keras.applications.efficientnet_v2``: EfficientNetV2B0 to B3, S, M and L (Tan and Le 2021) as
Keras 3 builds them (same layers, names and weight layout, so Keras's weight files load), the
``EfficientNetV2`` builder, ``preprocess_input`` (which returns its input: the models rescale
inside, from pixels in [0, 255]) and ``decode_predictions``.

>>> from tapegrad import keras
>>> model = keras.applications.EfficientNetV2B0(weights=None, input_shape=(32, 32, 3), classes=5)
>>> model.output.shape, model.count_params()  # (Keras 3.15's numbers)
((None, 5), 5925717)
"""
from __future__ import annotations

import copy
import math
from typing import Any, Callable

from .. import initializers, layers
from ..backend import image_data_format
from ..models import Model
from . import imagenet_utils
from .imagenet_utils import _preprocess_identity as preprocess_input, decode_predictions

__all__ = ["EfficientNetV2", "EfficientNetV2B0", "EfficientNetV2B1", "EfficientNetV2B2", "EfficientNetV2B3",
           "EfficientNetV2S", "EfficientNetV2M", "EfficientNetV2L", "preprocess_input", "decode_predictions"]

WEIGHTS_HASHES = {
    "b0": ("21ecbf6da12460d5c40bb2f29ceb2188", "893217f2bb855e2983157299931e43ff"),
    "b1": ("069f0534ff22adf035c89e2d9547a9dc", "0e80663031ca32d657f9caa404b6ec37"),
    "b2": ("424e49f28180edbde1e94797771950a7", "1dfe2e7a5d45b6632553a8961ea609eb"),
    "b3": ("1f1fc43bd98a6e4fd8fdfd551e02c7a0", "f6abf7b5849ac99a89b50dd3fd532856"),
    "-s": ("e1d88a8495beba45748fedd0cecbe016", "af0682fb74e8c54910f2d4393339c070"),
    "-m": ("a3bf6aa3276309f4fc6a34aa114c95cd", "1b8dc055df72dde80d614482840fe342"),
    "-l": ("27e6d408b53c7ebc868fefa357689935", "b0b66b5c863aef5b46e8608fe1711615"),
}


def _stages(*rows: tuple) -> list:
    # (conv_type, expand_ratio, input_filters, output_filters, num_repeat, se_ratio, strides);
    # conv_type 1 is a fused block; every kernel is 3x3
    return [{"kernel_size": 3, "num_repeat": n, "input_filters": fi, "output_filters": fo, "expand_ratio": e,
             "se_ratio": se, "strides": s, "conv_type": t} for t, e, fi, fo, n, se, s in rows]


_B = _stages((1, 1, 32, 16, 1, 0, 1), (1, 4, 16, 32, 2, 0, 2), (1, 4, 32, 48, 2, 0, 2),
             (0, 4, 48, 96, 3, 0.25, 2), (0, 6, 96, 112, 5, 0.25, 1), (0, 6, 112, 192, 8, 0.25, 2))
DEFAULT_BLOCKS_ARGS = {
    "efficientnetv2-s": _stages((1, 1, 24, 24, 2, 0.0, 1), (1, 4, 24, 48, 4, 0.0, 2), (1, 4, 48, 64, 4, 0, 2),
                                (0, 4, 64, 128, 6, 0.25, 2), (0, 6, 128, 160, 9, 0.25, 1),
                                (0, 6, 160, 256, 15, 0.25, 2)),
    "efficientnetv2-m": _stages((1, 1, 24, 24, 3, 0, 1), (1, 4, 24, 48, 5, 0, 2), (1, 4, 48, 80, 5, 0, 2),
                                (0, 4, 80, 160, 7, 0.25, 2), (0, 6, 160, 176, 14, 0.25, 1),
                                (0, 6, 176, 304, 18, 0.25, 2), (0, 6, 304, 512, 5, 0.25, 1)),
    "efficientnetv2-l": _stages((1, 1, 32, 32, 4, 0, 1), (1, 4, 32, 64, 7, 0, 2), (1, 4, 64, 96, 7, 0, 2),
                                (0, 4, 96, 192, 10, 0.25, 2), (0, 6, 192, 224, 19, 0.25, 1),
                                (0, 6, 224, 384, 25, 0.25, 2), (0, 6, 384, 640, 7, 0.25, 1)),
    **{f"efficientnetv2-b{i}": copy.deepcopy(_B) for i in range(4)},
}
CONV_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                           "config": {"scale": 2.0, "mode": "fan_out", "distribution": "truncated_normal"}}
DENSE_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                            "config": {"scale": 1.0 / 3.0, "mode": "fan_out", "distribution": "uniform"}}


def round_filters(filters: float, width_coefficient: float, min_depth: int | None, depth_divisor: int) -> int:
    """``filters`` times ``width_coefficient``, rounded to a multiple of ``depth_divisor`` (at
    least ``min_depth``).

    >>> from tapegrad import keras
    >>> from tapegrad.keras.applications.efficientnet_v2 import round_filters
    >>> round_filters(32, 1.1, 8, 8), round_filters(112, 1.2, 8, 8)
    (32, 136)
    """
    filters *= width_coefficient
    minimum_depth = min_depth or depth_divisor
    return int(max(minimum_depth, int(filters + depth_divisor / 2) // depth_divisor * depth_divisor))


def round_repeats(repeats: int, depth_coefficient: float) -> int:
    """``repeats`` times ``depth_coefficient``, rounded up.

    >>> from tapegrad.keras.applications.efficientnet_v2 import round_repeats
    >>> round_repeats(3, 1.4)
    5
    """
    return int(math.ceil(depth_coefficient * repeats))


def _se(x: Any, input_filters: int, filters: int, se_ratio: float, activation: Any, bn_axis: int,
        name: str) -> Any:
    filters_se = max(1, int(input_filters * se_ratio))
    se = layers.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
    se = layers.Reshape((filters, 1, 1) if bn_axis == 1 else (1, 1, filters), name=f"{name}se_reshape")(se)
    se = layers.Conv2D(filters_se, 1, padding="same", activation=activation,
                       kernel_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}se_reduce")(se)
    se = layers.Conv2D(filters, 1, padding="same", activation="sigmoid", kernel_initializer=CONV_KERNEL_INITIALIZER,
                       name=f"{name}se_expand")(se)
    return layers.multiply([x, se], name=f"{name}se_excite")


def _skip(x: Any, inputs: Any, survival_probability: float, name: str) -> Any:
    if survival_probability:
        # (Keras passes the survival probability as the dropout rate: kept here as Keras has it)
        x = layers.Dropout(survival_probability, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
    return layers.add([x, inputs], name=f"{name}add")


def MBConvBlock(input_filters: int, output_filters: int, expand_ratio: int = 1, kernel_size: int = 3,
                strides: int = 1, se_ratio: float = 0.0, bn_momentum: float = 0.9, activation: Any = "swish",
                survival_probability: float = 0.8, name: str = "block0") -> Callable:
    """A mobile inverted bottleneck block, as a function of its input: 1x1 expansion, depthwise
    convolution, squeeze-and-excitation, 1x1 projection, and (same shape, stride 1) dropout of
    whole samples and the skip."""
    bn_axis = 3 if image_data_format() == "channels_last" else 1

    def apply(inputs: Any) -> Any:
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = layers.Conv2D(filters=filters, kernel_size=1, strides=1, kernel_initializer=CONV_KERNEL_INITIALIZER,
                              padding="same", data_format=image_data_format(), use_bias=False,
                              name=f"{name}expand_conv")(x)
            x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name=f"{name}expand_bn")(x)
            x = layers.Activation(activation, name=f"{name}expand_activation")(x)
        x = layers.DepthwiseConv2D(kernel_size=kernel_size, strides=strides,
                                   depthwise_initializer=CONV_KERNEL_INITIALIZER, padding="same",
                                   data_format=image_data_format(), use_bias=False, name=f"{name}dwconv2")(x)
        x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name=f"{name}bn")(x)
        x = layers.Activation(activation, name=f"{name}activation")(x)
        if 0 < se_ratio <= 1:
            x = _se(x, input_filters, filters, se_ratio, activation, bn_axis, name)
        x = layers.Conv2D(filters=output_filters, kernel_size=1, strides=1, kernel_initializer=CONV_KERNEL_INITIALIZER,
                          padding="same", data_format=image_data_format(), use_bias=False,
                          name=f"{name}project_conv")(x)
        x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name=f"{name}project_bn")(x)
        if strides == 1 and input_filters == output_filters:
            x = _skip(x, inputs, survival_probability, name)
        return x
    return apply


def FusedMBConvBlock(input_filters: int, output_filters: int, expand_ratio: int = 1, kernel_size: int = 3,
                     strides: int = 1, se_ratio: float = 0.0, bn_momentum: float = 0.9,
                     activation: Any = "swish", survival_probability: float = 0.8,
                     name: str = "block0") -> Callable:
    """A fused mobile inverted bottleneck block: as :func:`MBConvBlock` with the expansion and
    the depthwise convolution fused into one ``kernel_size`` convolution."""
    bn_axis = 3 if image_data_format() == "channels_last" else 1

    def apply(inputs: Any) -> Any:
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = layers.Conv2D(filters, kernel_size=kernel_size, strides=strides,
                              kernel_initializer=CONV_KERNEL_INITIALIZER, data_format=image_data_format(),
                              padding="same", use_bias=False, name=f"{name}expand_conv")(x)
            x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name=f"{name}expand_bn")(x)
            x = layers.Activation(activation=activation, name=f"{name}expand_activation")(x)
        if 0 < se_ratio <= 1:
            x = _se(x, input_filters, filters, se_ratio, activation, bn_axis, name)
        x = layers.Conv2D(output_filters, kernel_size=1 if expand_ratio != 1 else kernel_size,
                          strides=1 if expand_ratio != 1 else strides, kernel_initializer=CONV_KERNEL_INITIALIZER,
                          padding="same", use_bias=False, name=f"{name}project_conv")(x)
        x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name=f"{name}project_bn")(x)
        if expand_ratio == 1:
            x = layers.Activation(activation=activation, name=f"{name}project_activation")(x)
        if strides == 1 and input_filters == output_filters:
            x = _skip(x, inputs, survival_probability, name)
        return x
    return apply


def EfficientNetV2(width_coefficient: float, depth_coefficient: float, default_size: int,
                   dropout_rate: float = 0.2, drop_connect_rate: float = 0.2, depth_divisor: int = 8,
                   min_depth: int = 8, bn_momentum: float = 0.9, activation: Any = "swish",
                   blocks_args: Any = "default", name: str = "efficientnetv2", include_top: bool = True,
                   weights: Any = "imagenet", input_tensor: Any = None, input_shape: Any = None,
                   pooling: str | None = None, classes: int = 1000, classifier_activation: Any = "softmax",
                   include_preprocessing: bool = True, weights_name: str | None = None) -> Model:
    """An EfficientNetV2: a 3x3 stem, stages of fused and plain mobile inverted bottleneck blocks
    (``blocks_args``: their filters scaled by ``width_coefficient`` and repeats by
    ``depth_coefficient``; ``"default"`` takes the list of the variant ``name`` names), a 1x1
    convolution, then the top (dropout ``dropout_rate``). Inside, the B variants rescale [0, 255]
    pixels with ImageNet's channel statistics, the others to [-1, 1] (``include_preprocessing``).
    Other arguments as in :func:`EfficientNetV2B0`.

    >>> from tapegrad import keras
    >>> blocks = [dict(kernel_size=3, num_repeat=2, input_filters=16, output_filters=16,
    ...                expand_ratio=1, se_ratio=0, strides=1, conv_type=1)]
    >>> model = keras.applications.efficientnet_v2.EfficientNetV2(
    ...     1.0, 1.0, 32, blocks_args=blocks, name="efficientnetv2-b9", weights=None, classes=3)
    >>> model.output.shape, model.count_params()  # (Keras 3.15's numbers)
    ((None, 3), 34675)
    """
    if blocks_args == "default":
        if name not in DEFAULT_BLOCKS_ARGS:
            raise ValueError(f"blocks_args='default' takes the blocks of the variant `name` names, one of "
                             f"{', '.join(DEFAULT_BLOCKS_ARGS)}; Received name={name!r}. Pass blocks_args "
                             "for another name.")
        blocks_args = DEFAULT_BLOCKS_ARGS[name]
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=default_size, min_size=32,
                                                    data_format=image_data_format(),
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    bn_axis = 3 if image_data_format() == "channels_last" else 1
    x = img_input
    if include_preprocessing:
        num_channels = input_shape[bn_axis - 1]
        if name.split("-")[-1].startswith("b") and num_channels == 3:
            x = layers.Rescaling(scale=1.0 / 255)(x)
            x = layers.Normalization(mean=[0.485, 0.456, 0.406], variance=[0.229**2, 0.224**2, 0.225**2],
                                     axis=bn_axis)(x)
        else:
            x = layers.Rescaling(scale=1.0 / 128.0, offset=-1)(x)

    def filters(n: float) -> int:
        return round_filters(filters=n, width_coefficient=width_coefficient, min_depth=min_depth,
                             depth_divisor=depth_divisor)

    x = layers.Conv2D(filters=filters(blocks_args[0]["input_filters"]), kernel_size=3, strides=2,
                      kernel_initializer=CONV_KERNEL_INITIALIZER, padding="same", use_bias=False,
                      name="stem_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name="stem_bn")(x)
    x = layers.Activation(activation, name="stem_activation")(x)
    blocks_args = copy.deepcopy(blocks_args)
    b = 0
    blocks = float(sum(args["num_repeat"] for args in blocks_args))
    for i, args in enumerate(blocks_args):
        if args["num_repeat"] <= 0:
            raise ValueError(f"The number of repeats in `EfficientNetV2` must be > 0. Received: "
                             f"num_repeat={args['num_repeat']}")
        args["input_filters"] = filters(args["input_filters"])
        args["output_filters"] = filters(args["output_filters"])
        block = {0: MBConvBlock, 1: FusedMBConvBlock}[args.pop("conv_type")]
        for j in range(round_repeats(repeats=args.pop("num_repeat"), depth_coefficient=depth_coefficient)):
            if j > 0:
                args["strides"] = 1
                args["input_filters"] = args["output_filters"]
            x = block(activation=activation, bn_momentum=bn_momentum,
                      survival_probability=drop_connect_rate * b / blocks, name=f"block{i + 1}{chr(j + 97)}_",
                      **args)(x)
            b += 1
    x = layers.Conv2D(filters=filters(1280), kernel_size=1, strides=1, kernel_initializer=CONV_KERNEL_INITIALIZER,
                      padding="same", data_format=image_data_format(), use_bias=False, name="top_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name="top_bn")(x)
    x = layers.Activation(activation=activation, name="top_activation")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout_rate > 0:
            x = layers.Dropout(dropout_rate, name="top_dropout")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, kernel_initializer=DENSE_KERNEL_INITIALIZER,
                         bias_initializer=initializers.Constant(0.0), name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D(name="max_pool")(x)
    model = Model(imagenet_utils.model_inputs(input_tensor, img_input), x, name=name)
    if weights == "imagenet":
        if weights_name not in WEIGHTS_HASHES:
            raise ValueError(f"weights='imagenet' needs `weights_name`, one of {', '.join(WEIGHTS_HASHES)}; "
                             f"Received weights_name={weights_name!r}")
        imagenet_utils.load_weights(model, weights, name + (".h5" if include_top else "_notop.h5"),
                                    WEIGHTS_HASHES[weights_name][0 if include_top else 1])
    elif weights is not None:
        model.load_weights(weights)
    return model


def _variant(title: str, key: str, width: float, depth: float, size: int) -> Callable:
    def build(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
              input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
              classifier_activation: Any = "softmax", include_preprocessing: bool = True,
              name: str = f"efficientnetv2-{key.lstrip('-')}") -> Model:
        return EfficientNetV2(width_coefficient=width, depth_coefficient=depth, default_size=size, name=name,
                              include_top=include_top, weights=weights, input_tensor=input_tensor,
                              input_shape=input_shape, pooling=pooling, classes=classes,
                              classifier_activation=classifier_activation,
                              include_preprocessing=include_preprocessing, weights_name=key)
    build.__name__ = build.__qualname__ = title
    build.__doc__ = (
        f"{title}: width {width}, depth {depth}, {size}x{size} inputs by default.\n\n"
        "    Args:\n"
        "      include_top: end with global average pooling, dropout and a ``classes``-way ``Dense``.\n"
        "      weights: None (random initialization), ``\"imagenet\"`` (Keras's pretrained file, read\n"
        "        from Keras's download cache: tapegrad downloads nothing) or a weights file's path.\n"
        "      input_tensor: a Keras tensor to build the network on.\n"
        "      input_shape: ``(rows, cols, channels)``, each side at least 32.\n"
        "      pooling: without the top, ``None`` (4-D output), ``\"avg\"`` or ``\"max\"``.\n"
        "      classes: the top's classes.\n"
        "      classifier_activation: the top's activation (None: logits).\n"
        "      include_preprocessing: rescale inside the model, which then takes [0, 255] pixels;\n"
        "        without it, the model takes values in [-1, 1].\n"
        "      name: the model's name; it also picks the default blocks (see :func:`EfficientNetV2`).\n\n"
        "    Example (it builds the whole network, so it is not run as a doctest)::\n\n"
        f"        model = keras.applications.{title}(weights=None, include_top=False, pooling='avg')\n")
    return build


EfficientNetV2B0 = _variant("EfficientNetV2B0", "b0", 1.0, 1.0, 224)
EfficientNetV2B1 = _variant("EfficientNetV2B1", "b1", 1.0, 1.1, 240)
EfficientNetV2B2 = _variant("EfficientNetV2B2", "b2", 1.1, 1.2, 260)
EfficientNetV2B3 = _variant("EfficientNetV2B3", "b3", 1.2, 1.4, 300)
EfficientNetV2S = _variant("EfficientNetV2S", "-s", 1.0, 1.0, 384)
EfficientNetV2M = _variant("EfficientNetV2M", "-m", 1.0, 1.0, 480)
EfficientNetV2L = _variant("EfficientNetV2L", "-l", 1.0, 1.0, 480)
