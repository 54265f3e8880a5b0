"""tf.compat: the conversion helpers, v2 (tapegrad itself) and v1 (importable; its few eager-meaningful
names, and a clear error for TF1's graph API)."""
import importlib

import pytest

import tapegrad as tf


def test_conversions():
    assert tf.compat.as_bytes("é") == "é".encode() and tf.compat.as_bytes(b"x") == b"x"
    assert tf.compat.as_str(b"abc") == tf.compat.as_text("abc") == "abc"
    assert tf.compat.as_str_any(3) == "3"
    assert tf.compat.dimension_value(tf.TensorShape([3, None])[1]) is None
    assert tf.compat.dimension_at_index([2, 5], 1) == 5
    with pytest.raises(TypeError, match="Expected binary or unicode string"):
        tf.compat.as_bytes(3)
    with tf.compat.forward_compatibility_horizon(2030, 1, 1):
        assert tf.compat.forward_compatible(2029, 12, 31)
    assert not tf.compat.forward_compatible(2030, 1, 1)


def test_v2_is_tapegrad_and_v1_imports():
    assert tf.compat.v2 is tf and importlib.import_module("tapegrad.compat.v2") is tf
    tf1 = importlib.import_module("tapegrad.compat.v1")
    assert tf1.executing_eagerly() and tf1.logging.ERROR == 40
    tf1.set_random_seed(3)
    with pytest.raises(AttributeError, match="TensorFlow 1's API"):
        tf1.estimator  # noqa: B018


def test_grappler_options_are_kept_as_tensorflow_keeps_them():
    before = dict(tf.config.optimizer.get_experimental_options())
    try:
        tf.config.optimizer.set_experimental_options({"constant_folding": True, "debug_stripper": False})
        assert list(tf.config.optimizer.get_experimental_options().items())[:2] == [
            ("constant_folding", True), ("debug_stripper", False)]
        with pytest.raises(ValueError, match="Unknown optimizer option"):
            tf.config.optimizer.set_experimental_options({"no_such": True})
    finally:
        from tapegrad import config
        config._grappler.clear()
        config._grappler.update(before)


def test_debug_stripper_leaves_check_numerics_out_of_a_trace():
    from tapegrad import config
    before = dict(config._grappler)
    try:
        tf.config.optimizer.set_experimental_options({"debug_stripper": True})

        @tf.function
        def f(x):
            tf.debugging.check_numerics(x, "Bad!")
            return x
        assert float(f(tf.constant(float("inf")))) == float("inf")
        with pytest.raises(tf.errors.InvalidArgumentError):  # (eager: checked, as in TF)
            tf.debugging.check_numerics(tf.constant(float("inf")), "Bad!")
    finally:
        config._grappler.clear()
        config._grappler.update(before)
