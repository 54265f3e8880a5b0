"""Keras 3's convolutional LSTMs: ConvLSTM1D, ConvLSTM2D, ConvLSTM3D and their cell.

An LSTM whose input and recurrent transformations are convolutions: a step's input
``(batch, *spatial, channels)`` is convolved with ``kernel`` (``kernel_size + (channels, 4 *
filters)``, the layer's strides, padding and dilation) and the state ``h`` with
``recurrent_kernel`` (``kernel_size + (filters, 4 * filters)``, stride 1, ``"same"``), gate order
``i, f, c, o`` as the LSTM's. The layers are ``RNN``s over the cell (the loop, masks, states,
``stateful`` and ``go_backwards`` of ``rnn_cells.RNN``). Dropout follows Keras's
``DropoutRNNCell``: when a rate is set the layer draws four masks for the inputs, then four for
the state, before the loop (in inference too, so the seed generator advances as Keras's does), and
a training call multiplies each gate's input (state) by its mask at every step.
"""
from __future__ import annotations

from typing import Any, Sequence

from ... import nn
from .._engine import convert_to_tensor
from ...ops.array import reshape, split, zeros
from .. import activations, constraints, random
from .conv import (_conv_length, _spatial, _with_spatial, check_input, data_format_arg, int_tuple, new_weight,
                   padding_arg, positive_int, serialized, weight_args)
from .input_spec import InputSpec
from .layer import Layer
from .rnn_cells import RNN, lstm_bias_initializer

__all__ = ["ConvLSTMCell", "ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"]

_CELL_ARGS = ("filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate", "activation",
              "recurrent_activation", "use_bias", "kernel_initializer", "recurrent_initializer", "bias_initializer",
              "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
              "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout", "recurrent_dropout")


def _constraint_config(c: Any) -> Any:
    return None if c is None else constraints.serialize(c)


