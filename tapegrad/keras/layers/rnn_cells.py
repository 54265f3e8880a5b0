"""Keras 3's recurrent cells (SimpleRNNCell, LSTMCell, GRUCell, StackedRNNCells) and the generic
``RNN`` layer that loops a cell over the time axis.

A cell computes one step, ``call(inputs, states) -> (output, new_states)``, projecting that
step's input itself (Keras's cells do the same; the SimpleRNN/LSTM/GRU layers of ``rnn.py``
project the whole sequence at once). ``RNN`` accepts these cells, a list of cells (stacked) and
any layer with a ``state_size`` and a ``call(inputs, states)``. Dropout masks are drawn on a
call's first step and reused at every step (LSTMCell and GRUCell with ``recurrent_dropout``
draw one mask per gate, as Keras's ``implementation=1``); seeded cells draw Keras's masks.
"""
from __future__ import annotations

from typing import Any, Sequence

from .._engine import convert_to_tensor
from .._engine import Variable
from ...ops.array import concat, reshape, reverse, split, stack, unstack, zeros
from ...ops.linalg import matmul
from ...ops.math import cast, where
from .. import activations, initializers, random
from .._tree import flatten, map_structure
from .._variables import name_scope
from .layer import Layer
from .conv import new_weight, weight_args, weight_config

__all__ = ["SimpleRNNCell", "LSTMCell", "GRUCell", "StackedRNNCells", "RNN"]


states_property = property(
    lambda layer: layer.__dict__.get("_states"), lambda layer, v: layer.__dict__.__setitem__("_states", v),
    doc="A stateful RNN's states: zero variables of the batch size from build on (None before).")


def state_variables(batch: Any, initial: Any) -> list:
    """A stateful RNN's states, as Keras 3 makes them when the layer is built: zero variables
    (not trainable, not among the weights) for the static batch size ``batch``."""
    if batch is None:
        raise ValueError("When using `stateful=True` in a RNN, the batch size must be static. Found "
                         "dynamic batch size: give the input a batch size (keras.Input(..., batch_size=n)) "
                         "or call the layer on data first.")
    return map_structure(lambda s: Variable(s, trainable=False, name="rnn_state"), initial(int(batch)))


def keep_states(variables: Any, states: Any) -> None:
    """Assign a stateful RNN's last ``states`` to its state ``variables``."""
    for v, s in zip(flatten(variables), flatten(states)):
        v.assign(s)


def reset_states(variables: Any) -> None:
    """Zero a stateful RNN's state ``variables`` (none before it is built)."""
    for v in flatten(variables) if variables is not None else []:
        v.assign(zeros(v.shape, v.dtype))


def _nested(x: Any) -> bool:
    return isinstance(x, (list, tuple))


def recurrent_args(layer: Layer, units: int, activation: Any, recurrent_activation: Any, use_bias: bool,
                   kernel: tuple, recurrent: tuple, bias: tuple, dropout: float, recurrent_dropout: float,
                   seed: Any) -> None:
    """The arguments a recurrent cell and the recurrent layers share (each weight's
    ``(initializer, regularizer, constraint)``), set on ``layer``. An unseeded initializer or
    seed generator draws its seed from Python's ``random`` when made: SimpleRNN's cell makes its
    seed generator before its initializers, GRU's and LSTM's after (as Keras 3's cells)."""
    if layer.seed_generator_first:
        layer.seed_generator = random.SeedGenerator(seed)
    layer.units = units
    layer.activation = activations.get(activation)
    layer.recurrent_activation = activations.get(recurrent_activation)
    layer.use_bias = bool(use_bias)
    weight_args(layer, "kernel", *kernel)
    weight_args(layer, "recurrent", *recurrent)
    weight_args(layer, "bias", *bias)
    layer.dropout = min(1.0, max(0.0, float(dropout)))
    layer.recurrent_dropout = min(1.0, max(0.0, float(recurrent_dropout)))
    layer.seed = seed
    if not layer.seed_generator_first:
        layer.seed_generator = random.SeedGenerator(seed)


