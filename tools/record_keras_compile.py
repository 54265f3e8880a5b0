"""Record what Keras 3's ``compile`` makes of structured losses, loss weights and metrics
(``CompileLoss``/``CompileMetrics``: lists and dicts with None entries, nested outputs, the
targets matched to the outputs that have a loss, the errors for mismatches), and the step Keras
begins on the batch a dataset of unknown size does not have (for tests/test_keras_compile.py).

Run with a Python that has TensorFlow 2.21 and Keras 3.15 (``$TAPEGRAD_TF_PYTHON``; never needed
by tapegrad or by CI: the test reads only the JSON written here and runs the same cases)::

    $TAPEGRAD_TF_PYTHON tools/record_keras_compile.py [CASE ...]

Every case is a function ``case(tf, keras, np)`` returning plain lists, numbers and strings.
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_compile.json")


def _data(np, n=12):
    x = (np.arange(n * 3, dtype="float32").reshape(n, 3) % 7 - 3) / 4
    return x, (x[:, :2] * 0.5 - 0.1), (x[:, 2:] > 0).astype("float32")


def _two(keras, np, names=("a", "b"), dict_outputs=False):
    inp = keras.Input((3,), name="x")
    h = keras.layers.Dense(4, activation="tanh", name="h", kernel_initializer="ones")(inp)
    a = keras.layers.Dense(2, name=names[0], kernel_initializer="ones")(h)
    b = keras.layers.Dense(1, activation="sigmoid", name=names[1], kernel_initializer="ones")(h)
    return keras.Model(inp, {names[0]: a, names[1]: b} if dict_outputs else [a, b])


def _round(logs):
    if isinstance(logs, dict):
        return {k: _round(v) for k, v in sorted(logs.items())}
    if isinstance(logs, (list, tuple)):
        return [_round(v) for v in logs]
    return round(float(logs), 6)


def _fit(model, x, y, **kw):
    history = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False, **kw)
    return {"history": _round(history.history), "names": model.metrics_names}


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (the case records which error Keras raises)
        return {"error": type(e).__name__, "message": str(e).strip().splitlines()[0][:70]}
    return {"error": None}


def partial_targets(tf, keras, np):
    """``loss=[fn, None]`` and one target: the target goes to the output that has a loss."""
    x, ya, _ = _data(np)
    model = _two(keras, np)
    model.compile(keras.optimizers.SGD(0.1), loss=[keras.losses.MeanSquaredError(), None])
    out = _fit(model, x, ya)
    out["evaluate"] = _round(model.evaluate(x, ya, verbose=0, return_dict=True))
    return out


def partial_targets_weighted(tf, keras, np):
    """``loss=[None, "bce"]`` with ``loss_weights=[1.0, 0.5]`` and metrics for the second output."""
    x, _, yb = _data(np)
    model = _two(keras, np)
    model.compile(keras.optimizers.SGD(0.1), loss=[None, "binary_crossentropy"],
                  loss_weights=[1.0, 0.5], metrics=[None, ["mae"]])
    return _fit(model, x, [None, yb])


def dict_loss_and_weights(tf, keras, np):
    """A dict loss and dict loss weights for list outputs: matched by output name."""
    x, ya, yb = _data(np)
    model = _two(keras, np)
    model.compile(keras.optimizers.SGD(0.1), loss={"b": "binary_crossentropy", "a": "mse"},
                  loss_weights={"a": 2.0, "b": 0.5}, metrics={"b": ["accuracy", "mse"]})
    return _fit(model, x, {"a": ya, "b": yb})


def flat_weights_for_dict_loss(tf, keras, np):
    """``loss_weights`` as a list for a dict loss: as many leaves, in output order."""
    x, ya, yb = _data(np)
    model = _two(keras, np)
    model.compile(keras.optimizers.SGD(0.1), loss={"a": "mae", "b": "mse"}, loss_weights=[0.25, 3.0])
    return _fit(model, x, [ya, yb])


def dict_outputs(tf, keras, np):
    """A model whose outputs are a dict: loss, weights and metrics keyed the same way."""
    x, ya, yb = _data(np)
    model = _two(keras, np, names=("reg", "cls"), dict_outputs=True)
    model.compile(keras.optimizers.SGD(0.1), loss={"reg": "mse", "cls": "binary_crossentropy"},
                  loss_weights={"reg": 1.0, "cls": 2.0},
                  metrics={"cls": ["accuracy"], "reg": ["mae"]}, weighted_metrics={"reg": ["mae"]})
    return _fit(model, x, {"reg": ya, "cls": yb})


def nested_outputs(tf, keras, np):
    """Outputs nested as ``{"a": a, "b": [c, d]}``: loss, weights and metrics in that structure,
    one output without a loss (its target None)."""
    x, ya, yb = _data(np)
    inp = keras.Input((3,), name="x")
    h = keras.layers.Dense(4, activation="tanh", name="h", kernel_initializer="ones")(inp)
    a = keras.layers.Dense(2, name="a", kernel_initializer="ones")(h)
    c = keras.layers.Dense(1, activation="sigmoid", name="c", kernel_initializer="ones")(h)
    d = keras.layers.Dense(3, name="d", kernel_initializer="ones")(h)
    model = keras.Model(inp, {"a": a, "b": [c, d]})
    model.compile(keras.optimizers.SGD(0.1), loss={"a": "mse", "b": ["binary_crossentropy", None]},
                  loss_weights={"a": 0.5, "b": [2.0, None]},
                  metrics={"a": ["mae"], "b": [["accuracy"], None]})
    return _fit(model, x, {"a": ya, "b": [yb, None]})


def one_loss_two_outputs(tf, keras, np):
    """One loss for every output, with a float loss weight... which Keras refuses for two."""
    x, ya, yb = _data(np)
    model = _two(keras, np)
    model.compile(keras.optimizers.SGD(0.1), loss="mse")
    out = _fit(model, x, (ya, yb))
    weighted = _two(keras, np)
    weighted.compile("sgd", loss="mse", loss_weights=0.5)
    out["float_weight"] = _error(lambda: weighted.fit(x, [ya, yb], verbose=0))
    return out


def single_output_two_losses(tf, keras, np):
    """Two losses for one output: Keras builds both but its single-output path returns the first."""
    x, ya, _ = _data(np)
    inp = keras.Input((3,))
    model = keras.Model(inp, keras.layers.Dense(2, name="d", kernel_initializer="ones")(inp))
    model.compile(keras.optimizers.SGD(0.1), loss=["mse", "mae"])
    return _fit(model, x, ya)


def errors(tf, keras, np):
    """The errors Keras raises for losses and targets that do not fit the outputs."""
    x, ya, yb = _data(np)

    def fit(loss, y, **kw):
        model = _two(keras, np)
        model.compile("sgd", loss=loss, **kw)
        return lambda: model.fit(x, y, verbose=0, epochs=1)

    def compile_(**kw):
        return lambda: _two(keras, np).compile("sgd", loss="mse", **kw)

    return {
        "one_target_one_loss": _error(fit("mse", ya)),
        "dict_loss_missing_output": _error(fit({"a": "mse"}, [ya, yb])),
        "dict_loss_unknown_output": _error(fit({"a": "mse", "z": "mse"}, [ya, yb])),
        "too_few_weights": _error(fit(["mse", "mse"], [ya, yb], loss_weights=[1.0])),
        "int_weight": _error(compile_(loss_weights=2)),
        "list_metrics_bad": _error(compile_(metrics="mae")),
        "targets_do_not_fit": _error(fit(["mse", "mse"], [ya, yb, yb])),
        "dict_loss_with_none_one_target": _error(fit({"a": "mse", "b": None}, {"a": ya})),
    }


def unknown_size_epochs(tf, keras, np):
    """A dataset of unknown cardinality: each epoch ends with a step begun on the missing batch
    (callbacks hear of it; traced, the optimizer's iterations and the seed generators move)."""
    x, ya, _ = _data(np, 10)
    out = {}
    for name, eager in (("traced", False), ("eager", True)):
        keras.utils.set_random_seed(0)
        drop = keras.layers.Dropout(0.5, name="drop")
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, kernel_initializer="ones"),
                                  drop, keras.layers.Dense(2, kernel_initializer="ones")])
        model.compile(keras.optimizers.Adam(0.05), "mse", run_eagerly=eager)
        begun = []

        class Count(keras.callbacks.Callback):
            def on_train_batch_begin(self, batch, logs=None):
                begun.append(batch)

            def on_test_batch_begin(self, batch, logs=None):
                begun.append(f"test {batch}")

            def on_predict_batch_begin(self, batch, logs=None):
                begun.append(f"predict {batch}")

        ds = tf.data.Dataset.from_tensor_slices((x, ya)).filter(lambda a, b: True).batch(4)
        history = model.fit(ds, epochs=3, verbose=0, callbacks=[Count()])
        model.evaluate(ds, verbose=0, callbacks=[Count()])
        model.predict(ds, verbose=0, callbacks=[Count()])
        out[name] = {"loss": _round(history.history["loss"]), "begun": begun,
                     "iterations": int(model.optimizer.iterations.numpy()),
                     "seed_state": [int(v) for v in drop.seed_generator.state.numpy()]}
    return out


