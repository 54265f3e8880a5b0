"""Nadam, Adamax, Adadelta, Ftrl, Lion, Lamb, Adafactor and ScheduleFreeAdamW with Keras 3's update formulas and
defaults. ``_update`` has the meaning documented in :mod:`tapegrad.optimizers.algorithms`.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .._variable import Variable
from .algorithms import _cast, _decayed_sum, _moment
from .optimizer import Optimizer, _shape_of

__all__ = ["Adadelta", "Adafactor", "Adamax", "Ftrl", "Lamb", "Lion", "Nadam", "ScheduleFreeAdamW"]


def _rms(x: np.ndarray) -> Any:
    return np.sqrt(np.mean(np.square(x)))


class _Moments(Optimizer):
    """An optimizer with ``beta_1``, ``beta_2`` and ``epsilon`` and Keras's base arguments."""

    _slots = ("momentum", "velocity")

    def __init__(self, learning_rate: Any = 0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, weight_decay: float | None = None,
                 clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm, name,
                         **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def get_config(self) -> dict:
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon}


class Nadam(_Moments):
    """Nadam: Adam with Nesterov momentum (Dozat), with Keras's momentum schedule
    ``u_t = beta_1 * (1 - 0.5 * 0.96**t)`` and its running product.

    ``m += (g - m) * (1 - beta_1)``, ``v += (g**2 - v) * (1 - beta_2)``, then
    ``x -= lr * m_hat / (sqrt(v / (1 - beta_2**t)) + epsilon)`` with
    ``m_hat = u_{t+1} * m / (1 - prod u_{1..t+1}) + (1 - u_t) * g / (1 - prod u_{1..t})``.

    >>> import tapegrad as tf
    >>> x = tf.Variable([1.0, 2.0])
    >>> _ = tf.keras.optimizers.Nadam(learning_rate=0.1).apply_gradients([(tf.constant([0.5, -3.0]), x)])
    >>> x.numpy().round(4)
    array([0.8937, 2.1063], dtype=float32)
    """

    def __init__(self, learning_rate: Any = 0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, weight_decay: float | None = None,
                 clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate, beta_1, beta_2, epsilon, weight_decay, clipnorm, clipvalue,
                         global_clipnorm, name, **kwargs)
        self._u_product = self._own_variable(np.float32(1.0), "u_product")

    @property
    def variables(self) -> list[Variable]:
        return super().variables + [self._u_product]

    def _track(self, v: Variable) -> int:
        if not self._vars and self._u_product.dtype != v.dtype and v.dtype.is_floating:
            # (Keras's build: the momentum product has the dtype of the first variable)
            advanced = self._u_product.numpy() != 1   # (apply's first step began before this)
            self._u_product = self._own_variable(np.ones((), v.dtype.as_numpy_dtype), "u_product")
            if advanced:
                self._begin_step(self._step_count() + 1)
        return super()._track(v)

    def _begin_step(self, step: int) -> None:
        # Keras's order: u_product * beta_1 * (1 - 0.5 * 0.96**t), in u_product's dtype
        p = self._u_product.numpy()
        f = p.dtype.type
        self._u_product.assign(p * f(self.beta_1) * (f(1) - f(0.5) * np.power(f(0.96), f(step))))

    def _update(self, x: np.ndarray, g: np.ndarray, s: dict, lr: np.ndarray, t: int) -> np.ndarray:
        f = x.dtype.type
        b1, b2 = _cast(self.beta_1, x), _cast(self.beta_2, x)
        decay = _cast(0.96, x)
        u_t = b1 * (f(1) - f(0.5) * np.power(decay, f(t)))
        u_t_1 = b1 * (f(1) - f(0.5) * np.power(decay, f(t + 1)))
        u_product_t = f(self._u_product.numpy())
        m = s["momentum"] = s["momentum"] + (g - s["momentum"]) * (f(1) - b1)   # (1 - beta in x's dtype)
        v = s["velocity"] = s["velocity"] + (self._square(g) - s["velocity"]) * (f(1) - b2)
        m_hat = u_t_1 * m / (f(1) - u_product_t * u_t_1) + self._each(
            g, lambda a: (f(1) - u_t) * a / (f(1) - u_product_t))   # (per slice, as Keras's)
        v_hat = v / (f(1) - np.power(b2, f(t)))
        return x - m_hat * lr / (np.sqrt(v_hat) + f(self.epsilon))

    def _update_into(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                     tmp: Any, lr: Any, t: int) -> None:
        f = x.dtype.type
        b1, b2 = _cast(self.beta_1, x), _cast(self.beta_2, x)
        decay = _cast(0.96, x)
        u_t = b1 * (f(1) - f(0.5) * np.power(decay, f(t)))
        u_t_1 = b1 * (f(1) - f(0.5) * np.power(decay, f(t + 1)))
        u_product_t = f(self._u_product.numpy())
        m = _moment(g, old["momentum"], f(1) - b1, new["momentum"])
        v = _moment(np.square(g, out=new["velocity"]), old["velocity"], f(1) - b2,
                    new["velocity"])
        m_hat, d = np.multiply(m, u_t_1, out=tmp(0, x)), tmp(1, x)
        m_hat /= f(1) - u_product_t * u_t_1
        np.multiply(g, f(1) - u_t, out=d)
        d /= f(1) - u_product_t
        m_hat += d
        np.divide(v, f(1) - np.power(b2, f(t)), out=d)
        np.sqrt(d, out=d)
        d += f(self.epsilon)
        m_hat *= lr
        m_hat /= d
        np.subtract(x, m_hat, out=out)


