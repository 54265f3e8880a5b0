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
from ._proto import _delimited, _fields, _read_varint, _varint

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
    return _string_tensor(_proto(convert_to_tensor(tensor), False))


def _proto(t: Tensor, compact: bool) -> bytes:
    """``TensorProto`` bytes; ``compact``: strings in ``tensor_content`` too (their lengths as
    varints, then their bytes: TensorFlow's AsProtoTensorContent, which its sparse serialization
    writes), else each in a ``string_val`` (AsProtoField, serialize_tensor's)."""
    a = np.asarray(t.numpy())
    shape = b"".join(_delimited(2, (_varint(1 << 3) + _varint(d)) if d else b"") for d in a.shape)
    out = _varint(1 << 3) + _varint(t.dtype.as_datatype_enum) + _delimited(2, shape)
    if t.dtype == _dt.string:
        vals = [bytes(s) for s in a.reshape(-1)]
        if compact:
            out += _delimited(4, b"".join(_varint(len(v)) for v in vals) + b"".join(vals)) if vals else b""
        else:
            out += b"".join(_delimited(8, v) for v in vals)
    elif a.size:
        out += _delimited(4, np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes())
    return out


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
        if content and not strings:   # (tensor_content: n varint lengths, then the bytes)
            lengths, i = [], 0
            for _ in range(n):
                k, i = _read_varint(content, i)
                lengths.append(k)
            for j, k in enumerate(lengths):
                value[j], i = content[i:i + k], i + k
        else:
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


def _sparse_class() -> Any:
    import importlib   # (tf.sparse sits beside tf.io: looked up at the call, as _parse does)
    return importlib.import_module("tapegrad.sparse").SparseTensor


def _check_string_out(out_type: Any, what: str) -> None:
    if _dt.as_dtype(out_type) != _dt.string:
        raise NotImplementedError(f"tf.io.{what}: tapegrad serializes to strings (out_type=tf.string); "
                                  "TensorFlow's variant encoding has no NumPy form.")


def serialize_sparse(sp_input: Any, out_type: Any = _dt.string, name: str | None = None) -> Tensor:
    """A ``tf.SparseTensor`` as a string vector of 3 ``TensorProto`` bytes (its indices, values and
    dense shape, each as :func:`serialize_tensor` gives it), as TensorFlow's.

    >>> import tapegrad as tf
    >>> s = tf.io.serialize_sparse(tf.SparseTensor([[0, 1]], [2.5], [2, 3]))
    >>> s.shape, tf.io.parse_tensor(s[1], tf.float32).numpy()
    (TensorShape([3]), array([2.5], dtype=float32))
    """
    _check_string_out(out_type, "serialize_sparse")
    sp = sp_input
    if not isinstance(sp, _sparse_class()):
        raise TypeError(f"tf.io.serialize_sparse takes a tf.SparseTensor, got {type(sp).__name__}.")
    parts = [_proto(t, True) for t in (sp.indices, sp.values, sp.dense_shape)]
    return convert_to_tensor(np.array(parts, dtype=object), dtype=_dt.string)


def serialize_many_sparse(sp_input: Any, out_type: Any = _dt.string, name: str | None = None) -> Tensor:
    """A ``tf.SparseTensor`` of rank ``R > 1`` as an ``[N, 3]`` string tensor: row ``i`` is
    :func:`serialize_sparse` of minibatch entry ``i`` (rank ``R - 1``), as TensorFlow's."""
    _check_string_out(out_type, "serialize_many_sparse")
    sp = sp_input
    if not isinstance(sp, _sparse_class()):
        raise TypeError(f"tf.io.serialize_many_sparse takes a tf.SparseTensor, got {type(sp).__name__}.")
    idx, vals = np.asarray(sp.indices.numpy()), sp.values.numpy()
    shape = np.asarray(sp.dense_shape.numpy())
    if shape.size < 2:
        raise InvalidArgumentError(f"SparseTensor must be of rank >= 2, got rank {shape.size}.")
    if idx.shape[0] > 1 and np.any(np.diff(idx[:, 0]) < 0):
        raise InvalidArgumentError("serialize_many_sparse: the SparseTensor's entries must be sorted by "
                                   "their first (minibatch) index; tf.sparse.reorder sorts them.")
    rows = []
    for i in range(int(shape[0])):
        sel = idx[:, 0] == i
        rows.append([_proto(convert_to_tensor(a, dtype=d), True) for a, d in
                     ((idx[sel, 1:].astype(np.int64), _dt.int64), (vals[sel], sp.values.dtype),
                      (shape[1:].astype(np.int64), _dt.int64))])
    return convert_to_tensor(np.array(rows, dtype=object).reshape(-1, 3), dtype=_dt.string)


def deserialize_many_sparse(serialized_sparse: Any, dtype: Any, rank: Any = None,
                            name: str | None = None) -> Any:
    """The ``tf.SparseTensor`` that :func:`serialize_many_sparse` serialized (``[N, 3]`` strings):
    minibatch entries stacked, the dense shape ``[N]`` then each axis's largest, as TensorFlow's."""
    a = np.asarray(convert_to_tensor(serialized_sparse, dtype=_dt.string).numpy(), dtype=object)
    if a.ndim != 2 or a.shape[1] != 3:
        raise InvalidArgumentError(f"Serialized sparse should be [N, 3], got shape {list(a.shape)}.")
    idx, vals, shapes = [], [], []
    for i, (si, sv, ss) in enumerate(a):
        ix = parse_tensor(si, _dt.int64).numpy()
        idx.append(np.concatenate([np.full((ix.shape[0], 1), i, np.int64), ix], 1))
        vals.append(parse_tensor(sv, dtype).numpy())
        shapes.append(parse_tensor(ss, _dt.int64).numpy())
    r = shapes[0].size if shapes else (int(rank) - 1 if rank is not None else 0)
    if any(s.size != r for s in shapes):
        raise InvalidArgumentError("deserialize_many_sparse: the serialized entries have different ranks.")
    dense = [len(a)] + [int(max(s[k] for s in shapes)) if shapes else 0 for k in range(r)]
    np_dtype = _dt.as_dtype(dtype).as_numpy_dtype
    return _sparse_class()(np.concatenate(idx) if idx else np.zeros((0, r + 1), np.int64),
                           np.concatenate(vals) if vals else np.zeros(0, np_dtype), dense)
