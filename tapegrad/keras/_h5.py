"""Keras's HDF5 files, read and written with h5py (the optional extra ``tapegrad[h5]``).

Two layouts, both Keras 3.15's, so files interchange with Keras:

- the weights layout of ``model.save_weights("x.weights.h5")`` (and of ``model.weights.h5`` inside a
  ``.keras`` archive written by Keras): a group per object on the path Keras walks —
  ``layers/<snake_case class name, numbered>`` for the layers of a Functional or Sequential model,
  then sub-layers under their attribute names, ``optimizer`` — each with a ``vars`` group holding
  the object's own variables as datasets ``0``, ``1``, ...;
- the legacy model file of ``model.save("x.h5")``: the model's config (``model_config``), its
  compile config (``training_config``), ``model_weights/<layer name>/<weight path>`` and the
  optimizer's variables; ``model.load_weights("x.h5")`` reads its weights by layer order (or by
  name, ``by_name=True``) as Keras does.

Reading uses h5py's datasets only: nothing in a file is run (a legacy ``Lambda`` layer's
marshalled code is refused whatever ``safe_mode``), and a dataset's declared shape is checked against
its variable's before it is read (a file cannot make tapegrad inflate more than the model holds).
"""
from __future__ import annotations

import json
import re
import warnings
from typing import Any, Iterator

import numpy as np

KERAS_VERSION = "3.15.1"


def h5py() -> Any:
    """The h5py module, or an ImportError that says how to get it."""
    try:
        import h5py as mod
    except ImportError:
        raise ImportError("Keras's HDF5 files (.h5, .weights.h5) need h5py: `pip install 'tapegrad[h5]'` (or "
                          "`pip install h5py`). Without it, save to a `.keras` file, or weights to a `.npz` file "
                          "(tapegrad's checkpoint format).") from None
    return mod


def is_h5(path: str) -> bool:
    return path.endswith((".h5", ".hdf5"))


# -- the weights layout (saving_lib's) ---------------------------------------------------------
def _snake(name: str) -> str:
    name = re.sub(r"\W+", "", name)
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


def _unique(name: str, used: dict) -> str:
    if name in used:
        used[name] += 1
        return f"{name}_{used[name]}"
    used[name] = 0
    return name


def _own_variables(obj: Any) -> list:
    own = getattr(obj, "_own_variables", None)
    if own is None:
        return []
    saved = getattr(obj, "_saved_variables", None)  # (a quantized layer's own order, as Keras's)
    if saved is not None and saved() is not None:
        return saved()
    vs = own()
    return [v for v in vs if v.trainable] + [v for v in vs if not v.trainable]


_SKIPPED = ("InputLayer",)  # not saveables of Keras's
# recurrent layers that own their cell's variables in tapegrad; Keras keeps them in a `cell` sub-layer
_CELLS = {"LSTM": "lstm_cell", "GRU": "gru_cell", "SimpleRNN": "simple_rnn_cell"}


def _saveable(v: Any) -> bool:
    from .layers.layer import Layer
    return isinstance(v, Layer) and type(v).__name__ not in _SKIPPED


def _children(layer: Any) -> Iterator[tuple[str, Any]]:
    """A layer's sub-layers under their attribute names, in Keras's order (public names first, each
    group sorted); a list of layers is one container."""
    items = []
    for k, v in vars(layer).items():
        if k.startswith("__") or k == "_functional":
            continue
        if _saveable(v) or (isinstance(v, (list, tuple)) and v and all(_saveable(x) for x in v)):
            public = k.lstrip("_")  # a private attribute Keras reaches by a public property first
            if public != k and isinstance(getattr(type(layer), public, None), property):
                k = public
            items.append((k, v))
    items.sort(key=lambda kv: f"~{kv[0]}" if kv[0].startswith("_") else kv[0])
    yield from items


