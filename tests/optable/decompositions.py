"""Op table: the decompositions family (tapegrad/ops/decompositions.py): solves, inverses,
determinants and decompositions."""
import numpy as np

import tapegrad as tf
from optable import OpCase

la = tf.linalg
TRI = [((3, 3), (3, 2)), ((2, 3, 3), (3, 1)), ((3, 3), (2, 3, 2))]   # batch axes broadcast
SQ = [((3, 3),), ((2, 3, 3),)]
SQ2 = [((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 1))]


def _make(*kinds):
    def make(rng, shapes):
        return [k(rng, s) if k else rng.uniform(-1, 1, s) for k, s in zip(kinds, shapes)]
    return make


def _triangular(rng, s):
    return rng.uniform(-1, 1, s) + np.eye(s[-1]) * 3.0


def _sym(a):
    return 0.5 * (a + la.matrix_transpose(a))


def _spd(rng, s):
    n = s[-1]
    a = rng.uniform(-1, 1, s)
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def _wellcond(rng, s):
    return rng.uniform(-1, 1, s) + s[-1] * np.eye(s[-1])


def _separated_sv(rng, s):
    m, n = s[-2:]
    u, _ = np.linalg.qr(rng.standard_normal(s[:-2] + (m, m)))
    v, _ = np.linalg.qr(rng.standard_normal(s[:-2] + (n, n)))
    k = min(m, n)
    d = np.zeros(s)
    idx = np.arange(k)
    d[..., idx, idx] = np.arange(k, 0, -1) * 1.3 + 0.5
    return u @ d @ np.swapaxes(v, -1, -2)


def _eigh_fn(a):
    e, v = la.eigh(a)
    w = tf.constant(np.linspace(0.5, 1.5, a.shape[-1]), tf.float64)
    return [e, v * v, tf.matmul(v * w, v, transpose_b=True)]


def _sym_separated(rng, s):
    n = s[-1]
    q, _ = np.linalg.qr(rng.standard_normal(s))
    e = np.arange(1, n + 1) * 1.5 + rng.uniform(-0.2, 0.2, s[:-1])
    a = (q * e[..., None, :]) @ np.swapaxes(q, -1, -2)
    return a + np.tril(rng.uniform(-0.05, 0.05, s), -1)   # asymmetric upper part is never read


def _svd_fn(a):
    s, u, v = la.svd(a)
    w = tf.constant(np.linspace(0.5, 1.5, s.shape[-1]), tf.float64)
    return [s, u * u, v * v, tf.matmul(u * w, v, transpose_b=True)]


def _wellcond_rect(rng, s):
    return rng.uniform(-1, 1, s) + np.eye(*s[-2:]) * 2.0


def _cplx(kind):
    """A complex version of a real input maker (Hermitian stays Hermitian)."""
    def make(rng, s):
        a = kind(rng, s) + 0.3j * rng.uniform(-1, 1, s)
        return a @ np.conj(np.swapaxes(a, -1, -2)) if kind is _spd else a
    return make


def _complex_svd_eigh(a, h):
    """Phase-invariant functions of complex singular and eigenvectors."""
    s, u, v = la.svd(a)
    w = tf.constant(np.linspace(0.5, 1.5, s.shape[-1]) + 0j)
    p = tf.matmul(u * w, v, adjoint_b=True)
    e, q = la.eigh(h)
    pe = tf.matmul(q * tf.cast(e, q.dtype), q, adjoint_b=True)
    return [s, la.svd(a, compute_uv=False), tf.math.real(p), tf.math.imag(p), e,
            tf.math.real(pe), tf.math.imag(pe), tf.math.real(q * tf.math.conj(q))]


