"""TF1's training API in ``tf.compat.v1.train``: the optimizers (``GradientDescentOptimizer``,
``MomentumOptimizer``, ``AdamOptimizer``, ``AdagradOptimizer``, ``RMSPropOptimizer``: ``minimize``,
``compute_gradients``, ``apply_gradients``, slots), the global step, and the learning-rate
decays. In a graph (``tf.Graph().as_default()`` or eager execution disabled) they build ops that
``Session.run`` runs; in eager code ``minimize`` takes a callable loss and updates at once, and a
decay is a callable, as TensorFlow 2's.

>>> import numpy as np, tapegrad as tf
>>> tf1 = tf.compat.v1
>>> with tf.Graph().as_default():
...     x = tf1.placeholder(tf.float32, [None])
...     w = tf1.get_variable("w", [], initializer=tf1.zeros_initializer())
...     loss = tf.reduce_mean(tf.square(w * x - 2.0 * x))
...     step = tf1.train.get_or_create_global_step()
...     train = tf1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
...     with tf1.Session() as sess:
...         sess.run(tf1.global_variables_initializer())
...         for _ in range(3):
...             _ = sess.run(train, {x: [1.0, 2.0]})
...         w_value, step_value = sess.run([w, step])
>>> round(float(w_value), 4), step_value
(1.75, np.int64(3))
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .. import dtypes as _dtypes, math as _math
from .._convert import convert_to_tensor
from .._scope import name_scope
from ..ops.math import cast as _cast, where as _where
from .._tape import GradientTape
from .._tensor import Tensor
from .._variable import Variable
from . import _graph

__all__ = ["Optimizer", "GradientDescentOptimizer", "MomentumOptimizer", "AdamOptimizer", "AdagradOptimizer",
           "RMSPropOptimizer", "get_global_step", "get_or_create_global_step", "create_global_step",
           "exponential_decay", "polynomial_decay", "piecewise_constant", "inverse_time_decay",
           "natural_exp_decay", "cosine_decay"]

GLOBAL_STEP = "global_step"


def _graph_now() -> Any:
    return _graph._recording()


class Optimizer:
    """TF1's optimizer base: ``minimize`` = ``compute_gradients`` then ``apply_gradients``;
    subclasses give ``_create_slots``, ``_apply`` (one variable's update) and ``_finish``."""

    GATE_NONE, GATE_OP, GATE_GRAPH = 0, 1, 2

    def __init__(self, use_locking: bool, name: str) -> None:
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._name = name
        self._slots: dict = {}      # slot name -> {id(var): slot variable}
        self._non_slot: dict = {}   # name -> variable (beta1_power, ...)

    def get_name(self) -> str:
        return self._name

    def _lr(self, value: Any, dtype: Any) -> Tensor:
        value = value() if callable(value) else value
        return _cast(convert_to_tensor(value), dtype)

    def compute_gradients(self, loss: Any, var_list: Any = None, gate_gradients: int = 1,
                          aggregation_method: Any = None, colocate_gradients_with_ops: bool = False,
                          grad_loss: Any = None) -> list:
        """``[(gradient, variable)]`` of ``loss`` (a tensor in a graph, a callable in eager code);
        ``var_list``: the default graph's trainable variables, or those the loss read (eager)."""
        if callable(loss) and _graph_now() is not None:
            loss = loss()  # (a graph differentiates at each run: see gradients below)
        if callable(loss):
            with GradientTape() as tape:
                if var_list is not None:
                    tape.watch(list(var_list))
                value = loss()
            var_list = list(var_list) if var_list is not None else list(tape.watched_variables())
            grads = tape.gradient(value, var_list, output_gradients=grad_loss)
            return list(zip(grads, var_list))
        if _graph_now() is None:
            raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a function when eager "
                               "execution is enabled.")
        var_list = _graph.trainable_variables() if var_list is None else list(var_list)
        if not var_list:
            raise ValueError("No variables to optimize.")
        grads = _graph._recording()._gradients([loss], var_list, None if grad_loss is None else [grad_loss])
        return list(zip(grads, var_list))

    def minimize(self, loss: Any, global_step: Any = None, var_list: Any = None, gate_gradients: int = 1,
                 aggregation_method: Any = None, colocate_gradients_with_ops: bool = False, name: str | None = None,
                 grad_loss: Any = None) -> Any:
        """Compute the gradients of ``loss`` and apply them (adding 1 to ``global_step``)."""
        grads_and_vars = self.compute_gradients(loss, var_list=var_list, grad_loss=grad_loss)
        if not [v for g, v in grads_and_vars if g is not None]:
            raise ValueError("No gradients provided for any variable, check your graph for ops that do not "
                             f"support gradients, between variables {[v.name for _, v in grads_and_vars]} "
                             f"and loss {loss}.")
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None, name: str | None = None) -> Any:
        """Update each variable by its gradient (pairs whose gradient is None are skipped);
        returns the training operation in a graph (None in eager code)."""
        pairs = list(grads_and_vars)
        if not pairs:
            raise ValueError("No variables provided.")
        for g, v in pairs:
            if not isinstance(v, Variable):
                raise TypeError(f"Can not convert a {type(v).__name__} into a Variable.")
        pairs = [(g, v) for g, v in pairs if g is not None]
        if not pairs:
            raise ValueError(f"No gradients provided for any variable: {[v.name for _, v in grads_and_vars]}.")
        with name_scope(""):
            self._create_slots([v for _, v in pairs])
        updates = [u for g, v in pairs for u in self._apply(convert_to_tensor(g), v)]
        updates += self._finish()
        if global_step is not None:
            updates.append(global_step.assign_add(np.ones((), global_step.dtype.as_numpy_dtype)))
        g = _graph_now()
        return None if g is None else g._group(updates, name or self._name)

    # -- slots
    def _slot(self, var: Variable, name: str, value: Any = 0.0) -> Variable:
        """The slot ``name`` of ``var``, made (full of ``value``) if new: named
        ``<var>/<optimizer>``, which a graph makes unique (``w/Adam``, ``w/Adam_1``)."""
        table = self._slots.setdefault(name, {})
        if id(var) not in table:
            init = np.full(var.shape.as_list(), value, var.dtype.as_numpy_dtype)
            table[id(var)] = Variable(init, trainable=False, name=f"{var.name[:-2]}/{self._name}")
        return table[id(var)]

    def get_slot(self, var: Variable, name: str) -> Variable | None:
        """The slot variable ``name`` of ``var`` (None if there is none)."""
        return self._slots.get(name, {}).get(id(var))

    def get_slot_names(self) -> list:
        return sorted(self._slots)

    def variables(self) -> list:
        """The optimizer's variables: its non-slot variables, then its slots."""
        return list(self._non_slot.values()) + [v for t in self._slots.values() for v in t.values()]

    def _create_slots(self, var_list: list) -> None:
        pass

    def _finish(self) -> list:
        return []


