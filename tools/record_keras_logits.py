"""Record Keras 3's logits cache (a softmax or sigmoid output's ``_keras_logits``, used by the
crossentropy losses) for tests/test_keras_logits.py.

    $TAPEGRAD_TF_PYTHON tools/record_keras_logits.py

runs tests/keras_logits_cases.py under TensorFlow 2.21 + Keras 3.15 and writes
``tests/fixtures/keras_logits.json``: each case's results.
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
sys.path.insert(0, os.path.join(REPO, "tools"))
import keras_logits_cases  # noqa: E402
from _tf import quiet_tensorflow  # noqa: E402


def main() -> None:
    tf = quiet_tensorflow()
    import keras
    out = {"tensorflow": tf.__version__, "keras": keras.__version__,
           "cases": {c.__name__: c(tf, keras) for c in keras_logits_cases.CASES}}
    with open(os.path.join(REPO, "tests", "fixtures", "keras_logits.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
