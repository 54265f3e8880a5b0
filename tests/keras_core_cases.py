"""The cases of tools/record_keras_core.py, shared with the tests: the same descriptions build
Keras's objects there and tapegrad's here (``keras`` is the module passed in)."""
import numpy as np


def fixed(shape, k):
    """A deterministic float32 array of ``shape``, different for each ``k``."""
    shape = tuple(int(d) for d in shape)
    n = int(np.prod(shape)) if shape else 1
    return (0.5 * np.sin(0.7 * np.arange(n) + k)).reshape(shape).astype(np.float32)


def weights_for(shape):
    """The coefficients of the scalar loss sum(output * coeffs)."""
    shape = tuple(int(d) for d in shape)
    n = int(np.prod(shape)) if shape else 1
    return np.cos(0.3 * np.arange(n)).reshape(shape).astype(np.float32)


INITIALIZERS = {
    "glorot_uniform": ("GlorotUniform", {"seed": 1}, (3, 4)),
    "glorot_normal": ("GlorotNormal", {"seed": 1}, (3, 4)),
    "he_uniform": ("HeUniform", {"seed": 2}, (4, 3)),
    "he_normal": ("HeNormal", {"seed": 2}, (4, 3)),
    "lecun_uniform": ("LecunUniform", {"seed": 3}, (2, 5)),
    "lecun_normal": ("LecunNormal", {"seed": 3}, (2, 5)),
    "random_normal": ("RandomNormal", {"mean": 1.0, "stddev": 2.0, "seed": 4}, (3, 3)),
    "random_uniform": ("RandomUniform", {"minval": -1.0, "maxval": 3.0, "seed": 4}, (3, 3)),
    "truncated_normal": ("TruncatedNormal", {"stddev": 0.5, "seed": 4}, (3, 3)),
    "variance_untruncated": ("VarianceScaling", {"scale": 3.0, "mode": "fan_out",
                                                 "distribution": "untruncated_normal", "seed": 9},
                             (2, 3, 4)),
    "orthogonal": ("Orthogonal", {"gain": 2.0, "seed": 5}, (3, 5)),
    "constant": ("Constant", {"value": 0.25}, (2, 2)),
    "identity": ("Identity", {"gain": 3.0}, (2, 3)),
}

CONSTRAINTS = {  # name -> (class, kwargs); applied to fixed((3, 4), 5) * 3
    "max_norm": ("MaxNorm", {"max_value": 1.5, "axis": 0}),
    "max_norm_rows": ("MaxNorm", {"max_value": 1.0, "axis": 1}),
    "max_norm_all": ("MaxNorm", {"max_value": 2.0, "axis": [0, 1]}),
    "min_max_norm": ("MinMaxNorm", {"min_value": 1.0, "max_value": 1.8, "rate": 0.7, "axis": 0}),
    "non_neg": ("NonNeg", {}),
    "unit_norm": ("UnitNorm", {"axis": 1}),
}

TF_INITIALIZERS = {  # tf.<name>(**kwargs)(shape, dtype)
    "random_normal_seeded": ("random_normal_initializer", {"mean": 1.0, "stddev": 2.0, "seed": 3}, (2, 3), "float32"),
    "random_normal_float64": ("random_normal_initializer", {"seed": 8}, (5,), "float64"),
    "random_uniform_seeded": ("random_uniform_initializer", {"minval": -1.0, "maxval": 1.0, "seed": 4}, (3, 2), "float32"),
    "random_uniform_int": ("random_uniform_initializer", {"minval": 0, "maxval": 10, "seed": 2}, (4,), "int32"),
    "constant_list": ("constant_initializer", {"value": [1.5, 2.0, 3.0, 4.0]}, (2, 2), "float32"),
    "constant_scalar": ("constant_initializer", {"value": 7}, (2, 3), None),
    "zeros": ("zeros_initializer", {}, (2,), "int32"),
    "ones": ("ones_initializer", {}, (2, 2), "float32"),
}

LAYERS = {
    "dense_relu": ("Dense", {"units": 3, "activation": "relu"}, [(4, 5)]),
    "dense_tanh_nobias": ("Dense", {"units": 2, "activation": "tanh", "use_bias": False}, [(3, 4)]),
    "dense_rank3": ("Dense", {"units": 2}, [(2, 3, 4)]),
    "flatten": ("Flatten", {}, [(2, 3, 4)]),
    "reshape": ("Reshape", {"target_shape": (4, -1)}, [(2, 3, 4)]),
    "activation_gelu": ("Activation", {"activation": "gelu"}, [(3, 4)]),
    "relu_args": ("ReLU", {"max_value": 0.3, "negative_slope": 0.1, "threshold": 0.05}, [(3, 4)]),
    "leaky_relu": ("LeakyReLU", {}, [(3, 4)]),
    "softmax": ("Softmax", {}, [(3, 4)]),
    "softmax_axes": ("Softmax", {"axis": (1, 2)}, [(2, 3, 4)]),
    "add": ("Add", {}, [(3, 4), (3, 4)]),
    "multiply": ("Multiply", {}, [(3, 4), (3, 4), (3, 4)]),
    "concatenate": ("Concatenate", {"axis": 1}, [(2, 3), (2, 5)]),
    "dropout_inference": ("Dropout", {"rate": 0.5}, [(3, 4)]),
}

