"""``tapegrad.debugging``: TensorFlow's ``tf.debugging`` assertions and ``check_numerics``.

Assertions on values raise :class:`~tapegrad.errors.InvalidArgumentError` with TensorFlow's
message (``"Condition x < y did not hold."`` followed by the offending values); assertions on
ranks and shapes raise ``ValueError``, on dtypes ``TypeError``. They return ``None`` when they
hold (tapegrad is eager, so there is no op to depend on).

>>> import tapegrad as tf
>>> x = tf.constant([1.0, 2.0])
>>> tf.debugging.assert_less(x, 3.0)
>>> tf.debugging.assert_positive(x - 1.5)
Traceback (most recent call last):
    ...
tapegrad.errors.InvalidArgumentError: 
Condition x > 0 did not hold element-wise:
x (shape=(2,) dtype=float32) = 
['-0.5', '0.5']
"""
from __future__ import annotations

import sys
import threading
from typing import Any, Callable

import numpy as np

from . import _recorders as _rec, _trace, dtypes as _dt
from ._convert import convert_to_tensor
from ._tensor import Tensor, VariableBase
from .errors import (InvalidArgumentError, disable_traceback_filtering, enable_traceback_filtering,  # noqa: F401
                     is_traceback_filtering_enabled)
from .ops.array import identity

__all__ = ["Assert", "assert_all_finite", "assert_equal", "assert_greater", "assert_greater_equal",
           "assert_less", "assert_less_equal", "assert_near", "assert_negative",
           "assert_non_negative", "assert_non_positive", "assert_none_equal", "assert_positive",
           "assert_rank", "assert_rank_at_least", "assert_shapes", "assert_type", "check_numerics",
           "get_log_device_placement", "is_numeric_tensor", "set_log_device_placement", "assert_integer",
           "assert_scalar", "assert_rank_in", "assert_same_float_dtype", "assert_proper_iterable",
           "enable_check_numerics", "disable_check_numerics", "enable_traceback_filtering",
           "disable_traceback_filtering", "is_traceback_filtering_enabled"]


def _prefix(message: str | None) -> str:
    return f"{message}\n" if message else ""


def _described(t: Tensor) -> str:
    return f"shape={tuple(t.shape)} dtype={t.dtype.name}"


def _pretty(item: Any, summarize: int) -> str:
    """One data item of an assertion's message, as TensorFlow shows it."""
    if not isinstance(item, (Tensor, VariableBase)):
        return str(item)
    a = np.asarray(item.numpy())
    if a.ndim == 0:
        return str(a)
    flat = a.reshape(-1)
    shown = [str(v) for v in flat[:summarize]] + (["..."] if flat.size > summarize else [])
    return str(shown)


def _pair(x: Any, y: Any, opname: str) -> tuple[Tensor, Tensor]:
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype_hint=x.dtype)
    if x.dtype != y.dtype:
        raise InvalidArgumentError(f"cannot compute {opname} as input #1(zero-based) was expected "
                                   f"to be a {x.dtype.name} tensor but is a {y.dtype.name} tensor: "
                                   "the two arguments of the assertion must have the same dtype "
                                   "(cast one with tf.cast)")
    try:
        np.broadcast_shapes(tuple(x.shape), tuple(y.shape))
    except ValueError:
        raise InvalidArgumentError(f"Incompatible shapes: {x.shape.as_list()} vs. "
                                   f"{y.shape.as_list()}: the arguments of the assertion must "
                                   "broadcast against each other") from None
    return x, y


def _binary(sym: str, opname: str, test: Callable, x: Any, y: Any, message: str | None,
            summarize: int | None) -> None:
    x, y = _pair(x, y, opname)
    xv, yv = np.asarray(x.numpy()), np.asarray(y.numpy())
    ok = test(xv, yv)
    if np.all(ok):
        return
    summarize = 3 if summarize is None else summarize
    lines = [f"Condition x {sym} y did not hold."]
    if summarize > 0:
        if xv.shape == yv.shape and xv.ndim:
            where = np.argwhere(~ok)
            n = min(summarize, len(where))
            lines += [f"Indices of first {n} different values:", str(where[:n]),
                      "Corresponding x values:", str(xv[~ok][:n]),
                      "Corresponding y values:", str(yv[~ok][:n])]
        fx, fy = xv.reshape(-1), yv.reshape(-1)
        nx, ny = min(fx.size, summarize), min(fy.size, summarize)
        lines += [f"First {nx} elements of x:", str(fx[:nx]), f"First {ny} elements of y:",
                  str(fy[:ny])]
    raise InvalidArgumentError(_prefix(message) + "\n".join(lines))


