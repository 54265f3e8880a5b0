"""tf.Variable: atomic updates across threads, immutable reads, TensorFlow's constructor arguments,
in-place operators, scatter and sliced assignment, declared (partial) shapes; tf.TensorShape with
unknown dimensions. Expected values and error types were checked against TensorFlow 2.21."""
from __future__ import annotations

import threading
from typing import Any, Callable

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError

IS = tf.IndexedSlices


def _in_threads(fn: Callable[[int], Any], n: int = 8) -> list:
    """Run ``fn(i)`` in ``n`` threads started together; the exceptions they raised."""
    errors: list = []
    start = threading.Barrier(n)

    def body(i: int) -> None:
        try:
            start.wait()
            fn(i)
        except BaseException as e:  # noqa: BLE001  (reported by the test)
            errors.append(e)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


# ----------------------------------------------------------------------------- threads
def test_concurrent_assign_add_loses_no_update():
    v = tf.Variable(0.0)
    errors = _in_threads(lambda i: [v.assign_add(1.0) for _ in range(5000)])
    assert errors == []
    assert float(v) == 40000.0


def test_concurrent_assign_sub_scatter_and_slice_updates_are_exact():
    v = tf.Variable(np.zeros(4, np.int64))
    w = tf.Variable(np.full(3, 1000, np.int64))
    rows = IS(tf.constant(np.ones(2, np.int64)), tf.constant([1, 1]))

    def work(i: int) -> None:
        for _ in range(300):
            v.scatter_add(rows)           # row 1 += 2
            v.scatter_sub(IS(tf.constant(np.ones(1, np.int64)), tf.constant([3])))
            w.assign_sub(np.ones(3, np.int64))
            v.scatter_nd_add([[0]], tf.constant(np.ones(1, np.int64)))
            v[2].assign(np.int64(i))      # a write whose result is one of the threads' values

    assert _in_threads(work) == []
    assert v.numpy()[[0, 1, 3]].tolist() == [2400, 4800, -2400]
    assert 0 <= v.numpy()[2] < 8
    assert w.numpy().tolist() == [1000 - 2400] * 3


def test_concurrent_assign_and_reads_never_see_a_torn_value():
    v = tf.Variable(np.zeros(1000))
    seen: list = []

    def work(i: int) -> None:
        for k in range(200):
            if i % 2:
                v.assign(np.full(1000, float(k)))
            else:
                a = v.numpy()
                seen.append(a.min() == a.max())

    assert _in_threads(work) == []
    assert all(seen)


def test_a_value_once_read_never_changes():
    v = tf.Variable(np.arange(6.0).reshape(2, 3))
    r = v.read_value()
    a = r.numpy()                          # a copy of the value (the caller's)
    row = r[1]                             # a slice of it
    flat = tf.reshape(r, [-1])             # a reshaped view
    vs = v[0]                              # a slice read from the variable
    before = [x.numpy().copy() for x in (r, row, flat, vs)]
    v.assign_add(np.ones((2, 3)))
    v.assign_sub(np.full((2, 3), 5.0))
    v.assign(np.zeros((2, 3)))
    v.scatter_update(IS(tf.constant([[9.0, 9.0, 9.0]], tf.float64), tf.constant([1])))
    v[0, 1].assign(7.0)
    for x, b in zip((r, row, flat, vs), before):
        np.testing.assert_array_equal(x.numpy(), b)
    np.testing.assert_array_equal(a, np.arange(6.0).reshape(2, 3))
    a[0, 0] = 99.0                         # (writing into the copy changes no tensor)
    assert r.numpy()[0, 0] == 0.0
    np.testing.assert_array_equal(v.numpy(), [[0, 7, 0], [9, 9, 9]])


def test_readers_in_threads_keep_their_values_while_others_update():
    v = tf.Variable(np.zeros(64))
    bad: list = []

    def work(i: int) -> None:
        for _ in range(200):
            if i % 2:
                v.assign_add(np.ones(64))
            else:
                r = v.read_value()
                a = r.numpy().copy()
                s = r[3:9]
                v.assign_sub(np.ones(64))
                if not (np.array_equal(r.numpy(), a) and np.array_equal(s.numpy(), a[3:9])):
                    bad.append(i)

    assert _in_threads(work) == []
    assert bad == []
    np.testing.assert_array_equal(v.numpy(), np.zeros(64))


