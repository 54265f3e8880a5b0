"""tapegrad: reverse- and forward-mode automatic differentiation for NumPy, with TensorFlow 2's
``GradientTape`` API. Use it as ``import tapegrad as tf``.

>>> import tapegrad as tf
>>> w = tf.Variable([[1.0], [2.0]])
>>> x = tf.constant([[3.0, 4.0]])
>>> with tf.GradientTape() as tape:
...     loss = tf.reduce_sum(tf.matmul(x, w) ** 2)
>>> tape.gradient(loss, w).numpy()
array([[66.],
       [88.]], dtype=float32)
"""
from __future__ import annotations

# the TensorFlow release whose API and numbers tapegrad follows, as tf.keras.__version__ names
# Keras's: programs gate on it (`assert tf.__version__ >= "2.8"`, a TF1 branch on "1."); tapegrad's
# own release is tapegrad.version.TAPEGRAD_VERSION (and the package metadata's), docs/differences.md
__version__ = "2.21.0"

import warnings as _warnings
import sys as _sys
import typing as _typing

# Ops produce inf/nan as IEEE arithmetic says (as TensorFlow does), without NumPy's warnings.
_warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"tapegrad(\.|$)")

from . import _tape, dtypes, errors
from ._tensor import IndexedSlices, Tensor, TensorShape
from ._convert import constant, convert_to_tensor
from ._variable import Variable, VariableAggregation, VariableSynchronization
from ._tape import GradientTape
from ._walk import UnconnectedGradients
from .dtypes import (DType, as_dtype, bool, complex64, complex128, double, float16, float32,  # noqa: A004
                     float64, half, int8, int16, int32, int64, resource, string, uint8, uint16, uint32,
                     uint64, variant)
from . import ops as _ops  # binds Tensor operators
from .ops.array import (batch_to_space, bitcast, broadcast_dynamic_shape, broadcast_static_shape,
                        broadcast_to, concat, expand_dims, eye, fill, guarantee_const, identity, linspace, meshgrid,
                        one_hot, ones, pad, range, rank, repeat, reshape, reverse, roll, sequence_mask,
                        required_space_to_batch_paddings, shape, shape_n, size, space_to_batch, space_to_batch_nd, split,
                        squeeze, stack,
                        stop_gradient, tile, transpose, unique, unique_with_counts, unstack, zeros)
from .ops.indexing import (boolean_mask, dynamic_partition, dynamic_stitch, gather, gather_nd,
                           reverse_sequence, scatter_nd, slice, strided_slice, tensor_scatter_nd_add,
                           tensor_scatter_nd_max, tensor_scatter_nd_min, tensor_scatter_nd_sub,
                           tensor_scatter_nd_update, unravel_index)
from .ops.conv import extract_volume_patches
from .ops.decompositions import eig, eigvals, sqrtm as matrix_square_root
from .ops.linalg import einsum, matmul, norm, tensordot
from .ops.math import (abs, add, add_n, cast, clip_by_global_norm, clip_by_norm, clip_by_value,  # noqa: A004
                       complex_ as complex, conj, cos, cumprod, cumsum, divide, equal, exp, floordiv,
                       greater, greater_equal, imag, less, less_equal, log, logical_and, logical_not,
                       logical_or, maximum, minimum, mod, multiply, negative, not_equal, ones_like,
                       pow, real, realdiv, reciprocal, saturate_cast, scalar_mul, sigmoid, sign, sin,
                       sqrt, square, subtract, tan, tanh, truediv, truncatediv, truncatemod, where,
                       zeros_like)
from .ops.reduction import (argmax, argmin, reduce_all, reduce_any, reduce_logsumexp, reduce_max,
                            reduce_mean, reduce_min, reduce_prod, reduce_std, reduce_sum,
                            reduce_variance)
from .ops.segment import histogram_fixed_width, histogram_fixed_width_bins, unsorted_segment_sum
from .ops.sort import argsort, searchsorted, sort  # noqa: E402
from .ops.special import (acos, acosh, asin, asinh, atan, atan2, atanh, cosh, floor,  # noqa: E402
                          round, sinh)
