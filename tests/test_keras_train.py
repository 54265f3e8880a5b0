"""tapegrad.keras's optimizers and metrics against Keras 3's recorded numbers
(tests/fixtures/keras_train.json, written by tools/record_keras_train.py)."""
import os

import numpy as np
import pytest

import tapegrad as tf
import tf_compare
from tapegrad import keras

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "keras_train.json")
DATA = tf_compare.load_fixture("keras_train.json")


def _optimizer_inputs():
    rng = np.random.default_rng(7)
    f = np.float32
    return ([rng.normal(size=(3, 4)).astype(f), rng.normal(size=(4,)).astype(f)],
            [[rng.normal(size=(3, 4)).astype(f), rng.normal(size=(4,)).astype(f)] for _ in range(5)])


@pytest.mark.parametrize("case", DATA["optimizers"],
                         ids=[f"{c['name']}-{i}" for i, c in enumerate(DATA["optimizers"])])
def test_optimizer_steps_match_keras(case):
    init, grads = _optimizer_inputs()
    opt = getattr(keras.optimizers, case["name"])(**case["config"])
    variables = [tf.Variable(x) for x in init]
    for step, (g, expected) in enumerate(zip(grads, case["steps"]), 1):
        opt.apply_gradients(zip([tf.constant(a) for a in g], variables))
        for v, e in zip(variables, expected):
            tf_compare.assert_close(v.numpy(), e, rtol=2e-5, atol=2e-6, err_msg=f"step {step}")
    assert int(opt.iterations.numpy()) == case["iterations"]
    opt.finalize_variable_values(variables)
    for v, e in zip(variables, case["final"]):
        tf_compare.assert_close(v.numpy(), e, rtol=2e-5, atol=2e-6, err_msg="final")


@pytest.mark.parametrize("name", ["Nadam", "Adamax", "Adadelta", "Ftrl", "Lion", "Lamb", "Adafactor",
                                  "ScheduleFreeAdamW"])
def test_optimizer_by_name_config_and_serialize(name):
    opt = keras.optimizers.get(name.lower())
    assert type(opt) is getattr(keras.optimizers, name)
    assert getattr(tf.optimizers, name) is type(opt)
    clone = keras.optimizers.deserialize(keras.optimizers.serialize(opt))
    assert type(clone) is type(opt) and clone.get_config() == opt.get_config()


def test_optimizer_defaults_as_keras():
    assert keras.optimizers.Lion().beta_2 == 0.99
    assert keras.optimizers.Adadelta().rho == 0.95
    a = keras.optimizers.Adafactor()
    assert (a.beta_2_decay, a.epsilon_1, a.epsilon_2, a.clip_threshold) == (-0.8, 1e-30, 1e-3, 1.0)
    f = keras.optimizers.Ftrl()
    assert (f.learning_rate_power, f.initial_accumulator_value) == (-0.5, 0.1)


def test_optimizer_argument_errors():
    with pytest.raises(ValueError, match="beta_1"):
        keras.optimizers.Lion(beta_1=0.0)
    with pytest.raises(ValueError, match="learning_rate_power"):
        keras.optimizers.Ftrl(learning_rate_power=0.5)
    with pytest.raises(ValueError, match="l1_regularization_strength"):
        keras.optimizers.Ftrl(l1_regularization_strength=-1.0)


def test_nadam_state_is_in_variables_and_adafactor_factors_matrices():
    opt = keras.optimizers.Nadam()
    w = tf.Variable(np.ones((3, 4), np.float32))
    opt.apply_gradients([(tf.ones((3, 4)), w)])
    assert len(opt.variables) == 5  # iterations, learning rate, momentum, velocity, u_product
    ada = keras.optimizers.Adafactor()
    ada.build([w])
    assert [tuple(v.shape) for v in ada.variables[2:]] == [(3,), (4,), (3, 4)]


