"""The real-program corpus (issue #13): public TF2 programs run with ``import tensorflow`` mapped
to tapegrad, compared with the numbers TensorFlow 2.21 + Keras 3 gave for the same program.

Each program under tests/real_programs/ names its source in its header; tools/record_real_programs.py
recorded its results under TensorFlow (tests/fixtures/real_programs.npz and .json). Floats must
match to rtol 1e-4 (atol 1e-5 of the result's largest magnitude), integers and strings exactly. A
program the manifest expects to fail is a strict xfail carrying the reason, so one that starts
to pass is noticed (then refresh the manifest with tools/real_programs_report.py
--write-expectations). TensorFlow is not needed here.
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "real_programs"))
import _runner  # noqa: E402

MANIFEST, ARRAYS = _runner.load_fixture()
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "real_programs")


def _source(name):
    with open(os.path.join(HERE, name + ".py"), encoding="utf-8") as f:
        return f.read()


def _extras(name):
    """Marks skipping a program whose optional extra is missing (a mirrored strategy: Dask)."""
    import importlib.util
    if "MirroredStrategy" in _source(name) and importlib.util.find_spec("distributed") is None:
        return [pytest.mark.skip(reason="needs the optional extra tapegrad[dask] (distributed)")]
    if ".h5" in _source(name) and importlib.util.find_spec("h5py") is None:
        return [pytest.mark.skip(reason="needs the optional extra tapegrad[h5] (h5py)")]
    return []


def _params():
    for name, entry in MANIFEST["programs"].items():
        marks = [] if entry["expect"] == "pass" else [pytest.mark.xfail(strict=True, reason=entry["expect"])]
        yield pytest.param(name, marks=marks + _extras(name), id=name)


def test_every_program_is_recorded():
    assert sorted(MANIFEST["programs"]) == _runner.program_names()


def test_every_program_names_its_source():
    for name, entry in MANIFEST["programs"].items():
        assert entry["source"] and entry["licence"], name


@pytest.mark.parametrize("name", list(_params()))
def test_real_program(name):
    failure = _runner.check_program(name, _runner.recorded_results(ARRAYS, name))
    assert failure is None, f"{name}: {failure}"


def test_comparison_catches_a_difference():
    import numpy as np
    want = {"a": np.array([1.0, 2.0], np.float32), "n": np.array(3)}
    assert _runner.first_difference(want, {"a": np.array([1.00001, 2.0]), "n": np.array(3)}) is None
    assert "differ" in _runner.first_difference(want, {"a": np.array([1.01, 2.0]), "n": np.array(3)})
    assert "shape" in _runner.first_difference(want, {"a": np.array([1.0]), "n": np.array(3)})
    assert "missing" in _runner.first_difference(want, {"a": want["a"]})
    assert _runner.first_difference(want, {"a": want["a"], "n": np.array(4)}) is not None



def _traced():
    for name, entry in MANIFEST["programs"].items():
        if "tf.function" in _source(name) and entry["expect"] == "pass":
            yield pytest.param(name, marks=_extras(name), id=name)


@pytest.mark.parametrize("name", list(_traced()))
def test_a_program_using_tf_function_run_eagerly_gives_tensorflows_eager_numbers(name):
    """Issue #14: traced (test_real_program) and with run_functions_eagerly(True), TensorFlow's
    numbers; the two differ from each other where a function draws random numbers (TensorFlow
    seeds a function's random ops per graph), so the eager run is compared with TensorFlow's eager
    run, recorded by tools/record_real_programs_eager.py."""
    import numpy as np
    import tapegrad
    with np.load(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                              "real_programs_eager.npz")) as data:
        want = _runner.recorded_results({k: data[k] for k in data.files}, name)
    assert want, f"{name}: no eager recording (run tools/record_real_programs_eager.py)"
    tapegrad.config.run_functions_eagerly(True)
    try:
        failure = _runner.check_program(name, want)
    finally:
        tapegrad.config.run_functions_eagerly(False)
    assert failure is None, f"{name} run eagerly: {failure}"
