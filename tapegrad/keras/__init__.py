"""``tapegrad.keras``: Keras 3 (``tf.keras``) on tapegrad's ops, variables and ``Module``.

Layers, models (``Sequential``, subclassed and functional), ``compile``/``fit``/``evaluate``/
``predict``, callbacks, initializers, activations, regularizers, losses, metrics and optimizers,
with Keras 3's names, arguments, defaults and numbers. Every submodule loads on first use.

>>> import numpy as np
>>> import tapegrad as tf
>>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
>>> model.set_weights([np.ones((3, 2)), np.zeros(2)])
>>> model(np.array([[1.0, 2.0, 3.0]])).numpy()
array([[6., 6.]], dtype=float32)
"""
from __future__ import annotations

import importlib
import typing as _typing

# name -> (module, attribute or None for the module itself); loaded on first use.
__version__ = "3.15.1"  # the Keras release whose API and numbers tf.keras follows (docs/differences.md)


def version() -> str:
    """The Keras version ``tf.keras`` mirrors (Keras's ``keras.version()``), as ``__version__``.

    >>> import tapegrad as tf
    >>> tf.keras.version()
    '3.15.1'
    """
    return __version__


_LAZY = {
    "Layer": (".layers.layer", "Layer"), "InputSpec": (".layers.input_spec", "InputSpec"),
    "Model": (".models.model", "Model"), "Sequential": (".models.sequential", "Sequential"),
    "Input": (".layers.input_layer", "Input"), "KerasTensor": ("._keras_tensor", "KerasTensor"),
    "Variable": ("._variables", "KerasVariable"), "name_scope": ("._variables", "NameScope"),
    "activations": (".activations", None), "applications": (".applications", None),
    "backend": (".backend", None), "callbacks": (".callbacks", None), "config": (".config", None),
    "constraints": (".constraints", None),
    "initializers": (".initializers", None), "layers": (".layers", None),
    "losses": (".losses", None), "metrics": (".metrics", None), "models": (".models", None),
    "preprocessing": (".preprocessing", None),
    "ops": (".ops", None), "optimizers": (".optimizers", None), "random": (".random", None),
    "regularizers": (".regularizers", None), "utils": (".utils", None),
    "saving": (".saving", None), "export": (".export", None),
    "datasets": (".datasets", None), "mixed_precision": (".mixed_precision", None),
    "dtype_policies": (".dtype_policies", None), "quantizers": (".quantizers", None),
    "DTypePolicy": (".mixed_precision", "DTypePolicy"), "Quantizer": (".quantizers", "Quantizer"),
    "FloatDTypePolicy": (".dtype_policies", "FloatDTypePolicy"),
    "Loss": (".losses", "Loss"), "Metric": (".metrics", "Metric"), "Optimizer": (".optimizers", "Optimizer"),
    "Initializer": (".initializers", "Initializer"), "Regularizer": (".regularizers", "Regularizer"),
    "Operation": (".layers.operation", "Operation"), "Function": (".models.functional", "Function"),
    "StatelessScope": ("._scopes", "StatelessScope"), "SymbolicScope": ("._scopes", "SymbolicScope"),
    "RematScope": ("._scopes", "RematScope"), "remat": ("._scopes", "remat"), "device": ("._scopes", "device"),
    "tree": (".tree", None), "distribution": (".distribution", None), "legacy": (".legacy", None),
    "wrappers": (".wrappers", None), "distillation": (".distillation", None),
}

# `from keras import *` (and `from tensorflow.keras import *`) gives what Keras's does: its
# classes, functions and submodules (each loaded then)
__all__ = sorted([*_LAZY, "version"])

if _typing.TYPE_CHECKING:
    from . import activations, backend, callbacks, initializers, layers, models  # noqa: F401
    from . import optimizers, random, regularizers  # noqa: F401
    from ._keras_tensor import KerasTensor  # noqa: F401
    from ._variables import KerasVariable as Variable  # noqa: F401
    from .layers.input_layer import Input  # noqa: F401
    from .layers.input_spec import InputSpec  # noqa: F401
    from .layers.layer import Layer  # noqa: F401
    from .models.model import Model  # noqa: F401
    from .models.sequential import Sequential  # noqa: F401
else:
    def __getattr__(name: str) -> object:
        spec = _LAZY.get(name)
        if spec is None:
            import difflib
            close = difflib.get_close_matches(name, _LAZY, n=3, cutoff=0.8)
            raise AttributeError(f"module 'tapegrad.keras' has no attribute {name!r}"
                                 + (f". Did you mean: {', '.join(map(repr, close))}?" if close else ""))
        mod = importlib.import_module(spec[0], __name__)
        value = mod if spec[1] is None else getattr(mod, spec[1])
        globals()[name] = value
        return value


def __dir__() -> list:
    return sorted(set(globals()) | set(_LAZY))