# ----------------------------------------------------------------------------- in-place operators
@pytest.mark.parametrize("op,fix", [
    ("+=", r"assign_add\(value\)"), ("-=", r"assign_sub\(value\)"),
    ("*=", r"assign\(variable \* value\)"), ("/=", r"assign\(variable / value\)"),
    ("**=", r"assign\(variable \*\* value\)"), ("//=", r"assign\(variable // value\)"),
    ("%=", r"assign\(variable % value\)")])
def test_in_place_operators_raise_instead_of_rebinding(op, fix):
    v = tf.Variable(2.0)
    with pytest.raises(RuntimeError, match=r"`variable .*= value` with `tf.Variable`s is not supported.*" + fix):
        exec(f"v {op} 1.0", {}, {"v": v})
    assert isinstance(v, tf.Variable) and float(v) == 2.0


def test_in_place_operator_on_a_module_attribute_keeps_the_variable():
    m = tf.Module()
    m.w = tf.Variable(1.0)
    with pytest.raises(RuntimeError, match="assign_add"):
        m.w += 1.0
    assert isinstance(m.w, tf.Variable) and list(m.trainable_variables) == [m.w]
    m.w.assign_add(1.0)
    assert float(m.w) == 2.0


# ----------------------------------------------------------------------------- constructor
def test_constructor_takes_tensorflows_arguments_positionally_and_by_name():
    v = tf.Variable(1.0, True, True, None, "w", None, tf.float64, None, None,
                    tf.VariableSynchronization.ON_WRITE, tf.VariableAggregation.SUM, [],
                    False)
    assert v.name == "w:0" and v.dtype == tf.float64 and v.trainable
    assert v.synchronization is tf.VariableSynchronization.ON_WRITE
    assert v.aggregation is tf.VariableAggregation.SUM
    d = tf.Variable(1.0)
    assert d.constraint is None and d.synchronization is tf.VariableSynchronization.AUTO
    assert d.aggregation is tf.VariableAggregation.NONE
    assert tf.Variable(1.0, aggregation=None).aggregation is tf.VariableAggregation.NONE


def test_on_read_variables_are_not_trainable_by_default():
    assert not tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ).trainable
    assert tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ, trainable=True).trainable
    assert tf.Variable(1.0, trainable=None).trainable


def test_unknown_keyword_arguments_are_refused():
    with pytest.raises(TypeError, match="trainble"):
        tf.Variable(1.0, trainble=False)


@pytest.mark.parametrize("kwargs,etype,pattern", [
    ({"constraint": 3}, ValueError, r"`constraint` must be None or a callable"),
    ({"validate_shape": "no"}, TypeError, r"`validate_shape` must be a bool"),
    ({"experimental_enable_variable_lifting": 1}, TypeError, r"must be a bool"),
    ({"caching_device": 0}, TypeError, r"`caching_device` must be None or a string"),
    ({"import_scope": 1}, TypeError, r"`import_scope` must be None or a string"),
    ({"synchronization": "auto"}, ValueError, r"Invalid variable synchronization mode"),
    ({"aggregation": 7}, ValueError, r"Invalid variable aggregation mode"),
    ({"variable_def": object()}, ValueError, r"variable_def.*not supported in eager"),
    ({"name": 3}, ValueError, r"name must be a string"),
])
def test_constructor_arguments_are_checked(kwargs, etype, pattern):
    with pytest.raises(etype, match=pattern):
        tf.Variable(1.0, **kwargs)


def test_arguments_without_effect_in_eager_mode_are_accepted():
    v = tf.Variable([1.0], validate_shape=False, caching_device="/cpu:0", import_scope="s",
                    experimental_enable_variable_lifting=False)
    assert v.shape == (1,)


