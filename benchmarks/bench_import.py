"""Import time: ``python -c "import tapegrad"`` against ``python -c "import numpy"``.

Each sample is a fresh interpreter (a subprocess), so the times include Python's own start-up,
as a user sees it; library and baseline samples alternate, and the ratio is the median of the
per-pair ratios.
Run: python -m benchmarks.bench_import [--lib tapegrad] [--repeat 31]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from typing import Any, Callable

from ._harness import LIBS, paired, ratio

NAME = "import"
TITLE = "4. Import time"
DESCRIPTION = (
    "`python -c \"import <library>\"` in a fresh interpreter (a subprocess, started from an empty "
    "directory) against `python -c \"import numpy\"`, alternating, many repeats, with bytecode "
    "caches warm (written to a private folder by a first import). Times include interpreter "
    "start-up, as a user sees it.")
COLUMNS = [
    ("ms", "import ms", "{:.0f}"),
    ("base_ms", "import numpy ms", "{:.0f}"),
    ("ratio", "ratio", "{:.2f}"),
]
TARGETS = [("`import tapegrad` ≤ 1.3 × `import numpy`", "ratio", 1.3)]

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _importer(module: str, cwd: str) -> Callable[[], None]:
    # Bytecode caches on, in a private folder (PYTHONPYCACHEPREFIX): every library is timed with
    # warm caches, as on a user's machine after the first import (the warm-up call writes them),
    # even where PYTHONDONTWRITEBYTECODE is set, without writing into the source tree.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = os.path.join(cwd, "pycache")
    env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    cmd = [sys.executable, "-c", f"import {module}"]

    def run() -> None:
        subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return run


def measure(lib: str, smoke: bool = False, repeat: int = 31) -> list[dict]:
    if lib not in LIBS:
        raise ValueError(f"unknown library {lib!r}; expected one of {LIBS}")
    if smoke:
        repeat = 2
    elif lib in ("tensorflow", "torch", "jax"):
        repeat = min(repeat, 11)   # seconds each
    with tempfile.TemporaryDirectory() as cwd:
        t = paired({"base": _importer("numpy", cwd), "lib": _importer(lib, cwd)}, repeat, 0.0)
    return [{"lib": lib, "ms": t["median"]["lib"] * 1e3, "base_ms": t["median"]["base"] * 1e3,
             "ratio": ratio(t, "lib", "base")}]


def main(argv: Any = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lib", default="tapegrad", choices=LIBS)
    p.add_argument("--repeat", type=int, default=31)
    a = p.parse_args(argv)
    rows = measure(a.lib, repeat=a.repeat)
    r = rows[0]
    print(f"import {a.lib}: {r['ms']:.0f} ms, import numpy: {r['base_ms']:.0f} ms (ratio {r['ratio']:.2f})")
    return rows


if __name__ == "__main__":
    main()
