"""Record TensorFlow's ``tf.image.extract_patches``, ``tf.extract_volume_patches`` and Keras's
``keras.ops.image.extract_patches`` (outputs, gradients, the exception types of bad arguments) into
``tests/fixtures/tf_extract_patches.json``.

Run with a Python that has TensorFlow 2.21 and Keras 3 (never needed by tapegrad or by CI):

    $TAPEGRAD_TF_PYTHON tools/record_tf_extract_patches.py

The cases live in ``tests/extract_patches_cases.py``; ``tests/test_extract_patches.py`` replays them.
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

import extract_patches_cases as cases  # noqa: E402


def main():
    out = {"versions": {"tensorflow": tf.__version__, "keras": keras.__version__},
           "cases": {n: cases.run_case(tf, keras, n) for n in cases.CASES},
           "errors": {n: cases.run_error_case(tf, n) for n in cases.ERROR_CASES}}
    with open(os.path.join(REPO, "tests", "fixtures", "tf_extract_patches.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
