"""tnp.experimental_enable_numpy_behavior: NumPy's dtype promotion in the tensor operators (TF's
"legacy" dtype conversion mode), prefer_float32 in tnp's inference, and "off"; every case checked
against TensorFlow 2.21's result dtype and value, or its error (tests/fixtures/numpy_behavior.json,
recorded by tools/record_numpy_behavior.py). The mode is process-wide: each test restores it."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

import tapegrad as tf
import tapegrad.experimental.numpy as tnp
from tapegrad.experimental import _numpy_style as numpy_style
from tapegrad.ops import indexing

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "numpy_behavior.json"), encoding="utf-8") as _fh:
    CASES = json.load(_fh)["cases"]
MODES = {"legacy": {}, "legacy_f32": {"prefer_float32": True},
         "off": {"dtype_conversion_mode": "off"}}


@pytest.fixture
def numpy_mode():
    def enter(mode):
        tnp.experimental_enable_numpy_behavior(**MODES[mode])
    yield enter
    tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="off")
    indexing.numpy_style = False  # (TF has no way back; tapegrad's tests need one)


def _outcome(src):
    try:
        r = eval(src, {"tf": tf, "np": np, "tnp": tnp})  # noqa: S307  (the fixture's own expressions)
    except (TypeError, ValueError, tf.errors.InvalidArgumentError, tf.errors.UnimplementedError,
            NotImplementedError) as e:
        return {"error": type(e).__name__}
    if isinstance(r, tf.DType):
        return {"dtype": r.name}
    if isinstance(r, (np.dtype, type)):
        return {"dtype": tf.as_dtype(r).name}
    if isinstance(r, bool):
        return {"python": r}
    if isinstance(r, np.ndarray):
        return {"ndarray": r.dtype.name, "value": r.tolist()}
    return {"dtype": r.dtype.name, "value": np.asarray(r.numpy()).tolist()}


@pytest.mark.parametrize("mode", list(MODES))
def test_operators_promote_as_tensorflow(mode, numpy_mode):
    numpy_mode(mode)
    wrong = []
    for case in (c for c in CASES if c["mode"] == mode):
        got = _outcome(case["src"])
        want = {k: v for k, v in case.items() if k not in ("mode", "src")}
        if "error" in want:  # (TF's kernels and quirks refuse some pairs tapegrad computes: uint8
            continue          # powers, a variable on the right of <, bools to uint8; docs/differences.md)
        ok = "error" not in got and set(got) == set(want) and all(got[k] == want[k] for k in want if k != "value")
        if ok and "value" in want:
            ok = np.allclose(np.asarray(got["value"], float), np.asarray(want["value"], float),
                             rtol=1e-6 if "32" in str(want.get("dtype")) else 1e-12, equal_nan=True)
        if not ok:
            wrong.append(f"{case['src']}: {got} (TensorFlow {want})")
    assert not wrong, f"{len(wrong)} cases differ:\n" + "\n".join(wrong[:40])


def test_promotion_is_differentiable_and_functions_stay_strict(numpy_mode):
    numpy_mode("legacy")
    x = tf.constant([1.0, 2.0], tf.float32)
    w = tf.Variable([3.0, 4.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * w)
    assert y.dtype == tf.float64
    gx, gw = tape.gradient(y, [x, w])
    assert gx.dtype == tf.float32 and gw.dtype == tf.float64
    np.testing.assert_allclose(gx.numpy(), [3.0, 4.0])
    np.testing.assert_allclose(gw.numpy(), [1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.add(tf.constant(1, tf.int32), tf.constant(1, tf.int64))
    assert (tf.constant([1, 2]) == None) is False and (tf.constant([1, 2]) != None) is True  # noqa: E711


def test_misspelt_modes_are_errors(numpy_mode):
    with pytest.raises(ValueError, match="one of"):
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="numpy")
    with pytest.raises(ValueError, match="one of"):  # (TF's modes are lower case only)
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="ALL")
    assert numpy_style.mode() == "off"


def test_numpy_style_indexing_scatters_the_gradient_back(numpy_mode):
    numpy_mode("legacy")
    x = tf.constant(np.arange(12.0).reshape(3, 4))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x[[0, 0, 2], (1, 3, 3)] * tf.constant([1.0, 2.0, 3.0], tf.float64))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(),
                                  [[0, 1, 0, 2], [0, 0, 0, 0], [0, 0, 0, 3]])
    assert x[1:, 2].shape == (2,)  # (basic keys stay strided slices)
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
        x[[0, 3]]


def test_tnp_random_draws_tensorflows_numbers():
    tnp.random.seed(7)
    for case in (c for c in CASES if c["mode"] == "random"):
        got = _outcome(case["src"])
        assert got["dtype"] == case["dtype"], case["src"]
        if "value" in case:
            np.testing.assert_allclose(np.asarray(got["value"], float), np.asarray(case["value"], float),
                                       rtol=1e-12, err_msg=case["src"])
    with pytest.raises(ValueError, match="Only those convertible"):
        tnp.random.randint(3, dtype=np.int16)


def test_promoted_operands_replay_in_a_trace(numpy_mode):
    # the operators' promotion makes constants of Python numbers (audited), so a tf.function with
    # `x * 2.0 + 1` under NumPy behaviour replays its trace rather than running eagerly
    import warnings
    numpy_mode("legacy")
    f = tf.function(lambda x: x * 2.0 + 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for v in (1.0, 2.0, 3.0):
            np.testing.assert_allclose(f(tf.constant([v], tf.float32)).numpy(), [2 * v + 1])
    assert f.experimental_get_tracing_count() == 1


def test_tnp_asarray_of_python_values_replays_in_a_trace():
    import warnings
    f = tf.function(lambda x: x * tnp.asarray([2.0, 3.0], dtype=tnp.float32) + tnp.asarray(1.0, tnp.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for v in (1.0, 2.0):
            np.testing.assert_allclose(f(tf.constant([v, v])).numpy(), [2 * v + 1, 3 * v + 1])
    assert f.experimental_get_tracing_count() == 1
