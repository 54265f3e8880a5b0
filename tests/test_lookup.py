"""tf.lookup against TensorFlow 2.21's recorded results (tools/record_lookup.py, cases in
tests/lookup_cases.py), and the behaviour TensorFlow leaves to us."""
import json
from pathlib import Path

import pytest

import lookup_cases
import tapegrad as tf
from test_sparse import matches

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "tf_lookup.json").read_text(encoding="utf-8"))
# tapegrad differs on purpose (docs/differences.md): a RaggedTensor where a dense tensor is needed is a
# TypeError saying what to call instead (tapegrad's error for every composite tensor), TF's a ValueError
CONVERSION = {"mutable_ragged_keys"}


def check(name, got, want):
    if name in CONVERSION:
        assert want["error"] == "ValueError", "TF's error changed"
        assert got["error"] == "CompositeConversionError" and ".flat_values" in got["message"], got
        return
    matches(name, got, want, lookup_cases.MESSAGES)


@pytest.mark.parametrize("name", sorted(lookup_cases.CASES))
def test_matches_tensorflow(name):
    check(name, lookup_cases.run(lookup_cases.CASES[name], tf), RECORDED["cases"][name])


def test_every_case_is_recorded():
    assert sorted(RECORDED["cases"]) == sorted(lookup_cases.CASES)
    assert set(lookup_cases.MESSAGES) <= set(lookup_cases.CASES)
