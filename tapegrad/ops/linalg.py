"""Linear algebra without decompositions: matrix products (``matmul``, ``matvec``, ``einsum``,
``tensordot``), norms (``norm``, ``global_norm``) and the structural matrix ops (``adjoint``,
``matrix_transpose``, ``band_part``, the diagonal ops, ``trace``, ``cross``, TensorFlow
Probability's ``fill_triangular``).
"""
from __future__ import annotations

import builtins
import numbers
from typing import Any

import numpy as np

from .. import _backend as _bk, _blas, _recorders as _rec, _vmap
from .._convert import as_tensor, binary_operands, host_value
from .._dispatch import apply, defop, jointly, zeros_like
from .._recorders import tls as _tls
from .._tensor import Tensor, constant_maker, wrap as _wrap
from ..errors import InvalidArgumentError
from .array import (_err, _lead, _transpose as _transpose_op, expand_dims, norm_axes, norm_axis, reshape,
                    squeeze, stack, transpose, zeros)
from .math import _check_kind, _norm_list, abs as _abs, conj, pow as _pow, sqrt
from .reduction import reduce_max, reduce_sum

__all__ = ["matmul", "matvec", "band_part", "matrix_diag", "diag_part", "set_diag", "trace",
    "matrix_transpose", "adjoint", "cross", "fill_triangular", "fill_triangular_inverse", "norm",
    "global_norm", "einsum", "tensordot", "tensor_diag", "tensor_diag_part", "normalize"]


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
    return _blas.matmul(a, b)   # (one BLAS thread for a small product: see _blas)


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


def _matmul_vjp_a(g: Tensor, ans: Tensor, a: Tensor, b: Tensor, adj_a: bool, adj_b: bool) -> Tensor:
    return _mm(b, g, adj_b, True) if adj_a else _mm(g, b, False, not adj_b)


def _matmul_vjp_b(g: Tensor, ans: Tensor, a: Tensor, b: Tensor, adj_a: bool, adj_b: bool) -> Tensor:
    return _mm(g, a, True, adj_a) if adj_b else _mm(a, g, not adj_a, False)


_matmul = defop("BatchMatMulV2", _matmul_fwd, vjp=(_matmul_vjp_a, _matmul_vjp_b),
                jvp=(lambda t, ans, a, b, adj_a, adj_b: _mm(t, b, adj_a, adj_b),
                     lambda t, ans, a, b, adj_a, adj_b: _mm(a, t, adj_a, adj_b)), broadcast=True)
def _matmul_rule(op: Any, n: int, xs: list, bat: tuple, p: dict) -> Any:
    """One batched matrix and one unbatched: one large product (NumPy would loop over the rows)."""
    a, b = xs
    if a._value.ndim + b._value.ndim - 1 != 4 or bat == (True, True):
        return _vmap.broadcasting(op, n, xs, bat, p)
    if bat[0] and not p["adj_a"]:  # [n, m, k] -> [n * m, k]
        _, m, k = a._value.shape
        y = apply(op, (_vmap.reshape(a, (n * m, k)), b), p)
        return _vmap.reshape(y, (n, m, y._value.shape[-1]))
    if bat[1] and not p["adj_b"]:
        _, k, q = b._value.shape
        if q == 1 and a._value.dtype.kind != "c":  # columns (matvec): y = [n, k] @ op(a)^T
            y = apply(op, (_vmap.reshape(b, (n, k)), a), {"adj_a": False, "adj_b": not p["adj_a"]})
            return _vmap.reshape(y, y._value.shape + (1,))
        # [n, k, q] -> [k, n * q]
        b2 = _vmap.reshape(apply(_transpose_op, (b,), {"perm": (1, 0, 2)}), (k, n * q))
        y = apply(op, (a, b2), p)
        return apply(_transpose_op, (_vmap.reshape(y, (y._value.shape[0], n, q)),), {"perm": (1, 0, 2)})
    return _vmap.broadcasting(op, n, xs, bat, p)


def _matmul_form(be: Any, a: Any, b: Any, adj_a: bool, adj_b: bool) -> Any:
    xp = be.xp
    if adj_a:
        a = xp.conj(xp.matrix_transpose(a)) if xp.isdtype(a.dtype, "complex floating") else xp.matrix_transpose(a)
    if adj_b:
        b = xp.conj(xp.matrix_transpose(b)) if xp.isdtype(b.dtype, "complex floating") else xp.matrix_transpose(b)
    return xp.matmul(a, b)


_vmap.register(_matmul, _matmul_rule)
_bk.register(_matmul, _matmul_form)


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
    for i, shp in enumerate((va.shape, vb.shape)):
        if len(shp) < 2:
            raise InvalidArgumentError(f"In[{i}] ndims must be >= 2: {len(shp)} (shape "
                                       f"{list(shp)}); use tf.linalg.matvec or tf.tensordot for "
                                       "vectors [Op:MatMul]")
    if va.dtype.kind not in "fciu":
        raise InvalidArgumentError(f"matmul does not accept {a.dtype.name} [Op:MatMul]")
    cplx = va.dtype.kind == "c"
    if cplx and transpose_a:
        a, transpose_a = transpose(a, _swap(va.ndim)), False
    if cplx and transpose_b:
        b, transpose_b = transpose(b, _swap(vb.ndim)), False
    ad_a, ad_b = bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b)
    ka = va.shape[-2] if ad_a else va.shape[-1]
    kb = vb.shape[-1] if ad_b else vb.shape[-2]
    if ka != kb and _rec.standing_in():  # (Keras's functional construction: see array._clash_stand_ins)
        k = builtins.max(ka, kb)
        a = zeros(_sized(va.shape, -2 if ad_a else -1, k), a.dtype) if ka != k else a
        b = zeros(_sized(vb.shape, -1 if ad_b else -2, k), b.dtype) if kb != k else b
        va, vb = a._value, b._value
        ka = k
    if ka != kb:
        raise InvalidArgumentError(f"Matrix size-incompatible: In[0]: {list(va.shape)}, "
                                   f"In[1]: {list(vb.shape)} (inner dimensions {ka} and {kb} differ"
                                   f"{' after transposition' if ad_a or ad_b else ''}) [Op:MatMul]")
    try:
        np.broadcast_shapes(va.shape[:-2], vb.shape[:-2])
    except ValueError:
        raise InvalidArgumentError(f"In[0] and In[1] must have compatible batch "
                                   f"dimensions: {list(va.shape)} vs. {list(vb.shape)} [Op:MatMul]") from None
    return apply(_matmul, (a, b), {"adj_a": ad_a, "adj_b": ad_b})


