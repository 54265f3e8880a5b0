"""``keras.layers.serialize`` and ``keras.layers.deserialize`` (Keras 3's, through
``keras.saving``'s serialization of any Keras object)."""
from __future__ import annotations


from ..saving import deserialize_keras_object, serialize_keras_object
from .layer import Layer


def serialize(layer: Layer) -> dict:
    """The layer's configuration as Keras serializes it (``keras.saving.serialize_keras_object``).

    >>> from tapegrad import keras
    >>> config = keras.layers.serialize(keras.layers.Dense(3, name="d"))
    >>> config["class_name"], config["config"]["units"]
    ('Dense', 3)
    """
    return serialize_keras_object(layer)


def deserialize(config: dict, custom_objects: dict | None = None) -> Layer:
    """A new layer from a :func:`serialize` configuration; ``custom_objects`` maps names to
    classes and functions it may name. A configuration of anything but a layer is a ValueError.

    >>> from tapegrad import keras
    >>> layer = keras.layers.deserialize(keras.layers.serialize(keras.layers.Dense(3)))
    >>> type(layer).__name__, layer.units
    ('Dense', 3)
    """
    obj = deserialize_keras_object(config, custom_objects=custom_objects)
    if not isinstance(obj, Layer):
        raise ValueError("`keras.layers.deserialize` was passed a `config` object that is not a "
                         f"`keras.layers.Layer`. Received: {config}")
    return obj
