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