class GradientDescentOptimizer(Optimizer):
    """``var -= learning_rate * gradient``."""

    def __init__(self, learning_rate: Any, use_locking: bool = False, name: str = "GradientDescent") -> None:
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate

    def _apply(self, grad: Tensor, var: Variable) -> Any:
        return [var.assign_sub(self._lr(self._learning_rate, var.dtype) * grad)]


class MomentumOptimizer(Optimizer):
    """``accum = momentum * accum + gradient; var -= learning_rate * accum`` (Nesterov:
    ``var -= learning_rate * (gradient + momentum * accum)``); slot ``"momentum"``."""

    def __init__(self, learning_rate: Any, momentum: Any, use_locking: bool = False, name: str = "Momentum",
                 use_nesterov: bool = False) -> None:
        super().__init__(use_locking, name)
        self._learning_rate, self._momentum, self._nesterov = learning_rate, momentum, use_nesterov

    def _create_slots(self, var_list: list) -> None:
        for v in var_list:
            self._slot(v, "momentum")

    def _apply(self, grad: Tensor, var: Variable) -> Any:
        lr, mom = self._lr(self._learning_rate, var.dtype), self._lr(self._momentum, var.dtype)
        slot = self.get_slot(var, "momentum")
        accum = slot * mom + grad
        step = grad * lr + accum * mom * lr if self._nesterov else accum * lr
        return [slot.assign(accum), var.assign_sub(step)]


