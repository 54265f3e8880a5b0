"""Neural-network ops (``tf.nn``): activations (relu, relu6, elu, selu, leaky_relu, softsign,
gelu, silu), softmax and log_softmax, the cross-entropy losses (numerically stable), l2_loss,
l2_normalize, moments, batch_normalization, bias_add and dropout.

Piecewise activations are elementwise primitives whose derivatives follow TensorFlow's gradient
kernels at the kinks (``Relu6Grad``, ``EluGrad``, ``SeluGrad``, ``LeakyReluGrad``); smooth ones
are compositions of differentiable ops, as in TensorFlow's Python code.
"""
from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from .. import _backend as _bk, _vmap, dtypes as _dt
from .._convert import as_tensor, binary_operands, check_values, convert_to_tensor, host_value
from .._dispatch import apply, composite_api, composite_call, defop
from .._tensor import CompositeConversionError, Tensor, constant_maker, wrap as _wrap
from .._variable import Variable
from ..errors import InvalidArgumentError
from .array import (_one_hot, broadcast_to, concat, expand_dims, norm_axes, norm_axis, pad,
                    reshape, squeeze, transpose)
from .math import (_check_kind, abs, add_n, cast, complex_, exp, greater_equal, imag, less, less_equal,
                   log, log1p, logical_and, maximum, multiply, ones_like, pow, real, reciprocal, rsqrt,
                   sigmoid, square, subtract, tanh, where, zeros_like)
from .random import stateless_uniform, uniform
from .indexing import gather
from .reduction import reduce_mean, reduce_sum
from .segment import unsorted_segment_mean
from .special import divide_no_nan, erf, squared_difference

__all__ = ["relu", "softmax", "log_softmax", "sparse_softmax_cross_entropy_with_logits",
    "softmax_cross_entropy_with_logits", "sigmoid_cross_entropy_with_logits", "relu6", "elu",
    "selu", "leaky_relu", "softsign", "gelu", "silu", "swish", "l2_loss", "moments",
    "batch_normalization", "bias_add", "dropout", "l2_normalize", "depth_to_space", "space_to_depth",
    "local_response_normalization", "lrn", "weighted_cross_entropy_with_logits", "log_poisson_loss",
    "normalize_moments", "sufficient_statistics", "weighted_moments", "crelu", "ctc_loss",
    "collapse_repeated", "batch_norm_with_global_normalization", "general_dropout", "isotonic_regression", "stateless_dropout"]


def _relu_grad(g: Tensor, x: Tensor) -> Tensor:
    return apply(_relu_grad_op, (g, x))


def _zero_in_x(c: Tensor, ans: Tensor, g: Tensor, x: Tensor, **p: Any) -> Tensor:
    """The x rule (VJP and JVP) of ReluGrad, Relu6Grad and LeakyReluGrad: connected zeros."""
    return zeros_like(c)


# ReluGrad(g, x) = g where x > 0, else 0: linear in g; x only selects (no float mask is built).
# Its derivative in x is zeros, not None: TF's _ReluGradGrad returns zeros_like(x), so second
# derivatives through relu are connected zeros.
_relu_grad_op = defop("ReluGrad", lambda g, x: g * (x > 0),
                      vjp=(lambda g2, ans, g, x: _relu_grad(g2, x), _zero_in_x),
                      jvp=(lambda t, ans, g, x: _relu_grad(t, x), _zero_in_x))
_vmap.register(_relu_grad_op, _vmap.leading)
_bk.register(_relu_grad_op, lambda be, g, x: be.xp.where(x > 0, g, be.xp.zeros_like(g)))
# (the rules read the output, as TF's _ReluGrad does: ans > 0 exactly where x > 0, and the input
# need not be kept, so a traced bias add and ReLU fuse into one loop)
_relu = defop("Relu", lambda x: np.maximum(x, 0),
              vjp=(lambda g, ans, x: _relu_grad(g, ans),),
              jvp=(lambda t, ans, x: _relu_grad(t, ans),))
_vmap.register(_relu, _vmap.broadcasting)
_bk.register(_relu, lambda be, x: be.xp.where(x > 0, x, be.xp.zeros_like(x)))


def relu(features: Any, name: Any = None) -> Tensor:
    """``max(x, 0)``; the gradient at 0 is 0."""
    try:
        x = as_tensor(features)
    except CompositeConversionError:  # (a RaggedTensor: tapegrad/ragged/ handles it)
        return composite_call(relu, features)
    _check_kind(x, "fiu", "Relu")
    return apply(_relu, (x,))


def _shift(v: np.ndarray, axis: int) -> Any:
    """The maximum along ``axis`` (kept), subtracted before exp. Along a short last axis, one
    elementwise maximum per column: NumPy's reduction calls its loop once per row of 32, three
    times as slow. Any order gives the same maximum (the sign of a zero aside, which ``x - m``
    does not see)."""
    if not v.size:
        return 0
    n = v.shape[-1]
    if axis == -1 and 2 <= n <= 64 and v.size >= 64 * n and v.dtype.kind == "f":
        m = v[..., 0].copy()
        for j in range(1, n):
            np.maximum(m, v[..., j], out=m)
        return m[..., None]
    return np.max(v, axis=axis, keepdims=True)


def _softmax_fwd(x: np.ndarray, axis: int) -> np.ndarray:
    # float16 is computed in float32 and rounded once, as TF's kernel does
    v = x.astype(np.float32) if x.dtype == np.float16 else x
    e = np.exp(v - _shift(v, axis))
    return (e / np.sum(e, axis=axis, keepdims=True)).astype(x.dtype, copy=False)


def _log_softmax_fwd(x: np.ndarray, axis: int) -> np.ndarray:
    m = _shift(x, axis)
    s = x - m
    return (s - np.log(np.sum(np.exp(s), axis=axis, keepdims=True))).astype(x.dtype, copy=False)


def _softmax_vjp(g: Tensor, ans: Tensor, x: Tensor, axis: int) -> Tensor:
    return ans * (g - reduce_sum(g * ans, axis=axis, keepdims=True))


def _log_softmax_vjp(g: Tensor, ans: Tensor, x: Tensor, axis: int) -> Tensor:
    return g - exp(ans) * reduce_sum(g, axis=axis, keepdims=True)


# axis is stored negative so that rules work unchanged on cotangents with leading batch axes
_softmax = defop("Softmax", _softmax_fwd, vjp=(_softmax_vjp,),
                 jvp=(lambda t, ans, x, axis: _softmax_vjp(t, ans, x, axis),))
_vmap.register(_softmax, _vmap.one_axis("axis"))


def _softmax_form(be: Any, x: Any, axis: int) -> Any:
    xp = be.xp
    e = xp.exp(x - xp.max(x, axis=axis, keepdims=True))
    return e / xp.sum(e, axis=axis, keepdims=True)


