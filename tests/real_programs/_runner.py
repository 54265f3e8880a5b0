"""Running the corpus: one program, under real TensorFlow or with TensorFlow's names mapped to tapegrad.

A program is a script in this folder (``<name>.py``, names without a leading underscore) that
fills a module-level ``RESULTS`` dict with named numbers (floats, arrays, tensors, lists of them).
``run_program(name)`` runs it as ``__main__`` would be run and returns those results as NumPy
arrays. Inside ``tapegrad_imports()``, ``import tensorflow`` gives ``tapegrad``,
``tensorflow.X`` gives ``tapegrad.X``, ``keras`` gives ``tapegrad.keras`` and ``keras.X`` gives
``tapegrad.keras.X``, through the same import hook as ``python -m tapegrad``; each module is
imported only when the program asks for it, so a name that tapegrad does not expose stays
missing. Used by tests/test_real_programs.py,
tools/record_real_programs.py and tools/real_programs_report.py.
"""
import contextlib
import io
import json
import os
import re
import runpy
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(os.path.dirname(HERE), "fixtures")
ARRAYS_PATH = os.path.join(FIXTURES, "real_programs.npz")
MANIFEST_PATH = os.path.join(FIXTURES, "real_programs.json")

RTOL = 1e-4  # float32 results
ATOL = 1e-5  # times max(1, the largest recorded magnitude of that result)


def program_names() -> list:
    return sorted(f[:-3] for f in os.listdir(HERE) if f.endswith(".py") and not f.startswith("_"))


def program_header(name: str) -> dict:
    """The ``Title:``, ``Source:`` and ``Licence:`` lines of a program's docstring."""
    with open(os.path.join(HERE, name + ".py"), encoding="utf-8") as fh:
        text = fh.read(4000)
    fields = dict(re.findall(r"^(Title|Source|Licence): *(.+)$", text, re.M))
    return {"title": fields.get("Title", name), "source": fields.get("Source", ""),
            "licence": fields.get("Licence", "")}


@contextlib.contextmanager
def tapegrad_imports():
    """Within the block, ``tensorflow``/``keras`` and their submodules import tapegrad's (the
    import hook of ``python -m tapegrad``, ``tapegrad.install_as_tensorflow``)."""
    import tapegrad
    with tapegrad.install_as_tensorflow():
        yield


def to_array(value) -> np.ndarray:
    if hasattr(value, "numpy"):
        return np.asarray(value.numpy())
    if isinstance(value, (list, tuple)):
        return np.array([to_array(v) for v in value])
    return np.asarray(value)


def run_program(name: str) -> dict:
    """Run one program in this process; its ``RESULTS`` as ``{key: ndarray}``."""
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    scope = runpy.run_path(os.path.join(HERE, name + ".py"), run_name="__main__")
    for value in list(scope.values()):  # (a program's strategy ends with it, as with its process:
        if type(value).__name__.endswith("MirroredStrategy") and hasattr(value, "close"):
            value.close()  # its replicas and cluster would otherwise run on under later programs)
    results = scope.get("RESULTS")
    if not isinstance(results, dict) or not results:
        raise RuntimeError(f"program {name} filled no RESULTS")
    return {key: to_array(value) for key, value in results.items()}


def load_fixture() -> tuple:
    with open(MANIFEST_PATH, encoding="utf-8") as fh:
        manifest = json.load(fh)
    with np.load(ARRAYS_PATH) as data:
        arrays = {k: data[k] for k in data.files}
    return manifest, arrays


def recorded_results(arrays: dict, name: str) -> dict:
    prefix = name + "/"
    return {k[len(prefix):]: v for k, v in arrays.items() if k.startswith(prefix)}


def first_difference(recorded: dict, got: dict):
    """None when every recorded result matches; else a one-line description of the first that does not."""
    for key, want in recorded.items():
        if key not in got:
            return f"result {key!r} missing"
        have = got[key]
        if have.shape != want.shape:
            return f"result {key!r}: shape {have.shape}, TensorFlow {want.shape}"
        if want.dtype.kind in "fc":
            if have.dtype.kind not in "fciub":
                return f"result {key!r}: dtype {have.dtype}, TensorFlow {want.dtype}"
            w, h = want.astype(np.complex128), have.astype(np.complex128)
            atol = ATOL * max(1.0, float(np.max(np.abs(w), initial=0.0)))
            bad = ~(np.isclose(h, w, rtol=RTOL, atol=atol) | (np.isnan(w) & np.isnan(h)))
            if bad.any():
                i = np.unravel_index(np.argmax(bad), bad.shape) if bad.ndim else ()
                rel = np.max(np.abs(h - w)[bad] / np.maximum(np.abs(w)[bad], atol))
                return (f"result {key!r}: {int(bad.sum())} of {bad.size} values differ "
                        f"(first at {tuple(int(j) for j in i)}: {h[i].real:.7g} vs TensorFlow "
                        f"{w[i].real:.7g}; largest relative difference {rel:.2g})")
        elif not np.array_equal(have, want):
            return f"result {key!r}: {have.ravel()[:5]} vs TensorFlow {want.ravel()[:5]}"
    return None


def describe_exception(exc: BaseException) -> str:
    line = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {line}"[:300]


def check_program(name: str, recorded: dict):
    """Run a program on tapegrad; None when it matches ``recorded``, else its first failure."""
    with tapegrad_imports(), contextlib.redirect_stdout(io.StringIO()):
        try:
            got = run_program(name)
        except Exception as exc:  # the program's first failure is the finding
            return describe_exception(exc)
    return first_difference(recorded, got)