def test_new_optimizers_train_a_model():
    x = np.random.default_rng(0).normal(size=(64, 3)).astype(np.float32)
    y = x @ np.array([[1.0], [-2.0], [0.5]], np.float32)
    for name in ["nadam", "adamax", "lion", "lamb"]:
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.get({"class_name": name, "config": {
            "learning_rate": 0.05}}), loss="mse")
        hist = model.fit(x, y, epochs=5, batch_size=16, verbose=0)
        assert hist.history["loss"][-1] < hist.history["loss"][0], name


def test_base_arguments_errors_and_config():
    with pytest.raises(ValueError, match="gradient_accumulation_steps"):
        keras.optimizers.Adam(gradient_accumulation_steps=1)
    with pytest.raises(ValueError, match="ema_momentum"):
        keras.optimizers.SGD(use_ema=True, ema_momentum=1.5)
    with pytest.raises(ValueError, match="ema_overwrite_frequency"):
        keras.optimizers.SGD(use_ema=True, ema_overwrite_frequency=-1)
    opt = keras.optimizers.Lion(use_ema=True, loss_scale_factor=8.0, gradient_accumulation_steps=4)
    clone = keras.optimizers.deserialize(keras.optimizers.serialize(opt))
    assert clone.get_config() == opt.get_config()
    assert (clone.use_ema, clone.loss_scale_factor, clone.gradient_accumulation_steps) == (True, 8.0, 4)
    assert float(opt.scale_loss(tf.constant(2.0))) == 16.0


def _fit(optimizer, epochs=3):
    rng = np.random.default_rng(1)
    x = rng.normal(size=(32, 3)).astype(np.float32)
    y = x @ np.array([[1.0], [-2.0], [0.5]], np.float32)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=optimizer, loss="mse")
    model.fit(x, y, epochs=epochs, batch_size=8, shuffle=False, verbose=0)
    return model


def test_fit_scales_the_loss_and_unscales_the_gradients():
    plain = _fit(keras.optimizers.SGD(0.05))
    scaled = _fit(keras.optimizers.SGD(0.05, loss_scale_factor=1024.0))
    for a, b in zip(plain.get_weights(), scaled.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-5)


def test_fit_ends_with_the_moving_averages_under_use_ema():
    opt = keras.optimizers.SGD(0.05, use_ema=True)
    model = _fit(opt)
    for w, avg in zip(model.trainable_weights, opt.variables[2:4]):
        np.testing.assert_array_equal(w.numpy(), avg.numpy())


def test_gradient_accumulation_updates_every_nth_call():
    opt = keras.optimizers.SGD(1.0, gradient_accumulation_steps=2)
    x = tf.Variable([1.0])
    opt.apply_gradients([(tf.constant([1.0]), x)])
    assert x.numpy()[0] == 1.0 and int(opt.iterations) == 0
    opt.apply_gradients([(tf.constant([3.0]), x)])
    assert x.numpy()[0] == -1.0 and int(opt.iterations) == 1


def _metric_args(u):
    return (np.array(u["y_true"], u["y_true_dtype"]), np.array(u["y_pred"], np.float32),
            None if u["sample_weight"] is None else np.array(u["sample_weight"], np.float32))


@pytest.mark.filterwarnings("ignore:You are passing weight as `float`")
@pytest.mark.parametrize("case", DATA["metrics"],
                         ids=[f"{c['class']}-{i}" for i, c in enumerate(DATA["metrics"])])
def test_metric_results_match_keras(case):
    m = getattr(keras.metrics, case["class"])(**case["kwargs"])
    for i, (u, expected) in enumerate(zip(case["updates"], case["results"])):
        if i == 3:
            m.reset_state()
        t, p, w = _metric_args(u)
        m.update_state(t, p, sample_weight=w)
        tf_compare.assert_close(m.result().numpy(), expected, rtol=1e-5, atol=1e-6,
                                err_msg=f"after update {i}")
    config = m.get_config()
    assert set(config) == set(case["config"])
    assert {k: v for k, v in config.items() if k != "name"} == {  # (Keras numbers repeated names)
        k: v for k, v in case["config"].items() if k != "name"}
    clone = keras.metrics.deserialize(keras.metrics.serialize(m))
    assert type(clone) is type(m) and clone.get_config() == config


