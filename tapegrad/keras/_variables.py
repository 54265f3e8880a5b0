"""``keras.Variable`` (``KerasVariable``), its aggregation and synchronization names, the name
scope that makes a weight's ``path``, and the autocast scope of a mixed-precision layer's call."""
from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING, Any, Callable, Iterator

import numpy as np

from .. import diagnosis as _diagnosis
from ._engine import convert_to_tensor
from ._engine import Tensor, VariableBase
from ._engine import Variable, VariableAggregation, VariableSynchronization
from ..dtypes import as_dtype
from ..ops.math import cast
from . import backend

if TYPE_CHECKING:
    from .layers.layer import Layer

__all__ = ["KerasVariable", "NameScope"]


_context = threading.local()  # (the name scope of this thread)


def _scope_path() -> list:
    """The layers being called or built, outermost first (Keras's name scope, which makes a
    weight's ``path``)."""
    path = getattr(_context, "path", None)
    if path is None:
        path = _context.path = []
    return path


def _scope_names() -> list:
    parts: list = []
    for entry in getattr(_context, "path", None) or ():
        parent = getattr(entry, "override_parent", None)
        if parent is not None:
            parts = [p for p in parent.split("/") if p]
        parts.append(entry.name)
    return parts


def _layer_scope() -> str:
    return "/".join(_scope_names())


_diagnosis.layer_scope = _layer_scope  # explain mode: the layer each op ran in, for tape pictures


@contextlib.contextmanager
def name_scope(layer: "Layer") -> Iterator[None]:
    """Build ``layer``'s weights (and its sublayers') under its name: their ``path``."""
    path = _scope_path()
    if path and path[-1] is layer:
        yield
        return
    path.append(layer)
    try:
        yield
    finally:
        path.pop()


class NameScope:
    """``keras.name_scope(name)``: weights that layers build inside it have ``name/`` in their
    ``path`` (before their layers' names). ``override_parent`` replaces the enclosing scopes'
    path; with ``deduplicate`` (the default), entering a scope of the same name and ``caller``
    as the innermost one opens no new level.

    >>> from tapegrad import keras
    >>> with keras.name_scope("block_1"):
    ...     layer = keras.layers.Dense(2, name="dense")
    ...     layer.build((None, 3))
    >>> [w.path for w in layer.weights]
    ['block_1/dense/kernel', 'block_1/dense/bias']
    """

    def __init__(self, name: str, caller: Any = None, deduplicate: bool = True,
                 override_parent: str | None = None) -> None:
        if not isinstance(name, str) or "/" in name:
            raise ValueError("Argument `name` must be a string and cannot contain character `/`. "
                             f"Received: name={name}")
        self.name, self.caller, self.deduplicate = name, caller, deduplicate
        self.override_parent = override_parent
        self._pushed = False

    def __enter__(self) -> "NameScope":
        path = _scope_path()
        top = path[-1] if path else None
        if (self.deduplicate and self.caller is not None and getattr(top, "caller", None) is self.caller
                and getattr(top, "name", None) == self.name):
            return self
        path.append(self)
        self._pushed = True
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._pushed:
            _scope_path().pop()
            self._pushed = False


class _Autocast(threading.local):
    """Inside a layer's ``call``: the dtype float KerasVariables are read as (None: as stored),
    and whether any layer's call has set it (Keras's autocast scope)."""
    scope = False
    dtype: Any = None  # a tapegrad DType


_AUTOCAST = _Autocast()
_MIXED = [False]  # whether a mixed-precision layer was ever made: until then calls skip autocasting
_FLOAT_NAMES = ("float16", "float32", "float64")


def _enter_autocast(layer: "Layer") -> Any:
    """Set the autocast dtype for ``layer``'s call as Keras 3 does; returns what to restore
    (None: nothing to, no mixed-precision layer exists)."""
    if not _MIXED[0]:
        return None
    prev = (_AUTOCAST.scope, _AUTOCAST.dtype)
    compute = layer._compute_dtype
    if prev[0]:
        if not layer.autocast or compute not in _FLOAT_NAMES:
            _AUTOCAST.dtype = None
        else:
            _AUTOCAST.dtype = as_dtype(compute)
    elif compute != layer._dtype and compute in _FLOAT_NAMES:  # (a mixed policy)
        _AUTOCAST.scope, _AUTOCAST.dtype = True, as_dtype(compute)
    return prev


def _exit_autocast(prev: Any) -> None:
    if prev is not None:
        _AUTOCAST.scope, _AUTOCAST.dtype = prev


def _autocast_read(self: "KerasVariable") -> Tensor:
    """``KerasVariable._read`` once a mixed-precision layer exists: inside a layer's call, a float
    variable made with ``autocast=True`` reads in the call's compute dtype."""
    r = Variable._read(self)
    dt = _AUTOCAST.dtype
    if dt is None or not self._autocast:
        return r
    have = r.dtype
    return r if have == dt or not have.is_floating else cast(r, dt)


_AGGREGATIONS = {"sum": VariableAggregation.SUM, "mean": VariableAggregation.MEAN,
                 "only_first_replica": VariableAggregation.ONLY_FIRST_REPLICA,
                 "none": VariableAggregation.NONE, None: VariableAggregation.NONE}
_SYNCHRONIZATIONS = {"auto": VariableSynchronization.AUTO, "none": VariableSynchronization.NONE,
                     "on_read": VariableSynchronization.ON_READ,
                     "on_write": VariableSynchronization.ON_WRITE, None: VariableSynchronization.AUTO}


