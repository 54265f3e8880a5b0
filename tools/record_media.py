"""Record TensorFlow 2.21's image and audio codecs and Keras 3's image/audio dataset functions.

Run with a Python that has TensorFlow 2.21, Keras 3 and Pillow (the tests only read what it writes):

    $TAPEGRAD_TF_PYTHON tools/record_media.py

Writes ``tests/fixtures/media/``: small image files (JPEG, PNG, BMP, GIF, written here with Pillow
from a seeded generator), WAV files, a folder tree of each for the dataset functions, and
``tf.npz`` (TensorFlow's outputs) with ``tf.json`` (per case: the file, the op, its arguments, the
output's dtype, or the error TensorFlow raises; per dataset case: the arguments, ``class_names``,
``file_paths`` and the batches' arrays, named in ``tf.npz``).
"""
import io
import json
import os
import shutil
import struct
import sys
import wave

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _tf import quiet_tensorflow  # noqa: E402

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

tf = quiet_tensorflow()
import keras  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "tests", "fixtures", "media")
RNG = np.random.default_rng(24)


def smooth(h, w, c):
    """A smooth image with some texture: JPEG-like content, not white noise."""
    y, x = np.mgrid[0:h, 0:w]
    base = [128 + 100 * np.sin(x / (3 + k) + y / (5 + k) + k) for k in range(c)]
    a = np.stack(base, -1) + RNG.normal(0, 12, (h, w, c))
    return np.clip(a, 0, 255).astype(np.uint8)


def save(img, name, **kw):
    path = os.path.join(OUT, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    img.save(path, **kw)
    return name


def bmp32(a, name):
    """A 32-bit BGRA BMP (Pillow writes RGBA as 32-bit without its alpha mask header)."""
    h, w, _ = a.shape
    px = a[::-1][..., [2, 1, 0, 3]].tobytes()
    head = b"BM" + struct.pack("<IHHI", 54 + len(px), 0, 0, 54)
    info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 32, 0, len(px), 2835, 2835, 0, 0)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(head + info + px)
    return name


