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


def test_versions_name_the_releases_followed_and_tapegrad_s_own():
    import re
    import tapegrad as tf
    assert tf.__version__ == tf.version.VERSION == "2.21.0"
    assert tf.keras.__version__ == "3.15.1"
    root = __import__("os").path.dirname(__import__("os").path.dirname(__file__))
    with open(__import__("os").path.join(root, "pyproject.toml"), encoding="utf-8") as f:
        assert re.search(r'^version = "([^"]+)"', f.read(), re.M).group(1) == tf.version.TAPEGRAD_VERSION


def test_a_star_import_of_keras_gives_its_classes_and_submodules():
    ns: dict = {}
    exec("from tapegrad.keras import *", ns)  # noqa: S102 (Keras's own names, as `from keras import *`)
    assert {"layers", "models", "preprocessing", "Sequential", "Model", "Input", "optimizers"} <= set(ns)
    assert ns["layers"].Dense is __import__("tapegrad").keras.layers.Dense


def test_keras_ops_read_python_types_as_keras_on_tensorflow_does():
    import numpy as np
    import tapegrad as tf
    ops = tf.keras.ops
    assert ops.cast(np.array([1.5]), int).dtype == tf.int64
    assert ops.cast(np.array([1.5]), "int").dtype == tf.int64
    assert ops.zeros(2, dtype=float).dtype == tf.float32
    assert ops.cast([1, 0], bool).dtype == tf.bool
    assert tf.keras.backend.standardize_dtype(complex) == "complex128"


def test_a_metric_s_stateless_methods_leave_its_variables_alone():
    import numpy as np
    import tapegrad as tf
    m = tf.keras.metrics.SparseCategoricalAccuracy()
    m.update_state([1], [[0.2, 0.8]])
    before = [v.numpy() for v in m.variables]
    state = m.stateless_update_state([np.float32(0.0), np.float32(0.0)], np.array([1, 0]),
                                     np.array([[0.1, 0.9], [0.2, 0.8]]))
    assert float(m.stateless_result(state)) == 0.5
    assert [float(v) for v in m.stateless_reset_state()] == [0.0, 0.0]
    assert all(np.array_equal(a, v.numpy()) for a, v in zip(before, m.variables))
    import pytest
    with pytest.raises(ValueError, match="1:1"):
        m.stateless_result([np.float32(0.0)])


def test_every_public_dataset_method_has_a_docstring():
    # (programs list them: `func.__doc__.split("\n")[0]` for each name in dir(tf.data.Dataset))
    missing = [m for m in dir(tf.data.Dataset) if not m.startswith("_")
               and getattr(getattr(tf.data.Dataset, m), "__doc__", None) is None]
    assert not missing, missing


def test_a_sequential_model_may_hold_one_layer_twice():
    import numpy as np
    d = tf.keras.layers.Dense(3)
    m = tf.keras.Sequential([tf.keras.Input((3,)), d, d])
    assert len(m.layers) == 2 and len(m.weights) == 2
    x = np.ones((2, 3), np.float32)
    np.testing.assert_allclose(m(x).numpy(), d(d(x)).numpy())


def test_keras_ops_cast_keeps_a_sparse_tensor_sparse():
    sp = tf.SparseTensor([[0, 1]], [1.5], [2, 3])
    r = tf.keras.ops.cast(sp, "int32")
    assert isinstance(r, tf.SparseTensor) and r.values.numpy().tolist() == [1] and r.dtype == tf.int32


def test_tf1_ctc_loss_takes_sparse_labels_and_the_last_class_as_blank():
    import numpy as np
    rng = np.random.default_rng(0)
    x = rng.standard_normal((6, 2, 4)).astype(np.float32)
    lab = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([1, 2, 0], tf.int32), [2, 2])
    want = [4.532451629638672, 4.8165507316589355]   # TF 2.21's tf.compat.v1.nn.ctc_loss, these inputs
    np.testing.assert_allclose(tf.compat.v1.nn.ctc_loss(lab, x, [6, 5]).numpy(), want, rtol=1e-5)
    np.testing.assert_allclose(tf.compat.v1.nn.ctc_loss(lab, np.transpose(x, (1, 0, 2)), [6, 5],
                                                        time_major=False).numpy(), want, rtol=1e-5)
    with pytest.raises(NotImplementedError, match="ctc_merge_repeated"):
        tf.compat.v1.nn.ctc_loss(lab, x, [6, 5], ctc_merge_repeated=False)
