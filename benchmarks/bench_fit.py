"""What a Keras user measures: ``model.fit`` on four models, tapegrad against Keras 3's backends.

The same Keras program (``benchmarks/bench_fit.py``'s ``build``) trains, with ``Adam``, batch 64
and sparse categorical cross-entropy on synthetic data, four models: an MLP 784-256-128-10 on
20,000 samples; a CNN (2 × Conv2D + MaxPooling2D, Dropout) on 4,000 28×28 images; an LSTM(64) on
4,000 sequences of 40 × 16; a transformer block (Embedding, MultiHeadAttention with 4 heads of 16,
LayerNorm, feed-forward) on 4,000 sequences of 32 tokens. The figure is the median seconds per
epoch after the first (the first builds, traces and compiles).

Every (library, thread setting) runs in its own process, one after the other in the same run:
tapegrad with ``import tapegrad as tf``, then Keras 3 with each backend that is installed
(``KERAS_BACKEND`` = tensorflow, jax, torch) in this interpreter or in the interpreters named by
the environment variable ``TAPEGRAD_BENCH_KERAS_PYTHON`` (paths separated by ``os.pathsep``; the
peers are never a dependency). Each runs with one compute thread (BLAS, TensorFlow, XLA, torch),
and again with the libraries' default threading.

Run: python -m benchmarks.bench_fit [--smoke] [--models mlp,cnn] [--no-default-threads]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

import numpy as np

from ._harness import thread_env

NAME = "fit"
TITLE = "Keras `fit`: four models against Keras 3's backends"
DESCRIPTION = (
    "`model.fit` with `Adam`, batch 64, sparse categorical cross-entropy, synthetic data; median "
    "seconds per epoch after the first. MLP 784-256-128-10 on 20k samples; CNN 2 × (Conv2D + "
    "MaxPooling2D) + Dropout on 4k 28×28×1; LSTM(64) on 4k × 40 × 16; transformer block "
    "(Embedding, MultiHeadAttention 4 heads × 16, LayerNorm, feed-forward) on 4k × 32 tokens. "
    "tapegrad's row runs each Keras 3 backend that is installed (in this interpreter or the ones "
    "`TAPEGRAD_BENCH_KERAS_PYTHON` names) in its own process of the same run; `threads` is 1 (one "
    "compute thread everywhere) or `default` (each library's own default). Peak MB: the peak resident "
    "memory of the process that trained the four models in turn (imports included).")
COLUMNS = [
    ("model", "model", "{}"),
    ("threads", "threads", "{}"),
    ("s_epoch", "tapegrad s/epoch", "{:.2f}"),
    ("keras_tensorflow", "Keras 3 / TF", "{:.2f}"),
    ("keras_jax", "Keras 3 / JAX", "{:.2f}"),
    ("keras_torch", "Keras 3 / torch", "{:.2f}"),
    ("vs_fastest", "tapegrad ÷ fastest Keras", "{:.2f}"),
    ("vs_tf", "tapegrad ÷ Keras/TF", "{:.2f}"),
    ("rss_tapegrad", "tapegrad peak MB", "{:.0f}"),
    ("rss_tensorflow", "Keras/TF peak MB", "{:.0f}"),
]
# Issue 25: at most 1.3 × the fastest Keras backend, and never slower than Keras on TensorFlow.
TARGETS = [("fit ≤ 1.3 × the fastest Keras 3 backend (one thread)", "vs_fastest", 1.3),
           ("fit ≤ Keras 3 on TensorFlow (one thread)", "vs_tf", 1.0)]
SUPPORTED = ("tapegrad",)
MODELS = ("mlp", "cnn", "lstm", "transformer")
BACKENDS = ("tensorflow", "jax", "torch")
BATCH = 64
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_TAG = "FIT-TIMES:"


# --------------------------------------------------------------------------- the programs
def data(model: str, smoke: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Synthetic inputs and integer labels (10 classes) for ``model``, seeded."""
    rng = np.random.default_rng(0)
    n = {"mlp": 20000}.get(model, 4000) if not smoke else 128
    y = rng.integers(0, 10, n).astype(np.int32)
    if model == "mlp":
        x = rng.random((n, 784), dtype=np.float32)
    elif model == "cnn":
        x = rng.random((n, 28, 28, 1), dtype=np.float32)
    elif model == "lstm":
        x = rng.standard_normal((n, 40, 16), dtype=np.float32)
    else:
        x = rng.integers(0, 1000, (n, 32)).astype(np.int32)
    return x, y


