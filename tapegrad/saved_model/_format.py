"""A traced program (``_trace.Program``) as data, and back.

Values (op parameters, Python values of signatures and outputs) become tagged JSON; arrays go to
a list the caller stores as ``.npy`` members. A step names its op by its registry name, a check by
the qualified name of a ``_check*`` function of ``tapegrad.ops`` (or a ``functools.partial`` of
one with data arguments). Decoding accepts these tags and names only: nothing read is executed.
"""
from __future__ import annotations

import collections
import functools
import importlib
import re
import threading
from typing import Any

import numpy as np

import sys

from .. import _nest, _print, _trace
from .._dispatch import REGISTRY
from .._spec import TensorSpec
from .._tensor import TensorShape
from ..experimental import _extension_type as _ext
from ..dtypes import DType, as_dtype
from ..ops import random as _random, sampled as _sampled

SAVED_MODEL_FILENAME_PB = "saved_model.pb"
FINGERPRINT_FILENAME = "fingerprint.pb"
VARIABLES_DIRECTORY = "variables"
VARIABLES_FILENAME = "variables"
ASSETS_DIRECTORY = "assets"
DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"
DATA = "variables.data-00000-of-00001"
INDEX = "variables.index"
MAGIC = "tapegrad saved_model"
VERSION = 1
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_CHECK_MODULE = re.compile(r"^tapegrad\.ops\.[a-z_]+$")


class Unsavable(ValueError):
    """Something in a traced function has no form as data."""


class Unreadable(ValueError):
    """A saved program names something this tapegrad does not have, or is malformed."""


# -- values
def encode(x: Any, arrays: list) -> Any:
    """``x`` as JSON-able data; arrays are appended to ``arrays`` and referred to by index."""
    t = type(x)
    if x is None or t is bool or t is str:
        return x
    if t is int:
        return {"int": str(x)} if abs(x) >= 2 ** 53 else x
    if t is float:
        return {"float": repr(x)}
    if t is complex:
        return {"complex": [repr(x.real), repr(x.imag)]}
    if t is bytes:
        return {"bytes": x.decode("latin-1")}
    if t is list:
        return {"list": [encode(v, arrays) for v in x]}
    if t is tuple:
        return {"tuple": [encode(v, arrays) for v in x]}
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return {"namedtuple": [t.__name__, list(x._fields), [encode(v, arrays) for v in x]]}
    if t is dict:
        return {"dict": [[encode(k, arrays), encode(v, arrays)] for k, v in x.items()]}
    if t is slice:
        return {"slice": [encode(x.start, arrays), encode(x.stop, arrays), encode(x.step, arrays)]}
    if x is Ellipsis:
        return {"ellipsis": True}
    if isinstance(x, np.ndarray):
        arrays.append(x)
        return {"array": len(arrays) - 1}
    if isinstance(x, np.generic):
        return {"scalar": str(x.dtype), "value": encode(x.item(), arrays)}
    if isinstance(x, np.dtype):
        return {"np_dtype": str(x)}
    if t is type and x.__module__ == "numpy" and issubclass(x, np.generic):
        return {"np_type": x.__name__}
    if isinstance(x, DType):
        return {"tf_dtype": x.name}
    if isinstance(x, TensorSpec):
        return {"spec": [encode(x.shape, arrays), x.dtype.name, x.name]}
    if isinstance(x, TensorShape):
        return {"shape": None if x.rank is None else list(x)}
    if isinstance(x, _ext.ExtensionTypeSpec):
        name = _ext.registered_name(type(x))
        if name is None:
            raise Unsavable(f"an extension type ({x.value_type.__qualname__}) whose class has no `__name__`: a "
                            "SavedModel knows an extension type by the name its class registers (set `__name__ = "
                            "'package.TypeName'` in the class body)")
        return {"extension_spec": [name, encode(dict(x._serialize()), arrays)]}
    raise Unsavable(f"a value of type {t.__module__}.{t.__qualname__} ({x!r:.80})")


