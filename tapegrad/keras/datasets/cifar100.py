"""``keras.datasets.cifar100``: 60,000 32x32 colour images in 100 classes (20 coarse ones)."""
from __future__ import annotations

from ._common import pickled

__all__ = ["load_data"]


def load_data(label_mode: str = "fine") -> tuple:
    """Keras reads CIFAR-100 from pickled files; tapegrad never unpickles data, so this raises
    ``NotImplementedError`` saying how to convert the data once to plain arrays (after the
    ``label_mode`` check Keras makes)."""
    if label_mode not in ("fine", "coarse"):
        raise ValueError(f'`label_mode` must be one of `"fine"`, `"coarse"`. Received: '
                         f"label_mode={label_mode}.")
    raise pickled("cifar100", "CIFAR-100 files (cifar-100-python.tar.gz)")
