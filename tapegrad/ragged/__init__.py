"""``tapegrad.ragged``: TensorFlow's ``tf.ragged`` and ``tf.RaggedTensor``, tensors whose rows
have different lengths. Loads on first use of ``tf.ragged`` or ``tf.RaggedTensor``;
docs/ragged.md says what exists and how it differs from TensorFlow.

>>> import tapegrad as tf
>>> r = tf.ragged.constant([[1.0, 2.0], [3.0]])
>>> with tf.GradientTape() as tape:
...     tape.watch(r)
...     loss = tf.reduce_sum(tf.reduce_mean(r * r, axis=1))
>>> tape.gradient(loss, r)
<tf.RaggedTensor [[1.0, 2.0], [6.0]]>
"""
import typing as _typing

from ..ops import _OPERATORS as _TENSOR_OPERATORS
from ._ops import (boolean_mask, constant, getitem as _getitem, map_flat_values, range,  # noqa: A004
                   row_splits_to_segment_ids, segment_ids_to_row_splits, stack)
from ._ragged_tensor import DynamicRaggedShape, RaggedTensor, RaggedTensorSpec

__all__ = ["RaggedTensor", "RaggedTensorSpec", "DynamicRaggedShape", "boolean_mask", "constant",
           "map_flat_values", "range", "row_splits_to_segment_ids", "segment_ids_to_row_splits", "stack"]

# Python operators: the Tensor operators, which hand a RaggedTensor to the ragged handlers
# (elementwise on the flat values); indexing has TensorFlow's ragged rules (_ops.getitem).
for _name, _fn in _TENSOR_OPERATORS.items():
    if _name not in ("__getitem__", "__matmul__", "__rmatmul__"):
        setattr(RaggedTensor, _name, _fn)
RaggedTensor.__getitem__ = _getitem  # type: ignore[method-assign]
del _name, _fn

if not _typing.TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "not covered yet" for a TF name, "did you mean" for a typo
        if name.startswith("_"):
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from .._missing import attribute_error
        raise attribute_error("ragged", name)
