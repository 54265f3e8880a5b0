"""``tapegrad.lookup``: TensorFlow's ``tf.lookup`` tables, which map keys (strings or integers)
to values: ``StaticHashTable`` and ``StaticVocabularyTable`` filled once by an initializer
(``KeyValueTensorInitializer``, ``TextFileInitializer``, ``tf.data.experimental.DatasetInitializer``),
and the mutable ``experimental.MutableHashTable`` and ``experimental.DenseHashTable``. Lookups
take Tensor, RaggedTensor and SparseTensor keys, work inside ``tf.function`` and ``Dataset.map``,
and are constants to a tape. docs/strings.md says what exists and how it differs from TensorFlow.

>>> import tapegrad as tf
>>> vocab = tf.lookup.StaticVocabularyTable(
...     tf.lookup.KeyValueTensorInitializer(["the", "cat"], tf.constant([0, 1], tf.int64)),
...     num_oov_buckets=2)
>>> vocab.lookup(tf.strings.split(tf.constant(["the cat sat", "the dog"]))).to_list()
[[0, 1, 3], [0, 2]]
"""
import typing as _typing

from . import experimental
from ._tables import (KeyValueTensorInitializer, StaticHashTable, StaticVocabularyTable, TextFileIndex,
                      TextFileInitializer)

__all__ = ["KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable", "TextFileIndex",
           "TextFileInitializer", "experimental"]

if not _typing.TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "not covered yet" for a TF name, "did you mean" for a typo
        if name.startswith("_"):
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from .._missing import attribute_error
        raise attribute_error("lookup", name)
