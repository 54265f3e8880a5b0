"""``tapegrad.experimental``: TensorFlow's ``tf.experimental`` names that tapegrad has, for now
:mod:`tapegrad.experimental.numpy` (``tf.experimental.numpy``, NumPy's API on tensors),
:mod:`tapegrad.experimental.dtensor` (``tf.experimental.dtensor`` on one client),
``Optional`` (what ``iterator.get_next_as_optional()`` returns), and extension types
(``ExtensionType``, ``BatchableExtensionType``, their specs, and ``dispatch_for_api`` and its
elementwise forms: docs/extension_types.md)."""
from __future__ import annotations

import typing as _typing

from ._extension_type import (BatchableExtensionType, ExtensionType, ExtensionTypeBatchEncoder, ExtensionTypeSpec,
                              dispatch_for_api, dispatch_for_binary_elementwise_apis,
                              dispatch_for_unary_elementwise_apis, unregister_dispatch_for)
from ._optional import Optional

__all__ = ["Optional", "numpy", "dtensor", "ExtensionType", "BatchableExtensionType", "ExtensionTypeSpec",
           "ExtensionTypeBatchEncoder", "dispatch_for_api", "dispatch_for_unary_elementwise_apis",
           "dispatch_for_binary_elementwise_apis", "unregister_dispatch_for"]

if _typing.TYPE_CHECKING:
    from . import dtensor, numpy  # noqa: F401
else:
    def __getattr__(name: str) -> object:
        if name in ("numpy", "dtensor"):
            import importlib
            return importlib.import_module("." + name, __name__)
        raise AttributeError(f"module 'tapegrad.experimental' has no attribute {name!r}: tapegrad "
                             f"does not cover tf.experimental.{name} yet (it has tf.experimental.numpy, "
                             f"tf.experimental.dtensor, tf.experimental.Optional and extension types).")
