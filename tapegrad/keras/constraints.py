"""``tapegrad.keras.constraints``: projections applied to a weight after each optimizer step
(Keras 3's formulas). Give one to a layer (``Dense(..., kernel_constraint=MaxNorm(2.0))``) or to
``add_weight(constraint=...)``.

>>> import numpy as np
>>> from tapegrad import keras
>>> keras.constraints.MaxNorm(1.0)(np.array([[3.0], [4.0]], np.float32)).numpy().round(4).ravel()
array([0.6, 0.8], dtype=float32)
"""
from __future__ import annotations

import inspect
from typing import Any

from ._engine import as_tensor, convert_to_tensor
from ._engine import Tensor
from ..ops.math import clip_by_value, maximum, sqrt, square
from ..ops.reduction import reduce_sum
from . import backend
from . import saving as _saving

__all__ = ["Constraint", "MaxNorm", "MinMaxNorm", "NonNeg", "UnitNorm", "max_norm",
           "min_max_norm", "non_neg", "unit_norm", "get", "serialize", "deserialize"]


def _float_weight(w: Any) -> Tensor:
    w = as_tensor(w)
    return w if w.dtype.is_floating else convert_to_tensor(w.numpy(), backend.floatx())


def _norms(w: Tensor, axis: Any) -> Tensor:
    return sqrt(reduce_sum(square(w), axis=axis, keepdims=True))


class Constraint:
    """Base class: ``constraint(w)`` returns the projected weight (here: ``w`` unchanged)."""

    def __call__(self, w: Any) -> Any:
        return w

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict) -> "Constraint":
        return cls(**config)


class MaxNorm(Constraint):
    """Rescale the slices along ``axis`` whose L2 norm exceeds ``max_value`` to that norm:
    ``w * clip(norm, 0, max_value) / (epsilon + norm)``."""

    def __init__(self, max_value: float = 2, axis: Any = 0) -> None:
        self.max_value, self.axis = max_value, axis

    def __call__(self, w: Any) -> Tensor:
        w = _float_weight(w)
        norms = _norms(w, self.axis)
        desired = clip_by_value(norms, 0.0, float(self.max_value))
        return w * (desired / (backend.epsilon() + norms))

    def get_config(self) -> dict:
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    """Negative entries become 0."""

    def __call__(self, w: Any) -> Tensor:
        w = as_tensor(w)
        return maximum(w, convert_to_tensor(0, w.dtype))


class UnitNorm(Constraint):
    """Slices along ``axis`` divided by their L2 norm (plus Keras's epsilon)."""

    def __init__(self, axis: Any = 0) -> None:
        self.axis = axis

    def __call__(self, w: Any) -> Tensor:
        w = _float_weight(w)
        return w / (backend.epsilon() + _norms(w, self.axis))

    def get_config(self) -> dict:
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """Move each slice's L2 norm towards ``[min_value, max_value]``:
    ``desired = rate * clip(norm, min_value, max_value) + (1 - rate) * norm``."""

    def __init__(self, min_value: float = 0.0, max_value: float = 1.0, rate: float = 1.0,
                 axis: Any = 0) -> None:
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w: Any) -> Tensor:
        w = _float_weight(w)
        norms = _norms(w, self.axis)
        desired = (self.rate * clip_by_value(norms, float(self.min_value), float(self.max_value))
                   + (1 - self.rate) * norms)
        return w * (desired / (backend.epsilon() + norms))

    def get_config(self) -> dict:
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": self.axis}


max_norm, min_max_norm, non_neg, unit_norm = MaxNorm, MinMaxNorm, NonNeg, UnitNorm
_ALL = {"Constraint": Constraint, "MaxNorm": MaxNorm, "MinMaxNorm": MinMaxNorm, "NonNeg": NonNeg,
        "UnitNorm": UnitNorm, "constraint": Constraint, "max_norm": MaxNorm,
        "min_max_norm": MinMaxNorm, "non_neg": NonNeg, "unit_norm": UnitNorm}


def serialize(constraint: Constraint) -> dict:
    """``{"module", "class_name", "config", "registered_name"}`` of a constraint, as
    ``keras.saving.serialize_keras_object`` gives (a registered class of your own too)."""
    return _saving.serialize_keras_object(constraint)


def deserialize(config: dict, custom_objects: dict | None = None) -> Constraint:
    """The constraint that :func:`serialize` described; a class of your own (registered with
    ``keras.saving.register_keras_serializable``, or named in ``custom_objects``) too."""
    if not isinstance(config, dict):
        raise ValueError(f"Could not interpret constraint config: {config!r} (expected a dict from serialize()).")
    cls = _ALL.get(config.get("class_name"))
    if cls is None or custom_objects and config.get("class_name") in custom_objects:
        obj = _saving.deserialize_keras_object(config, custom_objects=custom_objects)
        if not isinstance(obj, Constraint):
            raise ValueError(f"Could not interpret constraint config: {config!r}")
        return obj
    return cls.from_config(config.get("config", {}))


def get(identifier: Any) -> Any:
    """A constraint from a name (``"max_norm"``, ``"NonNeg"``), a config dict, a class, an
    instance or a callable; ``None`` gives ``None``."""
    if identifier is None:
        return None
    obj = deserialize(identifier) if isinstance(identifier, dict) else (
        _ALL.get(identifier) if isinstance(identifier, str) else identifier)
    if callable(obj):
        return obj() if inspect.isclass(obj) else obj
    raise ValueError(f"Could not interpret constraint identifier: {identifier!r}"
                     + (f"; known names: {sorted(_ALL)}" if isinstance(identifier, str) else
                        f" (a {type(identifier).__name__}); expected a name, a dict, a "
                        "Constraint or a callable."))