class Adamax(_Moments):
    """Adamax: Adam with the infinity norm (Kingma and Ba, section 7).

    ``m += (g - m) * (1 - beta_1)``, ``u = max(beta_2 * u, |g|)``, then
    ``x -= lr * m / ((1 - beta_1**t) * (u + epsilon))``.

    >>> import tapegrad as tf
    >>> x = tf.Variable([1.0, 2.0])
    >>> _ = tf.keras.optimizers.Adamax(learning_rate=0.1).apply_gradients([(tf.constant([0.5, -3.0]), x)])
    >>> x.numpy().round(4)
    array([0.9, 2.1], dtype=float32)
    """

    _slots = ("momentum", "norm")

    def _update(self, x: np.ndarray, g: np.ndarray, s: dict, lr: np.ndarray, t: int) -> np.ndarray:
        f = x.dtype.type
        m = s["momentum"] = s["momentum"] + (g - s["momentum"]) * f(1 - self.beta_1)
        u = s["norm"] = np.maximum(f(self.beta_2) * s["norm"], self._abs(g))
        b1_power = np.power(_cast(self.beta_1, x), f(t))
        return x - lr * m / ((f(1) - b1_power) * (u + f(self.epsilon)))

    def _update_into(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                     tmp: Any, lr: Any, t: int) -> None:
        f = x.dtype.type
        m = _moment(g, old["momentum"], f(1 - self.beta_1), new["momentum"])
        u = np.multiply(old["norm"], f(self.beta_2), out=new["norm"])
        np.maximum(u, np.abs(g, out=tmp(0, x)), out=u)
        d = np.add(u, f(self.epsilon), out=tmp(0, x))
        d *= f(1) - np.power(_cast(self.beta_1, x), f(t))
        np.multiply(m, lr, out=out)
        out /= d
        np.subtract(x, out, out=out)


