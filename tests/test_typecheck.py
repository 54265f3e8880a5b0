"""The README's and the docs' Python examples type-check under mypy, as a user's mypy sees tapegrad.

Each ```python block becomes a module; mypy checks them all against this checkout of tapegrad
(``MYPYPATH``; tapegrad's own modules are followed silently, see ``[tool.mypy]`` in pyproject.toml).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("**/*.md"))


def test_docs_examples_type_check(tmp_path):
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[test]')")
    names = []
    for f in FILES:
        for i, code in enumerate(re.findall(r"```python\n(.*?)```", f.read_text(encoding="utf-8"), re.S)):
            name = f"{f.stem}_{i}.py"
            (tmp_path / name).write_text(code, encoding="utf-8")
            names.append(name)
    assert len(names) > 20
    env = dict(os.environ, MYPYPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                          "--no-incremental", "--cache-dir", os.devnull, *names],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]
