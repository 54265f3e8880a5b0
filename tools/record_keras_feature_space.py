"""Record Keras 3.15's keras.utils.FeatureSpace, HashedCrossing, tf.sparse.cross/cross_hashed and
the sparse=True outputs of the category preprocessing layers (cases in
tests/feature_space_cases.py).

Run with a Python that has TensorFlow 2.21 and Keras 3.15 (the tests only read what it writes):

    $TAPEGRAD_TF_PYTHON tools/record_keras_feature_space.py

Writes ``tests/fixtures/keras_feature_space.json``: per case, the encoded result (tensors'
dtypes, shapes and values; SparseTensors' indices, values and dense shapes; errors' types).
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_feature_space.json")


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import one_thread_tensorflow
    import feature_space_cases as fc
    tf = one_thread_tensorflow()
    import keras
    out = {"cases": {k: fc.run(f, tf) for k, f in fc.CASES.items()},
           "tensorflow": tf.__version__, "keras": keras.__version__}
    with open(FIXTURE, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True, ensure_ascii=True)
        f.write("\n")


if __name__ == "__main__":
    main()
