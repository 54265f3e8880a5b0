"""Ops that combine many values: ``add_n``, ``polyval``, ``reduce_euclidean_norm``,
``count_nonzero`` and ``l2_normalize``."""
from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._core import IndexedSlices, Tensor, apply, as_tensor, binary_operands, convert_to_tensor, defop
from ..errors import InvalidArgumentError
from .math import (add, cast, complex_, conj, imag, maximum, multiply, not_equal,
                       real, rsqrt, square, zeros_like)
from .reduction import _expand_back, _keep_shape, _reduce, reduce_sum
from .array import reshape

# --------------------------------------------------------------------------- add_n
_add_n = defop("AddN", lambda *xs: reduce(np.add, xs),
               vjp=lambda g, ans, needs, *xs: [g for _ in needs], jvp="linear")


def add_n(inputs: Any, name: Any = None) -> Tensor:
    """The elementwise sum of a list of tensors of one shape and dtype (no broadcasting).

    IndexedSlices entries are densified. A list of one tensor returns that tensor.

    >>> import tapegrad as tf
    >>> tf.add_n([tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]), tf.constant([5.0, 6.0])]).numpy()
    array([ 9., 12.], dtype=float32)
    """
    items = list(inputs) if isinstance(inputs, Iterable) else []
    if not items:
        raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices with the "
                         "same dtype and shape.")
    ts = [convert_to_tensor(v) if isinstance(v, IndexedSlices) else as_tensor(v) for v in items]
    if len(ts) == 1:
        return ts[0]
    d0, s0 = ts[0]._value.dtype, ts[0]._value.shape
    for i, t in enumerate(ts[1:], 1):
        if t._value.dtype != d0:
            raise InvalidArgumentError(None, None, f"cannot compute AddN as input #{i}(zero-based) was "
                                       f"expected to be a {_dt._from_np(d0).name} tensor but is a "
                                       f"{t.dtype.name} tensor [Op:AddN]")
        if t._value.shape != s0:
            raise InvalidArgumentError(None, None, f"Inputs to operation AddN must have the same size "
                                       f"and shape. Input 0: {list(s0)} != input {i}: "
                                       f"{list(t._value.shape)} (use tf.add to broadcast) [Op:AddN]")
    return apply(_add_n, ts)


# --------------------------------------------------------------------------- polyval
def polyval(coeffs: Any, x: Any, name: Any = None) -> Tensor:
    """``coeffs[0] * x**(n-1) + ... + coeffs[n-1]`` by Horner's method (``coeffs`` a list).

    Coefficients may be tensors that broadcast against ``x``; Python numbers take ``x``'s dtype.
    An empty list gives zeros shaped like ``x``.

    >>> import tapegrad as tf
    >>> tf.math.polyval([1.0, 2.0, 3.0], tf.constant([2.0])).numpy()  # x² + 2x + 3
    array([11.], dtype=float32)
    """
    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    x = as_tensor(x)
    if not coeffs:
        return zeros_like(x)
    p = coeffs[0]
    if len(coeffs) == 1:
        return binary_operands(p, x, "polyval")[0]
    for c in coeffs[1:]:
        p = add(c, multiply(p, x))
    return p


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


def _enorm_jvp(ts: Any, ans: Tensor, x: Tensor, axes: tuple, keepdims: bool) -> Tensor:
    t = ts[0]
    inner = real(conj(x) * t) if x._value.dtype.kind == "c" else x * t
    s = reduce_sum(inner, axis=list(axes), keepdims=keepdims)
    return (_as_c(s) if x._value.dtype.kind == "c" else s) / ans


_enorm = defop("EuclideanNorm", _enorm_fwd, vjp=(_enorm_vjp,), jvp=_enorm_jvp)


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


# --------------------------------------------------------------------------- l2_normalize
def l2_normalize(x: Any, axis: Any = None, epsilon: float = 1e-12, name: Any = None,
                 dim: Any = None) -> Tensor:
    """``x / sqrt(max(Σ |x|², epsilon))`` over ``axis`` (all axes when None).

    ``epsilon`` keeps the result finite at 0: there the output is 0 and the gradient
    ``1 / sqrt(epsilon)`` times the cotangent. ``dim`` is TensorFlow's deprecated name for ``axis``.

    >>> import tapegrad as tf
    >>> tf.math.l2_normalize(tf.constant([3.0, 4.0])).numpy().round(4)
    array([0.6, 0.8], dtype=float32)
    """
    if dim is not None:
        if axis is not None:
            raise ValueError("l2_normalize: give axis or its deprecated name dim, not both.")
        axis = dim
    x = as_tensor(x)
    if x._value.dtype.kind not in "fc":
        raise TypeError(f"l2_normalize needs a floating or complex tensor, got {x.dtype.name}; cast it "
                        "first, e.g. tf.cast(x, tf.float32).")
    if x._value.dtype.kind == "c":
        re, im = real(x), imag(x)
        inv = rsqrt(maximum(reduce_sum(square(re) + square(im), axis, keepdims=True), epsilon))
        return complex_(re * inv, im * inv)
    return x * rsqrt(maximum(reduce_sum(square(x), axis, keepdims=True), epsilon))

