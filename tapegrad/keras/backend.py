"""``tapegrad.keras.backend``: Keras 3's global settings (float type, fuzz factor, image layout),
``clear_session``, which restarts the layer-name counters, and the legacy random functions
``tf.keras.backend`` still exports (``random_normal``, ``random_uniform``, ``truncated_normal``,
``random_bernoulli`` and the ``*_variable`` ones): TF's stateful draws (``tf.random.*`` with an op
seed, which is drawn from NumPy's global generator when none is given, as Keras does: in
``fit``'s step once, when TensorFlow traces it, so the op's stream goes on from step to step).

It also has every legacy function of tf.keras's backend (``K.sum``, ``K.softmax``, ``K.dot``,
``K.batch_dot``, ``K.rnn``, ... Keras 3's ``keras.src.legacy.backend``, which TF 2.21's
``tf.keras.backend`` exports), loaded on first use from ``_legacy_backend``.

>>> from tapegrad import keras
>>> keras.backend.floatx(), keras.backend.epsilon(), keras.backend.image_data_format()
('float32', 1e-07, 'channels_last')
>>> K = keras.backend
>>> K.sum(K.softmax(K.constant([[1.0, 2.0], [3.0, 3.0]])), axis=1).numpy()
array([1., 1.], dtype=float32)
"""
from __future__ import annotations

import importlib
import os
import random as _pyrandom
import re
import warnings
from typing import TYPE_CHECKING, Any, Iterable

import numpy as np

from ._engine import _recorders as _rec
from .. import random as _random
from ._engine import Tensor
from ._engine import Variable
from ..ops.math import less_equal as _less_equal, where as _where
from ..ops.array import ones as _ones, zeros as _zeros

__all__ = ["floatx", "set_floatx", "epsilon", "set_epsilon", "image_data_format",
           "set_image_data_format", "clear_session", "backend", "standardize_dtype",
           "random_bernoulli", "random_normal", "random_uniform", "truncated_normal",
           "random_normal_variable", "random_uniform_variable", "result_type", "is_float_dtype",
           "is_int_dtype", "get_uid"]

_FLOATS = ("bfloat16", "float16", "float32", "float64")
_KERAS_DTYPES = frozenset(_FLOATS + ("bool", "string", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                     "uint32", "uint64", "complex64", "complex128"))  # (NumPy lacks bfloat16)
_state: dict[str, Any] = {"floatx": "float32", "epsilon": 1e-7, "image_data_format": "channels_last"}
_name_uids: dict[str, int] = {}
_global_state: dict[str, Any] = {}  # Keras 3's global_state: what clear_session forgets (the seed generator)


def floatx() -> str:
    """The default float type of new layers' weights and computations (``"float32"``)."""
    return _state["floatx"]


def set_floatx(value: str) -> None:
    """Set the default float type: layers created afterwards compute in it.

    >>> from tapegrad import keras
    >>> keras.backend.set_floatx("float64")
    >>> keras.layers.Dense(2).dtype
    'float64'
    >>> keras.backend.set_floatx("float32")
    """
    value = str(value)
    if value not in _FLOATS:
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {set(_FLOATS)}")
    _state["floatx"] = value


def epsilon() -> float:
    """The fuzz factor Keras adds to denominators (``1e-7``)."""
    return _state["epsilon"]


def set_epsilon(value: float) -> None:
    """Set the fuzz factor returned by :func:`epsilon`."""
    _state["epsilon"] = float(value)


def image_data_format() -> str:
    """``"channels_last"`` (the default) or ``"channels_first"``."""
    return _state["image_data_format"]


def set_image_data_format(data_format: str) -> None:
    """Set the default ``data_format`` of image layers."""
    data_format = str(data_format).lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', "
                         f"'channels_last'}}. Received: data_format={data_format}")
    _state["image_data_format"] = data_format


def backend() -> str:
    """The name of the backend: ``"tensorflow"`` (tapegrad stands in for it)."""
    return "tensorflow"


