"""Keras 3's ``keras.ops.image`` warps and filters, as its TensorFlow backend computes them:
``affine_transform``, ``perspective_transform``, ``map_coordinates``, ``elastic_transform``,
``gaussian_blur``, ``scale_and_translate``, ``sobel_edges``, ``ssim``, ``pad_images``,
``crop_images``; and the resampling these share with the augmentation layers (the projective
warp of ``ImageProjectiveTransformV3``, Keras's Gaussian kernel, its homography and its
``map_coordinates`` index rule), kept here in one place.

``keras/ops.py`` gathers them into its ``keras.ops.image`` module.
"""
from __future__ import annotations

import itertools
from typing import Any, Sequence

import numpy as np

from ._engine import convert_to_tensor, custom_gradient
from ._engine import Tensor
from ..ops import array as _a
from ..ops import conv as _conv
from ..ops import indexing as _ix
from ..ops import linalg as _la
from ..ops import math as _m
from ..ops import reduction as _r
from ..ops import special as _sp
from .. import image as _tf_image
from .. import random as _tf_random
from . import backend
from . import random as _krandom

_INTERPOLATIONS = ("nearest", "bilinear")
_FILL_MODES = ("constant", "nearest", "wrap", "reflect")
_MAP_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")
# (Keras 3.15 maps "triangle" to the linear kernel but refuses it, as it is not in this list)
_METHODS = ("linear", "bilinear", "trilinear", "cubic", "bicubic", "tricubic", "lanczos3", "lanczos5")


# ---- shared resampling (the augmentation layers use these too) -----------------------------------

def _map_coordinate(c: np.ndarray, n: int, mode: str) -> np.ndarray:
    """TensorFlow's ``MapCoordinate``: an input coordinate outside ``[0, n - 1]`` folded back."""
    if mode == "constant":
        return c
    if n <= 1:
        return np.where((c < 0) | (c > n - 1), np.float32(0), c) if mode != "nearest" else np.clip(c, 0, max(n - 1, 0))
    c = c.copy()
    if mode == "reflect":
        s2 = 2 * n
        neg, pos = c < 0, c > n - 1
        cn = c[neg]
        cn = np.where(cn < s2, s2 * np.trunc(-cn / s2) + cn, cn)
        c[neg] = np.where(cn < -n, cn + s2, -cn - 1)
        cp = c[pos]
        cp = cp - s2 * np.trunc(cp / s2)
        c[pos] = np.where(cp >= n, s2 - cp - 1, cp)
    elif mode == "wrap":
        s = n - 1
        neg, pos = c < 0, c > n - 1
        c[neg] = c[neg] + n * (np.trunc(-c[neg] / s) + 1)
        c[pos] = c[pos] - n * np.trunc(c[pos] / s)
    return np.clip(c, 0, n - 1).astype(np.float32)


def projective_warp(x: Tensor, transforms: np.ndarray, interpolation: str, fill_mode: str,
                    fill_value: float) -> Tensor:
    """``ImageProjectiveTransformV3`` of a channels-last batch: output pixel ``(y, x)`` of image
    ``b`` samples the input at ``((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)``, ``k = c0 x
    + c1 y + 1``, for ``transforms[b] = [a0, a1, a2, b0, b1, b2, c0, c1]`` (one row: every image).
    Gathers with fixed weights: the gradient to the images is the warp's exact adjoint."""
    b, h, w, c = (int(d) for d in x.shape)
    t = np.asarray(transforms, np.float32).reshape(-1, 8)
    t = np.broadcast_to(t, (b, 8)) if t.shape[0] == 1 else t
    t = t[:, :, None, None]
    ys, xs = np.meshgrid(np.arange(h, dtype=np.float32), np.arange(w, dtype=np.float32), indexing="ij")
    k = t[:, 6] * xs + t[:, 7] * ys + np.float32(1)
    src_x = _map_coordinate((t[:, 0] * xs + t[:, 1] * ys + t[:, 2]) / k, w, fill_mode)
    src_y = _map_coordinate((t[:, 3] * xs + t[:, 4] * ys + t[:, 5]) / k, h, fill_mode)
    base = np.arange(b).reshape(b, 1, 1) * (h * w)
    outside = b * h * w     # the index of an appended row of fill_value
    flat = _a.concat([_a.reshape(x, [b * h * w, c]), _a.fill([1, c], _m.cast(fill_value, x.dtype))], axis=0)

    def read(yi: np.ndarray, xi: np.ndarray) -> np.ndarray:
        ok = (yi >= 0) & (yi < h) & (xi >= 0) & (xi < w) & (k != 0)
        return np.where(ok, base + yi.clip(0, h - 1) * w + xi.clip(0, w - 1), outside).reshape(-1)

    if interpolation == "nearest":   # std::round: halves away from zero
        ry = (np.sign(src_y) * np.floor(np.abs(src_y) + 0.5)).astype(np.int64)
        rx = (np.sign(src_x) * np.floor(np.abs(src_x) + 0.5)).astype(np.int64)
        return _a.reshape(_ix.gather(flat, read(ry, rx)), [b, h, w, c])
    y0, x0 = np.floor(src_y), np.floor(src_x)
    wy1, wx1 = src_y - y0, src_x - x0
    wy0, wx0 = (y0 + 1) - src_y, (x0 + 1) - src_x
    y0i, x0i = y0.astype(np.int64), x0.astype(np.int64)
    integer = not x.dtype.is_floating
    src = _m.cast(flat, "float32") if integer else flat
    dt = src.dtype.as_numpy_dtype

    def weight(wgt: np.ndarray) -> Tensor:
        return convert_to_tensor(wgt.reshape(-1, 1).astype(dt))

    def row(yi: np.ndarray) -> Tensor:   # TF's kernel: (x_ceil - x) * v0 + (x - x_floor) * v1
        return (weight(wx0) * _ix.gather(src, read(yi, x0i))
                + weight(wx1) * _ix.gather(src, read(yi, x0i + 1)))

    out = _a.reshape(weight(wy0) * row(y0i) + weight(wy1) * row(y0i + 1), [b, h, w, c])
    return _m.cast(out, x.dtype) if integer else out