def write_wav(name, samples, rate=16000):
    path = os.path.join(OUT, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with wave.open(path, "wb") as f:
        f.setnchannels(samples.shape[1])
        f.setsampwidth(2)
        f.setframerate(rate)
        f.writeframes(samples.astype("<i2").tobytes())
    return name


def make_files():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    f = {}
    rgb, g = smooth(21, 27, 3), smooth(19, 13, 1)[..., 0]
    f["rgb420.jpg"] = save(Image.fromarray(rgb), "rgb420.jpg", quality=90)
    f["rgb444.jpg"] = save(Image.fromarray(rgb), "rgb444.jpg", quality=90, subsampling=0)
    f["gray.jpg"] = save(Image.fromarray(g), "gray.jpg", quality=85)
    f["prog.jpg"] = save(Image.fromarray(smooth(17, 33, 3)), "prog.jpg", quality=75, progressive=True)
    f["rgb.png"] = save(Image.fromarray(smooth(9, 11, 3)), "rgb.png")
    f["rgba.png"] = save(Image.fromarray(smooth(9, 11, 4)), "rgba.png")
    f["gray.png"] = save(Image.fromarray(g), "gray.png")
    f["la.png"] = save(Image.fromarray(smooth(7, 5, 2), "LA"), "la.png")
    f["gray16.png"] = save(Image.fromarray(RNG.integers(0, 65536, (6, 7)).astype(np.uint16)), "gray16.png")
    pal = Image.fromarray(smooth(8, 10, 3)).quantize(7)
    f["pal.png"] = save(pal, "pal.png")
    f["paltrns.png"] = save(pal, "paltrns.png", transparency=2)
    f["graytrns.png"] = save(Image.fromarray(g), "graytrns.png", transparency=int(g[0, 0]))
    f["bw.png"] = save(Image.fromarray(g > 128), "bw.png")
    f["rgb24.bmp"] = save(Image.fromarray(smooth(5, 7, 3)), "rgb24.bmp")
    f["gray8.bmp"] = save(Image.fromarray(smooth(6, 5, 1)[..., 0]), "gray8.bmp")
    f["rgba32.bmp"] = bmp32(smooth(4, 6, 4), "rgba32.bmp")
    frames = [Image.fromarray(smooth(10, 12, 3)).quantize(16) for _ in range(3)]
    f["anim.gif"] = save(frames[0], "anim.gif", save_all=True, append_images=frames[1:], duration=50)
    f["still.gif"] = save(frames[1], "still.gif")
    t = np.arange(40)
    f["mono.wav"] = write_wav("mono.wav", (np.sin(t / 3) * 30000)[:, None].astype(np.int16) * np.array([[1]]))
    st = np.stack([np.sin(t / 3) * 32767, np.cos(t / 5) * -32768], -1).round()
    f["stereo.wav"] = write_wav("stereo.wav", st, 8000)
    # folder trees for the dataset functions (lossless formats, so the decoded pixels are exact)
    for cls, n in [("ants", 4), ("bees", 3), ("cats", 2)]:
        for i in range(n):
            h, w = int(RNG.integers(6, 14)), int(RNG.integers(6, 14))
            a = smooth(h, w, 3)
            kind = ["png", "bmp", "gif", "png"][i % 4]
            img = Image.fromarray(a)
            save(img.quantize(32) if kind == "gif" else img, f"images/{cls}/{i}.{kind}")
    save(Image.fromarray(smooth(9, 9, 4)), "images/ants/rgba.png")
    for cls in ("x", "y"):
        for i in range(2):
            save(Image.fromarray(smooth(7 + i, 9 - i, 3)), f"images_png/{cls}/{i}.png")
    with open(os.path.join(OUT, "images", "bees", "notes.txt"), "w") as fh:
        fh.write("not an image\n")
    for cls, n in [("no", 3), ("yes", 4)]:
        for i in range(n):
            length = int(RNG.integers(5, 12))
            write_wav(f"audio/{cls}/{i}.wav", RNG.integers(-32768, 32768, (length, 1)))
    # more JPEG layouts for the fast-IDCT decoder (written last: the files above keep their bytes)
    big = smooth(67, 93, 3)
    f["rgb422.jpg"] = save(Image.fromarray(big), "rgb422.jpg", quality=60, subsampling=1)
    f["rst.jpg"] = save(Image.fromarray(big), "rst.jpg", quality=80, restart_marker_blocks=3)
    f["q100.jpg"] = save(Image.fromarray(big), "q100.jpg", quality=100)
    f["q5.jpg"] = save(Image.fromarray(big), "q5.jpg", quality=5)
    f["thin.jpg"] = save(Image.fromarray(smooth(1, 9, 3)), "thin.jpg", quality=90)
    f["optimized.jpg"] = save(Image.fromarray(smooth(30, 17, 3)), "optimized.jpg", quality=85, optimize=True)
    # GIF frames that change a region only (Pillow stores the changed box), with a transparent index and
    # the disposal methods
    base = smooth(12, 14, 3)
    frames = []
    for k in range(4):
        a = base.copy()
        a[2 + k:6 + k, 3:9] = [255 * (k % 2), 40 * k, 200]
        frames.append(Image.fromarray(a).quantize(24))
    f["partial.gif"] = save(frames[0], "partial.gif", save_all=True, append_images=frames[1:], duration=40,
                            disposal=[0, 1, 2, 1])
    f["prog_gray.jpg"] = save(Image.fromarray(smooth(23, 29, 1)[..., 0]), "prog_gray.jpg", quality=70,
                              progressive=True)
    f["prog_big.jpg"] = save(Image.fromarray(smooth(61, 75, 3)), "prog_big.jpg", quality=92, progressive=True,
                             restart_marker_blocks=5, optimize=True)
    f["trans.gif"] = save(frames[0], "trans.gif", save_all=True, append_images=frames[1:], duration=40,
                          transparency=0, disposal=[1, 2, 3, 1])
    return f


ARRAYS = {}


def run(case, fn):
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__, "message": str(e).split("\n")[0][:300]}
    if isinstance(out, tuple):
        ARRAYS[case] = out[0].numpy()
        ARRAYS[case + ".1"] = np.asarray(out[1].numpy())
        return {"dtype": out[0].dtype.name, "outputs": 2}
    ARRAYS[case] = np.asarray(out.numpy())
    return {"dtype": out.dtype.name, "outputs": 1}


