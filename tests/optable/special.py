"""Op table: the special family (tapegrad/ops/special.py): special functions, the x*log(y)
family, no-NaN division, rounding and float tests."""
import tapegrad as tf
from optable import OpCase
from tapegrad.ops.special import _log_ndtr

S = [((),), ((3,),), ((2, 3),)]          # unary shapes
B = [((), ()), ((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 3))]  # broadcasting binary shapes
POS = (0.5, 2.0)
UNIT = (-0.9, 0.9)


def _complex_pair(x, y):
    return tf.complex(x, y)


CASES = [
    # hyperbolic and inverse trigonometric
    OpCase("Sinh", tf.math.sinh, S),
    OpCase("Cosh", tf.math.cosh, S),
    OpCase("Asin", tf.math.asin, S, domain=UNIT),
    OpCase("Acos", tf.math.acos, S, domain=UNIT),
    OpCase("Atan", tf.math.atan, S),
    OpCase("Asinh", tf.math.asinh, S),
    OpCase("Acosh", tf.math.acosh, S, domain=(1.2, 3.0)),
    OpCase("Atanh", tf.math.atanh, S, domain=UNIT),
    OpCase("Atan2", tf.math.atan2, B, domain=[(-2.0, 2.0), POS]),
    OpCase("complex-trig", lambda x, y: tf.math.real(
        tf.math.sinh(_complex_pair(x, y)) * tf.math.cosh(_complex_pair(y, x))
        + tf.math.asin(_complex_pair(x, y)) * tf.math.acos(_complex_pair(y, x))
        + tf.math.atan(_complex_pair(x, y)) + tf.math.asinh(_complex_pair(y, x))
        + tf.math.acosh(_complex_pair(x + 2.0, y)) * tf.math.atanh(_complex_pair(x, y))),
        [((3,), (3,))], domain=(0.1, 0.6),
        ops=("Sinh", "Cosh", "Asin", "Acos", "Atan", "Asinh", "Acosh", "Atanh")),
    # error and gamma families
    OpCase("Erf", tf.math.erf, S),
    OpCase("Erfc", tf.math.erfc, S),
    OpCase("Erfinv", tf.math.erfinv, S, domain=UNIT),
    OpCase("Lgamma", tf.math.lgamma, S, domain=(0.5, 3.0)),
    OpCase("Lgamma-negative", tf.math.lgamma, S, domain=(-0.9, -0.1), ops=("Lgamma",)),
    OpCase("Digamma", tf.math.digamma, S, domain=(0.5, 3.0)),
    OpCase("Polygamma", lambda x: tf.math.polygamma(tf.constant([0.0, 1.0, 3.0], tf.float64), x),
           [((3,),), ((2, 3),)], domain=(0.5, 3.0)),
    OpCase("Ndtri", tf.math.ndtri, S, domain=(0.05, 0.95)),
    OpCase("LogNdtr", _log_ndtr, S, domain=(-6.0, 3.0)),
    OpCase("erfcinv", tf.math.erfcinv, S, domain=(0.1, 1.9), ops=("Ndtri", "Mul", "Neg")),
    OpCase("Zeta", lambda q: tf.math.zeta(tf.constant([2.0, 3.0, 4.5], tf.float64), q), [((3,),), ((2, 3),)],
           domain=(0.5, 2.0)),
    OpCase("Igamma", tf.math.igamma, [((3,), (3,)), ((2, 3), (3,))], domain=[(0.5, 3.0), (0.2, 4.0)]),
    OpCase("Igammac", tf.math.igammac, [((3,), (3,))], domain=[(0.5, 3.0), (0.2, 4.0)]),
    OpCase("Betainc", lambda x: tf.math.betainc(tf.constant([0.5, 2.0, 3.5], tf.float64),
                                                tf.constant([1.5, 0.7, 2.0], tf.float64), x),
           [((3,),), ((2, 3),)], domain=(0.1, 0.9)),
    OpCase("lbeta", tf.math.lbeta, [((3,),), ((2, 3),)], domain=(0.5, 3.0), ops=("Lgamma", "Sum", "Sub")),
    OpCase("Bessel", lambda x: tf.math.bessel_i0(x) * tf.math.bessel_i0e(x) + tf.math.bessel_i1(x)
           + tf.math.bessel_i1e(x) ** 2, S, domain=(0.2, 2.0),
           ops=("BesselI0", "BesselI0e", "BesselI1", "BesselI1e")),
    OpCase("BesselJY", lambda x: tf.math.special.bessel_j0(x) * tf.math.special.bessel_j1(x)
           + tf.math.special.bessel_y0(x) + tf.math.special.bessel_y1(x) ** 2, S, domain=(0.3, 4.0),
           ops=("BesselJ0", "BesselJ1", "BesselY0", "BesselY1")),
    OpCase("BesselJ1-negative", tf.math.special.bessel_j1, S, domain=(-4.0, -0.3), ops=("BesselJ1",)),
    OpCase("BesselK", lambda x: tf.math.special.bessel_k0(x) * tf.math.special.bessel_k0e(x)
           + tf.math.special.bessel_k1(x) + tf.math.special.bessel_k1e(x) ** 2, S, domain=(0.3, 4.0),
           ops=("BesselK0", "BesselK0e", "BesselK1", "BesselK1e")),
    OpCase("Dawsn", tf.math.special.dawsn, S, domain=(-3.0, 3.0)),
    OpCase("Expint", tf.math.special.expint, S, domain=(0.2, 3.0)),
    OpCase("Expint-negative", tf.math.special.expint, S, domain=(-3.0, -0.2), ops=("Expint",)),
    OpCase("Fresnel", lambda x: tf.math.special.fresnel_sin(x) * tf.math.special.fresnel_cos(x), S,
           domain=(-2.0, 2.0), ops=("FresnelSin", "FresnelCos")),
    OpCase("Spence", tf.math.special.spence, S, domain=(0.1, 3.0)),
    # softplus family
    OpCase("Softplus", tf.math.softplus, S, domain=(-4.0, 4.0)),
    OpCase("log_sigmoid", tf.math.log_sigmoid, S, domain=(-4.0, 4.0), ops=("Softplus", "Neg")),
    # x * f(y)
    OpCase("Xlogy", tf.math.xlogy, B, domain=[(-2.0, 2.0), POS]),
    OpCase("Xlog1py", tf.math.xlog1py, B, domain=[(-2.0, 2.0), (-0.5, 2.0)]),
    OpCase("Xdivy", tf.math.xdivy, B, domain=[(-2.0, 2.0), POS]),
    OpCase("complex-xlogy", lambda a, b: tf.math.real(
        tf.math.xlogy(_complex_pair(a, b), _complex_pair(b, a))
        + tf.math.xlog1py(_complex_pair(b, a), _complex_pair(a, b))
        * tf.math.xdivy(_complex_pair(a, a), _complex_pair(b, a))),
        [((3,), (3,))], domain=POS, ops=("Xlogy", "Xlog1py", "Xdivy")),
    OpCase("DivNoNan", tf.math.divide_no_nan, B, domain=[(-2.0, 2.0), POS]),
    OpCase("complex-DivNoNan", lambda a, b: tf.math.real(
        tf.math.divide_no_nan(_complex_pair(a, b), _complex_pair(b, a))),
        [((3,), (3,))], domain=POS, ops=("DivNoNan",)),
    OpCase("reciprocal_no_nan", tf.math.reciprocal_no_nan, S, domain=POS, ops=("DivNoNan",)),
    OpCase("SquaredDifference", tf.math.squared_difference, B),
    OpCase("complex-SquaredDifference", lambda a, b: tf.math.squared_difference(
        _complex_pair(a, b), _complex_pair(b, a * a)), [((3,), (3,))], ops=("SquaredDifference",)),
    OpCase("Angle", lambda a, b: tf.math.angle(_complex_pair(a, b)), [((), ()), ((3,), (3,))],
           domain=[POS, (-2.0, 2.0)]),
    # piecewise constant: no gradient
    OpCase("Rounding", lambda x: [tf.floor(x), tf.math.ceil(x), tf.round(x), tf.math.rint(x)], S, nondiff=True,
           ops=("Floor", "Ceil", "Round", "Rint")),
    OpCase("FloatTests", lambda x: [tf.math.is_nan(x), tf.math.is_inf(x), tf.math.is_finite(x)], S,
           nondiff=True, ops=("IsNan", "IsInf", "IsFinite")),
    OpCase("NextAfter", lambda x, y: tf.math.nextafter(x, y), [((3,), (3,))], nondiff=True),
]
