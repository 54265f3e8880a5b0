"""``tapegrad.keras.optimizers``: tapegrad's optimizers and learning-rate schedules under Keras's
names, and :func:`get` for ``compile(optimizer="adam")``.

>>> from tapegrad import keras
>>> type(keras.optimizers.get("adam")).__name__, keras.optimizers.Adam is keras.optimizers.get("Adam").__class__
('Adam', True)
"""
from __future__ import annotations

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
    "Nadam",
    "Optimizer",
    "RMSprop",
    "ScheduleFreeAdamW",
    "deserialize",
    "get",
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
