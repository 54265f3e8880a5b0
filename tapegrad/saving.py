"""Save Variables to a NumPy ``.npz`` file and restore them, without pickle.

What can be saved: a :class:`~tapegrad.Module` (its variables are keyed by attribute path,
``"layers/0/w"``), a dict of Variables (keyed by the dict's keys), or a list or tuple of
Variables (keyed by their names without the ``":0"`` suffix, which must then be unique). An
optimizer's state can be saved the same way: ``save_variables(path, opt.variables)``.

Saving to a path is atomic: the file is written beside the target under a temporary name,
flushed to disk and renamed over it, so a failed save (a full disk, an interrupt) leaves the
previous checkpoint as it was.

Every key is kept exactly. The file is a zip of ``.npy`` arrays named ``<key>.npy``, which
``np.load`` reads; ``%``, ``\\``, control characters and unpaired surrogates in a key are
written as ``%XX`` (``%uXXXX`` for a surrogate), so ``np.load`` shows such keys escaped.

Loading reads the zip directory and each entry's ``.npy`` header first and checks every name,
shape, dtype and declared size before it reads any data, so a damaged, crafted or mismatched
file costs little and a failed load leaves the variables as they were. Files written by
``np.savez`` load too, as do big-endian arrays (converted to native byte order).

>>> import io, tapegrad as tf
>>> w, b = tf.Variable([[1.0, 2.0]], name="w"), tf.Variable([0.5], name="b")
>>> buf = io.BytesIO()
>>> tf.saving.save_variables(buf, [w, b])
>>> _ = w.assign([[0.0, 0.0]])
>>> _ = buf.seek(0)
>>> tf.saving.load_variables(buf, [w, b])
>>> w.numpy()
array([[1., 2.]], dtype=float32)

Any string is a key; ``np.load`` shows the escaped ones escaped:

>>> import numpy as np
>>> buf = io.BytesIO()
>>> tf.saving.save_variables(buf, {"allow_pickle": w, "50%": b})
>>> _ = buf.seek(0)
>>> np.load(buf, allow_pickle=False).files
['allow_pickle', '50%25']
"""
from __future__ import annotations

import io
import math
import os
import re
import secrets
import stat
import struct
import zipfile
import zlib
from typing import Any, BinaryIO, Callable, Union

import numpy as np

from ._variable import Variable
from .module import Module, _is_variable

__all__ = ["save_variables", "load_variables", "variables_by_name"]

PathLike = Union[str, "os.PathLike[str]", BinaryIO]

# Format 1: np.savez, member "<key>.npy" with the key verbatim, no comment.
# Format 2: members "<escaped key>.npy", and the zip comment below names the format.
_FORMAT = 2
_COMMENT = b"tapegrad saved variables; format %d"
_COMMENT_RE = re.compile(rb"tapegrad saved variables; format (\d+)")
_UNSAFE = re.compile("[%\\\\\x00-\x1f\x7f\ud800-\udfff]")
_ESCAPE = re.compile("%(?:u([0-9A-F]{4})|([0-9A-F]{2}))")
_MAX_HEADER = 10000      # NumPy's own limit on an .npy header it will parse
_CORRUPT = (OSError, EOFError, ValueError, struct.error, zipfile.BadZipFile, zlib.error)


def _key(path: tuple) -> str:
    return "/".join(str(p) for p in path)


def _escape(key: str) -> str:
    return _UNSAFE.sub(lambda m: "%{:02X}".format(ord(m[0])) if ord(m[0]) < 0x100
                       else "%u{:04X}".format(ord(m[0])), key)


def _unescape(name: str) -> str | None:
    """The key escaped as ``name``, or None if ``_escape`` does not write ``name``."""
    key = _ESCAPE.sub(lambda m: chr(int(m[1] or m[2], 16)), name)
    return key if _escape(key) == name else None


