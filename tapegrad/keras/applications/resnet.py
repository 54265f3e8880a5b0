"""``keras.applications.resnet``: ResNet50, ResNet101 and ResNet152 (v1, He et al. 2015) as Keras 3
builds them (same layers, names and weight layout, so Keras's weight files load), the builder
``ResNet`` they share with ``resnet_v2``, ``preprocess_input`` (``mode="caffe"``) and
``decode_predictions``.

>>> import numpy as np
>>> from tapegrad import keras
>>> keras.applications.resnet.preprocess_input(np.zeros((1, 1, 1, 3), np.float32))[0, 0, 0]
array([-103.939, -116.779, -123.68 ], dtype=float32)
"""
from __future__ import annotations

from typing import Any, Callable

from .. import layers
from ..backend import image_data_format
from ..models import Model
from . import imagenet_utils
from .imagenet_utils import _preprocess_caffe as preprocess_input, decode_predictions

__all__ = ["ResNet", "ResNet50", "ResNet101", "ResNet152", "preprocess_input", "decode_predictions"]

_WEIGHTS_HASHES = {
    "resnet50": ("2cb95161c43110f7111970584f804107", "4d473c1dd8becc155b73f8504c6f6626"),
    "resnet101": ("f1aeb4b969a6efcfb50fad2f0c20cfc5", "88cf7a10940856eca736dc7b7e228a21"),
    "resnet152": ("100835be76be38e30d865e96f2aaae62", "ee4c566cf9a93f14d82f913c2dc6dd0c"),
    "resnet50v2": ("3ef43a0b657b3be2300d5770ece849e0", "fac2f116257151a9d068a22e544a4917"),
    "resnet101v2": ("6343647c601c52e1368623803854d971", "c0ed64b8031c3730f411d2eb4eea35b5"),
    "resnet152v2": ("a49b44d1979771252814e80f8ec446f9", "ed17cf2e0169df9d443503ef94b23b33"),
}


def _bn_axis() -> int:
    return 3 if image_data_format() == "channels_last" else 1


def ResNet(stack_fn: Callable, preact: bool, use_bias: bool, include_top: bool = True,
           weights: Any = "imagenet", input_tensor: Any = None, input_shape: Any = None,
           pooling: str | None = None, classes: int = 1000, classifier_activation: Any = "softmax",
           name: str = "resnet", weights_name: str | None = None) -> Model:
    """The ResNet and ResNetV2 networks: a 7x7 stem, ``stack_fn``'s residual stacks, then the top.

    Args:
      stack_fn: builds the residual stacks on a Keras tensor.
      preact: True for ResNetV2 (pre-activation blocks, batch norm after the stacks).
      use_bias: whether the stem convolution has a bias.
      include_top: end with global average pooling and a ``classes``-way Dense layer.
      weights: None (random initialization), ``"imagenet"`` (Keras's pretrained file, read from
        Keras's download cache: tapegrad downloads nothing) or the path of a weights file.
      input_tensor: a Keras tensor to build the network on.
      input_shape: ``(rows, cols, channels)``, each side at least 32; with ``include_top`` and
        ImageNet weights it must be ``(224, 224, 3)``.
      pooling: without the top, ``None`` (4-D output), ``"avg"`` or ``"max"``.
      classes: the top's classes.
      classifier_activation: the top's activation (None: logits).
      name: the model's name.
      weights_name: the name in Keras's weight file names.

    >>> from tapegrad import keras
    >>> stack = lambda x: keras.applications.resnet.stack_residual_blocks_v1(x, 8, 1, name="conv2")
    >>> model = keras.applications.resnet.ResNet(stack, preact=False, use_bias=True, weights=None,
    ...                                          input_shape=(32, 32, 3), classes=2)
    >>> model.output.shape
    (None, 2)
    """
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=224, min_size=32,
                                                    data_format=image_data_format(),
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    bn_axis = _bn_axis()
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)), name="conv1_pad")(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=use_bias, name="conv1_conv")(x)
    if not preact:
        x = layers.BatchNormalization(axis=bn_axis, epsilon=1.001e-5, name="conv1_bn")(x)
        x = layers.Activation("relu", name="conv1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name="pool1_pad")(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1_pool")(x)
    x = stack_fn(x)
    if preact:
        x = layers.BatchNormalization(axis=bn_axis, epsilon=1.001e-5, name="post_bn")(x)
        x = layers.Activation("relu", name="post_relu")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D(name="max_pool")(x)
    model = Model(imagenet_utils.model_inputs(input_tensor, img_input), x, name=name)
    suffix = "" if include_top else "_notop"
    file_hash = _WEIGHTS_HASHES.get(weights_name, (None, None))[0 if include_top else 1]
    imagenet_utils.load_weights(model, weights, f"{weights_name}_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
                                file_hash)
    return model


