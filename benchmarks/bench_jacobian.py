"""Jacobian cost: the Jacobian of ``tanh(W x)`` from R^256 to R^256 (float64) against one
vector-Jacobian product of the same function, measured in the same run.

Both timings include the forward pass under a tape. The Jacobian is one backward walk with 256
stacked seeds (``tape.jacobian``, the default vectorised path); the loop path
(``experimental_use_pfor=False``, one walk per row) and forward mode (``autodiff.jacfwd``, one
pass per input element) are reported for comparison. Target: vectorised Jacobian <= 5 VJPs.
Run: python benchmarks/bench_jacobian.py [--n 256] [--repeat 21]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tapegrad as tf  # noqa: E402


def _time(fn, repeat: int) -> float:
    fn()  # warm up
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=21)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    w = tf.constant(rng.standard_normal((args.n, args.n)) / np.sqrt(args.n))
    x0 = tf.constant(rng.standard_normal(args.n))
    v = tf.constant(rng.standard_normal(args.n))

    def f(x):
        return tf.tanh(tf.linalg.matvec(w, x))

    def one_vjp():
        with tf.GradientTape() as tape:
            tape.watch(x0)
            y = f(x0)
        return tape.gradient(y, x0, output_gradients=v)

    def jac(use_pfor: bool):
        def run():
            with tf.GradientTape() as tape:
                tape.watch(x0)
                y = f(x0)
            return tape.jacobian(y, x0, experimental_use_pfor=use_pfor)
        return run

    jf = tf.autodiff.jacfwd(f)
    j_vec, j_loop, j_fwd = jac(True)(), jac(False)(), jf(x0)
    assert np.array_equal(j_vec.numpy(), j_loop.numpy()), "vectorised and loop Jacobians differ"
    assert np.allclose(j_vec.numpy(), j_fwd.numpy(), rtol=1e-12, atol=1e-14)

    t_vjp = _time(one_vjp, args.repeat)
    t_vec = _time(jac(True), args.repeat)
    t_loop = _time(jac(False), max(3, args.repeat // 4))
    t_fwd = _time(lambda: jf(x0), max(3, args.repeat // 4))
    print(f"tanh(W x), R^{args.n} -> R^{args.n}, float64 (median of {args.repeat})")
    print(f"  one VJP (forward + gradient)         {t_vjp * 1e6:10.1f} us")
    print(f"  jacobian, vectorised (one walk)      {t_vec * 1e6:10.1f} us  = {t_vec / t_vjp:6.2f} VJPs")
    print(f"  jacobian, experimental_use_pfor=False {t_loop * 1e6:9.1f} us  = {t_loop / t_vjp:6.2f} VJPs")
    print(f"  autodiff.jacfwd (forward mode)       {t_fwd * 1e6:10.1f} us  = {t_fwd / t_vjp:6.2f} VJPs")
    ratio = t_vec / t_vjp
    print(f"ratio jacobian / vjp = {ratio:.2f} (target <= 5)")


if __name__ == "__main__":
    main()
