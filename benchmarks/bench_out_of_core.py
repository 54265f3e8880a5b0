"""Out of core: the gradient of a least-squares loss over a Dask array larger than memory.

Run: python -m benchmarks.bench_out_of_core [--gb 4.3] [--chunk-mb 16] [--smoke]

``X`` (n x 100, float64) and ``y`` are generated lazily, chunk by chunk, by Dask's random
generator; ``w`` is a NumPy Variable. tapegrad records ``loss = mean((X w - y)^2)`` on a
GradientTape and takes ``dloss/dw``: both are lazy Dask graphs until one ``dask.compute`` runs
them together, chunk by chunk. It prints the array's size, the seconds taken, the process's peak
resident memory (``ru_maxrss``, which includes the interpreter and its libraries), and the largest
difference from the same gradient written directly in Dask (``2/n Xᵀ(Xw - y)``). Before that it
checks the same program on a small array against NumPy. Needs ``pip install 'tapegrad[dask]'``.
"""
from __future__ import annotations

import argparse
import resource
import time
from typing import Any

import numpy as np

import tapegrad as tf

D = 100


def data(n: int, rows_per_chunk: int, seed: int = 0) -> tuple[Any, Any]:
    """Lazily generated ``X`` (n x D) and ``y`` (n): nothing is held until a chunk is computed."""
    import dask.array as da
    rng = da.random.default_rng(seed)
    x = rng.standard_normal((n, D), chunks=(rows_per_chunk, D))
    y = x[:, 0] * 2.0 + rng.standard_normal((n,), chunks=(rows_per_chunk,))
    return x, y


def loss_and_gradient(x: Any, y: Any, w: tf.Variable) -> tuple[tf.Tensor, tf.Tensor]:
    """``mean((X w - y)^2)`` and its gradient with respect to ``w``, as tapegrad tensors."""
    with tf.GradientTape() as tape:
        r = tf.linalg.matvec(tf.convert_to_tensor(x), w) - tf.convert_to_tensor(y)
        loss = tf.reduce_mean(r * r)
    return loss, tape.gradient(loss, w)


def check_small() -> float:
    """The largest difference between the program on a small Dask array and on NumPy."""
    x, y = data(4000, 1000, seed=1)
    w = tf.Variable(np.linspace(-1.0, 1.0, D))
    loss, g = loss_and_gradient(x, y, w)
    xn, yn = tf.constant(x.compute()), tf.constant(y.compute())
    with tf.GradientTape() as tape:
        r = tf.linalg.matvec(xn, w) - yn
        ln = tf.reduce_mean(r * r)
    gn = tape.gradient(ln, w)
    return max(abs(float(loss) - float(ln)), float(np.max(np.abs(g.numpy() - gn.numpy()))))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gb", type=float, default=4.3, help="size of X in GB (default 4.3)")
    ap.add_argument("--chunk-mb", type=float, default=16.0, help="size of one chunk of X in MB")
    ap.add_argument("--smoke", action="store_true", help="a 0.05 GB run")
    a = ap.parse_args()
    import dask

    gb = 0.05 if a.smoke else a.gb
    print(f"small array vs NumPy: largest difference {check_small():.2e}")
    n = int(gb * 1e9 / (8 * D))
    rows = max(1, int(a.chunk_mb * 1e6 / (8 * D)))
    x, y = data(n, rows)
    w = tf.Variable(np.linspace(-1.0, 1.0, D))
    t0 = time.perf_counter()
    loss, g = loss_and_gradient(x, y, w)
    built = time.perf_counter() - t0
    lv, gv = dask.compute(loss, g)
    took = time.perf_counter() - t0
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    # the same gradient written in Dask, computed afterwards (in the same pass, Dask's ordering
    # would keep X's chunks for the second graph: that measures Dask, not tapegrad)
    dv = (2.0 / n * (x.T @ (x @ w.numpy() - y))).compute()
    print(f"X: {n} x {D} float64 = {n * D * 8 / 1e9:.2f} GB in {x.numblocks[0]} chunks of "
          f"{rows * D * 8 / 1e6:.0f} MB")
    print(f"graphs built in {built:.2f} s (nothing computed); loss and gradient computed in {took:.1f} s")
    print(f"peak resident memory: {peak_mb:.0f} MB (the process, interpreter included)")
    print(f"loss {float(lv):.6f}; gradient vs the direct Dask formula: largest difference "
          f"{float(np.max(np.abs(gv - dv))):.2e}")


if __name__ == "__main__":
    main()