class Lamb(_Moments):
    """LAMB: Adam's step scaled per variable by the trust ratio ``||x|| / ||step||`` (You et al.).

    ``step = m_hat / (sqrt(v_hat) + epsilon)`` with Adam's bias-corrected moments, then
    ``x -= ratio * lr * step`` (``ratio`` is 1 when either norm is 0).

    >>> import tapegrad as tf
    >>> x = tf.Variable([3.0, 4.0])
    >>> _ = tf.keras.optimizers.Lamb(learning_rate=0.1).apply_gradients([(tf.constant([0.5, -3.0]), x)])
    >>> x.numpy().round(4)
    array([2.6464, 4.3536], dtype=float32)
    """

    def _update(self, x: np.ndarray, g: np.ndarray, s: dict, lr: np.ndarray, t: int) -> np.ndarray:
        f = x.dtype.type
        b1_power = np.power(_cast(self.beta_1, x), f(t))
        b2_power = np.power(_cast(self.beta_2, x), f(t))
        m = s["momentum"] = s["momentum"] + (g - s["momentum"]) * f(1 - self.beta_1)
        v = s["velocity"] = s["velocity"] + (self._square(g) - s["velocity"]) * f(1 - self.beta_2)
        step = (m / (f(1) - b1_power)) / (np.sqrt(v / (f(1) - b2_power)) + f(self.epsilon))
        w_norm, g_norm = np.sqrt(np.sum(np.square(x))), np.sqrt(np.sum(np.square(step)))
        ratio = w_norm / g_norm if w_norm > 0 and g_norm > 0 else f(1)
        return x - ratio * lr * step

    def _update_into(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                     tmp: Any, lr: Any, t: int) -> None:
        f = x.dtype.type
        b1_power = np.power(_cast(self.beta_1, x), f(t))
        b2_power = np.power(_cast(self.beta_2, x), f(t))
        m = _moment(g, old["momentum"], f(1 - self.beta_1), new["momentum"])
        v = _moment(np.square(g, out=new["velocity"]), old["velocity"], f(1 - self.beta_2),
                    new["velocity"])
        step, d = np.divide(m, f(1) - b1_power, out=tmp(0, x)), tmp(1, x)
        np.divide(v, f(1) - b2_power, out=d)
        np.sqrt(d, out=d)
        d += f(self.epsilon)
        step /= d
        w_norm = np.sqrt(np.sum(np.square(x, out=d)))
        g_norm = np.sqrt(np.sum(np.square(step, out=d)))
        ratio = w_norm / g_norm if w_norm > 0 and g_norm > 0 else f(1)
        np.multiply(step, ratio * lr, out=out)
        np.subtract(x, out, out=out)


class Adadelta(Optimizer):
    """Adadelta (Zeiler): steps scaled by the ratio of running RMS of updates and of gradients.

    ``a = rho * a + (1 - rho) * g**2``; ``delta = -sqrt(d + epsilon) * g / sqrt(a + epsilon)``;
    ``d = rho * d + (1 - rho) * delta**2``; ``x += lr * delta``.

    >>> import tapegrad as tf
    >>> x = tf.Variable(1.0)
    >>> _ = tf.keras.optimizers.Adadelta(learning_rate=1.0).apply_gradients([(tf.constant(2.0), x)])
    >>> round(float(x), 5)
    0.99859
    """

    _slots = ("accumulated_grad", "accumulated_delta_var")

    def __init__(self, learning_rate: Any = 0.001, rho: float = 0.95, epsilon: float = 1e-7,
                 weight_decay: float | None = None, clipnorm: float | None = None,
                 clipvalue: float | None = None, global_clipnorm: float | None = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm, name,
                         **kwargs)
        self.rho, self.epsilon = rho, epsilon

    def _update(self, x: np.ndarray, g: np.ndarray, s: dict, lr: np.ndarray, t: int) -> np.ndarray:
        f = x.dtype.type
        rho, keep, eps = f(self.rho), f(1 - self.rho), f(self.epsilon)
        a = s["accumulated_grad"] = rho * s["accumulated_grad"] + keep * self._square(g)
        rd, ra = np.sqrt(s["accumulated_delta_var"] + eps), np.sqrt(a + eps)
        if self._per_slice is None:
            delta = -(rd * g) / ra
            s["accumulated_delta_var"] = rho * s["accumulated_delta_var"] + keep * np.square(delta)
            return x + lr * delta
        idx, raw = self._slices(g)   # (slices that repeat a row: Keras's delta is per slice)
        each = -(rd[idx] * raw) / ra[idx]
        s["accumulated_delta_var"] = rho * s["accumulated_delta_var"] + keep * self._sum_rows(g, np.square(each))
        return x + self._sum_rows(g, lr * each)

    def _update_into(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                     tmp: Any, lr: Any, t: int) -> None:
        f = x.dtype.type
        rho, keep, eps = f(self.rho), f(1 - self.rho), f(self.epsilon)
        a = _decayed_sum(rho, old["accumulated_grad"], keep, np.square(g, out=tmp(0, x)),
                         new["accumulated_grad"])
        delta, d = np.add(old["accumulated_delta_var"], eps, out=tmp(0, x)), tmp(1, x)
        np.sqrt(delta, out=delta)
        delta *= g
        np.negative(delta, out=delta)
        np.add(a, eps, out=d)
        np.sqrt(d, out=d)
        delta /= d
        _decayed_sum(rho, old["accumulated_delta_var"], keep, np.square(delta, out=d),
                     new["accumulated_delta_var"])
        np.multiply(delta, lr, out=out)
        np.add(x, out, out=out)

    def get_config(self) -> dict:
        return {**super().get_config(), "rho": self.rho, "epsilon": self.epsilon}


