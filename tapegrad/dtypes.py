"""TensorFlow-style dtype objects (``tapegrad.float32`` and friends).

A :class:`DType` wraps a NumPy dtype and answers the questions TensorFlow's
``tf.DType`` answers. ``as_dtype`` converts names, NumPy dtypes and Python
types; ``DType`` compares equal to anything ``as_dtype`` accepts::

    >>> import tapegrad as tf
    >>> tf.float32.name, tf.float32.is_floating, tf.float32 == "float32"
    ('float32', True, True)
    >>> tf.as_dtype("int64").as_numpy_dtype
    <class 'numpy.int64'>
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

__all__ = [
    "DType", "as_dtype", "float16", "float32", "float64", "int8", "int16", "int32", "int64",
    "uint8", "uint16", "uint32", "uint64", "bool", "complex64", "complex128", "half", "double",
    "string", "resource", "variant",
]


class DType:
    """A tensor element type. Use the module constants (``tapegrad.float32`` ...)."""

    __slots__ = ("_np", "name", "_enum")

    def __init__(self, np_dtype: Any, name: str, enum: int) -> None:
        self._np = np.dtype(np_dtype)
        self.name = name
        self._enum = enum

    @property
    def as_datatype_enum(self) -> int:
        """TensorFlow's ``DataType`` enum number (1 for float32, 2 for float64, ...)."""
        return self._enum

    @property
    def is_quantized(self) -> builtins.bool:
        """False: tapegrad has no quantized dtypes."""
        return False

    @property
    def is_numpy_compatible(self) -> builtins.bool:
        """True: every tapegrad dtype of a tensor is a NumPy dtype."""
        return True

    @property
    def limits(self) -> tuple:
        """``(min, max)`` of this dtype."""
        return self.min, self.max

    @property
    def as_numpy_dtype(self) -> type:
        """The NumPy scalar type, e.g. ``numpy.float32`` (``object`` for ``tf.string``)."""
        return object if self._np.kind == "O" else self._np.type

    @property
    def base_dtype(self) -> "DType":
        """The dtype itself (TensorFlow's reference dtypes do not exist here)."""
        return self

    @property
    def real_dtype(self) -> "DType":
        """float32 for complex64, float64 for complex128, else itself."""
        if self._np.kind == "c":
            return _BY_NP[np.finfo(self._np).dtype]
        return self

    @property
    def is_floating(self) -> bool:
        """Whether this is a real floating-point dtype (float16, float32, float64)."""
        return self._np.kind == "f"

    @property
    def is_complex(self) -> bool:
        """Whether this is a complex dtype (complex64, complex128)."""
        return self._np.kind == "c"

    @property
    def is_integer(self) -> bool:
        """Whether this is a signed or unsigned integer dtype."""
        return self._np.kind in "iu"

    @property
    def is_unsigned(self) -> bool:
        """Whether this is an unsigned integer dtype."""
        return self._np.kind == "u"

    @property
    def is_bool(self) -> bool:
        """Whether this is ``tf.bool``."""
        return self._np.kind == "b"

    @property
    def is_numeric(self) -> bool:
        """Whether this is a numeric (integer, floating or complex) dtype."""
        return self._np.kind in "iufc"

    @property
    def size(self) -> int:
        """The number of bytes per element (0 for ``tf.string``, as in TF)."""
        return 0 if self._np.kind == "O" else self._np.itemsize

    @property
    def min(self) -> Any:
        """The smallest finite value of this dtype."""
        if self.is_floating:
            return self.as_numpy_dtype(np.finfo(self._np).min)
        if self.is_integer:
            return self.as_numpy_dtype(np.iinfo(self._np).min)
        if self.is_bool:
            return False
        raise TypeError(f"Cannot find minimum value of {self.name}.")

    @property
    def max(self) -> Any:
        """The largest finite value of this dtype."""
        if self.is_floating:
            return self.as_numpy_dtype(np.finfo(self._np).max)
        if self.is_integer:
            return self.as_numpy_dtype(np.iinfo(self._np).max)
        if self.is_bool:
            return True
        raise TypeError(f"Cannot find maximum value of {self.name}.")

    @property
    def is_trainable(self) -> bool:
        """Whether gradients can flow through tensors of this type (floating or complex)."""
        return self._np.kind in "fc"

    def is_compatible_with(self, other: Any) -> bool:
        """Whether ``other`` (a DType or anything :func:`as_dtype` accepts) is this dtype."""
        return self == other

    def __eq__(self, other: Any) -> bool:
        if other is self:
            return True
        if other is None:
            return False
        try:
            return as_dtype(other) is self
        except TypeError:
            return False

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: '{self.name}'>"

    def __reduce__(self) -> Any:
        return as_dtype, (self.name,)


