"""Reductions over axes: sum, mean, max, min, prod, logsumexp, any, all, std, variance,
Euclidean norm, count_nonzero, argmax and argmin.
"""
from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from .. import _backend as _bk, _vmap, dtypes as _dt
from .._convert import as_tensor, host_value
from .._dispatch import apply, composite_api, defop
from .._tensor import Tensor, constant_maker, wrap as _wrap
from ..errors import InvalidArgumentError
from .array import _lead, broadcast_view, norm_axes, norm_axis, reshape, stop_gradient, transpose
from .math import (_check_kind, abs as _abs, cast, complex_, conj, cumprod, cumsum, equal, exp, log,
                   logical_and, not_equal, ones_like, real, sqrt, square, subtract, where,
                   zeros_like)

__all__ = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
    "reduce_logsumexp", "reduce_any", "reduce_all", "reduce_variance", "reduce_std", "argmax",
    "argmin", "reduce_euclidean_norm", "count_nonzero", "cumulative_logsumexp", "zero_fraction",
    "is_non_decreasing", "is_strictly_increasing"]


def _keep_shape(shape: tuple, axes: tuple) -> tuple:
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


def _expand_back(g: Tensor, ans: Tensor, x: Tensor, axes: tuple) -> Tensor:
    """Reshape a reduced cotangent so it broadcasts against ``x`` (keeping batch axes)."""
    lead = g._value.shape[:_lead(g, ans)]
    return reshape(g, lead + _keep_shape(x._value.shape, axes))


def _sum_vjp(g: Tensor, ans: Tensor, x: Tensor, axes: tuple, keepdims: bool) -> Tensor:
    lead = g._value.shape[:_lead(g, ans)]
    return broadcast_view(_expand_back(g, ans, x, axes), lead + x._value.shape)


def _sum_fwd(x: np.ndarray, axes: tuple, keepdims: bool) -> np.ndarray:
    # integers keep their dtype (NumPy's sum would widen int32 to int64; TF does not)
    # np.add.reduce, not np.sum: an overflow or inf - inf warning must come from this frame, where
    # tapegrad/__init__.py silences it (TF is silent), not from NumPy's fromnumeric.py
    return np.add.reduce(x, axis=axes, keepdims=keepdims, dtype=x.dtype if x.dtype.kind in "iu" else None)


_sum = defop("Sum", _sum_fwd,
             vjp=(_sum_vjp,), jvp="linear")
_vmap.register(_sum, _vmap.axes("axes"))
_bk.register(_sum, lambda be, x, axes, keepdims: be.xp.sum(x, axis=axes, keepdims=keepdims, dtype=x.dtype))


_BLOCK = 32