def gaussian_kernel(kernel_size: Sequence, sigma: Sequence, dtype: Any = np.float32) -> np.ndarray:
    """Keras's ``gaussian_blur`` kernel: ``outer(g(size[1], sigma[1]), g(size[0], sigma[0]))``
    laid out as ``(size[0], size[1])``, ``g`` a normalised 1-D Gaussian, computed in ``dtype``."""
    dt = np.dtype(dtype)

    def g(n: int, s: Any) -> np.ndarray:
        v = np.arange(n, dtype=dt) - dt.type((n - 1) / 2)
        k = np.exp(dt.type(-0.5) * (v / dt.type(s)) ** 2)
        return k / k.sum(dtype=dt)
    k0, k1 = int(kernel_size[0]), int(kernel_size[1])
    return np.multiply.outer(g(k1, sigma[1]), g(k0, sigma[0])).reshape(k0, k1).astype(dt)


def blur(x: Tensor, kernel: np.ndarray) -> Tensor:
    """A per-channel 2-D filter, zero-padded to the same size (``depthwise_conv2d`` ``"SAME"``)."""
    c = int(x.shape[-1])
    k = np.tile(kernel.reshape(kernel.shape[0], kernel.shape[1], 1, 1), [1, 1, c, 1])
    return _conv.depthwise_conv2d(x, convert_to_tensor(k.astype(x.dtype.as_numpy_dtype)), [1, 1, 1, 1], "SAME")


