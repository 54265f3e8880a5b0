"""String ops (``tf.strings``): length, case, strip, split, join, regexes, substrings, number
conversion, formatting, Unicode, hash buckets. The splitting ops return :class:`Rows` (values cut at
row splits) for a vector; ``tapegrad.strings`` makes them RaggedTensors, as TensorFlow's.

Every op here is nondifferentiable (strings carry no gradient). Forwards work on NumPy object
arrays of ``bytes``, one Python call per element; text is bytes throughout (``str`` arguments
are encoded as UTF-8), as TensorFlow's.
"""
from __future__ import annotations

import builtins
import codecs
import re
from typing import Any, NamedTuple, Sequence

import numpy as np

from .. import _fingerprint, _strings, _unicode_scripts, _vmap, dtypes as _dt
from .._convert import as_tensor, check_values, host_value
from .._dispatch import apply, defop
from .._tensor import Tensor, constant_maker, wrap as _wrap
from ..errors import InvalidArgumentError
from .array import norm_axes, reshape

__all__ = ["length", "lower", "upper", "strip", "split", "join", "reduce_join", "regex_replace",
           "regex_full_match", "substr", "to_number", "as_string", "bytes_split", "ngrams",
           "unicode_decode", "unicode_decode_with_offsets", "unicode_encode", "unicode_script", "unicode_split",
           "unicode_split_with_offsets", "unicode_transcode", "to_hash_bucket", "to_hash_bucket_fast",
           "to_hash_bucket_strong", "unsorted_segment_join"]


def _strings_in(x: Any, op: str) -> Tensor:
    t = as_tensor(x)
    if t._value.dtype.kind != "O":
        raise InvalidArgumentError(f"{op} takes a string tensor, got {t.dtype.name}; convert numbers "
                                   f"with tf.strings.as_string first. [Op:{op}]")
    return t


def _text(s: Any) -> bytes:
    """A str/bytes argument (separator, pattern) as bytes."""
    return s.encode("utf-8") if isinstance(s, str) else bytes(s)


def _each(fn: Any, *xs: np.ndarray, out: Any = object) -> np.ndarray:
    """``fn`` on every element (NumPy broadcasting across ``xs``), as an array of ``out``."""
    r = np.frompyfunc(fn, len(xs), 1)(*xs)
    return np.asarray(r, dtype=out)


def _op(name: str, fwd: Any) -> Any:
    return defop(name, fwd, nondiff=True)


# --------------------------------------------------------------------------- rows
class Rows(NamedTuple):
    """Rows of different lengths: row ``i`` is ``values[row_splits[i]:row_splits[i + 1]]``.
    What the splitting ops return for a vector of strings (``tapegrad.strings`` wraps it in a
    ``tf.RaggedTensor``), and what ``ngrams`` and ``unicode_encode`` take for ragged rows."""
    values: Tensor
    row_splits: Tensor


def _rows(parts: np.ndarray, dtype: Any) -> tuple:
    """The values and row splits of an object array (rank 1) of per-row lists."""
    lens = np.fromiter((len(p) for p in parts), np.int64, parts.size)
    splits = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    flat = [e for p in parts for e in p]
    values = np.array(flat, dtype=dtype) if flat else np.zeros(0, dtype)
    return values, splits


def _ragged_op(name: str, per_element: Any, dtype: Any) -> Any:
    """A nondiff op from a vector of strings to (values, row_splits) of the per-element lists."""
    return defop(name, lambda x, **p: _rows(_each(lambda s: per_element(s, **p), x), dtype),
                 nout=2, nondiff=True)


def _ragged_call(op: Any, x: Tensor, p: dict, what: str) -> Any:
    """Apply a splitting op: a Tensor for a scalar input, :class:`Rows` for a vector."""
    nd = x._value.ndim
    if nd > 1:
        raise ValueError(f"{what} takes a scalar or a vector of strings, got rank {nd} "
                         "(tf.strings.{what} takes any rank).")
    values, splits = apply(op, (x[None] if nd == 0 else x,), p)
    return values if nd == 0 else Rows(values, splits)


# --------------------------------------------------------------------------- elementwise
def _utf8_len(s: bytes) -> int:
    return builtins.sum(1 for c in s if c & 0xC0 != 0x80)


_length = _op("StringLength", lambda x, unit: _each(len if unit == "BYTE" else _utf8_len, x, out=np.int32))
_vmap.register(_length, _vmap.broadcasting)


def _unit(unit: str) -> str:
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise InvalidArgumentError(f"Value for attr 'unit' of {unit!r} is not in the list of allowed values: "
                                   "\"BYTE\", \"UTF8_CHAR\"")
    return unit


def length(input: Any, unit: str = "BYTE", name: Any = None) -> Tensor:  # noqa: A002
    """The length of each string (int32): in bytes, or in UTF-8 characters with
    ``unit="UTF8_CHAR"`` (each byte that does not continue a UTF-8 sequence counts one).

    >>> import tapegrad as tf
    >>> tf.strings.length(["abc", "été"], unit="UTF8_CHAR").numpy()
    array([3, 3], dtype=int32)
    """
    return apply(_length, (_strings_in(input, "StringLength"),), {"unit": _unit(unit)})


def _case(s: bytes, upper: builtins.bool, utf8: builtins.bool) -> bytes:
    if not utf8:  # ASCII letters only, as TF without an encoding
        return s.upper() if upper else s.lower()
    t = s.decode("utf-8", "surrogateescape")
    return (t.upper() if upper else t.lower()).encode("utf-8", "surrogateescape")


_case_op = _op("StringCase", lambda x, upper, utf8: _each(lambda s: _case(s, upper, utf8), x))
_vmap.register(_case_op, _vmap.broadcasting)


def _encoding(encoding: str) -> builtins.bool:
    e = encoding.lower().replace("-", "")
    if e not in ("", "utf8"):
        raise InvalidArgumentError(f"encoding must be '' (ASCII letters only) or 'utf-8', got {encoding!r}.")
    return e == "utf8"


def lower(input: Any, encoding: str = "", name: Any = None) -> Tensor:  # noqa: A002
    """Lowercase: ASCII letters only, or every letter with ``encoding="utf-8"``."""
    return apply(_case_op, (_strings_in(input, "StringLower"),), {"upper": False, "utf8": _encoding(encoding)})


