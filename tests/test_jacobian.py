"""GradientTape.jacobian / batch_jacobian: every path (vectorised, loop, chunked, forward mode,
nested tapes) against each other and against finite differences, plus TF conventions."""
import math
import tracemalloc
import zlib

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import _tape

RNG = np.random.default_rng(7)
W = RNG.standard_normal((4, 3))
W5 = RNG.standard_normal((5, 5))


def c(a):
    return tf.constant(np.asarray(a, np.float64))


# name -> (f, list of input shapes); f takes tensors and returns one tensor
FUNCS = {
    "elementwise": (lambda x: tf.sin(x) * x, [(3,)]),
    "scalar_target": (lambda x: tf.reduce_sum(x * x * x), [(4,)]),
    "scalar_source": (lambda x: tf.stack([x, x * x, tf.exp(x)]), [()]),
    "matvec_tanh": (lambda x: tf.tanh(tf.linalg.matvec(c(W), x)), [(3,)]),
    "mlp_large": (lambda x: tf.tanh(tf.linalg.matvec(c(W5[:3]), tf.tanh(tf.linalg.matvec(c(W5), x)))),
                  [(5,)]),
    "matmul_matrix": (lambda x: tf.matmul(x, x), [(2, 2)]),
    "broadcast_binary": (lambda x, y: x[:, None] * y[None, :] + y, [(3,), (2,)]),
    "reduce_axis0": (lambda x: tf.reduce_sum(tf.exp(x), axis=0) * tf.reduce_max(x, axis=1)[0], [(3, 2)]),
    "softmax": (lambda x: tf.exp(x) / tf.reduce_sum(tf.exp(x), axis=-1, keepdims=True), [(2, 3)]),
    "reshape_transpose": (lambda x: tf.transpose(tf.reshape(x * x, [3, 2])), [(2, 3)]),
    "gather_concat": (lambda x: tf.concat([tf.gather(x, [2, 0, 2]) * 3.0, x[:2] ** 2], 0), [(3,)]),
    "rowwise_op": (lambda x: tf.math.unsorted_segment_sum(x * x, tf.constant([0, 1, 0, 2]), 3), [(4,)]),
    "two_sources": (lambda x, y: tf.matmul(x, y) * tf.reduce_sum(y), [(2, 3), (3, 2)]),
}


def _inputs(shapes):
    return [c(RNG.uniform(0.3, 1.5, s)) for s in shapes]


def _tape_jac(f, xs, persistent=False, **kw):
    with tf.GradientTape(persistent=persistent) as tape:
        tape.watch(xs)
        y = f(*xs)
    return [j.numpy() for j in tape.jacobian(y, xs, **kw)]


@pytest.fixture
def small_budget():
    old = tf.autodiff.set_jacobian_memory_budget(64)  # one row per walk
    yield
    tf.autodiff.set_jacobian_memory_budget(old)


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_all_paths_agree(name, small_budget):
    f, shapes = FUNCS[name]
    xs = _inputs(shapes)
    tf.autodiff.set_jacobian_memory_budget(None)
    vec = _tape_jac(f, xs)
    loop = _tape_jac(f, xs, experimental_use_pfor=False)
    loop_p = _tape_jac(f, xs, persistent=True, experimental_use_pfor=False)
    par = _tape_jac(f, xs, parallel_iterations=2)
    tf.autodiff.set_jacobian_memory_budget(64)
    chunked = _tape_jac(f, xs)
    for other in (loop, loop_p, par, chunked):
        for a, b in zip(vec, other):
            assert a.shape == b.shape
            assert np.array_equal(a, b), name  # float64: bit-identical
    fwd = tf.autodiff.jacfwd(f, argnums=tuple(range(len(xs))))(*xs)
    rev = tf.autodiff.jacrev(f, argnums=tuple(range(len(xs))))(*xs)
    y = f(*xs)
    for i, x in enumerate(xs):
        assert vec[i].shape == tuple(y.shape) + tuple(x.shape)
        np.testing.assert_allclose(fwd[i].numpy(), vec[i], rtol=1e-12, atol=1e-13)
        np.testing.assert_array_equal(rev[i].numpy(), vec[i])
        # finite differences: compute_gradient's layout is [x_size, y_size]
        _, num = tf.test.compute_gradient(f, xs)
        np.testing.assert_allclose(vec[i].reshape(y.shape.num_elements(), -1).T, num[i],
                                   rtol=1e-5, atol=1e-6)