def recurrent_weights(layer: Any, features: int) -> None:
    """``kernel``, ``recurrent_kernel`` and ``bias`` (``gates`` blocks of ``units``) for inputs of
    ``features``; the layer is built."""
    g = layer.gates * layer.units
    layer.kernel = new_weight(layer, "kernel", (features, g))
    layer.recurrent_kernel = new_weight(layer, "recurrent", (layer.units, g), "recurrent_kernel")
    layer.bias = new_weight(layer, "bias", layer._bias_shape(), initializer=layer._bias_init()) \
        if layer.use_bias else None
    layer.built = True


class _Cell(Layer):
    """Arguments, weights and dropout masks the three cells share."""

    gates = 1
    seed_generator_first = False

    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "sigmoid",
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, recurrent_regularizer: Any = None, bias_regularizer: Any = None,
                 kernel_constraint: Any = None, recurrent_constraint: Any = None, bias_constraint: Any = None,
                 dropout: float = 0.0, recurrent_dropout: float = 0.0, seed: Any = None, **kwargs: Any) -> None:
        if isinstance(units, bool) or not isinstance(units, int) or units <= 0:
            raise ValueError("Received an invalid value for argument `units`, expected a positive integer, "
                             f"got {units}.")
        super().__init__(**kwargs)
        recurrent_args(self, units, activation, recurrent_activation, use_bias,
                       (kernel_initializer, kernel_regularizer, kernel_constraint),
                       (recurrent_initializer, recurrent_regularizer, recurrent_constraint),
                       (bias_initializer, bias_regularizer, bias_constraint), dropout, recurrent_dropout, seed)
        self.state_size: Any = units
        self.output_size = units
        self._masks: dict = {}

    def build(self, input_shape: Sequence) -> None:
        recurrent_weights(self, int(input_shape[-1]))

    def _bias_shape(self) -> tuple:
        return (self.gates * self.units,)

    def _bias_init(self) -> Any:
        return self.bias_initializer

    def _mask(self, which: str, like: Any, training: Any) -> Any:
        """The dropout mask (or list of per-gate masks) for ``"input"`` or ``"recurrent"``, drawn
        once and kept until :meth:`reset_dropout_mask` (the RNN layer resets after each call, and
        draws both before its first step, in inference too, as Keras 3's does)."""
        rate = self.dropout if which == "input" else self.recurrent_dropout
        if not (training and 0.0 < rate < 1.0):
            return None
        if which not in self._masks:
            ones = convert_to_tensor(1.0, like.dtype) + zeros(like.shape, like.dtype)
            n = self._mask_count()
            masks = [random.dropout(ones, rate, seed=self.seed_generator) for _ in range(n or 1)]
            self._masks[which] = masks if n else masks[0]
        return self._masks[which]

    def _mask_count(self) -> int:
        return 0

    def reset_dropout_mask(self) -> None:
        """Forget the dropout masks, so that the next step draws new ones."""
        self._masks.clear()

    def reset_recurrent_dropout_mask(self) -> None:
        """Same as :meth:`reset_dropout_mask` (both kinds of masks are reset together)."""
        self._masks.clear()

    def get_initial_state(self, batch_size: int | None = None) -> list:
        """Zero states, one ``(batch_size, size)`` tensor per entry of ``state_size``."""
        sizes = self.state_size if _nested(self.state_size) else [self.state_size]
        return [zeros((batch_size, s), self.compute_dtype) for s in sizes]

    def get_config(self) -> dict:
        return {**super().get_config(), "units": self.units,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
                **weight_config(self, "kernel", "recurrent", "bias"), "dropout": self.dropout,
                "recurrent_dropout": self.recurrent_dropout, "seed": self.seed}


