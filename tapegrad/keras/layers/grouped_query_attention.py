"""Keras 3's ``GroupQueryAttention``: grouped-query attention (Ainslie et al., 2023), query heads
sharing ``num_key_value_heads`` key and value heads, with Keras's projections, masks, causal and
sliding-window masks, gate and dropout."""
from __future__ import annotations

import math
from typing import Any, Sequence

from ...ops.math import cast, logical_and
from .. import constraints, initializers, ops as _kops, regularizers
from .._keras_tensor import KerasTensor, get_mask
from .conv import serialized
from .core import Dropout, Softmax
from .einsum_dense import EinsumDense
from .layer import Layer

__all__ = ["GroupQueryAttention", "GroupedQueryAttention"]


class GroupedQueryAttention(Layer):
    """Attention with ``num_query_heads`` query heads of size ``head_dim`` grouped over
    ``num_key_value_heads`` key/value heads (``num_query_heads`` a multiple of it): each key and
    value head serves ``num_query_heads // num_key_value_heads`` query heads.

    Call arguments: ``query (B, T, dim), value (B, S, dim), key=None, query_mask=None,
    value_mask=None, key_mask=None, attention_mask=None, return_attention_scores=False,
    training=None, use_causal_mask=False`` (the inputs' Keras masks fill the ``*_mask`` arguments).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> gqa = keras.layers.GroupQueryAttention(head_dim=4, num_query_heads=4, num_key_value_heads=2)
    >>> out, scores = gqa(np.ones((1, 3, 8), "float32"), np.ones((1, 5, 8), "float32"),
    ...                   return_attention_scores=True)
    >>> out.shape, scores.shape
    (TensorShape([1, 3, 8]), TensorShape([1, 4, 3, 5]))
    """

    def __init__(self, head_dim: int, num_query_heads: int, num_key_value_heads: int, dropout: float = 0.0,
                 use_bias: bool = True, sliding_window: int | None = None, flash_attention: Any = None,
                 kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, use_gate: bool = False,
                 seed: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.supports_masking = True
        self.head_dim = head_dim
        self.num_query_heads = num_query_heads
        self.num_key_value_heads = num_key_value_heads
        if num_query_heads % num_key_value_heads != 0:
            raise ValueError("`num_query_heads` must be divisible by `num_key_value_heads`.")
        self.num_repeats = num_query_heads // num_key_value_heads
        self.dropout = dropout
        self.use_bias = use_bias
        self.use_gate = use_gate
        if sliding_window is not None and (not isinstance(sliding_window, int) or sliding_window <= 0):
            raise ValueError("`sliding_window` must be `None` or a positive integer. "
                             f"Received: sliding_window={sliding_window}")
        self.sliding_window = sliding_window
        self._flash_attention = bool(flash_attention)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.seed = seed
        self._inverse_sqrt_head_dim = 1.0 / math.sqrt(float(self.head_dim))
        self._return_attention_scores = False
        if self._flash_attention and self.dropout > 0.0:
            raise ValueError("Dropout is not supported when flash attention is enabled. Please set dropout to "
                             "0.0 to use flash attention.")

    def build(self, query_shape: Sequence, value_shape: Sequence, key_shape: Sequence | None = None) -> None:
        key_shape = value_shape if key_shape is None else key_shape
        self.feature_dim = query_shape[-1]
        q_bias, kv_bias = ("uh", "vh") if self.use_bias else (None, None)
        self._query_dense = EinsumDense("bqm,muh->bquh", output_shape=(None, self.num_query_heads, self.head_dim),
                                        bias_axes=q_bias, name="query", **self._sublayer_kwargs())
        self._query_dense.build(query_shape)
        self._key_dense = EinsumDense("bkm,mvh->bkvh", output_shape=(None, self.num_key_value_heads, self.head_dim),
                                      bias_axes=kv_bias, name="key", **self._sublayer_kwargs())
        self._key_dense.build(key_shape)
        if self.use_gate:
            self._gate_dense = EinsumDense("bqm,muh->bquh", output_shape=(None, self.num_query_heads, self.head_dim),
                                           bias_axes=q_bias, activation="sigmoid", name="gate",
                                           **self._sublayer_kwargs())
            self._gate_dense.build(query_shape)
        self._value_dense = EinsumDense("bkm,mvh->bkvh",
                                        output_shape=(None, self.num_key_value_heads, self.head_dim),
                                        bias_axes=kv_bias, name="value", **self._sublayer_kwargs())
        self._value_dense.build(value_shape)
        self._softmax = Softmax(axis=-1, dtype=self.dtype_policy)
        self._dropout_layer = Dropout(rate=self.dropout, dtype=self.dtype_policy, seed=self.seed)
        self._dot_product_equation = "bquh,bkuh->buqk"
        self._combine_equation = "buqk,bkuh->bquh"
        self._output_dense = EinsumDense("bquh,uhm->bqm", output_shape=(None, self.feature_dim),
                                         bias_axes="m" if self.use_bias else None, name="attention_output",
                                         **self._sublayer_kwargs())
        self._output_dense.build((None, None, self.num_query_heads, self.head_dim))
        self.built = True

    def _sublayer_kwargs(self) -> dict:
        return dict(kernel_regularizer=self.kernel_regularizer, bias_regularizer=self.bias_regularizer,
                    activity_regularizer=self.activity_regularizer, kernel_constraint=self.kernel_constraint,
                    bias_constraint=self.bias_constraint, dtype=self.dtype_policy,
                    kernel_initializer=type(self.kernel_initializer).from_config(self.kernel_initializer.get_config()),
                    bias_initializer=type(self.bias_initializer).from_config(self.bias_initializer.get_config()))

    def call(self, query: Any, value: Any, key: Any = None, query_mask: Any = None, value_mask: Any = None,
             key_mask: Any = None, attention_mask: Any = None, return_attention_scores: bool = False,
             training: Any = None, use_causal_mask: bool = False) -> Any:
        # (Keras's Layer.__call__ fills each `<input>_mask` argument from that input's mask)
        query_mask = get_mask(query) if query_mask is None else query_mask
        value_mask = get_mask(value) if value_mask is None else value_mask
        if key is not None and key_mask is None:
            key_mask = get_mask(key)
        self._return_attention_scores = return_attention_scores
        if key is None:
            key = value
        causal_only = (use_causal_mask and query_mask is None and value_mask is None and key_mask is None
                       and attention_mask is None and self.sliding_window is None
                       and type(self)._compute_attention is GroupedQueryAttention._compute_attention)
        if causal_only:
            attention_mask = None
        else:
            attention_mask = self._compute_attention_mask(query, value, query_mask=query_mask,
                                                          value_mask=value_mask, key_mask=key_mask,
                                                          attention_mask=attention_mask,
                                                          use_causal_mask=use_causal_mask)
        gate = self._gate_dense(query) if self.use_gate else None
        query = self._query_dense(query)
        key = _kops.repeat(self._key_dense(key), self.num_repeats, axis=2)
        value = _kops.repeat(self._value_dense(value), self.num_repeats, axis=2)
        extra = {"use_causal_mask": True} if causal_only else {}
        output, scores = self._compute_attention(query, key, value, attention_mask=attention_mask,
                                                 training=training, **extra)
        output = self._output_dense(_kops.multiply(output, gate) if self.use_gate else output)
        return (output, scores) if return_attention_scores else output

    def _compute_attention_mask(self, query: Any, value: Any, query_mask: Any = None, value_mask: Any = None,
                                key_mask: Any = None, attention_mask: Any = None,
                                use_causal_mask: bool = False) -> Any:
        auto_mask = None
        if query_mask is not None:
            auto_mask = _kops.expand_dims(cast(query_mask, "bool"), -1)
        for m in (value_mask, key_mask):
            if m is not None:
                mask = _kops.expand_dims(cast(m, "bool"), -2)
                auto_mask = mask if auto_mask is None else logical_and(auto_mask, mask)
        if use_causal_mask:
            mask = self._compute_causal_mask(query, value)
            auto_mask = mask if auto_mask is None else logical_and(auto_mask, mask)
        if self.sliding_window is not None:
            mask = self._compute_sliding_window_mask(query, value)
            auto_mask = mask if auto_mask is None else logical_and(auto_mask, mask)
        if auto_mask is not None:
            attention_mask = auto_mask if attention_mask is None else logical_and(cast(attention_mask, "bool"),
                                                                                   auto_mask)
        return attention_mask

    def _compute_causal_mask(self, query: Any, value: Any = None) -> Any:
        q_len = _kops.shape(query)[1]
        v_len = q_len if value is None else _kops.shape(value)[1]
        ones_mask = _kops.ones((1, q_len, v_len), dtype="int32")
        return _kops.greater_equal(_kops.cumsum(ones_mask, axis=-2), _kops.cumsum(ones_mask, axis=-1))

    def _compute_sliding_window_mask(self, query: Any, value: Any = None) -> Any:
        q_len = _kops.shape(query)[1]
        v_len = q_len if value is None else _kops.shape(value)[1]
        row = _kops.reshape(_kops.arange(q_len, dtype="int32"), (1, q_len, 1))
        col = _kops.reshape(_kops.arange(v_len, dtype="int32"), (1, 1, v_len))
        return _kops.less(_kops.abs(row - col), self.sliding_window)

    def _compute_attention(self, query: Any, key: Any, value: Any, attention_mask: Any = None,
                           training: Any = None, use_causal_mask: bool = False) -> tuple:
        if self._flash_attention and self._return_attention_scores:
            raise ValueError("Returning attention scores is not supported when flash attention is enabled. "
                             "Please disable flash attention to access attention scores.")
        if not (self.dropout > 0.0 or self._return_attention_scores or len(query.shape) != 4):
            if attention_mask is not None:
                for _ in range(4 - len(attention_mask.shape)):
                    attention_mask = _kops.expand_dims(attention_mask, axis=-3)
                attention_mask = cast(attention_mask, "bool")
            out = _kops.dot_product_attention(query=query, key=key, value=value, bias=None, mask=attention_mask,
                                              scale=self._inverse_sqrt_head_dim, is_causal=use_causal_mask)
            return out, None
        if use_causal_mask:
            causal = self._compute_causal_mask(query, value)
            attention_mask = causal if attention_mask is None else logical_and(cast(attention_mask, "bool"), causal)
        query = _kops.multiply(query, cast(self._inverse_sqrt_head_dim, query.dtype))
        scores = _kops.einsum(self._dot_product_equation, query, key)
        scores = self._masked_softmax(scores, attention_mask=attention_mask)
        dropped = self._dropout_layer(scores, training=training) if self.dropout > 0.0 else scores
        return _kops.einsum(self._combine_equation, dropped, value), scores

    def _masked_softmax(self, scores: Any, attention_mask: Any = None) -> Any:
        if attention_mask is not None:
            for _ in range(len(scores.shape) - len(attention_mask.shape)):
                attention_mask = _kops.expand_dims(attention_mask, axis=-3)
        return self._softmax(scores, mask=attention_mask)

    def compute_output_shape(self, query_shape: Sequence, value_shape: Sequence,
                             key_shape: Sequence | None = None) -> Any:
        key_shape = value_shape if key_shape is None else key_shape
        if query_shape[-1] != value_shape[-1]:
            raise ValueError("The last dimension of `query_shape` and `value_shape` must be equal, but are "
                             f"{query_shape[-1]}, {value_shape[-1]}. Received: query_shape={query_shape}, "
                             f"value_shape={value_shape}")
        if tuple(value_shape[1:-1]) != tuple(key_shape[1:-1]):
            raise ValueError("All dimensions of `value` and `key`, except the last one, must be equal. "
                             f"Received: value_shape={value_shape} and key_shape={key_shape}")
        return query_shape

    def compute_output_spec(self, query: Any, value: Any, key: Any = None, query_mask: Any = None,
                            value_mask: Any = None, key_mask: Any = None, attention_mask: Any = None,
                            return_attention_scores: bool = False, training: Any = None,
                            use_causal_mask: bool = False) -> Any:
        shape = self.compute_output_shape(query.shape, value.shape, None if key is None else key.shape)
        out = KerasTensor(shape, dtype=self.compute_dtype)
        if return_attention_scores:
            kv_len = value.shape[1] if key is None else key.shape[1]
            return out, KerasTensor((query.shape[0], self.num_query_heads, query.shape[1], kv_len),
                                    dtype=self.compute_dtype)
        return out

    def get_config(self) -> dict:
        return {**super().get_config(), "head_dim": self.head_dim, "num_query_heads": self.num_query_heads,
                "num_key_value_heads": self.num_key_value_heads, "use_bias": self.use_bias,
                "use_gate": self.use_gate, "sliding_window": self.sliding_window, "dropout": self.dropout,
                "kernel_initializer": serialized(self.kernel_initializer),
                "bias_initializer": serialized(self.bias_initializer),
                "kernel_regularizer": serialized(self.kernel_regularizer),
                "bias_regularizer": serialized(self.bias_regularizer),
                "activity_regularizer": serialized(self.activity_regularizer),
                "kernel_constraint": serialized(self.kernel_constraint),
                "bias_constraint": serialized(self.bias_constraint), "seed": self.seed}


GroupQueryAttention = GroupedQueryAttention  # (Keras exports the class under this name)