_bk.register(_softmax, _softmax_form)
_log_softmax = defop("LogSoftmax", _log_softmax_fwd, vjp=(_log_softmax_vjp,),
                     jvp=(lambda t, ans, x, axis: t - reduce_sum(exp(ans) * t, axis=axis, keepdims=True),))
_vmap.register(_log_softmax, _vmap.one_axis("axis"))


def _log_softmax_form(be: Any, x: Any, axis: int) -> Any:
    xp = be.xp
    s = x - xp.max(x, axis=axis, keepdims=True)
    return s - xp.log(xp.sum(xp.exp(s), axis=axis, keepdims=True))


def _neg_log_softmax_form(be: Any, x: Any) -> Any:
    return -_log_softmax_form(be, x, -1)


_bk.register(_log_softmax, _log_softmax_form)


def _neg_axis(x: Tensor, axis: Any, op: str) -> int:
    nd = x._value.ndim
    if nd == 0:
        raise InvalidArgumentError(f"{op}: logits must have at least one axis [Op:{op}]")
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
    s = x - (np.max(x, axis=-1, keepdims=True) if x.size else 0)
    return (np.log(np.sum(np.exp(s), axis=-1, keepdims=True)) - s).astype(x.dtype, copy=False)


def _sxent_fwd(logits: np.ndarray, labels: np.ndarray) -> np.ndarray:
    return np.take_along_axis(_neg_log_softmax(logits), labels[..., None].astype(np.intp), -1)[..., 0]


def _sxent_vjp(g: Tensor, ans: Tensor, logits: Tensor, labels: Tensor) -> Tensor:
    return expand_dims(g, -1) * (softmax(logits) - _onehot(logits, labels))


@constant_maker
def _onehot(logits: Tensor, labels: Tensor) -> Tensor:
    dt = logits._value.dtype.type
    return apply(_one_hot, (labels, _wrap(dt(1)), _wrap(dt(0))), {"depth": logits._value.shape[-1], "axis": -1})


_sxent = defop("SparseSoftmaxCrossEntropyWithLogits", _sxent_fwd, vjp=(_sxent_vjp, None),
               jvp=(lambda t, ans, logits, labels: reduce_sum(
                   t * (softmax(logits) - _onehot(logits, labels)),
                   axis=-1),))
_vmap.register(_sxent, _vmap.leading)


def _sxent_form(be: Any, logits: Any, labels: Any) -> Any:
    nls = _neg_log_softmax_form(be, logits)
    return be.xp.sum(be.xp.where(_bk.hits(be, labels, logits.shape[-1]), nls, be.xp.zeros_like(nls)), axis=-1)


_bk.register(_sxent, _sxent_form)


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
        raise InvalidArgumentError(f"labels must be int32 or int64 class indices, got "
                                   f"{lb.dtype.name}; for one-hot or probability labels use "
                                   "tf.nn.softmax_cross_entropy_with_logits.")
    if lg._value.ndim != lb._value.ndim + 1 or lg._value.shape[:-1] != lb._value.shape:
        raise InvalidArgumentError(f"logits and labels must have the same first dimension, "
                                   f"got logits shape {list(lg._value.shape)} and labels shape "
                                   f"{list(lb._value.shape)} (logits need one more axis, the classes)")
    c = lg._value.shape[-1]
    check_values(lambda lv: _check_labels(lv, c), lb)
    return apply(_sxent, (lg, lb))


def _check_labels(lv: np.ndarray, c: int) -> None:
    if lv.size and (lv.min() < 0 or lv.max() >= c):
        bad = lv[(lv < 0) | (lv >= c)].reshape(-1)[0]
        raise InvalidArgumentError(f"Received a label value of {bad} which is outside the "
                                   f"valid range of [0, {c}).  Label values: {' '.join(map(str, lv.reshape(-1)))}")


def _xent_fwd(logits: np.ndarray, labels: np.ndarray) -> np.ndarray:
    nls = _neg_log_softmax(logits)
    return np.sum(labels * nls, axis=-1)


_xent = defop("SoftmaxCrossEntropyWithLogits", _xent_fwd,
              vjp=(lambda g, ans, logits, labels: expand_dims(g, -1) * (softmax(logits) - labels),
                   lambda g, ans, logits, labels: -expand_dims(g, -1) * log_softmax(logits)),
              jvp=(lambda t, ans, logits, labels: reduce_sum(t * (softmax(logits) - labels), axis=-1),
                   lambda t, ans, logits, labels: -reduce_sum(t * log_softmax(logits), axis=-1)),
              broadcast=True)
_bk.register(_xent, lambda be, logits, labels: be.xp.sum(labels * _neg_log_softmax_form(be, logits), axis=-1))


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
        raise InvalidArgumentError(f"logits and labels must be broadcastable: logits_size="
                                   f"{list(lg._value.shape)} labels_size={list(lb._value.shape)}") from None
    nd = lg._value.ndim
    a = norm_axis(axis, nd, "SoftmaxCrossEntropyWithLogits")
    if a != nd - 1:
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


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _float_features(features: Any, op: str) -> Tensor:
    x = as_tensor(features)
    _check_kind(x, "f", op)
    return x


# --------------------------------------------------------------------------- piecewise activations
# Relu6Grad and LeakyReluGrad, as ReluGrad (above): linear in g, zeros (not None) in x
_relu6_grad = defop("Relu6Grad", lambda g, x: g * ((x > 0) & (x < 6)),
                    vjp=(lambda g2, ans, g, x: apply(_relu6_grad, (g2, x)), _zero_in_x),
                    jvp=(lambda t, ans, g, x: apply(_relu6_grad, (t, x)), _zero_in_x))
_vmap.register(_relu6_grad, _vmap.leading)
_bk.register(_relu6_grad, lambda be, g, x: be.xp.where((x > 0) & (x < 6), g, be.xp.zeros_like(g)))
_relu6 = defop("Relu6", lambda x: np.minimum(np.maximum(x, 0), 6).astype(x.dtype, copy=False),
               vjp=(lambda g, ans, x: apply(_relu6_grad, (g, x)),),
               jvp=(lambda t, ans, x: apply(_relu6_grad, (t, x)),))
_vmap.register(_relu6, _vmap.broadcasting)
_bk.register(_relu6, lambda be, x: be.xp.clip(x, 0, 6))
# Elu and Selu as TensorFlow's kernels compute them: exp(x) - 1 (not expm1, which is more exact
# just below 0: TF's values there carry exp's rounding near 1, and a SELU net's outputs follow
# them), Selu's negative side as one product by scale * alpha rounded to the dtype
_SELU_SCALE_ALPHA = 1.7580993408473768599402175208123
_elu = defop("Elu", lambda x: np.where(x < 0, np.exp(np.minimum(x, 0)) - x.dtype.type(1), x).astype(x.dtype, copy=False),
             deriv=(lambda ans, x: where(less(ans, 0), ans + 1, ones_like(ans)),))
