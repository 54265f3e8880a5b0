"""docs/contributing.md says true things: its paths exist, the tests it names exist, its op
examples are declared where it says, and its import-layer drawing matches the code."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from tapegrad.ops import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
FAMILIES = sorted(p.stem for p in (ROOT / "tapegrad" / "ops").glob("*.py") if p.stem != "__init__")
PATHS = sorted(set(re.findall(r"\b(?:tapegrad|tests|tools|docs|benchmarks)/[\w<>/.-]*\w", PAGE)))

_spec = importlib.util.spec_from_file_location("structure", ROOT / "tools" / "structure.py")
structure = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(structure)


def _expand(path: str) -> list[str]:
    return [path.replace("<family>", f) for f in FAMILIES] if "<family>" in path else [path]


@pytest.mark.parametrize("path", PATHS)
def test_every_path_the_page_names_exists(path):
    missing = [p for p in _expand(path) if not (ROOT / p).exists()]
    assert not missing, f"docs/contributing.md names {path}, but {missing} do not exist"


def test_every_test_the_step_table_names_exists():
    rows = [line for line in PAGE.splitlines() if re.match(r"\| \d \| `tests/", line)]
    assert len(rows) >= 7
    for row in rows:
        cell = row.split("|")[2]
        (path,) = re.findall(r"`(tests/\w+\.py)`", cell)
        source = (ROOT / path).read_text(encoding="utf-8")
        for name in re.findall(r"`(test_\w+)", cell):
            assert f"def {name}(" in source, f"{path} has no {name} (docs/contributing.md)"


def test_the_examples_are_declared_where_the_page_says():
    blocks = re.findall(r"```py\n# tapegrad/ops/(\w+)\.py.*?\n(.*?)```", PAGE, re.S)
    assert len(blocks) >= 5
    for family, code in blocks:
        for name in re.findall(r'defop\("(\w+)"', code):
            assert name in REGISTRY, f"docs/contributing.md shows op {name}, which is not registered"
            assert REGISTRY[name].module == f"tapegrad.ops.{family}", (name, REGISTRY[name].module)


def _rows() -> list[list[str]]:
    drawing = PAGE.split("## The engine in one sitting", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    return [re.sub(r"^[a-z ]+:", "", line).split() for line in drawing.splitlines()][::-1]


def _modules_of(entry: str, modules: list[str], named: set[str] = frozenset()) -> list[str]:
    """The modules an entry of the drawing stands for; a folder's modules drawn by name elsewhere
    (``named``) are not the folder's."""
    if entry.endswith("/") or "<family>" in entry:  # a package or every family: one entry
        prefix = entry.split("<")[0]
        return [m for m in modules if m.startswith(prefix) and m != "ops/__init__" and m not in named]
    return [entry[:-3] if entry.endswith(".py") else entry]


# Imports written inside functions are imports: they count in the drawings and in the circles.
# The few that go up are listed here, each with its reason (docs/contributing.md, "Imports that go up").
LOCAL_UPWARD = {
    # the op families' rules and helpers use ops of later families, looked up when the rule runs
    # (one layer, as TF's math_grad.py uses array_ops)
    **{("ops/array", f"ops/{f}"): "rules" for f in ("math", "reduction", "segment", "indexing")},
    ("ops/math", "ops/reduction"): "rules", ("ops/math", "ops/linalg"): "rules",
    ("ops/linalg", "ops/decompositions"): "rules",
}
# Circles counting function-local imports that docs/contributing.md argues; no other may appear.
ARGUED_CIRCLES = [
    # Keras 3: saving, serialization and export rebuild or read models and the objects layers hold,
    # which save and serialize themselves through them (docs/contributing.md, "Imports that go up")
    ["keras/_distributed", "keras/_h5", "keras/constraints", "keras/export/__init__",
     "keras/initializers", "keras/layers/input_layer", "keras/layers/layer",
     "keras/models/functional",
     "keras/models/model", "keras/multi_optimizer", "keras/optimizers", "keras/quantizers/quantization_config",
     "keras/regularizers",
     "keras/saving",
     "keras/trainers/data_adapter", "keras/trainers/trainer", "keras/utils"],
    # Keras 3: a KerasTensor's operators make keras.ops operations, which take KerasTensors
    ["keras/_keras_tensor", "keras/layers/operation", "keras/ops"],
    # one layer, the op families, whose rules reach later families when they run
    ["ops/array", "ops/decompositions", "ops/indexing", "ops/linalg", "ops/math", "ops/reduction",
     "ops/segment"],
]


def _report() -> dict:
    return structure.analyze(structure.read_dir(ROOT))


def _edges(r: dict) -> list[tuple[str, str]]:
    """Every import among tapegrad's modules, module-level and function-local."""
    return [tuple(e) for e in r["imports"]["edges"] + r["imports"]["local_edges"]]


def test_the_import_drawing_matches_every_import():
    r = _report()
    modules = [m["module"] for m in r["modules"]]
    named = {e[:-3] if e.endswith(".py") else e for names in _rows() for e in names
             if not e.endswith("/") and "<family>" not in e}
    row, entry = {}, {}
    for level, names in enumerate(_rows()):
        for name in names:
            for m in _modules_of(name, modules, named):
                assert m not in row, f"{m} is drawn twice"
                row[m], entry[m] = level, name
    assert sorted(row) == sorted(modules), "modules missing from the drawing in docs/contributing.md: " \
        f"{sorted(set(modules) - set(row))}; drawn but absent: {sorted(set(row) - set(modules))}"
    upward = [(a, b) for a, b in _edges(r) if row[b] >= row[a] and entry[a] != entry[b]
              and (a, b) not in LOCAL_UPWARD]
    assert not upward, f"imports (module-level or inside functions) that do not go down a row of the " \
        f"drawing in docs/contributing.md: {upward}"
    local = {tuple(e) for e in r["imports"]["local_edges"]}
    stale = sorted(e for e in LOCAL_UPWARD if e not in local)
    assert not stale, f"LOCAL_UPWARD lists imports that are gone; remove them: {stale}"


