"""Matrix decompositions (tapegrad/ops/decompositions.py): values against NumPy/SciPy,
TensorFlow conventions, errors, dtypes, and Jacobians (batched cotangents) through the rules."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError


la = tf.linalg


RNG = np.random.default_rng(7)


def _spd(n, batch=()):
    a = RNG.uniform(-1, 1, batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def _wc(n, batch=()):
    return RNG.uniform(-1, 1, batch + (n, n)) + n * np.eye(n)


# --------------------------------------------------------------------------- values
def test_decomposition_values_against_numpy() -> None:
    a = _spd(4, (2,))
    L = la.cholesky(a).numpy()
    np.testing.assert_allclose(L, np.linalg.cholesky(a))
    g = _wc(4, (2,))
    np.testing.assert_allclose(la.inv(g).numpy(), np.linalg.inv(g))
    np.testing.assert_allclose(la.inv(g, adjoint=True).numpy(), np.linalg.inv(np.swapaxes(g, -1, -2)))
    np.testing.assert_allclose(la.det(g).numpy(), np.linalg.det(g))
    s, l = la.slogdet(-g)
    np.testing.assert_allclose(s.numpy(), np.linalg.slogdet(-g)[0])
    np.testing.assert_allclose(l.numpy(), np.linalg.slogdet(-g)[1])
    np.testing.assert_allclose(la.logdet(a).numpy(), np.linalg.slogdet(a)[1])
    b = RNG.standard_normal((2, 4, 3))
    np.testing.assert_allclose(la.solve(g, b).numpy(), np.linalg.solve(g, b))
    np.testing.assert_allclose(la.solve(g, b, adjoint=True).numpy(), np.linalg.solve(np.swapaxes(g, -1, -2), b))
    np.testing.assert_allclose(la.cholesky_solve(L, b).numpy(), np.linalg.solve(a, b))
    np.testing.assert_allclose(la.triangular_solve(g, b).numpy(), np.linalg.solve(np.tril(g), b))
    np.testing.assert_allclose(la.triangular_solve(g, b, lower=False, adjoint=True).numpy(),
                               np.linalg.solve(np.swapaxes(np.triu(g), -1, -2), b))
    e, v = la.eigh(a)
    np.testing.assert_allclose(e.numpy(), np.linalg.eigvalsh(a))
    np.testing.assert_allclose((v.numpy() * e.numpy()[..., None, :]) @ np.swapaxes(v.numpy(), -1, -2), a, atol=1e-12)
    np.testing.assert_allclose(la.eigvalsh(a).numpy(), np.linalg.eigvalsh(a))


def test_svd_qr_expm_pinv_lstsq_against_numpy_scipy() -> None:
    import scipy.linalg
    x = RNG.standard_normal((2, 5, 3))
    s, u, v = la.svd(x)
    assert (s.shape, u.shape, v.shape) == ((2, 3), (2, 5, 3), (2, 3, 3))
    np.testing.assert_allclose((u.numpy() * s.numpy()[..., None, :]) @ np.swapaxes(v.numpy(), -1, -2), x, atol=1e-12)
    np.testing.assert_allclose(la.svd(x, compute_uv=False).numpy(), np.linalg.svd(x, compute_uv=False))
    s, u, v = la.svd(x, full_matrices=True)
    assert (u.shape, v.shape) == ((2, 5, 5), (2, 3, 3))
    q, r = la.qr(x)
    assert (q.shape, r.shape) == ((2, 5, 3), (2, 3, 3))
    np.testing.assert_allclose(q.numpy() @ r.numpy(), x, atol=1e-12)
    np.testing.assert_array_equal(np.tril(r.numpy(), -1), 0)
    q, r = la.qr(x, full_matrices=True)
    assert (q.shape, r.shape) == ((2, 5, 5), (2, 5, 3))
    m = RNG.standard_normal((3, 3)) * 0.5
    np.testing.assert_allclose(la.expm(m).numpy(), scipy.linalg.expm(m))
    np.testing.assert_allclose(la.pinv(x).numpy(), np.linalg.pinv(x), atol=1e-12)
    b = RNG.standard_normal((5, 2))
    np.testing.assert_allclose(la.lstsq(x[0], b).numpy(), np.linalg.lstsq(x[0], b, rcond=None)[0])
    np.testing.assert_allclose(la.lstsq(x[0], b, fast=False).numpy(), np.linalg.lstsq(x[0], b, rcond=None)[0])
    wide = x[0].T
    np.testing.assert_allclose(la.lstsq(wide, b[:3]).numpy(), np.linalg.lstsq(wide, b[:3], rcond=None)[0])
    lam = 0.3
    ridge = np.linalg.solve(x[0].T @ x[0] + lam * np.eye(3), x[0].T @ b)
    np.testing.assert_allclose(la.lstsq(x[0], b, l2_regularizer=lam).numpy(), ridge)


def test_pinv_of_rank_deficient_matrix() -> None:
    a = np.array([[1.0, 2.0], [2.0, 4.0], [0.0, 0.0]])
    np.testing.assert_allclose(la.pinv(a).numpy(), np.linalg.pinv(a), atol=1e-12)


# --------------------------------------------------------------------------- conventions
def _grad(f, x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x).numpy()


def test_gradient_conventions_follow_the_triangle_read() -> None:
    a = _spd(3)
    w = RNG.standard_normal((3, 3))
    gc = _grad(lambda x: tf.reduce_sum(la.cholesky(x) * w), a)
    np.testing.assert_allclose(gc, gc.T)                          # symmetric (TF's convention)
    ge = _grad(lambda x: tf.reduce_sum(la.eigh(x)[1] ** 2 * w), a)
    np.testing.assert_array_equal(np.triu(ge, 1), 0)               # lower triangular
    gt = _grad(lambda x: tf.reduce_sum(la.triangular_solve(x, np.ones((3, 1)), lower=False)), a)
    np.testing.assert_array_equal(np.tril(gt, -1), 0)


def test_eigh_and_svd_with_repeated_values_have_finite_gradients() -> None:
    d = np.diag([2.0, 2.0, 5.0])
    g = _grad(lambda x: tf.reduce_sum(la.eigh(x)[1] * np.arange(9.0).reshape(3, 3)), d)
    assert np.all(np.isfinite(g))
    g = _grad(lambda x: tf.reduce_sum(la.svd(x)[0]), np.diag([3.0, -3.0, 1.0]))
    np.testing.assert_allclose(g, np.diag([1.0, -1.0, 1.0]), atol=1e-12)


def test_svd_full_matrices_gradient_limits() -> None:
    x = RNG.standard_normal((4, 2))
    with pytest.raises(NotImplementedError, match="full_matrices"):
        _grad(lambda t: tf.reduce_sum(la.svd(t, full_matrices=True)[1]), x)
    with pytest.raises(NotImplementedError, match="full_matrices"):
        _grad(lambda t: tf.reduce_sum(la.qr(t, full_matrices=True)[0]), x)


def test_jacobians_use_batched_cotangents() -> None:
    a = tf.constant(_spd(3))
    b = tf.constant(RNG.standard_normal((3, 2)))
    fns = [la.cholesky, la.inv, lambda x: la.eigh(x)[0], lambda x: la.svd(x)[0], lambda x: la.qr(x)[1],
           la.expm, lambda x: la.solve(x, b), lambda x: la.triangular_solve(x, b), la.det,
           lambda x: la.slogdet(x)[1], lambda x: la.fill_triangular_inverse(x), la.eigvalsh,
           lambda x: la.set_diag(x, la.diag_part(x) * 2.0), lambda x: la.cross(x, x[::-1])]
    for f in fns:
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(a)
            y = f(a)
        jac = tape.jacobian(y, a).numpy()
        flat = tf.reshape(y, [-1])
        rows = []
        for i in range(int(np.prod(y.shape))):
            with tf.GradientTape() as t2:
                t2.watch(a)
                yi = tf.reshape(f(a), [-1])[i]
            rows.append(t2.gradient(yi, a).numpy())
        np.testing.assert_allclose(jac.reshape(flat.shape + (3, 3)), np.stack(rows), atol=1e-10, err_msg=str(f))


# --------------------------------------------------------------------------- dtypes, errors
@pytest.mark.parametrize("fn", [la.cholesky, la.inv, la.det, la.expm, la.eigvalsh, la.logdet,
                                lambda x: la.svd(x)[1], lambda x: la.qr(x)[0], lambda x: la.eigh(x)[1],
                                lambda x: la.slogdet(x)[1], la.pinv, lambda x: la.solve(x, x)])
def test_float32_stays_float32(fn) -> None:
    x = tf.constant(_spd(3).astype(np.float32))
    assert fn(x).dtype == tf.float32


def test_integer_inputs_are_rejected() -> None:
    for f in (la.cholesky, la.inv, la.det, la.eigh, la.svd, la.qr, la.expm):
        with pytest.raises(InvalidArgumentError, match="int32"):
            f(tf.constant([[2, 1], [1, 2]]))


def test_cholesky_errors() -> None:
    with pytest.raises(InvalidArgumentError, match="must be square"):
        la.cholesky(tf.ones([2, 3]))
    with pytest.raises(InvalidArgumentError, match="Cholesky decomposition was not successful"):
        la.cholesky(tf.constant([[1.0, 2.0], [2.0, 1.0]]))


def test_shape_and_value_errors_name_the_shapes() -> None:
    with pytest.raises(InvalidArgumentError, match="not invertible"):
        la.inv(tf.ones([2, 2]))
    with pytest.raises(InvalidArgumentError, match=r"\[2, 2\].*\[3, 1\]"):
        la.solve(tf.eye(2), tf.ones([3, 1]))
    with pytest.raises(InvalidArgumentError, match="batch"):
        la.solve(tf.eye(2, batch_shape=[2]), tf.ones([2, 1]))
    with pytest.raises(InvalidArgumentError, match="not invertible"):
        la.solve(tf.zeros([2, 2]), tf.ones([2, 1]))
    with pytest.raises(InvalidArgumentError, match=r"\[2, 2\].*\[3, 1\]"):
        la.triangular_solve(tf.eye(2), tf.ones([3, 1]))
    with pytest.raises(InvalidArgumentError, match=r"\[3, 2\].*\[4, 1\]"):
        la.lstsq(tf.ones([3, 2]), tf.ones([4, 1]))
    with pytest.raises(InvalidArgumentError, match="same shape"):
        la.cross(tf.ones([3]), tf.ones([2, 3]))
    with pytest.raises(InvalidArgumentError, match="must be 3"):
        la.cross(tf.ones([4]), tf.ones([4]))
    with pytest.raises(InvalidArgumentError, match=r"\[2\]"):
        la.set_diag(tf.ones([2, 2]), tf.ones([3]))
    with pytest.raises(InvalidArgumentError, match="square"):
        la.det(tf.ones([2, 3]))
    with pytest.raises(InvalidArgumentError, match="different dtypes"):
        la.solve(tf.eye(2), tf.ones([2, 1], tf.float64))


def test_triangular_solve_zero_pivot_gives_ieee_values() -> None:
    x = la.triangular_solve(tf.constant([[0.0, 0.0], [1.0, 1.0]]), tf.constant([[1.0], [1.0]])).numpy()
    assert np.isinf(x[0, 0])


# ----------------------------------------------------------------------------- NaN / Inf inputs
@pytest.mark.parametrize("pos", [(0, 0), (0, 1), (1, 0), (1, 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_a_matrix_with_nan_has_an_all_nan_inverse_and_solution(pos, dtype):
    # LAPACK's pivoting left [[nan, nan], [1.5, -0.5]] for a NaN at (0, 0); TF raises there only
    a = np.array([[1.0, 2.0], [3.0, 4.0]], dtype)
    a[pos] = np.nan
    batch = np.stack([a, np.array([[2.0, 0.0], [0.0, 4.0]], dtype)])
    inv = tf.linalg.inv(batch).numpy()
    assert np.isnan(inv[0]).all()
    np.testing.assert_allclose(inv[1], [[0.5, 0.0], [0.0, 0.25]])
    x = tf.linalg.solve(batch, np.ones((2, 2, 1), dtype)).numpy()
    assert np.isnan(x[0]).all()
    np.testing.assert_allclose(x[1], [[0.5], [0.25]])
    assert np.isnan(tf.linalg.inv(a, adjoint=True).numpy()).all()
    assert np.isnan(tf.linalg.det(a).numpy())


def test_inf_entries_and_singular_matrices_keep_their_behaviour():
    # IEEE arithmetic through LU, as TF's values; an exactly singular matrix still raises
    np.testing.assert_array_equal(tf.linalg.inv([[np.inf, 2.0], [3.0, 4.0]]).numpy(), [[0.0, 0.0], [0.0, 0.25]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input is not invertible"):
        tf.linalg.inv([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix is not invertible"):
        tf.linalg.solve([[1.0, 2.0], [2.0, 4.0]], [[1.0], [1.0]])


def test_svd_of_a_non_finite_matrix_is_nan_as_in_tensorflow():
    b = np.array([[[1.0, 2.0], [3.0, 4.0]], [[1.0, np.nan], [3.0, 4.0]], [[np.inf, 0.0], [0.0, 1.0]]])
    s, u, v = tf.linalg.svd(b)
    for t in (s, u, v):
        assert np.isnan(t.numpy()[1:]).all() and np.isfinite(t.numpy()[0]).all()
    np.testing.assert_allclose(s.numpy()[0], np.linalg.svd(b[0], compute_uv=False))
    assert np.isnan(tf.linalg.svd(b, compute_uv=False).numpy()[1:]).all()
    assert np.isnan(tf.linalg.pinv(b[1]).numpy()).all()
    assert np.isnan(tf.linalg.norm(b[1], ord=2, axis=[-2, -1]).numpy())


def test_eigh_of_a_non_finite_matrix_raises_as_in_tensorflow():
    for bad in (np.nan, np.inf):
        for fn in (tf.linalg.eigh, tf.linalg.eigvalsh):
            with pytest.raises(tf.errors.InvalidArgumentError, match="lower triangle holds NaN or Inf"):
                fn([[1.0, 0.0], [bad, 1.0]])
    e = tf.linalg.eigvalsh([[2.0, np.nan], [0.0, 3.0]])   # only the lower triangle is read
    np.testing.assert_allclose(e.numpy(), [2.0, 3.0])


def test_det_of_nan_and_overflow_is_silent():
    import warnings
    with warnings.catch_warnings():
        warnings.filterwarnings("error", category=RuntimeWarning, module="numpy")
        assert np.isnan(tf.linalg.det([[np.nan, 1.0], [1.0, 1.0]]).numpy())
        assert np.isnan(tf.linalg.slogdet([[np.nan, 1.0], [1.0, 1.0]])[1].numpy())
        assert np.isinf(tf.linalg.det(tf.constant([[1e300, 0.0], [0.0, 1e300]], tf.float64)).numpy())


def test_lstsq_exact_of_a_nan_matrix_is_nan():
    # TF 2.21's fast=False returns zeros here (docs/differences.md)
    a = np.array([[1.0, np.nan], [3.0, 4.0]])
    assert np.isnan(tf.linalg.lstsq(a, np.ones((2, 1)), fast=False).numpy()).all()
    assert np.isnan(tf.linalg.lstsq(a, np.ones((2, 1))).numpy()).all()


def test_lu_tridiagonal_rank_and_tensor_diag_give_tensorflows_numbers():
    # tests/math_linalg_programs.py, recorded under TensorFlow in tests/fixtures/tf_signal_image.npz
    from math_linalg_programs import linalg_names
    from test_signal import compare
    compare("linalg_names", linalg_names(tf))
