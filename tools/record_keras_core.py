"""Record Keras 3's numbers for tests/test_keras_core.py and tests/test_keras_model.py.

Development only (tapegrad and CI never import Keras). Run with the TensorFlow + Keras venv:

    $TAPEGRAD_TF_PYTHON tools/record_keras_core.py
    $TAPEGRAD_TF_PYTHON tools/record_keras_core.py --digits .../sklearn/datasets/data/digits.csv.gz

It writes tests/fixtures/keras_core.json (sorted keys): seeded initializer and keras.random
draws; keras.constraints applied to a fixed weight; TF's own tf.*_initializer values; each core layer's and activation's outputs and gradients for fixed inputs and weights
(set with set_weights; the loss is sum(output * cos(index)) so every output entry matters);
Sequential, functional and subclassed models' outputs and gradients; and the per-epoch logs of
`fit` (3 epochs, shuffle=False) with SGD and Adam. The cases are described in this file once
(`CASES`, `MODELS`, `FITS`) and tests/keras_core_cases.py repeats the same descriptions for
tapegrad; both build inputs and weights with `fixed(shape, k)`.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from _tf import quiet_tensorflow  # noqa: E402

tf = quiet_tensorflow()
import keras  # noqa: E402

import keras_core_cases as cases  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras_core.json")


def enc(x):
    return np.asarray(x, np.float64).tolist()


def forward_and_grads(model, inputs, training=False):
    xs = [tf.constant(x) for x in inputs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        out = model(xs if len(xs) > 1 else xs[0], training=training)
        outs = out if isinstance(out, (list, tuple)) else [out]
        loss = tf.add_n([tf.reduce_sum(o * cases.weights_for(o.shape)) for o in outs])
    grads = tape.gradient(loss, list(model.trainable_weights) + xs)
    return {"outputs": [enc(o) for o in outs],
            "grads": [None if g is None else enc(g) for g in grads]}


def main():
    rec = {"initializers": {}, "random": {}, "layers": {}, "activations": {}, "models": {},
           "fit": {}, "constraints": {}, "tf_initializers": {}}
    for name, (cls, kwargs, shape) in cases.INITIALIZERS.items():
        rec["initializers"][name] = enc(getattr(keras.initializers, cls)(**kwargs)(shape))
    w = cases.fixed((3, 4), 5) * 3
    rec["constraints"] = {name: enc(getattr(keras.constraints, cls)(**kwargs)(tf.constant(w)))
                          for name, (cls, kwargs) in cases.CONSTRAINTS.items()}
    rec["tf_initializers"] = {}
    for name, (fn, kwargs, shape, dtype) in cases.TF_INITIALIZERS.items():
        out = getattr(tf, fn)(**kwargs)(shape, **({} if dtype is None else {"dtype": dtype}))
        rec["tf_initializers"][name] = {"value": enc(out), "dtype": out.dtype.name}
    g = keras.random.SeedGenerator(5)
    rec["random"] = {
        "normal_seed3": enc(keras.random.normal((2, 3), seed=3)),
        "uniform_seed3": enc(keras.random.uniform((2, 3), minval=-1.0, maxval=2.0, seed=3)),
        "truncated_seed3": enc(keras.random.truncated_normal((2, 3), seed=3)),
        "generator_draws": [enc(keras.random.uniform((3,), seed=g)) for _ in range(2)],
        "dropout_seed7": enc(keras.layers.Dropout(0.4, seed=7)(np.ones((3, 5), np.float32),
                                                            training=True)),
    }
    for name, (cls, kwargs, in_shapes) in cases.LAYERS.items():
        layer = getattr(keras.layers, cls)(**kwargs)
        inputs = [cases.fixed(s, i + 1) for i, s in enumerate(in_shapes)]
        layer(inputs if len(inputs) > 1 else inputs[0])
        layer.set_weights([cases.fixed(w.shape, 10 + i) for i, w in enumerate(layer.weights)])
        rec["layers"][name] = forward_and_grads(layer, inputs)
        if len(inputs) > 1:
            rec["layers"][name]["grads"] = rec["layers"][name]["grads"]
    for name, kwargs in cases.ACTIVATIONS.items():
        x = tf.constant(cases.ACT_X)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = getattr(keras.activations, name)(x, **kwargs)
            loss = tf.reduce_sum(y * cases.weights_for(y.shape))
        rec["activations"][name] = {"y": enc(y), "dx": enc(tape.gradient(loss, x))}
    for name in cases.MODELS:
        keras.backend.clear_session()
        model, inputs = cases.MODELS[name](keras)
        model.set_weights([cases.fixed(w.shape, 10 + i) for i, w in enumerate(model.weights)])
        rec["models"][name] = forward_and_grads(model, inputs, training=False)
        rec["models"][name]["weight_shapes"] = [list(w.shape) for w in model.weights]
        rec["models"][name]["n_losses"] = len(model.losses)
    for name, spec in cases.FITS.items():
        keras.backend.clear_session()
        model, x, y, compile_kwargs, fit_kwargs = cases.fit_case(keras, spec)
        model.set_weights([cases.fixed(w.shape, 10 + i) for i, w in enumerate(model.weights)])
        model.compile(**compile_kwargs)
        if "shuffle_seed" in spec:
            keras.utils.set_random_seed(spec["shuffle_seed"])
        history = model.fit(x, y, verbose=0, **fit_kwargs)
        predicted = model.predict(x[:5], verbose=0)
        rec["fit"][name] = {"history": history.history, "keys": list(history.history),
                            "evaluate": model.evaluate(x, y, verbose=0, return_dict=True),
                            "evaluate_list": enc(model.evaluate(x, y, verbose=0)),
                            "predict": [enc(p) for p in predicted] if isinstance(predicted, list)
                            else enc(predicted),
                            "weights": [enc(w) for w in model.get_weights()]}
        tf.random.set_seed(None)
    with open(OUT, "w") as f:
        json.dump(rec, f, sort_keys=True, indent=0)
        f.write("\n")
    print("wrote", os.path.relpath(OUT))


DIGITS_OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras_digits.json")


def record_digits(csv_path):
    """Keras's per-epoch logs for tests/test_keras_digits.py. ``csv_path``: scikit-learn's
    ``sklearn/datasets/data/digits.csv.gz`` (what ``load_digits`` reads; the TF venv has no
    scikit-learn): 64 pixels and the label per row."""
    data = np.loadtxt(csv_path, delimiter=",")
    (x, y), (vx, vy) = cases.digits_split(data[:, :-1], data[:, -1].astype(int))
    keras.backend.clear_session()
    model = cases.digits_cnn(keras)
    history = model.fit(x, y, validation_data=(vx, vy), verbose=0, **cases.DIGITS_FIT)
    with open(DIGITS_OUT, "w") as f:
        json.dump({"keras": keras.__version__, "history": history.history,
                   "weights": [enc(w) for w in model.get_weights()]}, f, sort_keys=True, indent=0)
        f.write("\n")
    print("wrote", os.path.relpath(DIGITS_OUT))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--digits":
        record_digits(sys.argv[2])
    else:
        main()
