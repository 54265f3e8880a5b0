"""tools/structure.py: the structure report of the package, and of a tiny synthetic package."""
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "tools", "structure.py")

# _a <-> _b at module level; _b -> _c and _c -> _a only inside functions; _a -> _d only for type
# checkers, so _d (which imports _a) is in no circle.
SYNTHETIC = {
    "__init__.py": "from . import _a\nfrom .ops import math\n",
    "_a.py": '''
        from typing import TYPE_CHECKING

        from ._b import thing

        if TYPE_CHECKING:
            from ._d import Thing


        def defop(name, fwd, **rules):
            """Declare an op."""
            return rules


        class GradientTape:
            def __init__(self):
                self._entries = []

            def size(self, tape):
                return len(tape._entries)
        ''',
    "_b.py": '''
        from . import _a

        thing = 1


        def f(tape):
            from ._c import g
            return g, tape._entries, tape._ids
        ''',
    "_c.py": '''
        def g():
            from . import _a
            raise InvalidArgumentError(None, None, "bad")
        ''',
    "_d.py": "from . import _a\nThing = int\n",
    "ops/__init__.py": "",
    "ops/math.py": '''
        from .._a import defop, jointly


        def _mul_vjp(g, ans, needs, x, y):
            return [g for _ in needs]


        _add = defop("Add", None, vjp=(lambda g, ans, x, y: g, None), jvp="linear")
        _mul = defop("Mul", None, vjp=_mul_vjp,
                     jvp=lambda ts, ans, x, y: ts[0] if ts[1] is None else ts[1])
        _neg = defop("Neg", None, deriv=(lambda ans, x: -1,))
        _neg.jvp = None
        _div = defop("Div", None, vjp=jointly(_mul_vjp), jvp=jointly(lambda ts, ans, x, y: ts[0]))
        _shared = jointly(_mul_vjp)
        _sub = defop("Sub", None, vjp=_shared, jvp=_transposed(_mul_vjp))
        ''',
}


def _run(*args):
    out = subprocess.run([sys.executable, TOOL, *args], check=True, capture_output=True, text=True)
    return out.stdout


@pytest.fixture
def synthetic(tmp_path):
    for rel, text in SYNTHETIC.items():
        path = tmp_path / "tapegrad" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return tmp_path


def test_the_report_of_the_working_tree_has_every_section():
    r = json.loads(_run("--dir", ROOT, "--json"))
    assert set(r) >= {"headline", "groups", "modules", "imports", "local_imports", "lengths",
                      "rule_forms", "private_reaches", "patterns"}
    assert set(r["groups"]) >= {"engine", "ops", "namespaces"}
    names = {m["module"]: m for m in r["modules"]}
    assert names["ops/math"]["group"] == "ops" and names["errors"]["group"] == "engine"
    assert names["_dispatch"]["group"] == "engine" and names["ops/array"]["group"] == "ops"
    assert names["math"]["group"] == "namespaces"
    assert all(0 < m["code"] <= m["lines"] for m in r["modules"] if m["lines"] > 1)
    h = r["headline"]
    assert h["python files"] == sum(m["file"].endswith(".py") for m in r["modules"])
    assert h["defop length (lines)"] > 0 and h["ops declared (defop calls)"] > 50
    assert h["rule forms"] == len(r["rule_forms"]["forms"]) > 0
    assert {"circles", "circles_with_local", "edges"} <= set(r["imports"])
    assert ["ops/math", "errors"] in r["imports"]["edges"] or \
        ["ops/math", "errors"] in r["imports"]["local_edges"]


def test_circles_forms_and_reaches_of_a_synthetic_package(synthetic, tmp_path):
    dot = tmp_path / "engine.dot"
    r = json.loads(_run("--dir", str(synthetic), "--json", "--dot", str(dot)))
    imp = r["imports"]
    assert imp["circles"] == [["_a", "_b"]]
    assert imp["circles_with_local"] == [["_a", "_b", "_c"]]
    assert ["_a", "_d"] not in imp["edges"] + imp["local_edges"]
    assert r["local_imports"]["per_module"] == {"_b": 1, "_c": 1}
    assert r["local_imports"]["engine"] == 2
    assert [(x["name"], x["lines"], x["code"]) for x in r["lengths"]] == [("defop", 3, 2)]
    rf = r["rule_forms"]
    assert rf["by_keyword"]["vjp"] == {"per-input tuple": 1, "callable taking needs": 1,
                                       "jointly": 2, "(absent)": 1}
    assert rf["by_keyword"]["jvp"] == {'"linear"': 1, "callable": 1, "jointly": 1,
                                       "wrapper call": 1, "(absent)": 1}
    assert rf["by_keyword"]["deriv"] == {"(absent)": 4, "per-input tuple": 1}
    assert rf["jointly"] == {"vjp": 2, "jvp": 1}       # a name bound to jointly(...) counts too
    assert rf["wrappers"] == {"_transposed": 1}        # other wrapper calls, apart from jointly
    assert [a["target"] for a in rf["assigned_after"]] == ["_neg.jvp"]
    assert rf["ts_none"] == {"is None": 1}
    h = r["headline"]
    # 8 keyword forms and the assignment after the declaration
    assert h["rule forms"] == 9 and len(rf["forms"]) == 9
    assert ["vjp", "jointly"] in rf["forms"] and ["jvp", '"linear"'] in rf["forms"]
    assert h["jointly uses (vjp=)"] == 2 and h["jointly uses (jvp=)"] == 1
    text = _run("--dir", str(synthetic))
    assert "jointly (the escape hatch): vjp= 2, jvp= 1" in text
    assert "other wrapper calls: _transposed 1" in text
    assert h["private reaches"] == 2  # in _b; _a defines the tape class
    assert r["private_reaches"]["per_module"] == {"_b": 2}
    assert h["InvalidArgumentError(None, None"] == 1 and h["_wrap(np.zeros("] == 0
    text = dot.read_text(encoding="utf-8")
    assert text.startswith("digraph") and '"_b" -> "_c" [style=dashed]' in text
    assert '"_a" -> "_b" [style=solid]' in text


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_revision_reads_as_the_same_files_in_a_directory(synthetic):
    git = ["git", "-C", str(synthetic), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "tapegrad"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "synthetic"], check=True)
    from_rev = json.loads(_run("--rev", "HEAD", "--repo", str(synthetic), "--json"))
    from_dir = json.loads(_run("--dir", str(synthetic), "--json"))
    assert from_rev["modules"] == from_dir["modules"]
    assert from_rev["headline"] == from_dir["headline"]
    table = _run("--compare", "HEAD", str(synthetic), "--repo", str(synthetic))
    assert "import circles (module level)" in table and "+0" in table
