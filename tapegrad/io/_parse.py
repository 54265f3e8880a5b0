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
from ._proto import DecodeError, Example

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
    """A ``tf.SparseTensor`` of dense shape ``size`` built from an index feature and a value feature."""

    def __new__(cls, index_key: Any, value_key: str, dtype: Any, size: Any,
                already_sorted: bool = False) -> "SparseFeature":
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype", "validate"])):
    """A feature parsed into a ``tf.RaggedTensor`` (one row per record when batched)."""

    def __new__(cls, dtype: Any, value_key: str | None = None, partitions: Any = (), row_splits_dtype: Any = _dt.int32,
                validate: bool = False) -> "RaggedFeature":
        return super().__new__(cls, dtype, value_key, tuple(partitions), row_splits_dtype, validate)


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
    parsed = [_decode(r, "" if single else "Name: <unknown>, ") for r in records]
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
        elif isinstance(spec, RaggedFeature):
            if spec.partitions:
                raise NotImplementedError("tf.io.RaggedFeature with `partitions` is not covered yet: parse the values "
                                          "and partition them with tf.RaggedTensor.from_row_lengths.")
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
            raise NotImplementedError("tf.io.SparseFeature is not covered yet: parse its index and value features "
                                      "with VarLenFeature and build the tf.SparseTensor from them.")
        else:
            raise TypeError(f"Unsupported feature spec for {key!r}: {spec!r} (use tf.io.FixedLenFeature, "
                            "FixedLenSequenceFeature, VarLenFeature or RaggedFeature).")
    return out


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
