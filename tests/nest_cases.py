"""Structures for tests/test_structures.py and tools/record_nest_cases.py: each builds one
structure around two or three given leaves, the same under TensorFlow and under tapegrad."""
from __future__ import annotations

import collections
import types
from collections import abc
from typing import Any, Callable


class _Field:
    def __init__(self, name: str) -> None:
        self.name = name


class AttrsLike:
    """A class as ``attrs`` makes one: fields listed in ``__attrs_attrs__`` (definition order)."""

    __attrs_attrs__ = (_Field("y"), _Field("x"))

    def __init__(self, y: Any, x: Any) -> None:
        self.y, self.x = y, x

    def __repr__(self) -> str:
        return f"AttrsLike(y={self.y!r}, x={self.x!r})"


class ReadOnlyMapping(abc.Mapping):
    """A Mapping made from (key, value) pairs."""

    def __init__(self, items: Any = ()) -> None:
        self._d = dict(items)

    def __getitem__(self, k: Any) -> Any:
        return self._d[k]

    def __iter__(self) -> Any:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __repr__(self) -> str:
        return f"ReadOnlyMapping({self._d!r})"


class Store(abc.MutableMapping):
    """A MutableMapping made empty (its constructor takes no items)."""

    def __init__(self) -> None:
        self._d: dict = {}

    def __getitem__(self, k: Any) -> Any:
        return self._d[k]

    def __setitem__(self, k: Any, v: Any) -> None:
        self._d[k] = v

    def __delitem__(self, k: Any) -> None:
        del self._d[k]

    def __iter__(self) -> Any:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __repr__(self) -> str:
        return f"Store({self._d!r})"


Point = collections.namedtuple("Point", "b a")


def _store(b: Any, a: Any) -> Store:
    s = Store()
    s["b"], s["a"] = b, a
    return s


def _defaultdict(b: Any, a: Any) -> collections.defaultdict:
    d = collections.defaultdict(list)
    d["b"], d["a"] = b, a
    return d


# name -> structure holding leaves (p, q, r): keys out of sorted order, so that order shows
CASES: dict[str, Callable[[Any, Any, Any], Any]] = {
    "list": lambda p, q, r: [p, q, r],
    "tuple": lambda p, q, r: (p, (q, r)),
    "namedtuple": lambda p, q, r: Point(p, [q, r]),
    "dict": lambda p, q, r: {"b": p, "a": [q, r]},
    "nested dict": lambda p, q, r: {"z": {"y": p, "x": q}, "a": (r,)},
    "OrderedDict": lambda p, q, r: collections.OrderedDict([("b", p), ("a", q), ("c", r)]),
    "defaultdict": lambda p, q, r: _defaultdict(p, (q, r)),
    "Mapping": lambda p, q, r: ReadOnlyMapping({"b": p, "a": q, "c": r}),
    "MutableMapping": lambda p, q, r: _store(p, [q, r]),
    "MappingProxyType": lambda p, q, r: types.MappingProxyType({"b": p, "a": q, "c": r}),
    "attrs": lambda p, q, r: AttrsLike(p, (q, r)),
    "deque": lambda p, q, r: collections.deque([p, q, r], maxlen=4),
    "None leaves": lambda p, q, r: [p, None, {"a": q, "b": (None, r)}],
}


def describe(x: Any, leaf: Callable[[Any], Any]) -> Any:
    """``x`` as JSON-able data: containers by type name and items, leaves through ``leaf``."""
    name = type(x).__name__
    if isinstance(x, abc.Mapping):
        return {"type": name, "items": [[repr(k), describe(v, leaf)] for k, v in x.items()]}
    if isinstance(x, (list, tuple, collections.deque)):
        return {"type": name, "items": [describe(v, leaf) for v in x]}
    if isinstance(x, AttrsLike):
        return {"type": name, "items": [describe(x.y, leaf), describe(x.x, leaf)]}
    return leaf(x)
