"""``tf.saved_model``: save a trackable object (a ``tf.Module``, a Keras model or layer) with its
variables and its traced ``tf.function``\\ s, and load it back without its Python code.

The folder has TensorFlow's layout (``saved_model.pb``, ``fingerprint.pb``, ``variables/``,
``assets/``) holding tapegrad's own content: each function's trace as data (op names from the op
registry, parameters, constant arrays, wiring), never code; see docs/saved_model.md.

>>> import tempfile, tapegrad as tf
>>> class Scale(tf.Module):
...     def __init__(self):
...         self.w = tf.Variable(3.0)
...     @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
...     def __call__(self, x):
...         return x * self.w
>>> d = tempfile.mkdtemp()
>>> tf.saved_model.save(Scale(), d)
>>> r = tf.saved_model.load(d)
>>> r(tf.constant([1.0, 2.0])).numpy()
array([3., 6.], dtype=float32)
>>> r.signatures["serving_default"](x=tf.constant([1.0]))["output_0"].numpy()
array([3.], dtype=float32)
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import warnings
from typing import Any

import numpy as np

from .. import _function, _nest, _recorders as _rec, _trace, saving
from .._convert import convert_to_tensor
from .._spec import TensorSpec
from .._tensor import IndexedSlices, Tensor, wrap
from .._variable import Variable
from ..errors import InvalidArgumentError
from ..module import Module
from . import _sizes
from ._format import Unreadable, Unsavable, decode, decode_program, encode, encode_program

__all__ = ["save", "load", "contains_saved_model", "SaveOptions", "LoadOptions", "ASSETS_DIRECTORY",
           "SAVED_MODEL_FILENAME_PB", "VARIABLES_DIRECTORY", "VARIABLES_FILENAME",
           "DEFAULT_SERVING_SIGNATURE_DEF_KEY"]

SAVED_MODEL_FILENAME_PB = "saved_model.pb"
FINGERPRINT_FILENAME = "fingerprint.pb"
VARIABLES_DIRECTORY = "variables"
VARIABLES_FILENAME = "variables"
ASSETS_DIRECTORY = "assets"
DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"
_DATA = "variables.data-00000-of-00001"
_INDEX = "variables.index"
_MAGIC = "tapegrad saved_model"
_VERSION = 1


class SaveOptions:
    """``tf.saved_model.SaveOptions``: accepted; tapegrad's format has no options to set."""

    def __init__(self, namespace_whitelist: Any = None, save_debug_info: bool = False,
                 function_aliases: Any = None, experimental_io_device: Any = None,
                 experimental_variable_policy: Any = None, experimental_custom_gradients: bool = True,
                 experimental_image_format: bool = False, experimental_skip_saver: bool = False,
                 experimental_sharding_callback: Any = None, extra_tags: Any = None) -> None:
        self.namespace_whitelist = namespace_whitelist
        self.save_debug_info = save_debug_info
        self.function_aliases = dict(function_aliases or {})
        self.experimental_io_device = experimental_io_device


class LoadOptions:
    """``tf.saved_model.LoadOptions``: accepted; tapegrad's loader has no options to set."""

    def __init__(self, allow_partial_checkpoint: bool = False, experimental_io_device: Any = None,
                 experimental_skip_checkpoint: bool = False, experimental_variable_policy: Any = None,
                 experimental_load_function_aliases: bool = False) -> None:
        self.allow_partial_checkpoint = allow_partial_checkpoint
        self.experimental_io_device = experimental_io_device
        self.experimental_skip_checkpoint = experimental_skip_checkpoint


# -- saving
def _is_function(x: Any) -> bool:
    return isinstance(x, (_function.Function, _function.ConcreteFunction, RestoredFunction))


def _is_keras_layer(x: Any) -> bool:
    return any(c.__module__.startswith("tapegrad.keras") and c.__name__ == "Layer" for c in type(x).__mro__)


def _trackable(x: Any, depth: int = 0) -> bool:
    if isinstance(x, (Variable, Module, _UserObject)) or _is_function(x) or callable(
            getattr(x, "_trackable_children", None)):
        return True
    if depth < 8 and type(x) in (list, tuple):  # (an empty one too: a collection that stays one)
        return not x or any(_trackable(v, depth + 1) for v in x)
    if depth < 8 and type(x) is dict:
        return not x or any(_trackable(v, depth + 1) for v in x.values())
    return False


def _children(obj: Any) -> list:
    """``(name, value)`` of an object's trackable attributes (TensorFlow's ``AutoTrackable``): its
    ``_trackable_children()`` where it has them, else its instance attributes (a Keras layer's public ones only: the rest is Keras's bookkeeping, and
    its train/test/predict functions are left out as in TensorFlow), then ``tf.function``\\ s
    defined on the class."""
    keras = _is_keras_layer(obj)
    out = []
    own = getattr(obj, "_trackable_children", None)  # (tf.train.Checkpoint, tf.random.Generator)
    for k, v in sorted(own().items() if callable(own) else vars(obj).items()):
        if keras and (k.startswith("_") or k in ("train_function", "test_function", "predict_function")):
            continue
        if _trackable(v):
            out.append((k, v))
    if keras and type(getattr(obj, "layers", None)) is list:
        out.append(("layers", list(obj.layers)))
    have = {k for k, _ in out}
    for k in sorted(dir(type(obj))):
        if k not in have and isinstance(getattr(type(obj), k, None), _function.Function):
            out.append((k, getattr(obj, k)))
    return out


