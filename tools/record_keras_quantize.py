"""Record Keras 3's quantization (``Model.quantize``, the int8 Dense, EinsumDense and Embedding,
``keras.quantizers``, ``keras.dtype_policies``) for tests/test_keras_quantize.py.

    $TAPEGRAD_TF_PYTHON tools/record_keras_quantize.py [CASE ...]

runs tests/keras_quantize_cases.py under TensorFlow 2.21 + Keras 3.15 and writes
``tests/fixtures/keras_quantize.json``: each case's results (case names rerun only those); and
``tests/fixtures/keras_quantize.weights.h5``, the weights file Keras writes for
``keras_quantize_cases.h5_model`` (quantized layers store their variables in Keras's own order),
with the model's outputs in ``tests/fixtures/keras_quantize_h5.json``.
"""
import json
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


def record_h5() -> None:
    import keras
    import numpy as np
    keras.utils.clear_session()
    model = keras_quantize_cases.h5_model(keras)
    fixtures = os.path.join(REPO, "tests", "fixtures")
    model.save_weights(os.path.join(fixtures, "keras_quantize.weights.h5"))
    ids = keras_quantize_cases.IDS
    with open(os.path.join(fixtures, "keras_quantize_h5.json"), "w", encoding="utf-8") as fh:
        json.dump({"keras": keras.__version__, "ids": ids.tolist(), "y": np.asarray(model(ids)).tolist()}, fh)
        fh.write("\n")


if __name__ == "__main__":
    record_keras_cases([_as_case(c) for c in keras_quantize_cases.CASES],
                       os.path.join(REPO, "tests", "fixtures", "keras_quantize.json"))
    record_h5()
