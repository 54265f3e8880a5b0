"""The protocol-buffer messages TF programs build by hand (``tf.train.Example`` and friends), written
against the protobuf wire format with no protobuf dependency.

A message class declares its fields as ``(number, name, kind, type)``; ``kind`` is ``"message"``,
``"map"`` (string keys, message values), ``"bytes*"`` (repeated bytes), ``"float*"`` or ``"int64*"``
(repeated, packed). The objects behave as protobuf's Python messages do: keyword construction,
attribute access that creates sub-messages on demand, repeated fields with ``append``/``extend``,
``SerializeToString``/``FromString``/``ParseFromString``, ``==`` and the text format. Maps are
serialized in sorted key order (protobuf's deterministic serialization); any order parses alike;
the text format prints them in descending key order, as protobuf's upb runtime does.

>>> import tapegrad as tf
>>> ex = tf.train.Example(features=tf.train.Features(feature={
...     "x": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5, 2.0]))}))
>>> ex.SerializeToString()
b'\\n\\x13\\n\\x11\\n\\x01x\\x12\\x0c\\x12\\n\\n\\x08\\x00\\x00\\x00?\\x00\\x00\\x00@'
>>> tf.train.Example.FromString(ex.SerializeToString()).features.feature["x"].float_list.value
[0.5, 2.0]
"""
from __future__ import annotations

import math
import operator
import struct
from typing import Any, Iterator

import numpy as np

from .._tensor import Tensor, VariableBase

__all__ = ["BytesList", "DecodeError", "Example", "Feature", "FeatureList", "FeatureLists", "Features", "FloatList", "Int64List",
           "SequenceExample"]

_I64_MIN, _I64_MAX = -(1 << 63), (1 << 63) - 1


class DecodeError(Exception):
    """Bytes that are not a valid serialized message (protobuf's ``message.DecodeError``)."""


# -- wire format
def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _read_varint(buf: bytes, i: int) -> tuple[int, int]:
    shift = result = 0
    while True:
        if i >= len(buf) or shift > 63:
            raise DecodeError("Error parsing message: truncated varint")
        b = buf[i]
        result |= (b & 0x7F) << shift
        i += 1
        if b < 0x80:
            return result, i
        shift += 7


def _fields(buf: bytes) -> Iterator[tuple[int, int, Any]]:
    """``(field number, wire type, value)`` of each field in ``buf``."""
    i, n = 0, len(buf)
    while i < n:
        key, i = _read_varint(buf, i)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise DecodeError("Error parsing message: field number 0")
        if wire == 0:
            v, i = _read_varint(buf, i)
        elif wire == 1:
            v, i = buf[i:i + 8], i + 8
        elif wire == 2:
            size, i = _read_varint(buf, i)
            v, i = buf[i:i + size], i + size
        elif wire == 5:
            v, i = buf[i:i + 4], i + 4
        else:
            raise DecodeError(f"Error parsing message: wire type {wire} is not supported")
        if i > n:
            raise DecodeError("Error parsing message: truncated field")
        yield number, wire, v


def _tag(number: int, wire: int) -> bytes:
    return _varint(number << 3 | wire)


def _delimited(number: int, payload: bytes) -> bytes:
    return _tag(number, 2) + _varint(len(payload)) + payload


def _signed(n: int) -> int:
    return n - (1 << 64) if n >= 1 << 63 else n


# -- text format (as protobuf's C implementation prints it)
def _text_float(x: float) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    s = f"{x:.6g}"
    return s if np.float32(float(s)) == np.float32(x) else f"{x:.9g}"


def _python_float(x: float) -> str:
    """A float32 value as protobuf's Python text_format prints it: the shortest of 6 or more
    significant digits that gives the same float32, as a Python float."""
    if math.isnan(x):
        return "nan"
    digits = 6
    while np.float32(float(f"{x:.{digits}g}")) != np.float32(x):
        digits += 1
    return str(float(f"{x:.{digits}g}"))


_ESC = {10: "\\n", 13: "\\r", 9: "\\t", 34: '\\"', 39: "\\'", 92: "\\\\"}


def _text_bytes(b: bytes) -> str:
    return '"' + "".join(_ESC.get(c) or (chr(c) if 32 <= c < 127 else f"\\{c:03o}") for c in b) + '"'


def _text_string(s: str) -> str:
    """A string field: as bytes, but characters beyond ASCII printed as they are."""
    return '"' + "".join(_ESC.get(o) or (c if 32 <= o != 127 else f"\\{o:03o}") for c in s for o in (ord(c),)) + '"'


