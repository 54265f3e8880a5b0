"""The cases of tests/test_keras_names_more.py, shared with tools/record_keras_names_more.py (which
runs them on Keras 3.15's tf.keras and records the numbers). Each ``run_*`` takes the library
(``tensorflow`` or ``tapegrad``) and its ``keras`` (``tf.keras``) and returns plain lists and dicts,
so both sides compute the same thing."""
from __future__ import annotations

import json

import numpy as np


def enc(x):
    return np.asarray(x, np.float64).tolist()


def plain(config):
    """A config as JSON would keep it (tuples become lists)."""
    return json.loads(json.dumps(config))


# ---- keras.activations ----------------------------------------------------------------------------

# case -> (function, kwargs). The inputs hold the kinks (-1, 0, 1, the thresholds) so that the
# gradients there are TensorFlow's choice of side.
ACTIVATIONS = {
    "celu": ("celu", {}), "celu_alpha": ("celu", {"alpha": 0.7}), "glu": ("glu", {}),
    "glu_axis0": ("glu", {"axis": 0}), "hard_shrink": ("hard_shrink", {}),
    "hard_shrink_1": ("hard_shrink", {"threshold": 1.0}), "hard_tanh": ("hard_tanh", {}),
    "log_sigmoid": ("log_sigmoid", {}), "soft_shrink": ("soft_shrink", {}),
    "soft_shrink_q": ("soft_shrink", {"threshold": 0.25}), "sparse_plus": ("sparse_plus", {}),
    "sparse_sigmoid": ("sparse_sigmoid", {}), "sparsemax": ("sparsemax", {}),
    "sparsemax_axis0": ("sparsemax", {"axis": 0}), "squareplus": ("squareplus", {}),
    "squareplus_b": ("squareplus", {"b": 1.5}), "tanh_shrink": ("tanh_shrink", {}),
    "threshold": ("threshold", {"threshold": 0.5, "default_value": -2.0}),
}
ACTIVATION_DTYPES = ("float32", "float64")


def activation_input(dtype):
    x = np.array([[-3.0, -1.0, -0.5, 0.0], [0.25, 0.5, 1.0, 2.5], [-0.2, 0.7, 1.7, -1.4],
                  [4.0, -0.6, 0.3, 0.31]])
    return x.astype(dtype)


def run_activation(tf, keras, name, dtype):
    fn_name, kwargs = ACTIVATIONS[name]
    fn = getattr(keras.activations, fn_name)
    x = tf.constant(activation_input(dtype))
    weights = tf.constant(np.linspace(-1.0, 2.0, 16).reshape(4, 4).astype(dtype))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x, **kwargs)
        loss = tf.reduce_sum(y * weights[: y.shape[0], : y.shape[1]])
    out = {"value": enc(y), "dtype": y.dtype.name, "grad": enc(tape.gradient(loss, x))}
    if dtype == "float32":
        out["serialized"] = keras.activations.serialize(fn)
        out["get_is_fn"] = keras.activations.get(out["serialized"]) is fn
        out["deserialize_is_fn"] = keras.activations.deserialize(out["serialized"]) is fn
    return out


# ---- keras.metrics' function aliases ---------------------------------------------------------------

METRIC_ALIASES = ("KLD", "MAE", "MAPE", "MSE", "MSLE", "kld", "kullback_leibler_divergence", "logcosh",
                  "mae", "mape", "mse", "msle")


def run_metric_alias(keras, name):
    y_true = np.array([[0.2, 0.8, 0.5], [1.0, 0.0, 0.3]], np.float32)
    y_pred = np.array([[0.3, 0.6, 0.1], [0.9, 0.2, 0.4]], np.float32)
    fn = getattr(keras.metrics, name)
    return {"value": enc(fn(y_true, y_pred)), "callable_class": isinstance(fn, type)}


# ---- keras.losses: Dice, Tversky, Circle, CTC -----------------------------------------------------

def seg_data():
    rng = np.random.default_rng(4)
    y_true = (rng.random((3, 4, 4, 1)) > 0.5).astype(np.float32)
    y_pred = rng.random((3, 4, 4, 1)).astype(np.float32)
    return y_true, y_pred


def embedding_data():
    rng = np.random.default_rng(7)
    emb = rng.normal(size=(6, 4))
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)
    # labels: two pairs, and one singleton class (its sample has no positive: loss 0, masked)
    return np.array([0, 1, 0, 1, 2, 1], np.int32), emb.astype(np.float32)


