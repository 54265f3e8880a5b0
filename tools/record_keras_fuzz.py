"""Record Keras 3.15's results (on TensorFlow 2.21) for the Keras differential fuzz programs.

Run with a Python that has TensorFlow and Keras (never needed by tapegrad or by CI):

    $TAPEGRAD_TF_PYTHON tools/record_keras_fuzz.py

It generates the programs for seeds ``0 .. N-1`` (``tests/keras_fuzz/generator.py``), runs each
with ``tensorflow``/``keras`` (``tests/keras_fuzz/interpreter.py``; TensorFlow on one thread, its
deterministic order) and writes ``tests/fixtures/keras_fuzz.json.gz`` deterministically (sorted
keys, gzip without a timestamp). Each program is run twice; one whose two runs differ is dropped
(its seed is listed under ``"nondeterministic"``).

Options: ``--count N`` (default 190); ``--start S`` (first seed; with ``--merge``, the
programs below it are kept from the output); ``--shard I/K`` records seeds ``i`` with ``i % K == I`` to
``<output>.<I>`` (run the shards in parallel, then ``--merge K``); ``--only SEED`` prints one
program and its results.
"""

import argparse
import gzip
import json
import os
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(REPO, "tests")
FIXTURE = os.path.join(TESTS, "fixtures", "keras_fuzz.json.gz")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=190)
    parser.add_argument("--start", type=int, default=0, help="first seed (with --merge: keep the "
                        "output's programs below it)")
    parser.add_argument("--only", type=int)
    parser.add_argument("--shard", default="0/1")
    parser.add_argument("--merge", type=int)
    parser.add_argument("--output", default=FIXTURE)
    args = parser.parse_args(argv)
    if args.merge:
        return merge(args.output, args.merge, args.start)

    from _tf import one_thread_tensorflow  # tools/_tf.py (this script's folder is on sys.path)
    tf = one_thread_tensorflow()
    import keras

    sys.path.insert(0, TESTS)
    from keras_fuzz.generator import generate
    from keras_fuzz.interpreter import run

    if args.only is not None:
        program = generate(args.only)
        print(json.dumps(program))
        print(json.dumps(run(program, tf, keras), indent=1))
        return 0
    index, shards = (int(v) for v in args.shard.split("/"))
    programs, dropped, start = [], [], time.time()
    for seed in range(args.start + index, args.count, shards):
        program = generate(seed)
        first, second = run(program, tf, keras), run(program, tf, keras)
        if json.dumps(first, sort_keys=True) != json.dumps(second, sort_keys=True):
            dropped.append(seed)
        else:
            programs.append({"program": program, "result": first})
        print(f"seed {seed}: {time.time() - start:.0f} s", file=sys.stderr, flush=True)
    out = {"programs": programs, "nondeterministic": dropped,
           "versions": {"tensorflow": tf.__version__, "keras": keras.__version__}}
    path = args.output if shards == 1 else f"{args.output}.{index}"
    write(out, path)
    return 0


def write(out, path):
    data = json.dumps(out, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    with open(path, "wb") as fh:
        with gzip.GzipFile(fileobj=fh, mode="wb", mtime=0, filename="") as gz:
            gz.write(data.encode("ascii"))
    print(f"wrote {len(out['programs'])} programs to {os.path.relpath(path, REPO)}")


def merge(output, shards, start=0):
    parts = []
    if start:
        with gzip.open(output, "rt", encoding="ascii") as fh:
            kept = json.load(fh)
        parts.append({"programs": [p for p in kept["programs"] if p["program"]["seed"] < start],
                      "nondeterministic": [s for s in kept["nondeterministic"] if s < start],
                      "versions": kept["versions"]})
    for i in range(shards):
        with gzip.open(f"{output}.{i}", "rt", encoding="ascii") as fh:
            parts.append(json.load(fh))
    out = {"programs": sorted((p for part in parts for p in part["programs"]),
                              key=lambda p: p["program"]["seed"]),
           "nondeterministic": sorted(s for part in parts for s in part["nondeterministic"]),
           "versions": parts[0]["versions"]}
    write(out, output)
    for i in range(shards):
        os.remove(f"{output}.{i}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
