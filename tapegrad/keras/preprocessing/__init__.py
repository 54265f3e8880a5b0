"""``tapegrad.keras.preprocessing``: what tf.keras's ``preprocessing`` has in Keras 3:
``text_dataset_from_directory``, ``image_dataset_from_directory`` and
``timeseries_dataset_from_array`` (the ``keras.utils`` functions), ``sequence``
(``pad_sequences``, ``TimeseriesGenerator``, ``skipgrams``, ``make_sampling_table``), ``text``
(``Tokenizer``, ``one_hot``, ``hashing_trick``, ``text_to_word_sequence``) and ``image``
(``ImageDataGenerator``, ``load_img``, ...); ``image`` and ``text`` load on first use.

>>> from tapegrad import keras
>>> keras.preprocessing.sequence.pad_sequences([[1, 2], [3]]).tolist()
[[1, 2], [0, 3]]
"""
import importlib

from .._directory import image_dataset_from_directory, text_dataset_from_directory
from ..utils import timeseries_dataset_from_array
from . import sequence

__all__ = ["image", "image_dataset_from_directory", "sequence", "text", "text_dataset_from_directory",
           "timeseries_dataset_from_array"]


def __getattr__(name: str) -> object:
    if name in ("image", "text"):
        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module 'tapegrad.keras.preprocessing' has no attribute {name!r}")


def __dir__() -> list:
    return sorted(__all__)