def clear_session(free_memory: bool = True) -> None:
    """Forget the global Keras state: layer names start again at ``"dense"``, ``"dense_1"``, ...

    >>> from tapegrad import keras
    >>> keras.backend.clear_session()
    >>> keras.layers.Dense(1).name, keras.layers.Dense(1).name
    ('dense', 'dense_1')
    """
    _name_uids.clear()
    _global_state.clear()


# Python's types as Keras's TensorFlow backend reads them (keras/src/backend/common/dtypes.py)
PYTHON_DTYPES = {bool: "bool", int: "int64", float: "float32", str: "string", "int": "int64",
                 complex: "complex128"}


def standardize_dtype(dtype: Any) -> str:
    """A dtype's name as Keras writes it (``"float32"``); ``None`` gives :func:`floatx`; Python's
    ``int``, ``float``, ``bool``, ``str``, ``complex`` (and ``"int"``) as Keras on TensorFlow
    reads them (``"int64"``, ``"float32"``, ...)."""
    if dtype is None:
        return floatx()
    if isinstance(dtype, str) and dtype in _KERAS_DTYPES:
        return dtype
    try:
        dtype = PYTHON_DTYPES.get(dtype, dtype)
    except TypeError:   # (unhashable)
        pass
    if isinstance(dtype, str) and dtype in _KERAS_DTYPES:
        return dtype
    name = getattr(dtype, "name", None)
    if not isinstance(name, str):
        import numpy as np
        name = "string" if dtype is str or dtype == "string" else np.dtype(dtype).name
    return name


def is_float_dtype(dtype: Any) -> bool:
    """Whether ``dtype`` is a float type (``"float32"``, ``"bfloat16"``, ...)."""
    return standardize_dtype(dtype).startswith(("float", "bfloat"))


def is_int_dtype(dtype: Any) -> bool:
    """Whether ``dtype`` is a signed or unsigned integer type."""
    return standardize_dtype(dtype).startswith(("int", "uint"))


# Keras 3's type promotion lattice (JAX's): each dtype and its next wider ones; "int" and "float"
# are the weak types of Python numbers, which take the other operand's type when it is wide enough.
_LATTICE = {
    "bool": ("int",), "int": ("uint8", "int8", "complex64"), "uint8": ("int16", "uint16"),
    "uint16": ("int32", "uint32"), "uint32": ("int64", "uint64"), "uint64": ("float",),
    "int8": ("int16",), "int16": ("int32",), "int32": ("int64",), "int64": ("float",),
    "float": ("bfloat16", "float16"), "bfloat16": ("float32",), "float16": ("float32",),
    "float32": ("float64", "complex64"), "float64": ("complex128",), "complex64": ("complex128",),
    "complex128": (),
}


def _upper_bounds(node: str) -> frozenset:
    seen, todo = {node}, [node]
    while todo:
        for up in _LATTICE[todo.pop()]:
            if up not in seen:
                seen.add(up)
                todo.append(up)
    return frozenset(seen)


_UPPER = {n: _upper_bounds(n) for n in _LATTICE}
_NARROW_64 = {"uint64": "uint32", "complex128": "complex64"}  # (Keras's TF backend keeps int64, float64)


def _least_upper_bound(nodes: frozenset) -> str:
    common = frozenset.intersection(*(_UPPER[n] for n in nodes))
    least = [c for c in common if common <= _UPPER[c]]
    if len(least) != 1:
        raise ValueError(f"Input dtypes {tuple(sorted(nodes))} have no implicit promotion path in "
                         "Keras; cast the inputs to the type you want first.")
    return least[0]


def _weak_name(dtype: Any) -> tuple:
    if dtype is int or dtype is float:
        return ("int" if dtype is int else "float"), True
    if dtype is bool:
        return "bool", False
    if dtype is complex:
        return "complex128", False
    name = dtype if isinstance(dtype, str) and dtype in _LATTICE else standardize_dtype(dtype)
    if name not in _LATTICE:
        raise ValueError(f"dtype={name!r} is not a valid dtype for Keras type promotion (expected one "
                         f"of {', '.join(n for n in _LATTICE if n not in ('int', 'float'))}).")
    return name, False


