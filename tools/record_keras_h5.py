"""Record Keras 3.15's HDF5 files and what it computes with them (tests/test_keras_h5.py replays them).

Run with a Python that has TensorFlow, Keras 3 and h5py installed (development only):

    $TAPEGRAD_TF_PYTHON tools/record_keras_h5.py

For each model of ``tests/keras_h5_cases.py`` (built with Keras, seeded) it writes into
``tests/fixtures/keras_h5/``: ``NAME.keras`` (with Keras's ``model.weights.h5`` inside),
``NAME.weights.h5`` and ``NAME.h5`` (legacy), and into ``tests/fixtures/keras_h5.json`` the model's
prediction on a fixed input and each file's HDF5 layout (dataset paths and shapes). It then checks the
other direction: the same architecture built with tapegrad saves files that Keras loads, giving
tapegrad's predictions (recorded as ``keras_reads_tapegrad``).
"""
import json
import os
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
sys.path.insert(0, REPO)
OUT = os.path.join(REPO, "tests", "fixtures", "keras_h5")
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_h5.json")


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import quiet_tensorflow
    quiet_tensorflow()
    import h5py
    import keras
    import numpy as np

    import keras_h5_cases as cases
    import tapegrad

    os.makedirs(OUT, exist_ok=True)
    record = {"keras": keras.__version__, "models": {}}
    for name, build in cases.MODELS.items():
        keras.utils.set_random_seed(0)
        model = build(keras)
        x = cases.inputs(name)
        model.predict(x, verbose=0)
        if name in cases.COMPILED:
            model.compile(optimizer="adam", loss="mse")
            model.fit(x, cases.targets(name, model.predict(x, verbose=0)), epochs=1, verbose=0)
        pred = model.predict(x, verbose=0)
        model.save(os.path.join(OUT, f"{name}.keras"))
        model.save_weights(os.path.join(OUT, f"{name}.weights.h5"))
        model.save(os.path.join(OUT, f"{name}.h5"))
        layout = {}
        for kind in ("weights.h5", "h5"):
            with h5py.File(os.path.join(OUT, f"{name}.{kind}")) as f:
                items = []
                f.visititems(lambda p, o: items.append([p, list(o.shape)]) if isinstance(o, h5py.Dataset) else None)
                layout[kind] = sorted(items)
        # the other direction: tapegrad writes, Keras reads
        tapegrad.keras.utils.set_random_seed(1)
        mine = build(tapegrad.keras)
        mine.predict(x, verbose=0)
        if name in cases.COMPILED:
            mine.compile(optimizer="adam", loss="mse")
            mine.fit(x, cases.targets(name, mine.predict(x, verbose=0)), epochs=1, verbose=0)
        want = mine.predict(x, verbose=0)
        reads = {}
        with tempfile.TemporaryDirectory() as d:
            mine.save_weights(os.path.join(d, "w.weights.h5"))
            keras.utils.set_random_seed(2)
            other = build(keras)
            other.predict(x, verbose=0)
            other.load_weights(os.path.join(d, "w.weights.h5"))
            reads["weights.h5"] = float(np.max(np.abs(other.predict(x, verbose=0) - want)))
            mine.save(os.path.join(d, "m.h5"))
            reads["h5"] = float(np.max(np.abs(keras.models.load_model(os.path.join(d, "m.h5"), compile=False)
                                              .predict(x, verbose=0) - want)))
        record["models"][name] = {"prediction": np.asarray(pred).tolist(), "layout": layout,
                                  "keras_reads_tapegrad": reads}
        print(name, reads)
    with open(FIXTURE, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {FIXTURE}")


if __name__ == "__main__":
    main()
