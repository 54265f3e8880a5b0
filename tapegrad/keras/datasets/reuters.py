"""``keras.datasets.reuters``: 11,228 newswires as lists of word ids, in 46 topics."""
from __future__ import annotations

import json

import numpy as np

from .._data_utils import get_file
from ._common import ORIGIN, drop_long, keep_vocabulary, load_npz, word_ids

__all__ = ["get_label_names", "get_word_index", "load_data"]


def load_data(path: str = "reuters.npz", num_words: int | None = None, skip_top: int = 0,
              maxlen: int | None = None, test_split: float = 0.2, seed: int = 113,
              start_char: int | None = 1, oov_char: int | None = 2, index_from: int = 3) -> tuple:
    """``(x_train, y_train), (x_test, y_test)`` built as :func:`tapegrad.keras.datasets.imdb.load_data`
    builds them, the last ``test_split`` of the shuffled newswires for testing."""
    path = get_file(fname=path, origin=f"{ORIGIN}reuters.npz",
                    file_hash="d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916")
    f = load_npz(path)
    xs, labels = f["x"], f["y"]
    indices = np.arange(len(xs))
    np.random.RandomState(seed).shuffle(indices)
    xs, labels = word_ids(xs[indices], start_char, index_from), labels[indices]
    if maxlen:
        xs, labels = drop_long(maxlen, xs, labels)
    xs = keep_vocabulary(xs, num_words, skip_top, oov_char)
    n = int(len(xs) * (1 - test_split))
    return ((np.array(xs[:n], dtype="object"), np.array(labels[:n])),
            (np.array(xs[n:], dtype="object"), np.array(labels[n:])))


def get_word_index(path: str = "reuters_word_index.json") -> dict:
    """``{word: id}`` (ids before the ``index_from`` shift)."""
    path = get_file(path, origin=f"{ORIGIN}reuters_word_index.json",
                    file_hash="4d44cc38712099c9e383dc6e5f11a921")
    with open(path) as fh:
        return json.load(fh)


def get_label_names() -> tuple:
    """The 46 topic names, by label."""
    return ("cocoa", "grain", "veg-oil", "earn", "acq", "wheat", "copper", "housing", "money-supply",
            "coffee", "sugar", "trade", "reserves", "ship", "cotton", "carcass", "crude", "nat-gas",
            "cpi", "money-fx", "interest", "gnp", "meal-feed", "alum", "oilseed", "gold", "tin",
            "strategic-metal", "livestock", "retail", "ipi", "iron-steel", "rubber", "heat", "jobs",
            "lei", "bop", "zinc", "orange", "pet-chem", "dlr", "gas", "silver", "wpi", "hog", "lead")