ACT_X = (np.linspace(-4.0, 4.0, 12).reshape(3, 4) + 0.01).astype(np.float32)
ACTIVATIONS = {
    "relu": {}, "relu6": {}, "leaky_relu": {"negative_slope": 0.1}, "elu": {"alpha": 0.7},
    "selu": {}, "gelu": {}, "silu": {}, "swish": {}, "sigmoid": {}, "tanh": {}, "softmax": {},
    "log_softmax": {}, "softplus": {}, "softsign": {}, "exponential": {}, "hard_sigmoid": {},
    "hard_silu": {}, "linear": {}, "mish": {},
}


def _sequential(keras):
    model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(4, activation="relu"),
                              keras.layers.Dropout(0.5), keras.layers.Dense(3, activation="softmax")])
    return model, [fixed((6, 5), 1)]


def _functional(keras):
    a, b = keras.Input((4,), name="a"), keras.Input((3,), name="b")
    shared = keras.layers.Dense(3, activation="tanh")
    ha, hb = shared(a), shared(keras.layers.Dense(4)(b))
    merged = keras.layers.Concatenate()([ha, hb, keras.layers.Add()([ha, hb])])
    out1 = keras.layers.Dense(2)(merged)
    out2 = keras.layers.Dense(1, activation="sigmoid")(keras.layers.Multiply()([ha, hb]))
    return keras.Model([a, b], [out1, out2]), [fixed((5, 4), 1), fixed((5, 3), 2)]


def _subclassed(keras):
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = keras.layers.Dense(4, activation="elu",
                                             kernel_regularizer=keras.regularizers.L2(0.1))
            self.out = keras.layers.Dense(2)

        def call(self, x, training=None):
            return self.out(self.hidden(x) * 2.0)
    model = Net()
    model(fixed((2, 3), 0))
    return model, [fixed((4, 3), 1)]


MODELS = {"sequential": _sequential, "functional": _functional, "subclassed": _subclassed}

FITS = {
    "sgd_mse": {"optimizer": ("SGD", {"learning_rate": 0.05}), "loss": "mse", "metrics": ["mae"],
                "epochs": 3, "batch_size": 8, "validation_split": 0.25},
    "adam_custom_loss": {"optimizer": ("Adam", {"learning_rate": 0.01}), "loss": "custom",
                         "metrics": [], "epochs": 3, "batch_size": 16, "validation_split": 0.0},
    "sgd_regularized": {"optimizer": ("SGD", {"learning_rate": 0.1, "momentum": 0.5}),
                        "loss": "custom", "metrics": [], "epochs": 3, "batch_size": 10,
                        "validation_split": 0.0, "l2": 0.01},
    "adam_classifier": {"optimizer": ("Adam", {"learning_rate": 0.02}),
                        "loss": "sparse_categorical_crossentropy", "metrics": ["accuracy"],
                        "epochs": 3, "batch_size": 8, "validation_split": 0.2, "classes": 3},
    "two_outputs_lists": {"optimizer": ("SGD", {"learning_rate": 0.05}), "model": "two_outputs",
                          "loss": ["mse", "binary_crossentropy"], "metrics": [["mae"], ["accuracy"]],
                          "loss_weights": [1.0, 0.5], "epochs": 3, "batch_size": 8,
                          "validation_split": 0.25},
    "two_outputs_dicts": {"optimizer": ("Adam", {"learning_rate": 0.02}), "model": "two_outputs",
                          "loss": {"cls": "crossentropy", "reg": "mae"},
                          "metrics": {"cls": ["accuracy", "mse"]}, "loss_weights": {"reg": 2.0, "cls": 1.0},
                          "epochs": 3, "batch_size": 16, "validation_split": 0.0},
    "two_outputs_one_loss": {"optimizer": ("SGD", {"learning_rate": 0.05}), "model": "two_outputs",
                             "loss": "mse", "metrics": [], "epochs": 2, "batch_size": 8,
                             "validation_split": 0.0},
    "class_weight": {"optimizer": ("Adam", {"learning_rate": 0.02}), "loss": "crossentropy",
                     "metrics": ["accuracy"], "weighted_metrics": ["accuracy"],
                     "class_weight": {0: 1.0, 1: 3.0, 2: 0.5}, "epochs": 3, "batch_size": 8,
                     "validation_split": 0.0, "classes": 3},
    "shuffled": {"optimizer": ("SGD", {"learning_rate": 0.05}), "loss": "mse", "metrics": ["mae"],
                 "epochs": 3, "batch_size": 8, "validation_split": 0.0, "shuffle_seed": 11},
    "constraints": {"optimizer": ("SGD", {"learning_rate": 0.2, "momentum": 0.5}), "loss": "mse",
                    "metrics": [], "epochs": 3, "batch_size": 8, "validation_split": 0.0,
                    "constraints": True},
}


