"""tapegrad.keras's Model, Sequential, functional API, training loop and callbacks against Keras
3.15's recorded numbers (tests/fixtures/keras_core.json, tools/record_keras_core.py)."""
import contextlib
import io
import math
import os
import re

import numpy as np
import pytest

import tapegrad as tf
import tf_compare
from tapegrad import keras

import keras_core_cases as cases

REC = tf_compare.load_fixture("keras_core.json")


def close(got, want, rtol=1e-4):
    tf_compare.assert_close(np.asarray(got, np.float64), want, rtol=rtol, atol=1e-6, broadcast=True)


def needs(module):
    """Skip unless keras.<module> (written by the keras-losses helper) is on this branch."""
    return pytest.importorskip(f"tapegrad.keras.{module}")


# ---- forward and gradients ------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(cases.MODELS))
def test_model_forward_and_gradients_match_keras(name):
    keras.backend.clear_session()
    model, inputs = cases.MODELS[name](keras)
    want = REC["models"][name]
    assert [list(w.shape) for w in model.weights] == want["weight_shapes"]
    model.set_weights([cases.fixed(w.shape, 10 + i) for i, w in enumerate(model.weights)])
    xs = [tf.constant(x) for x in inputs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        out = model(xs if len(xs) > 1 else xs[0], training=False)
        outs = out if isinstance(out, (list, tuple)) else [out]
        loss = tf.add_n([tf.reduce_sum(o * cases.weights_for(o.shape)) for o in outs])
    grads = tape.gradient(loss, list(model.trainable_weights) + xs)
    for o, w in zip(outs, want["outputs"]):
        close(o, w)
    for g, w in zip(grads, want["grads"]):
        close(g, w)
    assert len(model.losses) == want["n_losses"]


# ---- fit ------------------------------------------------------------------------------------------

def _fit(name):
    keras.backend.clear_session()
    spec = cases.FITS[name]
    if spec["loss"] != "custom":
        needs("losses")
    if any(isinstance(m, str) for m in spec["metrics"]):
        needs("metrics")
    model, x, y, compile_kwargs, fit_kwargs = cases.fit_case(keras, spec)
    model.set_weights([cases.fixed(w.shape, 10 + i) for i, w in enumerate(model.weights)])
    model.compile(**compile_kwargs)
    if "shuffle_seed" in spec:  # Keras's permutation comes from TF's global seed
        keras.utils.set_random_seed(spec["shuffle_seed"])
    try:
        return model, x, y, model.fit(x, y, verbose=0, **fit_kwargs)
    finally:
        tf.random.set_seed(None)


@pytest.mark.parametrize("name", sorted(cases.FITS))
def test_fit_gives_keras_epoch_logs(name):
    """Per-epoch logs (each output's loss and metrics, class weights, constraints, a seeded
    shuffle), final weights, evaluate's dict and list, and predict, as Keras 3.15 gives them."""
    model, x, y, history = _fit(name)
    want = REC["fit"][name]
    assert list(history.history) == want["keys"]
    for key in want["keys"]:
        close(history.history[key], want["history"][key])
    for w, ref in zip(model.get_weights(), want["weights"]):
        close(w, ref, rtol=2e-4)
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert sorted(logs) == sorted(want["evaluate"])
    for k, v in want["evaluate"].items():
        close(logs[k], v)
    close(model.evaluate(x, y, verbose=0), want["evaluate_list"])
    predicted = model.predict(x[:5], verbose=0)
    for p, ref in zip(predicted if isinstance(predicted, list) else [predicted],
                      want["predict"] if isinstance(predicted, list) else [want["predict"]]):
        close(p, ref)


def test_fit_accepts_an_iterable_of_batches_like_arrays():
    _, x, y, want = _fit("adam_custom_loss")
    keras.backend.clear_session()
    model, x, y, compile_kwargs, _ = cases.fit_case(keras, cases.FITS["adam_custom_loss"])
    model.set_weights([cases.fixed(w.shape, 10 + i) for i, w in enumerate(model.weights)])
    model.compile(**compile_kwargs)
    class Batches:  # re-iterable, as a tf.data.Dataset is
        def __iter__(self):
            return ((x[i:i + 16], y[i:i + 16]) for i in range(0, 40, 16))
    history = model.fit(Batches(), epochs=3, verbose=0)
    close(history.history["loss"], want.history["loss"], rtol=1e-6)
    weighted = ((x[i:i + 16], y[i:i + 16], np.ones(len(x[i:i + 16]))) for i in range(0, 40, 16))
    assert np.isfinite(model.evaluate(weighted, verbose=0))


def test_sample_weight_scales_the_loss():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, use_bias=False)])
    model.set_weights([np.array([[1.0], [1.0]], np.float32)])
    model.compile(keras.optimizers.SGD(0.0), loss=lambda y, p: (y - p) ** 2)
    x, y = np.array([[1.0, 0.0], [0.0, 2.0]], np.float32), np.zeros((2, 1), np.float32)
    close(model.evaluate(x, y, verbose=0), (1 + 4) / 2)
    close(model.evaluate(x, y, sample_weight=np.array([1.0, 0.0]), verbose=0), 1 / 2)


