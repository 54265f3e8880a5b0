"""Record TensorFlow's results for the real-program corpus (tests/real_programs/).

    $TAPEGRAD_TF_PYTHON tools/record_real_programs.py [--holdout | --set SET] [NAME ...]

runs each program twice under TensorFlow 2.21 + Keras 3 on one thread (tools/_tf.py says why), in
a fresh process per program, checks that the two runs agree (floats to 1e-6 relative), and writes
tests/fixtures/real_programs.npz (arrays named ``<program>/<result>``) and
tests/fixtures/real_programs.json (the manifest: versions, each program's title, source, licence
and result shapes, and ``expect``: "pass" or the reason it is expected to fail on tapegrad, kept
from the previous manifest; tools/real_programs_report.py --write-expectations refreshes it).
With NAMEs, only those programs are recorded again. With ``--holdout``, the programs are those of
tests/real_programs_holdout/ (unseen programs kept out of the corpus, to measure how well tapegrad
generalizes: tools/holdout_report.py) and the fixture is tests/fixtures/real_programs_holdout.*.
``--set SET`` names such a set: ``holdout`` (the same as ``--holdout``), ``holdout2`` (a second
set, tests/real_programs_holdout2/, fixture tests/fixtures/real_programs_holdout2.*), ``holdout3``
(a third, tests/real_programs_holdout3/, fixture tests/fixtures/real_programs_holdout3.*) or
``holdout4`` (a fourth, tests/real_programs_holdout4/, fixture tests/fixtures/real_programs_holdout4.*);
``holdout5`` and ``holdout6`` are the two halves of a fifth (tests/real_programs_holdout5/ and
tests/real_programs_holdout6/, each with its fixture); ``holdout7`` and ``holdout8`` likewise of a sixth, ``holdout9`` and ``holdout10`` of a seventh,
``holdout11`` and ``holdout12`` of an eighth, ``holdout13`` and ``holdout14`` of a ninth,
``holdout15`` and ``holdout16`` of a tenth.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "real_programs"))
import _runner  # noqa: E402

HOLDOUT_SETS = ("holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6", "holdout7",
                "holdout8", "holdout9", "holdout10", "holdout11", "holdout12", "holdout13",
                "holdout14", "holdout15", "holdout16")


def use_holdout(name: str = "holdout") -> None:
    """Point ``_runner`` at a holdout set's programs and fixture instead of the corpus's."""
    if name not in HOLDOUT_SETS:
        sys.exit(f"unknown program set {name!r}: use one of {', '.join(HOLDOUT_SETS)}")
    _runner.HERE = os.path.join(ROOT, "tests", f"real_programs_{name}")
    _runner.ARRAYS_PATH = os.path.join(_runner.FIXTURES, f"real_programs_{name}.npz")
    _runner.MANIFEST_PATH = os.path.join(_runner.FIXTURES, f"real_programs_{name}.json")


def holdout_args(argv: list) -> tuple:
    """``(set name or None, the other arguments)`` from ``--holdout`` / ``--set NAME`` in argv."""
    chosen, rest, args = None, [], iter(argv)
    for arg in args:
        if arg == "--holdout":
            chosen = "holdout"
        elif arg == "--set" or arg.startswith("--set="):
            chosen = arg.split("=", 1)[1] if "=" in arg else next(args, None)
            if not chosen:
                sys.exit("--set needs a name: " + ", ".join(HOLDOUT_SETS))
        else:
            rest.append(arg)
    return chosen, rest

_CHILD = """
import os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
sys.path.insert(0, {tools!r}); sys.path.insert(0, {corpus!r}); sys.path.insert(0, {programs!r})
from _tf import one_thread_tensorflow
tf = one_thread_tensorflow()
import keras, numpy as np, _runner
_runner.HERE = {programs!r}
first = _runner.run_program({name!r})
second = _runner.run_program({name!r})
for k in first:
    a, b = first[k], second[k]
    same = (np.allclose(a, b, rtol=1e-6, atol=0, equal_nan=True) if a.dtype.kind in "fc"
            else np.array_equal(a, b))  # float32: an unseeded shuffle reorders a sum's last bits
    if a.dtype != b.dtype or a.shape != b.shape or not same:
        sys.exit(f"{name}: result {{k!r}} differs between two runs under TensorFlow")
np.savez({out!r}, **first)
print(tf.__version__, keras.__version__)
"""


def record(name: str, workdir: str) -> tuple:
    out = os.path.join(workdir, name + ".npz")
    code = _CHILD.format(tools=os.path.join(ROOT, "tools"), programs=_runner.HERE,
                         corpus=os.path.join(ROOT, "tests", "real_programs"), name=name, out=out)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=workdir)
    if proc.returncode != 0:
        print(f"{name} failed under TensorFlow:\n{proc.stderr[-2000:]}")
        return None, None
    with np.load(out) as data:
        results = {k: data[k] for k in data.files}
    return results, proc.stdout.split()[-2:]


def main(names: list) -> None:
    manifest, arrays = ({"programs": {}}, {})
    if os.path.exists(_runner.MANIFEST_PATH):
        manifest, arrays = _runner.load_fixture()
    todo = names or _runner.program_names()
    failed = []
    with tempfile.TemporaryDirectory() as workdir:
        for name in todo:
            results, versions = record(name, workdir)
            if results is None:
                failed.append(name)
                continue
            tf_version, keras_version = versions
            arrays = {k: v for k, v in arrays.items() if not k.startswith(name + "/")}
            arrays.update({f"{name}/{k}": v for k, v in results.items()})
            old = manifest["programs"].get(name, {})
            manifest["programs"][name] = {
                **_runner.program_header(name),
                "results": {k: {"shape": list(v.shape), "dtype": str(v.dtype)} for k, v in results.items()},
                "expect": old.get("expect", "pass"),
            }
            manifest["tensorflow"], manifest["keras"] = tf_version, keras_version
            print(f"{name}: {len(results)} results")
    known = set(_runner.program_names()) - set(failed)
    manifest["programs"] = {k: v for k, v in sorted(manifest["programs"].items()) if k in known}
    arrays = {k: v for k, v in arrays.items() if k.split("/")[0] in known}
    np.savez_compressed(_runner.ARRAYS_PATH, **arrays)
    with open(_runner.MANIFEST_PATH, "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"wrote {len(manifest['programs'])} programs, {len(arrays)} arrays")
    if failed:
        sys.exit(f"failed under TensorFlow (not recorded): {', '.join(failed)}")


if __name__ == "__main__":
    chosen, names = holdout_args(sys.argv[1:])
    if chosen:
        use_holdout(chosen)
    main(names)
