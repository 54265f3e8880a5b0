"""``tapegrad.summary`` (TensorFlow's ``tf.summary``): TensorBoard event files.

``create_file_writer(logdir)`` writes ``events.out.tfevents.*.v2`` files in TensorBoard's format
(TFRecord framing with masked CRC32C, ``Event`` and ``Summary`` protocol buffers encoded here, no
protobuf dependency), with the payloads TensorFlow 2 writes: ``scalar`` (a float32 tensor under
the ``scalars`` plugin), ``histogram`` (TensorBoard's ``[buckets, 3]`` float64 table), ``image``
(PNG-encoded), ``text`` and the generic ``write``. Every record is flushed as it is written.

>>> import tempfile, tapegrad as tf
>>> writer = tf.summary.create_file_writer(tempfile.mkdtemp())
>>> with writer.as_default(step=3):
...     tf.summary.scalar("loss", 0.25)
True
>>> tf.summary.scalar("loss", 0.25, step=4)  # no default writer: nothing written
False
"""
from __future__ import annotations

import contextlib
import itertools
import os
import socket
import struct
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ._convert import convert_to_tensor
from ._scope import get_current_name_scope
from ._tensor import Tensor
from ._variable import Variable

__all__ = ["SummaryWriter", "audio", "create_file_writer", "create_noop_writer", "experimental",
    "flush", "graph", "histogram", "image", "record_if", "scalar", "should_record_summaries",
    "text", "trace_export", "trace_off", "trace_on", "write"]

_local = threading.local()  # .writers: the default writers, innermost last; .record: record_if
_counter = itertools.count()


# --------------------------------------------------------------------------- encoding
def _crc32c_table() -> list:
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _crc32c_table()


def _masked_crc(data: bytes) -> int:
    c = 0xFFFFFFFF
    for b in data:
        c = _CRC_TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    c ^= 0xFFFFFFFF
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _record(data: bytes) -> bytes:
    """One TFRecord: length, its masked CRC, the data, its masked CRC."""
    head = struct.pack("<Q", len(data))
    return head + struct.pack("<I", _masked_crc(head)) + data + struct.pack("<I", _masked_crc(data))


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b, n = n & 0x7F, n >> 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(num: int, value: Any) -> bytes:
    """A protobuf field: bytes/str/nested message as length-delimited, int as varint, float as double."""
    if isinstance(value, float):
        return _varint(num << 3 | 1) + struct.pack("<d", value)
    if isinstance(value, int):
        return _varint(num << 3) + _varint(value)
    data = value.encode() if isinstance(value, str) else bytes(value)
    return _varint(num << 3 | 2) + _varint(len(data)) + data


_DT_ENUM = {np.dtype(np.float32): 1, np.dtype(np.float64): 2, np.dtype(np.int32): 3,
            np.dtype(np.uint8): 4, np.dtype(np.int64): 9, np.dtype(np.bool_): 10, np.dtype(np.float16): 19}


def _tensor_proto(a: np.ndarray) -> bytes:
    shape = b"".join(_field(2, _field(1, int(d))) for d in a.shape)
    if a.dtype.kind in "OSU":
        vals = [v if isinstance(v, bytes) else str(v).encode() for v in a.ravel()]
        return _field(1, 7) + _field(2, shape) + b"".join(_field(8, v) for v in vals)
    if a.dtype not in _DT_ENUM:
        raise TypeError(f"tf.summary cannot write a {a.dtype} tensor; cast it to float32 or int64 first.")
    return _field(1, _DT_ENUM[a.dtype]) + _field(2, shape) + _field(4, np.ascontiguousarray(a).tobytes())


def _metadata(plugin: str, data_class: int, description: str | None, content: bytes = b"") -> bytes:
    plugin_data = _field(1, plugin) + (_field(2, content) if content else b"")
    return (_field(1, plugin_data) + (_field(3, description) if description else b"")
            + (_field(4, data_class) if data_class else b""))


def _event(step: int, value: bytes | None = None, file_version: str | None = None) -> bytes:
    out = _field(1, time.time()) + (_field(2, int(step)) if step else b"")
    if file_version is not None:
        out += _field(3, file_version)
    if value is not None:
        out += _field(5, _field(1, value))
    return out


