"""``tapegrad.quantization``: TensorFlow's fake quantization (``tf.quantization.fake_quant_*``):
values clamped to a nudged ``[min, max]`` and rounded to ``2**num_bits`` levels, with
TensorFlow's straight-through gradients (1 inside the range; to ``min``/``max`` the gradients
of the values below/above it).

>>> import tapegrad as tf
>>> tf.quantization.fake_quant_with_min_max_args(tf.constant([-7.0, 0.1, 3.33]), -6.0, 6.0, 4).numpy().round(4)
array([-6.4,  0. ,  3.2], dtype=float32)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ._convert import as_tensor, host_value
from ._tensor import Tensor, constant_maker, wrap
from .errors import InvalidArgumentError
from .ops.array import stop_gradient
from .ops.math import clip_by_value, where, logical_and
from .ops.reduction import reduce_sum
from .ops.special import floor

__all__ = ["fake_quant_with_min_max_args", "fake_quant_with_min_max_args_gradient", "fake_quant_with_min_max_vars",
           "fake_quant_with_min_max_vars_gradient", "fake_quant_with_min_max_vars_per_channel",
           "fake_quant_with_min_max_vars_per_channel_gradient"]


def _nudge(lo: np.ndarray, hi: np.ndarray, num_bits: int, narrow_range: bool) -> tuple:
    """TF's ``Nudge``: ``(nudged_min, nudged_max, scale)`` in float32."""
    if not 2 <= num_bits <= 16:
        raise InvalidArgumentError(f"num_bits is out of range, expected between 2 and 16, was: {num_bits}")
    lo, hi = np.asarray(lo, np.float32), np.asarray(hi, np.float32)
    if np.any(lo > hi):
        raise InvalidArgumentError(f"min has to be smaller or equal than max: {lo} vs {hi}")
    qmin, qmax = np.float32(1 if narrow_range else 0), np.float32((1 << num_bits) - 1)
    scale = (hi - lo) / (qmax - qmin)
    with np.errstate(divide="ignore", invalid="ignore"):
        zp = qmin - lo / scale
    zp = np.where(zp < qmin, qmin, np.where(zp > qmax, qmax, np.sign(zp) * np.floor(np.abs(zp) + np.float32(0.5))))
    zp = zp.astype(np.float32)
    return ((qmin - zp) * scale).astype(np.float32), ((qmax - zp) * scale).astype(np.float32), scale.astype(np.float32)


@constant_maker  # (the range: from Python numbers or guarded reads)
def _fake_quant(x: Any, lo: Any, hi: Any, num_bits: int, narrow_range: bool) -> Tensor:
    x = as_tensor(x)
    if x.dtype.name != "float32":
        raise InvalidArgumentError(f"fake quantization takes float32 inputs; got {x.dtype.name}.")
    lo_v = np.asarray(host_value(lo, "min") if isinstance(lo, Tensor) or hasattr(lo, "read_value") else lo, np.float32)
    hi_v = np.asarray(host_value(hi, "max") if isinstance(hi, Tensor) or hasattr(hi, "read_value") else hi, np.float32)
    nmin, nmax, scale = _nudge(lo_v, hi_v, int(num_bits), bool(narrow_range))
    # (the nudged bounds as the given min/max plus a constant: their gradient is TF's, 1)
    lo_t = (lo + stop_gradient(wrap(nmin - lo_v))) if not isinstance(lo, (float, int, np.ndarray)) else wrap(nmin)
    hi_t = (hi + stop_gradient(wrap(nmax - hi_v))) if not isinstance(hi, (float, int, np.ndarray)) else wrap(nmax)
    clamped = clip_by_value(x, lo_t, hi_t)
    inv = np.float32(1) / scale
    q = floor((clamped - wrap(nmin)) * wrap(inv) + 0.5) * wrap(scale) + wrap(nmin)
    return clamped + stop_gradient(q - clamped)


