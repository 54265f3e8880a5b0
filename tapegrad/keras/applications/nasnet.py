"""``keras.applications.nasnet``: NASNetMobile and NASNetLarge (Zoph et al. 2018) as Keras 3
builds them (same layers, names, weight paths and layout, so Keras's weight files load), the
``NASNet`` builder, ``preprocess_input`` (``mode="tf"``: pixels to [-1, 1]) and
``decode_predictions``.

>>> from tapegrad import keras
>>> model = keras.applications.NASNetMobile(weights=None, input_shape=(32, 32, 3), include_top=False,
...                                         pooling="avg")
>>> model.output.shape, model.count_params()  # (Keras 3.15's numbers)
((None, 1056), 4269716)
"""
from __future__ import annotations

from typing import Any

from .. import layers
from .._variables import NameScope as name_scope
from ..backend import image_data_format
from ..models import Model
from . import imagenet_utils
from .imagenet_utils import _preprocess_tf as preprocess_input, decode_predictions

__all__ = ["NASNet", "NASNetMobile", "NASNetLarge", "preprocess_input", "decode_predictions"]

# (include_top, file name, MD5) of Keras's pretrained files, by default input size
_WEIGHTS = {224: {True: ("nasnet_mobile.h5", "020fb642bf7360b370c678b08e0adf61"),
                  False: ("nasnet_mobile_no_top.h5", "1ed92395b5b598bdda52abe5c0dbfd63")},
            331: {True: ("nasnet_large.h5", "11577c9a518f0070763c2b964a382f17"),
                  False: ("nasnet_large_no_top.h5", "d81d89dc07e6e56530c4e77faddd61b5")}}
_BN = dict(momentum=0.9997, epsilon=1e-3)


