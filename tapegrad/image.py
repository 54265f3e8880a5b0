"""``tapegrad.image``: image ops (TensorFlow's ``tf.image``), on ``[height, width, channels]`` or
``[batch, height, width, channels]`` tensors, with TensorFlow's numbers and dtypes.

Resizing is linear in the image: each method builds one small weight matrix per axis (TF2's
half-pixel-centre sampling; bicubic with TensorFlow's 1024-entry Keys table; area boxes; the
antialiasing kernels of ``scale_and_translate``) and applies them as two matrix products, so gradients
come from the tape (nearest neighbour is a ``gather``). Flips, crops, pads, colour adjustments and
statistics are compositions of tapegrad ops, differentiable wherever they are continuous.
Loads on first use of ``tapegrad.image``.

>>> import tapegrad as tf
>>> img = tf.reshape(tf.range(4, dtype=tf.float32), [2, 2, 1])
>>> tf.image.resize(img, [3, 3])[..., 0].numpy().round(4)
array([[0. , 0.5, 1. ],
       [1. , 1.5, 2. ],
       [2. , 2.5, 3. ]], dtype=float32)
"""
from __future__ import annotations

import collections as _collections
import enum
import typing as _typing
from typing import Any

import numpy as np

from . import dtypes as _dt
from . import _philox, random as _random
from ._boxes import (combined_non_max_suppression, crop_and_resize, draw_bounding_boxes, non_max_suppression,
                     non_max_suppression_overlaps, non_max_suppression_padded, non_max_suppression_with_scores)
from ._convert import as_tensor, host_value
from ._tensor import Tensor, constant_maker, wrap as _wrap
from .errors import InvalidArgumentError
from .io._image import (decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image, decode_jpeg, decode_png,
                        encode_jpeg, encode_png, extract_jpeg_shape, is_jpeg)
from .ops.conv import avg_pool, extract_patches
from .ops.nn import relu
from .ops.random import kernel_draw
from .ops.array import concat, expand_dims, pad, reshape, reverse, squeeze, stack, tile, transpose
from .ops.indexing import gather
from .ops.linalg import matmul, tensordot
from .ops.math import (abs as _abs, add, add_n as add_n_, cast, clip_by_value, floormod, maximum, minimum, pow,
                       saturate_cast, truediv, where)
from .ops.math import log as _log
from .ops.reduction import reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_std, reduce_sum
from .ops.special import round as _round

__all__ = ["ResizeMethod", "resize", "resize_with_pad", "resize_with_crop_or_pad", "flip_left_right",
           "flip_up_down", "random_flip_left_right", "random_flip_up_down", "transpose", "rot90",
           "central_crop", "crop_to_bounding_box", "pad_to_bounding_box", "random_crop",
           "per_image_standardization", "adjust_brightness", "adjust_contrast", "adjust_gamma",
           "adjust_saturation", "adjust_hue", "rgb_to_grayscale", "grayscale_to_rgb", "rgb_to_hsv",
           "hsv_to_rgb", "convert_image_dtype", "image_gradients", "total_variation", "psnr", "ssim", "ssim_multiscale", "sample_distorted_bounding_box",
           "stateless_sample_distorted_bounding_box",
           "stateless_random_crop", "stateless_random_flip_left_right", "stateless_random_flip_up_down",
           "random_brightness", "stateless_random_brightness", "random_contrast", "stateless_random_contrast",
           "random_saturation", "stateless_random_saturation", "random_hue", "stateless_random_hue",
           "rgb_to_yiq", "yiq_to_rgb", "rgb_to_yuv", "yuv_to_rgb", "sobel_edges",
           "decode_and_crop_jpeg", "decode_bmp", "decode_gif", "decode_image", "decode_jpeg", "decode_png",
           "encode_jpeg", "encode_png", "extract_jpeg_shape", "is_jpeg", "extract_patches", "non_max_suppression",
           "non_max_suppression_with_scores", "non_max_suppression_overlaps", "non_max_suppression_padded",
           "combined_non_max_suppression", "crop_and_resize", "draw_bounding_boxes"]

_transpose = transpose


class ResizeMethod(str, enum.Enum):
    """The resize methods, as TensorFlow's ``tf.image.ResizeMethod`` (the values are the strings)."""
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


def _image(image: Any, what: str) -> Tensor:
    x = as_tensor(image)
    if x._value.ndim not in (3, 4):
        raise ValueError(f"{what}: 'image' (shape {list(x._value.shape)}) must have either 3 or 4 "
                         f"dimensions: [height, width, channels] or [batch, height, width, channels].")
    return x


def _batched(x: Tensor) -> tuple[Tensor, bool]:
    return (x, True) if x._value.ndim == 4 else (expand_dims(x, 0), False)


def _unbatch(x: Tensor, was_batch: bool) -> Tensor:
    return x if was_batch else squeeze(x, [0])


# ---- resampling weights: out = W @ in along one axis, W of shape [out_size, in_size] ----------

def _bilinear_taps(n_in: int, n_out: int) -> tuple:
    """TF's ResizeBilinear sampling (half-pixel centres): each output's lower and upper source
    index and the float32 weight of the upper one."""
    scale = np.float32(n_in) / np.float32(n_out)
    pos = (np.arange(n_out, dtype=np.float32) + np.float32(0.5)) * scale - np.float32(0.5)
    low = np.floor(pos)
    lo = np.maximum(low, 0).astype(np.int64)
    hi = np.minimum(np.ceil(pos), n_in - 1).astype(np.int64)
    return lo, hi, (pos - low).astype(np.float32)


@constant_maker  # (sampling positions from shapes)
def _bilinear(x: Tensor, new_h: int, new_w: int) -> Tensor:
    """Bilinear resampling with TensorFlow's kernel's arithmetic, term by term in float32
    (``top = tl + (tr - tl) * dx``, ``bottom`` alike, ``top + (bottom - top) * dy``), so values
    that round to a half land on the same side as in TensorFlow; differentiable through the ops."""
    _, h, w, _ = x._value.shape
    ylo, yhi, dy = _bilinear_taps(h, new_h)
    xlo, xhi, dx = _bilinear_taps(w, new_w)
    ylo_t, yhi_t, xlo_t, xhi_t = _wrap(ylo), _wrap(yhi), _wrap(xlo), _wrap(xhi)
    dx_t, dy_t = _wrap(dx.reshape(1, 1, -1, 1)), _wrap(dy.reshape(1, -1, 1, 1))
    top, bottom = gather(x, ylo_t, axis=1), gather(x, yhi_t, axis=1)
    tl, tr = gather(top, xlo_t, axis=2), gather(top, xhi_t, axis=2)
    bl, br = gather(bottom, xlo_t, axis=2), gather(bottom, xhi_t, axis=2)
    t, b = tl + (tr - tl) * dx_t, bl + (br - bl) * dx_t
    return t + (b - t) * dy_t


def _nearest_index(n_in: int, n_out: int) -> np.ndarray:
    scale = np.float32(n_in) / np.float32(n_out)
    pos = np.floor((np.arange(n_out, dtype=np.float32) + np.float32(0.5)) * scale)
    return np.clip(pos, 0, n_in - 1).astype(np.int32)


def _keys_table() -> np.ndarray:
    """TensorFlow's bicubic coefficients (Keys, a = -0.5) at 1025 fractional offsets."""
    a = -0.5
    x = np.arange(1025, dtype=np.float64) / 1024
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    y = x + 1
    far = ((a * y - 5 * a) * y + 8 * a) * y - 4 * a
    return np.stack([near, far], 1).astype(np.float32)


def _bicubic_weights(n_in: int, n_out: int) -> np.ndarray:
    table = _keys_table()
    scale = np.float32(n_in) / np.float32(n_out)
    w = np.zeros((n_out, n_in), np.float32)
    for o in range(n_out):
        pos = (np.float32(o) + np.float32(0.5)) * scale - np.float32(0.5)
        base = int(np.floor(pos))
        off = int(np.rint((pos - np.float32(base)) * np.float32(1024)))
        ws = [table[off, 1], table[off, 0], table[1024 - off, 0], table[1024 - off, 1]]
        idx = [base - 1 + k for k in range(4)]
        ws = [wk if 0 <= i < n_in else np.float32(0) for wk, i in zip(ws, idx)]  # outside: weight 0
        total = np.float32(sum(ws))
        if abs(total) >= 1000 * np.finfo(np.float32).tiny:
            ws = [wk / total for wk in ws]
        for wk, i in zip(ws, idx):
            w[o, min(max(i, 0), n_in - 1)] += wk
    return w


