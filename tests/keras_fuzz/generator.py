"""Deterministic generator of Keras fuzz programs: ``generate(seed)`` -> program (pure data).

A program names an input kind (vectors, sequences, images, token ids), a model style
(``Sequential`` with ``Input``, built by ``build`` or on its first call; functional, with two
inputs, two outputs, shared layers or a nested model; a subclassed ``Model``, sometimes with its own
``train_step``), a body of layers with typical constructor arguments, a task (regression, binary,
sparse or one-hot classes, or two outputs), ``compile``'s optimizer, loss and metrics, the data
(NumPy arrays or a ``tf.data`` pipeline), ``fit``'s arguments and callbacks. The interpreter
derives the arrays from the seed. Choices are weighted roughly by how often public Keras programs
use them. Only Python's ``random.Random(seed)`` is used.
"""

import random

ACTIVATIONS = ["relu", "relu", "tanh", "sigmoid", None, "elu", "gelu", "softplus", "selu", "swish",
               "leaky_relu"]
INITIALIZERS = ["glorot_uniform", "he_normal", "glorot_normal", "he_uniform", "lecun_normal",
                "zeros", "ones", "random_normal", "random_uniform", "orthogonal"]
INIT_CLASSES = [("GlorotUniform", {}), ("HeNormal", {}), ("RandomNormal", {"stddev": 0.1}),
                ("RandomUniform", {"minval": -0.2, "maxval": 0.2}), ("TruncatedNormal", {"stddev": 0.2}),
                ("Constant", {"value": 0.05}), ("VarianceScaling", {"scale": 2.0, "mode": "fan_out"}),
                ("Orthogonal", {"gain": 1.0})]


def _pick(rng, weighted):
    """``weighted``: dict value -> weight."""
    items = list(weighted.items())
    total = sum(w for _, w in items)
    r = rng.uniform(0, total)
    for value, w in items:
        r -= w
        if r <= 0:
            return value
    return items[-1][0]


def _initializer(rng):
    r = rng.random()
    if r < 0.55:
        return None
    if r < 0.75:
        return rng.choice(INITIALIZERS)
    cls, kw = rng.choice(INIT_CLASSES)
    kw = dict(kw)
    if cls != "Constant" and rng.random() < 0.6:
        kw["seed"] = rng.randrange(100)
    return {"cls": cls, "kw": kw}


def _regularizer(rng):
    r = rng.random()
    if r < 0.8:
        return None
    if r < 0.88:
        return rng.choice(["l2", "l1", "l2"])
    return rng.choice([{"cls": "L2", "kw": {"l2": 0.01}}, {"cls": "L1", "kw": {"l1": 0.005}},
                       {"cls": "L1L2", "kw": {"l1": 0.001, "l2": 0.01}}])


def _constraint(rng):
    if rng.random() < 0.92:
        return None
    return rng.choice(["non_neg", {"cls": "MaxNorm", "kw": {"max_value": 1.0}},
                       {"cls": "UnitNorm", "kw": {}}, {"cls": "MinMaxNorm", "kw": {"max_value": 1.5}}])


def _weight_args(rng, kernel="kernel"):
    kw = {}
    for key, value in ((f"{kernel}_initializer", _initializer(rng)),
                       ("bias_initializer", _initializer(rng) if rng.random() < 0.2 else None),
                       (f"{kernel}_regularizer", _regularizer(rng)),
                       ("bias_regularizer", _regularizer(rng) if rng.random() < 0.3 else None),
                       ("activity_regularizer", _regularizer(rng) if rng.random() < 0.3 else None),
                       (f"{kernel}_constraint", _constraint(rng))):
        if value is not None:
            kw[key] = value
    return kw


def dense(rng, units=None):
    kw = {"units": units or rng.choice([3, 4, 6, 8])}
    act = rng.choice(ACTIVATIONS)
    if act is not None:
        kw["activation"] = act
    if rng.random() < 0.1:
        kw["use_bias"] = False
    kw.update(_weight_args(rng))
    return {"cls": "Dense", "kw": kw}


