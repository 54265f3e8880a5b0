"""Op table: accidental hits (non-differentiable) and the sampled losses (tapegrad/ops/sampled.py).
(The candidate samplers are random draws of the random family, tapegrad/ops/random.py, not registered ops.)"""
import tapegrad as tf
from optable import OpCase

_TC = tf.constant([[1, 4], [0, 2]], tf.int64)
_SV = (tf.constant([4, 3, 0], tf.int64), tf.constant([[0.3, 0.2], [0.4, 0.1]], tf.float64),
       tf.constant([0.2, 0.5, 0.7], tf.float64))


def _loss(fn):
    def f(w, b, x):
        return fn(w, b, tf.constant([[1, 4], [0, 2]]), x, num_sampled=3, num_classes=6, num_true=2,
                  sampled_values=_SV, remove_accidental_hits=True)
    return f


CASES = [
    OpCase("ComputeAccidentalHits", lambda x: tf.nn.compute_accidental_hits(_TC, _SV[0], 2)[2], [((),)],
           nondiff=True),
    OpCase("nce_loss", _loss(tf.nn.nce_loss), [((6, 3), (6,), (2, 3))], ops=()),
    OpCase("sampled_softmax_loss", _loss(tf.nn.sampled_softmax_loss), [((6, 3), (6,), (2, 3))], ops=()),
]
