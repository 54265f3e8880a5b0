"""Keras's fit / evaluate / predict / *_on_batch on a model created under a MirroredStrategy's
scope run on the replicas and give TF 2.21 + Keras 3's numbers (history, evaluate's results,
the metrics, predictions, weights; cases in tests/fixtures/keras_distribute.json, recorded on 2
and 4 logical CPUs by tools/record_keras_distribute.py), and 2 replicas give what one process
gives on the global batch.

One 2-replica strategy serves the whole module; the tests skip without dask's ``distributed``.
"""
from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import tapegrad as tf
import tf_compare
from tapegrad import keras

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools"))
from record_tf_data import encode  # noqa: E402

FIXTURE = tf_compare.load_fixture("keras_distribute.json")["cases"]


@pytest.fixture(scope="module")
def strategy():
    pytest.importorskip("distributed")
    s = tf.distribute.MirroredStrategy(num_replicas=2)
    yield s
    s.close()


def _values(enc):
    return np.asarray(enc["v"], dtype=np.float64).reshape(enc["shape"])


def _close(got, want, where="out"):
    """``got`` (encoded) matches TF's ``want`` to float32 rounding; ``where`` names the place."""
    if isinstance(want, dict) and want.get("t") in ("np", "tensor"):
        got = _values(got) if isinstance(got, dict) and got.get("t") in ("np", "tensor") else got
        tf_compare.assert_close(got, _values(want), spread=tf_compare.spread_of(want["v"]), rtol=2e-5,
                                atol=2e-6, err_msg=where)
    elif isinstance(want, dict) and want.get("t") == "dict":
        assert sorted(got["v"]) == sorted(want["v"]), where
        for k in want["v"]:
            _close(got["v"][k], want["v"][k], f"{where}[{k!r}]")
    elif isinstance(want, dict):  # a list or tuple
        assert len(got["v"]) == len(want["v"]), where
        for i, (g, w) in enumerate(zip(got["v"], want["v"])):
            _close(g, w, f"{where}[{i}]")
    elif isinstance(want, float):
        tf_compare.assert_close(got, want, rtol=2e-5, atol=2e-6, err_msg=where)
    else:
        assert got == want, where


def _run(code, strategy, init):
    keras.backend.clear_session()
    weights = [_values(w).astype(np.float32) for w in init["v"]]
    env = {"tf": tf, "keras": keras, "np": np, "S": strategy, "__name__": "keras_distribute_case",
           "init": lambda model: model.set_weights(weights)}
    exec(code, env)
    return env


@pytest.mark.parametrize("name", sorted(FIXTURE))
def test_matches_tensorflow(strategy, name):
    case = FIXTURE[name]
    env = _run(case["code"], strategy, case["2"]["init"])
    assert env["model"].distribute_strategy is strategy
    want = case["2"]["out"]
    if name == "on_batch":  # TF's predict_on_batch gives every replica the whole batch and joins
        rows = want["v"]["predict"]  # their outputs: the batch's predictions once per replica;
        rows["v"] = rows["v"][:len(rows["v"]) // 2]  # tapegrad splits the batch (docs/differences.md)
        rows["shape"][0] //= 2
    _close(encode(env["out"]), want)


@pytest.mark.parametrize("name", ["classifier", "dataset", "custom_step"])
def test_two_replicas_train_as_one_process(strategy, name):
    """Every batch splits evenly here, so 2 replicas give the weights and metrics of one process
    (``custom_step`` logs its loss divided by the replicas, as Keras does: only its weights)."""
    case = FIXTURE[name]
    two = _run(case["code"], strategy, case["2"]["init"])["out"]
    one = _run(case["code"], tf.distribute.OneDeviceStrategy(), case["2"]["init"])["out"]
    for a, b in zip(two["weights"], one["weights"]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    if name != "custom_step":
        _close(encode(two["history"]), encode(one["history"]))
        _close(encode(two["evaluate"]), encode(one["evaluate"]))
        np.testing.assert_allclose(two["predict"], one["predict"], rtol=1e-5, atol=1e-6)


def _classifier(strategy):
    keras.backend.clear_session()
    with strategy.scope():
        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="tanh"),
                                  keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    model.set_weights([np.full(w.shape, 0.1 * (i + 1), np.float32)
                       for i, w in enumerate(model.get_weights())])
    return model


def test_callbacks_see_and_change_the_trained_weights(strategy, tmp_path):
    """A callback reads this process's weights after each step; a learning rate or weights it
    sets reach the replicas before the next step."""
    rng = np.random.default_rng(1)
    x = rng.normal(size=(32, 4)).astype(np.float32)
    y = x.sum(axis=1, keepdims=True)
    results = []
    for s in (strategy, tf.distribute.OneDeviceStrategy()):
        model = _classifier(s)
        seen = []
        cbs = [keras.callbacks.LambdaCallback(
                   on_epoch_end=lambda epoch, logs, m=model, seen=seen: seen.append(m.get_weights()[0].copy())),
               keras.callbacks.LearningRateScheduler(lambda epoch, lr: 0.1 / (epoch + 1)),
               keras.callbacks.ModelCheckpoint(str(tmp_path / f"w{len(results)}.npz"),
                                               save_weights_only=True)]
        model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0, callbacks=cbs)
        np.testing.assert_array_equal(seen[-1], model.get_weights()[0])
        model.set_weights([w * 0.5 for w in model.get_weights()])  # the replicas get these
        results.append((seen, model.evaluate(x, y, batch_size=8, verbose=0), model.predict(x, verbose=0)))
    (seen2, ev2, pred2), (seen1, ev1, pred1) = results
    for a, b in zip(seen2, seen1):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ev2, ev1, rtol=1e-5)
    np.testing.assert_allclose(pred2, pred1, rtol=1e-5, atol=1e-6)
    assert os.path.isfile(tmp_path / "w0.npz")


