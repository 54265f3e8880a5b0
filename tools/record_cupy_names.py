"""Record the public names of CuPy's namespaces, read from a CuPy source checkout.

``benchmarks/fake_cupy.py`` poses NumPy arrays as CuPy's on a machine without a GPU. Real CuPy
runs a NumPy function or ufunc given its arrays only when it has one of the same name
(``ndarray.__array_function__`` looks ``func.__module__``'s path up under ``cupy``;
``__array_ufunc__`` looks the name up in ``cupy``, then in ``cupyx.scipy.special``), so the fake
refuses the names this file does not list, as CuPy would.

    python tools/record_cupy_names.py PATH/TO/cupy     # a git checkout of github.com/cupy/cupy

writes benchmarks/cupy_names.json. The names are read from the packages' ``__init__.py`` files
(imports, definitions and assignments at top level; CuPy cannot be imported without CUDA).
"""
from __future__ import annotations

import ast
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "cupy_names.json"
NAMESPACES = ["cupy", "cupy.linalg", "cupy.fft", "cupy.random", "cupyx", "cupyx.scipy.special",
              "cupyx.scipy.linalg", "cupyx.scipy.signal", "cupyx.scipy.ndimage"]


def public_names(init: pathlib.Path) -> list:
    names: set = set()
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return sorted(n for n in names if not n.startswith("_") and n != "*")


def main(argv: list) -> None:
    src = pathlib.Path(argv[0])
    commit = subprocess.run(["git", "-C", str(src), "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or None
    version = re.search(r"__version__ = '([^']+)'", (src / "cupy" / "_version.py").read_text()).group(1)
    record = {"cupy_version": version, "commit": commit,
              "names": {ns: public_names(src.joinpath(*ns.split("."), "__init__.py")) for ns in NAMESPACES}}
    OUT.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: CuPy {record['cupy_version']}, "
          + ", ".join(f"{ns} {len(v)}" for ns, v in record["names"].items()))


if __name__ == "__main__":
    main(sys.argv[1:])
