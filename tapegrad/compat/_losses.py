"""``tf.compat.v1.losses``: TF1's losses, each reduced by ``compute_weighted_loss`` (default
``Reduction.SUM_BY_NONZERO_WEIGHTS``: the weighted sum over the number of nonzero weights) and,
in a graph, added to the ``LOSSES`` collection; and the collections' getters
(``get_losses``, ``get_regularization_losses``, ``get_regularization_loss``, ``get_total_loss``).

>>> import tapegrad as tf
>>> float(tf.compat.v1.losses.mean_squared_error([1.0, 2.0, 3.0], [1.0, 4.0, 3.0], weights=[1.0, 1.0, 0.0]))
2.0
"""
from __future__ import annotations

from typing import Any

from .. import math as _math, nn as _nn
from .._convert import convert_to_tensor
from ..ops.array import size as _size, stop_gradient
from ..ops.math import cast as _cast
from . import _graph

__all__ = ["Reduction", "absolute_difference", "add_loss", "compute_weighted_loss", "cosine_distance",
           "get_losses", "get_regularization_loss", "get_regularization_losses", "get_total_loss", "hinge_loss",
           "huber_loss", "log_loss", "mean_squared_error", "sigmoid_cross_entropy", "softmax_cross_entropy",
           "sparse_softmax_cross_entropy"]

LOSSES = "losses"


class Reduction:
    """How ``compute_weighted_loss`` reduces the weighted losses."""
    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls) -> tuple:
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE, cls.SUM_OVER_NONZERO_WEIGHTS,
                cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key: str) -> None:
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key}.")


def add_loss(loss: Any, loss_collection: str = LOSSES) -> None:
    """Add ``loss`` to the default graph's collection ``loss_collection`` (not in eager code)."""
    g = _graph._current()
    if loss_collection and g is not None:
        g.add_to_collection(loss_collection, loss)


def get_losses(scope: str | None = None, loss_collection: str = LOSSES) -> list:
    """The losses of the default graph's collection ``loss_collection``."""
    return _graph.get_default_graph().get_collection(loss_collection, scope)


def get_regularization_losses(scope: str | None = None) -> list:
    """The default graph's ``REGULARIZATION_LOSSES``."""
    return _graph.get_default_graph().get_collection(_graph.GraphKeys.REGULARIZATION_LOSSES, scope)


def get_regularization_loss(scope: str | None = None, name: str = "total_regularization_loss") -> Any:
    """The sum of the regularization losses (0.0 when there are none)."""
    losses = get_regularization_losses(scope)
    return _math.add_n(losses) if losses else convert_to_tensor(0.0)


def get_total_loss(add_regularization_losses: bool = True, name: str = "total_loss", scope: str | None = None) -> Any:
    """The sum of the collected losses (and regularization losses)."""
    losses = get_losses(scope) + (get_regularization_losses(scope) if add_regularization_losses else [])
    if not losses:
        raise ValueError("No losses found.")
    return _math.add_n(losses)


