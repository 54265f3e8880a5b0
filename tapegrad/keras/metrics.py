"""``tapegrad.keras.metrics``: Keras 3's metrics. A metric keeps its state in non-trainable
tapegrad Variables (``variables``); ``update_state(y_true, y_pred, sample_weight=None)`` adds a
batch, ``result()`` reads the value so far, ``reset_state()`` starts again. Also the metric
functions (``binary_accuracy``, ``categorical_accuracy``, ... and the loss functions),
:func:`get`, and :func:`resolve_metric`, which gives ``"accuracy"`` the meaning ``Model.compile``
gives it.

>>> from tapegrad import keras
>>> m = keras.metrics.BinaryAccuracy()
>>> m.update_state([[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]])
>>> print(m.result().numpy())
0.75
>>> m.update_state([[1], [0]], [[0.2], [0.3]], sample_weight=[1.0, 3.0])
>>> print(m.result().numpy().round(4))
0.75
"""
from __future__ import annotations

import difflib
import inspect
import warnings
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from .. import dtypes as _dt
from .._convert import constant
from .._tensor import Tensor
from .._variable import Variable, VariableSynchronization
from ..ops.array import broadcast_to, reshape, squeeze
from ..ops.math import cast, equal, greater, sqrt, square
from ..ops.reduction import argmax, reduce_mean, reduce_sum, reduce_variance
from ..ops.special import divide_no_nan
from ._layer import _aggregation
from .losses import (_EPSILON, _FLOATX, _l2_normalize, _mask_weight, _missing_name, _pred, _same_rank,
                     _snake, _sparse_cce,
                     _to, binary_crossentropy, binary_focal_crossentropy, categorical_crossentropy,
                     categorical_focal_crossentropy, categorical_hinge, hinge, huber, kl_divergence,
                     log_cosh, mean_absolute_error, mean_absolute_percentage_error, mean_squared_error,
                     mean_squared_logarithmic_error, poisson, sparse_categorical_crossentropy,
                     squared_hinge)

__all__ = [
    "Metric", "Mean", "Sum", "MeanMetricWrapper", "MeanSquaredError", "MeanAbsoluteError",
    "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError", "RootMeanSquaredError",
    "CosineSimilarity", "LogCoshError", "Accuracy", "BinaryAccuracy", "CategoricalAccuracy",
    "SparseCategoricalAccuracy", "TopKCategoricalAccuracy", "SparseTopKCategoricalAccuracy",
    "TruePositives", "TrueNegatives", "FalsePositives", "FalseNegatives", "Precision", "Recall",
    "AUC", "BinaryCrossentropy", "CategoricalCrossentropy", "SparseCategoricalCrossentropy",
    "KLDivergence", "Poisson", "Hinge", "SquaredHinge", "CategoricalHinge",
    "binary_accuracy", "categorical_accuracy", "sparse_categorical_accuracy",
    "top_k_categorical_accuracy", "sparse_top_k_categorical_accuracy",
    "binary_crossentropy", "binary_focal_crossentropy", "categorical_crossentropy",
    "categorical_focal_crossentropy", "sparse_categorical_crossentropy", "categorical_hinge",
    "hinge", "squared_hinge", "huber", "kl_divergence", "log_cosh", "mean_absolute_error",
    "mean_absolute_percentage_error", "mean_squared_error", "mean_squared_logarithmic_error",
    "poisson", "get", "serialize", "deserialize", "resolve_metric",
    "FBetaScore", "F1Score", "R2Score", "IoU", "MeanIoU", "BinaryIoU", "OneHotIoU", "OneHotMeanIoU",
    "SensitivityAtSpecificity", "SpecificityAtSensitivity", "PrecisionAtRecall",
    "RecallAtPrecision", "PearsonCorrelation", "ConcordanceCorrelation", "pearson_correlation",
    "concordance_correlation",
]

NEG_INF = -1e10


class Metric:
    """Base class of the metrics: state in :meth:`add_variable` Variables, updated by
    :meth:`update_state` and read by :meth:`result`; calling a metric updates it and returns the
    result.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> class Count(keras.metrics.Metric):
    ...     def __init__(self, name="count"):
    ...         super().__init__(name=name)
    ...         self.n = self.add_variable(shape=(), initializer="zeros", name="n")
    ...     def update_state(self, values, sample_weight=None):
    ...         self.n.assign_add(tf.cast(tf.size(values), self.dtype))
    ...     def result(self):
    ...         return tf.identity(self.n)
    >>> c = Count(); c.update_state([1, 2, 3]); print(c([4]).numpy())
    4.0
    """

    def __init__(self, dtype: Any = None, name: str | None = None) -> None:
        self.name = name or _snake(type(self).__name__)
        self._dtype = _dt.as_dtype(dtype or _FLOATX).name
        self._variables: list[Variable] = []

    @property
    def dtype(self) -> str:
        return self._dtype

    @property
    def variables(self) -> list[Variable]:
        """The state Variables, in the order they were added."""
        return list(self._variables)

    def add_variable(self, shape: Any, initializer: Any = "zeros", dtype: Any = None,
                     aggregation: str = "sum", name: str | None = None) -> Variable:
        """A new non-trainable state Variable of ``shape``, zeros (or ``"ones"``, or a callable
        ``initializer(shape, dtype)``). As in Keras, it is synchronized on read: under a
        mirrored strategy each replica keeps its own state, and reading it outside the replicas
        combines them by ``aggregation`` (``"sum"``, ``"mean"``, ``"only_first_replica"``)."""
        dtype = _dt.as_dtype(dtype or self.dtype).as_numpy_dtype
        if callable(initializer):
            value = initializer(tuple(shape), dtype)
        elif initializer in ("zeros", None) or type(initializer).__name__ == "Zeros":
            value = np.zeros(shape, dtype)
        elif initializer == "ones":
            value = np.ones(shape, dtype)
        else:
            raise ValueError(f"Metric.add_variable: unknown initializer {initializer!r}; use "
                             "'zeros', 'ones' or a callable initializer(shape, dtype).")
        v = Variable(value, trainable=False, name=name, dtype=dtype,
                     synchronization=VariableSynchronization.ON_READ, aggregation=_aggregation(aggregation))
        self._variables.append(v)
        return v

    def add_weight(self, shape: Any = (), initializer: Any = None, dtype: Any = None,
                   name: str | None = None) -> Variable:
        return self.add_variable(shape, initializer, dtype=dtype, name=name)

    def reset_state(self) -> None:
        """Set every state Variable back to zeros."""
        for v in self._variables:
            v.assign(np.zeros(v.shape.as_list(), v.dtype.as_numpy_dtype))

    def update_state(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} must define update_state")

    def result(self) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__} must define result")

    def __call__(self, *args: Any, **kwargs: Any) -> Tensor:
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config: dict) -> Metric:
        return cls(**config)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}>"


