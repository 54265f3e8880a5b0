"""Shared by the dataset loaders: Keras's download folder and its train/test split."""
from __future__ import annotations

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


def pickled(dataset: str, files: str) -> NotImplementedError:
    """The error of a dataset whose files hold Python pickles, which tapegrad never loads."""
    return NotImplementedError(
        f"keras.datasets.{dataset}.load_data: Keras's {files} hold Python pickles, and tapegrad "
        "never unpickles data (a pickle can run any code). Convert the data once where Keras "
        f"runs: `(x_train, y_train), (x_test, y_test) = keras.datasets.{dataset}.load_data()`, "
        "save plain arrays with np.savez (pad word-id lists to one length first, e.g. with "
        "keras.utils.pad_sequences), and load them here with np.load(path, allow_pickle=False).")
