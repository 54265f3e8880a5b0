"""Learning-rate schedules (Keras 3's ``keras.optimizers.schedules``).

A schedule is a callable ``schedule(step) -> learning rate``; pass one as an optimizer's
``learning_rate`` and the optimizer calls it with its ``iterations`` count before every update.
The rate has the dtype of the initial learning rate (float32 for a Python float), computed in
that dtype as Keras computes it.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._convert import constant, convert_to_tensor
from .._tensor import Tensor
from .._variable import Variable

__all__ = ["LearningRateSchedule", "ExponentialDecay", "PiecewiseConstantDecay", "PolynomialDecay",
           "InverseTimeDecay", "CosineDecay", "CosineDecayRestarts", "serialize", "deserialize"]


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


class _StepDecay(LearningRateSchedule):
    """Schedules of ``step / decay_steps`` (floored with ``staircase``) and a ``decay_rate``."""

    def __init__(self, initial_learning_rate: Any, decay_steps: Any, decay_rate: Any,
                 staircase: bool, name: str) -> None:
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name
        _check_steps("decay_steps", decay_steps)

    def _progress(self, step: Any) -> tuple:
        lr0 = _initial(self.initial_learning_rate)
        dt = lr0.dtype
        p = _as_array(step).astype(dt) / _cast(self.decay_steps, dt)
        return lr0, dt, (np.floor(p) if self.staircase else p)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class ExponentialDecay(_StepDecay):
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
        _StepDecay.__init__(self, initial_learning_rate, decay_steps, decay_rate, staircase, name)

    def __call__(self, step: Any) -> Tensor:
        lr0, dt, p = self._progress(step)
        return constant(lr0 * np.power(_cast(self.decay_rate, dt), p))



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


class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[0]`` up to and including ``boundaries[0]``, ``values[1]`` up to ``boundaries[1]``,
    ..., ``values[-1]`` after the last boundary.

    >>> import tapegrad as tf
    >>> s = tf.optimizers.schedules.PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.1])
    >>> [round(float(s(step)), 6) for step in (0, 10, 11, 20, 21)]
    [1.0, 1.0, 0.5, 0.5, 0.1]
    """

    def __init__(self, boundaries: list, values: list, name: str = "PiecewiseConstant") -> None:
        if len(boundaries) != len(values) - 1:
            raise ValueError("The length of boundaries should be 1 less than the length of "
                             f"values. Received: boundaries={boundaries} of length "
                             f"{len(boundaries)}, and values={values} of length {len(values)}.")
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def __call__(self, step: Any) -> Tensor:
        step = _as_array(convert_to_tensor(step))
        bounds = [_as_array(convert_to_tensor(b)).astype(step.dtype) for b in self.boundaries]
        values = [_initial(v) for v in self.values]
        dt = values[0].dtype
        i = sum(int(step > b) for b in bounds)   # the boundaries are increasing
        return constant(np.asarray(values[i], dt))

    def get_config(self) -> dict:
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """``(initial - end) * (1 - step / decay_steps) ** power + end``, with ``step`` capped at
    ``decay_steps``; with ``cycle=True``, ``decay_steps`` grows to the next multiple of itself
    above ``step`` instead, so the rate restarts.

    >>> import tapegrad as tf
    >>> s = tf.optimizers.schedules.PolynomialDecay(1.0, 10, end_learning_rate=0.0, power=2.0)
    >>> [round(float(s(step)), 6) for step in (0, 5, 20)]
    [1.0, 0.25, 0.0]
    """

    def __init__(self, initial_learning_rate: Any, decay_steps: Any, end_learning_rate: Any = 0.0001,
                 power: Any = 1.0, cycle: bool = False, name: str = "PolynomialDecay") -> None:
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name
        _check_steps("decay_steps", decay_steps)

    def __call__(self, step: Any) -> Tensor:
        lr0 = _initial(self.initial_learning_rate)
        dt = lr0.dtype
        end, power = _cast(self.end_learning_rate, dt), _cast(self.power, dt)
        s = _as_array(step).astype(dt)
        steps = _cast(self.decay_steps, dt)
        if self.cycle:
            steps = steps * (dt.type(1) if s == 0 else np.ceil(s / _cast(self.decay_steps, dt)))
        else:
            s = np.minimum(s, steps)
        p = s / steps
        return constant(np.asarray((lr0 - end) * np.power(dt.type(1) - p, power) + end, dt))

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "end_learning_rate": self.end_learning_rate,
                "power": self.power, "cycle": self.cycle, "name": self.name}


