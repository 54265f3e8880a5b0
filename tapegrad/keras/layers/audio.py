"""Keras 3's audio layers: ``STFTSpectrogram`` (a short-time Fourier transform as two fixed
convolutions, trainable if wished) and ``MelSpectrogram`` (a mel-scaled power spectrogram,
optionally in decibels)."""
from __future__ import annotations

import math
import warnings
from typing import Any, Sequence

import scipy.signal

from .. import backend, initializers, ops as _kops
from .input_spec import InputSpec
from .layer import Layer

__all__ = ["MelSpectrogram", "STFTSpectrogram"]

_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0
_MODES = ["log", "magnitude", "psd", "real", "imag", "angle", "stft"]


class STFTSpectrogram(Layer):
    """The spectrogram of ``(batch, time, channels)`` signals (``channels_first``: ``(batch,
    channels, time)``), per channel: ``mode`` ``"log"`` (log magnitude), ``"magnitude"``,
    ``"psd"``, ``"real"``, ``"imag"``, ``"angle"`` or ``"stft"`` (real and imaginary parts side by
    side). The transform is two convolutions with kernels ``real_kernel`` and ``imag_kernel``
    (``keras.initializers.STFT``: the windowed Fourier basis) of stride ``frame_step``
    (``frame_length // 2`` by default); ``expand_dims=True`` keeps channels and frequencies on
    separate axes.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.layers.STFTSpectrogram(frame_length=8, frame_step=4)(np.ones((1, 32, 1), "float32")).shape
    TensorShape([1, 7, 5])
    """

    def __init__(self, mode: str = "log", frame_length: int = 256, frame_step: int | None = None,
                 fft_length: int | None = None, window: Any = "hann", periodic: bool = False,
                 scaling: str | None = "density", padding: str = "valid", expand_dims: bool = False,
                 data_format: Any = None, **kwargs: Any) -> None:
        if frame_step is not None and (frame_step > frame_length or frame_step < 1):
            raise ValueError("`frame_step` should be a positive integer not greater than `frame_length`. "
                             f"Received frame_step={frame_step}, frame_length={frame_length}")
        if fft_length is not None and fft_length < frame_length:
            raise ValueError("`fft_length` should be not less than `frame_length`. "
                             f"Received fft_length={fft_length}, frame_length={frame_length}")
        if fft_length is not None and (fft_length & -fft_length) != fft_length:
            warnings.warn(f"`fft_length` is recommended to be a power of two. Received fft_length={fft_length}",
                          stacklevel=2)
        if mode not in _MODES:
            raise ValueError(f"Output mode is invalid, it must be one of {', '.join(_MODES)}. Received: mode={mode}")
        if scaling is not None and scaling not in ["density", "spectrum"]:
            raise ValueError(f"Scaling is invalid, it must be `None`, 'density' or 'spectrum'. Received scaling={scaling}")
        if padding not in ["valid", "same"]:
            raise ValueError(f"Padding is invalid, it should be 'valid', 'same'. Received: padding={padding}")
        if isinstance(window, str):
            scipy.signal.get_window(window, 1)
        super().__init__(**kwargs)
        self.mode = mode
        self.frame_length = frame_length
        self.frame_step = frame_step
        self._frame_step = frame_step or self.frame_length // 2
        self.fft_length = fft_length
        self._fft_length = fft_length or (2 ** int(math.ceil(math.log2(frame_length))))
        self.window = window
        self.periodic = periodic
        self.scaling = scaling
        self.padding = padding
        self.expand_dims = expand_dims
        self.data_format = data_format or backend.image_data_format()
        self.input_spec = InputSpec(ndim=3)

    def build(self, input_shape: Sequence) -> None:
        shape = (self.frame_length, 1, self._fft_length // 2 + 1)
        if self.mode != "imag":
            self.real_kernel = self.add_weight(name="real_kernel", shape=shape, initializer=initializers.STFT(
                "real", self.window, self.scaling, self.periodic))
        if self.mode != "real":
            self.imag_kernel = self.add_weight(name="imag_kernel", shape=shape, initializer=initializers.STFT(
                "imag", self.window, self.scaling, self.periodic))
        self.built = True

    def _adjust_shapes(self, outputs: Any) -> Any:
        _, channels, freq_channels, time_seq = outputs.shape
        if self.data_format == "channels_last":
            if self.expand_dims:
                return _kops.transpose(outputs, [0, 3, 2, 1])
            outputs = _kops.reshape(outputs, [-1, channels * freq_channels, time_seq])
            return _kops.transpose(outputs, [0, 2, 1])
        if self.expand_dims:
            return _kops.transpose(outputs, [0, 1, 3, 2])
        return _kops.reshape(outputs, [-1, channels * freq_channels, time_seq])

    def _apply_conv(self, inputs: Any, kernel: Any) -> Any:
        if self.data_format == "channels_last":
            _, time_seq, channels = inputs.shape
            inputs = _kops.reshape(_kops.transpose(inputs, [0, 2, 1]), [-1, time_seq, 1])
        else:
            _, channels, time_seq = inputs.shape
            inputs = _kops.reshape(inputs, [-1, 1, time_seq])
        outputs = _kops.conv(inputs, _kops.cast(kernel, inputs.dtype), padding=self.padding,
                             strides=self._frame_step, data_format=self.data_format)
        if self.data_format == "channels_last":
            _, time_seq, freq_channels = outputs.shape
            outputs = _kops.transpose(outputs, [0, 2, 1])
        else:
            _, freq_channels, time_seq = outputs.shape
        return _kops.reshape(outputs, [-1, channels, freq_channels, time_seq])

    def call(self, inputs: Any) -> Any:
        inputs = _kops.convert_to_tensor(inputs)
        if inputs.dtype.name not in {"float16", "float32", "float64"}:
            raise TypeError("Invalid input type. Expected `float16`, `float32` or `float64`. "
                            f"Received: input type={inputs.dtype.name}")
        real = self._apply_conv(inputs, self.real_kernel) if self.mode != "imag" else None
        imag = self._apply_conv(inputs, self.imag_kernel) if self.mode != "real" else None
        if self.mode == "real":
            return self._adjust_shapes(real)
        if self.mode == "imag":
            return self._adjust_shapes(imag)
        if self.mode == "angle":
            return self._adjust_shapes(_kops.arctan2(imag, real))
        if self.mode == "stft":
            return self._adjust_shapes(_kops.concatenate([real, imag], axis=2))
        power = _kops.square(real) + _kops.square(imag)
        if self.mode == "psd":
            return self._adjust_shapes(power + _kops.pad(power[:, :, 1:-1, :], [[0, 0], [0, 0], [1, 1], [0, 0]]))
        linear = self._adjust_shapes(_kops.sqrt(_kops.maximum(power, backend.epsilon())))
        if self.mode == "magnitude":
            return linear
        return _kops.log(_kops.maximum(linear, backend.epsilon()))

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        last = self.data_format == "channels_last"
        channels, n = (input_shape[-1], input_shape[1]) if last else (input_shape[1], input_shape[-1])
        freq = self._fft_length // 2 + 1
        if self.mode == "stft":
            freq *= 2
        if n is None:
            t = None
        elif self.padding == "valid":
            t = (n - self.frame_length) // self._frame_step + 1
        else:
            t = -(-n // self._frame_step)
        if self.expand_dims:
            return (input_shape[0], t, freq, channels) if last else (input_shape[0], channels, t, freq)
        c = None if channels is None else freq * channels
        return (input_shape[0], t, c) if last else (input_shape[0], c, t)

    def get_config(self) -> dict:
        return {**super().get_config(), "mode": self.mode, "frame_length": self.frame_length,
                "frame_step": self.frame_step, "fft_length": self.fft_length, "window": self.window,
                "periodic": self.periodic, "scaling": self.scaling, "padding": self.padding,
                "data_format": self.data_format, "expand_dims": self.expand_dims}


class MelSpectrogram(Layer):
    """The mel spectrogram of raw audio ``(batch, samples)`` or ``(samples,)``: a centred STFT
    (``fft_length``, ``sequence_stride``, ``sequence_length``, ``window``), magnitudes to the
    power ``mag_exp``, ``num_mel_bins`` triangular mel filters between ``min_freq`` and
    ``max_freq``, then (``power_to_db``) decibels relative to ``ref_power``, floored ``top_db``
    below the peak; output ``(batch, num_mel_bins, frames)``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> layer = keras.layers.MelSpectrogram(fft_length=64, sequence_stride=16, num_mel_bins=8)
    >>> layer(np.sin(np.arange(256.0) / 3)[None]).shape
    TensorShape([1, 8, 17])
    """

    def __init__(self, fft_length: int = 2048, sequence_stride: int = 512, sequence_length: int | None = None,
                 window: Any = "hann", sampling_rate: int = 16000, num_mel_bins: int = 128, min_freq: float = 20.0,
                 max_freq: float | None = None, power_to_db: bool = True, top_db: float = 80.0,
                 mag_exp: float = 2.0, min_power: float = 1e-10, ref_power: float = 1.0, **kwargs: Any) -> None:
        self.fft_length = fft_length
        self.sequence_stride = sequence_stride
        self.sequence_length = sequence_length or fft_length
        if self.fft_length < self.sequence_length:
            raise ValueError("`fft_length` must be greater than or equal to   `sequence_length`. Received: "
                             f"`sequence_length`={self.sequence_length}, `fft_length`={self.fft_length}.")
        self.window = window
        self.sampling_rate = sampling_rate
        self.num_mel_bins = num_mel_bins
        self.min_freq = min_freq
        self.max_freq = max_freq or int(sampling_rate / 2)
        self.power_to_db = power_to_db
        self.top_db = top_db
        self.mag_exp = mag_exp
        self.min_power = min_power
        self.ref_power = ref_power
        super().__init__(**kwargs)

    def call(self, inputs: Any) -> Any:
        dtype = self.compute_dtype if self.compute_dtype in ("float32", "float64") else "float32"
        x = _kops.convert_to_tensor(inputs, dtype=dtype)
        real, imag = _kops.stft(x, sequence_length=self.sequence_length, sequence_stride=self.sequence_stride,
                                fft_length=self.fft_length, window=self.window, center=True)
        spec = _kops.power(_kops.sqrt(_kops.add(_kops.square(real), _kops.square(imag))), self.mag_exp)
        out = self._melscale(spec)
        if self.power_to_db:
            out = self._dbscale(out)
        return _kops.cast(_kops.swapaxes(out, -1, -2), self.compute_dtype)

    def _melscale(self, inputs: Any) -> Any:
        matrix = self.linear_to_mel_weight_matrix(num_mel_bins=self.num_mel_bins,
                                                  num_spectrogram_bins=inputs.shape[-1],
                                                  sampling_rate=self.sampling_rate, lower_edge_hertz=self.min_freq,
                                                  upper_edge_hertz=self.max_freq)
        return _kops.tensordot(inputs, matrix, axes=1)

    def _dbscale(self, inputs: Any) -> Any:
        log_spec = 10.0 * _kops.log10(_kops.maximum(inputs, self.min_power))
        ref_value = _kops.abs(_kops.convert_to_tensor(self.ref_power))
        log_spec = log_spec - 10.0 * _kops.log10(_kops.maximum(ref_value, self.min_power))
        return _kops.maximum(log_spec, _kops.max(log_spec) - self.top_db)

    def _hertz_to_mel(self, frequencies_hertz: Any) -> Any:
        return _MEL_HIGH_FREQUENCY_Q * _kops.log(1.0 + (frequencies_hertz / _MEL_BREAK_FREQUENCY_HERTZ))

    def linear_to_mel_weight_matrix(self, num_mel_bins: int = 20, num_spectrogram_bins: int = 129,
                                    sampling_rate: float = 8000, lower_edge_hertz: float = 125.0,
                                    upper_edge_hertz: float = 3800.0, dtype: str = "float32") -> Any:
        """The ``(num_spectrogram_bins, num_mel_bins)`` matrix of triangular mel filters
        (TensorFlow's ``tf.signal.linear_to_mel_weight_matrix``, as Keras computes it)."""
        sampling_rate = _kops.cast(sampling_rate, dtype)
        lower = _kops.convert_to_tensor(lower_edge_hertz, dtype)
        upper = _kops.convert_to_tensor(upper_edge_hertz, dtype)
        zero = _kops.convert_to_tensor(0.0, dtype)
        nyquist = sampling_rate / 2.0
        linear_frequencies = _kops.linspace(zero, nyquist, num_spectrogram_bins)[1:]
        bins_mel = _kops.expand_dims(self._hertz_to_mel(linear_frequencies), 1)
        edges = _kops.extract_sequences(_kops.linspace(self._hertz_to_mel(lower), self._hertz_to_mel(upper),
                                                       num_mel_bins + 2), sequence_length=3, sequence_stride=1)
        lower_mel, center_mel, upper_mel = (_kops.reshape(t, [1, num_mel_bins])
                                            for t in _kops.split(edges, 3, axis=1))
        lower_slopes = (bins_mel - lower_mel) / (center_mel - lower_mel)
        upper_slopes = (upper_mel - bins_mel) / (upper_mel - center_mel)
        weights = _kops.maximum(zero, _kops.minimum(lower_slopes, upper_slopes))
        return _kops.pad(weights, [[1, 0], [0, 0]])

    def compute_output_shape(self, input_shape: Sequence) -> list:
        n = input_shape[0] if len(input_shape) == 1 else input_shape[1]
        frames = (n + self.sequence_stride + 1) // self.sequence_stride if n is not None else None
        if len(input_shape) == 1:
            return [self.num_mel_bins, frames]
        return [input_shape[0], self.num_mel_bins, frames]

    def get_config(self) -> dict:
        return {**super().get_config(), "fft_length": self.fft_length, "sequence_stride": self.sequence_stride,
                "sequence_length": self.sequence_length, "window": self.window,
                "sampling_rate": self.sampling_rate, "num_mel_bins": self.num_mel_bins,
                "min_freq": self.min_freq, "max_freq": self.max_freq, "power_to_db": self.power_to_db,
                "top_db": self.top_db, "mag_exp": self.mag_exp, "min_power": self.min_power,
                "ref_power": self.ref_power}