def test_shapes_follow_tf_convention():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    s = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, s])
        y = x * s
        z = tf.reduce_sum(y)
    assert tape.jacobian(y, x).shape == (2, 2, 2, 2)
    assert tape.jacobian(y, s).shape == (2, 2)
    assert tape.jacobian(z, x).shape == (2, 2)
    assert tape.jacobian(z, s).shape == ()
    assert tape.jacobian(y, x).dtype == tf.float32


def test_nested_sources_structure():
    a, b = c([1.0, 2.0]), c([[3.0], [4.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        y = a * tf.reshape(b, [2])
    got = tape.jacobian(y, {"a": a, "rest": (b, [a])})
    assert set(got) == {"a", "rest"} and isinstance(got["rest"], tuple) and isinstance(got["rest"][1], list)
    np.testing.assert_array_equal(got["a"].numpy(), np.diag([3.0, 4.0]))
    np.testing.assert_array_equal(got["rest"][0].numpy(), np.array([[[1.0], [0.0]], [[0.0], [2.0]]]))
    np.testing.assert_array_equal(got["rest"][1][0].numpy(), got["a"].numpy())


def test_variable_source_and_target():
    v = tf.Variable([1.0, 2.0], dtype=tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        y = v * v
    np.testing.assert_array_equal(tape.jacobian(y, v).numpy(), np.diag([2.0, 4.0]))
    np.testing.assert_array_equal(tape.jacobian(v, v).numpy(), np.eye(2))


def test_unconnected_gradients():
    x, z = c([1.0, 2.0]), c([3.0, 4.0, 5.0])
    for pfor in (True, False):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, z])
            y = x * 2.0
        jx, jz = tape.jacobian(y, [x, z], experimental_use_pfor=pfor)
        assert jz is None
        jz = tape.jacobian(y, z, unconnected_gradients="zero", experimental_use_pfor=pfor)
        assert jz.shape == (2, 3) and not jz.numpy().any()
        xb, zb = c([[1.0, 2.0]]), c([[3.0, 4.0, 5.0]])
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([xb, zb])
            yb = xb * 2.0
        assert tape.batch_jacobian(yb, xb, experimental_use_pfor=pfor) is not None
        assert tape.batch_jacobian(yb, zb, experimental_use_pfor=pfor) is None  # TF: zeros
        bz = tape.batch_jacobian(yb, zb, unconnected_gradients=tf.UnconnectedGradients.ZERO,
                                 experimental_use_pfor=pfor)
        assert bz.shape == (1, 2, 3) and not bz.numpy().any()


def test_int_target_gives_none_or_zeros():
    x = c([1.5, 2.5])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.cast(x, tf.int32)
    assert tape.jacobian(y, x) is None
    assert tape.jacobian(y, x, unconnected_gradients="zero").shape == (2, 2)


def test_empty_target_and_source():
    x = tf.zeros([0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    assert tape.jacobian(y, x).shape == (0, 0)
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x[:0] * 2.0
    assert tape.jacobian(y, x).shape == (0, 3)
    with pytest.raises(RuntimeError, match="one set of gradients"):
        tape.gradient(y, x)


@pytest.mark.parametrize("pfor,budget", [(True, None), (False, None), (True, 64)])
def test_one_shot_tape_is_released_after_last_walk(pfor, budget):
    old = tf.autodiff.set_jacobian_memory_budget(budget)
    try:
        x = c([1.0, 2.0, 3.0])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.exp(x) * x
        j = tape.jacobian(y, x, experimental_use_pfor=pfor)
    finally:
        tf.autodiff.set_jacobian_memory_budget(old)
    np.testing.assert_allclose(j.numpy(), np.diag(np.exp([1.0, 2.0, 3.0]) * [2.0, 3.0, 4.0]))
    assert tape._rec.entries == [] and tape._used
    with pytest.raises(RuntimeError, match="one set of gradients"):
        tape.jacobian(y, x)


def _count_walks(monkeypatch):
    calls = []
    orig = _tape.run_backward

    def run(tape, flat_t, seeds, flat_s, mode, batch=None, keep=False):
        calls.append((batch, keep))
        return orig(tape, flat_t, seeds, flat_s, mode, batch, keep)

    monkeypatch.setattr(_tape, "run_backward", run)
    return calls


def test_vectorised_is_one_walk_and_loop_is_one_per_row(monkeypatch):
    calls = _count_walks(monkeypatch)
    x = c(np.arange(6.0).reshape(2, 3))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.sin(x)
    tape.jacobian(y, x)
    assert calls == [(6, False)]
    calls.clear()
    tape.jacobian(y, x, experimental_use_pfor=False)
    assert len(calls) == 6 and all(b is None for b, _ in calls)


def test_chunks_fit_the_budget_and_keep_the_tape(monkeypatch):
    calls = _count_walks(monkeypatch)
    x = c(np.linspace(0.1, 1.0, 10))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(x) * x
    old = tf.autodiff.set_jacobian_memory_budget(3 * 80)  # largest tensor: 10 float64 = 80 bytes
    try:
        j = tape.jacobian(y, x)
    finally:
        tf.autodiff.set_jacobian_memory_budget(old)
    assert [b for b, _ in calls] == [3, 3, 3, 1]
    assert [k for _, k in calls] == [True, True, True, False]
    x2 = c(np.linspace(0.1, 1.0, 10))
    with tf.GradientTape() as tape2:
        tape2.watch(x2)
        y2 = tf.tanh(x2) * x2
    full = tape2.jacobian(y2, x2)
    np.testing.assert_array_equal(j.numpy(), full.numpy())


def test_parallel_iterations_bounds_rows_per_walk(monkeypatch):
    calls = _count_walks(monkeypatch)
    x = c(np.arange(5.0))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.jacobian(y, x, parallel_iterations=2)
    assert [b for b, _ in calls] == [2, 2, 1]
    with pytest.raises(ValueError, match="parallel_iterations"):
        tape.jacobian(y, x, parallel_iterations=0)


def test_chunking_bounds_memory():
    n = 300
    x0 = np.linspace(0.1, 1.0, n)

    def peak(budget):
        old = tf.autodiff.set_jacobian_memory_budget(budget)
        try:
            x = c(x0)
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.tanh(tf.sin(tf.exp(x) * x) * x)
            tracemalloc.start()
            tape.jacobian(y, x)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            tf.autodiff.set_jacobian_memory_budget(old)

    assert peak(20 * n * 8) < 0.6 * peak(None)


def test_memory_budget_setting():
    old = tf.autodiff.set_jacobian_memory_budget(1024)
    assert old == tf.autodiff.DEFAULT_MEMORY_BUDGET == 256 * 2**20
    assert tf.autodiff.set_jacobian_memory_budget(None) == 1024
    for bad in (0, -5, 1.5, True, "1MB"):
        with pytest.raises(ValueError, match="positive number of bytes"):
            tf.autodiff.set_jacobian_memory_budget(bad)


def test_inside_context():
    x = c([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sin(x) * x
        j = tape.jacobian(y, x)  # a one-shot tape stops recording, as gradient does
        z = y * 2.0
    np.testing.assert_allclose(j.numpy(), np.diag(np.cos([1.0, 2.0]) * [1.0, 2.0] + np.sin([1.0, 2.0])))
    assert z is not None
    with pytest.warns(UserWarning, match="inside the context"):
        with tf.GradientTape(persistent=True) as ptape:
            ptape.watch(x)
            y = x * x * x
            j = ptape.jacobian(y, x)
    # the persistent tape recorded its own Jacobian: differentiate it again
    h = ptape.jacobian(j, x)
    np.testing.assert_allclose(h.numpy(), np.einsum("ij,jk->ijk", np.eye(2), np.diag([6.0, 12.0])))


def test_list_target_raises_clear_error():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y1, y2 = x * x, x * 3.0
    with pytest.raises(AttributeError, match="single target") as e:
        tape.jacobian([y1, y2], x)
    assert isinstance(e.value, TypeError)
    with pytest.raises(TypeError, match="received None"):
        tape.jacobian(None, x)


def test_never_entered_and_used_tape():
    tape = tf.GradientTape()
    with pytest.raises(RuntimeError, match="never entered"):
        tape.jacobian(tf.constant(1.0), tf.constant(1.0))
    x = tf.constant([1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError):
        tape.jacobian(y, x)
    with pytest.raises(RuntimeError):
        tape.batch_jacobian(y[None], x[None])


def test_failed_walk_releases_one_shot_tape():
    @tf.custom_gradient
    def bad(x):
        def grad(dy):
            raise ZeroDivisionError("boom")
        return x * 2.0, grad

    x = c([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = bad(x)
    with pytest.raises(ZeroDivisionError):
        tape.jacobian(y, x, experimental_use_pfor=False)
    assert tape._rec.entries == []
    with pytest.raises(RuntimeError):
        tape.jacobian(y, x)


# ---------------------------------------------------------------------------- nested tapes
def test_hessian_by_nested_tapes_all_paths():
    x0 = np.array([0.5, -1.0, 2.0])

    def f(x):
        return tf.reduce_sum(tf.sin(x) * x * x) + x[0] * x[1] * x[2]

    def hess(pfor, persistent):
        x = c(x0)
        with tf.GradientTape(persistent=persistent) as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = f(x)
            g = inner.gradient(y, x)
        return outer.jacobian(g, x, experimental_use_pfor=pfor).numpy()

    h = hess(True, False)
    for pfor, persistent in ((False, False), (True, True), (False, True)):
        np.testing.assert_array_equal(hess(pfor, persistent), h)
    s, co = np.sin(x0), np.cos(x0)
    expect = np.diag(2 * s + 4 * x0 * co - x0 * x0 * s)
    expect += np.array([[0, x0[2], x0[1]], [x0[2], 0, x0[0]], [x0[1], x0[0], 0]])
    np.testing.assert_allclose(h, expect, rtol=1e-12)
    np.testing.assert_allclose(tf.autodiff.hessian(f)(c(x0)).numpy(), h, rtol=1e-12)


def test_jacobian_of_jacobian_is_third_derivative():
    x0 = np.array([0.3, 0.7])

    def third(pfor):
        x = c(x0)
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.exp(x) * x[0]
            j = inner.jacobian(y, x, experimental_use_pfor=pfor)
        return outer.jacobian(j, x, experimental_use_pfor=pfor).numpy()

    t = third(True)
    np.testing.assert_array_equal(third(False), t)
    assert t.shape == (2, 2, 2)
    # finite differences of the Jacobian
    eps = 1e-6

    def jac_at(v):
        x = c(v)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.exp(x) * x[0]
        return tape.jacobian(y, x).numpy()

    for k in range(2):
        d = np.zeros(2)
        d[k] = eps
        np.testing.assert_allclose(t[..., k], (jac_at(x0 + d) - jac_at(x0 - d)) / (2 * eps), rtol=1e-6)


def test_forward_mode_over_a_jacobian():
    """An accumulator outside the tape differentiates the batched walk itself."""
    x0, v0 = np.array([0.5, 1.0, 2.0]), np.array([1.0, 0.0, -1.0])

    def jac(xv):
        x = c(xv)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sin(x) * tf.reduce_sum(x * x)
        return x, tape.jacobian(y, x)

    x, v = c(x0), c(v0)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sin(x) * tf.reduce_sum(x * x)
        j = tape.jacobian(y, x)
    eps = 1e-6
    fd = (jac(x0 + eps * v0)[1].numpy() - jac(x0 - eps * v0)[1].numpy()) / (2 * eps)
    np.testing.assert_allclose(acc.jvp(j).numpy(), fd, rtol=1e-7, atol=1e-8)


# ---------------------------------------------------------------------------- batch_jacobian
def _per_example(f, x0):
    out = []
    for row in x0:
        x = c(row[None])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        out.append(tape.jacobian(y, x).numpy().reshape(y.shape[1:] + x.shape[1:]))
    return np.stack(out)


@pytest.mark.parametrize("pfor", [True, False])
def test_batch_jacobian_per_example_blocks(pfor):
    w = c(RNG.standard_normal((3, 4)))
    x0 = RNG.standard_normal((5, 3))

    def f(x):
        return tf.reshape(tf.tanh(tf.matmul(x, w)), [-1, 2, 2])

    x = c(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    bj = tape.batch_jacobian(y, x, experimental_use_pfor=pfor)
    assert bj.shape == (5, 2, 2, 3)
    np.testing.assert_allclose(bj.numpy(), _per_example(f, x0), rtol=1e-12)
    np.testing.assert_allclose(bj.numpy(), tf.autodiff.check_batch_independence(f, x0).numpy(), rtol=1e-12)


def test_batch_jacobian_vectorised_equals_loop_and_chunks():
    x0 = RNG.standard_normal((4, 3))

    def run(**kw):
        x = c(x0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sin(x) * tf.reduce_sum(x * x, axis=1, keepdims=True)
        return tape.batch_jacobian(y, x, **kw).numpy()

    ref = run()
    np.testing.assert_array_equal(run(experimental_use_pfor=False), ref)
    np.testing.assert_array_equal(run(parallel_iterations=2), ref)


def test_batch_jacobian_rows_interact_matches_tf_and_check_catches_it():
    x0 = np.array([[1.0, 2.0], [3.0, 4.0]])

    def f(x):
        return x * tf.reduce_sum(x, axis=0)

    x = c(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    # TensorFlow's convention: sums over examples, silently
    np.testing.assert_array_equal(tape.batch_jacobian(y, x).numpy(), [[[8.0, 0.0], [0.0, 12.0]]] * 2)
    with pytest.raises(ValueError, match=r"example 0 of the output depends on example 1"):
        tf.autodiff.check_batch_independence(f, x0)
    # small interactions below atol pass
    out = tf.autodiff.check_batch_independence(lambda x: x + 1e-9 * tf.reduce_sum(x), x0, atol=1e-6)
    assert out.shape == (2, 2, 2)


def test_batch_jacobian_errors():
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.concat([x, x], axis=0)
        v = x[0] * 2.0
    with pytest.raises(ValueError, match=r"\(4, 3\).*\(2, 3\).*must match"):
        tape.batch_jacobian(y, x)
    with pytest.raises(ValueError, match="rank at least 2"):
        tape.batch_jacobian(v, x)
    with pytest.raises(ValueError, match="rank at least 2"):
        tape.batch_jacobian(x, x[0])
    with pytest.raises(TypeError, match="single source"):
        tape.batch_jacobian(x, [x])
    with pytest.raises(ValueError, match="rank at least 2"):
        tf.autodiff.check_batch_independence(lambda t: t, c([1.0, 2.0]))


def test_batch_jacobian_degenerate_shapes():
    x = tf.zeros([1, 0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert tape.batch_jacobian(y, x).shape == (1, 0, 0)


# ---------------------------------------------------------------------------- matmul fast path
@pytest.mark.parametrize("case", ["diag_left", "diag_right", "onehot_cols", "onehot_rows"])
def test_matmul_with_diagonal_operand_is_exact(case):
    from tapegrad.ops.linalg import _diag_product
    n = 20
    d = np.diag(RNG.standard_normal(n))
    w = RNG.standard_normal((n, n))
    a, b = {"diag_left": (d, w), "diag_right": (w, d), "onehot_cols": (w, d[:, :, None]),
            "onehot_rows": (d[:, None, :], w)}[case]
    fast = _diag_product(a, b)
    assert fast is not None
    np.testing.assert_array_equal(fast, np.matmul(a, b))
    w_nan = w.copy()
    w_nan[0, 0] = np.nan
    a2, b2 = (a, w_nan) if case in ("diag_left", "onehot_rows") else (w_nan, b)
    assert _diag_product(a2, b2) is None  # NaN * 0 must propagate as in a real product


def test_benchmark_ratio_is_small():
    """The Jacobian of tanh(W x), R^64 -> R^64, costs a few VJPs (the full benchmark is
    benchmarks/bench_jacobian.py)."""
    import time
    n = 64
    w = c(RNG.standard_normal((n, n)))
    x = c(RNG.standard_normal(n))

    def vjp():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.tanh(tf.linalg.matvec(w, x))
        return tape.gradient(y, x)

    def jac():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.tanh(tf.linalg.matvec(w, x))
        return tape.jacobian(y, x)

    def best(fn):
        fn()
        return min(_timed(fn) for _ in range(15))

    def _timed(fn):
        t0 = time.perf_counter()
        fn()
        return time.perf_counter() - t0

    assert best(jac) < 10 * best(vjp)
    assert math.isfinite(float(tf.reduce_sum(jac())))


def test_unbroadcast_with_kept_leading_axis_has_derivatives():
    """The engine sums a batched cotangent back with ``lead=1`` (the Jacobian's row axis); its
    VJP must put the summed axes back after the kept one (nested Jacobians go through it)."""
    from tapegrad.ops.array import unbroadcast
    g = c(RNG.standard_normal((4, 2, 5, 3)))
    out = unbroadcast(g, (4, 1, 3), lead=1)
    np.testing.assert_allclose(out.numpy(), g.numpy().sum(axis=(1, 2))[:, None, :])
    tf.test.check_grads(lambda t: unbroadcast(t, (4, 1, 3), lead=1), [g], order=2)


# ---------------------------------------------------------------------------- every op's batch rule
def _optable_params():
    import os
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from optable import all_cases
    out = []
    for case in all_cases():
        if case.nondiff:
            continue
        for i, shapes in enumerate(case.shapes):
            for order in (1, 2)[:case.order]:
                out.append(pytest.param(case, shapes, order, id=f"{case.name}-{i}-o{order}"))
    return out


def _flat_jacobians(fn, args, pfor):
    from tapegrad import _nest
    ts = [tf.constant(a) for a in args]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(ts)
        ys = [tf.convert_to_tensor(y) for y in _nest.flatten(fn(*ts))]
    return [[j.numpy() for j in tape.jacobian(y, ts, unconnected_gradients="zero",
                                              experimental_use_pfor=pfor)]
            for y in ys if y.dtype.is_floating or y.dtype.is_complex]


@pytest.mark.parametrize("case,shapes,order", _optable_params())
def test_every_op_rule_takes_the_batch_axis(case, shapes, order):
    """Jacobians of every op in the op table (and, at order 2, of its VJP, which runs the rule's
    own ops) are identical from the one batched walk and from the row-by-row loop."""
    from tapegrad import _nest
    from test_op_gradients import _args
    args = _args(case, shapes, np.random.default_rng(zlib.crc32(case.name.encode())))
    fn = case.fn
    if order == 2:
        def fn(*ts):
            with tf.GradientTape() as t2:
                t2.watch(list(ts))
                ys = [tf.convert_to_tensor(y) for y in _nest.flatten(case.fn(*ts))]
            rng = np.random.default_rng(0)
            us = [tf.constant(np.asarray(rng.standard_normal(y.shape), y.numpy().dtype)) for y in ys]
            return t2.gradient(ys, list(ts), output_gradients=us, unconnected_gradients="zero")
    vec, loop = _flat_jacobians(fn, args, True), _flat_jacobians(fn, args, False)
    for jv, jl in zip(vec, loop):
        for a, b in zip(jv, jl):
            # the same numbers up to rounding: a batched matmul may sum in another order than a
            # row's (so not bit-identical; a mishandled batch axis is off by far more)
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14 * max(1.0, float(np.max(np.abs(b), initial=0))))


# ----------------------------------------------------------------------------- fail fast on memory
@pytest.fixture
def memory_limit():
    """Set the memory tapegrad assumes available (never allocate for real in a test)."""
    olds = []

    def set_(nbytes):
        olds.append(tf.autodiff.set_memory_limit(nbytes))
    yield set_
    if olds:
        tf.autodiff.set_memory_limit(olds[0])


@pytest.fixture
def walks(monkeypatch):
    """The row counts of the backward walks a Jacobian makes."""
    seen = []
    run = _tape.run_backward

    def spy(tape, *args, **kw):
        seen.append(kw.get("batch", 1))
        return run(tape, *args, **kw)
    monkeypatch.setattr(_tape, "run_backward", spy)
    return seen


def test_a_jacobian_too_large_for_memory_is_refused_before_any_walk(memory_limit, walks):
    x = c(np.linspace(0.1, 1.0, 1000))          # result: 1000 x 1000 float64 = 7.63 MiB
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sin(x) * x
    memory_limit(4 * 2**20)
    with pytest.raises(tf.errors.ResourceExhaustedError) as info:
        tape.jacobian(y, x)
    msg = str(info.value)
    assert "jacobian: the result (1000 rows of 7.81 KiB: 7.63 MiB)" in msg
    assert "working buffers of one row (at least 15.62 KiB)" in msg
    assert "more than the 4.00 MiB of memory available" in msg
    assert "slice the target inside the tape" in msg and "set_memory_limit" in msg
    assert walks == []
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), np.cos(x.numpy()) * x.numpy() + np.sin(x.numpy()))


def test_a_batch_jacobian_too_large_is_refused_with_batch_advice(memory_limit, walks):
    x = c(np.ones((100, 50)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tile(x, [1, 4])                  # result: 100 x 200 x 50 float64 = 7.63 MiB
    memory_limit(2**20)
    with pytest.raises(tf.errors.ResourceExhaustedError, match=r"batch_jacobian: the result .*slices of the batch"):
        tape.batch_jacobian(y, x)
    assert walks == []


def _peak(f):
    tracemalloc.start()
    try:
        out = f()
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("pfor", [True, False])
def test_only_the_working_buffers_too_large_means_smaller_chunks(memory_limit, walks, pfor):
    x = c(np.linspace(0.1, 1.0, 300))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.tanh(tf.sin(x) * x)
    want, whole = _peak(lambda: tape.jacobian(y, x, experimental_use_pfor=pfor).numpy())
    walks.clear()
    result = 300 * 300 * 8
    memory_limit(result + 40 * (2 * 300 * 8 + 300 * 8))     # the result and ~40 rows of walk
    got, peak = _peak(lambda: tape.jacobian(y, x, experimental_use_pfor=pfor).numpy())
    np.testing.assert_array_equal(got, want)
    assert len(walks) > 1 and max(walks) <= 40
    if pfor:  # one walk of 300 rows held every cotangent 300 times; chunked, the peak is the result
        # (720 kB) and ~40 rows of walk (288 kB) plus the allocator's slack: measured 0.45-0.50 of it
        assert peak < 0.6 * whole
    # the rows go into the preallocated result (no concat or stack copy of it)
    assert peak < result + 40 * 8 * 300 * 8   # a copy would add another 720 kB


def test_a_batch_jacobian_in_chunks_matches_the_whole(memory_limit, walks):
    x = c(RNG.uniform(0.3, 1.5, (20, 6)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.tanh(tf.matmul(x, c(W5[:, :3].T.repeat(2, 0)[:6, :3]))) * 2.0
    want = tape.batch_jacobian(y, x).numpy()
    walks.clear()
    memory_limit(20 * 3 * 6 * 8 + 2 * (2 * 20 * 6 * 8 + 20 * 6 * 8))   # result + 2 rows
    np.testing.assert_array_equal(tape.batch_jacobian(y, x).numpy(), want)
    assert walks == [2, 1]


def test_chunks_under_an_outer_tape_stay_differentiable(memory_limit):
    x = c([0.3, 0.7, 1.1, 1.9])
    memory_limit(4 * 4 * 8 * 2 + 3 * 2 * 4 * 8)   # two copies of the result + a few rows
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.sin(x) * x
        j = inner.jacobian(y, x)
        s = tf.reduce_sum(j)
    d2 = -np.sin(x.numpy()) * x.numpy() + 2 * np.cos(x.numpy())   # (x sin x)'' on the diagonal
    np.testing.assert_allclose(np.diag(j.numpy()), np.cos(x.numpy()) * x.numpy() + np.sin(x.numpy()))
    np.testing.assert_allclose(outer.gradient(s, x).numpy(), d2)


def test_set_memory_limit_validates():
    old = tf.autodiff.set_memory_limit(2**30)
    try:
        assert tf.autodiff.set_memory_limit(None) == 2**30
        for bad in (0, -1, 1.5, True, "1GB"):
            with pytest.raises(ValueError, match="positive number of bytes or None"):
                tf.autodiff.set_memory_limit(bad)
    finally:
        tf.autodiff.set_memory_limit(old)


def test_available_memory_is_read_from_the_machine(monkeypatch):
    from tapegrad import _memory
    assert tf.autodiff.set_memory_limit(None) is None
    avail = _memory.available()
    assert avail is None or avail > 0
    assert _memory.over(10) is None            # small sizes are never checked
    monkeypatch.setattr(_memory, "available", lambda: 100 * 2**20)
    assert _memory.over(200 * 2**20) == 100 * 2**20 and _memory.over(90 * 2**20) is None
def test_size_zero_target_keeps_connectivity():
    # TF: a size-0 target's Jacobian is None for an unconnected source (zeros with ZERO)
    x, u = tf.constant(np.zeros((0, 3), np.float32)), tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, u])
        y = tf.sqrt(x)
    jx, ju = tape.jacobian(y, [x, u])
    assert jx.shape == (0, 3, 0, 3) and ju is None
    jx, ju = tape.jacobian(y, [x, u], unconnected_gradients="zero")
    assert ju.shape == (0, 3, 2)


# ---------------------------------------------------------------------------- reused identity seeds
@pytest.fixture
def empty_seed_cache(monkeypatch):
    from tapegrad import _jacobian
    monkeypatch.setattr(_jacobian, "_identities", {})
    return _jacobian


def test_identity_seeds_are_read_only_and_reused(empty_seed_cache):
    jac = empty_seed_cache
    eye = jac._identity(5, np.dtype(np.float32))
    np.testing.assert_array_equal(eye, np.eye(5))
    assert eye.dtype == np.float32 and not eye.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        eye[0, 0] = 2
    assert jac._identity(5, np.float32) is eye            # the next call of that size reuses it
    assert jac._identity(5, np.float64) is not eye        # one per (n, dtype)
    x = tf.constant(RNG.standard_normal(5).astype(np.float32))
    for _ in range(2):                                    # the cached rows seed the walk
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sin(x)
        np.testing.assert_allclose(tape.jacobian(y, x).numpy(), np.diag(np.cos(x.numpy())), rtol=1e-6)
    np.testing.assert_array_equal(eye, np.eye(5))         # and are left as they were


def test_identity_seed_cache_stays_within_its_bound(empty_seed_cache, monkeypatch):
    jac = empty_seed_cache
    monkeypatch.setattr(jac, "SEED_CACHE_BYTES", 4096)    # 512 float64 entries
    for n in (4, 8, 16, 12, 20, 3, 22):
        assert jac._identity(n, np.float64) is not None
        assert sum(e.nbytes for e in jac._identities.values()) <= 4096
    assert (22, np.dtype(np.float64)) in jac._identities   # the newest is kept, the oldest dropped
    assert (4, np.dtype(np.float64)) not in jac._identities
    assert jac._identity(23, np.float64) is None           # 23² entries: never cached
    old = tf.autodiff.set_jacobian_memory_budget(256)      # a smaller budget bounds it further
    try:
        assert jac._identity(6, np.float64) is None and jac._identity(5, np.float64) is not None
        assert sum(e.nbytes for e in jac._identities.values()) <= 256
        x = tf.constant(RNG.standard_normal((3, 3)))         # too big to cache: built per walk
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        np.testing.assert_allclose(tape.jacobian(y, x).numpy().reshape(9, 9),
                                   np.diag(2 * x.numpy().ravel()))
    finally:
        tf.autodiff.set_jacobian_memory_budget(old)


@pytest.mark.parametrize("pfor", [True, False])
def test_the_jacobian_of_a_source_by_itself_is_the_identity(pfor):
    # the walk hands the (cached, read-only) seed straight back here: still an ordinary tensor
    x = tf.constant(RNG.standard_normal((2, 3)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
    j = tape.jacobian(x, x, experimental_use_pfor=pfor)
    np.testing.assert_array_equal(j.numpy().reshape(6, 6), np.eye(6))
    np.testing.assert_array_equal((j * 2.0).numpy().reshape(6, 6), 2 * np.eye(6))
    bj = tape.batch_jacobian(x, x, experimental_use_pfor=pfor)
    np.testing.assert_array_equal(bj.numpy(), np.broadcast_to(np.eye(3), (2, 3, 3)))
