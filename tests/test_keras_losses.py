"""tapegrad.keras.losses against Keras 3.15's numbers (recorded by tools/record_keras_losses.py):
every loss class with its options x reduction x sample_weight, the value and its gradient with
respect to y_pred; the functions; the generic gradient checker on each loss function; get,
serialize, deserialize and the errors and the warning for logits given as probabilities."""
from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import tapegrad as tf
import tf_compare
from tapegrad.keras import losses

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "keras_losses.json")
DATA = tf_compare.load_fixture("keras_losses.json")


def _id(c):
    kw = ",".join(f"{k}={v}" for k, v in c["kwargs"].items())
    return f"{c.get('class', c.get('fn'))}({kw})-{c.get('reduction', '')}-{c.get('weights', '')}"


@pytest.fixture(autouse=True)
def _quiet_logits_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("case", DATA["losses"], ids=_id)
def test_loss_class_value_and_gradient_match_keras(case):
    loss = getattr(losses, case["class"])(reduction=case["reduction"], **case["kwargs"])
    y_true = np.array(case["y_true"], case["y_true_dtype"])
    p = tf.Variable(np.array(case["y_pred"], np.float32))
    with tf.GradientTape() as tape:
        value = loss(y_true, p, sample_weight=case["sample_weight"])
    grad = tape.gradient(value, p)
    assert value.dtype == tf.float32
    tf_compare.assert_close(value.numpy(), case["value"], rtol=1e-5, atol=1e-6, err_msg="value")
    tf_compare.assert_close(grad.numpy(), case["grad"], rtol=1e-4, atol=1e-6, err_msg="gradient")


@pytest.mark.parametrize("case", DATA["loss_functions"], ids=_id)
def test_loss_function_value_and_gradient_match_keras(case):
    fn = getattr(losses, case["fn"])
    p = tf.Variable(np.array(case["y_pred"], np.float32))
    with tf.GradientTape() as tape:
        value = fn(tf.constant(np.array(case["y_true"], case["y_true_dtype"])), p, **case["kwargs"])
    grad = tape.gradient(value, p)
    tf_compare.assert_close(value.numpy(), case["value"], rtol=1e-5, atol=1e-6, err_msg="value")
    tf_compare.assert_close(grad.numpy(), case["grad"], rtol=1e-4, atol=1e-6, err_msg="gradient")


def test_every_loss_class_and_reduction_is_recorded():
    recorded = {(c["class"], c["reduction"], c["weights"]) for c in DATA["losses"]}
    for name in ("MeanSquaredError", "MeanAbsoluteError", "MeanAbsolutePercentageError",
                 "MeanSquaredLogarithmicError", "Huber", "LogCosh", "BinaryCrossentropy",
                 "BinaryFocalCrossentropy", "CategoricalCrossentropy", "CategoricalFocalCrossentropy",
                 "SparseCategoricalCrossentropy", "KLDivergence", "Poisson", "CosineSimilarity",
                 "Hinge", "SquaredHinge", "CategoricalHinge"):
        for reduction in ("sum_over_batch_size", "sum", "mean_with_sample_weight", None):
            for weights in ("none", "per_sample", "column"):
                assert (name, reduction, weights) in recorded


rng = np.random.default_rng(3)
_T = rng.normal(size=(3, 4))
_ONEHOT = np.eye(4)[[0, 3, 1]]
_P = rng.uniform(0.2, 0.8, size=(3, 4))
GRAD_CASES = {
    "mean_squared_error": (_T, {}),
    "mean_absolute_error": (_T, {}),
    "mean_absolute_percentage_error": (_T, {}),
    "mean_squared_logarithmic_error": (np.abs(_T), {}),
    "cosine_similarity": (_T, {}),
    "huber": (_T, {"delta": 0.7}),
    "log_cosh": (_T, {}),
    "hinge": (np.sign(_T), {}),
    "squared_hinge": (np.sign(_T), {}),
    "categorical_hinge": (_ONEHOT, {}),
    "kl_divergence": (_P / 2, {}),
    "poisson": (np.abs(_T), {}),
    "binary_crossentropy": ((_T > 0) * 1.0, {"label_smoothing": 0.1}),
    "binary_focal_crossentropy": ((_T > 0) * 1.0, {"apply_class_balancing": True}),
    "categorical_crossentropy": (_ONEHOT, {"label_smoothing": 0.1}),
    "categorical_focal_crossentropy": (_ONEHOT, {}),
    "sparse_categorical_crossentropy": (np.array([0, 3, 1]), {}),
}


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
@pytest.mark.parametrize("from_logits", [False, True])
def test_loss_function_derivatives_pass_the_generic_checker(name, from_logits):
    y_true, kwargs = GRAD_CASES[name]
    fn = getattr(losses, name)
    if "crossentropy" in name:
        kwargs = {**kwargs, "from_logits": from_logits}
    elif from_logits:
        pytest.skip("no from_logits")
    # away from the kinks (|error| = delta, hinge margins, clipping bounds)
    y_pred = _T * 1.3 + 0.05 if from_logits or name in ("mean_squared_error", "mean_absolute_error",
                                                         "mean_absolute_percentage_error", "cosine_similarity",
                                                         "huber", "log_cosh", "hinge", "squared_hinge",
                                                         "categorical_hinge") else _P
    tf.test.check_grads(lambda p: fn(tf.constant(y_true), p, **kwargs), [tf.constant(y_pred)], order=2)


