"""Run one Keras fuzz program (``generator.py``) with given ``tf`` and ``keras`` modules.

``run(program, tf, keras)`` clears the session, calls ``keras.utils.set_random_seed``, builds the
model, compiles and fits it, and returns a dict of encoded results (``tf_programs/_encoding.py``),
one entry per section; a section that raises records the exception (and the sections that need its
result are skipped):

* ``build``: the model's parameter counts (total, trainable) and ``metrics_names`` before fit;
* ``fit``: ``History.history``, the recording callback's log (keys and values at each hook),
  ``optimizer.iterations`` and the learning rate after fit, ``metrics_names``;
* ``weights``: ``get_weights()`` after fit;
* ``evaluate``: ``evaluate(..., return_dict=True)``; ``predict``: ``predict(x, batch_size)``;
* ``config``: a model rebuilt ``from_config(get_config())`` given the weights, its prediction;
* ``save_weights``/``keras_save``: a fresh model given the saved weights / the loaded ``.keras``
  file, its prediction; ``set_weights``: the prediction after ``set_weights`` of scaled weights.
"""

import os
import tempfile

import numpy as np

from tf_programs._encoding import encode_array, encode_error, encode_float

LAMBDAS = {"half": lambda t: t * 0.5, "square": lambda t: t * t}
SCHEDULES = {"halve": lambda epoch, lr: lr * 0.5 if epoch > 0 else lr,
             "step": lambda epoch: 0.01 if epoch < 1 else 0.005}


def _obj(module, spec):
    if isinstance(spec, dict) and "cls" in spec:
        return getattr(module, spec["cls"])(**spec["kw"])
    return spec


def _layer(keras, spec):
    if spec["cls"] == "Lambda":
        return keras.layers.Lambda(LAMBDAS[spec["fn"]])
    if spec["cls"] == "Bidirectional":
        return keras.layers.Bidirectional(_layer(keras, spec["layer"]), **spec["kw"])
    kw = {}
    for key, value in spec["kw"].items():
        if key.endswith("_initializer"):
            value = _obj(keras.initializers, value)
        elif key.endswith("_regularizer"):
            value = _obj(keras.regularizers, value)
        elif key.endswith("_constraint"):
            value = _obj(keras.constraints, value)
        kw[key] = value
    return getattr(keras.layers, spec["cls"])(**kw)


def _head(keras, program, name=None):
    head = program["head"]
    return keras.layers.Dense(head["units"], activation=head["activation"], name=name)


def _aux(keras, program):
    return keras.layers.Dense(1, activation=program["aux_head"]["activation"], name="aux")


def make_data(program, n, offset=0):
    """Inputs and targets: NumPy arrays drawn from the program's seed."""
    rng = np.random.default_rng(program["seed"] * 7 + offset)
    spec = program["input"]
    shape = spec["shape"]
    if spec["kind"] == "tok":
        x = rng.integers(0, spec["vocab"], size=(n, *shape)).astype(spec["x_dtype"])
    else:
        x = rng.normal(size=(n, *shape)).round(2).astype(spec["x_dtype"])
    xs = [x]
    if program["style"] == "functional_multi":
        xs.append(rng.normal(size=(n, *program["second_shape"])).round(2).astype(spec["x_dtype"]))
    task, head = program["task"], program["head"]
    if task == "regression":
        y = rng.normal(size=(n, head["units"])).round(2).astype("float32")
    elif task == "binary":
        y = rng.integers(0, 2, size=(n, 1)).astype("float32")
    elif task == "sparse":
        y = rng.integers(0, head["classes"], size=(n, 1))
    else:
        y = np.eye(head["classes"], dtype="float32")[rng.integers(0, head["classes"], size=n)]
    if program.get("y_1d"):
        y = y[:, 0]
    ys = y
    if program.get("two_outputs"):
        aux = rng.integers(0, 2, size=(n, 1)).astype("float32")
        ys = {"main": y, "aux": aux} if program["y_form"] == "dict" else [y, aux]
    sw = rng.choice([0.5, 1.0, 2.0], size=n).astype("float32")
    return (xs if len(xs) > 1 else xs[0]), ys, sw


