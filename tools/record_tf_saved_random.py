"""Record TensorFlow's draws of saved and loaded random functions for tests/test_saved_random.py.

    /root/tfenv/bin/python tools/record_tf_saved_random.py

runs every program of ``tests/saved_random_programs.py`` with TensorFlow (CPU) in a fresh
directory and writes ``tests/fixtures/tf_saved_random.npz`` (arrays named ``<program>/<index>``,
and ``<program>/error``, the type of the exception, for those of ``FAILING``).
Unseeded draws are the programs' only nondeterminism, and they avoid it (a global seed is set).
"""
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from _tf import quiet_tensorflow  # noqa: E402
from saved_random_programs import FAILING, PROGRAMS  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures",
                   "tf_saved_random.npz")


def main():
    tf = quiet_tensorflow()
    arrays = {}
    for name, prog in PROGRAMS.items():
        runs = []
        for _ in range(2):
            with tempfile.TemporaryDirectory() as d:
                runs.append(prog(tf, d))
        for i, (a, b) in enumerate(zip(*runs)):
            if a.dtype != b.dtype or not np.array_equal(a, b):
                sys.exit(f"{name}/{i}: TensorFlow gave different results in two runs")
            arrays[f"{name}/{i}"] = a
    for name, prog in FAILING.items():
        with tempfile.TemporaryDirectory() as d:
            try:
                prog(tf, d)
            except Exception as e:  # noqa: BLE001  (recorded: the type TensorFlow raises)
                arrays[f"{name}/error"] = np.array(type(e).__name__)
            else:
                sys.exit(f"{name}: TensorFlow raised nothing")
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {len(arrays)} arrays to {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
