"""``tapegrad.keras.saving``: whole-model files (``.keras``), configs and the registry of custom
objects, with Keras 3's names, formats and errors.

A ``.keras`` file is a zip archive holding ``metadata.json``, ``config.json`` (the model's
config, Keras 3's JSON layout) and the weights. Keras stores the weights in HDF5
(``model.weights.h5``); tapegrad stores them as ``model.weights.npz`` (tapegrad's checkpoint format,
no HDF5 dependency), and reads Keras's archives too when h5py is installed (``tapegrad[h5]``).
Legacy ``.h5`` model files and ``.weights.h5`` weight files are Keras's own layouts
(:mod:`tapegrad.keras._h5`).

>>> import os, tempfile
>>> import numpy as np
>>> from tapegrad import keras
>>> model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
>>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
>>> model.save(path)
>>> again = keras.models.load_model(path)
>>> np.array_equal(again.predict(np.ones((1, 3)), verbose=0), model.predict(np.ones((1, 3)), verbose=0))
True
"""
from __future__ import annotations

import datetime
import importlib
import inspect
import io
import json
import os
import threading
import warnings
import zipfile
from collections.abc import Callable
from typing import Any

import numpy as np

from ..saving import _member_problem, _write_atomically, load_variables, save_variables
from . import backend
from ._keras_tensor import KerasTensor
from ._tree import flatten, map_structure

__all__ = ["CustomObjectScope", "custom_object_scope", "deserialize_keras_object", "get_custom_objects",
           "get_registered_name", "get_registered_object", "load_model", "load_weights",
           "register_keras_serializable", "save_model", "save_weights", "serialize_keras_object"]

KERAS_VERSION = "3.15.1"
_CONFIG, _METADATA, _WEIGHTS = "config.json", "metadata.json", "model.weights.npz"
_KERAS_WEIGHTS = "model.weights.h5"  # what Keras writes (tapegrad reads it with h5py)
_OWN, _ASSETS = "own_variables.npz", "assets"  # (the stores of objects that override Keras's hooks)

_safe = threading.local()  # .on: the safe_mode of the load in progress in this thread (None: none)


_GLOBAL_SAFE: list = [None]  # keras.config.enable_unsafe_deserialization sets False


def _in_safe_mode() -> bool | None:
    """Whether the deserialization in progress in this thread refuses what could reach outside
    the file (True), allows it (False, ``safe_mode=False``), or None when none is in progress
    (a layer made in Python may read a vocabulary file); outside one, False after
    ``keras.config.enable_unsafe_deserialization()``."""
    on = getattr(_safe, "on", None)
    return _GLOBAL_SAFE[0] if on is None else on


def _set_global_safe_mode(value: bool | None) -> None:
    """Keras's global ``safe_mode_saving`` (``keras.config.enable_unsafe_deserialization``)."""
    _GLOBAL_SAFE[0] = value


_archiving = threading.local()  # .on while save_model serializes: layers add their "assets"


class _UnsafeLoad(ValueError):
    """A config being loaded in safe mode names something outside the archive (a file)."""


class _SafeModeScope:
    def __init__(self, safe_mode: bool) -> None:
        self.safe_mode = safe_mode

    def __enter__(self) -> None:
        self.outer = _in_safe_mode()
        _safe.on = self.safe_mode

    def __exit__(self, *exc: Any) -> None:
        _safe.on = self.outer


_GLOBAL_CUSTOM_OBJECTS: dict[str, Any] = {}
_GLOBAL_CUSTOM_NAMES: dict[Any, str] = {}
_scopes = threading.local()

# tapegrad's module -> the Keras module a config names (and back, for deserialization)
_KERAS_MODULES = [("tapegrad.keras.layers", "keras.layers"), ("tapegrad.keras._keras_tensor", "keras.layers"),
                  ("tapegrad.keras._variables", "keras.layers"), ("tapegrad.keras.export", "keras.layers"),
                  ("tapegrad.keras.ops", "keras.ops"),
                  ("tapegrad.keras.initializers", "keras.initializers"),
                  ("tapegrad.keras.regularizers", "keras.regularizers"),
                  ("tapegrad.keras.constraints", "keras.constraints"),
                  ("tapegrad.keras.losses", "keras.losses"), ("tapegrad.keras.metrics", "keras.metrics"),
                  ("tapegrad.optimizers.schedules", "keras.optimizers.schedules"),
                  ("tapegrad.optimizers", "keras.optimizers"), ("tapegrad.keras.muon", "keras.optimizers"),
                  ("tapegrad.keras.multi_optimizer", "keras.optimizers"),
                  ("tapegrad.keras.models", "keras"),
                  ("tapegrad.keras.quantizers", "keras.quantizers")]
_TAPEGRAD_MODULES = {"keras.layers": "tapegrad.keras.layers", "keras.initializers": "tapegrad.keras.initializers",
                     "keras.regularizers": "tapegrad.keras.regularizers",
                     "keras.constraints": "tapegrad.keras.constraints", "keras.losses": "tapegrad.keras.losses",
                     "keras.metrics": "tapegrad.keras.metrics", "keras.optimizers": "tapegrad.keras.optimizers",
                     "keras.optimizers.schedules": "tapegrad.optimizers.schedules",
                     "keras.activations": "tapegrad.keras.activations", "keras": "tapegrad.keras",
                     "keras.models": "tapegrad.keras", "keras.src.models.functional": "tapegrad.keras",
                     "keras._legacy.layers": "tapegrad.keras.layers", "keras.quantizers": "tapegrad.keras.quantizers",
                     "keras.dtype_policies": "tapegrad.keras.dtype_policies", "keras.utils": "tapegrad.keras.utils",
                     "keras.src.layers.preprocessing.feature_space": "tapegrad.keras.layers.feature_space",
                     "keras.src.activations.activations": "tapegrad.keras.layers.operation"}
