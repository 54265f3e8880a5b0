"""Op table: the math family (tapegrad/ops/math.py): arithmetic, elementwise math, comparisons,
casts, complex parts, scans, add_n."""
import tapegrad as tf
from optable import OpCase

B = [((), ()), ((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 3))]  # broadcasting binary shapes
POS = (0.5, 2.0)
S = [((),), ((3,),), ((2, 3),)]          # unary shapes


def _ints(x):  # (integers from -16 to 15)
    return tf.cast(tf.floor(x * 8.0), tf.int32)


def _away_from_zero(rng, shapes):
    # |x| away from 0 (abs kink) with random magnitudes, so row/column sums do not tie (max kink)
    return [rng.uniform(0.5, 2.5, s) * rng.choice([-1.0, 1.0], s) for s in shapes]


CASES = [
    OpCase("AddV2", lambda x, y: x + y, B),
    OpCase("StringAdd", lambda x: tf.strings.as_string(x) + "!", [((3,),)], nondiff=True,
           ops=("StringAdd", "AsString")),
    OpCase("Sub", lambda x, y: x - y, B),
    OpCase("Mul", lambda x, y: x * y, B),
    OpCase("RealDiv", lambda x, y: x / y, B, domain=[(-2, 2), POS]),
    OpCase("FloorMod", lambda x, y: tf.math.mod(x, y), B, domain=[(0.1, 0.9), (1.5, 2.0)]),
    OpCase("FloorDiv", lambda x, y: x // y, B, nondiff=True),
    OpCase("Pow", lambda x, y: x ** y, B, domain=[POS, (-1.5, 1.5)]),
    OpCase("Neg", lambda x: -x, S),
    OpCase("Abs", tf.abs, S, domain=POS),
    OpCase("Abs-neg", tf.abs, S, ops=("Abs",), domain=(-2.0, -0.5)),
    OpCase("Sign", tf.sign, S, domain=POS),
    OpCase("Square", tf.square, S),
    OpCase("Sqrt", tf.sqrt, S, domain=POS),
    OpCase("MulNoNan", tf.math.multiply_no_nan, B),
    OpCase("Rsqrt", tf.math.rsqrt, S, domain=POS),
    OpCase("Exp", tf.exp, S),
    OpCase("Log", tf.math.log, S, domain=POS),
    OpCase("Log1p", tf.math.log1p, S, domain=(-0.5, 2.0)),
    OpCase("Expm1", tf.math.expm1, S),
    OpCase("Sin", tf.sin, S),
    OpCase("Cos", tf.cos, S),
    OpCase("Tan", tf.tan, S, domain=(-1.0, 1.0)),
    OpCase("Tanh", tf.tanh, S),
    OpCase("Sigmoid", tf.sigmoid, S),
    OpCase("Reciprocal", tf.math.reciprocal, S, domain=POS),
    OpCase("Maximum", tf.maximum, B),
    OpCase("Minimum", tf.minimum, B),
    OpCase("SelectV2", lambda x, y: tf.where(x > y, x * y, y - x), B, ops=("SelectV2", "Greater")),
    OpCase("Where", lambda x: tf.where(x > 0), [((2, 3),)], nondiff=True, ops=("Where", "Greater")),
    OpCase("clip_by_value", lambda x: tf.clip_by_value(x, -1.0, 1.0), S, ops=("Maximum", "Minimum")),
    OpCase("CastToNonFloat", lambda x: [tf.cast(x, tf.int32), tf.cast(x > 0, tf.float64)], S, nondiff=True),
    OpCase("Cast", lambda x: tf.math.real(tf.cast(x, tf.complex128) * tf.cast(x * x, tf.complex128)), S),
    OpCase("Cumsum", lambda x: tf.math.cumsum(x, axis=-1, exclusive=True, reverse=True), [((3,),), ((2, 3),)]),
    OpCase("Cumprod", lambda x: tf.math.cumprod(x, axis=0), [((3,),), ((2, 3),)], domain=POS),
    OpCase("Complex", lambda x, y: tf.abs(tf.complex(x, y)), [((), ()), ((3,), (3,))], ops=("Complex", "Abs"), domain=POS),
    OpCase("Real-Imag-Conj", lambda x, y: tf.math.real(tf.math.conj(tf.complex(x, y)) * tf.complex(y, x))
           + tf.math.imag(tf.complex(x, y) * tf.complex(x, x)), [((3,), (3,))], ops=("Real", "Imag", "Conj")),
    OpCase("ComplexSign", lambda x, y: tf.math.real(tf.sign(tf.complex(x, y)) * tf.complex(y, x)), [((3,), (3,))], domain=POS),
    # comparisons and logic: no gradient
    OpCase("Compare", lambda x, y: [tf.equal(x, y), tf.not_equal(x, y), tf.less(x, y), tf.less_equal(x, y),
                                    tf.greater(x, y), tf.greater_equal(x, y)], B, nondiff=True,
           ops=("Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual")),
    OpCase("Logic", lambda x, y: [tf.logical_and(x > 0, y > 0), tf.logical_or(x > 0, y > 0),
                                  tf.math.logical_xor(x > 0, y > 0), tf.logical_not(x > 0)], B, nondiff=True,
           ops=("LogicalAnd", "LogicalOr", "LogicalXor", "LogicalNot")),
    OpCase("Bessel-negative", lambda x: tf.math.bessel_i0e(x) * tf.math.bessel_i1e(x) + tf.math.bessel_i1(x),
           S, domain=(-2.0, -0.2), ops=("BesselI0e", "BesselI1e", "BesselI1")),
    OpCase("AddN", lambda x, y: tf.add_n([x, y * y, x]), [((), ()), ((2, 3), (2, 3))]),
    OpCase("polyval", lambda c, x: tf.math.polyval([c, 2.0, c * c], x), [((), (3,)), ((3,), (3,))],
           ops=("AddV2", "Mul")),
    OpCase("clip_by_norm", lambda x: tf.clip_by_norm(x, 1.0, axes=[-1]) + tf.clip_by_norm(x, 100.0),
           [((3,),), ((2, 3),)], ops=("Maximum", "RealDiv"), make=_away_from_zero),
    OpCase("clip_by_norm-tensor", lambda x, c: tf.clip_by_norm(x, c * c), [((3,), ())], ops=("Maximum",),
           make=_away_from_zero),
    OpCase("clip_by_global_norm", lambda x, y: [c for c in tf.clip_by_global_norm([x, None, y], 1.5)[0] if c is not None]
           + [tf.clip_by_global_norm([x, y], 50.0)[1]], [((3,), (2, 2))], ops=("Minimum", "Pack"),
           make=_away_from_zero),
    OpCase("TruncateDiv", lambda x, y: tf.truncatediv(x, y), [((3,), (3,))],
           nondiff=True, ops=("TruncateDiv",)),
    OpCase("realdiv", lambda x, y: tf.realdiv(x, y), [((3,), (3,)), ((2, 3), (3,))], domain=[(-2, 2), (0.5, 2)],
           ops=("RealDiv",)),
    # keras.ops' integer-valued functions (no gradient)
    OpCase("Bitwise", lambda x, y: [tf.keras.ops.bitwise_and(_ints(x), _ints(y)),
                                    tf.keras.ops.bitwise_or(_ints(x), _ints(y)),
                                    tf.keras.ops.bitwise_xor(_ints(x), _ints(y)),
                                    tf.keras.ops.bitwise_invert(_ints(x)),
                                    tf.keras.ops.bitwise_left_shift(_ints(x), 2),
                                    tf.keras.ops.bitwise_right_shift(_ints(x), 1)], B, nondiff=True,
           ops=("BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "LeftShift", "RightShift")),
    OpCase("GcdLcm", lambda x, y: [tf.keras.ops.gcd(_ints(x), _ints(y)), tf.keras.ops.lcm(_ints(x), _ints(y))],
           B, nondiff=True, ops=("Gcd", "Lcm")),
    OpCase("Bucketize", lambda x: tf.keras.ops.digitize(x, [-1.0, 0.0, 1.0]), S, nondiff=True),
]
