"""Record Keras 3's fit / evaluate / predict under TF 2.21's MirroredStrategy for
tests/test_keras_distribute.py.

Run with a Python that has TensorFlow 2.21 and Keras 3 (never needed by tapegrad or by CI; the
tests read only the JSON this script writes)::

    $TAPEGRAD_TF_PYTHON tools/record_keras_distribute.py

TensorFlow gets four logical CPU devices and each case runs under
``tf.distribute.MirroredStrategy`` on the first 2 and the first 4 of them, with one TF thread.
A case is a snippet of Python that uses ``tf``, ``keras``, ``np``, ``S`` (the strategy) and
``init(model)`` and sets ``out``. ``init`` records the model's initial weights here; the test
runs the same snippet under tapegrad, where ``init`` sets those weights, so both start alike.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_distribute.json")
sys.path.insert(0, os.path.join(REPO, "tools"))

_DATA = ("rng = np.random.default_rng(0)\n"
         "x = rng.normal(size=(ROWS, 4)).astype('float32')\n"
         "y = (x @ np.array([1.0, -2.0, 0.5, 1.0], 'float32') > 0).astype('float32')[:, None]\n")

_CLASSIFIER = (
    "with S.scope():\n"
    "    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(6, activation='tanh'),\n"
    "                              keras.layers.Dense(1, activation='sigmoid')])\n"
    "    model.compile(optimizer=keras.optimizers.Adam(0.05), loss='binary_crossentropy',\n"
    "                  metrics=['accuracy', keras.metrics.AUC(name='auc')])\n"
    "init(model)\n")

_RESULTS = (
    "out['evaluate'] = model.evaluate(x, y, batch_size=BATCH, verbose=0, return_dict=True)\n"
    "out['predict'] = model.predict(x, batch_size=BATCH, verbose=0)\n"
    "out['weights'] = model.get_weights()\n")

CASES = {
    # a Dense classifier, accuracy + AUC, validation data: every batch splits evenly
    "classifier": _DATA.replace("ROWS", "64") + _CLASSIFIER + (
        "h = model.fit(x[:48], y[:48], batch_size=16, epochs=3, shuffle=False, verbose=0,\n"
        "              validation_data=(x[48:], y[48:]))\n"
        "out = {'history': h.history,\n"
        "       'metrics': {m.name: m.result() for m in model.metrics}}\n"
        + _RESULTS.replace("BATCH", "16")),
    # a short last batch (49 rows in batches of 16): the last replicas get 1 row, or none
    "ragged": _DATA.replace("ROWS", "49") + _CLASSIFIER + (
        "h = model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)\n"
        "out = {'history': h.history}\n" + _RESULTS.replace("BATCH", "16")),
    # a tf.data dataset of (x, y) batches
    "dataset": _DATA.replace("ROWS", "40") + _CLASSIFIER + (
        "ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)\n"
        "h = model.fit(ds, epochs=2, verbose=0)\n"
        "out = {'history': h.history,\n"
        "       'evaluate': model.evaluate(ds, verbose=0, return_dict=True),\n"
        "       'predict': model.predict(ds, verbose=0), 'weights': model.get_weights()}\n"),
    # the *_on_batch methods
    "on_batch": _DATA.replace("ROWS", "16") + _CLASSIFIER + (
        "out = {'train': model.train_on_batch(x, y, return_dict=True),\n"
        "       'test': model.test_on_batch(x, y, return_dict=True),\n"
        "       'predict': model.predict_on_batch(x[:8]), 'weights': model.get_weights()}\n"),
    # a regression whose train_step is the user's: compute_loss scales the loss by 1/replicas
    "custom_step": _DATA.replace("ROWS", "32") + (
        "class Regression(keras.Model):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.hidden = keras.layers.Dense(5, activation='tanh')\n"
        "        self.out = keras.layers.Dense(1)\n"
        "        self.tracker = keras.metrics.Mean(name='step_loss')\n"
        "    def call(self, inputs):\n"
        "        return self.out(self.hidden(inputs))\n"
        "    def train_step(self, data):\n"
        "        xb, yb = data\n"
        "        with tf.GradientTape() as tape:\n"
        "            pred = self(xb, training=True)\n"
        "            loss = self.compute_loss(xb, yb, pred)\n"
        "        grads = tape.gradient(loss, self.trainable_variables)\n"
        "        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))\n"
        "        self.tracker.update_state(loss)\n"
        "        return {'step_loss': self.tracker.result()}\n"
        "with S.scope():\n"
        "    model = Regression()\n"
        "    model(x[:1])\n"
        "    model.compile(optimizer=keras.optimizers.SGD(0.1), loss='mse')\n"
        "init(model)\n"
        "target = x.sum(axis=1, keepdims=True)\n"
        "h = model.fit(x, target, batch_size=8, epochs=2, shuffle=False, verbose=0)\n"
        "out = {'history': h.history, 'weights': model.get_weights(),\n"
        "       'evaluate': model.evaluate(x, target, batch_size=8, verbose=0, return_dict=True)}\n"),
    # BatchNormalization: every replica normalises its own part of the batch
    "batchnorm": _DATA.replace("ROWS", "32") + (
        "with S.scope():\n"
        "    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(6),\n"
        "                              keras.layers.BatchNormalization(),\n"
        "                              keras.layers.Activation('relu'), keras.layers.Dense(1)])\n"
        "    model.compile(optimizer=keras.optimizers.SGD(0.05), loss='mse', metrics=['mae'])\n"
        "init(model)\n"
        "h = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)\n"
        "out = {'history': h.history}\n" + _RESULTS.replace("BATCH", "8")),
}


def run_case(tf, keras, strategy, code):
    """Run one case; returns (initial weights, out) as NumPy values."""
    inits = []
    env = {"tf": tf, "keras": keras, "np": np, "S": strategy, "__name__": "keras_distribute_case",
           "init": lambda model: inits.append([np.asarray(w) for w in model.get_weights()])}
    exec(code, env)
    return inits[0], env["out"]


def record(n, only=None):
    """Every case on ``n`` replicas: {name: {"init": ..., "out": ...}} (TF's collectives keep one
    group size per process, so each replica count runs in a process of its own)."""
    from _tf import one_thread_tensorflow
    from record_tf_data import encode
    tf = one_thread_tensorflow()
    import keras
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    devices = [d.name for d in tf.config.list_logical_devices("CPU")]
    strategy = tf.distribute.MirroredStrategy(devices[:n])
    results = {}
    for name, code in CASES.items():
        if only is None or only in name:
            keras.utils.clear_session()
            init, out = run_case(tf, keras, strategy, code)
            results[name] = {"init": encode(init), "out": encode(out)}
    return {"tensorflow": tf.__version__, "keras": keras.__version__, "cases": results}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="print the results of cases whose name contains this")
    parser.add_argument("--replicas", type=int, help=argparse.SUPPRESS)  # (one child process)
    args = parser.parse_args(argv)
    if args.replicas:
        json.dump(record(args.replicas, args.only), sys.stdout)
        return
    results: dict = {}
    for n in (2, 4):
        cmd = [sys.executable, os.path.abspath(__file__), "--replicas", str(n)]
        got = json.loads(subprocess.run(cmd + (["--only", args.only] if args.only else []),
                                        check=True, capture_output=True, text=True).stdout)
        for name, entry in got["cases"].items():
            results.setdefault(name, {"code": CASES[name]})[str(n)] = entry
            if args.only is not None:
                print(n, name, json.dumps(entry["out"])[:1500])
    if args.only is None:
        with open(FIXTURE, "w", encoding="utf-8") as fh:
            json.dump({"tensorflow": got["tensorflow"], "keras": got["keras"], "cases": results},
                      fh, indent=1, sort_keys=True)
            fh.write("\n")
        print(f"wrote {len(results)} cases to {FIXTURE}")


if __name__ == "__main__":
    main()
