"""Optimizer slots flush subnormal values to zero, as TensorFlow's CPU kernels do (FTZ/DAZ).

A slot decaying geometrically after its gradient becomes zero (Adam's first moment for a dead ReLU
unit) never goes subnormal in Keras on TensorFlow, nor in tapegrad's NumPy and compiled updates
(tests/fixtures/optimizer_flush.json, written by tools/record_optimizer_flush.py). TF flushes
every intermediate, so its Adam moment stalls just above the smallest normal number, where its
step ``(g - m) * c`` becomes subnormal; tapegrad stores zero once the moment's contribution to the
variable, ``m * alpha``, would be flushed: the slots then differ only where TF's contributes
nothing, and the variables not at all."""
import numpy as np
import pytest

import tapegrad as tf
import tf_compare
from tapegrad import _jit, keras
from tapegrad.optimizers.optimizer import flush_subnormal

DATA = tf_compare.load_fixture("optimizer_flush.json")["cases"]
MAKERS = {
    "adam_float32": (lambda: keras.optimizers.Adam(1e-3), np.float32),
    "adam_float64": (lambda: keras.optimizers.Adam(1e-3), np.float64),
    "sgd_momentum_float32": (lambda: keras.optimizers.SGD(0.1, momentum=0.9), np.float32),
    "rmsprop_centered_momentum_float32": (
        lambda: keras.optimizers.RMSprop(1e-3, momentum=0.5, centered=True), np.float32),
    "adagrad_float32": (lambda: keras.optimizers.Adagrad(1e-2, initial_accumulator_value=0.0),
                        np.float32),
}
X0 = [0.5, -0.25, 1.0, 2.0]
G0 = [1e-3, -1e-3, 1e-20, 0.0]
JIT = [False] + ([True] if _jit.available() else [])


def _floor(case: str, dtype, t: int) -> float:
    """Below this, TF's slot contributes nothing to the variable (it is flushed on the way): for
    Adam's moment, ``tiny / alpha_t``; elsewhere the smallest normal number ``tiny``."""
    tiny = float(np.finfo(dtype).tiny)
    if not case.startswith("adam"):
        return tiny
    alpha = 1e-3 * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
    return tiny / min(alpha, 0.1) * 1.01   # (1 % for the rounding of alpha in the dtype)


def _is_subnormal(a: np.ndarray) -> np.ndarray:
    return (a != 0) & (np.abs(a) < np.finfo(a.dtype).tiny)


@pytest.mark.parametrize("jit", JIT, ids=lambda j: "numba" if j else "numpy")
@pytest.mark.parametrize("case", sorted(MAKERS))
def test_slots_decay_to_tensorflows_zeros(case, jit):
    make, dtype = MAKERS[case]
    marks = DATA[case]
    v = tf.Variable(np.array(X0, dtype))
    opt = make()
    opt._jit_compile = jit
    opt.build([v])
    zero = np.zeros(4, dtype)
    for t in range(1, max(map(int, marks)) + 1):
        opt.apply_gradients([(tf.constant(np.array(G0, dtype) if t == 1 else zero), v)])
        want = marks.get(str(t))
        if want is None:
            continue
        slots = [s.numpy() for s in opt.variables[2:]]
        assert len(slots) == len(want["slots"])
        for got, exp in zip(slots, want["slots"]):
            exp = np.array(exp, dtype)
            assert not _is_subnormal(got).any(), f"step {t}: a subnormal slot value {got}"
            stalled = np.abs(exp) < _floor(case, dtype, t)
            # where TF's slot is zero (flushed, or never touched), tapegrad's is the same zero
            assert (got[exp == 0] == 0).all(), f"step {t}: {got} vs {exp}"
            np.testing.assert_array_equal(np.signbit(got[exp == 0]), np.signbit(exp[exp == 0]))
            tf_compare.assert_close(got[~stalled], exp[~stalled],
                                    rtol=1e-5 if dtype == np.float32 else 1e-10, atol=0,
                                    err_msg=f"step {t}")
        tf_compare.assert_close(v.numpy(), np.array(want["x"], dtype),
                                rtol=1e-6 if dtype == np.float32 else 1e-12, atol=0)


def test_flush_subnormal_keeps_sign_normals_nans_and_copies_a_read_only_array():
    tiny = np.finfo(np.float32).tiny
    a = np.array([tiny / 4, -tiny / 4, tiny, -tiny, 0.0, -0.0, np.nan, np.inf, 1.0], np.float32)
    b = a.copy()
    b.flags.writeable = False
    got = flush_subnormal(b)
    assert got is not b and not b.flags.writeable
    assert flush_subnormal(a) is a
    for out in (a, got):
        np.testing.assert_array_equal(out[:6], [0, 0, tiny, -tiny, 0, 0])
        assert list(np.signbit(out[:6])) == [False, True, False, True, False, True]
        assert np.isnan(out[6]) and out[7] == np.inf and out[8] == 1
    c = np.array([1.0, 2.0], np.float32)
    c.flags.writeable = False
    assert flush_subnormal(c) is c   # (nothing to flush: no copy)
    assert flush_subnormal(np.array([1, 0], np.int32)).dtype == np.int32
