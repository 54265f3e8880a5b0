"""``tapegrad.keras.applications``: the input preprocessing of Keras's pretrained networks
(``keras.applications.<net>.preprocess_input``); the networks themselves need downloaded weights
and are not provided. Each network's module loads on first use.

>>> import numpy as np
>>> from tapegrad import keras
>>> keras.applications.resnet50.preprocess_input(np.full((1, 1, 1, 3), 128.0, np.float32))[0, 0, 0].round(3)
array([24.061, 11.221,  4.32 ], dtype=float32)
"""
from __future__ import annotations

import importlib

NETWORKS = ("convnext", "densenet", "efficientnet", "efficientnet_v2", "inception_resnet_v2",
            "inception_v3", "mobilenet", "mobilenet_v2", "mobilenet_v3", "nasnet", "resnet",
            "resnet50", "resnet_v2", "vgg16", "vgg19", "xception")


def __getattr__(name: str) -> object:
    if name not in NETWORKS + ("imagenet_utils",):
        raise AttributeError(f"module 'tapegrad.keras.applications' has no attribute {name!r}: the "
                             f"networks' preprocessing is in {', '.join(NETWORKS)}")
    return importlib.import_module(f".{name}", __name__)
