"""Safety: tapegrad never unpickles, evals or execs data, and loading saved variables validates
everything before it assigns anything (tests/test_saving.py has the round trips)."""
from __future__ import annotations

import ast
import io
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest

import tapegrad as tf

PACKAGE = Path(tf.__file__).resolve().parent
SOURCES = sorted(PACKAGE.rglob("*.py"))

BANNED_MODULES = {"pickle", "cPickle", "_pickle", "marshal", "shelve", "dill", "cloudpickle", "joblib"}
BANNED_CALLS = {"eval", "exec", "__import__", "compile"}


# The two exemptions: tf.function's code generator, tapegrad/_trace.py's compile_program, and the
# fused-loop generator, tapegrad/_jit.py's fused, compile source built from internal names only,
# after a checker verified its form against a fixed grammar (docs/contributing.md).
CODEGENS = {"_trace.py": ("compile_program", "_check_source"), "_jit.py": ("fused", "_check_kernel")}
CODEGEN = ("_trace.py", "compile_program")


def _exempt(tree: ast.Module, path: Path) -> set[int]:
    """ids of the exec/compile calls of a generator, if each follows its checker's call."""
    if path.name not in CODEGENS:
        return set()
    name, checker = CODEGENS[path.name]
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.name == name:
            calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
            checked = [n.lineno for n in calls if n.func.id == checker]
            return {id(n) for n in calls if n.func.id in ("exec", "compile")
                    and checked and min(checked) < n.lineno}
    return set()


def _problems(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out = []
    exempt = _exempt(tree, path)
    for node in ast.walk(tree):
        where = f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import):
            out += [f"{where}: import {a.name}" for a in node.names if a.name.split(".")[0] in BANNED_MODULES]
        elif isinstance(node, ast.ImportFrom):
            if (node.module or "").split(".")[0] in BANNED_MODULES:
                out.append(f"{where}: from {node.module} import ...")
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in BANNED_CALLS and id(node) not in exempt and not (
                    isinstance(f, ast.Attribute) and name == "compile" and not _is_builtins(f.value)):
                out.append(f"{where}: call to {name}()")
            if name in {"loads", "load"} and isinstance(f, ast.Attribute) and _names(f.value) & BANNED_MODULES:
                out.append(f"{where}: {ast.unparse(f)}()")
            for kw in node.keywords:
                if kw.arg == "allow_pickle" and not (isinstance(kw.value, ast.Constant) and kw.value.value is False):
                    out.append(f"{where}: allow_pickle={ast.unparse(kw.value)}")
            if name == "load" and _names(f) & {"np", "numpy"} and not any(kw.arg == "allow_pickle" for kw in node.keywords):
                out.append(f"{where}: np.load without allow_pickle=False (be explicit)")
        elif isinstance(node, ast.Name) and node.id in BANNED_MODULES:
            out.append(f"{where}: name {node.id}")
    return out


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _is_builtins(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "builtins"


def test_the_scan_sees_the_whole_package() -> None:
    names = {p.name for p in SOURCES}
    assert {"_dispatch.py", "_tape.py", "saving.py"} <= names and len(SOURCES) > 20


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(PACKAGE)) for p in SOURCES])
def test_no_pickle_eval_or_exec(path: Path) -> None:
    assert _problems(path) == []


def test_the_scanner_catches_what_it_bans(tmp_path: Path) -> None:
    bad = tmp_path / "tapegrad_bad.py"
    bad.write_text("import pickle\nfrom marshal import loads\nimport numpy as np\n"
                   "eval('1')\nexec('x = 1')\nnp.load('f', allow_pickle=True)\nnp.load('g')\n"
                   "pickle.loads(b'')\n")
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path
    try:
        found = _problems(bad)
    finally:
        PACKAGE = saved
    text = "\n".join(found)
    for what in ("import pickle", "from marshal", "call to eval", "call to exec", "allow_pickle=True",
                 "np.load without", "pickle.loads"):
        assert what in text, (what, found)


