"""Record TensorFlow's results for the eighth unseen set's leftovers (tests/leftovers8_cases.py).

Run with a Python that has TensorFlow installed (never needed by tapegrad or by CI; the tests
only read the file this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_leftovers8.py

Writes ``tests/fixtures/leftovers8.json``: per case, each result as a nested list.
"""
import json
import os
import sys

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "leftovers8.json")


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import one_thread_tensorflow
    import leftovers8_cases as lc
    tf = one_thread_tensorflow()
    cases = {}
    for name, f in lc.CASES.items():
        cases[name] = {k: np.asarray(v).tolist() for k, v in f(tf).items()}
    out = {"cases": cases, "tensorflow": tf.__version__}
    with open(FIXTURE, "w", encoding="utf-8") as f:
        f.write(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
