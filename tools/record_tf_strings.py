"""Record TensorFlow's results for tf.string tensors and tf.strings (tests/strings_cases.py).

Run with a Python that has TensorFlow installed (never needed by tapegrad or by CI; the tests
only read the file this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_tf_strings.py

Writes ``tests/fixtures/tf_strings.json``: per case, the encoded result (or error type); per
print case, the text ``tf.print`` writes; per repr case, ``repr`` of the tensor.
"""
import json
import os
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "tf_strings.json")


def printed(tf, args):
    """What ``tf.print(*args)`` writes (through a file, which both libraries support)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "out.txt")
        tf.print(*args, output_stream="file://" + path)
        with open(path, encoding="utf-8", errors="backslashreplace") as f:
            return f.read()


def record(tf, np):
    import strings_cases as sc
    return {
        "cases": {k: sc.run(e, tf, np) for k, e in sc.CASES.items()},
        "prints": {k: printed(tf, eval(e, {"tf": tf})) for k, e in sc.PRINTS.items()},
        "reprs": {k: repr(eval(e, {"tf": tf})).split(":", 1)[1] for k, e in sc.REPRS.items()},
    }


def main():
    import numpy as np
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import quiet_tensorflow
    tf = quiet_tensorflow()
    out = record(tf, np)
    out["tensorflow"] = tf.__version__
    with open(FIXTURE, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True, ensure_ascii=True)
        f.write("\n")
    print(f"wrote {FIXTURE}: {len(out['cases'])} cases")


if __name__ == "__main__":
    main()