def _blocked_sum(x: np.ndarray, axes: tuple, n: int) -> np.ndarray:
    """The float64 sum of float32 ``x`` over ``axes`` (not the last ones), 32 rows at a time:
    NumPy adds along leading axes one row at a time in float32 (pairwise summation only runs
    along the last axes) and loses digits that TF's blocked reduction keeps (a mean of gradients
    that nearly cancel, as in Grad-CAM, was off by 2e-4). Each block is summed in float32 and
    the blocks in float64, which costs about what NumPy's own reduction does."""
    kept = [a for a in range(x.ndim) if a not in axes]
    rows = np.transpose(x, list(axes) + kept).reshape(n, -1)
    cut = n - n % _BLOCK
    r = np.add.reduce(np.add.reduce(rows[:cut].reshape(cut // _BLOCK, _BLOCK, -1), axis=1),
                      axis=0, dtype=np.float64)
    if cut < n:
        r = r + np.add.reduce(rows[cut:], axis=0, dtype=np.float64)
    return r.reshape([x.shape[a] for a in kept])


def _mean_fwd(x: np.ndarray, axes: tuple, keepdims: bool) -> np.ndarray:
    n = math.prod(x.shape[a] for a in axes)
    if x.dtype.kind in "iu":
        return (np.sum(x, axis=axes, keepdims=keepdims) // max(1, n)).astype(x.dtype)
    if not x.size:  # NaN, as TF, without NumPy's "invalid value" warning
        return np.full(np.sum(x, axis=axes, keepdims=keepdims).shape, np.nan, x.dtype)
    if x.dtype == np.float32 and n > _BLOCK and axes != tuple(range(x.ndim - len(axes), x.ndim)):
        r = _blocked_sum(x, axes, n) / n
        return (r.reshape(_keep_shape(x.shape, axes)) if keepdims else r).astype(np.float32)
    # np.mean's own steps, called from here so that its warnings are silenced (see _sum_fwd)
    r = np.add.reduce(x, axis=axes, keepdims=keepdims, dtype=np.float32 if x.dtype == np.float16 else None)
    return np.true_divide(r, n).astype(x.dtype, copy=False)


def _count(x: Tensor, axes: tuple) -> int:
    return int(np.prod([x._value.shape[a] for a in axes], dtype=np.int64))


_mean = defop("Mean", _mean_fwd,
              vjp=(constant_maker(lambda g, ans, x, axes, keepdims:
                   _sum_vjp(g, ans, x, axes, keepdims) / x._value.dtype.type(max(_count(x, axes), 1))),),
              jvp="linear")
_vmap.register(_mean, _vmap.axes("axes"))
_bk.register(_mean, lambda be, x, axes, keepdims: be.xp.mean(x, axis=axes, keepdims=keepdims))


def _minmax_vjp(g: Tensor, ans: Tensor, x: Tensor, axes: tuple, keepdims: bool) -> Tensor:
    # ties share the gradient equally (TensorFlow's rule)
    y = reshape(ans, _keep_shape(x._value.shape, axes))
    ind = cast(equal(y, x), x.dtype)
    num = reduce_sum(ind, axis=list(axes), keepdims=True)
    return _expand_back(g, ans, x, axes) * (ind / num)


def _minmax_jvp(t: Any, ans: Tensor, x: Tensor, axes: tuple, keepdims: bool) -> Tensor:
    if not x._value.size:
        return zeros_like(ans)
    y = reshape(ans, _keep_shape(x._value.shape, axes))
    ind = cast(equal(y, x), x.dtype)
    num = reduce_sum(ind, axis=list(axes), keepdims=keepdims)
    return reduce_sum(t * ind, axis=list(axes), keepdims=keepdims) / num


def _extreme_fwd(fn: Any, sign: int) -> Any:
    # an empty input reduces to the lowest (max) or highest (min) value of its dtype, on the tape
    # (its gradient is an empty tensor, as in TensorFlow, not None)
    def fwd(x: np.ndarray, axes: tuple, keepdims: bool) -> np.ndarray:
        if x.size:
            return fn(x, axis=axes, keepdims=keepdims)
        fill = sign * np.inf if x.dtype.kind == "f" else \
            (np.iinfo(x.dtype).max if sign > 0 else np.iinfo(x.dtype).min)
        return np.full(np.sum(x, axis=axes, keepdims=keepdims).shape, fill, x.dtype)
    return fwd


_max = defop("Max", _extreme_fwd(np.max, -1), vjp=(_minmax_vjp,), jvp=(_minmax_jvp,))
_min = defop("Min", _extreme_fwd(np.min, 1), vjp=(_minmax_vjp,), jvp=(_minmax_jvp,))
_vmap.register(_max, _vmap.axes("axes"))
_vmap.register(_min, _vmap.axes("axes"))
_bk.register(_max, lambda be, x, axes, keepdims: be.xp.max(x, axis=axes, keepdims=keepdims))
_bk.register(_min, lambda be, x, axes, keepdims: be.xp.min(x, axis=axes, keepdims=keepdims))


def _prod_others(x: Tensor, axes: tuple) -> Tensor:
    """∏ of the other elements in each reduced group, exact when some are zero."""
    nd = x._value.ndim
    keep = [i for i in range(nd) if i not in axes]
    perm = keep + list(axes)
    xt = transpose(x, perm) if perm != list(range(nd)) else x
    kshape = tuple(x._value.shape[i] for i in keep)
    flat = reshape(xt, kshape + (int(np.prod([x._value.shape[a] for a in axes], dtype=np.int64)),))
    left = cumprod(flat, axis=-1, exclusive=True)
    right = cumprod(flat, axis=-1, exclusive=True, reverse=True)
    others = reshape(left * right, xt._value.shape)
    inv = list(np.argsort(perm))
    return transpose(others, inv) if perm != list(range(nd)) else others


def _prod_vjp(g: Tensor, ans: Tensor, x: Tensor, axes: tuple, keepdims: bool) -> Tensor:
    return _expand_back(g, ans, x, axes) * conj(_prod_others(x, axes))


_prod = defop("Prod", lambda x, axes, keepdims: np.prod(x, axis=axes, keepdims=keepdims,
                                                         dtype=x.dtype if x.dtype.kind in "iu" else None),
              vjp=(_prod_vjp,),
              jvp=(lambda t, ans, x, axes, keepdims: reduce_sum(t * _prod_others(x, axes), axis=list(axes), keepdims=keepdims),))
_vmap.register(_prod, _vmap.axes("axes"))
_bk.register(_prod, lambda be, x, axes, keepdims: be.xp.prod(x, axis=axes, keepdims=keepdims, dtype=x.dtype))


def _lse_shift(x: np.ndarray, axes: tuple) -> np.ndarray:
    """The max over ``axes`` (kept), 0 where it is not finite or ``x`` is empty (TF's shift)."""
    if not x.size:
        return np.zeros(_keep_shape(x.shape, axes), x.dtype)
    m = np.max(x, axis=axes, keepdims=True)
    return np.where(np.isfinite(m), m, np.zeros((), x.dtype))


_lse_max = defop("LogSumExpShift", _lse_shift, nondiff=True)
_vmap.register(_lse_max, _vmap.axes("axes"))


def _lse_shift_form(be: Any, x: Any, axes: tuple) -> Any:
    xp = be.xp
    m = xp.max(x, axis=axes, keepdims=True)
    return xp.where(xp.isfinite(m), m, xp.zeros_like(m))


_bk.register(_lse_max, _lse_shift_form)


def _lse_fwd(x: np.ndarray, axes: tuple, keepdims: bool) -> np.ndarray:
    m = _lse_shift(x, axes)
    r = np.log(np.sum(np.exp(x - m), axis=axes, keepdims=True)) + m
    return (r if keepdims else np.squeeze(r, axis=axes)).astype(x.dtype, copy=False)


def _lse_softmax(x: Tensor, axes: tuple) -> Tensor:
    # exp(x - lse) loses all accuracy where |x| is large (lse is rounded to x's precision):
    # normalise exp(x - max) instead, with the max a constant (the softmax does not depend on it)
    e = exp(x - apply(_lse_max, (x,), {"axes": axes}))
    return e / reduce_sum(e, axis=list(axes), keepdims=True)


def _lse_vjp(g: Tensor, ans: Tensor, x: Tensor, axes: tuple, keepdims: bool) -> Tensor:
    return _expand_back(g, ans, x, axes) * _lse_softmax(x, axes)


_lse = defop("LogSumExp", _lse_fwd, vjp=(_lse_vjp,),
             jvp=(lambda t, ans, x, axes, keepdims: reduce_sum(
                 t * _lse_softmax(x, axes), axis=list(axes), keepdims=keepdims),))
_vmap.register(_lse, _vmap.axes("axes"))


def _lse_form(be: Any, x: Any, axes: tuple, keepdims: bool) -> Any:
    xp = be.xp
    m = _lse_shift_form(be, x, axes)
    r = xp.log(xp.sum(xp.exp(x - m), axis=axes, keepdims=True)) + m
    return r if keepdims else xp.squeeze(r, axis=axes)


_bk.register(_lse, _lse_form)


def _reduce(op: Any, input_tensor: Any, axis: Any, keepdims: bool, kinds: str = "fciu") -> Tensor:
    x = as_tensor(input_tensor)
    if x._value.dtype.kind not in kinds:
        _check_kind(x, kinds, op.name)
    axes = norm_axes(axis, x._value.ndim, op.name)
    return apply(op, (x,), {"axes": axes, "keepdims": bool(keepdims)})


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def reduce_sum(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: Any = None) -> Tensor:
    """Sum over ``axis`` (all axes when None).

    >>> import tapegrad as tf
    >>> tf.reduce_sum(tf.constant([[1, 2], [3, 4]]), axis=0).numpy()
    array([4, 6], dtype=int32)
    """
    x = as_tensor(input_tensor)
    if x._value.dtype.kind == "b":
        x = cast(x, _dt.int32)
    return _reduce(_sum, x, axis, keepdims)


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def reduce_mean(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: Any = None) -> Tensor:
    """Mean over ``axis``; integer inputs give an integer (truncated) mean, as in TensorFlow."""
    return _reduce(_mean, input_tensor, axis, keepdims)


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def reduce_max(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: Any = None) -> Tensor:
    """Maximum over ``axis``. Tied maxima share the gradient equally."""
    return _reduce(_max, input_tensor, axis, keepdims, "fiu")


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def reduce_min(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: Any = None) -> Tensor:
    """Minimum over ``axis``. Tied minima share the gradient equally."""
    return _reduce(_min, input_tensor, axis, keepdims, "fiu")


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def reduce_prod(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: Any = None) -> Tensor:
    """Product over ``axis``; the gradient is exact when inputs contain zeros."""
    return _reduce(_prod, input_tensor, axis, keepdims)


def reduce_logsumexp(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: Any = None) -> Tensor:
    """``log(Σ exp(x))`` over ``axis``, computed without overflow."""
    return _reduce(_lse, input_tensor, axis, keepdims, "f")


_any = defop("Any", lambda x, axes, keepdims: np.any(x, axis=axes, keepdims=keepdims), nondiff=True)
_all = defop("All", lambda x, axes, keepdims: np.all(x, axis=axes, keepdims=keepdims), nondiff=True)
_vmap.register(_any, _vmap.axes("axes"))
_vmap.register(_all, _vmap.axes("axes"))
_bk.register(_any, lambda be, x, axes, keepdims: be.xp.any(x, axis=axes, keepdims=keepdims))
_bk.register(_all, lambda be, x, axes, keepdims: be.xp.all(x, axis=axes, keepdims=keepdims))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def reduce_any(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: Any = None) -> Tensor:
    """Logical or over ``axis`` (bool input)."""
    return _reduce(_any, input_tensor, axis, keepdims, "b")


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def reduce_all(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: Any = None) -> Tensor:
    """Logical and over ``axis`` (bool input)."""
    return _reduce(_all, input_tensor, axis, keepdims, "b")


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def reduce_variance(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: Any = None) -> Tensor:
    """Population variance over ``axis`` (floating or complex input; complex gives a real result)."""
    x = as_tensor(input_tensor)
    _check_kind(x, "fc", "reduce_variance")
    m = reduce_mean(x, axis=axis, keepdims=True)
    d = subtract(x, m)
    sq = square(_abs(d)) if x._value.dtype.kind == "c" else square(d)
    return reduce_mean(sq, axis=axis, keepdims=keepdims)


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def reduce_std(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: Any = None) -> Tensor:
    """Population standard deviation over ``axis``."""
    return sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


def _arg_fwd(fn: Any, nan_skipping: Any) -> Any:
    """TensorFlow's ArgMax/ArgMin skip NaN (all NaN: index 0); NumPy's stop at the first NaN, so
    an input holding NaN is redone: the first index of the NaN-skipping extreme. (The NaN test
    is one reduction, about half the time of the argmax itself.)"""
    def fwd(x: np.ndarray, axis: int, out: Any) -> np.ndarray:
        if x.dtype.kind == "f" and x.size and np.isnan(np.minimum.reduce(x, axis=None)):
            return np.argmax(x == nan_skipping.reduce(x, axis=axis, keepdims=True), axis=axis).astype(out)
        return fn(x, axis=axis).astype(out)
    return fwd


def _arg_form(be: Any, x: Any, axis: int, out: np.dtype, high: bool) -> Any:
    """TF's ArgMax/ArgMin: NaN skipped (an all-NaN slice gives 0)."""
    xp = be.xp
    if xp.isdtype(x.dtype, "real floating"):
        x = xp.where(xp.isnan(x), xp.asarray(-math.inf if high else math.inf, dtype=x.dtype), x)
    return xp.astype((xp.argmax if high else xp.argmin)(x, axis=axis), be.dtype(out))


def _arg(fn: Any, nan_skipping: Any, name: str) -> Any:
    op = defop(name, _arg_fwd(fn, nan_skipping), nondiff=True)
    _vmap.register(op, _vmap.one_axis("axis"))
    high = name == "ArgMax"
    _bk.register(op, lambda be, x, axis, out: _arg_form(be, x, axis, out, high))

    def f(input: Any, axis: Any = None, output_type: Any = _dt.int64, name: Any = None) -> Tensor:  # noqa: A002
        x = as_tensor(input)
        if x._value.dtype.kind == "O":
            raise InvalidArgumentError(f"{op.name} does not accept a string tensor. [Op:{op.name}]")
        if x._value.ndim == 0:
            raise ValueError(f"{op.name}: the input is a scalar; it needs at least one axis.")
        a = norm_axis(0 if axis is None else axis, x._value.ndim, op.name)
        if x._value.shape[a] == 0:
            raise InvalidArgumentError(f"Reduction axis {a} is empty in shape "
                                       f"{list(x._value.shape)} [Op:{op.name}]")
        return apply(op, (x,), {"axis": a, "out": _dt.as_dtype(output_type)._np})
    f.__name__ = name.lower()
    f.__doc__ = (f"Index of the {'largest' if 'Max' in name else 'smallest'} value along ``axis`` "
                 "(0 when None), as int64 by default (no gradient). The first one wins a tie; NaN "
                 "is skipped, and an all-NaN slice gives 0 (TensorFlow's CPU kernel).")
    return f


argmax = _arg(np.argmax, np.fmax, "ArgMax")
argmin = _arg(np.argmin, np.fmin, "ArgMin")


# --------------------------------------------------------------------------- Euclidean norm
def _enorm_fwd(x: np.ndarray, axes: tuple, keepdims: bool) -> np.ndarray:
    if x.dtype.kind == "c":
        s = np.sum((x * np.conj(x)).real, axis=axes, keepdims=keepdims)
        return np.asarray(np.sqrt(s)).astype(x.dtype)
    if x.dtype.kind in "iu":  # integer result, truncated, as TensorFlow
        s = np.sum(x.astype(np.float64) ** 2, axis=axes, keepdims=keepdims)
        return np.asarray(np.floor(np.sqrt(s))).astype(x.dtype)
    return np.asarray(np.sqrt(np.sum(x * x, axis=axes, keepdims=keepdims)), x.dtype)


def _as_c(r: Tensor) -> Tensor:
    return complex_(r, zeros_like(r))


def _enorm_vjp(g: Tensor, ans: Tensor, x: Tensor, axes: tuple, keepdims: bool) -> Tensor:
    # x / |x| * g (NaN where the norm is 0, as in TensorFlow); for complex x the norm is real,
    # so only the real part of g matters
    ge = _expand_back(g, ans, x, axes)
    if x._value.dtype.kind == "c":
        ge = _as_c(real(ge))
    return x * ge / reshape(ans, _keep_shape(x._value.shape, axes))


def _enorm_jvp(t: Any, ans: Tensor, x: Tensor, axes: tuple, keepdims: bool) -> Tensor:
    inner = real(conj(x) * t) if x._value.dtype.kind == "c" else x * t
    s = reduce_sum(inner, axis=list(axes), keepdims=keepdims)
    return (_as_c(s) if x._value.dtype.kind == "c" else s) / ans


_enorm = defop("EuclideanNorm", _enorm_fwd, vjp=(_enorm_vjp,), jvp=(_enorm_jvp,))
_vmap.register(_enorm, _vmap.axes("axes"))


def _enorm_form(be: Any, x: Any, axes: tuple, keepdims: bool) -> Any:
    xp = be.xp
    if xp.isdtype(x.dtype, "complex floating"):
        return xp.astype(xp.sqrt(xp.sum(xp.real(x * xp.conj(x)), axis=axes, keepdims=keepdims)), x.dtype)
    if not xp.isdtype(x.dtype, "real floating"):
        return NotImplemented
    return xp.sqrt(xp.sum(x * x, axis=axes, keepdims=keepdims))


_bk.register(_enorm, _enorm_form)


def reduce_euclidean_norm(input_tensor: Any, axis: Any = None, keepdims: bool = False,
                          name: Any = None) -> Tensor:
    """``sqrt(Σ |x|²)`` over ``axis`` (all axes when None).

    Integer input gives an integer (truncated) result; complex input a complex tensor with a zero
    imaginary part. The gradient ``x / norm`` is NaN where the norm is 0, as in TensorFlow.

    >>> import tapegrad as tf
    >>> tf.math.reduce_euclidean_norm(tf.constant([[3.0, 4.0], [5.0, 12.0]]), axis=1).numpy()
    array([ 5., 13.], dtype=float32)
    """
    return _reduce(_enorm, input_tensor, axis, keepdims, "fciu")


# --------------------------------------------------------------------------- count_nonzero
def count_nonzero(input: Any, axis: Any = None, keepdims: Any = None, dtype: Any = _dt.int64,  # noqa: A002
                  name: Any = None) -> Tensor:
    """The number of nonzero entries (``True`` for bool input; NaN counts) over ``axis``.

    Returns ``dtype`` (int64 by default); no gradient.

    >>> import tapegrad as tf
    >>> tf.math.count_nonzero(tf.constant([[0.0, 1.0], [2.0, 0.0]]), axis=0).numpy()
    array([1, 1])
    """
    x = as_tensor(input)
    nz = not_equal(x, zeros_like(x))
    n = reduce_sum(cast(nz, _dt.int64), axis=axis, keepdims=bool(keepdims))
    return cast(n, dtype)


def _cumlse_fwd(x: np.ndarray, axis: int, exclusive: bool, reverse: bool) -> np.ndarray:
    y = np.flip(x, axis) if reverse else x
    if exclusive:
        pad = [(0, 0)] * y.ndim
        pad[axis] = (1, 0)
        y = np.pad(y, pad, constant_values=-np.inf)
        y = np.take(y, np.arange(y.shape[axis] - 1), axis=axis)
    out = np.logaddexp.accumulate(y, axis=axis) if y.size else y
    return np.flip(out, axis) if reverse else out


def _cumlse_vjp(g: Tensor, ans: Tensor, x: Tensor, axis: int, exclusive: bool, reverse: bool) -> Tensor:
    # dx_j = Σ_{i after j} g_i exp(x_j - ans_i): positive and negative parts of g, each a
    # cumulative logsumexp running the other way (stable where exp(-ans) would overflow)
    ax = axis + g._value.ndim - ans._value.ndim
    p = dict(axis=ax, exclusive=exclusive, reverse=not reverse)
    out = zeros_like(g * x)
    for sign in (1.0, -1.0):
        part = g * sign > 0
        if reduce_any(part):  # (a value read into Python: a tf.function trace guards it)
            keep = logical_and(part, ans > -np.inf)  # (masked entries: constant -inf, no gradient)
            lg = where(keep, log(where(keep, g * sign, ones_like(g))) - ans, zeros_like(g) - np.inf)
            out = out + sign * exp(apply(_cumlse, (lg,), p) + x)
    return out


def _cumlse_jvp(t: Tensor, ans: Tensor, x: Tensor, axis: int, exclusive: bool, reverse: bool) -> Tensor:
    m = reduce_max(stop_gradient(x), axis=axis, keepdims=True)
    m = where(m > -np.inf, m, zeros_like(m))
    live = ans > -np.inf  # (an output of -inf sums nothing: tangent 0)
    scale = exp(m - where(live, ans, m + zeros_like(ans)))
    return where(live, cumsum(t * exp(x - m), axis, exclusive, reverse) * scale, zeros_like(ans))


_cumlse = defop("CumulativeLogsumexp", _cumlse_fwd, vjp=(_cumlse_vjp,), jvp=(_cumlse_jvp,))
_vmap.register(_cumlse, _vmap.one_axis("axis"))


def _cumlse_form(be: Any, x: Any, axis: int, exclusive: bool, reverse: bool) -> Any:
    """Dask: NumPy's forward on chunks holding the whole axis; namespaces of the standard: the
    same running ``logaddexp``, one step per entry along the axis."""
    p = dict(axis=axis, exclusive=exclusive, reverse=reverse)
    if be.name == "dask":
        return be.module.map_blocks(functools.partial(_cumlse_fwd, **p), be.whole(x, (axis,)), dtype=x.dtype)
    if be.numpy_api:
        return NotImplemented
    xp = be.xp
    y = xp.flip(x, axis=axis) if reverse else x
    acc, out = None, []
    for i in range(y.shape[axis]):
        s = y[(slice(None),) * axis + (slice(i, i + 1), ...)]
        if exclusive:
            out.append(xp.full_like(s, -math.inf) if acc is None else acc)
        acc = s if acc is None else xp.logaddexp(acc, s)
        if not exclusive:
            out.append(acc)
    r = xp.concat(out, axis=axis) if out else y
    return xp.flip(r, axis=axis) if reverse else r


_bk.register(_cumlse, _cumlse_form)


def cumulative_logsumexp(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False,
                         name: Any = None) -> Tensor:
    """Running ``log(Σ exp(x))`` along ``axis``, computed stably; ``exclusive`` and ``reverse`` as in
    :func:`tf.math.cumsum` (an empty exclusive sum is ``-inf``).

    >>> import tapegrad as tf
    >>> tf.math.cumulative_logsumexp(tf.constant([0.0, 0.0, 3.0])).numpy().round(4)
    array([0.    , 0.6931, 3.0949], dtype=float32)
    """
    t = as_tensor(x)
    _check_kind(t, "f", "CumulativeLogsumexp")
    a = norm_axis(axis, t._value.ndim, "CumulativeLogsumexp")
    return apply(_cumlse, (t,), {"axis": a, "exclusive": bool(exclusive), "reverse": bool(reverse)})


def zero_fraction(value: Any, name: Any = None) -> Tensor:
    """The fraction of entries equal to zero (float32).

    >>> import tapegrad as tf
    >>> float(tf.math.zero_fraction(tf.constant([0, 1, 0, 3])))
    0.5
    """
    v = np.asarray(host_value(as_tensor(value), "value"))
    return _wrap(np.float32(np.count_nonzero(v == 0) / v.size if v.size else np.nan))


def _monotonic(x: Any, strict: bool, what: str) -> Tensor:
    v = np.asarray(host_value(as_tensor(x), "x"))
    if v.dtype.kind not in "iuf":
        raise TypeError(f"{what}: expected a real numeric tensor, got {v.dtype.name}.")
    d = np.diff(v.reshape(-1))
    return _wrap(np.bool_((d > 0).all() if strict else (d >= 0).all()))


def is_non_decreasing(x: Any, name: Any = None) -> Tensor:
    """Whether the flattened ``x`` never decreases (True for fewer than two entries).

    >>> import tapegrad as tf
    >>> bool(tf.math.is_non_decreasing([1, 1, 2]))
    True
    """
    return _monotonic(x, False, "is_non_decreasing")


def is_strictly_increasing(x: Any, name: Any = None) -> Tensor:
    """Whether the flattened ``x`` always increases (True for fewer than two entries).

    >>> import tapegrad as tf
    >>> bool(tf.math.is_strictly_increasing([1, 1, 2]))
    False
    """
    return _monotonic(x, True, "is_strictly_increasing")
