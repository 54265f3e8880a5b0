"""TensorFlow's conversion rules: Python and NumPy values to tensors, and operands of binary ops.

Python floats become float32 and ints int32 (int64 when they do not fit), NumPy values keep their
dtype, a list holding tensors is packed on the tape (autopacking), and the other operand of a
binary op takes the tensor's dtype (never a silent promotion between two tensors).
"""
from __future__ import annotations

import builtins
from typing import Any, Callable

import numpy as np

from . import _backend as _bk, _recorders as _rec, _seam, _strings, dtypes as _dt
from ._tensor import (CompositeConversionError, CompositeTensor, IndexedSlices, Tensor, VariableBase, arrays_read,
                      next_id, wrap)
from .errors import InvalidArgumentError

_PY_SCALARS = (float, int, builtins.bool, complex)
_PY_VALUES = frozenset((float, int, builtins.bool, complex, list, tuple))


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
    if isinstance(value, dict):  # (NumPy makes it an object scalar: say what TF says)
        raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                         f"({type(value)}) to a Tensor.")
    spot = spot and isinstance(value, (list, tuple))
    n = arrays_read()
    try:
        arr = np.array(value)
    except ValueError as e:
        if spot and arrays_read() != n + 1:
            raise _HoldsTensor from None
        try:
            return _strings.to_bytes(value)  # (str mixed with non-ASCII bytes)
        except ValueError:
            pass
        raise ValueError(f"Cannot convert {value!r} to a tensor: {e} (are the nested lists ragged? "
                         "tf.ragged.constant makes a RaggedTensor of rows of different lengths)") from None
    if spot and arrays_read() != n + 1:
        raise _HoldsTensor
    k = arr.dtype.kind
    if k == "f":
        return arr.astype(_first_float(value))
    if k in "iu":  # (NumPy integers of any width inside a list count as Python ints, as in TF)
        if arr.size and (arr.max() > 2**31 - 1 or arr.min() < -2**31):
            if arr.max() > 2**63 - 1:
                raise ValueError(f"Can't convert {value!r} to a tensor: an integer is out of int64's range.")
            return arr.astype(np.int64)
        return arr.astype(np.int32)
    if k == "c":
        return arr.astype(np.complex128)
    if k == "b":
        return arr
    if k in "USO":
        return _strings.to_bytes(value)
    raise TypeError(f"Cannot convert {value!r} to a tensor: elements of type "
                    f"{type(arr.flat[0]).__name__ if arr.size else 'object'} are not numbers.")


def _first_float(value: Any) -> np.dtype:
    """The float dtype of a list holding floats, as TF infers it from the first leaf: a NumPy float
    (scalar or non-empty array) keeps its width, anything else gives float32."""
    while isinstance(value, (list, tuple)) and value:
        value = value[0]
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind == "f" and value.size:
        return value.dtype
    return np.dtype(np.float32)


def _first_dtype(seq: Any) -> Any:
    for e in seq:
        if isinstance(e, (Tensor, VariableBase)):
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
        if isinstance(e, (Tensor, VariableBase)):
            e = convert_to_tensor(e)  # a Variable's read is recorded (and watched) here
            if cast and e._value.dtype != dt:
                if not _implicit_ok(e._value.dtype, dt):
                    raise TypeError(f"Cannot convert a list holding a {e.dtype.name} tensor to "
                                    f"{_dt._from_np(dt).name}: cast the tensor with tf.cast first.")
                e = _seam.cast(e, _dt._from_np(dt))
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
    return _seam.stack(parts)


def _cast_checked(arr: np.ndarray, dt: np.dtype, value: Any) -> np.ndarray:
    if arr.dtype == dt:
        return arr
    src, dst = arr.dtype.kind, dt.kind
    ok = (src == dst or (src in "iub" and dst in "iufc") or (src == "f" and dst in "fc")
          or (src == "b" and dst == "b"))
    if not ok:
        raise TypeError(f"Cannot convert {value!r} to a tensor of dtype {_dt._from_np(dt).name}: "
                        f"the value has dtype {_dt._from_np(arr.dtype).name}. Cast explicitly with tf.cast.")
    if src in "iu" and dst in "iu":
        info = np.iinfo(dt)
        if arr.size and (arr.max() > info.max or arr.min() < info.min):
            raise TypeError(f"Cannot convert {value!r} to a tensor of dtype "
                            f"{_dt._from_np(dt).name}: the value is out of range.")
    return arr.astype(dt)


_CONVERSIONS: list = []  # (priority, order registered, base type, function), lowest first


