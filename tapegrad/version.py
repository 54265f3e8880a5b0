"""``tapegrad.version`` (TensorFlow's ``tf.version``): ``VERSION`` is the TensorFlow release whose
API and numbers tapegrad follows, the same as ``tapegrad.__version__`` (programs gate on it, as
``tf.keras.__version__`` gives the Keras release); ``TAPEGRAD_VERSION`` is tapegrad's own release
(the package's metadata); ``GIT_VERSION`` and ``COMPILER_VERSION`` have no meaning for a pure
Python package and say so.

>>> import tapegrad as tf
>>> tf.version.VERSION == tf.__version__ == "2.21.0", tf.version.TAPEGRAD_VERSION
(True, '0.1.0')
"""
import sys as _sys

VERSION: str = _sys.modules["tapegrad"].__version__  # (loaded on first use, after tapegrad)
TAPEGRAD_VERSION: str = "0.1.0"   # (pyproject.toml's version; tests/test_compat.py checks they agree)
GIT_VERSION: str = "unknown"
COMPILER_VERSION: str = "none (pure Python)"
