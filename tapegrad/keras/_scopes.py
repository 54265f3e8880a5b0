"""Keras 3's scopes: ``keras.StatelessScope`` (variables read from and written to a mapping, the
variables themselves untouched), ``keras.SymbolicScope``, ``keras.RematScope`` with
``keras.remat``, and ``keras.device``."""
from __future__ import annotations

import threading
from collections import namedtuple
from typing import Any, Callable

from ._engine import Tensor, convert_to_tensor, device as _tf_device, recompute_grad
from ._variables import KerasVariable
from ..ops.math import cast

__all__ = ["RematMode", "RematScope", "StatelessScope", "SymbolicScope", "device", "get_current_remat_mode",
           "get_stateless_scope", "get_symbolic_scope", "in_stateless_scope", "in_symbolic_scope", "remat"]


class _State(threading.local):
    stateless: Any = None
    symbolic: Any = None

    def __init__(self) -> None:
        self.remat: list = []


_STATE = _State()
_PLAIN = {}  # KerasVariable's own methods while a StatelessScope reroutes them (empty otherwise)
_OWN: dict = {}  # whether KerasVariable itself defined each rerouted method (else: inherited)
_ACTIVE = [0]  # StatelessScopes entered and not left, in every thread


def _scoped_read(self: KerasVariable) -> Tensor:
    scope = _STATE.stateless
    if scope is not None:
        value = scope.state_mapping.get(id(self))
        if value is not None:
            return value
    return _PLAIN["_read"](self)


def _scoped_assign(self: KerasVariable, value: Any, use_locking: Any = None, name: Any = None,
                   read_value: bool = True) -> Any:
    scope = _STATE.stateless
    if scope is None:
        return _PLAIN["assign"](self, value, use_locking, name, read_value)
    value = convert_to_tensor(value, dtype=self.dtype)
    if tuple(value.shape) != tuple(self.shape):
        raise ValueError("The shape of the target variable and the shape of the target value in "
                         f"`variable.assign(value)` must match. variable.shape={self.shape}, "
                         f"Received: value.shape={value.shape}. Target variable: {self}")
    scope.add_update((self, value))
    return self if read_value else None


def _scoped_assign_add(self: KerasVariable, delta: Any, use_locking: Any = None, name: Any = None,
                       read_value: bool = True) -> Any:
    if _STATE.stateless is None:
        return _PLAIN["assign_add"](self, delta, use_locking, name, read_value)
    return _scoped_assign(self, self._read() + convert_to_tensor(delta, dtype=self.dtype), read_value=read_value)


def _scoped_assign_sub(self: KerasVariable, delta: Any, use_locking: Any = None, name: Any = None,
                       read_value: bool = True) -> Any:
    if _STATE.stateless is None:
        return _PLAIN["assign_sub"](self, delta, use_locking, name, read_value)
    return _scoped_assign(self, self._read() - convert_to_tensor(delta, dtype=self.dtype), read_value=read_value)


def _scoped_numpy(self: KerasVariable) -> Any:
    if _STATE.stateless is None:
        return _PLAIN["numpy"](self)
    return self._read().numpy()


_REROUTED = {"_read": _scoped_read, "assign": _scoped_assign, "assign_add": _scoped_assign_add,
             "assign_sub": _scoped_assign_sub, "numpy": _scoped_numpy}
_LOCK = threading.Lock()


class StatelessScope:
    """Variables untouched: inside, a ``keras.Variable`` reads the value ``state_mapping`` gives it
    (a list of ``(variable, value)`` pairs), and an assignment goes to the scope, read back with
    :meth:`get_current_value`. ``collect_losses=True`` gathers the layers' ``add_loss`` into
    :attr:`losses` (without it a layer drops them, as Keras's does inside the scope).

    >>> from tapegrad import keras
    >>> v = keras.Variable([1.0, 2.0])
    >>> with keras.StatelessScope([(v, [10.0, 20.0])]) as scope:
    ...     _ = v.assign(v * 2)
    >>> v.numpy(), scope.get_current_value(v).numpy()
    (array([1., 2.], dtype=float32), array([20., 40.], dtype=float32))
    """

    def __init__(self, state_mapping: Any = None, collect_losses: bool = False,
                 initialize_variables: bool = True) -> None:
        self.collect_losses = collect_losses
        self.initialize_variables = initialize_variables
        self.losses: list = []
        self.state_mapping: dict = {}
        for k, v in state_mapping or {}:
            if not isinstance(k, KerasVariable):
                raise ValueError("Invalid reference variable in StatelessScope: all keys in argument "
                                 f"`mapping` must be Variable instances. Received instead: {k}")
            if isinstance(v, KerasVariable):
                v = cast(_PLAIN.get("_read", KerasVariable._read)(v), k.dtype)
            else:
                v = convert_to_tensor(v, dtype=k.dtype)
            if tuple(k.shape) != tuple(v.shape):
                raise ValueError("Invalid variable value in StatelessScope: all values in argument "
                                 "`mapping` must be tensors with a shape that matches the corresponding "
                                 f"variable shape. For variable {k}, received invalid value {v} with "
                                 f"shape {v.shape}.")
            self.state_mapping[id(k)] = v

    def __enter__(self) -> "StatelessScope":
        with _LOCK:
            if _ACTIVE[0] == 0:
                for name, fn in _REROUTED.items():
                    _PLAIN[name] = getattr(KerasVariable, name)
                    _OWN[name] = name in KerasVariable.__dict__
                    setattr(KerasVariable, name, fn)
            _ACTIVE[0] += 1
        self.original_scope = _STATE.stateless
        _STATE.stateless = self
        return self

    def add_loss(self, loss: Any) -> None:
        self.losses.append(loss)

    def add_update(self, update: tuple) -> None:
        variable, value = update
        self.state_mapping[id(variable)] = value

    def get_current_value(self, variable: Any) -> Any:
        """The value the scope holds for ``variable`` (given or assigned), or None."""
        return self.state_mapping.get(id(variable), None)

    def __exit__(self, *exc: Any) -> None:
        _STATE.stateless = self.original_scope
        with _LOCK:
            _ACTIVE[0] -= 1
            if _ACTIVE[0] == 0:
                for name in _REROUTED:
                    # (a later reroute of the class, autocasting's, stays in place)
                    if KerasVariable.__dict__.get(name) is _REROUTED[name]:
                        if _OWN[name]:
                            setattr(KerasVariable, name, _PLAIN[name])
                        else:
                            delattr(KerasVariable, name)
                _PLAIN.clear()


