"""Convolutions and pooling over NHWC images (NWC sequences are images of height 1).

Forwards are vectorised: ``sliding_window_view`` gives every window of the padded input as a
strided view ``[N, OH, OW, C, KH, KW]``, copied once into an im2col matrix, and one matmul
(batched over groups) does the multiply-add. Scatters back into the input (the transposed
convolution, pooling gradients) loop over kernel positions, never over pixels.

The convolution family is three bilinear ops that are each other's derivatives, so every order
of differentiation stays inside the family (``T(x, w, g) = <g, conv(x, w)>``)::

    Conv2D(x, w)               = y     d/dx: BackpropInput(g, w)   d/dw: BackpropFilter(x, g)
    Conv2DBackpropInput(g, w)  = dx    d/dg: Conv2D(h, w)          d/dw: BackpropFilter(h, g)
    Conv2DBackpropFilter(x, g) = dw    d/dx: BackpropInput(g, k)   d/dg: Conv2D(x, k)

Grouped convolution (input channels a multiple of the filter's) is built in; depthwise
convolution is the grouped case with one input channel per group. Pooling has the same shape:
``AvgPool``/``AvgPoolGrad`` are adjoint linear maps, and ``MaxPool``'s gradient routes through
the (non-differentiable) index of each window's first maximum.

Every op takes 4-D core operands; extra leading axes (a batch of cotangents in a Jacobian walk)
broadcast between the operands like matmul's batch axes, and are folded into the image axis
where the op allows it.
"""
from __future__ import annotations

import collections
import math
from typing import Any, Callable, Sequence

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .. import _backend as _bk, _blas, _jit, _vmap, dtypes as _dt
from .._convert import as_tensor, binary_operands
from .._dispatch import apply, defop, zeros_like
from .._tensor import Tensor
from ..errors import OutOfRangeError, UnimplementedError
from .array import (_err, _int_list, _pad_form, batch_to_space, pad, required_space_to_batch_paddings, reshape,
                    space_to_batch_nd, stack, transpose)
from .math import add_n
from .reduction import reduce_max, reduce_mean

__all__ = ["conv1d", "conv2d", "depthwise_conv2d", "conv2d_transpose", "conv1d_transpose",
    "atrous_conv2d", "separable_conv2d", "max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d",
    "max_pool", "avg_pool", "convolution", "conv3d", "max_pool3d", "avg_pool3d", "conv3d_transpose",
    "max_pool_with_argmax", "conv_transpose", "pool", "extract_patches", "extract_volume_patches", "atrous_conv2d_transpose", "depthwise_conv2d_backprop_filter", "depthwise_conv2d_backprop_input", "with_space_to_batch"]


Pads = tuple  # ((top, bottom), (left, right))


# --------------------------------------------------------------------------- geometry
def _out_size(n: int, k: int, s: int, d: int, pad: tuple) -> int:
    span = n + pad[0] + pad[1] - (k - 1) * d - 1
    return span // s + 1 if span >= 0 else 0


def _windows(xp: np.ndarray, kh: int, kw: int, strides: tuple, dilations: tuple,
             oh: int, ow: int) -> np.ndarray:
    """All windows of a padded core ``[N, Hp, Wp, C]`` as a view ``[N, OH, OW, C, KH, KW]``."""
    (sh, sw), (dh, dw) = strides, dilations
    v = sliding_window_view(xp, ((kh - 1) * dh + 1, (kw - 1) * dw + 1), axis=(1, 2))
    return v[:, :(oh - 1) * sh + 1:sh, :(ow - 1) * sw + 1:sw, :, ::dh, ::dw]


def _pad_hw(x: np.ndarray, pads: Pads, value: Any = 0) -> np.ndarray:
    if not any(pads[0]) and not any(pads[1]):
        return x
    return np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)), constant_values=value)


def _taps(kh: int, kw: int, strides: tuple, dilations: tuple, oh: int, ow: int) -> list:
    """For each kernel position (row-major), the index that picks from a padded image
    ``[..., N, Hp, Wp, C]`` the element under that position in every window: ``[..., N, OH, OW, C]``."""
    if not (oh and ow):
        return []
    (sh, sw), (dh, dw) = strides, dilations
    return [(Ellipsis, slice(i * dh, i * dh + (oh - 1) * sh + 1, sh),
             slice(j * dw, j * dw + (ow - 1) * sw + 1, sw), slice(None))
            for i in range(kh) for j in range(kw)]


def _scatter_windows(part: Callable[[int], Any], shape: tuple, taps: list, pads: Pads,
                     dtype: Any) -> np.ndarray:
    """Adjoint of :func:`_windows`: add ``part(k) [..., N, OH, OW, C]``, the contribution of the
    ``k``-th of the kernel positions ``taps``, into a ``shape [..., N, H, W, C]`` image."""
    h, w, c = shape[-3:]
    (pt, pb), (pl, pr) = pads
    out = np.zeros(shape[:-3] + (h + pt + pb, w + pl + pr, c), dtype)
    for k, tap in enumerate(taps):
        out[tap] += part(k)
    return out[..., pt:pt + h, pl:pl + w, :]


# --------------------------------------------------------------------------- leading axes
def _lift(core: Callable, a: np.ndarray, b: np.ndarray, fold_a: bool, **p: Any) -> np.ndarray:
    """Run ``core`` on 4-D operands; leading axes broadcast between ``a`` and ``b``.

    With ``fold_a``, ``a``'s first core axis holds independent images, so when only ``a`` has
    leading axes they are merged into it (one call); otherwise rows are run one by one.
    """
    la, lb = a.shape[:-4], b.shape[:-4]
    if not la and not lb:
        return core(a, b, **p)
    if fold_a and not lb:
        r = core(a.reshape((-1,) + a.shape[-3:]), b, **p)
        return r.reshape(la + (a.shape[-4],) + r.shape[1:])
    lead = np.broadcast_shapes(la, lb)
    rows = int(np.prod(lead, dtype=np.int64))
    A = np.broadcast_to(a, lead + a.shape[-4:]).reshape((rows,) + a.shape[-4:])
    B = np.broadcast_to(b, lead + b.shape[-4:]).reshape((rows,) + b.shape[-4:])
    if rows == 0:
        r = core(np.zeros(a.shape[-4:], a.dtype), np.zeros(b.shape[-4:], b.dtype), **p)
        return np.zeros(lead + r.shape, r.dtype)
    out = [core(A[k], B[k], **p) for k in range(rows)]
    return np.stack(out).reshape(lead + out[0].shape)


