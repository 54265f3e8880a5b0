"""NumPy's dtype promotion in tensor operators: what ``tnp.experimental_enable_numpy_behavior()``
turns on (TensorFlow's "legacy" dtype conversion mode, ``maybe_promote_tensors``).

With it on, ``x + y`` (and ``- * / // % ** @ & | ^ < <= > >= == !=``, either side a tensor) first
casts both operands to ``np.result_type`` of them: a tensor or NumPy array counts by its dtype, a
Python scalar adapts to it (NumPy 2), a list's items count one by one; with ``prefer_float32`` a
Python float counts as float32 and a complex as complex64. The ``tf.*`` functions (``tf.add``)
keep TensorFlow's strict rules, as in TensorFlow. Off (the default), the operators are the plain
ones and cost nothing more. A NumPy array or scalar on the left (``array + tensor``) reaches the
same promotion through the tensors' ``__array_ufunc__``. The modes "safe" and "all" (TensorFlow's
auto dtype conversion, with weak tensors) are ``_promotion``'s.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from . import _promotion
from .. import _numpy_interop, nest
from .._convert import convert_to_tensor
from .._tensor import Tensor, constant_maker
from .._variable import Variable
from ..ops import math as _m

MODES = ("off", "legacy", "safe", "all")
_state = {"mode": "off", "prefer_float32": False}


def mode() -> str:
    """The dtype conversion mode of the tensor operators: ``"off"`` (TensorFlow's strict rules),
    ``"legacy"`` (NumPy's promotion), ``"safe"`` or ``"all"`` (TensorFlow's lattice, with weak
    tensors: ``_promotion``)."""
    return _state["mode"]


def auto() -> bool:
    """Whether TensorFlow's auto dtype conversion ("safe" or "all": WeakTensor) is on."""
    return _state["mode"] in ("safe", "all")


def prefer_float32() -> bool:
    """Whether tnp infers float32 (not NumPy's float64) for Python floats."""
    return _state["prefer_float32"]


def weak_part(x: Any) -> Any:
    """What ``x`` counts as in ``np.result_type``."""
    if isinstance(x, (Tensor, Variable)):
        return x.dtype._np
    if _state["prefer_float32"] and isinstance(x, (float, complex)):  # (np.float64 is a float)
        return np.complex64(x) if isinstance(x, complex) else np.float32(x)
    return x


def result_dtype(*operands: Any) -> np.dtype:
    """NumPy's result dtype of the operands (nests flattened), as the operators promote them."""
    parts = [weak_part(x) for x in nest.flatten(list(operands))]
    try:
        return np.result_type(*parts)
    except TypeError as e:
        raise TypeError(f"NumPy-style promotion found no common dtype for {parts}: {e}") from None


@constant_maker  # (Python numbers and the caller's NumPy arrays: constants, as TF captures them)
def promote(*operands: Any) -> list:
    """The operands as tensors of their NumPy result dtype."""
    dt = result_dtype(*operands)
    out = []
    for x in operands:
        if isinstance(x, Variable):
            x = x._read()
        if isinstance(x, Tensor):
            out.append(x if x.dtype._np == dt else _m.cast(x, dt))
        else:
            out.append(convert_to_tensor(np.asarray(x, dt)))
    return out


def _forward(fn: Callable, name: str) -> Callable:
    def op(x: Any, y: Any) -> Any:
        try:
            a, b = promote(x, y)
            return fn(a, b)
        except (TypeError, ValueError) as e:  # (TF's binary_op_wrapper: then y's reflected operator)
            r = getattr(type(y), f"__r{name}__", None)
            if r is None or isinstance(y, (Tensor, Variable)):
                raise
            try:
                out = r(y, x)
            except (TypeError, ValueError):
                raise e from None
            if out is NotImplemented:
                raise
            return out
    return op


def _reflected(fn: Callable) -> Callable:
    return lambda self, other: fn(*promote(other, self))


def _compare(fn: Callable) -> Callable:
    return lambda x, y: fn(*promote(x, y))


def _equality(fn: Callable, none: bool) -> Callable:
    def op(x: Any, y: Any) -> Any:
        if y is None:
            return none
        return fn(*promote(x, y))
    return op


_BINARY = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor")
_COMPARE = ("lt", "le", "gt", "ge")


def set_mode(dtype_conversion_mode: str, prefer_float32: bool, operators: dict, classes: tuple) -> None:
    """Switch the operators of ``classes`` between ``operators`` (TensorFlow's strict ones) and
    their NumPy-promoting forms."""
    if dtype_conversion_mode not in MODES:
        raise ValueError(f"The provided promotion mode {dtype_conversion_mode} does not exist: "
                         f"dtype_conversion_mode must be one of {MODES}.")
    _state["mode"], _state["prefer_float32"] = dtype_conversion_mode, bool(prefer_float32)
    table = dict(operators)
    if dtype_conversion_mode == "legacy":
        for n in _BINARY:
            table[f"__{n}__"] = _forward(operators[f"__{n}__"], n)
            table[f"__r{n}__"] = _reflected(lambda a, b, f=operators[f"__{n}__"]: f(a, b))
        for n in _COMPARE:
            table[f"__{n}__"] = _compare(operators[f"__{n}__"])
        table["__eq__"] = _equality(operators["__eq__"], False)
        table["__ne__"] = _equality(operators["__ne__"], True)
    _numpy_interop.promote = promote if dtype_conversion_mode == "legacy" else None
    if dtype_conversion_mode in ("safe", "all"):
        table.update(_promotion.enable(dtype_conversion_mode, operators))
    else:
        _promotion.disable()
    for cls in classes:
        for k, v in table.items():
            if k != "__getitem__" or cls is Tensor:
                setattr(cls, k, v)
