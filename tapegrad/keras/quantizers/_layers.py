"""What the quantized layers (Dense, EinsumDense, Embedding) share: the int8 product with the
gradient Keras 3 gives it, float8's quantize-dequantize steps and scales, and the config and
error helpers."""
from __future__ import annotations

from typing import Any, Callable

from .. import ops
from ..saving import serialize_keras_object as serialize_config
from .quantization_config import Int4QuantizationConfig, QuantizationConfig
from .quantizers import (_FLOAT8, AbsMaxQuantizer, abs_max_quantize, abs_max_quantize_grouped_with_zero_point,
                         compute_float8_amax_history, compute_float8_scale, quantize_and_dequantize,
                         dequantize_with_sz_map, pack_int4, through_bfloat16, unpack_int4)

__all__ = ["AbsMaxQuantizer", "Int4QuantizationConfig", "QuantizationConfig", "abs_max_quantize",
           "abs_max_quantize_grouped_with_zero_point", "dequantize_with_sz_map", "float8_bias", "float8_build", "float8_inputs", "float8_outputs",
           "int4_block_size", "int4_policy_name", "int8_product", "pack_int4",
           "quantization_config_of", "quantization_not_covered", "saved_variables", "serialize_config", "unpack_int4"]


def quantization_config_of(value: Any) -> Any:
    """A layer's ``quantization_config`` argument: a config, ``None``, or a saved config's dict."""
    if value is None or isinstance(value, QuantizationConfig):
        return value
    if isinstance(value, dict) and "class_name" in value:
        from . import deserialize
        value = deserialize(value)
        if isinstance(value, QuantizationConfig):
            return value
    raise ValueError("`quantization_config` must be a keras.quantizers.QuantizationConfig (such as "
                     f"Int8QuantizationConfig()) or None. Received: {value!r} (of type {type(value).__name__})")


def quantization_not_covered(layer: Any, mode: Any, covered: tuple = ("int8",)) -> NotImplementedError:
    """The error for a mode Keras 3 has and tapegrad does not (docs/differences.md)."""
    if mode in ("int4", "float8", "gptq", "awq"):
        return NotImplementedError(f"{type(layer).__name__}.quantize(mode={mode!r}) is not implemented in tapegrad "
                                   f"(docs/differences.md): it quantizes a {type(layer).__name__} in "
                                   f"{' or '.join(map(repr, covered))}.")
    return layer._quantization_mode_error(mode)


def kernel_quantize_begins(layer: Any, cls: type, mode: Any, type_check: bool, config: Any) -> bool:
    """What Dense's and EinsumDense's ``quantize`` do first: refuse a subclass (with
    ``type_check``), keep ``config``, quantize to float8 whole (True: nothing is left to do), and
    refuse a mode other than int8 and int4."""
    if type_check and type(layer) is not cls:
        raise layer._not_implemented_error(layer.quantize)
    layer.quantization_config = config
    if mode == "float8":
        layer.quantized_build(tuple(layer.kernel.shape), mode)
        layer._float8_weights_first()
        if layer.dtype_policy.quantization_mode is None:
            layer.dtype_policy = f"float8_from_{layer.dtype_policy.name}"
        return True
    if mode not in ("int8", "int4"):
        raise quantization_not_covered(layer, mode, ("int8", "int4", "float8"))
    return False


def kernel_quantize_ends(layer: Any, kernel: Any, mode: str, config: Any, values: Any, scale: Any,
                         zero: Any) -> None:
    """What Dense's and EinsumDense's ``quantize`` do last: replace the float ``kernel`` by the
    quantized variables holding ``values``, ``scale`` (and ``zero``), and name the policy."""
    del layer.kernel
    layer.quantized_build(tuple(kernel.shape), mode, config)
    layer.kernel.assign(values)
    layer.kernel_scale.assign(scale)
    if zero is not None:
        layer.kernel_zero.assign(zero)
    layer._weights_trainable_first()
    if layer.dtype_policy.quantization_mode is None:
        layer.dtype_policy = f"{int4_policy_name(mode, int4_block_size(layer, config))}_from_{layer.dtype_policy.name}"


def int4_block_size(layer: Any, config: Any) -> int | None:
    """The rows of the kernel per int4 scale: the config's ``block_size``, else the layer's
    ``Int4DTypePolicy``'s (a loaded model), else per channel (``None``), as Keras decides."""
    from ..dtype_policies import Int4DTypePolicy
    if isinstance(config, Int4QuantizationConfig):
        return config.block_size
    policy = layer.dtype_policy
    if isinstance(policy, Int4DTypePolicy):
        return None if policy.block_size == -1 else policy.block_size
    return None


def int4_policy_name(mode: str, block_size: int | None) -> str:
    return f"int4/{-1 if block_size is None else block_size}" if mode == "int4" else mode


