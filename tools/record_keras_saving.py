"""Record Keras 3's configs (``model.to_json()``) and outputs for the models of
``tests/test_keras_saving.py``.

Run with a Python that has TensorFlow 2.21 and Keras 3 (never needed by tapegrad or by CI; the
tests only read what this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_keras_saving.py

Every model in :data:`MODELS` is built by a function of the ``keras`` module, so the tests build
the same model with ``tapegrad.keras``. For each, ``tests/fixtures/keras_saving.json`` holds
Keras's JSON config, seeded weights, an input and Keras's output for them.
"""
import json
import os

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "tests", "fixtures", "keras_saving.json")


def mlp(keras):
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu", name="hidden"),
                             keras.layers.Dropout(0.2, name="drop"),
                             keras.layers.Dense(3, activation="softmax", name="out")], name="mlp")


def branches(keras):
    i = keras.Input((6,), name="features")
    a = keras.layers.Dense(4, activation="tanh", name="left")(i)
    b = keras.layers.Dense(4, name="right", kernel_initializer="he_normal")(i)
    c = keras.layers.Concatenate(name="merge")([a, b])
    return keras.Model(i, [keras.layers.Dense(1, name="score")(c),
                           keras.layers.Dense(2, activation="softmax", name="cls")(a)], name="branches")


def cnn(keras):
    return keras.Sequential([keras.Input((8, 8, 1)),
                             keras.layers.Conv2D(4, 3, padding="same", activation="relu", name="conv"),
                             keras.layers.MaxPooling2D(name="pool"), keras.layers.Flatten(name="flat"),
                             keras.layers.Dense(2, name="logits")], name="cnn")


def rnn(keras):
    i = keras.Input((5,), name="tokens")
    e = keras.layers.Embedding(10, 3, name="embed")(i)
    h = keras.layers.LSTM(4, name="lstm")(e)
    return keras.Model(i, keras.layers.Dense(1, name="head")(h), name="rnn")


MODELS = {"mlp": (mlp, (3, 4)), "branches": (branches, (3, 6)), "cnn": (cnn, (2, 8, 8, 1)),
          "rnn": (rnn, "tokens")}


def model_input(name: str, rng: np.random.Generator) -> np.ndarray:
    shape = MODELS[name][1]
    if shape == "tokens":
        return np.array([[1, 4, 2, 0, 0], [3, 9, 9, 7, 1]], dtype="int32")
    return rng.standard_normal(shape).astype("float32")


def main() -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    out = {}
    for name, (build, _) in MODELS.items():
        rng = np.random.default_rng(sum(map(ord, name)))
        keras.utils.clear_session()
        model = build(keras)
        weights = [rng.uniform(-0.5, 0.5, w.shape).astype("float32") for w in model.get_weights()]
        model.set_weights(weights)
        x = model_input(name, rng)
        y = model.predict(x, verbose=0)
        out[name] = {"config": json.loads(model.to_json()), "weights": [w.tolist() for w in weights],
                     "x": x.tolist(), "y": [v.tolist() for v in y] if isinstance(y, list) else [y.tolist()]}
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"keras_version": keras.__version__, "models": out}, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
