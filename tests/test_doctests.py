"""Every ``>>>`` example in the docstrings of the tapegrad package runs and prints what it says.

One test per module (every module of the package, private ones included: the public functions
are defined there). Examples are compared with NORMALIZE_WHITESPACE and ELLIPSIS.
"""
from __future__ import annotations

import doctest
import importlib
import pkgutil
import re

import numpy as np
import pytest

import tapegrad

ALL_MODULES = sorted(["tapegrad"] + [m.name for m in pkgutil.walk_packages(tapegrad.__path__, "tapegrad.")])
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
# examples that show TF's behaviour where the code does not (yet): the docstring is right
KNOWN_BUGS = {
}


def _tests(name: str) -> list:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    # only the objects defined in this module (re-exports are tested where they are defined)
    return [t for t in finder.find(module, name, module=module) if t.examples]


MODULES = [name for name in ALL_MODULES if _tests(name)]


OPTIONAL = ("dask", "distributed", "array_api_strict", "array_api_compat", "cupy")  # the extras


def _runnable(test: doctest.DocTest) -> bool:
    """Whether the optional packages an example imports are installed."""
    for name in OPTIONAL:
        if any(re.search(rf"^\s*(import|from)\b.*\b{name}\b", e.source, re.M) for e in test.examples):
            try:
                importlib.import_module(name)
            except ImportError:
                return False
    return True


# modules whose examples read or write image files: Pillow, the `image` extra (PNG, load_img, ...)
NEEDS_PILLOW = ("tapegrad.io._image", "tapegrad.keras._directory", "tapegrad.keras.preprocessing.image")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    if name in NEEDS_PILLOW:
        pytest.importorskip("PIL", reason="its examples need Pillow (tapegrad[image])")
    tests = [t for t in _tests(name) if _runnable(t)]
    if not tests:
        pytest.skip(f"{name}: its examples need optional packages that are not installed")
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    failures: list[str] = []
    failed: list[str] = []
    old = np.get_printoptions()
    try:
        for test in tests:
            np.set_printoptions(**old)        # an example may change NumPy's print options
            if runner.run(test, out=failures.append).failed:
                failed.append(test.name)
    finally:
        np.set_printoptions(**old)
    if failed and all(f in KNOWN_BUGS for f in failed):
        pytest.xfail("; ".join(KNOWN_BUGS[f] for f in failed))
    assert not failed, "".join(failures)


def test_every_public_module_is_covered():
    assert sum(len(t.examples) for name in MODULES for t in _tests(name)) >= 350
    for name in ("tapegrad._tape", "tapegrad._forward", "tapegrad._jacobian", "tapegrad._custom",
                 "tapegrad._functional", "tapegrad.diagnosis", "tapegrad.visualize", "tapegrad.module",
                 "tapegrad.optimizers", "tapegrad.saving", "tapegrad.test"):
        assert name in MODULES


def _significant_digits(number: str) -> int:
    mantissa = re.split(r"[eE]", number)[0]
    return len(mantissa.replace("-", "").replace(".", "").lstrip("0").rstrip("0"))


def test_no_example_prints_a_float_to_its_last_bits():
    # a float32 shown in full (7-9 digits) or a float64 (up to 17) changes with NumPy's version and
    # the CPU's SIMD kernels: examples round what they print (np.round(x, 4), print(...round(4)))
    number = re.compile(r"(?<![\w.])-?\d*\.\d+(?:[eE][-+]?\d+)?")
    long = [f"{t.name}: {ex.source.strip()} -> {n}"
            for name in MODULES for t in _tests(name) for ex in t.examples
            for n in number.findall(ex.want) if _significant_digits(n) > 6]
    assert not long, "\n".join(long)
