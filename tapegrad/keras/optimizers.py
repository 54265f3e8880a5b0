"""``tapegrad.keras.optimizers``: tapegrad's optimizers and learning-rate schedules under Keras's
names, and :func:`get` for ``compile(optimizer="adam")``.

>>> from tapegrad import keras
>>> type(keras.optimizers.get("adam")).__name__, keras.optimizers.Adam is keras.optimizers.get("Adam").__class__
('Adam', True)
"""
from __future__ import annotations

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
    deserialize,
    get,
    schedules,
    serialize,
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
