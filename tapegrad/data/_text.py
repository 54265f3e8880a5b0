"""``tf.data.TextLineDataset`` and ``tf.data.FixedLengthRecordDataset``: the lines, or fixed-length
records, of files as ``tf.string`` elements."""
from __future__ import annotations

import gzip
import zlib
from typing import Any, Iterator

import numpy as np

from .. import dtypes as _dt
from .._convert import convert_to_tensor
from ..errors import DataLossError, InvalidArgumentError, NotFoundError
from . import _structure as _s
from ._dataset import Dataset

_OPEN = {"": None, "GZIP": gzip.decompress, "ZLIB": zlib.decompress}


def compression(compression_type: Any) -> str:
    """``"", "GZIP"`` or ``"ZLIB"``: a dataset's ``compression_type`` checked."""
    kind = (compression_type or "").upper()
    if kind not in _OPEN:
        raise InvalidArgumentError(f"Unsupported compression_type: {compression_type!r} (use None, "
                                   "'GZIP' or 'ZLIB').")
    return kind


def file_names(filenames: Any) -> Any:
    """A file dataset's ``filenames`` argument: a dataset of names, or a flat object array of them."""
    if isinstance(filenames, Dataset):
        return filenames
    t = convert_to_tensor(filenames)
    if t.dtype != _dt.string:
        raise TypeError(f"The `filenames` argument must contain `tf.string` elements. Got "
                        f"`tf.{t.dtype.name}` elements.")
    return np.asarray(t.numpy(), dtype=object).reshape(-1)


def file_contents(names: Any, decompress: Any) -> Iterator[tuple[str, bytes]]:
    """``(path, decompressed contents)`` of each file named, read as iteration reaches it."""
    if isinstance(names, Dataset):
        names = (_s.to_numpy(e) for e in names._elements())
    for n in names:
        path = n.decode("utf-8") if isinstance(n, bytes) else str(n)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as e:
            raise NotFoundError(f"{path}; {e.strerror}") from None
        yield path, (decompress(data) if decompress is not None else data)


def cycle_length(num_parallel_reads: Any) -> int | None:
    """The files read at once for ``num_parallel_reads`` (None: one after another): TensorFlow's
    readers interleave that many files, one record from each in turn (block length 1, in a
    deterministic order); ``tf.data.AUTOTUNE`` takes as many as the CPUs this process may use."""
    if num_parallel_reads is None:
        return None
    n = int(host_value_int(num_parallel_reads))
    if n == -1:   # (AUTOTUNE: TF's port::MaxParallelism, the schedulable CPUs)
        import os
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if n < 1:
        raise InvalidArgumentError(f"num_parallel_reads must be positive or tf.data.AUTOTUNE, got {n}.")
    return n


def host_value_int(v: Any) -> int:
    return int(np.asarray(convert_to_tensor(v).numpy()))


def interleaved(per_file: Any, names: Any, cycle: int | None) -> Iterator:
    """The records ``per_file(name)`` yields for each file, one file after another (``cycle``
    None), or ``cycle`` files at a time, one record from each in turn, a finished file's place
    taken by the next file when its turn comes (tf.data's interleave with block length 1)."""
    if isinstance(names, Dataset):
        names = (_s.to_numpy(e) for e in names._elements())
    names = iter(names)
    if cycle is None:
        for n in names:
            yield from per_file(n)
        return
    slots: list = [None] * cycle
    more, current = True, 0
    while True:
        if slots[current] is None and more:
            n = next(names, None)
            if n is None:
                more = False
            else:
                slots[current] = iter(per_file(n))
        it = slots[current]
        if it is not None:
            try:
                yield next(it)
            except StopIteration:
                slots[current] = None
        elif not more and all(s is None for s in slots):
            return
        current = (current + 1) % cycle


