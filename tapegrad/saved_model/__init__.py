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

# TensorFlow's tag and signature constants (tf.saved_model.SERVING, ...), as strings
ASSETS_KEY = "saved_model_assets"
DEBUG_DIRECTORY = "debug"
DEBUG_INFO_FILENAME_PB = "saved_model_debug_info.pb"
SAVED_MODEL_FILENAME_PBTXT = "saved_model.pbtxt"
SAVED_MODEL_SCHEMA_VERSION = 1
SERVING, TRAINING, GPU, TPU = "serve", "train", "gpu", "tpu"
CLASSIFY_INPUTS, CLASSIFY_METHOD_NAME = "inputs", "tensorflow/serving/classify"
CLASSIFY_OUTPUT_CLASSES, CLASSIFY_OUTPUT_SCORES = "classes", "scores"
PREDICT_INPUTS, PREDICT_METHOD_NAME, PREDICT_OUTPUTS = "inputs", "tensorflow/serving/predict", "outputs"
REGRESS_INPUTS, REGRESS_METHOD_NAME, REGRESS_OUTPUTS = "inputs", "tensorflow/serving/regress", "outputs"


__all__ = ["save", "load", "contains_saved_model", "SaveOptions", "LoadOptions", "ASSETS_DIRECTORY",
           "SAVED_MODEL_FILENAME_PB", "VARIABLES_DIRECTORY", "VARIABLES_FILENAME",
           "DEFAULT_SERVING_SIGNATURE_DEF_KEY", "ASSETS_KEY", "DEBUG_DIRECTORY", "DEBUG_INFO_FILENAME_PB",
           "SAVED_MODEL_FILENAME_PBTXT", "SAVED_MODEL_SCHEMA_VERSION", "SERVING", "TRAINING", "GPU", "TPU",
           "CLASSIFY_INPUTS", "CLASSIFY_METHOD_NAME", "CLASSIFY_OUTPUT_CLASSES", "CLASSIFY_OUTPUT_SCORES",
           "PREDICT_INPUTS", "PREDICT_METHOD_NAME", "PREDICT_OUTPUTS", "REGRESS_INPUTS", "REGRESS_METHOD_NAME",
           "REGRESS_OUTPUTS"]
