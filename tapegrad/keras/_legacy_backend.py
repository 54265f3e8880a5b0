"""tf.keras's legacy backend functions (Keras 3's ``keras.src.legacy.backend``, which TF 2.21's
``tf.keras.backend`` exports): ``K.sum``, ``K.softmax``, ``K.batch_dot``, ``K.rnn``, ... with
Keras's argument names, defaults and dtype rules, written on tapegrad's ops so they
differentiate. Loaded by ``tapegrad.keras.backend`` on first use of one of these names.
"""
from __future__ import annotations

import builtins
import itertools
import math as _pymath
from typing import Any, Callable, Sequence

import numpy as np

from .. import image as _image
from ..ops import array as _a, conv as _conv, indexing as _ix, linalg as _la, math as _m
from ..ops import nn as _nn, reduction as _r, sort as _s, special as _sp
from ..sparse import SparseTensor, concat as _sparse_concat, to_dense as _sparse_to_dense
from ..sparse.ops import sparse_dense_matmul as _sparse_dense_matmul
from . import _engine as _cf
from ._engine import _nest, Tensor, Variable, convert_to_tensor
from ._engine import constant as _constant, gradients as _gradients, name_scope as _name_scope
from . import _logits
from . import ops as _ops
from ._keras_tensor import KerasTensor
from .backend import epsilon as _epsilon, floatx as _floatx, image_data_format as _image_data_format

# ---- elementwise and reductions -------------------------------------------------------------------


def abs(x: Any) -> Tensor:  # noqa: A001
    return _m.abs(x)


