"""``keras.datasets.california_housing``: 20,640 districts, 8 features, the median house value."""
from __future__ import annotations

import numpy as np

from .._data_utils import get_file
from ._common import ORIGIN, check_test_split, shuffled_split

__all__ = ["load_data"]


def load_data(version: str = "large", path: str = "california_housing.npz", test_split: float = 0.2,
              seed: int = 113) -> tuple:
    """``(x_train, y_train), (x_test, y_test)`` after Keras's seeded shuffle; ``version="small"``
    keeps the first 600 rows."""
    check_test_split(test_split)
    path = get_file(path, origin=f"{ORIGIN}california_housing.npz",
                    file_hash="1a2e3a52e0398de6463aebe6f4a8da34fb21fbb6b934cf88c3425e766f2a1a6f")
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    if version == "small":
        x, y = x[:600], y[:600]
    elif version != "large":
        raise ValueError(f"Argument `version` must be one of 'small', 'large'. Received: version={version}")
    return shuffled_split(x, y, test_split, seed)