@pytest.mark.parametrize("name", ["F1Score", "R2Score", "PearsonCorrelation", "f1_score",
                                  "r2_score", "concordance_correlation"])
def test_metrics_by_name(name):
    assert isinstance(keras.metrics.get(name), keras.metrics.Metric)


def test_metric_argument_errors():
    with pytest.raises(ValueError, match="average"):
        keras.metrics.F1Score(average="mean")
    with pytest.raises(ValueError, match="beta"):
        keras.metrics.FBetaScore(beta=2)
    with pytest.raises(ValueError, match="threshold"):
        keras.metrics.F1Score(threshold=1.5)
    with pytest.raises(ValueError, match="class_aggregation"):
        keras.metrics.R2Score(class_aggregation="mean")
    with pytest.raises(ValueError, match="out of range"):
        keras.metrics.IoU(num_classes=2, target_class_ids=[2])
    with pytest.raises(ValueError, match="recall"):
        keras.metrics.PrecisionAtRecall(1.5)
    with pytest.raises(ValueError, match="2D inputs"):
        keras.metrics.R2Score().update_state([1.0, 2.0, 3.0], [[1.0, 2.0, 3.0]])


def test_iou_warns_that_float_weights_are_truncated():
    m = keras.metrics.MeanIoU(num_classes=2)
    with pytest.warns(UserWarning, match="integer weights"):
        m.update_state([0, 1], [0, 1], sample_weight=np.array([0.5, 0.5]))
    assert float(m.result()) == 0.0


def test_correlation_gradients():
    y_true = tf.constant([[1.0, 2.0, 4.0], [0.5, -1.0, 2.0]])
    for fn in (keras.metrics.pearson_correlation, keras.metrics.concordance_correlation):
        theoretical, numerical = tf.test.compute_gradient(lambda p, fn=fn: fn(y_true, p),
                                                          [tf.constant([[1.0, 3.0, 2.0], [1.0, 0.0, 2.5]], tf.float64)])
        np.testing.assert_allclose(theoretical[0], numerical[0], rtol=1e-4, atol=1e-6)


def test_new_metrics_in_fit():
    x = np.random.default_rng(0).normal(size=(32, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32) > 0).astype(np.float32)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="adam", loss="binary_crossentropy",
                  metrics=[keras.metrics.BinaryIoU(), keras.metrics.PrecisionAtRecall(0.5),
                           keras.metrics.F1Score(threshold=0.5)])
    logs = model.fit(x, y, epochs=1, batch_size=8, verbose=0).history
    assert {"binary_io_u", "precision_at_recall", "f1_score"} <= set(logs)
    assert np.shape(logs["f1_score"][0]) == (1,) and isinstance(logs["binary_io_u"][0], float)


def _tensorboard_events(logdir):
    from test_surface_names import _read_events

    seen = []
    for path in logdir.glob("*/events.out.tfevents.*"):
        for event in _read_events(path):
            if event[0] != "file_version":
                seen.append([path.parent.name, event[0], event[1]])
    return sorted(seen)


