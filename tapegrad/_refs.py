"""Reference-count checks, kept out of the compiled modules (see setup.py).

The counts compared here are those seen from this module's own bytecode frames, so they hold
whether the caller is interpreted or compiled.
"""
from __future__ import annotations

import platform
import sys
from typing import Any

_CPYTHON = platform.python_implementation() == "CPython"
_count = sys.getrefcount


def unshared(var: Any) -> bool:
    """True when only ``var`` holds its snapshot tensor and only that tensor holds its array.

    Reads hand out the snapshot and views keep its array alive, so then no reader can observe an
    in-place change. Counts: the attribute, the local name here and ``getrefcount``'s argument.
    Elsewhere than CPython, always False (callers make a new array instead).
    """
    if not _CPYTHON:
        return False
    snap = var._snap
    if _count(snap) > 3:
        return False
    arr = snap._value
    return _count(arr) <= 3
