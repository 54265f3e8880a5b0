"""Recurrent layers with dropout called in inference, then in training (shared by
tools/record_keras_rnn_masks.py, which records Keras 3's numbers, and tests/test_keras_rnn_masks.py):
Keras 3's RNN draws its dropout masks at every call, in inference too, so the seed generator has
moved on when training starts."""
import numpy as np


def run(keras):
    x = np.random.default_rng(0).normal(size=(2, 5, 3)).astype("float32")
    keras.utils.set_random_seed(1)
    layers = {
        "lstm": keras.layers.LSTM(4, dropout=0.5, recurrent_dropout=0.3, seed=3),
        "gru": keras.layers.GRU(4, dropout=0.5, seed=4),
        "simple_rnn_cell": keras.layers.RNN(keras.layers.SimpleRNNCell(4, dropout=0.4, recurrent_dropout=0.2, seed=5)),
        "lstm_cell": keras.layers.RNN(keras.layers.LSTMCell(4, dropout=0.4, seed=6)),
    }
    out = {}
    for name, layer in layers.items():
        calls = [layer(x, training=t) for t in (False, True, False, True)]
        out[name] = [np.asarray(c).tolist() for c in calls]
    return out
