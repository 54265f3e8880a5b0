"""tf.linalg: values and gradients of solves, inverses, determinants and decompositions.

Eigenvector and singular-vector signs are implementation choices (LAPACK here, Eigen in
TensorFlow), so programs return only gauge-invariant functions of them (``v * v``, projectors
``u diag(w) v^T``) and their gradients.
"""

import numpy as np

from ._registry import tf_raises

A3 = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]]          # SPD, distinct eigenvalues
G3 = [[2.0, 0.5, -0.3], [0.4, 3.0, 0.2], [-0.7, 0.4, 5.0]]        # well conditioned
W3 = [[1.0, -2.0, 0.5], [0.3, 1.5, -1.0], [2.0, 0.7, -0.4]]        # weights for losses
T43 = [[1.0, 2.0, 0.5], [0.0, 1.0, -1.0], [3.0, 0.5, 2.0], [1.0, -1.0, 0.0]]


def _c(tf, v, dtype=None):
    # via a float64 array: Python floats are then exact in float64 (not rounded through float32)
    return tf.constant(np.asarray(v, np.float64), dtype or tf.float64)


def _grad(tf, fn, *xs):
    with tf.GradientTape() as tape:
        tape.watch(list(xs))
        y = fn(*xs)
    return [y, tape.gradient(y, list(xs))]


def _wsum(tf, t, w):
    return tf.reduce_sum(t * w)


# --------------------------------------------------------------------------- cholesky
def case_cholesky_value_and_grad(tf):
    w = _c(tf, W3)
    return _grad(tf, lambda a: _wsum(tf, tf.linalg.cholesky(a), w), _c(tf, A3)) + [tf.linalg.cholesky(_c(tf, A3))]


def case_cholesky_batch_float32(tf):
    a = tf.constant([A3, np.eye(3) * 2.0], tf.float32)
    return _grad(tf, lambda a: tf.linalg.cholesky(a), a)


def case_cholesky_reads_lower_triangle(tf):
    a = _c(tf, [[4.0, 100.0], [2.0, 3.0]])
    return _grad(tf, lambda a: tf.reduce_sum(tf.linalg.cholesky(a)), a)


def case_cholesky_not_positive_definite(tf):
    # TensorFlow 2.21 fills the factor with NaN (its upper entry is uninitialised memory)
    return tf.linalg.cholesky(_c(tf, [[1.0, 2.0], [2.0, 1.0]]))[:, 0]


@tf_raises("InvalidArgumentError")
def case_cholesky_not_square(tf):
    return tf.linalg.cholesky(tf.ones([2, 3]))


def case_cholesky_solve_grads(tf):
    b = _c(tf, [[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]])
    L = tf.linalg.cholesky(_c(tf, A3))
    return _grad(tf, lambda l, b: _wsum(tf, tf.linalg.cholesky_solve(l, b), b), L, b)


def case_logdet_value_and_grad(tf):
    return _grad(tf, tf.linalg.logdet, _c(tf, A3))


# --------------------------------------------------------------------------- triangular solve
def case_triangular_solve_lower(tf):
    b = _c(tf, [[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]])
    return _grad(tf, lambda a, b: _wsum(tf, tf.linalg.triangular_solve(a, b), b), _c(tf, G3), b)


def case_triangular_solve_upper_adjoint(tf):
    b = _c(tf, [[1.0], [0.5], [3.0]])
    return _grad(tf, lambda a, b: tf.linalg.triangular_solve(a, b, lower=False, adjoint=True), _c(tf, G3), b)


def case_triangular_solve_lower_adjoint(tf):
    b = _c(tf, [[1.0], [0.5], [3.0]])
    return _grad(tf, lambda a, b: tf.linalg.triangular_solve(a, b, adjoint=True) ** 2, _c(tf, G3), b)


def case_triangular_solve_broadcast_batch(tf):
    a = _c(tf, [G3, A3])
    b = _c(tf, [[1.0], [0.5], [3.0]])
    return _grad(tf, lambda a, b: tf.linalg.triangular_solve(a, b), a, b)


