"""``tapegrad.keras.models``: ``Model`` and ``Sequential`` (Keras's ``keras.models``)."""
from ._model import Model, Sequential

__all__ = ["Model", "Sequential"]
