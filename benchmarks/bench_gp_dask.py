"""A Gaussian process on Dask: the marginal likelihood's gradient with a kernel in many chunks.

Run: python -m benchmarks.bench_gp_dask [--n 4000] [--chunk 500] [--numpy-eye] [--smoke]

The inputs ``X`` (n x 2) are generated lazily by Dask in chunks of ``--chunk`` rows, so the RBF
kernel ``K`` (n x n) is in ``chunk x chunk`` blocks. tapegrad records the negative log marginal
likelihood (Cholesky factor, triangular solve, log-determinant) on a GradientTape and takes its
gradient with respect to the three hyperparameters; one ``dask.compute`` runs them. It prints the
seconds taken and the process's peak resident memory (``ru_maxrss``) over what it was before
the graphs were built. The diagonal noise term uses a Dask identity (``--numpy-eye``: a NumPy
``tf.eye``, held in memory). Needs ``pip install 'tapegrad[dask]'``.
"""
from __future__ import annotations

import argparse
import resource
import time
from typing import Any

import numpy as np

import tapegrad as tf


def gp_nll(X: tf.Tensor, y: tf.Tensor, ls: Any, amp: Any, noise: Any, eye: tf.Tensor) -> tf.Tensor:
    """The negative log marginal likelihood of targets ``y`` at inputs ``X`` under a GP with an
    RBF kernel (length scale ``ls``, amplitude ``amp``) plus ``noise`` on the diagonal (``eye``)."""
    n = X.shape[0]
    sq = tf.reduce_sum(X * X, axis=1)
    d2 = sq[:, None] + sq[None, :] - 2.0 * tf.matmul(X, X, transpose_b=True)
    K = amp * tf.exp(-0.5 * tf.maximum(d2, 0.0) / (ls * ls)) + noise * eye
    L = tf.linalg.cholesky(K)
    alpha = tf.linalg.triangular_solve(L, y[:, None], lower=True)
    return (0.5 * tf.reduce_sum(alpha * alpha) + tf.reduce_sum(tf.math.log(tf.linalg.diag_part(L)))
            + 0.5 * n * np.log(2 * np.pi))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=4000, help="number of points (the kernel is n x n)")
    ap.add_argument("--chunk", type=int, default=500, help="rows per chunk (kernel blocks chunk x chunk)")
    ap.add_argument("--numpy-eye", action="store_true", help="the noise term with a NumPy tf.eye")
    ap.add_argument("--smoke", action="store_true", help="n = 300, chunks of 100")
    a = ap.parse_args()
    import dask
    import dask.array as da

    n, c = (300, 100) if a.smoke else (a.n, a.chunk)
    X = tf.convert_to_tensor(da.random.default_rng(0).uniform(-3, 3, (n, 2), chunks=(c, 2)))
    y = tf.sin(X[:, 0])
    params = [tf.Variable(v, dtype=tf.float64) for v in (1.0, 1.5, 0.1)]
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    eye = tf.eye(n, dtype=tf.float64) if a.numpy_eye else tf.convert_to_tensor(da.eye(n, chunks=c))
    with tf.GradientTape() as tape:
        nll = gp_nll(X, y, *params, eye)
    grads = tape.gradient(nll, params)
    values = dask.compute(nll, *grads)
    took = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"kernel: {n} x {n} float64 = {n * n * 8 / 1e6:.0f} MB in blocks of {c} x {c} "
          f"({c * c * 8 / 1e6:.1f} MB); {'NumPy' if a.numpy_eye else 'Dask'} identity")
    print(f"nll {float(values[0]):.8g}, gradient {[round(float(v), 6) for v in values[1:]]}")
    print(f"computed in {took:.1f} s; peak resident memory {peak / 1024:.0f} MB "
          f"(+{(peak - base) / 1024:.0f} MB over the process before the graphs)")


if __name__ == "__main__":
    main()
