"""Cases for Keras's logits cache (tapegrad/keras/_logits.py), run by tools/record_keras_logits.py
under TensorFlow 2.21 + Keras 3.15 and by tests/test_keras_logits.py under tapegrad: each takes
the ``tf`` and ``keras`` modules and returns ``{name: value}``.

Saturated outputs show which way a loss went: from the logits the crossentropy keeps growing
(60 for logits 30 and -30), from the clipped probabilities it stops near -log(1e-7) = 16.1.
"""
import numpy as np

X = np.array([[30.0, 0.0, -30.0], [1.0, 2.0, 0.5]], np.float32)
ONE_HOT = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]], np.float32)
LABELS = np.array([2, 1], np.int32)
B_LOGITS = np.array([[40.0], [-3.0], [0.5]], np.float32)
B_TRUE = np.array([[0.0], [1.0], [1.0]], np.float32)


def _f(t):
    return np.asarray(t).tolist()


def case_activations(tf, keras):
    p = keras.activations.softmax(tf.constant(X))
    s = keras.activations.sigmoid(tf.constant(B_LOGITS))
    L = keras.losses
    return {
        "cce": _f(L.categorical_crossentropy(ONE_HOT, p)),
        "scce": _f(L.sparse_categorical_crossentropy(LABELS, p)),
        "bce": _f(L.binary_crossentropy(B_TRUE, s)),
        "bce_smoothed": _f(L.binary_crossentropy(B_TRUE, s, label_smoothing=0.1)),
        "cce_class": _f(L.CategoricalCrossentropy()(ONE_HOT, p)),
        "scce_class": _f(L.SparseCategoricalCrossentropy()(LABELS, p)),
        "bce_class": _f(L.BinaryCrossentropy()(B_TRUE, s)),
        "focal": _f(L.binary_focal_crossentropy(B_TRUE, s)),
        "focal_logits": _f(L.binary_focal_crossentropy(B_TRUE, tf.constant(B_LOGITS), from_logits=True)),
        "plain_softmax": _f(L.categorical_crossentropy(ONE_HOT, tf.nn.softmax(X))),
        "plain_sigmoid": _f(L.binary_crossentropy(B_TRUE, tf.sigmoid(B_LOGITS))),
        "ignore_class": _f(L.sparse_categorical_crossentropy(LABELS, p, ignore_class=1)),
        "metric_bce": float(keras.metrics.BinaryCrossentropy()(B_TRUE, s)),
    }


def case_ops(tf, keras):
    o = keras.ops
    p = o.softmax(tf.constant(X))
    s = o.sigmoid(tf.constant(B_LOGITS))
    return {
        "ops_bce": _f(o.binary_crossentropy(B_TRUE, s)),
        "ops_cce": _f(o.categorical_crossentropy(ONE_HOT, p)),
        "ops_scce": _f(o.sparse_categorical_crossentropy(LABELS, p)),
        "same_dtype_cast": _f(keras.losses.categorical_crossentropy(ONE_HOT, o.cast(p, "float32"))),
        "after_an_op": _f(keras.losses.categorical_crossentropy(ONE_HOT, p * 1.0)),
    }


def case_layers(tf, keras):
    x = tf.constant(X)
    dense = keras.layers.Dense(3, activation="softmax", kernel_initializer="identity",
                               bias_initializer="zeros")
    act = keras.layers.Activation("sigmoid")
    soft = keras.layers.Softmax()
    inputs = keras.Input((3,))
    model = keras.Model(inputs, keras.layers.Dense(3, activation="softmax", kernel_initializer="identity")(inputs))
    return {
        "dense_softmax": _f(keras.losses.categorical_crossentropy(ONE_HOT, dense(x))),
        "activation_layer": _f(keras.losses.binary_crossentropy(B_TRUE, act(tf.constant(B_LOGITS)))),
        "softmax_layer": _f(keras.losses.categorical_crossentropy(ONE_HOT, soft(x))),
        "model_call": _f(keras.losses.categorical_crossentropy(ONE_HOT, model(x))),
    }


def case_fit(tf, keras):
    """fit (traced) and evaluate of a sigmoid classifier whose outputs saturate."""
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((64, 4)) * 8).astype(np.float32)
    y = (x[:, :1] + x[:, 1:2] > 0).astype(np.float32)
    y[:6] = 1 - y[:6]   # (a few wrong labels: saturated mistakes)
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, activation="sigmoid",
                                                                    kernel_initializer="ones")])
    model.compile(optimizer=keras.optimizers.SGD(0.01), loss="binary_crossentropy")
    h = model.fit(x, y, batch_size=16, epochs=2, verbose=0, shuffle=False)
    return {"history": h.history["loss"], "evaluate": float(model.evaluate(x, y, verbose=0)),
            "kernel": _f(model.get_weights()[0])}


CASES = [case_activations, case_ops, case_layers, case_fit]
