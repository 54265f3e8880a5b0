"""NumPy interop: NumPy and SciPy ufuncs and functions on tensors stay on the tape, or say so.

``Tensor`` and ``Variable`` get ``__array_ufunc__`` and ``__array_function__`` (installed below,
when ``tapegrad`` is imported). NumPy calls them only when one of its functions receives a tensor,
so tapegrad's own ops never pass through here. SciPy's special functions are NumPy ufuncs, so
they arrive here too.

* A callable listed in :data:`UFUNCS`, :data:`FUNCTIONS` or (by name in ``scipy.special``)
  :data:`SCIPY_UFUNCS` runs the tapegrad function it maps to and returns a Tensor that
  GradientTapes follow::

      >>> import numpy as np, tapegrad as tf
      >>> x = tf.constant([0.0, 1.0])
      >>> with tf.GradientTape() as tape:
      ...     tape.watch(x)
      ...     y = np.sum(np.sin(x) * np.array([2.0, 3.0]))     # a Tensor, recorded
      >>> print(tape.gradient(y, x).numpy().round(4))       # 2 cos(0), 3 cos(1)
      [2.     1.6209]

* A NumPy *function* (not a ufunc) whose tensor arguments are all integer, bool or string runs
  NumPy and returns NumPy's value, as in TensorFlow: such values carry no gradient, and code
  written for TF uses them as NumPy data (``np.reshape(labels, [-1])`` items as dict keys).
  Ufuncs keep returning Tensors, since ``array + tensor`` reaches them too and is a Tensor in TF.
* Anything else (other callables, unsupported arguments such as ``out=``, ``dtype=``,
  ``ufunc.reduce``) converts the tensors to arrays and runs NumPy as before; the result is a
  NumPy array and a constant for tapes, and in explain mode (:mod:`tapegrad.diagnosis`) the
  value is reported as having left the tape through that call.
* Never silently: when a recorder follows one of those tensors (``Recorder.follows``) and the
  result holds floating-point numbers, the call warns at the user's line, naming the function
  (:data:`STRICT`: raises TypeError). The same goes for a NumPy or SciPy *Python* function that
  converts a followed tensor with ``np.asarray`` (``scipy.special.logsumexp``): the recorders'
  escape hook (:func:`_on_escape`) finds it from the frames above ``__array__``. Calls tapegrad
  makes itself, and the user's own ``np.asarray(t)``, pass silently.

Dtypes follow TensorFlow, not NumPy: an array or Python number combined with a tensor is
converted to the tensor's dtype (``np.ones(2) * tf.ones(2)`` is float32, not float64), and two
tensors of different dtypes are an error, as in tapegrad's own ops. Operators with the array on
the left (``array * tensor``, ``array @ tensor``) give Tensors.

The tables are written out by hand; docs/numpy.md shows them (``tools/numpy_interop_table.py``
writes them there, from each adapter's docstring). A value is either the public tapegrad function,
given by its name in the ``tapegrad`` namespace (looked up when called, so every op family can be
listed without import-order constraints; a name that does not exist falls back to NumPy), or an
adapter that translates NumPy's arguments, raising :class:`_Unsupported` for arguments it does not
translate.
"""
from __future__ import annotations

import importlib
import math
import os
import sys
import weakref
from typing import Any, Callable

import numpy as np

from . import _recorders as _rec
from ._convert import convert_to_tensor
from ._recorders import note_escape as _note_escape
from ._tensor import IndexedSlices, Tensor
from ._variable import Variable
from ._warn import _INSIDE as _TAPEGRAD, warn_outside


class _Unsupported(Exception):
    """An adapter does not handle these arguments: run NumPy on arrays instead."""


_tf_module: Any = None


def _tf(path: str) -> Callable:
    """The public tapegrad function ``path`` (``"reduce_sum"``, ``"linalg.inv"``)."""
    global _tf_module
    if _tf_module is None:
        _tf_module = importlib.import_module("tapegrad")
    obj = _tf_module
    for part in path.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise _Unsupported(path)
    return obj


def _like(values: Any) -> list:
    """Tensors from a sequence; arrays and numbers take the first tensor's dtype (TF's rule)."""
    values = list(values)
    dt = next((v.dtype for v in values if isinstance(v, (Tensor, Variable))), None)
    return [v if isinstance(v, (Tensor, Variable)) else convert_to_tensor(v, dtype=dt) for v in values]


def _no(**given: Any) -> None:
    """Arguments the adapter does not translate must have their NumPy defaults."""
    for name, (value, default) in given.items():
        if value is default:
            continue
        if isinstance(default, (bool, int, str)) and type(value) is type(default) and value == default:
            continue
        raise _Unsupported(name)


# ---------------------------------------------------------------------------- ufuncs
def _matmul(a: Any, b: Any) -> Tensor:
    """``tf.matmul`` (1-D operands promoted to matrices, as NumPy does)."""
    a, b = _like((a, b))
    a1, b1 = a.ndim == 1, b.ndim == 1
    if a1:
        a = _tf("expand_dims")(a, 0)
    if b1:
        b = _tf("expand_dims")(b, -1)
    out = _tf("matmul")(a, b)
    if b1:
        out = _tf("squeeze")(out, -1)
    if a1:
        out = _tf("squeeze")(out, -2 if out.ndim >= 2 else -1)
    return out


def _positive(x: Any) -> Tensor:
    """``tf.identity``."""
    return _tf("identity")(x)


def _floating(*xs: Any) -> list:
    """Tensors from ``xs`` (as :func:`_like`), which must be floating: NumPy gives a float result
    for integers, TensorFlow's op would not."""
    ts = _like(xs)
    if ts[0].dtype.is_floating:
        return ts
    raise _Unsupported("integer input")


def _scaled(target: str, before: float, after: float) -> Callable:
    """``target(x * before) * after`` (``log2``, ``degrees``, ...)."""
    def adapter(x: Any) -> Tensor:
        (x,) = _floating(x)
        return _tf(target)(x * before if before != 1.0 else x) * after
    adapter.__doc__ = f"``tf.{target}``" + (" times a constant" if (before, after) != (1.0, 1.0) else "") + "."
    return adapter


def _logaddexp(a: Any, b: Any) -> Tensor:
    """``tf.reduce_logsumexp`` over the pair: stable, and the gradient is split evenly at ties
    (``maximum``'s would go to one side)."""
    a, b = _floating(a, b)
    shape = np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    pair = _tf("stack")([_tf("broadcast_to")(a, shape), _tf("broadcast_to")(b, shape)])
    return _tf("reduce_logsumexp")(pair, axis=0)


def _logaddexp2(a: Any, b: Any) -> Tensor:
    """``tf.reduce_logsumexp`` over the pair, in base 2."""
    a, b = _floating(a, b)
    return _logaddexp(a * _LN2, b * _LN2) / _LN2


