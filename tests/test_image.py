"""tf.image: values, dtypes and gradients against TensorFlow's (tests/image_programs.py, recorded
in tests/fixtures/tf_signal_image.npz), errors, and the op-table compositions."""
from __future__ import annotations

import numpy as np
import pytest

import tapegrad as tf
from image_programs import PROGRAMS
from test_signal import compare


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_gives_tensorflows_numbers(name):
    compare(name, PROGRAMS[name](tf))
