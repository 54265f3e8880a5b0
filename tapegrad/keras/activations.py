"""``tapegrad.keras.activations``: Keras 3's activation functions, by name through :func:`get`.

>>> import numpy as np
>>> from tapegrad import keras
>>> x = np.array([-2.0, 0.5, 8.0], np.float32)
>>> keras.activations.relu(x, max_value=6.0).numpy()
array([0. , 0.5, 6. ], dtype=float32)
>>> keras.activations.get("hard_sigmoid")(x).numpy().round(4)
array([0.1667, 0.5833, 1.    ], dtype=float32)
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

import numpy as np

from ._engine import as_tensor, convert_to_tensor
from ._engine import Tensor
from ..ops import nn as _nn
from ..ops.math import cast, exp, greater, sigmoid as _sigmoid, tanh as _tanh, where
from ..ops.special import softplus as _softplus
from . import _logits
from ._keras_tensor import KerasTensor
from . import ops as _ops
from ..ops.array import reshape as _reshape
from ..ops.math import cumsum as _cumsum, maximum as _maximum
from ..ops.reduction import reduce_sum as _reduce_sum
from ..ops.sort import sort as _sort

__all__ = ["relu", "leaky_relu", "relu6", "elu", "selu", "gelu", "silu", "swish", "sigmoid", "tanh",
           "softmax", "log_softmax", "softplus", "softsign", "exponential", "hard_sigmoid",
           "hard_silu", "hard_swish", "linear", "mish", "celu", "glu", "hard_shrink", "hard_tanh",
           "log_sigmoid", "soft_shrink", "sparse_plus", "sparse_sigmoid", "sparsemax", "squareplus",
           "tanh_shrink", "threshold", "get", "serialize", "deserialize"]


def _float(x: Any) -> Tensor:
    t = as_tensor(x)
    return t if t.dtype.is_floating else cast(t, "float32")


def _op_on_keras_tensors(op: str) -> Callable[[Callable], Callable]:
    """An activation that, as in Keras 3, given a KerasTensor records ``keras.ops.<op>``'s node
    of the functional graph (with the activation's arguments, defaults included)."""
    def wrap(fn: Callable) -> Callable:
        sig = inspect.signature(fn)

        @functools.wraps(fn)
        def activation(x: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(x, KerasTensor):
                bound = sig.bind(x, *args, **kwargs)
                bound.apply_defaults()
                return getattr(_ops, op)(x, **dict(list(bound.arguments.items())[1:]))
            return fn(x, *args, **kwargs)
        return activation
    return wrap


def relu(x: Any, negative_slope: float = 0.0, max_value: float | None = None,
         threshold: float = 0.0) -> Tensor:
    """``max(x, 0)``; with ``max_value`` clipped above, with ``threshold`` zero up to it, with
    ``negative_slope`` that slope below the threshold (Keras's ``relu``; integers stay integers).
    Given a KerasTensor, a ``ReLU`` operation of the functional graph, as in Keras 3."""
    if isinstance(x, KerasTensor):
        from .layers.operation import ReLU  # (layers import this module: imported when used)
        return ReLU(negative_slope=negative_slope, max_value=max_value, threshold=threshold)(x)
    return _ops._relu_static(x, negative_slope, max_value, threshold)


@_op_on_keras_tensors('leaky_relu')
def leaky_relu(x: Any, negative_slope: float = 0.2) -> Tensor:
    """``x`` above zero, ``negative_slope * x`` below."""
    return _nn.leaky_relu(_float(x), alpha=negative_slope)


@_op_on_keras_tensors('relu6')
def relu6(x: Any) -> Tensor:
    """``min(max(x, 0), 6)``."""
    return _nn.relu6(_float(x))


@_op_on_keras_tensors('elu')
def elu(x: Any, alpha: float = 1.0) -> Tensor:
    """``x`` above zero, ``alpha * (exp(x) - 1)`` below."""
    x = _float(x)
    y = _nn.elu(x)
    return y if alpha == 1 else where(greater(x, convert_to_tensor(0.0, x.dtype)), y, alpha * y)


@_op_on_keras_tensors('selu')
def selu(x: Any) -> Tensor:
    """Scaled ELU (``scale ≈ 1.0507``, ``alpha ≈ 1.6733``)."""
    return _nn.selu(_float(x))


@_op_on_keras_tensors('gelu')
def gelu(x: Any, approximate: bool = False) -> Tensor:
    """``x * Φ(x)`` (``approximate=True``: the tanh formula)."""
    return _nn.gelu(_float(x), approximate=approximate)


@_op_on_keras_tensors('silu')
def silu(x: Any) -> Tensor:
    """``x * sigmoid(x)`` (swish)."""
    return _nn.silu(_float(x))


swish = silu


@_op_on_keras_tensors('sigmoid')
def sigmoid(x: Any) -> Tensor:
    """``1 / (1 + exp(-x))``. The output keeps ``x`` as its logits, which the crossentropy losses
    use (Keras's ``_keras_logits``)."""
    x = _float(x)
    return _logits.attach(_sigmoid(x), x)


@_op_on_keras_tensors('tanh')
def tanh(x: Any) -> Tensor:
    """Hyperbolic tangent."""
    return _tanh(_float(x))


@_op_on_keras_tensors('softmax')
def softmax(x: Any, axis: int = -1) -> Tensor:
    """``exp(x) / Σ exp(x)`` along ``axis``. The output keeps ``x`` as its logits, which the
    crossentropy losses use (Keras's ``_keras_logits``)."""
    x = _float(x)
    return _logits.attach(_nn.softmax(x, axis=axis), x)


@_op_on_keras_tensors('log_softmax')
def log_softmax(x: Any, axis: int = -1) -> Tensor:
    """``x - log Σ exp(x)`` along ``axis``."""
    return _nn.log_softmax(_float(x), axis=axis)


@_op_on_keras_tensors('softplus')
def softplus(x: Any) -> Tensor:
    """``log(1 + exp(x))``."""
    return _softplus(_float(x))


@_op_on_keras_tensors('softsign')
def softsign(x: Any) -> Tensor:
    """``x / (1 + |x|)``."""
    return _nn.softsign(_float(x))


@_op_on_keras_tensors('exp')
def exponential(x: Any) -> Tensor:
    """``exp(x)``."""
    return exp(_float(x))


@_op_on_keras_tensors('hard_sigmoid')
def hard_sigmoid(x: Any) -> Tensor:
    """``relu6(x + 3) / 6``: 0 below -3, 1 above 3, linear between."""
    x = _float(x)
    return _nn.relu6(x + convert_to_tensor(3.0, x.dtype)) / convert_to_tensor(6.0, x.dtype)


def hard_silu(x: Any) -> Tensor:
    """``x * hard_sigmoid(x)`` (hard swish)."""
    x = _float(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def linear(x: Any) -> Any:
    """``x`` unchanged (the activation of ``activation=None``)."""
    return x


def mish(x: Any) -> Tensor:
    """``x * tanh(softplus(x))``."""
    x = _float(x)
    return x * _tanh(_softplus(x))


@_op_on_keras_tensors('celu')
def celu(x: Any, alpha: float = 1.0) -> Tensor:
    """``x`` above zero, ``alpha * (exp(x / alpha) - 1)`` below (continuously differentiable ELU).

    >>> from tapegrad import keras
    >>> keras.activations.celu([-1.0, 2.0], alpha=2.0).numpy().round(4)
    array([-0.7869,  2.    ], dtype=float32)
    """
    return _ops.celu(_float(x), alpha=alpha)


@_op_on_keras_tensors('glu')
def glu(x: Any, axis: int = -1) -> Tensor:
    """The gated linear unit: ``a * sigmoid(b)``, ``a`` and ``b`` the two halves of ``axis``
    (whose size must be even).

    >>> from tapegrad import keras
    >>> keras.activations.glu([[1.0, 2.0, 0.0, 10.0]]).numpy().round(4)
    array([[0.5   , 1.9999]], dtype=float32)
    """
    return _ops.glu(_float(x), axis=axis)


@_op_on_keras_tensors('hard_shrink')
def hard_shrink(x: Any, threshold: float = 0.5) -> Tensor:
    """``x`` where ``|x| > threshold``, else 0.

    >>> from tapegrad import keras
    >>> keras.activations.hard_shrink([-1.0, 0.3, 0.7]).numpy()
    array([-1. ,  0. ,  0.7], dtype=float32)
    """
    return _ops.hard_shrink(_float(x), threshold=threshold)


@_op_on_keras_tensors('hard_tanh')
def hard_tanh(x: Any) -> Tensor:
    """``x`` clipped to ``[-1, 1]``.

    >>> from tapegrad import keras
    >>> keras.activations.hard_tanh([-3.0, 0.5, 2.0]).numpy()
    array([-1. ,  0.5,  1. ], dtype=float32)
    """
    return _ops.hard_tanh(_float(x))


@_op_on_keras_tensors('log_sigmoid')
def log_sigmoid(x: Any) -> Tensor:
    """``log(sigmoid(x))``, computed without overflow.

    >>> from tapegrad import keras
    >>> keras.activations.log_sigmoid([0.0, -100.0]).numpy().round(4)
    array([  -0.6931, -100.    ], dtype=float32)
    """
    return _ops.log_sigmoid(_float(x))


@_op_on_keras_tensors('soft_shrink')
def soft_shrink(x: Any, threshold: float = 0.5) -> Tensor:
    """``x`` moved ``threshold`` toward zero; 0 within ``threshold`` of zero.

    >>> from tapegrad import keras
    >>> keras.activations.soft_shrink([-1.0, 0.3, 0.7]).numpy().round(4)
    array([-0.5,  0. ,  0.2], dtype=float32)
    """
    return _ops.soft_shrink(_float(x), threshold=threshold)


@_op_on_keras_tensors('sparse_plus')
def sparse_plus(x: Any) -> Tensor:
    """0 up to -1, ``(x + 1)² / 4`` between -1 and 1, ``x`` from 1.

    >>> from tapegrad import keras
    >>> keras.activations.sparse_plus([-2.0, 0.0, 3.0]).numpy()
    array([0.  , 0.25, 3.  ], dtype=float32)
    """
    return _ops.sparse_plus(_float(x))


@_op_on_keras_tensors('sparse_sigmoid')
def sparse_sigmoid(x: Any) -> Tensor:
    """0 up to -1, ``(x + 1) / 2`` between -1 and 1, 1 from 1.

    >>> from tapegrad import keras
    >>> keras.activations.sparse_sigmoid([-2.0, 0.5, 3.0]).numpy()
    array([0.  , 0.75, 1.  ], dtype=float32)
    """
    x = _float(x)
    one = convert_to_tensor(1.0, x.dtype)
    return where(x <= -one, convert_to_tensor(0.0, x.dtype),
                 where(x >= one, one, convert_to_tensor(0.5, x.dtype) * (x + one)))


def sparsemax(x: Any, axis: int = -1) -> Tensor:
    """Sparsemax along ``axis``, ``max(x - tau, 0)``, as Keras 3.15's TensorFlow backend computes
    it: with ``z`` the sorted ``x`` (descending), ``c`` its cumulative sums and the support the
    ``j`` where ``z_j > (c_j - 1) / j``, ``tau = (Σ_support c_j - 1) / |support|``. That is the sum
    of the cumulative sums, not the last one, so a slice whose support has more than one entry
    does not sum to 1 (the second row below); tapegrad keeps TensorFlow's numbers.

    >>> from tapegrad import keras
    >>> keras.activations.sparsemax([[1.0, 2.0, 5.0], [0.1, 0.2, 0.3]]).numpy().round(4)
    array([[0.    , 0.    , 1.    ],
           [0.    , 0.0667, 0.1667]], dtype=float32)
    """
    x = _float(x)
    rank = x.shape.rank
    if rank is None or rank == 0:
        raise ValueError(f"sparsemax needs an input of rank 1 or more along axis={axis}; got shape "
                         f"{x.shape}.")
    ordered = _sort(x, axis=axis, direction="DESCENDING")
    total = _cumsum(ordered, axis=axis)
    shape = [1] * rank
    shape[axis] = -1
    n = x.shape[axis]
    r = _reshape(convert_to_tensor(np.arange(1, n + 1), x.dtype), shape)
    support = greater(ordered - (total - 1.0) / r, convert_to_tensor(0.0, x.dtype))
    k = _reduce_sum(cast(support, x.dtype), axis=axis, keepdims=True)
    tau = (_reduce_sum(where(support, total, convert_to_tensor(0.0, x.dtype)), axis=axis,
                       keepdims=True) - 1.0) / k
    return _maximum(x - tau, convert_to_tensor(0.0, x.dtype))


@_op_on_keras_tensors('squareplus')
def squareplus(x: Any, b: float = 4) -> Tensor:
    """``(x + sqrt(x² + b)) / 2``, a smooth ReLU.

    >>> from tapegrad import keras
    >>> keras.activations.squareplus([-1.0, 0.0, 2.0]).numpy().round(4)
    array([0.618 , 1.    , 2.4142], dtype=float32)
    """
    return _ops.squareplus(_float(x), b=b)


@_op_on_keras_tensors('tanh_shrink')
def tanh_shrink(x: Any) -> Tensor:
    """``x - tanh(x)``.

    >>> from tapegrad import keras
    >>> keras.activations.tanh_shrink([1.0]).numpy().round(4)
    array([0.2384], dtype=float32)
    """
    return _ops.tanh_shrink(_float(x))


@_op_on_keras_tensors('threshold')
def threshold(x: Any, threshold: float, default_value: float) -> Tensor:
    """``x`` where ``x > threshold``, else ``default_value``.

    >>> from tapegrad import keras
    >>> keras.activations.threshold([-1.0, 0.5, 2.0], 0.5, -9.0).numpy()
    array([-9., -9.,  2.], dtype=float32)
    """
    return _ops.threshold(_float(x), threshold, default_value)


_BY_NAME: dict[str, Callable] = {f.__name__: f for f in (
    relu, leaky_relu, relu6, elu, selu, gelu, silu, sigmoid, tanh, softmax, log_softmax, softplus,
    softsign, exponential, hard_sigmoid, hard_silu, linear, mish, celu, glu, hard_shrink, hard_tanh,
    log_sigmoid, soft_shrink, sparse_plus, sparse_sigmoid, sparsemax, squareplus, tanh_shrink,
    threshold)}
_BY_NAME.update(swish=silu, hard_swish=hard_silu)


def serialize(activation: Callable) -> Any:
    """The name of a built-in activation; Keras's dict for a registered function."""
    for name, fn in _BY_NAME.items():
        if fn is activation:
            return name
    from .saving import _GLOBAL_CUSTOM_NAMES, serialize_keras_object
    if activation in _GLOBAL_CUSTOM_NAMES:
        return serialize_keras_object(activation)
    raise ValueError(f"Unknown activation function {activation!r} cannot be serialized: it is not "
                     f"one of keras.activations' functions ({sorted(_BY_NAME)}).")


def deserialize(config: Any, custom_objects: dict | None = None) -> Callable:
    """The activation a :func:`serialize` result names: a built-in's name (as :func:`get`), a
    name in ``custom_objects``, or the dict of a registered function."""
    if isinstance(config, str) and custom_objects and config in custom_objects:
        return custom_objects[config]
    if isinstance(config, dict):
        from .saving import deserialize_keras_object
        return deserialize_keras_object(config, custom_objects=custom_objects)
    return get(config)


def get(identifier: Any) -> Callable:
    """An activation from its name (``"relu"``), a callable, or ``None`` (``linear``)."""
    if identifier is None:
        return linear
    if isinstance(identifier, dict):
        identifier = identifier.get("config", identifier.get("class_name"))
    if isinstance(identifier, str):
        fn = _BY_NAME.get(identifier)
        if fn is None:  # a function registered with keras.saving.register_keras_serializable
            from .saving import get_registered_object
            fn = get_registered_object(identifier)
        if fn is None:
            import difflib
            close = difflib.get_close_matches(identifier, list(_BY_NAME), n=3)
            raise ValueError(f"Could not interpret activation function identifier: {identifier!r}."
                             + (f" Did you mean {' or '.join(map(repr, close))}?" if close else
                                f" Known activations: {sorted(_BY_NAME)}"))
        return fn
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier!r} "
                     f"(a {type(identifier).__name__}); expected a name or a callable.")