def test_model_created_outside_the_scope_fails_clearly(strategy):
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
    with strategy.scope(), pytest.raises(ValueError, match="created outside the scope"):
        model.compile(optimizer="sgd", loss="mse")
    model.compile(optimizer="sgd", loss="mse")
    with strategy.scope(), pytest.raises(ValueError, match="Create the model"):
        model.fit(np.zeros((4, 4)), np.zeros((4, 1)), verbose=0)


class _Batches(keras.utils.PyDataset):
    def __init__(self, x, y):
        super().__init__()
        self.x, self.y = x, y

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.x[i * 8:(i + 1) * 8], self.y[i * 8:(i + 1) * 8]


def test_generators_and_pydatasets_split_as_arrays_do(strategy, tmp_path):
    rng = np.random.default_rng(2)
    x = rng.normal(size=(32, 4)).astype(np.float32)
    y = x.sum(axis=1, keepdims=True)
    weights = []
    for data in ("arrays", "generator", "pydataset"):
        model = _classifier(strategy)
        if data == "arrays":
            model.fit(x, y, batch_size=8, shuffle=False, verbose=0)
        elif data == "generator":
            model.fit(((x[i:i + 8], y[i:i + 8]) for i in range(0, 32, 8)), verbose=0)
        else:
            model.fit(_Batches(x, y), shuffle=False, verbose=0)
        weights.append(model.get_weights())
    for other in weights[1:]:
        for a, b in zip(weights[0], other):
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    model.save(tmp_path / "m.keras")  # the trained weights, read from the replicas
    loaded = keras.models.load_model(tmp_path / "m.keras")
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)


def test_compile_again_reaches_the_replicas(strategy):
    """Freezing a layer and compiling again (Keras's fine-tuning) changes what the replicas train."""
    x = np.random.default_rng(3).normal(size=(16, 4)).astype(np.float32)
    y = x.sum(axis=1, keepdims=True)
    model = _classifier(strategy)
    model.fit(x, y, batch_size=8, verbose=0)
    frozen = model.layers[0].get_weights()
    model.layers[0].trainable = False
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mae")
    history = model.fit(x, y, batch_size=8, verbose=0)
    assert list(history.history) == ["loss", "mae"]   # (compile without metrics keeps them, as Keras 3)
    for a, b in zip(model.layers[0].get_weights(), frozen):
        np.testing.assert_array_equal(a, b)
    assert not np.allclose(model.layers[1].get_weights()[0], 0.3)


# ---------------------------------------------------------------- unseen TF programs (issue #15, part 2)
def test_a_layer_built_by_hand_under_the_scope_keeps_its_mirrored_weights(strategy):
    """``layer.build(shape)`` called by the program marks the layer built (Keras 3 wraps build),
    so its first call inside a step makes no second set of weights on the replicas; a weight
    aggregated by "sum" adds up the replicas' updates as Keras 3 does on TensorFlow
    (``assign_add(d)`` is ``assign(w + d)``: every replica's ``w + d`` summed)."""
    class Count(keras.layers.Layer):
        def build(self, input_shape):
            self.total = self.add_weight(shape=(), initializer="zeros", trainable=False,
                                         aggregation="sum")

        def call(self, x):
            self.total.assign_add(tf.reduce_sum(x))
            return x

    with strategy.scope():
        layer = Count()
        layer.build((None,))
    assert layer.built and layer.total.aggregation is tf.VariableAggregation.SUM
    total = layer.total
    for x in strategy.experimental_distribute_dataset(tf.data.Dataset.range(8, output_type=tf.float32).batch(4)):
        strategy.run(layer, args=(x,))
    assert layer.total is total and float(total.numpy()) == 34.0  # (0+1 + 0+5) = 6, (6+9 + 6+13)
    with pytest.raises(ValueError, match="aggregation"):
        keras.Variable(0.0, aggregation="max")