def _area_weights(n_in: int, n_out: int) -> np.ndarray:
    scale = np.float32(n_in) / np.float32(n_out)
    w = np.zeros((n_out, n_in), np.float32)
    for o in range(n_out):
        lo, hi = np.float32(o) * scale, np.float32(o + 1) * scale
        for i in range(int(np.floor(lo)), int(np.ceil(hi))):
            overlap = min(np.float32(i + 1), hi) - max(np.float32(i), lo)
            w[o, min(i, n_in - 1)] += overlap / scale
    return w


def _keys_cubic(x: np.ndarray) -> np.ndarray:
    return np.where(x >= 2, 0, np.where(x >= 1, ((-0.5 * x + 2.5) * x - 4) * x + 2, (1.5 * x - 2.5) * x * x + 1))


def _mitchell(x: np.ndarray) -> np.ndarray:
    return np.where(x >= 2, 0, np.where(x >= 1, ((-7 / 18 * x + 2) * x - 10 / 3) * x + 16 / 9,
                                        (7 / 6 * x - 2) * x * x + 8 / 9))


def _lanczos(radius: float) -> Any:
    def k(x: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            v = radius * np.sin(np.pi * x) * np.sin(np.pi * x / radius) / (np.pi * np.pi * x * x)
        return np.where(x > radius, 0, np.where(x <= 1e-3, 1, v))
    return k


# kernel, radius (TensorFlow's scale_and_translate kernels)
_KERNELS = {
    "triangle": (lambda x: np.maximum(0, 1 - x), 1.0),
    "keyscubic": (_keys_cubic, 2.0),
    "mitchellcubic": (_mitchell, 2.0),
    "lanczos3": (_lanczos(3.0), 3.0),
    "lanczos5": (_lanczos(5.0), 5.0),
    "gaussian": (lambda x: np.where(x >= 1.5, 0, np.exp(-x * x / (2 * 0.5 ** 2))), 1.5),
}


def _kernel_weights(n_in: int, n_out: int, kernel: str, antialias: bool) -> np.ndarray:
    fn, radius = _KERNELS[kernel]
    inv_scale = np.float32(1) / (np.float32(n_out) / np.float32(n_in))
    kscale = max(float(inv_scale), 1.0) if antialias else 1.0
    w = np.zeros((n_out, n_in), np.float32)
    for o in range(n_out):
        centre = (o + 0.5) * float(inv_scale)
        start = min(max(int(np.ceil(centre - radius * kscale - 0.5)), 0), n_in - 1)
        end = min(max(int(np.floor(centre + radius * kscale - 0.5)), 0), n_in - 1) + 1
        src = np.arange(start, end)
        ws = fn(np.abs((src + 0.5 - centre) / kscale)).astype(np.float32)
        total = ws.sum()
        if abs(total) >= 1000 * np.finfo(np.float32).tiny:
            ws = ws / total
        w[o, start:end] = ws
    return w


def _weights(method: str, n_in: int, n_out: int, antialias: bool) -> np.ndarray:
    if method == "bilinear":
        return _kernel_weights(n_in, n_out, "triangle", True)  # (antialiased; plain bilinear: _bilinear)
    if method == "bicubic":
        return _kernel_weights(n_in, n_out, "keyscubic", True) if antialias else _bicubic_weights(n_in, n_out)
    if method == "area":
        return _area_weights(n_in, n_out)
    return _kernel_weights(n_in, n_out, method, antialias)


def _resample(x: Tensor, wy: Tensor, wx: Tensor) -> Tensor:
    """``out[b, y, x, c] = Σ wy[y, h] wx[x, w] in[b, h, w, c]``, as two BLAS matrix products."""
    b, h, w, c = x._value.shape
    ny, nx = wy._value.shape[0], wx._value.shape[0]
    rows = reshape(matmul(wy, reshape(_transpose(x, [1, 0, 2, 3]), [h, b * w * c])), [ny, b, w, c])
    cols = matmul(wx, reshape(_transpose(rows, [2, 0, 1, 3]), [w, ny * b * c]))
    return _transpose(reshape(cols, [nx, ny, b, c]), [2, 1, 0, 3])


def _size(size: Any) -> tuple[int, int]:
    s = np.asarray(host_value(size, "size") if isinstance(size, Tensor) else size)
    if s.shape != (2,) or s.dtype.kind not in "iu":
        raise ValueError(f"'size' must be a 1-D int32 Tensor of 2 elements: new_height, new_width; "
                         f"got {size!r}.")
    if (s <= 0).any():
        raise InvalidArgumentError(f"resize: the new size must be positive, got {s.tolist()}.")
    return int(s[0]), int(s[1])


@constant_maker
def resize(images: Any, size: Any, method: Any = ResizeMethod.BILINEAR, preserve_aspect_ratio: bool = False,
           antialias: bool = False, name: Any = None) -> Tensor:
    """Resize ``images`` to ``size = [new_height, new_width]`` (TF2's half-pixel-centre sampling).

    ``method``: ``"bilinear"`` (default), ``"nearest"``, ``"bicubic"``, ``"area"``,
    ``"lanczos3"``, ``"lanczos5"``, ``"gaussian"``, ``"mitchellcubic"``; ``antialias`` widens the
    bilinear and bicubic kernels when downsampling. With ``preserve_aspect_ratio`` the image
    keeps its aspect ratio and fits inside ``size``. The result is float32, except with
    ``"nearest"``, which keeps the dtype. Differentiable with respect to ``images``.

    >>> import tapegrad as tf
    >>> tf.image.resize(tf.ones([4, 6, 3]), [2, 3]).shape
    TensorShape([2, 3, 3])
    """
    x, batch = _batched(_image(images, "resize"))
    method = ResizeMethod(method).value if isinstance(method, (str, ResizeMethod)) else method
    if method not in {m.value for m in ResizeMethod}:
        raise ValueError(f"Resize method is not implemented: {method!r}; use one of "
                         f"{[m.value for m in ResizeMethod]}.")
    new_h, new_w = _size(size)
    _, h, w, _ = x._value.shape
    if preserve_aspect_ratio:
        f = min(np.float32(new_h) / np.float32(h), np.float32(new_w) / np.float32(w))
        new_h, new_w = int(np.round(f * np.float32(h))), int(np.round(f * np.float32(w)))
    if method == "nearest":
        out = gather(gather(x, _nearest_index(h, new_h), axis=1), _nearest_index(w, new_w), axis=2)
    else:
        if x._value.dtype != np.float32:
            x = cast(x, _dt.float32)
        if method == "bilinear" and not antialias:
            out = _bilinear(x, new_h, new_w)
        else:
            wy, wx = _weights(method, h, new_h, antialias), _weights(method, w, new_w, antialias)
            out = _resample(x, _wrap(wy), _wrap(wx))
    return _unbatch(out, batch)


def _dims(x: Tensor) -> tuple[int, int]:
    return int(x._value.shape[-3]), int(x._value.shape[-2])


def crop_to_bounding_box(image: Any, offset_height: int, offset_width: int, target_height: int,
                         target_width: int) -> Tensor:
    """The ``target_height × target_width`` window whose top-left corner is at
    ``(offset_height, offset_width)``.

    >>> import tapegrad as tf
    >>> img = tf.reshape(tf.range(9), [3, 3, 1])
    >>> tf.image.crop_to_bounding_box(img, 1, 1, 2, 2)[..., 0].numpy()
    array([[4, 5],
           [7, 8]], dtype=int32)
    """
    x = _image(image, "crop_to_bounding_box")
    h, w = _dims(x)
    oh, ow, th, tw = int(offset_height), int(offset_width), int(target_height), int(target_width)
    if oh < 0 or ow < 0:
        raise ValueError(f"offset_height and offset_width must be >= 0, got {oh} and {ow}.")
    if th <= 0 or tw <= 0:
        raise ValueError(f"target_height and target_width must be > 0, got {th} and {tw}.")
    if oh + th > h or ow + tw > w:
        raise ValueError(f"the crop [{oh}:{oh + th}, {ow}:{ow + tw}] does not fit in an image of height "
                         f"{h} and width {w}.")
    return x[..., oh:oh + th, ow:ow + tw, :]


def pad_to_bounding_box(image: Any, offset_height: int, offset_width: int, target_height: int,
                        target_width: int) -> Tensor:
    """Zero-pad ``image`` to ``target_height × target_width``, placing it at
    ``(offset_height, offset_width)``.

    >>> import tapegrad as tf
    >>> tf.image.pad_to_bounding_box(tf.ones([1, 1, 1]), 1, 0, 2, 2)[..., 0].numpy()
    array([[0., 0.],
           [1., 0.]], dtype=float32)
    """
    x = _image(image, "pad_to_bounding_box")
    h, w = _dims(x)
    oh, ow, th, tw = int(offset_height), int(offset_width), int(target_height), int(target_width)
    after_h, after_w = th - oh - h, tw - ow - w
    if oh < 0 or ow < 0:
        raise ValueError(f"offset_height and offset_width must be >= 0, got {oh} and {ow}.")
    if after_h < 0 or after_w < 0:
        raise ValueError(f"target size {th}x{tw} is too small for an image of {h}x{w} at offset "
                         f"({oh}, {ow}).")
    lead = [[0, 0]] * (x._value.ndim - 3)
    return pad(x, lead + [[oh, after_h], [ow, after_w], [0, 0]])


def resize_with_crop_or_pad(image: Any, target_height: int, target_width: int) -> Tensor:
    """Centre-crop and/or zero-pad ``image`` to ``target_height × target_width`` (extra pixels
    go to the bottom and right, as TensorFlow).

    >>> import tapegrad as tf
    >>> tf.image.resize_with_crop_or_pad(tf.ones([4, 2, 1]), 2, 4)[..., 0].numpy()
    array([[0., 1., 1., 0.],
           [0., 1., 1., 0.]], dtype=float32)
    """
    x = _image(image, "resize_with_crop_or_pad")
    th, tw = int(target_height), int(target_width)
    if th <= 0 or tw <= 0:
        raise ValueError(f"target_height and target_width must be > 0, got {th} and {tw}.")
    h, w = _dims(x)
    crop_h, crop_w = max((h - th) // 2, 0), max((w - tw) // 2, 0)
    pad_h, pad_w = max((th - h) // 2, 0), max((tw - w) // 2, 0)
    x = crop_to_bounding_box(x, crop_h, crop_w, min(th, h), min(tw, w))
    return pad_to_bounding_box(x, pad_h, pad_w, th, tw)


def resize_with_pad(image: Any, target_height: int, target_width: int, method: Any = ResizeMethod.BILINEAR,
                    antialias: bool = False) -> Tensor:
    """Resize keeping the aspect ratio, then zero-pad to ``target_height × target_width``.

    >>> import tapegrad as tf
    >>> tf.image.resize_with_pad(tf.ones([2, 4, 1]), 4, 4)[..., 0].numpy()
    array([[0., 0., 0., 0.],
           [1., 1., 1., 1.],
           [1., 1., 1., 1.],
           [0., 0., 0., 0.]], dtype=float32)
    """
    x, batch = _batched(_image(image, "resize_with_pad"))
    th, tw = int(target_height), int(target_width)
    if th <= 0 or tw <= 0:
        raise ValueError(f"target_height and target_width must be > 0, got {th} and {tw}.")
    h, w = _dims(x)
    ratio = max(np.float32(w) / np.float32(tw), np.float32(h) / np.float32(th))
    rh, rw = np.float32(h) / ratio, np.float32(w) / ratio
    ph = max(0, int(np.floor((np.float32(th) - rh) / np.float32(2))))
    pw = max(0, int(np.floor((np.float32(tw) - rw) / np.float32(2))))
    out = resize(x, [int(np.floor(rh)), int(np.floor(rw))], method, antialias=antialias)
    return _unbatch(pad_to_bounding_box(out, ph, pw, th, tw), batch)


def flip_left_right(image: Any) -> Tensor:
    """Mirror the width axis.

    >>> import tapegrad as tf
    >>> tf.image.flip_left_right(tf.reshape(tf.range(3), [1, 3, 1]))[..., 0].numpy()
    array([[2, 1, 0]], dtype=int32)
    """
    x = _image(image, "flip_left_right")
    return reverse(x, [x._value.ndim - 2])


def flip_up_down(image: Any) -> Tensor:
    """Mirror the height axis.

    >>> import tapegrad as tf
    >>> tf.image.flip_up_down(tf.reshape(tf.range(3), [3, 1, 1]))[..., 0, 0].numpy()
    array([2, 1, 0], dtype=int32)
    """
    x = _image(image, "flip_up_down")
    return reverse(x, [x._value.ndim - 3])


def _random_flip(image: Any, axis_from_end: int, uniform: Any, what: str) -> Tensor:
    """TF's flips: a 3-D image flips when one draw is < 0.5; each image of a batch when its
    draw rounds to 1. ``uniform(shape)`` draws from [0, 1)."""
    x = _image(image, what)
    axis = x._value.ndim - axis_from_end
    if x._value.ndim == 3:  # (ops on the draw: a tf.function draws and flips at every call)
        return where(uniform([]) < 0.5, reverse(x, [axis]), x)
    keep = reshape(cast(_round(uniform([x._value.shape[0]])), _dt.bool), [-1, 1, 1, 1])
    return where(keep, reverse(x, [axis]), x)


def _stateful(seed: Any) -> Any:
    return lambda shape, lo=0.0, hi=1.0, **kw: _random.uniform(shape, lo, hi, seed=seed, **kw)


def _stateless(seed: Any) -> Any:
    return lambda shape, lo=0.0, hi=1.0, **kw: _random.stateless_uniform(shape, seed, lo, hi, **kw)


def random_flip_left_right(image: Any, seed: Any = None) -> Tensor:
    """Mirror the width axis with probability ½ (each image of a batch on its own), drawing from
    ``tf.random.uniform`` with ``seed`` as TensorFlow does (same seeds, same flips).

    >>> import tapegrad as tf
    >>> tf.image.random_flip_left_right(tf.ones([2, 2, 1]), seed=1).shape
    TensorShape([2, 2, 1])
    """
    return _random_flip(image, 2, _stateful(seed), "random_flip_left_right")


def random_flip_up_down(image: Any, seed: Any = None) -> Tensor:
    """Mirror the height axis with probability ½, as :func:`random_flip_left_right`.

    >>> import tapegrad as tf
    >>> tf.image.random_flip_up_down(tf.ones([2, 2, 1]), seed=1).shape
    TensorShape([2, 2, 1])
    """
    return _random_flip(image, 3, _stateful(seed), "random_flip_up_down")


def transpose(image: Any, name: Any = None) -> Tensor:
    """Swap height and width.

    >>> import tapegrad as tf
    >>> tf.image.transpose(tf.ones([2, 3, 1])).shape
    TensorShape([3, 2, 1])
    """
    x = _image(image, "transpose")
    return _transpose(x, [1, 0, 2] if x._value.ndim == 3 else [0, 2, 1, 3])


def rot90(image: Any, k: int = 1, name: Any = None) -> Tensor:
    """Rotate by ``k`` quarter turns counter-clockwise.

    >>> import tapegrad as tf
    >>> tf.image.rot90(tf.reshape(tf.range(4), [2, 2, 1]))[..., 0].numpy()
    array([[1, 3],
           [0, 2]], dtype=int32)
    """
    x = _image(image, "rot90")
    k = int(np.asarray(host_value(k, "rot90: k"))) % 4
    hax = x._value.ndim - 3
    if k == 1:
        return transpose(reverse(x, [hax + 1]))
    if k == 2:
        return reverse(x, [hax, hax + 1])
    if k == 3:
        return reverse(transpose(x), [hax + 1])
    return x


def central_crop(image: Any, central_fraction: float) -> Tensor:
    """The central ``central_fraction`` (in (0, 1]) of the height and the width.

    >>> import tapegrad as tf
    >>> tf.image.central_crop(tf.ones([8, 8, 3]), 0.5).shape
    TensorShape([4, 4, 3])
    """
    x = _image(image, "central_crop")
    f = float(np.asarray(host_value(central_fraction, "central_fraction")))
    if f <= 0.0 or f > 1.0:
        raise ValueError(f"central_fraction must be within (0, 1], got {f}.")
    if f == 1.0:
        return x
    h, w = _dims(x)
    top, left = int((h - h * f) / 2), int((w - w * f) / 2)
    return x[..., top:h - top, left:w - left, :]


@constant_maker  # (from Python values, shapes and guarded reads)
def _crop(value: Any, size: Any, uniform: Any, what: str) -> Tensor:
    x = as_tensor(value)
    sz = np.asarray(host_value(size, "size")).astype(np.int64).reshape(-1)
    shape = np.asarray(x._value.shape)
    if sz.shape != shape.shape or (sz > shape).any():
        raise InvalidArgumentError(f"{what}: need value.shape >= size, got value.shape "
                                   f"{shape.tolist()} and size {sz.tolist()}.")
    draw = uniform([len(sz)], 0, _dt.int32.max, dtype=_dt.int32)
    offset = floormod(cast(draw, _dt.int64), _wrap(shape - sz + 1))
    for i, s in enumerate(sz):  # (gathers at the drawn offsets: a tf.function crops anew at every call)
        if s != shape[i]:
            x = gather(x, offset[i] + _wrap(np.arange(s, dtype=np.int64)), axis=i)
    return x


def random_crop(value: Any, size: Any, seed: Any = None, name: Any = None) -> Tensor:
    """A random ``size``-shaped slice of ``value`` (any rank), its offset drawn with
    ``tf.random.uniform`` and ``seed`` as TensorFlow does.

    >>> import tapegrad as tf
    >>> tf.image.random_crop(tf.ones([5, 5, 3]), [2, 2, 3], seed=4).shape
    TensorShape([2, 2, 3])
    """
    return _crop(value, size, _stateful(seed), "random_crop")


def stateless_random_crop(value: Any, size: Any, seed: Any, name: Any = None) -> Tensor:
    """:func:`random_crop` with the offset from ``tf.random.stateless_uniform`` and the seed pair
    ``seed``: the same seed, the same crop.

    >>> import tapegrad as tf
    >>> image = [[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]
    >>> tf.image.stateless_random_crop(image, (1, 2, 3), seed=(1, 2)).numpy()
    array([[[1, 2, 3],
            [4, 5, 6]]], dtype=int32)
    """
    return _crop(value, size, _stateless(seed), "stateless_random_crop")


def stateless_random_flip_left_right(image: Any, seed: Any) -> Tensor:
    """:func:`random_flip_left_right` drawing from ``tf.random.stateless_uniform`` with ``seed``.

    >>> import tapegrad as tf
    >>> tf.image.stateless_random_flip_left_right(tf.ones([2, 2, 1]), seed=(1, 2)).shape
    TensorShape([2, 2, 1])
    """
    return _random_flip(image, 2, _stateless(seed), "stateless_random_flip_left_right")


def stateless_random_flip_up_down(image: Any, seed: Any) -> Tensor:
    """:func:`random_flip_up_down` drawing from ``tf.random.stateless_uniform`` with ``seed``.

    >>> import tapegrad as tf
    >>> tf.image.stateless_random_flip_up_down(tf.ones([2, 2, 1]), seed=(1, 2)).shape
    TensorShape([2, 2, 1])
    """
    return _random_flip(image, 3, _stateless(seed), "stateless_random_flip_up_down")


@constant_maker
def per_image_standardization(image: Any) -> Tensor:
    """``(x - mean) / max(stddev, 1/sqrt(N))`` per image, over its ``N`` values (float32 out).

    >>> import tapegrad as tf
    >>> tf.image.per_image_standardization(tf.constant([[[0.0], [2.0]]]))[..., 0].numpy()
    array([[-1.,  1.]], dtype=float32)
    """
    x = cast(_image(image, "per_image_standardization"), _dt.float32)
    n = int(np.prod(x._value.shape[-3:]))
    mean = reduce_mean(x, axis=[-1, -2, -3], keepdims=True)
    std = reduce_std(x, axis=[-1, -2, -3], keepdims=True)
    return truediv(x - mean, maximum(std, _wrap(np.float32(1 / np.sqrt(n)))))


def _float_image(image: Any, what: str) -> tuple[Tensor, Any]:
    """TF's colour ops work in float: integers go through convert_image_dtype to float32 and back."""
    x = as_tensor(image)
    if x._value.ndim < 3 and what not in ("adjust_brightness", "adjust_gamma"):
        raise ValueError(f"{what}: 'image' must have at least 3 dimensions, got shape {list(x._value.shape)}.")
    orig = x.dtype
    if orig in (_dt.float16, _dt.float32) or (orig == _dt.float64 and what != "adjust_gamma"):
        return x, orig
    return convert_image_dtype(x, _dt.float32), orig


def adjust_brightness(image: Any, delta: Any) -> Tensor:
    """Add ``delta`` to every value (integers are converted to floats in [0, 1] and back).

    >>> import tapegrad as tf
    >>> tf.image.adjust_brightness(tf.constant([[[0.25]]]), 0.5).numpy()
    array([[[0.75]]], dtype=float32)
    """
    x, orig = _float_image(image, "adjust_brightness")
    out = add(x, cast(delta, x.dtype))
    return convert_image_dtype(out, orig, saturate=True) if orig != x.dtype else out


def adjust_contrast(images: Any, contrast_factor: Any) -> Tensor:
    """``(x - mean) * contrast_factor + mean``, the mean over each image's height and width per
    channel.

    >>> import tapegrad as tf
    >>> tf.image.adjust_contrast(tf.constant([[[0.0], [1.0]]]), 2.0)[..., 0].numpy()
    array([[-0.5,  1.5]], dtype=float32)
    """
    x, orig = _float_image(images, "adjust_contrast")
    mean = reduce_mean(x, axis=[-3, -2], keepdims=True)
    out = (x - mean) * cast(contrast_factor, x.dtype) + mean
    return convert_image_dtype(out, orig, saturate=True) if orig != x.dtype else out


def adjust_gamma(image: Any, gamma: Any = 1, gain: Any = 1) -> Tensor:
    """``gain * x ** gamma`` (integers and float64 go through float32, as in TensorFlow).

    >>> import tapegrad as tf
    >>> tf.image.adjust_gamma(tf.constant([[[0.25]]]), gamma=0.5).numpy()
    array([[[0.5]]], dtype=float32)
    """
    x, orig = _float_image(image, "adjust_gamma")
    g = np.asarray(host_value(gamma, "gamma"))
    if (g < 0).any():
        raise ValueError(f"adjust_gamma: gamma must be non-negative, got {g}.")
    out = cast(gain, x.dtype) * pow(x, cast(gamma, x.dtype))
    return convert_image_dtype(out, orig, saturate=True) if orig != x.dtype else out


_GRAY = np.array([0.2989, 0.587, 0.114])


def rgb_to_grayscale(images: Any, name: Any = None) -> Tensor:
    """Luma ``0.2989 R + 0.587 G + 0.114 B``, keeping a last axis of size 1.

    >>> import tapegrad as tf
    >>> tf.image.rgb_to_grayscale(tf.constant([[[1.0, 1.0, 1.0]]])).numpy().round(4)
    array([[[0.9999]]], dtype=float32)
    """
    x, orig = _float_image(images, "rgb_to_grayscale")
    gray = expand_dims(tensordot(x, _wrap(_GRAY.astype(x._value.dtype)), [[x._value.ndim - 1], [0]]), -1)
    return convert_image_dtype(gray, orig) if orig != x.dtype else gray


def grayscale_to_rgb(images: Any, name: Any = None) -> Tensor:
    """Repeat the single channel three times.

    >>> import tapegrad as tf
    >>> tf.image.grayscale_to_rgb(tf.ones([2, 2, 1])).shape
    TensorShape([2, 2, 3])
    """
    x = as_tensor(images)
    if x._value.ndim < 2 or x._value.shape[-1] != 1:
        raise ValueError(f"grayscale_to_rgb: the last dimension must be 1, got shape {list(x._value.shape)}.")
    return tile(x, [1] * (x._value.ndim - 1) + [3])


def _check_rgb(x: Tensor, what: str) -> None:
    if x._value.dtype.kind != "f":
        raise TypeError(f"{what}: images must be float16, float32 or float64, got {x.dtype.name}. "
                        f"Convert first, e.g. tf.image.convert_image_dtype(x, tf.float32).")
    if x._value.ndim < 1 or x._value.shape[-1] != 3:
        raise InvalidArgumentError(f"{what}: the last dimension must be 3 (RGB or HSV), got shape "
                                   f"{list(x._value.shape)}.")


@constant_maker
def rgb_to_hsv(images: Any, name: Any = None) -> Tensor:
    """RGB in [0, 1] to hue, saturation, value, each in [0, 1].

    >>> import tapegrad as tf
    >>> tf.image.rgb_to_hsv(tf.constant([[0.0, 0.5, 1.0]])).numpy().round(4)
    array([[0.5833, 1.    , 1.    ]], dtype=float32)
    """
    x = as_tensor(images)
    _check_rgb(x, "rgb_to_hsv")
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = reduce_max(x, axis=-1)
    delta = v - reduce_min(x, axis=-1)
    zero = x._value.dtype.type(0)
    safe_v = where(v > zero, v, v + 1)
    s = where(v > zero, delta / safe_v, delta * 0)
    safe_d = where(delta > zero, delta, delta + 1)
    h = where(r == v, (g - b) / safe_d, where(g == v, 2 + (b - r) / safe_d, 4 + (r - g) / safe_d))
    h = floormod(h / 6, x._value.dtype.type(1))
    h = where(delta > zero, h, h * 0)
    return _stack_last([h, s, v])


def _stack_last(parts: list) -> Tensor:
    return concat([expand_dims(p, -1) for p in parts], -1)


@constant_maker
def hsv_to_rgb(images: Any, name: Any = None) -> Tensor:
    """Hue, saturation, value in [0, 1] to RGB.

    >>> import tapegrad as tf
    >>> tf.image.hsv_to_rgb(tf.constant([[0.5833333, 1.0, 1.0]])).numpy().round(4)
    array([[0. , 0.5, 1. ]], dtype=float32)
    """
    x = as_tensor(images)
    _check_rgb(x, "hsv_to_rgb")
    h, s, v = x[..., 0], x[..., 1], x[..., 2]
    c = s * v
    one = x._value.dtype.type(1)
    # R, G, B: v - c · clip(min(r, 4 - r), 0, 1) with r = (6h + k) mod 6, k = 5, 3, 1
    out = []
    for k in (5.0, 3.0, 1.0):
        ramp = floormod(h * 6 + k, x._value.dtype.type(6))
        out.append(v - c * clip_by_value(minimum(ramp, 4 - ramp), 0 * one, one))
    return _stack_last(out)


def adjust_saturation(image: Any, saturation_factor: Any, name: Any = None) -> Tensor:
    """Multiply the saturation (HSV) by ``saturation_factor``, clipped to [0, 1].

    >>> import tapegrad as tf
    >>> tf.image.adjust_saturation(tf.constant([[[1.0, 0.5, 0.5]]]), 0.0).numpy()
    array([[[1., 1., 1.]]], dtype=float32)
    """
    x, orig = _float_image(image, "adjust_saturation")
    hsv = rgb_to_hsv(x)
    s = clip_by_value(hsv[..., 1] * cast(saturation_factor, x.dtype), 0.0, 1.0)
    out = hsv_to_rgb(_stack_last([hsv[..., 0], s, hsv[..., 2]]))
    return convert_image_dtype(out, orig) if orig != x.dtype else out


@constant_maker
def adjust_hue(image: Any, delta: Any, name: Any = None) -> Tensor:
    """Rotate the hue (HSV) by ``delta`` in [-1, 1] (a full turn is 1).

    >>> import tapegrad as tf
    >>> tf.image.adjust_hue(tf.constant([[[1.0, 0.0, 0.0]]]), 1 / 3).numpy().round(4)
    array([[[0., 1., 0.]]], dtype=float32)
    """
    x, orig = _float_image(image, "adjust_hue")
    d = float(np.asarray(host_value(delta, "delta") if isinstance(delta, Tensor) else delta))
    if not -1.0 <= d <= 1.0:
        raise ValueError(f"adjust_hue: delta must be in the interval [-1, 1], got {d}.")
    hsv = rgb_to_hsv(x)
    h = floormod(hsv[..., 0] + x._value.dtype.type(d), x._value.dtype.type(1))
    out = hsv_to_rgb(_stack_last([h, hsv[..., 1], hsv[..., 2]]))
    return convert_image_dtype(out, orig) if orig != x.dtype else out


def _check_delta(max_delta: float, what: str, most: float | None = None) -> float:
    d = float(max_delta)
    if d < 0:
        raise ValueError(f"{what}: max_delta must be non-negative, got {d}.")
    if most is not None and d > most:
        raise ValueError(f"{what}: max_delta must be <= {most}, got {d}.")
    return d


def _check_range(lower: float, upper: float, what: str) -> tuple[float, float]:
    lo, hi = float(lower), float(upper)
    if hi <= lo:
        raise ValueError(f"{what}: upper must be > lower, got lower={lo} and upper={hi}.")
    if lo < 0:
        raise ValueError(f"{what}: lower must be non-negative, got {lo}.")
    return lo, hi


def random_brightness(image: Any, max_delta: float, seed: Any = None) -> Tensor:
    """:func:`adjust_brightness` by a delta drawn uniformly from ``[-max_delta, max_delta)``
    (``tf.random.uniform`` with ``seed``, as TensorFlow).

    >>> import tapegrad as tf
    >>> tf.image.random_brightness(tf.zeros([1, 1, 1]), 0.0, seed=1).numpy()
    array([[[0.]]], dtype=float32)
    """
    d = _check_delta(max_delta, "random_brightness")
    return adjust_brightness(image, _stateful(seed)([], -d, d))


def stateless_random_brightness(image: Any, max_delta: float, seed: Any) -> Tensor:
    """:func:`random_brightness` drawing from ``tf.random.stateless_uniform`` with ``seed``.

    >>> import tapegrad as tf
    >>> tf.image.stateless_random_brightness(tf.zeros([1, 1, 1]), 0.5, seed=(1, 2)).shape
    TensorShape([1, 1, 1])
    """
    d = _check_delta(max_delta, "stateless_random_brightness")
    return adjust_brightness(image, _stateless(seed)([], -d, d))


def random_contrast(image: Any, lower: float, upper: float, seed: Any = None) -> Tensor:
    """:func:`adjust_contrast` by a factor drawn uniformly from ``[lower, upper)``.

    >>> import tapegrad as tf
    >>> tf.image.random_contrast(tf.ones([2, 2, 1]), 0.5, 1.5, seed=1).numpy()[..., 0]
    array([[1., 1.],
           [1., 1.]], dtype=float32)
    """
    lo, hi = _check_range(lower, upper, "random_contrast")
    return adjust_contrast(image, _stateful(seed)([], lo, hi))


def stateless_random_contrast(image: Any, lower: float, upper: float, seed: Any) -> Tensor:
    """:func:`random_contrast` drawing from ``tf.random.stateless_uniform`` with ``seed``.

    >>> import tapegrad as tf
    >>> tf.image.stateless_random_contrast(tf.ones([2, 2, 1]), 0.5, 1.5, seed=(1, 2)).shape
    TensorShape([2, 2, 1])
    """
    lo, hi = _check_range(lower, upper, "stateless_random_contrast")
    return adjust_contrast(image, _stateless(seed)([], lo, hi))


def random_saturation(image: Any, lower: float, upper: float, seed: Any = None) -> Tensor:
    """:func:`adjust_saturation` by a factor drawn uniformly from ``[lower, upper)``.

    >>> import tapegrad as tf
    >>> tf.image.random_saturation(tf.ones([1, 1, 3]), 0.5, 1.5, seed=1).numpy()
    array([[[1., 1., 1.]]], dtype=float32)
    """
    lo, hi = _check_range(lower, upper, "random_saturation")
    return adjust_saturation(image, _stateful(seed)([], lo, hi))


def stateless_random_saturation(image: Any, lower: float, upper: float, seed: Any = None) -> Tensor:
    """:func:`random_saturation` drawing from ``tf.random.stateless_uniform`` with ``seed``.

    >>> import tapegrad as tf
    >>> tf.image.stateless_random_saturation(tf.ones([1, 1, 3]), 0.5, 1.5, seed=(1, 2)).shape
    TensorShape([1, 1, 3])
    """
    lo, hi = _check_range(lower, upper, "stateless_random_saturation")
    return adjust_saturation(image, _stateless(seed)([], lo, hi))


def random_hue(image: Any, max_delta: float, seed: Any = None) -> Tensor:
    """:func:`adjust_hue` by a delta drawn uniformly from ``[-max_delta, max_delta)``
    (``max_delta`` at most 0.5).

    >>> import tapegrad as tf
    >>> tf.image.random_hue(tf.ones([1, 1, 3]), 0.2, seed=1).numpy()
    array([[[1., 1., 1.]]], dtype=float32)
    """
    d = _check_delta(max_delta, "random_hue", 0.5)
    return adjust_hue(image, _stateful(seed)([], -d, d))


def stateless_random_hue(image: Any, max_delta: float, seed: Any) -> Tensor:
    """:func:`random_hue` drawing from ``tf.random.stateless_uniform`` with ``seed``.

    >>> import tapegrad as tf
    >>> tf.image.stateless_random_hue(tf.ones([1, 1, 3]), 0.2, seed=(1, 2)).shape
    TensorShape([1, 1, 3])
    """
    d = _check_delta(max_delta, "stateless_random_hue", 0.5)
    return adjust_hue(image, _stateless(seed)([], -d, d))


_YIQ = np.array([[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
                 [0.114, -0.32134392, 0.31119955]])
_YUV = np.array([[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
                 [0.114, 0.43601035, -0.10001026]])
# TensorFlow's inverse matrices (rounded as TensorFlow has them, not exact inverses)
_YIQ_INV = np.array([[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]])
_YUV_INV = np.array([[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]])


def _colour_matrix(images: Any, m: np.ndarray, what: str) -> Tensor:
    x = as_tensor(images)
    _check_rgb(x, what)
    return tensordot(x, _wrap(m.astype(x._value.dtype)), [[x._value.ndim - 1], [0]])


def rgb_to_yiq(images: Any) -> Tensor:
    """RGB to YIQ (a linear map of the last axis).

    >>> import tapegrad as tf
    >>> tf.image.rgb_to_yiq(tf.constant([[1.0, 0.0, 0.0]])).numpy().round(4)
    array([[0.299 , 0.5959, 0.2115]], dtype=float32)
    """
    return _colour_matrix(images, _YIQ, "rgb_to_yiq")


def yiq_to_rgb(images: Any) -> Tensor:
    """YIQ to RGB (the inverse of :func:`rgb_to_yiq`).

    >>> import tapegrad as tf
    >>> tf.image.yiq_to_rgb(tf.constant([[0.5, 0.0, 0.0]])).numpy().round(4)
    array([[0.5, 0.5, 0.5]], dtype=float32)
    """
    return _colour_matrix(images, _YIQ_INV, "yiq_to_rgb")


def rgb_to_yuv(images: Any) -> Tensor:
    """RGB to YUV (a linear map of the last axis).

    >>> import tapegrad as tf
    >>> tf.image.rgb_to_yuv(tf.constant([[1.0, 0.0, 0.0]])).numpy().round(4)
    array([[ 0.299 , -0.1471,  0.615 ]], dtype=float32)
    """
    return _colour_matrix(images, _YUV, "rgb_to_yuv")


def yuv_to_rgb(images: Any) -> Tensor:
    """YUV to RGB (the inverse of :func:`rgb_to_yuv`).

    >>> import tapegrad as tf
    >>> tf.image.yuv_to_rgb(tf.constant([[0.5, 0.0, 0.0]])).numpy().round(4)
    array([[0.5, 0.5, 0.5]], dtype=float32)
    """
    return _colour_matrix(images, _YUV_INV, "yuv_to_rgb")


_SOBEL = np.array([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]], np.float64)


def sobel_edges(image: Any) -> Tensor:
    """Sobel derivatives ``[batch, height, width, channels, 2]`` (``dy``, ``dx``) of a 4-D image,
    with reflected borders.

    >>> import tapegrad as tf
    >>> edges = tf.image.sobel_edges(tf.reshape(tf.range(9.0), [1, 3, 3, 1]))
    >>> edges[0, 1, 1, 0].numpy()
    array([24.,  8.], dtype=float32)
    """
    x = as_tensor(image)
    if x._value.ndim != 4:
        raise ValueError(f"sobel_edges expects a 4-D tensor [batch, height, width, channels], got shape "
                         f"{list(x._value.shape)}.")
    _, h, w, _ = x._value.shape
    p = pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    out = []
    for k in _SOBEL:
        terms = [p[:, i:i + h, j:j + w, :] * x._value.dtype.type(k[i, j])
                 for i in range(3) for j in range(3) if k[i, j]]
        out.append(add_n_(terms))
    return concat([expand_dims(o, -1) for o in out], -1)


def convert_image_dtype(image: Any, dtype: Any, saturate: bool = False, name: Any = None) -> Tensor:
    """Convert between image dtypes, rescaling: floats are in [0, 1], integers in [0, MAX]
    (integer to float divides by MAX, float to integer multiplies by MAX + 0.5 and truncates;
    ``saturate`` clips first). Float to float is a plain cast.

    >>> import tapegrad as tf
    >>> tf.image.convert_image_dtype(tf.constant([0, 255], tf.uint8), tf.float32).numpy()
    array([0., 1.], dtype=float32)
    >>> tf.image.convert_image_dtype(tf.constant([0.5, 1.0]), tf.uint8).numpy()
    array([127, 255], dtype=uint8)
    """
    x = as_tensor(image)
    to = _dt.as_dtype(dtype)
    src = x.dtype
    if not (to.is_floating or to.is_integer) or not (src.is_floating or src.is_integer):
        raise AttributeError(f"convert_image_dtype: image and dtype must be integer or floating, got "
                             f"{src.name} and {to.name}.")
    if src == to:
        return x
    if src.is_integer and to.is_integer:
        if src.max > to.max:
            return cast(x // ((int(src.max) + 1) // (int(to.max) + 1)), to)
        return cast(x, to) * ((int(to.max) + 1) // (int(src.max) + 1))
    if src.is_floating and to.is_floating:
        return cast(x, to)
    if src.is_integer:
        return cast(x, to) * _wrap(np.asarray(1.0 / float(src.max), to.as_numpy_dtype))
    scaled = x * _wrap(np.asarray(float(to.max) + 0.5, src.as_numpy_dtype))
    return saturate_cast(scaled, to) if saturate else cast(scaled, to)


def image_gradients(image: Any) -> tuple[Tensor, Tensor]:
    """``(dy, dx)``: differences to the next pixel down and right, zero in the last row / column
    (4-D input).

    >>> import tapegrad as tf
    >>> dy, dx = tf.image.image_gradients(tf.reshape(tf.range(4.0), [1, 2, 2, 1]))
    >>> dy[0, ..., 0].numpy(), dx[0, ..., 0].numpy()
    (array([[2., 2.],
           [0., 0.]], dtype=float32), array([[1., 0.],
           [1., 0.]], dtype=float32))
    """
    x = as_tensor(image)
    if x._value.ndim != 4:
        raise ValueError(f"image_gradients expects a 4-D tensor [batch, height, width, channels], got "
                         f"shape {list(x._value.shape)}.")
    dy = pad(x[:, 1:] - x[:, :-1], [[0, 0], [0, 1], [0, 0], [0, 0]])
    dx = pad(x[:, :, 1:] - x[:, :, :-1], [[0, 0], [0, 0], [0, 1], [0, 0]])
    return dy, dx


def total_variation(images: Any, name: Any = None) -> Tensor:
    """Sum of absolute differences between neighbouring pixels, per image (a scalar for a 3-D
    image, shape ``[batch]`` for 4-D).

    >>> import tapegrad as tf
    >>> float(tf.image.total_variation(tf.reshape(tf.range(4.0), [2, 2, 1])))
    6.0
    """
    x = _image(images, "total_variation")
    axes = [-3, -2, -1]
    return (reduce_sum(_abs(x[..., 1:, :, :] - x[..., :-1, :, :]), axis=axes)
            + reduce_sum(_abs(x[..., :, 1:, :] - x[..., :, :-1, :]), axis=axes))


def psnr(a: Any, b: Any, max_val: Any, name: Any = None) -> Tensor:
    """Peak signal-to-noise ratio in dB, ``10 log10(max_val² / MSE)`` per image.

    >>> import tapegrad as tf
    >>> round(float(tf.image.psnr(tf.zeros([2, 2, 1]), tf.fill([2, 2, 1], 0.1), 1.0)), 4)
    20.0
    """
    x, y = as_tensor(a), as_tensor(b)
    if x.dtype != y.dtype:
        raise TypeError(f"psnr: a and b must have the same dtype, got {x.dtype.name} and {y.dtype.name}.")
    orig = x.dtype
    x, y = convert_image_dtype(x, _dt.float32), convert_image_dtype(y, _dt.float32)
    mv = cast(convert_image_dtype(cast(max_val, orig), _dt.float32), _dt.float32)
    mse = reduce_mean((x - y) * (x - y), axis=[-3, -2, -1])
    ln10 = np.float32(np.log(10.0))
    return (20 * _log(mv) - 10 * _log(mse)) / ln10


def _gauss(size: int, sigma: float) -> np.ndarray:
    c = np.arange(size, dtype=np.float32) - np.float32((size - 1) / 2)
    g = np.exp(-(c * c) / np.float32(2 * sigma * sigma)).astype(np.float32)
    return (g / g.sum()).astype(np.float32)


@constant_maker
def ssim(img1: Any, img2: Any, max_val: Any, filter_size: int = 11, filter_sigma: float = 1.5,
         k1: float = 0.01, k2: float = 0.03, return_index_map: bool = False) -> Tensor:
    """Structural similarity, with a ``filter_size`` Gaussian window (``filter_sigma``), averaged
    over each image's valid positions and channels (per image: shape ``[batch]`` or a scalar;
    ``return_index_map`` gives the map instead).

    >>> import tapegrad as tf
    >>> img = tf.random.stateless_uniform([16, 16, 1], seed=[1, 2])
    >>> round(float(tf.image.ssim(img, img, 1.0)), 4)
    1.0
    """
    x, y, mv = _ssim_inputs(img1, img2, max_val, "ssim")
    lum, cs = _ssim_maps(x, y, mv, filter_size, filter_sigma, k1, k2)
    smap = lum * cs
    return smap if return_index_map else reduce_mean(smap, axis=[-3, -2, -1])


def _ssim_inputs(img1: Any, img2: Any, max_val: Any, what: str) -> tuple:
    x, y = as_tensor(img1), as_tensor(img2)
    if x.dtype != y.dtype:
        raise TypeError(f"{what}: img1 and img2 must have the same dtype, got {x.dtype.name} and {y.dtype.name}.")
    orig = x.dtype
    x, y = convert_image_dtype(x, _dt.float32), convert_image_dtype(y, _dt.float32)
    mv = float(np.asarray(host_value(convert_image_dtype(cast(max_val, orig), _dt.float32), "max_val")))
    return x, y, mv


@constant_maker
def _ssim_maps(x: Tensor, y: Tensor, mv: float, filter_size: int, filter_sigma: float, k1: float,
               k2: float) -> tuple:
    """The luminance and contrast-structure maps of SSIM (TensorFlow's ``_ssim_helper``)."""
    h, w = _dims(x)
    size = int(filter_size)
    if size > h or size > w:
        raise InvalidArgumentError(f"ssim: the images ({h}x{w}) must be at least filter_size = {size} "
                                   f"high and wide.")
    g = _gauss(size, float(filter_sigma))
    ky = _wrap(_band(g, h))
    kx = _wrap(_band(g, w))

    def blur(t: Tensor) -> Tensor:
        t4, batch = _batched(t)
        return _unbatch(_resample(t4, ky, kx), batch)

    c1, c2 = np.float32((k1 * mv) ** 2), np.float32((k2 * mv) ** 2)
    mx, my = blur(x), blur(y)
    lum = (2 * mx * my + c1) / (mx * mx + my * my + c1)
    cs = (2 * (blur(x * y) - mx * my) + c2) / (blur(x * x) + blur(y * y) - mx * mx - my * my + c2)
    return lum, cs


_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


@constant_maker
def ssim_multiscale(img1: Any, img2: Any, max_val: Any, power_factors: Any = _MSSSIM_WEIGHTS,
                    filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01,
                    k2: float = 0.03) -> Tensor:
    """Multi-scale structural similarity (TensorFlow's algorithm): SSIM's contrast-structure
    term at each of ``len(power_factors)`` scales (halved by a 2x2 average, an odd side padded
    symmetrically first) and the full SSIM at the last, each per channel through ``relu``,
    raised to its power factor, multiplied, and averaged over channels. Shape: the batch axes.
    The images must be at least ``filter_size * 2**(len(power_factors) - 1)`` high and wide.

    >>> import tapegrad as tf
    >>> img = tf.random.stateless_uniform([1, 32, 32, 1], seed=[1, 2])
    >>> tf.image.ssim_multiscale(img, img, 1.0, power_factors=(0.5, 0.5), filter_size=5).numpy()
    array([1.], dtype=float32)
    """
    x, y, mv = _ssim_inputs(img1, img2, max_val, "ssim_multiscale")
    if x._value.shape[-3:] != y._value.shape[-3:] or x._value.ndim < 3:
        raise ValueError(f"ssim_multiscale: img1 and img2 must be images of one shape [..., height, width, channels]; "
                         f"got {list(x._value.shape)} and {list(y._value.shape)}.")
    heads, tail = list(x._value.shape[:-3]), list(x._value.shape[-3:])
    x, y = reshape(x, [-1] + tail), reshape(y, [-1] + tail)
    weights = np.asarray(power_factors, np.float32)
    mcs, s = [], None
    for k in range(len(weights)):
        if k:
            rh, rw = int(x._value.shape[1]) % 2, int(x._value.shape[2]) % 2
            if rh or rw:
                x = pad(x, [[0, 0], [0, rh], [0, rw], [0, 0]], "SYMMETRIC")
                y = pad(y, [[0, 0], [0, rh], [0, rw], [0, 0]], "SYMMETRIC")
            x, y = avg_pool(x, 2, 2, "VALID"), avg_pool(y, 2, 2, "VALID")
        lum, cs = _ssim_maps(x, y, mv, filter_size, filter_sigma, k1, k2)
        s = reduce_mean(lum * cs, axis=[1, 2])
        mcs.append(relu(reduce_mean(cs, axis=[1, 2])))
    parts = stack(mcs[:-1] + [relu(s)], axis=-1)
    ms = reduce_prod(pow(parts, _wrap(weights)), axis=[-1])
    return reshape(reduce_mean(ms, axis=[-1]), heads)


# ---- sample_distorted_bounding_box: TensorFlow's SampleDistortedBoundingBoxV2 kernel -------------

def _lrintf(v: np.float32) -> int:
    return int(np.rint(v))  # (round half to even, as lrintf in the default rounding mode)


def _random_crop_rect(w: int, h: int, lo: np.float32, hi: np.float32, ratio: np.float32,
                      rnd: _philox.SimplePhilox) -> tuple | None:
    f = np.float32
    if hi <= 0 or ratio <= 0 or w <= 0 or h <= 0 or lo > hi:
        return None
    min_area, max_area = f(f(lo * f(w)) * f(h)), f(f(hi * f(w)) * f(h))
    height = _lrintf(np.sqrt(f(min_area / ratio)))
    max_height = _lrintf(np.sqrt(f(max_area / ratio)))
    if _lrintf(f(f(max_height) * ratio)) > w:
        max_height = int((w + 0.5 - float(f(1e-7))) / float(ratio))
        if _lrintf(f(f(max_height) * ratio)) > w:
            max_height -= 1
    max_height = min(max_height, h)
    height = min(height, max_height)
    if height < max_height:
        height += rnd.uniform(max_height - height + 1)
    width = _lrintf(f(f(height) * ratio))
    area = f(width * height)
    if area < min_area:
        height += 1
        width = _lrintf(f(f(height) * ratio))
        area = f(width * height)
    if area > max_area:
        height -= 1
        width = _lrintf(f(f(height) * ratio))
        area = f(width * height)
    if area < min_area or area > max_area or width > w or height > h or width <= 0 or height <= 0:
        return None
    y = rnd.uniform(h - height) if height < h else 0
    x = rnd.uniform(w - width) if width < w else 0
    return x, y, x + width, y + height


def _covers(crop: tuple, covered: np.float32, boxes: list) -> bool:
    def area(r: tuple) -> np.float32:
        return np.float32((r[2] - r[0]) * (r[3] - r[1]))
    if area(crop) < 1:
        return False
    for b in boxes:
        if area(b) < 1:
            continue
        x0, y0, x1, y1 = max(crop[0], b[0]), max(crop[1], b[1]), min(crop[2], b[2]), min(crop[3], b[3])
        inter = (0, 0, 0, 0) if x0 > x1 or y0 > y1 else (x0, y0, x1, y1)
        if np.float32(area(inter) / area(b)) >= covered:
            return True
    return False


class _DistortedBox:
    """One draw of the kernel from the Philox stream at ``(key, counter)``."""

    def __init__(self, h: int, w: int, boxes: list, covered: float, ratios: tuple, areas: tuple,
                 attempts: int, dtype: np.dtype) -> None:
        self.args = (h, w, boxes, np.float32(covered), np.float32(ratios[0]), np.float32(ratios[1]),
                     np.float32(areas[0]), np.float32(areas[1]), attempts, dtype)

    def __call__(self, key: int, counter: int) -> tuple:
        h, w, boxes, covered, r0, r1, a0, a1, attempts, dtype = self.args
        rnd = _philox.SimplePhilox(key, counter)
        crop = None
        for _ in range(attempts):
            ratio = np.float32(np.float32(rnd.rand_float()) * np.float32(r1 - r0)) + r0
            c = _random_crop_rect(w, h, a0, a1, np.float32(ratio), rnd)
            if c is not None and _covers(c, covered, boxes):
                crop = c
                break
        x0, y0, x1, y1 = crop or (0, 0, w, h)
        begin = np.asarray([y0, x0, 0], dtype)
        size = np.asarray([y1 - y0, x1 - x0, -1], dtype)
        box = np.asarray([[[y0 / np.float32(h), x0 / np.float32(w), y1 / np.float32(h), x1 / np.float32(w)]]], np.float32)
        return begin, size, box


def _distorted_box_kernel(image_size: Any, bounding_boxes: Any, min_object_covered: Any, aspect_ratio_range: Any,
                          area_range: Any, max_attempts: Any, use_image_if_no_bounding_boxes: Any) -> _DistortedBox:
    op = "SampleDistortedBoundingBoxV2"
    size_t = as_tensor(image_size)
    sz = np.asarray(host_value(size_t, "image_size"))
    if sz.dtype.kind not in "iu":
        raise TypeError(f"{op}: image_size must be an integer tensor, got {size_t.dtype.name}.")
    if sz.shape != (3,):
        raise InvalidArgumentError(f"image_size must contain 3 elements [height, width, channels], got shape "
                                   f"{list(sz.shape)} [Op:{op}]")
    b = np.asarray(host_value(cast(as_tensor(bounding_boxes), _dt.float32), "bounding_boxes"), np.float32)
    if b.ndim != 3 or b.shape[-1] != 4:
        raise InvalidArgumentError(f"input boxes must be 3-dimensional [batch, num_boxes, coords]: {list(b.shape)} "
                                   f"[Op:{op}]")
    covered = np.float32(np.asarray(host_value(as_tensor(min_object_covered), "min_object_covered")))
    if covered < 0:
        raise InvalidArgumentError(f"Min object covered must be non-negative: {covered} [Op:{op}]")
    ratios = (0.75, 1.33) if aspect_ratio_range is None else tuple(float(v) for v in aspect_ratio_range)
    areas = (0.05, 1.0) if area_range is None else tuple(float(v) for v in area_range)
    attempts = 100 if max_attempts is None else int(max_attempts)
    if len(ratios) != 2 or min(ratios) <= 0:
        raise InvalidArgumentError(f"Aspect ratio range must be 2 positive numbers, got {list(ratios)} [Op:{op}]")
    if len(areas) != 2 or min(areas) <= 0 or max(areas) > 1:
        raise InvalidArgumentError(f"Area range must be 2 numbers in (0, 1], got {list(areas)} [Op:{op}]")
    if attempts <= 0:
        raise InvalidArgumentError(f"Max attempts must be non-negative: {attempts} [Op:{op}]")
    h, w = int(sz[0]), int(sz[1])
    flat = b.reshape(-1, 4)
    if ((flat < 0) | (flat > 1)).any():
        raise InvalidArgumentError(f"All bounding box coordinates must be in [0.0, 1.0]: "
                                   f"{float(flat[(flat < 0) | (flat > 1)][0])} [Op:{op}]")
    f = np.float32
    boxes = [(int(f(r[1] * f(w))), int(f(r[0] * f(h))), int(f(r[3] * f(w))), int(f(r[2] * f(h)))) for r in flat]
    if not boxes:
        if not use_image_if_no_bounding_boxes:
            raise InvalidArgumentError("No bounding boxes provided as input. One must enable "
                                       "use_image_if_no_bounding_boxes if you wish to not provide any bounding "
                                       f"boxes. [Op:{op}]")
        boxes = [(0, 0, w, h)]
    k = _DistortedBox(h, w, boxes, covered, ratios, areas, attempts, sz.dtype)
    k.attrs = (ratios, areas, attempts, bool(use_image_if_no_bounding_boxes), sz.dtype.name)  # (the kernel's)
    return k


DistortedBoundingBox = _collections.namedtuple("SampleDistortedBoundingBox", ["begin", "size", "bboxes"])


@constant_maker  # (from guarded reads of the inputs: host_value)
def sample_distorted_bounding_box(image_size: Any, bounding_boxes: Any, seed: int = 0, min_object_covered: Any = 0.1,
                                  aspect_ratio_range: Any = None, area_range: Any = None, max_attempts: Any = None,
                                  use_image_if_no_bounding_boxes: Any = None, name: Any = None) -> tuple:
    """A random crop of an image of ``image_size`` (``[height, width, channels]``) that covers at
    least ``min_object_covered`` of one of ``bounding_boxes`` (``[batch, n, 4]`` of normalized
    ``[ymin, xmin, ymax, xmax]``), with an aspect ratio in ``aspect_ratio_range`` (0.75, 1.33)
    and a relative area in ``area_range`` (0.05, 1): TensorFlow's kernel and, for a non-zero
    ``seed``, its draws (a stateful op, seeded as ``tf.random.uniform``). After ``max_attempts``
    (100) failures, the whole image. Returns ``(begin, size, bboxes)``: ``tf.slice``'s arguments
    and the crop as a ``[1, 1, 4]`` box.

    >>> import tapegrad as tf
    >>> begin, size, box = tf.image.sample_distorted_bounding_box(
    ...     [40, 60, 3], tf.constant([[[0.1, 0.2, 0.8, 0.9]]]), seed=3)
    >>> size.shape, box.shape
    (TensorShape([3]), TensorShape([1, 1, 4]))
    """
    k = _distorted_box_kernel(image_size, bounding_boxes, min_object_covered, aspect_ratio_range, area_range,
                              max_attempts, use_image_if_no_bounding_boxes)
    out = kernel_draw(("SampleDistortedBoundingBoxV2",) + k.attrs, seed or None, k.args[-2], k)
    return DistortedBoundingBox(*out)


@constant_maker  # (from guarded reads of the inputs: host_value)
def stateless_sample_distorted_bounding_box(image_size: Any, bounding_boxes: Any, seed: Any,
                                            min_object_covered: Any = 0.1, aspect_ratio_range: Any = None,
                                            area_range: Any = None, max_attempts: Any = None,
                                            use_image_if_no_bounding_boxes: Any = None, name: Any = None) -> tuple:
    """:func:`sample_distorted_bounding_box` drawing from the stateless seed pair ``seed``: the
    same seed, the same crop (TensorFlow's numbers).

    >>> import tapegrad as tf
    >>> begin, size, box = tf.image.stateless_sample_distorted_bounding_box(
    ...     [3, 3, 1], tf.constant([[[0.1, 0.1, 0.4, 0.9]]]), seed=(1, 2), min_object_covered=0.1)
    >>> begin.numpy(), size.numpy()
    (array([0, 0, 0], dtype=int32), array([ 2,  2, -1], dtype=int32))
    """
    k = _distorted_box_kernel(image_size, bounding_boxes, min_object_covered, aspect_ratio_range, area_range,
                              max_attempts, use_image_if_no_bounding_boxes)
    sd = np.asarray(host_value(as_tensor(seed), "seed"))
    if sd.shape != (2,) or sd.dtype.kind not in "iu":
        raise InvalidArgumentError(f"seed must have shape [2], not {list(sd.shape)} [Op:StatelessSampleDistortedBoundingBox]")
    key, counter = _philox.scramble(int(sd[0]), int(sd[1]))
    return DistortedBoundingBox(*(_wrap(a) for a in k(key, counter)))


def _band(g: np.ndarray, n: int) -> np.ndarray:
    """``[n - len(g) + 1, n]``: the 'VALID' correlation with ``g`` as a matrix."""
    k = len(g)
    m = np.zeros((n - k + 1, n), np.float32)
    for i in range(n - k + 1):
        m[i, i:i + k] = g
    return m


if not _typing.TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "not covered yet" for a TF name, "did you mean" for a typo
        if name.startswith("_"):  # (private and special names: no lookup, no import)
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from ._missing import attribute_error
        raise attribute_error("image", name)
