"""Record Keras 3's quantization (``Model.quantize``, the int8 Dense, EinsumDense and Embedding,
``keras.quantizers``, ``keras.dtype_policies``) for tests/test_keras_quantize.py.

    $TAPEGRAD_TF_PYTHON tools/record_keras_quantize.py [CASE ...]

runs tests/keras_quantize_cases.py under TensorFlow 2.21 + Keras 3.15 and writes
``tests/fixtures/keras_quantize.json``: each case's results (case names rerun only those).
"""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
sys.path.insert(0, os.path.join(REPO, "tools"))
import keras_quantize_cases  # noqa: E402
from _tf import record_keras_cases  # noqa: E402


def _as_case(case):
    def run(tf, keras, np):
        return case(tf, keras)
    run.__name__ = case.__name__
    return run


if __name__ == "__main__":
    record_keras_cases([_as_case(c) for c in keras_quantize_cases.CASES],
                       os.path.join(REPO, "tests", "fixtures", "keras_quantize.json"))
