"""Warnings at the user's line.

tapegrad silences the floating-point RuntimeWarnings NumPy raises from its modules (ops give
inf/nan as IEEE arithmetic says, silently, as TensorFlow does: see ``tapegrad/__init__.py``); the
warnings it means to give go through :func:`warn_outside`, which names the user's line however
deep in tapegrad it is raised.
"""
from __future__ import annotations

import os
import sys
import warnings
from typing import Any

_HERE = os.path.dirname(os.path.abspath(__file__))
_INSIDE = (_HERE + os.sep, os.path.dirname(os.path.realpath(__file__)) + os.sep, "<frozen importlib")


def warn_outside(message: str, category: type = UserWarning, also: tuple = ()) -> None:
    """Warn at the first frame outside tapegrad (and the import machinery): the user's line.
    ``also``: more folders (ending in a separator) whose frames are not the user's.

    Python's default filter shows it once per call site (TensorFlow logs such warnings once per
    process). It also escapes tapegrad's own filter of RuntimeWarnings.
    """
    inside = _INSIDE + also
    f: Any = sys._getframe(1)
    while f is not None and f.f_code.co_filename.startswith(inside):
        f = f.f_back
    if f is None:
        warnings.warn(message, category, stacklevel=2)
        return
    g = f.f_globals
    warnings.warn_explicit(message, category, f.f_code.co_filename, f.f_lineno,
                           module=g.get("__name__", "tapegrad"),
                           registry=g.setdefault("__warningregistry__", {}))
