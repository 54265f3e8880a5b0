"""Record TensorFlow's tf.signal, tf.image, sampled-loss and new tf.math/tf.linalg results for the tests.

    $TAPEGRAD_TF_PYTHON tools/record_tf_signal_image.py

runs every program of ``tests/signal_programs.py``, ``tests/image_programs.py``,
``tests/sampled_programs.py`` and ``tests/math_linalg_programs.py`` with TensorFlow (CPU) and writes ``tests/fixtures/tf_signal_image.npz`` (arrays named
``<program>/<index>``).
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from _tf import quiet_tensorflow  # noqa: E402
import image_programs  # noqa: E402
import math_linalg_programs  # noqa: E402
import sampled_programs  # noqa: E402
import signal_programs  # noqa: E402

OUT = os.path.join(HERE, "..", "tests", "fixtures", "tf_signal_image.npz")


def main():
    tf = quiet_tensorflow()
    arrays = {}
    for programs in (signal_programs.PROGRAMS, image_programs.PROGRAMS, sampled_programs.PROGRAMS,
                     math_linalg_programs.PROGRAMS):
        for name, prog in programs.items():
            for i, a in enumerate(prog(tf)):
                arrays[f"{name}/{i}"] = a
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {len(arrays)} arrays to {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