_bk.register(_elu, lambda be, x: be.xp.where(x < 0, be.xp.exp(be.xp.minimum(x, be.xp.zeros_like(x))) - 1, x))
_selu = defop("Selu", lambda x: np.where(
    x < 0, x.dtype.type(_SELU_SCALE_ALPHA) * (np.exp(np.minimum(x, 0)) - x.dtype.type(1)),
    x.dtype.type(_SELU_SCALE) * x).astype(x.dtype, copy=False),
              deriv=(lambda ans, x: where(less(ans, 0), ans + _SELU_SCALE_ALPHA,
                                          ones_like(ans) * _SELU_SCALE),))
_bk.register(_selu, lambda be, x: be.xp.where(
    x < 0, _SELU_SCALE_ALPHA * (be.xp.exp(be.xp.minimum(x, be.xp.zeros_like(x))) - 1), _SELU_SCALE * x))
_leaky_relu_grad = defop(
    "LeakyReluGrad", lambda g, x, alpha: np.where(x > 0, g, g * g.dtype.type(alpha)),
    vjp=(lambda g2, ans, g, x, alpha: apply(_leaky_relu_grad, (g2, x), {"alpha": alpha}), _zero_in_x),
    jvp=(lambda t, ans, g, x, alpha: apply(_leaky_relu_grad, (t, x), {"alpha": alpha}), _zero_in_x))
_vmap.register(_leaky_relu_grad, _vmap.leading)
_bk.register(_leaky_relu_grad, lambda be, g, x, alpha: be.xp.where(x > 0, g, g * alpha))
_leaky_relu = defop("LeakyRelu", lambda x, alpha: np.where(x > 0, x, x * x.dtype.type(alpha)),
                    vjp=(lambda g, ans, x, alpha: apply(_leaky_relu_grad, (g, x), {"alpha": alpha}),),
                    jvp=(lambda t, ans, x, alpha: apply(_leaky_relu_grad, (t, x), {"alpha": alpha}),))
_vmap.register(_leaky_relu, _vmap.broadcasting)
_bk.register(_leaky_relu, lambda be, x, alpha: be.xp.where(x > 0, x, x * alpha))
_softsign = defop("Softsign", lambda x: x / (1 + np.abs(x)),
                  deriv=(lambda ans, x: reciprocal(square(1 + abs(x))),))
_bk.register(_softsign, lambda be, x: x / (1 + be.xp.abs(x)))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def relu6(features: Any, name: Any = None) -> Tensor:
    """``min(max(x, 0), 6)``; the gradient is 1 strictly between 0 and 6, else 0.

    >>> import tapegrad as tf
    >>> tf.nn.relu6(tf.constant([-1.0, 3.0, 8.0])).numpy()
    array([0., 3., 6.], dtype=float32)
    """
    x = as_tensor(features)
    _check_kind(x, "fiu", "Relu6")
    return apply(_relu6, (x,))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def elu(features: Any, name: Any = None) -> Tensor:
    """``x`` for ``x > 0``, else ``exp(x) - 1``; the gradient at 0 is 1 (TF's ``EluGrad``).

    >>> import tapegrad as tf
    >>> tf.nn.elu(tf.constant([-1.0, 2.0])).numpy().round(4)
    array([-0.6321,  2.    ], dtype=float32)
    """
    return apply(_elu, (_float_features(features, "Elu"),))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def selu(features: Any, name: Any = None) -> Tensor:
    """Scaled ELU: ``scale * x`` for ``x > 0``, else ``scale * alpha * (exp(x) - 1)`` with
    ``alpha ≈ 1.6733`` and ``scale ≈ 1.0507``."""
    return apply(_selu, (_float_features(features, "Selu"),))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def leaky_relu(features: Any, alpha: float = 0.2, name: Any = None) -> Tensor:
    """``x`` for ``x > 0``, else ``alpha * x``; the gradient at 0 is ``alpha``. Integer inputs
    are cast to float32, as in TensorFlow.

    >>> import tapegrad as tf
    >>> tf.nn.leaky_relu(tf.constant([-1.0, 2.0])).numpy()
    array([-0.2,  2. ], dtype=float32)
    """
    x = as_tensor(features)
    if x._value.dtype.kind in "iu":
        x = cast(x, _dt.float32)
    _check_kind(x, "f", "LeakyRelu")
    if isinstance(alpha, (Tensor, Variable, np.ndarray)):
        alpha = np.asarray(host_value(convert_to_tensor(alpha), "leaky_relu: alpha")).item()
    return apply(_leaky_relu, (x,), {"alpha": float(np.float32(alpha))})  # a float32 attr in TF


def softsign(features: Any, name: Any = None) -> Tensor:
    """``x / (1 + |x|)``."""
    return apply(_softsign, (_float_features(features, "Softsign"),))