def test_on_batch_methods():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.set_weights([np.ones((2, 1), np.float32), np.zeros(1, np.float32)])
    model.compile(keras.optimizers.SGD(0.1), loss=lambda y, p: (y - p) ** 2)
    x, y = np.array([[1.0, 2.0]], np.float32), np.array([[1.0]], np.float32)
    close(model.test_on_batch(x, y), 4.0)
    close(model.predict_on_batch(x), [[3.0]])
    close(model.train_on_batch(x, y), 4.0)
    # one SGD step: w -= 0.1 * 2 * (3 - 1) * x, b -= 0.1 * 2 * 2
    close(model.get_weights()[0], [[0.6], [0.2]])
    close(model.get_weights()[1], [-0.4])
    assert model.train_on_batch(x, y, return_dict=True).keys() == {"loss"}


def test_regularization_and_add_loss_enter_the_training_loss():
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(1, use_bias=False, kernel_regularizer=keras.regularizers.L1(0.5))

        def call(self, x, training=None):
            self.add_loss(tf.constant(0.25))
            return self.d(x)
    net = Net()
    net(np.ones((1, 2)))
    net.set_weights([np.array([[1.0], [-3.0]], np.float32)])
    net.compile("sgd", loss=lambda y, p: (y - p) ** 2)
    # data loss (1 - 3 + ... ) ** 2 = (1*1 - 3*1 - 0) ** 2 = 4, + 0.25 + 0.5 * 4
    close(net.evaluate(np.ones((1, 2)), np.zeros((1, 1)), verbose=0), 4 + 0.25 + 2.0)


# ---- structure ------------------------------------------------------------------------------------

def test_sequential_add_pop_and_input_shape():
    keras.backend.clear_session()
    model = keras.Sequential()
    model.add(keras.layers.Dense(4, input_shape=(3,)))
    model.add(keras.layers.Dense(2))
    assert model.built and [l.name for l in model.layers] == ["dense", "dense_1"]
    assert model.count_params() == 3 * 4 + 4 + 4 * 2 + 2
    popped = model.pop()
    assert popped.name == "dense_1" and len(model.layers) == 1
    assert model(np.ones((2, 3))).shape == (2, 4)
    lazy = keras.Sequential([keras.layers.Dense(2)])
    assert not lazy.built
    assert lazy(np.ones((5, 7))).shape == (5, 2) and lazy.built
    with pytest.raises(ValueError, match="Only instances of `keras.Layer`"):
        model.add("dense")


