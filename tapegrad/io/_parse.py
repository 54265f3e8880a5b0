"""``tf.io.parse_example`` and ``parse_single_example``: ``tf.train.Example`` records into tensors, with
the feature specs ``FixedLenFeature``, ``FixedLenSequenceFeature``, ``VarLenFeature``, ``SparseFeature``
and ``RaggedFeature``.

>>> import tapegrad as tf
>>> record = tf.train.Example(features=tf.train.Features(feature={
...     "x": tf.train.Feature(float_list=tf.train.FloatList(value=[1.0, 2.0])),
...     "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[3]))})).SerializeToString()
>>> spec = {"x": tf.io.FixedLenFeature([2], tf.float32), "label": tf.io.FixedLenFeature([], tf.int64)}
>>> parsed = tf.io.parse_single_example(record, spec)
>>> parsed["x"].numpy(), int(parsed["label"])
(array([1., 2.], dtype=float32), 3)
"""
from __future__ import annotations

import collections
import importlib
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._convert import convert_to_tensor
from .._tensor import TensorShape
from ..errors import InvalidArgumentError
from ._proto import DecodeError, Example, SequenceExample

__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "RaggedFeature", "SparseFeature", "VarLenFeature",
           "parse_example", "parse_single_example"]

_KIND = {"float32": ("float_list", "float"), "int64": ("int64_list", "int64"), "string": ("bytes_list", "string")}


def _dtype(dtype: Any) -> _dt.DType:
    d = _dt.as_dtype(dtype)
    if d.name not in _KIND:
        raise InvalidArgumentError(f"Value for attr 'Tdense' of {d.name} is not in the list of allowed values: "
                                   "float, int64, string (an Example holds float32, int64 and bytes features: "
                                   "parse as one of those, then tf.cast).")
    return d


class FixedLenFeature(collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])):
    """A feature with a fixed number of values, parsed into a dense tensor of ``shape`` (``[]`` for a
    scalar). Without ``default_value`` the feature is required in every record."""

    def __new__(cls, shape: Any, dtype: Any, default_value: Any = None) -> "FixedLenFeature":
        return super().__new__(cls, shape, dtype, default_value)


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A feature holding any number of rows of ``shape``: parsed into ``[rows] + shape`` (batched:
    padded with ``default_value``, or zeros, to the longest record). ``parse_example`` needs
    ``allow_missing=True``."""

    def __new__(cls, shape: Any, dtype: Any, allow_missing: bool = False,
                default_value: Any = None) -> "FixedLenSequenceFeature":
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature with any number of values, parsed into a ``tf.SparseTensor``."""


