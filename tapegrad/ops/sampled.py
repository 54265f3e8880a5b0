"""Sampled losses (``tf.nn.nce_loss``, ``tf.nn.sampled_softmax_loss``), the candidate samplers
they draw from, and ``compute_accidental_hits``.

The samplers and the accidental-hit search are non-differentiable ops (TensorFlow's op names);
the losses are compositions of tapegrad ops (``embedding_lookup``, ``matmul``, the cross
entropies), so their gradients reach ``weights``, ``biases`` and ``inputs`` as TensorFlow's do.
Samplers have TensorFlow's distributions and expected counts but draw from NumPy's Philox
generator, not from TensorFlow's kernel stream: the sampled ids are not TensorFlow's (pass
``sampled_values`` to reproduce a TensorFlow run exactly).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._convert import as_tensor
from .._dispatch import apply, defop
from .._tensor import Tensor
from ..errors import InvalidArgumentError
from .array import concat, expand_dims, reshape, stack, stop_gradient
from .indexing import embedding_lookup, tensor_scatter_nd_update
from .linalg import matmul
from .math import cast, log, ones_like, zeros_like
from .nn import sigmoid_cross_entropy_with_logits, softmax_cross_entropy_with_logits
from .reduction import reduce_sum

__all__ = ["log_uniform_candidate_sampler", "uniform_candidate_sampler", "fixed_unigram_candidate_sampler",
           "compute_accidental_hits", "nce_loss", "sampled_softmax_loss"]


def _expected(p: np.ndarray, num_sampled: int, tries: int) -> np.ndarray:
    """TF's ExpectedCountHelper: ``p · n`` without rejections, else ``1 - (1 - p)^tries``."""
    if tries == num_sampled:
        return (p * num_sampled).astype(np.float32)
    return (-np.expm1(tries * np.log1p(-p))).astype(np.float32)


def _sampler_fwd(true_classes: np.ndarray, *, kind: str, num_sampled: int, unique: bool, range_max: int,
                 seed: int, probs: tuple = ()) -> tuple:
    if kind == "log_uniform":
        log_range = np.log1p(range_max)

        def draw(u: np.ndarray) -> np.ndarray:
            return (np.exp(u * log_range).astype(np.int64) - 1) % range_max

        def prob(v: np.ndarray) -> np.ndarray:
            return np.log((v + 2.0) / (v + 1.0)) / log_range
    elif kind == "uniform":
        def draw(u: np.ndarray) -> np.ndarray:
            return np.minimum((u * range_max).astype(np.int64), range_max - 1)

        def prob(v: np.ndarray) -> np.ndarray:
            return np.full(v.shape, 1.0 / range_max)
    else:
        cdf = np.cumsum(np.asarray(probs, np.float64))
        pmf = np.asarray(probs, np.float64)

        def draw(u: np.ndarray) -> np.ndarray:
            return np.minimum(np.searchsorted(cdf, u * cdf[-1], side="right"), range_max - 1)

        def prob(v: np.ndarray) -> np.ndarray:
            return pmf[v] / cdf[-1]
    rng = np.random.Generator(np.random.Philox(seed))
    picked: list[int] = []
    seen: set[int] = set()
    tries, chunk = 0, max(2 * num_sampled, 64)
    while len(picked) < num_sampled:
        for v in draw(rng.random(chunk)).tolist():
            tries += 1
            if unique and v in seen:
                continue
            seen.add(v)
            picked.append(v)
            if len(picked) == num_sampled:
                break
    sampled = np.asarray(picked, np.int64)
    true_exp = _expected(prob(true_classes.astype(np.int64)), num_sampled, tries if unique else num_sampled)
    return sampled, true_exp, _expected(prob(sampled), num_sampled, tries if unique else num_sampled)


_log_uniform = defop("LogUniformCandidateSampler", _sampler_fwd, nondiff=True, nout=3)
_uniform = defop("UniformCandidateSampler", _sampler_fwd, nondiff=True, nout=3)
_fixed_unigram = defop("FixedUnigramCandidateSampler", _sampler_fwd, nondiff=True, nout=3)


def _seed(seed: Any) -> int:
    return int(np.random.SeedSequence().entropy if seed is None else int(seed) & (2**63 - 1))


