"""Record Keras 3's outputs of recurrent layers with dropout called in inference then in training
(tests/keras_rnn_mask_cases.py) into ``tests/fixtures/keras_rnn_masks.json``.

    $TAPEGRAD_TF_PYTHON tools/record_keras_rnn_masks.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _tf import record_cases_module  # noqa: E402

if __name__ == "__main__":
    record_cases_module("keras_rnn_mask_cases", "keras_rnn_masks.json")
