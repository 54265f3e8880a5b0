"""Record TensorFlow's results of the control-flow programs (tests/cf_programs.py).

Run with a Python that has TensorFlow 2.21 (development only; tapegrad and CI never import it):

    $TAPEGRAD_TF_PYTHON tools/record_tf_control_flow.py

Each program runs twice and must give the same encoding both times; the results go to
``tests/fixtures/tf_control_flow.json`` (sorted keys). tests/cf_encoding.py encodes and compares.
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(REPO, "tests")
FIXTURE = os.path.join(TESTS, "fixtures", "tf_control_flow.json")


def main():
    from _tf import quiet_tensorflow  # tools/_tf.py (this script's folder is on sys.path)
    tf = quiet_tensorflow()
    sys.path.insert(0, TESTS)
    from cf_programs import PROGRAMS
    from cf_encoding import run

    cases, problems = {}, []
    for name, fn in PROGRAMS.items():
        first, second = run(fn, tf), run(fn, tf)
        if json.dumps(first, sort_keys=True) != json.dumps(second, sort_keys=True):
            problems.append(f"{name}: differs between two runs")
        cases[name] = first
    for p in problems:
        print("PROBLEM", p, file=sys.stderr)
    if problems:
        return 1
    with open(FIXTURE, "w", encoding="utf-8") as fh:
        json.dump({"tensorflow": tf.__version__, "cases": cases}, fh, sort_keys=True, indent=1)
        fh.write("\n")
    print(f"wrote {len(cases)} cases to {FIXTURE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
