"""Learning-rate schedules (Keras 3's ``keras.optimizers.schedules``).

A schedule is a callable ``schedule(step) -> learning rate``; pass one as an optimizer's
``learning_rate`` and the optimizer calls it with its ``iterations`` count before every update.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._convert import constant, convert_to_tensor
from .._tensor import Tensor
from .._variable import Variable

__all__ = ["LearningRateSchedule", "ExponentialDecay", "CosineDecay"]


def _as_array(x: Any) -> np.ndarray:
    if isinstance(x, Variable):
        return np.asarray(x.numpy())
    if isinstance(x, Tensor):
        return np.asarray(x.numpy())
    return np.asarray(x)


def _initial(value: Any) -> np.ndarray:
    """The initial learning rate as an array of its own dtype (Python floats: float32)."""
    if isinstance(value, (Tensor, Variable)):
        return _as_array(value)
    return np.asarray(convert_to_tensor(value).numpy())


def _cast(value: Any, dt: np.dtype) -> Any:
    """``value`` in dtype ``dt`` as Keras's ``ops.cast`` gives it (Python floats pass through float32)."""
    if isinstance(value, float):
        value = np.float32(value)
    return dt.type(value)


def _check_steps(name: str, value: Any) -> None:
    if value <= 0:
        raise ValueError(f"Argument `{name}` must be > 0. Received: {name}={value}")


class LearningRateSchedule:
    """Base class: subclasses define ``__call__(step)`` and ``get_config()``."""

    def __call__(self, step: Any) -> Tensor:
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must override "
                                  "`__call__(self, step)`.")

    def get_config(self) -> dict:
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must override "
                                  "`get_config()`.")

    @classmethod
    def from_config(cls, config: dict) -> "LearningRateSchedule":
        return cls(**config)


class ExponentialDecay(LearningRateSchedule):
    """``initial_learning_rate * decay_rate ** (step / decay_steps)``.

    With ``staircase=True`` the exponent is ``floor(step / decay_steps)``, so the rate drops in
    steps. The result has the dtype of ``initial_learning_rate`` (float32 for a Python float).

    >>> import tapegrad as tf
    >>> s = tf.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
    >>> round(float(s(10)), 6), round(float(s(5)), 6)
    (0.05, 0.070711)
    """

    def __init__(self, initial_learning_rate: Any, decay_steps: Any, decay_rate: Any,
                 staircase: bool = False, name: str = "ExponentialDecay") -> None:
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name
        _check_steps("decay_steps", decay_steps)

    def __call__(self, step: Any) -> Tensor:
        lr0 = _initial(self.initial_learning_rate)
        dt = lr0.dtype
        p = _as_array(step).astype(dt) / _cast(self.decay_steps, dt)
        if self.staircase:
            p = np.floor(p)
        return constant(lr0 * np.power(_cast(self.decay_rate, dt), p))

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class CosineDecay(LearningRateSchedule):
    """Cosine decay from the initial rate to ``alpha`` times it, with an optional linear warmup.

    Without warmup: ``lr(step) = initial * ((1 - alpha) * 0.5 * (1 + cos(pi * s / decay_steps)) + alpha)``
    with ``s = min(step, decay_steps)``. With ``warmup_target`` set, the rate first rises
    linearly from ``initial_learning_rate`` to ``warmup_target`` over ``warmup_steps`` steps,
    then decays from ``warmup_target`` by the formula above with ``s = step - warmup_steps``.

    >>> import tapegrad as tf
    >>> s = tf.optimizers.schedules.CosineDecay(1.0, decay_steps=100)
    >>> [round(float(s(step)), 6) for step in (0, 50, 200)]
    [1.0, 0.5, 0.0]
    """

    def __init__(self, initial_learning_rate: Any, decay_steps: Any, alpha: Any = 0.0,
                 name: str = "CosineDecay", warmup_target: Any = None, warmup_steps: Any = 0) -> None:
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name
        self.warmup_steps = warmup_steps
        self.warmup_target = warmup_target
        _check_steps("decay_steps", decay_steps)

    def _decay(self, step: np.ndarray, start: np.ndarray) -> np.ndarray:
        dt = start.dtype
        frac = step / _cast(self.decay_steps, dt)
        cosine = dt.type(0.5) * (dt.type(1.0) + np.cos(dt.type(math.pi) * frac))
        alpha = dt.type(self.alpha)
        return start * ((dt.type(1.0) - alpha) * cosine + alpha)

    def __call__(self, step: Any) -> Tensor:
        lr0 = _initial(self.initial_learning_rate)
        dt = lr0.dtype
        s = _as_array(step).astype(dt)
        decay_steps = _cast(self.decay_steps, dt)
        if self.warmup_target is None:
            return constant(self._decay(np.minimum(s, decay_steps), lr0))
        target = _cast(self.warmup_target, dt)
        warmup = _cast(self.warmup_steps, dt)
        s = np.minimum(s, decay_steps + warmup)
        if s < warmup:
            out = (target - lr0) * (s / warmup) + lr0
        else:
            out = self._decay(s - warmup, np.asarray(target))
        return constant(np.asarray(out, dt))

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha, "name": self.name,
                "warmup_target": self.warmup_target, "warmup_steps": self.warmup_steps}
