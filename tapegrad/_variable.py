"""Variable: the mutable state a model learns.

Every update makes a new read-only array under the variable's lock, so a value once read never
changes and concurrent updates are never lost. Reads are told to the recorders (a tape watches a
trainable variable on its first read).
"""
from __future__ import annotations

import builtins
import enum
import inspect
import itertools
import sys
import threading
import weakref
from typing import Any, Callable, Iterator

import numpy as np

from . import _backend as _bk, _recorders as _rec, dtypes as _dt
from ._convert import convert_to_tensor
from ._scope import prefixed as _prefixed
from ._tensor import (GRAPH_EVAL, IndexedSlices, Tensor, TensorShape, VariableBase, _Ref, arrays_read,
                      next_id, numpy_text)
from .errors import InvalidArgumentError

_var_uid = itertools.count().__next__
_handle_numbers = itertools.count()  # (TensorFlow numbers its variables' resources in creation order)
CREATION_OBSERVERS: list = []  # called with each new Variable (a TF1 graph made default collects its variables)
# while a TF1 graph records (tapegrad.compat): [result(variable, read_value, value before)], what
# assign returns (the graph records the update, and the value before is put back: building runs nothing)
GRAPH_ASSIGN: list = []
# set by tapegrad.compat: [initializer(variable)], a TF1 graph variable's initializer (or None)
GRAPH_INITIALIZER: list = []


def _refs_of_a_local() -> int | None:
    """What ``sys.getrefcount`` says of an array only a local name holds (None without it)."""
    if not hasattr(sys, "getrefcount"):
        return None
    a = np.empty(0)
    return sys.getrefcount(a)


_ALONE = _refs_of_a_local()


def _refs_of_value(holder: Any) -> tuple:
    """What ``sys.getrefcount`` says of ``holder``'s snapshot Tensor and of its array."""
    snap = holder.__dict__["_snap"]
    return sys.getrefcount(snap), sys.getrefcount(snap._value)


def _sole_refs() -> tuple | None:
    """:func:`_refs_of_value` of a holder whose snapshot and array nothing else holds."""
    if _ALONE is None:
        return None

    class Holder:
        pass
    h = Holder()
    h._snap = Tensor()
    h._snap._value = np.empty(1)
    return _refs_of_value(h)


_SOLE = _sole_refs()


_undo = threading.local()  # .log: [(variable, its value before)] while restoring_variables() runs here


def restoring() -> bool:
    """Whether a :class:`restoring_variables` scope is open in this thread (a trace that, in
    TensorFlow, builds a graph and runs nothing: its tf.print prints nothing either)."""
    return getattr(_undo, "log", None) is not None


class restoring_variables:
    """A scope after which every Variable this thread assigned inside it has its value from
    before (in TensorFlow, tracing a function into a graph runs no assignment: what
    ``get_concrete_function`` and ``tf.saved_model.save`` trace here must leave no trace either).
    Variables made inside keep their values."""

    def __enter__(self) -> "restoring_variables":
        self._outer = getattr(_undo, "log", None)
        self._log: list = []
        _undo.log = self._log
        return self

    def __exit__(self, *exc: Any) -> None:
        _undo.log = self._outer
        for v, snap in reversed(self._log):
            with v._lock:
                v._snap = snap


class VariableSynchronization(enum.Enum):
    """When a distributed variable is synchronized (TensorFlow's enum). tapegrad runs on one
    device: only ``ON_READ``'s default of ``trainable=False`` has an effect."""

    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """How updates of a distributed variable are combined (TensorFlow's enum; recorded only)."""

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


def _no_inplace(sym: str, fix: str) -> Callable:
    def inplace(self: "Variable", other: Any) -> Any:
        raise RuntimeError(
            f"`variable {sym}= value` with `tf.Variable`s is not supported: it would replace the "
            f"variable by a new Tensor. Use `{fix}` to modify the variable, or "
            f"`out = variable {sym} value` if you need a new Tensor.")
    return inplace


def _static_index(k: Any) -> Any:
    if isinstance(k, Variable):
        k = k._snap
    if isinstance(k, Tensor):
        _rec.note_escape(k, "index")
        return int(k._value)
    return k


def _is_mask(key: Any) -> bool:  # (ops/indexing.py's _is_mask_key, below the ops)
    if type(key) is np.ndarray:
        return key.dtype == np.bool_
    return type(key) is bool or isinstance(key, Tensor) and key._value.dtype == np.bool_


def _static_key(key: Any) -> tuple:
    """A strided-slice key (already checked by getitem) with its tensor indices made ints."""
    if type(key) is not tuple:
        key = (key,)
    return tuple(slice(_static_index(k.start), _static_index(k.stop), _static_index(k.step))
                 if type(k) is slice else _static_index(k) for k in key)


