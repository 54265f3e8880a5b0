"""``tapegrad.math``: elementwise math, reductions and scans (TensorFlow's ``tf.math``)."""
import importlib.machinery as _machinery
import sys as _sys
import types as _types
import typing as _typing

from .ops.array import invert_permutation  # noqa: F401
from .ops.math import (  # noqa: F401
    abs, add, add_n, conj, cos, cumprod, cumsum, divide, equal, exp, expm1, floor_div, floordiv,
    floormod, greater, greater_equal, imag, less, less_equal, log, log1p, logical_and,
    logical_not, logical_or, logical_xor, maximum, minimum, mod, multiply, multiply_no_nan,
    negative, not_equal, polyval, pow, real, reciprocal, rsqrt, saturate_cast, scalar_mul,
    sigmoid, sign, sin, sqrt, square, subtract, tan, tanh, truediv, truncatemod,
)
from .ops.math import add_n as accumulate_n  # noqa: F401
from .ops.math import reciprocal as inv  # noqa: F401
from .ops.nn import l2_normalize, log_softmax, softmax, softsign  # noqa: F401
from .ops.reduction import (  # noqa: F401
    argmax, argmin, count_nonzero, cumulative_logsumexp, is_non_decreasing,
    is_strictly_increasing, reduce_all, reduce_any, reduce_euclidean_norm, reduce_logsumexp,
    reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_std, reduce_sum, reduce_variance,
    zero_fraction,
)
from .ops.segment import (  # noqa: F401
    bincount, confusion_matrix, segment_max, segment_mean, segment_min, segment_prod,
    segment_sum, unsorted_segment_max, unsorted_segment_mean, unsorted_segment_min,
    unsorted_segment_prod, unsorted_segment_sqrt_n, unsorted_segment_sum,
)
from .ops.sort import approx_max_k, approx_min_k, in_top_k, top_k  # noqa: F401
from .ops.special import (  # noqa: F401
    acos, acosh, angle, asin, asinh, atan, atan2, atanh, bessel_i0, bessel_i0e, bessel_i1,
    bessel_i1e, betainc, ceil, cosh, digamma, divide_no_nan, erf, erfc, erfcinv, erfinv, floor,
    igamma, igammac, is_finite, is_inf, is_nan, lbeta, lgamma, log_sigmoid, ndtri, nextafter,
    polygamma, reciprocal_no_nan, rint, round, sinh, sobol_sample, softplus, squared_difference, xdivy,
    xlog1py, xlogy, zeta,
)
from .ops import special as _sp

special = _types.ModuleType("tapegrad.math.special", """TensorFlow's ``tf.math.special``: Bessel
functions, Dawson's integral, the exponential integral, the Fresnel integrals and Spence's function,
each differentiable to any order (forwards from SciPy).

>>> import tapegrad as tf
>>> tf.math.special.bessel_j0(tf.constant([0.0, 1.0])).numpy().round(4)
array([1.    , 0.7652], dtype=float32)
""")
special.__dict__.update(
    bessel_i0=_sp.bessel_i0, bessel_i0e=_sp.bessel_i0e, bessel_i1=_sp.bessel_i1, bessel_i1e=_sp.bessel_i1e,
    bessel_j0=_sp.bessel_j0, bessel_j1=_sp.bessel_j1, bessel_k0=_sp.bessel_k0, bessel_k0e=_sp.bessel_k0e,
    bessel_k1=_sp.bessel_k1, bessel_k1e=_sp.bessel_k1e, bessel_y0=_sp.bessel_y0, bessel_y1=_sp.bessel_y1,
    dawsn=_sp.dawsn, expint=_sp.expint, fresnel_cos=_sp.fresnel_cos, fresnel_sin=_sp.fresnel_sin,
    spence=_sp.spence)
special.__all__ = sorted(n for n in special.__dict__ if not n.startswith("_"))
special.__spec__ = _machinery.ModuleSpec(special.__name__, None)
_sys.modules[special.__name__] = special  # (importable: import tapegrad.math.special)


if not _typing.TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "not covered yet" for a TF name, "did you mean" for a typo
        if name.startswith("_"):  # (private and special names: no lookup, no import)
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from ._missing import attribute_error
        raise attribute_error("math", name)
