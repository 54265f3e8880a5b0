"""Keras 3's other merge layers: Subtract, Minimum, Maximum, Average, Dot, and their functional
forms (``subtract``, ``minimum``, ``maximum``, ``average``, ``dot``)."""
from __future__ import annotations

from typing import Any

from .._engine import Tensor
from ...ops.array import expand_dims
from ...ops.linalg import einsum
from ...ops.math import (add as _add, maximum as _maximum, minimum as _minimum, multiply, rsqrt, square,
                          subtract as _subtract)
from ...ops.reduction import reduce_sum
from .core import _Merge

__all__ = ["Subtract", "Minimum", "Maximum", "Average", "Dot", "subtract", "minimum", "maximum", "average", "dot"]


class Subtract(_Merge):
    """``inputs[0] - inputs[1]`` for a list of exactly two inputs.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.Subtract()([tf.ones([1, 2]), tf.fill([1, 2], 3.0)]).numpy()
    array([[-2., -2.]], dtype=float32)
    """

    def build(self, input_shape: Any) -> None:
        super().build(input_shape)
        if len(input_shape) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: input_shape={input_shape}")

    def call(self, inputs: Any) -> Tensor:
        if len(inputs) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: inputs={inputs}")
        return super().call(inputs)

    _op = staticmethod(_subtract)


class Minimum(_Merge):
    """The elementwise minimum of a list of inputs of the same (or broadcastable) shape."""
    _op = staticmethod(_minimum)


class Maximum(_Merge):
    """The elementwise maximum of a list of inputs of the same (or broadcastable) shape."""
    _op = staticmethod(_maximum)


class Average(_Merge):
    """The elementwise mean of a list of inputs of the same (or broadcastable) shape.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.Average()([tf.ones([1, 2]), tf.fill([1, 2], 3.0)]).numpy()
    array([[2., 2.]], dtype=float32)
    """

    _op = staticmethod(_add)

    def call(self, inputs: Any) -> Tensor:
        return super().call(inputs) / len(inputs)


def l2_normalize(x: Any, axis: Any, epsilon: float = 1e-7) -> Tensor:
    """``keras.ops.normalize(x, axis, order=2)``: ``x * min(rsqrt(sum(x ** 2)), 1 / epsilon)``."""
    return multiply(x, _minimum(rsqrt(reduce_sum(square(x), axis, keepdims=True)), 1.0 / epsilon))


class Dot(_Merge):
    """The dot product of two batches of tensors along ``axes`` (an int, or a pair: one axis of
    each input, never the batch axis); ``normalize=True`` L2-normalizes both along those axes
    first (cosine similarity). A rank-1 result gets a trailing axis: ``(batch, 1)``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> x = tf.reshape(tf.range(6.0), [1, 3, 2])
    >>> keras.layers.Dot(axes=(1, 1))([x, x]).shape
    TensorShape([1, 2, 2])
    >>> keras.layers.Dot(axes=1)([tf.ones([2, 3]), tf.ones([2, 3])]).numpy()
    array([[3.],
           [3.]], dtype=float32)
    """

    def __init__(self, axes: Any, normalize: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, (list, tuple)):
                raise TypeError("Invalid type for argument `axes`: it should be a list or an int. "
                                f"Received: axes={axes}")
            if len(axes) != 2:
                raise ValueError(f"Invalid format for argument `axes`: it should contain two elements. "
                                 f"Received: axes={axes}")
            if not isinstance(axes[0], int) or not isinstance(axes[1], int):
                raise ValueError(f"Invalid format for argument `axes`: list elements should be integers. "
                                 f"Received: axes={axes}")
        self.axes, self.normalize = axes, normalize

    def _axes(self, shapes: Any) -> list:
        if isinstance(self.axes, int):
            return [self.axes % len(s) for s in shapes] if self.axes < 0 else [self.axes] * 2
        return [a % len(s) if a < 0 else a for a, s in zip(self.axes, shapes)]

    def _out_shape(self, shapes: Any) -> tuple:
        if len(shapes) != 2 or not isinstance(shapes[0], (list, tuple)):
            raise ValueError(f"A `Dot` layer should be called on a list of 2 inputs. Received: input_shape={shapes}")
        s1, s2 = (list(s) for s in shapes)
        a1, a2 = self._axes(shapes)
        if 0 in (a1, a2):
            raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not batched, add a dummy "
                             "batch dimension to your inputs using keras.ops.expand_dims(x, 0)")
        if None not in (s1[a1], s2[a2]) and s1[a1] != s2[a2]:
            raise ValueError(f"Incompatible input shapes: axis values {s1[a1]} (at axis {a1}) != {s2[a2]} "
                             f"(at axis {a2}). Full input shapes: {tuple(s1)}, {tuple(s2)}")
        out = s1[:a1] + s1[a1 + 1:] + s2[1:a2] + s2[a2 + 1:]
        return tuple(out) if len(out) > 1 else (out[0], 1)

    def call(self, inputs: Any) -> Tensor:
        if len(inputs) != 2:
            raise ValueError(f"A `Dot` layer should be called on exactly 2 inputs. Received: inputs={inputs}")
        x1, x2 = inputs
        self._out_shape([tuple(x1.shape), tuple(x2.shape)])
        a1, a2 = self._axes([x1.shape, x2.shape])
        if self.normalize:
            x1, x2 = l2_normalize(x1, a1), l2_normalize(x2, a2)
        letters = iter("bcdefghijklmnopqrstuvwxyz")
        s1 = ["a"] + [next(letters) for _ in range(x1.shape.rank - 1)]
        s2 = ["a"] + [s1[a1] if i == a2 else next(letters) for i in range(1, x2.shape.rank)]
        out = [c for i, c in enumerate(s1) if i != a1] + [c for i, c in enumerate(s2) if i not in (0, a2)]
        y = einsum(f"{''.join(s1)},{''.join(s2)}->{''.join(out)}", x1, x2)
        return expand_dims(y, 1) if len(out) == 1 else y

    def compute_mask(self, inputs: Any, previous_mask: Any = None) -> None:
        return None

    def get_config(self) -> dict:
        return {**super().get_config(), "axes": self.axes, "normalize": self.normalize}


def subtract(inputs: list, **kwargs: Any) -> Tensor:
    """``Subtract(**kwargs)(inputs)``."""
    return Subtract(**kwargs)(inputs)


def minimum(inputs: list, **kwargs: Any) -> Tensor:
    """``Minimum(**kwargs)(inputs)``."""
    return Minimum(**kwargs)(inputs)


def maximum(inputs: list, **kwargs: Any) -> Tensor:
    """``Maximum(**kwargs)(inputs)``."""
    return Maximum(**kwargs)(inputs)


def average(inputs: list, **kwargs: Any) -> Tensor:
    """``Average(**kwargs)(inputs)``."""
    return Average(**kwargs)(inputs)


def dot(inputs: list, axes: Any = -1, normalize: bool = False, **kwargs: Any) -> Tensor:
    """``Dot(axes=axes, normalize=normalize, **kwargs)(inputs)``."""
    return Dot(axes=axes, normalize=normalize, **kwargs)(inputs)
