"""The layout says where things go: an op family is ``tapegrad/ops/<family>.py``, its tests
``tests/test_<family>.py`` and its op-table rows ``tests/optable/<family>.py``; every public op is
exported by a public namespace; every op in the registry is declared by one family module."""
from __future__ import annotations

import importlib
import inspect
import pathlib
import re

import pytest

import tapegrad as tf
import tapegrad.image  # noqa: F401  (tf.image and tf.signal load on first use)
import tapegrad.random  # noqa: F401
import tapegrad.signal  # noqa: F401
import tapegrad.strings  # noqa: F401
from tapegrad.ops import REGISTRY

# op name -> the family that declared it
DECLARED_IN = {name: op.module.rsplit(".", 1)[1] for name, op in REGISTRY.items()
               if op.module.startswith("tapegrad.ops.")}

TESTS = pathlib.Path(__file__).parent
OPS = pathlib.Path(tf.__file__).parent / "ops"
FAMILIES = sorted(p.stem for p in OPS.glob("*.py") if p.stem != "__init__")
NAMESPACES = [tf, tf.math, tf.math.special, tf.nn, tf.nn.experimental, tf.linalg, tf.random, tf.autodiff, tf.signal, tf.image,
              tf.strings]
# Helpers with public names that other families and the engine import; they are not ops.
NOT_OPS = {"array": {"norm_axis", "norm_axes", "unbroadcast", "broadcast_view"},
           "random": {"call_in_graph", "fit_batch_permutation", "fit_permutation", "graph_step", "in_graph", "kernel_draw", "op_seeds",
                      "seed_setting", "take_seed", "trace_time"},
           "strings": {"table_find"}}  # (tf.lookup's static tables call it)


def _family(name: str):
    return importlib.import_module(f"tapegrad.ops.{name}")


def _exported() -> set[int]:
    """Everything a user reaches from a public namespace (and what a namespace function wraps
    with ``functools.wraps``: tf.strings.split wraps the op's Rows as a RaggedTensor), and
    Tensor's operators (x[key])."""
    objs = [getattr(ns, n) for ns in NAMESPACES for n in dir(ns) if not n.startswith("_")]
    return {id(v) for v in objs} | {id(v.__wrapped__) for v in objs if hasattr(v, "__wrapped__")} | \
        {id(v) for v in vars(tf.Tensor).values()} | \
        {id(v.__wrapped__) for v in vars(tf.Tensor).values() if hasattr(v, "__wrapped__")}   # (operators
    # wrapped by tapegrad._numpy_interop once a NumPy function's Tensor exists)


def test_the_op_families_are_the_ones_the_docs_name():
    assert FAMILIES == sorted(["array", "conv", "decompositions", "indexing", "linalg", "math", "nn",
                               "random", "reduction", "sampled", "segment", "signal", "sort", "special",
                               "strings"])


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_has_a_test_file_and_an_op_table_file(family):
    assert (TESTS / f"test_{family}.py").is_file()
    assert (TESTS / "optable" / f"{family}.py").is_file()


@pytest.mark.parametrize("family", FAMILIES)
def test_every_op_of_a_family_has_a_row_in_the_familys_op_table(family):
    cases = importlib.import_module(f"optable.{family}").CASES
    covered = {op for c in cases for op in c.covers}
    missing = sorted(op for op, f in DECLARED_IN.items() if f == family and op not in covered)
    assert not missing, f"ops of ops/{family}.py with no row in tests/optable/{family}.py: {missing}"


@pytest.mark.parametrize("family", FAMILIES)
def test_every_public_op_is_exported(family):
    mod, exported = _family(family), _exported()
    missing = [n for n in mod.__all__ if id(getattr(mod, n)) not in exported]
    assert not missing, f"in ops/{family}.py __all__ but in no public namespace: {missing}"


@pytest.mark.parametrize("family", FAMILIES)
def test_every_public_function_of_a_family_is_in_its_all(family):
    mod = _family(family)
    public = {n for n, v in vars(mod).items()
              if inspect.isfunction(v) and v.__module__ == mod.__name__ and not n.startswith("_")}
    missing = sorted(public - set(mod.__all__) - NOT_OPS.get(family, set()))
    assert not missing, f"public functions of ops/{family}.py missing from its __all__: {missing}"
    assert len(mod.__all__) == len(set(mod.__all__))


def test_every_registered_op_is_declared_by_one_family_module():
    # (test-made ops are removed from the registry)
    undeclared = sorted(set(REGISTRY) - set(DECLARED_IN))
    assert not undeclared, f"registered ops declared outside the op families: {undeclared}"
    assert set(DECLARED_IN.values()) == set(FAMILIES)


def test_no_merge_conflict_markers_are_left_anywhere():
    root = pathlib.Path(__file__).resolve().parent.parent
    marker = re.compile(r"^(<{7} |>{7} |={7}$)", re.M)
    hits = [str(p.relative_to(root)) for d in ("tapegrad", "tests", "docs", "tools", "benchmarks", "examples")
            for p in (root / d).rglob("*") if p.suffix in (".py", ".md", ".txt", ".toml", ".cfg")
            and marker.search(p.read_text(encoding="utf-8", errors="replace"))]
    hits += [n for n in ("README.md", "pyproject.toml") if marker.search((root / n).read_text(encoding="utf-8"))]
    assert not hits, f"merge conflict markers in: {hits}"
