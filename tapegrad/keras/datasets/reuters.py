"""``keras.datasets.reuters``: 11,228 newswires as lists of word ids, in 46 topics."""
from __future__ import annotations

import json

from .._data_utils import get_file
from ._common import ORIGIN, pickled

__all__ = ["get_label_names", "get_word_index", "load_data"]


def load_data(path: str = "reuters.npz", num_words: int | None = None, skip_top: int = 0,
              maxlen: int | None = None, test_split: float = 0.2, seed: int = 113,
              start_char: int | None = 1, oov_char: int | None = 2, index_from: int = 3) -> tuple:
    """Keras's ``reuters.npz`` holds the newswires as pickled lists; tapegrad never unpickles
    data, so this raises ``NotImplementedError`` saying how to convert the data once."""
    raise pickled("reuters", "reuters.npz word-id lists")


def get_word_index(path: str = "reuters_word_index.json") -> dict:
    """``{word: id}`` (ids before the ``index_from`` shift), from Keras's JSON file."""
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
