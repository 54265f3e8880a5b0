"""Record Keras 3 semantics that decide a program's numbers without being arithmetic: which
initial weights layers get, which batches (in which shuffled order) ``fit`` gives each epoch,
when random streams advance, what dtype ``fit`` hands ``train_step`` (for
tests/test_keras_semantics.py).

Run with a Python that has TensorFlow 2.21 and Keras 3 (never needed by tapegrad or by CI; the
test reads only the JSON this script writes, and runs the same case functions on tapegrad)::

    python tools/record_keras_semantics.py

Every case is a function ``case(tf, keras, np)`` returning plain lists, numbers and strings.
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_semantics.json")


def _weights(layer):
    return {w.path: [round(float(v), 6) for v in w.numpy().ravel()] for w in layer.weights}


def mha_then_dense(tf, keras, np):
    """Initial weights of a MultiHeadAttention (default initializers: a clone per sub-layer,
    each with a new default seed) and of a Dense made after it, under set_random_seed."""
    keras.utils.set_random_seed(3)
    mha = keras.layers.MultiHeadAttention(num_heads=2, key_dim=3, name="mha")
    mha(np.ones((1, 2, 4), "float32"), np.ones((1, 3, 4), "float32"))
    dense = keras.layers.Dense(2, name="dense")
    dense(np.ones((1, 4), "float32"))
    return {**_weights(mha), **_weights(dense)}


def mha_seeded_initializer(tf, keras, np):
    """A seeded kernel initializer: every clone has the same seed, so q, k and v start equal."""
    keras.utils.set_random_seed(4)
    mha = keras.layers.MultiHeadAttention(num_heads=1, key_dim=2, name="mha", use_gate=True,
                                          kernel_initializer=keras.initializers.GlorotUniform(seed=5),
                                          bias_initializer="random_normal")
    mha(np.ones((1, 2, 3), "float32"), np.ones((1, 2, 3), "float32"))
    return _weights(mha)


CASES = [mha_then_dense, mha_seeded_initializer]


def main():
    from _tf import quiet_tensorflow

    tf = quiet_tensorflow()
    import keras
    import numpy as np

    out = {"versions": {"tensorflow": tf.__version__, "keras": keras.__version__}, "cases": {}}
    only = sys.argv[1:]
    if only and os.path.exists(FIXTURE):
        with open(FIXTURE, encoding="utf-8") as fh:
            out["cases"] = json.load(fh)["cases"]
    for case in CASES:
        if only and case.__name__ not in only:
            continue
        keras.utils.clear_session()
        out["cases"][case.__name__] = case(tf, keras, np)
        print(case.__name__, str(out["cases"][case.__name__])[:300], file=sys.stderr)
    with open(FIXTURE, "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
