"""Record Keras 3's ConvLSTM1D/2D/3D (outputs, gradients, seeded weights, a next-frame model's
``fit`` and configs) into ``tests/fixtures/keras_conv_lstm.json``, and a model Keras saves with
them into ``tests/fixtures/keras_conv_lstm.keras``.

Run with a Python that has TensorFlow 2.21 and Keras 3 (never needed by tapegrad or by CI):

    $TAPEGRAD_TF_PYTHON tools/record_keras_conv_lstm.py

The cases live in ``tests/conv_lstm_cases.py``: the same code runs tapegrad's layers in
``tests/test_conv_lstm.py``.
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
sys.path.insert(0, os.path.join(REPO, "tools"))
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

from _tf import one_thread_tensorflow  # noqa: E402

tf = one_thread_tensorflow()
import keras  # noqa: E402

import conv_lstm_cases as cases  # noqa: E402


def main():
    out = {"versions": {"tensorflow": tf.__version__, "keras": keras.__version__},
           "layers": {n: cases.run_layer_case(keras, tf, n) for n in cases.LAYER_CASES},
           "init": {n: cases.run_init_case(keras, tf, n) for n in cases.INIT_CASES},
           "fit": {n: cases.run_fit_case(keras, n) for n in cases.FIT_CASES},
           "configs": {n: cases.run_config_case(keras, n) for n in cases.CONFIG_CASES}}
    model, x = cases.saved_model(keras)
    model.save(os.path.join(REPO, "tests", "fixtures", "keras_conv_lstm.keras"))
    out["saved_predict"] = model.predict(x, verbose=0).tolist()
    with open(os.path.join(REPO, "tests", "fixtures", "keras_conv_lstm.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
