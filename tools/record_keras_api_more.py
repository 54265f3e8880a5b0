"""Record Keras 3's numbers for tests/test_keras_api_more.py (keras.random's randint, categorical,
gamma, beta and binomial; the layers, losses and regularizers Keras 3.15 adds).

Development only (tapegrad and CI never import Keras). Run with the TensorFlow + Keras venv:

    $TAPEGRAD_TF_PYTHON tools/record_keras_api_more.py [case ...]

It runs each case of tests/keras_api_more_cases.py on Keras (after ``clear_session``) and writes
tests/fixtures/keras_api_more.json; naming cases reruns only those.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from _tf import record_keras_cases  # noqa: E402

import keras_api_more_cases  # noqa: E402

if __name__ == "__main__":
    record_keras_cases(keras_api_more_cases.CASES, os.path.join(os.path.dirname(__file__), "..", "tests",
                                                                "fixtures", "keras_api_more.json"))
