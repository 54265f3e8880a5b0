"""protobuf's text format for tapegrad's messages (``tf.train.Example`` and friends): what
``import google.protobuf.text_format`` gives a program run by ``python -m tapegrad``.

``Parse``/``Merge`` (and ``ParseLines``/``MergeLines``) read the text format into a message,
``MessageToString`` writes it, as protobuf's module does: fields by name, ``:`` optional before a
message, ``{...}`` or ``<...>``, ``[a, b]`` lists, ``,``/``;`` separators, ``#`` comments,
adjacent strings joined, C escapes in strings, decimal, hex and octal integers, ``inf``/``nan``
and an ``f`` suffix for floats, map entries as ``{key: ... value {...}}``. ``Parse`` refuses two
members of a oneof and a message field given twice; ``Merge`` accepts them (the last member wins;
a message is merged). A message that is not tapegrad's (a real protobuf message, when protobuf is
installed) is handed to protobuf's own ``text_format``.

>>> from tapegrad.io import _text_format as text_format
>>> import tapegrad as tf
>>> ex = text_format.Parse('features { feature { key: "n" value { int64_list { value: [7, 0x10] } } } }',
...                        tf.train.Example())
>>> ex.features.feature["n"].int64_list.value
[7, 16]
>>> text_format.MessageToString(ex, as_one_line=True)
'features { feature { key: "n" value { int64_list { value: 7 value: 16 } } } }'
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import math
import re
import sys
from typing import Any, Iterable

from ._proto import _Message

__all__ = ["Error", "ParseError", "Parse", "Merge", "ParseLines", "MergeLines", "MessageToString"]


class Error(Exception):
    """Top-level module error (protobuf's ``text_format.Error``)."""


class ParseError(Error):
    """Text that does not parse into the message, with its 1-based ``line`` and ``column``."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        self._line, self._column = line, column
        super().__init__(f"{line}:{column} : {message}" if line is not None else message)

    def GetLine(self) -> int | None:
        return self._line

    def GetColumn(self) -> int | None:
        return self._column


_SKIP = re.compile(r"(\s|#[^\n]*)*")
_TOKEN = re.compile("|".join([
    r"[A-Za-z_][0-9A-Za-z_+-]*",                       # identifiers (and inf, nan, true)
    r"(?:[0-9+-]|\.[0-9])[0-9A-Za-z_.+-]*",             # numbers, as protobuf's tokenizer reads them
    r'"(?:[^"\n\\]|\\.)*(?:"|\\?$)', r"'(?:[^'\n\\]|\\.)*(?:'|\\?$)",  # strings
    r"."]), re.S)
_ESCAPE = {"n": b"\n", "r": b"\r", "t": b"\t", "a": b"\a", "b": b"\b", "f": b"\f", "v": b"\v",
           "\\": b"\\", "'": b"'", '"': b'"', "?": b"?"}
_INF = re.compile(r"-?inf(inity)?f?", re.I)
_NAN = re.compile(r"-?nanf?", re.I)


class _Tokens:
    def __init__(self, text: str) -> None:
        self._text = text
        self._tokens: list = []
        i = _SKIP.match(text, 0).end()
        while i < len(text):
            m = _TOKEN.match(text, i)
            self._tokens.append((m.group(), i))
            i = _SKIP.match(text, m.end()).end()
        self._i = 0

    def _where(self, pos: int) -> tuple[int, int]:
        line = self._text.count("\n", 0, pos)
        return line + 1, pos - (self._text.rfind("\n", 0, pos) + 1) + 1

    def error(self, message: str, previous: bool = True) -> ParseError:
        k = self._i - 1 if previous and self._i > 0 else self._i
        pos = self._tokens[k][1] if k < len(self._tokens) else len(self._text)
        return ParseError(message, *self._where(pos))

    def peek(self) -> str | None:
        return self._tokens[self._i][0] if self._i < len(self._tokens) else None

    def next(self) -> str:
        tok = self.peek()
        if tok is None:
            raise self.error("Unexpected end of input.", previous=False)
        self._i += 1
        return tok

    def try_consume(self, tok: str) -> bool:
        if self.peek() == tok:
            self._i += 1
            return True
        return False

    def consume(self, tok: str) -> None:
        if not self.try_consume(tok):
            raise self.error(f'Expected "{tok}".', previous=False)

    def string(self) -> bytes:
        """One or more adjacent quoted strings, unescaped, as bytes."""
        tok = self.peek()
        if tok is None or tok[0] not in "'\"":
            raise self.error("Expected string.", previous=False)
        out = b""
        while tok is not None and tok[0] in "'\"":
            self.next()
            if len(tok) < 2 or tok[-1] != tok[0]:
                raise self.error("String missing ending quote: " + tok)
            out += self._unescape(tok[1:-1])
            tok = self.peek()
        return out

    def _unescape(self, s: str) -> bytes:
        out, i = bytearray(), 0
        while i < len(s):
            c = s[i]
            if c != "\\":
                out += c.encode("utf-8")
                i += 1
                continue
            e = s[i + 1]
            if e in _ESCAPE:
                out += _ESCAPE[e]
                i += 2
            elif e in "01234567":
                m = re.match(r"[0-7]{1,3}", s[i + 1:])
                out.append(int(m.group(), 8) & 0xFF)
                i += 1 + len(m.group())
            elif e == "x":
                m = re.match(r"[0-9A-Fa-f]{1,2}", s[i + 2:])
                if m is None:
                    raise self.error("Invalid escape sequence: \\x")
                out.append(int(m.group(), 16))
                i += 2 + len(m.group())
            elif e in "uU":
                n = 4 if e == "u" else 8
                h = s[i + 2:i + 2 + n]
                if not re.fullmatch(f"[0-9A-Fa-f]{{{n}}}", h):
                    raise self.error(f"Invalid escape sequence: \\{e}{h}")
                out += chr(int(h, 16)).encode("utf-8")
                i += 2 + n
            else:
                raise self.error(f"Invalid escape sequence: \\{e}")
        return bytes(out)

    def integer(self) -> int:
        tok = self.next()
        body = tok[1:] if tok[:1] in "+-" else tok
        try:
            if re.fullmatch(r"0[xX][0-9A-Fa-f]+", body):
                n = int(body, 16)
            elif re.fullmatch(r"0[0-7]+", body):
                n = int(body, 8)
            elif re.fullmatch(r"0|[1-9][0-9]*", body):
                n = int(body)
            else:
                raise ValueError
        except ValueError:
            raise self.error(f"Couldn't parse integer: {tok}") from None
        n = -n if tok.startswith("-") else n
        if not -(1 << 63) <= n < (1 << 63):
            raise self.error(f"Integer out of range: {tok}")
        return n

    def float(self) -> float:
        tok = self.next()
        if _INF.fullmatch(tok):
            return -math.inf if tok.startswith("-") else math.inf
        if _NAN.fullmatch(tok):
            return math.nan
        for text in (tok, tok[:-1] if tok[-1:] in "fF" else None):
            if text is not None and re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", text):
                return float(text)
        raise self.error(f"Couldn't parse float: {tok}")


def _merge_message(tokens: _Tokens, message: _Message, end: str | None, merge: bool) -> None:
    while not (tokens.peek() is None if end is None else tokens.try_consume(end)):
        if end is not None and tokens.peek() is None:
            raise tokens.error(f'Expected "{end}".', previous=False)
        _merge_field(tokens, message, merge)
        if not tokens.try_consume(","):
            tokens.try_consume(";")


def _merge_field(tokens: _Tokens, message: _Message, merge: bool) -> None:
    name = tokens.next()
    field = message._BY_NAME.get(name)
    if field is None:
        raise tokens.error(f'Message type "{message._FULL_NAME}" has no field named "{name}".')
    _, _, kind, typ = field
    if not merge and name in message._ONEOF:
        which = message.WhichOneof("kind")
        if which is not None and which != name:
            raise tokens.error(f'Field "{name}" is specified along with field "{which}", another member of '
                               f'oneof "kind" for message type "{message._FULL_NAME}".')
    if kind in ("message", "map", "messages"):
        tokens.try_consume(":")
        if tokens.try_consume("["):  # a list of messages
            while not tokens.try_consume("]"):
                _merge_submessage(tokens, message, name, kind, typ, merge)
                if tokens.peek() != "]":
                    tokens.consume(",")
        else:
            _merge_submessage(tokens, message, name, kind, typ, merge)
        return
    tokens.consume(":")
    read = {"bytes*": tokens.string, "int64*": tokens.integer, "float*": tokens.float}[kind]
    values = getattr(message, name)
    if tokens.try_consume("["):
        while not tokens.try_consume("]"):
            values.append(read())
            if tokens.peek() != "]":
                tokens.consume(",")
    else:
        values.append(read())


def _merge_submessage(tokens: _Tokens, message: _Message, name: str, kind: str, typ: type, merge: bool) -> None:
    end = ">" if tokens.try_consume("<") else (tokens.consume("{"), "}")[1]
    if kind == "map":  # an entry: {key: "..." value {...}}
        key, value = "", typ()
        while not tokens.try_consume(end):
            part = tokens.next()
            if part == "key":
                tokens.consume(":")
                key = tokens.string().decode("utf-8")
            elif part == "value":
                tokens.try_consume(":")
                inner = ">" if tokens.try_consume("<") else (tokens.consume("{"), "}")[1]
                _merge_message(tokens, value, inner, merge)
            else:
                raise tokens.error(f'Message type "{message._FULL_NAME}.{typ.__name__}Entry" has no field '
                                   f'named "{part}".')
            if not tokens.try_consume(","):
                tokens.try_consume(";")
        getattr(message, name)[key] = value
        return
    if kind == "messages":
        _merge_message(tokens, getattr(message, name).add(), end, merge)
        return
    if not merge and message.HasField(name):
        raise tokens.error(f'Message type "{message._FULL_NAME}" should not have multiple "{name}" fields.')
    sub = getattr(message, name)
    sub._touch()  # (set in its parent even if empty: protobuf's SetInParent)
    _merge_message(tokens, sub, end, merge)


def _protobuf() -> Any:
    """protobuf's own ``text_format`` module (for its messages), loaded without this stand-in."""
    package = sys.modules.get("google.protobuf")
    spec = None if package is None else importlib.machinery.PathFinder.find_spec(
        "google.protobuf.text_format", package.__path__)
    if spec is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _theirs(message: Any, what: str) -> Any:
    """protobuf's own function ``what`` for a message that is not tapegrad's (None for one that
    is), its errors raised as this module's :class:`ParseError`, which the program catches."""
    if isinstance(message, _Message):
        return None
    real = _protobuf()
    if real is None:
        raise TypeError(f"text_format.{what} needs a protocol message (tf.train.Example, ...); got "
                        f"{type(message).__name__}.")

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return getattr(real, what)(*args, **kwargs)
        except real.ParseError as e:
            raise ParseError(str(e)) from e
        except real.Error as e:
            raise Error(str(e)) from e
    return call


def Merge(text: str | bytes, message: Any, allow_unknown_extension: bool = False, allow_field_number: bool = False,
          descriptor_pool: Any = None, allow_unknown_field: bool = False) -> Any:
    """Merge the text format ``text`` into ``message`` and return it (repeated fields are appended
    to, a field given twice is accepted)."""
    theirs = _theirs(message, "Merge")
    if theirs is not None:
        return theirs(text, message, allow_unknown_extension, allow_field_number, descriptor_pool,
                      allow_unknown_field)
    return MergeLines(text.decode("utf-8") if isinstance(text, bytes) else text, message)


def Parse(text: str | bytes, message: Any, allow_unknown_extension: bool = False, allow_field_number: bool = False,
          descriptor_pool: Any = None, allow_unknown_field: bool = False) -> Any:
    """Parse the text format ``text`` into ``message`` and return it; as protobuf, the message is
    not cleared first, and a oneof's second member or a message field given twice is a ParseError."""
    theirs = _theirs(message, "Parse")
    if theirs is not None:
        return theirs(text, message, allow_unknown_extension, allow_field_number, descriptor_pool,
                      allow_unknown_field)
    return ParseLines((text.decode("utf-8") if isinstance(text, bytes) else text).split("\n"), message)


def _lines(lines: Iterable | str, message: Any, merge: bool) -> Any:
    text = lines if isinstance(lines, str) else "\n".join(
        x.decode("utf-8") if isinstance(x, bytes) else x for x in lines)
    _merge_message(_Tokens(text), message, None, merge)
    return message


def ParseLines(lines: Iterable, message: Any, allow_unknown_extension: bool = False,
               allow_field_number: bool = False, descriptor_pool: Any = None,
               allow_unknown_field: bool = False) -> Any:
    """:func:`Parse` of text given as lines."""
    theirs = _theirs(message, "ParseLines")
    if theirs is not None:
        return theirs(lines, message, allow_unknown_extension, allow_field_number, descriptor_pool,
                      allow_unknown_field)
    return _lines(lines, message, merge=False)


def MergeLines(lines: Iterable, message: Any, allow_unknown_extension: bool = False,
               allow_field_number: bool = False, descriptor_pool: Any = None,
               allow_unknown_field: bool = False) -> Any:
    """:func:`Merge` of text given as lines."""
    theirs = _theirs(message, "MergeLines")
    if theirs is not None:
        return theirs(lines, message, allow_unknown_extension, allow_field_number, descriptor_pool,
                      allow_unknown_field)
    return _lines(lines, message, merge=True)


def MessageToString(message: Any, as_utf8: bool = False, as_one_line: bool = False, **kwargs: Any) -> str:
    """The text format of ``message`` (one field a line, or ``as_one_line``); ``as_utf8`` and the
    other printing options of protobuf are not supported for tapegrad's messages."""
    theirs = _theirs(message, "MessageToString")
    if theirs is not None:
        return theirs(message, as_utf8=as_utf8, as_one_line=as_one_line, **kwargs)
    if as_utf8 or kwargs:
        raise NotImplementedError(f"MessageToString's options {['as_utf8'] * as_utf8 + sorted(kwargs)} are not "
                                  "supported for tapegrad's messages.")
    lines = message._text(0, python=True)
    if as_one_line:
        return " ".join(line.strip() for line in lines)
    return "".join(line + "\n" for line in lines)
