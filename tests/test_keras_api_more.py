"""Keras 3.15's names that tapegrad.keras adds late (keras.random's randint/categorical/gamma/beta/
binomial, the top-level aliases and scopes, keras.tree, layers, losses, regularizers and the
one-device keras.distribution): numbers against Keras on TensorFlow (tests/fixtures/keras_api_more.json,
recorded by tools/record_keras_api_more.py from tests/keras_api_more_cases.py) and behaviour."""
import os
import sys

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras

sys.path.insert(0, os.path.dirname(__file__))
import keras_api_more_cases as cases  # noqa: E402
from tf_compare import assert_close, load_fixture  # noqa: E402

DATA = load_fixture("keras_api_more.json")["cases"]


def _compare(got, want, where):
    if isinstance(want, dict) and set(want) == {"dtype", "value"}:
        assert got["dtype"] == want["dtype"], f"{where}: dtype {got['dtype']}, Keras {want['dtype']}"
        g, w = np.asarray(got["value"]), np.asarray(want["value"])
        assert g.shape == w.shape, f"{where}: shape {g.shape}, Keras {w.shape}"
        if w.dtype.kind == "f":
            assert_close(g.astype(want["dtype"]), w.astype(want["dtype"]), err_msg=where)
        else:
            np.testing.assert_array_equal(g, w, err_msg=where)
    elif isinstance(want, dict):
        assert sorted(got) == sorted(want), where
        for k in want:
            _compare(got[k], want[k], f"{where}.{k}")
    elif isinstance(want, list):
        assert len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, f"{where}[{i}]")
    else:
        assert got == want, where


@pytest.mark.parametrize("case", cases.CASES, ids=lambda c: c.__name__)
def test_against_keras(case):
    keras.utils.clear_session()
    _compare(case(tf, keras, np), DATA[case.__name__], case.__name__)


def test_random_errors():
    with pytest.raises(ValueError, match="integer `dtype`"):
        keras.random.randint((2,), 0, 3, dtype="float32")
    with pytest.raises(ValueError, match="2-D"):
        keras.random.categorical([1.0, 2.0], 3)


def test_top_level_aliases_are_the_classes():
    assert keras.Loss is keras.losses.Loss and keras.Metric is keras.metrics.Metric
    assert keras.Optimizer is keras.optimizers.Optimizer and keras.Initializer is keras.initializers.Initializer
    assert keras.Regularizer is keras.regularizers.Regularizer
    assert keras.FloatDTypePolicy is keras.dtype_policies.FloatDTypePolicy
    assert issubclass(keras.layers.Layer, keras.Operation) and tf.keras.StatelessScope is keras.StatelessScope


def test_scopes():
    from tapegrad.keras import _scopes
    v = keras.Variable([1.0, 2.0])
    own_read = keras.Variable.__dict__.get("_read")   # (a mixed-precision layer installs its own)
    with pytest.raises(ValueError, match="must be Variable"):
        keras.StatelessScope([(tf.Variable(1.0), 1.0)])
    with pytest.raises(ValueError, match="shape"):
        keras.StatelessScope([(v, [1.0])])
    with keras.StatelessScope([(v, [3.0, 4.0])]):
        with keras.StatelessScope() as inner:  # (nested: the inner scope's mapping only)
            v.assign([7.0, 8.0])
            np.testing.assert_array_equal(v.numpy(), [7.0, 8.0])
        np.testing.assert_array_equal(v.numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])
    assert inner.get_current_value(v) is not None and keras.Variable.__dict__.get("_read") is own_read
    assert not _scopes.in_symbolic_scope()
    with keras.SymbolicScope():
        assert _scopes.in_symbolic_scope()
    assert not _scopes.in_symbolic_scope()
    with pytest.raises(ValueError, match="Invalid mode"):
        keras.RematScope(mode="some")
    with keras.RematScope(mode="list_of_layers", layer_names=["d"]):
        with keras.RematScope(mode=None):
            assert _scopes.get_current_remat_mode().mode is None
        assert _scopes.get_current_remat_mode().layer_names == ["d"]
    assert _scopes.get_current_remat_mode() is None
    with keras.device("cpu:0"):
        assert keras.ops.ones((1,)).device.endswith("CPU:0")


def test_reversible_embedding_quantize_refused():
    layer = keras.layers.ReversibleEmbedding(5, 2)
    layer.build()
    with pytest.raises(NotImplementedError, match="ReversibleEmbedding"):
        layer.quantize("int8")


