"""``tf.io``'s image codecs, as TensorFlow's ``DecodeImageV2`` kernel defines them: one decoder that
sniffs the format from the first bytes (JPEG, PNG, GIF, BMP), whichever op is called, and the op
deciding the shape (``decode_gif`` 4-D, the others 3-D), the channels and the dtype. JPEG, PNG and GIF
go through Pillow (an optional extra, ``pip install 'tapegrad[image]'``, imported on first use), except
baseline and progressive JPEGs (``_image_jpeg``, libjpeg's integer arithmetic ported); GIF, BMP,
``encode_png``, ``is_jpeg`` and ``extract_jpeg_shape`` are NumPy and ``zlib`` only.

>>> import tapegrad as tf
>>> img = tf.constant([[[0, 128, 255], [10, 20, 30]]], tf.uint8)
>>> png = tf.io.encode_png(img)
>>> tf.io.decode_png(png).numpy().tolist()
[[[0, 128, 255], [10, 20, 30]]]
>>> tf.io.decode_image(png, dtype=tf.float32).shape
TensorShape([1, 2, 3])
"""
from __future__ import annotations

import io as _io
import struct
import zlib
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._convert import convert_to_tensor
from .._tensor import Tensor
from ..errors import InvalidArgumentError

__all__ = ["decode_and_crop_jpeg", "decode_bmp", "decode_gif", "decode_image", "decode_jpeg", "decode_png",
           "encode_jpeg", "encode_png", "extract_jpeg_shape", "is_jpeg"]

_JPEG, _PNG, _GIF, _BMP = b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"GIF8", b"BM"


def _pil() -> Any:
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("Decoding and encoding JPEG, PNG and GIF images needs Pillow, tapegrad's optional "
                          "image extra: pip install 'tapegrad[image]' (or pip install pillow).") from None
    return Image


def _contents(contents: Any, what: str) -> bytes:
    t = convert_to_tensor(contents)
    if t.dtype != _dt.string:
        raise TypeError(f"{what}: `contents` must be a string tensor (the file's bytes, e.g. tf.io.read_file(path)), "
                        f"got {t.dtype.name}.")
    a = t.numpy()
    if np.ndim(a):
        raise InvalidArgumentError(f"`contents` must be scalar but got shape{list(np.shape(a))}")
    data = bytes(a)
    if not data:
        raise InvalidArgumentError("Input is empty.")
    return data


def _channels(channels: Any) -> int:
    c = 0 if channels is None else int(channels)
    if c not in (0, 1, 3, 4):
        raise InvalidArgumentError(f"`channels` must be 0, 1, 3 or 4 but got {c}")
    return c


def _to_dtype(a: np.ndarray, bits: int, dtype: Any) -> np.ndarray:
    """TensorFlow's conversion of a decoded ``uint8``/``uint16`` buffer to ``dtype``."""
    if dtype == _dt.uint8:
        return a
    if dtype == _dt.uint16:
        return a if bits == 16 else a.astype(np.uint16) * np.uint16(256)
    return a.astype(np.float32) * np.float32(1.0 / (65535 if bits == 16 else 255))


