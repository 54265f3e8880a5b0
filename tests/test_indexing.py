"""Indexing ops (tapegrad/ops/indexing.py): gather_nd/scatter_nd, boolean_mask, embedding_lookup:
values against NumPy, TensorFlow's conventions (IndexedSlices gradients), batched (Jacobian)
rules, higher order, dtypes and errors."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError
from op_helpers import jacobians_agree, normal_tensor, tape_gradient



# ---------------------------------------------------------------- gather_nd / scatter_nd
def test_gather_nd_values_match_numpy():
    p = normal_tensor((3, 4, 2))
    idx = np.array([[[2, 1], [0, 3]], [[1, 1], [2, 0]]])
    out = tf.gather_nd(p, idx)
    np.testing.assert_array_equal(out.numpy(), p.numpy()[idx[..., 0], idx[..., 1]])
    assert out.shape == (2, 2, 2)
    np.testing.assert_array_equal(tf.gather_nd(p, [2, 1, 0]).numpy(), p.numpy()[2, 1, 0])


def test_gather_nd_batch_dims_matches_loop():
    p = normal_tensor((2, 3, 4))
    idx = np.array([[[1], [0]], [[2], [2]]])
    out = tf.gather_nd(p, idx, batch_dims=1).numpy()
    want = np.stack([p.numpy()[b][idx[b][..., 0]] for b in range(2)])
    np.testing.assert_array_equal(out, want)


def test_gather_nd_gradient_dense_with_duplicates():
    p = tf.constant(np.arange(6.0).reshape(2, 3))
    (g,) = tape_gradient(lambda p: tf.gather_nd(p, [[0, 1], [0, 1], [1, 2]]), p)
    assert isinstance(g, tf.Tensor)
    np.testing.assert_array_equal(g.numpy(), [[0, 2, 0], [0, 0, 1]])


def test_gather_nd_rows_gradient_is_indexed_slices_like_tf():
    p = tf.constant(np.arange(6.0).reshape(3, 2))
    (g,) = tape_gradient(lambda p: tf.gather_nd(p, [[2], [2]]), p)
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
    gt, gu = tape_gradient(lambda t, u: tf.tensor_scatter_nd_update(t, [[1], [1]], u), t, u)
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
    jacobians_agree(fn, normal_tensor(shape))


def test_scatter_nd_batched_rules():
    jacobians_agree(lambda u: tf.scatter_nd([[3], [0], [3]], u * u, [4, 2]), normal_tensor((3, 2)))


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
    x = normal_tensor((2, 3, 2))
    m = np.array([[True, False, True], [False, False, True]])
    np.testing.assert_array_equal(tf.boolean_mask(x, m).numpy(), x.numpy()[m])
    np.testing.assert_array_equal(tf.boolean_mask(x, [True, False], axis=2).numpy(), x.numpy()[:, :, [0]])
    (g,) = tape_gradient(lambda x: tf.boolean_mask(x, [True, False]), x)
    assert isinstance(g, tf.Tensor)  # dense, as TensorFlow
    np.testing.assert_array_equal(g.numpy()[0], 1)
    np.testing.assert_array_equal(g.numpy()[1], 0)
    jacobians_agree(lambda x: tf.boolean_mask(x, m), x)


def test_boolean_mask_errors():
    with pytest.raises(ValueError, match="cannot be scalar"):
        tf.boolean_mask(tf.zeros([2]), True)
    with pytest.raises(ValueError, match="must equal the tensor's shape"):
        tf.boolean_mask(tf.zeros([2, 3]), [True, False, True])


# ---------------------------------------------------------------- embedding_lookup
def test_getitem_with_a_bool_key_is_boolean_mask():
    # TF 2.21's Tensor.__getitem__ (_slice_helper): a whole key that is a bool tensor, a bool
    # NumPy array or a Python bool is boolean_mask (its gradient dense); a bool variable, a
    # NumPy bool scalar or a mask inside a tuple of indices is a TypeError.
    x = normal_tensor((2, 3))
    a = x.numpy()
    np.testing.assert_array_equal(x[x > 0].numpy(), a[a > 0])
    np.testing.assert_array_equal(x[tf.constant([True, False])].numpy(), a[:1])
    np.testing.assert_array_equal(x[np.array([False, True])].numpy(), a[1:])
    (g,) = tape_gradient(lambda x: x[x > 0] ** 2, x)
    np.testing.assert_allclose(g.numpy(), np.where(a > 0, 2 * a, 0), rtol=1e-6)
    jacobians_agree(lambda x: x[np.array([[True, False, True], [False, True, True]])], x)
    v = tf.Variable(a)
    picked = v[v > 0]
    np.testing.assert_array_equal(picked.numpy(), a[a > 0])
    assert not hasattr(picked, "assign")  # (TF's mask of a variable is a plain tensor)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v[v > 0])
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), (a > 0).astype(a.dtype))
    assert tf.function(lambda t: t[t > 0])(x).shape == (int((a > 0).sum()),)
    for key in (True, tf.constant(True), np.array(True)):
        with pytest.raises(ValueError, match="mask cannot be scalar"):
            x[key]
    with pytest.raises(ValueError, match="mask's shape"):
        x[tf.constant([True, False, True])]
    for key in (np.bool_(True), (tf.constant([True, False]), 0), tf.Variable([True, False])):
        with pytest.raises(TypeError, match="valid indices"):
            x[key]


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