class Ftrl(Optimizer):
    """FTRL-Proximal (McMahan et al.), with L1, L2 and L2-shrinkage regularization.

    With ``p = -learning_rate_power``: ``n' = n + g**2``;
    ``z += g + 2 * l2_shrinkage * x - (n'**p - n**p) / lr * x``;
    ``x = (clip(z, -l1, l1) - z) / (n'**p / lr + 2 * (l2 + beta / (2 * lr)))``; ``n = n'``.

    >>> import tapegrad as tf
    >>> x = tf.Variable(1.0)
    >>> _ = tf.keras.optimizers.Ftrl(learning_rate=0.1).apply_gradients([(tf.constant(2.0), x)])
    >>> round(float(x), 5)
    0.74505
    """

    _slots = ("accumulator", "linear")

    def __init__(self, learning_rate: Any = 0.001, learning_rate_power: float = -0.5,
                 initial_accumulator_value: float = 0.1, l1_regularization_strength: float = 0.0,
                 l2_regularization_strength: float = 0.0,
                 l2_shrinkage_regularization_strength: float = 0.0, beta: float = 0.0,
                 weight_decay: float | None = None, clipnorm: float | None = None,
                 clipvalue: float | None = None, global_clipnorm: float | None = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm, name,
                         **kwargs)
        for arg, value, sign in (("initial_accumulator_value", initial_accumulator_value, 1),
                                 ("learning_rate_power", learning_rate_power, -1),
                                 ("l1_regularization_strength", l1_regularization_strength, 1),
                                 ("l2_regularization_strength", l2_regularization_strength, 1),
                                 ("l2_shrinkage_regularization_strength",
                                  l2_shrinkage_regularization_strength, 1)):
            if sign * value < 0:
                raise ValueError(f"`{arg}` needs to be {'positive' if sign > 0 else 'negative'} "
                                 f"or zero. Received: {arg}={value}.")
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta

    def _slot_initial(self, slot: str, v: Any) -> np.ndarray:
        dt = np.dtype(v.dtype.as_numpy_dtype)
        value = self.initial_accumulator_value if slot == "accumulator" else 0.0
        return np.full(_shape_of(v), _cast(value, np.empty(0, dt)), dt)

    def _update(self, x: np.ndarray, g: np.ndarray, s: dict, lr: np.ndarray, t: int) -> np.ndarray:
        f = x.dtype.type
        p = f(-self.learning_rate_power)
        l1 = f(self.l1_regularization_strength)
        l2 = f(self.l2_regularization_strength) + f(self.beta) / (f(2) * lr)
        acc = s["accumulator"]
        new_acc = acc + self._square(g)
        grad = g + f(2 * self.l2_shrinkage_regularization_strength) * x
        z = s["linear"] = s["linear"] + (grad - (np.power(new_acc, p) - np.power(acc, p)) / lr * x)
        s["accumulator"] = new_acc
        quadratic = np.power(new_acc, p) / lr + f(2) * l2
        return (np.clip(z, -l1, l1) - z) / quadratic

    def _update_into(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                     tmp: Any, lr: Any, t: int) -> None:
        f = x.dtype.type
        p = f(-self.learning_rate_power)
        l1 = f(self.l1_regularization_strength)
        l2 = f(self.l2_regularization_strength) + f(self.beta) / (f(2) * lr)
        acc = old["accumulator"]
        new_acc = np.square(g, out=new["accumulator"])
        np.add(acc, new_acc, out=new_acc)
        grad, a, b = np.multiply(x, f(2 * self.l2_shrinkage_regularization_strength), out=tmp(0, x)), \
            tmp(1, x), tmp(2, x)
        np.add(g, grad, out=grad)
        np.power(new_acc, p, out=a)
        a -= np.power(acc, p, out=b)
        a /= lr
        a *= x
        np.subtract(grad, a, out=grad)
        z = np.add(old["linear"], grad, out=new["linear"])
        quadratic = np.power(new_acc, p, out=a)
        quadratic /= lr
        quadratic += f(2) * l2
        np.clip(z, -l1, l1, out=out)
        out -= z
        out /= quadratic

    def get_config(self) -> dict:
        return {**super().get_config(), "learning_rate_power": self.learning_rate_power,
                "initial_accumulator_value": self.initial_accumulator_value,
                "l1_regularization_strength": self.l1_regularization_strength,
                "l2_regularization_strength": self.l2_regularization_strength,
                "l2_shrinkage_regularization_strength": self.l2_shrinkage_regularization_strength,
                "beta": self.beta}


