"""Structure figures of the tapegrad package: files, line counts, import circles, rule forms.

Reads ``tapegrad/`` in a directory or at a git revision (through ``git cat-file``, no checkout)
and reports, from the syntax alone (nothing is imported):

- every module with its total and code lines (code: no blank, comment or docstring lines),
  grouped by the GROUPS table below;
- the module-level import graph among tapegrad modules and its strongly connected components of
  more than one module (import circles); the same for the graph that also counts imports written
  inside functions, which dodge a circle without removing it. Imports under
  ``if TYPE_CHECKING:`` are ignored; importing a submodule is not counted as importing its
  parent package;
- function-local imports (an import statement inside a def or class body), per module;
- the length of the definitions named in LENGTHS (``defop``, ...), wherever they are;
- rule forms: how each ``deriv=``/``vjp=``/``jvp=`` value of the ``defop`` calls is written
  (see ``_form``: per-input tuples, ``"linear"``, ``jointly(...)``, the escape hatch, counted per
  keyword and apart from other wrapper calls; and the older forms, bare callables), the distinct
  forms in use, rules attached to an op after its declaration, ``ts[i] is None`` tests;
- private reaches (``tape._x``, ``x._entries``, ...) from modules that do not define that
  attribute in a class: a name-based approximation, not type inference;
- ``InvalidArgumentError(None, None, ...)`` and ``_wrap(np.zeros(...))`` calls.

    python tools/structure.py                       # the working tree this tool is in
    python tools/structure.py --rev c797acf --dot engine.dot
    python tools/structure.py --dir /path/to/checkout --json
    python tools/structure.py --compare c797acf .   # revisions or directories
"""
from __future__ import annotations

import argparse
import ast
import io
import json
import re
import subprocess
import sys
import tokenize
from collections import Counter, defaultdict
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Iterator

PACKAGE = "tapegrad"
SUFFIXES = (".py", ".pxd", ".pyx")
# A file's group, from its path inside tapegrad/ ("*" stays within one folder); first match wins.
GROUPS = (
    ("namespaces", ("__init__.py", "math.py", "nn.py", "linalg.py", "autodiff.py", "random.py",
                    "test.py", "optimizers/*")),
    ("ops", ("ops/*",)),
    ("engine", ("_*", "errors.py", "dtypes.py", "diagnosis.py")),
    ("other", ("*", "*/*")),
)
# Definitions whose length is reported: headline label -> names it has had.
LENGTHS = {"defop": ("defop",), "apply": ("apply",), "unary": ("unary",), "binary": ("binary",),
           "backward walk": ("_backward", "backward")}
NAMES = {n: label for label, names in LENGTHS.items() for n in names}
DECLARERS = ("defop",)               # functions whose calls declare an op
OP_CLASS = "Op"                      # Op(...) outside the engine: an op built without defop
RULE_FILES = ("*.py", "ops/*.py")    # where defop calls are read
RULE_KEYWORDS = ("deriv", "vjp", "jvp")
RULE_FIELDS = ("jvp", "bwd", "vjp")  # <op>.<field> = ... after the declaration
ESCAPE = "jointly"                   # the one wrapper of a rule for all inputs at once
PRIVATE_BASES = {"tape": "Tape"}  # <base>._x outside modules whose class named *Tape* defines _x
PRIVATE_ATTRS = ("_entries", "_ids", "_explain")  # <any>.<attr> outside modules whose classes define it
PATTERNS = {"InvalidArgumentError(None, None": r"InvalidArgumentError\(\s*None\s*,\s*None\b",
            "_wrap(np.zeros(": r"_wrap\(\s*np\.zeros\("}  # matched in the text, newlines allowed
ROOT = Path(__file__).resolve().parents[1]
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _match(rel: str, patterns: tuple) -> bool:
    parts = rel.split("/")
    return any(len(parts) == len(p.split("/")) and all(map(fnmatchcase, parts, p.split("/")))
               for p in patterns)


