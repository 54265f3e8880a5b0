"""``tapegrad.keras``: Keras 3's API on tapegrad's ops (the keras-core work replaces this file with
the package's lazy table; until then the submodules load on first use here)."""
from __future__ import annotations

import importlib

_SUBMODULES = ("losses", "metrics", "utils", "ops", "applications")


def __getattr__(name: str) -> object:
    if name not in _SUBMODULES:
        raise AttributeError(f"module 'tapegrad.keras' has no attribute {name!r}")
    return importlib.import_module(f".{name}", __name__)
