"""Robustness: failures stay contained, memory is released, NaN and Inf follow the math.

(The 1,000,000-op chain and the eight-thread test are in tests/test_tape.py.)
"""
from __future__ import annotations

import gc
import json
import os
import tracemalloc
import weakref

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import _recorders
from tapegrad._dispatch import REGISTRY
from tapegrad.errors import InvalidArgumentError


def _stack_is_clean() -> bool:
    return not _recorders.tls.stack


@pytest.fixture(autouse=True)
def _no_leftover_recorders():
    assert _stack_is_clean()
    yield
    assert _stack_is_clean(), "a recorder was left on this thread's stack"


class Boom(Exception):
    pass


def _raise(*args, **kwargs):
    raise Boom("deliberate failure in a rule")


# ----------------------------------------------------------------------------- failures
def test_forward_op_failure_leaves_tapes_usable() -> None:
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        y = x * x
        with pytest.raises(InvalidArgumentError, match="Incompatible shapes"):
            with tf.GradientTape() as inner:
                inner.watch(x)
                z = tf.sin(x)
                _ = z + tf.constant([1.0, 2.0, 3.0])     # fails inside the inner context
        w = y * 3.0                                   # the outer tape still records
    np.testing.assert_allclose(outer.gradient(w, x).numpy(), [6.0, 12.0])
    # the inner tape recorded up to the failure and exited cleanly: its gradient is still right
    np.testing.assert_allclose(inner.gradient(z, x).numpy(), np.cos([1.0, 2.0]), rtol=1e-6)


def test_backward_rule_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    x = tf.constant(0.5, tf.float64)
    with tf.GradientTape() as failing, tf.GradientTape(persistent=True) as other:
        failing.watch(x)
        other.watch(x)
        y = tf.sin(x) * x
        u = tf.exp(x)
    monkeypatch.setattr(REGISTRY["Sin"], "derivs", (_raise,))
    with pytest.raises(Boom):
        failing.gradient(y, x)
    # the failed one-shot tape says so clearly when used again
    with pytest.raises(RuntimeError, match=r"backward pass failed earlier \(Boom: deliberate"):
        failing.gradient(y, x)
    # a persistent tape whose walk fails keeps its record: it can be asked again
    with pytest.raises(Boom):
        other.gradient(y, x)
    assert float(other.gradient(u, x)) == pytest.approx(np.exp(0.5))
    monkeypatch.undo()
    assert float(other.gradient(y, x)) == pytest.approx(np.cos(0.5) * 0.5 + np.sin(0.5))
    # and new tapes work as usual
    with tf.GradientTape() as fresh:
        fresh.watch(x)
        y2 = tf.sin(x) * x
    assert float(fresh.gradient(y2, x)) == pytest.approx(np.cos(0.5) * 0.5 + np.sin(0.5))