def _binary_assert(fname: str, sym: str, opname: str, test: Callable) -> Callable:
    def check(x: Any, y: Any, message: str | None = None, summarize: int | None = None,
              name: str | None = None) -> None:
        _binary(sym, opname, test, x, y, message, summarize)

    check.__name__ = check.__qualname__ = fname
    check.__doc__ = (f"Raise InvalidArgumentError unless ``x {sym} y`` holds for every element "
                     "(``x`` and ``y`` broadcast; the error starts with ``message`` and shows the "
                     "first ``summarize`` (3) differing values and elements).")
    return check


assert_equal = _binary_assert("assert_equal", "==", "Equal", np.equal)
assert_none_equal = _binary_assert("assert_none_equal", "!=", "NotEqual", np.not_equal)
assert_less = _binary_assert("assert_less", "<", "Less", np.less)
assert_less_equal = _binary_assert("assert_less_equal", "<=", "LessEqual", np.less_equal)
assert_greater = _binary_assert("assert_greater", ">", "Greater", np.greater)
assert_greater_equal = _binary_assert("assert_greater_equal", ">=", "GreaterEqual", np.greater_equal)


def _sign(fname: str, sym: str, test: Callable) -> Callable:
    def check(x: Any, message: str | None = None, summarize: int | None = None,
              name: str | None = None) -> None:
        x = convert_to_tensor(x)
        if np.all(test(np.asarray(x.numpy()), 0)):
            return
        raise InvalidArgumentError(
            f"{message or ''}\nCondition x {sym} 0 did not hold element-wise:\n"
            f"x ({_described(x)}) = \n{_pretty(x, 3 if summarize is None else summarize)}")

    check.__name__ = check.__qualname__ = fname
    check.__doc__ = (f"Raise InvalidArgumentError unless ``x {sym} 0`` for every element; the "
                     "error starts with ``message`` and shows the first ``summarize`` (3) values.")
    return check


assert_positive = _sign("assert_positive", ">", np.greater)
assert_negative = _sign("assert_negative", "<", np.less)
assert_non_negative = _sign("assert_non_negative", ">=", np.greater_equal)
assert_non_positive = _sign("assert_non_positive", "<=", np.less_equal)


def assert_near(x: Any, y: Any, rtol: Any = None, atol: Any = None, message: str | None = None,
                summarize: int | None = None, name: str | None = None) -> None:
    """Raise InvalidArgumentError unless ``|x - y| <= atol + rtol * |y|`` everywhere.

    ``rtol`` and ``atol`` default to ten times the machine epsilon of the dtype (float32:
    1.19e-06).

    >>> import tapegrad as tf
    >>> tf.debugging.assert_near(tf.constant([1.0]), tf.constant([1.0 + 1e-7]))
    """
    x, y = _pair(x, y, "AssertNear")
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"assert_near needs floating-point or complex tensors; got {x.dtype!r}.")
    np_dtype = x.dtype.as_numpy_dtype
    eps = np.finfo(np_dtype).eps * 10
    rtol = np_dtype(eps if rtol is None else rtol)
    atol = np_dtype(eps if atol is None else atol)
    xv, yv = np.asarray(x.numpy()), np.asarray(y.numpy())
    if np.all(np.abs(xv - yv) <= atol + rtol * np.abs(yv)):
        return
    s = 3 if summarize is None else summarize
    raise InvalidArgumentError(f"{_prefix(message)}x and y not equal to tolerance rtol = {rtol!s}, "
                               f"atol = {atol!s}\nx ({_described(x)}) = \n{_pretty(x, s)}\n"
                               f"y ({_described(y)}) = \n{_pretty(y, s)}")


def _rank(x: Any) -> tuple[Tensor, int]:
    x = convert_to_tensor(x)
    return x, x.shape.rank


def assert_rank(x: Any, rank: int, message: str | None = None, name: str | None = None) -> None:
    """Raise ValueError unless ``x`` has rank ``rank``.

    >>> import tapegrad as tf
    >>> tf.debugging.assert_rank(tf.zeros([2, 3]), 2)
    """
    x, r = _rank(x)
    if r != int(rank):
        raise ValueError(f"{_prefix(message)}Tensor must have rank {int(rank)}.  Received rank "
                         f"{r}, shape {tuple(x.shape)}")


