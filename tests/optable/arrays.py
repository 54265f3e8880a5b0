"""Op table: gather_nd/scatter_nd family, reverse, roll, repeat, one_hot, einsum (tapegrad/ops/indexing.py)
and the composites built on them (boolean_mask, meshgrid, norms, clipping, tensordot)."""
import numpy as np

import tapegrad as tf
from optable import OpCase

IDX = [[1, 0], [0, 2], [1, 0]]  # a duplicate row


def _away_from_zero(rng, shapes):
    # |x| away from 0 (abs kink) with random magnitudes, so row/column sums do not tie (max kink)
    return [rng.uniform(0.5, 2.5, s) * rng.choice([-1.0, 1.0], s) for s in shapes]


CASES = [
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
    OpCase("ReverseV2", lambda x: tf.reverse(x, [-1]) * x, [((3,),), ((2, 3),)]),
    OpCase("ReverseV2-2d", lambda x: tf.reverse(x, [0, -1]) * x, [((2, 3),)], ops=("ReverseV2",)),
    OpCase("Roll", lambda x: tf.roll(x, [1, -2, 1], [0, 1, 0]) * x, [((3, 4),)]),
    OpCase("Repeat", lambda x: tf.repeat(x, [2, 0, 3], axis=-1) ** 2, [((3,),), ((2, 3),)]),
    OpCase("Repeat-flat", lambda x: tf.repeat(x * x, 2), [((2, 3),)], ops=("Repeat",)),
    OpCase("OneHot", lambda x: tf.one_hot(tf.cast(x > 0, tf.int32), 3, on_value=x[0], off_value=x[1]), [((3,),)],
           nondiff=True, ops=("OneHot",)),
    OpCase("meshgrid", lambda x, y: tf.meshgrid(x, y, x * 2.0)[2] * tf.meshgrid(x, y)[0][..., None] + tf.meshgrid(x, y, indexing="ij")[1][0, 0],
           [((3,), (2,))], ops=("BroadcastTo", "Reshape")),
    OpCase("norm-euclidean", lambda x: tf.norm(x) + tf.norm(x, axis=-1), [((3,),), ((2, 3),)],
           ops=("Sqrt", "Sum"), make=_away_from_zero),
    OpCase("norm-p", lambda x: tf.norm(x, ord=3, axis=0, keepdims=True) + tf.norm(x, ord=1.5), [((3,),), ((2, 3),)],
           ops=("Pow", "Abs"), make=_away_from_zero),
    OpCase("norm-1-inf", lambda x: tf.norm(x, ord=1) + tf.norm(x, ord=np.inf, axis=-1),
           [((3,),), ((2, 3),)], ops=("Abs", "Max"), make=_away_from_zero),
    OpCase("norm-matrix", lambda x: tf.norm(x, ord=1, axis=[-2, -1]) + tf.norm(x, ord=np.inf, axis=(-1, -2))
           + tf.norm(x, ord="fro", axis=[-1, -2]), [((2, 3),), ((3, 2, 2),)], ops=("Max", "Sum"), make=_away_from_zero),
    OpCase("norm-matrix-2", lambda x: tf.norm(x, ord=2, axis=[-1, -2]) + tf.norm(x[0], ord=2, axis=[0, 1]),
           [((3, 2, 3),)], ops=("Max", "Abs")),
    OpCase("clip_by_norm", lambda x: tf.clip_by_norm(x, 1.0, axes=[-1]) + tf.clip_by_norm(x, 100.0),
           [((3,),), ((2, 3),)], ops=("Maximum", "RealDiv"), make=_away_from_zero),
    OpCase("clip_by_norm-tensor", lambda x, c: tf.clip_by_norm(x, c * c), [((3,), ())], ops=("Maximum",),
           make=_away_from_zero),
    OpCase("clip_by_global_norm", lambda x, y: [c for c in tf.clip_by_global_norm([x, None, y], 1.5)[0] if c is not None]
           + [tf.clip_by_global_norm([x, y], 50.0)[1]], [((3,), (2, 2))], ops=("Minimum", "Pack"),
           make=_away_from_zero),
    OpCase("Einsum", lambda a, b: tf.einsum("ij,jk->ik", a, b), [((2, 3), (3, 2))]),
    OpCase("Einsum-trace-diag", lambda a: tf.einsum("ii", a) * tf.einsum("ii->i", a), [((3, 3),)], ops=("Einsum",)),
    OpCase("Einsum-repeated", lambda a, b: tf.einsum("iij,jk->ki", a, b), [((2, 2, 3), (3, 4))], ops=("Einsum",)),
    OpCase("Einsum-sum-outer", lambda a, b: tf.einsum("ij->", a) * tf.einsum("i,j", b, b), [((2, 3), (2,))],
           ops=("Einsum",)),
    OpCase("Einsum-ellipsis", lambda a, b: tf.einsum("...ij,...jk->...ik", a, b),
           [((2, 2, 3), (3, 2)), ((1, 2, 3), (4, 3, 2)), ((3, 1, 2, 3), (4, 3, 2))], ops=("Einsum",)),
    OpCase("Einsum-ellipsis-mid", lambda a, b: tf.einsum("i...j,j->...i", a, b), [((2, 3, 4), (4,))], ops=("Einsum",)),
    OpCase("Einsum-three", lambda a, b, c: tf.einsum("ab,bc,ca->", a, b, c), [((2, 3), (3, 4), (4, 2))],
           ops=("Einsum",)),
    OpCase("Einsum-complex", lambda a, b: tf.einsum("ij,j->i", a, b), [((2, 3), (3,))], ops=("Einsum",), complex=True),
    OpCase("tensordot", lambda a, b: tf.tensordot(a, b, [[0, 2], [1, 0]]) + tf.tensordot(a, a, 3),
           [((2, 3, 2), (2, 2, 4))], ops=("Einsum",)),
]
