"""Array ops (tapegrad/ops/array.py): values against NumPy, TensorFlow's conventions, batched
(Jacobian) rules, higher order, dtypes, errors and the memory limit."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError
from op_helpers import jacobians_agree, normal_tensor, tape_gradient



def test_reverse_and_roll_values():
    x = normal_tensor((2, 3, 4))
    np.testing.assert_array_equal(tf.reverse(x, [0, -1]).numpy(), x.numpy()[::-1, :, ::-1])
    np.testing.assert_array_equal(tf.roll(x, [1, -5, 2], [2, 1, 2]).numpy(),
                                  np.roll(x.numpy(), (3, -5), (2, 1)))
    jacobians_agree(lambda x: tf.reverse(x, [1]) * x, x)
    jacobians_agree(lambda x: tf.roll(x, [2, 1], [-1, 0]) * x, x)


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
    x = normal_tensor((2, 3))
    for reps, axis in ((2, None), ([1, 0, 3], 1), (3, -2), ([2], 0)):
        np.testing.assert_array_equal(tf.repeat(x, reps, axis=axis).numpy(), np.repeat(x.numpy(), reps, axis=axis))
    (g,) = tape_gradient(lambda x: tf.repeat(x, [1, 0, 3], axis=1), x)
    np.testing.assert_array_equal(g.numpy(), [[1, 0, 3], [1, 0, 3]])
    jacobians_agree(lambda x: tf.repeat(x, [2, 0, 1], axis=-1) ** 2, x)


# ---------------------------------------------------------------- one_hot / sequence_mask / meshgrid
def test_one_hot_dtypes_axis_and_no_gradient():
    np.testing.assert_array_equal(tf.one_hot([1, 3], 3, axis=0).numpy(), [[0, 0], [1, 0], [0, 0]])
    assert tf.one_hot([1], 2).dtype == tf.float32
    assert tf.one_hot([1], 2, on_value=3).dtype == tf.int32
    assert tf.one_hot([1], 2, on_value=3, dtype=tf.float64).dtype == tf.float64
    assert tf.one_hot([1], 2, dtype=tf.bool).numpy().tolist() == [[False, True]]
    a = tf.constant(2.0)
    (g,) = tape_gradient(lambda a: tf.one_hot([0], 2, on_value=a, off_value=-a), a)
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
    a, b, c = normal_tensor((3,)), normal_tensor((2,)), normal_tensor((4,))
    for ix in ("xy", "ij"):
        for got, want in zip(tf.meshgrid(a, b, c, indexing=ix), np.meshgrid(a.numpy(), b.numpy(), c.numpy(), indexing=ix)):
            np.testing.assert_array_equal(got.numpy(), want)
    ga, gb = tape_gradient(lambda a, b: tf.meshgrid(a, b), a, b)
    np.testing.assert_array_equal(ga.numpy(), [2, 2, 2])
    np.testing.assert_array_equal(gb.numpy(), [3, 3])
    with pytest.raises(ValueError, match="'xy' or 'ij'"):
        tf.meshgrid(a, indexing="yx")
    with pytest.raises(InvalidArgumentError, match="one dtype"):
        tf.meshgrid([1, 2], [1.0])


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
    from tapegrad import _dispatch

    def fwd(x):
        raise MemoryError("Unable to allocate 3.64 TiB for an array with shape (1000000, 1000000)")
    op = _dispatch.defop("TestOutOfMemory", fwd, nondiff=True, register=False)
    with pytest.raises(tf.errors.ResourceExhaustedError,
                       match=r"OOM: Unable to allocate 3\.64 TiB .*\(inputs of shapes \[2\]\) \[Op:TestOutOfMemory\]"):
        _dispatch.apply(op, (tf.constant([1.0, 2.0]),))


def test_concat_takes_one_array_or_tensor_as_one_value_as_tensorflow():
    # TF wraps any `values` that is not a list or tuple: tf.concat(model.predict(ds), axis=0)
    # (the video classification tutorial) is the (N, classes) array, not its rows joined
    a = np.arange(12.0).reshape(3, 4)
    assert tf.concat(a, axis=0).shape == (3, 4)
    assert tf.concat(tf.constant(a), axis=1).numpy().tolist() == a.tolist()
    assert tf.concat((a, a), axis=1).shape == (3, 8)