class _Saver:
    def __init__(self) -> None:
        self.nodes: list = []
        self.node_of: dict = {}        # id(object) -> node
        self.keep: list = []
        self.variables: dict = {}      # id(Variable) -> node
        self.arrays: dict = {}         # npz member -> array (saved_model.pb)
        self.values: dict = {}         # npz member -> array (the variables' values)
        self.concrete: list = []

    def node(self, x: Any, path: str) -> int:
        got = self.node_of.get(id(x))
        if got is not None:
            return got
        n = len(self.nodes)
        self.node_of[id(x)] = n
        self.keep.append(x)
        self.nodes.append(None)
        if isinstance(x, Variable):
            key = f"v{n}"
            self.values[key] = np.asarray(x.numpy())
            self.variables[id(x)] = n
            node = {"kind": "variable", "key": key, "dtype": x.dtype.name, "trainable": bool(x.trainable),
                    "name": x.name, "shape": None if x.shape.rank is None else list(x.shape)}
        elif type(x) in (list, tuple):
            node = {"kind": type(x).__name__, "items": [self.node(v, f"{path}[{i}]") if _trackable(v) else None
                                                        for i, v in enumerate(x)]}
        elif type(x) is dict:
            bad = [k for k, v in x.items() if _trackable(v) and type(k) not in (str, int)]
            if bad:
                raise Unsavable(f"{path} is a dict whose key {bad[0]!r} is neither a string nor an integer")
            node = {"kind": "dict", "items": [[k, self.node(v, f"{path}[{k!r}]")] for k, v in x.items()
                                              if _trackable(v)]}
        elif _is_function(x):
            node = {"kind": "function", "function": x, "path": path}  # (encoded once variables are known)
        else:
            node = {"kind": "object", "class": type(x).__name__,
                    "children": [[k, self.node(v, f"{path}.{k}")] for k, v in _children(x)]}
        self.nodes[n] = node
        return n

    def resource(self, v: Any) -> int:
        n = self.variables.get(id(v))
        if n is None:
            raise ValueError(f"Tried to export a function which references an 'untracked' resource: the "
                             f"tf.Variable {v.name!r} is not reachable from the saved object's attributes. "
                             "Assign it to an attribute of the object (or of one of its submodules) first.")
        return n

    def add_concrete(self, c: dict) -> int:
        self.concrete.append(c)
        return len(self.concrete) - 1

    def encode_prog(self, prog: Any, what: str) -> dict:
        arrays: list = []
        data = encode_program(prog, self.resource, arrays, what)
        try:
            data["template"] = [["slot"] if x is _function._SLOT else
                                ["slices", x[1]] if type(x) is tuple and len(x) == 2 and x[0] is _function._SLICES
                                else ["value", encode(_plain(x), arrays)] for x in prog.template]
            data["structure"] = encode(prog.structure, arrays)
        except Unsavable as e:
            raise Unsavable(f"{what} returns {e}") from None
        data["single"] = bool(prog.single)
        return {"data": data, "arrays": arrays}  # (the arrays stay local until _finish_concrete)

    def relocated(self, arrays: list) -> list:
        names = []
        for a in arrays:
            names.append(f"a{len(self.arrays)}")
            self.arrays[names[-1]] = a
        return names


def _plain(x: Any) -> Any:
    if isinstance(x, (Tensor, Variable)) or _trackable(x):
        raise Unsavable(f"a {type(x).__name__} that is not a traced tensor")
    return x


def _none_dims(structure: Any, what: str) -> list:
    """``(leaf, axis)`` of each dimension declared None, ``leaf`` counting the TensorSpecs."""
    out = []
    specs = [x for x in _nest.flatten(structure) if isinstance(x, TensorSpec)]
    for i, x in enumerate(specs):
        if x.shape.rank is None:
            raise Unsavable(f"{what}: its signature declares a tensor of unknown rank ({x!r}); tapegrad saves "
                            "traces of known rank: declare the rank (None for each unknown dimension)")
        out += [(i, ax) for ax, d in enumerate(x.shape) if d is None]
    return out


def _samples(structure: Any, dims: list, sizes: list) -> Any:
    """Arguments to trace a signature with: zeros, the None dimensions ``dims`` of ``sizes``."""
    size_of = dict(zip(dims, sizes))
    it = iter(range(10 ** 9))

    def sample(x: Any) -> Any:
        if not isinstance(x, TensorSpec):
            return x
        i = next(it)
        shape = [size_of[(i, ax)] if d is None else d for ax, d in enumerate(x.shape)]
        if x.dtype.name == "string":
            return convert_to_tensor(np.full(shape, b"", object))
        return wrap(np.zeros(shape, x.dtype.as_numpy_dtype))
    return _nest.map_structure(sample, structure)