class TextLineDataset(Dataset):
    """The lines of one or more text files, in order, without their line ends (``\\n``, or
    ``\\r\\n``), as scalar ``tf.string`` elements. ``filenames``: a path, a list or string tensor
    of paths, or a dataset of them; ``compression_type``: ``None``/``""``, ``"GZIP"`` or
    ``"ZLIB"``. Files are read when the dataset is iterated; a missing file raises
    ``tf.errors.NotFoundError`` then, as in TensorFlow.

    >>> import os, tempfile, tapegrad as tf
    >>> path = os.path.join(tempfile.mkdtemp(), "a.txt")
    >>> _ = open(path, "w").write("first line\\nsecond\\n")
    >>> [t.numpy() for t in tf.data.TextLineDataset(path)]
    [b'first line', b'second']
    """

    _tf_name = "TextLineDatasetV2"

    def __init__(self, filenames: Any, compression_type: str | None = None, buffer_size: Any = None,
                 num_parallel_reads: Any = None, name: str | None = None) -> None:
        self._names = file_names(filenames)
        self._decompress = _OPEN[compression(compression_type)]
        self._cycle = cycle_length(num_parallel_reads)

    def _iter(self) -> Iterator:
        return interleaved(self._lines, self._names, self._cycle)

    def _lines(self, name: Any) -> Iterator:
        for _, data in file_contents([name], self._decompress):
            lines = data.split(b"\n")
            if lines[-1] == b"":
                lines.pop()
            for line in lines:
                yield line[:-1] if line.endswith(b"\r") else line

    def _spec(self) -> Any:
        return _s.tensor_spec((), _dt.string)


class FixedLengthRecordDataset(Dataset):
    """The fixed-length records of one or more binary files (CIFAR-10's format, for one), as
    scalar ``tf.string`` elements of ``record_bytes`` bytes each: each file's first
    ``header_bytes`` and last ``footer_bytes`` are skipped, and the rest must be a whole number
    of records (else ``InvalidArgumentError``, or ``DataLossError`` after the whole records of a
    compressed file, as TensorFlow). ``compression_type``: ``None``/``""``, ``"GZIP"`` or
    ``"ZLIB"``; ``num_parallel_reads`` interleaves files, as ``TextLineDataset``.

    >>> import os, tempfile, tapegrad as tf
    >>> path = os.path.join(tempfile.mkdtemp(), "a.bin")
    >>> _ = open(path, "wb").write(b"H" + bytes(range(6)))
    >>> [t.numpy() for t in tf.data.FixedLengthRecordDataset(path, 3, header_bytes=1)]
    [b'\\x00\\x01\\x02', b'\\x03\\x04\\x05']
    """

    _tf_name = "FixedLengthRecordDatasetV2"

    def __init__(self, filenames: Any, record_bytes: Any, header_bytes: Any = None, footer_bytes: Any = None,
                 buffer_size: Any = None, compression_type: str | None = None, num_parallel_reads: Any = None,
                 name: str | None = None) -> None:
        self._names = file_names(filenames)
        self._record = host_value_int(record_bytes)
        self._header = 0 if header_bytes is None else host_value_int(header_bytes)
        self._footer = 0 if footer_bytes is None else host_value_int(footer_bytes)
        if self._record <= 0:
            raise InvalidArgumentError(f"record_bytes must be positive, got {self._record}.")
        if self._header < 0 or self._footer < 0:
            raise InvalidArgumentError(f"header_bytes and footer_bytes must be non-negative, got {self._header} "
                                       f"and {self._footer}.")
        self._kind = compression(compression_type)
        self._cycle = cycle_length(num_parallel_reads)

    def _iter(self) -> Iterator:
        return interleaved(self._records, self._names, self._cycle)

    def _records(self, name: Any) -> Iterator:
        for path, data in file_contents([name], _OPEN[self._kind]):
            body = len(data) - self._header - self._footer
            bad = body < 0 or body % self._record
            message = (f"Excluding the header ({self._header} bytes) and footer ({self._footer} bytes), input file "
                       f"\"{path}\" has body length {max(body, 0) if self._kind else body} bytes, which is not an "
                       f"exact multiple of the record length ({self._record} bytes).")
            if bad and not self._kind:
                raise InvalidArgumentError(message)
            for i in range(max(body, 0) // self._record):
                start = self._header + i * self._record
                yield data[start:start + self._record]
            if bad:
                raise DataLossError(message)

    def _spec(self) -> Any:
        return _s.tensor_spec((), _dt.string)
