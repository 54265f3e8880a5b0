"""Per-op overhead: a chain of elementwise ops on a small array, forward under a tape plus gradient.

Reports microseconds per op for tapegrad and for hand-written NumPy (forward and backward written
out by hand) measured in the same run, and their ratio; also the no-tape cost over bare NumPy.
Run: python benchmarks/bench_per_op.py [--n 1000] [--repeat 7]
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def chain_numpy(x0: np.ndarray, n: int) -> np.ndarray:
    # forward: y = sin(y * 1.0001 + 0.001), keeping what backward needs
    saved = []
    y = x0
    for _ in range(n // 3):
        a = y * 1.0001
        b = a + 0.001
        saved.append(b)
        y = np.sin(b)
    g = np.ones_like(y)
    for b in reversed(saved):
        g = g * np.cos(b)
        g = g * 1.0001
    return g


def chain_tapegrad(tf, x0, n: int):
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(n // 3):
            y = tf.sin(y * 1.0001 + 0.001)
    return tape.gradient(y, x)


def chain_notape(tf, x0, n: int):
    y = tf.constant(x0)
    for _ in range(n // 3):
        y = tf.sin(y * 1.0001 + 0.001)
    return y


def chain_bare(x0: np.ndarray, n: int) -> np.ndarray:
    y = x0
    for _ in range(n // 3):
        y = np.sin(y * 1.0001 + 0.001)
    return y


def _time(fn, repeat: int) -> float:
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def run(n: int = 999, repeat: int = 7) -> dict:
    import tapegrad as tf
    x0 = np.linspace(0.1, 1.0, 10)
    np.testing.assert_allclose(chain_tapegrad(tf, x0, n).numpy(), chain_numpy(x0, n), rtol=1e-12)
    res = {
        "numpy_fwd_bwd": _time(lambda: chain_numpy(x0, n), repeat) / n * 1e6,
        "tapegrad_fwd_bwd": _time(lambda: chain_tapegrad(tf, x0, n), repeat) / n * 1e6,
        "numpy_fwd": _time(lambda: chain_bare(x0, n), repeat) / n * 1e6,
        "tapegrad_fwd_notape": _time(lambda: chain_notape(tf, x0, n), repeat) / n * 1e6,
    }
    res["ratio_fwd_bwd"] = res["tapegrad_fwd_bwd"] / res["numpy_fwd_bwd"]
    res["notape_overhead_us"] = res["tapegrad_fwd_notape"] - res["numpy_fwd"]
    return res


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=999)
    p.add_argument("--repeat", type=int, default=7)
    a = p.parse_args(argv)
    r = run(a.n, a.repeat)
    print(f"per op, forward under a tape + gradient: tapegrad {r['tapegrad_fwd_bwd']:.2f} us, "
          f"hand-written NumPy {r['numpy_fwd_bwd']:.2f} us (ratio {r['ratio_fwd_bwd']:.2f})")
    print(f"per op, no tape: tapegrad {r['tapegrad_fwd_notape']:.2f} us, bare NumPy "
          f"{r['numpy_fwd']:.2f} us (overhead {r['notape_overhead_us']:.2f} us)")
    return r


if __name__ == "__main__":
    main()
