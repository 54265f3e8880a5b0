"""Record Keras 3's outputs and gradients for tapegrad's recurrent cells, generic RNN layer,
attention layers and TimeDistributed, and two short training runs (a transformer encoder block
and an LSTM text classifier), into ``tests/fixtures/keras_rnn.json``.

Run with a Python that has TensorFlow 2.21 and Keras 3 (never needed by tapegrad or by CI):

    $TAPEGRAD_TF_PYTHON tools/record_keras_rnn.py

The cases live in ``tests/keras_rnn_cases.py``: the same code runs tapegrad's layers in
``tests/test_keras_rnn.py``.
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

import keras_rnn_cases as cases  # noqa: E402


def main():
    out = {"versions": {"tensorflow": tf.__version__, "keras": keras.__version__}, "layers": {}, "train": {}, "fit": {}}
    for name in cases.LAYER_CASES:
        out["layers"][name] = cases.run_layer_case(keras, tf, name)
    for name in cases.TRAIN_CASES:
        out["train"][name] = cases.run_train_case(keras, tf, name)
        out["fit"][name] = cases.run_fit_case(keras, name)
    with open(os.path.join(REPO, "tests", "fixtures", "keras_rnn.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
