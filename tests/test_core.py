"""Core behaviour: dtypes, conversion, Tensor, Variable, IndexedSlices."""
import numpy as np
import pytest

import tapegrad as tf


# ---------------------------------------------------------------- dtypes
@pytest.mark.parametrize("name", ["float16", "float32", "float64", "int8", "int16", "int32", "int64",
                                  "uint8", "bool", "complex64", "complex128"])
def test_dtype_objects(name):
    d = getattr(tf, name)
    assert d.name == name and tf.as_dtype(name) is d and tf.dtypes.as_dtype(d) is d
    assert d.as_numpy_dtype == np.dtype(name if name != "bool" else np.bool_).type
    assert d.is_floating == (name.startswith("float"))
    assert d.is_complex == name.startswith("complex")
    assert d.is_integer == (name.startswith("int") or name.startswith("uint"))
    assert d == name and d == np.dtype(d.as_numpy_dtype)


def test_as_dtype_rejects_unknown():
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.as_dtype("float13")


def test_python_conversion_rules():
    assert tf.constant(1.5).dtype == tf.float32
    assert tf.constant(2).dtype == tf.int32
    assert tf.constant(2**40).dtype == tf.int64
    assert tf.constant(True).dtype == tf.bool
    assert tf.constant(1j).dtype == tf.complex128
    assert tf.constant([[1, 2], [3, 4]]).dtype == tf.int32
    assert tf.constant([1, 2.5]).dtype == tf.float32
    assert tf.constant(np.float64(1.0)).dtype == tf.float64
    assert tf.constant(np.arange(3)).dtype == tf.int64
    assert tf.constant(np.ones(2, np.float16)).dtype == tf.float16
    assert tf.constant(1, dtype=tf.float64).dtype == tf.float64
    assert tf.constant(np.ones(2), dtype=tf.float32).dtype == tf.float32


def test_conversion_errors():
    with pytest.raises(TypeError, match="float does not convert"):
        tf.constant(1.5, dtype=tf.int32)
    with pytest.raises(ValueError, match="requested dtype float64"):
        tf.convert_to_tensor(tf.constant(1.0), dtype=tf.float64)
    with pytest.raises(ValueError, match="mixed types"):  # (as TF: ValueError)
        tf.constant(np.array([object()]))
    with pytest.raises(ValueError, match="ragged"):
        tf.constant([[1, 2], [3]])
    with pytest.raises(TypeError, match="None"):
        tf.convert_to_tensor(None)


def test_numpy_input_is_copied_and_readonly_inputs_work():
    a = np.ones(3)
    t = tf.constant(a)
    a[0] = 5
    assert t.numpy()[0] == 1
    ro = np.arange(4.0)
    ro.flags.writeable = False
    assert float(tf.reduce_sum(tf.constant(ro))) == 6.0
    nc = np.arange(12.0).reshape(3, 4)[:, ::2]
    np.testing.assert_array_equal(tf.constant(nc).numpy(), nc)


def test_binary_op_dtype_rules():
    x = tf.constant([1.0, 2.0])
    assert (x + 1).dtype == tf.float32 and (x * 2.5).dtype == tf.float32
    assert (2.0 * x).dtype == tf.float32
    i = tf.constant([1, 2])
    assert (i + 1).dtype == tf.int32
    with pytest.raises(TypeError, match="cannot convert 2.5"):
        i * 2.5
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Mul.*float32 and float64"):
        x * tf.constant([1.0, 2.0], tf.float64)
    assert (i / i).dtype == tf.float64
    assert (tf.constant([1, 2], tf.int16) / tf.constant([1, 2], tf.int16)).dtype == tf.float32
    assert (x + np.array([1.0, 2.0])).dtype == tf.float32   # NumPy operands take the tensor's dtype
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        x + tf.constant([1.0, 2.0, 3.0])