def _noise(rng, spatial=None):
    r = rng.random()
    if spatial and r < 0.3:
        kw = {"rate": rng.choice([0.2, 0.5])}
        if rng.random() < 0.3:
            kw["seed"] = rng.randrange(50)
        return {"cls": f"SpatialDropout{spatial}", "kw": kw}
    if r < 0.8:
        kw = {"rate": rng.choice([0.1, 0.2, 0.25, 0.5])}
        if rng.random() < 0.3:
            kw["seed"] = rng.randrange(50)
        return {"cls": "Dropout", "kw": kw}
    if r < 0.9:
        kw = {"stddev": rng.choice([0.1, 0.3])}
        if rng.random() < 0.3:
            kw["seed"] = rng.randrange(50)
        return {"cls": "GaussianNoise", "kw": kw}
    return {"cls": "GaussianDropout", "kw": {"rate": 0.2}}


def _norm(rng):
    if rng.random() < 0.7:
        kw = {}
        if rng.random() < 0.4:
            kw["momentum"] = rng.choice([0.9, 0.8, 0.5])
        if rng.random() < 0.2:
            kw["epsilon"] = 1e-5
        if rng.random() < 0.1:
            kw["center"] = False
        if rng.random() < 0.1:
            kw["scale"] = False
        return {"cls": "BatchNormalization", "kw": kw}
    kw = {}
    if rng.random() < 0.2:
        kw["epsilon"] = 1e-6
    return {"cls": "LayerNormalization", "kw": kw}


def _rnn(rng, return_sequences):
    cls = _pick(rng, {"LSTM": 5, "GRU": 3, "SimpleRNN": 2})
    kw = {"units": rng.choice([3, 4, 5])}
    if return_sequences:
        kw["return_sequences"] = True
    if rng.random() < 0.15:
        kw["go_backwards"] = True
    if rng.random() < 0.1:
        kw["dropout"] = 0.2
    if rng.random() < 0.1:
        kw["recurrent_dropout"] = 0.2
    if cls == "GRU" and rng.random() < 0.2:
        kw["reset_after"] = False
    if rng.random() < 0.15:
        kw["activation"] = "relu"
    kw.update(_weight_args(rng))
    if rng.random() < 0.2:
        kw["recurrent_initializer"] = rng.choice(["orthogonal", "glorot_uniform"])
    layer = {"cls": cls, "kw": kw}
    if rng.random() < 0.25:
        wkw = {}
        if rng.random() < 0.4:
            wkw["merge_mode"] = rng.choice(["sum", "ave", "mul", "concat"])
        return {"cls": "Bidirectional", "layer": layer, "kw": wkw}
    return layer


def body_vec(rng):
    layers = []
    for _ in range(rng.choice([1, 1, 2, 2, 3])):
        layers.append(dense(rng))
        r = rng.random()
        if r < 0.3:
            layers.append(_noise(rng))
        elif r < 0.5:
            layers.append(_norm(rng))
        elif r < 0.55:
            layers.append({"cls": "Activation", "kw": {"activation": rng.choice(["relu", "tanh"])}})
        elif r < 0.6:
            layers.append({"cls": "Lambda", "fn": rng.choice(["half", "square"])})
    return layers


def body_seq(rng, steps):
    layers = []
    r = rng.random()
    if r < 0.35:
        kw = {"filters": rng.choice([3, 4]), "kernel_size": rng.choice([2, 3]),
              "activation": rng.choice(["relu", None, "tanh"])}
        if rng.random() < 0.4:
            kw["padding"] = rng.choice(["same", "causal"])
        if rng.random() < 0.15:
            kw["strides"] = 2
        if rng.random() < 0.15:
            kw["dilation_rate"] = 2
            kw.pop("strides", None)
        kw.update(_weight_args(rng))
        layers.append({"cls": "Conv1D", "kw": {k: v for k, v in kw.items() if v is not None}})
        if rng.random() < 0.3:
            layers.append(_noise(rng, spatial=1))
        if rng.random() < 0.4:
            layers.append({"cls": rng.choice(["MaxPooling1D", "AveragePooling1D"]),
                           "kw": {"pool_size": 2, "padding": "same"}})
        end = _pick(rng, {"global_avg": 3, "global_max": 2, "flatten": 2, "rnn": 2})
    else:
        end = _pick(rng, {"rnn": 6, "rnn2": 3, "global_avg": 1})
    if end == "global_avg":
        layers.append({"cls": "GlobalAveragePooling1D", "kw": {}})
    elif end == "global_max":
        layers.append({"cls": "GlobalMaxPooling1D", "kw": {}})
    elif end == "flatten":
        layers.append({"cls": "Flatten", "kw": {}})
    elif end == "rnn":
        layers.append(_rnn(rng, False))
    else:
        layers.append(_rnn(rng, True))
        if rng.random() < 0.3:
            layers.append(_noise(rng))
        layers.append(_rnn(rng, False))
    if rng.random() < 0.5:
        layers.append(dense(rng))
    return layers


