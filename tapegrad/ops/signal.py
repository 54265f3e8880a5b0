"""Signal processing (TensorFlow's ``tf.signal``): FFTs, framing, windows, STFT, DCT, mel scale.

The primitives are the transforms over the last 1, 2 or 3 axes: ``FFT``/``IFFT`` (complex to
complex), ``RFFT`` (real to the non-negative half spectrum) and ``IRFFT`` (its inverse), each in
three ranks. All are linear, and their VJPs are the adjoint transforms, in TensorFlow's complex
convention (the cotangent of ``z`` is ``dL/dRe z + i dL/dIm z``), with ``N`` the transform size:

* ``fft``: ``N · ifft(g)``; ``ifft``: ``fft(g) / N``;
* ``rfft`` of real ``x``: ``Re(N · ifft(g zero-extended to N along the last axis))``;
* ``irfft``: ``rfft(g) · mask / N``, ``mask = [1, 2, …, 2, 1 if N is even else 2]`` along the last
  axis (the bins that stand for two conjugate bins count twice).

``fft_length`` cropping and zero-padding happen before the primitive, with tapegrad's slicing and
padding, so their gradients come from those ops. Everything else (``frame``, ``overlap_and_add``,
``stft``, windows, ``dct``) is composed from tapegrad ops. This module loads with
``tapegrad.signal``, on first use.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
from scipy import special as _special

from .. import _backend as _bk, _vmap, dtypes as _dt
from .._convert import as_tensor, host_value
from .._dispatch import apply, defop
from .._tensor import Tensor, constant_maker, wrap as _wrap
from ..errors import InvalidArgumentError
from .array import concat, pad, reshape, reverse, roll, split, transpose
from .indexing import gather
from .linalg import tensordot
from .math import multiply, real
from .segment import unsorted_segment_sum

__all__ = ["fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d", "rfft", "irfft", "rfft2d", "irfft2d",
           "rfft3d", "irfft3d", "fftshift", "ifftshift", "frame", "overlap_and_add", "stft",
           "inverse_stft", "inverse_stft_window_fn", "hann_window", "hamming_window", "kaiser_window",
           "vorbis_window", "kaiser_bessel_derived_window", "dct", "idct", "mdct", "inverse_mdct",
           "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms"]

_COMPLEX = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}
_REAL = {np.dtype(np.complex64): np.float32, np.dtype(np.complex128): np.float64}


def _axes(rank: int) -> tuple:
    return tuple(range(-rank, 0))


def _size(x: Tensor, rank: int) -> int:
    return int(np.prod(x._value.shape[-rank:]))


def _fft_fwd(x: np.ndarray, rank: int) -> np.ndarray:
    return np.fft.fftn(x, axes=_axes(rank)).astype(x.dtype, copy=False)


def _ifft_fwd(x: np.ndarray, rank: int) -> np.ndarray:
    return np.fft.ifftn(x, axes=_axes(rank)).astype(x.dtype, copy=False)


def _rfft_fwd(x: np.ndarray, rank: int) -> np.ndarray:
    return np.fft.rfftn(x, axes=_axes(rank)).astype(_COMPLEX[x.dtype], copy=False)


def _irfft_fwd(z: np.ndarray, rank: int, n: int) -> np.ndarray:
    s = z.shape[len(z.shape) - rank:-1] + (n,)
    return np.fft.irfftn(z, s=s, axes=_axes(rank)).astype(_REAL[z.dtype], copy=False)


def _fft_vjp(g: Tensor, ans: Tensor, x: Tensor, rank: int) -> Tensor:  # N · ifft(g)
    return apply(_IFFT[rank], (g,), {"rank": rank}) * _size(ans, rank)


def _ifft_vjp(g: Tensor, ans: Tensor, x: Tensor, rank: int) -> Tensor:  # fft(g) / N
    return apply(_FFT[rank], (g,), {"rank": rank}) * (1.0 / _size(ans, rank))


def _rfft_vjp(g: Tensor, ans: Tensor, x: Tensor, rank: int) -> Tensor:
    n = x._value.shape[-1]
    ext = pad(g, [[0, 0]] * (g._value.ndim - 1) + [[0, n - ans._value.shape[-1]]])
    return real(apply(_IFFT[rank], (ext,), {"rank": rank})) * _size(x, rank)


@constant_maker
def _irfft_vjp(g: Tensor, ans: Tensor, z: Tensor, rank: int, n: int) -> Tensor:
    mask = np.full(z._value.shape[-1], 2.0)
    mask[0] = 1.0
    if n % 2 == 0:
        mask[-1] = 1.0
    spec = apply(_RFFT[rank], (g,), {"rank": rank})
    return spec * _wrap((mask / _size(ans, rank)).astype(spec._value.dtype))


_fft1 = defop("FFT", _fft_fwd, vjp=(_fft_vjp,), jvp="linear")
_fft2 = defop("FFT2D", _fft_fwd, vjp=(_fft_vjp,), jvp="linear")
_fft3 = defop("FFT3D", _fft_fwd, vjp=(_fft_vjp,), jvp="linear")
_ifft1 = defop("IFFT", _ifft_fwd, vjp=(_ifft_vjp,), jvp="linear")
_ifft2 = defop("IFFT2D", _ifft_fwd, vjp=(_ifft_vjp,), jvp="linear")
_ifft3 = defop("IFFT3D", _ifft_fwd, vjp=(_ifft_vjp,), jvp="linear")
_rfft1 = defop("RFFT", _rfft_fwd, vjp=(_rfft_vjp,), jvp="linear")
_rfft2 = defop("RFFT2D", _rfft_fwd, vjp=(_rfft_vjp,), jvp="linear")
_rfft3 = defop("RFFT3D", _rfft_fwd, vjp=(_rfft_vjp,), jvp="linear")
_irfft1 = defop("IRFFT", _irfft_fwd, vjp=(_irfft_vjp,), jvp="linear")
_irfft2 = defop("IRFFT2D", _irfft_fwd, vjp=(_irfft_vjp,), jvp="linear")
_irfft3 = defop("IRFFT3D", _irfft_fwd, vjp=(_irfft_vjp,), jvp="linear")
# the forms (tapegrad._backend): the namespace's fft extension; the outputs' dtypes as NumPy's forwards give
_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128)}
_REAL_OF = {v: k for k, v in _COMPLEX_OF.items()}


def _fft_form(name: str) -> Callable:
    """The namespace's fft extension over the last ``rank`` axes."""
    def form(be: Any, x: Any, rank: int, n: int | None = None) -> Any:
        f = getattr(getattr(be.xp, "fft", None), name, None)
        if f is None:
            return NotImplemented
        axes = tuple(range(-rank, 0))
        dt = be.np_dtype(x.dtype)
        x = be.whole(x, axes)
        if name == "rfftn":
            return be.xp.astype(f(x, axes=axes), be.dtype(_COMPLEX_OF[dt]))
        if name == "irfftn":
            s = tuple(x.shape[x.ndim - rank:-1]) + (n,)
            return be.xp.astype(f(x, s=s, axes=axes), be.dtype(_REAL_OF[dt]))
        return be.xp.astype(f(x, axes=axes), x.dtype)
    return form


