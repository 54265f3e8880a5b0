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


def _modules_of(entry: str, modules: list[str]) -> list[str]:
    if entry.endswith("/") or "<family>" in entry:  # a package or every family: one entry
        prefix = entry.split("<")[0]
        return [m for m in modules if m.startswith(prefix) and m != "ops/__init__"]
    return [entry[:-3] if entry.endswith(".py") else entry]


def test_the_import_drawing_matches_the_module_level_imports():
    r = structure.analyze(structure.read_dir(ROOT))
    modules = [m["module"] for m in r["modules"]]
    row, entry = {}, {}
    for level, names in enumerate(_rows()):
        for name in names:
            for m in _modules_of(name, modules):
                assert m not in row, f"{m} is drawn twice"
                row[m], entry[m] = level, name
    assert sorted(row) == sorted(modules), "modules missing from the drawing in docs/contributing.md: " \
        f"{sorted(set(modules) - set(row))}; drawn but absent: {sorted(set(row) - set(modules))}"
    upward = [(a, b) for a, b in r["imports"]["edges"] if row[b] >= row[a] and entry[a] != entry[b]]
    assert not upward, f"imports that do not go down a row of the drawing in docs/contributing.md: {upward}"


def test_the_family_table_lists_every_op_family():
    table = re.findall(r"^\| `(\w+)` \|", PAGE.split("## Adding an op in four steps", 1)[1], re.M)
    assert sorted(table) == FAMILIES


def test_the_page_is_in_the_documentation_index():
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert re.search(r"```\{toctree\}[^`]*\ncontributing\n", index)


KERAS_DRAWN = ("models/", "trainers/", "metrics/")  # folders whose every module the Keras drawing holds


def test_the_keras_drawing_matches_the_module_level_imports_inside_keras():
    drawing = PAGE.split("## Where Keras lives", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    rows = [re.sub(r"^[a-z ]+:", "", line).split() for line in drawing.splitlines()][::-1]
    r = structure.analyze(structure.read_dir(ROOT))
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
    upward = [(a, b) for a, b in r["imports"]["edges"] if a in row and b in row and row[b] >= row[a]]
    assert not upward, f"imports inside keras/ that do not go down a row of the Keras drawing: {upward}"