def assert_rank_at_least(x: Any, rank: int, message: str | None = None,
                         name: str | None = None) -> None:
    """Raise ValueError unless ``x`` has rank ``rank`` or more."""
    x, r = _rank(x)
    if r < int(rank):
        raise ValueError(f"{_prefix(message)}Tensor must have rank at least {int(rank)}.  Received "
                         f"rank {r}, shape {tuple(x.shape)}")


def assert_type(tensor: Any, tf_type: Any, message: str | None = None,
                name: str | None = None) -> None:
    """Raise TypeError unless ``tensor`` has dtype ``tf_type``."""
    want = _dt.as_dtype(tf_type)
    got = convert_to_tensor(tensor).dtype if not isinstance(tensor, VariableBase) else tensor.dtype
    if got != want:
        raise TypeError(f"{message + ' ' if message else ''}tensor must be of type {want!r}; got "
                        f"{got!r}")


def assert_shapes(shapes: Any, data: Any = None, summarize: int | None = None,
                  message: str | None = None, name: str | None = None) -> None:
    """Raise ValueError unless the tensors have the shapes given, with symbols consistent.

    ``shapes``: ``(tensor, spec)`` pairs or a ``{tensor.ref(): spec}`` dict. A spec is a sequence of
    sizes: an int, a symbol (any string: every dimension with the same symbol must have the same
    size), or ``None``/``'.'`` for any size; a first entry ``...`` or ``'*'`` allows any number of
    leading dimensions. A spec of length 0 or 1 also accepts a scalar, as in TensorFlow.

    >>> import tapegrad as tf
    >>> x, y = tf.zeros([4, 3]), tf.zeros([4])
    >>> tf.debugging.assert_shapes([(x, ("N", 3)), (y, ("N",))])
    >>> tf.debugging.assert_shapes([(x, ("N", 3)), (tf.zeros([5]), ("N",))])
    Traceback (most recent call last):
        ...
    ValueError: Specified by tensor shape=(4, 3) dtype=float32 dimension 0.  Tensor shape=(5,) dtype=float32 dimension 0 must have size 4.  Received size 5, shape (5,)
    """
    pre = f"{message}.  " if message else ""
    pairs = ([(k.deref() if hasattr(k, "deref") else k, v) for k, v in shapes.items()]
             if isinstance(shapes, dict) else list(shapes))
    bound: dict = {}
    for tensor, spec in pairs:
        if spec is None:
            continue
        t = convert_to_tensor(tensor)
        if not hasattr(spec, "__iter__"):
            raise ValueError(f"{pre}Tensor {_described(t)}.  Specified shape must be an iterable.  "
                             f"Received specified shape: {spec}")
        spec = tuple(spec)
        leading = bool(spec) and (spec[0] is Ellipsis or spec[0] == "*")
        if any(s is Ellipsis or s == "*" for s in spec[1:]):
            raise ValueError(f"{pre}Tensor {_described(t)}: '...' or '*' for any number of "
                             "dimensions is only allowed as the first entry of the shape.")
        sizes = spec[1:] if leading else spec
        dims = list(t.shape) if t.shape.rank else [1]
        r = t.shape.rank
        if leading and len(sizes) > 1 and r < len(sizes):
            raise ValueError(f"{pre}Tensor {_described(t)} must have rank at least {len(sizes)}.  "
                             f"Received rank {r}, shape {tuple(t.shape)}")
        if not leading and (r not in (0, 1) if len(sizes) <= 1 else r != len(sizes)):
            want = "in (0, 1)" if len(sizes) <= 1 else str(len(sizes))
            raise ValueError(f"{pre}Tensor {_described(t)} must have rank {want}.  Received rank "
                             f"{r}, shape {tuple(t.shape)}")
        for i, sym in enumerate(sizes):
            if sym is None or sym == ".":
                continue
            dim = i - len(sizes) if leading else i
            size = dims[dim]
            if isinstance(sym, (int, np.integer)):
                want, where = int(sym), "Specified explicitly"
            elif sym in bound:
                want, by, at = bound[sym]
                where = f"Specified by tensor {by} dimension {at}"
            else:
                bound[sym] = (size, _described(t), dim)
                continue
            if size != want:
                raise ValueError(f"{pre}{where}.  Tensor {_described(t)} dimension {dim} must have "
                                 f"size {want}.  Received size {size}, shape {tuple(t.shape)}")