def variables_by_name(variables: Any) -> dict[str, Variable]:
    """The ``{key: Variable}`` mapping that :func:`save_variables` writes for ``variables``.

    Raises ``ValueError`` if two different variables of a Module would get the same key
    (``{"a/b": v1, "a": {"b": v2}}`` both give ``"a/b"``).

    >>> import tapegrad as tf
    >>> m = tf.Module()
    >>> m.layers = [tf.Variable(1.0), tf.Variable(2.0)]
    >>> list(tf.saving.variables_by_name(m))
    ['layers/0', 'layers/1']
    """
    if isinstance(variables, Variable):
        variables = [variables]
    out: dict[str, Variable] = {}
    if isinstance(variables, Module):
        seen: set = set()
        where: dict[str, tuple] = {}
        for path, v in variables._flatten(predicate=_is_variable, with_path=True):
            if id(v) in seen:  # a variable reachable by several paths keeps its first
                continue
            seen.add(id(v))
            k = _key(path)
            if k in out:
                raise ValueError(f"Two different variables would be saved under the key {k!r}: "
                                 f"the one at {where[k]} and the one at {path} (a key joins the "
                                 "attribute names, list indices and dict keys on the way with "
                                 "'/'). Rename one of them, or save a dict {key: variable} "
                                 "with keys of your choosing.")
            out[k], where[k] = v, path
        return out
    if isinstance(variables, dict):
        items = list(variables.items())
        for k, _ in items:
            if not isinstance(k, str):
                raise TypeError(f"Variable dict keys must be strings; got {k!r}.")
    elif isinstance(variables, (list, tuple)):
        items = []
        for v in variables:
            name = getattr(v, "name", "")
            items.append((name[:-2] if name.endswith(":0") else name, v))
        names = [k for k, _ in items]
        dups = sorted({n for n in names if names.count(n) > 1})
        if dups:
            raise ValueError(f"Several variables are named {dups}; names must be unique to save "
                             "a list. Give the variables distinct names (tf.Variable(..., "
                             "name='w1')), or pass a dict {name: variable} or a Module.")
    else:
        raise TypeError("Expected a Module, a dict of Variables or a list of Variables; got "
                        f"{type(variables).__name__}.")
    for k, v in items:
        if not isinstance(v, Variable):
            raise TypeError(f"Entry {k!r} is a {type(v).__name__}, not a tf.Variable; only "
                            "Variables can be saved and restored.")
        out[k] = v
    return out


def encode_strings(a: np.ndarray) -> np.ndarray:
    """A string array (NumPy objects: ``bytes``) as an array ``.npy`` stores without pickle: each
    element a record of its length and its bytes (padded); other arrays as they are."""
    if a.dtype != object:
        return a
    flat = [bytes(x) for x in a.reshape(-1).tolist()]
    out = np.zeros(len(flat), dtype=[("length", "<i8"), ("bytes", f"V{max([1, *map(len, flat)])}")])
    out["length"] = [len(x) for x in flat]
    out["bytes"] = [x.ljust(out.dtype["bytes"].itemsize, b"\0") for x in flat]
    return out.reshape(a.shape)


def decode_strings(a: np.ndarray) -> np.ndarray:
    """The string array that :func:`encode_strings` encoded in ``a`` (other arrays as they are)."""
    if a.dtype.names != ("length", "bytes"):
        return a
    out = np.empty(a.shape, dtype=object)
    out.reshape(-1)[:] = [bytes(b)[:n] for n, b in zip(a["length"].reshape(-1).tolist(), a["bytes"].reshape(-1))]
    return out


def _write_npz(f: BinaryIO, arrays: dict[str, np.ndarray]) -> None:
    with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED, allowZip64=True) as z:
        for key, a in arrays.items():
            with z.open(_escape(key) + ".npy", "w", force_zip64=True) as m:
                np.lib.format.write_array(m, a, allow_pickle=False)
        z.comment = _COMMENT % _FORMAT


def _fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:      # Windows cannot open a folder; the rename is durable there already
        return
    try:
        os.fsync(fd)
    except OSError:      # some file systems refuse to sync a folder
        pass
    finally:
        os.close(fd)


