"""The tables and initializers of ``tf.lookup`` (TensorFlow's ``lookup_ops.py``) over Python dicts.

A table's contents live in a dict (a key as a Python value: ``bytes`` or ``int``, or a tuple for a
``DenseHashTable``'s vector keys). A static table's lookup is the op ``LookupTableFindV2``
(``ops.strings.table_find``) on sorted arrays of its contents, and its size and export are
constants. A mutable table's reads and writes run through ``_trace.draw``, so a ``tf.function``
trace records each as a step run again at every call with that call's keys (a mutation as a
stateful step, which always runs). A tape sees the results as constants, as TensorFlow's table
ops have no gradient. The errors are those of TensorFlow's kernels.
"""
from __future__ import annotations

import collections
import math
from typing import Any

import numpy as np

from .. import _fingerprint, _recorders as _rec, _trace, dtypes as _dt
from .._convert import convert_to_tensor, host_value
from .._tensor import Tensor, constant_maker, wrap
from ..errors import FailedPreconditionError, InternalError, InvalidArgumentError, NotFoundError
from ..io._csv import parse_field
from ..ops.math import add, cast, not_equal, where
from ..ops.strings import as_string, table_find, to_hash_bucket, to_hash_bucket_fast, to_hash_bucket_strong
from ..ragged import RaggedTensor
from ..sparse import SparseTensor

_S, _B, _I32, _I64, _F32, _F64 = _dt.string, _dt.bool, _dt.int32, _dt.int64, _dt.float32, _dt.float64
# the (key dtype -> value dtypes) TensorFlow's CPU kernels of each table are registered for
_KERNELS = {
    "HashTableV2": {_I32: (_F32, _F64, _I32, _S), _I64: (_F32, _F64, _I32, _I64, _S),
                    _S: (_B, _F32, _F64, _I32, _I64, _S)},
    "MutableHashTableV2": {_I32: (_F32, _F64, _I32), _I64: (_F32, _F64, _I32, _I64, _S),
                           _S: (_B, _F32, _F64, _I32, _I64)},
    "MutableDenseHashTableV2": {_I32: (_F32, _F64, _I32), _I64: (_B, _F32, _F64, _I32, _I64),
                                _S: (_B, _F32, _F64, _I32, _I64)},
}
_KERNELS["MutableHashTableOfTensorsV2"] = _KERNELS["MutableHashTableV2"]
_TF_TYPE = {"float32": "float", "float64": "double"}  # (the names TF's op signatures use)
_U64 = (1 << 64) - 1


def _dt_enum(d: _dt.DType) -> str:
    return "DT_" + {"float32": "FLOAT", "float64": "DOUBLE"}.get(d.name, d.name.upper())


def _check_kernel(op: str, key_dtype: _dt.DType, value_dtype: _dt.DType) -> None:
    if value_dtype in _KERNELS[op].get(key_dtype, ()):
        return
    lines = "\n".join(f"  device='CPU'; key_dtype in [{_dt_enum(k)}]; value_dtype in [{_dt_enum(v)}]"
                      for k, vs in _KERNELS[op].items() for v in vs)
    raise NotFoundError(f"Could not find device for node: {{{{node {op}}}}} = {op}[key_dtype="
                        f"{_dt_enum(key_dtype)}, value_dtype={_dt_enum(value_dtype)}]\n"
                        f"All kernels registered for op {op}:\n{lines}\n(TensorFlow has no such table: cast the "
                        "keys or the values to one of these pairs.)")


def _shape(s: Any) -> str:
    return "[" + ",".join(str(d) for d in s) + "]"


def _shown(k: Any) -> str:
    return k.decode("utf-8", "replace") if isinstance(k, bytes) else str(k)


def _keys_of(a: np.ndarray) -> list:
    """The dict keys of a flat key array (``bytes`` or ``int``)."""
    return a.reshape(-1).tolist()


def _run(table: Any, what: str, fn: Any, xs: list, stateful: bool, nout: int = 1) -> Any:
    """``fn(*values of xs) -> array`` (``nout`` > 1: a tuple) as one traced step named for the
    table's method ``what`` (see the module docstring); its output tensor(s)."""
    def step(*vs: np.ndarray) -> tuple:
        out = fn(*vs)
        return out if nout > 1 else (out,)
    step.__qualname__ = f"tf.lookup {type(table).__name__}.{what}"
    outs = _trace.draw(step, xs, stateful)
    return outs if nout > 1 else outs[0]


@constant_maker  # (a static table's size and contents: fixed when it was made)
def _constant(a: np.ndarray) -> Tensor:
    return wrap(a)


def check_table_dtypes(table: Any, key_dtype: _dt.DType, value_dtype: _dt.DType) -> None:
    """TensorFlow's check that an initializer's dtypes are its table's."""
    if key_dtype.base_dtype != table.key_dtype:
        raise TypeError(f"Invalid key dtype for table, expected {table.key_dtype} but got {key_dtype}.")
    if value_dtype.base_dtype != table.value_dtype:
        raise TypeError(f"Invalid value dtype for table, expected {table.value_dtype} but got {value_dtype}.")


class _KeyValueDtypes:
    """``key_dtype`` and ``value_dtype``: of a table, or of the table an initializer fills."""

    def __init__(self, key_dtype: Any, value_dtype: Any) -> None:
        self._key_dtype = _dt.as_dtype(key_dtype)
        self._value_dtype = _dt.as_dtype(value_dtype)

    @property
    def key_dtype(self) -> _dt.DType:
        """The table key dtype."""
        return self._key_dtype

    @property
    def value_dtype(self) -> _dt.DType:
        """The table value dtype."""
        return self._value_dtype


