"""``keras.applications.densenet``: DenseNet121, DenseNet169 and DenseNet201 (Huang et al. 2017) as
Keras 3 builds them (same layers, names and weight layout, so Keras's weight files load), the
``DenseNet`` builder, ``preprocess_input`` (``mode="torch"``) and ``decode_predictions``.

>>> from tapegrad import keras
>>> model = keras.applications.densenet.DenseNet([1, 1, 1, 1], weights=None, input_shape=(32, 32, 3),
...                                              classes=3)
>>> model.output.shape, len(model.layers), model.count_params()
((None, 3), 51, 195855)
"""
from __future__ import annotations

from typing import Any

from .. import layers
from ..backend import image_data_format
from ..models import Model
from . import imagenet_utils
from .imagenet_utils import _preprocess_torch as preprocess_input, decode_predictions

__all__ = ["DenseNet", "DenseNet121", "DenseNet169", "DenseNet201", "preprocess_input",
           "decode_predictions"]

# blocks -> (weights name, (hash with the top, hash without))
_WEIGHTS = {(6, 12, 24, 16): ("densenet121", ("9d60b8095a5708f2dcce2bca79d332c7", "30ee3e1110167f948a6b9946edeeb738")),
            (6, 12, 32, 32): ("densenet169", ("d699b8f76981ab1b30698df4c175e90b", "b8c4d4c20dd625c148057b9ff1c1176b")),
            (6, 12, 48, 32): ("densenet201", ("1ceb130c1ea1b78c3bf6114dbdfd8807", "c13680b51ded0fb44dff2d8f86ac8bb1"))}


def _bn_axis() -> int:
    return 3 if image_data_format() == "channels_last" else 1


def _bn(x: Any, name: str) -> Any:
    return layers.BatchNormalization(axis=_bn_axis(), epsilon=1.001e-5, name=name)(x)


def dense_block(x: Any, blocks: int, name: str) -> Any:
    """``blocks`` convolution blocks, each adding 32 channels."""
    for i in range(blocks):
        x = conv_block(x, 32, name=f"{name}_block{i + 1}")
    return x


def transition_block(x: Any, reduction: float, name: str) -> Any:
    """Batch norm, relu, a 1x1 convolution to ``reduction`` times the channels, 2x2 average pooling."""
    x = _bn(x, f"{name}_bn")
    x = layers.Activation("relu", name=f"{name}_relu")(x)
    x = layers.Conv2D(int(x.shape[_bn_axis()] * reduction), 1, use_bias=False, name=f"{name}_conv")(x)
    return layers.AveragePooling2D(2, strides=2, name=f"{name}_pool")(x)


def conv_block(x: Any, growth_rate: int, name: str) -> Any:
    """Batch norm, relu, 1x1 convolution, batch norm, relu, 3x3 convolution to ``growth_rate``
    channels, concatenated to the input."""
    x1 = _bn(x, f"{name}_0_bn")
    x1 = layers.Activation("relu", name=f"{name}_0_relu")(x1)
    x1 = layers.Conv2D(4 * growth_rate, 1, use_bias=False, name=f"{name}_1_conv")(x1)
    x1 = _bn(x1, f"{name}_1_bn")
    x1 = layers.Activation("relu", name=f"{name}_1_relu")(x1)
    x1 = layers.Conv2D(growth_rate, 3, padding="same", use_bias=False, name=f"{name}_2_conv")(x1)
    return layers.Concatenate(axis=_bn_axis(), name=f"{name}_concat")([x, x1])


def DenseNet(blocks: Any, include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
             input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
             classifier_activation: Any = "softmax", name: str = "densenet") -> Model:
    """A DenseNet: a 7x7 stem, four dense blocks of ``blocks[i]`` convolution blocks with
    transition blocks between them, batch norm and relu, then the top. Channels-last only, as in
    Keras.

    Args:
      blocks: the number of convolution blocks in each of the four dense blocks.
      include_top: end with global average pooling and a ``classes``-way Dense layer.
      weights: None (random initialization), ``"imagenet"`` (Keras's pretrained file, read from
        Keras's download cache: tapegrad downloads nothing; only for DenseNet121, 169 and 201's
        blocks) or the path of a weights file.
      input_tensor: a Keras tensor to build the network on.
      input_shape: ``(rows, cols, channels)``, each side at least 32; with the top and ImageNet
        weights it must be ``(224, 224, 3)``.
      pooling: without the top, ``None`` (4-D output), ``"avg"`` or ``"max"``.
      classes: the top's classes.
      classifier_activation: the top's activation (None: logits).
      name: the model's name.

    Inputs are preprocessed with ``keras.applications.densenet.preprocess_input``.
    """
    if image_data_format() == "channels_first":
        raise ValueError("DenseNet does not support the `channels_first` image data format. Switch to "
                         "`channels_last` by editing your local config file at ~/.keras/keras.json")
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=224, min_size=32,
                                                    data_format=image_data_format(),
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)))(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=False, name="conv1_conv")(x)
    x = _bn(x, "conv1_bn")
    x = layers.Activation("relu", name="conv1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1")(x)
    for i in range(3):
        x = dense_block(x, blocks[i], name=f"conv{i + 2}")
        x = transition_block(x, 0.5, name=f"pool{i + 2}")
    x = dense_block(x, blocks[3], name="conv5")
    x = _bn(x, "bn")
    x = layers.Activation("relu", name="relu")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D(name="max_pool")(x)
    model = Model(imagenet_utils.model_inputs(input_tensor, img_input), x, name=name)
    net, hashes = _WEIGHTS.get(tuple(blocks), (None, (None, None)))
    if weights == "imagenet" and net is None:
        raise ValueError("weights='imagenet' is only for the blocks of DenseNet121, 169 and 201 "
                         f"({', '.join(str(list(b)) for b in _WEIGHTS)}); Received blocks={blocks}. "
                         "Use weights=None or the path of a weights file.")
    suffix = "" if include_top else "_notop"
    imagenet_utils.load_weights(model, weights, f"{net}_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
                                hashes[0 if include_top else 1])
    return model


def DenseNet121(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
                input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
                classifier_activation: Any = "softmax", name: str = "densenet121") -> Model:
    """DenseNet121 (dense blocks of 6, 12, 24 and 16); arguments as in :func:`DenseNet`.
    Inputs are preprocessed with ``keras.applications.densenet.preprocess_input``.

    Example (it builds the whole network, so it is not run as a doctest)::

        model = keras.applications.DenseNet121(weights=None)
        model.count_params()  # 8062504, as in Keras
    """
    return DenseNet([6, 12, 24, 16], include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name=name)


def DenseNet169(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
                input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
                classifier_activation: Any = "softmax", name: str = "densenet169") -> Model:
    """DenseNet169 (dense blocks of 6, 12, 32 and 32); arguments as in :func:`DenseNet`.

    Example (it builds the whole network, so it is not run as a doctest)::

        model = keras.applications.DenseNet169(weights=None)
        model.count_params()  # 14307880, as in Keras
    """
    return DenseNet([6, 12, 32, 32], include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name=name)


def DenseNet201(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
                input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
                classifier_activation: Any = "softmax", name: str = "densenet201") -> Model:
    """DenseNet201 (dense blocks of 6, 12, 48 and 32); arguments as in :func:`DenseNet`.

    Example (it builds the whole network, so it is not run as a doctest)::

        model = keras.applications.DenseNet201(weights=None)
        model.count_params()  # 20242984, as in Keras
    """
    return DenseNet([6, 12, 48, 32], include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name=name)