# --------------------------------------------------------------------------- writers
class SummaryWriter:
    """Writes summaries to an event file in ``logdir`` (made by :func:`create_file_writer`)."""

    def __init__(self, logdir: str | None, filename_suffix: str | None = None) -> None:
        self._file = None
        self._lock = threading.Lock()
        if logdir is not None:
            os.makedirs(logdir, exist_ok=True)
            name = (f"events.out.tfevents.{int(time.time()):010d}.{socket.gethostname()}.{os.getpid()}."
                    f"{next(_counter)}{'.v2' if filename_suffix is None else filename_suffix}")
            self.path = os.path.join(logdir, name)
            self._file = open(self.path, "ab")  # noqa: SIM115  (kept open until close())
            self._write(_event(0, file_version="brain.Event:2"))

    def _write(self, event: bytes) -> None:
        with self._lock:
            if self._file is not None:
                self._file.write(_record(event))
                self._file.flush()

    @contextlib.contextmanager
    def as_default(self, step: Any = None) -> Iterator[SummaryWriter]:
        """Within the block, summaries go to this writer (and ``step`` is the default step)."""
        writers = _writers()
        writers.append(self)
        old = experimental.get_step()
        if step is not None:
            experimental.set_step(step)
        try:
            yield self
        finally:
            writers.remove(self)
            if step is not None:
                experimental.set_step(old)

    def set_as_default(self, step: Any = None) -> None:
        """Make this the default writer from now on (and ``step`` the default step)."""
        _writers().insert(0, self)
        if step is not None:
            experimental.set_step(step)

    def init(self) -> None:
        """Nothing to do: the file is open from the start."""

    def flush(self) -> None:
        """Every record is flushed when written; kept for TensorFlow's API."""

    def close(self) -> None:
        """Close the event file; later summaries to this writer are dropped."""
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None


def create_file_writer(logdir: str, max_queue: Any = None, flush_millis: Any = None,
                       filename_suffix: str | None = None, name: Any = None,
                       experimental_trackable: bool = False, experimental_mesh: Any = None) -> SummaryWriter:
    """A :class:`SummaryWriter` writing a new event file in ``logdir`` (made if missing)."""
    return SummaryWriter(os.fspath(logdir), filename_suffix)


def create_noop_writer() -> SummaryWriter:
    """A writer that writes nothing."""
    return SummaryWriter(None)


def _writers() -> list:
    w = getattr(_local, "writers", None)
    if w is None:
        w = _local.writers = []
    return w


class experimental:  # noqa: N801  (TensorFlow's namespace tf.summary.experimental)
    """``tf.summary.experimental``: the default step."""

    _step: Any = None

    @staticmethod
    def get_step() -> Any:
        """The default step of summaries (None until set)."""
        return experimental._step

    @staticmethod
    def set_step(step: Any) -> None:
        """Set the default step of summaries (an int, a tensor or a variable, read at each write)."""
        experimental._step = step


@contextlib.contextmanager
def record_if(condition: bool | Callable[[], bool]) -> Iterator[None]:
    """Within the block, summaries are written only when ``condition`` (or ``condition()``) holds."""
    old = getattr(_local, "record", True)
    _local.record = condition
    try:
        yield
    finally:
        _local.record = old


def should_record_summaries() -> bool:
    """Whether a summary written now would be recorded (a default writer, and ``record_if``)."""
    cond = getattr(_local, "record", True)
    cond = cond() if callable(cond) else cond
    return bool(_writers()) and bool(np.asarray(cond.numpy() if isinstance(cond, (Tensor, Variable)) else cond))


def _step_of(step: Any) -> int:
    step = experimental.get_step() if step is None else step
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument or "
                         "through tf.summary.experimental.set_step()")
    return int(np.asarray(step.numpy() if isinstance(step, (Tensor, Variable)) else step))


def _emit(name: str, array: np.ndarray, step: Any, metadata: bytes) -> bool:
    if not should_record_summaries():
        return False
    scope = get_current_name_scope()
    tag = f"{scope}/{name}" if scope else name
    value = _field(1, tag) + _field(8, _tensor_proto(array)) + _field(9, metadata)
    _writers()[-1]._write(_event(_step_of(step), value))
    return True


def _array(data: Any) -> np.ndarray:
    return np.asarray(convert_to_tensor(data).numpy())


# --------------------------------------------------------------------------- summaries
def write(tag: str, tensor: Any, step: Any = None, metadata: Any = None, name: Any = None) -> bool:
    """Write ``tensor`` under ``tag`` (``metadata``: serialized ``SummaryMetadata`` bytes, or None)."""
    meta = metadata if isinstance(metadata, bytes) else b""
    return _emit(tag, _array(tensor), step, meta)