def save_variables(file: PathLike, variables: Any) -> None:
    """Write the values of ``variables`` to ``file`` in NumPy's ``.npz`` format (no pickle).

    ``variables``: a Module, a dict ``{name: Variable}``, or a list of uniquely named Variables.
    ``file``: a path (``.npz`` is added when the name has no such suffix) or a binary file
    object. A path is written atomically: to a temporary file in the same folder, flushed to
    disk, then renamed over ``file``; if anything fails, the temporary file is removed and an
    existing ``file`` is left untouched. A file object cannot be written atomically: a failure
    leaves it holding part of a checkpoint.
    Read the file back with :func:`load_variables`, or with ``np.load`` in any program.
    """
    named = variables_by_name(variables)
    arrays = {k: np.asarray(v.numpy()) for k, v in named.items()}
    if not isinstance(file, (str, os.PathLike)):
        _write_npz(file, arrays)
        return
    path = os.fspath(file)
    _write_atomically(path if path.endswith(".npz") else path + ".npz", lambda f: _write_npz(f, arrays))


def _write_atomically(path: str, write: Callable[[BinaryIO], Any]) -> None:
    """Call ``write`` with a binary file that becomes ``path`` only once ``write`` returned and
    the file is on disk: a temporary file of a unique name in the same folder, flushed, synced,
    given the old file's mode, then renamed over ``path`` (and the folder synced). If anything
    fails (a full disk, an exception, a kill), ``path`` keeps its previous content and the
    temporary file is removed; when two threads or processes write the same path at once, the
    file is one of theirs, whole. ``save_variables``, ``model.save`` and the Keras callbacks
    write so."""
    path = os.path.realpath(path)            # through a symlink, as a plain write would go
    folder, name = os.path.split(path)
    tmp = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    except FileNotFoundError:
        raise FileNotFoundError(f"Cannot save to {path!r}: the folder {folder!r} does not exist; "
                                "create it first (os.makedirs).") from None
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))   # keep the old file's mode
        except FileNotFoundError:
            pass
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(folder)


def _unreadable(what: str, detail: str) -> ValueError:
    return ValueError(f"{what} is not a readable .npz file of saved variables: {detail}")


def _open_zip(f: BinaryIO, what: str) -> zipfile.ZipFile:
    """The zip archive that starts at ``f``'s current position and runs to the end of ``f``."""
    try:
        start = f.tell()
        magic = f.read(6)
        f.seek(start)
    except (OSError, ValueError, AttributeError) as e:
        raise ValueError(f"Cannot read {what}: load_variables needs a readable, seekable binary "
                         f"file or a path ({type(e).__name__}: {e}).") from None
    if not isinstance(magic, bytes):
        raise ValueError(f"Cannot read {what}: it is open in text mode; open it with 'rb'.")
    if not magic:
        raise _unreadable(what, f"the file object is at its end (position {start}), so there is "
                          "nothing to read; call file.seek(0) first (save_variables leaves the "
                          "position after what it wrote)" if start else "it is empty")
    if magic.startswith(b"\x93NUMPY"):
        raise _unreadable(what, "it holds a single array, not named arrays")
    if not magic.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        hint = " (it looks like a pickle, which tapegrad never loads)" if magic[0] == 0x80 else ""
        raise _unreadable(what, f"it has no zip signature at position {start}{hint}; an .npz "
                          "file is a zip archive of .npy arrays")
    try:
        z = zipfile.ZipFile(f)
    except _CORRUPT as e:
        raise _unreadable(what, f"{type(e).__name__}: {e}") from None
    first = min((i.header_offset for i in z.infolist()), default=start)
    if first != start:
        z.close()
        raise _unreadable(what, f"the zip archive that ends the file starts at byte {first}, not "
                          f"at the file object's position {start}; seek to where the saved "
                          "variables start")
    return z


def _entries(z: zipfile.ZipFile, what: str) -> dict[str, zipfile.ZipInfo]:
    """``{key: entry}`` from the zip directory alone (no data is read)."""
    found = _COMMENT_RE.fullmatch(z.comment)
    version = int(found[1]) if found else 1
    if version > _FORMAT:
        raise ValueError(f"{what} was written by a newer tapegrad (file format {version}; this "
                         f"version reads formats 1 to {_FORMAT}): upgrade tapegrad to load it.")
    out: dict[str, zipfile.ZipInfo] = {}
    for info in z.infolist():
        name = info.filename
        key = None if not name.endswith(".npy") else name[:-4] if version == 1 else _unescape(name[:-4])
        if key is None:
            raise _unreadable(what, f"the entry {name!r} is not an array saved by save_variables "
                              "or np.savez (expected '<key>.npy'" + (", with the key escaped)"
                                                                     if version > 1 else ")"))
        if key in out:
            raise _unreadable(what, f"the key {key!r} has two entries")
        problem = _member_problem(info, sized=True)
        if problem:
            raise _unreadable(what, f"the entry {key!r} {problem}")
        out[key] = info
    return out


