"""Op table: the nn family (tapegrad/ops/nn.py): activations, softmax, cross-entropies."""
import tapegrad as tf
from optable import OpCase

S = [((),), ((3,),), ((2, 3),)]          # unary shapes


def _complex_pair(x, y):
    return tf.complex(x, y)


def _dropout(x):
    tf.random.set_seed(3)
    return tf.nn.dropout(x, rate=0.4, seed=7)


CASES = [
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
    OpCase("l2_normalize", lambda x: tf.math.l2_normalize(x, axis=-1), [((3,),), ((2, 3),)],
           ops=("Rsqrt", "Maximum", "Sum", "Square", "Mul")),
    OpCase("l2_normalize-complex", lambda a, b: tf.math.real(tf.math.l2_normalize(_complex_pair(a, b))),
           [((3,), (3,))], ops=("Rsqrt", "Complex")),
    # activations
    OpCase("Relu6", tf.nn.relu6, S, domain=(-2.0, 8.0), ops=("Relu6", "Relu6Grad")),
    OpCase("Elu", tf.nn.elu, S),
    OpCase("Selu", tf.nn.selu, S),
    OpCase("LeakyRelu", lambda x: tf.nn.leaky_relu(x, alpha=0.3), S,
           ops=("LeakyRelu", "LeakyReluGrad")),
    OpCase("Softsign", tf.nn.softsign, S),
    OpCase("gelu", tf.nn.gelu, S, ops=("Erf", "Mul", "AddV2")),
    OpCase("gelu-approximate", lambda x: tf.nn.gelu(x, approximate=True), S, ops=("Tanh", "Pow")),
    OpCase("silu", lambda x: tf.nn.silu(x) + tf.nn.swish(x, beta=1.5), S, ops=("Sigmoid",)),
    # losses and normalisation
    OpCase("l2_loss", tf.nn.l2_loss, S, ops=("Square", "Sum")),
    OpCase("moments", lambda x: tf.nn.moments(x, axes=[0]), [((3,),), ((4, 3),)], ops=("Mean", "Square")),
    OpCase("moments-keepdims", lambda x: tf.nn.moments(x, axes=[-1, 0], keepdims=True), [((2, 3, 4),)],
           ops=("Mean",)),
    OpCase("batch_normalization",
           lambda x, m, v, b, s: tf.nn.batch_normalization(x, m, v, b, s, 1e-3),
           [((4, 3), (3,), (3,), (3,), (3,))], domain=[(-2, 2), (-1, 1), (0.5, 2), (-1, 1), (0.5, 2)],
           ops=("Rsqrt",)),
    OpCase("bias_add", lambda x, b: tf.nn.bias_add(x, b) + tf.nn.bias_add(x, b, data_format="NCHW"),
           [((2, 3, 3), (3,))], ops=("AddV2",)),
    OpCase("dropout", _dropout, [((4, 5),)], ops=("SelectV2",)),
    OpCase("depth_to_space", lambda x: tf.nn.depth_to_space(x, 2) * tf.nn.depth_to_space(x * x, 2),
           [((1, 2, 3, 8),)], ops=("Reshape", "Transpose")),
    OpCase("space_to_depth", lambda x: tf.nn.space_to_depth(x * x, 2), [((2, 4, 2, 3),)], ops=("Reshape", "Transpose")),
    OpCase("local_response_normalization", lambda x: tf.nn.local_response_normalization(x, 2, 1.5, 0.5, 0.75),
           [((1, 2, 1, 6),)], ops=("Pow",)),
    OpCase("weighted_cross_entropy_with_logits", lambda z, x: tf.nn.weighted_cross_entropy_with_logits(z, x, 3.0),
           [((4,), (4,))], domain=[(0.0, 1.0), (-2.0, 2.0)], ops=("Log1p",)),
    OpCase("log_poisson_loss", lambda t, x: tf.nn.log_poisson_loss(t, x, compute_full_loss=True),
           [((4,), (4,))], domain=[(1.2, 3.0), (-1.0, 1.0)], ops=("Exp",)),
    OpCase("sufficient_statistics", lambda x, s: list(tf.nn.normalize_moments(*tf.nn.sufficient_statistics(x, [0], s)[:3], s)),
           [((3, 2), ())], ops=("SquaredDifference",)),
    OpCase("weighted_moments", lambda x, w: list(tf.nn.weighted_moments(x, [1], w)), [((2, 3), (2, 3))],
           domain=[(-2.0, 2.0), (0.5, 2.0)], ops=("DivNoNan",)),
    OpCase("crelu", lambda x: tf.nn.crelu(x) * tf.nn.crelu(x, axis=0), [((3,),)], ops=("Relu",)),
    OpCase("CTCLoss", lambda x: tf.nn.ctc_loss([[1, 2, 2], [3, 1, 0]], x, [3, 2], [5, 4]), [((5, 2, 4),)],
           order=1),
    OpCase("CollapseRepeated", lambda x: tf.nn.collapse_repeated(tf.cast(x > 0, tf.int32), [3, 2])[0],
           [((2, 3),)], nondiff=True),
    OpCase("CTCDecode", lambda x: [tf.keras.ops.ctc_decode(x, [3, 2], strategy="greedy")[0],
                                   tf.keras.ops.ctc_decode(x, [3, 2], strategy="beam_search", beam_width=3)[0]],
           [((2, 3, 4),)], nondiff=True, ops=("CTCGreedyDecode", "CTCBeamSearchDecode")),
]