for _ops, _name in (((_fft1, _fft2, _fft3), "fftn"), ((_ifft1, _ifft2, _ifft3), "ifftn"),
                    ((_rfft1, _rfft2, _rfft3), "rfftn"), ((_irfft1, _irfft2, _irfft3), "irfftn")):
    for _op in _ops:
        _vmap.register(_op, _vmap.leading)
        _bk.register(_op, _fft_form(_name))
_FFT = {1: _fft1, 2: _fft2, 3: _fft3}
_IFFT = {1: _ifft1, 2: _ifft2, 3: _ifft3}
_RFFT = {1: _rfft1, 2: _rfft2, 3: _rfft3}
_IRFFT = {1: _irfft1, 2: _irfft2, 3: _irfft3}


def _check_rank(x: Tensor, rank: int, opname: str) -> None:
    if x._value.ndim < rank:
        raise InvalidArgumentError(f"Input must have rank of at least {rank} but got: "
                                   f"{list(x._value.shape)} [Op:{opname}]")


def _complex_transform(input: Any, rank: int, table: dict, opname: str) -> Tensor:  # noqa: A002
    x = as_tensor(input)
    if x._value.dtype.kind != "c":
        raise InvalidArgumentError(
            f"{opname} takes a complex64 or complex128 tensor, got {x.dtype.name}. Make it complex "
            f"first, e.g. tf.cast(x, tf.complex64). [Op:{opname}]")
    _check_rank(x, rank, opname)
    return apply(table[rank], (x,), {"rank": rank})


def _lengths(fft_length: Any, rank: int, opname: str) -> list[int]:
    lens = [int(v) for v in np.asarray(host_value(fft_length, f"{opname}: fft_length")).reshape(-1)]
    if len(lens) != rank:
        raise InvalidArgumentError(f"fft_length must have {rank} element(s), got {lens} [Op:{opname}]")
    return lens


def _fit(x: Tensor, sizes: list[int]) -> Tensor:
    """Crop or zero-pad the last ``len(sizes)`` axes of ``x`` to ``sizes`` (as TF's FFTs do)."""
    lead = x._value.ndim - len(sizes)
    have = x._value.shape[lead:]
    if tuple(have) == tuple(sizes):
        return x
    if any(h > s for h, s in zip(have, sizes)):
        x = x[(Ellipsis,) + tuple(slice(0, s) for s in sizes)]
    if any(h < s for h, s in zip(have, sizes)):
        x = pad(x, [[0, 0]] * lead + [[0, max(s - h, 0)] for h, s in zip(have, sizes)])
    return x


