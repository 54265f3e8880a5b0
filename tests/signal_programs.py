"""Programs of tf.signal, tf.image and the sampled losses, run by TensorFlow
(tools/record_tf_signal_image.py records their results in tests/fixtures/tf_signal_image.npz) and
by tapegrad (tests/test_signal.py, tests/test_image.py and tests/test_nn.py compare). Each takes the
``tf`` module and returns a list of arrays: values, then gradients taken with a GradientTape."""
import numpy as np


def _np(xs):
    return [np.asarray(x.numpy() if hasattr(x, "numpy") else x) for x in xs]


def _data(shape, dtype=np.float32, seed=0, lo=-1.0, hi=1.0):
    return np.random.default_rng(seed).uniform(lo, hi, size=shape).astype(dtype)


def _cdata(shape, dtype=np.complex64, seed=0):
    return (_data(shape, np.float64, seed) + 1j * _data(shape, np.float64, seed + 1)).astype(dtype)


def _grads(tf, f, *xs):
    """f(*xs), and the gradient of sum(real(w * f)) + sum(imag(w * f)) for fixed weights w."""
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
        w = tf.constant(_data(y.shape, np.float64, 99).astype(y.dtype.as_numpy_dtype))
        loss = tf.reduce_sum(tf.math.real(y * w))
        if y.dtype.is_complex:
            loss += tf.reduce_sum(tf.math.imag(y * w)) * 0.5
    return [y] + list(tape.gradient(loss, xs))


def fft_complex(tf):
    out = []
    for dt in (np.complex64, np.complex128):
        for f, shape in ((tf.signal.fft, (3, 5)), (tf.signal.ifft, (2, 6)), (tf.signal.fft2d, (2, 3, 4)),
                         (tf.signal.ifft2d, (3, 5)), (tf.signal.fft3d, (2, 3, 4)), (tf.signal.ifft3d, (2, 2, 3, 2))):
            out += _grads(tf, f, _cdata(shape, dt))
    return _np(out)


def fft_real(tf):
    out = []
    for dt in (np.float32, np.float64):
        out += _grads(tf, tf.signal.rfft, _data((3, 6), dt))
        out += _grads(tf, tf.signal.rfft, _data((7,), dt))
        out += _grads(tf, tf.signal.rfft2d, _data((2, 4, 5), dt))
        out += [tf.signal.rfft3d(tf.constant(_data((2, 3, 4), dt)))]  # (TF has no RFFT3D/IRFFT3D gradient)
        out += _grads(tf, tf.signal.irfft, _cdata((3, 4), {np.float32: np.complex64}.get(dt, np.complex128)))
        out += _grads(tf, lambda z: tf.signal.irfft(z, [7]), _cdata((4,), np.complex128))
        out += _grads(tf, tf.signal.irfft2d, _cdata((3, 4), np.complex128))
        out += _grads(tf, lambda z: tf.signal.irfft2d(z, [3, 5]), _cdata((2, 3, 3), np.complex128))
        out += [tf.signal.irfft3d(tf.constant(_cdata((2, 3, 4), np.complex128)))]
    # fft_length crops and pads (values only: TF's RFFT gradient fails when the length changes)
    x = _data((2, 6))
    out += [tf.signal.rfft(x, [4]), tf.signal.rfft(x, [9]), tf.signal.rfft2d(x, [3, 8]),
            tf.signal.irfft(_cdata((5,)), [4]), tf.signal.irfft(_cdata((3,)), [10])]
    return _np(out)