def _exp_base(base: float) -> Callable:
    def adapter(x: Any) -> Tensor:
        (x,) = _floating(x)
        return _tf("exp")(x * math.log(base))
    adapter.__doc__ = f"``tf.exp(x * log({base:g}))``."
    return adapter


def _trunc(x: Any) -> Tensor:
    """``tf.math.floor`` / ``tf.math.ceil`` (no gradient)."""
    (x,) = _floating(x)
    return _tf("where")(_tf("less")(x, 0), _tf("math.ceil")(x), _tf("floor")(x))


def _divmod(a: Any, b: Any) -> tuple:
    """``(tf.math.floordiv, tf.math.floormod)``."""
    return _tf("floordiv")(*_like((a, b))), _tf("math.floormod")(*_like((a, b)))


def _float_power(a: Any, b: Any) -> Tensor:
    """``tf.pow`` (float64 tensors only: NumPy computes in float64)."""
    a, b = _like((a, b))
    if a.dtype.name != "float64":
        raise _Unsupported("float_power computes in float64")
    return _tf("pow")(a, b)


def _vecdot(a: Any, b: Any) -> Tensor:
    """``tf.reduce_sum(tf.math.conj(a) * b, axis=-1)``."""
    a, b = _like((a, b))
    return _tf("reduce_sum")(_tf("conj")(a) * b, axis=-1)


def _matvec(a: Any, v: Any) -> Tensor:
    """``tf.matmul`` of the matrix and the vector as a column."""
    a, v = _like((a, v))
    return _tf("squeeze")(_tf("matmul")(a, _tf("expand_dims")(v, -1)), -1)


def _vecmat(v: Any, a: Any) -> Tensor:
    """``tf.matmul`` of the conjugated vector as a row and the matrix."""
    v, a = _like((v, a))
    return _tf("squeeze")(_tf("matmul")(_tf("expand_dims")(_tf("conj")(v), -2), a), -2)


_LN2 = math.log(2.0)


UFUNCS: dict = {
    np.add: "add", np.subtract: "subtract", np.multiply: "multiply",
    np.true_divide: "truediv", np.floor_divide: "floordiv", np.remainder: "math.floormod",
    np.power: "pow", np.negative: "negative", np.positive: _positive, np.absolute: "abs",
    np.sign: "sign", np.square: "square", np.sqrt: "sqrt", np.reciprocal: "reciprocal",
    np.exp: "exp", np.expm1: "math.expm1", np.log: "log", np.log1p: "math.log1p",
    np.sin: "sin", np.cos: "cos", np.tan: "tan", np.tanh: "tanh",
    np.arcsin: "math.asin", np.arccos: "math.acos", np.arctan: "math.atan",
    np.sinh: "math.sinh", np.cosh: "math.cosh", np.arcsinh: "math.asinh",
    np.arccosh: "math.acosh", np.arctanh: "math.atanh", np.arctan2: "math.atan2",
    np.floor: "math.floor", np.ceil: "math.ceil", np.rint: "math.round",
    np.maximum: "maximum", np.minimum: "minimum",
    np.equal: "equal", np.not_equal: "not_equal", np.less: "less", np.less_equal: "less_equal",
    np.greater: "greater", np.greater_equal: "greater_equal",
    np.logical_and: "logical_and", np.logical_or: "logical_or", np.logical_xor: "math.logical_xor",
    np.logical_not: "logical_not", np.conjugate: "conj",
    np.isnan: "math.is_nan", np.isinf: "math.is_inf", np.isfinite: "math.is_finite",
    np.matmul: _matmul,
    np.logaddexp: _logaddexp, np.logaddexp2: _logaddexp2, np.exp2: _exp_base(2.0),
    np.log2: _scaled("log", 1.0, 1.0 / _LN2), np.log10: _scaled("log", 1.0, 1.0 / math.log(10.0)),
    np.deg2rad: _scaled("identity", math.pi / 180.0, 1.0), np.rad2deg: _scaled("identity", 180.0 / math.pi, 1.0),
    np.radians: _scaled("identity", math.pi / 180.0, 1.0), np.degrees: _scaled("identity", 180.0 / math.pi, 1.0),
    np.fabs: _scaled("abs", 1.0, 1.0), np.trunc: _trunc, np.fmod: "math.truncatemod",
    np.divmod: _divmod, np.float_power: _float_power, np.nextafter: "math.nextafter",
}
for _name_, _fn in (("vecdot", _vecdot), ("matvec", _matvec), ("vecmat", _vecmat)):  # NumPy >= 2.0 / 2.2
    if isinstance(getattr(np, _name_, None), np.ufunc):
        UFUNCS[getattr(np, _name_)] = _fn

# NumPy's ufuncs that stay off the tape, and why (tests/test_numpy_interop.py checks that every
# NumPy ufunc is in UFUNCS or here, so a new one is decided, not forgotten)
UFUNCS_OFF_TAPE: dict = {
    **dict.fromkeys(("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_invert",
                     "invert", "bitwise_count", "left_shift", "right_shift", "bitwise_left_shift",
                     "bitwise_right_shift", "gcd", "lcm"), "integers only: nothing to differentiate"),
    **dict.fromkeys(("isnat", "signbit"), "a boolean result: nothing to differentiate"),
    **dict.fromkeys(("cbrt", "copysign", "fmax", "fmin", "heaviside", "hypot", "spacing", "ldexp",
                     "frexp", "modf"), "no tapegrad op (TensorFlow has none)"),
}


# ---------------------------------------------------------------------------- SciPy's ufuncs
def _logit(p: Any) -> Tensor:
    """``log(p) - log1p(-p)``."""
    (p,) = _floating(p)
    return _tf("log")(p) - _tf("math.log1p")(-p)


def _ndtr(x: Any) -> Tensor:
    """``0.5 * tf.math.erfc(-x / √2)``."""
    (x,) = _floating(x)
    return 0.5 * _tf("math.erfc")(x * -math.sqrt(0.5))


def _log_ndtr(x: Any) -> Tensor:
    """``log Φ(x)``: tapegrad's LogNdtr op (SciPy's forward, accurate far into both tails)."""
    return _tf("ops.special._log_ndtr")(x)


def _fresnel(x: Any) -> tuple:
    """``(tf.math.special.fresnel_sin, tf.math.special.fresnel_cos)``."""
    return _tf("math.special.fresnel_sin")(x), _tf("math.special.fresnel_cos")(x)


def _betaln(a: Any, b: Any) -> Tensor:
    """``tf.math.lbeta`` of the stacked pair."""
    a, b = _floating(a, b)
    shape = np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    return _tf("math.lbeta")(_tf("stack")([_tf("broadcast_to")(a, shape), _tf("broadcast_to")(b, shape)], -1))


