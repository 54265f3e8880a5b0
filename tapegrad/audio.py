"""``tapegrad.audio`` (``tf.audio``): WAV files as TensorFlow reads and writes them, in NumPy: 16-bit
PCM samples as ``float32`` in [-1, 1) (a sample over 32768), ``[samples, channels]``. Loads on first
use of ``tapegrad.audio``.

>>> import numpy as np, tapegrad as tf
>>> wav = tf.audio.encode_wav(tf.constant([[0.5], [-0.25]]), 16000)
>>> audio, rate = tf.audio.decode_wav(wav, desired_samples=3)
>>> audio.numpy().ravel().tolist(), int(rate)
([0.5, -0.25, 0.0], 16000)
"""
from __future__ import annotations

import struct
import typing as _typing
from typing import Any

import numpy as np

from . import dtypes as _dt
from ._convert import convert_to_tensor
from ._tensor import Tensor
from .errors import InvalidArgumentError

__all__ = ["decode_wav", "encode_wav"]


def _samples(data: bytes) -> tuple[np.ndarray, int]:
    """The int16 samples ``[n, channels]`` and the rate of a RIFF/WAVE file (16-bit PCM only)."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise InvalidArgumentError(f"Header mismatch: expected a RIFF/WAVE file, found {data[:12]!r}.")
    pos, fmt = 12, None
    while pos + 8 <= len(data):
        kind, size = data[pos:pos + 4], struct.unpack_from("<I", data, pos + 4)[0]
        body = pos + 8
        if kind == b"fmt ":
            if size < 16 or body + 16 > len(data):
                raise InvalidArgumentError(f"Bad format chunk size for WAV: Expected 16 or 18, but got {size}")
            fmt = struct.unpack_from("<HHIIHH", data, body)
        elif kind == b"data":
            if fmt is None:
                raise InvalidArgumentError("The fmt chunk must come before the data chunk in a WAV file.")
            code, channels, rate, _, align, bits = fmt
            if code != 1:
                raise InvalidArgumentError(f"Bad audio format value of {code}. Only PCM (1) WAV files are supported.")
            if channels < 1:
                raise InvalidArgumentError("Bad number of channels for WAV file: 0")
            if bits != 16:
                raise InvalidArgumentError(f"Can only read 16-bit WAV files, but received {bits}")
            if body + size > len(data):
                raise InvalidArgumentError(f"Data chunk of {size} bytes runs past the end of the file "
                                           f"({len(data) - body} bytes left).")
            n = size // (2 * channels)
            return np.frombuffer(data, "<i2", n * channels, body).reshape(n, channels), rate
        pos = body + size + (size & 1)
    raise InvalidArgumentError("No data chunk found in WAV")


def decode_wav(contents: Any, desired_channels: int = -1, desired_samples: int = -1,
               name: str | None = None) -> tuple[Tensor, Tensor]:
    """A 16-bit PCM WAV file as ``(audio, sample_rate)`` (TensorFlow's ``tf.audio.decode_wav``):
    ``audio`` ``float32`` ``[samples, channels]`` in [-1, 1), ``sample_rate`` an ``int32`` scalar.
    ``desired_channels`` keeps the first channels, or repeats the last one; ``desired_samples`` cuts,
    or pads with zeros; -1 keeps the file's.

    >>> import tapegrad as tf
    >>> wav = tf.audio.encode_wav(tf.constant([[0.5, -0.5]]), 8000)
    >>> tf.audio.decode_wav(wav, desired_channels=1)[0].numpy().tolist()
    [[0.5]]
    """
    t = convert_to_tensor(contents)
    if t.dtype != _dt.string:
        raise TypeError(f"decode_wav: `contents` must be a string tensor (e.g. tf.io.read_file(path)), got "
                        f"{t.dtype.name}.")
    if np.ndim(t.numpy()):
        raise InvalidArgumentError(f"contents must be scalar, got shape {list(t.shape)}")
    pcm, rate = _samples(bytes(t.numpy()))
    n, c = pcm.shape
    want_c = c if desired_channels == -1 else int(desired_channels)
    want_n = n if desired_samples == -1 else int(desired_samples)
    if want_c < 1 or want_n < 0:
        raise InvalidArgumentError(f"desired_channels must be -1 or positive and desired_samples -1 or "
                                   f"non-negative, got {desired_channels} and {desired_samples}")
    x = pcm.astype(np.float32) * np.float32(1 / 32768)
    x = x[:, np.minimum(np.arange(want_c), c - 1)][:want_n]
    if want_n > n:
        x = np.concatenate([x, np.zeros((want_n - n, want_c), np.float32)])
    return convert_to_tensor(np.ascontiguousarray(x)), convert_to_tensor(np.int32(rate))


def encode_wav(audio: Any, sample_rate: Any, name: str | None = None) -> Tensor:
    """``float32`` ``[samples, channels]`` audio as a 16-bit PCM WAV file (``tf.audio.encode_wav``):
    each sample times 32768, rounded half away from zero and clipped to int16.

    >>> import tapegrad as tf
    >>> len(tf.audio.encode_wav(tf.zeros([10, 2]), 44100).numpy())
    84
    """
    t = convert_to_tensor(audio)
    if t.dtype != _dt.float32:
        raise TypeError(f"encode_wav: `audio` must be float32, got {t.dtype.name}.")
    a = np.asarray(t.numpy())
    if a.ndim != 2:
        raise InvalidArgumentError(f"audio must be 2-dimensional [samples, channels], got shape {list(a.shape)}")
    rate = int(np.asarray(convert_to_tensor(sample_rate).numpy()))
    if a.shape[1] < 1 and a.shape[0]:
        raise InvalidArgumentError("audio must have at least one channel")
    scaled = a.astype(np.float32) * np.float32(32768)
    pcm = np.clip(np.sign(scaled) * np.floor(np.abs(scaled) + np.float32(0.5)), -32768, 32767).astype("<i2")
    body = pcm.tobytes()
    c = a.shape[1]
    head = (b"RIFF" + struct.pack("<I", 36 + len(body)) + b"WAVE" + b"fmt " +
            struct.pack("<IHHIIHH", 16, 1, c, rate, rate * c * 2, c * 2, 16) + b"data" + struct.pack("<I", len(body)))
    return convert_to_tensor(np.array(head + body, dtype=object), dtype=_dt.string)


if not _typing.TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # "not covered yet" for a TF name, "did you mean" for a typo
        if name.startswith("_"):
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from ._missing import attribute_error
        raise attribute_error("audio", name)