def fake_quant_with_min_max_args(inputs: Any, min: float = -6.0, max: float = 6.0, num_bits: int = 8,  # noqa: A002
                                 narrow_range: bool = False, name: Any = None) -> Tensor:
    """Fake-quantize float32 ``inputs`` to ``num_bits`` levels over ``[min, max]`` (Python
    floats), nudged so that 0 is a level, as TensorFlow's ``FakeQuantWithMinMaxArgs``.

    >>> import tapegrad as tf
    >>> tf.quantization.fake_quant_with_min_max_args(tf.constant([0.26, 9.0]), 0.0, 1.0, 2).numpy().round(4)
    array([0.3333, 1.    ], dtype=float32)
    """
    return _fake_quant(inputs, float(min), float(max), num_bits, narrow_range)


def fake_quant_with_min_max_vars(inputs: Any, min: Any, max: Any, num_bits: int = 8,  # noqa: A002
                                 narrow_range: bool = False, name: Any = None) -> Tensor:
    """As :func:`fake_quant_with_min_max_args` with ``min``/``max`` tensors or Variables (scalars),
    which get TensorFlow's gradients: the sum of the incoming gradients below/above the range."""
    return _fake_quant(inputs, min, max, num_bits, narrow_range)


def fake_quant_with_min_max_vars_per_channel(inputs: Any, min: Any, max: Any, num_bits: int = 8,  # noqa: A002
                                             narrow_range: bool = False, name: Any = None) -> Tensor:
    """As :func:`fake_quant_with_min_max_vars` with one range per last-dimension channel."""
    return _fake_quant(inputs, min, max, num_bits, narrow_range)


def _mask(inputs: Any, lo: Any, hi: Any, num_bits: int, narrow_range: bool) -> tuple:
    x = as_tensor(inputs)
    lo_v = np.asarray(host_value(as_tensor(lo), "min"), np.float32)
    hi_v = np.asarray(host_value(as_tensor(hi), "max"), np.float32)
    nmin, nmax, _ = _nudge(lo_v, hi_v, int(num_bits), bool(narrow_range))
    return x, wrap(nmin), wrap(nmax)


def fake_quant_with_min_max_args_gradient(gradients: Any, inputs: Any, min: float = -6.0, max: float = 6.0,  # noqa: A002
                                          num_bits: int = 8, narrow_range: bool = False, name: Any = None) -> Tensor:
    """``gradients`` where ``inputs`` lies in the nudged range, 0 elsewhere (TF's backprop)."""
    x, lo, hi = _mask(inputs, np.float32(min), np.float32(max), num_bits, narrow_range)
    g = as_tensor(gradients)
    return where(logical_and(x >= lo, x <= hi), g, 0.0 * g)


def _vars_gradient(gradients: Any, inputs: Any, min: Any, max: Any, num_bits: int, narrow_range: bool,  # noqa: A002
                   axes: Any) -> tuple:
    x, lo, hi = _mask(inputs, min, max, num_bits, narrow_range)
    g = as_tensor(gradients)
    zero = 0.0 * g
    return (where(logical_and(x >= lo, x <= hi), g, zero), reduce_sum(where(x < lo, g, zero), axes),
            reduce_sum(where(x > hi, g, zero), axes))


def fake_quant_with_min_max_vars_gradient(gradients: Any, inputs: Any, min: Any, max: Any,  # noqa: A002
                                          num_bits: int = 8, narrow_range: bool = False, name: Any = None) -> tuple:
    """``(backprops_wrt_input, backprop_wrt_min, backprop_wrt_max)``, as TensorFlow's."""
    return _vars_gradient(gradients, inputs, min, max, num_bits, narrow_range, None)


def fake_quant_with_min_max_vars_per_channel_gradient(gradients: Any, inputs: Any, min: Any, max: Any,  # noqa: A002
                                                      num_bits: int = 8, narrow_range: bool = False,
                                                      name: Any = None) -> tuple:
    """Per-channel :func:`fake_quant_with_min_max_vars_gradient` (sums over all but the last axis)."""
    rank = as_tensor(inputs).shape.rank
    return _vars_gradient(gradients, inputs, min, max, num_bits, narrow_range, list(range(rank - 1)))
