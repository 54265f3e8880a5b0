"""Nests of Keras values, read as Keras 3 reads them (optree's rules, from the package's one
structure module ``tapegrad._nest``): lists, tuples, namedtuples, dicts by sorted key,
``OrderedDict`` and ``deque`` in their own order; other mappings, ``attrs`` classes and ``None``
are leaves."""
from __future__ import annotations

from ._engine import keras_flatten as flatten, keras_map_structure as map_structure

__all__ = ["flatten", "map_structure"]