# ----------------------------------------------------------------------------- constraint
def test_optimizers_apply_the_constraint_after_each_update_as_keras():
    v = tf.Variable([5.0, 6.0], constraint=lambda x: tf.minimum(x, 1.0))
    tf.optimizers.SGD(learning_rate=1.0).apply_gradients([(tf.constant([-1.0, -1.0]), v)])
    np.testing.assert_array_equal(v.numpy(), [1.0, 1.0])        # TF/Keras: [1, 1]
    v = tf.Variable([0.5, 0.2], constraint=lambda x: tf.clip_by_value(x, 0.0, 1.0))
    opt = tf.optimizers.Adam(learning_rate=0.5)
    for _ in range(3):
        opt.apply_gradients([(tf.constant([-1.0, 1.0]), v)])
    np.testing.assert_allclose(v.numpy(), [1.0, 0.0])           # TF/Keras: [1, 0]
    v = tf.Variable([2.0, 3.0], constraint=lambda x: x / tf.norm(x))
    tf.optimizers.SGD(learning_rate=0.1, weight_decay=0.5).apply_gradients([(tf.constant([1.0, 1.0]), v)])
    np.testing.assert_allclose(v.numpy(), [0.54765916, 0.8367015], rtol=1e-5)  # TF/Keras


def test_constraint_is_not_applied_to_a_variable_without_gradient_nor_by_assign():
    v = tf.Variable([5.0], constraint=lambda x: tf.minimum(x, 1.0))
    w = tf.Variable([1.0])
    with pytest.warns(UserWarning, match="Gradients do not exist"):
        tf.optimizers.SGD(learning_rate=1.0).apply_gradients([(None, v), (tf.constant([1.0]), w)])
    assert v.numpy().tolist() == [5.0]
    v.assign([7.0])                       # as in TF: assign itself does not constrain
    assert v.numpy().tolist() == [7.0]


# ----------------------------------------------------------------------------- shapes
def test_declared_shape_must_fit_the_initial_value():
    with pytest.raises(ValueError, match=r"initial value's shape \(\(2,\)\) is not compatible with "
                                         r"the explicitly supplied `shape` argument \(\(3,\)\)"):
        tf.Variable([1.0, 2.0], shape=(3,))
    with pytest.raises(ValueError, match=r"\(\(1, 2\)\).*\(\(None, 3\)\)"):
        tf.Variable([[1.0, 2.0]], shape=[None, 3])
    assert tf.Variable([1.0, 2.0], shape=[2]).shape == (2,)


def test_unknown_shape_variable_takes_values_of_any_shape():
    v = tf.Variable([1.0, 2.0], shape=tf.TensorShape(None))
    assert v.shape.rank is None and str(v.shape) == "<unknown>" and "shape=<unknown>" in repr(v)
    v.assign([[1.0, 2.0, 3.0]])
    assert v.shape == tf.TensorShape(None) and v.read_value().shape == (1, 3)
    np.testing.assert_array_equal(v.assign_add([[1.0, 1.0, 1.0]]).numpy(), [[2.0, 3.0, 4.0]])
    with pytest.raises(InvalidArgumentError, match=r"with shape \[1, 3\] using a value with shape \[1\]"):
        v.assign_add([1.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v)
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [[4.0, 6.0, 8.0]])


def test_partial_shape_variable_takes_compatible_values_only():
    v = tf.Variable([[1.0, 2.0, 3.0]], shape=tf.TensorShape([None, 3]))
    assert v.shape == [None, 3] and str(v.shape) == "(None, 3)"
    v.assign(np.zeros((4, 3), np.float32))
    assert v.shape == [None, 3] and v.numpy().shape == (4, 3)
    with pytest.raises(ValueError, match=r"shape \(4, 2\) to variable 'Variable:0' of shape \(None, 3\)"):
        v.assign(np.zeros((4, 2), np.float32))
    opt = tf.optimizers.Adam(0.1)
    opt.apply_gradients([(tf.ones([4, 3]), v)])
    np.testing.assert_allclose(v.numpy(), -0.1 * np.ones((4, 3)), rtol=1e-5)


