"""Special functions, the rest of ``tf.math``'s elementwise surface: hyperbolic and inverse
trigonometric functions, the error, normal-quantile, gamma, zeta and Bessel function families,
softplus, the ``x * log(y)`` family, no-NaN division, squared difference, ``angle``, and the
piecewise-constant ops (rounding, float tests).

Each op is declared once with its rules beside it; rules are written with tapegrad ops so that
nested tapes give higher derivatives. SciPy is imported inside the forwards that need it.
Dtypes follow TensorFlow: each public function lists the kinds it accepts and raises
InvalidArgumentError for the others (TF's "Value for attr 'T' ... is not in the list").
"""
from __future__ import annotations

import importlib
import importlib.util
import math
import os
from typing import Any

import numpy as np

from .. import _backend as _bk, _vmap, dtypes as _dt
from .._convert import as_tensor, binary_operands, host_value
from .._dispatch import apply, binary, composite_api, defop
from .._tensor import Tensor, constant_maker, wrap as _wrap
from ..errors import InvalidArgumentError
from .math import (_check_kind, _dt_error, _int_to_float, _unary, cast, complex_, conj, cos, equal, exp,
                   imag, less, log, log1p, maximum, not_equal, ones_like, real, reciprocal, rsqrt, sigmoid,
                   sign, sin, sqrt, where, zeros_like)
from .array import broadcast_to, expand_dims, stack
from .reduction import reduce_max, reduce_sum

__all__ = ["sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "atan2", "erf",
    "erfc", "erfinv", "ndtri", "erfcinv", "lgamma", "digamma", "polygamma", "zeta", "lbeta",
    "igamma", "igammac", "betainc", "nextafter",
    "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_y0",
    "bessel_y1", "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "dawsn", "expint",
    "fresnel_cos", "fresnel_sin", "spence", "softplus", "log_sigmoid", "xlogy",
    "xlog1py", "xdivy", "divide_no_nan", "reciprocal_no_nan", "squared_difference", "angle",
    "floor", "ceil", "round", "rint", "is_nan", "is_inf", "is_finite", "sobol_sample"]


_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_SQRT_PI_OVER_TWO = math.sqrt(math.pi) / 2.0


def _binary_f32_f64(op: Any, x: Any, y: Any) -> Tensor:
    """A binary op whose TensorFlow kernel exists for float32 and float64 only."""
    x, y = binary_operands(x, y, op.name)
    if x._value.dtype.kind != "f" or x._value.dtype.itemsize < 4:
        raise _dt_error(op.name, x, "float32, float64")
    return apply(op, (x, y))


def _nonzero_mask(x: Tensor) -> Tensor:
    """1 where ``x != 0``, else 0, in ``x``'s dtype (a constant for every tape)."""
    return cast(not_equal(x, zeros_like(x)), x.dtype)


# --------------------------------------------------------------------------- hyperbolic
_sinh = defop("Sinh", np.sinh, kinds="fc", deriv=(lambda ans, x: cosh(x),))
_cosh = defop("Cosh", np.cosh, kinds="fc", deriv=(lambda ans, x: sinh(x),))


def sinh(x: Any, name: Any = None) -> Tensor:
    """Hyperbolic sine (floating or complex).

    >>> import tapegrad as tf
    >>> tf.math.sinh(tf.constant([0.0, 1.0])).numpy().round(4)
    array([0.    , 1.1752], dtype=float32)
    """
    return _unary(_sinh, x)


def cosh(x: Any, name: Any = None) -> Tensor:
    """Hyperbolic cosine (floating or complex)."""
    return _unary(_cosh, x)


# --------------------------------------------------------------------------- inverse trigonometric
_asin = defop("Asin", np.arcsin, kinds="fc", deriv=(lambda ans, x: rsqrt(1 - x * x),))
_acos = defop("Acos", np.arccos, kinds="fc", deriv=(lambda ans, x: -rsqrt(1 - x * x),))
_atan = defop("Atan", np.arctan, kinds="fc", deriv=(lambda ans, x: reciprocal(1 + x * x),))
_asinh = defop("Asinh", np.arcsinh, kinds="fc", deriv=(lambda ans, x: reciprocal(cosh(ans)),))
_acosh = defop("Acosh", np.arccosh, kinds="fc", deriv=(lambda ans, x: reciprocal(sinh(ans)),))
_atanh = defop("Atanh", np.arctanh, kinds="fc", deriv=(lambda ans, x: reciprocal(1 - x * x),))


def asin(x: Any, name: Any = None) -> Tensor:
    """Inverse sine; its gradient at ``±1`` is ``inf`` and NaN outside ``[-1, 1]``."""
    return _unary(_asin, x)


def acos(x: Any, name: Any = None) -> Tensor:
    """Inverse cosine; its gradient at ``±1`` is ``-inf``."""
    return _unary(_acos, x)


def atan(x: Any, name: Any = None) -> Tensor:
    """Inverse tangent."""
    return _unary(_atan, x)


def asinh(x: Any, name: Any = None) -> Tensor:
    """Inverse hyperbolic sine; the gradient is ``1 / cosh(asinh(x))``."""
    return _unary(_asinh, x)


def acosh(x: Any, name: Any = None) -> Tensor:
    """Inverse hyperbolic cosine (NaN below 1); the gradient ``1 / sinh(acosh(x))`` is ``inf`` at 1."""
    return _unary(_acosh, x)


def atanh(x: Any, name: Any = None) -> Tensor:
    """Inverse hyperbolic tangent; the gradient ``1 / (1 - x²)`` is ``inf`` at ``±1``."""
    return _unary(_atanh, x)


def _atan2_den(y: Tensor, x: Tensor) -> Tensor:
    return x * x + y * y


