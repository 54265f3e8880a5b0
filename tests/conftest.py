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
