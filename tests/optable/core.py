"""Op table: the core ops (arithmetic, elementwise math, reductions, shapes, matmul, nn basics)."""
import numpy as np

import tapegrad as tf
from optable import OpCase

S = [((),), ((3,),), ((2, 3),)]          # unary shapes
B = [((), ()), ((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 3))]  # broadcasting binary shapes
POS = (0.5, 2.0)


def _spd_free(rng, shapes):
    return [rng.uniform(-2, 2, s) for s in shapes]


CASES = [
    OpCase("AddV2", lambda x, y: x + y, B),
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
    # reductions
    OpCase("Sum", lambda x: tf.reduce_sum(x, axis=-1, keepdims=True) + tf.reduce_sum(x), [((3,),), ((2, 3),)]),
    OpCase("Mean", lambda x: tf.reduce_mean(x, axis=0), [((3,),), ((2, 3),)]),
    OpCase("Max", lambda x: tf.reduce_max(x, axis=-1), [((3,),), ((2, 3),)]),
    OpCase("Min", lambda x: tf.reduce_min(x, axis=0, keepdims=True), [((3,),), ((2, 3),)]),
    OpCase("Prod", lambda x: tf.reduce_prod(x, axis=-1), [((3,),), ((2, 3),)], domain=POS),
    OpCase("LogSumExp", lambda x: tf.reduce_logsumexp(x, axis=-1), [((3,),), ((2, 3),)]),
    OpCase("variance-std", lambda x: tf.math.reduce_variance(x, axis=0) + tf.math.reduce_std(x), [((3,),), ((2, 3),)],
           ops=("Mean", "Sub", "Square", "Sqrt")),
    OpCase("AnyAll", lambda x: [tf.reduce_any(x > 0), tf.reduce_all(x > 0)], [((3,),)], nondiff=True, ops=("Any", "All")),
    OpCase("ArgMaxMin", lambda x: [tf.argmax(x), tf.argmin(x)], [((3,),)], nondiff=True, ops=("ArgMax", "ArgMin")),
    # shapes and indexing
    OpCase("Reshape", lambda x: tf.reshape(x, [-1]) * tf.expand_dims(tf.reshape(x, [-1]), 0), [((2, 3),)],
           ops=("Reshape",)),
    OpCase("Squeeze", lambda x: tf.squeeze(x, 0), [((1, 3),)], ops=("Reshape",)),
    OpCase("Transpose", lambda x: tf.transpose(x) @ x, [((2, 3),)], ops=("Transpose", "BatchMatMulV2")),
    OpCase("Identity", lambda x: tf.identity(x) * x, S),
    OpCase("ConcatV2", lambda x, y: tf.concat([x, y, x], axis=-1), [((2, 3), (2, 2))]),
    OpCase("Pack", lambda x, y: tf.stack([x, y], axis=1), [((3,), (3,)), ((2, 3), (2, 3))]),
    OpCase("Unpack", lambda x: tf.unstack(x)[1] * 2.0, [((3,),), ((3, 2),)]),
    OpCase("Unpack-one", lambda x: tf.unstack(x)[0], [((1, 2),)], ops=("Unpack",)),
    OpCase("Split", lambda x: tf.split(x, [1, 2], axis=-1)[1], [((3,),), ((2, 3),)]),
    OpCase("Split-even", lambda x: tf.split(x, 3)[2], [((3,),), ((3, 2),)], ops=("Split",)),
    OpCase("Tile", lambda x: tf.tile(x, [2, 3]), [((2, 1),), ((1, 3),)]),
    OpCase("PadV2", lambda x: tf.pad(x, [[1, 0], [2, 1]]), [((2, 3),)]),
    OpCase("PadV2-reflect", lambda x: tf.pad(x, [[1, 1], [1, 2]], mode="REFLECT"), [((3, 4),)], ops=("PadV2",)),
    OpCase("PadV2-symmetric", lambda x: tf.pad(x, [[2, 0], [0, 1]], mode="SYMMETRIC"), [((3, 2),)], ops=("PadV2",)),
    OpCase("BroadcastTo", lambda x: tf.broadcast_to(x, [2, 3]), [((3,),), ((2, 1),)]),
    OpCase("StridedSlice", lambda x: x[::-1, 1:] * x[0, :2], [((2, 3),)], ops=("StridedSlice", "StridedSliceGrad")),
    OpCase("StridedSlice-newaxis", lambda x: x[None, ..., 1], [((2, 3),)], ops=("StridedSlice",)),
    OpCase("GatherV2", lambda x: tf.gather(x, [2, 0, 2]) * 1.5, [((3,),), ((3, 2),)], ops=("GatherV2",)),
    OpCase("GatherV2-axis", lambda x: tf.gather(x, [[1, 1], [0, 2]], axis=1), [((2, 3),)], ops=("GatherV2", "GatherGrad")),
    OpCase("GatherV2-batch", lambda x: tf.gather(x, [[1, 0], [2, 2]], axis=1, batch_dims=1), [((2, 3),)], ops=("GatherV2", "GatherGrad")),
    OpCase("UnsortedSegmentSum", lambda x: tf.math.unsorted_segment_sum(x, [0, 2, 0], 3), [((3,),), ((3, 2),)]),
    OpCase("UnbroadcastSum", lambda x, y: (x * y), [((3,), (2, 3))], ops=("UnbroadcastSum",)),
    OpCase("StopGradient", tf.stop_gradient, S, nondiff=True),
    # linear algebra
    OpCase("BatchMatMulV2", lambda a, b: tf.matmul(a, b), [((2, 3), (3, 2)), ((2, 2, 3), (3, 4)), ((1, 2, 3), (2, 3, 2))]),
    OpCase("BatchMatMulV2-adj", lambda a, b: tf.matmul(a, b, transpose_a=True, adjoint_b=True), [((3, 2), (4, 3))],
           ops=("BatchMatMulV2",)),
    OpCase("matvec", lambda a, b: tf.linalg.matvec(a, b), [((2, 3), (3,))], ops=("BatchMatMulV2",)),
    # nn
    OpCase("Relu", tf.nn.relu, S, ops=("Relu", "ReluGrad")),
    OpCase("Softmax", lambda x: tf.nn.softmax(x), [((3,),), ((2, 3),)]),
    OpCase("Softmax-axis0", lambda x: tf.nn.softmax(x, axis=0), [((2, 3),)], ops=("Softmax",)),
    OpCase("LogSoftmax", lambda x: tf.nn.log_softmax(x), [((3,),), ((2, 3),)]),
    OpCase("SparseSoftmaxCrossEntropyWithLogits",
           lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([2, 0]), logits=x), [((2, 3),)]),
    OpCase("SoftmaxCrossEntropyWithLogits",
           lambda x, y: tf.nn.softmax_cross_entropy_with_logits(labels=tf.nn.softmax(y), logits=x), [((2, 3), (2, 3))]),
    OpCase("sigmoid_cross_entropy_with_logits",
           lambda x, z: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x), [((3,), (3,))],
           ops=("SelectV2", "Log1p", "Exp"), domain=[(-3, 3), (0, 1)]),
]
CASES.append(OpCase("Unique", lambda x: tf.unique(tf.concat([x, x[:1]], 0))[0] * 2.0, [((3,),)]))