# --------------------------------------------------------------------------- initializers
class TableInitializerBase(_KeyValueDtypes):
    """The base of the initializers: the key and value dtypes of the table it fills."""

    def initialize(self, table: Any) -> None:
        """Fill ``table`` (a static table, at its construction) with this initializer's pairs."""
        check_table_dtypes(table, self.key_dtype, self.value_dtype)
        keys, values = self._pairs()
        table._import(keys, values)

    def _pairs(self) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError


class KeyValueTensorInitializer(TableInitializerBase):
    """Fills a table with the pairs of ``keys`` and ``values`` (tensors of one shape).

    >>> import tapegrad as tf
    >>> init = tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], [7, 8, 9])
    >>> table = tf.lookup.StaticHashTable(init, default_value=-1)
    >>> table.lookup(tf.constant(["a", "f"])).numpy()
    array([ 7, -1], dtype=int32)
    """

    def __init__(self, keys: Any, values: Any, key_dtype: Any = None, value_dtype: Any = None,
                 name: str | None = None) -> None:
        self._keys = convert_to_tensor(keys, dtype=key_dtype)
        self._values = convert_to_tensor(values, dtype=value_dtype)
        self._name = name if name is not None else "key_value_init"
        super().__init__(self._keys.dtype, self._values.dtype)

    def _pairs(self) -> tuple[np.ndarray, np.ndarray]:
        return host_value(self._keys, "a table's keys"), host_value(self._values, "a table's values")


class TextFileIndex:
    """Which part of a line of a vocabulary file ``TextFileInitializer`` takes: ``WHOLE_LINE``
    (the line), ``LINE_NUMBER`` (its number from 0, as int64), or a column ``>= 0`` (split at the
    delimiter).

    >>> import tapegrad as tf
    >>> tf.lookup.TextFileIndex.WHOLE_LINE, tf.lookup.TextFileIndex.LINE_NUMBER
    (-2, -1)
    """

    WHOLE_LINE = -2
    LINE_NUMBER = -1


def _parse(field: bytes, dtype: _dt.DType, line: int) -> Any:
    try:
        return parse_field(field, dtype)
    except ValueError:  # (a UnicodeDecodeError too)
        kind = "int64" if dtype == _I64 else "int32" if dtype == _I32 else _TF_TYPE.get(dtype.name, dtype.name)
        raise InvalidArgumentError(f"Field {_shown(field)} in line {line} is not a valid {kind}.") from None


def _field(line: bytes, cols: list, n: int, index: int, dtype: _dt.DType, offset: int) -> Any:
    """The key or value of line ``n`` of a vocabulary file that ``index`` says."""
    if index == TextFileIndex.LINE_NUMBER:
        return n + offset
    return _parse(line if index == TextFileIndex.WHOLE_LINE else cols[index], dtype, n)


class TextFileInitializer(TableInitializerBase):
    r"""Fills a table from a text file, one pair per line: the key and the value are each the whole
    line (``TextFileIndex.WHOLE_LINE``), its number (``TextFileIndex.LINE_NUMBER``, int64, plus
    ``value_index_offset`` for a value) or one of its columns split at ``delimiter``.

    >>> import os, tempfile, tapegrad as tf
    >>> path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    >>> _ = open(path, "w").write("emerson 10\nlake 20\npalmer 30\n")
    >>> init = tf.lookup.TextFileInitializer(path, key_dtype=tf.string, key_index=0,
    ...                                      value_dtype=tf.int64, value_index=1, delimiter=" ")
    >>> tf.lookup.StaticHashTable(init, -1).lookup(tf.constant(["palmer", "lake", "tarkus"])).numpy()
    array([30, 20, -1])
    """

    def __init__(self, filename: Any, key_dtype: Any, key_index: int, value_dtype: Any, value_index: int,
                 vocab_size: int | None = None, delimiter: str = "\t", name: str | None = None,
                 value_index_offset: int = 0) -> None:
        if not isinstance(filename, Tensor) and not filename:
            raise ValueError("`filename` argument required for tf.lookup.TextFileInitializer")
        key_dtype, value_dtype = _dt.as_dtype(key_dtype), _dt.as_dtype(value_dtype)
        for what, index, dtype in (("key", key_index, key_dtype), ("value", value_index, value_dtype)):
            if index < -2:
                raise ValueError(f"`{what}_index` should be >= -2, received: {index}" + ("." if what == "key" else ""))
            if index == TextFileIndex.LINE_NUMBER and dtype != _I64:
                raise ValueError(f"`key_dtype` must be int64 if `key_index` is {index}, received: {dtype}"
                                 if what == "key" else
                                 f"`value_dtype` must be int64 for `value_index` {index}, received: {dtype}")
            if index == TextFileIndex.WHOLE_LINE and not dtype.is_integer and dtype != _S:
                raise ValueError(f"`{what}_dtype` should be either integer or string for `{what}_index` "
                                 f"{index}, received: {dtype}")
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"`vocab_size` should be > 0, received: {vocab_size}")
        self._filename = filename
        self._key_index, self._value_index = key_index, value_index
        self._vocab_size, self._delimiter, self._name, self._offset = vocab_size, delimiter, name, value_index_offset
        super().__init__(key_dtype, value_dtype)

    def _pairs(self) -> tuple[np.ndarray, np.ndarray]:
        f = self._filename
        path = (f.numpy().decode() if isinstance(f.numpy(), bytes) else str(f.numpy())) if isinstance(f, Tensor) else str(f)
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError:
            raise NotFoundError(f"{path}; No such file or directory") from None
        delim = self._delimiter.encode() if isinstance(self._delimiter, str) else self._delimiter
        need = max(self._key_index, self._value_index) + 1
        keys: list = []
        values: list = []
        pos = 0
        while pos < len(data) and (self._vocab_size is None or len(keys) < self._vocab_size):
            end = data.find(b"\n", pos)
            end = len(data) if end < 0 else end
            line, pos = data[pos:end], end + 1
            line = line[:-1] if line.endswith(b"\r") else line
            n = len(keys)
            if not line:
                raise InvalidArgumentError(f"Invalid content in {path}: empty line found at position {pos}.")
            cols = line.split(delim) if need > 0 else []
            if len(cols) < need:
                raise InvalidArgumentError(f"Invalid number of columns in {path} line {n} ({_shown(line)}) : "
                                           f"expected at least {need} got {len(cols)}")
            keys.append(_field(line, cols, n, self._key_index, self.key_dtype, 0))
            values.append(_field(line, cols, n, self._value_index, self.value_dtype, self._offset))
        if self._vocab_size is not None and len(keys) != self._vocab_size:
            raise InvalidArgumentError(f"Invalid vocab_size in {path}: expected {self._vocab_size} but got {len(keys)}")
        return (np.array(keys, dtype=self.key_dtype.as_numpy_dtype),
                np.array(values, dtype=self.value_dtype.as_numpy_dtype))


