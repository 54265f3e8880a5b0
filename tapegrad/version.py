"""``tapegrad.version`` (TensorFlow's ``tf.version``): ``VERSION`` is tapegrad's version, the same
as ``tapegrad.__version__``; ``GIT_VERSION`` and ``COMPILER_VERSION`` have no meaning for a pure
Python package and say so.

>>> import tapegrad as tf
>>> tf.version.VERSION == tf.__version__
True
"""
import sys as _sys

VERSION: str = _sys.modules["tapegrad"].__version__  # (loaded on first use, after tapegrad)
GIT_VERSION: str = "unknown"
COMPILER_VERSION: str = "none (pure Python)"
