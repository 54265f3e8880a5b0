"""``tapegrad.keras.mixed_precision``: dtype policies and :class:`LossScaleOptimizer`.

A policy names the dtype of a layer's computations and of its weights. tapegrad's layers compute
in the dtype of their weights, so the policies it runs are the single-dtype ones (``"float32"``,
``"float64"``, ``"float16"``): :func:`set_global_policy` makes layers created
afterwards use that dtype, as Keras does. The mixed policies (``"mixed_float16"``,
``"mixed_bfloat16"``: float16 computations on float32 weights) raise ``NotImplementedError``
saying so; :class:`LossScaleOptimizer` works with any policy.

>>> from tapegrad import keras
>>> keras.mixed_precision.set_global_policy("float64")
>>> keras.layers.Dense(2).dtype, keras.backend.floatx()
('float64', 'float32')
>>> keras.mixed_precision.set_global_policy(None)
>>> keras.mixed_precision.global_policy()
<DTypePolicy "float32">
"""
from __future__ import annotations

from typing import Any

from ..optimizers.loss_scale import LossScaleOptimizer
from . import backend

__all__ = [
    "DTypePolicy",
    "LossScaleOptimizer",
    "Policy",
    "dtype_policy",
    "global_policy",
    "set_dtype_policy",
    "set_global_policy",
]

_FLOATS = ("float16", "bfloat16", "float32", "float64")
_MIXED = ("mixed_float16", "mixed_bfloat16")


class DTypePolicy:
    """A dtype policy: ``name`` is a float dtype (``compute_dtype == variable_dtype == name``);
    ``None`` means ``keras.backend.floatx()``."""

    def __init__(self, name: str | None = None) -> None:
        name = backend.floatx() if name is None else name
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, such as 'mixed_float16'. Received: name={name} "
                            f"(of type {type(name)})")
        if name in _MIXED:
            raise NotImplementedError(
                f"The {name!r} policy computes in {name[6:]} on float32 weights; tapegrad's layers "
                "compute in the dtype of their weights, so mixed precision is not available. Train "
                "in float32 (the default), or set_global_policy('float16') to keep weights and "
                "computations in float16; LossScaleOptimizer works with either.")
        if name not in _FLOATS:
            raise ValueError(f"Cannot convert '{name}' to a mixed precision DTypePolicy. Valid "
                             "policies include 'mixed_float16', 'mixed_bfloat16', and the name of "
                             "any float dtype such as 'float32'.")
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    @property
    def compute_dtype(self) -> str:
        return self._name

    @property
    def variable_dtype(self) -> str:
        return self._name

    @property
    def quantization_mode(self) -> None:
        return None

    def get_config(self) -> dict:
        return {"name": self._name}

    @classmethod
    def from_config(cls, config: dict) -> DTypePolicy:
        return cls(**config)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DTypePolicy) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self._name)

    def __repr__(self) -> str:
        return f'<DTypePolicy "{self._name}">'


Policy = DTypePolicy


def set_global_policy(policy: Any) -> None:
    """Make ``policy`` (a :class:`DTypePolicy`, a dtype name, or ``None`` for ``floatx()``) the
    default of layers created afterwards."""
    if policy is not None and not isinstance(policy, DTypePolicy):
        policy = DTypePolicy(str(policy))
    backend._state["dtype_policy"] = None if policy is None else policy.name


def global_policy() -> DTypePolicy:
    """The policy of new layers (``DTypePolicy(floatx())`` unless one was set)."""
    return DTypePolicy(backend._state.get("dtype_policy"))


dtype_policy = global_policy
set_dtype_policy = set_global_policy
