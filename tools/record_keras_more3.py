"""Record Keras 3's ``keras.ops.image`` warps and filters and ``keras.distillation``'s\n``Distiller.fit`` (tests/keras_more3_cases.py).

Run with a Python that has TensorFlow 2.21 and Keras 3.15 (never needed by tapegrad or by CI):

    $TAPEGRAD_TF_PYTHON tools/record_keras_more3.py

Writes ``tests/fixtures/keras_more3.json``: per case, its output, gradients or error.
"""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_more3.json")


def main():
    from _tf import one_thread_tensorflow, write_fixture
    import keras_more3_cases as cases
    tf = one_thread_tensorflow()
    import keras
    rec = {"cases": {}}
    for name in cases.CASES:
        keras.utils.clear_session()
        rec["cases"][name] = cases.run(name, tf, keras)
    rec["distill"] = {}
    for name in cases.DISTILL:
        keras.utils.clear_session()
        rec["distill"][name] = cases.run_distill(name, tf, keras)
    rec["muon"] = {}
    for name in cases.MUON:
        keras.utils.clear_session()
        rec["muon"][name] = cases.run_muon(name, tf, keras)
    rec["multi"] = {}
    for name in cases.MULTI:
        keras.utils.clear_session()
        rec["multi"][name] = cases.run_multi(name, tf, keras)
    rec["policy_map"] = cases.run_policy_map(tf, keras)
    keras.utils.clear_session()
    rec["construction"] = cases.run_construction(tf, keras)
    write_fixture(rec, FIXTURE, tf, keras)


if __name__ == "__main__":
    main()