# --------------------------------------------------------------------------- smooth activations
@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
@constant_maker
def gelu(features: Any, approximate: bool = False, name: Any = None) -> Tensor:
    """Gaussian error linear unit ``x * Φ(x)``: ``0.5 x (1 + erf(x / √2))``, or with
    ``approximate=True`` ``0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³)))``.

    >>> import tapegrad as tf
    >>> tf.nn.gelu(tf.constant([-1.0, 0.0, 1.0])).numpy().round(4)
    array([-0.1587,  0.    ,  0.8413], dtype=float32)
    """
    x = _float_features(features, "Gelu")
    if approximate:
        c = x._value.dtype.type(math.sqrt(2.0 / math.pi))
        return 0.5 * x * (1.0 + tanh(c * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1.0 + erf(x / x._value.dtype.type(math.sqrt(2.0))))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def silu(features: Any, beta: Any = 1.0, name: Any = None) -> Tensor:
    """``x * sigmoid(beta * x)`` (also called swish).

    >>> import tapegrad as tf
    >>> tf.nn.silu(tf.constant([0.0, 1.0])).numpy().round(4)
    array([0.    , 0.7311], dtype=float32)
    """
    x = _float_features(features, "Silu")
    if isinstance(beta, numbers.Real) and beta == 1.0:
        return x * sigmoid(x)
    return x * sigmoid(beta * x)


swish = silu


# --------------------------------------------------------------------------- losses, statistics
def l2_loss(t: Any, name: Any = None) -> Tensor:
    """``sum(t ** 2) / 2`` (a scalar), without the square root.

    >>> import tapegrad as tf
    >>> float(tf.nn.l2_loss(tf.constant([1.0, 2.0, 3.0])))
    7.0
    """
    x = as_tensor(t)
    _check_kind(x, "f", "L2Loss")
    return reduce_sum(square(x)) / 2


def moments(x: Any, axes: Any, shift: Any = None, keepdims: bool = False, name: Any = None) -> tuple:
    """Mean and (biased) variance of ``x`` over ``axes``: ``(mean, variance)``.

    float16 inputs are computed in float32 and cast back, as in TensorFlow (integer inputs give
    integer means, as there). Derivatives of every
    order are exact (TensorFlow stops the gradient through the mean inside the variance, which
    gives the same first derivatives but wrong second derivatives).

    >>> import tapegrad as tf
    >>> m, v = tf.nn.moments(tf.constant([[1.0, 2.0], [3.0, 6.0]]), axes=[0])
    >>> m.numpy(), v.numpy()
    (array([2., 4.], dtype=float32), array([1., 4.], dtype=float32))
    """
    t = as_tensor(x)
    _check_kind(t, "fiu", "moments")
    ax = list(norm_axes(axes, t._value.ndim, "moments"))
    y = cast(t, _dt.float32) if t._value.dtype == np.float16 else t
    mean = reduce_mean(y, ax, keepdims=True)
    variance = reduce_mean(square(y - mean), ax, keepdims=True)
    if not keepdims:
        mean, variance = squeeze(mean, ax), squeeze(variance, ax)
    if t._value.dtype == np.float16:
        mean, variance = cast(mean, _dt.float16), cast(variance, _dt.float16)
    return mean, variance


def batch_normalization(x: Any, mean: Any, variance: Any, offset: Any, scale: Any,
                        variance_epsilon: Any, name: Any = None) -> Tensor:
    """``scale * (x - mean) / sqrt(variance + variance_epsilon) + offset`` (``offset`` and
    ``scale`` may be None), computed as TensorFlow does:
    ``x * inv + (offset - mean * inv)`` with ``inv = scale * rsqrt(variance + eps)``.

    >>> import tapegrad as tf
    >>> tf.nn.batch_normalization(tf.constant([1.0, 3.0]), 2.0, 1.0, None, None, 0.0).numpy()
    array([-1.,  1.], dtype=float32)
    """
    xt = as_tensor(x)
    _check_kind(xt, "f", "batch_normalization")
    _, m = binary_operands(xt, mean, "batch_normalization")
    _, v = binary_operands(xt, variance, "batch_normalization")
    inv = rsqrt(v + variance_epsilon)
    if scale is not None:
        inv = inv * binary_operands(xt, scale, "batch_normalization")[1]
    shift = -m * inv if offset is None else binary_operands(xt, offset, "batch_normalization")[1] - m * inv
    return xt * inv + shift


def bias_add(value: Any, bias: Any, data_format: Any = None, name: Any = None) -> Tensor:
    """Add the 1-D ``bias`` along the channel axis of ``value`` (the last axis; axis 1 when
    ``data_format`` starts with ``"NC"``). The gradient for ``bias`` sums over the other axes.

    >>> import tapegrad as tf
    >>> tf.nn.bias_add(tf.zeros([2, 3]), tf.constant([1.0, 2.0, 3.0])).numpy()[0]
    array([1., 2., 3.], dtype=float32)
    """
    v, b = binary_operands(value, bias, "BiasAdd")
    _check_kind(v, "fciu", "BiasAdd")
    vs, bs = v._value.shape, b._value.shape
    if data_format is not None and not (isinstance(data_format, str) and data_format.startswith("N")):
        raise ValueError(f"bias_add: data_format must be None, 'N...C' or 'NC...', got {data_format!r}.")
    first = data_format is not None and data_format.startswith("NC")
    if len(vs) < (3 if first else 2):
        raise InvalidArgumentError(f"Input tensor must be at least {3 if first else 2}D: "
                                   f"{list(vs)} [Op:BiasAdd]")
    if len(bs) != 1:
        raise InvalidArgumentError(f"Biases must be 1D: {list(bs)} [Op:BiasAdd]")
    axis = 1 if first else len(vs) - 1
    if bs[0] != vs[axis]:
        raise InvalidArgumentError(f"Must provide as many biases as the channel dimension "
                                   f"of the input tensor: {list(bs)} vs. {list(vs)} (channel axis "
                                   f"{axis}) [Op:BiasAdd]")
    if first:
        b = reshape(b, (bs[0],) + (1,) * (len(vs) - 2))
    return v + b


@constant_maker
def dropout(x: Any, rate: Any, noise_shape: Any = None, seed: Any = None, name: Any = None) -> Tensor:
    """Zero each element with probability ``rate`` and scale the rest by ``1 / (1 - rate)``.

    ``noise_shape`` (broadcastable to ``x``'s shape) shares the random decision along axes
    of size 1; ``seed`` is an op-level seed (see :func:`tapegrad.random.set_seed`). A ``rate`` of
    exactly 0 returns ``x``. The gradient is the same mask times the same scale.

    >>> import tapegrad as tf
    >>> tf.random.set_seed(0)
    >>> y = tf.nn.dropout(tf.ones([1000]), rate=0.5)
    >>> sorted(set(y.numpy().tolist()))
    [0.0, 2.0]
    """
    return _dropout(x, rate, noise_shape, lambda shape, dt: uniform(shape, dtype=dt, seed=seed))


@constant_maker
def stateless_dropout(x: Any, rate: Any, seed: Any, rng_alg: Any = None, noise_shape: Any = None,
                      name: Any = None) -> Tensor:
    """:func:`dropout` whose mask is ``tf.random.stateless_uniform(noise_shape, seed)`` (the same
    ``seed`` gives the same mask: TensorFlow's numbers) (``tf.nn.experimental.stateless_dropout``).

    >>> import tapegrad as tf
    >>> tf.nn.experimental.stateless_dropout(tf.ones([6]), 0.5, seed=[1, 2]).numpy()
    array([2., 0., 2., 0., 0., 2.], dtype=float32)
    """
    alg = "auto_select" if rng_alg is None else rng_alg
    return _dropout(x, rate, noise_shape, lambda shape, dt: stateless_uniform(shape, seed, dtype=dt, alg=alg))


@constant_maker
def general_dropout(x: Any, rate: Any, uniform_sampler: Any, noise_shape: Any = None, name: Any = None) -> Tensor:
    """:func:`dropout` whose keep decisions are ``uniform_sampler(shape=..., dtype=...) >= rate``
    (``tf.nn.experimental.general_dropout``).

    >>> import tapegrad as tf
    >>> tf.nn.experimental.general_dropout(tf.ones([3]), 0.5, lambda shape, dtype: tf.constant([0.1, 0.7, 0.5])).numpy()
    array([0., 2., 2.], dtype=float32)
    """
    return _dropout(x, rate, noise_shape, lambda shape, dt: uniform_sampler(shape=shape, dtype=dt))


@constant_maker
def _dropout(x: Any, rate: Any, noise_shape: Any, sampler: Any) -> Tensor:
    xt = as_tensor(x)
    if xt._value.dtype.kind != "f":
        raise ValueError(f"x has to be a floating point tensor since it's going to be scaled. "
                         f"Received: x_dtype={xt.dtype.name}")
    if isinstance(rate, numbers.Real) and not isinstance(rate, bool):
        if not 0 <= rate < 1:
            raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). "
                             f"Received: rate={rate}")
        if rate == 0:
            return xt
        keep = xt * xt._value.dtype.type(1 / (1 - rate))
        r = xt._value.dtype.type(rate)
    else:
        rt = as_tensor(rate)
        if rt._value.ndim:
            raise ValueError(f"`rate` must be a scalar or scalar tensor. Received: rate={rate}")
        if rt._value.dtype != xt._value.dtype:
            rt = cast(rt, xt.dtype)
        keep = xt / (1 - rt)
        r = rt
    shape = xt._value.shape
    if noise_shape is not None:
        ns = list(noise_shape.numpy() if isinstance(noise_shape, Tensor) else noise_shape)
        if len(ns) == len(shape):
            ns = [s if d is None else d for d, s in zip(ns, shape)]
        shape = tuple(int(d) for d in ns)
    try:
        np.broadcast_shapes(shape, xt._value.shape)
    except ValueError:
        raise InvalidArgumentError(f"noise_shape {list(shape)} is not broadcastable to "
                                   f"x's shape {list(xt._value.shape)} [Op:dropout]") from None
    u = sampler(list(shape), xt.dtype)
    mask = greater_equal(u, r)  # (ops, not NumPy: a tf.function trace replays the draw)
    if mask._value.shape != xt._value.shape:
        mask = broadcast_to(mask, xt._value.shape)
    return where(mask, keep, zeros_like(keep))


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


