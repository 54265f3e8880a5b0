"""Record TensorFlow's results for tf.saved_model and Keras's export (tests/saved_model_cases.py).

Run with a Python that has TensorFlow installed (never needed by tapegrad or by CI; the tests only
read what this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_tf_saved_model.py

Writes ``tests/fixtures/tf_saved_model.json``: per case, the encoded result or error; and
``tests/fixtures/tf_saved_model/saved_model.pb``, the graph of a one-variable Module as TensorFlow
writes it (tapegrad's loader must refuse it with a clear error).
"""
import json
import os
import shutil
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "tf_saved_model.json")
TF_WRITTEN = os.path.join(REPO, "tests", "fixtures", "tf_saved_model")


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import quiet_tensorflow
    tf = quiet_tensorflow()
    import saved_model_cases
    cases = {}
    for name in saved_model_cases.CASES:
        with tempfile.TemporaryDirectory() as d:
            cases[name] = saved_model_cases.run(name, tf, os.path.join(d, "m"))
    with tempfile.TemporaryDirectory() as d:
        m = tf.Module()
        m.v = tf.Variable(1.0)
        m.f = tf.function(lambda x: x * m.v, input_signature=[tf.TensorSpec([], tf.float32)])
        tf.saved_model.save(m, d)
        os.makedirs(TF_WRITTEN, exist_ok=True)
        shutil.copy(os.path.join(d, "saved_model.pb"), TF_WRITTEN)
    with open(FIXTURE, "w", encoding="utf-8") as f:
        json.dump({"tensorflow": tf.__version__, "cases": cases}, f, indent=1, sort_keys=True, ensure_ascii=True)
        f.write("\n")
    print(f"wrote {FIXTURE}: {len(cases)} cases")


if __name__ == "__main__":
    main()