class DatasetInitializer(TableInitializerBase):
    """Fills a table with the ``(key, value)`` pairs of a dataset of scalar pairs
    (``tf.data.experimental.DatasetInitializer``).

    >>> import tapegrad as tf
    >>> keys = tf.data.Dataset.range(100)
    >>> values = tf.data.Dataset.range(100).map(lambda x: tf.strings.as_string(x * 2))
    >>> init = tf.data.experimental.DatasetInitializer(tf.data.Dataset.zip((keys, values)))
    >>> table = tf.lookup.StaticHashTable(init, "")
    >>> table.lookup(tf.constant([0, 1, 2], dtype=tf.int64)).numpy()
    array([b'0', b'2', b'4'], dtype=object)
    """

    def __init__(self, dataset: Any) -> None:
        from .._spec import TensorSpec
        self.dataset = dataset
        spec = dataset.element_spec
        base = ("Datasets used to initialize lookup tables must produce elements in the form (key, value), "
                "where the keys and values are scalar tensors. However, the given dataset produces ")
        if not isinstance(spec, tuple):
            raise TypeError(f"object of type {type(spec).__name__!r} has no len(): a dataset that initializes "
                            "a table gives (key, value) pairs; zip a dataset of keys with one of values.")
        if len(spec) != 2:
            raise ValueError(base + f"{len(spec)} components instead of two (key, value) components. Full "
                             f"dataset element spec: {spec}.")
        for part, s in zip(("key", "value"), spec):
            if not isinstance(s, TensorSpec):
                raise ValueError(base + f"non-Tensor {part}s of type {type(s)}.")
            if s.shape.rank not in (None, 0):
                raise ValueError(base + f"non-scalar {part} Tensors of rank {s.shape.rank}.")
        super().__init__(spec[0].dtype, spec[1].dtype)

    def _pairs(self) -> tuple[np.ndarray, np.ndarray]:
        pairs = [(host_value(k, "a table's key").tolist(), host_value(v, "a table's value").tolist())
                 for k, v in self.dataset]
        return (np.array([k for k, _ in pairs], dtype=self.key_dtype.as_numpy_dtype),
                np.array([v for _, v in pairs], dtype=self.value_dtype.as_numpy_dtype))


# --------------------------------------------------------------------------- tables
class LookupInterface(_KeyValueDtypes):
    """The base of the tables: their dtypes, ``lookup`` and ``table[keys]``."""

    @property
    def name(self) -> str | None:
        """The table's name: ``None``, as TensorFlow's eager tables have none."""
        return None

    def __getitem__(self, keys: Any) -> Any:
        """Looks up ``keys`` in a table, outputs the corresponding values."""
        return self.lookup(keys)

    def lookup(self, keys: Any, name: str | None = None) -> Any:
        """Looks up ``keys`` in a table, outputs the corresponding values."""
        raise NotImplementedError

    def _trackable_children(self) -> dict:  # (tf.train.Checkpoint: tracked, nothing of its own to save)
        return {}


def _key_tensor(table: LookupInterface, keys: Any) -> Tensor:
    """The values of ``keys`` (a Tensor, RaggedTensor or SparseTensor) after TF's dtype check."""
    if not isinstance(keys, (Tensor, RaggedTensor, SparseTensor)) and not hasattr(keys, "dtype"):
        raise AttributeError(f"{type(keys).__name__!r} object has no attribute 'dtype': a table looks up a "
                             "Tensor, RaggedTensor or SparseTensor of keys; wrap Python keys in tf.constant.")
    if keys.dtype != table.key_dtype:
        raise TypeError(f"Dtype of argument `keys` must be {table.key_dtype}, received: {keys.dtype}")
    if isinstance(keys, RaggedTensor):
        return keys.flat_values
    if isinstance(keys, SparseTensor):
        return keys.values
    return keys


