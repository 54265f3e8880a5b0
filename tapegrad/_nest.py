"""Nested structures, as TensorFlow's ``nest`` reads them: the one structure module of the
package (``tf.nest``, ``GradientTape.gradient``, ``tf.function``, control flow, ``tf.data`` and
Keras all use it).

A structure is a leaf or a list, tuple, namedtuple, mapping (``dict``, ``OrderedDict``,
``defaultdict``, any ``collections.abc.Mapping``), other sequence (a ``deque``; not a string),
mapping view or ``attrs`` class of structures. Leaves come
in TensorFlow's order: sequences in order, mappings by sorted key (whatever order the mapping
keeps), ``attrs`` fields in definition order. ``None``, strings, arrays and tensors are leaves; a
composite tensor (a RaggedTensor) is a leaf unless ``expand_composites`` asks for its components.
A rebuilt mapping keeps its type and key order: a mutable mapping is made empty and filled, any
other with an iterable of ``(key, value)`` pairs (a ``MappingProxyType`` cannot be: TypeError, as
in TensorFlow).

Keras 3 reads nests with optree, a little differently, and Keras's modules use the ``keras_``
functions below: lists, tuples, namedtuples, ``dict``/``defaultdict`` by sorted key (keys that do
not compare: by type name, then key), ``OrderedDict`` and ``deque`` in their own order; every
other mapping and ``attrs`` classes are leaves.
"""
from __future__ import annotations

from collections import OrderedDict, abc, defaultdict, deque
from typing import Any, Callable

from ._tensor import CompositeTensor, Tensor, TensorShape


def _nested_type(t: type) -> bool:
    if t is TensorShape:
        return False  # (a tuple here, a leaf in TensorFlow)
    if issubclass(t, (list, tuple, abc.Mapping, abc.MappingView)) or hasattr(t, "__attrs_attrs__"):
        return True
    return issubclass(t, abc.Sequence) and not issubclass(t, (str, bytes, bytearray))  # (a deque, ...)


_NESTED: dict[type, bool] = {list: True, tuple: True, dict: True, Tensor: False, type(None): False,
                             str: False, float: False, int: False}  # per type, as TensorFlow caches it


def is_nested(x: Any) -> bool:
    """Whether ``x`` is a structure with children (not a leaf)."""
    t = type(x)
    k = _NESTED.get(t)
    if k is None:
        k = _NESTED[t] = _nested_type(t)
    return k


def sorted_keys(m: abc.Mapping) -> list:
    """A mapping's keys in TensorFlow's order (sorted)."""
    try:
        return sorted(m)
    except TypeError:
        raise TypeError(f"nest only supports mappings whose keys can be sorted; the keys "
                        f"{list(m)!r} cannot be compared with each other.") from None


def children(x: Any) -> list:
    """The children of a structure, in leaf order."""
    if isinstance(x, (list, tuple)):
        return list(x)
    if isinstance(x, abc.Mapping):
        return [x[k] for k in sorted_keys(x)]
    if hasattr(type(x), "__attrs_attrs__"):
        return [getattr(x, a.name) for a in type(x).__attrs_attrs__]
    return list(x)  # a sequence or a mapping view


def flatten_up_to(shallow: Any, value: Any) -> list | None:
    """``value``'s parts at the leaves of ``shallow``, each taken whole (a list where
    ``shallow`` has a TensorSpec is one part); None where the structures differ above them."""
    if not is_nested(shallow):
        return [value]
    if not is_nested(value) or len(shallow) != len(value) or (
            isinstance(shallow, abc.Mapping) and sorted_keys(shallow) != sorted_keys(value)):
        return None
    out: list = []
    for s, v in zip(children(shallow), children(value)):
        part = flatten_up_to(s, v)
        if part is None:
            return None
        out.extend(part)
    return out


def _rebuild(s: Any, items: list) -> Any:
    t = type(s)
    if t is list:
        return items
    if t is tuple:
        return tuple(items)
    if isinstance(s, abc.Mapping):
        vals = dict(zip(sorted_keys(s), items))
        if t is dict:
            return {k: vals[k] for k in s}
        if isinstance(s, abc.MutableMapping):
            out = t(s.default_factory) if isinstance(s, defaultdict) else t()
            for k in s:
                out[k] = vals[k]
            return out
        try:
            return t((k, vals[k]) for k in s)
        except TypeError as e:
            raise TypeError(f"Error creating an object of type {t} like {s!r}. Note that it must "
                            "accept a single positional argument representing an iterable of "
                            f"key-value pairs, in addition to self. Cause: {e}") from e
    if isinstance(s, abc.MappingView):
        return items  # (a view cannot be made: a list, as TensorFlow gives)
    if isinstance(s, tuple) and hasattr(s, "_fields") or hasattr(t, "__attrs_attrs__"):
        return t(*items)  # namedtuple, attrs
    return t(items)


