"""Record Keras 3's outputs of recurrent layers and cells made with unseeded initializers after
``keras.utils.set_random_seed(0)`` (``tests/keras_rnn_cases.py``'s ``unseeded_layers``) into
``tests/fixtures/keras_rnn_seeds.json``, and the shape a cell's build gets from ``RNN`` on nested
inputs (``nested_build_shape``).

Run with a Python that has TensorFlow 2.21 and Keras 3 (never needed by tapegrad or by CI):

    $TAPEGRAD_TF_PYTHON tools/record_keras_rnn_seeds.py
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
    out = {"versions": {"tensorflow": tf.__version__, "keras": keras.__version__},
           "unseeded_layers": cases.unseeded_layers(keras), "nested_build_shape": cases.nested_build_shape(keras)}
    with open(os.path.join(REPO, "tests", "fixtures", "keras_rnn_seeds.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
