"""The data model: TensorShape, Tensor, IndexedSlices (and the mark of a Variable).

Tensors are immutable: ``_value`` is a read-only NumPy array (or NumPy scalar; an
``ArrayTensor`` of ``_backend`` holds another library's array, boxed) and ``_id`` a number unique
in the process, which tapes use to follow the tensor (every read of a Variable
shares the Variable's id, so gradients sum over reads). Nothing here knows about ops: the few
that the data model needs (iterating a tensor, densifying IndexedSlices, Tensor's operators)
are bound through :mod:`tapegrad._seam` by ``tapegrad/ops/__init__.py``.
"""
from __future__ import annotations

import builtins
import itertools
import operator
from typing import TYPE_CHECKING, Any, Iterator

import numpy as np

from . import _recorders as _rec, _seam, dtypes as _dt
from ._dimension import Dimension

next_id = itertools.count(1).__next__
arrays_read = itertools.count().__next__  # Tensor.__array__ and Variable.__array__ tick it


# --------------------------------------------------------------------------- shapes
def _dim(d: Any) -> Any:
    if d is None:
        return None
    if type(d) is Dimension:
        return d.value
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
            if isinstance(dims, Tensor):
                _rec.note_escape(dims, "TensorShape")
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
        """The dimensions as a list of ``tf.compat.v1.Dimension`` (``None`` when the rank is unknown),
        as in TensorFlow 2; :meth:`as_list` gives ints."""
        return [Dimension(d) for d in self]

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


class _Operators:
    """Python's operators on Tensor and Variable, installed by ``tapegrad/ops/__init__.py``;
    declared here for type checkers only (``__getitem__`` differs: each class declares its own)."""

    __slots__ = ()

    if TYPE_CHECKING:
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


