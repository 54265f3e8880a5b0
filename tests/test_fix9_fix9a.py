"""What the ninth unseen set showed, against TensorFlow 2.21 / Keras 3.15's recorded results
(tools/record_fix9_fix9a.py, cases in tests/fix9_fix9a_cases.py): max pooling over the depth
axis, Keras 3's automatic get_config (a subclassed model's holds its __init__ defaults), the
names and paths of metric, layer and optimizer variables, and a functional model's one output
given as a list."""
import json
from pathlib import Path

import numpy as np
import pytest

import fix9_fix9a_cases as fc
import tapegrad as tf

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "fix9_fix9a.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(fc.CASES))
def test_matches_tensorflow(name):
    got, want = json.loads(json.dumps(fc.CASES[name](tf))), RECORDED["cases"][name]
    assert sorted(got) == sorted(want)
    for k, w in want.items():
        if name == "depth_max_pool" and k != "float64_dtype":
            # a maximum picks one of the inputs: exact
            np.testing.assert_array_equal(np.asarray(got[k]), np.asarray(w), err_msg=f"{name}: {k}")
        else:
            assert got[k] == w, (name, k)


def test_every_case_is_recorded():
    assert sorted(RECORDED["cases"]) == sorted(fc.CASES)


def test_depth_max_pool_gradient_is_reduce_max_s():
    # TensorFlow has no gradient here (MaxPoolGrad: "not yet supported on the depth dimension");
    # tapegrad's is reduce_max's over each group of channels (docs/differences.md)
    x = tf.constant([[[[1.0, 3.0, 3.0, 2.0]]]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool(x, (1, 1, 1, 2), (1, 1, 1, 2), "VALID")
    np.testing.assert_array_equal(tape.gradient(y, x).numpy().ravel(), [0, 1, 1, 0])
