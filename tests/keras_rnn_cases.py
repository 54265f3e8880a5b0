"""The cases of tools/record_keras_rnn.py, shared with tests/test_keras_rnn.py: the same code
builds and runs Keras's layers there and tapegrad's here (``keras`` and ``tf`` are passed in).

A layer case is ``make(keras) -> (layer, inputs, call)``: ``call(layer, xs)`` runs the layer on
the float inputs ``xs`` (tensors); its weights are set to ``fixed(shape, i + 1)`` and the
outputs and the gradients of ``sum_k reduce_sum(out_k * weights_for(out_k.shape))`` with
respect to the trainable weights and the inputs are recorded.
"""
import re

import numpy as np

from keras_core_cases import fixed, weights_for

MASK = np.array([[True] * 5, [True, True, True, False, False], [True, False, True, True, False]])


def _user_cell(keras):
    class MinimalCell(keras.layers.Layer):
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units, self.state_size = units, [units, 2]

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], self.units), name="w")
            self.u = self.add_weight(shape=(self.units, self.units), name="u")

        def call(self, inputs, states):
            h, c = states
            new_h = keras.ops.tanh(keras.ops.matmul(inputs, self.w) + keras.ops.matmul(h, self.u))
            return new_h, [new_h, c + keras.ops.sum(new_h) * 0.1]
    return MinimalCell(4)


def _rnn(cell_fn, shape=(3, 5, 3), mask=False, training=None, **kw):
    def make(keras):
        layer = keras.layers.RNN(cell_fn(keras), **kw)
        m = MASK[:shape[0], :shape[1]] if mask else None
        return layer, [fixed(shape, 0)], lambda lay, xs: lay(xs[0], mask=m, training=training)
    return make


def _rnn_init_state(keras):
    layer = keras.layers.RNN(keras.layers.LSTMCell(3), return_sequences=True, return_state=True)
    return layer, [fixed((3, 5, 2), 0), fixed((3, 3), 1), fixed((3, 3), 2)], \
        lambda lay, xs: lay(xs[0], initial_state=[xs[1], xs[2]])


def _attention(use_scale=False, score_mode="dot", key=False, causal=False, masks=False, scores=True,
               cls="Attention"):
    def make(keras):
        kw = {} if cls == "AdditiveAttention" else {"score_mode": score_mode}
        layer = getattr(keras.layers, cls)(use_scale=use_scale, **kw)
        ins = [fixed((3, 4, 6), 0), fixed((3, 5, 6), 1)] + ([fixed((3, 5, 6), 2)] if key else [])
        m = [MASK[:, :4], MASK] if masks else None
        return layer, ins, lambda lay, xs: lay(list(xs), mask=m, return_attention_scores=scores,
                                               use_causal_mask=causal)
    return make


def _mha_dropout(keras):
    layer = keras.layers.MultiHeadAttention(2, 3, dropout=0.3, seed=4)
    return layer, [fixed((3, 4, 6), 0)], lambda lay, xs: lay(xs[0], xs[0], training=True)


def _attention_dropout(keras):
    layer = keras.layers.Attention(dropout=0.3, seed=5)
    return layer, [fixed((3, 4, 6), 0), fixed((3, 5, 6), 1)], lambda lay, xs: lay(list(xs), training=True)


def _mha(num_heads=2, key_dim=3, q=(3, 4, 6), v=(3, 5, 6), key=None, value_dim=None, output_shape=None,
         use_bias=True, causal=False, value_mask=False, attention_mask=False, scores=True, attention_axes=None,
         **options):
    def make(keras):
        layer = keras.layers.MultiHeadAttention(num_heads, key_dim, value_dim=value_dim, output_shape=output_shape,
                                                use_bias=use_bias, attention_axes=attention_axes, **options)
        ins = [fixed(q, 0), fixed(v, 1)] + ([fixed(key, 2)] if key else [])
        kw = {}
        if value_mask:
            kw["value_mask"] = MASK[:, :v[1]]
        if attention_mask:
            kw["attention_mask"] = np.arange(q[1])[None, :, None] + 1 >= np.arange(v[1])[None, None, :] * \
                np.array([1, 0, 1])[:, None, None]
        return layer, ins, lambda lay, xs: lay(xs[0], xs[1], key=xs[2] if key else None, use_causal_mask=causal,
                                               return_attention_scores=scores, **kw)
    return make


