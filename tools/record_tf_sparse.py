"""Record TensorFlow's results for tf.SparseTensor and tf.sparse (tests/sparse_cases.py).

Run with a Python that has TensorFlow installed (never needed by tapegrad or by CI; the tests
only read the file this script writes):

    python tools/record_tf_sparse.py

Writes ``tests/fixtures/tf_sparse.json``: per case, the encoded result (a SparseTensor's indices,
values and dense shape; a tensor's values; an error's type and message); per gradient case, the
gradients.
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "tf_sparse.json")


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import one_thread_tensorflow
    import sparse_cases as sc
    tf = one_thread_tensorflow()
    out = {"cases": {k: sc.run(f, tf) for k, f in sc.CASES.items()},
           "grads": {k: sc.run(f, tf) for k, f in sc.GRADS.items()},
           "tensorflow": tf.__version__}
    with open(FIXTURE, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True, ensure_ascii=True)
        f.write("\n")


if __name__ == "__main__":
    main()
