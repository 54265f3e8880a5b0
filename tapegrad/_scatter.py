"""Sums of rows by index (``np.add.at`` into zeros), in the order ``np.add.at`` adds them.

``np.add.at`` adds one row at a time through a generic loop: for an embedding's gradient (2,048
rows of 64 into a table of 1,000) it takes about 0.9 ms,
this about half. Here the rows are taken in passes: the
first occurrence of every index in one vectorised ``+=`` (no index repeats within a pass), then
the second occurrences, and so on. Each row's slices are added one after another in the order
they come, as ``np.add.at`` adds them, so the bits are the same. (``np.add.reduceat`` would add
a run of rows pairwise: other bits.)
"""
from __future__ import annotations

from typing import Any

import numpy as np

_MIN = 32          # below this many rows the generic loop is as fast,
_WIDTH = 32        # and for rows narrower than this
_MAX_PASSES = 32   # nor when an index repeats more often than this
_KERNEL_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def sum_rows(values: np.ndarray, index: np.ndarray, num_rows: int, kernel: Any = None) -> np.ndarray:
    """``out = zeros((num_rows,) + values.shape[1:]); np.add.at(out, index, values)``, the same
    bits. ``index`` holds ints in ``[0, num_rows)``, one per row of ``values``. ``kernel``: the
    compiled loop of the same additions (tapegrad._jit's ``sum_rows``), taken for float32/64."""
    out = np.zeros_like(values, shape=(num_rows,) + values.shape[1:])
    if (kernel is not None and type(values) is np.ndarray and values.ndim >= 2 and index.ndim == 1
            and values.shape[0] == index.size and values.dtype in _KERNEL_DTYPES
            and values.flags.c_contiguous and index.dtype.kind in "iu"):
        kernel(values.reshape(index.size, -1), index, out.reshape(num_rows, -1))
        return out
    if (type(values) is not np.ndarray or index.ndim != 1 or index.size < _MIN
            or values.ndim < 2 or values.shape[0] != index.size
            or values.size < _WIDTH * index.size):
        np.add.at(out, index, values)
        return out
    order = np.argsort(index, kind="stable")
    ranked = index[order]
    first = np.concatenate(([True], ranked[1:] != ranked[:-1]))
    starts = np.flatnonzero(first)
    occurrence = np.arange(index.size) - starts[np.cumsum(first) - 1]   # 0 for a first, ...
    passes = int(occurrence.max()) + 1
    if passes > _MAX_PASSES:   # (one row repeated many times: the loop is as fast)
        np.add.at(out, index, values)
        return out
    by_pass = np.argsort(occurrence, kind="stable")
    order, ranked = order[by_pass], ranked[by_pass]
    rows = values[order]
    bounds = np.concatenate(([0], np.cumsum(np.bincount(occurrence, minlength=passes))))
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        out[ranked[lo:hi]] += rows[lo:hi]
    return out
