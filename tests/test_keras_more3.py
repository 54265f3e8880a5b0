"""Keras 3.15's ``keras.ops.image`` warps and filters against Keras on TensorFlow
(tests/fixtures/keras_more3.json, recorded by tools/record_keras_more3.py from
tests/keras_more3_cases.py): values, dtypes, shapes, errors and gradients."""
import json
import os

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras

import keras_more3_cases as cases

with open(os.path.join(os.path.dirname(__file__), "fixtures", "keras_more3.json")) as _f:
    FIXTURE = json.load(_f)["cases"]

# Keras's own error for these names a Python set (its order differs from run to run): the text
# around the set is compared
SET_MESSAGES = {"scale_triangle", "scale_bad_method"}
# an index past the end in Keras's "mirror" rule: both raise InvalidArgumentError from the gather,
# whose message names the first bad index in an order of TensorFlow's kernel
TYPE_ONLY = {"map_linear_mirror"}
# deliberate differences (docs/differences.md): Keras 3.15 fails on these inputs by a slip of
# its own (a set read as a dict; an integer clip of a float image); tapegrad gives the clear
# ValueError, and the integer image's resampling (rounded, clipped to the input's range)
DIFFERS = {"map_bad_mode", "scale_int"}


def _close(got, want, what, coarse=False):
    assert got["shape"] == want["shape"], what
    assert got["dtype"] == want["dtype"], what
    g, w = np.asarray(got["value"], np.float64), np.asarray(want["value"], np.float64)
    scale = max(1.0, float(np.max(np.abs(w)))) if w.size else 1.0
    if want["dtype"] == "float64" and not coarse:   # a few float64 roundings a value
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12 * scale, err_msg=what)
    elif want["dtype"].startswith(("int", "uint")):   # integer results: the same integers
        np.testing.assert_array_equal(g, w, err_msg=what)
    else:   # float32: sums of up to ~100 products (filters, SSIM's moments) round at ~1e-7 each
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5 * scale, err_msg=what)


@pytest.mark.parametrize("name", sorted(set(cases.CASES) - DIFFERS))
def test_matches_keras(name):
    keras.utils.clear_session()
    got, want = cases.run(name, tf, keras), FIXTURE[name]
    if "error" in want:
        assert got.get("error") == want["error"], got
        if name in SET_MESSAGES:
            assert got["message"].split("{")[0] == want["message"].split("{")[0]
            assert got["message"].split("}")[-1] == want["message"].split("}")[-1]
        elif name not in TYPE_ONLY:
            assert got["message"] == want["message"]
        return
    assert "error" not in got, got
    # ImageProjectiveTransformV3 takes float32 transforms and computes its coordinates and
    # weights in float32 whatever the image's dtype: float32 tolerances for those warps
    coarse = cases.CASES[name][0] in ("affine_transform", "perspective_transform")
    _close(got["out"], want["out"], "output", coarse)
    assert got.get("symbolic_shape") == want.get("symbolic_shape")
    assert len(got.get("grads", [])) == len(want.get("grads", []))
    for i, (g, w) in enumerate(zip(got.get("grads", []), want.get("grads", []))):
        _close(g, w, f"gradient {i}", coarse)


def test_differences():
    got = cases.run("map_bad_mode", tf, keras)
    assert got["error"] == "ValueError" and "fill_mode=x" in got["message"]
    got = cases.run("scale_int", tf, keras)["out"]
    assert got["dtype"] == "int32" and got["shape"] == [3, 3]
    x = cases.CASES["scale_int"][1][0]
    assert x.min() <= np.min(got["value"]) and np.max(got["value"]) <= x.max()


def test_affine_gradient_is_tensorflows():
    # TensorFlow's gradient of ImageProjectiveTransformV3: the incoming gradient warped by the
    # inverse transform (not the warp's exact adjoint); a pure translation inverts exactly
    x = tf.constant(np.arange(12, dtype="float32").reshape(1, 3, 4, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = keras.ops.image.affine_transform(x, [1, 0, 1, 0, 1, 0, 0, 0])
    g = tape.gradient(y, x).numpy()[0, :, :, 0]
    np.testing.assert_array_equal(g, [[0, 1, 1, 1]] * 3)


def test_elastic_seed_generator_moves_on():
    gen = keras.random.SeedGenerator(3)
    x = np.random.RandomState(0).uniform(size=(6, 6, 1)).astype("float32")
    a = keras.ops.image.elastic_transform(x, alpha=4.0, sigma=1.0, seed=gen).numpy()
    b = keras.ops.image.elastic_transform(x, alpha=4.0, sigma=1.0, seed=gen).numpy()
    assert not np.array_equal(a, b)


def test_in_tf_function():
    f = tf.function(lambda x: keras.ops.image.gaussian_blur(x, (3, 3), (1.0, 1.0)))
    x = np.random.RandomState(0).uniform(size=(1, 5, 5, 2)).astype("float32")
    np.testing.assert_allclose(f(tf.constant(x)).numpy(), keras.ops.image.gaussian_blur(x).numpy(), rtol=1e-6)


DISTILL = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "keras_more3.json")))["distill"]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", sorted(cases.DISTILL))
def test_distiller_matches_keras(name):
    keras.utils.clear_session()
    got, want = cases.run_distill(name, tf, keras), DISTILL[name]
    if "error" in want:
        assert (got.get("error"), got.get("message")) == (want["error"], want["message"])
        return
    assert "error" not in got, got
    # six float32 SGD steps of small models: each step's loss and update round at ~1e-7
    # relative; 1e-5 leaves room for the steps to compound
    assert sorted(got["history"]) == sorted(want["history"])
    for k, v in want["history"].items():
        np.testing.assert_allclose(got["history"][k], v, rtol=1e-5, atol=1e-6, err_msg=k)
    for g, w in zip(got["student"], want["student"]):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got["predict"], want["predict"], rtol=1e-5, atol=1e-6)
    assert got["teacher_unchanged"] and want["teacher_unchanged"]


