"""The rest of the commonly used tf.* surface (tf.losses/tf.metrics, scatters, partitions,
histograms, searchsorted, bitcast, tf.nn extras, sqrtm, tf.gradients): TensorFlow 2.21's numbers,
dtypes, errors and gradients, recorded by tools/record_tf_surface_names.py."""
from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import _missing

ENV = {"tf": tf, "np": np, "tnp": tf.experimental.numpy}
FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "tf_surface_names.json").read_text())


def _encode(v):
    if isinstance(v, tf.Tensor):
        a = v.numpy()
        return {"dtype": v.dtype.name, "shape": list(a.shape), "value": a.tolist()}
    if isinstance(v, tf.TensorShape):
        return {"shape_object": v.as_list()}
    if isinstance(v, (list, tuple)):
        return [_encode(x) for x in v]
    return {"python": repr(v)}


def _same(got, want):
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    assert got.keys() == want.keys()
    if "value" not in want:
        assert got == want
        return
    assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"])
    tol = 1e-5 if want["dtype"] in ("float32", "float16") else 1e-12
    np.testing.assert_allclose(np.asarray(got["value"], float), np.asarray(want["value"], float),
                               rtol=tol, atol=tol)


@pytest.mark.parametrize("code", sorted(FIXTURE["values"]))
def test_values_dtypes_and_errors_match_tensorflow(code):
    kind, want = FIXTURE["values"][code]
    if kind != "ok":
        with pytest.raises(Exception) as e:
            eval(code, ENV)  # noqa: S307  (the fixture's own case strings)
        assert type(e.value).__name__ == kind, str(e.value)
        assert str(e.value), "an error says what was wrong"
        return
    _same(_encode(eval(code, ENV)), want)  # noqa: S307


@pytest.mark.parametrize("key", sorted(FIXTURE["grads"]))
def test_gradients_match_tensorflow(key):
    code, args = key.split(" @ ")
    want = FIXTURE["grads"][key]
    xs = [tf.constant(np.asarray(a, np.float64)) for a in json.loads(args)]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = eval(code, ENV)(*xs)  # noqa: S307
        loss = tf.reduce_sum(tf.sin(y))
    tol = 1e-5 if y.dtype == tf.float32 else 1e-9
    np.testing.assert_allclose(y.numpy(), np.asarray(want["value"]), rtol=tol, atol=tol)
    for g, w in zip(tape.gradient(loss, xs), want["grads"]):
        np.testing.assert_allclose(tf.convert_to_tensor(g).numpy(), np.asarray(w), rtol=tol, atol=tol)


def test_tf_losses_and_tf_metrics_are_the_keras_modules():
    assert tf.losses is tf.keras.losses and tf.metrics is tf.keras.metrics
    assert tf.losses.Reduction is tf.keras.losses.Reduction


def test_gradients_raise_inside_tf_function_too():
    @tf.function
    def f(x):
        return tf.gradients(x * x, x)

    with pytest.raises(RuntimeError, match="Use tf.GradientTape instead"):
        f(tf.constant(1.0))


def test_inside_function_is_true_while_tracing():
    seen = []

    @tf.function
    def f(x):
        seen.append(tf.inside_function())
        return x + 1

    f(tf.constant(1.0))
    assert seen and all(seen) and not tf.inside_function()


@pytest.mark.parametrize("ns,typo,hint", [("signal", "rfftt", "'rfft'"), ("image", "resiz", "'resize'")])
def test_signal_and_image_typos_give_attribute_errors_with_a_hint(ns, typo, hint):
    with pytest.raises(AttributeError, match=f"Did you mean: {hint}"):
        getattr(getattr(tf, ns), typo)


def test_a_signal_name_tapegrad_lacks_points_to_the_guide():
    with pytest.raises(AttributeError, match="does not cover tf.signal.fftnd yet") as e:
        _ = tf.signal.fftnd
    assert _missing.GUIDE in str(e.value)


def test_scatter_max_splits_the_gradient_between_ties_as_tensorflow():
    t, u = tf.constant([1.0, 0.0]), tf.constant([1.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch([t, u])
        y = tf.tensor_scatter_nd_max(t, [[0], [0]], u)
    gt, gu = tape.gradient(y, [t, u])
    np.testing.assert_allclose(gt.numpy(), [1 / 3, 1.0])
    np.testing.assert_allclose(gu.numpy(), [1 / 3, 1 / 3])


def test_compute_average_loss_divides_by_the_replicas_in_sync():
    strategy = tf.distribute.get_strategy()
    assert strategy.num_replicas_in_sync == 1
    assert float(tf.nn.compute_average_loss(tf.ones([4]) * 2.0)) == 2.0
    assert "compute_average_loss" in dir(tf.nn)


def test_bad_arguments_say_what_to_do():
    with pytest.raises(ValueError, match="side must be 'left' or 'right'"):
        tf.searchsorted([1.0], [1.0], side="middle")
    with pytest.raises(ValueError, match="seq_axis"):
        tf.reverse_sequence(tf.zeros([2, 3]), [1, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have sorted_sequence's dtype"):
        tf.searchsorted([1.0], [1])
    with pytest.raises(ValueError, match="as many index tensors as data tensors"):
        tf.dynamic_stitch([[0]], [])


def test_numpy_module_follows_numpy_where_tensorflow_has_bugs():
    tnp = tf.experimental.numpy
    x = np.array([[1.0, 2.0, 4.0], [0.0, 0.5, 3.0]])
    np.testing.assert_allclose(tnp.var(x, axis=1, ddof=1).numpy(), np.var(x, axis=1, ddof=1))
    np.testing.assert_allclose(tnp.around(tnp.asarray([0.125, 2.5]), 2).numpy(), np.around([0.125, 2.5], 2))
    assert tnp.sqrt(tnp.asarray([4])).dtype == tf.float64  # (TensorFlow 2.21 raises AttributeError)
    assert tnp.zeros(2, dtype=float).dtype == tf.float64 and tnp.ones(1, int).dtype == tf.int64


def test_numpy_behavior_adds_array_methods_to_tensors():
    code = ("import tapegrad as tf, tapegrad.experimental.numpy as tnp\n"
            "tnp.experimental_enable_numpy_behavior()\n"
            "x = tnp.asarray([[1, 2], [3, 4]])\n"
            "assert x.T.numpy().tolist() == [[1, 3], [2, 4]] and x.tolist() == [[1, 2], [3, 4]]\n"
            "assert x.reshape(4).shape == (4,) and x.reshape(1, 4).shape == (1, 4) and x.size == 4\n"
            "assert x.astype(tf.float32).dtype == tf.float32 and float(x.mean()) == 2.5\n"
            "assert int(x.max()) == 4 and x.ravel().shape == (4,) and x.transpose().shape == (2, 2)\n")
    import subprocess
    import sys
    subprocess.run([sys.executable, "-c", code], check=True, cwd=pathlib.Path(__file__).parent.parent)