def homography(start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Keras's ``compute_homography_matrix``: the 8 projective coefficients taking each ``end``
    point to its ``start`` point (solved per image)."""
    rows = []
    for i in range(4):
        ex, ey, sx, sy = end[:, i, 0], end[:, i, 1], start[:, i, 0], start[:, i, 1]
        one, zero = np.ones_like(ex), np.zeros_like(ex)
        rows.append(np.stack([ex, ey, one, zero, zero, zero, -sx * ex, -sx * ey], axis=-1))
        rows.append(np.stack([zero, zero, zero, ex, ey, one, -sy * ex, -sy * ey], axis=-1))
    a = np.stack(rows, axis=1).astype(np.float64)
    target = start.reshape(-1, 8).astype(np.float64)[..., None]
    return np.linalg.solve(a, target).reshape(-1, 8).astype(np.float32)


def fold_index(index: np.ndarray, size: int, mode: str) -> tuple:
    """Keras's ``map_coordinates`` index rule: the index to read and whether it is inside."""
    if mode == "constant":
        return np.clip(index, 0, size - 1), (index >= 0) & (index < size)
    if mode == "nearest":
        return np.clip(index, 0, size - 1), None
    if mode == "wrap":
        return index % size, None
    mod = np.abs(index) % (2 * size)     # "reflect" and "mirror", as Keras's TensorFlow backend
    return np.where(mod < size, mod, 2 * size - mod - (mode == "reflect")), None


def map_images(x: Tensor, ys: np.ndarray, xs: np.ndarray, order: int, mode: str, fill_value: float) -> Tensor:
    """Keras's ``map_coordinates`` for each image and channel of the batch ``x`` at the
    (batch, h, w) coordinates ``ys``, ``xs`` (order 0: rounded; 1: linear)."""
    b, h, w, c = (int(d) for d in x.shape)
    flat = _a.reshape(x, [b * h * w, c])
    base = np.arange(b).reshape(b, 1, 1) * (h * w)
    dt = x.dtype.as_numpy_dtype

    def nodes(v: np.ndarray) -> list:
        if order == 0:
            return [(np.round(v).astype(np.int32), dt(1))]
        lower = np.floor(v)
        upper = (v - lower).astype(dt)
        return [(lower.astype(np.int32), dt(1) - upper), (lower.astype(np.int32) + 1, upper)]

    out = None
    for yi, wy in nodes(ys):
        for xi, wx in nodes(xs):
            sy, vy = fold_index(yi, h, mode)
            sx, vx = fold_index(xi, w, mode)
            g = _a.reshape(_ix.gather(flat, (base + sy * w + sx).reshape(-1)), [b, h, w, c])
            if vy is not None:
                g = _m.where(np.broadcast_to((vy & vx)[..., None], g.shape), g, _m.cast(fill_value, x.dtype))
            term = convert_to_tensor(np.broadcast_to(np.asarray(wy * wx, dt), (b, h, w))[..., None]) * g
            out = term if out is None else out + term
    return out


def elastic_displacement(b: int, h: int, w: int, alpha: Any, sigma: Any, seed: Any, dtype: Any) -> tuple:
    """Keras's elastic displacement field: normal noise (one draw, for x and y alike) times
    ``sigma``, blurred by a Gaussian of ``sigma`` and size ``6 * int(sigma) | 1``, times
    ``alpha``; returns the coordinates ``(ys, xs)`` to read, each ``(b, h, w)``."""
    dt = np.dtype(dtype)
    alpha, sigma = dt.type(alpha), dt.type(sigma)
    k = 6 * int(sigma) | 1
    noise = _tf_random.stateless_normal((b, h, w), seed=_krandom._seed_pair(seed), dtype=dt.name).numpy() * sigma
    d = blur(convert_to_tensor(noise[..., None]), gaussian_kernel((k, k), (sigma, sigma), dt)).numpy()[..., 0]
    gx, gy = np.meshgrid(np.arange(w, dtype=dt), np.arange(h, dtype=dt), indexing="xy")
    return gy[None] + alpha * d, gx[None] + alpha * d


# ---- keras.ops.image ------------------------------------------------------------------------------

def _data_format(data_format: Any) -> str:
    fmt = backend.image_data_format() if data_format is None else str(data_format).lower()
    if fmt not in ("channels_last", "channels_first"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
                         f"Received: data_format={data_format}")
    return fmt


def _rank_check(x: Tensor, name: str = "images") -> None:
    if x.shape.rank not in (3, 4):
        raise ValueError(f"Invalid {name} rank: expected rank 3 (single image) or rank 4 (batch of images). "
                         f"Received input with shape: {name}.shape={tuple(x.shape.as_list())}")


def _batch(x: Tensor, data_format: str) -> tuple:
    """``x`` as a channels-last batch, and how to give a result back in the caller's layout."""
    single, first = x.shape.rank == 3, data_format == "channels_first"
    x = _a.expand_dims(x, 0) if single else x
    x = _a.transpose(x, [0, 2, 3, 1]) if first else x

    def back(y: Tensor) -> Tensor:
        y = _a.transpose(y, [0, 3, 1, 2]) if first else y
        return _a.squeeze(y, [0]) if single else y
    return x, back


def _check_interpolation(interpolation: str) -> None:
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Invalid value for argument `interpolation`. Expected of one {_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")


def _check_fill_mode(fill_mode: str, modes: tuple = _FILL_MODES) -> None:
    if fill_mode not in modes:
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected of one {modes}. "
                         f"Received: fill_mode={fill_mode}")


def _inverse(t: np.ndarray) -> np.ndarray:
    """TensorFlow's gradient transform: the flat transforms of the inverse matrices."""
    m = np.concatenate([t, np.ones((t.shape[0], 1), np.float32)], axis=1).reshape(-1, 3, 3)
    inv = np.linalg.inv(m.astype(np.float32))
    return (inv.reshape(-1, 9)[:, :8] / inv.reshape(-1, 9)[:, 8:]).astype(np.float32)


def _warp(x: Tensor, t: np.ndarray, interpolation: str, fill_mode: str, fill_value: Any) -> Tensor:
    """:func:`projective_warp` with TensorFlow's gradient (``ImageProjectiveTransformV3``'s: the
    incoming gradient warped by the inverse transforms, ``fill_value`` 0)."""
    t = np.asarray(t, np.float32).reshape(-1, 8)
    if not x.dtype.is_floating:
        return projective_warp(x, t, interpolation, fill_mode, fill_value)

    @custom_gradient
    def warp(images: Tensor) -> tuple:
        def grad(dy: Tensor) -> Tensor:
            return projective_warp(dy, _inverse(t), interpolation, fill_mode, 0.0)
        return projective_warp(images, t, interpolation, fill_mode, fill_value), grad
    return warp(x)


def affine_transform(images: Any, transform: Any, interpolation: str = "bilinear", fill_mode: str = "constant",
                     fill_value: Any = 0, data_format: Any = None) -> Tensor:
    """Keras's ``keras.ops.image.affine_transform``: each image resampled at the projective
    ``transform`` of its pixel coordinates (a row ``[a0, a1, a2, b0, b1, b2, c0, c1]`` maps the
    output point ``(x, y)`` to the input point ``((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) /
    k)``, ``k = c0 x + c1 y + 1``; one row or one per image), as TensorFlow's
    ``ImageProjectiveTransformV3`` (``fill_mode`` ``"constant"``, ``"nearest"``, ``"wrap"`` or
    ``"reflect"``; ``interpolation`` ``"nearest"`` or ``"bilinear"``). Gradients reach the images
    as TensorFlow's do, not the transform.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> x = np.arange(9, dtype="float32").reshape(3, 3, 1)
    >>> keras.ops.image.affine_transform(x, [1, 0, 1, 0, 1, 0, 0, 0]).numpy()[..., 0]
    array([[1., 2., 0.],
           [4., 5., 0.],
           [7., 8., 0.]], dtype=float32)
    """
    fmt = _data_format(data_format)
    _check_interpolation(interpolation)
    _check_fill_mode(fill_mode)
    x, t = convert_to_tensor(images), convert_to_tensor(transform)
    _rank_check(x)
    if t.shape.rank not in (1, 2):
        raise ValueError("Invalid transform rank: expected rank 1 (single transform) or rank 2 (batch of "
                         f"transforms). Received input with shape: transform.shape={tuple(t.shape.as_list())}")
    x, back = _batch(x, fmt)
    return back(_warp(x, t.numpy(), interpolation, fill_mode, fill_value))


def _points(p: Any, name: str) -> np.ndarray:
    v = np.asarray(convert_to_tensor(p).numpy(), np.float32)
    if v.ndim not in (2, 3) or v.shape[-2:] != (4, 2):
        raise ValueError(f"Invalid {name} shape: expected (4,2) for a single image or (N,4,2) for a batch. "
                         f"Received shape: {v.shape}")
    return v


def perspective_transform(images: Any, start_points: Any, end_points: Any, interpolation: str = "bilinear",
                          fill_value: Any = 0, data_format: Any = None) -> Tensor:
    """Keras's ``keras.ops.image.perspective_transform``: each image warped by the homography
    taking its 4 ``end_points`` to its 4 ``start_points`` (``(4, 2)`` or ``(N, 4, 2)``, ``(x,
    y)`` pairs); points outside take ``fill_value``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> pts = np.array([[0, 0], [3, 0], [0, 3], [3, 3]], "float32")
    >>> keras.ops.image.perspective_transform(np.ones((4, 4, 1), "float32"), pts, pts + 1).numpy()[0, :, 0]
    array([0., 0., 0., 0.], dtype=float32)
    """
    fmt = _data_format(data_format)
    _check_interpolation(interpolation)
    x = convert_to_tensor(images)
    _rank_check(x)
    start, end = _points(start_points, "start_points"), _points(end_points, "end_points")
    if start.shape != end.shape:
        raise ValueError(f"start_points and end_points must have the same shape. Received start_points.shape="
                         f"{start.shape}, end_points.shape={end.shape}")
    start, end = (v[None] if v.ndim == 2 else v for v in (start, end))
    x, back = _batch(x, fmt)
    return back(_warp(x, homography(start, end), interpolation, "constant", fill_value))


def map_coordinates(inputs: Any, coordinates: Any, order: int, fill_mode: str = "constant",
                    fill_value: Any = 0) -> Tensor:
    """Keras's ``keras.ops.image.map_coordinates``: ``inputs`` (any rank) read at
    ``coordinates`` (its first axis the rank of ``inputs``), order 0 (nearest) or 1 (linear),
    points outside folded by ``fill_mode`` (``"constant"``, ``"nearest"``, ``"wrap"``,
    ``"mirror"``, ``"reflect"``). Gradients reach the inputs and, for order 1, the coordinates.

    >>> from tapegrad import keras
    >>> keras.ops.image.map_coordinates([[1.0, 2.0], [3.0, 4.0]], [[0.5], [0.5]], order=1).numpy()
    array([2.5], dtype=float32)
    """
    x, c = convert_to_tensor(inputs), convert_to_tensor(coordinates)
    if c.shape[0] != x.shape.rank:
        raise ValueError("First dim of `coordinates` must be the same as the rank of `inputs`. Received inputs "
                         f"with shape: {tuple(x.shape.as_list())} and coordinate leading dim of {c.shape[0]}")
    if c.shape.rank < 2:
        raise ValueError("Invalid coordinates rank: expected at least rank 2. Received input with shape: "
                         f"{tuple(c.shape.as_list())}")
    if fill_mode not in _MAP_FILL_MODES:
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected one of {set(_MAP_FILL_MODES)}. "
                         f"Received: fill_mode={fill_mode}")
    if order not in (0, 1):
        raise NotImplementedError("map_coordinates currently requires order<=1")
    fill = convert_to_tensor(fill_value, dtype=x.dtype)

    def nodes(v: Tensor) -> list:
        if order == 0:
            v = v if v.dtype.is_integer else _sp.round(v)
            return [(_m.cast(v, "int32"), convert_to_tensor(1, dtype=v.dtype))]
        lower = _sp.floor(v)
        upper = v - lower
        index = _m.cast(lower, "int32")
        return [(index, 1 - upper), (index + 1, upper)]

    def fold(i: Tensor, size: int) -> tuple:
        if fill_mode == "constant":
            return _m.clip_by_value(i, 0, size - 1), _m.logical_and(i >= 0, i < size)
        if fill_mode == "nearest":
            return _m.clip_by_value(i, 0, size - 1), None
        if fill_mode == "wrap":
            return _m.floormod(i, size), None
        mod = _m.floormod(_m.abs(i), 2 * size)
        i = _m.where(mod < size, mod, 2 * size - mod)
        return (_m.where(mod >= size, i - 1, i) if fill_mode == "reflect" else i), None

    axes = [[(fold(i, int(n)), wgt) for i, wgt in nodes(v)] for v, n in zip(_a.unstack(c, axis=0), x.shape)]
    out = None
    for items in itertools.product(*axes):
        idx = _a.stack([i for (i, _), _ in items], axis=-1)
        weights = [wgt for _, wgt in items]
        g = _m.cast(_ix.gather_nd(x, idx), weights[0].dtype)
        if fill_mode == "constant":
            valid = _r.reduce_all(_a.stack([v for (_, v), _ in items], axis=0), axis=0)
            g = _m.where(valid, g, _m.cast(fill, weights[0].dtype))
        wgt = weights[0]
        for more in weights[1:]:
            wgt = wgt * more
        term = wgt * g
        out = term if out is None else out + term
    if x.dtype.is_integer:
        out = _sp.round(out)
    return _m.cast(out, x.dtype)


