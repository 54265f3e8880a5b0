"""``Dataset.save`` and ``Dataset.load`` (``tf.data.experimental.save``/``load``): a dataset's elements
written to a folder and read back as a dataset.

The folder holds ``dataset_spec.json`` (the element structure and each component's shape and dtype)
and one ``shard_<n>.npz`` per shard: per component, the elements' values concatenated
(``c<j>/data``; strings as their bytes, ``c<j>/sizes`` their lengths) and each element's shape
(``c<j>/shapes``). Nothing in it is pickled or runs code when read. It is tapegrad's format, not
TensorFlow's snapshot format: TensorFlow cannot read it, nor tapegrad TensorFlow's.
"""
from __future__ import annotations

import json
import os
from collections import OrderedDict
from typing import Any, Iterator

import numpy as np

from .. import _nest, dtypes as _dt
from .._convert import host_value
from .._tensor import TensorShape
from ..errors import NotFoundError
from . import _structure as _s

_SPEC = "dataset_spec.json"
_VERSION = 1


def _structure(x: Any, leaves: list) -> Any:
    """The nest ``x`` as JSON, its leaves (specs) appended to ``leaves`` in flattening order."""
    if isinstance(x, dict):
        keys = _nest.sorted_keys(x)
        return {"t": "odict" if type(x) is not dict else "dict", "k": list(x), "v": {k: _structure(x[k], leaves) for k in keys}}
    if isinstance(x, tuple):
        return {"t": "tuple", "v": [_structure(v, leaves) for v in x]}
    if type(x) is not _s.TensorSpec:
        raise NotImplementedError(f"Dataset.save: a component with spec {x!r} is not covered (tensors of numbers, "
                                  "bools and strings are); convert ragged and sparse components with to_tensor() "
                                  "in a map first.")
    leaves.append({"shape": None if x.shape.rank is None else list(x.shape), "dtype": x.dtype.name})
    return {"t": "leaf"}


def _template(j: Any, specs: list) -> Any:
    """The spec nest that :func:`_structure` wrote as ``j`` (leaves taken from ``specs`` in order)."""
    t = j["t"]
    if t in ("dict", "odict"):
        vals = {k: _template(j["v"][k], specs) for k in sorted(j["v"], key=str)}
        ordered = [(k, vals[k]) for k in j["k"]]
        return OrderedDict(ordered) if t == "odict" else dict(ordered)
    if t == "tuple":
        return tuple(_template(v, specs) for v in j["v"])
    s = specs.pop(0)
    return _s.tensor_spec(TensorShape(s["shape"]), _dt.as_dtype(s["dtype"]))


def write(path: str, spec: Any, items: Iterator, compression: Any = None) -> None:
    """Write ``items``, pairs ``(shard index, element)``, as a saved dataset of ``spec`` in folder ``path``."""
    if compression not in (None, "", "GZIP"):
        raise ValueError(f"Dataset.save: `compression` must be None or 'GZIP'; got {compression!r}.")
    leaves: list = []
    structure = _structure(spec, leaves)
    shards: dict = {}
    for k, e in items:
        cols = shards.setdefault(k, [[] for _ in leaves])
        for col, v in zip(cols, _nest.flatten(e)):
            col.append(v)
    os.makedirs(path, exist_ok=True)
    for k, cols in sorted(shards.items()):
        arrays: dict = {}
        for j, (col, leaf) in enumerate(zip(cols, leaves)):
            arrays.update(_column(j, col, leaf["dtype"]))
        (np.savez_compressed if compression == "GZIP" else np.savez)(os.path.join(path, f"shard_{k:05d}.npz"), **arrays)
    meta = {"format": "tapegrad dataset", "version": _VERSION, "structure": structure, "leaves": leaves,
            "shards": [f"shard_{k:05d}.npz" for k in sorted(shards)],
            "counts": [len(shards[k][0]) if leaves else 0 for k in sorted(shards)]}
    with open(os.path.join(path, _SPEC), "w", encoding="utf-8") as f:
        json.dump(meta, f)


def shard_index(r: Any) -> int:
    """``shard_func``'s result as a shard index."""
    v = np.asarray(host_value(r, "shard_func's result"))
    if v.shape != () or v.dtype.kind not in "iu" or int(v) < 0:
        raise TypeError(f"Dataset.save: `shard_func` must return a non-negative scalar integer (the shard "
                        f"index); it returned {r!r}.")
    return int(v)


def _column(j: int, col: list, dtype: str) -> dict:
    shapes = np.array([np.shape(v) for v in col], np.int64).reshape(len(col), -1)
    if dtype == "string":
        flat = [b if type(b) is bytes else bytes(np.asarray(b, dtype=object).item())
                for v in col for b in np.asarray(v, dtype=object).reshape(-1)]
        return {f"c{j}/shapes": shapes, f"c{j}/sizes": np.array([len(b) for b in flat], np.int64),
                f"c{j}/data": np.frombuffer(b"".join(flat), np.uint8)}
    data = np.concatenate([np.asarray(v).reshape(-1) for v in col]) if col else np.zeros(0, _dt.as_dtype(dtype)._np)
    return {f"c{j}/shapes": shapes, f"c{j}/data": data}


def read_meta(path: str, element_spec: Any = None) -> tuple:
    """``(spec, leaves, [(shard file, element count), ...])`` of the dataset saved in ``path``."""
    meta_path = os.path.join(path, _SPEC)
    try:
        with open(meta_path, encoding="utf-8") as f:
            meta = json.load(f)
    except FileNotFoundError:
        raise NotFoundError(f"Dataset.load: {path!r} holds no dataset saved by tapegrad's Dataset.save (no "
                            f"{_SPEC}); tapegrad cannot read TensorFlow's saved datasets.") from None
    if not isinstance(meta, dict) or meta.get("format") != "tapegrad dataset" or meta.get("version") != _VERSION:
        raise ValueError(f"Dataset.load: {meta_path!r} was not written by this tapegrad's Dataset.save.")
    spec = _template(meta["structure"], list(meta["leaves"]))
    if element_spec is not None and _nest.flatten(element_spec) != _nest.flatten(spec):
        raise ValueError(f"Dataset.load: the saved elements have spec {spec}, not the `element_spec` given, "
                         f"{element_spec}.")
    return spec, meta["leaves"], [(os.path.join(path, name), int(n)) for name, n in zip(meta["shards"], meta["counts"])]


def read_shard(file: str, leaves: list, n: int) -> list:
    """The columns (one list of element values per component) of one shard."""
    with np.load(file, allow_pickle=False) as z:
        return [_elements_of(z, j, leaf["dtype"], n) for j, leaf in enumerate(leaves)]


def _elements_of(z: Any, j: int, dtype: str, n: int) -> list:
    shapes = z[f"c{j}/shapes"]
    sizes = [int(np.prod(s)) for s in shapes]
    ends = np.cumsum([0] + sizes)
    if dtype == "string":
        lens = z[f"c{j}/sizes"]
        data = z[f"c{j}/data"].tobytes()
        offs = np.concatenate([[0], np.cumsum(lens)])
        strings = [data[offs[i]:offs[i + 1]] for i in range(len(lens))]
        out = []
        for i in range(n):
            a = np.empty(sizes[i], dtype=object)
            a[:] = strings[ends[i]:ends[i + 1]]
            out.append(a.reshape(tuple(shapes[i])) if len(shapes[i]) else a[0])
        return out
    data = z[f"c{j}/data"]
    return [data[ends[i]:ends[i + 1]].reshape(tuple(shapes[i])).copy() for i in range(n)]
