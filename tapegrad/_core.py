"""The engine's data model: Tensor, Variable, IndexedSlices, op declarations and dispatch.

An op is declared once with :func:`defop`: its NumPy forward, how to differentiate each input
(reverse mode) and how to push tangents through it (forward mode). Calling an op goes through
:func:`apply`, which runs the forward and, only when some recorder (a GradientTape or a
ForwardAccumulator) is active in this thread, offers the call to each recorder.

Recorders form a per-thread stack, outermost first. A recorder at position ``k`` that runs ops of
its own (a ForwardAccumulator's tangent rules) runs them with only the recorders before it
visible, so outer recorders see inner ones' work and never the reverse. This is what makes
forward-over-reverse and reverse-over-forward nesting work.
"""
from __future__ import annotations

import builtins
import enum
import itertools
import operator
import threading
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

import numpy as np

from . import dtypes as _dt
from ._compiled import warn_outside as _warn_outside
from ._framed import call as _call, framed as _framed
from .errors import InvalidArgumentError, ResourceExhaustedError

_next_id = itertools.count(1).__next__
_arrays_read = itertools.count().__next__  # Tensor.__array__ and Variable.__array__ tick it
_EMPTY: dict = {}


# --------------------------------------------------------------------------- recorder stack
class _State(threading.local):
    def __init__(self) -> None:
        self.stack: list = []
        self.seed_walk = 0  # > 0 inside a vectorised Jacobian walk (identity seeds: see matmul)


_tls = _State()
_active = 0  # recorders active in any thread: the no-tape fast path reads only this
_lock = threading.Lock()


def _push(rec: Any, index: int | None = None) -> None:
    global _active
    with _lock:
        _active += 1
    if index is None:
        _tls.stack.append(rec)
    else:
        _tls.stack.insert(index, rec)


def _pop(rec: Any) -> int:
    global _active
    stack = _tls.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is rec:
            del stack[i]
            with _lock:
                _active -= 1
            return i
    return -1


def _recording() -> bool:
    return bool(_active and _tls.stack)


# --------------------------------------------------------------------------- shapes
def _dim(d: Any) -> Any:
    if d is None:
        return None
    try:
        i = operator.index(d)
    except TypeError:
        raise TypeError(f"Dimension value must be an integer or None, got {d!r} of type "
                        f"{type(d).__name__}.") from None
    if i < 0:
        raise ValueError(f"Dimension {i} must be >= 0 (None is an unknown dimension).")
    return i


class TensorShape(tuple):
    """A shape: a tuple of dimensions, each an ``int`` or ``None`` (unknown). Compares equal to
    tuples and lists. ``TensorShape(None)`` is a shape of unknown rank.

    Tensors always have fully known shapes; partial shapes describe what a Variable declared with
    ``shape=`` accepts.

    >>> import tapegrad as tf
    >>> s = tf.zeros([2, 3]).shape
    >>> s, s.as_list(), s.rank, s[0], s == (2, 3)
    (TensorShape([2, 3]), [2, 3], 2, 2, True)
    >>> p = tf.TensorShape([None, 3])
    >>> print(p, p.is_fully_defined(), p.is_compatible_with(s), p.merge_with([4, None]))
    (None, 3) False True (4, 3)
    >>> print(tf.TensorShape(None), tf.TensorShape(None).rank)
    <unknown> None
    """

    __slots__ = ()

    def __new__(cls, dims: Any = ()) -> "TensorShape":
        if isinstance(dims, TensorShape):
            return dims
        if dims is None:
            return _UNKNOWN
        if isinstance(dims, (Tensor, np.ndarray)):
            dims = (dims._value if isinstance(dims, Tensor) else dims).tolist()
        if not hasattr(dims, "__iter__"):
            dims = (dims,)
        return tuple.__new__(TensorShape, [_dim(d) for d in dims])

    @property
    def rank(self) -> int | None:
        """The number of dimensions (``None`` when unknown)."""
        return len(self)

    @property
    def ndims(self) -> int | None:
        """The number of dimensions (TensorFlow's older name for :attr:`rank`)."""
        return len(self)

    @property
    def dims(self) -> list | None:
        """The dimensions as a list (``None`` when the rank is unknown)."""
        return list(self)

    def as_list(self) -> list:
        """The dimensions as a list of ints and ``None``; ``ValueError`` when the rank is unknown."""
        return list(self)

    def num_elements(self) -> int | None:
        """The number of elements, or ``None`` when some dimension is unknown."""
        if None in self:
            return None
        return int(np.prod(self, dtype=np.int64))

    def is_fully_defined(self) -> builtins.bool:
        """Whether the rank and every dimension are known (always so for a Tensor's shape)."""
        return None not in self

    def assert_is_fully_defined(self) -> None:
        """Raise ``ValueError`` unless :meth:`is_fully_defined`."""
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def is_compatible_with(self, other: Any) -> builtins.bool:
        """Whether some fully known shape matches both (``None`` matches any dimension, an
        unknown rank any shape)."""
        other = TensorShape(other)
        if other is _UNKNOWN:
            return True
        if len(self) != len(other):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self, other))

    def assert_is_compatible_with(self, other: Any) -> None:
        """Raise ``ValueError`` unless :meth:`is_compatible_with` ``other``."""
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {TensorShape(other)} are incompatible")

    def merge_with(self, other: Any) -> "TensorShape":
        """The shape with what is known in either; ``ValueError`` if they are incompatible."""
        other = TensorShape(other)
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        if other is _UNKNOWN:
            return self
        return tuple.__new__(TensorShape, [b if a is None else a for a, b in zip(self, other)])

    def most_specific_compatible_shape(self, other: Any) -> "TensorShape":
        """The most specific shape compatible with both (unknown where they differ)."""
        other = TensorShape(other)
        if other is _UNKNOWN or len(self) != len(other):
            return _UNKNOWN
        return tuple.__new__(TensorShape, [a if a == b else None for a, b in zip(self, other)])

    def with_rank(self, rank: int) -> "TensorShape":
        """This shape, checked to have rank ``rank`` (an unknown rank becomes ``rank`` unknowns)."""
        if len(self) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")
        return self

    def assert_has_rank(self, rank: int) -> None:
        """Raise ``ValueError`` unless the rank is ``rank`` (or unknown)."""
        self.with_rank(rank)

    def __bool__(self) -> builtins.bool:
        return True  # (as TensorFlow: the rank is known, even for a scalar's shape)

    def __getitem__(self, key: Any) -> Any:  # type: ignore[override]
        r = tuple.__getitem__(self, key)
        return tuple.__new__(TensorShape, r) if isinstance(key, slice) else r

    def __eq__(self, other: Any) -> builtins.bool:
        if isinstance(other, (tuple, list)):
            return other is not _UNKNOWN and tuple(self) == tuple(other)
        return NotImplemented

    def __ne__(self, other: Any) -> builtins.bool:
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = tuple.__hash__

    def __add__(self, other: Any) -> "TensorShape":  # type: ignore[override]
        return self.concatenate(other)

    def __radd__(self, other: Any) -> "TensorShape":
        return TensorShape(other).concatenate(self)

    def concatenate(self, other: Any) -> "TensorShape":
        """The shape with the dimensions of ``other`` appended."""
        other = TensorShape(other)
        if other is _UNKNOWN:
            return _UNKNOWN
        return tuple.__new__(TensorShape, tuple(self) + tuple(other))

    def __repr__(self) -> str:
        return f"TensorShape({list(self)})"

    def __str__(self) -> str:
        return "(" + ", ".join(str(d) for d in self) + ("," if len(self) == 1 else "") + ")"


