"""Record Keras 3's mixed-precision results (``mixed_float16``) for tests/test_mixed_precision.py.

Run with a Python that has TensorFlow 2.21 and Keras 3 (never needed by tapegrad or by CI)::

    $TAPEGRAD_TF_PYTHON tools/record_mixed_precision.py

The cases (tests/mixed_precision_cases.py) run unchanged here and on tapegrad; this writes their
results, with the initial weights Keras drew, to tests/fixtures/mixed_precision.json.
"""
import json
import os
import sys

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(REPO, "tools"), os.path.join(REPO, "tests")]
FIXTURE = os.path.join(REPO, "tests", "fixtures", "mixed_precision.json")


def plain(v):
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, (np.ndarray, np.generic)):
        return {"array": np.asarray(v, np.float64).tolist(), "dtype": str(np.asarray(v).dtype)}
    return v


def main():
    from _tf import one_thread_tensorflow
    tf = one_thread_tensorflow()
    import keras
    from mixed_precision_cases import CASES

    record = {"versions": {"tensorflow": tf.__version__, "keras": keras.__version__}, "cases": {}}
    for name, case in CASES.items():
        keras.utils.set_random_seed(1)
        record["cases"][name] = {k: plain(v) for k, v in case(tf, keras, None).items()}
        print(name, record["cases"][name].get("loss"))
    with open(FIXTURE, "w", encoding="utf-8") as fh:
        json.dump(record, fh, indent=None, separators=(",", ":"))
        fh.write("\n")


if __name__ == "__main__":
    main()