def gaussian_blur(images: Any, kernel_size: Sequence = (3, 3), sigma: Sequence = (1.0, 1.0),
                  data_format: Any = None) -> Tensor:
    """Keras's ``keras.ops.image.gaussian_blur``: each channel filtered by the Gaussian of
    ``kernel_size`` ``(height, width)`` and ``sigma``, zero-padded to the same size.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.ops.image.gaussian_blur(np.ones((1, 5, 5, 3), "float32")).shape
    TensorShape([1, 5, 5, 3])
    """
    x = convert_to_tensor(images)
    _rank_check(x)
    x, back = _batch(x, _data_format(data_format))
    dt = x.dtype.as_numpy_dtype
    size = np.asarray(kernel_size, dt)
    return back(blur(x, gaussian_kernel((int(size[0]), int(size[1])), np.asarray(sigma, dt), dt)))


def elastic_transform(images: Any, alpha: float = 20.0, sigma: float = 5.0, interpolation: str = "bilinear",
                      fill_mode: str = "reflect", fill_value: float = 0.0, seed: Any = None,
                      data_format: Any = None) -> Tensor:
    """Keras's ``keras.ops.image.elastic_transform``: each image's pixels moved by ``alpha``
    times a normal noise field (``seed``: an int, a ``keras.random.SeedGenerator`` or ``None``)
    smoothed by a Gaussian of ``sigma``, resampled with ``interpolation`` and ``fill_mode``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.ops.image.elastic_transform(np.ones((8, 8, 3), "float32"), seed=1).shape
    TensorShape([8, 8, 3])
    """
    fmt = _data_format(data_format)
    _check_interpolation(interpolation)
    _check_fill_mode(fill_mode)
    x = convert_to_tensor(images)
    _rank_check(x)
    x, back = _batch(x, fmt)
    b, h, w, _ = (int(d) for d in x.shape)
    ys, xs = elastic_displacement(b, h, w, alpha, sigma, seed, x.dtype.as_numpy_dtype)
    return back(map_images(x, ys, xs, _INTERPOLATIONS.index(interpolation), fill_mode, fill_value))


