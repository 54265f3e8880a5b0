"""Record Keras 3's outputs for its newer image augmentation layers
(tests/keras_augmentation_more_cases.py).

Run with a Python that has TensorFlow 2.21 and Keras 3.15 (never needed by tapegrad or by CI):

    $TAPEGRAD_TF_PYTHON tools/record_keras_augmentation_more.py

Writes ``tests/fixtures/keras_augmentation_more.json``: per case, its outputs (and mixed labels).
"""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_augmentation_more.json")


def main():
    from _tf import one_thread_tensorflow, write_fixture
    import keras_augmentation_more_cases as cases
    tf = one_thread_tensorflow()
    import keras
    rec = {"cases": {}}
    for name in cases.CASES:
        keras.utils.clear_session()
        rec["cases"][name] = cases.run(name, tf, keras)
    write_fixture(rec, FIXTURE, tf, keras)


if __name__ == "__main__":
    main()