def _entr(x: Any) -> Tensor:
    """``-tf.math.xlogy(x, x)`` (``-inf`` below 0)."""
    (x,) = _floating(x)
    return _tf("where")(_tf("less")(x, 0), x * 0 - np.inf, -_tf("math.xlogy")(x, x))


def _only(target: str, *diff: int) -> Callable:
    """``target``, which differentiates only the inputs at positions ``diff`` (as TensorFlow):
    a recorded tensor anywhere else runs SciPy instead, and gets the warning, rather than a
    missing term."""
    def adapter(*xs: Any) -> Tensor:
        if any(i not in diff and isinstance(x, (Tensor, Variable)) and _rec.followed(x) for i, x in enumerate(xs)):
            raise _Unsupported("a recorded input that the op does not differentiate")
        return _tf(target)(*_like(xs))
    adapter.__doc__ = f"``tf.{target}`` (differentiable in argument {', '.join(str(i + 1) for i in diff)} only)."
    return adapter


# SciPy's ufuncs by their name in scipy.special (``_zeta``: the Hurwitz zeta ``zeta(x, q)`` calls)
SCIPY_UFUNCS: dict = {
    "gammaln": "math.lgamma", "psi": "math.digamma", "expit": "sigmoid", "log_expit": "math.log_sigmoid",
    "logit": _logit, "xlogy": "math.xlogy", "xlog1py": "math.xlog1py", "erf": "math.erf",
    "erfc": "math.erfc", "erfinv": "math.erfinv", "erfcinv": "math.erfcinv", "ndtr": _ndtr,
    "log_ndtr": _log_ndtr, "ndtri": "math.ndtri", "gammainc": "math.igamma", "gammaincc": "math.igammac",
    "betainc": _only("math.betainc", 2), "betaln": _betaln, "_zeta": _only("math.zeta", 1), "entr": _entr,
    "expm1": "math.expm1", "log1p": "math.log1p", "exp2": _exp_base(2.0), "exp10": _exp_base(10.0),
    "i0": "math.bessel_i0", "i0e": "math.bessel_i0e", "i1": "math.bessel_i1", "i1e": "math.bessel_i1e",
    "j0": "math.special.bessel_j0", "j1": "math.special.bessel_j1", "y0": "math.special.bessel_y0",
    "y1": "math.special.bessel_y1", "k0": "math.special.bessel_k0", "k0e": "math.special.bessel_k0e",
    "k1": "math.special.bessel_k1", "k1e": "math.special.bessel_k1e", "dawsn": "math.special.dawsn",
    "expi": "math.special.expint", "fresnel": _fresnel, "spence": "math.special.spence",
}
_scipy_ufuncs: dict = {}  # the ufunc objects of SCIPY_UFUNCS, filled once SciPy is imported


def _scipy_target(ufunc: np.ufunc) -> Any:
    """SciPy ufunc -> its SCIPY_UFUNCS entry (None for another ufunc)."""
    if not _scipy_ufuncs:
        ufuncs = sys.modules.get("scipy.special._ufuncs")
        if ufuncs is None:  # (a SciPy ufunc cannot be called before SciPy is imported)
            return None
        _scipy_ufuncs.update({getattr(ufuncs, n): t for n, t in SCIPY_UFUNCS.items()})
    return _scipy_ufuncs.get(ufunc)


# ---------------------------------------------------------------------------- functions
def _reduction(name: str) -> Callable:
    def adapter(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False,
                initial: Any = np._NoValue, where: Any = np._NoValue) -> Tensor:
        _no(dtype=(dtype, None), out=(out, None), initial=(initial, np._NoValue), where=(where, np._NoValue))
        return _tf(name)(a, axis=axis, keepdims=bool(keepdims))
    adapter.__doc__ = f"``tf.{name}``."
    return adapter


def _minmax(name: str) -> Callable:
    def adapter(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False,
                initial: Any = np._NoValue, where: Any = np._NoValue) -> Tensor:
        _no(out=(out, None), initial=(initial, np._NoValue), where=(where, np._NoValue))
        return _tf(name)(a, axis=axis, keepdims=bool(keepdims))
    adapter.__doc__ = f"``tf.{name}``."
    return adapter


def _moment(name: str) -> Callable:
    def adapter(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: Any = 0,
                keepdims: Any = False, **kw: Any) -> Tensor:
        _no(dtype=(dtype, None), out=(out, None))
        if ddof != 0 or any(v is not np._NoValue and v is not None for v in kw.values()):
            raise _Unsupported("ddof")
        return _tf(name)(a, axis=axis, keepdims=bool(keepdims))
    adapter.__doc__ = f"``tf.{name}`` (``ddof=0``)."
    return adapter


def _dot(a: Any, b: Any, out: Any = None) -> Tensor:
    """``tf.matmul`` or ``tf.tensordot`` (NumPy's rule: the last axis of ``a`` with the
    second-to-last of ``b``)."""
    _no(out=(out, None))
    a, b = _like((a, b))
    if a.ndim == 0 or b.ndim == 0:
        return _tf("multiply")(a, b)
    if a.ndim <= 2 and b.ndim <= 2:
        return _matmul(a, b)
    return _tf("linalg.tensordot")(a, b, [[a.ndim - 1], [max(b.ndim - 2, 0)]])


def _outer(a: Any, b: Any, out: Any = None) -> Tensor:
    """``tf.reshape`` and ``tf.multiply``."""
    _no(out=(out, None))
    a, b = _like((a, b))
    reshape = _tf("reshape")
    return reshape(a, [-1, 1]) * reshape(b, [1, -1])


def _tensordot(a: Any, b: Any, axes: Any = 2) -> Tensor:
    """``tf.tensordot``."""
    a, b = _like((a, b))
    return _tf("linalg.tensordot")(a, b, axes)


def _einsum(subscripts: Any, *operands: Any, out: Any = None, optimize: Any = False, **kw: Any) -> Tensor:
    """``tf.einsum`` (a subscripts string)."""
    _no(out=(out, None))
    if not isinstance(subscripts, str) or kw:
        raise _Unsupported("einsum")
    return _tf("linalg.einsum")(subscripts, *_like(operands))


def _where(condition: Any, x: Any = np._NoValue, y: Any = np._NoValue) -> Tensor:
    """``tf.where`` (three arguments)."""
    if x is np._NoValue or y is np._NoValue:
        raise _Unsupported("where with one argument")
    x, y = _like((x, y))
    if not isinstance(condition, (Tensor, Variable)):
        condition = np.asarray(condition, dtype=bool)
    elif condition.dtype.name != "bool":
        condition = _tf("not_equal")(condition, 0)
    return _tf("where")(condition, x, y)


