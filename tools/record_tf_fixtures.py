"""Record the TensorFlow results of the differential test programs.

Run with a Python that has TensorFlow installed (never needed by tapegrad or
by CI; the tests only read the JSON this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_tf_fixtures.py

where ``TAPEGRAD_TF_PYTHON`` is a Python with TensorFlow (see ``tools/_tf.py``).

It runs every program in ``tests/tf_programs`` with ``tensorflow`` as the
``tf`` argument, encodes each result (or the exception raised) and writes
``tests/fixtures/tf_programs.json`` with sorted keys, deterministically.
Every program is run twice and the two encodings must agree. A program that
raises must be marked ``@tf_raises("Type")`` and a marked program must raise
that type; otherwise the script reports the case and exits non-zero without
writing the fixture (pass ``--force`` to write it anyway).

Options: ``--only SUBSTRING`` runs the matching cases and prints their
results without writing the fixture; with ``--update`` as well, the matching
cases are recorded into the existing fixture and every other case in it is
kept as it is (for adding programs without re-recording everything).
"""

import argparse
import json
import os
import sys


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(REPO, "tests")
FIXTURE = os.path.join(TESTS, "fixtures", "tf_programs.json")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="run only cases whose name contains this")
    parser.add_argument("--force", action="store_true", help="write even if checks fail")
    parser.add_argument("--update", action="store_true",
                        help="with --only: record the matching cases into the existing fixture")
    parser.add_argument("--output", default=FIXTURE)
    args = parser.parse_args(argv)

    import numpy as np
    from _tf import quiet_tensorflow  # tools/_tf.py (this script's folder is on sys.path)
    tf = quiet_tensorflow()

    sys.path.insert(0, TESTS)
    from tf_programs import ALL_CASES
    from tf_programs._encoding import run_case

    cases = {}
    problems = []
    for name, fn in ALL_CASES.items():
        if args.only and args.only not in name:
            continue
        first = run_case(fn, tf)
        second = run_case(fn, tf)
        if json.dumps(first, sort_keys=True) != json.dumps(second, sort_keys=True):
            problems.append(f"{name}: result differs between two runs")
        expected_error = getattr(fn, "tf_raises", None)
        if first["kind"] == "error":
            if expected_error is None:
                problems.append(f"{name}: unexpected {first['type']}: {first['message']}")
            elif expected_error != first["type"]:
                problems.append(
                    f"{name}: expected {expected_error}, raised {first['type']}: {first['message']}"
                )
        elif expected_error is not None:
            problems.append(f"{name}: expected {expected_error}, returned {first['kind']}")
        cases[name] = first
        if args.only:
            print(name, json.dumps(first, sort_keys=True))

    for problem in problems:
        print("PROBLEM", problem, file=sys.stderr)
    if args.only and not args.update:
        return 1 if problems else 0
    if problems and not args.force:
        print(f"{len(problems)} problem(s); fixture not written", file=sys.stderr)
        return 1

    if args.update:
        with open(args.output, encoding="utf-8") as fh:
            previous = json.load(fh)
        if previous.get("tensorflow_version") != tf.__version__:
            print("the fixture was recorded with another TensorFlow; re-record all", file=sys.stderr)
            return 1
        cases = dict(previous["cases"], **cases)
    fixture = {
        "generator": "tools/record_tf_fixtures.py",
        "numpy_version": np.__version__,
        "tensorflow_version": tf.__version__,
        "cases": dict(sorted(cases.items())),
    }
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "w", encoding="utf-8") as fh:
        json.dump(fixture, fh, sort_keys=True, indent=1, ensure_ascii=True)
        fh.write("\n")
    print(f"wrote {len(cases)} cases to {os.path.relpath(args.output, REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
