"""``tapegrad.keras.regularizers``: weight penalties added to a model's loss (Keras 3's).

>>> import numpy as np
>>> from tapegrad import keras
>>> round(float(keras.regularizers.L1L2(l1=0.1, l2=0.01)(np.array([1.0, -2.0], np.float32))), 6)
0.35
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ._engine import as_tensor, convert_to_tensor
from ._engine import Tensor
from ..ops.math import abs as _abs, square
from ..ops.reduction import reduce_sum
from . import backend, saving as _saving

__all__ = ["Regularizer", "L1", "L2", "L1L2", "l1", "l2", "l1_l2", "get",
           "serialize", "deserialize"]


def _factor(name: str, value: Any) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"Invalid value for argument {name}: expected a float. "
                         f"Received: {name}={value!r}") from None
    if value != value or value < 0 or value == float("inf"):
        raise ValueError(f"Invalid value for argument {name}: expected a non-negative finite float. "
                         f"Received: {name}={value}")
    return value


class Regularizer:
    """Base class: ``regularizer(weight)`` returns a scalar penalty."""

    def __call__(self, x: Any) -> Any:
        return 0.0

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict) -> "Regularizer":
        return cls(**config)


class L1L2(Regularizer):
    """``l1 * Σ|x| + l2 * Σx²``."""

    def __init__(self, l1: float = 0.0, l2: float = 0.0) -> None:
        self.l1, self.l2 = _factor("l1", l1), _factor("l2", l2)

    def __call__(self, x: Any) -> Tensor:
        x = as_tensor(x)
        out = convert_to_tensor(0.0, x.dtype)
        if self.l1:
            out = out + self.l1 * reduce_sum(_abs(x))
        if self.l2:
            out = out + self.l2 * reduce_sum(square(x))
        return out

    def get_config(self) -> dict:
        return {"l1": self.l1, "l2": self.l2}


class L1(Regularizer):
    """``l1 * Σ|x|`` (default ``l1=0.01``)."""

    def __init__(self, l1: float = 0.01) -> None:
        # (Keras 3 holds L1's factor as a tensor of floatx: its config and penalty use that value)
        self.l1 = float(np.asarray(_factor("l1", 0.01 if l1 is None else l1), backend.floatx()))

    def __call__(self, x: Any) -> Tensor:
        return self.l1 * reduce_sum(_abs(as_tensor(x)))

    def get_config(self) -> dict:
        return {"l1": self.l1}


class L2(Regularizer):
    """``l2 * Σx²`` (default ``l2=0.01``)."""

    def __init__(self, l2: float = 0.01) -> None:
        self.l2 = _factor("l2", l2)

    def __call__(self, x: Any) -> Tensor:
        return self.l2 * reduce_sum(square(as_tensor(x)))

    def get_config(self) -> dict:
        return {"l2": self.l2}


l1, l2, l1_l2 = L1, L2, L1L2
_ALL = {"L1": L1, "L2": L2, "L1L2": L1L2, "l1": L1, "l2": L2, "l1_l2": L1L2}


def serialize(regularizer: Regularizer) -> dict:
    """``{"module", "class_name", "config", "registered_name"}`` of a regularizer, as
    ``keras.saving.serialize_keras_object`` gives (a registered class of your own too)."""
    return _saving.serialize_keras_object(regularizer)


def deserialize(config: dict, custom_objects: dict | None = None) -> Regularizer:
    """The regularizer that :func:`serialize` described; a class of your own (registered with
    ``keras.saving.register_keras_serializable``, or named in ``custom_objects``) too."""
    if not isinstance(config, dict):
        raise ValueError(f"Could not interpret regularizer config: {config!r} (expected a dict from serialize()).")
    cls = _ALL.get(config.get("class_name"))
    if cls is None or custom_objects and config.get("class_name") in custom_objects:
        obj = _saving.deserialize_keras_object(config, custom_objects=custom_objects)
        if not isinstance(obj, Regularizer):
            raise ValueError(f"Could not interpret regularizer config: {config!r}")
        return obj
    return cls.from_config(config.get("config", {}))


def get(identifier: Any) -> Any:
    """A regularizer from a name (``"l2"``: default factor), a config dict, an instance or a
    callable; ``None`` gives ``None``."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        cls = _ALL.get(identifier)
        if cls is None:
            raise ValueError(f"Could not interpret regularizer identifier: {identifier!r}; "
                             f"known names: {sorted(_ALL)}")
        return cls()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret regularizer identifier: {identifier!r} "
                     f"(a {type(identifier).__name__}).")