_FUNCTION_MODULES = ("tapegrad.keras.activations", "tapegrad.keras.losses", "tapegrad.keras.metrics")


# ---- registry ------------------------------------------------------------------------------------

def register_keras_serializable(package: str = "Custom", name: str | None = None) -> Callable:
    """Register a class or function under ``"package>name"`` so that saved configs find it.

    >>> from tapegrad import keras
    >>> @keras.saving.register_keras_serializable(package="MyLayers")
    ... class Twice(keras.layers.Layer):
    ...     def call(self, x):
    ...         return 2 * x
    >>> keras.saving.get_registered_name(Twice)
    'MyLayers>Twice'
    """
    def decorator(arg: Any) -> Any:
        class_name = name if name is not None else arg.__name__
        registered_name = f"{package}>{class_name}"
        if inspect.isclass(arg) and not hasattr(arg, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() method.")
        _GLOBAL_CUSTOM_OBJECTS[registered_name] = arg
        _GLOBAL_CUSTOM_NAMES[arg] = registered_name
        return arg
    return decorator


def get_custom_objects() -> dict:
    """The global ``{registered name: object}`` dict (editing it registers or removes objects)."""
    return _GLOBAL_CUSTOM_OBJECTS


def get_registered_name(obj: Any) -> str:
    """The name ``obj`` is registered under, else its ``__name__``."""
    return _GLOBAL_CUSTOM_NAMES.get(obj, getattr(obj, "__name__", None))


def _scope_objects() -> dict:
    out: dict = {}
    for objects in getattr(_scopes, "stack", []):
        out.update(objects)
    return out


def get_registered_object(name: str, custom_objects: dict | None = None,
                          module_objects: dict | None = None) -> Any:
    """The object registered (or in scope, or in ``custom_objects``/``module_objects``) under
    ``name``, else ``None``."""
    for table in (_scope_objects(), _GLOBAL_CUSTOM_OBJECTS, custom_objects or {}, module_objects or {}):
        if name in table:
            return table[name]
    return None


class CustomObjectScope:
    """``with CustomObjectScope({"MyLayer": MyLayer}):`` makes those objects known to
    deserialization (and ``load_model``) inside the block."""

    def __init__(self, custom_objects: dict | None = None) -> None:
        if custom_objects is not None and not isinstance(custom_objects, dict):
            raise TypeError(f"custom_objects must be a dict; received {custom_objects!r}.")
        self.custom_objects = custom_objects or {}

    def __enter__(self) -> CustomObjectScope:  # noqa: PYI034
        _scopes.__dict__.setdefault("stack", []).append(self.custom_objects)
        return self

    def __exit__(self, *exc: object) -> None:
        _scopes.stack.pop()


custom_object_scope = CustomObjectScope


# ---- serialization -------------------------------------------------------------------------------

def _keras_module(cls: type) -> str | None:
    if "_keras_module" in vars(cls):  # (tf.keras's legacy layers: "keras._legacy.layers")
        return vars(cls)["_keras_module"]
    mod = cls.__module__
    for prefix, keras_mod in _KERAS_MODULES:
        if mod == prefix or mod.startswith(prefix + "."):
            return keras_mod
    return None


def serialize_keras_object(obj: Any) -> Any:
    """A JSON-ready description of ``obj``: ``{"module", "class_name", "config",
    "registered_name"}`` for a layer, model, initializer, regularizer, loss, metric or optimizer,
    the name (``"relu"``) of a built-in function, plain values as they are.

    >>> from tapegrad import keras
    >>> keras.saving.serialize_keras_object(keras.initializers.Zeros())
    {'module': 'keras.initializers', 'class_name': 'Zeros', 'config': {}, 'registered_name': None}
    """
    from .layers.layer import Layer
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, (np.generic,)):
        return obj.item()
    if isinstance(obj, slice):  # (an index of x[...] on a KerasTensor)
        return {"class_name": "__slice__", "config": {"start": serialize_keras_object(obj.start),
                                                      "stop": serialize_keras_object(obj.stop),
                                                      "step": serialize_keras_object(obj.step)}}
    if obj is Ellipsis:
        return {"class_name": "__ellipsis__", "config": {}}
    if isinstance(obj, tuple) and any(isinstance(x, slice) or x is Ellipsis for x in obj):
        return {"class_name": "__tuple__", "config": {"value": [serialize_keras_object(x) for x in obj]}}
    if isinstance(obj, (list, tuple)):
        return [serialize_keras_object(x) for x in obj]
    if isinstance(obj, dict):
        return {k: serialize_keras_object(v) for k, v in obj.items()}
    if isinstance(obj, np.ndarray):
        return {"class_name": "__numpy__", "config": {"value": obj.tolist(), "dtype": obj.dtype.name}}
    if isinstance(obj, np.dtype):
        return obj.name
    if inspect.isfunction(obj) and obj.__name__ == "<lambda>":
        # Keras saves its bytecode (loaded with safe_mode=False); tapegrad never stores code
        warnings.warn(f"The object being serialized includes a `lambda` ({obj!r}). tapegrad never stores or "
                      "loads code, so the file holds none for it and loading the file raises an error. "
                      "Use a named function decorated with @keras.saving.register_keras_serializable() "
                      "instead.", UserWarning, stacklevel=2)
        return {"class_name": "__lambda__", "config": {"value": [None, None, None]}}
    if inspect.isfunction(obj) or inspect.isbuiltin(obj):
        registered = _GLOBAL_CUSTOM_NAMES.get(obj)
        return {"module": "builtins", "class_name": "function",
                "config": registered or obj.__name__, "registered_name": "function"}
    cls = type(obj)
    if not hasattr(obj, "get_config"):
        raise TypeError(f"Cannot serialize {obj!r} (of type {cls.__name__}): it has no get_config().")
    module = _keras_module(cls)
    class_name, registered = cls.__name__, None if module is not None else get_registered_name(cls)
    if module == "keras" and class_name == "Model" and obj.__dict__.get("_functional"):
        module, class_name = "keras.src.models.functional", "Functional"
        registered = class_name
    if module is None:  # (Keras: a class of the running script has no module to name)
        module = None if cls.__module__ == "__main__" else cls.__module__
    out = {"module": module, "class_name": class_name,
           "config": serialize_keras_object(obj.get_config()), "registered_name": registered}
    custom_build = getattr(obj, "get_build_config", None)
    if isinstance(obj, Layer) and callable(custom_build):   # (Keras's hook, overridden)
        build_config = custom_build()
        if build_config is not None:
            out["build_config"] = serialize_keras_object(build_config)
    elif isinstance(obj, Layer) and obj.built and not obj.__dict__.get("_functional"):
        shapes = obj.__dict__.get("_build_shapes_dict")
        shape = serialize_keras_object(obj.__dict__.get("_build_input_shape"))
        if shapes:   # build(query_shape, value_shape): Keras's shapes_dict
            out["build_config"] = {"shapes_dict": serialize_keras_object(shapes)}
        elif shape is not None:
            out["build_config"] = {"input_shape": shape}
    # state that is neither config nor a variable (a vocabulary learnt by adapt): Keras keeps it
    # in the archive's assets/ folder, tapegrad beside the object's config in the archive
    assets = getattr(obj, "_assets", None)
    if assets is not None and getattr(_archiving, "on", False):
        state = assets()
        if state is not None:
            out["assets"] = serialize_keras_object(state)
    return out


