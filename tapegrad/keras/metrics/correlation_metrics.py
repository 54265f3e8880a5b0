"""Pearson's and the concordance correlation, as functions and as metrics."""
from __future__ import annotations

from typing import Any

from .._engine import Tensor
from ...ops.math import sqrt, square
from ...ops.reduction import reduce_mean, reduce_variance
from ..losses import _EPSILON, _pred, _same_rank, _to
from .reduction_metrics import MeanMetricWrapper


def pearson_correlation(y_true: Any, y_pred: Any, axis: int = -1) -> Tensor:
    """Pearson's correlation of ``y_true`` and ``y_pred`` along ``axis``.

    >>> from tapegrad import keras
    >>> print(keras.metrics.pearson_correlation([[1.0, 2.0, 3.0]], [[2.0, 4.0, 7.0]]).numpy().round(4))
    [0.9934]
    """
    y_pred = _pred(y_pred)
    y_true, y_pred = _same_rank(_to(y_true, y_pred.dtype), y_pred)
    t = y_true - reduce_mean(y_true, axis=axis, keepdims=True)
    p = y_pred - reduce_mean(y_pred, axis=axis, keepdims=True)
    t = t / sqrt(reduce_variance(t, axis=axis, keepdims=True))
    p = p / sqrt(reduce_variance(p, axis=axis, keepdims=True))
    return reduce_mean(t * p, axis=axis)


def concordance_correlation(y_true: Any, y_pred: Any, axis: int = -1) -> Tensor:
    """Lin's concordance correlation along ``axis``, as Keras computes it (its covariance term
    centres ``y_true`` on the mean of ``y_pred``).

    >>> from tapegrad import keras
    >>> print(keras.metrics.concordance_correlation([[1.0, 2.0, 3.0]], [[1.0, 2.0, 3.0]]).numpy().round(4))
    [1.]
    """
    y_pred = _pred(y_pred)
    y_true, y_pred = _same_rank(_to(y_true, y_pred.dtype), y_pred)
    t_mean = reduce_mean(y_true, axis=axis, keepdims=True)
    p_mean = reduce_mean(y_pred, axis=axis, keepdims=True)
    t_var = reduce_variance(y_true - t_mean, axis=axis, keepdims=True)
    p_var = reduce_variance(y_pred - p_mean, axis=axis, keepdims=True)
    covar = (y_true - p_mean) * (y_pred - p_mean)
    norm = t_var + p_var + square(t_mean - p_mean)
    return reduce_mean(2 * covar / (norm + _EPSILON), axis=axis)


class PearsonCorrelation(MeanMetricWrapper):
    """The mean of :func:`pearson_correlation` over every sample seen."""

    def __init__(self, name: str = "pearson_correlation", dtype: Any = None, axis: int = -1) -> None:
        super().__init__(pearson_correlation, name=name, dtype=dtype, axis=axis)
        self.axis = axis


class ConcordanceCorrelation(MeanMetricWrapper):
    """The mean of :func:`concordance_correlation` over every sample seen."""

    def __init__(self, name: str = "concordance_correlation", dtype: Any = None,
                 axis: int = -1) -> None:
        super().__init__(concordance_correlation, name=name, dtype=dtype, axis=axis)
        self.axis = axis
