"""``tf.data.TFRecordDataset``, ``tf.data.experimental.CsvDataset`` and ``make_csv_dataset``."""
from __future__ import annotations

import collections
import csv
import gzip
import io as _pyio
from typing import Any, Iterator

import numpy as np

from .. import dtypes as _dt
from .._convert import convert_to_tensor, host_value
from ..errors import InvalidArgumentError, OpError
from ..io import gfile
from ..io._csv import column_defaults, convert_field, split_record
from ..io._tfrecord import records
from . import _structure as _s
from ._dataset import AUTOTUNE, Dataset, _Failed
from ._text import _OPEN, compression, cycle_length, file_contents, file_names, interleaved

__all__ = ["CsvDataset", "TFRecordDataset", "make_csv_dataset"]


class TFRecordDataset(Dataset):
    """The records of one or more TFRecord files, in order, as scalar ``tf.string`` elements (usually
    serialized ``tf.train.Example`` messages, for ``tf.io.parse_single_example``). ``filenames``: a
    path, a list or string tensor of paths, or a dataset of them; ``compression_type``: ``None``/``""``,
    ``"GZIP"`` or ``"ZLIB"``. A damaged record raises ``tf.errors.DataLossError`` when it is reached.

    >>> import os, tempfile, tapegrad as tf
    >>> path = os.path.join(tempfile.mkdtemp(), "r.tfrecord")
    >>> with tf.io.TFRecordWriter(path) as w:
    ...     w.write(b"a"); w.write(b"bc")
    >>> [r.numpy() for r in tf.data.TFRecordDataset([path, path])]
    [b'a', b'bc', b'a', b'bc']
    """

    _tf_name = "TFRecordDatasetV2"

    def __init__(self, filenames: Any, compression_type: str | None = None, buffer_size: Any = None,
                 num_parallel_reads: Any = None, name: str | None = None) -> None:
        self._names = file_names(filenames)
        self._decompress = _OPEN[compression(compression_type)]
        self._cycle = cycle_length(num_parallel_reads)

    def _iter(self) -> Iterator:
        return interleaved(self._records_of, self._names, self._cycle)

    def _records_of(self, name: Any) -> Iterator:
        for path, data in file_contents([name], self._decompress):
            yield from records(data, path)

    def _spec(self) -> Any:
        return _s.tensor_spec((), _dt.string)