def build(keras: Any, model: str) -> Any:
    """The model, written with the Keras API (``keras`` is ``tapegrad.keras`` or Keras 3)."""
    L = keras.layers
    if model == "mlp":
        m = keras.Sequential([keras.Input((784,)), L.Dense(256, activation="relu"),
                              L.Dense(128, activation="relu"), L.Dense(10)])
    elif model == "cnn":
        m = keras.Sequential([keras.Input((28, 28, 1)), L.Conv2D(16, 3, activation="relu"),
                              L.MaxPooling2D(2), L.Conv2D(32, 3, activation="relu"),
                              L.MaxPooling2D(2), L.Flatten(), L.Dropout(0.25), L.Dense(10)])
    elif model == "lstm":
        m = keras.Sequential([keras.Input((40, 16)), L.LSTM(64), L.Dense(10)])
    else:
        inp = keras.Input((32,), dtype="int32")
        h = L.Embedding(1000, 64)(inp)
        a = L.MultiHeadAttention(num_heads=4, key_dim=16)(h, h)
        h = L.LayerNormalization()(L.Add()([h, a]))
        f = L.Dense(64)(L.Dense(128, activation="relu")(h))
        h = L.LayerNormalization()(L.Add()([h, f]))
        out = L.Dense(10)(L.GlobalAveragePooling1D()(h))
        m = keras.Model(inp, out)
    m.compile(optimizer=keras.optimizers.Adam(1e-3),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return m


def time_fit(keras: Any, model: str, epochs: int, smoke: bool) -> list[float]:
    """Seconds of each epoch of one ``fit`` (a callback notes the epoch boundaries)."""
    x, y = data(model, smoke)
    m = build(keras, model)
    marks: list[float] = []

    class Timer(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
            marks.append(time.perf_counter())

        def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
            marks.append(time.perf_counter())

    m.fit(x, y, batch_size=BATCH, epochs=epochs, verbose=0, callbacks=[Timer()])
    return [marks[i + 1] - marks[i] for i in range(0, len(marks), 2)]


def _worker(runner: str, models: list[str], epochs: int, smoke: bool) -> None:
    """In a child process: time each model with ``runner`` ("tapegrad" or a Keras backend)."""
    if runner == "tapegrad":
        import tapegrad
        keras = tapegrad.keras
    else:
        os.environ["KERAS_BACKEND"] = runner
        import keras  # type: ignore[no-redef]
        keras.utils.set_random_seed(0)
    out: dict[str, Any] = {}
    for m in models:
        try:
            out[m] = time_fit(keras, m, epochs, smoke)
        except Exception as e:  # reported in the table
            out[m] = f"{type(e).__name__}: {str(e)[:200]}"
    try:
        import resource   # (the process's peak resident memory, kB on Linux)
        out["_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    except (ImportError, OSError):
        pass
    print(_TAG + json.dumps(out), flush=True)


# --------------------------------------------------------------------------- the run
def keras_runners() -> list[tuple[str, str]]:
    """``(python, backend)`` for each Keras 3 backend installed here or in the interpreters of
    ``TAPEGRAD_BENCH_KERAS_PYTHON``; the first interpreter that has a backend runs it."""
    pythons = [sys.executable] + [p for p in os.environ.get("TAPEGRAD_BENCH_KERAS_PYTHON", "").split(os.pathsep) if p]
    found: dict[str, str] = {}
    probe = ("import importlib.util as u, json; print(json.dumps([b for b in %r if u.find_spec(b)] "
             "if u.find_spec('keras') else []))" % (BACKENDS,))
    for py in pythons:
        try:
            p = subprocess.run([py, "-c", probe], capture_output=True, text=True, timeout=60)
            for b in json.loads(p.stdout.strip().splitlines()[-1]):
                found.setdefault(b, py)
        except (OSError, subprocess.TimeoutExpired, ValueError, IndexError):
            continue
    return [(found[b], b) for b in BACKENDS if b in found]


def run_one(python: str, runner: str, models: list[str], epochs: int, smoke: bool,
            threads: int | None, timeout: float = 3600) -> dict:
    """Epoch times per model from a child process (or an error text per model)."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", **({} if threads is None else thread_env(threads)))
    for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS") if threads is None else ():
        env.pop(k, None)
    env["PYTHONPATH"] = ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    cmd = [python, "-m", "benchmarks.bench_fit", "--worker", runner, "--models", ",".join(models),
           "--epochs", str(epochs)] + (["--smoke"] if smoke else [])
    try:
        p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {m: f"timed out after {timeout:.0f} s" for m in models}
    for line in p.stdout.splitlines():
        if line.startswith(_TAG):
            return json.loads(line[len(_TAG):])
    err = (p.stderr.strip().splitlines() or ["no output"])[-1]
    return {m: f"exit {p.returncode}: {err}" for m in models}


def _median_after_first(times: Any) -> float | None:
    if not isinstance(times, list) or not times:
        return None
    return statistics.median(times[1:] or times)


def measure(lib: str = "tapegrad", smoke: bool = False, models: list[str] | None = None,
            default_threads: bool = True, epochs: int | None = None) -> list[dict]:
    """One row per (model, thread setting): tapegrad's seconds per epoch and each installed Keras
    backend's, measured in child processes of this run. Smoke mode: tiny data, tapegrad only."""
    models = list(models or MODELS)
    epochs = epochs or (2 if smoke else 4)
    peers = [] if smoke else keras_runners()
    settings: list[int | None] = [1] + ([None] if default_threads and not smoke else [])
    rows = []
    for threads in settings:
        ours = run_one(sys.executable, "tapegrad", models, epochs, smoke, threads)
        theirs = {b: run_one(py, b, models, epochs, smoke, threads) for py, b in peers}
        for m in models:
            row: dict[str, Any] = {"lib": "tapegrad", "model": m,
                                   "threads": 1 if threads else "default",
                                   "s_epoch": _median_after_first(ours[m])}
            if row["s_epoch"] is None:
                row["error"] = ours[m]
            for b, res in theirs.items():
                row["keras_" + b] = _median_after_first(res[m])
                if row["keras_" + b] is None:
                    row["error_" + b] = res[m]
            peer_times = [row["keras_" + b] for b in theirs if row["keras_" + b]]
            if threads and row["s_epoch"] and peer_times:   # (the targets: one thread)
                row["vs_fastest"] = row["s_epoch"] / min(peer_times)
                if row.get("keras_tensorflow"):
                    row["vs_tf"] = row["s_epoch"] / row["keras_tensorflow"]
            for lib, res in [("tapegrad", ours)] + list(theirs.items()):
                if "_rss_mb" in res:
                    row["rss_" + lib] = res["_rss_mb"]
            rows.append(row)
    errors = [r["error"] for r in rows if "error" in r]
    if errors:
        raise RuntimeError(f"tapegrad's fit failed: {errors[0]}")
    return rows


def main(argv: Any = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--smoke", action="store_true", help="tiny data, tapegrad only")
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--epochs", type=int, default=None, help="epochs per fit (the first is not counted)")
    p.add_argument("--no-default-threads", action="store_true", help="only the one-thread figures")
    p.add_argument("--json", help="also write the rows to this file")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    models = a.models.split(",")
    if a.worker:
        _worker(a.worker, models, a.epochs or 2, a.smoke)
        return 0
    rows = measure(smoke=a.smoke, models=models, default_threads=not a.no_default_threads,
                   epochs=a.epochs)
    for r in rows:
        print(json.dumps(r))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
