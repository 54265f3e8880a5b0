"""``tapegrad.strings``: TensorFlow's ``tf.strings`` on ``tf.string`` tensors (NumPy object
arrays of ``bytes``). Nothing here is differentiable. Loads on first use of ``tapegrad.strings``;
docs/strings.md says what exists and how it differs from TensorFlow.

>>> import tapegrad as tf
>>> words = tf.strings.split(tf.strings.lower(["The cat", "A dog ran"]))
>>> words.to_tensor(default_value="").numpy()
array([[b'the', b'cat', b''],
       [b'a', b'dog', b'ran']], dtype=object)
>>> tf.strings.to_hash_bucket_fast(words.values, 100).numpy().tolist()
[54, 96, 39, 12, 73]
"""
import functools as _functools
import typing as _typing
from typing import Any as _Any

from ._convert import as_tensor as _as_tensor
from ._dispatch import apply as _apply
from ._print import format_tensor as _format_tensor
from ._tensor import Tensor as _Tensor
from .ops import strings as _ops
from .ops.strings import format_op as _format_op
from .ops.strings import unsorted_segment_join
from .ragged import RaggedTensor, map_flat_values as _map_flat_values
from .ragged._ops import reduce_rows as _reduce_rows


# --------------------------------------------------------------------------- ragged results
def _ragged(parts: _Any) -> _Any:
    """A splitting op's result: its Tensor, or its Rows as a RaggedTensor."""
    if isinstance(parts, _ops.Rows):
        return RaggedTensor.from_row_splits(parts.values, parts.row_splits, validate=False)
    return parts


def _splitting(fn: _Any) -> _Any:
    """A splitting op with TensorFlow's ranks: a scalar gives a vector, a vector a RaggedTensor of
    its rows, a higher rank (or a RaggedTensor) one more ragged dimension. An op returning a tuple
    (``unicode_decode_with_offsets``) gets each item so."""
    @_functools.wraps(fn)
    def op(input: _Any, *args: _Any, **kwargs: _Any) -> _Any:  # noqa: A002
        if isinstance(input, RaggedTensor):
            out = op(input.flat_values, *args, **kwargs)
            if type(out) is tuple:
                return tuple(input.with_flat_values(o) for o in out)
            return input.with_flat_values(out)
        x = _as_tensor(input)
        if x._value.ndim > 1:
            return op(RaggedTensor.from_tensor(x), *args, **kwargs)
        out = fn(x, *args, **kwargs)
        return tuple(_ragged(o) for o in out) if type(out) is tuple else _ragged(out)
    return op


def _on_values(fn: _Any) -> _Any:
    """An elementwise string op that also maps over a RaggedTensor's values, as TensorFlow's."""
    @_functools.wraps(fn)
    def op(input: _Any, *args: _Any, **kwargs: _Any) -> _Any:  # noqa: A002
        if isinstance(input, RaggedTensor):
            return input.with_flat_values(fn(input.flat_values, *args, **kwargs))
        return fn(input, *args, **kwargs)
    return op


split = _splitting(_ops.split)
bytes_split = _splitting(_ops.bytes_split)
unicode_decode = _splitting(_ops.unicode_decode)
unicode_decode_with_offsets = _splitting(_ops.unicode_decode_with_offsets)
unicode_split = _splitting(_ops.unicode_split)
unicode_split_with_offsets = _splitting(_ops.unicode_split_with_offsets)
unicode_transcode = _on_values(_ops.unicode_transcode)
unicode_script = _on_values(_ops.unicode_script)
as_string = _on_values(_ops.as_string)
length = _on_values(_ops.length)
lower = _on_values(_ops.lower)
upper = _on_values(_ops.upper)
strip = _on_values(_ops.strip)
regex_full_match = _on_values(_ops.regex_full_match)
regex_replace = _on_values(_ops.regex_replace)
substr = _on_values(_ops.substr)
to_number = _on_values(_ops.to_number)
to_hash_bucket = _on_values(_ops.to_hash_bucket)
to_hash_bucket_fast = _on_values(_ops.to_hash_bucket_fast)
to_hash_bucket_strong = _on_values(_ops.to_hash_bucket_strong)


@_functools.wraps(_ops.join)
def join(inputs: _Any, separator: str = "", name: _Any = None) -> _Any:
    items = list(inputs)
    if any(isinstance(x, RaggedTensor) for x in items):  # (elementwise on the values of one partition)
        return _map_flat_values(lambda *vs: _ops.join(list(vs), separator), *items)
    return _ops.join(items, separator)


@_functools.wraps(_ops.ngrams)
def ngrams(data: _Any, ngram_width: _Any, separator: str = " ", pad_values: _Any = None,
           padding_width: _Any = None, preserve_short_sequences: bool = False, name: _Any = None) -> _Any:
    args = (ngram_width, separator, pad_values, padding_width, preserve_short_sequences)
    if isinstance(data, RaggedTensor):
        if isinstance(data.values, RaggedTensor):
            return data.with_values(ngrams(data.values, *args))
        return _ragged(_ops.ngrams(_ops.Rows(data.values, data.row_splits), *args))
    return _ops.ngrams(data, *args)


@_functools.wraps(_ops.reduce_join)
def reduce_join(inputs: _Any, axis: _Any = None, keepdims: bool = False, separator: str = "",
                name: _Any = None) -> _Any:
    if isinstance(inputs, RaggedTensor):  # (TF's ragged dispatch: joins within and across ragged rows)
        return _reduce_rows(_functools.partial(unsorted_segment_join, separator=separator),
                            _functools.partial(_ops.reduce_join, separator=separator), inputs, axis, keepdims)
    return _ops.reduce_join(inputs, axis, keepdims, separator)


@_functools.wraps(_ops.unicode_encode)
def unicode_encode(input: _Any, output_encoding: str, errors: str = "replace",  # noqa: A002
                   replacement_char: int = 65533, name: _Any = None) -> _Any:
    if isinstance(input, RaggedTensor):
        if isinstance(input.values, RaggedTensor):
            return input.with_values(unicode_encode(input.values, output_encoding, errors, replacement_char))
        return _ops.unicode_encode(_ops.Rows(input.values, input.row_splits), output_encoding, errors,
                                   replacement_char)
    return _ops.unicode_encode(input, output_encoding, errors, replacement_char)



def format(template: str, inputs: _Any, placeholder: str = "{}", summarize: int = 3,  # noqa: A001
           name: _Any = None) -> _Tensor:
    """A scalar string: ``template`` with each ``placeholder`` replaced by the next tensor of
    ``inputs``, shown as ``tf.print`` shows it (``summarize`` elements at each end).

    >>> import tapegrad as tf
    >>> tf.strings.format("x={} y={}", (tf.constant(3), tf.constant([1.5, 2.0]))).numpy()
    b'x=3 y=[1.5 2]'
    """
    items = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    ts = [_as_tensor(t) for t in items]
    if template.count(placeholder) != len(ts):
        raise ValueError(f"{template.count(placeholder)} placeholder(s) in template does not match "
                         f"{len(ts)} tensor(s) provided as input")
    render = _functools.partial(_format_tensor, summarize=int(summarize))
    return _apply(_format_op, ts, {"template": template, "placeholder": placeholder, "render": render})


if not _typing.TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "not covered yet" for a TF name, "did you mean" for a typo
        if name.startswith("_"):  # (private and special names: no lookup, no import)
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from ._missing import attribute_error
        raise attribute_error("strings", name)