def _kernel(method: str, x: Tensor) -> Tensor:
    if method == "linear":
        return _m.maximum(_m.cast(0, x.dtype), 1 - _m.abs(x))
    if method == "cubic":
        out = ((1.5 * x - 2.5) * x) * x + 1.0
        out = _m.where(x >= 1.0, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0, out)
        return _m.where(x >= 2.0, _m.zeros_like(x), out)
    radius = 3.0 if method == "lanczos3" else 5.0
    y = radius * _m.sin(np.pi * x) * _m.sin(np.pi * x / radius)
    out = _m.where(x > 1e-3, y / _m.where(x != 0, np.pi ** 2 * x ** 2, _m.ones_like(x)), _m.ones_like(x))
    return _m.where(x > radius, _m.zeros_like(x), out)


def _weight_matrix(n_in: int, n_out: int, scale: Tensor, translation: Tensor, method: str,
                   antialias: bool) -> Tensor:
    """Keras's ``_compute_weight_mat``: ``(n_in, n_out)`` resampling weights."""
    dt = scale.dtype
    inv = 1.0 / scale
    kernel_scale = _m.maximum(inv, _m.cast(1.0, dt)) if antialias else 1.0
    sample = (_a.range(n_out, dtype=dt) + 0.5) * inv - translation * inv - 0.5
    x = _m.abs(sample[None, :] - _a.range(n_in, dtype=dt)[:, None]) / kernel_scale
    weights = _kernel(method, x)
    total = _r.reduce_sum(weights, axis=0, keepdims=True)
    eps = 1000.0 * float(np.finfo(np.float32).eps)
    weights = _m.where(_m.abs(total) > eps, weights / _m.where(total != 0, total, _m.ones_like(total)),
                       _m.zeros_like(weights))
    inside = _m.logical_and(sample >= -0.5, sample <= _m.cast(n_in, dt) - 0.5)[None, :]
    return _m.where(_a.broadcast_to(inside, weights.shape), weights, _m.zeros_like(weights))


