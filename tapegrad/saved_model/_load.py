"""``tf.saved_model.load``: the object graph rebuilt from the files, each function's traces
rebuilt from data (``_format``) on the restored Variables; nothing from the files is executed."""
from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

from .. import _function, _nest, _recorders as _rec, _trace, saving
from .._convert import convert_to_tensor
from .._spec import TensorSpec
from .._tensor import IndexedSlices, Tensor, wrap
from .._variable import Variable
from ..experimental import _extension_type as _ext
from ..errors import InvalidArgumentError
from . import _sizes
from ._format import (DATA, MAGIC, SAVED_MODEL_FILENAME_PB, VARIABLES_DIRECTORY, VERSION, Unreadable, decode,
                      decode_program)


class LoadOptions:
    """``tf.saved_model.LoadOptions``: accepted; tapegrad's loader has no options to set."""

    def __init__(self, allow_partial_checkpoint: bool = False, experimental_io_device: Any = None,
                 experimental_skip_checkpoint: bool = False, experimental_variable_policy: Any = None,
                 experimental_load_function_aliases: bool = False) -> None:
        self.allow_partial_checkpoint = allow_partial_checkpoint
        self.experimental_io_device = experimental_io_device
        self.experimental_skip_checkpoint = experimental_skip_checkpoint


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

    def saved(self, saver: Any) -> dict:
        """This function as ``_save._Saver.add_concrete`` takes it (a restored object saved again):
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
            elif not any(isinstance(s, (TensorSpec, _ext.ExtensionTypeSpec)) for s in _nest.flatten(sa[i])):
                call.append(sa[i])
            else:
                return None
        ckw = {}
        for k, v in skw.items():
            if k in kwargs:
                ckw[k] = kwargs.pop(k)
            elif any(isinstance(s, (TensorSpec, _ext.ExtensionTypeSpec)) for s in _nest.flatten(v)):
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
            if isinstance(s, _ext.ExtensionTypeSpec):  # (an extension type: its tensors)
                if not s.is_compatible_with(v):
                    return None
                tensors += v._components()
            elif isinstance(s, TensorSpec):
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
        elif kind == "composite":  # (an extension type, rebuilt from its spec)
            flat.append(x._from_components([next(it) for _ in x._component_specs]))
        else:
            flat.append(x)
    return flat[0] if prog.single else _nest.pack_sequence_as(prog.structure, flat)


class _Sized:
    """The programs of a signature's trace with holes (``_sizes``), made per call sizes (the last
    few kept)."""

    KEEP = 16

    def __init__(self, loader: "_Loader", prog: dict, holes: dict, owner: Any) -> None:
        self.loader, self.prog, self.holes, self.owner = loader, prog, holes, owner
        self.made: dict = {}

    def __call__(self, sizes: list) -> list:
        key = tuple(sizes)
        got = self.made.pop(key, None)
        if got is None:
            p = _sizes.fill(self.prog, self.holes, list(sizes))
            got = [self.loader.program(p["data"], p["arrays"], self.owner)]
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
    if type(graph) is not dict or graph.get("format") != MAGIC:
        raise ValueError(f"{path} is not a SavedModel written by tapegrad.")
    if graph.get("version", 0) > VERSION:
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
    vpath = os.path.join(export_dir, VARIABLES_DIRECTORY, DATA)
    try:
        with open(vpath, "rb") as f:
            values = saving.read_arrays(f, repr(vpath))
    except FileNotFoundError:
        raise OSError(f"The SavedModel at {export_dir!r} lacks its variables ({vpath}).") from None
    try:
        return _Loader(graph, arrays, values).root()
    except Unreadable as e:
        raise ValueError(f"Cannot load the SavedModel at {export_dir!r}: it names {e}.") from None
    except (KeyError, IndexError, TypeError, ValueError) as e:
        raise ValueError(f"Cannot load the SavedModel at {export_dir!r}: its graph is damaged or crafted "
                         f"({type(e).__name__}: {e}).") from None


class _Kernels:
    """The owner of a loaded concrete function's random kernels (TF makes them afresh at load)."""


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

    def program(self, data: dict, local: list, owner: Any) -> Any:
        """A program (``_trace.Program``) from its saved data, on the restored Variables, its random
        ops kernels of ``owner``."""
        order: dict = {}
        steps = [[st[0], order.setdefault(st[1], len(order)), *st[2:]] if st[0] in ("read", "write") else st
                 for st in data["steps"]]
        res = []
        for node in order:
            v = self.objects.get(node) if type(node) is int else None
            if not isinstance(v, Variable):
                raise Unreadable("a variable that is not among the saved objects")
            res.append(v)
        prog = decode_program({**data, "steps": steps}, res, local, owner)
        prog.template = [(t[0], decode(t[1], local) if t[0] == "value" else t[1] if t[0] == "slices" else
                          decode(t[2], local) if t[0] == "composite" else None) for t in data["template"]]
        prog.structure = decode(data["structure"], local)
        prog.single = bool(data["single"])
        return prog

    def concrete_fn(self, i: int) -> _Concrete:
        c = self.concrete.get(i)
        if c is None:
            raw = self.graph["concrete"][i]
            saved = [{"data": p["data"], "arrays": [self.arrays[k] for k in p["arrays"]]} for p in raw["programs"]]
            holes = raw.get("holes")
            owner = _Kernels()  # (the random kernels of this concrete function: new ones each load)
            if holes and (holes["data"] or holes["arrays"]):
                (prog,) = saved
                hs = {"data": holes["data"], "arrays": [
                    [i, kind, prog["arrays"][x], y if kind == "fill" else prog["arrays"][y]]
                    for i, kind, x, y in holes["arrays"]]}
                make = _Sized(self, prog, hs, owner)
            else:
                progs = [self.program(p["data"], p["arrays"], owner) for p in saved]
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