def build_model(program, tf, keras):
    style, spec = program["style"], program["input"]
    shape = tuple(spec["shape"])
    in_dtype = "int32" if spec["kind"] == "tok" else "float32"
    if style.startswith("sequential"):
        layers = [_layer(keras, s) for s in program["body"]] + [_head(keras, program)]
        if style == "sequential_input":
            layers.insert(0, keras.Input(shape=shape, dtype=in_dtype))
        model = keras.Sequential(layers)
        if style == "sequential_build":
            model.build((None,) + shape)
        return model
    if style == "functional":
        inp = keras.Input(shape=shape, dtype=in_dtype, name="x")
        h = inp
        if program.get("attention"):
            h = keras.layers.Dense(4, name="proj")(h)
            if program["attention"] == "mha":
                a = keras.layers.MultiHeadAttention(num_heads=2, key_dim=2, name="mha")(h, h)
            else:
                a = keras.layers.Attention(name="att")([h, h])
            h = keras.layers.LayerNormalization()(keras.layers.Add()([h, a]))
        if program.get("nested"):
            h = keras.Sequential([_layer(keras, s) for s in program["body"]], name="inner")(h)
        else:
            for s in program["body"]:
                h = _layer(keras, s)(h)
        return keras.Model(inp, _head(keras, program, "main")(h))
    if style == "functional_multi":
        a = keras.Input(shape=shape, name="a")
        b = keras.Input(shape=tuple(program["second_shape"]), name="b")
        if program["shared"]:
            shared = keras.layers.Dense(4, activation="relu", name="shared")
            ha, hb = shared(a), shared(b)
        else:
            ha = keras.layers.Dense(4, activation="relu")(a)
            hb = keras.layers.Dense(4, activation="tanh")(b) if program["merge"] != "Concatenate" else b
        h = getattr(keras.layers, program["merge"])()([ha, hb])
        for s in program["body"]:
            h = _layer(keras, s)(h)
        out = _head(keras, program, "main")(h)
        if program.get("two_outputs"):
            return keras.Model([a, b], [out, _aux(keras, program)(h)])
        return keras.Model([a, b], out)
    return _subclassed(program, tf, keras)


