"""``tf.SparseTensor``: a tensor stored as the coordinates and values of its non-zero entries.

A SparseTensor is three tensors, as TensorFlow defines it: ``indices`` (int64, ``[N, rank]``,
one row of coordinates per stored entry), ``values`` (``[N]``, any dtype) and ``dense_shape``
(int64, ``[rank]``). Indices and the dense shape are read into NumPy (through ``host_value``,
which a ``tf.function`` trace guards); ``values`` stays a tapegrad Tensor, so every op of
:mod:`tapegrad.sparse` is built from ordinary differentiable ops on it (gathers, scatters,
segment reductions) and a tape follows a sparse computation through its values.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._convert import convert_to_tensor, host_value
from .._print import format_tensor
from .._spec import TypeSpec
from .._tensor import CompositeTensor, Tensor, TensorShape, constant_maker, numpy_text, wrap as _wrap
from ..errors import InvalidArgumentError
from ..ops.array import broadcast_to
from ..ops.indexing import gather_nd
from ..ops.math import multiply, truediv

__all__ = ["SparseTensor", "SparseTensorSpec"]


def _np(t: Any, how: str) -> np.ndarray:
    """An index or shape tensor's value in NumPy (guarded in a tf.function trace)."""
    return host_value(t, how) if isinstance(t, Tensor) else np.asarray(t)


@constant_maker  # (converts Python and NumPy indices and shapes)
def _int64(x: Any, what: str) -> Tensor:
    """``x`` as an int64 tensor; an integer tensor of another dtype is an error, as in TensorFlow."""
    if isinstance(x, Tensor):
        if x.dtype != _dt.int64:
            raise ValueError(f"{what}: SparseTensor {what} must be int64, got a {x.dtype.name} tensor; cast it "
                             "with tf.cast(x, tf.int64).")
        return x
    v = np.asarray(x)
    if v.size and v.dtype.kind not in "iu":
        raise TypeError(f"SparseTensor {what} must be integers, got {v.dtype}.")
    return _wrap(v.astype(np.int64))


def _rank_error(shape: tuple, rank: int) -> ValueError:
    return ValueError(f"Shape {TensorShape(shape)} must have rank {rank}")


def _text(t: Tensor) -> str:
    """A tensor as TensorFlow's ``str`` writes it inside a SparseTensor's text."""
    return f"tf.Tensor({numpy_text(t.numpy(), False)}, shape={t.shape}, dtype={t.dtype.name})"


