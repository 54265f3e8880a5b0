"""``tapegrad.keras.preprocessing``: Keras 3's aliases ``text_dataset_from_directory``,
``image_dataset_from_directory`` and ``sequence.pad_sequences`` (the ``keras.utils`` functions).

>>> from tapegrad import keras
>>> keras.preprocessing.sequence.pad_sequences([[1, 2], [3]]).tolist()
[[1, 2], [0, 3]]
"""
from .._directory import image_dataset_from_directory, text_dataset_from_directory
from . import sequence

__all__ = ["image_dataset_from_directory", "sequence", "text_dataset_from_directory"]
