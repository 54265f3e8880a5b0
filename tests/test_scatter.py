"""tapegrad._scatter.sum_rows: np.add.at's sums into zeros, bit for bit, in passes."""
import numpy as np
import pytest

from tapegrad._scatter import sum_rows


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int32])
@pytest.mark.parametrize("n, rows, width", [(2048, 1000, 64), (300, 30, 128), (500, 2, 40),
                                             (100, 100, 33), (40, 5, 1), (10, 3, 64), (0, 4, 64)])
def test_same_bits_as_add_at(dtype, n, rows, width):
    rng = np.random.default_rng(n + rows + width)
    index = rng.integers(0, rows, n)
    values = (rng.standard_normal((n, width)) * 10 ** rng.uniform(-6, 6, (n, width))).astype(dtype)
    if values.dtype.kind == "f" and n:
        values[::7] = -0.0
        values[1, 0] = np.nan
    want = np.zeros((rows, width), dtype)
    np.add.at(want, index, values)
    got = sum_rows(values, index, rows)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got.view(np.uint8), want.view(np.uint8))


def test_many_repeats_and_higher_rank():
    rng = np.random.default_rng(1)
    index = np.concatenate([np.zeros(100, np.int64), rng.integers(0, 9, 60)])   # index 0: 100 times
    values = rng.standard_normal((160, 4, 16)).astype(np.float32)
    want = np.zeros((9, 4, 16), np.float32)
    np.add.at(want, index, values)
    assert np.array_equal(sum_rows(values, index, 9), want)
