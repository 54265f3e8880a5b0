"""Sphinx configuration for the tapegrad documentation (``sphinx-build -W -b html docs <out>``)."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.abspath(".."))

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
