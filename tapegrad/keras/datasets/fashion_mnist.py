"""``keras.datasets.fashion_mnist``: 70,000 28x28 grey images of clothes in 10 classes."""
from __future__ import annotations

import gzip
import os

import numpy as np

from .._data_utils import get_file
from ._common import ORIGIN

__all__ = ["load_data"]

_FILES = ["train-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz",
          "t10k-images-idx3-ubyte.gz"]


def load_data() -> tuple:
    """``(x_train, y_train), (x_test, y_test)``: uint8 arrays of shapes (60000, 28, 28),
    (60000,), (10000, 28, 28), (10000,), from the four files in
    ``~/.keras/datasets/fashion-mnist`` (downloaded when missing)."""
    paths = [get_file(f, origin=ORIGIN + f, cache_subdir=os.path.join("datasets", "fashion-mnist"))
             for f in _FILES]
    with gzip.open(paths[0], "rb") as fh:
        y_train = np.frombuffer(fh.read(), np.uint8, offset=8)
    with gzip.open(paths[1], "rb") as fh:
        x_train = np.frombuffer(fh.read(), np.uint8, offset=16).reshape(len(y_train), 28, 28)
    with gzip.open(paths[2], "rb") as fh:
        y_test = np.frombuffer(fh.read(), np.uint8, offset=8)
    with gzip.open(paths[3], "rb") as fh:
        x_test = np.frombuffer(fh.read(), np.uint8, offset=16).reshape(len(y_test), 28, 28)
    return (x_train, y_train), (x_test, y_test)