# --------------------------------------------------------------------------- depth and space
def _block(input: Any, block_size: Any, data_format: Any, op: str) -> tuple:  # noqa: A002
    x = as_tensor(input)
    bs = int(block_size)
    if bs < 2:
        raise InvalidArgumentError(f"{op}: block_size must be at least 2, got {block_size}.")
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"{op}: data_format must be 'NHWC' or 'NCHW', got {data_format!r}.")
    if x._value.ndim != 4:
        raise InvalidArgumentError(f"{op}: input must be 4-D ({data_format}), got shape "
                                   f"{list(x._value.shape)}.")
    return x, bs, data_format == "NCHW"


def depth_to_space(input: Any, block_size: Any, data_format: str = "NHWC", name: Any = None) -> Tensor:  # noqa: A002
    """Move channel blocks into ``block_size x block_size`` spatial tiles (pixel shuffle):
    ``[b, h, w, c]`` becomes ``[b, h * bs, w * bs, c / bs²]``.

    >>> import tapegrad as tf
    >>> tf.nn.depth_to_space(tf.reshape(tf.range(4), [1, 1, 1, 4]), 2).numpy()[0, ..., 0]
    array([[0, 1],
           [2, 3]], dtype=int32)
    """
    x, bs, cf = _block(input, block_size, data_format, "DepthToSpace")
    b, *rest = x._value.shape
    c, h, w = rest if cf else (rest[2], rest[0], rest[1])
    if c % (bs * bs):
        raise InvalidArgumentError(f"DepthToSpace: the depth {c} must be divisible by block_size² "
                                   f"= {bs * bs}.")
    d = c // (bs * bs)
    if cf:
        y = transpose(reshape(x, [b, bs, bs, d, h, w]), [0, 3, 4, 1, 5, 2])
        return reshape(y, [b, d, h * bs, w * bs])
    y = transpose(reshape(x, [b, h, w, bs, bs, d]), [0, 1, 3, 2, 4, 5])
    return reshape(y, [b, h * bs, w * bs, d])


