"""Record Keras 3.15's keras.utils.FeatureSpace, HashedCrossing, tf.sparse.cross/cross_hashed and
the sparse=True outputs of the category preprocessing layers (cases in
tests/feature_space_cases.py).

Run with a Python that has TensorFlow 2.21 and Keras 3.15 (the tests only read what it writes):

    $TAPEGRAD_TF_PYTHON tools/record_keras_feature_space.py [case ...]

Writes ``tests/fixtures/keras_feature_space.json``: per case, the encoded result (tensors'
dtypes, shapes and values; SparseTensors' indices, values and dense shapes; errors' types).
"""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def _case(name, fn):
    import feature_space_cases

    def case(tf, keras, np):
        return feature_space_cases.run(fn, tf)
    case.__name__ = name
    return case


if __name__ == "__main__":
    import feature_space_cases
    from _tf import record_keras_cases
    record_keras_cases([_case(k, f) for k, f in feature_space_cases.CASES.items()],
                       os.path.join(REPO, "tests", "fixtures", "keras_feature_space.json"))
