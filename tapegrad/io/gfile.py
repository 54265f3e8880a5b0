"""``tf.io.gfile``: TensorFlow's file API on the local file system.

Paths are local paths (``str``, ``bytes`` or ``os.PathLike``); a path with a scheme such as
``gs://`` or ``s3://`` raises ``tf.errors.UnimplementedError`` (tapegrad reads no remote storage).
Errors are TensorFlow's: ``NotFoundError`` for a missing file, ``AlreadyExistsError`` when
``overwrite=False`` would replace one.

>>> import os, tempfile, tapegrad as tf
>>> d = tempfile.mkdtemp()
>>> with tf.io.gfile.GFile(os.path.join(d, "a.txt"), "w") as f:
...     f.write("hello\\nworld\\n")
>>> tf.io.gfile.listdir(d), tf.io.gfile.exists(os.path.join(d, "a.txt"))
(['a.txt'], True)
>>> with tf.io.gfile.GFile(os.path.join(d, "a.txt")) as f:
...     [line for line in f]
['hello\\n', 'world\\n']
"""
from __future__ import annotations

import errno
import glob as _glob
import os
import re
import shutil
from typing import Any, Iterator

from ..errors import (AlreadyExistsError, FailedPreconditionError, InvalidArgumentError, NotFoundError,
                      PermissionDeniedError, UnimplementedError)

__all__ = ["GFile", "copy", "exists", "get_registered_schemes", "glob", "isdir", "join", "listdir", "makedirs",
           "mkdir", "remove", "rename", "rmtree", "stat", "walk"]

_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*)://")


def _path(path: Any) -> str:
    if hasattr(path, "numpy"):  # a string tensor
        path = path.numpy()
    p = os.fsdecode(os.fspath(path)) if not isinstance(path, str) else path
    m = _SCHEME.match(p)
    if m and m.group(1) != "file":
        raise UnimplementedError(f"File system scheme '{m.group(1)}' not implemented (file: {p!r}): tapegrad's "
                                 "tf.io reads and writes local files only. Copy the file to a local path first.")
    return p[len("file://"):] if m else p


def _os_error(e: OSError, path: str) -> Exception:
    """TensorFlow's error for an ``OSError`` (its messages are ``"<path>; <strerror>"``)."""
    cls = {errno.ENOENT: NotFoundError, errno.EEXIST: AlreadyExistsError, errno.EACCES: PermissionDeniedError,
           errno.EPERM: PermissionDeniedError, errno.ENOTDIR: FailedPreconditionError,
           errno.EISDIR: FailedPreconditionError, errno.ENOTEMPTY: FailedPreconditionError}.get(
        e.errno or 0, FailedPreconditionError)
    return cls(f"{path}; {e.strerror}")


class GFile:
    """A file, opened lazily: ``mode`` is ``"r"``/``"rb"`` (read), ``"w"``/``"wb"`` (write, truncating) or
    ``"a"``/``"ab"`` (append). Text modes read and write ``str`` (UTF-8), binary modes ``bytes``. The file is
    opened at the first read or write, so a missing file raises ``NotFoundError`` there, as in TensorFlow."""

    def __init__(self, name: Any, mode: str = "r") -> None:
        if mode not in ("r", "rb", "w", "wb", "a", "ab"):
            raise InvalidArgumentError(f"Invalid mode {mode!r} for GFile: use 'r', 'rb', 'w', 'wb', 'a' or 'ab'.")
        self.name = _path(name)
        self.mode = mode
        self._f: Any = None

    def _file(self) -> Any:
        if self._f is None:
            binary = "b" in self.mode
            try:
                self._f = open(self.name, self.mode if binary else self.mode + "b")  # noqa: SIM115
            except OSError as e:
                raise _os_error(e, self.name) from None
        return self._f

    def _out(self, data: bytes) -> Any:
        return data if "b" in self.mode else data.decode("utf-8")

    def _check(self, reading: bool) -> None:
        if reading != self.mode.startswith("r"):
            raise PermissionDeniedError(f"File isn't open for {'reading' if reading else 'writing'}: {self.name}")

    def read(self, n: int = -1) -> Any:
        """Up to ``n`` bytes (characters' bytes, in text mode), all that is left for ``n=-1``."""
        self._check(True)
        return self._out(self._file().read(-1 if n is None or n < 0 else n))

    def readline(self) -> Any:
        """The next line, with its ``\\n``; empty at the end of the file."""
        self._check(True)
        return self._out(self._file().readline())

    def readlines(self) -> list:
        """The remaining lines."""
        self._check(True)
        return [self._out(line) for line in self._file().readlines()]

    def __iter__(self) -> Iterator:
        return self

    def __next__(self) -> Any:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__

    def write(self, file_content: Any) -> None:
        """Write ``str`` (encoded as UTF-8) or ``bytes``."""
        self._check(False)
        if hasattr(file_content, "numpy"):
            file_content = file_content.numpy()
        self._file().write(file_content.encode("utf-8") if isinstance(file_content, str) else bytes(file_content))

    def seek(self, offset: int | None = None, whence: int = 0, position: int | None = None) -> None:
        """Move to ``offset`` (TF's older keyword ``position`` too) relative to ``whence`` (0, 1 or 2)."""
        self._file().seek(position if offset is None else offset, whence)

    def tell(self) -> int:
        """The current position, in bytes."""
        return self._file().tell()

    def size(self) -> int:
        """The file's size in bytes."""
        return stat(self.name).length

    def seekable(self) -> bool:
        return True

    def flush(self) -> None:
        if self._f is not None:
            self._f.flush()

    def close(self) -> None:
        if self._f is not None:
            self._f.close()
            self._f = None

    def __enter__(self) -> "GFile":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<tf.io.gfile.GFile name={self.name!r} mode={self.mode!r}>"


