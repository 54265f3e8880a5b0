"""SGD, Adam, AdamW, RMSprop and Adagrad with Keras 3's update formulas and defaults.

Each ``_update`` is the formula for one step on NumPy arrays of the variable's dtype: ``x`` the
variable, ``g`` its gradient, ``s`` the slot arrays, ``lr`` the learning rate, ``t`` the step
number counted from 1.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _jit
from .optimizer import Optimizer, _shape_of, flush_subnormal

__all__ = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"]


def _cast(value: float, x: np.ndarray) -> Any:
    """A hyper-parameter as Keras's ``ops.cast(value, dtype)`` gives it: a Python float passes
    through float32 first (this matters for float64 variables)."""
    return x.dtype.type(np.float32(value))


def _tiny(x: np.ndarray) -> Any:
    """The smallest normal number of x's dtype: the kernels flush slot values below it to zero."""
    return x.dtype.type(np.finfo(x.dtype).tiny)


def _moment(g: np.ndarray, s: np.ndarray, c: Any, out: np.ndarray) -> np.ndarray:
    """``s + (g - s) * c`` into ``out`` (which may be ``g``), the same bits as that expression."""
    np.subtract(g, s, out=out)
    out *= c
    return np.add(s, out, out=out)   # (s + y == y + s exactly)


def _decayed_sum(rho: Any, s: np.ndarray, keep: Any, y: np.ndarray, out: np.ndarray,
                 scratch: np.ndarray | None = None) -> np.ndarray:
    """``rho * s + keep * y`` into ``out``; ``y`` may be overwritten unless ``scratch`` is given."""
    k = np.multiply(y, keep, out=y if scratch is None else scratch)
    np.multiply(s, rho, out=out)
    return np.add(out, k, out=out)


class SGD(Optimizer):
    """Gradient descent, optionally with momentum or Nesterov momentum.

    Without momentum: ``x -= lr * g``. With momentum: ``m = momentum * m - lr * g`` and then
    ``x += m``, or with ``nesterov=True``: ``x += momentum * m - lr * g``.

    >>> import tapegrad as tf
    >>> x = tf.Variable(1.0)
    >>> opt = tf.optimizers.SGD(learning_rate=0.1, momentum=0.9)
    >>> for _ in range(2):
    ...     _ = opt.apply_gradients([(tf.constant(1.0), x)])
    >>> round(float(x), 6)
    0.71
    """

    def __init__(self, learning_rate: Any = 0.01, momentum: float = 0.0, nesterov: bool = False,
                 weight_decay: float | None = None, clipnorm: float | None = None,
                 clipvalue: float | None = None, global_clipnorm: float | None = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm, name,
                         **kwargs)
        if not isinstance(momentum, float) or not 0 <= momentum <= 1:
            raise ValueError(f"`momentum` must be a float between [0, 1]. Received: momentum={momentum!r}")
        self.momentum = momentum
        self.nesterov = nesterov
        if momentum != 0:
            self._slots = ("momentum",)
            self._slot_vars = {"momentum": []}
        else:
            self._rowwise = True

    def _update(self, x: np.ndarray, g: np.ndarray, s: dict, lr: np.ndarray, t: int) -> np.ndarray:
        if self.momentum == 0:
            return x - g * lr
        mu = _cast(self.momentum, x)
        m = s["momentum"] = s["momentum"] * mu - g * lr
        return x + (m * mu - g * lr if self.nesterov else m)

    def _update_into(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                     tmp: Any, lr: Any, t: int) -> None:
        if self.momentum == 0:
            np.multiply(g, lr, out=out)
            np.subtract(x, out, out=out)
            return
        mu, gl = _cast(self.momentum, x), np.multiply(g, lr, out=tmp(0, x))
        m = np.multiply(old["momentum"], mu, out=new["momentum"])
        m -= gl
        if self.nesterov:
            np.multiply(m, mu, out=out)
            out -= gl
            np.add(x, out, out=out)
        else:
            np.add(x, m, out=out)

    def _jit_update(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                    lr: Any, t: int) -> bool:
        if self.momentum == 0:
            a = _jit.flat(x, g, out)
            if a is not None:
                _jit.kernel("sgd", out is x)(*a, lr)
            return a is not None
        a = _jit.flat(x, g, old["momentum"], out, new["momentum"])
        if a is not None:
            _jit.kernel("sgd_momentum", out is x)(*a, lr, _cast(self.momentum, x), bool(self.nesterov),
                                        _tiny(x))
        return a is not None

    def get_config(self) -> dict:
        return {**super().get_config(), "momentum": self.momentum, "nesterov": self.nesterov}