def scale_and_translate(images: Any, output_shape: Sequence, scale: Any, translation: Any,
                        spatial_dims: Sequence, method: str, antialias: bool = True) -> Tensor:
    """Keras's ``keras.ops.image.scale_and_translate`` (JAX's): ``images`` resampled along
    ``spatial_dims`` to ``output_shape``'s sizes there, input location ``x`` going to ``x *
    scale + translation`` (half-centred pixels), with the ``method`` kernel (``"linear"``,
    ``"cubic"``, ``"lanczos3"``, ``"lanczos5"`` and their aliases), widened when downsampling if
    ``antialias``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> s = np.array([2.0, 2.0], "float32")
    >>> keras.ops.image.scale_and_translate(np.arange(4, dtype="float32").reshape(2, 2), (3, 3), s,
    ...                                     -(s / 2 - 0.5), (0, 1), "linear").numpy()[0]
    array([0. , 0.5, 1. ], dtype=float32)
    """
    if method not in _METHODS:
        raise ValueError(f"Invalid value for argument `method`. Expected of one {set(_METHODS)}. "
                         f"Received: method={method}")
    method = ("linear" if method in ("linear", "bilinear", "trilinear", "triangle") else
              "cubic" if method in ("cubic", "bicubic", "tricubic") else method)
    x = convert_to_tensor(images)
    scale, translation = convert_to_tensor(scale), convert_to_tensor(translation)
    dt = backend.result_type(scale.dtype.name, translation.dtype.name)
    scale, translation = _m.cast(scale, dt), _m.cast(translation, dt)
    if len(spatial_dims) == 0:
        return x
    integer = x.dtype.is_integer
    out = _m.cast(x, "float32") if integer else x
    rank = x.shape.rank
    for i, d in enumerate(spatial_dims):
        d = d % rank
        w = _m.cast(_weight_matrix(int(x.shape[d]), int(output_shape[d]), scale[i], translation[i], method,
                                   antialias), out.dtype)
        out = _la.tensordot(out, w, axes=[[d], [0]])
        perm = list(range(rank - 1))
        perm.insert(d, rank - 1)
        out = _a.transpose(out, perm)
    if integer:
        out = _m.cast(_m.clip_by_value(_sp.round(out), _m.cast(_r.reduce_min(x), "float32"),
                                       _m.cast(_r.reduce_max(x), "float32")), x.dtype)
    return out