@tf_raises("InvalidArgumentError")
def case_triangular_solve_shape_mismatch(tf):
    return tf.linalg.triangular_solve(tf.eye(2), tf.ones([3, 1]))


# --------------------------------------------------------------------------- inverse, det
def case_inv_value_and_grad(tf):
    w = _c(tf, W3)
    return _grad(tf, lambda a: _wsum(tf, tf.linalg.inv(a), w), _c(tf, G3))


def case_inv_adjoint_grad(tf):
    w = _c(tf, W3)
    return _grad(tf, lambda a: _wsum(tf, tf.linalg.inv(a, adjoint=True), w), _c(tf, G3))


def case_inv_complex_grad(tf):
    a = tf.complex(_c(tf, G3), _c(tf, W3) * 0.3)
    return _grad(tf, lambda a: tf.reduce_sum(tf.math.real(tf.linalg.inv(a)) + tf.math.imag(tf.linalg.inv(a))), a)


@tf_raises("InvalidArgumentError")
def case_inv_singular(tf):
    return tf.linalg.inv(tf.ones([2, 2]))


@tf_raises("InvalidArgumentError")
def case_inv_not_square(tf):
    return tf.linalg.inv(tf.ones([2, 3]))


def case_det_value_and_grad_batch(tf):
    return _grad(tf, tf.linalg.det, _c(tf, [G3, A3]))


def case_det_float32(tf):
    return _grad(tf, tf.linalg.det, tf.constant([[2.0, 1.0], [1.0, 3.0]]))


def case_det_complex_grad(tf):
    a = tf.complex(_c(tf, G3), _c(tf, W3) * 0.3)
    return _grad(tf, lambda a: tf.math.real(tf.linalg.det(a)), a)


def case_det_singular_value(tf):
    return tf.linalg.det(_c(tf, [[1.0, 2.0], [2.0, 4.0]]))


@tf_raises("InvalidArgumentError")
def case_det_not_square(tf):
    return tf.linalg.det(tf.ones([2, 3]))


def case_slogdet_negative_determinant(tf):
    a = _c(tf, [[0.0, 2.0], [3.0, 1.0]])
    with tf.GradientTape() as tape:
        tape.watch(a)
        s, l = tf.linalg.slogdet(a)
    return [s, l, tape.gradient(l, a)]


# --------------------------------------------------------------------------- solve, lstsq
def case_solve_grads(tf):
    b = _c(tf, [[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]])
    return _grad(tf, lambda a, b: _wsum(tf, tf.linalg.solve(a, b), b), _c(tf, G3), b)


def case_solve_adjoint_batch(tf):
    b = _c(tf, [[[1.0], [0.5], [3.0]], [[0.0], [1.0], [-1.0]]])
    return _grad(tf, lambda a, b: tf.linalg.solve(a, b, adjoint=True), _c(tf, [G3, A3]), b)


@tf_raises("InvalidArgumentError")
def case_solve_incompatible(tf):
    return tf.linalg.solve(tf.eye(2), tf.ones([3, 1]))


@tf_raises("InvalidArgumentError")
def case_solve_singular(tf):
    return tf.linalg.solve(tf.zeros([2, 2]), tf.ones([2, 1]))


def case_lstsq_tall(tf):
    b = _c(tf, [[1.0], [2.0], [0.0], [-1.0]])
    return _grad(tf, lambda a, b: tf.linalg.lstsq(a, b), _c(tf, T43), b)


def case_lstsq_wide_regularized(tf):
    a = tf.transpose(_c(tf, T43))
    b = _c(tf, [[1.0, 0.0], [2.0, 1.0], [0.0, 3.0]])
    return _grad(tf, lambda a, b: tf.linalg.lstsq(a, b, l2_regularizer=0.5), a, b)


