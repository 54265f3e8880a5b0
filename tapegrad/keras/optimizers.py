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
    schedules,
)
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

_BY_NAME = {c.__name__.lower(): c for c in (SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, Adafactor,
                                            Adamax, Ftrl, Lamb, Lion, Nadam, LossScaleOptimizer,
                                            ScheduleFreeAdamW)}


def serialize(optimizer: Optimizer) -> dict:
    """``{"module", "class_name", "config", "registered_name"}`` of an optimizer, as
    ``keras.saving.serialize_keras_object`` gives (a registered class of your own too)."""
    return _saving.serialize_keras_object(optimizer)


def deserialize(config: dict, custom_objects: dict | None = None) -> Optimizer:
    """The optimizer that :func:`serialize` described; a class of your own (registered with
    ``keras.saving.register_keras_serializable``, or named in ``custom_objects``) too."""
    if not isinstance(config, dict):
        raise ValueError(f"Could not interpret optimizer config: {config!r} (expected a dict from serialize()).")
    cls = _BY_NAME.get(str(config.get("class_name", "")).lower())
    if cls is None or custom_objects and config.get("class_name") in custom_objects:
        obj = _saving.deserialize_keras_object(config, custom_objects=custom_objects)
        if not isinstance(obj, Optimizer):
            raise ValueError(f"Could not interpret optimizer config: {config!r}")
        return obj
    return cls.from_config(config.get("config", {}))


def get(identifier: Any) -> Optimizer:
    """An optimizer from a name (``"adam"``, ``"SGD"``: default arguments), a config dict or an
    optimizer instance."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        cls = _BY_NAME.get(identifier.lower())
        if cls is None:
            raise ValueError(f"Could not interpret optimizer identifier: {identifier!r}; "
                             f"known optimizers: {sorted(_BY_NAME)}")
        return cls()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r} "
                     f"(a {type(identifier).__name__}); expected a name or an optimizer.")