def residual_block_v1(x: Any, filters: int, kernel_size: int = 3, stride: int = 1,
                      conv_shortcut: bool = True, name: str | None = None) -> Any:
    """A ResNet v1 bottleneck block (1x1, kxk, 1x1 convolutions; shortcut added, then relu)."""
    bn_axis = _bn_axis()
    if conv_shortcut:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(x)
        shortcut = layers.BatchNormalization(axis=bn_axis, epsilon=1.001e-5, name=f"{name}_0_bn")(shortcut)
    else:
        shortcut = x
    x = layers.Conv2D(filters, 1, strides=stride, name=f"{name}_1_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, epsilon=1.001e-5, name=f"{name}_1_bn")(x)
    x = layers.Activation("relu", name=f"{name}_1_relu")(x)
    x = layers.Conv2D(filters, kernel_size, padding="SAME", name=f"{name}_2_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, epsilon=1.001e-5, name=f"{name}_2_bn")(x)
    x = layers.Activation("relu", name=f"{name}_2_relu")(x)
    x = layers.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, epsilon=1.001e-5, name=f"{name}_3_bn")(x)
    x = layers.Add(name=f"{name}_add")([shortcut, x])
    return layers.Activation("relu", name=f"{name}_out")(x)


def stack_residual_blocks_v1(x: Any, filters: int, blocks: int, stride1: int = 2,
                             name: str | None = None) -> Any:
    """``blocks`` v1 blocks; the first has a convolution shortcut and stride ``stride1``."""
    x = residual_block_v1(x, filters, stride=stride1, name=f"{name}_block1")
    for i in range(2, blocks + 1):
        x = residual_block_v1(x, filters, conv_shortcut=False, name=f"{name}_block{i}")
    return x


def residual_block_v2(x: Any, filters: int, kernel_size: int = 3, stride: int = 1,
                      conv_shortcut: bool = False, name: str | None = None) -> Any:
    """A ResNet v2 pre-activation bottleneck block (batch norm and relu before the convolutions)."""
    bn_axis = _bn_axis()
    preact = layers.BatchNormalization(axis=bn_axis, epsilon=1.001e-5, name=f"{name}_preact_bn")(x)
    preact = layers.Activation("relu", name=f"{name}_preact_relu")(preact)
    if conv_shortcut:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(preact)
    else:
        shortcut = layers.MaxPooling2D(1, strides=stride)(x) if stride > 1 else x
    x = layers.Conv2D(filters, 1, strides=1, use_bias=False, name=f"{name}_1_conv")(preact)
    x = layers.BatchNormalization(axis=bn_axis, epsilon=1.001e-5, name=f"{name}_1_bn")(x)
    x = layers.Activation("relu", name=f"{name}_1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name=f"{name}_2_pad")(x)
    x = layers.Conv2D(filters, kernel_size, strides=stride, use_bias=False, name=f"{name}_2_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, epsilon=1.001e-5, name=f"{name}_2_bn")(x)
    x = layers.Activation("relu", name=f"{name}_2_relu")(x)
    x = layers.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    return layers.Add(name=f"{name}_out")([shortcut, x])


def stack_residual_blocks_v2(x: Any, filters: int, blocks: int, stride1: int = 2,
                             name: str | None = None) -> Any:
    """``blocks`` v2 blocks; the first has a convolution shortcut, the last stride ``stride1``."""
    x = residual_block_v2(x, filters, conv_shortcut=True, name=f"{name}_block1")
    for i in range(2, blocks):
        x = residual_block_v2(x, filters, name=f"{name}_block{i}")
    return residual_block_v2(x, filters, stride=stride1, name=f"{name}_block{blocks}")


def _v1(depths: tuple) -> Callable:
    def stack_fn(x: Any) -> Any:
        x = stack_residual_blocks_v1(x, 64, depths[0], stride1=1, name="conv2")
        x = stack_residual_blocks_v1(x, 128, depths[1], name="conv3")
        x = stack_residual_blocks_v1(x, 256, depths[2], name="conv4")
        return stack_residual_blocks_v1(x, 512, depths[3], name="conv5")
    return stack_fn


def ResNet50(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
             input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
             classifier_activation: Any = "softmax", name: str = "resnet50") -> Model:
    """ResNet50 (stacks of 3, 4, 6 and 3 bottleneck blocks); arguments as in :func:`ResNet`.
    Inputs are preprocessed with ``keras.applications.resnet.preprocess_input``.

    >>> from tapegrad import keras
    >>> keras.applications.ResNet50(weights=None, input_shape=(32, 32, 3), classes=10).output.shape
    (None, 10)
    """
    return ResNet(_v1((3, 4, 6, 3)), False, True, include_top, weights, input_tensor, input_shape,
                  pooling, classes, classifier_activation, name, "resnet50")


def ResNet101(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
              input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
              classifier_activation: Any = "softmax", name: str = "resnet101") -> Model:
    """ResNet101 (stacks of 3, 4, 23 and 3 bottleneck blocks); arguments as in :func:`ResNet`.

    Example (it builds the whole network, so it is not run as a doctest)::

        model = keras.applications.ResNet101(weights=None, include_top=False)
        len(model.layers)  # 345, as in Keras
    """
    return ResNet(_v1((3, 4, 23, 3)), False, True, include_top, weights, input_tensor, input_shape,
                  pooling, classes, classifier_activation, name, "resnet101")


def ResNet152(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
              input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
              classifier_activation: Any = "softmax", name: str = "resnet152") -> Model:
    """ResNet152 (stacks of 3, 8, 36 and 3 bottleneck blocks); arguments as in :func:`ResNet`.

    Example (it builds the whole network, so it is not run as a doctest)::

        model = keras.applications.ResNet152(weights=None, include_top=False)
        len(model.layers)  # 515, as in Keras
    """
    return ResNet(_v1((3, 8, 36, 3)), False, True, include_top, weights, input_tensor, input_shape,
                  pooling, classes, classifier_activation, name, "resnet152")