def all(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    return _r.reduce_all(_m.cast(x, "bool"), axis, keepdims)


def any(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    return _r.reduce_any(_m.cast(x, "bool"), axis, keepdims)


def argmax(x: Any, axis: int = -1) -> Tensor:
    return _r.argmax(x, axis)


def argmin(x: Any, axis: int = -1) -> Tensor:
    return _r.argmin(x, axis)


def _bool_to_floatx(x: Any) -> Any:
    x = convert_to_tensor(x)
    return _m.cast(x, _floatx()) if x.dtype.is_bool else x


def max(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    return _r.reduce_max(x, axis, keepdims)


def min(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    return _r.reduce_min(x, axis, keepdims)


def sum(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    return _r.reduce_sum(x, axis, keepdims)


def prod(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return _r.reduce_prod(x, axis, keepdims)


def mean(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return _r.reduce_mean(_bool_to_floatx(x), axis, keepdims)


def std(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return _r.reduce_std(_bool_to_floatx(x), axis=axis, keepdims=keepdims)


def var(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return _r.reduce_variance(_bool_to_floatx(x), axis=axis, keepdims=keepdims)


def cumsum(x: Any, axis: int = 0) -> Tensor:
    return _m.cumsum(x, axis=axis)


def cumprod(x: Any, axis: int = 0) -> Tensor:
    return _m.cumprod(x, axis=axis)


def cos(x: Any) -> Tensor:
    return _m.cos(x)


def sin(x: Any) -> Tensor:
    return _m.sin(x)


def exp(x: Any) -> Tensor:
    return _m.exp(x)


def log(x: Any) -> Tensor:
    return _m.log(x)


def round(x: Any) -> Tensor:  # noqa: A001
    return _sp.round(x)


def sign(x: Any) -> Tensor:
    return _m.sign(x)


def square(x: Any) -> Tensor:
    return _m.square(x)


def sqrt(x: Any) -> Tensor:
    """The square root of ``max(x, 0)``."""
    x = convert_to_tensor(x)
    return _m.sqrt(_m.maximum(x, convert_to_tensor(0.0, x.dtype)))


def pow(x: Any, a: Any) -> Tensor:  # noqa: A001
    return _m.pow(x, a)


def tanh(x: Any) -> Tensor:
    return _m.tanh(x)


def sigmoid(x: Any) -> Tensor:
    return _m.sigmoid(x)


def softplus(x: Any) -> Tensor:
    return _sp.softplus(x)


def softsign(x: Any) -> Tensor:
    return _nn.softsign(x)


def maximum(x: Any, y: Any) -> Tensor:
    return _m.maximum(x, y)


def minimum(x: Any, y: Any) -> Tensor:
    return _m.minimum(x, y)


def equal(x: Any, y: Any) -> Tensor:
    return _m.equal(x, y)


def not_equal(x: Any, y: Any) -> Tensor:
    return _m.not_equal(x, y)


def greater(x: Any, y: Any) -> Tensor:
    return _m.greater(x, y)


def greater_equal(x: Any, y: Any) -> Tensor:
    return _m.greater_equal(x, y)


def less(x: Any, y: Any) -> Tensor:
    return _m.less(x, y)


def less_equal(x: Any, y: Any) -> Tensor:
    return _m.less_equal(x, y)


def clip(x: Any, min_value: Any, max_value: Any) -> Tensor:
    """``x`` clipped to ``[min_value, max_value]`` (``None``: unbounded; a number ``max_value``
    below ``min_value`` is raised to it)."""
    if isinstance(min_value, (int, float)) and isinstance(max_value, (int, float)) and max_value < min_value:
        max_value = min_value
    return _m.clip_by_value(x, -np.inf if min_value is None else min_value,
                            np.inf if max_value is None else max_value)


# ---- activations ----------------------------------------------------------------------------------


def softmax(x: Any, axis: Any = -1) -> Tensor:
    """The softmax over ``axis`` (an int or a tuple of ints) of a tensor of rank 2 or more; the
    result keeps ``x`` as its logits (crossentropies use them, as in Keras)."""
    x = convert_to_tensor(x)
    if x.ndim <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")
    if isinstance(axis, int):
        out = _nn.softmax(x, axis=axis)
    else:
        e = _m.exp(x - _r.reduce_max(x, axis=axis, keepdims=True))
        out = e / _r.reduce_sum(e, axis=axis, keepdims=True)
    return _logits.attach(out, x)


def relu(x: Any, alpha: float = 0.0, max_value: Any = None, threshold: float = 0.0) -> Tensor:
    """``x`` above ``threshold`` (0 below), capped at ``max_value``, with slope ``alpha`` below
    ``threshold``."""
    return _ops._relu_static(x, alpha, max_value, threshold)


def elu(x: Any, alpha: float = 1.0) -> Tensor:
    res = _nn.elu(x)
    return res if alpha == 1 else _m.where(_m.greater(x, 0), res, alpha * res)


def hard_sigmoid(x: Any) -> Tensor:
    """``clip(0.2 * x + 0.5, 0, 1)``."""
    x = convert_to_tensor(x)
    y = x * convert_to_tensor(0.2, x.dtype) + convert_to_tensor(0.5, x.dtype)
    return _m.clip_by_value(y, 0.0, 1.0)


def dropout(x: Any, level: float, noise_shape: Any = None, seed: int | None = None) -> Tensor:
    """``tf.nn.dropout(x, rate=level)``; no ``seed``: one drawn by ``np.random.randint(10e6)``."""
    return _nn.dropout(x, rate=level, noise_shape=noise_shape,
                       seed=np.random.randint(10 ** 7) if seed is None else seed)


def l2_normalize(x: Any, axis: Any = None) -> Tensor:
    return _nn.l2_normalize(x, axis=axis)


def in_top_k(predictions: Any, targets: Any, k: int) -> Tensor:
    return _s.in_top_k(targets=targets, predictions=predictions, k=k)


# ---- losses ---------------------------------------------------------------------------------------


def _clipped(output: Tensor) -> Tensor:
    eps = convert_to_tensor(_epsilon(), output.dtype)
    return _m.clip_by_value(output, eps, 1.0 - eps)


def binary_crossentropy(target: Any, output: Any, from_logits: bool = False) -> Tensor:
    """Elementwise binary crossentropy (not averaged), of probabilities clipped to
    ``[epsilon, 1 - epsilon]`` (plus ``epsilon`` in the logarithms) or of logits."""
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    if from_logits:
        return _nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    output = _clipped(output)
    bce = target * _m.log(output + _epsilon())
    bce = bce + (1 - target) * _m.log(1 - output + _epsilon())
    return -bce


def binary_focal_crossentropy(target: Any, output: Any, apply_class_balancing: bool = False,
                              alpha: float = 0.25, gamma: float = 2.0, from_logits: bool = False) -> Tensor:
    """:func:`binary_crossentropy` times ``(1 - p_t) ** gamma`` (and the class weight ``alpha``
    for the ones, ``1 - alpha`` for the zeros, with ``apply_class_balancing``)."""
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    p = _m.sigmoid(output) if from_logits else output
    p_t = target * p + (1 - target) * (1 - p)
    out = _m.pow(1.0 - p_t, gamma) * binary_crossentropy(target, output, from_logits=from_logits)
    if apply_class_balancing:
        out = (target * alpha + (1 - target) * (1 - alpha)) * out
    return out


def _compatible(target: Tensor, output: Tensor) -> None:
    if not target.shape.is_compatible_with(output.shape):
        raise ValueError(f"Shapes {target.shape} and {output.shape} are incompatible")


def categorical_crossentropy(target: Any, output: Any, from_logits: bool = False, axis: int = -1) -> Tensor:
    """``-sum(target * log(p), axis)`` with ``p`` = ``output`` over its sum, clipped to
    ``[epsilon, 1 - epsilon]``, or the softmax of logits."""
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    _compatible(target, output)
    if from_logits:
        return _nn.softmax_cross_entropy_with_logits(labels=target, logits=output, axis=axis)
    output = _clipped(output / _r.reduce_sum(output, axis, True))
    return -_r.reduce_sum(target * _m.log(output), axis)


def categorical_focal_crossentropy(target: Any, output: Any, alpha: float = 0.25, gamma: float = 2.0,
                                   from_logits: bool = False, axis: int = -1) -> Tensor:
    """``sum(alpha * (1 - p) ** gamma * -target * log(p), axis)`` (``p`` as in
    :func:`categorical_crossentropy`)."""
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    _compatible(target, output)
    if from_logits:
        output = _nn.softmax(output, axis=axis)
    output = _clipped(output / _r.reduce_sum(output, axis=axis, keepdims=True))
    cce = -target * _m.log(output)
    return _r.reduce_sum(_m.pow(1.0 - output, gamma) * alpha * cce, axis=axis)


def sparse_categorical_crossentropy(target: Any, output: Any, from_logits: bool = False, axis: int = -1,
                                    ignore_class: int | None = None) -> Tensor:
    """The crossentropy against integer labels ``target``; entries labelled ``ignore_class``
    give 0."""
    target, output = _m.cast(convert_to_tensor(target), "int64"), convert_to_tensor(output)
    if not from_logits:
        output = _m.log(_clipped(output))
    rank = output.ndim
    axis %= rank
    if axis != rank - 1:
        output = _a.transpose(output, list(itertools.chain(range(axis), range(axis + 1, rank), [axis])))
    out_shape = output.shape.as_list()
    reshape = target.ndim != rank - 1
    if reshape:
        target = _a.reshape(target, [-1])
        output = _a.reshape(output, [-1, out_shape[-1]])
    if ignore_class is not None:
        valid = _m.not_equal(target, _m.cast(ignore_class, target.dtype))
        target, output = _ix.boolean_mask(target, valid), _ix.boolean_mask(output, valid)
    res = _nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    if ignore_class is not None:
        valid = _a.reshape(valid, out_shape[:-1])
        return _ix.scatter_nd(_m.where(valid), res, np.array(out_shape[:-1], np.int64))
    if reshape and rank >= 3:
        res = _a.reshape(res, out_shape[:-1])
    return res


def ctc_label_dense_to_sparse(labels: Any, label_lengths: Any) -> SparseTensor:
    """The first ``label_lengths[i]`` labels of each row of ``labels``, as a SparseTensor."""
    labels = convert_to_tensor(labels)
    lengths = np.asarray(convert_to_tensor(label_lengths).numpy()).reshape(-1)
    rows, cols = labels.shape.as_list()
    keep = np.arange(cols)[None, :] < lengths[:, None]
    indices = np.argwhere(keep).astype(np.int64)
    return SparseTensor(indices, _ix.gather_nd(labels, indices), np.array([rows, cols], np.int64))


def ctc_batch_cost(y_true: Any, y_pred: Any, input_length: Any, label_length: Any) -> Tensor:
    """The CTC loss of each batch element, shape ``(samples, 1)``: ``y_pred`` softmax outputs
    ``(samples, steps, classes)`` (the blank is the last class), ``y_true`` dense labels,
    ``input_length``/``label_length`` of shape ``(samples, 1)``."""
    label_length = _m.cast(_a.squeeze(convert_to_tensor(label_length), axis=-1), "int32")
    input_length = _m.cast(_a.squeeze(convert_to_tensor(input_length), axis=-1), "int32")
    y_pred = _m.log(_a.transpose(convert_to_tensor(y_pred), [1, 0, 2]) + _epsilon())
    loss = _nn.ctc_loss(labels=_m.cast(convert_to_tensor(y_true), "int32"), logits=y_pred,
                        label_length=label_length, logit_length=input_length, logits_time_major=True,
                        blank_index=-1)
    return _a.expand_dims(loss, 1)


def ctc_decode(y_pred: Any, input_length: Any, greedy: bool = True, beam_width: int = 100,
               top_paths: int = 1) -> tuple:
    """Decode softmax outputs ``(samples, steps, classes)`` (blank: the last class): a list of
    ``top_paths`` dense int64 label tensors ``(samples, steps)`` padded with -1, and the
    log-probabilities ``(samples, top_paths)``. Greedy decoding only in tapegrad."""
    if not greedy:
        raise NotImplementedError("ctc_decode(greedy=False): tapegrad has no CTC beam search; use "
                                  "greedy=True (best path decoding).")
    p = np.asarray(convert_to_tensor(y_pred).numpy())
    lengths = np.asarray(convert_to_tensor(input_length).numpy()).reshape(-1).astype(np.int64)
    logp = np.log(p + np.asarray(_epsilon(), p.dtype))
    n, steps, classes = p.shape
    decoded = np.full((n, steps), -1, np.int64)
    scores = np.zeros((n, 1), p.dtype)
    for i in range(n):
        best = logp[i, :lengths[i]].argmax(-1)
        scores[i, 0] = -logp[i, np.arange(lengths[i]), best].sum()
        labels = [c for j, c in enumerate(best) if c != classes - 1 and (j == 0 or c != best[j - 1])]
        decoded[i, :len(labels)] = labels
    return [convert_to_tensor(decoded)], convert_to_tensor(scores)


# ---- shapes and arrays ----------------------------------------------------------------------------


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = "int32") -> Tensor:
    """``tf.range`` (a negative ``start`` with no ``stop`` gives an empty range), int32 unless
    ``dtype`` says otherwise."""
    if stop is None and start < 0:
        start = 0
    out = _a.range(start, limit=stop, delta=step)
    return out if dtype == "int32" else _m.cast(out, dtype)


def cast(x: Any, dtype: Any) -> Tensor:
    return _m.cast(x, dtype)


def cast_to_floatx(x: Any) -> Any:
    """A tensor cast to :func:`floatx`, or a NumPy array of it for anything else."""
    if isinstance(x, (Tensor, Variable, SparseTensor)) or hasattr(x, "assign"):
        return _m.cast(x, _floatx())
    return np.asarray(x, dtype=_floatx())


def constant(value: Any, dtype: Any = None, shape: Any = None, name: str | None = None) -> Tensor:
    return _constant(value, dtype=dtype or _floatx(), shape=shape)


def concatenate(tensors: Sequence, axis: int = -1) -> Any:
    if axis < 0:
        rank = ndim(tensors[0])
        axis = axis % rank if rank else 0
    if builtins.all(is_sparse(x) for x in tensors):
        return _sparse_concat(axis, list(tensors))
    return _a.concat([to_dense(x) for x in tensors], axis)


def count_params(x: Any) -> int:
    return _pymath.prod(x.shape.as_list())


def dtype(x: Any) -> str:
    return x.dtype.name


def expand_dims(x: Any, axis: int = -1) -> Tensor:
    return _a.expand_dims(x, axis)


def flatten(x: Any) -> Tensor:
    return _a.reshape(x, [-1])


def batch_flatten(x: Any) -> Tensor:
    """``x`` as ``(batch, everything else)``."""
    x = convert_to_tensor(x)
    return _a.reshape(x, [-1, int(np.prod(x.shape.as_list()[1:], dtype=np.int64))])


def gather(reference: Any, indices: Any) -> Tensor:
    return _ix.gather(reference, indices)


def int_shape(x: Any) -> tuple | None:
    try:
        shape = x.shape
        return shape if isinstance(shape, tuple) else tuple(shape.as_list())
    except ValueError:
        return None


def ndim(x: Any) -> int | None:
    return x.shape.rank


def shape(x: Any) -> Tensor:
    return _a.shape(x)


def is_sparse(tensor: Any) -> bool:
    return isinstance(tensor, SparseTensor)


def to_dense(tensor: Any) -> Any:
    return _sparse_to_dense(tensor) if is_sparse(tensor) else tensor


def one_hot(indices: Any, num_classes: int) -> Tensor:
    return _a.one_hot(indices, depth=num_classes, axis=-1)


def permute_dimensions(x: Any, pattern: Sequence) -> Tensor:
    return _a.transpose(x, perm=pattern)


def transpose(x: Any) -> Tensor:
    return _a.transpose(x)


def reshape(x: Any, shape: Any) -> Tensor:
    return _a.reshape(x, shape)


def repeat(x: Any, n: int) -> Tensor:
    """``(batch, dim)`` -> ``(batch, n, dim)``, each row repeated ``n`` times."""
    x = convert_to_tensor(x)
    if x.ndim != 2:
        raise ValueError(f"Expected input `x` to have rank 2. Received: rank(x)={x.ndim}")
    return _a.tile(_a.expand_dims(x, 1), [1, n, 1])


def repeat_elements(x: Any, rep: int, axis: int) -> Tensor:
    """Each slice of ``x`` along ``axis`` repeated ``rep`` times in place (``np.repeat``)."""
    x = convert_to_tensor(x)
    return _ix.gather(x, np.repeat(np.arange(x.shape[axis]), rep), axis=axis)


def reverse(x: Any, axes: Any) -> Tensor:
    return _a.reverse(x, [axes] if isinstance(axes, int) else axes)


def squeeze(x: Any, axis: int) -> Tensor:
    return _a.squeeze(x, [axis])


def stack(x: Sequence, axis: int = 0) -> Tensor:
    return _a.stack(x, axis=axis)


def tile(x: Any, n: Any) -> Tensor:
    return _a.tile(x, [n] if isinstance(n, int) else n)


def stop_gradient(variables: Any) -> Any:
    """``tf.stop_gradient`` of a tensor, or of each one of a list (a ``map``, as Keras returns)."""
    if isinstance(variables, (list, tuple)):
        return map(_a.stop_gradient, variables)
    return _a.stop_gradient(variables)


def switch(condition: Any, then_expression: Any, else_expression: Any) -> Any:
    """``then_expression`` where ``condition`` holds, else ``else_expression``: a scalar
    condition picks one (either may be a function, called only when picked); otherwise
    elementwise, the condition broadcast over the trailing axes."""
    condition = convert_to_tensor(condition)
    if not condition.dtype.is_bool:
        condition = _m.cast(condition, "bool")
    if not condition.ndim:
        then_fn = then_expression if callable(then_expression) else (lambda: then_expression)
        else_fn = else_expression if callable(else_expression) else (lambda: else_expression)
        return _cf.cond(condition, then_fn, else_fn)
    then_expression = then_expression() if callable(then_expression) else convert_to_tensor(then_expression)
    else_expression = else_expression() if callable(else_expression) else convert_to_tensor(else_expression)
    cond_ndim, expr_ndim = condition.ndim, then_expression.ndim
    if cond_ndim > expr_ndim:
        raise ValueError("Rank of `condition` should be less than or equal to rank of `then_expression` "
                         f"and `else_expression`. ndim(condition)={cond_ndim}, "
                         f"ndim(then_expression)={expr_ndim}")
    if cond_ndim > 1:
        cond_shape = condition.shape.as_list() + [1] * (expr_ndim - cond_ndim)
        condition = _a.reshape(condition, cond_shape)
        expr_shape = then_expression.shape.as_list()
        condition = _a.tile(condition, [e if e - c > 0 else 1 for e, c in zip(expr_shape, cond_shape)])
    return _m.where(condition, then_expression, else_expression)


def temporal_padding(x: Any, padding: Sequence = (1, 1)) -> Tensor:
    """Zeros before and after the middle axis of a 3D tensor."""
    if len(padding) != 2:
        raise ValueError(f"Expected `padding` to be a tuple of 2 integers. Received: padding={padding}")
    return _a.pad(x, [[0, 0], [padding[0], padding[1]], [0, 0]])


def _data_format(data_format: Any) -> str:
    data_format = _image_data_format() if data_format is None else data_format
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Unknown data_format: {data_format}")
    return data_format


def _spatial_padding(x: Any, padding: Sequence, data_format: Any, n: int) -> Tensor:
    if len(padding) != n or builtins.any(len(p) != 2 for p in padding):
        raise ValueError(f"Expected `padding` to be a tuple of {n} tuples of 2 integers. "
                         f"Received: padding={padding}")
    pads = [list(p) for p in padding]
    if _data_format(data_format) == "channels_first":
        return _a.pad(x, [[0, 0], [0, 0]] + pads)
    return _a.pad(x, [[0, 0]] + pads + [[0, 0]])


def spatial_2d_padding(x: Any, padding: Sequence = ((1, 1), (1, 1)), data_format: Any = None) -> Tensor:
    return _spatial_padding(x, padding, data_format, 2)


def spatial_3d_padding(x: Any, padding: Sequence = ((1, 1), (1, 1), (1, 1)), data_format: Any = None) -> Tensor:
    return _spatial_padding(x, padding, data_format, 3)


def resize_images(x: Any, height_factor: int, width_factor: int, data_format: str,
                  interpolation: str = "nearest") -> Tensor:
    """The rows and columns of a 4D image batch scaled by integer factors (``tf.image.resize``)."""
    if data_format == "channels_first":
        rows = 2
    elif data_format == "channels_last":
        rows = 1
    else:
        raise ValueError(f"Invalid `data_format` argument: {data_format}")
    methods = ("area", "bicubic", "bilinear", "gaussian", "lanczos3", "lanczos5", "mitchellcubic", "nearest")
    if interpolation not in methods:
        raise ValueError("`interpolation` argument should be one of: " + ", ".join(f'"{m}"' for m in methods)
                         + f'. Received: "{interpolation}".')
    x = convert_to_tensor(x)
    size = [x.shape[rows] * height_factor, x.shape[rows + 1] * width_factor]
    if data_format == "channels_first":
        x = _a.transpose(x, [0, 2, 3, 1])
    x = _image.resize(x, size, method="nearest" if interpolation == "nearest" else interpolation)
    return _a.transpose(x, [0, 3, 1, 2]) if data_format == "channels_first" else x


def resize_volumes(x: Any, depth_factor: int, height_factor: int, width_factor: int, data_format: str) -> Tensor:
    """The three spatial axes of a 5D batch repeated by integer factors."""
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Invalid data_format: {data_format}")
    first = 2 if data_format == "channels_first" else 1
    for i, f in enumerate((depth_factor, height_factor, width_factor)):
        x = repeat_elements(x, f, axis=first + i)
    return x


# ---- products -------------------------------------------------------------------------------------


def dot(x: Any, y: Any) -> Tensor:
    """``x``'s last axis against ``y``'s second to last (``y``'s last for a vector... as a
    matrix): ``x.shape[:-1] + y.shape[:-2] + y.shape[-1:]``."""
    if is_sparse(x):
        return _sparse_dense_matmul(x, y)
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    if x.ndim > 2 or y.ndim > 2:
        xs, ys = x.shape.as_list(), y.shape.as_list()
        perm = list(range(y.ndim))
        perm = [perm.pop(-2)] + perm
        xt = _a.reshape(x, [-1, xs[-1]])
        yt = _a.reshape(_a.transpose(y, perm), [ys[-2], -1])
        return _a.reshape(_la.matmul(xt, yt), xs[:-1] + ys[:-2] + ys[-1:])
    return _la.matmul(x, y)


def batch_dot(x: Any, y: Any, axes: Any = None) -> Tensor:
    """Per batch element, the dot product of ``x`` and ``y`` over ``axes`` (``(ax, ay)`` or one
    int for both; default: ``x``'s last axis with ``y``'s last for a matrix, else its second to
    last). The result has ``x``'s other axes, then ``y``'s; a rank-2 operand's extra axis is
    dropped."""
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    xs, ys = x.shape.as_list(), y.shape.as_list()
    xn, yn = len(xs), len(ys)
    if xn < 2 or yn < 2:
        raise ValueError(f"Cannot do batch_dot on inputs with rank < 2. Received inputs with shapes "
                         f"{tuple(xs)} and {tuple(ys)}.")
    if xs[0] is not None and ys[0] is not None and xs[0] != ys[0]:
        raise ValueError(f"Cannot do batch_dot on inputs with different batch sizes. Received inputs "
                         f"with shapes {tuple(xs)} and {tuple(ys)}.")
    if isinstance(axes, int):
        axes = [axes, axes]
    if axes is None:
        axes = [xn - 1, yn - 1] if yn == 2 else [xn - 1, yn - 2]
    if builtins.any(isinstance(a, (list, tuple)) for a in axes):
        raise ValueError(f"Multiple target dimensions are not supported. Expected: None, int, (int, int), "
                         f"Provided: {axes}")
    a0, a1 = axes[0] % xn if axes[0] < 0 else axes[0], axes[1] % yn if axes[1] < 0 else axes[1]
    if a0 == 0 or a1 == 0:
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not batched, add a dummy "
                         "batch dimension to your inputs using K.expand_dims(x, 0)")
    if xs[a0] is not None and ys[a1] is not None and xs[a0] != ys[a1]:
        raise ValueError(f"Cannot do batch_dot on inputs with shapes {tuple(xs)} and {tuple(ys)} with "
                         f"axes={[a0, a1]}. x.shape[{a0}] != y.shape[{a1}] ({xs[a0]} != {ys[a1]}).")
    x = _a.transpose(x, [i for i in range(xn) if i != a0] + [a0])  # contracted axis last
    y = _a.transpose(y, [0, a1] + [i for i in range(1, yn) if i != a1])  # contracted axis second
    x_mid = [d for i, d in enumerate(xs) if i not in (0, a0)]
    y_rest = [d for i, d in enumerate(ys) if i not in (0, a1)]
    out = _la.matmul(_a.reshape(x, [-1 if xs[0] is None else xs[0], int(np.prod(x_mid, dtype=np.int64)), xs[a0]]),
                     _a.reshape(y, [-1 if ys[0] is None else ys[0], ys[a1], int(np.prod(y_rest, dtype=np.int64))]))
    shape = [-1 if xs[0] is None else xs[0]] + x_mid + y_rest
    if xn == 2 and yn == 2:
        shape = shape + [1]  # (Keras: two matrices give (batch, 1))
    return _a.reshape(out, shape)


def batch_normalization(x: Any, mean: Any, var: Any, beta: Any, gamma: Any, axis: int = -1,
                        epsilon: float = 1e-3) -> Tensor:
    return _nn.batch_normalization(x, mean, var, beta, gamma, epsilon)


def bias_add(x: Any, bias: Any, data_format: Any = None) -> Tensor:
    """``x`` plus ``bias`` (1D: along the channels axis of ``data_format``; else of ``x``'s
    shape without the batch axis)."""
    data_format = _data_format(data_format)
    x, bias = convert_to_tensor(x), convert_to_tensor(bias)
    bs = tuple(bias.shape.as_list())
    if len(bs) not in (1, x.ndim - 1):
        raise ValueError(f"Unexpected bias dimensions {len(bs)}. Expected it to be 1 or {x.ndim - 1} dimensions")
    if len(bs) == 1:
        return _nn.bias_add(x, bias, data_format="NCHW" if data_format == "channels_first" else "NHWC")
    if x.ndim in (3, 4, 5):
        if data_format == "channels_first":
            return x + _a.reshape(bias, (1, bs[-1]) + bs[:-1])
        return x + _a.reshape(bias, (1,) + bs)
    return _nn.bias_add(x, bias)


# ---- convolutions and pooling ---------------------------------------------------------------------


def _padding(padding: str) -> str:
    if padding not in ("same", "valid"):
        raise ValueError(f"Invalid padding: {padding}")
    return padding.upper()


def _conv_nd(x: Any, kernel: Any, strides: Any, padding: str, data_format: Any, dilation_rate: Any,
             layouts: tuple) -> Tensor:
    data_format = _data_format(data_format)
    return _conv.convolution(x, kernel, strides=strides, padding=_padding(padding),
                             data_format=layouts[data_format == "channels_first"], dilations=dilation_rate)


def conv1d(x: Any, kernel: Any, strides: int = 1, padding: str = "valid", data_format: Any = None,
           dilation_rate: int = 1) -> Tensor:
    """1D convolution (``padding``: ``"valid"``, ``"same"`` or ``"causal"``)."""
    if padding == "causal":
        x = temporal_padding(x, (dilation_rate * (convert_to_tensor(kernel).shape[0] - 1), 0))
        padding = "valid"
    return _conv_nd(x, kernel, strides, padding, data_format, dilation_rate, ("NWC", "NCW"))


def conv2d(x: Any, kernel: Any, strides: tuple = (1, 1), padding: str = "valid", data_format: Any = None,
           dilation_rate: tuple = (1, 1)) -> Tensor:
    return _conv_nd(x, kernel, strides, padding, data_format, dilation_rate, ("NHWC", "NCHW"))


def conv3d(x: Any, kernel: Any, strides: tuple = (1, 1, 1), padding: str = "valid", data_format: Any = None,
           dilation_rate: tuple = (1, 1, 1)) -> Tensor:
    first = _data_format(data_format) == "channels_first"
    wrap = (lambda t: (1, 1) + tuple(t)) if first else (lambda t: (1,) + tuple(t) + (1,))
    return _conv.conv3d(x, kernel, wrap(strides), _padding(padding), data_format="NCDHW" if first else "NDHWC",
                        dilations=wrap(dilation_rate))


def conv2d_transpose(x: Any, kernel: Any, output_shape: Sequence, strides: tuple = (1, 1),
                     padding: str = "valid", data_format: Any = None, dilation_rate: tuple = (1, 1)) -> Tensor:
    """The transposed 2D convolution giving ``output_shape`` (its batch may be None)."""
    data_format = _data_format(data_format)
    if tuple(dilation_rate) != (1, 1) and dilation_rate[0] != dilation_rate[1]:
        raise ValueError("Expected the 2 dimensions of the `dilation_rate` argument to be equal to each other. "
                         f"Received: dilation_rate={dilation_rate}")
    x = convert_to_tensor(x)
    first = data_format == "channels_first"
    if first:  # (computed channels-last)
        x = _a.transpose(x, (0, 2, 3, 1))
        output_shape = (output_shape[0], output_shape[2], output_shape[3], output_shape[1])
    if output_shape[0] is None:
        output_shape = (x.shape[0],) + tuple(output_shape[1:])
    out = _conv.conv2d_transpose(x, kernel, list(output_shape), (1,) + tuple(strides) + (1,),
                                 padding=_padding(padding), data_format="NHWC",
                                 dilations=None if tuple(dilation_rate) == (1, 1) else list(dilation_rate))
    return _a.transpose(out, (0, 3, 1, 2)) if first else out


def depthwise_conv2d(x: Any, depthwise_kernel: Any, strides: tuple = (1, 1), padding: str = "valid",
                     data_format: Any = None, dilation_rate: tuple = (1, 1)) -> Tensor:
    first = _data_format(data_format) == "channels_first"
    return _conv.depthwise_conv2d(x, depthwise_kernel, strides=(1, 1) + tuple(strides) if first else
                                  (1,) + tuple(strides) + (1,), padding=_padding(padding),
                                  data_format="NCHW" if first else "NHWC", dilations=dilation_rate)


def separable_conv2d(x: Any, depthwise_kernel: Any, pointwise_kernel: Any, strides: tuple = (1, 1),
                     padding: str = "valid", data_format: Any = None, dilation_rate: tuple = (1, 1)) -> Tensor:
    first = _data_format(data_format) == "channels_first"
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    return _conv.separable_conv2d(x, depthwise_kernel, pointwise_kernel,
                                  strides=(1, 1) + tuple(strides) if first else (1,) + tuple(strides) + (1,),
                                  padding=_padding(padding), data_format="NCHW" if first else "NHWC",
                                  dilations=dilation_rate)


def _pool(x: Any, pool_size: tuple, strides: tuple, padding: str, data_format: Any, pool_mode: str,
          layouts: tuple, ops: tuple) -> Tensor:
    first = _data_format(data_format) == "channels_first"
    if pool_mode not in ("max", "avg"):
        raise ValueError(f"Invalid pooling mode: {pool_mode}")
    op = ops[pool_mode == "avg"]
    wrap = (lambda t: (1, 1) + tuple(t)) if first else (lambda t: (1,) + tuple(t) + (1,))
    return op(x, wrap(pool_size), wrap(strides), padding=_padding(padding), data_format=layouts[first])


def pool2d(x: Any, pool_size: tuple, strides: tuple = (1, 1), padding: str = "valid", data_format: Any = None,
           pool_mode: str = "max") -> Tensor:
    if len(pool_size) != 2:
        raise ValueError("`pool_size` must be a tuple of 2 integers.")
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, ("NHWC", "NCHW"),
                 (_conv.max_pool2d, _conv.avg_pool2d))


def pool3d(x: Any, pool_size: tuple, strides: tuple = (1, 1, 1), padding: str = "valid", data_format: Any = None,
           pool_mode: str = "max") -> Tensor:
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, ("NDHWC", "NCDHW"),
                 (_conv.max_pool3d, _conv.avg_pool3d))


# ---- variables and values -------------------------------------------------------------------------


def variable(value: Any, dtype: Any = None, name: str | None = None, constraint: Callable | None = None) -> Any:
    """A ``tf.Variable`` of ``value`` in ``dtype`` (:func:`floatx` by default); a SciPy sparse
    matrix gives a SparseTensor."""
    dtype = dtype or _floatx()
    if hasattr(value, "tocoo"):
        coo = value.tocoo()
        return SparseTensor(np.stack([coo.row, coo.col], 1).astype(np.int64), coo.data, coo.shape)
    return Variable(value, dtype=dtype, name=name, constraint=constraint)


def _filled(fn: Callable, shape: Any, dtype: Any, name: str | None) -> Any:
    dtype = dtype or _floatx()
    v = fn(shape, dtype=dtype)
    return variable(v, dtype=dtype, name=name) if builtins.all(v.shape.as_list()) else v


def zeros(shape: Any, dtype: Any = None, name: str | None = None) -> Any:
    """A Variable of zeros (a tensor when the shape has a 0)."""
    return _filled(_a.zeros, shape, dtype, name)


def ones(shape: Any, dtype: Any = None, name: str | None = None) -> Any:
    """A Variable of ones (a tensor when the shape has a 0)."""
    return _filled(_a.ones, shape, dtype, name)


def eye(size: Any, dtype: Any = None, name: str | None = None) -> Variable:
    dtype = dtype or _floatx()
    return variable(_a.eye(size, dtype=dtype), dtype, name)


def zeros_like(x: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    return _m.zeros_like(x, dtype=dtype)


def ones_like(x: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    return _m.ones_like(x, dtype=dtype)


def get_value(x: Any) -> Any:
    """A tensor's or variable's value as a NumPy array (anything else as it is)."""
    return x.numpy() if hasattr(x, "numpy") else x


def eval(x: Any) -> Any:  # noqa: A001
    return get_value(to_dense(x))


def batch_get_value(tensors: Sequence) -> list:
    return [x.numpy() for x in tensors]


def set_value(x: Any, value: Any) -> None:
    x.assign(np.asarray(value, dtype=x.dtype.name))


def batch_set_value(tuples: Sequence) -> None:
    for x, value in tuples:
        set_value(x, value)


def update(x: Any, new_x: Any) -> Any:
    return x.assign(new_x)


def update_add(x: Any, increment: Any) -> Any:
    return x.assign_add(increment)


def update_sub(x: Any, decrement: Any) -> Any:
    return x.assign_sub(decrement)


def moving_average_update(x: Any, value: Any, momentum: Any) -> Any:
    """``x -= (x - value) * (1 - momentum)``."""
    momentum, value = _m.cast(momentum, x.dtype), _m.cast(value, x.dtype)
    return x.assign_sub((x - value) * (1 - momentum))


def gradients(loss: Any, variables: Any) -> Any:
    return _gradients(loss, variables)


def name_scope(name: str) -> Any:
    return _name_scope(name)


# ---- higher order ---------------------------------------------------------------------------------


def map_fn(fn: Callable, elems: Any, name: str | None = None, dtype: Any = None) -> Any:
    return _cf.map_fn(fn, elems, dtype=dtype)


def foldl(fn: Callable, elems: Any, initializer: Any = None, name: str | None = None) -> Any:
    return _cf.foldl(fn, elems, initializer=initializer)


def foldr(fn: Callable, elems: Any, initializer: Any = None, name: str | None = None) -> Any:
    return _cf.foldr(fn, elems, initializer=initializer)


def rnn(step_function: Callable, inputs: Any, initial_states: Sequence, go_backwards: bool = False,
        mask: Any = None, constants: Any = None, unroll: bool = False, input_length: Any = None,
        time_major: bool = False, zero_output_for_mask: bool = False, return_all_outputs: bool = True) -> tuple:
    """Run ``step_function(input_t, states + constants) -> (output, new_states)`` over the time
    axis of ``inputs`` (axis 1, or 0 with ``time_major``): ``(last_output, outputs, new_states)``.
    Where ``mask`` (``(batch, time)``) is False a step keeps the previous output and states
    (outputs zero with ``zero_output_for_mask``). ``unroll`` changes nothing in tapegrad (both
    run the steps in Python, but the new states are the step's own list or tuple with ``unroll``,
    a tuple without); with ``return_all_outputs=False`` ``outputs`` has one step."""
    swap = (lambda t: _a.transpose(t, [1, 0] + list(range(2, t.ndim))))
    inputs = _nest.map_structure(convert_to_tensor, inputs)
    if not time_major:
        inputs = _nest.map_structure(swap, inputs)
    flat = _nest.flatten(inputs)
    for t in flat:
        if t.ndim < 3:
            raise ValueError(f"Shape {t.shape} must have rank at least 3")
    steps = flat[0].shape[0]
    step_mask = None  # (k, i) -> (batch,) or (batch, 1) bool: whether step k (time i) counts
    if mask is not None:
        mask = convert_to_tensor(mask)
        mask = mask if mask.dtype.is_bool else _m.cast(mask, "bool")
        masks = _a.unstack(mask, axis=0 if time_major else 1)
        step_mask = (lambda k, i: masks[i])
    elif isinstance(input_length, Tensor):  # (Keras: steps past each row's length keep its state)
        lengths = input_length
        if go_backwards:
            lengths = _r.reduce_max(input_length, axis=0) - 1 - input_length
            step_mask = (lambda k, i: _m.less(lengths, k))
        else:
            step_mask = (lambda k, i: _m.greater(lengths, k))
    constants = list(constants or [])

    def expand(m: Tensor, like: Tensor) -> Tensor:
        while m.ndim < like.ndim:
            m = _a.expand_dims(m, -1)
        return m  # (where broadcasts it)

    order = range(steps - 1, -1, -1) if go_backwards else range(steps)
    states = tuple(initial_states)
    outputs: list = []
    prev = None
    for k, i in enumerate(order):
        inp = _nest.pack_sequence_as(inputs, [t[i] for t in flat])
        output, new_states = step_function(inp, tuple(states) + tuple(constants))
        if step_mask is not None:
            m = step_mask(k, i)
            keep = _m.zeros_like(output) if zero_output_for_mask or prev is None else prev
            output = _m.where(expand(m, output), output, keep)
            flat_old, flat_new = _nest.flatten(states), _nest.flatten(new_states)
            new_states = _nest.pack_sequence_as(  # (Keras: in the old states' structure)
                states, [_m.where(expand(m, n), n, o) for o, n in zip(flat_old, flat_new)])
        prev, states = output, new_states
        if return_all_outputs or not outputs:
            outputs.append(output)
        else:
            outputs[0] = output
    stacked = _a.stack(outputs)
    if not time_major:
        stacked = swap(stacked)
    return outputs[-1], stacked, states if unroll else tuple(states)  # (Keras: the while loop's tuple)


def is_keras_tensor(x: Any) -> bool:
    """Whether ``x`` is a symbolic tensor of a functional model (``keras.Input``'s result)."""
    return isinstance(x, KerasTensor)


# ---- random (the functions tapegrad.keras.backend defines itself) --------------------------------

from .backend import (random_bernoulli, random_normal, random_normal_variable,  # noqa: E402,F401
                      random_uniform, random_uniform_variable, truncated_normal)

NAMES = sorted(n for n, v in list(globals().items())
               if not n.startswith("_") and callable(v) and getattr(v, "__module__", "") == __name__
               and n not in ("SparseTensor", "Tensor", "Variable", "convert_to_tensor"))