def result_type(*dtypes: Any) -> str:
    """The dtype Keras 3 gives an op on operands of ``dtypes``, by its promotion lattice (JAX's):
    an integer with a float gives the float, two of a kind the wider one, signed with unsigned the
    next signed type wide enough; the Python types ``int`` and ``float`` (a Python number's) are
    weak: they take the other dtype when it is of their kind or wider. ``None`` is
    :func:`floatx`; no dtypes give :func:`floatx`. ``keras.ops`` promote their operands with it
    (``tf.*`` ops do not promote).

    >>> from tapegrad import keras
    >>> keras.backend.result_type("int32", "float16"), keras.backend.result_type("uint8", "int8")
    ('float16', 'int16')
    >>> keras.backend.result_type("uint8", int), keras.backend.result_type("int32", float)
    ('uint8', 'float32')
    """
    if not dtypes:
        return floatx()
    named = [_weak_name(floatx() if d is None else d) for d in dtypes]
    names = frozenset(n for n, _ in named)
    if all(w for _, w in named):
        out = _least_upper_bound(frozenset({"int": "int64", "float": "float32"}[n] for n in names))
        weak = True
    elif len(names) == 1:
        out, weak = next(iter(names)), False
    else:
        out = _least_upper_bound(names)
        weak = out in ("int", "float")
    if weak and out != "bool":
        bits = floatx()[-2:]
        out = "float" + bits if out.startswith(("float", "bfloat")) else \
            ("uint" if out.startswith("u") else "int") + bits
    return _NARROW_64.get(out, out)


_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=.)(?=[A-Z][a-z])")


def snake_case(name: str) -> str:
    """``"BatchNormalization"`` -> ``"batch_normalization"``, ``"Conv2D"`` -> ``"conv2d"``."""
    return _CAMEL.sub("_", re.sub(r"\W+", "", name)).lower()


def get_uid(prefix: str = "") -> int:
    """How many times ``prefix`` has been counted, this call included; layer names count too
    (Keras's shared counter), until :func:`clear_session`.

    >>> from tapegrad import keras
    >>> keras.backend.clear_session()
    >>> keras.backend.get_uid("block"), keras.backend.get_uid("block")
    (1, 2)
    """
    _name_uids[prefix] = _name_uids.get(prefix, 0) + 1
    return _name_uids[prefix]


def unique_name(base: str) -> str:
    """``base`` the first time, then ``base_1``, ``base_2``, ... until :func:`clear_session`."""
    n = _name_uids.get(base, 0)
    _name_uids[base] = n + 1
    return base if n == 0 else f"{base}_{n}"


# ---- legacy random functions ---------------------------------------------------------------------

def _op_seed(seed: Any, high: int) -> Any:
    # Keras's legacy backend: no seed -> an op seed from NumPy's global generator, drawn when the
    # Python code runs: in fit's step (a tf.function) once, at its trace, and then the op's
    # kernel goes on from step to step
    return _random.trace_time(lambda: np.random.randint(high)) if seed is None else seed


def random_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None,
                  seed: int | None = None) -> Tensor:
    """``tf.random.normal(shape, mean, stddev, dtype, seed)`` with ``dtype`` defaulting to
    :func:`floatx` and ``seed`` to a draw of ``np.random.randint(10**7)``.

    >>> import tapegrad as tf
    >>> tf.random.set_seed(1)
    >>> a = tf.keras.backend.random_normal((2,), seed=3)
    >>> tf.random.set_seed(1)
    >>> bool(tf.reduce_all(a == tf.random.normal((2,), seed=3)))
    True
    """
    return _random.normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(),
                          seed=_op_seed(seed, 10 ** 7))


