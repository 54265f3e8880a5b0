"""String values: how Python and NumPy text becomes a ``tf.string`` tensor's value.

A string tensor holds a NumPy object array of ``bytes`` (a 0-d one for a scalar), as
TensorFlow's ``.numpy()`` shows it; ``str`` is encoded as UTF-8 on the way in.
"""
from __future__ import annotations

from typing import Any

import numpy as np


def _enc(e: Any) -> bytes:
    t = type(e)
    if t is bytes:
        return e
    if t is str:
        return e.encode("utf-8")
    if isinstance(e, (str, bytes)):  # np.str_, np.bytes_ and other subclasses
        return e.encode("utf-8") if isinstance(e, str) else bytes(e)
    raise ValueError("Can't convert Python sequence with mixed types to Tensor: a string "
                     f"tensor holds str or bytes only, got {e!r} of type {type(e).__name__}. "
                     "Convert numbers with tf.strings.as_string, or use one type throughout.")


_encode = np.frompyfunc(_enc, 1, 1)


def to_bytes(value: Any) -> np.ndarray:
    """``value`` (str, bytes, a nested list of them, or a NumPy str/bytes/object array) as a
    read-only object array of bytes. Mixed types or ragged lists raise ValueError."""
    if isinstance(value, np.ndarray) and value.dtype.kind in "US":
        arr = value.astype(object)
    else:
        arr = np.array(value, dtype=object)
    out = np.asarray(_encode(arr), dtype=object)
    out.flags.writeable = False
    return out


def empty(shape: Any) -> np.ndarray:
    """An object array of ``shape`` holding ``b""`` (what ``tf.zeros`` gives for strings)."""
    out = np.full(shape, b"", dtype=object)
    out.flags.writeable = False
    return out


def held(out: Any) -> Any:
    """An op's output as a tensor value: the bare ``bytes`` that NumPy gives for one element
    of an object array (indexing, a ufunc on 0-d arrays) becomes a 0-d object array."""
    if type(out) is bytes:
        out = np.array(out, dtype=object)
    return out
