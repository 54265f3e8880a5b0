"""Record Keras 3's numbers for tapegrad.keras's optimizers and metrics added in
tests/test_keras_train.py.

Run with a Python that has TensorFlow and Keras 3 (never needed by tapegrad or by CI):

    $TAPEGRAD_TF_PYTHON tools/record_keras_train.py

It writes ``tests/fixtures/keras_train.json``:

* ``optimizers``: each optimizer with a config, five ``apply_gradients`` steps on a float32 matrix
  and a vector with fixed gradients: the variables after each step, ``iterations``, and the
  variables after ``finalize_variable_values`` (EMA);
* ``metrics``: each metric through three ``update_state`` calls (without, with integer-valued and
  with fractional sample weights): the ``result()`` after each call, then after ``reset_state()``
  and one more call; and its ``get_config()``;
* ``tensorboard``: the (folder, step, tag) of every summary ``keras.callbacks.TensorBoard`` writes
  in a small ``fit`` with validation;
* ``utils``: ``split_dataset`` splits, a ``Progbar`` line, and a ``fit`` on a ``PyDataset``;
* ``loss_scale``: ``LossScaleOptimizer`` steps over finite and infinite gradients;
* ``callbacks``: a ``fit`` with ``ReduceLROnPlateau``, ``CSVLogger`` and ``TerminateOnNaN``.
"""
import json
import os

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_train.json")

OPTIMIZERS = [
    ("Nadam", {"learning_rate": 0.01}),
    ("Nadam", {"learning_rate": 0.05, "beta_1": 0.8, "weight_decay": 0.1}),
    ("Adamax", {"learning_rate": 0.02}),
    ("Adamax", {"learning_rate": 0.02, "clipnorm": 0.5}),
    ("Adadelta", {"learning_rate": 1.0}),
    ("Adadelta", {"learning_rate": 0.5, "rho": 0.8, "clipvalue": 0.3}),
    ("Ftrl", {"learning_rate": 0.1}),
    ("Ftrl", {"learning_rate": 0.1, "learning_rate_power": -0.3, "l1_regularization_strength": 0.01,
              "l2_regularization_strength": 0.02, "l2_shrinkage_regularization_strength": 0.03,
              "beta": 0.5}),
    ("Lion", {"learning_rate": 0.01}),
    ("Lion", {"learning_rate": 0.01, "beta_1": 0.5, "beta_2": 0.9, "global_clipnorm": 1.0}),
    ("Lamb", {"learning_rate": 0.01}),
    ("Lamb", {"learning_rate": 0.01, "weight_decay": 0.05}),
    ("Adafactor", {"learning_rate": 0.1}),
    ("Adafactor", {"learning_rate": 0.01, "clip_threshold": 0.5, "epsilon_2": 0.01}),
    ("ScheduleFreeAdamW", {"learning_rate": 0.05}),
    ("ScheduleFreeAdamW", {"learning_rate": 0.05, "warmup_steps": 3, "weight_decay": 0.1}),
    ("Adam", {"learning_rate": 0.05, "use_ema": True}),
    ("SGD", {"learning_rate": 0.1, "momentum": 0.9, "use_ema": True, "ema_momentum": 0.5,
             "ema_overwrite_frequency": 2}),
    ("Nadam", {"learning_rate": 0.05, "gradient_accumulation_steps": 2}),
    ("RMSprop", {"learning_rate": 0.01, "gradient_accumulation_steps": 3, "clipnorm": 0.5}),
    ("Adamax", {"learning_rate": 0.05, "gradient_accumulation_steps": 2, "use_ema": True}),
    ("Adam", {"learning_rate": 0.05, "loss_scale_factor": 4.0}),
]


def optimizer_inputs():
    rng = np.random.default_rng(7)
    f = np.float32
    return {"init": [rng.normal(size=(3, 4)).astype(f), rng.normal(size=(4,)).astype(f)],
            "grads": [[rng.normal(size=(3, 4)).astype(f), rng.normal(size=(4,)).astype(f)]
                      for _ in range(5)]}