class SparseTensor(CompositeTensor):
    """A sparse tensor: ``values[i]`` at coordinates ``indices[i]`` of a ``dense_shape`` tensor,
    zero (or ``default_value``) elsewhere (TensorFlow's ``tf.SparseTensor``).

    Most ops want the indices in row-major order and without repeats (``tf.sparse.reorder``
    sorts them); ``to_dense`` checks. ``*`` and ``/`` take a dense tensor or scalar and keep the
    sparsity; ``tf.cast``, ``tf.math.abs`` and ``tf.math.negative`` apply to the values.

    >>> import tapegrad as tf
    >>> st = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[3, 4])
    >>> st.shape, st.dtype.name
    (TensorShape([3, 4]), 'float32')
    >>> tf.sparse.to_dense(st * 10.0).numpy()[1]
    array([ 0.,  0., 20.,  0.], dtype=float32)
    """

    __slots__ = ("_indices", "_values", "_dense_shape")
    __array_priority__ = 100
    # the unary ops TensorFlow applies to a SparseTensor's values (each maps 0 to 0; others raise)
    _UNARY = frozenset(("Abs", "Neg", "Square", "Sqrt", "Sin", "Tan", "Tanh", "Atan", "Asin", "Asinh", "Atanh",
                        "Erf", "BesselI1e"))
    _CONVERT_HINT = ("tf.sparse.to_dense(sp) is the dense tensor, tf.sparse.map_values(op, sp) applies an "
                     "elementwise op to its values, sp.dense_shape is its shape (docs/sparse.md)")

    @constant_maker  # (values given as Python or NumPy data)
    def __init__(self, indices: Any, values: Any, dense_shape: Any) -> None:
        idx = _int64(indices, "indices")
        vals = convert_to_tensor(values)
        shp = _int64(dense_shape, "dense_shape")
        ishape, vshape, sshape = idx._value.shape, vals._value.shape, shp._value.shape
        if len(ishape) != 2:
            raise _rank_error(ishape, 2)
        if len(vshape) != 1:
            raise _rank_error(vshape, 1)
        if len(sshape) != 1:
            raise _rank_error(sshape, 1)
        if ishape[0] != vshape[0]:
            raise ValueError(f"Dimensions {ishape[0]} and {vshape[0]} are not compatible")
        if ishape[1] != sshape[0]:
            raise ValueError(f"Dimensions {ishape[1]} and {sshape[0]} are not compatible")
        self._indices, self._values, self._dense_shape = idx, vals, shp

    @classmethod
    def from_value(cls, sparse_tensor_value: Any) -> "SparseTensor":
        """A SparseTensor from another (itself) or from anything with ``indices``, ``values`` and
        ``dense_shape`` (such as TensorFlow's ``SparseTensorValue``).

        >>> import tapegrad as tf
        >>> st = tf.SparseTensor([[0]], [5], [2])
        >>> tf.SparseTensor.from_value(st) is st
        True
        """
        if isinstance(sparse_tensor_value, SparseTensor):
            return sparse_tensor_value
        try:
            parts = (sparse_tensor_value.indices, sparse_tensor_value.values, sparse_tensor_value.dense_shape)
        except AttributeError:
            raise TypeError("Neither a SparseTensor nor SparseTensorValue: "
                            f"{type(sparse_tensor_value).__name__}.") from None
        return cls(*parts)

    # ------------------------------------------------------------------ properties
    @property
    def indices(self) -> Tensor:
        """The int64 ``[N, rank]`` coordinates of the stored values."""
        return self._indices

    @property
    def values(self) -> Tensor:
        """The ``[N]`` stored values (a tapegrad Tensor: gradients flow through it)."""
        return self._values

    @property
    def dense_shape(self) -> Tensor:
        """The int64 ``[rank]`` shape of the dense tensor this represents."""
        return self._dense_shape

    @property
    def dtype(self) -> _dt.DType:
        """The dtype of the values."""
        return self._values.dtype

    @property
    def shape(self) -> TensorShape:
        """The dense shape as a TensorShape."""
        return TensorShape([int(d) for d in _np(self._dense_shape, "SparseTensor.shape")])

    def get_shape(self) -> TensorShape:
        """The same as ``shape``."""
        return self.shape

    @property
    def ndim(self) -> int:
        return int(self._dense_shape._value.shape[0])

    def with_values(self, new_values: Any) -> "SparseTensor":
        """The same indices and dense shape around ``new_values`` (same length).

        >>> import tapegrad as tf
        >>> st = tf.SparseTensor([[0], [2]], [1, 2], [4])
        >>> st.with_values([7.5, 8.5]).values.numpy()
        array([7.5, 8.5], dtype=float32)
        """
        return SparseTensor(self._indices, new_values, self._dense_shape)

    def _index_array(self, how: str) -> np.ndarray:
        return _np(self._indices, how)

    def _shape_array(self, how: str) -> np.ndarray:
        return _np(self._dense_shape, how)

    def _type_spec(self) -> "SparseTensorSpec":
        return SparseTensorSpec(self.shape, self.dtype)

    def _function_key(self) -> tuple:
        """A tf.function's key for a SparseTensor argument (the function runs eagerly on it, as on a
        RaggedTensor: its indices are read in Python)."""
        return ("SparseTensor", self.dtype.name, tuple(self.shape))

    # ------------------------------------------------------------------ composite protocol
    def _flat(self) -> Tensor:
        return self._values

    def _with_flat(self, t: Tensor) -> "SparseTensor":
        return SparseTensor(self._indices, t, self._dense_shape)

    def _components(self) -> list:
        return [self._indices, self._values, self._dense_shape]

    def _from_components(self, parts: list) -> "SparseTensor":
        return SparseTensor(*parts)

    def _print_text(self, summarize: int) -> str:
        """TensorFlow's ``tf.print`` text of a SparseTensor (quoted, as TensorFlow writes it)."""
        return (f"'SparseTensor(indices={format_tensor(self._indices, summarize)}, "
                f"values={format_tensor(self._values, summarize)}, "
                f"shape={format_tensor(self._dense_shape, summarize)})'")

    # ------------------------------------------------------------------ text
    def __repr__(self) -> str:
        return (f"SparseTensor(indices={_text(self._indices)}, values={_text(self._values)}, "
                f"dense_shape={_text(self._dense_shape)})")

    __str__ = __repr__

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        # (how conversion to a Tensor meets a SparseTensor: TF's error type, and what to do instead)
        raise ValueError(f"Attempt to convert a SparseTensor to an array: {self._CONVERT_HINT}.")

    def __bool__(self) -> bool:
        raise TypeError("The truth value of a SparseTensor is ambiguous; convert it with tf.sparse.to_dense "
                        "first.")

    # ------------------------------------------------------------------ operators (TF's sparse-dense cwise ops)
    def __mul__(self, other: Any) -> "SparseTensor":
        return _cwise(self, other, multiply)

    def __truediv__(self, other: Any) -> "SparseTensor":
        return _cwise(self, other, truediv)

    __div__ = __truediv__


