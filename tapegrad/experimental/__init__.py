"""``tapegrad.experimental``: TensorFlow's ``tf.experimental`` names that tapegrad has, for now
:mod:`tapegrad.experimental.numpy` (``tf.experimental.numpy``, NumPy's API on tensors) and
``Optional`` (what ``iterator.get_next_as_optional()`` returns)."""
from __future__ import annotations

import typing as _typing

from ._optional import Optional

__all__ = ["Optional", "numpy"]

if _typing.TYPE_CHECKING:
    from . import numpy  # noqa: F401
else:
    def __getattr__(name: str) -> object:
        if name == "numpy":
            import importlib
            return importlib.import_module(".numpy", __name__)
        raise AttributeError(f"module 'tapegrad.experimental' has no attribute {name!r}: tapegrad "
                             f"does not cover tf.experimental.{name} yet (it has tf.experimental.numpy "
                             f"and tf.experimental.Optional).")
