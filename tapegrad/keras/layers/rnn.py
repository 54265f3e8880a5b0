"""Keras 3's recurrent layers: SimpleRNN, LSTM, GRU and the Bidirectional wrapper.

A layer projects every step's input through its kernel in one matmul, then loops over the
steps with one recurrent matmul each (all on the tape). Keras's semantics: a masked step keeps
the previous states and repeats the previous output; ``go_backwards`` reads the sequence from
the end and returns its outputs in that (reversed) order; dropout masks are drawn once per call
and reused at every step (one per gate when ``recurrent_dropout`` is set, as Keras's
``implementation=1``). Gate order in the kernels: LSTM ``i, f, c, o``; GRU ``z, r, h``.
"""
from __future__ import annotations

from typing import Any, Sequence

from .._engine import convert_to_tensor
from ...ops.array import concat, expand_dims, reverse, split, stack, unstack, zeros
from ...ops.linalg import matmul
from ...ops.math import cast, where
from .. import activations, random
from .._variables import name_scope
from .layer import Layer
from ..saving import serialize_keras_object
from .conv import positive_int, serialized, weight_config
from .rnn_cells import (RNN, keep_states, lstm_bias_initializer, lstm_update, recurrent_args, recurrent_weights,
                        reset_states, state_variables, states_property, time_inputs)

__all__ = ["SimpleRNN", "LSTM", "GRU", "Bidirectional"]


