"""Run every example in examples/ in its short mode (``--quick``) and check what it computes."""
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


def load(name):
    spec = importlib.util.spec_from_file_location(f"example_{name}", os.path.join(EXAMPLES, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_quickstart_prints_the_seed_numbers(capsys):
    out = load("quickstart").main(["--quick"])
    np.testing.assert_allclose(out["xentropy"], [0.6881597, 0.71584916], rtol=1e-6)
    # TensorFlow 2's numbers for the same program
    np.testing.assert_allclose(out["grads"][0], [[0.20586157, -0.20586154], [0.2607238, -0.26072377]],
                               rtol=1e-6)
    for full, reduced in zip(out["grads"], out["grads_reduced"]):
        np.testing.assert_allclose(reduced, 0.5 * full, rtol=1e-6)
    assert out["jacobian"].shape == (2, 2, 2)
    printed = capsys.readouterr().out
    assert "[0.6882 0.7158]" in printed and "0.702" in printed  # rounded: no last-bit dependence


def test_quickstart_runs_as_a_script():
    res = subprocess.run([sys.executable, os.path.join(EXAMPLES, "quickstart.py"), "--quick"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "xentropy: [0.6882 0.7158]" in res.stdout


def test_mlp_digits(tmp_path):
    pytest.importorskip("sklearn")
    pytest.importorskip("matplotlib")
    pytest.importorskip("tqdm")
    plot, weights = tmp_path / "loss.png", tmp_path / "weights.npz"
    out = load("mlp_digits").main(["--quick", "--no-progress", "--plot", str(plot),
                                   "--save", str(weights)])
    assert len(out["train_loss"]) == 5
    assert out["train_loss"][-1] < out["train_loss"][0]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with np.load(weights, allow_pickle=False) as data:
        assert sorted(data.files) == ["layers/0/b", "layers/0/w", "layers/1/b", "layers/1/w",
                                      "layers/2/b", "layers/2/w"]


def test_mlp_digits_writes_its_plot_to_the_current_directory_not_the_docs(tmp_path, monkeypatch):
    pytest.importorskip("sklearn")
    pytest.importorskip("matplotlib")
    pytest.importorskip("tqdm")
    docs_image = os.path.join(os.path.dirname(EXAMPLES), "docs", "images", "mlp_digits_loss.png")
    before = open(docs_image, "rb").read()
    monkeypatch.chdir(tmp_path)
    load("mlp_digits").main(["--quick", "--no-progress"])
    assert (tmp_path / "mlp_digits_loss.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert open(docs_image, "rb").read() == before


def test_gp_regression(tmp_path):
    out = load("gp_regression").main(["--quick"])
    assert out["gradient_error"] < 1e-6
    assert len(out["nll"]) == 6 and out["nll"][-1] < out["nll"][0]
    assert np.all(out["variance"] > 0)


def test_gp_regression_plot(tmp_path):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "gp.png"
    load("gp_regression").main(["--quick", "--plot", str(plot)])
    assert plot.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("problem", ["logistic", "rosenbrock"])
@pytest.mark.parametrize("hvp", ["forward-over-reverse", "reverse-over-reverse"])
def test_newton_hvp(problem, hvp):
    out = load("newton_hvp").main(["--quick", "--problem", problem, "--hvp", hvp])
    assert out["hvp_error"] < 1e-10
    values = [v for v, _ in out["history"]]
    assert len(values) == 2 and values[1] < values[0]


def test_newton_converges_quadratically_on_logistic_regression():
    out = load("newton_hvp").main(["--iters", "20"])
    grad_norms = [g for _, g in out["history"]]
    assert grad_norms[-1] < 1e-10 and len(grad_norms) <= 10


def test_cnn_digits(tmp_path):
    pytest.importorskip("sklearn")
    pytest.importorskip("tqdm")
    import tapegrad as tf

    if not hasattr(tf.nn, "conv2d"):
        pytest.skip("tf.nn.conv2d is not available")
    out = load("cnn_digits").main(["--quick", "--no-progress", "--plot", ""])
    assert len(out["train_loss"]) == 5
    assert out["train_loss"][-1] < out["train_loss"][0]
    shapes = [tuple(v.shape) for v in out["model"].trainable_variables]
    assert shapes == [(8,), (3, 3, 1, 8), (16,), (3, 3, 8, 16), (10,), (64, 10)]


def test_keras_digits():
    pytest.importorskip("sklearn")
    out = load("keras_digits").main(["--quick", "--verbose", "0"])
    assert sorted(out["history"]) == ["accuracy", "loss", "val_accuracy", "val_loss"]
    assert out["test_accuracy"] > 0.2  # one epoch on 512 images already beats chance (0.1)
    assert out["model"].count_params() == 16 * 9 + 16 + 32 * 16 * 9 + 32 + 2 * 2 * 32 * 10 + 10


def test_data_function_loop():
    out = load("data_function_loop").main(["--quick"])
    assert len(out["history"]) == 2
    assert out["history"][-1][0] < out["history"][0][0]          # the training loss goes down
    assert out["calls"] == 14 and out["signatures"] == 2           # 7 batches a epoch; TF counts 2 traces
    # (its first call creates the optimizer's variables: TensorFlow 2.21 traces it twice)
    assert out["python_runs"] == 2                                  # 64 rows and the last 16 (docs/differences.md)


def test_mirrored_strategy_follows_the_single_process_run():
    pytest.importorskip("dask")
    pytest.importorskip("distributed")
    out = load("mirrored_strategy").main(["--quick"])
    # the replicas' summed gradients of the global-batch mean are the one process's gradients,
    # up to float32 rounding of sums taken in another order
    np.testing.assert_allclose(out["mirrored_loss"], out["single_loss"], rtol=1e-5)
    assert out["weight_gap"] < 1e-5


def test_dask_out_of_core():
    pytest.importorskip("dask")
    out = load("dask_out_of_core").main(["--quick"])
    assert out["gradient_check"] < 1e-12                          # float64: the same sums, chunked
    assert out["passes"] <= 7 and out["loss"] < np.log(2)         # below the loss at w = 0
    assert out["correlation"] > 0.9


def test_scipy_optimize_with_exact_derivatives():
    out = load("scipy_optimize").main(["--quick"])
    assert out["derivative_error"] < 1e-12                        # float64 against SciPy's formulas
    runs = out["rosenbrock"]
    for name, run in runs.items():
        # (finite differences may end on SciPy's "precision loss" short of success, near the minimum)
        assert (run["success"] or "finite differences" in name) and run["error"] < 1e-3, name
    # exact gradients need far fewer evaluations than finite differences
    assert runs["BFGS, exact gradient"]["evaluations"] * 3 < runs["BFGS, finite differences"]["evaluations"]
    decay = out["decay"]
    np.testing.assert_allclose(decay["theta"], decay["truth"], atol=0.05)
    # the Jacobian against central differences
    import tapegrad as tf

    theta, h = np.array([2.0, 1.0, 0.3]), 1e-6
    fd = np.stack([(decay["residuals"](tf.constant(theta + e)).numpy()
                    - decay["residuals"](tf.constant(theta - e)).numpy()) / (2 * h)
                   for e in np.eye(3) * h], axis=1)
    np.testing.assert_allclose(decay["jacobian"](theta), fd, rtol=1e-6, atol=1e-8)