# -- JPEG (Pillow: libjpeg(-turbo))
def _jpeg(data: bytes, channels: int, ratio: int = 1, fancy_upscaling: bool = True,
          try_recover_truncated: bool = False, fast: bool = True) -> np.ndarray:
    if channels == 4:
        raise InvalidArgumentError("JPEG does not support 4 channels")
    if ratio == 1:  # libjpeg's integer IDCTs, ported: TensorFlow's pixels
        from ._image_jpeg import decode
        a = decode(data, channels, fast=fast, fancy=fancy_upscaling)
        if a is not None:
            return a
    image = _pil()
    try:
        img = image.open(_io.BytesIO(data))
    except Exception:
        raise InvalidArgumentError("jpeg::Uncompress failed. Invalid JPEG data or crop window.") from None
    if img.mode not in ("L", "RGB"):
        raise NotImplementedError(f"tapegrad decodes grayscale and YCbCr/RGB JPEGs; this one is {img.mode} "
                                  "(convert it with Pillow first).")
    if not fancy_upscaling and img.mode == "RGB":
        from PIL import JpegImagePlugin
        if JpegImagePlugin.get_sampling(img) not in (0, -1):
            raise NotImplementedError("fancy_upscaling=False is not available: Pillow's JPEG decoder always "
                                      "uses libjpeg's fancy upsampling of chroma-subsampled images.")
    w, h = img.size
    want = -(-w // ratio), -(-h // ratio)
    mode = "L" if channels == 1 else None
    if mode or ratio > 1:
        img.draft(mode, (max(1, w // ratio), max(1, h // ratio)) if ratio > 1 else None)
        if img.size != want:
            raise NotImplementedError(f"ratio={ratio}: Pillow cannot scale a {w}x{h} JPEG by 1/{ratio}.")
    try:
        img.load()
    except OSError:
        if try_recover_truncated:
            raise NotImplementedError("try_recover_truncated=True: Pillow cannot recover a truncated JPEG "
                                      "with TensorFlow's acceptable_fraction rule.") from None
        raise InvalidArgumentError("jpeg::Uncompress failed. Invalid JPEG data or crop window.") from None
    if channels == 3 and img.mode == "L":
        img = img.convert("RGB")
    a = np.asarray(img, np.uint8)
    return a[..., None] if a.ndim == 2 else a


# -- PNG (Pillow: zlib), converted as libpng does for TensorFlow's png_io
def _png(data: bytes, channels: int, bits: int) -> np.ndarray:
    image = _pil()
    try:
        img = image.open(_io.BytesIO(data))
        img.load()
    except Exception:
        raise InvalidArgumentError(f"Invalid PNG data, size {len(data)}") from None
    depth, trns = _png_bit_depth(data), img.info.get("transparency")
    if img.mode == "P":  # a palette becomes RGB, or RGBA with its tRNS; tRNS on gray or RGB makes the
        # alpha channel only when four channels are asked for
        img, trns = img.convert("RGBA" if trns is not None else "RGB"), None
    elif img.mode == "1":
        img = img.convert("L")
    elif depth == 16 and img.mode != "L" and not img.mode.startswith("I"):
        raise NotImplementedError("16-bit colour PNGs are not decoded: Pillow reads them as 8-bit. Convert the "
                                  "file to 8-bit, or to 16-bit grayscale.")
    src = 16 if depth == 16 else 8
    top = (1 << src) - 1
    a: np.ndarray = np.asarray(img).astype(np.uint16 if src == 16 else np.uint8)
    if a.ndim == 2:
        a = a[..., None]
    c = a.shape[-1]
    key = None if trns is None or c not in (1, 3) else np.asarray(trns if isinstance(trns, tuple) else (trns,))
    if channels not in (0, c):
        if c in (2, 4) and channels != 4:  # libpng strips alpha, no compositing
            a, c = a[..., :c - 1], c - 1
        if channels == 1 and c == 3:  # png_set_rgb_to_gray(0.299, 0.587), truncated
            w = np.array([9797, 19234, 32768 - 9797 - 19234], np.int64)
            a, c = ((a.astype(np.int64) @ w) >> 15).astype(a.dtype)[..., None], 1
        if channels == 4 and key is not None:  # png_set_tRNS_to_alpha
            alpha = np.where(np.all(a == key.astype(a.dtype), -1), 0, top).astype(a.dtype)
            a, c = np.concatenate([a, alpha[..., None]], -1), c + 1
        if c in (1, 2) and channels in (3, 4):
            a = np.concatenate([a[..., :1]] * 3 + ([a[..., 1:]] if c == 2 else []), -1)
            c += 2
        if channels == 4 and c == 3:  # libpng's filler holds the file's bit depth: 1 for a 1-bit file
            fill = min(top, (1 << depth) - 1)
            a = np.concatenate([a, np.full(a.shape[:2] + (1,), fill, a.dtype)], -1)
    if bits == 16 and src == 8:
        return a.astype(np.uint16) * np.uint16(257)
    if bits == 8 and src == 16:
        return (a.astype(np.uint16) >> np.uint16(8)).astype(np.uint8)
    return a


def _png_bit_depth(data: bytes) -> int:
    return data[24] if len(data) > 24 else 8


# -- GIF (NumPy: TensorFlow's gif_io over giflib's slurp; disposal methods are not applied)
def _gif(data: bytes, channels: int, expand: bool) -> np.ndarray:
    if channels not in (0, 3):
        raise InvalidArgumentError(f"channels must be 0 or 3 for GIF, got {channels}")
    try:
        frames = _gif_frames(data)
    except (ValueError, IndexError, struct.error) as e:
        raise InvalidArgumentError(f"Invalid GIF data (size {len(data)}), {e}") from None
    width, height = max(f[2] for f in frames), max(f[3] for f in frames)  # TensorFlow's canvas
    out = np.zeros((len(frames) if expand else 1, height, width, 3), np.uint8)
    for k in range(len(out)):
        left, top, w, h, idx, cmap, transparent = frames[k]
        if k:
            out[k] = out[k - 1]
        if cmap is None:
            raise InvalidArgumentError(f"Invalid GIF data (size {len(data)}), missing color map for frame {k}")
        r0, r1, c0, c1 = max(top, 0), min(top + h, height), max(left, 0), min(left + w, width)
        if r0 >= r1 or c0 >= c1:
            continue
        sub = idx[r0 - top:r1 - top, c0 - left:c1 - left]
        keep = sub == transparent
        if np.any(sub[~keep] >= len(cmap)):
            raise InvalidArgumentError(f"Invalid GIF data (size {len(data)}), found color index "
                                       f"{int(sub[~keep].max())} outside of color map range {len(cmap)}")
        px = cmap[np.minimum(sub, len(cmap) - 1)]
        region = out[k, r0:r1, c0:c1]
        region[~keep] = px[~keep]
    return out


# -- BMP (NumPy: TensorFlow reads the pixel array at the header's offset, BGR(A) rows bottom-up)
def _bmp(data: bytes, channels: int) -> np.ndarray:
    if channels == 1:
        raise InvalidArgumentError(f"`channels` must be 0, 3 or 4 for BMP, but got {channels}")
    if len(data) < 32:
        raise InvalidArgumentError("Incomplete bmp content, requires at least 32 bytes to find the header size, "
                                   f"width, height, and bpp, got {len(data)} bytes")
    offset, = struct.unpack_from("<i", data, 10)
    width, height = struct.unpack_from("<ii", data, 18)
    bpp, = struct.unpack_from("<h", data, 28)
    c = bpp // 8
    if c not in (1, 3, 4):
        raise InvalidArgumentError(f"Number of channels inherent in the image must be 1, 3 or 4, was {c}")
    if width <= 0:
        raise InvalidArgumentError("Width must be positive")
    if height == 0:
        raise InvalidArgumentError("Height must be nonzero")
    if offset < 0:
        raise InvalidArgumentError("header size must be nonnegative")
    row = (c * width + 3) // 4 * 4
    diff = len(data) - offset - row * abs(height)
    if diff:
        raise InvalidArgumentError("Input size should match (header_size + row_size * abs_height) but they "
                                   f"differ by {diff}")
    px = np.frombuffer(data, np.uint8, row * abs(height), offset).reshape(abs(height), row)[:, :c * width]
    px = px.reshape(abs(height), width, c)
    if height > 0:
        px = px[::-1]
    want = channels or c
    if c == 1:
        out = np.repeat(px, 3, -1) if want > 1 else px
    else:
        out = px[..., [2, 1, 0] + ([3] if c == 4 and want == 4 else [])]
    if want == 4 and out.shape[-1] == 3:
        out = np.concatenate([out, np.full(out.shape[:2] + (1,), 255, np.uint8)], -1)
    return np.ascontiguousarray(out)


def _decode(data: bytes, op: str, channels: int = 0, dtype: Any = _dt.uint8, expand: bool = True,
            **jpeg: Any) -> np.ndarray:
    """TensorFlow's DecodeImageV2 kernel: the format from the magic bytes, the shape from the op."""
    if data.startswith(_JPEG):
        if op == "DecodeBmp":
            raise InvalidArgumentError("Trying to decode JPEG format using DecodeBmp op. Use `decode_jpeg` or "
                                       "`decode_image` instead.")
        a, bits = _jpeg(data, channels, **jpeg), 8
        a = a[None] if op == "DecodeGif" else a
    elif data.startswith(_PNG):
        if op == "DecodeBmp":
            raise InvalidArgumentError("Trying to decode PNG format using DecodeBmp op. Use `decode_png` or "
                                       "`decode_image` instead.")
        bits = 8 if dtype == _dt.uint8 else 16
        a = _png(data, channels, bits)
        a = a[None] if op == "DecodeGif" else a
    elif data.startswith(_GIF):
        if op == "DecodeBmp":
            raise InvalidArgumentError("Trying to decode GIF format using DecodeBmp op. Use `decode_gif` or "
                                       "`decode_image` instead.")
        a, bits = _gif(data, channels, op == "DecodeGif" or expand), 8
        if op in ("DecodePng", "DecodeJpeg"):
            if len(a) != 1:
                raise InvalidArgumentError(f"Got {len(a)} frames, but animated gifs can only be decoded by "
                                           "tf.io.decode_gif or tf.io.decode_image")
            a = a[0]
        elif op == "DecodeImage" and not expand:
            a = a[0]
    elif data.startswith(_BMP):
        if op not in ("DecodeBmp", "DecodeImage"):
            raise InvalidArgumentError("Trying to decode BMP format using a wrong op. Use `decode_bmp` or "
                                       f"`decode_image` instead. Op used: {op}")
        a, bits = _bmp(data, channels), 8
    else:
        raise InvalidArgumentError("Unknown image file format. One of JPEG, PNG, GIF, BMP required.")
    return _to_dtype(a, bits, dtype)


def _jpeg_flags(ratio: int, fancy_upscaling: bool, try_recover_truncated: bool, acceptable_fraction: float,
                dct_method: str) -> dict:
    if ratio not in (1, 2, 4, 8):
        raise InvalidArgumentError(f"ratio must be 1, 2, 4, or 8, got {ratio}")
    if dct_method not in ("", "INTEGER_FAST", "INTEGER_ACCURATE"):
        raise InvalidArgumentError("dct_method must be one of {'', 'INTEGER_FAST', 'INTEGER_ACCURATE'}")
    return {"ratio": int(ratio), "fancy_upscaling": bool(fancy_upscaling),
            "try_recover_truncated": bool(try_recover_truncated), "fast": dct_method != "INTEGER_ACCURATE"}


def decode_jpeg(contents: Any, channels: int = 0, ratio: int = 1, fancy_upscaling: bool = True,
                try_recover_truncated: bool = False, acceptable_fraction: float = 1, dct_method: str = "",
                name: str | None = None) -> Tensor:
    """A JPEG file's pixels, ``uint8`` ``[height, width, channels]`` (TensorFlow's ``tf.io.decode_jpeg``).

    ``channels``: 0 (as in the file), 1 (libjpeg's grayscale output) or 3 (RGB). ``ratio`` 1, 2, 4 or 8
    decodes at that fraction of the size (libjpeg's scaled IDCT). Like TensorFlow's kernel, it also decodes
    PNG and single-frame GIF files. Baseline and progressive files are decoded by tapegrad's port of
    libjpeg's integer paths, giving TensorFlow's pixels: ``dct_method`` '' and 'INTEGER_FAST'
    (TensorFlow's default, the fast DCT) or 'INTEGER_ACCURATE', with ``fancy_upscaling`` or libjpeg's
    merged (repeating) upsampling; ``ratio`` > 1 and other files go through Pillow's libjpeg, where
    ``fancy_upscaling=False`` on a chroma-subsampled file and the recovery of a truncated file
    (``try_recover_truncated``) raise ``NotImplementedError``: Pillow cannot do them.

    >>> import tapegrad as tf
    >>> jpg = tf.io.encode_jpeg(tf.fill([8, 8, 3], tf.constant(200, tf.uint8)))
    >>> img = tf.io.decode_jpeg(jpg)
    >>> img.shape, img.dtype.name, int(img[0, 0, 0])
    (TensorShape([8, 8, 3]), 'uint8', 200)
    """
    flags = _jpeg_flags(ratio, fancy_upscaling, try_recover_truncated, acceptable_fraction, dct_method)
    a = _decode(_contents(contents, "decode_jpeg"), "DecodeJpeg", _channels(channels), **flags)
    return convert_to_tensor(a, dtype=_dt.uint8)


def decode_and_crop_jpeg(contents: Any, crop_window: Any, channels: int = 0, ratio: int = 1,
                         fancy_upscaling: bool = True, try_recover_truncated: bool = False,
                         acceptable_fraction: float = 1, dct_method: str = "", name: str | None = None) -> Tensor:
    """``decode_jpeg`` followed by a crop to ``crop_window`` = ``[y, x, height, width]`` (JPEG files only).

    >>> import tapegrad as tf
    >>> jpg = tf.io.encode_jpeg(tf.zeros([8, 8, 1], tf.uint8))
    >>> tf.io.decode_and_crop_jpeg(jpg, [2, 1, 3, 4]).shape
    TensorShape([3, 4, 1])
    """
    data = _contents(contents, "decode_and_crop_jpeg")
    win = np.asarray(convert_to_tensor(crop_window).numpy())
    if win.ndim != 1:
        raise InvalidArgumentError(f"crop_window must be 1-D, got shape {list(win.shape)}")
    if win.shape[0] != 4:
        raise InvalidArgumentError(f"crop_size must have four elements {list(win.shape)}")
    if not data.startswith(_JPEG):
        kind = "PNG" if data.startswith(_PNG) else "GIF" if data.startswith(_GIF) else "BMP" \
            if data.startswith(_BMP) else None
        if kind is None:
            raise InvalidArgumentError("Unknown image file format. One of JPEG, PNG, GIF, BMP required.")
        raise InvalidArgumentError(f"DecodeAndCropJpeg operation can run on JPEG only, but detected {kind}.")
    flags = _jpeg_flags(ratio, fancy_upscaling, try_recover_truncated, acceptable_fraction, dct_method)
    c = _channels(channels)
    y, x, h, w = (int(v) for v in win)
    size = extract_jpeg_shape(data).numpy()
    if y < 0 or x < 0 or h <= 0 or w <= 0 or y + h > -(-size[0] // ratio) or x + w > -(-size[1] // ratio):
        raise InvalidArgumentError("jpeg::Uncompress failed. Invalid JPEG data or crop window.")
    if ratio == 1 and c != 4:
        from ._image_jpeg import decode
        a = decode(data, c, (y, x, h, w), fast=flags["fast"], fancy=fancy_upscaling)
        if a is not None:
            return convert_to_tensor(a, dtype=_dt.uint8)
    a = _decode(data, "DecodeAndCropJpeg", c, **flags)
    return convert_to_tensor(np.ascontiguousarray(a[y:y + h, x:x + w]), dtype=_dt.uint8)


def decode_png(contents: Any, channels: int = 0, dtype: Any = _dt.uint8, name: str | None = None) -> Tensor:
    """A PNG file's pixels, ``[height, width, channels]`` of ``uint8`` or ``uint16`` (``tf.io.decode_png``).

    ``channels`` 0 (as in the file: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA; a palette becomes RGB, or RGBA
    with transparency), 1, 3 or 4, converted as libpng does for TensorFlow: alpha dropped, not composited;
    RGB to gray with libpng's weights; gray copied to RGB; an opaque alpha added. 8-bit files read as
    ``uint16`` are scaled by 257, 16-bit files read as ``uint8`` keep the high byte. Like TensorFlow's
    kernel, it also decodes JPEG and single-frame GIF files.

    >>> import tapegrad as tf
    >>> png = tf.io.encode_png(tf.constant([[[255, 0, 0]]], tf.uint8))
    >>> tf.io.decode_png(png, channels=4).numpy().tolist()
    [[[255, 0, 0, 255]]]
    >>> tf.io.decode_png(png, dtype=tf.uint16).numpy().tolist()
    [[[65535, 0, 0]]]
    """
    dt = _dt.as_dtype(dtype)
    if dt not in (_dt.uint8, _dt.uint16):
        raise InvalidArgumentError(f"`dtype` for `DecodePng` must be unit8, unit16 but got: {dt.name}")
    return convert_to_tensor(_decode(_contents(contents, "decode_png"), "DecodePng", _channels(channels), dt),
                             dtype=dt)


def decode_gif(contents: Any, name: str | None = None) -> Tensor:
    """A GIF file's frames, ``uint8`` ``[num_frames, height, width, 3]`` (``tf.io.decode_gif``), composed
    as TensorFlow does: each frame drawn over the previous one (its transparent index keeping what was
    there, black on the first frame), disposal methods not applied, the canvas as large as the largest
    frame. JPEG and PNG files give one frame.

    >>> import io, numpy as np, PIL.Image, tapegrad as tf
    >>> buf = io.BytesIO()
    >>> frames = [PIL.Image.fromarray(np.full((2, 3, 3), v, np.uint8)) for v in (0, 255)]
    >>> frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:])
    >>> tf.io.decode_gif(buf.getvalue()).shape
    TensorShape([2, 2, 3, 3])
    """
    return convert_to_tensor(_decode(_contents(contents, "decode_gif"), "DecodeGif", 3), dtype=_dt.uint8)


def decode_bmp(contents: Any, channels: int = 0, name: str | None = None) -> Tensor:
    """An uncompressed BMP file's pixels, ``uint8`` ``[height, width, channels]`` (``tf.io.decode_bmp``):
    8-, 24- and 32-bit files, read as TensorFlow reads them (8-bit values as gray, whatever the palette;
    BGR(A) to RGB(A)). ``channels`` 0 (as in the file), 3 or 4.

    >>> import io, numpy as np, PIL.Image, tapegrad as tf
    >>> buf = io.BytesIO()
    >>> PIL.Image.fromarray(np.array([[[1, 2, 3]]], np.uint8)).save(buf, format="BMP")
    >>> tf.io.decode_bmp(buf.getvalue(), channels=4).numpy().tolist()
    [[[1, 2, 3, 255]]]
    """
    return convert_to_tensor(_decode(_contents(contents, "decode_bmp"), "DecodeBmp", _channels(channels)),
                             dtype=_dt.uint8)


def decode_image(contents: Any, channels: int | None = None, dtype: Any = _dt.uint8, name: str | None = None,
                 expand_animations: bool = True) -> Tensor:
    """A BMP, GIF, JPEG or PNG file's pixels, the format found from its first bytes
    (``tf.io.decode_image``): ``[height, width, channels]``, or ``[frames, height, width, 3]`` for a GIF
    unless ``expand_animations=False`` (then its first frame). ``dtype`` ``uint8``, ``uint16`` or
    ``float32`` (in [0, 1]: ``uint8`` values times 1/255, 16-bit PNG values times 1/65535).

    >>> import tapegrad as tf
    >>> png = tf.io.encode_png(tf.constant([[[0], [255]]], tf.uint8))
    >>> tf.io.decode_image(png, channels=3, dtype=tf.float32).numpy().tolist()
    [[[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]]
    """
    dt = _dt.as_dtype(dtype)
    if dt not in (_dt.uint8, _dt.uint16, _dt.float32):
        raise InvalidArgumentError(f"`dtype` for `DecodeImage` must be unit8, unit16, float but got: {dt.name}")
    a = _decode(_contents(contents, "decode_image"), "DecodeImage", _channels(channels), dt, bool(expand_animations))
    return convert_to_tensor(a, dtype=dt)


def is_jpeg(contents: Any, name: str | None = None) -> Tensor:
    """Whether ``contents`` starts with JPEG's bytes ``FF D8 FF`` (a ``bool`` scalar, ``tf.io.is_jpeg``).

    >>> import tapegrad as tf
    >>> bool(tf.io.is_jpeg(b"\\xff\\xd8\\xff\\xe0")), bool(tf.io.is_jpeg(b"\\x89PNG"))
    (True, False)
    """
    t = convert_to_tensor(contents)
    if t.dtype != _dt.string:
        raise TypeError(f"is_jpeg: `contents` must be a string tensor, got {t.dtype.name}.")
    return convert_to_tensor(np.vectorize(lambda s: bytes(s)[:3] == _JPEG, otypes=[bool])(t.numpy()))


def extract_jpeg_shape(contents: Any, output_type: Any = _dt.int32, name: str | None = None) -> Tensor:
    """``[height, width, channels]`` of a JPEG file, read from its frame header without decoding.

    >>> import tapegrad as tf
    >>> tf.io.extract_jpeg_shape(tf.io.encode_jpeg(tf.zeros([5, 7, 3], tf.uint8))).numpy().tolist()
    [5, 7, 3]
    """
    data = _contents(contents, "extract_jpeg_shape")
    dt = _dt.as_dtype(output_type)
    if dt not in (_dt.int32, _dt.int64):
        raise TypeError(f"extract_jpeg_shape: output_type must be int32 or int64, got {dt.name}.")
    i = 2
    if data.startswith(_JPEG):
        while i + 4 <= len(data):
            if data[i] != 0xFF:
                break
            marker = data[i + 1]
            if marker == 0xFF:
                i += 1
                continue
            size, = struct.unpack_from(">H", data, i + 2)
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC) and i + 10 <= len(data):
                h, w = struct.unpack_from(">HH", data, i + 5)
                return convert_to_tensor(np.array([h, w, data[i + 9]], dt.as_numpy_dtype), dtype=dt)
            i += 2 + size
    raise InvalidArgumentError("Invalid JPEG data or crop window.")


def encode_jpeg(image: Any, format: str = "", quality: int = 95, progressive: bool = False,  # noqa: A002
                optimize_size: bool = False, chroma_downsampling: bool = True, density_unit: str = "in",
                x_density: int = 300, y_density: int = 300, xmp_metadata: str = "",
                name: str | None = None) -> Tensor:
    """A ``uint8`` ``[height, width, channels]`` image (1 or 3 channels) as JPEG bytes
    (``tf.io.encode_jpeg``, through Pillow's libjpeg): ``format`` '' (from the channels), 'grayscale' or
    'rgb'; ``quality`` 0-100; ``progressive``; ``optimize_size``; ``chroma_downsampling`` (4:2:0, else
    4:4:4); the JFIF density in dots per inch (``density_unit='cm'`` raises: Pillow writes inches only);
    ``xmp_metadata``. The bytes differ from TensorFlow's; the pixels they decode to are libjpeg's for the
    same settings.

    >>> import tapegrad as tf
    >>> jpg = tf.io.encode_jpeg(tf.zeros([4, 4, 3], tf.uint8), quality=80)
    >>> bool(tf.io.is_jpeg(jpg))
    True
    """
    t = convert_to_tensor(image)
    if t.dtype != _dt.uint8:
        raise TypeError(f"encode_jpeg: `image` must be uint8, got {t.dtype.name} (convert it with "
                        "tf.image.convert_image_dtype(image, tf.uint8, saturate=True)).")
    a = np.asarray(t.numpy())
    if a.ndim != 3:
        raise InvalidArgumentError(f"image must be 3-dimensional[{','.join(map(str, a.shape))}]")
    want = {"": a.shape[-1], "grayscale": 1, "rgb": 3}.get(format)
    if want is None:
        raise InvalidArgumentError(f"format must be one of '', 'grayscale', 'rgb', got {format!r}")
    if a.shape[-1] != want or want not in (1, 3):
        raise InvalidArgumentError(f"image must have 1 or 3 channels (as format {format!r} says), got "
                                   f"{a.shape[-1]}")
    if not 0 <= quality <= 100:
        raise InvalidArgumentError(f"quality must be in [0,100], got {quality}")
    if density_unit not in ("in", "cm"):
        raise InvalidArgumentError(f"density_unit must be 'in' or 'cm', got {density_unit!r}")
    if density_unit == "cm":
        raise NotImplementedError("density_unit='cm' is not available: Pillow writes the JFIF density in "
                                  "dots per inch. Pass density_unit='in' and the density in inches.")
    img = _pil().fromarray(a[..., 0] if want == 1 else a, "L" if want == 1 else "RGB")
    buf = _io.BytesIO()
    opts: dict = {"quality": int(quality), "progressive": bool(progressive), "optimize": bool(optimize_size),
                  "subsampling": 2 if chroma_downsampling else 0, "dpi": (int(x_density), int(y_density))}
    if xmp_metadata:
        opts["xmp"] = xmp_metadata.encode() if isinstance(xmp_metadata, str) else bytes(xmp_metadata)
    img.save(buf, format="JPEG", **opts)
    return convert_to_tensor(np.array(buf.getvalue(), dtype=object), dtype=_dt.string)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def encode_png(image: Any, compression: int = -1, name: str | None = None) -> Tensor:
    """A ``uint8`` or ``uint16`` ``[height, width, channels]`` image (1 to 4 channels: gray, gray+alpha,
    RGB, RGBA) as PNG bytes (``tf.io.encode_png``); ``compression`` -1 (zlib's default) to 9. Written by
    tapegrad with ``zlib`` (no Pillow needed): the bytes differ from libpng's, the pixels are the same.

    >>> import tapegrad as tf
    >>> png = tf.io.encode_png(tf.constant([[[1000]]], tf.uint16))
    >>> tf.io.decode_png(png, dtype=tf.uint16).numpy().tolist()
    [[[1000]]]
    """
    t = convert_to_tensor(image)
    if t.dtype not in (_dt.uint8, _dt.uint16):
        raise TypeError(f"encode_png: `image` must be uint8 or uint16, got {t.dtype.name}.")
    a = np.asarray(t.numpy())
    if a.ndim != 3:
        raise InvalidArgumentError(f"image must be 3-dimensional[{','.join(map(str, a.shape))}]")
    h, w, c = a.shape
    if c not in (1, 2, 3, 4):
        raise InvalidArgumentError(f"image must have 1, 2, 3, or 4 channels, got {c}")
    if not -1 <= compression <= 9:
        raise InvalidArgumentError(f"compression should be in [-1,9], got {compression}")
    bits = 16 if t.dtype == _dt.uint16 else 8
    rows = np.ascontiguousarray(a.astype(">u2") if bits == 16 else a).reshape(h, -1)
    raw = np.concatenate([np.zeros((h, 1), np.uint8), rows.view(np.uint8).reshape(h, -1)], 1).tobytes()
    kind = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    out = (_PNG + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bits, kind, 0, 0, 0))
           + _chunk(b"IDAT", zlib.compress(raw, compression)) + _chunk(b"IEND", b""))
    return convert_to_tensor(np.array(out, dtype=object), dtype=_dt.string)


def _lzw(data: bytes, min_size: int, count: int) -> bytes:
    """GIF's LZW-coded pixel indices, ``count`` of them."""
    clear, end = 1 << min_size, (1 << min_size) + 1
    table = [bytes([i]) for i in range(clear)] + [b"", b""]
    size, out, prev = min_size + 1, bytearray(), None
    b = np.concatenate([np.frombuffer(data, np.uint8), np.zeros(3, np.uint8)]).astype(np.int64)
    w24 = (b[:-2] | (b[1:-1] << 8) | (b[2:] << 16)).tolist()  # little-endian windows per byte
    pos, total = 0, len(data) * 8
    while pos + size <= total and len(out) < count:
        code = (w24[pos >> 3] >> (pos & 7)) & ((1 << size) - 1)
        pos += size
        if code == clear:
            table, size, prev = table[:clear + 2], min_size + 1, None
            continue
        if code == end:
            break
        if code < len(table):
            entry = table[code]
            if prev is not None:
                table.append(prev + entry[:1])
        elif prev is not None and code == len(table):
            entry = prev + prev[:1]
            table.append(entry)
        else:
            raise ValueError(f"bad LZW code {code}")
        out += entry
        prev = entry
        if len(table) == (1 << size) and size < 12:
            size += 1
    if len(out) < count:
        raise ValueError("image data ended too soon")
    return bytes(out[:count])


def _gif_frames(data: bytes) -> list:
    """giflib's slurp of a GIF: per image ``(left, top, width, height, indices, colour map, transparent)``."""
    if len(data) < 13:
        raise ValueError("the file is too short")
    packed = data[10]
    pos = 13
    gct = None
    if packed & 0x80:
        n = 2 << (packed & 7)
        gct = np.frombuffer(data, np.uint8, 3 * n, pos).reshape(n, 3)
        pos += 3 * n
    frames, transparent = [], -1
    while pos < len(data):
        kind = data[pos]
        if kind == 0x3B:
            break
        if kind == 0x21:
            label, pos = data[pos + 1], pos + 2
            blocks = []
            while data[pos]:
                blocks.append(data[pos + 1:pos + 1 + data[pos]])
                pos += 1 + data[pos]
            pos += 1
            if label == 0xF9 and blocks and len(blocks[0]) >= 4:
                transparent = blocks[0][3] if blocks[0][0] & 1 else -1
        elif kind == 0x2C:
            left, top, w, h, p = struct.unpack_from("<HHHHB", data, pos + 1)
            pos += 10
            cmap = gct
            if p & 0x80:
                n = 2 << (p & 7)
                cmap = np.frombuffer(data, np.uint8, 3 * n, pos).reshape(n, 3)
                pos += 3 * n
            min_size, pos = data[pos], pos + 1
            chunks = []
            while data[pos]:
                chunks.append(data[pos + 1:pos + 1 + data[pos]])
                pos += 1 + data[pos]
            pos += 1
            idx = np.frombuffer(_lzw(b"".join(chunks), min_size, w * h), np.uint8).reshape(h, w)
            if p & 0x40:  # interlaced rows: 0, 8, ...; 4, 12, ...; 2, 6, ...; 1, 3, ...
                order = np.concatenate([np.arange(s, h, st) for s, st in ((0, 8), (4, 8), (2, 4), (1, 2))])
                deint = np.empty_like(idx)
                deint[order] = idx
                idx = deint
            frames.append((left, top, w, h, idx, cmap, transparent))
            transparent = -1
        else:
            raise ValueError(f"unknown block 0x{kind:02x}")
    if not frames:
        raise ValueError("gif file does not contain any image")
    return frames