def sobel_edges(images: Any, data_format: Any = None) -> Tensor:
    """Keras's ``keras.ops.image.sobel_edges``: ``tf.image.sobel_edges`` of a batch, ``(batch,
    height, width, channels, 2)`` holding ``[dy, dx]`` (channels first: ``(batch, channels,
    height, width, 2)``).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.ops.image.sobel_edges(np.zeros((1, 8, 8, 1), "float32")).shape
    TensorShape([1, 8, 8, 1, 2])
    """
    x = convert_to_tensor(images)
    first = _data_format(data_format) == "channels_first"
    x = _a.transpose(x, [0, 2, 3, 1]) if first else x
    edges = _tf_image.sobel_edges(x)
    return _a.transpose(edges, [0, 3, 1, 2, 4]) if first else edges


def ssim(image1: Any, image2: Any, max_val: float = 1.0, filter_size: int = 11, filter_sigma: float = 1.5,
         k1: float = 0.01, k2: float = 0.03, data_format: Any = None) -> Tensor:
    """Keras's ``keras.ops.image.ssim``: the structural similarity of two images (or batches),
    local statistics under a ``filter_size`` Gaussian of ``filter_sigma`` (no padding), averaged
    over the positions, then the channels: a scalar per image, in ``image1``'s dtype. (Keras's
    own formula; ``tf.image.ssim`` differs.)

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> x = np.random.default_rng(0).random((16, 16, 3)).astype("float32")
    >>> round(float(keras.ops.image.ssim(x, x)), 4)
    1.0
    """
    fmt = _data_format(data_format)
    a, b = convert_to_tensor(image1), convert_to_tensor(image2)
    original = a.dtype
    dt = backend.result_type(a.dtype.name, float)
    a, b = _m.cast(a, dt), _m.cast(b, dt)
    _rank_check(a, "image1")
    _rank_check(b, "image2")
    single = a.shape.rank == 3
    if single:
        a, b = _a.expand_dims(a, 0), _a.expand_dims(b, 0)
    if fmt == "channels_first":
        a, b = _a.transpose(a, [0, 2, 3, 1]), _a.transpose(b, [0, 2, 3, 1])
    n, h, w, c = (int(d) for d in a.shape)
    npdt = np.dtype(dt)
    g = np.arange(filter_size, dtype=npdt) - npdt.type((filter_size - 1) / 2.0)
    g = np.exp(-(g ** 2) / npdt.type(2.0 * filter_sigma ** 2))
    g = g / g.sum(dtype=npdt)
    kernel = convert_to_tensor(np.outer(g, g).reshape(filter_size, filter_size, 1, 1).astype(npdt))

    def mean(v: Tensor) -> Tensor:
        return _conv.conv2d(v, kernel, [1, 1, 1, 1], "VALID")

    a = _a.reshape(_a.transpose(a, [0, 3, 1, 2]), [-1, h, w, 1])
    b = _a.reshape(_a.transpose(b, [0, 3, 1, 2]), [-1, h, w, 1])
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mu1, mu2 = mean(a), mean(b)
    mu1_sq, mu2_sq, mu12 = mu1 * mu1, mu2 * mu2, mu1 * mu2
    s1, s2, s12 = mean(a * a) - mu1_sq, mean(b * b) - mu2_sq, mean(a * b) - mu12
    value = ((2.0 * mu12 + c1) * (2.0 * s12 + c2)) / ((mu1_sq + mu2_sq + c1) * (s1 + s2 + c2))
    out = _r.reduce_mean(_a.reshape(_r.reduce_mean(value, axis=[1, 2, 3]), [n, c]), axis=-1)
    return _m.cast(_a.squeeze(out, [0]) if single else out, original)


def _nonnegative(**values: Any) -> None:
    for name, v in values.items():
        if v is not None and v < 0:
            raise ValueError(f"{name} must be >= 0. Received: {name}={v}")


