"""A saved trace for every size of the dimensions a signature declares None.

A trace is specific to its input shapes: an op's parameters (a reshape's target, a pool's
padding) and constants (an RNN's zero state) hold the sizes. A signature's function is traced
with each None dimension at a base size, once more per dimension with that one grown, and once
with every dimension at other sizes. Where the traces differ, every difference must be an
integer that is affine in the sizes (``d + sum(c_j * n_j)``) or a constant array filled with one
value whose shape is: those become *holes*, filled in for each call's sizes. The last trace checks
the prediction; anything else (another op sequence, a float that depends on a size) is an error
at save time.
"""
from __future__ import annotations

import copy
from typing import Any

import numpy as np

BASE = 2


def plan(k: int) -> list:
    """The sizes of the ``k`` None dimensions in each trace: base, one grown per dimension, check."""
    base = [BASE] * k
    return [base] + [[BASE + (i == j) for i in range(k)] for j in range(k)] + [[5 + 2 * i for i in range(k)]]


class NotAffine(ValueError):
    """The traces differ in a way no hole describes."""


def holes(traces: list, what: str) -> dict:
    """The holes of the traces made with :func:`plan`'s sizes (``{"data", "arrays"}``), each
    trace ``{"data": json, "arrays": [...]}``; verified against the last trace."""
    k = len(traces) - 2
    base, grown, check = traces[0], traces[1:1 + k], traces[-1]
    data: list = []
    _diff(base["data"], [g["data"] for g in grown], [], data, what)
    arrays = []
    if any(len(g["arrays"]) != len(base["arrays"]) for g in grown):
        raise NotAffine(f"{what}: its constants depend on the sizes")
    for i, a in enumerate(base["arrays"]):
        others = [g["arrays"][i] for g in grown]
        if all(_same_array(a, b) for b in others):
            continue
        arrays.append(_array_hole(i, a, others, what))
    out = {"data": data, "arrays": arrays}
    predicted = fill(base, out, plan(k)[-1])
    if predicted["data"] != check["data"] or len(predicted["arrays"]) != len(check["arrays"]) or not all(
            _same_array(a, b) for a, b in zip(predicted["arrays"], check["arrays"])):
        raise NotAffine(f"{what}: its trace at other sizes is not the one predicted from two sizes")
    return out


def _diff(a: Any, bs: list, path: list, out: list, what: str) -> None:
    if type(a) is dict:
        if any(type(b) is not dict or b.keys() != a.keys() for b in bs):
            raise NotAffine(f"{what}: its steps depend on the sizes")
        for key in a:
            _diff(a[key], [b[key] for b in bs], path + [key], out, what)
    elif type(a) is list:
        if any(type(b) is not list or len(b) != len(a) for b in bs):
            raise NotAffine(f"{what}: its steps depend on the sizes")
        for i, x in enumerate(a):
            _diff(x, [b[i] for b in bs], path + [i], out, what)
    elif type(a) is int:
        if any(type(b) is not int for b in bs):
            raise NotAffine(f"{what}: a value depends on the sizes")
        if any(b != a for b in bs):
            c = [b - a for b in bs]
            out.append([path, a - BASE * sum(c), c])
    elif any(b != a or type(b) is not type(a) for b in bs):
        raise NotAffine(f"{what}: a value other than an integer ({a!r:.40}) depends on the sizes")


def _same_array(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")


def _array_hole(i: int, a: np.ndarray, others: list, what: str) -> list:
    if any(b.dtype != a.dtype or b.ndim != a.ndim for b in others):
        raise NotAffine(f"{what}: a constant's dtype or rank depends on the sizes")
    flat = a.reshape(-1)
    if a.size and all(b.size for b in others) and (flat == flat[0]).all() and all(
            (b.reshape(-1) == flat[0]).all() for b in others):
        shape = []
        for d, s in enumerate(a.shape):
            c = [b.shape[d] - s for b in others]
            shape.append([s - BASE * sum(c), c])
        return [i, "fill", flat[:1].copy(), shape]
    if a.dtype.kind in "iu" and all(b.shape == a.shape for b in others):
        coeffs = [b.astype(np.int64) - a.astype(np.int64) for b in others]
        return [i, "affine", a.astype(np.int64) - BASE * sum(coeffs), np.stack(coeffs)]
    raise NotAffine(f"{what}: a constant array's values depend on the sizes")


def fill(prog: dict, hs: dict, sizes: list) -> dict:
    """``prog`` (``{"data", "arrays"}``) with its holes filled for ``sizes``."""
    data = copy.deepcopy(prog["data"])
    for path, d, c in hs["data"]:
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = d + sum(cj * n for cj, n in zip(c, sizes))
    arrays = list(prog["arrays"])
    for i, kind, x, y in hs["arrays"]:
        base = prog["arrays"][i]
        if kind == "fill":
            shape = [d + sum(cj * n for cj, n in zip(c, sizes)) for d, c in y]
            if any(s < 0 for s in shape):
                raise ValueError(f"sizes {sizes} give a constant a negative dimension {shape}")
            arrays[i] = np.full(shape, x[0], base.dtype)
        else:
            arrays[i] = (x + np.tensordot(np.asarray(sizes, np.int64), y, axes=1)).astype(base.dtype)
    return {"data": data, "arrays": arrays}