def _sized(shape: tuple, axis: int, size: int) -> list:
    out = list(shape)
    out[axis] = size
    return out


def _swap(nd: int) -> tuple:
    return tuple(range(nd - 2)) + (nd - 1, nd - 2)


def matvec(a: Any, b: Any, transpose_a: bool = False, adjoint_a: bool = False, a_is_sparse: bool = False,
           b_is_sparse: bool = False, name: Any = None) -> Tensor:
    """Matrix-vector product over the last axes: ``a[..., M, N] @ b[..., N] -> [..., M]``."""
    a, b = binary_operands(a, b, "MatVec")
    if b._value.ndim < 1:
        raise InvalidArgumentError("matvec: b must have at least one axis [Op:MatVec]")
    return squeeze(matmul(a, expand_dims(b, -1), transpose_a=transpose_a, adjoint_a=adjoint_a), -1)


def _T(x: Tensor) -> Tensor:
    """Transpose the last two axes."""
    nd = x._value.ndim
    return transpose(x, tuple(builtins.range(nd - 2)) + (nd - 1, nd - 2))


def _H(x: Tensor) -> Tensor:
    """Conjugate transpose of the last two axes."""
    t = _T(x)
    return conj(t) if t._value.dtype.kind == "c" else t


def _rank_check(x: Tensor, op: str, r: int = 2) -> None:
    if x._value.ndim < r:
        raise _err(op, f"Input must have rank >= {r}, got shape {list(x._value.shape)}")


# --------------------------------------------------------------------------- band / diagonal
def _band_mask(shape: tuple, lo: int, hi: int) -> np.ndarray:
    m, n = shape[-2], shape[-1]
    i = np.arange(m)[:, None]
    j = np.arange(n)[None, :]
    return ((lo < 0) | (i - j <= lo)) & ((hi < 0) | (j - i <= hi))


def _band_fwd(x: np.ndarray, lo: int, hi: int) -> np.ndarray:
    return np.where(_band_mask(x.shape, lo, hi), x, np.zeros((), x.dtype))


_band = defop("MatrixBandPart", _band_fwd, vjp=(lambda g, ans, x, lo, hi: band_part(g, lo, hi),),
              jvp="linear")
_vmap.register(_band, _vmap.leading)


def _band_form(be: Any, x: Any, lo: int, hi: int) -> Any:
    xp = be.xp
    i = xp.reshape(xp.arange(x.shape[-2]), (-1, 1))
    j = xp.reshape(xp.arange(x.shape[-1]), (1, -1))
    keep = None  # (a negative count keeps the whole triangle)
    for d, n in ((i - j, lo), (j - i, hi)):
        if n >= 0:
            keep = d <= n if keep is None else keep & (d <= n)
    return x if keep is None else xp.where(keep, x, xp.zeros_like(x))


_bk.register(_band, _band_form)


