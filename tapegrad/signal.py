"""``tapegrad.signal``: FFTs, framing, windows, STFT and DCT (TensorFlow's ``tf.signal``), all
differentiable where TensorFlow's are. Loads on first use of ``tapegrad.signal``.

>>> import tapegrad as tf
>>> x = tf.constant([1.0, 2.0, 3.0, 4.0])
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     power = tf.reduce_sum(tf.abs(tf.signal.rfft(x)) ** 2)
>>> tape.gradient(power, x).numpy().round(4)
array([12., 20., 20., 28.], dtype=float32)
"""
import typing as _typing

from .ops.signal import (  # noqa: F401
    dct, fft, fft2d, fft3d, fftshift, frame, hamming_window, hann_window, idct, ifft, ifft2d,
    ifft3d, ifftshift, inverse_mdct, inverse_stft, inverse_stft_window_fn, irfft, irfft2d, irfft3d,
    kaiser_bessel_derived_window, kaiser_window, mdct,
    linear_to_mel_weight_matrix, mfccs_from_log_mel_spectrograms, overlap_and_add, rfft, rfft2d,
    rfft3d, stft, vorbis_window,
)


if not _typing.TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "not covered yet" for a TF name, "did you mean" for a typo
        if name.startswith("_"):  # (private and special names: no lookup, no import)
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from ._missing import attribute_error
        raise attribute_error("signal", name)
