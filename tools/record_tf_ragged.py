"""Record TensorFlow's results for tf.RaggedTensor and tf.ragged (tests/ragged_cases.py).

Run with a Python that has TensorFlow installed (never needed by tapegrad or by CI; the tests
only read the file this script writes):

    python tools/record_tf_ragged.py

Writes ``tests/fixtures/tf_ragged.json``: per case, the encoded result (values, dtype, shape,
ragged rank, repr) or the error type; per gradient case, the loss and the gradient; per print
case, what ``tf.print`` writes.
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "tf_ragged.json")


def record(tf):
    import ragged_cases as rc
    from record_tf_strings import printed
    env = rc.setup(tf)
    return {
        "cases": {k: rc.run(e, tf, env) for k, e in rc.CASES.items()},
        "grads": {k: rc.gradient(tf, k) for k in rc.GRADS},
        "prints": {k: printed(tf, eval(e, {"tf": tf, **env})) for k, e in rc.PRINTS.items()},  # noqa: S307
    }


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import quiet_tensorflow
    tf = quiet_tensorflow()
    out = record(tf)
    out["tensorflow"] = tf.__version__
    with open(FIXTURE, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True, ensure_ascii=True)
        f.write("\n")
    print(f"wrote {FIXTURE}: {len(out['cases'])} cases, {len(out['grads'])} gradients")


if __name__ == "__main__":
    main()