class SimpleRNNCell(_Cell):
    """One step of SimpleRNN: ``h = activation(x @ kernel + bias + h_prev @ recurrent_kernel)``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> cell = keras.layers.SimpleRNNCell(4)
    >>> out, [h] = cell(tf.ones([2, 3]), [tf.zeros([2, 4])])
    >>> out.shape, cell.state_size
    (TensorShape([2, 4]), 4)
    """

    seed_generator_first = True

    def __init__(self, units: int, activation: Any = "tanh", use_bias: bool = True, **kwargs: Any) -> None:
        if "recurrent_activation" in kwargs:
            raise self._unknown_arguments(["recurrent_activation"])
        super().__init__(units, activation=activation, use_bias=use_bias, **kwargs)

    def call(self, sequence: Any, states: Any, training: Any = False) -> tuple:
        prev = states[0] if _nested(states) else states
        dp, rdp = self._mask("input", sequence, training), self._mask("recurrent", prev, training)
        h = matmul(sequence if dp is None else sequence * dp, self.kernel)
        if self.bias is not None:
            h = h + self.bias
        out = h + matmul(prev if rdp is None else prev * rdp, self.recurrent_kernel)
        if self.activation is not None:
            out = self.activation(out)
        return out, [out] if _nested(states) else out


def lstm_bias_initializer(base: Any, units: int, unit_forget_bias: bool) -> Any:
    """The LSTM's bias initializer: ``base``, with the forget gate's part at 1 when
    ``unit_forget_bias`` (gate order ``i, f, c, o``)."""
    if not unit_forget_bias:
        return base

    def init(shape: Any, dtype: Any = None) -> Any:
        return concat([base((units,), dtype), initializers.get("ones")((units,), dtype),
                       base((2 * units,), dtype)], 0)
    return init


def lstm_update(z: Any, c: Any, activation: Any, recurrent_activation: Any) -> tuple:
    """The LSTM's new ``(h, c)`` from the gates' pre-activations ``z`` (``i, f, c, o`` along the
    last axis) and the cell state ``c``; shared by the LSTM layer and LSTMCell."""
    zi, zf, zc, zo = split(z, 4, axis=-1)
    c = recurrent_activation(zf) * c + recurrent_activation(zi) * activation(zc)
    return recurrent_activation(zo) * activation(c), c


class LSTMCell(_Cell):
    """One step of LSTM (gate order ``i, f, c, o``); states ``[h, c]``, ``state_size``
    ``[units, units]``; ``unit_forget_bias=True`` starts the forget gate's bias at 1.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> cell = keras.layers.LSTMCell(3)
    >>> out, (h, c) = cell(tf.ones([2, 5]), [tf.zeros([2, 3]), tf.zeros([2, 3])])
    >>> out.shape, cell.state_size
    (TensorShape([2, 3]), [3, 3])
    """

    gates = 4

    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "sigmoid",
                 use_bias: bool = True, unit_forget_bias: bool = True, **kwargs: Any) -> None:
        self.implementation = kwargs.pop("implementation", 2)
        super().__init__(units, activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, **kwargs)
        if self.recurrent_dropout != 0.0:
            self.implementation = 1
        self.unit_forget_bias = bool(unit_forget_bias)
        self.state_size = [units, units]

    def _mask_count(self) -> int:
        return 4 if self.implementation == 1 else 0

    def _bias_init(self) -> Any:
        return lstm_bias_initializer(self.bias_initializer, self.units, self.unit_forget_bias)

    def call(self, inputs: Any, states: Any, training: Any = False) -> tuple:
        h, c = states[0], states[1]
        dp, rdp = self._mask("input", inputs, training), self._mask("recurrent", h, training)
        u, k, rk = self.units, self.kernel, self.recurrent_kernel
        if self.implementation == 1:
            xs = [inputs if dp is None else inputs * dp[g] for g in range(4)]
            hs = [h if rdp is None else h * rdp[g] for g in range(4)]
            z = concat([matmul(xs[g], k[:, g * u:(g + 1) * u]) + matmul(hs[g], rk[:, g * u:(g + 1) * u])
                        for g in range(4)], -1)
        else:
            z = matmul(inputs if dp is None else inputs * dp, k) + matmul(h, rk)
        if self.bias is not None:
            z = z + self.bias
        h, c = lstm_update(z, c, self.activation, self.recurrent_activation)
        return h, [h, c]

    def get_config(self) -> dict:
        return {**super().get_config(), "recurrent_activation": activations.serialize(self.recurrent_activation),
                "unit_forget_bias": self.unit_forget_bias}