class _UnknownRank(TensorShape):
    """``TensorShape(None)``: the shape of unknown rank (one instance)."""

    __slots__ = ()

    @property
    def rank(self) -> None:
        return None

    ndims = rank

    @property
    def dims(self) -> None:
        return None

    def __len__(self) -> int:
        raise ValueError("Cannot take the length of a shape with unknown rank.")

    def __iter__(self) -> Iterator:
        raise ValueError("Cannot iterate over a shape with unknown rank.")

    def __bool__(self) -> builtins.bool:
        return False

    def as_list(self) -> list:
        raise ValueError("as_list() is not defined on an unknown TensorShape.")

    def num_elements(self) -> None:
        return None

    def is_fully_defined(self) -> builtins.bool:
        return False

    def is_compatible_with(self, other: Any) -> builtins.bool:
        TensorShape(other)  # (checks it is a shape)
        return True

    def merge_with(self, other: Any) -> TensorShape:
        return TensorShape(other)

    def most_specific_compatible_shape(self, other: Any) -> TensorShape:
        TensorShape(other)
        return self

    def with_rank(self, rank: int) -> TensorShape:
        return tuple.__new__(TensorShape, (None,) * rank)

    def __getitem__(self, key: Any) -> Any:
        return self if isinstance(key, slice) else None

    def __eq__(self, other: Any) -> builtins.bool:
        return other is None or other is self

    def __ne__(self, other: Any) -> builtins.bool:
        return not self.__eq__(other)

    __hash__ = tuple.__hash__

    def concatenate(self, other: Any) -> TensorShape:
        TensorShape(other)
        return self

    def __radd__(self, other: Any) -> TensorShape:
        TensorShape(other)
        return self

    def __reduce__(self) -> Any:
        return (TensorShape, (None,))

    def __repr__(self) -> str:
        return "TensorShape(None)"

    def __str__(self) -> str:
        return "<unknown>"


_UNKNOWN = tuple.__new__(_UnknownRank)


# --------------------------------------------------------------------------- tensors
class Tensor:
    """An immutable n-dimensional array that GradientTapes can follow.

    Create tensors with :func:`tapegrad.constant` or :func:`tapegrad.convert_to_tensor`; ops
    return them. ``numpy()`` gives the value as a NumPy array (a read-only view)::

        >>> import tapegrad as tf
        >>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        >>> x.shape, x.dtype
        (TensorShape([2, 2]), tf.float32)
        >>> (x @ x)[0].numpy()
        array([ 7., 10.], dtype=float32)
    """

    __slots__ = ("_value", "_id", "__weakref__")
    __array_priority__ = 100

    # The hottest operators call the dispatcher directly; ops/__init__.py installs the others.
    def __add__(self, other: Any) -> Any:
        return binary(_ADD, self, other)

    def __radd__(self, other: Any) -> Any:
        return binary(_ADD, other, self)

    def __sub__(self, other: Any) -> Any:
        return binary(_SUB, self, other)

    def __rsub__(self, other: Any) -> Any:
        return binary(_SUB, other, self)

    def __mul__(self, other: Any) -> Any:
        return binary(_MUL, self, other)

    def __rmul__(self, other: Any) -> Any:
        return binary(_MUL, other, self)

    if TYPE_CHECKING:  # installed by ops/__init__.py; declared here for type checkers
        def __truediv__(self, other: Any) -> Tensor: ...
        def __rtruediv__(self, other: Any) -> Tensor: ...
        def __floordiv__(self, other: Any) -> Tensor: ...
        def __rfloordiv__(self, other: Any) -> Tensor: ...
        def __mod__(self, other: Any) -> Tensor: ...
        def __rmod__(self, other: Any) -> Tensor: ...
        def __pow__(self, other: Any) -> Tensor: ...
        def __rpow__(self, other: Any) -> Tensor: ...
        def __matmul__(self, other: Any) -> Tensor: ...
        def __rmatmul__(self, other: Any) -> Tensor: ...
        def __neg__(self) -> Tensor: ...
        def __pos__(self) -> Tensor: ...
        def __getitem__(self, key: Any) -> Tensor: ...
        def __abs__(self) -> Tensor: ...
        def __invert__(self) -> Tensor: ...
        def __and__(self, other: Any) -> Tensor: ...
        def __rand__(self, other: Any) -> Tensor: ...
        def __or__(self, other: Any) -> Tensor: ...
        def __ror__(self, other: Any) -> Tensor: ...
        def __xor__(self, other: Any) -> Tensor: ...
        def __rxor__(self, other: Any) -> Tensor: ...
        def __lt__(self, other: Any) -> Tensor: ...
        def __le__(self, other: Any) -> Tensor: ...
        def __gt__(self, other: Any) -> Tensor: ...
        def __ge__(self, other: Any) -> Tensor: ...
        def __eq__(self, other: object) -> Any: ...
        def __ne__(self, other: object) -> Any: ...

    def __init__(self, value: Any, dtype: Any = None) -> None:
        t = convert_to_tensor(value, dtype=dtype)
        self._value = t._value
        self._id = _next_id()

    # -- description
    @property
    def shape(self) -> TensorShape:
        """The shape, a :class:`TensorShape`."""
        return tuple.__new__(TensorShape, self._value.shape)  # (known ints: no checks needed)

    def get_shape(self) -> TensorShape:
        """The shape, a :class:`TensorShape` (same as :attr:`shape`)."""
        return self.shape

    @property
    def dtype(self) -> _dt.DType:
        """The :class:`~tapegrad.DType` of the elements."""
        return _dt._from_np(self._value.dtype)

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return self._value.ndim

    @property
    def device(self) -> str:
        """Always the local CPU (tapegrad runs on NumPy)."""
        return "/job:localhost/replica:0/task:0/device:CPU:0"

    @property
    def name(self) -> str:
        """Not defined for eager tensors: raises ``AttributeError``, as TensorFlow does."""
        raise AttributeError("Tensor.name is undefined when eager execution is enabled.")

    def numpy(self) -> Any:
        """The value as a NumPy array (read-only), or a NumPy scalar for a 0-d tensor."""
        if _active:
            _note_escape(self, "numpy")
        v = self._value
        if type(v) is np.ndarray:
            if v.ndim == 0:
                return v[()]
            if v.flags.writeable:
                v = v.view()
                v.flags.writeable = False
        return v

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        _arrays_read()  # lets _infer_py see that a list held a tensor
        _note_escape(self, "__array__")
        v = np.asarray(self._value)
        if dtype is not None and v.dtype != dtype:
            return v.astype(dtype)
        if copy:
            return v.copy()
        if v.flags.writeable:  # tensors are immutable: np.asarray(t)[0] = 1 must not change t
            v = v.view()
            v.flags.writeable = False
        return v

    # TensorFlow's text, with the class named as it is: tapegrad.Tensor (see docs/differences.md)
    def __repr__(self) -> str:
        return (f"<tapegrad.Tensor: shape={self.shape}, dtype={self.dtype.name}, "
                f"numpy={_numpy_text(self._value, True)}>")

    def __str__(self) -> str:
        return (f"tapegrad.Tensor({_numpy_text(self._value, False)}, shape={self.shape}, "
                f"dtype={self.dtype.name})")

    def __format__(self, spec: str) -> str:
        v = np.asarray(self._value)
        return format(v[()] if v.ndim == 0 else v, spec)

    # -- Python protocol
    def __len__(self) -> int:
        if not self._value.ndim:
            raise TypeError("len() of a 0-d (scalar) tensor is undefined.")
        return self._value.shape[0]

    def __iter__(self) -> Iterator["Tensor"]:
        if not self._value.ndim:
            raise TypeError("Cannot iterate over a scalar tensor.")
        from .ops.array import unstack
        return iter(unstack(self))

    def __bool__(self) -> bool:
        if self._value.size != 1 or self._value.ndim:
            raise ValueError(
                f"The truth value of a tensor of shape {self.shape} is ambiguous; use "
                "tf.reduce_any or tf.reduce_all, or compare a scalar.")
        _note_escape(self, "__bool__")
        return builtins.bool(self._value)

    def __float__(self) -> float:
        _note_escape(self, "__float__")
        return float(self._value)

    def __int__(self) -> int:
        _note_escape(self, "__int__")
        return int(self._value)

    def __index__(self) -> int:
        if self._value.dtype.kind not in "iu" or self._value.ndim:
            raise TypeError(f"Only scalar integer tensors can be used as an index; got shape "
                            f"{self.shape} and dtype {self.dtype.name}.")
        return int(self._value)

    def __complex__(self) -> complex:
        return complex(self._value)

    def __hash__(self) -> int:
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def ref(self) -> "_Ref":
        """A hashable reference to this tensor (for use as a dict key or set member)."""
        return _Ref(self)

    experimental_ref = ref

    def __copy__(self) -> "Tensor":
        return self

    def __deepcopy__(self, memo: Any) -> "Tensor":
        return self

    def __reduce__(self) -> Any:
        return (convert_to_tensor, (np.asarray(self._value),))


