"""Record Keras 3.15 / TensorFlow 2.21's ``keras.ops.image.resize`` of integer images (bilinear:
TF's float32 kernel, then Keras's round and cast back), whose values at exact halves depend on
the kernel's order of operations. Run with a Python that has TensorFlow installed:

    $TAPEGRAD_TF_PYTHON tools/record_tf_resize_ints.py

Writes ``tests/fixtures/tf_resize_ints.npz``: per case ``i``, ``image_i`` and ``resized_i``.
"""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "tf_resize_ints.npz")
CASES = [((32, 32), (24, 24)), ((5, 7), (9, 4)), ((4, 4), (8, 8)), ((10, 3), (3, 10)), ((1, 5), (3, 2))]


def main():
    import numpy as np
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import quiet_tensorflow
    quiet_tensorflow()
    import keras
    rng = np.random.RandomState(0)
    out = {}
    for i, (hw, size) in enumerate(CASES):
        img = rng.randint(0, 256, (2, *hw, 3)).astype(np.uint8)
        out[f"image_{i}"] = img
        out[f"resized_{i}"] = keras.ops.convert_to_numpy(keras.ops.image.resize(img, size))
    np.savez_compressed(FIXTURE, **out)
    print(f"wrote {FIXTURE}: {len(CASES)} cases")


if __name__ == "__main__":
    main()
