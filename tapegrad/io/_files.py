"""``tf.io``'s file and byte ops: ``read_file``, ``write_file``, ``matching_files``, ``decode_raw``,
``decode_base64``/``encode_base64`` and ``serialize_tensor``/``parse_tensor`` (TensorFlow's
``TensorProto`` bytes, so files interchange with TensorFlow)."""
from __future__ import annotations

import base64
import binascii
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._convert import convert_to_tensor
from .._tensor import Tensor
from ..errors import InvalidArgumentError, NotFoundError
from . import gfile
from ._proto import _delimited, _fields, _varint

__all__ = ["decode_base64", "decode_raw", "encode_base64", "matching_files", "parse_tensor", "read_file",
           "serialize_tensor", "write_file"]


def _strings(x: Any) -> np.ndarray:
    t = convert_to_tensor(x)
    if t.dtype != _dt.string:
        raise TypeError(f"Expected a string tensor, got {t.dtype.name}.")
    return np.asarray(t.numpy(), dtype=object)


def _string_tensor(a: Any) -> Tensor:
    return convert_to_tensor(np.asarray(a, dtype=object) if np.ndim(a) else a, dtype=_dt.string)


def read_file(filename: Any, name: str | None = None) -> Tensor:
    """The whole contents of file ``filename`` as a scalar ``tf.string``."""
    path = gfile._path(filename)
    try:
        with open(path, "rb") as f:
            return _string_tensor(f.read())
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as e:
        raise NotFoundError(f"{path}; {e.strerror}") from None


def write_file(filename: Any, contents: Any, name: str | None = None) -> None:
    """Write ``contents`` (a scalar string) to file ``filename``, making its folder if needed."""
    path = gfile._path(filename)
    data = _strings(contents)
    if data.shape != ():
        raise InvalidArgumentError(f"contents must be scalar, got shape {list(data.shape)}")
    gfile.makedirs(gfile.os.path.dirname(path) or ".")
    with open(path, "wb") as f:
        f.write(data.item())


def matching_files(pattern: Any, name: str | None = None) -> Tensor:
    """The sorted file names matching ``pattern`` (a glob, or a vector of them)."""
    pats = [p.decode() if isinstance(p, bytes) else p for p in _strings(pattern).reshape(-1)]
    names = sorted(m.encode() for p in pats for m in gfile.glob(p))
    return _string_tensor(np.array(names, dtype=object).reshape(-1))


