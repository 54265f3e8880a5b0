"""Matrix functions and decompositions (``tf.linalg``): solves, inverses, determinants,
Cholesky, QR, eigh, SVD, least squares, the pseudo-inverse and expm.

Forwards are NumPy/SciPy on the last two axes (leading axes are batch axes). Rules are written
with tapegrad ops, so nested tapes differentiate them again. ``A^H`` is the conjugate transpose.

Conventions shared with TensorFlow (each op's docstring says which apply):

* Ops that read one triangle of their input (``cholesky``, ``triangular_solve``, ``eigh``,
  ``eigvalsh``) give gradients for that reading: ``triangular_solve`` and ``eigh`` return a
  triangular gradient; ``cholesky`` returns the symmetrised gradient ``(S + S^H) / 2`` (the
  input is taken to be symmetric), as TensorFlow does.
* Eigen- and singular-value gaps enter as ``x / (x² + 1e-20)``, which is 0 for equal values
  instead of ``inf``: with repeated eigenvalues (singular values) the gradient stays finite and
  is exact for losses that do not depend on the basis chosen inside the degenerate subspace.
* Signs of eigenvectors and singular vectors are whatever LAPACK returns; they can differ from
  TensorFlow's (Eigen's). Gradients are correct for the vectors returned here; only losses that
  are invariant to those signs give the same numbers in both libraries. For complex inputs the
  phase of each vector is likewise free (eigh and svd gradients are exact for phase-invariant
  losses); QR fixes it by a real diagonal of ``r``.
* Complex gradients are conjugates of holomorphic derivatives (TensorFlow's convention), e.g.
  ``conj(det) A^-H`` for ``det`` (TensorFlow's own det gradient omits that conjugate).
"""
from __future__ import annotations

import builtins
from collections import namedtuple
from typing import Any

import numpy as np

from .. import _backend as _bk, _vmap, dtypes as _dt
from .._convert import as_tensor, binary_operands, host_value
from .._dispatch import apply, defop, jointly, zeros_like
from .._tensor import Tensor, constant_maker, wrap as _wrap
from .._warn import warn_outside
from .array import _err, _invert, broadcast_to, concat, eye
from .indexing import gather
from .math import cast, complex_, conj, greater, imag, log, real, where
from .reduction import reduce_max, reduce_sum
from .linalg import _H, _T, _band_form, _mm, _rank_check, band_part, diag_part, matrix_diag

__all__ = ["triangular_solve", "cholesky", "cholesky_solve", "inv", "det", "slogdet", "logdet",
    "solve", "lstsq", "eigh", "eigvalsh", "svd", "pinv", "qr", "expm", "lu", "lu_solve", "lu_reconstruct",
    "lu_matrix_inverse", "matrix_rank", "tridiagonal_solve", "tridiagonal_matmul", "sqrtm", "eig",
    "eigvals", "logm"]


def _bad_matrices(x: np.ndarray, test: Any = np.isnan) -> np.ndarray | None:
    """The batch mask of the matrices of ``x`` with an entry failing ``np.isfinite``-style
    ``test``; None when there is none (the common case: one O(n²) scan)."""
    bad = test(x).any(axis=(-2, -1))
    return bad if bad.any() else None


def _placeholder(x: np.ndarray, bad: np.ndarray | None, fill: np.ndarray) -> np.ndarray:
    return x if bad is None else np.where(bad[..., None, None], fill, x)


def _nan_where(bad: np.ndarray | None, out: np.ndarray) -> np.ndarray:
    return out if bad is None else np.where(bad.reshape(bad.shape + (1,) * (out.ndim - bad.ndim)), np.nan, out)


def _adj_np(v: np.ndarray) -> np.ndarray:
    v = np.swapaxes(v, -1, -2)
    return v.conj() if v.dtype.kind == "c" else v


@constant_maker
def _const(v: np.ndarray, like: Tensor) -> Tensor:
    return _wrap(np.asarray(v, like._value.dtype))


def _phi(x: Tensor) -> Tensor:
    """Lower triangle with the diagonal halved (band parts: no n x n constant, lazy on Dask)."""
    return band_part(x, -1, 0) - 0.5 * band_part(x, 0, 0)


def _tri(x: Tensor, lower: bool) -> Tensor:
    return band_part(x, -1, 0) if lower else band_part(x, 0, -1)


def _safe_recip_gaps(e: Tensor) -> Tensor:
    """``F[..., i, j] = 1 / (e_j - e_i)`` off the diagonal, 0 on it and where ``e_i == e_j``."""
    d = e[..., None, :] - e[..., :, None]
    n = d._value.shape[-1]
    # the mask also stops cotangents at the (identically zero) diagonal, where d/dx = 1e20
    return d / (d * d + _const(1e-20, d)) * _const(1.0 - np.eye(n), d)


def _diag_mat(v: Tensor) -> Tensor:
    return matrix_diag(v)


def _square_check(x: Tensor, op: str) -> None:
    s = x._value.shape
    if len(s) < 2:
        raise _err(op, f"Input must have rank >= 2, got shape {list(s)}")
    if s[-1] != s[-2]:
        raise _err(op, f"Input matrix must be square, got shape {list(s)}")


def _float_check(x: Tensor, op: str) -> None:
    if x._value.dtype.kind not in "fc" or x._value.dtype == np.float16:
        raise _err(op, f"{op} does not accept dtype {x.dtype.name}; use float32, float64, "
                       "complex64 or complex128")


def _apply_square(op: Any, input: Any, p: dict | None = None) -> Any:  # noqa: A002
    """Run ``op`` on a (batch of) square floating matrices, after checking them."""
    x = as_tensor(input)
    _float_check(x, op.name)
    _square_check(x, op.name)
    return apply(op, (x,), p or {})


# --------------------------------------------------------------------------- array backends
# Each op's form (registered beside it) is ``_bk.matrix_form``: on Dask the op's NumPy forward runs
# lazily on blocks of whole matrices (batches too, which Dask's own linalg does not take), or Dask's
# blocked algorithm for one matrix in several chunks (Cholesky, triangular solves); elsewhere the
# namespace's linalg extension where it has the routine (these helpers).
def _xp_linalg(be: Any, name: str) -> Any:
    return getattr(getattr(be.xp, "linalg", None), name, None)


def _xp_adj(be: Any, x: Any) -> Any:
    xp = be.xp
    t = xp.matrix_transpose(x)
    return xp.conj(t) if xp.isdtype(x.dtype, "complex floating") else t


def _xp_form(name: str) -> Any:
    def form(be: Any, x: Any, *rest: Any, adjoint: bool = False) -> Any:
        f = _xp_linalg(be, name)
        if f is None:
            return NotImplemented
        return f(_xp_adj(be, x) if adjoint else x, *rest)
    return form


def _xp_finite_only(be: Any, f: Any, x: Any, fill: Any) -> tuple:
    """``f(x)``'s outputs with the matrices of ``x`` that hold NaN or Inf given to ``f`` as
    ``fill`` and their results NaN (as the NumPy forwards: LAPACK would not converge)."""
    xp = be.xp
    bad = xp.logical_not(xp.all(xp.isfinite(x), axis=(-2, -1)))
    outs = f(xp.where(xp.reshape(bad, tuple(bad.shape) + (1, 1)), fill, x))

    def nan(o: Any) -> Any:
        b = xp.reshape(bad, tuple(bad.shape) + (1,) * (o.ndim - bad.ndim))
        return xp.where(b, xp.asarray(np.nan, dtype=o.dtype), o)
    return tuple(nan(o) for o in outs)


def _matrix_op(op: Any, form: Any = None, blocked: Any = None) -> None:
    """Register ``op``'s batching rule (its leading axes are batch axes) and its form."""
    if not op.bcast:
        _vmap.register(op, _vmap.leading)
    _bk.register(op, _bk.matrix_form(op.fwd, form, blocked))