def band_part(input: Any, num_lower: Any, num_upper: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Keep a band of each matrix: ``num_lower`` subdiagonals and ``num_upper`` superdiagonals
    (a negative number keeps the whole triangle); zero the rest.

    >>> import tapegrad as tf
    >>> tf.linalg.band_part(tf.ones([3, 3]), 0, -1).numpy()
    array([[1., 1., 1.],
           [0., 1., 1.],
           [0., 0., 1.]], dtype=float32)
    """
    x = as_tensor(input)
    _rank_check(x, "MatrixBandPart")
    lo, hi = int(num_lower), int(num_upper)
    m, n = x._value.shape[-2:]
    if lo > m or hi > n:
        raise _err("MatrixBandPart", f"num_lower ({lo}) must be <= the number of rows ({m}) and "
                                     f"num_upper ({hi}) <= the number of columns ({n})")
    return apply(_band, (x,), {"lo": lo, "hi": hi})


def _diag_idx(m: int, n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    r = np.arange(max(0, -k), min(m, n - k)) if min(m, n - k) > max(0, -k) else np.arange(0)
    return r, r + k


def _diag_part_fwd(x: np.ndarray, k: int) -> np.ndarray:
    return np.diagonal(x, offset=k, axis1=-2, axis2=-1).copy()


def _diag_part_vjp(g: Tensor, ans: Tensor, x: Tensor, k: int) -> Tensor:
    lead = g._value.shape[:_lead(g, ans)]
    return apply(_set_diag, (zeros_like(x, lead), g), {"k": k})


_diag_part = defop("MatrixDiagPartV3", _diag_part_fwd, vjp=(_diag_part_vjp,), jvp="linear")
_vmap.register(_diag_part, _vmap.leading)
_bk.register(_diag_part, lambda be, x, k: (
    be.xp.linalg.diagonal(x, offset=k) if hasattr(be.xp, "linalg") else NotImplemented))


def _set_diag_fwd(x: np.ndarray, d: np.ndarray, k: int) -> np.ndarray:
    out = np.array(x, copy=True)
    r, c = _diag_idx(x.shape[-2], x.shape[-1], k)
    out[..., r, c] = d
    return out


def _set_diag_vjp_x(g: Tensor, ans: Tensor, x: Tensor, d: Tensor, k: int) -> Tensor:
    lead = g._value.shape[:_lead(g, ans)]
    return apply(_set_diag, (g, zeros_like(d, lead)), {"k": k})


_set_diag = defop("MatrixSetDiagV3", _set_diag_fwd,
                  vjp=(_set_diag_vjp_x, lambda g, ans, x, d, k: apply(_diag_part, (g,), {"k": k})),
                  jvp="linear")
_vmap.register(_set_diag, _vmap.leading)


def _diag_positions(shape: tuple, k: int) -> tuple:
    """Rows and columns of diagonal ``k`` of an ``m x n`` matrix (NumPy, from the shape)."""
    m, n = shape[-2], shape[-1]
    r = np.arange(max(0, -k), min(m, n - k))
    return r, r + k


def _on_diagonal(be: Any, d: Any, shape: tuple, k: int) -> Any:
    """``d``'s entries laid on diagonal ``k`` of ``shape`` matrices (another entry of ``d``
    elsewhere), and the mask of that diagonal; None for an empty diagonal. Built from ranges:
    no ``shape``-sized constant (on Dask, no matrix in one chunk)."""
    xp = be.xp
    r, _ = _diag_positions(shape, k)
    if not r.size:
        return None
    i = xp.reshape(xp.arange(shape[0]), (-1, 1))
    j = xp.arange(shape[1])
    col = np.clip(np.arange(shape[1]) - max(k, 0), 0, r.size - 1)  # (the entry of d in each column)
    vals = xp.take(d, xp.asarray(col), axis=d.ndim - 1)
    return xp.reshape(vals, tuple(d.shape[:-1]) + (1, shape[1])), (j - i) == k


def _set_diag_form(be: Any, x: Any, d: Any, k: int) -> Any:
    laid = _on_diagonal(be, d, tuple(x.shape[-2:]), k)
    return NotImplemented if laid is None else be.xp.where(laid[1], laid[0], x)


_bk.register(_set_diag, _set_diag_form)


def _mdiag_fwd(d: np.ndarray, k: int, rows: int, cols: int, pad: Any) -> np.ndarray:
    out = np.full(d.shape[:-1] + (rows, cols), pad, dtype=d.dtype)
    r, c = _diag_idx(rows, cols, k)
    out[..., r, c] = d
    return out


def _mdiag_jvp(t: Any, ans: Tensor, d: Tensor, k: int, rows: int, cols: int, pad: Any) -> Tensor:
    return apply(_mdiag, (t,), {"k": k, "rows": rows, "cols": cols, "pad": 0})


_mdiag = defop("MatrixDiagV3", _mdiag_fwd,
               vjp=(lambda g, ans, d, k, rows, cols, pad: apply(_diag_part, (g,), {"k": k}),),
               jvp=(_mdiag_jvp,))
_vmap.register(_mdiag, _vmap.leading)


def _mdiag_form(be: Any, d: Any, k: int, rows: int, cols: int, pad: Any) -> Any:
    laid = _on_diagonal(be, d, (rows, cols), k)
    return NotImplemented if laid is None else be.xp.where(laid[1], laid[0], be.xp.asarray(pad, dtype=d.dtype))


_bk.register(_mdiag, _mdiag_form)


def _k_arg(k: Any, op: str) -> int:
    k = host_value(k, f"{op}: k")
    if np.ndim(k) != 0:
        raise NotImplementedError(f"{op}: only a single diagonal offset k is supported, got {k!r}.")
    return int(k)


def matrix_diag(diagonal: Any, name: Any = None, k: Any = 0, num_rows: Any = -1, num_cols: Any = -1,
                padding_value: Any = 0, align: str = "RIGHT_LEFT") -> Tensor:
    """A batch of matrices with ``diagonal`` on diagonal ``k`` (``tf.linalg.diag``).

    The matrices are square of size ``len + |k|`` unless ``num_rows`` / ``num_cols`` say
    otherwise; other entries are ``padding_value``.

    >>> import tapegrad as tf
    >>> tf.linalg.diag([1.0, 2.0]).numpy()
    array([[1., 0.],
           [0., 2.]], dtype=float32)
    """
    d = as_tensor(diagonal)
    _rank_check(d, "MatrixDiagV3", 1)
    k = _k_arg(k, "MatrixDiagV3")
    n = d._value.shape[-1]
    rows, cols = int(num_rows), int(num_cols)
    min_rows, min_cols = n + builtins.max(-k, 0), n + builtins.max(k, 0)
    if rows < 0 and cols < 0:
        rows = cols = builtins.max(min_rows, min_cols)
    elif rows < 0:
        rows = min_rows
    elif cols < 0:
        cols = min_cols
    r, _ = _diag_idx(rows, cols, k)
    if len(r) != n:
        raise _err("MatrixDiagV3", f"The diagonal of length {n} does not fit diagonal {k} of a "
                                   f"{rows}x{cols} matrix (it has {len(r)} entries)")
    pad = d._value.dtype.type(padding_value)
    return apply(_mdiag, (d,), {"k": k, "rows": rows, "cols": cols, "pad": pad})


def diag_part(input: Any, name: Any = None, k: Any = 0, padding_value: Any = 0,  # noqa: A002
              align: str = "RIGHT_LEFT") -> Tensor:
    """Diagonal ``k`` of each matrix (the main diagonal by default).

    >>> import tapegrad as tf
    >>> tf.linalg.diag_part([[1.0, 2.0], [3.0, 4.0]]).numpy()
    array([1., 4.], dtype=float32)
    """
    x = as_tensor(input)
    _rank_check(x, "MatrixDiagPartV3")
    return apply(_diag_part, (x,), {"k": _k_arg(k, "MatrixDiagPartV3")})


def set_diag(input: Any, diagonal: Any, name: Any = "set_diag", k: Any = 0,  # noqa: A002
             align: str = "RIGHT_LEFT") -> Tensor:
    """Replace diagonal ``k`` of each matrix in ``input`` by ``diagonal``."""
    x, d = binary_operands(input, diagonal, "MatrixSetDiagV3")
    _rank_check(x, "MatrixSetDiagV3")
    k = _k_arg(k, "MatrixSetDiagV3")
    r, _ = _diag_idx(x._value.shape[-2], x._value.shape[-1], k)
    want = x._value.shape[:-2] + (len(r),)
    if d._value.shape != want:
        raise _err("MatrixSetDiagV3", f"diagonal must have shape {list(want)} for input of shape "
                                      f"{list(x._value.shape)} and k={k}, got {list(d._value.shape)}")
    return apply(_set_diag, (x, d), {"k": k})


def trace(x: Any, name: Any = None) -> Tensor:
    """Sum of the main diagonal of each matrix: ``[..., M, N] -> [...]``."""
    return reduce_sum(diag_part(x), axis=-1)


def matrix_transpose(a: Any, name: str = "matrix_transpose", conjugate: bool = False) -> Tensor:
    """Transpose the last two axes (and conjugate when ``conjugate``)."""
    x = as_tensor(a)
    if x._value.ndim < 2:
        raise ValueError(f"matrix_transpose: argument must have rank >= 2, got shape {list(x.shape)}.")
    return _H(x) if conjugate else _T(x)


def adjoint(matrix: Any, name: Any = None) -> Tensor:
    """Conjugate transpose of the last two axes."""
    return matrix_transpose(matrix, conjugate=True)


# --------------------------------------------------------------------------- cross
_cross = defop("Cross", lambda a, b: np.cross(a, b),
               vjp=(lambda g, ans, a, b: apply(_cross, (b, g)), lambda g, ans, a, b: apply(_cross, (g, a))),
               jvp=(lambda t, ans, a, b: apply(_cross, (t, b)), lambda t, ans, a, b: apply(_cross, (a, t))),
               broadcast=True)


def _xp_cross(be: Any, a: Any, b: Any) -> Any:
    xp = be.xp
    a0, a1, a2 = (a[..., i] for i in range(3))
    b0, b1, b2 = (b[..., i] for i in range(3))
    return xp.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)


def cross(a: Any, b: Any, name: Any = None) -> Tensor:
    """Cross product of 3-vectors along the last axis (same shapes)."""
    a, b = binary_operands(a, b, "Cross")
    if a._value.shape != b._value.shape:
        raise _err("Cross", f"Both inputs must be of same shape: {list(a._value.shape)} vs. "
                            f"{list(b._value.shape)}")
    if a._value.ndim < 1 or a._value.shape[-1] != 3:
        raise _err("Cross", f"Inner dimension of the inputs must be 3, got shape {list(a._value.shape)}")
    return apply(_cross, (a, b))


# --------------------------------------------------------------------------- fill_triangular
def _tri_index(n: int, upper: bool) -> np.ndarray:
    """TensorFlow Probability's fill order: position ``[i, j]`` of the matrix takes ``x[idx]``
    (``-1`` outside the triangle). Upper: rows of ``concat([x, x[n:][::-1]])`` reshaped to
    ``n x n`` then ``triu``; lower: ``concat([x[n:], x[::-1]])`` then ``tril``."""
    d = n * (n + 1) // 2
    ar = np.arange(d)
    flat = np.concatenate([ar, ar[n:][::-1]]) if upper else np.concatenate([ar[n:], ar[::-1]])
    m = flat.reshape(n, n)
    keep = np.triu(np.ones((n, n), bool)) if upper else np.tril(np.ones((n, n), bool))
    return np.where(keep, m, -1)


def _fill_fwd(x: np.ndarray, upper: bool) -> np.ndarray:
    d = x.shape[-1]
    n = int(np.sqrt(0.25 + 2.0 * d) - 0.5)
    idx = _tri_index(n, upper)
    xp = np.concatenate([x, np.zeros(x.shape[:-1] + (1,), x.dtype)], -1)
    return xp[..., np.where(idx < 0, d, idx)]


def _fill_inv_fwd(x: np.ndarray, upper: bool) -> np.ndarray:
    n = x.shape[-1]
    idx = _tri_index(n, upper)
    rows, cols = np.nonzero(idx >= 0)
    order = np.argsort(idx[rows, cols])
    return x[..., rows[order], cols[order]]


_fill = defop("FillTriangular", _fill_fwd,
              vjp=(lambda g, ans, x, upper: apply(_fill_inv, (g,), {"upper": upper}),), jvp="linear")
_fill_inv = defop("FillTriangularInverse", _fill_inv_fwd,
                  vjp=(lambda g, ans, x, upper: apply(_fill, (g,), {"upper": upper}),), jvp="linear")
_vmap.register(_fill, _vmap.leading)
_vmap.register(_fill_inv, _vmap.leading)


def _xp_fill(be: Any, x: Any, upper: bool) -> Any:
    xp = be.xp
    d = x.shape[-1]
    n = int(np.sqrt(0.25 + 2.0 * d) - 0.5)
    idx = _tri_index(n, upper)
    t = xp.take(x, xp.asarray(np.maximum(idx, 0).reshape(-1)), axis=x.ndim - 1)
    t = xp.reshape(t, tuple(x.shape[:-1]) + (n, n))
    return xp.where(xp.asarray(idx >= 0), t, xp.zeros((), dtype=x.dtype))


def _xp_fill_inv(be: Any, x: Any, upper: bool) -> Any:
    xp = be.xp
    n = x.shape[-1]
    idx = _tri_index(n, upper)
    flat = np.flatnonzero(idx >= 0)
    flat = flat[np.argsort(idx.reshape(-1)[flat])]
    return xp.take(xp.reshape(x, tuple(x.shape[:-2]) + (n * n,)), xp.asarray(flat), axis=x.ndim - 2)


_bk.register(_cross, _xp_cross)
_bk.register(_fill, _xp_fill)
_bk.register(_fill_inv, _xp_fill_inv)


def fill_triangular(x: Any, upper: bool = False, name: Any = None) -> Tensor:
    """A (batch of) triangular ``n x n`` matrices from vectors of length ``n(n+1)/2``, in
    TensorFlow Probability's ``tfp.math.fill_triangular`` order (a clockwise spiral).

    >>> import tapegrad as tf
    >>> tf.linalg.fill_triangular([1, 2, 3, 4, 5, 6]).numpy()
    array([[4, 0, 0],
           [6, 5, 0],
           [3, 2, 1]], dtype=int32)
    >>> tf.linalg.fill_triangular([1, 2, 3, 4, 5, 6], upper=True).numpy()
    array([[1, 2, 3],
           [0, 5, 6],
           [0, 0, 4]], dtype=int32)
    """
    t = as_tensor(x)
    if t._value.ndim < 1:
        raise ValueError("fill_triangular: x must have rank >= 1 (a vector per matrix).")
    d = t._value.shape[-1]
    n = int(np.sqrt(0.25 + 2.0 * d) - 0.5)
    if n * (n + 1) // 2 != d:
        raise ValueError(f"fill_triangular: the last dimension of x ({d}) is not a triangular "
                         "number n(n+1)/2; cannot map it to a triangular matrix.")
    return apply(_fill, (t,), {"upper": bool(upper)})


def fill_triangular_inverse(x: Any, upper: bool = False, name: Any = None) -> Tensor:
    """The inverse of :func:`fill_triangular`: the triangle of each ``n x n`` matrix as a
    vector of length ``n(n+1)/2``.

    >>> import tapegrad as tf
    >>> tf.linalg.fill_triangular_inverse([[4, 0, 0], [6, 5, 0], [3, 2, 1]]).numpy()
    array([1, 2, 3, 4, 5, 6], dtype=int32)
    """
    t = as_tensor(x)
    if t._value.ndim < 2 or t._value.shape[-1] != t._value.shape[-2]:
        raise ValueError(f"fill_triangular_inverse: x must be a (batch of) square matrices, got "
                         f"shape {list(t._value.shape)}.")
    return apply(_fill_inv, (t,), {"upper": bool(upper)})


# --------------------------------------------------------------------------- norms and clipping
def _scalar_int_axis(a: Any) -> bool:
    return isinstance(a, (int, np.integer)) and not isinstance(a, bool)


@constant_maker
def norm(tensor: Any, ord: Any = "euclidean", axis: Any = None, keepdims: Any = None,  # noqa: A002
         name: Any = None) -> Tensor:
    """Vector or matrix norm.

    ``axis`` None (all entries as one vector) or an int gives a vector norm: ``ord`` is
    ``'euclidean'``, 1, 2, ``np.inf`` or any real ``p > 0``. A pair of axes gives a matrix norm:
    ``'fro'``/``'euclidean'`` (Frobenius), 1 (max column sum), ``np.inf`` (max row sum) or 2
    (largest singular value, through :func:`tapegrad.linalg.svd`). As in TensorFlow, the
    gradient of a Euclidean or p-norm at the zero vector is NaN (``sqrt``'s infinite slope times
    zero); use :func:`clip_by_norm` or add a small constant inside when that matters. Ties in the
    1- and inf-norms share the gradient.

    >>> import tapegrad as tf
    >>> float(tf.norm(tf.constant([3.0, 4.0])))
    5.0
    """
    kd = bool(keepdims)
    is_matrix = isinstance(axis, (list, tuple)) and len(axis) == 2
    if is_matrix:
        if not all(_scalar_int_axis(a) for a in axis) or axis[0] == axis[1]:
            raise ValueError(f"norm: 'axis' must be None, an integer, or a tuple of 2 unique "
                             f"integers, got {axis!r}.")
        if not _is_one_of(ord, ("euclidean", "fro", 1, 2, np.inf)):
            raise ValueError(f"norm: 'ord' must be a supported matrix norm in ['euclidean', "
                             f"'fro', 1, 2, inf], got {ord!r}.")
    else:
        if not (axis is None or _scalar_int_axis(axis)):
            raise ValueError(f"norm: 'axis' must be None, an integer, or a tuple of 2 unique "
                             f"integers, got {axis!r}.")
        if not (_is_one_of(ord, ("euclidean", 1, 2, np.inf)) or (
                isinstance(ord, numbers.Real) and not isinstance(ord, bool) and ord > 0)):
            raise ValueError(f"norm: 'ord' must be a supported vector norm ('euclidean', 1, 2, "
                             f"np.inf or a real p > 0), got {ord!r}.")
    x = as_tensor(tensor)
    _check_kind(x, "fc", "Norm")
    nd = x._value.ndim
    axes = norm_axes(axis, nd, "Norm") if axis is not None else tuple(range(nd))
    if is_matrix and _is_one_of(ord, (2,)):
        r = _matrix_2_norm(x, axes)
    elif _is_one_of(ord, ("euclidean", "fro", 2)):
        r = sqrt(reduce_sum(x * conj(x), axes, keepdims=True))
    elif _is_one_of(ord, (1,)):
        r = reduce_sum(_abs(x), axes[:1] if is_matrix else axes, keepdims=True)
        if is_matrix:
            r = reduce_max(r, axes[1], keepdims=True)
    elif _is_one_of(ord, (np.inf,)):
        r = _abs(x)
        if is_matrix:
            r = reduce_sum(r, axes[1], keepdims=True)
        r = reduce_max(r, axes[:1] if is_matrix else axes, keepdims=True)
    else:
        a = _abs(x)
        p = a._value.dtype.type(ord)
        r = _pow(reduce_sum(_pow(a, p), axes, keepdims=True), a._value.dtype.type(1) / p)
    if not kd:
        r = reshape(r, [d for i, d in enumerate(r._value.shape) if i not in axes])
    return r


def _is_one_of(v: Any, options: tuple) -> bool:
    for o in options:
        if isinstance(o, str):
            if isinstance(v, str) and v == o:
                return True
        elif not isinstance(v, (str, bool)) and isinstance(v, numbers.Real) and v == o:
            return True
    return False


def _matrix_2_norm(x: Tensor, axes: tuple) -> Tensor:
    from .decompositions import svd
    nd = x._value.ndim
    rest = [i for i in range(nd) if i not in axes]
    perm = rest + list(axes)
    s = svd(transpose(x, perm), compute_uv=False)
    r = reduce_max(_abs(s), -1, keepdims=True)
    r = reshape(r, r._value.shape + (1,))
    return transpose(r, list(np.argsort(perm)))


def global_norm(t_list: Any, name: Any = None) -> Tensor:
    """``sqrt(Σ sum(t ** 2))`` over the tensors in ``t_list`` (None entries are skipped).

    >>> import tapegrad as tf
    >>> float(tf.linalg.global_norm([tf.constant([3.0]), None, tf.constant([4.0])]))
    5.0
    """
    vals = _norm_list(t_list, "global_norm")
    sq = [reduce_sum(v * v) for v in vals if v is not None]
    if not sq:
        return _wrap(np.float32(0))
    return sqrt(reduce_sum(stack(sq)))


# --------------------------------------------------------------------------- einsum / tensordot
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _einsum_fwd(*xs: np.ndarray, ins: tuple, out: str) -> np.ndarray:
    r = np.einsum(",".join(ins) + "->" + out, *xs, optimize=len(xs) > 2)
    return np.asarray(r, dtype=np.result_type(*xs))


def _fresh(used: set, n: int) -> list:
    free = [c for c in _LETTERS if c not in used]
    if len(free) < n:
        raise ValueError(f"einsum: the equation uses too many labels (at most {len(_LETTERS)} "
                         "distinct axes, ellipsis and batch axes included).")
    return free[:n]


@constant_maker
def _einsum_vjp(g: Tensor, ans: Tensor, needs: Any, *xs: Tensor, ins: tuple, out: str) -> list:
    used = set("".join(ins)) | set(out)
    batch = "".join(_fresh(used, _lead(g, ans)))
    used |= set(batch)
    sizes = {c: d for s, x in zip(ins, xs) for c, d in zip(s, x._value.shape)}
    dt = g._value.dtype
    res = []
    for i in needs:
        ops = [g] + [conj(x) for j, x in enumerate(xs) if j != i]
        subs = [batch + out] + [s for j, s in enumerate(ins) if j != i]
        have = set("".join(subs))
        target = ""
        seen: set = set()
        for c in ins[i]:
            if c in seen:  # a repeated label (a diagonal): a fresh label tied to c by an identity
                f = _fresh(used, 1)[0]
                used.add(f)
                ops.append(_wrap(np.eye(sizes[c], dtype=dt)))
                subs.append(c + f)
                target += f
                continue
            seen.add(c)
            target += c
            if c not in have:  # summed over in this operand only: the cotangent is constant along it
                ops.append(_wrap(np.ones(sizes[c], dtype=dt)))
                subs.append(c)
                have.add(c)
        res.append(apply(_einsum, ops, {"ins": tuple(subs), "out": batch + target}))
    return res


def _einsum_jvp(ts: Any, ans: Tensor, *xs: Tensor, ins: tuple, out: str) -> Tensor:
    r = None
    for i, t in enumerate(ts):
        if t is not None:
            term = apply(_einsum, [t if j == i else x for j, x in enumerate(xs)], {"ins": ins, "out": out})
            r = term if r is None else r + term
    return r


# jointly: variadic (inputs are *xs); the VJP shares the label bookkeeping across inputs
_einsum = defop("Einsum", _einsum_fwd, vjp=jointly(_einsum_vjp), jvp=jointly(_einsum_jvp))
def _einsum_rule(op: Any, n: int, xs: list, bat: tuple, p: dict) -> Any:
    used = set("".join(p["ins"]) + p["out"])
    c = next(ch for ch in "zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQPONMLKJIHGFEDCBA" if ch not in used)
    ins = tuple(c + s if b else s for s, b in zip(p["ins"], bat))
    return apply(op, xs, {"ins": ins, "out": c + p["out"]})


_vmap.register(_einsum, _einsum_rule)


def _xp_einsum(be: Any, *xs: Any, ins: tuple, out: str) -> Any:
    """Einsum with the namespace's ops: each operand's diagonals taken and its own labels summed,
    then the operands contracted left to right, each pair as one batched ``matmul``."""
    if be.numpy_api:
        return be.module.einsum(",".join(ins) + "->" + out, *xs)
    xp = be.xp
    if not hasattr(xp, "linalg") or any(xp.isdtype(x.dtype, "bool") for x in xs):
        return NotImplemented
    dt = be.dtype(np.result_type(*(be.np_dtype(x.dtype) for x in xs)))
    ops = []
    for k, (x, sub) in enumerate(zip(xs, ins)):
        x = xp.astype(x, dt)
        for c in sorted(set(sub), key=sub.index):
            while sub.count(c) > 1:  # a repeated label: the diagonal of its first two axes, put last
                i, j = sub.index(c), sub.index(c, sub.index(c) + 1)
                rest = [a for a in range(len(sub)) if a not in (i, j)]
                x = xp.linalg.diagonal(xp.permute_dims(x, tuple(rest) + (i, j)))
                sub = "".join(sub[a] for a in rest) + c
        later = out + "".join(ins[k + 1:]) + "".join(s for s, _ in ops)
        x, sub = _sum_labels(xp, x, sub, later)
        ops.append((sub, x))
    sub, x = ops[0]
    for k, (sb, b) in enumerate(ops[1:], 1):
        x, sub = _contract(xp, x, sub, b, sb, out + "".join(s for s, _ in ops[k + 1:]))
    return xp.permute_dims(x, tuple(sub.index(c) for c in out))


def _sum_labels(xp: Any, x: Any, sub: str, keep: str) -> tuple:
    """``x`` summed over the labels of ``sub`` not in ``keep``."""
    axes = tuple(i for i, c in enumerate(sub) if c not in keep)
    if not axes:
        return x, sub
    return xp.sum(x, axis=axes, dtype=x.dtype), "".join(c for c in sub if c in keep)


def _contract(xp: Any, a: Any, sa: str, b: Any, sb: str, keep: str) -> tuple:
    """The product of ``a`` and ``b`` summed over their shared labels not in ``keep`` (every
    other label of theirs is in ``keep``)."""
    batch = [c for c in sa if c in sb and c in keep]
    summed = [c for c in sa if c in sb and c not in keep]
    ao = [c for c in sa if c not in sb]
    bo = [c for c in sb if c not in sa]
    size = {**dict(zip(sa, a.shape)), **dict(zip(sb, b.shape))}
    n = [int(np.prod([size[c] for c in cs])) for cs in (batch, ao, summed, bo)]
    a = xp.reshape(xp.permute_dims(a, tuple(sa.index(c) for c in batch + ao + summed)), (n[0], n[1], n[2]))
    b = xp.reshape(xp.permute_dims(b, tuple(sb.index(c) for c in batch + summed + bo)), (n[0], n[2], n[3]))
    labels = batch + ao + bo
    return xp.reshape(xp.matmul(a, b), tuple(size[c] for c in labels)), "".join(labels)


_bk.register(_einsum, _xp_einsum)


def _parse_term(term: str, k: int) -> tuple[list, bool]:
    """A subscript term as a list of labels, with ``"..."`` as one item where the ellipsis is."""
    if term.count("...") > 1 or "." in term.replace("...", ""):
        raise ValueError(f"einsum: subscripts {term!r} of operand {k} have a '.' that is not part "
                         "of a single ellipsis ('...').")
    labels: list = []
    for part_i, part in enumerate(term.split("...")):
        if part_i:
            labels.append("...")
        for c in part:
            if c not in _LETTERS:
                raise ValueError(f"einsum: invalid subscript {c!r} in {term!r}; use letters a-z, "
                                 "A-Z and '...'.")
            labels.append(c)
    return labels, "..." in labels


def _parse_einsum(equation: str, shapes: list, clash_ok: bool = False) -> tuple[tuple, str]:
    """Explicit labels for every axis: the ellipsis becomes letters (broadcast right-aligned;
    an axis of size 1 broadcast against a longer one gets a label of its own). ``clash_ok``: a
    label's sizes may differ (stand-ins: see :func:`einsum`)."""
    eq = equation.replace(" ", "")
    if eq.count("->") > 1:
        raise ValueError(f"einsum: equation {equation!r} has more than one '->'.")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"einsum: got {len(shapes)} inputs for equation {equation!r}, "
                         f"expecting {len(terms)}.")
    parsed = [_parse_term(t, k) for k, t in enumerate(terms)]
    user = {c for labels, _ in parsed for c in labels if c != "..."}
    used = set(user) | {c for c in rhs if c in _LETTERS}
    ell_ranks = []
    for k, ((labels, has_ell), s) in enumerate(zip(parsed, shapes)):
        n = len(labels) - has_ell
        if (has_ell and len(s) < n) or (not has_ell and len(s) != n):
            raise InvalidArgumentError(f"einsum: expected input {k} to have rank "
                                       f"{n}{' or more' if has_ell else ''} for subscripts "
                                       f"{terms[k]!r} but got shape {list(s)} [Op:Einsum]")
        ell_ranks.append(len(s) - n if has_ell else 0)
    E = max(ell_ranks, default=0)
    ell = _fresh(used, E)
    used |= set(ell)
    ell_size = [1] * E
    for (labels, has_ell), s, r in zip(parsed, shapes, ell_ranks):
        if has_ell:
            p = labels.index("...")
            for j, d in enumerate(s[p:p + r]):
                pos = E - r + j
                if d != 1:
                    if ell_size[pos] not in (1, d):
                        raise InvalidArgumentError(f"einsum: broadcast dimensions "
                                                   f"{ell_size[pos]} and {d} do not match "
                                                   f"(shapes {[list(q) for q in shapes]}) [Op:Einsum]")
                    ell_size[pos] = d
    ins = []
    for (labels, has_ell), s, r in zip(parsed, shapes, ell_ranks):
        sub = ""
        for c in labels:
            if c != "...":
                sub += c
                continue
            p = len(sub)
            for j in range(r):
                pos = E - r + j
                if s[p + j] == 1 and ell_size[pos] != 1:
                    f = _fresh(used, 1)[0]
                    used.add(f)
                    sub += f
                else:
                    sub += ell[pos]
        ins.append(sub)
    if arrow:
        out_labels, out_ell = _parse_term(rhs, -1)
        for c in out_labels:
            if c != "..." and c not in user:
                raise ValueError(f"einsum: output subscripts contain the label {c!r} not present "
                                 "in the input subscripts.")
            if c != "..." and out_labels.count(c) > 1:
                raise ValueError(f"einsum: output subscripts contain the label {c!r} twice.")
        if E and not out_ell:
            raise ValueError("einsum: the inputs have ellipsis ('...') axes, so the output "
                             "subscripts need a '...' too.")
        out = "".join("".join(ell) if c == "..." else c for c in out_labels)
    else:
        counts: dict = {}
        for labels, _ in parsed:
            for c in labels:
                if c != "...":
                    counts[c] = counts.get(c, 0) + 1
        out = "".join(ell) + "".join(sorted(c for c, k in counts.items() if k == 1))
    sizes: dict = {}
    for k, (sub, s) in enumerate(zip(ins, shapes)):
        for c, d in zip(sub, s):
            if sizes.setdefault(c, d) != d and not clash_ok:
                raise InvalidArgumentError(f"einsum: label {c!r} has dimension "
                                           f"{sizes[c]} in one place and {d} in input {k} (shape "
                                           f"{list(s)}); they must be equal [Op:Einsum]")
    return tuple(ins), out


