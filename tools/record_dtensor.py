"""Record TensorFlow 2.21's DTensor layouts and values for tests/dtensor_cases.py.

Development only (tapegrad and CI never import TensorFlow):

    $TAPEGRAD_TF_PYTHON tools/record_dtensor.py

splits the CPU into 8 logical devices, runs ``dtensor_cases.run`` (each op's result layout,
its per-device components, or the error's type) and ``train_tutorial`` (the DTensor ML
tutorial's training on three meshes) and writes tests/fixtures/dtensor.json, which
tests/test_dtensor.py compares tapegrad's DTensor with.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _tf import quiet_tensorflow  # noqa: E402


def main() -> None:
    tf = quiet_tensorflow()
    from tensorflow.experimental import dtensor

    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 8)
    import dtensor_cases

    with tempfile.TemporaryDirectory() as directory:
        training = dtensor_cases.train_tutorial(tf, dtensor, directory)
    out = {"versions": {"tensorflow": tf.__version__}, "cases": dtensor_cases.run(tf, dtensor),
           "training": training}
    with open(os.path.join(ROOT, "tests", "fixtures", "dtensor.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
