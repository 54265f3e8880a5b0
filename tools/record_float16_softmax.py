"""Record TensorFlow's float16 softmax for tests/test_float16_softmax.py: TF's kernel computes a
float16 softmax in float32 and rounds once (issue #24, guide_mixed_precision).

    $TAPEGRAD_TF_PYTHON tools/record_float16_softmax.py

writes tests/fixtures/float16_softmax.npz: each case's float16 input and TF's output.
"""
import os

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "float16_softmax.npz")

# (shape, scale, axis)
CASES = {"rows": ((256, 64), 3.0, -1), "wide": ((8, 1000), 4.0, -1), "axis0": ((40, 7), 2.0, 0),
         "cube": ((4, 5, 6), 5.0, 1)}


def main():
    from _tf import quiet_tensorflow
    tf = quiet_tensorflow()
    rng = np.random.default_rng(0)
    out = {}
    for name, (shape, scale, axis) in CASES.items():
        x = (rng.normal(size=shape) * scale).astype(np.float16)
        out[f"{name}/x"] = x
        out[f"{name}/axis"] = np.array(axis)
        out[f"{name}/softmax"] = tf.nn.softmax(tf.constant(x), axis=axis).numpy()
    np.savez(FIXTURE, **out)
    print(f"wrote {len(CASES)} cases to {FIXTURE}")


if __name__ == "__main__":
    main()
