"""fit, evaluate and predict run their steps through tf.function, as Keras does with
run_eagerly=False (the default), and give the numbers of the eager run (run_eagerly=True).

Exact comparison is sound: both runs execute, in one process, the same NumPy operations in the
same order (a replay calls the ops the trace recorded, with the same arguments); the random draws
(Dropout) are the same nodes of the step's graph either way.
"""
import os
import sys
import warnings

import numpy as np
import pytest

import tapegrad as tf

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchmarks import bench_fit  # noqa: E402

keras = tf.keras


def _train(model_name, run_eagerly, n=192):
    x, y = bench_fit.data(model_name, smoke=True)
    x, y = x[:n], y[:n]
    keras.utils.set_random_seed(0)
    m = bench_fit.build(keras, model_name)
    m.compile(optimizer=keras.optimizers.Adam(1e-3),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"], run_eagerly=run_eagerly)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # a traced step that fell back would warn
        h = m.fit(x, y, batch_size=48, epochs=2, verbose=0, validation_split=0.25)
        ev = m.evaluate(x, y, batch_size=64, verbose=0)
        pred = m.predict(x[:70], batch_size=32, verbose=0)
    return [w.numpy() for w in m.weights], h.history, ev, pred


@pytest.mark.parametrize("model_name", bench_fit.MODELS)
def test_traced_fit_gives_the_eager_numbers(model_name):
    traced, eager = _train(model_name, False), _train(model_name, True)
    assert len(traced[0]) == len(eager[0])
    for a, b in zip(traced[0], eager[0]):
        np.testing.assert_array_equal(a, b)
    assert traced[1] == eager[1] and traced[2] == eager[2]
    np.testing.assert_array_equal(traced[3], eager[3])


class _Counting(keras.layers.Layer):
    """A layer that counts its Python calls (a side effect a replay skips, as in Keras)."""

    calls = 0

    def call(self, x):
        type(self).calls += 1
        return x


def _counting_model(**compile_kw):
    model = keras.Sequential([keras.Input((3,)), _Counting(), keras.layers.Dense(2)])
    model.compile(optimizer="sgd", loss="mse", **compile_kw)
    return model


def _calls(model, steps=6):
    _Counting.calls = 0
    x = np.ones((8 * steps, 3), np.float32)
    model.fit(x, np.zeros((8 * steps, 2), np.float32), batch_size=8, epochs=1, verbose=0)
    return _Counting.calls


def test_the_step_is_replayed_unless_run_eagerly():
    assert _calls(_counting_model()) == 2        # the first step eagerly, then one trace
    assert _calls(_counting_model(run_eagerly=True)) == 6
    model = _counting_model()
    model.run_eagerly = True
    assert _calls(model) == 6
    tf.config.run_functions_eagerly(True)
    try:
        assert _calls(_counting_model()) == 6
    finally:
        tf.config.run_functions_eagerly(False)


def test_a_step_that_cannot_be_traced_runs_eagerly_with_one_warning():
    class Reads(keras.Model):
        def train_step(self, data):
            logs = super().train_step(data)
            self.seen.append(float(logs["loss"]))   # a value read after the update
            return logs

    def run(run_eagerly):
        keras.utils.set_random_seed(1)
        inputs = keras.Input((3,))
        model = Reads(inputs, keras.layers.Dense(1)(inputs))
        model.seen = []
        model.compile(optimizer="adam", loss="mse", run_eagerly=run_eagerly)
        x = np.arange(60, dtype=np.float32).reshape(20, 3) / 60
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            model.fit(x, x[:, :1], batch_size=4, epochs=2, verbose=0)
        return model, [str(m.message) for m in w if "runs eagerly" in str(m.message)]

    traced, said = run(False)
    eager, quiet = run(True)
    assert len(said) == 1 and "Reads.train_step" in said[0] and "read into Python" in said[0]
    assert quiet == []
    assert traced.seen == eager.seen and len(traced.seen) == 10
    for a, b in zip(traced.get_weights(), eager.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_a_train_step_that_calls_super_is_traced_with_the_built_in_numbers():
    class Super(keras.Model):   # (keras.io's "customizing fit" starts from this)
        def train_step(self, data):
            return super().train_step(data)

        def test_step(self, data):
            return super().test_step(data)

    def run(cls):
        keras.utils.set_random_seed(2)
        inputs = keras.Input((4,))
        model = cls(inputs, keras.layers.Dense(2)(inputs))
        model.compile(optimizer="adam", loss="mse", metrics=["mae"])
        x = np.random.default_rng(0).standard_normal((64, 4)).astype(np.float32)
        with warnings.catch_warnings():
            warnings.simplefilter("error")   # (no fallback to eager)
            h = model.fit(x, x[:, :2] * 2, batch_size=16, epochs=2, verbose=0, validation_split=0.25)
        step = model.__dict__["_step_functions"]["train"][1]
        assert not step.eager and step.calls == 6
        return h.history, model.get_weights()

    (h1, w1), (h2, w2) = run(Super), run(keras.Model)
    assert h1 == h2
    for a, b in zip(w1, w2):
        np.testing.assert_array_equal(a, b)


def test_a_change_of_the_trainable_variables_is_seen_at_the_next_fit():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x, y = np.ones((32, 3), np.float32), np.zeros((32, 1), np.float32)
    model.fit(x, y, batch_size=8, verbose=0)
    model.layers[0].trainable = False          # (no compile again: Keras needs one, tapegrad not)
    frozen = [w.copy() for w in model.layers[0].get_weights()]
    before = model.layers[1].get_weights()[0].copy()
    model.fit(x, y, batch_size=8, verbose=0)
    for a, b in zip(model.layers[0].get_weights(), frozen):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(model.layers[1].get_weights()[0], before)


def test_a_copy_of_a_trained_model_trains_its_own_variables():
    import copy
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model.compile(optimizer="adam", loss="mse")
    x, y = np.ones((32, 3), np.float32), np.zeros((32, 2), np.float32)
    model.fit(x, y, batch_size=8, verbose=0)
    twin = copy.deepcopy(model)
    assert "_step_functions" not in twin.__dict__        # (made again, for the copy's variables)
    kept = model.get_weights()
    twin.fit(x, y, batch_size=8, verbose=0)
    for a, b in zip(model.get_weights(), kept):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(twin.get_weights()[0], kept[0])


def test_traced_fit_of_a_masked_bidirectional_gru_gives_the_eager_numbers():
    rng = np.random.default_rng(0)
    x = rng.integers(1, 12, (24, 7)).astype(np.int32)
    x[::3, 4:] = 0
    y = rng.integers(0, 2, 24).astype(np.float32)

    def run(run_eagerly):
        keras.utils.set_random_seed(0)
        inp = keras.Input((7,), dtype="int32")
        h = keras.layers.Embedding(12, 5, mask_zero=True)(inp)
        h = keras.layers.Bidirectional(keras.layers.GRU(4, return_sequences=True))(h)
        out = keras.layers.Dense(1, activation="sigmoid")(keras.layers.GRU(3)(h))
        model = keras.Model(inp, out)
        model.compile(keras.optimizers.SGD(0.5, momentum=0.9), "binary_crossentropy",
                      run_eagerly=run_eagerly)
        return model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0).history, \
            model.get_weights()

    (h1, w1), (h2, w2) = run(False), run(True)
    assert h1 == h2
    for a, b in zip(w1, w2):
        np.testing.assert_array_equal(a, b)


def test_batches_of_many_shapes_run_eagerly_after_a_few_traces_with_one_warning():
    def batches():
        for n in range(2, 14):   # 12 batch sizes
            yield np.ones((n, 3), np.float32) * n / 10, np.zeros((n, 1), np.float32)

    def run(run_eagerly):
        keras.utils.set_random_seed(0)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse", run_eagerly=run_eagerly)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            model.fit(batches(), epochs=1, verbose=0)
        return model.get_weights(), [str(m.message) for m in w if "shapes" in str(m.message)]

    (traced, said), (eager, quiet) = run(False), run(True)
    assert len(said) == 1 and "more than 8 shapes" in said[0] and quiet == []
    for a, b in zip(traced, eager):
        np.testing.assert_array_equal(a, b)


def test_a_model_never_compiled_predicts_through_its_traced_step():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    x = np.arange(60, dtype=np.float32).reshape(20, 3)
    want = model(x).numpy()
    got = model.predict(x, batch_size=4, verbose=0)   # five batches: the last four replayed
    np.testing.assert_allclose(got, want, rtol=1e-6)
    np.testing.assert_allclose(model.predict_on_batch(x[:4]), want[:4], rtol=1e-6)


def test_the_logs_walk_the_layers_for_metrics_once_an_epoch_and_see_metrics_made_on_the_way():
    """fit's per-step logs reuse the metrics list found after an epoch's first step (no walk of
    every layer at every step), which still sees a metric a layer makes when it is built in that
    first step, and one a callback adds between epochs."""
    class Counted(keras.layers.Layer):
        def build(self, input_shape):
            self.seen = keras.metrics.Sum(name="seen")

        def call(self, x):
            self.seen.update_state(tf.cast(tf.shape(x)[0], "float32"))
            return x

    class Late(keras.layers.Layer):
        def call(self, x):
            return x

    late = Late()

    class AddMetric(keras.callbacks.Callback):   # (a metric a callback adds and updates)
        def on_epoch_end(self, epoch, logs=None):
            if epoch == 0:
                late.late = keras.metrics.Sum(name="late")

        def on_train_batch_begin(self, batch, logs=None):
            if hasattr(late, "late"):
                late.late.update_state(1.0)

    m = keras.Sequential([keras.Input((3,)), Counted(), late, keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    h = m.fit(np.ones((8, 3), np.float32), np.zeros((8, 1), np.float32), batch_size=2, epochs=2,
              verbose=0, callbacks=[AddMetric()])
    assert h.history["seen"] == [8.0, 8.0]
    assert h.history["late"] == [4.0]   # (added after epoch 1: 4 steps of epoch 2)
    assert "_metrics_memo" not in m.__dict__
    assert {"loss", "seen", "late"} <= set(m.evaluate(np.ones((4, 3), np.float32),
                                                      np.zeros((4, 1), np.float32),
                                                      verbose=0, return_dict=True))
