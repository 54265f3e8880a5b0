"""Keras 3's Embedding layer."""
from __future__ import annotations

import warnings
from typing import Any, Sequence

import numpy as np

from .._engine import convert_to_tensor
from ...ops.indexing import gather
from ...ops.math import cast, not_equal
from .layer import Layer
from .conv import new_weight, weight_args, weight_config
from .. import ops as _kops
from .._keras_tensor import KerasTensor, set_mask
from ..quantizers._layers import (AbsMaxQuantizer, Int4QuantizationConfig, QuantizationConfig,
                                  abs_max_quantize_grouped_with_zero_point, dequantize_with_sz_map, int4_block_size,
                                  int4_policy_name, pack_int4, quantization_config_of, saved_variables,
                                  serialize_config, unpack_int4)

__all__ = ["Embedding", "ReversibleEmbedding"]


class Embedding(Layer):
    """Turns integer indices in ``[0, input_dim)`` into rows of an ``(input_dim, output_dim)``
    table of weights (``embeddings``). The gradient with respect to the table is an
    ``IndexedSlices``, as in TensorFlow.

    With ``mask_zero=True``, index 0 is padding: ``compute_mask`` returns ``inputs != 0`` and a
    following RNN or ``GlobalAveragePooling1D`` skips those steps.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> emb = keras.layers.Embedding(10, 4, mask_zero=True)
    >>> x = tf.constant([[3, 1, 0, 0]])
    >>> emb(x).shape
    TensorShape([1, 4, 4])
    >>> emb.compute_mask(x).numpy()
    array([[ True,  True, False, False]])
    """

    _checkpoint_names = {"embeddings": "_embeddings"}  # (Keras 3 keeps them as `_embeddings`)

    def __init__(self, input_dim: int, output_dim: int, embeddings_initializer: Any = "uniform",
                 embeddings_regularizer: Any = None, embeddings_constraint: Any = None, mask_zero: bool = False,
                 weights: Any = None, lora_rank: Any = None, lora_alpha: Any = None,
                 quantization_config: Any = None, **kwargs: Any) -> None:
        for arg, v in (("input_dim", input_dim), ("output_dim", output_dim)):
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise ValueError(f"Embedding: `{arg}` must be a positive integer. Received: {arg}={v!r} "
                                 f"(of type {type(v).__name__}).")
        if lora_rank is not None:
            raise NotImplementedError("Embedding: `lora_rank` (LoRA) is not implemented in tapegrad; see "
                                      "docs/differences.md.")
        if kwargs.pop("input_length", None) is not None:
            warnings.warn("Argument `input_length` is deprecated. Just remove it.", UserWarning, stacklevel=2)
        super().__init__(**kwargs)
        self.input_dim, self.output_dim, self.mask_zero = input_dim, output_dim, bool(mask_zero)
        self.quantization_config = quantization_config_of(quantization_config)
        weight_args(self, "embeddings", embeddings_initializer, embeddings_regularizer, embeddings_constraint)
        self.supports_masking = self.mask_zero
        if weights is not None:
            self.build()
            self.set_weights(weights if isinstance(weights, list) and len(weights) == 1 else [weights])

    def build(self, input_shape: Sequence | None = None) -> None:
        if self.built:
            return
        if self.quantization_mode is not None:
            self.quantized_build((self.input_dim, self.output_dim), self.quantization_mode, self.quantization_config)
        else:
            self.embeddings = new_weight(self, "embeddings", (self.input_dim, self.output_dim))
        self.built = True

    @property
    def _embeddings(self) -> Any:  # (Keras 3's name for the stored table: int8 once quantized)
        return self.embeddings

    # -- quantization (Keras 3's Embedding.quantize: an int8 table with one scale per row)

    def _saved_variables(self) -> list | None:  # (weights files: Keras's order for a quantized layer)
        return saved_variables(self)

    def quantize(self, mode: str | None = None, type_check: bool = True, config: Any = None) -> None:
        if type_check and type(self) is not Embedding:
            raise self._not_implemented_error(self.quantize)
        self.quantization_config = config
        if mode not in ("int8", "int4"):
            raise self._quantization_mode_error(mode)
        table, zero = self.embeddings, None
        block = config.block_size if isinstance(config, Int4QuantizationConfig) else None
        if mode == "int4" and block is not None and block != -1:  # (groups along each row)
            values, scale, zero = abs_max_quantize_grouped_with_zero_point(_kops.transpose(table), block_size=block,
                                                                           to_numpy=True)
            values, scale, zero = _kops.transpose(values), _kops.transpose(scale), _kops.transpose(zero)
        else:
            default = AbsMaxQuantizer(axis=-1) if mode == "int8" else AbsMaxQuantizer(axis=-1, value_range=(-8, 7))
            values, scale = QuantizationConfig.weight_quantizer_or_default(config, default)(table, to_numpy=True)
            scale = _kops.squeeze(scale, axis=-1)
        if mode == "int4":
            values = pack_int4(values, axis=-1)[0]
        del self.embeddings
        self.quantized_build(tuple(table.shape), mode, config)
        self.embeddings.assign(values)
        self.embeddings_scale.assign(scale)
        if zero is not None:
            self.embeddings_zero.assign(zero)
        if self.dtype_policy.quantization_mode is None:
            self.dtype_policy = f"{int4_policy_name(mode, int4_block_size(self, config))}_from_{self.dtype_policy.name}"

    def _quantization_mode_error(self, mode: Any) -> NotImplementedError:
        return NotImplementedError("Invalid quantization mode. Expected one of ('int8', 'int4'). "
                                   f"Received: quantization_mode={mode}")

    def quantized_build(self, embeddings_shape: Any, mode: str, config: Any = None) -> None:
        if mode not in ("int8", "int4"):
            raise self._quantization_mode_error(mode)
        rows, cols = embeddings_shape
        self.embeddings = self.add_weight(name="embeddings", shape=(rows, cols if mode == "int8" else (cols + 1) // 2),
                                          initializer="zeros", dtype="int8", trainable=False)
        block = int4_block_size(self, config) if mode == "int4" else None
        grouped = block is not None and block > 0
        scale_shape = (rows, -(-cols // block)) if grouped else (rows,)
        self.embeddings_scale = self.add_weight(name="embeddings_scale", shape=scale_shape, initializer="ones",
                                                trainable=False)
        if grouped:
            self.embeddings_zero = self.add_weight(name="embeddings_zero", shape=scale_shape, initializer="zeros",
                                                   dtype="int8", trainable=False)
            self.g_idx = self.add_weight(name="g_idx", shape=(cols,), trainable=False, dtype="float32",
                                         initializer=lambda shape, dtype: np.arange(cols, dtype=dtype) // block)
        self._int4_block_size, self._orig_output_dim = block, cols
        self._is_quantized = True

    def _int4_call(self, inputs: Any, training: Any = None) -> Any:
        x = convert_to_tensor(inputs)
        if x.dtype.name not in ("int32", "int64"):
            x = cast(x, "int32")
        rows = _kops.cast(_kops.take(unpack_int4(self.embeddings, self._orig_output_dim, axis=-1), x, axis=0),
                          self.compute_dtype)
        scale = _kops.take(self.embeddings_scale, x, axis=0)
        if self._int4_block_size is None or self._int4_block_size == -1:
            return _kops.divide(rows, _kops.expand_dims(scale, -1))
        return dequantize_with_sz_map(rows, scale, _kops.take(self.embeddings_zero, x, axis=0), self.g_idx)

    def _int8_call(self, inputs: Any, training: Any = None) -> Any:
        x = convert_to_tensor(inputs)
        if x.dtype.name not in ("int32", "int64"):
            x = cast(x, "int32")
        scale = _kops.take(self.embeddings_scale, x, axis=0)
        rows = _kops.cast(_kops.take(self.embeddings, x, axis=0), self.compute_dtype)
        return _kops.divide(rows, _kops.expand_dims(scale, -1))

    def call(self, inputs: Any) -> Any:
        x = convert_to_tensor(inputs)
        if x.dtype.name not in ("int32", "int64"):
            x = cast(x, "int32")
        return gather(self.embeddings, x)

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        return not_equal(convert_to_tensor(inputs), 0) if self.mask_zero else None

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        return (*input_shape, self.output_dim)

    def get_config(self) -> dict:
        return {**super().get_config(), "input_dim": self.input_dim, "output_dim": self.output_dim,
                **weight_config(self, "embeddings"), "mask_zero": self.mask_zero,
                "quantization_config": serialize_config(self.quantization_config)}


class ReversibleEmbedding(Embedding):
    """An ``Embedding`` that also maps back: ``layer(x, reverse=True)`` multiplies hidden states by
    the transposed table (``tie_weights=True``) or by its own ``reverse_embeddings``
    ``(output_dim, input_dim)``, giving logits over the vocabulary; ``reverse_dtype`` casts both
    first, ``logit_soft_cap`` bounds the logits to ``cap * tanh(logits / cap)``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> emb = keras.layers.ReversibleEmbedding(10, 4)
    >>> h = emb(np.array([[1, 2, 3]]))
    >>> emb(h, reverse=True).shape
    TensorShape([1, 3, 10])
    """

    def __init__(self, input_dim: int, output_dim: int, tie_weights: bool = True,
                 embeddings_initializer: Any = "uniform", embeddings_regularizer: Any = None,
                 embeddings_constraint: Any = None, mask_zero: bool = False, reverse_dtype: Any = None,
                 logit_soft_cap: Any = None, **kwargs: Any) -> None:
        super().__init__(input_dim, output_dim, embeddings_initializer=embeddings_initializer,
                         embeddings_regularizer=embeddings_regularizer,
                         embeddings_constraint=embeddings_constraint, mask_zero=mask_zero, **kwargs)
        self.tie_weights = tie_weights
        self.reverse_dtype = reverse_dtype
        self.logit_soft_cap = logit_soft_cap

    def build(self, input_shape: Sequence | None = None) -> None:
        if self.built:
            return
        super().build(input_shape)
        if not self.tie_weights and self.quantization_mode not in ("int8", "int4"):
            self.reverse_embeddings = self.add_weight(shape=(self.output_dim, self.input_dim),
                                                      initializer=self.embeddings_initializer,
                                                      name="reverse_embeddings", trainable=True)

    def quantize(self, mode: str | None = None, type_check: bool = True, config: Any = None) -> None:
        raise NotImplementedError("ReversibleEmbedding.quantize is not implemented in tapegrad "
                                  "(docs/differences.md); quantize a plain Embedding instead.")

    def call(self, inputs: Any, reverse: bool = False) -> Any:
        if not reverse:
            result = super().call(inputs)
            mask = super().compute_mask(inputs)
            if mask is not None:
                set_mask(result, mask)
            return result
        kernel = _kops.transpose(self.embeddings) if self.tie_weights else self.reverse_embeddings
        if self.reverse_dtype is not None:
            inputs = _kops.cast(inputs, self.reverse_dtype)
            kernel = _kops.cast(kernel, self.reverse_dtype)
        logits = _kops.matmul(inputs, kernel)
        if self.logit_soft_cap is not None:
            cap = self.logit_soft_cap
            logits = _kops.multiply(_kops.tanh(_kops.divide(logits, cap)), cap)
        return logits

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        return None

    def compute_output_shape(self, input_shape: Sequence, reverse: bool = False) -> Any:
        output_shape = list(input_shape)
        if reverse:
            output_shape[-1] = self.input_dim
        else:
            output_shape += [self.output_dim]
        return output_shape

    def compute_output_spec(self, inputs: Any, reverse: bool = False) -> Any:
        return KerasTensor(self.compute_output_shape(list(inputs.shape), reverse), dtype=self.compute_dtype)

    def get_config(self) -> dict:
        return {**super().get_config(), "tie_weights": self.tie_weights, "reverse_dtype": self.reverse_dtype,
                "logit_soft_cap": self.logit_soft_cap}
