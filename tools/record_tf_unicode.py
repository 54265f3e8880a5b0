"""Record TensorFlow's results for its Unicode string ops (tests/strings_unicode_cases.py).

Run with a Python that has TensorFlow installed (never needed by tapegrad or by CI; the tests
only read the file this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_tf_unicode.py

Writes ``tests/fixtures/tf_unicode.json``: per case, the encoded result (or error type).
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "tf_unicode.json")


def main():
    import numpy as np
    import strings_unicode_cases as uc
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import quiet_tensorflow
    tf = quiet_tensorflow()
    out = {"cases": {k: uc.run(e, tf, np) for k, e in uc.CASES.items()}, "tensorflow": tf.__version__}
    with open(FIXTURE, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True, ensure_ascii=True)
        f.write("\n")
    print(f"wrote {FIXTURE}: {len(out['cases'])} cases")


if __name__ == "__main__":
    main()