_MAX_EXPANSION = 100   # deflate reaches ~1000:1 only on long runs of one byte; what tapegrad
_EXPANSION_FLOOR = 1 << 20  # writes is stored uncompressed


def _member_problem(info: zipfile.ZipInfo, sized: bool = False) -> str | None:
    """What makes a zip member unsafe to read, judged from the zip directory before a byte of
    it is inflated (None when it may be read: it then inflates to at most its declared size):
    encrypted, compressed by a method other than stored or deflated, or stored with a size
    other than it declares. Unless ``sized`` (the reader checks the declared size against what
    it expects, as :func:`load_variables` checks each entry's against its .npy header and its
    variable), also one that declares more than 1 MiB and 100 times the bytes it takes in the
    file: a decompression bomb. ``.keras`` files are checked so."""
    if info.flag_bits & 0x1:
        return "is encrypted"
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        return (f"uses zip compression method {info.compress_type}; only stored and deflated "
                "entries (as np.savez, np.savez_compressed and model.save write) are read")
    if info.compress_type == zipfile.ZIP_STORED and info.compress_size != info.file_size:
        return (f"declares {info.file_size} bytes, but stores {info.compress_size} bytes "
                "uncompressed; the file is damaged or crafted")
    if sized:
        return None
    if info.file_size > max(_EXPANSION_FLOOR, _MAX_EXPANSION * info.compress_size):
        return (f"declares {info.file_size} bytes but takes only {info.compress_size} bytes in the "
                f"file (more than {_MAX_EXPANSION}:1); refusing to inflate a potential "
                "decompression bomb")
    return None


def _header(z: zipfile.ZipFile, info: zipfile.ZipInfo, key: str, what: str) -> tuple:
    """``(shape, fortran_order, dtype, data_offset)`` of an entry, from its .npy header alone."""
    declared = info.file_size
    if declared < 10:
        raise _unreadable(what, f"the entry {key!r} declares {declared} bytes, too few for an .npy "
                          "array")
    try:
        with z.open(info) as m:
            raw = m.read(10)
            n = 10 if raw[6:7] == b"\x01" else 12
            raw += m.read(n - 10)
            size = int.from_bytes(raw[8:n], "little")
            if size <= _MAX_HEADER:
                raw += m.read(n + size - len(raw))
    except _CORRUPT as e:
        raise _unreadable(what, f"the entry {key!r}: {type(e).__name__}: {e}") from None
    if len(raw) < n or raw[:6] != b"\x93NUMPY" or raw[6] not in (1, 2) or raw[7]:
        raise _unreadable(what, f"the entry {key!r} is not a version 1 or 2 .npy array")
    if size > _MAX_HEADER:
        raise _unreadable(what, f"the entry {key!r} has a {size}-byte .npy header; an array's "
                          f"header is under {_MAX_HEADER} bytes")
    if len(raw) < n + size:
        raise _unreadable(what, f"the entry {key!r} ends inside its .npy header")
    hdr = io.BytesIO(raw)
    try:
        read = (np.lib.format.read_array_header_1_0 if np.lib.format.read_magic(hdr) == (1, 0)
                else np.lib.format.read_array_header_2_0)
        shape, fortran, dtype = read(hdr)
    except ValueError as e:
        raise _unreadable(what, f"the entry {key!r} has a bad .npy header: {e}") from None
    if dtype.hasobject:
        raise _unreadable(what, f"the entry {key!r} holds Python objects (dtype {dtype}), which "
                          "only pickle could restore, and tapegrad never unpickles")
    if any(d < 0 for d in shape):
        raise _unreadable(what, f"the entry {key!r} has a negative dimension in its shape {shape}")
    need = n + size + math.prod(shape) * dtype.itemsize
    if declared != need:
        raise _unreadable(what, f"the entry {key!r} declares {declared} bytes, but its .npy "
                          f"header (shape {list(shape)}, dtype {dtype}) makes it {need} bytes; the "
                          "file is damaged or crafted, and none of its data was read")
    return shape, fortran, dtype, n + size