def test_functional_shared_layers_multiple_inputs_and_dict_inputs():
    keras.backend.clear_session()
    a, b = keras.Input((3,), name="a"), keras.Input((3,), name="b")
    shared = keras.layers.Dense(2, name="shared")
    out = keras.layers.Add()([shared(a), shared(b)])
    model = keras.Model([a, b], out)
    assert [l.name for l in model.layers] == ["a", "b", "shared", "add"]
    assert len(model.weights) == 2
    xa, xb = np.ones((4, 3), np.float32), np.full((4, 3), 2.0, np.float32)
    both = model([xa, xb]).numpy()
    np.testing.assert_allclose(model({"a": xa, "b": xb}).numpy(), both)
    np.testing.assert_allclose(both, shared(xa).numpy() + shared(xb).numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="Graph disconnected"):
        keras.Model(a, keras.layers.Add()([shared(a), shared(b)]))
    sub = keras.Model(a, shared(a))  # a model from part of a graph is a layer too
    outer = keras.Model(a, keras.layers.Dense(1)(sub(a)))
    assert outer(xa).shape == (4, 1)


def test_summary_prints_keras_table():
    keras.backend.clear_session()
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="relu"),
                              keras.layers.Dense(2)])
    out = io.StringIO()
    model.summary(print_fn=out.write)  # (Keras calls print_fn once, with the whole table)
    text = out.getvalue()
    assert 'Model: "sequential"' in text and "Layer (type)" in text and "Output Shape" in text
    assert "dense (Dense)" in text and "(None, 3)" in text and "dense_1 (Dense)" in text
    assert " Total params: 23 (92.00 B)" in text and " Trainable params: 23 (92.00 B)" in text
    assert " Non-trainable params: 0 (0.00 B)" in text


def test_save_and_load_weights(tmp_path):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    path = str(tmp_path / "model.weights.npz")
    model.save_weights(path)
    before = model.get_weights()
    model.set_weights([w * 0 for w in before])
    model.load_weights(path)
    for a, b in zip(model.get_weights(), before):
        np.testing.assert_array_equal(a, b)
    assert os.listdir(tmp_path) == ["model.weights.npz"]
    other = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])  # a new model, new names
    other.load_weights(path)
    np.testing.assert_array_equal(other.get_weights()[0], before[0])
    with pytest.raises(ValueError):
        keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)]).load_weights(path)


# ---- progress bar and verbose ---------------------------------------------------------------------

def _printed(fn):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        result = fn()
    return buf.getvalue(), result


def test_verbose_modes_print_like_keras():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", loss=lambda y, p: (y - p) ** 2)
    x, y = np.ones((64, 2), np.float32), np.ones((64, 1), np.float32)
    text, _ = _printed(lambda: model.fit(x, y, epochs=2, verbose=1))
    lines = text.strip().split("\n")
    assert lines[0] == "Epoch 1/2" and lines[2] == "Epoch 2/2"
    final = re.sub("\x1b\\[[0-9;]*m", "", lines[1].split("\r")[-1])  # (the bar as last redrawn)
    assert final.startswith("2/2 ━━━━━━━━━━━━━━━━━━━━ ") and "/step - loss: " in final
    text, _ = _printed(lambda: model.fit(x, y, epochs=1, verbose=2, validation_data=(x, y)))
    assert text.startswith("2/2 - ") and " - val_loss: " in text  # (one epoch: no "Epoch 1/1")
    text, _ = _printed(lambda: model.fit(x, y, epochs=2, verbose=0))
    assert text == ""


# ---- callbacks ------------------------------------------------------------------------------------

def _regression(seed=0):
    keras.backend.clear_session()
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.set_weights([np.array([[0.5], [-0.5]], np.float32), np.zeros(1, np.float32)])
    model.compile(keras.optimizers.SGD(0.05), loss=lambda y, p: (y - p) ** 2)
    x = cases.fixed((32, 2), seed)
    return model, x, x @ np.array([[1.0], [2.0]], np.float32)