def decode(x: Any, arrays: list) -> Any:
    """The value :func:`encode` gave ``x`` for."""
    if x is None or type(x) in (bool, int, str):
        return x
    if type(x) is not dict or len(x) != 1 and set(x) != {"scalar", "value"}:
        raise Unreadable(f"an unknown value {x!r:.80}")
    tag, v = ("scalar", x["scalar"]) if len(x) == 2 else next(iter(x.items()))
    if tag == "int":
        return int(v)
    if tag == "float":
        return float(v)
    if tag == "complex":
        return complex(float(v[0]), float(v[1]))
    if tag == "bytes":
        return v.encode("latin-1")
    if tag == "list":
        return [decode(y, arrays) for y in v]
    if tag == "tuple":
        return tuple(decode(y, arrays) for y in v)
    if tag == "namedtuple":
        name, fields, values = v
        if not all(_IDENT.match(s) for s in [name, *fields]):
            raise Unreadable(f"a namedtuple with bad names {name!r} {fields!r}")
        return _namedtuple(name, tuple(fields))(*[decode(y, arrays) for y in values])
    if tag == "dict":
        return {_hashable(decode(k, arrays)): decode(y, arrays) for k, y in v}
    if tag == "slice":
        return slice(*[decode(y, arrays) for y in v])
    if tag == "ellipsis":
        return Ellipsis
    if tag == "array":
        return arrays[v]
    if tag == "scalar":
        return np.dtype(_np_dtype(x["scalar"])).type(decode(x["value"], arrays))
    if tag == "np_dtype":
        return np.dtype(_np_dtype(v))
    if tag == "np_type":
        t = getattr(np, v, None)
        if not (isinstance(t, type) and issubclass(t, np.generic)):
            raise Unreadable(f"an unknown NumPy type {v!r}")
        return t
    if tag == "tf_dtype":
        return as_dtype(v)
    if tag == "spec":
        return TensorSpec(decode(v[0], arrays), as_dtype(v[1]), v[2])
    if tag == "extension_spec":
        try:
            return _ext.spec_from_fields(v[0], decode(v[1], arrays))
        except LookupError as e:
            raise Unreadable(str(e)) from None
    if tag == "shape":
        return TensorShape(v)
    raise Unreadable(f"an unknown value tag {tag!r}")


def _np_dtype(s: Any) -> np.dtype:
    d = np.dtype(str(s))
    if d.hasobject and str(s) != "object":
        raise Unreadable(f"the dtype {s!r}")
    return d


def _hashable(k: Any) -> Any:
    if type(k) is list:
        raise Unreadable("a dict key that is a list")
    return k


@functools.lru_cache(maxsize=None)
def _namedtuple(name: str, fields: tuple) -> type:
    return collections.namedtuple(name, fields)


# -- checks (validations of values that a replay runs again)
def _check_ref(check: Any, arrays: list) -> Any:
    fn, args, kw = (check.func, check.args, check.keywords) if isinstance(check, functools.partial) else \
        (check, (), {})
    mod, name = getattr(fn, "__module__", ""), getattr(fn, "__qualname__", "")
    if not (_CHECK_MODULE.match(mod or "") and _IDENT.match(name) and name.startswith("_check")):
        raise Unsavable(f"the value check {getattr(fn, '__qualname__', fn)!r} of {mod} (a closure: "
                        "only tapegrad's named _check functions have a form as data)")
    return [mod, name, encode(tuple(args), arrays), encode(dict(kw), arrays)]


def _check_fn(ref: Any, arrays: list) -> Any:
    mod, name, args, kw = ref
    if not (isinstance(mod, str) and _CHECK_MODULE.match(mod) and isinstance(name, str)
            and _IDENT.match(name) and name.startswith("_check")):
        raise Unreadable(f"an unknown value check {mod}.{name}")
    try:
        fn = getattr(importlib.import_module(mod), name)
    except (ImportError, AttributeError):
        raise Unreadable(f"the value check {mod}.{name}, which this tapegrad lacks") from None
    args, kw = decode(args, arrays), decode(kw, arrays)
    return functools.partial(fn, *args, **kw) if args or kw else fn


