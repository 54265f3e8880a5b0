"""``tapegrad.keras.legacy.saving``: Keras 2's serialization format, as Keras 3 keeps it: an object
is ``{"class_name", "config"}`` (no ``module`` or ``registered_name``), objects inside a config are
marked ``"__passive_serialization__"``, and a function is its registered name.

>>> from tapegrad import keras
>>> config = keras.legacy.saving.serialize_keras_object(keras.layers.Dense(2, name="d"))
>>> config["class_name"], config["config"]["units"]
('Dense', 2)
>>> keras.legacy.saving.deserialize_keras_object(config, module_objects={"Dense": keras.layers.Dense}).units
2
"""
from __future__ import annotations

import inspect
from typing import Any

from .. import saving as _saving

__all__ = ["deserialize_keras_object", "serialize_keras_object"]


def serialize_keras_object(instance: Any) -> Any:
    """``{"class_name": <registered name>, "config": ...}`` for an object with ``get_config`` (the
    config's own objects serialized the same way); a function's registered name; None for None.

    >>> from tapegrad import keras
    >>> keras.legacy.saving.serialize_keras_object(keras.regularizers.L2(0.5))
    {'class_name': 'L2', 'config': {'l2': 0.5}}
    """
    instance = inspect.unwrap(instance)
    if instance is None:
        return None
    if hasattr(instance, "get_config"):
        config = instance.get_config()
        out = {}
        for key, item in config.items():
            if isinstance(item, str):
                out[key] = item
                continue
            try:
                serialized = serialize_keras_object(item)
                if isinstance(serialized, dict) and not isinstance(item, dict):
                    serialized["__passive_serialization__"] = True
                out[key] = serialized
            except ValueError:
                out[key] = item
        return {"class_name": _saving.get_registered_name(type(instance)), "config": out}
    if hasattr(instance, "__name__"):
        return _saving.get_registered_name(instance)
    raise ValueError(f"Cannot serialize {instance} because it doesn't implement `get_config()`.")


def _class_and_config(config: Any, module_objects: Any, custom_objects: Any, printable_module_name: str) -> tuple:
    if not isinstance(config, dict) or "class_name" not in config or "config" not in config:
        raise ValueError(f"Improper config format for {config}. Expecting python dict contains `class_name` and "
                         "`config` as keys")
    class_name = config["class_name"]
    cls = _saving.get_registered_object(class_name, custom_objects, module_objects)
    if cls is None:
        raise ValueError(f"Unknown {printable_module_name}: '{class_name}'. Please ensure you are using a "
                         "`keras.utils.custom_object_scope` and that this object is included in the scope. See "
                         "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object "
                         "for details.")
    cls_config = config["config"]
    if isinstance(cls_config, list):
        return cls, cls_config
    done = {}
    for key, item in cls_config.items():
        if key == "name":
            done[key] = item
        elif isinstance(item, dict) and "__passive_serialization__" in item:
            done[key] = deserialize_keras_object(item, module_objects=module_objects, custom_objects=custom_objects,
                                                 printable_module_name="config_item")
        elif isinstance(item, str) and inspect.isfunction(
                _saving.get_registered_object(item, custom_objects, module_objects)):
            done[key] = _saving.get_registered_object(item, custom_objects, module_objects)
    cls_config.update(done)
    return cls, cls_config


def deserialize_keras_object(identifier: Any, module_objects: dict | None = None, custom_objects: dict | None = None,
                             printable_module_name: str = "object") -> Any:
    """The object a :func:`serialize_keras_object` config (or a name) describes, its class found
    among the registered objects, ``custom_objects`` and ``module_objects``; a name of a class
    gives an instance made with no arguments.

    >>> from tapegrad import keras
    >>> keras.legacy.saving.deserialize_keras_object("relu", module_objects=vars(keras.activations)).__name__
    'relu'
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        cls, cls_config = _class_and_config(identifier, module_objects, custom_objects, printable_module_name)
        custom_objects = custom_objects or {}
        if hasattr(cls, "from_config"):
            if "custom_objects" in inspect.getfullargspec(cls.from_config).args:
                return cls.from_config(cls_config, custom_objects={**_saving.get_custom_objects(), **custom_objects})
            with _saving.CustomObjectScope(custom_objects):
                return cls.from_config(cls_config)
        with _saving.CustomObjectScope(custom_objects):
            return cls(**cls_config)
    if isinstance(identifier, str):
        obj = _saving.get_registered_object(identifier, custom_objects, None)
        if obj is None:
            obj = (module_objects or {}).get(identifier)
            if obj is None:
                raise ValueError(f"Unknown {printable_module_name}: '{identifier}'. Please ensure you are using a "
                                 "`keras.utils.custom_object_scope` and that this object is included in the "
                                 "scope. See https://www.tensorflow.org/guide/keras/save_and_serialize"
                                 "#registering_the_custom_object for details.")
        return obj() if inspect.isclass(obj) else obj
    if inspect.isfunction(identifier):
        return identifier
    raise ValueError(f"Could not interpret serialized {printable_module_name}: {identifier}")
