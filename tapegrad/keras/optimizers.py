"""``tapegrad.keras.optimizers``: tapegrad's optimizers and learning-rate schedules under Keras's
names, and :func:`get` for ``compile(optimizer="adam")``.

>>> from tapegrad import keras
>>> type(keras.optimizers.get("adam")).__name__, keras.optimizers.Adam is keras.optimizers.get("Adam").__class__
('Adam', True)
"""
from __future__ import annotations

import types
from typing import Any

from ..optimizers import (
    SGD,
    Adadelta,
    Adafactor,
    Adagrad,
    Adam,
    Adamax,
    AdamW,
    Ftrl,
    Lamb,
    Lion,
    LossScaleOptimizer,
    Nadam,
    Optimizer,
    RMSprop,
    ScheduleFreeAdamW,
    get,
    schedules,
)
from ..optimizers.optimizer import deserialize as _deserialize_builtin, optimizer_class
from . import saving as _saving
from .muon import Muon
from .multi_optimizer import MultiOptimizer, OptimizerMap

__all__ = [
    "SGD",
    "Adadelta",
    "Adafactor",
    "Adagrad",
    "Adam",
    "AdamW",
    "Adamax",
    "Ftrl",
    "Lamb",
    "Lion",
    "LossScaleOptimizer",
    "MultiOptimizer",
    "Muon",
    "Nadam",
    "Optimizer",
    "OptimizerMap",
    "RMSprop",
    "ScheduleFreeAdamW",
    "deserialize",
    "get",
    "legacy",
    "schedules",
    "serialize",
]


def serialize(optimizer: Optimizer) -> dict:
    """``{"module", "class_name", "config", "registered_name"}`` of an optimizer, as
    ``keras.saving.serialize_keras_object`` gives (a registered class of your own too)."""
    return _saving.serialize_keras_object(optimizer)


def deserialize(config: dict, custom_objects: dict | None = None) -> Optimizer:
    """The optimizer that :func:`serialize` described; a class of your own (registered with
    ``keras.saving.register_keras_serializable``, or named in ``custom_objects``) too."""
    if not isinstance(config, dict):
        raise ValueError(f"Could not interpret optimizer config: {config!r} (expected a dict from serialize()).")
    name: Any = config.get("class_name", "")
    if optimizer_class(name) is not None and not (custom_objects and name in custom_objects):
        return _deserialize_builtin(config)
    obj = _saving.deserialize_keras_object(config, custom_objects=custom_objects)
    if not isinstance(obj, Optimizer):
        raise ValueError(f"Could not interpret optimizer config: {config!r}")
    return obj


class LegacyOptimizerWarning:
    """``keras.optimizers.legacy.*``: Keras 3 has no Keras 2 optimizers; making one raises
    Keras 3's ImportError (``keras.optimizers.Adam`` and the others are the optimizers to use).

    >>> from tapegrad import keras
    >>> keras.optimizers.legacy.Adam(0.01)
    Traceback (most recent call last):
    ImportError: `keras.optimizers.legacy` is not supported in Keras 3. ...
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise ImportError("`keras.optimizers.legacy` is not supported in Keras 3. When using `tf.keras`, to "
                          "continue using a `tf.keras.optimizers.legacy` optimizer, you can install the "
                          "`tf_keras` package (Keras 2) and set the environment variable "
                          "`TF_USE_LEGACY_KERAS=True` to configure TensorFlow to use `tf_keras` when accessing "
                          "`tf.keras`. (With tapegrad, use keras.optimizers.Adam and the others: they are "
                          "Keras 3's.)")


legacy = types.SimpleNamespace(**dict.fromkeys(["Adagrad", "Adam", "Ftrl", "Optimizer", "RMSprop", "SGD"],
                                               LegacyOptimizerWarning))