class _Ref:
    __slots__ = ("_t",)

    def __init__(self, t: Any) -> None:
        self._t = t

    def deref(self) -> Any:
        return self._t

    def __hash__(self) -> int:
        return id(self._t)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, _Ref) and other._t is self._t


def _wrap(v: Any) -> Tensor:
    t = Tensor.__new__(Tensor)  # no __init__: the dispatchers make tensors this way too
    t._value = v
    t._id = _next_id()
    return t


def _numpy_text(v: Any, is_repr: builtins.bool) -> str:
    """The value as TensorFlow prints it: a 0-d value as a Python scalar in repr (``2.5``, not
    ``np.float32(2.5)``), and text of several lines starting on a line of its own."""
    v = np.asarray(v)
    text = (repr(v.item()) if v.ndim == 0 else np.array_repr(v)) if is_repr else np.array_str(v)
    return "\n" + text if "\n" in text else text


def _note_escape(t: Tensor, how: str) -> None:
    """A tracked tensor left the library (hook for the None-gradient diagnosis)."""
    if _active:
        for rec in _tls.stack:
            h = getattr(rec, "_on_escape", None)
            if h is not None:
                h(t, how)


# --------------------------------------------------------------------------- conversion
_PY_SCALARS = (float, int, builtins.bool, complex)


class _HoldsTensor(Exception):
    """Raised by :func:`_infer_py` when NumPy read a Tensor or Variable inside the list: the list
    is packed on the tape instead (:func:`_autopack`). Spotting it by the tick that
    ``Tensor.__array__`` gives costs a plain list of numbers two C calls; a scan of the list
    would cost as much as ``np.array`` itself."""


def _infer_py(value: Any, spot: builtins.bool = True) -> np.ndarray:
    """Python scalars and nested lists: floats -> float32, ints -> int32 (int64 if needed).

    With ``spot``, raises :class:`_HoldsTensor` if NumPy read a tensor's value meanwhile (one
    inside ``value``, or, rarely, one in another thread: then the caller finds none). Only a
    list or tuple can hold a tensor: a scalar is never spotted (another thread's tick would
    send it to :func:`_autopack`)."""
    spot = spot and isinstance(value, (list, tuple))
    n = _arrays_read()
    try:
        arr = np.array(value)
    except ValueError as e:
        if spot and _arrays_read() != n + 1:
            raise _HoldsTensor from None
        raise ValueError(f"Cannot convert {value!r} to a tensor: {e} (are the nested lists ragged?)") from None
    if spot and _arrays_read() != n + 1:
        raise _HoldsTensor
    k = arr.dtype.kind
    if k == "f":
        return arr.astype(np.float32)
    if k == "i":
        if arr.size and (arr.max() > 2**31 - 1 or arr.min() < -2**31):
            return arr.astype(np.int64)
        return arr.astype(np.int32)
    if k in "bc":
        return arr
    raise TypeError(f"Cannot convert {value!r} to a tensor: elements of type "
                    f"{type(arr.flat[0]).__name__ if arr.size else 'object'} are not numbers.")


def _first_dtype(seq: Any) -> Any:
    for e in seq:
        if isinstance(e, (Tensor, Variable)):
            return e.dtype._np
        if isinstance(e, (list, tuple)):
            d = _first_dtype(e)
            if d is not None:
                return d
    return None


def _autopack(value: Any, want: Any, hint: Any) -> Tensor | None:
    """TF's autopacking: a (nested) list or tuple holding tensors becomes recorded ``tf.stack``
    calls on its items, so gradients flow through it. The first tensor fixes the dtype; Python
    and NumPy items convert to it. A requested ``want`` casts the tensors (differentiably); a
    ``hint`` is used where that cast is allowed. ``None`` if there is no tensor after all."""
    dt = _first_dtype(value)
    if dt is None:
        return None
    if want is None and hint is not None and _implicit_ok(dt, _dt.as_dtype(hint)._np):
        want = _dt.as_dtype(hint)._np
    return _pack_level(value, dt if want is None else want, want is not None and want != dt)


def _implicit_ok(src: np.dtype, dst: np.dtype) -> builtins.bool:
    """Whether values of ``src`` convert to ``dst`` without an explicit cast (no float -> int)."""
    a, b = src.kind, dst.kind
    return a == b or (a in "iub" and b in "iufc") or (a == "f" and b == "c")


