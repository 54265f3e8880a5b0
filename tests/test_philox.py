"""TensorFlow's random numbers: tapegrad's results against TF 2.21's, recorded by
tools/record_tf_random.py (tests/fixtures/tf_random.npz) from the programs in random_programs.py.

Integers and uniform floats (bit constructions) must be identical. Normals go through log, sin and
cos, whose last bit differs between math libraries (TF calls the C library's ``sincosf``): float64
and float16 agree exactly here and float32 within 2 units in the last place (ulp)."""
import os

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import _philox
from tapegrad.errors import InvalidArgumentError

from random_programs import APPROXIMATE, PROGRAMS

FIXTURE = np.load(os.path.join(os.path.dirname(__file__), "fixtures", "tf_random.npz"))


def assert_tf_equal(got, want, where):
    assert got.dtype == want.dtype and got.shape == want.shape, where
    if want.dtype.kind == "f" and want.size:
        np.testing.assert_array_max_ulp(got, want, maxulp=2, dtype=want.dtype)
    else:
        assert np.array_equal(got, want), where


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_gives_tensorflows_numbers(name):
    tf.random.set_seed(None)
    got = PROGRAMS[name](tf)
    want = [FIXTURE[f"{name}/{i}"] for i in range(len(got))]
    assert f"{name}/{len(got)}" not in FIXTURE
    approx = len(got) - APPROXIMATE.get(name, 0)
    for i, (g, w) in enumerate(zip(got, want)):
        if i >= approx:
            np.testing.assert_allclose(g, w, rtol=1e-5, err_msg=f"{name}/{i}")
        else:
            assert_tf_equal(g, w, f"{name}/{i}")


def test_float32_normals_are_mostly_bit_identical():
    got = tf.random.stateless_normal([10001], [3, 4]).numpy()
    same = np.mean(got == FIXTURE["stateless_large/0"])
    assert same > 0.95  # the rest differ by 1-2 ulp (the C library's sincosf/logf rounding)


def test_philox_known_answer():
    # Random123's published known-answer test for Philox-4x32-10
    # (words least significant first: counter 243f6a88 85a308d3 13198a2e 03707344, key a4093822
    # 299f31d0)
    ctr = _philox.counters(0x03707344_13198A2E_85A308D3_243F6A88, np.zeros(1, np.uint64))
    out = _philox.bijection(ctr, 0x299F31D0_A4093822)
    assert [hex(v) for v in out[0]] == ["0xd16cfe09", "0x94fdcceb", "0x5001e420", "0x24126ea1"]
    zero = _philox.bijection(_philox.counters(0, np.zeros(1, np.uint64)), 0)
    assert [hex(v) for v in zero[0]] == ["0x6627e8d5", "0xe169c58d", "0xbc57ac4c", "0x9b00dbd8"]


def test_stateless_is_a_function_of_the_seed():
    a = tf.random.stateless_uniform([5], seed=[7, 8])
    tf.random.normal([3])
    assert np.array_equal(tf.random.stateless_uniform([5], seed=[7, 8]).numpy(), a.numpy())
    assert not np.array_equal(tf.random.stateless_uniform([5], seed=[7, 9]).numpy(), a.numpy())


def test_stateless_gradients_flow_to_mean_and_stddev():
    m, s = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.random.stateless_normal([4], [1, 2], mean=m, stddev=s))
    gm, gs = tape.gradient(y, [m, s])
    z = tf.random.stateless_normal([4], [1, 2]).numpy()
    assert float(gm) == 4.0 and np.isclose(float(gs), z.sum(), rtol=1e-6)


def test_truncated_normal_statistics():
    x = tf.random.stateless_truncated_normal([200000], [1, 1], dtype=tf.float64).numpy()
    assert np.abs(x).max() < 2
    assert abs(x.mean()) < 0.01 and abs(x.std() - 0.8796) < 0.005  # std of N(0,1) cut at +-2


@pytest.mark.parametrize("call, err, match", [
    (lambda: tf.random.stateless_normal([2], [1, 2, 3]), InvalidArgumentError, r"shape \[2\], not \[3\]"),
    (lambda: tf.random.stateless_normal([2], 5), InvalidArgumentError, r"shape \[2\], not \[\]"),
    (lambda: tf.random.stateless_normal([2], [1.0, 2.0]), InvalidArgumentError, "int32 or int64"),
    (lambda: tf.random.stateless_normal([2], [1, 2], dtype=tf.int32), TypeError, "float"),
    (lambda: tf.random.stateless_normal([2], [1, 2], alg="foo"), ValueError, "unsupported value 'foo'"),
    (lambda: tf.random.stateless_normal([2], [1, 2], alg="threefry"), InvalidArgumentError, "threefry"),
    (lambda: tf.random.stateless_normal([-1], [1, 2]), InvalidArgumentError, "-1"),
    (lambda: tf.random.stateless_uniform([2], [1, 2], minval=5, maxval=5, dtype=tf.int32),
     InvalidArgumentError, "minval < maxval"),
    (lambda: tf.random.stateless_uniform([2], [1, 2], minval=None, maxval=5, dtype=tf.int32),
     ValueError, "both"),
    (lambda: tf.random.stateless_uniform([2], [1, 2], minval=0, maxval=5, dtype=tf.uint32),
     ValueError, "full range"),
    (lambda: tf.random.stateless_uniform([2], [1, 2], dtype=tf.bool), ValueError, "bool"),
    (lambda: tf.random.stateless_truncated_normal([2], [1, 2], dtype=tf.int64), TypeError, "float"),
    (lambda: tf.random.Generator.from_state([1, 2], "philox"), ValueError, "shape"),
    (lambda: tf.random.Generator(), ValueError, "from_seed"),
])
def test_bad_input(call, err, match):
    with pytest.raises(err, match=match):
        call()


def test_generator_state_advances_256_per_output():
    g = tf.random.Generator.from_seed(1)
    assert g.algorithm == 1 and g.state.numpy().tolist() == [1, 0, 0]
    g.normal([3])
    assert g.state.numpy().tolist() == [1 + 3 * 256, 0, 0]
    old = g.skip(2).numpy()
    assert old.tolist() == [769, 0, 0] and g.state.numpy().tolist() == [769 + 512, 0, 0]


def test_global_generator_is_replaceable():
    g = tf.random.Generator.from_seed(5)
    tf.random.set_global_generator(g)
    assert tf.random.get_global_generator() is g
    tf.random.set_global_generator(tf.random.Generator.from_non_deterministic_state())
    assert tf.random.get_global_generator() is not g


def test_benchmark_runs():
    from benchmarks import bench_random
    (r,) = bench_random.measure("tapegrad", smoke=True)
    assert r["normal_ratio"] > 0 and r["uniform_ratio"] > 0