def check_numerics(tensor: Any, message: str, name: str | None = None) -> Tensor:
    """``tensor`` itself (a new tensor, on the tape) if it holds no NaN or infinity; else
    InvalidArgumentError ``"<message> : Tensor had NaN values"`` (or Inf, or Inf and NaN).

    >>> import tapegrad as tf
    >>> tf.debugging.check_numerics(tf.constant([1.0]) / 0.0, "after division")
    Traceback (most recent call last):
        ...
    tapegrad.errors.InvalidArgumentError: after division : Tensor had Inf values
    """
    t = convert_to_tensor(tensor)
    if not (t.dtype.is_floating or t.dtype.is_complex):
        raise TypeError(f"check_numerics needs a floating-point or complex tensor; got {t.dtype!r}.")
    if _trace.stripping_debug():  # (Grappler's debug_stripper removes the check from the graph)
        return identity(tensor)
    v = np.asarray(t.numpy())
    nan, inf = bool(np.isnan(v).any()), bool(np.isinf(v).any())
    if nan or inf:
        what = "Inf and NaN" if nan and inf else "NaN" if nan else "Inf"
        raise InvalidArgumentError(f"{message} : Tensor had {what} values")
    return identity(tensor)


def assert_all_finite(x: Any, message: str, name: str | None = None) -> Tensor:
    """Same as :func:`check_numerics` (TensorFlow's ``tf.debugging.assert_all_finite``)."""
    return check_numerics(x, message)


def is_numeric_tensor(tensor: Any) -> bool:
    """Whether ``tensor`` is a tensor of numbers (not bool or string).

    >>> import tapegrad as tf
    >>> tf.debugging.is_numeric_tensor(tf.constant(1.0)), tf.debugging.is_numeric_tensor(1.0)
    (True, False)
    """
    if not isinstance(tensor, (Tensor, VariableBase)):
        return False
    d = tensor.dtype
    return bool(d.is_floating or d.is_integer or d.is_complex)


def Assert(condition: Any, data: Any, summarize: int | None = None,  # noqa: N802  (TF's name)
           name: str | None = None) -> None:
    """Raise InvalidArgumentError showing ``data`` (the first ``summarize`` (3) elements of
    each tensor) unless ``condition`` is true.

    >>> import tapegrad as tf
    >>> tf.debugging.Assert(tf.constant(False), ["x is", tf.constant([1, 2])])
    Traceback (most recent call last):
        ...
    tapegrad.errors.InvalidArgumentError: Expected 'False' to be true. Summarized data: x is
    1, 2
    """
    c = condition.numpy() if isinstance(condition, (Tensor, VariableBase)) else condition
    if np.ndim(c) != 0 or np.asarray(c).dtype != np.bool_:
        raise ValueError(f"Assert's condition must be a scalar boolean; got {condition!r}.")
    if bool(c):
        return
    s = 3 if summarize is None else summarize
    shown = [", ".join(str(v) for v in np.asarray(d.numpy()).reshape(-1)[:s])
             if isinstance(d, (Tensor, VariableBase)) else str(d) for d in data]
    raise InvalidArgumentError("Expected 'False' to be true. Summarized data: " + "\n".join(shown))


_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"
_VARIABLE_OPS = {"assign": "AssignVariableOp", "assign_add": "AssignAddVariableOp",
                 "assign_sub": "AssignSubVariableOp"}


class _PlacementLog(_rec.Recorder):
    """The recorder behind :func:`set_log_device_placement`: a line per op to stderr."""

    __slots__ = ()

    def _line(self, name: str, out: Any) -> None:
        if not _LOG or _LOG[0] is not self:  # (turned off from another thread)
            return
        device = getattr(out, "device", _CPU) if isinstance(out, Tensor) else _CPU
        print(f"Executing op {name} in device {device}", file=sys.stderr)

    def record(self, op: Any, xs: Any, p: dict, ans: Any, k: int) -> None:
        self._line(op.name, ans[0] if type(ans) is tuple else ans)

    def on_nondiff(self, op: Any, xs: Any, outs: tuple, p: Any = None) -> None:
        self._line(op.name, outs[0] if outs else None)

    def on_variable_create(self, v: Any) -> None:
        self._line("VarHandleOp", None)

    def on_variable_assign(self, v: Any, how: str = "", value: Any = None) -> None:
        self._line(_VARIABLE_OPS.get(how, "AssignVariableOp"), None)


_LOG: list = []  # the placement log, while on, and the thread that turned it on


