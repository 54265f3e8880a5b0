"""``tf.experimental.numpy.random``: NumPy's random functions drawn by TensorFlow's stateful random
ops, as TensorFlow's module draws them (so ``tf.random.set_seed`` / :func:`seed` make them
repeatable, with TensorFlow's numbers). Floats are float64, even with ``prefer_float32`` (as in
TensorFlow).

>>> import tapegrad.experimental.numpy as tnp
>>> tnp.random.seed(1)
>>> tnp.random.randn(2, 3).shape
TensorShape([2, 3])
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .._convert import convert_to_tensor
from .._tensor import Tensor
from ..ops import math as _m
from ..ops import random as _random

__all__ = ["seed", "randn", "standard_normal", "uniform", "random", "rand", "randint", "poisson"]


def _as_float(x: Any) -> Tensor:
    t = convert_to_tensor(x if isinstance(x, Tensor) else np.asarray(x, np.float64))
    return t if t.dtype == np.float64 else _m.cast(t, np.float64)


def _size(size: Any) -> tuple:
    if size is None:
        return ()
    return (int(size),) if np.isscalar(size) else tuple(size)


def seed(s: Any) -> None:
    """Set the global seed (``tf.random.set_seed``); ``s`` must be an integer."""
    try:
        s = int(s)
    except TypeError:
        raise ValueError(f"Argument `s` got an invalid value {s}. Only integers are supported.") from None
    _random.set_seed(s)


def standard_normal(size: Any = None) -> Tensor:
    """Draws from the standard normal distribution, of shape ``size``."""
    return _random.normal(_size(size), dtype=np.float64)


def randn(*args: int) -> Tensor:
    """Standard normal draws of shape ``args``."""
    return standard_normal(size=args)


def uniform(low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Tensor:
    """Uniform draws in ``[low, high)`` of shape ``size`` (default: ``low`` and ``high`` broadcast)."""
    low, high = _as_float(low), _as_float(high)
    if size is None:
        size = np.broadcast_shapes(tuple(low.shape), tuple(high.shape))
    # (TF passes ``size`` as the shape: an int is not a shape there, unlike standard_normal's)
    return _random.uniform(size, minval=low, maxval=high, dtype=np.float64)


def random(size: Any = None) -> Tensor:
    """Uniform draws in ``[0, 1)`` of shape ``size``."""
    return uniform(0.0, 1.0, size)


def rand(*size: int) -> Tensor:
    """Uniform draws in ``[0, 1)`` of shape ``size``."""
    return uniform(0.0, 1.0, size)


def randint(low: int, high: int | None = None, size: Any = None, dtype: Any = np.int64) -> Tensor:
    """Integers drawn uniformly from ``[low, high)`` (``[0, low)`` without ``high``), int32 or int64."""
    low = int(low)
    if high is None:
        low, high = 0, low
    dt = np.dtype(dtype)
    if dt not in (np.int32, np.int64):
        raise ValueError(f"Argument `dtype` got an invalid value {dtype}. Only those convertible to "
                         f"(int32, int64) are supported.")
    return _random.uniform(_size(size), minval=low, maxval=high, dtype=dt)


def poisson(lam: Any = 1.0, size: Any = None) -> Tensor:
    """Poisson draws with rate ``lam`` of shape ``size`` (int64)."""
    return _random.poisson(_size(size), lam, dtype=np.int64)
