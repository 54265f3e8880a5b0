"""The code passes the linter's checks configured in pyproject.toml (pyflakes: undefined names,
unused imports, redefinitions), where ruff is installed (the test extra installs it)."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_ruff_finds_nothing():
    pytest.importorskip("ruff")
    ruff = shutil.which("ruff") or shutil.which("ruff", path=os.path.dirname(sys.executable))
    cmd = [ruff] if ruff else [sys.executable, "-m", "ruff"]
    done = subprocess.run(cmd + ["check", "--no-cache", "tapegrad", "tests", "tools", "benchmarks", "docs"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
