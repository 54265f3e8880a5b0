"""tf.debugging: which inputs pass, and the error type and message TensorFlow 2.21 gives for the
rest (messages as TF prints them in eager mode, without its op-name wrapper)."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError

d = tf.debugging
X = tf.constant([1.0, 2.0, 3.0])


def test_assert_equal_message_is_tensorflows():
    with pytest.raises(InvalidArgumentError) as e:
        d.assert_equal(X, [1.0, 2.0, 4.0], message="msg")
    assert str(e.value) == ("msg\nCondition x == y did not hold.\nIndices of first 1 different "
                            "values:\n[[2]]\nCorresponding x values:\n[3.]\nCorresponding y values:"
                            "\n[4.]\nFirst 3 elements of x:\n[1. 2. 3.]\nFirst 3 elements of y:\n"
                            "[1. 2. 4.]")
    with pytest.raises(InvalidArgumentError) as e:
        tf.assert_equal(1, 2)
    assert str(e.value) == ("Condition x == y did not hold.\nFirst 1 elements of x:\n[1]\nFirst 1 "
                            "elements of y:\n[2]")
    with pytest.raises(InvalidArgumentError) as e:
        d.assert_less(X, 2.0)
    assert str(e.value) == ("Condition x < y did not hold.\nFirst 3 elements of x:\n[1. 2. 3.]\n"
                            "First 1 elements of y:\n[2.]")


@pytest.mark.parametrize("fn,y,holds", [
    (d.assert_equal, [1.0, 2.0, 3.0], True), (d.assert_none_equal, [0.0, 0.0, 0.0], True),
    (d.assert_none_equal, [0.0, 2.0, 0.0], False), (d.assert_less, 3.5, True),
    (d.assert_less, 3.0, False), (d.assert_less_equal, 3.0, True), (d.assert_greater, 0.5, True),
    (d.assert_greater, 1.0, False), (d.assert_greater_equal, 1.0, True),
    (tf.assert_less, [[4.0], [5.0]], True), (tf.assert_greater, [[4.0], [0.0]], False),
])
def test_binary_assertions(fn, y, holds):
    if holds:
        assert fn(X, y) is None
    else:
        with pytest.raises(InvalidArgumentError, match=r"Condition x (!=|<|<=|>|>=) y did not hold"):
            fn(X, y)


def test_binary_assertions_reject_mixed_dtypes_and_shapes():
    with pytest.raises(InvalidArgumentError, match=r"input #1\(zero-based\) was expected to be a "
                                                    r"int32 tensor but is a float32 tensor"):
        d.assert_equal(tf.constant([1, 2]), tf.constant([1.0, 2.0]))
    with pytest.raises(InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs\. \[3\]"):
        d.assert_equal(tf.zeros([2]), tf.zeros([3]))


@pytest.mark.parametrize("fn,sym,x", [(d.assert_positive, ">", X - 2), (d.assert_negative, "<", X - 2),
                                      (d.assert_non_negative, ">=", -X),
                                      (d.assert_non_positive, "<=", X)])
def test_sign_assertions(fn, sym, x):
    fn(tf.abs(x) + 1 if sym == ">" else -tf.abs(x) - 1 if sym == "<" else tf.abs(x) * (1 if sym == ">=" else -1))
    with pytest.raises(InvalidArgumentError) as e:
        fn(x)
    shown = str([str(v) for v in x.numpy()])
    assert str(e.value) == (f"\nCondition x {sym} 0 did not hold element-wise:\nx (shape=(3,) "
                            f"dtype=float32) = \n{shown}")


def test_assert_near():
    d.assert_near(X, X + 1e-7)
    d.assert_near(X, X + 1e-3, atol=2e-3)
    with pytest.raises(InvalidArgumentError) as e:
        d.assert_near(X, X + 1e-3)
    assert str(e.value).startswith("x and y not equal to tolerance rtol = 1.1920929e-06, "
                                   "atol = 1.1920929e-06\nx (shape=(3,) dtype=float32) = \n")


def test_rank_and_type():
    d.assert_rank(X, 1)
    tf.assert_rank(tf.zeros([2, 2]), 2)
    d.assert_rank_at_least(X, 1)
    with pytest.raises(ValueError, match=r"must have rank 2\.  Received rank 1, shape \(3,\)"):
        d.assert_rank(X, 2)
    with pytest.raises(ValueError, match=r"must have rank at least 2\.  Received rank 1, shape \(3,\)"):
        d.assert_rank_at_least(X, 2)
    d.assert_type(X, tf.float32)
    with pytest.raises(TypeError, match="tensor must be of type tf.int32; got tf.float32"):
        d.assert_type(X, tf.int32)


def test_assert_shapes():
    d.assert_shapes([(X, ("N",)), (tf.zeros([3, 2]), ("N", 2)), (tf.constant(1.0), ())])
    d.assert_shapes({X.ref(): (..., "N"), tf.zeros([5, 3]).ref(): ("*", "N"),
                     tf.zeros([4, 7]).ref(): (None, ".")})
    with pytest.raises(ValueError) as e:
        d.assert_shapes([(X, (3,)), (tf.zeros([2, 3]), ("N", 3)), (tf.zeros([3, 3]), ("N", 3))])
    assert str(e.value) == ("Specified by tensor shape=(2, 3) dtype=float32 dimension 0.  Tensor "
                            "shape=(3, 3) dtype=float32 dimension 0 must have size 2.  Received "
                            "size 3, shape (3, 3)")
    with pytest.raises(ValueError, match=r"Specified explicitly\.  Tensor shape=\(3,\) dtype=float32 "
                                         r"dimension 0 must have size 4"):
        d.assert_shapes([(X, (4,))])
    with pytest.raises(ValueError, match="must have rank 2"):
        d.assert_shapes([(X, ("N", "M"))])


def test_check_numerics():
    assert d.check_numerics(X, "ok").numpy().tolist() == [1.0, 2.0, 3.0]
    for x, what in ((X / 0, "Inf"), (X / 0 - X / 0, "NaN"), (tf.constant([np.nan, np.inf]), "Inf and NaN")):
        with pytest.raises(InvalidArgumentError, match=rf"^mine : Tensor had {what} values$"):
            d.check_numerics(x, "mine")
        with pytest.raises(InvalidArgumentError, match=rf"^bad : Tensor had {what} values$"):
            d.assert_all_finite(x, "bad")
    w = tf.Variable([2.0])
    with tf.GradientTape() as tape:
        y = d.check_numerics(w * w, "y")
    assert tape.gradient(y, w).numpy().tolist() == [4.0]
    with pytest.raises(TypeError, match="floating-point"):
        d.check_numerics(tf.constant([1]), "ints")


def test_is_numeric_tensor_and_assert():
    assert d.is_numeric_tensor(X) and d.is_numeric_tensor(tf.constant([1]))
    assert not d.is_numeric_tensor(tf.constant(True)) and not d.is_numeric_tensor(1.0)
    assert d.Assert(True, [X]) is None and tf.Assert(tf.constant(True), ["x"]) is None
    with pytest.raises(InvalidArgumentError) as e:
        tf.Assert(False, [X, "hi"])
    assert str(e.value) == "Expected 'False' to be true. Summarized data: 1.0, 2.0, 3.0\nhi"


def test_log_device_placement_writes_tensorflows_executing_op_lines(capfd):
    # TF 2.21 logs "Executing op <op> in device /job:localhost/replica:0/task:0/device:CPU:0"
    # (execute.cc) per eager op, variable creation (VarHandleOp) and updates included
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert d.get_log_device_placement() is False
    d.set_log_device_placement(True)
    try:
        assert d.get_log_device_placement() is True
        with tf.GradientTape() as tape:
            tape.watch(a)
            y = tf.reduce_sum(a * 2.0)
        v = tf.Variable(1.0)
        v.assign_add(2.0)
    finally:
        d.set_log_device_placement(False)
    tf.reduce_sum(a)
    np.testing.assert_allclose(tape.gradient(y, a).numpy(), np.full((2, 2), 2.0))
    lines = capfd.readouterr().err.splitlines()
    cpu = "in device /job:localhost/replica:0/task:0/device:CPU:0"
    assert lines == [f"Executing op {op} {cpu}" for op in ("Mul", "Sum", "VarHandleOp", "AssignAddVariableOp")]
    assert d.get_log_device_placement() is False