def flatten(structure: Any, expand_composites: bool = False) -> list:
    """The leaves of ``structure`` in order (a leaf gives ``[leaf]``)."""
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
            stack.extend(reversed(children(y)))
        else:
            out.append(y)
    return out


def _pack(s: Any, it: Any) -> Any:
    # a module-level function, not a closure: a recursive closure would form a reference cycle
    # that keeps the results alive until the garbage collector runs
    if not is_nested(s):
        return next(it)
    return _rebuild(s, [_pack(c, it) for c in children(s)])


def pack_sequence_as(structure: Any, flat_sequence: Any, expand_composites: bool = False) -> Any:
    """``structure`` with its leaves replaced, in order, by the items of ``flat_sequence``."""
    if not isinstance(flat_sequence, (list, tuple)) and not is_nested(flat_sequence):
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


def packer(structure: Any) -> Callable[[list], Any]:
    """``lambda flat: pack_sequence_as(structure, flat)`` for a structure packed again and again
    (a replay's host calls): its lists, tuples and dicts are read once and rebuilt directly; other
    containers go through :func:`pack_sequence_as`."""
    def plan(s: Any, at: int) -> tuple:   # (a builder of ``s`` from ``flat``, the next leaf index)
        t = type(s)
        if t is list or t is tuple or t is dict:
            keys = sorted_keys(s) if t is dict else range(len(s))
            subs = {}
            for k in keys:
                subs[k], at = plan(s[k], at)
            if t is list:
                parts = list(subs.values())
                return (lambda flat: [b(flat) for b in parts]), at
            if t is tuple:
                parts = list(subs.values())
                return (lambda flat: tuple([b(flat) for b in parts])), at
            order = list(s)
            return (lambda flat: {k: subs[k](flat) for k in order}), at
        if not is_nested(s):
            return (lambda flat: flat[at]), at + 1
        lo, hi = at, at + len(flatten(s))
        return (lambda flat: pack_sequence_as(s, flat[lo:hi])), hi

    build, n = plan(structure, 0)

    def pack(flat: list) -> Any:
        if len(flat) != n:
            raise ValueError(f"Could not pack sequence. Structure had {n} atoms, but flat_sequence "
                             f"had {len(flat)} items.")
        return build(flat)
    return pack


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


def map_structure(fn: Callable, x: Any) -> Any:
    """``fn`` applied to every leaf of one structure, keeping its containers."""
    return pack_sequence_as(x, [fn(v) for v in flatten(x)])


