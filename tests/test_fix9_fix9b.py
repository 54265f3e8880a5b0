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