class Adam(Optimizer):
    """Adam: adaptive moment estimation (Kingma and Ba), with the AMSGrad variant.

    ``m += (g - m) * (1 - beta_1)``, ``v += (g**2 - v) * (1 - beta_2)`` (with ``amsgrad``,
    ``v`` is replaced by its running maximum), then
    ``x -= m * alpha / (sqrt(v) + epsilon)`` with
    ``alpha = lr * sqrt(1 - beta_2**t) / (1 - beta_1**t)``.

    >>> import tapegrad as tf
    >>> x = tf.Variable([1.0, 2.0])
    >>> _ = tf.optimizers.Adam(learning_rate=0.1).apply_gradients([(tf.constant([0.5, -3.0]), x)])
    >>> x.numpy().round(4)
    array([0.9, 2.1], dtype=float32)
    """

    def __init__(self, learning_rate: Any = 0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, amsgrad: bool = False, weight_decay: float | None = None,
                 clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm, name,
                         **kwargs)
        self.beta_1, self.beta_2, self.epsilon, self.amsgrad = beta_1, beta_2, epsilon, amsgrad
        self._slots = ("momentum", "velocity") + (("velocity_hat",) if amsgrad else ())
        self._slot_vars = {k: [] for k in self._slots}

    def _update(self, x: np.ndarray, g: np.ndarray, s: dict, lr: np.ndarray, t: int) -> np.ndarray:
        f = x.dtype.type
        b1, b2 = _cast(self.beta_1, x), _cast(self.beta_2, x)
        alpha = lr * np.sqrt(f(1) - np.power(b2, f(t))) / (f(1) - np.power(b1, f(t)))
        mfl, vfl = self._floors(x, alpha)
        m = s["momentum"] = flush_subnormal(
            s["momentum"] + (g - s["momentum"]) * f(1 - self.beta_1), mfl)
        v = s["velocity"] = flush_subnormal(
            s["velocity"] + (self._square(g) - s["velocity"]) * f(1 - self.beta_2), vfl)
        if self.amsgrad:
            v = s["velocity_hat"] = np.maximum(s["velocity_hat"], v)
        return x - m * alpha / (np.sqrt(v) + f(self.epsilon))

    def _alpha(self, x: np.ndarray, lr: Any, t: int) -> Any:
        f = x.dtype.type
        b1, b2 = _cast(self.beta_1, x), _cast(self.beta_2, x)
        return lr * np.sqrt(f(1) - np.power(b2, f(t))) / (f(1) - np.power(b1, f(t)))

    def _floors(self, x: np.ndarray, alpha: Any) -> tuple:
        """Below these, Adam stores its moments as zero. TF's CPU kernels flush every subnormal
        result to zero: the first moment's contribution to the variable, ``m * alpha``, is
        flushed once ``|m| < tiny / alpha`` (and its decay step ``(g - m) * c1`` once
        ``|m| < tiny / c1``), the second moment's decay step once ``v < tiny / c2``. There TF's
        moments stall, contributing nothing; tapegrad's become zero, the same variable without
        subnormal arithmetic (about 100 times slower) on the way."""
        f, tiny = x.dtype.type, _tiny(x)
        c1, c2, a = f(1 - self.beta_1), f(1 - self.beta_2), abs(f(alpha))
        low = min(c1, a) if a > 0 else c1
        return (tiny / low if low > 0 else tiny), (tiny / c2 if c2 > 0 else tiny)

    def _update_into(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                     tmp: Any, lr: Any, t: int) -> None:
        f = x.dtype.type
        alpha = self._alpha(x, lr, t)
        mfl, vfl = self._floors(x, alpha)
        m = flush_subnormal(_moment(g, old["momentum"], f(1 - self.beta_1), new["momentum"]), mfl)
        v = flush_subnormal(_moment(np.square(g, out=new["velocity"]), old["velocity"],
                                    f(1 - self.beta_2), new["velocity"]), vfl)
        if self.amsgrad:
            v = np.maximum(old["velocity_hat"], v, out=new["velocity_hat"])
        d = np.sqrt(v, out=tmp(0, x))
        d += f(self.epsilon)
        np.multiply(m, alpha, out=out)
        out /= d
        np.subtract(x, out, out=out)

    def _jit_update(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                    lr: Any, t: int) -> bool:
        f = x.dtype.type
        ams = ("velocity_hat",) if self.amsgrad else ()
        a = _jit.flat(x, g, *(old[s] for s in ("momentum", "velocity") + ams), out,
                      *(new[s] for s in ("momentum", "velocity") + ams))
        if a is not None:
            key = (t, lr, x.dtype, self.beta_1, self.beta_2, self.epsilon)
            memo = self.__dict__.get("_jit_params")
            if memo is None or memo[0] != key:   # (once per step and dtype, not per variable)
                alpha = self._alpha(x, lr, t)
                memo = self.__dict__["_jit_params"] = (key, np.array(
                    [f(1 - self.beta_1), f(1 - self.beta_2), alpha, f(self.epsilon),
                     *self._floors(x, alpha), f(0)], x.dtype))
            _jit.kernel("adam_ams" if ams else "adam", out is x)(*a, memo[1])
        return a is not None

    def get_config(self) -> dict:
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon, "amsgrad": self.amsgrad}


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov and Hutter): before each Adam step,
    ``x -= x * weight_decay * lr``. ``weight_decay`` defaults to 0.004, as in Keras."""

    def __init__(self, learning_rate: Any = 0.001, weight_decay: float = 0.004, beta_1: float = 0.9,
                 beta_2: float = 0.999, epsilon: float = 1e-7, amsgrad: bool = False,
                 clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, name: str | None = None, **kwargs: Any) -> None:
        if weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: weight_decay=None")
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad, weight_decay, clipnorm,
                         clipvalue, global_clipnorm, name, **kwargs)


class RMSprop(Optimizer):
    """RMSprop: divide the gradient by a running root mean square of recent gradients.

    ``v = rho * v + (1 - rho) * g**2``; with ``centered``, also ``a = rho * a + (1 - rho) * g``
    and the denominator is ``sqrt(v - a**2 + epsilon)``, otherwise ``sqrt(v + epsilon)``.
    The step ``lr * g / denominator`` is applied directly, or through
    ``m = momentum * m + step; x -= m`` when ``momentum > 0``.

    >>> import tapegrad as tf
    >>> x = tf.Variable(1.0)
    >>> _ = tf.optimizers.RMSprop(learning_rate=0.01).apply_gradients([(tf.constant(2.0), x)])
    >>> round(float(x), 5)
    0.96838
    """

    def __init__(self, learning_rate: Any = 0.001, rho: float = 0.9, momentum: float = 0.0,
                 epsilon: float = 1e-7, centered: bool = False, weight_decay: float | None = None,
                 clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm, name,
                         **kwargs)
        self.rho, self.momentum, self.epsilon, self.centered = rho, momentum, epsilon, centered
        self._slots = (("velocity",) + (("momentum",) if momentum > 0 else ())
                       + (("average_gradient",) if centered else ()))
        self._slot_vars = {k: [] for k in self._slots}

    def _update(self, x: np.ndarray, g: np.ndarray, s: dict, lr: np.ndarray, t: int) -> np.ndarray:
        f = x.dtype.type
        rho, keep = f(self.rho), f(1 - self.rho)
        v = s["velocity"] = rho * s["velocity"] + keep * self._square(g)
        if self.centered:
            a = s["average_gradient"] = rho * s["average_gradient"] + keep * g
            denominator = v - np.square(a) + f(self.epsilon)
        else:
            denominator = v + f(self.epsilon)
        step = lr * g / np.sqrt(denominator)
        if self.momentum > 0:
            m = s["momentum"] = f(self.momentum) * s["momentum"] + step
            return x - m
        return x - step

    def _update_into(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                     tmp: Any, lr: Any, t: int) -> None:
        f = x.dtype.type
        rho, keep = f(self.rho), f(1 - self.rho)
        v = _decayed_sum(rho, old["velocity"], keep, np.square(g, out=tmp(0, x)), new["velocity"])
        d = tmp(0, x)
        if self.centered:
            a = _decayed_sum(rho, old["average_gradient"], keep, g, new["average_gradient"], d)
            np.square(a, out=d)
            np.subtract(v, d, out=d)
            d += f(self.epsilon)
        else:
            np.add(v, f(self.epsilon), out=d)
        np.sqrt(d, out=d)
        step = np.multiply(g, lr, out=tmp(1, x))   # (lr * g == g * lr exactly)
        step /= d
        if self.momentum > 0:
            m = np.multiply(old["momentum"], f(self.momentum), out=new["momentum"])
            m += step
            step = m
        np.subtract(x, step, out=out)

    def _jit_update(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                    lr: Any, t: int) -> bool:
        f = x.dtype.type
        c, mo = self.centered, self.momentum > 0   # (an unused slot's place takes x / out, unread)
        a = _jit.flat(x, g, old["velocity"], old["average_gradient"] if c else x,
                      old["momentum"] if mo else x, out, new["velocity"],
                      new["average_gradient"] if c else out, new["momentum"] if mo else out)
        if a is not None:
            _jit.kernel("rmsprop", out is x)(*a, lr, f(self.rho), f(1 - self.rho), f(self.epsilon),
                                   f(self.momentum), c, mo, _tiny(x))
        return a is not None

    def get_config(self) -> dict:
        return {**super().get_config(), "rho": self.rho, "momentum": self.momentum,
                "epsilon": self.epsilon, "centered": self.centered}


class Adagrad(Optimizer):
    """Adagrad: per-element learning rates from the sum of squared gradients.

    ``acc += g**2`` (``acc`` starts at ``initial_accumulator_value``), then
    ``x -= lr * g / sqrt(acc + epsilon)``.

    >>> import tapegrad as tf
    >>> x = tf.Variable(1.0)
    >>> _ = tf.optimizers.Adagrad(learning_rate=0.1).apply_gradients([(tf.constant(0.3), x)])
    >>> round(float(x), 5)
    0.93118
    """

    _slots = ("accumulator",)
    _rowwise = True

    def __init__(self, learning_rate: Any = 0.001, initial_accumulator_value: float = 0.1,
                 epsilon: float = 1e-7, weight_decay: float | None = None,
                 clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm, name,
                         **kwargs)
        self.initial_accumulator_value, self.epsilon = initial_accumulator_value, epsilon

    def _slot_initial(self, slot: str, v: Any) -> np.ndarray:
        dt = np.dtype(v.dtype.as_numpy_dtype)
        return np.full(_shape_of(v), _cast(self.initial_accumulator_value, np.empty(0, dt)), dt)

    def _update(self, x: np.ndarray, g: np.ndarray, s: dict, lr: np.ndarray, t: int) -> np.ndarray:
        acc = s["accumulator"] = s["accumulator"] + self._square(g)
        return x - lr * g / np.sqrt(acc + x.dtype.type(self.epsilon))

    def _update_into(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                     tmp: Any, lr: Any, t: int) -> None:
        acc = np.square(g, out=new["accumulator"])
        np.add(old["accumulator"], acc, out=acc)
        d = np.add(acc, x.dtype.type(self.epsilon), out=tmp(0, x))
        np.sqrt(d, out=d)
        np.multiply(g, lr, out=out)
        out /= d
        np.subtract(x, out, out=out)

    def _jit_update(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                    lr: Any, t: int) -> bool:
        a = _jit.flat(x, g, old["accumulator"], out, new["accumulator"])
        if a is not None:
            _jit.kernel("adagrad", out is x)(*a, lr, x.dtype.type(self.epsilon), _tiny(x))
        return a is not None

    def get_config(self) -> dict:
        return {**super().get_config(), "initial_accumulator_value": self.initial_accumulator_value,
                "epsilon": self.epsilon}