# -- random draws (TF's random ops are graph nodes holding their op seeds; loaded, each starts afresh)
def _draw_ref(fn: Any, arrays: list, what: str) -> list:
    if isinstance(fn, _random.KernelDraw) and isinstance(fn.make, _random.Make) and not fn.state:
        return ["kernel", fn.node[2], *_random._saved_seeds(fn), _blocks(fn), _make_ref(fn.make, arrays)]
    if isinstance(fn, _random.KernelDraw) and isinstance(fn.make, _sampled.Candidates):
        c = fn.make
        return ["candidates", fn.node[2], *_random._saved_seeds(fn), fn.nblocks,
                [c.kind, c.num_sampled, c.unique, c.range_max, encode(c.weights, arrays)]]
    if isinstance(fn, _random.StatelessDraw):
        return ["stateless", _make_ref(fn.make, arrays)]
    if isinstance(fn, _random.GeneratorDraw):
        return ["generator", _blocks(fn), _make_ref(fn.make, arrays)]
    if fn is _random._index_shuffled:
        return ["index_shuffle"]
    name = getattr(fn, "__qualname__", repr(fn))
    if "numpy_function" in name:
        raise Unsavable(f"{what} calls tf.numpy_function, Python code run at each call, which has no form as data")
    raise Unsavable(f"{what} calls Python code at each run ({name}), which has no form as data")


def _blocks(fn: Any) -> int | None:
    """A kernel's counter step as saved: None where the sampling's arguments give it (a step not
    affine in the sizes, which ``_sizes`` could not fill in for a None dimension)."""
    derived = fn.make.blocks()
    if derived is None:
        return fn.nblocks
    assert derived == fn.nblocks, (derived, fn.nblocks)
    return None


def _make_ref(make: Any, arrays: list) -> list:
    return [make.name, encode(make.args, arrays)]


def _draw_fn(ref: Any, arrays: list, owner: Any) -> Any:
    kind = ref[0] if type(ref) is list and ref else None

    def make(r: Any) -> Any:
        args = decode(r[1], arrays) if type(r) is list and len(r) == 2 else None
        if type(args) is not tuple or r[0] not in _random.MAKERS:
            raise Unreadable(f"an unknown random kernel {r!r:.80}")
        return _random.Make(r[0], *args)
    def blocks(n: Any, m: Any) -> int:
        if type(n) is int:
            return n
        n = m.blocks() if n is None else None
        if type(n) is not int:
            raise Unreadable(f"a random draw of no counter step {ref!r:.80}")
        return n
    if kind == "kernel" and len(ref) == 6 and all(type(v) is int for v in ref[1:4]):
        _, pos, seed, seed2, nblocks, m = ref
        m = make(m)
        return _random.KernelDraw(("node", owner, pos, seed, seed2), blocks(nblocks, m), m, False, None)
    if kind == "candidates" and len(ref) == 6 and all(type(v) is int for v in ref[1:5]) and type(ref[5]) is list \
            and len(ref[5]) == 5:
        _, pos, seed, seed2, nblocks, (c_kind, num, unique, top, weights) = ref
        weights = decode(weights, arrays)
        if not (type(num) is int and type(unique) is bool and type(top) is int and num > 0 and top > 0 and (
                weights is None or isinstance(weights, np.ndarray) and weights.dtype == np.float32
                and weights.shape == (top,))):
            raise Unreadable(f"a candidate sampler of bad arguments {ref[5]!r:.80}")
        try:
            sampler = _sampled.Candidates(c_kind, num, unique, top, weights)
        except ValueError:
            raise Unreadable(f"an unknown candidate sampler {c_kind!r:.40}") from None
        return _random.KernelDraw(("node", owner, pos, seed, seed2), nblocks, sampler, True, None)
    if kind == "stateless" and len(ref) == 2:
        return _random.StatelessDraw(make(ref[1]))
    if kind == "generator" and len(ref) == 3:
        m = make(ref[2])
        return _random.GeneratorDraw(blocks(ref[1], m), m)
    if ref == ["index_shuffle"]:
        return _random._index_shuffled
    raise Unreadable(f"an unknown random draw {ref!r:.80}")


