"""``Sum``, ``Mean`` and ``MeanMetricWrapper``: a metric that averages a function's values."""
from __future__ import annotations

from typing import Any, Callable

from .._engine import Tensor
from ...ops.array import broadcast_to
from ...ops.math import cast
from ...ops.reduction import reduce_mean, reduce_sum
from ...ops.special import divide_no_nan
from .._mask_table import get_mask
from ..losses import _mask_weight, _same_rank, _snake, _to
from .metric import Metric


def _samplewise(values: Any, sample_weight: Any, reduce_fn: Callable, dtype: str,
                mask: Tensor | None = None) -> tuple[Tensor, Tensor | None]:
    """Keras's ``reduce_to_samplewise_values``: weight the values and reduce them to one per
    sample. The values' mask (``mask``, else the one they carry) zeroes weights only when there
    are weights, as in Keras 3."""
    mask = get_mask(values) if mask is None else mask
    values = _to(values, dtype)
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
        pred_mask = get_mask(y_pred)  # (Keras 3: a masked output, e.g. after Embedding(mask_zero),
        values, mask = self._values(y_true, y_pred)  # weighs its masked steps 0)
        if pred_mask is not None:
            sample_weight = _mask_weight(None if sample_weight is None else _to(sample_weight, self.dtype),
                                         pred_mask, self.dtype, "sum")
        super().update_state(values, sample_weight, _mask=mask)

    def get_config(self) -> dict:
        return {**super().get_config(), **self._fn_kwargs}