def ctc_data():
    rng = np.random.default_rng(11)
    y_true = np.array([[1, 2, 2, 0], [3, 1, 0, 0], [2, 0, 0, 0]], np.int32)
    logits = rng.normal(size=(3, 6, 4)).astype(np.float32)
    return y_true, logits


# name -> (class name, constructor kwargs, data, call with sample_weight)
LOSSES = {
    "dice": ("Dice", {}, "seg", None),
    "dice_axis": ("Dice", {"axis": (1, 2, 3), "reduction": "sum"}, "seg", None),
    "dice_axis_none": ("Dice", {"axis": (1, 2), "reduction": None}, "seg", None),
    "dice_weighted": ("Dice", {"axis": (1, 2, 3)}, "seg", [0.5, 1.0, 2.0]),
    "tversky": ("Tversky", {}, "seg", None),
    "tversky_ab": ("Tversky", {"alpha": 0.3, "beta": 0.7, "axis": (1, 2, 3),
                               "reduction": "mean_with_sample_weight"}, "seg", [1.0, 0.0, 3.0]),
    "circle": ("Circle", {}, "emb", None),
    "circle_gamma": ("Circle", {"gamma": 4.0, "margin": 0.25}, "emb", None),
    "circle_diag": ("Circle", {"gamma": 3.0, "remove_diagonal": False, "reduction": "sum"}, "emb", None),
    "circle_none": ("Circle", {"gamma": 2.0, "reduction": None}, "emb", None),
    "circle_weighted": ("Circle", {"gamma": 2.0}, "emb", [1.0, 2.0, 0.5, 1.0, 1.0, 3.0]),
    "ctc": ("CTC", {}, "ctc", None),
    "ctc_sum": ("CTC", {"reduction": "sum"}, "ctc", [1.0, 0.5, 2.0]),
    "ctc_none": ("CTC", {"reduction": "none"}, "ctc", None),
    "ctc_f64": ("CTC", {"dtype": "float64"}, "ctc", None),
}


def loss_data(kind):
    return {"seg": seg_data, "emb": embedding_data, "ctc": ctc_data}[kind]()


def run_loss(tf, keras, name):
    cls, kwargs, kind, weights = LOSSES[name]
    loss = getattr(keras.losses, cls)(name=name, **kwargs)
    y_true, y_pred = loss_data(kind)
    p = tf.constant(y_pred)
    with tf.GradientTape() as tape:
        tape.watch(p)
        value = loss(y_true, p, sample_weight=None if weights is None else np.array(weights, np.float32))
    grad = tape.gradient(value, p)
    config = plain(loss.get_config())
    again = type(loss).from_config(config)
    return {"value": enc(value), "dtype": value.dtype.name, "grad": enc(grad), "config": config,
            "again": plain(again.get_config()),
            "serialized": plain(keras.losses.serialize(loss)),
            "deserialized": plain(keras.losses.deserialize(keras.losses.serialize(loss)).get_config())}


def run_masked_loss(tf, keras):
    """A loss of a masked ``y_pred`` (Masking's output): Keras's ``Loss.__call__`` weighs the masked
    steps 0 and averages over the others; with Circle, that mask and the loss's own combine."""
    x = np.array([[[1.0, 2.0], [0.0, 0.0], [3.0, -1.0]], [[0.5, 0.5], [2.0, 1.0], [0.0, 0.0]]], np.float32)
    y_true = np.array([[[0.0, 1.0], [5.0, 5.0], [2.0, 2.0]], [[1.0, 0.0], [1.0, 1.0], [9.0, 9.0]]], np.float32)
    masked = keras.layers.Masking(0.0)(tf.constant(x))
    out = {}
    for reduction in ("sum_over_batch_size", "sum", "none"):
        loss = keras.losses.MeanSquaredError(reduction=reduction)
        out[reduction] = enc(loss(y_true, masked, sample_weight=np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]],
                                                                          np.float32)))
    labels, emb = embedding_data()
    emb = emb * np.array([1, 1, 1, 0, 1, 1], np.float32)[:, None]  # sample 3 all zeros: masked
    out["circle"] = enc(keras.losses.Circle(gamma=2.0)(labels, keras.layers.Masking(0.0)(tf.constant(emb))))
    return out