def _pack_level(seq: Any, dt: np.dtype, cast: builtins.bool) -> Tensor | None:
    parts: list = []
    direct = []  # indices of the tensors given as items of this level
    has = False
    for e in seq:
        if isinstance(e, (Tensor, Variable)):
            e = convert_to_tensor(e)  # a Variable's read is recorded (and watched) here
            if cast and e._value.dtype != dt:
                if not _implicit_ok(e._value.dtype, dt):
                    raise TypeError(f"Cannot convert a list holding a {e.dtype.name} tensor to "
                                    f"{_dt._from_np(dt).name}: cast the tensor with tf.cast first.")
                e = _CAST(e, _dt._from_np(dt))
            direct.append(len(parts))
            has = True
        elif isinstance(e, (list, tuple)):
            p = _pack_level(e, dt, cast)
            if p is not None:
                e, has = p, True
        parts.append(e)
    if not has:
        return None
    if len(direct) < len(parts):  # TF checks dtypes here; a level of only tensors goes to Pack
        for i, e in enumerate(parts):
            if type(e) is not Tensor:
                parts[i] = convert_to_tensor(e, dtype=_dt._from_np(dt))
            elif i in direct and e._value.dtype != dt:
                raise TypeError(f"Cannot convert a list holding a {e.dtype.name} tensor to "
                                f"{_dt._from_np(dt).name} (the dtype of the first tensor in the "
                                f"list): cast it with tf.cast first.")
    return _PACK(parts)


def _cast_checked(arr: np.ndarray, dt: np.dtype, value: Any) -> np.ndarray:
    if arr.dtype == dt:
        return arr
    src, dst = arr.dtype.kind, dt.kind
    ok = (src == dst or (src in "iub" and dst in "iufc") or (src == "f" and dst in "fc")
          or (src == "b" and dst == "b"))
    if not ok:
        raise TypeError(f"Cannot convert {value!r} to a tensor of dtype {_dt._from_np(dt).name}: "
                        f"the value has kind {arr.dtype.name}. Cast explicitly with tf.cast.")
    if src in "iu" and dst in "iu":
        info = np.iinfo(dt)
        if arr.size and (arr.max() > info.max or arr.min() < info.min):
            raise TypeError(f"Cannot convert {value!r} to a tensor of dtype "
                            f"{_dt._from_np(dt).name}: the value is out of range.")
    return arr.astype(dt)


def convert_to_tensor(value: Any, dtype: Any = None, dtype_hint: Any = None, name: Any = None) -> Tensor:
    """Convert ``value`` (a Tensor, Variable, NumPy array, Python scalar or nested list) to a Tensor.

    Python floats become float32 and ints int32, as in TensorFlow; NumPy arrays keep their dtype.
    ``dtype`` requests a dtype (a Tensor of another dtype is an error, as in TensorFlow; use
    :func:`tapegrad.cast`); ``dtype_hint`` is used only when ``value`` has no dtype of its own.
    A (nested) list or tuple that holds tensors or Variables is packed with ``tf.stack`` on the
    tape, so gradients flow through it (TensorFlow's autopacking); the first tensor in it fixes
    the dtype.

    >>> import tapegrad as tf, numpy as np
    >>> tf.convert_to_tensor(1.5).dtype, tf.convert_to_tensor(np.arange(3)).dtype
    (tf.float32, tf.int64)
    """
    t = type(value)
    if t is Tensor:
        if dtype is not None and _dt.as_dtype(dtype)._np != value._value.dtype:
            raise ValueError(f"Tensor conversion requested dtype {_dt.as_dtype(dtype).name} for "
                             f"Tensor with dtype {value.dtype.name}. Use tf.cast to change the dtype.")
        return value
    if isinstance(value, Variable):
        r = value._read()
        if dtype is not None and _dt.as_dtype(dtype)._np != r._value.dtype:
            raise ValueError(f"Tensor conversion requested dtype {_dt.as_dtype(dtype).name} for "
                             f"Variable with dtype {value.dtype.name}. Use tf.cast to change the dtype.")
        return r
    if isinstance(value, Tensor):
        return value
    if isinstance(value, IndexedSlices):
        return value._dense(dtype)
    want = None if dtype is None else _dt.as_dtype(dtype)._np
    if isinstance(value, (np.ndarray, np.generic)):
        if value.dtype.kind in "OUSV":
            raise TypeError(f"Cannot convert a NumPy array of dtype {value.dtype} to a tensor: "
                            "tapegrad tensors hold numbers and bools only.")
        arr = np.array(value, copy=True) if isinstance(value, np.ndarray) else np.asarray(value)
        if want is not None and arr.dtype != want:
            arr = _cast_checked(arr, want, value)
        if arr.flags.writeable:
            arr.flags.writeable = False
        return _wrap(arr)
    if value is None:
        raise TypeError("Cannot convert None to a tensor.")
    if hasattr(value, "__tf_tensor__"):
        return convert_to_tensor(value.__tf_tensor__(), dtype)
    try:
        arr = _infer_py(value)
    except _HoldsTensor:
        packed = _autopack(value, want, dtype_hint)
        if packed is not None:
            return packed
        arr = _infer_py(value, False)  # no tensor inside after all
    if want is None and dtype_hint is not None and t in (float, int, list, tuple):
        hint = _dt.as_dtype(dtype_hint)._np
        if arr.dtype.kind in "iuf" and hint.kind in "fc" or arr.dtype.kind == hint.kind or not arr.size:
            want = hint
    if want is not None:
        if not arr.size and t in (list, tuple):
            return _wrap(arr.astype(want))   # no values to convert: any dtype (TF: shape [0], int32)
        if t is float and want.kind in "iub" or t in (list, tuple) and arr.dtype.kind == "f" and want.kind in "iub":
            raise TypeError(f"Cannot convert {value!r} to a tensor of dtype {_dt._from_np(want).name}: "
                            "a float does not convert to an integer or bool type implicitly.")
        if want.kind in "fc" and (arr.dtype.kind == "f" or arr.dtype.kind == want.kind):
            arr = np.array(value, dtype=want)   # straight from the Python values: no float32 rounding
        else:
            arr = _cast_checked(arr, want, value)
    return _wrap(arr)


def constant(value: Any, dtype: Any = None, shape: Any = None, name: Any = None) -> Tensor:
    """A constant tensor from a Python or NumPy value (``shape`` broadcasts or fills).

    >>> import tapegrad as tf
    >>> tf.constant(0.5, shape=[2, 2]).numpy()
    array([[0.5, 0.5],
           [0.5, 0.5]], dtype=float32)
    """
    if isinstance(value, (Tensor, Variable)):
        t = convert_to_tensor(value)  # the tensor itself, as in TF (gradients flow through it)
        if dtype is not None and _dt.as_dtype(dtype) != t.dtype:
            t = _wrap(t._value.astype(_dt.as_dtype(dtype)._np))
    else:
        if dtype is not None and isinstance(value, (np.ndarray, np.generic)):
            value = np.asarray(value)
            want = _dt.as_dtype(dtype)._np
            if value.dtype != want:
                value = value.astype(want)
        t = convert_to_tensor(value, dtype=dtype)
    if shape is not None:
        shape = tuple(int(s) for s in shape)
        v = t._value
        if v.size == int(np.prod(shape)):
            v = v.reshape(shape)
        elif v.size == 1:
            v = np.broadcast_to(v.reshape(()), shape).copy()
        else:
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {value!r} "
                            f"(converted from {value!r}) has {v.size} elements, but got `shape` "
                            f"{shape} with {int(np.prod(shape))} elements).")
        v.flags.writeable = False
        t = _wrap(v)
    return t