class AdamOptimizer(Optimizer):
    """TF1's Adam: ``lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)``, ``m += (g - m) * (1 - beta1)``,
    ``v += (g^2 - v) * (1 - beta2)``, ``var -= lr_t * m / (sqrt(v) + epsilon)``; slots ``"m"``,
    ``"v"``; ``beta1_power``/``beta2_power`` are variables of the optimizer."""

    def __init__(self, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 use_locking: bool = False, name: str = "Adam") -> None:
        super().__init__(use_locking, name)
        self._learning_rate, self._beta1, self._beta2, self._epsilon = learning_rate, beta1, beta2, epsilon

    def _create_slots(self, var_list: list) -> None:
        if not self._non_slot:
            dtype = var_list[0].dtype.as_numpy_dtype
            self._non_slot["beta1_power"] = Variable(np.asarray(self._beta1, dtype), trainable=False,
                                                     name="beta1_power")
            self._non_slot["beta2_power"] = Variable(np.asarray(self._beta2, dtype), trainable=False,
                                                     name="beta2_power")
        for v in var_list:
            self._slot(v, "m")
            self._slot(v, "v")

    def _apply(self, grad: Tensor, var: Variable) -> Any:
        dt = var.dtype
        lr = self._lr(self._learning_rate, dt)
        b1, b2, eps = (self._lr(x, dt) for x in (self._beta1, self._beta2, self._epsilon))
        b1p, b2p = (_cast(self._non_slot[k], dt) for k in ("beta1_power", "beta2_power"))
        m_slot, v_slot = self.get_slot(var, "m"), self.get_slot(var, "v")
        lr_t = lr * _math.sqrt(1.0 - b2p) / (1.0 - b1p)
        m = m_slot + (grad - m_slot) * (1.0 - b1)
        v = v_slot + (_math.square(grad) - v_slot) * (1.0 - b2)
        return [m_slot.assign(m), v_slot.assign(v), var.assign_sub(lr_t * m / (_math.sqrt(v) + eps))]

    def _finish(self) -> list:
        b1p, b2p = self._non_slot["beta1_power"], self._non_slot["beta2_power"]
        return [b1p.assign(b1p * self._lr(self._beta1, b1p.dtype)), b2p.assign(b2p * self._lr(self._beta2, b2p.dtype))]


class AdagradOptimizer(Optimizer):
    """``accum += g^2; var -= lr * g / sqrt(accum)``; slot ``"accumulator"`` (starting at
    ``initial_accumulator_value``)."""

    def __init__(self, learning_rate: Any, initial_accumulator_value: float = 0.1, use_locking: bool = False,
                 name: str = "Adagrad") -> None:
        if initial_accumulator_value <= 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: {initial_accumulator_value}")
        super().__init__(use_locking, name)
        self._learning_rate, self._initial = learning_rate, initial_accumulator_value

    def _create_slots(self, var_list: list) -> None:
        for v in var_list:
            self._slot(v, "accumulator", self._initial)

    def _apply(self, grad: Tensor, var: Variable) -> Any:
        slot = self.get_slot(var, "accumulator")
        accum = slot + _math.square(grad)
        return [slot.assign(accum),
                var.assign_sub(self._lr(self._learning_rate, var.dtype) * grad / _math.sqrt(accum))]


