"""``tapegrad.keras.quantizers``: Keras 3's quantizers and quantization configs.

``model.quantize("int8")`` quantizes the kernels of a built model's Dense, EinsumDense and
Embedding layers with :class:`AbsMaxQuantizer` (per output channel) and, for Dense and
EinsumDense, quantizes their inputs per row at each call: the layers multiply int8 by int8 with
int32 sums and rescale (Keras 3's ``Layer.quantize``, ``Model.quantize``).

>>> import numpy as np
>>> from tapegrad import keras
>>> q, scale = keras.quantizers.abs_max_quantize(np.array([1.0, -0.5], "float32"), axis=-1)
>>> q.numpy(), keras.quantizers.get("AbsMaxQuantizer").value_range
(array([127, -63], dtype=int8), (-127, 127))
"""
from __future__ import annotations

import inspect
from typing import Any

from ..backend import snake_case
from ..saving import deserialize_keras_object, serialize_keras_object
from .quantization_config import (Float8QuantizationConfig, Int4QuantizationConfig, Int8QuantizationConfig,
                                  QuantizationConfig)
from .quantizers import (AbsMaxQuantizer, Quantizer, abs_max_quantize, abs_max_quantize_grouped_with_zero_point,
                         compute_float8_amax_history, compute_float8_scale, fake_quant_with_min_max_vars, pack_int4,
                         quantize_and_dequantize, unpack_int4)

__all__ = ["AbsMaxQuantizer", "Float8QuantizationConfig", "Int4QuantizationConfig", "Int8QuantizationConfig",
           "QuantizationConfig", "Quantizer", "abs_max_quantize", "abs_max_quantize_grouped_with_zero_point",
           "compute_float8_amax_history", "fake_quant_with_min_max_vars",
           "compute_float8_scale", "deserialize", "get", "pack_int4", "quantize_and_dequantize", "serialize",
           "unpack_int4"]

ALL_OBJECTS_DICT = {c.__name__: c for c in (Quantizer, AbsMaxQuantizer, QuantizationConfig,
                                             Int8QuantizationConfig, Int4QuantizationConfig,
                                             Float8QuantizationConfig)}
ALL_OBJECTS_DICT.update({snake_case(k): v for k, v in list(ALL_OBJECTS_DICT.items())})


def serialize(initializer: Any) -> Any:
    """The config Keras saves for a quantizer or quantization config."""
    return serialize_keras_object(initializer)


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The quantizer (or config) a :func:`serialize` config describes."""
    return deserialize_keras_object(config, custom_objects={**ALL_OBJECTS_DICT, **(custom_objects or {})})


def get(identifier: Any, **kwargs: Any) -> Any:
    """A quantizer from a config, a class name (``"AbsMaxQuantizer"`` or ``"abs_max_quantizer"``,
    made with ``kwargs``) or a quantizer; ``None`` stays ``None``."""
    if identifier is None:
        return None
    obj = deserialize(identifier) if isinstance(identifier, dict) else \
        ALL_OBJECTS_DICT.get(identifier) if isinstance(identifier, str) else identifier
    if not callable(obj):
        raise ValueError(f"Could not interpret quantizer identifier: {identifier}")
    return obj(**kwargs) if inspect.isclass(obj) else obj