def _trace_once(fn: Any, structure: Any, dims: list, sizes: list, what: str) -> Any:
    """The program of Python function ``fn`` traced afresh on samples of the signature (a trace of
    its own, not a call: TensorFlow's retracing statistics do not see it)."""
    f = _function.Function(fn, name=what)
    a, kw = f._bind(*_samples(structure, dims, sizes))
    tensors, _, _, flat, variables = f._leaves(a, kw)
    entry = _function._Entry()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the reason is raised below)
        out = f._trace(entry, a, kw, tensors, flat, variables)
    if entry.eager is not None or not entry.programs:
        raise Unsavable(f"{what} cannot be traced into a replayable program: {entry.eager}")
    return entry.programs[-1], [x for x in _nest.flatten(out) if isinstance(x, Tensor)]


def variables_used(fn: Any) -> list:
    """The Variables a ``tf.function`` reads or writes (traced afresh on its input_signature, or
    its traces so far): what Keras's ``ExportArchive`` tracks for its endpoints."""
    progs = [p for e in fn._cache.values() for p in e.programs]
    if fn.input_signature is not None:
        structure = (tuple(fn.input_signature), {})
        dims = _none_dims(structure, fn.__name__)
        progs.append(_trace_once(fn._fn, structure, dims, [_sizes.BASE] * len(dims), fn.__name__)[0])
    out: list = []
    for p in progs:
        out += [v for v in p.res if v is not None and all(v is not w for w in out)]
    return out


def _fn_name(x: Any) -> str:
    return getattr(x, "__name__", None) or getattr(getattr(x, "_owner", None), "__name__", "function")