def test_the_code_generator_exemption_is_one_checked_function(tmp_path: Path) -> None:
    global PACKAGE
    path = PACKAGE / CODEGEN[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert len(_exempt(tree, path)) == 2  # its exec and its compile
    jit = PACKAGE / "_jit.py"
    assert len(_exempt(ast.parse(jit.read_text(encoding="utf-8")), jit)) == 2   # and the fused loops
    saved, PACKAGE = PACKAGE, tmp_path
    try:
        for text in ("def other(src):\n    exec(compile(src, 'f', 'exec'))\n",
                     "def compile_program(src):\n    exec(compile(src, 'f', 'exec'))\n",
                     "def compile_program(src):\n    exec(src)\n    _check_source(src)\n"):
            bad = tmp_path / CODEGEN[0]
            bad.write_text(text)
            assert any("call to exec" in p for p in _problems(bad)), text
    finally:
        PACKAGE = saved


@pytest.mark.parametrize("src", [
    "import os\ndef run(inputs):\n    return [s0]\n",
    "def run(inputs):\n    s1 = 1\n    return [s1]\n",
    "def run(inputs):\n    s1 = f2(s0).x\n    return [s1]\n",
    "def run(inputs):\n    s1 = f2(s0, k=s0)\n    return [s1]\n",
    "def run(inputs):\n    s1 = os(s0)\n    return [s1]\n",
    "def run(inputs):\n    s1 = f2('x')\n    return [s1]\n",
    "def run(inputs):\n    for s1 in inputs:\n        f2(s1)\n    return [s1]\n",
    "def run(inputs, x=f1()):\n    return [s0]\n",
    "@f1\ndef run(inputs):\n    return [s0]\n",
    "def run(inputs):\n    s1.x = f2(s0)\n    return [s1]\n",
    "def run(inputs):\n    return s0\n",
    "def run(inputs):\n    return [s0]\ndef run2(inputs):\n    return [s0]\n",
    "def run(inputs):\n    s1 = f2(s0); import os\n    return [s1]\n",
    "def run(inputs):\n    s1 = f2(s0) \\\n        .x\n    return [s1]\n",
    "def run(inputs):\n\ts1 = f2(s0)\n    return [s1]\n",
    "def run(inputs):\n    s1 = f2(s0)\r    return [s1]\n",
    "def run(inputs):\n    s1 = f2(s0)  # c\n    return [s1]\n",
    "def run(inputs):\n    return [s0]\n\nimport os\n",
    "def run(inputs):\n    return [s0]",
])
def test_the_generated_source_check_refuses_any_other_form(src: str) -> None:
    from tapegrad._trace import _check_source
    with pytest.raises(tf.errors.InternalError):
        _check_source(src)
    _check_source("def run(inputs):\n    s0, s1 = inputs\n    s2 = f3(s0, c4, b5)\n"
                  "    s6, = f7()\n    f8(s2)\n    s9 = s2\n    return [s9, c4]\n")


# ----------------------------------------------------------------------------- loading
class _Trap:
    triggered = False

    def __reduce__(self):
        return (_spring, ())


def _spring():
    _Trap.triggered = True
    return "sprung"


def _vars() -> dict:
    return {"w": tf.Variable([[1.0, 2.0]]), "b": tf.Variable([0.5])}


def _load(buf: io.BytesIO, variables: dict, **kw) -> None:
    buf.seek(0)
    tf.saving.load_variables(buf, variables, **kw)


def _unchanged(variables: dict) -> None:
    np.testing.assert_array_equal(variables["w"].numpy(), [[1.0, 2.0]])
    np.testing.assert_array_equal(variables["b"].numpy(), [0.5])


def _npz(**arrays) -> io.BytesIO:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf


def test_a_pickle_file_is_never_unpickled() -> None:
    buf = io.BytesIO(pickle.dumps({"w": _Trap()}))
    v = _vars()
    with pytest.raises(ValueError, match="not a readable .npz file"):
        _load(buf, v)
    assert not _Trap.triggered
    _unchanged(v)


def test_an_object_array_entry_is_refused_without_unpickling() -> None:
    buf = _npz(w=np.array([[_Trap(), 1.0]], dtype=object), b=np.array([0.5], np.float32))
    v = _vars()
    with pytest.raises(ValueError, match="(?i)pickle"):
        _load(buf, v)
    assert not _Trap.triggered
    _unchanged(v)


@pytest.mark.parametrize("arrays,pattern", [
    ({"w": np.ones((2, 1), np.float32), "b": np.ones(1, np.float32)},
     r"'w': the file has shape \[2, 1\], the variable has shape \[1, 2\]"),
    ({"w": np.ones((1, 2), np.float64), "b": np.ones(1, np.float32)},
     r"'w': the file has dtype float64, the variable has dtype float32"),
    ({"w": np.ones((1, 2), np.int32), "b": np.ones(1, np.float32)}, r"'w': the file has dtype int32"),
    ({"w": np.array([["a", "b"]]), "b": np.ones(1, np.float32)}, r"'w': the file has dtype <U1"),
    ({"w": np.ones((1, 2), np.float32)}, r"missing from the file: \['b'\]"),
    ({"w": np.ones((1, 2), np.float32), "b": np.ones(1, np.float32), "evil": np.ones(1)},
     r"in the file but not among the variables: \['evil'\]"),
    ({"W": np.ones((1, 2), np.float32), "b": np.ones(1, np.float32)}, r"missing from the file: \['w'\]"),
])
def test_mismatches_are_refused_and_nothing_is_assigned(arrays: dict, pattern: str) -> None:
    v = _vars()
    with pytest.raises(ValueError, match=pattern):
        _load(_npz(**arrays), v)
    _unchanged(v)


def test_truncated_and_foreign_files_are_refused(tmp_path: Path) -> None:
    good = io.BytesIO()
    tf.saving.save_variables(good, _vars())
    v = _vars()
    for data in (good.getvalue()[: len(good.getvalue()) // 2], b"", b"PK\x03\x04garbage", b"\x93NUMPY"):
        with pytest.raises(ValueError, match="not a readable .npz file"):
            _load(io.BytesIO(data), v)
        _unchanged(v)
    single = io.BytesIO()
    np.save(single, np.ones(2))
    with pytest.raises(ValueError, match="single array"):
        _load(single, v)


def test_a_zip_member_that_is_not_npy_is_refused(tmp_path: Path) -> None:
    zf = tmp_path / "x.npz"
    with zipfile.ZipFile(zf, "w") as z:
        z.writestr("w.npy", b"not an npy payload")
        z.writestr("b.npy", b"")
    v = _vars()
    with pytest.raises(ValueError, match="not a readable .npz file"):
        tf.saving.load_variables(zf, v)
    _unchanged(v)


def test_a_valid_file_still_loads() -> None:
    src = {"w": tf.Variable([[3.0, 4.0]]), "b": tf.Variable([9.0])}
    buf = io.BytesIO()
    tf.saving.save_variables(buf, src)
    v = _vars()
    _load(buf, v)
    np.testing.assert_array_equal(v["w"].numpy(), [[3.0, 4.0]])
    np.testing.assert_array_equal(v["b"].numpy(), [9.0])
