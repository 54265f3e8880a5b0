"""``tapegrad.nest``: TensorFlow's ``tf.nest``, functions on nested structures.

A structure is a leaf or a list, tuple, namedtuple, mapping (dict, OrderedDict, ...) or
``attrs`` class of structures. Leaves come in TensorFlow's order: sequences in order, mappings
by sorted key (whatever order the mapping keeps), ``attrs`` fields in definition order.
``None``, strings, arrays and tensors are leaves.

>>> import tapegrad as tf
>>> s = {"b": [1, 2], "a": (3, None)}
>>> tf.nest.flatten(s)
[3, None, 1, 2]
>>> tf.nest.map_structure(lambda x: x, s) == s
True
"""
from __future__ import annotations

from collections import abc, defaultdict
from typing import Any, Callable

from ._tensor import CompositeTensor

__all__ = ["flatten", "pack_sequence_as", "map_structure", "assert_same_structure", "is_nested"]


def is_nested(seq: Any) -> bool:
    """Whether ``seq`` is a structure with children (not a leaf).

    >>> import tapegrad as tf
    >>> tf.nest.is_nested([1]), tf.nest.is_nested("ab"), tf.nest.is_nested({})
    (True, False, True)
    """
    return isinstance(seq, (list, tuple, abc.Mapping)) or hasattr(type(seq), "__attrs_attrs__")


def _sorted_keys(m: abc.Mapping) -> list:
    try:
        return sorted(m)
    except TypeError:
        raise TypeError(f"nest only supports mappings whose keys can be sorted; the keys "
                        f"{list(m)!r} cannot be compared with each other.") from None


def _children(x: Any) -> list:
    if isinstance(x, abc.Mapping):
        return [x[k] for k in _sorted_keys(x)]
    if not isinstance(x, (list, tuple)):  # attrs
        return [getattr(x, a.name) for a in type(x).__attrs_attrs__]
    return list(x)


def _rebuild(s: Any, items: list) -> Any:
    if isinstance(s, abc.Mapping):
        vals = dict(zip(_sorted_keys(s), items))
        if type(s) is dict:
            return {k: vals[k] for k in s}
        if isinstance(s, defaultdict):
            out = type(s)(s.default_factory)
            out.update((k, vals[k]) for k in s)
            return out
        return type(s)((k, vals[k]) for k in s)
    if isinstance(s, tuple) and hasattr(s, "_fields") or not isinstance(s, (list, tuple)):
        return type(s)(*items)  # namedtuple, attrs
    return type(s)(items)


def flatten(structure: Any, expand_composites: bool = False) -> list:
    """The leaves of ``structure`` in order (a leaf gives ``[leaf]``); with
    ``expand_composites``, a RaggedTensor gives its flat values and row splits.

    >>> import tapegrad as tf
    >>> tf.nest.flatten([1, {"y": 2, "x": (3,)}])
    [1, 3, 2]
    """
    if expand_composites:
        return [c for leaf in flatten(structure) for c in
                (leaf._components() if isinstance(leaf, CompositeTensor) else [leaf])]
    if not is_nested(structure):
        return [structure]
    out: list = []
    stack = [structure]
    while stack:
        y = stack.pop()
        if is_nested(y):
            stack.extend(reversed(_children(y)))
        else:
            out.append(y)
    return out


def _pack(s: Any, it: Any) -> Any:
    if not is_nested(s):
        return next(it)
    return _rebuild(s, [_pack(c, it) for c in _children(s)])


def pack_sequence_as(structure: Any, flat_sequence: Any, expand_composites: bool = False) -> Any:
    """``structure`` with its leaves replaced, in order, by the items of ``flat_sequence``.

    Raises ValueError when the counts differ, TypeError when ``flat_sequence`` is not a list
    or tuple.

    >>> import tapegrad as tf
    >>> tf.nest.pack_sequence_as({"b": [0, 0], "a": 0}, [1, 2, 3])
    {'b': [2, 3], 'a': 1}
    """
    if not is_nested(flat_sequence):
        raise TypeError(f"Attempted to pack value:\n  {flat_sequence!r}\ninto a structure, but "
                        f"found incompatible type `{type(flat_sequence)}` instead.")
    flat = list(flat_sequence)
    if expand_composites and any(isinstance(leaf, CompositeTensor) for leaf in flatten(structure)):
        flat = _composites_from(structure, flat)
    if not is_nested(structure):
        if len(flat) != 1:
            raise ValueError(f"The target structure is of type `{type(structure)}`\n  "
                             f"{structure!r}\nHowever the input is a sequence "
                             f"({type(flat_sequence)}) of length {len(flat)}.\n  "
                             f"{flat_sequence!r}\nnest cannot guarantee that it is safe to map one "
                             "to the other.")
        return flat[0]
    n = len(flatten(structure))
    if n != len(flat):
        raise ValueError(f"Could not pack sequence. Structure had {n} atoms, but flat_sequence "
                         f"had {len(flat)} items.  Structure: {structure}, flat_sequence: "
                         f"{flat_sequence}.")
    return _pack(structure, iter(flat))


