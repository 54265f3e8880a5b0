"""Sampled losses (``tf.nn.nce_loss``, ``tf.nn.sampled_softmax_loss``), the candidate samplers
they draw from, and ``compute_accidental_hits``.

The samplers run TensorFlow's ``RangeSampler`` kernels (``_philox.candidates``) as stateful
random ops of the random family (``ops/random.py``: its kernels, seeds and graphs): the same ids and expected counts
for the same seeds. The accidental-hit search is a non-differentiable op; the losses are
compositions of tapegrad ops (``embedding_lookup``, ``matmul``, the cross entropies), so their
gradients reach ``weights``, ``biases`` and ``inputs`` as TensorFlow's do.
"""
from __future__ import annotations

import functools
import math
from typing import Any, Callable

import numpy as np

from .. import _philox, dtypes as _dt
from .._convert import as_tensor, check_values
from .._dispatch import apply, defop
from .._tensor import Tensor, constant_maker, wrap as _wrap
from ..errors import InvalidArgumentError
from .array import concat, expand_dims, reshape, stack, stop_gradient
from .indexing import embedding_lookup, tensor_scatter_nd_update
from .linalg import matmul
from .math import cast, log, ones_like, zeros_like
from .nn import sigmoid_cross_entropy_with_logits, softmax_cross_entropy_with_logits
from .random import kernel_draw, take_seed
from .reduction import reduce_sum

__all__ = ["log_uniform_candidate_sampler", "uniform_candidate_sampler", "learned_unigram_candidate_sampler",
           "fixed_unigram_candidate_sampler", "all_candidate_sampler", "compute_accidental_hits", "nce_loss",
           "sampled_softmax_loss"]


_KINT32MAX = 2**31 - 1


def _check_candidates(v: np.ndarray, n: int) -> None:
    bad = v[(v < 0) | (v >= n)]
    if bad.size:
        raise InvalidArgumentError(f"`true_candidate` out of range [0, {n}), received {bad[0]}")


def _expected(p: np.ndarray, num_sampled: int, tries: int) -> np.ndarray:
    """TF's ExpectedCountHelper in float32: ``p · n`` without rejections, else ``1 - (1 - p)^tries``
    (``log1pf`` and ``expm1f`` as float64 rounded to float32: the C library's, correctly rounded)."""
    if tries == num_sampled:
        return p * np.float32(num_sampled)
    log = np.log1p(-p.astype(np.float64)).astype(np.float32)
    return (-np.expm1((np.float32(tries) * log).astype(np.float64))).astype(np.float32)


class Candidates:
    """(internal) A candidate sampler kernel's draw, as data (a saved function stores it): ``kind``
    of ``_philox.candidates``, its counts, and for "unigram" the ids' float32 weights. Called as
    :func:`kernel_draw`'s ``make`` with the kernel's state: "learned" keeps its weights there, 1
    for every id at first, and adds the true classes after each draw."""

    KINDS = ("uniform", "log_uniform", "learned", "unigram")
    __slots__ = ("kind", "num_sampled", "unique", "range_max", "weights", "total", "table")

    def __init__(self, kind: str, num_sampled: int, unique: bool, range_max: int,
                 weights: np.ndarray | None = None) -> None:
        if kind not in self.KINDS or (weights is not None) != (kind == "unigram"):
            raise ValueError(f"an unknown candidate sampler {kind!r}")
        self.kind, self.num_sampled, self.unique, self.range_max = kind, num_sampled, unique, range_max
        self.weights, self.table, self.total = weights, None, np.float32(0)
        if weights is not None:
            self.table = _philox.alias_table(weights)
            for x in weights:  # (TF: a float32 sum, in order)
                self.total += x

    def prob(self, v: np.ndarray, w: np.ndarray | None) -> np.ndarray:
        """The probabilities of ids ``v`` (float32)."""
        if self.kind == "uniform":
            return np.full(v.shape, np.float32(1.0 / self.range_max))
        if self.kind == "log_uniform":
            log_range = math.log1p(self.range_max)
            return np.array([math.log((k + 2.0) / (k + 1.0)) / log_range for k in v.tolist()], np.float32)
        if self.kind == "learned":
            return w[v].astype(np.float32) / np.float32(w.sum())
        return self.weights[v] / self.total

    def __call__(self, key: int, counter: int, state: list, undo: Callable, true: np.ndarray) -> tuple:
        flat = true.astype(np.int64).ravel()
        w = None
        if self.kind == "learned":
            if len(state) == 2:  # the kernel's WeightedPicker, every weight 1 at first
                state.append(np.ones(self.range_max, np.int64))
            w = state[2]
            n = min(flat.size, _KINT32MAX - int(w.sum()))
            state[2] = w + np.bincount(flat[:n], minlength=self.range_max)  # (TF updates after sampling)
            undo(lambda: state.__setitem__(2, w))
        ids, tries = _philox.candidates(key, counter, self.kind, self.num_sampled, self.unique, self.range_max,
                                        w if self.kind == "learned" else self.table)
        sampled = np.array(ids, np.int64)
        return (sampled, _expected(self.prob(flat, w), self.num_sampled, tries).reshape(true.shape),
                _expected(self.prob(sampled, w), self.num_sampled, tries))


