"""Record TensorFlow's own spread for every recorded result (issue #23; docs/reliability.md).

    python tools/record_tf_spread.py [--part real_programs|fixtures|all] [--set SET] [NAME ...]   # with TensorFlow

TensorFlow's float32 results are not one number: they change with oneDNN on or off
(``TF_ENABLE_ONEDNN_OPTS``) and with its thread count, because both change the order in which
matmuls and reductions add. This script reruns what the fixtures were recorded from under each
configuration in ``CONFIGS`` (oneDNN on/off x one thread/TensorFlow's default threads), each in a
fresh process, and writes, for every recorded float result (one array), the largest absolute
difference between any configuration and the committed recording: its *spread*. The tests
(tests/tf_compare.py) accept a tapegrad result within a multiple of that spread, above a floor.

Parts:
  * ``real_programs``: every program of tests/real_programs/ (or the NAMEs given), one process
    per program and configuration; results keyed ``<program>/<result>``. ``--set holdout6`` (any
    set of tools/holdout_report.py) measures a holdout set's programs instead.
  * ``fixtures``: every recorder in ``RECORDERS`` (or those whose fixture file is among the NAMEs),
    run in a temporary copy of the repository under each configuration; each float array of the
    fixture it writes (a JSON list of numbers, or an ``.npz`` member) is compared with the
    committed one, keyed by its path inside the file (``cases/dense/grads/0``). Arrays whose
    spread is 0 in every configuration are counted, not listed.

Writes tests/fixtures/tf_spread.json, merging with what is there (a part or NAME rerun replaces
only its own entries).
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
OUT = os.path.join(FIXTURES, "tf_spread.json")
sys.path.insert(0, os.path.join(ROOT, "tests", "real_programs"))
import _runner  # noqa: E402

# (name, environment): the committed fixtures were recorded with oneDNN on (TF's default on x86
# Linux) and the thread count their recorder sets (tools/_tf.py).
CONFIGS = {
    "onednn-1thread": {"TF_ENABLE_ONEDNN_OPTS": "1", "RECORD_TF_THREADS": "1"},
    "onednn-default-threads": {"TF_ENABLE_ONEDNN_OPTS": "1", "RECORD_TF_THREADS": "default"},
    "eigen-1thread": {"TF_ENABLE_ONEDNN_OPTS": "0", "RECORD_TF_THREADS": "1"},
    "eigen-default-threads": {"TF_ENABLE_ONEDNN_OPTS": "0", "RECORD_TF_THREADS": "default"},
}

# recorder (under tools/), its arguments, and the fixture files it writes (under tests/fixtures/)
RECORDERS = [
    ("record_keras_core.py", [], ["keras_core.json"]),
    ("record_keras_distribute.py", [], ["keras_distribute.json"]),
    ("record_keras_epochs.py", [], ["keras_epochs.json"]),
    ("record_keras_layers.py", [], ["keras_layers/cases.json", "keras_layers/layers.npz"]),
    ("record_keras_losses.py", [], ["keras_losses.json"]),
    ("record_keras_more_layers.py", [], ["keras_more_layers.json", "keras_more_layers.npz"]),
    ("record_keras_names.py", [], ["keras_names.json"]),
    ("record_keras_names_more.py", [], ["keras_names_more.json"]),
    ("record_keras_rnn.py", [], ["keras_rnn.json"]),
    ("record_keras_conv_lstm.py", [], ["keras_conv_lstm.json"]),
    ("record_tf_extract_patches.py", [], ["tf_extract_patches.json"]),
    ("record_keras_text.py", [], ["keras_text.json"]),
    ("record_keras_train.py", [], ["keras_train.json"]),
    ("record_fuzz_fixtures.py", ["--count", "300"], ["tf_fuzz.json.gz"]),  # the first 300 of 3,000
]

_PROGRAM = """
import os, sys
sys.path.insert(0, {tools!r}); sys.path.insert(0, {corpus!r}); sys.path.insert(0, {programs!r})
from _tf import one_thread_tensorflow
tf = one_thread_tensorflow()
import numpy as np, _runner
_runner.HERE = {programs!r}
np.savez({out!r}, **_runner.run_program({name!r}))
"""


def _env(config: str) -> dict:
    return {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", **CONFIGS[config]}


def deviation(recorded: np.ndarray, other: np.ndarray):
    """Largest absolute difference of two float arrays (NaN where both are NaN counts as equal);
    None when they cannot be compared (shape, or NaN in one only: recorded as a note)."""
    a = np.asarray(recorded, np.complex128)
    b = np.asarray(other, np.complex128)
    if a.shape != b.shape:
        return None
    both = np.isnan(a) & np.isnan(b)
    if (np.isnan(a) != np.isnan(b)).any():
        return None
    same_inf = np.isinf(a) & (a == b)
    d = np.where(both | same_inf, 0.0, np.abs(a - b))
    return float(np.max(d, initial=0.0))


# --- the real-program corpus -------------------------------------------------------------------

def _run_program(name: str, config: str, workdir: str):
    out = os.path.join(workdir, f"{name}-{config}.npz")
    code = _PROGRAM.format(tools=os.path.join(ROOT, "tools"), corpus=os.path.join(ROOT, "tests", "real_programs"),
                           programs=_runner.HERE, name=name, out=out)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=workdir,
                          env=_env(config))
    if proc.returncode != 0:
        return None, proc.stderr.strip().splitlines()[-1:] or ["failed"]
    with np.load(out) as data:
        return {k: data[k] for k in data.files}, None


def real_programs(names: list, spread: dict, configs: list, out: str) -> None:
    _, arrays = _runner.load_fixture()
    part = spread.setdefault("real_programs", {})
    notes = spread.setdefault("notes", {})
    with tempfile.TemporaryDirectory() as workdir:
        for name in names:
            recorded = _runner.recorded_results(arrays, name)
            floats = {k: v for k, v in recorded.items() if v.dtype.kind in "fc"}
            worst = dict.fromkeys(floats, 0.0)
            start = time.time()
            ran = []
            for config in configs:
                got, error = _run_program(name, config, workdir)
                if got is None:
                    notes[f"real_programs/{name} [{config}]"] = f"failed: {error[0][:200]}"
                    continue
                ran.append(config)
                for key, want in floats.items():
                    d = deviation(want, got[key]) if key in got else None
                    if d is None:
                        notes[f"real_programs/{name}/{key} [{config}]"] = "shape or NaN pattern differs"
                    else:
                        worst[key] = max(worst[key], d)
            if not ran:  # not measured: its results keep no entry (a spread of 0)
                continue
            for key, d in worst.items():
                part[f"{name}/{key}"] = d
            spread.setdefault("measured_with", {})[f"real_programs/{name}"] = ran
            top = max(worst.values(), default=0.0)
            print(f"{name}: {len(floats)} float results, largest spread {top:.3g} ({time.time() - start:.0f} s)",
                  flush=True)
            _write(spread, out)


# --- the recorded fixture files ---------------------------------------------------------------

def _load(path: str):
    if path.endswith(".npz"):
        with np.load(path, allow_pickle=False) as data:
            return {k: data[k] for k in data.files}
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


def _is_number_array(node) -> bool:
    if isinstance(node, list):
        return len(node) > 0 and all(_is_number_array(v) for v in node)
    return isinstance(node, (int, float)) and not isinstance(node, bool)


def _has_float(node) -> bool:
    if isinstance(node, list):
        return any(_has_float(v) for v in node)
    return isinstance(node, float)


def float_arrays(node, path: str = ""):
    """Every float array of a loaded fixture: ``(path, ndarray)`` (JSON lists of numbers holding a
    float, single floats, and float ``.npz`` members); paths join keys and list indices with '/'."""
    if isinstance(node, np.ndarray):
        if node.dtype.kind in "fc":
            yield path, node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from float_arrays(v, f"{path}/{k}" if path else str(k))
    elif _is_number_array(node) or isinstance(node, float):
        if _has_float(node):
            try:
                yield path, np.asarray(node, np.float64)
            except ValueError:  # a ragged list of numbers: its items one by one
                for i, v in enumerate(node):
                    yield from float_arrays(v, f"{path}/{i}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from float_arrays(v, f"{path}/{i}")


def _copy_repo(dest: str) -> None:
    ignore = shutil.ignore_patterns(".git", ".venv", "build", "__pycache__", "*.egg-info", "docs")
    for entry in os.listdir(ROOT):
        src = os.path.join(ROOT, entry)
        if entry in (".git", ".venv", "build", "docs"):
            continue
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(dest, entry), ignore=ignore)
        else:
            shutil.copy2(src, dest)


def fixtures(only: list, spread: dict, configs: list, out: str) -> None:
    part = spread.setdefault("fixtures", {})
    notes = spread.setdefault("notes", {})
    chosen = [r for r in RECORDERS if not only or set(only) & set(r[2])]
    chosen.sort(key=lambda r: min(only.index(f) for f in r[2] if f in only) if only else 0)
    for script, args, files in chosen:
        committed = {f: dict(float_arrays(_load(os.path.join(FIXTURES, f)))) for f in files}
        worst = {f: dict.fromkeys(arrays, 0.0) for f, arrays in committed.items()}
        start = time.time()
        for config in configs:
            with tempfile.TemporaryDirectory() as copy:
                _copy_repo(copy)
                proc = subprocess.run([sys.executable, os.path.join(copy, "tools", script), *args],
                                      capture_output=True, text=True, cwd=copy, env=_env(config))
                if proc.returncode != 0:
                    notes[f"{script} [{config}]"] = "failed: " + (proc.stderr.strip().splitlines() or [""])[-1][:200]
                    continue
                for f in files:
                    got = dict(float_arrays(_load(os.path.join(copy, "tests", "fixtures", f))))
                    if args:  # a subset rerun (the fuzz programs: --count): its arrays only
                        worst[f] = {k: d for k, d in worst[f].items() if k in got}
                    for key in worst[f]:
                        d = deviation(committed[f][key], got[key]) if key in got else None
                        if d is None:
                            notes[f"{f}:{key} [{config}]"] = "missing, or shape or NaN pattern differs"
                        else:
                            worst[f][key] = max(worst[f][key], d)
        for f in files:
            nonzero = {k: d for k, d in sorted(worst[f].items()) if d > 0}
            part[f] = {"arrays": len(worst[f]), "spread": nonzero, **({"recorder_arguments": args} if args else {})}
            spread.setdefault("measured_with", {})[f] = configs
            top = max(nonzero.values(), default=0.0)
            print(f"{f}: {len(worst[f])} float arrays, {len(nonzero)} with a spread, largest {top:.3g} "
                  f"({time.time() - start:.0f} s)", flush=True)
        _write(spread, out)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=["real_programs", "fixtures", "all"], default="all")
    parser.add_argument("--output", default=OUT, help="the file to merge into and write (default: %(default)s)")
    parser.add_argument("--configs", default=",".join(CONFIGS),
                        help="comma-separated names of CONFIGS to run (default: all)")
    parser.add_argument("names", nargs="*", help="programs (real_programs) or fixture files (fixtures)")
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from record_real_programs import holdout_args, use_holdout
    chosen, argv = holdout_args(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    if chosen:
        use_holdout(chosen)
    out = args.output
    configs = args.configs.split(",")
    if not set(configs) <= set(CONFIGS):
        parser.error(f"--configs: choose from {', '.join(CONFIGS)}")
    tf_version = subprocess.run([sys.executable, "-c", "import tensorflow as tf; print(tf.__version__)"],
                                capture_output=True, text=True, env=_env("onednn-1thread")).stdout.strip()
    spread = {}
    if os.path.exists(out):
        with open(out, encoding="utf-8") as fh:
            spread = json.load(fh)
    spread.update({"tensorflow": tf_version, "configs": CONFIGS, "cpu_threads": os.cpu_count()})
    if args.part in ("real_programs", "all"):
        real_programs(args.names or _runner.program_names(), spread, configs, out)
    if args.part in ("fixtures", "all"):
        fixtures(args.names, spread, configs, out)


def _write(spread: dict, out: str) -> None:
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(spread, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
