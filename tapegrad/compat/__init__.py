"""``tf.compat``: TensorFlow's conversion helpers (``as_bytes``, ``as_str``, ``as_text``,
``path_to_str``, ``dimension_value``, ``forward_compatible``), ``v2`` (tapegrad itself) and ``v1``
(TensorFlow 1's API as TF2 keeps it: graphs, sessions and placeholders, ``train``'s optimizers,
``losses``, ``nn``, variable scopes, name-based checkpoints; not estimators).

>>> import tapegrad as tf
>>> tf.compat.as_bytes("é"), tf.compat.as_str(b"abc"), tf.compat.dimension_value(tf.TensorShape([3])[0])
(b'\\xc3\\xa9', 'abc', 3)
"""
from __future__ import annotations

import datetime
import os
from typing import Any

from .._dimension import Dimension
from .._tensor import TensorShape

__all__ = ["as_bytes", "as_str", "as_str_any", "as_text", "dimension_at_index", "dimension_value",
           "forward_compatibility_horizon", "forward_compatible", "path_to_str", "v1", "v2"]


def as_bytes(bytes_or_text: Any, encoding: str = "utf-8") -> bytes:
    """``bytes_or_text`` as bytes (text encoded with ``encoding``)."""
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text: Any, encoding: str = "utf-8") -> str:
    """``bytes_or_text`` as text (bytes decoded with ``encoding``)."""
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text


def as_str_any(value: Any, encoding: str = "utf-8") -> str:
    """``value`` as text: bytes decoded, anything else through ``str``."""
    return as_str(value, encoding) if isinstance(value, bytes) else str(value)


def path_to_str(path: Any) -> Any:
    """A path-like object as its string (anything else unchanged)."""
    return os.fspath(path) if isinstance(path, os.PathLike) else path


def dimension_value(dimension: Any) -> int | None:
    """A dimension's value, an ``int`` or ``None``: a ``tf.compat.v1.Dimension``'s ``value``,
    anything else (an entry of a ``TensorShape``) unchanged."""
    return dimension.value if isinstance(dimension, Dimension) else dimension


def dimension_at_index(shape: Any, index: int) -> Dimension:
    """Dimension ``index`` of ``shape`` as a ``tf.compat.v1.Dimension`` (``Dimension(None)`` when
    the rank is unknown), as TensorFlow's."""
    shape = TensorShape(shape)
    return Dimension(None) if shape.rank is None else shape.dims[index]


_HORIZON = [datetime.date(2025, 12, 1)]  # (TensorFlow 2.21's forward-compatibility horizon)


def forward_compatible(year: int, month: int, day: int) -> bool:
    """Whether the forward-compatibility horizon is past the date (TensorFlow's graph-version rule;
    nothing in tapegrad depends on it)."""
    return _HORIZON[0] > datetime.date(year, month, day)


class forward_compatibility_horizon:  # noqa: N801  (TensorFlow's name)
    """A context in which the horizon is the given date (for tests of graph-version code)."""

    def __init__(self, year: int, month: int, day: int) -> None:
        self._date = datetime.date(year, month, day)

    def __enter__(self) -> None:
        self._old = _HORIZON[0]
        _HORIZON[0] = self._date

    def __exit__(self, *exc: Any) -> None:
        _HORIZON[0] = self._old


def __getattr__(name: str) -> Any:
    if name == "v1":  # (loaded on first use; `from . import v1` here would ask this function again)
        import importlib
        return importlib.import_module(".v1", __name__)
    if name == "v2":  # (tapegrad itself, which the package registers as tapegrad.compat.v2)
        import sys
        return sys.modules[__name__ + ".v2"]
    raise AttributeError(f"module 'tapegrad.compat' has no attribute {name!r}")
