"""Elementwise math: arithmetic, powers, exponentials, trigonometry, comparisons, logic, casts,
complex parts, cumulative sums and products, ``add_n``, ``polyval``, and clipping by value and by
norm (``clip_by_value``, ``clip_by_norm``, ``clip_by_global_norm``).

Each op is declared once (``defop``) with its rules beside it; the public function below the
declaration converts arguments and applies it. Rules are written with tapegrad ops so that
nested tapes differentiate them. A rule receives the cotangent ``g`` of the output; in a
Jacobian walk ``g`` has extra leading axes, which elementwise rules broadcast over.
IEEE results (inf, nan) come without NumPy's RuntimeWarnings, as in TF: tapegrad/__init__.py
filters the RuntimeWarnings raised from tapegrad's modules (np.errstate costs ~3 µs a call).
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from typing import Any, Sequence

import numpy as np

from .. import _backend as _bk, _strings, _tensor, _trace, _vmap, dtypes as _dt
from .._convert import as_tensor, binary_operands, check_values, convert_to_tensor
from .._dispatch import (_KIND_NAMES, apply, binary, composite_api, composite_binary, composite_call, defop,
                         jointly, unary)
from .._tensor import CompositeConversionError, CompositeTensor, IndexedSlices, Tensor, constant_maker, wrap as _wrap
from .._variable import Variable
from ..errors import InternalError, InvalidArgumentError, UnimplementedError
from .array import _err, norm_axes, norm_axis

__all__ = ["add", "subtract", "multiply", "truediv", "divide", "floordiv", "floor_div", "mod",
    "floormod", "truncatemod", "pow", "negative", "neg", "abs", "sign", "square", "multiply_no_nan",
    "sqrt", "rsqrt", "exp", "log", "log1p", "expm1", "sin", "cos", "tan", "tanh", "sigmoid",
    "reciprocal", "inv", "maximum", "minimum", "where", "clip_by_value", "complex_", "real", "imag",
    "conj", "cast", "saturate_cast", "equal", "not_equal", "less", "less_equal", "greater",
    "greater_equal", "logical_and", "logical_or", "logical_xor", "logical_not", "zeros_like",
    "ones_like", "cumsum", "cumprod", "clip_by_norm", "clip_by_global_norm", "add_n", "polyval",
    "scalar_mul", "realdiv", "truncatediv"]


def _check_kind(x: Tensor, kinds: str, opname: str) -> None:
    if x._value.dtype.kind not in kinds:
        raise _dt_error(opname, x, ", ".join(_KIND_NAMES[k] for k in kinds))


def _dt_error(opname: str, x: Tensor, allowed: str) -> Exception:
    return InvalidArgumentError(f"{opname} does not accept a {x.dtype.name} tensor "
                                f"(allowed: {allowed}). Cast it first, e.g. tf.cast(x, tf.float32).")


_unary = unary


_binary = binary


# --------------------------------------------------------------------------- arithmetic
_add = defop("AddV2", np.add, kinds="fciu", vjp=(lambda g, ans, x, y: g, lambda g, ans, x, y: g),
             jvp="linear", broadcast=True)
_string_add = defop("StringAdd", lambda x, y: _strings.held(np.add(x, y)), nondiff=True)
_vmap.register(_string_add, _vmap.broadcasting)
_sub = defop("Sub", np.subtract, kinds="fciu", vjp=(lambda g, ans, x, y: g, lambda g, ans, x, y: -g),
             jvp="linear", broadcast=True)
_mul = defop("Mul", np.multiply, kinds="fciu", deriv=(lambda ans, x, y: y, lambda ans, x, y: x), broadcast=True)


_div = defop("RealDiv", np.true_divide, kinds="fciu", broadcast=True,
             vjp=(lambda g, ans, x, y: g / conj(y), lambda g, ans, x, y: -g * conj(ans / y)),
             jvp=(lambda t, ans, x, y: t / y, lambda t, ans, x, y: -ans * t / y))


def _int_div(fn: Any) -> Any:
    """``fn`` that raises, as TF does, on an integer division by zero (NumPy returns 0)."""
    def f(x: Any, y: Any) -> Any:
        if np.asarray(y).dtype.kind in "iu" and not np.all(y):
            raise InvalidArgumentError("Integer division by zero")
        return fn(x, y)
    return f


_floordiv = defop("FloorDiv", _int_div(np.floor_divide), nondiff=True)
_mod = defop("FloorMod", _int_div(np.mod), kinds="fiu",
             vjp=(lambda g, ans, x, y: g, lambda g, ans, x, y: -g * floordiv(x, y)),
             jvp=(lambda t, ans, x, y: t, lambda t, ans, x, y: -t * floordiv(x, y)), broadcast=True)
_vmap.register(_floordiv, _vmap.broadcasting)
_bk.register(_floordiv, lambda be, x, y: be.xp.floor_divide(x, y))
_bk.register(_mod, lambda be, x, y: be.xp.remainder(x, y))


def add(x: Any, y: Any, name: Any = None) -> Tensor:
    """``x + y`` elementwise, with NumPy broadcasting.

    >>> import tapegrad as tf
    >>> tf.add(tf.constant([1.0, 2.0]), 1.0).numpy()
    array([2., 3.], dtype=float32)

    String tensors are concatenated: ``tf.add("a", tf.constant(["b", "c"]))`` is ``[b"ab", b"ac"]``.
    """
    try:
        return binary(_add, x, y)
    except InvalidArgumentError:  # (a try costs nothing until it catches)
        if isinstance(x, CompositeTensor) or isinstance(y, CompositeTensor):
            raise
        x, y = binary_operands(x, y, "AddV2")
        if x._value.dtype.kind != "O":
            raise
        return apply(_string_add, (x, y))


def subtract(x: Any, y: Any, name: Any = None) -> Tensor:
    """``x - y`` elementwise, with broadcasting."""
    return binary(_sub, x, y)


def multiply(x: Any, y: Any, name: Any = None) -> Tensor:
    """``x * y`` elementwise, with broadcasting."""
    return binary(_mul, x, y)


def _int_to_float(x: Tensor) -> Tensor:
    k = x._value.dtype
    return cast(x, _dt.float32 if k.itemsize <= 2 else _dt.float64)


def truediv(x: Any, y: Any, name: Any = None) -> Tensor:
    """``x / y``. Integer inputs are first cast to float (int8/16 to float32, int32/64 to float64),
    as TensorFlow does."""
    if type(x) is Tensor and x._value.dtype.kind in "fc":
        return binary(_div, x, y)
    try:
        x, y = binary_operands(x, y, "RealDiv")
    except CompositeConversionError:  # (a RaggedTensor operand: elementwise on its values)
        return composite_binary(truediv, x, y)
    if x._value.dtype.kind in "iub":
        if x._value.dtype.kind == "b":
            raise _dt_error("RealDiv", x, "numeric")
        x, y = _int_to_float(x), _int_to_float(y)
    return apply(_div, (x, y))


def divide(x: Any, y: Any, name: Any = None) -> Tensor:
    """``x / y`` (same as :func:`truediv`)."""
    return truediv(x, y)


def floordiv(x: Any, y: Any, name: Any = None) -> Tensor:
    """``floor(x / y)``; no gradient."""
    try:
        x, y = binary_operands(x, y, "FloorDiv")
    except CompositeConversionError:  # (a RaggedTensor operand: elementwise on its values)
        return composite_binary(floordiv, x, y)
    return apply(_floordiv, (x, y))


floor_div = floordiv


def mod(x: Any, y: Any, name: Any = None) -> Tensor:
    """Remainder of floor division (the sign follows ``y``), as ``x % y``."""
    return _binary(_mod, x, y)


floormod = mod


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def truncatemod(x: Any, y: Any, name: Any = None) -> Tensor:
    """Remainder of truncated division (C's ``fmod``: the sign follows ``x``), unlike ``mod``.

    >>> import tapegrad as tf
    >>> tf.math.truncatemod(tf.constant([-7, 7]), 3).numpy()
    array([-1,  1], dtype=int32)
    """
    x, y = binary_operands(x, y, "TruncateMod")
    return sign(x) * mod(abs(x), abs(y))


def _pow_dy(ans: Tensor, x: Tensor, y: Tensor) -> Tensor:
    # log(x) masked to 0 where x <= 0 (x == 0 for complex), taken of a safe x so that its own
    # derivative there is finite (TF's _PowGrad): second derivatives stay NaN-free
    mask = not_equal(x, 0) if x._value.dtype.kind == "c" else greater(x, 0)
    return ans * where(mask, log(where(mask, x, ones_like(x))), zeros_like(x))


_pow = defop("Pow", np.power,
             deriv=(lambda ans, x, y: y * pow(x, y - 1), _pow_dy), broadcast=True)


def pow(x: Any, y: Any, name: Any = None) -> Tensor:  # noqa: A001 (TensorFlow's name)
    """``x ** y`` elementwise. At ``x = 0`` the gradient with respect to ``y`` is 0 (TF's rule)."""
    try:
        x, y = binary_operands(x, y, "Pow")
    except CompositeConversionError:  # (a RaggedTensor operand: elementwise on its values)
        return composite_binary(pow, x, y)
    if x._value.dtype.kind in "iu":
        check_values(_check_int_pow, y)
    return apply(_pow, (x, y))


def _check_int_pow(y: np.ndarray) -> None:
    if np.any(y < 0):
        raise InvalidArgumentError("Integers to negative integer powers are not allowed [Op:Pow]. "
                                   "Use a floating dtype.")


_neg = defop("Neg", np.negative, kinds="fciu", vjp=(lambda g, ans, x: -g,), jvp="linear")
_vmap.register(_neg, _vmap.broadcasting)


def negative(x: Any, name: Any = None) -> Tensor:
    """``-x``."""
    return _unary(_neg, x)


neg = negative


def _abs_vjp(g: Any, ans: Tensor, x: Tensor) -> Tensor:
    if x._value.dtype.kind == "c":
        return complex_(g, zeros_like(g)) * sign(x)
    return g * sign(x)


def _abs_jvp(t: Any, ans: Tensor, x: Tensor) -> Tensor:
    if x._value.dtype.kind == "c":
        return real(t * conj(sign(x)))
    return t * sign(x)


_abs = defop("Abs", np.abs, kinds="fciu", vjp=(_abs_vjp,), jvp=(_abs_jvp,))
_vmap.register(_abs, _vmap.broadcasting)


def abs(x: Any, name: Any = None) -> Tensor:  # noqa: A001
    """``|x|`` elementwise (the modulus for complex input). The gradient at 0 is 0."""
    return _unary(_abs, x)


_sign = defop("Sign", np.sign, kinds="fiu", vjp=(lambda g, ans, x: zeros_like(g),),
              jvp=(lambda t, ans, x: zeros_like(ans),))
_vmap.register(_sign, _vmap.broadcasting)


def _csign(v: np.ndarray) -> np.ndarray:
    a = np.abs(v)
    return np.where(a == 0, 0, v / np.where(a == 0, 1, a)).astype(v.dtype)


_csign_op = defop("ComplexSign", _csign,
                  vjp=(lambda g, ans, x: _csign_vjp(g, ans, x),),
                  jvp=(lambda t, ans, x: _csign_jvp(t, ans, x),))
_vmap.register(_csign_op, _vmap.broadcasting)


def _csign_form(be: Any, v: Any) -> Any:
    xp = be.xp
    a = xp.astype(xp.abs(v), v.dtype)
    zero = a == 0
    return xp.where(zero, xp.zeros_like(v), v / xp.where(zero, xp.ones_like(a), a))


_bk.register(_csign_op, _csign_form)


def _as_complex(r: Tensor) -> Tensor:
    return complex_(r, zeros_like(r))


def _csign_jvp(t: Tensor, ans: Tensor, x: Tensor) -> Tensor:
    # d(z/|z|) = (dz - s Re(conj(s) dz)) / |z|
    return (t - ans * _as_complex(real(conj(ans) * t))) / _as_complex(abs(x))


def _csign_vjp(g: Tensor, ans: Tensor, x: Tensor) -> Tensor:
    return (g - ans * _as_complex(real(conj(g) * ans))) / _as_complex(abs(x))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def sign(x: Any, name: Any = None) -> Tensor:
    """-1, 0 or 1 by the sign of ``x`` (``x/|x|`` for complex). Its gradient is 0 everywhere."""
    x = as_tensor(x)
    if x._value.dtype.kind == "c":
        return apply(_csign_op, (x,))
    return _unary(_sign, x)


_square = defop("Square", np.square, kinds="fciu", deriv=(lambda ans, x: 2 * x,))


def square(x: Any, name: Any = None) -> Tensor:
    """``x * x``."""
    return _unary(_square, x)


_mul_no_nan = defop("MulNoNan", lambda x, y: np.where(y == 0, np.zeros((), np.result_type(x, y)), x * y),
                    kinds="fc", broadcast=True,
                    vjp=(lambda g, ans, x, y: multiply_no_nan(g, conj(y)),
                         lambda g, ans, x, y: multiply_no_nan(conj(x), g)),
                    jvp=(lambda t, ans, x, y: multiply_no_nan(t, y), lambda t, ans, x, y: multiply_no_nan(x, t)))


def _mul_no_nan_form(be: Any, x: Any, y: Any) -> Any:
    v = x * y
    return be.xp.where(y == 0, be.xp.zeros_like(v), v)


_bk.register(_mul_no_nan, _mul_no_nan_form)


def multiply_no_nan(x: Any, y: Any, name: Any = None) -> Tensor:
    """``x * y``, but 0 wherever ``y`` is 0 even if ``x`` is NaN or infinite."""
    return _binary(_mul_no_nan, x, y)


_sqrt = defop("Sqrt", np.sqrt, kinds="fc",
              vjp=(lambda g, ans, x: multiply_no_nan(conj(0.5 / ans), g),),
              jvp=(lambda t, ans, x: t * (0.5 / ans),))
_vmap.register(_sqrt, _vmap.broadcasting)


def sqrt(x: Any, name: Any = None) -> Tensor:
    """Square root. Its gradient at 0 is ``inf`` (and 0 where the upstream gradient is 0)."""
    return _unary(_sqrt, x)


# Rsqrt and Reciprocal, like Sqrt, give 0 where the cotangent (or tangent) is 0 even where the
# derivative is infinite or NaN (TF's RsqrtGrad and ReciprocalGrad kernels): tf.where(x > 0, 1 / x, 0)
# has gradient 0 at 0, and so have second derivatives of log, log1p, atanh, asin, acos there.
_rsqrt = defop("Rsqrt", lambda x: 1 / np.sqrt(x), kinds="fc",
               vjp=(lambda g, ans, x: multiply_no_nan(conj(-0.5 * ans * ans * ans), g),),
               jvp=(lambda t, ans, x: multiply_no_nan(-0.5 * ans * ans * ans, t),))
_vmap.register(_rsqrt, _vmap.broadcasting)
_bk.register(_rsqrt, lambda be, x: 1 / be.xp.sqrt(x))


def rsqrt(x: Any, name: Any = None) -> Tensor:
    """``1 / sqrt(x)``."""
    return _unary(_rsqrt, x)


_exp = defop("Exp", np.exp, kinds="fc", deriv=(lambda ans, x: ans,))
_log = defop("Log", np.log, kinds="fc", deriv=(lambda ans, x: reciprocal(x),))
_log1p = defop("Log1p", np.log1p, kinds="fc", deriv=(lambda ans, x: reciprocal(1 + x),))
_expm1 = defop("Expm1", np.expm1, kinds="fc", deriv=(lambda ans, x: ans + 1,))


def exp(x: Any, name: Any = None) -> Tensor:
    """``e ** x``."""
    return _unary(_exp, x)


def log(x: Any, name: Any = None) -> Tensor:
    """Natural logarithm (``-inf`` at 0, NaN below 0, as in TensorFlow)."""
    return _unary(_log, x)


def log1p(x: Any, name: Any = None) -> Tensor:
    """``log(1 + x)``, accurate for small ``x``."""
    return _unary(_log1p, x)


def expm1(x: Any, name: Any = None) -> Tensor:
    """``exp(x) - 1``, accurate for small ``x``."""
    return _unary(_expm1, x)


_sin = defop("Sin", np.sin, kinds="fc", deriv=(lambda ans, x: cos(x),))
_cos = defop("Cos", np.cos, kinds="fc", deriv=(lambda ans, x: -sin(x),))
_tan = defop("Tan", np.tan, kinds="fc", deriv=(lambda ans, x: 1 + ans * ans,))
_tanh = defop("Tanh", np.tanh, kinds="fc", deriv=(lambda ans, x: 1 - ans * ans,))


def _sigmoid_fwd(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "c":
        return 1 / (1 + np.exp(-x))
    if x.dtype == np.float32 or x.dtype == np.float64:
        # TF's kernel (Eigen's logistic): e / (1 + e) with e = exp(x), in four passes and two
        # arrays. Above 20 (float32) or 40 (float64) that is exactly 1, so x is clamped there,
        # before exp overflows (NaN stays NaN).
        e = np.minimum(x, x.dtype.type(20 if x.dtype == np.float32 else 40),
                       out=np.empty(x.shape, x.dtype))
        np.exp(e, out=e)
        return np.divide(e, e + x.dtype.type(1), out=e)
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)


def _sigmoid_vjp(g: Tensor, ans: Tensor, x: Tensor) -> Tensor:
    c = conj(ans)
    return g * c * (1 - c)   # (TF's SigmoidGrad order: dy * y * (1 - y))


_sigmoid = defop("Sigmoid", _sigmoid_fwd, kinds="fc", vjp=(_sigmoid_vjp,),
                 jvp=(lambda t, ans, x: t * (ans * (1 - ans)),))
_vmap.register(_sigmoid, _vmap.broadcasting)
_bk.register(_sigmoid, lambda be, x: 1 / (1 + be.xp.exp(-x)))


def sin(x: Any, name: Any = None) -> Tensor:
    """Sine."""
    return _unary(_sin, x)


def cos(x: Any, name: Any = None) -> Tensor:
    """Cosine."""
    return _unary(_cos, x)


def tan(x: Any, name: Any = None) -> Tensor:
    """Tangent."""
    return _unary(_tan, x)


def tanh(x: Any, name: Any = None) -> Tensor:
    """Hyperbolic tangent."""
    return _unary(_tanh, x)


def sigmoid(x: Any, name: Any = None) -> Tensor:
    """``1 / (1 + exp(-x))``, computed without overflow."""
    return _unary(_sigmoid, x)


_reciprocal = defop("Reciprocal", np.reciprocal, kinds="fc",  # zero cotangent: 0, as Rsqrt above
                    vjp=(lambda g, ans, x: multiply_no_nan(conj(-ans * ans), g),),
                    jvp=(lambda t, ans, x: multiply_no_nan(-ans * ans, t),))
_vmap.register(_reciprocal, _vmap.broadcasting)


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def reciprocal(x: Any, name: Any = None) -> Tensor:
    """``1 / x``."""
    x = as_tensor(x)
    if x._value.dtype.kind in "iu":
        return apply(_floordiv, (_wrap(x._value.dtype.type(1)), x))
    return _unary(_reciprocal, x)


inv = reciprocal


def _minmax(name: str, fwd: Any, x_wins: Any) -> Any:
    """Maximum or Minimum: ``x_wins(x, y)`` is where the result is ``x`` (a tie goes to ``x``)."""
    return defop(name, fwd, kinds="fciu", broadcast=True,
                 vjp=(lambda g, ans, x, y: where(x_wins(x, y), g, zeros_like(g)),
                      lambda g, ans, x, y: where(x_wins(x, y), zeros_like(g), g)),
                 jvp=(lambda t, ans, x, y: where(x_wins(x, y), t, zeros_like(ans)),
                      lambda t, ans, x, y: where(x_wins(x, y), zeros_like(ans), t)))


_maximum = _minmax("Maximum", np.maximum, lambda x, y: greater_equal(x, y))
_minimum = _minmax("Minimum", np.minimum, lambda x, y: less_equal(x, y))


def maximum(x: Any, y: Any, name: Any = None) -> Tensor:
    """Elementwise maximum; at a tie the whole gradient goes to ``x`` (TensorFlow's rule)."""
    return _binary(_maximum, x, y)


def minimum(x: Any, y: Any, name: Any = None) -> Tensor:
    """Elementwise minimum; at a tie the whole gradient goes to ``x``."""
    return _binary(_minimum, x, y)


# --------------------------------------------------------------------------- select
_where = defop("SelectV2", np.where, broadcast=True,
               vjp=(None, lambda g, ans, c, x, y: where(c, g, zeros_like(g)),
                    lambda g, ans, c, x, y: where(c, zeros_like(g), g)),
               jvp=(None, lambda t, ans, c, x, y: where(c, t, zeros_like(ans)),
                    lambda t, ans, c, x, y: where(c, zeros_like(ans), t)))
_bk.register(_where, lambda be, c, x, y: be.xp.where(c, x, y))


_argwhere = defop("Where", lambda c: np.argwhere(c).astype(np.int64), nondiff=True)
_trace.value_shaped(_argwhere)
_bk.register(_argwhere, lambda be, c: (  # (np.argwhere on Dask, CuPy)
    NotImplemented if be.numpy_api or not c.ndim else
    be.xp.astype(be.xp.stack(be.xp.nonzero(c), axis=-1), be.dtype(np.dtype(np.int64)))))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def where(condition: Any, x: Any = None, y: Any = None, name: Any = None) -> Tensor:
    """Choose ``x`` where ``condition`` is true and ``y`` elsewhere (all three broadcast).

    With only ``condition``, returns the coordinates of its true entries (int64, ``[n, rank]``).
    Note the classic trap: the gradient of the branch that was *not* chosen is multiplied by 0,
    and ``0 * inf = nan``; guard the input of the unsafe branch too (see the docs).
    """
    c = as_tensor(condition)
    if x is None and y is None:
        if c._value.dtype.kind == "O":
            raise InvalidArgumentError("Where does not accept a string condition: compare it "
                                       "first, e.g. tf.where(x != \"\"). [Op:Where]")
        if c._value.ndim == 0:
            raise InvalidArgumentError("WhereOp : Unhandled input dimensions: 0 (where "
                                       "with one argument needs a condition with at least one axis)")
        return apply(_argwhere, (c,))
    if x is None or y is None:
        raise ValueError("where: give both x and y, or neither.")
    if c._value.dtype.kind != "b":
        raise TypeError(f"where: condition must be a bool tensor, got {c.dtype.name}.")
    x, y = binary_operands(x, y, "SelectV2")
    return apply(_where, (c, x, y))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def clip_by_value(t: Any, clip_value_min: Any, clip_value_max: Any, name: Any = None) -> Tensor:
    """Clip ``t`` to ``[clip_value_min, clip_value_max]``.

    The gradient is 1 inside the interval *including* its ends, 0 outside (as in TensorFlow).
    """
    t = as_tensor(t)
    return maximum(minimum(t, clip_value_max), clip_value_min)


# --------------------------------------------------------------------------- complex parts
def _complex_fwd(re: np.ndarray, im: np.ndarray) -> np.ndarray:
    dt = np.complex64 if np.result_type(re, im) == np.float32 else np.complex128
    return (np.asarray(re) + 1j * np.asarray(im)).astype(dt)


_complex = defop("Complex", _complex_fwd,
                 vjp=(lambda g, ans, x, y: real(g), lambda g, ans, x, y: imag(g)),
                 jvp=(lambda t, ans, x, y: complex_(t, zeros_like(y)), lambda t, ans, x, y: complex_(zeros_like(x), t)),
                 broadcast=True)
def _complex_form(be: Any, re: Any, im: Any) -> Any:
    xp = be.xp
    single = np.result_type(be.np_dtype(re.dtype), be.np_dtype(im.dtype)) == np.float32
    c = be.dtype(np.dtype(np.complex64 if single else np.complex128))
    return xp.astype(re, c) + xp.astype(im, c) * 1j


_bk.register(_complex, _complex_form)
_real = defop("Real", np.real, vjp=(lambda g, ans, x: complex_(g, zeros_like(g)),), jvp="linear")
_imag = defop("Imag", np.imag, vjp=(lambda g, ans, x: complex_(zeros_like(g), g),), jvp="linear")
_conj = defop("Conj", np.conj, vjp=(lambda g, ans, x: conj(g),), jvp="linear")
_vmap.register(_real, _vmap.broadcasting)
_vmap.register(_imag, _vmap.broadcasting)
_vmap.register(_conj, _vmap.broadcasting)
_bk.register(_real, lambda be, x: be.xp.real(x))
_bk.register(_imag, lambda be, x: be.xp.imag(x))
_bk.register(_conj, lambda be, x: be.xp.conj(x))


def complex_(real: Any, imag: Any, name: Any = None) -> Tensor:
    """``real + 1j * imag`` (float32 parts give complex64, float64 parts complex128)."""
    x, y = binary_operands(real, imag, "Complex")
    _check_kind(x, "f", "Complex")
    return apply(_complex, (x, y))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def real(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Real part (identity for real tensors)."""
    x = as_tensor(input)
    if x._value.dtype.kind != "c":
        if x._value.dtype.kind == "O":
            raise TypeError("tf.math.real: a string tensor has no real part.")
        return x
    return apply(_real, (x,))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def imag(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Imaginary part (zeros for real tensors)."""
    x = as_tensor(input)
    if x._value.dtype.kind != "c":
        return zeros_like(x)
    return apply(_imag, (x,))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def conj(x: Any, name: Any = None) -> Tensor:
    """Complex conjugate (identity for real tensors)."""
    x = as_tensor(x)
    if x._value.dtype.kind != "c":
        if x._value.dtype.kind == "O":
            raise TypeError("tf.math.conj: a string tensor has no conjugate.")
        return x
    return apply(_conj, (x,))


# --------------------------------------------------------------------------- cast
def _cast_vjp(g: Any, ans: Tensor, x: Tensor, dtype: Any) -> Any:
    if x._value.dtype.kind not in "fc":
        return None
    if type(g) is IndexedSlices:  # (rows stay rows: summed in the source's dtype, as in TF)
        return IndexedSlices(cast(g.values, _dt._from_np(x._value.dtype)), g.indices, g.dense_shape)
    return cast(g, _dt._from_np(x._value.dtype))


def _cast_fwd(x: np.ndarray, dtype: Any) -> np.ndarray:
    if x.dtype.kind == "c" and dtype.kind != "c":
        x = x.real
    if dtype.kind in "iu" and x.dtype.kind == "f":
        x = np.trunc(x)
    return x.astype(dtype)


_cast = defop("Cast", _cast_fwd, vjp=(_cast_vjp,), jvp="linear", slices=True)
# a cast to (or from) an integer or bool type: no derivative, but tapes still see it (diagnosis)
_cast_nondiff = defop("CastToNonFloat", _cast_fwd, nondiff=True)
_vmap.register(_cast, _vmap.broadcasting)
_vmap.register(_cast_nondiff, _vmap.broadcasting)


def _cast_form(be: Any, x: Any, dtype: Any) -> Any:
    xp = be.xp
    if xp.isdtype(x.dtype, "complex floating") and dtype.kind != "c":
        x = xp.real(x)
    if dtype.kind in "iu" and xp.isdtype(x.dtype, "real floating"):
        x = xp.trunc(x)
    return xp.astype(x, be.dtype(dtype))


_bk.register(_cast, _cast_form)
_bk.register(_cast_nondiff, _cast_form)


def cast(x: Any, dtype: Any, name: Any = None) -> Tensor:
    """Convert ``x`` to ``dtype``. Float-to-int truncates toward zero; complex-to-real keeps the real
    part. Casting between floating types is differentiable; casting to an integer type is not.
    """
    try:
        x = as_tensor(x)
    except CompositeConversionError:  # (a RaggedTensor: tapegrad/ragged/ handles it)
        return composite_call(cast, x, dtype)
    dt = _dt.as_dtype(dtype)._np
    if x._value.dtype == dt:
        return x
    if dt.kind not in "biufc" or x._value.dtype.kind not in "biufc":
        raise UnimplementedError(f"Cast {x.dtype.name} to {_dt.as_dtype(dtype).name} is "
                                             "not supported [Op:Cast]")
    if x._value.dtype.kind in "fc" and dt.kind in "fc":
        return apply(_cast, (x,), {"dtype": dt})
    return apply(_cast_nondiff, (x,), {"dtype": dt})




def saturate_cast(value: Any, dtype: Any, name: Any = None) -> Tensor:
    """Cast, clamping to the target type's range first."""
    x = as_tensor(value)
    d = _dt.as_dtype(dtype)
    if d.is_integer or d.is_floating:
        x = clip_by_value(x, x.dtype.as_numpy_dtype(max(d.min, x.dtype.min)) if x.dtype.is_numeric else 0,
                          x.dtype.as_numpy_dtype(min(d.max, x.dtype.max)))
    return cast(x, d)


# --------------------------------------------------------------------------- comparisons, logic
def _cmp(name: str, fn: Any, kinds: str | None = None) -> Any:
    op = defop(name, fn, kinds=kinds, nondiff=True)
    _vmap.register(op, _vmap.broadcasting)

    def f(x: Any, y: Any, name: Any = None) -> Tensor:
        try:
            x, y = binary_operands(x, y, op.name)
        except CompositeConversionError:  # (a RaggedTensor operand: elementwise on its values)
            return composite_binary(f, x, y)
        if op.dtypes is not None and x._value.dtype not in op.dtypes:
            _check_kind(x, op.kinds, op.name)
        return apply(op, (x, y))
    f.__name__ = name.lower()
    f.__doc__ = f"Elementwise ``{name}`` (a bool tensor; no gradient)."
    return f


equal = _cmp("Equal", np.equal)
not_equal = _cmp("NotEqual", np.not_equal)
less = _cmp("Less", np.less, "biufc")
less_equal = _cmp("LessEqual", np.less_equal, "biufc")
greater = _cmp("Greater", np.greater, "biufc")
greater_equal = _cmp("GreaterEqual", np.greater_equal, "biufc")
_logical_and = _cmp("LogicalAnd", np.logical_and)
_logical_or = _cmp("LogicalOr", np.logical_or)
_logical_xor = _cmp("LogicalXor", np.logical_xor)
_lnot = defop("LogicalNot", np.logical_not, kinds="b", nondiff=True)
_vmap.register(_lnot, _vmap.broadcasting)


def _bool_args(f: Any, name: str) -> Any:
    def g(x: Any, y: Any, name: Any = None) -> Tensor:
        try:
            x, y = as_tensor(x), as_tensor(y)
        except CompositeConversionError:  # (a RaggedTensor operand: elementwise on its values)
            return composite_binary(g, x, y)
        for t in (x, y):
            if t._value.dtype.kind != "b":
                raise _dt_error(name, t, "bool")
        return f(x, y)
    g.__name__ = name
    g.__doc__ = f"Elementwise ``{name}`` of two bool tensors."
    return g


logical_and = _bool_args(_logical_and, "logical_and")
logical_or = _bool_args(_logical_or, "logical_or")
logical_xor = _bool_args(_logical_xor, "logical_xor")


def logical_not(x: Any, name: Any = None) -> Tensor:
    """Elementwise ``not`` of a bool tensor."""
    return _unary(_lnot, x)


# --------------------------------------------------------------------------- helpers used by rules
@constant_maker
def zeros_like(input: Any, dtype: Any = None, name: Any = None) -> Tensor:  # noqa: A002
    """Zeros of ``input``'s shape (and dtype unless given). Not connected to ``input`` for gradients."""
    try:
        x = as_tensor(input)
    except CompositeConversionError:  # (a RaggedTensor: tapegrad/ragged/ handles it)
        return composite_call(zeros_like, input, dtype)
    dt = x._value.dtype if dtype is None else _dt.as_dtype(dtype)._np
    v = x._value
    if _bk.seen and type(v) is _bk.Boxed:  # on x's backend and device
        return _bk.filled(v, 0, dtype=dt)
    if dt.kind == "O":
        return _wrap(_strings.empty(v.shape))
    t = _wrap(np.zeros(v.shape, dt) if v.ndim else dt.type(0))
    if _tensor.made_like is not None:
        _tensor.made_like(x, t, dt == v.dtype)
    return _bk.place(t) if _bk.placing else t


@constant_maker
def ones_like(input: Any, dtype: Any = None, name: Any = None) -> Tensor:  # noqa: A002
    """Ones of ``input``'s shape (and dtype unless given)."""
    try:
        x = as_tensor(input)
    except CompositeConversionError:  # (a RaggedTensor: tapegrad/ragged/ handles it)
        return composite_call(ones_like, input, dtype)
    dt = x._value.dtype if dtype is None else _dt.as_dtype(dtype)._np
    v = x._value
    if dt.kind == "O":
        raise InvalidArgumentError("OnesLike does not accept a string tensor (allowed: numbers "
                                   "and bool); use tf.fill(tf.shape(x), text). [Op:OnesLike]")
    if _bk.seen and type(v) is _bk.Boxed:
        return _bk.filled(v, 1, dtype=dt)
    t = _wrap(np.ones(v.shape, dt) if v.ndim else dt.type(1))
    if _tensor.made_like is not None:
        _tensor.made_like(x, t, dt == v.dtype)
    return _bk.place(t) if _bk.placing else t


# --------------------------------------------------------------------------- scans
def _cum_fwd(fn: Any) -> Any:
    def f(x: np.ndarray, axis: int, exclusive: bool, reverse: bool) -> np.ndarray:
        if reverse:
            x = np.flip(x, axis)
        r = fn(x, axis=axis, dtype=x.dtype)
        if exclusive and x.shape[axis]:   # (an empty axis has nothing to shift)
            first = (np.zeros_like if fn is np.cumsum else np.ones_like)(np.take(x, [0], axis=axis))
            r = np.concatenate([first, np.take(r, np.arange(x.shape[axis] - 1), axis=axis)], axis=axis)
        return np.flip(r, axis) if reverse else r
    return f


def _cumsum_vjp(g: Tensor, ans: Tensor, x: Tensor, axis: int, exclusive: bool, reverse: bool) -> Tensor:
    lead = g._value.ndim - ans._value.ndim
    return apply(_cumsum, (g,), {"axis": axis + lead, "exclusive": exclusive, "reverse": not reverse})


_cumsum = defop("Cumsum", _cum_fwd(np.cumsum), vjp=(_cumsum_vjp,), jvp="linear")
_vmap.register(_cumsum, _vmap.one_axis("axis"))


def _cumulative_form(name: str) -> Any:
    def form(be: Any, x: Any, axis: int, exclusive: bool, reverse: bool) -> Any:
        xp = be.xp
        if reverse:
            x = xp.flip(x, axis=axis)
        r = getattr(xp, name)(x, axis=axis, dtype=x.dtype, include_initial=exclusive)
        if exclusive:  # drop the total: keep the first n of the n + 1 partial sums (products)
            r = xp.take(r, xp.arange(x.shape[axis]), axis=axis)
        return xp.flip(r, axis=axis) if reverse else r
    return form


_bk.register(_cumsum, _cumulative_form("cumulative_sum"))


def _div_or_zero(a: Tensor, x: Tensor) -> Tensor:
    """``a / x``, 0 where ``x == 0`` (TF's div_no_nan); its derivatives stay finite there too."""
    zero = equal(x, 0)
    return where(zero, zeros_like(a), a / where(zero, ones_like(x), x))


def _cumprod_vjp(g: Tensor, ans: Tensor, x: Tensor, axis: int, exclusive: bool, reverse: bool) -> Tensor:
    # TF's rule: it divides by x, giving 0 (div_no_nan) where x == 0
    lead = g._value.ndim - ans._value.ndim
    s = apply(_cumsum, (ans * g,), {"axis": axis + lead, "exclusive": exclusive, "reverse": not reverse})
    return _div_or_zero(s, x)


_cumprod = defop("Cumprod", _cum_fwd(np.cumprod), vjp=(_cumprod_vjp,),   # JVP: the VJP transposed
                 jvp=(lambda t, ans, x, axis, exclusive, reverse: ans * apply(
                     _cumsum, (_div_or_zero(t, x),), {"axis": axis, "exclusive": exclusive, "reverse": reverse}),))
_vmap.register(_cumprod, _vmap.one_axis("axis"))
_bk.register(_cumprod, _cumulative_form("cumulative_prod"))


def _scan(op: Any, x: Any, axis: Any, exclusive: bool, reverse: bool) -> Tensor:
    x = as_tensor(x)
    _check_kind(x, "fciu", op.name)
    a = norm_axis(axis, x._value.ndim, op.name)
    return apply(op, (x,), {"axis": a, "exclusive": bool(exclusive), "reverse": bool(reverse)})


def cumsum(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False, name: Any = None) -> Tensor:
    """Running sum along ``axis``; ``exclusive`` starts from 0, ``reverse`` runs from the end.

    >>> import tapegrad as tf
    >>> tf.math.cumsum(tf.constant([1, 2, 3]), exclusive=True).numpy()
    array([0, 1, 3], dtype=int32)
    """
    return _scan(_cumsum, x, axis, exclusive, reverse)


def cumprod(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False, name: Any = None) -> Tensor:
    """Running product along ``axis`` (TF's gradient rule, which divides by ``x``)."""
    return _scan(_cumprod, x, axis, exclusive, reverse)


def _float_values(t: Any, op: str) -> Tensor:
    v = as_tensor(t.values if isinstance(t, IndexedSlices) else t)
    _check_kind(v, "f", op)
    return v


def _like(t: Any, values: Tensor) -> Any:
    return IndexedSlices(values, t.indices, t.dense_shape) if isinstance(t, IndexedSlices) else values


@constant_maker
def clip_by_norm(t: Any, clip_norm: Any, axes: Any = None, name: Any = None) -> Any:
    """Rescale ``t`` so its L2 norm over ``axes`` (all axes when None) is at most ``clip_norm``:
    ``t * clip_norm / max(norm(t), clip_norm)``.

    A negative ``clip_norm`` counts as 0. At ``t = 0`` the result and gradient are finite (the
    norm is computed safely), as in TensorFlow. An :class:`IndexedSlices` ``t`` gives an
    IndexedSlices with clipped values.

    >>> import tapegrad as tf
    >>> tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0).numpy().round(4)
    array([0.6, 0.8], dtype=float32)
    """
    from .reduction import reduce_sum
    v = _float_values(t, "clip_by_norm")
    dt = v.dtype
    if isinstance(clip_norm, (int, float, np.integer, np.floating)) and not isinstance(clip_norm, bool):
        c = _wrap(dt._np.type(max(clip_norm, 0)))
    else:
        c = cast(maximum(as_tensor(clip_norm), 0), dt)
    try:
        np.broadcast_shapes(v._value.shape, c._value.shape)
    except ValueError:
        raise _err("Mul", f"clip_norm of shape {list(c._value.shape)} does not broadcast against "
                          f"t of shape {list(v._value.shape)}") from None
    if np.broadcast_shapes(v._value.shape, c._value.shape) != v._value.shape:
        raise ValueError(f"clip_by_norm: clip_norm of shape {list(c._value.shape)} would change "
                         f"the shape of t {list(v._value.shape)}.")
    ax = None if axes is None else list(norm_axes(axes, v._value.ndim, "clip_by_norm"))
    l2sum = reduce_sum(v * v, ax, keepdims=True)
    pos = l2sum > 0
    l2norm = where(pos, sqrt(where(pos, l2sum, ones_like(l2sum))), l2sum)  # no NaN gradient at 0
    return _like(t, (v * c) / maximum(l2norm, c))


def _norm_list(t_list: Any, op: str) -> list:
    if isinstance(t_list, (str, Tensor, Variable, IndexedSlices, np.ndarray)) or not isinstance(
            t_list, Sequence):
        raise TypeError(f"{op}: t_list should be a sequence (list or tuple) of tensors, got "
                        f"{type(t_list).__name__}.")
    return [None if t is None else _float_values(t, op) for t in t_list]


@constant_maker
def clip_by_global_norm(t_list: Any, clip_norm: Any, use_norm: Any = None, name: Any = None) -> tuple:
    """Scale every tensor in ``t_list`` by ``clip_norm / max(global_norm, clip_norm)``.

    Returns ``(list_clipped, global_norm)``; None entries stay None, IndexedSlices stay
    IndexedSlices. ``use_norm`` replaces the computed global norm. If the norm is infinite or
    NaN, every clipped value is NaN (as in TensorFlow). Gradients flow through the global norm.

    >>> import tapegrad as tf
    >>> clipped, n = tf.clip_by_global_norm([tf.constant([3.0]), tf.constant([4.0])], 1.0)
    >>> [c.numpy().round(4) for c in clipped], float(n)
    ([array([0.6], dtype=float32), array([0.8], dtype=float32)], 5.0)
    """
    from .linalg import global_norm
    vals = _norm_list(t_list, "clip_by_global_norm")
    if use_norm is None:
        n = global_norm(vals)
    elif isinstance(use_norm, (Tensor, Variable)):
        n = as_tensor(use_norm)
    else:
        dts = [v.dtype for v in vals if v is not None]
        n = convert_to_tensor(use_norm, dtype=dts[0] if dts else None)
    _check_kind(n, "f", "clip_by_global_norm")
    c = binary_operands(n, clip_norm, "clip_by_global_norm")[1]
    one = _wrap(n._value.dtype.type(1))
    scale = c * minimum(one / n, one / c) + (n - n)  # NaN when the norm is inf or NaN
    out = []
    for t, v in zip(t_list, vals):
        if v is None:
            out.append(None)
            continue
        s = scale if v._value.dtype == scale._value.dtype else cast(scale, v.dtype)
        out.append(_like(t, v * s))
    return out, n


# --------------------------------------------------------------------------- add_n
_add_n = defop("AddN", lambda *xs: reduce(np.add, xs),  # variadic (*xs): one rule for all inputs
               vjp=jointly(lambda g, ans, needs, *xs: [g for _ in needs]), jvp="linear")
_vmap.register(_add_n, _vmap.leading)
_bk.register(_add_n, lambda be, *xs: sum(xs[1:], xs[0]))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def scalar_mul(scalar: Any, x: Any, name: Any = None) -> Tensor:
    """``scalar * x`` with the scalar converted to ``x``'s dtype (a non-scalar raises ValueError).

    >>> import tapegrad as tf
    >>> tf.math.scalar_mul(2, tf.constant([1.5, 2.0], tf.float64)).numpy()
    array([3., 4.])
    """
    t = as_tensor(x)
    s = convert_to_tensor(scalar, dtype=t.dtype)
    if s._value.ndim != 0:
        raise ValueError(f"Only scalar multiply works, got a scalar of shape {list(s._value.shape)}.")
    return multiply(s, t)


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def add_n(inputs: Any, name: Any = None) -> Tensor:
    """The elementwise sum of a list of tensors of one shape and dtype (no broadcasting).

    IndexedSlices entries are densified. A list of one tensor returns that tensor.

    >>> import tapegrad as tf
    >>> tf.add_n([tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]), tf.constant([5.0, 6.0])]).numpy()
    array([ 9., 12.], dtype=float32)
    """
    items = list(inputs) if isinstance(inputs, Iterable) else []
    if not items:
        raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices with the "
                         "same dtype and shape.")
    ts = [convert_to_tensor(v) if isinstance(v, IndexedSlices) else as_tensor(v) for v in items]
    if len(ts) == 1:
        return ts[0]
    d0, s0 = ts[0]._value.dtype, ts[0]._value.shape
    if d0.kind == "O":
        raise InvalidArgumentError("AddN does not accept string tensors; join them with "
                                   "tf.strings.join. [Op:AddN]")
    for i, t in enumerate(ts[1:], 1):
        if t._value.dtype != d0:
            raise InvalidArgumentError(f"cannot compute AddN as input #{i}(zero-based) was "
                                       f"expected to be a {_dt._from_np(d0).name} tensor but is a "
                                       f"{t.dtype.name} tensor [Op:AddN]")
        if t._value.shape != s0:
            raise InvalidArgumentError(f"Inputs to operation AddN must have the same size "
                                       f"and shape. Input 0: {list(s0)} != input {i}: "
                                       f"{list(t._value.shape)} (use tf.add to broadcast) [Op:AddN]")
    return apply(_add_n, ts)


# --------------------------------------------------------------------------- polyval
def polyval(coeffs: Any, x: Any, name: Any = None) -> Tensor:
    """``coeffs[0] * x**(n-1) + ... + coeffs[n-1]`` by Horner's method (``coeffs`` a list).

    Coefficients may be tensors that broadcast against ``x``; Python numbers take ``x``'s dtype.
    An empty list gives zeros shaped like ``x``.

    >>> import tapegrad as tf
    >>> tf.math.polyval([1.0, 2.0, 3.0], tf.constant([2.0])).numpy()  # x² + 2x + 3
    array([11.], dtype=float32)
    """
    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    x = as_tensor(x)
    if not coeffs:
        return zeros_like(x)
    p = coeffs[0]
    if len(coeffs) == 1:
        return binary_operands(p, x, "polyval")[0]
    for c in coeffs[1:]:
        p = add(c, multiply(p, x))
    return p


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def realdiv(x: Any, y: Any, name: Any = None) -> Tensor:
    """``x / y`` for floating or complex tensors of one dtype (TensorFlow's ``RealDiv``).

    >>> import tapegrad as tf
    >>> tf.realdiv(tf.constant([-7.0, 7.0]), 2.0).numpy()
    array([-3.5,  3.5], dtype=float32)
    """
    x, y = binary_operands(x, y, "RealDiv")
    _check_kind(x, "fc", "RealDiv")
    return apply(_div, (x, y))


def _truncatediv_fwd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind in "iu":
        if (y == 0).any():
            raise InternalError("TruncateDiv: integer division by zero [Op:TruncateDiv]")
        q = x // y
        return q + ((x % y != 0) & ((x < 0) != (y < 0))).astype(q.dtype)
    return np.trunc(x / y).astype(np.result_type(x, y))


_truncatediv = defop("TruncateDiv", _truncatediv_fwd, nondiff=True)
_vmap.register(_truncatediv, _vmap.broadcasting)
_bk.register(_truncatediv, lambda be, x, y: (  # (integers: NumPy's forward checks for division by 0)
    be.xp.trunc(x / y) if be.xp.isdtype(x.dtype, "real floating") else NotImplemented))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def truncatediv(x: Any, y: Any, name: Any = None) -> Tensor:
    """``x / y`` rounded toward zero (C's integer division), unlike ``floordiv``; no gradient.

    >>> import tapegrad as tf
    >>> tf.truncatediv(tf.constant([-7, 7]), 2).numpy()
    array([-3,  3], dtype=int32)
    """
    x, y = binary_operands(x, y, "TruncateDiv")
    if x._value.dtype.kind == "b":
        raise _dt_error("TruncateDiv", x, "numeric")
    return apply(_truncatediv, (x, y))


# ---- integer-valued elementwise ops (keras.ops' bitwise functions, gcd, lcm, digitize) -----------
# TensorFlow's BitwiseAnd ... RightShift and Bucketize, and NumPy's gcd/lcm: integer results, no
# gradient; batched by broadcasting, as elementwise ops.

def _shift(f: Any) -> Any:
    """TF's shift kernels: a shift below 0 or past the width is clamped to [0, bits - 1]."""
    def shift(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return f(a, np.clip(b, 0, 8 * a.dtype.itemsize - 1).astype(a.dtype))
    return shift


bitwise_and_op = defop("BitwiseAnd", np.bitwise_and, nondiff=True)
bitwise_or_op = defop("BitwiseOr", np.bitwise_or, nondiff=True)
bitwise_xor_op = defop("BitwiseXor", np.bitwise_xor, nondiff=True)
invert_op = defop("Invert", np.invert, nondiff=True)
left_shift_op = defop("LeftShift", _shift(np.left_shift), nondiff=True)
right_shift_op = defop("RightShift", _shift(np.right_shift), nondiff=True)
gcd_op = defop("Gcd", lambda a, b: np.gcd(a, b).astype(a.dtype), nondiff=True)
lcm_op = defop("Lcm", lambda a, b: np.lcm(a, b).astype(a.dtype), nondiff=True)
bucketize_op = defop("Bucketize", lambda x, edges: np.searchsorted(edges, x, side="right").astype(np.int32),
                     nondiff=True)
for _op in (bitwise_and_op, bitwise_or_op, bitwise_xor_op, invert_op, left_shift_op, right_shift_op, gcd_op,
            lcm_op, bucketize_op):
    _vmap.register(_op, _vmap.broadcasting)
del _op