def record_optimizers(keras):
    inputs = optimizer_inputs()
    cases = []
    for name, config in OPTIMIZERS:
        opt = getattr(keras.optimizers, name)(**config)
        variables = [keras.Variable(x) for x in inputs["init"]]
        steps = []
        for grads in inputs["grads"]:
            opt.apply_gradients(zip(grads, variables))
            steps.append([np.asarray(v).tolist() for v in variables])
        opt.finalize_variable_values(variables)
        cases.append({"name": name, "config": config, "steps": steps,
                      "iterations": int(np.asarray(opt.iterations)),
                      "final": [np.asarray(v).tolist() for v in variables]})
    return cases


METRICS = [
    ("F1Score", {}, "multilabel"), ("F1Score", {"average": "macro", "threshold": 0.5}, "multilabel"),
    ("F1Score", {"average": "micro"}, "onehot"), ("F1Score", {"average": "weighted"}, "multilabel"),
    ("FBetaScore", {"beta": 2.0}, "multilabel"),
    ("FBetaScore", {"beta": 0.5, "average": "micro", "threshold": 0.3}, "multilabel"),
    ("R2Score", {}, "regression"), ("R2Score", {"class_aggregation": None}, "regression"),
    ("R2Score", {"class_aggregation": "variance_weighted_average"}, "regression"),
    ("R2Score", {"num_regressors": 2}, "regression"),
    ("MeanIoU", {"num_classes": 3}, "ids"), ("MeanIoU", {"num_classes": 3, "dtype": "float32"}, "ids"),
    ("MeanIoU", {"num_classes": 3, "ignore_class": 0}, "ids"),
    ("IoU", {"num_classes": 3, "target_class_ids": [0, 2]}, "ids"),
    ("IoU", {"num_classes": 3, "target_class_ids": [1], "sparse_y_pred": False}, "ids_scores"),
    ("BinaryIoU", {}, "binary"), ("BinaryIoU", {"target_class_ids": [1], "threshold": 0.3}, "binary"),
    ("BinaryIoU", {"dtype": "float32"}, "binary"),
    ("OneHotIoU", {"num_classes": 3, "target_class_ids": [0, 2], "dtype": "float32"}, "onehot"),
    ("OneHotMeanIoU", {"num_classes": 3}, "onehot"),
    ("SensitivityAtSpecificity", {"specificity": 0.5}, "binary"),
    ("SensitivityAtSpecificity", {"specificity": 0.8, "num_thresholds": 1}, "binary"),
    ("SpecificityAtSensitivity", {"sensitivity": 0.6, "num_thresholds": 7}, "binary"),
    ("PrecisionAtRecall", {"recall": 0.7}, "binary"),
    ("PrecisionAtRecall", {"recall": 0.5, "class_id": 1}, "multilabel"),
    ("RecallAtPrecision", {"precision": 0.6}, "binary"),
    ("RecallAtPrecision", {"precision": 0.5, "num_thresholds": 11}, "binary"),
    ("PearsonCorrelation", {}, "regression"), ("ConcordanceCorrelation", {}, "regression"),
]


def metric_batch(rng, kind):
    """(y_true, y_pred) of one batch of this kind."""
    f = np.float32
    if kind == "multilabel":
        return rng.integers(0, 2, size=(6, 3)).astype(f), rng.uniform(size=(6, 3)).astype(f)
    if kind == "onehot":
        return (np.eye(3, dtype=f)[rng.integers(0, 3, size=6)],
                rng.uniform(size=(6, 3)).astype(f))
    if kind == "regression":
        t = rng.normal(size=(6, 3)).astype(f)
        return t, (t + 0.7 * rng.normal(size=(6, 3))).astype(f)
    if kind == "ids":
        return rng.integers(0, 3, size=(8,)).astype(np.int32), rng.integers(0, 3, size=(8,)).astype(np.int32)
    if kind == "ids_scores":
        return rng.integers(0, 3, size=(8,)).astype(np.int32), rng.uniform(size=(8, 3)).astype(f)
    if kind == "binary":
        return rng.integers(0, 2, size=(8,)).astype(np.int32), rng.uniform(size=(8,)).astype(f)
    raise ValueError(kind)


