"""``tapegrad.keras.applications``: Keras's image classification networks, built as Keras 3 builds
them (layer names, weight layout, parameter counts), and each network's ``preprocess_input`` and
``decode_predictions``. tapegrad downloads nothing: ``weights=None`` gives a randomly initialised
network, a path loads a weights file (``.weights.h5`` or legacy ``.h5``), and ``weights="imagenet"``
reads Keras's pretrained file from Keras's download cache (``~/.keras/models``) or says where to
put it. Each network's module loads on first use.

>>> import numpy as np
>>> from tapegrad import keras
>>> keras.applications.resnet50.preprocess_input(np.full((1, 1, 1, 3), 128.0, np.float32))[0, 0, 0].round(3)
array([24.061, 11.221,  4.32 ], dtype=float32)
>>> model = keras.applications.MobileNetV2(weights=None, input_shape=(32, 32, 3), classes=10)
>>> model.predict(np.zeros((2, 32, 32, 3), np.float32), verbose=0).shape
(2, 10)
"""
from __future__ import annotations

import importlib

NETWORKS = ("convnext", "densenet", "efficientnet", "efficientnet_v2", "inception_resnet_v2",
            "inception_v3", "mobilenet", "mobilenet_v2", "mobilenet_v3", "nasnet", "resnet",
            "resnet50", "resnet_v2", "vgg16", "vgg19", "xception")

# constructor -> the module that defines it
_MODELS = {"MobileNetV2": "mobilenet_v2", "ResNet50": "resnet", "ResNet101": "resnet",
           "ResNet152": "resnet", "ResNet50V2": "resnet_v2", "ResNet101V2": "resnet_v2",
           "ResNet152V2": "resnet_v2", "VGG16": "vgg16", "VGG19": "vgg19",
           **{f"EfficientNetB{i}": "efficientnet" for i in range(8)},
           "MobileNet": "mobilenet", "InceptionV3": "inception_v3", "Xception": "xception",
           "DenseNet121": "densenet", "DenseNet169": "densenet", "DenseNet201": "densenet",
           "InceptionResNetV2": "inception_resnet_v2",
           "MobileNetV3Small": "mobilenet_v3", "MobileNetV3Large": "mobilenet_v3",
           **{f"ConvNeXt{v}": "convnext" for v in ("Tiny", "Small", "Base", "Large", "XLarge")},
           **{f"EfficientNetV2{v}": "efficientnet_v2" for v in ("B0", "B1", "B2", "B3", "S", "M", "L")},
           "NASNetMobile": "nasnet", "NASNetLarge": "nasnet"}


def __getattr__(name: str) -> object:
    if name in _MODELS:
        return getattr(importlib.import_module(f".{_MODELS[name]}", __name__), name)
    if name not in NETWORKS + ("imagenet_utils",):
        raise AttributeError(f"module 'tapegrad.keras.applications' has no attribute {name!r}: the "
                             f"networks built are {', '.join(_MODELS)}; the preprocessing of each of "
                             f"{', '.join(NETWORKS)} is in its module")
    return importlib.import_module(f".{name}", __name__)


def __dir__() -> list:
    return sorted(set(globals()) | set(NETWORKS) | set(_MODELS) | {"imagenet_utils"})