def _key_str(key: tuple) -> str:
    def one(k: Any) -> str:
        if type(k) is slice:
            r = ("" if k.start is None else str(k.start)) + ":" + ("" if k.stop is None else str(k.stop))
            return r + ("" if k.step is None else f":{k.step}")
        return "..." if k is Ellipsis else "tf.newaxis" if k is None else str(k)
    return ", ".join(one(k) for k in key)


def _trunc_divide_at(a: np.ndarray, index: Any, b: np.ndarray) -> None:
    """``a[index] /= b`` for integers, rounding toward zero, duplicates applied in turn (as TF)."""
    rows = np.broadcast_to(b, np.shape(index) + a.shape[1:]).reshape((-1,) + a.shape[1:])
    for i, d in zip(np.ravel(index), rows):
        q = np.abs(a[i]) // np.abs(d)
        a[i] = np.where((a[i] < 0) != (d < 0), -q, q)


_SCATTER = {  # method suffix -> (op name, how to write updates into the new value in place)
    "update": ("ResourceScatterUpdate", np.ndarray.__setitem__),
    "add": ("ResourceScatterAdd", np.add.at), "sub": ("ResourceScatterSub", np.subtract.at),
    "mul": ("ResourceScatterMul", np.multiply.at), "div": ("ResourceScatterDiv", np.divide.at),
    "max": ("ResourceScatterMax", np.maximum.at), "min": ("ResourceScatterMin", np.minimum.at),
}


class _Creators(threading.local):
    def __init__(self) -> None:
        self.stack: list = []  # the creators of the open variable_creator_scope blocks (innermost last)


_creators = _Creators()