def test_the_op_families_import_in_the_order_ops_init_lists():
    line = re.search(r"^from \. import (.*?)  #", (ROOT / "tapegrad" / "ops" / "__init__.py").read_text(), re.M)
    order = {f"ops/{f}": i for i, f in enumerate(line.group(1).replace(" ", "").split(","))}
    assert sorted(order) == [f"ops/{f}" for f in FAMILIES if f"ops/{f}" in order]
    late = [(a, b) for a, b in _edges(_report()) if a in order and b in order and order[b] >= order[a]
            and (a, b) not in LOCAL_UPWARD]
    assert not late, f"op families importing a family listed after them in tapegrad/ops/__init__.py: {late}"


def test_no_import_circle_but_the_argued_ones():
    circles = _report()["imports"]["circles_with_local"]
    assert not [c for c in circles if c not in ARGUED_CIRCLES], \
        f"import circles (counting imports inside functions) that docs/contributing.md does not argue: " \
        f"{[c for c in circles if c not in ARGUED_CIRCLES]}"
    assert not [c for c in ARGUED_CIRCLES if c not in circles], "ARGUED_CIRCLES lists a circle that is gone"
    for circle in circles:
        assert all(f"`{m}`" in PAGE for m in circle), f"docs/contributing.md does not argue the circle {circle}"


def test_the_family_table_lists_every_op_family():
    table = re.findall(r"^\| `(\w+)` \|", PAGE.split("## Adding an op in four steps", 1)[1], re.M)
    assert sorted(table) == FAMILIES


def test_the_page_is_in_the_documentation_index():
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert re.search(r"```\{toctree\}[^`]*\ncontributing\n", index)


KERAS_DRAWN = ("models/", "trainers/", "metrics/")  # folders whose every module the Keras drawing holds


KERAS_UPWARD = {("keras/_keras_tensor", "keras/layers/operation")}  # operators make Operations, as Keras 3


def test_the_keras_drawing_matches_every_import_inside_keras():
    drawing = PAGE.split("## Where Keras lives", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    rows = [re.sub(r"^[a-z ]+:", "", line).split() for line in drawing.splitlines()][::-1]
    r = _report()
    modules = {m["module"] for m in r["modules"] if m["module"].startswith("keras/")}
    row = {}
    for level, names in enumerate(rows):
        for name in names:
            m = "keras/" + (name[:-3] if name.endswith(".py") else name)
            assert m in modules, f"the Keras drawing in docs/contributing.md names {name}, which does not exist"
            assert m not in row, f"{name} is drawn twice"
            row[m] = level
    undrawn = sorted(m for m in modules - set(row) if m[len("keras/"):].startswith(KERAS_DRAWN))
    assert not undrawn, f"modules missing from the Keras drawing in docs/contributing.md: {undrawn}"
    upward = [(a, b) for a, b in _edges(r) if a in row and b in row and row[b] >= row[a]
              and (a, b) not in KERAS_UPWARD]
    assert not upward, f"imports inside keras/ that do not go down a row of the Keras drawing: {upward}"


def test_no_module_reaches_into_a_tapes_private_fields():
    reaches = _report()["private_reaches"]
    assert reaches["total"] == 0, f"use the friend API of tapegrad/_tape.py instead: {reaches['sites']}"


def test_the_friend_api_and_the_hook_points_are_the_ones_the_page_names():
    from tapegrad import _tape

    section = PAGE.split("### The friend API and the hook points", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r"^\| `(\w+)\(", section, re.M) + re.findall(r"`, `(\w+)\(", section)
    assert len(named) >= 6
    assert all(callable(getattr(_tape, n, None)) for n in named), named
    for hook in _tape.HOOKS:
        assert hasattr(_tape, hook) and f"`{hook}`" in section, f"hook point {hook} is not declared or not documented"
    with pytest.raises(RuntimeError, match="not a hook point"):
        _tape.set_hook("no_such_hook", None)


def test_only_the_recorders_module_assigns_the_recorder_stack():
    assigns = [str(p.relative_to(ROOT)) for p in (ROOT / "tapegrad").rglob("*.py") if p.name != "_recorders.py"
               and re.search(r"\btls\.stack\s*=", p.read_text(encoding="utf-8"))]
    assert not assigns, f"swap the recorder stack with `with _recorders.swapped(stack):` instead: {assigns}"


def test_keras_reaches_the_engine_only_through_its_seam():
    """No module of keras/ but keras/_engine.py imports an engine-private module (tapegrad._x),
    at module level or inside a function (docs/contributing.md, "Keras's seam to the engine")."""
    import ast
    bad = []
    keras = ROOT / "tapegrad" / "keras"
    for path in sorted(keras.rglob("*.py")):
        if path.name == "_engine.py" and path.parent == keras:
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        pkg = list(parts if path.name == "__init__.py" else parts[:-1])
        if path.name == "__init__.py":
            pkg = pkg[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            base = pkg[:len(pkg) - node.level + 1]
            target = base + (node.module.split(".") if node.module else [])
            names = [a.name for a in node.names] if node.module is None and target == ["tapegrad"] else [""]
            for name in names:
                full = target + ([name] if name else [])
                if len(full) >= 2 and full[0] == "tapegrad" and full[1].startswith("_"):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {'.'.join(full)}")
    assert not bad, "keras/ reaches the engine outside keras/_engine.py: " + "; ".join(bad)

