"""Keras 3's quantization configs: which quantizers ``quantize`` uses for weights and activations."""
from __future__ import annotations

from typing import Any

from ..dtype_policies import QUANTIZATION_MODES
from ..saving import deserialize_keras_object, serialize_keras_object
from .quantizers import AbsMaxQuantizer

__all__ = ["QuantizationConfig", "Int8QuantizationConfig", "Int4QuantizationConfig",
           "Float8QuantizationConfig", "validate_and_resolve_config"]


class QuantizationConfig:
    """The base of the configs: a ``weight_quantizer`` and an ``activation_quantizer`` (``None``
    for the layer's default, and for no activation quantization respectively).

    >>> from tapegrad import keras
    >>> isinstance(keras.quantizers.Int8QuantizationConfig(), keras.quantizers.QuantizationConfig)
    True
    """

    def __init__(self, weight_quantizer: Any = None, activation_quantizer: Any = None) -> None:
        self.weight_quantizer = weight_quantizer
        self.activation_quantizer = activation_quantizer

    @property
    def mode(self) -> str:
        raise NotImplementedError("Subclasses must implement this property. Do not instantiate "
                                  "QuantizationConfig directly.")

    def get_config(self) -> dict:
        return {"weight_quantizer": serialize_keras_object(self.weight_quantizer),
                "activation_quantizer": serialize_keras_object(self.activation_quantizer)}

    @classmethod
    def from_config(cls, config: dict) -> "QuantizationConfig":
        return cls(weight_quantizer=deserialize_keras_object(config.get("weight_quantizer")),
                   activation_quantizer=deserialize_keras_object(config.get("activation_quantizer")))

    @staticmethod
    def weight_quantizer_or_default(config: Any, default: Any) -> Any:
        return config.weight_quantizer if config is not None and config.weight_quantizer is not None else default

    @staticmethod
    def activation_quantizer_or_default(config: Any, default: Any) -> Any:
        return config.activation_quantizer if config is not None else default


class Int8QuantizationConfig(QuantizationConfig):
    """int8 weights (abs-max per output channel unless ``weight_quantizer`` says otherwise) and,
    by default (``"default"``), int8 activations quantized per row (``AbsMaxQuantizer()``);
    ``activation_quantizer=None`` quantizes the weights only.

    >>> from tapegrad import keras
    >>> keras.quantizers.Int8QuantizationConfig().mode
    'int8'
    """

    def __init__(self, weight_quantizer: Any = None, activation_quantizer: Any = "default") -> None:
        if isinstance(activation_quantizer, str) and activation_quantizer == "default":
            activation_quantizer = AbsMaxQuantizer()
        super().__init__(weight_quantizer, activation_quantizer)
        if weight_quantizer is not None and weight_quantizer.output_dtype != "int8":
            raise ValueError("Int8QuantizationConfig requires a weight_quantizer with output_dtype='int8'. "
                             f"Received: output_dtype={weight_quantizer.output_dtype}")

    @property
    def mode(self) -> str:
        return "int8"


class Int4QuantizationConfig(QuantizationConfig):
    """int4 weights: per ``block_size`` rows of the kernel with a zero point (128 by default), or
    per output channel (``block_size=None`` or -1); no activation quantization by default.

    >>> from tapegrad import keras
    >>> config = keras.quantizers.Int4QuantizationConfig(block_size=32)
    >>> config.mode, config.block_size, config.activation_quantizer
    ('int4', 32, None)
    """

    def __init__(self, weight_quantizer: Any = None, activation_quantizer: Any = "default",
                 block_size: int | None = 128) -> None:
        if isinstance(activation_quantizer, str) and activation_quantizer == "default":
            activation_quantizer = None
        super().__init__(weight_quantizer, activation_quantizer)
        if block_size is not None and block_size != -1 and block_size <= 0:
            raise ValueError(f"block_size must be None, -1, or a positive integer. Received: block_size={block_size}")
        self.block_size = block_size
        if block_size is not None and block_size > 0 and (weight_quantizer is not None
                                                          or activation_quantizer is not None):
            raise ValueError("Int4 sub-channel quantization (block_size > 0) does not support custom quantizers. "
                             "Either set block_size to None or -1 for per-channel quantization, or remove the "
                             f"custom quantizer arguments. Received: block_size={block_size}")
        if weight_quantizer is not None:
            if tuple(weight_quantizer.value_range) != (-8, 7):
                raise ValueError("Int4QuantizationConfig requires a weight_quantizer with value_range=(-8, 7). "
                                 f"Received: value_range={weight_quantizer.value_range}")
            if weight_quantizer.output_dtype != "int8":
                raise ValueError("Int4QuantizationConfig requires a weight_quantizer with output_dtype='int8'. "
                                 f"Received: output_dtype={weight_quantizer.output_dtype}")

    @property
    def mode(self) -> str:
        return "int4"

    def get_config(self) -> dict:
        return {**super().get_config(), "block_size": self.block_size}

    @classmethod
    def from_config(cls, config: dict) -> "Int4QuantizationConfig":
        return cls(weight_quantizer=deserialize_keras_object(config.get("weight_quantizer")),
                   activation_quantizer=deserialize_keras_object(config.get("activation_quantizer")),
                   block_size=config.get("block_size"))


class Float8QuantizationConfig(QuantizationConfig):
    """float8 training (no quantizers of the user's).

    >>> from tapegrad import keras
    >>> keras.quantizers.Float8QuantizationConfig().mode
    'float8'
    """

    def __init__(self) -> None:
        super().__init__(None, None)

    @property
    def mode(self) -> str:
        return "float8"

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict) -> "Float8QuantizationConfig":
        return cls()


def _validate_mode(mode: Any) -> None:
    if mode is not None and mode not in QUANTIZATION_MODES:
        raise ValueError(f"Invalid quantization mode. Expected one of {QUANTIZATION_MODES}. Received: mode={mode}")


def validate_and_resolve_config(mode: Any, config: Any) -> QuantizationConfig:
    """The config ``quantize(mode, config)`` runs with: the mode's default config when ``config``
    is None, ``config`` checked against ``mode`` otherwise.

    >>> type(validate_and_resolve_config("int4", None)).__name__
    'Int4QuantizationConfig'
    """
    if isinstance(config, str):
        mode, config = config, None
    _validate_mode(mode)
    if config is None:
        if mode == "int8":
            config = Int8QuantizationConfig()
        elif mode == "int4":
            config = Int4QuantizationConfig()
        elif mode == "float8":
            config = Float8QuantizationConfig()
        elif mode == "gptq":
            raise ValueError("For GPTQ, you must pass a `GPTQConfig` object in the `config` argument.")
        elif mode == "awq":
            raise ValueError("For AWQ, you must pass an `AWQConfig` object in the `config` argument.")
        else:
            raise ValueError("You must provide either `mode` or `config` to `quantize`.")
    elif not isinstance(config, QuantizationConfig):
        raise ValueError("Argument `config` must be an instance of `QuantizationConfig`. "
                         f"Received: config={config} (of type {type(config)})")
    if mode is not None and config.mode != mode:
        raise ValueError(f"Contradictory arguments: mode='{mode}' but config.mode='{config.mode}'")
    _validate_mode(config.mode)
    return config