class Lion(Optimizer):
    """Lion (Chen et al., 2023): a step of fixed size in the sign of an interpolated momentum.

    ``x -= lr * sign(beta_1 * m + (1 - beta_1) * g)``, then ``m = beta_2 * m + (1 - beta_2) * g``.

    >>> import tapegrad as tf
    >>> x = tf.Variable([1.0, 2.0])
    >>> _ = tf.keras.optimizers.Lion(learning_rate=0.1).apply_gradients([(tf.constant([0.5, -3.0]), x)])
    >>> x.numpy().round(4)
    array([0.9, 2.1], dtype=float32)
    """

    _slots = ("momentum",)

    def __init__(self, learning_rate: Any = 0.001, beta_1: float = 0.9, beta_2: float = 0.99,
                 weight_decay: float | None = None, clipnorm: float | None = None,
                 clipvalue: float | None = None, global_clipnorm: float | None = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm, name,
                         **kwargs)
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError("Argument `beta_1` must be in the [0, 1] range. Otherwise, the "
                             f"optimizer degenerates to SignSGD. Received: beta_1={beta_1}.")
        self.beta_1, self.beta_2 = beta_1, beta_2

    def _update(self, x: np.ndarray, g: np.ndarray, s: dict, lr: np.ndarray, t: int) -> np.ndarray:
        b1, b2 = _cast(self.beta_1, x), _cast(self.beta_2, x)
        f = x.dtype.type
        m = s["momentum"]
        x = x - lr * np.sign(m * b1 + g * (f(1) - b1))
        s["momentum"] = m * b2 + g * (f(1) - b2)
        return x

    def _update_into(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                     tmp: Any, lr: Any, t: int) -> None:
        b1, b2 = _cast(self.beta_1, x), _cast(self.beta_2, x)
        f = x.dtype.type
        m, a, b = old["momentum"], tmp(0, x), tmp(1, x)
        np.multiply(m, b1, out=a)
        a += np.multiply(g, f(1) - b1, out=b)
        np.sign(a, out=a)
        a *= lr
        np.subtract(x, a, out=out)
        np.multiply(m, b2, out=new["momentum"])
        new["momentum"] += np.multiply(g, f(1) - b2, out=b)

    def get_config(self) -> dict:
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2}