def _param_names(fn: Any) -> list:
    import inspect
    try:
        return [p.name for p in inspect.signature(fn).parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return []


def _groupings(dims: list) -> list:
    """Which None dimensions share a size, in the order tried: none, those of one axis (the batch
    dimension of several inputs), all."""
    out = [[[d] for d in dims]]
    by_axis: dict = {}
    for d in dims:
        by_axis.setdefault(d[1], []).append(d)
    out.append(list(by_axis.values()))
    out.append([list(dims)])
    unique = []
    for g in out:
        if g not in unique:
            unique.append(g)
    return unique


def _traced_with_holes(saver: _Saver, fn: Any, structure: Any, groups: list, what: str) -> tuple:
    """The traces of ``fn`` at :func:`_sizes.plan`'s sizes of ``groups`` (each a list of None
    dimensions of one size), their holes and their outputs."""
    dims = [d for g in groups for d in g]
    runs = []
    for sizes in _sizes.plan(len(groups)):
        per_dim = [n for g, n in zip(groups, sizes) for _ in g]
        runs.append(_trace_once(fn, structure, dims, per_dim, what))
    traces = [saver.encode_prog(prog, what) for prog, _ in runs]
    return traces, _sizes.holes(traces, what), runs


def _encode_signature_concrete(saver: _Saver, fn: Any, spec_args: tuple, spec_kwargs: dict, what: str) -> int:
    """Trace ``fn`` for a declared signature and add it as a concrete function: one trace, with
    holes for the sizes of the dimensions declared None (``_sizes``). Dimensions the function
    needs of one size (the batch of two inputs) are traced with one size (the first grouping whose
    traces run and agree)."""
    structure = (tuple(spec_args), dict(spec_kwargs))
    dims = _none_dims(structure, what)
    if not dims:
        runs = [_trace_once(fn, structure, [], [], what)]
        traces, hs, groups = [saver.encode_prog(runs[0][0], what)], {"data": [], "arrays": []}, []
    else:
        problem = None
        for groups in _groupings(dims):
            try:
                traces, hs, runs = _traced_with_holes(saver, fn, structure, groups, what)
                break
            except Unsavable:
                raise
            except Exception as e:  # noqa: BLE001  (a trace at sizes the function rejects: the next grouping)
                problem = problem or e
        else:
            specs = _specs_text(structure)
            raise Unsavable(f"{problem} declared None in its signature ({specs}); declare those sizes in the "
                            "TensorSpecs" if isinstance(problem, _sizes.NotAffine) else
                            f"{what}: tracing it at several sizes of the dimensions declared None in its "
                            f"signature ({specs}) failed ({type(problem).__name__}: {problem}); declare "
                            "those sizes in the TensorSpecs")
    # the outputs' specs: a dimension that differs between the traces is None
    outputs = [TensorSpec([d if all(o[i].shape[ax] == d for _, o in runs) else None for ax, d in enumerate(t.shape)],
                          t.dtype) for i, t in enumerate(runs[0][1])]
    prog = traces[0]
    arrays = prog["arrays"]
    enc_holes = []
    for i, kind, x, y in hs["arrays"]:
        arrays.append(x)
        enc_holes.append([i, kind, len(arrays) - 1, y if kind == "fill" else None])
        if kind == "affine":
            arrays.append(y)
            enc_holes[-1][3] = len(arrays) - 1
    return saver.add_concrete({"inputs": structure, "names": _param_names(fn), "programs": [prog],
                               "dims": [[list(d) for d in g] for g in groups],
                               "outputs": outputs, "holes": {"data": hs["data"], "arrays": enc_holes}})


def _specs_text(x: Any) -> str:
    return ", ".join(repr(s) for s in _nest.flatten(x) if isinstance(s, TensorSpec))


def _function_concretes(saver: _Saver, f: Any, what: str) -> tuple:
    """The concrete functions of a function attribute: its traces (TensorFlow saves every concrete
    function traced), or its input_signature's, traced now."""
    if isinstance(f, RestoredFunction):
        return [saver.add_concrete(c.saved(saver)) for c in f._concrete], f._signature
    if isinstance(f, _function.ConcreteFunction):
        a, kw = f.structured_input_signature
        return [_encode_signature_concrete(saver, f._owner._fn, a, kw, what)], None
    if f.input_signature is not None:
        return [_encode_signature_concrete(saver, f._fn, f.input_signature, {}, what)], f.input_signature
    out = []
    names = _param_names(f._fn)
    for entry in list(f._cache.values()):
        if entry.eager is not None or not entry.programs:
            continue
        progs = [saver.encode_prog(p, what) for p in entry.programs]
        try:
            encode(entry.programs[0].inputs, [])
        except Unsavable as e:
            raise Unsavable(f"{what} was traced with an argument that is {e}") from None
        out.append(saver.add_concrete({"inputs": entry.programs[0].inputs, "names": names, "programs": progs}))
    return out, None


def _signature_concrete(saver: _Saver, f: Any, name: str) -> int:
    if isinstance(f, _function.ConcreteFunction):
        a, kw = f.structured_input_signature
        return _encode_signature_concrete(saver, f._owner._fn, a, kw, f"the signature {name!r}")
    if isinstance(f, _function.Function):
        if f.input_signature is None:
            raise ValueError(f"Exporting the signature {name!r}: a tf.function used as a signature must "
                             "have an input_signature, or be a concrete function: pass "
                             "f.get_concrete_function(tf.TensorSpec(...)) instead.")
        return _encode_signature_concrete(saver, f._fn, f.input_signature, {}, f"the signature {name!r}")
    raise ValueError(f"Expected a tf.function with an input_signature or a concrete function as the "
                     f"signature {name!r}; got {type(f).__name__}.")


def _default_signature(obj: Any) -> Any:
    """TensorFlow's choice when ``signatures`` is omitted: a Keras model's call on its inputs, or
    the one function of the root that has an input_signature."""
    if _is_keras_layer(obj) and hasattr(obj, "fit"):
        sig = _keras_input_signature(obj)
        if sig is None:
            return None

        def serving_default(inputs: Any) -> Any:
            return obj(inputs)
        return _function.function(serving_default, input_signature=sig)
    found = [v for _, v in _children(obj) if isinstance(v, _function.Function) and v.input_signature is not None]
    return found[0] if len(found) == 1 else None


def _keras_input_signature(model: Any) -> Any:
    inputs = getattr(model, "inputs", None)
    if inputs:
        specs = [TensorSpec(tuple(x.shape), x.dtype) for x in inputs]
        return (specs[0] if len(specs) == 1 else specs,)
    shape = getattr(model, "_build_input_shape", None) or getattr(model, "_batch_input_shape", None)
    if shape is not None:
        return (TensorSpec(tuple(shape), getattr(model, "input_dtype", "float32")),)
    return None


def save(obj: Any, export_dir: str, signatures: Any = None, options: SaveOptions | None = None) -> None:
    """Save ``obj`` (a ``tf.Module``, a Keras model or layer, or another object with trackable
    attributes) to the folder ``export_dir``: its attributes that are Variables, Modules, lists and
    dicts of them, and ``tf.function``\\ s (each with the concrete functions traced so far, or
    traced now from its ``input_signature``), and the ``signatures``: a ``tf.function`` with an
    input_signature or a concrete function (saved as ``"serving_default"``), or a dict of them by
    name. Omitted, a Keras model's call on its inputs or the root's one function with an
    input_signature becomes ``"serving_default"``, as in TensorFlow.

    A function whose trace holds something with no form as data (random draws, ``tf.print``,
    ``tf.numpy_function``, a ``custom_gradient``, an optimizer's update) raises ``ValueError``
    here, naming it; so does a signature whose trace depends on a size it declares None in a way
    the saved trace cannot follow (docs/saved_model.md). See :mod:`tapegrad.saved_model` for an
    example.
    """
    if options is not None and not isinstance(options, SaveOptions):
        raise TypeError(f"options must be a tf.saved_model.SaveOptions, got {type(options).__name__}")
    if not (isinstance(obj, Module) or _trackable(obj) or hasattr(obj, "__dict__")):
        raise ValueError(f"Expected a trackable object (a tf.Module, a Keras model or layer) to save; got "
                         f"{type(obj).__name__}.")
    if isinstance(obj, (Variable, list, tuple, dict)) or _is_function(obj):
        raise ValueError(f"Expected an object with attributes (a tf.Module, a Keras model or layer) as the "
                         f"root of a SavedModel; got a {type(obj).__name__}. Wrap it: m = tf.Module(); "
                         "m.x = ...; tf.saved_model.save(m, ...)")
    saver = _Saver()
    try:
        saver.node(obj, "obj")
        sigs = _signature_map(obj, signatures)
        # functions, once every variable has its node
        for node in saver.nodes:
            if node["kind"] == "function":
                f = node.pop("function")
                what = f"the function {node['path']}"
                node["concrete"], sig = _function_concretes(saver, f, what)
                node["input_signature"] = None if sig is None else _enc_local(saver, tuple(sig))
                node["name"] = _fn_name(f)
        sig_data = {name: _signature_concrete(saver, f, name) if not isinstance(f, _RestoredSignature)
                    else saver.add_concrete(f._concrete.saved(saver)) for name, f in sigs.items()}
        concrete = [_finish_concrete(saver, c) for c in saver.concrete]
    except Unsavable as e:
        raise ValueError(f"Cannot save {type(obj).__name__} to {export_dir!r}: {e}.") from None
    graph = {"format": _MAGIC, "version": _VERSION, "nodes": saver.nodes, "concrete": concrete,
             "signatures": sig_data}
    _write(os.fspath(export_dir), graph, saver)


def _enc_local(saver: _Saver, x: Any) -> Any:
    arrays: list = []
    data = encode(x, arrays)
    return {"data": data, "arrays": saver.relocated(arrays)}


def _finish_concrete(saver: _Saver, c: dict) -> dict:
    progs = []
    for p in c["programs"]:
        progs.append({"data": p["data"], "arrays": saver.relocated(p["arrays"])})
    return {"inputs": _enc_local(saver, c["inputs"]), "names": c["names"], "programs": progs,
            "dims": c.get("dims", []), "holes": c.get("holes"),
            "outputs": None if c.get("outputs") is None else _enc_local(saver, c["outputs"])}


def _signature_map(obj: Any, signatures: Any) -> dict:
    if signatures is None and isinstance(obj, _UserObject):  # (a restored object: its signatures)
        return dict(getattr(obj, "signatures", {}))
    if signatures is None:
        f = _default_signature(obj)
        return {} if f is None else {DEFAULT_SERVING_SIGNATURE_DEF_KEY: f}
    if isinstance(signatures, dict):
        for k in signatures:
            if not isinstance(k, str):
                raise ValueError(f"The keys of signatures must be strings (signature names); got {k!r}.")
        return dict(signatures)
    return {DEFAULT_SERVING_SIGNATURE_DEF_KEY: signatures}


def _write(export_dir: str, graph: dict, saver: _Saver) -> None:
    os.makedirs(os.path.join(export_dir, VARIABLES_DIRECTORY), exist_ok=True)
    os.makedirs(os.path.join(export_dir, ASSETS_DIRECTORY), exist_ok=True)
    text = json.dumps(graph, sort_keys=True, allow_nan=False).encode("utf-8")
    members = {"saved_model": np.frombuffer(text, np.uint8), **saver.arrays}
    pb = _bytes(members)
    data = _bytes(saver.values)
    index = json.dumps({"format": _MAGIC + " variables", "keys": sorted(saver.values)}).encode("utf-8")
    for path, content in ((os.path.join(export_dir, VARIABLES_DIRECTORY, _DATA), data),
                          (os.path.join(export_dir, VARIABLES_DIRECTORY, _INDEX), index),
                          (os.path.join(export_dir, SAVED_MODEL_FILENAME_PB), pb)):
        saving._write_atomically(path, lambda f, c=content: f.write(c))
    fingerprint = {"format": _MAGIC + " fingerprint", "saved_model_checksum": hashlib.sha256(pb).hexdigest(),
                   "variables_checksum": hashlib.sha256(data).hexdigest()}
    saving._write_atomically(os.path.join(export_dir, FINGERPRINT_FILENAME),
                             lambda f: f.write(json.dumps(fingerprint, sort_keys=True).encode("utf-8")))


def _bytes(arrays: dict) -> bytes:
    buf = io.BytesIO()
    saving.write_arrays(buf, arrays)
    return buf.getvalue()


# -- loading
def contains_saved_model(export_dir: Any) -> bool:
    """Whether the folder ``export_dir`` holds a SavedModel (a ``saved_model.pb``)."""
    return os.path.isfile(os.path.join(os.fspath(export_dir), SAVED_MODEL_FILENAME_PB))


class _UserObject:
    """A restored object: its saved attributes (TensorFlow's restored ``_UserObject``)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fn = self.__dict__.get("__call__")
        if fn is None:
            raise TypeError("'_UserObject' object is not callable (the saved object had no __call__ function)")
        return fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<tapegrad.saved_model restored {self._saved_class} object>"


class _Concrete:
    """A restored concrete function: an input signature and the programs of its trace (one per
    outcome of a Python branch on a tensor's value)."""

    def __init__(self, inputs: tuple, names: list, programs: Any, dims: list, raw: tuple,
                 outputs: list | None) -> None:
        self.inputs, self.names, self.dims, self.raw, self.outputs = inputs, names, dims, raw, outputs
        self.programs = programs  # sizes of the None dimensions -> the programs

    def saved(self, saver: _Saver) -> dict:
        """This function as :meth:`_Saver.add_concrete` takes it (a restored object saved again):
        its saved data, the Variables renumbered."""
        raw, loader = self.raw
        progs = []
        for p in raw["programs"]:
            steps = [[st[0], saver.resource(loader.objects[st[1]]), *st[2:]] if st[0] in ("read", "write") else st
                     for st in p["data"]["steps"]]
            progs.append({"data": {**p["data"], "steps": steps}, "arrays": [loader.arrays[k] for k in p["arrays"]]})
        return {"inputs": self.inputs, "names": self.names, "programs": progs, "dims": raw.get("dims", []),
                "holes": raw.get("holes"), "outputs": self.outputs}

    def bind(self, args: tuple, kwargs: dict) -> list | None:
        """The call's tensors in the signature's order, or None when it does not fit."""
        sa, skw = self.inputs
        kwargs = dict(kwargs)
        call = list(args)
        if len(call) > len(sa):
            return None
        for i in range(len(call), len(sa)):
            name = self.names[i] if i < len(self.names) else None
            if name in kwargs:
                call.append(kwargs.pop(name))
            elif not any(isinstance(s, TensorSpec) for s in _nest.flatten(sa[i])):
                call.append(sa[i])
            else:
                return None
        ckw = {}
        for k, v in skw.items():
            if k in kwargs:
                ckw[k] = kwargs.pop(k)
            elif any(isinstance(s, TensorSpec) for s in _nest.flatten(v)):
                return None
            else:
                ckw[k] = v
        if kwargs:
            return None
        specs = _nest.flatten((tuple(sa), skw))
        try:
            vals = _nest.flatten((tuple(call), ckw))
            if len(vals) != len(specs) or repr(_nest.map_structure(lambda _: 0, (tuple(call), ckw))) != \
                    repr(_nest.map_structure(lambda _: 0, (tuple(sa), skw))):
                return None
        except TypeError:
            return None
        tensors = []
        for s, v in zip(specs, vals):
            if isinstance(s, TensorSpec):
                if not isinstance(v, Tensor):
                    try:
                        v = convert_to_tensor(v, s.dtype)
                    except (TypeError, ValueError):
                        return None
                if v.dtype != s.dtype or not s.shape.is_compatible_with(v.shape):
                    return None
                tensors.append(v)
            elif not _function._same_value(v, s) and v is not s:
                return None
        return tensors

    def run(self, tensors: list, what: str) -> Any:
        outer = _rec.active and _rec.tls.stack
        sizes = []
        for group in self.dims:
            got = [tensors[i].shape[ax] for i, ax in group]
            if any(n != got[0] for n in got):
                raise InvalidArgumentError(f"{what}: the dimensions {[tuple(d) for d in group]} of its inputs "
                                           f"have the sizes {got}; its trace needs them equal")
            sizes.append(got[0])
        for prog in self.programs(sizes):
            try:
                res = prog.run_engine(tensors, prog.res) if outer else prog.run([t._value for t in tensors])
            except _trace.Miss:
                continue
            return _outputs(prog, res)
        raise ValueError(f"{what}: its trace read a tensor's value into Python (an `if` on a tensor) and "
                         "this call's values take a branch that was not traced before saving; a saved "
                         "function holds the branches traced only. Use tf.cond in the function, or call "
                         "it with such values before saving.")

    def spec_text(self) -> str:
        sa, skw = self.inputs
        return repr((tuple(sa), skw))


def _outputs(prog: Any, res: list) -> Any:
    it = iter([r if isinstance(r, Tensor) else wrap(r) for r in res])
    flat = []
    for kind, x in prog.template:
        if kind == "slot":
            flat.append(next(it))
        elif kind == "slices":
            flat.append(IndexedSlices(*[next(it) for _ in range(x)]))
        else:
            flat.append(x)
    return flat[0] if prog.single else _nest.pack_sequence_as(prog.structure, flat)


class _Sized:
    """The programs of a signature's trace with holes (``_sizes``), made per call sizes (the last
    few kept)."""

    KEEP = 16

    def __init__(self, loader: "_Loader", prog: dict, holes: dict) -> None:
        self.loader, self.prog, self.holes = loader, prog, holes
        self.made: dict = {}

    def __call__(self, sizes: list) -> list:
        key = tuple(sizes)
        got = self.made.pop(key, None)
        if got is None:
            p = _sizes.fill(self.prog, self.holes, list(sizes))
            got = [self.loader.program(p["data"], p["arrays"])]
        self.made[key] = got
        while len(self.made) > self.KEEP:
            del self.made[next(iter(self.made))]
        return got


class RestoredFunction:
    """A restored ``tf.function``: calls the saved concrete function whose signature fits the
    arguments (TensorFlow's restored function); under a GradientTape its ops are recorded."""

    def __init__(self, name: str, concrete: list, signature: Any) -> None:
        self.__name__ = name
        self._concrete = concrete
        self._signature = signature

    @property
    def input_signature(self) -> Any:
        return self._signature

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        for c in self._concrete:
            tensors = c.bind(args, kwargs)
            if tensors is not None:
                return c.run(tensors, f"The restored function {self.__name__!r}")
        got = (args, kwargs)
        if self._signature is not None:
            raise TypeError(f"Binding inputs to tf.function `{self.__name__}` failed: the arguments {got!r} "
                            f"do not fit its input_signature {self._signature!r}.")
        expected = "\n  ".join(c.spec_text() for c in self._concrete) or "(none: it was never traced)"
        raise ValueError(f"Could not find matching concrete function to call loaded from the SavedModel. "
                         f"Got:\n  {got!r}\nExpected one of the signatures traced before saving:\n  {expected}")

    def concrete_functions(self) -> list:
        return list(self._concrete)

    def __repr__(self) -> str:
        return f"<restored tf.function {self.__name__}>"


def _flat_outputs(x: Any) -> dict:
    if isinstance(x, dict):
        return {str(k): v for k, v in x.items()}
    return {f"output_{i}": v for i, v in enumerate(_nest.flatten(x))}


class _RestoredSignature:
    """A restored signature: keyword (or positional) tensor inputs, a dict of outputs named by the
    function's dict keys, or ``output_0``, ``output_1``, ..."""

    def __init__(self, name: str, concrete: _Concrete) -> None:
        self.__name__ = name
        self._concrete = concrete
        sa, skw = concrete.inputs
        flat, names = [], []
        for arg, value in [(concrete.names[i] if i < len(concrete.names) else f"args_{i}", v)
                           for i, v in enumerate(sa)] + [(k, skw[k]) for k in sorted(skw)]:
            specs = [x for x in _nest.flatten(value) if isinstance(x, TensorSpec)]
            for j, x in enumerate(specs):
                flat.append(x)
                names.append(x.name or (arg if j == 0 else f"{arg}_{j}"))
        self._names = names
        self.structured_input_signature = ((), {n: TensorSpec(s.shape, s.dtype, n) for n, s in zip(names, flat)})
        self._prog0 = concrete.programs([_sizes.BASE] * len(concrete.dims))[0]

    @property
    def structured_outputs(self) -> dict:
        prog = self._prog0
        specs = iter(self._concrete.outputs or [])
        flat = [next(specs, None) if k == "slot" else x for k, x in prog.template]
        return _flat_outputs(flat[0] if prog.single else _nest.pack_sequence_as(prog.structure, flat))

    @property
    def inputs(self) -> list:
        return list(self.structured_input_signature[1].values())

    def __call__(self, *args: Any, **kwargs: Any) -> dict:
        if len(args) > len(self._names):
            raise TypeError(f"The signature {self.__name__!r} takes {len(self._names)} inputs "
                            f"({', '.join(self._names)}), got {len(args)} positional arguments.")
        named = dict(zip(self._names, args))
        for k, v in kwargs.items():
            if k in named or k not in self._names:
                raise TypeError(f"The signature {self.__name__!r} got an unexpected or repeated "
                                f"argument {k!r}; its inputs are {self._names}.")
            named[k] = v
        missing = [n for n in self._names if n not in named]
        if missing:
            raise TypeError(f"The signature {self.__name__!r} is missing the inputs {missing}.")
        sa, skw = self._concrete.inputs
        it = iter([named[n] for n in self._names])
        flat = [next(it) if isinstance(s, TensorSpec) else s for s in _nest.flatten((tuple(sa), skw))]
        a, kw = _nest.pack_sequence_as((tuple(sa), skw), flat)
        tensors = self._concrete.bind(a, kw)
        if tensors is None:
            raise TypeError(f"The signature {self.__name__!r}: the inputs {named!r} do not fit "
                            f"{self.structured_input_signature[1]!r}.")
        return _flat_outputs(self._concrete.run(tensors, f"The signature {self.__name__!r}"))

    def __repr__(self) -> str:
        return f"<restored signature {self.__name__}>"


class _SignatureMap(dict):
    """``loaded.signatures``: the restored signatures by name."""


def _read_pb(export_dir: str) -> tuple:
    path = os.path.join(export_dir, SAVED_MODEL_FILENAME_PB)
    if not os.path.isdir(export_dir):
        raise OSError(f"SavedModel file does not exist at: {export_dir}/{{saved_model.pbtxt|saved_model.pb}}")
    if not os.path.isfile(path):
        raise OSError(f"SavedModel file does not exist at: {export_dir}/{{saved_model.pbtxt|saved_model.pb}}"
                      " (a folder of a SavedModel holds a saved_model.pb)")
    with open(path, "rb") as f:
        head = f.read(4)
        f.seek(0)
        if not head.startswith(b"PK") and not head.startswith(b"\x08"):
            raise ValueError(f"{path} is not a SavedModel: it is neither tapegrad's (a zip archive) nor "
                             "TensorFlow's (a protocol buffer).")
        if not head.startswith(b"PK"):  # (TensorFlow's starts with its schema version, field 1)
            raise ValueError(
                f"{path} is not a SavedModel written by tapegrad: it looks like one written by TensorFlow "
                "(a protocol buffer holding TensorFlow graphs), and tapegrad cannot run TensorFlow's graphs. "
                "Export the weights from TensorFlow instead (model.save_weights('w.weights.h5'), or "
                "np.savez of each variable's numpy()), rebuild the model in tapegrad and load them there.")
        arrays = saving.read_arrays(f, repr(path))
    raw = arrays.pop("saved_model", None)
    if raw is None or raw.dtype != np.uint8:
        raise ValueError(f"{path} is not a SavedModel written by tapegrad (it holds no graph).")
    try:
        graph = json.loads(raw.tobytes().decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ValueError(f"{path} is damaged: its graph is not readable ({e}).") from None
    if type(graph) is not dict or graph.get("format") != _MAGIC:
        raise ValueError(f"{path} is not a SavedModel written by tapegrad.")
    if graph.get("version", 0) > _VERSION:
        raise ValueError(f"{path} was written by a newer tapegrad (format {graph['version']}); upgrade "
                         "tapegrad to load it.")
    return graph, arrays


def load(export_dir: Any, tags: Any = None, options: LoadOptions | None = None) -> Any:
    """Load a SavedModel written by :func:`save` (or Keras's ``model.export``): an object with the
    saved attribute tree, its Variables holding the saved values, its functions callable on the
    signatures they were traced for, and ``.signatures`` (the saved signatures by name, each
    returning a dict of named outputs). Nothing in the folder is executed: the functions are
    replayed from their traces, saved as data. A SavedModel written by TensorFlow raises
    ``ValueError`` (tapegrad cannot run TensorFlow's graphs). See :mod:`tapegrad.saved_model`."""
    export_dir = os.fspath(export_dir)
    graph, arrays = _read_pb(export_dir)
    vpath = os.path.join(export_dir, VARIABLES_DIRECTORY, _DATA)
    try:
        with open(vpath, "rb") as f:
            values = saving.read_arrays(f, repr(vpath))
    except FileNotFoundError:
        raise OSError(f"The SavedModel at {export_dir!r} lacks its variables ({vpath}).") from None
    try:
        return _Loader(graph, arrays, values).root()
    except (Unreadable, KeyError, IndexError, TypeError, ValueError) as e:
        raise ValueError(f"Cannot load the SavedModel at {export_dir!r}: it names {e}.") from None


class _Loader:
    def __init__(self, graph: dict, arrays: dict, values: dict) -> None:
        self.graph, self.arrays, self.values = graph, arrays, values
        self.nodes = graph["nodes"]
        self.objects: dict = {}
        self.concrete: dict = {}
        # variables first: the functions read and write them
        for n, node in enumerate(self.nodes):
            if node["kind"] == "variable":
                v = values[node["key"]]
                name = node["name"][:-2] if node["name"].endswith(":0") else node["name"]
                self.objects[n] = Variable(v.astype(object) if node["dtype"] == "string" else v,
                                           trainable=node["trainable"], name=name,
                                           shape=node["shape"])

    def local(self, d: dict) -> Any:
        return decode(d["data"], [self.arrays[k] for k in d["arrays"]])

    def program(self, data: dict, local: list) -> Any:
        """A program (``_trace.Program``) from its saved data, on the restored Variables."""
        order: dict = {}
        steps = [[st[0], order.setdefault(st[1], len(order)), *st[2:]] if st[0] in ("read", "write") else st
                 for st in data["steps"]]
        res = []
        for node in order:
            v = self.objects.get(node) if type(node) is int else None
            if not isinstance(v, Variable):
                raise Unreadable("a variable that is not among the saved objects")
            res.append(v)
        prog = decode_program({**data, "steps": steps}, res, local)
        prog.template = [(t[0], decode(t[1], local) if t[0] == "value" else t[1] if t[0] == "slices" else None)
                         for t in data["template"]]
        prog.structure = decode(data["structure"], local)
        prog.single = bool(data["single"])
        return prog

    def concrete_fn(self, i: int) -> _Concrete:
        c = self.concrete.get(i)
        if c is None:
            raw = self.graph["concrete"][i]
            saved = [{"data": p["data"], "arrays": [self.arrays[k] for k in p["arrays"]]} for p in raw["programs"]]
            holes = raw.get("holes")
            if holes and (holes["data"] or holes["arrays"]):
                (prog,) = saved
                hs = {"data": holes["data"], "arrays": [
                    [i, kind, prog["arrays"][x], y if kind == "fill" else prog["arrays"][y]]
                    for i, kind, x, y in holes["arrays"]]}
                make = _Sized(self, prog, hs)
            else:
                progs = [self.program(p["data"], p["arrays"]) for p in saved]
                make = lambda sizes: progs  # noqa: E731
            c = self.concrete[i] = _Concrete(self.local(raw["inputs"]), list(raw["names"]), make,
                                             [[tuple(d) for d in g] for g in raw.get("dims", [])], (raw, self),
                                             None if raw.get("outputs") is None else self.local(raw["outputs"]))
        return c

    def build(self, n: int) -> Any:
        if n in self.objects:
            return self.objects[n]
        node = self.nodes[n]
        kind = node["kind"]
        if kind == "object":
            obj = _UserObject()
            obj._saved_class = str(node["class"])
            self.objects[n] = obj
            for k, child in node["children"]:
                setattr(obj, k, self.build(child))
            return obj
        if kind in ("list", "tuple"):
            items = [None if c is None else self.build(c) for c in node["items"]]
            out = items if kind == "list" else tuple(items)
        elif kind == "dict":
            out = {k: self.build(c) for k, c in node["items"]}
        elif kind == "function":
            sig = None if node["input_signature"] is None else self.local(node["input_signature"])
            out = RestoredFunction(node["name"], [self.concrete_fn(i) for i in node["concrete"]], sig)
        else:
            raise Unreadable(f"an unknown node kind {kind!r}")
        self.objects[n] = out
        return out

    def root(self) -> Any:
        obj = self.build(0)
        sigs = _SignatureMap()
        for name, i in sorted(self.graph["signatures"].items()):
            sigs[name] = _RestoredSignature(name, self.concrete_fn(i))
        if isinstance(obj, _UserObject):
            obj.signatures = sigs
        return obj