class _Created(type):
    """``tf.Variable(...)`` calls the creators of the open ``variable_creator_scope`` blocks."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if not _creators.stack or cls is not Variable:
            return super().__call__(*args, **kwargs)
        bound = inspect.signature(cls.__init__).bind(None, *args, **kwargs)
        bound.apply_defaults()
        params = dict(bound.arguments)
        del params["self"]

        def base(**kw: Any) -> Any:
            return type.__call__(cls, **kw)
        make = base
        for creator in _creators.stack:
            make = (lambda c, nxt: lambda **kw: c(nxt, **kw))(creator, make)
        return make(**params)


class variable_creator_scope:  # noqa: N801  (TensorFlow's name)
    """A block in which each ``tf.Variable(...)`` calls
    ``variable_creator(next_creator, **kwargs)`` (``kwargs``: the Variable's arguments by name);
    ``next_creator(**kwargs)`` makes the variable (through the outer blocks' creators). A
    creator may change the arguments, return another variable, or raise.

    >>> import tapegrad as tf
    >>> made = []
    >>> def catch(next_creator, **kwargs):
    ...     made.append(kwargs["name"])
    ...     return next_creator(**{**kwargs, "trainable": False})
    >>> with tf.variable_creator_scope(catch):
    ...     v = tf.Variable(1.0, name="v")
    >>> made, v.trainable
    (['v'], False)
    """

    def __init__(self, variable_creator: Callable) -> None:
        self._creator = variable_creator

    def __enter__(self) -> None:
        _creators.stack.append(self._creator)

    def __exit__(self, *exc: Any) -> None:
        _creators.stack.remove(self._creator)


class Variable(VariableBase, metaclass=_Created):
    """A mutable tensor, the state a model learns.

    Reading a trainable float Variable inside a ``GradientTape`` (with the default
    ``watch_accessed_variables=True``) watches it automatically::

        >>> import tapegrad as tf
        >>> w = tf.Variable(3.0)
        >>> with tf.GradientTape() as tape:
        ...     y = w * w
        >>> float(tape.gradient(y, w))
        6.0
        >>> float(w.assign_sub(0.5))
        2.5

    A gradient with respect to a Variable sums over every read of it on the tape; ``assign``
    does not connect the new value to the expression it came from (it is state, as in TF).
    A slice read from a variable can be assigned to (``v[1:].assign(...)``); in-place operators
    (``v += 1``) raise ``RuntimeError``, as in TensorFlow: use ``assign_add``::

        >>> v = tf.Variable([1.0, 2.0, 3.0])
        >>> v[1:].assign([5.0, 6.0]).numpy()
        array([1., 5., 6.], dtype=float32)

    Arguments are TensorFlow's. ``shape`` declares a partial shape (``[None, 3]``, or
    ``tf.TensorShape(None)`` for any) that later assignments may take; ``constraint`` is a
    function the optimizers apply to the variable after each update (e.g. a projection);
    ``synchronization`` and ``aggregation`` are recorded (tapegrad runs on one device, and an
    ``ON_READ`` variable is not trainable unless ``trainable=True``). ``validate_shape``,
    ``caching_device``, ``import_scope`` and ``experimental_enable_variable_lifting`` have no
    effect in eager execution and are only checked; ``variable_def`` (graph mode) is refused.

    Updates are atomic: concurrent ``assign_add`` calls from several threads are never lost, and
    a value once read (a Tensor, its ``.numpy()`` or any view of it) never changes.
    """

    __array_priority__ = 100
    _spare: Any = None  # a value replaced by _commit, kept for reuse (see _spare_buffer)

    def __init__(self, initial_value: Any = None, trainable: builtins.bool | None = None,
                 validate_shape: builtins.bool = True, caching_device: str | None = None,
                 name: str | None = None, variable_def: Any = None, dtype: Any = None,
                 import_scope: str | None = None, constraint: Callable | None = None,
                 synchronization: VariableSynchronization = VariableSynchronization.AUTO,
                 aggregation: VariableAggregation | None = VariableAggregation.NONE,
                 shape: Any = None, experimental_enable_variable_lifting: builtins.bool = True) -> None:
        if _rec.active:  # (a tf.function's later trace refuses it here, at the creation line)
            _rec.note_variable_create(self)
        if variable_def is not None:
            raise ValueError("Creating a `tf.Variable` from a `variable_def` (a graph-mode VariableDef) "
                             "is not supported in eager execution; pass `initial_value` instead.")
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        if name is not None and not isinstance(name, str):
            raise ValueError(f"The variable's name must be a string; got {name!r}.")
        if constraint is not None and not callable(constraint):
            raise ValueError(f"Argument `constraint` must be None or a callable (it gets the variable "
                             f"and returns its constrained value); got {constraint!r}.")
        for arg, flag in (("validate_shape", validate_shape),
                          ("experimental_enable_variable_lifting", experimental_enable_variable_lifting)):
            if not isinstance(flag, (builtins.bool, np.bool_)):
                raise TypeError(f"Argument `{arg}` must be a bool; got {flag!r}.")
        for arg, text in (("caching_device", caching_device), ("import_scope", import_scope)):
            if text is not None and not isinstance(text, str):
                raise TypeError(f"Argument `{arg}` must be None or a string; got {text!r}.")
        if not isinstance(synchronization, VariableSynchronization):
            raise ValueError(f"Invalid variable synchronization mode: {synchronization!r}; use a member "
                             "of tf.VariableSynchronization.")
        if aggregation is None:
            aggregation = VariableAggregation.NONE
        if not isinstance(aggregation, VariableAggregation):
            raise ValueError(f"Invalid variable aggregation mode: {aggregation!r}; use a member of "
                             "tf.VariableAggregation.")
        if trainable is None:
            trainable = synchronization is not VariableSynchronization.ON_READ
        if callable(initial_value):
            initial_value = initial_value()
        if isinstance(initial_value, (Tensor, Variable)) and dtype is not None:
            t = convert_to_tensor(initial_value)
            if t.dtype != _dt.as_dtype(dtype):
                raise ValueError(f"Variable initial_value has dtype {t.dtype.name} but dtype="
                                 f"{_dt.as_dtype(dtype).name} was requested; cast it with tf.cast first.")
        else:
            t = convert_to_tensor(initial_value, dtype=dtype)
        if _bk.placing and t._value.dtype.kind in "fc":  # (counters and RNG states stay on the host)
            t = _bk.place(t)
        declared = None
        if shape is not None:
            declared = TensorShape(shape)
            if not declared.is_compatible_with(t._value.shape):
                raise ValueError(f"In this `tf.Variable` creation, the initial value's shape ({t.shape}) "
                                 f"is not compatible with the explicitly supplied `shape` argument "
                                 f"({declared}).")
            if declared.is_fully_defined():
                declared = None  # the value's own shape
        self._id = next_id()
        self._uid = _var_uid()
        self._handle_number = next(_handle_numbers)
        self._trainable = builtins.bool(trainable)
        self._name = _prefixed(name or "Variable") + ":0"
        self._shape = declared  # None: the shape of the initial value, fixed
        self._constraint = constraint
        self._synchronization, self._aggregation = synchronization, aggregation
        self._lock = threading.Lock()  # held by every read-modify-write of the value
        self._set(t._value)
        for observe in CREATION_OBSERVERS:
            observe(self)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        del state["_lock"]
        state.pop("_spare", None)
        return state

    def __setstate__(self, state: dict) -> None:
        # copy, deepcopy and pickle: a new variable (own id, lock and snapshot) with this value
        self.__dict__.update(state)
        self._id = next_id()
        self._uid = _var_uid()
        self._handle_number = next(_handle_numbers)
        self._lock = threading.Lock()
        self._set(state["_snap"]._value, fresh=True)  # (arrays held by variables are never written)

    def _set(self, v: Any, fresh: builtins.bool = False) -> None:
        log = getattr(_undo, "log", None)
        if log is not None and hasattr(self, "_snap"):
            log.append((self, self._snap))
        # Every update makes a new array: readers keep the array they were given, unchanged.
        # ``fresh``: ``v`` was just made for this variable and nobody else holds it (no copy).
        # A backend's array (a Boxed value: CuPy, Dask) is kept as it is: ops never write one.
        if type(v) is _bk.Boxed:
            snap = _bk.ArrayTensor()
            snap._value = v
            snap._id = self._id
            self._snap = snap
            return
        v = np.asarray(v) if fresh else np.array(v, copy=True)
        v.flags.writeable = False
        snap = Tensor()
        snap._value = v
        snap._id = self._id  # every read shares the variable's id: gradients sum over reads
        self._snap = snap

    # -- the optimizers' in-place fast path
    # An optimizer writes a variable's next value into an array no reader can hold, then commits
    # it: the value before the commit becomes the variable's spare, reachable only from here.
    # When the spare's reference count (CPython's) shows that no Tensor, view or buffer of it is
    # left, the next update writes into it, so the guarantee above holds: a value once read never
    # changes, and a step allocates nothing. Where anything still holds it, a new array is made.
    def _spare_buffer(self) -> np.ndarray:
        """A writable array of the value's shape and dtype that no reader holds (the value before
        the last :meth:`_commit` when nothing kept it, else a new one) for the next value."""
        with self._lock:
            spare, self._spare = self._spare, None
            cur = self._snap._value
        if (spare is not None and spare.shape == cur.shape and spare.dtype == cur.dtype
                and spare.flags.c_contiguous and _ALONE is not None
                and sys.getrefcount(spare) == _ALONE):   # (C order, as the new ones: a transposed
            # initial value, Orthogonal's, would make a product's layout, and so its rounding,
            # alternate from step to step)
            spare.flags.writeable = True
            return spare
        return np.empty(cur.shape, cur.dtype)

    # When no reader holds even the current value (its snapshot Tensor and its array are held by
    # this variable alone: nobody has read it since it was made, or every reader let it go), an
    # optimizer may write the next value into it: nobody can see the change, and the step
    # allocates nothing and writes each number once (compiled in-place loops, tapegrad._jit).
    def _sole_value(self) -> np.ndarray | None:
        """The value's array, made writable, when nothing but this variable holds it (else None).
        The caller writes the next value into it, then calls :meth:`_written`. (A reader in
        another thread that takes the value during the write sees it change, as TensorFlow's
        does: its optimizers update variables in place.)"""
        if _SOLE is None or type(self._snap) is not Tensor or restoring():
            return None
        a = self._snap._value
        if type(a) is not np.ndarray or a.base is not None or not a.flags.c_contiguous:
            return None
        del a
        if _refs_of_value(self) != _SOLE:
            return None
        a = self._snap._value
        a.flags.writeable = True
        return a

    def _written(self, a: np.ndarray) -> None:
        """After :meth:`_sole_value`'s array was written: read-only again, and an assignment."""
        a.flags.writeable = False
        self._spare = None
        self._on_assign("assign", a)

    def _commit(self, new: np.ndarray) -> None:
        """Make ``new`` (from :meth:`_spare_buffer`, written) the value; keep the old one as the spare."""
        with self._lock:
            old = self._snap._value
            self._set(new, fresh=True)
            if type(old) is np.ndarray and old.base is None:
                self._spare = old
        self._on_assign("assign", new)

    @property
    def initializer(self) -> Any:
        """The operation that sets a TF1 graph variable to its initial value
        (``sess.run(v.initializer)``); None for a variable made eagerly, as TensorFlow's."""
        return GRAPH_INITIALIZER[0](self) if GRAPH_INITIALIZER else None

    def _read(self) -> Tensor:
        if _rec.active:
            _rec.note_variable_read(self)
        return self._snap

    # -- description
    @property
    def shape(self) -> TensorShape:
        """The shape, a :class:`TensorShape`: the declared ``shape`` if one was given."""
        if self._shape is not None:
            return self._shape
        return tuple.__new__(TensorShape, self._snap._value.shape)

    def get_shape(self) -> TensorShape:
        """The shape, a :class:`TensorShape` (same as :attr:`shape`)."""
        return self.shape

    @property
    def dtype(self) -> _dt.DType:
        """The :class:`~tapegrad.DType` of the elements."""
        return _dt._from_np(self._snap._value.dtype)

    @property
    def ndim(self) -> int:
        """The number of dimensions of the current value."""
        return self._snap._value.ndim

    @property
    def name(self) -> str:
        """The variable's name, with TensorFlow's ``":0"`` suffix."""
        return self._name

    @property
    def trainable(self) -> builtins.bool:
        """Whether tapes watch the variable automatically when it is read."""
        return self._trainable

    @property
    def constraint(self) -> Callable | None:
        """The function optimizers apply to the variable after each update (or ``None``)."""
        return self._constraint

    @property
    def synchronization(self) -> VariableSynchronization:
        """The ``synchronization`` given at creation."""
        return self._synchronization

    @property
    def aggregation(self) -> VariableAggregation:
        """The ``aggregation`` given at creation."""
        return self._aggregation

    @property
    def handle(self) -> "ResourceHandle":
        """The variable's resource handle (TensorFlow's scalar ``resource`` tensor naming its
        storage): it prints as TensorFlow's and has its ``shape`` and ``device``; it holds no
        number (``numpy()`` raises, as TensorFlow's does).

        >>> import tapegrad as tf
        >>> tf.Variable(1.0, name="w").handle.shape
        TensorShape([])
        """
        return ResourceHandle(self)

    @property
    def device(self) -> str:
        """Where the value lives: the local CPU, or ``.../device:GPU:<n>`` for a Variable made in a
        ``tf.device("/GPU:<n>")`` scope (with CuPy) or from a GPU tensor."""
        return self._snap.device

    def numpy(self) -> Any:
        """A copy of the current value as a NumPy array (a NumPy scalar for a 0-d variable),
        brought to the host from a GPU."""
        if _rec.active:
            _rec.note_escape(self._snap, "numpy")
        v = self._host()
        return v[()] if v.ndim == 0 else v.copy()

    def _host(self) -> np.ndarray:
        v = self._snap._value
        return np.asarray(self._snap) if type(v) is _bk.Boxed else v

    def eval(self, session: Any = None) -> Any:
        """TF1's ``v.eval()``: the variable's value in ``session`` (else the default session) of a
        TF1 graph (``tf.compat.v1``); eagerly a RuntimeError, as TensorFlow 2's (use ``numpy()``)."""
        if GRAPH_EVAL:
            return GRAPH_EVAL[0](self, None, session)
        raise RuntimeError("This operation is not supported when eager execution is enabled.")

    def read_value(self) -> Tensor:
        """The current value as a Tensor (recorded as a read of this variable)."""
        return self._read()

    def value(self) -> Tensor:
        """The current value as a Tensor (same as :meth:`read_value`)."""
        return self._read()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arrays_read()  # lets _infer_py see that a list held a tensor
        _rec.note_escape(self._snap, "__array__")
        v = np.array(self._host(), copy=True)
        return v if dtype is None else v.astype(dtype)

    # -- assignment
    def _coerce(self, value: Any, what: str) -> tuple[Any, builtins.bool]:
        """``value`` as an array of the variable's dtype where the variable lives, and whether it
        is a new array."""
        old = self._snap._value
        dt = old.dtype
        if isinstance(value, (Tensor, Variable)):
            arr = convert_to_tensor(value)._value
            if arr.dtype != dt:
                raise ValueError(
                    f"{what}: cannot use a value of dtype {_dt._from_np(arr.dtype).name} for variable "
                    f"'{self._name}' of dtype {self.dtype.name}. Cast it first with tf.cast.")
            fresh = False
        else:
            arr, fresh = convert_to_tensor(value, dtype=dt)._value, not hasattr(value, "__tf_tensor__")
        if _bk.seen and (type(old) is _bk.Boxed or type(arr) is _bk.Boxed):
            return _bk.moved(arr, old), fresh
        return arr, fresh

    def _update(self, ufunc: np.ufunc, delta: Any, what: str) -> None:
        """``value = ufunc(value, delta)`` as one atomic step."""
        arr, _ = self._coerce(delta, what)
        with self._lock:
            old = self._snap._value
            if arr.shape != old.shape:
                raise InvalidArgumentError(
                    f"{what}: cannot update variable '{self._name}' with shape {list(old.shape)} using "
                    f"a value with shape {list(arr.shape)}, shapes must be equal (values are not "
                    "broadcast).")
            if _bk.seen and type(old) is _bk.Boxed:  # (np.add, np.subtract: array-API names too)
                self._set(_bk.Boxed(getattr(old.backend.xp, ufunc.__name__)(old.a, arr.a), old.backend), fresh=True)
            else:
                self._set(ufunc(old, arr), fresh=True)
        self._on_assign(what, delta)

    def assign(self, value: Any, use_locking: Any = None, name: Any = None, read_value: builtins.bool = True) -> Any:
        """Set the value; returns the variable (``None`` if not ``read_value``).

        ``value`` must have the variable's shape (or one compatible with a declared partial
        shape): it is not broadcast."""
        arr, fresh = self._coerce(value, "assign")
        before = self._snap
        with self._lock:
            shape = self._shape
            if arr.shape != self._snap._value.shape and (shape is None or not shape.is_compatible_with(arr.shape)):
                raise ValueError(
                    f"Cannot assign a value of shape {tuple.__new__(TensorShape, arr.shape)} to variable "
                    f"'{self._name}' of shape {self.shape}: the shapes are incompatible (assign does not "
                    f"broadcast; tf.fill or tf.broadcast_to make a value of the variable's shape).")
            self._set(arr, fresh)
        self._on_assign("assign", value)
        return GRAPH_ASSIGN[0](self, read_value, before) if GRAPH_ASSIGN else self if read_value else None

    def assign_add(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: builtins.bool = True) -> Any:
        """Add ``delta`` (of the variable's shape) to the value; returns the variable (``None`` if
        not ``read_value``)."""
        before = self._snap
        self._update(np.add, delta, "assign_add")
        return GRAPH_ASSIGN[0](self, read_value, before) if GRAPH_ASSIGN else self if read_value else None

    def assign_sub(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: builtins.bool = True) -> Any:
        """Subtract ``delta`` (of the variable's shape) from the value; returns the variable
        (``None`` if not ``read_value``)."""
        before = self._snap
        self._update(np.subtract, delta, "assign_sub")
        return GRAPH_ASSIGN[0](self, read_value, before) if GRAPH_ASSIGN else self if read_value else None

    def _assign_slice(self, key: tuple, value: Any) -> "Variable":
        arr, _ = self._coerce(value, "assign")
        with self._lock:
            new = self._snap._value.copy()
            try:
                new[key] = arr
            except (ValueError, IndexError) as e:
                where = f"variable '{self._name}' (of shape {list(new.shape)}) at [{_key_str(key)}]"
                if isinstance(e, IndexError):  # the variable's shape changed since the slice was read
                    raise InvalidArgumentError(f"Cannot assign to {where}: {e}.") from None
                raise InvalidArgumentError(
                    f"Cannot assign to {where}: cannot broadcast input shape {list(arr.shape)} into "
                    f"final shape {list(new[key].shape)}.") from None
            self._set(new, fresh=True)
        self._on_assign()
        return self

    def _indices(self, indices: Any, what: str) -> np.ndarray:
        idx = convert_to_tensor(indices)._value
        if idx.dtype.kind not in "iu":
            raise InvalidArgumentError(f"indices must be int32 or int64; got dtype "
                                       f"{_dt._from_np(idx.dtype).name} [Op:{what}]")
        return idx.astype(np.int64, copy=False)

    def _scatter(self, sparse_delta: Any, how: str) -> "Variable":
        opname, write = _SCATTER[how]
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError(f"Argument `sparse_delta` of scatter_{how} must be a `tf.IndexedSlices` "
                            f"(values and the rows they go to); got {sparse_delta!r}.")
        idx = self._indices(sparse_delta.indices, opname)
        dt = self._snap._value.dtype
        upd = convert_to_tensor(sparse_delta.values, dtype=dt)._value
        if how == "div" and dt.kind in "iu":
            if not upd.all():
                raise InvalidArgumentError(f"updates must not contain 0 (integer division) [Op:{opname}]")
            write = _trunc_divide_at
        with self._lock:
            old = self._snap._value
            if old.ndim == 0 or upd.ndim and upd.shape != idx.shape + old.shape[1:]:
                raise InvalidArgumentError(
                    f"Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = "
                    f"[], got updates.shape {list(upd.shape)}, indices.shape {list(idx.shape)}, "
                    f"params.shape {list(old.shape)} [Op:{opname}]")
            flat = idx.ravel()
            bad = np.flatnonzero((flat < 0) | (flat >= old.shape[0]))
            if bad.size:
                raise InvalidArgumentError(f"indices[{bad[0]}] = {flat[bad[0]]} is not in "
                                           f"[0, {old.shape[0]}) [Op:{opname}]")
            new = old.copy()
            write(new, idx, upd)
            self._set(new, fresh=True)
        self._on_assign()
        return self

    def scatter_update(self, sparse_delta: "IndexedSlices", use_locking: Any = None, name: Any = None) -> "Variable":
        """Overwrite the rows an :class:`IndexedSlices` names with its rows; returns the variable."""
        return self._scatter(sparse_delta, "update")

    def scatter_add(self, sparse_delta: "IndexedSlices", use_locking: Any = None, name: Any = None) -> "Variable":
        """Add the rows of an :class:`IndexedSlices` to the rows it names (duplicates add); returns
        the variable."""
        return self._scatter(sparse_delta, "add")

    def scatter_sub(self, sparse_delta: "IndexedSlices", use_locking: Any = None, name: Any = None) -> "Variable":
        """Subtract the rows of an :class:`IndexedSlices` from the rows it names; returns the variable."""
        return self._scatter(sparse_delta, "sub")

    def scatter_mul(self, sparse_delta: "IndexedSlices", use_locking: Any = None, name: Any = None) -> "Variable":
        """Multiply the rows an :class:`IndexedSlices` names by its rows; returns the variable."""
        return self._scatter(sparse_delta, "mul")

    def scatter_div(self, sparse_delta: "IndexedSlices", use_locking: Any = None, name: Any = None) -> "Variable":
        """Divide the rows an :class:`IndexedSlices` names by its rows (integers round toward
        zero); returns the variable."""
        return self._scatter(sparse_delta, "div")

    def scatter_max(self, sparse_delta: "IndexedSlices", use_locking: Any = None, name: Any = None) -> "Variable":
        """Set the rows an :class:`IndexedSlices` names to their maximum with its rows; returns
        the variable."""
        return self._scatter(sparse_delta, "max")

    def scatter_min(self, sparse_delta: "IndexedSlices", use_locking: Any = None, name: Any = None) -> "Variable":
        """Set the rows an :class:`IndexedSlices` names to their minimum with its rows; returns
        the variable."""
        return self._scatter(sparse_delta, "min")

    def _scatter_nd(self, indices: Any, updates: Any, how: str, opname: str = "") -> "Variable":
        opname = opname or "ResourceScatterNd" + how.capitalize()
        write = _SCATTER[how][1]
        idx = self._indices(indices, opname)
        upd = convert_to_tensor(updates, dtype=self._snap._value.dtype)._value
        with self._lock:
            old = self._snap._value
            k = idx.shape[-1] if idx.ndim else 0
            if not 1 <= k <= old.ndim:
                raise InvalidArgumentError(
                    f"indices must have a last dimension of size 1 to {old.ndim} (the variable's "
                    f"rank), one index per axis; got indices of shape {list(idx.shape)} [Op:{opname}]")
            want = idx.shape[:-1] + old.shape[k:]
            if upd.shape != want:
                raise InvalidArgumentError(
                    f"updates must have shape indices.shape[:-1] + variable.shape[{k}:] = "
                    f"{list(want)}; got {list(upd.shape)} [Op:{opname}]")
            flat = idx.reshape(-1, k)
            bad = np.flatnonzero(((flat < 0) | (flat >= old.shape[:k])).any(axis=1))
            if bad.size:
                raise InvalidArgumentError(f"indices[{bad[0]}] = {flat[bad[0]].tolist()} does not "
                                           f"index into shape {list(old.shape)} [Op:{opname}]")
            new = old.copy()
            write(new, tuple(flat.T), upd.reshape((-1,) + old.shape[k:]))
            self._set(new, fresh=True)
        self._on_assign()
        return self

    def scatter_nd_update(self, indices: Any, updates: Any, name: Any = None) -> "Variable":
        """Write ``updates`` at ``indices`` (each row of the last axis indexes the leading axes);
        returns the variable."""
        return self._scatter_nd(indices, updates, "update")

    def scatter_nd_add(self, indices: Any, updates: Any, name: Any = None) -> "Variable":
        """Add ``updates`` at ``indices`` (duplicates add); returns the variable."""
        return self._scatter_nd(indices, updates, "add")

    def scatter_nd_sub(self, indices: Any, updates: Any, name: Any = None) -> "Variable":
        """Subtract ``updates`` at ``indices``; returns the variable."""
        return self._scatter_nd(indices, updates, "sub")

    def scatter_nd_max(self, indices: Any, updates: Any, name: Any = None) -> "Variable":
        """Take the maximum with ``updates`` at ``indices``; returns the variable."""
        return self._scatter_nd(indices, updates, "max")

    def scatter_nd_min(self, indices: Any, updates: Any, name: Any = None) -> "Variable":
        """Take the minimum with ``updates`` at ``indices``; returns the variable."""
        return self._scatter_nd(indices, updates, "min")

    def batch_scatter_update(self, sparse_delta: "IndexedSlices", use_locking: Any = None, name: Any = None) -> "Variable":
        """:meth:`scatter_update` within each batch: ``sparse_delta.indices`` of shape
        ``batch + [m]`` pick rows along the axis after the batch axes of the variable."""
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError(f"Argument `sparse_delta` of batch_scatter_update must be a "
                            f"`tf.IndexedSlices`; got {sparse_delta!r}.")
        idx = self._indices(sparse_delta.indices, "BatchScatterUpdate")
        if idx.ndim <= 1:
            return self._scatter(sparse_delta, "update")
        batch = idx.shape[:-1]
        grid = np.indices(batch + idx.shape[-1:])[:-1]  # the batch position of every index
        nd = np.stack(list(grid) + [idx], axis=-1)
        return self._scatter_nd(nd, sparse_delta.values, "update", "BatchScatterUpdate")

    def _on_assign(self, how: str = "", value: Any = None) -> None:
        _rec.tls.stateful += 1  # (_rec.note_stateful, inline)
        if _rec.active:
            _rec.note_variable_assign(self, how, value)

    # In-place operators would rebind the name to a new Tensor and lose the variable.
    __iadd__ = _no_inplace("+", "variable.assign_add(value)")
    __isub__ = _no_inplace("-", "variable.assign_sub(value)")
    __imul__ = _no_inplace("*", "variable.assign(variable * value)")
    __itruediv__ = _no_inplace("/", "variable.assign(variable / value)")
    __ifloordiv__ = _no_inplace("//", "variable.assign(variable // value)")
    __imod__ = _no_inplace("%", "variable.assign(variable % value)")
    __ipow__ = _no_inplace("**", "variable.assign(variable ** value)")
    __imatmul__ = _no_inplace("@", "variable.assign(variable @ value)")
    __iand__ = _no_inplace("&", "variable.assign(variable & value)")
    __ior__ = _no_inplace("|", "variable.assign(variable | value)")
    __ixor__ = _no_inplace("^", "variable.assign(variable ^ value)")

    def __repr__(self) -> str:
        return (f"<tapegrad.Variable '{self._name}' shape={self.shape} dtype={self.dtype.name}, "
                f"numpy={numpy_text(self._host(), True)}>")

    def __hash__(self) -> int:  # (== is elementwise, as in TensorFlow)
        if Tensor._USE_EQUALITY:
            raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key.")
        return id(self)

    def ref(self) -> _Ref:
        """A hashable reference to the variable (for use as a dict key or in sets), as TensorFlow's."""
        return _Ref(self)

    experimental_ref = ref

    def __len__(self) -> int:
        return len(self._read())

    def __iter__(self) -> Iterator[Tensor]:
        return iter(self._read())

    def __bool__(self) -> builtins.bool:
        return builtins.bool(self._read())

    def __float__(self) -> float:
        return float(self._read())

    def __int__(self) -> int:
        return int(self._read())

    def __index__(self) -> int:
        return self._read().__index__()

    def __getitem__(self, key: Any) -> Tensor:
        t = self._read()[key]  # recorded (and the key checked) as a read of the slice
        if type(t) is not Tensor or _is_mask(key):
            # a backend's slice (GPU, Dask), or a boolean mask's entries (TF's too): read only
            return t
        # the very tensor the recorders saw (a tf.function's tracer follows tensors by identity:
        # a copy would be a constant of the trace, the slice's value when traced), made writable
        t.__class__ = _VariableSlice
        i = id(t)
        _slice_of[i] = (self, _static_key(key), weakref.ref(t, lambda _: _slice_of.pop(i, None)))
        return t


