"""``tf.nn``'s CTC decoders (TensorFlow's ``CTCGreedyDecoder`` and ``CTCBeamSearchDecoder`` kernels),
``ctc_unique_labels`` and ``tf.edit_distance``."""
from __future__ import annotations

from typing import Any

import numpy as np

from ._convert import as_tensor, host_value
from ._tensor import Tensor, constant_maker, wrap
from .errors import FailedPreconditionError, InvalidArgumentError
from .sparse import SparseTensor

__all__ = ["ctc_beam_search_decoder", "ctc_greedy_decoder", "ctc_unique_labels", "edit_distance"]


def _ctc_inputs(inputs: Any, sequence_length: Any, op: str, dtypes: tuple) -> tuple:
    """The logits ``[max_time, batch, classes]`` and the lengths ``[batch]``, checked, as NumPy."""
    x = as_tensor(inputs)
    if x.dtype.name not in dtypes:
        raise InvalidArgumentError(f"{op} takes {' or '.join(dtypes)} inputs; got {x.dtype.name}.")
    v = np.asarray(host_value(x, "inputs"))
    if v.ndim != 3:
        raise InvalidArgumentError(f"inputs is not a 3-Tensor [Op:{op}]")
    lengths = np.asarray(host_value(as_tensor(sequence_length), "sequence_length")).reshape(-1)
    if lengths.shape != (v.shape[1],):
        raise InvalidArgumentError(f"len(sequence_length) != batch_size.  len(sequence_length):  {len(lengths)} "
                                   f"batch_size: {v.shape[1]} [Op:{op}]")
    return v, lengths


@constant_maker  # (from guarded reads of the inputs: host_value)
def ctc_greedy_decoder(inputs: Any, sequence_length: Any, merge_repeated: bool = True,
                       blank_index: int | None = None) -> tuple[list, Tensor]:
    """Greedy (best-path) decoding of CTC logits ``[max_time, batch, num_classes]``: at each
    step of each sequence the most likely class (the first on ties); blanks dropped and, with
    ``merge_repeated``, repeats merged. Returns ``([decoded], neg_sum_logits)``: ``decoded`` a
    SparseTensor ``[batch, longest]`` of int64 labels, ``neg_sum_logits`` ``[batch, 1]`` minus
    the sum of the chosen logits. ``blank_index`` defaults to the last class (negative counts
    from the end); another blank shifts the labels above it down by one, as TensorFlow's.

    >>> import numpy as np, tapegrad as tf
    >>> logits = np.log(np.array([[[0.1, 0.8, 0.1]], [[0.1, 0.8, 0.1]], [[0.1, 0.1, 0.8]],
    ...                           [[0.7, 0.2, 0.1]]], np.float32))
    >>> (dec,), neg = tf.nn.ctc_greedy_decoder(logits, [4])
    >>> dec.values.numpy(), dec.dense_shape.numpy()
    (array([1, 0]), array([1, 2]))
    """
    v, lengths = _ctc_inputs(inputs, sequence_length, "CTCGreedyDecoder", ("float32", "float64", "float16"))
    t_max, nb, nc = v.shape
    blank = nc - 1 if blank_index is None else int(blank_index)
    if blank < 0:
        blank += nc
    if not 0 <= blank < nc:
        raise InvalidArgumentError(f"blank_index expected to be between {-nc} and {nc - 1} but was {blank_index}")
    if blank != nc - 1:  # (TF rolls the blank to the last class, then shifts the labels back)
        v = np.concatenate([v[..., :blank], v[..., blank + 1:], v[..., blank:blank + 1]], -1)
    neg = np.zeros((nb, 1), v.dtype)
    seqs = []
    for b in range(nb):
        if lengths[b] > t_max:
            raise FailedPreconditionError(f"sequence_length({b}) <= {t_max} [Op:CTCGreedyDecoder]")
        seq, prev = [], -1
        for t in range(int(lengths[b])):
            k = int(np.argmax(v[t, b]))
            neg[b, 0] -= v[t, b, k]
            if k != nc - 1 and not (merge_repeated and k == prev):
                seq.append(k)
            prev = k
        seqs.append(seq)
    width = max((len(s) for s in seqs), default=0)
    idx = np.asarray([[b, j] for b, s in enumerate(seqs) for j in range(len(s))], np.int64).reshape(-1, 2)
    vals = np.asarray([k for s in seqs for k in s], np.int64)
    if blank != nc - 1:
        vals = vals + (vals >= blank)
    return [SparseTensor(wrap(idx), wrap(vals), wrap(np.asarray([nb, width], np.int64)))], wrap(neg)


_LOG_ZERO = -np.inf