class GRUCell(_Cell):
    """One step of GRU (gate order ``z, r, h``). ``reset_after=True`` (the default): the reset
    gate multiplies the recurrent projection and the bias is ``(2, 3 * units)``; otherwise it
    multiplies the previous state before its projection and the bias is ``(3 * units,)``.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> cell = keras.layers.GRUCell(3)
    >>> out, [h] = cell(tf.ones([2, 5]), [tf.zeros([2, 3])])
    >>> [tuple(w.shape) for w in cell.weights]
    [(5, 9), (3, 9), (2, 9)]
    """

    gates = 3

    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "sigmoid",
                 use_bias: bool = True, reset_after: bool = True, **kwargs: Any) -> None:
        self.implementation = kwargs.pop("implementation", 2)
        super().__init__(units, activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, **kwargs)
        if self.recurrent_dropout != 0.0:
            self.implementation = 1
        self.reset_after = bool(reset_after)

    def _mask_count(self) -> int:
        return 3 if self.implementation == 1 else 0

    def _bias_shape(self) -> tuple:
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def call(self, inputs: Any, states: Any, training: Any = False) -> tuple:
        h = states[0] if _nested(states) else states
        dp, rdp = self._mask("input", inputs, training), self._mask("recurrent", h, training)
        u, k, rk, ra = self.units, self.kernel, self.recurrent_kernel, self.recurrent_activation
        ib = rb = None
        if self.bias is not None:
            ib, rb = (self.bias[0], self.bias[1]) if self.reset_after else (self.bias, None)
        if self.implementation == 1:   # one projection per gate, each with its own dropout masks
            xs = [inputs if dp is None else inputs * dp[g] for g in range(3)]
            hs = [h if rdp is None else h * rdp[g] for g in range(3)]
            x = concat([matmul(xs[g], k[:, g * u:(g + 1) * u]) for g in range(3)], -1)
            inner = concat([matmul(hs[g], rk[:, g * u:(g + 1) * u]) for g in range(3 if self.reset_after else 2)], -1)
            hh = hs[2]
        else:
            x = matmul(inputs if dp is None else inputs * dp, k)
            inner = matmul(h, rk if self.reset_after else rk[:, :2 * u])
            hh = h
        if ib is not None:
            x = x + ib
        if rb is not None:
            inner = inner + rb
        xz, xr, xh = split(x, 3, axis=-1)
        z, r = ra(xz + inner[:, :u]), ra(xr + inner[:, u:2 * u])
        rh = r * inner[:, 2 * u:] if self.reset_after else matmul(r * hh, rk[:, 2 * u:])
        h = z * h + (1 - z) * self.activation(xh + rh)
        return h, [h] if _nested(states) else h

    def get_config(self) -> dict:
        return {**super().get_config(), "recurrent_activation": activations.serialize(self.recurrent_activation),
                "reset_after": self.reset_after}


def time_inputs(x: Any, mask: Any, go_backwards: bool, who: str) -> tuple:
    """A recurrent layer's inputs ``(batch, timesteps, ...)`` and mask, the mask checked and made
    boolean, both reversed in time with ``go_backwards``."""
    if mask is not None:
        if tuple(mask.shape) != tuple(x.shape[:2]):
            raise ValueError(f"{who}: the mask must have shape (batch, timesteps) = {tuple(x.shape[:2])}; "
                             f"received {tuple(mask.shape)}.")
        mask = cast(mask, "bool")
    if go_backwards:
        x = reverse(x, [1])
        mask = None if mask is None else reverse(mask, [1])
    return x, mask


def _output_size(cell: Any) -> int:
    if getattr(cell, "output_size", None) is not None:
        return cell.output_size
    return cell.state_size[0] if _nested(cell.state_size) else cell.state_size


