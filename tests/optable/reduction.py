"""Op table: the reduction family (tapegrad/ops/reduction.py)."""
import tapegrad as tf
from optable import OpCase

POS = (0.5, 2.0)


def _complex_pair(x, y):
    return tf.complex(x, y)


CASES = [
    # reductions
    OpCase("Sum", lambda x: tf.reduce_sum(x, axis=-1, keepdims=True) + tf.reduce_sum(x), [((3,),), ((2, 3),)]),
    OpCase("Mean", lambda x: tf.reduce_mean(x, axis=0), [((3,),), ((2, 3),)]),
    OpCase("Max", lambda x: tf.reduce_max(x, axis=-1), [((3,),), ((2, 3),)]),
    OpCase("Min", lambda x: tf.reduce_min(x, axis=0, keepdims=True), [((3,),), ((2, 3),)]),
    OpCase("Prod", lambda x: tf.reduce_prod(x, axis=-1), [((3,),), ((2, 3),)], domain=POS),
    OpCase("LogSumExp", lambda x: tf.reduce_logsumexp(x, axis=-1), [((3,),), ((2, 3),)],
           ops=("LogSumExp", "LogSumExpShift")),
    OpCase("variance-std", lambda x: tf.math.reduce_variance(x, axis=0) + tf.math.reduce_std(x), [((3,),), ((2, 3),)],
           ops=("Mean", "Sub", "Square", "Sqrt")),
    OpCase("AnyAll", lambda x: [tf.reduce_any(x > 0), tf.reduce_all(x > 0)], [((3,),)], nondiff=True, ops=("Any", "All")),
    OpCase("ArgMaxMin", lambda x: [tf.argmax(x), tf.argmin(x)], [((3,),)], nondiff=True, ops=("ArgMax", "ArgMin")),
    # reductions and combinations
    OpCase("EuclideanNorm", lambda x: tf.math.reduce_euclidean_norm(x, axis=-1) ** 2
           + tf.math.reduce_euclidean_norm(x, keepdims=True), [((3,),), ((2, 3),)]),
    OpCase("complex-EuclideanNorm", lambda a, b: tf.math.reduce_euclidean_norm(_complex_pair(a, b), axis=0),
           [((3,), (3,)), ((2, 3), (2, 3))], ops=("EuclideanNorm",)),
    OpCase("CumulativeLogsumexp", lambda x: tf.math.cumulative_logsumexp(x, axis=-1, reverse=True),
           [((3,),), ((2, 3),)]),
    OpCase("CumulativeLogsumexp-0", lambda x: tf.math.cumulative_logsumexp(x, axis=0), [((3, 2),)],
           ops=("CumulativeLogsumexp",)),
]
