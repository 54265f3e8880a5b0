"""``keras.datasets.mnist``: 70,000 28x28 grey images of handwritten digits."""
from __future__ import annotations

import numpy as np

from .._data_utils import get_file
from ._common import ORIGIN

__all__ = ["load_data"]


def load_data(path: str = "mnist.npz") -> tuple:
    """``(x_train, y_train), (x_test, y_test)``: uint8 arrays of shapes (60000, 28, 28),
    (60000,), (10000, 28, 28), (10000,), from ``~/.keras/datasets/<path>`` (downloaded when
    missing)."""
    path = get_file(fname=path, origin=f"{ORIGIN}mnist.npz",
                    file_hash="731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1")
    with np.load(path, allow_pickle=False) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
