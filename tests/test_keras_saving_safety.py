"""What ``load_model`` refuses, and how ``model.save`` and the callbacks built on it write.

- A config that names a file outside the archive (a lookup layer's ``vocabulary`` path) is
  refused with ``safe_mode=True``, as Keras 3.15 refuses it (a ``TypeError`` whose message ends
  with the refusal), before the file is opened.
- A ``.keras`` member that declares far more bytes than it takes (a decompression bomb) is
  refused from the zip directory, before it is inflated.
- ``model.save``, ``ModelCheckpoint`` and ``BackupAndRestore`` write atomically: a failed write
  leaves the previous file whole; two threads saving at once leave one whole file.
"""
from __future__ import annotations

import errno
import io
import json
import os
import threading
import zipfile

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras
from test_saving import _patched_size


def _lookup_model(cls="StringLookup"):
    vocab = ["a", "b"] if cls == "StringLookup" else [3, 4]
    dtype = "string" if cls == "StringLookup" else "int64"
    layer = getattr(keras.layers, cls)(vocabulary=vocab)
    return keras.Sequential([keras.Input((2,), dtype=dtype), layer])


def _rewritten(path, out, edit):
    """``path`` (a .keras file) with its config.json replaced by ``edit(config)``."""
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    config = json.loads(members["config.json"])
    edit(config)
    members["config.json"] = json.dumps(config).encode()
    with zipfile.ZipFile(out, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return out


def _with_vocabulary(config, vocabulary):
    layer = config["config"]["layers"][-1]
    layer["config"]["vocabulary"] = vocabulary


@pytest.mark.parametrize("cls", ["StringLookup", "IntegerLookup"])
def test_a_vocabulary_file_named_in_a_config_is_refused(tmp_path, cls):
    secret = tmp_path / "secret.txt"
    secret.write_text("hunter2-first-line\nb\n")
    src = str(tmp_path / "m.keras")
    _lookup_model(cls).save(src)
    bad = _rewritten(src, str(tmp_path / "bad.keras"), lambda c: _with_vocabulary(c, str(secret)))
    with pytest.raises(TypeError, match="Requested the loading of a vocabulary file outside of the "
                                        "model archive") as info:
        keras.models.load_model(bad)
    assert "hunter2" not in str(info.value)  # (never opened)
    assert "safe_mode=False" in str(info.value)
    for special in ("/dev/zero", "/proc/self/environ"):  # (a never-ending file: refused unopened)
        bad = _rewritten(src, str(tmp_path / "bad2.keras"), lambda c: _with_vocabulary(c, special))
        with pytest.raises(TypeError, match="outside of the model archive"):
            keras.models.load_model(bad)


def test_safe_mode_false_reads_the_file_as_keras_does(tmp_path):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("x\ny\n")
    src = str(tmp_path / "m.keras")
    _lookup_model().save(src)
    bad = _rewritten(src, str(tmp_path / "ok.keras"), lambda c: _with_vocabulary(c, str(vocab)))
    model = keras.models.load_model(bad, safe_mode=False)
    assert model.layers[-1].get_vocabulary() == ["[UNK]", "x", "y"]
    bad = _rewritten(src, str(tmp_path / "zero.keras"), lambda c: _with_vocabulary(c, "/dev/zero"))
    with pytest.raises(ValueError, match="is not a regular file"):  # (it would never end)
        keras.models.load_model(bad, safe_mode=False)


def test_deserializing_a_config_refuses_as_loading_does(tmp_path):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("x\ny\n")
    layer = keras.layers.StringLookup(vocabulary=str(vocab))  # in Python: the program's own file
    assert layer.get_vocabulary() == ["[UNK]", "x", "y"]
    config = {"module": "keras.layers", "class_name": "StringLookup",
              "config": {**keras.layers.StringLookup().get_config(), "vocabulary": str(vocab)}}
    with pytest.raises(TypeError, match="outside of the model archive"):
        keras.saving.deserialize_keras_object(config)
    layer = keras.saving.deserialize_keras_object(config, safe_mode=False)
    assert layer.get_vocabulary() == ["[UNK]", "x", "y"]
    vec = {"module": "keras.layers", "class_name": "TextVectorization",
           "config": {**keras.layers.TextVectorization().get_config(), "vocabulary": str(vocab)}}
    with pytest.raises(TypeError, match="outside of the model archive"):
        keras.saving.deserialize_keras_object(vec)
    with pytest.raises(TypeError, match="outside of the model archive"):
        keras.models.model_from_json(json.dumps(
            {"module": "keras", "class_name": "Sequential",
             "config": {"name": "s", "layers": [{"module": "keras.layers", "class_name": "InputLayer",
                                                  "config": {"batch_shape": [None, 1], "dtype": "string"}},
                                                 config]}}))


# ---------------------------------------------------------------- decompression bombs
def _recompressed(path, out, replace=None):
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    members.update(replace or {})
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    with open(out, "wb") as fh:
        fh.write(buf.getvalue())
    return out


@pytest.mark.parametrize("member", ["config.json", "model.weights.npz"])
def test_a_decompression_bomb_is_refused_before_it_is_inflated(tmp_path, member, bytes_inflated):
    src = str(tmp_path / "m.keras")
    keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)]).save(src)
    # a real bomb: 64 MiB of spaces deflate to about 64 kB (and would parse as JSON)
    bomb = _recompressed(src, str(tmp_path / "bomb.keras"), {member: b" " * (64 << 20)})
    assert os.path.getsize(bomb) < 1 << 20
    bytes_inflated[0] = 0
    with pytest.raises(ValueError, match=rf"Not allowed: ZIP member '{member}' of .* declares 67108864 "
                                         r"bytes but takes only \d+ bytes in the file \(more than 100:1\)"):
        keras.models.load_model(bomb)
    assert bytes_inflated[0] == 0
    # a member that declares 4 GiB in a few hundred bytes
    small = _recompressed(src, str(tmp_path / "small.keras"))
    with open(small, "rb") as fh:
        lying = _patched_size(fh.read(), member.encode(), 2**32 - 1)
    with open(tmp_path / "lying.keras", "wb") as fh:
        fh.write(lying)
    bytes_inflated[0] = 0
    with pytest.raises(ValueError, match="declares 4294967295 bytes but takes only"):
        keras.models.load_model(str(tmp_path / "lying.keras"))
    assert bytes_inflated[0] == 0
    # a recompressed file that is no bomb loads
    again = keras.models.load_model(small)
    assert [w.shape for w in again.weights] == [(3, 2), (2,)]


