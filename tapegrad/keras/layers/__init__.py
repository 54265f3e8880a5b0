"""``tapegrad.keras.layers``: Keras 3's layers. Each family's module loads on first use.

>>> from tapegrad import keras
>>> keras.layers.Dense(3, activation="relu").units
3
"""
from __future__ import annotations

import importlib
import typing as _typing

# layer name -> the module (in this package) that defines it; a family adds its rows here.
_LAZY = {
    **dict.fromkeys(["Dense", "Flatten", "Reshape", "Activation", "Dropout", "Lambda", "ReLU",
                     "LeakyReLU", "Softmax", "Add", "Multiply", "Concatenate", "add", "multiply",
                     "concatenate"], ".core"),
    **dict.fromkeys(["Layer", "InputSpec"], ".._layer"),
    **dict.fromkeys(["Input", "InputLayer"], ".._model"),
}

if _typing.TYPE_CHECKING:
    from .._layer import InputSpec, Layer  # noqa: F401
    from .._model import Input, InputLayer  # noqa: F401
    from .core import (Activation, Add, Concatenate, Dense, Dropout, Flatten, Lambda,  # noqa: F401
                       LeakyReLU, Multiply, ReLU, Reshape, Softmax, add, concatenate, multiply)
else:
    def __getattr__(name: str) -> object:
        where = _LAZY.get(name)
        if where is None:
            import difflib
            close = difflib.get_close_matches(name, _LAZY, n=3, cutoff=0.7)
            raise AttributeError(f"module 'tapegrad.keras.layers' has no attribute {name!r}"
                                 + (f". Did you mean: {', '.join(map(repr, close))}?" if close else ""))
        value = getattr(importlib.import_module(where, __name__), name)
        globals()[name] = value
        return value


def __dir__() -> list:
    return sorted(set(globals()) | set(_LAZY))
