"""Matrix products: matmul (batched, broadcasting), matvec."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._core import Tensor, _tls, apply, binary_operands, defop
from ..errors import InvalidArgumentError
from .array import expand_dims, squeeze, transpose


def _adj(v: np.ndarray) -> np.ndarray:
    v = np.swapaxes(v, -1, -2)
    return v.conj() if v.dtype.kind == "c" else v


def _matmul_fwd(a: np.ndarray, b: np.ndarray, adj_a: bool, adj_b: bool) -> np.ndarray:
    a = _adj(a) if adj_a else a
    b = _adj(b) if adj_b else b
    if _tls.seed_walk:  # only a Jacobian walk's structured cotangents are worth inspecting
        fast = _diag_product(a, b)
        if fast is not None:
            return fast
    return np.matmul(a, b)


def _diagonal(m: np.ndarray) -> Any:
    """The diagonal of a square matrix (n >= 16) whose off-diagonal entries are all zero, else None."""
    n = m.shape[-1]
    if m.ndim != 2 or n < 16 or m.shape[0] != n:
        return None
    d = np.diagonal(m)
    return d if np.count_nonzero(m) == np.count_nonzero(d) else None


def _diag_product(a: np.ndarray, b: np.ndarray) -> Any:
    """``a @ b`` in O(n²) when one side is diagonal, else None.

    A Jacobian walk seeds the identity, so after elementwise ops its cotangent is a diagonal
    matrix, or a batch of one-hot columns ``(n, n, 1)`` (rows ``(n, 1, n)``) for ``matvec``.
    Exact: the skipped terms are zeros times finite numbers (checked).
    """
    if a.ndim == 2 and b.ndim == 3 and b.shape[2] == 1:  # W @ batch of one-hot columns
        d = _diagonal(b[:, :, 0])
        if d is not None and np.isfinite(a).all():
            return np.ascontiguousarray((a * d).T)[:, :, None]
    elif a.ndim == 3 and a.shape[1] == 1 and b.ndim == 2:  # batch of one-hot rows @ W
        d = _diagonal(a[:, 0, :])
        if d is not None and np.isfinite(b).all():
            return (d[:, None] * b)[:, None, :]
    elif a.ndim == 2 and b.ndim == 2:
        d = _diagonal(a)
        if d is not None and np.isfinite(b).all():
            return d[:, None] * b
        d = _diagonal(b)
        if d is not None and np.isfinite(a).all():
            return a * d
    return None


def _mm(a: Tensor, b: Tensor, adj_a: bool = False, adj_b: bool = False) -> Tensor:
    return apply(_matmul, (a, b), {"adj_a": adj_a, "adj_b": adj_b})


def _matmul_vjp(g: Tensor, ans: Tensor, needs: Any, a: Tensor, b: Tensor, adj_a: bool, adj_b: bool) -> list:
    out = []
    for i in needs:
        if i == 0:
            if not adj_a:
                out.append(_mm(g, b, False, not adj_b))
            else:
                out.append(_mm(b, g, adj_b, True))
        else:
            if not adj_b:
                out.append(_mm(a, g, not adj_a, False))
            else:
                out.append(_mm(g, a, True, adj_a))
    return out


def _matmul_jvp(ts: Any, ans: Tensor, a: Tensor, b: Tensor, adj_a: bool, adj_b: bool) -> Tensor:
    ta, tb = ts
    out = None if ta is None else _mm(ta, b, adj_a, adj_b)
    if tb is not None:
        t = _mm(a, tb, adj_a, adj_b)
        out = t if out is None else out + t
    return out


_matmul = defop("BatchMatMulV2", _matmul_fwd, vjp=_matmul_vjp, jvp=_matmul_jvp, broadcast=True)


def matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False, adjoint_a: bool = False,
           adjoint_b: bool = False, a_is_sparse: bool = False, b_is_sparse: bool = False,
           output_type: Any = None, name: Any = None) -> Tensor:
    """Matrix product ``a @ b`` over the last two axes; leading (batch) axes broadcast.

    ``transpose_*`` / ``adjoint_*`` use the transposed / conjugate-transposed operand without
    copying it.

    >>> import tapegrad as tf
    >>> a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> tf.matmul(a, a, transpose_b=True).numpy()
    array([[ 5., 11.],
           [11., 25.]], dtype=float32)
    """
    a, b = binary_operands(a, b, "MatMul")
    if (transpose_a and adjoint_a) or (transpose_b and adjoint_b):
        raise ValueError("matmul: transpose_a and adjoint_a (or transpose_b and adjoint_b) cannot "
                         "both be True.")
    va, vb = a._value, b._value
    for i, v in enumerate((va, vb)):
        if v.ndim < 2:
            raise InvalidArgumentError(None, None, f"In[{i}] ndims must be >= 2: {v.ndim} (shape "
                                       f"{list(v.shape)}); use tf.linalg.matvec or tf.tensordot for "
                                       "vectors [Op:MatMul]")
    if va.dtype.kind not in "fciu":
        raise InvalidArgumentError(None, None, f"matmul does not accept {a.dtype.name} [Op:MatMul]")
    cplx = va.dtype.kind == "c"
    if cplx and transpose_a:
        a, transpose_a = transpose(a, _swap(va.ndim)), False
    if cplx and transpose_b:
        b, transpose_b = transpose(b, _swap(vb.ndim)), False
    ad_a, ad_b = bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b)
    ka = va.shape[-2] if ad_a else va.shape[-1]
    kb = vb.shape[-1] if ad_b else vb.shape[-2]
    if ka != kb:
        raise InvalidArgumentError(None, None, f"Matrix size-incompatible: In[0]: {list(va.shape)}, "
                                   f"In[1]: {list(vb.shape)} (inner dimensions {ka} and {kb} differ"
                                   f"{' after transposition' if ad_a or ad_b else ''}) [Op:MatMul]")
    try:
        np.broadcast_shapes(va.shape[:-2], vb.shape[:-2])
    except ValueError:
        raise InvalidArgumentError(None, None, f"In[0] and In[1] must have compatible batch "
                                   f"dimensions: {list(va.shape)} vs. {list(vb.shape)} [Op:MatMul]") from None
    return apply(_matmul, (a, b), {"adj_a": ad_a, "adj_b": ad_b})


def _swap(nd: int) -> tuple:
    return tuple(range(nd - 2)) + (nd - 1, nd - 2)


def matvec(a: Any, b: Any, transpose_a: bool = False, adjoint_a: bool = False, a_is_sparse: bool = False,
           b_is_sparse: bool = False, name: Any = None) -> Tensor:
    """Matrix-vector product over the last axes: ``a[..., M, N] @ b[..., N] -> [..., M]``."""
    a, b = binary_operands(a, b, "MatVec")
    if b._value.ndim < 1:
        raise InvalidArgumentError(None, None, "matvec: b must have at least one axis [Op:MatVec]")
    return squeeze(matmul(a, expand_dims(b, -1), transpose_a=transpose_a, adjoint_a=adjoint_a), -1)