def test_backward_failure_inside_nested_tapes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A second-order computation whose inner walk fails leaves the outer tape consistent."""
    x = tf.constant(0.3, tf.float64)
    monkeypatch.setattr(REGISTRY["Cos"], "derivs", (_raise,))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.cos(x)
        with pytest.raises(Boom):
            inner.gradient(y, x)
        z = x * x
    assert float(outer.gradient(z, x)) == pytest.approx(0.6)


def test_forward_mode_rule_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    x = tf.constant(1.0)
    monkeypatch.setattr(REGISTRY["Tanh"], "jvp", _raise)
    with pytest.raises(Boom):
        with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
            tf.tanh(x)
    monkeypatch.undo()
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = tf.tanh(x)
    assert float(acc.jvp(y)) == pytest.approx(1 - np.tanh(1.0) ** 2)


def test_custom_gradient_failure() -> None:
    @tf.custom_gradient
    def bad(x):
        def grad(dy):
            raise Boom("grad_fn failed")
        return x * 2.0, grad

    @tf.custom_gradient
    def bad_forward(x):
        raise Boom("forward failed")

    x = tf.constant(1.0)
    with tf.GradientTape() as t1, tf.GradientTape(persistent=True) as t2:
        t1.watch(x)
        t2.watch(x)
        y = bad(x)
        with pytest.raises(Boom, match="forward failed"):
            bad_forward(x)
        v = x * x
    with pytest.raises(Boom, match="grad_fn failed"):
        t1.gradient(y, x)
    with pytest.raises(RuntimeError, match="failed earlier"):
        t1.gradient(v, x)
    assert float(t2.gradient(v, x)) == 2.0


def test_exception_inside_context_pops_every_recorder() -> None:
    x = tf.constant(1.0)
    with pytest.raises(Boom):
        with tf.GradientTape() as t, tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)):
            t.watch(x)
            with t.stop_recording():
                raise Boom("in stop_recording")
    assert _stack_is_clean()
    assert _recorders.active == 0 or _recorders.tls.stack == []


# ----------------------------------------------------------------------------- memory
def _recorded_tape(persistent: bool) -> tuple:
    x = tf.constant(np.ones(10_000))
    with tf.GradientTape(persistent=persistent) as tape:
        tape.watch(x)
        big = tf.exp(x) * 2.0
        y = tf.reduce_sum(tf.sin(big))
    return tape, x, y, weakref.ref(big)


def test_deleted_persistent_tape_frees_its_tensors() -> None:
    tape, x, y, big = _recorded_tape(persistent=True)
    tape.gradient(y, x)
    tape.gradient(y, x)
    assert big() is not None          # held by the persistent tape
    tape_ref = weakref.ref(tape)
    del tape
    gc.collect()
    assert tape_ref() is None
    assert big() is None


def test_one_shot_tape_frees_during_its_walk() -> None:
    tape, x, y, big = _recorded_tape(persistent=False)
    tape.gradient(y, x)
    gc.collect()
    assert big() is None              # freed although the tape object is still alive
    assert tape.stats().ops == 0


def test_tape_freed_without_gc_when_no_cycle() -> None:
    """No reference cycle keeps a tape alive: refcounting alone frees it."""
    gc.disable()
    try:
        tape, x, y, big = _recorded_tape(persistent=True)
        del tape
        assert big() is None
    finally:
        gc.enable()


def test_10000_training_steps_have_flat_memory() -> None:
    """Train a small model for 10,000 steps (half through an optimizer); memory traced from step
    1,000 on (everything allocated before is steady state) may not grow by more than 64 KB."""
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((8, 4)), tf.float32)
    t = tf.constant(rng.standard_normal((8, 3)) * 0.5, tf.float32)
    w = tf.Variable(rng.standard_normal((4, 3)) * 0.1, dtype=tf.float32)
    b = tf.Variable(np.zeros(3), dtype=tf.float32)
    opt = tf.optimizers.SGD(0.05)

    def step(k: int) -> tf.Tensor:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.tanh(x @ w + b) - t))
        gw, gb = tape.gradient(loss, [w, b])
        if k % 2:
            w.assign_sub(0.05 * gw)
            b.assign_sub(0.05 * gb)
        else:
            opt.apply_gradients(zip([gw, gb], [w, b]))
        return loss

    for k in range(1, 1_001):
        step(k)
    gc.collect()
    tracemalloc.start()
    try:
        at_1000 = tracemalloc.get_traced_memory()[0]
        for k in range(1_001, 10_001):
            loss = step(k)
        gc.collect()
        at_10000 = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert at_10000 - at_1000 < 64 * 1024, (at_1000, at_10000)
    assert float(loss) < 0.5


# ----------------------------------------------------------------------------- NaN and Inf
def _grad(fn, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x).numpy()


def _jvp(fn, x):
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y = fn(x)
    return acc.jvp(y).numpy()


SPECIAL = [
    # (name, fn, x, expected gradient) -- spec section 1.19 and TF's recorded values
    ("sqrt-at-0", tf.sqrt, [0.0, 4.0], [np.inf, 0.25]),
    ("log-at-0", tf.math.log, [0.0, 2.0], [np.inf, 0.5]),
    ("norm-at-0", tf.norm, [0.0, 0.0], [np.nan, np.nan]),
    ("where-log-leaks-nan", lambda x: tf.where(x > 0, tf.math.log(x), tf.zeros_like(x)), [0.0, 2.0], [np.nan, 0.5]),
    ("where-sqrt-no-nan", lambda x: tf.where(x > 0, tf.sqrt(x), tf.zeros_like(x)), [0.0, 4.0], [0.0, 0.25]),
    ("abs-at-0", tf.abs, [0.0], [0.0]),
    ("relu-at-0", tf.nn.relu, [0.0], [0.0]),
    ("reciprocal-at-0", tf.math.reciprocal, [0.0], [-np.inf]),
    ("square-of-nan", tf.square, [np.nan, 1.0], [np.nan, 2.0]),
    ("exp-at-inf", tf.exp, [np.inf, -np.inf], [np.inf, 0.0]),
    ("tanh-at-inf", tf.tanh, [np.inf, -np.inf], [0.0, 0.0]),
    ("sigmoid-at-inf", tf.sigmoid, [np.inf, -np.inf], [0.0, 0.0]),
    ("mul-by-inf", lambda x: x * np.inf, [1.0, 0.0], [np.inf, np.inf]),
    ("sin-of-inf", tf.sin, [np.inf], [np.nan]),
    ("reduce_max-with-nan", tf.reduce_max, [1.0, np.nan, 0.5], None),  # NaN is the max: checked below
    ("softplus-large", tf.nn.softplus, [1e4, -1e4], [1.0, 0.0]),
    ("logsumexp-inf", tf.reduce_logsumexp, [-np.inf, 0.0], [0.0, 1.0]),
]


@pytest.mark.parametrize("name,fn,x,expect", SPECIAL, ids=[s[0] for s in SPECIAL])
@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_special_values(name, fn, x, expect, dtype) -> None:
    xt = tf.constant(x, dtype)
    g = _grad(fn, xt)
    assert g.dtype == dtype.as_numpy_dtype
    if expect is None:     # reduce_max with a NaN: the NaN is selected and gets the gradient
        assert np.isnan(fn(xt).numpy())
        assert np.isfinite(g).all() or np.isnan(g).any()
        return
    np.testing.assert_array_equal(g, np.asarray(expect, g.dtype), err_msg=name)
    if name.startswith(("where", "norm", "reduce", "logsumexp")):
        return       # forward mode of these differs from reverse at singular points (no seed masking)
    np.testing.assert_array_equal(_jvp(fn, xt), np.asarray(expect, g.dtype), err_msg=f"{name} (forward)")


def test_nan_propagates_through_forward_values() -> None:
    x = tf.constant([np.nan, np.inf, -np.inf, 0.0])
    np.testing.assert_array_equal(tf.exp(x).numpy(), [np.nan, np.inf, 0.0, 1.0])
    np.testing.assert_array_equal(tf.math.log(x).numpy(), [np.nan, np.inf, np.nan, -np.inf])
    np.testing.assert_array_equal((x * 0.0).numpy(), [np.nan, np.nan, np.nan, 0.0])
    np.testing.assert_array_equal(tf.nn.relu(x).numpy(), [np.nan, np.inf, 0.0, 0.0])
    assert np.isnan(tf.reduce_sum(x).numpy())
    assert np.isnan(tf.nn.softmax(tf.constant([np.inf, 0.0])).numpy()[0])


def test_second_order_at_special_points() -> None:
    x = tf.constant([0.0, 4.0], tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.sqrt(x)
        g = inner.gradient(y, x)
    h = outer.gradient(g, x).numpy()
    assert np.isneginf(h[0]) or np.isnan(h[0])
    assert h[1] == pytest.approx(-0.25 / 8.0)


def _fixture() -> dict:
    path = os.path.join(os.path.dirname(__file__), "fixtures", "tf_programs.json")
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)["cases"]


@pytest.mark.parametrize("case,spec", [
    ("op_conventions.case_sqrt_at_zero_is_inf", "sqrt-at-0"),
    ("op_conventions.case_log_at_zero_is_inf", "log-at-0"),
    ("op_conventions.case_norm_at_zero_is_nan", "norm-at-0"),
    ("op_conventions.case_where_leaks_nan_from_log", "where-log-leaks-nan"),
    ("op_conventions.case_where_sqrt_zero_no_nan", "where-sqrt-no-nan"),
])
def test_special_values_were_recorded_with_tensorflow(case: str, spec: str) -> None:
    """The 1.19 values expected above are those TensorFlow gave (tests/fixtures/tf_programs.json,
    same programs at the same float32 inputs)."""
    rec = _fixture()[case]
    assert rec["kind"] == "tensor" and rec["dtype"] == "float32"
    recorded = np.array([float(v) for v in rec["value"]], np.float32)
    expect = np.asarray(dict((s[0], s[3]) for s in SPECIAL)[spec], np.float32)
    np.testing.assert_array_equal(recorded, expect)


def test_prod_and_cumprod_derivatives_at_zeros_match_tensorflow() -> None:
    """Found by tests/test_fuzz.py (HYPOTHESIS_PROFILE=long): cumprod's gradient divided by x
    plainly, so it was NaN at zeros where TensorFlow (div_no_nan) gives 0, and reduce_prod's
    second derivative at a zero (computed through cumprod) was NaN. Values recorded with TF 2.21."""
    def first_and_second(fn, x0):
        x = tf.constant(x0, tf.float64)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = fn(x)
            g = t1.gradient(y, x)
        return g.numpy(), t2.gradient(g, x).numpy()

    g, h = first_and_second(tf.reduce_prod, [0.0, 2.0])
    np.testing.assert_array_equal(g, [2.0, 0.0])
    np.testing.assert_array_equal(h, [0.0, 1.0])
    g, h = first_and_second(tf.reduce_prod, 0.0)
    assert (g, h) == (1.0, 0.0)
    g, h = first_and_second(tf.math.cumprod, [0.0, 2.0, 3.0])
    np.testing.assert_array_equal(g, [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(h, [0.0, 0.0, 0.0])
    x = tf.constant([0.0, 2.0, 3.0], tf.float64)
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0, 1.0], tf.float64)) as acc:
        y = tf.math.cumprod(x)
    assert np.isfinite(acc.jvp(y).numpy()).all()