def test_operators():
    x = tf.constant([3.0, -4.0])
    y = tf.constant([2.0, 2.0])
    np.testing.assert_allclose((x + y).numpy(), [5, -2])
    np.testing.assert_allclose((x - y).numpy(), [1, -6])
    np.testing.assert_allclose((x * y).numpy(), [6, -8])
    np.testing.assert_allclose((x / y).numpy(), [1.5, -2])
    np.testing.assert_allclose((x // y).numpy(), [1, -2])
    np.testing.assert_allclose((x % y).numpy(), [1, 0])
    np.testing.assert_allclose((x ** y).numpy(), [9, 16])
    np.testing.assert_allclose((-x).numpy(), [-3, 4])
    np.testing.assert_allclose(abs(x).numpy(), [3, 4])
    assert (x > y).dtype == tf.bool and list((x > y).numpy()) == [True, False]
    assert list((x == 3.0).numpy()) == [True, False]
    assert (x == None) is False  # noqa: E711
    m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose((m @ m).numpy(), [[7, 10], [15, 22]])
    np.testing.assert_allclose((np.ones(2) * x).numpy(), [3, -4])
    assert type(np.ones(2) * x) is tf.Tensor


def test_tensor_protocol():
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert x.shape == (2, 3) and x.shape == [2, 3] and x.shape.as_list() == [2, 3]
    assert x.shape.rank == 2 and x.shape[0] == 2 and x.shape[1:] == (3,) and x.ndim == 2
    assert repr(x.shape) == "TensorShape([2, 3])"
    assert len(x) == 2
    rows = list(x)
    assert len(rows) == 2 and rows[1].numpy().tolist() == [4, 5, 6]
    s = tf.constant(2.5)
    assert float(s) == 2.5 and bool(tf.constant(True)) and int(tf.constant(3)) == 3
    assert [10, 20, 30][tf.constant(1)] == 20
    with pytest.raises(ValueError, match="ambiguous"):
        bool(x)
    # NumPy's truth value, as TF's EagerTensor: any one-element tensor has one (`assert (a - b) < 1e-3`)
    assert bool(tf.constant([[True]])) and not bool(tf.constant([0.0])) and not bool(tf.constant([]))
    with pytest.raises(TypeError):
        len(s)
    with pytest.raises(TypeError, match="unhashable"):
        hash(x)
    assert {x.ref(): 1}[x.ref()] == 1
    assert "shape=(2, 3), dtype=float32" in repr(x)
    assert np.asarray(x).shape == (2, 3)
    a = x.numpy()
    a[0, 0] = 9.0  # numpy() is a copy, as TensorFlow's: the tensor is immutable
    assert x.numpy()[0, 0] != 9.0


def test_getitem():
    a = np.arange(24.0).reshape(2, 3, 4)
    x = tf.constant(a)
    for key in [0, -1, (1, 2), (slice(None), 1), (Ellipsis, 2), (None, 0), slice(None, None, -1),
                (slice(None), slice(None, None, -2), slice(1, 3)), (0, Ellipsis, None)]:
        np.testing.assert_array_equal(x[key].numpy(), a[key])
    np.testing.assert_array_equal(x[tf.constant(1)].numpy(), a[1])
    with pytest.raises(TypeError, match="tf.gather"):
        x[[0, 1]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
        x[5]


def test_creation_ops():
    assert tf.zeros([2, 3]).dtype == tf.float32 and tf.zeros([2, 3]).shape == (2, 3)
    assert tf.ones(3, tf.int32).numpy().tolist() == [1, 1, 1]
    assert tf.fill([2], 7).numpy().tolist() == [7, 7]
    assert tf.range(5).dtype == tf.int32 and tf.range(5).numpy().tolist() == [0, 1, 2, 3, 4]
    assert tf.range(1.0, 2.0, 0.5).dtype == tf.float32
    np.testing.assert_allclose(tf.linspace(0.0, 1.0, 5).numpy(), np.linspace(0, 1, 5))
    e = tf.eye(2, 3, batch_shape=[4], dtype=tf.float64)
    assert e.shape == (4, 2, 3) and e.dtype == tf.float64
    assert tf.shape(e).numpy().tolist() == [4, 2, 3] and tf.shape(e).dtype == tf.int32
    assert int(tf.size(e)) == 24 and int(tf.rank(e)) == 3
    assert tf.zeros_like(e).shape == e.shape and tf.ones_like(tf.constant(1)).dtype == tf.int32
    assert tf.cast(tf.constant([1.7, -1.7]), tf.int32).numpy().tolist() == [1, -1]
    assert tf.identity(e).shape == e.shape


def test_variable_basics():
    v = tf.Variable([1.0, 2.0], name="w")
    assert v.name == "w:0" and v.trainable and v.dtype == tf.float32 and v.shape == (2,)
    v.assign([3.0, 4.0])
    v.assign_add([1.0, 1.0])
    v.assign_sub(tf.constant([0.5, 0.5]))
    np.testing.assert_allclose(v.numpy(), [3.5, 4.5])
    np.testing.assert_allclose((v * 2).numpy(), [7, 9])
    np.testing.assert_allclose(tf.reduce_sum(v).numpy(), 8.0)
    assert isinstance(v.read_value(), tf.Tensor) and isinstance(v.value(), tf.Tensor)
    with pytest.raises(ValueError, match="shape"):
        v.assign([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="dtype"):   # TensorFlow's type too
        v.assign(tf.constant([1.0, 2.0], tf.float64))
    assert not tf.Variable(1.0, trainable=False).trainable
    assert tf.Variable(1, dtype=tf.float64).dtype == tf.float64


def test_indexed_slices():
    s = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([0, 0]), tf.constant([3, 2]))
    d = tf.convert_to_tensor(s)
    np.testing.assert_allclose(d.numpy(), [[4, 6], [0, 0], [0, 0]])
    assert s.dense_shape.numpy().tolist() == [3, 2]
    np.testing.assert_allclose((tf.ones([3, 2]) + s).numpy(), [[5, 7], [1, 1], [1, 1]])


def test_variable_updates_never_change_what_a_reader_holds():
    v = tf.Variable(np.ones(3))
    r = v.read_value()
    view = r[1:]
    v.assign_sub([1.0, 1.0, 1.0])   # r and view must keep the old value
    v.assign_add(tf.constant(np.full(3, 5.0)))
    np.testing.assert_array_equal(r.numpy(), [1, 1, 1])
    np.testing.assert_array_equal(view.numpy(), [1, 1])
    np.testing.assert_array_equal(v.numpy(), [5, 5, 5])
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * x
        x.assign_add(1.0)        # the tape saved the first read: it must not change
        z = y * x
    assert float(tape.gradient(z, x)) == 2 * 2 * 3 + 4 and float(x) == 3.0


def test_a_recorded_op_with_a_negative_zero_scalar_keeps_its_sign():
    # Python-scalar operands become cached constants under a tape; -0.0 == 0.0 must not share one
    x = tf.constant([1.0, -2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        a = x * 0.0
        b = x * -0.0
        c = x + -0.0
    np.testing.assert_array_equal(np.signbit(a.numpy()), [False, True])
    np.testing.assert_array_equal(np.signbit(b.numpy()), [True, False])
    np.testing.assert_array_equal(c.numpy(), [1.0, -2.0])


# ---------------------------------------------------------------- lists holding tensors (autopacking)
def _grads(f, *xs):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(list(xs))
        y = f()
    return [tape.gradient(y, x) for x in xs]


def test_an_op_given_a_list_of_tensors_differentiates_through_the_pack():
    """reduce_sum([a, b]), convert_to_tensor([a, b]) and square([x, 1.0]) computed the right
    value but gave a None gradient: the list was converted through NumPy, off the tape. TF packs
    it (TF's DeepDream tutorial sums a list of losses)."""
    a, b = tf.constant(1.0), tf.constant(2.0)
    ga, gb = _grads(lambda: tf.reduce_sum([a, 3.0 * b]), a, b)
    assert float(ga) == 1.0 and float(gb) == 3.0
    ga, gb = _grads(lambda: tf.convert_to_tensor([a, b]) * [1.0, 3.0], a, b)
    assert float(ga) == 1.0 and float(gb) == 3.0
    ga, gb = _grads(lambda: tf.square([a, 1.0]), a, b)
    assert float(ga) == 2.0 and gb is None
    ga, gb = _grads(lambda: tf.reduce_sum(tf.convert_to_tensor([[a, b], (b, 1.0)])), a, b)
    assert float(ga) == 1.0 and float(gb) == 2.0
    ga, gb = _grads(lambda: b * [a, 1.0], a, b)   # the list as a binary op's operand
    assert float(ga) == 2.0 and float(gb) == 2.0
    ga, gb = _grads(lambda: tf.reduce_sum(tf.stack([[a, 1.0], [b, 2.0]])), a, b)
    assert float(ga) == 1.0 and float(gb) == 1.0
    ga, gb = _grads(lambda: tf.constant([a, b]) * 2.0, a, b)   # TF raises here; tapegrad packs
    assert float(ga) == 2.0 and float(gb) == 2.0
    ga, _ = _grads(lambda: tf.constant(a) * 2.0, a, b)   # tf.constant(t) is t, as in TF
    assert float(ga) == 2.0


def test_a_packed_list_works_in_every_mode():
    a = tf.constant(1.0, tf.float64)
    with tf.GradientTape() as t2:   # second derivative
        t2.watch(a)
        with tf.GradientTape() as t1:
            t1.watch(a)
            y = tf.reduce_sum(tf.convert_to_tensor([a, 1.0]) ** 3)
        g = t1.gradient(y, a)
    np.testing.assert_allclose(float(t2.gradient(g, a)), 6.0)
    with tf.GradientTape() as tape:   # jacobian
        tape.watch(a)
        y = tf.convert_to_tensor([a, 2 * a, 1.0])
    np.testing.assert_allclose(tape.jacobian(y, a).numpy(), [1.0, 2.0, 0.0])
    with tf.autodiff.ForwardAccumulator(a, tf.constant(1.0, tf.float64)) as acc:   # forward mode
        y = tf.reduce_sum(tf.square([a, 2.0 * a]))
    np.testing.assert_allclose(float(acc.jvp(y)), 10.0)


def test_a_variable_in_a_list_is_watched_as_a_read():
    v = tf.Variable(5.0)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum([v, 2.0 * v, 1.0])
    assert tape.watched_variables() == (v,)
    assert float(tape.gradient(y, v)) == 3.0


@pytest.mark.parametrize("make, dtype, value", [
    (lambda a, d, i, h: [a, 1.0], tf.float32, [1.0, 1.0]),
    (lambda a, d, i, h: [1, a], tf.float32, [1.0, 1.0]),
    (lambda a, d, i, h: [d, 1.0], tf.float64, [3.0, 1.0]),   # the tensor fixes the dtype
    (lambda a, d, i, h: [1.0, d], tf.float64, [1.0, 3.0]),
    (lambda a, d, i, h: [h, 1.5], tf.float16, [1.0, 1.5]),
    (lambda a, d, i, h: [i, 1], tf.int32, [2, 1]),
    (lambda a, d, i, h: [a, np.float64(2.0)], tf.float32, [1.0, 2.0]),
    (lambda a, d, i, h: [[a, a], np.array([1.0, 2.0])], tf.float32, [[1.0, 1.0], [1.0, 2.0]]),
    (lambda a, d, i, h: [[a], [2.0]], tf.float32, [[1.0], [2.0]]),
])
def test_list_dtype_rules_match_tf(make, dtype, value):
    """Checked against TF 2.21: the first tensor in the list fixes the dtype of the pack."""
    a, d, i = tf.constant(1.0), tf.constant(3.0, tf.float64), tf.constant(2)
    h = tf.constant(1.0, tf.float16)
    t = tf.convert_to_tensor(make(a, d, i, h))
    assert t.dtype == dtype
    np.testing.assert_array_equal(t.numpy(), value)


def test_a_requested_dtype_casts_the_tensors_in_a_list_differentiably():
    a, i = tf.constant(1.0), tf.constant(2)
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.convert_to_tensor([a, 1.0], dtype=tf.float64)
        s = tf.reduce_sum(y)
    assert y.dtype == tf.float64 and float(tape.gradient(s, a)) == 1.0
    assert tf.convert_to_tensor([i, 1], dtype=tf.float32).dtype == tf.float32
    assert tf.convert_to_tensor([a, 1.0], dtype_hint=tf.float64).dtype == tf.float64
    assert tf.convert_to_tensor([a, 1.0], dtype_hint=tf.int32).dtype == tf.float32   # hint unused
    with pytest.raises(TypeError, match="holding a float32 tensor to int32.*tf.cast"):
        tf.convert_to_tensor([a, a], dtype=tf.int32)   # TF truncates silently
    with pytest.raises(TypeError, match="out of range"):   # TF wraps to 44
        tf.convert_to_tensor([tf.constant(1, tf.uint8), 300])


def test_a_list_of_plain_numbers_takes_the_numpy_path():
    """No tensor inside: converted by NumPy as before. An array-like item that reads a tensor
    itself makes conversion look for a tensor to pack, find none, and convert by value."""
    assert tf.convert_to_tensor([[1, 2], [3, 4]]).dtype == tf.int32
    with pytest.raises(ValueError, match="ragged"):
        tf.convert_to_tensor([[1.0], [2.0, 3.0]])
    x = tf.constant([1.0, 2.0])
    assert np.asarray(x).dtype == np.float32 and np.array([x, x]).shape == (2, 2)

    class Wrapper:
        def __array__(self, dtype=None, copy=None):
            return np.asarray(x, dtype)

    t = tf.convert_to_tensor([Wrapper(), [3.0, 4.0]])
    assert t.dtype == tf.float32
    np.testing.assert_array_equal(t.numpy(), [[1.0, 2.0], [3.0, 4.0]])
ALL_DTYPES = [tf.float16, tf.float32, tf.float64, tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8,
              tf.uint16, tf.uint32, tf.uint64, tf.bool, tf.complex64, tf.complex128]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("value,shape", [([], (0,)), ([[]], (1, 0)), ([[], []], (2, 0)), ((), (0,)),
                                         ([(), ()], (2, 0)), ([[[]]], (1, 1, 0))])
def test_an_empty_list_converts_to_every_dtype(value, shape, dtype):
    # an empty list holds no float to truncate: TF gives shape [0] of the requested dtype
    for make in (tf.constant, tf.convert_to_tensor):
        t = make(value, dtype=dtype)
        assert t.dtype == dtype and t.shape == shape
    assert tf.convert_to_tensor(value, dtype_hint=dtype).dtype == dtype
    assert tf.Variable(value, dtype=dtype).shape == shape
    assert tf.zeros(shape, dtype).dtype == dtype


def test_an_empty_list_without_a_dtype_is_float32_and_floats_still_refuse_int():
    assert tf.constant([]).dtype == tf.float32 and tf.constant([[]]).shape == (1, 0)
    with pytest.raises(TypeError, match="a float does not convert to an integer"):
        tf.constant([1.0], dtype=tf.int32)
    with pytest.raises(TypeError, match="a float does not convert to an integer"):
        tf.constant([[1.0], [2.0]], dtype=tf.int32)


def test_slices_mix_python_ints_and_scalar_tensors():
    x = tf.constant([1, 2, 3, 4, 5])
    n = tf.constant(2)
    assert x[1:n + 1].numpy().tolist() == [2, 3]
    assert x[n:].numpy().tolist() == [3, 4, 5]
    assert x[:n:1].numpy().tolist() == [1, 2]