# --------------------------------------------------------------------------- variables
_var_uid = itertools.count().__next__


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
    return int(k._value) if isinstance(k, Tensor) else k


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


class Variable:
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

    if TYPE_CHECKING:  # installed by ops/__init__.py; declared here for type checkers
        def __add__(self, other: Any) -> Tensor: ...
        def __radd__(self, other: Any) -> Tensor: ...
        def __sub__(self, other: Any) -> Tensor: ...
        def __rsub__(self, other: Any) -> Tensor: ...
        def __mul__(self, other: Any) -> Tensor: ...
        def __rmul__(self, other: Any) -> Tensor: ...
        def __truediv__(self, other: Any) -> Tensor: ...
        def __rtruediv__(self, other: Any) -> Tensor: ...
        def __floordiv__(self, other: Any) -> Tensor: ...
        def __rfloordiv__(self, other: Any) -> Tensor: ...
        def __mod__(self, other: Any) -> Tensor: ...
        def __rmod__(self, other: Any) -> Tensor: ...
        def __pow__(self, other: Any) -> Tensor: ...
        def __rpow__(self, other: Any) -> Tensor: ...
        def __matmul__(self, other: Any) -> Tensor: ...
        def __rmatmul__(self, other: Any) -> Tensor: ...
        def __neg__(self) -> Tensor: ...
        def __pos__(self) -> Tensor: ...
        def __abs__(self) -> Tensor: ...
        def __invert__(self) -> Tensor: ...
        def __and__(self, other: Any) -> Tensor: ...
        def __rand__(self, other: Any) -> Tensor: ...
        def __or__(self, other: Any) -> Tensor: ...
        def __ror__(self, other: Any) -> Tensor: ...
        def __xor__(self, other: Any) -> Tensor: ...
        def __rxor__(self, other: Any) -> Tensor: ...
        def __lt__(self, other: Any) -> Tensor: ...
        def __le__(self, other: Any) -> Tensor: ...
        def __gt__(self, other: Any) -> Tensor: ...
        def __ge__(self, other: Any) -> Tensor: ...
        def __eq__(self, other: object) -> Any: ...
        def __ne__(self, other: object) -> Any: ...

    def __init__(self, initial_value: Any = None, trainable: builtins.bool | None = None,
                 validate_shape: builtins.bool = True, caching_device: str | None = None,
                 name: str | None = None, variable_def: Any = None, dtype: Any = None,
                 import_scope: str | None = None, constraint: Callable | None = None,
                 synchronization: VariableSynchronization = VariableSynchronization.AUTO,
                 aggregation: VariableAggregation | None = VariableAggregation.NONE,
                 shape: Any = None, experimental_enable_variable_lifting: builtins.bool = True) -> None:
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
        declared = None
        if shape is not None:
            declared = TensorShape(shape)
            if not declared.is_compatible_with(t._value.shape):
                raise ValueError(f"In this `tf.Variable` creation, the initial value's shape ({t.shape}) "
                                 f"is not compatible with the explicitly supplied `shape` argument "
                                 f"({declared}).")
            if declared.is_fully_defined():
                declared = None  # the value's own shape
        self._id = _next_id()
        self._uid = _var_uid()
        self._trainable = builtins.bool(trainable)
        self._name = (name or "Variable") + ":0"
        self._shape = declared  # None: the shape of the initial value, fixed
        self._constraint = constraint
        self._synchronization, self._aggregation = synchronization, aggregation
        self._lock = threading.Lock()  # held by every read-modify-write of the value
        self._set(t._value)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        del state["_lock"]
        return state

    def __setstate__(self, state: dict) -> None:
        # copy, deepcopy and pickle: a new variable (own id, lock and snapshot) with this value
        self.__dict__.update(state)
        self._id = _next_id()
        self._uid = _var_uid()
        self._lock = threading.Lock()
        self._set(state["_snap"]._value, fresh=True)  # (arrays held by variables are never written)

    def _set(self, v: np.ndarray, fresh: builtins.bool = False) -> None:
        # Every update makes a new array: readers keep the array they were given, unchanged.
        # ``fresh``: ``v`` was just made for this variable and nobody else holds it (no copy)
        v = np.asarray(v) if fresh else np.array(v, copy=True)
        v.flags.writeable = False
        snap = Tensor.__new__(Tensor)
        snap._value = v
        snap._id = self._id  # every read shares the variable's id: gradients sum over reads
        self._snap = snap

    def _read(self) -> Tensor:
        if _active:
            stack = _tls.stack
            for rec in stack:
                rec._on_variable_read(self)
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
    def device(self) -> str:
        """Always the local CPU (tapegrad runs on NumPy)."""
        return "/job:localhost/replica:0/task:0/device:CPU:0"

    def numpy(self) -> Any:
        """A copy of the current value as a NumPy array (a NumPy scalar for a 0-d variable)."""
        if _active:
            _note_escape(self._snap, "numpy")
        v = self._snap._value
        return v[()] if v.ndim == 0 else v.copy()

    def read_value(self) -> Tensor:
        """The current value as a Tensor (recorded as a read of this variable)."""
        return self._read()

    def value(self) -> Tensor:
        """The current value as a Tensor (same as :meth:`read_value`)."""
        return self._read()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        _arrays_read()  # lets _infer_py see that a list held a tensor
        _note_escape(self._snap, "__array__")
        v = np.array(self._snap._value, copy=True)
        return v if dtype is None else v.astype(dtype)

    # -- assignment
    def _coerce(self, value: Any, what: str) -> tuple[np.ndarray, builtins.bool]:
        """``value`` as an array of the variable's dtype, and whether it is a new array."""
        dt = self._snap._value.dtype
        if isinstance(value, (Tensor, Variable)):
            arr = convert_to_tensor(value)._value
            if arr.dtype != dt:
                raise ValueError(
                    f"{what}: cannot use a value of dtype {_dt._from_np(arr.dtype).name} for variable "
                    f"'{self._name}' of dtype {self.dtype.name}. Cast it first with tf.cast.")
            return arr, False
        return convert_to_tensor(value, dtype=dt)._value, not hasattr(value, "__tf_tensor__")

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
            self._set(_call(ufunc, old, arr), fresh=True)  # (_framed: NumPy's warnings stay silenced)
        self._on_assign()

    def assign(self, value: Any, use_locking: Any = None, name: Any = None, read_value: builtins.bool = True) -> Any:
        """Set the value; returns the variable (``None`` if not ``read_value``).

        ``value`` must have the variable's shape (or one compatible with a declared partial
        shape): it is not broadcast."""
        arr, fresh = self._coerce(value, "assign")
        with self._lock:
            shape = self._shape
            if arr.shape != self._snap._value.shape and (shape is None or not shape.is_compatible_with(arr.shape)):
                raise ValueError(
                    f"Cannot assign a value of shape {tuple.__new__(TensorShape, arr.shape)} to variable "
                    f"'{self._name}' of shape {self.shape}: the shapes are incompatible (assign does not "
                    f"broadcast; tf.fill or tf.broadcast_to make a value of the variable's shape).")
            self._set(arr, fresh)
        self._on_assign()
        return self if read_value else None

    def assign_add(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: builtins.bool = True) -> Any:
        """Add ``delta`` (of the variable's shape) to the value; returns the variable (``None`` if
        not ``read_value``)."""
        self._update(np.add, delta, "assign_add")
        return self if read_value else None

    def assign_sub(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: builtins.bool = True) -> Any:
        """Subtract ``delta`` (of the variable's shape) from the value; returns the variable
        (``None`` if not ``read_value``)."""
        self._update(np.subtract, delta, "assign_sub")
        return self if read_value else None

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
            _call(write, new, idx, upd)
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
            _call(write, new, tuple(flat.T), upd.reshape((-1,) + old.shape[k:]))
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

    def _on_assign(self) -> None:
        if _active:
            for rec in _tls.stack:
                h = getattr(rec, "_on_variable_assign", None)
                if h is not None:
                    h(self)

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
                f"numpy={_numpy_text(self._snap._value, True)}>")

    def __hash__(self) -> int:
        return object.__hash__(self)

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
        s = _VariableSlice.__new__(_VariableSlice)
        s._value, s._id = t._value, t._id
        s._var, s._key = self, _static_key(key)
        return s