def case_lstsq_slow_value(tf):
    b = _c(tf, [[1.0], [2.0], [0.0], [-1.0]])
    return tf.linalg.lstsq(_c(tf, T43), b, fast=False)


def case_lstsq_slow_ignores_l2_regularizer(tf):
    b = _c(tf, [[1.0], [2.0], [0.0], [-1.0]])
    return tf.linalg.lstsq(_c(tf, T43), b, l2_regularizer=0.5, fast=False)


def case_pinv_rank_deficient(tf):
    return tf.linalg.pinv(_c(tf, [[1.0, 2.0], [2.0, 4.0], [0.0, 0.0]]))


# --------------------------------------------------------------------------- eigh
def case_eigh_values_and_grad(tf):
    w = _c(tf, [1.0, -2.0, 0.5])
    return _grad(tf, lambda a: tf.reduce_sum(tf.linalg.eigh(a)[0] * w), _c(tf, G3))


def case_eigh_vectors_gauge_invariant(tf):
    a = _c(tf, A3)
    w = _c(tf, W3)
    e, v = tf.linalg.eigh(a)

    def loss(a):
        e, v = tf.linalg.eigh(a)
        proj = tf.matmul(v * _c(tf, [1.0, 2.0, 3.0]), v, transpose_b=True)
        return _wsum(tf, v * v, w) + _wsum(tf, proj, tf.transpose(w))
    return [e, v * v] + _grad(tf, loss, a)


def case_eigh_repeated_eigenvalues(tf):
    a = _c(tf, [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 5.0]])
    w = _c(tf, W3)
    return [_grad(tf, lambda a: tf.reduce_sum(tf.linalg.eigh(a)[0] * _c(tf, [1.0, 2.0, 3.0])), a),
            _grad(tf, lambda a: _wsum(tf, tf.linalg.eigh(a)[1] ** 2, w), a)]


def case_eigvalsh_grad_batch_float32(tf):
    a = tf.constant([A3, G3], tf.float32)
    return _grad(tf, lambda a: tf.linalg.eigvalsh(a) ** 2, a)


# --------------------------------------------------------------------------- svd
def _svd_loss(tf, full=False):
    def loss(a):
        s, u, v = tf.linalg.svd(a, full_matrices=full)
        k = s.shape[-1]
        w = _c(tf, np.linspace(1.0, 2.0, k))
        proj = tf.matmul(u[..., :k] * w, v[..., :k], transpose_b=True)
        return tf.reduce_sum(s * w) + tf.reduce_sum(proj * proj * a) + tf.reduce_sum(u[..., :k] ** 2 * 0.3)
    return loss


def case_svd_square(tf):
    a = _c(tf, G3)
    s, u, v = tf.linalg.svd(a)
    return [s, tf.matmul(u * s, v, transpose_b=True)] + _grad(tf, _svd_loss(tf), a)


def case_svd_tall_and_wide(tf):
    a = _c(tf, T43)
    return [_grad(tf, _svd_loss(tf), a), _grad(tf, _svd_loss(tf), tf.transpose(a))]


def case_svd_values_only(tf):
    return _grad(tf, lambda a: tf.linalg.svd(a, compute_uv=False) ** 2, _c(tf, [T43, T43[::-1]]))


def case_svd_repeated_singular_values(tf):
    a = _c(tf, [[3.0, 0.0, 0.0], [0.0, -3.0, 0.0], [0.0, 0.0, 1.0]])
    return [_grad(tf, lambda a: tf.reduce_sum(tf.linalg.svd(a, compute_uv=False)), a),
            # weights equal on the tied pair: the gradient does not depend on the basis chosen
            _grad(tf, lambda a: tf.reduce_sum(tf.linalg.svd(a)[0] * _c(tf, [2.0, 2.0, 3.0])), a)]


def case_svd_full_matrices_one_extra_row(tf):
    return _grad(tf, _svd_loss(tf, full=True), _c(tf, T43[:3][::-1] + [[1.0, 0.0, 2.0]]))


