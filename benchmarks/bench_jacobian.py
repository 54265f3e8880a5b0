"""Jacobian cost: the Jacobian of ``tanh(W x)`` from R^256 to R^256 (float64) against one
vector-Jacobian product of the same function, measured in the same run.

Both timings include the forward pass under a tape. The Jacobian is one backward walk with 256
stacked seeds (``tape.jacobian``, the default vectorised path); the loop path
(``experimental_use_pfor=False``, one walk per row) and forward mode (``autodiff.jacfwd``, one
pass per input element) are reported for comparison. Target: vectorised Jacobian <= 5 VJPs.

Two regimes, because glibc's allocator makes them differ. A 256x256 float64 array (512 KiB) is
above glibc's initial mmap threshold (128 KiB): until a process has freed a larger block, freed
temporaries of that size are returned to the OS and page-faulted again by the next call.
- warm: timed in this process after a 16 MiB array was allocated and freed, as after any large
  workload (glibc then raises its thresholds and keeps freed memory for reuse);
- fresh: each sample is a new Python process that imports the library, builds the problem, runs
  both functions once at n=8 (first-use code paths, nothing large allocated) and then times
  ``calls`` alternating VJP and Jacobian calls at full size. Both are timed in the same child, as
  every ratio here compares two timings of one process: the VJP allocates nothing larger than an
  n-vector, so it does not change the allocator state the Jacobian meets; the order alternates
  between children. The fresh ratio is the median over children of the per-child ratio of
  medians; the first-call ratio uses each child's first call of each function only.
Run: python -m benchmarks.bench_jacobian [--n 256] [--repeat 21] [--fresh 15]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any, Callable

import numpy as np

from ._harness import LIBS, paired, ratio

NAME = "jacobian"
TITLE = "3. Jacobian"
DESCRIPTION = (
    "The full Jacobian of `tanh(W x)`, R^256 → R^256, float64, forward included: "
    "`tape.jacobian` (one vectorised backward walk), `torch.func.jacrev` (faster here than "
    "`torch.autograd.functional.jacobian(vectorize=True)`), `jax.jacrev` without `jit`, `autograd.jacobian`. Baseline: one VJP of the "
    "same function in the same library (forward + gradient with a seed `v`). *Warm*: timed in "
    "one process after a 16 MiB array was allocated and freed, as after any large workload. "
    "*Fresh*: each sample is a new process (import, problem, a run at n = 8, then 5 alternating "
    "calls of each at full size, timed in that process); there glibc still returns freed 512 KiB "
    "temporaries to the OS, and a library that re-allocates them page-faults on every call. "
    "*First call*: the first full-size call of each in the fresh process. The last column "
    "compares the warm Jacobian with the one written by hand in NumPy, `(1 − y²)[:, None] · W`, "
    "forward included.")
COLUMNS = [
    ("vjp_us", "one VJP µs, warm", "{:.0f}"),
    ("jac_us", "Jacobian µs, warm", "{:.0f}"),
    ("fresh_jac_us", "Jacobian µs, fresh process", "{:.0f}"),
    ("ratio", "Jacobian / VJP, warm", "{:.2f}"),
    ("fresh_ratio", "Jacobian / VJP, fresh process", "{:.2f}"),
    ("first_ratio", "Jacobian / VJP, first call", "{:.2f}"),
    ("vs_numpy", "Jacobian / hand-written NumPy", "{:.1f}"),
]
TARGETS = [("Jacobian ≤ 5 × one VJP (warm)", "ratio", 5.0),
           ("Jacobian ≤ 5 × one VJP (fresh process)", "fresh_ratio", 5.0)]
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_TAG = "FRESH-TIMES:"
_CALLS = 5


def problem(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    return (rng.standard_normal((n, n)) / np.sqrt(n), rng.standard_normal(n), rng.standard_normal(n))


def numpy_jacobian(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    y = np.tanh(w @ x)
    return (1 - y * y)[:, None] * w


def _tf_api(tf: Any, w0: Any, x0: Any, v0: Any) -> dict[str, Callable[[], Any]]:
    """One VJP and the Jacobian in TensorFlow's API (``tf`` is tapegrad or TensorFlow)."""
    w, x, v = tf.constant(w0), tf.constant(x0), tf.constant(v0)

    def f(x: Any) -> Any:
        return tf.tanh(tf.linalg.matvec(w, x))

    def vjp() -> Any:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x, output_gradients=v).numpy()

    def jac(use_pfor: bool = True) -> Callable[[], Any]:
        def run() -> Any:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = f(x)
            return tape.jacobian(y, x, experimental_use_pfor=use_pfor).numpy()
        return run

    out = {"vjp": vjp, "jac": jac(True)}
    if tf.__name__ == "tapegrad":
        jf = tf.autodiff.jacfwd(f)
        out.update(jac_loop=jac(False), jacfwd=lambda: jf(x).numpy())
    return out