# -- tf.print (TensorFlow's PrintV2 op: a loaded function prints as the saved one did)
_PRINT = _print.print_.__wrapped__
_STREAMS = {"stdout": lambda: sys.stdout, "stderr": lambda: sys.stderr}


def _print_ref(structure: Any, spec: list, arrays: list, what: str) -> list:
    out = []
    for kind, x in spec:
        if kind != "k":
            out.append([kind, x])
        elif x is sys.stdout or x is sys.stderr:
            out.append(["stream", "stdout" if x is sys.stdout else "stderr"])
        elif isinstance(x, str) and x.startswith("file://") or x is None or type(x) in (str, int, float, bool):
            out.append(["k", encode(x, arrays)])
        else:
            raise Unsavable(f"{what} calls tf.print with {x!r:.60} (saved: tensors, Python numbers and "
                            "strings, sys.stdout, sys.stderr or a 'file://' path)")
    blank = _nest.map_structure(lambda v: None, structure)
    return [encode(blank, arrays), out]


def _print_call(data: Any, arrays: list, slots: Any, res: Any) -> tuple:
    if not (type(data) is list and len(data) == 2 and type(data[1]) is list):
        raise Unreadable("a tf.print step")
    structure, spec = decode(data[0], arrays), []
    for item in data[1]:
        kind, x = item if type(item) is list and len(item) == 2 else (None, None)
        if kind == "s":
            spec.append(("s", slots([x])[0]))
        elif kind == "r":
            spec.append(("r", res(x)))
        elif kind == "stream" and x in _STREAMS:
            spec.append(("k", _Stream(x)))
        elif kind == "k":
            spec.append(("k", decode(x, arrays)))
        else:
            raise Unreadable("a tf.print argument")
    return structure, spec


class _Stream:
    """sys.stdout or sys.stderr as a loaded tf.print finds it at each call."""

    def __init__(self, name: str) -> None:
        self.name = name


def _saved_print(*args: Any, **kwargs: Any) -> None:
    if isinstance(kwargs.get("output_stream"), _Stream):
        kwargs["output_stream"] = _STREAMS[kwargs["output_stream"].name]()
    _PRINT(*args, **kwargs)


# -- programs
def encode_program(prog: Any, resource: Any, arrays: list, what: str) -> dict:
    """``prog`` as data; ``resource(variable) -> int`` numbers the Variables it reads and writes."""
    if prog.n_arg_res:
        raise Unsavable(f"{what} takes a tf.Variable as an argument; pass its value (a tensor) "
                        "or capture the Variable instead")
    steps = []
    for st in prog.steps:
        kind = st[0]
        if kind == "op":
            _, op, ins, p, outs = st
            try:
                params = encode(dict(p), arrays)
            except Unsavable as e:
                raise Unsavable(f"{what}: the op {op.name} has a parameter that is {e}") from None
            steps.append(["op", op.name, list(ins), params, list(outs)])
        elif kind == "read":
            steps.append(["read", resource(prog.res[st[1]]), st[2]])
        elif kind == "write":
            _, r, how, prev, src, out = st
            steps.append(["write", resource(prog.res[r]), how, prev, src, out])
        elif kind == "guard":
            steps.append(["guard", st[1], list(st[2]), st[3].hex()])
        elif kind == "shape":
            steps.append(["shape", st[1], list(st[2])])
        elif kind == "check":
            try:
                steps.append(["check", _check_ref(st[1], arrays), list(st[2])])
            except Unsavable as e:
                raise Unsavable(f"{what}: {e}") from None
        elif kind == "draw":
            steps.append(["draw", _draw_ref(st[1], arrays, what), list(st[2]), list(st[3]), bool(st[4])])
        elif kind == "call" and st[1] is _PRINT:
            steps.append(["call", "print", _print_ref(st[2], st[3], arrays, what)])
        else:
            fn = st[1]
            raise Unsavable(f"{what} calls Python code at each run "
                            f"({getattr(fn, '__qualname__', fn)}: tf.print, tf.py_function, an "
                            "optimizer's update, ...), which has no form as data")
    consts = []
    for s, v in prog.consts.items():
        a = np.asarray(v)
        if a.dtype == object:
            try:
                a = a.astype(bytes)
            except (TypeError, ValueError):
                raise Unsavable(f"{what} holds a constant of Python objects") from None
            consts.append([s, encode(a, arrays), "string"])
        else:
            consts.append([s, encode(np.array(a), arrays), None])
    return {"steps": steps, "consts": consts, "outs": list(prog.outs), "n_inputs": prog.n_inputs,
            "n_slots": prog.n_slots}


