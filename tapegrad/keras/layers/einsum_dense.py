"""Keras 3's EinsumDense: a dense layer whose product with the kernel is an einsum equation
(``"ab,bc->ac"``, ``"...b,bc->...c"``, ``"abc,cd->abd"``, ...)."""
from __future__ import annotations

import copy
import re
from typing import Any, Sequence

import numpy as np

from .._engine import Tensor, convert_to_tensor
from .. import activations, initializers, ops as _kops
from .input_spec import InputSpec
from .layer import Layer
from .conv import new_weight, serialized, weight_args, weight_config
from ..quantizers._layers import (AbsMaxQuantizer, Int4QuantizationConfig, QuantizationConfig,
                                  abs_max_quantize, abs_max_quantize_grouped_with_zero_point,
                                  dequantize_with_sz_map, float8_bias, float8_build, float8_inputs,
                                  float8_outputs, int4_block_size, int8_product, kernel_quantize_begins,
                                  kernel_quantize_ends, pack_int4, quantization_config_of,
                                  quantization_not_covered, saved_variables, serialize_config, unpack_int4)

__all__ = ["EinsumDense"]


def _shapes(equation: str, bias_axes: str | None, input_shape: Sequence, partial: tuple) -> tuple:
    """Kernel shape, bias shape, full output shape and the kernel's input and output axes, as
    Keras derives them from the equation (an ellipsis on the left or the right of the specs)."""
    eq = re.sub(r"\.\.\.", "0", equation)
    left = False
    m = re.match("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)", eq)
    if not m:
        m = re.match("0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)", eq)
        left = bool(m)
    if not m:
        m = re.match("([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0", eq)
    if not m:
        raise ValueError(f"Invalid einsum equation '{equation}'. Equations must be in the form "
                         "[X],[Y]->[Z], ...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")
    ins, ws, outs = m.groups()
    elided = len(input_shape) - len(ins)
    out_shape = [input_shape[0], *partial]
    if elided > 0 and left:
        for i in range(1, elided):
            out_shape.insert(1, input_shape[i])
    elif elided > 0:
        out_shape.extend(input_shape[len(input_shape) - elided:])
    if left:
        in_map = {d: i + elided - len(input_shape) for i, d in enumerate(ins)}
        out_map = {d: i + elided for i, d in enumerate(outs)}
    else:
        in_map = {d: i for i, d in enumerate(ins)}
        out_map = {d: i for i, d in enumerate(outs)}
    for d in ins:
        if d in out_map and out_shape[out_map[d]] is not None and out_shape[out_map[d]] != input_shape[in_map[d]]:
            raise ValueError(f"Input shape and output shape do not match at shared dimension '{d}'. Input shape is "
                             f"{input_shape[in_map[d]]}, and output shape is {out_shape[out_map[d]]}.")
    for d in outs:
        if d not in ins and d not in ws:
            raise ValueError(f"Dimension '{d}' was specified in the output '{outs}' but has no corresponding dim "
                             f"in the input spec '{ins}' or weight spec '{ws}'")
    kernel, in_axes, out_axes = [], [], []
    for i, d in enumerate(ws):
        if d in out_map:
            kernel.append(out_shape[out_map[d]])
            out_axes.append(i)
        elif d in in_map:
            kernel.append(input_shape[in_map[d]])
            in_axes.append(i)
        else:
            raise ValueError(f"Weight dimension '{d}' did not have a match in either the input spec '{ins}' or the "
                             f"output spec '{outs}'. For this layer, the weight must be fully specified.")
    bias = None
    if bias_axes is not None:
        skip = elided if left else 0
        sizes = {c: out_shape[i + skip] for i, c in enumerate(outs)}
        for c in bias_axes:
            if c not in outs:
                raise ValueError(f"Bias dimension '{c}' was requested, but is not part of the output spec '{outs}'")
        first = min(outs.find(c) for c in bias_axes)
        bias = [sizes[c] if c in bias_axes else 1 for c in outs[first:]] + ([] if left else [1] * elided)
    return kernel, bias, out_shape, in_axes, out_axes


def axes_initializer(init: Any, in_axes: Sequence, out_axes: Sequence) -> Any:
    """``init``, or for a VarianceScaling initializer without axes a copy (same seed) whose fans
    count the kernel's ``in_axes`` and ``out_axes``, as Keras's EinsumDense initializes."""
    if isinstance(init, initializers.VarianceScaling) and (init.input_axes is None or init.output_axes is None):
        init = copy.copy(init)
        init.input_axes, init.output_axes = list(in_axes), list(out_axes)
    return init