def test_a_stored_member_whose_sizes_disagree_is_refused(tmp_path):
    src = str(tmp_path / "m.keras")
    keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)]).save(src)
    with open(src, "rb") as fh:
        lying = _patched_size(fh.read(), b"config.json", 2**31)
    with open(tmp_path / "lying.keras", "wb") as fh:
        fh.write(lying)
    with pytest.raises(ValueError, match="uncompressed; the file is damaged or crafted"):
        keras.models.load_model(str(tmp_path / "lying.keras"))


# ---------------------------------------------------------------- atomic saves
def _model(seed=0):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model.set_weights([np.full((3, 2), float(seed), np.float32), np.full(2, float(seed), np.float32)])
    return model


def _full_disk(monkeypatch, after_bytes=100):
    """Files opened by ``os.fdopen`` (the atomic writer's temporary files) fail with ENOSPC once
    ``after_bytes`` went out: a disk that fills up during the write."""
    real = os.fdopen

    class Full:
        def __init__(self, f):
            self.f, self.written = f, 0

        def write(self, b):
            self.written += len(b)
            if self.written > after_bytes:
                raise OSError(errno.ENOSPC, "No space left on device")
            return self.f.write(b)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def __getattr__(self, name):
            return getattr(self.f, name)

    monkeypatch.setattr(os, "fdopen", lambda *a, **k: Full(real(*a, **k)))


def test_a_failed_save_leaves_the_previous_file(tmp_path, monkeypatch):
    path = str(tmp_path / "m.keras")
    _model(1).save(path)
    with monkeypatch.context() as m:
        _full_disk(m)
        with pytest.raises(OSError, match="No space left"):
            _model(2).save(path)
    assert float(keras.models.load_model(path).weights[0].numpy()[0, 0]) == 1.0
    assert os.listdir(tmp_path) == ["m.keras"]  # (the temporary file is gone)


