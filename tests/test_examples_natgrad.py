"""examples/natural_gradients.py prints what TensorFlow with GPflow prints for the seed question."""
import importlib.util
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = os.path.join(os.path.dirname(HERE), "examples", "natural_gradients.py")


def _load():
    spec = importlib.util.spec_from_file_location("natural_gradients", PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_natural_gradient_example_matches_tensorflow_gpflow() -> None:
    out = _load().main(verbose=False)
    np.testing.assert_allclose(out["dL_deta1"], np.array(
        [[-0.62545], [-0.106086], [-0.159664], [-0.192574], [-0.100498]]), atol=1e-5)
    np.testing.assert_allclose(out["dL_deta2"], 0.5 * np.eye(5)[None], atol=1e-5)
    assert out["dL_deta2"].shape == (1, 5, 5)
    np.testing.assert_allclose(out["dtheta_deta1"], np.full((5, 1), -0.767571), atol=1e-5)
    np.testing.assert_allclose(out["dtheta_deta2"], np.full((1, 5, 5), 0.5), atol=1e-5)
    assert all(v.dtype == np.float64 for v in out.values())


def test_output_gradients_is_not_an_elementwise_product() -> None:
    mod = _load()
    out = mod.main(verbose=False)
    mu = np.array([0.93350756, 0.15833747, 0.23830378, 0.28742445, 0.14999759])
    naive = out["dtheta_deta1"].ravel() * 0.33 * mu
    assert not np.allclose(naive, out["dL_deta1"].ravel())
    # the chain rule: d mu / d eta1 = I, and eta1 enters L through eta2 - eta1 eta1^T
    np.testing.assert_allclose(out["dL_deta1"].ravel(), 0.33 * mu - mu, atol=1e-12)
    np.testing.assert_allclose(out["dtheta_deta1"].ravel(), 1.0 - mu.sum(), atol=1e-12)
