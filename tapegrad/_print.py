"""``tf.print``: TensorFlow's print, with its format for tensors and nested structures."""
from __future__ import annotations

import logging
import os
import pprint
import sys
from typing import Any

import numpy as np

from . import _variable, nest
from ._tensor import CompositeTensor, Tensor, VariableBase
from .dtypes import string
from ._trace import replayable

__all__ = ["print_", "format_tensor"]

_LOG_LEVELS = {logging.INFO: logging.INFO, logging.WARNING: logging.WARNING,
               logging.ERROR: logging.ERROR, logging.info: logging.INFO,
               logging.warning: logging.WARNING, logging.error: logging.ERROR}


def _float(x: Any, digits: tuple) -> str:
    """The shortest of ``%.<d>g`` for ``d`` in ``digits`` that reads back as ``x`` (TF's way)."""
    if not np.isfinite(x):
        return "nan" if np.isnan(x) else "inf" if x > 0 else "-inf"
    text = ""
    for d in digits:
        text = "%.*g" % (d, x)
        if type(x)(text) == x:
            break
    return text


def _element(a: np.ndarray) -> Any:
    """The function that formats one element of ``a`` as TensorFlow does."""
    kind = a.dtype.kind
    if kind == "f":
        if a.dtype == np.float64:
            return lambda x: _float(x, (15, 17))
        return lambda x: _float(np.float32(x), (6, 9))
    if kind == "b":
        return lambda x: "1" if x else "0"
    if kind in "iu":
        return str
    if kind == "O":
        return lambda x: '"' + _escape(x) + '"'
    return lambda x: "?"


_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"',
            ord("'"): "\\'", ord("\\"): "\\\\"}


def _escape(b: bytes) -> str:
    """Bytes as TF prints them (absl's Utf8SafeCEscape): C escapes for quotes, backslashes and
    control bytes; bytes from 0x80 up as UTF-8 text (an invalid sequence as ``\\xNN``)."""
    out, run = [], bytearray()
    for c in b:
        if c >= 0x80:
            run.append(c)
            continue
        if run:
            out.append(run.decode("utf-8", "backslashreplace"))
            run.clear()
        out.append(_ESCAPES.get(c) or ("\\%03o" % c if c < 0x20 or c == 0x7F else chr(c)))
    if run:
        out.append(run.decode("utf-8", "backslashreplace"))
    return "".join(out)


def _dims(a: np.ndarray, edge: int, fmt: Any, dim: int, index: tuple, out: list) -> None:
    if dim == a.ndim:
        out.append(fmt(a[index]))
        return
    n = a.shape[dim]
    spacing = " " if dim == a.ndim - 1 else "\n" * (a.ndim - dim - 1) + " " * (dim + 1)
    out.append("[")
    for i in range(min(edge, n)):
        if i:
            out.append(spacing)
        _dims(a, edge, fmt, dim + 1, index + (i,), out)
    if n > 2 * edge:
        out.append(spacing + "...")
    for i in range(max(edge, n - edge), n):
        out.append(spacing)
        _dims(a, edge, fmt, dim + 1, index + (i,), out)
    out.append("]")


def format_tensor(value: Any, summarize: int | None = 3) -> str:
    """A tensor as ``tf.print`` shows it: ``summarize`` elements at each end of every dimension
    (``-1``: all), with ``...`` for the rest.

    >>> import tapegrad as tf
    >>> from tapegrad._print import format_tensor
    >>> format_tensor(tf.range(10))
    '[0 1 2 ... 7 8 9]'
    """
    if isinstance(value, CompositeTensor):  # (a RaggedTensor: its own text, TensorFlow's)
        return value._print_text(3 if summarize is None else summarize)
    a = np.asarray(value.numpy() if isinstance(value, (Tensor, VariableBase)) else value)
    if a.dtype.kind == "S":  # (a scalar string tensor's bytes)
        a = a.astype(object)
    if summarize is None:
        summarize = 3
    edge = a.size if summarize < 0 else min(summarize, a.size)
    out: list = []
    _dims(a, edge, _element(a), 0, (), out)
    return "".join(out)


def _is_tensor(x: Any) -> bool:
    return isinstance(x, (Tensor, VariableBase, CompositeTensor))


def _write(text: str, output_stream: Any) -> None:
    if isinstance(output_stream, str):
        with open(output_stream[len("file://"):], "a", encoding="utf-8") as f:
            f.write(text)
    elif output_stream in _LOG_LEVELS:
        logging.getLogger("tapegrad").log(_LOG_LEVELS[output_stream], text.rstrip("\n"))
    else:
        output_stream.write(text)


@replayable  # (a tf.function trace prints at every call, with that call's values)
def print_(*inputs: Any, output_stream: Any = None, summarize: int | None = 3, sep: str = " ",
           end: str = os.linesep, name: str | None = None) -> None:
    """Print tensors and Python values as TensorFlow's ``tf.print`` does.

    Tensors show at most ``summarize`` elements at each end of every dimension (``-1``: all),
    floats with the fewest digits that read back exactly, booleans as ``1``/``0``; Python values
    and nested structures (lists, tuples, dicts) of tensors are shown as
    ``pprint`` shows them, with each tensor in place. ``output_stream``: ``sys.stderr`` (the
    default, ``None``, is the ``sys.stderr`` of the moment of the call), ``sys.stdout``, a file ``"file://<path>"`` (appended to), or a ``logging`` level
    or function (logged to the ``"tapegrad"`` logger). Arguments are separated by ``sep`` and
    followed by ``end``.

    >>> import sys, tapegrad as tf
    >>> tf.print("x:", tf.constant([[1.5, 2.0], [3.0, 0.25]]), output_stream=sys.stdout)
    x: [[1.5 2]
     [3 0.25]]
    >>> tf.print({"n": tf.constant(7), "ok": True}, output_stream=sys.stdout)
    {'n': 7, 'ok': True}
    """
    if _variable.restoring():  # (get_concrete_function's and tf.saved_model.save's trace: a graph in TF)
        return
    if output_stream is None:
        output_stream = sys.stderr
    if len(inputs) == 1 and _is_tensor(inputs[0]) and inputs[0].dtype == string and inputs[0].shape == ():
        # one scalar string tensor is TF's template itself: its text, unquoted and unescaped
        text = inputs[0].numpy().decode("utf-8", "backslashreplace")
        _write(text + end, output_stream)
        return
    if not (output_stream in (sys.stdout, sys.stderr) or output_stream in _LOG_LEVELS
            or isinstance(output_stream, str) and output_stream.startswith("file://")):
        raise ValueError(f"Unsupported output stream, logging level, or file: {output_stream!r}. "
                         "Supported streams are sys.stdout, sys.stderr, logging.info, "
                         "logging.warning, logging.error. A file needs to be given as "
                         "'file://<filepath>'.")
    blank = nest.map_structure(lambda x: "" if _is_tensor(x) else x, list(inputs))
    free = " ".join(pprint.pformat(x) for x in blank)
    ph = "{}"
    while ph in free:
        ph = "{" + ph + "}"
    templates, tensors = [], []
    for x in inputs:
        if isinstance(x, str):
            templates.append(x)
            continue
        leaves = nest.flatten(x)
        tensors += [t for t in leaves if _is_tensor(t)]
        marked = nest.pack_sequence_as(x, [ph if _is_tensor(t) else t for t in leaves])
        templates.append(pprint.pformat(marked))
    parts = sep.join(templates).replace(f"'{ph}'", ph).split(ph)
    text = parts[0] + "".join(format_tensor(t, summarize) + p
                              for t, p in zip(tensors, parts[1:]))
    _write(text + end, output_stream)