def _like(keys: Any, values: Tensor) -> Any:
    """``values`` in the structure of ``keys``, as TensorFlow's lookups return them."""
    if isinstance(keys, RaggedTensor):
        return keys.with_flat_values(values)
    if isinstance(keys, SparseTensor):
        return SparseTensor(keys.indices, values, keys.dense_shape)
    return values


class _HashTable(LookupInterface):
    """A table holding a dict: its lookups, size and export (``value_shape``: a value's shape)."""

    _static = False

    def __init__(self, key_dtype: Any, value_dtype: Any, default: Tensor) -> None:
        super().__init__(key_dtype, value_dtype)
        self._default_value = default
        self._value_shape = tuple(default.shape)
        self._data: dict = {}

    def _find(self, keys: np.ndarray, default: np.ndarray) -> np.ndarray:
        data, shape, dtype = self._data, self._value_shape, self._value_dtype.as_numpy_dtype
        flat = _keys_of(keys)
        if not shape:
            if default.ndim == 0:
                d = default.item() if default.dtype != object else default[()]
                out = np.array([data.get(k, d) for k in flat], dtype=dtype)
            else:
                ds = default.reshape(-1).tolist()
                out = np.array([data.get(k, ds[i]) for i, k in enumerate(flat)], dtype=dtype)
            return out.reshape(keys.shape)
        rows = np.empty((len(flat),) + shape, dtype=dtype)
        per_key = default.ndim > len(shape)
        ds = default.reshape((-1,) + shape) if per_key else None
        for i, k in enumerate(flat):
            r = data.get(k)
            rows[i] = r if r is not None else ds[i] if per_key else default
        return rows.reshape(keys.shape + shape)

    def _lookup_values(self, keys: Tensor, default: Tensor) -> Tensor:
        return _run(self, "lookup", self._find, [keys, default], not self._static)

    def size(self, name: str | None = None) -> Tensor:
        """The number of elements in this table (an int64 scalar)."""
        if self._static:
            return _constant(np.array(len(self._data), np.int64))
        return _run(self, "size", lambda: np.array(len(self._data), np.int64), [], True)

    def _export(self) -> tuple[np.ndarray, np.ndarray]:
        ks = list(self._data)
        vals = [self._data[k] for k in ks]
        dtype = self._value_dtype.as_numpy_dtype
        values = np.array(vals, dtype=dtype).reshape((len(ks),) + self._value_shape)
        return np.array(ks, dtype=self._key_dtype.as_numpy_dtype).reshape(len(ks)), values

    def export(self, name: str | None = None) -> tuple[Tensor, Tensor]:
        """All keys and values in the table, as two tensors (in an order of tapegrad's own)."""
        if self._static:
            return tuple(_constant(a) for a in self._export())  # type: ignore[return-value]
        return _run(self, "export", self._export, [], True, nout=2)

    def _put(self, keys: np.ndarray, values: np.ndarray, strict: bool) -> None:
        """Insert the pairs (``strict``: a key already there with another value is an error, as a
        static table's import)."""
        expected = keys.shape + self._value_shape
        if values.shape != expected:
            raise InvalidArgumentError(f"Expected shape {_shape(expected)} for value, got {_shape(values.shape)}")
        flat = _keys_of(keys)
        vals = values.reshape((len(flat),) + self._value_shape)
        vals = vals.tolist() if not self._value_shape else list(vals.copy())
        for k, v in zip(flat, vals):
            if strict and k in self._data and self._data[k] != v:
                raise FailedPreconditionError(f"HashTable has different value for same key. Key {_shown(k)} has "
                                              f"{_shown(self._data[k])} and trying to add value {_shown(v)}")
            self._data[k] = v


class StaticHashTable(_HashTable):
    """A hash table filled once by its initializer, immutable after.

    >>> import tapegrad as tf
    >>> table = tf.lookup.StaticHashTable(
    ...     tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], [7, 8, 9]), default_value=-1)
    >>> table.lookup(tf.constant([["a", "b"], ["c", "d"]])).numpy()
    array([[ 7,  8],
           [ 9, -1]], dtype=int32)
    >>> int(table[tf.constant("b")]), int(table.size())
    (8, 3)
    """

    _static = True

    def __init__(self, initializer: TableInitializerBase, default_value: Any, name: str | None = None,
                 experimental_is_anonymous: bool = False) -> None:
        default = convert_to_tensor(default_value, dtype=initializer.value_dtype)
        if default.shape.rank != 0:
            raise ValueError(f"Shapes {default.shape} and () are not compatible")
        _check_kernel("HashTableV2", initializer.key_dtype, initializer.value_dtype)
        super().__init__(initializer.key_dtype, initializer.value_dtype, default)
        self._initializer = initializer
        self._arrays: tuple | None = None
        initializer.initialize(self)

    @property
    def default_value(self) -> Tensor:
        """The value of a key not in the table."""
        return self._default_value

    def _import(self, keys: np.ndarray, values: np.ndarray) -> None:
        self._put(keys, values, strict=True)
        self._arrays = self._sorted()

    def _sorted(self) -> tuple | None:
        """The table as ``ops.strings.table_find`` takes it (sorted arrays: an op, which traces,
        vectorized_map and SavedModel know); None when an ``S`` array would lose the trailing zero
        bytes of a string (then lookups read the dict)."""
        ks = list(self._data)
        vs = [self._data[k] for k in ks]
        if any(type(b) is bytes and b.endswith(b"\0") for b in (*ks, *vs)):
            return None
        strings = self._key_dtype == _S
        keys = np.array(ks, dtype="S" if strings else self._key_dtype.as_numpy_dtype).reshape(len(ks))
        order = np.argsort(keys, kind="stable")
        vdt = "S" if self._value_dtype == _S else self._value_dtype.as_numpy_dtype
        values = np.array(vs, dtype=vdt).reshape(len(vs))[order]
        lengths = np.array([len(k) for k in ks], np.int64)[order] if strings else None
        return keys[order], lengths, values, np.array(host_value(self._default_value, "a default value"), dtype=vdt)

    def _lookup_values(self, keys: Tensor, default: Tensor) -> Tensor:
        if self._arrays is None:
            return super()._lookup_values(keys, default)
        return table_find(keys, self._arrays)

    def lookup(self, keys: Any, name: str | None = None) -> Any:
        """The values of ``keys`` (a Tensor, RaggedTensor or SparseTensor of the key dtype; the
        result has their structure), ``default_value`` for a key not in the table."""
        flat = _key_tensor(self, keys)
        return _like(keys, self._lookup_values(flat, self._default_value))


