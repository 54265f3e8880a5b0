"""What the ninth unseen set showed (fix9b: masks in fit, NumPy functions' results), against TensorFlow 2.21's recorded results
(tools/record_fix9_fix9b.py, cases in tests/fix9_fix9b_cases.py)."""
import json
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
    # Hands-On ML ch. 11's MC dropout: np.stack of model outputs, then ndarray arithmetic
    ts = [tf.constant([[0.1, 0.9], [0.7, 0.3]]), tf.constant([[0.3, 0.7], [0.5, 0.5]])]
    p = np.stack(ts).mean(axis=0)
    np.testing.assert_allclose(np.asarray(p[0].round(3)), [0.2, 0.8], rtol=1e-6)
    assert int((p.argmax(axis=1) == np.array([1, 0])).sum()) == 2
    assert float((p * 2).max()) == pytest.approx(1.6)
    with pytest.raises(AttributeError, match="no attribute 'round'"):
        tf.constant([1.0]).round   # (a tensor no NumPy function made keeps TF's attributes)
