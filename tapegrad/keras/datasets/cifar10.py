"""``keras.datasets.cifar10``: 60,000 32x32 colour images in 10 classes."""
from __future__ import annotations

import os

import numpy as np

from .._data_utils import get_file
from ..backend import image_data_format
from ._common import load_cifar_batch

__all__ = ["load_data"]


def load_data() -> tuple:
    """``(x_train, y_train), (x_test, y_test)``: uint8 images (50000, 32, 32, 3) and labels
    (50000, 1), and 10000 of each for testing (channels first under
    ``image_data_format() == "channels_first"``), from the archive Keras downloads to
    ``~/.keras/datasets/cifar-10-batches-py-target_archive``."""
    path = get_file(fname="cifar-10-batches-py-target",
                    origin="https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz", extract=True,
                    file_hash="6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce")
    path = os.path.join(path, "cifar-10-batches-py")
    x_train = np.empty((50000, 3, 32, 32), dtype="uint8")
    y_train = np.empty((50000,), dtype="uint8")
    for i in range(1, 6):
        rows = slice((i - 1) * 10000, i * 10000)
        x_train[rows], y_train[rows] = load_cifar_batch(os.path.join(path, f"data_batch_{i}"))
    x_test, y_test = load_cifar_batch(os.path.join(path, "test_batch"))
    y_train = y_train.reshape(-1, 1)
    y_test = np.reshape(y_test, (len(y_test), 1)).astype(y_train.dtype)
    x_test = x_test.astype(x_train.dtype)
    if image_data_format() == "channels_last":
        x_train, x_test = x_train.transpose(0, 2, 3, 1), x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test, y_test)