def register_tensor_conversion_function(base_type: Any, conversion_func: Any, priority: int = 100) -> None:
    """Make :func:`convert_to_tensor` (and every op given such a value) convert instances of
    ``base_type`` (a type or tuple of types) with ``conversion_func(value, dtype=None, name=None,
    as_ref=False)``, which returns a tensor or ``NotImplemented`` (the next function is tried);
    functions of lower ``priority`` are tried first. Python numbers and NumPy values keep their
    own conversion, as in TensorFlow.

    >>> import tapegrad as tf
    >>> class Meters:
    ...     def __init__(self, v): self.v = v
    >>> tf.register_tensor_conversion_function(Meters, lambda x, dtype=None, name=None, as_ref=False:
    ...                                        tf.constant(x.v, dtype or tf.float32))
    >>> (tf.constant(1.0) + Meters(2.0)).numpy()
    np.float32(3.0)
    """
    bases = base_type if isinstance(base_type, tuple) else (base_type,)
    if not all(isinstance(b, type) for b in bases):
        raise TypeError("base_type must be a type or a tuple of types.")
    if any(issubclass(b, (int, float, complex, np.generic, np.ndarray)) for b in bases):
        raise TypeError("Cannot register conversions for Python numeric types and NumPy scalars and arrays.")
    if not callable(conversion_func):
        raise TypeError("conversion_func must be callable.")
    _CONVERSIONS.append((int(priority), len(_CONVERSIONS), bases, conversion_func))
    _CONVERSIONS.sort(key=lambda c: c[:2])


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
    if isinstance(value, VariableBase):
        r = value._read()
        if dtype is not None and _dt.as_dtype(dtype)._np != r._value.dtype:
            raise ValueError(f"Tensor conversion requested dtype {_dt.as_dtype(dtype).name} for "
                             f"Variable with dtype {value.dtype.name}. Use tf.cast to change the dtype.")
        return r
    if isinstance(value, Tensor):
        return value
    if isinstance(value, IndexedSlices):
        return value._dense(dtype)
    if isinstance(value, CompositeTensor):
        raise composite_error(value)
    want = None if dtype is None else _dt.as_dtype(dtype)._np
    if isinstance(value, (np.ndarray, np.generic)):
        if value.dtype.kind in "OUSV":
            if value.dtype.kind == "V":
                raise TypeError(f"Cannot convert a NumPy array of dtype {value.dtype} to a tensor: "
                                "tapegrad tensors hold numbers, bools and strings only.")
            arr = _strings.to_bytes(value)
            if want is not None and want != arr.dtype:
                raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype "
                                f"{_dt._from_np(want).name}")
            return wrap(arr)
        arr = np.array(value, copy=True) if isinstance(value, np.ndarray) else np.asarray(value)
        if want is not None and arr.dtype != want:
            arr = _cast_checked(arr, want, value)
        if arr.flags.writeable:
            arr.flags.writeable = False
        return wrap(arr)
    if value is None:
        raise TypeError("Cannot convert None to a tensor.")
    if _CONVERSIONS:
        for base, fn in (c[2:] for c in _CONVERSIONS):
            if isinstance(value, base):
                out = fn(value, dtype=None if dtype is None else _dt.as_dtype(dtype), name=name, as_ref=False)
                if out is NotImplemented:
                    continue
                if not isinstance(out, Tensor):
                    raise RuntimeError(f"{fn!r} (registered for {base}) returned a {type(out).__name__}, not a "
                                       "tensor: a conversion function returns a tensor or NotImplemented.")
                return convert_to_tensor(out, dtype)
    if hasattr(value, "__tf_tensor__"):
        return convert_to_tensor(value.__tf_tensor__(), dtype)
    if t not in _PY_VALUES:  # a Dask, CuPy or other array-API array: an ArrayTensor
        foreign = _bk.convert_array(value, dtype)
        if foreign is not None:
            return foreign
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
            return wrap(arr.astype(want))   # no values to convert: any dtype (TF: shape [0], int32)
        if t is float and want.kind in "iub" or t in (list, tuple) and arr.dtype.kind == "f" and want.kind in "iub":
            raise TypeError(f"Cannot convert {value!r} to a tensor of dtype {_dt._from_np(want).name}: "
                            "a float does not convert to an integer or bool type implicitly.")
        if want.kind in "fc" and (arr.dtype.kind == "f" or arr.dtype.kind == want.kind):
            arr = np.array(value, dtype=want)   # straight from the Python values: no float32 rounding
        else:
            arr = _cast_checked(arr, want, value)
    return wrap(arr)


def constant(value: Any, dtype: Any = None, shape: Any = None, name: Any = None) -> Tensor:
    """A constant tensor from a Python or NumPy value (``shape`` broadcasts or fills).

    >>> import tapegrad as tf
    >>> tf.constant(0.5, shape=[2, 2]).numpy()
    array([[0.5, 0.5],
           [0.5, 0.5]], dtype=float32)
    """
    if isinstance(value, (Tensor, VariableBase)):
        t = convert_to_tensor(value)  # the tensor itself, as in TF (gradients flow through it)
        if dtype is not None and _dt.as_dtype(dtype) != t.dtype:
            t = wrap(t._value.astype(_dt.as_dtype(dtype)._np))
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
        t = wrap(v)
    return _bk.place(t) if _bk.placing else t  # (in a tf.device("/GPU:n") scope, with a GPU)


