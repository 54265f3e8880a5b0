"""Record Keras 3's model-structure and training-contract facts for tests/test_keras_graph.py.

Development only (tapegrad and CI never import Keras). Run with the TensorFlow + Keras venv:

    $TAPEGRAD_TF_PYTHON tools/record_keras_graph.py

It writes tests/fixtures/keras_graph.json (sorted keys): what tests/keras_graph_cases.py's
``facts(keras, tf)`` gives under Keras 3 (the test computes the same under tapegrad).
"""
import json
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from _tf import quiet_tensorflow  # noqa: E402

tf = quiet_tensorflow()
import keras  # noqa: E402

import keras_graph_cases as cases  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras_graph.json")


def main():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Keras's warnings about input_shape and the like
        rec = json.loads(json.dumps(cases.facts(keras, tf)))
    rec["versions"] = {"keras": keras.__version__, "tensorflow": tf.__version__}
    with open(OUT, "w") as f:
        json.dump(rec, f, sort_keys=True, indent=0)
        f.write("\n")
    print("wrote", os.path.relpath(OUT))


if __name__ == "__main__":
    main()
