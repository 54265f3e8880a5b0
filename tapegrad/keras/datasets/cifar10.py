"""``keras.datasets.cifar10``: 60,000 32x32 colour images in 10 classes."""
from __future__ import annotations

from ._common import pickled

__all__ = ["load_data"]


def load_data() -> tuple:
    """Keras reads CIFAR-10 from pickled batches; tapegrad never unpickles data, so this raises
    ``NotImplementedError`` saying how to convert the data once to plain arrays."""
    raise pickled("cifar10", "CIFAR-10 batches (cifar-10-python.tar.gz)")