def _sampler(op: str, true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
             seed: Any, kind: str, weights: np.ndarray | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """A candidate sampler kernel: ``num_sampled`` draws of ``kind`` (``_philox.candidates``) from
    2048 reserved words a draw, and the expected counts (:class:`Candidates`)."""
    tc = as_tensor(true_classes)
    num_true, num_sampled, range_max = int(num_true), int(num_sampled), int(range_max)
    if tc._value.dtype.kind not in "iu" or tc._value.ndim != 2 or tc._value.shape[1] != num_true:
        raise InvalidArgumentError(f"true_classes must be an int64 matrix [batch_size, num_true = {num_true}], "
                                   f"got {tc.dtype.name} of shape {list(tc._value.shape)}.")
    if range_max <= 0:
        raise InvalidArgumentError(f"range_max must be positive, got {range_max}.")
    if unique and num_sampled > range_max:
        raise InvalidArgumentError(f"unique sampling needs num_sampled <= range_max, got {num_sampled} > "
                                   f"{range_max}.")
    check_values(functools.partial(_check_candidates, n=range_max), tc)
    return kernel_draw((op, num_true, num_sampled, unique, range_max), seed, 512 * num_sampled,
                       Candidates(kind, num_sampled, bool(unique), range_max, weights), (tc,), state=True)


def uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                              range_max: int, seed: Any = None, name: Any = None) -> tuple:
    """Draw ``num_sampled`` class ids in ``[0, range_max)``, every id equally likely, without
    repeats when ``unique``: TensorFlow's draws for the same seeds. Returns
    ``(sampled_candidates, true_expected_count, sampled_expected_count)``: the ids (int64) and
    how many times each true class and each sampled id is expected among the draws (float32).

    >>> import tapegrad as tf
    >>> ids, _, s = tf.random.uniform_candidate_sampler(tf.constant([[1]], tf.int64), 1, 4, False, 10, seed=2)
    >>> s.numpy()
    array([0.4, 0.4, 0.4, 0.4], dtype=float32)
    """
    return _sampler("UniformCandidateSampler", true_classes, num_true, num_sampled, unique, range_max, seed,
                    "uniform")


def log_uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                                  range_max: int, seed: Any = None, name: Any = None) -> tuple:
    """As :func:`uniform_candidate_sampler`, from the log-uniform (Zipfian) distribution
    ``P(k) = log((k + 2) / (k + 1)) / log(range_max + 1)``.

    >>> import tapegrad as tf
    >>> ids, t, s = tf.random.log_uniform_candidate_sampler(
    ...     tf.constant([[0]], tf.int64), 1, 5, True, 100, seed=1)
    >>> ids.shape, t.shape, s.shape
    (TensorShape([5]), TensorShape([1, 1]), TensorShape([5]))
    """
    return _sampler("LogUniformCandidateSampler", true_classes, num_true, num_sampled, unique, range_max, seed,
                    "log_uniform")


def learned_unigram_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                                      range_max: int, seed: Any = None, name: Any = None) -> tuple:
    """As :func:`uniform_candidate_sampler`, with ``P(k)`` proportional to 1 plus the number of
    times ``k`` was a true class in this sampler's earlier calls (the kernel learns after each
    draw; a seeded sampler's kernel, like TensorFlow's, is shared by the calls with its seeds).

    >>> import tapegrad as tf
    >>> ids, t, _ = tf.random.learned_unigram_candidate_sampler(
    ...     tf.constant([[2]], tf.int64), 1, 3, False, 4, seed=1)
    >>> t.numpy()  # 3 draws from 4 ids, equally likely at first
    array([[0.75]], dtype=float32)
    """
    if int(range_max) >= _KINT32MAX:
        raise InvalidArgumentError(f"range_max must be less than {_KINT32MAX} for unigram samplers, got "
                                   f"{range_max}")
    return _sampler("LearnedUnigramCandidateSampler", true_classes, num_true, num_sampled, unique, range_max,
                    seed, "learned")


