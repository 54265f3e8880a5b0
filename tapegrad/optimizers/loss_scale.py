"""``LossScaleOptimizer``: Keras 3's dynamic loss scaling around another optimizer."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._tensor import IndexedSlices
from .._variable import Variable
from .optimizer import Optimizer, deserialize, serialize

__all__ = ["LossScaleOptimizer"]

_BASE_DEFAULTS = {"weight_decay": None, "clipnorm": None, "global_clipnorm": None, "clipvalue": None,
                  "use_ema": False, "ema_momentum": 0.99, "ema_overwrite_frequency": None,
                  "loss_scale_factor": None, "gradient_accumulation_steps": None}


def _values(g: Any) -> np.ndarray:
    g = g.values if isinstance(g, IndexedSlices) else g
    return np.asarray(g.numpy() if hasattr(g, "numpy") else g)


class LossScaleOptimizer(Optimizer):
    """Dynamic loss scaling (for float16 training): :meth:`scale_loss` multiplies the loss by a
    scale (``initial_scale`` at first); :meth:`apply` divides the gradients by it and lets
    ``inner_optimizer`` apply them when they are all finite, and otherwise skips the step and
    halves the scale. After ``dynamic_growth_steps`` finite steps in a row the scale doubles.

    >>> import tapegrad as tf
    >>> opt = tf.keras.optimizers.LossScaleOptimizer(tf.keras.optimizers.SGD(0.5), initial_scale=4.0)
    >>> x = tf.Variable(1.0)
    >>> _ = opt.apply_gradients([(tf.constant(8.0), x)])  # the gradient of a loss scaled by 4
    >>> float(x), float(opt.dynamic_scale)
    (0.0, 4.0)
    >>> _ = opt.apply_gradients([(tf.constant(float("inf")), x)])  # skipped, scale halved
    >>> float(x), float(opt.dynamic_scale)
    (0.0, 2.0)
    """

    def __init__(self, inner_optimizer: Optimizer, initial_scale: float = 2.0 ** 15,
                 dynamic_growth_steps: int = 2000, name: str | None = None, **kwargs: Any) -> None:
        if not kwargs.pop("dynamic", True):
            raise ValueError("LossScaleOptimizer no longer supports `dynamic=False`. Instead, simply "
                             "set `loss_scale_factor` directly on the `inner_optimizer`.")
        for arg, default in _BASE_DEFAULTS.items():
            if arg in kwargs and kwargs.pop(arg) != default:
                raise ValueError(f"LossScaleOptimizer does not support `{arg}`. Instead, set "
                                 f"`{arg}` on the `inner_optimizer`.")
        if kwargs:
            raise ValueError("LossScaleOptimizer does not support arguments: "
                             f"`{'`, `'.join(kwargs)}`.")
        if not isinstance(inner_optimizer, Optimizer):
            raise TypeError("LossScaleOptimizer wraps an optimizer (e.g. keras.optimizers.Adam()); "
                            f"got {inner_optimizer!r}.")
        super().__init__(0.0, name=name)
        self.inner_optimizer = inner_optimizer
        self.initial_scale, self.dynamic_growth_steps = initial_scale, dynamic_growth_steps
        inner_optimizer.loss_scale_factor = None
        self.step_counter = self._own_variable(np.int64(0), "step_counter")
        self.dynamic_scale = self._own_variable(np.float32(initial_scale), "dynamic_scale")

    @property
    def variables(self) -> list[Variable]:
        return [self.step_counter, self.dynamic_scale] + self.inner_optimizer.variables

    def build(self, var_list: Any) -> None:
        self.inner_optimizer.build(var_list)

    @property
    def learning_rate(self) -> Any:
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value: Any) -> None:
        self.inner_optimizer.learning_rate = value

    @property
    def iterations(self) -> Any:
        return self.inner_optimizer.iterations

    def scale_loss(self, loss: Any) -> Any:
        return loss * self.dynamic_scale

    def finalize_variable_values(self, var_list: Sequence[Variable]) -> None:
        self.inner_optimizer.finalize_variable_values(var_list)

    def apply(self, grads: Sequence[Any], trainable_variables: Sequence[Variable] | None = None) -> Any:
        grads = list(grads)
        if not grads:
            return self.iterations
        if all(np.isfinite(_values(g)).all() for g in grads if g is not None):
            scale = self.dynamic_scale.read_value()
            unscaled = [g if g is None else IndexedSlices(g.values / scale, g.indices, g.dense_shape)
                        if isinstance(g, IndexedSlices) else g / scale for g in grads]
            self.inner_optimizer.apply(unscaled, trainable_variables)
            if int(self.step_counter.numpy()) == self.dynamic_growth_steps - 1:
                self.step_counter.assign(np.int64(0))
                self.dynamic_scale.assign(self.dynamic_scale.numpy() * np.float32(2))
            else:
                self.step_counter.assign_add(np.int64(1))
        else:
            self.step_counter.assign(np.int64(0))
            self.dynamic_scale.assign(self.dynamic_scale.numpy() * np.float32(0.5))
        return self.iterations

    def get_config(self) -> dict:
        return {"name": self.name, "inner_optimizer": serialize(self.inner_optimizer),
                "initial_scale": self.initial_scale, "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config: dict) -> LossScaleOptimizer:
        config = dict(config)
        return cls(deserialize(config.pop("inner_optimizer")), **config)