class SparseFeature(collections.namedtuple(
        "SparseFeature", ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """A ``tf.SparseTensor`` of dense shape ``size`` built from index features (int64; one key, or a
    list of keys for several dimensions, ``size`` then a list) and a value feature: entry ``i`` of
    the values sits at the ``i``-th indices. A record's entries are sorted by index unless
    ``already_sorted``; batched, the dense shape is ``[batch] + size``.

    >>> import tapegrad as tf
    >>> rec = tf.train.Example(features=tf.train.Features(feature={
    ...     "ix": tf.train.Feature(int64_list=tf.train.Int64List(value=[3, 1])),
    ...     "val": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5, 2.0]))})).SerializeToString()
    >>> sp = tf.io.parse_single_example(rec, {"s": tf.io.SparseFeature("ix", "val", tf.float32, 5)})["s"]
    >>> tf.sparse.to_dense(sp).numpy()
    array([0. , 2. , 0. , 0.5, 0. ], dtype=float32)
    """

    def __new__(cls, index_key: Any, value_key: str, dtype: Any, size: Any,
                already_sorted: bool = False) -> "SparseFeature":
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


class _RowSplits(collections.namedtuple("RowSplits", ["key"])):
    """A partition: the int64 feature ``key`` holds row splits."""


class _RowLengths(collections.namedtuple("RowLengths", ["key"])):
    """A partition: the int64 feature ``key`` holds row lengths."""


class _RowStarts(collections.namedtuple("RowStarts", ["key"])):
    """A partition: the int64 feature ``key`` holds row starts."""


class _RowLimits(collections.namedtuple("RowLimits", ["key"])):
    """A partition: the int64 feature ``key`` holds row limits."""


class _ValueRowIds(collections.namedtuple("ValueRowIds", ["key"])):
    """A partition: the int64 feature ``key`` holds each value's row index."""


class _UniformRowLength(collections.namedtuple("UniformRowLength", ["length"])):
    """A partition: rows of ``length`` values each."""


class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype", "validate"])):
    """A feature parsed into a ``tf.RaggedTensor`` (one row per record when batched). ``partitions``
    (outermost first) split the values further, each read from an int64 feature of the record
    (``RaggedFeature.RowSplits(key)``, ``RowLengths``, ``RowStarts``, ``RowLimits``, ``ValueRowIds``) or
    uniform (``RaggedFeature.UniformRowLength(n)``; innermost ones become dense dimensions).

    >>> import tapegrad as tf
    >>> rec = tf.train.Example(features=tf.train.Features(feature={
    ...     "v": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2, 3])),
    ...     "n": tf.train.Feature(int64_list=tf.train.Int64List(value=[2, 0, 1]))})).SerializeToString()
    >>> spec = tf.io.RaggedFeature(tf.int64, "v", partitions=[tf.io.RaggedFeature.RowLengths("n")])
    >>> tf.io.parse_single_example(rec, {"r": spec})["r"]
    <tf.RaggedTensor [[1, 2], [], [3]]>
    """

    RowSplits, RowLengths, RowStarts, RowLimits = _RowSplits, _RowLengths, _RowStarts, _RowLimits
    ValueRowIds, UniformRowLength = _ValueRowIds, _UniformRowLength

    def __new__(cls, dtype: Any, value_key: str | None = None, partitions: Any = (), row_splits_dtype: Any = _dt.int32,
                validate: bool = False) -> "RaggedFeature":
        parts = tuple(partitions)
        for p in parts:
            if not isinstance(p, (_RowSplits, _RowLengths, _RowStarts, _RowLimits, _ValueRowIds, _UniformRowLength)):
                raise TypeError(f"RaggedFeature: each partition must be a RaggedFeature.RowSplits, RowLengths, "
                                f"RowStarts, RowLimits, ValueRowIds or UniformRowLength; got {p!r}.")
        return super().__new__(cls, dtype, value_key, parts, row_splits_dtype, validate)


def _composite(module: str, name: str, feature: str) -> Any:
    try:
        return getattr(importlib.import_module(f"tapegrad.{module}"), name)
    except (ImportError, AttributeError):
        raise NotImplementedError(f"tf.io.{feature} parses into a tf.{name}, which this tapegrad does not have "
                                  "yet; parse with FixedLenFeature or FixedLenSequenceFeature.") from None


def _records(serialized: Any) -> tuple[list[bytes], tuple]:
    t = convert_to_tensor(serialized, dtype=_dt.string)
    arr = np.asarray(t.numpy(), dtype=object)
    return [bytes(r) for r in arr.reshape(-1)], arr.shape


def _decode(record: bytes, where: str) -> dict:
    try:
        return Example.FromString(record).features.feature
    except (DecodeError, UnicodeDecodeError) as e:
        raise InvalidArgumentError(f"{where}Could not parse example input, value: {record[:40]!r}: {e}") from None


def _values(feature: Any, key: str, dtype: _dt.DType, where: str) -> list:
    """The values of ``feature`` (a ``tf.train.Feature``) as ``dtype``; [] for an empty feature."""
    kind = feature.WhichOneof("kind")
    if kind is None:
        return []
    want = _KIND[dtype.name][0]
    if kind != want:
        have = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}[kind]
        raise InvalidArgumentError(f"{where}Key: {key}, Index: 0.  Data types don't match. Data type: {have} but "
                                   f"expected type: {_KIND[dtype.name][1]}")
    return list(getattr(feature, kind).value)


def _array(values: list, dtype: _dt.DType, shape: Any) -> np.ndarray:
    if dtype.name == "string":
        a = np.empty(len(values), dtype=object)
        a[:] = values
        return a.reshape(shape)
    return np.asarray(values, dtype=dtype.as_numpy_dtype).reshape(shape)


def _default(spec: Any, dtype: _dt.DType, shape: tuple) -> np.ndarray:
    d = spec.default_value
    if dtype.name == "string" and isinstance(d, str):
        d = d.encode("utf-8")
    a = np.asarray(convert_to_tensor(d, dtype=dtype).numpy(), dtype=object if dtype.name == "string" else None)
    return np.broadcast_to(a, shape).copy()


def _shape(spec: Any) -> tuple:
    return tuple(int(d) for d in TensorShape(spec.shape).as_list())


def _parse(records: list[bytes], features: dict, single: bool) -> dict:
    if not isinstance(features, dict) or not features:
        raise ValueError(f"`features` must be a non-empty dict of feature specs (tf.io.FixedLenFeature, ...), got "
                         f"{features!r}.")
    return _parse_maps([_decode(r, "" if single else "Name: <unknown>, ") for r in records], features, single)


def _parse_maps(parsed: list, features: dict, single: bool) -> dict:
    """``features`` read from decoded feature maps (each ``{key: tf.train.Feature}``)."""
    out: dict = {}
    for key, spec in features.items():
        where = "" if single else "Name: <unknown>, "
        if isinstance(spec, FixedLenFeature):
            dtype, shape = _dtype(spec.dtype), _shape(spec)
            size = int(np.prod(shape, dtype=np.int64))
            rows = []
            for i, f in enumerate(parsed):
                vals = _values(f[key], key, dtype, where) if key in f else None
                if vals is None:
                    if spec.default_value is None:
                        raise InvalidArgumentError(f"{where}Feature: {key} (data type: {_KIND[dtype.name][1]}) is "
                                                   "required but could not be found.")
                    rows.append(_default(spec, dtype, shape))
                    continue
                if len(vals) != size:
                    raise InvalidArgumentError(
                        f"{where}Key: {key}, Index: {i}.  Number of {_KIND[dtype.name][1]} values != expected.  "
                        f"Values size: {len(vals)} but output shape: {list(shape)}")
                rows.append(_array(vals, dtype, shape))
            value = rows[0] if single else (np.stack(rows) if rows else _array([], dtype, (0,) + shape))
            out[key] = convert_to_tensor(value, dtype=dtype)
        elif isinstance(spec, FixedLenSequenceFeature):
            if not spec.allow_missing:
                raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to be True.")
            dtype, shape = _dtype(spec.dtype), _shape(spec)
            stride = int(np.prod(shape, dtype=np.int64))
            rows = []
            for f in parsed:
                vals = _values(f[key], key, dtype, where) if key in f else []
                if stride and len(vals) % stride:
                    raise InvalidArgumentError(f"Error while parsing feature with key {key}: number of elements "
                                               f"should be divisible by {stride}, found {len(vals)} instead")
                rows.append(_array(vals, dtype, (len(vals) // max(stride, 1),) + shape))
            if single:
                value = rows[0]
            else:
                n = max((len(r) for r in rows), default=0)
                pad = _default(spec, dtype, shape) if spec.default_value is not None else \
                    np.zeros(shape, dtype=object if dtype.name == "string" else dtype.as_numpy_dtype)
                if dtype.name == "string" and spec.default_value is None:
                    pad[...] = b""
                value = np.stack([np.concatenate([r, np.broadcast_to(pad, (n - len(r),) + shape)]) for r in rows]) \
                    if rows else _array([], dtype, (0, 0) + shape)
            out[key] = convert_to_tensor(value, dtype=dtype)
        elif isinstance(spec, VarLenFeature):
            dtype = _dtype(spec.dtype)
            rows = [_values(f[key], key, dtype, where) if key in f else [] for f in parsed]
            SparseTensor = _composite("sparse", "SparseTensor", "VarLenFeature")
            if single:
                idx = np.arange(len(rows[0]), dtype=np.int64)[:, None]
                shape = [len(rows[0])]
            else:
                idx = np.array([(i, j) for i, r in enumerate(rows) for j in range(len(r))], np.int64).reshape(-1, 2)
                shape = [len(rows), max((len(r) for r in rows), default=0)]
            out[key] = SparseTensor(idx, convert_to_tensor(_array([v for r in rows for v in r], dtype, (-1,)),
                                                           dtype=dtype), np.asarray(shape, np.int64))
        elif isinstance(spec, RaggedFeature) and spec.partitions:
            out[key] = _partitioned(parsed, key, spec, single, where)
        elif isinstance(spec, RaggedFeature):
            dtype = _dtype(spec.dtype)
            vkey = spec.value_key or key
            rows = [_values(f[vkey], vkey, dtype, where) if vkey in f else [] for f in parsed]
            flat = convert_to_tensor(_array([v for r in rows for v in r], dtype, (-1,)), dtype=dtype)
            if single:
                out[key] = flat
            else:
                RaggedTensor = _composite("ragged", "RaggedTensor", "RaggedFeature")
                out[key] = RaggedTensor.from_row_lengths(
                    flat, np.asarray([len(r) for r in rows], _dt.as_dtype(spec.row_splits_dtype).as_numpy_dtype))
        elif isinstance(spec, SparseFeature):
            out[key] = _sparse(parsed, key, spec, single, where)
        else:
            raise TypeError(f"Unsupported feature spec for {key!r}: {spec!r} (use tf.io.FixedLenFeature, "
                            "FixedLenSequenceFeature, VarLenFeature or RaggedFeature).")
    return out


def _sparse(parsed: list, key: str, spec: SparseFeature, single: bool, where: str) -> Any:
    dtype = _dtype(spec.dtype)
    keys = [spec.index_key] if isinstance(spec.index_key, str) else list(spec.index_key)
    size = [int(spec.size)] if isinstance(spec.index_key, str) else [int(n) for n in spec.size]
    if len(size) != len(keys):
        raise ValueError(f"SparseFeature {key!r}: `size` has {len(size)} dimensions but `index_key` names {len(keys)} "
                         "index features: give one size per index feature.")
    all_idx, all_vals = [], []
    for b, f in enumerate(parsed):
        vals = _values(f[spec.value_key], spec.value_key, dtype, where) if spec.value_key in f else []
        cols = []
        for k, n in zip(keys, size):
            ix = _values(f[k], k, _dt.int64, where) if k in f else []
            if len(ix) != len(vals):
                raise ValueError(f"SparseFeature {key!r}: record {b} has {len(ix)} indices in {k!r} but {len(vals)} "
                                 f"values in {spec.value_key!r} (Dimensions {len(ix)} and {len(vals)} are not "
                                 "compatible): give one index per value.")
            bad = [i for i in ix if not 0 <= i < n]
            if bad:
                raise InvalidArgumentError(f"SparseFeature {key!r}: record {b} has index {bad[0]} in {k!r}, outside "
                                           f"[0, {n}) (its size).")
            cols.append(ix)
        idx = np.array(cols, np.int64).T.reshape(len(vals), len(keys))
        order = np.arange(len(vals)) if spec.already_sorted else np.lexsort(idx.T[::-1]) if len(vals) else np.arange(0)
        if not single:
            idx = np.concatenate([np.full((len(vals), 1), b, np.int64), idx], axis=1)
        all_idx.append(idx[order])
        all_vals.extend(vals[i] for i in order)
    SparseTensor = _composite("sparse", "SparseTensor", "SparseFeature")
    rank = len(keys) + (0 if single else 1)
    indices = np.concatenate(all_idx) if all_idx else np.zeros((0, rank), np.int64)
    shape = size if single else [len(parsed)] + size
    return SparseTensor(indices, convert_to_tensor(_array(all_vals, dtype, (-1,)), dtype=dtype), np.asarray(shape, np.int64))


def _partitioned(parsed: list, key: str, spec: RaggedFeature, single: bool, where: str) -> Any:
    """A RaggedFeature with partitions: per record, the values split by each partition (innermost
    first; trailing uniform ones reshape the values); batched, the records' results as rows."""
    dtype = _dtype(spec.dtype)
    vkey = spec.value_key or key
    parts = list(spec.partitions)
    dense = []
    while parts and isinstance(parts[-1], _UniformRowLength):
        dense.insert(0, int(parts.pop().length))
    records = []
    for b, f in enumerate(parsed):
        vals = _array(_values(f[vkey], vkey, dtype, where) if vkey in f else [], dtype, (-1,))
        inner = int(np.prod(dense, dtype=np.int64))
        if len(vals) % max(inner, 1) or (inner == 0 and len(vals)):
            raise InvalidArgumentError(f"RaggedFeature {key!r}: record {b} has {len(vals)} values in {vkey!r}, which "
                                       f"the uniform row lengths {dense} do not divide.")
        vals = vals.reshape([-1] + dense)
        levels: list = []
        n = len(vals)
        for p in reversed(parts):
            splits, uniform = _partition(f, p, n, dtype, key, b, where)
            levels.insert(0, (splits, uniform))
            n = len(splits) - 1
        records.append((vals, levels, n))
    if single:
        vals, levels, _ = records[0]
    else:
        vals = np.concatenate([r[0] for r in records]) if records else _array([], dtype, (-1,)).reshape([0] + dense)
        levels = [(np.concatenate([[0], np.cumsum([r[2] for r in records])]).astype(np.int64), None)]
        for j in range(len(parts)):
            off, pieces = 0, [np.zeros(1, np.int64)]
            for r in records:
                sp = r[1][j][0]
                pieces.append(sp[1:] + off)
                off += int(sp[-1])
            levels.append((np.concatenate(pieces), parts[j].length if isinstance(parts[j], _UniformRowLength) else None))
    RaggedTensor = _composite("ragged", "RaggedTensor", "RaggedFeature")
    out = convert_to_tensor(vals, dtype=dtype)
    if not levels:
        return out
    for splits, uniform in reversed(levels):
        out = (RaggedTensor.from_uniform_row_length(out, np.int64(uniform), nrows=len(splits) - 1) if uniform is not None
               else RaggedTensor.from_row_splits(out, splits, validate=False))
    return out.with_row_splits_dtype(_dt.as_dtype(spec.row_splits_dtype))


def _partition(f: Any, p: Any, n: int, dtype: _dt.DType, key: str, b: int, where: str) -> tuple:
    """The row splits (int64) that partition ``p`` of record ``f`` puts over ``n`` inner rows, and
    its uniform row length (None unless uniform); inconsistent partitions raise."""
    if isinstance(p, _UniformRowLength):
        w = int(p.length)
        if (w == 0 and n) or (w and n % w):
            raise InvalidArgumentError(f"RaggedFeature {key!r}: record {b}: a uniform row length of {w} does not "
                                       f"divide its {n} rows.")
        return np.arange((n // w if w else 0) + 1, dtype=np.int64) * w, w
    x = np.asarray(_values(f[p.key], p.key, _dt.int64, where) if p.key in f else [], np.int64)
    kind = type(p).__name__
    if isinstance(p, _RowSplits):
        splits = x if len(x) else np.zeros(1, np.int64)
    elif isinstance(p, _RowLengths):
        splits = np.concatenate([[0], np.cumsum(x)]).astype(np.int64)
    elif isinstance(p, _RowStarts):
        splits = np.concatenate([x, [n]]).astype(np.int64)
    elif isinstance(p, _RowLimits):
        splits = np.concatenate([[0], x]).astype(np.int64)
    else:  # ValueRowIds
        if len(x) != n or np.any(x < 0) or np.any(np.diff(x) < 0):
            raise InvalidArgumentError(f"RaggedFeature {key!r}: record {b}: {kind}({p.key!r}) must hold one sorted, "
                                       f"non-negative row id per inner row ({n}); it holds {x.tolist()}.")
        splits = np.concatenate([[0], np.cumsum(np.bincount(x, minlength=int(x[-1]) + 1 if len(x) else 0))])
        splits = splits.astype(np.int64)
    if splits[0] != 0 or splits[-1] != n or np.any(np.diff(splits) < 0):
        raise InvalidArgumentError(f"RaggedFeature {key!r}: record {b}: {kind}({p.key!r}) = {x.tolist()} does not "
                                   f"partition its {n} inner rows (TensorFlow leaves such a tensor unchecked unless "
                                   "validate=True; tapegrad always checks).")
    return splits, None


def parse_single_example(serialized: Any, features: dict, example_names: Any = None, name: str | None = None) -> dict:
    """Parse one serialized ``tf.train.Example`` (a scalar string) into ``{key: tensor}`` by ``features``."""
    records, shape = _records(serialized)
    if shape != ():
        raise ValueError(f"Input serialized must be a scalar (one record), got shape {list(shape)}: use "
                         "tf.io.parse_example for a batch.")
    return _parse(records, features, single=True)


def parse_example(serialized: Any, features: dict, example_names: Any = None, name: str | None = None) -> dict:
    """Parse a vector of serialized ``tf.train.Example`` records into ``{key: batched tensor}``."""
    records, shape = _records(serialized)
    if len(shape) != 1:
        raise ValueError(f"Input serialized must be a vector of records, got shape {list(shape)}: use "
                         "tf.io.parse_single_example for one record.")
    return _parse(records, features, single=False)


def parse_single_sequence_example(serialized: Any, context_features: dict | None = None,
                                  sequence_features: dict | None = None, example_name: Any = None,
                                  name: str | None = None) -> tuple:
    """Parse one serialized ``tf.train.SequenceExample`` into ``(context, feature_lists)`` dicts, as
    TensorFlow's: ``context_features`` as :func:`parse_single_example` reads features;
    ``sequence_features`` one row per step: a ``FixedLenSequenceFeature`` ``[steps] + shape``
    (every step exactly that many values; a missing list empty with ``allow_missing``, an error
    without), a ``VarLenFeature`` a ``SparseTensor`` ``[steps, longest]``, a ``RaggedFeature`` a
    ``RaggedTensor`` ``[steps, None]``.

    >>> import tapegrad as tf
    >>> T = tf.train
    >>> se = T.SequenceExample(feature_lists=T.FeatureLists(feature_list={"x": T.FeatureList(
    ...     feature=[T.Feature(int64_list=T.Int64List(value=[1, 2])), T.Feature(int64_list=T.Int64List(value=[3, 4]))])}))
    >>> ctx, seq = tf.io.parse_single_sequence_example(
    ...     se.SerializeToString(), sequence_features={"x": tf.io.FixedLenSequenceFeature([2], tf.int64)})
    >>> seq["x"].numpy().tolist()
    [[1, 2], [3, 4]]
    """
    records, shape = _records(serialized)
    if shape != ():
        raise ValueError(f"Input serialized must be a scalar (one record), got shape {list(shape)}.")
    if not context_features and not sequence_features:
        raise ValueError("Missing features: give context_features or sequence_features (dicts of feature specs).")
    try:
        se = SequenceExample.FromString(records[0])
    except (DecodeError, UnicodeDecodeError) as e:
        raise InvalidArgumentError(f"Could not parse example input, value: {records[0][:40]!r}: {e}") from None
    context = _parse_maps([se.context.feature], dict(context_features), True) if context_features else {}
    lists = se.feature_lists.feature_list
    where = "Name: <unknown>, "
    seq: dict = {}
    for key, spec in (sequence_features or {}).items():
        steps = list(lists[key].feature) if key in lists else None
        if isinstance(spec, FixedLenSequenceFeature):
            dtype, shp = _dtype(spec.dtype), _shape(spec)
            size = int(np.prod(shp, dtype=np.int64))
            if steps is None:
                if not spec.allow_missing:
                    raise InvalidArgumentError(
                        f"{where}Feature list '{key}' is required but could not be found.  Did you mean to include "
                        "it in feature_list_dense_missing_assumed_empty or feature_list_dense_defaults?")
                steps = []
            rows = []
            for i, f in enumerate(steps):
                vals = _values(f, key, dtype, where)
                if len(vals) != size:
                    raise InvalidArgumentError(f"{where}Key: {key}, Index: {i}.  Number of values != expected.  "
                                               f"values size: {len(vals)} but output shape: {list(shp)}")
                rows.append(_array(vals, dtype, shp))
            seq[key] = convert_to_tensor(np.stack(rows) if rows else _array([], dtype, (0,) + shp), dtype=dtype)
        elif isinstance(spec, (VarLenFeature, RaggedFeature)):
            if isinstance(spec, RaggedFeature) and spec.partitions:
                raise NotImplementedError("tf.io.parse_single_sequence_example: RaggedFeature partitions in "
                                          "sequence_features are not implemented in tapegrad.")
            dtype = _dtype(spec.dtype)
            rows = [_values(f, key, dtype, where) for f in steps or []]
            flat = convert_to_tensor(_array([v for r in rows for v in r], dtype, (-1,)), dtype=dtype)
            if isinstance(spec, VarLenFeature):
                idx = np.array([(i, j) for i, r in enumerate(rows) for j in range(len(r))], np.int64).reshape(-1, 2)
                dense = np.asarray([len(rows), max((len(r) for r in rows), default=0)], np.int64)
                seq[key] = _composite("sparse", "SparseTensor", "VarLenFeature")(idx, flat, dense)
            else:
                seq[key] = _composite("ragged", "RaggedTensor", "RaggedFeature").from_row_lengths(
                    flat, np.asarray([len(r) for r in rows], _dt.as_dtype(spec.row_splits_dtype).as_numpy_dtype))
        else:
            raise TypeError(f"Unsupported sequence feature spec for {key!r}: {spec!r} (use "
                            "tf.io.FixedLenSequenceFeature, VarLenFeature or RaggedFeature).")
    return context, seq
