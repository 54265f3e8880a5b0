"""Sphinx configuration for the tapegrad documentation (``sphinx-build -W -b html docs <out>``)."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.abspath(".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # api_pages.py

project = "tapegrad"
author = "tapegrad contributors"
copyright = "tapegrad contributors"

import tapegrad  # noqa: E402

release = version = tapegrad.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "api_pages",                    # {api-page}: a namespace's summary table and entries
]
source_suffix = {".md": "markdown"}
master_doc = root_doc = "index"
exclude_patterns = ["_build", "**/.ipynb_checkpoints"]
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "none"          # signatures stay short; docstrings say what the types are
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "alabaster"
html_title = "tapegrad"
html_static_path: list[str] = []


def _link_other_pages(app, docname, source):
    """Pages written by other tools (docs/benchmarks.md, docs/reliability.md, ...) join the
    Reference toctree of the index, so every page is reachable and none is listed twice."""
    if docname != "index":
        return
    here = os.path.dirname(os.path.abspath(__file__))
    text = source[0]
    extra = sorted(name[:-3] for name in os.listdir(here)
                   if name.endswith(".md") and name != "index.md"
                   and f"\n{name[:-3]}\n" not in text)
    if extra:
        source[0] = text.replace("\napi/index\n```", "\napi/index\n" + "".join(f"{n}\n" for n in extra) + "```", 1)


def setup(app):
    app.connect("source-read", _link_other_pages)
