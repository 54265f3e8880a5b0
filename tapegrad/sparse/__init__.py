"""``tf.sparse``: the SparseTensor type and the ops on it (docs/sparse.md)."""
from ._sparse_tensor import SparseTensor, SparseTensorSpec
from .ops import (add, concat, cross, cross_hashed, expand_dims, eye, fill_empty_rows, from_dense, map_values, mask, maximum, minimum,
                  reduce_max, reduce_sum, reorder, reset_shape, reshape, retain, segment_mean, segment_sqrt_n,
                  segment_sum, slice, softmax, sparse_dense_matmul, split, to_dense, to_indicator, transpose)

__all__ = ["SparseTensor", "SparseTensorSpec", "add", "concat", "cross", "cross_hashed", "expand_dims", "eye", "fill_empty_rows", "from_dense",
           "map_values", "mask", "maximum", "minimum", "reduce_max", "reduce_sum", "reorder", "reset_shape",
           "reshape", "retain", "segment_mean", "segment_sqrt_n", "segment_sum", "slice", "softmax",
           "sparse_dense_matmul", "split", "to_dense", "to_indicator", "transpose"]

_NOT_YET = ("bincount", "sampled_addmm")


def __getattr__(name: str) -> object:
    """TensorFlow's tf.sparse names tapegrad lacks say so; anything else is a plain AttributeError."""
    msg = f"module 'tapegrad.sparse' has no attribute {name!r}"
    if name in _NOT_YET:
        msg += f": tapegrad does not cover tf.sparse.{name} yet (docs/sparse.md lists what tf.sparse has)"
    raise AttributeError(msg)
