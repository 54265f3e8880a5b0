"""Record TensorFlow's results for tf.io, tf.train.Example and the file datasets (tests/io_cases.py).

Run with a Python that has TensorFlow installed (never needed by tapegrad or by CI; the tests only
read what this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_tf_io.py

Writes the TFRecord files the cases read into ``tests/fixtures/tf_io/`` (written by TensorFlow) and
``tests/fixtures/tf_io.json``: per case, the encoded result or error. Commit both together: TensorFlow
serializes an Example's features in hash order, so each run writes other (equivalent) bytes.
"""
import json
import os
import shutil
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "tf_io.json")
FILES = os.path.join(REPO, "tests", "fixtures", "tf_io")


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import quiet_tensorflow
    tf = quiet_tensorflow()
    import io_cases
    os.makedirs(FILES, exist_ok=True)
    io_cases.write_files(tf, FILES)
    cases = {}
    for name in io_cases.CASES:
        with tempfile.TemporaryDirectory() as d:
            for f in io_cases.FILES:
                shutil.copy(os.path.join(FILES, f), d)
            cases[name] = io_cases.run(name, tf, d)
    with open(FIXTURE, "w", encoding="utf-8") as f:
        json.dump({"tensorflow": tf.__version__, "cases": cases}, f, indent=1, sort_keys=True, ensure_ascii=True)
        f.write("\n")
    print(f"wrote {FIXTURE}: {len(cases)} cases")


if __name__ == "__main__":
    main()