class HasherSpec(collections.namedtuple("HasherSpec", ["hasher", "key"])):
    """The hash of out-of-vocabulary keys: ``"fasthash"`` (``Fingerprint64``), ``"legacy"``
    (TensorFlow's ``Hash64``) or ``"stronghash"`` (SipHash-2-4 with the two-int ``key``)."""


FastHashSpec = HasherSpec("fasthash", None)


class StaticVocabularyTable(LookupInterface):
    """A string (or integer) to int64 id table: ids ``[0, size)`` from its initializer, and the
    other keys hashed into ``num_oov_buckets`` ids after them (``Fingerprint64`` of the key, or of
    an integer key's decimal text, modulo ``num_oov_buckets``, as TensorFlow).

    >>> import tapegrad as tf
    >>> init = tf.lookup.KeyValueTensorInitializer(["emerson", "lake", "palmer"],
    ...                                            tf.constant([0, 1, 2], tf.int64))
    >>> table = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=5)
    >>> table.lookup(tf.constant(["emerson", "lake", "and", "palmer"])).numpy()
    array([0, 1, 5, 2])
    >>> int(table.size())
    8
    """

    _hasher = FastHashSpec

    def __init__(self, initializer: TableInitializerBase | None, num_oov_buckets: int,
                 lookup_key_dtype: Any = None, name: str | None = None,
                 experimental_is_anonymous: bool = False) -> None:
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if name:
            name = name.rstrip("/")
        self._table: StaticHashTable | None = None
        if initializer:
            lookup_key_dtype = initializer.key_dtype if lookup_key_dtype is None else _dt.as_dtype(lookup_key_dtype)
            if initializer.key_dtype not in (_I64, _S):
                raise TypeError(f"Invalid `key_dtype`, expected one of (tf.int64, tf.string), but got "
                                f"{initializer.key_dtype}.")
            if initializer.key_dtype.is_integer != lookup_key_dtype.is_integer:
                raise TypeError(f"Invalid `key_dtype`, expected "
                                f"{'integer' if lookup_key_dtype.is_integer else 'non-integer'} but got "
                                f"{initializer.key_dtype}.")
            if initializer.value_dtype != _I64:
                raise TypeError(f"Invalid `value_dtype`, expected {_I64} but got {initializer.value_dtype}.")
            self._initializer = initializer
            self._table = StaticHashTable(initializer, default_value=-1)
        else:
            lookup_key_dtype, name = _S, name or "hash_bucket"
        if not lookup_key_dtype.is_integer and lookup_key_dtype != _S:
            raise TypeError(f"Invalid `key_dtype`, expected integer or string, got {lookup_key_dtype}")
        self._num_oov_buckets = num_oov_buckets
        self._table_name = name.split("/")[-1] if name else None
        super().__init__(lookup_key_dtype, _I64)

    @property
    def name(self) -> str | None:
        """The table's name: the ``name`` given (its last part), ``"hash_bucket"`` without an
        initializer, else ``None``."""
        return self._table_name

    def size(self, name: str | None = None) -> Tensor:
        """The number of ids: the initializer's keys plus ``num_oov_buckets`` (an int64 scalar)."""
        n = len(self._table._data) if self._table is not None else 0
        return _constant(np.array(n + self._num_oov_buckets, np.int64))

    def lookup(self, keys: Any, name: str | None = None) -> Any:
        """The ids of ``keys`` (a Tensor, RaggedTensor or SparseTensor; the result has their
        structure): a key's value, or its hash bucket after them."""
        values = _key_tensor(self, keys)
        if self._table is not None and self._table.key_dtype == _I64:
            values = cast(values, _I64)
        fast = self._hasher.hasher == "fasthash"
        if fast and self._table is not None and self._table._arrays is not None:  # (hashing only keys not there)
            return _like(keys, table_find(values, self._table._arrays, self._num_oov_buckets))
        text = values if values.dtype == _S else as_string(values)
        ids = to_hash_bucket_fast(text, self._num_oov_buckets) if fast else \
            to_hash_bucket_strong(text, self._num_oov_buckets, self._hasher.key) \
            if self._hasher.hasher == "stronghash" else to_hash_bucket(text, self._num_oov_buckets)
        if self._table is not None:
            found = self._table._lookup_values(values, self._table.default_value)
            ids = where(not_equal(found, self._table.default_value), found, add(ids, self._table.size()))
        return _like(keys, ids)