@pytest.mark.parametrize("case", DATA["tensorboard"], ids=lambda c: str(c["kwargs"]))
def test_tensorboard_writes_what_keras_writes(case, tmp_path):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(12, 2)).astype(np.float32)
    y = (x @ np.array([[1.0], [-1.0]], np.float32)).astype(np.float32)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, name="dense")])
    model.compile(keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    model.fit(x, y, epochs=3, batch_size=4, validation_data=(x[:4], y[:4]), verbose=0, shuffle=False,
              callbacks=[keras.callbacks.TensorBoard(tmp_path, write_graph=False, **case["kwargs"])])
    def strip(tag):  # (without the model's name)
        return tag.split("/", 1)[1] if "/" in tag else tag

    got = sorted([f, s, strip(t)] for f, s, t in _tensorboard_events(tmp_path))
    assert got == sorted([f, s, strip(t)] for f, s, t in case["events"])


def test_tensorboard_refuses_what_it_cannot_write():
    with pytest.raises(ValueError, match="profiler"):
        keras.callbacks.TensorBoard(profile_batch=2)
    with pytest.raises(ValueError, match="embedding"):
        keras.callbacks.TensorBoard(embeddings_freq=1)


def _model():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(keras.optimizers.Adam(0.05), loss="mse")
    return model


def test_backup_and_restore_resumes_where_training_stopped(tmp_path):
    x = np.random.default_rng(0).normal(size=(8, 2)).astype(np.float32)
    y = x.sum(1, keepdims=True)
    straight = _model()
    straight.fit(x, y, epochs=4, batch_size=4, shuffle=False, verbose=0)

    class Crash(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            if epoch == 1:
                raise RuntimeError("crash")

    backup = keras.callbacks.BackupAndRestore(tmp_path / "backup")
    interrupted = _model()
    with pytest.raises(RuntimeError, match="crash"):
        interrupted.fit(x, y, epochs=4, batch_size=4, shuffle=False, verbose=0,
                        callbacks=[backup, Crash()])
    resumed = _model()  # a new process: fresh weights and optimizer
    history = resumed.fit(x, y, epochs=4, batch_size=4, shuffle=False, verbose=0, callbacks=[backup])
    assert history.epoch == [2, 3]
    for a, b in zip(straight.get_weights(), resumed.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    assert not (tmp_path / "backup").exists()


def test_backup_and_restore_arguments():
    with pytest.raises(ValueError, match="backup_dir"):
        keras.callbacks.BackupAndRestore("")
    with pytest.raises(ValueError, match="save_freq"):
        keras.callbacks.BackupAndRestore("x", save_freq="batch")


def test_remote_monitor_warns_when_the_server_cannot_be_reached():
    model = _model()
    cb = keras.callbacks.RemoteMonitor(root="http://127.0.0.1:9")
    with pytest.warns(UserWarning, match="Could not reach RemoteMonitor root server"):
        model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=1, verbose=0, callbacks=[cb])


def test_swap_ema_weights_evaluates_with_the_averages():
    x = np.random.default_rng(0).normal(size=(8, 2)).astype(np.float32)
    y = x.sum(1, keepdims=True)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    opt = keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5)
    model.compile(opt, loss="mse")
    seen = []
    probe = keras.callbacks.LambdaCallback(  # (after SwapEMAWeights: the averages are in the model)
        on_test_begin=lambda logs: seen.append((model.get_weights()[0].copy(),
                                                opt.variables[2].numpy().copy())),
        on_test_end=lambda logs: seen.append(model.get_weights()[0].copy()))
    model.fit(x, y, epochs=2, batch_size=4, validation_data=(x, y), verbose=0,
              callbacks=[keras.callbacks.SwapEMAWeights(), probe])
    (in_test, raw), after = seen[0], seen[1]
    assert not np.allclose(in_test, raw) and np.array_equal(after, raw)
    with pytest.raises(ValueError, match="use_ema"):
        plain = _model()
        plain.fit(x, y, epochs=1, validation_data=(x, y), verbose=0,
                  callbacks=[keras.callbacks.SwapEMAWeights()])


def test_validation_in_fit_runs_the_fit_callbacks_test_hooks():
    calls = []
    cb = keras.callbacks.LambdaCallback(on_test_begin=lambda logs: calls.append("begin"),
                                        on_test_end=lambda logs: calls.append(sorted(logs)))
    _model().fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0,
                 validation_data=(np.ones((4, 2)), np.ones((4, 1))), callbacks=[cb])
    assert calls == ["begin", ["loss"], "begin", ["loss"]]