def space_to_depth(input: Any, block_size: Any, data_format: str = "NHWC", name: Any = None) -> Tensor:  # noqa: A002
    """Move ``block_size x block_size`` spatial tiles into channels, the inverse of
    :func:`depth_to_space`: ``[b, h, w, c]`` becomes ``[b, h / bs, w / bs, c * bs²]``.

    >>> import tapegrad as tf
    >>> tf.nn.space_to_depth(tf.reshape(tf.range(4), [1, 2, 2, 1]), 2).numpy()
    array([[[[0, 1, 2, 3]]]], dtype=int32)
    """
    x, bs, cf = _block(input, block_size, data_format, "SpaceToDepth")
    b, *rest = x._value.shape
    c, h, w = rest if cf else (rest[2], rest[0], rest[1])
    if h % bs or w % bs:
        raise InvalidArgumentError(f"SpaceToDepth: height {h} and width {w} must be divisible by "
                                   f"block_size {bs}.")
    if cf:
        y = transpose(reshape(x, [b, c, h // bs, bs, w // bs, bs]), [0, 3, 5, 1, 2, 4])
        return reshape(y, [b, c * bs * bs, h // bs, w // bs])
    y = transpose(reshape(x, [b, h // bs, bs, w // bs, bs, c]), [0, 1, 3, 2, 4, 5])
    return reshape(y, [b, h // bs, w // bs, c * bs * bs])


# --------------------------------------------------------------------------- more losses and moments
def local_response_normalization(input: Any, depth_radius: int = 5, bias: float = 1, alpha: float = 1,  # noqa: A002
                                 beta: float = 0.5, name: Any = None) -> Tensor:
    """``input / (bias + alpha * sqr_sum) ** beta``, ``sqr_sum`` summing the squares of the
    ``2 * depth_radius + 1`` channels around each one (last axis of a 4-D tensor). Also ``tf.nn.lrn``;
    unlike TensorFlow's (float16 and float32 only), it also takes float64.

    >>> import tapegrad as tf
    >>> tf.nn.local_response_normalization(tf.ones([1, 1, 1, 3]), depth_radius=1).numpy().round(4)
    array([[[[0.5774, 0.5   , 0.5774]]]], dtype=float32)
    """
    x = as_tensor(input)
    _check_kind(x, "f", "LRN")
    if x._value.ndim != 4:
        raise InvalidArgumentError(f"LRN: input must be 4-D, got shape {list(x._value.shape)}.")
    r, n = int(depth_radius), x._value.shape[-1]
    sq = pad(square(x), [[0, 0], [0, 0], [0, 0], [r, r]])
    sqr_sum = add_n([sq[..., k:k + n] for k in range(2 * r + 1)])
    dt = x.dtype
    return x / pow(convert_to_tensor(bias, dt) + convert_to_tensor(alpha, dt) * sqr_sum,
                   convert_to_tensor(beta, dt))


lrn = local_response_normalization


def weighted_cross_entropy_with_logits(labels: Any, logits: Any, pos_weight: Any, name: Any = None) -> Tensor:
    """Sigmoid cross-entropy with the positive term weighted by ``pos_weight``:
    ``(1 - z) * x + (1 + (q - 1) * z) * log(1 + exp(-x))``, computed stably.

    >>> import tapegrad as tf
    >>> tf.nn.weighted_cross_entropy_with_logits([1.0, 0.0], [0.5, -1.0], 2.0).numpy().round(4)
    array([0.9482, 0.3133], dtype=float32)
    """
    x, z = binary_operands(logits, labels, "weighted_cross_entropy_with_logits")
    q = convert_to_tensor(pos_weight, x.dtype)
    log_weight = 1 + (q - 1) * z
    return (1 - z) * x + log_weight * (log1p(exp(-abs(x))) + relu(-x))


def log_poisson_loss(targets: Any, log_input: Any, compute_full_loss: bool = False, name: Any = None) -> Tensor:
    """Poisson negative log-likelihood from the log of the rate: ``exp(log_input) - log_input *
    targets``, plus Stirling's ``t log t - t + log(2πt) / 2`` (for targets above 1) when
    ``compute_full_loss``.

    >>> import tapegrad as tf
    >>> tf.nn.log_poisson_loss([2.0, 0.0], [0.5, 0.1]).numpy().round(4)
    array([0.6487, 1.1052], dtype=float32)
    """
    li, t = binary_operands(log_input, targets, "log_poisson_loss")
    result = exp(li) - li * t
    if compute_full_loss:
        stirling = t * log(t) - t + 0.5 * log((2 * math.pi) * t)
        small = logical_and(greater_equal(t, zeros_like(t)), less_equal(t, ones_like(t)))
        result = result + where(small, zeros_like(t), stirling)
    return result


def normalize_moments(counts: Any, mean_ss: Any, variance_ss: Any, shift: Any, name: Any = None) -> tuple:
    """Mean and variance from :func:`sufficient_statistics`: ``(mean, variance)``.

    >>> import tapegrad as tf
    >>> m, v = tf.nn.normalize_moments(2.0, tf.constant([3.0]), tf.constant([5.0]), None)
    >>> m.numpy(), v.numpy()
    (array([1.5], dtype=float32), array([0.25], dtype=float32))
    """
    mss = as_tensor(mean_ss)
    divisor = reciprocal(convert_to_tensor(counts, mss.dtype))
    shifted_mean = mss * divisor
    mean = shifted_mean if shift is None else shifted_mean + convert_to_tensor(shift, mss.dtype)
    variance = convert_to_tensor(variance_ss, mss.dtype) * divisor - square(shifted_mean)
    return mean, variance


@constant_maker  # (the count from shapes)
def sufficient_statistics(x: Any, axes: Any, shift: Any = None, keepdims: bool = False, name: Any = None) -> tuple:
    """``(count, Σ (x - shift), Σ (x - shift)², shift)`` over ``axes`` (no shift when None).

    >>> import tapegrad as tf
    >>> c, m, v, _ = tf.nn.sufficient_statistics(tf.constant([[1.0, 2.0], [3.0, 4.0]]), [0])
    >>> float(c), m.numpy(), v.numpy()
    (2.0, array([4., 6.], dtype=float32), array([10., 20.], dtype=float32))
    """
    t = as_tensor(x)
    ax = list(norm_axes(axes, t._value.ndim, "sufficient_statistics"))
    counts = convert_to_tensor(int(np.prod([t._value.shape[a] for a in ax], dtype=np.int64)), t.dtype)
    if shift is not None:
        shift = convert_to_tensor(shift, t.dtype)
        m_ss, v_ss = subtract(t, shift), squared_difference(t, shift)
    else:
        m_ss, v_ss = t, square(t)
    return counts, reduce_sum(m_ss, ax, keepdims=keepdims), reduce_sum(v_ss, ax, keepdims=keepdims), shift


def weighted_moments(x: Any, axes: Any, frequency_weights: Any, keepdims: bool = False, name: Any = None) -> tuple:
    """Weighted mean and variance of ``x`` over ``axes`` (``frequency_weights`` broadcasts against
    ``x``): ``(mean, variance)``; zero total weight gives 0, not NaN.

    >>> import tapegrad as tf
    >>> m, v = tf.nn.weighted_moments(tf.constant([1.0, 3.0]), [0], tf.constant([3.0, 1.0]))
    >>> float(m), float(v)
    (1.5, 0.75)
    """
    t = as_tensor(x)
    half = t._value.dtype == np.float16
    if half:
        t = cast(t, _dt.float32)
    w = as_tensor(frequency_weights)
    if w.dtype != t.dtype:
        w = cast(w, t.dtype)
    ax = list(norm_axes(axes, t._value.ndim, "weighted_moments"))
    total = reduce_sum(w * t, ax, keepdims=True)
    weights = reduce_sum(w + zeros_like(t), ax, keepdims=True)
    mean = divide_no_nan(total, weights)
    variance = divide_no_nan(reduce_sum(w * squared_difference(t, mean), ax, keepdims=True), weights)
    if not keepdims:
        mean, variance = squeeze(mean, ax), squeeze(variance, ax)
    if half:
        mean, variance = cast(mean, _dt.float16), cast(variance, _dt.float16)
    return mean, variance


def crelu(features: Any, axis: int = -1, name: Any = None) -> Tensor:
    """Concatenated ReLU: ``relu(concat([x, -x], axis))``, twice as deep along ``axis``.

    >>> import tapegrad as tf
    >>> tf.nn.crelu(tf.constant([1.0, -2.0])).numpy()
    array([1., 0., 0., 2.], dtype=float32)
    """
    x = as_tensor(features)
    return relu(concat([x, -x], axis))


# --------------------------------------------------------------------------- CTC
def _ctc_one(lp: np.ndarray, ext: np.ndarray) -> tuple:
    """Forward-backward over the extended label ``ext`` (blanks between labels): ``-log p`` and
    the occupancy ``Σ_s posterior(t, s)`` per class."""
    n_t, n_s = len(lp), len(ext)
    la = lp[:, ext]
    skip = np.zeros(n_s, bool)
    skip[2:] = (ext[2:] != 0) & (ext[2:] != ext[:-2])
    ninf = np.full(2, -np.inf)
    alpha, beta = np.full((n_t, n_s), -np.inf), np.full((n_t, n_s), -np.inf)
    alpha[0, :2] = la[0, :2]
    for t in range(1, n_t):
        a = alpha[t - 1]
        two = np.where(skip, np.concatenate([ninf, a[:-2]]), -np.inf)
        alpha[t] = np.logaddexp(np.logaddexp(a, np.concatenate([ninf[:1], a[:-1]])), two) + la[t]
    beta[-1, -2:] = la[-1, -2:]
    for t in range(n_t - 2, -1, -1):
        b = beta[t + 1]
        two = np.concatenate([np.where(skip[2:], b[2:], -np.inf), ninf])
        beta[t] = np.logaddexp(np.logaddexp(b, np.concatenate([b[1:], ninf[:1]])), two) + la[t]
    logp = np.logaddexp.reduce(alpha[-1, -2:])
    occ = np.zeros(lp.shape)
    np.add.at(occ.T, ext, np.exp(alpha + beta - la - logp).T)
    return -logp, occ


def _ctc_fwd(logits: np.ndarray, labels: np.ndarray, label_length: np.ndarray,
             logit_length: np.ndarray) -> tuple:
    x = logits.astype(np.float64)
    lp = x - np.logaddexp.reduce(x, axis=2, keepdims=True)
    loss, grad = np.zeros(x.shape[1]), np.zeros(x.shape)
    for b in range(x.shape[1]):
        n_t, n_l = int(logit_length[b]), int(label_length[b])
        if n_t == 0:
            loss[b] = np.inf if n_l else 0.0
            continue
        ext = np.zeros(2 * n_l + 1, np.int64)
        ext[1::2] = labels[b, :n_l]
        loss[b], occ = _ctc_one(lp[:n_t, b], ext)
        grad[:n_t, b] = np.exp(lp[:n_t, b]) - occ
    return loss.astype(logits.dtype), grad.astype(logits.dtype)


def _ctc_vjp(g: tuple, ans: tuple, logits: Tensor, *rest: Tensor) -> Tensor:
    gl = g[0]
    return expand_dims(expand_dims(gl, -2), -1) * ans[1]  # [..., 1, B, 1] * dloss/dlogits


def _ctc_jvp(t: Any, ans: tuple, logits: Tensor, *rest: Tensor) -> tuple:
    return (reduce_sum(t * ans[1], [-3, -1]), None)


_ctc = defop("CTCLoss", _ctc_fwd, vjp=(_ctc_vjp, None, None, None), jvp=(_ctc_jvp, None, None, None), nout=2)


@constant_maker  # (labels and lengths through guarded reads)
def ctc_loss(labels: Any, logits: Any, label_length: Any, logit_length: Any, logits_time_major: bool = True,
             unique: Any = None, blank_index: Any = None, name: Any = None) -> Tensor:
    """Connectionist temporal classification loss, ``-log p(labels | logits)`` per batch entry.

    ``labels`` are dense ``[batch, max_label_length]`` (entries past ``label_length`` ignored);
    ``logits`` are ``[frames, batch, classes]`` (``[batch, frames, classes]`` when
    ``logits_time_major`` is False), frames past ``logit_length`` ignored; class ``blank_index``
    (default 0; negative counts from the end) is the blank. The gradient is TensorFlow's,
    ``softmax(logits) - posterior``; like TensorFlow's it has no second derivative.

    >>> import tapegrad as tf
    >>> logits = tf.zeros([3, 1, 2])  # 3 frames, 1 sequence, classes {blank, a}: p("a") = 6/8
    >>> tf.nn.ctc_loss([[1]], logits, [1], [3]).numpy().round(4)
    array([0.2877], dtype=float32)
    """
    x = as_tensor(logits)
    _check_kind(x, "f", "ctc_loss")
    lab = np.asarray(host_value(as_tensor(labels), "ctc_loss"))
    ll = np.asarray(host_value(as_tensor(label_length), "ctc_loss")).reshape(-1)
    tl = np.asarray(host_value(as_tensor(logit_length), "ctc_loss")).reshape(-1)
    if x._value.ndim != 3 or lab.ndim != 2:
        raise ValueError(f"ctc_loss: logits must be 3-D and labels 2-D (dense, padded), got shapes "
                         f"{list(x._value.shape)} and {list(lab.shape)}.")
    half = x._value.dtype == np.float16
    if half:
        x = cast(x, _dt.float32)
    if not logits_time_major:
        x = transpose(x, [1, 0, 2])
    n_t, n_b, n_k = x._value.shape
    if lab.shape[0] != n_b or ll.shape != (n_b,) or tl.shape != (n_b,):
        raise ValueError(f"ctc_loss: labels, label_length and logit_length must have the batch size "
                         f"{n_b} of logits, got shapes {list(lab.shape)}, {list(ll.shape)}, {list(tl.shape)}.")
    if (ll > lab.shape[1]).any() or (tl > n_t).any() or (ll < 0).any() or (tl < 0).any():
        raise InvalidArgumentError(f"ctc_loss: label_length must be in [0, {lab.shape[1]}] and "
                                   f"logit_length in [0, {n_t}], got {ll.tolist()} and {tl.tolist()}.")
    blank = 0 if blank_index is None else int(blank_index) % n_k
    if blank:
        x = concat([x[:, :, blank:blank + 1], x[:, :, :blank], x[:, :, blank + 1:]], 2)
        lab = np.where(lab < blank, lab + 1, lab)
    consts = [_wrap(np.asarray(a)) for a in (lab, ll, tl)]
    loss = apply(_ctc, (x, *consts))[0]
    return cast(loss, _dt.float16) if half else loss



def _collapse_fwd(labels: np.ndarray, seq_length: np.ndarray) -> tuple:
    rows = []
    for row, n in zip(labels, seq_length):
        r = row[:int(n)]
        rows.append(r[np.concatenate([[True], r[1:] != r[:-1]])] if len(r) else r)
    lengths = np.array([len(r) for r in rows], seq_length.dtype)
    out = np.zeros((len(rows), int(lengths.max(initial=0))), labels.dtype)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out, lengths


_collapse = defop("CollapseRepeated", _collapse_fwd, nondiff=True, nout=2)


def collapse_repeated(labels: Any, seq_length: Any, name: Any = None) -> tuple:
    """Merge runs of equal labels in each row (up to ``seq_length``): ``(labels, new_lengths)``,
    the rows zero-padded to the longest.

    >>> import tapegrad as tf
    >>> tf.nn.collapse_repeated([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0]], [5, 3])[0].numpy()
    array([[1, 2, 3],
           [4, 0, 0]], dtype=int32)
    """
    lab, n = as_tensor(labels), as_tensor(seq_length)
    if lab._value.ndim != 2 or n._value.shape != lab._value.shape[:1]:
        raise ValueError(f"collapse_repeated: labels must be [batch, time] and seq_length [batch], got "
                         f"shapes {list(lab._value.shape)} and {list(n._value.shape)}.")
    return apply(_collapse, (lab, n))


def batch_norm_with_global_normalization(input: Any, mean: Any, variance: Any, beta: Any, gamma: Any,  # noqa: A002
                                         variance_epsilon: Any, scale_after_normalization: bool,
                                         name: Any = None) -> Tensor:
    """:func:`batch_normalization` with ``gamma`` applied only when ``scale_after_normalization``
    (TensorFlow's older signature).

    >>> import tapegrad as tf
    >>> tf.nn.batch_norm_with_global_normalization(tf.constant([2.0]), 1.0, 4.0, 0.5, 3.0, 0.0, True).numpy()
    array([2.], dtype=float32)
    """
    return batch_normalization(input, mean, variance, beta, gamma if scale_after_normalization else None,
                               variance_epsilon)


# ---- keras.ops.ctc_decode's decoders: labels (paths, batch, time) padded with -1, and scores -----

def _greedy_ctc(logits: np.ndarray, lengths: np.ndarray, merge: bool, blank: int) -> tuple:
    batch, steps, classes = logits.shape
    blank = blank % classes
    order = [c for c in range(classes) if c != blank] + [blank]  # (TF moves the blank last)
    moved = logits[..., order]
    best = np.argmax(moved, axis=-1)
    out = np.full((1, batch, steps), -1, np.int32)
    scores = np.zeros((batch, 1), logits.dtype)
    for b in range(batch):
        prev, k = -1, 0
        for t in range(int(lengths[b])):
            c = int(best[b, t])
            scores[b, 0] -= moved[b, t, c]
            if c != classes - 1 and not (merge and c == prev):
                out[0, b, k] = c + (c >= blank)
                k += 1
            prev = c
    return out, scores


ctc_greedy_op = defop("CTCGreedyDecode", lambda x, n, merge, blank: _greedy_ctc(x, n, merge, blank), nout=2,
                      nondiff=True)


def _beam_ctc(logits: np.ndarray, lengths: np.ndarray, beam: int, top: int, blank: int) -> tuple:
    batch, steps, classes = logits.shape
    blank = blank % classes
    shifted = logits - logits.max(-1, keepdims=True)
    logp = (shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))).astype(np.float64)
    out = np.full((top, batch, steps), -1, np.int32)
    scores = np.full((batch, top), -np.inf, logits.dtype)
    for b in range(batch):
        beams = {(): (0.0, -np.inf)}  # prefix -> (log p ending in blank, log p ending in a label)
        for t in range(int(lengths[b])):
            nxt: dict = {}

            def add(key: tuple, pb: float, pnb: float) -> None:
                ob, onb = nxt.get(key, (-np.inf, -np.inf))
                nxt[key] = (np.logaddexp(ob, pb), np.logaddexp(onb, pnb))
            for prefix, (pb, pnb) in beams.items():
                total = np.logaddexp(pb, pnb)
                add(prefix, total + logp[b, t, blank], -np.inf)
                for c in range(classes):
                    if c == blank:
                        continue
                    lp = logp[b, t, c]
                    if prefix and prefix[-1] == c:
                        add(prefix + (c,), -np.inf, pb + lp)
                        add(prefix, -np.inf, pnb + lp)
                    else:
                        add(prefix + (c,), -np.inf, total + lp)
            ranked = sorted(nxt.items(), key=lambda kv: -np.logaddexp(*kv[1]))
            beams = dict(ranked[:beam])
        ranked = sorted(beams.items(), key=lambda kv: -np.logaddexp(*kv[1]))[:top]
        for i, (prefix, (pb, pnb)) in enumerate(ranked):
            out[i, b, :len(prefix)] = prefix
            scores[b, i] = np.logaddexp(pb, pnb)
    return out, scores


ctc_beam_op = defop("CTCBeamSearchDecode", lambda x, n, beam, top, blank: _beam_ctc(x, n, beam, top, blank),
                    nout=2, nondiff=True)


def _pav_segments(row: np.ndarray) -> np.ndarray:
    """Pool adjacent violators for a non-increasing fit: each entry's block number."""
    sums, counts = [], []
    for v in row.astype(np.float64):
        s, c = float(v), 1
        while sums and sums[-1] / counts[-1] < s / c:
            s, c = s + sums.pop(), c + counts.pop()
        sums.append(s)
        counts.append(c)
    return np.repeat(np.arange(len(counts), dtype=np.int32), counts)


@constant_maker  # (the segments: from a guarded read of the input)
def isotonic_regression(inputs: Any, decreasing: bool = True, axis: int = -1, name: Any = None) -> tuple:
    """The least-squares non-increasing (``decreasing``) or non-decreasing fit of each 1-D slice
    of ``inputs`` along ``axis``: ``(output, segments)``, the fit (each block the mean of its
    inputs, so the gradient is each block's mean gradient) and each entry's block (int32, from 0
    in each slice). Integers fit in float32 (int8/int16/uint8/uint16) or float64.

    >>> import tapegrad as tf
    >>> out, seg = tf.nn.isotonic_regression([[3.0, 1.0, 2.0]])
    >>> out.numpy(), seg.numpy()
    (array([[3. , 1.5, 1.5]], dtype=float32), array([[0, 1, 1]], dtype=int32))
    """
    x = as_tensor(inputs)
    k = x._value.dtype
    if k.kind in "iu":
        x = cast(x, _dt.float32 if k.itemsize <= 2 else _dt.float64)
    elif k.kind != "f":
        raise InvalidArgumentError(f"isotonic_regression takes real inputs, got {x.dtype.name}.")
    nd = x._value.ndim
    if nd == 0:
        raise ValueError("isotonic_regression takes inputs of rank 1 or more.")
    ax = norm_axis(axis, nd, "IsotonicRegression")
    perm = [i for i in range(nd) if i != ax] + [ax]
    xt = transpose(x, perm) if ax != nd - 1 else x
    shape = xt._value.shape
    n = shape[-1]
    flat = reshape(xt, [-1, n])
    rows = np.asarray(host_value(flat, "inputs"))
    sign = 1.0 if decreasing else -1.0
    seg = np.stack([_pav_segments(sign * r) for r in rows]) if rows.size else np.zeros(rows.shape, np.int32)
    gid = (seg + np.arange(rows.shape[0], dtype=np.int32)[:, None] * max(n, 1)).reshape(-1)
    means = unsorted_segment_mean(reshape(flat, [-1]), _wrap(gid), max(rows.shape[0] * n, 1))
    out = reshape(gather(means, _wrap(gid)), shape)
    seg_t = _wrap(seg.reshape(shape))
    if ax != nd - 1:
        inv = np.argsort(perm).tolist()
        out, seg_t = transpose(out, inv), transpose(seg_t, inv)
    return out, seg_t