def same_structure(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` nest alike (a mapping only matches a mapping with the same keys;
    sequence types are not compared)."""
    na = is_nested(a)
    if na != is_nested(b):
        return False
    if not na:
        return True
    ma = isinstance(a, abc.Mapping)
    if ma != isinstance(b, abc.Mapping):
        return False
    if ma and sorted_keys(a) != sorted_keys(b):
        return False
    ca, cb = children(a), children(b)
    return len(ca) == len(cb) and all(same_structure(p, q) for p, q in zip(ca, cb))


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
            kx, ky = sorted_keys(x), sorted_keys(y)
            if kx != ky:
                return ValueError, (f"The two dictionaries don't have the same set of keys. First "
                                    f"structure has keys {_describe(kx)}, while second structure "
                                    f"has keys {_describe(ky)}")
        cx, cy = children(x), children(y)
        if len(cx) != len(cy):
            return ValueError, (f"The two structures don't have the same number of elements. "
                                f"First structure: {_describe(x)}. Second structure: {_describe(y)}")
        stack.extend(reversed(list(zip(cx, cy))))
    return None


def assert_same_structure(nest1: Any, nest2: Any, check_types: bool = True) -> None:
    """Raise unless ``nest1`` and ``nest2`` nest alike (``tf.nest.assert_same_structure``)."""
    found = _mismatch(nest1, nest2, check_types)
    if found is None:
        return
    err, detail = found
    dots = (map_structure(lambda _: _DOT, s) for s in (nest1, nest2))
    raise err(f"The two structures don't have the same nested structure.\n\nFirst structure: "
              f"{_describe(nest1)}\n\nSecond structure: {_describe(nest2)}\n\nMore specifically: "
              f"{detail}\nEntire first structure:\n{next(dots)}\nEntire second structure:\n"
              f"{next(dots)}")


# ---- Keras 3's reading (optree's): the functions of tapegrad/keras/_tree.py

def _keras_nested(x: Any) -> bool:
    t = type(x)
    return t is list or t is tuple or t is dict or isinstance(x, (list, tuple, dict, deque))


def _keras_keys(d: dict) -> list:
    if isinstance(d, OrderedDict):
        return list(d)
    try:
        return sorted(d)
    except TypeError:
        try:
            return sorted(d, key=lambda k: (type(k).__qualname__, k))
        except TypeError:
            return list(d)


def _keras_children(x: Any) -> list:
    return [x[k] for k in _keras_keys(x)] if isinstance(x, dict) else list(x)


def keras_flatten(structure: Any) -> list:
    """The leaves of a Keras nest in Keras 3's order (``keras.tree.flatten``)."""
    if not _keras_nested(structure):
        return [structure]
    out: list = []
    stack = [structure]
    while stack:
        y = stack.pop()
        if _keras_nested(y):
            stack.extend(reversed(_keras_children(y)))
        else:
            out.append(y)
    return out


def keras_children(x: Any) -> list:
    """The children of a Keras nest's outer container, in Keras 3's order (dicts by sorted key)."""
    return _keras_children(x)


def keras_map_structure(fn: Callable, structure: Any) -> Any:
    """``fn`` applied to every leaf of a Keras nest, keeping its containers
    (``keras.tree.map_structure`` of one structure)."""
    if not _keras_nested(structure):
        return fn(structure)
    return keras_rebuild(structure, [keras_map_structure(fn, c) for c in _keras_children(structure)])


def keras_rebuild(structure: Any, items: list) -> Any:
    """``structure``'s outer container (of its type, dict keys in its own order) holding ``items``,
    its new children in Keras 3's order."""
    if isinstance(structure, dict):
        vals = dict(zip(_keras_keys(structure), items))
        if type(structure) is dict:
            return {k: vals[k] for k in structure}
        out = type(structure)(structure.default_factory) if isinstance(structure, defaultdict) \
            else type(structure)()
        for k in structure:
            out[k] = vals[k]
        return out
    if isinstance(structure, deque):
        return deque(items, structure.maxlen)
    return _rebuild(structure, items)


def keras_is_nested(x: Any) -> bool:
    """Whether Keras 3 reads ``x`` as a structure (``keras.tree.is_nested``)."""
    return _keras_nested(x)


def keras_same_structure(a: Any, b: Any) -> bool:
    """Whether two Keras nests have the same containers (types, lengths, keys) and leaf positions
    (``keras.tree.assert_same_structure`` not raising; a list and a tuple differ)."""
    na, nb = _keras_nested(a), _keras_nested(b)
    if not (na and nb):
        return na == nb
    if type(a) is not type(b) or len(a) != len(b):
        return False
    if isinstance(a, dict):
        return set(a) == set(b) and all(keras_same_structure(a[k], b[k]) for k in a)
    return all(keras_same_structure(x, y) for x, y in zip(a, b))


def keras_paths(structure: Any, prefix: tuple = ()) -> list:
    """The path (keys and indices) to each leaf of a Keras nest (``optree.tree_paths``)."""
    if not _keras_nested(structure):
        return [prefix]
    keys = _keras_keys(structure) if isinstance(structure, dict) else range(len(structure))
    return [p for k in keys for p in keras_paths(structure[k], prefix + (k,))]


def keras_pack_sequence_as(structure: Any, flat_sequence: Any) -> Any:
    """The leaves of ``flat_sequence`` (a list or tuple) put into ``structure``'s containers, in
    Keras 3's leaf order (``keras.tree.pack_sequence_as``); ValueError if the counts differ."""
    if not isinstance(flat_sequence, (list, tuple)):
        raise TypeError(f"pack_sequence_as needs a list or tuple of leaves; got {type(flat_sequence).__name__}.")
    n = len(keras_flatten(structure))
    if n != len(flat_sequence):
        raise ValueError(f"The structure has {n} leaves but the sequence has {len(flat_sequence)}.")
    it = iter(flat_sequence)
    return keras_map_structure(lambda _: next(it), structure)