class Tensor(_Operators):
    """An immutable n-dimensional array that GradientTapes can follow.

    Create tensors with :func:`tapegrad.constant` or :func:`tapegrad.convert_to_tensor`; ops
    return them (``tapegrad.Tensor(value)`` raises TypeError, as ``tf.Tensor(value)`` does).
    ``numpy()`` gives the value as a NumPy array (a read-only view)::

        >>> import tapegrad as tf
        >>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        >>> x.shape, x.dtype
        (TensorShape([2, 2]), tf.float32)
        >>> (x @ x)[0].numpy()
        array([ 7., 10.], dtype=float32)
    """

    __slots__ = ("_value", "_id", "__weakref__")
    __array_priority__ = 100
    _weak = False  # (a WeakTensor's dtype defers: tapegrad/experimental/_promotion.py)
    # ``==`` is elementwise and tensors are unhashable; tf.compat.v1.disable_tensor_equality()
    # makes ``==`` identity and the hash ``id``, as TF1's (tensors and variables alike)
    _USE_EQUALITY = True

    if TYPE_CHECKING:  # installed by ops/__init__.py
        def __getitem__(self, key: Any) -> Tensor: ...

    # -- description
    @property
    def shape(self) -> TensorShape:
        """The shape, a :class:`TensorShape`."""
        if on_size is not None:
            on_size(self)
        return tuple.__new__(TensorShape, self._value.shape)  # (known ints: no checks needed)

    def get_shape(self) -> TensorShape:
        """The shape, a :class:`TensorShape` (same as :attr:`shape`)."""
        return self.shape

    def set_shape(self, shape: Any) -> None:
        """Check that ``shape`` (``None`` dimensions match any size) fits: ``ValueError`` if not.

        An eager tensor's shape is fully known, so merging ``shape`` into it changes nothing.
        """
        if not self.shape.is_compatible_with(shape):
            raise ValueError(f"Tensor's shape {tuple(self.shape)} is not compatible with supplied "
                             f"shape {tuple(TensorShape(shape))}.")

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

    def eval(self, feed_dict: Any = None, session: Any = None) -> Any:
        """TF1's ``t.eval()``: the value of a TF1 graph's tensor in ``session`` (the default
        session); eager tensors raise NotImplementedError, as TensorFlow 2's (use ``numpy()``)."""
        if GRAPH_EVAL:
            return GRAPH_EVAL[0](self, feed_dict, session)
        raise NotImplementedError("eval is not supported when eager execution is enabled, is .numpy() what you're "
                                  "looking for?")

    def numpy(self) -> Any:
        """A copy of the value as a NumPy array, or a NumPy scalar for a 0-d tensor.

        As TensorFlow's, the array is the caller's: writing into it leaves the tensor as it was.

        >>> import tapegrad as tf
        >>> t = tf.constant([1.0, -2.0])
        >>> a = t.numpy()
        >>> a[a < 0] = 0.0
        >>> a, t.numpy()
        (array([1., 0.], dtype=float32), array([ 1., -2.], dtype=float32))
        """
        if _rec.active:
            _rec.note_escape(self, "numpy")
        v = self._value
        if type(v) is np.ndarray:
            return v[()] if v.ndim == 0 else v.copy()
        return v

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arrays_read()  # lets _infer_py see that a list held a tensor
        _rec.note_escape(self, "__array__")
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
        if layout_text is not None and (text := layout_text(self, True)) is not None:
            return text
        return (f"<tapegrad.Tensor: shape={self.shape}, dtype={self.dtype.name}, "
                f"numpy={numpy_text(self._value, True)}>")

    def __str__(self) -> str:
        if layout_text is not None and (text := layout_text(self, False)) is not None:
            return text
        return (f"tapegrad.Tensor({numpy_text(self._value, False)}, shape={self.shape}, "
                f"dtype={self.dtype.name})")

    def __format__(self, spec: str) -> str:
        v = np.asarray(self._value)
        return format(v[()] if v.ndim == 0 else v, spec)

    # -- Python protocol
    def __len__(self) -> int:
        if not self._value.ndim:
            raise TypeError("len() of a 0-d (scalar) tensor is undefined.")
        if on_size is not None:
            on_size(self)
        return self._value.shape[0]

    def __iter__(self) -> Iterator["Tensor"]:
        if not self._value.ndim:
            raise TypeError("Cannot iterate over a scalar tensor.")
        return _rec.iterate(_seam.unstack(self))

    def __bool__(self) -> bool:  # (TF's: NumPy's truth value, so any one-element tensor has one)
        if self._value.size > 1:
            raise ValueError(
                f"The truth value of a tensor of shape {self.shape} is ambiguous; use "
                "tf.reduce_any or tf.reduce_all, or compare a scalar.")
        _rec.note_escape(self, "__bool__")
        return builtins.bool(self._value.size and self._value.reshape(())[()])

    def __float__(self) -> float:
        _rec.note_escape(self, "__float__")
        return float(self._value)

    def __int__(self) -> int:
        _rec.note_escape(self, "__int__")
        return int(self._value)

    def __index__(self) -> int:
        if self._value.dtype.kind not in "iu" or self._value.ndim:
            raise TypeError(f"Only scalar integer tensors can be used as an index; got shape "
                            f"{self.shape} and dtype {self.dtype.name}.")
        _rec.note_escape(self, "__index__")
        return int(self._value)

    def __complex__(self) -> complex:
        return complex(self._value)

    def __hash__(self) -> int:
        # (a TF1 graph's tensors hash by identity, as TensorFlow's graph tensors: feed_dict keys)
        if Tensor._USE_EQUALITY and not (_rec.active and any(hasattr(r, "tf1_graph") for r in _rec.tls.stack)):
            raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")
        return id(self)

    def ref(self) -> "_Ref":
        """A hashable reference to this tensor (for use as a dict key or set member)."""
        return _Ref(self)

    experimental_ref = ref

    def __copy__(self) -> "Tensor":
        return self

    def __deepcopy__(self, memo: Any) -> "Tensor":
        return self

    def __reduce__(self) -> Any:
        return (_seam.convert_to_tensor, (np.asarray(self._value),))


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


# told of every tensor :func:`wrap` makes while a ``tf.function`` is traced (``_trace``); else None
on_wrap = None
GRAPH_EVAL: list = []  # set by tapegrad.compat: [eval(tensor, feed_dict, session)], TF1's Tensor.eval
on_size = None  # told of a tensor's size read into Python (``shape``, ``len``) while a trace runs
layout_text = None  # a DTensor's text (tapegrad/experimental/dtensor.py, once loaded): None for others
made_like = None  # told of (x, t, same dtype), t made in x's image (zeros_like): DTensor gives t a layout
CONSTANT_MAKERS: set = set()  # code objects of the functions marked by constant_maker