def scalar(name: str, data: Any, step: Any = None, description: str | None = None) -> bool:
    """Write a scalar (as float32, TensorBoard's ``scalars`` plugin). True when written.

    >>> import tapegrad as tf
    >>> tf.summary.scalar("loss", 1.0, step=0)  # no default writer
    False
    """
    a = _array(data).astype(np.float32)
    if a.ndim:
        raise ValueError(f"tf.summary.scalar needs a scalar, got shape {list(a.shape)}.")
    return _emit(name, a, step, _metadata("scalars", 1, description))


def _buckets(data: np.ndarray, bucket_count: int) -> np.ndarray:
    """TensorBoard's histogram table: one ``[left, right, count]`` row per bucket."""
    data = data.ravel().astype(np.float64)
    if bucket_count <= 0 or not data.size:
        return np.zeros((max(bucket_count, 0), 3))
    lo, hi = data.min(), data.max()
    if hi == lo:
        counts = np.zeros(bucket_count)
        counts[-1] = data.size
        edges = np.full(bucket_count, lo)
        return np.stack([edges, edges, counts], axis=1)
    width = (hi - lo) / bucket_count
    idx = np.minimum(np.floor((data - lo) / width).astype(np.int64), bucket_count - 1)
    counts = np.bincount(idx, minlength=bucket_count).astype(np.float64)
    edges = np.linspace(lo, hi, bucket_count + 1)
    return np.stack([edges[:-1], edges[1:], counts], axis=1)


def histogram(name: str, data: Any, step: Any = None, buckets: int | None = None,
              description: str | None = None) -> bool:
    """Write a histogram of ``data``'s entries (30 buckets by default), TensorBoard's ``histograms``
    plugin."""
    table = _buckets(_array(data), 30 if buckets is None else int(buckets))
    return _emit(name, table, step, _metadata("histograms", 2, description))


def text(name: str, data: Any, step: Any = None, description: str | None = None) -> bool:
    """Write a string (or a tensor of strings) for TensorBoard's ``text`` plugin."""
    a = np.asarray(data if isinstance(data, (str, bytes, list, tuple, np.ndarray)) else _array(data), dtype=object)
    return _emit(name, a, step, _metadata("text", 2, description))


def _png(img: np.ndarray) -> bytes:
    h, w, c = img.shape
    color = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    raw = b"".join(b"\x00" + img[r].tobytes() for r in range(h))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, color, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def image(name: str, data: Any, step: Any = None, max_outputs: int = 3, description: str | None = None) -> bool:
    """Write up to ``max_outputs`` images of ``data`` (``[k, h, w, c]``, ``c`` in 1-4; floats are
    clipped to ``[0, 1]``), PNG-encoded for TensorBoard's ``images`` plugin."""
    a = _array(data)
    if a.ndim != 4 or not 1 <= a.shape[-1] <= 4:
        raise ValueError(f"tf.summary.image needs [k, h, w, c] data with c in 1..4, got shape {list(a.shape)}.")
    if a.dtype.kind == "f":
        a = (np.clip(a, 0.0, 1.0) * 255.5).astype(np.uint8)
    elif a.dtype != np.uint8:
        a = np.clip(a, 0, 255).astype(np.uint8)
    imgs = [_png(x) for x in a[:int(max_outputs)]]
    blob = np.array([str(a.shape[2]).encode(), str(a.shape[1]).encode()] + imgs, dtype=object)
    return _emit(name, blob, step, _metadata("images", 3, description))


def audio(name: str, data: Any, sample_rate: Any, step: Any = None, max_outputs: int = 3,
          encoding: Any = None, description: str | None = None) -> bool:
    """Not covered: raises NotImplementedError (write the samples with :func:`write` instead)."""
    raise NotImplementedError("tapegrad does not cover tf.summary.audio yet; write the samples with "
                              "tf.summary.write or tf.summary.histogram.")


def graph(graph_data: Any) -> bool:
    """tapegrad has no graphs to write: returns False, as when nothing is recorded."""
    return False


def trace_on(graph: bool = True, profiler: bool = False, profiler_outdir: Any = None) -> None:
    """Nothing: tapegrad has no graphs or profiler traces to export."""


def trace_off() -> None:
    """Nothing (see :func:`trace_on`)."""


def trace_export(name: str, step: Any = None, profiler_outdir: Any = None) -> None:
    """Nothing (see :func:`trace_on`)."""


def flush(writer: Any = None, name: Any = None) -> None:
    """Every record is flushed when written; kept for TensorFlow's API."""