class ConvLSTMCell(Layer):
    """One step of a convolutional LSTM of ``rank`` 1, 2 or 3 (Keras's ``ConvLSTMCell``):
    ``call(inputs, [h, c]) -> (h, [h, c])``. The ``ConvLSTM1D/2D/3D`` layers loop it over time.

    >>> import tapegrad as tf
    >>> from tapegrad.keras.layers.conv_lstm import ConvLSTMCell
    >>> cell = ConvLSTMCell(2, filters=3, kernel_size=3, padding="same")
    >>> h, (h, c) = cell(tf.ones([1, 4, 4, 2]), [tf.zeros([1, 4, 4, 3]), tf.zeros([1, 4, 4, 3])])
    >>> h.shape, [tuple(w.shape) for w in cell.weights]
    (TensorShape([1, 4, 4, 3]), [(3, 3, 2, 12), (3, 3, 3, 12), (12,)])
    """

    def __init__(self, rank: int, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 data_format: Any = None, dilation_rate: Any = 1, activation: Any = "tanh",
                 recurrent_activation: Any = "sigmoid", use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", recurrent_initializer: Any = "orthogonal",
                 bias_initializer: Any = "zeros", unit_forget_bias: bool = True, kernel_regularizer: Any = None,
                 recurrent_regularizer: Any = None, bias_regularizer: Any = None, kernel_constraint: Any = None,
                 recurrent_constraint: Any = None, bias_constraint: Any = None, dropout: float = 0.0,
                 recurrent_dropout: float = 0.0, seed: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        cls = type(self).__name__
        self.seed = seed
        self.seed_generator = random.SeedGenerator(seed)
        if rank not in (1, 2, 3):
            raise ValueError(f"Rank {rank} convolutions are not currently implemented. Received: rank={rank}")
        self.rank = rank
        self.filters = positive_int(filters, "filters", cls)
        self.kernel_size = int_tuple(kernel_size, rank, "kernel_size", cls)
        self.strides = int_tuple(strides, rank, "strides", cls, allow_zero=True)
        self.padding = padding_arg(padding, cls)
        self.data_format = data_format_arg(data_format, cls)
        self.dilation_rate = int_tuple(dilation_rate, rank, "dilation_rate", cls)
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError("Specifying `strides > 1` is not compatible with `dilation_rate > 1`. Please provide "
                             f"`strides=1` or `dilation_rate=1`. Received: strides={self.strides} and "
                             f"dilation_rate={self.dilation_rate}")
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        weight_args(self, "kernel", kernel_initializer, kernel_regularizer, constraints.get(kernel_constraint))
        weight_args(self, "recurrent", recurrent_initializer, recurrent_regularizer,
                    constraints.get(recurrent_constraint))
        weight_args(self, "bias", bias_initializer, bias_regularizer, constraints.get(bias_constraint))
        self.unit_forget_bias = unit_forget_bias
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.dropout_mask_count = 4
        self.input_spec = InputSpec(ndim=rank + 2)
        self.state_size = -1   # (Keras's: the states' shapes come from the input's)
        self._masks: dict = {}

    # ------------------------------------------------------------------ weights and shapes
    def build(self, inputs_shape: Sequence, states_shape: Any = None) -> None:
        inputs_shape = tuple(inputs_shape)
        channel_axis = -1 if self.data_format == "channels_last" else 1
        self.spatial_dims = inputs_shape[1:-1] if channel_axis == -1 else inputs_shape[2:]
        if None in self.spatial_dims:
            raise ValueError("ConvLSTM layers only support static input shapes for the spatial dimension. "
                             f"Received invalid input shape: input_shape={inputs_shape}")
        if inputs_shape[channel_axis] is None:
            raise ValueError("The channel dimension of the inputs (last axis) should be defined. Found None. "
                             f"Full input shape received: input_shape={inputs_shape}")
        self.input_spec = InputSpec(ndim=self.rank + 3, shape=(None,) + inputs_shape[1:])
        self.input_dim = int(inputs_shape[channel_axis])
        self.kernel_shape = self.kernel_size + (self.input_dim, self.filters * 4)
        self.kernel = new_weight(self, "kernel", self.kernel_shape)
        self.recurrent_kernel = new_weight(self, "recurrent", self.kernel_size + (self.filters, self.filters * 4),
                                           "recurrent_kernel")
        self.bias = new_weight(self, "bias", (self.filters * 4,), initializer=lstm_bias_initializer(
            self.bias_initializer, self.filters, self.unit_forget_bias)) if self.use_bias else None
        self.built = True

    def compute_output_shape(self, inputs_shape: Sequence, states_shape: Any = None) -> tuple:
        sp = _spatial(inputs_shape, self.data_format, self.rank)
        out = [_conv_length(n, k, s, d, self.padding)
               for n, k, s, d in zip(sp, self.kernel_size, self.strides, self.dilation_rate)]
        shape = _with_spatial(inputs_shape, out, self.filters, self.data_format)
        return shape, [shape, shape]

    def get_initial_state(self, batch_size: int | None = None) -> list:
        """Zero ``[h, c]`` of the convolution's output shape for ``batch_size`` inputs."""
        first = (self.input_dim,) if self.data_format == "channels_first" else ()
        last = () if first else (self.input_dim,)
        shape = self.compute_output_shape((batch_size,) + first + tuple(self.spatial_dims) + last)[0]
        return [zeros(shape, self.compute_dtype), zeros(shape, self.compute_dtype)]

    # ------------------------------------------------------------------ dropout masks
    def _draw(self, like: Any, rate: float) -> list:
        ones = convert_to_tensor(1.0, like.dtype) + zeros(like.shape, like.dtype)
        return [random.dropout(ones, rate, seed=self.seed_generator) for _ in range(self.dropout_mask_count)]

    def get_dropout_mask(self, step_input: Any) -> Any:
        """The four input masks of this call (drawn on first use when ``dropout > 0``)."""
        if self._masks.get("input") is None and self.dropout > 0:
            self._masks["input"] = self._draw(step_input, self.dropout)
        return self._masks.get("input")

    def get_recurrent_dropout_mask(self, step_input: Any) -> Any:
        """The four state masks of this call (drawn on first use when ``recurrent_dropout > 0``)."""
        if self._masks.get("recurrent") is None and self.recurrent_dropout > 0:
            self._masks["recurrent"] = self._draw(step_input, self.recurrent_dropout)
        return self._masks.get("recurrent")

    def reset_dropout_mask(self) -> None:
        """Forget the input masks, so that the next call draws new ones."""
        self._masks.pop("input", None)

    def reset_recurrent_dropout_mask(self) -> None:
        """Forget the state masks, so that the next call draws new ones."""
        self._masks.pop("recurrent", None)

    # ------------------------------------------------------------------ one step
    @property
    def _tf_format(self) -> str:
        last = self.data_format == "channels_last"
        return (("NWC", "NHWC", "NDHWC") if last else ("NCW", "NCHW", "NCDHW"))[self.rank - 1]

    def _conv(self, x: Any, w: Any, strides: tuple, padding: str, dilations: tuple) -> Any:
        fn = (nn.conv1d, nn.conv2d, nn.conv3d)[self.rank - 1]
        return fn(x, w, strides, padding.upper(), self._tf_format, dilations)

    def input_conv(self, x: Any, w: Any, b: Any = None, padding: str = "valid") -> Any:
        """``x`` convolved with ``w`` under the cell's strides and dilation, plus ``b``."""
        out = self._conv(x, w, self.strides, padding, self.dilation_rate)
        if b is not None:
            last = self.data_format == "channels_last"
            out = out + reshape(b, (1,) * (self.rank + 1) + (-1,) if last else (1, -1) + (1,) * self.rank)
        return out

    def recurrent_conv(self, x: Any, w: Any) -> Any:
        """``x`` convolved with ``w``, stride 1, ``"same"`` padding."""
        return self._conv(x, w, (1,) * self.rank, "same", (1,) * self.rank)

    def call(self, inputs: Any, states: Any, training: Any = False) -> tuple:
        h_tm1, c_tm1 = states[0], states[1]
        dp = self.get_dropout_mask(inputs) if training and 0.0 < self.dropout < 1.0 else None
        rdp = self.get_recurrent_dropout_mask(h_tm1) if training and 0.0 < self.recurrent_dropout < 1.0 else None
        if dp is None and rdp is None:   # one convolution for the four gates, then split the channels
            ch = -1 if self.data_format == "channels_last" else 1
            z = split(self.input_conv(inputs, self.kernel, self.bias, self.padding), 4, axis=ch)
            r = split(self.recurrent_conv(h_tm1, self.recurrent_kernel), 4, axis=ch)
        else:   # one convolution per gate, each of its own masked input and state
            ks, rks = split(self.kernel, 4, axis=-1), split(self.recurrent_kernel, 4, axis=-1)
            bs = split(self.bias, 4) if self.bias is not None else [None] * 4
            z = [self.input_conv(inputs if dp is None else inputs * dp[g], ks[g], bs[g], self.padding)
                 for g in range(4)]
            r = [self.recurrent_conv(h_tm1 if rdp is None else h_tm1 * rdp[g], rks[g]) for g in range(4)]
        ra, act = self.recurrent_activation, self.activation
        i, f, o = ra(z[0] + r[0]), ra(z[1] + r[1]), ra(z[3] + r[3])
        c = f * c_tm1 + i * act(z[2] + r[2])
        h = o * act(c)
        return h, [h, c]

    def get_config(self) -> dict:
        return {**super().get_config(), "filters": self.filters, "kernel_size": self.kernel_size,
                "strides": self.strides, "padding": self.padding, "data_format": self.data_format,
                "dilation_rate": self.dilation_rate, "activation": activations.serialize(self.activation),
                "recurrent_activation": activations.serialize(self.recurrent_activation),
                "use_bias": self.use_bias, "kernel_initializer": serialized(self.kernel_initializer),
                "recurrent_initializer": serialized(self.recurrent_initializer),
                "bias_initializer": serialized(self.bias_initializer), "unit_forget_bias": self.unit_forget_bias,
                **{f"{p}_regularizer": serialized(getattr(self, f"{p}_regularizer"))
                   for p in ("kernel", "recurrent", "bias")},
                **{f"{p}_constraint": _constraint_config(getattr(self, f"{p}_constraint"))
                   for p in ("kernel", "recurrent", "bias")},
                "dropout": self.dropout, "recurrent_dropout": self.recurrent_dropout, "seed": self.seed}


class _ConvLSTM(RNN):
    """The N-D convolutional LSTM layer (Keras's ``ConvLSTM``): an ``RNN`` over a
    :class:`ConvLSTMCell` named ``conv_lstm_cell``; its arguments read through to the cell."""

    rank = 2

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 data_format: Any = None, dilation_rate: Any = 1, activation: Any = "tanh",
                 recurrent_activation: Any = "sigmoid", use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", recurrent_initializer: Any = "orthogonal",
                 bias_initializer: Any = "zeros", unit_forget_bias: bool = True, kernel_regularizer: Any = None,
                 recurrent_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, recurrent_constraint: Any = None, bias_constraint: Any = None,
                 dropout: float = 0.0, recurrent_dropout: float = 0.0, seed: Any = None,
                 return_sequences: bool = False, return_state: bool = False, go_backwards: bool = False,
                 stateful: bool = False, **kwargs: Any) -> None:
        cell = ConvLSTMCell(
            rank=self.rank, filters=filters, kernel_size=kernel_size, strides=strides, padding=padding,
            data_format=data_format, dilation_rate=dilation_rate, activation=activation,
            recurrent_activation=recurrent_activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
            unit_forget_bias=unit_forget_bias, kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer, bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint, recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint, dropout=dropout, recurrent_dropout=recurrent_dropout, seed=seed,
            name="conv_lstm_cell", dtype=kwargs.get("dtype"))
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, activity_regularizer=activity_regularizer,
                         **kwargs)
        self.state_size = [-1, -1]   # two states, [h, c], of the convolution's output shape
        self.input_spec = InputSpec(ndim=self.rank + 3)

    # the cell's arguments, read through (Keras's properties)
    filters = property(lambda self: self.cell.filters)
    kernel_size = property(lambda self: self.cell.kernel_size)
    strides = property(lambda self: self.cell.strides)
    padding = property(lambda self: self.cell.padding)
    data_format = property(lambda self: self.cell.data_format)
    dilation_rate = property(lambda self: self.cell.dilation_rate)
    activation = property(lambda self: self.cell.activation)
    recurrent_activation = property(lambda self: self.cell.recurrent_activation)
    use_bias = property(lambda self: self.cell.use_bias)
    kernel_initializer = property(lambda self: self.cell.kernel_initializer)
    recurrent_initializer = property(lambda self: self.cell.recurrent_initializer)
    bias_initializer = property(lambda self: self.cell.bias_initializer)
    unit_forget_bias = property(lambda self: self.cell.unit_forget_bias)
    kernel_regularizer = property(lambda self: self.cell.kernel_regularizer)
    recurrent_regularizer = property(lambda self: self.cell.recurrent_regularizer)
    bias_regularizer = property(lambda self: self.cell.bias_regularizer)
    kernel_constraint = property(lambda self: self.cell.kernel_constraint)
    recurrent_constraint = property(lambda self: self.cell.recurrent_constraint)
    bias_constraint = property(lambda self: self.cell.bias_constraint)
    dropout = property(lambda self: self.cell.dropout)
    recurrent_dropout = property(lambda self: self.cell.recurrent_dropout)

    def build(self, sequences_shape: Sequence, initial_state_shape: Any = None) -> None:
        check_input(self, sequences_shape, self.rank + 3)
        super().build(sequences_shape, initial_state_shape)

    def call(self, sequences: Any, initial_state: Any = None, mask: Any = None, training: Any = False) -> Any:
        x = convert_to_tensor(sequences)
        cell = self.cell
        if cell.dropout > 0 or cell.recurrent_dropout > 0:   # Keras draws the masks before the loop
            if initial_state is not None:
                h0 = initial_state[0] if isinstance(initial_state, (list, tuple)) else initial_state
            elif self.stateful and self.states is not None:
                h0 = self.states[0]
            else:
                h0 = cell.get_initial_state(x.shape[0])[0]
            cell.get_dropout_mask(x[:, 0])
            cell.get_recurrent_dropout_mask(convert_to_tensor(h0))
        try:
            return super().call(x, initial_state=initial_state, mask=mask, training=training)
        finally:
            cell.reset_dropout_mask()
            cell.reset_recurrent_dropout_mask()

    def compute_output_shape(self, sequences_shape: Sequence, initial_state_shape: Any = None) -> Any:
        b, t = sequences_shape[0], sequences_shape[1]
        state = tuple(self.cell.compute_output_shape((b,) + tuple(sequences_shape[2:]))[0][1:])
        y = (b, t) + state if self.return_sequences else (b,) + state
        return (y, (b,) + state, (b,) + state) if self.return_state else y

    def get_config(self) -> dict:
        config = super().get_config()
        del config["cell"]
        cell = self.cell.get_config()
        return {**config, **{k: cell[k] for k in _CELL_ARGS},
                "activity_regularizer": serialized(self.activity_regularizer), "seed": self.cell.seed}

    @classmethod
    def from_config(cls, config: dict) -> "_ConvLSTM":
        return cls(**config)


