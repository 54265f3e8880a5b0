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
from .ops.strings import format_op as _format_op
from .ops.strings import (  # noqa: F401
    RaggedTensor, as_string, bytes_split, join, length, lower, ngrams, reduce_join, regex_full_match,
    regex_replace, split, strip, substr, to_hash_bucket, to_hash_bucket_fast, to_hash_bucket_strong, to_number,
    unicode_decode, unicode_encode, unicode_split, unsorted_segment_join, upper,
)



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
