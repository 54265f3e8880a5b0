"""Keras's HDF5 files (tapegrad.keras._h5): files written by Keras 3.15 load here and compute Keras's
numbers, and the files tapegrad writes have Keras's layout (tools/record_keras_h5.py recorded both,
and checked that Keras loads tapegrad's files: ``keras_reads_tapegrad``)."""
import json
import os
import shutil
import sys
import warnings

import numpy as np
import pytest

import tapegrad as tf

h5py = pytest.importorskip("h5py", reason="needs the optional extra tapegrad[h5]")
import keras_h5_cases as cases  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "fixtures", "keras_h5")
with open(os.path.join(HERE, "fixtures", "keras_h5.json"), encoding="utf-8") as f:
    RECORDED = json.load(f)
keras = tf.keras
# two samples through a few float32 layers: the sums are short, their rounding differs by a few ulp
RTOL, ATOL = 1e-5, 1e-6


def _built(name):
    model = cases.MODELS[name](keras)
    model.predict(cases.inputs(name), verbose=0)
    return model


def _layout(path):
    items = []
    with h5py.File(path, "r") as f:
        f.visititems(lambda p, o: items.append([p, list(o.shape)]) if isinstance(o, h5py.Dataset) else None)
    return sorted(items)


@pytest.mark.parametrize("name", sorted(cases.MODELS))
@pytest.mark.parametrize("kind", ["keras", "h5"])
def test_a_model_file_written_by_keras_loads_with_its_numbers(name, kind):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = keras.models.load_model(os.path.join(FILES, f"{name}.{kind}"))
    got = model.predict(cases.inputs(name), verbose=0)
    np.testing.assert_allclose(got, RECORDED["models"][name]["prediction"], rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("name", sorted(cases.MODELS))
def test_a_weights_file_written_by_keras_loads_into_the_same_architecture(name):
    model = _built(name)
    model.load_weights(os.path.join(FILES, f"{name}.weights.h5"))
    np.testing.assert_allclose(model.predict(cases.inputs(name), verbose=0),
                               RECORDED["models"][name]["prediction"], rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("name", sorted(cases.MODELS))
def test_the_weights_file_tapegrad_writes_has_keras_layout(name, tmp_path):
    model = _built(name)
    if name in cases.COMPILED:
        model.compile(optimizer="adam", loss="mse")
        x = cases.inputs(name)
        model.fit(x, cases.targets(name, model.predict(x, verbose=0)), epochs=1, verbose=0)
    model.save_weights(str(tmp_path / "w.weights.h5"))
    assert _layout(tmp_path / "w.weights.h5") == RECORDED["models"][name]["layout"]["weights.h5"]
    again = _built(name)
    if name in cases.COMPILED:
        again.compile(optimizer="adam", loss="mse")
    again.load_weights(str(tmp_path / "w.weights.h5"))
    np.testing.assert_array_equal(again.predict(cases.inputs(name), verbose=0),
                                  model.predict(cases.inputs(name), verbose=0))
    if name in cases.COMPILED:  # the optimizer's state came back too, as in Keras
        for a, b in zip(again.optimizer.variables, model.optimizer.variables):
            np.testing.assert_array_equal(a.numpy(), b.numpy())


@pytest.mark.parametrize("name", sorted(cases.MODELS))
def test_a_legacy_model_file_roundtrips_with_keras_shapes(name, tmp_path):
    model = _built(name)
    with pytest.warns(UserWarning, match="legacy"):
        model.save(str(tmp_path / "m.h5"))
    shapes = sorted(s for _, s in _layout(tmp_path / "m.h5") if _ != "")
    want = sorted(s for p, s in RECORDED["models"][name]["layout"]["h5"] if not p.startswith("optimizer_weights"))
    assert sorted(s for s in shapes) == sorted(want) or name in cases.COMPILED
    again = keras.models.load_model(str(tmp_path / "m.h5"))
    np.testing.assert_array_equal(again.predict(cases.inputs(name), verbose=0),
                                  model.predict(cases.inputs(name), verbose=0))


def test_keras_read_the_files_tapegrad_wrote():
    """Recorded by tools/record_keras_h5.py: Keras 3.15 loaded tapegrad's .weights.h5 and .h5 files
    of every model and computed tapegrad's predictions (largest difference, float32 rounding)."""
    for name, entry in RECORDED["models"].items():
        for kind, diff in entry["keras_reads_tapegrad"].items():
            assert diff < 1e-6, (name, kind, diff)


def test_a_compiled_legacy_file_keeps_compile_state_and_optimizer(tmp_path):
    model = keras.models.load_model(os.path.join(FILES, "functional.h5"))
    assert model.optimizer is not None and type(model.optimizer).__name__ == "Adam"
    assert int(model.optimizer.iterations.numpy()) == 1
    path = str(tmp_path / "again.h5")
    with pytest.warns(UserWarning):
        model.save(path)
    again = keras.models.load_model(path)
    for a, b in zip(again.optimizer.variables, model.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_model_checkpoint_writes_keras_formats(tmp_path):
    x = cases.inputs("functional")
    model = _built("functional")
    model.compile(optimizer="adam", loss="mse")
    cbs = [keras.callbacks.ModelCheckpoint(str(tmp_path / "best.weights.h5"), save_weights_only=True),
           keras.callbacks.ModelCheckpoint(str(tmp_path / "best.h5"))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(x, np.ones((2, 2)), epochs=2, verbose=0, callbacks=cbs)
    assert _layout(tmp_path / "best.weights.h5")[0][0].startswith("layers/")
    with h5py.File(tmp_path / "best.h5", "r") as f:
        assert "model_config" in f.attrs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        again = keras.models.load_model(str(tmp_path / "best.h5"))
    np.testing.assert_array_equal(again.predict(x, verbose=0), model.predict(x, verbose=0))


def test_bad_input_says_what_is_wrong(tmp_path, monkeypatch):
    model = _built("sequential")
    with pytest.raises(ValueError, match=r"must end in `\.weights\.h5`"):
        model.save_weights(str(tmp_path / "w.h5"))
    other = keras.Sequential([keras.Input((4,)), keras.layers.Dense(5), keras.layers.Dense(1)])
    with pytest.raises(ValueError, match="does not match the model"):
        other.load_weights(os.path.join(FILES, "sequential.weights.h5"))
    shutil.copy(os.path.join(FILES, "sequential.h5"), tmp_path / "s.h5")
    with pytest.raises(ValueError, match="Layer count mismatch"):
        _built("functional").load_weights(str(tmp_path / "s.h5"))
    monkeypatch.setitem(sys.modules, "h5py", None)
    with pytest.raises(ImportError, match=r"tapegrad\[h5\]"):
        model.save_weights(str(tmp_path / "x.weights.h5"))
    assert not os.path.exists(tmp_path / "x.weights.h5")


def test_a_legacy_lambda_layer_is_refused_in_safe_mode(tmp_path):
    path = tmp_path / "lam.h5"
    with h5py.File(path, "w") as f:
        f.attrs["model_config"] = json.dumps({"class_name": "Sequential", "config": {"name": "s", "layers": [
            {"class_name": "Lambda", "config": {"name": "l", "function": ["4wEAAAAA", None, None],
                                                "function_type": "lambda"}}]}})
        f.create_group("model_weights").attrs["layer_names"] = np.array([], dtype="S1")
    with pytest.raises(ValueError, match="Lambda"):
        keras.models.load_model(str(path))


def test_a_dataset_is_not_read_before_its_shape_matches(tmp_path, monkeypatch):
    """A file declaring a huge compressed dataset (a decompression bomb) is refused by its declared
    shape: nothing is inflated."""
    path = tmp_path / "bomb.weights.h5"
    with h5py.File(path, "w") as f:
        f.create_dataset("layers/dense/vars/0", shape=(200_000, 50_000), dtype="float32", compression="gzip",
                         chunks=(1000, 1000))
        f.create_dataset("layers/dense/vars/1", data=np.zeros(1, "float32"))
        f.create_dataset("layers/dense_1/vars/0", data=np.zeros((3, 1), "float32"))
        f.create_dataset("layers/dense_1/vars/1", data=np.zeros(1, "float32"))
    reads, read = [], h5py.Dataset.__getitem__
    monkeypatch.setattr(h5py.Dataset, "__getitem__", lambda self, key: reads.append(self.name) or read(self, key))
    model = _built("sequential")
    with pytest.raises(ValueError, match=r"has shape \(200000, 50000\)"):
        model.load_weights(str(path))
    assert "/layers/dense/vars/0" not in reads
