"""The crossentropies, KL divergence and Poisson as metrics (the loss functions, averaged)."""
from __future__ import annotations

from typing import Any

from .._engine import Tensor
from ..losses import (_sparse_cce, binary_crossentropy, categorical_crossentropy, kl_divergence, poisson,
                      sparse_categorical_crossentropy)
from .reduction_metrics import MeanMetricWrapper


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
