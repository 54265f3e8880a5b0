"""The models of tools/record_keras_h5.py, built the same way with Keras (there) and tapegrad (here):
each is a function of the ``keras`` module."""
import numpy as np


def _functional(keras):
    inp = keras.Input((4,))
    h = keras.layers.Dense(3, name="d1", activation="relu")(inp)
    h = keras.layers.BatchNormalization()(h)
    return keras.Model(inp, keras.layers.Dense(2)(h))


def _sequential(keras):
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(3), keras.layers.Dense(1)])


def _lstm(keras):
    return keras.Sequential([keras.Input((5, 3)), keras.layers.LSTM(4, return_sequences=True),
                             keras.layers.Bidirectional(keras.layers.GRU(2)), keras.layers.Dense(1)])


def _attention(keras):
    inp = keras.Input((6,), dtype="int32")
    e = keras.layers.Embedding(10, 8)(inp)
    a = keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)(e, e)
    h = keras.layers.LayerNormalization()(keras.layers.Add()([a, e]))
    h = keras.layers.Conv1D(3, 2)(h)
    return keras.Model(inp, keras.layers.GlobalAveragePooling1D()(h))


MODELS = {"functional": _functional, "sequential": _sequential, "lstm": _lstm, "attention": _attention}
COMPILED = ("functional",)


def inputs(name):
    rng = np.random.default_rng(0)
    if name == "attention":
        return rng.integers(0, 10, (2, 6)).astype("int32")
    if name == "lstm":
        return rng.normal(size=(2, 5, 3)).astype("float32")
    return rng.normal(size=(2, 4)).astype("float32")


def targets(name, pred):
    return np.ones_like(pred)
