"""``from tensorflow.compiler.tf2xla.python import xla``: XLA's dynamic slices as tapegrad ops
(under ``tapegrad.install_as_tensorflow()`` that TensorFlow path imports this module).

TensorFlow exposes XLA's operations here for code that builds XLA computations; programs use the
two that have no ``tf.*`` equivalent, ``dynamic_slice`` and ``dynamic_update_slice``, which take
their start positions as tensors (so a replayed ``tf.function`` takes them per call). As XLA's,
each start is clamped so that the slice lies inside the operand (a start past the end moves back,
a negative one is 0). Both are differentiable in the operand and the update (gathers and a
scatter). The rest of the module (XLA's ``dot_general``, ``reduce_window``, ``while_loop``, ...)
is not here: their ``tf.*`` counterparts are.

>>> import tapegrad as tf
>>> from tapegrad import _xla as xla
>>> x = tf.zeros([5])
>>> xla.dynamic_update_slice(x, tf.ones([2]), [4]).numpy()   # (start 4 clamped to 3)
array([0., 0., 0., 1., 1.], dtype=float32)
>>> xla.dynamic_slice(tf.range(10), [tf.constant(7)], [4]).numpy()
array([6, 7, 8, 9], dtype=int32)
"""
from __future__ import annotations

from typing import Any, Sequence

from ._convert import convert_to_tensor
from ._tensor import Tensor
from .ops import array as _array, indexing as _indexing, math as _math

__all__ = ["dynamic_slice", "dynamic_update_slice"]


def _grid(shape: Sequence[int], starts: Any, sizes: Sequence[int], op: str) -> Tensor:
    """The indices ``[*sizes, rank]`` of the block of ``sizes`` at ``starts`` (clamped as XLA's)."""
    rank = len(shape)
    starts = list(starts) if isinstance(starts, (list, tuple)) else list(_array.unstack(convert_to_tensor(starts)))
    if len(starts) != rank or len(sizes) != rank:
        raise ValueError(f"{op}: the operand has rank {rank} but {len(starts)} start indices and "
                         f"{len(sizes)} sizes were given (one of each per dimension)")
    axes = []
    for d, (n, size, start) in enumerate(zip(shape, sizes, starts)):
        if not 0 <= size <= n:
            raise ValueError(f"{op}: size {size} of dimension {d} is outside [0, {n}]")
        s = _math.cast(convert_to_tensor(start), "int32")
        if s.shape.rank != 0:
            raise ValueError(f"{op}: each start index must be a scalar, got shape {s.shape}")
        s = _math.minimum(_math.maximum(s, 0), n - size)
        axes.append(s + _array.range(size))
    return _array.stack(_array.meshgrid(*axes, indexing="ij"), axis=-1)


def dynamic_slice(x: Any, starts: Any, size_indices: Any, name: Any = None) -> Tensor:
    """The block of ``x`` of shape ``size_indices`` at ``starts`` (one scalar per dimension, each
    clamped to ``[0, x.shape[d] - size]``), XLA's ``DynamicSlice``."""
    x = convert_to_tensor(x)
    sizes = [int(s) for s in (size_indices.numpy() if isinstance(size_indices, Tensor) else size_indices)]
    return _indexing.gather_nd(x, _grid(x.shape.as_list(), starts, sizes, "dynamic_slice"))


def dynamic_update_slice(operand: Any, update: Any, start_indices: Any, name: Any = None) -> Tensor:
    """``operand`` with ``update`` written over the block at ``start_indices`` (one scalar per
    dimension, each clamped to ``[0, operand.shape[d] - update.shape[d]]``), XLA's
    ``DynamicUpdateSlice``."""
    operand = convert_to_tensor(operand)
    update = convert_to_tensor(update, operand.dtype)
    if update.shape.rank != operand.shape.rank:
        raise ValueError(f"dynamic_update_slice: update of rank {update.shape.rank} for an operand of "
                         f"rank {operand.shape.rank} (they must have the same rank)")
    grid = _grid(operand.shape.as_list(), start_indices, update.shape.as_list(), "dynamic_update_slice")
    return _indexing.tensor_scatter_nd_update(operand, grid, update)