_atan2 = defop("Atan2", np.arctan2, kinds="f",
               deriv=(lambda ans, y, x: x / _atan2_den(y, x), lambda ans, y, x: -y / _atan2_den(y, x)),
               broadcast=True)


def atan2(y: Any, x: Any, name: Any = None) -> Tensor:
    """The angle of the point ``(x, y)``, in ``[-π, π]`` (floating inputs, broadcasting).

    The gradients are ``x / (x² + y²)`` for ``y`` and ``-y / (x² + y²)`` for ``x`` (NaN at the origin).

    >>> import tapegrad as tf
    >>> print(tf.math.atan2(1.0, 1.0).numpy().round(4))  # π/4
    0.7854
    """
    return binary(_atan2, y, x)


# --------------------------------------------------------------------------- error function family
def _as(out: Any, *like: Any) -> Any:
    """A SciPy ufunc's result as an array of the inputs' result dtype: a 0-d input gives a NumPy
    scalar (made an array), a CuPy input a CuPy array (no NumPy conversion, which CuPy refuses)."""
    if isinstance(out, np.generic):
        out = np.asarray(out)
    return out.astype(np.result_type(*(x.dtype for x in like)), copy=False)


def _special(name: str) -> Any:
    """A SciPy special function, imported on first use; the result keeps the input's dtype."""
    def fwd(*xs: np.ndarray) -> np.ndarray:
        from scipy import special
        out = getattr(special, name)(*xs)
        return _as(out, *xs)
    fwd.__name__ = name
    return fwd


def _special_form(name: str) -> Any:
    """The backend form of a :func:`_special` op: SciPy's ufunc on a backend that takes NumPy's
    ufuncs (CuPy sends it to ``cupyx.scipy.special``; Dask maps it over its chunks)."""
    def form(be: Any, x: Any) -> Any:
        if not be.numpy_api:
            return NotImplemented
        from scipy import special
        return be.xp.astype(getattr(special, name)(x), x.dtype)
    return form


_erf = defop("Erf", _special("erf"), kinds="f", deriv=(lambda ans, x: _TWO_OVER_SQRT_PI * exp(-x * x),))
_erfc = defop("Erfc", _special("erfc"), kinds="f", deriv=(lambda ans, x: -_TWO_OVER_SQRT_PI * exp(-x * x),))
_erfinv = defop("Erfinv", _special("erfinv"), kinds="f", deriv=(lambda ans, x: _SQRT_PI_OVER_TWO * exp(ans * ans),))


def erf(x: Any, name: Any = None) -> Tensor:
    """The Gauss error function ``2/√π ∫₀ˣ exp(-t²) dt`` (floating input).

    >>> import tapegrad as tf
    >>> tf.math.erf(tf.constant([0.0, 1.0])).numpy().round(4)
    array([0.    , 0.8427], dtype=float32)
    """
    return _unary(_erf, x)


def erfc(x: Any, name: Any = None) -> Tensor:
    """The complementary error function ``1 - erf(x)``, accurate for large ``x``."""
    return _unary(_erfc, x)


def erfinv(x: Any, name: Any = None) -> Tensor:
    """The inverse of :func:`erf` on ``(-1, 1)``: ``±inf`` at ``±1``, NaN outside."""
    return _unary(_erfinv, x)


_SQRT_2PI = math.sqrt(2 * math.pi)
_ndtri = defop("Ndtri", _special("ndtri"), kinds="f", deriv=(lambda ans, x: _SQRT_2PI * exp(0.5 * ans * ans),))


_log_ndtr_op = defop("LogNdtr", _special("log_ndtr"), kinds="f",
                     deriv=(lambda ans, x: exp(-0.5 * x * x - ans) / _SQRT_2PI,))


def _log_ndtr(x: Any) -> Tensor:
    """``log Φ(x)``, the log of the standard normal CDF, accurate far into both tails (SciPy's
    ``log_ndtr``; no TensorFlow name: NumPy interop maps ``scipy.special.log_ndtr`` to it)."""
    return _unary(_log_ndtr_op, x)


def ndtri(x: Any, name: Any = None) -> Tensor:
    """The quantile function of the standard normal distribution (the inverse of its CDF):
    ``±inf`` at 0 and 1, NaN outside ``[0, 1]``."""
    return _unary(_ndtri, x)


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def erfcinv(x: Any, name: Any = None) -> Tensor:
    """The inverse of ``erfc`` on ``(0, 2)``, computed as ``-ndtri(x / 2) / √2`` (as TensorFlow)."""
    x = as_tensor(x)
    _check_kind(x, "f", "Ndtri")
    return -ndtri(0.5 * x) * math.sqrt(0.5)


# --------------------------------------------------------------------------- gamma family
def _digamma_fwd(x: np.ndarray) -> np.ndarray:
    from scipy import special
    out = special.psi(x)
    # poles (0, -1, -2, ...) are NaN, as in TensorFlow (SciPy gives -inf at 0)
    out = np.where((x <= 0) & (x == np.floor(x)), np.nan, out)
    return _as(out, x)


def _lgamma_fwd(x: np.ndarray) -> np.ndarray:
    from scipy import special
    out = special.gammaln(x)
    out = np.where(x == -np.inf, np.inf, out)   # SciPy: -inf; TF and C99's lgamma: +inf
    return _as(out, x)