class _NotFound(TypeError):
    pass


def _unknown(config: dict) -> TypeError:
    what = f"function {config['config']!r}" if config.get("class_name") == "function" else \
        f"class {config.get('class_name')!r}"
    return _NotFound(f"Could not locate {what}. Make sure custom classes "
                     "and functions are decorated with `@keras.saving.register_keras_serializable()`. "
                     "If they are already decorated, make sure they are all imported so that the "
                     "decorator is run before trying to load them (or pass them in "
                     f"`custom_objects`). Full object config: {config}")


def _find_class(config: dict, custom_objects: dict | None) -> Any:
    name, registered = config.get("class_name"), config.get("registered_name")
    for key in (registered, name):
        if key:
            obj = get_registered_object(key, custom_objects)
            if obj is not None:
                return obj
    module = config.get("module") or ""
    if module == "keras.ops" or module.startswith("keras.src.ops") or name == "Operation":
        # a keras.ops function or operator on KerasTensors (x + attention); "Operation" with
        # {"op": ...}: tapegrad's files before each function had its class
        from .layers.operation import op_class
        return op_class(config["config"]["op"] if name == "Operation" else backend.snake_case(name))
    module = _TAPEGRAD_MODULES.get(config.get("module") or "")
    if module is not None:
        if name == "Functional":
            name = "Model"
        obj = getattr(importlib.import_module(module), name, None)
        if obj is not None:
            return obj
    raise _unknown(config)


def _find_function(name: str, custom_objects: dict | None) -> Any:
    obj = get_registered_object(name, custom_objects)
    if obj is not None:
        return obj
    for module in _FUNCTION_MODULES:
        fn = getattr(importlib.import_module(module), name, None)
        if callable(fn):
            return fn
    raise _unknown({"module": "builtins", "class_name": "function", "config": name,
                    "registered_name": "function"})


def deserialize_keras_object(config: Any, custom_objects: dict | None = None, safe_mode: bool = True,
                             **kwargs: Any) -> Any:
    """The object a :func:`serialize_keras_object` description (or a registered name) stands for.
    With ``safe_mode=True`` (the default; a load in progress decides for the objects it
    deserializes) a config that names a file outside the archive is refused, as in Keras.

    >>> from tapegrad import keras
    >>> layer = keras.saving.deserialize_keras_object(
    ...     keras.saving.serialize_keras_object(keras.layers.Dense(3, name="d")))
    >>> type(layer).__name__, layer.units, layer.name
    ('Dense', 3, 'd')
    """
    outer = _in_safe_mode()  # (a load in progress decides, as in Keras)
    with _SafeModeScope(bool(safe_mode) if outer is None else outer):
        return _deserialize(config, custom_objects, _in_safe_mode())


