"""Record TensorFlow's results for the ninth unseen set's fixes of fix9b (tests/fix9_fix9b_cases.py).

Run with a Python that has TensorFlow installed (never needed by tapegrad or by CI; the tests
only read the file this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_fix9_fix9b.py

Writes ``tests/fixtures/fix9_fix9b.json``: per case, each result as a nested list.
"""
import json
import os
import sys

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "fix9_fix9b.json")


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import one_thread_tensorflow
    import fix9_fix9b_cases as lc
    tf = one_thread_tensorflow()
    cases = {}
    for name, f in lc.CASES.items():
        cases[name] = {k: np.asarray(v).tolist() for k, v in f(tf).items()}
    out = {"cases": cases, "tensorflow": tf.__version__}
    with open(FIXTURE, "w", encoding="utf-8") as f:
        f.write(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