# ---- utils -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", DATA["utils"]["split"], ids=lambda c: str(c["kwargs"]))
def test_split_dataset_as_keras(case):
    x = np.arange(10, dtype=np.float32)
    left, right = keras.utils.split_dataset((x, 2 * x), **case["kwargs"])
    assert [float(a) for a, _ in left] == case["left"]
    assert [float(a) for a, b in right] == case["right"]
    assert all(float(b) == 2 * float(a) for a, b in right)


def test_split_dataset_of_a_batched_dataset_and_errors():
    ds = tf.data.Dataset.from_tensor_slices(np.arange(10)).batch(3)
    left, right = keras.utils.split_dataset(ds, right_size=0.2)
    assert [b.numpy().tolist() for b in left] == [[0, 1, 2], [3, 4, 5], [6, 7]]
    assert [b.numpy().tolist() for b in right] == [[8, 9]]
    with pytest.raises(ValueError, match="At least one"):
        keras.utils.split_dataset(np.arange(4))
    with pytest.raises(ValueError, match="left_size"):
        keras.utils.split_dataset(np.arange(4), left_size=1.5)
    with pytest.raises(TypeError, match="dataset"):
        keras.utils.split_dataset("abc", left_size=1)


def test_progbar_line_as_keras(capsys):
    bar = keras.utils.Progbar(3, verbose=2, stateful_metrics=["acc"])
    for i in range(3):
        bar.add(1, values=[("loss", 0.5 * i), ("acc", 0.1 * i), ("tiny", 1e-5)])
    def strip(line):  # (without the timings)
        parts = line.split(" - ", 3)
        return parts[0] + " - " + parts[3]

    assert strip(capsys.readouterr().out) == strip(DATA["utils"]["progbar"])


def test_progbar_verbose_1_draws_a_bar(capsys):
    bar = keras.utils.Progbar(2, interval=0)
    bar.update(1, [("loss", 2.0)])
    bar.update(2, [("loss", 4.0)])
    out = capsys.readouterr().out
    assert "2/2" in out and "━" * 20 in out and out.endswith("\n") and "loss: 4.0000" in out


class _Data(keras.utils.PyDataset):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.ends = 0

    def __len__(self):
        return 3

    def __getitem__(self, i):
        rng = np.random.default_rng(i)
        bx = rng.normal(size=(4, 2)).astype(np.float32)
        return [bx, bx.sum(1, keepdims=True)]

    def on_epoch_end(self):
        self.ends += 1


def test_fit_on_a_pydataset_as_keras():
    want = DATA["utils"]["pydataset"]
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.set_weights([np.array([[0.5], [-0.5]], np.float32), np.zeros(1, np.float32)])
    model.compile(keras.optimizers.SGD(0.1), loss="mse")
    data = _Data(workers=2)
    model.fit(data, epochs=2, shuffle=False, verbose=0)
    for got, w in zip(model.get_weights(), want["weights"]):
        tf_compare.assert_close(got, w, rtol=1e-5, err_msg="weights")
    assert model.evaluate(data, verbose=0) == pytest.approx(want["evaluate"], rel=1e-5)
    assert data.ends == want["ends"] and data.workers == 2
    assert model.predict(data, verbose=0).shape == (12, 1)
    assert keras.utils.Sequence is keras.utils.PyDataset


def test_fit_shuffles_pydataset_batches():
    seen = []

    class Spy(_Data):
        def __getitem__(self, i):
            seen.append(i)
            return super().__getitem__(i)

    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    keras.utils.set_random_seed(1)
    model.fit(Spy(), epochs=4, verbose=0)
    assert seen[:2] == [0, 1]   # (the adapter's look at two batches for its signature, as Keras's)
    epochs = [seen[i:i + 3] for i in range(2, 14, 3)]
    assert all(sorted(e) == [0, 1, 2] for e in epochs) and any(e != [0, 1, 2] for e in epochs)