def codec_cases(files):
    cases = {}

    def add(name, file, op, **kw):
        data = open(os.path.join(OUT, file), "rb").read()
        res = run(name, lambda: getattr(tf.io, op)(data, **kw))
        cases[name] = {"file": file, "op": op, "args": kw, **res}

    jpegs = ["rgb420.jpg", "rgb444.jpg", "gray.jpg", "prog.jpg", "rgb422.jpg", "rst.jpg", "q100.jpg", "q5.jpg",
             "thin.jpg", "optimized.jpg", "prog_gray.jpg", "prog_big.jpg"]
    pngs = ["rgb.png", "rgba.png", "gray.png", "la.png", "gray16.png", "pal.png", "paltrns.png", "graytrns.png",
            "bw.png"]
    bmps = ["rgb24.bmp", "gray8.bmp", "rgba32.bmp"]
    for f in jpegs:
        for c in (0, 1, 3, 4):
            add(f"{f}/jpeg_c{c}_accurate", f, "decode_jpeg", channels=c, dct_method="INTEGER_ACCURATE")
            add(f"{f}/jpeg_c{c}_default", f, "decode_jpeg", channels=c)
        for r in (2, 4, 8):
            add(f"{f}/jpeg_r{r}", f, "decode_jpeg", ratio=r, dct_method="INTEGER_ACCURATE")
        add(f"{f}/shape", f, "extract_jpeg_shape")
        add(f"{f}/crop", f, "decode_and_crop_jpeg", crop_window=[2, 3, 5, 7], dct_method="INTEGER_ACCURATE")
        for win in ([2, 3, 5, 7], [0, 0, 1, 1], [1, 17, 9, 5], [3, 1, 12, 16], [0, 8, 1, 1], [9, 8, 8, 2]):
            add(f"{f}/crop_fast_{'_'.join(map(str, win))}", f, "decode_and_crop_jpeg", crop_window=win)
    add("rgb420.jpg/jpeg_r3", "rgb420.jpg", "decode_jpeg", ratio=3)
    add("rgb420.jpg/jpeg_dct_bad", "rgb420.jpg", "decode_jpeg", dct_method="INTEGER_SLOW")
    add("rgb420.jpg/crop_bad", "rgb420.jpg", "decode_and_crop_jpeg", crop_window=[15, 3, 10, 7])
    for f in pngs:
        for c in (0, 1, 3, 4):
            for dt in ("uint8", "uint16"):
                add(f"{f}/png_c{c}_{dt}", f, "decode_png", channels=c, dtype=dt)
        add(f"{f}/image_float", f, "decode_image", dtype="float32")
        add(f"{f}/as_jpeg", f, "decode_jpeg")
        add(f"{f}/as_gif", f, "decode_gif")
    for f in bmps:
        for c in (0, 1, 3, 4):
            add(f"{f}/bmp_c{c}", f, "decode_bmp", channels=c)
        add(f"{f}/image_float", f, "decode_image", dtype="float32")
        add(f"{f}/image_c4", f, "decode_image", channels=4)
        add(f"{f}/as_png", f, "decode_png")
    add("rgb.png/as_bmp", "rgb.png", "decode_bmp")
    add("rgb420.jpg/as_bmp", "rgb420.jpg", "decode_bmp")
    add("rgb420.jpg/image_uint16", "rgb420.jpg", "decode_image", dtype="uint16")
    for f in jpegs:
        add(f"{f}/image_float", f, "decode_image", dtype="float32")
        add(f"{f}/image_c1", f, "decode_image", channels=1)
        add(f"{f}/jpeg_fast", f, "decode_jpeg", dct_method="INTEGER_FAST")
        add(f"{f}/jpeg_nofancy", f, "decode_jpeg", fancy_upscaling=False)
        add(f"{f}/jpeg_nofancy_accurate", f, "decode_jpeg", fancy_upscaling=False, dct_method="INTEGER_ACCURATE")
        add(f"{f}/crop_nofancy", f, "decode_and_crop_jpeg", crop_window=[1, 3, 5, 7], fancy_upscaling=False)
    for f in ("anim.gif", "still.gif", "partial.gif", "trans.gif"):
        add(f"{f}/gif", f, "decode_gif")
        add(f"{f}/image", f, "decode_image")
        add(f"{f}/image_first", f, "decode_image", expand_animations=False, channels=3)
        add(f"{f}/image_c1", f, "decode_image", channels=1)
        add(f"{f}/as_png", f, "decode_png")
        add(f"{f}/as_jpeg", f, "decode_jpeg")
    add("mono.wav/as_image", "mono.wav", "decode_image")
    return cases