# --------------------------------------------------------------------------- triangular solve
def _subst(a: np.ndarray, b: np.ndarray, lower: bool) -> np.ndarray:
    """Solve ``a x = b`` by substitution with ``a`` triangular; batches broadcast. Zero pivots
    give IEEE inf/nan, as TensorFlow does."""
    n = a.shape[-1]
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + b.shape[-2:]
    dt = np.result_type(a, b)
    x = np.zeros(shape, dt)
    order = builtins.range(n) if lower else builtins.range(n - 1, -1, -1)
    for i in order:
        r = b[..., i, :]
        if lower and i:
            r = r - np.einsum("...j,...jk->...k", a[..., i, :i], x[..., :i, :])
        elif not lower and i < n - 1:
            r = r - np.einsum("...j,...jk->...k", a[..., i, i + 1:], x[..., i + 1:, :])
        with np.errstate(divide="ignore", invalid="ignore"):
            x[..., i, :] = r / a[..., i, i][..., None]
    return x


def _trisolve_fwd(a: np.ndarray, b: np.ndarray, lower: bool, adjoint: bool) -> np.ndarray:
    if adjoint:
        return _subst(_adj_np(a), b, not lower)
    return _subst(a, b, lower)


def _ts(a: Tensor, b: Tensor, lower: bool, adjoint: bool = False) -> Tensor:
    return apply(_trisolve, (a, b), {"lower": lower, "adjoint": adjoint})


def _solve_rules(solve_with: Any, project: Any) -> tuple:
    """VJP and JVP of ``x = solve_with(A, B, adjoint)`` (``A x = B`` or ``A^H x = B``), where
    ``project`` keeps the part of ``A`` the solver reads (its triangle, or all of it):
    ``B̄ = A^-H Ḡ``, ``Ā = -B̄ x^H`` (``-x B̄^H`` for the adjoint); ``dx = A^-1 (dB - dA x)``."""
    def vjp(g: Tensor, ans: Tensor, needs: Any, a: Tensor, b: Tensor, adjoint: bool, **p: Any) -> list:
        gb = solve_with(a, g, not adjoint, **p)
        out = []
        for i in needs:
            if i == 1:
                out.append(gb)
            else:
                ga = -_mm(gb, ans, False, True) if not adjoint else -_mm(ans, gb, False, True)
                out.append(project(ga, **p))
        return out

    def jvp(ts: Any, ans: Tensor, a: Tensor, b: Tensor, adjoint: bool, **p: Any) -> Tensor:
        ta, rhs = ts
        if ta is not None:
            t = _mm(project(ta, **p), ans, adjoint, False)
            rhs = -t if rhs is None else rhs - t
        return solve_with(a, rhs, adjoint, **p)
    return vjp, jvp


_trisolve_vjp, _trisolve_jvp = _solve_rules(lambda a, b, adjoint, lower: _ts(a, b, lower, adjoint),
                                            lambda x, lower: _tri(x, lower))
# jointly: A's cotangent reuses B's (one solve); the JVP solves once for dB - dA x
_trisolve = defop("MatrixTriangularSolve", _trisolve_fwd, vjp=jointly(_trisolve_vjp), jvp=jointly(_trisolve_jvp),
                  broadcast=True)
def _xp_trisolve(be: Any, a: Any, b: Any, lower: bool, adjoint: bool) -> Any:
    """The triangle of ``a`` only (the other is never read), solved by the general solver."""
    solve = _xp_linalg(be, "solve")
    if solve is None:
        return NotImplemented
    t = _band_form(be, a, -1, 0) if lower else _band_form(be, a, 0, -1)
    return solve(_xp_adj(be, t) if adjoint else t, b)


def _blocked_trisolve(da: Any, a: Any, b: Any, lower: bool, adjoint: bool) -> Any:
    if adjoint:
        a, lower = da.conj(a.T), not lower
    dt = np.result_type(a.dtype, b.dtype)
    a = a.rechunk(max(a.chunks[0])).astype(dt)
    return da.linalg.solve_triangular(a, b.rechunk({0: a.chunks[1]}).astype(dt), lower=lower)


_matrix_op(_trisolve, _xp_trisolve, _blocked_trisolve)


def _solve_args(matrix: Any, rhs: Any, op: str, broadcast: bool) -> tuple[Tensor, Tensor]:
    """``matrix`` and ``rhs`` as tensors of one floating dtype, with compatible shapes."""
    a, b = binary_operands(matrix, rhs, op)
    _float_check(a, op)
    va, vb = a._value, b._value
    if va.ndim < 2 or vb.ndim < 2:
        raise _err(op, f"Input matrix and rhs must have rank >= 2, got shapes {list(va.shape)} "
                       f"and {list(vb.shape)}")
    if va.shape[-1] != va.shape[-2]:
        raise _err(op, f"Input matrix must be square, got shape {list(va.shape)}")
    if va.shape[-1] != vb.shape[-2]:
        raise _err(op, f"Input matrix and rhs are incompatible: matrix shape {list(va.shape)}, "
                       f"rhs shape {list(vb.shape)} (matrix columns must equal rhs rows)")
    if broadcast:
        try:
            np.broadcast_shapes(va.shape[:-2], vb.shape[:-2])
        except ValueError:
            raise _err(op, f"Batch dimensions of matrix {list(va.shape)} and rhs {list(vb.shape)} "
                           "do not broadcast") from None
    elif va.shape[:-2] != vb.shape[:-2]:
        raise _err(op, f"Input matrix and rhs must have the same batch dimensions: "
                       f"{list(va.shape)} vs. {list(vb.shape)}")
    return a, b


def triangular_solve(matrix: Any, rhs: Any, lower: bool = True, adjoint: bool = False, name: Any = None) -> Tensor:
    """Solve ``matrix @ x = rhs`` (or ``matrix^H @ x = rhs`` with ``adjoint``) for a triangular
    ``matrix``; only its lower (``lower=True``) or upper triangle is read, and the gradient with
    respect to ``matrix`` is zero outside that triangle. Batch axes broadcast.

    >>> import tapegrad as tf
    >>> tf.linalg.triangular_solve([[2.0, 0.0], [1.0, 1.0]], [[2.0], [3.0]]).numpy()
    array([[1.],
           [2.]], dtype=float32)
    """
    a, b = _solve_args(matrix, rhs, "MatrixTriangularSolve", True)
    return _ts(a, b, bool(lower), bool(adjoint))


# --------------------------------------------------------------------------- cholesky
def _chol_fwd(x: np.ndarray) -> np.ndarray:
    try:
        return np.linalg.cholesky(x)
    except np.linalg.LinAlgError:
        raise _err("Cholesky", "Cholesky decomposition was not successful. The input might not be "
                               "valid. (The matrix is not positive definite.)") from None


def _chol_vjp(g: Tensor, L: Tensor, x: Tensor) -> Tensor:
    # S = L^-H Φ(L^H Ḡ) L^-1;  Ā = (S + S^H) / 2
    p = _phi(_mm(L, g, True, False))
    z = _H(_ts(L, _H(p), True, True))            # P L^-1
    s = _ts(L, z, True, True)                     # L^-H P L^-1
    return 0.5 * (s + _H(s))


def _chol_jvp(t: Any, L: Tensor, x: Tensor) -> Tensor:
    # dL = L Φ(L^-1 sym(dA) L^-H)
    da = 0.5 * (t + _H(t))
    m = _ts(L, da, True, False)
    return _mm(L, _phi(_H(_ts(L, _H(m), True, False))))


