"""Flatten and rebuild nests of lists, tuples, namedtuples and dicts (dicts in sorted-key order)."""
from __future__ import annotations

from typing import Any, Callable


def _is_seq(x: Any) -> bool:
    return isinstance(x, (list, tuple, dict))


def _children(x: Any) -> list:
    if isinstance(x, dict):
        return [x[k] for k in _sorted_keys(x)]
    return list(x)


def _sorted_keys(d: dict) -> list:
    try:
        return sorted(d)
    except TypeError:
        return sorted(d, key=repr)


def flatten(x: Any) -> list:
    """Leaves of ``x`` in order; ``None`` is a leaf."""
    if not _is_seq(x):
        return [x]
    out: list = []
    stack = [x]
    while stack:
        y = stack.pop()
        if _is_seq(y):
            stack.extend(reversed(_children(y)))
        else:
            out.append(y)
    return out


def pack_sequence_as(structure: Any, flat: list) -> Any:
    """Rebuild ``structure`` with leaves taken from ``flat`` in order."""
    return _build(structure, iter(flat))


def _build(s: Any, it: Any) -> Any:
    # a module-level function, not a closure: a recursive closure would form a reference cycle
    # that keeps the results alive until the garbage collector runs
    if not _is_seq(s):
        return next(it)
    if isinstance(s, dict):
        vals = {k: _build(s[k], it) for k in _sorted_keys(s)}
        return {k: vals[k] for k in s} if type(s) is dict else type(s)((k, vals[k]) for k in s)
    items = [_build(c, it) for c in s]
    if isinstance(s, tuple) and hasattr(s, "_fields"):
        return type(s)(*items)
    return type(s)(items)


def map_structure(fn: Callable, x: Any) -> Any:
    return pack_sequence_as(x, [fn(v) for v in flatten(x)])


def same_structure(a: Any, b: Any) -> bool:
    if _is_seq(a) != _is_seq(b):
        return False
    if not _is_seq(a):
        return True
    if isinstance(a, dict) != isinstance(b, dict):
        return False
    if isinstance(a, dict) and _sorted_keys(a) != _sorted_keys(b):
        return False
    ca, cb = _children(a), _children(b)
    return len(ca) == len(cb) and all(same_structure(p, q) for p, q in zip(ca, cb))
