"""``tf.data.experimental``: the constants and ``cardinality`` that programs still import from here.

>>> import tapegrad as tf
>>> tf.data.experimental.AUTOTUNE, int(tf.data.experimental.cardinality(tf.data.Dataset.range(3)))
(-1, 3)
"""
from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from ._dataset import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "cardinality"]


def cardinality(dataset: Any) -> Tensor:
    """``dataset.cardinality()``: the number of elements, -1 if infinite, -2 if unknown."""
    return dataset.cardinality()
