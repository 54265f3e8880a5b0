"""Keras 3's attention layers: Attention (Luong dot-product or concat scores), AdditiveAttention
(Bahdanau) and MultiHeadAttention (the transformer's block).

Masks as Keras: a False entry of the value mask (or of a causal or explicit attention mask)
takes the score out of the softmax (Attention subtracts 1e9 from it, MultiHeadAttention sets it
to -1e9); a False entry of the query mask zeroes Attention's output row and is carried as
MultiHeadAttention's output mask. Dropout (``training=True``) drops attention weights.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .._engine import Tensor, convert_to_tensor
from ...ops.array import expand_dims, reshape, transpose
from ...ops.linalg import matmul
from ...ops.math import cast, exp, logical_and, tanh, where
from ...ops.reduction import reduce_logsumexp, reduce_sum
from .. import activations, random
from .._keras_tensor import KerasTensor, get_mask, set_mask
from .layer import Layer
from .conv import new_weight, serialized, weight_args
from .einsum_dense import axes_initializer

__all__ = ["Attention", "AdditiveAttention", "MultiHeadAttention"]


def _causal(tq: int, tv: int) -> Any:
    """``(1, tq, tv)``: True where the query position is at or after the value position."""
    return convert_to_tensor(np.tril(np.ones((tq, tv), bool))[None])


class Attention(Layer):
    """Dot-product attention (Luong): ``softmax(query @ key^T) @ value``.

    Called on ``[query, value]`` or ``[query, value, key]`` (``key`` defaults to ``value``) of
    shapes ``(batch, Tq, dim)``, ``(batch, Tv, dim)``; ``mask=[query_mask, value_mask]``.
    ``use_scale`` multiplies the scores by a trainable scalar ``scale``; ``score_mode="concat"``
    scores with ``concat_score_weight * sum(tanh(query + key))``. Call arguments
    ``return_attention_scores`` (also return the ``(batch, Tq, Tv)`` weights) and
    ``use_causal_mask``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> q, v = tf.ones([2, 3, 4]), tf.ones([2, 5, 4])
    >>> out, scores = keras.layers.Attention()([q, v], return_attention_scores=True)
    >>> out.shape, scores.shape
    (TensorShape([2, 3, 4]), TensorShape([2, 3, 5]))
    """

    def __init__(self, use_scale: bool = False, score_mode: str = "dot", dropout: float = 0.0, seed: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.use_scale, self.score_mode, self.dropout, self.seed = use_scale, score_mode, dropout, seed
        if self.dropout > 0:
            self.seed_generator = random.SeedGenerator(seed)
        if score_mode not in ("dot", "concat"):
            raise ValueError("Invalid value for argument score_mode. Expected one of {'dot', 'concat'}. "
                             f"Received: score_mode={score_mode}")
        self.supports_masking = True

    def build(self, input_shape: Sequence) -> None:
        self._validate_inputs(input_shape)
        self.scale = self.add_weight(name="scale", shape=(), initializer="ones") if self.use_scale else None
        self.concat_score_weight = self.add_weight(name="concat_score_weight", shape=(), initializer="ones") \
            if self.score_mode == "concat" else None
        self.built = True

    def _calculate_scores(self, query: Any, key: Any) -> Any:
        if self.score_mode == "dot":
            scores = matmul(query, key, transpose_b=True)
            return scores if self.scale is None else scores * self.scale
        s = expand_dims(query, -2) + expand_dims(key, -3)
        return self.concat_score_weight * reduce_sum(tanh(s if self.scale is None else self.scale * s), -1)

    def _validate_inputs(self, inputs: Any, mask: Any = None) -> None:
        name = type(self).__name__
        if not isinstance(inputs, list):
            raise ValueError(f"{name} layer must be called on a list of inputs, namely [query, value] or "
                             f"[query, value, key]. Received: inputs={inputs}.")
        if not 2 <= len(inputs) <= 3:
            raise ValueError(f"{name} layer accepts inputs list of length 2 or 3, namely [query, value] or "
                             f"[query, value, key]. Received length: {len(inputs)}.")
        if mask is not None:
            if not isinstance(mask, list):
                raise ValueError(f"{name} layer mask must be a list, namely [query_mask, value_mask]. "
                                 f"Received: mask={mask}.")
            if not 2 <= len(mask) <= 3:
                raise ValueError(f"{name} layer accepts mask list of length 2 or 3. Received: inputs={inputs}, "
                                 f"mask={mask}.")

    def call(self, inputs: Any, mask: Any = None, training: Any = False, return_attention_scores: bool = False,
             use_causal_mask: bool = False) -> Any:
        if isinstance(inputs, tuple):
            inputs = list(inputs)
        if isinstance(mask, tuple):
            mask = list(mask)
        self._validate_inputs(inputs, mask)
        q, v = convert_to_tensor(inputs[0]), convert_to_tensor(inputs[1])
        k = convert_to_tensor(inputs[2]) if len(inputs) > 2 else v
        q_mask, v_mask = (mask[0], mask[1]) if mask else (None, None)
        scores = self._calculate_scores(q, k)
        keep = None if v_mask is None else expand_dims(cast(v_mask, "bool"), -2)
        if use_causal_mask:
            causal = _causal(scores.shape[-2], scores.shape[-1])
            keep = causal if keep is None else logical_and(keep, causal)
        if keep is not None:
            scores = where(keep, scores, scores - 1e9)
        weights = activations.softmax(scores, axis=-1)
        dropped = weights
        if training and self.dropout > 0:
            dropped = random.dropout(weights, self.dropout, seed=self.seed_generator)
        out = matmul(dropped, v)
        if q_mask is not None:
            out = where(expand_dims(cast(q_mask, "bool"), -1), out, 0.0)
        return (out, weights) if return_attention_scores else out

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        if mask is None or mask[0] is None:
            return None
        return convert_to_tensor(mask[0])

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        return (*input_shape[0][:-1], input_shape[1][-1])

    def compute_output_spec(self, inputs: Any, mask: Any = None, training: Any = None,
                            return_attention_scores: bool = False, use_causal_mask: bool = False) -> Any:
        self._validate_inputs(inputs, mask)
        q, v = inputs[0], inputs[1]
        k = inputs[2] if len(inputs) > 2 else v
        out = KerasTensor(self.compute_output_shape([q.shape, v.shape]), self.compute_dtype)
        out._keras_mask = q._keras_mask
        if not return_attention_scores:
            return out
        return out, KerasTensor((*q.shape[:-1], k.shape[-2]), self.compute_dtype)

    def get_config(self) -> dict:
        return {**super().get_config(), "use_scale": self.use_scale, "score_mode": self.score_mode,
                "dropout": self.dropout, "seed": self.seed}


class AdditiveAttention(Attention):
    """Additive attention (Bahdanau): scores ``sum(scale * tanh(query + key), -1)`` with a
    trainable ``scale`` of shape ``(dim,)`` (``use_scale=True``, the default); otherwise as
    :class:`Attention`.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> layer = keras.layers.AdditiveAttention()
    >>> layer([tf.ones([2, 3, 4]), tf.ones([2, 5, 4])]).shape, layer.scale.shape
    (TensorShape([2, 3, 4]), TensorShape([4]))
    """

    def __init__(self, use_scale: bool = True, dropout: float = 0.0, **kwargs: Any) -> None:
        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)

    def build(self, input_shape: Sequence) -> None:
        self._validate_inputs(input_shape)
        self.scale = self.add_weight(name="scale", shape=(input_shape[0][-1],), initializer="glorot_uniform") \
            if self.use_scale else None
        self.built = True

    def _calculate_scores(self, query: Any, key: Any) -> Any:
        t = tanh(expand_dims(query, -2) + expand_dims(key, -3))
        return reduce_sum(t if self.scale is None else self.scale * t, -1)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["score_mode"]
        return config


class _Projection(Layer):
    """``x @ kernel + bias`` contracting the last ``bound`` axes of ``x`` with the first of
    ``kernel`` (Keras's EinsumDense inside MultiHeadAttention, named query, key, value and
    attention_output)."""

    def __init__(self, bound: int, out: tuple, use_bias: bool, owner: MultiHeadAttention, **kwargs: Any) -> None:
        super().__init__(dtype=owner.dtype, **kwargs)
        self.bound, self.out, self.use_bias = bound, tuple(out), use_bias
        # a clone of the owner's initializers per sub-layer, as Keras makes one (an unseeded clone
        # draws its own default seed: q, k and v do not start equal)
        for p in ("kernel", "bias"):
            weight_args(self, p, getattr(owner, f"_{p}_initializer").clone(), getattr(owner, f"_{p}_regularizer"),
                        getattr(owner, f"_{p}_constraint"))
        self.activity_regularizer = owner._activity_regularizer

    def build(self, input_shape: Sequence) -> None:
        shape = tuple(input_shape[-self.bound:]) + self.out
        init = axes_initializer(self.kernel_initializer, range(self.bound), range(self.bound, len(shape)))
        self.kernel = new_weight(self, "kernel", shape, initializer=init)
        self.bias = new_weight(self, "bias", self.out) if self.use_bias else None
        self.built = True

    def call(self, x: Any) -> Any:
        lead, n = x.shape[:-self.bound], int(np.prod(self.kernel.shape[:self.bound]))
        y = matmul(reshape(x, (-1, n)), reshape(self.kernel, (n, -1)))
        y = reshape(y, (*lead, *self.out))
        return y if self.bias is None else y + self.bias


class MultiHeadAttention(Layer):
    """Multi-head attention (Vaswani et al. 2017), Keras 3's weights and numbers.

    ``query`` ``(B, T, dim)`` and ``value``/``key`` ``(B, S, dim)`` are projected to
    ``num_heads`` heads (``key_dim`` for query and key, ``value_dim`` (default ``key_dim``) for
    value), each head attends with ``softmax(q k^T / sqrt(key_dim))``, and the heads are
    projected back to ``output_shape`` (default the query's last dimension). Weights (kernel and
    bias of the sublayers ``query``, ``key``, ``value``, ``attention_output``): ``(dim,
    num_heads, key_dim)``, ``(num_heads, key_dim)``, ..., ``(num_heads, value_dim, *out)``,
    ``out``. ``attention_axes`` (default: every axis between the batch and the features) may
    attend over several axes of higher-rank inputs. ``use_gate=True`` multiplies the heads by a
    sigmoid gate projected from the query (sublayer ``gate``) before the output projection;
    ``sliding_window=w`` lets a position attend only to positions less than ``w`` away.

    Call arguments: ``query, value, key=None, query_mask=None, value_mask=None, key_mask=None,
    attention_mask=None`` (``(B, T, S)`` booleans, True = attend), ``return_attention_scores``
    (also return the ``(B, num_heads, T, S)`` weights), ``training``, ``use_causal_mask``. The
    inputs' Keras masks are used when the mask arguments are not given.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> mha = keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)
    >>> out, scores = mha(tf.ones([4, 5, 6]), tf.ones([4, 7, 6]), return_attention_scores=True)
    >>> out.shape, scores.shape
    (TensorShape([4, 5, 6]), TensorShape([4, 2, 5, 7]))
    >>> [w.path for w in mha.weights][:2], tuple(mha.weights[0].shape)
    (['multi_head_attention/query/kernel', 'multi_head_attention/query/bias'], (6, 2, 3))
    """

    def __init__(self, num_heads: int, key_dim: int, value_dim: int | None = None, dropout: float = 0.0,
                 use_bias: bool = True, output_shape: Any = None, attention_axes: Any = None,
                 sliding_window: int | None = None, flash_attention: Any = None, kernel_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None, bias_constraint: Any = None,
                 use_gate: bool = False, seed: Any = None, **kwargs: Any) -> None:
        for arg, val in (("num_heads", num_heads), ("key_dim", key_dim)):
            if isinstance(val, bool) or not isinstance(val, int) or val <= 0:
                raise ValueError(f"Received an invalid value for argument `{arg}`, expected a positive integer. "
                                 f"Received: {arg}={val}")
        if value_dim is not None and (isinstance(value_dim, bool) or not isinstance(value_dim, int)
                                      or value_dim <= 0):
            raise ValueError("Received an invalid value for argument `value_dim`, expected a positive integer or "
                             f"`None`. Received: value_dim={value_dim}")
        if flash_attention:
            raise NotImplementedError("MultiHeadAttention(flash_attention=True) is not covered by tapegrad "
                                      "(it computes the same numbers as flash_attention=None).")
        super().__init__(**kwargs)
        self.supports_masking = True
        self._num_heads, self._key_dim = num_heads, key_dim
        self._value_dim = value_dim or key_dim
        self._dropout, self._use_bias = float(dropout), bool(use_bias)
        if output_shape:
            if isinstance(output_shape, int):
                output_shape = (output_shape,)
            try:
                output_shape = tuple(output_shape)
            except TypeError:
                raise ValueError(f"Invalid `output_shape`: {output_shape}. When specified, the `output_shape` "
                                 "should be of type tuple, list, or int.") from None
        self._output_shape = output_shape or None
        weight_args(self, "_kernel", kernel_initializer, kernel_regularizer, kernel_constraint)
        weight_args(self, "_bias", bias_initializer, bias_regularizer, bias_constraint)
        self._activity_regularizer = activity_regularizer
        if isinstance(attention_axes, int):
            attention_axes = (attention_axes,)
        elif attention_axes and not isinstance(attention_axes, (list, tuple)):
            raise ValueError(f"`attention_axes` must be an int, list, or tuple.Received: "
                             f"attention_axes={attention_axes}")
        self._attention_axes = attention_axes
        if sliding_window is not None and (isinstance(sliding_window, bool) or not isinstance(sliding_window, int)
                                           or sliding_window <= 0):
            raise ValueError(f"`sliding_window` must be `None` or a positive integer. Received: "
                             f"sliding_window={sliding_window}")
        self._sliding_window, self._use_gate = sliding_window, bool(use_gate)
        self.seed = seed

    num_heads = property(lambda self: self._num_heads)
    key_dim = property(lambda self: self._key_dim)
    value_dim = property(lambda self: self._value_dim)
    dropout = property(lambda self: self._dropout)
    use_bias = property(lambda self: self._use_bias)
    attention_axes = property(lambda self: self._attention_axes)
    # the projections, under Keras's public names (what its weights files are keyed by)
    query_dense = property(lambda self: self._query_dense)
    key_dense = property(lambda self: self._key_dense)
    value_dense = property(lambda self: self._value_dense)
    output_dense = property(lambda self: self._output_dense)

    def build(self, query_shape: Sequence, value_shape: Sequence, key_shape: Sequence | None = None) -> None:
        key_shape = value_shape if key_shape is None else key_shape
        if tuple(value_shape[1:-1]) != tuple(key_shape[1:-1]):
            raise ValueError("All dimensions of `value` and `key`, except the last one, must be equal. "
                             f"Received: value_shape={value_shape} and key_shape={key_shape}")
        h, b = self._num_heads, self._use_bias
        self._query_dense = _Projection(1, (h, self._key_dim), b, self, name="query")
        self._query_dense.build(query_shape)
        self._key_dense = _Projection(1, (h, self._key_dim), b, self, name="key")
        self._key_dense.build(key_shape)
        if self._use_gate:
            self._gate_dense = _Projection(1, (h, self._value_dim), b, self, name="gate")
            self._gate_dense.build(query_shape)
        self._value_dense = _Projection(1, (h, self._value_dim), b, self, name="value")
        self._value_dense.build(value_shape)
        if self._dropout > 0.0:  # (Keras's attention Dropout, made here: it draws a default seed in this order)
            self.seed_generator = random.SeedGenerator(self.seed)
        out = self._output_shape or (query_shape[-1],)
        self._output_dense = _Projection(2, out, b, self, name="attention_output")
        self._output_dense.build((*query_shape[:-1], h, self._value_dim))
        rank = len(query_shape) + 1   # of the projected tensors
        axes = tuple(range(1, rank - 2)) if self._attention_axes is None else \
            tuple(a if a >= 0 else rank - 1 + a for a in self._attention_axes)
        self._attention_axes = axes
        # batch axes (the heads' axis last of them), then the attended axes, then the channels
        self._perm = [i for i in range(rank - 1) if i not in axes] + list(axes) + [rank - 1]
        self._unperm = list(np.argsort(self._perm))
        self._norm_axes = tuple(range(rank - 1, rank - 1 + len(axes)))
        for sub in (self._query_dense, self._key_dense, self._value_dense, self._output_dense):
            sub.built = True
        self.built = True

    query_dense = property(lambda self: self._query_dense)
    key_dense = property(lambda self: self._key_dense)
    value_dense = property(lambda self: self._value_dense)
    output_dense = property(lambda self: self._output_dense)

    def call(self, query: Any, value: Any, key: Any = None, query_mask: Any = None, value_mask: Any = None,
             key_mask: Any = None, attention_mask: Any = None, return_attention_scores: bool = False,
             training: Any = None, use_causal_mask: bool = False) -> Any:
        query_mask = get_mask(query) if query_mask is None else query_mask
        value_mask = get_mask(value) if value_mask is None else value_mask
        if key is None:
            key = value
        elif key_mask is None:
            key_mask = get_mask(key)
        for t in (query, value, key):  # (as Keras: the masks are handled here, and taken off the inputs)
            if isinstance(t, Tensor):
                set_mask(t, None)
        keep = self._compute_attention_mask(query, value, query_mask, value_mask, key_mask, attention_mask,
                                            use_causal_mask)
        gate = activations.sigmoid(self._gate_dense(query)) if self._use_gate else None
        q = self._query_dense(query) * math.sqrt(1.0 / self._key_dim)
        k, v = self._key_dense(key), self._value_dense(value)
        q, k, v = (transpose(t, self._perm) for t in (q, k, v))
        n = len(self._attention_axes)
        lead, tq, ts = q.shape[:-1 - n], q.shape[-1 - n:-1], k.shape[-1 - n:-1]
        nq, ns = int(np.prod(tq)), int(np.prod(ts))
        scores = matmul(reshape(q, (-1, nq, q.shape[-1])), reshape(k, (-1, ns, k.shape[-1])), transpose_b=True)
        scores = reshape(scores, (*lead, *tq, *ts))
        if keep is not None:
            for _ in range(scores.ndim - keep.ndim):
                keep = expand_dims(keep, -2 * n - 1)
            scores = where(keep, scores, -1e9)
        weights = _softmax(scores, self._norm_axes)
        if keep is not None and (self._dropout > 0.0 or return_attention_scores or query.ndim != 3):
            weights = where(keep, weights, 0.0)  # (Keras's Softmax layer: a row masked whole gives
            # zeros; its dot_product_attention, used otherwise, gives uniform weights)
        dropped = weights
        if training and self._dropout > 0.0:
            dropped = random.dropout(weights, self._dropout, seed=self.seed_generator)
        heads = matmul(reshape(dropped, (-1, nq, ns)), reshape(v, (-1, ns, v.shape[-1])))
        heads = transpose(reshape(heads, (*lead, *tq, v.shape[-1])), self._unperm)
        out = self._output_dense(heads if gate is None else heads * gate)
        if query_mask is not None:
            set_mask(out, query_mask)
        return (out, weights) if return_attention_scores else out

    def _compute_attention_mask(self, query: Any, value: Any, query_mask: Any = None, value_mask: Any = None,
                                key_mask: Any = None, attention_mask: Any = None,
                                use_causal_mask: bool = False) -> Any:
        """The ``(B, T, S)`` boolean mask (True = attend) from the inputs' masks, the causal
        mask and ``attention_mask``, combined with ``and``; None when there is none."""
        parts = []
        if query_mask is not None:
            parts.append(expand_dims(cast(query_mask, "bool"), -1))
        for m in (value_mask, key_mask):
            if m is not None:
                parts.append(expand_dims(cast(m, "bool"), -2))
        if use_causal_mask:
            parts.append(_causal(query.shape[1], value.shape[1]))
        if self._sliding_window is not None:
            t, s = np.arange(query.shape[1]), np.arange(value.shape[1])
            parts.append(convert_to_tensor((abs(t[:, None] - s[None, :]) < self._sliding_window)[None]))
        if attention_mask is not None:
            parts.insert(0, cast(convert_to_tensor(attention_mask), "bool"))
        keep = None
        for p in parts:
            keep = p if keep is None else logical_and(keep, p)
        return keep

    def compute_output_spec(self, query: Any, value: Any, key: Any = None, query_mask: Any = None,
                            value_mask: Any = None, key_mask: Any = None, attention_mask: Any = None,
                            return_attention_scores: bool = False, training: Any = None,
                            use_causal_mask: bool = False) -> Any:
        shape = self.compute_output_shape(query.shape, value.shape, None if key is None else key.shape)
        out = KerasTensor(shape, self.compute_dtype)
        out._keras_mask = query._keras_mask
        if not return_attention_scores:
            return out
        q, v, axes = tuple(query.shape), tuple(value.shape), self._attention_axes
        batch = [q[i] for i in range(len(q) - 1) if i not in axes]
        scores = (*batch, self._num_heads, *[q[i] for i in axes], *[v[i] for i in axes])
        return out, KerasTensor(scores, self.compute_dtype)

    def compute_output_shape(self, query_shape: Sequence, value_shape: Sequence,
                             key_shape: Sequence | None = None) -> tuple:
        key_shape = value_shape if key_shape is None else key_shape
        if tuple(value_shape[1:-1]) != tuple(key_shape[1:-1]):
            raise ValueError("All dimensions of `value` and `key`, except the last one, must be equal. "
                             f"Received: value_shape={value_shape} and key_shape={key_shape}")
        return tuple(query_shape[:-1]) + self._output_shape if self._output_shape else tuple(query_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "num_heads": self._num_heads, "key_dim": self._key_dim,
                "value_dim": self._value_dim, "dropout": self._dropout, "use_bias": self._use_bias,
                "use_gate": self._use_gate, "output_shape": self._output_shape,
                "attention_axes": self._attention_axes, "sliding_window": self._sliding_window,
                "kernel_initializer": serialized(self._kernel_initializer),
                "bias_initializer": serialized(self._bias_initializer),
                "kernel_regularizer": serialized(self._kernel_regularizer),
                "bias_regularizer": serialized(self._bias_regularizer),
                "activity_regularizer": serialized(self._activity_regularizer),
                "kernel_constraint": serialized(self._kernel_constraint),
                "bias_constraint": serialized(self._bias_constraint), "seed": self.seed}


def _softmax(x: Any, axes: tuple) -> Any:
    if len(axes) == 1:
        return activations.softmax(x, axis=axes[0])
    return exp(x - reduce_logsumexp(x, axis=list(axes), keepdims=True))
