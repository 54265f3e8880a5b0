"""The optimizers' fused updates (NumPy ``out=`` into arrays no reader holds) give the plain
formulas' numbers, keep a value once read unchanged, and stay part of a tf.function's replay.

Exact comparison is sound here: both paths run, in one process on one NumPy, the same
elementwise IEEE operations (+, −, ×, ÷, sqrt, square, power on scalars) in the same order, each
rounded once; only the destination of each result differs (a commuted + or × is exact too).
"""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.optimizers.optimizer import Optimizer

K = tf.keras.optimizers
CASES = [
    (K.SGD, {}), (K.SGD, {"momentum": 0.9}), (K.SGD, {"momentum": 0.9, "nesterov": True}),
    (K.Adam, {}), (K.Adam, {"amsgrad": True}), (K.AdamW, {}), (K.Adam, {"weight_decay": 0.01}),
    (K.RMSprop, {}), (K.RMSprop, {"momentum": 0.5, "centered": True}), (K.Adagrad, {}),
    (K.Nadam, {}), (K.Adamax, {}), (K.Lamb, {}), (K.Adadelta, {"learning_rate": 1.0}),
    (K.Ftrl, {"l1_regularization_strength": 0.01, "l2_regularization_strength": 0.01,
              "l2_shrinkage_regularization_strength": 0.01, "beta": 0.1}),
    (K.Lion, {}), (K.ScheduleFreeAdamW, {"warmup_steps": 2}), (K.Adafactor, {"learning_rate": 0.1}),
]


def _run(cls, kw, dtype, fused, monkeypatch):
    rng = np.random.default_rng(0)
    with monkeypatch.context() as mp:
        if not fused:
            mp.setattr(Optimizer, "_fused", lambda self, *a: False)
        vs = [tf.Variable(rng.standard_normal(s).astype(dtype)) for s in ((5, 3), (3,), (), (2, 4, 3))]
        opt = cls(**kw)
        for _ in range(4):
            grads = [tf.constant(rng.standard_normal(v.shape).astype(dtype)) for v in vs]
            opt.apply_gradients(zip(grads, vs))
    return [v.numpy() for v in vs] + [s.numpy() for s in opt.variables]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("cls,kw", CASES, ids=lambda c: getattr(c, "__name__", str(c)))
def test_the_fused_update_gives_the_formula_s_numbers(cls, kw, dtype, monkeypatch):
    assert cls._update_into is not Optimizer._update_into
    fused = _run(cls, kw, dtype, True, monkeypatch)
    plain = _run(cls, kw, dtype, False, monkeypatch)
    for a, b in zip(fused, plain):
        assert a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)


def test_a_value_read_before_an_update_never_changes():
    v = tf.Variable(np.ones((4, 4), np.float32))
    opt = K.Adam(0.1)
    held = [v.value()]                     # a Tensor of the value before each step
    view = v.value().numpy()[1:]           # and a view of one
    seen = [held[0].numpy().copy()]
    for _ in range(5):
        opt.apply_gradients([(tf.ones((4, 4)), v)])
        held.append(v.value())
        seen.append(held[-1].numpy().copy())
    for t, s in zip(held, seen):
        assert np.array_equal(t.numpy(), s)
    assert np.array_equal(view, np.ones((3, 4), np.float32))
    assert len({id(t._value) for t in held}) == len(held)   # every held value its own array


def test_an_update_reuses_the_array_nobody_holds():
    v = tf.Variable(np.ones(1000, np.float32))
    opt = K.SGD(0.1)
    ids = []
    for _ in range(6):
        opt.apply_gradients([(tf.ones(1000), v)])
        ids.append(id(v.value()._value))
    assert len(set(ids[2:])) == 2            # two arrays, in turn (the value and the spare)
    np.testing.assert_allclose(v.numpy(), 1 - 0.6, rtol=1e-6)


def test_the_fused_update_is_part_of_a_tf_function_s_replay():
    v = tf.Variable(np.ones(3, np.float32))
    opt = K.Adam(0.1)

    @tf.function
    def step(g):
        opt.apply_gradients([(g, v)])

    w = tf.Variable(np.ones(3, np.float32))
    eager = K.Adam(0.1)
    for k in range(4):
        g = tf.constant(np.full(3, k + 1.0, np.float32))
        step(g)
        eager.apply_gradients([(g, w)])
    assert np.array_equal(v.numpy(), w.numpy()) and int(opt.iterations) == 4
