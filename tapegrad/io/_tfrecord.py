"""TFRecord files: ``tf.io.TFRecordWriter``, ``tf.io.TFRecordOptions`` and the reader behind
``tf.data.TFRecordDataset``.

A record is framed as TensorFlow frames it: its length (uint64, little-endian), the masked CRC32C of
those 8 bytes (uint32), the data, and the masked CRC32C of the data. Files are interchangeable with
TensorFlow's; a damaged record raises ``tf.errors.DataLossError``.

>>> import os, tempfile, tapegrad as tf
>>> path = os.path.join(tempfile.mkdtemp(), "a.tfrecord")
>>> with tf.io.TFRecordWriter(path) as w:
...     w.write(b"first"); w.write(b"second")
>>> [r.numpy() for r in tf.data.TFRecordDataset(path)]
[b'first', b'second']
"""
from __future__ import annotations

import gzip
import struct
import zlib
from typing import Any, Iterator

import numpy as np

from ..errors import DataLossError, InvalidArgumentError, NotFoundError
from .gfile import _path

__all__ = ["TFRecordOptions", "TFRecordWriter", "crc32c", "read_records"]


# -- CRC32C (Castagnoli), reflected, as TensorFlow's record framing uses it
def _table() -> np.ndarray:
    t = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        t = np.where(t & 1, (t >> 1) ^ np.uint32(0x82F63B78), t >> 1).astype(np.uint32)
    return t


_T = _table()
_TL = _T.tolist()
_ADVANCE: dict = {}  # chunk length -> 4 tables: the register moved over that many zero bytes, per byte of it


def _scalar(reg: int, data: bytes) -> int:
    t = _TL
    for b in data:
        reg = t[(reg ^ b) & 0xFF] ^ (reg >> 8)
    return reg


def _registers(chunks: np.ndarray, reg: np.ndarray) -> np.ndarray:
    """The CRC registers after each row of ``chunks`` (uint8, one chunk a row), from ``reg``."""
    for j in range(chunks.shape[1]):
        reg = _T[(reg ^ chunks[:, j]) & 0xFF] ^ (reg >> 8)
    return reg


def _advance_tables(length: int) -> list:
    tables = _ADVANCE.get(length)
    if tables is None:  # the register is linear in GF(2): advance each of its 32 bits, make byte tables
        bits = _registers(np.zeros((32, length), np.uint8), np.uint32(1) << np.arange(32, dtype=np.uint32))
        byte = np.arange(256, dtype=np.uint32)
        tables = []
        for k in range(4):
            col = np.zeros(256, np.uint32)
            for i in range(8):
                col ^= np.where((byte >> i) & 1, bits[8 * k + i], np.uint32(0)).astype(np.uint32)
            tables.append(col.tolist())
        _ADVANCE[length] = tables
    return tables