def saveables(model: Any, optimizer: bool = True, source: Any = None) -> list[tuple[str, Any, list]]:
    """``(path, object, its own variables)`` for every object Keras's weights file holds a group
    for, in Keras's order."""
    out: list = []
    seen: set = set()

    def visit(obj: Any, path: str) -> None:
        if id(obj) in seen:
            return
        seen.add(id(obj))
        cell = _CELLS.get(type(obj).__name__)
        if cell is not None and "cell" not in vars(obj):
            out.append((path, obj, []))
            out.append((_join(path, "cell"), _Named(cell), _own_variables(obj)))
        else:
            out.append((path, obj, _own_variables(obj)))
        if _is_sequential(obj) or obj.__dict__.get("_functional"):
            layers = [lay for lay in obj.layers
                      if not (_is_sequential(obj) and type(lay).__name__ == "InputLayer")]
            container(layers, _join(path, "layers"))
        for attr, child in _children(obj):
            if isinstance(child, (list, tuple)):
                container(child, _join(path, attr))
            else:
                visit(child, _join(path, attr))

    def container(items: Any, path: str) -> None:
        used: dict = {}
        for item in items:
            visit(item, _join(path, _unique(_snake(type(item).__name__), used)))

    visit(model, "")
    opt = getattr(model, "optimizer", None) if optimizer else None
    if opt is not None and getattr(model, "compiled", False):
        if source is not None and "optimizer/vars" in source and len(source["optimizer/vars"]) > len(opt.variables):
            opt.build(model.trainable_variables)  # the file has its slots: make them, to restore them
        if opt.variables:
            out.append(("optimizer", opt, list(opt.variables)))
    return out


class _Named:
    """A group Keras writes for an object tapegrad does not have (an RNN's cell)."""

    def __init__(self, name: str) -> None:
        self.name = name


def _is_sequential(model: Any) -> bool:
    return any(c.__name__ == "Sequential" for c in type(model).__mro__)


def _join(path: str, name: str) -> str:
    return f"{path}/{name}" if path else name


def write_weights(model: Any, target: Any, optimizer: bool = True) -> None:
    """Write ``model``'s weights (and its optimizer's) in Keras 3's ``.weights.h5`` layout to
    ``target`` (a path or a binary file object)."""
    with h5py().File(target, "w") as f:
        for path, obj, variables in saveables(model, optimizer):
            group = f.require_group(_join(path, "vars"))
            name = getattr(obj, "name", None)
            if isinstance(name, str):
                group.attrs["name"] = name
            for i, v in enumerate(variables):
                group.create_dataset(str(i), data=np.asarray(v.numpy()))


def read_weights(model: Any, source: Any, skip_mismatch: bool = False, optimizer: bool = True,
                 what: str = "the weights file") -> None:
    """Assign ``model``'s weights (and its optimizer's, when both have them) from a Keras 3
    weights file (a path or a binary file object)."""
    problems = []
    with h5py().File(source, "r") as f:
        for path, obj, variables in saveables(model, optimizer, f):
            key = _join(path, "vars")
            if not variables:
                continue
            if key not in f:
                if path == "optimizer":  # weights saved before the model was compiled
                    continue
                problems.append(f"no group {key!r} for {getattr(obj, 'name', path)!r}")
                continue
            group = f[key]
            if len(group) != len(variables):
                if path == "optimizer":
                    warnings.warn(f"Skipping variable loading for optimizer '{obj.name}', because it has "
                                  f"{len(variables)} variables whereas the saved optimizer has {len(group)} "
                                  "variables.", stacklevel=3)
                    continue
                problems.append(f"{key!r} holds {len(group)} variables, {getattr(obj, 'name', path)!r} has "
                                f"{len(variables)}")
                continue
            for i, v in enumerate(variables):
                data = group[str(i)]
                if tuple(data.shape) != tuple(v.shape):  # (checked before anything is read or inflated)
                    msg = (f"{key}/{i} has shape {data.shape}, the variable {v.name!r} of "
                           f"{getattr(obj, 'name', path)!r} has shape {tuple(v.shape)}")
                    if skip_mismatch:
                        warnings.warn(f"Skipping loading weights: {msg}.", stacklevel=3)
                        continue
                    problems.append(msg)
                    continue
                v.assign(np.asarray(data[()]).astype(np.dtype(v.dtype.as_numpy_dtype), copy=False))
    if problems:
        raise ValueError(f"{what} does not match the model: " + "; ".join(problems[:5])
                         + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else "")
                         + ". Load weights into the model they were saved from (same layers, same order).")


def looks_like_legacy(source: Any) -> bool:
    with h5py().File(source, "r") as f:
        return "layer_names" in f.attrs or "model_weights" in f