from . import autodiff, linalg, math, nn  # noqa: E402  (namespaces)
from . import test  # noqa: E402
from . import _numpy_interop  # noqa: E402,F401  (NumPy ufuncs/functions on tensors stay on the tape)

# tf.compat.v2 is TensorFlow 2's API: tapegrad itself (`import tensorflow.compat.v2 as tf`)
_sys.modules.setdefault(__name__ + ".compat.v2", _sys.modules[__name__])

# Loaded on first use, so that `import tapegrad` stays close to `import numpy` in time.
_LAZY = {
    "random": (".random", None), "diagnosis": (".diagnosis", None), "visualize": (".visualize", None),
    "optimizers": (".optimizers", None), "saving": (".saving", None), "Module": (".module", "Module"),
    "custom_gradient": ("._custom", "custom_gradient"), "recompute_grad": ("._custom", "recompute_grad"),
    "grad_pass_through": ("._custom", "grad_pass_through"),
    "keras": (".keras", None), "initializers": (".keras.initializers", None),
    "name_scope": ("._scope", "name_scope"), "get_current_name_scope": ("._scope", "get_current_name_scope"),
    "device": ("._scope", "device"), "DeviceSpec": ("._scope", "DeviceSpec"), "print": ("._print", "print_"),
    "nest": (".nest", None), "debugging": (".debugging", None), "config": (".config", None),
    "train": (".train", None), "Graph": (".compat._graph", "Graph"), "io": (".io", None), "Assert": (".debugging", "Assert"),
    **{n: (".debugging", n) for n in ("assert_equal", "assert_less", "assert_greater", "assert_rank")},
    "TensorSpec": ("._spec", "TensorSpec"), "TypeSpec": ("._spec", "TypeSpec"),
    "IndexedSlicesSpec": ("._spec", "IndexedSlicesSpec"), "NoneTensorSpec": ("._spec", "NoneTensorSpec"),
    "TensorArraySpec": ("._tensor_array", "TensorArraySpec"), "OptionalSpec": (".experimental._optional", "OptionalSpec"), "function": ("._function", "function"), "data": (".data", None),
    **{n: (".keras.initializers", n) for n in ("constant_initializer", "ones_initializer", "zeros_initializer",
                                                "random_normal_initializer", "random_uniform_initializer")},
    "distribute": (".distribute", None),
    **{n: ("._control_flow", n) for n in (
        "cond", "case", "switch_case", "while_loop", "map_fn", "vectorized_map", "scan", "foldl",
        "foldr", "ensure_shape", "get_static_value", "is_tensor", "executing_eagerly", "no_op",
        "group", "control_dependencies", "identity_n")},
    "TensorArray": ("._tensor_array", "TensorArray"),
    "py_function": ("._pyfunc", "py_function"), "numpy_function": ("._pyfunc", "numpy_function"),
    "signal": (".signal", None), "image": (".image", None), "audio": (".audio", None),
    "strings": (".strings", None), "as_string": (".ops.strings", "as_string"),
    "losses": (".keras.losses", None), "metrics": (".keras.metrics", None),
    "experimental": (".experimental", None), "version": (".version", None), "summary": (".summary", None),
    "autograph": (".autograph", None), "install_as_tensorflow": ("._import_hook", "install_as_tensorflow"),
    "ragged": (".ragged", None), "RaggedTensor": (".ragged", "RaggedTensor"), "saved_model": (".saved_model", None),
    "RaggedTensorSpec": (".ragged", "RaggedTensorSpec"),
    "sparse": (".sparse", None), "SparseTensor": (".sparse", "SparseTensor"), "compat": (".compat", None),
    "lite": (".lite", None), "lookup": (".lookup", None), "bitwise": (".bitwise", None), "sets": (".sets", None),
    "queue": (".queue", None), "quantization": (".quantization", None), "AggregationMethod": ("._graph_api", "AggregationMethod"),
    "SparseTensorSpec": (".sparse", "SparseTensorSpec"),
    "variable_creator_scope": ("._variable", "variable_creator_scope"),
    "edit_distance": ("._decoders", "edit_distance"),
    "register_tensor_conversion_function": ("._convert", "register_tensor_conversion_function"),
    "make_tensor_proto": (".io._files", "make_tensor_proto"), "make_ndarray": (".io._files", "make_ndarray"),
    **{n: ("._graph_api", n) for n in ("gradients", "hessians", "no_gradient", "inside_function", "get_logger",
                                       "RegisterGradient",
                                       "init_scope", "is_symbolic_tensor", "tuple", "timestamp",
                                       "type_spec_from_value", "parallel_stack", "fingerprint")},
}