# -- repeated scalar fields (what protobuf's Python runtime accepts: a float field anything float()
# takes but text and arrays, an int64 field anything with __index__ but a bool, a bytes field bytes)
def _type_name(v: Any) -> str:
    t = type(v)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__.split('.')[0]}.{t.__qualname__}"


def _check_float(v: Any) -> float:
    if v is None or isinstance(v, (str, bytes, bytearray, complex)):
        raise TypeError(f"must be real number, not {_type_name(v)}")
    if isinstance(v, np.ndarray):
        raise TypeError(f"{v} has type ndarray, but expected one of: float (give its elements, or a scalar)")
    try:
        f = float(v)  # a scalar Tensor or Variable, a NumPy scalar, Decimal, Fraction, ...
    except TypeError:
        if not hasattr(type(v), "__float__") and not hasattr(type(v), "__index__"):
            raise TypeError(f"must be real number, not {_type_name(v)}") from None
        raise
    with np.errstate(over="ignore"):
        return float(np.float32(f))


def _check_int64(v: Any) -> int:
    if isinstance(v, (bool, np.bool_)):   # (NumPy 2.0's bool still has a deprecated __index__)
        raise TypeError("Field tensorflow.Int64List.value: Expected an int, got a boolean.")
    if isinstance(v, VariableBase):  # (TF's variables have no __index__; read one with .numpy())
        raise TypeError(f"'{type(v).__name__}' object cannot be interpreted as an integer")
    n = operator.index(v)  # a NumPy bool and a float tensor are refused here
    if not _I64_MIN <= n <= _I64_MAX:
        raise ValueError(f"Value out of range: {n}")
    return n


def _check_bytes(v: Any) -> bytes:
    if not isinstance(v, (bytes, np.bytes_)):
        raise TypeError(f"expected bytes, {_type_name(v)} found" +
                        (" (a string tensor: give its .numpy())" if isinstance(v, Tensor) else ""))
    return bytes(v)


_CHECK = {"float*": _check_float, "int64*": _check_int64, "bytes*": _check_bytes}


class _Container:
    """What the field containers share: ``_changed`` tells an unset owner message that it is now set."""

    _on_change: Any = None

    def _changed(self) -> None:
        f, self._on_change = self._on_change, None
        if f is not None:
            f()


class _Repeated(_Container, list):
    """A repeated scalar field: a list that checks the type of what goes in."""

    def __init__(self, check: Any, values: Any = (), on_change: Any = None) -> None:
        try:
            values = iter(values)
        except TypeError:
            raise TypeError(f"must assign iterable (a list of values), not {_type_name(values)}") from None
        list.__init__(self, (check(v) for v in values))
        self._check, self._on_change = check, on_change

    def append(self, v: Any) -> None:
        list.append(self, self._check(v))
        self._changed()

    def extend(self, values: Any) -> None:
        list.extend(self, [self._check(v) for v in values])
        self._changed()

    def insert(self, i: Any, v: Any) -> None:
        list.insert(self, i, self._check(v))
        self._changed()

    def __setitem__(self, i: Any, v: Any) -> None:
        list.__setitem__(self, i, [self._check(x) for x in v] if isinstance(i, slice) else self._check(v))

    def __iadd__(self, values: Any) -> "_Repeated":
        self.extend(values)
        return self

    def __eq__(self, other: Any) -> bool:
        return list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]


class _RepeatedMessages(_Container, list):
    """A repeated message field (``FeatureList.feature``): ``add()`` appends a new message."""

    def __init__(self, cls: type, values: Any = (), on_change: Any = None) -> None:
        list.__init__(self)
        self._cls = cls
        self.extend(values)
        self._on_change = on_change

    def add(self, **kwargs: Any) -> Any:
        m = self._cls(**kwargs)
        self.append(m)
        return m

    def append(self, m: Any) -> None:
        list.append(self, self._cls._coerce(m))
        self._changed()

    def extend(self, ms: Any) -> None:
        for m in ms:
            self.append(m)