def test_tensor_shape_with_unknown_dimensions():
    S = tf.TensorShape
    p, f, u = S([None, 3]), S([2, 3]), S(None)
    assert repr(p) == "TensorShape([None, 3])" and str(p) == "(None, 3)"
    assert p.rank == 2 and p.as_list() == [None, 3] and p[0] is None and p[1:] == [3]
    assert not p.is_fully_defined() and p.num_elements() is None and f.num_elements() == 6
    assert p.is_compatible_with(f) and p.is_compatible_with([3, 3]) and not p.is_compatible_with([3, 4])
    assert not p.is_compatible_with([3]) and u.is_compatible_with(f) and f.is_compatible_with(u)
    assert p.merge_with(f) == f and u.merge_with(p) == p and p.merge_with([None, None]) == p
    with pytest.raises(ValueError, match=r"Shapes \(None, 3\) and \(3, 4\) are not compatible"):
        p.merge_with([3, 4])
    assert f.most_specific_compatible_shape([2, 4]) == [2, None]
    assert f.most_specific_compatible_shape([2]) == u and p.most_specific_compatible_shape(f) == p
    assert p + f == [None, 3, 2, 3] and (p + u) == u and (1,) + f == [1, 2, 3]
    assert p == S([None, 3]) and p != f and S([]) and f.with_rank(2) == f
    with pytest.raises(ValueError, match=r"Shape \(None, 3\) must have rank 3"):
        p.with_rank(3)
    with pytest.raises(ValueError, match=r"Shape \(None, 3\) is not fully defined"):
        p.assert_is_fully_defined()
    with pytest.raises(ValueError, match=r"Shapes \(None, 3\) and \(3, 4\) are incompatible"):
        p.assert_is_compatible_with([3, 4])


def test_tensor_shape_of_unknown_rank():
    import copy
    import pickle

    u = tf.TensorShape(None)
    assert repr(u) == "TensorShape(None)" and str(u) == "<unknown>"
    assert u.rank is None and u.ndims is None and u.dims is None and u.num_elements() is None
    assert not u.is_fully_defined() and not u and u == None and u == tf.TensorShape(None)  # noqa: E711
    assert u != tf.TensorShape([]) and tf.TensorShape([]) != u and u != ()
    assert u[0] is None and u[1:] is u and u.with_rank(2) == [None, None]
    assert pickle.loads(pickle.dumps(u)) is u and copy.deepcopy(u) is u
    for call, msg in ((lambda: u.as_list(), "as_list"), (lambda: len(u), "length"),
                      (lambda: list(u), "iterate")):
        with pytest.raises(ValueError, match=msg):
            call()


def test_tensor_shape_checks_dimensions():
    assert tf.TensorShape(3) == [3] and tf.TensorShape(np.array([2, 3])) == [2, 3]
    assert tf.TensorShape(tf.constant([2, 3])) == [2, 3] and tf.TensorShape([np.int64(4)]) == [4]
    with pytest.raises(TypeError, match="Dimension value must be an integer or None, got 2.0"):
        tf.TensorShape([2.0])
    with pytest.raises(ValueError, match="Dimension -1 must be >= 0"):
        tf.TensorShape([-1])


def test_indexed_slices_without_dense_shape_has_unknown_shape():
    assert tf.IndexedSlices(tf.constant([[1.0]]), tf.constant([0])).shape.rank is None


# ----------------------------------------------------------------------------- assign checks
@pytest.mark.parametrize("method,etype", [("assign", ValueError), ("assign_add", InvalidArgumentError),
                                          ("assign_sub", InvalidArgumentError)])
@pytest.mark.parametrize("value", [1.0, [1.0], [[1.0, 1.0, 1.0, 1.0]]])
def test_assign_does_not_broadcast(method, etype, value):
    v = tf.Variable([1.0, 2.0, 3.0, 4.0])
    with pytest.raises(etype, match="shape"):
        getattr(v, method)(value)
    assert v.numpy().tolist() == [1.0, 2.0, 3.0, 4.0]


def test_numpy_operands_take_the_variables_dtype_as_in_tensorflow():
    # TF 2.21: a NumPy float64 operand is converted with the tensor's dtype as the hint
    v = tf.Variable([1.0])
    assert v.assign(np.array([3.0])).numpy().dtype == np.float32
    assert v.assign_add(np.array([1.0])).numpy().tolist() == [4.0]
    assert tf.Variable(1.0).assign(np.float64(2.0)).dtype == tf.float32
    assert (tf.constant(1.0) * np.float64(2.0)).dtype == tf.float32
    assert (tf.constant([1.0]) + np.array([1.0])).dtype == tf.float32
    assert (tf.Variable(1.0) + np.float64(1)).dtype == tf.float32
    with pytest.raises(ValueError, match="dtype float64 for variable 'Variable:0' of dtype float32"):
        v.assign(tf.constant([1.0], tf.float64))     # a Tensor of another dtype: TF raises too
    with pytest.raises(TypeError, match="Cast explicitly"):
        tf.Variable([1]).assign(np.array([1.5]))    # TF truncates to 1 silently