def int8_product(layer: Any, inputs: Any, kernel: Any, kernel_scale: Any, product: Callable,
                 input_gradient: Callable, axis: Any = -1, input_scale: Callable = lambda s: s,
                 kernel_scale_layout: Callable = lambda s: s) -> Any:
    """``product(inputs, kernel)`` of a layer with an int8 ``kernel`` and its ``kernel_scale``, as
    Keras 3's ``_int8_call`` computes it: the inputs quantized by the layer's
    ``inputs_quantizer`` along ``axis`` (unless it is None), the int8 product summed in int32,
    cast to the compute dtype and divided by the product of the two scales (``input_scale``
    lays the inputs' scale out as the output). The inputs' gradient is that of the float product
    with the dequantized kernel, ``input_gradient(upstream, kernel / scale)``; the int8 kernel and
    its scale have none (they are not trainable), as in Keras."""
    compute, quantizer = layer.compute_dtype, layer.inputs_quantizer

    @ops.custom_gradient
    def quantized(x: Any, k: Any, s: Any) -> tuple:
        def grad(upstream: Any) -> tuple:
            float_kernel = ops.divide(ops.cast(k, compute), kernel_scale_layout(s))
            return input_gradient(upstream, float_kernel), None, None
        if quantizer:
            x, xs = quantizer(x, axis=axis)
            return ops.divide(ops.cast(product(x, k), compute), ops.multiply(input_scale(xs), s)), grad
        return ops.divide(ops.cast(product(x, k), compute), s), grad

    return quantized(inputs, ops.convert_to_tensor(kernel), ops.convert_to_tensor(kernel_scale))


def float8_build(layer: Any) -> None:
    """The float8 scales and amax histories of ``layer``'s inputs, kernel and output gradient
    (float32, written by the optimizer as their gradients: ``overwrite_with_gradient``)."""
    length = getattr(layer.dtype_policy, "amax_history_length", 1024)
    for what in ("inputs", "kernel", "outputs_grad"):
        setattr(layer, f"{what}_scale", layer.add_weight(
            name=f"{what}_scale", shape=(), initializer="ones", dtype="float32", trainable=True, autocast=False,
            overwrite_with_gradient=True))
        setattr(layer, f"{what}_amax_history", layer.add_weight(
            name=f"{what}_amax_history", shape=(length,), initializer="zeros", dtype="float32", trainable=True,
            autocast=False, overwrite_with_gradient=True))
    layer._is_quantized = True


def float8_inputs(layer: Any, x: Any, scale: Any, history: Any, training: Any) -> Any:
    """``x`` quantized to float8 e4m3fn by ``scale`` and dequantized; its gradient passes
    through, and in training the "gradients" of ``scale`` and ``history`` are their new values
    (the scale from the history's largest magnitude, the history with ``max|x|`` in front)."""
    compute = layer.compute_dtype

    @ops.custom_gradient
    def qdq(x: Any, s: Any, h: Any) -> tuple:
        new_s = new_h = None
        if training:
            new_s = compute_float8_scale(ops.max(h, axis=0), s, ops.cast(_FLOAT8["float8_e4m3fn"][2], "float32"))
            new_h = compute_float8_amax_history(x, h)
        return quantize_and_dequantize(x, s, "float8_e4m3fn", compute), lambda dy: (dy, new_s, new_h)

    return qdq(x, ops.convert_to_tensor(scale), ops.convert_to_tensor(history))


def float8_outputs(layer: Any, x: Any, scale: Any, history: Any) -> Any:
    """``x`` unchanged; its gradient quantized to float8 e5m2 by ``scale`` and dequantized, the
    "gradients" of ``scale`` and ``history`` their new values."""
    compute = layer.compute_dtype

    @ops.custom_gradient
    def qdq(x: Any, s: Any, h: Any) -> tuple:
        def grad(dy: Any) -> tuple:
            new_s = compute_float8_scale(ops.max(h, axis=0), s, ops.cast(_FLOAT8["float8_e5m2"][2], "float32"))
            return (quantize_and_dequantize(dy, s, "float8_e5m2", compute), new_s,
                    compute_float8_amax_history(dy, h))
        return ops.multiply(x, ops.ones((), x.dtype)), grad

    return qdq(x, ops.convert_to_tensor(scale), ops.convert_to_tensor(history))


def float8_bias(layer: Any, bias: Any) -> Any:
    """The bias a float8 layer adds: through bfloat16 when it computes in float32 (Keras's
    bias-add fusion)."""
    return through_bfloat16(bias) if layer.dtype_policy.compute_dtype == "float32" else bias


_SAVED = {"int8": ("kernel", "bias", "kernel_scale"),
          "int4": ("kernel", "bias", "kernel_scale", "kernel_zero", "g_idx"),
          "float8": ("kernel", "bias", "inputs_scale", "inputs_amax_history", "kernel_scale", "kernel_amax_history",
                     "outputs_grad_scale", "outputs_grad_amax_history")}
_SAVED_EMBEDDING = {"int8": ("embeddings", "embeddings_scale"),
                    "int4": ("embeddings", "embeddings_scale", "embeddings_zero", "g_idx")}


def saved_variables(layer: Any) -> list | None:
    """A quantized layer's variables in the order Keras's ``save_own_variables`` writes them
    (its ``variable_serialization_spec``), for weights files; ``None`` when not quantized."""
    mode = layer.quantization_mode
    if mode is None:
        return None
    names = (_SAVED_EMBEDDING if hasattr(layer, "embeddings_scale") else _SAVED)[mode]
    return [v for v in (getattr(layer, n, None) for n in names) if v is not None]
