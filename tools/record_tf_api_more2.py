"""Record TensorFlow's results for more late-added tf.* names (tests/tf_api_more2_cases.py).

Run with a Python that has TensorFlow installed (never needed by tapegrad or by CI; the tests
only read the file this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_tf_api_more2.py

Writes ``tests/fixtures/tf_api_more2.json``: per case, the encoded result (a tensor's dtype, shape
and values; a SparseTensor's parts; an error's type and message).
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "tf_api_more2.json")


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import one_thread_tensorflow
    import tf_api_more2_cases as cases
    tf = one_thread_tensorflow()
    out = {"cases": {k: cases.run(f, tf) for k, f in cases.CASES.items()}, "tensorflow": tf.__version__}
    tf.experimental.numpy.experimental_enable_numpy_behavior()  # (for good: so last)
    out["numpy"] = {k: cases.run(f, tf) for k, f in cases.NUMPY.items()}
    text = json.dumps(out, indent=1, sort_keys=True, ensure_ascii=True)  # (before opening: a failure keeps the old file)
    with open(FIXTURE, "w", encoding="utf-8") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
