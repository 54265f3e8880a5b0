"""Keras's seam to tapegrad's engine (the role of Keras 3's ``backend/tensorflow/``).

The one module of ``tapegrad/keras/`` that imports the engine's private modules: the rest of
``keras/`` reaches the engine through the names below and through the public namespaces
(``tapegrad.ops``, ``dtypes``, ``random``, ``data``, ``distribute``, ``saving``, ...).
tests/test_contributing.py holds ``keras/`` to that, function-local imports included; a name
Keras needs from the engine is added here, with the module it comes from.
"""
from .. import _function, _jit, _memory, _nest, _recorders, _strings
from .._control_flow import cond, executing_eagerly, foldl, foldr, map_fn, vectorized_map
from .._convert import as_tensor, constant, convert_to_tensor, host_value
from .._custom import custom_gradient, recompute_grad
from .._dispatch import apply
from .._graph_api import gradients
from .._nest import keras_flatten, keras_map_structure
from .._pyfunc import numpy_function
from .._scope import device, name_scope
from .._spec import TensorSpec
from .._strings import to_bytes
from .._tape import GradientTape
from .._tensor import Tensor, VariableBase, wrap
from .._trace import innermost_graph
from .._variable import Variable, VariableAggregation, VariableSynchronization
from .._warn import warn_outside

__all__ = ["GradientTape", "Tensor", "TensorSpec", "Variable", "VariableAggregation", "VariableBase",
           "VariableSynchronization", "_function", "_jit", "_memory", "_nest", "_recorders", "_strings", "apply", "as_tensor",
           "cond", "constant", "convert_to_tensor", "custom_gradient", "device", "executing_eagerly", "foldl", "foldr",
           "gradients", "host_value", "innermost_graph", "keras_flatten", "keras_map_structure", "map_fn", "name_scope",
           "numpy_function", "recompute_grad", "to_bytes", "vectorized_map", "warn_outside", "wrap"]