def _zero_states(cell: Any, batch: int, dtype: Any) -> list:
    fn = getattr(cell, "get_initial_state", None)
    if fn is not None:
        states = fn(batch_size=batch)
        return list(states) if _nested(states) else [states]
    sizes = cell.state_size if _nested(cell.state_size) else [cell.state_size]
    return [zeros((batch, s), dtype) for s in sizes]


def _reset_masks(cell: Any) -> None:
    if isinstance(cell, _Cell):
        cell.reset_dropout_mask()
    for sub in getattr(cell, "cells", []) if isinstance(cell, StackedRNNCells) else []:
        _reset_masks(sub)


class StackedRNNCells(Layer):
    """Several cells run as one: each step feeds a cell's output to the next cell. ``state_size``
    is the list of the cells' state sizes; the states are nested the same way.

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> cells = keras.layers.StackedRNNCells([keras.layers.LSTMCell(4), keras.layers.GRUCell(2)])
    >>> keras.layers.RNN(cells)(tf.ones([3, 5, 6])).shape
    TensorShape([3, 2])
    """

    def __init__(self, cells: Sequence, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for cell in cells:
            if "call" not in dir(cell):
                raise ValueError(f"All cells must have a `call` method. Received cell without a `call` method: {cell}")
            if "state_size" not in dir(cell):
                raise ValueError(f"All cells must have a `state_size` attribute. Received cell without a "
                                 f"`state_size`: {cell}")
        self.cells = list(cells)

    @property
    def state_size(self) -> list:
        return [c.state_size for c in self.cells]

    @property
    def output_size(self) -> int:
        return _output_size(self.cells[-1])

    def get_initial_state(self, batch_size: int | None = None) -> list:
        """Each cell's initial states (a list for a cell with several)."""
        out = []
        for cell in self.cells:
            states = _zero_states(cell, batch_size, self.compute_dtype)
            out.append(states if _nested(cell.state_size) else states[0])
        return out

    def build(self, input_shape: Sequence) -> None:
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                cell.build(input_shape)
                cell.built = True
            input_shape = (input_shape[0], _output_size(cell))
        self.built = True

    def call(self, inputs: Any, states: Any, training: Any = False) -> tuple:
        new_states = []
        for cell, s in zip(self.cells, states):
            was_list = _nested(s)
            s = list(s) if was_list else [s]
            kw = {"training": training} if isinstance(cell, Layer) and cell._call_has_training else {}
            inputs, s = (cell if callable(cell) else cell.call)(inputs, s, **kw)
            if not _nested(s):
                s = [s]
            new_states.append(s[0] if len(s) == 1 and not was_list else list(s))
        return inputs, new_states[0] if len(new_states) == 1 else new_states

    def get_config(self) -> dict:
        return {**super().get_config(), "cells": [layer_spec(c) for c in self.cells]}

    @classmethod
    def from_config(cls, config: dict) -> StackedRNNCells:
        config = dict(config)
        config["cells"] = [_deserialize_cell(c) for c in config["cells"]]
        return cls(**config)


def layer_spec(layer: Any) -> dict:
    """A layer's config as Keras serializes it inside another layer's config."""
    return {"module": "keras.layers", "class_name": type(layer).__name__, "config": layer.get_config(),
            "registered_name": None}


def _deserialize_cell(spec: Any) -> Any:
    if isinstance(spec, dict) and spec.get("class_name") in _CELLS:
        return _CELLS[spec["class_name"]].from_config(spec["config"])
    return spec


class RNN(Layer):
    """Loops ``cell`` over the time axis of ``(batch, timesteps, features)`` inputs.

    ``cell``: a SimpleRNNCell, LSTMCell, GRUCell, StackedRNNCells, a list of cells (stacked) or
    any layer with ``state_size`` (an int or a list of ints, one per state), optionally
    ``output_size``, and ``call(inputs, states) -> (output, new_states)``. Keras 3's arguments:
    ``return_sequences``, ``return_state`` (the output then the final states), ``go_backwards``
    (outputs in the reversed order), ``stateful`` (the final states start the next call),
    ``unroll`` (accepted; the loop is always unrolled in eager mode), ``zero_output_for_mask``.
    A masked step keeps the states and repeats the previous output (or gives zeros).

    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> class MinimalCell(keras.layers.Layer):
    ...     def __init__(self, units):
    ...         super().__init__()
    ...         self.units, self.state_size = units, units
    ...     def build(self, input_shape):
    ...         self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones")
    ...     def call(self, inputs, states):
    ...         h = inputs @ self.w + states[0]
    ...         return h, [h]
    >>> keras.layers.RNN(MinimalCell(2), return_sequences=True)(tf.ones([1, 3, 2])).numpy()
    array([[[2., 2.],
            [4., 4.],
            [6., 6.]]], dtype=float32)
    """

    def __init__(self, cell: Any, return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, unroll: bool = False,
                 zero_output_for_mask: bool = False, **kwargs: Any) -> None:
        if _nested(cell):
            cell = StackedRNNCells(cell)
        if "call" not in dir(cell):
            raise ValueError(f"Argument `cell` should have a `call` method. Received: cell={cell}")
        if "state_size" not in dir(cell):
            raise ValueError("The RNN cell should have a `state_size` attribute (single integer or list of "
                             f"integers, one integer per RNN state). Received: cell={cell}")
        super().__init__(**kwargs)
        state_size = getattr(cell, "state_size", None)
        if state_size is None:
            raise ValueError("state_size must be specified as property on the RNN cell.")
        if not isinstance(state_size, (list, tuple, int)):
            raise ValueError("state_size must be an integer, or a list/tuple of integers (one for each state tensor).")
        self.cell = cell
        self.state_size = [state_size] if isinstance(state_size, int) else list(state_size)
        self.return_sequences, self.return_state = bool(return_sequences), bool(return_state)
        self.go_backwards, self.stateful, self.unroll = bool(go_backwards), bool(stateful), bool(unroll)
        self.zero_output_for_mask = bool(zero_output_for_mask)
        self.states = None
        self.supports_masking = True

    states = states_property

    def build(self, sequences_shape: Sequence, initial_state_shape: Any = None) -> None:
        # (nested inputs: Keras 3 gives the cell (first shape,) + the shapes after the second, as
        # for one input, so a cell that reads its nested shapes fails in its build)
        if len(sequences_shape) < 3 and not any(_nested(s) for s in sequences_shape):
            raise ValueError(f"RNN: the input must have shape (batch, timesteps, ...); received an input of "
                             f"shape {tuple(sequences_shape)}.")
        if isinstance(self.cell, Layer) and not self.cell.built:
            with name_scope(self.cell):
                self.cell.build((sequences_shape[0],) + tuple(sequences_shape[2:]))
            self.cell.built = True
        if self.stateful:
            self.states = state_variables(sequences_shape[0], self.get_initial_state)
        self.built = True

    def get_initial_state(self, batch_size: int) -> list:
        """The zero states (the cell's ``get_initial_state`` when it has one)."""
        fn = getattr(self.cell, "get_initial_state", None)
        if fn is None:
            return [zeros((batch_size, d), self.compute_dtype) for d in self.state_size]
        states = fn(batch_size=batch_size)
        return list(states) if _nested(states) else [states]

    def call(self, sequences: Any, initial_state: Any = None, mask: Any = None, training: Any = False) -> Any:
        x = convert_to_tensor(sequences)
        if x.dtype.is_floating and x.dtype.name != self.compute_dtype:
            x = cast(x, self.compute_dtype)
        batch = x.shape[0]
        if initial_state is None:
            states = map_structure(convert_to_tensor, self.states) if self.stateful and self.states is not None \
                else self.get_initial_state(batch)
        else:
            states = list(initial_state) if _nested(initial_state) else [initial_state]
            states = map_structure(lambda s: s if hasattr(s, "shape") and not isinstance(s, (list, tuple))
                                   else convert_to_tensor(s, self.compute_dtype), states)
            if len(states) != len(self.state_size):
                raise ValueError(f"An `initial_state` was passed that is not compatible with `cell.state_size`. "
                                 f"Received `state_spec`={len(states)} state(s); expected {len(self.state_size)} "
                                 f"(`cell.state_size`={self.state_size}).")
        if self.stateful and self.states is not None and flatten(self.states)[0].shape[0] != batch:
            raise ValueError(f"If an RNN is stateful, the batch size of the input sequences must be the same as "
                             f"the batch size of the initial state. \n- Expected batch size: "
                             f"{flatten(self.states)[0].shape[0]}\n- Received batch size: {batch}")
        x, mask = time_inputs(x, None if mask is None else convert_to_tensor(flatten(mask)[0]),
                              self.go_backwards, "RNN")
        cell = self.cell
        if isinstance(cell, _Cell):  # (Keras's _maybe_config_dropout_masks: drawn whether training or not)
            cell._mask("input", x[:, 0], True)
            cell._mask("recurrent", flatten(states)[0], True)
        kw = {"training": training} if isinstance(cell, Layer) and cell._call_has_training else {}
        step = cell if callable(cell) else cell.call
        outputs, out = [], None
        masks = [None] * x.shape[1] if mask is None else unstack(mask, axis=1)
        try:
            for xt, m in zip(unstack(x, axis=1), masks):
                new_out, new_states = step(xt, states, **kw)
                new_states = list(new_states) if _nested(new_states) else [new_states]
                if m is not None:
                    if out is None:
                        out = zeros(new_out.shape, new_out.dtype)
                    new_out = where(_per_row(m, new_out), new_out, 0.0 if self.zero_output_for_mask else out)
                    new_states = _select(m, new_states, states)
                out, states = new_out, new_states
                outputs.append(out)
        finally:
            _reset_masks(cell)
        if self.stateful:
            keep_states(self.states, states)
        y = stack(outputs, 1) if self.return_sequences else outputs[-1]
        return [y, *states] if self.return_state else y

    def reset_state(self) -> None:
        """Forget the states a ``stateful`` layer carries from one call to the next (they
        become zeros)."""
        reset_states(self.states)

    reset_states = reset_state

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        mask = flatten(mask)[0] if mask is not None else None
        out = mask if self.return_sequences else None
        return [out] + [None] * len(self.state_size) if self.return_state else out

    def compute_output_shape(self, sequences_shape: Sequence, initial_state_shape: Any = None) -> Any:
        b, t = sequences_shape[0], sequences_shape[1]
        size = _output_size(self.cell)
        y = (b, t, size) if self.return_sequences else (b, size)
        states = [(b, s) if isinstance(s, int) else [(b, d) for d in s] for s in self.state_size]
        return (y, *states) if self.return_state else y

    def get_config(self) -> dict:
        return {**super().get_config(), "return_sequences": self.return_sequences,
                "return_state": self.return_state, "go_backwards": self.go_backwards, "stateful": self.stateful,
                "unroll": self.unroll, "zero_output_for_mask": self.zero_output_for_mask,
                "cell": layer_spec(self.cell)}

    @classmethod
    def from_config(cls, config: dict) -> RNN:
        config = dict(config)
        config["cell"] = _deserialize_cell(config["cell"])
        return cls(**config)


def _per_row(m: Any, like: Any) -> Any:
    """A step's mask ``(batch,)`` shaped to select rows of ``like`` (of any rank)."""
    return reshape(m, (-1,) + (1,) * (len(like.shape) - 1))


def _select(m: Any, new: Any, old: Any) -> Any:
    if _nested(new):
        return [_select(m, a, b) for a, b in zip(new, old)]
    return where(_per_row(m, new), new, old)


_CELLS = {"SimpleRNNCell": SimpleRNNCell, "LSTMCell": LSTMCell, "GRUCell": GRUCell,
          "StackedRNNCells": StackedRNNCells}