class FileStatistics:
    """What :func:`stat` returns: ``length`` (bytes), ``mtime_nsec`` and ``is_directory``."""

    def __init__(self, length: int, mtime_nsec: int, is_directory: bool) -> None:
        self.length, self.mtime_nsec, self.is_directory = length, mtime_nsec, is_directory

    def __repr__(self) -> str:
        return f"FileStatistics(length={self.length}, mtime_nsec={self.mtime_nsec}, is_directory={self.is_directory})"


def exists(path: Any) -> bool:
    """Whether ``path`` (a file or a folder) exists. A glob pattern is not expanded."""
    return os.path.exists(_path(path))


def isdir(path: Any) -> bool:
    """Whether ``path`` is a folder."""
    return os.path.isdir(_path(path))


def join(path: Any, *paths: Any) -> str:
    """``os.path.join`` of the parts."""
    return os.path.join(_path(path), *(_path(p) for p in paths))


def listdir(path: Any) -> list[str]:
    """The names in folder ``path`` (not ``.`` and ``..``), in no particular order."""
    p = _path(path)
    if not os.path.isdir(p):
        raise NotFoundError(f"Could not find directory {p}")
    return os.listdir(p)


def glob(pattern: Any) -> list[str]:
    """The paths matching ``pattern`` (``*``, ``?``, ``[...]``), or a list of patterns."""
    if isinstance(pattern, (list, tuple)):
        return [m for p in pattern for m in glob(p)]
    return _glob.glob(_path(pattern))


def makedirs(path: Any) -> None:
    """Make folder ``path`` and its missing parents; nothing if it exists."""
    p = _path(path)
    try:
        os.makedirs(p, exist_ok=True)
    except OSError as e:
        raise _os_error(e, p) from None


def mkdir(path: Any) -> None:
    """Make folder ``path`` (its parent must exist); nothing if it exists, as in TensorFlow."""
    p = _path(path)
    try:
        os.mkdir(p)
    except FileExistsError:
        if not os.path.isdir(p):
            raise AlreadyExistsError(f"{p}; File exists") from None
    except OSError as e:
        raise _os_error(e, p) from None


def remove(path: Any) -> None:
    """Delete file ``path``."""
    p = _path(path)
    try:
        os.remove(p)
    except OSError as e:
        raise _os_error(e, p) from None


def rmtree(path: Any) -> None:
    """Delete folder ``path`` and everything in it."""
    p = _path(path)
    if not os.path.exists(p):
        raise NotFoundError(f"{p}; No such file or directory")
    shutil.rmtree(p)


def rename(src: Any, dst: Any, overwrite: bool = False) -> None:
    """Rename ``src`` to ``dst``; ``AlreadyExistsError`` if ``dst`` exists and ``overwrite`` is False."""
    s, d = _path(src), _path(dst)
    if not overwrite and os.path.exists(d):
        raise AlreadyExistsError("file already exists")
    try:
        os.replace(s, d)
    except OSError as e:
        raise _os_error(e, s) from None


def copy(src: Any, dst: Any, overwrite: bool = False) -> None:
    """Copy file ``src`` to ``dst``; ``AlreadyExistsError`` if ``dst`` exists and ``overwrite`` is False."""
    s, d = _path(src), _path(dst)
    if not overwrite and os.path.exists(d):
        raise AlreadyExistsError("file already exists")
    try:
        shutil.copyfile(s, d)
    except OSError as e:
        raise _os_error(e, s) from None


def stat(path: Any) -> FileStatistics:
    """``FileStatistics`` of ``path``."""
    p = _path(path)
    try:
        st = os.stat(p)
    except OSError as e:
        raise _os_error(e, p) from None
    return FileStatistics(st.st_size, st.st_mtime_ns, os.path.isdir(p))


def walk(top: Any, topdown: bool = True, onerror: Any = None) -> Iterator[tuple[str, list, list]]:
    """``(folder, subfolders, files)`` for every folder under ``top``, as ``os.walk``."""
    yield from os.walk(_path(top), topdown=topdown, onerror=onerror)


def get_registered_schemes() -> list[str]:
    """The path schemes understood: ``['file']`` (local files only)."""
    return ["file"]