def metric_updates(rng, kind):
    """Three batches: no weights, integer-valued weights, fractional weights; then one after
    reset_state."""
    out = []
    for i in range(4):
        t, p = metric_batch(rng, kind)
        w = None
        if i == 1:
            w = rng.integers(0, 3, size=len(t)).astype(np.float32)
        elif i == 2:
            w = rng.uniform(0.2, 2.0, size=len(t)).astype(np.float32)
        out.append({"y_true": t.tolist(), "y_true_dtype": str(t.dtype), "y_pred": p.tolist(),
                    "sample_weight": None if w is None else w.tolist()})
    return out


def metric_args(u):
    return (np.array(u["y_true"], u["y_true_dtype"]), np.array(u["y_pred"], np.float32),
            None if u["sample_weight"] is None else np.array(u["sample_weight"], np.float32))


def record_metrics(keras):
    rng = np.random.default_rng(11)
    cases = []
    for cls, kwargs, kind in METRICS:
        updates = metric_updates(rng, kind)
        m = getattr(keras.metrics, cls)(**kwargs)
        results = []
        for i, u in enumerate(updates):
            if i == 3:
                m.reset_state()
            t, p, w = metric_args(u)
            m.update_state(t, p, sample_weight=w)
            results.append(np.asarray(m.result()).tolist())
        cases.append({"class": cls, "kwargs": kwargs, "updates": updates, "results": results,
                      "config": m.get_config()})
    return cases


TENSORBOARD = [
    {"update_freq": "epoch"},
    {"update_freq": 2, "histogram_freq": 1},
]


def tensorboard_data():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(12, 2)).astype(np.float32)
    return x, (x @ np.array([[1.0], [-1.0]], np.float32)).astype(np.float32)