def test_distribution_on_one_device():
    d = keras.distribution
    if len(tf.config.list_logical_devices("CPU")) != 1:   # (as Keras, it lists the logical devices)
        pytest.skip("an earlier test split the CPU into logical devices; this test needs one")
    assert d.list_devices() == ["cpu:0"] and d.list_devices("gpu") == [] and d.get_device_count() == 1
    mesh = d.DeviceMesh((1,), ["batch"])
    assert repr(mesh) == "<DeviceMesh shape=(1,), axis_names=['batch']>" and mesh.devices.tolist() == ["cpu:0"]
    with pytest.raises(ValueError, match="number of devices"):
        d.DeviceMesh((2,), ["batch"])
    with pytest.raises(ValueError, match="same size"):
        d.DeviceMesh((1,), ["batch", "model"])
    with pytest.raises(ValueError, match="Invalid axis names"):
        d.TensorLayout([None, "model"], mesh)
    dp = d.DataParallel()
    assert (dp.batch_dim_name, dp.num_model_replicas, dp.num_processes, dp.data_shard_id) == ("batch", 1, 1, 0)
    assert dp.get_data_layout((8, 3)).axes == ("batch", None) and dp.get_tensor_layout("x") is None
    assert dp.get_variable_layout(keras.Variable(np.ones((2, 3)))).axes == (None, None)
    assert d.distribution() is None
    with dp.scope():
        assert d.distribution() is dp
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        model.compile("sgd", "mse")
        model.fit(np.ones((4, 3)), np.ones((4, 2)), epochs=1, verbose=0)
    assert d.distribution() is None
    d.set_distribution(dp)
    keras.utils.clear_session()
    assert d.distribution() is None
    lm = d.LayoutMap(mesh)
    lm["dense.*kernel"] = (None, "batch")
    lm["dense.*bias"] = d.TensorLayout(("batch",))
    assert lm["dense/kernel"].axes == (None, "batch") and lm["dense_1/bias"].device_mesh is mesh
    assert lm["other"] is None and list(lm) == ["dense.*kernel", "dense.*bias"]
    with pytest.raises(ValueError, match="already exist"):
        lm["dense.*kernel"] = (None,)
    lm["d.*"] = (None,)
    with pytest.raises(ValueError, match="matches multiple"):
        lm["dense/kernel"]
    del lm["d.*"]
    mp = d.ModelParallel(layout_map=lm, batch_dim_name="batch")
    assert mp.num_model_replicas == 1 and mp.get_tensor_layout("dense_2/kernel").axes == (None, "batch")
    with pytest.raises(ValueError, match="layout_map"):
        d.ModelParallel()
    x = tf.constant([1.0, 2.0])
    np.testing.assert_array_equal(d.distribute_tensor(x, d.TensorLayout([None], mesh)).numpy(), [1.0, 2.0])
    d.initialize()
    with pytest.raises(NotImplementedError, match="one process"):
        d.initialize(num_processes=2, process_id=0)


def test_sklearn_wrappers():
    pytest.importorskip("sklearn")
    from sklearn.model_selection import cross_val_score
    rng = np.random.RandomState(0)
    x = rng.rand(24, 4).astype("float32")
    y = (x[:, 0] > 0.5).astype(int) + (x[:, 1] > 0.5)

    def build(X, y, hidden=8):  # noqa: N803 (the wrappers' argument names)
        m = keras.Sequential([keras.Input((X.shape[1],)), keras.layers.Dense(hidden, activation="relu"),
                              keras.layers.Dense(y.shape[1], activation="softmax")])
        m.compile("adam", "categorical_crossentropy")
        return m
    clf = keras.wrappers.SKLearnClassifier(build, model_kwargs={"hidden": 4}, fit_kwargs={"epochs": 1, "verbose": 0})
    clf.fit(x, y)
    assert set(clf.predict(x[:5])) <= {0, 1, 2} and list(clf.classes_) == [0, 1, 2]
    assert clf.decision_function(x[:2]).shape == (2, 3)
    with pytest.raises(ValueError, match="one class"):
        clf.fit(x, np.zeros(24, int))
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    reg = keras.wrappers.SKLearnRegressor(model, fit_kwargs={"epochs": 1, "verbose": 0})
    assert cross_val_score(reg, x, x[:, 0], cv=2).shape == (2,)
    assert reg.fit(x, x[:, 0]).predict(x[:3]).shape == (3,)
    tr = keras.wrappers.SKLearnTransformer(model, fit_kwargs={"epochs": 1, "verbose": 0})
    assert tr.fit_transform(x, x[:, 0]).shape == (24, 1)
    with pytest.raises(RuntimeError, match="compiled"):
        keras.wrappers.SKLearnRegressor(keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])).fit(x, x[:, 0])


def test_legacy_optimizers_raise_as_keras_3():
    for name in ("Adagrad", "Adam", "Ftrl", "Optimizer", "RMSprop", "SGD"):
        with pytest.raises(ImportError, match="not supported in Keras 3"):
            getattr(tf.keras.optimizers.legacy, name)(learning_rate=0.1)
