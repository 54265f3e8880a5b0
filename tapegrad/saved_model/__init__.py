"""``tf.saved_model``: save a trackable object (a ``tf.Module``, a Keras model or layer) with its
variables and its traced ``tf.function``\\ s, and load it back without its Python code.

The folder has TensorFlow's layout (``saved_model.pb``, ``fingerprint.pb``, ``variables/``,
``assets/``) holding tapegrad's own content: each function's trace as data (op names from the op
registry, parameters, constant arrays, wiring), never code; see docs/saved_model.md.

>>> import tempfile, tapegrad as tf
>>> class Scale(tf.Module):
...     def __init__(self):
...         self.w = tf.Variable(3.0)
...     @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
...     def __call__(self, x):
...         return x * self.w
>>> d = tempfile.mkdtemp()
>>> tf.saved_model.save(Scale(), d)
>>> r = tf.saved_model.load(d)
>>> r(tf.constant([1.0, 2.0])).numpy()
array([3., 6.], dtype=float32)
>>> r.signatures["serving_default"](x=tf.constant([1.0]))["output_0"].numpy()
array([3.], dtype=float32)
"""
from __future__ import annotations

from ._format import (ASSETS_DIRECTORY, DEFAULT_SERVING_SIGNATURE_DEF_KEY, SAVED_MODEL_FILENAME_PB,
                      VARIABLES_DIRECTORY, VARIABLES_FILENAME)
from ._load import LoadOptions, contains_saved_model, load
from ._save import SaveOptions, save, variables_used  # noqa: F401  (variables_used: keras.export)

__all__ = ["save", "load", "contains_saved_model", "SaveOptions", "LoadOptions", "ASSETS_DIRECTORY",
           "SAVED_MODEL_FILENAME_PB", "VARIABLES_DIRECTORY", "VARIABLES_FILENAME",
           "DEFAULT_SERVING_SIGNATURE_DEF_KEY"]