# name -> (function, kwargs, data)
LOSS_FUNCTIONS = {
    "dice": ("dice", {}, "seg"), "dice_axis": ("dice", {"axis": (1, 2)}, "seg"),
    "tversky": ("tversky", {"alpha": 0.8, "beta": 0.2}, "seg"),
    "tversky_axis": ("tversky", {"axis": (1, 2, 3)}, "seg"),
    "circle": ("circle", {}, "emb"), "circle_gamma": ("circle", {"gamma": 5.0, "margin": 0.1}, "emb"),
    "circle_ref": ("circle", {"gamma": 2.0, "ref": True}, "emb"),
    "ctc": ("ctc", {}, "ctc"),
}


def run_loss_function(tf, keras, name):
    fn, kwargs, kind = LOSS_FUNCTIONS[name]
    kwargs = dict(kwargs)
    y_true, y_pred = loss_data(kind)
    if kwargs.pop("ref", False):  # the first four samples against the last three
        kwargs.update(ref_labels=y_true[3:], ref_embeddings=y_pred[3:], remove_diagonal=False)
        y_true, y_pred = y_true[:4], y_pred[:4]
    p = tf.constant(y_pred)
    with tf.GradientTape() as tape:
        tape.watch(p)
        value = getattr(keras.losses, fn)(y_true, p, **kwargs)
        total = tf.reduce_sum(value * tf.cast(tf.range(1, tf.size(value) + 1), value.dtype)
                              if value.shape.rank else value)
    return {"value": enc(value), "grad": enc(tape.gradient(total, p)),
            "get_is_fn": keras.losses.get(fn) is getattr(keras.losses, fn)}


# ---- keras.initializers.STFT ------------------------------------------------------------------------

# name -> (kwargs, shape, dtype)
STFT = {
    "hann": ({}, (8, 1, 5), None),
    "imag_hamming_spectrum_periodic": ({"side": "imag", "window": "hamming", "scaling": "spectrum",
                                        "periodic": True}, (8, 1, 5), None),
    "no_window": ({"window": None, "scaling": None}, (6, 1, 4), None),
    "array_window": ({"side": "imag", "window": [0.5, 1.0, 1.0, 0.5], "scaling": "density"}, (4, 1, 3), None),
    "f64": ({"window": "blackman"}, (16, 1, 9), "float64"),
}


def run_stft(keras, name):
    kwargs, shape, dtype = STFT[name]
    init = keras.initializers.STFT(**kwargs)
    value = init(shape, dtype=dtype)
    return {"value": enc(value), "dtype": np.asarray(value).dtype.name, "config": plain(init.get_config()),
            "aliases": [keras.initializers.STFTInitializer is keras.initializers.STFT,
                        keras.initializers.stft is keras.initializers.STFT,
                        type(keras.initializers.get("STFTInitializer")).__name__,
                        type(keras.initializers.get("stft")).__name__]}


# ---- keras.utils: get_source_inputs, Config --------------------------------------------------------------

def run_source_inputs(keras):
    a = keras.Input((3,), name="src_a")
    b = keras.Input((3,), name="src_b")
    c = keras.Input((2,), name="src_c")
    h = keras.layers.Dense(3, name="sd1")(b)
    s = keras.layers.Add(name="sadd")([h, a])
    t = keras.layers.Concatenate(name="scat")([s, c, keras.layers.Dense(2, name="sd2")(a)])
    return {"t": [x.name for x in keras.utils.get_source_inputs(t)],
            "s": [x.name for x in keras.utils.get_source_inputs(s)],
            "a": [x.name for x in keras.utils.get_source_inputs(a)],
            "array_passes": keras.utils.get_source_inputs(5) == 5}


def run_config(keras):
    config = keras.utils.Config(learning_rate=0.1, momentum=0.9)
    config.use_ema = True
    config["seed"] = 123
    out = {"json": json.loads(config.to_json()), "iter": list(config), "len": len(config),
           "attr": config.seed, "item": config["use_ema"], "contains": "momentum" in config,
           "get": config.get("missing", 7), "pop": config.pop("momentum")}
    config.update(beta=2)
    out["as_dict"] = config.as_dict()
    config.freeze()
    errors = {}
    for what, fn in (("setattr", lambda: setattr(config, "x", 1)),
                     ("setitem", lambda: config.__setitem__("x", 1)),
                     ("update", lambda: config.update(x=1)),
                     ("missing", lambda: config.seedd)):
        try:
            fn()
            errors[what] = None
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            errors[what] = type(e).__name__
    out["frozen"] = config.frozen
    out["errors"] = errors
    config.unfreeze()
    config.x = 1
    out["after_unfreeze"] = config.as_dict()
    return out