def body_img(rng):
    layers = []
    for _ in range(rng.choice([1, 1, 2])):
        cls = _pick(rng, {"Conv2D": 6, "Conv2DTranspose": 1, "SeparableConv2D": 1, "DepthwiseConv2D": 1})
        kw = {"kernel_size": rng.choice([2, 3])}
        if cls != "DepthwiseConv2D":
            kw["filters"] = rng.choice([2, 3, 4])
        act = rng.choice(["relu", "relu", None, "tanh"])
        if act:
            kw["activation"] = act
        if rng.random() < 0.4:
            kw["padding"] = "same"
        if rng.random() < 0.15:
            kw["strides"] = 2
        kernel = "depthwise" if cls == "DepthwiseConv2D" else "kernel"
        if cls != "SeparableConv2D":
            kw.update(_weight_args(rng, kernel))
        layers.append({"cls": cls, "kw": kw})
        r = rng.random()
        if r < 0.3:
            layers.append(_norm(rng) if rng.random() < 0.6 else {"cls": "BatchNormalization", "kw": {}})
        elif r < 0.45:
            layers.append(_noise(rng, spatial=2))
    pool = _pick(rng, {"flatten": 4, "gap": 3, "gmp": 1, "maxpool_flatten": 3})
    if pool == "flatten":
        layers.append({"cls": "Flatten", "kw": {}})
    elif pool == "gap":
        layers.append({"cls": "GlobalAveragePooling2D", "kw": {}})
    elif pool == "gmp":
        layers.append({"cls": "GlobalMaxPooling2D", "kw": {}})
    else:
        layers.append({"cls": rng.choice(["MaxPooling2D", "AveragePooling2D"]),
                       "kw": {"pool_size": 2, "padding": "same"}})
        layers.append({"cls": "Flatten", "kw": {}})
    if rng.random() < 0.3:
        layers.append(_noise(rng))
    return layers


def body_tok(rng, vocab):
    kw = {"input_dim": vocab, "output_dim": rng.choice([3, 4, 6])}
    if rng.random() < 0.35:
        kw["mask_zero"] = True
    if rng.random() < 0.3:
        kw["embeddings_initializer"] = rng.choice(["uniform", "glorot_uniform",
                                                    {"cls": "RandomNormal", "kw": {"seed": 4}}])
    layers = [{"cls": "Embedding", "kw": kw}]
    end = _pick(rng, {"rnn": 5, "global_avg": 4, "flatten": 1})
    if end == "flatten" and kw.get("mask_zero"):
        end = "global_avg"
    if end == "rnn":
        layers.append(_rnn(rng, False))
    elif end == "global_avg":
        layers.append({"cls": "GlobalAveragePooling1D", "kw": {}})
    else:
        layers.append({"cls": "Flatten", "kw": {}})
    if rng.random() < 0.4:
        layers.append(dense(rng))
    return layers


