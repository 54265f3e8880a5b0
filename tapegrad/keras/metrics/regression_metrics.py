"""The regression metrics: errors, cosine similarity, RMSE and R²."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._engine import constant
from .._engine import Tensor
from ...ops.math import sqrt
from ...ops.reduction import reduce_sum
from ..losses import (_l2_normalize, _pred, _same_rank, _to, log_cosh, mean_absolute_error,
                      mean_absolute_percentage_error, mean_squared_error, mean_squared_logarithmic_error)
from .metric import Metric
from .metrics_utils import _array, _np_dtype, _np_same_rank, _two_d
from .reduction_metrics import Mean, MeanMetricWrapper


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
