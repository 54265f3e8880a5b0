"""``tf.io.decode_csv``: CSV records (strings) into one tensor per column, by TensorFlow's rules."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._convert import convert_to_tensor
from .._tensor import Tensor
from ..errors import InvalidArgumentError

__all__ = ["decode_csv", "split_record", "column_defaults"]

_TYPES = ("int32", "int64", "float32", "float64", "string")


def split_record(record: bytes, delim: bytes, use_quote_delim: bool, where: str) -> list[bytes]:
    """The fields of one CSV record; ``"..."`` fields (with ``""`` for a quote) when ``use_quote_delim``."""
    if not use_quote_delim or b'"' not in record:
        return record.split(delim)
    fields, i, n = [], 0, len(record)
    while True:
        if i < n and record[i:i + 1] == b'"':
            buf, i = bytearray(), i + 1
            while True:
                j = record.find(b'"', i)
                if j < 0:
                    raise InvalidArgumentError(f"Quoted field has to end with quote followed by delim or end{where}")
                buf += record[i:j]
                if record[j + 1:j + 2] == b'"':
                    buf += b'"'
                    i = j + 2
                    continue
                i = j + 1
                break
            if i < n and record[i:i + len(delim)] != delim:
                raise InvalidArgumentError(f"Quoted field has to end with quote followed by delim or end{where}")
            fields.append(bytes(buf))
        else:
            j = record.find(delim, i)
            j = n if j < 0 else j
            field = record[i:j]
            if b'"' in field:
                raise InvalidArgumentError(f"Unquoted fields cannot have quotes inside{where}")
            fields.append(field)
            i = j
        if i >= n:
            return fields
        i += len(delim)
        if i == n:  # a delimiter ends the record: one more, empty field
            fields.append(b"")
            return fields


def column_defaults(record_defaults: Any) -> list[tuple[_dt.DType, Any]]:
    """``(dtype, default or None if required)`` of each column of ``record_defaults`` (TF's forms: a
    list of one-element lists, of empty tensors for required columns, or of dtypes)."""
    cols = []
    for i, d in enumerate(record_defaults):
        if isinstance(d, _dt.DType):
            cols.append((d, None))
            continue
        t = convert_to_tensor(d)
        if t.dtype.name not in _TYPES:
            raise TypeError(f"record_defaults[{i}] has dtype {t.dtype.name}; CSV columns are int32, int64, float32, "
                            "float64 or string.")
        a = np.asarray(t.numpy(), dtype=object if t.dtype == _dt.string else None).reshape(-1)
        if a.size > 1:
            raise ValueError(f"record_defaults[{i}] must have at most one element (the column's default), got "
                             f"{a.size}.")
        cols.append((t.dtype, a[0] if a.size else None))
    return cols


def parse_field(field: bytes, dtype: _dt.DType) -> Any:
    """A text field as a value of ``dtype`` (its bytes for a string; surrounding whitespace
    ignored for a number); ``ValueError`` if it is not one (also out of an integer's range)."""
    if dtype == _dt.string:
        return field
    s = field.decode("ascii").strip()
    if not dtype.is_integer:
        return float(s)
    v = int(s, 10)
    info = np.iinfo(dtype.as_numpy_dtype)
    if not info.min <= v <= info.max:
        raise ValueError(f"{v} is out of the range of {dtype.name}")
    return v


def convert_field(field: bytes, dtype: _dt.DType, default: Any, na: bytes | None, col: int, rec: int) -> Any:
    if field == b"" or (na is not None and field == na):
        if default is None:
            raise InvalidArgumentError(f"Field {col} is required but missing in record {rec}!")
        return default
    try:
        return parse_field(field, dtype)
    except ValueError:  # (a UnicodeDecodeError too)
        raise InvalidArgumentError(f"Field {col} in record {rec} is not a valid {dtype.name}: "
                                   f"{field.decode('utf-8', 'replace')}") from None


def decode_csv(records: Any, record_defaults: Any, field_delim: str = ",", use_quote_delim: bool = True,
               name: str | None = None, na_value: str = "", select_cols: Any = None) -> list[Tensor]:
    """One tensor per column of the CSV ``records`` (a string tensor of any shape), typed and defaulted
    by ``record_defaults``: ``[[0], [0.0], ["x"]]`` gives int32, float32 and string columns whose empty
    fields become 0, 0.0 and "x"; an empty default (``tf.constant([], tf.int64)``) makes a column required.

    >>> import tapegrad as tf
    >>> a, b = tf.io.decode_csv(["1,2.5", "3,"], [[0], [0.0]])
    >>> a.numpy(), b.numpy()
    (array([1, 3], dtype=int32), array([2.5, 0. ], dtype=float32))
    """
    t = convert_to_tensor(records, dtype=_dt.string)
    recs = np.asarray(t.numpy(), dtype=object)
    cols = column_defaults(record_defaults)
    delim = field_delim.encode() if isinstance(field_delim, str) else bytes(field_delim)
    if len(delim) != 1:
        raise InvalidArgumentError(f"field_delim should be only 1 char, got {field_delim!r}")
    na = na_value.encode() if isinstance(na_value, str) else na_value
    na = na or None
    select = None if select_cols is None else [int(c) for c in select_cols]
    if select is not None:
        if any(b <= a for a, b in zip(select, select[1:])) or (select and select[0] < 0):
            raise ValueError("select_cols is not strictly increasing.")
        if len(select) != len(cols):
            raise ValueError("Length of select_cols and record_defaults do not match.")
    out: list[list] = [[] for _ in cols]
    for r, rec in enumerate(recs.reshape(-1)):
        fields = split_record(bytes(rec), delim, use_quote_delim, "")
        if select is not None:
            if len(fields) <= select[-1]:
                raise InvalidArgumentError(f"Expect {select[-1] + 1} fields but have {len(fields)} in record {r}")
            fields = [fields[c] for c in select]
        elif len(fields) != len(cols):
            raise InvalidArgumentError(f"Expect {len(cols)} fields but have {len(fields)} in record {r}")
        for c, ((dtype, default), field) in enumerate(zip(cols, fields)):
            out[c].append(convert_field(field, dtype, default, na, c if select is None else select[c], r))
    result = []
    for (dtype, _), vals in zip(cols, out):
        a = np.empty(len(vals), dtype=object) if dtype == _dt.string else np.asarray(vals, dtype.as_numpy_dtype)
        if dtype == _dt.string:
            a[:] = vals
        result.append(convert_to_tensor(a.reshape(recs.shape), dtype=dtype))
    return result