# -- the legacy model file -------------------------------------------------------------------------
def _legacy_weights(layer: Any) -> list:
    return list(layer.trainable_weights) + list(layer.non_trainable_weights)


def _strings(values: list) -> np.ndarray:
    return np.array([s.encode("utf8") for s in values], dtype=object) if values else np.array([], dtype="S1")


def _attr_list(group: Any, name: str) -> list[str]:
    if name in group.attrs:
        data = list(group.attrs[name])
    else:  # long lists are split over name0, name1, ...
        data, i = [], 0
        while f"{name}{i}" in group.attrs:
            data += list(group.attrs[f"{name}{i}"])
            i += 1
    return [d.decode("utf8") if isinstance(d, bytes) else str(d) for d in data]


def _write_subset(group: Any, weights: list) -> None:
    names = [getattr(w, "path", None) or w.name.split(":")[0] for w in weights]
    group.attrs["weight_names"] = _strings(names)
    for name, w in zip(names, weights):
        group.create_dataset(name, data=np.asarray(w.numpy()))


def write_legacy_model(model: Any, target: Any, include_optimizer: bool = True) -> None:
    """``model.save("x.h5")``: Keras's legacy HDF5 model file."""
    from .saving import _compile_config, serialize_keras_object
    config = serialize_keras_object(model)
    model_config = {"class_name": config["class_name"], "config": config["config"]}
    with h5py().File(target, "w") as f:
        f.attrs["backend"] = "tensorflow"
        f.attrs["keras_version"] = KERAS_VERSION
        f.attrs["model_config"] = json.dumps(model_config)
        weights = f.create_group("model_weights")
        weights.attrs["layer_names"] = _strings([layer.name for layer in model.layers])
        weights.attrs["backend"] = b"tensorflow"
        weights.attrs["keras_version"] = KERAS_VERSION.encode()
        for layer in sorted(model.layers, key=lambda x: x.name):
            _write_subset(weights.create_group(layer.name), _legacy_weights(layer))
        _write_subset(weights.create_group("top_level_model_weights"), [])
        compile_config = _compile_config(model)
        if include_optimizer and compile_config is not None:
            training = {k: v for k, v in compile_config.items() if k != "optimizer"}
            opt = compile_config["optimizer"]
            training["optimizer_config"] = {"class_name": opt["class_name"], "config": opt["config"]} \
                if isinstance(opt, dict) else opt
            f.attrs["training_config"] = json.dumps(training)
            variables = list(model.optimizer.variables)
            if variables:
                group = f.create_group("optimizer_weights")
                names = [f"{model.optimizer.name}/{i}" for i in range(len(variables))]
                group.attrs["weight_names"] = _strings(names)
                for name, v in zip(names, variables):
                    group.create_dataset(name, data=np.asarray(v.numpy()))


def _with_modules(config: Any) -> Any:
    """A legacy config's built-in classes given the ``module`` that Keras 3's configs name."""
    from . import layers as _layers
    if isinstance(config, list):
        return [_with_modules(c) for c in config]
    if not isinstance(config, dict):
        return config
    out = {k: _with_modules(v) for k, v in config.items()}
    name = out.get("class_name")
    if isinstance(name, str) and "config" in out and not out.get("module") and name != "__keras_tensor__":
        if name in ("Functional", "Sequential", "Model"):
            out["module"] = "keras"
        elif hasattr(_layers, name):
            out["module"] = "keras.layers"
    return out