def random_uniform(shape: Any, minval: float = 0.0, maxval: float = 1.0, dtype: Any = None,
                   seed: int | None = None) -> Tensor:
    """``tf.random.uniform(shape, minval, maxval, dtype, seed)`` (defaults as :func:`random_normal`)."""
    return _random.uniform(shape, minval=minval, maxval=maxval, dtype=dtype or floatx(),
                           seed=_op_seed(seed, 10 ** 7))


def truncated_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None,
                     seed: int | None = None) -> Tensor:
    """``tf.random.truncated_normal(shape, mean, stddev, dtype, seed)`` (defaults as
    :func:`random_normal`)."""
    return _random.truncated_normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(),
                                    seed=_op_seed(seed, 10 ** 7))


def random_bernoulli(shape: Any, p: float = 0.0, dtype: Any = None,
                     seed: int | None = None) -> Tensor:
    """Ones with probability ``p``, zeros otherwise: where a ``tf.random.uniform`` draw is
    ``<= p`` (defaults as :func:`random_normal`).

    >>> import tapegrad as tf
    >>> tf.keras.backend.random_bernoulli((2, 3), p=1.0, seed=4).numpy()
    array([[1., 1., 1.],
           [1., 1., 1.]], dtype=float32)
    """
    dtype = dtype or floatx()
    u = _random.uniform(shape, dtype=dtype, seed=_op_seed(seed, 10 ** 7))
    return _where(_less_equal(u, p), _ones(shape, dtype=dtype), _zeros(shape, dtype=dtype))


def random_normal_variable(shape: Any, mean: float, scale: float, dtype: Any = None,
                           name: str | None = None, seed: int | None = None) -> Variable:
    """A ``tf.Variable`` holding ``tf.random.normal(shape, mean, scale, dtype, seed)`` (no seed: one
    drawn by ``np.random.randint(10**9)``)."""
    dtype = dtype or floatx()
    value = _random.normal(shape, mean=mean, stddev=scale, dtype=dtype, seed=_op_seed(seed, 10 ** 9))
    return Variable(value, dtype=dtype, name=name)


def random_uniform_variable(shape: Any, low: float, high: float, dtype: Any = None,
                            name: str | None = None, seed: int | None = None) -> Variable:
    """A ``tf.Variable`` holding ``tf.random.uniform(shape, low, high, dtype, seed)`` (no seed: one
    drawn by ``np.random.randint(10**9)``)."""
    dtype = dtype or floatx()
    value = _random.uniform(shape, minval=low, maxval=high, dtype=dtype,
                            seed=_op_seed(seed, 10 ** 9))
    return Variable(value, dtype=dtype, name=name)


# ---- building functional models without side effects ----------------------------------------------

class StatelessConstruction(_rec.Recorder):
    """Keras 3 builds a functional model by calling each layer on symbolic placeholders in a
    ``StatelessScope`` inside a scratch graph, so construction changes nothing: a variable
    assigned in ``call`` (a ``SeedGenerator`` advancing, ``kernel.assign(...)``) keeps its
    value, and random ops draw from the scratch graph's kernels, not the eager stream. tapegrad
    calls ``call`` on concrete placeholders inside this scope, which gives the same result:
    every variable ``call`` reads or assigns (and every one of ``variables``) gets its value
    back on exit, and random ops run in a throwaway graph of their own. (Python's and NumPy's
    random draws in ``call`` are the caller's to handle: Keras makes them once.)

    >>> from tapegrad import keras
    >>> g = keras.random.SeedGenerator(3)
    >>> with StatelessConstruction([g.state]):
    ...     _ = keras.random.uniform((2,), seed=g)
    >>> g.state.numpy().tolist()
    [3, 0]
    """

    __slots__ = ("saved", "_graph")
    stand_ins = True  # (a reshape's element count is not checked: see _recorders.standing_in)

    def __init__(self, variables: Iterable = ()) -> None:
        self.saved: dict[int, tuple] = {}
        for v in variables:
            self.on_variable_read(v)
        self._graph: Any = None

    def on_variable_read(self, v: Any) -> None:
        if id(v) not in self.saved:
            self.saved[id(v)] = (v, v._snap)

    def on_variable_assign(self, v: Any, how: str = "", value: Any = None) -> None:
        if id(v) not in self.saved and how in ("assign_add", "assign_sub") and v.dtype.is_integer:
            # (updated without a read first, as a SeedGenerator's state: the old value is exact)
            delta = np.asarray(value.numpy() if isinstance(value, Tensor) else value)
            now = v._snap.numpy()
            old = now - delta if how == "assign_add" else now + delta
            self.saved[id(v)] = (v, old)

    def __enter__(self) -> "StatelessConstruction":
        _rec.push(self)
        self._graph = _random.in_graph(_random.FunctionSeeds().instance())
        self._graph.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._graph.__exit__(*exc)
        _rec.pop(self)
        for v, old in self.saved.values():
            if (v._snap if isinstance(old, Tensor) else None) is not old:
                v.assign(old)


