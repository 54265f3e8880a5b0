"""``tapegrad.keras.models``: ``Model``, ``Sequential`` and whole-model saving (Keras's
``keras.models``)."""
from ._model import Model, Sequential
from .saving import clone_model, load_model, model_from_json, save_model

__all__ = ["Model", "Sequential", "clone_model", "load_model", "model_from_json", "save_model"]
