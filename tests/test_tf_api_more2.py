"""More late-added tf.* names against TensorFlow 2.21's recorded results (tools/record_tf_api_more2.py,
cases in tests/tf_api_more2_cases.py), and the behaviour TensorFlow leaves to us."""
import json
from pathlib import Path

import pytest

import tapegrad as tf
import tapegrad.experimental.numpy as tnp
import tf_api_more2_cases as cases
from tapegrad.ops import indexing
from test_sparse import matches

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "tf_api_more2.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_matches_tensorflow(name):
    got, want = cases.run(cases.CASES[name], tf), RECORDED["cases"][name]
    matches(name, got, want, cases.MESSAGES)


@pytest.fixture
def numpy_behavior():
    tnp.experimental_enable_numpy_behavior()
    yield
    tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="off")
    indexing.numpy_style = False  # (TF has no way back; tapegrad's tests need one)


@pytest.mark.parametrize("name", sorted(cases.NUMPY))
def test_numpy_matches_tensorflow(name, numpy_behavior):
    got, want = cases.run(cases.NUMPY[name], tf), RECORDED["numpy"][name]
    matches(name, got, want, cases.MESSAGES)


def test_every_case_is_recorded():
    assert sorted(RECORDED["cases"]) == sorted(cases.CASES)
    assert sorted(RECORDED["numpy"]) == sorted(cases.NUMPY)
    assert set(cases.MESSAGES) <= set(cases.CASES) | set(cases.NUMPY)


def test_numpy_log_functions_keep_float32():
    """TF's tnp.logaddexp2 of float32 is float64 under NumPy behavior (a NumPy float64 divisor);
    tapegrad keeps NumPy's float32 (docs/differences.md). The values agree to float32 round-off."""
    import numpy as np
    x = np.float32([-2.5, 0.0, 3.0])
    got = tnp.logaddexp2(tf.constant(x), np.float32(1.0))
    assert got.dtype == tf.float32
    np.testing.assert_allclose(got.numpy(), np.logaddexp2(x, np.float32(1.0)), rtol=1e-6)


def test_dilated_depthwise_backprops_are_the_gradients():
    """TF's oneDNN kernel refuses dilations here (docs/differences.md); tapegrad's are the
    gradients of the dilated depthwise convolution, exactly (the same kernels)."""
    import numpy as np
    x, w = tf.constant(cases._rand([2, 5, 6, 3], 0)), tf.constant(cases._rand([3, 2, 3, 2], 1))
    with tf.GradientTape(persistent=True) as t:
        t.watch([x, w])
        y = tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID", dilations=[2, 1])
    g = tf.constant(cases._rand(list(y.shape), 2))
    gx, gw = t.gradient(y, [x, w], output_gradients=g)
    bi = tf.nn.depthwise_conv2d_backprop_input([2, 5, 6, 3], w, g, [1, 1, 1, 1], "VALID", dilations=[1, 2, 1, 1])
    bf = tf.nn.depthwise_conv2d_backprop_filter(x, [3, 2, 3, 2], g, [1, 1, 1, 1], "VALID", dilations=[1, 2, 1, 1])
    np.testing.assert_allclose(bi.numpy(), gx.numpy(), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(bf.numpy(), gw.numpy(), rtol=1e-6, atol=1e-6)