def _deserialize(config: Any, custom_objects: dict | None, safe_mode: bool) -> Any:
    if config is None or isinstance(config, (bool, int, float)):
        return config
    if isinstance(config, str):
        obj = get_registered_object(config, custom_objects)
        return config if obj is None else obj
    if isinstance(config, (list, tuple)):
        return [deserialize_keras_object(c, custom_objects, safe_mode) for c in config]
    if not isinstance(config, dict):
        raise TypeError(f"Could not parse config: {config!r}")
    if "class_name" not in config or "config" not in config:
        return {k: deserialize_keras_object(v, custom_objects, safe_mode) for k, v in config.items()}
    class_name, inner = config["class_name"], config["config"]
    if class_name == "__numpy__":
        return np.array(inner["value"], dtype=inner["dtype"])
    if class_name == "__slice__":
        return slice(*(deserialize_keras_object(inner[k], custom_objects, safe_mode) for k in ("start", "stop", "step")))
    if class_name == "__ellipsis__":
        return Ellipsis
    if class_name == "__tuple__":
        return tuple(deserialize_keras_object(inner["value"], custom_objects, safe_mode))
    if class_name == "__lambda__":
        raise ValueError("The config holds a Python lambda (Keras saves its bytecode, tapegrad nothing). "
                         "tapegrad never loads code from files, even with safe_mode=False: rebuild that layer in "
                         "Python, or save the model with a named, registered function instead.")
    if class_name == "function":
        return _find_function(inner, custom_objects)
    cls = _find_class(config, custom_objects)
    if (config.get("module") or "").startswith("keras"):
        inner = _from_keras(inner)
    with CustomObjectScope(custom_objects or {}):
        try:
            obj = cls.from_config(inner)
        except _NotFound:
            raise
        except _UnsafeLoad as e:  # (Keras's Layer.from_config wraps it so)
            raise TypeError(f"Error when deserializing class '{class_name}' using config={inner}.\n\n"
                            f"Exception encountered: {e}") from e
        except TypeError as e:
            raise TypeError(f"{class_name} could not be deserialized properly. Please ensure that "
                            "components that are Python object instances (layers, models, etc.) "
                            "returned by `get_config()` are explicitly deserialized in the "
                            "model's `from_config()` method (and that get_config() holds every "
                            f"constructor argument).\n\nconfig={config}.\n\nException "
                            f"encountered: {e}") from e
        if config.get("assets") is not None and hasattr(obj, "_load_assets"):
            obj._load_assets(config["assets"])
        build = config.get("build_config")
        if build and not getattr(obj, "built", True) and callable(getattr(obj, "build_from_config", None)):
            obj.build_from_config(deserialize_keras_object(build, custom_objects, safe_mode))
            obj.built = True
        elif build is not None and not getattr(obj, "built", True) and "shapes_dict" in build:
            shapes = {k: _shape_of(v) for k, v in build["shapes_dict"].items()}
            obj.build(**shapes)
            obj.built = True
            obj.__dict__["_build_shapes_dict"] = shapes
        elif build is not None and not getattr(obj, "built", True) and len(obj._build_params) == 1:
            shape = _shape_of(build["input_shape"])
            obj.build(shape)
            obj.built = True
            obj.__dict__["_build_input_shape"] = shape
    return obj


def _from_keras(config: Any) -> Any:
    """A built-in object's config written by Keras, as tapegrad's constructors take it: a dtype
    policy as its dtype name, Keras-only options left at their defaults dropped."""
    if not isinstance(config, dict):
        return config
    config = dict(config)
    dtype = config.get("dtype")
    if isinstance(dtype, dict) and dtype.get("class_name") == "DTypePolicy":
        config["dtype"] = dtype["config"]["name"]
    for key, default in _KERAS_ONLY_DEFAULTS.items():
        if key in config and config[key] == default:
            del config[key]
    for key, value in config.items():   # nested built-ins: initializers, regularizers, ...
        if isinstance(value, dict) and (value.get("module") or "").startswith("keras") \
                and isinstance(value.get("config"), dict):
            config[key] = {**value, "config": _from_keras(value["config"])}
    return config


# Keras 3 options tapegrad does not have, dropped from a Keras config when they hold their default
_KERAS_ONLY_DEFAULTS = {"quantization_config": None, "input_axes": None, "output_axes": None,
                        "lora_rank": None, "lora_alpha": None}


def _shape_of(shape: Any) -> Any:
    if shape and all(isinstance(s, list) for s in shape):
        return [tuple(s) for s in shape]
    return tuple(shape)


# ---- functional and Sequential configs -----------------------------------------------------------

def functional_config(model: Any) -> dict:
    """The Keras 3 config of a functional model: its layers with their inbound nodes."""
    node_index: dict[int, tuple] = {}
    kept: dict[int, int] = {}
    for node in sorted(model._nodes, key=lambda n: n.order):
        i = kept.get(id(node.layer), 0)
        kept[id(node.layer)] = i + 1
        node_index[id(node)] = (node.layer.name, i)

    def history(t: KerasTensor) -> list:
        name, i = node_index[id(t._node)]
        return [name, i, t._index]

    def arg(x: Any) -> Any:
        if isinstance(x, KerasTensor):
            return {"class_name": "__keras_tensor__",
                    "config": {"shape": list(x.shape), "dtype": x.dtype, "keras_history": history(x)}}
        return serialize_keras_object(x)

    layers = []
    for layer in model.operations:
        entry = serialize_keras_object(layer)
        entry["name"] = layer.name
        entry["inbound_nodes"] = [
            {"args": map_structure(arg, list(n.args)), "kwargs": map_structure(arg, dict(n.kwargs))}
            for n in sorted(model._nodes, key=lambda n: n.order) if n.layer is layer and n.args]
        layers.append(entry)

    def ends(struct: Any) -> Any:
        if isinstance(struct, KerasTensor):
            return history(struct)
        if isinstance(struct, dict):
            return {k: history(v) for k, v in struct.items()}
        return [history(t) for t in flatten(struct)]

    return {"name": model.name, "trainable": model.trainable, "layers": layers,
            "input_layers": ends(model._inputs_struct), "output_layers": ends(model._outputs_struct)}