class RMSPropOptimizer(Optimizer):
    """``rms = decay * rms + (1 - decay) * g^2`` (slot ``"rms"``, starting at 1);
    ``mom = momentum * mom + lr * g / sqrt(rms + epsilon)`` (slot ``"momentum"``); ``var -= mom``.
    ``centered`` also keeps the mean gradient (slot ``"mg"``) and divides by
    ``sqrt(rms - mg^2 + epsilon)``."""

    def __init__(self, learning_rate: Any, decay: float = 0.9, momentum: float = 0.0, epsilon: float = 1e-10,
                 use_locking: bool = False, centered: bool = False, name: str = "RMSProp") -> None:
        super().__init__(use_locking, name)
        self._learning_rate, self._decay, self._momentum = learning_rate, decay, momentum
        self._epsilon, self._centered = epsilon, centered

    def _create_slots(self, var_list: list) -> None:
        for v in var_list:
            self._slot(v, "rms", 1.0)
            if self._centered:
                self._slot(v, "mg")
            self._slot(v, "momentum")

    def _apply(self, grad: Tensor, var: Variable) -> Any:
        dt = var.dtype
        lr, rho, mu, eps = (self._lr(x, dt) for x in (self._learning_rate, self._decay, self._momentum,
                                                        self._epsilon))
        rms_slot, mom_slot = self.get_slot(var, "rms"), self.get_slot(var, "momentum")
        rms = rms_slot + (_math.square(grad) - rms_slot) * (1.0 - rho)
        updates = [rms_slot.assign(rms)]
        denom = rms
        if self._centered:
            mg_slot = self.get_slot(var, "mg")
            mg = mg_slot + (grad - mg_slot) * (1.0 - rho)
            updates.append(mg_slot.assign(mg))
            denom = rms - _math.square(mg)
        mom = mom_slot * mu + lr * grad / _math.sqrt(denom + eps)
        return updates + [mom_slot.assign(mom), var.assign_sub(mom)]


# ---- the global step -------------------------------------------------------------------------

def get_global_step(graph: Any = None) -> Variable | None:
    """The global step variable of ``graph`` (the default graph), or None."""
    g = graph or _graph.get_default_graph()
    found = g.get_collection(GLOBAL_STEP)
    if len(found) > 1:
        raise TypeError("There are multiple items in collection global_step. There should be only one.")
    return found[0] if found else None


def create_global_step(graph: Any = None) -> Variable:
    """Make the global step (an int64 scalar variable named ``global_step``, not trainable)."""
    g = graph or _graph.get_default_graph()
    if get_global_step(g) is not None:
        raise ValueError('"global_step" already exists.')
    with name_scope(""):
        v = Variable(np.zeros((), np.int64), trainable=False, name="global_step")
    g.add_to_collection(GLOBAL_STEP, v)
    return v


def get_or_create_global_step(graph: Any = None) -> Variable:
    """The global step of ``graph`` (the default graph), made if it has none.

    >>> import tapegrad as tf
    >>> with tf.Graph().as_default():
    ...     step = tf.compat.v1.train.get_or_create_global_step()
    >>> step.name, step.dtype
    ('global_step:0', tf.int64)
    """
    step = get_global_step(graph)
    return create_global_step(graph) if step is None else step


# ---- learning-rate decays --------------------------------------------------------------------

def _decay(fn: Callable, global_step: Any) -> Any:
    """The decayed value: a tensor in a graph, a callable in eager code (TensorFlow 2's)."""
    if global_step is None:
        raise ValueError("global_step is required for this decay.")
    return fn if _graph_now() is None else fn()


def _step(global_step: Any, dtype: Any) -> Tensor:
    return _cast(global_step, dtype)


def _timed(learning_rate: Any, global_step: Any, decay_steps: Any, decay_rate: Any, staircase: bool,
           rule: Callable) -> Any:
    """``rule(lr, decay_rate, p)`` with ``p = global_step / decay_steps`` (floored with ``staircase``)."""
    def decayed() -> Tensor:
        lr = convert_to_tensor(learning_rate, dtype_hint=_dtypes.float32)
        p = _step(global_step, lr.dtype) / _cast(decay_steps, lr.dtype)
        if staircase:
            p = _math.floor(p)
        return rule(lr, _cast(decay_rate, lr.dtype), p)
    return _decay(decayed, global_step)