class InverseTimeDecay(_StepDecay):
    """``initial_learning_rate / (1 + decay_rate * step / decay_steps)``; with
    ``staircase=True``, ``step / decay_steps`` is floored.

    >>> import tapegrad as tf
    >>> s = tf.optimizers.schedules.InverseTimeDecay(1.0, decay_steps=10, decay_rate=0.5)
    >>> [round(float(s(step)), 6) for step in (0, 10, 20)]
    [1.0, 0.666667, 0.5]
    """

    def __init__(self, initial_learning_rate: Any, decay_steps: Any, decay_rate: Any,
                 staircase: bool = False, name: str = "InverseTimeDecay") -> None:
        _StepDecay.__init__(self, initial_learning_rate, decay_steps, decay_rate, staircase, name)

    def __call__(self, step: Any) -> Tensor:
        lr0, dt, p = self._progress(step)
        return constant(np.asarray(lr0 / (dt.type(1) + _cast(self.decay_rate, dt) * p), dt))



class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay with warm restarts (SGDR): a cosine decay over ``first_decay_steps``, then
    again from the top over ``t_mul`` times as many steps, with the peak multiplied by
    ``m_mul`` at each restart; the rate never falls below ``alpha`` times the initial one.

    >>> import tapegrad as tf
    >>> s = tf.optimizers.schedules.CosineDecayRestarts(1.0, 10, t_mul=2.0, m_mul=0.5)
    >>> [round(float(s(step)), 6) for step in (0, 5, 10, 20, 30)]
    [1.0, 0.5, 0.5, 0.25, 0.25]
    """

    def __init__(self, initial_learning_rate: Any, first_decay_steps: Any, t_mul: Any = 2.0,
                 m_mul: Any = 1.0, alpha: Any = 0.0, name: str = "SGDRDecay") -> None:
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = first_decay_steps
        self._t_mul = t_mul
        self._m_mul = m_mul
        self.alpha = alpha
        self.name = name
        _check_steps("first_decay_steps", first_decay_steps)

    def __call__(self, step: Any) -> Tensor:
        lr0 = _initial(self.initial_learning_rate)
        dt = lr0.dtype
        one = dt.type(1)
        t_mul, m_mul, alpha = (_cast(v, dt) for v in (self._t_mul, self._m_mul, self.alpha))
        frac = _as_array(step).astype(dt) / _cast(self.first_decay_steps, dt)
        if t_mul == one:
            restart = np.floor(frac)
            frac = frac - restart
        else:
            restart = np.floor(np.log(one - frac * (one - t_mul)) / np.log(t_mul))
            done = (one - np.power(t_mul, restart)) / (one - t_mul)
            frac = (frac - done) / np.power(t_mul, restart)
        cosine = dt.type(0.5) * np.power(m_mul, restart) * (one + np.cos(dt.type(math.pi) * frac))
        return constant(np.asarray(lr0 * ((one - alpha) * cosine + alpha), dt))

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "first_decay_steps": self.first_decay_steps, "t_mul": self._t_mul,
                "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}


def serialize(learning_rate_schedule: LearningRateSchedule) -> dict:
    """The schedule as a JSON-serialisable dict, in Keras's form.

    >>> import tapegrad as tf
    >>> s = tf.optimizers.schedules.InverseTimeDecay(0.1, 10, 0.5)
    >>> d = tf.optimizers.schedules.serialize(s)
    >>> d["class_name"], tf.optimizers.schedules.deserialize(d).get_config() == s.get_config()
    ('InverseTimeDecay', True)
    """
    if not isinstance(learning_rate_schedule, LearningRateSchedule):
        raise TypeError("Expected a LearningRateSchedule, got "
                        f"{type(learning_rate_schedule).__name__}.")
    return {"module": "keras.optimizers.schedules", "class_name": type(learning_rate_schedule).__name__,
            "config": learning_rate_schedule.get_config(), "registered_name": None}


def deserialize(config: dict, custom_objects: dict | None = None) -> LearningRateSchedule:
    """The schedule that :func:`serialize` gave ``config`` for (``custom_objects``: your own
    schedule classes by name)."""
    classes = {c.__name__: c for c in (ExponentialDecay, PiecewiseConstantDecay, PolynomialDecay,
                                       InverseTimeDecay, CosineDecay, CosineDecayRestarts)}
    classes.update(custom_objects or {})
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError("Expected a dict with 'class_name' and 'config' (what serialize returns); "
                         f"got {config!r}.")
    cls = classes.get(config["class_name"])
    if cls is None:
        raise ValueError(f"Unknown decay: '{config['class_name']}'. Please ensure you are using a "
                         "`keras.utils.custom_object_scope` and that this object is included in "
                         "the scope. Known: " + ", ".join(sorted(classes)) + ".")
    return cls.from_config(config.get("config", {}))