class ConvLSTM1D(_ConvLSTM):
    """1-D convolutional LSTM over ``(batch, time, steps, channels)`` sequences (Keras 3's
    arguments: ``filters``, ``kernel_size``, ``strides``, ``padding``, ``data_format``,
    ``dilation_rate``, activations, initializers, ``unit_forget_bias``, regularizers,
    constraints, ``dropout``, ``recurrent_dropout``, ``seed``, ``return_sequences``,
    ``return_state``, ``go_backwards``, ``stateful``).

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.ConvLSTM1D(4, 3, return_sequences=True)(tf.ones([2, 5, 8, 3])).shape
    TensorShape([2, 5, 6, 4])
    """

    rank = 1


class ConvLSTM2D(_ConvLSTM):
    """2-D convolutional LSTM over ``(batch, time, rows, cols, channels)`` sequences of images
    (``channels_first``: ``(batch, time, channels, rows, cols)``); Keras 3's arguments, as
    :class:`ConvLSTM1D`'s. States ``[h, c]`` have the convolution's output shape.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> layer = keras.layers.ConvLSTM2D(8, (3, 3), padding="same", return_state=True)
    >>> out, h, c = layer(tf.ones([2, 4, 6, 6, 1]))
    >>> out.shape, [tuple(w.shape) for w in layer.weights]
    (TensorShape([2, 6, 6, 8]), [(3, 3, 1, 32), (3, 3, 8, 32), (32,)])
    """

    rank = 2


class ConvLSTM3D(_ConvLSTM):
    """3-D convolutional LSTM over ``(batch, time, depth, rows, cols, channels)`` sequences of
    volumes; Keras 3's arguments, as :class:`ConvLSTM1D`'s.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.layers.ConvLSTM3D(2, 2)(tf.ones([1, 3, 4, 4, 4, 1])).shape
    TensorShape([1, 3, 3, 3, 2])
    """

    rank = 3
