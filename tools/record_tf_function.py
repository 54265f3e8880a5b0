"""Record TensorFlow 2.21's results of the tf.function cases in tests/function_cases.py.

    python tools/record_tf_function.py   (a Python with TensorFlow 2.21)

writes tests/fixtures/tf_function.json (read by tests/test_function.py; TensorFlow is never
needed by tapegrad or CI).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
sys.path.insert(0, HERE)

from _tf import quiet_tensorflow  # noqa: E402
import function_cases  # noqa: E402


def main() -> None:
    tf = quiet_tensorflow()
    out = {case.__name__: case(tf, tf.config.run_functions_eagerly) for case in function_cases.CASES}
    path = os.path.join(HERE, "..", "tests", "fixtures", "tf_function.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(out, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