CASES = [
    OpCase("MatrixTriangularSolve", lambda a, b: la.triangular_solve(a, b), TRI, make=_make(_triangular, None)),
    OpCase("MatrixTriangularSolve-upper-adj", lambda a, b: la.triangular_solve(a, b, lower=False, adjoint=True),
           TRI, make=_make(_triangular, None), ops=("MatrixTriangularSolve",)),
    OpCase("MatrixTriangularSolve-adj", lambda a, b: la.triangular_solve(a, b, adjoint=True), TRI[:1],
           make=_make(_triangular, None), ops=("MatrixTriangularSolve",)),
    OpCase("Cholesky", lambda a: la.cholesky(_sym(a)), SQ, make=_make(_spd)),
    OpCase("cholesky_solve", lambda a, b: la.cholesky_solve(la.cholesky(_sym(a)), b), SQ2, make=_make(_spd, None),
           ops=("Cholesky", "MatrixTriangularSolve")),
    OpCase("logdet", lambda a: la.logdet(_sym(a)), SQ, make=_make(_spd), ops=("Cholesky", "Log")),
    OpCase("MatrixInverse", la.inv, SQ, make=_make(_wellcond)),
    OpCase("MatrixInverse-adj", lambda a: la.inv(a, adjoint=True), SQ[:1], make=_make(_wellcond), ops=("MatrixInverse",)),
    OpCase("MatrixDeterminant", la.det, SQ, make=_make(_wellcond)),
    OpCase("LogMatrixDeterminant", lambda a: la.slogdet(a)[1], SQ, make=_make(_wellcond)),
    OpCase("LogMatrixDeterminant-neg", lambda a: la.slogdet(-a)[1] * la.slogdet(-a)[0], [((3, 3),)],
           make=_make(_wellcond), ops=("LogMatrixDeterminant",)),
    OpCase("MatrixSolve", la.solve, SQ2, make=_make(_wellcond, None)),
    OpCase("MatrixSolve-adj", lambda a, b: la.solve(a, b, adjoint=True), SQ2, make=_make(_wellcond, None),
           ops=("MatrixSolve",)),
    OpCase("lstsq-tall", lambda a, b: la.lstsq(a, b), [((4, 2), (4, 3)), ((2, 3, 2), (2, 3, 1))],
           make=_make(_separated_sv, None), ops=("Cholesky", "MatrixTriangularSolve")),
    OpCase("lstsq-wide-l2", lambda a, b: la.lstsq(a, b, l2_regularizer=0.1), [((2, 4), (2, 3))],
           make=_make(_separated_sv, None), ops=("Cholesky", "MatrixTriangularSolve")),
    OpCase("lstsq-slow", lambda a, b: la.lstsq(a, b, fast=False), [((4, 2), (4, 1)), ((2, 3), (2, 2))],
           make=_make(_separated_sv, None), ops=("Svd",)),
    OpCase("SelfAdjointEigV2", _eigh_fn, SQ, make=_make(_sym_separated)),
    OpCase("SelfAdjointEigVals", la.eigvalsh, SQ, make=_make(_sym_separated)),
    OpCase("Svd", _svd_fn, [((3, 3),), ((4, 2),), ((2, 4),), ((2, 3, 2),)], make=_make(_separated_sv)),
    OpCase("SvdValues", lambda a: la.svd(a, compute_uv=False), [((3, 3),), ((4, 2),), ((2, 2, 3),)],
           make=_make(_separated_sv)),
    OpCase("pinv", la.pinv, [((3, 3),), ((4, 2),), ((2, 3),)], make=_make(_separated_sv), ops=("Svd",)),
    OpCase("Qr", lambda a: list(la.qr(a)), [((3, 3),), ((4, 2),), ((2, 4),), ((2, 3, 2),)], make=_make(_wellcond_rect)),
    OpCase("Qr-full-square", lambda a: list(la.qr(a, full_matrices=True)), [((3, 3),), ((2, 3),)],
           make=_make(_wellcond_rect), ops=("Qr",)),
    # complex inputs (gradients follow TF's convention: conjugate of the holomorphic derivative)
    OpCase("complex-inv-solve", lambda a, b: [la.inv(a, adjoint=True), la.solve(a, b), la.solve(a, b, adjoint=True)],
           SQ2[:1], make=_make(_cplx(_wellcond), _cplx(lambda rng, s: rng.uniform(-1, 1, s))),
           ops=("MatrixInverse", "MatrixSolve")),
    OpCase("complex-triangular-det", lambda a, b: [la.triangular_solve(a, b, lower=False, adjoint=True), la.det(a),
                                                   la.slogdet(a)[1]],
           SQ2[:1], make=_make(_cplx(_triangular), _cplx(lambda rng, s: rng.uniform(-1, 1, s))),
           ops=("MatrixTriangularSolve", "MatrixDeterminant", "LogMatrixDeterminant")),
    OpCase("complex-cholesky-eigvalsh", lambda a: [la.cholesky(0.5 * (a + la.adjoint(a))), la.eigvalsh(a)], SQ[:1],
           make=_make(_cplx(_spd)), ops=("Cholesky", "SelfAdjointEigVals")),
    OpCase("complex-expm", lambda a: la.expm(a * 0.3), SQ[:1], make=_make(_cplx(_wellcond)), ops=("MatrixExponential",)),
    OpCase("complex-qr", lambda a: list(la.qr(a)), [((3, 3),), ((4, 2),), ((2, 4),)],
           make=_make(_cplx(_wellcond_rect)), ops=("Qr",)),
    OpCase("complex-svd-eigh", _complex_svd_eigh, [((3, 3), (3, 3)), ((2, 3, 2), (2, 2, 2))],
           make=_make(_cplx(_separated_sv), _cplx(_spd)), ops=("Svd", "SvdValues", "SelfAdjointEigV2")),
    OpCase("MatrixExponential", la.expm, [((3, 3),), ((2, 2, 2),)], domain=(-1.0, 1.0)),
    OpCase("Lu", lambda a: la.lu(a)[0], SQ),
    OpCase("lu_solve", lambda a, b: la.lu_solve(*la.lu(a), b), SQ2, ops=("Lu",)),
    OpCase("lu_matrix_inverse", lambda a: la.lu_matrix_inverse(*la.lu(a)), SQ[:1], ops=()),
    OpCase("tridiagonal_solve", la.tridiagonal_solve, [((3, 4), (4, 2)), ((2, 3, 3), (2, 3, 1))],
           make=lambda rng, s: [rng.uniform(-1, 1, s[0]) + np.array([[0.0], [4.0], [0.0]]), rng.uniform(-1, 1, s[1])],
           ops=()),
    OpCase("tensor_diag", lambda x: la.tensor_diag_part(la.tensor_diag(x) * 2.0), [((2, 3),)], ops=()),
    OpCase("normalize", lambda x: la.normalize(x, axis=-1)[0], [((2, 3),)], ops=()),
    OpCase("MatrixSquareRoot", la.sqrtm, [((3, 3),), ((2, 2, 2),)], make=_make(_wellcond)),
    OpCase("matrix_square_root-spd", lambda a: tf.matrix_square_root(a) * 2.0, [((3, 3),)], make=_make(_spd),
           ops=("MatrixSquareRoot",)),
    OpCase("Eig", lambda a: [tf.math.real(e) for e in la.eig(a)[:1]] + [tf.math.imag(la.eigvals(a)),
                                                                      tf.abs(la.eig(a)[1]) ** 2],
           [((3, 3),), ((2, 2, 2),)], make=lambda rng, s: [np.diag(np.arange(1.0, s[0][-1] + 1) * 2)
                                                           + rng.uniform(-0.3, 0.3, s[0])]),
    OpCase("Eig-complex-pair", lambda a: [tf.math.real(la.eigvals(a)), tf.math.imag(la.eigvals(a)),
                                          tf.abs(la.eig(a)[1]) ** 2],
           [((2, 2),)], make=lambda rng, s: [np.array([[0.5, -1.0], [1.0, 0.2]]) + rng.uniform(-0.1, 0.1, s[0])],
           ops=("Eig",)),
    OpCase("MatrixLogarithm", la.logm, [((3, 3),), ((2, 2, 2),)],
           make=_make(_cplx(_wellcond))),
]
