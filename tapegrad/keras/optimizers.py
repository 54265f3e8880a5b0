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
from ..optimizers.optimizer import _BY_NAME, deserialize, optimizer_class, serialize

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


def get(identifier: Any) -> Optimizer:
    """An optimizer from a name (``"adam"``, ``"SGD"``: default arguments), a config dict or an
    optimizer instance."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        cls = optimizer_class(identifier)
        if cls is None:
            raise ValueError(f"Could not interpret optimizer identifier: {identifier!r}; "
                             f"known optimizers: {sorted(_BY_NAME)}")
        return cls()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r} "
                     f"(a {type(identifier).__name__}); expected a name or an optimizer.")
