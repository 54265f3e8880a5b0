"""What a Keras user measures: ``model.fit`` on four models, tapegrad against Keras 3's backends.

The same Keras program (``benchmarks/bench_fit.py``'s ``build``) trains, with ``Adam``, batch 64
and sparse categorical cross-entropy on synthetic data, four models: an MLP 784-256-128-10 on
20,000 samples; a CNN (2 × Conv2D + MaxPooling2D, Dropout) on 4,000 28×28 images; an LSTM(64) on
4,000 sequences of 40 × 16; a transformer block (Embedding, MultiHeadAttention with 4 heads of 16,
LayerNorm, feed-forward) on 4,000 sequences of 32 tokens. The figure is the median seconds per
epoch after the first (the first builds, traces and compiles), each epoch one ``fit(epochs=1)``
call timed from its first batch to its last by a callback.

Every library runs in a worker process of its own, all in the same run: tapegrad (its
``tf.keras``), and Keras 3 with each backend that is installed (``KERAS_BACKEND`` = tensorflow,
jax, torch) in this interpreter or in the interpreters named by the environment variable
``TAPEGRAD_BENCH_KERAS_PYTHON`` (paths separated by ``os.pathsep``; the peers are never a
dependency); ``TAPEGRAD_BENCH_FIT_BEFORE`` may name another tapegrad checkout, timed alongside.
The epochs are interleaved: each round runs one epoch in every worker, in rotating order, so load
that comes and goes hits them alike. Every worker has one compute thread (BLAS, TensorFlow, XLA,
torch); a second set of workers runs with the libraries' default threading.

Run: python -m benchmarks.bench_fit [--smoke] [--models mlp,cnn] [--rounds 5] [--no-default-threads]
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
    "Every library is a worker process of the same run (tapegrad; Keras 3 on each backend "
    "installed in this interpreter or in those `TAPEGRAD_BENCH_KERAS_PYTHON` names; with "
    "`TAPEGRAD_BENCH_FIT_BEFORE`, another tapegrad checkout, the *before* columns), and the epochs "
    "are interleaved, one per worker per round in rotating order; each ratio is the median of "
    "the per-round ratios. `threads` is 1 (one compute thread everywhere; the targets) or "
    "`default` (each library's own threading). Peak MB: the peak resident memory of the worker, "
    "which trained the four models in turn (imports included).")
COLUMNS = [
    ("model", "model", "{}"),
    ("threads", "threads", "{}"),
    ("s_epoch", "tapegrad s/epoch", "{:.2f}"),
    ("keras_tensorflow", "Keras 3 / TF", "{:.2f}"),
    ("keras_jax", "Keras 3 / JAX", "{:.2f}"),
    ("keras_torch", "Keras 3 / torch", "{:.2f}"),
    ("vs_fastest", "tapegrad ÷ fastest Keras", "{:.2f}"),
    ("vs_tf", "tapegrad ÷ Keras/TF", "{:.2f}"),
    ("before", "tapegrad before s/epoch", "{:.2f}"),
    ("vs_before", "tapegrad ÷ before", "{:.2f}"),
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


class _Model:
    """One model and its data in a worker: ``epoch()`` is the seconds of one more epoch."""

    def __init__(self, keras: Any, model: str, smoke: bool) -> None:
        self.x, self.y = data(model, smoke)
        self.model = build(keras, model)
        self.marks: list[float] = []
        marks = self.marks

        class Timer(keras.callbacks.Callback):   # (the epoch alone, not fit's set-up)
            def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
                marks.append(time.perf_counter())

            def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
                marks.append(time.perf_counter())

        self.timer = Timer()

    def epoch(self) -> float:
        self.model.fit(self.x, self.y, batch_size=BATCH, epochs=1, verbose=0, callbacks=[self.timer])
        return self.marks[-1] - self.marks[-2]


def _serve(runner: str, smoke: bool) -> None:
    """A worker: answers ``build MODEL`` (the model, and its first epoch: building, tracing,
    compiling) and ``epoch`` (one more) on stdin, one JSON line each on stdout."""
    if runner == "keras":
        import keras
        keras.utils.set_random_seed(0)
    else:   # tapegrad (this checkout's or another's, by PYTHONPATH)
        import tapegrad
        keras = tapegrad.keras
    current = None
    for line in sys.stdin:
        cmd = line.split()
        try:
            if cmd[0] == "build":
                current = None
                current = _Model(keras, cmd[1], smoke)
                out: Any = current.epoch()
            elif cmd[0] == "epoch":
                out = current.epoch() if current is not None else "no model"
            else:   # rss: the process's peak resident memory (kB on Linux)
                import resource
                out = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        except Exception as e:  # reported in the table
            out = f"{type(e).__name__}: {str(e)[:200]}"
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


# a worker imports this module from this checkout, then tapegrad from the one it was given
_BOOT = ("import os, sys; sys.path.insert(0, os.environ['_BENCH_FIT_ROOT']); "
         "import benchmarks.bench_fit as b; sys.path.insert(0, os.environ['_BENCH_FIT_TAPEGRAD']); "
         "sys.exit(b.main(sys.argv[1:]))")


class _Worker:
    """A child process serving one runner (see :func:`_serve`)."""

    def __init__(self, python: str, runner: str, threads: int | None, smoke: bool,
                 root: str = ROOT) -> None:
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", **({} if threads is None else thread_env(threads)))
        if threads is None:
            for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
                env.pop(k, None)
        if runner in BACKENDS:
            env["KERAS_BACKEND"] = runner
        env["_BENCH_FIT_ROOT"] = ROOT
        env["_BENCH_FIT_TAPEGRAD"] = root   # (where the worker imports tapegrad from)
        cmd = [python, "-c", _BOOT, "--serve", "keras" if runner in BACKENDS else "tapegrad"]
        self.p = subprocess.Popen(cmd + (["--smoke"] if smoke else []), cwd=ROOT, env=env, text=True,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def ask(self, line: str) -> Any:
        assert self.p.stdin is not None and self.p.stdout is not None
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
            for out in self.p.stdout:
                if out.startswith(_TAG):
                    return json.loads(out[len(_TAG):])
        except (OSError, ValueError):
            pass
        return f"the worker ended (exit {self.p.poll()})"

    def close(self) -> None:
        if self.p.stdin is not None:
            self.p.stdin.close()
        self.p.wait(timeout=60)


def measure(lib: str = "tapegrad", smoke: bool = False, models: list[str] | None = None,
            default_threads: bool = True, rounds: int | None = None) -> list[dict]:
    """One row per (model, thread setting): tapegrad's median seconds per epoch after the first,
    and each installed Keras backend's. Every runner is a worker process of this run, and the
    epochs are interleaved: each round runs one epoch in every worker, in rotating order, so load
    that comes and goes hits all alike (the ratios are medians of per-round ratios). The
    environment variable ``TAPEGRAD_BENCH_FIT_BEFORE`` may name another tapegrad checkout, timed
    alongside as "tapegrad before". Smoke mode: tiny data, one round, tapegrad only."""
    models = list(models or MODELS)
    rounds = rounds or (1 if smoke else 5)
    peers = [] if smoke else keras_runners()
    before = os.environ.get("TAPEGRAD_BENCH_FIT_BEFORE")
    settings: list[int | None] = [1] + ([None] if default_threads and not smoke else [])
    rows = []
    for threads in settings:
        workers = {"tapegrad": _Worker(sys.executable, "tapegrad", threads, smoke)}
        if before and threads and not smoke:   # (one thread: the earlier code at default threads is
            # the trap docs/performance.md "Threads" describes, minutes an epoch)
            workers["before"] = _Worker(sys.executable, "tapegrad", threads, smoke, root=before)
        for py, b in peers:
            workers[b] = _Worker(py, b, threads, smoke)
        try:
            for m in models:
                rows.append(_measure_model(workers, m, rounds, threads))
            rss = {k: w.ask("rss") for k, w in workers.items()}
        finally:
            for w in workers.values():
                w.close()
        for row in rows[-len(models):]:
            row.update({"rss_" + k: v for k, v in rss.items() if isinstance(v, (int, float))})
    errors = [r["error"] for r in rows if "error" in r]
    if errors:
        raise RuntimeError(f"tapegrad's fit failed: {errors[0]}")
    return rows


def _measure_model(workers: dict, model: str, rounds: int, threads: int | None) -> dict:
    first = {k: w.ask(f"build {model}") for k, w in workers.items()}
    times: dict = {k: [] for k in workers if isinstance(first[k], (int, float))}
    names = list(times)
    for r in range(rounds):
        for k in names[r % len(names):] + names[:r % len(names)]:
            t = workers[k].ask("epoch")
            if isinstance(t, (int, float)):
                times[k].append(t)
            else:
                first[k] = t
    row: dict[str, Any] = {"lib": "tapegrad", "model": model, "threads": 1 if threads else "default"}
    for k in workers:
        col = "s_epoch" if k == "tapegrad" else "before" if k == "before" else "keras_" + k
        if times.get(k) and len(times[k]) == rounds:
            row[col] = statistics.median(times[k])
        else:
            row["error" if k == "tapegrad" else "error_" + k] = first[k]
    if threads and "s_epoch" in row:   # (the targets: one thread; per-round ratios)
        ratios = {k: statistics.median(a / b for a, b in zip(times["tapegrad"], times[k]))
                  for k in workers if k in BACKENDS and "keras_" + k in row}
        if ratios:
            row["vs_fastest"] = max(ratios.values())
        if "tensorflow" in ratios:
            row["vs_tf"] = ratios["tensorflow"]
        if "before" in row:
            row["vs_before"] = statistics.median(a / b for a, b in zip(times["tapegrad"], times["before"]))
    return row


def main(argv: Any = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--smoke", action="store_true", help="tiny data, tapegrad only")
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--rounds", type=int, default=None,
                   help="epochs timed per runner, interleaved (after the first, not counted)")
    p.add_argument("--no-default-threads", action="store_true", help="only the one-thread figures")
    p.add_argument("--json", help="also write the rows to this file")
    p.add_argument("--serve", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.serve:
        _serve(a.serve, a.smoke)
        return 0
    rows = measure(smoke=a.smoke, models=a.models.split(","), default_threads=not a.no_default_threads,
                   rounds=a.rounds)
    for r in rows:
        print(json.dumps(r))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