def constant_maker(fn: Any) -> Any:
    """Mark ``fn`` as audited for ``tf.function`` traces: the tensors it makes with :func:`wrap`
    (or conversion) hold values that do not depend on tensors' values read behind the tracer's
    back (only shapes, Python values, and values read through guarded reads such as
    ``ops.array.host_value``), so a trace may keep them as constants (docs/function.md). Returns
    ``fn`` itself: no cost at call time."""
    CONSTANT_MAKERS.add(fn.__code__)
    return fn


def wrap(v: Any) -> Tensor:
    t = Tensor()  # (no __init__: the cheapest way CPython makes an instance)
    t._value = v
    t._id = next_id()
    if on_wrap is not None:
        on_wrap(t)
    return t


def numpy_text(v: Any, is_repr: builtins.bool) -> str:
    """The value as TensorFlow prints it: a 0-d value as a Python scalar in repr (``2.5``, not
    ``np.float32(2.5)``), and text of several lines starting on a line of its own."""
    v = np.asarray(v)
    text = (repr(v.item()) if v.ndim == 0 else np.array_repr(v)) if is_repr else np.array_str(v)
    return "\n" + text if "\n" in text else text



# --------------------------------------------------------------------------- composite tensors
class CompositeTensor:
    """A tensor built of tapegrad Tensors (``tf.RaggedTensor``, ``tf.SparseTensor``): the protocol through which the
    engine and the op library handle one without knowing its type.

    ``_flat()`` is the Tensor that carries gradients (a RaggedTensor's flat values);
    ``_with_flat(t)`` is the same structure around another Tensor of that shape;
    ``_print_text(summarize)`` is what ``tf.print`` writes for it; ``_components()`` are all its
    Tensors, from which ``_from_components(parts)`` makes one of the same structure (how a
    ``tf.function`` replay returns it). A tape watches,
    differentiates and seeds a composite through them; ``unary`` ops apply to ``_flat()`` (only
    those named in ``_UNARY`` when a type sets it: a SparseTensor's zero-preserving ones);
    ``binary`` ops, and functions decorated with ``_dispatch.composite_api``, hand the call to
    the handlers the composite's package registered (``COMPOSITE_BINARY`` by type,
    ``COMPOSITE_APIS`` by function and type). Converting a composite to a Tensor raises
    :class:`CompositeConversionError`, whose message ends with the type's ``_CONVERT_HINT``.
    """

    __slots__ = ()
    _UNARY: frozenset | None = None  # the names of the unary ops it maps over its flat values (None: all)
    _TRACED_BY_COMPONENTS = False  # tf.function traces it by its ``_type_spec``, its components the inputs
    _CONVERT_HINT = (".to_tensor() pads it to a dense tensor, .flat_values are its values (docs/ragged.md lists "
                     "the functions that take one)")

    def _flat(self) -> "Tensor":
        raise NotImplementedError

    def _with_flat(self, t: "Tensor") -> "CompositeTensor":
        raise NotImplementedError

    def _print_text(self, summarize: int) -> str:
        raise NotImplementedError

    def _components(self) -> list:
        raise NotImplementedError

    def _from_components(self, parts: list) -> "CompositeTensor":
        raise NotImplementedError


class CompositeConversionError(TypeError):
    """A composite tensor (RaggedTensor) where a Tensor is needed and no handler takes it."""


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
        convert = _seam.convert_to_tensor
        self.values = convert(values)
        self.indices = convert(indices)
        self.dense_shape = None if dense_shape is None else convert(dense_shape)

    @property
    def dtype(self) -> _dt.DType:
        """The dtype of :attr:`values`."""
        return self.values.dtype

    @property
    def shape(self) -> TensorShape:
        """The dense shape (of unknown rank, ``TensorShape(None)``, without ``dense_shape``)."""
        if self.dense_shape is None:
            return TensorShape(None)
        return TensorShape(self.dense_shape)

    def _dense(self, dtype: Any = None) -> Tensor:
        if self.dense_shape is None:
            raise ValueError("Cannot densify an IndexedSlices without dense_shape.")
        t = _seam.unsorted_segment_sum(self.values, self.indices, self.shape[0])
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


class VariableBase(_Operators):
    """What the data model knows of a Variable (defined in ``_variable.py``): its current value
    ``_snap`` (a Tensor sharing the variable's ``_id``) and ``_read()``, a read that recorders
    see. Conversion recognises Variables by this class."""

    __slots__ = ()
    _snap: Tensor
    _id: int

    def _read(self) -> Tensor:
        raise NotImplementedError
