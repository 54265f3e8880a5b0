"""Keras 3's ``HashedCrossing``: crosses categorical features with the hashing trick, through
``tf.sparse.cross_hashed`` as Keras's does (TensorFlow's bins, bit for bit)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._engine import Tensor
from ... import sparse as _sparse
from ...ops.array import reshape, squeeze
from .._keras_tensor import KerasTensor
from .layer import Layer
from .text import _Preprocessing, _choice, _encode

__all__ = ["HashedCrossing"]


class HashedCrossing(_Preprocessing):
    """Crosses two or more categorical features (integers or strings) into ``num_bins`` bins,
    ``hash(features) % num_bins`` (Keras 3's ``HashedCrossing``): TensorFlow's
    ``tf.sparse.cross_hashed`` of the features, one per sample. Inputs have shape ``()``,
    ``(batch,)`` or ``(batch, 1)``, all the same; ``output_mode="int"`` gives int64 bins,
    ``"one_hot"`` their one-hot rows (float32; a ``tf.SparseTensor`` with ``sparse=True``).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> layer = keras.layers.HashedCrossing(num_bins=5)
    >>> layer((np.array(["A", "B", "A", "B", "A"]), np.array([101, 101, 101, 102, 102]))).numpy()
    array([1, 4, 1, 1, 3])
    """

    def __init__(self, num_bins: int, output_mode: str = "int", sparse: bool = False, name: str | None = None,
                 dtype: Any = None, **kwargs: Any) -> None:
        if output_mode == "int" and dtype is None:
            dtype = "int64"
        super().__init__(name=name, dtype=dtype, autocast=False, **kwargs)  # (inputs as given: Keras converts none)
        _choice("HashedCrossing", "output_mode", output_mode, ("int", "one_hot"))
        self.num_bins, self.output_mode, self.sparse = num_bins, output_mode, sparse
        self.trainable = False
        self.built = True

    def __call__(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(f"`HashedCrossing` should be called on a list or tuple of inputs. Received: "
                             f"inputs={inputs}")
        if len(inputs) < 2:
            raise ValueError(f"`HashedCrossing` should be called on at least two inputs. Received: "
                             f"inputs={inputs}")
        if not any(isinstance(x, KerasTensor) for x in inputs):
            inputs = [x if isinstance(x, Tensor) else self._to_tensor(x) for x in inputs]
        return Layer.__call__(self, list(inputs), *args, **kwargs)  # (each input converted above)

    def compute_output_spec(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        shape = self.compute_output_shape([tuple(x.shape) for x in inputs])
        return KerasTensor(shape, self.compute_dtype, sparse=self.sparse and self.output_mode != "int")

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        if len(input_shape) != 2 or not all(isinstance(s, (tuple, list)) for s in input_shape):
            raise ValueError(f"Expected as input a list/tuple of 2 tensors. Received input_shape={input_shape}")
        first = tuple(input_shape[0])
        if first and tuple(input_shape[1]) and first[-1] != tuple(input_shape[1])[-1]:
            raise ValueError(f"Expected the two input tensors to have identical shapes. Received "
                             f"input_shape={input_shape}")
        if self.output_mode == "int":
            return first
        if not first or first[-1] != 1:
            return first + (self.num_bins,)
        return first[:-1] + (self.num_bins,)

    def call(self, inputs: Any) -> Any:
        first = tuple(inputs[0].shape)
        rank = len(first)
        if rank > 2 or (rank == 2 and first[-1] != 1):
            raise ValueError(f"All `HashedCrossing` inputs should have shape `()`, `(batch_size)` or "
                             f"`(batch_size, 1)`. Received: inputs={inputs}")
        if not all(tuple(x.shape) == first for x in inputs[1:]):
            raise ValueError(f"All `HashedCrossing` inputs should have equal shape. Received: inputs={inputs}")
        if not all(x.dtype.is_integer or x.dtype.name == "string" for x in inputs):
            raise ValueError(f"All `HashedCrossing` inputs should have an integer or string dtype. Received: "
                             f"inputs={inputs}")
        cols = [reshape(x, (-1, 1)) for x in inputs]
        bins = _sparse.to_dense(_sparse.cross_hashed(cols, self.num_bins))
        out = reshape(bins, first) if rank != 1 else squeeze(bins, axis=1)
        if self.output_mode == "int":
            return out
        return _encode(out, "one_hot", self.num_bins, self.compute_dtype, sparse=self.sparse)

    def _output_dtype(self) -> str:
        return self.compute_dtype

    def get_config(self) -> dict:
        return {"num_bins": self.num_bins, "output_mode": self.output_mode, "sparse": self.sparse,
                "name": self.name, "dtype": self.dtype_policy.name if hasattr(self, "dtype_policy") else self.dtype}