# ---- keras.layers: ThresholdedReLU, RandomHeight, RandomWidth, Pipeline, Wrapper ---------------------

def run_thresholded_relu(tf, keras):
    layer = keras.layers.ThresholdedReLU(theta=0.5, name="trelu")
    x = tf.constant(activation_input("float32"))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y * y)
    config = plain(layer.get_config())
    return {"value": enc(y), "grad": enc(tape.gradient(loss, x)), "config": config,
            "again": plain(type(layer).from_config(config).get_config()),
            "default_theta": float(keras.layers.ThresholdedReLU().get_config()["theta"])}


def images(shape=(2, 6, 5, 2)):
    return (np.arange(np.prod(shape)).reshape(shape) % 7 / 7.0 + 0.1).astype(np.float32)


# name -> (class, kwargs, input shape); each called twice in training (two draws), once not
RANDOM_RESIZE = {
    "height": ("RandomHeight", {"factor": 0.4, "seed": 5}, (2, 6, 5, 2)),
    "height_pair_nearest": ("RandomHeight", {"factor": (-0.5, 0.8), "interpolation": "nearest", "seed": 9},
                            (1, 7, 4, 1)),
    "height_image": ("RandomHeight", {"factor": (0.2, 0.9), "seed": 2}, (5, 3, 1)),
    "width": ("RandomWidth", {"factor": 0.4, "seed": 5}, (2, 6, 5, 2)),
    "width_bicubic": ("RandomWidth", {"factor": (0.1, 0.6), "interpolation": "bicubic", "seed": 13},
                      (1, 4, 6, 3)),
    "width_image": ("RandomWidth", {"factor": (-0.6, -0.2), "seed": 21}, (4, 8, 1)),
}


def run_random_resize(tf, keras, name):
    cls, kwargs, shape = RANDOM_RESIZE[name]
    layer = getattr(keras.layers, cls)(name=name, **kwargs)
    x = images(shape)
    first, second = layer(x, training=True), layer(x, training=True)
    plain_call = layer(x)  # training defaults to True in call's signature
    off = layer(x, training=False)
    config = plain(layer.get_config())
    return {"first": enc(first), "second": enc(second), "default": enc(plain_call), "off": enc(off),
            "dtype": first.dtype.name, "config": config,
            "again": plain(type(layer).from_config(config).get_config()),
            "output_shape": list(layer.compute_output_shape((None,) + shape[1:]))}


def run_pipeline(tf, keras):
    pipe = keras.layers.Pipeline([keras.layers.Rescaling(0.5, offset=0.25, name="p_rescale"),
                                  keras.layers.RandomHeight((0.3, 0.3), seed=1, name="p_height"),
                                  keras.layers.RandomFlip("horizontal", seed=3, name="p_flip")],
                                  name="pipe")
    x = images((2, 5, 4, 1))
    train, infer = pipe(x), pipe(x, training=False)
    config = plain(pipe.get_config())
    again = keras.layers.Pipeline.from_config(config)
    return {"train": enc(train), "infer": enc(infer), "config": config, "again": plain(again.get_config()),
            "layers": [type(layer).__name__ for layer in pipe.layers]}


def run_wrapper(tf, keras):
    class Twice(keras.layers.Wrapper):
        def call(self, x):
            return self.layer(self.layer(x))

    w = Twice(keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="zeros", name="inner"),
              name="twice")
    y = w(np.ones((2, 3), np.float32))
    config = plain(w.get_config())
    again = Twice.from_config(dict(config))  # (Keras's from_config pops the layer from its argument)
    td = keras.layers.TimeDistributed(keras.layers.Dense(2, name="td_inner"), name="td")
    bi = keras.layers.Bidirectional(keras.layers.LSTM(2))
    return {"value": enc(y), "config": config, "again": plain(again.get_config()),
            "weights": len(w.weights), "td_is_wrapper": isinstance(td, keras.layers.Wrapper),
            "bi_is_wrapper": isinstance(bi, keras.layers.Wrapper),
            "td_config": plain(td.get_config())}
