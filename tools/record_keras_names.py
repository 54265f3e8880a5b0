"""Record Keras 3's numbers for tests/test_keras_names.py: ``keras.losses.Reduction``, the legacy
``tf.keras.backend`` random functions, ``keras.utils.timeseries_dataset_from_array``,
``keras.initializers.get`` through ``Layer.add_weight`` and ``keras.layers.Normalization``'s
``mean``/``variance``. The cases are described once, in tests/keras_names_cases.py.

Development only (tapegrad and CI never import Keras). Run with the TensorFlow + Keras venv:

    $TAPEGRAD_TF_PYTHON tools/record_keras_names.py

It writes tests/fixtures/keras_names.json (sorted keys), with each refused case's error type.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from _tf import quiet_tensorflow  # noqa: E402

tf = quiet_tensorflow()
import keras  # noqa: E402

import keras_names_cases as cases  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras_names.json")


def error_of(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is what is recorded
        return type(e).__name__
    return None


def main():
    kl = tf.keras.losses  # Reduction lives in tf.keras (keras._tf_keras), not in keras.losses
    tfk = type("K", (), {"losses": kl})
    rec = {"keras": keras.__version__,
           "reduction_all": list(kl.Reduction.all()),
           "reduction": {n: cases.run_reduction(tfk, n) for n in cases.REDUCTIONS},
           "reduction_auto_error": error_of(lambda: keras.losses.Huber(
               reduction=kl.Reduction.AUTO)),
           "backend_random": {n: cases.run_backend_random(tf, tf.keras, n)
                              for n in cases.BACKEND_RANDOM},
           "timeseries": {n: cases.run_timeseries(keras, n) for n in cases.TIMESERIES},
           "timeseries_bad": {n: error_of(lambda n=n: keras.utils.timeseries_dataset_from_array(
               **cases.timeseries_kwargs(n, cases.TIMESERIES_BAD)))
               for n in cases.TIMESERIES_BAD},
           "add_weight": {n: cases.run_add_weight(keras, n) for n in cases.INITIALIZER_IDS},
           "initializer_bad": {"number": error_of(lambda: keras.initializers.get(5)),
                               "name": error_of(lambda: keras.initializers.get("glorot")),
                               "array_shape": error_of(
                                   lambda: keras.initializers.get(cases.norm_data())((2, 2)))},
           "normalization": {n: cases.run_normalization(tf, keras, n)
                             for n in cases.NORMALIZATION},
           "normalization_bad": {n: error_of(lambda n=n: keras.layers.Normalization(
               **cases.NORMALIZATION_BAD[n])) for n in cases.NORMALIZATION_BAD}}
    with open(OUT, "w") as f:
        json.dump(rec, f, sort_keys=True, indent=0)
        f.write("\n")
    print("wrote", os.path.relpath(OUT))


if __name__ == "__main__":
    main()
