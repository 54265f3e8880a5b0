"""Record TensorFlow's results for the extension-type cases of tests/extension_type_cases.py.

    /root/tfenv/bin/python tools/record_extension_type.py

writes tests/fixtures/extension_type.json, which tests/test_extension_type.py compares tapegrad's
results with.
"""
import json
import pathlib
import sys

import tensorflow as tf

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import extension_type_cases  # noqa: E402

if __name__ == "__main__":
    tf.keras.utils.set_random_seed(0)
    out = extension_type_cases.run(tf)
    path = ROOT / "tests" / "fixtures" / "extension_type.json"
    path.write_text(json.dumps({"tensorflow": tf.__version__, "results": out}, indent=1, sort_keys=True) + "\n")
    print(f"wrote {path}")