def _concatenate(arrays: Any, axis: Any = 0, out: Any = None, dtype: Any = None, casting: Any = "same_kind") -> Tensor:
    """``tf.concat``."""
    _no(out=(out, None), dtype=(dtype, None))
    values = _like(arrays)
    if axis is None:
        values, axis = [_tf("reshape")(v, [-1]) for v in values], 0
    return _tf("concat")(values, axis)


def _stack(arrays: Any, axis: Any = 0, out: Any = None, dtype: Any = None, casting: Any = "same_kind") -> Tensor:
    """``tf.stack``."""
    _no(out=(out, None), dtype=(dtype, None))
    return _tf("stack")(_like(arrays), axis)


def _reshape(a: Any, shape: Any = None, order: Any = "C", *, newshape: Any = None, copy: Any = None) -> Tensor:
    """``tf.reshape`` (order ``'C'``)."""
    if order != "C":
        raise _Unsupported("order")
    shape = newshape if shape is None else shape
    return _tf("reshape")(a, [shape] if isinstance(shape, (int, np.integer)) else shape)


def _transpose(a: Any, axes: Any = None) -> Tensor:
    """``tf.transpose``."""
    return _tf("transpose")(a, perm=axes)


def _squeeze(a: Any, axis: Any = None) -> Tensor:
    """``tf.squeeze``."""
    return _tf("squeeze")(a, axis)


def _expand_dims(a: Any, axis: Any) -> Tensor:
    """``tf.expand_dims`` (one axis)."""
    if not isinstance(axis, (int, np.integer)):
        raise _Unsupported("axis")
    return _tf("expand_dims")(a, int(axis))


def _clip(a: Any, a_min: Any = np._NoValue, a_max: Any = np._NoValue, out: Any = None, **kw: Any) -> Tensor:
    """``tf.clip_by_value`` (both bounds)."""
    _no(out=(out, None))
    lo, hi = kw.pop("min", a_min), kw.pop("max", a_max)
    if lo is None or hi is None or lo is np._NoValue or hi is np._NoValue or kw:
        raise _Unsupported("clip bounds")
    return _tf("clip_by_value")(*_like((a, lo, hi)))