class Adafactor(Optimizer):
    """Adafactor (Shazeer and Stern): Adam-like steps with a factored second moment.

    For a variable of rank 2 or more the second moment is kept as row and column means
    (``r``, ``c``) of ``g**2 + epsilon_1``, decayed with ``beta_2_t = 1 - t**beta_2_decay``;
    ``v = r / mean(r) (outer) c``. A vector keeps the full ``v``. The step ``u = g / sqrt(v)``
    is scaled down to RMS ``clip_threshold``, and
    ``x -= max(epsilon_2, rms(x)) * min(lr, 1 / sqrt(t)) * u``.

    >>> import tapegrad as tf
    >>> x = tf.Variable([1.0, 2.0])
    >>> _ = tf.keras.optimizers.Adafactor(learning_rate=0.1).apply_gradients([(tf.constant([0.5, -3.0]), x)])
    >>> x.numpy().round(4)
    array([0.8419, 2.1581], dtype=float32)
    """

    _slots = ("r", "c", "velocity")

    def __init__(self, learning_rate: Any = 0.001, beta_2_decay: float = -0.8,
                 epsilon_1: float = 1e-30, epsilon_2: float = 1e-3, clip_threshold: float = 1.0,
                 relative_step: bool = True, weight_decay: float | None = None,
                 clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm, name,
                         **kwargs)
        self.beta_2_decay, self.epsilon_1, self.epsilon_2 = beta_2_decay, epsilon_1, epsilon_2
        self.clip_threshold, self.relative_step = clip_threshold, relative_step

    def _slot_initial(self, slot: str, v: Any) -> np.ndarray:
        shape, dt = _shape_of(v), v.dtype.as_numpy_dtype
        if slot == "velocity":
            return np.zeros(shape, dt)
        if len(shape) < 2:
            return np.zeros((), dt)
        return np.zeros(shape[:-1] if slot == "r" else shape[:-2] + shape[-1:], dt)

    def _update(self, x: np.ndarray, g: np.ndarray, s: dict, lr: np.ndarray, t: int) -> np.ndarray:
        # (Keras applies min(lr, 1/sqrt(t)) once more when relative_step is set: the same value)
        f = x.dtype.type
        one, step = f(1), f(t)
        rho_t = np.minimum(lr, one / np.sqrt(step))
        alpha_t = np.maximum(f(self.epsilon_2), _rms(x)) * rho_t
        g2 = np.square(g) + f(self.epsilon_1)
        beta_2_t = one - np.power(step, f(self.beta_2_decay))
        if x.ndim >= 2:
            r = s["r"] = beta_2_t * s["r"] + (one - beta_2_t) * np.mean(g2, axis=-1)
            c = s["c"] = beta_2_t * s["c"] + (one - beta_2_t) * np.mean(g2, axis=-2)
            v = s["velocity"] = (r / np.mean(r, axis=-1, keepdims=True))[..., None] * c[..., None, :]
        else:
            v = s["velocity"] = beta_2_t * s["velocity"] + (one - beta_2_t) * g2
        u = g / np.sqrt(v)
        u = u / np.maximum(one, _rms(u) / f(self.clip_threshold))
        return x - alpha_t * u

    def _update_into(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                     tmp: Any, lr: Any, t: int) -> None:
        f = x.dtype.type
        one, step = f(1), f(t)
        rho_t = np.minimum(lr, one / np.sqrt(step))
        a = tmp(0, x)
        alpha_t = np.maximum(f(self.epsilon_2), np.sqrt(np.mean(np.square(x, out=a)))) * rho_t
        g2 = np.square(g, out=a)
        g2 += f(self.epsilon_1)
        beta_2_t = one - np.power(step, f(self.beta_2_decay))
        if x.ndim >= 2:
            r = _decayed_sum(beta_2_t, old["r"], one - beta_2_t,
                             np.mean(g2, axis=-1, out=tmp(1, new["r"])), new["r"])
            c = _decayed_sum(beta_2_t, old["c"], one - beta_2_t,
                             np.mean(g2, axis=-2, out=tmp(2, new["c"])), new["c"])
            q = np.divide(r, np.mean(r, axis=-1, keepdims=True), out=tmp(1, new["r"]))
            v = np.multiply(q[..., None], c[..., None, :], out=new["velocity"])
        else:
            np.copyto(new["r"], old["r"])
            np.copyto(new["c"], old["c"])
            v = _decayed_sum(beta_2_t, old["velocity"], one - beta_2_t, g2, new["velocity"])
        u = np.sqrt(v, out=tmp(0, x))
        np.divide(g, u, out=u)
        u /= np.maximum(one, np.sqrt(np.mean(np.square(u, out=out))) / f(self.clip_threshold))
        u *= alpha_t
        np.subtract(x, u, out=out)

    def get_config(self) -> dict:
        return {**super().get_config(), "beta_2_decay": self.beta_2_decay,
                "epsilon_1": self.epsilon_1, "epsilon_2": self.epsilon_2,
                "clip_threshold": self.clip_threshold, "relative_step": self.relative_step}