def functional_from_config(cls: type, config: dict, custom_objects: dict | None = None) -> Any:
    """Rebuild a functional model from :func:`functional_config`'s description."""
    created: dict[str, Any] = {}
    outputs: dict[tuple, Any] = {}   # (layer name, node index, tensor index) -> KerasTensor
    pending = []
    for entry in config["layers"]:
        layer = deserialize_keras_object({k: v for k, v in entry.items() if k != "build_config"},
                                         custom_objects)
        created[entry["name"]] = layer
        if not entry.get("inbound_nodes"):
            outputs[(entry["name"], 0, 0)] = layer.output
        pending.extend((entry["name"], i, node) for i, node in enumerate(entry.get("inbound_nodes", [])))

    def ref(x: Any) -> Any:
        if isinstance(x, dict) and x.get("class_name") == "__keras_tensor__":
            return outputs[tuple(x["config"]["keras_history"])]
        if isinstance(x, list):
            return [ref(v) for v in x]
        if isinstance(x, dict) and "class_name" not in x:
            return {k: ref(v) for k, v in x.items()}
        return deserialize_keras_object(x, custom_objects)

    def ready(x: Any) -> bool:
        if isinstance(x, dict) and x.get("class_name") == "__keras_tensor__":
            return tuple(x["config"]["keras_history"]) in outputs
        if isinstance(x, dict):
            return all(ready(v) for v in x.values())
        if isinstance(x, list):
            return all(ready(v) for v in x)
        return True

    while pending:
        progress = [p for p in pending if ready(p[2])]
        if not progress:
            raise ValueError(f"Cannot rebuild the functional model {config.get('name')!r}: the inbound "
                             "nodes of its layers refer to tensors no layer makes.")
        name, i, node = progress[0]
        pending.remove(progress[0])
        out = created[name](*ref(node["args"]), **ref(node["kwargs"]))
        for j, t in enumerate(flatten(out)):
            outputs[(name, i, j)] = t

    def ends(spec: Any) -> Any:
        if isinstance(spec, dict):
            return {k: outputs[tuple(v)] for k, v in spec.items()}
        if spec and not isinstance(spec[0], list):
            return outputs[tuple(spec)]
        return [outputs[tuple(s)] for s in spec]

    from .models.model import Model
    model_cls = Model if cls is None else cls
    return model_cls(ends(config["input_layers"]), ends(config["output_layers"]), name=config.get("name"),
                     trainable=config.get("trainable", True))


# ---- whole-model files ---------------------------------------------------------------------------

def _compile_config(model: Any) -> dict | None:
    if not getattr(model, "compiled", False):
        return None
    custom = getattr(model, "get_compile_config", None)
    if callable(custom):   # (Keras's hook, overridden: its dict, serialized)
        config = custom()
        return serialize_keras_object(config) if config else None
    return {"optimizer": serialize_keras_object(model.optimizer), "loss": serialize_keras_object(model.loss),
            "loss_weights": serialize_keras_object(model._loss_weights),
            "metrics": serialize_keras_object(model._metric_ids),
            "weighted_metrics": serialize_keras_object(model._weighted_metric_ids),
            "run_eagerly": False, "steps_per_execution": 1, "jit_compile": False}


def _compile_from_config(model: Any, compile_config: dict, custom_objects: dict | None) -> None:
    """Keras's ``compile_from_config``: the model's own when it overrides it, else ``compile``
    with the saved arguments (a model whose ``compile`` is custom is left uncompiled, with
    Keras's warning)."""
    custom = getattr(model, "compile_from_config", None)
    if callable(custom):
        custom(compile_config)
        return
    if getattr(type(model), "compile", None) is not getattr(_trainer_class(), "compile"):
        warnings.warn("`compile()` was not called as part of model loading because the model's "
                      "`compile()` method is custom. All subclassed Models that have `compile()` "
                      "overridden should also override `get_compile_config()` and "
                      "`compile_from_config(config)`. Alternatively, you can call `compile()` "
                      "manually after loading.", stacklevel=3)
        return
    model.compile(**{k: _deserialize_compile(k, v, custom_objects) for k, v in compile_config.items()
                     if k in ("optimizer", "loss", "loss_weights", "metrics", "weighted_metrics")})


def _trainer_class() -> type:
    from .trainers.trainer import Trainer
    return Trainer


def _check_path(filepath: Any, what: str) -> str:
    path = os.fspath(filepath)
    if not path.endswith(".keras"):
        raise ValueError("Invalid filepath extension for saving. Please add a `.keras` extension "
                         "for the native Keras format. Use `model.export(filepath)` if you want to "
                         f"export a SavedModel for use with TFLite/TFServing/etc. Received: filepath={path}.")
    return path