float16 = half = DType(np.float16, "float16", 19)
float32 = DType(np.float32, "float32", 1)
float64 = double = DType(np.float64, "float64", 2)
int8 = DType(np.int8, "int8", 6)
int16 = DType(np.int16, "int16", 5)
int32 = DType(np.int32, "int32", 3)
int64 = DType(np.int64, "int64", 9)
uint8 = DType(np.uint8, "uint8", 4)
uint16 = DType(np.uint16, "uint16", 17)
uint32 = DType(np.uint32, "uint32", 22)
uint64 = DType(np.uint64, "uint64", 23)
bool = DType(np.bool_, "bool", 10)  # noqa: A001  (TensorFlow's name)
complex64 = DType(np.complex64, "complex64", 8)
complex128 = DType(np.complex128, "complex128", 18)
string = DType(np.object_, "string", 7)


class _Handle(DType):
    """``tf.resource`` and ``tf.variant``: the dtypes of a Variable's and of a dataset's handle in a
    function's signature (``ConcreteFunction.function_def``), as TensorFlow names them. No tensor
    holds them, and, as in TensorFlow, they have no NumPy type."""

    __slots__ = ()

    def __init__(self, name: str, enum: int) -> None:
        self.name, self._enum = name, enum

    @property
    def _np(self) -> np.dtype:   # (what every use of a dtype as a tensor's element type reads)
        raise TypeError(f"No tensor holds dtype {self.name}: it names a Variable's or a dataset's handle "
                        "in a function's signature (ConcreteFunction.function_def); use a value dtype such "
                        "as tf.float32.")

    @property
    def as_numpy_dtype(self) -> type:
        raise KeyError(self._enum)   # (TensorFlow's error)

    is_numpy_compatible = is_floating = is_complex = is_integer = is_unsigned = is_bool = is_numeric = \
        is_trainable = property(lambda self: False)
    size = property(lambda self: 0)
    base_dtype = real_dtype = property(lambda self: self)

    @property
    def min(self) -> Any:
        raise TypeError(f"Cannot find minimum value of <dtype: '{self.name}'>.")

    @property
    def max(self) -> Any:
        raise TypeError(f"Cannot find maximum value of <dtype: '{self.name}'>.")


resource = _Handle("resource", 20)
variant = _Handle("variant", 21)

# tf.dtypes.cast, tf.dtypes.complex and tf.dtypes.saturate_cast: tapegrad/ops/__init__.py binds them here
# (the op library sits above this module)
cast: Any
complex: Any  # noqa: A001  (TF's name)
saturate_cast: Any

_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
        bool, complex64, complex128)
_BY_NP: dict[np.dtype, DType] = {d._np: d for d in _ALL}
_BY_NAME: dict[str, DType] = {d.name: d for d in _ALL}
_BY_NAME.update(half=float16, double=float64, string=string, resource=resource, variant=variant)
_BY_NP[string._np] = string
# the Python types TensorFlow accepts; ``int`` and ``complex`` it refuses (which width?), and so does tapegrad
_PY = {float: float32, builtins.bool: bool, object: string}
_BY_ENUM: dict[int, DType] = {d._enum: d for d in (*_ALL, string, resource, variant)}
# TensorFlow's DataType numbers that NumPy has no dtype for
_NO_NUMPY = {11: "qint8", 12: "quint8", 13: "qint32", 14: "bfloat16", 15: "qint16", 16: "quint16",
             24: "float8_e5m2", 25: "float8_e4m3fn", 26: "float8_e4m3fnuz",
             27: "float8_e4m3b11fnuz", 28: "float8_e5m2fnuz", 29: "int4"}


def as_dtype(type_value: Any) -> DType:
    """Convert a DType, NumPy dtype or type, or a name such as ``"float32"`` to a :class:`DType`.

    >>> import tapegrad as tf, numpy as np
    >>> tf.as_dtype(np.float64)
    tf.float64
    >>> tf.as_dtype(2)  # TensorFlow's DataType enum number
    tf.float64
    """
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, (int, np.integer)):  # a DataType enum number, as TF accepts (bool too: True is 1)
        d = _BY_ENUM.get(int(type_value))
        if d is not None:
            return d
        if int(type_value) in _NO_NUMPY:
            raise TypeError(f"tf.as_dtype({type_value!r}) is TensorFlow's {_NO_NUMPY[int(type_value)]}, "
                            "which tapegrad does not have (NumPy has no such dtype).")
        raise TypeError(f"Cannot convert {type_value!r} to a tapegrad DType: it is no DataType enum number "
                        f"(those are {sorted(_BY_ENUM)}).")
    if isinstance(type_value, str):
        d = _BY_NAME.get(type_value)
        if d is not None:
            return d
    elif type_value in _PY:
        return _PY[type_value]
    elif type_value is int or type_value is builtins.complex:
        raise TypeError(f"Cannot convert the Python type {type_value.__name__} to a DType: say which width, "
                        + ("tf.int32 or tf.int64." if type_value is int else "tf.complex64 or tf.complex128."))
    else:
        try:
            d = _BY_NP.get(np.dtype(type_value))
        except TypeError:
            d = None
        if d is not None:
            return d
    raise TypeError(
        f"Cannot convert {type_value!r} to a tapegrad DType. Use one of: "
        + ", ".join(sorted(_BY_NAME)) + ".")


def _from_np(np_dtype: np.dtype) -> DType:
    d = _BY_NP.get(np_dtype)
    if d is None:
        return as_dtype(np_dtype)
    return d
