"""Record TensorFlow's results for what the ninth unseen set showed (tests/fix9_fix9a_cases.py):
depth max pooling, Keras 3's automatic get_config, the names and paths of Keras variables and a
functional model's one output given as a list.

Run with a Python that has TensorFlow installed (never needed by tapegrad or by CI; the tests
only read the file this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_fix9_fix9a.py

Writes ``tests/fixtures/fix9_fix9a.json``: per case, its dict of JSON values.
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "fix9_fix9a.json")


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import one_thread_tensorflow
    import fix9_fix9a_cases as fc
    tf = one_thread_tensorflow()
    cases = {name: f(tf) for name, f in fc.CASES.items()}
    out = {"cases": cases, "tensorflow": tf.__version__}
    with open(FIXTURE, "w", encoding="utf-8") as f:
        f.write(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