def test_pydataset_batches_are_read_in_keras_s_order():
    # the __getitem__ calls Keras 3.15 on TensorFlow makes (recorded with this model and seed): each
    # adapter reads batches 0 and 1 for its tf.data signature when made (fit's at the start, the
    # validation data's at the first validation), then each epoch's batches, shuffled in fit
    seen = []

    class Spy(_Data):
        def __getitem__(self, i):
            seen.append(i)
            return super().__getitem__(i)

    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    keras.utils.set_random_seed(1)
    model.fit(Spy(), epochs=2, verbose=0)
    assert seen == [0, 1, 1, 2, 0, 2, 0, 1]
    seen.clear()
    model.evaluate(Spy(), verbose=0)
    assert seen == [0, 1, 0, 1, 2]
    seen.clear()
    model.fit(Spy(), epochs=1, verbose=0, validation_data=Spy())
    assert seen == [0, 1, 0, 2, 1, 0, 1, 0, 1, 2]


def test_get_file_uses_the_cache_and_explains_a_failed_download(tmp_path):
    cached = tmp_path / "datasets" / "thing.npz"
    cached.parent.mkdir()
    np.savez(cached, a=np.arange(3))
    path = keras.utils.get_file("thing.npz", origin="https://example.invalid/thing.npz",
                                cache_dir=tmp_path)
    assert path == str(cached)
    with pytest.raises(OSError, match="put it at .*missing.npz"):
        keras.utils.get_file("missing.npz", origin="http://127.0.0.1:9/missing.npz",
                             cache_dir=tmp_path)
    assert not (tmp_path / "datasets" / "missing.npz").exists()
    with pytest.raises(ValueError, match="origin"):
        keras.utils.get_file("x")


def test_get_file_checks_hashes_and_extracts(tmp_path):
    import hashlib
    import tarfile

    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text("hi")
    archive = tmp_path / "pack.tar.gz"
    with tarfile.open(archive, "w:gz") as t:
        t.add(src / "a.txt", arcname="pack/a.txt")
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    folder = keras.utils.get_file("pack.tar.gz", origin=archive.as_uri(), file_hash=digest,
                                  extract=True, cache_dir=tmp_path / "cache")
    assert folder.endswith("pack_extracted")
    with open(os.path.join(folder, "pack", "a.txt")) as fh:
        assert fh.read() == "hi"
    with pytest.raises(ValueError, match="hash does not match"):
        keras.utils.get_file("other.tar.gz", origin=archive.as_uri(), file_hash="0" * 64,
                             cache_dir=tmp_path / "cache")


def test_plot_model_says_what_is_missing():
    with pytest.raises(ImportError, match="pydot"):
        keras.utils.plot_model(keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)]))


# ---- datasets --------------------------------------------------------------------------------------

@pytest.fixture
def keras_home(tmp_path, monkeypatch):
    """An empty ~/.keras whose files pass the hash checks (they are synthetic)."""
    from tapegrad.keras import _data_utils

    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setattr(_data_utils, "_valid", lambda path, file_hash, algorithm: True)
    (tmp_path / "datasets").mkdir()
    return tmp_path / "datasets"


def test_datasets_without_network_say_where_to_put_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setattr("urllib.request.urlretrieve", _no_network)
    with pytest.raises(OSError, match=r"put it at .*datasets.mnist\.npz"):
        keras.datasets.mnist.load_data()


def _no_network(url, path, *args):
    import urllib.error
    raise urllib.error.URLError("no network")


def test_mnist_and_housing_load_cached_files(keras_home):
    rng = np.random.default_rng(0)
    arrays = {"x_train": rng.integers(0, 255, (6, 28, 28), dtype=np.uint8),
              "y_train": np.arange(6, dtype=np.uint8),
              "x_test": rng.integers(0, 255, (2, 28, 28), dtype=np.uint8),
              "y_test": np.arange(2, dtype=np.uint8)}
    np.savez(keras_home / "mnist.npz", **arrays)
    (xt, _), (_, ys) = keras.datasets.mnist.load_data()
    assert np.array_equal(xt, arrays["x_train"]) and np.array_equal(ys, arrays["y_test"])
    x, y = np.arange(20.0).reshape(10, 2), np.arange(10.0)
    np.savez(keras_home / "boston_housing.npz", x=x, y=y)
    (_, yt), (_, ys) = keras.datasets.boston_housing.load_data(test_split=0.3)
    order = np.arange(10)
    np.random.RandomState(113).shuffle(order)
    assert np.array_equal(yt, y[order[:7]]) and np.array_equal(ys, y[order[7:]])
    np.savez(keras_home / "california_housing.npz", x=x, y=y)
    assert len(keras.datasets.california_housing.load_data(version="small")[0][0]) == 8
    with pytest.raises(ValueError, match="test_split"):
        keras.datasets.boston_housing.load_data(test_split=1.0)


