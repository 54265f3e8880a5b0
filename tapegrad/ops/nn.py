"""Activations, softmax and the cross-entropy losses (numerically stable)."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._core import Tensor, Variable, _wrap, apply, as_tensor, binary_operands, convert_to_tensor, defop
from ..errors import InvalidArgumentError
from .array import norm_axis
from .math import (_check_kind, _np_err, cast, exp, greater, greater_equal, log1p, multiply,
                       where, zeros_like)
from .reduction import reduce_sum

def _relu_grad(g: Tensor, x: Tensor) -> Tensor:
    return apply(_relu_grad_op, (g, x))


# ReluGrad(g, x) = g where x > 0, else 0: linear in g; x only selects (no float mask is built).
# Its derivative in x is zeros, not None: TF's _ReluGradGrad returns zeros_like(x), so second
# derivatives through relu are connected zeros.
_relu_grad_op = defop("ReluGrad", lambda g, x: g * (x > 0),
                      vjp=(lambda g2, ans, g, x: _relu_grad(g2, x),
                           lambda g2, ans, g, x: zeros_like(g2)),
                      jvp=lambda ts, ans, g, x: _relu_grad(ts[0], x) if ts[0] is not None
                      else zeros_like(ans))
_relu = defop("Relu", lambda x: np.maximum(x, 0),
              vjp=(lambda g, ans, x: _relu_grad(g, x),),
              jvp=lambda ts, ans, x: _relu_grad(ts[0], x))


def relu(features: Any, name: Any = None) -> Tensor:
    """``max(x, 0)``; the gradient at 0 is 0."""
    x = as_tensor(features)
    _check_kind(x, "fiu", "Relu")
    return apply(_relu, (x,))


def _softmax_fwd(x: np.ndarray, axis: int) -> np.ndarray:
    with _np_err:
        m = np.max(x, axis=axis, keepdims=True) if x.size else 0
        e = np.exp(x - m)
        return (e / np.sum(e, axis=axis, keepdims=True)).astype(x.dtype, copy=False)


def _log_softmax_fwd(x: np.ndarray, axis: int) -> np.ndarray:
    with _np_err:
        m = np.max(x, axis=axis, keepdims=True) if x.size else 0
        s = x - m
        return (s - np.log(np.sum(np.exp(s), axis=axis, keepdims=True))).astype(x.dtype, copy=False)


def _softmax_vjp(g: Tensor, ans: Tensor, x: Tensor, axis: int) -> Tensor:
    return ans * (g - reduce_sum(g * ans, axis=axis, keepdims=True))


def _log_softmax_vjp(g: Tensor, ans: Tensor, x: Tensor, axis: int) -> Tensor:
    return g - exp(ans) * reduce_sum(g, axis=axis, keepdims=True)


# axis is stored negative so that rules work unchanged on cotangents with leading batch axes
_softmax = defop("Softmax", _softmax_fwd, vjp=(_softmax_vjp,),
                 jvp=lambda ts, ans, x, axis: _softmax_vjp(ts[0], ans, x, axis))
_log_softmax = defop("LogSoftmax", _log_softmax_fwd, vjp=(_log_softmax_vjp,),
                     jvp=lambda ts, ans, x, axis: ts[0] - reduce_sum(exp(ans) * ts[0], axis=axis, keepdims=True))


def _neg_axis(x: Tensor, axis: Any, op: str) -> int:
    nd = x._value.ndim
    if nd == 0:
        raise InvalidArgumentError(None, None, f"{op}: logits must have at least one axis [Op:{op}]")
    return norm_axis(axis, nd, op) - nd


def softmax(logits: Any, axis: Any = None, name: Any = None) -> Tensor:
    """``exp(x) / Σ exp(x)`` along ``axis`` (the last by default), without overflow."""
    x = as_tensor(logits)
    _check_kind(x, "f", "Softmax")
    return apply(_softmax, (x,), {"axis": _neg_axis(x, -1 if axis is None else axis, "Softmax")})


def log_softmax(logits: Any, axis: Any = None, name: Any = None) -> Tensor:
    """``x - log Σ exp(x)`` along ``axis`` (the last by default), without overflow."""
    x = as_tensor(logits)
    _check_kind(x, "f", "LogSoftmax")
    return apply(_log_softmax, (x,), {"axis": _neg_axis(x, -1 if axis is None else axis, "LogSoftmax")})


def _neg_log_softmax(x: np.ndarray) -> np.ndarray:
    """``log Σ exp(s) - s`` with ``s = x - max(x)``: TF's kernel's form, +0.0 where the loss is 0
    (``-log_softmax`` would give -0.0)."""
    with _np_err:
        s = x - (np.max(x, axis=-1, keepdims=True) if x.size else 0)
        return (np.log(np.sum(np.exp(s), axis=-1, keepdims=True)) - s).astype(x.dtype, copy=False)


def _sxent_fwd(logits: np.ndarray, labels: np.ndarray) -> np.ndarray:
    return np.take_along_axis(_neg_log_softmax(logits), labels[..., None].astype(np.intp), -1)[..., 0]


def _sxent_vjp(g: Tensor, ans: Tensor, logits: Tensor, labels: Tensor) -> Tensor:
    from .array import expand_dims
    return expand_dims(g, -1) * (softmax(logits) - _onehot(logits, labels))


def _onehot(logits: Tensor, labels: Tensor) -> Tensor:
    return _wrap(np.eye(logits._value.shape[-1], dtype=logits._value.dtype)[np.asarray(labels._value)])


_sxent = defop("SparseSoftmaxCrossEntropyWithLogits", _sxent_fwd, vjp=(_sxent_vjp, None),
               jvp=lambda ts, ans, logits, labels: reduce_sum(
                   ts[0] * (softmax(logits) - _onehot(logits, labels)),
                   axis=-1))


def sparse_softmax_cross_entropy_with_logits(labels: Any = None, logits: Any = None, name: Any = None) -> Tensor:
    """Cross-entropy of ``softmax(logits)`` against integer class ``labels``.

    ``labels`` has shape ``[d0..dn]`` (int32/int64, each in ``[0, num_classes)``), ``logits``
    ``[d0..dn, num_classes]``; the result has the labels' shape. Stable for large logits.
    """
    if labels is None or logits is None:
        raise ValueError("sparse_softmax_cross_entropy_with_logits needs both labels= and logits= "
                         "(pass them by keyword).")
    lg = as_tensor(logits)
    lb = as_tensor(labels)
    _check_kind(lg, "f", "SparseSoftmaxCrossEntropyWithLogits")
    if lb._value.dtype.kind not in "iu":
        raise InvalidArgumentError(None, None, f"labels must be int32 or int64 class indices, got "
                                   f"{lb.dtype.name}; for one-hot or probability labels use "
                                   "tf.nn.softmax_cross_entropy_with_logits.")
    if lg._value.ndim != lb._value.ndim + 1 or lg._value.shape[:-1] != lb._value.shape:
        raise InvalidArgumentError(None, None, f"logits and labels must have the same first dimension, "
                                   f"got logits shape {list(lg._value.shape)} and labels shape "
                                   f"{list(lb._value.shape)} (logits need one more axis, the classes)")
    c = lg._value.shape[-1]
    lv = np.asarray(lb._value)
    if lv.size and (lv.min() < 0 or lv.max() >= c):
        bad = lv[(lv < 0) | (lv >= c)].reshape(-1)[0]
        raise InvalidArgumentError(None, None, f"Received a label value of {bad} which is outside the "
                                   f"valid range of [0, {c}).  Label values: {' '.join(map(str, lv.reshape(-1)))}")
    return apply(_sxent, (lg, lb))


def _xent_fwd(logits: np.ndarray, labels: np.ndarray) -> np.ndarray:
    nls = _neg_log_softmax(logits)
    with _np_err:
        return np.sum(labels * nls, axis=-1)


def _xent_vjp(g: Tensor, ans: Tensor, needs: Any, logits: Tensor, labels: Tensor) -> list:
    from .array import expand_dims
    ge = expand_dims(g, -1)
    out = []
    for i in needs:
        if i == 0:
            out.append(ge * (softmax(logits) - labels))
        else:
            out.append(-ge * log_softmax(logits))
    return out


_xent = defop("SoftmaxCrossEntropyWithLogits", _xent_fwd, vjp=_xent_vjp,
              jvp=lambda ts, ans, logits, labels: _xent_jvp(ts, logits, labels), broadcast=True)


def _xent_jvp(ts: Any, logits: Tensor, labels: Tensor) -> Tensor:
    out = None
    if ts[0] is not None:
        out = reduce_sum(ts[0] * (softmax(logits) - labels), axis=-1)
    if ts[1] is not None:
        t = -reduce_sum(ts[1] * log_softmax(logits), axis=-1)
        out = t if out is None else out + t
    return out


def softmax_cross_entropy_with_logits(labels: Any = None, logits: Any = None, axis: int = -1, name: Any = None) -> Tensor:
    """Cross-entropy of ``softmax(logits)`` against a distribution ``labels`` over ``axis``.

    ``labels`` of another dtype (int, bool, another float) are cast to the logits' dtype, as in
    TensorFlow; ``logits`` must be floating. The gradient with respect to logits is
    ``softmax(logits) - labels`` (TensorFlow's kernel); ``labels`` receive ``-log_softmax(logits)``.

    >>> import tapegrad as tf
    >>> loss = tf.nn.softmax_cross_entropy_with_logits(labels=[[0, 1]], logits=[[0.0, 0.0]])
    >>> round(float(loss[0]), 4)
    0.6931
    """
    if labels is None or logits is None:
        raise ValueError("softmax_cross_entropy_with_logits needs both labels= and logits=.")
    lg = as_tensor(logits)
    _check_kind(lg, "f", "SoftmaxCrossEntropyWithLogits")
    if isinstance(labels, (Tensor, Variable)):
        lb = as_tensor(labels)
        if lb._value.dtype != lg._value.dtype:
            lb = cast(lb, lg.dtype)
    else:
        lb = convert_to_tensor(labels, dtype=lg.dtype)
    try:
        np.broadcast_shapes(lg._value.shape, lb._value.shape)
    except ValueError:
        raise InvalidArgumentError(None, None, f"logits and labels must be broadcastable: logits_size="
                                   f"{list(lg._value.shape)} labels_size={list(lb._value.shape)}") from None
    nd = lg._value.ndim
    a = norm_axis(axis, nd, "SoftmaxCrossEntropyWithLogits")
    if a != nd - 1:
        from .array import transpose
        perm = [i for i in range(nd) if i != a] + [a]
        lg, lb = transpose(lg, perm), transpose(lb, perm)
    return apply(_xent, (lg, lb))


def sigmoid_cross_entropy_with_logits(labels: Any = None, logits: Any = None, name: Any = None) -> Tensor:
    """Elementwise logistic loss ``-z log σ(x) - (1-z) log(1-σ(x))``, stable for large ``|x|``.

    Computed as ``max(x, 0) - x z + log(1 + exp(-|x|))`` with TensorFlow's choice at ``x = 0``
    (gradient ``0.5 - z``).
    """
    if labels is None or logits is None:
        raise ValueError("sigmoid_cross_entropy_with_logits needs both labels= and logits=.")
    x = as_tensor(logits)
    _check_kind(x, "f", "SigmoidCrossEntropyWithLogits")
    x, z = binary_operands(x, labels, "SigmoidCrossEntropyWithLogits")
    if x._value.shape != z._value.shape:
        raise ValueError(f"logits and labels must have the same shape ({list(x._value.shape)} vs "
                         f"{list(z._value.shape)})")
    cond = greater_equal(x, zeros_like(x))
    relu_logits = where(cond, x, zeros_like(x))
    neg_abs = where(cond, -x, x)
    return relu_logits - multiply(x, z) + log1p(exp(neg_abs))