def _optimizer(rng):
    name = _pick(rng, {"adam_str": 5, "Adam": 6, "SGD": 4, "sgd_str": 1, "rmsprop_str": 1, "RMSprop": 2,
                       "AdamW": 2, "Adagrad": 1, "Nadam": 1, "Adamax": 1})
    if name.endswith("_str"):
        return name[:-4]
    kw = {}
    lr = rng.choice([0.001, 0.01, 0.05, 0.1]) if name in ("SGD", "Adagrad") else rng.choice([0.001, 0.01, 0.02])
    r = rng.random()
    if r < 0.15:
        sched = _pick(rng, {"ExponentialDecay": 3, "PiecewiseConstantDecay": 1, "CosineDecay": 1,
                            "InverseTimeDecay": 1})
        if sched == "ExponentialDecay":
            lr = {"schedule": sched, "kw": {"initial_learning_rate": lr, "decay_steps": rng.choice([1, 2, 5]),
                                            "decay_rate": 0.9, "staircase": rng.random() < 0.3}}
        elif sched == "PiecewiseConstantDecay":
            lr = {"schedule": sched, "kw": {"boundaries": [2, 5], "values": [lr, lr / 2, lr / 4]}}
        elif sched == "CosineDecay":
            lr = {"schedule": sched, "kw": {"initial_learning_rate": lr, "decay_steps": 8}}
        else:
            lr = {"schedule": sched, "kw": {"initial_learning_rate": lr, "decay_steps": 2, "decay_rate": 0.5}}
    if rng.random() < 0.9:
        kw["learning_rate"] = lr
    if name == "SGD" and rng.random() < 0.6:
        kw["momentum"] = rng.choice([0.5, 0.9])
        if rng.random() < 0.4:
            kw["nesterov"] = True
    if name == "Adam" and rng.random() < 0.15:
        kw["amsgrad"] = True
    if name == "RMSprop" and rng.random() < 0.3:
        kw["momentum"] = 0.5
    if name == "AdamW":
        kw["weight_decay"] = rng.choice([0.004, 0.01, 0.1])
    elif rng.random() < 0.07:
        kw["weight_decay"] = 0.01
    r = rng.random()
    if r < 0.07:
        kw["clipnorm"] = rng.choice([0.5, 1.0])
    elif r < 0.12:
        kw["clipvalue"] = rng.choice([0.1, 0.5])
    elif r < 0.16:
        kw["global_clipnorm"] = 1.0
    return {"cls": name, "kw": kw}


LOSSES = {
    "regression": [("mse", 5), ("mae", 2), ("huber", 1), ({"cls": "MeanSquaredError", "kw": {}}, 2),
                   ({"cls": "Huber", "kw": {"delta": 0.5}}, 1), ("mean_squared_logarithmic_error", 0),
                   ({"cls": "LogCosh", "kw": {}}, 1)],
    "binary": [("binary_crossentropy", 6), ({"cls": "BinaryCrossentropy", "kw": {"from_logits": True}}, 2),
               ({"cls": "BinaryCrossentropy", "kw": {"label_smoothing": 0.1}}, 1),
               ({"cls": "BinaryFocalCrossentropy", "kw": {}}, 1)],
    "sparse": [("sparse_categorical_crossentropy", 6),
               ({"cls": "SparseCategoricalCrossentropy", "kw": {"from_logits": True}}, 3)],
    "onehot": [("categorical_crossentropy", 5),
               ({"cls": "CategoricalCrossentropy", "kw": {"from_logits": True}}, 2),
               ({"cls": "CategoricalCrossentropy", "kw": {"label_smoothing": 0.1}}, 1),
               ("kl_divergence", 1)],
}
METRICS = {
    "regression": [("mae", 5), ("mse", 2), ({"cls": "RootMeanSquaredError", "kw": {}}, 2),
                   ({"cls": "MeanAbsoluteError", "kw": {"name": "m_a_e"}}, 1), ("mape", 1)],
    "binary": [("accuracy", 6), ("binary_accuracy", 1), ({"cls": "AUC", "kw": {}}, 1),
               ({"cls": "Precision", "kw": {}}, 1), ({"cls": "Recall", "kw": {}}, 1)],
    "sparse": [("accuracy", 6), ("sparse_categorical_accuracy", 1),
               ({"cls": "SparseTopKCategoricalAccuracy", "kw": {"k": 2}}, 1)],
    "onehot": [("accuracy", 6), ("categorical_accuracy", 1),
               ({"cls": "TopKCategoricalAccuracy", "kw": {"k": 2}}, 1)],
}


def _weighted_choice(rng, pairs):
    return pairs[_pick(rng, {i: w for i, (_, w) in enumerate(pairs)})][0]


def _loss_for(rng, task, head_linear):
    loss = _weighted_choice(rng, LOSSES[task])
    logits = isinstance(loss, dict) and loss["kw"].get("from_logits")
    if task in ("binary", "sparse", "onehot"):
        activation = None if logits else ("sigmoid" if task == "binary" else "softmax")
    else:
        activation = None if head_linear else rng.choice([None, "linear", "relu" if rng.random() < 0.1 else None])
    return loss, activation


