"""``keras.datasets.boston_housing``: 506 houses, 13 features, the median value."""
from __future__ import annotations

import numpy as np

from .._data_utils import get_file
from ._common import ORIGIN, check_test_split, shuffled_split

__all__ = ["load_data"]


def load_data(path: str = "boston_housing.npz", test_split: float = 0.2, seed: int = 113) -> tuple:
    """``(x_train, y_train), (x_test, y_test)`` after Keras's seeded shuffle; ``test_split`` of
    the rows go to the test set."""
    check_test_split(test_split)
    path = get_file(path, origin=f"{ORIGIN}boston_housing.npz",
                    file_hash="f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5")
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    return shuffled_split(x, y, test_split, seed)
