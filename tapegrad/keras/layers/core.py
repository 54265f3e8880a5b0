"""Keras 3's core layers: Dense, Flatten, Reshape, Activation, Dropout, Lambda, the activation
layers (ReLU, LeakyReLU, Softmax) and the merge layers (Add, Multiply, Concatenate)."""
from __future__ import annotations

import inspect
from typing import Any, Callable

import numpy as np

from .._engine import convert_to_tensor
from .._engine import Tensor
from ...ops.array import concat, expand_dims, reshape, shape as _shape, transpose
from ...ops.math import add as _add, cast, exp, greater, logical_or, multiply as _multiply, where
from ...ops.reduction import reduce_logsumexp
from .. import activations, backend, initializers, ops as _kops, random, regularizers
from .input_spec import InputSpec
from .layer import Layer

_promoting_matmul, _promoting_add = _kops.matmul.__wrapped__, _kops.add.__wrapped__
from ..saving import serialize_keras_object
from ..quantizers._layers import (AbsMaxQuantizer, Int4QuantizationConfig, QuantizationConfig,
                                  abs_max_quantize_grouped_with_zero_point, dequantize_with_sz_map,
                                  float8_bias, float8_build, float8_inputs, float8_outputs, int4_block_size,
                                  int8_product, kernel_quantize_begins, kernel_quantize_ends, pack_int4,
                                  quantization_config_of, quantization_not_covered, saved_variables,
                                  unpack_int4)

__all__ = ["Dense", "Flatten", "Reshape", "Activation", "Dropout", "Lambda", "ReLU", "LeakyReLU",
           "Softmax", "Add", "Multiply", "Concatenate", "add", "multiply", "concatenate"]


def _serialize(obj: Any) -> Any:
    if obj is None or isinstance(obj, (str, int, float)) or not hasattr(obj, "get_config"):
        return obj
    return serialize_keras_object(obj)