def _scan(name: str) -> Callable:
    def adapter(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Tensor:
        _no(dtype=(dtype, None), out=(out, None))
        if axis is None:
            a, axis = _tf("reshape")(a, [-1]), 0
        return _tf(name)(a, axis=axis)
    adapter.__doc__ = f"``tf.{name}``."
    return adapter


def _broadcast_to(array: Any, shape: Any, subok: Any = False) -> Tensor:
    """``tf.broadcast_to``."""
    return _tf("broadcast_to")(array, [shape] if isinstance(shape, (int, np.integer)) else shape)


def _trace(a: Any, offset: Any = 0, axis1: Any = 0, axis2: Any = 1, dtype: Any = None, out: Any = None) -> Tensor:
    """``tf.linalg.trace`` (a matrix)."""
    _no(offset=(offset, 0), dtype=(dtype, None), out=(out, None))
    t = _like((a,))[0]
    if t.ndim != 2 or {axis1 % 2, axis2 % 2} != {0, 1}:
        raise _Unsupported("trace axes")
    return _tf("linalg.trace")(t)


def _round(a: Any, decimals: Any = 0, out: Any = None) -> Tensor:
    """``tf.math.round`` (``decimals=0``)."""
    _no(decimals=(decimals, 0), out=(out, None))
    return _tf("math.round")(a)


def _linalg_solve(a: Any, b: Any) -> Tensor:
    """``tf.linalg.solve`` (a 1-D right-hand side as a column)."""
    a, b = _like((a, b))
    if b.ndim == 1:  # NumPy's 1-D right-hand side is a vector
        return _tf("squeeze")(_tf("linalg.solve")(a, _tf("expand_dims")(b, -1)), -1)
    return _tf("linalg.solve")(a, b)


def _linalg_norm(x: Any, ord: Any = None, axis: Any = None, keepdims: Any = False) -> Tensor:  # noqa: A002
    """``tf.norm`` (Frobenius/2-norm; ``ord`` 1, 2, inf of a vector)."""
    t = _like((x,))[0]
    if ord is None or ord == "fro":
        if axis is None and t.ndim == 2:
            axis = (-2, -1)
        return _tf("norm")(t, "euclidean", axis=axis, keepdims=bool(keepdims))
    if axis is None and t.ndim == 1 and ord in (1, 2, np.inf):
        return _tf("norm")(t, ord, axis=None, keepdims=bool(keepdims))
    raise _Unsupported("ord")


def _linalg_svd(a: Any, full_matrices: Any = True, compute_uv: Any = True, hermitian: Any = False) -> Any:
    """``tf.linalg.svd`` (NumPy's ``u, s, vh`` order)."""
    _no(hermitian=(hermitian, False))
    if not compute_uv:
        return _tf("linalg.svd")(a, full_matrices=bool(full_matrices), compute_uv=False)
    s, u, v = _tf("linalg.svd")(a, full_matrices=bool(full_matrices))
    return u, s, _tf("linalg.adjoint")(v)  # NumPy returns v^H


def _linalg_qr(a: Any, mode: Any = "reduced") -> Any:
    """``tf.linalg.qr``."""
    if mode not in ("reduced", "complete", "r"):
        raise _Unsupported("mode")
    q, r = _tf("linalg.qr")(a, full_matrices=mode == "complete")
    return r if mode == "r" else (q, r)


def _linalg_eigh(a: Any, UPLO: Any = "L") -> Any:  # noqa: N803 (NumPy's name)
    """``tf.linalg.eigh``."""
    _no(UPLO=(UPLO, "L"))
    return _tf("linalg.eigh")(a)


def _linalg_eigvalsh(a: Any, UPLO: Any = "L") -> Tensor:  # noqa: N803
    """``tf.linalg.eigvalsh``."""
    _no(UPLO=(UPLO, "L"))
    return _tf("linalg.eigvalsh")(a)


def _linalg_pinv(a: Any, rcond: Any = None, hermitian: Any = False, **kw: Any) -> Tensor:
    """``tf.linalg.pinv`` (default tolerance)."""
    _no(rcond=(rcond, None), hermitian=(hermitian, False))
    if kw.get("rtol", np._NoValue) not in (None, np._NoValue):
        raise _Unsupported("rtol")
    return _tf("linalg.pinv")(a)


def _flat(a: Any) -> Tensor:
    return _tf("reshape")(a, [-1])


def _sort(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None) -> Tensor:
    """``tf.sort`` (``axis=None``: flattened)."""
    _no(order=(order, None))   # (kind and stable: the sorted values are the same)
    if axis is None:
        return _tf("sort")(_flat(a))
    return _tf("sort")(a, axis=int(axis))


def _flip(m: Any, axis: Any = None) -> Tensor:
    """``tf.reverse``."""
    t = _like((m,))[0]
    axes = list(range(t.ndim)) if axis is None else [axis] if isinstance(axis, (int, np.integer)) else list(axis)
    return _tf("reverse")(t, axes)


def _roll(a: Any, shift: Any, axis: Any = None) -> Tensor:
    """``tf.roll``."""
    t = _like((a,))[0]
    if axis is None:
        return _tf("reshape")(_tf("roll")(_flat(t), shift, 0), tuple(t.shape))
    return _tf("roll")(t, shift, axis)


def _tile(A: Any, reps: Any) -> Tensor:  # noqa: N803 (NumPy's name)
    """``tf.tile``."""
    t = _like((A,))[0]
    reps = [int(reps)] if isinstance(reps, (int, np.integer)) else [int(r) for r in reps]
    while t.ndim < len(reps):
        t = _tf("expand_dims")(t, 0)
    return _tf("tile")(t, [1] * (t.ndim - len(reps)) + reps)


def _repeat(a: Any, repeats: Any, axis: Any = None) -> Tensor:
    """``tf.repeat``."""
    return _tf("repeat")(_like((a,))[0], repeats, axis=axis)


def _diff(a: Any, n: Any = 1, axis: Any = -1, prepend: Any = np._NoValue, append: Any = np._NoValue) -> Tensor:
    """differences of slices."""
    _no(prepend=(prepend, np._NoValue), append=(append, np._NoValue))
    t = _like((a,))[0]
    axis = int(axis) % t.ndim
    head = (slice(None),) * axis
    for _ in range(int(n)):
        t = t[head + (slice(1, None),)] - t[head + (slice(None, -1),)]
    return t


def _cross(a: Any, b: Any, axisa: Any = -1, axisb: Any = -1, axisc: Any = -1, axis: Any = None) -> Tensor:
    """``tf.linalg.cross`` (3-vectors on the last axis)."""
    a, b = _like((a, b))
    if axis is not None or (axisa, axisb, axisc) != (-1, -1, -1) or a.shape[-1] != 3 or b.shape[-1] != 3:
        raise _Unsupported("cross of 3-vectors on the last axis only")
    return _tf("linalg.cross")(a, b)


def _diag(v: Any, k: Any = 0) -> Tensor:
    """``tf.linalg.diag`` / ``tf.linalg.diag_part`` (``k=0``)."""
    _no(k=(k, 0))
    t = _like((v,))[0]
    if t.ndim == 1:
        return _tf("linalg.diag")(t)
    if t.ndim == 2:
        return _tf("linalg.diag_part")(t)
    raise _Unsupported("diag of a 1-D or 2-D array only")


def _diagonal(a: Any, offset: Any = 0, axis1: Any = 0, axis2: Any = 1) -> Tensor:
    """``tf.linalg.diag_part`` (a matrix)."""
    _no(offset=(offset, 0))
    t = _like((a,))[0]
    if t.ndim != 2 or {axis1 % 2, axis2 % 2} != {0, 1}:
        raise _Unsupported("diagonal of a matrix only")
    return _tf("linalg.diag_part")(t if axis1 % 2 == 0 else _tf("transpose")(t))


def _band(lower: bool) -> Callable:
    def adapter(m: Any, k: Any = 0) -> Tensor:
        _no(k=(k, 0))
        return _tf("linalg.band_part")(m, -1, 0) if lower else _tf("linalg.band_part")(m, 0, -1)
    adapter.__doc__ = "``tf.linalg.band_part`` (``k=0``)."
    return adapter


def _swapaxes(a: Any, axis1: Any, axis2: Any) -> Tensor:
    """``tf.transpose``."""
    t = _like((a,))[0]
    perm = list(range(t.ndim))
    i, j = int(axis1) % t.ndim, int(axis2) % t.ndim
    perm[i], perm[j] = perm[j], perm[i]
    return _tf("transpose")(t, perm)


def _moveaxis(a: Any, source: Any, destination: Any) -> Tensor:
    """``tf.transpose`` (one axis)."""
    t = _like((a,))[0]
    if not isinstance(source, (int, np.integer)) or not isinstance(destination, (int, np.integer)):
        raise _Unsupported("moveaxis of one axis")
    perm = list(range(t.ndim))
    perm.insert(int(destination) % t.ndim, perm.pop(int(source) % t.ndim))
    return _tf("transpose")(t, perm)


def _ravel(a: Any, order: Any = "C") -> Tensor:
    """``tf.reshape(a, [-1])``."""
    _no(order=(order, "C"))
    return _flat(a)


def _stack_along(axis_of: Callable) -> Callable:
    """``np.vstack``/``np.hstack``: ``tf.concat`` along the axis ``axis_of(ndim)`` after NumPy's
    promotion of 1-D (and 0-D) inputs."""
    def adapter(tup: Any, *, dtype: Any = None, casting: Any = "same_kind") -> Tensor:
        _no(dtype=(dtype, None))
        ts = _like(tup)
        nd = max(t.ndim for t in ts)
        if axis_of(nd) == 0:  # vstack: rows
            ts = [_tf("reshape")(t, [1, -1]) if t.ndim < 2 else t for t in ts]
            return _tf("concat")(ts, 0)
        ts = [_tf("reshape")(t, [1]) if t.ndim == 0 else t for t in ts]
        return _tf("concat")(ts, 0 if nd == 1 else 1)
    adapter.__doc__ = "``tf.concat``."
    return adapter


def _take(a: Any, indices: Any, axis: Any = None, out: Any = None, mode: Any = "raise") -> Tensor:
    """``tf.gather``."""
    _no(out=(out, None), mode=(mode, "raise"))
    t = _like((a,))[0]
    return _tf("gather")(_flat(t) if axis is None else t, indices, axis=0 if axis is None else int(axis))


def _pad(array: Any, pad_width: Any, mode: Any = "constant", **kw: Any) -> Tensor:
    """``tf.pad`` (``mode='constant'``)."""
    t = _like((array,))[0]
    value = kw.pop("constant_values", 0)
    if mode != "constant" or kw or np.ndim(value) != 0:
        raise _Unsupported("pad other than a constant")
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (t.ndim, 2))
    return _tf("pad")(t, widths.tolist(), constant_values=value)