def _library(lib: str, w0: np.ndarray, x0: np.ndarray, v0: np.ndarray) -> dict[str, Callable[[], Any]]:
    if lib in ("tapegrad", "tensorflow"):
        import importlib
        return _tf_api(importlib.import_module(lib), w0, x0, v0)
    if lib == "torch":
        import torch
        w, v = torch.from_numpy(w0), torch.from_numpy(v0)
        f = lambda x: torch.tanh(w @ x)  # noqa: E731

        def vjp() -> Any:
            x = torch.tensor(x0, requires_grad=True)
            return torch.autograd.grad(f(x), x, v)[0].numpy()
        jr, xt = torch.func.jacrev(f), torch.from_numpy(x0)
        return {"vjp": vjp, "jac": lambda: jr(xt).numpy()}
    if lib == "jax":
        import jax
        jax.config.update("jax_enable_x64", True)
        import jax.numpy as jnp
        w, x, v = jnp.asarray(w0), jnp.asarray(x0), jnp.asarray(v0)
        f = lambda x: jnp.tanh(w @ x)  # noqa: E731

        def vjp() -> Any:
            _, back = jax.vjp(f, x)
            return np.asarray(back(v)[0])
        jr = jax.jacrev(f)
        return {"vjp": vjp, "jac": lambda: np.asarray(jr(x))}
    if lib == "autograd":
        import autograd
        import autograd.numpy as anp
        f = lambda x: anp.tanh(anp.dot(w0, x))  # noqa: E731

        def vjp() -> Any:
            back, _ = autograd.make_vjp(f)(x0)
            return back(v0)
        ja = autograd.jacobian(f)
        return {"vjp": vjp, "jac": lambda: ja(x0)}
    raise ValueError(f"unknown library {lib!r}; expected one of {LIBS}")


def _warm_allocator() -> None:
    """Allocate and free 16 MiB, as a large workload does: glibc raises its mmap and trim
    thresholds past the sizes timed here (its dynamic threshold stops at 32 MiB)."""
    np.ones(2**21).sum()


def _child(lib: str, n: int, calls: int, jac_first: bool) -> dict[str, list[float]]:
    """In a fresh process: each function's per-call seconds at size ``n``, alternating."""
    small = _library(lib, *problem(8))
    small["vjp"]()
    small["jac"]()
    fns = _library(lib, *problem(n))
    order = ("jac", "vjp") if jac_first else ("vjp", "jac")
    times: dict[str, list[float]] = {k: [] for k in order}
    for _ in range(calls):
        for k in order:
            t0 = time.perf_counter()
            fns[k]()
            times[k].append(time.perf_counter() - t0)
    return times