def _time_distributed(inner, shape, mask=False):
    def make(keras):
        layer = keras.layers.TimeDistributed(inner(keras))
        m = MASK if mask else None
        return layer, [fixed(shape, 0)], lambda lay, xs: lay(xs[0], mask=m)
    return make


CELL = {
    "simple": lambda k: k.layers.SimpleRNNCell(4),
    "lstm": lambda k: k.layers.LSTMCell(4),
    "gru": lambda k: k.layers.GRUCell(4),
    "gru_before": lambda k: k.layers.GRUCell(4, reset_after=False),
    "stacked": lambda k: [k.layers.LSTMCell(4), k.layers.SimpleRNNCell(3, activation="relu"),
                          k.layers.GRUCell(2)],
    "user": _user_cell,
}

LAYER_CASES = {
    "rnn_simple_cell": _rnn(CELL["simple"], return_sequences=True),
    "rnn_simple_cell_nobias_relu": _rnn(lambda k: k.layers.SimpleRNNCell(4, activation="relu", use_bias=False)),
    "rnn_lstm_cell_state": _rnn(CELL["lstm"], return_state=True),
    "rnn_lstm_cell_masked_backwards": _rnn(CELL["lstm"], mask=True, return_sequences=True, go_backwards=True),
    "rnn_gru_cell": _rnn(CELL["gru"], return_sequences=True, return_state=True),
    "rnn_gru_cell_reset_before_masked": _rnn(CELL["gru_before"], mask=True, return_sequences=True),
    "rnn_gru_cell_zero_output_for_mask": _rnn(CELL["gru"], mask=True, return_sequences=True,
                                              zero_output_for_mask=True),
    "rnn_stacked_cells": _rnn(CELL["stacked"], return_sequences=True, return_state=True),
    "rnn_stacked_cells_masked": _rnn(lambda k: k.layers.StackedRNNCells(CELL["stacked"](k)), mask=True),
    "rnn_user_cell": _rnn(CELL["user"], return_state=True, return_sequences=True),
    "rnn_user_cell_masked_backwards": _rnn(CELL["user"], mask=True, go_backwards=True),
    "rnn_lstm_initial_state": _rnn_init_state,
    "rnn_simple_cell_dropout": _rnn(lambda k: k.layers.SimpleRNNCell(4, dropout=0.3, recurrent_dropout=0.2, seed=1),
                                    training=True, return_sequences=True),
    "rnn_lstm_cell_dropout": _rnn(lambda k: k.layers.LSTMCell(4, dropout=0.3, seed=2), training=True),
    "rnn_lstm_cell_recurrent_dropout": _rnn(lambda k: k.layers.LSTMCell(4, dropout=0.3, recurrent_dropout=0.2,
                                                                        seed=2), training=True),
    "rnn_gru_cell_dropout": _rnn(lambda k: k.layers.GRUCell(4, dropout=0.3, recurrent_dropout=0.2, seed=3),
                                 training=True, return_sequences=True),
    "rnn_gru_cell_reset_before_dropout": _rnn(lambda k: k.layers.GRUCell(4, reset_after=False, dropout=0.2,
                                                                          recurrent_dropout=0.3, seed=6),
                                              training=True, mask=True),
    "bidirectional_rnn_gru_cell_masked": lambda k: (
        k.layers.Bidirectional(k.layers.RNN(k.layers.GRUCell(3), return_sequences=True)), [fixed((3, 5, 3), 0)],
        lambda lay, xs: lay(xs[0], mask=MASK)),
    "bidirectional_rnn_stacked_state": lambda k: (
        k.layers.Bidirectional(k.layers.RNN([k.layers.LSTMCell(3), k.layers.SimpleRNNCell(2)], return_state=True),
                               merge_mode="sum"), [fixed((3, 5, 3), 0)], lambda lay, xs: lay(xs[0])),
    "mha_dropout": _mha_dropout,
    "attention_dropout": _attention_dropout,
    "attention_dot": _attention(),
    "attention_scaled_key_masks": _attention(use_scale=True, key=True, masks=True),
    "attention_concat_causal": _attention(score_mode="concat", causal=True),
    "attention_concat_scaled_masks": _attention(score_mode="concat", use_scale=True, masks=True, scores=False),
    "additive_attention": _attention(use_scale=True, cls="AdditiveAttention", masks=True),
    "additive_attention_unscaled_causal": _attention(cls="AdditiveAttention", causal=True, key=True),
    "mha_self": _mha(q=(3, 5, 6), v=(3, 5, 6)),
    "mha_cross_key_value_dim": _mha(num_heads=3, key_dim=2, key=(3, 5, 4), value_dim=4),
    "mha_causal_output_shape": _mha(q=(3, 5, 6), v=(3, 5, 6), causal=True, output_shape=7),
    "mha_value_mask_nobias": _mha(value_mask=True, use_bias=False),
    "mha_attention_mask": _mha(attention_mask=True, scores=False),
    "mha_rank4_default_axes": _mha(q=(2, 3, 4, 6), v=(2, 3, 4, 6)),
    "mha_rank4_axis2": _mha(q=(2, 3, 4, 6), v=(2, 3, 4, 6), attention_axes=2),
    "mha_gate_sliding_window_causal": _mha(q=(3, 5, 6), v=(3, 5, 6), causal=True, use_gate=True,
                                           sliding_window=2),
    "mha_sliding_window_value_mask": _mha(q=(3, 5, 6), v=(3, 5, 6), value_mask=True, sliding_window=3),
    "time_distributed_dense": _time_distributed(lambda k: k.layers.Dense(3, activation="tanh"), (3, 5, 4)),
    "time_distributed_conv": _time_distributed(lambda k: k.layers.Conv2D(2, 2), (3, 5, 4, 4, 2)),
    "time_distributed_masked": _time_distributed(lambda k: k.layers.Dense(2), (3, 5, 4), mask=True),
}