def encode_cases():
    cases = {}
    img = smooth(16, 24, 3)
    ARRAYS["encode/source"] = img
    for name, kw in {"q95": {}, "q50": {"quality": 50}, "444": {"chroma_downsampling": False},
                     "progressive": {"progressive": True}, "gray": {}}.items():
        src = img[..., :1] if name == "gray" else img
        res = run(f"encode/jpeg_{name}", lambda: tf.io.decode_jpeg(tf.io.encode_jpeg(src, **kw),
                                                                   dct_method="INTEGER_ACCURATE"))
        cases[f"encode/jpeg_{name}"] = {"op": "encode_jpeg", "args": kw, "gray": name == "gray", **res}
    cases["encode/png_c4_bad"] = {"op": "encode_png", **run("encode/png_c5_bad",
                                                            lambda: tf.io.encode_png(np.zeros((2, 2, 5), np.uint8)))}
    return cases


def audio_cases():
    cases = {}
    for f in ("mono.wav", "stereo.wav"):
        data = open(os.path.join(OUT, f), "rb").read()
        for ch in (-1, 1, 2, 3):
            for n in (-1, 7, 50):
                name = f"{f}/c{ch}_n{n}"
                cases[name] = {"file": f, "args": {"desired_channels": ch, "desired_samples": n},
                               **run(name, lambda: tf.audio.decode_wav(data, desired_channels=ch, desired_samples=n))}
    x = np.array([[0.0, 1.0], [-1.0, 0.5], [1 / 65536, -1 / 65536], [3 / 65536, -3 / 65536], [2.0, -2.0],
                  [0.99999, -0.99999]], np.float32)
    ARRAYS["encode_wav/source"] = x
    ARRAYS["encode_wav"] = np.frombuffer(tf.audio.encode_wav(x, 22050).numpy(), np.uint8)
    cases["not_wav"] = {"file": "rgb.png", "args": {}, **run("not_wav", lambda: tf.audio.decode_wav(
        open(os.path.join(OUT, "rgb.png"), "rb").read()))}
    return cases