class ScheduleFreeAdamW(Optimizer):
    """Schedule-free AdamW (Defazio et al., 2024) as Keras 3 computes it: Adam's normalised steps
    on a base sequence ``z`` (the ``momentum`` slot, starting at the variable), a running average
    ``x = (1 - 1/t) x + z / t`` with ``x`` recovered from the variable ``y`` as
    ``(y - (1 - beta_1) z) / beta_1`` (Keras uses the updated ``z`` there), and
    ``y = (1 - beta_1) z + beta_1 x``; ``warmup_steps`` ramps the rate up linearly.

    >>> import tapegrad as tf
    >>> x = tf.Variable([1.0, 2.0])
    >>> opt = tf.keras.optimizers.ScheduleFreeAdamW(learning_rate=0.1)
    >>> _ = opt.apply_gradients([(tf.constant([0.5, -3.0]), x)])
    >>> x.numpy().round(4)
    array([0.9, 2.1], dtype=float32)
    """

    _slots = ("momentum", "velocity")

    def __init__(self, learning_rate: Any = 0.0025, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-8, warmup_steps: int = 0, weight_decay: float | None = None,
                 clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm, name,
                         **kwargs)
        self.beta_1, self.beta_2, self.epsilon, self.warmup_steps = beta_1, beta_2, epsilon, warmup_steps

    def _slot_initial(self, slot: str, v: Any) -> np.ndarray:
        if slot == "momentum":
            return np.array(v.numpy(), copy=True)
        return super()._slot_initial(slot, v)

    def _update(self, x: np.ndarray, g: np.ndarray, s: dict, lr: np.ndarray, t: int) -> np.ndarray:
        f = x.dtype.type
        step, one = f(t), f(1)
        b1, b2 = _cast(self.beta_1, x), _cast(self.beta_2, x)
        if self.warmup_steps > 0:
            lr = lr * np.minimum(step / f(self.warmup_steps), one)
        v = s["velocity"] = s["velocity"] + (self._square(g) - s["velocity"]) * (one - b2)
        denominator = np.sqrt(v / (one - np.power(b2, step))) + _cast(self.epsilon, x)
        z = s["momentum"] = s["momentum"] - lr * g / denominator
        weight = one / step
        # (Keras's "momentum_old" is the momentum variable itself, read after its update)
        x_old = (x - (one - b1) * z) / b1
        x_new = (one - weight) * x_old + weight * z
        return (one - b1) * z + b1 * x_new

    def _update_into(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                     tmp: Any, lr: Any, t: int) -> None:
        f = x.dtype.type
        step, one = f(t), f(1)
        b1, b2 = _cast(self.beta_1, x), _cast(self.beta_2, x)
        if self.warmup_steps > 0:
            lr = lr * np.minimum(step / f(self.warmup_steps), one)
        v = _moment(np.square(g, out=new["velocity"]), old["velocity"], one - b2, new["velocity"])
        d, a = np.divide(v, one - np.power(b2, step), out=tmp(0, x)), tmp(1, x)
        np.sqrt(d, out=d)
        d += _cast(self.epsilon, x)
        np.multiply(g, lr, out=a)
        a /= d
        z = np.subtract(old["momentum"], a, out=new["momentum"])
        weight = one / step
        x_old = np.multiply(z, one - b1, out=d)
        np.subtract(x, x_old, out=x_old)
        x_old /= b1
        x_old *= one - weight
        x_old += np.multiply(z, weight, out=a)
        np.multiply(z, one - b1, out=out)
        x_old *= b1
        out += x_old

    def get_config(self) -> dict:
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon, "warmup_steps": self.warmup_steps}