def einsum(equation: str, *inputs: Any, **kwargs: Any) -> Tensor:
    """Einstein summation, with NumPy's equation syntax: explicit (``'ij,jk->ik'``) or implicit
    (``'ij,jk'``), ``...`` for broadcast axes, and repeated labels in one operand for diagonals
    and traces (``'ii->'``, ``'ii->i'``).

    The gradient with respect to each operand is another einsum.

    >>> import tapegrad as tf
    >>> a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> float(tf.einsum('ii', a)), tf.einsum('ij,jk->ik', a, a).numpy()[0]
    (5.0, array([ 7., 10.], dtype=float32))
    """
    kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"einsum: unexpected keyword arguments {sorted(kwargs)}.")
    if not isinstance(equation, str):
        raise TypeError(f"einsum: the equation must be a string, got {type(equation).__name__}.")
    if not inputs:
        raise ValueError("einsum: no input tensors given.")
    xs = [as_tensor(x) for x in inputs]
    for i, t in enumerate(xs[1:], 1):
        if t._value.dtype != xs[0]._value.dtype:
            raise _err("Einsum", f"all inputs must have one dtype: inputs[0] is {xs[0].dtype.name} "
                                 f"but inputs[{i}] is {t.dtype.name}; cast with tf.cast")
    _check_kind(xs[0], "fciu", "Einsum")
    try:
        ins, out = _parse_einsum(equation, [x._value.shape for x in xs])
    except InvalidArgumentError:
        if not _rec.standing_in():
            raise
        # (Keras's functional construction: a label's sizes clash, one a stand-in for TF's
        # unknown dim, which takes the known one: zeros with each label its largest size)
        ins, out = _parse_einsum(equation, [x._value.shape for x in xs], clash_ok=True)
        sizes: dict = {}
        for sub, x in zip(ins, xs):
            for c, d in zip(sub, x._value.shape):
                sizes[c] = builtins.max(sizes.get(c, d), d)
        xs = [zeros([sizes[c] for c in sub], x.dtype) for sub, x in zip(ins, xs)]
    return apply(_einsum, xs, {"ins": ins, "out": out})


