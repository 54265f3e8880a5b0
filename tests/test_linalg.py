"""Linear algebra without decompositions (tapegrad/ops/linalg.py): norms, einsum, tensordot,
fill_triangular and the structure ops against NumPy, TensorFlow's conventions, batched (Jacobian)
rules, dtypes and errors."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError
from op_helpers import jacobians_agree, normal_tensor, tape_gradient


la = tf.linalg


RNG = np.random.default_rng(7)


# --------------------------------------------------------------------------- fill_triangular
def test_fill_triangular_documented_examples() -> None:
    np.testing.assert_array_equal(la.fill_triangular([1, 2, 3, 4, 5, 6]).numpy(),
                                  [[4, 0, 0], [6, 5, 0], [3, 2, 1]])
    np.testing.assert_array_equal(la.fill_triangular([1, 2, 3, 4, 5, 6], upper=True).numpy(),
                                  [[1, 2, 3], [0, 5, 6], [0, 0, 4]])
    np.testing.assert_array_equal(la.fill_triangular_inverse([[4, 0, 0], [6, 5, 0], [3, 2, 1]]).numpy(),
                                  [1, 2, 3, 4, 5, 6])
    np.testing.assert_array_equal(
        la.fill_triangular_inverse([[1, 2, 3], [0, 5, 6], [0, 0, 4]], upper=True).numpy(), [1, 2, 3, 4, 5, 6])


def test_fill_triangular_upper_n5_matches_the_documented_construction() -> None:
    # TFP's docstring: concat([x, x[5:][::-1]]) reshaped to 5x5, then triu
    expect = [[1, 2, 3, 4, 5], [0, 7, 8, 9, 10], [0, 0, 13, 14, 15], [0, 0, 0, 12, 11], [0, 0, 0, 0, 6]]
    np.testing.assert_array_equal(la.fill_triangular(np.arange(15) + 1, upper=True).numpy(), expect)


def test_fill_triangular_batch_round_trip_and_identity() -> None:
    x = RNG.standard_normal((2, 3, 10))
    m = la.fill_triangular(x)
    assert m.shape == (2, 3, 4, 4)
    np.testing.assert_array_equal(np.triu(m.numpy(), 1), 0)
    np.testing.assert_array_equal(la.fill_triangular_inverse(m).numpy(), x)
    for upper in (False, True):
        v = la.fill_triangular_inverse(tf.eye(5, batch_shape=[1], dtype=tf.float64), upper=upper)
        assert v.shape == (1, 15)
        np.testing.assert_array_equal(la.fill_triangular(v, upper=upper).numpy(), np.eye(5)[None])
    np.testing.assert_array_equal(la.fill_triangular([7.0]).numpy(), [[7.0]])


def test_fill_triangular_gradient_is_the_inverse_map() -> None:
    x = tf.constant(np.arange(6.0))
    w = tf.constant(np.arange(9.0).reshape(3, 3))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(la.fill_triangular(x) * w)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), la.fill_triangular_inverse(w).numpy())


def test_fill_triangular_errors() -> None:
    with pytest.raises(ValueError, match="triangular number"):
        la.fill_triangular(tf.ones([4]))
    with pytest.raises(ValueError, match="square"):
        la.fill_triangular_inverse(tf.ones([2, 3]))


def test_structure_ops() -> None:
    x = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_array_equal(la.band_part(x, 0, -1).numpy(), np.triu(x))
    np.testing.assert_array_equal(la.band_part(x, -1, 0).numpy(), np.tril(x))
    np.testing.assert_array_equal(la.band_part(x, 1, 1).numpy(), np.triu(np.tril(x, 1), -1))
    np.testing.assert_array_equal(la.diag_part(x).numpy(), np.diagonal(x, 0, -2, -1))
    np.testing.assert_array_equal(la.diag_part(x, k=1).numpy(), np.diagonal(x, 1, -2, -1))
    np.testing.assert_array_equal(la.trace(x).numpy(), np.trace(x, axis1=-2, axis2=-1))
    d = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    y = la.set_diag(x, d).numpy()
    np.testing.assert_array_equal(np.diagonal(y, 0, -2, -1), d)
    np.testing.assert_array_equal(la.diag(d).numpy(), np.stack([np.diag(r) for r in d]))
    np.testing.assert_array_equal(la.diag([1.0, 2.0], k=-1).numpy(), np.diag([1.0, 2.0], -1))
    np.testing.assert_array_equal(la.diag([1.0, 2.0], num_rows=2, num_cols=4, padding_value=9.0).numpy(),
                                  [[1, 9, 9, 9], [9, 2, 9, 9]])
    np.testing.assert_array_equal(la.matrix_transpose(x).numpy(), np.swapaxes(x, -1, -2))
    c = x + 1j * x
    np.testing.assert_array_equal(la.adjoint(c).numpy(), np.conj(np.swapaxes(c, -1, -2)))
    a, b = RNG.standard_normal((2, 4, 3))
    np.testing.assert_allclose(la.cross(a, b).numpy(), np.cross(a, b))


# ---------------------------------------------------------------- norms and clipping
@pytest.mark.parametrize("ord_", ["euclidean", 1, 2, np.inf, 3, 0.5])
def test_vector_norms_match_numpy(ord_):
    x = normal_tensor((3, 4))
    want = np.linalg.norm(x.numpy().ravel(), ord=2 if ord_ == "euclidean" else ord_)
    np.testing.assert_allclose(tf.norm(x, ord=ord_).numpy(), want)
    want_ax = np.linalg.norm(x.numpy(), ord=2 if ord_ == "euclidean" else ord_, axis=-1, keepdims=True)
    np.testing.assert_allclose(tf.norm(x, ord=ord_, axis=-1, keepdims=True).numpy(), want_ax)


@pytest.mark.parametrize("ord_", ["fro", 1, np.inf, 2])
def test_matrix_norms_match_numpy(ord_):
    x = normal_tensor((2, 3, 4))
    want = np.linalg.norm(x.numpy(), ord=ord_, axis=(1, 2))
    np.testing.assert_allclose(tf.norm(x, ord=ord_, axis=[1, 2]).numpy(), want, rtol=1e-10)
    want_t = np.linalg.norm(x.numpy(), ord=ord_, axis=(2, 0), keepdims=True)
    np.testing.assert_allclose(tf.norm(x, ord=ord_, axis=(2, 0), keepdims=True).numpy(), want_t, rtol=1e-10)


def test_norm_gradient_at_zero_is_nan_like_tf():
    (g,) = tape_gradient(tf.norm, tf.zeros([2]))
    assert np.isnan(g.numpy()).all()
    (g1,) = tape_gradient(lambda x: tf.norm(x, ord=1), tf.zeros([2]))
    np.testing.assert_array_equal(g1.numpy(), [0, 0])


def test_norm_complex_and_errors():
    z = tf.constant([3 + 4j, 1j])
    np.testing.assert_allclose(tf.norm(z).numpy(), np.sqrt(26))
    with pytest.raises(ValueError, match="vector norm"):
        tf.norm(tf.zeros([2]), ord="fro")
    with pytest.raises(ValueError, match="matrix norm"):
        tf.norm(tf.zeros([2, 2]), ord=3, axis=[0, 1])
    with pytest.raises(ValueError, match="2 unique"):
        tf.norm(tf.zeros([2, 2]), axis=[1, 1])
    with pytest.raises(InvalidArgumentError, match="int32"):
        tf.norm(tf.constant([3, 4]))
    with pytest.raises(InvalidArgumentError, match="out of range"):
        tf.norm(tf.zeros([2, 2]), axis=2)


# ---------------------------------------------------------------- einsum / tensordot
EINSUM = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("ii", [(3, 3)]),
    ("ii->i", [(3, 3)]),
    ("iij,jk->ki", [(2, 2, 3), (3, 4)]),
    ("ijj->ij", [(2, 3, 3)]),
    ("ij->", [(2, 3)]),
    ("i,j->ij", [(2,), (3,)]),
    ("Ba,bA", [(2, 3), (4, 5)]),
    ("...ij,...jk->...ik", [(5, 2, 3), (3, 4)]),
    ("...ij,...jk->...ik", [(1, 2, 3), (4, 3, 2)]),
    ("...ij,...jk", [(6, 1, 2, 3), (4, 3, 2)]),
    ("i...j,j->...i", [(2, 3, 4), (4,)]),
    ("...,...", [(2, 3), (3,)]),
    ("ab,bc,ca->", [(2, 3), (3, 4), (4, 2)]),
    ("i...i", [(2, 3, 2)]),
    (" ij , jk -> ki ", [(2, 3), (3, 4)]),
]


@pytest.mark.parametrize("eq,shapes", EINSUM, ids=[e for e, _ in EINSUM])
def test_einsum_matches_numpy_and_batched_rules(eq, shapes):
    xs = [normal_tensor(s) for s in shapes]
    np.testing.assert_allclose(tf.einsum(eq, *xs).numpy(), np.einsum(eq, *[x.numpy() for x in xs]), rtol=1e-12)
    jacobians_agree(lambda *a: tf.einsum(eq, *a), *xs)
    tf.test.check_grads(lambda *a: tf.einsum(eq, *a), xs, order=2)


def test_einsum_gradient_of_trace_and_complex_conjugates():
    (g,) = tape_gradient(lambda a: tf.einsum("ii", a), normal_tensor((3, 3)))
    np.testing.assert_array_equal(g.numpy(), np.eye(3))
    c = tf.constant([1 + 2j, 3j])
    (gz,) = tape_gradient(lambda x: tf.einsum("i,i->", x, c), tf.constant([1 + 1j, 2 + 0j]))
    np.testing.assert_allclose(gz.numpy(), np.conj(c.numpy()))


def test_einsum_int_and_errors():
    r = tf.einsum("ij,jk->ik", tf.ones([2, 2], tf.int32), tf.ones([2, 2], tf.int32))
    assert r.dtype == tf.int32
    with pytest.raises(InvalidArgumentError, match="dimension"):
        tf.einsum("ij,jk->ik", tf.ones([2, 2]), tf.ones([3, 3]))
    with pytest.raises(InvalidArgumentError, match="rank"):
        tf.einsum("ijk->i", tf.ones([2, 2]))
    with pytest.raises(InvalidArgumentError, match="one dtype"):
        tf.einsum("i,i", tf.ones([2]), tf.ones([2], tf.float64))
    with pytest.raises(InvalidArgumentError, match="broadcast"):
        tf.einsum("...i,...i", tf.ones([2, 3]), tf.ones([4, 3]))
    m = tf.ones([2, 2])
    for eq, args, msg in (("ij,jk->iz", (m, m), "not present"), ("i->ii", (tf.ones([2]),), "twice"),
                          ("ij,jk->ik", (m,), "expecting 2"), ("i.j", (m,), "ellipsis"),
                          ("i1", (m,), "invalid subscript"), ("...i->i", (m,), "need a '...'"),
                          ("i->->i", (tf.ones([2]),), "more than one")):
        with pytest.raises(ValueError, match=msg):
            tf.einsum(eq, *args)


def test_tensordot_matches_numpy():
    a, b = normal_tensor((2, 3, 4)), normal_tensor((4, 3, 5))
    for axes in (1, [[1, 2], [1, 0]], [2, 0], ([-1], [0]), 0):
        want = np.tensordot(a.numpy(), b.numpy(), axes=axes if not isinstance(axes, list) or isinstance(axes[0], list)
                            else (axes[0], axes[1]))
        np.testing.assert_allclose(tf.tensordot(a, b, axes).numpy(), want, rtol=1e-12)
    assert tf.linalg.tensordot is tf.tensordot and tf.linalg.einsum is tf.einsum and tf.linalg.norm is tf.norm
    with pytest.raises(ValueError, match="at least 0"):
        tf.tensordot(a, b, -1)
    with pytest.raises(InvalidArgumentError, match="has size"):
        tf.tensordot(a, b, [[0], [0]])


def test_tensordot_is_one_matmul_of_the_reshaped_operands():
    # TF's tensordot (and rgb_to_yuv, a tensordot with a 3x3 matrix) is a matmul of the operands
    # reshaped to matrices: the same products summed in matmul's order, not einsum's
    rng = np.random.default_rng(3)
    x = rng.random((5, 4, 3)).astype(np.float32)
    k = rng.random((3, 2)).astype(np.float32)
    got = tf.tensordot(x, k, [[2], [0]]).numpy()
    assert np.array_equal(got, tf.reshape(tf.matmul(tf.reshape(x, [20, 3]), k), [5, 4, 2]).numpy())
    m = np.array([[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
                  [0.114, 0.43601035, -0.10001026]], np.float32)
    assert np.array_equal(tf.image.rgb_to_yuv(x).numpy(), tf.matmul(tf.reshape(x, [20, 3]), m).numpy().reshape(5, 4, 3))
    y = rng.random((4, 6, 5)).astype(np.float32)   # contracted axes in another order
    np.testing.assert_allclose(tf.tensordot(x, y, [[1, 0], [0, 2]]).numpy(), np.tensordot(x, y, [[1, 0], [0, 2]]),
                               rtol=1e-5)
