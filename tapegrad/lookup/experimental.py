"""``tf.lookup.experimental``: the mutable tables, ``MutableHashTable`` and ``DenseHashTable``.

>>> import tapegrad as tf
>>> table = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, default_value=0.0)
>>> table.insert(tf.constant(["a"]), tf.constant([1.5]))
>>> table.lookup(tf.constant(["a", "b"])).numpy()
array([1.5, 0. ], dtype=float32)
"""
from ._tables import DenseHashTable, MutableHashTable

__all__ = ["DenseHashTable", "MutableHashTable"]
