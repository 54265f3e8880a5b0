"""``tapegrad.keras.legacy``: Keras 3's ``keras.legacy`` (its ``saving`` submodule: the Keras 2
config format)."""
from __future__ import annotations

from . import saving

__all__ = ["saving"]