class _VariableSlice(Tensor):
    """``variable[key]``: the Tensor of that slice, which can also write the slice (TensorFlow's
    strided-slice assign). The tensor keeps the value it was read with."""

    __slots__ = ("_var", "_key")

    def assign(self, value: Any, name: Any = None) -> Variable:
        """Write ``value`` (broadcast to the slice's shape) into this slice of the variable, as
        one atomic update; returns the variable. Not differentiable through ``value``."""
        return self._var._assign_slice(self._key, value)


# --------------------------------------------------------------------------- IndexedSlices
class IndexedSlices:
    """A sparse gradient: rows ``indices`` (along axis 0) of a dense tensor of ``dense_shape``.

    Duplicate indices add. ``tf.gather`` returns its gradient in this form, as TensorFlow does;
    ``tf.convert_to_tensor`` (or any op) densifies it.

    >>> import tapegrad as tf
    >>> s = tf.IndexedSlices(tf.constant([[1.0], [2.0]]), tf.constant([0, 0]), tf.constant([3, 1]))
    >>> tf.convert_to_tensor(s).numpy().ravel()
    array([3., 0., 0.], dtype=float32)
    """

    __array_priority__ = 100

    def __init__(self, values: Any, indices: Any, dense_shape: Any = None) -> None:
        self.values = convert_to_tensor(values)
        self.indices = convert_to_tensor(indices)
        self.dense_shape = None if dense_shape is None else convert_to_tensor(dense_shape)

    @property
    def dtype(self) -> _dt.DType:
        """The dtype of :attr:`values`."""
        return self.values.dtype

    @property
    def shape(self) -> TensorShape:
        """The dense shape (of unknown rank, ``TensorShape(None)``, without ``dense_shape``)."""
        if self.dense_shape is None:
            return TensorShape(None)
        return TensorShape(self.dense_shape._value.tolist())

    def _dense(self, dtype: Any = None) -> Tensor:
        if self.dense_shape is None:
            raise ValueError("Cannot densify an IndexedSlices without dense_shape.")
        from .ops.segment import unsorted_segment_sum
        t = unsorted_segment_sum(self.values, self.indices, int(self.dense_shape._value[0]))
        if dtype is not None and _dt.as_dtype(dtype) != t.dtype:
            raise ValueError(f"Tensor conversion requested dtype {_dt.as_dtype(dtype).name} for "
                             f"IndexedSlices with dtype {t.dtype.name}.")
        return t

    def numpy(self) -> np.ndarray:
        """The dense value as a NumPy array."""
        return self._dense().numpy()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        v = np.array(self._dense()._value)
        return v if dtype is None else v.astype(dtype)

    def __neg__(self) -> "IndexedSlices":
        return IndexedSlices(-self.values, self.indices, self.dense_shape)

    def __repr__(self) -> str:
        return (f"IndexedSlices(indices={self.indices!r}, values={self.values!r}, "
                f"dense_shape={self.dense_shape!r})")


# --------------------------------------------------------------------------- op declarations
class Op:
    """A primitive: NumPy forward plus differentiation rules. Built by :func:`defop`."""

    __slots__ = ("name", "fwd", "bwd", "jvp", "nout", "bcast", "diff", "batch_ok", "ufunc", "__dict__")

    def __repr__(self) -> str:
        return f"<op {self.name}>"


def _probe() -> None:
    pass


# False in the compiled build, whose functions have no Python frames: op forwards then run through
# _framed, so that NumPy's floating-point warnings stay silenced (see tapegrad/_framed.py).
_FRAMES = type(_probe) is type(_call)
REGISTRY: dict[str, Op] = {}
_ADD: Any = None  # AddV2, Sub and Mul, set by ops/math_ops.py (Tensor's operators; deriv rules
_SUB: Any = None  # multiply by Mul)
_MUL: Any = None
_PACK: Any = None  # tf.stack and tf.cast, set by ops/array_ops.py and ops/math_ops.py: a list
_CAST: Any = None  # holding tensors converts through them (_autopack)


def _conj_if_complex(d: Any, ref: Tensor) -> Any:
    if ref._value.dtype.kind == "c":
        from .ops.math import conj
        return conj(d)
    return d


