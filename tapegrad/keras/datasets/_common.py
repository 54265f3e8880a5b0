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
