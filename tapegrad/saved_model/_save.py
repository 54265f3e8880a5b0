"""``tf.saved_model.save``: the object graph from a root object, each function's traces as data
(``_format``), with holes for the sizes a signature declares None (``_sizes``), and the files."""
from __future__ import annotations

import hashlib
import inspect
import io
import json
import os
import warnings
from typing import Any

import numpy as np

from .. import _function, _nest, saving
from .._convert import convert_to_tensor
from .._spec import TensorSpec
from .._tensor import Tensor, wrap
from .._variable import Variable, restoring_variables
from ..module import Module
from ..experimental import _extension_type as _ext
from . import _sizes
from ._format import (ASSETS_DIRECTORY, DATA, DEFAULT_SERVING_SIGNATURE_DEF_KEY, FINGERPRINT_FILENAME, INDEX, MAGIC,
                      SAVED_MODEL_FILENAME_PB, VARIABLES_DIRECTORY, VERSION, Unsavable, encode, encode_program)
from ._load import RestoredFunction, _RestoredSignature, _UserObject


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
    # (tf.train.Checkpoint, tf.random.Generator; a Keras layer's are its checkpoint's names)
    own = None if keras else getattr(obj, "_trackable_children", None)
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

    def restore_variables(self) -> None:
        """Give back the values the variables had when saved: tracing a function on sample inputs
        runs its assignments (TensorFlow's tracing runs none)."""
        for x in self.keep:
            n = self.variables.get(id(x)) if isinstance(x, Variable) else None
            if n is not None and self.nodes[n] is not None:
                saved = self.values[self.nodes[n]["key"]]
                if not np.array_equal(np.asarray(x.numpy()), saved, equal_nan=saved.dtype.kind in "fc"):
                    x.assign(saved)

    def resource(self, v: Any) -> int:
        n = self.variables.get(id(v))
        if n is None:
            raise AssertionError(f"Tried to export a function which references an 'untracked' resource: the "
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
            data["template"] = [["slot"] if x is _function._SLOT or _function.is_weak_slot(x) else
                                ["slices", x[1]] if type(x) is tuple and len(x) == 2 and x[0] is _function._SLICES
                                else ["composite", x[1], encode(x[2]._type_spec._shapeless(), arrays)]
                                if type(x) is tuple and len(x) == 3 and x[0] is _function._COMPOSITE
                                and getattr(x[2], "_TRACED_BY_COMPONENTS", False)  # (an extension type)
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
    with warnings.catch_warnings(), restoring_variables():  # (TF's traces assign nothing)
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
    composite = [x for x in _nest.flatten(structure)
                 if _function._is_type_spec(x) and not isinstance(x, _ext.ExtensionTypeSpec)]
    if composite:  # (a tf.RaggedTensorSpec)
        raise Unsavable(f"{what}: its signature takes a {composite[0].value_type.__name__} ({composite[0]!r}); "
                        "tapegrad runs a function of one eagerly, so there is no trace to save (give the "
                        "function its component tensors, a RaggedTensor's flat_values and row_splits, and "
                        "rebuild it inside)")
    if any(isinstance(x, _ext.ExtensionTypeSpec) for x in _nest.flatten(structure)):
        # traced on its tensors, which the function gets back as extension types; called with
        # extension types, which the restored function takes apart (_load._Concrete.bind)
        i = _encode_signature_concrete(saver, _ext_arguments(fn, structure), *_ext_expanded(structure), what)
        saver.concrete[i]["inputs"] = structure
        saver.concrete[i]["names"] = _param_names(fn)
        return i
    if any(isinstance(x, TensorSpec) and x.shape.rank is None for x in _nest.flatten(structure)):
        return _encode_rank_free(saver, fn, structure, what)
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


def _ext_expanded(structure: Any) -> Any:
    """A signature with each extension type's spec replaced by the tuple of its tensors' specs."""
    return _nest.map_structure(lambda s: tuple(s._component_specs) if isinstance(s, _ext.ExtensionTypeSpec)
                               else s, structure)


def _ext_arguments(fn: Any, structure: Any) -> Any:
    """``fn`` called with the arguments of the expanded signature (``_ext_expanded``) made the
    extension types of ``structure`` again."""
    leaves = _nest.flatten(structure)

    def call(*args: Any, **kwargs: Any) -> Any:
        it, out = iter(_nest.flatten((args, kwargs))), []
        for s in leaves:
            out.append(s._from_components([next(it) for _ in s._component_specs])
                       if isinstance(s, _ext.ExtensionTypeSpec) else next(it))
        a, kw = _nest.pack_sequence_as(structure, out)
        return fn(*a, **kw)
    return call


def _encode_rank_free(saver: _Saver, fn: Any, structure: Any, what: str) -> int:
    """A signature with tensors of unknown rank (``tf.TensorSpec(None)``): the function traced with
    those tensors of rank 0, 1 and 2 (sizes 3) must give one program, which then replays at any
    rank and size (elementwise functions do); otherwise the rank must be declared."""
    def at_rank(r: int) -> Any:
        return _nest.map_structure(lambda x: TensorSpec([3] * r, x.dtype) if isinstance(x, TensorSpec)
                                   and x.shape.rank is None else x, structure)
    known = at_rank(0)
    if _none_dims(known, what):
        raise Unsavable(f"{what}: its signature declares tensors of unknown rank beside dimensions declared "
                        f"None ({_specs_text(structure)}); tapegrad saves such a signature only when every "
                        "other dimension is known: declare the rank")
    runs = [_trace_once(fn, at_rank(r), [], [], what) for r in (0, 1, 2)]
    progs = [saver.encode_prog(p, what) for p, _ in runs]
    same = all(json.dumps(p["data"], sort_keys=True, default=str) == json.dumps(progs[0]["data"], sort_keys=True,
                                                                                  default=str)
               and len(p["arrays"]) == len(progs[0]["arrays"])
               and all(np.array_equal(x, y) for x, y in zip(p["arrays"], progs[0]["arrays"])) for p in progs)
    if not same:
        raise Unsavable(f"{what}: its signature declares a tensor of unknown rank ({_specs_text(structure)}), and "
                        "its traces at ranks 0, 1 and 2 differ (the function depends on the rank); tapegrad saves "
                        "traces of known rank: declare the rank (None for each unknown dimension)")
    outputs = [TensorSpec(None, t.dtype) for t in runs[0][1]]
    return saver.add_concrete({"inputs": structure, "names": _param_names(fn), "programs": [progs[0]],
                               "dims": [], "outputs": outputs, "holes": {"data": [], "arrays": []}})


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
    for a, kw in f._spec_signatures:  # (TF saves the concrete functions get_concrete_function made)
        out.append(_encode_signature_concrete(saver, f._fn, a, kw, what))
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
    children = _children(obj)
    for name, v in children:
        if name == DEFAULT_SERVING_SIGNATURE_DEF_KEY and isinstance(v, (_function.Function, _function.ConcreteFunction)):
            return v
    found = [v for _, v in children if (isinstance(v, _function.Function) and v.input_signature is not None
                                        or isinstance(v, _function.ConcreteFunction)) and _valid_signature(v)]
    return found[0] if len(found) == 1 else None


def _valid_signature(f: Any) -> bool:
    """TensorFlow's test of a function to serve as a signature: it has outputs, all tensors (in a
    dict: under string keys), and takes no Variable."""
    if isinstance(f, _function.ConcreteFunction):
        outs, specs = f.structured_outputs, _nest.flatten(f.structured_input_signature)
    else:
        specs = _nest.flatten(list(f.input_signature))
        try:
            structure = (tuple(f.input_signature), {})
            dims = _none_dims(structure, f.__name__)
            _, flat = _trace_once(f._fn, structure, dims, [_sizes.BASE] * len(dims), f.__name__)
        except Exception:  # noqa: BLE001  (a function that does not trace serves no signature)
            return False
        outs = flat
    if any(isinstance(s, Variable) for s in specs):
        return False
    if isinstance(outs, dict) and not all(isinstance(k, str) for k in outs):
        return False
    leaves = _nest.flatten(outs)
    return bool(leaves) and all(isinstance(x, (Tensor, TensorSpec)) for x in leaves)


def _keras_input_signature(model: Any) -> Any:
    # (as Keras's _default_save_signature: the inputs' own shapes, batch included, in the
    # structure the functional model was given them)
    struct = model.__dict__.get("_inputs_struct")
    if model.__dict__.get("_functional") and struct is not None:
        return (_nest.map_structure(lambda x: TensorSpec(tuple(x.shape), x.dtype), struct),)
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
    finally:
        saver.restore_variables()
    graph = {"format": MAGIC, "version": VERSION, "nodes": saver.nodes, "concrete": concrete,
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
    index = json.dumps({"format": MAGIC + " variables", "keys": sorted(saver.values)}).encode("utf-8")
    for path, content in ((os.path.join(export_dir, VARIABLES_DIRECTORY, DATA), data),
                          (os.path.join(export_dir, VARIABLES_DIRECTORY, INDEX), index),
                          (os.path.join(export_dir, SAVED_MODEL_FILENAME_PB), pb)):
        saving._write_atomically(path, lambda f, c=content: f.write(c))
    fingerprint = {"format": MAGIC + " fingerprint", "saved_model_checksum": hashlib.sha256(pb).hexdigest(),
                   "variables_checksum": hashlib.sha256(data).hexdigest()}
    saving._write_atomically(os.path.join(export_dir, FINGERPRINT_FILENAME),
                             lambda f: f.write(json.dumps(fingerprint, sort_keys=True).encode("utf-8")))


def _bytes(arrays: dict) -> bytes:
    buf = io.BytesIO()
    saving.write_arrays(buf, arrays)
    return buf.getvalue()
