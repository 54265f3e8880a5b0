"""The cases of tools/record_keras_conv_lstm.py, shared with tests/test_conv_lstm.py: the same code
builds and runs Keras's ConvLSTM layers there and tapegrad's here (``keras`` and ``tf`` are passed in).

A layer case is ``make(keras) -> (layer, inputs, call)``, run as tests/keras_rnn_cases.py runs
its cases (weights set to ``fixed``, outputs and the gradients of ``sum(out * weights_for)`` with
respect to the trainable weights and the inputs). ``init`` cases build layers under
``keras.utils.set_random_seed`` (or seeded initializers) and record the weights Keras draws;
``fit`` cases train a next-frame model from seeded weights with ``compile``/``fit``.
"""
import numpy as np

from keras_core_cases import fixed
from keras_rnn_cases import run_layer_case as _run_layer_case

MASK = np.array([[True, True, False, True], [True, False, True, True]])


def _layer(cls, shape, mask=False, training=None, init_state=False, **kw):
    def make(keras):
        layer = getattr(keras.layers, cls)(**kw)
        m = MASK[:shape[0], :shape[1]] if mask else None
        ins = [fixed(shape, 0)]
        if init_state:
            state = tuple(int(d) for d in layer.compute_output_shape(shape)[1])
            ins += [fixed(state, 1), fixed(state, 2)]
            return layer, ins, lambda lay, xs: lay(xs[0], initial_state=[xs[1], xs[2]], training=training)
        return layer, ins, lambda lay, xs: lay(xs[0], mask=m, training=training)
    return make


LAYER_CASES = {
    "conv_lstm2d_same_sequences": _layer("ConvLSTM2D", (2, 3, 5, 4, 2), filters=3, kernel_size=3, padding="same",
                                         return_sequences=True),
    "conv_lstm2d_valid_strides_state": _layer("ConvLSTM2D", (2, 3, 6, 5, 2), filters=2, kernel_size=(2, 3),
                                              strides=(2, 1), return_state=True),
    "conv_lstm2d_dilated_masked_backwards": _layer("ConvLSTM2D", (2, 4, 5, 5, 1), mask=True, filters=2,
                                                   kernel_size=2, dilation_rate=2, padding="same",
                                                   go_backwards=True, return_sequences=True),
    "conv_lstm2d_masked_state": _layer("ConvLSTM2D", (2, 4, 4, 4, 2), mask=True, filters=2, kernel_size=3,
                                       padding="same", return_state=True),
    "conv_lstm2d_channels_first": _layer("ConvLSTM2D", (2, 3, 2, 5, 4), filters=2, kernel_size=3,
                                         data_format="channels_first", return_sequences=True),
    "conv_lstm2d_initial_state": _layer("ConvLSTM2D", (2, 3, 4, 4, 2), init_state=True, filters=2, kernel_size=3,
                                        padding="same", return_sequences=True, return_state=True),
    "conv_lstm2d_dropout": _layer("ConvLSTM2D", (2, 3, 4, 4, 2), training=True, filters=2, kernel_size=3,
                                  padding="same", dropout=0.3, recurrent_dropout=0.2, seed=3, return_sequences=True),
    "conv_lstm2d_dropout_inference": _layer("ConvLSTM2D", (2, 3, 4, 4, 2), training=False, filters=2,
                                            kernel_size=3, padding="same", dropout=0.3, seed=3),
    "conv_lstm1d_relu_nobias": _layer("ConvLSTM1D", (2, 4, 7, 3), filters=3, kernel_size=3, padding="same",
                                      activation="relu", recurrent_activation="hard_sigmoid", use_bias=False,
                                      return_sequences=True),
    "conv_lstm1d_recurrent_dropout_state": _layer("ConvLSTM1D", (2, 4, 7, 3), training=True, filters=2,
                                                  kernel_size=2, recurrent_dropout=0.4, seed=5, return_state=True),
    "conv_lstm3d": _layer("ConvLSTM3D", (1, 3, 3, 4, 4, 2), filters=2, kernel_size=2, return_sequences=True),
    "conv_lstm3d_same_state": _layer("ConvLSTM3D", (2, 2, 3, 3, 3, 1), filters=2, kernel_size=(1, 2, 3),
                                     padding="same", return_state=True),
}


def run_layer_case(keras, tf, name):
    """As tests/keras_rnn_cases.py's ``run_layer_case``, on this module's cases."""
    return _run_layer_case(keras, tf, name, LAYER_CASES)