def _real_transform(input_tensor: Any, fft_length: Any, rank: int, opname: str) -> Tensor:
    x = as_tensor(input_tensor)
    if x._value.dtype not in _COMPLEX:
        raise ValueError(f"{opname} requires tf.float32 or tf.float64 inputs, got {x.dtype.name}. "
                         f"Cast it first, e.g. tf.cast(x, tf.float32).")
    _check_rank(x, rank, opname)
    lens = list(x._value.shape[-rank:]) if fft_length is None else _lengths(fft_length, rank, opname)
    return apply(_RFFT[rank], (_fit(x, lens),), {"rank": rank})


def _inverse_real_transform(input_tensor: Any, fft_length: Any, rank: int, opname: str) -> Tensor:
    z = as_tensor(input_tensor)
    if z._value.dtype not in _REAL:
        raise ValueError(f"{opname} requires tf.complex64 or tf.complex128 inputs, got "
                         f"{z.dtype.name}. Make it complex first, e.g. tf.cast(z, tf.complex64).")
    _check_rank(z, rank, opname)
    shape = list(z._value.shape[-rank:])
    lens = shape[:-1] + [2 * (shape[-1] - 1)] if fft_length is None else _lengths(fft_length, rank, opname)
    z = _fit(z, lens[:-1] + [lens[-1] // 2 + 1])
    return apply(_IRFFT[rank], (z,), {"rank": rank, "n": lens[-1]})


def fft(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Discrete Fourier transform over the last axis of a complex tensor.

    >>> import tapegrad as tf
    >>> tf.signal.fft(tf.constant([1, 2, 3, 4], tf.complex64)).numpy()
    array([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j], dtype=complex64)
    """
    return _complex_transform(input, 1, _FFT, "FFT")


def ifft(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Inverse discrete Fourier transform over the last axis (divides by the length).

    >>> import tapegrad as tf
    >>> tf.signal.ifft(tf.constant([4, 0, 0, 0], tf.complex64)).numpy()
    array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j], dtype=complex64)
    """
    return _complex_transform(input, 1, _IFFT, "IFFT")


def fft2d(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """2-D discrete Fourier transform over the last two axes of a complex tensor.

    >>> import tapegrad as tf
    >>> tf.signal.fft2d(tf.ones([2, 2], tf.complex64)).numpy().real
    array([[4., 0.],
           [0., 0.]], dtype=float32)
    """
    return _complex_transform(input, 2, _FFT, "FFT2D")


def ifft2d(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Inverse 2-D discrete Fourier transform over the last two axes.

    >>> import tapegrad as tf
    >>> tf.signal.ifft2d(tf.constant([[4, 0], [0, 0]], tf.complex64)).numpy().real
    array([[1., 1.],
           [1., 1.]], dtype=float32)
    """
    return _complex_transform(input, 2, _IFFT, "IFFT2D")


def fft3d(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """3-D discrete Fourier transform over the last three axes of a complex tensor.

    >>> import tapegrad as tf
    >>> float(tf.math.real(tf.signal.fft3d(tf.ones([2, 2, 2], tf.complex64))[0, 0, 0]))
    8.0
    """
    return _complex_transform(input, 3, _FFT, "FFT3D")


def ifft3d(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Inverse 3-D discrete Fourier transform over the last three axes.

    >>> import tapegrad as tf
    >>> float(tf.math.real(tf.signal.ifft3d(tf.ones([2, 2, 2], tf.complex64))[0, 0, 0]))
    1.0
    """
    return _complex_transform(input, 3, _IFFT, "IFFT3D")


def rfft(input_tensor: Any, fft_length: Any = None, name: Any = None) -> Tensor:
    """FFT of a real signal over the last axis: the ``fft_length // 2 + 1`` non-negative
    frequencies. ``fft_length`` (``[n]``, default the axis length) crops or zero-pads the input.
    float32 gives complex64, float64 complex128.

    >>> import tapegrad as tf
    >>> tf.signal.rfft(tf.constant([1.0, 2.0, 3.0, 4.0])).numpy()
    array([10.+0.j, -2.+2.j, -2.+0.j], dtype=complex64)
    """
    return _real_transform(input_tensor, fft_length, 1, "RFFT")


def irfft(input_tensor: Any, fft_length: Any = None, name: Any = None) -> Tensor:
    """Inverse of :func:`rfft`: a real signal of length ``fft_length`` (default ``2 * (m - 1)`` for
    ``m`` input bins) from its non-negative frequencies.

    >>> import tapegrad as tf
    >>> tf.signal.irfft(tf.constant([10, -2 + 2j, -2], tf.complex64)).numpy()
    array([1., 2., 3., 4.], dtype=float32)
    """
    return _inverse_real_transform(input_tensor, fft_length, 1, "IRFFT")


def rfft2d(input_tensor: Any, fft_length: Any = None, name: Any = None) -> Tensor:
    """2-D FFT of a real signal over the last two axes (the last one halved as in :func:`rfft`).

    >>> import tapegrad as tf
    >>> tf.signal.rfft2d(tf.ones([2, 4])).shape
    TensorShape([2, 3])
    """
    return _real_transform(input_tensor, fft_length, 2, "RFFT2D")


def irfft2d(input_tensor: Any, fft_length: Any = None, name: Any = None) -> Tensor:
    """Inverse of :func:`rfft2d`.

    >>> import tapegrad as tf
    >>> x = tf.constant([[1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 0.0, 1.0]])
    >>> tf.signal.irfft2d(tf.signal.rfft2d(x)).numpy().round(4)
    array([[1., 2., 3., 4.],
           [0., 1., 0., 1.]], dtype=float32)
    """
    return _inverse_real_transform(input_tensor, fft_length, 2, "IRFFT2D")


def rfft3d(input_tensor: Any, fft_length: Any = None, name: Any = None) -> Tensor:
    """3-D FFT of a real signal over the last three axes (the last one halved as in :func:`rfft`).

    >>> import tapegrad as tf
    >>> tf.signal.rfft3d(tf.ones([2, 2, 4])).shape
    TensorShape([2, 2, 3])
    """
    return _real_transform(input_tensor, fft_length, 3, "RFFT3D")


def irfft3d(input_tensor: Any, fft_length: Any = None, name: Any = None) -> Tensor:
    """Inverse of :func:`rfft3d`.

    >>> import tapegrad as tf
    >>> tf.signal.irfft3d(tf.signal.rfft3d(tf.ones([2, 2, 4]))).numpy().sum().round(4)
    np.float32(16.0)
    """
    return _inverse_real_transform(input_tensor, fft_length, 3, "IRFFT3D")


def _shift_axes(x: Tensor, axes: Any) -> list[int]:
    nd = x._value.ndim
    if axes is None:
        return list(range(nd))
    return [int(a) % nd for a in np.atleast_1d(np.asarray(axes))]


def fftshift(x: Any, axes: Any = None, name: Any = None) -> Tensor:
    """Move the zero frequency to the centre: roll each of ``axes`` (default all) by half its length.

    >>> import tapegrad as tf
    >>> tf.signal.fftshift(tf.constant([0, 1, 2, -2, -1])).numpy()
    array([-2, -1,  0,  1,  2], dtype=int32)
    """
    x = as_tensor(x)
    axes = _shift_axes(x, axes)
    return roll(x, [x._value.shape[a] // 2 for a in axes], axes)


def ifftshift(x: Any, axes: Any = None, name: Any = None) -> Tensor:
    """Inverse of :func:`fftshift`.

    >>> import tapegrad as tf
    >>> tf.signal.ifftshift(tf.constant([-2, -1, 0, 1, 2])).numpy()
    array([ 0,  1,  2, -2, -1], dtype=int32)
    """
    x = as_tensor(x)
    axes = _shift_axes(x, axes)
    return roll(x, [-(x._value.shape[a] // 2) for a in axes], axes)


def _int(v: Any, what: str) -> int:
    a = np.asarray(host_value(v, what))
    if a.ndim != 0 or a.dtype.kind not in "iu":
        raise ValueError(f"{what} must be a scalar integer, got {v!r}.")
    return int(a)


@constant_maker
def frame(signal: Any, frame_length: Any, frame_step: Any, pad_end: bool = False, pad_value: Any = 0,
          axis: Any = -1, name: Any = None) -> Tensor:
    """Split ``axis`` of ``signal`` into frames of ``frame_length`` samples, ``frame_step`` apart:
    that axis becomes two, ``[num_frames, frame_length]``. With ``pad_end`` the end is padded
    with ``pad_value`` so every sample lands in a frame.

    >>> import tapegrad as tf
    >>> tf.signal.frame(tf.range(6), 3, 2).numpy()
    array([[0, 1, 2],
           [2, 3, 4]], dtype=int32)
    """
    x = as_tensor(signal)
    if x._value.ndim < 1:
        raise ValueError("frame: signal must have rank at least 1, got a scalar.")
    length, step = _int(frame_length, "frame_length"), _int(frame_step, "frame_step")
    ax = _int(axis, "axis") % x._value.ndim
    n = x._value.shape[ax]
    if pad_end:
        frames = -(-n // step)
        extra = max(0, length + step * (frames - 1) - n)
        if extra:
            padding = [[0, 0]] * x._value.ndim
            padding[ax] = [0, extra]
            x = pad(x, padding, constant_values=pad_value)
    else:
        frames = max(0, 1 + (n - length) // step)
    idx = (np.arange(frames)[:, None] * step + np.arange(length)[None, :]).astype(np.int32)
    return gather(x, idx, axis=ax)


@constant_maker
def overlap_and_add(signal: Any, frame_step: Any, name: Any = None) -> Tensor:
    """Add frames ``[..., frames, frame_length]`` back into a signal, ``frame_step`` apart
    (the inverse of :func:`frame` up to the overlaps): length ``frame_length + frame_step *
    (frames - 1)``.

    >>> import tapegrad as tf
    >>> tf.signal.overlap_and_add(tf.ones([3, 4]), 2).numpy()
    array([1., 1., 2., 2., 2., 2., 1., 1.], dtype=float32)
    """
    x = as_tensor(signal)
    if x._value.ndim < 2:
        raise ValueError(f"overlap_and_add: signal must have rank at least 2, got shape "
                         f"{list(x._value.shape)}.")
    step = _int(frame_step, "frame_step")
    *outer, frames, length = x._value.shape
    out_len = length + step * (frames - 1)
    nd = x._value.ndim
    flat = reshape(transpose(x, [nd - 2, nd - 1] + list(range(nd - 2))), [frames * length, -1])
    ids = (np.arange(frames)[:, None] * step + np.arange(length)[None, :]).reshape(-1).astype(np.int32)
    summed = unsorted_segment_sum(flat, ids, out_len)
    return transpose(reshape(summed, [out_len] + outer), list(range(1, nd - 1)) + [0])


def _window_length(window_length: Any, dtype: Any, what: str) -> tuple[int, np.dtype]:
    dt = _dt.as_dtype(dtype)
    if not dt.is_floating:
        raise ValueError(f"{what}: dtype must be a floating point type, got {dt.name}.")
    return _int(window_length, "window_length"), np.dtype(dt.as_numpy_dtype)


@constant_maker
def _raised_cosine(window_length: Any, periodic: Any, dtype: Any, a: float, b: float, what: str) -> Tensor:
    n, npdt = _window_length(window_length, dtype, what)
    if n == 1:
        return _wrap(np.ones(1, npdt))
    denom = n - 1 + (1 if bool(periodic) and n % 2 == 0 else 0)  # TF: odd lengths are symmetric
    count = np.arange(n, dtype=npdt)
    return _wrap((npdt.type(a) - npdt.type(b) * np.cos(npdt.type(2 * np.pi) * count / npdt.type(denom))))


def hann_window(window_length: Any, periodic: Any = True, dtype: Any = _dt.float32, name: Any = None) -> Tensor:
    """Hann window ``0.5 - 0.5 cos(2πn/N)``: ``N = window_length`` when ``periodic`` and the length
    is even, else ``window_length - 1`` (TensorFlow's rule: odd lengths are always symmetric).

    >>> import tapegrad as tf
    >>> tf.signal.hann_window(4).numpy()
    array([0. , 0.5, 1. , 0.5], dtype=float32)
    """
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5, "hann_window")


def hamming_window(window_length: Any, periodic: Any = True, dtype: Any = _dt.float32,
                   name: Any = None) -> Tensor:
    """Hamming window ``0.54 - 0.46 cos(2πn/N)``, ``N`` as in :func:`hann_window`.

    >>> import tapegrad as tf
    >>> tf.signal.hamming_window(4).numpy().round(4)
    array([0.08, 0.54, 1.  , 0.54], dtype=float32)
    """
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46, "hamming_window")


@constant_maker  # (from Python values, shapes and guarded reads)
def kaiser_window(window_length: Any, beta: Any = 12.0, dtype: Any = _dt.float32, name: Any = None) -> Tensor:
    """Kaiser window ``I0(β sqrt(1 - (2n/(N-1) - 1)²)) / I0(β)``.

    >>> import tapegrad as tf
    >>> tf.signal.kaiser_window(3, beta=2.0).numpy().round(4)
    array([0.4387, 1.    , 0.4387], dtype=float32)
    """
    n, npdt = _window_length(window_length, dtype, "kaiser_window")
    if n == 1:
        return _wrap(np.ones(1, npdt))
    half = (n - 1) / 2.0
    arg = np.arange(-half, half + 0.1, dtype=np.float32).astype(npdt)
    beta_ = npdt.type(float(np.asarray(host_value(beta, "kaiser_window: beta"))))
    num = beta_ * np.sqrt(np.maximum(npdt.type(1) - np.square(arg / npdt.type(half)), 0))
    return _wrap((np.exp(num - beta_) * (_special.i0e(num) / _special.i0e(beta_))).astype(npdt))


def vorbis_window(window_length: Any, dtype: Any = _dt.float32, name: Any = None) -> Tensor:
    """Vorbis power-complementary window ``sin(π/2 · sin²(π(n + ½)/N))``.

    >>> import tapegrad as tf
    >>> tf.signal.vorbis_window(4).numpy().round(4)
    array([0.228 , 0.9737, 0.9737, 0.228 ], dtype=float32)
    """
    n, npdt = _window_length(window_length, dtype, "vorbis_window")
    arg = np.arange(n, dtype=npdt)
    return _wrap(np.sin(npdt.type(np.pi / 2) * np.sin(npdt.type(np.pi) / npdt.type(n) * (arg + npdt.type(0.5))) ** 2)
                 .astype(npdt))


@constant_maker  # (from Python values, shapes and guarded reads)
def kaiser_bessel_derived_window(window_length: Any, beta: Any = 12.0, dtype: Any = _dt.float32,
                                 name: Any = None) -> Tensor:
    """Kaiser-Bessel-derived window (for the MDCT): the square root of the normalised running sum
    of a Kaiser window of half the length, mirrored.

    >>> import tapegrad as tf
    >>> tf.signal.kaiser_bessel_derived_window(4, beta=2.0).numpy().round(4)
    array([0.4834, 0.8754, 0.8754, 0.4834], dtype=float32)
    """
    n, npdt = _window_length(window_length, dtype, "kaiser_bessel_derived_window")
    k = np.asarray(host_value(kaiser_window(n // 2 + 1, beta, dtype), "kaiser_window"))
    cs = np.cumsum(k)
    half = np.sqrt(cs[:-1] / cs[-1])
    return _wrap(np.concatenate([half, half[::-1]]).astype(npdt))


def _power_of_two(n: int) -> int:
    return 1 << max(0, int(n - 1).bit_length())


def stft(signals: Any, frame_length: Any, frame_step: Any, fft_length: Any = None,
         window_fn: Callable | None = hann_window, pad_end: bool = False, name: Any = None) -> Tensor:
    """Short-time Fourier transform: :func:`frame` the last axis, multiply each frame by
    ``window_fn(frame_length, dtype=...)`` and take its :func:`rfft` with ``fft_length``
    (default the smallest power of two ≥ ``frame_length``). Shape ``[..., frames, fft_length // 2 + 1]``.

    >>> import tapegrad as tf
    >>> tf.signal.stft(tf.ones([16]), frame_length=8, frame_step=4).shape
    TensorShape([3, 5])
    """
    x = as_tensor(signals)
    length = _int(frame_length, "frame_length")
    n = _power_of_two(length) if fft_length is None else _int(fft_length, "fft_length")
    framed = frame(x, length, frame_step, pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(length, dtype=framed.dtype)
    return rfft(framed, [n])


def inverse_stft_window_fn(frame_step: Any, forward_window_fn: Callable = hann_window,
                           name: Any = None) -> Callable:
    """A window function for :func:`inverse_stft` that undoes ``forward_window_fn`` with
    ``frame_step``: the forward window divided by the sum of the squared windows that overlap
    each sample (0 where that sum is 0).

    >>> import tapegrad as tf
    >>> tf.signal.inverse_stft_window_fn(2)(4, dtype=tf.float32).numpy().round(4)
    array([0., 1., 1., 1.], dtype=float32)
    """
    step = _int(frame_step, "frame_step")

    def window(frame_length: Any, dtype: Any) -> Tensor:
        length = _int(frame_length, "frame_length")
        w = np.asarray(host_value(as_tensor(forward_window_fn(length, dtype=dtype)), "window"))
        sq = np.square(w)
        overlaps = -(-length // step)
        sq = np.pad(sq, (0, overlaps * step - length)).reshape(overlaps, step).sum(0)
        denom = np.tile(sq, overlaps)[:length]
        return _wrap(np.where(denom == 0, 0, w / np.where(denom == 0, 1, denom)).astype(w.dtype))
    return window


def inverse_stft(stfts: Any, frame_length: Any, frame_step: Any, fft_length: Any = None,
                 window_fn: Callable | None = hann_window, name: Any = None) -> Tensor:
    """Inverse of :func:`stft`: :func:`irfft` each frame, crop or pad it to ``frame_length``,
    multiply by ``window_fn`` and :func:`overlap_and_add`. For perfect reconstruction pass
    ``window_fn=tf.signal.inverse_stft_window_fn(frame_step)``.

    >>> import tapegrad as tf
    >>> x = tf.sin(tf.range(32, dtype=tf.float32))
    >>> s = tf.signal.stft(x, 8, 2)
    >>> y = tf.signal.inverse_stft(s, 8, 2, window_fn=tf.signal.inverse_stft_window_fn(2))
    >>> float(tf.reduce_max(tf.abs(y[6:-6] - x[6:-6]))) < 1e-5
    True
    """
    z = as_tensor(stfts)
    if z._value.ndim < 2:
        raise ValueError(f"inverse_stft: stfts must have rank at least 2, got shape {list(z._value.shape)}.")
    length = _int(frame_length, "frame_length")
    n = _power_of_two(length) if fft_length is None else _int(fft_length, "fft_length")
    frames = _fit(irfft(z, [n]), [length])
    if window_fn is not None:
        frames = frames * window_fn(length, dtype=frames.dtype)
    return overlap_and_add(frames, frame_step)


def _dct_matrix(n: int, kind: int, norm: Any) -> np.ndarray:
    """``y = x @ M`` for a DCT of type ``kind`` on length ``n`` (scipy.fft's definitions)."""
    j, k = np.arange(n)[:, None], np.arange(n)[None, :]
    if kind == 1:
        m = 2 * np.cos(np.pi * j * k / max(n - 1, 1))
        m[0, :] = 1.0
        m[-1, :] = (-1.0) ** np.arange(n)
    elif kind == 2:
        m = 2 * np.cos(np.pi * (2 * j + 1) * k / (2 * n))
        if norm == "ortho":
            m = m / np.sqrt(2 * n)
            m[:, 0] /= np.sqrt(2)
    elif kind == 3:
        m = 2 * np.cos(np.pi * j * (2 * k + 1) / (2 * n))
        m[0, :] = 1.0
        if norm == "ortho":
            m = m / np.sqrt(2 * n)
            m[0, :] *= np.sqrt(2)
    else:
        m = 2 * np.cos(np.pi * (2 * j + 1) * (2 * k + 1) / (4 * n))
        if norm == "ortho":
            m = m / np.sqrt(2 * n)
    return m


@constant_maker
def dct(input: Any, type: int = 2, n: Any = None, axis: int = -1, norm: Any = None,  # noqa: A002
        name: Any = None) -> Tensor:
    """Discrete cosine transform (types 1-4, ``norm`` ``None`` or ``"ortho"``) over the last axis,
    as ``scipy.fft.dct``; ``n`` crops or zero-pads the input first.

    >>> import tapegrad as tf
    >>> tf.signal.dct(tf.constant([1.0, 2.0, 3.0])).numpy().round(4)
    array([12.    , -3.4641,  0.    ], dtype=float32)
    """
    x = as_tensor(input)
    if type not in (1, 2, 3, 4):
        raise ValueError(f"dct: type must be 1, 2, 3 or 4, got {type!r}.")
    if norm not in (None, "ortho"):
        raise ValueError(f"dct: norm must be None or 'ortho', got {norm!r}.")
    if axis != -1:
        raise NotImplementedError(f"dct: axis must be -1 (as in TensorFlow), got {axis!r}.")
    if type == 1 and norm == "ortho":
        raise ValueError("dct: normalization is not supported for the type-I DCT.")
    if x._value.dtype.kind != "f":
        raise ValueError(f"dct: input must be float32 or float64, got {x.dtype.name}.")
    if n is not None:
        x = _fit(x, [_int(n, "n")])
    size = x._value.shape[-1]
    if type == 1 and size < 2:
        raise ValueError(f"dct: the type-I DCT needs a length of at least 2, got {size}.")
    m = _wrap(_dct_matrix(size, type, norm).astype(x._value.dtype))
    return tensordot(x, m, axes=[[x._value.ndim - 1], [0]])


def idct(input: Any, type: int = 2, n: Any = None, axis: int = -1, norm: Any = None,  # noqa: A002
         name: Any = None) -> Tensor:
    """Inverse DCT: the DCT of the inverse type (2 and 3 swap), scaled like TensorFlow's (with
    ``norm=None`` the round trip multiplies by ``2 · length``).

    >>> import tapegrad as tf
    >>> x = tf.constant([1.0, 2.0, 3.0])
    >>> tf.signal.idct(tf.signal.dct(x, norm="ortho"), norm="ortho").numpy().round(4)
    array([1., 2., 3.], dtype=float32)
    """
    return dct(input, type={1: 1, 2: 3, 3: 2, 4: 4}.get(type, type), n=n, axis=axis, norm=norm)


def mdct(signals: Any, frame_length: Any, window_fn: Callable | None = vorbis_window, pad_end: bool = False,
         norm: Any = None, name: Any = None) -> Tensor:
    """Modified DCT of frames of ``frame_length`` (a multiple of 4) samples, half a frame apart:
    ``[..., frames, frame_length // 2]``. Each windowed frame ``(a, b, c, d)`` (quarters) becomes
    ``(-c reversed - d, a - b reversed)``, then a type-IV DCT (``norm`` ``None`` or ``"ortho"``).

    >>> import tapegrad as tf
    >>> tf.signal.mdct(tf.ones([16]), 8).shape
    TensorShape([3, 4])
    """
    x = as_tensor(signals)
    length = _int(frame_length, "frame_length")
    if length % 4:
        raise ValueError(f"mdct: the frame length must be a multiple of 4, got {length}.")
    frames = frame(x, length, length // 2, pad_end=pad_end)
    if window_fn is not None:
        frames = frames * window_fn(length, dtype=frames.dtype)
    else:
        frames = frames * frames._value.dtype.type(1 / np.sqrt(2))
    a, b, c, d = split(frames, 4, axis=-1)
    last = frames._value.ndim - 1
    return dct(concat([-reverse(c, [last]) - d, a - reverse(b, [last])], -1), type=4, norm=norm)


def inverse_mdct(mdcts: Any, window_fn: Callable | None = vorbis_window, norm: Any = None,
                 name: Any = None) -> Tensor:
    """Inverse of :func:`mdct`: a type-IV DCT of each frame, unfolded to ``2 · N`` samples,
    windowed and overlap-added ``N`` apart (perfect reconstruction with a power-complementary
    window such as the default Vorbis window).

    >>> import tapegrad as tf
    >>> x = tf.sin(tf.range(32, dtype=tf.float32))
    >>> y = tf.signal.inverse_mdct(tf.signal.mdct(x, 8))
    >>> float(tf.reduce_max(tf.abs(y[4:-4] - x[4:-4]))) < 1e-5
    True
    """
    z = as_tensor(mdcts)
    if z._value.ndim < 2:
        raise ValueError(f"inverse_mdct: mdcts must have rank at least 2, got shape {list(z._value.shape)}.")
    if norm not in (None, "ortho"):
        raise ValueError(f"inverse_mdct: norm must be None or 'ortho', got {norm!r}.")
    half = z._value.shape[-1]
    y = dct(z, type=4, norm=norm)
    if norm is None:
        y = y * z._value.dtype.type(0.5 / half)
    p, q = split(y, 2, axis=-1)
    last = z._value.ndim - 1
    frames = concat([q, -reverse(q, [last]), -reverse(p, [last]), -p], -1)
    if window_fn is not None:
        frames = frames * window_fn(2 * half, dtype=frames.dtype)
    else:
        frames = frames * frames._value.dtype.type(1 / np.sqrt(2))
    return overlap_and_add(frames, half)


def _hertz_to_mel(f: np.ndarray) -> np.ndarray:
    return 1127.0 * np.log(1.0 + f / 700.0)


@constant_maker  # (from Python values, shapes and guarded reads)
def linear_to_mel_weight_matrix(num_mel_bins: int = 20, num_spectrogram_bins: int = 129,
                                sample_rate: Any = 8000, lower_edge_hertz: float = 125.0,
                                upper_edge_hertz: float = 3800.0, dtype: Any = _dt.float32,
                                name: Any = None) -> Tensor:
    """The ``[num_spectrogram_bins, num_mel_bins]`` matrix that maps a linear-frequency magnitude
    spectrogram to mel bands (triangular filters evenly spaced on the HTK mel scale between
    ``lower_edge_hertz`` and ``upper_edge_hertz``; the DC bin gets no weight).

    >>> import tapegrad as tf
    >>> tf.signal.linear_to_mel_weight_matrix(4, 9, 8000, 100.0, 3000.0).shape
    TensorShape([9, 4])
    """
    dt = _dt.as_dtype(dtype)
    if not dt.is_floating:
        raise ValueError(f"linear_to_mel_weight_matrix: dtype must be floating, got {dt.name}.")
    sr = float(np.asarray(host_value(sample_rate, "sample_rate")))
    if num_mel_bins <= 0 or num_spectrogram_bins <= 0:
        raise ValueError(f"num_mel_bins and num_spectrogram_bins must be positive, got "
                         f"{num_mel_bins} and {num_spectrogram_bins}.")
    if not 0.0 <= lower_edge_hertz < upper_edge_hertz <= sr / 2 or sr <= 0:
        raise ValueError(f"need 0 <= lower_edge_hertz < upper_edge_hertz <= sample_rate / 2, got "
                         f"{lower_edge_hertz}, {upper_edge_hertz} and sample_rate {sr}.")
    hz = np.linspace(0.0, sr / 2, num_spectrogram_bins)[1:]
    mel = _hertz_to_mel(hz)[:, None]
    edges = np.linspace(_hertz_to_mel(lower_edge_hertz), _hertz_to_mel(upper_edge_hertz), num_mel_bins + 2)
    lower, center, upper = edges[:-2], edges[1:-1], edges[2:]
    w = np.maximum(0.0, np.minimum((mel - lower) / (center - lower), (upper - mel) / (upper - center)))
    return _wrap(np.pad(w, [[1, 0], [0, 0]]).astype(dt.as_numpy_dtype))


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms: Any, name: Any = None) -> Tensor:
    """Mel-frequency cepstral coefficients: the orthonormal-scaled type-II DCT of the last axis
    of log mel spectrograms (``dct(x) / sqrt(2 · num_mel_bins)``).

    >>> import tapegrad as tf
    >>> round(float(tf.signal.mfccs_from_log_mel_spectrograms(tf.ones([1, 4]))[0, 0]), 4)
    2.8284
    """
    x = as_tensor(log_mel_spectrograms)
    bins = x._value.shape[-1]
    return multiply(dct(x, type=2), _wrap(np.asarray(1.0 / np.sqrt(2.0 * bins), x._value.dtype)))