def _dtype_error(opname: str, a: Any, b: Any) -> InvalidArgumentError:
    da, db = _dt._from_np(a.dtype).name, _dt._from_np(b.dtype).name
    return InvalidArgumentError(
        f"{opname}: the two inputs have different dtypes, {da} and {db}. tapegrad, like "
        f"TensorFlow, does not promote dtypes between tensors: cast one with tf.cast(x, tf.{da}).")


class _PerDtype(dict):
    """dtype -> that dtype's cache of constants (made on first use)."""

    def __missing__(self, npdt: np.dtype) -> dict:
        d = self[npdt] = {}
        return d


# the constants for Python scalar operands, per dtype: keyed by the scalar alone for a float or
# int operand of a floating or complex dtype (equal values give equal constants there; the
# dispatcher's hot path reads these), by (scalar, type) otherwise
_SCALARS = _PerDtype()


def _scalar_for(y: Any, npdt: np.dtype, opname: str) -> Tensor:
    """A constant tensor for a Python scalar operand (cached: constants are immutable)."""
    consts = _SCALARS[npdt]
    k = npdt.kind
    ty = type(y)
    key = y if (ty is float or ty is int) and (k == "f" or k == "c") else (y, ty)
    t = consts.get(key)
    if t is not None:
        return t
    if k == "O":
        raise TypeError(f"{opname}: cannot convert {y!r} to EagerTensor of dtype string.")
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
    t = Tensor()
    t._value = a
    t._id = next_id()
    if y == 0:  # -0.0 == 0.0 (one key): zeros are not cached, so each keeps its sign
        return t
    if len(consts) > 4096:
        consts.clear()
    consts[key] = t
    return t


def _operand(y: Any, npdt: np.dtype, opname: str) -> Tensor:
    """Convert the non-tensor side of a binary op to the tensor side's dtype (as TF does)."""
    ty = type(y)
    if ty in _PY_SCALARS:
        return _scalar_for(y, npdt, opname)
    if isinstance(y, VariableBase):
        y = y._read()
    if isinstance(y, Tensor):
        if y._value.dtype != npdt:
            raise _dtype_error(opname, np.empty(0, npdt), y._value)
        return y
    if isinstance(y, IndexedSlices):
        return _operand(y._dense(), npdt, opname)
    if isinstance(y, (np.ndarray, np.generic)):
        if y.dtype.kind in "OUSV":
            return convert_to_tensor(y, dtype=_dt._from_np(npdt))
        return wrap(_cast_checked(np.asarray(y), npdt, y) if y.dtype != npdt else np.asarray(y))
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
    if isinstance(x, (Tensor, VariableBase)):
        x = convert_to_tensor(x)
        return x, _operand(y, x._value.dtype, opname)
    if isinstance(y, (Tensor, VariableBase)):
        y = convert_to_tensor(y)
        return _operand(x, y._value.dtype, opname), y
    x = convert_to_tensor(x)
    return x, _operand(y, x._value.dtype, opname)


def host_value(x: Any, what: str) -> Any:
    """The value of op argument ``x`` read into Python to steer an op (a shape, axis, padding,
    offset, length...): a tensor's array (a GPU's copied to the host, as TensorFlow's host
    arguments), a Variable's current value, anything else as it is.

    The one way op code reads a tensor argument's data into Python (tests/test_function_stale.py
    scans the source for others): in a ``tf.function`` trace the read is a guard, so a call with
    another value is traced again rather than replayed with this one (docs/function.md)."""
    if isinstance(x, VariableBase):
        x = x.read_value()  # (a trace records the read, then guards its value)
    if not isinstance(x, Tensor):
        return x
    _rec.note_escape(x, what)
    v = x._value
    return v.backend.to_numpy(v.a) if type(v) is _bk.Boxed and v.backend.gpu else v


def check_values(check: Callable, *xs: Tensor) -> None:
    """Run ``check(*arrays)`` on the values of tensors ``xs``: a validation that raises on bad
    values (indices out of range, labels outside the classes) and returns nothing.

    The one way op code reads tensor data only to validate it: the values never steer the op, and
    a ``tf.function`` trace records the check as a step that runs again on every call's values,
    as TensorFlow's kernels check at run time. A backend's (Dask, CuPy) values are not read back."""
    if len(xs) == 1:  # (the common case, without a list)
        v = xs[0]._value
        if type(v) is _bk.Boxed:
            return
        check(v)
    else:
        vals = [x._value for x in xs]
        for v in vals:
            if type(v) is _bk.Boxed:
                return
        check(*vals)
    if _rec.active:
        _rec.note_check(check, xs)


def composite_error(value: Any) -> CompositeConversionError:
    """The error for a composite tensor (RaggedTensor) where a Tensor is needed."""
    name = type(value).__name__
    return getattr(value, "_CONVERT_ERROR", CompositeConversionError)(
        f"a {name} is not a Tensor: this function takes a dense tensor, and tapegrad has no {name} "
        f"version of it. Convert it explicitly: {value._CONVERT_HINT}.")


def as_tensor(x: Any) -> Tensor:
    """Fast ``convert_to_tensor`` for op arguments."""
    if type(x) is Tensor:
        return x
    return convert_to_tensor(x)


_seam.convert_to_tensor = convert_to_tensor
