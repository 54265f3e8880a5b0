"""Op table: the indexing family (tapegrad/ops/indexing.py): getitem, gather, gather_nd/scatter_nd,
tensor_scatter_nd_*."""
import tapegrad as tf
from optable import OpCase

IDX = [[1, 0], [0, 2], [1, 0]]  # a duplicate row


CASES = [
    OpCase("GatherV2", lambda x: tf.gather(x, [2, 0, 2]) * 1.5, [((3,),), ((3, 2),)], ops=("GatherV2",)),
    OpCase("GatherV2-axis", lambda x: tf.gather(x, [[1, 1], [0, 2]], axis=1), [((2, 3),)], ops=("GatherV2", "GatherGrad")),
    OpCase("GatherV2-batch", lambda x: tf.gather(x, [[1, 0], [2, 2]], axis=1, batch_dims=1), [((2, 3),)], ops=("GatherV2", "GatherGrad")),
    OpCase("GatherNd", lambda x: tf.gather_nd(x, IDX) * 1.5, [((2, 3),), ((2, 3, 2),)], ops=("GatherNd", "ScatterNd")),
    OpCase("GatherNd-slices", lambda x: tf.gather_nd(x, [[1], [1]]), [((2, 3),)], ops=("GatherNd", "ScatterNd")),
    OpCase("GatherNd-batch", lambda x: tf.gather_nd(x, [[[1], [0]], [[2], [2]]], batch_dims=1), [((2, 3, 2),)],
           ops=("GatherNd", "ScatterNd")),
    OpCase("ScatterNd", lambda u: tf.scatter_nd([[1], [3], [1]], u, [4, 2]) ** 2, [((3, 2),)],
           ops=("ScatterNd", "GatherNd")),
    OpCase("TensorScatterUpdate", lambda t, u: tf.tensor_scatter_nd_update(t, [[0, 1], [1, 2]], u) ** 2,
           [((2, 3), (2,))], ops=("TensorScatterUpdate", "GatherNd")),
    OpCase("TensorScatterUpdate-rows", lambda t, u: tf.tensor_scatter_nd_update(t * t, [[1]], u * t[:1]),
           [((2, 3), (1, 3))], ops=("TensorScatterUpdate",)),
    OpCase("TensorScatterAdd", lambda t, u: tf.tensor_scatter_nd_add(t, [[0], [0], [2]], u) * t,
           [((3, 2), (3, 2))], ops=("ScatterNd", "AddV2")),
    OpCase("boolean_mask", lambda x: tf.boolean_mask(x, [[True, False, True], [False, True, True]]) ** 2,
           [((2, 3),)], ops=("GatherV2", "Reshape")),
    OpCase("boolean_mask-axis", lambda x: tf.boolean_mask(x * x, [True, False, True], axis=1), [((2, 3),)],
           ops=("GatherV2",)),
    OpCase("TensorScatterMax", lambda t, u: tf.tensor_scatter_nd_max(t, [[0], [2], [0]], u) * t,
           [((3,), (3,)), ((3, 2), (3, 2))], ops=("TensorScatterMax",)),
    OpCase("TensorScatterMin", lambda t, u: tf.tensor_scatter_nd_min(t * t, [[1, 0], [0, 1]], u),
           [((2, 3), (2,))], ops=("TensorScatterMin",)),
    OpCase("tensor_scatter_nd_sub", lambda t, u: tf.tensor_scatter_nd_sub(t, [[0], [0]], u) * t,
           [((3, 2), (2, 2))], ops=("ScatterNd",)),
    OpCase("dynamic_partition", lambda x: tf.dynamic_partition(x * x, [[1, 0, 1], [2, 2, 0]], 3),
           [((2, 3),), ((2, 3, 2),)], ops=("GatherV2",)),
    OpCase("dynamic_stitch", lambda x, y: tf.dynamic_stitch([[0, 3], [[1], [2]]], [x * y[0], y]), [((2,), (2, 1))],
           ops=("GatherV2", "ScatterNd")),
    OpCase("reverse_sequence", lambda x: tf.reverse_sequence(x * x, [2, 0, 3], seq_axis=1) * x,
           [((3, 4),), ((3, 3, 2),)], ops=("GatherV2",)),
    OpCase("strided_slice", lambda x: tf.strided_slice(x * x, [1, 0], [3, 3], [1, 2], end_mask=2, new_axis_mask=0),
           [((3, 4),)], ops=("StridedSlice",)),
]
