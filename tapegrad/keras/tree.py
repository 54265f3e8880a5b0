"""``tapegrad.keras.tree``: Keras 3's functions on nested structures (``keras.tree``), read as
Keras reads them with optree: lists, tuples, namedtuples, dicts (by sorted key, rebuilt in their
own key order), ``OrderedDict`` and ``deque`` are containers; ``None`` and everything else are
leaves.

>>> from tapegrad import keras
>>> keras.tree.flatten({"b": [1, 2], "a": (3, None)})
[3, None, 1, 2]
>>> keras.tree.map_structure(lambda x, y: x + y, [1, (2, 3)], [10, (20, 30)])
[11, (22, 33)]
"""
from __future__ import annotations

import warnings
from typing import Any, Callable

from ._engine import _nest

__all__ = ["MAP_TO_NONE", "assert_same_paths", "assert_same_structure", "flatten", "flatten_with_path",
           "is_nested", "lists_to_tuples", "map_shape_structure", "map_structure", "map_structure_up_to",
           "pack_sequence_as", "traverse"]

_nested = _nest.keras_is_nested
_children = _nest.keras_children
_rebuild = _nest.keras_rebuild
_MISMATCH = "Structures don't have the same nested structure."


class MAP_TO_NONE:  # noqa: N801 (Keras's name)
    """Returned by :func:`traverse`'s ``func`` to put ``None`` in place of a substructure."""


def is_nested(structure: Any) -> bool:
    """Whether ``structure`` is a container (a list, tuple, namedtuple, dict or deque).

    >>> from tapegrad import keras
    >>> keras.tree.is_nested(42), keras.tree.is_nested({"foo": 42})
    (False, True)
    """
    return _nested(structure)


def flatten(structure: Any) -> list:
    """The leaves of ``structure``, dicts by sorted key (a leaf gives ``[leaf]``).

    >>> from tapegrad import keras
    >>> keras.tree.flatten([[1, 2], {"y": 4, "x": 3}])
    [1, 2, 3, 4]
    """
    return _nest.keras_flatten(structure)


def flatten_with_path(structure: Any) -> list:
    """``(path, leaf)`` pairs; a path is the tuple of keys and indices to the leaf.

    >>> from tapegrad import keras
    >>> keras.tree.flatten_with_path({"a": [5, 6]})
    [(('a', 0), 5), (('a', 1), 6)]
    """
    return list(zip(_nest.keras_paths(structure), _nest.keras_flatten(structure)))


def _leaf(x: Any, none_is_leaf: bool) -> bool:
    return not _nested(x) and (none_is_leaf or x is not None)


def _same_node(a: Any, b: Any) -> None:
    if type(a) is not type(b) or len(a) != len(b) or (isinstance(a, dict) and set(a) != set(b)):
        raise ValueError(f"{_MISMATCH} First structure: {a!r}, second structure: {b!r}.")


def _map(func: Callable, structures: tuple, none_is_leaf: bool, check: bool) -> Any:
    first = structures[0]
    if first is None and not none_is_leaf:
        if check and any(s is not None for s in structures[1:]):
            raise ValueError(_MISMATCH)
        return None
    if not _nested(first):
        if check and not all(_leaf(s, none_is_leaf) for s in structures):
            raise ValueError(_MISMATCH)
        return func(*structures)
    for s in structures[1:]:
        if not _nested(s):
            raise ValueError(_MISMATCH)
        _same_node(first, s)
    kids = [_children(s) for s in structures]
    return _rebuild(first, [_map(func, tuple(k[i] for k in kids), none_is_leaf, check)
                            for i in range(len(kids[0]))])


def map_structure(func: Callable, *structures: Any, none_is_leaf: bool = True) -> Any:
    """``func`` applied to the leaves of ``structures`` (all of one structure), in a structure like
    the first; ``none_is_leaf=False`` keeps ``None`` as an empty container (``func`` skips it).

    >>> from tapegrad import keras
    >>> keras.tree.map_structure(lambda x: x * 2, {"a": 1, "b": (2, None)}, none_is_leaf=False)
    {'a': 2, 'b': (4, None)}
    """
    if not structures:
        raise ValueError("Must provide at least one structure")
    return _map(func, structures, none_is_leaf, len(structures) > 1)