def upper(input: Any, encoding: str = "", name: Any = None) -> Tensor:  # noqa: A002
    """Uppercase: ASCII letters only, or every letter with ``encoding="utf-8"`` (``ß`` -> ``SS``).

    >>> import tapegrad as tf
    >>> tf.strings.upper("été", encoding="utf-8").numpy().decode()
    'ÉTÉ'
    """
    return apply(_case_op, (_strings_in(input, "StringUpper"),), {"upper": True, "utf8": _encoding(encoding)})


_strip = _op("StringStrip", lambda x: _each(bytes.strip, x))
_vmap.register(_strip, _vmap.broadcasting)


def strip(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Remove leading and trailing ASCII whitespace (space, ``\\t\\n\\v\\f\\r``)."""
    return apply(_strip, (_strings_in(input, "StringStrip"),))


# --------------------------------------------------------------------------- split, join
def _split1(s: bytes, sep: bytes, maxsplit: int) -> list:
    if not sep:
        return s.split(None, maxsplit)
    return s.split(sep, maxsplit)


_split = _ragged_op("StringSplitV2", _split1, object)


def split(input: Any, sep: Any = None, maxsplit: int = -1, name: Any = None) -> Any:  # noqa: A002
    """Split each string at ``sep`` (by default at runs of whitespace, ignoring it at the ends).

    A scalar gives a vector Tensor; a vector gives :class:`Rows` (row ``i`` holds the parts of
    ``input[i]``; ``tf.strings.split`` returns them as a RaggedTensor).

    >>> from tapegrad.ops import strings
    >>> strings.split(["a b", "c"]).row_splits.numpy()
    array([0, 2, 3])
    """
    x = _strings_in(input, "StringSplitV2")
    return _ragged_call(_split, x, {"sep": _text(sep or b""), "maxsplit": int(maxsplit)}, "split")


_bytes_split = _ragged_op("StringBytesSplit", lambda s: [s[i:i + 1] for i in builtins.range(len(s))], object)


def bytes_split(input: Any, name: Any = None) -> Any:  # noqa: A002
    """Split each string into single bytes (a Tensor for a scalar, :class:`Rows` for a vector)."""
    return _ragged_call(_bytes_split, _strings_in(input, "StringBytesSplit"), {}, "bytes_split")


def _join_fwd(*xs: np.ndarray, separator: bytes) -> np.ndarray:
    return _each(lambda *parts: separator.join(parts), *xs)


_join = _op("StringJoin", _join_fwd)
_vmap.register(_join, _vmap.broadcasting)


def join(inputs: Sequence[Any], separator: str = "", name: Any = None) -> Tensor:
    """Join the strings of ``inputs`` elementwise (scalars broadcast), with ``separator``.

    >>> import tapegrad as tf
    >>> tf.strings.join(["id", tf.constant(["1", "2"])], separator="-").numpy()
    array([b'id-1', b'id-2'], dtype=object)
    """
    ts = [_strings_in(x, "StringJoin") for x in inputs]
    shapes = {t._value.shape for t in ts if t._value.ndim}
    if len(shapes) > 1:
        raise InvalidArgumentError(f"Input shapes do not match: {sorted(shapes)} (only scalars "
                                   "broadcast). [Op:StringJoin]")
    return apply(_join, ts, {"separator": _text(separator)})


def _reduce_join_fwd(x: np.ndarray, axes: tuple, keepdims: builtins.bool, separator: bytes) -> np.ndarray:
    rest = tuple(a for a in builtins.range(x.ndim) if a not in axes)
    moved = np.transpose(x, rest + axes)
    lead = moved.shape[:len(rest)]
    flat = moved.reshape(lead + (-1,))
    out = np.empty(lead, dtype=object)
    for idx in np.ndindex(*lead):
        out[idx] = separator.join(flat[idx].tolist())
    if keepdims:
        out = out.reshape(tuple(1 if a in axes else x.shape[a] for a in builtins.range(x.ndim)))
    return out


_reduce_join = _op("ReduceJoin", _reduce_join_fwd)
_vmap.register(_reduce_join, _vmap.axes("axes"))


def reduce_join(inputs: Any, axis: Any = None, keepdims: builtins.bool = False, separator: str = "",
                name: Any = None) -> Tensor:
    """Join the strings along ``axis`` (all axes by default), in order, with ``separator``.

    >>> import tapegrad as tf
    >>> tf.strings.reduce_join([["a", "b"], ["c", "d"]], axis=1, separator=",").numpy()
    array([b'a,b', b'c,d'], dtype=object)
    """
    x = _strings_in(inputs, "ReduceJoin")
    axes = tuple(sorted(norm_axes(axis, x._value.ndim, "ReduceJoin")))
    return apply(_reduce_join, (x,), {"axes": axes, "keepdims": builtins.bool(keepdims),
                                      "separator": _text(separator)})


def _segment_join_fwd(x: np.ndarray, ids: np.ndarray, num_segments: int, separator: bytes) -> np.ndarray:
    parts: list = [[] for _ in builtins.range(num_segments)]
    inner = x.shape[ids.ndim:]
    flat_x = x.reshape((-1,) + inner)
    for row, s in zip(flat_x, ids.reshape(-1)):
        if s >= 0:
            parts[s].append(row)
    out = np.empty((num_segments,) + inner, dtype=object)
    for s, rows in enumerate(parts):
        j = _each(lambda *r: separator.join(r), *rows) if rows else _strings.empty(inner)
        out[s] = j[()] if j.ndim == 0 else j
    return out


_segment_join = _op("UnsortedSegmentJoin", _segment_join_fwd)


def unsorted_segment_join(inputs: Any, segment_ids: Any, num_segments: Any, separator: str = "",
                          name: Any = None) -> Tensor:
    """Join the rows of ``inputs`` that share a segment id, in order (empty segments: ``b""``;
    negative ids are dropped).

    >>> import tapegrad as tf
    >>> tf.strings.unsorted_segment_join(["a", "b", "c"], [1, 0, 1], 2, separator="+").numpy()
    array([b'b', b'a+c'], dtype=object)
    """
    x = _strings_in(inputs, "UnsortedSegmentJoin")
    ids = as_tensor(segment_ids)
    ish = ids._value.shape
    n = int(host_value(as_tensor(num_segments), "num_segments"))
    if ids._value.dtype.kind not in "iu":
        raise TypeError(f"unsorted_segment_join: segment_ids must be integers, got {ids.dtype.name}.")
    if x._value.shape[:len(ish)] != ish:
        raise InvalidArgumentError(f"segment_ids.shape = {list(ish)} is not a prefix of "
                                   f"inputs.shape = {list(x._value.shape)} [Op:UnsortedSegmentJoin]")

    def in_range(iv: np.ndarray) -> None:
        if iv.size and iv.max() >= n:
            raise InvalidArgumentError(f"segment_ids[{int(np.argmax(iv >= n))}] = {iv.max()} is out of "
                                       f"range [0, {n}) [Op:UnsortedSegmentJoin]")
    check_values(in_range, ids)
    return apply(_segment_join, (x, ids), {"num_segments": n, "separator": _text(separator)})


def _ngrams_fwd(values: np.ndarray, splits: np.ndarray, widths: tuple, separator: bytes, left: bytes,
                right: bytes, pad: int, preserve: builtins.bool) -> tuple:
    rows = []
    for a, b in zip(splits[:-1], splits[1:]):
        row, grams = values[a:b].tolist(), []
        for w in widths:
            p = builtins.min(w - 1 if pad < 0 else pad, w - 1)
            seq = [left] * p + row + [right] * p
            grams += [separator.join(seq[i:i + w]) for i in builtins.range(len(seq) - w + 1)]
        if preserve and not grams and row:  # (only possible with an explicit padding_width)
            grams = [separator.join([left] * pad + row + [right] * pad)]
        rows.append(grams)
    out = np.empty(len(rows), dtype=object)
    out[:] = rows
    return _rows(out, object)


_ngrams = defop("StringNGrams", _ngrams_fwd, nout=2, nondiff=True)


@constant_maker  # (row splits from shapes)
def ngrams(data: Any, ngram_width: Any, separator: str = " ", pad_values: Any = None,
           padding_width: int | None = None, preserve_short_sequences: builtins.bool = False,
           name: Any = None) -> Any:
    """The n-grams of each row of tokens (the last axis of a Tensor, or the rows of a
    :class:`Rows`), joined with ``separator``: for each width of ``ngram_width`` (an int or
    a list) in turn. ``pad_values`` (a string, or a ``(left, right)`` pair) pads each row with
    ``padding_width`` tokens (default ``width - 1``) at both ends; ``preserve_short_sequences``
    keeps a row too short for any n-gram as one joined string.

    >>> import tapegrad as tf
    >>> tf.strings.ngrams(tf.strings.split(["a b c", "d"]), 2, pad_values="#").to_list()
    [[b'# a', b'a b', b'b c', b'c #'], [b'# d', b'd #']]
    """
    widths = (int(ngram_width),) if isinstance(ngram_width, (int, np.integer)) else tuple(int(w) for w in ngram_width)
    if not widths or builtins.min(widths) < 1:
        raise ValueError(f"ngram_width must be positive ints, got {ngram_width!r}.")
    if pad_values is None:
        left = right = b""
        pad = 0
    else:
        left, right = ((pad_values, pad_values) if isinstance(pad_values, (str, bytes)) else pad_values)
        left, right = _text(left), _text(right)
        pad = -1 if padding_width is None else int(padding_width)
        if padding_width is not None and pad < 1:
            raise ValueError(f"padding_width must be at least 1, got {padding_width}.")
    p = {"widths": widths, "separator": _text(separator), "left": left, "right": right, "pad": pad,
         "preserve": builtins.bool(preserve_short_sequences)}
    if isinstance(data, Rows):
        return Rows(*apply(_ngrams, (data.values, data.row_splits), p))
    x = _strings_in(data, "StringNGrams")
    shape = x._value.shape
    if not shape:
        raise ValueError("ngrams: data must have at least one axis (the tokens).")
    rows, n = int(np.prod(shape[:-1], dtype=np.int64)), shape[-1]
    splits = _wrap(np.arange(rows + 1, dtype=np.int64) * n)
    values, _ = apply(_ngrams, (reshape(x, (-1,)), splits), p)
    return reshape(values, shape[:-1] + (-1,))


# --------------------------------------------------------------------------- regular expressions
_REWRITE = re.compile(r"\\(\d|\\)")


def _pattern(pattern: Any) -> re.Pattern:
    p = pattern.decode("utf-8") if isinstance(pattern, bytes) else str(pattern)
    try:
        return re.compile(p)
    except re.error as e:
        raise InvalidArgumentError(f"Invalid pattern: {p!r}, error: {e}") from None


def _rewrite(rewrite: str) -> Any:
    """RE2's rewrite string (``\\0``..``\\9`` groups, ``\\\\`` a backslash) as a function."""
    parts = _REWRITE.split(rewrite)  # text, token, text, token, ...

    def fill(m: re.Match) -> str:
        out = []
        for i, p in enumerate(parts):
            if i % 2 == 0:
                out.append(p)
            else:
                out.append("\\" if p == "\\" else (m.group(int(p)) or ""))
        return "".join(out)
    return fill


def _decode(s: bytes) -> str:
    return s.decode("utf-8", "surrogateescape")


def _encode(s: str) -> bytes:
    return s.encode("utf-8", "surrogateescape")


def _regex_replace_fwd(x: np.ndarray, pattern: str, rewrite: str, count: int) -> np.ndarray:
    p, fill = _pattern(pattern), _rewrite(rewrite)
    return _each(lambda s: _encode(p.sub(fill, _decode(s), count)), x)


_regex_replace = _op("StaticRegexReplace", _regex_replace_fwd)
_vmap.register(_regex_replace, _vmap.broadcasting)


def regex_replace(input: Any, pattern: Any, rewrite: Any, replace_global: builtins.bool = True,  # noqa: A002
                  name: Any = None) -> Tensor:
    """Replace the matches of ``pattern`` (every one, or the first with ``replace_global=False``)
    by ``rewrite``, where ``\\1`` .. ``\\9`` are groups and ``\\0`` the whole match (RE2's syntax).
    Patterns run on the UTF-8 text with Python's ``re``, which reads RE2's common syntax the same
    way (see docs/strings.md).

    >>> import tapegrad as tf
    >>> tf.strings.regex_replace("Hello, World!", r"[^\\w\\s]", "").numpy()
    b'Hello World'
    """
    x = _strings_in(input, "StaticRegexReplace")
    p = _pattern(_py_text(pattern))
    return apply(_regex_replace, (x,), {"pattern": p.pattern, "rewrite": _py_text(rewrite),
                                        "count": 0 if replace_global else 1})


def _py_text(s: Any) -> str:
    if isinstance(s, Tensor):
        s = s.numpy()
    return s.decode("utf-8") if isinstance(s, bytes) else str(s)


def _full_match_fwd(x: np.ndarray, pattern: str) -> np.ndarray:
    p = _pattern(pattern)
    return _each(lambda s: p.fullmatch(_decode(s)) is not None, x, out=np.bool_)


_full_match = _op("StaticRegexFullMatch", _full_match_fwd)
_vmap.register(_full_match, _vmap.broadcasting)


def regex_full_match(input: Any, pattern: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Whether each whole string matches ``pattern`` (a bool tensor)."""
    x = _strings_in(input, "StaticRegexFullMatch")
    return apply(_full_match, (x,), {"pattern": _pattern(_py_text(pattern)).pattern})


# --------------------------------------------------------------------------- substrings
def _substr1(s: bytes, pos: int, n: int, unit: str) -> bytes:
    if unit == "UTF8_CHAR":
        starts = [i for i, c in enumerate(s) if c & 0xC0 != 0x80]
        size = len(starts)
    else:
        size = len(s)
    p = pos + size if pos < 0 else pos
    if not 0 <= p <= size:
        raise InvalidArgumentError(f"pos {pos} out of range for string {s!r} [Op:Substr]")
    q = builtins.min(p + builtins.max(n, 0), size)
    if unit == "UTF8_CHAR":
        bounds = starts + [len(s)]
        return s[bounds[p]:bounds[q]]
    return s[p:q]


_substr = _op("Substr", lambda x, pos, n, unit: _each(lambda s, p, k: _substr1(s, int(p), int(k), unit), x, pos, n))
_vmap.register(_substr, _vmap.broadcasting)


def substr(input: Any, pos: Any, len: Any, unit: str = "BYTE", name: Any = None) -> Tensor:  # noqa: A002
    """``len`` bytes (or UTF-8 characters) of each string from ``pos`` (negative: from the end).
    ``pos`` and ``len`` broadcast with ``input``; a ``pos`` past the end raises
    InvalidArgumentError, a ``len`` past the end stops there.

    >>> import tapegrad as tf
    >>> tf.strings.substr(["hello", "world"], 1, 3).numpy()
    array([b'ell', b'orl'], dtype=object)
    """
    x = _strings_in(input, "Substr")
    pos_t, len_t = as_tensor(pos), as_tensor(len)
    if pos_t._value.shape != len_t._value.shape:
        raise InvalidArgumentError(f"pos and len should have the same shape, got: {list(pos_t._value.shape)} vs. "
                                   f"{list(len_t._value.shape)} (each broadcasts with input) [Op:Substr]")
    return apply(_substr, (x, pos_t, len_t), {"unit": _unit(unit)})


# --------------------------------------------------------------------------- numbers
def _number(s: bytes, kind: str, npdt: np.dtype) -> Any:
    t = s.strip()
    try:
        if kind == "f":
            low = t.lower()
            if low.lstrip(b"+-") in (b"inf", b"infinity", b"nan"):
                return npdt.type(float(low))
            if low.lstrip(b"+-").startswith(b"0x"):  # (C's strtod reads hex floats)
                return npdt.type(float.fromhex(low.decode("ascii")))
            return npdt.type(float(t.replace(b"_", b"?")))  # ("?": Python reads "1_0", TF not)
        v = int(t.replace(b"_", b"?"))
        info = np.iinfo(npdt)
        if not info.min <= v <= info.max:
            raise ValueError
        return npdt.type(v)
    except ValueError:
        raise InvalidArgumentError(f"StringToNumberOp could not correctly convert string: "
                                   f"{s.decode('utf-8', 'backslashreplace')}") from None


_to_number = _op("StringToNumber", lambda x, out: _each(lambda s: _number(s, out.kind, out), x, out=out))
_vmap.register(_to_number, _vmap.broadcasting)


def to_number(string_tensor: Any, out_type: Any = _dt.float32, name: Any = None) -> Tensor:
    """Parse each string as a number of ``out_type`` (float32, float64, int32 or int64);
    surrounding whitespace is ignored, anything else that is not a number raises
    InvalidArgumentError.

    >>> import tapegrad as tf
    >>> tf.strings.to_number(["1.5", " 7 ", "1e3"]).numpy()
    array([   1.5,    7. , 1000. ], dtype=float32)
    """
    d = _dt.as_dtype(out_type)
    if d not in (_dt.float32, _dt.float64, _dt.int32, _dt.int64):
        raise TypeError(f"to_number: out_type must be float32, float64, int32 or int64, got {d.name}.")
    return apply(_to_number, (_strings_in(string_tensor, "StringToNumber"),), {"out": d._np})


def _as_string_fwd(x: np.ndarray, fmt: str) -> np.ndarray:
    if x.dtype.kind == "b":
        return _each(lambda v: b"true" if v else b"false", x)
    if x.dtype.kind == "O":
        return x
    return _each(lambda v: (fmt % v).encode("ascii"), x)


_as_string = _op("AsString", _as_string_fwd)
_vmap.register(_as_string, _vmap.broadcasting)


def as_string(input: Any, precision: int = -1, scientific: builtins.bool = False,  # noqa: A002
              shortest: builtins.bool = False, width: int = -1, fill: str = "", name: Any = None) -> Tensor:
    """Numbers (and bools) as strings, with C's ``printf`` formats as TensorFlow: floats ``%f``
    (``precision`` digits, ``scientific``: ``%e``, ``shortest``: ``%g``), ints ``%d``; ``width``
    pads on the left with spaces or with ``fill`` (one character, ``" "`` or ``"0"``).

    >>> import tapegrad as tf
    >>> tf.strings.as_string([1.5, 2.0], precision=2).numpy()
    array([b'1.50', b'2.00'], dtype=object)
    """
    x = as_tensor(input)
    k = x._value.dtype.kind
    if k == "c":
        raise InvalidArgumentError("as_string: complex tensors are not supported by tapegrad; "
                                   "format tf.math.real and tf.math.imag. [Op:AsString]")
    if scientific and shortest:
        raise InvalidArgumentError("Cannot select both scientific and shortest notation [Op:AsString]")
    if fill not in ("", " ", "0"):
        raise InvalidArgumentError(f"Fill argument not supported: {fill!r} (use ' ' or '0') [Op:AsString]")
    if k != "f" and (precision > -1 or scientific or shortest):
        raise InvalidArgumentError("precision, scientific and shortest apply to float tensors only. [Op:AsString]")
    spec = "%" + ("0" if fill == "0" else "") + (str(width) if width > -1 else "")
    if k == "f":
        spec += ("." + str(precision)) if precision > -1 else ""
        spec += "e" if scientific else "g" if shortest else "f"
    else:
        spec += "d"
    return apply(_as_string, (x,), {"fmt": spec})


# --------------------------------------------------------------------------- format
def _format_fwd(*xs: np.ndarray, template: str, placeholder: str, render: Any) -> np.ndarray:
    parts = template.split(placeholder)
    text = parts[0] + "".join(render(x) + p for x, p in zip(xs, parts[1:]))
    return np.array(text.encode("utf-8"), dtype=object)


# (tf.strings.format, in tapegrad/strings.py, passes tf.print's formatter as ``render``)
format_op = _op("StringFormat", _format_fwd)


# --------------------------------------------------------------------------- Unicode
# Decoding reads any encoding Python's codecs know (TF: any ICU converter; "UTF-16"/"UTF-32"
# without a byte order mark read big-endian, as ICU's); encoding writes TF's three.
_OUT_CODECS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}
_ERRORS = ("strict", "replace", "ignore")
_BOMS = {"utf-16": ((b"\xfe\xff", "utf-16-be"), (b"\xff\xfe", "utf-16-le")),
         "utf-32": ((b"\x00\x00\xfe\xff", "utf-32-be"), (b"\xff\xfe\x00\x00", "utf-32-le"))}


def _mark(e: UnicodeError) -> tuple:
    """Codec error handler: an invalid sequence of ``n`` bytes becomes the lone surrogate
    ``U+DC00 + n`` (no UTF decoder yields one), so the decoded text still tells where it was."""
    if not isinstance(e, UnicodeDecodeError):
        raise e
    return chr(0xDC00 + builtins.min(e.end - e.start, 0x3FF)), e.end


codecs.register_error("tapegrad.unicode_mark", _mark)


def _in_codec(encoding: str, op: str) -> str:
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        info = None
    if info is None or not getattr(info, "_is_text_encoding", True):
        raise InvalidArgumentError(f"Could not create converter for input encoding: {encoding} (an encoding "
                                   f"name such as 'UTF-8', 'UTF-16-BE', 'UTF-32-BE', 'ISO-8859-1') [Op:{op}]")
    return info.name


def _out_codec(encoding: str) -> str:
    codec = _OUT_CODECS.get(encoding)
    if codec is None:
        raise InvalidArgumentError(f"Value for attr 'output_encoding' of {encoding!r} is not in the list of "
                                   "allowed values: \"UTF-8\", \"UTF-16-BE\", \"UTF-32-BE\" (spelt exactly so)")
    return codec


def _check_errors(errors: str) -> str:
    if errors not in _ERRORS:
        raise InvalidArgumentError(f"Value for attr 'errors' of {errors!r} is not in the list of allowed "
                                   "values: \"strict\", \"replace\", \"ignore\"")
    return errors


def _check_replacement(replacement_char: Any, op: str) -> int:
    c = int(replacement_char)
    if not 0 <= c <= 0x10FFFF:
        raise InvalidArgumentError(f"replacement_char out of unicode codepoint range: {c} (give a code point "
                                   f"in [0, 0x10FFFF]) [Op:{op}]")
    return c


def _width(codec: str) -> Any:
    """The number of bytes a valid character takes in ``codec``."""
    if codec == "utf-8":
        return lambda c: 1 if c < 0x80 else 2 if c < 0x800 else 3 if c < 0x10000 else 4
    if codec.startswith("utf-16"):
        return lambda c: 2 if c < 0x10000 else 4
    if codec.startswith("utf-32"):
        return lambda c: 4
    return lambda c: len(chr(c).encode(codec))


def _decode1(s: bytes, codec: str, errors: str, rc: int, ctrl: builtins.bool, op: str) -> tuple:
    """The code points of ``s`` and the byte offset where each starts: an invalid sequence
    (the longest prefix of a valid one, or one byte) is ``rc`` or dropped (``errors``), a C0
    control character too with ``ctrl``."""
    if codec == "utf-8" and s.isascii() and not ctrl:  # (the common case, without a loop)
        cps = list(s)
        return cps, list(builtins.range(len(cps)))
    for bom, c in _BOMS.get(codec, ()):
        if s.startswith(bom):
            s, codec = s[len(bom):], c
            break
    else:
        codec = {"utf-16": "utf-16-be", "utf-32": "utf-32-be"}.get(codec, codec)
    width = _width(codec)
    cps: list = []
    offsets: list = []
    pos = 0
    for ch in s.decode(codec, "tapegrad.unicode_mark"):
        c = ord(ch)
        if 0xDC00 <= c <= 0xDFFF:
            if errors == "strict":
                raise InvalidArgumentError(f"Invalid formatting on input string {s!r} at byte {pos} (errors='replace' "
                                           f"or 'ignore' accepts it) [Op:{op}]")
            if errors == "replace":
                cps.append(rc)
                offsets.append(pos)
            pos += c - 0xDC00
            continue
        if ctrl and c < 0x20:
            if errors != "ignore":
                cps.append(rc)
                offsets.append(pos)
        else:
            cps.append(c)
            offsets.append(pos)
        pos += width(c)
    return cps, offsets


def _decode_fwd(x: np.ndarray, codec: str, errors: str, rc: int, ctrl: builtins.bool, offsets: builtins.bool,
                op: str) -> tuple:
    rows = [_decode1(s, codec, errors, rc, ctrl, op) for s in x.reshape(-1)]
    splits = np.concatenate([[0], np.cumsum([len(r[0]) for r in rows], dtype=np.int64)]).astype(np.int64)
    values = np.fromiter((c for r in rows for c in r[0]), np.int32, int(splits[-1]))
    if not offsets:
        return values, splits
    return values, splits, np.fromiter((o for r in rows for o in r[1]), np.int64, int(splits[-1]))


_decode_op = defop("UnicodeDecode", lambda x, **p: _decode_fwd(x, offsets=False, op="UnicodeDecode", **p),
                   nout=2, nondiff=True)
_decode_offsets_op = defop("UnicodeDecodeWithOffsets",
                           lambda x, **p: _decode_fwd(x, offsets=True, op="UnicodeDecodeWithOffsets", **p),
                           nout=3, nondiff=True)


def _decode_call(op: Any, input: Any, input_encoding: str, errors: str, replacement_char: Any,  # noqa: A002
                 replace_control_characters: Any, name: str) -> tuple:
    x = _strings_in(input, name)
    p = {"codec": _in_codec(input_encoding, name), "errors": _check_errors(errors),
         "rc": _check_replacement(replacement_char, name), "ctrl": builtins.bool(replace_control_characters)}
    nd = x._value.ndim
    if nd > 1:
        raise ValueError(f"{name} takes a scalar or a vector of strings here, got rank {nd} "
                         "(tf.strings' version takes any rank).")
    out = apply(op, (x[None] if nd == 0 else x,), p)
    if nd == 0:
        return (out[0],) + tuple(out[2:])
    return (Rows(out[0], out[1]),) + tuple(Rows(o, out[1]) for o in out[2:])


def unicode_decode(input: Any, input_encoding: str, errors: str = "replace",  # noqa: A002
                   replacement_char: int = 65533, replace_control_characters: builtins.bool = False,
                   name: Any = None) -> Any:
    """The code points (int32) of each string: a Tensor for a scalar, :class:`Rows` for a vector.

    ``errors``: an invalid byte sequence is an error (``"strict"``), ``replacement_char``
    (``"replace"``) or dropped (``"ignore"``); ``replace_control_characters`` treats C0 control
    characters (below U+0020) likewise (replaced, or dropped with ``"ignore"``).

    >>> import tapegrad as tf
    >>> tf.strings.unicode_decode(b"a\\xffb", "UTF-8").numpy()
    array([   97, 65533,    98], dtype=int32)
    """
    return _decode_call(_decode_op, input, input_encoding, errors, replacement_char, replace_control_characters,
                        "UnicodeDecode")[0]


def unicode_decode_with_offsets(input: Any, input_encoding: str, errors: str = "replace",  # noqa: A002
                                replacement_char: int = 65533, replace_control_characters: builtins.bool = False,
                                name: Any = None) -> tuple:
    """:func:`unicode_decode`, and the byte offset (int64) in the string where each character starts.

    >>> import tapegrad as tf
    >>> cps, offsets = tf.strings.unicode_decode_with_offsets("aé!", "UTF-8")
    >>> offsets.numpy()
    array([0, 1, 3])
    """
    return _decode_call(_decode_offsets_op, input, input_encoding, errors, replacement_char,
                        replace_control_characters, "UnicodeDecodeWithOffsets")


def unicode_split(input: Any, input_encoding: str, errors: str = "replace",  # noqa: A002
                  replacement_char: int = 65533, name: Any = None) -> Any:
    """Each string split into its characters, each written back in ``input_encoding`` (which must
    then be one of ``unicode_encode``'s): a Tensor for a scalar, :class:`Rows` for a vector."""
    return unicode_split_with_offsets(input, input_encoding, errors, replacement_char)[0]


def _split_fwd(x: np.ndarray, codec: str, errors: str, rc: int, out: str) -> tuple:
    cps, splits, offsets = _decode_fwd(x, codec, errors, rc, False, True, "UnicodeSplit")
    chars = np.array([chr(c).encode(out) if _valid(c) else "\ufffd".encode(out) for c in cps.tolist()] + [b""],
                     dtype=object)[:-1]
    return chars, splits, offsets


# (TF composes it of UnicodeDecodeWithOffsets and UnicodeEncode; one op here, as the number of
# characters is known only from the values)
_split_op = defop("UnicodeSplit", _split_fwd, nout=3, nondiff=True)


def unicode_split_with_offsets(input: Any, input_encoding: str, errors: str = "replace",  # noqa: A002
                               replacement_char: int = 65533, name: Any = None) -> tuple:
    """:func:`unicode_split`, and the byte offset (int64) where each character starts."""
    out = _out_codec(input_encoding)
    x = _strings_in(input, "UnicodeSplit")
    p = {"codec": _in_codec(input_encoding, "UnicodeSplit"), "errors": _check_errors(errors),
         "rc": _check_replacement(replacement_char, "UnicodeSplit"), "out": out}
    nd = x._value.ndim
    if nd > 1:
        raise ValueError(f"unicode_split takes a scalar or a vector of strings here, got rank {nd} "
                         "(tf.strings' version takes any rank).")
    chars, splits, offsets = apply(_split_op, (x[None] if nd == 0 else x,), p)
    return (chars, offsets) if nd == 0 else (Rows(chars, splits), Rows(offsets, splits))


def _valid(c: int) -> builtins.bool:
    return 0 <= c <= 0x10FFFF and not 0xD800 <= c <= 0xDFFF


def _encode_row(cps: Any, codec: str, errors: str, rc: int) -> bytes:
    out = []
    for c in cps:
        c = int(c)
        if _valid(c):
            out.append(chr(c))
        elif errors == "strict":
            raise InvalidArgumentError(f"Code point is out of range for Unicode, or is a surrogate: {c} "
                                       "(errors='replace' or 'ignore' accepts it) [Op:UnicodeEncode]")
        elif errors == "replace":
            out.append(chr(rc if _valid(rc) else 0xFFFD))
    return "".join(out).encode(codec)


def _unicode_encode_fwd(values: np.ndarray, splits: np.ndarray, codec: str, errors: str, rc: int) -> np.ndarray:
    out = np.empty(splits.shape[0] - 1, dtype=object)
    for i, (a, b) in enumerate(zip(splits[:-1], splits[1:])):
        out[i] = _encode_row(values[a:b], codec, errors, rc)
    return out


_unicode_encode = _op("UnicodeEncode", _unicode_encode_fwd)


@constant_maker  # (row splits from shapes)
def unicode_encode(input: Any, output_encoding: str, errors: str = "replace",  # noqa: A002
                   replacement_char: int = 65533, name: Any = None) -> Tensor:
    """Code points (int32) to strings in ``output_encoding`` (``"UTF-8"``, ``"UTF-16-BE"`` or
    ``"UTF-32-BE"``): each innermost row of ``input`` (a Tensor of rank >= 1, or a :class:`Rows`
    from :func:`unicode_decode`) becomes one string. An invalid code point (negative, past
    U+10FFFF, or a surrogate) is an error, ``replacement_char`` or dropped (``errors``).

    >>> import tapegrad as tf
    >>> tf.strings.unicode_encode([104, 105], "UTF-8").numpy()
    b'hi'
    """
    p = {"codec": _out_codec(output_encoding), "errors": _check_errors(errors),
         "rc": _check_replacement(replacement_char, "UnicodeEncode")}
    if isinstance(input, Rows):
        return apply(_unicode_encode, (_code_points(input.values, "UnicodeEncode"), input.row_splits), p)
    x = _code_points(input, "UnicodeEncode")
    v = x._value
    if v.ndim == 0:
        raise ValueError("input_tensor's rank must be at least 1: unicode_encode writes each innermost row of "
                         "code points as one string (wrap a single code point in a list).")
    width = v.shape[-1]
    rows = int(np.prod(v.shape[:-1], dtype=np.int64))
    splits = _wrap(np.arange(rows + 1, dtype=np.int64) * width)
    flat = apply(_unicode_encode, (reshape(x, (-1,)), splits), p)
    return flat[0] if v.ndim == 1 else reshape(flat, v.shape[:-1])


def _code_points(x: Any, op: str) -> Tensor:
    t = as_tensor(x)
    if t._value.dtype != np.int32:
        raise InvalidArgumentError(f"{op} takes int32 code points, got {t.dtype.name}: cast them with "
                                   f"tf.cast(x, tf.int32) [Op:{op}]")
    return t


def _transcode1(s: bytes, codec: str, out: str, errors: str, rc: int, ctrl: builtins.bool) -> bytes:
    cps = _decode1(s, codec, errors, rc, ctrl, "UnicodeTranscode")[0]
    return "".join(chr(c) if _valid(c) else "\ufffd" for c in cps).encode(out)


_transcode = _op("UnicodeTranscode", lambda x, **p: _each(lambda s: _transcode1(s, **p), x))
_vmap.register(_transcode, _vmap.broadcasting)


def unicode_transcode(input: Any, input_encoding: str, output_encoding: str, errors: str = "replace",  # noqa: A002
                      replacement_char: int = 65533, replace_control_characters: builtins.bool = False,
                      name: Any = None) -> Tensor:
    """Each string read in ``input_encoding`` and written in ``output_encoding`` (``"UTF-8"``,
    ``"UTF-16-BE"`` or ``"UTF-32-BE"``), any shape; ``errors``, ``replacement_char`` and
    ``replace_control_characters`` as in :func:`unicode_decode`.

    >>> import tapegrad as tf
    >>> tf.strings.unicode_transcode(["é"], "UTF-8", "UTF-16-BE").numpy()
    array([b'\\x00\\xe9'], dtype=object)
    """
    x = _strings_in(input, "UnicodeTranscode")
    p = {"codec": _in_codec(input_encoding, "UnicodeTranscode"), "out": _out_codec(output_encoding),
         "errors": _check_errors(errors), "rc": _check_replacement(replacement_char, "UnicodeTranscode"),
         "ctrl": builtins.bool(replace_control_characters)}
    return apply(_transcode, (x,), p)


_STARTS, _SCRIPTS = np.asarray(_unicode_scripts.STARTS, np.int64), np.asarray(_unicode_scripts.SCRIPTS, np.int32)


def _script_fwd(x: np.ndarray) -> np.ndarray:
    out = _SCRIPTS[np.clip(np.searchsorted(_STARTS, x, side="right") - 1, 0, None)]
    return np.where((x < 0) | (x > 0x10FFFF), np.int32(-1), out)


_script = _op("UnicodeScript", _script_fwd)
_vmap.register(_script, _vmap.broadcasting)


def unicode_script(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """The Unicode script of each code point (int32), as ICU's ``UScriptCode`` numbers it
    (0 Common, 1 Inherited, 8 Cyrillic, 17 Han, 25 Latin, 103 Unknown; -1 for a value that is no
    code point). The table is TensorFlow's (tools/record_unicode_scripts.py).

    >>> import tapegrad as tf
    >>> tf.strings.unicode_script([33464, 1041, 65]).numpy()
    array([17,  8, 25], dtype=int32)
    """
    return apply(_script, (_code_points(input, "UnicodeScript"),), {})


# --------------------------------------------------------------------------- hashing
_hash_fast = _op("StringToHashBucketFast", lambda x, num_buckets: _each(
    lambda s: _fingerprint.fingerprint64(s) % num_buckets, x, out=np.int64))
_vmap.register(_hash_fast, _vmap.broadcasting)
_hash_legacy = _op("StringToHashBucket", lambda x, num_buckets: _each(
    lambda s: _fingerprint.hash64(s) % num_buckets, x, out=np.int64))
_vmap.register(_hash_legacy, _vmap.broadcasting)
_hash_strong = _op("StringToHashBucketStrong", lambda x, num_buckets, key: _each(
    lambda s: _fingerprint.siphash(key, s) % num_buckets, x, out=np.int64))
_vmap.register(_hash_strong, _vmap.broadcasting)


def _buckets(num_buckets: Any) -> int:
    n = int(num_buckets)
    if n < 1:
        raise InvalidArgumentError(f"num_buckets must be >= 1, got {n}.")
    return n


def to_hash_bucket_fast(input: Any, num_buckets: int, name: Any = None) -> Tensor:  # noqa: A002
    """Each string's bucket in ``[0, num_buckets)`` (int64): FarmHash's ``Fingerprint64`` of the
    bytes modulo ``num_buckets``, exactly TensorFlow's numbers.

    >>> import tapegrad as tf
    >>> tf.strings.to_hash_bucket_fast(["hello world", "x"], 1000).numpy()
    array([ 11, 970])
    """
    return apply(_hash_fast, (_strings_in(input, "StringToHashBucketFast"),), {"num_buckets": _buckets(num_buckets)})


def to_hash_bucket_strong(input: Any, num_buckets: int, key: Sequence[int], name: Any = None) -> Tensor:  # noqa: A002
    """Each string's bucket in ``[0, num_buckets)`` (int64) by SipHash-2-4 keyed with ``key``
    (two ints), exactly TensorFlow's numbers."""
    k = [int(v) for v in key]
    if len(k) != 2:
        raise InvalidArgumentError(f"Key must have 2 elements, got {len(k)}.")
    return apply(_hash_strong, (_strings_in(input, "StringToHashBucketStrong"),),
                 {"num_buckets": _buckets(num_buckets), "key": (k[0], k[1])})


def to_hash_bucket(string_tensor: Any, num_buckets: int, name: Any = None) -> Tensor:
    """Each string's bucket in ``[0, num_buckets)`` (int64) by TensorFlow's own ``Hash64`` (the
    older hash; TensorFlow recommends :func:`to_hash_bucket_fast`), exactly TensorFlow's numbers."""
    return apply(_hash_legacy, (_strings_in(string_tensor, "StringToHashBucket"),),
                 {"num_buckets": _buckets(num_buckets)})


# ---- Keras's vocabulary lookups and category encoding (keras.layers.StringLookup, TextVectorization,
# CategoryEncoding): registered ops, so that a traced call is data (an exported model saves its table)
def _encode_fwd(ids: np.ndarray, *rest: np.ndarray, mode: str, depth: int, dtype: str,
                ragged: bool) -> np.ndarray:
    """Bincount of ``ids`` per row into ``depth`` bins (Keras's ``encode_categorical_inputs``):
    rows are a ragged tensor's rows, a matrix's rows, or a vector's whole; ids outside
    ``[0, depth)`` (the mask) are dropped. ``rest``: the row splits, then count weights."""
    weights = rest[-1] if len(rest) > ragged else None
    if mode == "one_hot" and not ragged:  # each id its own row: (..., 1) and (...) give (..., depth)
        ids = ids.reshape(ids.shape[:-1] if ids.ndim > 1 and ids.shape[-1] == 1 else ids.shape or (1,))
        out = (ids[..., None] == np.arange(depth)).astype(dtype)
        return out
    if ragged:
        splits = rest[0]
        rows, n, shape = np.repeat(np.arange(splits.size - 1), np.diff(splits)), splits.size - 1, None
    else:
        if ids.ndim == 0:
            ids = ids[None]
            weights = None if weights is None else weights[None]
        if ids.ndim > 2:
            raise ValueError(f"When output_mode is not `'int'`, maximum supported output rank is 2. "
                             f"Received output_mode {mode} and input shape {ids.shape}, "
                             f"which would result in output rank {ids.ndim}.")
        shape = None if ids.ndim == 2 else (depth,)
        n = ids.shape[0] if ids.ndim == 2 else 1
        rows = np.repeat(np.arange(n), ids.shape[-1]) if ids.ndim == 2 else np.zeros(ids.size, np.intp)
    flat = ids.reshape(-1)
    if flat.size and flat.min() < 0:  # (a lookup's ids never are; one_hot gives a zero row)
        raise InvalidArgumentError(f"Input 'in' must be non-negative! Negative input value found: "
                                   f"{flat.min()}. CategoryEncoding counts ids in [0, num_tokens={depth}).")
    keep = flat < depth
    out = np.zeros((n, depth), np.float64 if weights is not None else np.int64)
    np.add.at(out, (rows[keep], flat[keep].astype(np.intp)),
              1 if weights is None else weights.reshape(-1)[keep])
    if mode == "multi_hot":
        out = np.minimum(out, 1)
    out = out.astype(weights.dtype if weights is not None else dtype)
    return out.reshape(shape) if shape else out


def _table_lookup_fwd(x: np.ndarray, *, keys: np.ndarray, ids: np.ndarray, mask_key: Any, mask_id: int,
                      oov_id: int) -> np.ndarray:
    """Each key's id in the table ``keys`` (sorted; bytes as a NumPy ``S`` array, or int64) ->
    ``ids``; ``mask_key`` -> ``mask_id``; any other key -> ``oov_id`` (-1: an error)."""
    flat = x.reshape(-1)
    probe = np.array(flat.tolist(), dtype="S" if keys.dtype.kind == "S" else np.int64) if flat.size \
        else np.zeros(0, keys.dtype)
    out = np.full(flat.size, oov_id, np.int64)
    found = np.zeros(flat.size, bool)
    if keys.size:
        at = np.minimum(np.searchsorted(keys, probe), keys.size - 1)
        found = keys[at] == probe
        out[found] = ids[at[found]]
    if mask_key is not None:
        mask = probe == np.array(mask_key, probe.dtype)
        out[mask] = mask_id
        found |= mask
    if oov_id < 0 and not found.all():
        shown = " ".join(repr(k.decode("utf-8", "replace") if isinstance(k, bytes) else int(k))
                         for k in probe[~found][:3])
        raise InvalidArgumentError("When `num_oov_indices=0` all inputs should be in vocabulary, "
                                   f"found OOV values [{shown}], consider setting `num_oov_indices=1`.")
    return out.reshape(x.shape)


table_lookup_op = defop("LookupTableFind", _table_lookup_fwd, nondiff=True)
encode_categorical_op = defop("EncodeCategorical", _encode_fwd, nondiff=True)
_vmap.register(table_lookup_op, _vmap.broadcasting)


def _table_find_fwd(x: np.ndarray, *, keys: np.ndarray, lengths: np.ndarray | None, values: np.ndarray,
                    default: np.ndarray, oov_buckets: int) -> np.ndarray:
    """Each key of ``x``'s value in a static table: ``keys`` sorted (bytes as an ``S`` array, with
    their ``lengths``, which ``S`` comparisons ignore trailing zero bytes of), ``values`` beside
    them (``S`` for strings), ``default`` (0-d) for a key not there; with ``oov_buckets`` (a
    ``StaticVocabularyTable``'s), a key not there, or whose value is the default, gets
    ``keys.size + Fingerprint64(key's bytes, or an integer's decimal text) % oov_buckets``."""
    items = x.reshape(-1).tolist()
    strings = values.dtype.kind == "S"
    fill = default.astype(object) if strings else default
    if keys.size:
        probe = np.array(items, dtype="S" if lengths is not None else keys.dtype) if items else keys[:0]
        at = np.minimum(np.searchsorted(keys, probe), keys.size - 1)
        found = keys[at] == probe
        if lengths is not None:
            found &= lengths[at] == np.fromiter(map(len, items), np.int64, len(items))
        out = np.where(found, values[at].astype(object) if strings else values[at], fill)
    else:
        out = np.full(len(items), fill)
    if oov_buckets:
        missing = np.flatnonzero(out == default)
        ids = {k: keys.size + _fingerprint.fingerprint64(k if type(k) is bytes else str(k).encode()) % oov_buckets
               for k in {items[i] for i in missing}}  # (each distinct key hashed once)
        out[missing] = [ids[items[i]] for i in missing]
    return out.reshape(x.shape)


table_find_op = defop("LookupTableFindV2", _table_find_fwd, nondiff=True)
_vmap.register(table_find_op, _vmap.broadcasting)


def table_find(keys: Tensor, table: tuple, oov_buckets: int = 0) -> Tensor:
    """The values of ``keys`` in a static ``tf.lookup`` table, given as ``table``: its sorted keys,
    their lengths (bytes; None for integers), the values beside them and the default value; with
    ``oov_buckets``, the hash buckets after them of the keys not there (a vocabulary's ids)."""
    k, lengths, values, default = table
    return apply(table_find_op, (keys,), {"keys": k, "lengths": lengths, "values": values, "default": default,
                                          "oov_buckets": int(oov_buckets)})