def _two_outputs(keras):
    inp = keras.Input((4,), name="inp")
    h = keras.layers.Dense(5, activation="tanh", name="hidden")(inp)
    reg = keras.layers.Dense(2, name="reg")(h)
    cls = keras.layers.Dense(1, activation="sigmoid", name="cls")(h)
    return keras.Model(inp, [reg, cls])


def custom_loss(y_true, y_pred):
    """Mean squared error written with operators only (runs on Keras's and tapegrad's tensors)."""
    d = (y_true - y_pred) ** 2
    return (d[:, 0] + d[:, 1]) * 0.5


def fit_case(keras, spec):
    classes = spec.get("classes")
    reg = keras.regularizers.L2(spec["l2"]) if "l2" in spec else None
    x = fixed((40, 4), 3) * 2
    y = np.stack([x[:, 0] - x[:, 1], x[:, 2] * x[:, 3]], axis=1).astype(np.float32)
    if spec.get("model") == "two_outputs":
        model = _two_outputs(keras)
        y = [y, (x[:, :1] + x[:, 1:2] > 0).astype(np.float32)]
    else:
        constrained = {"kernel_constraint": keras.constraints.MaxNorm(0.6, axis=0),
                       "bias_constraint": keras.constraints.NonNeg()} if spec.get("constraints") else {}
        model = keras.Sequential([keras.Input((4,)),
                                  keras.layers.Dense(6, activation="tanh", kernel_regularizer=reg,
                                                     **constrained),
                                  keras.layers.Dense(classes or 2,
                                                     activation="softmax" if classes else None)])
        if classes:
            y = (np.arange(40) % classes).astype(np.int32)
    opt_name, opt_kwargs = spec["optimizer"]
    loss = custom_loss if spec["loss"] == "custom" else spec["loss"]
    compile_kwargs = {"optimizer": getattr(keras.optimizers, opt_name)(**opt_kwargs), "loss": loss,
                      "metrics": spec["metrics"]}
    for key in ("loss_weights", "weighted_metrics"):
        if key in spec:
            compile_kwargs[key] = spec[key]
    fit_kwargs = {"epochs": spec["epochs"], "batch_size": spec["batch_size"],
                  "shuffle": "shuffle_seed" in spec}
    if spec["validation_split"]:
        fit_kwargs["validation_split"] = spec["validation_split"]
    if "class_weight" in spec:
        fit_kwargs["class_weight"] = spec["class_weight"]
    return model, x, y, compile_kwargs, fit_kwargs


# ---- the proof: a Sequential CNN on scikit-learn's digits, Keras's accuracy curve ----

DIGITS_FIT = {"epochs": 5, "batch_size": 64, "shuffle": False}


def digits_split(images, labels):
    """sklearn's 1797 digits (flat 8x8, values 0..16) as (8, 8, 1) float32 images scaled to
    [0, 1]; the first 1437 train, the last 360 validate (a fixed split)."""
    x = (np.asarray(images, np.float32) / 16.0).reshape(-1, 8, 8, 1)
    y = np.asarray(labels, np.int32)
    return (x[:1437], y[:1437]), (x[1437:], y[1437:])


def digits_cnn(keras):
    """Conv2D(8, 3, relu) - MaxPooling2D(2) - Flatten - Dense(10, softmax) with fixed weights,
    compiled with Adam(1e-2) and sparse categorical crossentropy (and accuracy)."""
    model = keras.Sequential([keras.Input((8, 8, 1)), keras.layers.Conv2D(8, 3, activation="relu"),
                              keras.layers.MaxPooling2D(2), keras.layers.Flatten(),
                              keras.layers.Dense(10, activation="softmax")])
    model.set_weights([fixed(w.shape, 20 + i) * (0.8 if i == 0 else 0.3) for i, w in enumerate(model.weights)])
    model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    return model
