"""Record TensorFlow's answers for tf.train.ClusterSpec and the cluster resolvers
(tests/cluster_cases.py).

Run with a Python that has TensorFlow installed (never needed by tapegrad or by CI; the test only
reads the file this script writes)::

    $TAPEGRAD_TF_PYTHON tools/record_tf_cluster.py

Writes ``tests/fixtures/tf_cluster.json``.
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "tf_cluster.json")


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import one_thread_tensorflow
    import cluster_cases
    tf = one_thread_tensorflow()
    out = {"cases": cluster_cases.run(tf), "tensorflow": tf.__version__}
    with open(FIXTURE, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
