"""``keras.Input`` and ``InputLayer``, the layer that holds a functional model's symbolic input."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._keras_tensor import KerasTensor, Node
from .layer import Layer

__all__ = ["Input", "InputLayer"]


class InputLayer(Layer):
    """The layer behind ``keras.Input``: it holds the symbolic input of a functional model."""

    def __init__(self, shape: Any = None, batch_size: int | None = None, dtype: Any = None,
                 sparse: Any = None, batch_shape: Any = None, input_tensor: Any = None,
                 optional: bool = False, name: str | None = None, ragged: bool = False,
                 **kwargs: Any) -> None:
        if "input_shape" in kwargs:
            shape = kwargs.pop("input_shape")
        if "batch_input_shape" in kwargs:
            batch_shape = kwargs.pop("batch_input_shape")
        super().__init__(name=name, dtype=dtype, **kwargs)
        if ragged:
            raise ValueError("tapegrad's Keras layers take dense tensors: InputLayer(ragged=True) is not "
                             "supported (pad the rows, e.g. rt.to_tensor(), and use a mask).")
        if shape is not None and batch_shape is not None:
            raise ValueError("You cannot pass both `shape` and `batch_shape` at the same time.")
        if shape is None and batch_shape is None and input_tensor is None:
            raise ValueError("You must pass a `shape` argument.")
        if input_tensor is not None:
            batch_shape = input_tensor.shape
        elif batch_shape is None:
            shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
            batch_shape = (batch_size,) + shape
        self.batch_shape = tuple(batch_shape)
        self.optional = optional
        self.sparse = bool(sparse)
        self.built = True
        out = KerasTensor(self.batch_shape, self.dtype, name=self.name, sparse=self.sparse)
        out._node = Node(self, (), {}, out)

    def call(self, inputs: Any) -> Any:
        return inputs

    def get_config(self) -> dict:
        return {"batch_shape": self.batch_shape, "dtype": self.dtype, "sparse": self.sparse,
                "ragged": False, "name": self.name, "optional": self.optional}


def Input(shape: Any = None, batch_size: int | None = None, dtype: Any = None, sparse: Any = None,
          batch_shape: Any = None, name: str | None = None, tensor: Any = None,
          optional: bool = False) -> KerasTensor:
    """A symbolic input of a functional model: ``keras.Input(shape)`` leaves out the batch axis.

    >>> from tapegrad import keras
    >>> x = keras.Input((3,))
    >>> x.shape, x.dtype
    ((None, 3), 'float32')
    """
    return InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, sparse=sparse,
                      batch_shape=batch_shape, input_tensor=tensor, optional=optional,
                      name=name).output
