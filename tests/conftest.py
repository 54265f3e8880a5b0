import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

# Hypothesis profiles (tests/test_fuzz.py): "ci" is the default, derandomized so every run checks
# the same programs; HYPOTHESIS_PROFILE=long fuzzes many more, with fresh random programs.
import os

from hypothesis import HealthCheck, settings

_FUZZ_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("ci", max_examples=900, derandomize=True, deadline=None, database=None,
                          suppress_health_check=_FUZZ_HEALTH, print_blob=True)
settings.register_profile("long", max_examples=20000, deadline=None,
                          suppress_health_check=_FUZZ_HEALTH, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


import pytest  # noqa: E402


@pytest.fixture
def bytes_inflated(monkeypatch):
    """How many bytes zip entries hand out while the test runs (tests/test_saving.py,
    tests/test_keras_saving_safety.py: a zip bomb is refused before it is inflated)."""
    import zipfile

    count = [0]
    real = zipfile.ZipExtFile.read

    def read(self, n=-1):
        out = real(self, n)
        count[0] += len(out)
        return out

    monkeypatch.setattr(zipfile.ZipExtFile, "read", read)
    return count


@pytest.fixture(autouse=True)
def _numpy_behaviour_off():
    """TF's tnp.experimental_enable_numpy_behavior has no way back (its NumPy-style indexing
    stays on after dtype_conversion_mode="off", as TensorFlow's): a test or a docs example that
    turns it on would change every later test's indexing, so it is put back after each test."""
    yield
    from tapegrad.ops import indexing
    if indexing.numpy_style:
        import tapegrad.experimental.numpy as tnp
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="off")
        indexing.numpy_style = False


@pytest.fixture(autouse=True)
def _dtensor_recorder_off():
    """The first DTensor pushes DTensor's layout recorder (tapegrad/experimental/dtensor.py) on
    its thread's recorder stack for good (a program's later ops may meet DTensors): a test or an
    example that made one would leave every later test with a recorder on the stack, so it is
    taken off after each test."""
    yield
    dtensor = sys.modules.get("tapegrad.experimental.dtensor")
    if dtensor is not None:
        from tapegrad import _recorders
        _recorders.pop(dtensor._PROPAGATE)
