"""The documentation site builds with warnings as errors (``sphinx-build -W -b html docs <out>``)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_docs_build_without_warnings(tmp_path):
    pytest.importorskip("sphinx", reason="sphinx is not installed (pip install -e '.[docs]')")
    pytest.importorskip("myst_parser", reason="myst-parser is not installed (pip install -e '.[docs]')")
    out = tmp_path / "html"
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         str(ROOT / "docs"), str(out), "-d", str(tmp_path / "doctrees")],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-5000:]
    for page in ("index", "api/index", "differences", "gradient", "troubleshooting"):
        assert (out / f"{page}.html").exists(), page
    # the API reference really came from the docstrings
    api = "".join(p.read_text(encoding="utf-8") for p in (out / "api").glob("*.html"))
    for name in ("GradientTape", "ForwardAccumulator", "custom_gradient", "UnconnectedGradientError",
                 "save_variables", "trainable_variables", "ExponentialDecay", "to_dot"):
        assert name in api, name
    # each namespace on its page, and Model's methods from its (undocumented) trainer mixin
    for page, entry in (("keras_layers", "tapegrad.keras.layers.Dense"),
                        ("keras_models", "tapegrad.keras.models.Model.fit"),
                        ("keras_callbacks", "tapegrad.keras.callbacks.EarlyStopping"),
                        ("data", "tapegrad.data.Dataset.map"),
                        ("distribute", "tapegrad.distribute.MirroredStrategy")):
        assert f'id="{entry}"' in (out / "api" / f"{page}.html").read_text(encoding="utf-8"), entry
    index = (out / "api" / "index.html").read_text(encoding="utf-8")   # the table of namespaces
    assert 'href="keras_layers.html"' in index and "tf.keras.layers" in index


def test_every_public_namespace_has_an_api_page():
    """Walking the public names from ``tapegrad`` finds each namespace (``tf.keras.layers``); each has
    a page in docs/api (``.. api-page:: tapegrad.keras.layers``) reachable from the index."""
    import sys

    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import api_pages
    finally:
        sys.path.remove(str(ROOT / "docs"))
    missing = sorted(m for m in api_pages.namespaces() if m not in api_pages.pages())
    assert not missing, ("these namespaces have no API page: add docs/api/<name>.md with "
                         "'.. api-page:: <module>' (see docs/api/data.md), link it from its parent's "
                         f"toctree and add the module to HOMES in docs/api_pages.py: {missing}")
    unhomed = sorted(m for m in api_pages.namespaces() if m not in api_pages.HOMES)
    assert not unhomed, f"add these namespaces to HOMES in docs/api_pages.py: {unhomed}"


def test_differences_page_lists_every_recorded_difference():
    """Each entry of DIFFERENCES in tests/test_tf_programs.py is named on docs/differences.md."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_tf_programs_for_docs", ROOT / "tests" / "test_tf_programs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    page = (ROOT / "docs" / "differences.md").read_text(encoding="utf-8")
    missing = sorted(name for name in module.DIFFERENCES if f"`{name}`" not in page)
    assert not missing, ("docs/differences.md does not list these deliberate differences (add a row "
                         f"naming each program in its last column): {missing}")
