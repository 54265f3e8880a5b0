"""tapegrad.data's grouping, sampling and other later tf.data methods against TensorFlow 2.21.

The cases in tests/fixtures/tf_data_more.json were run under TensorFlow by
tools/record_tf_data_more.py; here the same snippets run with ``import tapegrad as tf`` and the
encoded results must agree: dtypes, shapes, integers and strings exactly (the seeded draws of
``random`` and ``sample_from_datasets`` included), floats by tests/tf_compare.py's rule, errors
by type name or a base class.
"""
import json
import os
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools"))

import tapegrad as tf  # noqa: E402
from record_tf_data import run_case  # noqa: E402
from tf_compare import assert_close  # noqa: E402

with open(os.path.join(HERE, "fixtures", "tf_data_more.json"), encoding="utf-8") as _fh:
    CASES = json.load(_fh)["cases"]

# What tapegrad gives where it deliberately differs (docs/data.md, "Differences").
DIFFERENCES = {
    # from_list of elements of different dtypes: TF 2.21 fails with AttributeError ('NoneType' object
    # has no attribute '_flat_tensor_specs'); tapegrad says which elements differ.
    "exp_from_list_mismatch": {"t": "error", "type": "ValueError"},
}


def _same(got, want, path="out"):
    if isinstance(want, dict) and want.get("t") in ("np", "tensor"):
        assert isinstance(got, dict) and got.get("t") == want["t"], f"{path}: {got} vs {want}"
        assert got["dtype"] == want["dtype"] and got["shape"] == want["shape"], f"{path}: {got} vs {want}"
        if want["dtype"].startswith("float"):
            assert_close(np.asarray(got["v"], want["dtype"]), np.asarray(want["v"], want["dtype"]), err_msg=path)
        else:
            assert got["v"] == want["v"], f"{path}: {got} vs {want}"
    elif isinstance(want, dict) and want.get("t") == "error":
        assert isinstance(got, dict) and got.get("t") == "error", f"{path}: {got} vs {want}"
        names = {c.__name__ for c in _error_classes(got["type"])}
        assert want["type"] in names, f"{path}: raised {got['type']}, TF raised {want['type']}"
    elif isinstance(want, dict) and "t" in want:
        assert isinstance(got, dict) and got.get("t") == want["t"], f"{path}: {got} vs {want}"
        for k in want:
            if k != "t":
                _same(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), f"{path}: {got} vs {want}"
        for k in want:
            _same(got[k], want[k], f"{path}[{k!r}]")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: {got} vs {want}"
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{path}[{i}]")
    else:
        assert got == want, f"{path}: {got!r} vs {want!r}"


def _error_classes(name):
    cls = getattr(tf.errors, name, None) or getattr(__builtins__ if not isinstance(__builtins__, dict) else None,
                                                   name, None) or (__builtins__.get(name) if isinstance(__builtins__, dict) else None)
    return cls.__mro__ if isinstance(cls, type) else ()


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name):
    tf.random.set_seed(None)  # seeded draws assume no global seed, as when they were recorded
    got = run_case(tf, CASES[name]["code"])
    _same(got, DIFFERENCES.get(name, CASES[name]["tf"]))
