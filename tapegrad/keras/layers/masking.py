"""Keras 3's pass-through layers: Masking (a mask from a sentinel value), Identity,
ActivityRegularization, Rescaling, and the axis movers Permute and RepeatVector."""
from __future__ import annotations

from typing import Any, Sequence

from .._engine import convert_to_tensor
from .._engine import Tensor
from ...ops.array import expand_dims, tile, transpose
from ...ops.math import cast, not_equal, where
from ...ops.reduction import reduce_any
from .. import regularizers
from .input_spec import InputSpec
from .layer import Layer
from .conv import check_input

__all__ = ["Masking", "Identity", "ActivityRegularization", "Rescaling", "Permute", "RepeatVector"]


class Masking(Layer):
    """Masks the timesteps whose features all equal ``mask_value``: their outputs are 0 and the
    mask (``any(x != mask_value, axis=-1)``) reaches the layers after (an LSTM skips them).

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> x = tf.constant([[[1.0], [0.0], [2.0]]])
    >>> layer = keras.layers.Masking()
    >>> layer.compute_mask(x).numpy()
    array([[ True, False,  True]])
    """

    def __init__(self, mask_value: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self.supports_masking = True

    def _keep(self, inputs: Any, keepdims: bool) -> Tensor:
        x = convert_to_tensor(inputs)
        return reduce_any(not_equal(x, cast(self.mask_value, x.dtype)), axis=-1, keepdims=keepdims)

    def compute_mask(self, inputs: Any, previous_mask: Any = None) -> Tensor:
        return self._keep(inputs, False)

    def call(self, inputs: Any) -> Tensor:
        x = convert_to_tensor(inputs)
        return where(self._keep(x, True), x, cast(0, x.dtype))

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "mask_value": self.mask_value}


class Identity(Layer):
    """Returns its inputs (any nest of tensors) unchanged; masks pass through."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.supports_masking = True

    def call(self, inputs: Any) -> Any:
        return inputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape


class ActivityRegularization(Layer):
    """Returns its inputs and adds ``l1 * sum(|x|) + l2 * sum(x ** 2)`` (divided by the batch
    size, as every activity regularizer) to ``losses``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> layer = keras.layers.ActivityRegularization(l2=0.5)
    >>> _ = layer(tf.ones([2, 3]))
    >>> float(layer.losses[0])
    1.5
    """

    def __init__(self, l1: float = 0.0, l2: float = 0.0, **kwargs: Any) -> None:
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.supports_masking = True
        self.l1, self.l2 = l1, l2

    def call(self, inputs: Any) -> Any:
        return inputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        cfg = super().get_config()
        cfg.pop("activity_regularizer", None)
        return {**cfg, "l1": self.l1, "l2": self.l2}


class Rescaling(Layer):
    """``inputs * scale + offset`` in the layer's dtype (``scale`` and ``offset`` are numbers
    or per-channel sequences, cast to that dtype as Keras does: with ``dtype="uint8"``,
    ``1 / 255`` becomes 0), e.g. ``Rescaling(1 / 255)`` for pixels.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.Rescaling(1 / 127.5, offset=-1)(tf.constant([[0.0, 255.0]])).numpy()
    array([[-1.,  1.]], dtype=float32)
    """

    _data_layer = True  # (Keras's DataLayer: see Layer._data_layer)

    def __init__(self, scale: Any, offset: Any = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset
        self.supports_masking = True

    def call(self, inputs: Any) -> Tensor:
        dtype = self.compute_dtype
        return cast(inputs, dtype) * cast(self.scale, dtype) + cast(self.offset, dtype)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "scale": self.scale, "offset": self.offset}


class Permute(Layer):
    """Permutes the non-batch axes: ``dims`` is a permutation of ``1..rank-1`` (the batch axis is 0
    and stays first).

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.Permute((2, 1))(tf.zeros([4, 10, 64])).shape
    TensorShape([4, 64, 10])
    """

    def __init__(self, dims: Sequence[int], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError("Invalid permutation argument `dims` for Permute Layer. The set of indices in "
                             f"`dims` must be consecutive and start from 1. Received dims={dims}")
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)

    def call(self, inputs: Any) -> Tensor:
        return transpose(inputs, (0,) + self.dims)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        return (input_shape[0],) + tuple(input_shape[d] for d in self.dims)

    def get_config(self) -> dict:
        return {**super().get_config(), "dims": self.dims}


class RepeatVector(Layer):
    """Repeats ``(batch, features)`` inputs ``n`` times: ``(batch, n, features)``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.RepeatVector(3)(tf.zeros([2, 5])).shape
    TensorShape([2, 3, 5])
    """

    def __init__(self, n: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"Expected an integer value for `n`, got {type(n)}.")
        self.n = n
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs: Any) -> Tensor:
        x = convert_to_tensor(inputs)
        check_input(self, x.shape, 2)
        return tile(expand_dims(x, 1), [1, self.n, 1])

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        return (input_shape[0], self.n, input_shape[1])

    def get_config(self) -> dict:
        return {**super().get_config(), "n": self.n}