class IdTableWithHashBuckets(StaticVocabularyTable):
    """A static table of int64 ids, and the keys not in it (its default value) hashed into
    ``num_oov_buckets`` ids after them by ``hasher_spec``: what
    ``tf.data.experimental.index_table_from_dataset`` gives with out-of-vocabulary buckets.

    >>> import tapegrad as tf
    >>> words = tf.data.Dataset.from_tensor_slices(["a", "b", "c"])
    >>> table = tf.data.experimental.index_table_from_dataset(words, num_oov_buckets=3)
    >>> table.lookup(tf.constant(["b", "q", "hello"])).numpy(), int(table.size())
    (array([1, 5, 4]), 6)
    """

    def __init__(self, table: StaticHashTable, num_oov_buckets: int, hasher_spec: Any = FastHashSpec,
                 name: str | None = None, key_dtype: Any = None) -> None:
        key_dtype = table.key_dtype if key_dtype is None else _dt.as_dtype(key_dtype)
        if table.key_dtype not in (_I64, _S):
            raise TypeError(f"Invalid `key_dtype`, expected one of (tf.int64, tf.string), received {key_dtype}.")
        if table.key_dtype.is_integer != key_dtype.is_integer:
            raise TypeError(f"Invalid `key dtype`, expected {'integer' if key_dtype.is_integer else 'non-integer'} "
                            f"but got {table.key_dtype}.")
        if table.value_dtype != _I64:
            raise TypeError(f"Invalid `value_dtype`: expected int64 but got {table.value_dtype}.")
        if not key_dtype.is_integer and key_dtype != _S:
            raise TypeError(f"Invalid `key_dtype`, expected integer or string, got {key_dtype}.")
        if not isinstance(hasher_spec, HasherSpec):
            raise TypeError(f"`hasher_spec` must be of type HasherSpec, got {type(hasher_spec)}.")
        self._table, self._num_oov_buckets, self._hasher = table, num_oov_buckets, hasher_spec
        self._table_name = name.rstrip("/").split("/")[-1] if name else None
        LookupInterface.__init__(self, key_dtype, _I64)


class MutableHashTable(_HashTable):
    """A table to ``insert`` into and ``remove`` from; its values may be vectors (the shape of
    ``default_value``). ``tf.train.Checkpoint`` saves and restores its contents.

    >>> import tapegrad as tf
    >>> table = tf.lookup.experimental.MutableHashTable(key_dtype=tf.string, value_dtype=tf.int64,
    ...                                                 default_value=-1)
    >>> table.insert(tf.constant(["a", "b", "c"]), tf.constant([7, 8, 9], dtype=tf.int64))
    >>> table.remove(tf.constant(["c"]))
    >>> table.lookup(tf.constant(["a", "b", "c"])).numpy()
    array([ 7,  8, -1])
    >>> table.lookup(tf.constant(["a", "z"]), dynamic_default_values=tf.constant([0, 5], tf.int64)).numpy()
    array([7, 5])
    """

    def __init__(self, key_dtype: Any, value_dtype: Any, default_value: Any, name: str = "MutableHashTable",
                 checkpoint: bool = True, experimental_is_anonymous: bool = False) -> None:
        key_dtype, value_dtype = _dt.as_dtype(key_dtype), _dt.as_dtype(value_dtype)
        default = convert_to_tensor(default_value, dtype=value_dtype)
        op = "MutableHashTableV2" if default.shape.rank == 0 else "MutableHashTableOfTensorsV2"
        _check_kernel(op, key_dtype, value_dtype)
        if default.shape.rank > 1:
            raise InvalidArgumentError(f"Default value must be a vector, got shape {_shape(default.shape)}")
        super().__init__(key_dtype, value_dtype, default)
        self._checkpoint = checkpoint

    def _mutate(self, what: str, fn: Any, xs: list) -> None:
        _rec.note_stateful()
        _run(self, what, fn, xs, True)

    def lookup(self, keys: Any, dynamic_default_values: Any = None, name: str | None = None) -> Tensor:
        """The values of ``keys`` (converted to the key dtype); a key not in the table gives
        ``dynamic_default_values`` when given (of the value shape, or one value per key), else
        the table's default value."""
        keys = convert_to_tensor(keys, dtype=self._key_dtype)
        default = self._default_value
        if dynamic_default_values is not None:
            default = convert_to_tensor(dynamic_default_values)
            if default.dtype != self._value_dtype:
                have, want = (_TF_TYPE.get(d.name, d.name) for d in (default.dtype, self._value_dtype))
                k = _TF_TYPE.get(self._key_dtype.name, self._key_dtype.name)
                raise InvalidArgumentError(f"Signature mismatch, have: resource, {k}, {have}->{have} expected: "
                                           f"resource, {k}, {want}->{want}")
            shape, per_key = tuple(default.shape), tuple(keys.shape) + self._value_shape
            if shape not in (self._value_shape, per_key):
                raise InvalidArgumentError(f"Expected shape {_shape(self._value_shape)} or {_shape(per_key)} "
                                           f"for default value, got {_shape(shape)}")
        return self._lookup_values(keys, default)

    def insert(self, keys: Any, values: Any, name: str | None = None) -> None:
        """Associate ``keys`` with ``values`` (of shape ``keys.shape + value shape``), replacing
        the values of keys already there."""
        keys = convert_to_tensor(keys, dtype=self._key_dtype)
        values = convert_to_tensor(values, dtype=self._value_dtype)
        self._mutate("insert", self._insert, [keys, values])

    def _insert(self, keys: np.ndarray, values: np.ndarray) -> np.ndarray:
        self._put(keys, values, strict=False)
        return np.zeros((), np.int64)

    def remove(self, keys: Any, name: str | None = None) -> None:
        """Remove ``keys`` (a tensor of the key dtype) from the table; a key not there is ignored."""
        if keys.dtype != self._key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype}, received: {keys.dtype}")
        self._mutate("remove", self._remove, [keys])

    def _remove(self, keys: np.ndarray) -> np.ndarray:
        for k in _keys_of(keys):
            self._data.pop(k, None)
        return np.zeros((), np.int64)

    def _serialize_to_tensors(self) -> dict:
        keys, values = self.export()
        return {"table-keys": keys, "table-values": values}

    def _restore_from_tensors(self, restored_tensors: dict) -> None:
        keys, values = restored_tensors["table-keys"], restored_tensors["table-values"]
        self._data.clear()
        self._put(host_value(keys, "a table's keys"), host_value(values, "a table's values"), strict=False)


