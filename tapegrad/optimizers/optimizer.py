"""The optimizer base class: gradient checking, clipping, weight decay, sparse rows, slots.

Subclasses give their slot variables (``_slots``) and one update formula, ``_update``, written on
NumPy arrays of the variable's dtype. The base class turns ``(gradient, variable)`` pairs into
those arrays and writes the results back with ``Variable.assign``. For a Variable on a GPU the
arrays are CuPy's (which takes NumPy's functions), and the slots live on the variable's GPU.

The fused path: a subclass may also give ``_update_into``, the same formula written with NumPy's
``out=`` into preallocated arrays, with the same operations in the same order (so the same bits).
It serves dense float32 and float64 gradients of variables in host memory, the common case: the
new values of the variable and of its slots are written into arrays no reader holds
(``Variable._spare_buffer``: the value before the previous update, reused when nothing kept it)
and the intermediate results into scratch arrays the optimizer keeps, so a step allocates
nothing. Sparse rows, other dtypes and GPU variables take ``_update``. Where numba is installed and
compiled updates are asked for (``Model.compile(jit_compile=...)``, ``tf.config.optimizer.set_jit``),
``_jit_update`` does the same operations in one loop (:mod:`tapegrad._jit`), and where no reader
holds the variable's value nor its slots' (``Variable._sole_value``: in a training step, once the
step's reads are released), that loop writes the new values over the old ones, as TensorFlow's
kernels do: no spare buffers, each number read and written once.
"""
from __future__ import annotations

import os
import re
import sys
import warnings
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from .. import _backend as _bk
from ..diagnosis import none_gradient_hint, variable_name
from .._convert import convert_to_tensor
from .._tensor import IndexedSlices, Tensor
from .._trace import replayable
from .._variable import Variable
from ..errors import InvalidArgumentError
from .. import _jit, _recorders as _rec
from .._scatter import sum_rows as _sum_rows_np
from . import schedules
from .schedules import LearningRateSchedule

__all__ = ["Optimizer", "serialize", "deserialize", "get"]

_BY_NAME: dict[str, type] = {}  # lower-case class name -> the optimizer classes of tapegrad.optimizers

# tf.distribute's hook: on the workers of a mirrored strategy tapegrad/distribute/_replica.py sets
# it to a function that, inside a replica step, sums the (clipped) gradients across replicas before
# they are applied, as TF's optimizers do; None elsewhere.
replica_hook: Callable[["Optimizer", list], list] | None = None