def _unigram_weights(range_max: int, vocab_file: str, distortion: float, num_reserved_ids: int,
                     num_shards: int, shard: int, unigrams: Any) -> np.ndarray:
    """FixedUnigramSampler's float32 weights: 0 for the reserved ids of this shard, then
    ``count ** distortion`` for the ids of this shard (TF numbers them on from the reserved ids
    kept)."""
    if bool(vocab_file) == bool(len(unigrams)):
        raise InvalidArgumentError("fixed_unigram_candidate_sampler: give one of vocab_file and unigrams.")
    if num_shards < 1 or not 0 <= shard < num_shards:
        raise InvalidArgumentError(f"need 0 <= shard < num_shards, got shard={shard}, num_shards={num_shards}.")
    weights = [np.float32(0)] * sum(1 for i in range(num_reserved_ids) if i % num_shards == shard)
    if vocab_file:
        with open(vocab_file) as f:
            counts = []
            for line in f.read().splitlines():
                try:
                    counts.append(float(line.split(",")[-1]))
                except ValueError:
                    raise InvalidArgumentError(f"Wrong vocabulary format at line: {line}") from None
    else:
        counts = [float(u) for u in np.ravel(unigrams)]
    d = np.float32(distortion)
    weights += [np.float32(c) ** d for i, c in enumerate(counts, len(weights)) if i % num_shards == shard]
    w = np.array(weights, np.float32)
    if w.size != range_max or (w < 0).any():
        raise InvalidArgumentError(f"range is {range_max} must be equal to weights size {w.size} (the "
                                   "unigrams are non-negative counts, one per id of this shard)")
    return w


def fixed_unigram_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                                    range_max: int, vocab_file: str = "", distortion: float = 1.0,
                                    num_reserved_ids: int = 0, num_shards: int = 1, shard: int = 0,
                                    unigrams: Any = (), seed: Any = None, name: Any = None) -> tuple:
    """As :func:`uniform_candidate_sampler`, with ``P(k) ∝ unigrams[k] ** distortion`` (the
    ``unigrams`` list, or the last comma-separated field of each line of ``vocab_file``;
    ``num_reserved_ids`` ids of weight 0 come first; ``num_shards``/``shard``: only the ids
    ``i`` with ``i % num_shards == shard``).

    >>> import tapegrad as tf
    >>> ids, _, _ = tf.random.fixed_unigram_candidate_sampler(
    ...     tf.constant([[0]], tf.int64), 1, 3, True, 3, unigrams=[1.0, 2.0, 3.0], seed=3)
    >>> sorted(ids.numpy().tolist())
    [0, 1, 2]
    """
    w = _unigram_weights(int(range_max), vocab_file, distortion, int(num_reserved_ids), int(num_shards),
                         int(shard), unigrams)
    return _sampler("FixedUnigramCandidateSampler", true_classes, num_true, num_sampled, unique, range_max,
                    seed, "unigram", w)


@constant_maker  # (its results depend on shapes and num_sampled only)
def all_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool, seed: Any = None,
                          name: Any = None) -> tuple:
    """Every class ``0 .. num_sampled - 1``, each expected once (a test sampler; ``unique`` is
    ignored). It draws nothing, but takes an op seed as TensorFlow's does.

    >>> import tapegrad as tf
    >>> tf.random.all_candidate_sampler(tf.constant([[1]], tf.int64), 1, 3, True)[0].numpy()
    array([0, 1, 2])
    """
    tc = as_tensor(true_classes)
    n = int(num_sampled)
    if tc._value.ndim != 2 or tc._value.shape[1] != int(num_true):
        raise InvalidArgumentError(f"true_classes must be an int64 matrix [batch_size, num_true = {num_true}], "
                                   f"got shape {list(tc._value.shape)}.")
    check_values(functools.partial(_check_candidates, n=n), tc)
    take_seed(seed)
    return (_wrap(np.arange(n, dtype=np.int64)), _wrap(np.ones(tc._value.shape, np.float32)),
            _wrap(np.ones(n, np.float32)))


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
