"""``tapegrad.keras.models``: ``Model``, ``Sequential`` and whole-model saving (Keras's
``keras.models``)."""
from ..saving import clone_model, load_model, model_from_json, save_model
from .model import Model
from .sequential import Sequential

__all__ = ["Model", "Sequential", "clone_model", "load_model", "model_from_json", "save_model"]
