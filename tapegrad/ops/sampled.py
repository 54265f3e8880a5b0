"""Sampled losses (``tf.nn.nce_loss``, ``tf.nn.sampled_softmax_loss``), the candidate samplers
they draw from, and ``compute_accidental_hits``.

The samplers are tapegrad.random's (TensorFlow's kernels and streams); the accidental-hit
search is a non-differentiable op; the losses are compositions of tapegrad ops
(``embedding_lookup``, ``matmul``, the cross entropies), so their gradients reach ``weights``,
``biases`` and ``inputs`` as TensorFlow's do.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._convert import as_tensor
from .._dispatch import apply, defop
from .._tensor import Tensor, wrap as _wrap
from ..errors import InvalidArgumentError
from ..random import log_uniform_candidate_sampler, take_seed
from .array import concat, expand_dims, reshape, stop_gradient
from .indexing import embedding_lookup
from .linalg import matmul
from .math import cast, log, ones_like, zeros_like
from .nn import sigmoid_cross_entropy_with_logits, softmax_cross_entropy_with_logits
from .reduction import reduce_sum

__all__ = ["compute_accidental_hits", "nce_loss", "sampled_softmax_loss"]


def _hits_fwd(true_classes: np.ndarray, sampled: np.ndarray) -> tuple:
    where = {v: p for p, v in enumerate(sampled.tolist())}  # (TF: an id sampled twice hits at its last place)
    hits = [(i, where[t]) for i, row in enumerate(true_classes.tolist()) for t in row if t in where]
    rows, cols = (np.asarray(v, np.int64).reshape(-1) for v in (zip(*hits) if hits else ([], [])))
    return rows.astype(np.int32), cols, np.full(rows.shape, np.finfo(np.float32).min, np.float32)


_hits = defop("ComputeAccidentalHits", _hits_fwd, nondiff=True, nout=3)


def compute_accidental_hits(true_classes: Any, sampled_candidates: Any, num_true: int, seed: Any = None,
                            name: Any = None) -> tuple:
    """Where a sampled candidate equals one of a row's true classes: ``(indices, ids, weights)``,
    the row (int32), the position in ``sampled_candidates`` (int64) and ``-FLT_MAX`` (float32),
    to add to the sampled logits so that the hit drops out of the loss.

    >>> import tapegrad as tf
    >>> idx, ids, w = tf.nn.compute_accidental_hits(tf.constant([[1], [2]], tf.int64),
    ...                                             tf.constant([2, 3, 1], tf.int64), 1)
    >>> idx.numpy(), ids.numpy()
    (array([0, 1], dtype=int32), array([2, 0]))
    """
    tc, sc = as_tensor(true_classes), as_tensor(sampled_candidates)
    if tc._value.ndim != 2 or tc._value.shape[1] != int(num_true):
        raise InvalidArgumentError(f"true_classes must be [batch_size, num_true = {num_true}], got shape "
                                   f"{list(tc._value.shape)}.")
    take_seed(seed)
    return apply(_hits, (tc, sc))


def _sampled_logits(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int, num_classes: int,
                    num_true: int, sampled_values: Any, remove_accidental_hits: bool, seed: Any,
                    what: str) -> tuple[Tensor, Tensor]:
    x = as_tensor(inputs)
    if x._value.ndim != 2:
        raise ValueError(f"{what}: inputs must be [batch_size, dim], got shape {list(x._value.shape)}.")
    lab = cast(as_tensor(labels), _dt.int64)
    if lab._value.ndim == 1:
        lab = reshape(lab, [-1, 1])
    if lab._value.shape != (x._value.shape[0], int(num_true)):
        raise ValueError(f"{what}: labels must be [batch_size = {x._value.shape[0]}, num_true = {num_true}], "
                         f"got shape {list(lab._value.shape)}.")
    if sampled_values is None:
        sampled_values = log_uniform_candidate_sampler(lab, num_true, num_sampled, True, num_classes, seed=seed)
    sampled, true_count, sampled_count = (stop_gradient(as_tensor(s)) for s in sampled_values)
    sampled = cast(sampled, _dt.int64)
    w = concat(list(weights), 0) if isinstance(weights, (list, tuple)) else as_tensor(weights)
    b = concat(list(biases), 0) if isinstance(biases, (list, tuple)) else as_tensor(biases)
    flat = reshape(lab, [-1])
    true_w = reshape(embedding_lookup(w, flat), [-1, int(num_true), w._value.shape[-1]])
    true_logits = reduce_sum(expand_dims(x, 1) * cast(true_w, x.dtype), axis=-1)
    true_logits = true_logits + cast(reshape(embedding_lookup(b, flat), [-1, int(num_true)]), x.dtype)
    sampled_logits = matmul(x, cast(embedding_lookup(w, sampled), x.dtype), transpose_b=True)
    sampled_logits = sampled_logits + cast(embedding_lookup(b, sampled), x.dtype)
    if remove_accidental_hits:
        rows, ids, hit_w = compute_accidental_hits(lab, sampled, num_true)
        penalty = np.zeros(sampled_logits._value.shape, sampled_logits._value.dtype)
        penalty[np.asarray(rows._value), np.asarray(ids._value)] = np.asarray(hit_w._value)
        sampled_logits = sampled_logits + _wrap(penalty)
    true_logits = true_logits - log(cast(true_count, x.dtype))
    sampled_logits = sampled_logits - log(cast(sampled_count, x.dtype))
    logits = concat([true_logits, sampled_logits], 1)
    targets = concat([ones_like(true_logits) / float(num_true), zeros_like(sampled_logits)], 1)
    return logits, targets


def nce_loss(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int, num_classes: int,
             num_true: int = 1, sampled_values: Any = None, remove_accidental_hits: bool = False,
             name: Any = "nce_loss") -> Tensor:
    """Noise-contrastive estimation loss per example, ``[batch_size]``: logistic regression of
    the true classes against ``num_sampled`` classes drawn by ``sampled_values`` (default: the
    log-uniform sampler), each logit corrected by ``log`` of its expected count.

    ``weights`` ``[num_classes, dim]`` (or a list of its row blocks), ``biases``
    ``[num_classes]``, ``labels`` int ``[batch_size, num_true]``, ``inputs`` ``[batch_size, dim]``.

    >>> import tapegrad as tf
    >>> sv = (tf.constant([3, 4], tf.int64), tf.constant([[0.5]]), tf.constant([0.5, 0.5]))
    >>> loss = tf.nn.nce_loss(tf.ones([5, 2]), tf.zeros([5]), tf.constant([[1]]), tf.ones([1, 2]),
    ...                       num_sampled=2, num_classes=5, sampled_values=sv)
    >>> loss.numpy().round(4)
    array([5.5827], dtype=float32)
    """
    logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                      sampled_values, remove_accidental_hits, None, "nce_loss")
    return reduce_sum(sigmoid_cross_entropy_with_logits(labels=targets, logits=logits), axis=1)


def sampled_softmax_loss(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int,
                         num_classes: int, num_true: int = 1, sampled_values: Any = None,
                         remove_accidental_hits: bool = True, seed: Any = None,
                         name: Any = "sampled_softmax_loss") -> Tensor:
    """Softmax cross entropy over the true classes and ``num_sampled`` sampled classes, per
    example ``[batch_size]`` (arguments as :func:`nce_loss`); sampled classes that equal a true
    class are removed by default.

    >>> import tapegrad as tf
    >>> sv = (tf.constant([3, 4], tf.int64), tf.constant([[0.5]]), tf.constant([0.5, 0.5]))
    >>> loss = tf.nn.sampled_softmax_loss(tf.ones([5, 2]), tf.zeros([5]), tf.constant([[1]]),
    ...                                   tf.ones([1, 2]), num_sampled=2, num_classes=5, sampled_values=sv)
    >>> loss.numpy().round(4)
    array([1.0986], dtype=float32)
    """
    logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                      sampled_values, remove_accidental_hits, seed, "sampled_softmax_loss")
    return softmax_cross_entropy_with_logits(labels=stop_gradient(targets), logits=logits)