def group_of(rel: str) -> str:
    """The GROUPS row of a path inside tapegrad/."""
    return next((g for g, pats in GROUPS if _match(rel, pats)), "other")


def read_dir(root: str | Path) -> dict[str, str]:
    """{path inside tapegrad/: text} for the package under ``root``."""
    pkg = Path(root) / PACKAGE
    if not pkg.is_dir():
        raise SystemExit(f"no {PACKAGE}/ in {root}")
    return {p.relative_to(pkg).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(pkg.rglob("*"))
            if p.suffix in SUFFIXES and p.is_file() and "__pycache__" not in p.parts}


def read_rev(rev: str, repo: str | Path = ROOT) -> dict[str, str]:
    """{path inside tapegrad/: text} for the package at git revision ``rev`` of ``repo``."""
    git = ["git", "-C", str(repo)]
    paths = subprocess.run(git + ["ls-tree", "-r", "--full-tree", "--name-only", rev, "--",
                                  PACKAGE + "/"], check=True, capture_output=True,
                           text=True).stdout.split()
    paths = [p for p in paths if p.endswith(SUFFIXES)]
    if not paths:
        raise SystemExit(f"no {PACKAGE}/ at {rev}")
    blobs = subprocess.run(git + ["cat-file", "--batch"], check=True, capture_output=True,
                           input="".join(f"{rev}:{p}\n" for p in paths).encode()).stdout
    out, pos = {}, 0
    for p in paths:
        end = blobs.index(b"\n", pos)
        size = int(blobs[pos:end].split()[2])
        out[p[len(PACKAGE) + 1:]] = blobs[end + 1:end + 1 + size].decode("utf-8")
        pos = end + 2 + size
    return out


def _code_lines(text: str, tree: ast.AST | None) -> set[int]:
    lines: set[int] = set()
    skip = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENDMARKER)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type not in skip:
                lines.update(range(tok.start[0], tok.end[0] + 1))
    except (tokenize.TokenError, SyntaxError):  # a .pxd file the tokenizer rejects
        return {i for i, s in enumerate(text.splitlines(), 1) if s.strip() and not s.lstrip().startswith("#")}
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, (ast.Module, *DEFS)) and node.body:
            doc = node.body[0]
            if isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) \
                    and isinstance(doc.value.value, str):
                lines.difference_update(range(doc.lineno, doc.end_lineno + 1))
    return lines


def _dotted(rel: str) -> str:
    parts = rel[:-3].split("/")
    return ".".join([PACKAGE, *(parts[:-1] if parts[-1] == "__init__" else parts)])


def _checking(test: ast.expr) -> bool | None:
    """True for ``TYPE_CHECKING``, False for ``not TYPE_CHECKING``, None for other tests."""
    neg = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    t = test.operand if neg else test
    name = t.id if isinstance(t, ast.Name) else t.attr if isinstance(t, ast.Attribute) else None
    return None if name != "TYPE_CHECKING" else not neg


def _imports(nodes: Any, local: bool = False) -> Iterator[tuple[ast.stmt, bool]]:
    for node in nodes:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, local
        elif isinstance(node, ast.If) and _checking(node.test) is not None:
            yield from _imports(node.orelse if _checking(node.test) else node.body, local)
        else:
            yield from _imports(ast.iter_child_nodes(node), local or isinstance(node, SCOPES))


def _targets(node: ast.stmt, pkg: str, modules: dict[str, str]) -> list[str]:
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif node.level:
        parts = pkg.split(".")
        base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
    else:
        names = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module
                 for a in node.names]
    out = []
    for name in names:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        if name:
            out.append(modules[name])
    return out