def _average(a: Any, axis: Any = None, weights: Any = None, returned: Any = False, *, keepdims: Any = np._NoValue) -> Tensor:
    """``tf.reduce_mean``, or the weighted sum over the sum of weights."""
    _no(returned=(returned, False), keepdims=(keepdims, np._NoValue))
    if weights is None:
        return _tf("reduce_mean")(a, axis=axis)
    a, w = _like((a, weights))
    if tuple(a.shape) != tuple(w.shape):
        raise _Unsupported("weights of another shape")
    return _tf("reduce_sum")(a * w, axis=axis) / _tf("reduce_sum")(w, axis=axis)


def _ptp(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False) -> Tensor:
    """``tf.reduce_max - tf.reduce_min``."""
    _no(out=(out, None))
    return _tf("reduce_max")(a, axis=axis, keepdims=bool(keepdims)) - _tf("reduce_min")(a, axis=axis, keepdims=bool(keepdims))


def _inner(a: Any, b: Any) -> Tensor:
    """``tf.tensordot`` over the last axes."""
    a, b = _like((a, b))
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return _tf("linalg.tensordot")(a, b, [[a.ndim - 1], [b.ndim - 1]])


def _vdot(a: Any, b: Any) -> Tensor:
    """``tf.reduce_sum`` of the flattened ``conj(a) * b``."""
    a, b = _like((a, b))
    return _tf("reduce_sum")(_tf("conj")(_flat(a)) * _flat(b))


def _meshgrid(*xi: Any, copy: Any = True, sparse: Any = False, indexing: Any = "xy") -> Any:
    """``tf.meshgrid``."""
    _no(sparse=(sparse, False))
    return tuple(_tf("meshgrid")(*_like(xi), indexing=indexing))


def _matrix_power(a: Any, n: Any) -> Tensor:
    """repeated ``tf.matmul`` (positive powers)."""
    t = _like((a,))[0]
    if not isinstance(n, (int, np.integer)) or n < 1:
        raise _Unsupported("a positive integer power")
    out = t
    for _ in range(int(n) - 1):
        out = _tf("matmul")(out, t)
    return out


FUNCTIONS: dict = {
    np.sum: _reduction("reduce_sum"), np.mean: _reduction("reduce_mean"),
    np.prod: _reduction("reduce_prod"),
    np.max: _minmax("reduce_max"), np.min: _minmax("reduce_min"),
    np.std: _moment("reduce_std"), np.var: _moment("reduce_variance"),
    np.dot: _dot, np.outer: _outer, np.tensordot: _tensordot, np.einsum: _einsum,
    np.where: _where, np.concatenate: _concatenate, np.stack: _stack,
    np.reshape: _reshape, np.transpose: _transpose, np.squeeze: _squeeze,
    np.expand_dims: _expand_dims, np.clip: _clip, np.broadcast_to: _broadcast_to,
    np.cumsum: _scan("cumsum"), np.cumprod: _scan("math.cumprod"),
    np.trace: _trace, np.round: _round,
    np.linalg.inv: "linalg.inv", np.linalg.det: "linalg.det", np.linalg.slogdet: "linalg.slogdet",
    np.linalg.cholesky: "linalg.cholesky", np.linalg.solve: _linalg_solve,
    np.linalg.norm: _linalg_norm, np.linalg.svd: _linalg_svd, np.linalg.qr: _linalg_qr,
    np.linalg.eigh: _linalg_eigh, np.linalg.eigvalsh: _linalg_eigvalsh,
    np.linalg.pinv: _linalg_pinv, np.linalg.matrix_power: _matrix_power,
    np.sort: _sort, np.flip: _flip, np.roll: _roll, np.tile: _tile, np.repeat: _repeat, np.diff: _diff,
    np.cross: _cross, np.diag: _diag, np.diagonal: _diagonal, np.tril: _band(True), np.triu: _band(False),
    np.swapaxes: _swapaxes, np.moveaxis: _moveaxis, np.ravel: _ravel,
    np.vstack: _stack_along(lambda nd: 0), np.hstack: _stack_along(lambda nd: 1), np.take: _take,
    np.pad: _pad, np.average: _average, np.ptp: _ptp, np.inner: _inner, np.vdot: _vdot,
    np.meshgrid: _meshgrid,
}
if hasattr(np, "amax"):  # aliases that are separate functions in some NumPy versions
    FUNCTIONS.setdefault(np.amax, FUNCTIONS[np.max])
    FUNCTIONS.setdefault(np.amin, FUNCTIONS[np.min])
if hasattr(np.linalg, "matmul"):  # NumPy >= 2
    FUNCTIONS[np.linalg.matmul] = _matmul
    FUNCTIONS[np.linalg.matrix_transpose] = "linalg.matrix_transpose"


# ---------------------------------------------------------------------------- the protocols
def _name(f: Any) -> str:
    """How to name a NumPy callable in explain mode's report (``np.linalg.det``)."""
    name = getattr(f, "__name__", repr(f))
    if isinstance(f, np.ufunc):
        if getattr(np, name, None) is f:
            return f"np.{name}"
        special = sys.modules.get("scipy.special")
        if special is not None and getattr(special, name, None) is f:
            return f"scipy.special.{name}"
        if name in ("_zeta", "_riemann_zeta"):  # (what scipy.special.zeta calls)
            return "scipy.special.zeta"
        return f"ufunc:{name}"
    mod = getattr(f, "__module__", None) or "numpy"
    parts = [p for p in mod.split(".") if not p.startswith("_")]
    if parts and parts[0] == "numpy":
        parts[0] = "np"
    return ".".join(parts + [name]) if parts and parts[0] == "np" else f"np.{name}"


def _arrays(obj: Any, how: str) -> Any:
    """``obj`` with every tensor replaced by a NumPy array (noting that it left the tapes)."""
    if isinstance(obj, Tensor):
        _note_escape(obj, how)
        return np.asarray(obj._value)
    if isinstance(obj, Variable):
        _note_escape(obj._snap, how)
        return np.array(obj._snap._value)
    if isinstance(obj, IndexedSlices):
        return _arrays(convert_to_tensor(obj), how)
    if type(obj) in (list, tuple):
        return type(obj)(_arrays(o, how) for o in obj)
    if type(obj) is dict:
        return {k: _arrays(v, how) for k, v in obj.items()}
    return obj


# ---------------------------------------------------------------------------- never silent
STRICT = False
"""Strict NumPy interop (``tf.config.experimental.enable_strict_numpy_interop()``): a recorded
tensor given to a NumPy or SciPy function that cannot stay on the tape raises instead of warning."""

