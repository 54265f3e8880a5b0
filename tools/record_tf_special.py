"""Record TensorFlow's ``tf.math.special`` values, first and second derivatives, and dtype errors.

Run with a Python that has TensorFlow installed (never needed by tapegrad or by CI; the tests
only read the file this script writes):

    python tools/record_tf_special.py

Writes ``tests/fixtures/tf_math_special.json``: per function, float64 values and gradients on a
grid that includes each function's special points (0, 1, negative arguments), the float32
values, and the error type for an integer input (tests/test_special.py reads it).
"""
import json
import math
import os
import sys

REPO = os.path.dirname(os.path.abspath(os.path.dirname(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "tf_math_special.json")

sys.path.insert(0, os.path.join(REPO, "tests"))
from math_special_cases import GRID, NAMES, derivatives  # noqa: E402


def _json(values):
    """Floats for JSON, with inf and NaN spelt as strings."""
    return [v if math.isfinite(v) else str(v) for v in (float(x) for x in values)]


def record(tf):
    out = {}
    for name in NAMES:
        fn = getattr(tf.math.special, name)
        y, g, h = derivatives(tf, fn, tf.constant(GRID, tf.float64))
        try:
            fn(tf.constant([1, 2]))
            int_error = None
        except Exception as e:  # the error type TensorFlow raises for an integer input
            int_error = type(e).__name__
        out[name] = {"x": GRID, "y": _json(y.numpy()), "grad": _json(g.numpy()),
                     "grad2": _json(h.numpy()),
                     "y32": _json(fn(tf.constant(GRID, tf.float32)).numpy()), "int_error": int_error}
    return out


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import quiet_tensorflow
    tf = quiet_tensorflow()
    out = {"tensorflow": tf.__version__, "functions": record(tf)}
    with open(FIXTURE, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {FIXTURE}: {len(out['functions'])} functions")


if __name__ == "__main__":
    main()
