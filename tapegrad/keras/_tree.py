"""Nests of Keras values, read as Keras 3 reads them (optree's rules, from the package's one
structure module ``tapegrad._nest``): lists, tuples, namedtuples, dicts by sorted key,
``OrderedDict`` and ``deque`` in their own order; other mappings, ``attrs`` classes and ``None``
are leaves."""
from __future__ import annotations

from ._engine import _nest
from ._engine import keras_flatten as flatten, keras_map_structure as map_structure

is_nested = _nest.keras_is_nested
same_structure = _nest.keras_same_structure
paths = _nest.keras_paths
pack_sequence_as = _nest.keras_pack_sequence_as

__all__ = ["flatten", "is_nested", "map_structure", "pack_sequence_as", "paths", "same_structure"]