def defop(name: str, fwd: Callable, *, deriv: Any = None, vjp: Any = None, jvp: Any = None,
          nout: int = 1, broadcast: builtins.bool = False, nondiff: builtins.bool = False,
          batch_ok: builtins.bool = True) -> Op:
    """Declare a primitive.

    name: unique op name (TensorFlow's op name where there is one).
    fwd(*arrays, **params): the NumPy forward, returning an array or a tuple of ``nout`` arrays.
    deriv: for elementwise ops, one function per input ``d(ans, *xs, **params) -> ∂y/∂x_i``
        (``None`` for a non-differentiable input). Gives the VJP ``g * conj(d)`` and the JVP
        ``Σ t_i * d_i``.
    vjp: either one rule per input, ``rule(g, ans, *xs, **params) -> cotangent`` (``None`` for a
        non-differentiable input), or one function ``rule(g, ans, needs, *xs, **params)``
        returning a cotangent for each index in ``needs``.
    jvp: ``jvp(ts, ans, *xs, **params)`` with ``ts`` one tangent or ``None`` per input, or
        ``"linear"`` for ops linear in their differentiable inputs.
    broadcast: the engine sums cotangents back to each input's shape (NumPy broadcasting).
    nondiff: the op has no derivative (its outputs are constants for every tape); forward mode
        gives zero tangents for its floating outputs.
    batch_ok: the VJP rules accept cotangents with one extra leading (batch) axis; Jacobians
        loop over rows for ops that set this False.
    Rules are written with tapegrad ops, so tapes record them and higher derivatives work.
    """
    if name in REGISTRY:
        raise ValueError(f"op {name!r} is declared twice")
    op = Op()
    op.name, op.nout, op.bcast, op.batch_ok = name, nout, broadcast, batch_ok
    op.fwd = fwd if _FRAMES else _framed(fwd)
    op.ufunc = isinstance(fwd, np.ufunc)  # takes Python scalars as NumPy's weak scalars
    if nondiff:
        op.bwd = op.jvp = op.diff = None
    elif deriv is not None:
        ds = tuple(deriv)
        op.diff = tuple(d is not None for d in ds)

        if len(ds) == 1:
            d0 = ds[0]

            def bwd(g: Any, ans: Any, needs: Sequence[int], xs: Sequence[Tensor], p: dict) -> tuple:
                x = xs[0]
                d = d0(ans, x, **p) if p else d0(ans, x)
                if x._value.dtype.kind == "c":
                    d = _conj_if_complex(d, x)
                return (binary(_MUL, g, d),)
        elif len(ds) == 2:
            def bwd(g: Any, ans: Any, needs: Sequence[int], xs: Sequence[Tensor], p: dict) -> list:
                x, y = xs  # named, so the calls below build no argument tuple
                out = []
                for i in needs:
                    d = ds[i](ans, x, y, **p) if p else ds[i](ans, x, y)
                    if xs[i]._value.dtype.kind == "c":
                        d = _conj_if_complex(d, xs[i])
                    out.append(binary(_MUL, g, d))
                return out
        else:
            def bwd(g: Any, ans: Any, needs: Sequence[int], xs: Sequence[Tensor], p: dict) -> list:
                out = []
                for i in needs:
                    d = ds[i](ans, *xs, **p) if p else ds[i](ans, *xs)
                    if xs[i]._value.dtype.kind == "c":
                        d = _conj_if_complex(d, xs[i])
                    out.append(binary(_MUL, g, d))
                return out

        def jvp_el(ts: Sequence[Any], ans: Any, *xs: Tensor, **p: Any) -> Any:
            out = None
            for i, t in enumerate(ts):
                if t is not None and ds[i] is not None:
                    term = t * ds[i](ans, *xs, **p)
                    out = term if out is None else out + term
            return out

        op.bwd, op.jvp = bwd, (jvp if jvp is not None else jvp_el)
    elif callable(vjp):
        op.diff = None  # every input, the rule decides
        rule = vjp

        def bwd(g: Any, ans: Any, needs: Sequence[int], xs: Sequence[Tensor], p: dict) -> list:
            return list(rule(g, ans, needs, *xs, **p))

        op.bwd, op.jvp = bwd, jvp
    else:
        rules = tuple(vjp)
        op.diff = tuple(r is not None for r in rules)

        def bwd(g: Any, ans: Any, needs: Sequence[int], xs: Sequence[Tensor], p: dict) -> Any:
            if p:
                return [rules[i](g, ans, *xs, **p) for i in needs]
            if len(xs) == 2:  # the common case, calling without building an argument tuple
                x, y = xs
                if len(needs) == 1:
                    return (rules[needs[0]](g, ans, x, y),)
                return (rules[0](g, ans, x, y), rules[1](g, ans, x, y))  # needs is (0, 1)
            if len(needs) == 1:
                return (rules[needs[0]](g, ans, *xs),)
            return [rules[i](g, ans, *xs) for i in needs]

        op.bwd, op.jvp = bwd, jvp
    if op.jvp == "linear":
        op.jvp = _linear_jvp(op)
    REGISTRY[name] = op
    return op


def _linear_jvp(op: Op) -> Callable:
    diff = op.diff

    def jvp(ts: Sequence[Any], ans: Any, *xs: Tensor, **p: Any) -> Any:
        args = []
        for i, x in enumerate(xs):
            if diff is None or diff[i]:
                t = ts[i]
                args.append(t if t is not None else _wrap(np.zeros_like(x._value)))
            else:
                args.append(x)
        return apply(op, args, p)

    return jvp


def apply(op: Op, xs: Sequence[Tensor], p: dict = _EMPTY) -> Any:
    """Run ``op`` on tensors ``xs`` with static params ``p``; record it where a recorder wants it."""
    try:
        out = op.fwd(*[x._value for x in xs], **p)
    except (ValueError, IndexError, TypeError, ArithmeticError, MemoryError, np.linalg.LinAlgError) as e:
        raise _op_error(op, xs, e) from None
    if _active and (stack := _tls.stack):
        return _record(op, xs, p, out, stack)
    if op.nout == 1:
        t = Tensor.__new__(Tensor)
        t._value = out
        t._id = _next_id()
        return t
    return tuple([_wrap(o) for o in out])


def unary(op: Op, x: Any, kinds: str = "fc") -> Tensor:
    """Apply a one-input, one-output op without params: the hot path, kept flat.

    ``kinds`` are the accepted NumPy dtype kinds (``"fc"``: floating and complex)."""
    if type(x) is not Tensor:
        x = convert_to_tensor(x)
    v = x._value
    if v.dtype.kind not in kinds:
        _kind_error(op, x, kinds)
    try:
        out = op.fwd(v)
    except (ValueError, IndexError, TypeError, ArithmeticError, MemoryError, np.linalg.LinAlgError) as e:
        raise _op_error(op, (x,), e) from None
    t = Tensor.__new__(Tensor)
    t._value = out
    t._id = _next_id()
    if _active and (stack := _tls.stack):
        if len(stack) == 1 and op.bwd is not None:  # the common case, without _offer's frame
            stack[0]._record(op, (x,), _EMPTY, t, 0)
        else:
            _offer(op, (x,), _EMPTY, t, stack)
    return t


def binary(op: Op, x: Any, y: Any, kinds: str = "fciu") -> Tensor:
    """Apply a two-input op with TF's operand rules; the common cases stay on a short path.

    Tensor-Tensor of one dtype, and Tensor with a Python float/int for an op whose forward is a
    NumPy ufunc, run the forward directly (NumPy's weak Python scalars keep the tensor's dtype);
    a recorder needs the scalar as a tensor, so it is wrapped only then.
    """
    stack = _active and _tls.stack  # the recorders (falsy when none is active)
    if type(x) is Tensor:
        xv = x._value
        dx = xv.dtype
        kd = dx.kind
        ty = type(y)
        if ty is Tensor:
            yv = y._value
            if dx is not yv.dtype and dx != yv.dtype:
                raise _dtype_error(op.name, xv, yv)
        elif (ty is float or ty is int) and (kd == "f" or kd == "c"):
            if op.ufunc and not stack:
                if kd not in kinds:
                    _kind_error(op, x, kinds)
                try:
                    out = op.fwd(xv, y)
                except (ValueError, TypeError, ArithmeticError, MemoryError) as e:
                    raise _op_error(op, (x,), e) from None
                t = Tensor.__new__(Tensor)
                t._value = out
                t._id = _next_id()
                return t
            c = _SCALARS.get((y, ty, dx))  # the cached constant (_scalar_for), without a call
            y = c if c is not None else _scalar_for(y, dx, op.name)
            yv = y._value
        else:
            y = _operand(y, dx, op.name)
            yv = y._value
    else:
        x, y = binary_operands(x, y, op.name)
        xv, yv = x._value, y._value
        kd = xv.dtype.kind
    if kd not in kinds:
        _kind_error(op, x, kinds)
    try:
        out = op.fwd(xv, yv)
    except (ValueError, IndexError, TypeError, ArithmeticError, MemoryError) as e:
        raise _op_error(op, (x, y), e) from None
    t = Tensor.__new__(Tensor)
    t._value = out
    t._id = _next_id()
    if stack:
        if len(stack) == 1 and op.bwd is not None:  # as in unary
            stack[0]._record(op, (x, y), _EMPTY, t, 0)
        else:
            _offer(op, (x, y), _EMPTY, t, stack)
    return t