class Dense(Layer):
    """``activation(inputs @ kernel + bias)``: a densely connected layer.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> layer = keras.layers.Dense(2, activation="relu")
    >>> y = layer(np.ones((1, 3)))
    >>> layer.set_weights([np.array([[1.0, -1.0]] * 3), np.array([0.5, 0.5])])
    >>> layer(np.ones((1, 3))).numpy()
    array([[3.5, 0. ]], dtype=float32)
    >>> [w.name for w in layer.weights], layer.kernel.shape
    (['kernel', 'bias'], TensorShape([3, 2]))
    """

    _checkpoint_names = {"kernel": "_kernel"}  # (Keras 3 keeps the kernel as `_kernel`)

    def __init__(self, units: int, activation: Any = None, use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None,
                 bias_constraint: Any = None, lora_rank: int | None = None,
                 lora_alpha: float | None = None, quantization_config: Any = None, **kwargs: Any) -> None:
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.quantization_config = quantization_config_of(quantization_config)
        if not isinstance(units, (int, np.integer)) or isinstance(units, bool) or units <= 0:
            raise ValueError("Received an invalid value for `units`, expected a positive integer. "
                             f"Received: units={units!r}")
        if lora_rank is not None:
            raise NotImplementedError("Dense(lora_rank=...) is not covered by tapegrad.")
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint
        self.input_spec = InputSpec(min_ndim=2)
        self.supports_masking = True

    def build(self, input_shape: Any) -> None:
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(f"The last dimension of the inputs to a Dense layer should be defined. "
                             f"Found None. Full input shape received: {tuple(input_shape)}")
        mode = self.quantization_mode
        if mode is not None:  # (float8: its scales first, then the float kernel, as Keras builds)
            self.quantized_build((input_dim, self.units), mode, self.quantization_config)
        if mode not in ("int8", "int4"):
            self.kernel = self.add_weight(name="kernel", shape=(input_dim, self.units),
                                          initializer=self.kernel_initializer,
                                          regularizer=self.kernel_regularizer,
                                          constraint=self.kernel_constraint)
        self.bias = (self.add_weight(name="bias", shape=(self.units,), initializer=self.bias_initializer,
                                     regularizer=self.bias_regularizer, constraint=self.bias_constraint)
                     if self.use_bias else None)
        if mode is not None:
            self._weights_trainable_first()
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})
        self.built = True

    @property
    def _kernel(self) -> Any:  # (Keras 3's name for the stored kernel: int8 once quantized)
        return self.kernel

    # -- quantization (Keras 3's Dense.quantize: int8 kernel per output unit, int8 inputs per row)

    def _saved_variables(self) -> list | None:  # (weights files: Keras's order for a quantized layer)
        return saved_variables(self)

    def quantize(self, mode: str | None = None, type_check: bool = True, config: Any = None) -> None:
        if kernel_quantize_begins(self, Dense, mode, type_check, config):
            return
        kernel, zero = self.kernel, None
        block = config.block_size if isinstance(config, Int4QuantizationConfig) else None
        if mode == "int4" and block is not None and block != -1:
            values, scale, zero = abs_max_quantize_grouped_with_zero_point(kernel, block_size=block, to_numpy=True)
        else:
            default = AbsMaxQuantizer(axis=0) if mode == "int8" else AbsMaxQuantizer(axis=0, value_range=(-8, 7))
            values, scale = QuantizationConfig.weight_quantizer_or_default(config, default)(kernel, to_numpy=True)
            scale = _kops.squeeze(scale, axis=0)
        if mode == "int4":  # (two int4 values a byte, along the output axis)
            values = pack_int4(values, axis=-1)[0]
        kernel_quantize_ends(self, kernel, mode, config, values, scale, zero)

    def quantized_build(self, kernel_shape: Any, mode: str, config: Any = None) -> None:
        if mode == "float8":
            return float8_build(self)
        if mode not in ("int8", "int4"):
            raise quantization_not_covered(self, mode, ("int8", "int4", "float8"))
        rows, units = kernel_shape
        default = AbsMaxQuantizer() if mode == "int8" else None
        self.inputs_quantizer = QuantizationConfig.activation_quantizer_or_default(config, default)
        self.kernel = self.add_weight(name="kernel", shape=(rows, units if mode == "int8" else (units + 1) // 2),
                                      initializer="zeros", dtype="int8", trainable=False)
        block = int4_block_size(self, config) if mode == "int4" else None
        grouped = block is not None and block > 0
        scale_shape = (-(-rows // block), units) if grouped else (units,)
        self.kernel_scale = self.add_weight(name="kernel_scale", shape=scale_shape, initializer="ones",
                                            trainable=False)
        if grouped:
            self.kernel_zero = self.add_weight(name="kernel_zero", shape=scale_shape, initializer="zeros",
                                               dtype="int8", trainable=False)
            self.g_idx = self.add_weight(name="g_idx", shape=(rows,), trainable=False, dtype="float32",
                                         initializer=lambda shape, dtype: np.arange(rows, dtype=dtype) // block)
        self._int4_block_size, self._orig_output_dim = block, units
        self._is_quantized = True

    def _float8_call(self, inputs: Any, training: Any = None) -> Tensor:
        x = _kops.matmul(float8_inputs(self, inputs, self.inputs_scale, self.inputs_amax_history, training),
                         float8_inputs(self, self.kernel, self.kernel_scale, self.kernel_amax_history, training))
        x = float8_outputs(self, x, self.outputs_grad_scale, self.outputs_grad_amax_history)
        if self.bias is not None:
            x = _kops.add(x, float8_bias(self, self.bias))
        return self.activation(x) if self.activation is not None else x

    def _int4_call(self, inputs: Any, training: Any = None) -> Tensor:
        unpacked = unpack_int4(self.kernel, self._orig_output_dim, axis=-1)
        matmul = _kops.matmul
        if self._int4_block_size is None or self._int4_block_size == -1:
            x = int8_product(self, inputs, unpacked, self.kernel_scale, matmul,
                             lambda dy, k: matmul(dy, _kops.transpose(k)))
        else:
            compute = self.compute_dtype

            @_kops.custom_gradient
            def grouped(x: Any, k: Any, s: Any, z: Any, g: Any) -> tuple:
                float_kernel = _kops.cast(dequantize_with_sz_map(k, s, z, g, group_axis=0), compute)
                return matmul(x, float_kernel), lambda dy: (matmul(dy, _kops.transpose(float_kernel)),
                                                            None, None, None, None)
            x = grouped(inputs, unpacked, *(convert_to_tensor(v) for v in (self.kernel_scale, self.kernel_zero,
                                                                           self.g_idx)))
        if self.bias is not None:
            x = _add(x, self.bias) if x.dtype == self.bias.dtype else _promoting_add(x, self.bias)
        return self.activation(x) if self.activation is not None else x

    def _int8_call(self, inputs: Any, training: Any = None) -> Tensor:
        x = int8_product(self, inputs, self.kernel, self.kernel_scale, _kops.matmul,
                         lambda dy, k: _kops.matmul(dy, _kops.transpose(k)))
        if self.bias is not None:
            x = _add(x, self.bias) if x.dtype == self.bias.dtype else _promoting_add(x, self.bias)
        return self.activation(x) if self.activation is not None else x

    def call(self, inputs: Any, training: Any = None) -> Tensor:
        x = _promoting_matmul(inputs, self.kernel)  # (integer inputs give floats, as Keras's ops)
        if self.bias is not None:
            x = _add(x, self.bias) if x.dtype == self.bias.dtype else _promoting_add(x, self.bias)
        return self.activation(x) if self.activation is not None else x

    def compute_output_shape(self, input_shape: Any) -> tuple:
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self) -> dict:
        return {**super().get_config(), "units": self.units,
                "activation": activations.serialize(self.activation)
                if self.activation in activations._BY_NAME.values() else self.activation,
                "use_bias": self.use_bias,
                "kernel_initializer": _serialize(self.kernel_initializer),
                "bias_initializer": _serialize(self.bias_initializer),
                "kernel_regularizer": _serialize(self.kernel_regularizer),
                "bias_regularizer": _serialize(self.bias_regularizer),
                "kernel_constraint": self.kernel_constraint, "bias_constraint": self.bias_constraint,
                "quantization_config": _serialize(self.quantization_config)}


class Flatten(Layer):
    """Flatten every axis but the batch axis: ``(batch, d1, d2, ...) -> (batch, d1 * d2 * ...)``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.layers.Flatten()(np.zeros((2, 3, 4))).shape
    TensorShape([2, 12])
    """

    def __init__(self, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = backend.image_data_format() if data_format is None else data_format
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs: Any) -> Tensor:
        x = inputs
        if self.data_format == "channels_first" and x.shape.rank > 2:
            x = transpose(x, [0] + list(range(2, x.shape.rank)) + [1])
        return reshape(x, [_shape(x)[0] if x.shape[0] is None else x.shape[0], -1])

    def compute_output_shape(self, input_shape: Any) -> tuple:
        rest = input_shape[1:]
        return (input_shape[0], None if any(d is None for d in rest) else int(np.prod(rest)))

    def get_config(self) -> dict:
        return {**super().get_config(), "data_format": self.data_format}


class Reshape(Layer):
    """Reshape every sample to ``target_shape`` (one entry may be -1).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.layers.Reshape((3, -1))(np.zeros((2, 12))).shape
    TensorShape([2, 3, 4])
    """

    def __init__(self, target_shape: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        target_shape = tuple(target_shape)
        if sum(d == -1 for d in target_shape) > 1:
            raise ValueError("There must be at most one unknown dimension (-1) in `target_shape`. "
                             f"Received: target_shape={target_shape}.")
        self.target_shape = target_shape

    def call(self, inputs: Any) -> Tensor:
        return reshape(inputs, (int(inputs.shape[0]),) + self.target_shape)

    def compute_output_shape(self, input_shape: Any) -> tuple:
        target = list(self.target_shape)
        if -1 in target:
            known = int(np.prod([d for d in target if d != -1]))
            rest = input_shape[1:]
            target[target.index(-1)] = (None if any(d is None for d in rest)
                                        else int(np.prod(rest)) // known)
        elif None not in input_shape[1:] and int(np.prod(input_shape[1:])) != int(np.prod(target)):
            raise ValueError(f"total size of new array must be unchanged, input_shape = "
                             f"{list(input_shape[1:])}, output_shape = {list(target)}")
        return (input_shape[0],) + tuple(target)

    def get_config(self) -> dict:
        return {**super().get_config(), "target_shape": self.target_shape}


class Activation(Layer):
    """Apply an activation (a name or a callable) to the inputs."""

    def __init__(self, activation: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.supports_masking = True
        self.activation = activations.get(activation)

    def call(self, inputs: Any) -> Any:
        return self.activation(inputs)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        act = self.activation
        return {**super().get_config(), "activation":
                activations.serialize(act) if act in activations._BY_NAME.values() else act}


class Dropout(Layer):
    """With ``training=True``, zero each input with probability ``rate`` and scale the rest by
    ``1 / (1 - rate)``; otherwise pass the inputs through.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> layer = keras.layers.Dropout(0.5, seed=1)
    >>> layer(np.ones((1, 4)), training=False).numpy()
    array([[1., 1., 1., 1.]], dtype=float32)
    >>> sorted(set(layer(np.ones((1, 100)), training=True).numpy().ravel().tolist()))
    [0.0, 2.0]
    """

    def __init__(self, rate: float, noise_shape: Any = None, seed: int | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError("Invalid value received for argument `rate`. Expected a float value "
                             f"between 0 and 1. Received: rate={rate}")
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed
        if rate > 0:
            self.seed_generator = random.SeedGenerator(seed)
        self.supports_masking = True

    def call(self, inputs: Any, training: bool = False) -> Any:
        if training and self.rate > 0:
            return random.dropout(inputs, self.rate, self.noise_shape, seed=self.seed_generator)
        return inputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "rate": self.rate, "seed": self.seed,
                "noise_shape": self.noise_shape}


class Lambda(Layer):
    """A layer from a function: ``Lambda(fn)(x)`` is ``fn(x, **arguments)``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.layers.Lambda(lambda x: x * 2)(np.array([[1.0]])).numpy()
    array([[2.]], dtype=float32)
    """

    def __init__(self, function: Callable, output_shape: Any = None, mask: Any = None,
                 arguments: dict | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not callable(function):
            raise TypeError(f"Lambda: `function` must be callable; received {function!r}")
        self.function = function
        self.arguments = arguments or {}
        self._output_shape = output_shape
        self._mask = mask
        self.supports_masking = mask is not None

    def call(self, inputs: Any, mask: Any = None, training: Any = None) -> Any:
        kw = dict(self.arguments)
        params = inspect.signature(self.function).parameters
        if "mask" in params:
            kw["mask"] = mask
        if "training" in params:
            kw["training"] = training
        return self.function(inputs, **kw)

    def compute_mask(self, inputs: Any, previous_mask: Any = None) -> Any:
        if callable(self._mask):
            return self._mask(inputs, previous_mask)
        return self._mask

    def get_config(self) -> dict:
        return {**super().get_config(), "function": self.function, "arguments": self.arguments,
                "output_shape": self._output_shape}

    @classmethod
    def from_config(cls, config: dict) -> "Lambda":
        """The layer of a config (its function: a Keras function or a registered one)."""
        from ..saving import deserialize_keras_object
        fn = config["function"]
        return cls(**{**config, "function": fn if callable(fn) else deserialize_keras_object(fn)})


class ReLU(Layer):
    """``keras.activations.relu`` with ``max_value``, ``negative_slope`` and ``threshold``."""

    def __init__(self, max_value: float | None = None, negative_slope: float = 0.0,
                 threshold: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError("max_value of a ReLU layer cannot be a negative value. "
                             f"Received: max_value={max_value}")
        if negative_slope is None or negative_slope < 0.0:
            raise ValueError("negative_slope of a ReLU layer cannot be a negative value. "
                             f"Received: negative_slope={negative_slope}")
        if threshold is None or threshold < 0.0:
            raise ValueError("threshold of a ReLU layer cannot be a negative value. "
                             f"Received: threshold={threshold}")
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold
        self.supports_masking = True

    def call(self, inputs: Any) -> Tensor:
        return activations.relu(inputs, negative_slope=self.negative_slope,
                                max_value=self.max_value, threshold=self.threshold)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "max_value": self.max_value,
                "negative_slope": self.negative_slope, "threshold": self.threshold}


class LeakyReLU(Layer):
    """``x`` above zero, ``negative_slope * x`` below (default slope 0.3; ``alpha`` is the old name)."""

    def __init__(self, negative_slope: float = 0.3, **kwargs: Any) -> None:
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError("The negative_slope value of a Leaky ReLU layer cannot be None or "
                             f"negative value. Expected a float. Received: negative_slope={negative_slope}")
        self.negative_slope = negative_slope
        self.supports_masking = True

    def call(self, inputs: Any) -> Tensor:
        return activations.leaky_relu(inputs, negative_slope=self.negative_slope)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "negative_slope": self.negative_slope}


class Softmax(Layer):
    """Softmax along ``axis`` (an int or a tuple); a mask sets masked positions' outputs to 0."""

    def __init__(self, axis: Any = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis
        self.supports_masking = True

    def call(self, inputs: Any, mask: Any = None) -> Tensor:
        x = inputs
        if mask is not None:
            mask = convert_to_tensor(mask)
            if not mask.dtype.is_bool:
                mask = greater(mask, cast(0.5, mask.dtype))
            big = -3e4 if x.dtype.name == "float16" else -1e9
            x = where(mask, x, cast(big, x.dtype))
        if isinstance(self.axis, (tuple, list)) and len(self.axis) > 1:
            out = exp(x - reduce_logsumexp(x, axis=list(self.axis), keepdims=True))
        else:
            axis = self.axis[0] if isinstance(self.axis, (tuple, list)) else self.axis
            out = activations.softmax(x, axis=axis)
        if mask is not None:
            out = where(mask, out, cast(0.0, out.dtype))
        return out

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis}


class _Merge(Layer):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.supports_masking = True

    def build(self, input_shape: Any) -> None:
        if not isinstance(input_shape, (list, tuple)) or not input_shape or \
                not isinstance(input_shape[0], (list, tuple)):
            raise ValueError(f"A merge layer should be called on a list of inputs. Received: "
                             f"input_shape={input_shape} (not a list of shapes)")
        if len(input_shape) < 1:
            raise ValueError("A merge layer should be called on a list of at least 1 input. "
                             f"Got {len(input_shape)} inputs. Full input_shape received: {input_shape}")
        self._out_shape(input_shape)
        self.built = True

    def _out_shape(self, shapes: Any) -> tuple:
        rank = max(len(s) for s in shapes)
        padded = [tuple(s[:1]) + (1,) * (rank - len(s)) + tuple(s[1:]) for s in shapes]
        out = []
        for dims in zip(*padded):
            known = {d for d in dims if d is not None and d != 1}
            if len(known) > 1:
                raise ValueError(f"Inputs have incompatible shapes. Received shapes "
                                 f"{' and '.join(str(tuple(s)) for s in shapes)} in layer "
                                 f"{self.name!r} ({type(self).__name__}).")
            out.append(known.pop() if known else (None if None in dims else 1))
        return tuple(out)

    def call(self, inputs: Any) -> Tensor:
        if not isinstance(inputs, (list, tuple)):
            raise ValueError("A merge layer should be called on a list of inputs. "
                             f"Received: inputs={inputs!r} (not a list of tensors)")
        rank = max(x.shape.rank for x in inputs)
        xs = []
        for x in inputs:  # lower-rank inputs get new axes after the batch axis
            for _ in range(rank - x.shape.rank):
                x = expand_dims(x, 1)
            xs.append(x)
        out = xs[0]
        for x in xs[1:]:  # (mixed dtypes promote, as Keras's ops.add etc.)
            out = self._op(out, x) if out.dtype == x.dtype else self._op(*_kops._pair(out, x))
        return out

    def compute_output_shape(self, input_shape: Any) -> tuple:
        return self._out_shape(input_shape)

    def compute_mask(self, inputs: Any, previous_mask: Any = None) -> Any:
        """As Keras 3: None unless every input has a mask, else their ``or``."""
        if previous_mask is None or any(m is None for m in previous_mask):
            return None
        out = convert_to_tensor(previous_mask[0])
        for m in previous_mask[1:]:
            out = logical_or(out, convert_to_tensor(m))
        return out


class Add(_Merge):
    """The sum of a list of inputs of the same shape (or broadcastable)."""
    _op = staticmethod(_add)


class Multiply(_Merge):
    """The product of a list of inputs of the same shape (or broadcastable)."""
    _op = staticmethod(_multiply)


class Concatenate(_Merge):
    """The inputs joined along ``axis`` (default -1); the other dims must match."""

    def __init__(self, axis: int = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis

    def _out_shape(self, shapes: Any) -> tuple:
        ranks = {len(s) for s in shapes}
        axis = self.axis % max(ranks) if ranks else self.axis
        bad = len(ranks) > 1 or any(
            len({s[i] for s in shapes if s[i] is not None}) > 1
            for i in range(max(ranks)) if i != axis)
        if bad:
            raise ValueError("A `Concatenate` layer requires inputs with matching shapes except for "
                             f"the concatenation axis. Received: input_shape={[tuple(s) for s in shapes]}")
        out = list(shapes[0])
        out[axis] = None if any(s[axis] is None for s in shapes) else sum(s[axis] for s in shapes)
        return tuple(out)

    def call(self, inputs: Any) -> Tensor:
        return concat(list(inputs), axis=self.axis)

    def compute_mask(self, inputs: Any, previous_mask: Any = None) -> Any:
        if previous_mask is None or all(m is None for m in previous_mask):
            return None
        parts = []
        for x, m in zip(inputs, previous_mask):
            m = np.ones(tuple(x.shape), bool) if m is None else np.asarray(convert_to_tensor(m).numpy())
            parts.append(np.broadcast_to(m[..., None], tuple(x.shape)) if m.ndim < x.shape.rank else m)
        return convert_to_tensor(np.any(np.concatenate(parts, axis=self.axis), axis=-1))

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis}


def add(inputs: list, **kwargs: Any) -> Tensor:
    """``Add(**kwargs)(inputs)``."""
    return Add(**kwargs)(inputs)


def multiply(inputs: list, **kwargs: Any) -> Tensor:
    """``Multiply(**kwargs)(inputs)``."""
    return Multiply(**kwargs)(inputs)


def concatenate(inputs: list, axis: int = -1, **kwargs: Any) -> Tensor:
    """``Concatenate(axis=axis, **kwargs)(inputs)``."""
    return Concatenate(axis=axis, **kwargs)(inputs)
