"""Record TensorFlow's results for the differential fuzz programs.

Run with a Python that has TensorFlow installed (never needed by tapegrad or by CI; the tests
only read the file this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_fuzz_fixtures.py

(``TAPEGRAD_TF_PYTHON``: a Python with TensorFlow, see ``tools/_tf.py``.)

It generates the programs for seeds ``0 .. N-1`` (``tests/tf_fuzz/generator.py``), runs each
with ``tensorflow`` as the ``tf`` argument (``tests/tf_fuzz/interpreter.py``) and writes
``tests/fixtures/tf_fuzz.json.gz``: every program with its encoded results, deterministically
(sorted keys, gzip without a timestamp). float32 values are written with the shortest decimal
that reads back as the same float32, which keeps the file small.

Options: ``--count N`` (default 3000); ``--only SEED`` runs one program and prints the program
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
FIXTURE = os.path.join(TESTS, "fixtures", "tf_fuzz.json.gz")


def shorten(node, np):
    """Write float32 tensor values as the shortest decimal that is the same float32."""
    if isinstance(node, list):
        return [shorten(v, np) for v in node]
    if not isinstance(node, dict):
        return node
    if node.get("kind") == "tensor" and node.get("dtype") == "float32":
        def short(v):
            if isinstance(v, list):
                return [short(w) for w in v]
            return v if isinstance(v, str) else float(str(np.float32(v)))

        return dict(node, value=short(node["value"]))
    return {k: shorten(v, np) for k, v in node.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--only", type=int, help="run one seed and print its results")
    parser.add_argument("--output", default=FIXTURE)
    args = parser.parse_args(argv)

    import numpy as np
    from _tf import quiet_tensorflow  # tools/_tf.py (this script's folder is on sys.path)
    tf = quiet_tensorflow()

    sys.path.insert(0, TESTS)
    from tf_fuzz.generator import generate
    from tf_fuzz.interpreter import run_program

    seeds = [args.only] if args.only is not None else range(args.count)
    programs = []
    start = time.time()
    for seed in seeds:
        program = generate(seed)
        result = shorten(run_program(program, tf), np)
        if args.only is not None:
            print(json.dumps(program))
            print(json.dumps(result, indent=1))
            return 0
        programs.append({"program": program, "result": result})
        if seed % 250 == 249:
            print(f"{seed + 1} programs, {time.time() - start:.0f} s", file=sys.stderr)

    fixture = {
        "generator": "tools/record_fuzz_fixtures.py",
        "numpy_version": np.__version__,
        "tensorflow_version": tf.__version__,
        "programs": programs,
    }
    data = json.dumps(fixture, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "wb") as fh:
        with gzip.GzipFile(fileobj=fh, mode="wb", mtime=0, filename="") as gz:
            gz.write(data.encode("ascii"))
    print(f"wrote {len(programs)} programs to {os.path.relpath(args.output, REPO)} "
          f"({os.path.getsize(args.output) / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