def _npz_bytes(variables: dict) -> bytes:
    buf = io.BytesIO()
    save_variables(buf, variables)
    return buf.getvalue()


def _saved_variables(model: Any) -> dict:
    out = {f"model/{i:04d}": v for i, v in enumerate(model.weights)}
    if getattr(model, "compiled", False) and model.optimizer is not None:
        out.update({f"optimizer/{i:04d}": v for i, v in enumerate(model.optimizer.variables)})
    return out


def save_model(model: Any, filepath: Any, overwrite: bool = True, zipped: bool | None = None,
               **kwargs: Any) -> None:
    """Write ``model`` to a ``.keras`` file: its config, weights, compile state and optimizer
    variables (what :func:`load_model` reads). The file is written atomically: to a temporary
    file in the same folder, synced, then renamed over ``filepath``, so a full disk, an error or
    a kill leaves the previous file whole, and two threads saving at once leave one whole file."""
    from . import _h5
    if _h5.is_h5(os.fspath(filepath)):   # Keras's legacy HDF5 model file
        include_optimizer = kwargs.pop("include_optimizer", True)
        if kwargs:
            raise ValueError(f"The following argument(s) are not supported: {list(kwargs)}")
        path = os.fspath(filepath)
        if not overwrite and os.path.exists(path):
            raise FileExistsError(f"{path!r} exists and overwrite=False.")
        warnings.warn("You are saving your model as an HDF5 file via `model.save()` or `keras.saving.save_model"
                      "(model)`. This file format is considered legacy. We recommend using instead the native "
                      "Keras format, e.g. `model.save('my_model.keras')` or `keras.saving.save_model(model, "
                      "'my_model.keras')`.", stacklevel=3)
        _h5.atomic_h5(path, lambda tmp: _h5.write_legacy_model(model, tmp, include_optimizer))
        return
    if kwargs:
        raise ValueError(f"The following argument(s) are not supported: {list(kwargs)}")
    path = _check_path(filepath, "save_model")
    if zipped is False:
        raise ValueError("tapegrad writes `.keras` files as zip archives only; leave `zipped` as "
                         "None or True.")
    if not overwrite and os.path.exists(path):
        raise FileExistsError(f"{path!r} exists and overwrite=False.")
    _archiving.on = True
    try:
        config = serialize_keras_object(model)
    finally:
        _archiving.on = False
    compile_config = _compile_config(model)
    if compile_config is not None:
        config["compile_config"] = compile_config
    metadata = {"keras_version": KERAS_VERSION,
                "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")}
    weights = _npz_bytes(_saved_variables(model))
    own, assets = _saved_hooks(model)

    def write(f: Any) -> None:
        with zipfile.ZipFile(f, "w") as z:
            z.writestr(_METADATA, json.dumps(metadata))
            z.writestr(_CONFIG, json.dumps(config))
            z.writestr(_WEIGHTS, weights)
            if own is not None:
                z.writestr(_OWN, own)
            for name, data in assets:
                z.writestr(name, data)

    _write_atomically(path, write)  # (a failure or a kill leaves the previous file whole)


def load_model(filepath: Any, custom_objects: dict | None = None, compile: bool = True,
               safe_mode: bool = True) -> Any:
    """The model a ``.keras`` file (from :func:`save_model`) holds, weights restored, compiled
    as it was when ``compile=True``. Nothing in the file runs: tapegrad never loads code (a
    Python lambda saved by Keras) whatever ``safe_mode`` says. With ``safe_mode=True`` (the
    default) a config that names a file outside the archive (a lookup layer's ``vocabulary``
    path) is refused, as Keras refuses it. Every member is checked from the zip directory
    before it is inflated (a decompression bomb is a ``ValueError``)."""
    path = os.fspath(filepath)
    from . import _h5
    if _h5.is_h5(path):
        if not os.path.exists(path):
            raise ValueError(f"File not found: filepath={path}. Please ensure the file is an accessible "
                             "`.h5` file.")
        return _h5.read_legacy_model(path, custom_objects, compile, safe_mode)
    if not path.endswith(".keras"):
        raise ValueError(f"File format not supported: filepath={path}. Keras 3 only supports V3 "
                         "`.keras` files and legacy H5 format files (`.h5` extension); tapegrad does not "
                         "read SavedModels.")
    if not os.path.exists(path):
        raise ValueError(f"File not found: filepath={path}. Please ensure the file is an "
                         "accessible `.keras` zip file.")
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        if _WEIGHTS not in names and _KERAS_WEIGHTS not in names:
            raise ValueError(f"Cannot load {path!r}: it has no {_WEIGHTS} (nor Keras's {_KERAS_WEIGHTS}).")
        _check_members(z, (_CONFIG, _WEIGHTS if _WEIGHTS in names else _KERAS_WEIGHTS), path)
        config = json.loads(z.read(_CONFIG))
        weights = z.read(_WEIGHTS if _WEIGHTS in names else _KERAS_WEIGHTS)
    model = deserialize_keras_object({k: v for k, v in config.items() if k != "compile_config"},
                                     custom_objects, safe_mode)
    if _WEIGHTS not in names:  # written by Keras: its HDF5 weights layout
        compile_config = config.get("compile_config")
        if compile and compile_config is not None:
            with CustomObjectScope(custom_objects or {}):
                _compile_from_config(model, compile_config, custom_objects)
            if getattr(model, "optimizer", None) is not None:
                model.optimizer.build(model.trainable_variables)
        from . import _h5
        _h5.read_weights(model, io.BytesIO(weights), optimizer=compile and compile_config is not None
                         and getattr(model, "optimizer", None) is not None,
                         what=f"{path!r} ({_KERAS_WEIGHTS}, written by Keras)")
        return model
    variables = {f"model/{i:04d}": v for i, v in enumerate(model.weights)}
    compile_config = config.get("compile_config")
    if compile and compile_config is not None:
        with CustomObjectScope(custom_objects or {}):
            _compile_from_config(model, compile_config, custom_objects)
        saved = sum(n.startswith("optimizer/") for n in _npz_keys(weights))
        if getattr(model, "optimizer", None) is None:
            pass   # (a custom compile() that loading does not call)
        elif saved > len(model.optimizer.variables):   # it had slots: make them, then restore them
            model.optimizer.build(model.trainable_variables)
        if saved == len(model.optimizer.variables):
            variables.update({f"optimizer/{i:04d}": v for i, v in enumerate(model.optimizer.variables)})
        else:
            warnings.warn(f"Skipping variable loading for optimizer '{model.optimizer.name}', because it "
                          f"has {len(model.optimizer.variables)} variables whereas the saved optimizer "
                          f"has {saved} variables.", stacklevel=2)
    load_variables(io.BytesIO(weights), variables, strict=False)
    with zipfile.ZipFile(path) as z:
        _load_hooks(model, z, path)
    return model