def record_tensorboard(keras):
    """The (folder, step, tag) of every scalar and histogram Keras's TensorBoard writes in a
    3-epoch fit with validation (batch size 4: 3 steps per epoch)."""
    import glob
    import tempfile

    import tensorflow as tf

    cases = []
    for kwargs in TENSORBOARD:
        keras.utils.set_random_seed(0)
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, name="dense")])
        model.compile(keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
        x, y = tensorboard_data()
        logdir = tempfile.mkdtemp()
        model.fit(x, y, epochs=3, batch_size=4, validation_data=(x[:4], y[:4]), verbose=0,
                  shuffle=False, callbacks=[keras.callbacks.TensorBoard(logdir, write_graph=False,
                                                                        **kwargs)])
        seen = []
        for path in glob.glob(os.path.join(logdir, "*", "events.out.tfevents.*")):
            folder = os.path.basename(os.path.dirname(path))
            for event in tf.compat.v1.train.summary_iterator(path):
                for value in event.summary.value:
                    seen.append([folder, int(event.step), value.tag])
        cases.append({"kwargs": kwargs, "events": sorted(seen)})
    return cases


SPLITS = [
    {"left_size": 0.7}, {"right_size": 3}, {"left_size": 4, "right_size": 2},
    {"left_size": 0.5, "shuffle": True, "seed": 7},
]


def record_utils(keras):
    """split_dataset on an array and on a tuple of arrays; Progbar's verbose=2 line; a fit on a
    PyDataset (weights after 2 epochs, and the epoch hooks called)."""
    import contextlib
    import io

    out = {"split": []}
    x = np.arange(10, dtype=np.float32)
    for kwargs in SPLITS:
        left, right = keras.utils.split_dataset((x, 2 * x), **kwargs)
        out["split"].append({"kwargs": kwargs, "left": [float(a) for a, _ in left],
                             "right": [float(a) for a, _ in right]})
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        bar = keras.utils.Progbar(3, verbose=2, stateful_metrics=["acc"])
        for i in range(3):
            bar.add(1, values=[("loss", 0.5 * i), ("acc", 0.1 * i), ("tiny", 1e-5)])
    out["progbar"] = buf.getvalue()

    class Data(keras.utils.PyDataset):
        def __init__(self):
            super().__init__()
            self.ends = 0

        def __len__(self):
            return 3

        def __getitem__(self, i):
            rng = np.random.default_rng(i)
            bx = rng.normal(size=(4, 2)).astype(np.float32)
            return bx, bx.sum(1, keepdims=True)

        def on_epoch_end(self):
            self.ends += 1

    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.set_weights([np.array([[0.5], [-0.5]], np.float32), np.zeros(1, np.float32)])
    model.compile(keras.optimizers.SGD(0.1), loss="mse")
    data = Data()
    model.fit(data, epochs=2, shuffle=False, verbose=0)
    out["pydataset"] = {"weights": [w.tolist() for w in model.get_weights()], "ends": data.ends,
                        "evaluate": float(model.evaluate(data, verbose=0))}
    return out


def record_loss_scale(keras):
    """LossScaleOptimizer(Adam) over finite and infinite gradients: the variable, the scale and
    the inner optimizer's iterations after each step."""
    opt = keras.optimizers.LossScaleOptimizer(keras.optimizers.Adam(0.1), initial_scale=8.0,
                                              dynamic_growth_steps=2)
    v = keras.Variable(np.array([1.0, -2.0], np.float32))
    steps = []
    for g in ([4.0, 8.0], [np.inf, 1.0], [4.0, -8.0], [2.0, 2.0], [8.0, 0.0]):
        opt.apply_gradients([(np.array(g, np.float32), v)])
        steps.append({"grad": [float(a) for a in g], "value": np.asarray(v).tolist(),
                      "scale": float(np.asarray(opt.dynamic_scale)),
                      "iterations": int(np.asarray(opt.iterations))})
    return steps


def record_callbacks(keras, folder):
    """A 6-epoch fit (fixed weights, SGD) with ReduceLROnPlateau, CSVLogger and TerminateOnNaN:
    the history (learning_rate included) and the CSV file."""
    rng = np.random.default_rng(9)
    x = rng.normal(size=(16, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-1.0], [2.0]], np.float32)).astype(np.float32)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.set_weights([np.zeros((3, 1), np.float32), np.zeros(1, np.float32)])
    model.compile(keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    csv_path = os.path.join(folder, "log.csv")
    history = model.fit(x, y, epochs=6, batch_size=8, shuffle=False, verbose=0,
                        validation_data=(x[:4], y[:4]), callbacks=[
                            keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=0.5,
                                                              patience=1, min_delta=0.5, cooldown=1),
                            keras.callbacks.CSVLogger(csv_path), keras.callbacks.TerminateOnNaN()])
    with open(csv_path) as fh:
        rows = fh.read().splitlines()
    return {"history": {k: [float(v) for v in vs] for k, vs in history.history.items()},
            "csv_header": rows[0], "csv_rows": len(rows) - 1}


def main():
    import tempfile

    import keras

    out = {"optimizers": record_optimizers(keras), "metrics": record_metrics(keras),
           "tensorboard": record_tensorboard(keras), "utils": record_utils(keras),
           "loss_scale": record_loss_scale(keras),
           "callbacks": record_callbacks(keras, tempfile.mkdtemp())}
    with open(FIXTURE, "w") as fh:
        json.dump(out, fh)
    print("wrote", FIXTURE)


if __name__ == "__main__":
    main()
