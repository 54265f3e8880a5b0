"""Python frames for the NumPy calls of compiled modules (this module is never compiled).

NumPy attributes a floating-point RuntimeWarning (overflow, divide by zero, invalid value) to the
innermost Python frame, and tapegrad silences those raised from its own modules, as TensorFlow
is silent (tapegrad/__init__.py). Compiled functions have no frames, so in the compiled build op
forwards and the engine's own array arithmetic run through these one-line callers.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np


def framed(f: Callable) -> Callable:
    """``f`` called from a frame of this module (specialised for one- and two-input ufuncs)."""
    nin = f.nin if isinstance(f, np.ufunc) else None
    if nin == 1:
        return lambda a: f(a)
    if nin == 2:
        return lambda a, b: f(a, b)
    return lambda *args, **kwargs: f(*args, **kwargs)


def call(f: Callable, *args: Any, **kwargs: Any) -> Any:
    """``f(*args, **kwargs)`` from a frame of this module."""
    return f(*args, **kwargs)
