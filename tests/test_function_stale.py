"""tf.function never replays a stale value (issue 23, section 2).

A trace replays NumPy calls; every read of tensor data into Python while tracing must be a guard
(the trace is redone when the value changes) or part of a recorded step. The source test below
makes that structural: op code reads a tensor argument's data only through
``_convert.host_value`` (a guard) or ``_convert.check_values`` (a validation recorded as a step);
any other data read of ``._value`` outside the engine fails it. The property test passes a
tensor for every argument that TensorFlow accepts as one, across the op table, and compares two
calls with other values against eager.
"""
from __future__ import annotations

import ast
import dataclasses
import gc
import inspect
import logging
import warnings
from pathlib import Path

import numpy as np
import pytest

import tapegrad as tf

PACKAGE = Path(tf.__file__).resolve().parent

# --------------------------------------------------------------------------- the source rule
# The engine: modules whose reads of ``_value`` are the machinery itself (the tensor and its
# guards, conversion, dispatch running forwards on arrays, the autodiff walks, the tracer and
# replay), or that run outside any trace. No op is declared or wrapped in them.
ENGINE = {
    "_tensor.py": "the Tensor: its numpy/__array__/__bool__/__int__ are the guards",
    "_variable.py": "the Variable: reads go through the recorders' read and escape hooks",
    "_backend.py": "Dask/CuPy arrays: a trace on them runs eagerly (never replayed)",
    "_convert.py": "conversion, and the two readers host_value and check_values",
    "_dispatch.py": "runs each op's NumPy forward on its inputs' arrays",
    "_tape.py": "the tape", "_walk.py": "the backward walk", "_jacobian.py": "Jacobians",
    "_forward.py": "forward mode", "_vmap.py": "vectorized_map's batching",
    "_trace.py": "the tracer and the replay", "_function.py": "tf.function itself",
    "_custom.py": "custom_gradient: made per call, so its traces run eagerly",
    "_functional.py": "the functional autodiff API (jacobians of whole functions)",
    "_numpy_interop.py": "NumPy's protocols: every read is an escape the recorders see",
    "_pyfunc.py": "numpy_function: its call is a step of the trace",
    "diagnosis.py": "diagnosis of a tape, eager only", "visualize.py": "tape pictures, eager only",
    "test.py": "tf.test assertions, eager only",
    "optimizers/optimizer.py": "apply_gradients is one replayable step (_trace.replayable)",
    "data/_dataset.py": "tf.data runs its pipeline in Python, outside traces",
    "data/_structure.py": "tf.data's element structures",
}
# Functions of the op library whose data reads are no control input (each says why).
ALLOWED = {
    ("ops/math.py", "zeros_like"): "passes a backend's array to _bk.filled for its shape and device",
    ("ops/math.py", "ones_like"): "passes a backend's array to _bk.filled for its shape and device",
    ("random.py", "kernel_draw"): "the draw itself: _trace.draw records it as a step",
    ("random.py", "_draw"): "a Generator's eager draw (in a trace: Tracer.draw_from's step)",
}
READERS = {("_convert.py", "host_value"), ("_convert.py", "check_values")}
# attributes and functions that read an array's metadata, not its data
META_ATTRS = {"shape", "ndim", "dtype", "size", "itemsize", "nbytes", "backend"}
META_CALLS = {"len", "type", "isinstance", "id", "shape", "ndim"}


def _meta_use(node: ast.AST, parent: dict) -> bool:
    p = parent.get(id(node))
    if isinstance(p, ast.Attribute) and p.attr in META_ATTRS:
        return True
    if isinstance(p, ast.Call) and node in p.args:
        f = p.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        return name in META_CALLS
    return False


def _data_reads(path: Path) -> list[tuple[int, str]]:
    """(line, function) of every data read of ``._value`` in ``path``: a read whose array is
    used for more than its metadata (directly, or through a local name it was assigned to)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parent = {id(c): n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}

    def func_of(node: ast.AST) -> ast.AST | None:
        while id(node) in parent:
            node = parent[id(node)]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return node
        return None

    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr == "_value" and isinstance(node.ctx, ast.Load)):
            continue
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            continue  # (a class's own attribute: op code never holds a tensor as ``self``)
        if _meta_use(node, parent):
            continue
        fn = func_of(node)
        p = parent.get(id(node))
        if isinstance(p, ast.Tuple):
            p = parent.get(id(p))
        if isinstance(p, ast.Assign) and fn is not None:  # ``v = t._value``: judge v's uses
            names = {t.id for t in ast.walk(ast.Module(body=[ast.Expr(t) for t in p.targets], type_ignores=[]))
                     if isinstance(t, ast.Name)}
            uses = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id in names
                    and isinstance(n.ctx, ast.Load)]
            if names and all(_meta_use(u, parent) for u in uses):
                continue
        out.append((node.lineno, fn.name if fn is not None else "<module>"))
    return out


def test_tensor_data_is_read_only_through_the_guarded_reader() -> None:
    """No module outside the engine reads a tensor's data except through ``host_value`` (a
    guard) or ``check_values`` (a recorded validation); a new op that does fails here."""
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in ENGINE:
            continue
        for line, fn in _data_reads(path):
            if (rel, fn) not in ALLOWED and (rel, fn) not in READERS:
                bad.append(f"tapegrad/{rel}:{line} in {fn}()")
    assert not bad, ("these read a tensor's data with ._value; read an argument that steers the op "
                     "with _convert.host_value (a tf.function guard), validate values with "
                     "_convert.check_values, or compute with ops:\n" + "\n".join(bad))


def test_engine_modules_declare_no_ops() -> None:
    """The engine's exemption covers no op: none of its modules declares one with defop."""
    for rel in ENGINE:
        tree = ast.parse((PACKAGE / rel).read_text(encoding="utf-8"))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id == "defop"]
        assert not calls or rel in ("_dispatch.py", "_custom.py"), rel


def test_the_scan_catches_a_stale_read(tmp_path: Path) -> None:
    """The rule sees the reads that made replays stale, and lets metadata and aliases of it pass."""
    src = tmp_path / "op.py"
    src.write_text(
        "import numpy as np\n"
        "def pad(x, paddings):\n"
        "    pads = np.asarray(paddings._value)\n"          # data: flagged
        "    n = x._value.shape[0]\n"                        # metadata
        "    v = x._value\n"                                 # alias used for metadata only
        "    return v.ndim, type(v), len(x._value), n, pads\n"
        "def rot(x, k):\n"
        "    v = k._value\n"                                 # alias used as data: flagged
        "    return int(v)\n")
    assert sorted(_data_reads(src)) == [(3, "pad"), (8, "rot")]
