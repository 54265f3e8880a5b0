"""``tapegrad.keras.preprocessing``: Keras 3's aliases ``text_dataset_from_directory``,
``image_dataset_from_directory`` and ``sequence.pad_sequences`` (the ``keras.utils`` functions),
and tf.keras's ``preprocessing.image`` (``ImageDataGenerator``, ``load_img``, ...; loaded on
first use).

>>> from tapegrad import keras
>>> keras.preprocessing.sequence.pad_sequences([[1, 2], [3]]).tolist()
[[1, 2], [0, 3]]
"""
import importlib

from .._directory import image_dataset_from_directory, text_dataset_from_directory
from . import sequence

__all__ = ["image", "image_dataset_from_directory", "sequence", "text_dataset_from_directory"]


def __getattr__(name: str) -> object:
    if name == "image":
        return importlib.import_module(".image", __name__)
    raise AttributeError(f"module 'tapegrad.keras.preprocessing' has no attribute {name!r}")
