"""``tapegrad.bitwise``: TensorFlow's ``tf.bitwise`` (and, or, xor, invert, shifts) on integer tensors.

Both operands take one integer dtype (int8 ... uint64; a Python value takes the tensor's), and
broadcast. A shift amount below 0 or not below the width is clamped to ``[0, bits - 1]``, as
TensorFlow's kernels do; ``right_shift`` is arithmetic on signed types. No gradient (integers).

>>> import tapegrad as tf
>>> tf.bitwise.bitwise_and(tf.constant([12, 10]), 6).numpy()
array([4, 2], dtype=int32)
>>> tf.bitwise.left_shift(tf.constant([1], tf.int8), tf.constant([9], tf.int8)).numpy()  # clamped to 7
array([-128], dtype=int8)
"""
from __future__ import annotations

from typing import Any

from ._convert import binary_operands, convert_to_tensor
from ._dispatch import apply
from ._tensor import Tensor
from .errors import InvalidArgumentError
from .ops import math as _m

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"]

_ALLOWED = "int8, int16, int32, int64, uint8, uint16, uint32, uint64"


def _integer(t: Tensor, opname: str) -> Tensor:
    if t._value.dtype.kind not in "iu":
        raise InvalidArgumentError(f"Value for attr 'T' of {t.dtype.name} is not in the list of allowed values: "
                                   f"{_ALLOWED} [Op:{opname}] (cast with tf.cast to an integer dtype)")
    return t


def _binary(op: Any, x: Any, y: Any) -> Tensor:
    a, b = binary_operands(x, y, op.name)
    return apply(op, (_integer(a, op.name), _integer(b, op.name)))


def bitwise_and(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise ``x & y`` of two integer tensors.

    >>> import tapegrad as tf
    >>> tf.bitwise.bitwise_and(tf.constant([5], tf.uint8), tf.constant([3], tf.uint8)).numpy()
    array([1], dtype=uint8)
    """
    return _binary(_m.bitwise_and_op, x, y)


def bitwise_or(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise ``x | y`` of two integer tensors.

    >>> import tapegrad as tf
    >>> tf.bitwise.bitwise_or(tf.constant([5]), 3).numpy()
    array([7], dtype=int32)
    """
    return _binary(_m.bitwise_or_op, x, y)


def bitwise_xor(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise ``x ^ y`` of two integer tensors.

    >>> import tapegrad as tf
    >>> tf.bitwise.bitwise_xor(tf.constant([5]), 3).numpy()
    array([6], dtype=int32)
    """
    return _binary(_m.bitwise_xor_op, x, y)


def invert(x: Any, name: str | None = None) -> Tensor:
    """Elementwise ``~x`` (every bit flipped) of an integer tensor.

    >>> import tapegrad as tf
    >>> tf.bitwise.invert(tf.constant([0, 255], tf.uint8)).numpy()
    array([255,   0], dtype=uint8)
    """
    t = _integer(convert_to_tensor(x), "Invert")
    return apply(_m.invert_op, (t,))


def left_shift(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise ``x << y``; a shift outside ``[0, bits - 1]`` is clamped into it (TF's kernel).

    >>> import tapegrad as tf
    >>> tf.bitwise.left_shift(tf.constant([1, 3]), tf.constant([4, 1])).numpy()
    array([16,  6], dtype=int32)
    """
    return _binary(_m.left_shift_op, x, y)


def right_shift(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise ``x >> y``, arithmetic for signed types; a shift outside ``[0, bits - 1]`` is
    clamped into it (TF's kernel: -1 >> 99 is -1).

    >>> import tapegrad as tf
    >>> tf.bitwise.right_shift(tf.constant([-16, 16]), 2).numpy()
    array([-4,  4], dtype=int32)
    """
    return _binary(_m.right_shift_op, x, y)