def test_user_callback_sees_every_hook_in_order():
    calls = []

    class Spy(keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            calls.append(("train_begin", self.params["epochs"], self.params["steps"]))
            assert self.model is model

        def on_epoch_begin(self, epoch, logs=None):
            calls.append(("epoch_begin", epoch))

        def on_train_batch_end(self, batch, logs=None):
            calls.append(("batch_end", batch, sorted(logs)))

        def on_epoch_end(self, epoch, logs=None):
            calls.append(("epoch_end", epoch, sorted(logs)))

        def on_test_begin(self, logs=None):
            calls.append(("test_begin",))

        def on_predict_end(self, logs=None):
            calls.append(("predict_end",))
    model, x, y = _regression()
    model.fit(x, y, batch_size=16, epochs=1, callbacks=[Spy()], verbose=0, validation_data=(x, y))
    assert calls == [("train_begin", 1, 2), ("epoch_begin", 0), ("batch_end", 0, ["loss"]),
                     ("batch_end", 1, ["loss"]), ("test_begin",),  # (validation, as in Keras)
                     ("epoch_end", 0, ["loss", "val_loss"])]
    calls.clear()
    model.evaluate(x, y, callbacks=[Spy()], verbose=0)
    model.predict(x, callbacks=[Spy()], verbose=0)
    assert calls == [("test_begin",), ("predict_end",)]


def test_early_stopping_patience_and_restore_best_weights():
    model, x, y = _regression()
    losses = iter([5.0, 4.0, 4.5, 4.2, 4.1, 1.0])

    class FakeVal(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            logs["val_loss"] = next(losses)
            self.model.set_weights([w + 1 for w in self.model.get_weights()])
    stop = keras.callbacks.EarlyStopping(patience=2, restore_best_weights=True)
    start = model.get_weights()
    history = model.fit(x, y, epochs=6, callbacks=[FakeVal(), stop], verbose=0)
    assert len(history.history["loss"]) == 4 and stop.stopped_epoch == 3 and stop.best_epoch == 1
    # best epoch 1: weights after two epochs' updates and two +1 shifts; restored as they were then
    assert np.all(model.get_weights()[1] > start[1] + 1.5)
    for baseline, epochs in ((None, 4), (1.0, 3)):  # short of the baseline, `wait` is not reset
        model, x, y = _regression()
        losses = iter([3.0, 2.0, 2.5, 2.4, 2.3])
        stop = keras.callbacks.EarlyStopping(patience=2, baseline=baseline)
        history = model.fit(x, y, epochs=5, callbacks=[FakeVal(), stop], verbose=0)
        assert len(history.history["loss"]) == epochs
    late = keras.callbacks.EarlyStopping(monitor="loss", patience=0, min_delta=100, start_from_epoch=3)
    model, x, y = _regression()
    assert len(model.fit(x, y, epochs=6, callbacks=[late], verbose=0).history["loss"]) == 5


def test_model_checkpoint_formats_paths_and_saves_best_only(tmp_path):
    model, x, y = _regression()
    pattern = str(tmp_path / "ckpt-{epoch:02d}-{loss:.3f}.npz")
    cb = keras.callbacks.ModelCheckpoint(pattern, monitor="loss", save_weights_only=True)
    model.fit(x, y, epochs=3, callbacks=[cb],
              verbose=0)
    names = sorted(os.listdir(tmp_path))
    assert len(names) == 3 and names[0].startswith("ckpt-01-") and names[2].startswith("ckpt-03-")
    best = str(tmp_path / "best.npz")
    cb = keras.callbacks.ModelCheckpoint(best, monitor="loss", save_best_only=True,
                                         save_weights_only=True)
    model.fit(x, y, epochs=2, callbacks=[cb], verbose=0)
    saved = model.get_weights()
    model.set_weights([w * 0 for w in saved])
    model.load_weights(best)
    np.testing.assert_array_equal(model.get_weights()[0], saved[0])


def test_learning_rate_scheduler_and_reduce_on_plateau():
    model, x, y = _regression()
    rates = []

    class Record(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            rates.append(float(self.model.optimizer.learning_rate.numpy()))
    sched = keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5 if epoch else lr)
    history = model.fit(x, y, epochs=3, callbacks=[sched, Record()], verbose=0)
    close(rates, [0.05, 0.025, 0.0125])
    close(history.history["learning_rate"], [0.05, 0.025, 0.0125])
    rates.clear()  # a schedule of the epoch alone (Keras's old API) works too
    old_style = keras.callbacks.LearningRateScheduler(lambda epoch: 0.1 / (epoch + 1))
    model.fit(x, y, epochs=2, callbacks=[old_style, Record()], verbose=0)
    close(rates, [0.1, 0.05])
    model, x, y = _regression()
    plateau = keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1,
                                                min_delta=1e9, min_lr=0.02)
    model.fit(x, y, epochs=4, callbacks=[plateau], verbose=0)
    close(model.optimizer.learning_rate.numpy(), 0.02)


def test_terminate_on_nan_lambda_and_csv_logger(tmp_path):
    model, x, y = _regression()
    model.compile(keras.optimizers.SGD(1e6), loss=lambda y, p: (y - p) ** 2)
    text, history = _printed(lambda: model.fit(x, y, batch_size=4, epochs=50,
                                               callbacks=[keras.callbacks.TerminateOnNaN()],
                                               verbose=0))
    assert "Invalid loss, terminating training" in text and len(history.history["loss"]) < 50
    model, x, y = _regression()
    ends = []
    lam = keras.callbacks.LambdaCallback(on_train_end=lambda logs: ends.append(sorted(logs)))
    path = tmp_path / "log.csv"
    model.fit(x, y, epochs=2, callbacks=[lam, keras.callbacks.CSVLogger(str(path))], verbose=0)
    assert ends == [["loss"]]
    rows = path.read_text().strip().splitlines()
    assert rows[0] == "epoch,loss,val_loss" and rows[1].startswith("0,") and len(rows) == 3  # (Keras's)
    assert rows[1].endswith(",NA")


# ---- bad input ------------------------------------------------------------------------------------

def test_fit_with_mismatched_lengths_names_both_sizes():
    model, x, y = _regression()
    with pytest.raises(ValueError, match=r"x sizes: 32, y sizes: 31"):
        model.fit(x, y[:-1], verbose=0)


def test_unknown_loss_and_uncompiled_model():
    model, x, y = _regression()
    with pytest.raises(ValueError, match="optimizer"):
        model.compile(optimizer="adamm", loss="mse")
    fresh = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    with pytest.raises(RuntimeError, match="compile"):
        fresh.fit(x, y, verbose=0)
    losses = needs("losses")
    with pytest.raises(ValueError, match="mean_sqared_error"):
        fresh.compile("sgd", loss="mean_sqared_error")
    assert losses is not None


def test_validation_split_holds_out_the_last_samples():
    model, x, y = _regression()
    history = model.fit(x, y, epochs=1, validation_split=0.25, verbose=0, shuffle=False)
    model2, _, _ = _regression()
    val = model2.evaluate(x[24:], y[24:], verbose=0)
    assert history.history["val_loss"][0] != val  # evaluated after the epoch's training
    model2.fit(x[:24], y[:24], epochs=1, verbose=0, shuffle=False)
    close(history.history["val_loss"], [model2.evaluate(x[24:], y[24:], verbose=0)], rtol=1e-6)
    assert math.isfinite(history.history["loss"][0])


def test_model_checkpoint_every_n_batches_counts_across_epochs(tmp_path):
    model, x, y = _regression()  # 4 batches an epoch (batch_size 8 below)
    pattern = str(tmp_path / "b-{epoch}-{batch}.npz")
    model.fit(x, y, batch_size=len(x) // 4, epochs=2, verbose=0,
              callbacks=[keras.callbacks.ModelCheckpoint(pattern, monitor="loss", save_freq=3,
                                                         save_weights_only=True)])
    assert sorted(os.listdir(tmp_path)) == ["b-1-3.npz", "b-2-2.npz"]
    with pytest.raises(ValueError, match="save_freq"):
        keras.callbacks.ModelCheckpoint(pattern, save_freq="batch", save_weights_only=True)


def test_class_weight_errors_and_dataset_batches():
    model, x, y = _regression()
    with pytest.raises(ValueError, match="at the same time"):
        model.fit(x, y, class_weight={0: 1.0}, sample_weight=np.ones(len(x)), verbose=0)
    two = keras.Model(*(lambda i: (i, [keras.layers.Dense(1)(i), keras.layers.Dense(1)(i)]))(
        keras.Input((x.shape[1],))))
    two.compile("sgd", "mse")
    with pytest.raises(ValueError, match="single output"):
        two.fit(x, [y, y], class_weight={0: 1.0}, verbose=0)
    # on an iterable of batches the class weights become each batch's sample weights
    keras.backend.clear_session()
    spec = cases.FITS["class_weight"]
    model, xc, yc, compile_kwargs, fit_kwargs = cases.fit_case(keras, spec)
    model.set_weights([cases.fixed(w.shape, 10 + i) for i, w in enumerate(model.weights)])
    model.compile(**compile_kwargs)
    class Batches:  # re-iterable, as a tf.data.Dataset is
        def __iter__(self):
            return ((xc[i:i + 8], yc[i:i + 8]) for i in range(0, 40, 8))
    history = model.fit(Batches(), epochs=3, class_weight=spec["class_weight"], verbose=0)
    close(history.history["loss"], REC["fit"]["class_weight"]["history"]["loss"])
    # train_on_batch weighs the rows by class as fit does: the same loss as those sample weights
    weights = np.array([spec["class_weight"][int(c)] for c in yc[:8]], np.float32)  # (integer labels)
    before = model.get_weights()
    by_class = model.train_on_batch(xc[:8], yc[:8], class_weight=spec["class_weight"])
    model.set_weights(before)
    close(by_class, model.train_on_batch(xc[:8], yc[:8], sample_weight=weights))
    model.set_weights(before)
    assert not np.allclose(by_class, model.train_on_batch(xc[:8], yc[:8]))  # (the weights matter)
    with pytest.raises(ValueError, match="at the same time"):
        model.train_on_batch(xc[:8], yc[:8], sample_weight=weights, class_weight={0: 2.0})


def test_train_on_batch_reports_each_batch_alone():
    # Keras 3.15 resets the metrics in every train_on_batch: the second call gives the loss after
    # one SGD step, not the mean of both calls
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.set_weights([np.ones((2, 1), np.float32), np.zeros(1, np.float32)])
    model.compile(keras.optimizers.SGD(0.1), loss=lambda y, p: (y - p) ** 2)
    x, y = np.array([[1.0, 2.0]], np.float32), np.array([[1.0]], np.float32)
    close(model.train_on_batch(x, y), 4.0)
    close(model.train_on_batch(x, y), (1.0 - (0.6 * 1.0 + 0.2 * 2.0 - 0.4)) ** 2)  # w, b after one step


def test_callbacks_get_logs_as_keras_passes_them():
    # Keras: epoch, train, test and predict hooks take logs by position, batch hooks by keyword
    from tapegrad import keras as k
    seen = []

    class Cb(k.callbacks.Callback):
        def on_epoch_end(self, epoch, log=None):  # (a name of the user's own)
            seen.append(("epoch", sorted(log)))

        def on_train_begin(self, l=None):  # noqa: E741
            seen.append(("begin", l))

        def on_train_batch_end(self, batch, logs=None):
            seen.append(("batch", batch))
    m = k.Sequential([k.Input((2,)), k.layers.Dense(1)])
    m.compile("sgd", "mse")
    m.fit(np.zeros((4, 2), np.float32), np.zeros((4, 1), np.float32), batch_size=4, epochs=1, verbose=0,
          callbacks=[Cb()])
    assert seen == [("begin", {}), ("batch", 0), ("epoch", ["loss"])]


def test_a_layer_s_config_has_no_input_shape_so_a_sequential_begun_with_its_clone_waits_to_be_built():
    # Keras 3: get_config leaves input_shape out; Hands-On ch. 11's transfer learning counts the
    # trainable weights of Sequential(clone_model(A).layers[:-1]) + a new Dense before fitting: 2
    L = keras.layers
    a = keras.Sequential([L.Flatten(input_shape=[4, 4]), L.Dense(3), L.Dense(2)])
    assert "batch_input_shape" not in a.layers[0].get_config()
    b = keras.Sequential(keras.models.clone_model(a).layers[:-1])
    b.add(L.Dense(1))
    assert not b.built and len(b.trainable_weights) == 2
    c = keras.Sequential(a.layers[:-1])   # (the original Flatten still knows its input shape)
    c.add(L.Dense(1))
    assert c.built and len(c.trainable_weights) == 4