_chol = defop("Cholesky", _chol_fwd, vjp=(_chol_vjp,), jvp=(_chol_jvp,))
# Dask's blocked algorithms for one 2-D matrix in several chunks (``da``: dask.array), on square
# chunks of the row chunks' size; each reads what the NumPy forward reads and gives its result.
# Dask's LU pivots within diagonal blocks only (a valid matrix with a singular diagonal block
# fails) and its TSQR's signs are not LAPACK's, so solve, inv, qr and svd stay per matrix.
def _blocked_cholesky(da: Any, a: Any) -> Any:
    """The lower factor of ``a``'s lower triangle; Dask's wants equal chunks (and reads the upper
    blocks): ``a`` symmetrized and padded, ``chol([[A, 0], [0, I]]) = [[L, 0], [0, I]]``."""
    n, c = a.shape[0], max(a.chunks[0])
    if c == n:
        return NotImplemented
    i = da.arange(n, chunks=c)
    a = da.where(i[:, None] >= i, a, da.conj(a.T))  # (Dask's tril warns on complex arrays)
    pad = -n % c
    if pad:
        a = da.block([[a, da.zeros((n, pad), dtype=a.dtype)],
                      [da.zeros((pad, n), dtype=a.dtype), da.eye(pad, dtype=a.dtype)]])
    low = da.linalg.cholesky(a.rechunk(c), lower=True)
    return low[:n, :n] if pad else low


_matrix_op(_chol, _xp_form("cholesky"), _blocked_cholesky)


