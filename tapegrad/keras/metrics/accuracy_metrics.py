"""The accuracy metrics and their functions (``binary_accuracy``, ``top_k_categorical_accuracy``, ...)."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._engine import constant
from .._engine import Tensor
from ...ops.array import reshape, squeeze
from ...ops.math import cast, equal, greater
from ...ops.reduction import argmax
from ..losses import _FLOATX, _pred, _same_rank, _to
from .reduction_metrics import MeanMetricWrapper


def _matches(y_true: Tensor, y_pred: Tensor) -> Tensor:
    return cast(equal(y_true, y_pred), _FLOATX)


def _accuracy(y_true: Any, y_pred: Any) -> Tensor:
    y_pred = _pred(y_pred)
    y_true, y_pred = _same_rank(_to(y_true, y_pred.dtype), y_pred)
    return _matches(y_true, y_pred)


def binary_accuracy(y_true: Any, y_pred: Any, threshold: float = 0.5) -> Tensor:
    """1.0 where ``y_pred > threshold`` equals the label, 0.0 elsewhere.

    >>> from tapegrad import keras
    >>> keras.metrics.binary_accuracy([1, 1, 0, 0], [0.98, 1, 0, 0.6]).numpy()
    array([1., 1., 1., 0.], dtype=float32)
    """
    y_pred = _pred(y_pred)
    y_true = _to(y_true)
    y_true, y_pred = _same_rank(y_true, y_pred)
    return _matches(y_true, cast(greater(y_pred, _to(threshold, y_pred.dtype)), y_true.dtype))


def categorical_accuracy(y_true: Any, y_pred: Any) -> Tensor:
    """1.0 where the largest prediction is at the one-hot label's class.

    >>> from tapegrad import keras
    >>> keras.metrics.categorical_accuracy([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]]).numpy()
    array([0., 1.], dtype=float32)
    """
    y_pred = _pred(y_pred)
    return sparse_categorical_accuracy(argmax(_to(y_true), axis=-1), y_pred)


def sparse_categorical_accuracy(y_true: Any, y_pred: Any) -> Tensor:
    """1.0 where the largest prediction is at the integer label's class.

    >>> from tapegrad import keras
    >>> keras.metrics.sparse_categorical_accuracy([[2], [1]], [[0.1, 0.6, 0.3], [0.05, 0.95, 0]]).numpy()
    array([0., 1.], dtype=float32)
    """
    y_pred = _pred(y_pred)
    y_true = _to(y_true, y_pred.dtype)
    shape = y_true.shape.as_list()
    reshape_back = y_true.shape.rank == y_pred.shape.rank and shape[-1] == 1
    if reshape_back:
        y_true = squeeze(y_true, -1)
    matches = _matches(y_true, cast(argmax(y_pred, axis=-1), y_true.dtype))
    if reshape_back:
        matches = reshape(matches, shape)
    if matches.shape.rank > 1 and matches.shape[-1] == 1:
        matches = squeeze(matches, -1)
    return matches


def _in_top_k(targets: np.ndarray, predictions: np.ndarray, k: int) -> np.ndarray:
    """TensorFlow's ``in_top_k``: the target's score is among the k largest (ties count in)."""
    rows = np.arange(predictions.shape[0])
    target_score = predictions[rows, targets]
    larger = (predictions > target_score[:, None]).sum(-1)
    return (larger < k) & np.isfinite(target_score)


def _top_k_matches(targets: Tensor, y_pred: Tensor, k: int) -> Tensor:
    shape = targets.shape.as_list()
    p = y_pred.numpy().reshape(-1, y_pred.shape[-1])
    hits = _in_top_k(targets.numpy().reshape(-1).astype(np.int64), p, k)
    return constant(hits.reshape(shape).astype(_FLOATX))


def top_k_categorical_accuracy(y_true: Any, y_pred: Any, k: int = 5) -> Tensor:
    """1.0 where the one-hot label's class is among the ``k`` largest predictions.

    >>> from tapegrad import keras
    >>> keras.metrics.top_k_categorical_accuracy([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]], k=1).numpy()
    array([0., 1.], dtype=float32)
    """
    return _top_k_matches(argmax(_to(y_true), axis=-1), _to(y_pred), k)


def sparse_top_k_categorical_accuracy(y_true: Any, y_pred: Any, k: int = 5,
                                      from_sorted_ids: bool = False) -> Tensor:
    """1.0 where the integer label is among the ``k`` largest predictions (or, with
    ``from_sorted_ids``, among the first ``k`` ids of ``y_pred``).

    >>> from tapegrad import keras
    >>> keras.metrics.sparse_top_k_categorical_accuracy([2, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]], k=1).numpy()
    array([0., 1.], dtype=float32)
    """
    y_pred = _pred(y_pred)
    y_true = _to(y_true)
    if not from_sorted_ids:
        return _top_k_matches(y_true, y_pred, k)
    t = y_true.numpy().reshape(-1)
    ids = y_pred.numpy().reshape(t.shape[0], -1)[:, :k]
    return constant((ids == t[:, None]).any(1).reshape(y_true.shape.as_list()).astype(_FLOATX))


class Accuracy(MeanMetricWrapper):
    """How often ``y_pred`` equals ``y_true`` exactly.

    >>> from tapegrad import keras
    >>> m = keras.metrics.Accuracy(); m.update_state([[1], [2], [3], [4]], [[0], [2], [3], [4]])
    >>> print(m.result().numpy())
    0.75
    """

    def __init__(self, name: str = "accuracy", dtype: Any = None) -> None:
        super().__init__(_accuracy, name=name, dtype=dtype)


class BinaryAccuracy(MeanMetricWrapper):
    """How often ``y_pred > threshold`` matches the binary label (:func:`binary_accuracy`)."""

    def __init__(self, name: str = "binary_accuracy", dtype: Any = None, threshold: float = 0.5) -> None:
        super().__init__(binary_accuracy, name=name, dtype=dtype, threshold=threshold)
        self.threshold = threshold


class CategoricalAccuracy(MeanMetricWrapper):
    """How often the argmax of ``y_pred`` is the one-hot label's class.

    >>> from tapegrad import keras
    >>> m = keras.metrics.CategoricalAccuracy()
    >>> m.update_state([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    >>> print(m.result().numpy())
    0.5
    """

    def __init__(self, name: str = "categorical_accuracy", dtype: Any = None) -> None:
        super().__init__(categorical_accuracy, name=name, dtype=dtype)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    """How often the argmax of ``y_pred`` is the integer label."""

    def __init__(self, name: str = "sparse_categorical_accuracy", dtype: Any = None) -> None:
        super().__init__(sparse_categorical_accuracy, name=name, dtype=dtype)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the one-hot label's class is among the ``k`` largest predictions."""

    def __init__(self, k: int = 5, name: str = "top_k_categorical_accuracy", dtype: Any = None) -> None:
        super().__init__(top_k_categorical_accuracy, name=name, dtype=dtype, k=k)
        self.k = k


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the integer label is among the ``k`` largest predictions."""

    def __init__(self, k: int = 5, name: str = "sparse_top_k_categorical_accuracy", dtype: Any = None,
                 from_sorted_ids: bool = False) -> None:
        super().__init__(sparse_top_k_categorical_accuracy, name=name, dtype=dtype, k=k,
                         from_sorted_ids=from_sorted_ids)
        self.k = k
        self.from_sorted_ids = from_sorted_ids
