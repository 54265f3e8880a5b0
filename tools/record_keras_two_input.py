"""Record Keras 3's two-input layer calls, MultiHeadAttention masks and TextVectorization
``ragged=True`` (tests/keras_two_input_cases.py) into ``tests/fixtures/keras_two_input.json``.

    $TAPEGRAD_TF_PYTHON tools/record_keras_two_input.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _tf import record_cases_module  # noqa: E402

if __name__ == "__main__":
    record_cases_module("keras_two_input_cases", "keras_two_input.json")
