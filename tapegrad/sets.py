"""``tapegrad.sets``: TensorFlow's ``tf.sets``: set operations along the last dimension.

Each set is the last dimension of a tensor (every value of it) or of a SparseTensor (the values
present in that row). ``intersection``, ``union`` and ``difference`` return a SparseTensor
whose rows hold each result set sorted ascending, of dense shape ``batch + [largest set]``;
``size`` counts a SparseTensor's distinct values per row. The dtypes are TF's: int8, int16,
int32, int64, uint8, uint16 and string. A SparseTensor's indices must be in row-major order
(``validate_indices``). No gradient (integer and string sets).

>>> import tapegrad as tf
>>> st = tf.sets.intersection(tf.constant([[1, 2, 3], [4, 5, 6]]), tf.constant([[2, 3, 9], [6, 6, 1]]))
>>> st.indices.numpy().tolist(), st.values.numpy().tolist(), st.dense_shape.numpy().tolist()
([[0, 0], [0, 1], [1, 0]], [2, 3, 6], [2, 2])
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ._convert import convert_to_tensor, host_value
from ._tensor import Tensor, constant_maker, wrap
from .errors import InvalidArgumentError
from .sparse import SparseTensor

__all__ = ["size", "intersection", "union", "difference"]

_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "string")
_SUPPORTED = "`frozenset({tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint16, tf.string})`"


def _dtype_text(t: Any) -> str:
    return f"<dtype: '{t.dtype.name}'>"


def _operand(x: Any) -> Any:
    return x if isinstance(x, SparseTensor) else convert_to_tensor(x)


def _check_dtype(t: Any, which: str | None) -> None:
    if t.dtype.name not in _DTYPES:
        raise TypeError((f"'{which}' has invalid dtype" if which else "Invalid dtype")
                        + f" `{_dtype_text(t)}` not in supported dtypes: {_SUPPORTED}.")


def _groups(x: Any, validate: bool, opname: str) -> tuple[tuple, list]:
    """``(batch shape, [one list of values per batch position, row-major])``."""
    if isinstance(x, SparseTensor):
        shape = [int(d) for d in np.asarray(host_value(x.dense_shape, "a set's dense shape"))]
        if len(shape) < 2:
            raise InvalidArgumentError(f"Shape {shape} has rank {len(shape)} < 2 [Op:{opname}]")
        idx = np.asarray(host_value(x.indices, "a set's indices")).reshape(-1, len(shape))
        vals = np.asarray(host_value(x.values, "a set's values"))
        if validate:
            for i in range(1, len(idx)):
                if tuple(idx[i]) <= tuple(idx[i - 1]):
                    raise InvalidArgumentError(
                        f"indices[{i}] = [{','.join(map(str, idx[i]))}] is "
                        + ("repeated" if tuple(idx[i]) == tuple(idx[i - 1]) else "out of order")
                        + ". Many sparse ops require sorted indices.\n    Use `tf.sparse.reorder` to create a "
                        f"correctly ordered copy.\n\n [Op:{opname}]")
        batch = tuple(shape[:-1])
        rows: list = [[] for _ in range(int(np.prod(batch, dtype=np.int64)))]
        if len(idx):
            flat = np.ravel_multi_index(tuple(idx[:, :-1].T), batch) if batch else np.zeros(len(idx), int)
            for r, v in zip(flat, vals):
                rows[r].append(v)
        return batch, rows
    arr = np.asarray(host_value(x, "a set's values"))
    if arr.ndim < 2:
        raise InvalidArgumentError(f"Shape {list(arr.shape)} has rank {arr.ndim} < 2 [Op:{opname}]")
    batch = arr.shape[:-1]
    return batch, list(arr.reshape(-1, arr.shape[-1]))


@constant_maker  # (from guarded reads of the inputs: host_value)
def _result(batch: tuple, sets: list, dtype: Any) -> SparseTensor:
    width = max((len(s) for s in sets), default=0)
    idx, vals = [], []
    for r, s in enumerate(sets):
        pos = np.unravel_index(r, batch) if batch else ()
        for j, v in enumerate(s):
            idx.append([*map(int, pos), j])
            vals.append(v)
    npdt = dtype.as_numpy_dtype
    indices = np.asarray(idx, np.int64).reshape(-1, len(batch) + 1)
    values = np.asarray(vals, dtype=npdt) if npdt is not np.object_ else np.array(vals + [None], object)[:-1]
    return SparseTensor(wrap(indices), wrap(values), wrap(np.asarray([*batch, width], np.int64)))


def _set_operation(a: Any, b: Any, how: str, validate_indices: bool) -> SparseTensor:
    a, b = _operand(a), _operand(b)
    _check_dtype(a, "a")
    _check_dtype(b, "b")
    if a.dtype != b.dtype:
        raise TypeError(f"Types don't match, {_dtype_text(a)} vs {_dtype_text(b)}.")
    sparse_a, sparse_b = isinstance(a, SparseTensor), isinstance(b, SparseTensor)
    opname = ("Sparse" if sparse_a else "Dense") + "To" + ("Sparse" if sparse_b else "Dense") + "SetOperation"
    if sparse_a and not sparse_b:
        opname = "DenseToSparseSetOperation"
    batch_a, rows_a = _groups(a, validate_indices, opname)
    batch_b, rows_b = _groups(b, validate_indices, opname)
    if tuple(batch_a) != tuple(batch_b):
        raise InvalidArgumentError(f"Mismatched shapes {list(batch_a)} vs {list(batch_b)} [Op:{opname}]")
    out = []
    for ra, rb in zip(rows_a, rows_b):
        sa, sb = set(np.asarray(ra).tolist()), set(np.asarray(rb).tolist())
        s = sa & sb if how == "intersection" else sa | sb if how == "union" else sa - sb if how == "a-b" else sb - sa
        out.append(sorted(s))
    return _result(tuple(batch_a), out, a.dtype)


@constant_maker  # (from guarded reads of the input: host_value)
def size(a: Any, validate_indices: bool = True) -> Tensor:
    """The number of distinct values in each last-dimension row of the SparseTensor ``a``: an
    int32 tensor of shape ``a.dense_shape[:-1]``.

    >>> import tapegrad as tf
    >>> tf.sets.size(tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [7, 7, 2], [2, 3])).numpy()
    array([1, 1], dtype=int32)
    """
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a}.")
    _check_dtype(a, None)
    batch, rows = _groups(a, validate_indices, "SetSize")
    counts = np.asarray([len(set(np.asarray(r).tolist())) for r in rows], np.int32).reshape(batch)
    return wrap(counts)


def intersection(a: Any, b: Any, validate_indices: bool = True) -> SparseTensor:
    """The values in both ``a`` and ``b``, row by row (dense tensors or SparseTensors).

    >>> import tapegrad as tf
    >>> tf.sets.intersection([[1, 2]], [[2, 5]]).values.numpy()
    array([2], dtype=int32)
    """
    return _set_operation(a, b, "intersection", validate_indices)


def union(a: Any, b: Any, validate_indices: bool = True) -> SparseTensor:
    """The values in ``a`` or ``b``, row by row, sorted.

    >>> import tapegrad as tf
    >>> tf.sets.union([[1, 2]], [[2, 5]]).values.numpy()
    array([1, 2, 5], dtype=int32)
    """
    return _set_operation(a, b, "union", validate_indices)


def difference(a: Any, b: Any, aminusb: bool = True, validate_indices: bool = True) -> SparseTensor:
    """The values of ``a`` not in ``b`` (``aminusb=False``: of ``b`` not in ``a``), row by row.

    >>> import tapegrad as tf
    >>> tf.sets.difference([[1, 2]], [[2, 5]]).values.numpy()
    array([1], dtype=int32)
    """
    return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)
