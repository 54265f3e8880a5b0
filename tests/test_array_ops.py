"""Array ops (tapegrad/ops/indexing.py): values against NumPy, TensorFlow's conventions,
batched (Jacobian) rules, higher order, dtypes and errors."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError

RNG = np.random.default_rng(7)


def _c(shape, dtype=np.float64):
    return tf.constant(RNG.standard_normal(shape).astype(dtype))


def _grad(fn, *xs, seed=None):
    with tf.GradientTape() as tape:
        tape.watch(list(xs))
        y = fn(*xs)
    return tape.gradient(y, list(xs), output_gradients=seed)


def _jacobians_agree(fn, *xs):
    """The batched Jacobian walk (every rule sees a leading batch axis) equals the row loop,
    for the Jacobian and for the Jacobian of the gradient (batch axes at second order)."""
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(list(xs))
        y = fn(*xs)
    fast = tape.jacobian(y, list(xs))
    slow = tape.jacobian(y, list(xs), experimental_use_pfor=False)
    for a, b in zip(fast, slow):
        np.testing.assert_allclose(np.asarray(tf.convert_to_tensor(a)), np.asarray(tf.convert_to_tensor(b)),
                                   rtol=1e-12, atol=1e-12)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(list(xs))
        with tf.GradientTape() as inner:
            inner.watch(list(xs))
            s = tf.reduce_sum(fn(*xs) ** 2)
        gs = [tf.convert_to_tensor(g) for g in inner.gradient(s, list(xs))]
    for g in gs:
        fast = outer.jacobian(g, list(xs), unconnected_gradients="zero")
        slow = outer.jacobian(g, list(xs), unconnected_gradients="zero", experimental_use_pfor=False)
        for a, b in zip(fast, slow):
            np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-10, atol=1e-10)


# ---------------------------------------------------------------- gather_nd / scatter_nd
def test_gather_nd_values_match_numpy():
    p = _c((3, 4, 2))
    idx = np.array([[[2, 1], [0, 3]], [[1, 1], [2, 0]]])
    out = tf.gather_nd(p, idx)
    np.testing.assert_array_equal(out.numpy(), p.numpy()[idx[..., 0], idx[..., 1]])
    assert out.shape == (2, 2, 2)
    np.testing.assert_array_equal(tf.gather_nd(p, [2, 1, 0]).numpy(), p.numpy()[2, 1, 0])


def test_gather_nd_batch_dims_matches_loop():
    p = _c((2, 3, 4))
    idx = np.array([[[1], [0]], [[2], [2]]])
    out = tf.gather_nd(p, idx, batch_dims=1).numpy()
    want = np.stack([p.numpy()[b][idx[b][..., 0]] for b in range(2)])
    np.testing.assert_array_equal(out, want)


def test_gather_nd_gradient_dense_with_duplicates():
    p = tf.constant(np.arange(6.0).reshape(2, 3))
    (g,) = _grad(lambda p: tf.gather_nd(p, [[0, 1], [0, 1], [1, 2]]), p)
    assert isinstance(g, tf.Tensor)
    np.testing.assert_array_equal(g.numpy(), [[0, 2, 0], [0, 0, 1]])


def test_gather_nd_rows_gradient_is_indexed_slices_like_tf():
    p = tf.constant(np.arange(6.0).reshape(3, 2))
    (g,) = _grad(lambda p: tf.gather_nd(p, [[2], [2]]), p)
    assert isinstance(g, tf.IndexedSlices)
    np.testing.assert_array_equal(tf.convert_to_tensor(g).numpy(), [[0, 0], [0, 0], [2, 2]])


def test_scatter_nd_duplicates_add_and_values():
    out = tf.scatter_nd([[0, 1], [1, 0], [0, 1]], tf.constant([1.0, 2.0, 4.0]), [2, 2])
    np.testing.assert_array_equal(out.numpy(), [[0, 5], [2, 0]])
    assert out.dtype == tf.float32
    assert tf.scatter_nd([[1]], [3], [2]).dtype == tf.int32


def test_tensor_scatter_nd_update_last_duplicate_wins_and_gradients():
    t, u = tf.constant([1.0, 2.0, 3.0]), tf.constant([5.0, 7.0])
    out = tf.tensor_scatter_nd_update(t, [[1], [1]], u)
    np.testing.assert_array_equal(out.numpy(), [1, 7, 3])
    gt, gu = _grad(lambda t, u: tf.tensor_scatter_nd_update(t, [[1], [1]], u), t, u)
    np.testing.assert_array_equal(gt.numpy(), [1, 0, 1])
    np.testing.assert_array_equal(gu.numpy(), [1, 1])  # TF gives every duplicate the cotangent


def test_tensor_scatter_nd_add_values():
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    out = tf.tensor_scatter_nd_add(t, [[1], [1]], [[1.0, 1.0], [2.0, 2.0]])
    np.testing.assert_array_equal(out.numpy(), [[1, 2], [6, 7]])


ND_FNS = {
    "gather_nd": (lambda x: tf.gather_nd(x, [[0, 2], [1, 0], [0, 2]]), (2, 3)),
    "gather_nd_rows": (lambda x: tf.gather_nd(x, [[1], [1]]), (2, 3)),
    "gather_nd_batch": (lambda x: tf.gather_nd(tf.reshape(x, [2, 3, 1]), [[[2], [0]], [[1], [1]]], batch_dims=1), (2, 3)),
    "scatter_nd": (lambda x: tf.scatter_nd([[3], [0], [3]], x, [4, 3]), (3, 3)),
    "tsu": (lambda x: tf.tensor_scatter_nd_update(x * x, [[1, 1], [0, 0]], x[0, :2]), (2, 3)),
    "tsa": (lambda x: tf.tensor_scatter_nd_add(x, [[0, 1]], x[1, 1:2] ** 3), (2, 3)),
}


@pytest.mark.parametrize("name", sorted(ND_FNS))
def test_nd_ops_batched_rules(name):
    fn, shape = ND_FNS[name]
    _jacobians_agree(fn, _c(shape))


def test_scatter_nd_batched_rules():
    _jacobians_agree(lambda u: tf.scatter_nd([[3], [0], [3]], u * u, [4, 2]), _c((3, 2)))


@pytest.mark.parametrize("call,msg", [
    (lambda: tf.gather_nd(tf.zeros([2, 3]), [[2, 0]]), "does not index into param shape [2, 3]"),
    (lambda: tf.gather_nd(tf.zeros([2, 3]), [[0, -1]]), "indices[0] = [0, -1]"),
    (lambda: tf.gather_nd(tf.zeros([2, 3]), [[0, 0, 0]]), "innermost dimension"),
    (lambda: tf.gather_nd(tf.zeros([2, 3]), [[0.0, 1.0]]), "int16, int32 or int64"),
    (lambda: tf.gather_nd(tf.zeros([2, 3]), 1), "rank at least 1"),
    (lambda: tf.gather_nd(tf.zeros([2, 3]), [[1], [0], [1]], batch_dims=1), "params.shape[:batch_dims]"),
    (lambda: tf.scatter_nd([[3]], [1.0], [3]), "does not index into shape [3]"),
    (lambda: tf.scatter_nd([[1]], [1.0, 2.0], [3]), "updates must have shape"),
    (lambda: tf.tensor_scatter_nd_update(tf.zeros([3]), [[5]], [1.0]), "indices[0] = [5]"),
    (lambda: tf.tensor_scatter_nd_add(tf.zeros([3]), [[1]], tf.constant([1.0], tf.float64)), "different dtypes"),
])
def test_nd_errors(call, msg):
    with pytest.raises(InvalidArgumentError) as e:
        call()
    assert msg in str(e.value)


def test_gather_nd_bad_batch_dims_is_value_error():
    with pytest.raises(ValueError, match="batch_dims"):
        tf.gather_nd(tf.zeros([2, 3]), [[1]], batch_dims=2)


# ---------------------------------------------------------------- boolean_mask / where / reverse / roll / repeat
def test_boolean_mask_values_and_dense_gradient():
    x = _c((2, 3, 2))
    m = np.array([[True, False, True], [False, False, True]])
    np.testing.assert_array_equal(tf.boolean_mask(x, m).numpy(), x.numpy()[m])
    np.testing.assert_array_equal(tf.boolean_mask(x, [True, False], axis=2).numpy(), x.numpy()[:, :, [0]])
    (g,) = _grad(lambda x: tf.boolean_mask(x, [True, False]), x)
    assert isinstance(g, tf.Tensor)  # dense, as TensorFlow
    np.testing.assert_array_equal(g.numpy()[0], 1)
    np.testing.assert_array_equal(g.numpy()[1], 0)
    _jacobians_agree(lambda x: tf.boolean_mask(x, m), x)


def test_boolean_mask_errors():
    with pytest.raises(ValueError, match="cannot be scalar"):
        tf.boolean_mask(tf.zeros([2]), True)
    with pytest.raises(ValueError, match="must equal the tensor's shape"):
        tf.boolean_mask(tf.zeros([2, 3]), [True, False, True])


def test_where_one_argument():
    out = tf.where(tf.constant([[True, False], [False, True]]))
    assert out.dtype == tf.int64
    np.testing.assert_array_equal(out.numpy(), [[0, 0], [1, 1]])


def test_reverse_and_roll_values():
    x = _c((2, 3, 4))
    np.testing.assert_array_equal(tf.reverse(x, [0, -1]).numpy(), x.numpy()[::-1, :, ::-1])
    np.testing.assert_array_equal(tf.roll(x, [1, -5, 2], [2, 1, 2]).numpy(),
                                  np.roll(x.numpy(), (3, -5), (2, 1)))
    _jacobians_agree(lambda x: tf.reverse(x, [1]) * x, x)
    _jacobians_agree(lambda x: tf.roll(x, [2, 1], [-1, 0]) * x, x)


@pytest.mark.parametrize("call,exc,msg", [
    (lambda: tf.reverse(tf.zeros([2, 3]), 1), InvalidArgumentError, "1-D"),
    (lambda: tf.reverse(tf.zeros([2, 3]), [0, -2]), InvalidArgumentError, "more than once"),
    (lambda: tf.reverse(tf.zeros([2, 3]), [2]), InvalidArgumentError, "out of valid range"),
    (lambda: tf.roll(tf.zeros([2, 3]), [1, 2], [0]), InvalidArgumentError, "same size"),
    (lambda: tf.roll(tf.zeros([2, 3]), 1, 2), InvalidArgumentError, "out of range"),
    (lambda: tf.repeat(tf.zeros([2, 3]), [1, 2, 3], axis=0), InvalidArgumentError, "one count per slice"),
    (lambda: tf.repeat(tf.zeros([2]), -1), InvalidArgumentError, "non-negative"),
    (lambda: tf.repeat(tf.zeros([2]), [[1, 2]]), ValueError, "1-D"),
])
def test_reverse_roll_repeat_errors(call, exc, msg):
    with pytest.raises(exc, match=msg):
        call()


def test_repeat_matches_numpy_and_sums_gradient():
    x = _c((2, 3))
    for reps, axis in ((2, None), ([1, 0, 3], 1), (3, -2), ([2], 0)):
        np.testing.assert_array_equal(tf.repeat(x, reps, axis=axis).numpy(), np.repeat(x.numpy(), reps, axis=axis))
    (g,) = _grad(lambda x: tf.repeat(x, [1, 0, 3], axis=1), x)
    np.testing.assert_array_equal(g.numpy(), [[1, 0, 3], [1, 0, 3]])
    _jacobians_agree(lambda x: tf.repeat(x, [2, 0, 1], axis=-1) ** 2, x)


# ---------------------------------------------------------------- one_hot / sequence_mask / meshgrid
def test_one_hot_dtypes_axis_and_no_gradient():
    np.testing.assert_array_equal(tf.one_hot([1, 3], 3, axis=0).numpy(), [[0, 0], [1, 0], [0, 0]])
    assert tf.one_hot([1], 2).dtype == tf.float32
    assert tf.one_hot([1], 2, on_value=3).dtype == tf.int32
    assert tf.one_hot([1], 2, on_value=3, dtype=tf.float64).dtype == tf.float64
    assert tf.one_hot([1], 2, dtype=tf.bool).numpy().tolist() == [[False, True]]
    a = tf.constant(2.0)
    (g,) = _grad(lambda a: tf.one_hot([0], 2, on_value=a, off_value=-a), a)
    assert g is None
    with pytest.raises(TypeError, match="does not match"):
        tf.one_hot([0], 2, on_value=1.0, off_value=0)
    with pytest.raises(InvalidArgumentError, match="uint8, int8, int32 or int64"):
        tf.one_hot([0.0], 2)
    with pytest.raises(InvalidArgumentError, match="axis"):
        tf.one_hot([0], 2, axis=3)


def test_sequence_mask_values():
    np.testing.assert_array_equal(tf.sequence_mask([0, 2], 3).numpy(), [[0, 0, 0], [1, 1, 0]])
    assert tf.sequence_mask([[1], [2]]).shape == (2, 1, 2)
    assert tf.sequence_mask([1], 2, dtype=tf.int32).dtype == tf.int32
    with pytest.raises(InvalidArgumentError):
        tf.sequence_mask([1], -1)


def test_meshgrid_matches_numpy_and_gradient():
    a, b, c = _c((3,)), _c((2,)), _c((4,))
    for ix in ("xy", "ij"):
        for got, want in zip(tf.meshgrid(a, b, c, indexing=ix), np.meshgrid(a.numpy(), b.numpy(), c.numpy(), indexing=ix)):
            np.testing.assert_array_equal(got.numpy(), want)
    ga, gb = _grad(lambda a, b: tf.meshgrid(a, b), a, b)
    np.testing.assert_array_equal(ga.numpy(), [2, 2, 2])
    np.testing.assert_array_equal(gb.numpy(), [3, 3])
    with pytest.raises(ValueError, match="'xy' or 'ij'"):
        tf.meshgrid(a, indexing="yx")
    with pytest.raises(InvalidArgumentError, match="one dtype"):
        tf.meshgrid([1, 2], [1.0])


# ---------------------------------------------------------------- norms and clipping
@pytest.mark.parametrize("ord_", ["euclidean", 1, 2, np.inf, 3, 0.5])
def test_vector_norms_match_numpy(ord_):
    x = _c((3, 4))
    want = np.linalg.norm(x.numpy().ravel(), ord=2 if ord_ == "euclidean" else ord_)
    np.testing.assert_allclose(tf.norm(x, ord=ord_).numpy(), want)
    want_ax = np.linalg.norm(x.numpy(), ord=2 if ord_ == "euclidean" else ord_, axis=-1, keepdims=True)
    np.testing.assert_allclose(tf.norm(x, ord=ord_, axis=-1, keepdims=True).numpy(), want_ax)


@pytest.mark.parametrize("ord_", ["fro", 1, np.inf, 2])
def test_matrix_norms_match_numpy(ord_):
    x = _c((2, 3, 4))
    want = np.linalg.norm(x.numpy(), ord=ord_, axis=(1, 2))
    np.testing.assert_allclose(tf.norm(x, ord=ord_, axis=[1, 2]).numpy(), want, rtol=1e-10)
    want_t = np.linalg.norm(x.numpy(), ord=ord_, axis=(2, 0), keepdims=True)
    np.testing.assert_allclose(tf.norm(x, ord=ord_, axis=(2, 0), keepdims=True).numpy(), want_t, rtol=1e-10)


def test_norm_gradient_at_zero_is_nan_like_tf():
    (g,) = _grad(tf.norm, tf.zeros([2]))
    assert np.isnan(g.numpy()).all()
    (g1,) = _grad(lambda x: tf.norm(x, ord=1), tf.zeros([2]))
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


def test_clip_by_norm_values_and_indexed_slices():
    x = tf.constant([[3.0, 4.0], [0.0, 0.5]])
    np.testing.assert_allclose(tf.clip_by_norm(x, 1.0, axes=[1]).numpy(), [[0.6, 0.8], [0, 0.5]], rtol=1e-6)
    np.testing.assert_allclose(tf.clip_by_norm(x, 10.0).numpy(), x.numpy())
    s = tf.IndexedSlices(tf.constant([[3.0, 4.0]]), tf.constant([1]), tf.constant([3, 2]))
    r = tf.clip_by_norm(s, 1.0)
    assert isinstance(r, tf.IndexedSlices) and r.indices is s.indices
    (g,) = _grad(lambda x: tf.clip_by_norm(x, 1.0), tf.zeros([3]))
    np.testing.assert_array_equal(g.numpy(), [1, 1, 1])


def test_clip_by_global_norm_structure_and_values():
    a, b = tf.constant([3.0]), tf.constant([[4.0]])
    out, n = tf.clip_by_global_norm((a, None, b), 1.0)
    assert isinstance(out, list) and out[1] is None
    np.testing.assert_allclose([out[0].numpy()[0], out[2].numpy()[0, 0], n.numpy()], [0.6, 0.8, 5.0], rtol=1e-6)
    out2, n2 = tf.clip_by_global_norm([a], 1.0, use_norm=10.0)
    np.testing.assert_allclose(out2[0].numpy(), [0.3], rtol=1e-6)
    with pytest.raises(TypeError, match="sequence"):
        tf.clip_by_global_norm(a, 1.0)
    _jacobians_agree(lambda x: tf.stack(tf.clip_by_global_norm([x, x * x], 1.0)[0]), _c((3,)))


def test_clip_by_norm_batched_rules():
    _jacobians_agree(lambda x: tf.clip_by_norm(x, 0.5, axes=[1]), _c((2, 3)))
    _jacobians_agree(lambda x: tf.norm(x, ord=3, axis=0), _c((2, 3)))
    _jacobians_agree(lambda x: tf.norm(x, ord=np.inf, axis=[1, 0]), _c((2, 3)))


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
    xs = [_c(s) for s in shapes]
    np.testing.assert_allclose(tf.einsum(eq, *xs).numpy(), np.einsum(eq, *[x.numpy() for x in xs]), rtol=1e-12)
    _jacobians_agree(lambda *a: tf.einsum(eq, *a), *xs)
    tf.test.check_grads(lambda *a: tf.einsum(eq, *a), xs, order=2)


def test_einsum_gradient_of_trace_and_complex_conjugates():
    (g,) = _grad(lambda a: tf.einsum("ii", a), _c((3, 3)))
    np.testing.assert_array_equal(g.numpy(), np.eye(3))
    c = tf.constant([1 + 2j, 3j])
    (gz,) = _grad(lambda x: tf.einsum("i,i->", x, c), tf.constant([1 + 1j, 2 + 0j]))
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
    a, b = _c((2, 3, 4)), _c((4, 3, 5))
    for axes in (1, [[1, 2], [1, 0]], [2, 0], ([-1], [0]), 0):
        want = np.tensordot(a.numpy(), b.numpy(), axes=axes if not isinstance(axes, list) or isinstance(axes[0], list)
                            else (axes[0], axes[1]))
        np.testing.assert_allclose(tf.tensordot(a, b, axes).numpy(), want, rtol=1e-12)
    assert tf.linalg.tensordot is tf.tensordot and tf.linalg.einsum is tf.einsum and tf.linalg.norm is tf.norm
    with pytest.raises(ValueError, match="at least 0"):
        tf.tensordot(a, b, -1)
    with pytest.raises(InvalidArgumentError, match="has size"):
        tf.tensordot(a, b, [[0], [0]])


# ---------------------------------------------------------------- embedding_lookup
def test_embedding_lookup_indexed_slices_and_shards():
    table = tf.Variable(np.arange(8.0).reshape(4, 2))
    with tf.GradientTape() as tape:
        e = tf.nn.embedding_lookup(table, [[3, 0], [3, 3]])
    g = tape.gradient(e, table)
    assert isinstance(g, tf.IndexedSlices) and e.shape == (2, 2, 2)
    np.testing.assert_array_equal(tf.convert_to_tensor(g).numpy()[:, 0], [1, 0, 0, 3])
    s0, s1 = tf.Variable([[0.0], [1.0]]), tf.Variable([[2.0], [3.0]])
    with tf.GradientTape() as tape:
        e = tf.nn.embedding_lookup([s0, s1], [3, 0, 2, 3])
    np.testing.assert_array_equal(e.numpy()[:, 0], [3, 0, 2, 3])
    g0, g1 = tape.gradient(e, [s0, s1])
    assert isinstance(g0, tf.IndexedSlices) and isinstance(g1, tf.IndexedSlices)
    np.testing.assert_array_equal(tf.convert_to_tensor(g1).numpy()[:, 0], [1, 2])
    with pytest.raises(InvalidArgumentError):
        tf.nn.embedding_lookup([s0, s1], [4])
    with pytest.raises(TypeError, match="integers"):
        tf.nn.embedding_lookup(table, [0.0])


def test_embedding_lookup_max_norm():
    e = tf.nn.embedding_lookup(tf.constant([[3.0, 4.0], [0.3, 0.4]]), [0, 1], max_norm=1.0)
    np.testing.assert_allclose(e.numpy(), [[0.6, 0.8], [0.3, 0.4]], rtol=1e-6)


def test_float32_dtypes_preserved():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    for y in (tf.gather_nd(x, [[0, 1]]), tf.reverse(x, [0]), tf.roll(x, 1, 0), tf.repeat(x, 2),
              tf.einsum("ij->j", x), tf.norm(x), tf.clip_by_norm(x, 1.0), tf.tensordot(x, x, 2),
              tf.boolean_mask(x, [True, False]), tf.scatter_nd([[0]], x[:1], [2, 2])):
        assert y.dtype == tf.float32


# ---------------------------------------------------------------- constructors' dtype rules (TF 2.21)
@pytest.mark.parametrize("start, stop, dtype", [
    (-2, 2, tf.float64),                       # integer endpoints (two TF guide programs) raised
    (-2.0, 2.0, tf.float32),
    (np.int32(-2), 2, tf.float64),
    (np.float64(-2.0), 2, tf.float64),
    (np.float32(-2.0), np.float64(2.0), tf.float32),   # stop takes start's dtype
    (np.float16(0.0), 1, tf.float16),
    ("i8", 1, tf.float32),                     # 8- and 16-bit integers divide to float32
    ("i32", "i32", tf.float64),
    ("i64", "i64", tf.float64),
    ("f32", 2, tf.float32),
    ([0, 1], [2, 3], tf.float64),
    (1 + 1j, 2, tf.complex128),
])
def test_linspace_dtype_rules_match_tf(start, stop, dtype):
    conv = {"i8": tf.constant(-2, tf.int8), "i32": tf.constant(-2), "i64": tf.constant(-2, tf.int64),
            "f32": tf.constant(-2.0)}
    start, stop = conv.get(start, start) if isinstance(start, str) else start, \
        conv.get(stop, stop) if isinstance(stop, str) else stop
    r = tf.linspace(start, stop, 5)
    assert r.dtype == dtype
    ref = np.linspace(np.asarray(start, complex if dtype.is_complex else float),
                      np.asarray(stop, complex if dtype.is_complex else float), 5)
    np.testing.assert_allclose(r.numpy(), ref, rtol=1e-3 if dtype == tf.float16 else 1e-6)


def test_linspace_num_and_gradients():
    assert tf.linspace(0, 1, tf.constant(3, tf.int64)).shape == (3,)
    assert tf.linspace(0, 1, 0).dtype == tf.float64 and tf.linspace(0, 1, 0).shape == (0,)
    a, b = tf.constant(2.0), tf.constant(5.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = tf.reduce_sum(tf.linspace(a, b, 4) * [1.0, 2.0, 3.0, 4.0])
    ga, gb = tape.gradient(y, [a, b])   # TF 2.21: 3.3333333, 6.666667
    np.testing.assert_allclose([float(ga), float(gb)], [10 / 3, 20 / 3], rtol=1e-6)


def test_range_dtype_rules_match_tf():
    assert tf.range(5).dtype == tf.int32 and tf.range(5.0).dtype == tf.float32
    assert tf.range(0, 5, 2.0).dtype == tf.float32 and tf.range(np.float64(5)).dtype == tf.float64
    assert tf.range(tf.constant(0), tf.constant(5, tf.int64)).dtype == tf.int64
    assert tf.range(tf.constant(0.0, tf.float16), 3).dtype == tf.float16   # float16 outranks ints
    r = tf.range(0, 5, 1, dtype=tf.float64)
    assert r.dtype == tf.float64 and r.numpy().tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_fill_is_differentiable_in_its_value():
    """tf.fill's value had no gradient (TF: the sum of the output's gradient)."""
    a = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.reduce_sum(tf.fill([3], a) * [1.0, 2.0, 3.0])
    assert float(tape.gradient(y, a)) == 6.0
    assert tf.fill([2, 2], 7).numpy().tolist() == [[7, 7], [7, 7]]
@pytest.mark.parametrize("have,sizes,want", [
    ((0, 3), (-1, 0), (3, 0)), ((0, 3), (0, -1), (0, 3)), ((0, 3), (-1, 1, 0), (3, 1, 0)),
    ((0, 3), (-1, 2, 0), (1, 2, 0)), ((2, 0, 3), (-1, 5, 0), (1, 5, 0)), ((0,), (0, -1), (0, 1)),
    ((0, 3), (-1, 4), (0, 4)), ((0, 0), (-1, 0, 0), (1, 0, 0)), ((2, 3), (1, -1, 1), (1, 6, 1)),
    ((), (1, -1), (1, 1)), ((2, 3), 6, (6,)),
])
def test_reshape_infers_minus_one_as_tensorflow(have, sizes, want):
    # TF leaves zero dimensions out of both products when the new shape has a 0 (reshape_op.h)
    x = tf.zeros(have)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reshape(x, sizes)
        s = tf.reduce_sum(y)
    assert y.shape == want
    assert tape.gradient(s, x).shape == have


@pytest.mark.parametrize("sizes,pattern", [
    ([-2, -3], r"Size 0 must be non-negative, not -2: only -1 stands for a size to infer"),
    ([2, -2], r"Size 1 must be non-negative, not -2"),
    ([-1, -1, -2], r"only one input size may be -1, not both 0 and 1"),
    ([-1, 4], r"tensor with 6 values, but the requested shape requires a multiple of 4 \(shape \[-1, 4\]\); the input has shape \[2, 3\]"),
    ([-1, 0], r"tensor with 6 values, but the requested shape has 0"),
    ([[2, 3]], r"shape must be a 1-D list of sizes, got a value of shape \[1, 2\]"),
])
def test_reshape_rejects_invalid_shapes_with_tensorflows_error_type(sizes, pattern):
    with pytest.raises(tf.errors.InvalidArgumentError, match=pattern):
        tf.reshape(tf.zeros([2, 3]), sizes)


# ----------------------------------------------------------------------------- fail fast on memory
@pytest.fixture
def memory_limit():
    old = tf.autodiff.set_memory_limit(2**20)   # assume 1 MiB available (nothing is allocated)
    yield
    tf.autodiff.set_memory_limit(old)


def test_broadcast_to_beyond_memory_fails_at_once(memory_limit):
    # the view is free in NumPy, but TF materialises it: matmul on it would run for hours
    with pytest.raises(tf.errors.ResourceExhaustedError,
                       match=r"BroadcastTo: a float32 tensor of shape \[1000, 1000\] would need 3\.81 MiB, "
                             r"more than the 1\.00 MiB of memory available"):
        tf.broadcast_to(tf.constant(1.0), [1000, 1000])
    assert tf.broadcast_to(tf.constant(1.0), [100, 100]).shape == (100, 100)


def test_a_gradient_rule_may_broadcast_to_an_existing_tensors_shape(memory_limit):
    x = tf.ones([1000, 1000], tf.float64)      # 7.6 MiB, above the assumed limit
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * 2.0)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy()[:2, :2], 2.0)


def test_an_op_numpy_cannot_allocate_raises_resource_exhausted():
    from tapegrad import _core

    def fwd(x):
        raise MemoryError("Unable to allocate 3.64 TiB for an array with shape (1000000, 1000000)")
    op = _core.defop("TestOutOfMemory", fwd, nondiff=True)
    del _core.REGISTRY["TestOutOfMemory"]
    with pytest.raises(tf.errors.ResourceExhaustedError,
                       match=r"OOM: Unable to allocate 3\.64 TiB .*\(inputs of shapes \[2\]\) \[Op:TestOutOfMemory\]"):
        _core.apply(op, (tf.constant([1.0, 2.0]),))
