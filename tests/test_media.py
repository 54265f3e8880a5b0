"""Image and audio files as TensorFlow 2.21 reads them (tf.io.decode_*/encode_*, tf.audio) and Keras 3's
image_dataset_from_directory / audio_dataset_from_directory, against what tools/record_media.py recorded
(tests/fixtures/media/: the files, TensorFlow's outputs in tf.npz, the cases in tf.json)."""
import contextlib
import io
import json
import os
import shutil

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras

pytest.importorskip("PIL")

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "media")
with open(os.path.join(HERE, "tf.json"), encoding="utf-8") as _fh:
    DOC = json.load(_fh)
_NPZ = np.load(os.path.join(HERE, "tf.npz"))
TF = {k.replace("|", "/"): _NPZ[k] for k in _NPZ.files}

# TensorFlow decodes JPEG with libjpeg's fast integer DCT unless dct_method="INTEGER_ACCURATE"; tapegrad
# does too (tapegrad/io/_image_jpeg.py), so every decode is compared exactly.


def _read(name):
    with open(os.path.join(HERE, name), "rb") as f:
        return f.read()


def _core(message):
    """TensorFlow's message without its function-node prefix and op suffix."""
    if message.startswith("{{function_node"):
        message = message.split("}} ", 1)[1]
    return message.split(" [Op:")[0]


def _check_error(case, fn):
    with pytest.raises(Exception) as info:
        fn()
    assert type(info.value).__name__ == case["error"], (info.value, case)
    assert str(info.value)[:25] == _core(case["message"])[:25], (str(info.value), case["message"])


@pytest.mark.parametrize("name", sorted(DOC["codecs"]))
def test_decode_like_tensorflow(name):
    case = DOC["codecs"][name]
    data = _read(case["file"])
    args = dict(case["args"])
    fn = getattr(tf.io, case["op"])
    if "error" in case:
        _check_error(case, lambda: fn(data, **args))
        return
    if case["file"] == "thin.jpg" and args.get("ratio", 1) > 1:  # 1 row: Pillow cannot scale it
        with pytest.raises(NotImplementedError, match="ratio"):
            fn(data, **args)
        return
    out = fn(data, **args)
    want = TF[name]
    assert out.dtype.name == case["dtype"]
    got = out.numpy()
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_fast_dct_is_tensorflows_default():
    """Baseline files decode bit for bit as TensorFlow's default; the accurate DCT would not."""
    exact = differs = 0
    for name, case in DOC["codecs"].items():
        if case["op"] == "decode_jpeg" and "error" not in case and name.endswith("_default"):
            data = _read(case["file"])
            np.testing.assert_array_equal(tf.io.decode_jpeg(data, **case["args"]).numpy(), TF[name])
            exact += 1
            accurate = tf.io.decode_jpeg(data, channels=case["args"]["channels"], dct_method="INTEGER_ACCURATE")
            differs += int(np.any(accurate.numpy() != TF[name]))
    assert exact >= 20 and differs >= exact // 2


@pytest.mark.parametrize("name", sorted(DOC["encode"]))
def test_encode_like_tensorflow(name):
    case = DOC["encode"][name]
    if case["op"] == "encode_png":
        _check_error(case, lambda: tf.io.encode_png(np.zeros((2, 2, 5), np.uint8)))
        return
    src = TF["encode/source"]
    src = src[..., :1] if case["gray"] else src
    jpg = tf.io.encode_jpeg(src, **case["args"])
    got = tf.io.decode_jpeg(jpg, dct_method="INTEGER_ACCURATE").numpy()
    # Same libjpeg settings (quality tables, sampling, accurate DCT) as TensorFlow's encoder: the same pixels.
    np.testing.assert_array_equal(got, TF[name])


@pytest.mark.parametrize("dtype", ["uint8", "uint16"])
@pytest.mark.parametrize("channels", [1, 2, 3, 4])
def test_encode_png_round_trip(dtype, channels):
    rng = np.random.default_rng(channels)
    img = rng.integers(0, np.iinfo(dtype).max + 1, (5, 3, channels)).astype(dtype)
    png = tf.io.encode_png(img, compression=9)
    if dtype == "uint16" and channels > 1:  # Pillow reads 16-bit colour as 8-bit: refused, not rounded
        with pytest.raises(NotImplementedError, match="16-bit colour"):
            tf.io.decode_png(png, dtype=dtype)
        return
    np.testing.assert_array_equal(tf.io.decode_png(png, dtype=dtype).numpy(), img)
    np.testing.assert_array_equal(tf.image.decode_png(png, dtype=dtype).numpy(), img)