def compute_weighted_loss(losses: Any, weights: Any = 1.0, scope: Any = None, loss_collection: str = LOSSES,
                          reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """``losses * weights`` (weights broadcast to the losses' shape) reduced by ``reduction``."""
    Reduction.validate(reduction)
    losses = convert_to_tensor(losses)
    dtype = losses.dtype
    losses = _cast(losses, "float32")
    weights = _cast(convert_to_tensor(weights), losses.dtype)
    weighted = losses * weights
    if reduction == Reduction.NONE:
        loss = weighted
    else:
        loss = _math.reduce_sum(weighted)
        # each weight is repeated size(losses) / size(weights) times by the broadcast (ops, not
        # constants of the shapes: a TF1 graph runs them on the fed sizes)
        repeat = _cast(_size(weighted), losses.dtype) / _cast(_size(weights), losses.dtype)
        if reduction == Reduction.MEAN:
            loss = _math.divide_no_nan(loss, _math.reduce_sum(weights) * repeat)
        elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
            present = _math.reduce_sum(_cast(_math.not_equal(weights, 0.0), losses.dtype)) * repeat
            loss = _math.divide_no_nan(loss, present)
        elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
            loss = _math.divide_no_nan(loss, _cast(_size(weighted), losses.dtype))
    loss = _cast(loss, dtype)
    add_loss(loss, loss_collection)
    return loss


def _pair(labels: Any, predictions: Any) -> tuple:
    predictions = convert_to_tensor(predictions)
    labels = _cast(convert_to_tensor(labels), predictions.dtype)
    if not labels.shape.is_compatible_with(predictions.shape):
        raise ValueError(f"Shapes {labels.shape} and {predictions.shape} are incompatible")
    return labels, predictions


def absolute_difference(labels: Any, predictions: Any, weights: Any = 1.0, scope: Any = None,
                        loss_collection: str = LOSSES, reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """``|predictions - labels|``, weighted and reduced."""
    labels, predictions = _pair(labels, predictions)
    return compute_weighted_loss(_math.abs(predictions - labels), weights, scope, loss_collection, reduction)


def mean_squared_error(labels: Any, predictions: Any, weights: Any = 1.0, scope: Any = None,
                       loss_collection: str = LOSSES, reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """``(predictions - labels)^2``, weighted and reduced."""
    labels, predictions = _pair(labels, predictions)
    return compute_weighted_loss(_math.squared_difference(predictions, labels), weights, scope, loss_collection,
                                 reduction)


def huber_loss(labels: Any, predictions: Any, weights: Any = 1.0, delta: float = 1.0, scope: Any = None,
               loss_collection: str = LOSSES, reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """``0.5 * e^2`` where ``|e| <= delta``, ``delta * (|e| - 0.5 * delta)`` beyond."""
    labels, predictions = _pair(labels, predictions)
    error = _math.abs(predictions - labels)
    quadratic = _math.minimum(error, delta)
    linear = error - quadratic
    return compute_weighted_loss(0.5 * quadratic * quadratic + delta * linear, weights, scope, loss_collection,
                                 reduction)


def log_loss(labels: Any, predictions: Any, weights: Any = 1.0, epsilon: float = 1e-7, scope: Any = None,
             loss_collection: str = LOSSES, reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """``-labels * log(p + eps) - (1 - labels) * log(1 - p + eps)``."""
    labels, predictions = _pair(labels, predictions)
    losses = -labels * _math.log(predictions + epsilon) - (1.0 - labels) * _math.log(1.0 - predictions + epsilon)
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def hinge_loss(labels: Any, logits: Any, weights: Any = 1.0, scope: Any = None, loss_collection: str = LOSSES,
               reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """``relu(1 - (2 * labels - 1) * logits)`` (labels 0 or 1)."""
    labels, logits = _pair(labels, logits)
    return compute_weighted_loss(_nn.relu(1.0 - (2.0 * labels - 1.0) * logits), weights, scope, loss_collection,
                                 reduction)


def cosine_distance(labels: Any, predictions: Any, axis: Any = None, weights: Any = 1.0, scope: Any = None,
                    loss_collection: str = LOSSES, reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS,
                    dim: Any = None) -> Any:
    """``1 - sum(labels * predictions, axis)`` (both unit-normalized along ``axis``)."""
    axis = dim if axis is None else axis
    if axis is None:
        raise ValueError("You must specify argument `axis`.")
    labels, predictions = _pair(labels, predictions)
    losses = 1.0 - _math.reduce_sum(labels * predictions, axis=axis, keepdims=True)
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def sigmoid_cross_entropy(multi_class_labels: Any, logits: Any, weights: Any = 1.0, label_smoothing: float = 0,
                          scope: Any = None, loss_collection: str = LOSSES,
                          reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Sigmoid cross-entropy of ``logits``; labels smoothed towards 1/2 by ``label_smoothing``."""
    labels, logits = _pair(multi_class_labels, logits)
    if label_smoothing > 0:
        labels = labels * (1 - label_smoothing) + 0.5 * label_smoothing
    losses = _nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def softmax_cross_entropy(onehot_labels: Any, logits: Any, weights: Any = 1.0, label_smoothing: float = 0,
                          scope: Any = None, loss_collection: str = LOSSES,
                          reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Softmax cross-entropy of ``logits`` (one row per example); labels smoothed towards
    uniform by ``label_smoothing``; no gradient reaches the labels."""
    labels, logits = _pair(onehot_labels, logits)
    if label_smoothing > 0:
        n = _cast(logits.shape[-1], logits.dtype)
        labels = labels * (1 - label_smoothing) + label_smoothing / n
    losses = _nn.softmax_cross_entropy_with_logits(labels=stop_gradient(labels), logits=logits)
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def sparse_softmax_cross_entropy(labels: Any, logits: Any, weights: Any = 1.0, scope: Any = None,
                                 loss_collection: str = LOSSES,
                                 reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Softmax cross-entropy of ``logits`` against integer class ``labels``."""
    losses = _nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)
