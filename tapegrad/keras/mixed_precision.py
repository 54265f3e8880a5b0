"""``tapegrad.keras.mixed_precision``: dtype policies and :class:`LossScaleOptimizer`.

A policy names the dtype of a layer's computations and of its weights. The single-dtype policies
(``"float32"``, ``"float64"``, ``"float16"``) use one dtype for both; ``"mixed_float16"`` keeps
the weights in float32 and computes in float16, as Keras 3 does: a layer casts its float inputs to
float16 and, inside its ``call``, reads its float weights as float16 (autocast), so their
gradients arrive in float32; the normalization layers compute in float32; and ``compile`` wraps
the optimizer in a :class:`LossScaleOptimizer`. :func:`set_global_policy` sets the policy of
layers created afterwards; a layer's ``dtype`` argument sets its own (``dtype="float32"`` for a
model's final softmax, as the guides do).

>>> import numpy as np
>>> from tapegrad import keras
>>> keras.mixed_precision.set_global_policy("mixed_float16")
>>> layer = keras.layers.Dense(2)
>>> layer.compute_dtype, layer.variable_dtype
('float16', 'float32')
>>> layer(np.ones((1, 3), "float32")).dtype.name, layer.kernel.dtype.name
('float16', 'float32')
>>> keras.mixed_precision.set_global_policy(None)
>>> keras.mixed_precision.global_policy()
<DTypePolicy "float32">
"""
from __future__ import annotations

from typing import Any

import numpy as np

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
    """A dtype policy: ``"mixed_float16"`` (float16 computations on float32 weights), or a dtype
    name used for both (``"float32"``); ``None`` means ``keras.backend.floatx()``."""

    def __init__(self, name: str | None = None) -> None:
        name = backend.floatx() if name is None else name
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, such as 'mixed_float16'. Received: name={name} "
                            f"(of type {type(name)})")
        if name == "mixed_bfloat16":
            raise NotImplementedError(
                "The 'mixed_bfloat16' policy computes in bfloat16, a dtype NumPy does not have, so "
                "tapegrad cannot run it. Use 'mixed_float16' (float16 computations on float32 "
                "weights) or train in float32.")
        if name == "mixed_float16":
            self._compute, self._variable = "float16", "float32"
        else:
            try:
                dtype = backend.standardize_dtype(name)
            except TypeError:
                dtype = None
            if dtype is None or dtype not in _FLOATS and dtype != "string" and \
                    not np.issubdtype(np.dtype(dtype), np.number) and dtype != "bool":
                raise ValueError(f"Cannot convert '{name}' to a mixed precision DTypePolicy. Valid "
                                 "policies include 'mixed_float16', 'mixed_bfloat16', and the name "
                                 "of any dtype such as 'float32'.")
            self._compute = self._variable = dtype
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    @property
    def compute_dtype(self) -> str:
        """The dtype of the layer's computations (and of its outputs)."""
        return self._compute

    @property
    def variable_dtype(self) -> str:
        """The dtype of the layer's weights."""
        return self._variable

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
        policy = DTypePolicy(policy if isinstance(policy, str) else backend.standardize_dtype(policy))
    if policy is not None and "float" not in policy.compute_dtype:
        raise ValueError("set_global_policy can only be used to set the global policy to "
                         f"floating-point policies, such as 'float32' and 'mixed_float16', but got "
                         f"policy: {policy.name}")
    backend._state["dtype_policy"] = None if policy is None else policy.name


def global_policy() -> DTypePolicy:
    """The policy of new layers (``DTypePolicy(floatx())`` unless one was set)."""
    return DTypePolicy(backend._state.get("dtype_policy"))


dtype_policy = global_policy
set_dtype_policy = set_global_policy
