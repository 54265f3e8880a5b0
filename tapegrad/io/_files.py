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


# -- tf.make_tensor_proto / tf.make_ndarray: a TensorProto as an object
_CONTENT_TYPES = ("float16", "float32", "float64", "int32", "uint8", "int16", "int8", "int64", "uint16",
                  "uint32", "uint64")
# typed value fields: dtype -> (field number, name)
_VAL_FIELDS = {"float32": (5, "float_val"), "float64": (6, "double_val"), "int32": (7, "int_val"),
               "int16": (7, "int_val"), "int8": (7, "int_val"), "uint8": (7, "int_val"), "uint16": (7, "int_val"),
               "string": (8, "string_val"), "complex64": (9, "scomplex_val"), "int64": (10, "int64_val"),
               "bool": (11, "bool_val"), "complex128": (12, "dcomplex_val"), "float16": (13, "half_val"),
               "uint32": (16, "uint32_val"), "uint64": (17, "uint64_val")}
_VAL_NAMES = sorted({n for _, n in _VAL_FIELDS.values()})


class _Dim:
    __slots__ = ("size", "name")

    def __init__(self, size: int = 0, name: str = "") -> None:
        self.size, self.name = int(size), name


class _ShapeProto:
    __slots__ = ("dim", "unknown_rank")

    def __init__(self, dims: Any = ()) -> None:
        self.dim, self.unknown_rank = [_Dim(d) for d in dims], False


class TensorProto:
    """TensorFlow's ``TensorProto`` as :func:`make_tensor_proto` makes it: ``dtype`` (the
    ``DataType`` number), ``tensor_shape.dim[i].size``, ``tensor_content`` (the values' bytes, for
    more than one number) or a typed value list (``float_val``, ``int_val``, ``string_val``, ...),
    and ``SerializeToString()`` (bytes ``tf.io.parse_tensor`` reads when ``tensor_content`` holds
    the values)."""

    def __init__(self, dtype: int, dims: Any) -> None:
        self.dtype, self.tensor_shape, self.version_number, self.tensor_content = dtype, _ShapeProto(dims), 0, b""
        for n in _VAL_NAMES:
            setattr(self, n, [])

    def SerializeToString(self) -> bytes:  # noqa: N802  (protobuf's name)
        shape = b"".join(_delimited(2, (_varint(1 << 3) + _varint(d.size)) if d.size else b"")
                         for d in self.tensor_shape.dim)
        out = _varint(1 << 3) + _varint(self.dtype) + _delimited(2, shape)
        if self.tensor_content:
            out += _delimited(4, self.tensor_content)
        dt = _dt.as_dtype(self.dtype).name
        number, name = _VAL_FIELDS.get(dt, (0, ""))
        vals = getattr(self, name, []) if name else []
        if vals and dt == "string":
            out += b"".join(_delimited(8, bytes(v)) for v in vals)
        elif vals:
            a = np.asarray(vals)
            if dt in ("float32", "complex64"):
                body = a.astype("<f4").tobytes()
            elif dt in ("float64", "complex128"):
                body = a.astype("<f8").tobytes()
            else:
                body = b"".join(_varint(int(v) & ((1 << 64) - 1)) for v in a.reshape(-1))
            out += _delimited(number, body)
        return out

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, TensorProto) and self.SerializeToString() == other.SerializeToString()

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        lines = [f"dtype: DT_{_dt.as_dtype(self.dtype).name.upper().replace('FLOAT32', 'FLOAT').replace('FLOAT64', 'DOUBLE')}",
                 "tensor_shape {"]
        for d in self.tensor_shape.dim:
            lines += ["  dim {", f"    size: {d.size}", "  }"]
        lines.append("}")
        if self.tensor_content:
            lines.append(f"tensor_content: {self.tensor_content!r}")
        for n in _VAL_NAMES:
            lines += [f"{n}: {v!r}" for v in getattr(self, n)]
        return "\n".join(lines) + "\n"

    __repr__ = __str__