# ----------------------------------------------------------------------------- scatter
def _v() -> tf.Variable:
    return tf.Variable([1.0, 2.0, 3.0, 4.0])


def _m() -> tf.Variable:
    return tf.Variable(np.arange(6.0, dtype=np.float32).reshape(3, 2))


@pytest.mark.parametrize("method,expected", [   # duplicates at row 1: values 10 then 20 (TF 2.21)
    ("scatter_update", [1, 20, 3, 4]), ("scatter_add", [1, 32, 3, 4]), ("scatter_sub", [1, -28, 3, 4]),
    ("scatter_mul", [1, 400, 3, 4]), ("scatter_div", [1, 0.01, 3, 4]), ("scatter_max", [1, 20, 3, 4]),
    ("scatter_min", [1, 2, 3, 4])])
def test_scatter_values(method, expected):
    v = _v()
    assert getattr(v, method)(IS(tf.constant([10.0, 20.0]), tf.constant([1, 1]))) is v
    np.testing.assert_allclose(v.numpy(), expected, rtol=1e-6)


@pytest.mark.parametrize("method", ["scatter_update", "scatter_add", "scatter_sub", "scatter_mul",
                                    "scatter_div", "scatter_max", "scatter_min"])
@pytest.mark.parametrize("index,bad", [([-1], r"indices\[0\] = -1"), ([4], r"indices\[0\] = 4"),
                                       ([0, 7], r"indices\[1\] = 7")])
def test_scatter_index_out_of_range(method, index, bad):
    v = _v()
    with pytest.raises(InvalidArgumentError, match=bad + r" is not in \[0, 4\)"):
        getattr(v, method)(IS(tf.constant([1.0] * len(index)), tf.constant(index)))
    assert v.numpy().tolist() == [1.0, 2.0, 3.0, 4.0]


def test_scatter_shapes_scalars_and_index_forms():
    np.testing.assert_array_equal(_v().scatter_update(IS(tf.constant(9.0), tf.constant(1))).numpy(), [1, 9, 3, 4])
    np.testing.assert_array_equal(_v().scatter_update(IS(tf.constant([[1.0]]), tf.constant([[1]]))).numpy(),
                                  [1, 1, 3, 4])
    np.testing.assert_array_equal(_v().scatter_add(IS(tf.constant([1.0]), tf.constant([1], tf.int64))).numpy(),
                                  [1, 3, 3, 4])
    np.testing.assert_array_equal(_m().scatter_add(IS(tf.constant(1.0), tf.constant([0, 0]))).numpy(),
                                  [[2, 3], [2, 3], [4, 5]])
    v = tf.Variable([7, -7, 7, 5])
    np.testing.assert_array_equal(v.scatter_div(IS(tf.constant([2, 2, 2]), tf.constant([0, 1, 2]))).numpy(),
                                  [3, -3, 3, 5])   # integers round toward zero (TF)


@pytest.mark.parametrize("call,etype,pattern", [
    (lambda: _v().scatter_update(tf.constant([1.0])), TypeError, r"must be a `tf.IndexedSlices`"),
    (lambda: _v().scatter_add(IS(tf.constant([1.0], tf.float64), tf.constant([1]))), ValueError,
     r"requested dtype float32 for Tensor with dtype float64"),
    (lambda: _v().scatter_add(IS(tf.constant([1.0, 2.0]), tf.constant([1]))), InvalidArgumentError,
     r"updates.shape = indices.shape \+ params.shape\[1:\].*updates.shape \[2\], indices.shape \[1\]"),
    (lambda: _v().scatter_add(IS(tf.constant([1.0]), tf.constant([1.0]))), InvalidArgumentError,
     r"indices must be int32 or int64; got dtype float32"),
    (lambda: tf.Variable(1.0).scatter_add(IS(tf.constant([1.0]), tf.constant([0]))), InvalidArgumentError,
     r"params.shape \[\]"),
    (lambda: tf.Variable([4, 5]).scatter_div(IS(tf.constant([0]), tf.constant([0]))), InvalidArgumentError,
     r"updates must not contain 0"),
])
def test_scatter_checks_its_arguments(call, etype, pattern):
    with pytest.raises(etype, match=pattern):
        call()