def load_weights_from_archive(model: Any, filepath: Any, skip_mismatch: bool = False) -> None:
    """``model.load_weights("x.keras")``: the weights of a whole-model archive (tapegrad's
    ``model.weights.npz`` or Keras's ``model.weights.h5``) into ``model``, as Keras's
    ``saving_lib.load_weights_only`` reads them; the optimizer's are not read."""
    path = os.fspath(filepath)
    if not os.path.exists(path):
        raise FileNotFoundError(f"No such file: {path!r}")
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        if _WEIGHTS not in names and _KERAS_WEIGHTS not in names:
            raise ValueError(f"Cannot load weights from {path!r}: it has no {_WEIGHTS} (nor Keras's "
                             f"{_KERAS_WEIGHTS}); is it a .keras file written by model.save?")
        member = _WEIGHTS if _WEIGHTS in names else _KERAS_WEIGHTS
        _check_members(z, (member,), path)
        weights = z.read(member)
        if member == _KERAS_WEIGHTS:
            from . import _h5
            _h5.read_weights(model, io.BytesIO(weights), skip_mismatch=skip_mismatch, optimizer=False,
                             what=f"{path!r} ({_KERAS_WEIGHTS}, written by Keras)")
        else:
            variables = {f"model/{i:04d}": v for i, v in enumerate(model.weights)}
            load_variables(io.BytesIO(weights), variables, strict=False)
        _load_hooks(model, z, path)


# -- Keras's state hooks: save_own_variables/load_own_variables and save_assets/load_assets, called
# per object with the object's path in the model (saving_lib's _save_state/_load_state walk).
# tapegrad keeps the variables of layers that do not override the hooks in model.weights.npz;
# an overriding object's store goes to own_variables.npz under "<path>/vars/<key>", and each
# object's assets folder is "assets/<path>/" in the archive.

def _hook_objects(model: Any) -> list:
    from . import _h5
    return [(path, obj) for path, obj, _ in _h5.saveables(model, optimizer=False)
            if not isinstance(obj, _h5._Named)]


def _overrides(obj: Any, hook: str) -> bool:
    from .layers.layer import Layer
    fn = getattr(type(obj), hook, None)
    return fn is not None and fn is not getattr(Layer, hook, None)


def _store_key(path: str, key: str) -> str:
    return f"{path}/vars/{key}" if path else f"vars/{key}"


def _saved_hooks(model: Any) -> tuple:
    """(own_variables.npz's bytes or None, [(archive name, bytes)] of the assets)."""
    import shutil
    import tempfile
    own: dict = {}
    assets: list = []
    root = tempfile.mkdtemp()
    try:
        for path, obj in _hook_objects(model):
            if _overrides(obj, "save_own_variables"):
                store: dict = {}
                obj.save_own_variables(store)
                for k, v in store.items():
                    own[_store_key(path, str(k))] = np.asarray(v.numpy() if hasattr(v, "numpy") else v)
            if callable(getattr(obj, "save_assets", None)):
                folder = os.path.join(root, _ASSETS, *path.split("/")) if path else os.path.join(root, _ASSETS)
                os.makedirs(folder, exist_ok=True)
                obj.save_assets(folder)
        for here, _, files in sorted(os.walk(root)):
            for name in sorted(files):
                full = os.path.join(here, name)
                with open(full, "rb") as fh:
                    assets.append((os.path.relpath(full, root).replace(os.sep, "/"), fh.read()))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if not own:
        return None, assets
    bad = [k for k, v in own.items() if v.dtype.hasobject]
    if bad:
        raise ValueError(f"save_own_variables stored values that are not numeric or string arrays "
                         f"under {bad[:3]}; store NumPy arrays (tapegrad never pickles).")
    buf = io.BytesIO()
    np.savez(buf, **own)
    return buf.getvalue(), assets