def in_stateless_scope() -> bool:
    return _STATE.stateless is not None


def get_stateless_scope() -> Any:
    return _STATE.stateless


class SymbolicScope:
    """Marks the symbolic stage (Keras sets it while it traces a layer on ``KerasTensor`` inputs);
    :func:`in_symbolic_scope` says whether one is entered.

    >>> from tapegrad import keras
    >>> with keras.SymbolicScope() as scope:
    ...     pass
    """

    def __enter__(self) -> "SymbolicScope":
        self.original_scope = _STATE.symbolic
        _STATE.symbolic = self
        return self

    def __exit__(self, *exc: Any) -> None:
        _STATE.symbolic = self.original_scope


def in_symbolic_scope() -> bool:
    return _STATE.symbolic is not None


def get_symbolic_scope() -> Any:
    return _STATE.symbolic


RematMode = namedtuple("RematMode", ["mode", "output_size_threshold", "layer_names"])


class RematScope:
    """Rematerialization (gradient checkpointing) for the layers called inside: ``mode`` is
    ``"full"``, ``"activations"``, ``"larger_than"`` (outputs over ``output_size_threshold``),
    ``"list_of_layers"`` (``layer_names``) or None. Recomputing gives the same values and
    gradients, so on tapegrad the scope records the mode (:func:`get_current_remat_mode`) and
    changes no number.

    >>> from tapegrad import keras
    >>> from tapegrad.keras._scopes import get_current_remat_mode
    >>> with keras.RematScope(mode="larger_than", output_size_threshold=2048):
    ...     get_current_remat_mode().output_size_threshold
    2048
    """

    def __init__(self, mode: str | None = "full", output_size_threshold: int = 1024,
                 layer_names: list | None = None) -> None:
        if mode not in {"full", "activations", "larger_than", "list_of_layers", None}:
            raise ValueError(f"Invalid mode '{mode}'. Supported modes are: 'full', 'activations', "
                             "'larger_than', 'list_of_layers', or  None.")
        self.mode = mode
        self.output_size_threshold = output_size_threshold
        self.layer_names = layer_names or []
        self._pop_on_exit = False

    def __enter__(self) -> "RematScope":
        _STATE.remat.append(self)
        self._pop_on_exit = True
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._pop_on_exit:
            _STATE.remat.pop()
            self._pop_on_exit = False


def get_current_remat_mode() -> RematMode | None:
    """The innermost :class:`RematScope`'s settings, or None outside one."""
    if not _STATE.remat:
        return None
    s = _STATE.remat[-1]
    return RematMode(s.mode, s.output_size_threshold, s.layer_names)


def remat(f: Callable) -> Callable:
    """``f`` recomputed on the backward pass instead of keeping its intermediate values
    (``tf.recompute_grad``, as Keras's TensorFlow backend makes it): same values and gradients.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> f = keras.remat(lambda x: tf.sin(x) * x)
    >>> x = tf.constant(1.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = f(x)
    >>> round(float(tape.gradient(y, x)), 3)
    1.382
    """
    return recompute_grad(f)


def device(device_name: str) -> Any:
    """A context manager that places the ops and tensors made inside on ``device_name``
    (``"cpu:0"``, ``"gpu:0"``), as ``tf.device`` does (Keras's TensorFlow backend).

    >>> from tapegrad import keras
    >>> with keras.device("cpu:0"):
    ...     x = keras.ops.ones((2,))
    >>> x.device.endswith("CPU:0")
    True
    """
    return _tf_device(device_name)
