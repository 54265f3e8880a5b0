"""``tapegrad.keras.preprocessing.sequence``: ``pad_sequences`` (``keras.utils.pad_sequences``) and
tf.keras's legacy sequence helpers as Keras 3 keeps them: ``TimeseriesGenerator``,
``make_sampling_table`` and ``skipgrams`` (NumPy and Python's ``random``, as Keras's).

>>> from tapegrad import keras
>>> couples, labels = keras.preprocessing.sequence.skipgrams([1, 2, 3], 4, window_size=1,
...                                                          negative_samples=0, shuffle=False)
>>> couples, labels
([[1, 2], [2, 1], [2, 3], [3, 2]], [1, 1, 1, 1])
"""
from __future__ import annotations

import json
import random
from typing import Any, Sequence

import numpy as np

from .._data_utils import PyDataset
from ..utils import pad_sequences

__all__ = ["TimeseriesGenerator", "make_sampling_table", "pad_sequences", "skipgrams"]


class TimeseriesGenerator(PyDataset):
    """Batches of ``(samples, targets)`` from a series: sample ``row`` holds
    ``data[row - length:row:sampling_rate]`` and its target is ``targets[row]``, for rows from
    ``start_index + length`` to ``end_index`` (default ``len(data) - 1``) every ``stride``;
    ``shuffle`` draws each batch's rows with ``np.random.randint`` instead; ``reverse`` gives the
    steps of each sample newest first.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> gen = keras.preprocessing.sequence.TimeseriesGenerator(np.arange(6), np.arange(6) * 10,
    ...                                                        length=2, batch_size=2)
    >>> len(gen), gen[0][0].tolist(), gen[0][1].tolist()
    (2, [[0, 1], [1, 2]], [20, 30])
    """

    def __init__(self, data: Any, targets: Any, length: int, sampling_rate: int = 1, stride: int = 1,
                 start_index: int = 0, end_index: int | None = None, shuffle: bool = False,
                 reverse: bool = False, batch_size: int = 128, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if len(data) != len(targets):
            raise ValueError(f"Data and targets have to be of same length. Data length is {len(data)} while "
                             f"target length is {len(targets)}")
        self.data, self.targets, self.length = data, targets, length
        self.sampling_rate, self.stride = sampling_rate, stride
        self.start_index = start_index + length
        self.end_index = len(data) - 1 if end_index is None else end_index
        self.shuffle, self.reverse, self.batch_size = shuffle, reverse, batch_size
        if self.start_index > self.end_index:
            raise ValueError(f"`start_index+length={self.start_index} > end_index={self.end_index}` is "
                             "disallowed, as no part of the sequence would be left to be used as current step.")

    def __len__(self) -> int:
        span = self.batch_size * self.stride
        return (self.end_index - self.start_index + span) // span

    def __getitem__(self, index: int) -> tuple:
        if self.shuffle:
            rows = np.random.randint(self.start_index, self.end_index + 1, size=self.batch_size)
        else:
            i = self.start_index + self.batch_size * self.stride * index
            rows = np.arange(i, min(i + self.batch_size * self.stride, self.end_index + 1), self.stride)
        samples = np.array([self.data[r - self.length:r:self.sampling_rate] for r in rows])
        targets = np.array([self.targets[r] for r in rows])
        return (samples[:, ::-1, ...], targets) if self.reverse else (samples, targets)

    def get_config(self) -> dict:
        """The arguments, ``data`` and ``targets`` as JSON strings (``TypeError`` if they cannot be)."""
        def as_json(v: Any, what: str) -> str:
            try:
                return json.dumps(v.tolist() if isinstance(v, np.ndarray) else v)
            except TypeError as e:
                raise TypeError(f"{what} not JSON Serializable: {v}") from e
        config: dict[str, Any] = {"workers": self.workers, "use_multiprocessing": self.use_multiprocessing,
                  "max_queue_size": self.max_queue_size}
        config.update({"data": as_json(self.data, "Data"), "targets": as_json(self.targets, "Targets"),
                       "length": self.length, "sampling_rate": self.sampling_rate, "stride": self.stride,
                       "start_index": self.start_index, "end_index": self.end_index, "shuffle": self.shuffle,
                       "reverse": self.reverse, "batch_size": self.batch_size})
        return config

    def to_json(self, **kwargs: Any) -> str:
        """The configuration as JSON; ``kwargs`` go to ``json.dumps``."""
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()}, **kwargs)


def make_sampling_table(size: int, sampling_factor: float = 1e-5) -> np.ndarray:
    """word2vec's probability of keeping the word of each frequency rank (for ``skipgrams``'s
    ``sampling_table``): ``min(1, sqrt(f))`` with ``f = sampling_factor / frequency(rank)``,
    the frequencies following Zipf's law (``1 / frequency ~ rank * (log(rank) + 0.577) + 1/2 -
    1 / (12 rank)``; rank 0 counts as 1).

    >>> from tapegrad import keras
    >>> keras.preprocessing.sequence.make_sampling_table(3).round(6).tolist()
    [0.003152, 0.003152, 0.005476]
    """
    rank = np.arange(size)
    rank[0] = 1
    f = sampling_factor * (rank * (np.log(rank) + 0.577) + 0.5 - 1.0 / (12.0 * rank))
    return np.minimum(1.0, f / np.sqrt(f))


def skipgrams(sequence: Sequence, vocabulary_size: int, window_size: int = 4, negative_samples: float = 1.0,
              shuffle: bool = True, categorical: bool = False, sampling_table: Any = None,
              seed: int | None = None) -> tuple:
    """``(couples, labels)``: each nonzero word with each nonzero word at most ``window_size``
    away (label 1), then ``negative_samples`` times as many couples of a word with a random index
    in ``[1, vocabulary_size)`` (label 0), drawn from Python's ``random`` as Keras does;
    ``sampling_table`` keeps word ``w`` with probability ``sampling_table[w]``; ``categorical``
    labels are ``[0, 1]``/``[1, 0]``; ``shuffle`` shuffles both lists alike (``seed``)."""
    couples, labels = [], []
    for i, wi in enumerate(sequence):
        if not wi or sampling_table is not None and sampling_table[wi] < random.random():
            continue
        for j in range(max(0, i - window_size), min(len(sequence), i + window_size + 1)):
            if j != i and sequence[j]:
                couples.append([wi, sequence[j]])
                labels.append([0, 1] if categorical else 1)
    if negative_samples > 0:
        n = int(len(labels) * negative_samples)
        words = [c[0] for c in couples]
        random.shuffle(words)
        couples += [[words[i % len(words)], random.randint(1, vocabulary_size - 1)] for i in range(n)]
        labels += [[1, 0] if categorical else 0] * n
    if shuffle:
        if seed is None:
            seed = random.randint(0, 10 ** 7)
        random.seed(seed)
        random.shuffle(couples)
        random.seed(seed)
        random.shuffle(labels)
    return couples, labels
