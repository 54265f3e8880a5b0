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
    """``{"class_name": ..., "config": ...}`` of an optimizer."""
    return {"module": "keras.optimizers", "class_name": type(optimizer).__name__,
            "config": optimizer.get_config(), "registered_name": None}


def deserialize(config: dict) -> Optimizer:
    """The optimizer that :func:`serialize` described."""
    cls = _BY_NAME.get(str(config.get("class_name", "")).lower())
    if cls is None:
        raise ValueError(f"Could not interpret optimizer config: {config!r}")
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