@pytest.mark.parametrize("method,expected", [
    ("scatter_nd_update", [[0, 10], [2, 3], [20, 5]]), ("scatter_nd_add", [[0, 11], [2, 3], [24, 5]]),
    ("scatter_nd_sub", [[0, -9], [2, 3], [-16, 5]]), ("scatter_nd_max", [[0, 10], [2, 3], [20, 5]]),
    ("scatter_nd_min", [[0, 1], [2, 3], [4, 5]])])
def test_scatter_nd_values(method, expected):
    v = _m()
    assert getattr(v, method)(tf.constant([[0, 1], [2, 0]]), tf.constant([10.0, 20.0])) is v
    np.testing.assert_array_equal(v.numpy(), expected)
    rows = getattr(_m(), method)([[1]], [[10.0, 11.0]]).numpy()[1]
    assert rows.tolist() == {"scatter_nd_add": [12, 14], "scatter_nd_sub": [-8, -8],
                             "scatter_nd_min": [2, 3]}.get(method, [10, 11])


@pytest.mark.parametrize("call,pattern", [
    (lambda: _m().scatter_nd_update([[0, -1]], [10.0]), r"indices\[0\] = \[0, -1\] does not index into shape \[3, 2\]"),
    (lambda: _m().scatter_nd_add([[1, 0], [3, 0]], [1.0, 1.0]), r"indices\[1\] = \[3, 0\] does not index"),
    (lambda: _m().scatter_nd_update([[0, 1]], [1.0, 2.0]), r"updates must have shape .* = \[1\]; got \[2\]"),
    (lambda: _m().scatter_nd_update([[0, 1, 0]], [1.0]), r"last dimension of size 1 to 2"),
])
def test_scatter_nd_checks_its_arguments(call, pattern):
    with pytest.raises(InvalidArgumentError, match=pattern):
        call()


def test_batch_scatter_update():
    v = _m()
    v.batch_scatter_update(IS(tf.constant([[9.0], [8.0], [7.0]]), tf.constant([[1], [0], [1]])))
    np.testing.assert_array_equal(v.numpy(), [[0, 9], [8, 3], [4, 7]])
    np.testing.assert_array_equal(_v().batch_scatter_update(IS(tf.constant([9.0]), tf.constant([2]))).numpy(),
                                  [1, 2, 9, 4])
    with pytest.raises(InvalidArgumentError, match=r"\[0, 2\] does not index into shape \[3, 2\]"):
        _m().batch_scatter_update(IS(tf.constant([[9.0], [8.0], [7.0]]), tf.constant([[2], [0], [1]])))


# ----------------------------------------------------------------------------- sliced assignment
@pytest.mark.parametrize("key,value,expected", [
    (0, 9.0, [[9, 9], [2, 3], [4, 5]]),
    (slice(1, 3), [[7.0, 8.0], [9.0, 10.0]], [[0, 1], [7, 8], [9, 10]]),
    ((slice(None), 0), [7.0, 8.0, 9.0], [[7, 1], [8, 3], [9, 5]]),
    ((slice(None), 0), 1.0, [[1, 1], [1, 3], [1, 5]]),
    (0, [[7.0, 8.0]], [[7, 8], [2, 3], [4, 5]]),
    (slice(None, None, -1), [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]], [[3, 3], [2, 2], [1, 1]]),
    ((Ellipsis, 1), [7.0, 8.0, 9.0], [[0, 7], [2, 8], [4, 9]]),
    ((None, 0), [[7.0, 8.0]], [[7, 8], [2, 3], [4, 5]]),
    ((0, 1), 5.0, [[0, 5], [2, 3], [4, 5]]),
    (-1, [6.0, 6.0], [[0, 1], [2, 3], [6, 6]]),
])
def test_sliced_assign(key, value, expected):
    v = _m()
    s = v[key]
    before = s.numpy().copy()
    assert s.assign(value) is v
    np.testing.assert_array_equal(v.numpy(), expected)
    np.testing.assert_array_equal(s.numpy(), before)   # the slice tensor keeps what it read