def set_legacy_weights(group: Any, model: Any, skip_mismatch: bool = False, by_name: bool = False) -> None:
    """Keras's ``load_weights`` of a legacy HDF5 weights group: layers with weights matched by order
    (or by name), their weights in trainable-then-non-trainable order."""
    names = [n for n in _attr_list(group, "layer_names") if _attr_list(group[n], "weight_names")]
    layers = [layer for layer in model.layers if _legacy_weights(layer)]
    if by_name:
        index = {layer.name: layer for layer in layers}
        pairs = [(index[n], n) for n in names if n in index]
    else:
        if len(names) != len(layers):
            raise ValueError(f"Layer count mismatch when loading weights from file. Model expected {len(layers)} "
                             f"layers, found {len(names)} saved layers.")
        pairs = list(zip(layers, names))
    for k, (layer, name) in enumerate(pairs):
        saved = [group[name][w] for w in _attr_list(group[name], "weight_names")]  # datasets, not yet read
        weights = _legacy_weights(layer)
        if len(saved) != len(weights):
            msg = (f"Weight count mismatch for layer #{k} (named {layer.name} in the current model, {name} in the "
                   f"save file). Layer expects {len(weights)} weight(s). Received {len(saved)} saved weight(s)")
            if skip_mismatch:
                warnings.warn(f"Skipping loading of weights: {msg}", stacklevel=3)
                continue
            raise ValueError(msg)
        for w, value in zip(weights, saved):
            if tuple(value.shape) != tuple(w.shape):
                msg = (f"Shape mismatch in layer #{k} (named {layer.name}) for weight {w.name}. Weight expects "
                       f"shape {tuple(w.shape)}. Received saved weight with shape {value.shape}")
                if skip_mismatch:
                    warnings.warn(f"Skipping loading of weights: {msg}", stacklevel=3)
                    continue
                raise ValueError(msg)
            w.assign(np.asarray(value[()]).astype(np.dtype(w.dtype.as_numpy_dtype), copy=False))


def read_legacy_model(source: Any, custom_objects: dict | None, compile: bool, safe_mode: bool) -> Any:
    """``keras.models.load_model("x.h5")``."""
    from .saving import CustomObjectScope, _deserialize_compile, deserialize_keras_object
    with h5py().File(source, "r") as f:
        if "model_config" not in f.attrs:
            raise ValueError(f"No model config found in the file at {source}: it holds weights only; build the "
                             "model and call model.load_weights on it.")
        config = json.loads(_text(f.attrs["model_config"]))
        if '"Lambda"' in json.dumps(config):
            raise ValueError("The file holds a Lambda layer, whose Python code Keras stored as marshalled bytecode; "
                             "tapegrad never loads code from a file, whatever safe_mode. Rebuild the model in Python "
                             "(with the Lambda's function) and load the file's weights into it with load_weights.")
        model = deserialize_keras_object(_with_modules(config), custom_objects, safe_mode=safe_mode)
        set_legacy_weights(f["model_weights"] if "model_weights" in f else f, model)
        training = f.attrs.get("training_config")
        if compile and training is not None:
            training = json.loads(_text(training))
            opt = training.get("optimizer_config")
            kwargs = {k: training.get(k) for k in ("loss", "loss_weights", "metrics", "weighted_metrics")}
            if isinstance(opt, dict) and "module" not in opt:
                opt = {"module": "keras.optimizers", "registered_name": None, **opt}
            with CustomObjectScope(custom_objects or {}):
                model.compile(optimizer=_deserialize_compile("optimizer", opt, custom_objects),
                              **{k: _deserialize_compile(k, v, custom_objects) for k, v in kwargs.items()})
            if "optimizer_weights" in f:
                group = f["optimizer_weights"]
                values = [group[n] for n in _attr_list(group, "weight_names")]  # datasets, not yet read
                opt = model.optimizer
                if len(values) > len(opt.variables):
                    opt.build(model.trainable_variables)
                if len(values) == len(opt.variables) and \
                        all(tuple(v.shape) == tuple(a.shape) for v, a in zip(opt.variables, values)):
                    for v, a in zip(opt.variables, values):
                        v.assign(np.asarray(a[()]).astype(np.dtype(v.dtype.as_numpy_dtype), copy=False))
                else:
                    warnings.warn("Error in loading the saved optimizer state: its variables do not match "
                                  "the optimizer's. The optimizer starts afresh.", stacklevel=3)
    return model


def _text(value: Any) -> str:
    return value.decode("utf8") if isinstance(value, bytes) else str(value)


def atomic_h5(path: str, write: Any) -> None:
    """Write an HDF5 file at ``path`` atomically (tapegrad.saving's one atomic writer): ``write`` fills
    an in-memory HDF5 file, which replaces ``path`` only once it is whole on disk."""
    import io

    from ..saving import _write_atomically
    h5py()  # (the ImportError before anything is made)
    buf = io.BytesIO()
    write(buf)
    _write_atomically(path, lambda f: f.write(buf.getvalue()))