def set_log_device_placement(enabled: bool) -> None:
    """Turn device-placement logging on or off (TensorFlow's ``tf.debugging.set_log_device_placement``).

    While on, every op that runs eagerly in the thread that turned it on writes
    ``Executing op <TF op name> in device <device>`` to stderr, as TensorFlow's eager executor
    logs (without its log prefix, and without the placer's lines for the functions TensorFlow
    builds around ops): the device is where the output lives (the CPU, or a GPU through CuPy).
    Variables' creation and updates log ``VarHandleOp`` and ``AssignVariableOp`` (or
    ``AssignAddVariableOp``, ``AssignSubVariableOp``). ``tf.constant`` runs no op here, so it logs
    nothing (TensorFlow logs ``_EagerConst``).

    >>> import tapegrad as tf
    >>> tf.debugging.set_log_device_placement(True)
    >>> tf.debugging.get_log_device_placement()
    True
    >>> tf.debugging.set_log_device_placement(False)
    """
    on = bool(enabled)
    if on == bool(_LOG):
        return
    if on:
        log = _PlacementLog()
        _rec.push(log, 0)
        _LOG[:] = [log, threading.current_thread()]
        return
    log, thread = _LOG
    _LOG.clear()
    if thread is threading.current_thread():  # (else it stays, silent, in its thread's stack)
        _rec.pop(log)


def get_log_device_placement() -> bool:
    """Whether device-placement logging is on (:func:`set_log_device_placement`).

    >>> import tapegrad as tf
    >>> tf.debugging.get_log_device_placement()
    False
    """
    return bool(_LOG)


def _dtype_text(d: Any) -> str:
    return f"<dtype: '{d.name}'>"


def _msg(message: str | None) -> str:
    return f"{message}.  " if message else ""


def assert_integer(x: Any, message: str | None = None, name: str | None = None) -> None:
    """Raise TypeError unless ``x`` has an integer dtype.

    >>> import tapegrad as tf
    >>> tf.debugging.assert_integer(tf.constant([1, 2]))
    """
    d = x.dtype if isinstance(x, VariableBase) else convert_to_tensor(x).dtype
    if not d.is_integer:
        raise TypeError(f'{_msg(message)}Expected "x" to be integer type.  Found: tensor of dtype {_dtype_text(d)}')


def assert_scalar(tensor: Any, message: str | None = None, name: str | None = None) -> Tensor | None:
    """Raise ValueError unless ``tensor`` is a scalar; returns None eagerly, and the tensor in a
    ``tf.function`` (as TensorFlow's).

    >>> import tapegrad as tf
    >>> tf.debugging.assert_scalar(tf.constant(1.0))
    """
    t = convert_to_tensor(tensor)
    if t.shape.rank != 0:
        raise ValueError(f"{_msg(message)}Expected scalar shape, saw shape: {tuple(t.shape)}.")
    return None if _trace.current() is None else t


def assert_rank_in(x: Any, ranks: Any, message: str | None = None, name: str | None = None) -> None:
    """Raise ValueError unless ``x``'s rank is one of ``ranks``.

    >>> import tapegrad as tf
    >>> tf.debugging.assert_rank_in(tf.zeros([2]), [1, 2])
    """
    x, r = _rank(x)
    ranks = tuple(int(k) for k in ranks)
    if r not in ranks:
        raise ValueError(f"{_msg(message)}Tensor  must have rank in {ranks}.  Received rank {r}, "
                         f"shape {tuple(x.shape)}")


def assert_same_float_dtype(tensors: Any = None, dtype: Any = None) -> Any:
    """The one floating dtype of ``tensors`` (and of ``dtype``, when given; float32 when neither
    says); ValueError if they disagree or it is not floating.

    >>> import tapegrad as tf
    >>> tf.debugging.assert_same_float_dtype([tf.constant(1.0), tf.constant(2.0)])
    tf.float32
    """
    if tensors:
        ts = [t if isinstance(t, (Tensor, VariableBase)) else convert_to_tensor(t) for t in tensors]
        first = ts[0]
        want = _dt.as_dtype(dtype) if dtype else first.dtype
        for t in ts:
            if t.dtype != want:
                raise ValueError(f"{t!s}, type={_dtype_text(t.dtype)}, must be of the same type "
                                 f"({_dtype_text(want)})" + ("" if dtype else f" as {first!s}") + ".")
        dtype = want
    if not dtype:
        return _dt.float32
    dtype = _dt.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"Expected floating point type, got {_dtype_text(dtype)}.")
    return dtype


