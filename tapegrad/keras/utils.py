"""``tapegrad.keras.utils``: ``set_random_seed``, ``to_categorical``, ``normalize`` and
``pad_sequences``, with Keras 3's arguments and results.

>>> from tapegrad import keras
>>> keras.utils.to_categorical([0, 2, 1])
array([[1., 0., 0.],
       [0., 0., 1.],
       [0., 1., 0.]])
"""
from __future__ import annotations

import random as _pyrandom
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from .._tensor import Tensor
from ..ops.array import one_hot, reshape
from ..ops.math import maximum
from ..ops.reduction import reduce_sum
from ..random import set_seed as _set_tf_seed
from .losses import _EPSILON, _l2_normalize, _missing_name

__all__ = ["set_random_seed", "to_categorical", "normalize", "pad_sequences"]


def set_random_seed(seed: int) -> None:
    """Seed every random generator a Keras program draws from: Python's ``random``, NumPy's global
    generator and ``tf.random`` (``tf.random.set_seed``), so that a program gives the same numbers
    on every run.

    >>> import numpy as np
    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.utils.set_random_seed(7); a = np.random.rand(), tf.random.uniform([2]).numpy()
    >>> keras.utils.set_random_seed(7); b = np.random.rand(), tf.random.uniform([2]).numpy()
    >>> a[0] == b[0] and bool((a[1] == b[1]).all())
    True
    """
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed!r} "
                         f"(of type {type(seed).__name__})")
    _pyrandom.seed(int(seed))
    np.random.seed(int(seed))
    _set_tf_seed(int(seed))


def to_categorical(x: Any, num_classes: int | None = None) -> Any:
    """One-hot rows for the integer class labels ``x`` (a trailing axis of length 1 is dropped):
    a float64 NumPy array for array-like input, a float32 tensor for a tensor.
    ``num_classes`` defaults to the largest label plus one.

    >>> from tapegrad import keras
    >>> keras.utils.to_categorical([[1], [3]], num_classes=4)
    array([[0., 1., 0., 0.],
           [0., 0., 0., 1.]])
    """
    if isinstance(x, Tensor):
        shape = x.shape.as_list()
        if len(shape) > 1 and shape[-1] == 1:
            x = reshape(x, shape[:-1])
        depth = num_classes if num_classes else int(np.max(x.numpy())) + 1
        return one_hot(x, depth)
    labels = np.array(x, dtype="int64")
    shape = labels.shape
    if len(shape) > 1 and shape[-1] == 1:
        shape = shape[:-1]
    labels = labels.reshape(-1)
    if not num_classes:
        num_classes = int(np.max(labels)) + 1
    if labels.size and (labels.min() < 0 or labels.max() >= num_classes):
        raise ValueError(f"to_categorical: labels must be in [0, {num_classes}) for "
                         f"num_classes={num_classes}; got labels from {labels.min()} to {labels.max()}.")
    out = np.zeros((labels.shape[0], num_classes))
    out[np.arange(labels.shape[0]), labels] = 1
    return out.reshape(shape + (num_classes,))


def normalize(x: Any, axis: int = -1, order: int = 2) -> Any:
    """``x`` divided by its ``order``-norm along ``axis``: a NumPy array for array-like input (zero
    norms left as they are), a tensor for a tensor (on the tape; norms below ``epsilon`` floored).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.utils.normalize(np.array([[3.0, 4.0], [0.0, 0.0]]))
    array([[0.6, 0.8],
           [0. , 0. ]])
    """
    if not isinstance(order, int) or order < 1:
        raise ValueError(f"Argument `order` must be an int >= 1. Received: order={order!r}")
    if isinstance(x, Tensor):
        if order == 2:
            return _l2_normalize(x, axis)
        norm = reduce_sum(abs(x) ** order, axis=axis, keepdims=True) ** (1.0 / order)
        return x / maximum(norm, _EPSILON)
    x = np.asarray(x)
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)


def pad_sequences(sequences: Sequence, maxlen: int | None = None, dtype: Any = "int32",
                  padding: str = "pre", truncating: str = "pre", value: Any = 0.0) -> np.ndarray:
    """Pad (or cut) each sequence to ``maxlen`` (the longest by default) and stack them in a NumPy
    array of ``dtype``. ``padding``/``truncating``: ``"pre"`` (the default) pads or cuts at the
    start, ``"post"`` at the end; padding entries are ``value``.

    >>> from tapegrad import keras
    >>> keras.utils.pad_sequences([[1, 2, 3], [4, 5], [6]], maxlen=2, padding="post")
    array([[2, 3],
           [4, 5],
           [6, 0]], dtype=int32)
    """
    if not hasattr(sequences, "__len__"):
        raise ValueError(f"`sequences` must be iterable. Received: {type(sequences).__name__}")
    if padding not in ("pre", "post"):
        raise ValueError(f'Padding type "{padding}" not understood: use "pre" or "post".')
    if truncating not in ("pre", "post"):
        raise ValueError(f'Truncating type "{truncating}" not understood: use "pre" or "post".')
    lengths, sample_shape = [], None
    for s in sequences:
        if not hasattr(s, "__len__"):
            raise ValueError(f"`sequences` must be a list of iterables. Found non-iterable: {s!r}")
        lengths.append(len(s))
        if sample_shape is None and len(s):
            sample_shape = np.asarray(s).shape[1:]
    sample_shape = sample_shape or ()
    if maxlen is None:
        maxlen = int(np.max(lengths)) if lengths else 0
    if isinstance(value, str) and dtype is not object and not np.issubdtype(dtype, np.str_):
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: {type(value)}\n"
                         "You should set `dtype=object` for variable length strings.")
    out = np.full((len(sequences), maxlen) + sample_shape, value, dtype=dtype)
    for i, s in enumerate(sequences):
        if not len(s) or not maxlen:
            continue
        kept = np.asarray(s[-maxlen:] if truncating == "pre" else s[:maxlen], dtype=dtype)
        if kept.shape[1:] != sample_shape:
            raise ValueError(f"Shape of sample {kept.shape[1:]} of sequence at position {i} is "
                             f"different from expected shape {sample_shape}")
        if padding == "post":
            out[i, :len(kept)] = kept
        else:
            out[i, -len(kept):] = kept
    return out


if not TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "did you mean" for a typo
        raise _missing_name(__name__, name, __all__)
