"""NumPy helpers the metric families share (Keras 3's ``metrics_utils``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ... import dtypes as _dt
from .._engine import Tensor
from .._engine import Variable

if TYPE_CHECKING:
    from .metric import Metric


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


def _np_dtype(metric: Metric) -> np.dtype:
    return np.dtype(_dt.as_dtype(metric.dtype).as_numpy_dtype)


def _two_d(cls: str, t_shape: tuple, p_shape: tuple) -> int:
    if len(p_shape) != 2 or len(t_shape) != 2:
        raise ValueError(f"{cls} expects 2D inputs with shape (batch_size, output_dim). Received "
                         f"input shapes: y_pred.shape={p_shape} and y_true.shape={t_shape}.")
    return p_shape[-1]