def case_svd_full_matrices_one_extra_column(tf):
    a = _c(tf, [[1.0, 2.0, 0.5], [0.0, 1.0, -1.0]])
    return _grad(tf, _svd_loss(tf, full=True), a)


@tf_raises("NotImplementedError")
def case_svd_full_matrices_two_extra_rows(tf):
    a = _c(tf, [[1.0, 2.0], [0.0, 1.0], [3.0, 0.5], [1.0, -1.0]])
    return _grad(tf, _svd_loss(tf, full=True), a)


def case_pinv_value_and_grad(tf):
    w = _c(tf, np.arange(12.0).reshape(3, 4) / 10)
    return _grad(tf, lambda a: _wsum(tf, tf.linalg.pinv(a), w), _c(tf, T43))


# --------------------------------------------------------------------------- qr
def _qr_loss(tf):
    def loss(a):
        q, r = tf.linalg.qr(a)
        return tf.reduce_sum(q * tf.reshape(tf.range(1.0, 1.0 + np.prod(q.shape), dtype=tf.float64), q.shape)) \
            + tf.reduce_sum(r ** 2 * 0.1)
    return loss


def case_qr_square(tf):
    a = _c(tf, G3)
    q, r = tf.linalg.qr(a)
    return [q, r] + _grad(tf, _qr_loss(tf), a)


def case_qr_tall_and_wide(tf):
    a = _c(tf, T43)
    q, r = tf.linalg.qr(a)
    return [q, r, _grad(tf, _qr_loss(tf), a), _grad(tf, _qr_loss(tf), tf.transpose(a))]


def case_qr_full_matrices_values(tf):
    q, r = tf.linalg.qr(_c(tf, T43), full_matrices=True)
    return [q, r]


@tf_raises("NotImplementedError")
def case_qr_full_matrices_tall_gradient(tf):
    a = _c(tf, T43)
    return _grad(tf, lambda a: tf.reduce_sum(tf.linalg.qr(a, full_matrices=True)[0]), a)


# --------------------------------------------------------------------------- expm
def case_expm_value_and_grad(tf):
    a = _c(tf, [[0.1, 0.5, -0.3], [0.2, -0.4, 0.1], [0.0, 0.3, 0.2]])
    w = _c(tf, W3)
    return [tf.linalg.expm(a)] + _grad(tf, lambda a: _wsum(tf, tf.linalg.expm(a), w), a)


def case_expm_nilpotent(tf):
    return tf.linalg.expm(_c(tf, [[0.0, 1.0], [0.0, 0.0]]))


# --------------------------------------------------------------------------- structure ops
def case_cross_grads(tf):
    a = _c(tf, [[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]])
    b = _c(tf, [[0.5, 0.0, -1.0], [2.0, 1.0, 1.0]])
    return _grad(tf, lambda a, b: tf.linalg.cross(a, b) * a, a, b)


def case_trace_and_diag_part(tf):
    a = _c(tf, [T43, T43])
    return [_grad(tf, tf.linalg.trace, a), _grad(tf, lambda a: tf.linalg.diag_part(a) ** 2, a),
            tf.linalg.diag_part(a, k=1), tf.linalg.diag_part(a, k=-2)]


def case_diag_variants(tf):
    d = _c(tf, [1.0, 2.0, 3.0])
    return [tf.linalg.diag(d), tf.linalg.diag(d, k=1), tf.linalg.diag(d, k=-1, padding_value=9.0),
            tf.linalg.diag(d, num_rows=3, num_cols=5), tf.linalg.diag(_c(tf, [[1.0, 2.0], [3.0, 4.0]])),
            _grad(tf, lambda d: tf.linalg.diag(d, k=1, padding_value=1.0) * 2.0, d)]


def case_set_diag_grads(tf):
    a = _c(tf, T43)
    d = _c(tf, [7.0, 8.0, 9.0])
    return _grad(tf, lambda a, d: tf.linalg.set_diag(a, d) ** 2, a, d) + [tf.linalg.set_diag(a, d[:2], k=1)]


