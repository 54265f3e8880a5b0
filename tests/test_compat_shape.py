"""tf.compat.v1.Dimension, TensorShape.dims, tf.compat.dimension_value / dimension_at_index and
tf.compat.v1.{enable,disable}_tensor_equality, as TensorFlow 2.21 defines them
(tensorflow/python/framework/tensor_shape.py, tensor.py); each expected value was checked by
running the same expression under TensorFlow 2.21."""
import pickle

import pytest

import tapegrad as tf

D = tf.compat.v1.Dimension


def test_dims_are_dimensions_and_indexing_gives_ints():
    s = tf.TensorShape([16, None, 256])
    assert repr(s.dims) == "[Dimension(16), Dimension(None), Dimension(256)]"
    assert type(s[0]) is int and s[1] is None and list(s) == [16, None, 256]
    assert tf.TensorShape(None).dims is None and tf.TensorShape([]).dims == []
    assert tf.TensorShape([D(3), None]).as_list() == [3, None]


def test_dimension_values_and_text():
    assert (D(3).value, D(None).value, D(D(4)).value) == (3, None, 4)
    assert (repr(D(3)), repr(D(None)), str(D(3)), str(D(None))) == ("Dimension(3)", "Dimension(None)", "3", "?")
    assert int(D(3)) == 3 and [0, 1, 2, 3][D(1)] == 1 and not bool(D(0)) and not bool(D(None))
    with pytest.raises(ValueError, match="must be >= 0"):
        D(-1)
    with pytest.raises(TypeError, match="integer or None"):
        D(2.5)
    with pytest.raises(TypeError):
        int(D(None))
    with pytest.raises(TypeError, match="unhashable"):
        hash(D(3))
    assert pickle.loads(pickle.dumps(D(5))).value == 5


def test_arithmetic_and_comparisons_with_unknown():
    assert [str(v) for v in (D(3) + 2, D(3) + D(None), 2 + D(3), D(3) * 4, D(7) // 2, D(7) % 3, D(3) - 1,
                             10 - D(3), D(6) // D(None), D(None) * D(3))] == \
        ["5", "?", "5", "12", "3", "1", "2", "7", "?", "?"]
    assert (D(3) == 3, D(3) == D(None), D(None) == D(None), D(3) != 4, D(3) < 4, D(None) < 3) == \
        (True, None, None, True, True, None)
    assert (D(3) > D(None), D(3) >= 3, D(3) <= 2, D(3) == None) == (None, True, False, None)  # noqa: E711
    with pytest.raises(TypeError, match="use //"):
        D(6) / 2
    with pytest.raises(ZeroDivisionError):
        D(7) // 0


def test_compatibility_and_merge():
    assert (D(3).is_compatible_with(3), D(3).is_compatible_with(4), D(None).is_compatible_with(4)) == \
        (True, False, True)
    with pytest.raises(ValueError, match="Dimensions 3 and 4 are not compatible"):
        D(3).assert_is_compatible_with(4)
    assert (D(3).merge_with(None).value, D(None).merge_with(5).value) == (3, 5)
    with pytest.raises(ValueError, match="not compatible"):
        D(3).merge_with(4)


def test_compat_helpers():
    s = tf.TensorShape([16, None, 256])
    assert repr(tf.compat.dimension_at_index(s, 1)) == "Dimension(None)"
    assert repr(tf.compat.dimension_at_index(tf.TensorShape(None), 5)) == "Dimension(None)"
    assert tf.compat.dimension_at_index([2, 5], 1) == 5
    assert (tf.compat.dimension_value(D(4)), tf.compat.dimension_value(4), tf.compat.dimension_value(None)) == \
        (4, 4, None)
    assert tf.compat.v1.dimension_value(D(5)) == 5 and tf.compat.v1.dimension_at_index(s, 0).value == 16
    assert tf.compat.v1.TensorShape is tf.TensorShape


def test_tensor_equality_switch():
    x, y = tf.Variable(0.0), tf.Variable(0.0)
    assert bool(x == y)
    with pytest.raises(TypeError, match="unhashable"):
        {x}  # noqa: B018
    tf.compat.v1.disable_tensor_equality()
    try:
        t = tf.constant(2.0)
        assert (x == y) is False and (x == x) is True and (x != y) is True
        assert (t == tf.constant(2.0)) is False and len({x, t, x}) == 2
    finally:
        tf.compat.v1.enable_tensor_equality()
    assert bool(tf.constant(2.0) == tf.constant(2.0))
    with pytest.raises(TypeError, match="Tensor is unhashable"):
        hash(tf.constant(2.0))
