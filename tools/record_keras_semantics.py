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


def _floats(tf, elements):
    return [[round(float(v), 5) for v in np_ravel(tf, e)] for e in elements]


def np_ravel(tf, e):
    return [v for t in tf.nest.flatten(e) for v in t.numpy().ravel().tolist()]


def data_map_random(tf, keras, np):
    """Random ops in dataset functions: op seeds of the function's graph (0, 1, ... under the
    global seed when the dataset was made), kernels made afresh by each iterator, the eager
    stream untouched; filter's predicate and a map of a map likewise; an op seed without a
    global seed."""
    tf.random.set_seed(7)
    out = {"eager_before": _floats(tf, [tf.random.uniform([])])}
    ds = tf.data.Dataset.range(3).map(lambda x: (tf.random.uniform([]), tf.random.normal([]),
                                                 tf.random.uniform([], seed=4)))
    out["epoch1"], out["epoch2"] = _floats(tf, ds), _floats(tf, ds)
    out["eager_after"] = _floats(tf, [tf.random.uniform([])])
    tf.random.set_seed(8)  # the function's graph keeps the seed it was traced with
    out["after_set_seed"] = _floats(tf, ds)
    out["map_of_map"] = _floats(tf, ds.map(lambda a, b, c: a + tf.random.uniform([])))
    it1, it2 = iter(ds), iter(ds)
    out["two_iterators"] = _floats(tf, [next(it1), next(it2), next(it1)])
    tf.random.set_seed(9)
    kept = tf.data.Dataset.range(8).filter(lambda x: tf.random.uniform([]) < 0.5)
    out["filter"] = [[int(x) for x in kept], [int(x) for x in kept]]
    tf.random.set_seed(None)
    seeded = tf.data.Dataset.range(2).map(lambda x: tf.random.uniform([], seed=5))
    out["op_seed_only"] = [_floats(tf, seeded), _floats(tf, seeded)]
    return out


def data_shuffle_repeat_iterators(tf, keras, np):
    """Two iterators of ``shuffle(seed=1).repeat(2)`` taking turns: each pass's reshuffle seeds
    are the next of the dataset's seed stream, drawn when the pass before ran out (asked for an
    element after its last). TF's injected prefetch thread runs ahead by a varying number of
    elements, so with it the moment is a race; recorded without it (TF's own order)."""
    out = {}
    options = tf.data.Options()
    options.experimental_optimization.inject_prefetch = False
    for buf in (2, 6):
        runs = []
        for k in (1, 5, 6, 7):
            ds = tf.data.Dataset.range(6).shuffle(buf, seed=1).repeat(2).with_options(options)
            it1 = iter(ds)
            first = [int(next(it1)) for _ in range(k)]
            second = [int(x) for x in iter(ds)]
            runs.append([first, second, [int(x) for x in it1]])
        out[f"buffer{buf}"] = runs
    return out


def legacy_random_in_fit(tf, keras, np):
    """``tf.keras.backend.random_normal`` unseeded in a layer trained by fit: its op seed is
    drawn from NumPy once, when the step is traced, and the op's kernel goes on from step to
    step; NumPy's global generator has moved on by that one draw."""
    keras.utils.set_random_seed(2)

    class Noise(keras.layers.Layer):
        def call(self, x, training=None):
            if training:
                return x + tf.keras.backend.random_normal(tf.shape(x))
            return x

    model = keras.Sequential([keras.Input((2,)), Noise(), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer="sgd", loss="mse")
    losses = []

    class Losses(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            losses.append(round(float(logs["loss"]), 5))

    x = np.arange(16, dtype="float32").reshape(8, 2) / 10
    y = np.ones((8, 1), "float32")
    model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[Losses()])
    return {"losses": losses, "numpy_next": int(np.random.randint(1000))}


CASES = [mha_then_dense, mha_seeded_initializer, data_map_random, data_shuffle_repeat_iterators,
         legacy_random_in_fit]


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