class _VariableSlice(Tensor):
    """``variable[key]``: the Tensor of that slice, which can also write the slice (TensorFlow's
    strided-slice assign). The tensor keeps the value it was read with."""

    __slots__ = ()

    def assign(self, value: Any, name: Any = None) -> Variable:
        """Write ``value`` (broadcast to the slice's shape) into this slice of the variable, as
        one atomic update; returns the variable. Not differentiable through ``value``."""
        var, key, _ = _slice_of[id(self)]
        return var._assign_slice(key, value)


_slice_of: dict = {}  # id(a _VariableSlice) -> (its variable, its key, a weak reference to it)


class ResourceHandle:
    """A Variable's ``handle`` (:attr:`Variable.handle`): TensorFlow's scalar ``resource`` tensor."""

    __slots__ = ("_variable",)
    shape = TensorShape([])

    def __init__(self, variable: Variable) -> None:
        self._variable = variable

    @property
    def device(self) -> str:
        return self._variable.device

    def numpy(self) -> Any:
        raise InvalidArgumentError("Cannot convert a Tensor of dtype resource to a NumPy array.")

    def _text(self) -> str:
        v = self._variable
        name = v.name[:-2] if v.name.endswith(":0") else v.name
        return (f'<ResourceHandle(name="{name}/{v._handle_number}", device="{v.device}", '
                f'container="Anonymous", type="tensorflow::Var", dtype and shapes : "[ DType enum: '
                f'{v.dtype.as_datatype_enum}, Shape: [{",".join(str(d) for d in v.shape)}] ]")>')

    def __repr__(self) -> str:
        return f"<tapegrad.Tensor: shape=(), dtype=resource, value={self._text()}>"

    def __str__(self) -> str:
        return f"tapegrad.Tensor({self._text()}, shape=(), dtype=resource)"