def set_fixed_weights(layer):
    layer.set_weights([fixed(tuple(w.shape), i + 1) for i, w in enumerate(layer.weights)])


def flat(x):
    if isinstance(x, (list, tuple)):
        return [y for item in x for y in flat(item)]
    return [x]


def run_layer_case(keras, tf, name, cases=None):
    """``{"weights": [[name, shape]...], "outs": [...], "grads": [...]}`` for a layer case of
    ``cases`` (default: this module's; gradients: the trainable weights', then the inputs')."""
    layer, inputs, call = (LAYER_CASES if cases is None else cases)[name](keras)
    xs = [tf.constant(x) for x in inputs]
    call(layer, xs)
    set_fixed_weights(layer)
    with tf.GradientTape() as tape:
        tape.watch(xs)
        outs = flat(call(layer, xs))
        loss = tf.add_n([tf.reduce_sum(o * weights_for(o.shape)) for o in outs])
    grads = tape.gradient(loss, list(layer.trainable_weights) + xs)
    return {"weights": [[w.name, list(w.shape)] for w in layer.weights],
            "paths": [re.sub(r"_\d+", "", w.path.split("/", 1)[1]) for w in layer.weights],
            "outs": [np.asarray(o).tolist() for o in outs],
            "grads": [None if g is None else np.asarray(g).tolist() for g in grads]}


# --------------------------------------------------------------------------- training end to end

def transformer_block(keras):
    """A transformer encoder block (self-attention, residual, LayerNormalization, feed-forward)
    and a pooling classifier head, as a functional model."""
    inp = keras.Input((6, 8))
    att = keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)(inp, inp)
    x = keras.layers.LayerNormalization(epsilon=1e-6)(keras.layers.Add()([inp, att]))
    ff = keras.layers.Dense(8)(keras.layers.Dense(16, activation="relu")(x))
    x = keras.layers.LayerNormalization(epsilon=1e-6)(keras.layers.Add()([x, ff]))
    out = keras.layers.Dense(3)(keras.layers.GlobalAveragePooling1D()(x))
    return keras.Model(inp, out), fixed((8, 6, 8), 3), np.arange(8) % 3


def lstm_classifier(keras):
    """Embedding (masking zeros) -> LSTM -> Dense sigmoid, on padded integer sequences."""
    model = keras.Sequential([keras.Input((7,), dtype="int32"),
                              keras.layers.Embedding(12, 5, mask_zero=True),
                              keras.layers.LSTM(6),
                              keras.layers.Dense(1, activation="sigmoid")])
    tokens = (np.arange(8 * 7).reshape(8, 7) * 5 % 11 + 1) * (np.arange(7)[None, :] < 3 + np.arange(8)[:, None] % 5)
    return model, tokens.astype(np.int32), (np.arange(8) % 2).astype(np.float32)


