"""Shared by the dataset loaders: Keras's download folder and its train/test split."""
from __future__ import annotations

import pickle
from typing import Any

import numpy as np

ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"


def check_test_split(test_split: float) -> None:
    if not 0 <= test_split < 1:
        raise ValueError(f"Invalid `test_split` argument: {test_split}. It must be between 0 and 1 "
                         "(exclusive of 1).")


def shuffled_split(x: np.ndarray, y: np.ndarray, test_split: float, seed: int) -> tuple:
    """Keras's split: shuffle with ``np.random.RandomState(seed)``, then the first
    ``1 - test_split`` for training."""
    indices = np.arange(len(x))
    np.random.RandomState(seed).shuffle(indices)
    x, y = x[indices], y[indices]
    n = int(len(x) * (1 - test_split))
    return (np.array(x[:n]), np.array(y[:n])), (np.array(x[n:]), np.array(y[n:]))


class _ArraysOnly(pickle.Unpickler):
    """Reads CIFAR's pickled batches, refusing everything but NumPy arrays (as Keras does)."""

    _ALLOWED = frozenset({("numpy.core.multiarray", "_reconstruct"),
                          ("numpy._core.multiarray", "_reconstruct"), ("numpy", "ndarray"),
                          ("numpy", "dtype")})

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in self._ALLOWED:
            raise pickle.UnpicklingError(f"global '{module}.{name}' is forbidden in a dataset file")
        return super().find_class(module, name)


def load_cifar_batch(path: str, label_key: str = "labels") -> tuple:
    with open(path, "rb") as fh:
        d = {k.decode("utf8"): v for k, v in _ArraysOnly(fh, encoding="bytes").load().items()}
    data = d["data"]
    return data.reshape(data.shape[0], 3, 32, 32), d[label_key]


def load_npz(path: str) -> dict:
    """The arrays of an ``.npz`` file; object arrays (lists of word ids) are unpickled with
    :class:`_ArraysOnly`, as Keras reads them."""
    import io
    import zipfile

    out = {}
    with zipfile.ZipFile(path) as archive:
        for member in archive.namelist():
            if not member.endswith(".npy"):
                continue
            with archive.open(member) as raw:
                fp = io.BytesIO(raw.read())
            try:
                out[member[:-4]] = np.lib.format.read_array(fp, allow_pickle=False)
            except ValueError:
                fp.seek(0)
                major = np.lib.format.read_magic(fp)[0]
                if major == 1:
                    np.lib.format.read_array_header_1_0(fp)
                else:
                    np.lib.format.read_array_header_2_0(fp)
                out[member[:-4]] = _ArraysOnly(fp).load()
    return out


def word_ids(seqs: Any, start_char: int | None, index_from: int) -> list:
    """Keras's shift of the word ids by ``index_from`` and the ``start_char`` in front."""
    if start_char is not None:
        return [[start_char] + [w + index_from for w in x] for x in seqs]
    return [[w + index_from for w in x] for x in seqs] if index_from else [list(x) for x in seqs]


def drop_long(maxlen: int, seqs: list, labels: Any) -> tuple[list, list]:
    kept = [(x, y) for x, y in zip(seqs, labels) if len(x) < maxlen]
    return [x for x, _ in kept], [y for _, y in kept]


def keep_vocabulary(seqs: list, num_words: int | None, skip_top: int, oov_char: int | None) -> list:
    """Words outside ``[skip_top, num_words)`` become ``oov_char`` (or are dropped without one)."""
    if not num_words:
        num_words = max(max(x) for x in seqs)
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in x] for x in seqs]
    return [[w for w in x if skip_top <= w < num_words] for x in seqs]
