"""``tapegrad.data`` (``tf.data``): input pipelines, with TensorFlow 2's ``tf.data.Dataset`` API.

A :class:`Dataset` is built from a source (``from_tensor_slices``, ``from_tensors``,
``from_generator``, ``range``, ``zip``) and transformations (``map``, ``filter``, ``shuffle``,
``batch``, ``repeat``, ...); it runs lazily when iterated and yields tapegrad tensors. What is
covered and how it differs from TensorFlow: docs/data.md.

>>> import tapegrad as tf, numpy as np
>>> x, y = np.arange(10, dtype=np.float32), np.arange(10) % 2
>>> ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(10, seed=0).batch(4)
>>> [int(len(b)) for a, b in ds]
[4, 4, 2]
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import experimental
from ._dataset import (AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset, OwnedIterator,
                       Options, ThreadingOptions, _NumpyIterator as NumpyIterator)
from ._records import TFRecordDataset
from ._structure import DatasetSpec, IteratorSpec
from ._text import FixedLengthRecordDataset, TextLineDataset

__all__ = ["Dataset", "Iterator", "OwnedIterator", "Options", "AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY",
           "experimental", "TextLineDataset", "TFRecordDataset", "DatasetSpec", "IteratorSpec",
           "NumpyIterator", "ThreadingOptions",
           "FixedLengthRecordDataset"]

if not TYPE_CHECKING:
    def __getattr__(name: str) -> object:
        if name.startswith("_"):
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        import difflib
        close = difflib.get_close_matches(name, __all__, n=3, cutoff=0.8)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}: tapegrad covers "
                             f"tf.data.{', tf.data.'.join(__all__)} (docs/data.md)."
                             + (f" Did you mean: {', '.join(close)}?" if close else ""))

Iterator = OwnedIterator
