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
    import tensorflow as tf   # (TensorFlow when recording; tapegrad under tapegrad_imports)
    tf.random.set_seed(None)   # (as in a fresh process, where each program was recorded: no global
    # seed left by the programs run before it in this one)
    printing = np.get_printoptions()   # (a program may set NumPy's print options: a fresh process's
    try:                               # are back for the programs and tests after it)
        scope = runpy.run_path(os.path.join(HERE, name + ".py"), run_name="__main__")
    finally:
        np.set_printoptions(**printing)
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


def first_difference(recorded: dict, got: dict, name: str = ""):
    """None when every recorded result matches; else a one-line description of the first that does
    not. Floats by tests/tf_compare.py's rule, with TensorFlow's spread for ``name``'s results."""
    if os.path.dirname(HERE) not in sys.path:
        sys.path.insert(0, os.path.dirname(HERE))
    import tf_compare

    for key, want in recorded.items():
        if key not in got:
            return f"result {key!r} missing"
        message = tf_compare.difference(got[key], want, spread=tf_compare.program_spread(name, key),
                                        where=f"result {key!r}" + (f" of {name}" if name else ""))
        if message is not None:
            return message
    return None


def describe_exception(exc: BaseException) -> str:
    """``Type: first line of the message [at file:line]``, the place being the innermost frame
    (a rare failure, such as one under load, then says where it came from)."""
    line = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    where = "" if tb is None else \
        f" [at {os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}]"
    return f"{type(exc).__name__}: {line}"[:300 - len(where)] + where


def check_program(name: str, recorded: dict):
    """Run a program on tapegrad; None when it matches ``recorded``, else its first failure."""
    with tapegrad_imports(), contextlib.redirect_stdout(io.StringIO()):
        try:
            got = run_program(name)
        except Exception as exc:  # the program's first failure is the finding
            return describe_exception(exc)
    return first_difference(recorded, got, name)