def masked_stack(keras):
    """A functional model passing Embedding's mask through Bidirectional(RNN(stacked cells)),
    TimeDistributed, Attention and RNN(SimpleRNNCell)."""
    layers = keras.layers
    inp = keras.Input((7,), dtype="int32")
    e = layers.Embedding(12, 5, mask_zero=True)(inp)
    s = layers.Bidirectional(layers.RNN([layers.GRUCell(4), layers.LSTMCell(3)], return_sequences=True))(e)
    t = layers.TimeDistributed(layers.Dense(6, activation="tanh"))(s)
    a = layers.Attention(use_scale=True)([t, s])
    out = layers.Dense(1, activation="sigmoid")(layers.RNN(layers.SimpleRNNCell(2))(a))
    _, x, y = lstm_classifier(keras)
    return keras.Model(inp, out), x, y


TRAIN_CASES = {"transformer_block": transformer_block, "lstm_classifier": lstm_classifier,
               "masked_stack": masked_stack}


def run_train_case(keras, tf, name, steps=4):
    """Train (full batch, a GradientTape loop) from fixed weights; the losses before each step
    and the weights after. The classifier uses SGD with momentum: Keras's TensorFlow backend
    applies Adam to an Embedding's sparse gradient row by row (docs/differences.md)."""
    model, x, y = TRAIN_CASES[name](keras)
    set_fixed_weights(model)
    if name == "transformer_block":
        opt = keras.optimizers.Adam(0.01)
        loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    else:
        opt = keras.optimizers.SGD(0.5, momentum=0.9)
        loss_fn = keras.losses.BinaryCrossentropy()
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_weights)
        opt.apply_gradients(zip(grads, model.trainable_weights))
        losses.append(float(loss))
    return {"losses": losses, "weights": [np.asarray(w).tolist() for w in model.weights]}


def run_fit_case(keras, name):
    """``compile`` and ``fit`` (batches of 4, 3 epochs, unshuffled) from fixed weights: the
    history and ``evaluate``'s loss and accuracy."""
    model, x, y = TRAIN_CASES[name](keras)
    set_fixed_weights(model)
    if name == "transformer_block":
        model.compile(keras.optimizers.Adam(0.01), keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=["accuracy"])
    else:   # (a loss by name: labels of shape (n,) against outputs of shape (n, 1))
        model.compile(keras.optimizers.SGD(0.5, momentum=0.9), "binary_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0).history
    return {"loss": history["loss"], "accuracy": history["accuracy"],
            "evaluate": [float(v) for v in model.evaluate(x, y, verbose=0)]}


def unseeded_layers(keras):
    """Recurrent layers and cells made one after another with unseeded initializers under
    ``keras.utils.set_random_seed(0)``, each built on its own input: their outputs depend on the
    order in which each draws its seeds (SimpleRNN's cell takes its seed generator's seed before
    its initializers', GRU's and LSTM's after)."""
    keras.utils.set_random_seed(0)
    L = keras.layers
    made = [L.SimpleRNN(4), L.GRU(3, return_sequences=True), L.SimpleRNN(2), L.LSTM(3), L.GRU(2, reset_after=False),
            L.RNN(L.SimpleRNNCell(3)), L.RNN(L.GRUCell(2)), L.RNN(L.LSTMCell(2)), L.Dense(2)]
    x = np.linspace(-1.0, 1.0, 2 * 4 * 3, dtype=np.float32).reshape(2, 4, 3)
    return {f"{i}_{type(layer).__name__}": np.asarray(layer(x if i < len(made) - 1 else x[:, 0])).tolist()
            for i, layer in enumerate(made)}


def nested_build_shape(keras):
    """The shape a cell's ``build`` gets from ``keras.layers.RNN`` on two nested inputs (Keras
    3: the first input's shape, then what follows the second entry: the first shape alone)."""
    got = []

    class Cell(keras.layers.Layer):
        state_size = 2

        def build(self, input_shape):
            got.append([None if d is None else list(d) if isinstance(d, (list, tuple)) else int(d)
                        for d in input_shape])

        def call(self, inputs, states):
            return states[0], states

    rnn = keras.layers.RNN(Cell())
    try:
        rnn((keras.Input((None, 3)), keras.Input((None, 4, 5))))
    except Exception:  # noqa: BLE001  (the call fails after build in Keras 3; only build's shape is compared)
        pass
    return got
