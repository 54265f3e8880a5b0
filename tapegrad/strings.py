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
import typing as _typing

from .ops.strings import (  # noqa: F401
    RaggedTensor, as_string, bytes_split, format, join, length, lower, reduce_join, regex_full_match,
    regex_replace, split, strip, substr, to_hash_bucket_fast, to_hash_bucket_strong, to_number,
    unicode_decode, unicode_encode, unicode_split, unsorted_segment_join, upper,
)


if not _typing.TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "not covered yet" for a TF name, "did you mean" for a typo
        if name.startswith("_"):  # (private and special names: no lookup, no import)
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from ._missing import attribute_error
        raise attribute_error("strings", name)