def _data(z: zipfile.ZipFile, info: zipfile.ZipInfo, key: str, what: str, shape: tuple,
          fortran: bool, dtype: np.dtype, offset: int) -> np.ndarray:
    try:
        with z.open(info) as m:
            m.read(offset)
            data = m.read(info.file_size - offset)   # reading to the declared end checks the CRC
            if len(data) < info.file_size - offset:
                raise EOFError(f"its data is {len(data)} bytes, expected {info.file_size - offset}")
    except _CORRUPT as e:
        raise _unreadable(what, f"the entry {key!r}: {type(e).__name__}: {e}") from None
    a = np.frombuffer(data, dtype).reshape(shape, order="F" if fortran else "C")
    return a if dtype.isnative else a.astype(dtype.newbyteorder("="))


def _read(f: BinaryIO, what: str, named: dict[str, Variable], strict: bool) -> dict[str, np.ndarray]:
    with _open_zip(f, what) as z:
        entries = _entries(z, what)
        problems = []
        missing = [k for k in named if k not in entries]
        if missing:
            problems.append(f"missing from the file: {missing}")
        extra = [k for k in entries if k not in named]
        if extra and strict:
            problems.append(f"in the file but not among the variables: {extra} (pass "
                            "strict=False to ignore them)")
        headers = {}
        for k, v in named.items():
            if k not in entries:
                continue
            shape, fortran, dtype, offset = headers[k] = _header(z, entries[k], k, what)
            if not v.shape.is_compatible_with(shape):  # (a Variable's shape may be partial)
                problems.append(f"{k!r}: the file has shape {list(shape)}, the variable has shape "
                                f"{v.shape.as_list() if v.shape.rank is not None else 'unknown'}")
            elif dtype.newbyteorder("=") != v.dtype.as_numpy_dtype:
                problems.append(f"{k!r}: the file has dtype {dtype}, the variable has dtype "
                                f"{v.dtype.name}")
        if problems:
            raise ValueError(f"Cannot restore the variables from {what}; nothing was assigned:\n  "
                             + "\n  ".join(problems))
        return {k: _data(z, entries[k], k, what, *headers[k]) for k in named}


def write_arrays(f: BinaryIO, arrays: dict[str, np.ndarray]) -> None:
    """Write named arrays to ``f`` in the format of :func:`save_variables` (``tf.saved_model``'s files)."""
    _write_npz(f, arrays)


def read_arrays(f: BinaryIO, what: str) -> dict[str, np.ndarray]:
    """Every array of the file ``f`` written by :func:`write_arrays`, checked as
    :func:`load_variables` checks them (names, headers and sizes before any data)."""
    with _open_zip(f, what) as z:
        entries = _entries(z, what)
        headers = {k: _header(z, info, k, what) for k, info in entries.items()}
        return {k: _data(z, entries[k], k, what, *headers[k]) for k in entries}


def load_variables(file: PathLike, variables: Any, strict: bool = True) -> None:
    """Assign the values saved in ``file`` to ``variables`` (as in :func:`save_variables`).

    ``file``: a path (``.npz`` is added if the name does not exist without it) or a seekable
    binary file object; a file object is read from its current position, like ``np.load``.
    Every variable must have an entry of the same shape and dtype; with ``strict`` (the
    default), every entry in the file must belong to a variable too. Names, shapes, dtypes and
    sizes are checked from the zip directory and the ``.npy`` headers before any data is read,
    and nothing is assigned unless all checks pass. Raises ``ValueError`` naming the file and
    the missing, unexpected, mismatched or damaged entries.
    """
    named = variables_by_name(variables)
    if not isinstance(file, (str, os.PathLike)):
        arrays = _read(file, f"the {type(file).__name__} object", named, strict)
    else:
        path = os.fspath(file)
        if not os.path.exists(path) and os.path.exists(path + ".npz"):
            path += ".npz"
        try:
            f = open(path, "rb")
        except OSError as e:
            raise _unreadable(repr(path), f"{type(e).__name__}: {e.strerror}") from None
        with f:
            arrays = _read(f, repr(path), named, strict)
    for k, v in named.items():
        v.assign(arrays[k])
