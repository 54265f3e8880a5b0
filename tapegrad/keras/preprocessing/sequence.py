"""``tapegrad.keras.preprocessing.sequence``: ``pad_sequences`` (``keras.utils.pad_sequences``)."""
from ..utils import pad_sequences

__all__ = ["pad_sequences"]