def decode_raw(input_bytes: Any, out_type: Any, little_endian: bool = True, fixed_length: Any = None,
               name: str | None = None) -> Tensor:
    """Reinterpret the bytes of each string as a vector of ``out_type``: shape ``input.shape + [n]``.
    All strings must have the same length, unless ``fixed_length`` pads (with zeros) or cuts them."""
    a = _strings(input_bytes)
    dt = _dt.as_dtype(out_type)
    if dt == _dt.string:
        raise TypeError(f"decode_raw cannot decode to {dt.name}.")
    np_dt = np.dtype(dt.as_numpy_dtype).newbyteorder("<" if little_endian else ">")
    flat = [bytes(s) for s in a.reshape(-1)]
    if fixed_length is not None:
        n = int(fixed_length)
        flat = [s[:n].ljust(n, b"\0") for s in flat]
    sizes = {len(s) for s in flat}
    if len(sizes) > 1:
        first = len(flat[0])
        bad = next(i for i, s in enumerate(flat) if len(s) != first)
        raise InvalidArgumentError(f"DecodeRaw requires input strings to all be the same size, but element {bad} "
                                   f"has size {len(flat[bad])} != {first}")
    size = sizes.pop() if sizes else 0
    if size % np_dt.itemsize:
        raise InvalidArgumentError(f"Input to DecodeRaw has length {size} that is not a multiple of "
                                   f"{np_dt.itemsize}, the size of {dt.name}")
    out = np.frombuffer(b"".join(flat), dtype=np_dt).astype(dt.as_numpy_dtype)
    return convert_to_tensor(out.reshape(a.shape + (size // np_dt.itemsize,)), dtype=dt)


def encode_base64(input: Any, pad: bool = False, name: str | None = None) -> Tensor:
    """Web-safe base64 (``-`` and ``_``) of each string; ``=`` padding only with ``pad=True``."""
    a = _strings(input)
    enc = np.vectorize(lambda s: base64.urlsafe_b64encode(bytes(s)) if pad else
                       base64.urlsafe_b64encode(bytes(s)).rstrip(b"="), otypes=[object])
    return _string_tensor(enc(a) if a.size else a)


def decode_base64(input: Any, name: str | None = None) -> Tensor:
    """The bytes of each web-safe base64 string (padding optional)."""
    a = _strings(input)

    def dec(s: bytes) -> bytes:
        s = bytes(s)
        try:
            return base64.urlsafe_b64decode(s + b"=" * (-len(s) % 4))
        except (binascii.Error, ValueError):
            raise InvalidArgumentError(f"Invalid character found in base64: {s[:40]!r}") from None
    return _string_tensor(np.vectorize(dec, otypes=[object])(a) if a.size else a)


# -- TensorProto: dtype = 1, tensor_shape = 2 (dim = 2 {size = 1}), tensor_content = 4, string_val = 8
def serialize_tensor(tensor: Any, name: str | None = None) -> Tensor:
    """A tensor as TensorFlow's ``TensorProto`` bytes (a scalar string), which ``parse_tensor`` and
    TensorFlow's ``tf.io.parse_tensor`` read back."""
    t = convert_to_tensor(tensor)
    a = np.asarray(t.numpy())
    shape = b"".join(_delimited(2, (_varint(1 << 3) + _varint(d)) if d else b"") for d in a.shape)
    out = _varint(1 << 3) + _varint(t.dtype.as_datatype_enum) + _delimited(2, shape)
    if t.dtype == _dt.string:
        out += b"".join(_delimited(8, bytes(s)) for s in a.reshape(-1))
    elif a.size:
        out += _delimited(4, np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes())
    return _string_tensor(out)


def parse_tensor(serialized: Any, out_type: Any, name: str | None = None) -> Tensor:
    """The tensor held by ``TensorProto`` bytes; ``out_type`` must be its dtype."""
    a = _strings(serialized)
    if a.shape != ():
        raise InvalidArgumentError(f"Expected `serialized` to be a scalar, got shape: {list(a.shape)}")
    want = _dt.as_dtype(out_type)
    enum, dims, content, strings = 0, [], b"", []
    try:
        for number, wire, v in _fields(bytes(a.item())):
            if number == 1 and wire == 0:
                enum = v
            elif number == 2 and wire == 2:
                for n2, w2, v2 in _fields(v):
                    if n2 == 2 and w2 == 2:
                        size = next((v3 for n3, w3, v3 in _fields(v2) if n3 == 1 and w3 == 0), 0)
                        dims.append(size)
            elif number == 4 and wire == 2:
                content = bytes(v)
            elif number == 8 and wire == 2:
                strings.append(bytes(v))
    except Exception:
        raise InvalidArgumentError("Could not parse `serialized` as TensorProto: "
                                   f"{bytes(a.item())[:40]!r}") from None
    try:
        have = _dt.as_dtype(enum)
    except TypeError:
        raise InvalidArgumentError(f"Could not parse `serialized` as TensorProto: dtype {enum}") from None
    if have != want:
        raise InvalidArgumentError(f"Type mismatch between parsed tensor ({_name(have)}) and dtype ({want.name})")
    n = int(np.prod(dims, dtype=np.int64))
    if want == _dt.string:
        value = np.empty(n, dtype=object)
        value[:] = strings if strings else [b""] * n
    elif content or n == 0:
        value = np.frombuffer(content, dtype=np.dtype(want.as_numpy_dtype).newbyteorder("<"), count=n)
    else:
        raise InvalidArgumentError("Could not parse `serialized` as TensorProto: the values are not in "
                                   "tensor_content (a TensorProto written with typed value fields is not covered)")
    return convert_to_tensor(np.asarray(value, dtype=object if want == _dt.string else want.as_numpy_dtype)
                             .reshape(dims), dtype=want)


def _name(d: _dt.DType) -> str:
    return {"float32": "float", "float64": "double"}.get(d.name, d.name)