class _Beam:
    """A prefix in the beam (TensorFlow's ``BeamEntry``): its log probabilities ending in a blank,
    in its last label, and in total, at the previous step (``old``) and this one (``new``)."""

    __slots__ = ("parent", "label", "children", "old", "new")

    def __init__(self, parent: Any, label: int) -> None:
        self.parent, self.label, self.children = parent, label, {}
        self.old = [_LOG_ZERO, _LOG_ZERO, _LOG_ZERO]   # blank, label, total
        self.new = [_LOG_ZERO, _LOG_ZERO, _LOG_ZERO]

    def active(self) -> bool:
        return self.new[2] != _LOG_ZERO

    def labels(self, merge_repeated: bool) -> list:
        out, b = [], self
        while b.parent is not None:
            if not (merge_repeated and out and out[-1] == b.label):
                out.append(b.label)
            b = b.parent
        return out[::-1]


def _logaddexp(a: float, b: float) -> float:
    return float(np.logaddexp(a, b))


def _beam_search(logits: np.ndarray, beam_width: int, top_paths: int, merge_repeated: bool) -> tuple:
    """TensorFlow's ``CTCBeamSearchDecoder`` on one sequence ``[time, classes]`` (blank last)."""
    nc = logits.shape[-1]
    root = _Beam(None, -1)
    root.new = [0.0, _LOG_ZERO, 0.0]
    leaves = [root]
    for x in logits:
        x = x.astype(np.float64) - float(np.max(x))
        x = x - float(np.log(np.sum(np.exp(x))))  # (log-softmax)
        branches = sorted(leaves, key=lambda e: -e.new[2])
        leaves = []
        for b in branches:
            b.old = list(b.new)
        for b in branches:
            if b.parent is not None:
                if b.parent.active():
                    prev = b.parent.old[0] if b.label == b.parent.label else b.parent.old[2]
                    b.new[1] = _logaddexp(b.new[1], prev)
                b.new[1] += x[b.label]
            b.new[0] = b.old[2] + x[nc - 1]
            b.new[2] = _logaddexp(b.new[0], b.new[1])
            leaves.append(b)

        def candidate(p: list) -> bool:
            return p[2] > _LOG_ZERO and (len(leaves) < beam_width or p[2] > min(e.new[2] for e in leaves))
        for b in branches:
            if not candidate(b.old):
                continue
            for label in range(nc - 1):
                c = b.children.get(label)
                if c is None:
                    c = b.children[label] = _Beam(b, label)
                if c.active():
                    continue
                prev = b.old[0] if label == b.label else b.old[2]
                c.new = [_LOG_ZERO, x[label] + prev, x[label] + prev]
                if candidate(c.new):
                    if len(leaves) == beam_width:
                        bottom = min(leaves, key=lambda e: e.new[2])
                        bottom.new = [_LOG_ZERO, _LOG_ZERO, _LOG_ZERO]
                        leaves.remove(bottom)
                    leaves.append(c)
                else:
                    c.old = [_LOG_ZERO, _LOG_ZERO, _LOG_ZERO]
                    c.new = [_LOG_ZERO, _LOG_ZERO, _LOG_ZERO]
    if top_paths > len(leaves):
        raise InvalidArgumentError("Less leaves in the beam search than requested.")
    best = sorted(leaves, key=lambda e: -e.new[2])[:top_paths]
    return [e.labels(merge_repeated) for e in best], [e.new[2] for e in best]


def _sparse_rows(seqs: list, nb: int) -> SparseTensor:
    width = max((len(s) for s in seqs), default=0)
    idx = np.asarray([[b, j] for b, s in enumerate(seqs) for j in range(len(s))], np.int64).reshape(-1, 2)
    vals = np.asarray([k for s in seqs for k in s], np.int64)
    return SparseTensor(wrap(idx), wrap(vals), wrap(np.asarray([nb, width], np.int64)))


@constant_maker  # (from guarded reads of the inputs: host_value)
def ctc_beam_search_decoder(inputs: Any, sequence_length: Any, beam_width: int = 100,
                            top_paths: int = 1) -> tuple[list, Tensor]:
    """Beam search decoding of CTC logits ``[max_time, batch, num_classes]`` (the blank is the
    last class), TensorFlow's algorithm: the ``beam_width`` most likely label prefixes are kept
    at each step, and a prefix's probability sums over its alignments (repeats are not merged).
    Returns ``(decoded, log_probability)``: ``decoded`` a list of ``top_paths`` SparseTensors
    ``[batch, longest]`` of int64 labels (the best paths first), ``log_probability``
    ``[batch, top_paths]`` their log probabilities. Not differentiable (as TensorFlow's).

    >>> import numpy as np, tapegrad as tf
    >>> logits = np.log(np.array([[[0.1, 0.8, 0.1]], [[0.1, 0.8, 0.1]], [[0.1, 0.1, 0.8]]], np.float32))
    >>> (dec,), logp = tf.nn.ctc_beam_search_decoder(logits, [3], beam_width=4)
    >>> dec.values.numpy()
    array([1])
    """
    v, lengths = _ctc_inputs(inputs, sequence_length, "CTCBeamSearchDecoder", ("float32", "float64"))
    t_max, nb, _ = v.shape
    if top_paths > beam_width:
        raise InvalidArgumentError(f"top_paths must be <= beam_width. top_paths: {top_paths} beam_width: {beam_width}"
                                   " [Op:CTCBeamSearchDecoder]")
    paths, logp = [[] for _ in range(top_paths)], np.zeros((nb, top_paths), v.dtype)
    for b in range(nb):
        if lengths[b] > t_max:
            raise FailedPreconditionError(f"sequence_length({b}) <= {t_max} [Op:CTCBeamSearchDecoder]")
        seqs, probs = _beam_search(v[:int(lengths[b]), b], int(beam_width), int(top_paths), False)
        for i in range(top_paths):
            paths[i].append(seqs[i])
        logp[b] = probs
    return [_sparse_rows(p, nb) for p in paths], wrap(logp)


