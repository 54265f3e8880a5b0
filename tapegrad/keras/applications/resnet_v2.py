"""``keras.applications.resnet_v2``: ResNet50V2, ResNet101V2 and ResNet152V2 (pre-activation
ResNets, He et al. 2016) as Keras 3 builds them, ``preprocess_input`` (``mode="tf"``) and
``decode_predictions``.

>>> from tapegrad import keras
>>> keras.applications.ResNet50V2(weights=None, input_shape=(32, 32, 3), classes=3).count_params()
23570947
"""
from __future__ import annotations

from typing import Any, Callable

from ..models import Model
from .imagenet_utils import _preprocess_tf as preprocess_input, decode_predictions
from .resnet import ResNet, stack_residual_blocks_v2

__all__ = ["ResNet50V2", "ResNet101V2", "ResNet152V2", "preprocess_input", "decode_predictions"]


def _v2(depths: tuple) -> Callable:
    def stack_fn(x: Any) -> Any:
        x = stack_residual_blocks_v2(x, 64, depths[0], name="conv2")
        x = stack_residual_blocks_v2(x, 128, depths[1], name="conv3")
        x = stack_residual_blocks_v2(x, 256, depths[2], name="conv4")
        return stack_residual_blocks_v2(x, 512, depths[3], stride1=1, name="conv5")
    return stack_fn


def ResNet50V2(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
               input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
               classifier_activation: Any = "softmax", name: str = "resnet50v2") -> Model:
    """ResNet50V2 (stacks of 3, 4, 6 and 3 blocks); arguments as in ``keras.applications.resnet.ResNet``.

    Example (it builds the whole network, so it is not run as a doctest)::

        model = keras.applications.ResNet50V2(weights=None, include_top=False)
        model.output.shape  # (None, None, None, 2048)
    """
    return ResNet(_v2((3, 4, 6, 3)), True, True, include_top, weights, input_tensor, input_shape,
                  pooling, classes, classifier_activation, name, "resnet50v2")


def ResNet101V2(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
                input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
                classifier_activation: Any = "softmax", name: str = "resnet101v2") -> Model:
    """ResNet101V2 (stacks of 3, 4, 23 and 3 blocks).

    Example (it builds the whole network, so it is not run as a doctest)::

        model = keras.applications.ResNet101V2(weights=None, include_top=False, pooling="avg")
        model.output.shape  # (None, 2048)
    """
    return ResNet(_v2((3, 4, 23, 3)), True, True, include_top, weights, input_tensor, input_shape,
                  pooling, classes, classifier_activation, name, "resnet101v2")


def ResNet152V2(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
                input_shape: Any = None, pooling: str | None = None, classes: int = 1000,
                classifier_activation: Any = "softmax", name: str = "resnet152v2") -> Model:
    """ResNet152V2 (stacks of 3, 8, 36 and 3 blocks).

    Example (it builds the whole network, so it is not run as a doctest)::

        model = keras.applications.ResNet152V2(weights=None, include_top=False, pooling="max")
        model.output.shape  # (None, 2048)
    """
    return ResNet(_v2((3, 8, 36, 3)), True, True, include_top, weights, input_tensor, input_shape,
                  pooling, classes, classifier_activation, name, "resnet152v2")