class _Map(_Container, dict):
    """A ``map<string, Message>`` field: reading a missing key makes an empty message there."""

    def __init__(self, cls: type, values: Any = None, on_change: Any = None) -> None:
        dict.__init__(self)
        self._cls = cls
        for k, v in (values or {}).items():
            self[k] = v
        self._on_change = on_change

    def __getitem__(self, key: str) -> Any:
        if key not in self:
            dict.__setitem__(self, self._key(key), self._cls())
            self._changed()
        return dict.__getitem__(self, key)

    def __setitem__(self, key: str, value: Any) -> None:
        dict.__setitem__(self, self._key(key), self._cls._coerce(value))
        self._changed()

    def __delitem__(self, key: str) -> None:
        dict.__delitem__(self, key)

    @staticmethod
    def _key(key: Any) -> str:
        if not isinstance(key, str):
            raise TypeError(f"map keys must be str, not {type(key).__name__}")
        return key

    def get_or_create(self, key: str) -> Any:
        return self[key]


# -- messages
class _Message:
    """A protobuf message; subclasses set ``_FIELDS`` and ``_FULL_NAME`` (and ``_ONEOF``)."""

    _FIELDS: tuple = ()
    _FULL_NAME = ""
    _ONEOF: tuple = ()  # the fields of the one oneof ("kind") a message may have

    def __init__(self, **kwargs: Any) -> None:
        for k in kwargs:
            if k not in self._BY_NAME:
                raise ValueError(f'Protocol message {type(self).__name__} has no "{k}" field.')
        object.__setattr__(self, "_values", {})
        for k, v in kwargs.items():
            if v is not None:
                self._set(k, v)

    def __init_subclass__(cls) -> None:
        cls._BY_NAME = {f[1]: f for f in cls._FIELDS}
        cls._BY_NUMBER = {f[0]: f for f in cls._FIELDS}

    @classmethod
    def _coerce(cls, value: Any) -> Any:
        if isinstance(value, cls):
            return value
        if isinstance(value, dict):
            return cls(**value)
        raise TypeError(f"Expected a {cls._FULL_NAME} message, got {type(value).__name__}.")

    def _new(self, name: str) -> Any:
        _, _, kind, typ = self._BY_NAME[name]
        if kind == "map":
            return _Map(typ, on_change=self._touch)
        if kind == "messages":
            return _RepeatedMessages(typ, on_change=self._touch)
        return _Repeated(_CHECK[kind], on_change=self._touch)

    def _set(self, name: str, value: Any) -> None:
        _, _, kind, typ = self._BY_NAME[name]
        if kind == "message":
            value = typ._coerce(value)
        elif kind == "map":
            value = _Map(typ, value)
        elif kind == "messages":
            value = _RepeatedMessages(typ, value)
        else:
            value = _Repeated(_CHECK[kind], value)
        if name in self._ONEOF:
            for other in self._ONEOF:
                self._values.pop(other, None)
        self._values[name] = value

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in type(self)._BY_NAME:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        v = self._values.get(name)
        if v is None:
            if self._BY_NAME[name][2] == "message":  # unset: setting anything in it sets it here
                v = self._BY_NAME[name][3]()
                v._parent = (self, name)
            else:
                v = self._values[name] = self._new(name)
        return v

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "_parent":
            object.__setattr__(self, name, value)
            return
        if name not in self._BY_NAME:
            raise AttributeError(f'Protocol message {type(self).__name__} has no "{name}" field.')
        kind = self._BY_NAME[name][2]
        if kind != "message":
            raise AttributeError(f"Assignment not allowed to repeated field \"{name}\" in protocol message object.")
        raise AttributeError(f'Assignment not allowed to field "{name}" in protocol message object: use '
                             f"CopyFrom, or set its fields.")

    def _touch(self) -> None:
        """Make this (possibly unset) sub-message present in its parent, up the chain."""
        parent = self.__dict__.pop("_parent", None)
        if parent is not None:
            owner, name = parent
            owner._touch()
            if name in owner._ONEOF:
                for other in owner._ONEOF:
                    owner._values.pop(other, None)
            owner._values[name] = self

    # -- presence
    def HasField(self, field_name: str) -> bool:
        """Whether the sub-message ``field_name`` is set."""
        f = self._BY_NAME.get(field_name)
        if f is None or f[2] != "message":
            raise ValueError(f'Protocol message {type(self).__name__} has no singular "{field_name}" field.')
        return field_name in self._values

    def WhichOneof(self, oneof_group: str) -> str | None:
        """The name of the set field of the oneof ``kind`` (``Feature``), or None."""
        if oneof_group != "kind" or not self._ONEOF:
            raise ValueError(f'Protocol message has no oneof "{oneof_group}" field.')
        return next((n for n in self._ONEOF if n in self._values), None)

    def ClearField(self, field_name: str) -> None:
        if field_name not in self._BY_NAME:
            raise ValueError(f'Protocol message {type(self).__name__} has no "{field_name}" field.')
        self._values.pop(field_name, None)

    def Clear(self) -> None:
        self._values.clear()

    def ListFields(self) -> list:
        return [(f, self._values[f[1]]) for f in self._FIELDS if self._present(f[1])]

    def _present(self, name: str) -> bool:
        v = self._values.get(name)
        return v is not None and (self._BY_NAME[name][2] == "message" or len(v) > 0)

    def CopyFrom(self, other: "_Message") -> None:
        if other is self:
            return
        self._values.clear()
        self.MergeFrom(other)

    def MergeFrom(self, other: "_Message") -> None:
        if not isinstance(other, type(self)):
            raise TypeError(f"Parameter to MergeFrom() must be instance of same class: expected "
                            f"{type(self).__name__} got {type(other).__name__}.")
        self.ParseFromString(self.SerializeToString() + other.SerializeToString())

    # -- wire format
    def SerializeToString(self, deterministic: bool | None = None) -> bytes:
        """The message in protobuf's wire format."""
        out = bytearray()
        for number, name, kind, typ in self._FIELDS:
            v = self._values.get(name)
            if v is None:
                continue
            if kind == "message":
                out += _delimited(number, v.SerializeToString())
            elif kind == "map":
                for k in sorted(v):
                    entry = _delimited(1, k.encode("utf-8")) + _delimited(2, v[k].SerializeToString())
                    out += _delimited(number, entry)
            elif kind == "messages":
                for m in v:
                    out += _delimited(number, m.SerializeToString())
            elif kind == "bytes*":
                for b in v:
                    out += _delimited(number, b)
            elif v:
                payload = np.asarray(v, np.float32).astype("<f4").tobytes() if kind == "float*" else \
                    b"".join(_varint(n) for n in v)
                out += _delimited(number, payload)
        return bytes(out)

    def ParseFromString(self, serialized: bytes) -> int:
        """Replace this message's contents by those parsed from ``serialized``; return its length."""
        self._values.clear()
        return self.MergeFromString(serialized)

    def MergeFromString(self, serialized: bytes) -> int:
        self._touch()
        self._merge(bytes(serialized))
        return len(serialized)

    def _merge(self, buf: bytes) -> None:
        for number, wire, v in _fields(buf):
            f = self._BY_NUMBER.get(number)
            if f is None:  # an unknown field: skipped (protobuf keeps it; nothing here reads it)
                continue
            _, name, kind, typ = f
            if kind == "message":
                if wire != 2:
                    raise DecodeError(f"Error parsing message {self._FULL_NAME}: wrong wire type for {name}")
                sub = self._values.get(name)
                if sub is None:
                    self._set(name, typ())
                    sub = self._values[name]
                sub._merge(v)
            elif kind == "map":
                key, value = "", typ()
                for n2, w2, v2 in _fields(v):
                    if n2 == 1 and w2 == 2:
                        key = v2.decode("utf-8")
                    elif n2 == 2 and w2 == 2:
                        value._merge(v2)
                getattr(self, name)[key] = value
            elif kind == "messages":
                m = typ()
                m._merge(v)
                getattr(self, name).append(m)
            elif kind == "bytes*":
                getattr(self, name).append(bytes(v))
            elif kind == "float*":
                vals = getattr(self, name)
                if wire == 2:
                    if len(v) % 4:
                        raise DecodeError(f"Error parsing message {self._FULL_NAME}: truncated packed floats")
                    vals.extend(np.frombuffer(v, "<f4").astype(float).tolist())
                elif wire == 5:
                    vals.append(struct.unpack("<f", v)[0])
                else:
                    raise DecodeError(f"Error parsing message {self._FULL_NAME}: wrong wire type for {name}")
            else:  # int64*
                vals = getattr(self, name)
                if wire == 2:
                    i = 0
                    while i < len(v):
                        n, i = _read_varint(v, i)
                        vals.append(_signed(n))
                elif wire == 0:
                    vals.append(_signed(v))
                else:
                    raise DecodeError(f"Error parsing message {self._FULL_NAME}: wrong wire type for {name}")

    @classmethod
    def FromString(cls, s: bytes) -> Any:
        """A new message parsed from ``s``."""
        m = cls()
        m.ParseFromString(s)
        return m

    def ByteSize(self) -> int:
        return len(self.SerializeToString())

    def IsInitialized(self) -> bool:
        return True

    # -- comparison and text
    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self.SerializeToString() == other.SerializeToString()

    __hash__ = None  # type: ignore[assignment]  (mutable, as protobuf's)

    def _text(self, indent: int, python: bool = False) -> list[str]:
        """The text format's lines as ``str(message)`` (protobuf's upb runtime) prints them, or with
        ``python`` as protobuf's Python ``text_format.MessageToString`` does (map keys ascending,
        floats as Python floats: ``-2.0``)."""
        pad = "  " * indent
        lines: list[str] = []
        for number, name, kind, typ in self._FIELDS:
            if not self._present(name):
                continue
            v = self._values[name]
            if kind == "message":
                lines += [f"{pad}{name} {{", *v._text(indent + 1, python), f"{pad}}}"]
            elif kind == "map":  # (upb prints a map's keys in descending order; text_format, ascending)
                for k, m in sorted(v.items(), key=lambda km: km[0] if python else km[0].encode("utf-8"),
                                   reverse=not python):
                    lines += [f"{pad}{name} {{", f"{pad}  key: {_text_string(k)}",
                              f"{pad}  value {{", *m._text(indent + 2, python), f"{pad}  }}", f"{pad}}}"]
            elif kind == "messages":
                for m in v:
                    lines += [f"{pad}{name} {{", *m._text(indent + 1, python), f"{pad}}}"]
            else:
                fmt = {"float*": _python_float if python else _text_float, "int64*": str, "bytes*": _text_bytes}[kind]
                lines += [f"{pad}{name}: {fmt(x)}" for x in v]
        return lines

    def __str__(self) -> str:
        lines = self._text(0)
        return "\n".join(lines) + "\n" if lines else ""

    def __repr__(self) -> str:
        return str(self)

    def __reduce__(self) -> Any:
        return type(self).FromString, (self.SerializeToString(),)


