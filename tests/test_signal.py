"""tf.signal: values and gradients against TensorFlow's (tests/signal_programs.py, recorded in
tests/fixtures/tf_signal_image.npz), dtypes, errors, and the FFT primitives' algebra."""
from __future__ import annotations

import pathlib

import numpy as np
import pytest

import tapegrad as tf
from signal_programs import PROGRAMS

FIXTURE = np.load(pathlib.Path(__file__).parent / "fixtures" / "tf_signal_image.npz")


def compare(name: str, got: list) -> None:
    want = [FIXTURE[f"{name}/{i}"] for i in range(sum(k.startswith(name + "/") for k in FIXTURE.files))]
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, (name, i, g.dtype, w.dtype, g.shape, w.shape)
        tol = 1e-4 if w.dtype in (np.float32, np.complex64, np.float16) else 1e-6
        scale = max(1.0, float(np.max(np.abs(w)))) if w.size else 1.0
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol * scale, err_msg=f"{name}/{i}")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_gives_tensorflows_numbers(name):
    compare(name, PROGRAMS[name](tf))


def test_numpy_double_precision_input_keeps_its_precision():
    # TF converts NumPy input of irfft2d/rfft3d/irfft3d at single precision (docs/differences.md)
    assert tf.signal.rfft3d(np.ones((2, 2, 4))).dtype == tf.complex128
    assert tf.signal.irfft2d(np.ones((2, 3), np.complex128)).dtype == tf.float64
    assert tf.signal.irfft3d(np.ones((2, 2, 3), np.complex128)).dtype == tf.float64
    assert tf.signal.rfft(np.ones(4, np.float32)).dtype == tf.complex64


@pytest.mark.parametrize("f", [lambda x: tf.signal.rfft(x, [4]), lambda x: tf.signal.rfft(x, [9]),
                               lambda x: tf.signal.rfft2d(x, [3, 4]), tf.signal.rfft3d])
def test_rfft_gradients_where_tensorflow_has_none(f):
    # TF: shape error when fft_length changes the length; no RFFT3D gradient (docs/differences.md)
    x = tf.constant(np.random.default_rng(3).uniform(-1, 1, (2, 3, 6)))
    tf.test.check_grads(f, [x], order=2)


def test_fft_of_a_batch_is_numpys_and_round_trips():
    z = np.random.default_rng(4).normal(size=(3, 4, 5)) + 1j
    np.testing.assert_allclose(tf.signal.fft2d(z).numpy(), np.fft.fft2(z), rtol=1e-12)
    np.testing.assert_allclose(tf.signal.ifft3d(tf.signal.fft3d(z)).numpy(), z, rtol=1e-12)
    x = np.random.default_rng(5).normal(size=(4, 7))
    np.testing.assert_allclose(tf.signal.irfft(tf.signal.rfft(x), [7]).numpy(), x, atol=1e-12)


@pytest.mark.parametrize("call,err,match", [
    (lambda: tf.signal.fft(tf.constant([1.0, 2.0])), tf.errors.InvalidArgumentError, "complex64 or complex128"),
    (lambda: tf.signal.fft2d(tf.constant([1.0, 2.0], tf.complex64)), tf.errors.InvalidArgumentError, "rank of at least 2"),
    (lambda: tf.signal.rfft(tf.constant([1, 2])), ValueError, "float32 or tf.float64"),
    (lambda: tf.signal.rfft(tf.constant([1.0], tf.complex64)), ValueError, "float32 or tf.float64"),
    (lambda: tf.signal.irfft(tf.constant([1.0, 2.0])), ValueError, "complex64 or tf.complex128"),
    (lambda: tf.signal.rfft2d(tf.ones([2, 2]), [2]), tf.errors.InvalidArgumentError, "2 element"),
    (lambda: tf.signal.hann_window(4, dtype=tf.int32), ValueError, "floating point"),
    (lambda: tf.signal.frame(tf.constant(1.0), 2, 1), ValueError, "rank at least 1"),
    (lambda: tf.signal.frame(tf.ones([5]), 2.5, 1), ValueError, "frame_length"),
    (lambda: tf.signal.overlap_and_add(tf.ones([4]), 2), ValueError, "rank at least 2"),
    (lambda: tf.signal.dct(tf.ones([4]), type=5), ValueError, "type must be"),
    (lambda: tf.signal.dct(tf.ones([4]), type=1, norm="ortho"), ValueError, "type-I"),
    (lambda: tf.signal.dct(tf.ones([2, 4]), axis=0), NotImplementedError, "axis"),
    (lambda: tf.signal.linear_to_mel_weight_matrix(upper_edge_hertz=5000.0), ValueError, "sample_rate / 2"),
])
def test_bad_input(call, err, match):
    with pytest.raises(err, match=match):
        call()