class _Rows:
    """A sparse gradient with duplicate indices summed: ``values[i]`` belongs to row ``index[i]``.

    Where the slices repeat a row, ``raw`` keeps their values as given and ``where`` the row of
    each: Keras's ops act on an IndexedSlices' values before its duplicates are summed
    (``keras.ops.square`` keeps the slices; adding them to a dense slot sums them), so Adam's
    second moment takes ``Σ gᵢ²`` where its first takes ``Σ gᵢ``, and scaling or clipping acts on
    each ``gᵢ``. :meth:`map` and :meth:`summed` follow that; without duplicates both are None."""

    __slots__ = ("index", "values", "where", "raw")

    def __init__(self, index: np.ndarray, values: np.ndarray, where: np.ndarray | None = None,
                 raw: np.ndarray | None = None) -> None:
        self.index, self.values, self.where, self.raw = index, values, where, raw

    def summed(self, fn: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """``fn`` of each slice's values, summed per row (``fn(values)`` without duplicates)."""
        if self.raw is None:
            return fn(self.values)
        return sum_rows(fn(self.raw), self.where, len(self.values))

    def map(self, fn: Callable[[np.ndarray], np.ndarray]) -> "_Rows":
        """The slices with ``fn`` applied to each slice's values (then summed per row)."""
        if self.raw is None:
            return _Rows(self.index, fn(self.values))
        raw = fn(self.raw)
        return _Rows(self.index, sum_rows(raw, self.where, len(self.values)), self.where, raw)


def sum_rows(values: np.ndarray, index: np.ndarray, num_rows: int) -> np.ndarray:
    """tapegrad._scatter.sum_rows, with the compiled loop inside a jit-compiled step (same bits)."""
    return _sum_rows_np(values, index, num_rows, _jit.kernel("sum_rows") if _jit.ops_wanted() else None)


def _divided(g: Any, scale: float) -> Any:
    if isinstance(g, _Rows):
        return g.map(lambda a: a / a.dtype.type(scale))
    return g / g.dtype.type(scale)


def _dense(g: Any, like: Variable) -> np.ndarray:
    if isinstance(g, _Rows):
        out = np.zeros(_shape_of(like), like.dtype.as_numpy_dtype)
        out[g.index] = g.values
        return out
    return g


def _caller_level() -> int:
    """The ``stacklevel`` that makes a warning point at the first frame outside this package."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # (the package)
    frame, level = sys._getframe(1), 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(here):
        frame, level = frame.f_back, level + 1
    return level


def _name_of(v: Any) -> str:
    return getattr(v, "name", None) or repr(v)


def _slot_base(v: Any) -> str:
    """Keras 3's prefix of a variable's slot names: its path with ``_`` for ``/`` (a Keras
    variable), else its name with ``_`` for ``/`` and ``:`` (``"w:0"`` gives ``"w_0"``)."""
    path = getattr(v, "path", None)
    if path is not None:
        return str(path).replace("/", "_")
    return str(_name_of(v)).replace("/", "_").replace(":", "_")


class _OptimizerVariable(Variable):
    """An optimizer's own variable (its step count, learning rate, slots), named as Keras 3 names
    it: ``name`` without ``":0"``, ``path`` ``"<optimizer name>/<name>"``."""

    def __init__(self, value: Any, name: str, owner: str) -> None:
        super().__init__(value, trainable=False, name=name)
        self._keras_name, self._path = name, f"{owner}/{name}"

    @property
    def name(self) -> str:  # type: ignore[override]
        """The bare name, as Keras 3 gives it (``"adam_momentum"``... no ``":0"``)."""
        return self._keras_name

    @property
    def path(self) -> str:
        """``"<optimizer name>/<name>"``."""
        return self._path


def _value_of(v: Variable) -> Any:
    """A copy of the value: a NumPy array, or the backend's array where the value lives."""
    t = v.value()
    if _bk.seen and type(t) is _bk.ArrayTensor:
        return t.array.copy()
    return np.array(t.numpy(), copy=True)


def _store(v: Variable, a: Any, g: Any) -> None:
    """``v.assign(a)``, without copying a NumPy ``a`` that the update made (it owns its memory,
    is not the gradient ``g``, and has ``v``'s dtype and shape)."""
    old = v.value()._value
    if (type(a) is not np.ndarray or type(old) is not np.ndarray or a is g or not a.flags.owndata
            or a.dtype != old.dtype or a.shape != old.shape):
        v.assign(a)
        return
    with v._lock:
        v._set(a, fresh=True)
    v._on_assign("assign", a)


def _where(v: Variable) -> Any:
    """The Boxed value of a Variable on a backend (a GPU), else None."""
    if _bk.seen and type(t := v.value()) is _bk.ArrayTensor:
        return t._value
    return None


def _at(a: np.ndarray, v: Variable) -> Any:
    """Host array ``a`` moved where ``v``'s value lives."""
    like = _where(v)
    return a if like is None else _bk.moved(a, like).a


_FUSED_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
# (float16 is left alone: TF computes half in float32, whose flush keeps half's subnormals)
_TINY = {np.dtype(t): np.finfo(t).tiny for t in (np.float32, np.float64)}


def flush_subnormal(a: Any, floor: Any = None) -> Any:
    """``a`` with its subnormal values (or, given ``floor``, those of magnitude below it) set to
    zero, keeping their sign: in place where the NumPy array ``a`` is writeable, else in a copy
    (made only when there is something to flush).

    TensorFlow's CPU kernels run with subnormals flushed to zero (FTZ/DAZ), so a slot that decays
    geometrically, such as Adam's first moment where a ReLU unit is dead, reaches 0 there; without
    the flush it would sink through the subnormals, which the CPU computes about 100 times more
    slowly (an MLP's epoch took 2.4 times as long from its third epoch on)."""
    tiny = _TINY.get(a.dtype) if type(a) is np.ndarray else None
    if tiny is None or not a.size:
        return a
    if floor is not None:
        tiny = floor
    small = (np.abs(a) < tiny) & (a != 0)
    if small.any():
        if not a.flags.writeable:
            a = a.copy()
        np.multiply(a, a.dtype.type(0), out=a, where=small)
    return a


class _Scratch:
    """Scratch arrays for one fused update: ``tmp(k, like)`` is the ``k``-th, shaped as ``like``
    (a view of a flat buffer kept across steps and variables, grown to the largest)."""

    __slots__ = ("flat",)

    def __init__(self) -> None:
        self.flat: dict = {}   # (k, dtype) -> 1-D array

    def tmp(self, k: int, like: np.ndarray) -> np.ndarray:
        buf = self.flat.get((k, like.dtype))
        if buf is None or buf.size < like.size:
            buf = self.flat[(k, like.dtype)] = np.empty(like.size, like.dtype)
        return buf[:like.size].reshape(like.shape)


def _shape_of(v: Variable) -> tuple:
    """The shape of the current value (a Variable declared with a partial shape reports that)."""
    return tuple(v.value().shape)


class Optimizer:
    """Base class of the optimizers (Keras 3's ``keras.optimizers.Optimizer``).

    Arguments shared by every optimizer:

    learning_rate: a float, a :class:`~tapegrad.optimizers.schedules.LearningRateSchedule`
        (called with :attr:`iterations` before each update) or a callable with no arguments.

    weight_decay: if set, every update first does ``var -= var * weight_decay * learning_rate``
        (decoupled weight decay; see :meth:`exclude_from_weight_decay`).

    clipnorm, clipvalue, global_clipnorm: clip each gradient to this L2 norm, clip each
        gradient element to ``[-clipvalue, clipvalue]``, or scale all gradients together so
        their joint L2 norm is at most ``global_clipnorm`` (at most one of the three).

    use_ema, ema_momentum, ema_overwrite_frequency: with ``use_ema=True`` the optimizer keeps an
        exponential moving average of each variable (``avg = ema_momentum * avg + (1 -
        ema_momentum) * var`` after each step, ``avg = var`` on the first); every
        ``ema_overwrite_frequency`` steps the variables are overwritten with their averages, and
        :meth:`finalize_variable_values` (called at the end of ``Model.fit``) does it once.

    loss_scale_factor: if set, :meth:`scale_loss` multiplies the loss by it (``Model.fit`` does
        this) and the gradients are divided by it before they are applied.

    gradient_accumulation_steps: an int >= 2: gradients are summed over this many calls and the
        variables are updated on every such call with their mean; :attr:`iterations` then
        counts updates (calls // steps).

    name: the optimizer's name (used to name its variables).

    After the updates, each updated variable that has a ``constraint`` (``tf.Variable(...,
    constraint=fn)``) is set to ``fn(variable)``, as Keras does.

    Use :meth:`apply_gradients` with the pairs from a ``GradientTape``, or :meth:`minimize`.
    A ``None`` gradient is skipped with a warning that names the variable; gradients given as
    :class:`~tapegrad.IndexedSlices` (from ``tf.gather``) update only the rows they name when the
    formula allows it, with duplicate indices summed first.
    """

    _slots: tuple = ()
    _rowwise = False  # True when rows with a zero gradient are left unchanged by _update
    _per_slice: "_Rows | None" = None   # the slices being applied, when they repeat a row
    _jit_compile: bool | None = None  # compiled updates (_jit.py); None: tf.config.optimizer.get_jit()
    _deferred_restore: Any = None  # (set by tf.train.Checkpoint: restores the slots made after a restore)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__module__.startswith(__package__ + ".") and not cls.__name__.startswith("_"):  # (not a user's)
            _BY_NAME[cls.__name__.lower()] = cls

    def __init__(self, learning_rate: Any, weight_decay: float | None = None,
                 clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, name: str | None = None, *,
                 use_ema: bool = False, ema_momentum: float = 0.99,
                 ema_overwrite_frequency: int | None = None, loss_scale_factor: float | None = None,
                 gradient_accumulation_steps: int | None = None) -> None:
        if gradient_accumulation_steps and not (isinstance(gradient_accumulation_steps, int)
                                                and gradient_accumulation_steps >= 2):
            raise ValueError("`gradient_accumulation_steps` must be an integer >= 2. Received: "
                             f"gradient_accumulation_steps={gradient_accumulation_steps}")
        if use_ema:
            if not 0 <= ema_momentum <= 1:
                raise ValueError("`ema_momentum` must be in the range [0, 1]. "
                                 f"Received: ema_momentum={ema_momentum}")
            if ema_overwrite_frequency and (not isinstance(ema_overwrite_frequency, int)
                                            or ema_overwrite_frequency < 1):
                raise ValueError("`ema_overwrite_frequency` must be an integer >= 1 or None. "
                                 f"Received: ema_overwrite_frequency={ema_overwrite_frequency}")
        self.use_ema, self.ema_momentum = use_ema, ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        self.loss_scale_factor = loss_scale_factor
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self._ema_vars: list[Variable] = []
        self._accumulators: list[Variable] = []
        if sum(a is not None for a in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. "
                             f"Received: clipnorm={clipnorm}, clipvalue={clipvalue}, "
                             f"global_clipnorm={global_clipnorm}")
        self.name = name or type(self).__name__.lower()
        self.weight_decay = weight_decay
        self.clipnorm, self.clipvalue, self.global_clipnorm = clipnorm, clipvalue, global_clipnorm
        self._iterations = self._own_variable(np.int64(0), "iteration")
        self._learning_rate = self._make_learning_rate(learning_rate)
        self._vars: list[Variable] = []
        self._index: dict = {}  # var.ref() -> position in _vars
        self._slot_vars: dict[str, list[Variable]] = {s: [] for s in self._slots}
        self._exclude_refs: set = set()
        self._exclude_pattern: re.Pattern | None = None
        self._scratch: list[_Scratch] = []   # (a pool: concurrent steps each take their own)

    # ------------------------------------------------------------------ learning rate
    def _own_variable(self, value: Any, name: str) -> Variable:
        """A non-trainable variable of the optimizer's, named as Keras 3 names it."""
        return _OptimizerVariable(value, name, self.name)

    def _make_learning_rate(self, lr: Any) -> Any:
        if isinstance(lr, LearningRateSchedule) or callable(lr):
            return lr
        if isinstance(lr, (bool, int)) or not isinstance(lr, (float, np.floating)):
            raise ValueError(
                "Argument `learning_rate` should be float, or an instance of "
                "LearningRateSchedule, or a callable (that takes in the current iteration value "
                f"and returns the corresponding learning rate value). Received instead: "
                f"learning_rate={lr!r}" + (f" (write {float(lr)!r})" if isinstance(lr, int) else ""))
        return self._own_variable(np.float32(lr), "learning_rate")

    @property
    def learning_rate(self) -> Any:
        """The current learning rate: a float32 Variable, or the schedule's value at :attr:`iterations`."""
        lr = self._learning_rate
        if isinstance(lr, Variable):
            return lr
        if isinstance(lr, LearningRateSchedule):
            return lr(self._iterations)
        return lr()

    @learning_rate.setter
    def learning_rate(self, value: Any) -> None:
        if isinstance(self._learning_rate, Variable) and not (
                isinstance(value, LearningRateSchedule) or callable(value)):
            self._learning_rate.assign(np.float32(value))
        elif isinstance(self._learning_rate, LearningRateSchedule) and not isinstance(
                value, LearningRateSchedule):
            raise TypeError("This optimizer was created with a `LearningRateSchedule` object as "
                            "its `learning_rate` constructor argument, hence its learning rate is "
                            "not settable. To set it, create the optimizer with a float "
                            "`learning_rate` argument.")
        else:
            self._learning_rate = self._make_learning_rate(value)

    @property
    def iterations(self) -> Any:
        """The number of updates applied so far (an int64 Variable; with
        ``gradient_accumulation_steps``, the number of calls divided by it, a Tensor)."""
        if self.gradient_accumulation_steps:
            return self._iterations // np.int64(self.gradient_accumulation_steps)
        return self._iterations

    def _step_count(self) -> int:
        return int(self._iterations.numpy()) // (self.gradient_accumulation_steps or 1)

    def scale_loss(self, loss: Any) -> Any:
        """``loss * loss_scale_factor``, or ``loss`` when no factor is set (for the gradients that
        :meth:`apply` divides back)."""
        return loss if self.loss_scale_factor is None else loss * self.loss_scale_factor

    def finalize_variable_values(self, var_list: Sequence[Variable]) -> None:
        """With ``use_ema``, set the variables to their moving averages (``Model.fit`` calls this
        when training ends); otherwise nothing."""
        if not self.use_ema:
            return
        var_list = list(var_list)
        if len(var_list) != len(self._ema_vars):
            raise ValueError(f"The length of model variables ({len(var_list)}) to override does not "
                             "match the length of model variables stored in the optimizer "
                             f"({len(self._ema_vars)}). Please check if the optimizer was called "
                             "on your model.")
        for v, avg in zip(var_list, self._ema_vars):
            v.assign(avg)

    # ------------------------------------------------------------------ variables
    @property
    def built(self) -> bool:
        """Whether the optimizer has variables to update (Keras's ``optimizer.built``)."""
        return bool(self._vars)

    @property
    def variables(self) -> list[Variable]:
        """The optimizer's own state: ``iterations``, the learning rate Variable, then the slots
        of each variable in the order they were first seen."""
        out = [self._iterations]
        if isinstance(self._learning_rate, Variable):
            out.append(self._learning_rate)
        out += self._ema_vars + self._accumulators
        for i in range(len(self._vars)):
            out.extend(self._slot_vars[s][i] for s in self._slots)
        return out

    def build(self, var_list: Iterable[Variable]) -> None:
        """Create the slot variables for ``var_list`` (done automatically on first use)."""
        for v in var_list:
            self._track(v)

    def _slot_initial(self, slot: str, v: Variable) -> np.ndarray:
        return np.zeros(_shape_of(v), v.dtype.as_numpy_dtype)

    def _check_floating(self, v: Variable) -> None:
        if not v.dtype.is_floating:
            raise TypeError(f"{type(self).__name__} can only update floating-point variables; "
                            f"variable {_name_of(v)} has dtype {v.dtype.name}.")

    def _track(self, v: Variable) -> int:
        key = v.ref()
        i = self._index.get(key)
        if i is None:
            self._check_floating(v)
            i = self._index[key] = len(self._vars)
            self._vars.append(v)
            base = _slot_base(v)
            if any(_slot_base(w) == base for w in self._vars[:-1]):
                base = f"{base}_{i}"   # unnamed variables share a name: keep slot names unique
            for s in self._slots:
                self._slot_vars[s].append(self._own_variable(_at(self._slot_initial(s, v), v), f"{base}_{s}"))
            if self.use_ema:
                self._ema_vars.append(self._own_variable(_value_of(v), f"{base}_average"))
            if self.gradient_accumulation_steps:
                self._accumulators.append(self._own_variable(np.zeros_like(_value_of(v)),
                                                             f"{base}_gradient_accumulator"))
            if self._deferred_restore is not None:
                self._deferred_restore(self)
        return i

    def exclude_from_weight_decay(self, var_list: Sequence[Variable] | None = None,
                                  var_names: Sequence[str] | None = None) -> None:
        """Leave these variables out of weight decay: the ones in ``var_list``, and those whose
        name contains any of the strings in ``var_names`` (e.g. ``["bias"]``)."""
        self._exclude_refs = {v.ref() for v in var_list or ()}
        self._exclude_pattern = re.compile("|".join(map(re.escape, var_names))) if var_names else None

    def _decays(self, v: Variable) -> bool:
        if v.ref() in self._exclude_refs:
            return False
        return not (self._exclude_pattern and self._exclude_pattern.search(_name_of(v)))

    # ------------------------------------------------------------------ applying gradients
    @replayable  # (a tf.function trace replays the whole update as one step)
    def apply_gradients(self, grads_and_vars: Iterable[tuple[Any, Variable]]) -> Variable:
        """Update each variable from its gradient; returns :attr:`iterations` (after the increment).

        ``grads_and_vars`` is an iterable of ``(gradient, variable)`` pairs, e.g.
        ``zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables)``.
        Pairs whose gradient is ``None`` are skipped with a ``UserWarning`` naming the variables;
        a ``ValueError`` is raised when every gradient is ``None``.
        """
        pairs = list(grads_and_vars)
        if not pairs:
            return self._iterations
        for p in pairs:
            if not (isinstance(p, (tuple, list)) and len(p) == 2):
                raise TypeError("apply_gradients expects (gradient, variable) pairs, e.g. "
                                f"zip(grads, variables); got an element {p!r}.")
        return self.apply([g for g, _ in pairs], [v for _, v in pairs])

    def apply(self, grads: Sequence[Any], trainable_variables: Sequence[Variable] | None = None) -> Variable:
        """Like :meth:`apply_gradients` with the gradients and variables as two lists.

        Without ``trainable_variables`` the gradients go to the variables the optimizer was
        built with (:meth:`build`), in that order.
        """
        grads = list(grads)
        done = self._apply_planned(grads, trainable_variables)
        if done is not None:
            return done
        if trainable_variables is None:
            if len(grads) != len(self._vars):
                raise ValueError(f"Got {len(grads)} gradients but the optimizer tracks "
                                 f"{len(self._vars)} variables; pass the variables too, or call "
                                 "optimizer.build(variables) first.")
            variables = list(self._vars)
        else:
            variables = list(trainable_variables)
            if len(variables) != len(grads):
                raise ValueError(f"Got {len(grads)} gradients for {len(variables)} variables.")
        if not grads:
            return self._iterations
        for v in variables:
            if not isinstance(v, Variable):
                raise TypeError(f"Optimizers update tf.Variable objects; got {type(v).__name__} "
                                f"{v!r}. Only Variables can be assigned to.")
        none = [v for g, v in zip(grads, variables) if g is None]
        missing = [variable_name(v) for v in none]  # Keras names a Keras weight by its path
        work = [(g, v) for g, v in zip(grads, variables) if g is not None]
        if not work:
            raise ValueError(
                f"No gradients provided for any variable. Every gradient was None (variables: "
                f"{missing}): the loss does not depend on them through operations a "
                "GradientTape recorded. Check that the loss was computed inside the tape from "
                "these variables, without .numpy() or other NumPy conversions on the way. "
                + none_gradient_hint(none))
        if missing:
            warnings.warn(
                f"Gradients do not exist for variables {missing} when minimizing the loss. If "
                "using `model.compile()`, did you forget to provide a `loss` argument? They were "
                "not updated. A None gradient means the loss does not depend on the variable "
                "through operations the GradientTape recorded (an unused variable or layer, "
                ".numpy() or a NumPy call on the way, or computed outside the tape). "
                + none_gradient_hint(none),
                UserWarning, stacklevel=_caller_level())
        for _, v in work:  # check everything before changing anything
            self._check_floating(v)
        if any(getattr(v, "overwrite_with_gradient", False) for _, v in work):
            work = self._overwrite_with_gradients(work)
            if not work:
                return self._finish_step([])
        if _bk.seen:  # Dask gradients of host variables: all computed in one pass over the data
            host = [i for i, (_, v) in enumerate(work) if _where(v) is None]
            for i, g in zip(host, _bk.computed_together([work[i][0] for i in host])):
                work[i] = (g, work[i][1])
        prepared = [(self._gradient_array(g, v), v) for g, v in work]
        if self.loss_scale_factor is not None:
            prepared = [(_divided(g, self.loss_scale_factor), v) for g, v in prepared]
        steps = self.gradient_accumulation_steps
        if steps:
            accumulators = [self._accumulators[self._track(v)] for _, v in prepared]
            if (int(self._iterations.numpy()) + 1) % steps:
                for (g, v), acc in zip(prepared, accumulators):
                    acc.assign(_value_of(acc) + _dense(g, acc))
                return self._finish_step([v for _, v in prepared])
            prepared = [((_dense(g, acc) + _value_of(acc)) / _value_of(acc).dtype.type(steps), v)
                        for (g, v), acc in zip(prepared, accumulators)]
        prepared = self._clip(prepared)
        if replica_hook is not None:  # tf.distribute: the cross-replica sum
            prepared = replica_hook(self, prepared)
        lr_value = self._lr_array()
        step = self._step_count() + 1
        self._begin_step(step)
        for g, v in prepared:
            i = self._track(v)
            lr = lr_value.astype(v.dtype.as_numpy_dtype)[()]  # (a scalar: CuPy takes no NumPy array)
            if self.weight_decay is not None and self._decays(v):
                self._decay(v, lr)
            self._apply_one(g, v, i, lr, step)
        if steps:
            for acc in self._accumulators:
                acc.assign(np.zeros_like(_value_of(acc)))
        return self._finish_step([v for _, v in prepared])

    def _apply_planned(self, grads: list, variables: Any) -> Any:
        """:meth:`apply` for what a training step gives it, without its per-step checks: the
        same variables as the last call (all tracked, floating NumPy values, no constraint or
        gradient overwrite), a gradient for each, and none of the options that change the
        gradients (clipping, loss scale, accumulation, weight decay, EMA, a replica sum). Dense
        gradients of the variables' shapes and dtypes take the fused update inline; others
        (IndexedSlices, ...) apply's per-variable path, all prepared before anything changes. The
        same updates in the same order; None where anything else holds (then apply's general
        path runs and checks everything). Not while a recorder is active (a tape or a trace:
        they see the reads and writes of the general path)."""
        if (variables is None or _rec.active or replica_hook is not None or _bk.seen
                or self.loss_scale_factor is not None
                or self.gradient_accumulation_steps or self.clipnorm or self.global_clipnorm
                or self.clipvalue or self.weight_decay is not None or self.use_ema):
            return None
        plan = self.__dict__.get("_plan")
        if plan is None or plan[1] is None or len(plan[0]) != len(variables) or not all(
                a is b for a, b in zip(plan[0], variables)):
            plan = self.__dict__["_plan"] = self._plan_for(list(variables))
        if plan[1] is None or len(grads) != len(plan[1]):
            return None
        prepared = []
        for g, (v, i, _) in zip(grads, plan[1]):
            if g is None or v.constraint is not None:
                return None
            x = v._snap._value
            if type(g) is Tensor and type(a := g._value) is np.ndarray and a.dtype == x.dtype and a.shape == x.shape:
                prepared.append(a)
            else:
                prepared.append(self._gradient_array(g, v))
        lr_value = self._lr_array()
        step = self._step_count() + 1
        self._begin_step(step)
        fused = _jit.wanted(self)
        for g, (v, i, slots) in zip(prepared, plan[1]):
            x = v._snap._value
            lr = lr_value.astype(x.dtype)[()]
            if not (fused and type(g) is np.ndarray and type(lr) is x.dtype.type):
                self._apply_one(g, v, i, lr, step)
                continue
            del x   # (held here, the value would not be the variable's alone)
            if self._jit_in_place(g, v, slots, lr, step):
                continue
            x = v._snap._value
            old = {s: sv._snap._value for s, sv in slots}
            new = {s: sv._spare_buffer() for s, sv in slots}
            out = v._spare_buffer()
            if not self._jit_update(x, g, old, new, out, lr, step):
                scratch = self._scratch.pop() if self._scratch else _Scratch()
                try:
                    self._update_into(x, g, old, new, out, scratch.tmp, lr, step)
                finally:
                    self._scratch.append(scratch)
                for a in new.values():   # (the kernels flush their slots themselves)
                    flush_subnormal(a)
            for s, sv in slots:
                sv._commit(new[s])
            v._commit(out)
        self._iterations.assign_add(np.int64(1))
        return self._iterations

    def _plan_for(self, variables: list) -> tuple:
        """``(variables, [(variable, index, [(slot name, slot variable)])] or None)`` for
        :meth:`_apply_planned` (None: these variables take apply's general path)."""
        if type(self)._update_into is Optimizer._update_into:
            return variables, None
        items = []
        for v in variables:
            i = self._index.get(v.ref()) if isinstance(v, Variable) else None
            if (i is None or type(v.__dict__.get("_snap")) is not Tensor
                    or getattr(v, "overwrite_with_gradient", False)
                    or v._snap._value.dtype not in _FUSED_DTYPES):
                return variables, None
            items.append((v, i, [(s, self._slot_vars[s][i]) for s in self._slots]))
        return variables, items

    def _overwrite_with_gradients(self, work: list) -> list:
        """Keras's float8 scales and amax histories: the "gradient" is the variable's new value,
        assigned as it is (with gradient accumulation, the largest over the steps, assigned on the
        update step); the other pairs are returned for the update."""
        steps = self.gradient_accumulation_steps
        update = not steps or (int(self._iterations.numpy()) + 1) % steps == 0
        rest = []
        for g, v in work:
            if not getattr(v, "overwrite_with_gradient", False):
                rest.append((g, v))
                continue
            g = _dense(self._gradient_array(g, v), v)
            if steps:
                acc = self._accumulators[self._track(v)]
                g = np.maximum(g, _value_of(acc))
                acc.assign(np.zeros_like(g) if update else g)
            if update:
                v.assign(g)
        return rest

    def _finish_step(self, updated: list) -> Variable:
        if self.use_ema:
            step = self._step_count()
            for v, avg in zip(self._vars, self._ema_vars):
                x, a = _value_of(v), _value_of(avg)
                mu = x.dtype.type(self.ema_momentum if step else 0)
                avg.assign(mu * a + (x.dtype.type(1) - mu) * x)
            if self.ema_overwrite_frequency and (step + 1) % self.ema_overwrite_frequency == 0:
                for v, avg in zip(self._vars, self._ema_vars):
                    v.assign(avg)
        for v in updated:  # as Keras: each updated variable's constraint, after all updates
            if v.constraint is not None:
                v.assign(v.constraint(v))
        self._iterations.assign_add(np.int64(1))
        return self._iterations

    def _lr_array(self) -> np.ndarray:
        lr = self.learning_rate
        if isinstance(lr, (Variable, Tensor)):
            return np.asarray(lr.numpy())
        return np.asarray(lr)

    def _gradient_array(self, g: Any, v: Variable) -> Any:
        dt = v.dtype.as_numpy_dtype
        shape = _shape_of(v)
        if isinstance(g, IndexedSlices):
            values = np.asarray(g.values, dt)
            index = np.asarray(g.indices).astype(np.int64).ravel()
            dense = None if g.dense_shape is None else tuple(np.asarray(g.dense_shape.numpy()).tolist())
            if (values.shape[1:] != shape[1:] or values.shape[0] != index.size
                    or dense not in (None, shape)):
                raise InvalidArgumentError(
                    f"The sparse gradient for variable {_name_of(v)} has values of shape "
                    f"{list(values.shape)} for {index.size} indices (dense shape "
                    f"{list(dense) if dense else None}), which do not fit the variable's shape "
                    f"{list(shape)}.")
            if index.size and (index.min() < 0 or index.max() >= shape[0]):
                raise InvalidArgumentError(
                    f"The sparse gradient for variable {_name_of(v)} has indices out of range "
                    f"[0, {shape[0]}): {index.tolist()}.")
            rows, where = np.unique(index, return_inverse=True)
            summed = sum_rows(values, where.ravel(), rows.size)
            if _where(v) is not None:  # dense on the variable's device
                return _at(_dense(_Rows(rows, summed), v), v)
            if rows.size < index.size:   # (repeated rows: their slices are kept, see _Rows)
                return _Rows(rows, summed, where.ravel(), values)
            return _Rows(rows, summed)
        try:
            t = convert_to_tensor(g)
            if t._value.dtype.kind == "O":
                raise TypeError(f"{g!r} is text, not numbers")
        except (TypeError, ValueError) as e:
            raise TypeError(f"The gradient for variable {_name_of(v)} is not a tensor: {e}") from None
        like = _where(v)
        arr = np.asarray(t) if like is None else _bk.moved(t._value, like)
        if arr.shape != shape:
            raise InvalidArgumentError(
                f"Cannot update variable {_name_of(v)} with shape {list(shape)} using a "
                f"gradient with shape {list(arr.shape)}, shapes must be equal.")
        if like is not None:
            return arr.backend.xp.astype(arr.a, arr.backend.dtype(np.dtype(dt)), copy=True)
        return arr.astype(dt, copy=False)   # (read only: the updates never write a gradient)

    def _clip(self, pairs: list) -> list:
        def values(g: Any) -> np.ndarray:   # (a norm counts each slice, as Keras's does)
            return (g.values if g.raw is None else g.raw) if isinstance(g, _Rows) else g

        def scaled(g: Any, f: Any) -> Any:
            return g.map(lambda a: a * f) if isinstance(g, _Rows) else g * f

        if self.clipnorm and self.clipnorm > 0:
            out = []
            for g, v in pairs:
                n = np.sqrt(np.sum(np.square(values(g))))
                c = values(g).dtype.type(self.clipnorm)
                out.append((scaled(g, c / np.maximum(n, c)), v))
            return out
        if self.global_clipnorm and self.global_clipnorm > 0:
            norm = np.sqrt(sum(np.sum(np.square(values(g).astype(np.float64))) for g, _ in pairs))
            c = self.global_clipnorm
            with np.errstate(divide="ignore", invalid="ignore"):
                f = c * np.minimum(1.0 / norm, 1.0 / c) + (norm - norm)  # NaN for a non-finite norm
            # (Keras's `v * scale` makes an IndexedSlices dense: its rows summed, then scaled)
            return [((_Rows(g.index, g.values * values(g).dtype.type(f)) if isinstance(g, _Rows)
                      else g * values(g).dtype.type(f)), v) for g, v in pairs]
        if self.clipvalue and self.clipvalue > 0:
            c = self.clipvalue
            return [((g.map(lambda a: np.clip(a, -c, c)) if isinstance(g, _Rows)
                      else np.clip(g, -c, c)), v) for g, v in pairs]
        return pairs

    def _begin_step(self, step: int) -> None:
        """Optimizer-wide state updated once per step, before the variables (Nadam's)."""

    def _decay(self, v: Variable, lr: Any) -> None:
        """Decoupled weight decay: ``x - x * weight_decay * lr``."""
        x = v.value()._value
        if type(x) is np.ndarray and x.dtype in _FUSED_DTYPES:
            out = v._spare_buffer()
            np.multiply(x, x.dtype.type(np.float32(self.weight_decay)), out=out)
            out *= lr
            v._commit(np.subtract(x, out, out=out))
            return
        x = _value_of(v)
        v.assign(x - x * x.dtype.type(np.float32(self.weight_decay)) * lr)

    def _fused(self, g: Any, v: Variable, i: int, lr: Any, step: int) -> bool:
        """The update of one variable on the fused path (see the module's docstring); False
        where it does not apply."""
        x = v.value()._value
        if (type(g) is not np.ndarray or type(x) is not np.ndarray or x.dtype not in _FUSED_DTYPES
                or g.dtype != x.dtype or type(self)._update_into is Optimizer._update_into):
            return False
        slots = [(s, self._slot_vars[s][i]) for s in self._slots]
        if _jit.wanted(self) and type(lr) is x.dtype.type:
            del x   # (held here, the value would not be the variable's alone)
            if self._jit_in_place(g, v, slots, lr, step):
                return True
            x = v.value()._value
        old = {s: sv.value()._value for s, sv in slots}
        new = {s: sv._spare_buffer() for s, sv in slots}
        out = v._spare_buffer()
        scratch = self._scratch.pop() if self._scratch else _Scratch()
        try:
            if not (_jit.wanted(self) and type(lr) is x.dtype.type
                    and self._jit_update(x, g, old, new, out, lr, step)):
                self._update_into(x, g, old, new, out, scratch.tmp, lr, step)
                for a in new.values():   # (the kernels flush their slots themselves)
                    flush_subnormal(a)
        finally:
            self._scratch.append(scratch)
        for s, sv in slots:
            sv._commit(new[s])
        v._commit(out)
        return True

    def _jit_in_place(self, g: np.ndarray, v: Variable, slots: list, lr: Any, step: int) -> bool:
        """:meth:`_jit_update` writing over the values of ``v`` and of its ``slots`` when nothing
        else holds them (``Variable._sole_value``); False, with nothing changed, where that does
        not apply."""
        with v._lock:
            xs = v._sole_value()
            if xs is None:
                return False
            state = {}
            for s, sv in slots:
                a = sv._sole_value()
                if a is None:
                    break
                state[s] = a
            done = len(state) == len(slots) and self._jit_update(xs, g, state, state, xs, lr, step)
            for (s, sv), a in zip(slots, state.values()):
                if done:
                    sv._written(a)
                else:
                    a.flags.writeable = False
            if done:
                v._written(xs)
            else:
                xs.flags.writeable = False
            return done

    def _update_into(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                     tmp: Callable[[int, np.ndarray], np.ndarray], lr: Any, t: int) -> None:
        """``_update`` fused: write each slot's new value into ``new[name]`` (its old value is
        ``old[name]``) and the variable's into ``out``, with the same operations in the same
        order as ``_update``, using ``tmp(k, x)`` for the ``k``-th scratch array. Optional."""
        raise NotImplementedError

    def _jit_update(self, x: np.ndarray, g: np.ndarray, old: dict, new: dict, out: np.ndarray,
                    lr: Any, t: int) -> bool:
        """``_update_into`` as one compiled loop over flat views (a kernel of _jit.py,
        the same operations in the same order); False where it does not apply. Optional."""
        return False

    def _apply_one(self, g: Any, v: Variable, i: int, lr: np.ndarray, step: int) -> None:
        if self._fused(g, v, i, lr, step):
            return
        slots = {s: self._slot_vars[s][i] for s in self._slots}
        rows = isinstance(g, _Rows)
        dense_here = not rows and _where(v) is None
        x = v.value().numpy() if dense_here else _value_of(v)  # (read-only: updates make new arrays)
        state = {s: _value_of(sv) for s, sv in slots.items()}
        if rows and g.raw is not None:   # (repeated rows: squares and |g| per slice, see _Rows)
            self._per_slice = g
        try:
            if rows:
                if self._rowwise:
                    rows = g.index
                    sub = {s: a[rows] for s, a in state.items()}
                    x[rows] = self._update(x[rows], g.values, sub, lr, step)
                    for s, a in sub.items():
                        state[s][rows] = a
                else:
                    dense = np.zeros_like(x)
                    dense[g.index] = g.values
                    x = self._update(x, dense, state, lr, step)
            else:
                x = self._update(x, g, state, lr, step)
        finally:
            self._per_slice = None
        for s, sv in slots.items():
            _store(sv, flush_subnormal(state[s]), g)
        _store(v, x, g)

    def _square(self, g: np.ndarray) -> np.ndarray:
        """``g**2`` for ``_update`` as Keras squares a gradient: for slices that repeat a row,
        ``Σ gᵢ²`` where ``g`` is ``Σ gᵢ`` (``keras.ops.square`` acts on the slices)."""
        return np.square(g) if self._per_slice is None else self._each(g, np.square)

    def _abs(self, g: np.ndarray) -> np.ndarray:
        """``|g|`` for ``_update``, per slice as :meth:`_square`."""
        return np.abs(g) if self._per_slice is None else self._each(g, np.abs)

    def _each(self, g: np.ndarray, fn: Callable) -> np.ndarray:
        """``fn`` of each slice of the gradient ``g``, summed per row (``fn(g)`` when no slices
        repeat a row): what a Keras op on the IndexedSlices gives once added to a dense value."""
        if self._per_slice is None:
            return fn(g)
        idx, raw = self._slices(g)
        return self._sum_rows(g, fn(raw))

    def _slices(self, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(row of each slice in g, the slices' values)`` for the slices being applied."""
        rows = self._per_slice   # (a row-wise update's g holds the slices' rows only)
        return (rows.where if self._rowwise else rows.index[rows.where]), rows.raw

    def _sum_rows(self, g: np.ndarray, per_slice: np.ndarray) -> np.ndarray:
        return sum_rows(per_slice, self._slices(g)[0], len(g))

    def _update(self, x: np.ndarray, g: np.ndarray, s: dict, lr: np.ndarray, t: int) -> np.ndarray:
        """New value of ``x`` from gradient ``g``; updates the slot arrays in ``s`` in place or by
        reassigning ``s[name]``. ``lr`` is in x's dtype; ``t`` counts updates from 1."""
        raise NotImplementedError

    def minimize(self, loss: Any, var_list: Any, tape: Any = None) -> Variable:
        """Compute the gradients of ``loss`` with respect to ``var_list`` and apply them.

        ``loss`` is a callable taking no arguments (it is run under a new ``GradientTape``), or
        a tensor computed under ``tape``. ``var_list`` is a list of Variables or a callable
        returning one. Returns :attr:`iterations`.

        >>> import tapegrad as tf
        >>> x = tf.Variable(3.0)
        >>> opt = tf.optimizers.SGD(learning_rate=0.25)
        >>> _ = opt.minimize(lambda: x * x, [x])
        >>> float(x)
        1.5
        """
        from .._tape import GradientTape

        if callable(loss):
            with GradientTape() as tape:
                if not callable(var_list):
                    tape.watch(list(var_list))
                loss = loss()
        elif tape is None:
            raise ValueError("`tape` is required when a `Tensor` loss is passed: compute the loss "
                             "under `with tf.GradientTape() as tape:` and pass tape=tape, or pass "
                             "the loss as a function of no arguments.")
        if callable(var_list):
            var_list = var_list()
        var_list = list(var_list)
        grads = tape.gradient(loss, var_list)
        return self.apply_gradients(zip(grads, var_list))

    # ------------------------------------------------------------------ config
    def get_config(self) -> dict:
        lr = self._learning_rate
        return {"name": self.name,
                "learning_rate": float(lr.numpy()) if isinstance(lr, Variable) else lr,
                "weight_decay": self.weight_decay, "clipnorm": self.clipnorm,
                "global_clipnorm": self.global_clipnorm, "clipvalue": self.clipvalue,
                "use_ema": self.use_ema, "ema_momentum": self.ema_momentum,
                "ema_overwrite_frequency": self.ema_overwrite_frequency,
                "loss_scale_factor": self.loss_scale_factor,
                "gradient_accumulation_steps": self.gradient_accumulation_steps}

    @classmethod
    def from_config(cls, config: dict) -> "Optimizer":
        lr = config.get("learning_rate")
        if isinstance(lr, dict):  # a serialized schedule (get_config of a model file)
            config = {**config, "learning_rate": schedules.deserialize(lr)}
        return cls(**config)

    def __repr__(self) -> str:
        return f"<tapegrad.optimizers.{type(self).__name__} name={self.name!r}>"


def optimizer_class(name: str) -> type | None:
    """The built-in optimizer class called ``name`` (any case), else None."""
    return _BY_NAME.get(str(name).lower())


def serialize(optimizer: Optimizer) -> dict:
    """``{"class_name": ..., "config": ...}`` of an optimizer (Keras 3's form).

    >>> import tapegrad as tf
    >>> c = tf.optimizers.serialize(tf.optimizers.SGD(0.5))
    >>> c["class_name"], c["config"]["learning_rate"]
    ('SGD', 0.5)
    """
    return {"module": "keras.optimizers", "class_name": type(optimizer).__name__,
            "config": optimizer.get_config(), "registered_name": None}


def deserialize(config: dict) -> Optimizer:
    """The optimizer that :func:`serialize` described.

    >>> import tapegrad as tf
    >>> tf.optimizers.deserialize({"class_name": "Adam", "config": {"learning_rate": 0.01}})
    <tapegrad.optimizers.Adam name='adam'>
    """
    cls = optimizer_class(config.get("class_name", "")) if isinstance(config, dict) else None
    if cls is None:
        raise ValueError(f"Could not interpret optimizer config: {config!r}; expected "
                         f"{{'class_name': ..., 'config': ...}} naming one of {sorted(_BY_NAME)}.")
    return cls.from_config(config.get("config", {}))


def get(identifier: Any) -> Optimizer:
    """An optimizer from a name (``"adam"``, ``"SGD"``: default arguments), a config dict or an
    optimizer instance (``compile(optimizer="adam")``).

    >>> import tapegrad as tf
    >>> type(tf.optimizers.get("adam")).__name__
    'Adam'
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        cls = optimizer_class(identifier)
        if cls is None:
            raise ValueError(f"Could not interpret optimizer identifier: {identifier!r}; "
                             f"known optimizers: {sorted(_BY_NAME)}")
        return cls()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r} "
                     f"(a {type(identifier).__name__}); expected a name or an optimizer.")