def test_jpeg_helpers_and_errors():
    jpg = _read("rgb420.jpg")
    assert bool(tf.io.is_jpeg(jpg)) and not bool(tf.io.is_jpeg(_read("rgb.png")))
    np.testing.assert_array_equal(tf.io.is_jpeg(np.array([jpg, b"xx"], dtype=object)).numpy(), [True, False])
    assert tf.io.extract_jpeg_shape(jpg, output_type=tf.int64).dtype == tf.int64
    with pytest.raises(NotImplementedError, match="fancy_upscaling"):  # through Pillow (ratio 2)
        tf.io.decode_jpeg(_read("rgb420.jpg"), ratio=2, fancy_upscaling=False)
    assert tf.io.decode_jpeg(_read("rgb444.jpg"), fancy_upscaling=False).shape == (21, 27, 3)
    cut = jpg[:len(jpg) * 9 // 10]  # inside the entropy-coded data
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid JPEG"):
        tf.io.decode_jpeg(cut)
    with pytest.raises(NotImplementedError, match="truncated"):
        tf.io.decode_jpeg(cut, try_recover_truncated=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid JPEG"):
        tf.io.decode_jpeg(jpg[:len(jpg) // 2])  # inside the headers
    with pytest.raises(NotImplementedError, match="cm"):
        tf.io.encode_jpeg(np.zeros((2, 2, 3), np.uint8), density_unit="cm")
    with pytest.raises(TypeError, match="uint8"):
        tf.io.encode_jpeg(np.zeros((2, 2, 3), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="scalar"):
        tf.io.decode_image(np.array([jpg, jpg], dtype=object))
    with pytest.raises(tf.errors.InvalidArgumentError, match="empty"):
        tf.io.decode_png(b"")
    with pytest.raises(tf.errors.InvalidArgumentError, match="`channels` must be 0, 1, 3 or 4"):
        tf.io.decode_png(_read("rgb.png"), channels=2)


def test_missing_pillow_names_the_extra(monkeypatch):
    import builtins
    real = builtins.__import__

    def no_pil(name, *a, **k):
        if name == "PIL" or name.startswith("PIL."):
            raise ImportError("No module named 'PIL'")
        return real(name, *a, **k)
    monkeypatch.setattr(builtins, "__import__", no_pil)
    with pytest.raises(ImportError, match=r"tapegrad\[image\]"):
        tf.io.decode_png(_read("rgb.png"))
    assert tf.io.decode_bmp(_read("rgb24.bmp")).shape == (5, 7, 3)  # BMP, GIF, baseline JPEG need no Pillow
    assert tf.io.decode_gif(_read("anim.gif")).shape == (3, 10, 12, 3)
    assert tf.io.decode_jpeg(_read("rgb420.jpg")).shape == (21, 27, 3)
    assert tf.io.decode_jpeg(_read("prog.jpg"), dct_method="INTEGER_ACCURATE").shape == (17, 33, 3)
    with pytest.raises(ImportError, match=r"tapegrad\[image\]"):
        tf.io.decode_jpeg(_read("prog.jpg"), ratio=2)
    assert tf.io.encode_png(np.zeros((1, 1, 1), np.uint8)).dtype == tf.string


@pytest.mark.parametrize("name", sorted(DOC["audio"]))
def test_decode_wav_like_tensorflow(name):
    case = DOC["audio"][name]
    data = _read(case["file"])
    if "error" in case:
        with pytest.raises(tf.errors.InvalidArgumentError):
            tf.audio.decode_wav(data, **case["args"])
        return
    audio, rate = tf.audio.decode_wav(data, **case["args"])
    assert audio.dtype == tf.float32 and rate.dtype == tf.int32
    np.testing.assert_array_equal(audio.numpy(), TF[name])  # int16 / 32768: exact in float32
    assert int(rate) == int(TF[name + ".1"])


def test_encode_wav_bytes_like_tensorflow():
    got = np.frombuffer(tf.audio.encode_wav(TF["encode_wav/source"], 22050).numpy(), np.uint8)
    np.testing.assert_array_equal(got, TF["encode_wav"])


def test_decode_wav_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="RIFF"):
        tf.audio.decode_wav(b"RIFX0000WAVE")
    data = bytearray(_read("mono.wav"))
    data[34] = 8  # bits per sample
    with pytest.raises(tf.errors.InvalidArgumentError, match="16-bit"):
        tf.audio.decode_wav(bytes(data))
    with pytest.raises(TypeError, match="float32"):
        tf.audio.encode_wav(np.zeros((2, 1), np.float64), 8000)


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    root = tmp_path_factory.mktemp("media")
    for sub in ("images", "images_png", "audio"):
        shutil.copytree(os.path.join(HERE, sub), root / sub)
    return root


def _fn(name):
    kind = name.split("/")[0]
    return (keras.utils.audio_dataset_from_directory if kind == "audio" else
            keras.utils.image_dataset_from_directory), kind


@pytest.mark.parametrize("name", sorted(DOC["datasets"]))
def test_dataset_from_directory_like_keras(name, trees):
    case = DOC["datasets"][name]
    tf.random.set_seed(None)   # (recorded without a global seed: the shuffles' order depends on it)
    fn, kind = _fn(name)
    args = dict(case["args"])
    if "image_size" in args and isinstance(args["image_size"], list):
        args["image_size"] = tuple(args["image_size"])
    directory = str(trees / {"image": "images", "image_png": "images_png", "audio": "audio"}[kind])
    if "error" in case:
        with pytest.raises(ValueError) as info:
            fn(directory, **args)
        assert str(info.value)[:40] == case["message"][:40]
        return
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        out = fn(directory, **args)
    assert buf.getvalue().splitlines() == case["printed"]
    parts = out if isinstance(out, (list, tuple)) else [out]
    assert isinstance(out, tuple) == (kind == "audio" and args.get("subset") == "both")
    assert len(parts) == len(case["parts"])
    for ds, want in zip(parts, case["parts"]):
        assert ds.class_names == want["class_names"]
        if kind != "audio":
            assert [os.path.relpath(p, str(trees)) for p in ds.file_paths] == want["file_paths"]
        if "iteration_error" in case:
            with pytest.raises(Exception) as info:
                list(ds)
            assert type(info.value).__name__ == case["iteration_error"]
            continue
        batches = list(ds)
        assert len(batches) == len(want["batches"])
        for b, keys in zip(batches, want["batches"]):
            b = b if isinstance(b, tuple) else (b,)
            assert len(b) == len(keys)
            for part, key in zip(b, keys):
                got = part.to_tensor().numpy() if hasattr(part, "to_tensor") else part.numpy()
                w = TF[key]
                assert got.dtype == w.dtype and got.shape == w.shape, (key, got.shape, w.shape)
                if w.dtype == np.float32 and kind != "audio":
                    # resizing is float32 arithmetic on 0..255 values, summed in another order than TF's
                    np.testing.assert_allclose(got, w, rtol=1e-5, atol=255 * 2 ** -16)
                else:
                    np.testing.assert_array_equal(got, w)


def test_dataset_element_spec_and_batch_none(trees):
    ds = keras.utils.image_dataset_from_directory(str(trees / "images_png"), image_size=(4, 6), batch_size=None,
                                                  seed=1, verbose=False)
    x, y = next(iter(ds))
    assert x.shape == (4, 6, 3) and x.dtype == tf.float32 and y.dtype == tf.int32
    ds = keras.utils.audio_dataset_from_directory(str(trees / "audio"), output_sequence_length=9, batch_size=None,
                                                  seed=1, verbose=False)
    x, y = next(iter(ds))
    assert x.shape == (9, 1)
    with pytest.raises(NotImplementedError, match="tensorflow-io"):
        keras.utils.audio_dataset_from_directory(str(trees / "audio"), sampling_rate=8000)
    with pytest.raises(ValueError, match="not a directory"):
        keras.utils.image_dataset_from_directory(str(trees / "nowhere"))