def _two_of(kind: str, a: Any, b: Any, target: Any, sides: tuple, dim: str) -> None:
    if [a, b, target].count(None) != 1:
        raise ValueError(f"Must specify exactly two of {sides[0]}_{kind}, {sides[1]}_{kind}, target_{dim}. "
                         f"Received: {sides[0]}_{kind}={a}, {sides[1]}_{kind}={b}, target_{dim}={target}")


def _hw(x: Tensor, fmt: str) -> tuple:
    return (int(x.shape[-3]), int(x.shape[-2])) if fmt == "channels_last" else (int(x.shape[-2]), int(x.shape[-1]))


def _check_images_rank(x: Tensor) -> None:
    if x.shape.rank not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). "
                         f"Received: images.shape={tuple(x.shape.as_list())}")


def pad_images(images: Any, top_padding: int | None = None, left_padding: int | None = None,
               bottom_padding: int | None = None, right_padding: int | None = None, target_height: int | None = None,
               target_width: int | None = None, data_format: Any = None) -> Tensor:
    """Keras's ``keras.ops.image.pad_images``: zeros around each image, given two of
    ``top_padding``, ``bottom_padding``, ``target_height`` and two of ``left_padding``,
    ``right_padding``, ``target_width``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.ops.image.pad_images(np.ones((15, 25, 3)), 2, 3, target_height=20, target_width=30).shape
    TensorShape([20, 30, 3])
    """
    fmt = _data_format(data_format)
    x = convert_to_tensor(images)
    _check_images_rank(x)
    _two_of("padding", top_padding, bottom_padding, target_height, ("top", "bottom"), "height")
    _two_of("padding", left_padding, right_padding, target_width, ("left", "right"), "width")
    _nonnegative(top_padding=top_padding, bottom_padding=bottom_padding, target_height=target_height,
                 left_padding=left_padding, right_padding=right_padding, target_width=target_width)
    h, w = _hw(x, fmt)
    top = target_height - bottom_padding - h if top_padding is None else top_padding
    bottom = target_height - top - h if bottom_padding is None else bottom_padding
    left = target_width - right_padding - w if left_padding is None else left_padding
    right = target_width - left - w if right_padding is None else right_padding
    _nonnegative(top_padding=top, left_padding=left, right_padding=right, bottom_padding=bottom)
    widths = [[top, bottom], [left, right]]
    widths = widths + [[0, 0]] if fmt == "channels_last" else [[0, 0]] + widths
    widths = [[0, 0]] + widths if x.shape.rank == 4 else widths
    return _a.pad(x, widths)


def crop_images(images: Any, top_cropping: int | None = None, left_cropping: int | None = None,
                bottom_cropping: int | None = None, right_cropping: int | None = None,
                target_height: int | None = None, target_width: int | None = None, data_format: Any = None) -> Tensor:
    """Keras's ``keras.ops.image.crop_images``: each image cropped, given two of
    ``top_cropping``, ``bottom_cropping``, ``target_height`` and two of ``left_cropping``,
    ``right_cropping``, ``target_width``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.ops.image.crop_images(np.ones((3, 3, 3), "float32"), 0, 0, target_height=2, target_width=2).shape
    TensorShape([2, 2, 3])
    """
    fmt = _data_format(data_format)
    x = convert_to_tensor(images)
    _check_images_rank(x)
    _two_of("cropping", top_cropping, bottom_cropping, target_height, ("top", "bottom"), "height")
    _two_of("cropping", left_cropping, right_cropping, target_width, ("left", "right"), "width")
    _nonnegative(top_cropping=top_cropping, bottom_cropping=bottom_cropping, target_height=target_height,
                 left_cropping=left_cropping, right_cropping=right_cropping, target_width=target_width)
    h, w = _hw(x, fmt)
    top = h - target_height - bottom_cropping if top_cropping is None else top_cropping
    th = h - bottom_cropping - top if target_height is None else target_height
    left = w - target_width - right_cropping if left_cropping is None else left_cropping
    tw = w - right_cropping - left if target_width is None else target_width
    _nonnegative(top_cropping=top, target_height=th, left_cropping=left, target_width=tw)
    begin, size = [top, left], [th, tw]
    ch = int(x.shape[-1] if fmt == "channels_last" else x.shape[-3])
    begin, size = (begin + [0], size + [ch]) if fmt == "channels_last" else ([0] + begin, [ch] + size)
    if x.shape.rank == 4:
        begin, size = [0] + begin, [int(x.shape[0])] + size
    return _ix.slice(x, begin, size)
