"""Record which batches Keras 3's fit gives ``train_step`` in each epoch with and without
``steps_per_epoch`` (generators, tf.data datasets and arrays that run out, or not), for
tests/test_keras_epochs.py.

Run with a Python that has TensorFlow 2.21 and Keras 3 (never needed by tapegrad or by CI; the
test reads only the JSON this script writes)::

    $TAPEGRAD_TF_PYTHON tools/record_keras_epochs.py

Each batch of 10 rows is named by its first x value; ``train_step`` runs eagerly and records it
(and that it got a tensor), so the fixture says, per case, the batches seen in order, how many
epochs ran and how many "ran out of data" warnings Keras gave.
"""
import json
import os
import sys
import warnings

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_epochs.json")

# (name, data, steps_per_epoch, epochs); data: "genN" (a generator of N batches), "dsN" (a
# tf.data dataset of N batches), "arrN" (arrays of N batches of 10)
CASES = [("gen8", 4, 2), ("gen6", 4, 2), ("gen6", 4, 3), ("ds6", 4, 3), ("arr6", 4, 3),
         ("ds6", 8, 2), ("arr6", 8, 2), ("ds6", None, 2), ("arr6", None, 2), ("gen6", None, 1)]


def run_case(tf, keras, np, data, spe, epochs):
    """The batches ``fit`` gives train_step (first x value each), the epochs run, the
    ran-out-of-data warnings, and whether every batch arrived as a tensor."""
    seen, tensors = [], []

    class Recorder(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

        def train_step(self, batch):
            x, _ = batch
            tensors.append(hasattr(x, "numpy"))
            seen.append(int(np.asarray(x)[0, 0]))
            return {"loss": 0.0}

    model = Recorder()
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    x = np.arange(100, dtype="float32").reshape(100, 1)
    y = np.zeros((100, 1), "float32")
    n = int(data[-1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if data.startswith("gen"):
            source = ((x[i * 10:(i + 1) * 10], y[i * 10:(i + 1) * 10]) for i in range(n))
            history = model.fit(source, steps_per_epoch=spe, epochs=epochs, verbose=0)
        elif data.startswith("ds"):
            ds = tf.data.Dataset.from_tensor_slices((x[:10 * n], y[:10 * n])).batch(10)
            history = model.fit(ds, steps_per_epoch=spe, epochs=epochs, verbose=0)
        else:
            history = model.fit(x[:10 * n], y[:10 * n], batch_size=10, shuffle=False,
                                steps_per_epoch=spe, epochs=epochs, verbose=0)
    return {"seen": seen, "epochs": len(history.history["loss"]), "tensors": all(tensors),
            "ran_out": sum("ran out of data" in str(w.message) for w in caught)}


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import numpy as np
    import tensorflow as tf

    out = {"versions": {"tensorflow": tf.__version__, "keras": keras.__version__}, "cases": {}}
    for data, spe, epochs in CASES:
        key = f"{data}-{spe}-{epochs}"
        out["cases"][key] = run_case(tf, keras, np, data, spe, epochs)
        print(key, out["cases"][key], file=sys.stderr)
    with open(FIXTURE, "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