def _composites_from(structure: Any, flat: list) -> list:
    """``flat`` (with a RaggedTensor's components where ``structure`` has one) as leaves."""
    it, leaves = iter(flat), []
    for leaf in flatten(structure):
        if isinstance(leaf, CompositeTensor):
            n = len(leaf._components())
            parts = [next(it, None) for _ in range(n)]
            if any(p is None for p in parts):
                raise ValueError("Could not pack sequence: too few items for the components of "
                                 f"{type(leaf).__name__} leaves of the structure.")
            leaves.append(leaf._from_components(parts))
        else:
            leaves.append(next(it, None))
    rest = list(it)
    if rest:
        raise ValueError(f"Could not pack sequence: {len(rest)} items more than the structure's "
                         "components.")
    return leaves


class _Dot:
    __slots__ = ()

    def __repr__(self) -> str:
        return "."


_DOT = _Dot()


def _describe(x: Any) -> str:
    return f"type={type(x).__name__} str={x}"


def _same_type(a: Any, b: Any) -> bool:
    if type(a) is type(b) or isinstance(a, abc.Mapping) and isinstance(b, abc.Mapping):
        return True
    fa, fb = getattr(a, "_fields", None), getattr(b, "_fields", None)
    return (isinstance(a, tuple) and isinstance(b, tuple) and fa is not None and fa == fb
            and type(a).__name__ == type(b).__name__)


def _mismatch(a: Any, b: Any, check_types: bool) -> tuple[type, str] | None:
    """``(error type, detail)`` for the first difference between the structures, or None."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        nx, ny = is_nested(x), is_nested(y)
        if nx != ny:
            seq, leaf = (x, y) if nx else (y, x)
            return ValueError, (f'Substructure "{_describe(seq)}" is a sequence, while '
                                f'substructure "{_describe(leaf)}" is not')
        if not nx:
            continue
        if check_types and not _same_type(x, y):
            return TypeError, (f"The two namedtuples don't have the same sequence type. First "
                               f"structure {_describe(x)} has type {type(x).__name__}, while "
                               f"second structure {_describe(y)} has type {type(y).__name__}")
        if isinstance(x, abc.Mapping) and isinstance(y, abc.Mapping):
            kx, ky = _sorted_keys(x), _sorted_keys(y)
            if kx != ky:
                return ValueError, (f"The two dictionaries don't have the same set of keys. First "
                                    f"structure has keys {_describe(kx)}, while second structure "
                                    f"has keys {_describe(ky)}")
        cx, cy = _children(x), _children(y)
        if len(cx) != len(cy):
            return ValueError, (f"The two structures don't have the same number of elements. "
                                f"First structure: {_describe(x)}. Second structure: {_describe(y)}")
        stack.extend(reversed(list(zip(cx, cy))))
    return None


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
    found = _mismatch(nest1, nest2, check_types)
    if found is None:
        return
    err, detail = found
    dots = (map_structure(lambda _: _DOT, s) for s in (nest1, nest2))
    raise err(f"The two structures don't have the same nested structure.\n\nFirst structure: "
              f"{_describe(nest1)}\n\nSecond structure: {_describe(nest2)}\n\nMore specifically: "
              f"{detail}\nEntire first structure:\n{next(dots)}\nEntire second structure:\n"
              f"{next(dots)}")


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
        assert_same_structure(structure[0], other, check_types=check_types)
    expand = bool(kwargs.get("expand_composites", False))
    flats = [flatten(s, expand) for s in structure]
    return pack_sequence_as(structure[0], [func(*xs) for xs in zip(*flats)], expand_composites=expand)
