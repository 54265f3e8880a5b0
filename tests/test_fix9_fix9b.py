"""What the ninth unseen set showed (fix9b: masks in fit, NumPy functions' results), against TensorFlow 2.21's recorded results
(tools/record_fix9_fix9b.py, cases in tests/fix9_fix9b_cases.py)."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import fix9_fix9b_cases as lc
import tapegrad as tf

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "fix9_fix9b.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(lc.CASES))
def test_matches_tensorflow(name):
    got, want = lc.CASES[name](tf), RECORDED["cases"][name]
    assert sorted(got) == sorted(want)
    for k, w in want.items():
        np.testing.assert_allclose(np.asarray(got[k]), np.asarray(w), rtol=lc.TOL[name][0], atol=lc.TOL[name][1],
                                   err_msg=f"{name}: {k}")


def test_every_case_is_recorded():
    assert sorted(RECORDED["cases"]) == sorted(lc.CASES)


def test_operators_and_indexing_keep_a_numpy_function_s_tensor_an_array_stand_in():
    # Hands-On ML ch. 11's MC dropout: np.stack of model outputs, then ndarray arithmetic (in a
    # fresh process, as a program runs: the suite's earlier tests change NumPy interop's state)
    code = """
import numpy as np, tapegrad as tf
ts = [tf.constant([[0.1, 0.9], [0.7, 0.3]]), tf.constant([[0.3, 0.7], [0.5, 0.5]])]
p = np.stack(ts).mean(axis=0)
np.testing.assert_allclose(np.asarray(p[0].round(3)), [0.2, 0.8], rtol=1e-6)
assert int((p.argmax(axis=1) == np.array([1, 0])).sum()) == 2
assert abs(float((p * 2).max()) - 1.6) < 1e-6
try:
    tf.constant([1.0]).round
except AttributeError as e:
    assert "no attribute 'round'" in str(e)
else:
    raise AssertionError("a plain tensor answered .round")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]