if _typing.TYPE_CHECKING:  # what type checkers see of the names loaded on first use
    from . import config, data, debugging, diagnosis, keras, nest, optimizers, random, saving, train  # noqa: F401
    from . import audio, distribute, image, io, signal, strings, visualize  # noqa: F401
    from .ops.strings import as_string  # noqa: F401
    from ._print import print_ as print  # noqa: F401,A001
    from ._scope import DeviceSpec, device, get_current_name_scope, name_scope  # noqa: F401
    from .debugging import Assert, assert_equal, assert_greater, assert_less, assert_rank  # noqa: F401
    from .keras import initializers  # noqa: F401
    from ._custom import custom_gradient, grad_pass_through, recompute_grad  # noqa: F401
    from ._control_flow import (case, cond, control_dependencies, ensure_shape,  # noqa: F401
                                executing_eagerly, foldl, foldr, get_static_value, group,
                                identity_n, is_tensor, map_fn, no_op, scan, switch_case,
                                vectorized_map, while_loop)
    from ._pyfunc import numpy_function, py_function  # noqa: F401
    from ._tensor_array import TensorArray  # noqa: F401
    from .module import Module  # noqa: F401
    from ._spec import IndexedSlicesSpec, NoneTensorSpec, TensorSpec, TypeSpec  # noqa: F401
    from ._tensor_array import TensorArraySpec  # noqa: F401
    from .experimental._optional import OptionalSpec  # noqa: F401
    from ._function import function  # noqa: F401
    from .keras import losses, metrics  # noqa: F401
    from . import autograph, experimental, summary, version  # noqa: F401
    from . import ragged, saved_model  # noqa: F401
    from .ragged import RaggedTensor, RaggedTensorSpec  # noqa: F401
    from . import bitwise, lite, lookup, quantization, queue, sets, sparse  # noqa: F401
    from .sparse import SparseTensor, SparseTensorSpec  # noqa: F401
    from ._import_hook import install_as_tensorflow  # noqa: F401
    from ._decoders import edit_distance  # noqa: F401
    from .io._files import make_ndarray, make_tensor_proto  # noqa: F401
    from ._convert import register_tensor_conversion_function  # noqa: F401
    from ._graph_api import (get_logger, gradients, hessians, init_scope, inside_function,  # noqa: F401
                             is_symbolic_tensor, no_gradient, parallel_stack, timestamp, tuple,
                             type_spec_from_value, fingerprint, AggregationMethod, RegisterGradient)
else:  # hidden from type checkers: they report a missing name as an error
    def __getattr__(name: str) -> object:
        spec = _LAZY.get(name)
        if spec is None and name.startswith("_"):  # (private and special names: no import)
            raise AttributeError(f"module 'tapegrad' has no attribute {name!r}")
        if spec is None:  # "not covered yet" for a TensorFlow name, "did you mean" for a typo
            from ._missing import attribute_error
            raise attribute_error("", name)
        import importlib
        mod = importlib.import_module(spec[0], __name__)
        value = mod if spec[1] is None else getattr(mod, spec[1])
        globals()[name] = value
        return value


def __dir__() -> list:
    return sorted(set(globals()) | set(_LAZY))


def _diagnosis() -> object:
    from . import diagnosis
    return diagnosis


def _backward_check(tape: object, *args: object) -> object:  # diagnosis loads on first use
    return _diagnosis()._BackwardCheck(tape, *args)  # type: ignore[attr-defined]


_tape.set_hook("diagnosis", _diagnosis)
_tape.set_hook("backward_check", _backward_check)

import os as _os  # noqa: E402

if _os.environ.get("TAPEGRAD_EXPLAIN", "").strip().lower() in ("1", "true", "yes", "on"):
    from . import diagnosis  # noqa: E402,F401  (turns explain mode on for every tape)

newaxis = None
