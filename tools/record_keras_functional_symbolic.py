"""Record Keras 3's symbolic functional construction for tests/test_keras_functional_symbolic.py.

Development only (tapegrad and CI never import Keras). Run with the TensorFlow + Keras venv:

    $TAPEGRAD_TF_PYTHON tools/record_keras_functional_symbolic.py

It writes tests/fixtures/keras_functional_symbolic.json (sorted keys): what
tests/keras_functional_symbolic_cases.py's ``facts(keras, tf, tmp)`` gives under Keras 3 (the test
computes the same under tapegrad).
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from _tf import quiet_tensorflow, write_fixture  # noqa: E402

tf = quiet_tensorflow()
import keras  # noqa: E402

import keras_functional_symbolic_cases as cases  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras_functional_symbolic.json")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        write_fixture(json.loads(json.dumps(cases.facts(keras, tf, tmp))), OUT, tf, keras)


if __name__ == "__main__":
    main()