def tensordot(a: Any, b: Any, axes: Any, name: Any = None) -> Tensor:
    """Sum the products of ``a`` and ``b`` over the given axes.

    ``axes`` is an int ``n`` (the last ``n`` axes of ``a`` with the first ``n`` of ``b``) or a
    pair ``[a_axes, b_axes]`` of equal-length lists (or ints). The result has ``a``'s free axes
    followed by ``b``'s.

    >>> import tapegrad as tf
    >>> float(tf.tensordot(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]), 1))
    11.0
    """
    x, y = binary_operands(a, b, "Tensordot")
    na, nb = x._value.ndim, y._value.ndim
    if isinstance(axes, Tensor):
        axes = host_value(axes, "tensordot: axes").tolist()
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n < 0:
            raise ValueError(f"tensordot: axes must be at least 0, got {n}.")
        if n > min(na, nb):
            raise ValueError(f"tensordot: axes={n} is more than the rank of a ({na}) or b ({nb}).")
        ax_a, ax_b = list(range(na - n, na)), list(range(n))
    else:
        if not isinstance(axes, (list, tuple, np.ndarray)) or len(axes) != 2:
            raise ValueError(f"tensordot: axes must be an int or a pair [a_axes, b_axes], got {axes!r}.")
        ax_a = [axes[0]] if isinstance(axes[0], (int, np.integer)) else list(axes[0])
        ax_b = [axes[1]] if isinstance(axes[1], (int, np.integer)) else list(axes[1])
        if len(ax_a) != len(ax_b):
            raise ValueError(f"tensordot: different number of contraction axes for a and b, "
                             f"{len(ax_a)} != {len(ax_b)}.")
        ax_a = [norm_axis(i, na, "Tensordot") for i in ax_a]
        ax_b = [norm_axis(i, nb, "Tensordot") for i in ax_b]
        if len(set(ax_a)) != len(ax_a) or len(set(ax_b)) != len(ax_b):
            raise ValueError(f"tensordot: an axis is contracted twice in {axes!r}.")
    sa, sb = x._value.shape, y._value.shape
    for i, j in zip(ax_a, ax_b):
        if sa[i] != sb[j]:
            raise _err("Tensordot", f"a's axis {i} has size {sa[i]} but b's axis {j} has size "
                                    f"{sb[j]} (shapes {list(sa)} and {list(sb)})")
    # As TF: a's free axes then the contracted ones, b's contracted then free, as two matrices
    # multiplied by one matmul (its rounding: rgb_to_yuv's 3-term sums are TF's to the last bit)
    free_a = [i for i in range(na) if i not in ax_a]
    free_b = [j for j in range(nb) if j not in ax_b]
    k = int(np.prod([sa[i] for i in ax_a], dtype=np.int64))
    if free_a + ax_a != list(range(na)):
        x = transpose(x, free_a + ax_a)
    if ax_b + free_b != list(range(nb)):
        y = transpose(y, ax_b + free_b)
    m = matmul(reshape(x, [-1 if k else int(np.prod([sa[i] for i in free_a], dtype=np.int64)), k]),
               reshape(y, [k, int(np.prod([sb[j] for j in free_b], dtype=np.int64))]))
    return reshape(m, [sa[i] for i in free_a] + [sb[j] for j in free_b])