def map_structure_up_to(shallow_structure: Any, func: Callable, *structures: Any) -> Any:
    """``func`` applied to the substructures of ``structures`` found at the leaves of
    ``shallow_structure`` (which each structure must start like).

    >>> from tapegrad import keras
    >>> keras.tree.map_structure_up_to([None, None], len, [[1, 2], (3, 4, 5)])
    [2, 3]
    """
    if not structures:
        raise ValueError("Must provide at least one structure")

    def up_to(shallow: Any, subs: tuple) -> Any:
        if not _nested(shallow):
            return func(*subs)
        for s in subs:
            if not _nested(s):
                raise ValueError(f"{_MISMATCH} Expected a {type(shallow).__name__} like {shallow!r}, got {s!r}.")
            _same_node(shallow, s)
        kids = [_children(s) for s in subs]
        return _rebuild(shallow, [up_to(c, tuple(k[i] for k in kids)) for i, c in enumerate(_children(shallow))])
    return up_to(shallow_structure, structures)


def assert_same_structure(a: Any, b: Any, check_types: Any = None) -> None:
    """ValueError unless ``a`` and ``b`` have the same containers (types, lengths, keys) with leaves
    in the same places (``check_types`` is deprecated and has no effect, as in Keras 3).

    >>> from tapegrad import keras
    >>> keras.tree.assert_same_structure([1, (2, 3)], [4, (5, 6)])
    """
    if check_types is not None:
        warnings.warn("The `check_types` argument is deprecated and no longer has any effect"
                      + (", please remove." if check_types else ". For a looser check, use "
                         "`keras.tree.assert_same_paths()`, which considers `list`, `tuple`, "
                         "`namedtuple` and `deque` as matching"), DeprecationWarning, stacklevel=2)
    _map(lambda *x: None, (a, b), True, True)


def assert_same_paths(a: Any, b: Any) -> None:
    """ValueError unless ``a`` and ``b`` have the same set of leaf paths (container types aside).

    >>> from tapegrad import keras
    >>> keras.tree.assert_same_paths([1, 2], (3, 4))
    """
    a_paths, b_paths = set(_nest.keras_paths(a)), set(_nest.keras_paths(b))
    if a_paths != b_paths:
        msg = "`a` and `b` don't have the same paths."
        if a_paths - b_paths:
            msg += f"\nPaths in `a` missing in `b`:\n{a_paths - b_paths}"
        if b_paths - a_paths:
            msg += f"\nPaths in `b` missing in `a`:\n{b_paths - a_paths}"
        raise ValueError(msg)


def pack_sequence_as(structure: Any, flat_sequence: Any) -> Any:
    """The leaves of ``flat_sequence`` put into ``structure``'s containers (in :func:`flatten`'s order).

    >>> from tapegrad import keras
    >>> keras.tree.pack_sequence_as({"b": None, "a": [None, None]}, [1, 2, 3])
    {'b': 3, 'a': [1, 2]}
    """
    flat = list(flat_sequence)
    n = len(_nest.keras_flatten(structure))
    if n != len(flat):
        raise ValueError(f"Too {'few' if len(flat) < n else 'many'} leaves for the structure: it has "
                         f"{n} leaves, the flat sequence {len(flat)}.")
    it = iter(flat)
    return _nest.keras_map_structure(lambda _: next(it), structure)


def traverse(func: Callable, structure: Any, top_down: bool = True) -> Any:
    """``func`` applied to every substructure, depth first: where it returns ``None`` the
    substructure is kept (and, top down, traversed further), :class:`MAP_TO_NONE` puts ``None``,
    any other value replaces it. ``top_down=False`` visits the children before their parent.

    >>> from tapegrad import keras
    >>> keras.tree.traverse(lambda x: 0 if x == 3 else None, [1, [2, 3]])
    [1, [2, 0]]
    """
    def children() -> Any:
        if not _nested(structure):
            return structure
        return _rebuild(structure, [traverse(func, c, top_down=top_down) for c in _children(structure)])
    if top_down:
        ret = func(structure)
        if ret is None:
            return children()
    else:
        done = children()
        ret = func(done)
        if ret is None:
            return done
    return None if ret is MAP_TO_NONE else ret


def lists_to_tuples(structure: Any) -> Any:
    """Every list in ``structure`` made a tuple.

    >>> from tapegrad import keras
    >>> keras.tree.lists_to_tuples([1, {"a": [2]}])
    (1, {'a': (2,)})
    """
    return traverse(lambda x: tuple(x) if isinstance(x, list) else None, structure, top_down=False)


def _is_shape(x: Any) -> bool:
    return isinstance(x, (list, tuple)) and all(isinstance(e, (int, type(None))) for e in x)


def map_shape_structure(func: Callable, structure: Any) -> Any:
    """``func`` applied to every shape (a list or tuple of ints and ``None``) in ``structure``.

    >>> from tapegrad import keras
    >>> keras.tree.map_shape_structure(len, {"x": (None, 3), "y": [(2,), (4, 5)]})
    {'x': 2, 'y': [1, 2]}
    """
    if _is_shape(structure) or not _nested(structure):
        return func(structure)
    return _rebuild(structure, [map_shape_structure(func, c) for c in _children(structure)])
