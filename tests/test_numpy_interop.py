"""NumPy ufuncs and functions on tensors: the mapped ones return Tensors on the tape, the others
run NumPy on arrays; dtypes follow TensorFlow; explain mode names the NumPy call."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad._numpy_interop import FUNCTIONS, UFUNCS, _tf

RNG = np.random.default_rng(0)


def grad(f, x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return y, tape.gradient(y, x)


# ---------------------------------------------------------------------------- the tables
def test_table_values_resolve_to_tapegrad_functions():
    for key, target in {**UFUNCS, **FUNCTIONS}.items():
        assert callable(_tf(target) if isinstance(target, str) else target), key


def test_ufunc_table_holds_ufuncs_only():
    assert all(isinstance(u, np.ufunc) for u in UFUNCS)
    assert not any(isinstance(f, np.ufunc) for f in FUNCTIONS)


UNARY_DOMAIN = {np.arccosh: (1.2, 3.0), np.arcsin: (-0.9, 0.9), np.arccos: (-0.9, 0.9),
                np.arctanh: (-0.9, 0.9), np.log: (0.2, 3.0), np.log1p: (0.2, 3.0),
                np.sqrt: (0.2, 3.0), np.reciprocal: (0.5, 2.0), np.log2: (0.2, 3.0), np.log10: (0.2, 3.0)}
UNARY = [u for u in UFUNCS if u.nin == 1]
# (the matrix-vector ufuncs have their own tests; divmod has two outputs)
BINARY = [u for u in UFUNCS if u.nin == 2 and u.nout == 1 and u.signature is None]


@pytest.mark.parametrize("u", UNARY, ids=lambda u: u.__name__)
def test_unary_ufunc_matches_numpy_and_returns_tensor(u):
    lo, hi = UNARY_DOMAIN.get(u, (-2.0, 2.0))
    a = RNG.uniform(lo, hi, (3, 2))
    if u in (np.logical_not,):
        a = a > 0
    r = u(tf.constant(a))
    assert isinstance(r, tf.Tensor)
    np.testing.assert_allclose(r.numpy(), u(a), rtol=1e-12)


@pytest.mark.parametrize("u", BINARY, ids=lambda u: u.__name__)
def test_binary_ufunc_matches_numpy_and_returns_tensor(u):
    a, b = RNG.uniform(0.5, 2.0, (3, 2)), RNG.uniform(0.5, 2.0, (2,))
    if u in (np.logical_and, np.logical_or, np.logical_xor):
        a, b = a > 1, b > 1
    r = u(tf.constant(a), tf.constant(b))
    assert isinstance(r, tf.Tensor)
    np.testing.assert_allclose(r.numpy(), u(a, b), rtol=1e-12)


@pytest.mark.parametrize("u,tfu", [(np.sin, tf.sin), (np.exp, tf.exp), (np.tanh, tf.tanh),
                                   (np.square, tf.square), (np.arctan, tf.math.atan)],
                         ids=lambda u: getattr(u, "__name__", ""))
def test_ufunc_gradients_equal_tapegrad_op(u, tfu):
    a = np.array([0.3, -1.2, 2.0])
    y, g = grad(u, a)
    y2, g2 = grad(tfu, a)
    np.testing.assert_allclose(g.numpy(), g2.numpy())
    np.testing.assert_allclose(y.numpy(), y2.numpy())


def test_binary_ufunc_gradient_both_inputs():
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 5.0])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = np.sum(np.multiply(a, b) + np.power(a, 2.0) / b)
    ga, gb = tape.gradient(y, [a, b])
    np.testing.assert_allclose(ga.numpy(), [3 + 2 / 3, 5 + 4 / 5], rtol=1e-6)
    np.testing.assert_allclose(gb.numpy(), [1 - 1 / 9, 2 - 4 / 25], rtol=1e-6)


# ---------------------------------------------------------------------------- functions
A = RNG.normal(size=(3, 4))
SPD = A[:, :3].T @ A[:, :3] + 3 * np.eye(3)


def _svd_product(m, a):
    u, s, vh = m.linalg.svd(a, full_matrices=False)
    return m.matmul(u * s, vh)


# (name, fn(np, a), input): fn runs once with the array and once with a tensor for ``a``
CASES = [
    ("sum", lambda m, a: m.sum(a, axis=1, keepdims=True), A),
    ("sum_all", lambda m, a: m.sum(a), A),
    ("mean", lambda m, a: m.mean(a, axis=0), A),
    ("prod", lambda m, a: m.prod(a, axis=(0, 1)), A),
    ("max", lambda m, a: m.max(a, axis=1), A),
    ("min", lambda m, a: m.min(a, keepdims=True), A),
    ("amax", lambda m, a: m.amax(a, 0), A),
    ("std", lambda m, a: m.std(a, axis=1), A),
    ("var", lambda m, a: m.var(a), A),
    ("dot_scalar", lambda m, a: m.dot(a, 2.0), A),
    ("dot_vectors", lambda m, a: m.dot(a[0], a[1]), A),
    ("dot_matrix_vector", lambda m, a: m.dot(a, a[0]), A),
    ("dot_matrices", lambda m, a: m.dot(a, m.transpose(a)), A),
    ("dot_nd", lambda m, a: m.dot(m.reshape(a, (2, 3, 2)), a[:2]), A),
    ("matmul_1d_left", lambda m, a: m.matmul(a[:, 0], a), A),
    ("matmul_1d_both", lambda m, a: m.matmul(a[0], a[1]), A),
    ("outer", lambda m, a: m.outer(a[0], a[1, :2]), A),
    ("tensordot", lambda m, a: m.tensordot(a, a, axes=([1], [1])), A),
    ("einsum", lambda m, a: m.einsum("ij,kj->ik", a, a), A),
    ("where", lambda m, a: m.where(a > 0, a, -a), A),
    ("concatenate", lambda m, a: m.concatenate([a, a], axis=1), A),
    ("concatenate_none", lambda m, a: m.concatenate([a, a[0]], axis=None), A),
    ("stack", lambda m, a: m.stack([a, a], axis=-1), A),
    ("reshape", lambda m, a: m.reshape(a, (2, -1)), A),
    ("reshape_int", lambda m, a: m.reshape(a, 12), A),
    ("transpose", lambda m, a: m.transpose(a), A),
    ("transpose_axes", lambda m, a: m.transpose(m.reshape(a, (3, 2, 2)), (2, 0, 1)), A),
    ("squeeze", lambda m, a: m.squeeze(m.reshape(a, (3, 1, 4)), axis=1), A),
    ("expand_dims", lambda m, a: m.expand_dims(a, 1), A),
    ("clip", lambda m, a: m.clip(a, -0.5, 0.5), A),
    ("broadcast_to", lambda m, a: m.broadcast_to(a[0], (2, 4)), A),
    ("cumsum", lambda m, a: m.cumsum(a), A),
    ("cumprod", lambda m, a: m.cumprod(a, axis=1), A),
    ("trace", lambda m, a: m.trace(a[:, :3]), A),
    ("round", lambda m, a: m.round(a * 3), A),
    ("inv", lambda m, a: m.linalg.inv(a), SPD),
    ("det", lambda m, a: m.linalg.det(a), SPD),
    ("slogdet", lambda m, a: m.linalg.slogdet(a)[1], SPD),
    ("cholesky", lambda m, a: m.linalg.cholesky(a), SPD),
    ("solve_vector", lambda m, a: m.linalg.solve(a, a[0]), SPD),
    ("solve_matrix", lambda m, a: m.linalg.solve(a, a[:, :2]), SPD),
    ("norm", lambda m, a: m.linalg.norm(a), A),
    ("norm_vector_1", lambda m, a: m.linalg.norm(a[0], 1), A),
    ("norm_axis", lambda m, a: m.linalg.norm(a, axis=1), A),
    ("svd_s", lambda m, a: m.linalg.svd(a, compute_uv=False), A),
    ("svd_product", _svd_product, A),
    ("qr_r_abs", lambda m, a: m.abs(m.linalg.qr(a)[1]), A),
    ("eigvalsh", lambda m, a: m.linalg.eigvalsh(a), SPD),
    ("eigh_values", lambda m, a: m.linalg.eigh(a)[0], SPD),
    ("pinv", lambda m, a: m.linalg.pinv(a), A),
]


@pytest.mark.parametrize("name,fn,a", CASES, ids=[c[0] for c in CASES])
def test_function_matches_numpy_and_is_recorded(name, fn, a):
    t = tf.constant(a)
    with tf.GradientTape() as tape:
        tape.watch(t)
        got = fn(np, t)
    assert isinstance(got, tf.Tensor), f"np function {name} returned {type(got).__name__}"
    np.testing.assert_allclose(got.numpy(), fn(np, a), rtol=1e-10, atol=1e-12)
    g = tape.gradient(got, t)
    if name != "round":
        assert g is not None, f"{name}: the result is not on the tape"


def test_function_gradient_matches_tapegrad():
    x = tf.constant(SPD)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a = np.linalg.det(x) + np.sum(np.linalg.inv(x)) + np.mean(np.dot(x, x))
        b = tf.linalg.det(x) + tf.reduce_sum(tf.linalg.inv(x)) + tf.reduce_mean(tf.matmul(x, x))
    np.testing.assert_allclose(tape.gradient(a, x).numpy(), tape.gradient(b, x).numpy(), rtol=1e-12)


# ---------------------------------------------------------------------------- dtypes and operators
def test_array_takes_the_tensor_dtype():
    t = tf.constant([1.0, 2.0])                           # float32
    for r in (np.ones(2) * t, t * np.ones(2), np.add(np.ones(2), t), np.ones(2) @ t,
              np.concatenate([np.ones(2), t]), np.where(np.array([True, False]), np.ones(2), t),
              np.stack([t, np.zeros(2)])):
        assert isinstance(r, tf.Tensor) and r.dtype == tf.float32


def test_int_array_with_float_tensor_converts():
    r = np.array([1, 2]) + tf.constant([0.5, 0.5])
    assert r.dtype == tf.float32
    np.testing.assert_array_equal(r.numpy(), [1.5, 2.5])


def test_float_array_with_int_tensor_is_an_error():
    with pytest.raises(TypeError, match="Cast"):
        np.array([1.5]) * tf.constant([1])


def test_two_tensors_of_different_dtypes_are_an_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="tf.cast"):
        np.add(tf.constant([1.0]), tf.constant([1.0], tf.float64))


def test_array_on_the_left_of_operators_gives_tensors():
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    a = np.eye(2)
    for r in (a * t, a + t, a - t, a / (t + 1), a @ t, a ** t, np.float64(2.0) * t, a > t):
        assert isinstance(r, tf.Tensor)
    np.testing.assert_array_equal((a @ t).numpy(), t.numpy())


def test_array_operator_with_variable_is_recorded():
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = np.sum(np.array([3.0, 4.0]) * v) + np.sum(np.sin(v))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [3 + np.cos(1.0), 4 + np.cos(2.0)],
                               rtol=1e-6)


# ---------------------------------------------------------------------------- the fallback
def test_unmapped_function_returns_an_array():
    t = tf.constant([3.0, 1.0, 2.0])
    r = np.median(t)
    assert not isinstance(r, tf.Tensor) and r == 2.0
    assert isinstance(np.percentile(t, 50), np.floating)


def test_unsupported_arguments_fall_back_to_numpy():
    t = tf.constant([1.0, 2.0])
    r = np.sum(t, dtype=np.float64)
    assert not isinstance(r, tf.Tensor) and r.dtype == np.float64
    assert isinstance(np.add.reduce(t), np.floating)
    assert not isinstance(np.std(t, ddof=1), tf.Tensor)
    assert not isinstance(np.where(t > 1.0), tf.Tensor)          # one-argument where
    assert not isinstance(np.reshape(t, (2, 1), order="F"), tf.Tensor)


def test_out_array_is_written():
    t = tf.constant([1.0, 2.0])
    out = np.zeros(2, np.float32)
    r = np.multiply(t, 2.0, out=out)
    assert r is out
    np.testing.assert_array_equal(out, [2.0, 4.0])
    acc = np.ones(2, np.float32)
    acc += t
    np.testing.assert_array_equal(acc, [2.0, 3.0])


def test_out_tensor_is_refused():
    t = tf.constant([1.0, 2.0])
    with pytest.raises(TypeError, match="immutable"):
        np.multiply(np.ones(2), 2.0, out=(t,))


def test_numpy_helpers_still_work_on_tensors():
    t = tf.constant([1.0, 2.0])
    assert np.allclose(t, [1.0, 2.0])
    assert np.isclose(t, 1.0).tolist() == [True, False]
    np.testing.assert_allclose(t, [1.0, 2.0])
    assert np.asarray(t).dtype == np.float32
    assert np.shape(t) == (2,)


def test_random_choice_takes_tensor_probabilities_as_an_array():
    """np.random.choice(n, p=np.squeeze(probs)) under a tape (an actor-critic's draw): np.squeeze
    keeps a Tensor on the tape, and np.random.choice gets it as the float32 array TensorFlow's
    np.squeeze returns, so NumPy checks its sum within float32's tolerance (3.4e-4, not
    float64's 1.5e-8) and draws as from that array."""
    logits = tf.Variable([[2.0, -2.1]])
    with tf.GradientTape() as tape:
        probs = tf.nn.softmax(logits * 1.0)
        p = np.squeeze(probs)
        assert isinstance(p, tf.Tensor)
        assert np.sum(p.numpy().astype(np.float64)) != 1.0   # off by float32 round-off
        np.random.seed(7)
        drawn = [np.random.choice(2, p=p) for _ in range(20)] + [list(np.random.choice(tf.constant([4, 5]), 3, p=p))]
        loss = -tf.math.log(probs[0, drawn[0]])
    np.random.seed(7)
    want = [np.random.choice(2, p=p.numpy()) for _ in range(20)] + [list(np.random.choice(np.array([4, 5]), 3, p=p.numpy()))]
    assert drawn == want
    assert tape.gradient(loss, logits) is not None
    with pytest.raises(ValueError, match="do not sum to 1"):   # NumPy's own check still applies
        np.random.choice(2, p=tf.constant([0.5, 0.6]))


def test_fallback_result_is_a_constant_for_tapes():
    x = tf.constant([3.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        with pytest.warns(UserWarning, match="np.percentile .* constant for the tape"):
            m = np.percentile(x, [0, 100])
        y = tf.reduce_sum(tf.constant(m, tf.float32) * x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [1.0, 3.0])


def test_explain_mode_names_the_numpy_call():
    x = tf.constant([3.0, 1.0])
    with tf.GradientTape().explain(warn=False) as tape:
        tape.watch(x)
        with pytest.warns(UserWarning, match="np.median"):
            y = tf.reduce_sum(tf.constant(np.median(x)) * 2.0)
    with pytest.raises(tf.errors.UnconnectedGradientError) as e:
        tape.gradient(y, x, unconnected_gradients="raise")
    cause = e.value.diagnoses[0].causes[0]
    assert cause.kind == "escaped" and "np.median" in cause.message
    assert cause.filename == __file__


def test_explain_mode_names_a_numpy_linalg_call():
    x = tf.constant([[2.0, 1.0], [1.0, 3.0]])
    with tf.GradientTape().explain(warn=False) as tape:
        tape.watch(x)
        with pytest.warns(UserWarning, match="np.linalg.eigvals"):
            w = np.linalg.eigvals(x)  # not implemented by tapegrad
        y = tf.reduce_sum(tf.constant(np.real(w)) * 1.0)
    d = tf.diagnosis.diagnose(tape, y, x)
    assert "np.linalg.eigvals" in d[0].causes[0].message


def test_mapped_calls_are_not_escapes():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape().explain(warn=False) as tape:
        tape.watch(x)
        y = np.sum(np.exp(x))
    assert tape._rec.explain.escapes == []
    assert tape.gradient(y, x) is not None


def test_forward_mode_through_numpy_calls():
    x = tf.constant([0.5, 1.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0])) as acc:
        y = np.sin(x) * np.exp(x)
    np.testing.assert_allclose(acc.jvp(y).numpy(), [np.cos(0.5) * np.exp(0.5) + np.sin(0.5) * np.exp(0.5), 0.0],
                               rtol=1e-6)


def test_foreign_ufunc_falls_back_and_is_named():
    special = pytest.importorskip("scipy.special")
    x = tf.constant([0.5, 1.0])
    with tf.GradientTape().explain(warn=False) as tape:
        tape.watch(x)
        with pytest.warns(UserWarning, match="scipy.special.gamma was given"):
            e = special.gamma(x)   # a SciPy ufunc with no tapegrad op
        y = tf.reduce_sum(tf.constant(e) * 2.0)
    assert isinstance(e, np.ndarray)
    np.testing.assert_allclose(e, special.gamma(np.array([0.5, 1.0], np.float32)))
    c = tf.diagnosis.diagnose(tape, y, x)[0].causes[0]
    assert c.kind == "escaped" and "scipy.special.gamma" in c.message


def test_docstring_examples():
    import doctest
    from tapegrad import _numpy_interop
    assert doctest.testmod(_numpy_interop).failed == 0


def test_np_asarray_of_a_tensor_cannot_change_the_tensor():
    t = tf.exp(tf.constant([0.0, 0.0]))   # an op's output: a fresh NumPy array inside
    a = np.asarray(t)
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 5.0
    b = np.array(t)                       # a copy stays writable
    b[0] = 5.0
    np.testing.assert_array_equal(t.numpy(), [1.0, 1.0])