def python_random_states() -> tuple:
    """Python's and NumPy's global random states (to draw once what a twice-run ``call`` draws)."""
    return _pyrandom.getstate(), np.random.get_state()


def set_python_random_states(states: tuple) -> None:
    _pyrandom.setstate(states[0])
    np.random.set_state(states[1])


if not TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # tf.keras's legacy functions, loaded on first use
        if not name.startswith("_"):
            legacy = importlib.import_module("._legacy_backend", __package__)
            if name in legacy.NAMES:
                return getattr(legacy, name)
            from .losses import _missing_name
            raise _missing_name(__name__, name, __all__ + legacy.NAMES)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# keras.config's debugging caps of fit/evaluate/predict (Keras reads the variables at import)
_caps: dict = {"max_epochs": int(os.environ["KERAS_MAX_EPOCHS"]) if os.environ.get("KERAS_MAX_EPOCHS") else None,
               "max_steps_per_epoch": (int(os.environ["KERAS_MAX_STEPS_PER_EPOCH"])
                                       if os.environ.get("KERAS_MAX_STEPS_PER_EPOCH") else None)}


def _capped_epochs(epochs: int) -> int:
    """``fit``'s epochs under ``keras.config.max_epochs``, with Keras's warning when cut."""
    cap = _caps["max_epochs"]
    if cap and cap < epochs:
        warnings.warn(f"Limiting epochs to {cap}", stacklevel=3)
        return cap
    return epochs


def _capped_steps(steps: Any) -> Any:
    """An epoch's steps under ``keras.config.max_steps_per_epoch``, with Keras's warning when cut."""
    cap = _caps["max_steps_per_epoch"]
    if cap and (not steps or cap < steps):
        warnings.warn(f"Limiting steps_per_epoch to {cap}", stacklevel=3)
        return cap
    return steps


def by_path(mapping: dict, key: str, default: Any, what: str) -> Any:
    """Keras's look-up of a path in a map of path patterns (``LayoutMap``, ``DTypePolicyMap``,
    ``OptimizerMap``): the exact key, else the one key that ``re.fullmatch``-es the path (more
    than one: ``ValueError``, ``what`` naming the map's values), else ``default``."""
    if key in mapping:
        return mapping[key]
    matching = [p for p in mapping if re.fullmatch(p, key)]
    if len(matching) > 1:
        if what == "optimizer":
            raise ValueError(f"Multiple optimizers assigned to variable {key}.")
        raise ValueError(f"Path '{key}' matches multiple {what} specification keys: {matching}. Please make sure "
                         + ("each tensor/variable path only matches at most one layout specification key in the "
                            "LayoutMap." if what == "layout" else
                            "each path only matches at most one dtype policy specification key in the "
                            "DTypePolicyMap."))
    return mapping[matching[0]] if matching else default
