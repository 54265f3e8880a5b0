"""``keras.datasets.imdb``: 50,000 film reviews as lists of word ids, labelled by sentiment."""
from __future__ import annotations

import json
from typing import Any

from .._data_utils import get_file
from ._common import ORIGIN, pickled

__all__ = ["get_word_index", "load_data"]


def load_data(path: str = "imdb.npz", num_words: int | None = None, skip_top: int = 0,
              maxlen: int | None = None, seed: int = 113, start_char: int | None = 1,
              oov_char: int | None = 2, index_from: int = 3, **kwargs: Any) -> tuple:
    """Keras's ``imdb.npz`` holds the reviews as pickled lists; tapegrad never unpickles data,
    so this raises ``NotImplementedError`` saying how to convert the data once to plain arrays."""
    raise pickled("imdb", "imdb.npz word-id lists")


def get_word_index(path: str = "imdb_word_index.json") -> dict:
    """``{word: id}`` (ids before the ``index_from`` shift), from Keras's JSON file in
    ``~/.keras/datasets`` (downloaded when missing)."""
    path = get_file(fname=path, origin=f"{ORIGIN}imdb_word_index.json",
                    file_hash="bfafd718b763782e994055a2d397834f")
    with open(path) as fh:
        return json.load(fh)
