"""Record what the corpus programs that use ``tf.function`` give under TensorFlow with
``tf.config.run_functions_eagerly(True)`` (issue #14: traced and eager runs must each give
TensorFlow's numbers; they differ from each other where a function draws random numbers, since TF
seeds a function's random ops by graph, eager ones by a counter).

Run with TensorFlow 2.21 + Keras 3 (development only):
    $TAPEGRAD_TF_PYTHON tools/record_real_programs_eager.py [NAME ...]
Writes tests/fixtures/real_programs_eager.npz (arrays named ``<program>/<result>``), one fresh
process per program; with NAMEs, only those programs are recorded again (the others kept).
"""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.join(ROOT, "tests", "real_programs")
OUT = os.path.join(ROOT, "tests", "fixtures", "real_programs_eager.npz")
CODE = """
import os, runpy, sys, numpy as np
sys.path.insert(0, {here!r}); sys.path.insert(0, {tools!r})
from _tf import one_thread_tensorflow
tf = one_thread_tensorflow()
import _runner
tf.config.run_functions_eagerly(True)
scope = runpy.run_path(os.path.join({here!r}, {name!r} + ".py"), run_name="__main__")
np.savez({out!r}, **{{k: _runner.to_array(v) for k, v in scope["RESULTS"].items()}})
"""


def traced_programs() -> list:
    names = sorted(f[:-3] for f in os.listdir(HERE) if f.endswith(".py") and not f.startswith("_"))
    return [n for n in names if "tf.function" in open(os.path.join(HERE, n + ".py"), encoding="utf-8").read()]


def main(names: list) -> None:
    arrays = {}
    if names and os.path.exists(OUT):
        with np.load(OUT) as data:
            arrays = {k: data[k] for k in data.files if k.split("/")[0] not in names}
    for name in names or traced_programs():
        tmp = os.path.join(ROOT, "build", f"eager_{name}.npz")
        os.makedirs(os.path.dirname(tmp), exist_ok=True)
        proc = subprocess.run([sys.executable, "-c", CODE.format(here=HERE, tools=os.path.join(ROOT, "tools"), name=name, out=tmp)],
                              capture_output=True, text=True, cwd=HERE)
        if proc.returncode:
            print(f"{name}: TensorFlow failed: {proc.stderr.strip().splitlines()[-1]}")
            continue
        with np.load(tmp) as data:
            arrays.update({f"{name}/{k}": data[k] for k in data.files})
        os.remove(tmp)
        print(f"{name}: recorded")
    np.savez_compressed(OUT, **arrays)


if __name__ == "__main__":
    main(sys.argv[1:])