# What to use instead, for the functions users reach for most
INSTEAD = {
    "scipy.special.logsumexp": "tf.math.reduce_logsumexp", "scipy.special.softmax": "tf.nn.softmax",
    "scipy.special.log_softmax": "tf.nn.log_softmax", "scipy.special.polygamma": "tf.math.polygamma",
    "scipy.special.zeta": "tf.math.zeta (differentiable in q only, as in TensorFlow)",
    "scipy.special.gamma": "np.exp(scipy.special.gammaln(x)) for x > 0",
    "scipy.special.beta": "np.exp(scipy.special.betaln(a, b))",
    "scipy.stats.norm.logpdf": "-0.5 * ((x - loc) / scale) ** 2 - np.log(scale) - 0.5 * np.log(2 * np.pi)",
    "scipy.stats.norm.cdf": "scipy.special.ndtr((x - loc) / scale)",
    "scipy.stats.norm.logcdf": "scipy.special.log_ndtr((x - loc) / scale)",
    "np.hypot": "np.sqrt(x ** 2 + y ** 2)", "np.median": "tf.sort and indexing",
    "scipy.linalg.expm": "tf.linalg.expm", "np.linalg.eig": "tf.linalg.eig",
}


def _recorded(objs: Any) -> bool:
    """Whether a tensor in ``objs`` (or in a list or tuple in it) is followed by a recorder."""
    for o in objs:
        if isinstance(o, (Tensor, Variable)):
            if _rec.followed(o):
                return True
        elif type(o) in (list, tuple) and _recorded(o):
            return True
    return False


def _exact_only(objs: Any) -> bool:
    """Whether ``objs`` (and the lists or tuples in it) hold tensors and all of them are integer,
    bool or string: such a result carries no gradient, and NumPy gives TensorFlow's answer."""
    seen = False
    for o in objs:
        if isinstance(o, (Tensor, Variable)):
            if o.dtype._np.kind in "fc":
                return False
            seen = True
        elif type(o) in (list, tuple):
            for e in o:
                if isinstance(e, (Tensor, Variable)):
                    if e.dtype._np.kind in "fc":
                        return False
                    seen = True
    return seen


def _inexact(out: Any) -> bool:
    """Whether a NumPy result holds floating or complex values (integers and booleans carry no
    gradient, so losing them from the tape loses nothing)."""
    if isinstance(out, (tuple, list)):
        return any(_inexact(o) for o in out)
    return isinstance(out, (np.ndarray, np.generic, float, complex)) and np.asarray(out).dtype.kind in "fc"


_libraries: tuple = (os.path.dirname(os.path.realpath(np.__file__)) + os.sep,)


def _library_dirs() -> tuple:
    """NumPy's and SciPy's folders: their frames are neither the user's line nor tapegrad's."""
    global _libraries
    if len(_libraries) < 2 and "scipy" in sys.modules:
        _libraries += (os.path.dirname(os.path.realpath(sys.modules["scipy"].__file__)) + os.sep,)
    return _libraries


def _constant_for_tape(name: str) -> None:
    """Warn (strict: raise) that ``name`` turned a recorded tensor into a NumPy constant."""
    hint = INSTEAD.get(name)
    msg = (f"{name} was given a tensor that a GradientTape (or ForwardAccumulator) is recording, "
           "and returned a NumPy value: that value is a constant for the tape, so every gradient "
           "term through it is missing (the gradient is wrong, or None). "
           + (f"Use {hint} instead; " if hint else "Use tapegrad ops (tf.math, tf.nn, ...) instead; ")
           + "docs/numpy.md lists the NumPy and SciPy functions that stay on the tape. If a "
           "constant is what you mean, pass t.numpy() or tf.stop_gradient(t).")
    if STRICT:
        raise TypeError(msg + " (Strict NumPy interop is on: "
                        "tf.config.experimental.disable_strict_numpy_interop() makes this a warning.)")
    warn_outside(msg, also=_library_dirs())


_HOOK_FRAMES = ("__array__", "note_escape", "_on_escape")


def _tapegrads_own_call() -> bool:
    """Whether the NumPy call being dispatched was made by tapegrad itself (its Keras metrics,
    its printing): the first frame above the protocol method and NumPy's and SciPy's frames."""
    libs = _library_dirs()
    f: Any = sys._getframe(2)
    while f is not None and f.f_code.co_filename.startswith(libs):
        f = f.f_back
    return f is not None and f.f_code.co_filename.startswith(_TAPEGRAD)


def _converted_by_library() -> str | None:
    """For ``__array__``: the NumPy or SciPy function that converts a tensor, when the user
    called it (None when the user or tapegrad converts it directly)."""
    libs = _library_dirs()
    f: Any = sys._getframe(1)
    while f is not None and f.f_code.co_name in _HOOK_FRAMES and f.f_code.co_filename.startswith(_TAPEGRAD):
        f = f.f_back
    lib = None
    while f is not None and f.f_code.co_filename.startswith(libs):
        lib, f = f, f.f_back
    if lib is None or f is None or f.f_code.co_filename.startswith(_TAPEGRAD):
        return None
    mod = ".".join(p for p in lib.f_globals.get("__name__", "").split(".") if not p.startswith("_"))
    mod = "np" + mod[5:] if mod.startswith("numpy") else mod
    owner = lib.f_locals.get("self")
    if mod.startswith("scipy.stats") and isinstance(getattr(owner, "name", None), str):
        return f"scipy.stats.{owner.name}.{lib.f_code.co_name}"  # (a distribution's method)
    return f"{mod}.{getattr(lib.f_code, 'co_qualname', lib.f_code.co_name)}"  # (Python 3.10: no qualname)


def _on_escape(t: Any, how: str) -> None:
    """The recorders' escape hook: ``np.asarray`` inside a NumPy or SciPy function the user called
    converted a tensor that a recorder follows (tapegrad's own conversions and the user's pass)."""
    if how == "__array__" and _rec.followed(t):
        name = _converted_by_library()
        if name is not None:
            _constant_for_tape(name)


def _call(target: Any, args: tuple, kwargs: dict) -> Any:
    fn = _tf(target) if isinstance(target, str) else target
    return fn(*args, **kwargs)


# NumPy's dtype promotion of a ufunc's operands (``array + tensor``), set by
# tapegrad/experimental/_numpy_style.py while tnp.experimental_enable_numpy_behavior's "legacy" mode is on
promote: Callable | None = None


def _foreign(types: Any) -> bool:
    return any(not issubclass(t, (Tensor, Variable, IndexedSlices, np.ndarray)) for t in types)