# --------------------------------------------------------------------------- convolution cores
# With G groups of Cg input and Og output channels, K = KH * KW * Cg and M = N * OH * OW, the
# convolution is one batched matmul: cols [G, M, K] @ filter [G, K, Og] -> [G, M, Og].
def _cols(x: np.ndarray, kh: int, kw: int, groups: int, strides: tuple, dilations: tuple, pads: Pads,
          oh: int, ow: int) -> np.ndarray:
    """im2col: ``[G, N*OH*OW, KH*KW*Cg]``, rows in output order, columns in filter order."""
    n, c = x.shape[0], x.shape[3]
    if c == 1:  # [K, M], one kernel position a row, copied OW pixels at a time (not KW): transposed
        xp = _pad_hw(x, pads)
        return np.stack([xp[t] for t in _taps(kh, kw, strides, dilations, oh, ow)]).reshape(kh * kw, -1).T[None]
    if groups == 1 and _compiled(x):   # (one compiled copy instead of a strided one: the same values)
        cols = np.empty((n * oh * ow, kh * kw * c), x.dtype)
        _jit.kernel("im2col")(x, kh, kw, *strides, *dilations, pads[0][0], pads[1][0], oh, ow, cols)
        return cols[None]
    v = _windows(_pad_hw(x, pads), kh, kw, strides, dilations, oh, ow).transpose(0, 1, 2, 4, 5, 3)
    if groups == 1:
        return v.reshape(1, n * oh * ow, kh * kw * c)
    v = v.reshape(n * oh * ow, kh * kw, groups, c // groups).transpose(2, 0, 1, 3)
    return v.reshape(groups, n * oh * ow, kh * kw * (c // groups))


def _wmat(w: np.ndarray, groups: int) -> np.ndarray:
    """``[KH, KW, Cg, G*Og]`` filter as ``[G, KH*KW*Cg, Og]``."""
    kh, kw, cg, o = w.shape
    return np.ascontiguousarray(w.reshape(kh * kw * cg, groups, o // groups).transpose(1, 0, 2))


def _gmat(g: np.ndarray, groups: int) -> np.ndarray:
    """``[N, OH, OW, G*Og]`` output (cotangent) as ``[G, N*OH*OW, Og]``."""
    return np.ascontiguousarray(g.reshape(-1, groups, g.shape[3] // groups).transpose(1, 0, 2))


def _conv_core(x: np.ndarray, w: np.ndarray, strides: tuple, dilations: tuple, pads: Pads) -> np.ndarray:
    n, h, wd, c = x.shape
    kh, kw, cg, o = w.shape
    groups = c // cg
    oh = _out_size(h, kh, strides[0], dilations[0], pads[0])
    ow = _out_size(wd, kw, strides[1], dilations[1], pads[1])
    dt = np.result_type(x, w)
    if not (n and oh and ow and o):
        return np.zeros((n, oh, ow, o), dt)
    r = _blas.matmul(_cols(x, kh, kw, groups, strides, dilations, pads, oh, ow), _wmat(w, groups))
    return r.transpose(1, 0, 2).reshape(n, oh, ow, o).astype(dt, copy=False)


def _bi_core(g: np.ndarray, w: np.ndarray, in_shape: tuple, strides: tuple, dilations: tuple,
             pads: Pads) -> np.ndarray:
    n, oh, ow, o = g.shape
    kh, kw, cg, _ = w.shape
    h, wd, c = in_shape[1:]
    groups = c // cg
    dt = np.result_type(g, w)
    if groups == 1 and g.dtype == w.dtype and _compiled(g) and oh and ow and n:
        # the same products, into one buffer, then one compiled loop adds them in tap order
        gm, wk = g.reshape(n * oh * ow, o), w.reshape(kh * kw, c, o)
        parts = np.empty((kh * kw, n * oh * ow, c), dt)
        for k in range(kh * kw):
            _blas.matmul(gm, wk[k].T, out=parts[k])
        (pt, pb), (pl, pr) = pads
        out = np.zeros((n, h + pt + pb, wd + pl + pr, c), dt)
        _jit.kernel("col2im")(parts.reshape(kh * kw, n, oh, ow, c), kw, *strides, *dilations, out)
        return out[:, pt:pt + h, pl:pl + wd, :]
    taps = _taps(kh, kw, strides, dilations, oh, ow)
    if groups == 1:   # each kernel position's product lands whole in its window positions: no
        # scatter of a wide [M, KH*KW*C] product through strided views (the same sums)
        gm, wk = g.reshape(n * oh * ow, o), w.reshape(kh * kw, c, o)
        return _scatter_windows(lambda k: _blas.matmul(gm, wk[k].T).reshape(n, oh, ow, c), (n, h, wd, c),
                                taps, pads, dt)
    cols = _blas.matmul(_gmat(g, groups), _wmat(w, groups).transpose(0, 2, 1))  # G, M, KH*KW*Cg
    cols = cols.reshape(groups, n * oh * ow, kh * kw, cg).transpose(1, 2, 0, 3).reshape(n, oh, ow, kh * kw, c)
    return _scatter_windows(lambda k: cols[:, :, :, k], (n, h, wd, c), taps, pads, dt)


def _bf_core(x: np.ndarray, g: np.ndarray, w_shape: tuple, strides: tuple, dilations: tuple,
             pads: Pads) -> np.ndarray:
    n, oh, ow, o = g.shape
    kh, kw, cg, _ = w_shape
    groups = x.shape[3] // cg
    dt = np.result_type(x, g)
    if not (n and oh and ow):
        return np.zeros(w_shape, dt)
    cols = _cols(x, kh, kw, groups, strides, dilations, pads, oh, ow)
    r = _blas.matmul(cols.transpose(0, 2, 1), _gmat(g, groups))  # G, KH*KW*Cg, Og
    return r.transpose(1, 0, 2).reshape(w_shape).astype(dt, copy=False)


# --------------------------------------------------------------------------- convolution ops
def _half_as_single(f: Callable) -> Callable:
    """float16 operands are multiplied and summed in float32 (NumPy has no float16 BLAS)."""
    def fwd(a: np.ndarray, b: np.ndarray, **p: Any) -> np.ndarray:
        if a.dtype == np.float16:
            return f(a.astype(np.float32), b.astype(np.float32), **p).astype(np.float16)
        return f(a, b, **p)
    return fwd


@_half_as_single
def _conv_fwd(x: np.ndarray, w: np.ndarray, **geo: Any) -> np.ndarray:
    return _lift(_conv_core, x, w, True, **geo)


@_half_as_single
def _bi_fwd(g: np.ndarray, w: np.ndarray, **p: Any) -> np.ndarray:
    return _lift(_bi_core, g, w, True, **p)


@_half_as_single
def _bf_fwd(x: np.ndarray, g: np.ndarray, w_shape: tuple, **geo: Any) -> np.ndarray:
    lx, lg = x.shape[:-4], g.shape[:-4]
    kh, kw, cg, o = w_shape
    n, oh, ow = g.shape[-4:-1]
    if bool(lx) == bool(lg) or x.shape[-1] != cg or not (n and oh and ow):
        return _lift(_bf_core, x, g, False, w_shape=w_shape, **geo)
    # one side carries a batch of cotangents (a Jacobian walk): one matmul for all of them
    m, k = n * oh * ow, kh * kw * cg
    rows = int(np.prod(lx or lg, dtype=np.int64))
    xs = x.reshape((-1,) + x.shape[-3:])
    cols = _cols(xs, kh, kw, 1, geo["strides"], geo["dilations"], geo["pads"], oh, ow)[0]
    if lg:  # dw[b] = cols^T g[b]
        g2 = g.reshape(rows, m, o).transpose(1, 0, 2).reshape(m, rows * o)
        r = (cols.T @ g2).reshape(k, rows, o).transpose(1, 0, 2)
    else:   # dw[b] = cols[b]^T g
        r = np.matmul(cols.reshape(rows, m, k).transpose(0, 2, 1), g.reshape(m, o))
    return r.reshape((lx or lg) + tuple(w_shape)).astype(np.result_type(x, g), copy=False)


def _conv(x: Tensor, w: Tensor, geo: dict) -> Tensor:
    return apply(_conv2d, (x, w), geo)


def _bi(g: Tensor, w: Tensor, like: Tensor, geo: dict) -> Tensor:
    return apply(_conv2d_bi, (g, w), dict(geo, in_shape=like._value.shape[-4:]))


def _bf(x: Tensor, g: Tensor, like: Tensor, geo: dict) -> Tensor:
    return apply(_conv2d_bf, (x, g), dict(geo, w_shape=like._value.shape[-4:]))


def _bilinear_jvp(op_of: Callable) -> tuple:
    """Per-input JVP of a bilinear op ``op(a, b)``: ``op(ta, b)`` and ``op(a, tb)``."""
    return (lambda t, ans, a, b, **p: apply(op_of(), (t, b), p),
            lambda t, ans, a, b, **p: apply(op_of(), (a, t), p))


_conv2d = defop(
    "Conv2D", _conv_fwd, broadcast=True,
    vjp=(lambda g, ans, x, w, **p: _bi(g, w, x, p), lambda g, ans, x, w, **p: _bf(x, g, w, p)),
    jvp=_bilinear_jvp(lambda: _conv2d))
_conv2d_bi = defop(
    "Conv2DBackpropInput", _bi_fwd, broadcast=True,
    vjp=(lambda h, ans, g, w, in_shape, **p: _conv(h, w, p),
         lambda h, ans, g, w, in_shape, **p: _bf(h, g, w, p)),
    jvp=_bilinear_jvp(lambda: _conv2d_bi))
_conv2d_bf = defop(
    "Conv2DBackpropFilter", _bf_fwd, broadcast=True,
    vjp=(lambda k, ans, x, g, w_shape, **p: _bi(g, k, x, p),
         lambda k, ans, x, g, w_shape, **p: _conv(x, k, p)),
    jvp=_bilinear_jvp(lambda: _conv2d_bf))


# --------------------------------------------------------------------------- argument parsing
def _channels_first(data_format: Any, nsp: int, op: str) -> bool:
    last = {1: ("NWC", "NHWC"), 2: ("NHWC",)}[nsp]
    first = {1: ("NCW", "NCHW"), 2: ("NCHW",)}[nsp]
    if data_format is None or data_format in last:
        return False
    if data_format in first:
        return True
    raise ValueError(f"{op}: data_format must be {' or '.join(repr(f) for f in last[:1] + first[:1])}, "
                     f"got {data_format!r}.")


def _spatial(v: Any, nsp: int, what: str, op: str, cf: bool = False) -> tuple:
    """One positive int per spatial axis from an int or a list of 1, ``nsp`` or ``nsp + 2`` ints."""
    if isinstance(v, (int, np.integer)):
        vals = [int(v)]
    elif type(v) in (tuple, list) and all(type(i) is int for i in v):  # (a layer's tuples)
        vals = list(v)
    else:
        vals = _int_list(v, f"{op}: {what}")
    if len(vals) == 1:
        vals = vals * nsp
    elif len(vals) == nsp + 2:
        outer = (vals[0], vals[1]) if cf else (vals[0], vals[-1])
        if outer != (1, 1):
            raise UnimplementedError(f"{op}: {what} {vals} has an entry other than 1 for "
                                     f"the batch or channel axis; only the spatial axes can have "
                                     f"{what} (e.g. [1, 2, 2, 1]) [Op:{op}]")
        vals = vals[2:] if cf else vals[1:-1]
    elif len(vals) != nsp:
        raise ValueError(f"{op}: {what} should be of length 1, {nsp} or {nsp + 2}. Received: "
                         f"{what}={v!r} of length {len(vals)}.")
    if min(vals) <= 0:
        raise _err(op, f"{what} must be positive, got {vals}")
    return tuple(vals)


def _padding(padding: Any, nsp: int, sizes: Sequence[int], ks: Sequence[int], strides: tuple,
             dilations: tuple, op: str, cf: bool, explicit: bool = True) -> tuple:
    """Explicit ``(before, after)`` pads per spatial axis; SAME puts the odd pixel after, as TF."""
    if isinstance(padding, str):
        if padding == "VALID":
            return ((0, 0),) * nsp
        if padding == "SAME":
            pads = []
            for n, k, s, d in zip(sizes, ks, strides, dilations):
                total = max((-(-n // s) - 1) * s + (k - 1) * d + 1 - n, 0)
                pads.append((total // 2, total - total // 2))
            return tuple(pads)
        raise _err(op, f"padding must be \"SAME\" or \"VALID\" (upper case)"
                       f"{' or a list of [before, after] pairs' if explicit else ''}, got {padding!r}")
    if not explicit:
        raise TypeError(f"{op}: padding must be the string \"SAME\" or \"VALID\", got {padding!r} "
                        "(this op has no explicit padding).")
    try:
        arr = np.asarray(padding.numpy() if isinstance(padding, Tensor) else padding)
    except ValueError:
        arr = np.asarray([])
    if arr.shape != (nsp + 2, 2) or arr.dtype.kind not in "iu":
        raise ValueError(f"{op}: when padding is a list, it must be {nsp + 2} pairs of integers "
                         f"[before, after], one per axis of the input. Received: padding={padding!r}.")
    outer = (0, 1) if cf else (0, nsp + 1)
    if arr[list(outer)].any():
        raise ValueError(f"{op}: explicit padding must be [0, 0] for the batch and channel axes; "
                         f"received padding={arr.tolist()}.")
    if (arr < 0).any():
        raise ValueError(f"{op}: explicit padding must be non-negative; received padding={arr.tolist()}.")
    rows = arr[2:] if cf else arr[1:-1]
    return tuple((int(a), int(b)) for a, b in rows)


def _check_float(x: Tensor, op: str, ints: bool = False) -> None:
    dt = x._value.dtype
    if not (dt.kind == "f" or (ints and dt == np.int32)):
        allowed = "float16, float32, float64" + (", int32" if ints else "")
        raise _err(op, f"{op} does not accept a {x.dtype.name} input (allowed: {allowed}); cast it "
                       "first, e.g. tf.cast(x, tf.float32)")


def _to_core(x: Tensor, nsp: int, cf: bool, op: str, what: str = "input") -> tuple:
    """``x`` as a 4-D NHWC core; returns it and the leading batch shape."""
    nd = x._value.ndim
    if nd < nsp + 2:
        layout = ("N" + "C" + "HW"[2 - nsp:]) if cf else ("N" + "HW"[2 - nsp:] + "C")
        raise _err(op, f"{what} must be {nsp + 2}-dimensional ({layout}) or more, got shape "
                       f"{list(x._value.shape)}")
    if cf:
        perm = list(range(nd))
        c = perm.pop(nd - nsp - 1)
        x = transpose(x, perm + [c])
    s = x._value.shape
    batch = s[:-nsp - 1]
    core = (math.prod(batch),) + ((1,) if nsp == 1 else ()) + s[-nsp - 1:]
    return (reshape(x, core) if core != s else x), batch


def _from_core(y: Tensor, batch: tuple, nsp: int, cf: bool) -> Tensor:
    s = y._value.shape
    want = batch + s[4 - nsp - 1:]
    if want != s:
        y = reshape(y, want)
    if cf:
        nd = len(want)
        y = transpose(y, list(range(nd - nsp - 1)) + [nd - 1] + list(range(nd - nsp - 1, nd - 1)))
    return y


def _filter_core(w: Tensor, nsp: int, op: str) -> Tensor:
    s = w._value.shape
    if len(s) != nsp + 2:
        names = ("filter_height, " if nsp == 2 else "") + "filter_width, in_channels, out_channels"
        raise _err(op, f"convolution filter must be {nsp + 2}-dimensional [{names}], got shape {list(s)}")
    return reshape(w, (1,) + s) if nsp == 1 else w


def _hw(v: Any, nsp: int, what: str, op: str, cf: bool) -> tuple:
    """``_spatial`` as a (height, width) pair; 1-D ops have height 1."""
    return (1,) * (2 - nsp) + _spatial(v, nsp, what, op, cf)


def _core_pads(padding: Any, hw: Sequence[int], ks: tuple, st: tuple, dl: tuple, op: str, cf: bool,
               nsp: int, explicit: bool = True) -> tuple:
    """Pads of a (height, width) core image; 1-D ops read their explicit padding for width only."""
    if isinstance(padding, str) or nsp == 2:
        return _padding(padding, 2, hw, ks, st, dl, op, cf, explicit)
    return ((0, 0),) + _padding(padding, 1, hw[1:], ks[1:], st[1:], dl[1:], op, cf, explicit)


def _check_windows(hw: Sequence[int], ks: Sequence[int], st: tuple, dl: tuple, pads: tuple, op: str) -> None:
    """TensorFlow's rule: a window may overhang the (padded) input by less than one stride, which
    gives an empty output; further is an error."""
    for n, k, s, d, p in zip(hw, ks, st, dl, pads):
        eff = (k - 1) * d + 1
        num = n + p[0] + p[1] + s - eff
        size = num // s if num >= 0 else -(-num // s)  # C++ division truncates toward zero
        if size < 0:
            raise _err(op, f"Computed output size would be negative: {size} [input_size: {n}, "
                           f"effective_filter_size: {eff}, stride: {s}] (the window is larger than "
                           f"the padded input; use padding=\"SAME\" or a smaller window)")


def _convolve(xc: Tensor, wc: Tensor, strides: Any, padding: Any, dilations: Any, nsp: int,
              op: str, cf: bool) -> Tensor:
    st = _hw(strides, nsp, "strides", op, cf)
    dl = _hw(1 if dilations is None else dilations, nsp, "dilations", op, cf)
    pads = _core_pads(padding, xc._value.shape[1:3], wc._value.shape[:2], st, dl, op, cf, nsp)
    _check_windows(xc._value.shape[1:3], wc._value.shape[:2], st, dl, pads, op)
    return apply(_conv2d, (xc, wc), {"strides": st, "dilations": dl, "pads": pads})


def _conv_nd(input: Any, filters: Any, strides: Any, padding: Any, data_format: Any,
             dilations: Any, nsp: int) -> Tensor:
    op = "Conv2D"
    x, w = binary_operands(input, filters, op)
    _check_float(x, op, ints=True)
    cf = _channels_first(data_format, nsp, op)
    xc, batch = _to_core(x, nsp, cf, op)
    wc = _filter_core(w, nsp, op)
    c, (cg, o) = xc._value.shape[-1], wc._value.shape[2:]
    if cg == 0 or c % cg:
        raise _err(op, f"input depth must be evenly divisible by filter depth: {c} vs {cg}")
    if o % (c // cg):
        raise _err(op, f"output depth {o} must be a multiple of the number of groups {c // cg} "
                       f"(input depth {c} / filter depth {cg})")
    return _from_core(_convolve(xc, wc, strides, padding, dilations, nsp, op, cf), batch, nsp, cf)


def conv1d(input: Any, filters: Any, stride: Any, padding: Any, data_format: str = "NWC",  # noqa: A002
           dilations: Any = None, name: Any = None) -> Tensor:
    """1-D convolution (cross-correlation, as in TensorFlow) of ``[batch, width, in_channels]``
    sequences with ``filters`` of shape ``[filter_width, in_channels, out_channels]``.

    ``stride`` and ``dilations`` are an int or a list of 1 or 3 ints; ``padding`` is ``"VALID"``,
    ``"SAME"`` (output width ``ceil(width / stride)``, the odd padded pixel at the end) or
    explicit ``[[0, 0], [left, right], [0, 0]]``. Extra leading axes are batch axes.

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.range(5.0), [1, 5, 1])
    >>> tf.nn.conv1d(x, tf.ones([2, 1, 1]), stride=1, padding="VALID").numpy().ravel()
    array([1., 3., 5., 7.], dtype=float32)
    """
    return _conv_nd(input, filters, stride, padding, data_format, dilations, 1)


def conv2d(input: Any, filters: Any, strides: Any, padding: Any, data_format: str = "NHWC",  # noqa: A002
           dilations: Any = None, name: Any = None) -> Tensor:
    """2-D convolution (cross-correlation) of ``[batch, height, width, in_channels]`` images with
    ``filters`` of shape ``[filter_height, filter_width, in_channels, out_channels]``.

    ``strides`` and ``dilations`` are an int or a list of 1, 2 or 4 ints (``[1, sh, sw, 1]``);
    ``padding`` is ``"VALID"``, ``"SAME"`` (output ``ceil(size / stride)``, the odd padded row or
    column at the bottom or right, as TensorFlow) or explicit
    ``[[0, 0], [top, bottom], [left, right], [0, 0]]``. When ``in_channels`` is a multiple ``g``
    of the filter's, the convolution is grouped (``g`` groups). Gradients of every order are
    convolutions again.

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    >>> tf.nn.conv2d(x, tf.ones([2, 2, 1, 1]), strides=2, padding="VALID").numpy()[0, :, :, 0]
    array([[10., 18.],
           [42., 50.]], dtype=float32)
    """
    return _conv_nd(input, filters, strides, padding, data_format, dilations, 2)


def depthwise_conv2d(input: Any, filter: Any, strides: Any, padding: Any, data_format: Any = None,  # noqa: A002
                     dilations: Any = None, name: Any = None) -> Tensor:
    """Depthwise 2-D convolution: each input channel ``c`` is convolved with its own
    ``channel_multiplier`` filters ``filter[:, :, c, :]``; output channel ``c * multiplier + m``.

    ``filter`` has shape ``[filter_height, filter_width, in_channels, channel_multiplier]``;
    ``strides`` is ``[1, s, s, 1]`` (an int or a pair also works), ``dilations`` ``[rh, rw]``.

    >>> import tapegrad as tf
    >>> x = tf.ones([1, 3, 3, 2])
    >>> tf.nn.depthwise_conv2d(x, tf.ones([2, 2, 2, 1]), [1, 1, 1, 1], "VALID").shape
    TensorShape([1, 2, 2, 2])
    """
    op = "DepthwiseConv2dNative"
    x, w = binary_operands(input, filter, op)
    _check_float(x, op)
    cf = _channels_first(data_format, 2, op)
    xc, batch = _to_core(x, 2, cf, op)
    if w._value.ndim != 4:
        raise _err(op, f"filter must be 4-dimensional [filter_height, filter_width, in_channels, "
                       f"channel_multiplier], got shape {list(w._value.shape)}")
    kh, kw, c, m = w._value.shape
    if xc._value.shape[-1] != c:
        raise _err(op, f"input and filter must have the same depth: {xc._value.shape[-1]} vs {c}")
    wc = reshape(w, (kh, kw, 1, c * m))
    return _from_core(_convolve(xc, wc, strides, padding, dilations, 2, op, cf), batch, 2, cf)


def depthwise_conv2d_backprop_input(input_sizes: Any, filter: Any, out_backprop: Any, strides: Any,  # noqa: A002
                                    padding: Any, data_format: str = "NHWC", dilations: Any = None,
                                    name: Any = None) -> Tensor:
    """The gradient of :func:`depthwise_conv2d` with respect to its input (of shape
    ``input_sizes``), given ``out_backprop``, the gradient with respect to its output.

    >>> import tapegrad as tf
    >>> tf.nn.depthwise_conv2d_backprop_input([1, 3, 3, 2], tf.ones([2, 2, 2, 1]), tf.ones([1, 2, 2, 2]),
    ...                                       [1, 1, 1, 1], "VALID").shape
    TensorShape([1, 3, 3, 2])
    """
    w = as_tensor(filter)
    if w._value.ndim != 4:
        raise _err("DepthwiseConv2dNativeBackpropInput", f"filter must be 4-dimensional [filter_height, filter_width, "
                   f"in_channels, channel_multiplier], got shape {list(w._value.shape)}")
    kh, kw, c, m = w._value.shape
    return _conv_transpose(out_backprop, reshape(w, (kh, kw, 1, c * m)), input_sizes, strides, padding,
                           data_format, dilations, 2)


def depthwise_conv2d_backprop_filter(input: Any, filter_sizes: Any, out_backprop: Any, strides: Any,  # noqa: A002
                                     padding: Any, data_format: str = "NHWC", dilations: Any = None,
                                     name: Any = None) -> Tensor:
    """The gradient of :func:`depthwise_conv2d` with respect to its filter (of shape
    ``filter_sizes``, ``[filter_height, filter_width, in_channels, channel_multiplier]``), given
    the input and ``out_backprop``, the gradient with respect to its output.

    >>> import tapegrad as tf
    >>> tf.nn.depthwise_conv2d_backprop_filter(tf.ones([1, 3, 3, 2]), [2, 2, 2, 1], tf.ones([1, 2, 2, 2]),
    ...                                        [1, 1, 1, 1], "VALID").numpy()[..., 0].tolist()
    [[[4.0, 4.0], [4.0, 4.0]], [[4.0, 4.0], [4.0, 4.0]]]
    """
    op = "DepthwiseConv2dNativeBackpropFilter"
    x, g = binary_operands(input, out_backprop, op)
    _check_float(x, op)
    cf = _channels_first(data_format, 2, op)
    xc, _ = _to_core(x, 2, cf, op)
    gc, _ = _to_core(g, 2, cf, op)
    fs = _int_list(filter_sizes, f"{op}: filter_sizes")
    if len(fs) != 4:
        raise _err(op, f"filter_sizes must have 4 elements, got {fs}")
    kh, kw, c, m = fs
    if xc._value.shape[-1] != c or gc._value.shape[-1] != c * m:
        raise _err(op, f"input depth {xc._value.shape[-1]} and out_backprop depth {gc._value.shape[-1]} do not "
                       f"match filter_sizes {fs} (in_channels, in_channels * channel_multiplier)")
    st = _hw(strides, 2, "strides", op, cf)
    dl = _hw(1 if dilations is None else dilations, 2, "dilations", op, cf)
    pads = _core_pads(padding, xc._value.shape[1:3], (kh, kw), st, dl, op, cf, 2)
    want = tuple(_out_size(sz, k, s, d, p) for sz, k, s, d, p in zip(xc._value.shape[1:3], (kh, kw), st, dl, pads))
    if want != tuple(gc._value.shape[1:3]):
        raise _err(op, f"out_backprop's spatial shape {list(gc._value.shape[1:3])} does not match the "
                       f"convolution's output {list(want)}")
    r = apply(_conv2d_bf, (xc, gc), {"strides": st, "dilations": dl, "pads": pads, "w_shape": (kh, kw, 1, c * m)})
    return reshape(r, (kh, kw, c, m))


def with_space_to_batch(input: Any, dilation_rate: Any, padding: Any, op: Callable,  # noqa: A002
                        filter_shape: Any = None, spatial_dims: Any = None, data_format: Any = None) -> Tensor:
    """``op(input, num_spatial_dims, padding)`` run on the space-to-batch form of ``input`` so
    that a sliding-window ``op`` samples the input at ``dilation_rate`` ("atrous"): TensorFlow's
    ``batch_to_space(op(space_to_batch_nd(input, rate, paddings), n, "VALID"), rate, crops)``,
    the paddings those ``padding`` needs (``"SAME"`` takes ``filter_shape``). With every rate 1,
    simply ``op(input, num_spatial_dims, padding)``.

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    >>> y = tf.nn.with_space_to_batch(x, [2, 2], "VALID",
    ...                               lambda t, n, p: tf.nn.avg_pool2d(t, 2, 1, p))
    >>> y.numpy()[0, :, :, 0].tolist()
    [[5.0, 6.0], [9.0, 10.0]]
    """
    x = as_tensor(input)
    rate = np.asarray(_int_list(dilation_rate, "dilation_rate", "with_space_to_batch"), np.int64)
    n = len(rate)
    start = 2 if data_format is not None and str(data_format).startswith("NC") else 1
    dims = list(range(start, n + start)) if spatial_dims is None else [int(d) for d in spatial_dims]
    if dims != sorted(set(dims)) or any(d < 1 for d in dims):
        raise ValueError("`spatial_dims` must be a monotonically increasing sequence of positive integers. "
                         f"Received: spatial_dims={dims}")
    need = dims[-1] if start == 2 else dims[-1] + 1
    if x._value.ndim < need:
        raise ValueError(f"`input.shape.rank` must be at least {need}. Received: input.shape={list(x._value.shape)} "
                         f"with rank {x._value.ndim}")
    if (rate < 1).any():
        raise ValueError(f"`dilation_rate` must be positive. Received: dilation_rate={rate}")
    if (rate == 1).all():
        return op(x, n, padding)
    if isinstance(padding, str) and padding.upper() == "SAME":
        if filter_shape is None:
            raise ValueError("`filter_shape` must be specified for `padding='SAME'`. "
                             f"Received: filter_shape={filter_shape} and padding={padding}")
        extra = (np.asarray(_int_list(filter_shape, "filter_shape"))[:n] - 1) * rate
        base = np.stack([extra // 2, extra - extra // 2], 1)
    elif isinstance(padding, str) and padding.upper() == "VALID":
        base = np.zeros((n, 2), np.int64)
    elif not isinstance(padding, str):
        full = np.asarray(padding, np.int64).reshape(-1, 2)
        base = full[2:] if start == 2 else full[1:-1]
    else:
        raise ValueError(f"`padding` must be one of 'SAME' or 'VALID'. Received: padding={padding}")
    pads, crops = required_space_to_batch_paddings([x._value.shape[d] for d in dims], rate, base)

    def adjust(v: np.ndarray, fill: int) -> list:
        out = np.full((dims[-1],) + v.shape[1:], fill, np.int64)
        out[np.asarray(dims) - 1] = v
        return out.tolist()
    rates = adjust(rate, 1)
    y = op(space_to_batch_nd(x, rates, adjust(pads.numpy(), 0)), n, "VALID")
    return batch_to_space(y, rates, adjust(crops.numpy(), 0))


def atrous_conv2d_transpose(value: Any, filters: Any, output_shape: Any, rate: int, padding: Any,
                            name: Any = None) -> Tensor:
    """The transpose of :func:`atrous_conv2d`: :func:`conv2d_transpose` with stride 1 and
    dilation ``rate`` (``filters`` ``[height, width, out_channels, in_channels]``).

    >>> import tapegrad as tf
    >>> tf.nn.atrous_conv2d_transpose(tf.ones([1, 2, 2, 1]), tf.ones([2, 2, 1, 1]), [1, 4, 4, 1], 2, "VALID").shape
    TensorShape([1, 4, 4, 1])
    """
    if int(rate) < 1:
        raise ValueError(f"rate {rate} cannot be less than one")
    return _conv_transpose(value, filters, output_shape, 1, padding, "NHWC", int(rate), 2)


def _conv_transpose(input: Any, filters: Any, output_shape: Any, strides: Any, padding: Any,  # noqa: A002
                    data_format: Any, dilations: Any, nsp: int) -> Tensor:
    op = "Conv2DBackpropInput"
    g, w = binary_operands(input, filters, op)
    _check_float(g, op)
    cf = _channels_first(data_format, nsp, op)
    if g._value.ndim != nsp + 2:
        raise _err(op, f"input must be {nsp + 2}-dimensional, got shape {list(g._value.shape)}")
    wc = _filter_core(w, nsp, op)
    out = _int_list(output_shape, f"{op}: output_shape")
    if len(out) != nsp + 2:
        raise _err(op, f"output_shape must have {nsp + 2} elements, got {out}")
    if cf:
        out = [out[0]] + out[2:] + [out[1]]
    gc, _ = _to_core(g, nsp, cf, op)
    out = ([out[0], 1] if nsp == 1 else out[:1]) + out[1:]
    kh, kw, cg, o = wc._value.shape
    n, oh, ow, go = gc._value.shape
    if go != o:
        raise _err(op, f"filter and out_backprop must have the same out_depth: filter has {o} "
                       f"output channels, input has {go}")
    if cg == 0 or out[3] % cg or o % (out[3] // cg):
        raise _err(op, f"input depth must be evenly divisible by filter depth: output_shape has "
                       f"{out[3]} channels, the filter {cg}")
    if out[0] != n:
        raise _err(op, f"output_shape batch {out[0]} does not match the input batch {n}")
    st = _hw(strides, nsp, "strides", op, cf)
    dl = _hw(1 if dilations is None else dilations, nsp, "dilations", op, cf)
    pads = _core_pads(padding, out[1:3], (kh, kw), st, dl, op, cf, nsp)
    for dim, (size, k, s, d, p, got) in enumerate(zip(out[1:3], (kh, kw), st, dl, pads, (oh, ow))):
        want = _out_size(size, k, s, d, p)
        if want != got:
            raise _err(op, f"Size of out_backprop doesn't match computed: actual = {got}, computed = "
                           f"{want} spatial_dim: {dim + 2 - nsp} input: {size} filter: {k} output: "
                           f"{got} stride: {s} dilation: {d} (output_shape {out} does not convolve "
                           f"back to the input's shape)")
    y = apply(_conv2d_bi, (gc, wc), {"in_shape": tuple(out), "strides": st, "dilations": dl, "pads": pads})
    return _from_core(y, (n,), nsp, cf)


def conv2d_transpose(input: Any, filters: Any, output_shape: Any, strides: Any, padding: Any = "SAME",  # noqa: A002
                     data_format: str = "NHWC", dilations: Any = None, name: Any = None) -> Tensor:
    """The transpose (gradient with respect to the input) of :func:`conv2d`.

    ``input`` is ``[batch, height, width, out_channels]``, ``filters``
    ``[filter_height, filter_width, in_channels, out_channels]`` (the same filter a ``conv2d``
    from ``output_shape`` would use), ``output_shape`` ``[batch, out_height, out_width,
    in_channels]``: a ``conv2d`` of an ``output_shape`` image with the same ``strides``,
    ``padding`` and ``dilations`` must give ``input``'s shape.

    >>> import tapegrad as tf
    >>> y = tf.nn.conv2d_transpose(tf.ones([1, 2, 2, 1]), tf.ones([2, 2, 1, 1]), [1, 4, 4, 1], 2)
    >>> y.shape
    TensorShape([1, 4, 4, 1])
    """
    return _conv_transpose(input, filters, output_shape, strides, padding, data_format, dilations, 2)


def conv1d_transpose(input: Any, filters: Any, output_shape: Any, strides: Any, padding: Any = "SAME",  # noqa: A002
                     data_format: str = "NWC", dilations: Any = None, name: Any = None) -> Tensor:
    """The transpose of :func:`conv1d`: ``input`` ``[batch, width, out_channels]``, ``filters``
    ``[filter_width, in_channels, out_channels]``, ``output_shape`` ``[batch, out_width,
    in_channels]``."""
    return _conv_transpose(input, filters, output_shape, strides, padding, data_format, dilations, 1)


def atrous_conv2d(value: Any, filters: Any, rate: int, padding: Any, name: Any = None) -> Tensor:
    """Dilated ("atrous") 2-D convolution with stride 1: ``conv2d(value, filters, 1, padding,
    dilations=rate)``."""
    if int(rate) < 1:
        raise ValueError(f"atrous_conv2d: rate must be >= 1, got {rate}.")
    return conv2d(value, filters, 1, padding, dilations=int(rate))


def separable_conv2d(input: Any, depthwise_filter: Any, pointwise_filter: Any, strides: Any,  # noqa: A002
                     padding: Any, data_format: Any = None, dilations: Any = None, name: Any = None) -> Tensor:
    """A depthwise convolution (``depthwise_filter`` ``[fh, fw, in_channels, multiplier]``)
    followed by a 1x1 convolution (``pointwise_filter`` ``[1, 1, in_channels * multiplier,
    out_channels]``)."""
    pw = as_tensor(pointwise_filter)
    if pw._value.ndim != 4 or pw._value.shape[:2] != (1, 1):
        raise _err("Conv2D", f"pointwise_filter must have shape [1, 1, in_channels * channel_multiplier, "
                             f"out_channels], got {list(pw._value.shape)}")
    h = depthwise_conv2d(input, depthwise_filter, strides, padding, data_format, dilations)
    return conv2d(h, pw, 1, "VALID", data_format="NHWC" if data_format is None else data_format)


# --------------------------------------------------------------------------- pooling cores
def _fold(core: Callable, *arrays: np.ndarray, **p: Any) -> np.ndarray:
    """Run ``core`` on 4-D operands that share their image axis; leading axes broadcast and are
    merged into it."""
    leads = [a.shape[:-4] for a in arrays]
    if not any(leads):
        return core(*arrays, **p)
    lead = np.broadcast_shapes(*leads)
    flat = [np.broadcast_to(a, lead + a.shape[-4:]).reshape((-1,) + a.shape[-3:]) for a in arrays]
    r = core(*flat, **p)
    return r.reshape(lead + (arrays[0].shape[-4],) + r.shape[1:])


def _pool_size(x: tuple, ksize: tuple, strides: tuple, pads: Pads) -> tuple:
    return tuple(_out_size(n, k, s, 1, p) for n, k, s, p in zip(x[1:3], ksize, strides, pads))


def _compiled(a: np.ndarray) -> bool:
    """Whether the compiled image kernels take ``a`` (float32/64 NumPy; see _jit)."""
    return type(a) is np.ndarray and a.dtype in _KERNEL_DTYPES and _jit.ops_wanted()


_KERNEL_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _argmax_core(x: np.ndarray, ksize: tuple, strides: tuple, pads: Pads) -> tuple:
    """Each window's maximum, and the index in the window (row-major) of its first maximum."""
    n, h, w, c = x.shape
    kh, kw = ksize
    oh, ow = _pool_size(x.shape, ksize, strides, pads)
    if not (n and oh and ow and c):
        return np.zeros((n, oh, ow, c), x.dtype), np.zeros((n, oh, ow, c), np.int32)
    if _compiled(x):
        m, loc = np.empty((n, oh, ow, c), x.dtype), np.empty((n, oh, ow, c), np.int32)
        _jit.kernel("maxpool")(np.ascontiguousarray(x), kh, kw, *strides, pads[0][0], pads[1][0],
                               x.dtype.type(-np.inf), m, loc)
        return m, loc
    if kh * kw <= 25 and not any(pads[0]) and not any(pads[1]):
        # one strided view per kernel position: elementwise maxima, then the first position that
        # holds the maximum (NaN equals nothing: such windows take the general path). Faster than
        # argmax along short rows; argmax wins on large windows.
        taps = [x[t] for t in _taps(kh, kw, strides, (1, 1), oh, ow)]
        m = taps[0].copy()
        for t in taps[1:]:
            np.maximum(m, t, out=m)
        # first k with taps[k] == m, as ne[0] * (1 + ne[1] * (1 + ... ne[K-2])) with ne[k] = taps[k] != m
        loc = np.zeros(m.shape, np.int32)
        for t in taps[-2::-1]:
            loc += 1
            loc *= t != m
        if m.dtype.kind != "f" or not np.isnan(m.max()):
            return m, loc
    low = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    win = _windows(_pad_hw(x, pads, low), kh, kw, strides, (1, 1), oh, ow).reshape(n, oh, ow, c, kh * kw)
    loc = win.argmax(axis=-1)  # the first maximum
    if any(pads[0]) or any(pads[1]):
        valid = _windows(_pad_hw(np.ones((1, h, w, 1), bool), pads, False), kh, kw, strides, (1, 1), oh, ow)
        valid = valid.reshape(1, oh, ow, 1, kh * kw)
        if not np.take_along_axis(valid, loc[..., None], -1).all():
            # a padded element tied with the window's maximum (-inf): take the first real one
            m = win.max(axis=-1, keepdims=True)
            loc = (((win == m) & valid).astype(np.int8) * 2 + valid).argmax(axis=-1)
    return np.take_along_axis(win, loc[..., None], -1)[..., 0], loc.astype(np.int32)


def _route(x: np.ndarray, loc: np.ndarray, g: np.ndarray, ksize: tuple, strides: tuple,
           pads: Pads) -> np.ndarray:
    """Send each window's cotangent ``g [..., N, OH, OW, C]`` to its maximum: ``[..., N, H, W, C]``."""
    (kh, kw), (n, oh, ow, c) = ksize, loc.shape
    if g.ndim == 4 and _compiled(g):
        out = np.zeros((n,) + x.shape[1:], g.dtype)
        _jit.kernel("maxpool_grad")(loc, np.ascontiguousarray(g), kh, kw, *strides, pads[0][0],
                                    pads[1][0], out)
        return out
    finite = np.isfinite(g).all()
    if finite and g.ndim == 4 and tuple(strides) == tuple(ksize) and not any(pads[0]) and not any(pads[1]):
        # windows that tile the image (but for a last row or column no window reaches): each
        # kernel position writes its own strided part, no sums
        tiles = np.empty((n, oh, kh, ow, kw, c), g.dtype)
        for k in range(kh * kw):
            np.multiply(g, loc == k, out=tiles[:, :, k // kw, :, k % kw, :])
        tiles = tiles.reshape(n, oh * kh, ow * kw, c)
        if x.shape[1:3] == (oh * kh, ow * kw):
            return tiles
        out = np.zeros((n,) + x.shape[1:], g.dtype)
        out[:, :oh * kh, :ow * kw] = tiles
        return out
    taps = _taps(*ksize, strides, (1, 1), *loc.shape[1:3])
    if finite:  # a product with the mask is faster than where (but inf * 0 is NaN)
        return _scatter_windows(lambda k: g * (loc == k), g.shape[:-3] + x.shape[1:], taps, pads, g.dtype)
    return _scatter_windows(lambda k: np.where(loc == k, g, 0), g.shape[:-3] + x.shape[1:], taps, pads, g.dtype)


def _pick(x: np.ndarray, loc: np.ndarray, h: np.ndarray, ksize: tuple, strides: tuple,
          pads: Pads) -> np.ndarray:
    """Each window's element of ``h [..., N, H, W, C]`` at its maximum: ``[..., N, OH, OW, C]``."""
    lead, (kh, kw), (_, oh, ow, _) = h.shape[:-4], ksize, loc.shape
    if not loc.size:
        return np.zeros(lead + loc.shape, h.dtype)
    hs = h.reshape((-1,) + h.shape[-3:])
    win = _windows(_pad_hw(hs, pads), kh, kw, strides, (1, 1), oh, ow).reshape(lead + loc.shape + (kh * kw,))
    return np.take_along_axis(win, loc.reshape((1,) * len(lead) + loc.shape + (1,)), -1)[..., 0]


def _zero_ct(k: Tensor, ans: Tensor, x: Tensor, loc: Tensor, g: Tensor, **p: Any) -> Tensor:
    """The (zero) cotangent of the original input, keeping ``k``'s leading batch axes."""
    return zeros_like(x, k._value.shape[:k._value.ndim - ans._value.ndim])


def _linear_in_last(op_of: Callable) -> tuple:
    """Per-input JVP of ``op(x, loc, t)``: linear in ``t``; ``x`` only fixes the windows' maxima
    (zeros)."""
    return (lambda t, ans, x, loc, g, **p: zeros_like(ans), None,
            lambda t, ans, x, loc, g, **p: apply(op_of(), (x, loc, t), p))


# MaxPool also returns the position of each window's maximum (an int32 output no gradient flows
# through), so the gradient ops need not search again. The positions depend on x only
# piecewise-constantly: x's derivatives through them are zeros (as TensorFlow gives, not None).
_max_pool = defop("MaxPool", _argmax_core, nout=2,
                  vjp=(lambda g, ans, x, **p: apply(_max_grad, (x, ans[1], g[0]), p),),
                  jvp=(lambda t, ans, x, **p: (apply(_max_gradgrad, (x, ans[1], t), p), None),))
_max_grad = defop("MaxPoolGrad", _route, jvp=_linear_in_last(lambda: _max_grad),
                  vjp=(_zero_ct, None, lambda k, ans, x, loc, g, **p: apply(_max_gradgrad, (x, loc, k), p)))
_max_gradgrad = defop("MaxPoolGradGrad", _pick, jvp=_linear_in_last(lambda: _max_gradgrad),
                      vjp=(_zero_ct, None, lambda k, ans, x, loc, h, **p: apply(_max_grad, (x, loc, k), p)))
def _fold_rule(op: Any, n: int, xs: list, bat: tuple, p: dict) -> Any:
    """Image ops on ``[N, H, W, C]``: the batch merged into ``N`` and split out again."""
    xs = [_vmap.reshape(x, (-1,) + x._value.shape[2:]) for x in _vmap.lift_all(n, xs, bat)]
    res = apply(op, xs, p)
    one = type(res) is not tuple
    res = [_vmap.reshape(r, (n, -1) + r._value.shape[1:]) for r in ((res,) if one else res)]
    return res[0] if one else tuple(res)


for _op in (_max_pool, _max_grad, _max_gradgrad):
    _vmap.register(_op, _fold_rule)


def _counts(shape: tuple, ksize: tuple, strides: tuple, pads: Pads) -> np.ndarray:
    """Valid (non-padded) elements in each window, ``[OH, OW, 1]``."""
    per_axis = []
    for n, k, s, p, o in zip(shape[1:3], ksize, strides, pads, _pool_size(shape, ksize, strides, pads)):
        start = np.arange(o) * s - p[0]
        per_axis.append(np.minimum(start + k, n) - np.maximum(start, 0))
    return (per_axis[0][:, None] * per_axis[1][None, :])[:, :, None]


def _avg_core(x: np.ndarray, ksize: tuple, strides: tuple, pads: Pads) -> np.ndarray:
    n, h, w, c = x.shape
    oh, ow = _pool_size(x.shape, ksize, strides, pads)
    if not (n and oh and ow and c):
        return np.zeros((n, oh, ow, c), x.dtype)
    win = _windows(_pad_hw(x, pads), ksize[0], ksize[1], strides, (1, 1), oh, ow)
    return (win.sum(axis=(-2, -1)) / _counts(x.shape, ksize, strides, pads)).astype(x.dtype, copy=False)


def _avg_grad_core(g: np.ndarray, in_shape: tuple, ksize: tuple, strides: tuple, pads: Pads) -> np.ndarray:
    n, oh, ow, c = g.shape
    shape = (n,) + tuple(in_shape[1:])
    gs = (g / _counts(shape, ksize, strides, pads)).astype(g.dtype, copy=False)
    return _scatter_windows(lambda k: gs, shape, _taps(*ksize, strides, (1, 1), oh, ow), pads, g.dtype)


_avg_pool = defop("AvgPool", lambda x, **p: _fold(_avg_core, x, **p), jvp="linear",
                  vjp=(lambda g, ans, x, **p: apply(_avg_grad, (g,), dict(p, in_shape=x._value.shape[-4:])),))
_avg_grad = defop("AvgPoolGrad", lambda g, in_shape, **p: _fold(_avg_grad_core, g, in_shape=in_shape, **p),
                  jvp="linear", vjp=(lambda h, ans, g, in_shape, **p: apply(_avg_pool, (h,), p),))
_vmap.register(_avg_pool, _vmap.leading)
_vmap.register(_avg_grad, _vmap.leading)


# --------------------------------------------------------------------------- patches
# ExtractImagePatches (2 spatial axes) and ExtractVolumePatches (3) on ``[..., *spatial, C]``:
# each window's elements in row-major order of its positions, then depth, along the last axis.
# The patches and ExtractPatchesGrad (the scatter-add of windows back into the image) are
# adjoint linear maps, each the other's derivative, so every order stays inside the family.
def _patch_taps(ksizes: tuple, strides: tuple, rates: tuple, out: tuple) -> list:
    """For each window position (row-major), the index that picks the element under it in every
    window from a padded ``[..., *spatial, C]`` array."""
    return [(Ellipsis,) + tuple(slice(i * r, i * r + (o - 1) * s + 1, s)
                                for i, r, s, o in zip(pos, rates, strides, out)) + (slice(None),)
            for pos in np.ndindex(*ksizes)]


def _patch_out(sizes: Sequence[int], ksizes: tuple, strides: tuple, rates: tuple, pads: tuple) -> tuple:
    return tuple(_out_size(n, k, s, r, p) for n, k, s, r, p in zip(sizes, ksizes, strides, rates, pads))


def _patches_fwd(x: np.ndarray, ksizes: tuple, strides: tuple, rates: tuple, pads: tuple) -> np.ndarray:
    nsp = len(ksizes)
    lead, c = x.shape[:-nsp - 1], x.shape[-1]
    out = _patch_out(x.shape[-nsp - 1:-1], ksizes, strides, rates, pads)
    if 0 in out:
        return np.zeros(lead + out + (math.prod(ksizes) * c,), x.dtype)
    xp = np.pad(x, [(0, 0)] * len(lead) + list(pads) + [(0, 0)]) if any(map(any, pads)) else x
    return np.stack([xp[t] for t in _patch_taps(ksizes, strides, rates, out)], -2).reshape(lead + out + (-1,))


def _patches_grad_fwd(g: np.ndarray, in_shape: tuple, ksizes: tuple, strides: tuple, rates: tuple,
                      pads: tuple) -> np.ndarray:
    nsp = len(ksizes)
    lead, out, c = g.shape[:-nsp - 1], g.shape[-nsp - 1:-1], in_shape[-1]
    res = np.zeros(lead + tuple(n + a + b for n, (a, b) in zip(in_shape, pads)) + (c,), g.dtype)
    if 0 not in out:
        gk = g.reshape(lead + out + (-1, c))
        for k, tap in enumerate(_patch_taps(ksizes, strides, rates, out)):
            res[tap] += gk[..., k, :]
    return res[(Ellipsis,) + tuple(slice(a, a + n) for n, (a, _) in zip(in_shape, pads)) + (slice(None),)]


def _patches_vjp(g: Tensor, ans: Tensor, x: Tensor, **p: Any) -> Tensor:
    return apply(_patches_grad, (g,), dict(p, in_shape=x._value.shape[-len(p["ksizes"]) - 1:]))


_image_patches = defop("ExtractImagePatches", _patches_fwd, vjp=(_patches_vjp,), jvp="linear")
_volume_patches = defop("ExtractVolumePatches", _patches_fwd, vjp=(_patches_vjp,), jvp="linear")
_patches_grad = defop("ExtractPatchesGrad", _patches_grad_fwd, jvp="linear", vjp=(
    lambda h, ans, g, in_shape, **p: apply(_image_patches if len(p["ksizes"]) == 2 else _volume_patches, (h,), p),))
for _op in (_image_patches, _volume_patches, _patches_grad):
    _vmap.register(_op, _vmap.leading)


def _xp_patches(be: Any, x: Any, ksizes: tuple, strides: tuple, rates: tuple, pads: tuple) -> Any:
    nsp = len(ksizes)
    lead = tuple(x.shape[:-nsp - 1])
    out = _patch_out(x.shape[-nsp - 1:-1], ksizes, strides, rates, pads)
    if 0 in out or not math.prod(x.shape):
        return NotImplemented
    x = _pad_form(be, x, ((0, 0),) * len(lead) + tuple(pads) + ((0, 0),), "constant", 0)
    return be.xp.reshape(be.xp.stack([x[t] for t in _patch_taps(ksizes, strides, rates, out)], axis=-2),
                         lead + out + (-1,))


def _xp_patches_grad(be: Any, g: Any, in_shape: tuple, ksizes: tuple, strides: tuple, rates: tuple,
                     pads: tuple) -> Any:
    nsp, xp = len(ksizes), be.xp
    lead, out, c = tuple(g.shape[:-nsp - 1]), tuple(g.shape[-nsp - 1:-1]), in_shape[-1]
    if 0 in out or not math.prod(g.shape):
        return NotImplemented
    gk = xp.reshape(g, lead + out + (-1, c))
    res = xp.zeros(lead + tuple(n + a + b for n, (a, b) in zip(in_shape, pads)) + (c,), dtype=g.dtype)
    for k, tap in enumerate(_patch_taps(ksizes, strides, rates, out)):
        res[tap] = res[tap] + gk[..., k, :]
    return res[(Ellipsis,) + tuple(slice(a, a + n) for n, (a, _) in zip(in_shape, pads)) + (slice(None),)]


_bk.register(_image_patches, _xp_patches)
_bk.register(_volume_patches, _xp_patches)
_bk.register(_patches_grad, _xp_patches_grad)


# --------------------------------------------------------------------------- other array libraries
# The same im2col on a backend's arrays (tapegrad._backend), written with its namespace ``xp``
# for 4-D operands (a batch of cotangents falls back to the NumPy forward or raises).
def _xp_pad(be: Any, x: Any, pads: Pads, value: Any) -> Any:
    return _pad_form(be, x, ((0, 0), *pads, (0, 0)), "constant", value)


def _xp_windows(be: Any, x: Any, ksize: tuple, strides: tuple, dilations: tuple, pads: Pads,
                oh: int, ow: int, value: Any = 0) -> Any:
    """Every window of the padded image: ``[N, OH, OW, KH*KW, C]``."""
    xp = _xp_pad(be, x, pads, value)
    return be.xp.stack([xp[t] for t in _taps(*ksize, strides, dilations, oh, ow)], axis=3)


def _xp_scatter(be: Any, parts: list, shape: tuple, taps: list, pads: Pads) -> Any:
    """:func:`_scatter_windows` on a backend: ``parts[k] [N, OH, OW, C]`` added at tap ``k``."""
    h, w, c = shape[-3:]
    (pt, pb), (pl, pr) = pads
    out = be.xp.zeros(shape[:-3] + (h + pt + pb, w + pl + pr, c), dtype=parts[0].dtype)
    for part, tap in zip(parts, taps):
        out[tap] = out[tap] + part
    return out[..., pt:pt + h, pl:pl + w, :]


def _xp_cols(be: Any, x: Any, ksize: tuple, groups: int, strides: tuple, dilations: tuple, pads: Pads,
             oh: int, ow: int) -> Any:
    xp = be.xp
    n, c = x.shape[0], x.shape[3]
    v = xp.reshape(_xp_windows(be, x, ksize, strides, dilations, pads, oh, ow),
                   (n * oh * ow, ksize[0] * ksize[1], groups, c // groups))
    return xp.reshape(xp.permute_dims(v, (2, 0, 1, 3)), (groups, n * oh * ow, -1))


def _xp_mat(be: Any, a: Any, groups: int) -> Any:
    """A filter ``[KH, KW, Cg, G*Og]`` as ``[G, KH*KW*Cg, Og]``, or an output ``[N, OH, OW, G*Og]``
    as ``[G, N*OH*OW, Og]``."""
    xp = be.xp
    return xp.permute_dims(xp.reshape(a, (-1, groups, a.shape[3] // groups)), (1, 0, 2))


def _xp_conv(be: Any, x: Any, w: Any, strides: tuple, dilations: tuple, pads: Pads) -> Any:
    xp = be.xp
    (n, h, wd, c), (kh, kw, cg, o) = x.shape, w.shape
    oh, ow = (_out_size(*a) for a in ((h, kh, strides[0], dilations[0], pads[0]),
                                       (wd, kw, strides[1], dilations[1], pads[1])))
    if x.ndim != 4 or w.ndim != 4 or not (n and oh and ow and o):
        return NotImplemented
    r = xp.matmul(_xp_cols(be, x, (kh, kw), c // cg, strides, dilations, pads, oh, ow), _xp_mat(be, w, c // cg))
    return xp.reshape(xp.permute_dims(r, (1, 0, 2)), (n, oh, ow, o))


def _xp_bi(be: Any, g: Any, w: Any, in_shape: tuple, strides: tuple, dilations: tuple, pads: Pads) -> Any:
    xp = be.xp
    if g.ndim != 4 or w.ndim != 4 or not math.prod(g.shape):
        return NotImplemented
    (n, oh, ow, _), (kh, kw, cg, _), c = g.shape, w.shape, in_shape[3]
    cols = xp.matmul(_xp_mat(be, g, c // cg), xp.permute_dims(_xp_mat(be, w, c // cg), (0, 2, 1)))
    cols = xp.reshape(xp.permute_dims(xp.reshape(cols, (c // cg, n, oh, ow, kh * kw, cg)), (1, 2, 3, 4, 0, 5)),
                      (n, oh, ow, kh * kw, c))
    return _xp_scatter(be, [cols[:, :, :, k, :] for k in range(kh * kw)], (n,) + tuple(in_shape[1:]),
                       _taps(kh, kw, strides, dilations, oh, ow), pads)


def _xp_bf(be: Any, x: Any, g: Any, w_shape: tuple, strides: tuple, dilations: tuple, pads: Pads) -> Any:
    xp = be.xp
    if x.ndim != 4 or g.ndim != 4 or not math.prod(g.shape[:3]):
        return NotImplemented
    (_, oh, ow, _), (kh, kw, cg, _) = g.shape, w_shape
    groups = x.shape[3] // cg
    cols = _xp_cols(be, x, (kh, kw), groups, strides, dilations, pads, oh, ow)
    r = xp.matmul(xp.permute_dims(cols, (0, 2, 1)), _xp_mat(be, g, groups))
    return xp.reshape(xp.permute_dims(r, (1, 0, 2)), w_shape)


def _xp_max_pool(be: Any, x: Any, ksize: tuple, strides: tuple, pads: Pads) -> Any:
    xp = be.xp
    oh, ow = _pool_size(x.shape, ksize, strides, pads)
    if x.ndim != 4 or not (math.prod(x.shape) and oh and ow):
        return NotImplemented
    dt = be.np_dtype(x.dtype)
    low = -np.inf if dt.kind == "f" else np.iinfo(dt).min
    win = _xp_windows(be, x, ksize, strides, (1, 1), pads, oh, ow, low)
    return xp.max(win, axis=3), xp.astype(xp.argmax(win, axis=3), be.dtype(np.dtype(np.int32)))


def _xp_route(be: Any, x: Any, loc: Any, g: Any, ksize: tuple, strides: tuple, pads: Pads) -> Any:
    if g.ndim != 4:
        return NotImplemented
    xp = be.xp
    taps = _taps(*ksize, strides, (1, 1), *loc.shape[1:3])
    return _xp_scatter(be, [xp.where(loc == k, g, xp.zeros_like(g)) for k in range(len(taps))],
                       tuple(x.shape), taps, pads)


def _xp_pick(be: Any, x: Any, loc: Any, h: Any, ksize: tuple, strides: tuple, pads: Pads) -> Any:
    if h.ndim != 4 or not math.prod(loc.shape):
        return NotImplemented
    xp = be.xp
    win = _xp_windows(be, h, ksize, strides, (1, 1), pads, *loc.shape[1:3])
    hit = xp.reshape(loc, loc.shape[:3] + (1, loc.shape[3])) == xp.reshape(xp.arange(win.shape[3]), (-1, 1))
    return xp.sum(xp.where(hit, win, xp.zeros_like(win)), axis=3)


def _xp_avg(be: Any, x: Any, ksize: tuple, strides: tuple, pads: Pads) -> Any:
    oh, ow = _pool_size(x.shape, ksize, strides, pads)
    if x.ndim != 4 or not (math.prod(x.shape) and oh and ow):
        return NotImplemented
    xp = be.xp
    counts = xp.asarray(_counts(x.shape, ksize, strides, pads).astype(be.np_dtype(x.dtype)))
    return xp.sum(_xp_windows(be, x, ksize, strides, (1, 1), pads, oh, ow), axis=3) / counts


def _xp_avg_grad(be: Any, g: Any, in_shape: tuple, ksize: tuple, strides: tuple, pads: Pads) -> Any:
    if g.ndim != 4 or not math.prod(g.shape):
        return NotImplemented
    shape = (g.shape[0],) + tuple(in_shape[1:])
    gs = g / be.xp.asarray(_counts(shape, ksize, strides, pads).astype(be.np_dtype(g.dtype)))
    taps = _taps(*ksize, strides, (1, 1), *g.shape[1:3])
    return _xp_scatter(be, [gs] * len(taps), shape, taps, pads)


for _op, _form in ((_conv2d, _xp_conv), (_conv2d_bi, _xp_bi), (_conv2d_bf, _xp_bf), (_max_pool, _xp_max_pool),
                  (_max_grad, _xp_route), (_max_gradgrad, _xp_pick), (_avg_pool, _xp_avg), (_avg_grad, _xp_avg_grad)):
    _bk.register(_op, _form)


# --------------------------------------------------------------------------- pooling
def _pool(input: Any, ksize: Any, strides: Any, padding: Any, data_format: Any, nsp: int, op: str) -> Tensor:
    x = as_tensor(input)
    is_max = op == "MaxPool"
    _check_float(x, op, ints=is_max)
    cf = _channels_first(data_format, nsp, op)
    if x._value.ndim != nsp + 2:
        raise _err(op, f"input must be {nsp + 2}-dimensional ([batch, {'height, ' * (nsp == 2)}width, "
                       f"channels]), got shape {list(x._value.shape)}")
    ksize, strides = _outer_windows(ksize, strides, nsp, cf, op)
    if type(ksize) is int and ksize < 0:  # a window over the channel axis
        return _depth_max_pool(x, -ksize, strides, padding, cf, op)
    xc, batch = _to_core(x, nsp, cf, op)
    ks = _hw(ksize, nsp, "ksize", op, cf)
    st = _hw(strides, nsp, "strides", op, cf)
    pads = _core_pads(padding, xc._value.shape[1:3], ks, st, (1, 1), op, cf, nsp, explicit=is_max)
    if any(p >= k for pair, k in zip(pads, ks) for p in pair) and not isinstance(padding, str):
        raise _err(op, f"explicit padding {[list(p) for p in pads]} must be smaller than the window "
                       f"{list(ks)} on every side")
    _check_windows(xc._value.shape[1:3], ks, st, (1, 1), pads, op)
    p = {"ksize": ks, "strides": st, "pads": pads}
    y = apply(_max_pool, (xc,), p)[0] if is_max else apply(_avg_pool, (xc,), p)
    return _from_core(y, batch, nsp, cf)


def _outer_windows(ksize: Any, strides: Any, nsp: int, cf: bool, op: str) -> tuple:
    """TensorFlow's checks of the batch and channel entries of ``nsp + 2``-long ksize/strides.

    Returns ``(ksize, strides)`` with those entries dropped, or ``(-depth_window, None)`` for
    MaxPool's pooling over the channel axis alone (a depth stride equal to the window, spatial
    windows 1; spatial strides are then unused, as in TensorFlow's CPU kernel)."""
    def full(v: Any, what: str) -> list | None:
        if isinstance(v, (int, np.integer)):
            return None
        vals = list(v) if type(v) in (tuple, list) and all(type(i) is int for i in v) \
            else _int_list(v, f"{op}: {what}")
        return vals if len(vals) == nsp + 2 else None
    kf, sf = full(ksize, "ksize"), full(strides, "strides")
    if kf is None and sf is None:
        return ksize, strides
    c = 1 if cf else -1
    if (kf is not None and kf[0] != 1) or (sf is not None and sf[0] != 1):
        raise UnimplementedError(f"Pooling is not yet supported on the batch dimension. [Op:{op}]")
    kc = 1 if kf is None else kf[c]
    if kc == 1:  # a channel stride is unused when the channel window is 1
        inner = (lambda v: v[2:] if cf else v[1:-1])
        return (ksize if kf is None else inner(kf)), (strides if sf is None else inner(sf))
    if op != "MaxPool":
        raise UnimplementedError(f"Non-spatial pooling is not yet supported. [Op:{op}]")
    if any(k != 1 for k in (kf[2:] if cf else kf[1:-1])):
        raise UnimplementedError(f"MaxPooling supports exactly one of pooling across depth or pooling "
                                 f"across width/height. [Op:{op}]")
    sc = 1 if sf is None else sf[c]
    return -kc, sc


def _depth_max_pool(x: Tensor, window: int, stride: int, padding: Any, cf: bool, op: str) -> Tensor:
    """Maximum over non-overlapping groups of ``window`` channels (TensorFlow's CPU
    ``DepthwiseMaxPool``); the other axes keep their sizes."""
    ax = 1 if cf else x._value.ndim - 1
    depth = x._value.shape[ax]
    if depth % window:
        raise UnimplementedError(f"Depthwise max pooling requires the depth window to evenly divide "
                                 f"the input depth [Op:{op}]")
    if stride != window:
        raise UnimplementedError(f"Depthwise max pooling requires the depth window to equal the depth "
                                 f"stride [Op:{op}]")
    if not isinstance(padding, str):
        raise UnimplementedError(f"Depthwise max pooling does not support explicit padding. [Op:{op}]")
    if padding not in ("VALID", "SAME"):
        raise _err(op, f"padding must be \"SAME\" or \"VALID\" (upper case), got {padding!r}")
    s = x._value.shape
    grouped = reshape(x, s[:ax] + (depth // window, window) + s[ax + 1:])
    return reduce_max(grouped, axis=ax + 1)


def max_pool1d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NWC",  # noqa: A002
               name: Any = None) -> Tensor:
    """Maximum over windows of ``ksize`` along the width of ``[batch, width, channels]``.

    ``padding`` is ``"VALID"``, ``"SAME"`` or explicit ``[[0, 0], [left, right], [0, 0]]``. The
    gradient goes to the first maximum of each window (ties: the earliest), as in TensorFlow.
    """
    return _pool(input, ksize, strides, padding, data_format, 1, "MaxPool")


def max_pool2d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC",  # noqa: A002
               name: Any = None) -> Tensor:
    """Maximum over ``ksize`` windows of ``[batch, height, width, channels]`` images.

    ``ksize`` and ``strides`` are an int or a list of 1, 2 or 4 ints; ``padding`` is ``"VALID"``,
    ``"SAME"`` (padded elements never win) or explicit ``[[0, 0], [t, b], [l, r], [0, 0]]``. Each
    window's gradient goes to its first maximum in row-major order, as in TensorFlow.

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    >>> tf.nn.max_pool2d(x, 2, 2, "VALID").numpy()[0, :, :, 0]
    array([[ 5.,  7.],
           [13., 15.]], dtype=float32)
    """
    return _pool(input, ksize, strides, padding, data_format, 2, "MaxPool")


def avg_pool1d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NWC",  # noqa: A002
               name: Any = None) -> Tensor:
    """Mean over windows of ``ksize`` along the width of ``[batch, width, channels]``;
    with ``"SAME"`` padding each mean is over the window's non-padded elements."""
    return _pool(input, ksize, strides, padding, data_format, 1, "AvgPool")


def avg_pool2d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC",  # noqa: A002
               name: Any = None) -> Tensor:
    """Mean over ``ksize`` windows of ``[batch, height, width, channels]`` images.

    ``padding`` is ``"VALID"`` or ``"SAME"``; with ``"SAME"`` each mean divides by the number of
    non-padded elements in its window, as TensorFlow does.

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.range(9.0), [1, 3, 3, 1])
    >>> tf.nn.avg_pool2d(x, 2, 2, "SAME").numpy()[0, :, :, 0]
    array([[2. , 3.5],
           [6.5, 8. ]], dtype=float32)
    """
    return _pool(input, ksize, strides, padding, data_format, 2, "AvgPool")


def _pool_any(input: Any, ksize: Any, strides: Any, padding: Any, data_format: Any, op: str) -> Tensor:
    nd = as_tensor(input)._value.ndim
    if nd not in (3, 4):
        raise ValueError(f"{op}: input must have rank 3 (NWC) or 4 (NHWC) for tapegrad's pooling, "
                         f"got rank {nd}.")
    return _pool(input, ksize, strides, padding, data_format, nd - 2, op)


def max_pool(input: Any, ksize: Any, strides: Any, padding: Any, data_format: Any = None,  # noqa: A002
             name: Any = None) -> Tensor:
    """:func:`max_pool1d` or :func:`max_pool2d`, chosen by the input's rank (3 or 4)."""
    return _pool_any(input, ksize, strides, padding, data_format, "MaxPool")


def avg_pool(input: Any, ksize: Any, strides: Any, padding: Any, data_format: Any = None,  # noqa: A002
             name: Any = None) -> Tensor:
    """:func:`avg_pool1d` or :func:`avg_pool2d`, chosen by the input's rank (3 or 4)."""
    return _pool_any(input, ksize, strides, padding, data_format, "AvgPool")


def convolution(input: Any, filters: Any, strides: Any = None, padding: str = "VALID",  # noqa: A002
                data_format: Any = None, dilations: Any = None, name: Any = None) -> Tensor:
    """:func:`conv1d` or :func:`conv2d`, chosen by the filter's rank (3 or 4).

    ``strides`` and ``dilations`` default to 1. Unlike TensorFlow, strides and dilations above 1
    may be combined.
    """
    w = as_tensor(filters)
    nd = w._value.ndim
    if nd not in (3, 4):
        raise ValueError(f"convolution: filters must have rank 3 (1-D) or 4 (2-D) for tapegrad, got "
                         f"shape {list(w._value.shape)}.")
    return _conv_nd(input, filters, 1 if strides is None else strides, padding, data_format,
                    dilations, nd - 2)


# --------------------------------------------------------------------------- 3-D, by depth slices
# A 3-D window is a 2-D window on each depth slice it covers: conv3d sums one conv2d per filter
# depth tap, and the 3-D pools reduce 2-D pools over the depth window (the mean over the valid
# depth slices of means over valid 2-D windows is the mean over the valid 3-D window).
def _ndhwc(x: Tensor, data_format: Any, op: str) -> tuple:
    """``x`` in NDHWC and whether it came as NCDHW."""
    if data_format not in ("NDHWC", "NCDHW"):
        raise ValueError(f"{op}: data_format must be 'NDHWC' or 'NCDHW', got {data_format!r}.")
    if x._value.ndim != 5:
        raise _err(op, f"input must be 5-dimensional ([batch, depth, height, width, channels]), got "
                       f"shape {list(x._value.shape)}")
    cf = data_format == "NCDHW"
    return (transpose(x, [0, 2, 3, 4, 1]) if cf else x), cf


def _from_ndhwc(y: Tensor, cf: bool) -> Tensor:
    return transpose(y, [0, 4, 1, 2, 3]) if cf else y


def conv3d(input: Any, filters: Any, strides: Any, padding: Any, data_format: str = "NDHWC",  # noqa: A002
           dilations: Any = None, name: Any = None) -> Tensor:
    """3-D convolution (cross-correlation) of ``[batch, depth, height, width, in_channels]``
    volumes with ``filters`` of shape ``[fd, fh, fw, in_channels, out_channels]``.

    ``strides`` (and ``dilations``) are a list of 5 ints (``[1, sd, sh, sw, 1]``); ``padding`` is
    ``"VALID"`` or ``"SAME"``; ``data_format="NCDHW"`` puts channels second.

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1])
    >>> float(tf.nn.conv3d(x, tf.ones([2, 2, 2, 1, 1]), [1, 1, 1, 1, 1], "VALID")[0, 0, 0, 0, 0])
    28.0
    """
    op = "Conv3D"
    if type(strides) not in (list, tuple):
        raise TypeError(f"Expected list for 'strides' argument to 'conv3d' Op, not {strides!r}.")
    x, w = binary_operands(input, filters, op)
    _check_float(x, op)
    x, cf = _ndhwc(x, data_format, op)
    if w._value.ndim != 5 or w._value.shape[3] != x._value.shape[4]:
        raise _err(op, f"filters must have shape [fd, fh, fw, in_channels={x._value.shape[4]}, "
                       f"out_channels], got {list(w._value.shape)}")
    st = _spatial(strides, 3, "strides", op, cf)
    dl = _spatial(1 if dilations is None else dilations, 3, "dilations", op, cf)
    b, d, h, wd, c = x._value.shape
    kd = w._value.shape[0]
    pads = _padding(padding, 3, (d, h, wd), w._value.shape[:3], st, dl, op, False, explicit=False)
    if pads[0] != (0, 0):
        x = pad(x, [[0, 0], list(pads[0]), [0, 0], [0, 0], [0, 0]])
        d = x._value.shape[1]
    dout = (d - (kd - 1) * dl[0] - 1) // st[0] + 1
    if dout <= 0:
        raise _err(op, f"the filter depth {kd} (dilated: {(kd - 1) * dl[0] + 1}) is larger than the "
                       f"padded input depth {d}")
    hw = [[0, 0], list(pads[1]), list(pads[2]), [0, 0]]
    parts = []
    for k in range(kd):
        sl = x[:, k * dl[0]:k * dl[0] + (dout - 1) * st[0] + 1:st[0]]
        parts.append(conv2d(reshape(sl, [b * dout, h, wd, c]), w[k], st[1:], hw, dilations=dl[1:]))
    y = parts[0] if kd == 1 else add_n(parts)
    return _from_ndhwc(reshape(y, [b, dout] + list(y._value.shape[1:])), cf)


def _pool3d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: Any, op: str) -> Tensor:  # noqa: A002
    x = as_tensor(input)
    _check_float(x, op)
    x, cf = _ndhwc(x, data_format, op)
    ks = _spatial(ksize, 3, "ksize", op, cf)
    st = _spatial(strides, 3, "strides", op, cf)
    b, d, h, w, c = x._value.shape
    (pb, pa), _, _ = _padding(padding, 3, (d, h, w), ks, st, (1, 1, 1), op, False, explicit=False)
    dout = (d + pb + pa - ks[0]) // st[0] + 1
    if dout <= 0:
        raise _err(op, f"the window depth {ks[0]} is larger than the padded input depth {d + pb + pa}")
    pool2d, reduce = (max_pool2d, reduce_max) if op == "MaxPool3D" else (avg_pool2d, reduce_mean)
    flat = pool2d(reshape(x, [b * d, h, w, c]), ks[1:], st[1:], padding)
    y = reshape(flat, [b, d] + list(flat._value.shape[1:]))
    outs = [reduce(y[:, max(j * st[0] - pb, 0):min(j * st[0] - pb + ks[0], d)], 1) for j in range(dout)]
    return _from_ndhwc(stack(outs, 1), cf)


def max_pool3d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NDHWC",  # noqa: A002
               name: Any = None) -> Tensor:
    """Maximum over ``ksize`` windows of ``[batch, depth, height, width, channels]`` volumes;
    ``padding`` is ``"VALID"`` or ``"SAME"`` (padded elements never win).

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1])
    >>> float(tf.nn.max_pool3d(x, 2, 2, "VALID")[0, 0, 0, 0, 0])
    7.0
    """
    return _pool3d(input, ksize, strides, padding, data_format, "MaxPool3D")


def avg_pool3d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NDHWC",  # noqa: A002
               name: Any = None) -> Tensor:
    """Mean over ``ksize`` windows of ``[batch, depth, height, width, channels]`` volumes; with
    ``"SAME"`` padding each mean is over the window's non-padded elements.

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1])
    >>> float(tf.nn.avg_pool3d(x, 2, 2, "VALID")[0, 0, 0, 0, 0])
    3.5
    """
    return _pool3d(input, ksize, strides, padding, data_format, "AvgPool3D")


def conv3d_transpose(input: Any, filters: Any, output_shape: Any, strides: Any, padding: Any = "SAME",  # noqa: A002
                     data_format: str = "NDHWC", dilations: Any = None, name: Any = None) -> Tensor:
    """The transpose (gradient with respect to the input) of :func:`conv3d`: ``input`` is
    ``[batch, d, h, w, out_channels]``, ``filters`` ``[fd, fh, fw, in_channels, out_channels]``,
    and the result has ``output_shape``.

    >>> import tapegrad as tf
    >>> y = tf.nn.conv3d_transpose(tf.ones([1, 1, 1, 1, 1]), tf.ones([2, 2, 2, 1, 1]), [1, 2, 2, 2, 1],
    ...                            [1, 1, 1, 1, 1], "VALID")
    >>> float(tf.reduce_sum(y))
    8.0
    """
    op = "Conv3DBackpropInputV2"
    g, w = binary_operands(input, filters, op)
    _check_float(g, op)
    g, cf = _ndhwc(g, data_format, op)
    out = _int_list(output_shape, f"{op}: output_shape")
    if len(out) != 5 or w._value.ndim != 5:
        raise _err(op, f"output_shape must have 5 elements and filters 5 dimensions, got {out} and "
                       f"shape {list(w._value.shape)}")
    if cf:
        out = [out[0]] + out[2:] + [out[1]]
    st = _spatial(strides, 3, "strides", op, cf)
    dl = _spatial(1 if dilations is None else dilations, 3, "dilations", op, cf)
    kd = w._value.shape[0]
    (pb, pa), ph, pw = _padding(padding, 3, out[1:4], w._value.shape[:3], st, dl, op, False, explicit=False)
    b, d_in = g._value.shape[:2]
    dp = out[1] + pb + pa
    if (dp - (kd - 1) * dl[0] - 1) // st[0] + 1 != d_in:
        raise _err(op, f"the input depth {d_in} does not match output_shape {out} (filter depth {kd}, "
                       f"stride {st[0]}, padding {padding!r})")
    flat = reshape(g, [b * d_in] + list(g._value.shape[2:]))
    hw = [[0, 0], list(ph), list(pw), [0, 0]]
    parts = []
    for k in range(kd):
        y = conv2d_transpose(flat, w[k], [b * d_in] + out[2:], st[1:], hw, dilations=dl[1:])
        y = reshape(y, [b, d_in] + out[2:])
        if st[0] > 1:  # spread the slices st[0] apart
            y = reshape(stack([y] + [zeros_like(y)] * (st[0] - 1), 2), [b, d_in * st[0]] + out[2:])
            y = y[:, :(d_in - 1) * st[0] + 1]
        start = k * dl[0]
        parts.append(pad(y, [[0, 0], [start, dp - start - y._value.shape[1]], [0, 0], [0, 0], [0, 0]]))
    y = parts[0] if kd == 1 else add_n(parts)
    return _from_ndhwc(y[:, pb:pb + out[1]], cf)


def _argmax_flat_fwd(x: np.ndarray, ksize: tuple, strides: tuple, pads: Pads, with_batch: bool,
                     dtype: np.dtype) -> np.ndarray:
    n, h, w, c = x.shape
    (t, b), (l, r) = pads
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    xp = np.pad(x, ((0, 0), (t, b), (l, r), (0, 0)), constant_values=fill)
    win = sliding_window_view(xp, ksize, axis=(1, 2))[:, ::strides[0], ::strides[1]]  # n, oh, ow, c, kh, kw
    k = win.reshape(win.shape[:4] + (-1,)).argmax(-1)  # the first maximum in row-major order
    oh, ow = k.shape[1:3]
    y = np.arange(oh)[:, None, None] * strides[0] - t + k // ksize[1]
    xx = np.arange(ow)[None, :, None] * strides[1] - l + k % ksize[1]
    flat = (y * w + xx) * c + np.arange(c)
    if with_batch:
        flat = flat + (np.arange(n) * h * w * c)[:, None, None, None]
    return flat.astype(dtype)


_argmax_flat = defop("MaxPoolArgmax", _argmax_flat_fwd, nondiff=True)
MaxPoolWithArgmax = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])


def max_pool_with_argmax(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC",  # noqa: A002
                         output_dtype: Any = _dt.int64, include_batch_in_index: bool = False,
                         name: Any = None) -> MaxPoolWithArgmax:
    """:func:`max_pool2d` and, for each output, the flat index of its maximum in the input:
    ``(y * width + x) * channels + c`` (with ``b * height * width * channels`` added when
    ``include_batch_in_index``); ties go to the first maximum in row-major order.

    >>> import tapegrad as tf
    >>> out, idx = tf.nn.max_pool_with_argmax(tf.reshape(tf.range(16.0), [1, 4, 4, 1]), 2, 2, "VALID")
    >>> idx.numpy().ravel()
    array([ 5,  7, 13, 15])
    """
    op = "MaxPoolWithArgmax"
    x = as_tensor(input)
    if data_format != "NHWC" or x._value.ndim != 4:
        raise _err(op, f"{op} takes 4-D NHWC input, got data_format {data_format!r} and shape "
                       f"{list(x._value.shape)}")
    out = max_pool2d(x, ksize, strides, padding)
    ks = _hw(ksize, 2, "ksize", op, False)
    st = _hw(strides, 2, "strides", op, False)
    pads = _core_pads(padding, x._value.shape[1:3], ks, st, (1, 1), op, False, 2, explicit=False)
    idx = apply(_argmax_flat, (x,), {"ksize": ks, "strides": st, "pads": pads,
                                     "with_batch": bool(include_batch_in_index),
                                     "dtype": _dt.as_dtype(output_dtype)._np})
    return MaxPoolWithArgmax(out, idx)


def conv_transpose(input: Any, filters: Any, output_shape: Any, strides: Any, padding: Any = "SAME",  # noqa: A002
                   data_format: Any = None, dilations: Any = None, name: Any = None) -> Tensor:
    """:func:`conv1d_transpose`, :func:`conv2d_transpose` or :func:`conv3d_transpose`, by the
    rank of ``input`` (3, 4 or 5).

    >>> import tapegrad as tf
    >>> tf.nn.conv_transpose(tf.ones([1, 2, 2, 1]), tf.ones([2, 2, 1, 1]), [1, 4, 4, 1], 2).shape
    TensorShape([1, 4, 4, 1])
    """
    x = as_tensor(input)
    nsp = x._value.ndim - 2
    if nsp not in (1, 2, 3):
        raise ValueError(f"conv_transpose: input must have rank 3, 4 or 5, got shape {list(x._value.shape)}.")
    fmt = data_format or {1: "NWC", 2: "NHWC", 3: "NDHWC"}[nsp]
    if nsp == 3:
        return conv3d_transpose(x, filters, output_shape, strides, padding, fmt, dilations)
    fn = conv1d_transpose if nsp == 1 else conv2d_transpose
    return fn(x, filters, output_shape, strides, padding, fmt, dilations)


def pool(input: Any, window_shape: Any, pooling_type: str, strides: Any = None, padding: str = "VALID",  # noqa: A002
         data_format: Any = None, dilations: Any = None, name: Any = None) -> Tensor:
    """``"MAX"`` or ``"AVG"`` pooling over ``window_shape`` windows (1, 2 or 3 spatial axes).

    >>> import tapegrad as tf
    >>> tf.nn.pool(tf.reshape(tf.range(4.0), [1, 4, 1]), [2], "AVG", strides=[2]).numpy().ravel()
    array([0.5, 2.5], dtype=float32)
    """
    win = [int(v) for v in np.asarray(window_shape).reshape(-1)]
    nsp = len(win)
    if nsp not in (1, 2, 3) or pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"pool: window_shape must have 1 to 3 entries and pooling_type be 'MAX' or 'AVG', "
                         f"got {window_shape} and {pooling_type!r}.")
    if dilations is not None and any(int(d) != 1 for d in np.asarray(dilations).reshape(-1)):
        raise UnimplementedError("pool: tapegrad supports dilations of 1 only (as TensorFlow on the CPU "
                                 "for most poolings).")
    st = [1] * nsp if strides is None else [int(v) for v in np.asarray(strides).reshape(-1)]
    fmt = data_format or {1: "NWC", 2: "NHWC", 3: "NDHWC"}[nsp]
    fns = {("MAX", 1): max_pool1d, ("AVG", 1): avg_pool1d, ("MAX", 2): max_pool2d, ("AVG", 2): avg_pool2d,
           ("MAX", 3): max_pool3d, ("AVG", 3): avg_pool3d}
    return fns[pooling_type, nsp](input, win, st, padding, fmt)


def _patch_arg(v: Any, nsp: int, what: str, op: str) -> tuple:
    """The spatial entries of ``[1, *spatial, 1]``, TensorFlow's form of a size, stride or rate."""
    vals = _int_list(v, f"{op}: {what}")
    if len(vals) != nsp + 2:
        raise _err(op, f"{what} must be a list of {nsp + 2} ints [1, {', '.join(['n'] * nsp)}, 1] (one per axis "
                       f"of the input), got {vals}")
    if vals[0] != 1 or vals[-1] != 1:
        raise UnimplementedError(f"Only support {what} across space: {what} must be [1, ..., 1] at the batch and "
                                 f"depth axes, got {vals} [Op:{op}]")
    if min(vals) <= 0:
        raise OutOfRangeError(f"{what} is out of range: every entry must be positive, got {vals} [Op:{op}]")
    return tuple(vals[1:-1])


def _patches(x: Any, sizes: Any, strides: Any, rates: Any, padding: Any, nsp: int, op: str) -> Tensor:
    x = as_tensor(x)
    if x._value.dtype.kind not in "fciu":
        raise _err(op, f"{op} does not accept a {x.dtype.name} input (numbers only); cast it first, e.g. "
                       "tf.cast(images, tf.float32)")
    if x._value.ndim != nsp + 2:
        raise _err(op, f"input must be {nsp + 2}-dimensional, got shape {list(x._value.shape)}")
    ks = _patch_arg(sizes, nsp, "ksizes", op)
    st = _patch_arg(strides, nsp, "strides", op)
    rt = _patch_arg(rates, nsp, "rates", op)
    sizes_ = x._value.shape[1:-1]
    pads = _padding(padding, nsp, sizes_, ks, st, rt, op, False, explicit=False)
    _check_windows(sizes_, ks, st, rt, pads, op)
    return apply(_image_patches if nsp == 2 else _volume_patches, (x,),
                 {"ksizes": ks, "strides": st, "rates": rt, "pads": pads})


def extract_patches(images: Any, sizes: Any, strides: Any, rates: Any, padding: str, name: Any = None) -> Tensor:
    """Patches of ``[batch, rows, cols, depth]`` images, each flattened into the depth axis:
    ``[batch, out_rows, out_cols, size_rows * size_cols * depth]``, a window's elements in
    row-major order of their positions, then depth (TensorFlow's ``ExtractImagePatches``).

    ``sizes``, ``strides`` and ``rates`` are ``[1, rows, cols, 1]``; a rate spreads a window's
    elements apart (as a dilated convolution's). ``padding``: ``"VALID"`` (whole windows only)
    or ``"SAME"`` (``ceil(size / stride)`` windows, zeros padded as a convolution pads: the odd
    one after). Differentiable to any order; its gradient adds each window back where it came from.

    >>> import tapegrad as tf
    >>> img = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    >>> tf.image.extract_patches(img, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID")[0, 0].numpy()
    array([[0., 1., 4., 5.],
           [2., 3., 6., 7.]], dtype=float32)
    """
    return _patches(images, sizes, strides, rates, padding, 2, "ExtractImagePatches")


def extract_volume_patches(input: Any, ksizes: Any, strides: Any, padding: str, name: Any = None) -> Tensor:  # noqa: A002
    """Patches of ``[batch, planes, rows, cols, depth]`` volumes, each flattened into the depth
    axis (TensorFlow's ``ExtractVolumePatches``): the 3-D :func:`extract_patches`, without rates.

    >>> import tapegrad as tf
    >>> vol = tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1])
    >>> tf.extract_volume_patches(vol, [1, 2, 1, 2, 1], [1, 1, 1, 1, 1], "VALID")[0, 0].numpy()
    array([[[0., 1., 4., 5.]],
    <BLANKLINE>
           [[2., 3., 6., 7.]]], dtype=float32)
    """
    return _patches(input, ksizes, strides, [1] * 5, padding, 3, "ExtractVolumePatches")