def _subclassed(program, tf, keras):
    custom = program.get("custom_step")

    class Net(keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.blocks = [_layer(keras, s) for s in program["body"]]
            self.out = _head(keras, program)

        def call(self, x, training=False):
            for block in self.blocks:
                x = block(x, training=training)
            return self.out(x)

    class Stepped(Net):
        def train_step(self, data):
            x, y = data[0], data[1]
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compute_loss(y=y, y_pred=y_pred)
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            for metric in self.metrics:
                if metric.name == "loss":
                    metric.update_state(loss)
                else:
                    metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

    class Tested(Stepped):
        def test_step(self, data):
            x, y = data[0], data[1]
            y_pred = self(x, training=False)
            loss = self.compute_loss(y=y, y_pred=y_pred)
            for metric in self.metrics:
                if metric.name == "loss":
                    metric.update_state(loss)
                else:
                    metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

    cls = {None: Net, "train": Stepped, "train_test": Tested}[custom]
    return cls()


def _compile_args(program, keras):
    comp = program["compile"]
    opt = comp["optimizer"]
    if isinstance(opt, dict):
        kw = dict(opt["kw"])
        lr = kw.get("learning_rate")
        if isinstance(lr, dict):
            kw["learning_rate"] = getattr(keras.optimizers.schedules, lr["schedule"])(**lr["kw"])
        opt = getattr(keras.optimizers, opt["cls"])(**kw)

    def loss_of(spec):
        return _obj(keras.losses, spec)

    def metrics_of(spec):
        return [_obj(keras.metrics, m) for m in spec]

    loss = comp["loss"]
    if isinstance(loss, dict) and "cls" not in loss:
        loss = {k: loss_of(v) for k, v in loss.items()}
    elif isinstance(loss, list):
        loss = [loss_of(v) for v in loss]
    else:
        loss = loss_of(loss)
    args = {"optimizer": opt, "loss": loss}
    metrics = comp.get("metrics")
    if isinstance(metrics, dict):
        args["metrics"] = {k: metrics_of(v) for k, v in metrics.items()}
    elif metrics and isinstance(metrics[0], list):
        args["metrics"] = [metrics_of(v) for v in metrics]
    elif metrics:
        args["metrics"] = metrics_of(metrics)
    for key in ("loss_weights", "steps_per_execution", "run_eagerly"):
        if key in comp:
            args[key] = comp[key]
    if "weighted_metrics" in comp:
        args["weighted_metrics"] = list(comp["weighted_metrics"])
    return args


def _recorder_class(keras):
    class Recorder(keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.events = []

        def _log(self, hook, logs, with_values=True):
            logs = dict(logs or {})
            entry = {"hook": hook, "keys": sorted(logs)}
            if with_values:
                entry["values"] = {k: float(v) for k, v in logs.items()
                                   if np.ndim(np.asarray(v, dtype=object)) == 0}
            self.events.append(entry)

        def on_train_begin(self, logs=None):
            self._log("train_begin", logs)

        def on_epoch_begin(self, epoch, logs=None):
            self._log(f"epoch_begin{epoch}", logs)

        def on_train_batch_end(self, batch, logs=None):
            self._log(f"train_batch_end{batch}", logs)

        def on_epoch_end(self, epoch, logs=None):
            self._log(f"epoch_end{epoch}", logs)
            self.events.append({"hook": "lr", "value": float(np.asarray(self.model.optimizer.learning_rate))})

        def on_test_end(self, logs=None):
            self._log("test_end", logs)

        def on_train_end(self, logs=None):
            self._log("train_end", logs)

    return Recorder


def _callbacks(program, keras):
    out, recorder = [], None
    for spec in program["callbacks"]:
        if spec["cls"] == "Recorder":
            recorder = _recorder_class(keras)()
            out.append(recorder)
        elif spec["cls"] == "LearningRateScheduler":
            out.append(keras.callbacks.LearningRateScheduler(SCHEDULES[spec["fn"]]))
        elif spec["cls"] == "TerminateOnNaN":
            out.append(keras.callbacks.TerminateOnNaN())
        else:
            out.append(getattr(keras.callbacks, spec["cls"])(**spec["kw"]))
    return out, recorder


def _dataset(tf, program, x, y, sw, with_weights):
    data = program["data"]
    if isinstance(x, list):
        x = tuple(x)
    if isinstance(y, list):
        y = tuple(y)
    parts = (x, y, sw) if with_weights else (x, y)
    ds = tf.data.Dataset.from_tensor_slices(parts)
    if data.get("ds_shuffle", "absent") != "absent":
        ds = ds.shuffle(data["n"], seed=data["ds_shuffle"])
    ds = ds.batch(data["batch"])
    if data.get("repeat"):
        ds = ds.repeat()
    return ds


def _lr_value(opt):
    return float(np.asarray(opt.learning_rate))


def run(program, tf, keras):
    """Build, fit and read the program's model with ``tf``/``keras``; return encoded results."""
    keras.utils.clear_session()
    keras.utils.set_random_seed(program["global_seed"])
    out = {}
    data = program["data"]
    x, y, sw = make_data(program, data["n"])
    try:
        model = build_model(program, tf, keras)
        model.compile(**_compile_args(program, keras))
        built = bool(model.built)
        info = {"built": built}
        if built:
            info["params"] = int(model.count_params())
            info["trainable"] = int(sum(int(np.prod(v.shape)) for v in model.trainable_weights))
        out["build"] = encode(info, tf)
    except Exception as exc:  # noqa: BLE001
        out["build"] = encode_error(exc)
        return out

    callbacks, recorder = _callbacks(program, keras)
    kwargs = {"epochs": program["fit"]["epochs"], "verbose": 0, "callbacks": callbacks}
    if "initial_epoch" in program["fit"]:
        kwargs["initial_epoch"] = program["fit"]["initial_epoch"]
    with_weights = bool(data.get("sample_weight"))
    if data.get("validation") == "data":
        vx, vy, _ = make_data(program, data["val_n"], offset=1)
        if data["pipeline"] == "dataset":
            vds = _dataset(tf, dict(program, data=dict(data, ds_shuffle="absent", repeat=False,
                                                       n=data["val_n"])), vx, vy, None, False)
            kwargs["validation_data"] = vds
            if "validation_steps" in data:
                kwargs["validation_steps"] = data["validation_steps"]
        else:
            kwargs["validation_data"] = (vx, vy)
    elif data.get("validation") == "split":
        kwargs["validation_split"] = data["validation_split"]
    try:
        if data["pipeline"] == "dataset":
            fit_x = _dataset(tf, program, x, y, sw, with_weights)
            if "steps_per_epoch" in data:
                kwargs["steps_per_epoch"] = data["steps_per_epoch"]
            history = model.fit(fit_x, **kwargs)
        else:
            if data["batch"] is not None:
                kwargs["batch_size"] = data["batch"]
            if data["shuffle"] != "default":
                kwargs["shuffle"] = data["shuffle"]
            if with_weights:
                kwargs["sample_weight"] = sw
            if data.get("class_weight"):
                classes = program["head"]["classes"] if program["task"] == "sparse" else 2
                kwargs["class_weight"] = {i: 1.0 + 0.5 * i for i in range(classes)}
            history = model.fit(x, y, **kwargs)
        fit = {"history": {k: [float(v) for v in vals] for k, vals in history.history.items()},
               "epochs": list(history.epoch),
               "iterations": int(np.asarray(model.optimizer.iterations)),
               "lr": _lr_value(model.optimizer),
               "metrics_names": list(model.metrics_names),
               "params": int(model.count_params())}
        if recorder is not None:
            fit["events"] = recorder.events
        out["fit"] = encode(fit, tf)
    except Exception as exc:  # noqa: BLE001
        out["fit"] = encode_error(exc)
        return out
    weights = model.get_weights()
    out["weights"] = encode([np.asarray(w) for w in weights], tf)
    after = program["after"]
    if after["evaluate"]:
        out["evaluate"] = _section(lambda: {k: float(v) for k, v in model.evaluate(
            x, y, verbose=0, return_dict=True, batch_size=after["predict_batch"]).items()}, tf)
    pb = after["predict_batch"]
    out["predict"] = _section(lambda: model.predict(x, batch_size=pb, verbose=0), tf)
    style = program["style"]
    if after["config"] and style != "subclassed":
        def clone():
            cls = keras.Sequential if style.startswith("sequential") else keras.Model
            m = cls.from_config(model.get_config())
            m.set_weights(weights)
            return m.predict(x, verbose=0)
        out["config"] = _section(clone, tf)
    if after["save_weights"]:
        def reload():
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "w.weights.h5")
                model.save_weights(path)
                keras.utils.set_random_seed(program["global_seed"] + 1)
                m = build_model(program, tf, keras)
                if not m.built:
                    m(x[:1] if not isinstance(x, list) else [v[:1] for v in x])
                m.load_weights(path)
                return m.predict(x, verbose=0)
        out["save_weights"] = _section(reload, tf)
    if after["keras_save"] and style != "subclassed" and not _has_lambda(program):
        def resave():
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "m.keras")
                model.save(path)
                m = keras.models.load_model(path)
                return {"predict": m.predict(x, verbose=0),
                        "evaluate": m.evaluate(x, y, verbose=0, return_dict=True) if after["evaluate"] else 0.0}
        out["keras_save"] = _section(resave, tf)
    if after["set_weights"]:
        def scaled():
            model.set_weights([np.asarray(w) * 0.5 if np.asarray(w).dtype.kind == "f" else w
                               for w in weights])
            return model.predict(x, verbose=0)
        out["set_weights"] = _section(scaled, tf)
    return out


def _has_lambda(program):
    return any(s["cls"] == "Lambda" for s in program["body"])


def _section(fn, tf):
    try:
        value = fn()
    except Exception as exc:  # noqa: BLE001
        return encode_error(exc)
    return encode(value, tf)


def encode(obj, tf):
    """Encode plain results: dicts, lists, bools, ints, floats, strings and arrays (tensors too)."""
    if obj is None:
        return {"kind": "none"}
    if isinstance(obj, (bool, np.bool_)):
        return {"kind": "bool", "value": bool(obj)}
    if isinstance(obj, (int, np.integer)):
        return {"kind": "int", "value": int(obj)}
    if isinstance(obj, (float, np.floating)):
        return {"kind": "float", "value": encode_float(obj)}
    if isinstance(obj, str):
        return {"kind": "str", "value": obj}
    if isinstance(obj, dict):
        return {"kind": "dict", "items": {str(k): encode(v, tf) for k, v in obj.items()}}
    if isinstance(obj, (list, tuple)):
        return {"kind": "list", "items": [encode(v, tf) for v in obj]}
    return encode_array(np.asarray(obj))