def decode_program(data: dict, resources: list, arrays: list, owner: Any) -> Any:
    """A ``_trace.Program`` replaying ``data`` on the restored Variables ``resources``; its random
    ops are kernels of ``owner`` (one per loaded concrete function: they start afresh)."""
    n = data["n_slots"]
    steps = []
    used = set()

    def slots(xs: Any) -> list:
        if not all(type(i) is int and 0 <= i < n for i in xs):
            raise Unreadable("a step refers to a slot out of range")
        return list(xs)

    def res(r: Any) -> int:
        if type(r) is not int or not 0 <= r < len(resources):
            raise Unreadable("a step refers to an unknown variable")
        used.add(r)
        return r

    for st in data["steps"]:
        kind = st[0]
        if kind == "op":
            op = REGISTRY.get(st[1])
            if op is None:
                raise Unreadable(f"the op {st[1]!r}, which this tapegrad does not have (saved by "
                                 "another version?)")
            p = decode(st[3], arrays)
            if type(p) is not dict or not all(type(k) is str for k in p):
                raise Unreadable(f"the parameters of op {st[1]}")
            steps.append(("op", op, slots(st[2]), p, slots(st[4])))
        elif kind == "read":
            steps.append(("read", res(st[1]), slots([st[2]])[0]))
        elif kind == "write":
            if st[2] not in ("assign", "assign_add", "assign_sub"):
                raise Unreadable(f"a variable update {st[2]!r}")
            steps.append(("write", res(st[1]), st[2], *slots(st[3:6])))
        elif kind == "guard":
            steps.append(("guard", slots([st[1]])[0], tuple(st[2]), bytes.fromhex(st[3]), "a saved function"))
        elif kind == "shape":
            steps.append(("shape", slots([st[1]])[0], tuple(st[2])))
        elif kind == "check":
            steps.append(("check", _check_fn(st[1], arrays), slots(st[2])))
        elif kind == "draw":
            steps.append(("draw", _draw_fn(st[1], arrays, owner), slots(st[2]), slots(st[3]), bool(st[4])))
        elif kind == "call" and len(st) == 3 and st[1] == "print":
            structure, spec = _print_call(st[2], arrays, slots, res)
            steps.append(("call", _saved_print, structure, spec))
        else:
            raise Unreadable(f"an unknown step {kind!r}")
    consts = {}
    for s, a, kind in data["consts"]:
        v = decode(a, arrays)
        if not isinstance(v, np.ndarray):
            raise Unreadable("a constant that is not an array")
        consts[slots([s])[0]] = v.astype(object) if kind == "string" else v
    prog = _trace.Program.__new__(_trace.Program)
    prog.res = list(resources)
    prog.consts, prog.outs, prog.n_inputs, prog.n_arg_res = consts, slots(data["outs"]), data["n_inputs"], 0
    prog.steps, prog.n_slots, prog.values, prog.calls = steps, n, None, 0
    prog.thread = threading.get_ident()
    prog.fast = _trace.compile_program(prog, False)
    prog._shared = None
    prog.undo = False
    return prog