def dataset_cases():
    cases = {}
    img_dir, aud_dir = os.path.join(OUT, "images"), os.path.join(OUT, "audio")
    n_img = sum(len([f for f in fs if not f.endswith(".txt")]) for _, _, fs in os.walk(img_dir))

    def record(name, fn, directory, **kw):
        try:
            import contextlib
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                ds = fn(directory, **kw)
        except Exception as e:  # noqa: BLE001
            cases[name] = {"args": kw, "error": type(e).__name__, "message": str(e)[:300]}
            return
        out = {"args": kw, "printed": buf.getvalue().splitlines(), "parts": []}
        for j, d in enumerate(ds if isinstance(ds, (list, tuple)) else [ds]):
            batches = []
            try:
                elements = list(d)
            except Exception as e:  # noqa: BLE001
                out["iteration_error"] = type(e).__name__
                elements = []
            for k, b in enumerate(elements):
                parts = b if isinstance(b, tuple) else (b,)
                keys = []
                for m, p in enumerate(parts):
                    key = f"ds/{name}/{j}/{k}/{m}"
                    ARRAYS[key] = p.to_tensor().numpy() if hasattr(p, "to_tensor") else p.numpy()
                    keys.append(key)
                batches.append(keys)
            out["parts"].append({"class_names": d.class_names, "batches": batches,
                                 "file_paths": [os.path.relpath(p, OUT) for p in getattr(d, "file_paths", [])],
                                 "spec": repr(d.element_spec)})
        cases[name] = out

    idf = keras.utils.image_dataset_from_directory
    base = {"image_size": (5, 7), "batch_size": 4, "seed": 3}
    for name, kw in {
        "default": {}, "no_shuffle": {"shuffle": False}, "grayscale_bmp": {"color_mode": "grayscale"},

        "rgba": {"color_mode": "rgba"}, "categorical": {"label_mode": "categorical"},
        "binary_bad": {"label_mode": "binary"}, "binary": {"label_mode": "binary", "class_names": ["bees", "ants"]},
        "no_labels": {"labels": None}, "labels_list": {"labels": [i % 2 for i in range(n_img)], "shuffle": False},
        "batch_none": {"batch_size": None}, "split_train": {"validation_split": 0.3, "subset": "training"},
        "split_val": {"validation_split": 0.3, "subset": "validation"},
        "split_both": {"validation_split": 0.25, "subset": "both"},
        "crop": {"crop_to_aspect_ratio": True, "image_size": (4, 9)},
        "pad": {"pad_to_aspect_ratio": True, "image_size": (4, 9)},
        "nearest": {"interpolation": "nearest"}, "bicubic": {"interpolation": "bicubic"},
        "area": {"interpolation": "area"}, "channels_first": {"data_format": "channels_first"},
        "int_size": {"image_size": 3}, "bad_color": {"color_mode": "cmyk"},
        "bad_interp": {"interpolation": "cubic"}, "split_no_seed": {"validation_split": 0.2, "subset": "training",
                                                                     "seed": None},
    }.items():
        record("image/" + name, idf, img_dir, **{**base, **kw})
    for name, kw in {"grayscale": {"color_mode": "grayscale"}, "rgba": {"color_mode": "rgba", "shuffle": False},
                     "crop_tall": {"crop_to_aspect_ratio": True, "image_size": (8, 3)},
                     "pad_tall": {"pad_to_aspect_ratio": True, "image_size": (8, 3)}}.items():
        record("image_png/" + name, idf, os.path.join(OUT, "images_png"), **{**base, **kw})
    adf = keras.utils.audio_dataset_from_directory
    abase = {"batch_size": 3, "seed": 5}
    for name, kw in {
        "default": {}, "seq": {"output_sequence_length": 8}, "ragged": {"ragged": True},
        "categorical": {"label_mode": "categorical", "shuffle": False}, "binary": {"label_mode": "binary"},
        "both": {"validation_split": 0.3, "subset": "both", "output_sequence_length": 6},
        "no_labels": {"labels": None, "shuffle": False}, "bad_ragged": {"ragged": True, "output_sequence_length": 4},
    }.items():
        record("audio/" + name, adf, aud_dir, **{**abase, **kw})
    return cases


def main():
    files = make_files()
    doc = {"versions": {"tensorflow": tf.__version__, "keras": keras.__version__},
           "files": files, "codecs": codec_cases(files), "encode": encode_cases(), "audio": audio_cases(),
           "datasets": dataset_cases()}
    np.savez_compressed(os.path.join(OUT, "tf.npz"), **{k.replace("/", "|"): v for k, v in ARRAYS.items()})
    with open(os.path.join(OUT, "tf.json"), "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=1, sort_keys=True, default=str)
    print(f"wrote {len(ARRAYS)} arrays, {sum(len(v) for k, v in doc.items() if isinstance(v, dict))} cases")


if __name__ == "__main__":
    main()