_RETRACING = """
import json, logging, re, sys
import numpy as np
if sys.argv[1] == "tapegrad":
    from tapegrad import keras
else:
    import os
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import keras
seen = []


class Catch(logging.Handler):
    def emit(self, record):
        m = re.match(r"(\\d+) out of the last (\\d+) calls to (.*) triggered", record.getMessage())
        if m:
            seen.append([int(m.group(1)), int(m.group(2)), "predict" if "predict" in m.group(3) else "other"])


logging.getLogger("tensorflow").addHandler(Catch())
logging.getLogger("tensorflow").setLevel(logging.WARNING)
for i in range(8):
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    m.compile("sgd", "mse", metrics=["mae"])
    n = 10 + i
    m.fit(np.ones((n, 3)), np.ones((n, 2)), batch_size=4, epochs=2, verbose=0, validation_split=0.2)
    m.evaluate(np.ones((n, 3)), np.ones((n, 2)), batch_size=3, verbose=0)
    m.predict(np.ones((n, 3)), batch_size=5, verbose=0)
print(json.dumps(seen))
"""


def retracing_warnings(tf, keras, np):
    """TensorFlow's frequent-retracing warnings over several models, each fitted (with validation,
    last batches of other sizes), evaluated and predicted, in a fresh process (the warning's
    detectors live as long as the process): ``[calls that traced, calls, which function]``.
    Keras's train and test functions trace once per model; its predict function once per batch
    size that reduce_retracing has not relaxed yet."""
    import subprocess

    env = dict(os.environ, PYTHONPATH=REPO)
    out = subprocess.run([sys.executable, "-c", _RETRACING, tf.__name__], capture_output=True, text=True,
                         env=env, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


CASES = [partial_targets, partial_targets_weighted, dict_loss_and_weights, flat_weights_for_dict_loss,
         dict_outputs, nested_outputs, one_loss_two_outputs, single_output_two_losses, errors,
         unknown_size_epochs, retracing_warnings]


def main():
    from _tf import record_keras_cases
    record_keras_cases(CASES, FIXTURE, preview=400)

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