def test_distillation_loss_configs():
    d = keras.distillation.LogitsDistillation(temperature=2.0, loss="categorical_crossentropy")
    again = keras.distillation.LogitsDistillation.from_config(d.get_config())
    assert again.temperature == 2.0
    f = keras.distillation.FeatureDistillation(loss="mae", teacher_layer_name="a", student_layer_name="b")
    again = keras.distillation.FeatureDistillation.from_config(f.get_config())
    assert (again.teacher_layer_name, again.student_layer_name) == ("a", "b")
    with pytest.raises(NotImplementedError):
        keras.distillation.DistillationLoss().compute_loss(1.0, 1.0)


MUON = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "keras_more3.json")))["muon"]


@pytest.mark.parametrize("name", sorted(cases.MUON))
def test_muon_matches_keras(name):
    keras.utils.clear_session()
    got, want = cases.run_muon(name, tf, keras), MUON[name]
    # four float32 steps; the Newton-Schulz products (5 matmuls a step) sum in another order
    # than TensorFlow's, ~1e-7 relative each, compounding over the steps: 2e-5
    np.testing.assert_allclose(got["history"], want["history"], rtol=2e-5)
    for g, w in zip(got["weights"], want["weights"]):
        np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-6)


def test_muon_config_round_trip():
    opt = keras.optimizers.Muon(learning_rate=0.01, exclude_layers=["head"], rms_rate=None)
    again = keras.optimizers.Muon.from_config(opt.get_config())
    assert again.get_config() == opt.get_config()
    assert keras.optimizers.deserialize(keras.optimizers.serialize(opt)).exclude_layers == ["head"]


MULTI = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "keras_more3.json")))["multi"]


@pytest.mark.parametrize("name", cases.MULTI)
def test_multi_optimizer_matches_keras(name):
    keras.utils.clear_session()
    got, want = cases.run_multi(name, tf, keras), MULTI[name]
    # four float32 steps of SGD, Adam and RMSprop on a small model: ~1e-7 relative a step
    np.testing.assert_allclose(got["history"], want["history"], rtol=1e-5)
    for g, w in zip(got["weights"], want["weights"]):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    for k in ("iterations", "inner_iterations", "n_variables", "lr_error"):
        assert got[k] == want[k], k


def test_optimizer_map_rules():
    m = keras.optimizers.OptimizerMap(keras.optimizers.SGD())
    m["a/.*"] = keras.optimizers.Adam()
    m[".*/b"] = keras.optimizers.RMSprop()
    with pytest.raises(ValueError, match="Multiple optimizers"):
        m["a/b"]
    with pytest.raises(ValueError, match="already exists"):
        m["a/.*"] = keras.optimizers.SGD()
    with pytest.raises(ValueError, match="cannot be MultiOptimizer"):
        m["c"] = keras.optimizers.MultiOptimizer(m)
    with pytest.raises(TypeError, match="default_optimizer"):
        keras.optimizers.OptimizerMap("sgd")
    opt = keras.optimizers.MultiOptimizer(m, name="multi")
    again = keras.optimizers.MultiOptimizer.from_config(opt.get_config())
    assert sorted(again._optimizer_map) == [".*/b", "a/.*"] and again.name == "multi"


def test_dtype_policy_map_matches_keras():
    want = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "keras_more3.json")))["policy_map"]
    got = json.loads(json.dumps(cases.run_policy_map(tf, keras)))
    assert got == want


def test_functional_construction_draws_as_keras():
    # Keras builds a functional model by running call once on symbolic tensors: NumPy's and
    # Python's generators move on by that one run's draws, a SeedGenerator does not advance
    want = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "keras_more3.json")))["construction"]
    keras.utils.clear_session()
    got = cases.run_construction(tf, keras)
    assert got["after_construction"] == want["after_construction"]
    assert got["state"] == want["state"] and got["state_after_call"] == want["state_after_call"]
    np.testing.assert_allclose(got["call"], want["call"], rtol=1e-6, atol=1e-6)
