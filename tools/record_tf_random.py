"""Record TensorFlow's random numbers for tests/test_philox.py.

    $TAPEGRAD_TF_PYTHON tools/record_tf_random.py

runs every program of ``tests/random_programs.py`` with TensorFlow (CPU) twice, checks that the
two runs agree, and writes ``tests/fixtures/tf_random.npz`` (arrays named ``<program>/<index>``).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from _tf import quiet_tensorflow  # noqa: E402
from random_programs import PROGRAMS  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "tf_random.npz")


def main():
    tf = quiet_tensorflow()
    arrays = {}
    for name, prog in PROGRAMS.items():
        first, second = prog(tf), prog(tf)
        for i, (a, b) in enumerate(zip(first, second)):
            if a.dtype != b.dtype or not np.array_equal(a, b):
                sys.exit(f"{name}/{i}: TensorFlow gave different results in two runs")
            arrays[f"{name}/{i}"] = a
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {len(arrays)} arrays to {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
