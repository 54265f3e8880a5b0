"""The real-program corpus (issue #13): public TF2 programs run with ``import tensorflow`` mapped
to tapegrad, compared with the numbers TensorFlow 2.21 + Keras 3 gave for the same program.

Each program under tests/real_programs/ names its source in its header; tools/record_real_programs.py
recorded its results under TensorFlow (tests/fixtures/real_programs.npz and .json). Floats must
match by tests/tf_compare.py's rule: within K times TensorFlow's own spread for that result
(tests/fixtures/tf_spread.json, tools/record_tf_spread.py) above a floor of 512 float32 ulp;
integers and strings exactly (docs/reliability.md). A
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
    assert "NaN" in _runner.first_difference(want, {"a": np.array([np.nan, 2.0]), "n": np.array(3)})


def test_tensorflows_spread_widens_the_tolerance_by_k_and_no_more():
    """The rule of tests/tf_compare.py: within K times TensorFlow's spread above the floor."""
    import numpy as np
    import tf_compare
    want = np.array([0.5, -0.25, 0.125], np.float32)
    r = tf_compare.floor(np.float32)  # 512 units in the last place; the absolute floor 64 (scale 1)
    for spread in (0.0, 1e-5, 1e-3):
        allowed = tf_compare.K * spread + r * np.abs(want) + r * tf_compare.ATOL_FRACTION
        inside, outside = want + 0.99 * allowed, want + 1.01 * allowed  # (float64)
        assert tf_compare.difference(inside, want, spread=spread) is None, spread
        assert "differ" in tf_compare.difference(outside, want, spread=spread), spread
    # a float32 loss a program turned into a Python float is held to float32's floor, not float64's
    assert tf_compare.computed_in(np.array([np.float32(0.1), 2.0])) == np.float32
    assert tf_compare.computed_in(np.array([0.1, 2.0])) == np.float64
    # a float32 scaled by a power of ten in Python (Hands-On ch. 15: valid_mae * 1e6)
    assert tf_compare.computed_in(np.array([float(np.float32(0.8089468)) * 1e6])) == np.float32
    assert tf_compare.computed_in(np.array([0.8089468123 * 1e6])) == np.float64


def _patched_program(name, monkeypatch, patch):
    import tapegrad
    patch(monkeypatch, tapegrad)
    return _runner.check_program(name, _runner.recorded_results(ARRAYS, name))


def _gradients_one_percent_off(monkeypatch, tapegrad):
    gradient = tapegrad.GradientTape.gradient
    monkeypatch.setattr(tapegrad.GradientTape, "gradient", lambda self, *a, **k: tapegrad.nest.map_structure(
        lambda g: g * 1.01, gradient(self, *a, **k)))


def _seeded_with_the_next_seed(monkeypatch, tapegrad):
    set_seed = tapegrad.random.set_seed
    monkeypatch.setattr(tapegrad.random, "set_seed", lambda seed: set_seed(None if seed is None else seed + 1))


@pytest.mark.parametrize("name, patch", [("tfe_logistic_regression", _gradients_one_percent_off),
                                         ("core_mlp", _seeded_with_the_next_seed)])
def test_the_tolerance_still_catches_a_wrong_program(name, patch, monkeypatch):
    """A real difference stays a failure: every gradient 1% too large over a 20-step float32
    training run, or a random initialisation from the neighbouring seed."""
    assert _runner.check_program(name, _runner.recorded_results(ARRAYS, name)) is None
    failure = _patched_program(name, monkeypatch, patch)
    assert failure is not None and "differ" in failure, failure



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
