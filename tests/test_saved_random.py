"""Saved functions that draw random numbers, against TF 2.21's draws recorded by
tools/record_tf_saved_random.py (tests/fixtures/tf_saved_random.npz) from the programs in
saved_random_programs.py.

A random op of a saved function is a graph node holding the op seeds its trace gave it; a loaded
function's kernels start afresh, so each load draws what the original function drew first; a
Generator tracked by the module is a saved variable that each load restores. Integers and uniform
floats are bit constructions (compared exactly); normals, gamma and Poisson rates pass through
log/sin/cos, whose float32 last bits depend on the math library, so floats are compared to 1e-5
relative (a few float32 ulp)."""
import json
import os

import numpy as np
import pytest

import tapegrad as tf

from saved_random_programs import FAILING, PROGRAMS
from test_saved_model import _rewrite_graph, _steps

FIXTURE = np.load(os.path.join(os.path.dirname(__file__), "fixtures", "tf_saved_random.npz"))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_saved_random_functions_draw_tensorflows_numbers(name, tmp_path):
    got = PROGRAMS[name](tf, str(tmp_path))
    tf.random.set_seed(None)
    assert f"{name}/{len(got)}" not in FIXTURE and f"{name}/{len(got) - 1}" in FIXTURE
    for i, g in enumerate(got):
        want = FIXTURE[f"{name}/{i}"]
        assert g.dtype == want.dtype and g.shape == want.shape, f"{name}/{i}"
        if want.dtype.kind == "f":
            np.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-6, err_msg=f"{name}/{i}")
        else:
            np.testing.assert_array_equal(g, want, err_msg=f"{name}/{i}")


@pytest.mark.parametrize("name", sorted(FAILING))
def test_saving_fails_as_in_tensorflow(name, tmp_path):
    with pytest.raises(Exception) as e:
        FAILING[name](tf, str(tmp_path))
    assert type(e.value).__name__ == str(FIXTURE[f"{name}/error"])


def _saved_draw(tmp_path):
    tf.random.set_seed(1)
    m = tf.Module()
    m.f = tf.function(lambda x: x + tf.random.uniform([2]), input_signature=[tf.TensorSpec([2], tf.float32)])
    d = str(tmp_path / "m")
    tf.saved_model.save(m, d)
    tf.random.set_seed(None)
    return d


def test_a_saved_draw_is_data(tmp_path):
    d = _saved_draw(tmp_path)
    with np.load(os.path.join(d, "saved_model.pb"), allow_pickle=False) as z:
        graph = json.loads(z["saved_model"].tobytes())
    draw = [st for st in _steps(graph) if st[0] == "draw"][0]
    assert draw[1][0] == "kernel" and draw[1][1:4] == [0, 1, 0]  # node 0, op seeds (global 1, op 0)
    assert draw[1][5][0] == "fill"
    a, b = tf.saved_model.load(d), tf.saved_model.load(d)
    x = tf.zeros([2])
    first = a.f(x).numpy()
    assert not np.array_equal(first, a.f(x).numpy())  # the kernel goes on from call to call
    np.testing.assert_array_equal(first, b.f(x).numpy())  # each load starts it afresh


@pytest.mark.parametrize("change,message", [
    (lambda st: st[1][5].__setitem__(0, "os.system"), "unknown random kernel"),
    (lambda st: st[1].__setitem__(0, "pickle"), "unknown random draw"),
    (lambda st: st[1].__setitem__(1, "0"), "unknown random draw"),
], ids=["kernel-name", "draw-kind", "position"])
def test_crafted_draws_are_refused(change, message, tmp_path):
    d = _saved_draw(tmp_path)
    _rewrite_graph(d, lambda g: [change(st) for st in _steps(g) if st[0] == "draw"])
    with pytest.raises(ValueError, match=message):
        tf.saved_model.load(d).f(tf.zeros([2]))


def test_crafted_candidate_samplers_are_refused(tmp_path):
    m = tf.Module()
    m.f = tf.function(lambda t: tf.random.uniform_candidate_sampler(t, 1, 2, True, 6, seed=7)[0],
                      input_signature=[tf.TensorSpec([1, 1], tf.int64)])
    d = str(tmp_path / "m")
    tf.saved_model.save(m, d)
    _rewrite_graph(d, lambda g: [st[1][5].__setitem__(0, "os.system") for st in _steps(g) if st[0] == "draw"])
    with pytest.raises(ValueError, match="unknown candidate sampler 'os.system'"):
        tf.saved_model.load(d).f(tf.constant([[1]], tf.int64))