def test_reductions_none_and_mean_and_shapes():
    y_true, y_pred = [[0.0, 1.0], [1.0, 1.0], [2.0, 0.0]], [[1.0, 1.0], [1.0, 0.0], [0.0, 0.0]]
    per_sample = losses.MeanSquaredError(reduction=None)(y_true, y_pred)
    np.testing.assert_allclose(per_sample.numpy(), [0.5, 0.5, 2.0])
    assert losses.MeanSquaredError(reduction="none")(y_true, y_pred).shape == (3,)
    np.testing.assert_allclose(losses.MeanSquaredError(reduction="mean")(y_true, y_pred).numpy(), 1.0)
    np.testing.assert_allclose(losses.MeanSquaredError(reduction="sum")(y_true, y_pred).numpy(), 3.0)


def test_class_casts_to_its_dtype_and_float64():
    y = np.array([[0.25, 0.5]])
    assert losses.MeanSquaredError()(y, y * 2).dtype == tf.float32
    assert losses.MeanSquaredError(dtype="float64")(y, y * 2).dtype == tf.float64
    assert losses.mean_squared_error(y, y * 2).dtype == tf.float64  # functions keep y_pred's dtype


def test_sparse_ignore_class_leaves_entries_out_of_the_mean():
    scce = losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=-1)
    logits = np.array([[2.0, 1.0], [0.5, 0.5], [1.0, 3.0]], np.float32)
    full = losses.sparse_categorical_crossentropy([0, 1, 1], logits, from_logits=True).numpy()
    got = scce(np.array([0, -1, 1]), logits).numpy()
    np.testing.assert_allclose(got, (full[0] + full[2]) / 2, rtol=1e-6)


def test_logits_without_from_logits_warn_once_and_give_keras_value():
    losses._warned_logits.clear()
    logits = np.array([[2.5, -1.0], [0.3, 4.0]], np.float32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = losses.BinaryCrossentropy()([[1.0, 0.0], [0.0, 1.0]], logits)
        losses.BinaryCrossentropy()([[1.0, 0.0], [0.0, 1.0]], logits)
    msgs = [str(w.message) for w in caught if "from_logits" in str(w.message)]
    assert len(msgs) == 1
    assert "binary_crossentropy" in msgs[0] and "from_logits=True" in msgs[0] and "min -1" in msgs[0]
    assert caught[0].filename == __file__  # at the user's line
    # Keras clips to [eps, 1 - eps]: the clipped entries give -log(eps) or 0
    eps = np.float32(1e-7)
    clipped = np.clip(logits, eps, 1 - eps)
    t = np.array([[1.0, 0.0], [0.0, 1.0]])
    expect = -(t * np.log(clipped) + (1 - t) * np.log(1 - clipped)).mean()
    np.testing.assert_allclose(value.numpy(), expect, rtol=1e-4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        losses.CategoricalCrossentropy()([[1.0, 0.0]], [[0.3, 0.7]])  # probabilities: no warning
    assert not caught


@pytest.mark.parametrize("cls", ["CategoricalCrossentropy", "SparseCategoricalCrossentropy"])
def test_categorical_logits_warn(cls):
    losses._warned_logits.clear()
    y_true = [[0.0, 1.0]] if cls.startswith("Categorical") else [1]
    with pytest.warns(UserWarning, match="look like logits"):
        getattr(losses, cls)()(y_true, [[-2.0, 3.0]])


def test_get_serialize_deserialize():
    assert losses.get("mse") is losses.mean_squared_error
    assert losses.get("binary_crossentropy") is losses.binary_crossentropy
    assert isinstance(losses.get("Huber"), losses.Huber)
    assert losses.get(None) is None
    loss = losses.get({"class_name": "CategoricalCrossentropy", "config": {"from_logits": True}})
    assert isinstance(loss, losses.CategoricalCrossentropy) and loss.from_logits
    huber = losses.Huber(delta=2.0, reduction="sum", name="h")
    again = losses.deserialize(losses.serialize(huber))
    assert (type(again), again.get_config()) == (losses.Huber, huber.get_config())
    assert losses.deserialize(losses.serialize(losses.poisson)) is losses.poisson
    with pytest.raises(ValueError, match="Did you mean 'mse'"):
        losses.get("mes")
    with pytest.raises(ValueError, match="reduction"):
        losses.MeanSquaredError(reduction="average")


def test_shape_errors_name_both_shapes():
    with pytest.raises(ValueError, match=r"y_true.shape=\(2, 3\), y_pred.shape=\(2, 4\)"):
        losses.categorical_crossentropy(np.zeros((2, 3)), np.ones((2, 4)) / 4)
    with pytest.raises(ValueError, match="without its last"):
        losses.sparse_categorical_crossentropy([0, 1, 2], np.ones((2, 4)) / 4)
    with pytest.raises(ValueError, match="axis"):
        losses.categorical_crossentropy([[0.0, 1.0]], [[0.5, 0.5]], axis=True)


def test_a_misspelt_name_gets_did_you_mean():
    with pytest.raises(AttributeError, match=r"Did you mean: 'mean_squared_error'\?"):
        losses.mean_sqared_error
    assert not hasattr(losses, "_private")