def exponential_decay(learning_rate: Any, global_step: Any, decay_steps: Any, decay_rate: Any,
                      staircase: bool = False, name: str | None = None) -> Any:
    """``learning_rate * decay_rate ** (global_step / decay_steps)`` (the exponent floored with
    ``staircase``)."""
    return _timed(learning_rate, global_step, decay_steps, decay_rate, staircase,
                  lambda lr, rate, p: lr * _math.pow(rate, p))


def natural_exp_decay(learning_rate: Any, global_step: Any, decay_steps: Any, decay_rate: Any,
                      staircase: bool = False, name: str | None = None) -> Any:
    """``learning_rate * exp(-decay_rate * global_step / decay_steps)`` (floored with ``staircase``)."""
    return _timed(learning_rate, global_step, decay_steps, decay_rate, staircase,
                  lambda lr, rate, p: lr * _math.exp(-rate * p))


def inverse_time_decay(learning_rate: Any, global_step: Any, decay_steps: Any, decay_rate: Any,
                       staircase: bool = False, name: str | None = None) -> Any:
    """``learning_rate / (1 + decay_rate * global_step / decay_steps)`` (floored with ``staircase``)."""
    return _timed(learning_rate, global_step, decay_steps, decay_rate, staircase,
                  lambda lr, rate, p: lr / (1.0 + rate * p))


def polynomial_decay(learning_rate: Any, global_step: Any, decay_steps: Any, end_learning_rate: Any = 0.0001,
                     power: Any = 1.0, cycle: bool = False, name: str | None = None) -> Any:
    """``(learning_rate - end) * (1 - step / decay_steps) ** power + end``, the step held at
    ``decay_steps`` (with ``cycle``: ``decay_steps`` grows to the next multiple past the step)."""
    def decayed() -> Tensor:
        lr = convert_to_tensor(learning_rate, dtype_hint=_dtypes.float32)
        dt = lr.dtype
        step = _step(global_step, dt)
        steps = _cast(decay_steps, dt)
        if cycle:
            mult = _math.ceil(step / steps)
            steps = steps * _where(_math.equal(step, 0.0), _cast(1.0, dt), mult)
        else:
            step = _math.minimum(step, steps)
        end = _cast(end_learning_rate, dt)
        return (lr - end) * _math.pow(1.0 - step / steps, _cast(power, dt)) + end
    return _decay(decayed, global_step)


def cosine_decay(learning_rate: Any, global_step: Any, decay_steps: Any, alpha: float = 0.0,
                 name: str | None = None) -> Any:
    """``learning_rate * ((1 - alpha) * 0.5 * (1 + cos(pi * min(step, decay_steps) / decay_steps)) + alpha)``."""
    def decayed() -> Tensor:
        lr = convert_to_tensor(learning_rate, dtype_hint=_dtypes.float32)
        dt = lr.dtype
        steps = _cast(decay_steps, dt)
        frac = _math.minimum(_step(global_step, dt), steps) / steps
        cos = 0.5 * (1.0 + _math.cos(_cast(np.pi, dt) * frac))
        return lr * ((1.0 - alpha) * cos + alpha)
    return _decay(decayed, global_step)


def piecewise_constant(x: Any, boundaries: list, values: list, name: str | None = None) -> Any:
    """``values[0]`` while ``x <= boundaries[0]``, ``values[i]`` while ``boundaries[i-1] < x <=
    boundaries[i]``, ``values[-1]`` after the last boundary."""
    if len(values) != len(boundaries) + 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")

    def decayed() -> Tensor:
        xs = convert_to_tensor(x)
        vals = [convert_to_tensor(v) for v in values]
        out = vals[-1]
        for b, v in reversed(list(zip(boundaries, vals[:-1]))):
            out = _where(_math.less_equal(xs, _cast(b, xs.dtype)), v, out)
        return out
    return _decay(decayed, x)