class _RNN(Layer):
    """The loop, masks, states and dropout the three recurrent layers share."""

    # Keras 3's LSTM, GRU and SimpleRNN keep their weights in a `cell` sub-layer
    _checkpoint_names = {"kernel": "cell/kernel", "recurrent_kernel": "cell/recurrent_kernel",
                         "bias": "cell/bias"}

    gates = 1
    n_states = 1
    seed_generator_first = False

    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "sigmoid",
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, recurrent_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None, recurrent_constraint: Any = None,
                 bias_constraint: Any = None, dropout: float = 0.0, recurrent_dropout: float = 0.0,
                 seed: Any = None, return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, unroll: bool = False,
                 zero_output_for_mask: bool = False, **kwargs: Any) -> None:
        kwargs.pop("use_cudnn", None)
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        cls = type(self).__name__
        recurrent_args(self, positive_int(units, "units", cls), activation, recurrent_activation, use_bias,
                       (kernel_initializer, kernel_regularizer, kernel_constraint),
                       (recurrent_initializer, recurrent_regularizer, recurrent_constraint),
                       (bias_initializer, bias_regularizer, bias_constraint), dropout, recurrent_dropout, seed)
        self.return_sequences, self.return_state = bool(return_sequences), bool(return_state)
        self.go_backwards, self.stateful, self.unroll = bool(go_backwards), bool(stateful), bool(unroll)
        self.zero_output_for_mask = bool(zero_output_for_mask)
        self.states = None
        self.supports_masking = True

    states = states_property

    # ------------------------------------------------------------------ weights
    def build(self, input_shape: Sequence) -> None:
        if len(input_shape) != 3:
            raise ValueError(f"{type(self).__name__}: the input must have shape (batch, timesteps, features); "
                             f"received an input of shape {tuple(input_shape)}.")
        self._features = int(input_shape[-1])
        recurrent_weights(self, self._features)
        if self.stateful:
            self.states = state_variables(
                input_shape[0], lambda b: [zeros((b, self.units), self.dtype) for _ in range(self.n_states)])

    def _bias_shape(self) -> tuple:
        return (self.gates * self.units,)

    def _bias_init(self) -> Any:
        return self.bias_initializer

    # ------------------------------------------------------------------ one step
    def _input_bias(self) -> Any:
        return self.bias

    def _recurrent_bias(self) -> Any:
        return None

    def _step(self, xt: Any, states: list, rec: Any) -> tuple:
        """``(output, new_states)`` from the projected input ``xt`` and the previous states;
        ``rec(h, lo, hi)`` is ``h @ recurrent_kernel[:, lo:hi]`` (with recurrent dropout), plus
        the recurrent bias (GRU's ``reset_after``) over the whole kernel."""
        raise NotImplementedError

    # ------------------------------------------------------------------ the loop
    def _dropout_masks(self, like: Any, rate: float, training: Any) -> list | None:
        # Keras 3's RNN draws the masks at every call, in inference too (its seed generator moves
        # on), and uses them only in training
        if not 0.0 < rate < 1.0:
            return None
        n = self.gates if self.recurrent_dropout > 0.0 else 1
        ones = convert_to_tensor(1.0, like.dtype) + zeros(like.shape, like.dtype)
        masks = [random.dropout(ones, rate, seed=self.seed_generator) for _ in range(n)]
        return masks if training else None

    def _initial_states(self, x: Any, initial_state: Any) -> list:
        if initial_state is None:
            if self.stateful and self.states is not None:
                want = self.states[0].shape[0]
                if want != x.shape[0]:
                    raise ValueError(f"If an RNN is stateful, the batch size of the input sequences must be the same "
                                     f"as the batch size of the initial state. \n- Expected batch size: {want}\n"
                                     f"- Received batch size: {x.shape[0]}")
                return [cast(convert_to_tensor(s), x.dtype) for s in self.states]
            return [zeros((x.shape[0], self.units), x.dtype) for _ in range(self.n_states)]
        states = list(initial_state) if isinstance(initial_state, (list, tuple)) else [initial_state]
        states = [convert_to_tensor(s, x.dtype) if not hasattr(s, "shape") else s for s in states]
        want = (x.shape[0], self.units)
        if len(states) != self.n_states or any(tuple(s.shape) != want for s in states):
            raise ValueError(f"{type(self).__name__}: `initial_state` must be {self.n_states} tensor(s) of shape "
                             f"{want}; received shapes {[tuple(s.shape) for s in states]}.")
        return states

    def call(self, inputs: Any, initial_state: Any = None, mask: Any = None, training: Any = None) -> Any:
        x = convert_to_tensor(inputs)
        if len(x.shape) != 3 or x.shape[-1] != self._features:
            raise ValueError(f"{type(self).__name__}: expected an input of shape (batch, timesteps, "
                             f"{self._features}); received {tuple(x.shape)}.")
        if x.dtype.name != self.kernel.dtype.name:
            x = cast(x, self.kernel.dtype)
        states = self._initial_states(x, initial_state)
        x, mask = time_inputs(x, None if mask is None else convert_to_tensor(mask), self.go_backwards,
                              type(self).__name__)
        u = self.units
        dp = self._dropout_masks(x[:, 0, :], self.dropout, training)
        if dp is None:
            xs = matmul(x, self.kernel)
        else:   # one input mask per gate (or one for all), the same at every step
            xs = concat([matmul(x * m[:, None, :], self.kernel[:, g * u:(g + 1) * u] if len(dp) > 1 else self.kernel)
                         for g, m in enumerate(dp)], -1)
        b = self._input_bias()
        if b is not None:
            xs = xs + b
        rdp = self._dropout_masks(states[0], self.recurrent_dropout, training)

        parts: dict = {}   # slices of the recurrent kernel, cut once per call

        def part(lo: int, hi: int) -> Any:
            if (lo, hi) not in parts:
                whole = (lo, hi) == (0, self.gates * u)
                parts[lo, hi] = self.recurrent_kernel if whole else self.recurrent_kernel[:, lo:hi]
            return parts[lo, hi]

        rb = self._recurrent_bias()

        def rec(h: Any, lo: int, hi: int) -> Any:
            if rdp is None:
                r = matmul(h, part(lo, hi))
            else:
                r = concat([matmul(h * rdp[g], part(g * u, (g + 1) * u)) for g in range(lo // u, hi // u)], -1)
            return r if rb is None or (lo, hi) != (0, self.gates * u) else r + rb

        outputs = []
        out = zeros((x.shape[0], u), x.dtype) if mask is not None else None
        masks = [None] * x.shape[1] if mask is None else unstack(expand_dims(mask, -1), axis=1)
        for xt, m in zip(unstack(xs, axis=1), masks):
            new_out, new_states = self._step(xt, states, rec)
            if m is not None:
                new_out = where(m, new_out, 0.0 if self.zero_output_for_mask else out)
                new_states = [where(m, a, b) for a, b in zip(new_states, states)]
            out, states = new_out, new_states
            outputs.append(out)
        if self.stateful:
            keep_states(self.states, states)
        y = stack(outputs, 1) if self.return_sequences else outputs[-1]
        return [y] + list(states) if self.return_state else y

    def get_initial_state(self, batch_size: Any) -> list:
        """The zero states of a batch of ``batch_size`` sequences (Keras's ``RNN.get_initial_state``:
        one ``(batch_size, units)`` tensor per state, of the layer's compute dtype)."""
        return [zeros((batch_size, self.units), self.compute_dtype) for _ in range(self.n_states)]

    def reset_states(self) -> None:
        """Forget the states a ``stateful`` layer carries from one call to the next (they
        become zeros)."""
        reset_states(self.states)

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        out = mask if self.return_sequences else None
        return [out] + [None] * self.n_states if self.return_state else out

    def compute_output_shape(self, input_shape: Sequence) -> Any:
        b, t = input_shape[0], input_shape[1]
        y = (b, t, self.units) if self.return_sequences else (b, self.units)
        return [y] + [(b, self.units)] * self.n_states if self.return_state else y

    def get_config(self) -> dict:
        return {**super().get_config(), "units": self.units, "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias, **weight_config(self, "kernel", "recurrent", "bias"),
                "activity_regularizer": serialized(self.activity_regularizer), "dropout": self.dropout,
                "recurrent_dropout": self.recurrent_dropout, "seed": self.seed,
                "return_sequences": self.return_sequences, "return_state": self.return_state,
                "go_backwards": self.go_backwards, "stateful": self.stateful, "unroll": self.unroll,
                "zero_output_for_mask": self.zero_output_for_mask}


class SimpleRNN(_RNN):
    """Fully-connected RNN: ``h_t = activation(x_t @ kernel + h_{t-1} @ recurrent_kernel + bias)``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> rnn = keras.layers.SimpleRNN(4, return_sequences=True, return_state=True)
    >>> seq, h = rnn(tf.ones([2, 5, 3]))
    >>> seq.shape, h.shape
    (TensorShape([2, 5, 4]), TensorShape([2, 4]))
    """

    seed_generator_first = True

    def __init__(self, units: int, activation: Any = "tanh", use_bias: bool = True, **kwargs: Any) -> None:
        if "recurrent_activation" in kwargs:
            raise ValueError("Unrecognized keyword arguments passed to SimpleRNN: {'recurrent_activation'}")
        super().__init__(units, activation=activation, use_bias=use_bias, **kwargs)

    def _step(self, xt: Any, states: list, rec: Any) -> tuple:
        h = self.activation(xt + rec(states[0], 0, self.units))
        return h, [h]


class LSTM(_RNN):
    """Long Short-Term Memory layer (Hochreiter 1997), Keras 3's equations and weights:
    ``kernel (features, 4 * units)``, ``recurrent_kernel (units, 4 * units)``, ``bias
    (4 * units,)`` in gate order ``i, f, c, o``; ``unit_forget_bias=True`` starts the forget
    gate's bias at 1. States ``[h, c]``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> lstm = keras.layers.LSTM(3, return_state=True)
    >>> out, h, c = lstm(tf.ones([2, 4, 5]))
    >>> out.shape, c.shape
    (TensorShape([2, 3]), TensorShape([2, 3]))
    """

    gates, n_states = 4, 2

    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "sigmoid",
                 use_bias: bool = True, unit_forget_bias: bool = True, **kwargs: Any) -> None:
        super().__init__(units, activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, **kwargs)
        self.unit_forget_bias = bool(unit_forget_bias)

    def _bias_init(self) -> Any:
        return lstm_bias_initializer(self.bias_initializer, self.units, self.unit_forget_bias)

    def _step(self, xt: Any, states: list, rec: Any) -> tuple:
        h, c = states
        h, c = lstm_update(xt + rec(h, 0, 4 * self.units), c, self.activation, self.recurrent_activation)
        return h, [h, c]

    def get_config(self) -> dict:
        return {**super().get_config(), "recurrent_activation": activations.serialize(self.recurrent_activation),
                "unit_forget_bias": self.unit_forget_bias}


class GRU(_RNN):
    """Gated Recurrent Unit (Cho 2014), Keras 3's equations and weights: gate order ``z, r, h``;
    with ``reset_after=True`` (the default) the reset gate multiplies the recurrent projection
    and the bias is ``(2, 3 * units)`` (input bias, recurrent bias), otherwise it multiplies the
    previous state before its projection and the bias is ``(3 * units,)``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> gru = keras.layers.GRU(3)
    >>> gru(tf.ones([2, 4, 5])).shape
    TensorShape([2, 3])
    >>> [tuple(w.shape) for w in gru.weights]
    [(5, 9), (3, 9), (2, 9)]
    """

    gates = 3

    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "sigmoid",
                 use_bias: bool = True, reset_after: bool = True, **kwargs: Any) -> None:
        super().__init__(units, activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, **kwargs)
        self.reset_after = bool(reset_after)

    def _bias_shape(self) -> tuple:
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def _input_bias(self) -> Any:
        return self.bias[0] if self.bias is not None and self.reset_after else self.bias

    def _recurrent_bias(self) -> Any:
        return self.bias[1] if self.bias is not None and self.reset_after else None

    def _step(self, xt: Any, states: list, rec: Any) -> tuple:
        (h,), u, ra = states, self.units, self.recurrent_activation
        inner = rec(h, 0, 3 * u if self.reset_after else 2 * u)
        xz, xr, xh = split(xt, 3, axis=1)
        if self.reset_after:
            iz, ir, ih = split(inner, 3, axis=1)
        else:
            iz, ir = split(inner, 2, axis=1)
        z, r = ra(xz + iz), ra(xr + ir)
        hh = self.activation(xh + (r * ih if self.reset_after else rec(r * h, 2 * u, 3 * u)))
        h = z * h + (1 - z) * hh
        return h, [h]

    def get_config(self) -> dict:
        return {**super().get_config(), "recurrent_activation": activations.serialize(self.recurrent_activation),
                "reset_after": self.reset_after}


class Bidirectional(Layer):
    """Runs a recurrent layer forwards and a copy of it backwards over the sequence and merges
    the two outputs (``merge_mode``: ``"concat"`` (default), ``"sum"``, ``"mul"``, ``"ave"``, or
    ``None`` for a list). With ``return_sequences`` the backward outputs are put back in time
    order first. Weights: the forward layer's, then the backward layer's.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> bi = keras.layers.Bidirectional(keras.layers.LSTM(3, return_sequences=True))
    >>> bi(tf.ones([2, 5, 4])).shape
    TensorShape([2, 5, 6])
    """

    def __init__(self, layer: Any, merge_mode: Any = "concat", weights: Any = None, backward_layer: Any = None,
                 **kwargs: Any) -> None:
        if not isinstance(layer, (_RNN, RNN)):
            raise ValueError(f"Bidirectional: please initialize `Bidirectional` layer with a SimpleRNN, LSTM, "
                             f"GRU or RNN layer instance. Received: {layer!r}")
        if merge_mode not in ("sum", "mul", "ave", "concat", None):
            raise ValueError(f"Bidirectional: invalid merge mode. Received: {merge_mode!r}. Merge mode should "
                             "be one of {'sum', 'mul', 'ave', 'concat', None}")
        super().__init__(**kwargs)
        cfg = layer.get_config()
        self.forward_layer = type(layer).from_config({**cfg, "name": "forward_" + layer.name.removeprefix("forward_")})
        if backward_layer is None:
            backward_layer = type(layer).from_config({**cfg, "go_backwards": not layer.go_backwards,
                                                      "name": "backward_" + layer.name.removeprefix("forward_")})
        elif not isinstance(backward_layer, (_RNN, RNN)) or backward_layer.go_backwards == layer.go_backwards:
            raise ValueError("Bidirectional: `backward_layer` must be a recurrent layer whose `go_backwards` "
                             "is the opposite of the forward layer's.")
        self.backward_layer = backward_layer
        for attr in ("return_sequences", "return_state"):
            if getattr(self.forward_layer, attr) != getattr(self.backward_layer, attr):
                raise ValueError(f"Bidirectional: forward and backward layers must have the same `{attr}`.")
        for sub in (self.forward_layer, self.backward_layer):   # as Keras: masked steps give zeros
            sub.zero_output_for_mask = sub.return_sequences
        self.merge_mode = merge_mode
        self.return_sequences, self.return_state = layer.return_sequences, layer.return_state
        self._init_weights = weights
        self.supports_masking = True

    def build(self, input_shape: Sequence) -> None:
        for sub in (self.forward_layer, self.backward_layer):
            if not sub.built:
                with name_scope(sub):
                    sub.build(input_shape)
                sub.built = True
        if self._init_weights is not None:
            self.set_weights(self._init_weights)
        self.built = True

    def call(self, inputs: Any, initial_state: Any = None, mask: Any = None, training: Any = None) -> Any:
        fw_state = bw_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            fw_state, bw_state = initial_state[:half], initial_state[half:]
        y = self.forward_layer(inputs, initial_state=fw_state, mask=mask, training=training)
        y_rev = self.backward_layer(inputs, initial_state=bw_state, mask=mask, training=training)
        states: list = []
        if self.return_state:
            states = list(y[1:]) + list(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = reverse(y_rev, [1])
        if self.merge_mode == "concat":
            out: Any = concat([y, y_rev], -1)
        elif self.merge_mode == "sum":
            out = y + y_rev
        elif self.merge_mode == "ave":
            out = (y + y_rev) / 2
        elif self.merge_mode == "mul":
            out = y * y_rev
        else:
            out = [y, y_rev]
        if self.return_state:
            return (out if isinstance(out, list) else [out]) + states
        return out

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        out = mask if self.return_sequences else None
        outs = [out, out] if self.merge_mode is None else [out]
        if self.return_state:
            fw = self.forward_layer
            return outs + [None] * (2 * (fw.n_states if isinstance(fw, _RNN) else len(fw.state_size)))
        return outs if self.merge_mode is None else out

    def get_config(self) -> dict:
        return {**super().get_config(), "merge_mode": self.merge_mode,
                "layer": serialize_keras_object(self.forward_layer),
                "backward_layer": serialize_keras_object(self.backward_layer)}

    @classmethod
    def from_config(cls, config: dict) -> "Bidirectional":
        config = dict(config)
        for key in ("layer", "backward_layer"):
            if isinstance(config.get(key), dict):
                sub = config[key]
                config[key] = _RECURRENT[sub["class_name"]].from_config(sub["config"])
        return cls(**config)


_RECURRENT = {"SimpleRNN": SimpleRNN, "LSTM": LSTM, "GRU": GRU, "RNN": RNN}