def tensor_diag(diagonal: Any, name: Any = None) -> Tensor:
    """The tensor of shape ``diagonal.shape * 2`` with ``out[i..., i...] = diagonal[i...]`` and
    zeros elsewhere.

    >>> import tapegrad as tf
    >>> tf.linalg.tensor_diag(tf.constant([1, 2])).numpy()
    array([[1, 0],
           [0, 2]], dtype=int32)
    """
    d = as_tensor(diagonal)
    shape = list(d._value.shape)
    return reshape(matrix_diag(reshape(d, [-1])), shape + shape)


def tensor_diag_part(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """The inverse of :func:`tensor_diag`: ``out[i...] = input[i..., i...]`` for an input of shape
    ``s + s``.

    >>> import tapegrad as tf
    >>> tf.linalg.tensor_diag_part(tf.constant([[1, 7], [8, 2]])).numpy()
    array([1, 2], dtype=int32)
    """
    x = as_tensor(input)
    nd = x._value.ndim
    half = list(x._value.shape[:nd // 2])
    if nd % 2 or half != list(x._value.shape[nd // 2:]):
        raise InvalidArgumentError(f"tensor_diag_part: the input's shape must be s + s, got "
                                   f"{list(x._value.shape)}.")
    n = int(np.prod(half, dtype=np.int64))
    return reshape(diag_part(reshape(x, [n, n])), half)


def normalize(tensor: Any, ord: Any = "euclidean", axis: Any = None, name: Any = None) -> tuple:  # noqa: A002
    """``(tensor / norm, norm)``, the norm as :func:`norm` with ``keepdims=True``.

    >>> import tapegrad as tf
    >>> x, n = tf.linalg.normalize(tf.constant([3.0, 4.0]))
    >>> x.numpy(), n.numpy()
    (array([0.6, 0.8], dtype=float32), array([5.], dtype=float32))
    """
    x = as_tensor(tensor)
    n = norm(x, ord=ord, axis=axis, keepdims=True)
    return x / n, n