def NASNet(input_shape: Any = None, penultimate_filters: int = 4032, num_blocks: int = 6,
           stem_block_filters: int = 96, skip_reduction: bool = True, filter_multiplier: int = 2,
           include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
           pooling: str | None = None, classes: int = 1000, default_size: int | None = None,
           classifier_activation: Any = "softmax", name: str = "NASNet") -> Model:
    """A NASNet-A network ``NASNet (num_blocks @ penultimate_filters)``: a 3x3 stem, two
    reduction cells, then three stacks of ``num_blocks`` normal cells with a reduction cell
    between stacks (the filters grow by ``filter_multiplier`` at each), ReLU, then the top.
    ``skip_reduction`` feeds a reduction cell's input, not its output, to the next cell as the
    previous path. Channels last only; inputs preprocessed by
    ``keras.applications.nasnet.preprocess_input`` (to [-1, 1]). ``default_size`` is the input
    side without ``input_shape`` (331); Keras has pretrained weights for 224 (mobile) and 331
    (large). Other arguments as in :func:`NASNetMobile`.

    >>> from tapegrad import keras
    >>> model = keras.applications.nasnet.NASNet((32, 32, 3), penultimate_filters=96, num_blocks=1,
    ...                                          stem_block_filters=8, weights=None, classes=3)
    >>> model.output.shape, model.count_params()  # (Keras 3.15's numbers)
    ((None, 3), 26833)
    """
    if image_data_format() == "channels_first":
        raise ValueError("NASNet does not support the `channels_first` image data format. Switch to "
                         "`channels_last` with keras.backend.set_image_data_format('channels_last') or in "
                         "your config file at ~/.keras/keras.json")
    imagenet_utils.check_weights(weights, include_top, classes)
    if isinstance(input_shape, tuple) and None in input_shape and weights == "imagenet":
        raise ValueError("When specifying the input shape of a NASNet and loading `ImageNet` weights, the "
                         f"input_shape argument must be static (no None entries). Got: `input_shape={input_shape}`.")
    if default_size is None:
        default_size = 331
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=default_size, min_size=32,
                                                    data_format=image_data_format(),
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    if penultimate_filters % (24 * (filter_multiplier**2)) != 0:
        raise ValueError("For NASNet-A models, the `penultimate_filters` must be a multiple of 24 * "
                         f"(`filter_multiplier` ** 2). Current value: {penultimate_filters}")
    filters = penultimate_filters // 24
    x = layers.Conv2D(stem_block_filters, (3, 3), strides=(2, 2), padding="valid", use_bias=False,
                      name="stem_conv1", kernel_initializer="he_normal")(img_input)
    x = layers.BatchNormalization(axis=-1, **_BN, name="stem_bn1")(x)
    p = None
    x, p = _reduction_a_cell(x, p, filters // (filter_multiplier**2), block_id="stem_1")
    x, p = _reduction_a_cell(x, p, filters // filter_multiplier, block_id="stem_2")
    for i in range(num_blocks):
        x, p = _normal_a_cell(x, p, filters, block_id=f"{i}")
    x, p0 = _reduction_a_cell(x, p, filters * filter_multiplier, block_id=f"reduce_{num_blocks}")
    p = p0 if not skip_reduction else p
    for i in range(num_blocks):
        x, p = _normal_a_cell(x, p, filters * filter_multiplier, block_id=f"{num_blocks + i + 1}")
    x, p0 = _reduction_a_cell(x, p, filters * filter_multiplier**2, block_id=f"reduce_{2 * num_blocks}")
    p = p0 if not skip_reduction else p
    for i in range(num_blocks):
        x, p = _normal_a_cell(x, p, filters * filter_multiplier**2, block_id=f"{2 * num_blocks + i + 1}")
    x = layers.Activation("relu")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D()(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D()(x)
    model = Model(imagenet_utils.model_inputs(input_tensor, img_input), x, name=name)
    if weights == "imagenet":
        if default_size not in _WEIGHTS:
            raise ValueError("ImageNet weights can only be loaded with NASNetLarge or NASNetMobile")
        imagenet_utils.load_weights(model, weights, *_WEIGHTS[default_size][bool(include_top)])
    elif weights is not None:
        model.load_weights(weights)
    return model


def NASNetMobile(input_shape: Any = None, include_top: bool = True, weights: Any = "imagenet",
                 input_tensor: Any = None, pooling: str | None = None, classes: int = 1000,
                 classifier_activation: Any = "softmax", name: str = "nasnet_mobile") -> Model:
    """NASNet-A (4 @ 1056) for 224x224 inputs.

    Args:
      input_shape: ``(rows, cols, 3)``, each side at least 32; the default is 224x224 (also
        without the top). With the top and ``weights="imagenet"`` it must be ``(224, 224, 3)``.
      include_top: end with global average pooling and a ``classes``-way Dense layer.
      weights: None (random initialization), ``"imagenet"`` (Keras's pretrained file, read from
        Keras's download cache: tapegrad downloads nothing) or the path of a weights file.
      input_tensor: a Keras tensor to build the network on.
      pooling: without the top, ``None`` (4-D output), ``"avg"`` or ``"max"``.
      classes: the top's classes.
      classifier_activation: the top's activation (None: logits).
      name: the model's name.

    Inputs are preprocessed with ``keras.applications.nasnet.preprocess_input`` (to [-1, 1]).

    Example (it builds the whole network, so it is not run as a doctest)::

        model = keras.applications.NASNetMobile(weights=None, include_top=False, pooling="avg")
    """
    if not include_top and input_shape is None:
        input_shape = (224, 224, 3)
    return NASNet(input_shape, penultimate_filters=1056, num_blocks=4, stem_block_filters=32,
                  skip_reduction=False, filter_multiplier=2, include_top=include_top, weights=weights,
                  input_tensor=input_tensor, pooling=pooling, classes=classes, default_size=224,
                  classifier_activation=classifier_activation, name=name)


def NASNetLarge(input_shape: Any = None, include_top: bool = True, weights: Any = "imagenet",
                input_tensor: Any = None, pooling: str | None = None, classes: int = 1000,
                classifier_activation: Any = "softmax", name: str = "nasnet_large") -> Model:
    """NASNet-A (6 @ 4032) for 331x331 inputs; arguments as in :func:`NASNetMobile` (the default
    input, and the one ``weights="imagenet"`` with the top needs, is ``(331, 331, 3)``; without
    the top and ``input_shape``, the input size is left open).

    Example (it builds the whole network, so it is not run as a doctest)::

        model = keras.applications.NASNetLarge(weights=None, include_top=False, pooling="avg")
    """
    return NASNet(input_shape, penultimate_filters=4032, num_blocks=6, stem_block_filters=96,
                  skip_reduction=True, filter_multiplier=2, include_top=include_top, weights=weights,
                  input_tensor=input_tensor, pooling=pooling, classes=classes, default_size=331,
                  classifier_activation=classifier_activation, name=name)


def _separable_conv_block(ip: Any, filters: int, kernel_size: Any = (3, 3), strides: Any = (1, 1),
                          block_id: str = "") -> Any:
    # two [ReLU, separable convolution, batch norm]; the first strided when `strides` is (2, 2)
    with name_scope(f"separable_conv_block_{block_id}"):
        x = layers.Activation("relu")(ip)
        if strides == (2, 2):
            x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size),
                                     name=f"separable_conv_1_pad_{block_id}")(x)
            conv_pad = "valid"
        else:
            conv_pad = "same"
        x = layers.SeparableConv2D(filters, kernel_size, strides=strides, name=f"separable_conv_1_{block_id}",
                                   padding=conv_pad, use_bias=False)(x)
        x = layers.BatchNormalization(axis=-1, **_BN, name=f"separable_conv_1_bn_{block_id}")(x)
        x = layers.Activation("relu")(x)
        x = layers.SeparableConv2D(filters, kernel_size, name=f"separable_conv_2_{block_id}", padding="same",
                                   use_bias=False)(x)
        x = layers.BatchNormalization(axis=-1, **_BN, name=f"separable_conv_2_bn_{block_id}")(x)
    return x


def _adjust_block(p: Any, ip: Any, filters: int, block_id: str) -> Any:
    # the previous path `p` brought to the shape of the input `ip` with `filters` channels
    with name_scope("adjust_block"):
        if p is None:
            p = ip
        elif p.shape[-2] != ip.shape[-2]:
            with name_scope(f"adjust_reduction_block_{block_id}"):
                p = layers.Activation("relu", name=f"adjust_relu_1_{block_id}")(p)
                p1 = layers.AveragePooling2D((1, 1), strides=(2, 2), padding="valid",
                                             name=f"adjust_avg_pool_1_{block_id}")(p)
                p1 = layers.Conv2D(filters // 2, (1, 1), padding="same", use_bias=False,
                                   name=f"adjust_conv_1_{block_id}", kernel_initializer="he_normal")(p1)
                p2 = layers.ZeroPadding2D(padding=((0, 1), (0, 1)))(p)
                p2 = layers.Cropping2D(cropping=((1, 0), (1, 0)))(p2)
                p2 = layers.AveragePooling2D((1, 1), strides=(2, 2), padding="valid",
                                             name=f"adjust_avg_pool_2_{block_id}")(p2)
                p2 = layers.Conv2D(filters // 2, (1, 1), padding="same", use_bias=False,
                                   name=f"adjust_conv_2_{block_id}", kernel_initializer="he_normal")(p2)
                p = layers.concatenate([p1, p2], axis=-1)
                p = layers.BatchNormalization(axis=-1, **_BN, name=f"adjust_bn_{block_id}")(p)
        elif p.shape[-1] != filters:
            with name_scope(f"adjust_projection_block_{block_id}"):
                p = layers.Activation("relu")(p)
                p = layers.Conv2D(filters, (1, 1), strides=(1, 1), padding="same",
                                  name=f"adjust_conv_projection_{block_id}", use_bias=False,
                                  kernel_initializer="he_normal")(p)
                p = layers.BatchNormalization(axis=-1, **_BN, name=f"adjust_bn_{block_id}")(p)
    return p


def _normal_a_cell(ip: Any, p: Any, filters: int, block_id: str) -> tuple:
    # NASNet-A's normal cell (Fig. 4 of the paper); returns (output, the next previous path)
    with name_scope(f"normal_A_block_{block_id}"):
        p = _adjust_block(p, ip, filters, block_id)
        h = layers.Activation("relu")(ip)
        h = layers.Conv2D(filters, (1, 1), strides=(1, 1), padding="same", name=f"normal_conv_1_{block_id}",
                          use_bias=False, kernel_initializer="he_normal")(h)
        h = layers.BatchNormalization(axis=-1, **_BN, name=f"normal_bn_1_{block_id}")(h)
        with name_scope("block_1"):
            x1_1 = _separable_conv_block(h, filters, kernel_size=(5, 5), block_id=f"normal_left1_{block_id}")
            x1_2 = _separable_conv_block(p, filters, block_id=f"normal_right1_{block_id}")
            x1 = layers.add([x1_1, x1_2], name=f"normal_add_1_{block_id}")
        with name_scope("block_2"):
            x2_1 = _separable_conv_block(p, filters, (5, 5), block_id=f"normal_left2_{block_id}")
            x2_2 = _separable_conv_block(p, filters, (3, 3), block_id=f"normal_right2_{block_id}")
            x2 = layers.add([x2_1, x2_2], name=f"normal_add_2_{block_id}")
        with name_scope("block_3"):
            x3 = layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same",
                                         name=f"normal_left3_{block_id}")(h)
            x3 = layers.add([x3, p], name=f"normal_add_3_{block_id}")
        with name_scope("block_4"):
            x4_1 = layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same",
                                           name=f"normal_left4_{block_id}")(p)
            x4_2 = layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same",
                                           name=f"normal_right4_{block_id}")(p)
            x4 = layers.add([x4_1, x4_2], name=f"normal_add_4_{block_id}")
        with name_scope("block_5"):
            x5 = _separable_conv_block(h, filters, block_id=f"normal_left5_{block_id}")
            x5 = layers.add([x5, h], name=f"normal_add_5_{block_id}")
        x = layers.concatenate([p, x1, x2, x3, x4, x5], axis=-1, name=f"normal_concat_{block_id}")
    return x, ip