def ctc_unique_labels(labels: Any, name: Any = None) -> list:
    """Each row of dense ``labels`` ``[batch, max_len]`` as its unique labels in first-seen order
    (int64, padded with 0 to ``max_len``) and each label's index among them (int32).

    >>> import tapegrad as tf
    >>> u, idx = tf.nn.ctc_unique_labels([[3, 4, 4, 3]])
    >>> u.numpy(), idx.numpy()
    (array([[3, 4, 0, 0]]), array([[0, 1, 1, 0]], dtype=int32))
    """
    t = as_tensor(labels)
    v = np.asarray(host_value(t, "labels"))
    if v.ndim != 2:
        raise ValueError(f"ctc_unique_labels takes labels of rank 2 [batch, max_label_length]; got rank {v.ndim}.")
    uniq, index = np.zeros(v.shape, np.int64), np.zeros(v.shape, np.int32)
    for b, row in enumerate(v):
        seen: dict = {}
        for j, k in enumerate(row.tolist()):
            index[b, j] = seen.setdefault(k, len(seen))
        uniq[b, :len(seen)] = list(seen)
    return [wrap(uniq), wrap(index)]


def _levenshtein(a: list, b: list) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


def _groups(st: SparseTensor, what: str) -> tuple:
    idx = np.asarray(host_value(as_tensor(st.indices), what)).reshape(-1, np.asarray(st.dense_shape).size)
    vals = np.asarray(host_value(as_tensor(st.values), what))
    shape = np.asarray(host_value(as_tensor(st.dense_shape), what))
    out: dict = {}
    for i in np.lexsort(idx.T[::-1]) if len(idx) else []:
        out.setdefault(tuple(idx[i, :-1].tolist()), []).append(vals[i].item() if hasattr(vals[i], "item") else vals[i])
    return out, shape


def edit_distance(hypothesis: Any, truth: Any, normalize: bool = True, name: str = "edit_distance") -> Tensor:
    """The Levenshtein distance between the sequences of two SparseTensors: each is grouped by
    all its coordinates but the last, and the result (float32) has, per axis, the larger of the
    two dense shapes but the last axis. With ``normalize``, divided by the truth's length (so
    ``inf`` where the truth is empty and the hypothesis is not).

    >>> import tapegrad as tf
    >>> h = tf.SparseTensor([[0, 0], [0, 1]], ["a", "b"], [1, 2])
    >>> t = tf.SparseTensor([[0, 0], [0, 1], [0, 2]], ["a", "c", "b"], [1, 3])
    >>> tf.edit_distance(h, t, normalize=False).numpy()
    array([1.], dtype=float32)
    """
    if not (isinstance(hypothesis, SparseTensor) and isinstance(truth, SparseTensor)):
        raise TypeError("tf.edit_distance takes SparseTensors (tf.sparse.from_dense converts a dense tensor).")
    if hypothesis.dtype != truth.dtype:
        raise TypeError(f"tf.edit_distance: hypothesis and truth have different dtypes: {hypothesis.dtype.name} "
                        f"and {truth.dtype.name}.")
    hyp, hs = _groups(hypothesis, "hypothesis")
    tru, ts = _groups(truth, "truth")
    if hs.size != ts.size:
        raise InvalidArgumentError(f"hypothesis and truth must have the same rank; got {hs.size} and {ts.size} "
                                   "[Op:EditDistance]")
    if hs.size < 2:
        raise InvalidArgumentError("hypothesis and truth must be SparseTensors of rank 2 or more [Op:EditDistance]")
    shape = np.maximum(hs[:-1], ts[:-1])
    out = np.zeros(tuple(shape.tolist()), np.float32)
    for key in set(hyp) | set(tru):
        h, t = hyp.get(key, []), tru.get(key, [])
        d = float(_levenshtein(h, t))
        out[key] = (d / len(t) if t else (np.inf if h else 0.0)) if normalize else d
    return wrap(out)