def _polygamma_fwd(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    from scipy import special
    # (-1)^(a+1) a! ζ(a+1, x) with TF's zeta (NaN at the poles of odd-order zeta); a must be a
    # non-negative integer (inf counts, as in TF's kernel)
    ok = (a >= 0) & (a == np.floor(a))
    sign = np.where(np.fmod(a, 2) == 0, -1.0, 1.0)
    out = sign * special.gamma(a + 1.0) * _zeta_fwd(a + 1.0, x)
    out = np.where(ok, out, np.nan)
    zero = np.broadcast_to(a == 0, out.shape)
    if zero.any():  # order 0 is the digamma function (with its NaN poles)
        out = np.where(zero, _digamma_fwd(np.broadcast_to(x, out.shape).astype(np.float64)), out)
    return _as(out, a, x)


_lgamma = defop("Lgamma", _lgamma_fwd, kinds="f", deriv=(lambda ans, x: digamma(x),))
_digamma = defop("Digamma", _digamma_fwd, kinds="f", deriv=(lambda ans, x: polygamma(1, x),))
_polygamma = defop("Polygamma", _polygamma_fwd,
                   deriv=(None, lambda ans, a, x: polygamma(a + 1, x)), broadcast=True)


def lgamma(x: Any, name: Any = None) -> Tensor:
    """``log |Γ(x)|`` (floating input; ``inf`` at 0, -1, -2, ...). Its gradient is :func:`digamma`."""
    return _unary(_lgamma, x)


def digamma(x: Any, name: Any = None) -> Tensor:
    """``ψ(x) = d/dx log Γ(x)`` (NaN at 0, -1, -2, ...). Its gradient is ``polygamma(1, x)``."""
    return _unary(_digamma, x)


def polygamma(a: Any, x: Any, name: Any = None) -> Tensor:
    """``ψ⁽ᵃ⁾(x)``, the ``a``-th derivative of :func:`digamma` (``a`` a non-negative integer
    value of ``x``'s float dtype; NaN otherwise).

    The gradient with respect to ``x`` is ``polygamma(a + 1, x)``; ``a`` gets no gradient (None),
    as in TensorFlow.

    >>> import tapegrad as tf
    >>> print(tf.math.polygamma(tf.constant(1.0), tf.constant(1.0)).numpy().round(4))  # π²/6
    1.6449
    """
    return _binary_f32_f64(_polygamma, a, x)


def _special_of(x: Any) -> Any:
    """SciPy's ``special``, or CuPy's (``cupyx.scipy.special``) for a CuPy array: SciPy's zeta is a
    Python function over a private ufunc, which CuPy cannot route to its own."""
    if type(x).__module__.startswith("cupy"):
        return importlib.import_module("cupyx.scipy.special")
    from scipy import special
    return special


def _zeta_fwd(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """SciPy's zeta with TensorFlow's (Eigen's) special values: NaN for a NaN ``x``; 0 for
    ``x = inf`` and ``q > 1`` (the series' limit); at a pole ``q = 0, -1, ...`` (or ``-inf``) inf
    only for an even integer ``x``, NaN otherwise (the terms change sign across the pole)."""
    out = _special_of(x).zeta(x, q)
    pole = (q <= 0) & (q == np.floor(q))
    even = (x == np.floor(x)) & (np.fmod(x, 2) == 0)
    out = np.where(np.isnan(x) | pole & ~even & (x > 1) & np.isfinite(x), np.nan, out)
    out = np.where((x == np.inf) & (q > 1), 0.0, out)
    return _as(out, x, q)


_zeta = defop("Zeta", _zeta_fwd, deriv=(None, lambda ans, x, q: -x * zeta(x + 1, q)), broadcast=True)


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def zeta(x: Any, q: Any, name: Any = None) -> Tensor:
    """The Hurwitz zeta function ``Σₙ (n + q)^(-x)`` (float32/float64; NaN for ``x < 1``).

    The gradient with respect to ``q`` is ``-x * zeta(x + 1, q)``; ``x`` gets none (None), as in
    TensorFlow.
    """
    return _binary_f32_f64(_zeta, x, q)


def _igamma_fwd(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    from scipy import special
    return _as(special.gammainc(a, x), a, x)


def _igammac_fwd(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    from scipy import special
    return _as(special.gammaincc(a, x), a, x)


def _igamma_dx(ans: Tensor, a: Tensor, x: Tensor) -> Tensor:  # x^(a-1) e^-x / Γ(a)
    return exp((a - 1) * log(x) - x - lgamma(a))


@constant_maker
def _igamma_da(ans: Tensor, a: Tensor, x: Tensor) -> Tensor:
    """dP/da from P(a, x) = e^-x Σₙ x^(a+n) / Γ(a+n+1): Σₙ term_n (log x - ψ(a+n+1)), summed
    past the terms' peak at n ≈ x until they are negligible."""
    xv = cast(x, _dt.float64)
    top = maximum(reduce_max(where(is_finite(xv), xv, zeros_like(xv))), 0.0)
    n = np.arange(int(top + 12.0 * sqrt(top) + 40.0), dtype=x._value.dtype)  # (int(): a guarded read)
    an = expand_dims(a, -1) + n
    lx = expand_dims(log(x), -1)
    terms = exp(an * lx - expand_dims(x, -1) - lgamma(an + 1)) * (lx - digamma(an + 1))
    return reduce_sum(terms, axis=-1)


_igamma = defop("Igamma", _igamma_fwd, deriv=(_igamma_da, _igamma_dx), broadcast=True)
_igammac = defop("Igammac", _igammac_fwd, deriv=(lambda ans, a, x: -_igamma_da(ans, a, x),
                                                 lambda ans, a, x: -_igamma_dx(ans, a, x)), broadcast=True)


def igamma(a: Any, x: Any, name: Any = None) -> Tensor:
    """The regularized lower incomplete gamma function ``P(a, x) = γ(a, x) / Γ(a)``
    (float32/float64). Differentiable in ``x`` and in ``a`` (the latter from its series).

    >>> import tapegrad as tf
    >>> print(tf.math.igamma(2.0, 1.0).numpy().round(4))
    0.2642
    """
    return _binary_f32_f64(_igamma, a, x)


def igammac(a: Any, x: Any, name: Any = None) -> Tensor:
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``.

    >>> import tapegrad as tf
    >>> print(tf.math.igammac(2.0, 1.0).numpy().round(4))
    0.7358
    """
    return _binary_f32_f64(_igammac, a, x)


def _betainc_fwd(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    from scipy import special
    return _as(special.betainc(a, b, x), a, b, x)


_betainc = defop("Betainc", _betainc_fwd, broadcast=True, deriv=(
    None, None, lambda ans, a, b, x: exp((a - 1) * log(x) + (b - 1) * log1p(-x) - lbeta(stack([a, b], -1)))))


def betainc(a: Any, b: Any, x: Any, name: Any = None) -> Tensor:
    """The regularized incomplete beta function ``I_x(a, b)`` (float32/float64). Its gradient
    reaches ``x`` only (``a`` and ``b`` get None), as in TensorFlow.

    >>> import tapegrad as tf
    >>> print(tf.math.betainc(2.0, 3.0, 0.5).numpy().round(4))
    0.6875
    """
    a, b, x = (as_tensor(v) for v in (a, b, x))
    if len({a.dtype, b.dtype, x.dtype}) != 1 or a._value.dtype not in (np.float32, np.float64):
        raise InvalidArgumentError(f"Betainc: a, b and x must all be float32 or all float64, got "
                                   f"{a.dtype.name}, {b.dtype.name} and {x.dtype.name}.")
    shape = np.broadcast_shapes(a._value.shape, b._value.shape, x._value.shape)
    a, b, x = (broadcast_to(v, shape) if v._value.shape != shape else v for v in (a, b, x))
    return apply(_betainc, (a, b, x))


def lbeta(x: Any, name: Any = None) -> Tensor:
    """``log |B(x)| = Σ lgamma(x) - lgamma(Σ x)`` over the last axis (``-inf`` for an empty axis)."""
    x = as_tensor(x)
    _check_kind(x, "f", "Lgamma")
    if x._value.ndim == 0:
        raise InvalidArgumentError("lbeta reduces over the last axis: the input needs at least one "
                                   "axis, got a scalar [Op:Sum]")
    return reduce_sum(lgamma(x), axis=-1) - lgamma(reduce_sum(x, axis=-1))


# --------------------------------------------------------------------------- Bessel functions
def _at_zero(x: Tensor, value: float, f: Any) -> Tensor:
    """``value`` where ``x == 0``, else ``f(x with its zeros replaced by 1)`` (no 0/0 in either
    branch, so higher derivatives stay finite)."""
    zero = equal(x, zeros_like(x))
    return where(zero, zeros_like(x) + value, f(where(zero, ones_like(x), x)))


_i0 = defop("BesselI0", _special("i0"), kinds="f", deriv=(lambda ans, x: bessel_i1(x),))
_i0e = defop("BesselI0e", _special("i0e"), kinds="f", deriv=(lambda ans, x: bessel_i1e(x) - sign(x) * ans,))
_i1 = defop("BesselI1", _special("i1"), kinds="f",
            deriv=(lambda ans, x: _at_zero(x, 0.5, lambda s: bessel_i0(s) - bessel_i1(s) / s),))
_i1e = defop("BesselI1e", _special("i1e"), kinds="f",
             deriv=(lambda ans, x: _at_zero(x, 0.5, lambda s: bessel_i0e(s) - bessel_i1e(s) * (sign(s) + 1 / s)),))

for _op in (_erf, _erfc, _erfinv, _ndtri, _i0, _i0e, _i1, _i1e):
    _bk.register(_op, _special_form(_op.fwd.__name__))


def bessel_i0(x: Any, name: Any = None) -> Tensor:
    """The modified Bessel function of the first kind of order 0; its gradient is :func:`bessel_i1`."""
    return _unary(_i0, x)


def bessel_i0e(x: Any, name: Any = None) -> Tensor:
    """``exp(-|x|) * bessel_i0(x)``, which does not overflow."""
    return _unary(_i0e, x)


def bessel_i1(x: Any, name: Any = None) -> Tensor:
    """The modified Bessel function of the first kind of order 1 (gradient 0.5 at 0)."""
    return _unary(_i1, x)


def bessel_i1e(x: Any, name: Any = None) -> Tensor:
    """``exp(-|x|) * bessel_i1(x)``, which does not overflow (gradient 0.5 at 0)."""
    return _unary(_i1e, x)



def _special_below_zero(name: str, value: float) -> Any:
    """A :func:`_special` forward that gives ``value`` below 0, where TensorFlow's kernels give
    ``±inf`` (the Bessel functions Y and K are real only for ``x >= 0``; SciPy gives NaN)."""
    f = _special(name)

    def fwd(x: np.ndarray) -> np.ndarray:
        return np.where(x < 0, np.asarray(value, x.dtype), f(x))
    fwd.__name__ = name
    return fwd


# TensorFlow's tf.math.special: the Bessel functions J, Y and K of orders 0 and 1 (K also
# scaled by exp(x)), Dawson's integral, the exponential integral Ei, the Fresnel integrals and
# Spence's function; forwards from SciPy, derivative rules as TensorFlow's (math_grad.py)
_j0 = defop("BesselJ0", _special("j0"), kinds="f", deriv=(lambda ans, x: -bessel_j1(x),))
_j1 = defop("BesselJ1", _special("j1"), kinds="f",
            deriv=(lambda ans, x: _at_zero(x, 0.5, lambda s: bessel_j0(s) - bessel_j1(s) / s),))
_y0 = defop("BesselY0", _special_below_zero("y0", -np.inf), kinds="f", deriv=(lambda ans, x: -bessel_y1(x),))
_y1 = defop("BesselY1", _special_below_zero("y1", -np.inf), kinds="f", deriv=(lambda ans, x: bessel_y0(x) - ans / x,))
_k0 = defop("BesselK0", _special_below_zero("k0", np.inf), kinds="f", deriv=(lambda ans, x: -bessel_k1(x),))
_k0e = defop("BesselK0e", _special_below_zero("k0e", np.inf), kinds="f", deriv=(lambda ans, x: ans - bessel_k1e(x),))
_k1 = defop("BesselK1", _special_below_zero("k1", np.inf), kinds="f", deriv=(lambda ans, x: -bessel_k0(x) - ans / x,))
_k1e = defop("BesselK1e", _special_below_zero("k1e", np.inf), kinds="f",
             deriv=(lambda ans, x: ans * (1 - reciprocal(x)) - bessel_k0e(x),))
_dawsn = defop("Dawsn", _special("dawsn"), kinds="f", deriv=(lambda ans, x: 1 - 2 * x * ans,))
_expint = defop("Expint", _special("expi"), kinds="f", deriv=(lambda ans, x: exp(x) / x,))
_HALF_PI = math.pi / 2


def _fresnel_fwd(which: int) -> Any:
    def fwd(x: np.ndarray) -> np.ndarray:
        from scipy import special
        return _as(special.fresnel(x)[which], x)   # SciPy gives (S(x), C(x))
    fwd.__name__ = ("fresnel_sin", "fresnel_cos")[which]
    return fwd


_fresnel_sin = defop("FresnelSin", _fresnel_fwd(0), kinds="f", deriv=(lambda ans, x: sin(_HALF_PI * x * x),))
_fresnel_cos = defop("FresnelCos", _fresnel_fwd(1), kinds="f", deriv=(lambda ans, x: cos(_HALF_PI * x * x),))
_spence = defop("Spence", _special("spence"), kinds="f",
                deriv=(lambda ans, x: _at_one(x, lambda u: u * (0.5 - u / 3) - 1, lambda s: log(s) / (1 - s)),))
for _op in (_j0, _j1, _dawsn, _expint, _spence):
    _bk.register(_op, _special_form(_op.fwd.__name__))


def _at_one(x: Tensor, series: Any, f: Any) -> Tensor:
    """``series(x - 1)`` where ``x == 1``, else ``f(x with its ones replaced by 2)``: no 0/0 in
    either branch, and the series gives the derivatives at 1 as far as it goes."""
    one = equal(x, ones_like(x))
    return where(one, series(x - 1), f(where(one, ones_like(x) + 1, x)))


def bessel_j0(x: Any, name: Any = None) -> Tensor:
    """The Bessel function of the first kind of order 0; its gradient is ``-bessel_j1(x)``.

    >>> import tapegrad as tf
    >>> tf.math.special.bessel_j0(tf.constant([0.0, 1.0])).numpy().round(4)
    array([1.    , 0.7652], dtype=float32)
    """
    return _unary(_j0, x)


def bessel_j1(x: Any, name: Any = None) -> Tensor:
    """The Bessel function of the first kind of order 1 (gradient ``j0(x) - j1(x)/x``, 0.5 at 0)."""
    return _unary(_j1, x)


def bessel_y0(x: Any, name: Any = None) -> Tensor:
    """The Bessel function of the second kind of order 0 (``-inf`` at 0 and below, as TensorFlow)."""
    return _unary(_y0, x)


def bessel_y1(x: Any, name: Any = None) -> Tensor:
    """The Bessel function of the second kind of order 1 (``-inf`` at 0 and below, as TensorFlow)."""
    return _unary(_y1, x)


def bessel_k0(x: Any, name: Any = None) -> Tensor:
    """The modified Bessel function of the second kind of order 0 (``inf`` at 0 and below, as TensorFlow)."""
    return _unary(_k0, x)


def bessel_k0e(x: Any, name: Any = None) -> Tensor:
    """``exp(x) * bessel_k0(x)``, which does not underflow for large ``x``."""
    return _unary(_k0e, x)


def bessel_k1(x: Any, name: Any = None) -> Tensor:
    """The modified Bessel function of the second kind of order 1 (``inf`` at 0 and below, as TensorFlow)."""
    return _unary(_k1, x)


def bessel_k1e(x: Any, name: Any = None) -> Tensor:
    """``exp(x) * bessel_k1(x)``, which does not underflow for large ``x``."""
    return _unary(_k1e, x)


def dawsn(x: Any, name: Any = None) -> Tensor:
    """Dawson's integral ``exp(-x²) ∫₀ˣ exp(t²) dt``; its gradient is ``1 - 2 x dawsn(x)``.

    >>> import tapegrad as tf
    >>> print(tf.math.special.dawsn(tf.constant(1.0)).numpy().round(4))
    0.5381
    """
    return _unary(_dawsn, x)


def expint(x: Any, name: Any = None) -> Tensor:
    """The exponential integral ``Ei(x) = -∫₋ₓ^∞ exp(-t)/t dt`` (SciPy's ``expi``); its gradient
    is ``exp(x) / x``. For ``x < 0`` it is the real ``Ei(x) = -E₁(-x)``, where TensorFlow gives NaN."""
    return _unary(_expint, x)


def fresnel_cos(x: Any, name: Any = None) -> Tensor:
    """The Fresnel cosine integral ``∫₀ˣ cos(π t²/2) dt``; its gradient is ``cos(π x²/2)``."""
    return _unary(_fresnel_cos, x)


def fresnel_sin(x: Any, name: Any = None) -> Tensor:
    """The Fresnel sine integral ``∫₀ˣ sin(π t²/2) dt``; its gradient is ``sin(π x²/2)``."""
    return _unary(_fresnel_sin, x)


def spence(x: Any, name: Any = None) -> Tensor:
    """Spence's function ``∫₁ˣ log(t) / (1 - t) dt`` (NaN for ``x < 0``); its gradient is
    ``log(x) / (1 - x)``, and -1 at ``x = 1``, as in TensorFlow (whose second derivative there is
    NaN; tapegrad's is the true 1/2).

    >>> import tapegrad as tf
    >>> print(tf.math.special.spence(tf.constant(1.0)).numpy())
    0.0
    """
    return _unary(_spence, x)


# --------------------------------------------------------------------------- softplus
def _softplus_fwd(x: np.ndarray) -> np.ndarray:
    # log(1 + exp(x)) without overflow; far from 0 the result is x or exp(x) to working precision
    t = np.log(np.finfo(x.dtype).eps) + 2
    e = np.exp(np.minimum(x, -t))
    out = np.where(x > -t, x, np.where(x < t, e, np.log1p(e)))
    return np.asarray(out, x.dtype)


_softplus = defop("Softplus", _softplus_fwd, kinds="f", deriv=(lambda ans, x: sigmoid(x),))
def _softplus_form(be: Any, x: Any) -> Any:
    """``log(1 + exp(x))``: ``x`` or ``exp(x)`` far from 0 (as the NumPy forward)."""
    xp = be.xp
    t = math.log(xp.finfo(x.dtype).eps) + 2
    e = xp.exp(xp.minimum(x, xp.asarray(-t, dtype=x.dtype)))
    return xp.where(x > -t, x, xp.where(x < t, e, xp.log1p(e)))


_bk.register(_softplus, _softplus_form)


def softplus(features: Any, name: Any = None) -> Tensor:
    """``log(1 + exp(x))``, computed without overflow; its gradient is ``sigmoid(x)``.

    >>> import tapegrad as tf
    >>> tf.math.softplus(tf.constant([0.0, 1.0, 100.0])).numpy().round(4)
    array([  0.6931,   1.3133, 100.    ], dtype=float32)
    """
    return _unary(_softplus, features)


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def log_sigmoid(x: Any, name: Any = None) -> Tensor:
    """``log(sigmoid(x)) = -softplus(-x)``, stable for large ``|x|``."""
    x = as_tensor(x)
    _check_kind(x, "f", "Softplus")
    return -softplus(-x)


# --------------------------------------------------------------------------- x * log(y) family
def _x_times(f: Any) -> Any:
    """``x * f(y)``, and exactly 0 wherever ``x == 0`` (even where ``f(y)`` is inf or NaN)."""
    def fwd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        v = x * f(y)
        return np.where(x == 0, x, v)   # x itself: -0.0 stays -0.0, as in TensorFlow
    return fwd


_xlogy = defop("Xlogy", _x_times(np.log), kinds="fc",
               deriv=(lambda ans, x, y: xlogy(_nonzero_mask(x), y), lambda ans, x, y: xdivy(x, y)),
               broadcast=True)
_xlog1py = defop("Xlog1py", _x_times(np.log1p), kinds="fc",
                 deriv=(lambda ans, x, y: xlog1py(_nonzero_mask(x), y), lambda ans, x, y: xdivy(x, 1 + y)),
                 broadcast=True)
_xdivy = defop("Xdivy", _x_times(np.reciprocal), kinds="fc",
               deriv=(lambda ans, x, y: xdivy(_nonzero_mask(x), y), lambda ans, x, y: xdivy(-x, y * y)),
               broadcast=True)


def _x_times_form(f: str) -> Any:
    """The array-API form of a :func:`_x_times` op, ``f`` the namespace's function of ``y``."""
    def form(be: Any, x: Any, y: Any) -> Any:
        xp = be.xp
        fy = 1 / y if f == "reciprocal" else getattr(xp, f)(y)
        return xp.where(x == 0, x, x * fy)
    return form


_bk.register(_xlogy, _x_times_form("log"))
_bk.register(_xlog1py, _x_times_form("log1p"))
_bk.register(_xdivy, _x_times_form("reciprocal"))


def xlogy(x: Any, y: Any, name: Any = None) -> Tensor:
    """``x * log(y)``, and 0 wherever ``x == 0`` (so ``xlogy(0, 0) = 0``), with broadcasting.

    Gradients follow TensorFlow: ``log(y)`` for ``x`` (0 where ``x == 0``) and ``x / y`` for ``y``
    (0 where ``x == 0``), so entries with ``x == 0`` get zero gradients for both arguments.

    >>> import tapegrad as tf
    >>> tf.math.xlogy(tf.constant([0.0, 2.0]), tf.constant([0.0, 1.0])).numpy()
    array([0., 0.], dtype=float32)
    """
    return binary(_xlogy, x, y)


def xlog1py(x: Any, y: Any, name: Any = None) -> Tensor:
    """``x * log1p(y)``, and 0 wherever ``x == 0`` (gradients as :func:`xlogy`)."""
    return binary(_xlog1py, x, y)


def xdivy(x: Any, y: Any, name: Any = None) -> Tensor:
    """``x / y``, and 0 wherever ``x == 0`` (gradients 0 there for both arguments)."""
    return binary(_xdivy, x, y)


# --------------------------------------------------------------------------- no-NaN division
def _div_no_nan_fwd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    v = x / np.where(y == 0, np.ones((), y.dtype), y)
    return np.where(y == 0, np.zeros((), v.dtype), v)


def _div_no_nan_dy(x: Tensor, y: Tensor) -> Tensor:
    return divide_no_nan(divide_no_nan(-x, y), y)


# TensorFlow's rule: both cotangents are 0 where y == 0 (for x even when g is inf)
_div_no_nan = defop("DivNoNan", _div_no_nan_fwd, broadcast=True,
                    vjp=(lambda g, ans, x, y: divide_no_nan(g, conj(y)),
                         lambda g, ans, x, y: g * conj(_div_no_nan_dy(x, y))),
                    jvp=(lambda t, ans, x, y: divide_no_nan(t, y), lambda t, ans, x, y: t * _div_no_nan_dy(x, y)))
def _div_no_nan_form(be: Any, x: Any, y: Any) -> Any:
    xp = be.xp
    v = x / xp.where(y == 0, xp.ones_like(y), y)
    return xp.where(y == 0, xp.zeros_like(v), v)


_bk.register(_div_no_nan, _div_no_nan_form)


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def divide_no_nan(x: Any, y: Any, name: Any = None) -> Tensor:
    """``x / y``, and 0 wherever ``y == 0`` (even if ``x`` is 0, inf or NaN), with broadcasting.

    Integer inputs are cast to float first, as :func:`tf.math.truediv` does. Where ``y == 0``
    the gradients for both ``x`` and ``y`` are 0.

    >>> import tapegrad as tf
    >>> tf.math.divide_no_nan(tf.constant([3.0, 3.0]), tf.constant([0.0, 2.0])).numpy()
    array([0. , 1.5], dtype=float32)
    """
    try:
        x, y = binary_operands(x, y, "DivNoNan")
    except InvalidArgumentError as e:  # TF's Python wrapper raises TypeError for mixed dtypes
        raise TypeError(str(e)) from None
    if x._value.dtype.kind in "iub":
        _check_kind(x, "fciu", "DivNoNan")
        x, y = _int_to_float(x), _int_to_float(y)
    return apply(_div_no_nan, (x, y))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def reciprocal_no_nan(x: Any, name: Any = None) -> Tensor:
    """``1 / x``, and 0 where ``x == 0`` (floating or complex input; gradients as
    :func:`divide_no_nan`)."""
    x = as_tensor(x)
    _check_kind(x, "fc", "DivNoNan")
    return apply(_div_no_nan, (ones_like(x), x))


# --------------------------------------------------------------------------- squared difference
def _sqdiff_fwd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    d = x - y
    return d * np.conj(d) if d.dtype.kind == "c" else d * d


def _re(g: Tensor) -> Tensor:
    """The real part of a complex cotangent, as complex (``|d|²`` is real-valued)."""
    return complex_(real(g), zeros_like(real(g))) if g._value.dtype.kind == "c" else g


def _sqdiff_vjp(g: Tensor, x: Tensor, y: Tensor) -> Tensor:
    return 2 * _re(g) * (x - y)


def _sqdiff_jvp(t: Tensor, x: Tensor, y: Tensor) -> Tensor:
    d = x - y
    if d._value.dtype.kind == "c":
        return 2 * _re(conj(d) * t)
    return 2 * d * t


_sqdiff = defop("SquaredDifference", _sqdiff_fwd, broadcast=True,
                vjp=(lambda g, ans, x, y: _sqdiff_vjp(g, x, y), lambda g, ans, x, y: -_sqdiff_vjp(g, x, y)),
                jvp=(lambda t, ans, x, y: _sqdiff_jvp(t, x, y), lambda t, ans, x, y: _sqdiff_jvp(-t, x, y)))
_bk.register(_sqdiff, lambda be, x, y: (x - y) * (
    be.xp.conj(x - y) if be.xp.isdtype(x.dtype, "complex floating") else x - y))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def squared_difference(x: Any, y: Any, name: Any = None) -> Tensor:
    """``(x - y)²`` elementwise with broadcasting (``|x - y|²`` for complex, as TensorFlow).

    >>> import tapegrad as tf
    >>> tf.math.squared_difference(tf.constant([1.0, 4.0]), 2.0).numpy()
    array([1., 4.], dtype=float32)
    """
    x, y = binary_operands(x, y, "SquaredDifference")
    dt = x._value.dtype
    if not (dt.kind in "fc" or dt in (np.int32, np.int64)):
        raise _dt_error("SquaredDifference", x, "floating, complex, int32, int64")
    return apply(_sqdiff, (x, y))


# --------------------------------------------------------------------------- angle
def _angle_vjp(g: Tensor, ans: Tensor, x: Tensor) -> Tensor:
    # d angle = Im(dz / z): the cotangent is g * i / conj(z) (TensorFlow's convention)
    return complex_(zeros_like(g), g) / conj(x)


_angle = defop("Angle", np.angle, vjp=(_angle_vjp,), jvp=(lambda t, ans, x: imag(t / x),))
_vmap.register(_angle, _vmap.broadcasting)
_bk.register(_angle, lambda be, x: be.xp.atan2(be.xp.imag(x), be.xp.real(x)))  # (complex x only)


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def angle(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """The argument of a complex number, in ``(-π, π]`` (a real tensor).

    For real input it is π where ``input < 0`` and 0 elsewhere, with no gradient (as TensorFlow).

    >>> import tapegrad as tf
    >>> tf.math.angle(tf.constant([1j, -1.0 + 0j])).numpy().round(4)  # π/2, π
    array([1.5708, 3.1416])
    """
    x = as_tensor(input)
    if x._value.dtype.kind == "c":
        return apply(_angle, (x,))
    if x._value.dtype.kind != "f":
        raise TypeError(f"angle: cannot produce π in dtype {x.dtype.name}; pass a floating or complex "
                        "tensor (e.g. tf.cast(x, tf.float32)).")
    return where(less(x, zeros_like(x)), zeros_like(x) + math.pi, zeros_like(x))


# --------------------------------------------------------------------------- piecewise constant
_floor = defop("Floor", np.floor, kinds="f", nondiff=True)
_ceil = defop("Ceil", np.ceil, kinds="f", nondiff=True)
_round = defop("Round", np.round, kinds="f", nondiff=True)  # half to even, as TensorFlow
_rint = defop("Rint", np.rint, kinds="f", nondiff=True)
_is_nan = defop("IsNan", np.isnan, kinds="f", nondiff=True)
_is_inf = defop("IsInf", np.isinf, kinds="f", nondiff=True)
_is_finite = defop("IsFinite", np.isfinite, kinds="f", nondiff=True)
for _op in (_floor, _ceil, _round, _rint, _is_nan, _is_inf, _is_finite):
    _vmap.register(_op, _vmap.broadcasting)
_bk.register(_round, lambda be, x: be.xp.round(x))


def floor(x: Any, name: Any = None) -> Tensor:
    """The largest integer not greater than ``x`` (floating input). No gradient (None)."""
    return _unary(_floor, x)


def ceil(x: Any, name: Any = None) -> Tensor:
    """The smallest integer not less than ``x`` (floating input). No gradient (None)."""
    return _unary(_ceil, x)


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def round(x: Any, name: Any = None) -> Tensor:  # noqa: A001 (TensorFlow's name)
    """Round to the nearest integer, halves to even (``[0.5, 1.5, 2.5] -> [0, 2, 2]``).

    Integer tensors are returned unchanged. No gradient (None), as in TensorFlow.

    >>> import tapegrad as tf
    >>> tf.round(tf.constant([0.5, 1.5, 2.5, -1.7])).numpy()
    array([ 0.,  2.,  2., -2.], dtype=float32)
    """
    x = as_tensor(x)
    if x._value.dtype.kind in "iu":
        return x
    return _unary(_round, x)


def rint(x: Any, name: Any = None) -> Tensor:
    """The nearest integer, halves to even (floating input). No gradient (None)."""
    return _unary(_rint, x)


def is_nan(x: Any, name: Any = None) -> Tensor:
    """True where ``x`` is NaN (floating input; a bool tensor, no gradient)."""
    return _unary(_is_nan, x)


def is_inf(x: Any, name: Any = None) -> Tensor:
    """True where ``x`` is ``±inf`` (floating input; a bool tensor, no gradient)."""
    return _unary(_is_inf, x)


def is_finite(x: Any, name: Any = None) -> Tensor:
    """True where ``x`` is neither infinite nor NaN (floating input; a bool tensor, no gradient)."""
    return _unary(_is_finite, x)


def nextafter(x1: Any, x2: Any, name: Any = None) -> Tensor:
    """The next representable value after ``x1`` towards ``x2`` (float32/float64; no gradient).

    >>> import tapegrad as tf
    >>> bool(tf.math.nextafter(1.0, 2.0) > 1.0)
    True
    """
    a, b = binary_operands(x1, x2, "NextAfter")
    if a._value.dtype not in (np.float32, np.float64):
        raise _dt_error("NextAfter", a, "float32, float64")
    return apply(_nextafter, (a, b))


_nextafter = defop("NextAfter", np.nextafter, nondiff=True, broadcast=True)


_SOBOL_BITS = 30
_SOBOL: dict = {}


def _sobol_directions(d: int) -> np.ndarray:
    """``[d, 30]`` direction numbers (Joe and Kuo's, as SciPy ships them, Bratley and Fox's
    recurrence), scaled to their bit positions."""
    if d not in _SOBOL:
        spec = importlib.util.find_spec("scipy")
        data = np.load(os.path.join(os.path.dirname(spec.origin), "stats", "_sobol_direction_numbers.npz"),
                       allow_pickle=False)
        poly, vinit = data["poly"], data["vinit"]
        if d > len(poly):
            raise InvalidArgumentError(f"dim must be at most {len(poly)}, got {d} [Op:SobolSample]")
        v = np.zeros((d, _SOBOL_BITS), np.int64)
        v[0] = 1
        for r in range(1, d):
            p = int(poly[r])
            m = p.bit_length() - 1
            v[r, :m] = vinit[r, :m]
            for j in range(m, _SOBOL_BITS):
                new = int(v[r, j - m])
                for k in range(m):
                    if (p >> (m - 1 - k)) & 1:
                        new ^= int(v[r, j - k - 1]) << (k + 1)
                v[r, j] = new
        _SOBOL[d] = v << np.arange(_SOBOL_BITS - 1, -1, -1, dtype=np.int64)
    return _SOBOL[d]


@constant_maker  # (from Python values and guarded reads)
def sobol_sample(dim: Any, num_results: Any, skip: Any = 0, dtype: Any = _dt.float32, name: Any = None) -> Tensor:
    """``num_results`` points of the ``dim``-dimensional Sobol sequence (Joe and Kuo's direction
    numbers, unscrambled), after the origin and ``skip`` more points: TensorFlow's points,
    shape ``[num_results, dim]``.

    >>> import tapegrad as tf
    >>> tf.math.sobol_sample(2, 3).numpy()
    array([[0.5 , 0.5 ],
           [0.75, 0.25],
           [0.25, 0.75]], dtype=float32)
    """
    dt = _dt.as_dtype(dtype)
    if dt._np not in (np.float32, np.float64):
        raise InvalidArgumentError(f"sobol_sample: dtype must be float32 or float64, got {dt.name}.")
    d, n, k = (int(np.asarray(host_value(as_tensor(v), what))) for v, what in
               ((dim, "dim"), (num_results, "num_results"), (skip, "skip")))
    if d < 1:
        raise InvalidArgumentError(f"dim must be at least one, got {d} [Op:SobolSample]")
    if n < 1:
        raise InvalidArgumentError(f"num_results must be at least one, got {n} [Op:SobolSample]")
    if k < 0:
        raise InvalidArgumentError(f"skip must be non-negative, got {k} [Op:SobolSample]")
    v = _sobol_directions(d)
    idx = np.arange(k + 1, k + 1 + n, dtype=np.int64)
    gray = idx ^ (idx >> 1)
    q = np.zeros((n, d), np.int64)
    for j in range(int(gray.max()).bit_length()):
        q ^= np.where(((gray >> j) & 1)[:, None] == 1, v[:, j], 0)
    return _wrap((q / float(1 << _SOBOL_BITS)).astype(dt._np))