def case_band_part_grads(tf):
    a = _c(tf, T43)
    return [tf.linalg.band_part(a, 1, 0), tf.linalg.band_part(a, 0, -1), tf.linalg.band_part(a, -1, 1),
            _grad(tf, lambda a: tf.linalg.band_part(a, 1, 1) * a, a)]


def case_matrix_transpose_and_adjoint(tf):
    a = tf.complex(_c(tf, T43), _c(tf, T43) * 0.5)
    return [tf.linalg.matrix_transpose(a), tf.linalg.adjoint(a), tf.linalg.matrix_transpose(a, conjugate=True)]


# --------------------------------------------------------------------------- forward mode
def _jvp(tf, fn, x, t):
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = fn(x)
    return acc.jvp(y)


def case_forward_mode_cholesky_inv_det(tf):
    a = _c(tf, A3)
    t = _c(tf, W3)
    return [_jvp(tf, tf.linalg.cholesky, a, t), _jvp(tf, tf.linalg.inv, a, t), _jvp(tf, tf.linalg.det, a, t),
            _jvp(tf, lambda a: tf.linalg.slogdet(a)[1], a, t)]


def case_forward_mode_solves(tf):
    a = _c(tf, G3)
    t = _c(tf, W3)
    b = _c(tf, [[1.0], [0.5], [3.0]])
    return [_jvp(tf, lambda a: tf.linalg.solve(a, b), a, t), _jvp(tf, lambda a: tf.linalg.triangular_solve(a, b), a, t),
            _jvp(tf, lambda a: tf.linalg.triangular_solve(a, b, lower=False, adjoint=True), a, t)]


def case_forward_mode_eigvalsh_svd_qr_expm(tf):
    a = _c(tf, G3)
    t = _c(tf, W3)
    return [_jvp(tf, tf.linalg.eigvalsh, a, t), _jvp(tf, lambda a: tf.linalg.svd(a, compute_uv=False), a, t),
            _jvp(tf, lambda a: tf.linalg.qr(a)[1], a, t), _jvp(tf, lambda a: tf.linalg.expm(a * 0.2), a, t)]


# --------------------------------------------------------------------------- complex decompositions
def _cx(tf):
    return tf.complex(_c(tf, G3), _c(tf, W3) * 0.3)


def case_qr_complex(tf):
    def loss(a):
        q, r = tf.linalg.qr(a)
        return tf.reduce_sum(tf.math.real(q) * _c(tf, W3)) + tf.reduce_sum(tf.math.imag(r) * _c(tf, G3))
    q, r = tf.linalg.qr(_cx(tf))
    return [q, r] + _grad(tf, loss, _cx(tf))


def case_svd_complex_phase_invariant(tf):
    def loss(a):
        s, u, v = tf.linalg.svd(a)
        p = tf.matmul(u * tf.cast(s * s, u.dtype), v, adjoint_b=True)
        return tf.reduce_sum(s * _c(tf, [1.0, 2.0, 3.0])) + tf.reduce_sum(tf.math.real(p) * _c(tf, W3)) \
            + tf.reduce_sum(tf.math.imag(p) * _c(tf, G3))
    return [tf.linalg.svd(_cx(tf), compute_uv=False)] + _grad(tf, loss, _cx(tf))


def case_eigh_complex_phase_invariant(tf):
    a = _cx(tf)
    h = tf.matmul(a, a, adjoint_b=True)

    def loss(h):
        e, v = tf.linalg.eigh(h)
        p = tf.matmul(v * tf.cast(tf.range(1.0, 4.0, dtype=tf.float64), v.dtype), v, adjoint_b=True)
        return tf.reduce_sum(tf.math.real(e * e)) + tf.reduce_sum(tf.math.real(p) * _c(tf, W3)) \
            + tf.reduce_sum(tf.math.imag(p) * _c(tf, G3))
    return [tf.linalg.eigvalsh(h)] + _grad(tf, loss, h)
