"""``tf.data.TextLineDataset``: the lines of text files as ``tf.string`` elements."""
from __future__ import annotations

import gzip
import zlib
from typing import Any, Iterator

import numpy as np

from .. import dtypes as _dt
from .._convert import convert_to_tensor
from ..errors import InvalidArgumentError, NotFoundError
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

    def _iter(self) -> Iterator:
        for _, data in file_contents(self._names, self._decompress):
            lines = data.split(b"\n")
            if lines[-1] == b"":
                lines.pop()
            for line in lines:
                yield line[:-1] if line.endswith(b"\r") else line

    def _spec(self) -> Any:
        return _s.tensor_spec((), _dt.string)