def _sccs(nodes: list[str], edges: set[tuple[str, str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan), each sorted."""
    succ = defaultdict(list)
    for a, b in sorted(edges):
        succ[a].append(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in nodes:
        if v not in index:
            visit(v)
    return sorted(out, key=lambda c: (-len(c), c))


def _name(func: ast.expr) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _params(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    a = fn.args
    return {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}


def _form(value: ast.expr, defs: dict[str, ast.AST], calls: dict[str, ast.Call]) -> str:
    """How a rule keyword's value is written; a name bound to a call's result counts as that call.

    The vocabulary: ``per-input tuple``, ``"linear"``, ``jointly`` (the escape hatch). Older
    forms: ``callable`` (one rule for all inputs), ``callable taking needs``, ``wrapper call`` (a
    call of anything but ``jointly``), other strings. ``(none)``: an explicit None, no rule.
    """
    if isinstance(value, ast.Constant):
        if value.value is None:
            return "(none)"
        return '"linear"' if value.value == "linear" else f"string {value.value!r}"
    if isinstance(value, (ast.Tuple, ast.List)):
        return "per-input tuple"
    if isinstance(value, ast.Call) or (isinstance(value, ast.Name) and value.id in calls):
        call = value if isinstance(value, ast.Call) else calls[value.id]
        return ESCAPE if _name(call.func) == ESCAPE else "wrapper call"
    fn = value if isinstance(value, ast.Lambda) else defs.get(value.id) if isinstance(value, ast.Name) else None
    if fn is not None and not isinstance(fn, ast.ClassDef) and "needs" in _params(fn):
        return "callable taking needs"
    if isinstance(value, (ast.Lambda, ast.Name, ast.Attribute)):
        return "callable"
    return f"other ({type(value).__name__})"


def _owners(trees: dict[str, ast.AST]) -> dict[str, set[str]]:
    """attribute -> modules whose classes define it (self.x = ..., slots, methods, class names);
    a "<base>:<attribute>" key for those whose classes named as PRIVATE_BASES says define it."""
    own: dict[str, set[str]] = defaultdict(set)
    for name, tree in trees.items():
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            attrs = set()
            for n in ast.walk(cls):
                if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) \
                        and isinstance(n.value, ast.Name) and n.value.id == "self":
                    attrs.add(n.attr)
                elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    attrs.add(n.name)
                elif isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__"
                                                       for t in n.targets):
                    attrs.update(c.value for c in ast.walk(n.value)
                                 if isinstance(c, ast.Constant) and isinstance(c.value, str))
            for a in attrs:
                own[a].add(name)
                own.update({f"{b}:{a}": own[f"{b}:{a}"] | {name}
                            for b, word in PRIVATE_BASES.items() if word in cls.name})
    return own


def _module_table(files: dict[str, str]) -> tuple[list[dict], dict[str, ast.AST], dict[str, set[int]]]:
    rows, trees, code = [], {}, {}
    for rel, text in sorted(files.items()):
        name = rel[:-3] if rel.endswith(".py") else rel
        tree = ast.parse(text, rel) if rel.endswith(".py") else None
        code[name] = _code_lines(text, tree)
        rows.append({"module": name, "file": rel, "group": group_of(rel),
                     "lines": len(text.splitlines()), "code": len(code[name])})
        if tree is not None:
            trees[name] = tree
    return rows, trees, code


def _import_graph(trees: dict[str, ast.AST], group: dict[str, str]) -> dict[str, Any]:
    modules = {_dotted(name + ".py"): name for name in trees}
    edges: set[tuple[str, str]] = set()
    local_edges: set[tuple[str, str]] = set()
    local: Counter = Counter()
    into: Counter = Counter()
    for name, tree in trees.items():
        dotted = _dotted(name + ".py")
        pkg = dotted if name.endswith("__init__") else dotted.rpartition(".")[0]
        for node, inside in _imports(tree.body):
            if isinstance(node, ast.ImportFrom) and node.module == "__future__":
                continue
            targets = [t for t in _targets(node, pkg, modules) if t != name]
            if inside:
                local[name] += 1
                into[name] += bool(targets)
            (local_edges if inside else edges).update((name, t) for t in targets)
    local_edges -= edges
    return {
        "edges": sorted(map(list, edges)),
        "local_edges": sorted(map(list, local_edges)),
        "circles": _sccs(sorted(trees), edges),
        "circles_with_local": _sccs(sorted(trees), edges | local_edges),
        "local_imports": {"per_module": dict(sorted(local.items())),
                          "into_tapegrad": dict(sorted((k, v) for k, v in into.items() if v)),
                          "total": sum(local.values()),
                          "engine": sum(c for m, c in local.items() if group[m] == "engine")},
    }


def _lengths(trees: dict[str, ast.AST], code: dict[str, set[int]], group: dict[str, str]) -> list[dict]:
    out = []

    def visit(name: str, node: ast.AST, prefix: str) -> None:
        for n in ast.iter_child_nodes(node):
            if isinstance(n, DEFS):
                if n.name in NAMES:
                    span = range(n.lineno, n.end_lineno + 1)
                    out.append({"name": n.name, "label": NAMES[n.name], "module": name, "qualname": prefix + n.name,
                                "group": group[name], "line": n.lineno, "lines": len(span),
                                "code": len(code[name].intersection(span))})
                visit(name, n, prefix + n.name + ".")
            else:
                visit(name, n, prefix)

    for name, tree in trees.items():
        visit(name, tree, "")
    return sorted(out, key=lambda r: (list(LENGTHS).index(r["label"]), r["module"], r["line"]))


def _rule_forms(trees: dict[str, ast.AST]) -> dict[str, Any]:
    forms: dict[str, Counter] = {k: Counter() for k in RULE_KEYWORDS}
    combos: Counter = Counter()
    wrappers: Counter = Counter()
    declared, assigned, direct = [], [], []
    for name, tree in trees.items():
        if not _match(name + ".py", RULE_FILES):
            continue
        defs = {n.name: n for n in ast.walk(tree) if isinstance(n, DEFS)}
        calls = {t.id: n.value for n in tree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                 for target in n.targets for t in ast.walk(target) if isinstance(t, ast.Name)}
        engine_home = OP_CLASS in defs or any(d in defs for d in DECLARERS)
        built = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                 and _name(n.value.func) == OP_CLASS for t in n.targets if isinstance(t, ast.Name)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in DECLARERS:
                kws = {k.arg: k.value for k in node.keywords}
                row = {}
                for k in RULE_KEYWORDS:
                    row[k] = _form(kws[k], defs, calls) if k in kws else \
                        "**kwargs" if None in kws else "(absent)"
                    forms[k][row[k]] += 1
                    if row[k] == "wrapper call":  # jointly(...) is not one: counted per keyword
                        call = kws[k] if isinstance(kws[k], ast.Call) else calls[kws[k].id]
                        wrappers[_name(call.func) or "?"] += 1
                nondiff = isinstance(kws.get("nondiff"), ast.Constant) and kws["nondiff"].value
                combos["nondiff" if nondiff else " | ".join(f"{k}: {row[k]}" for k in RULE_KEYWORDS)] += 1
                op = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else "?"
                declared.append({"op": op, "module": name, "line": node.lineno, **row})
            elif engine_home:
                continue
            elif isinstance(node, ast.Call) and _name(node.func) == OP_CLASS:
                direct.append(f"{name}:{node.lineno}")
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    assigned += [{"module": name, "line": node.lineno, "target": ast.unparse(a)}
                                 for a in ast.walk(t) if isinstance(a, ast.Attribute) and a.attr in RULE_FIELDS
                                 and not (isinstance(a.value, ast.Name) and a.value.id in built | {"self"})]
    kinds = sorted({(k, f) for k in RULE_KEYWORDS for f in forms[k] if not f.startswith("(")})
    if assigned:
        kinds.append(("after", "assigned after the declaration"))
    return {
        "by_keyword": {k: dict(forms[k].most_common()) for k in RULE_KEYWORDS},
        "forms": [list(k) for k in kinds],
        "combinations": dict(combos.most_common()),
        "jointly": {k: forms[k][ESCAPE] for k in RULE_KEYWORDS if forms[k][ESCAPE]},
        "wrappers": dict(wrappers.most_common()),
        "assigned_after": assigned,
        "built_without_defop": direct,
        "declarations": declared,
    }


def _is_ts_none(n: ast.AST) -> bool:
    return isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.Is, ast.IsNot)) \
        and isinstance(n.left, ast.Subscript) and isinstance(n.left.value, ast.Name) \
        and n.left.value.id == "ts" and isinstance(n.comparators[0], ast.Constant) \
        and n.comparators[0].value is None


def _is_reach(n: ast.AST, module: str, owners: dict[str, set[str]]) -> bool:
    if not isinstance(n, ast.Attribute):
        return False
    if n.attr in PRIVATE_ATTRS and module not in owners[n.attr]:
        return True
    return isinstance(n.value, ast.Name) and n.value.id in PRIVATE_BASES and n.attr.startswith("_") \
        and not n.attr.startswith("__") and module not in owners[f"{n.value.id}:{n.attr}"]


def analyze(files: dict[str, str], source: str = "") -> dict[str, Any]:
    """The structure report (a JSON-able dict) of the package files ``{path in tapegrad/: text}``."""
    mods, trees, code = _module_table(files)
    group = {m["module"]: m["group"] for m in mods}
    groups: dict[str, dict[str, int]] = {}
    for m in mods:
        g = groups.setdefault(m["group"], {"files": 0, "lines": 0, "code": 0})
        for k in ("lines", "code"):
            g[k] += m[k]
        g["files"] += 1
    imports = _import_graph(trees, group)
    local = imports.pop("local_imports")
    lengths = _lengths(trees, code, group)
    rules = _rule_forms(trees)
    owners = _owners(trees)
    ts_sites = sorted((name, n.lineno, isinstance(n.ops[0], ast.Is))
                      for name, tree in trees.items() for n in ast.walk(tree) if _is_ts_none(n))
    rules["ts_none"] = dict(Counter("is None" if is_ else "is not None" for _, _, is_ in ts_sites))
    rules["ts_none_sites"] = [f"{m}:{ln}" for m, ln, _ in ts_sites]
    reaches = [(name, n.lineno, ast.unparse(n)) for name, tree in trees.items()
               for n in ast.walk(tree) if _is_reach(n, name, owners)]
    patterns = {p: [f"{name}:{files[name + '.py'].count(chr(10), 0, m.start()) + 1}"
                    for name in trees for m in re.finditer(rx, files[name + ".py"])]
                for p, rx in PATTERNS.items()}

    def longest(label: str) -> int:  # a module-level one in the engine first; 0: none found
        rows = [r for r in lengths if r["label"] == label]
        return max((r["lines"] for r in rows if r["group"] == "engine" and r["qualname"] == r["name"]),
                   default=max((r["lines"] for r in rows), default=0))

    circles, circles_all = imports["circles"], imports["circles_with_local"]
    headline = {
        "python files": len(trees),
        "other package files (.pxd/.pyx)": len(mods) - len(trees),
        "lines": sum(m["lines"] for m in mods),
        "code lines": sum(m["code"] for m in mods),
        **{f"{g} lines": groups.get(g, {}).get("lines", 0) for g, _ in GROUPS},
        "largest engine module (lines)": max((m["lines"] for m in mods if m["group"] == "engine"), default=0),
        "import circles (module level)": len(circles),
        "largest circle (module level)": max(map(len, circles), default=0),
        "import circles (with function-local)": len(circles_all),
        "largest circle (with function-local)": max(map(len, circles_all), default=0),
        "function-local imports": local["total"],
        "function-local imports in the engine": local["engine"],
        **{f"{k} length (lines)": longest(k) for k in LENGTHS},
        "ops declared (defop calls)": len(rules["declarations"]),
        "rule forms": len(rules["forms"]),
        **{f"jointly uses ({k}=)": rules["jointly"].get(k, 0) for k in ("vjp", "jvp")},
        "rule combinations": len(rules["combinations"]),
        "rules assigned after defop": len(rules["assigned_after"]),
        "ops built without defop (Op())": len(rules["built_without_defop"]),
        "ts[i] is (not) None": len(ts_sites),
        "private reaches": len(reaches),
        **{p: len(sites) for p, sites in patterns.items()},
    }
    return {
        "source": source,
        "headline": headline,
        "groups": groups,
        "modules": mods,
        "imports": imports,
        "local_imports": local,
        "lengths": lengths,
        "rule_forms": rules,
        "private_reaches": {
            "note": "name-based: tape._x outside modules whose *Tape* class defines _x, "
                    "<any>._entries/_ids/_explain outside modules whose classes define it",
            "per_module": dict(Counter(m for m, _, _ in reaches).most_common()),
            "per_attribute": dict(Counter(e.rpartition(".")[2] for _, _, e in reaches).most_common()),
            "sites": [f"{m}:{ln} {e}" for m, ln, e in reaches],
            "total": len(reaches),
        },
        "patterns": patterns,
    }


def text_report(r: dict[str, Any]) -> str:
    """The report as readable text."""
    out = [f"tapegrad structure: {r['source']}", "", "Headline"]
    width = max(map(len, r["headline"]))
    out += [f"  {k:<{width}}  {v}" for k, v in r["headline"].items()]
    for g, _ in GROUPS:
        rows = [m for m in r["modules"] if m["group"] == g]
        if not rows:
            continue
        tot = r["groups"][g]
        out += ["", f"{g}: {tot['files']} files, {tot['lines']} lines, {tot['code']} code"]
        out += [f"  {m['module']:<28} {m['lines']:>6} {m['code']:>6}" for m in rows]
    imp = r["imports"]
    out += ["", "Import circles (module level):"]
    out += [f"  {len(c)}: {', '.join(c)}" for c in imp["circles"]] or ["  none"]
    out += ["Import circles counting function-local imports:"]
    out += [f"  {len(c)}: {', '.join(c)}" for c in imp["circles_with_local"]] or ["  none"]
    li = r["local_imports"]
    out += ["", f"Function-local imports: {li['total']} (engine {li['engine']}); "
                "per module (into tapegrad):"]
    out += [f"  {m:<28} {n:>3} ({li['into_tapegrad'].get(m, 0)})" for m, n in li["per_module"].items()]
    out += ["", "Lengths (lines, code lines):"]
    out += [f"  {x['module']}:{x['line']} {x['qualname']}  {x['lines']}, {x['code']}" for x in r["lengths"]]
    rf = r["rule_forms"]
    out += ["", f"Rule forms: {len(rf['forms'])} ({len(rf['declarations'])} defop calls): "
            + "; ".join(f"{k}= {f}" if k != "after" else f for k, f in rf["forms"])]
    for k, forms in rf["by_keyword"].items():
        out += [f"  {k}=: " + "; ".join(f"{f} {n}" for f, n in forms.items())]
    out += ["  jointly (the escape hatch): " + (", ".join(f"{k}= {n}" for k, n in rf["jointly"].items()) or "-")]
    if rf["wrappers"]:
        out += ["  other wrapper calls: " + ", ".join(f"{w} {n}" for w, n in rf["wrappers"].items())]
    out += ["  combinations:"] + [f"    {n:>4}  {c}" for c, n in rf["combinations"].items()]
    out += [f"  assigned after defop: {len(rf['assigned_after'])}"]
    out += [f"    {a['module']}:{a['line']} {a['target']}" for a in rf["assigned_after"]]
    out += [f"  ops built without defop (Op()): {', '.join(rf['built_without_defop']) or '-'}"]
    out += [f"  ts[i] is (not) None: {rf['ts_none']} at {', '.join(rf['ts_none_sites']) or '-'}"]
    pr = r["private_reaches"]
    out += ["", f"Private reaches: {pr['total']} ({pr['note']})",
            "  per module: " + ", ".join(f"{m} {n}" for m, n in pr["per_module"].items()),
            "  per attribute: " + ", ".join(f"{a} {n}" for a, n in pr["per_attribute"].items())]
    out += [""] + [f"{p}: {len(s)} at {', '.join(s) or '-'}" for p, s in r["patterns"].items()]
    return "\n".join(out)


def dot(r: dict[str, Any]) -> str:
    """Graphviz dot of the engine's imports: solid module level, dashed function-local; modules in
    a circle (counting function-local imports) filled."""
    engine = {m["module"] for m in r["modules"] if m["group"] == "engine" and m["file"].endswith(".py")}
    circled = {m for c in r["imports"]["circles_with_local"] for m in c}
    edges = [(a, b, "solid") for a, b in r["imports"]["edges"] if a in engine] + \
            [(a, b, "dashed") for a, b in r["imports"]["local_edges"] if a in engine]
    nodes = sorted(engine | {b for _, b, _ in edges})
    out = ["digraph tapegrad_engine {", "  rankdir=BT;", "  node [shape=box, fontname=Helvetica];"]
    for n in nodes:
        style = ["filled"] if n in circled else []
        if n not in engine:
            style.append("dotted")
        attrs = f', style="{",".join(style)}"' if style else ""
        fill = ', fillcolor="#f4c7c3"' if n in circled else ""
        out.append(f'  "{n}" [label="{n}"{attrs}{fill}];')
    out += [f'  "{a}" -> "{b}" [style={s}];' for a, b, s in sorted(edges)]
    return "\n".join(out + ["}", ""])


def compare(before: dict[str, Any], after: dict[str, Any]) -> str:
    """A before/after table of the headline numbers."""
    keys = list(dict.fromkeys([*before["headline"], *after["headline"]]))
    width = max(map(len, keys))
    b_name, a_name = before["source"], after["source"]
    col = max(len(b_name), len(a_name), 6)
    out = [f"{'':<{width}}  {b_name:>{col}}  {a_name:>{col}}  {'change':>7}"]
    for k in keys:
        b, a = before["headline"].get(k, 0), after["headline"].get(k, 0)
        out.append(f"{k:<{width}}  {b:>{col}}  {a:>{col}}  {a - b:>+7}")
    return "\n".join(out)


def load(spec: str, repo: str | Path = ROOT) -> dict[str, Any]:
    """Analyze ``spec``: a directory holding tapegrad/, else a git revision of ``repo``."""
    if (Path(spec) / PACKAGE).is_dir():
        return analyze(read_dir(spec), str(Path(spec).resolve()))
    return analyze(read_rev(spec, repo), spec)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--rev", help="git revision of --repo to read (no checkout)")
    src.add_argument("--dir", help="directory holding tapegrad/ (default: this tool's checkout)")
    src.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"),
                     help="two revisions or directories: a table of the headline numbers")
    ap.add_argument("--repo", default=str(ROOT), help="git repository for revisions")
    ap.add_argument("--json", action="store_true", help="print JSON")
    ap.add_argument("--dot", metavar="FILE", help="write the engine's import graph as Graphviz dot")
    a = ap.parse_args(argv)
    if a.compare:
        before, after = (load(s, a.repo) for s in a.compare)
        print(json.dumps({"before": before["headline"], "after": after["headline"]}, indent=1)
              if a.json else compare(before, after))
        return 0
    d = Path(a.dir or ROOT)
    r = analyze(read_rev(a.rev, a.repo), a.rev) if a.rev else analyze(read_dir(d), str(d.resolve()))
    if a.dot:
        Path(a.dot).write_text(dot(r), encoding="utf-8")
    print(json.dumps(r, indent=1) if a.json else text_report(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