_KIND_NAMES = {"f": "floating", "c": "complex", "i": "signed integer", "u": "unsigned integer",
               "b": "bool"}


def _kind_error(op: Op, x: Tensor, kinds: str) -> None:
    raise InvalidArgumentError(
        None, None, f"{op.name} does not accept a {x.dtype.name} tensor (allowed: "
        f"{', '.join(_KIND_NAMES[k] for k in kinds)}). Cast it first, e.g. tf.cast(x, tf.float32).")


def _op_error(op: Op, xs: Sequence[Tensor], e: Exception) -> Exception:
    if isinstance(e, InvalidArgumentError):
        return e
    shapes = " vs. ".join(str(list(x._value.shape)) for x in xs)
    if isinstance(e, MemoryError):   # NumPy could not allocate the output: TF's OOM error type
        return ResourceExhaustedError(None, None, f"OOM: {e} (inputs of shapes {shapes}) [Op:{op.name}]")
    if "broadcast" in str(e):
        return InvalidArgumentError(None, None, f"Incompatible shapes: {shapes} [Op:{op.name}]")
    return InvalidArgumentError(None, None, f"{e} (inputs of shapes {shapes}) [Op:{op.name}]")


def _record(op: Op, xs: Sequence[Tensor], p: dict, out: Any, stack: list) -> Any:
    if op.nout == 1:
        ans = Tensor.__new__(Tensor)
        ans._value = out
        ans._id = _next_id()
    else:
        ans = tuple([_wrap(o) for o in out])
    if len(stack) == 1 and op.bwd is not None:  # one tape: no _offer frame (as in unary, binary)
        stack[0]._record(op, xs, p, ans, 0)
    else:
        _offer(op, xs, p, ans, stack)
    return ans


def _offer(op: Op, xs: Sequence[Tensor], p: dict, ans: Any, stack: list) -> None:
    """Offer an op's call to each recorder (a nondiff op only tells them it ran).

    Recorders get ``ans``, the output tensor, or the tuple of outputs of a multi-output op."""
    if op.bwd is None:
        outs = ans if type(ans) is tuple else (ans,)
        for rec in stack:
            rec._on_nondiff(op, xs, outs)
    else:
        for k in range(len(stack)):
            stack[k]._record(op, xs, p, ans, k)


def _run_hidden(k: int, fn: Callable, *args: Any) -> Any:
    """Run ``fn`` with only the recorders before position ``k`` visible in this thread."""
    st = _tls
    saved = st.stack
    st.stack = saved[:k]
    try:
        return fn(*args)
    finally:
        st.stack = saved


# --------------------------------------------------------------------------- operands
def _dtype_error(opname: str, a: Any, b: Any) -> InvalidArgumentError:
    da, db = _dt._from_np(a.dtype).name, _dt._from_np(b.dtype).name
    return InvalidArgumentError(
        None, None,
        f"{opname}: the two inputs have different dtypes, {da} and {db}. tapegrad, like "
        f"TensorFlow, does not promote dtypes between tensors: cast one with tf.cast(x, tf.{da}).")


_SCALARS: dict = {}


def _scalar_for(y: Any, npdt: np.dtype, opname: str) -> Tensor:
    """A constant tensor for a Python scalar operand (cached: constants are immutable)."""
    key = (y, type(y), npdt)
    t = _SCALARS.get(key)
    if t is not None:
        return t
    k = npdt.kind
    ty = type(y)
    if ty is float and k in "iub" or ty is complex and k != "c" or ty is int and k == "b":
        raise TypeError(f"{opname}: cannot convert {y!r} (Python {ty.__name__}) to the other "
                        f"operand's dtype {_dt._from_np(npdt).name}. Cast the tensor first.")
    try:
        v = npdt.type(y)
    except OverflowError:
        raise TypeError(f"{opname}: {y!r} is out of range for dtype {_dt._from_np(npdt).name}.") from None
    if k in "iu" and v != y:
        raise TypeError(f"{opname}: {y!r} is out of range for dtype {_dt._from_np(npdt).name}.")
    a = np.array(v)  # 0-d: ufuncs take an array operand faster than a NumPy scalar
    a.flags.writeable = False  # one array for every use of the constant
    t = Tensor.__new__(Tensor)
    t._value = a
    t._id = _next_id()
    if y == 0:  # -0.0 == 0.0 (one key): zeros are not cached, so each keeps its sign
        return t
    if len(_SCALARS) > 4096:
        _SCALARS.clear()
    _SCALARS[key] = t
    return t


def _operand(y: Any, npdt: np.dtype, opname: str) -> Tensor:
    """Convert the non-tensor side of a binary op to the tensor side's dtype (as TF does)."""
    ty = type(y)
    if ty in _PY_SCALARS:
        return _scalar_for(y, npdt, opname)
    if isinstance(y, Variable):
        y = y._read()
    if isinstance(y, Tensor):
        if y._value.dtype != npdt:
            raise _dtype_error(opname, np.empty(0, npdt), y._value)
        return y
    if isinstance(y, IndexedSlices):
        return _operand(y._dense(), npdt, opname)
    if isinstance(y, (np.ndarray, np.generic)):
        if y.dtype.kind in "OUSV":
            raise TypeError(f"{opname}: cannot use a NumPy array of dtype {y.dtype} as an operand.")
        return _wrap(_cast_checked(np.asarray(y), npdt, y) if y.dtype != npdt else np.asarray(y))
    return convert_to_tensor(y, dtype=_dt._from_np(npdt))


def binary_operands(x: Any, y: Any, opname: str) -> tuple[Tensor, Tensor]:
    """Two tensors of one dtype from ``x`` and ``y``; Python and NumPy values take the tensor's dtype."""
    if type(x) is Tensor:
        if type(y) is Tensor:
            a, b = x._value.dtype, y._value.dtype
            if a is not b and a != b:
                raise _dtype_error(opname, x._value, y._value)
            return x, y
        return x, _operand(y, x._value.dtype, opname)
    if type(y) is Tensor:
        return _operand(x, y._value.dtype, opname), y
    if isinstance(x, (Tensor, Variable)):
        x = convert_to_tensor(x)
        return x, _operand(y, x._value.dtype, opname)
    if isinstance(y, (Tensor, Variable)):
        y = convert_to_tensor(y)
        return _operand(x, y._value.dtype, opname), y
    x = convert_to_tensor(x)
    return x, _operand(y, x._value.dtype, opname)


def as_tensor(x: Any) -> Tensor:
    """Fast ``convert_to_tensor`` for op arguments."""
    if type(x) is Tensor:
        return x
    return convert_to_tensor(x)


def warn_once(key: str, msg: str) -> None:
    """Warn about ``key`` at the user's line; Python's default filter shows it once per call site
    (TensorFlow logs such warnings once per process)."""
    _warn_outside(msg)
