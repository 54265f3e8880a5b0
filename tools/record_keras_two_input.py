"""Record Keras 3's two-input layer calls, MultiHeadAttention masks and TextVectorization
``ragged=True`` (tests/keras_two_input_cases.py) into ``tests/fixtures/keras_two_input.json``.

    $TAPEGRAD_TF_PYTHON tools/record_keras_two_input.py
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
sys.path.insert(0, os.path.join(REPO, "tools"))
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

from _tf import quiet_tensorflow  # noqa: E402

tf = quiet_tensorflow()
import keras  # noqa: E402

import keras_two_input_cases as cases  # noqa: E402

if __name__ == "__main__":
    out = {"versions": {"tensorflow": tf.__version__, "keras": keras.__version__}, "cases": cases.run(keras)}
    with open(os.path.join(REPO, "tests", "fixtures", "keras_two_input.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))
