"""``keras.datasets.imdb``: 50,000 film reviews as lists of word ids, labelled by sentiment."""
from __future__ import annotations

import json
from typing import Any

import numpy as np

from .._data_utils import get_file
from ._common import ORIGIN, drop_long, keep_vocabulary, load_npz, word_ids

__all__ = ["get_word_index", "load_data"]


def load_data(path: str = "imdb.npz", num_words: int | None = None, skip_top: int = 0,
              maxlen: int | None = None, seed: int = 113, start_char: int | None = 1,
              oov_char: int | None = 2, index_from: int = 3, **kwargs: Any) -> tuple:
    """``(x_train, y_train), (x_test, y_test)``: object arrays of word-id lists (shuffled with
    ``seed``, ids shifted by ``index_from`` after ``start_char``; ids outside
    ``[skip_top, num_words)`` become ``oov_char``; reviews of ``maxlen`` words or more dropped)
    and 0/1 labels, as Keras builds them."""
    path = get_file(fname=path, origin=f"{ORIGIN}imdb.npz",
                    file_hash="69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f")
    f = load_npz(path)
    x_train, labels_train, x_test, labels_test = f["x_train"], f["y_train"], f["x_test"], f["y_test"]
    rng = np.random.RandomState(seed)
    indices = np.arange(len(x_train))
    rng.shuffle(indices)
    x_train, labels_train = x_train[indices], labels_train[indices]
    indices = np.arange(len(x_test))
    rng.shuffle(indices)
    x_test, labels_test = x_test[indices], labels_test[indices]
    x_train, x_test = word_ids(x_train, start_char, index_from), word_ids(x_test, start_char, index_from)
    if maxlen:
        x_train, labels_train = drop_long(maxlen, x_train, labels_train)
        x_test, labels_test = drop_long(maxlen, x_test, labels_test)
        if not x_train or not x_test:
            raise ValueError(f"After filtering for sequences shorter than maxlen={maxlen}, no "
                             "sequence was kept. Increase maxlen.")
    xs = keep_vocabulary(x_train + x_test, num_words, skip_top, oov_char)
    labels = np.concatenate([labels_train, labels_test])
    n = len(x_train)
    return ((np.array(xs[:n], dtype="object"), labels[:n]),
            (np.array(xs[n:], dtype="object"), labels[n:]))


def get_word_index(path: str = "imdb_word_index.json") -> dict:
    """``{word: id}`` (ids before the ``index_from`` shift)."""
    path = get_file(fname=path, origin=f"{ORIGIN}imdb_word_index.json",
                    file_hash="bfafd718b763782e994055a2d397834f")
    with open(path) as fh:
        return json.load(fh)
