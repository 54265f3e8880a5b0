"""Op table: the array family (tapegrad/ops/array.py): shapes, concat/stack/split, tile, pad,
reverse, roll, repeat, one_hot, unique and the StridedSlice primitive."""
import tapegrad as tf
from optable import OpCase
from tapegrad._dispatch import apply
from tapegrad.ops.array import RELAYOUT

S = [((),), ((3,),), ((2, 3),)]          # unary shapes


CASES = [
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
    OpCase("UnbroadcastSum", lambda x, y: (x * y), [((3,), (2, 3))], ops=("UnbroadcastSum",)),
    OpCase("Relayout", lambda x: apply(RELAYOUT, (x,), {"layout": None, "src": None}) * x, S),
    OpCase("StopGradient", tf.stop_gradient, S, nondiff=True),
    OpCase("InvertPermutation", lambda x: tf.math.invert_permutation(tf.argsort(x)), [((4,),)], nondiff=True),
    OpCase("Unique", lambda x: tf.unique(tf.concat([x, x[:1]], 0))[0] * 2.0, [((3,),)],
           ops=("Unique", "UniqueShare", "ConcatV2", "StridedSlice")),
    OpCase("ReverseV2", lambda x: tf.reverse(x, [-1]) * x, [((3,),), ((2, 3),)]),
    OpCase("ReverseV2-2d", lambda x: tf.reverse(x, [0, -1]) * x, [((2, 3),)], ops=("ReverseV2",)),
    OpCase("Roll", lambda x: tf.roll(x, [1, -2, 1], [0, 1, 0]) * x, [((3, 4),)]),
    OpCase("Repeat", lambda x: tf.repeat(x, [2, 0, 3], axis=-1) ** 2, [((3,),), ((2, 3),)]),
    OpCase("Repeat-flat", lambda x: tf.repeat(x * x, 2), [((2, 3),)], ops=("Repeat",)),
    OpCase("OneHot", lambda x: tf.one_hot(tf.cast(x > 0, tf.int32), 3, on_value=x[0], off_value=x[1]), [((3,),)],
           nondiff=True, ops=("OneHot",)),
    OpCase("meshgrid", lambda x, y: tf.meshgrid(x, y, x * 2.0)[2] * tf.meshgrid(x, y)[0][..., None] + tf.meshgrid(x, y, indexing="ij")[1][0, 0],
           [((3,), (2,))], ops=("BroadcastTo", "Reshape")),
    OpCase("Bitcast", lambda x: [tf.bitcast(x, tf.int32), tf.bitcast(tf.cast(x, tf.float32), tf.uint8)],
           [((3,),)], nondiff=True),
    OpCase("Shape", lambda x: [tf.shape(x), tf.size(x, out_type=tf.int64), tf.rank(x)], [((2, 3),)],
           nondiff=True, ops=("Shape", "Size", "Rank")),
    OpCase("space_to_batch_nd", lambda x: tf.batch_to_space(tf.space_to_batch_nd(x * x, [2, 1], [[1, 1], [0, 0]]),
                                                            [1, 2], [[0, 0], [1, 0]]), [((2, 4, 3, 1),)],
           ops=("Reshape", "Transpose", "PadV2")),
]