def _csv_records(data: bytes, use_quote_delim: bool) -> Iterator[bytes]:
    """The records of a CSV file: lines (``\\n`` or ``\\r\\n``), a quoted field spanning lines kept whole."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    pending: bytes | None = None
    for line in lines:
        rec = line if pending is None else pending + b"\n" + line
        if use_quote_delim and rec.count(b'"') % 2:  # inside a quoted field: the newline is the field's
            pending = rec
            continue
        pending = None
        yield rec[:-1] if rec.endswith(b"\r") else rec
    if pending is not None:
        yield pending


class CsvDataset(Dataset):
    """The records of CSV files, one tuple of scalar tensors per record, typed and defaulted by
    ``record_defaults`` as in :func:`tf.io.decode_csv`. ``header=True`` skips each file's first line;
    ``select_cols`` or ``exclude_cols`` (sorted column indices) keep some columns.

    >>> import os, tempfile, tapegrad as tf
    >>> path = os.path.join(tempfile.mkdtemp(), "a.csv")
    >>> _ = open(path, "w").write("x,y\\n1,2.5\\n3,\\n")
    >>> [(int(a), float(b)) for a, b in tf.data.experimental.CsvDataset(path, [[0], [0.0]], header=True)]
    [(1, 2.5), (3, 0.0)]
    """

    _tf_name = "CSVDatasetV2"

    def __init__(self, filenames: Any, record_defaults: Any, compression_type: str | None = None,
                 buffer_size: Any = None, header: bool = False, field_delim: str = ",", use_quote_delim: bool = True,
                 na_value: str = "", select_cols: Any = None, exclude_cols: Any = None,
                 name: str | None = None) -> None:
        self._names = file_names(filenames)
        self._decompress = _OPEN[compression(compression_type)]
        self._cols = column_defaults(record_defaults)
        if select_cols is not None and exclude_cols is not None:
            raise InvalidArgumentError("Either select_cols or exclude_cols should be empty")
        for what, cols in (("select_cols", select_cols), ("exclude_cols", exclude_cols)):
            if cols is not None:
                c = [int(v) for v in cols]
                if any(b <= a for a, b in zip(c, c[1:])) or (c and c[0] < 0):
                    raise InvalidArgumentError(f"{what} is not strictly increasing.")
        self._select = None if select_cols is None else [int(c) for c in select_cols]
        if self._select is not None and len(self._select) != len(self._cols):
            raise ValueError("Length of select_cols and record_defaults do not match.")
        self._exclude = None if exclude_cols is None else set(int(c) for c in exclude_cols)
        self._header, self._quote = bool(header), bool(use_quote_delim)
        self._delim = field_delim.encode() if isinstance(field_delim, str) else bytes(field_delim)
        self._na = (na_value.encode() if isinstance(na_value, str) else na_value) or None

    def _iter(self) -> Iterator:
        for r, rec in self._records():
            yield self._record(r, rec)

    def _tolerant(self) -> Iterator:
        for r, rec in self._records():
            try:
                yield self._record(r, rec)
            except OpError as e:
                yield _Failed(e)

    def _records(self) -> Iterator:
        for _, data in file_contents(self._names, self._decompress):
            recs = _csv_records(data, self._quote)
            if self._header:
                next(recs, None)
            yield from enumerate(recs)

    def _record(self, r: int, rec: bytes) -> tuple:
        n = len(self._cols)
        fields = split_record(rec, self._delim, self._quote, "")
        if self._select is not None:
            if len(fields) <= self._select[-1]:
                raise InvalidArgumentError(f"Expect {self._select[-1] + 1} fields but have {len(fields)} "
                                           "in record")
            fields, idx = [fields[c] for c in self._select], self._select
        elif self._exclude is not None:
            idx = [c for c in range(len(fields)) if c not in self._exclude]
            fields = [fields[c] for c in idx]
        else:
            idx = list(range(len(fields)))
        if len(fields) != n:
            raise InvalidArgumentError(f"Expect {n} fields but have {len(fields)} in record")
        return tuple(host_value(convert_to_tensor(convert_field(f, dt, d, self._na, c, r), dtype=dt),
                                "a CSV field")
                     for (dt, d), f, c in zip(self._cols, fields, idx))

    def _spec(self) -> Any:
        return tuple(_s.tensor_spec((), dt) for dt, _ in self._cols)


# -- make_csv_dataset: TensorFlow's pipeline, op for op, so a seeded one gives TensorFlow's batches
def _file_list(file_pattern: Any) -> list[str]:
    pats = file_pattern if isinstance(file_pattern, list) else [file_pattern]
    if isinstance(file_pattern, list) and not file_pattern:
        raise ValueError("Argument `file_pattern` should not be empty.")
    names = sorted(m for p in pats for m in gfile.glob(p))
    if not names:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    return names


def _text_of(path: str, compression_type: Any) -> str:
    with open(path, "rb") as f:
        data = f.read()
    kind = compression(compression_type)
    if kind == "GZIP":
        data = gzip.decompress(data)
    elif kind == "ZLIB":
        raise ValueError(f"`compression_type` {compression_type} is not supported for probing columns.")
    return data.decode("utf-8")


def _csv_rows(path: str, compression_type: Any, field_delim: str, use_quote_delim: bool) -> Iterator[list[str]]:
    reader = csv.reader(_pyio.StringIO(_text_of(path, compression_type)), delimiter=field_delim,
                        quoting=csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE)
    yield from reader


def _inference_rows(filenames: list, n: int, compression_type: Any, field_delim: str, use_quote_delim: bool,
                    header: bool) -> Iterator[list[str]]:
    """The rows of the files in turn, each checked to have ``n`` fields (what types are inferred from)."""
    for f in filenames:
        rows = _csv_rows(f, compression_type, field_delim, use_quote_delim)
        if header:
            next(rows, None)
        for i, row in enumerate(rows, start=2 if header else 1):
            if len(row) != n:
                raise ValueError(f"Problem inferring types: CSV row {i} has {len(row)} number of fields. "
                                 f"Expected: {n}.")
            yield row


def _infer_type(value: str, na_value: str, prev: Any) -> Any:
    """TensorFlow's inference: the least permissive of int32, int64, float32, float64, string that the
    value and the column's earlier values fit."""
    if value in ("", na_value):
        return prev
    order = [_dt.int32, _dt.int64, _dt.float32, _dt.float64, _dt.string]

    def fits(t: Any) -> bool:
        try:
            if t in (_dt.int32, _dt.int64):
                v = int(value)
                return -(1 << 31) <= v < (1 << 31) if t == _dt.int32 else -(1 << 63) <= v < (1 << 63)
            if t in (_dt.float32, _dt.float64):
                return float(np.asarray(value).astype(t.as_numpy_dtype)) < np.inf
        except (ValueError, OverflowError):
            return False
        return True
    for i, t in enumerate(order):
        if fits(t) and (prev is None or prev in order[:i + 1]):
            return t
    return _dt.string