def _member(name: Any, table: dict, argument: str) -> Any:
    """Keras's name of a variable's aggregation or synchronization as tf.Variable's enum."""
    if isinstance(name, type(table[None])):
        return name
    if name not in table:
        raise ValueError(f"Invalid value for argument `{argument}`: {name!r}; expected one of "
                         f"{', '.join(repr(k) for k in table if k is not None)}.")
    return table[name]


def _aggregation(name: Any) -> VariableAggregation:
    return _member(name, _AGGREGATIONS, "aggregation")


def _synchronization(name: Any) -> VariableSynchronization:
    return _member(name, _SYNCHRONIZATIONS, "synchronization")


class DTypeName(str):
    """A dtype's name (``"float32"``, what Keras 3's variables give as ``dtype``) that answers
    the attributes of the :class:`~tapegrad.DType` it names and compares equal to it.

    >>> import tapegrad as tf
    >>> d = DTypeName(tf.float32)
    >>> d, d == "float32", d == tf.float32, d.is_floating
    ('float32', True, True, True)
    """

    def __new__(cls, dtype: Any) -> "DTypeName":
        dtype = as_dtype(dtype)
        name = super().__new__(cls, dtype.name)
        name._dtype = dtype
        return name

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return getattr(self.__dict__["_dtype"], attr)

    def __eq__(self, other: Any) -> bool:
        return str.__eq__(self, other) if isinstance(other, str) else self._dtype == other

    def __ne__(self, other: Any) -> bool:
        return not self == other

    __hash__ = str.__hash__

    def __reduce__(self) -> tuple:
        return DTypeName, (str(self),)


# ``keras.initializers.get``, set when that module loads: it imports keras.random, whose seed
# generators keep their state in a KerasVariable, so this module cannot import it
INITIALIZERS: list = [None]


class KerasVariable(Variable):
    """``keras.Variable``: the variable Keras layers track (``add_weight`` makes them; a layer
    attribute holding one adds it to the layer's weights, as Keras 3 does, while a plain
    ``tf.Variable`` attribute is not tracked).

    Its ``name`` is the bare name Keras 3 gives (``"kernel"``, no ``":0"``) and ``path`` adds the
    names of the layers it was built in (``"dense/kernel"``). It is a ``tf.Variable`` too, so
    TensorFlow code can read and assign it. ``initializer`` is a value, or an initializer (a
    name, an object or a callable) drawn with ``shape``; ``autocast=False`` keeps it in its own
    dtype inside a mixed-precision layer's call; ``aggregation`` and ``synchronization`` are
    the ``tf.Variable``'s, as Keras 3 makes them on TensorFlow (``"sum"`` and ``"mean"`` combine
    the replicas' assignments in a ``tf.distribute`` step).

    >>> from tapegrad import keras
    >>> v = keras.Variable(initializer="ones", shape=(2,), name="w")
    >>> v.name, v.path, v.numpy()
    ('w', 'w', array([1., 1.], dtype=float32))
    """

    def __init__(self, initializer: Any, shape: Any = None, dtype: Any = None,
                 trainable: bool = True, autocast: bool = True, aggregation: str = "none",
                 synchronization: str = "auto", name: str | None = None, *,
                 constraint: Callable | None = None) -> None:
        if name is not None and (not isinstance(name, str) or "/" in name):
            raise ValueError("Argument `name` must be a string and cannot contain character `/`. "
                             f"Received: name={name!r}")
        name = name or backend.unique_name("variable")
        dt = backend.standardize_dtype(dtype)
        if isinstance(initializer, str) or callable(initializer):
            if shape is None:
                raise ValueError("When creating a Variable from an initializer, the `shape` argument "
                                 f"should be specified. Received: initializer={initializer!r} and "
                                 "shape=None")
            value = INITIALIZERS[0](initializer)(tuple(shape), dtype=dt)
        elif isinstance(initializer, (Tensor, VariableBase)):
            value = convert_to_tensor(initializer)
            value = value if value.dtype.name == dt else cast(value, dt)
        else:
            value = convert_to_tensor(np.asarray(initializer), dtype=dt)
        super().__init__(value, trainable=trainable, name=name, dtype=dt, constraint=constraint,
                         aggregation=_aggregation(aggregation),
                         synchronization=_synchronization(synchronization))
        if not autocast:
            self._autocast = False
        self._keras_name = name
        self._path = "/".join(_scope_names() + [name])

    _autocast = True  # (read in the compute dtype inside a mixed-precision layer's call)
    overwrite_with_gradient = False  # (True: an optimizer assigns the gradient itself, float8's scales)
    _adds_by_assign = True  # (Keras 3's assign_add is assign(self + value): a tf.distribute
    # replica combines the sums of a variable aggregated by SUM or MEAN, distribute/_replica.py)

    @property
    def autocast(self) -> bool:
        """Whether a mixed-precision layer reads this variable in its compute dtype."""
        return self._autocast

    @property
    def dtype(self) -> Any:  # type: ignore[override]
        """The dtype as Keras 3 gives it, a string (``"float32"``); it also answers what a
        ``tf.DType`` answers (``.name``, ``.is_floating``, ``== tf.float32``), as the
        ``tf.Variable`` this is."""
        name = self.__dict__.get("_dtype_name")
        if name is None:
            name = self.__dict__["_dtype_name"] = DTypeName(super().dtype)
        return name

    @property
    def name(self) -> str:
        """The variable's name, as Keras 3 gives it (no ``":0"``)."""
        return self._keras_name

    @property
    def path(self) -> str:
        """The name prefixed by the layers it was built in: ``"sequential/dense/kernel"``."""
        return self._path

    def __repr__(self) -> str:
        return (f"<Variable path={self._path}, shape={tuple(self.shape)}, dtype={self.dtype.name}, "
                f"value={self.numpy()}>")