def fresh(lib: str, n: int, samples: int, calls: int = _CALLS) -> dict[str, float]:
    """The Jacobian / VJP ratios of ``samples`` fresh processes: of per-child medians, and of
    first calls (medians over children)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    per, first, jac = [], [], []
    for i in range(samples):
        cmd = [sys.executable, "-m", "benchmarks.bench_jacobian", "--lib", lib, "--n", str(n),
               "--child", str(calls), str(i % 2)]
        p = subprocess.run(cmd, cwd=_ROOT, env=env, capture_output=True, text=True, check=True)
        line = next(x for x in p.stdout.splitlines() if x.startswith(_TAG))
        t = json.loads(line[len(_TAG):])
        per.append(statistics.median(t["jac"]) / statistics.median(t["vjp"]))
        first.append(t["jac"][0] / t["vjp"][0])
        jac.append(statistics.median(t["jac"]))
    return {"fresh_ratio": statistics.median(per), "first_ratio": statistics.median(first),
            "fresh_jac_us": statistics.median(jac) * 1e6}


def measure(lib: str, smoke: bool = False, n: int = 256, repeat: int = 21,
            fresh_samples: int = 15) -> list[dict]:
    if smoke:
        n, repeat, fresh_samples = 8, 2, 2
    elif lib in ("tensorflow", "torch", "jax"):
        fresh_samples = min(fresh_samples, 7)   # seconds of import each
    w0, x0, v0 = problem(n)
    fns = _library(lib, w0, x0, v0)
    want = numpy_jacobian(w0, x0)
    for k in fns:
        got = fns[k]()
        if k.startswith("jac"):
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-13)
        else:
            np.testing.assert_allclose(got, v0 @ want, rtol=1e-10, atol=1e-13)
    _warm_allocator()
    main_fns = {"vjp": fns["vjp"], "jac": fns["jac"], "numpy": lambda: numpy_jacobian(w0, x0)}
    t = paired(main_fns, repeat, 0.001 if smoke else 0.05)
    row = {"lib": lib, "vjp_us": t["median"]["vjp"] * 1e6, "jac_us": t["median"]["jac"] * 1e6,
           "ratio": ratio(t, "jac", "vjp"), "vs_numpy": ratio(t, "jac", "numpy")}
    row.update(fresh(lib, n, fresh_samples, 2 if smoke else _CALLS))
    rows = [row]
    for k, label in (("jac_loop", "tapegrad, experimental_use_pfor=False"),
                     ("jacfwd", "tapegrad, autodiff.jacfwd (forward mode)")):
        if k in fns:
            t2 = paired({"vjp": fns["vjp"], k: fns[k], "numpy": main_fns["numpy"]},
                        max(2, repeat // 4), 0.001 if smoke else 0.05)
            rows.append({"lib": label, "vjp_us": t2["median"]["vjp"] * 1e6,
                         "jac_us": t2["median"][k] * 1e6, "ratio": ratio(t2, k, "vjp"),
                         "vs_numpy": ratio(t2, k, "numpy"), "info": True})
    return rows


def main(argv: Any = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=21)
    ap.add_argument("--fresh", type=int, default=15, help="fresh processes (samples)")
    ap.add_argument("--lib", default="tapegrad", choices=LIBS)
    ap.add_argument("--child", nargs=2, type=int, metavar=("CALLS", "JAC_FIRST"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        print(_TAG + json.dumps(_child(a.lib, a.n, a.child[0], bool(a.child[1]))))
        return []
    rows = measure(a.lib, n=a.n, repeat=a.repeat, fresh_samples=a.fresh)
    print(f"tanh(W x), R^{a.n} -> R^{a.n}, float64 (median of {a.repeat}; warm allocator)")
    for r in rows:
        print(f"  {r['lib']:42s} VJP {r['vjp_us']:9.1f} us  Jacobian {r['jac_us']:10.1f} us "
              f"= {r['ratio']:6.2f} VJPs = {r['vs_numpy']:6.1f} x hand-written NumPy")
    r = rows[0]
    print(f"fresh processes ({a.fresh}): Jacobian {r['fresh_jac_us']:.1f} us = {r['fresh_ratio']:.2f} "
          f"VJPs (first call {r['first_ratio']:.2f})")
    print(f"ratio jacobian / vjp = {r['ratio']:.2f} warm, {r['fresh_ratio']:.2f} fresh (target <= 5)")
    return rows


if __name__ == "__main__":
    main()
