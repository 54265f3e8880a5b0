"""The hinge losses as metrics (averaged)."""
from __future__ import annotations

from typing import Any

from ..losses import categorical_hinge, hinge, squared_hinge
from .reduction_metrics import MeanMetricWrapper


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
