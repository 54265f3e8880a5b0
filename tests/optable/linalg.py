"""Op table: the linalg family (tapegrad/ops/linalg.py): matmul, einsum and the structural matrix
ops."""
import numpy as np

import tapegrad as tf
from optable import OpCase

la = tf.linalg


def _away_from_zero(rng, shapes):
    # |x| away from 0 (abs kink) with random magnitudes, so row/column sums do not tie (max kink)
    return [rng.uniform(0.5, 2.5, s) * rng.choice([-1.0, 1.0], s) for s in shapes]


CASES = [
    # linear algebra
    OpCase("BatchMatMulV2", lambda a, b: tf.matmul(a, b), [((2, 3), (3, 2)), ((2, 2, 3), (3, 4)), ((1, 2, 3), (2, 3, 2))]),
    OpCase("BatchMatMulV2-adj", lambda a, b: tf.matmul(a, b, transpose_a=True, adjoint_b=True), [((3, 2), (4, 3))],
           ops=("BatchMatMulV2",)),
    OpCase("matvec", lambda a, b: tf.linalg.matvec(a, b), [((2, 3), (3,))], ops=("BatchMatMulV2",)),
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
    OpCase("MatrixBandPart", lambda x: la.band_part(x, 1, 0) + la.band_part(x, -1, 1), [((3, 4),), ((2, 3, 3),)]),
    OpCase("MatrixDiagPartV3", lambda x: la.diag_part(x) * tf.reduce_sum(la.diag_part(x, k=1)), [((3, 4),), ((2, 3, 3),)]),
    OpCase("MatrixSetDiagV3", lambda x, d: la.set_diag(x, d) * x, [((3, 3), (3,)), ((2, 3, 4), (2, 3))]),
    OpCase("MatrixSetDiagV3-k", lambda x, d: la.set_diag(x, d, k=-1), [((3, 3), (2,))], ops=("MatrixSetDiagV3",)),
    OpCase("MatrixDiagV3", lambda d: la.diag(d) * 2.0 + tf.reduce_sum(la.diag(d, k=1, padding_value=1.0) ** 2), [((3,),), ((2, 3),)]),
    OpCase("MatrixDiagV3-rect", lambda d: la.diag(d, num_rows=3, num_cols=4), [((3,),)], ops=("MatrixDiagV3",)),
    OpCase("trace", lambda x: la.trace(x) * la.trace(x), [((3, 3),), ((2, 3, 4),)],
           ops=("MatrixDiagPartV3", "Sum")),
    OpCase("matrix_transpose-adjoint", lambda x: la.matrix_transpose(x) * la.adjoint(x), [((2, 3),)],
           ops=("Transpose",)),
    OpCase("Cross", la.cross, [((3,), (3,)), ((2, 3), (2, 3))]),
    OpCase("FillTriangular", lambda x: la.fill_triangular(x) + la.fill_triangular(x, upper=True), [((6,),), ((2, 10),)]),
    OpCase("FillTriangularInverse", lambda x: la.fill_triangular_inverse(x) * 2.0
           + la.fill_triangular_inverse(x, upper=True), [((3, 3),), ((2, 4, 4),)]),
]