def make_tensor_proto(values: Any, dtype: Any = None, shape: Any = None, verify_shape: bool = False,
                      allow_broadcast: bool = False) -> TensorProto:
    """``values`` as a :class:`TensorProto`, with TensorFlow's rules: ``dtype`` (inferred as
    ``tf.constant`` does), ``shape`` (a single value fills it; else the values must have as many
    entries; ``verify_shape``: exactly that shape), the numbers in ``tensor_content`` when there are
    several of a dtype that has it, else in the dtype's typed list.

    >>> import tapegrad as tf
    >>> p = tf.make_tensor_proto([[1.5, 2.0]])
    >>> [d.size for d in p.tensor_shape.dim], tf.make_ndarray(p).tolist()
    ([1, 2], [[1.5, 2.0]])
    """
    t = convert_to_tensor(values, dtype=dtype) if dtype is not None else convert_to_tensor(values)
    a = np.asarray(t.numpy())
    dims = list(a.shape) if shape is None else [int(d) for d in shape]
    size = int(np.prod(dims, dtype=np.int64))
    if shape is not None:
        if verify_shape and list(a.shape) != dims:
            raise TypeError(f"Expected Tensor's shape: {tuple(dims)}, but got {a.shape}.")
        if a.size != size and not (a.size == 1 or (allow_broadcast and a.ndim == 0)):
            raise ValueError(f"Too many elements provided. Takes at most {size:d}, but got {a.size:d}."
                             if a.size > size else f"Expected {size} elements to fill shape {dims}, got {a.size}.")
    proto = TensorProto(t.dtype.as_datatype_enum, dims)
    name = t.dtype.name
    if a.size == size and name in _CONTENT_TYPES and size > 1:
        proto.tensor_content = np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes()
        return proto
    flat = a.reshape(-1)
    field = _VAL_FIELDS.get(name, (0, ""))[1]
    if not field:
        raise TypeError(f"make_tensor_proto: dtype {name} is not covered.")
    if name == "string":
        vals = [bytes(v) for v in flat]
    elif name in ("complex64", "complex128"):
        vals = [p for v in flat for p in (float(v.real), float(v.imag))]
    elif name == "float16":
        vals = [int(v) for v in flat.view(np.uint16)]
    elif name == "bool":
        vals = [bool(v) for v in flat]
    elif a.dtype.kind == "f":
        vals = [float(v) for v in flat]
    else:
        vals = [int(v) for v in flat]
    getattr(proto, field).extend(vals)
    return proto


def make_ndarray(tensor: Any) -> np.ndarray:
    """The NumPy array a ``TensorProto`` holds (:func:`make_tensor_proto`'s, or TensorFlow's
    protobuf message, read by its fields): ``tensor_content``, or a typed value list, whose last
    value fills the shape.

    >>> import tapegrad as tf
    >>> tf.make_ndarray(tf.make_tensor_proto(7, shape=[3])).tolist()
    [7, 7, 7]
    """
    dt = _dt.as_dtype(int(tensor.dtype))
    dims = [int(d.size) for d in tensor.tensor_shape.dim]
    n = int(np.prod(dims, dtype=np.int64))
    npdt = np.dtype(object) if dt == _dt.string else np.dtype(dt.as_numpy_dtype)
    if tensor.tensor_content:
        return np.frombuffer(bytes(tensor.tensor_content), dtype=npdt.newbyteorder("<")).astype(npdt).reshape(dims)
    field = _VAL_FIELDS.get(dt.name, (0, ""))[1]
    if not field:
        raise TypeError(f"make_ndarray: dtype {dt.name} is not covered.")
    vals = list(getattr(tensor, field))
    if dt.name in ("complex64", "complex128"):
        vals = [complex(vals[i], vals[i + 1]) for i in range(0, len(vals), 2)]
    if dt.name == "float16":
        arr = np.asarray(vals, np.uint16).view(np.float16)
    elif dt == _dt.string:
        arr = np.empty(len(vals), object)
        arr[:] = [bytes(v) for v in vals]
    else:
        arr = np.asarray(vals, npdt)
    if arr.size == n:
        return arr.reshape(dims)
    if arr.size == 0:
        return np.zeros(dims, npdt) if dt != _dt.string else np.full(dims, b"", object)
    out = np.empty(n, npdt)
    out[:arr.size] = arr
    out[arr.size:] = arr[-1]
    return out.reshape(dims)