@constant_maker  # (the dense operand as given)
def _cwise(sp: SparseTensor, other: Any, op: Any) -> SparseTensor:
    """``sp op other`` for a dense ``other`` broadcast to ``sp``'s shape, at ``sp``'s entries only
    (TensorFlow's SparseDenseCwise ops: the result keeps ``sp``'s sparsity)."""
    if isinstance(other, SparseTensor):
        raise TypeError("SparseTensor * and / take a dense tensor or a number; for two SparseTensors use "
                        "tf.sparse.to_dense on one of them, or tf.sparse.maximum/minimum/add.")
    d = convert_to_tensor(other, dtype=sp.dtype)
    shape = sp._shape_array("SparseTensor cwise")
    if d._value.ndim > len(shape) or any(a != 1 and a != b for a, b in zip(d._value.shape[::-1], shape[::-1])):
        raise InvalidArgumentError(f"SparseDenseBinaryOpShared broadcasts dense to sparse only; got dense: "
                                   f"{list(d._value.shape)} sparse: {shape.tolist()}")
    d = broadcast_to(d, shape)
    return sp.with_values(op(sp.values, gather_nd(d, sp.indices)))


class SparseTensorSpec(TypeSpec):
    """The type of a SparseTensor: its dense shape (dimensions may be ``None``) and dtype
    (TensorFlow's ``tf.SparseTensorSpec``).

    >>> import tapegrad as tf
    >>> spec = tf.SparseTensorSpec([None, 4], tf.float32)
    >>> spec.is_compatible_with(tf.SparseTensor([[0, 1]], [1.0], [3, 4]))
    True
    >>> spec
    SparseTensorSpec(TensorShape([None, 4]), tf.float32)
    """

    __slots__ = ("_shape", "_dtype")

    def __init__(self, shape: Any = None, dtype: Any = _dt.float32) -> None:
        self._shape = TensorShape(shape)
        self._dtype = _dt.as_dtype(dtype)

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> _dt.DType:
        return self._dtype

    @property
    def value_type(self) -> type:
        return SparseTensor

    @classmethod
    def from_value(cls, value: SparseTensor) -> "SparseTensorSpec":
        return cls(value.shape, value.dtype)

    def is_compatible_with(self, spec_or_value: Any) -> bool:
        """Whether a SparseTensor (or spec) has this dtype and a shape this one admits."""
        other = spec_or_value._type_spec() if isinstance(spec_or_value, SparseTensor) else spec_or_value
        if not isinstance(other, SparseTensorSpec) or other._dtype != self._dtype:
            return False
        return bool(self._shape.is_compatible_with(other._shape))

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, SparseTensorSpec) and (self._shape, self._dtype) == (other._shape, other._dtype)

    def __hash__(self) -> int:
        return hash((SparseTensorSpec, tuple(self._shape) if self._shape.rank is not None else None, self._dtype))

    def __repr__(self) -> str:
        return f"SparseTensorSpec({self._shape!r}, {self._dtype!r})"
