"""``tapegrad.keras.regularizers``: weight penalties added to a model's loss (Keras 3's).

>>> import numpy as np
>>> from tapegrad import keras
>>> round(float(keras.regularizers.L1L2(l1=0.1, l2=0.01)(np.array([1.0, -2.0], np.float32))), 6)
0.35
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ._engine import as_tensor, convert_to_tensor
from ._engine import Tensor
from ..ops.array import eye, transpose
from ..ops.linalg import matmul
from ..ops.math import abs as _abs, square
from ..ops.reduction import reduce_sum
from . import backend, ops as _kops, saving as _saving

__all__ = ["Regularizer", "L1", "L2", "L1L2", "OrthogonalRegularizer", "l1", "l2", "l1_l2",
           "orthogonal_regularizer", "get", "serialize", "deserialize"]


def _factor(name: str, value: Any) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"Invalid value for argument {name}: expected a float. "
                         f"Received: {name}={value!r}") from None
    if value != value or value < 0 or value == float("inf"):
        raise ValueError(f"Invalid value for argument {name}: expected a non-negative finite float. "
                         f"Received: {name}={value}")
    return value


class Regularizer:
    """Base class: ``regularizer(weight)`` returns a scalar penalty."""

    def __call__(self, x: Any) -> Any:
        return 0.0

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict) -> "Regularizer":
        return cls(**config)


class L1L2(Regularizer):
    """``l1 * Σ|x| + l2 * Σx²``."""

    def __init__(self, l1: float = 0.0, l2: float = 0.0) -> None:
        self.l1, self.l2 = _factor("l1", l1), _factor("l2", l2)

    def __call__(self, x: Any) -> Tensor:
        x = as_tensor(x)
        out = convert_to_tensor(0.0, x.dtype)
        if self.l1:
            out = out + self.l1 * reduce_sum(_abs(x))
        if self.l2:
            out = out + self.l2 * reduce_sum(square(x))
        return out

    def get_config(self) -> dict:
        return {"l1": self.l1, "l2": self.l2}


class L1(Regularizer):
    """``l1 * Σ|x|`` (default ``l1=0.01``)."""

    def __init__(self, l1: float = 0.01) -> None:
        # (Keras 3 holds L1's factor as a tensor of floatx: its config and penalty use that value)
        self.l1 = float(np.asarray(_factor("l1", 0.01 if l1 is None else l1), backend.floatx()))

    def __call__(self, x: Any) -> Tensor:
        return self.l1 * reduce_sum(_abs(as_tensor(x)))

    def get_config(self) -> dict:
        return {"l1": self.l1}


class L2(Regularizer):
    """``l2 * Σx²`` (default ``l2=0.01``)."""

    def __init__(self, l2: float = 0.01) -> None:
        self.l2 = _factor("l2", l2)

    def __call__(self, x: Any) -> Tensor:
        return self.l2 * reduce_sum(square(as_tensor(x)))

    def get_config(self) -> dict:
        return {"l2": self.l2}


def _normalize(x: Any, axis: int) -> Any:
    """Keras's ``numerical_utils.normalize``: a NumPy array by NumPy (zero norms left as 1), a
    tensor by ``keras.ops.normalize``."""
    if isinstance(x, np.ndarray):
        norm = np.atleast_1d(np.linalg.norm(x, 2, axis))
        norm[norm == 0] = 1
        return x / np.expand_dims(norm, axis or -1)
    return _kops.normalize(x, axis=axis, order=2)


class OrthogonalRegularizer(Regularizer):
    """Pushes the rows (``mode="rows"``) or columns (``mode="columns"``) of a rank-2 weight to be
    orthogonal: ``factor * 0.5 * Σ|off-diagonal of the normalized Gram matrix| / (n (n - 1) / 2)``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> reg = keras.regularizers.OrthogonalRegularizer(factor=0.2, mode="rows")
    >>> print(np.round(float(reg(np.array([[1.0, 1.0], [1.0, 0.0]], "float32"))), 4))
    0.1414
    """

    def __init__(self, factor: float = 0.01, mode: str = "rows") -> None:
        if not isinstance(factor, (float, int)) or factor != factor or factor in (float("inf"), -float("inf")) \
                or factor < 0:
            raise ValueError(f"Invalid value for argument factor: expected a non-negative float."
                             f"Received: factor={factor}")
        self.factor = convert_to_tensor(np.asarray(factor, backend.floatx()))
        if mode not in {"rows", "columns"}:
            raise ValueError('Invalid value for argument `mode`. Expected one of {"rows", "columns"}. '
                             f"Received: mode={mode}")
        self.mode = mode

    def __call__(self, inputs: Any) -> Tensor:
        if len(inputs.shape) != 2:
            raise ValueError(f"Inputs to OrthogonalRegularizer must have rank 2. Received: inputs.shape={inputs.shape}")
        if self.mode == "rows":
            x = as_tensor(_normalize(inputs, 1))
            product, size = matmul(x, transpose(x)), inputs.shape[0]
        else:
            x = as_tensor(_normalize(inputs, 0))
            product, size = matmul(transpose(x), x), inputs.shape[1]
        off_diagonal = product * (1.0 - eye(size, dtype=x.dtype))
        num_pairs = size * (size - 1.0) / 2.0
        return self.factor * 0.5 * reduce_sum(_abs(off_diagonal)) / num_pairs

    def get_config(self) -> dict:
        return {"factor": float(self.factor), "mode": self.mode}


l1, l2, l1_l2, orthogonal_regularizer = L1, L2, L1L2, OrthogonalRegularizer
_ALL = {"L1": L1, "L2": L2, "L1L2": L1L2, "l1": L1, "l2": L2, "l1_l2": L1L2,
        "OrthogonalRegularizer": OrthogonalRegularizer, "orthogonal_regularizer": OrthogonalRegularizer}


def serialize(regularizer: Regularizer) -> dict:
    """``{"module", "class_name", "config", "registered_name"}`` of a regularizer, as
    ``keras.saving.serialize_keras_object`` gives (a registered class of your own too)."""
    return _saving.serialize_keras_object(regularizer)


def deserialize(config: dict, custom_objects: dict | None = None) -> Regularizer:
    """The regularizer that :func:`serialize` described; a class of your own (registered with
    ``keras.saving.register_keras_serializable``, or named in ``custom_objects``) too."""
    if not isinstance(config, dict):
        raise ValueError(f"Could not interpret regularizer config: {config!r} (expected a dict from serialize()).")
    cls = _ALL.get(config.get("class_name"))
    if cls is None or custom_objects and config.get("class_name") in custom_objects:
        obj = _saving.deserialize_keras_object(config, custom_objects=custom_objects)
        if not isinstance(obj, Regularizer):
            raise ValueError(f"Could not interpret regularizer config: {config!r}")
        return obj
    return cls.from_config(config.get("config", {}))


def get(identifier: Any) -> Any:
    """A regularizer from a name (``"l2"``: default factor), a config dict, a class (an instance
    made with its defaults, as Keras does: ``kernel_regularizer=keras.regularizers.l1``), an
    instance or a callable; ``None`` gives ``None``.

    >>> from tapegrad import keras
    >>> type(keras.regularizers.get(keras.regularizers.l1)).__name__
    'L1'
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        cls = _ALL.get(identifier)
        if cls is None:
            raise ValueError(f"Could not interpret regularizer identifier: {identifier!r}; "
                             f"known names: {sorted(_ALL)}")
        return cls()
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret regularizer identifier: {identifier!r} "
                     f"(a {type(identifier).__name__}).")