class EinsumDense(Layer):
    """``activation(einsum(equation, inputs, kernel) + bias)``: the kernel's shape follows from
    the equation, the input shape and ``output_shape`` (the output's shape without the batch
    axis; ``None`` for an axis of the input's size); ``bias_axes`` names the output axes the
    bias spans.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> layer = keras.layers.EinsumDense("abc,cde->abde", output_shape=(None, 4, 5), bias_axes="de")
    >>> layer(tf.ones([2, 7, 3])).shape
    TensorShape([2, 7, 4, 5])
    >>> [w.shape for w in layer.weights]
    [TensorShape([3, 4, 5]), TensorShape([4, 5])]
    """

    _checkpoint_names = {"kernel": "_kernel"}  # (Keras 3 keeps the kernel as `_kernel`)

    def __init__(self, equation: str, output_shape: Any, activation: Any = None, bias_axes: str | None = None,
                 kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, kernel_constraint: Any = None,
                 bias_constraint: Any = None, lora_rank: int | None = None, lora_alpha: float | None = None,
                 quantization_config: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.quantization_config = quantization_config_of(quantization_config)
        if lora_rank is not None:
            raise NotImplementedError("EinsumDense(lora_rank=...) is not covered by tapegrad.")
        self.equation = equation
        self.partial_output_shape = (output_shape,) if isinstance(output_shape, int) else tuple(output_shape)
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        weight_args(self, "kernel", kernel_initializer, kernel_regularizer, kernel_constraint)
        weight_args(self, "bias", bias_initializer, bias_regularizer, bias_constraint)

    def build(self, input_shape: Sequence) -> None:
        kernel, bias, self.full_output_shape, in_axes, out_axes = _shapes(
            self.equation, self.bias_axes, tuple(input_shape), self.partial_output_shape)
        self.input_spec = InputSpec(ndim=len(input_shape))
        mode = self.quantization_mode
        if mode is not None:  # (float8: its scales first, then the float kernel, as Keras builds)
            self.quantized_build(tuple(kernel), mode, self.quantization_config)
        if mode not in ("int8", "int4"):
            init = axes_initializer(self.kernel_initializer, in_axes, out_axes)
            self.kernel = new_weight(self, "kernel", tuple(kernel), initializer=init)
        self.bias = None if bias is None else new_weight(self, "bias", tuple(bias))
        if mode is not None:
            self._weights_trainable_first()
        self.built = True

    @property
    def _kernel(self) -> Any:  # (Keras 3's name for the stored kernel: int8 once quantized)
        return self.kernel

    # -- quantization (Keras 3's EinsumDense.quantize: int8 kernel per output entry, inputs
    # quantized over the axes the equation sums)

    def _saved_variables(self) -> list | None:  # (weights files: Keras's order for a quantized layer)
        return saved_variables(self)

    def quantize(self, mode: str | None = None, type_check: bool = True, config: Any = None) -> None:
        if kernel_quantize_begins(self, EinsumDense, mode, type_check, config):
            return
        info = self._quantization_info()
        kernel, zero = self.kernel, None
        if mode == "int8":
            quantizer = QuantizationConfig.weight_quantizer_or_default(config, AbsMaxQuantizer(axis=info.kernel_reduced))
            values, scale = quantizer(kernel, to_numpy=True)
            scale = info.for_output(scale, "kernel")
        else:  # (the kernel reshaped, as Keras does, to (summed entries, other entries))
            rows, cols = info.int4_shape(kernel.shape)
            flat = _kops.reshape(kernel, (rows, cols))
            block = config.block_size if isinstance(config, Int4QuantizationConfig) else None
            if block is not None and block != -1:
                values, scale, zero = abs_max_quantize_grouped_with_zero_point(flat, block_size=block, to_numpy=True)
            else:
                values, scale = abs_max_quantize(flat, axis=0, value_range=(-8, 7), to_numpy=True)
                scale = _kops.squeeze(scale, axis=0)
            values = pack_int4(values, axis=-1)[0]
        kernel_quantize_ends(self, kernel, mode, config, values, scale, zero)

    def quantized_build(self, kernel_shape: Any, mode: str, config: Any = None) -> None:
        if mode == "float8":
            return float8_build(self)
        if mode not in ("int8", "int4"):
            raise quantization_not_covered(self, mode, ("int8", "int4", "float8"))
        info = self._quantization_info()
        self.inputs_quantizer = QuantizationConfig.activation_quantizer_or_default(
            config, AbsMaxQuantizer() if mode == "int8" else None)
        self.quantization_axis = tuple(info.input_reduced)
        if mode == "int8":
            self.kernel = self.add_weight(name="kernel", shape=kernel_shape, initializer="zeros", dtype="int8",
                                          trainable=False)
            self.kernel_scale = self.add_weight(name="kernel_scale", shape=info.kernel_scale_shape(kernel_shape),
                                                initializer="ones", trainable=False)
        else:
            rows, cols = info.int4_shape(kernel_shape)
            block = int4_block_size(self, config)
            grouped = block is not None and block != -1
            self.kernel = self.add_weight(name="kernel", shape=(rows, (cols + 1) // 2), initializer="zeros",
                                          dtype="int8", trainable=False)
            scale_shape = (-(-rows // block), cols) if grouped else (cols,)
            self.kernel_scale = self.add_weight(name="kernel_scale", shape=scale_shape, initializer="ones",
                                                trainable=False)
            if grouped:
                self.kernel_zero = self.add_weight(name="kernel_zero", shape=scale_shape, initializer="zeros",
                                                   dtype="int8", trainable=False)
                self.g_idx = self.add_weight(name="g_idx", shape=(rows,), trainable=False, dtype="float32",
                                             initializer=lambda shape, dtype: np.arange(rows, dtype=dtype) // block)
            self._int4_block_size = block if grouped else None
            self._int4_columns, self.original_kernel_shape = cols, tuple(kernel_shape)
        self._is_quantized = True

    def _float8_call(self, inputs: Any, training: Any = None) -> Tensor:
        x = _kops.einsum(self.equation,
                         float8_inputs(self, inputs, self.inputs_scale, self.inputs_amax_history, training),
                         float8_inputs(self, self.kernel, self.kernel_scale, self.kernel_amax_history, training))
        x = float8_outputs(self, x, self.outputs_grad_scale, self.outputs_grad_amax_history)
        if self.bias is not None:
            x = _kops.add(x, float8_bias(self, self.bias))
        return self.activation(x) if self.activation is not None else x

    def _int4_call(self, inputs: Any, training: Any = None) -> Tensor:
        info, eq, shape, compute = self._quantization_info(), self.equation, self.original_kernel_shape, self.compute_dtype
        unpacked = unpack_int4(self.kernel, self._int4_columns, axis=-1)
        grouped = self._int4_block_size is not None
        extra = (self.kernel_zero, self.g_idx) if grouped else ()
        quantizer = self.inputs_quantizer

        @_kops.custom_gradient
        def product(x: Any, k: Any, s: Any, *zg: Any) -> tuple:
            w = dequantize_with_sz_map(k, s, zg[0], zg[1], group_axis=0) if grouped else \
                _kops.divide(_kops.cast(k, compute), s)
            w = _kops.reshape(_kops.cast(w, compute), shape)
            grad = lambda dy: (_kops.einsum(info.gradient_equation, dy, w),) + (None,) * (2 + len(zg))  # noqa: E731
            if quantizer and not grouped:
                xq, xs = quantizer(x, axis=self.quantization_axis)
                return _kops.divide(_kops.cast(_kops.einsum(eq, xq, w), compute), info.for_output(xs, "input")), grad
            return _kops.einsum(eq, x, w), grad

        x = product(inputs, unpacked, *(convert_to_tensor(v) for v in (self.kernel_scale,) + extra))
        if self.bias is not None:
            x = x + self.bias if x.dtype == self.bias.dtype else _kops.add.__wrapped__(x, self.bias)
        return self.activation(x) if self.activation is not None else x

    def _quantization_info(self) -> "_QuantizationInfo":
        return _QuantizationInfo(self.equation, self.input_spec.ndim)

    def _int8_call(self, inputs: Any, training: Any = None) -> Tensor:
        info = self._quantization_info()
        x = int8_product(self, inputs, self.kernel, self.kernel_scale,
                         lambda a, k: _kops.einsum(self.equation, a, k),
                         lambda dy, k: _kops.einsum(info.gradient_equation, dy, k), axis=self.quantization_axis,
                         input_scale=lambda s: info.for_output(s, "input"), kernel_scale_layout=info.for_kernel)
        if self.bias is not None:
            x = x + self.bias if x.dtype == self.bias.dtype else _kops.add.__wrapped__(x, self.bias)
        return self.activation(x) if self.activation is not None else x

    def call(self, inputs: Any, training: Any = None) -> Tensor:
        x = _kops.einsum.__wrapped__(self.equation, inputs, self.kernel)  # (promotes, as Keras's ops)
        if self.bias is not None:
            x = x + self.bias if x.dtype == self.bias.dtype else _kops.add.__wrapped__(x, self.bias)
        return self.activation(x) if self.activation is not None else x

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        return tuple(_shapes(self.equation, self.bias_axes, tuple(input_shape), self.partial_output_shape)[2])

    def get_config(self) -> dict:
        return {**super().get_config(), "equation": self.equation, "output_shape": self.partial_output_shape,
                "activation": activations.serialize(self.activation), "bias_axes": self.bias_axes,
                "activity_regularizer": serialized(self.activity_regularizer), **weight_config(self, "kernel", "bias"),
                "quantization_config": serialize_config(self.quantization_config)}


class _QuantizationInfo:
    """How an EinsumDense's equation lays out its quantization scales (Keras 3's
    ``_analyze_quantization_info``): the input and kernel axes the equation sums (the axes the
    abs-max is taken over), and for each scale the transpose, the new unit axes and the dropped
    axes that make it broadcast against the output; the kernel is stored with the kernel's scale
    laid out so. ``gradient_equation`` gives the inputs' gradient from the output's."""

    def __init__(self, equation: str, ndim: int) -> None:
        ins, ws, outs = _full_specs(equation, ndim)
        self.input_reduced = [i for i, c in enumerate(ins) if c not in outs]
        self.kernel_reduced = [i for i, c in enumerate(ws) if c not in outs]
        index = outs.find(ws[-1])  # (Keras's loops leave their last index behind: kept, for its layouts)
        layouts = {}
        for name, spec, reduced in (("input", ins, self.input_reduced), ("kernel", ws, self.kernel_reduced)):
            expand = [i for i, c in enumerate(outs) if c not in spec]
            transpose = [spec.index(c) for c in outs if c in spec]
            squeeze = []
            for axis in reduced:
                if expand:
                    index = expand.pop(0)
                else:
                    squeeze.append(axis)
                transpose.insert(index, axis)
            layouts[name] = (transpose, expand, squeeze)
        self.layouts = layouts
        self.gradient_equation = f"{outs},{ws}->{ins}"

    def int4_shape(self, kernel_shape: Sequence) -> tuple:
        """(the product of the summed kernel axes, the product of the others)."""
        rows = int(np.prod([d for i, d in enumerate(kernel_shape) if i in self.kernel_reduced]))
        return rows, int(np.prod([d for i, d in enumerate(kernel_shape) if i not in self.kernel_reduced]))

    def kernel_scale_shape(self, kernel_shape: Sequence) -> list:
        transpose, expand, squeeze = self.layouts["kernel"]
        shape = [1 if i in self.kernel_reduced else d for i, d in enumerate(kernel_shape)]
        shape = [shape[a] for a in transpose]
        for a in sorted(expand):
            shape.insert(a, 1)
        for a in sorted(squeeze, reverse=True):
            shape.pop(a)
        return shape

    def for_output(self, scale: Any, which: str) -> Any:
        """``scale`` (the kernel's or the inputs', dims kept) laid out against the output."""
        transpose, expand, squeeze = self.layouts[which]
        if transpose:
            scale = _kops.transpose(scale, transpose)
        if expand:
            scale = _kops.expand_dims(scale, expand)
        if squeeze:
            scale = _kops.squeeze(scale, squeeze)
        return scale

    def for_kernel(self, scale: Any) -> Any:
        """The stored kernel scale laid out against the kernel again (to dequantize it)."""
        transpose, expand, squeeze = self.layouts["kernel"]
        if squeeze:
            scale = _kops.expand_dims(scale, squeeze)
        if expand:
            scale = _kops.squeeze(scale, expand)
        if transpose:
            scale = _kops.transpose(scale, sorted(range(len(transpose)), key=transpose.__getitem__))
        return scale


def _full_specs(equation: str, ndim: int) -> tuple:
    """The equation's input, kernel and output letters, an ellipsis replaced by unused letters."""
    import string
    eq = re.sub(r"\.\.\.", "0", equation)
    for pattern, side in (("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)", None),
                          ("0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)", "left"),
                          ("([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0", "right")):
        m = re.match(pattern, eq)
        if m:
            ins, ws, outs = m.groups()
            if side is not None:
                free = sorted(set(string.ascii_letters) - set(ins) - set(ws) - set(outs))
                for i in range(ndim - len(ins)):
                    ins, outs = (free[i] + ins, free[i] + outs) if side == "left" else (ins + free[i], outs + free[i])
            return ins, ws, outs
    raise ValueError(f"Invalid einsum equation '{equation}'. Equations must be in the form [X],[Y]->[Z], "
                     "...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")
