"""Op table: tf.random's ops (tapegrad/random.py)."""
import tapegrad as tf
from optable import OpCase


CASES = [
    # random
    OpCase("RandomShuffle", lambda x: tf.random.shuffle(x, seed=1), [((4, 2),)], nondiff=True),
]