def make_csv_dataset(file_pattern: Any, batch_size: int, column_names: Any = None, column_defaults: Any = None,
                     label_name: str | None = None, select_columns: Any = None, field_delim: str = ",",
                     use_quote_delim: bool = True, na_value: str = "", header: bool = True, num_epochs: Any = None,
                     shuffle: bool = True, shuffle_buffer_size: int = 10000, shuffle_seed: Any = None,
                     prefetch_buffer_size: Any = None, num_parallel_reads: Any = None, sloppy: bool = False,
                     num_rows_for_inference: int = 100, compression_type: Any = None, ignore_errors: bool = False,
                     encoding: str = "utf-8") -> Dataset:
    """Batches of CSV records as ``{column name: tensor}`` dicts (``(features, label)`` with
    ``label_name``), column names read from the header and types inferred from the first
    ``num_rows_for_inference`` rows, shuffled and repeated ``num_epochs`` times (forever by default) —
    TensorFlow's pipeline op for op, so the batches of a seeded pipeline are TensorFlow's.

    >>> import os, tempfile, tapegrad as tf
    >>> path = os.path.join(tempfile.mkdtemp(), "a.csv")
    >>> _ = open(path, "w").write("a,b,label\\n1,2.5,0\\n3,4,1\\n5,6.5,0\\n")
    >>> ds = tf.data.experimental.make_csv_dataset(path, batch_size=2, label_name="label", shuffle=False,
    ...                                            num_epochs=1)
    >>> [(sorted(f), l.tolist()) for f, l in ds.as_numpy_iterator()]
    [(['a', 'b'], [0, 1]), (['a', 'b'], [0])]
    """
    if num_parallel_reads is None:
        num_parallel_reads = 1
    if prefetch_buffer_size is None:
        prefetch_buffer_size = AUTOTUNE
    filenames = _file_list(file_pattern)
    dataset = Dataset.from_tensor_slices(filenames)
    if shuffle:
        dataset = dataset.shuffle(len(filenames), shuffle_seed)
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither is provided.")
        heads = [next(_csv_rows(f, compression_type, field_delim, use_quote_delim), None) for f in filenames]
        if heads[0] is None:
            raise ValueError(f"Failed when reading the header line of {filenames[0]}. Is it an empty file?")
        for f, h in zip(filenames[1:], heads[1:]):
            if h != heads[0]:
                raise ValueError("All input CSV files should have the same column names in the header row. File "
                                 f"{f} has different column names.")
        column_names = heads[0]
    column_names = list(column_names)
    if len(column_names) != len(set(column_names)):
        dup = sorted({n for n in column_names if column_names.count(n) > 1})
        raise ValueError(f"Either `column_names` argument or CSV header row contains duplicate column names: {dup}.")
    select = None
    if select_columns is not None:
        index = {n: i for i, n in enumerate(column_names)}
        picked = []
        for v in select_columns:
            if isinstance(v, int):
                if not 0 <= v < len(column_names):
                    raise ValueError(f"Column index {v} specified in `select_columns` should be > 0  and <= "
                                     f"{len(column_names)}, which is the number of columns.")
                picked.append(v)
            elif v not in index:
                raise ValueError(f"Column {v} specified in `select_columns` must be of one of the columns: "
                                 f"{list(index)}.")
            else:
                picked.append(index[v])
        select = sorted(set(picked))
        if len(select) != len(select_columns):
            raise ValueError("The `select_columns` argument contains duplicate columns.")
    if column_defaults is not None:
        defaults = [convert_to_tensor(np.zeros(0, _dt.as_dtype(d).as_numpy_dtype) if _dt.as_dtype(d) != _dt.string
                                      else np.zeros(0, object), dtype=_dt.as_dtype(d))
                    if isinstance(d, (_dt.DType, str)) else d for d in column_defaults]
    else:
        cols = select if select is not None else list(range(len(column_names)))
        types: list = [None] * len(cols)
        for i, row in enumerate(_inference_rows(filenames, len(column_names), compression_type, field_delim,
                                                use_quote_delim, header)):
            if num_rows_for_inference is not None and i >= num_rows_for_inference:
                break
            types = [_infer_type(row[c], na_value, t) for c, t in zip(cols, types)]
        defaults = [[b""] if (t or _dt.string) == _dt.string else convert_to_tensor([0], dtype=t) for t in types]
    if select is not None and len(defaults) != len(select):
        raise ValueError("If specified, `column_defaults` and `select_columns` must have the same length: "
                         f"`column_defaults` has length {len(defaults)}, `select_columns` has length {len(select)}.")
    if select is not None and len(column_names) > len(select):
        column_names = [column_names[i] for i in select]
    if label_name is not None and label_name not in column_names:
        raise ValueError(f"`label_name` provided must be one of the columns: {column_names}. Received: {label_name}.")

    def per_file(filename: Any) -> Dataset:
        ds = CsvDataset(filename, record_defaults=defaults, field_delim=field_delim, use_quote_delim=use_quote_delim,
                        na_value=na_value, select_cols=select, header=header, compression_type=compression_type)
        return ds.ignore_errors() if ignore_errors else ds

    def to_dict(*columns: Any) -> Any:
        features = collections.OrderedDict(zip(column_names, columns))
        if label_name is not None:
            return features, features.pop(label_name)
        return features

    dataset = dataset.interleave(per_file, cycle_length=num_parallel_reads, block_length=1)
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    return dataset.batch(batch_size, drop_remainder=num_epochs is None).map(to_dict).prefetch(prefetch_buffer_size)
