"""Loss scaling across replicas (``tf.nn.compute_average_loss``, ``tf.nn.scale_regularization_loss``):
they divide by the global batch size or by the number of replicas in sync."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._convert import as_tensor, convert_to_tensor
from .._tensor import Tensor
from ..ops.array import broadcast_to, expand_dims, squeeze, stack
from ..ops.math import cast
from ..ops.reduction import reduce_sum
from ._strategy import get_strategy, has_strategy, in_cross_replica_context


def _replicas(fn: str) -> int:
    if has_strategy() and in_cross_replica_context():
        raise RuntimeError(f"You are calling `{fn}` in cross replica context, while it was expected "
                           "to be called in replica context.")
    return get_strategy().num_replicas_in_sync


def compute_average_loss(per_example_loss: Any, sample_weight: Any = None,
                         global_batch_size: Any = None) -> Tensor:
    """The sum of ``per_example_loss`` (times ``sample_weight``) divided by the global batch size
    (default: the first axis's length times the number of replicas in sync).

    >>> import tapegrad as tf
    >>> float(tf.nn.compute_average_loss([1.0, 2.0, 6.0]))
    3.0
    >>> float(tf.nn.compute_average_loss([1.0, 2.0, 6.0], global_batch_size=6))
    1.5
    """
    loss = as_tensor(per_example_loss)
    dtype = loss.dtype
    if loss._value.ndim == 0:
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with at "
                         f"least rank 1. Received per_example_loss={per_example_loss} with rank 0")
    if sample_weight is not None:
        w = cast(as_tensor(sample_weight), dtype)
        if w._value.ndim == loss._value.ndim - 1:  # per-example weights, as Keras lines them up
            w = expand_dims(w, -1)
        elif w._value.ndim == loss._value.ndim + 1 and w._value.shape[-1] == 1:
            w = squeeze(w, [-1])
        loss = loss * broadcast_to(w, loss._value.shape)
    if global_batch_size is None:
        global_batch_size = loss._value.shape[0] * _replicas("compute_average_loss")
    n = as_tensor(global_batch_size)
    if n._value.ndim != 0 or n._value.dtype.kind not in "iu":
        raise ValueError(f"global_batch_size must be a scalar integer, got {global_batch_size!r}.")
    return reduce_sum(loss) / cast(n, dtype)


def scale_regularization_loss(regularization_loss: Any) -> Tensor:
    """The sum of ``regularization_loss`` (a tensor or a list of them) divided by the number of
    replicas in sync.

    >>> import tapegrad as tf
    >>> float(tf.nn.scale_regularization_loss([0.5, 1.5]))
    2.0
    """
    if isinstance(regularization_loss, (list, tuple)):
        loss = stack([as_tensor(x) for x in regularization_loss])
    else:
        loss = as_tensor(regularization_loss)
    total = reduce_sum(loss)
    return total / convert_to_tensor(np.asarray(_replicas("scale_regularization_loss")), total.dtype)
