"""Keras 3's ``keras.optimizers.Muon``: momentum orthogonalised by Newton-Schulz iterations for
the 2-D variables, AdamW for the others (and for the embeddings and the excluded layers)."""
from __future__ import annotations

import re
from typing import Any

import numpy as np

from ._engine import Variable
from ..optimizers import Optimizer


def _f32(value: Any, x: np.ndarray) -> Any:
    """A hyper-parameter as Keras's ``ops.cast(value, dtype)`` gives it (through float32)."""
    return x.dtype.type(np.float32(value))


class Muon(Optimizer):
    """Muon (Keller Jordan; Liu et al., 2025, with its RMS scaling ``rms_rate``): a 2-D variable
    steps by ``lr * NS(g + momentum * m) * sqrt(max(n, m)) * rms_rate``, ``NS`` ``ns_steps``
    Newton-Schulz iterations (``muon_a``, ``muon_b``, ``muon_c``) of the Nesterov momentum;
    other variables, and those whose path names an embedding (``exclude_embeddings``) or matches
    a pattern of ``exclude_layers``, take AdamW steps (``adam_beta_1``, ``adam_beta_2``,
    ``epsilon``, learning rate times ``adam_lr_ratio``). Weight decay: ``weight_decay`` for the
    Muon variables, ``adam_weight_decay`` for the others.

    >>> import numpy as np
    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> w = keras.Variable(np.eye(2, dtype="float32"))
    >>> _ = keras.optimizers.Muon(learning_rate=0.1, weight_decay=None).apply_gradients([(tf.ones((2, 2)), w)])
    >>> w.numpy().round(4)
    array([[ 0.9902, -0.0098],
           [-0.0098,  0.9902]], dtype=float32)
    """

    _slots = ("momentum", "velocity")

    def __init__(self, learning_rate: Any = 0.001, adam_beta_1: float = 0.9, adam_beta_2: float = 0.999,
                 adam_weight_decay: float | None = 0.004, epsilon: float = 1e-7, weight_decay: float | None = 0.004,
                 clipnorm: float | None = None, clipvalue: float | None = None, global_clipnorm: float | None = None,
                 use_ema: bool = False, ema_momentum: float = 0.99, ema_overwrite_frequency: int | None = None,
                 loss_scale_factor: float | None = None, gradient_accumulation_steps: int | None = None,
                 name: str | None = None, exclude_layers: list | None = None, exclude_embeddings: bool = True,
                 muon_a: float = 3.4445, muon_b: float = -4.7750, muon_c: float = 2.0315, adam_lr_ratio: float = 1,
                 momentum: float = 0.95, ns_steps: int = 5, nesterov: bool = True, rms_rate: float | None = 0.2,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm, name, use_ema=use_ema,
                         ema_momentum=ema_momentum, ema_overwrite_frequency=ema_overwrite_frequency,
                         loss_scale_factor=loss_scale_factor, gradient_accumulation_steps=gradient_accumulation_steps,
                         **kwargs)
        self.adam_beta_1, self.adam_beta_2, self.epsilon = adam_beta_1, adam_beta_2, epsilon
        self.muon_a, self.muon_b, self.muon_c = muon_a, muon_b, muon_c
        self.adam_lr_ratio, self.momentum, self.ns_steps, self.nesterov = adam_lr_ratio, momentum, ns_steps, nesterov
        self.exclude_embeddings, self.exclude_layers = exclude_embeddings, exclude_layers or []
        self.adam_weight_decay, self.rms_rate = adam_weight_decay, rms_rate
        self._adam = False

    def _should_use_adamw(self, variable: Variable) -> bool:
        """Keras's rule: AdamW unless the variable is 2-D, not an embedding (by its path) and
        matches no pattern of ``exclude_layers``."""
        if len(variable.shape) != 2:
            return True
        path = str(getattr(variable, "path", None) or variable.name)
        if self.exclude_embeddings and "embedding" in path.lower():
            return True
        return any(re.search(k, path) for k in self.exclude_layers)

    def _decay(self, v: Variable, lr: Any) -> None:
        value = self.adam_weight_decay if self._should_use_adamw(v) else self.weight_decay
        if value is not None:
            x = v.numpy()
            v.assign(x - x * _f32(value, x) * lr)

    def _apply_one(self, g: Any, v: Variable, i: int, lr: Any, step: int) -> None:
        self._adam = self._should_use_adamw(v)
        if self.weight_decay is None and self._adam and self._decays(v):   # (the base decays only with weight_decay)
            self._decay(v, lr)
        super()._apply_one(g, v, i, lr, step)

    def _update(self, x: np.ndarray, g: np.ndarray, s: dict, lr: Any, t: int) -> np.ndarray:
        g = g.astype(x.dtype)
        if self._adam:
            lr = lr * x.dtype.type(self.adam_lr_ratio)
            b1, b2 = _f32(self.adam_beta_1, x), _f32(self.adam_beta_2, x)
            step = x.dtype.type(t)
            one = x.dtype.type(1)
            alpha = lr * np.sqrt(one - b2 ** step) / (one - b1 ** step)
            m, v = s["momentum"], s["velocity"]
            s["momentum"] = m = m + (g - m) * (one - b1)
            s["velocity"] = v = v + (self._square(g) - v) * (one - b2)   # (per slice, as Keras squares IndexedSlices)
            return x - (m * alpha) / (np.sqrt(v) + _f32(self.epsilon, x))
        m = s["momentum"]
        s["momentum"] = m = m + (g + m * _f32(self.momentum - 1, x))
        d = g + _f32(self.momentum, x) * m if self.nesterov else m
        update = self._newton_schulz(d)
        update = lr * update
        if self.rms_rate is not None:
            update = update * np.sqrt(np.float32(max(x.shape[0], x.shape[1]))).astype(x.dtype)
            update = update * _f32(self.rms_rate, x)
        return x - update

    def _newton_schulz(self, x: np.ndarray) -> np.ndarray:
        """Keras's ``zeropower_via_newtonschulz5``: the quintic iteration toward ``U V^T``."""
        a, b, c = (_f32(k, x) for k in (self.muon_a, self.muon_b, self.muon_c))
        tall = x.shape[-2] > x.shape[-1]
        x = np.swapaxes(x, -1, -2) if tall else x
        x = x / (np.sqrt(np.sum(np.square(x), axis=(-2, -1), keepdims=True)) + _f32(1e-7, x))
        for _ in range(self.ns_steps):
            p = x @ np.swapaxes(x, -1, -2)
            q = b * p + (c * p) @ p
            x = a * x + q @ x
        return np.swapaxes(x, -1, -2) if tall else x

    def get_config(self) -> dict:
        return {**super().get_config(), "adam_beta_1": self.adam_beta_1, "adam_beta_2": self.adam_beta_2,
                "epsilon": self.epsilon, "exclude_layers": self.exclude_layers, "muon_a": self.muon_a,
                "muon_b": self.muon_b, "muon_c": self.muon_c, "adam_lr_ratio": self.adam_lr_ratio,
                "momentum": self.momentum, "ns_steps": self.ns_steps, "nesterov": self.nesterov,
                "exclude_embeddings": self.exclude_embeddings, "adam_weight_decay": self.adam_weight_decay,
                "rms_rate": self.rms_rate}
