"""``tf.nn``'s CTC greedy decoder (TensorFlow's ``CTCGreedyDecoder`` kernel)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ._convert import as_tensor, host_value
from ._tensor import Tensor, constant_maker, wrap
from .errors import FailedPreconditionError, InvalidArgumentError
from .sparse import SparseTensor

__all__ = ["ctc_greedy_decoder"]


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
    x = as_tensor(inputs)
    if x.dtype.name not in ("float32", "float64", "float16"):
        raise InvalidArgumentError(f"CTCGreedyDecoder takes float inputs; got {x.dtype.name}.")
    v = np.asarray(host_value(x, "inputs"))
    if v.ndim != 3:
        raise InvalidArgumentError("inputs is not a 3-Tensor [Op:CTCGreedyDecoder]")
    t_max, nb, nc = v.shape
    lengths = np.asarray(host_value(as_tensor(sequence_length), "sequence_length")).reshape(-1)
    if lengths.shape != (nb,):
        raise InvalidArgumentError(f"len(sequence_length) != batch_size.  len(sequence_length):  {len(lengths)} "
                                   f"batch_size: {nb} [Op:CTCGreedyDecoder]")
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
