"""Nests of Keras values: lists, tuples (named ones too) and dicts, read leaf by leaf."""
from __future__ import annotations

from typing import Any, Callable


def flatten(x: Any) -> list:
    """The leaves of a nest of lists, tuples and dicts (dicts by sorted key)."""
    if isinstance(x, dict):
        return [leaf for k in sorted(x) for leaf in flatten(x[k])]
    if isinstance(x, (list, tuple)):
        return [leaf for v in x for leaf in flatten(v)]
    return [x]


def map_structure(fn: Callable, x: Any) -> Any:
    """``fn`` applied to every leaf of a nest, keeping its lists, tuples and dicts."""
    if isinstance(x, dict):
        return {k: map_structure(fn, v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        out = [map_structure(fn, v) for v in x]
        return out if isinstance(x, list) else type(x)(*out) if hasattr(x, "_fields") else tuple(out)
    return fn(x)
