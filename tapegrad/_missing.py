"""The AttributeError of tapegrad's namespaces for a name they lack (their module ``__getattr__``).

A TensorFlow name tapegrad does not cover yet says so and points to the migration guide; a name
tapegrad has in another namespace says where; a misspelt name gets a "did you mean".
"""
from __future__ import annotations

import sys

GUIDE = "docs/migrating.md#tensorflow-names-tapegrad-lacks"

# What to use instead of TensorFlow's commonly used names that tapegrad lacks; the table in the
# migration guide shows the same (tests/test_first_hour.py checks that they agree).
INSTEAD = {
    "bfloat16": "use tf.float16 or tf.float32",
}


def attribute_error(module: str, name: str) -> AttributeError:
    """The error for ``tapegrad.<module>.<name>`` (``module`` is ``""`` for the top level)."""
    qual = "tapegrad." + module if module else "tapegrad"
    msg = f"module {qual!r} has no attribute {name!r}"
    if name.startswith("_"):
        return AttributeError(msg)
    tfname = f"tf.{module}.{name}" if module else f"tf.{name}"
    elsewhere = [f"tf.{ns}.{name}" if ns else f"tf.{name}" for ns, names in _namespaces().items()
                 if ns != module and name in names]
    from ._tf_names import NAMES
    if name in NAMES.get(module, ()):
        use = (f"use {' or '.join(elsewhere)}" if elsewhere else
               INSTEAD.get(f"{module}.{name}" if module else name))
        return AttributeError(f"{msg}: tapegrad does not cover {tfname} yet."
                              + (f" Instead, {use}." if use else "")
                              + f" The migration guide says what to use instead: {GUIDE}")
    if elsewhere:
        return AttributeError(f"{msg}. tapegrad has {' and '.join(elsewhere)}.")
    import difflib
    close = difflib.get_close_matches(name, _namespaces().get(module, ()), n=3, cutoff=0.8)
    if close:
        return AttributeError(f"{msg}. Did you mean: {', '.join(repr(c) for c in close)}?")
    return AttributeError(msg)


def _namespaces() -> dict:
    """The public names of tapegrad's namespaces."""
    tf = sys.modules["tapegrad"]
    out = {}
    for ns in ("", "math", "nn", "linalg", "random", "signal", "image"):
        mod = getattr(tf, ns) if ns else tf
        names = getattr(mod, "__all__", None) or dir(mod)
        out[ns] = {n for n in names if not n.startswith("_") and n != "annotations"}
    return out