def test_two_threads_saving_at_once_leave_a_whole_file(tmp_path):
    path = str(tmp_path / "m.keras")
    weights = str(tmp_path / "m.weights.bin")  # (not .npz: it was written as .npz, then renamed)
    models = [_model(1), _model(2)]
    errors = []

    def save(model):
        try:
            for _ in range(15):
                model.save(path)
                model.save_weights(weights)
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=save, args=(m,)) for m in models]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    loaded = keras.models.load_model(path)
    assert float(loaded.weights[0].numpy()[0, 0]) in (1.0, 2.0)
    fresh = _model(0)
    fresh.load_weights(weights)
    assert float(fresh.weights[0].numpy()[0, 0]) in (1.0, 2.0)
    assert sorted(os.listdir(tmp_path)) == ["m.keras", "m.weights.bin"]


def test_model_checkpoint_keeps_the_last_good_file(tmp_path, monkeypatch):
    path = str(tmp_path / "best.keras")
    model = _model(1)
    model.compile("sgd", "mse")
    x, y = np.ones((4, 3), np.float32), np.zeros((4, 2), np.float32)
    model.fit(x, y, epochs=1, verbose=0, callbacks=[keras.callbacks.ModelCheckpoint(path)])
    before = keras.models.load_model(path).get_weights()
    with monkeypatch.context() as m:
        _full_disk(m)
        with pytest.raises(OSError, match="No space left"):
            model.fit(x, y, epochs=1, verbose=0, callbacks=[keras.callbacks.ModelCheckpoint(path)])
    for a, b in zip(keras.models.load_model(path).get_weights(), before):
        np.testing.assert_array_equal(a, b)


def test_backup_and_restore_metadata_is_always_valid_json(tmp_path, monkeypatch):
    backup = str(tmp_path / "backup")
    model = _model(1)
    model.compile("sgd", "mse")
    x, y = np.ones((4, 3), np.float32), np.zeros((4, 2), np.float32)
    cb = keras.callbacks.BackupAndRestore(backup, delete_checkpoint=False)
    model.fit(x, y, epochs=2, verbose=0, callbacks=[cb])
    meta = os.path.join(backup, "training_metadata.json")
    with open(meta) as fh:
        assert json.load(fh)["epoch"] == 2
    with monkeypatch.context() as m:
        _full_disk(m, after_bytes=5)  # (the metadata's write fails half-way)
        cb._current_epoch = 3
        with pytest.raises(OSError):
            cb._save_model()
    with open(meta) as fh:
        assert json.load(fh)["epoch"] == 2
    assert not [n for n in os.listdir(backup) if n.endswith(".tmp")]


# ---------------------------------------------------------------- state kept inside the archive
@pytest.mark.parametrize("case", ["file", "adapted", "tf_idf", "integer", "text", "discretization"])
def test_what_adapt_learnt_or_a_file_gave_is_kept_in_the_archive(tmp_path, case):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("a\nb\nc\n")
    L = keras.layers
    if case == "integer":
        layer, inp, x = L.IntegerLookup(), keras.Input((2,), dtype="int64"), np.array([[1, 3]])
        layer.adapt([1, 2, 2, 3])
    elif case == "text":
        layer, inp, x = L.TextVectorization(output_mode="tf_idf"), keras.Input((1,), dtype="string"), [["a c"]]
        layer.adapt(["a b b", "c x"])
    elif case == "discretization":
        layer, inp, x = L.Discretization(num_bins=3), keras.Input((1,)), np.array([[0.0], [1.0], [5.0]])
        layer.adapt(np.array([[0.0], [1.0], [2.0], [5.0]], np.float32))
    else:
        layer = (L.StringLookup(vocabulary=str(vocab)) if case == "file" else
                 L.StringLookup(output_mode="tf_idf" if case == "tf_idf" else "int"))
        if case != "file":
            layer.adapt(["a", "b", "b", "c"])
        inp, x = keras.Input((2,), dtype="string"), [["a", "c"]]
    model = keras.Model(inp, layer(inp))
    path = str(tmp_path / "m.keras")
    model.save(path)
    vocab.unlink()  # (the loaded model must not need it)
    again = keras.models.load_model(path)
    want = model(tf.constant(x)).numpy()
    np.testing.assert_array_equal(again(tf.constant(x)).numpy(), want)
    assert again.layers[-1].get_config() == layer.get_config()  # (the config is Keras's)