def shifts_frames(tf):
    x = _data((4, 5))
    out = [tf.signal.fftshift(x), tf.signal.ifftshift(x), tf.signal.fftshift(x, axes=1),
           tf.signal.ifftshift(x, axes=[0]), tf.signal.fftshift(tf.range(7))]
    s = _data((2, 11))
    out += [tf.signal.frame(s, 4, 3), tf.signal.frame(s, 4, 3, pad_end=True, pad_value=7.0),
            tf.signal.frame(np.arange(10), 3, 4), tf.signal.frame(_data((9, 2)), 3, 2, axis=0),
            tf.signal.frame(_data((2, 9, 3)), 4, 2, pad_end=True, axis=-2)]
    out += _grads(tf, lambda a: tf.signal.frame(a, 5, 2, pad_end=True), _data((3, 12), np.float64))
    out += _grads(tf, lambda a: tf.signal.overlap_and_add(a, 3), _data((2, 4, 5), np.float64))
    out += [tf.signal.overlap_and_add(_data((3, 4)), 4), tf.signal.overlap_and_add(_data((5, 3)), 1)]
    return _np(out)


def windows(tf):
    out = []
    for n in (1, 2, 5, 8):
        for periodic in (True, False):
            out += [tf.signal.hann_window(n, periodic), tf.signal.hamming_window(n, periodic)]
        out += [tf.signal.kaiser_window(n), tf.signal.kaiser_window(n, beta=3.0, dtype=tf.float64),
                tf.signal.vorbis_window(n), tf.signal.hann_window(n, dtype=tf.float64)]
    return _np(out)


def stfts(tf):
    x = _data((2, 50), np.float32)
    out = [tf.signal.stft(x, 16, 5), tf.signal.stft(x, 12, 4, fft_length=20, pad_end=True),
           tf.signal.stft(x, 8, 8, window_fn=None), tf.signal.stft(x, 10, 3, window_fn=tf.signal.hamming_window)]
    s = tf.signal.stft(x, 16, 4)
    out += [tf.signal.inverse_stft(s, 16, 4), tf.signal.inverse_stft(s, 16, 4, fft_length=16),
            tf.signal.inverse_stft(s, 16, 4, window_fn=tf.signal.inverse_stft_window_fn(4)),
            tf.signal.inverse_stft_window_fn(3)(10, tf.float64)]
    out += _grads(tf, lambda a: tf.abs(tf.signal.stft(a, 8, 3)), _data((40,), np.float64))
    out += _grads(tf, lambda z: tf.signal.inverse_stft(z, 8, 4), _cdata((5, 5), np.complex128))
    return _np(out)


def dcts(tf):
    x = _data((3, 6), np.float64)
    out = []
    for t in (1, 2, 3, 4):
        for norm in ((None, "ortho") if t != 1 else (None,)):
            out += [tf.signal.dct(x, type=t, norm=norm), tf.signal.idct(x, type=t, norm=norm)]
    out += [tf.signal.dct(x, n=4), tf.signal.dct(x, n=8, norm="ortho")]
    out += _grads(tf, lambda a: tf.signal.dct(a, norm="ortho"), _data((2, 5), np.float32))
    out += [tf.signal.linear_to_mel_weight_matrix(),
            tf.signal.linear_to_mel_weight_matrix(8, 33, 16000, 20.0, 7000.0, dtype=tf.float64)]
    out += _grads(tf, tf.signal.mfccs_from_log_mel_spectrograms, _data((3, 10), np.float32))
    return _np(out)


def mdcts(tf):
    x = _data((2, 40), np.float32, seed=50)
    out = [tf.signal.mdct(x, 8), tf.signal.mdct(x, 12, pad_end=True, norm="ortho"),
           tf.signal.mdct(x, 8, window_fn=None), tf.signal.kaiser_bessel_derived_window(10),
           tf.signal.kaiser_bessel_derived_window(7, beta=4.0, dtype=tf.float64)]
    m = tf.signal.mdct(x, 16)
    out += [tf.signal.inverse_mdct(m), tf.signal.inverse_mdct(m, norm="ortho", window_fn=None),
            tf.signal.inverse_mdct(m, window_fn=tf.signal.kaiser_bessel_derived_window)]
    out += _grads(tf, lambda a: tf.signal.mdct(a, 8, norm="ortho"), _data((24,), np.float64, seed=51))
    return _np(out)


PROGRAMS = {f.__name__: f for f in (fft_complex, fft_real, shifts_frames, windows, stfts, dcts, mdcts)}