def assert_proper_iterable(values: Any) -> None:
    """Raise TypeError unless ``values`` is an iterable other than a tensor, an ndarray, str or bytes.

    >>> import tapegrad as tf
    >>> tf.debugging.assert_proper_iterable([1, 2])
    """
    if isinstance(values, (Tensor, VariableBase, np.ndarray, str, bytes)):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable.  Found: {type(values)}')
    if not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')


# ---- check numerics on every op -------------------------------------------------------------------

class _NumericsCheck(_rec.Recorder):
    """The recorder behind :func:`enable_check_numerics`: a floating output of any op holding
    NaN or an infinity raises InvalidArgumentError naming the op."""

    __slots__ = ()

    def _check(self, op: Any, xs: Any, outs: Any) -> None:
        if not _NUMERICS or _NUMERICS[0] is not self:
            return
        outs = outs if type(outs) is tuple else (outs,)
        for i, out in enumerate(outs):
            v = getattr(out, "_value", None)
            if not isinstance(v, np.ndarray | np.generic) or v.dtype.kind not in "fc":
                continue
            nan, pos, neg = np.isnan(v), np.isposinf(v.real), np.isneginf(v.real)
            if not (nan.any() or pos.any() or neg.any()):
                continue
            raise InvalidArgumentError(_numerics_message(op.name, i, len(outs), out, xs,
                                                         int(nan.sum()), int(pos.sum()), int(neg.sum())))

    def record(self, op: Any, xs: Any, p: dict, ans: Any, k: int) -> None:
        self._check(op, xs, ans)

    def on_nondiff(self, op: Any, xs: Any, outs: tuple, p: Any = None) -> None:
        self._check(op, xs, outs)


def _numerics_message(opname: str, i: int, n: int, out: Any, xs: Any, nan: int, pos: int, neg: int) -> str:
    lines = ["", "", f'!!! Detected Infinity or NaN in output {i} of eagerly-executing op "{opname}" '
             f"(# of outputs: {n}) !!!", f"  dtype: {_dtype_text(out.dtype)}", f"  shape: {tuple(out.shape)}"]
    lines += [f"  # of {w} elements: {c}" for w, c in (("-Inf", neg), ("+Inf", pos), ("+NaN", nan)) if c]
    xs = [x for x in (xs or ()) if isinstance(x, Tensor)]
    lines.append("")
    if len(xs) == 1:
        lines.append(f"  Input tensor: {xs[0]!s}")
    elif xs:
        lines.append(f"  Input tensors ({len(xs)}):")
        lines += [f"         {j}: {x!s}" for j, x in enumerate(xs)]
    kinds = [w for w, c in (("-Inf", neg), ("+Inf", pos), ("NaN", nan)) if c]
    what = kinds[0] if len(kinds) == 1 else " and ".join(kinds) if len(kinds) == 2 else "-Inf, +Inf, and NaN"
    return "\n".join(lines) + f"\n\n : Tensor had {what} values"


_NUMERICS: list = []  # the check, while on, and the thread that turned it on


def enable_check_numerics(stack_height_limit: int = 30, path_length_limit: int = 50) -> None:
    """Check every op's floating outputs for NaN and infinities: one that has them raises
    InvalidArgumentError naming the op and counting them, as TensorFlow's. Applies to ops run
    in the calling thread until :func:`disable_check_numerics`; a ``tf.function`` runs its ops
    one by one while it is on. (The limits shape TF's stack trace in the message; unused.)

    >>> import tapegrad as tf
    >>> tf.debugging.enable_check_numerics()
    >>> try:
    ...     tf.math.log(tf.constant([-1.0]))
    ... except tf.errors.InvalidArgumentError as e:
    ...     print(str(e).splitlines()[2])
    !!! Detected Infinity or NaN in output 0 of eagerly-executing op "Log" (# of outputs: 1) !!!
    >>> tf.debugging.disable_check_numerics()
    """
    if _NUMERICS:
        return
    check = _NumericsCheck()
    _rec.push(check, 0)
    _NUMERICS[:] = [check, threading.current_thread()]


def disable_check_numerics() -> None:
    """Turn off :func:`enable_check_numerics` (nothing if it is off).

    >>> import tapegrad as tf
    >>> tf.debugging.disable_check_numerics()
    """
    if not _NUMERICS:
        return
    check, thread = _NUMERICS
    _NUMERICS.clear()
    if thread is threading.current_thread():  # (else it stays, silent, in its thread's stack)
        _rec.pop(check)