INIT_CASES = {
    "conv_lstm2d_global_seed": lambda k: k.layers.ConvLSTM2D(3, (3, 2)),
    "conv_lstm1d_global_seed_no_forget_bias": lambda k: k.layers.ConvLSTM1D(2, 3, unit_forget_bias=False,
                                                                            bias_initializer="random_normal"),
    "conv_lstm3d_seeded_initializers": lambda k: k.layers.ConvLSTM3D(
        2, 2, kernel_initializer=k.initializers.GlorotNormal(seed=4),
        recurrent_initializer=k.initializers.Orthogonal(gain=0.5, seed=5),
        bias_initializer=k.initializers.RandomUniform(seed=6)),
}
INIT_SHAPES = {"conv_lstm2d_global_seed": (2, 3, 6, 5, 2), "conv_lstm1d_global_seed_no_forget_bias": (2, 3, 6, 2),
               "conv_lstm3d_seeded_initializers": (1, 2, 3, 3, 3, 2)}


def run_init_case(keras, tf, name):
    """The weights a layer draws when built under ``keras.utils.set_random_seed(11)``."""
    keras.utils.set_random_seed(11)
    layer = INIT_CASES[name](keras)
    layer.build(INIT_SHAPES[name])
    return {"weights": [np.asarray(w).tolist() for w in layer.weights]}


def next_frame_model(keras, dropout=0.0):
    """keras.io's next-frame prediction model, small: ConvLSTM2D layers, then a Conv3D."""
    inp = keras.Input((None, 6, 6, 1))
    x = keras.layers.ConvLSTM2D(4, (3, 3), padding="same", return_sequences=True, activation="relu",
                                recurrent_dropout=dropout, seed=2)(inp)
    x = keras.layers.ConvLSTM2D(3, (1, 1), padding="same", return_sequences=True, activation="relu")(x)
    out = keras.layers.Conv3D(1, (3, 3, 3), activation="sigmoid", padding="same")(x)
    return keras.Model(inp, out)


def _frames():
    t = np.arange(5)[None, :, None, None, None]
    r, c = np.arange(6)[None, None, :, None, None], np.arange(6)[None, None, None, :, None]
    k = np.arange(4)[:, None, None, None, None]
    x = (np.abs(r - (t + k) % 6) + np.abs(c - (2 * t + k) % 6) < 2).astype(np.float32)
    return x[:, :4], x[:, 1:]


FIT_CASES = {"next_frame": lambda k: next_frame_model(k),
             "next_frame_recurrent_dropout": lambda k: next_frame_model(k, dropout=0.25)}


def run_fit_case(keras, name):
    """Seeded weights (``set_random_seed(3)``), ``compile`` and 2 epochs of ``fit`` (batches of 2,
    unshuffled): the history, the weights after and ``predict``."""
    keras.utils.set_random_seed(3)
    model = FIT_CASES[name](keras)
    x, y = _frames()
    model.compile(keras.optimizers.Adam(0.01), "binary_crossentropy")
    history = model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0).history
    return {"loss": history["loss"], "weights": [np.asarray(w).tolist() for w in model.weights],
            "predict": np.asarray(model.predict(x, verbose=0)).tolist()}


CONFIG_CASES = {
    "conv_lstm2d": lambda k: k.layers.ConvLSTM2D(3, (3, 2), strides=(2, 1), padding="same", dropout=0.1, seed=4,
                                                 kernel_regularizer="l2", return_sequences=True, name="c2"),
    "conv_lstm1d": lambda k: k.layers.ConvLSTM1D(2, 3, dilation_rate=2, data_format="channels_first",
                                                 activation="relu", go_backwards=True, stateful=True, name="c1"),
    "conv_lstm3d": lambda k: k.layers.ConvLSTM3D(2, 2, use_bias=False, unit_forget_bias=False,
                                                 recurrent_constraint="non_neg", return_state=True, name="c3"),
}


def run_config_case(keras, name):
    """``keras.layers.serialize`` of an unbuilt layer."""
    return keras.layers.serialize(CONFIG_CASES[name](keras))


def saved_model(keras):
    """A model with ConvLSTM2D and ConvLSTM1D layers that Keras saves (tests/fixtures/keras_conv_lstm.keras)
    for tapegrad to load; its input is ``fixed((2, 3, 5, 5, 2), 7)``."""
    keras.utils.set_random_seed(1)
    inp = keras.Input((3, 5, 5, 2))
    y = keras.layers.ConvLSTM2D(3, 3, padding="same", return_sequences=True)(inp)
    y = keras.layers.ConvLSTM1D(2, 2, go_backwards=True)(keras.layers.Reshape((3, 25, 3))(y))
    return keras.Model(inp, y), fixed((2, 3, 5, 5, 2), 7)
