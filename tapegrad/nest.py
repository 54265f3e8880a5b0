"""``tapegrad.nest``: TensorFlow's ``tf.nest``, functions on nested structures.

A structure is a leaf or a list, tuple, namedtuple, mapping (dict, OrderedDict, ...) or
``attrs`` class of structures. Leaves come in TensorFlow's order: sequences in order, mappings
by sorted key (whatever order the mapping keeps), ``attrs`` fields in definition order.
``None``, strings, arrays and tensors are leaves. The structures are those of
``GradientTape.gradient``, ``tf.function`` and Keras too: all read them with ``tapegrad._nest``.

>>> import tapegrad as tf
>>> s = {"b": [1, 2], "a": (3, None)}
>>> tf.nest.flatten(s)
[3, None, 1, 2]
>>> tf.nest.map_structure(lambda x: x, s) == s
True
"""
from __future__ import annotations

from typing import Any, Callable

from . import _nest

__all__ = ["flatten", "pack_sequence_as", "map_structure", "assert_same_structure", "is_nested"]


def is_nested(seq: Any) -> bool:
    """Whether ``seq`` is a structure with children (not a leaf).

    >>> import tapegrad as tf
    >>> tf.nest.is_nested([1]), tf.nest.is_nested("ab"), tf.nest.is_nested({})
    (True, False, True)
    """
    return _nest.is_nested(seq)


def flatten(structure: Any, expand_composites: bool = False) -> list:
    """The leaves of ``structure`` in order (a leaf gives ``[leaf]``); with
    ``expand_composites``, a RaggedTensor gives its flat values and row splits.

    >>> import tapegrad as tf
    >>> tf.nest.flatten([1, {"y": 2, "x": (3,)}])
    [1, 3, 2]
    """
    return _nest.flatten(structure, expand_composites)


def pack_sequence_as(structure: Any, flat_sequence: Any, expand_composites: bool = False) -> Any:
    """``structure`` with its leaves replaced, in order, by the items of ``flat_sequence``.

    Raises ValueError when the counts differ, TypeError when ``flat_sequence`` is not a list
    or tuple, or when a mapping type cannot be rebuilt from ``(key, value)`` pairs (a
    ``MappingProxyType``).

    >>> import tapegrad as tf
    >>> tf.nest.pack_sequence_as({"b": [0, 0], "a": 0}, [1, 2, 3])
    {'b': [2, 3], 'a': 1}
    """
    return _nest.pack_sequence_as(structure, flat_sequence, expand_composites)


def assert_same_structure(nest1: Any, nest2: Any, check_types: bool = True,
                          expand_composites: bool = False) -> None:
    """Raise unless ``nest1`` and ``nest2`` have the same nesting and leaf count.

    ValueError for a different nesting, number of elements or set of mapping keys; TypeError,
    with ``check_types``, for different sequence types (any two mappings count as the same,
    as do namedtuples of the same name and fields).

    >>> import tapegrad as tf
    >>> tf.nest.assert_same_structure([1, (2,)], ["a", ("b",)])
    >>> tf.nest.assert_same_structure([1, 2], (1, 2), check_types=False)
    """
    _nest.assert_same_structure(nest1, nest2, check_types)


def map_structure(func: Callable, *structure: Any, **kwargs: Any) -> Any:
    """``func`` applied leaf by leaf to one or more structures of the same shape.

    Keyword arguments: ``check_types`` (default True, as in :func:`assert_same_structure`)
    and ``expand_composites`` (a RaggedTensor's flat values and row splits are leaves).

    >>> import tapegrad as tf
    >>> tf.nest.map_structure(lambda a, b: a + b, [1, (2,)], [10, (20,)])
    [11, (22,)]
    """
    if not callable(func):
        raise TypeError(f"func must be callable, got: {func}")
    if not structure:
        raise ValueError("Must provide at least one structure")
    bad = [k for k in kwargs if k not in ("check_types", "expand_composites")]
    if bad:
        raise ValueError("Only valid keyword arguments are `check_types` and "
                         f"`expand_composites`, not: `{'`, `'.join(bad)}`")
    check_types = kwargs.get("check_types", True)
    for other in structure[1:]:
        _nest.assert_same_structure(structure[0], other, check_types=check_types)
    expand = bool(kwargs.get("expand_composites", False))
    flats = [_nest.flatten(s, expand) for s in structure]
    return _nest.pack_sequence_as(structure[0], [func(*xs) for xs in zip(*flats)], expand)
