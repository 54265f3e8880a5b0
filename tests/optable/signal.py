"""Op table: tf.signal's FFT primitives (tapegrad/ops/signal.py) and the compositions on them."""

import tapegrad as tf
import tapegrad.signal  # noqa: F401  (loads the family: tf.signal loads on first use)
from optable import OpCase



CASES = [
    OpCase("FFT", tf.signal.fft, [((5,),), ((2, 4),)], complex=True),
    OpCase("IFFT", tf.signal.ifft, [((6,),), ((3, 2),)], complex=True),
    OpCase("FFT2D", tf.signal.fft2d, [((2, 3),), ((2, 3, 4),)], complex=True),
    OpCase("IFFT2D", tf.signal.ifft2d, [((3, 3),)], complex=True),
    OpCase("FFT3D", tf.signal.fft3d, [((2, 2, 3),)], complex=True),
    OpCase("IFFT3D", tf.signal.ifft3d, [((2, 3, 2),)], complex=True),
    OpCase("RFFT", tf.signal.rfft, [((6,),), ((2, 5),)]),
    OpCase("RFFT-length", lambda x: tf.signal.rfft(x, [4]), [((6,),), ((2, 3),)], ops=("RFFT",)),
    OpCase("RFFT2D", tf.signal.rfft2d, [((3, 4),), ((2, 2, 5),)]),
    OpCase("RFFT2D-length", lambda x: tf.signal.rfft2d(x, [2, 6]), [((3, 4),)], ops=("RFFT2D",)),
    OpCase("RFFT3D", tf.signal.rfft3d, [((2, 3, 4),)]),
    OpCase("IRFFT", tf.signal.irfft, [((4,),), ((2, 3),)], complex=True),
    OpCase("IRFFT-odd", lambda z: tf.signal.irfft(z, [7]), [((4,),), ((5,),)], ops=("IRFFT",), complex=True),
    OpCase("IRFFT2D", tf.signal.irfft2d, [((3, 4),)], complex=True),
    OpCase("IRFFT2D-odd", lambda z: tf.signal.irfft2d(z, [2, 5]), [((3, 3),)], ops=("IRFFT2D",), complex=True),
    OpCase("IRFFT3D", tf.signal.irfft3d, [((2, 2, 3),)], complex=True),
    OpCase("frame", lambda x: tf.signal.frame(x, 3, 2, pad_end=True), [((7,),), ((2, 6),)], ops=()),
    OpCase("overlap_and_add", lambda x: tf.signal.overlap_and_add(x, 2), [((3, 4),), ((2, 3, 3),)], ops=()),
    OpCase("stft", lambda x: tf.math.real(tf.signal.stft(x, 6, 2)), [((14,),)], ops=()),
    OpCase("inverse_stft", lambda z: tf.signal.inverse_stft(z, 6, 2), [((4, 5),)], ops=(), complex=True),
    OpCase("dct", lambda x: tf.signal.dct(x, type=3, norm="ortho"), [((5,),), ((2, 4),)], ops=()),
]