def _samplewise(values: Any, sample_weight: Any, reduce_fn: Callable, dtype: str,
                mask: Tensor | None = None) -> tuple[Tensor, Tensor | None]:
    """Keras's ``reduce_to_samplewise_values``: weight the values and reduce them to one per
    sample."""
    values = _to(values, dtype)
    if sample_weight is not None or mask is not None:
        if sample_weight is not None:
            sample_weight = _to(sample_weight, dtype)
        if mask is not None:
            sample_weight = _mask_weight(sample_weight, mask, values.dtype, "sum")
        values, sample_weight = _same_rank(values, sample_weight)
        w_nd, v_nd = sample_weight.shape.rank, values.shape.rank
        if v_nd > w_nd:
            values = reduce_fn(values, axis=list(range(w_nd, v_nd)))
        sample_weight = broadcast_to(sample_weight, values.shape.as_list())
        values = values * sample_weight
        if w_nd > 1:
            sample_weight = reduce_fn(sample_weight, axis=list(range(1, w_nd)))
    if values.shape.rank > 1:
        values = reduce_fn(values, axis=list(range(1, values.shape.rank)))
    return values, sample_weight


class Sum(Metric):
    """The (weighted) sum of the values given.

    >>> from tapegrad import keras
    >>> m = keras.metrics.Sum(); m.update_state([1.0, 3.0, 5.0, 7.0]); print(m.result().numpy())
    16.0
    """

    def __init__(self, name: str = "sum", dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable((), name="total")

    def update_state(self, values: Any, sample_weight: Any = None) -> None:
        values, _ = _samplewise(values, sample_weight, reduce_sum, self.dtype)
        self.total.assign_add(reduce_sum(values))

    def result(self) -> Tensor:
        return cast(self.total, self.dtype)


class Mean(Metric):
    """The (weighted) mean of the values given: ``Σ w·v / Σ w``.

    >>> from tapegrad import keras
    >>> m = keras.metrics.Mean()
    >>> m.update_state([1.0, 3.0, 5.0, 7.0], sample_weight=[1, 1, 0, 0]); print(m.result().numpy())
    2.0
    """

    def __init__(self, name: str = "mean", dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable((), name="total")
        self.count = self.add_variable((), name="count")

    def update_state(self, values: Any, sample_weight: Any = None, _mask: Tensor | None = None) -> None:
        values, sample_weight = _samplewise(values, sample_weight, reduce_mean, self.dtype, _mask)
        self.total.assign_add(reduce_sum(values))
        if sample_weight is not None:
            n: Any = reduce_sum(sample_weight)
        else:
            n = float(values.shape[0]) if values.shape.rank >= 1 else 1.0
        self.count.assign_add(cast(n, self.dtype) if isinstance(n, Tensor) else n)

    def result(self) -> Tensor:
        return divide_no_nan(self.total.read_value(), self.count.read_value())


class MeanMetricWrapper(Mean):
    """The mean of a per-sample function ``fn(y_true, y_pred, **kwargs)`` over every sample seen.

    >>> from tapegrad import keras
    >>> m = keras.metrics.MeanMetricWrapper(keras.losses.huber, delta=0.5)
    >>> m.update_state([[0.0, 0.0]], [[1.0, 0.2]]); print(m.result().numpy().round(4))
    0.1975
    """

    def __init__(self, fn: Callable, name: str | None = None, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(name=name or getattr(fn, "__name__", None) or _snake(type(self).__name__),
                         dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def _values(self, y_true: Any, y_pred: Any) -> tuple[Tensor, Tensor | None]:
        return self._fn(y_true, y_pred, **self._fn_kwargs), None

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:  # type: ignore[override]
        values, mask = self._values(y_true, y_pred)
        super().update_state(values, sample_weight, _mask=mask)

    def get_config(self) -> dict:
        return {**super().get_config(), **self._fn_kwargs}


# ---- regression --------------------------------------------------------------------------------

class MeanSquaredError(MeanMetricWrapper):
    """The mean of :func:`mean_squared_error` over every sample seen.

    >>> from tapegrad import keras
    >>> m = keras.metrics.MeanSquaredError(); m.update_state([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    >>> print(m.result().numpy())
    0.25
    """

    def __init__(self, name: str = "mean_squared_error", dtype: Any = None) -> None:
        super().__init__(mean_squared_error, name=name, dtype=dtype)


class MeanAbsoluteError(MeanMetricWrapper):
    """The mean of :func:`mean_absolute_error` over every sample seen."""

    def __init__(self, name: str = "mean_absolute_error", dtype: Any = None) -> None:
        super().__init__(mean_absolute_error, name=name, dtype=dtype)


class MeanAbsolutePercentageError(MeanMetricWrapper):
    """The mean of :func:`mean_absolute_percentage_error` over every sample seen."""

    def __init__(self, name: str = "mean_absolute_percentage_error", dtype: Any = None) -> None:
        super().__init__(mean_absolute_percentage_error, name=name, dtype=dtype)


class MeanSquaredLogarithmicError(MeanMetricWrapper):
    """The mean of :func:`mean_squared_logarithmic_error` over every sample seen."""

    def __init__(self, name: str = "mean_squared_logarithmic_error", dtype: Any = None) -> None:
        super().__init__(mean_squared_logarithmic_error, name=name, dtype=dtype)


class LogCoshError(MeanMetricWrapper):
    """The mean of :func:`log_cosh` over every sample seen."""

    def __init__(self, name: str = "logcosh", dtype: Any = None) -> None:
        super().__init__(log_cosh, name=name, dtype=dtype)


def _cosine(y_true: Any, y_pred: Any, axis: int = -1) -> Tensor:
    y_pred = _pred(y_pred)
    y_true, y_pred = _same_rank(_to(y_true, y_pred.dtype), y_pred)
    return reduce_sum(_l2_normalize(y_true, axis) * _l2_normalize(y_pred, axis), axis=axis)


class CosineSimilarity(MeanMetricWrapper):
    """The mean cosine similarity along ``axis`` (positive: 1 when aligned).

    >>> from tapegrad import keras
    >>> m = keras.metrics.CosineSimilarity(); m.update_state([[0., 1.], [1., 1.]], [[1., 0.], [1., 1.]])
    >>> print(m.result().numpy().round(4))
    0.5
    """

    def __init__(self, name: str = "cosine_similarity", dtype: Any = None, axis: int = -1) -> None:
        super().__init__(_cosine, name=name, dtype=dtype, axis=axis)


class RootMeanSquaredError(Mean):
    """``sqrt`` of the mean squared error over every entry seen.

    >>> from tapegrad import keras
    >>> m = keras.metrics.RootMeanSquaredError(); m.update_state([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    >>> print(m.result().numpy())
    0.5
    """

    def __init__(self, name: str = "root_mean_squared_error", dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:  # type: ignore[override]
        y_true, y_pred = _same_rank(_to(y_true, self.dtype), _to(y_pred, self.dtype))
        super().update_state((y_pred - y_true) * (y_pred - y_true), sample_weight)

    def result(self) -> Tensor:
        return sqrt(super().result())


# ---- accuracy ----------------------------------------------------------------------------------

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


# ---- probabilistic and hinge (the loss functions, averaged) -------------------------------------

class BinaryCrossentropy(MeanMetricWrapper):
    """The mean of :func:`binary_crossentropy` over every sample seen."""

    def __init__(self, name: str = "binary_crossentropy", dtype: Any = None, from_logits: bool = False,
                 label_smoothing: float = 0) -> None:
        super().__init__(binary_crossentropy, name=name, dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing)


class CategoricalCrossentropy(MeanMetricWrapper):
    """The mean of :func:`categorical_crossentropy` over every sample seen."""

    def __init__(self, name: str = "categorical_crossentropy", dtype: Any = None, from_logits: bool = False,
                 label_smoothing: float = 0, axis: int = -1) -> None:
        super().__init__(categorical_crossentropy, name=name, dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(MeanMetricWrapper):
    """The mean of :func:`sparse_categorical_crossentropy` over the samples seen (those labelled
    ``ignore_class`` left out)."""

    def __init__(self, name: str = "sparse_categorical_crossentropy", dtype: Any = None,
                 from_logits: bool = False, ignore_class: int | None = None, axis: int = -1) -> None:
        super().__init__(sparse_categorical_crossentropy, name=name, dtype=dtype,
                         from_logits=from_logits, ignore_class=ignore_class, axis=axis)

    def _values(self, y_true: Any, y_pred: Any) -> tuple[Tensor, Tensor | None]:
        kw = self._fn_kwargs
        return _sparse_cce(y_true, y_pred, kw["from_logits"], kw["ignore_class"], kw["axis"])


class KLDivergence(MeanMetricWrapper):
    """The mean of :func:`kl_divergence` over every sample seen."""

    def __init__(self, name: str = "kl_divergence", dtype: Any = None) -> None:
        super().__init__(kl_divergence, name=name, dtype=dtype)


class Poisson(MeanMetricWrapper):
    """The mean of :func:`poisson` over every sample seen."""

    def __init__(self, name: str = "poisson", dtype: Any = None) -> None:
        super().__init__(poisson, name=name, dtype=dtype)


class Hinge(MeanMetricWrapper):
    """The mean of :func:`hinge` over every sample seen."""

    def __init__(self, name: str = "hinge", dtype: Any = None) -> None:
        super().__init__(hinge, name=name, dtype=dtype)


class SquaredHinge(MeanMetricWrapper):
    """The mean of :func:`squared_hinge` over every sample seen."""

    def __init__(self, name: str = "squared_hinge", dtype: Any = None) -> None:
        super().__init__(squared_hinge, name=name, dtype=dtype)


class CategoricalHinge(MeanMetricWrapper):
    """The mean of :func:`categorical_hinge` over every sample seen."""

    def __init__(self, name: str = "categorical_hinge", dtype: Any = None) -> None:
        super().__init__(categorical_hinge, name=name, dtype=dtype)


# ---- confusion-matrix metrics -------------------------------------------------------------------
# Counts are not differentiable: they are computed in NumPy, in float32 as Keras computes them.

def _np_same_rank(x1: np.ndarray, x2: np.ndarray, expand_rank_1: bool = True) -> tuple:
    r1, r2 = x1.ndim, x2.ndim
    if r1 == r2 + 1 and x1.shape[-1] == 1:
        if r2 == 1 and expand_rank_1:
            x2 = x2[..., None]
        else:
            x1 = x1[..., 0]
    if r2 == r1 + 1 and x2.shape[-1] == 1:
        if r1 == 1 and expand_rank_1:
            x1 = x1[..., None]
        else:
            x2 = x2[..., 0]
    return x1, x2


def _array(x: Any, dtype: Any) -> np.ndarray:
    return np.asarray(x.numpy() if isinstance(x, (Tensor, Variable)) else x, dtype)


def _filter_top_k(x: np.ndarray, k: int) -> np.ndarray:
    idx = np.argsort(-x, axis=-1, kind="stable")[..., :k]
    mask = np.zeros_like(x)
    np.put_along_axis(mask, idx, 1.0, axis=-1)
    return x * mask + np.float32(NEG_INF) * (1 - mask)


def _is_evenly_distributed(thresholds: Any) -> bool:
    n = len(thresholds)
    return n >= 3 and bool(np.allclose(thresholds, np.arange(n, dtype=np.float32) / (n - 1),
                                       atol=_EPSILON))


def _confusion_counts(y_true: Any, y_pred: Any, thresholds: np.ndarray, evenly: bool,
                      top_k: int | None = None, class_id: int | None = None, sample_weight: Any = None,
                      multi_label: bool = False, label_weights: Any = None) -> dict:
    """Keras's ``update_confusion_matrix_variables``: the counts ``tp, fp, tn, fn`` per threshold
    (per threshold and label with ``multi_label``) of one batch."""
    f = np.float32
    yt, yp = _array(y_true, f), _array(y_pred, f)
    yp, yt = _np_same_rank(yp, yt)
    sw = None
    if sample_weight is not None:
        sw = _array(sample_weight, f)[..., None]
        _, sw = _np_same_rank(yt, sw, expand_rank_1=False)
    if top_k is not None:
        yp = _filter_top_k(yp, top_k)
    if class_id is not None:
        if yp.ndim == 1:
            raise ValueError("When class_id is provided, y_pred must be a 2D array with shape "
                             f"(num_samples, num_classes), found shape: {yp.shape}")
        yt, yp = yt[..., class_id, None], yp[..., class_id, None]
    weights = np.ones_like(yp) if sw is None else np.broadcast_to(sw, yp.shape).astype(f)
    if label_weights is not None:
        weights = weights * np.broadcast_to(_array(label_weights, f)[None], yp.shape)
    is_true = (yt != 0).astype(f)
    if not multi_label:
        is_true, yp, weights = is_true.reshape(-1), yp.reshape(-1), weights.reshape(-1)
    true_w, false_w = is_true * weights, (1 - is_true) * weights
    n = len(thresholds)
    if evenly:  # Keras's bucketing: each prediction counts at the thresholds below it
        bucket = np.ceil(np.clip(yp, 0, 1) * f(n - 1)) - 1
        if thresholds[0] < 0 or thresholds[-1] > 1:
            bucket = np.maximum(bucket, 0)
        bucket = bucket.astype(np.int64)
        keep = bucket >= 0
        if multi_label:
            cols = np.broadcast_to(np.arange(yp.shape[1]), yp.shape)
            tp_b, fp_b = np.zeros((n, yp.shape[1]), f), np.zeros((n, yp.shape[1]), f)
            np.add.at(tp_b, (bucket[keep], cols[keep]), true_w[keep])
            np.add.at(fp_b, (bucket[keep], cols[keep]), false_w[keep])
        else:
            tp_b = np.bincount(bucket[keep], true_w[keep], minlength=n).astype(f)
            fp_b = np.bincount(bucket[keep], false_w[keep], minlength=n).astype(f)
        tp = np.cumsum(tp_b[::-1], axis=0, dtype=f)[::-1]
        fp = np.cumsum(fp_b[::-1], axis=0, dtype=f)[::-1]
        axis = 0 if multi_label else None
        return {"tp": tp, "fp": fp, "tn": false_w.sum(axis, dtype=f) - fp,
                "fn": true_w.sum(axis, dtype=f) - tp}
    th = np.asarray(thresholds, f).reshape((n,) + (1,) * yp.ndim)
    pos = yp[None] > th
    label = is_true[None] > 0
    axis = 1
    return {"tp": np.where(label & pos, weights, 0).sum(axis, dtype=f),
            "fp": np.where(~label & pos, weights, 0).sum(axis, dtype=f),
            "tn": np.where(~label & ~pos, weights, 0).sum(axis, dtype=f),
            "fn": np.where(label & ~pos, weights, 0).sum(axis, dtype=f)}


def _div_no_nan(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    y = np.asarray(y)
    return np.where(y == 0, np.float32(0), x / np.where(y == 0, 1, y)).astype(np.float32)


def _parse_thresholds(thresholds: Any, default: float) -> list:
    if thresholds is None:
        return [default]
    values = list(thresholds) if isinstance(thresholds, (list, tuple, np.ndarray)) else [thresholds]
    bad = [t for t in values if t is None or t < 0 or t > 1]
    if bad:
        raise ValueError(f"Threshold values must be in [0, 1]. Received: {bad}")
    return values


_COUNT_NAMES = {"tp": "true_positives", "fp": "false_positives", "tn": "true_negatives",
                "fn": "false_negatives"}


class _Confusion(Metric):
    """State: the counts named in ``_COUNTS``, one per threshold."""

    _COUNTS: tuple = ()

    def __init__(self, thresholds: Any = None, top_k: int | None = None, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.top_k = top_k
        self.class_id = class_id
        self.thresholds = _parse_thresholds(thresholds, 0.5 if top_k is None else NEG_INF)
        self._evenly = _is_evenly_distributed(self.thresholds)
        for key in self._COUNTS:
            name = _COUNT_NAMES[key]
            setattr(self, name, self.add_variable((len(self.thresholds),), name=name))

    def _count(self, key: str) -> np.ndarray:
        return getattr(self, _COUNT_NAMES[key]).numpy()

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        counts = _confusion_counts(y_true, y_pred, np.asarray(self.thresholds, np.float32), self._evenly,
                                   self.top_k, self.class_id, sample_weight)
        for key in self._COUNTS:
            getattr(self, _COUNT_NAMES[key]).assign_add(counts[key])

    def _scalar_or_vector(self, value: np.ndarray) -> Tensor:
        return constant(value[0] if len(self.thresholds) == 1 else value)

    def get_config(self) -> dict:
        return {**super().get_config(), "thresholds": self.init_thresholds, "top_k": self.top_k,
                "class_id": self.class_id}


class _Count(_Confusion):
    def __init__(self, thresholds: Any = None, name: str | None = None, dtype: Any = None) -> None:
        super().__init__(thresholds=thresholds, name=name, dtype=dtype)

    def result(self) -> Tensor:
        return self._scalar_or_vector(self._count(self._COUNTS[0]))

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype, "thresholds": self.init_thresholds}


class TruePositives(_Count):
    """The weighted number of positives predicted positive (``y_pred > threshold``).

    >>> from tapegrad import keras
    >>> m = keras.metrics.TruePositives(); m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    >>> print(m.result().numpy())
    2.0
    """
    _COUNTS = ("tp",)


class TrueNegatives(_Count):
    """The weighted number of negatives predicted negative."""
    _COUNTS = ("tn",)


class FalsePositives(_Count):
    """The weighted number of negatives predicted positive."""
    _COUNTS = ("fp",)


class FalseNegatives(_Count):
    """The weighted number of positives predicted negative."""
    _COUNTS = ("fn",)


class Precision(_Confusion):
    """``tp / (tp + fp)``: of the predictions above the threshold (default 0.5; with ``top_k``,
    the ``k`` largest of each row), the fraction that are positive. ``class_id`` looks at one
    class of multi-label data; several ``thresholds`` give one value each.

    >>> from tapegrad import keras
    >>> m = keras.metrics.Precision(); m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    >>> print(m.result().numpy().round(4))
    0.6667
    """
    _COUNTS = ("tp", "fp")

    def result(self) -> Tensor:
        tp = self._count("tp")
        return self._scalar_or_vector(_div_no_nan(tp, tp + self._count("fp")))


class Recall(_Confusion):
    """``tp / (tp + fn)``: the fraction of the positives predicted above the threshold.

    >>> from tapegrad import keras
    >>> m = keras.metrics.Recall(); m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    >>> print(m.result().numpy().round(4))
    0.6667
    """
    _COUNTS = ("tp", "fn")

    def result(self) -> Tensor:
        tp = self._count("tp")
        return self._scalar_or_vector(_div_no_nan(tp, tp + self._count("fn")))


class AUC(Metric):
    """The area under the ROC or precision-recall curve, summed over ``num_thresholds`` buckets as
    Keras sums it (``summation_method``: ``"interpolation"``, ``"minoring"``, ``"majoring"``;
    the PR curve with interpolation uses Davis & Goadrich's interpolation).

    >>> from tapegrad import keras
    >>> m = keras.metrics.AUC(num_thresholds=3); m.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    >>> print(m.result().numpy().round(4))
    0.75
    """

    def __init__(self, num_thresholds: int = 200, curve: str = "ROC", summation_method: str = "interpolation",
                 name: str | None = None, dtype: Any = None, thresholds: Any = None,
                 multi_label: bool = False, num_labels: int | None = None, label_weights: Any = None,
                 from_logits: bool = False) -> None:
        curves = {"roc": "ROC", "pr": "PR", "prgain": "PRGAIN"}
        methods = ("interpolation", "majoring", "minoring")
        if str(curve).lower() not in curves:
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are ["PR", "ROC", "PRGAIN"]')
        if str(summation_method).lower() not in methods:
            raise ValueError(f'Invalid AUC summation method value: "{summation_method}". '
                             'Expected values are ["interpolation", "majoring", "minoring"]')
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            self.num_thresholds = len(thresholds) + 2
            inner = sorted(thresholds)
            self._evenly = _is_evenly_distributed(np.array([0.0] + inner + [1.0]))
        else:
            if num_thresholds <= 1:
                raise ValueError(f"Argument `num_thresholds` must be an integer > 1. Received: "
                                 f"num_thresholds={num_thresholds}")
            self.num_thresholds = num_thresholds
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self._evenly = True
        self._thresholds = np.array([0.0 - _EPSILON] + inner + [1.0 + _EPSILON])
        self.curve = curves[str(curve).lower()]
        self.summation_method = str(summation_method).lower()
        super().__init__(name=name, dtype=dtype)
        self.multi_label = multi_label
        self.num_labels = num_labels
        self.label_weights = None if label_weights is None else np.asarray(label_weights, np.float32)
        self._from_logits = from_logits
        self._built = False
        if multi_label:
            if num_labels:
                self._build([None, num_labels])
        elif num_labels:
            raise ValueError("`num_labels` is needed only when `multi_label` is True.")
        else:
            self._build(None)

    @property
    def thresholds(self) -> list:
        return list(self._thresholds)

    def _build(self, shape: Any) -> None:
        if self.multi_label:
            if len(shape) != 2:
                raise ValueError(f"`y_pred` must have rank 2 when `multi_label=True`. Found rank "
                                 f"{len(shape)}. Full shape received for `y_pred`: {tuple(shape)}")
            self._num_labels = shape[1]
            vshape: tuple = (self.num_thresholds, self._num_labels)
        else:
            vshape = (self.num_thresholds,)
        self.true_positives = self.add_variable(vshape, name="true_positives")
        self.false_positives = self.add_variable(vshape, name="false_positives")
        self.true_negatives = self.add_variable(vshape, name="true_negatives")
        self.false_negatives = self.add_variable(vshape, name="false_negatives")
        self._built = True

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        y_pred = _array(y_pred, np.float32)
        if not self._built:
            self._build(y_pred.shape)
        if self._from_logits:
            y_pred = (1 / (1 + np.exp(-y_pred))).astype(np.float32)
        counts = _confusion_counts(y_true, y_pred, self._thresholds.astype(np.float32), self._evenly,
                                   sample_weight=sample_weight, multi_label=self.multi_label,
                                   label_weights=None if self.multi_label else self.label_weights)
        self.true_positives.assign_add(counts["tp"])
        self.false_positives.assign_add(counts["fp"])
        self.true_negatives.assign_add(counts["tn"])
        self.false_negatives.assign_add(counts["fn"])

    def _by_label(self, terms: np.ndarray) -> Tensor:
        if not self.multi_label:
            return constant(terms.sum(dtype=np.float32))
        by_label = terms.sum(0, dtype=np.float32)
        if self.label_weights is None:
            return constant(by_label.mean(dtype=np.float32))
        w = self.label_weights
        return constant(_div_no_nan((by_label * w).sum(dtype=np.float32), w.sum(dtype=np.float32)))

    def _interpolate_pr_auc(self, tp: np.ndarray, fp: np.ndarray, fn: np.ndarray) -> Tensor:
        n = self.num_thresholds
        dtp = tp[: n - 1] - tp[1:]
        p = tp + fp
        dp = p[: n - 1] - p[1:]
        slope = _div_no_nan(dtp, np.maximum(dp, 0))
        intercept = tp[1:] - slope * p[1:]
        ratio = np.where((p[: n - 1] > 0) & (p[1:] > 0), _div_no_nan(p[: n - 1], np.maximum(p[1:], 0)),
                         np.ones_like(p[1:]))
        with np.errstate(divide="ignore", invalid="ignore"):
            inc = _div_no_nan(slope * (dtp + intercept * np.log(ratio)), np.maximum(tp[1:] + fn[1:], 0))
        return self._by_label(inc)

    def result(self) -> Tensor:
        tp, fp = self.true_positives.numpy(), self.false_positives.numpy()
        tn, fn = self.true_negatives.numpy(), self.false_negatives.numpy()
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolate_pr_auc(tp, fp, fn)
        recall = _div_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = _div_no_nan(fp, fp + tn), recall
        elif self.curve == "PR":
            x, y = recall, _div_no_nan(tp, tp + fp)
        else:
            scale = _div_no_nan(tp + fn, tn + fp)
            x = np.maximum(np.where(tp == 0, 0, 1 - scale * _div_no_nan(fn, tp)), 0).astype(np.float32)
            y = np.where(tp == 0, 1, 1 - scale * _div_no_nan(fp, tp)).astype(np.float32)
        n = self.num_thresholds
        if self.summation_method == "interpolation":
            heights = (y[: n - 1] + y[1:]) / np.float32(2)
        elif self.summation_method == "minoring":
            heights = np.minimum(y[: n - 1], y[1:])
        else:
            heights = np.maximum(y[: n - 1], y[1:])
        return self._by_label((x[: n - 1] - x[1:]) * heights)

    def reset_state(self) -> None:
        if self._built:
            super().reset_state()

    def get_config(self) -> dict:
        config = {**super().get_config(), "num_thresholds": self.num_thresholds, "curve": self.curve,
                  "summation_method": self.summation_method, "multi_label": self.multi_label,
                  "num_labels": self.num_labels,
                  "label_weights": None if self.label_weights is None else self.label_weights.tolist(),
                  "from_logits": self._from_logits}
        if self._init_from_thresholds:
            config["thresholds"] = self.thresholds[1:-1]
        return config


# ---- F-scores, R², IoU, rates at a constraint, correlations --------------------------------------
# As the confusion counts, computed in NumPy in the metric's dtype; the correlations with tapegrad's ops.

def _np_dtype(metric: Metric) -> np.dtype:
    return np.dtype(_dt.as_dtype(metric.dtype).as_numpy_dtype)


def _two_d(cls: str, t_shape: tuple, p_shape: tuple) -> int:
    if len(p_shape) != 2 or len(t_shape) != 2:
        raise ValueError(f"{cls} expects 2D inputs with shape (batch_size, output_dim). Received "
                         f"input shapes: y_pred.shape={p_shape} and y_true.shape={t_shape}.")
    return p_shape[-1]


# ---- F-scores ----------------------------------------------------------------------------------

class FBetaScore(Metric):
    """The F-beta score of multi-label or one-hot data: ``(1 + beta**2) * precision * recall /
    (beta**2 * precision + recall)`` per class.

    A prediction counts as positive above ``threshold``, or, with ``threshold=None``, where it is
    the largest of its row (and not 0). ``average``: ``None`` (one score per class), ``"micro"``
    (counts pooled over classes), ``"macro"`` (mean of the class scores) or ``"weighted"`` (mean
    weighted by each class's number of true instances).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> m = keras.metrics.FBetaScore(beta=2.0, threshold=0.5)
    >>> m.update_state(np.array([[1, 1, 1], [1, 0, 0], [1, 1, 0]], np.int32),
    ...                np.array([[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]], np.float32))
    >>> m.result().numpy().round(4)
    array([0.3846, 0.9091, 0.8333], dtype=float32)
    """

    def __init__(self, average: str | None = None, beta: float = 1.0, threshold: float | None = None,
                 name: str = "fbeta_score", dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("Invalid `average` argument value. Expected one of: {None, 'micro', "
                             f"'macro', 'weighted'}}. Received: average={average}")
        if not isinstance(beta, float):
            raise ValueError("Invalid `beta` argument value. It should be a Python float. "
                             f"Received: beta={beta} of type '{type(beta)}'")
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. Received: beta={beta}")
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError("Invalid `threshold` argument value. It should be a Python float. "
                                 f"Received: threshold={threshold} of type '{type(threshold)}'")
            if threshold > 1.0 or threshold <= 0.0:
                raise ValueError("Invalid `threshold` argument value. It should verify "
                                 f"0 < threshold <= 1. Received: threshold={threshold}")
        self.average, self.beta, self.threshold = average, beta, threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, t_shape: tuple, p_shape: tuple) -> None:
        n = _two_d("FBetaScore", t_shape, p_shape)
        shape = () if self.average == "micro" else (n,)
        for name in ("true_positives", "false_positives", "false_negatives", "intermediate_weights"):
            setattr(self, name, self.add_variable(shape, name=name))
        self._built = True

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        dt = _np_dtype(self)
        yt, yp = _array(y_true, dt), _array(y_pred, dt)
        if not self._built:
            self._build(yt.shape, yp.shape)
        if self.threshold is None:
            yp = (yp >= yp.max(-1, keepdims=True)) & (np.abs(yp) > 1e-9)
        else:
            yp = yp > self.threshold
        yp = yp.astype(dt)
        sw = None if sample_weight is None else _array(sample_weight, dt)

        def total(v: np.ndarray) -> np.ndarray:
            if sw is not None:
                v = v * np.expand_dims(sw, 1)
            return v.sum(self.axis, dtype=dt)

        self.true_positives.assign_add(total(yp * yt))
        self.false_positives.assign_add(total(yp * (1 - yt)))
        self.false_negatives.assign_add(total((1 - yp) * yt))
        self.intermediate_weights.assign_add(total(yt))

    def result(self) -> Tensor:
        if not self._built:
            raise ValueError(f"{type(self).__name__}.result(): no data yet; call update_state "
                             "first (the number of classes comes from the first batch).")
        dt = _np_dtype(self)
        eps = dt.type(_EPSILON)
        tp, fp = self.true_positives.numpy(), self.false_positives.numpy()
        fn, w = self.false_negatives.numpy(), self.intermediate_weights.numpy()
        precision, recall = tp / (tp + fp + eps), tp / (tp + fn + eps)
        b2 = dt.type(self.beta ** 2)
        score = precision * recall / (b2 * precision + recall + eps) * (dt.type(1) + b2)
        if self.average == "weighted":
            score = np.sum(score * (w / (np.sum(w) + eps)))
        elif self.average is not None:
            score = np.mean(score)
        return constant(np.asarray(score, dt))

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype, "beta": self.beta,
                "average": self.average, "threshold": self.threshold}


class F1Score(FBetaScore):
    """The F1 score: :class:`FBetaScore` with ``beta=1``, ``2 * precision * recall / (precision +
    recall)``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> m = keras.metrics.F1Score(threshold=0.5)
    >>> m.update_state(np.array([[1, 1, 1], [1, 0, 0], [1, 1, 0]], np.int32),
    ...                np.array([[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]], np.float32))
    >>> m.result().numpy().round(4)
    array([0.5   , 0.8   , 0.6667], dtype=float32)
    """

    def __init__(self, average: str | None = None, threshold: float | None = None,
                 name: str = "f1_score", dtype: Any = None) -> None:
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["beta"]
        return config


# ---- R² ----------------------------------------------------------------------------------------

class R2Score(Metric):
    """The coefficient of determination, ``1 - SS_res / SS_tot`` per output column, over every
    sample seen.

    ``class_aggregation``: ``"uniform_average"`` (mean over columns), ``"variance_weighted_average"``
    (weighted by each column's variance) or ``None`` (one per column). ``num_regressors > 0``
    gives the adjusted R², ``1 - (1 - R²) (n - 1) / (n - p - 1)`` (``n`` counts every element).

    >>> from tapegrad import keras
    >>> m = keras.metrics.R2Score()
    >>> m.update_state([[1.0], [4.0], [3.0]], [[2.0], [4.0], [4.0]])
    >>> print(m.result().numpy().round(4))
    0.5714
    """

    def __init__(self, class_aggregation: str | None = "uniform_average", num_regressors: int = 0,
                 name: str = "r2_score", dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        valid = (None, "uniform_average", "variance_weighted_average")
        if class_aggregation not in valid:
            raise ValueError(f"Invalid value for argument `class_aggregation`. Expected one of "
                             f"{valid}. Received: class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError("Invalid value for argument `num_regressors`. Expected a value >= 0. "
                             f"Received: num_regressors={num_regressors}")
        self.class_aggregation, self.num_regressors = class_aggregation, num_regressors
        self.num_samples = self.add_variable((), name="num_samples")
        self._built = False

    def _build(self, t_shape: tuple, p_shape: tuple) -> None:
        n = _two_d("R2Score", t_shape, p_shape)
        self.squared_sum = self.add_variable((n,), name="squared_sum")
        self.sum = self.add_variable((n,), name="sum")
        self.total_mse = self.add_variable((n,), name="residual")
        self.count = self.add_variable((n,), name="count")
        self._built = True

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        dt = _np_dtype(self)
        yt, yp = _np_same_rank(_array(y_true, dt), _array(y_pred, dt))
        if not self._built:
            self._build(yt.shape, yp.shape)
        sw = np.asarray(1 if sample_weight is None else _array(sample_weight, dt), dt)
        if sw.ndim == 1:
            sw = sw[:, None]
        sw = np.broadcast_to(sw, yt.shape)
        weighted = yt * sw
        self.sum.assign_add(weighted.sum(0, dtype=dt))
        self.squared_sum.assign_add((yt * weighted).sum(0, dtype=dt))
        self.total_mse.assign_add((np.square(yt - yp) * sw).sum(0, dtype=dt))
        self.count.assign_add(sw.sum(0, dtype=dt))
        self.num_samples.assign_add(dt.type(yt.size))

    def result(self) -> Tensor:
        if not self._built:
            raise ValueError("R2Score.result(): no data yet; call update_state first (the number "
                             "of outputs comes from the first batch).")
        dt = _np_dtype(self)
        s, count = self.sum.numpy(), self.count.numpy()
        with np.errstate(divide="ignore", invalid="ignore"):
            total = self.squared_sum.numpy() - s * (s / count)
            raw = dt.type(1) - self.total_mse.numpy() / total
            raw = np.where(np.isinf(raw), dt.type(0), raw)
            if self.class_aggregation == "uniform_average":
                score = np.mean(raw)
            elif self.class_aggregation == "variance_weighted_average":
                score = np.sum(total * raw) / np.sum(total)
            else:
                score = raw
        n = float(self.num_samples.numpy())
        if self.num_regressors > n - 1:
            warnings.warn("More independent predictors than datapoints in adjusted R2 score. "
                          "Falling back to standard R2 score.", stacklevel=2)
        elif self.num_regressors == n - 1:
            warnings.warn("Division by zero in Adjusted R2 score. Falling back to standard R2 "
                          "score.", stacklevel=2)
        elif self.num_regressors:
            f = np.float32
            score = f(1) - (f(1) - score) * (f(n) - f(1)) / (f(n) - f(self.num_regressors) - f(1))
        return constant(np.asarray(score, dt))

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype, "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}


# ---- IoU ---------------------------------------------------------------------------------------

class IoU(Metric):
    """Intersection over union, ``tp / (tp + fp + fn)`` per class from a confusion matrix
    accumulated over every batch, averaged over ``target_class_ids`` (classes that never occur
    are left out of the mean).

    ``y_true`` and ``y_pred`` hold class ids, or scores whose argmax along ``axis`` is taken with
    ``sparse_y_true=False`` / ``sparse_y_pred=False``. Labels equal to ``ignore_class`` and ids
    outside ``[0, num_classes)`` are not counted. The matrix is int64 unless ``dtype`` says
    otherwise, as in Keras: fractional sample weights are then truncated (a warning says so).

    >>> from tapegrad import keras
    >>> m = keras.metrics.IoU(num_classes=2, target_class_ids=[0])
    >>> m.update_state([0, 0, 1, 1], [0, 1, 0, 1]); print(m.result().numpy().round(4))
    0.3333
    """

    def __init__(self, num_classes: int, target_class_ids: Any, name: str | None = None,
                 dtype: Any = None, ignore_class: int | None = None, sparse_y_true: bool = True,
                 sparse_y_pred: bool = True, axis: int = -1) -> None:
        super().__init__(name=name, dtype=dtype or "int64")
        self.num_classes, self.ignore_class, self.axis = num_classes, ignore_class, axis
        self.sparse_y_true, self.sparse_y_pred = sparse_y_true, sparse_y_pred
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which is "
                             f"[0, {num_classes}).")
        self.target_class_ids = list(target_class_ids)
        self.total_cm = self.add_variable((num_classes, num_classes), name="total_confusion_matrix")

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        dt = _np_dtype(self)
        yt, yp = _array(y_true, None), _array(y_pred, None)
        if not self.sparse_y_true:
            yt = np.argmax(yt, axis=self.axis)
        if not self.sparse_y_pred:
            yp = np.argmax(yp, axis=self.axis)
        yt, yp = yt.astype(dt).reshape(-1), yp.astype(dt).reshape(-1)
        if sample_weight is None:
            sw = np.ones_like(yt)
        else:
            if (hasattr(sample_weight, "dtype") and "float" in str(sample_weight.dtype)
                    and dt.kind in "iu"):
                warnings.warn("You are passing weight as `float`, but dtype is `int`. This may "
                              "result in an incorrect weight due to type casting Consider using "
                              "integer weights.", stacklevel=2)
            sw = np.broadcast_to(_array(sample_weight, None).astype(dt).reshape(-1), yt.shape)
        keep = (yt >= 0) & (yt < self.num_classes) & (yp >= 0) & (yp < self.num_classes)
        if self.ignore_class is not None:
            keep &= yt != self.ignore_class
        cm = np.zeros((self.num_classes, self.num_classes), dt)
        np.add.at(cm, (np.where(keep, yt, 0).astype(np.int64), np.where(keep, yp, 0).astype(np.int64)),
                  np.where(keep, sw, 0).astype(dt))
        self.total_cm.assign_add(cm)

    def result(self) -> Tensor:
        cm = self.total_cm.numpy()
        dt = _np_dtype(self)
        tp = np.diag(cm).astype(dt)
        denominator = cm.sum(0).astype(dt) + cm.sum(1).astype(dt) - tp
        ids = self.target_class_ids
        f = np.float32
        tp, denominator = tp[ids].astype(f), denominator[ids].astype(f)
        valid = denominator > 1e-9
        iou = np.where(valid, tp / (denominator + f(_EPSILON)), f(0))
        return constant(f(iou.sum(dtype=f) / (f(valid.sum()) + f(_EPSILON))))

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype, "num_classes": self.num_classes,
                "target_class_ids": self.target_class_ids, "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}


class BinaryIoU(IoU):
    """:class:`IoU` of two classes from scores: a prediction is class 1 when ``>= threshold``.

    >>> from tapegrad import keras
    >>> m = keras.metrics.BinaryIoU(target_class_ids=[0, 1], threshold=0.3)
    >>> m.update_state([0, 1, 0, 1], [0.1, 0.2, 0.4, 0.7]); print(m.result().numpy().round(4))
    0.3333
    """

    def __init__(self, target_class_ids: Any = (0, 1), threshold: float = 0.5,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        super().update_state(y_true, _array(y_pred, np.float32) >= np.float32(self.threshold),
                             sample_weight)

    def get_config(self) -> dict:
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold,
                "name": self.name, "dtype": self.dtype}


class MeanIoU(IoU):
    """:class:`IoU` averaged over every class.

    >>> from tapegrad import keras
    >>> m = keras.metrics.MeanIoU(num_classes=2)
    >>> m.update_state([0, 0, 1, 1], [0, 1, 0, 1]); print(m.result().numpy().round(4))
    0.3333
    """

    def __init__(self, num_classes: int, name: str | None = None, dtype: Any = None,
                 ignore_class: int | None = None, sparse_y_true: bool = True,
                 sparse_y_pred: bool = True, axis: int = -1) -> None:
        super().__init__(num_classes, list(range(num_classes)), name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=sparse_y_true,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["target_class_ids"]
        return config


class OneHotIoU(IoU):
    """:class:`IoU` of one-hot labels (and, unless ``sparse_y_pred``, score predictions)."""

    def __init__(self, num_classes: int, target_class_ids: Any, name: str | None = None,
                 dtype: Any = None, ignore_class: int | None = None, sparse_y_pred: bool = False,
                 axis: int = -1) -> None:
        super().__init__(num_classes, target_class_ids, name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["sparse_y_true"]
        return config


class OneHotMeanIoU(MeanIoU):
    """:class:`MeanIoU` of one-hot labels (and, unless ``sparse_y_pred``, score predictions)."""

    def __init__(self, num_classes: int, name: str | None = None, dtype: Any = None,
                 ignore_class: int | None = None, sparse_y_pred: bool = False,
                 axis: int = -1) -> None:
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["sparse_y_true"]
        return config


# ---- one rate at a constraint on another -------------------------------------------------------

class _AtConstraint(Metric):
    """Counts at ``num_thresholds`` evenly spaced thresholds in [0, 1] (0.5 alone when 1); the
    result is the largest value of one rate where another is at least ``value``."""

    _ARG = ""

    def __init__(self, value: float, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        if value < 0 or value > 1:
            raise ValueError(f"Argument `{self._ARG}` must be in the range [0, 1]. Received: "
                             f"{self._ARG}={value}")
        super().__init__(name=name, dtype=dtype)
        if num_thresholds <= 0:
            raise ValueError("Argument `num_thresholds` must be an integer > 0. Received: "
                             f"num_thresholds={num_thresholds}")
        setattr(self, self._ARG, value)
        self.value, self.num_thresholds, self.class_id = value, num_thresholds, class_id
        if num_thresholds == 1:
            self.thresholds, self._evenly = [0.5], False
        else:
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self.thresholds, self._evenly = [0.0] + inner + [1.0], True
        for count in ("true_positives", "false_positives", "true_negatives", "false_negatives"):
            setattr(self, count, self.add_variable((len(self.thresholds),), name=count))

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        counts = _confusion_counts(y_true, y_pred, np.asarray(self.thresholds, np.float32),
                                   self._evenly, class_id=self.class_id, sample_weight=sample_weight)
        self.true_positives.assign_add(counts["tp"])
        self.false_positives.assign_add(counts["fp"])
        self.true_negatives.assign_add(counts["tn"])
        self.false_negatives.assign_add(counts["fn"])

    def _rates(self) -> dict:
        tp, fp = self.true_positives.numpy(), self.false_positives.numpy()
        tn, fn = self.true_negatives.numpy(), self.false_negatives.numpy()
        return {"recall": _div_no_nan(tp, tp + fn), "specificity": _div_no_nan(tn, tn + fp),
                "precision": _div_no_nan(tp, tp + fp)}

    def _best(self, constrained: str, dependent: str) -> Tensor:
        r = self._rates()
        feasible = r[constrained] >= np.float32(self.value)
        return constant(np.max(np.where(feasible, r[dependent], np.float32(0)), initial=np.float32(0)))

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype, "class_id": self.class_id,
                "num_thresholds": self.num_thresholds, self._ARG: self.value}


class SensitivityAtSpecificity(_AtConstraint):
    """The best sensitivity (recall) over the thresholds where specificity ``tn / (tn + fp)`` is
    at least ``specificity``.

    >>> from tapegrad import keras
    >>> m = keras.metrics.SensitivityAtSpecificity(0.5)
    >>> m.update_state([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]); print(m.result().numpy())
    0.5
    """

    _ARG = "specificity"

    def __init__(self, specificity: float, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(specificity, num_thresholds, class_id, name, dtype)

    def result(self) -> Tensor:
        return self._best("specificity", "recall")


class SpecificityAtSensitivity(_AtConstraint):
    """The best specificity over the thresholds where sensitivity (recall) is at least
    ``sensitivity``.

    >>> from tapegrad import keras
    >>> m = keras.metrics.SpecificityAtSensitivity(0.5)
    >>> m.update_state([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]); print(m.result().numpy().round(4))
    0.6667
    """

    _ARG = "sensitivity"

    def __init__(self, sensitivity: float, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(sensitivity, num_thresholds, class_id, name, dtype)

    def result(self) -> Tensor:
        return self._best("recall", "specificity")


class PrecisionAtRecall(_AtConstraint):
    """The best precision over the thresholds where recall is at least ``recall``.

    >>> from tapegrad import keras
    >>> m = keras.metrics.PrecisionAtRecall(0.5)
    >>> m.update_state([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]); print(m.result().numpy())
    0.5
    """

    _ARG = "recall"

    def __init__(self, recall: float, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(recall, num_thresholds, class_id, name, dtype)

    def result(self) -> Tensor:
        return self._best("recall", "precision")


class RecallAtPrecision(_AtConstraint):
    """The best recall over the thresholds where precision is at least ``precision``.

    >>> from tapegrad import keras
    >>> m = keras.metrics.RecallAtPrecision(0.8)
    >>> m.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9]); print(m.result().numpy())
    0.5
    """

    _ARG = "precision"

    def __init__(self, precision: float, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(precision, num_thresholds, class_id, name, dtype)

    def result(self) -> Tensor:
        return self._best("precision", "recall")


# ---- correlations ------------------------------------------------------------------------------

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


# ---- look-up by name ---------------------------------------------------------------------------

_CLASSES = (Metric, Mean, Sum, MeanMetricWrapper, MeanSquaredError, RootMeanSquaredError,
            MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError,
            CosineSimilarity, LogCoshError, AUC, FalseNegatives, FalsePositives, Precision, Recall,
            TrueNegatives, TruePositives, Hinge, SquaredHinge, CategoricalHinge, KLDivergence,
            Poisson, BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy,
            Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,
            TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy, FBetaScore, F1Score, R2Score,
            IoU, MeanIoU, BinaryIoU, OneHotIoU, OneHotMeanIoU, SensitivityAtSpecificity,
            SpecificityAtSensitivity, PrecisionAtRecall, RecallAtPrecision, PearsonCorrelation,
            ConcordanceCorrelation)
ALL_OBJECTS_DICT: dict[str, Any] = {c.__name__: c for c in _CLASSES}
ALL_OBJECTS_DICT.update({_snake(c.__name__): c for c in _CLASSES})
ALL_OBJECTS_DICT.update({"bce": BinaryCrossentropy, "BCE": BinaryCrossentropy,
                         "mse": MeanSquaredError, "MSE": MeanSquaredError,
                         "mae": MeanAbsoluteError, "MAE": MeanAbsoluteError,
                         "mape": MeanAbsolutePercentageError, "MAPE": MeanAbsolutePercentageError,
                         "msle": MeanSquaredLogarithmicError, "MSLE": MeanSquaredLogarithmicError})


def serialize(metric: Metric) -> dict:
    """A metric as ``{"class_name": ..., "config": ...}``."""
    return {"module": "keras.metrics", "class_name": type(metric).__name__,
            "config": metric.get_config(), "registered_name": None}


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The metric a config (from :func:`serialize`) or a name describes.

    >>> from tapegrad import keras
    >>> keras.metrics.deserialize({"class_name": "BinaryAccuracy", "config": {"threshold": 0.3}}).threshold
    0.3
    """
    table = {**ALL_OBJECTS_DICT, **(custom_objects or {})}
    name = config if isinstance(config, str) else (config or {}).get("class_name")
    if name not in table:
        raise ValueError(_unknown(name, table))
    if isinstance(config, str):
        return table[name]
    return table[name].from_config(config.get("config") or {})


def _unknown(name: Any, table: dict) -> str:
    close = difflib.get_close_matches(str(name), list(table), n=3)
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return f"Could not interpret metric identifier: {name!r}: no keras metric has this name.{hint}"


def get(identifier: Any) -> Any:
    """The metric ``identifier`` names: a class name or its snake_case (``"mse"``,
    ``"binary_accuracy"``, ``"accuracy"``) gives a new instance; a config dict, a function or a
    :class:`Metric` are returned as they are; ``None`` gives ``None``.

    >>> from tapegrad import keras
    >>> keras.metrics.get("mse")
    <MeanSquaredError name=mean_squared_error>
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize(identifier)
    elif isinstance(identifier, str):
        if identifier not in ALL_OBJECTS_DICT:
            raise ValueError(_unknown(identifier, ALL_OBJECTS_DICT))
        obj = ALL_OBJECTS_DICT[identifier]
    else:
        obj = identifier
    if not callable(obj):
        raise ValueError(f"Could not interpret metric identifier: {identifier!r}")
    return obj() if inspect.isclass(obj) else obj


def _binary_or_sparse(y_true_shape: Any, y_pred_shape: Any) -> tuple[bool, bool]:
    """Keras's ``is_binary_or_sparse_categorical`` on the shapes of ``y_true`` and ``y_pred``."""
    t, p = tuple(y_true_shape), tuple(y_pred_shape)
    p_last = p[-1] if p else None
    t_last = t[-1] if t else None
    return p_last == 1, len(t) < len(p) or (t_last == 1 and p_last is not None and p_last > 1)


def resolve_metric(identifier: Any, y_true_shape: Any, y_pred_shape: Any) -> Metric:
    """The metric ``Model.compile(metrics=[identifier])`` makes for outputs of these shapes (Keras's
    ``compile_utils.get_metric``): ``"accuracy"``/``"acc"`` become :class:`BinaryAccuracy` when
    ``y_pred`` has one column, :class:`SparseCategoricalAccuracy` when ``y_true`` holds class
    indices (a lower rank, or one column against several), :class:`CategoricalAccuracy`
    otherwise; any other identifier goes through :func:`get`, and a function is wrapped in a
    :class:`MeanMetricWrapper`. The metric is named after the identifier.

    >>> from tapegrad import keras
    >>> keras.metrics.resolve_metric("accuracy", (32,), (32, 10))
    <SparseCategoricalAccuracy name=accuracy>
    >>> keras.metrics.resolve_metric("acc", (32, 1), (32, 1))
    <BinaryAccuracy name=acc>
    >>> keras.metrics.resolve_metric(keras.metrics.mean_absolute_error, (32, 1), (32, 1))
    <MeanMetricWrapper name=mean_absolute_error>
    """
    if identifier is None:
        raise ValueError("Expected metric, received `None`")
    if str(identifier).lower() in ("accuracy", "acc"):
        binary, sparse = _binary_or_sparse(y_true_shape, y_pred_shape)
        cls = BinaryAccuracy if binary else SparseCategoricalAccuracy if sparse else CategoricalAccuracy
        metric: Any = cls(name=str(identifier))
    else:
        metric = get(identifier)
    if not isinstance(metric, Metric):
        metric = MeanMetricWrapper(metric)
    if isinstance(identifier, str):
        metric.name = identifier
    return metric


if not TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "did you mean" for a typo
        raise _missing_name(__name__, name, __all__)
