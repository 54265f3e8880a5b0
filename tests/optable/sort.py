"""Op table: the sort family (tapegrad/ops/sort.py)."""
import tapegrad as tf
from optable import OpCase


CASES = [
    # sorting (squares make the cotangents of the gathers depend on x, checking every rule)
    OpCase("sort", lambda x: tf.sort(x) ** 2 * tf.range(1.0, 4.0, dtype=tf.float64), [((3,),), ((2, 3),)],
           ops=("TakeAlongLastAxis", "PutAlongLastAxis")),
    OpCase("sort-axis0-desc", lambda x: tf.sort(x, axis=0, direction="DESCENDING") ** 3, [((3, 2),)],
           ops=("TakeAlongLastAxis", "PutAlongLastAxis", "Transpose")),
    OpCase("top_k", lambda x: tf.math.top_k(x, k=2).values ** 2, [((3,),), ((2, 4),)],
           ops=("TakeAlongLastAxis", "PutAlongLastAxis")),
    OpCase("SortOrder", lambda x: tf.argsort(x, axis=0, direction="DESCENDING"), [((3, 2),)],
           nondiff=True, ops=("SortOrder",)),
    OpCase("SearchSorted", lambda x: tf.searchsorted(tf.sort(x), x * 0.5, side="right"), [((4,),), ((2, 3),)],
           nondiff=True),
    OpCase("Argpartition", lambda x: tf.keras.ops.argpartition(x, 1), [((3,),), ((2, 3),)], nondiff=True),
]