def _sample(op: Any, kind: str, true_classes: Any, num_true: int, num_sampled: int, unique: bool,
            range_max: int, seed: Any, probs: tuple = ()) -> tuple[Tensor, Tensor, Tensor]:
    tc = as_tensor(true_classes)
    if tc._value.dtype.kind not in "iu" or tc._value.ndim != 2 or tc._value.shape[1] != int(num_true):
        raise InvalidArgumentError(f"true_classes must be an int64 matrix [batch_size, num_true = {num_true}], "
                                   f"got {tc.dtype.name} of shape {list(tc._value.shape)}.")
    if unique and num_sampled > range_max:
        raise InvalidArgumentError(f"unique sampling needs num_sampled <= range_max, got {num_sampled} > "
                                   f"{range_max}.")
    return apply(op, (tc,), {"kind": kind, "num_sampled": int(num_sampled), "unique": bool(unique),
                             "range_max": int(range_max), "seed": _seed(seed), "probs": probs})


def log_uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                                  range_max: int, seed: Any = None, name: Any = None) -> tuple:
    """Draw ``num_sampled`` class ids in ``[0, range_max)`` from the log-uniform (Zipfian)
    distribution ``P(k) = log((k + 2) / (k + 1)) / log(range_max + 1)``, without repeats when
    ``unique``. Returns ``(sampled_candidates, true_expected_count, sampled_expected_count)``:
    the ids (int64) and how many times each true class and each sampled id is expected among
    the draws (float32).

    >>> import tapegrad as tf
    >>> ids, t, s = tf.random.log_uniform_candidate_sampler(
    ...     tf.constant([[0]], tf.int64), 1, 5, True, 100, seed=1)
    >>> ids.shape, t.shape, s.shape
    (TensorShape([5]), TensorShape([1, 1]), TensorShape([5]))
    """
    return _sample(_log_uniform, "log_uniform", true_classes, num_true, num_sampled, unique, range_max, seed)


def uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                              range_max: int, seed: Any = None, name: Any = None) -> tuple:
    """As :func:`log_uniform_candidate_sampler`, with every id in ``[0, range_max)`` equally likely.

    >>> import tapegrad as tf
    >>> ids, _, s = tf.random.uniform_candidate_sampler(tf.constant([[1]], tf.int64), 1, 4, False, 10, seed=2)
    >>> s.numpy()
    array([0.4, 0.4, 0.4, 0.4], dtype=float32)
    """
    return _sample(_uniform, "uniform", true_classes, num_true, num_sampled, unique, range_max, seed)


def fixed_unigram_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                                    range_max: int, vocab_file: str = "", distortion: float = 1.0,
                                    num_reserved_ids: int = 0, num_shards: int = 1, shard: int = 0,
                                    unigrams: Any = (), seed: Any = None, name: Any = None) -> tuple:
    """As :func:`log_uniform_candidate_sampler`, with ``P(k) ∝ unigrams[k] ** distortion`` (the
    ``unigrams`` list; ``vocab_file`` and sharding are not supported).

    >>> import tapegrad as tf
    >>> ids, _, _ = tf.random.fixed_unigram_candidate_sampler(
    ...     tf.constant([[0]], tf.int64), 1, 3, True, 3, unigrams=[1.0, 2.0, 3.0], seed=3)
    >>> sorted(ids.numpy().tolist())
    [0, 1, 2]
    """
    if vocab_file or num_shards != 1 or shard != 0 or num_reserved_ids:
        raise NotImplementedError("fixed_unigram_candidate_sampler: only `unigrams` is supported (no "
                                  "vocab_file, num_reserved_ids or sharding).")
    u = np.asarray(unigrams, np.float64)
    if u.shape != (int(range_max),) or (u < 0).any():
        raise InvalidArgumentError(f"unigrams must hold range_max = {range_max} non-negative counts, got "
                                   f"{u.shape[0] if u.ndim == 1 else u.shape}.")
    probs = tuple((u ** float(distortion)).tolist())
    return _sample(_fixed_unigram, "unigram", true_classes, num_true, num_sampled, unique, range_max, seed, probs)


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
        at = stack([cast(rows, ids.dtype), ids], axis=1)  # (ops: a tf.function trace replays them)
        sampled_logits = sampled_logits + tensor_scatter_nd_update(
            zeros_like(sampled_logits), at, cast(hit_w, sampled_logits.dtype))
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