def crc32c(data: bytes, value: int = 0) -> int:
    """The CRC32C of ``data`` (continuing from ``value``, a previous result)."""
    reg = value ^ 0xFFFFFFFF
    if len(data) >= 16384:  # every chunk's register from 0 at once, then chained (the register is affine)
        length = max(256, 1 << (len(data).bit_length() // 2))  # about sqrt(len) bytes a chunk
        n = len(data) // length
        raw = _registers(np.frombuffer(data, np.uint8, n * length).reshape(n, length),
                         np.zeros(n, np.uint32)).tolist()
        a0, a1, a2, a3 = _advance_tables(length)
        for r in raw:
            reg = a0[reg & 0xFF] ^ a1[(reg >> 8) & 0xFF] ^ a2[(reg >> 16) & 0xFF] ^ a3[reg >> 24] ^ r
        data = data[n * length:]
    return _scalar(reg, data) ^ 0xFFFFFFFF


def _masked(data: bytes) -> int:
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


# -- options and writer
_KINDS = {"": "", "NONE": "", "GZIP": "GZIP", "ZLIB": "ZLIB"}


def _kind(compression_type: Any) -> str:
    if isinstance(compression_type, TFRecordOptions):
        return compression_type.compression_type
    k = _KINDS.get(str(compression_type or "").upper())
    if k is None:
        raise InvalidArgumentError(f"Unsupported compression_type: {compression_type!r} (use None, '', 'GZIP' "
                                   "or 'ZLIB').")
    return k


class TFRecordOptions:
    """How a TFRecord file is compressed: ``compression_type`` ``None``/``""``, ``"GZIP"`` or ``"ZLIB"``
    (with ``compression_level``); the other TensorFlow arguments (buffer sizes, zlib strategy and
    window) are accepted and do not change the file's contents' meaning."""

    def __init__(self, compression_type: Any = None, flush_mode: Any = None, input_buffer_size: Any = None,
                 output_buffer_size: Any = None, window_bits: Any = None, compression_level: Any = None,
                 compression_method: Any = None, mem_level: Any = None, compression_strategy: Any = None) -> None:
        self.compression_type = _kind(compression_type)
        self.compression_level = -1 if compression_level is None else int(compression_level)
        self.flush_mode, self.input_buffer_size, self.output_buffer_size = flush_mode, input_buffer_size, \
            output_buffer_size
        self.window_bits, self.compression_method, self.mem_level, self.compression_strategy = \
            window_bits, compression_method, mem_level, compression_strategy

    @classmethod
    def get_compression_type_string(cls, options: Any) -> str:
        return _kind(options)


def frame(record: bytes) -> bytes:
    """``record`` framed as one TFRecord."""
    head = struct.pack("<Q", len(record))
    return head + struct.pack("<I", _masked(head)) + record + struct.pack("<I", _masked(record))


class TFRecordWriter:
    """Writes records (``bytes``, or scalar string tensors) to a TFRecord file at ``path``.

    ``options``: a :class:`TFRecordOptions` or a compression name. The file is complete when the
    writer is closed (``close()``, or the end of a ``with`` block)."""

    def __init__(self, path: Any, options: Any = None) -> None:
        self._path = _path(path)
        kind = _kind(options)
        level = options.compression_level if isinstance(options, TFRecordOptions) else -1
        try:
            raw = open(self._path, "wb")  # noqa: SIM115
        except OSError as e:
            raise NotFoundError(f"{self._path}; {e.strerror}") from None
        self._raw = raw
        self._zlib = zlib.compressobj(level) if kind == "ZLIB" else None
        self._f: Any = gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6 if level < 0 else level) \
            if kind == "GZIP" else raw

    def write(self, record: Any) -> None:
        """Append one record."""
        if self._raw is None:
            raise InvalidArgumentError("Writer is closed.")
        if hasattr(record, "numpy"):
            record = record.numpy()
        if isinstance(record, str):
            record = record.encode("utf-8")
        if not isinstance(record, (bytes, bytearray, memoryview)):
            raise TypeError(f"TFRecordWriter.write takes bytes (a serialized record), not {type(record).__name__}.")
        data = frame(bytes(record))
        self._f.write(self._zlib.compress(data) if self._zlib is not None else data)

    def flush(self) -> None:
        """Write what is buffered to the file (a ZLIB stream is complete only at ``close``)."""
        if self._raw is not None:
            self._f.flush()

    def close(self) -> None:
        """Finish the file."""
        if self._raw is None:
            return
        if self._zlib is not None:
            self._raw.write(self._zlib.flush())
        if self._f is not self._raw:
            self._f.close()
        self._raw.close()
        self._raw = None

    def __enter__(self) -> "TFRecordWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


def _corrupt(path: str, offset: int, what: str) -> DataLossError:
    return DataLossError(f"corrupted record at {offset} in {path}: {what}")


def read_records(path: Any, compression_type: Any = None) -> Iterator[bytes]:
    """The records of the TFRecord file ``path``, in order, each checked against its CRCs."""
    p = _path(path)
    kind = _kind(compression_type)
    try:
        with open(p, "rb") as f:
            data = f.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as e:
        raise NotFoundError(f"{p}; {e.strerror}") from None
    if kind == "GZIP":
        data = gzip.decompress(data)
    elif kind == "ZLIB":
        data = zlib.decompress(data)
    return records(data, p)


def records(data: bytes, path: str) -> Iterator[bytes]:
    """The records framed in ``data`` (the contents of file ``path``), each checked against its CRCs."""
    i, n = 0, len(data)
    while i < n:
        if n - i < 12:
            raise _corrupt(path, i, "truncated record header")
        head = data[i:i + 8]
        (length,), (crc,) = struct.unpack("<Q", head), struct.unpack("<I", data[i + 8:i + 12])
        if crc != _masked(head):
            raise _corrupt(path, i, "the length's checksum does not match")
        start, end = i + 12, i + 12 + length
        if end + 4 > n:
            raise _corrupt(path, i, "truncated record")
        record = data[start:end]
        if struct.unpack("<I", data[end:end + 4])[0] != _masked(record):
            raise _corrupt(path, i, "the data's checksum does not match")
        yield record
        i = end + 4
