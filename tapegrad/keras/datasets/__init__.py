"""``tapegrad.keras.datasets``: Keras's small datasets, read as Keras reads them from the files
in ``~/.keras/datasets`` (``$KERAS_HOME``), downloaded there first when the machine has network
access (:func:`tapegrad.keras.utils.get_file`). Without network and without the files, ``load_data``
raises ``OSError`` naming the URL and the path to put the file at.

``mnist``, ``fashion_mnist``, ``boston_housing`` and ``california_housing`` load. Keras keeps
``cifar10``, ``cifar100``, ``imdb`` and ``reuters`` in Python pickles, which tapegrad never loads:
their ``load_data`` raises ``NotImplementedError`` saying how to convert them once (the word
indexes of ``imdb`` and ``reuters`` are JSON and load).
"""
from . import (
    boston_housing,
    california_housing,
    cifar10,
    cifar100,
    fashion_mnist,
    imdb,
    mnist,
    reuters,
)

__all__ = ["boston_housing", "california_housing", "cifar10", "cifar100", "fashion_mnist", "imdb",
           "mnist", "reuters"]
