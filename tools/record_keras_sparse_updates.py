"""Record Keras 3.15's optimizer updates from IndexedSlices with repeated indices for
tests/test_optimizers_sparse.py.

    $TAPEGRAD_TF_PYTHON tools/record_keras_sparse_updates.py

writes ``tests/fixtures/keras_sparse_updates.json``: the variable after each of three updates, per
optimizer case of tests/sparse_update_cases.py.
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
sys.path.insert(0, os.path.join(REPO, "tools"))
import sparse_update_cases as cases  # noqa: E402
from _tf import quiet_tensorflow  # noqa: E402


def main() -> None:
    tf = quiet_tensorflow()
    import keras
    out = {cases.case_id(n, kw): cases.run(tf, keras, n, kw) for n, kw in cases.OPTIMIZERS}
    with open(os.path.join(REPO, "tests", "fixtures", "keras_sparse_updates.json"), "w", encoding="utf-8") as f:
        json.dump({"tensorflow": tf.__version__, "keras": keras.__version__, "cases": out}, f, indent=1,
                  sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