def _load_hooks(model: Any, z: zipfile.ZipFile, path: str) -> None:
    import shutil
    import tempfile
    objects = [(p, obj) for p, obj in _hook_objects(model)
               if _overrides(obj, "load_own_variables") or callable(getattr(obj, "load_assets", None))]
    if not objects:
        return
    names = z.namelist()
    own: dict = {}
    if _OWN in names:
        _check_members(z, (_OWN,), path)
        own = _read_npz(z.read(_OWN), f"{path!r} ({_OWN})")
    root = tempfile.mkdtemp()
    try:
        for name in names:
            if not name.startswith(_ASSETS + "/") or name.endswith("/"):
                continue
            parts = name.split("/")
            if any(p in ("", ".", "..") for p in parts) or ":" in name or "\\" in name:
                raise ValueError(f"Not allowed: ZIP member {name!r} of {path!r} names a file outside "
                                 "its assets folder.")
            _check_members(z, (name,), path)
            target = os.path.join(root, *parts)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as fh:
                fh.write(z.read(name))
        for p, obj in objects:
            if _overrides(obj, "load_own_variables"):
                prefix = _store_key(p, "")
                obj.load_own_variables({k[len(prefix):]: v for k, v in own.items() if k.startswith(prefix)
                                        and "/" not in k[len(prefix):]})
            if callable(getattr(obj, "load_assets", None)):
                folder = os.path.join(root, _ASSETS, *p.split("/")) if p else os.path.join(root, _ASSETS)
                obj.load_assets(folder if os.path.isdir(folder) else None)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _read_npz(data: bytes, what: str) -> dict:
    """The arrays of an ``.npz`` (no pickle), each ``.npy`` header checked against the bytes it
    has before anything is allocated."""
    from numpy.lib import format as npy_format
    out = {}
    with zipfile.ZipFile(io.BytesIO(data)) as inner:
        for info in inner.infolist():
            problem = _member_problem(info)
            if problem or not info.filename.endswith(".npy"):
                raise ValueError(f"Not allowed: {what} member {info.filename!r} {problem or 'is not an array'}.")
            with inner.open(info) as fh:
                major, _ = npy_format.read_magic(fh)
                read_header = getattr(npy_format, f"read_array_header_{major}_0", npy_format.read_array_header_2_0)
                shape, _, dtype = read_header(fh)
                if dtype.hasobject or int(np.prod(shape)) * dtype.itemsize > info.file_size:
                    raise ValueError(f"Not allowed: {what} member {info.filename!r} declares more data "
                                     "than it holds, or Python objects.")
            with inner.open(info) as fh:
                out[info.filename[:-4]] = np.load(fh, allow_pickle=False)
    return out


def _check_members(z: zipfile.ZipFile, names: tuple, path: str) -> None:
    """Check the ``.keras`` archive's members ``names`` before any is inflated, as checkpoints'
    entries are checked (a decompression bomb is refused from the zip directory alone)."""
    for name in names:
        try:
            problem = _member_problem(z.getinfo(name))
        except KeyError:
            raise ValueError(f"Cannot load {path!r}: it has no {name}.") from None
        if problem:
            raise ValueError(f"Not allowed: ZIP member '{name}' of {path!r} {problem}.")


def _npz_keys(data: bytes) -> list:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return [n[:-4] for n in z.namelist()]


def _deserialize_compile(key: str, value: Any, custom_objects: dict | None) -> Any:
    if key == "optimizer":
        from . import optimizers
        return optimizers.get(deserialize_keras_object(value, custom_objects))
    if value is None or isinstance(value, str) or key == "loss_weights":
        return value
    return deserialize_keras_object(value, custom_objects)


def save_weights(model: Any, filepath: Any, overwrite: bool = True, max_shard_size: Any = None,
                 **kwargs: Any) -> None:
    """``model.save_weights(filepath, overwrite)`` (tapegrad's checkpoint format)."""
    if max_shard_size is not None:
        raise ValueError("tapegrad writes weights to one file; leave `max_shard_size` as None.")
    model.save_weights(filepath, overwrite=overwrite)


def load_weights(model: Any, filepath: Any, skip_mismatch: bool = False, **kwargs: Any) -> None:
    """``model.load_weights(filepath, skip_mismatch)``."""
    model.load_weights(filepath, skip_mismatch=skip_mismatch)


def clone_model(model: Any, input_tensors: Any = None, clone_function: Callable | None = None,
                call_function: Callable | None = None, recursive: bool = False, **kwargs: Any) -> Any:
    """A new model of the same architecture with new weights (freshly initialized), compiled as
    ``model`` is when ``model`` is compiled (as Keras 3's)."""
    if input_tensors is not None or clone_function is not None or call_function is not None:
        raise ValueError("tapegrad's clone_model supports neither `input_tensors`, `clone_function` "
                         "nor `call_function`; rebuild the model with the layers you need.")
    clone = deserialize_keras_object(serialize_keras_object(model))
    compile_config = _compile_config(model)
    if compile_config:
        _compile_from_config(clone, compile_config, None)
    return clone


def model_from_json(json_string: str, custom_objects: dict | None = None) -> Any:
    """The model (new weights) that ``model.to_json()`` described."""
    return deserialize_keras_object(json.loads(json_string), custom_objects)
