"""Record TensorFlow's results for the tf.data / tf.function differential fuzz programs.

Run with a Python that has TensorFlow installed (never needed by tapegrad or by CI; the tests
only read the file this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_data_fuzz.py

(``TAPEGRAD_TF_PYTHON``: a Python with TensorFlow, see ``tools/_tf.py``.)

It generates the programs for seeds ``0 .. N-1`` (``tests/data_fuzz/generator.py``), runs each
twice with ``tensorflow`` as the ``tf`` argument (``tests/data_fuzz/interpreter.py``) and writes
``tests/fixtures/data_fuzz.json.gz`` (sorted keys, gzip without a timestamp). A program that
draws fresh randomness (``generator.fresh_randomness``: no global seed, no op seed) and one whose
two runs disagree (a parallel ``map`` drawing random numbers) are dropped: their results are not
TensorFlow's to compare with.

Options: ``--count N`` (default 1000); ``--only SEED`` runs one program and prints the program
and its results without writing anything.
"""

import argparse
import gzip
import json
import os
import sys
import time


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(REPO, "tests")
FIXTURE = os.path.join(TESTS, "fixtures", "data_fuzz.json.gz")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--only", type=int, help="run one seed and print its results")
    parser.add_argument("--output", default=FIXTURE)
    args = parser.parse_args(argv)

    from _tf import one_thread_tensorflow  # tools/_tf.py (this script's folder is on sys.path)
    tf = one_thread_tensorflow()

    sys.path.insert(0, TESTS)
    from data_fuzz.generator import fresh_randomness, generate
    from data_fuzz.interpreter import run

    seeds = [args.only] if args.only is not None else range(args.count)
    programs, dropped, fresh = [], [], []
    start = time.time()
    for seed in seeds:
        program = generate(seed)
        if fresh_randomness(program) and args.only is None:
            fresh.append(seed)
            continue
        first = run(program, tf)
        if args.only is not None:
            print(json.dumps(program))
            print(json.dumps(first, indent=1))
            return 0
        second = run(program, tf)
        if json.dumps(first) != json.dumps(second):
            dropped.append(seed)
            continue
        programs.append({"seed": seed, "program": program, "result": first})
        if seed % 100 == 99:
            print(f"{seed + 1} programs, {time.time() - start:.0f} s", file=sys.stderr)

    fixture = {
        "generator": "tools/record_data_fuzz.py",
        "tensorflow_version": tf.__version__,
        "dropped_nondeterministic": dropped,
        "dropped_unseeded": fresh,
        "programs": programs,
    }
    data = json.dumps(fixture, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "wb") as fh:
        with gzip.GzipFile(fileobj=fh, mode="wb", mtime=0, filename="") as gz:
            gz.write(data.encode("ascii"))
    print(f"wrote {len(programs)} programs ({len(fresh)} unseeded and {len(dropped)} "
          f"nondeterministic dropped) to "
          f"{os.path.relpath(args.output, REPO)} ({os.path.getsize(args.output) / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