def _reduction_a_cell(ip: Any, p: Any, filters: int, block_id: str) -> tuple:
    # NASNet-A's reduction cell (Fig. 4 of the paper): halves the spatial size
    with name_scope(f"reduction_A_block_{block_id}"):
        p = _adjust_block(p, ip, filters, block_id)
        h = layers.Activation("relu")(ip)
        h = layers.Conv2D(filters, (1, 1), strides=(1, 1), padding="same", name=f"reduction_conv_1_{block_id}",
                          use_bias=False, kernel_initializer="he_normal")(h)
        h = layers.BatchNormalization(axis=-1, **_BN, name=f"reduction_bn_1_{block_id}")(h)
        h3 = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(h, 3), name=f"reduction_pad_1_{block_id}")(h)
        with name_scope("block_1"):
            x1_1 = _separable_conv_block(h, filters, (5, 5), strides=(2, 2), block_id=f"reduction_left1_{block_id}")
            x1_2 = _separable_conv_block(p, filters, (7, 7), strides=(2, 2), block_id=f"reduction_right1_{block_id}")
            x1 = layers.add([x1_1, x1_2], name=f"reduction_add_1_{block_id}")
        with name_scope("block_2"):
            x2_1 = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="valid",
                                       name=f"reduction_left2_{block_id}")(h3)
            x2_2 = _separable_conv_block(p, filters, (7, 7), strides=(2, 2), block_id=f"reduction_right2_{block_id}")
            x2 = layers.add([x2_1, x2_2], name=f"reduction_add_2_{block_id}")
        with name_scope("block_3"):
            x3_1 = layers.AveragePooling2D((3, 3), strides=(2, 2), padding="valid",
                                           name=f"reduction_left3_{block_id}")(h3)
            x3_2 = _separable_conv_block(p, filters, (5, 5), strides=(2, 2), block_id=f"reduction_right3_{block_id}")
            x3 = layers.add([x3_1, x3_2], name=f"reduction_add3_{block_id}")
        with name_scope("block_4"):
            x4 = layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same",
                                         name=f"reduction_left4_{block_id}")(x1)
            x4 = layers.add([x2, x4])
        with name_scope("block_5"):
            x5_1 = _separable_conv_block(x1, filters, (3, 3), block_id=f"reduction_left4_{block_id}")
            x5_2 = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="valid",
                                       name=f"reduction_right5_{block_id}")(h3)
            x5 = layers.add([x5_1, x5_2], name=f"reduction_add4_{block_id}")
        x = layers.concatenate([x2, x3, x4, x5], axis=-1, name=f"reduction_concat_{block_id}")
    return x, ip
