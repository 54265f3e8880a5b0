"""``keras.datasets.cifar100``: 60,000 32x32 colour images in 100 classes (20 coarse ones)."""
from __future__ import annotations

import os

import numpy as np

from .._data_utils import get_file
from ..backend import image_data_format
from ._common import load_cifar_batch

__all__ = ["load_data"]


def load_data(label_mode: str = "fine") -> tuple:
    """``(x_train, y_train), (x_test, y_test)`` with the ``"fine"`` (100) or ``"coarse"`` (20)
    labels, laid out as :func:`tapegrad.keras.datasets.cifar10.load_data`'s."""
    if label_mode not in ("fine", "coarse"):
        raise ValueError(f'`label_mode` must be one of `"fine"`, `"coarse"`. Received: '
                         f"label_mode={label_mode}.")
    path = get_file(fname="cifar-100-python-target",
                    origin="https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz", extract=True,
                    file_hash="85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7")
    path = os.path.join(path, "cifar-100-python")
    x_train, y_train = load_cifar_batch(os.path.join(path, "train"), f"{label_mode}_labels")
    x_test, y_test = load_cifar_batch(os.path.join(path, "test"), f"{label_mode}_labels")
    y_train, y_test = np.reshape(y_train, (len(y_train), 1)), np.reshape(y_test, (len(y_test), 1))
    if image_data_format() == "channels_last":
        x_train, x_test = x_train.transpose(0, 2, 3, 1), x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test, y_test)