def test_fashion_mnist_reads_the_idx_files(keras_home):
    import gzip

    folder = keras_home / "fashion-mnist"
    folder.mkdir()
    images = np.arange(3 * 28 * 28, dtype=np.uint8).reshape(3, 28, 28)
    for prefix in ("train", "t10k"):
        with gzip.open(folder / f"{prefix}-labels-idx1-ubyte.gz", "wb") as fh:
            fh.write(b"\0" * 8 + bytes([1, 2, 3]))
        with gzip.open(folder / f"{prefix}-images-idx3-ubyte.gz", "wb") as fh:
            fh.write(b"\0" * 16 + images.tobytes())
    (xt, yt), _ = keras.datasets.fashion_mnist.load_data()
    assert np.array_equal(xt, images) and yt.tolist() == [1, 2, 3]


def test_pickled_datasets_explain_how_to_convert_them(keras_home):
    for name in ("cifar10", "cifar100", "imdb", "reuters"):
        with pytest.raises(NotImplementedError, match="never unpickles data.*np.savez"):
            getattr(keras.datasets, name).load_data()
    with pytest.raises(ValueError, match="label_mode"):
        keras.datasets.cifar100.load_data(label_mode="medium")
    (keras_home / "imdb_word_index.json").write_text('{"the": 1, "film": 19}')
    assert keras.datasets.imdb.get_word_index() == {"the": 1, "film": 19}
    assert len(keras.datasets.reuters.get_label_names()) == 46


# ---- mixed precision -------------------------------------------------------------------------------

def test_loss_scale_optimizer_as_keras():
    opt = keras.optimizers.LossScaleOptimizer(keras.optimizers.Adam(0.1), initial_scale=8.0,
                                              dynamic_growth_steps=2)
    v = tf.Variable(np.array([1.0, -2.0], np.float32))
    for step in DATA["loss_scale"]:
        opt.apply_gradients([(tf.constant(np.array(step["grad"], np.float32)), v)])
        tf_compare.assert_close(v.numpy(), step["value"], rtol=1e-6, err_msg="value")
        assert float(opt.dynamic_scale) == step["scale"]
        assert int(opt.iterations) == step["iterations"]
    assert keras.mixed_precision.LossScaleOptimizer is keras.optimizers.LossScaleOptimizer
    clone = keras.optimizers.deserialize(keras.optimizers.serialize(opt))
    assert clone.get_config() == opt.get_config()


def test_loss_scale_optimizer_in_fit_matches_plain_training():
    plain = _fit(keras.optimizers.SGD(0.05))
    scaled = _fit(keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.05)))
    for a, b in zip(plain.get_weights(), scaled.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-5)
    with pytest.raises(ValueError, match="clipnorm"):
        keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(), clipnorm=1.0)
    with pytest.raises(ValueError, match="dynamic=False"):
        keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(), dynamic=False)