def __array_ufunc__(self: Any, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
    """NumPy ufunc on tensors: the tapegrad op (a Tensor, recorded) when :data:`UFUNCS` lists
    the ufunc and the call is a plain ``ufunc(...)``; otherwise NumPy on arrays."""
    if _foreign(type(x) for x in inputs if hasattr(x, "__array_ufunc__")):
        return NotImplemented
    out = kwargs.get("out")
    if out is not None and any(isinstance(o, (Tensor, Variable)) for o in out):
        raise TypeError(f"{_name(ufunc)}(..., out=...): tapegrad tensors are immutable and cannot "
                        "be written into; drop out= (Variables: use v.assign(...)).")
    if method == "__call__" and not kwargs:
        target = UFUNCS.get(ufunc) or _scipy_target(ufunc)
        if target is not None:
            if promote is not None and ufunc.nin > 1:
                inputs = tuple(promote(*inputs))
            try:
                return _call(target, inputs, {})
            except _Unsupported:
                pass
    how = _name(ufunc) if method == "__call__" else f"{_name(ufunc)}.{method}"
    recorded = _rec.active and _recorded(inputs) and not _tapegrads_own_call()
    if recorded and STRICT:
        _constant_for_tape(how)
    out = getattr(ufunc, method)(*_arrays(inputs, how), **_arrays(kwargs, how))
    if recorded and _inexact(out):
        _constant_for_tape(how)
    return out


def __array_function__(self: Any, func: Any, types: Any, args: tuple, kwargs: dict) -> Any:
    """NumPy function on tensors: the tapegrad function (Tensors, recorded) when
    :data:`FUNCTIONS` lists it and the arguments translate; otherwise NumPy on arrays."""
    if _foreign(types):
        return NotImplemented
    target = FUNCTIONS.get(func)
    if target is not None and not (promote is None and _exact_only((*args, *kwargs.values()))):
        try:
            return _stands_for_array(_call(target, args, kwargs))
        except _Unsupported:
            pass
    how = _name(func)
    recorded = _rec.active and (_recorded(args) or _recorded(kwargs.values())) and not _tapegrads_own_call()
    if recorded and STRICT:
        _constant_for_tape(how)
    out = func(*_arrays(args, how), **_arrays(kwargs, how))
    if recorded and _inexact(out):
        _constant_for_tape(how)
    return out


# A NumPy function's Tensor stands where TensorFlow gives an ndarray (``np.concatenate(tensors)``),
# so it also answers the ndarray methods that NumPy has as functions (``.transpose([1, 0, 2])``,
# ``.min(axis=0)``), through those functions: recorded, and again such a Tensor. Other tensors keep
# TF's attributes only. Ids of the Tensors returned here, dropped with the tensor:
_from_numpy: dict[int, None] = {}


def _stands_for_array(out: Any) -> Any:
    for t in out if type(out) in (list, tuple) else (out,):
        if type(t) is Tensor and t._id not in _from_numpy:
            if not getattr(Tensor.__getitem__, "_keeps_array", False):
                _keep_through_operators()
            _from_numpy[t._id] = None
            weakref.finalize(t, _from_numpy.pop, t._id, None)
    return out


# What TF computes from a NumPy function's result with Python's operators and indexing is NumPy's
# too (ndarray op ndarray, ndarray[i]): here the Tensor such an operator or index gives from one
# answers the ndarray methods as well (np.stack(ts).mean(0)[0].round(3), (pred == y).sum()). The
# operators are wrapped at the first such result, so a program that has none pays nothing (and
# again if something put other operators in their place since).
_OPERATOR_NAMES = ("__getitem__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__",
                   "__rmul__", "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__",
                   "__mod__", "__rmod__", "__pow__", "__rpow__", "__matmul__", "__rmatmul__",
                   "__neg__", "__abs__", "__invert__", "__and__", "__rand__", "__or__", "__ror__",
                   "__xor__", "__rxor__", "__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__")


def _keep_through_operators() -> None:
    for name in _OPERATOR_NAMES:
        op = Tensor.__dict__.get(name)
        if op is None or getattr(op, "_keeps_array", False):
            continue

        def keeping(self: Any, *other: Any, _op: Callable = op) -> Any:
            out = _op(self, *other)
            if self._id in _from_numpy or (other and type(other[0]) is Tensor
                                           and other[0]._id in _from_numpy):
                _stands_for_array(out)
            return out
        keeping.__name__ = name
        keeping.__wrapped__ = op  # type: ignore[attr-defined]
        keeping._keeps_array = True  # type: ignore[attr-defined]
        setattr(Tensor, name, keeping)


def _axes_args(fn: Callable) -> Callable:
    """``a.transpose(1, 0)`` and ``a.transpose((1, 0))`` as ndarray takes them."""
    def method(t: Any) -> Callable:
        def call(*axes: Any, **kwargs: Any) -> Any:
            one = len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (list, tuple)))
            return fn(t, axes[0] if one else (axes or None), **kwargs)
        return call
    return method


def _bound(fn: Callable) -> Callable:
    return lambda t: lambda *a, **k: fn(t, *a, **k)


_NDARRAY_METHODS: dict = {
    **{name: _bound(getattr(np, name)) for name in (
        "min", "max", "sum", "mean", "prod", "std", "var", "clip", "cumsum", "cumprod", "squeeze",
        "swapaxes", "ravel", "repeat", "take", "round", "trace", "diagonal", "argmax", "argmin",
        "dot", "sort")},
    "transpose": _axes_args(np.transpose), "reshape": _axes_args(np.reshape),
    "flatten": _bound(np.ravel), "T": np.transpose,
    "tolist": lambda t: lambda: t.numpy().tolist(), "item": lambda t: lambda *a: t.numpy().item(*a),
}


def _ndarray_attribute(self: Tensor, name: str) -> Any:
    """``Tensor.__getattr__`` (only for names a Tensor lacks): ndarray's methods on a NumPy
    function's result, else the usual AttributeError."""
    method = _NDARRAY_METHODS.get(name)
    if method is not None and self._id in _from_numpy:
        return method(self)
    raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


Tensor.__getattr__ = _ndarray_attribute  # type: ignore[attr-defined]
for _cls in (Tensor, Variable):
    _cls.__array_ufunc__ = __array_ufunc__  # type: ignore[attr-defined]
    _cls.__array_function__ = __array_function__  # type: ignore[attr-defined]
_rec.escape_hook = _on_escape


def _choice(a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
    """``numpy.random.choice`` (``RandomState.choice`` of NumPy's global generator), with tensors
    taken as the arrays TensorFlow's NumPy functions return (installed by ``import tapegrad``).

    NumPy checks that ``p`` sums to 1 within float64's tolerance unless ``p`` is an ndarray, whose
    dtype then sets it (float32's: 3.4e-4): ``np.random.choice(n, p=np.squeeze(probs))`` draws
    from float32 probabilities under a tape as in TensorFlow, where ``np.squeeze`` returns an array.
    """
    a, p = (np.asarray(v) if isinstance(v, (Tensor, Variable)) else v for v in (a, p))
    return np.random.mtrand._rand.choice(a, size, replace, p)


_choice.__name__ = _choice.__qualname__ = "choice"
np.random.choice = np.random.mtrand.choice = _choice