class BytesList(_Message):
    """``tf.train.BytesList``: ``value``, a repeated ``bytes`` field."""
    _FULL_NAME = "tensorflow.BytesList"
    _FIELDS = ((1, "value", "bytes*", None),)


class FloatList(_Message):
    """``tf.train.FloatList``: ``value``, a repeated float32 field (values are rounded to float32)."""
    _FULL_NAME = "tensorflow.FloatList"
    _FIELDS = ((1, "value", "float*", None),)


class Int64List(_Message):
    """``tf.train.Int64List``: ``value``, a repeated int64 field."""
    _FULL_NAME = "tensorflow.Int64List"
    _FIELDS = ((1, "value", "int64*", None),)


class Feature(_Message):
    """``tf.train.Feature``: one of ``bytes_list``, ``float_list`` or ``int64_list`` (the oneof ``kind``)."""
    _FULL_NAME = "tensorflow.Feature"
    _FIELDS = ((1, "bytes_list", "message", BytesList), (2, "float_list", "message", FloatList),
               (3, "int64_list", "message", Int64List))
    _ONEOF = ("bytes_list", "float_list", "int64_list")


class Features(_Message):
    """``tf.train.Features``: ``feature``, a map from names to :class:`Feature`."""
    _FULL_NAME = "tensorflow.Features"
    _FIELDS = ((1, "feature", "map", Feature),)


class FeatureList(_Message):
    """``tf.train.FeatureList``: ``feature``, a list of :class:`Feature` (one per time step)."""
    _FULL_NAME = "tensorflow.FeatureList"
    _FIELDS = ((1, "feature", "messages", Feature),)


class FeatureLists(_Message):
    """``tf.train.FeatureLists``: ``feature_list``, a map from names to :class:`FeatureList`."""
    _FULL_NAME = "tensorflow.FeatureLists"
    _FIELDS = ((1, "feature_list", "map", FeatureList),)


class Example(_Message):
    """``tf.train.Example``: ``features`` (:class:`Features`), what ``tf.io.parse_example`` reads."""
    _FULL_NAME = "tensorflow.Example"
    _FIELDS = ((1, "features", "message", Features),)


class SequenceExample(_Message):
    """``tf.train.SequenceExample``: ``context`` (:class:`Features`) and ``feature_lists``."""
    _FULL_NAME = "tensorflow.SequenceExample"
    _FIELDS = ((1, "context", "message", Features), (2, "feature_lists", "message", FeatureLists))