class DenseHashTable(_HashTable):
    """A mutable table as TensorFlow's open-addressing one, bucket for bucket: ``empty_key`` and
    ``deleted_key`` mark its free buckets and may never be inserted, removed or looked up; keys may
    be vectors (the shape of ``empty_key``). A key goes to the bucket its hash says (TensorFlow's
    ``Hash64`` of a string, an integer as it is, ``Hash64Combine`` over a vector), probing on
    quadratically; the buckets double when more than 80% would be used, and ``export`` gives every
    bucket, as TensorFlow's does (so a checkpoint holds the same arrays).

    >>> import tapegrad as tf
    >>> table = tf.lookup.experimental.DenseHashTable(key_dtype=tf.string, value_dtype=tf.int64,
    ...                                               default_value=-1, empty_key="", deleted_key="$")
    >>> table.insert(tf.constant(["a", "b", "c"]), tf.constant([0, 1, 2], dtype=tf.int64))
    >>> table.remove(tf.constant(["c"]))
    >>> table.lookup(tf.constant(["a", "b", "c", "d"])).numpy()
    array([ 0,  1, -1, -1])
    """

    def __init__(self, key_dtype: Any, value_dtype: Any, default_value: Any, empty_key: Any, deleted_key: Any,
                 initial_num_buckets: int | None = None, name: str = "MutableDenseHashTable",
                 checkpoint: bool = True, experimental_is_anonymous: bool = False) -> None:
        key_dtype, value_dtype = _dt.as_dtype(key_dtype), _dt.as_dtype(value_dtype)
        default = convert_to_tensor(default_value, dtype=value_dtype)
        empty, deleted = (convert_to_tensor(k, dtype=key_dtype) for k in (empty_key, deleted_key))
        _check_kernel("MutableDenseHashTableV2", key_dtype, value_dtype)
        if empty.shape != deleted.shape:
            raise InvalidArgumentError(f"Empty and deleted keys must have same shape, got shapes: "
                                       f"{_shape(empty.shape)} and {_shape(deleted.shape)}")
        empty_row, deleted_row = (host_value(k, "an empty or deleted key").reshape(-1) for k in (empty, deleted))
        if np.array_equal(empty_row, deleted_row):
            raise InvalidArgumentError("Empty and deleted keys cannot be equal")
        buckets = 131072 if initial_num_buckets is None else int(initial_num_buckets)
        if buckets < 4 or buckets & (buckets - 1):
            raise InvalidArgumentError(f"Number of buckets must be at least 4 and a power of 2, got: {buckets}")
        super().__init__(key_dtype, value_dtype, default)
        self._empty_key, self._deleted_key = empty_key, deleted_key
        self._key_shape = tuple(empty.shape)
        self._empty, self._deleted = self._key(empty_row), self._key(deleted_row)
        self._reserved = {self._empty: "empty_key", self._deleted: "deleted_key"}
        self._checkpoint = checkpoint
        self._fill(buckets)

    def _fill(self, buckets: int) -> None:
        """Make ``buckets`` empty buckets (their keys and values, as TF's zero-filled tensors)."""
        zero = np.zeros(self._value_shape, self._value_dtype.as_numpy_dtype)
        self._slots = [self._empty] * buckets
        self._values: list = [zero.tolist() if not self._value_shape else zero] * buckets
        self._n = 0

    def _key(self, row: np.ndarray) -> Any:
        return row.tolist()[0] if row.size == 1 and not self._key_shape else tuple(row.tolist())

    def _hash(self, key: Any) -> int:
        """TensorFlow's ``HashKey``: ``Hash64`` of a string, an integer as uint64, and for a vector
        ``Hash64Combine`` over its elements."""
        def scalar(k: Any) -> int:
            return _fingerprint.hash64(k) if type(k) is bytes else k & _U64
        if type(key) is not tuple:
            return scalar(key)
        h = 0
        for k in key:
            x = scalar(k)
            h = (h ^ (x + 0x9E3779B97F4A7800 + ((h << 10) & _U64) + (h >> 4))) & _U64
        return h

    def _probe(self, key: Any) -> Any:
        """The buckets ``key``'s probe sequence visits, in order (quadratic probing, as TF's)."""
        mask = len(self._slots) - 1
        b, probes = self._hash(key) & mask, 0
        while probes <= mask:
            yield b
            probes += 1
            b = (b + probes) & mask
        raise InternalError("Internal error in MutableDenseHashTable lookup")

    def _rows(self, keys: np.ndarray) -> tuple[list, tuple]:
        """The dict keys of ``keys`` (checked as TF's kernel does) and the shape they index."""
        n = 1 if keys.ndim == 0 else keys.shape[0]
        size = math.prod(self._key_shape)
        if keys.size != n * size:
            raise InvalidArgumentError(f"Expected key shape {_shape((n,) + self._key_shape)} got {_shape(keys.shape)}")
        rows = [self._key(r) for r in keys.reshape(-1, size)] if size != 1 or self._key_shape else _keys_of(keys)
        for k in rows:
            if k in self._reserved:
                raise InvalidArgumentError(f"Using the {self._reserved[k]} as a table key is not allowed")
        return rows, keys.shape[:keys.ndim - len(self._key_shape)]

    def _find(self, keys: np.ndarray, default: np.ndarray) -> np.ndarray:
        rows, shape = self._rows(keys)
        out = np.empty((len(rows),) + self._value_shape, self._value_dtype.as_numpy_dtype)
        for i, k in enumerate(rows):
            out[i] = default
            for b in self._probe(k):
                if self._slots[b] == k:
                    out[i] = self._values[b]
                    break
                if self._slots[b] == self._empty:
                    break
        return out.reshape(tuple(shape) + self._value_shape)

    def lookup(self, keys: Any, name: str | None = None) -> Tensor:
        """The values of ``keys`` (converted to the key dtype), the default value for a key not in
        the table."""
        return self._lookup_values(convert_to_tensor(keys, dtype=self._key_dtype), self._default_value)

    def size(self, name: str | None = None) -> Tensor:
        """The number of elements in this table (an int64 scalar)."""
        return _run(self, "size", lambda: np.array(self._n, np.int64), [], True)

    def insert_or_assign(self, keys: Any, values: Any, name: str | None = None) -> None:
        """Associate ``keys`` with ``values``, replacing the values of keys already there."""
        keys = convert_to_tensor(keys, dtype=self._key_dtype)
        values = convert_to_tensor(values, dtype=self._value_dtype)
        _rec.note_stateful()
        _run(self, "insert", self._insert, [keys, values], True)

    def insert(self, keys: Any, values: Any, name: str | None = None) -> None:
        """``insert_or_assign``."""
        return self.insert_or_assign(keys, values, name)

    def _insert(self, keys: np.ndarray, values: np.ndarray) -> np.ndarray:
        rows, shape = self._rows(keys)
        expected = tuple(shape) + self._value_shape
        if values.shape != expected:
            raise InvalidArgumentError(f"Expected shape {_shape(expected)} for value, got {_shape(values.shape)}")
        if self._n + len(rows) > 0.8 * len(self._slots):
            buckets = len(self._slots)
            while self._n + len(rows) > 0.8 * buckets:
                buckets *= 2
            old = [(k, v) for k, v in zip(self._slots, self._values) if k not in self._reserved]
            self._fill(buckets)
            for k, v in old:
                self._put_one(k, v)
        vals = values.reshape((len(rows),) + self._value_shape)
        for k, v in zip(rows, vals.tolist() if not self._value_shape else list(vals.copy())):
            self._put_one(k, v)
        return np.zeros((), np.int64)

    def _put_one(self, key: Any, value: Any) -> None:
        """TF's insert: the key's bucket if it is on the probe path before a free one, else the first
        free (empty or deleted) bucket on it."""
        for b in self._probe(key):
            if self._slots[b] == key:
                self._values[b] = value
                return
            if self._slots[b] == self._empty or self._slots[b] == self._deleted:
                self._slots[b], self._values[b] = key, value
                self._n += 1
                return

    def erase(self, keys: Any, name: str | None = None) -> None:
        """Remove ``keys`` (a tensor of the key dtype); a key not in the table is ignored."""
        if keys.dtype != self._key_dtype:
            raise TypeError(f"Signature mismatch. Keys must be dtype {self._key_dtype}, got {keys.dtype}.")
        _rec.note_stateful()
        _run(self, "remove", self._erase, [keys], True)

    def remove(self, keys: Any, name: str | None = None) -> None:
        """``erase``."""
        return self.erase(keys, name)

    def _erase(self, keys: np.ndarray) -> np.ndarray:
        for k in self._rows(keys)[0]:
            for b in self._probe(k):
                if self._slots[b] == k:
                    self._slots[b] = self._deleted  # (its value stays, as in TF's buckets)
                    self._n -= 1
                    break
                if self._slots[b] == self._empty:
                    break
        return np.zeros((), np.int64)

    def _export(self) -> tuple[np.ndarray, np.ndarray]:
        ksize, vsize = max(math.prod(self._key_shape), 1), max(math.prod(self._value_shape), 1)
        keys = np.array([k if type(k) is tuple else (k,) for k in self._slots],
                        dtype=self._key_dtype.as_numpy_dtype).reshape(len(self._slots), ksize)
        values = np.array(self._values, dtype=self._value_dtype.as_numpy_dtype).reshape(len(self._slots), vsize)
        return keys, values

    def _serialize_to_tensors(self) -> dict:
        keys, values = self.export()
        return {"table-keys": keys, "table-values": values}

    def _restore_from_tensors(self, restored_tensors: dict) -> None:
        keys, values = (host_value(restored_tensors[k], "a table's contents") for k in ("table-keys", "table-values"))
        self._slots = [self._key(k) for k in keys]  # (TF's import: the buckets as they were)
        self._values = [v.reshape(self._value_shape).tolist() if not self._value_shape
                        else v.reshape(self._value_shape).copy() for v in values]
        self._n = sum(k not in self._reserved for k in self._slots)