def cholesky(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Lower-triangular Cholesky factor ``L`` with ``L @ L^H == input`` for each matrix.

    Only the lower triangle of ``input`` is read. The gradient is TensorFlow's: symmetric,
    ``(S + S^H) / 2`` with ``S = L^-H Φ(L^H Ḡ) L^-1`` (``Φ``: lower triangle, diagonal halved),
    i.e. the input is treated as a symmetric matrix. A non-square or non-positive-definite input
    raises InvalidArgumentError.

    >>> import tapegrad as tf
    >>> tf.linalg.cholesky([[4.0, 2.0], [2.0, 2.0]]).numpy()
    array([[2., 0.],
           [1., 1.]], dtype=float32)
    """
    return _apply_square(_chol, input)


def cholesky_solve(chol: Any, rhs: Any, name: Any = None) -> Tensor:
    """Solve ``A x = rhs`` given ``chol``, the Cholesky factor of ``A`` (two triangular solves)."""
    L, b = _solve_args(chol, rhs, "CholeskySolve", True)
    return _ts(L, _ts(L, b, True, False), True, True)


# --------------------------------------------------------------------------- inverse, det
def _inv_fwd(x: np.ndarray, adjoint: bool) -> np.ndarray:
    # a matrix holding a NaN has an all-NaN inverse (LAPACK's pivoting can leave entries finite,
    # and TF raises or not depending on where the NaN is: docs/differences.md)
    bad = _bad_matrices(x)
    x = _placeholder(x, bad, np.eye(x.shape[-1], dtype=x.dtype))
    try:
        return _nan_where(bad, np.linalg.inv(_adj_np(x) if adjoint else x))
    except np.linalg.LinAlgError:
        raise _err("MatrixInverse", "Input is not invertible.") from None


def _inv_vjp(g: Tensor, ans: Tensor, x: Tensor, adjoint: bool) -> Tensor:
    if adjoint:
        return -_mm(ans, _mm(g, ans, True, False))
    return -_mm(ans, _mm(g, ans, False, True), True, False)


def _inv_jvp(t: Any, ans: Tensor, x: Tensor, adjoint: bool) -> Tensor:
    return -_mm(ans, _mm(t, ans, adjoint, False))


_inv = defop("MatrixInverse", _inv_fwd, vjp=(_inv_vjp,), jvp=(_inv_jvp,))
_matrix_op(_inv, _xp_form("inv"))


def inv(input: Any, adjoint: bool = False, name: Any = None) -> Tensor:  # noqa: A002
    """Inverse of each square matrix (of its adjoint with ``adjoint=True``).

    A singular matrix raises InvalidArgumentError ("Input is not invertible.").

    >>> import tapegrad as tf
    >>> tf.linalg.inv([[2.0, 0.0], [0.0, 4.0]]).numpy()
    array([[0.5 , 0.  ],
           [0.  , 0.25]], dtype=float32)
    """
    return _apply_square(_inv, input, {"adjoint": bool(adjoint)})


def _inv_h(x: Tensor) -> Tensor:
    return apply(_inv, (x,), {"adjoint": True})


def _trace_solve(x: Tensor, t: Tensor) -> Tensor:
    """``trace(x^-1 t)`` for each matrix."""
    return reduce_sum(_T(apply(_inv, (x,), {"adjoint": False})) * t, axis=[-2, -1])


def _det_fwd(x: np.ndarray) -> np.ndarray:
    bad = _bad_matrices(x)   # LAPACK's pivoting gave det([[nan, 1], [1, 1]]) = 0
    with np.errstate(all="ignore"):   # NumPy warns from its own frame, out of tapegrad's filter
        return np.asarray(_nan_where(bad, np.linalg.det(x)))


_det = defop("MatrixDeterminant", _det_fwd,
             vjp=(lambda g, ans, x: (g * conj(ans) if ans._value.dtype.kind == "c" else g * ans)[..., None, None] * _inv_h(x),),
             jvp=(lambda t, ans, x: ans * _trace_solve(x, t),))
_matrix_op(_det, _xp_form("det"))


def det(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Determinant of each square matrix: ``[..., M, M] -> [...]``.

    The gradient is ``det(A) * A^-H``; at a singular matrix it raises (as TensorFlow's does),
    because ``A^-1`` does not exist.
    """
    return _apply_square(_det, input)


def _slogdet_fwd(x: np.ndarray) -> tuple:
    bad = _bad_matrices(x)
    with np.errstate(all="ignore"):   # as in _det_fwd
        s, l = np.linalg.slogdet(x)
    s, l = _nan_where(bad, s), _nan_where(bad, l)
    return np.asarray(s, x.dtype), np.asarray(l, x.dtype)


def _slogdet_vjp(g: tuple, ans: tuple, x: Tensor) -> Tensor:
    gl = g[1]
    if gl._value.dtype.kind == "c":
        gl = real(gl)
        gl = _cast_like(gl, x)
    return gl[..., None, None] * _inv_h(x)


def _cast_like(t: Tensor, like: Tensor) -> Tensor:
    return cast(t, like.dtype)


def _slogdet_jvp(t: Any, ans: tuple, x: Tensor) -> tuple:
    t = _trace_solve(x, t)
    if t._value.dtype.kind == "c":
        t = _cast_like(real(t), x)
    return (None, t)


_slogdet = defop("LogMatrixDeterminant", _slogdet_fwd, vjp=(_slogdet_vjp,), jvp=(_slogdet_jvp,), nout=2)
def _xp_slogdet(be: Any, x: Any) -> Any:
    f = _xp_linalg(be, "slogdet")
    if f is None:
        return NotImplemented
    s, l = f(x)
    return s, be.xp.astype(l, x.dtype)


_matrix_op(_slogdet, _xp_slogdet)


def slogdet(input: Any, name: Any = None) -> tuple[Tensor, Tensor]:  # noqa: A002
    """Sign and log of the absolute value of the determinant: ``(sign, log_abs_determinant)``.

    Only ``log_abs_determinant`` has a gradient (``A^-H``); ``sign`` is piecewise constant.

    >>> import tapegrad as tf
    >>> s, l = tf.linalg.slogdet([[-2.0, 0.0], [0.0, 3.0]])
    >>> float(s), round(float(l), 4)
    (-1.0, 1.7918)
    """
    return _apply_square(_slogdet, input)


def logdet(matrix: Any, name: Any = None) -> Tensor:
    """Log-determinant of each Hermitian positive-definite matrix, ``2 * sum(log(diag(cholesky)))``
    (TensorFlow computes it this way too, so a non-positive-definite input raises)."""
    L = cholesky(matrix)
    d = diag_part(L)
    if d._value.dtype.kind == "c":
        d = real(d)
    return 2.0 * reduce_sum(log(d), axis=-1)


# --------------------------------------------------------------------------- solve
def _solve_fwd(a: np.ndarray, b: np.ndarray, adjoint: bool) -> np.ndarray:
    bad = _bad_matrices(a)   # as in _inv_fwd
    a = _placeholder(a, bad, np.eye(a.shape[-1], dtype=a.dtype))
    try:
        return _nan_where(bad, np.linalg.solve(_adj_np(a) if adjoint else a, b))
    except np.linalg.LinAlgError:
        raise _err("MatrixSolve", "Input matrix is not invertible.") from None


def _sv(a: Tensor, b: Tensor, adjoint: bool) -> Tensor:
    return apply(_solve, (a, b), {"adjoint": adjoint})


_solve_vjp, _solve_jvp = _solve_rules(lambda a, b, adjoint: _sv(a, b, adjoint), lambda x: x)
# jointly: as for _trisolve
_solve = defop("MatrixSolve", _solve_fwd, vjp=jointly(_solve_vjp), jvp=jointly(_solve_jvp), broadcast=True)
_matrix_op(_solve, _xp_form("solve"))


def solve(matrix: Any, rhs: Any, adjoint: bool = False, name: Any = None) -> Tensor:
    """Solve ``matrix @ x = rhs`` (``matrix^H @ x = rhs`` with ``adjoint``) for square
    ``matrix [..., M, M]`` and ``rhs [..., M, K]`` with the same batch dimensions.

    >>> import tapegrad as tf
    >>> tf.linalg.solve([[2.0, 0.0], [0.0, 4.0]], [[2.0], [2.0]]).numpy()
    array([[1. ],
           [0.5]], dtype=float32)
    """
    a, b = _solve_args(matrix, rhs, "MatrixSolve", False)
    return _sv(a, b, bool(adjoint))


def lstsq(matrix: Any, rhs: Any, l2_regularizer: Any = 0.0, fast: bool = True, name: Any = None) -> Tensor:
    """Least-squares solutions ``x [..., N, K]`` of ``matrix [..., M, N] @ x = rhs [..., M, K]``.

    ``fast=True`` (TensorFlow's default) solves the regularised normal equations with a Cholesky
    factorisation: ``(A^H A + λI)^-1 A^H B`` when ``M >= N``, else ``A^H (A A^H + λI)^-1 B``.
    ``fast=False`` returns the minimum-norm solution through the pseudo-inverse (robust to rank
    deficiency); it ignores ``l2_regularizer`` with a warning, as TensorFlow ignores it. Both
    are differentiable (TensorFlow has no gradient for ``fast=False``).
    """
    a, b = binary_operands(matrix, rhs, "MatrixSolveLs")
    _float_check(a, "MatrixSolveLs")
    va, vb = a._value, b._value
    if va.ndim < 2 or vb.ndim < 2 or va.shape[-2] != vb.shape[-2] or va.shape[:-2] != vb.shape[:-2]:
        raise _err("MatrixSolveLs", f"matrix [..., M, N] and rhs [..., M, K] are incompatible: "
                                    f"{list(va.shape)} vs. {list(vb.shape)}")
    lam = float(host_value(l2_regularizer, "l2_regularizer") if isinstance(l2_regularizer, Tensor)
                else l2_regularizer)
    if not fast:
        if lam != 0.0:
            warn_outside("lstsq: l2_regularizer is ignored when fast=False (as in TensorFlow); use "
                         "fast=True for a regularised solution.")
        return _mm(pinv(a), b)
    m, n = va.shape[-2:]
    if m >= n:
        gram = _mm(a, a, True, False)
        if lam:
            gram = gram + _const(lam * np.eye(n), a)
        return cholesky_solve(cholesky(gram), _mm(a, b, True, False))
    gram = _mm(a, a, False, True)
    if lam:
        gram = gram + _const(lam * np.eye(m), a)
    return _mm(a, cholesky_solve(cholesky(gram), b), True, False)


# --------------------------------------------------------------------------- eigh
def _eigh_check(x: np.ndarray, op: str) -> None:
    if not np.isfinite(x).all() and not np.isfinite(np.tril(x)).all():
        raise _err(op, "Self-adjoint eigen decomposition was not successful. The input might not "
                       "be valid: its lower triangle holds NaN or Inf.")


def _eigh_fwd(x: np.ndarray) -> tuple:
    _eigh_check(x, "SelfAdjointEigV2")
    e, v = np.linalg.eigh(x, UPLO="L")
    return e.astype(x.dtype), v          # complex input: complex eigenvalues, as in TensorFlow


def _sym_lower(ga: Tensor) -> Tensor:
    """The gradient for an op that reads the lower triangle of a Hermitian matrix."""
    return _phi(ga + _H(ga))


def _sym_from_lower(t: Tensor) -> Tensor:
    """The Hermitian matrix an op reading the lower triangle sees for tangent ``t``."""
    p = _phi(t)
    return p + _H(p)


def _cplx(e: Tensor, like: Tensor) -> Tensor:
    return _cast_like(e, like) if like._value.dtype.kind == "c" else e


def _eigh_vjp(g: tuple, ans: tuple, x: Tensor) -> Tensor:
    ge, gv = g
    e, v = ans
    f = _safe_recip_gaps(e)
    inner = _diag_mat(ge) + f * _mm(v, gv, True, False)
    return _sym_lower(_mm(v, _mm(inner, v, False, True)))


def _eigh_jvp(t: Any, ans: tuple, x: Tensor) -> tuple:
    e, v = ans
    p = _mm(v, _mm(_sym_from_lower(t), v), True, False)
    return diag_part(p), _mm(v, _safe_recip_gaps(e) * p)


_eigh = defop("SelfAdjointEigV2", _eigh_fwd, vjp=(_eigh_vjp,), jvp=(_eigh_jvp,), nout=2)
def _xp_eigh(be: Any, x: Any) -> Any:
    f = _xp_linalg(be, "eigh")  # (the lower triangle, as NumPy's)
    if f is None:
        return NotImplemented
    e, v = f(x)
    return be.xp.astype(e, x.dtype), v


_matrix_op(_eigh, _xp_eigh)


def _eigvalsh_fwd(x: np.ndarray) -> np.ndarray:
    _eigh_check(x, "SelfAdjointEigV2")
    return np.linalg.eigvalsh(x, UPLO="L").astype(x.dtype)


def _eigvalsh_vjp(g: Tensor, ans: Tensor, x: Tensor) -> Tensor:
    _, v = apply(_eigh, (x,))
    return _sym_lower(_mm(v, _mm(_diag_mat(g), v, False, True)))


def _eigvalsh_jvp(t: Any, ans: Tensor, x: Tensor) -> Tensor:
    _, v = apply(_eigh, (x,))
    return diag_part(_mm(v, _mm(_sym_from_lower(t), v), True, False))


_eigvalsh = defop("SelfAdjointEigVals", _eigvalsh_fwd, vjp=(_eigvalsh_vjp,), jvp=(_eigvalsh_jvp,))
_matrix_op(_eigvalsh, lambda be, x: NotImplemented if _xp_linalg(be, "eigvalsh") is None
          else be.xp.astype(_xp_linalg(be, "eigvalsh")(x), x.dtype))


def eigh(tensor: Any, name: Any = None) -> tuple[Tensor, Tensor]:
    """Eigen-decomposition of Hermitian matrices: ``(e, v)`` with eigenvalues ``e`` ascending
    and eigenvectors in the columns of ``v``. Only the lower triangle is read, and the gradient is
    lower-triangular (TensorFlow's convention). Eigenvector signs are LAPACK's and may differ
    from TensorFlow's; with repeated eigenvalues the gap factor ``1/(e_j - e_i)`` is taken as 0.

    >>> import tapegrad as tf
    >>> e, v = tf.linalg.eigh([[2.0, 1.0], [1.0, 2.0]])
    >>> e.numpy().round(4)
    array([1., 3.], dtype=float32)
    """
    return _apply_square(_eigh, tensor)


def eigvalsh(tensor: Any, name: Any = None) -> Tensor:
    """Eigenvalues (ascending) of Hermitian matrices; reads the lower triangle, and the
    gradient ``v diag(ē) v^H`` is projected onto it as for :func:`eigh`."""
    return _apply_square(_eigvalsh, tensor)


# --------------------------------------------------------------------------- svd
def _svd_fwd(x: np.ndarray, full: bool) -> tuple:
    # a matrix holding NaN or Inf: all-NaN factors, as in TF (LAPACK does not converge)
    bad = _bad_matrices(x, lambda v: ~np.isfinite(v))
    u, s, vh = np.linalg.svd(_placeholder(x, bad, np.zeros((), x.dtype)), full_matrices=full)
    s = s.astype(x.real.dtype if x.dtype.kind == "c" else x.dtype, copy=False)
    return _nan_where(bad, s), _nan_where(bad, u), _nan_where(bad, _adj_np(vh))


def _svd_thin(x: Tensor) -> tuple:
    return apply(_svd, (x,), {"full": False})


def _imag_diag_over(p: Tensor, s: Tensor) -> Tensor:
    """``diag(i Im(p_kk) / s_k)``: the phase part of a complex SVD's derivative, which this
    library puts on ``u`` (the phases of ``u`` and ``v`` columns are not determined)."""
    im = imag(diag_part(p)) / s
    return matrix_diag(complex_(im * 0.0, im))


def _svd_vjp(g: tuple, ans: tuple, x: Tensor, full: bool) -> Tensor:
    gs, gu, gv = g
    s, u, v = ans
    m, n = x._value.shape[-2:]
    k = builtins.min(m, n)
    if full and m != n:
        if builtins.abs(m - n) > 1:
            raise NotImplementedError("svd gradient is not implemented for abs(m - n) > 1 when "
                                      "full_matrices is True (as in TensorFlow); use "
                                      "full_matrices=False.")
        # TensorFlow's convention: the one extra column's cotangent is dropped
        u, gu, v, gv = u[..., :k], gu[..., :k], v[..., :k], gv[..., :k]
    f = _cplx(_safe_recip_gaps(s * s), u)
    sd = _cplx(_diag_mat(s), u)
    uhgu = _mm(u, gu, True, False)
    j = f * (uhgu - _H(uhgu))
    vhgv = _mm(v, gv, True, False)
    kk = f * (vhgv - _H(vhgv))
    core = _mm(j, sd) + _cplx(_diag_mat(gs), u) + _mm(sd, kk)
    if u._value.dtype.kind == "c":
        core = core + _imag_diag_over(uhgu, s)
    out = _mm(u, _mm(core, v, False, True))
    sinv = _cplx(1.0 / s, u)
    if m > k:
        out = out + _mm(gu - _mm(u, uhgu), sinv[..., :, None] * _H(v))
    if n > k:
        out = out + _mm(u * sinv[..., None, :], _H(gv) - _mm(_H(vhgv), _H(v)))
    return out


def _svd_jvp(t: Any, ans: tuple, x: Tensor, full: bool) -> tuple:
    s, u, v = ans
    m, n = x._value.shape[-2:]
    k = builtins.min(m, n)
    if full and m != n:
        raise NotImplementedError("Forward-mode svd with full_matrices=True needs a square matrix; "
                                  "use full_matrices=False.")
    da = t
    dp = _mm(u, _mm(da, v), True, False)
    ds = diag_part(dp)
    f = _cplx(_safe_recip_gaps(s * s), u)
    sd = _cplx(_diag_mat(s), u)
    du = _mm(u, f * (_mm(dp, sd) + _mm(sd, _H(dp))))
    dv = _mm(v, f * (_mm(sd, dp) + _mm(_H(dp), sd)))
    if u._value.dtype.kind == "c":
        ds = real(ds)
        du = du + _mm(u, _imag_diag_over(dp, s))
    sinv = _cplx(1.0 / s, u)[..., None, :]
    if m > k:
        du = du + (_mm(da, v) - _mm(u, dp)) * sinv
    if n > k:
        dv = dv + (_mm(da, u, True, False) - _mm(v, dp, False, True)) * sinv
    return ds, du, dv


_svd = defop("Svd", _svd_fwd, vjp=(_svd_vjp,), jvp=(_svd_jvp,), nout=3)
def _xp_svd(be: Any, x: Any, full: bool) -> Any:
    f = _xp_linalg(be, "svd")
    if f is None:
        return NotImplemented

    def svd(a: Any) -> tuple:
        u, s, vh = f(a, full_matrices=full)
        return s, u, _xp_adj(be, vh)
    return _xp_finite_only(be, svd, x, be.xp.zeros((), dtype=x.dtype))


_matrix_op(_svd, _xp_svd)


def _svdvals_fwd(x: np.ndarray) -> np.ndarray:
    bad = _bad_matrices(x, lambda v: ~np.isfinite(v))   # as in _svd_fwd
    s = _nan_where(bad, np.linalg.svd(_placeholder(x, bad, np.zeros((), x.dtype)), compute_uv=False))
    return s.astype(x.real.dtype if x.dtype.kind == "c" else x.dtype, copy=False)


def _svdvals_vjp(g: Tensor, ans: Tensor, x: Tensor) -> Tensor:
    _, u, v = _svd_thin(x)
    return _mm(u * _cplx(g, u)[..., None, :], v, False, True)


def _svdvals_jvp(t: Any, ans: Tensor, x: Tensor) -> Tensor:
    _, u, v = _svd_thin(x)
    ds = reduce_sum(conj(u) * _mm(t, v) if u._value.dtype.kind == "c" else u * _mm(t, v), axis=-2)
    return real(ds) if ds._value.dtype.kind == "c" else ds


_svdvals = defop("SvdValues", _svdvals_fwd, vjp=(_svdvals_vjp,), jvp=(_svdvals_jvp,))
def _xp_svdvals(be: Any, x: Any) -> Any:
    f = _xp_linalg(be, "svdvals")
    return NotImplemented if f is None else _xp_finite_only(be, lambda a: (f(a),), x, be.xp.zeros((), dtype=x.dtype))[0]


_matrix_op(_svdvals, _xp_svdvals)


def svd(tensor: Any, full_matrices: bool = False, compute_uv: bool = True, name: Any = None) -> Any:
    """Singular value decomposition ``tensor = u @ diag(s) @ v^H``; returns ``(s, u, v)``
    (``v``, not ``v^H``, as in TensorFlow), or only ``s`` when ``compute_uv=False``.

    ``s`` is descending. Signs (phases) of singular vectors are LAPACK's and may differ from
    TensorFlow's. Gradients: the gap factor ``1/(s_j² - s_i²)`` is 0 for repeated singular
    values; for complex inputs the undetermined phase derivative is put on ``u``, so losses
    invariant to the phase of each ``(u_k, v_k)`` pair get exact gradients; with
    ``full_matrices=True`` and ``|M - N| == 1`` the extra column's cotangent is ignored and
    ``|M - N| > 1`` raises NotImplementedError, as in TensorFlow.

    >>> import tapegrad as tf
    >>> tf.linalg.svd([[3.0, 0.0], [0.0, -4.0]], compute_uv=False).numpy().round(4)
    array([4., 3.], dtype=float32)
    """
    x = as_tensor(tensor)
    _float_check(x, "Svd")
    _rank_check(x, "Svd")
    if not compute_uv:
        return apply(_svdvals, (x,))
    return apply(_svd, (x,), {"full": bool(full_matrices)})


def pinv(a: Any, rcond: Any = None, validate_args: bool = False, name: Any = None) -> Tensor:
    """Moore-Penrose pseudo-inverse through the SVD: singular values at or below
    ``rcond * max(s)`` (default ``rcond = 10 * max(M, N) * eps``) are treated as zero.
    Differentiable where the rank does not change (through :func:`svd`'s gradient)."""
    x = as_tensor(a)
    _float_check(x, "Pinv")
    _rank_check(x, "Pinv")
    m, n = x._value.shape[-2:]
    if rcond is None:
        rcond = 10.0 * builtins.max(m, n) * np.finfo(x._value.dtype).eps
    s, u, v = svd(x)
    cutoff = _const(rcond, s) * reduce_max(s, axis=-1, keepdims=True)
    big = greater(s, cutoff)
    sinv = where(big, 1.0 / where(big, s, _const(1.0, s)), _const(0.0, s))
    return _mm(v * _cplx(sinv, u)[..., None, :], u, False, True)


# --------------------------------------------------------------------------- qr
QR = namedtuple("Qr", ["q", "r"])


def _qr_fwd(x: np.ndarray, full: bool) -> tuple:
    q, r = np.linalg.qr(x, mode="complete" if full else "reduced")
    return q, r


def _rinv_right(x: Tensor, r: Tensor) -> Tensor:
    """``x @ R^-H`` for upper-triangular ``R``."""
    return _H(_ts(r, _H(x), False, False))


def _qr_deep_vjp(q: Tensor, r: Tensor, gq: Tensor, gr: Tensor) -> Tensor:
    # the transpose of _qr_deep_jvp: M = Q^H Q̄ - R̄ R^H, X̄ = stril(M - M^H) - M (+ i Im diag M),
    # Ā = (Q̄ + Q X̄) R^-H. For real inputs this is TensorFlow's QrGrad.
    m = _mm(q, gq, True, False) - _mm(gr, r, False, True)
    skew = m - _H(m)
    xbar = band_part(skew, -1, 0) - band_part(skew, 0, 0) - m
    if m._value.dtype.kind == "c":
        im = imag(diag_part(m))
        xbar = xbar + matrix_diag(complex_(im * 0.0, im))
    return _rinv_right(gq + _mm(q, xbar), r)


def _qr_deep_jvp(q: Tensor, r: Tensor, da: Tensor) -> tuple:
    dar = _H(_ts(r, _H(da), False, True))               # dA R^-1
    x = _mm(q, dar, True, False)
    low = band_part(x, -1, 0) - band_part(x, 0, 0)
    om = low - _H(low)                                  # Q^H dQ: skew-Hermitian
    if x._value.dtype.kind == "c":                      # R's diagonal stays real
        im = imag(diag_part(x))
        om = om + matrix_diag(complex_(im * 0.0, im))
    return _mm(q, om) + dar - _mm(q, x), _mm(x - om, r)


def _qr_vjp(g: tuple, ans: tuple, x: Tensor, full: bool) -> Tensor:
    gq, gr = g
    q, r = ans
    m, n = x._value.shape[-2:]
    if m > n and full:
        raise NotImplementedError(f"QrGrad not implemented when nrows > ncols and full_matrices "
                                  f"is true (matrix shape {list(x._value.shape)}), as in "
                                  "TensorFlow; use full_matrices=False.")
    if m >= n:
        return _qr_deep_vjp(q, r, gq, gr)
    y = x[..., m:]
    u = r[..., :m]
    gv = gr[..., m:]
    dx = _qr_deep_vjp(q, u, gq + _mm(y, gv, False, True), gr[..., :m])
    return concat([dx, _mm(q, gv)], -1)


def _qr_jvp(t: Any, ans: tuple, x: Tensor, full: bool) -> tuple:
    q, r = ans
    da = t
    m, n = x._value.shape[-2:]
    if m > n and full:
        raise NotImplementedError("Forward-mode qr is not implemented when nrows > ncols and "
                                  "full_matrices is true; use full_matrices=False.")
    if m >= n:
        return _qr_deep_jvp(q, r, da)
    dq, du = _qr_deep_jvp(q, r[..., :m], da[..., :m])
    dv = _mm(dq, x[..., m:], True, False) + _mm(q, da[..., m:], True, False)
    return dq, concat([du, dv], -1)


_qr = defop("Qr", _qr_fwd, vjp=(_qr_vjp,), jvp=(_qr_jvp,), nout=2)
_matrix_op(_qr, lambda be, x, full: NotImplemented if _xp_linalg(be, "qr") is None
          else tuple(_xp_linalg(be, "qr")(x, mode="complete" if full else "reduced")))


def qr(input: Any, full_matrices: bool = False, name: Any = None) -> Any:  # noqa: A002
    """QR decomposition ``input = q @ r``; returns the namedtuple ``(q, r)``.

    ``full_matrices=False`` gives ``q [..., M, min(M, N)]``. The diagonal of ``r`` is real
    (LAPACK's convention), which fixes ``q``; gradients cover real and complex inputs of every
    shape except ``M > N`` with ``full_matrices=True`` (NotImplementedError, as in TensorFlow).

    >>> import tapegrad as tf
    >>> q, r = tf.linalg.qr([[3.0, 0.0], [4.0, 5.0]])
    >>> r.shape
    TensorShape([2, 2])
    """
    x = as_tensor(input)
    _float_check(x, "Qr")
    _rank_check(x, "Qr")
    return QR(*apply(_qr, (x,), {"full": bool(full_matrices)}))


# --------------------------------------------------------------------------- expm
def _expm_fwd(x: np.ndarray) -> np.ndarray:
    from scipy.linalg import expm as _sp_expm
    if x.shape[-1] == 0:
        return x.copy()
    return np.asarray(_sp_expm(x), x.dtype)


def _block_expm_corner(a: Tensor, e: Tensor) -> Tensor:
    """Top-right block of ``expm([[a, e], [0, a]])``: the Fréchet derivative of expm at ``a``
    in direction ``e``."""
    n = a._value.shape[-1]
    a = broadcast_to(a, np.broadcast_shapes(a._value.shape, e._value.shape))
    big = concat([concat([a, e], -1), concat([zeros_like(a), a], -1)], -2)
    return apply(_expm, (big,))[..., :n, n:]


_expm = defop("MatrixExponential", _expm_fwd,
              vjp=(lambda g, ans, x: _block_expm_corner(_H(x), g),),
              jvp=(lambda t, ans, x: _block_expm_corner(x, t),))
def _expm_gpu(be: Any, x: Any) -> Any:
    """CuPy's ``cupyx.scipy.linalg.expm`` (one matrix at a time: it takes 2-D arrays only)."""
    if not be.gpu:
        return NotImplemented
    import importlib
    expm = importlib.import_module("cupyx.scipy.linalg").expm
    xp, n = be.xp, x.shape[-1]
    flat = xp.reshape(x, (-1, n, n))
    out = xp.stack([expm(flat[i]) for i in range(flat.shape[0])]) if flat.shape[0] else flat
    return xp.astype(xp.reshape(out, x.shape), x.dtype)


_matrix_op(_expm, _expm_gpu)


def expm(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Matrix exponential of each square matrix (SciPy's Padé approximation).

    Derivatives use the block identity ``expm([[A, E], [0, A]]) = [[e^A, L(A, E)], [0, e^A]]``,
    where ``L`` is the Fréchet derivative, so they are as accurate as the forward.

    >>> import tapegrad as tf
    >>> tf.linalg.expm([[0.0, 1.0], [0.0, 0.0]]).numpy().round(4)
    array([[1., 1.],
           [0., 1.]], dtype=float32)
    """
    return _apply_square(_expm, input)


# --------------------------------------------------------------------------- LU
def _lu_fwd(a: np.ndarray, idx: np.dtype) -> tuple:
    from scipy import linalg as sl
    if not a.size:  # (SciPy's permutation of an empty batch has shape (0, 0, 0))
        return a.copy(), np.zeros(a.shape[:-1], idx)
    p, low, up = sl.lu(a)
    perm = np.argmax(p, axis=-2).astype(idx)  # a[perm] = L @ U
    return np.tril(low, -1) + up, perm


def _lu_parts(lu_: Tensor) -> tuple[Tensor, Tensor]:
    n = lu_._value.shape[-1]
    low = band_part(lu_, -1, 0) - band_part(lu_, 0, 0) + eye(n, dtype=lu_.dtype)
    return low, band_part(lu_, 0, -1)


def _unpermute(x: Tensor, perm: Tensor) -> Tensor:
    """``y`` with ``y[perm] = x`` (along the rows of each matrix)."""
    return gather(x, apply(_invert, (perm,)), axis=-2, batch_dims=perm._value.ndim - 1)


def _lu_vjp(g: tuple, ans: tuple, a: Tensor, idx: Any) -> Tensor:
    # B = A[perm] = L U: B̄ = L^-H (tril(L^H Ḡ, -1) + triu(Ḡ U^H)) U^-H
    lu_, perm = ans
    low, up = _lu_parts(lu_)
    gl = g[0]
    mid = band_part(_mm(low, gl, True, False), -1, 0) - band_part(_mm(low, gl, True, False), 0, 0) \
        + band_part(_mm(gl, up, False, True), 0, -1)
    x = triangular_solve(low, mid, lower=True, adjoint=True)
    b = _H(triangular_solve(up, _H(x), lower=False))
    return _unpermute(b, perm)


def _lu_jvp(t: Tensor, ans: tuple, a: Tensor, idx: Any) -> tuple:
    # F = L^-1 dB U^-1: dL = L tril(F, -1), dU = triu(F) U
    lu_, perm = ans
    low, up = _lu_parts(lu_)
    db = gather(t, perm, axis=-2, batch_dims=perm._value.ndim - 1)
    f = _H(triangular_solve(up, _H(triangular_solve(low, db, lower=True)), lower=False, adjoint=True))
    return _mm(low, band_part(f, -1, 0) - band_part(f, 0, 0)) + _mm(band_part(f, 0, -1), up), None


_lu = defop("Lu", _lu_fwd, vjp=(_lu_vjp,), jvp=(_lu_jvp,), nout=2, batch_ok=False)
_matrix_op(_lu)


def lu(input: Any, output_idx_type: Any = _dt.int32, name: Any = None) -> tuple:  # noqa: A002
    """LU decomposition with partial pivoting of square matrices: ``(lower_upper, perm)`` with
    ``input[..., perm, :] = L @ U``, ``L`` unit lower triangular (its strict lower part and ``U``
    packed in ``lower_upper``). Differentiable in ``input``.

    >>> import tapegrad as tf
    >>> lu, p = tf.linalg.lu(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    >>> lu.numpy().round(4), p.numpy()
    (array([[3.    , 4.    ],
           [0.3333, 0.6667]], dtype=float32), array([1, 0], dtype=int32))
    """
    x = as_tensor(input)
    _check_square(x, "Lu")
    idx = np.dtype(_dt.as_dtype(output_idx_type).as_numpy_dtype)
    return tuple(apply(_lu, (x,), {"idx": idx}))


def _check_square(x: Tensor, op: str) -> None:
    if x._value.ndim < 2 or x._value.shape[-1] != x._value.shape[-2]:
        raise _err(op, f"input must be a batch of square matrices, got shape {list(x._value.shape)}")
    if x._value.dtype.kind not in "fc":
        raise _err(op, f"input must be floating or complex, got {x.dtype.name}")


def lu_solve(lower_upper: Any, perm: Any, rhs: Any, validate_args: bool = False, name: Any = None) -> Tensor:
    """Solve ``A @ x = rhs`` from ``A``'s :func:`lu` factors.

    >>> import tapegrad as tf
    >>> a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> tf.linalg.lu_solve(*tf.linalg.lu(a), tf.constant([[5.0], [11.0]])).numpy().round(4)
    array([[1.],
           [2.]], dtype=float32)
    """
    lu_, p, b = as_tensor(lower_upper), as_tensor(perm), as_tensor(rhs)
    low, up = _lu_parts(lu_)
    pb = gather(b, p, axis=-2, batch_dims=p._value.ndim - 1)
    return triangular_solve(up, triangular_solve(low, pb, lower=True), lower=False)


def lu_reconstruct(lower_upper: Any, perm: Any, validate_args: bool = False, name: Any = None) -> Tensor:
    """The matrix ``A`` whose :func:`lu` factors are given.

    >>> import tapegrad as tf
    >>> a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> tf.linalg.lu_reconstruct(*tf.linalg.lu(a)).numpy().round(4)
    array([[1., 2.],
           [3., 4.]], dtype=float32)
    """
    lu_, p = as_tensor(lower_upper), as_tensor(perm)
    low, up = _lu_parts(lu_)
    return _unpermute(_mm(low, up), p)


def lu_matrix_inverse(lower_upper: Any, perm: Any, validate_args: bool = False, name: Any = None) -> Tensor:
    """The inverse of the matrix whose :func:`lu` factors are given.

    >>> import tapegrad as tf
    >>> tf.linalg.lu_matrix_inverse(*tf.linalg.lu(tf.constant([[2.0, 0.0], [0.0, 4.0]]))).numpy()
    array([[0.5 , 0.  ],
           [0.  , 0.25]], dtype=float32)
    """
    lu_ = as_tensor(lower_upper)
    n = lu_._value.shape[-1]
    eye_ = broadcast_to(eye(n, dtype=lu_.dtype), lu_._value.shape)
    return lu_solve(lu_, perm, eye_)


def matrix_rank(a: Any, tol: Any = None, validate_args: bool = False, name: Any = None) -> Tensor:
    """The number of singular values above ``tol`` (default ``eps · max(M, N) · σ_max``), int32.

    >>> import tapegrad as tf
    >>> int(tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]])))
    1
    """
    x = as_tensor(a)
    s = svd(x, compute_uv=False)
    if tol is None:
        eps = np.finfo(x._value.dtype).eps
        tol = reduce_max(s, axis=-1, keepdims=True) * (eps * max(x._value.shape[-2:]))
    return reduce_sum(cast(greater(s, tol), _dt.int32), axis=-1)


def _tridiagonal(diagonals: Any, fmt: str, op: str) -> Tensor:
    if fmt == "matrix":
        return as_tensor(diagonals)
    if fmt == "sequence":
        sup, main, sub = (as_tensor(d) for d in diagonals)
    elif fmt == "compact":
        d = as_tensor(diagonals)
        if d._value.ndim < 2 or d._value.shape[-2] != 3:
            raise _err(op, f"compact diagonals must have shape [..., 3, M], got {list(d._value.shape)}")
        sup, main, sub = d[..., 0, :], d[..., 1, :], d[..., 2, :]
    else:
        raise ValueError(f"{op}: diagonals_format must be 'compact', 'sequence' or 'matrix', got {fmt!r}.")
    if main._value.shape[-1] == 1:
        return matrix_diag(main)
    return matrix_diag(sup[..., :-1], k=1) + matrix_diag(main) + matrix_diag(sub[..., 1:], k=-1)


def tridiagonal_solve(diagonals: Any, rhs: Any, diagonals_format: str = "compact", transpose_rhs: bool = False,
                      conjugate_rhs: bool = False, name: Any = None, partial_pivoting: bool = True,
                      perturb_singular: bool = False) -> Tensor:
    """Solve ``A @ x = rhs`` for tridiagonal ``A``: ``diagonals`` ``[..., 3, M]`` (superdiagonal,
    diagonal, subdiagonal; ``"compact"``), a tuple of the three (``"sequence"``) or the matrix;
    ``rhs`` ``[..., M, K]`` or ``[..., M]``. Differentiable in both.

    >>> import tapegrad as tf
    >>> d = tf.constant([[1.0, 1.0, 0.0], [4.0, 4.0, 4.0], [0.0, 1.0, 1.0]])
    >>> tf.linalg.tridiagonal_solve(d, tf.constant([5.0, 6.0, 5.0])).numpy().round(4)
    array([1., 1., 1.], dtype=float32)
    """
    a = _tridiagonal(diagonals, diagonals_format, "TridiagonalSolve")
    b = as_tensor(rhs)
    if transpose_rhs:
        b = _T(b)
    if conjugate_rhs and b._value.dtype.kind == "c":
        b = conj(b)
    vector = b._value.ndim == a._value.ndim - 1
    x = solve(a, b[..., None] if vector else b)
    return x[..., 0] if vector else x


def tridiagonal_matmul(diagonals: Any, rhs: Any, diagonals_format: str = "compact", name: Any = None) -> Tensor:
    """``A @ rhs`` for tridiagonal ``A`` given as in :func:`tridiagonal_solve`.

    >>> import tapegrad as tf
    >>> d = tf.constant([[1.0, 1.0, 0.0], [4.0, 4.0, 4.0], [0.0, 1.0, 1.0]])
    >>> tf.linalg.tridiagonal_matmul(d, tf.ones([3, 1])).numpy()[:, 0]
    array([5., 6., 5.], dtype=float32)
    """
    return _mm(_tridiagonal(diagonals, diagonals_format, "TridiagonalMatMul"), as_tensor(rhs))



# --------------------------------------------------------------------------- sqrtm
def _sqrtm_fwd(x: np.ndarray) -> np.ndarray:
    from scipy.linalg import sqrtm as _sp_sqrtm
    out = np.empty_like(x)
    for i in np.ndindex(x.shape[:-2]):
        r = np.asarray(_sp_sqrtm(x[i])) if x.shape[-1] else x[i]
        if x.dtype.kind != "c" and np.iscomplexobj(r):  # no real square root: NaN, as in TensorFlow
            r = np.where(np.abs(r.imag) <= 1e-7 * (1 + np.abs(r.real).max()), r.real, np.nan)
        out[i] = r
    return out


def _block_sqrtm_corner(a: Tensor, e: Tensor) -> Tensor:
    """Top-right block of ``sqrtm([[a, e], [0, a]])``: the Fréchet derivative of sqrtm at ``a``
    in direction ``e``."""
    n = a._value.shape[-1]
    a = broadcast_to(a, np.broadcast_shapes(a._value.shape, e._value.shape))
    big = concat([concat([a, e], -1), concat([zeros_like(a), a], -1)], -2)
    return apply(_sqrtm, (big,))[..., :n, n:]


_sqrtm = defop("MatrixSquareRoot", _sqrtm_fwd,
               vjp=(lambda g, ans, x: _block_sqrtm_corner(_H(x), g),),
               jvp=(lambda t, ans, x: _block_sqrtm_corner(x, t),))
_matrix_op(_sqrtm)


def sqrtm(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """The principal square root ``X`` of each square matrix (``X @ X == input``), also
    ``tf.linalg.matrix_square_root``. A real matrix without a real square root (a negative real
    eigenvalue) gives NaN, as in TensorFlow; the gradient solves ``X dX + dX X = dA``.

    >>> import tapegrad as tf
    >>> tf.linalg.sqrtm(tf.constant([[4.0, 0.0], [0.0, 9.0]])).numpy()
    array([[2., 0.],
           [0., 3.]], dtype=float32)
    """
    return _apply_square(_sqrtm, input)



# --------------------------------------------------------------------------- eig
def _eig_fwd(x: np.ndarray) -> tuple:
    out = np.result_type(x.dtype, np.complex64)
    bad = _bad_matrices(x, lambda a: ~np.isfinite(a))
    e, v = np.linalg.eig(_placeholder(x, bad, np.eye(x.shape[-1], dtype=x.dtype)))
    return _nan_where(bad, e.astype(out)), _nan_where(bad, v.astype(out))


def _eig_vjp(g: tuple, ans: tuple, x: Tensor) -> Tensor:  # TensorFlow's _EigGrad
    ge, gv = g
    e, v = ans
    vt = _H(v)
    vgv = _mm(vt, gv)
    keep = matrix_diag(cast(real(diag_part(vgv)), vgv.dtype))
    mid = matrix_diag(ge) + conj(_safe_recip_gaps(e)) * (vgv - _mm(_mm(vt, v), keep))
    grad = apply(_solve, (vt, _mm(mid, vt)), {"adjoint": False})
    return grad if x._value.dtype.kind == "c" else cast(real(grad), x.dtype)


def _eig_jvp(t: Any, ans: tuple, x: Tensor) -> tuple:
    e, v = ans
    p = apply(_solve, (v, _mm(cast(t, v.dtype), v)), {"adjoint": False})  # V^-1 dA V
    dv = _mm(v, _safe_recip_gaps(e) * p)
    dv = dv - v * cast(real(diag_part(_mm(v, dv, True, False))), v.dtype)[..., None, :]
    return diag_part(p), dv


_eig = defop("Eig", _eig_fwd, vjp=(_eig_vjp,), jvp=(_eig_jvp,), nout=2)
def _xp_eig(be: Any, x: Any) -> Any:
    f = _xp_linalg(be, "eig")  # (the standard's 2025.12 revision)
    if f is None:
        return NotImplemented
    c = be.dtype(np.result_type(be.np_dtype(x.dtype), np.complex64))
    return _xp_finite_only(be, lambda a: tuple(be.xp.astype(o, c) for o in f(a)), x,
                           be.xp.eye(x.shape[-1], dtype=x.dtype))


_matrix_op(_eig, _xp_eig)


def eig(tensor: Any, name: Any = None) -> tuple[Tensor, Tensor]:
    """Eigenvalues and unit-norm eigenvectors (columns) of general square matrices:
    ``(e, v)`` with ``tensor @ v == v * e``, complex (complex64 for float32 input). The order and
    the phase of each vector are LAPACK's, which can differ from TensorFlow's; the gradient is
    TensorFlow's, exact for losses that do not depend on that phase.

    >>> import tapegrad as tf
    >>> e, v = tf.linalg.eig(tf.constant([[2.0, 0.0], [0.0, 3.0]]))
    >>> tf.math.real(e).numpy()
    array([2., 3.], dtype=float32)
    """
    return _apply_square(_eig, tensor)


def eigvals(tensor: Any, name: Any = None) -> Tensor:
    """The (complex) eigenvalues of general square matrices, as :func:`eig` gives them.

    >>> import tapegrad as tf
    >>> tf.linalg.eigvals(tf.constant([[0.0, -1.0], [1.0, 0.0]])).numpy()
    array([0.+1.j, 0.-1.j], dtype=complex64)
    """
    return _apply_square(_eig, tensor)[0]



# --------------------------------------------------------------------------- logm
def _logm_fwd(x: np.ndarray) -> np.ndarray:
    from scipy.linalg import logm as _sp_logm
    out = np.empty_like(x)
    for i in np.ndindex(x.shape[:-2]):  # (in double precision: SciPy's error estimate is absolute)
        out[i] = _sp_logm(np.array(x[i], np.complex128)) if x.shape[-1] else x[i]
    return out


def _block_logm_corner(a: Tensor, e: Tensor) -> Tensor:
    """Top-right block of ``logm([[a, e], [0, a]])``: the Fréchet derivative of logm at ``a``."""
    n = a._value.shape[-1]
    a = broadcast_to(a, np.broadcast_shapes(a._value.shape, e._value.shape))
    big = concat([concat([a, e], -1), concat([zeros_like(a), a], -1)], -2)
    return apply(_logm, (big,))[..., :n, n:]


# (batch_ok=False: Jacobian walks go row by row; batched, SciPy's logm of the block matrices
# differed from the row-by-row result in the last bits)
_logm = defop("MatrixLogarithm", _logm_fwd,
              vjp=(lambda g, ans, x: _block_logm_corner(_H(x), g),),
              jvp=(lambda t, ans, x: _block_logm_corner(x, t),), batch_ok=False)
_matrix_op(_logm)


def logm(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """The principal matrix logarithm of complex square matrices (``expm(logm(A)) == A``), as in
    TensorFlow complex64 or complex128 only; unlike TensorFlow's, it has a gradient (the Fréchet
    derivative, from ``logm([[A, E], [0, A]])``).

    >>> import tapegrad as tf
    >>> tf.math.real(tf.linalg.logm(tf.constant([[1.0, 0.0], [0.0, 2.0]], tf.complex64))).numpy().round(4)
    array([[0.    , 0.    ],
           [0.    , 0.6931]], dtype=float32)
    """
    x = as_tensor(input)
    if x._value.dtype.kind != "c":
        raise _err("MatrixLogarithm", f"logm takes complex64 or complex128 matrices, got {x.dtype.name}; "
                                      "cast first, e.g. tf.cast(a, tf.complex64)")
    _square_check(x, "MatrixLogarithm")
    return apply(_logm, (x,))