def test_policies():
    mp = keras.mixed_precision
    try:
        mp.set_global_policy("float16")
        assert keras.layers.Dense(1).dtype == "float16" and mp.global_policy().compute_dtype == "float16"
        mp.set_global_policy(mp.DTypePolicy("float64"))
        assert keras.layers.Dense(1, dtype="float32").dtype == "float32"
        assert keras.layers.Dense(1).dtype == "float64"
    finally:
        mp.set_global_policy(None)
    assert keras.layers.Dense(1).dtype == "float32"
    with pytest.raises(NotImplementedError, match="bfloat16"):
        mp.set_global_policy("mixed_bfloat16")
    assert mp.Policy("int8").compute_dtype == "int8"  # (as Keras; not as a global policy)
    with pytest.raises(ValueError, match="floating-point"):
        mp.set_global_policy("int8")
    with pytest.raises(ValueError, match="Cannot convert"):
        mp.Policy("mixed_float8")
    assert mp.global_policy() == mp.DTypePolicy("float32")


def test_reduce_lr_csv_logger_and_terminate_on_nan_in_fit_as_keras(tmp_path):
    want = DATA["callbacks"]
    rng = np.random.default_rng(9)
    x = rng.normal(size=(16, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-1.0], [2.0]], np.float32)).astype(np.float32)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.set_weights([np.zeros((3, 1), np.float32), np.zeros(1, np.float32)])
    model.compile(keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    history = model.fit(x, y, epochs=6, batch_size=8, shuffle=False, verbose=0,
                        validation_data=(x[:4], y[:4]), callbacks=[
                            keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=0.5,
                                                              patience=1, min_delta=0.5, cooldown=1),
                            keras.callbacks.CSVLogger(tmp_path / "log.csv"),
                            keras.callbacks.TerminateOnNaN()])
    assert set(history.history) == set(want["history"])
    for k, values in want["history"].items():
        tf_compare.assert_close(history.history[k], values, rtol=1e-5, err_msg=k)
    rows = (tmp_path / "log.csv").read_text().splitlines()
    assert rows[0] == want["csv_header"] and len(rows) - 1 == want["csv_rows"]


def test_progress_bar_is_silent_in_fit_validation_only(capsys):
    model = _model()
    data = (np.ones((4, 2)), np.ones((4, 1)))
    model.fit(*data, epochs=2, verbose=2, validation_data=data)
    lines = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert len(lines) == 4 and "val_loss" in lines[1]  # Epoch 1/2, its line, Epoch 2/2, its line
    model.evaluate(*data, verbose=2, callbacks=[keras.callbacks.ProgbarLogger()])
    assert "loss" in capsys.readouterr().out


def test_csv_logger_cells_and_columns_as_keras(tmp_path):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2, activation="softmax")])
    model.compile("sgd", "categorical_crossentropy", metrics=[keras.metrics.F1Score()])
    path = tmp_path / "log.csv"
    model.fit(np.ones((4, 2)), np.eye(2)[[0, 1, 0, 1]], epochs=1, verbose=0,
              callbacks=[keras.callbacks.CSVLogger(path)])
    header, row = path.read_text().splitlines()
    assert header == "epoch,f1_score,loss,val_f1_score,val_loss"  # (Keras 3.15's)
    assert row.startswith('0,"""[') and row.endswith(",NA,NA")


def test_interactive_logging_switch(capsys, caplog):
    import logging

    model = _model()
    try:
        keras.utils.disable_interactive_logging()
        assert not keras.utils.is_interactive_logging_enabled()
        with caplog.at_level(logging.INFO, logger="keras"):
            model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=2)
        assert capsys.readouterr().out == "" and "Epoch 1/2" in caplog.text
    finally:
        keras.utils.enable_interactive_logging()
    model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=2)
    assert "Epoch 1/2" in capsys.readouterr().out


def test_model_checkpoint_says_what_keras_says(tmp_path, capsys):
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    path = str(tmp_path / "m.keras")
    m.fit(np.ones((8, 3), np.float32), np.ones((8, 1), np.float32), epochs=1, verbose=0,
          callbacks=[keras.callbacks.ModelCheckpoint(path, verbose=1)])
    # (Keras 3.15 prints both lines, each after an empty one)
    assert capsys.readouterr().out == f"\nEpoch 1: saving model to {path}\n\nEpoch 1: finished saving model to {path}\n"