def _metrics_for(rng, task):
    r = rng.random()
    if r < 0.2:
        return []
    n = 1 if r < 0.8 else 2
    out = []
    for _ in range(n):
        m = _weighted_choice(rng, METRICS[task])
        if m not in out:
            out.append(m)
    return out


def generate(seed):
    rng = random.Random(seed)
    program = {"seed": seed, "global_seed": rng.randrange(1000)}
    style = _pick(rng, {"sequential_input": 8, "sequential_noinput": 3, "sequential_build": 1,
                        "functional": 6, "functional_multi": 3, "subclassed": 3})
    kind = _pick(rng, {"vec": 8, "seq": 3, "img": 3, "tok": 2})
    if style == "functional_multi":
        kind = "vec"
    vocab = rng.choice([6, 10])
    shape = {"vec": [rng.choice([3, 4, 5])], "seq": [rng.choice([4, 5, 6]), rng.choice([2, 3])],
             "img": [rng.choice([5, 6]), rng.choice([5, 6]), rng.choice([1, 2])],
             "tok": [rng.choice([4, 5, 6])]}[kind]
    program["input"] = {"kind": kind, "shape": shape, "vocab": vocab,
                        "x_dtype": _pick(rng, {"float32": 6, "float64": 3}) if kind != "tok" else
                        _pick(rng, {"int64": 3, "int32": 1})}
    body = {"vec": lambda: body_vec(rng), "seq": lambda: body_seq(rng, shape[0]),
            "img": lambda: body_img(rng), "tok": lambda: body_tok(rng, vocab)}[kind]()
    program["style"] = style
    program["body"] = body
    if style == "functional" and kind == "seq" and rng.random() < 0.5:
        program["attention"] = _pick(rng, {"mha": 3, "attention": 1})
    if style == "functional" and rng.random() < 0.2:
        program["nested"] = True
    if style == "functional_multi":
        program["merge"] = _pick(rng, {"Concatenate": 4, "Add": 2, "Multiply": 1, "Average": 1})
        program["shared"] = rng.random() < 0.3
        program["second_shape"] = shape if program["shared"] or program["merge"] != "Concatenate" \
            else [rng.choice([2, 3])]
        program["two_outputs"] = rng.random() < 0.6
    if style == "subclassed":
        program["custom_step"] = _pick(rng, {None: 3, "train": 2, "train_test": 1})

    task = _pick(rng, {"regression": 4, "binary": 3, "sparse": 3, "onehot": 2})
    if program.get("custom_step") and task == "binary":
        task = "regression"
    program["task"] = task
    classes = rng.choice([3, 4]) if task in ("sparse", "onehot") else 1
    out_units = classes if task in ("sparse", "onehot") else rng.choice([1, 1, 1, 2]) if task == "regression" else 1
    loss, head_act = _loss_for(rng, task, False)
    program["head"] = {"units": out_units, "activation": head_act, "classes": classes}
    program["y_1d"] = task in ("binary", "sparse", "regression") and out_units == 1 and rng.random() < 0.5

    comp = {"optimizer": _optimizer(rng)}
    metrics = _metrics_for(rng, task)
    if program.get("two_outputs"):
        aux_loss, aux_act = _loss_for(rng, "binary", False)
        program["aux_head"] = {"activation": aux_act}
        form = _pick(rng, {"dict": 3, "list": 2, "single": 1})
        if form == "dict":
            comp["loss"] = {"main": loss, "aux": aux_loss}
            if rng.random() < 0.4:
                comp["loss_weights"] = {"main": 1.0, "aux": rng.choice([0.2, 0.5])}
            if metrics or rng.random() < 0.5:
                comp["metrics"] = {"main": metrics, "aux": ["accuracy"]} if rng.random() < 0.6 \
                    else {"aux": ["accuracy"]}
        elif form == "list":
            comp["loss"] = [loss, aux_loss]
            if rng.random() < 0.4:
                comp["loss_weights"] = [1.0, 0.3]
            if metrics:
                comp["metrics"] = [metrics, ["accuracy"]]
        else:
            comp["loss"] = loss if isinstance(loss, str) else "mse"
            program["aux_head"]["activation"] = "sigmoid"
        program["y_form"] = form if form != "single" else "list"
    else:
        comp["loss"] = loss
        if metrics:
            comp["metrics"] = metrics
    if rng.random() < 0.08 and task != "regression" and not program.get("two_outputs"):
        comp["weighted_metrics"] = ["accuracy"]
    if rng.random() < 0.1:
        comp["steps_per_execution"] = rng.choice([2, 3])
    if rng.random() < 0.05:
        comp["run_eagerly"] = True
    program["compile"] = comp

    n = rng.choice([12, 16, 20, 23, 30])
    pipeline = _pick(rng, {"numpy": 7, "dataset": 3})
    if program.get("custom_step") and pipeline == "numpy" and rng.random() < 0.3:
        pipeline = "dataset"
    data = {"n": n, "pipeline": pipeline, "batch": rng.choice([4, 5, 8, 16, None, None])}
    if pipeline == "dataset":
        data["batch"] = data["batch"] or 8
        if rng.random() < 0.5:
            data["ds_shuffle"] = rng.choice([None, 3, 17])
        if rng.random() < 0.25:
            data["repeat"] = True
            data["steps_per_epoch"] = rng.choice([2, 3, 4])
        elif rng.random() < 0.1:
            data["steps_per_epoch"] = 2
    else:
        data["shuffle"] = _pick(rng, {True: 5, False: 3, "batch": 1, "default": 2})
    if not program.get("custom_step"):
        if rng.random() < 0.12:
            data["sample_weight"] = True
        if pipeline == "numpy" and task in ("binary", "sparse") and not program.get("two_outputs") \
                and rng.random() < 0.12:
            data["class_weight"] = True
            data.pop("sample_weight", None)
    r = rng.random()
    if r < 0.25 and pipeline == "numpy":
        data["validation"] = "split"
        data["validation_split"] = rng.choice([0.2, 0.25])
    elif r < 0.45:
        data["validation"] = "data"
        data["val_n"] = rng.choice([6, 8])
        if pipeline == "dataset" and rng.random() < 0.3:
            data["validation_steps"] = 1
    program["data"] = data
    fit = {"epochs": rng.choice([1, 2, 2, 3, 3])}
    if rng.random() < 0.08:
        fit["initial_epoch"] = 1
        fit["epochs"] = max(fit["epochs"], 2)
    program["fit"] = fit

    callbacks = []
    if rng.random() < 0.5:
        callbacks.append({"cls": "Recorder"})
    val = data.get("validation") is not None
    if rng.random() < 0.15:
        kw = {"monitor": "val_loss" if val and rng.random() < 0.6 else "loss",
              "patience": rng.choice([0, 1])}
        if rng.random() < 0.5:
            kw["restore_best_weights"] = True
        if rng.random() < 0.3:
            kw["min_delta"] = 0.01
        callbacks.append({"cls": "EarlyStopping", "kw": kw})
    if rng.random() < 0.1 and not isinstance(comp["optimizer"].get("kw", {}).get("learning_rate")
                                             if isinstance(comp["optimizer"], dict) else None, dict):
        callbacks.append({"cls": "ReduceLROnPlateau",
                          "kw": {"monitor": "val_loss" if val else "loss", "factor": 0.5,
                                 "patience": 0, "min_delta": rng.choice([0.0001, 1.0])}})
    if rng.random() < 0.08 and not isinstance(comp["optimizer"].get("kw", {}).get("learning_rate")
                                              if isinstance(comp["optimizer"], dict) else None, dict):
        callbacks.append({"cls": "LearningRateScheduler", "fn": rng.choice(["halve", "step"])})
    if rng.random() < 0.05:
        callbacks.append({"cls": "TerminateOnNaN"})
    program["callbacks"] = callbacks
    program["after"] = {"evaluate": rng.random() < 0.8, "predict_batch": rng.choice([None, 4, 7]),
                        "config": rng.random() < 0.3, "save_weights": rng.random() < 0.2,
                        "keras_save": rng.random() < 0.15, "set_weights": rng.random() < 0.2}
    return program