def test_sliced_assign_with_tensor_index_and_dtype_rules():
    v = _v()
    v[tf.constant(1)].assign(9)
    assert not hasattr(v[1:3][1:], "assign")   # a slice of a slice is a plain Tensor (as in TF)
    assert v.numpy().tolist() == [1, 9, 3, 4]
    with pytest.raises(ValueError, match="dtype float64"):
        v[0].assign(tf.constant(9.0, tf.float64))
    with pytest.raises(InvalidArgumentError, match=r"cannot broadcast input shape \[3\] into final shape \[2\]"):
        v[1:3].assign([7.0, 8.0, 9.0])
    with pytest.raises(AttributeError):
        v[0].assign_add(1.0)   # as in TensorFlow: slices have assign only
    assert v.numpy().tolist() == [1, 9, 3, 4]


def test_sliced_assign_is_state_and_slices_are_differentiable_reads():
    v = _v()
    x = tf.constant(5.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        v[0].assign(x * 2)
        y = tf.reduce_sum(v * v)
        z = v[2] * 3.0
    assert tape.gradient(y, x) is None                      # TF: None
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [20, 4, 6, 8])
    np.testing.assert_array_equal(tape.gradient(z, v).numpy(), [0, 0, 3, 0])


def test_sliced_assign_from_threads_loses_no_other_write():
    # each write copies the whole value: without the lock, one thread's copy would undo another's
    v = tf.Variable(np.zeros(8))
    errors = _in_threads(lambda i: [v[i].assign(v.numpy()[i] + 1.0) for _ in range(300)])
    assert errors == []
    np.testing.assert_array_equal(v.numpy(), np.full(8, 300.0))


# ----------------------------------------------------------------------------- docs/differences.md
@pytest.mark.parametrize("op", ["@=", "&=", "|=", "^="])
def test_in_place_operators_tensorflow_lets_rebind_raise_too(op):
    v = tf.Variable([[1]])
    with pytest.raises(RuntimeError, match="assign"):
        exec(f"v {op} v", {}, {"v": v})


def test_values_tensorflow_truncates_or_wraps_raise():
    with pytest.raises(TypeError, match="out of range"):
        tf.Variable([1]).assign([2**40])
    with pytest.raises(TypeError, match="Cast explicitly"):
        tf.constant(1) * np.float64(2.5)
    with pytest.raises(TypeError, match="Cast explicitly"):
        tf.constant(1.0) * np.complex128(1j)


def test_numpy_first_argument_takes_the_tensors_dtype():
    assert tf.add(np.array([1.0]), tf.constant([1.0])).dtype == tf.float32
    assert (np.array([1.0]) + tf.constant([1.0])).dtype == tf.float32


def test_tensor_shape_dims_are_ints():
    assert [d.value for d in tf.TensorShape([None, 3]).dims] == [None, 3]  # (Dimensions, as TF 2)


def test_copies_and_pickles_are_new_variables():
    import copy
    import pickle

    v = tf.Variable([1.0, 2.0], name="w", trainable=False)
    for w in (copy.copy(v), copy.deepcopy(v), pickle.loads(pickle.dumps(v))):
        assert isinstance(w, tf.Variable) and w.name == "w:0" and not w.trainable
        w.assign_add([1.0, 1.0])
        assert v.numpy().tolist() == [1.0, 2.0] and w.numpy().tolist() == [2.0, 3.0]
        with tf.GradientTape() as tape:
            tape.watch([v, w])
            y = tf.reduce_sum(v * 2.0) + tf.reduce_sum(w * 3.0)
        gv, gw = tape.gradient(y, [v, w])
        assert gv.numpy().tolist() == [2.0, 2.0] and gw.numpy().tolist() == [3.0, 3.0]
    m = tf.Module()
    m.w = tf.Variable(1.0)
    assert float(copy.deepcopy(m).w.assign_add(1.0)) == 2.0 and float(m.w) == 1.0


def test_python_scalars_convert_while_other_threads_read_tensors():
    """A Python scalar converted while another thread reads a tensor's value (Tensor.__array__)
    was taken for a list holding a tensor: TypeError "'float' object is not iterable"."""
    t = tf.constant([1.0, 2.0])
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            np.asarray(t)

    r = threading.Thread(target=reader)
    r.start()
    try:
        for _ in range(20000):
            tf.convert_to_tensor(1.0)
            tf.convert_to_tensor([1.0, 2.0])
    finally:
        stop.set()
        r.join()
