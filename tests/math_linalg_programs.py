"""tf.math and tf.linalg names added for issue #13, run by TensorFlow
(tools/record_tf_signal_image.py records their results in tests/fixtures/tf_signal_image.npz) and
by tapegrad (tests/test_special.py and tests/test_decompositions.py compare). Each takes the ``tf``
module and returns a list of arrays: values, then gradients."""
import numpy as np

from signal_programs import _data, _np


def _grads2(tf, f, *xs):
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
        loss = tf.reduce_sum(y * tf.constant(_data(y.shape, np.float64, 98).astype(y.dtype.as_numpy_dtype)))
    return [y] + [tf.convert_to_tensor(g) for g in tape.gradient(loss, xs) if g is not None]


def math_names(tf):
    a = _data((2, 3), np.float64, seed=30, lo=0.3, hi=4.0)
    x = _data((2, 3), np.float64, seed=31, lo=0.1, hi=6.0)
    u = _data((2, 3), np.float64, seed=32, lo=0.05, hi=0.95)
    out = _grads2(tf, tf.math.igamma, a, x) + _grads2(tf, tf.math.igammac, a, x)
    out += _grads2(tf, lambda a, b, u: tf.math.betainc(a, b, u), a, x, u)  # (a, b: no gradient)
    out += _grads2(tf, lambda u: tf.math.betainc(tf.constant(a), tf.constant(x), u), u)
    out += [tf.math.igamma(a.astype(np.float32), x.astype(np.float32))]
    c = _data((3, 5), np.float64, seed=33, lo=-3, hi=3)
    for kw in ({}, {"axis": 1}, {"axis": 1, "reverse": True}, {"axis": 0, "exclusive": True}):
        out += [tf.math.cumulative_logsumexp(c, **kw)]
    out += _grads2(tf, lambda c: tf.math.cumulative_logsumexp(c, axis=1), c)
    out += _grads2(tf, lambda c: tf.math.cumulative_logsumexp(c, axis=0, reverse=True), c)
    out += [tf.math.cumulative_logsumexp(np.array([-1000.0, 0.0, 1000.0], np.float32))]
    out += [tf.math.softsign(c), tf.math.log_softmax(c), tf.math.scalar_mul(2.5, c),
            tf.math.accumulate_n([c, c * 2, c * 3])]
    return _np(out)


def linalg_names(tf):
    rng = np.random.default_rng(40)
    m = rng.normal(size=(2, 4, 4))
    out = list(tf.linalg.lu(m)) + list(tf.linalg.lu(m.astype(np.float32)))
    lu, p = tf.linalg.lu(m)
    b = rng.normal(size=(2, 4, 3))
    out += [tf.linalg.lu_solve(lu, p, b), tf.linalg.lu_reconstruct(lu, p), tf.linalg.lu_matrix_inverse(lu, p)]
    out += _grads2(tf, lambda lu, b: tf.linalg.lu_solve(lu, p, b), lu.numpy(), b)  # (TF: Lu has no gradient)
    d = rng.normal(size=(3, 5)) + np.array([[0.0], [5.0], [0.0]])
    r = rng.normal(size=(5, 2))
    out += _grads2(tf, tf.linalg.tridiagonal_solve, d, r)
    out += _grads2(tf, tf.linalg.tridiagonal_matmul, d, r)
    out += [tf.linalg.tridiagonal_solve(tuple(tf.constant(v) for v in d), tf.constant(r[:, :1]),
                                        diagonals_format="sequence"),
            tf.linalg.tridiagonal_solve(tf.constant(d), tf.constant(r.T), transpose_rhs=True)]
    out += [tf.linalg.matrix_rank(m), tf.linalg.matrix_rank(np.outer([1.0, 2, 3], [4.0, 5, 6])),
            tf.linalg.matrix_rank(m, tol=0.5)]
    t = rng.normal(size=(2, 3))
    out += [tf.linalg.tensor_diag(t), tf.linalg.tensor_diag_part(tf.linalg.tensor_diag(t))]
    out += list(tf.linalg.normalize(t)) + list(tf.linalg.normalize(t, ord=1, axis=1))
    out += [tf.linalg.l2_normalize(t, axis=0)]
    return _np(out)


def counting_names(tf):
    arr = np.array([[1, 3, 3, 0], [2, 2, 5, 1]], np.int32)
    w = _data((2, 4), np.float32, seed=41)
    out = [tf.math.bincount(arr), tf.math.bincount(arr, minlength=8), tf.math.bincount(arr, maxlength=3),
           tf.math.bincount(arr, weights=w), tf.math.bincount(arr, axis=-1), tf.math.bincount(arr, axis=-1, maxlength=4),
           tf.math.bincount(arr, binary_output=True), tf.math.bincount(arr, dtype=tf.float64),
           tf.math.bincount(np.zeros([0], np.int32))]
    out += [tf.math.confusion_matrix([1, 2, 4, 2], [2, 2, 4, 1]),
            tf.math.confusion_matrix([0, 1], [1, 1], num_classes=3, weights=[0.5, 2.0], dtype=tf.float32)]
    p = np.array([[0.1, 0.5, 0.5, 0.2], [0.3, np.nan, 0.1, 0.0], [1.0, 2.0, 3.0, 4.0]], np.float32)
    out += [tf.math.in_top_k([2, 0, 0], p, 1), tf.math.in_top_k([1, 2, 3], p, 2), tf.nn.in_top_k([3, 3, 1], p, 3)]
    out += [tf.math.invert_permutation([3, 4, 0, 2, 1]), tf.math.zero_fraction(np.array([[0, 1], [0, 0]], np.float32)),
            tf.math.is_non_decreasing([1, 1, 2]), tf.math.is_strictly_increasing([1, 1, 2]),
            tf.math.is_strictly_increasing([[1, 2], [3, 4]]), tf.math.is_non_decreasing([5]),
            tf.math.nextafter(np.array([1.0, 0.0], np.float32), np.array([2.0, -1.0], np.float32)),
            tf.math.nextafter(tf.constant([1.0], tf.float64), tf.constant([0.0], tf.float64))]
    x = _data((3, 5), np.float32, seed=42)
    out += list(tf.math.approx_max_k(x, 2))  # (TF's CPU kernel has only max_k on the last axis)
    return _np(out)


PROGRAMS = {f.__name__: f for f in (math_names, linalg_names, counting_names)}
