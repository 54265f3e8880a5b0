"""tapegrad on a GPU through CuPy: the op table, and the MLP benchmark against hand-written CuPy.

Run: python -m benchmarks.bench_cupy [--repeat 20] [--width 1024] [--batch 256]

Needs CuPy and a GPU (``pip install 'tapegrad[gpu]'``); without them it says so and exits.

1. The op table (``tests/optable``): every case on CuPy arrays, its value and reverse-mode gradient
   compared with NumPy's (``tools/backend_table.py``'s statuses: runs / forward / raises /
   differs), with the counts and every case that does not run.
2. The MLP of ``bench_mlp`` (3 layers, relu, float32): ms per forward + backward step of
   tapegrad on the GPU (parameters and data made inside ``tf.device("/GPU:0")``), of the same
   network's hand-written backward pass on CuPy arrays, and of tapegrad on NumPy (CPU); the
   gradients are checked against the CPU's.

The results go in docs/benchmarks.md once this has run on a GPU.
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time
from typing import Any, Callable

import numpy as np

import tapegrad as tf

from .bench_mlp import init, numpy_grad, tf_loss

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _median_ms(step: Callable[[], Any], sync: Callable[[], Any], repeat: int) -> float:
    step()
    sync()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        step()
        sync()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def op_table(cupy: Any) -> None:
    sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests")]
    import backend_table
    from optable import all_cases
    rows = []
    for case in all_cases():
        rows.append((case.name, backend_table.status(case, cupy.asarray)))
    counts = {k: sum(1 for _, (s, _) in rows if s == k) for k in ("runs", "forward", "raises", "differs")}
    print("op table on CuPy:", ", ".join(f"{v} {k}" for k, v in counts.items()))
    for name, (s, why) in rows:
        if s != "runs":
            print(f"  {name}: {s}: {why}")


def mlp(cupy: Any, width: int, batch: int, repeat: int) -> None:
    params, x, y = init(width, batch, np.float32)
    sync = cupy.cuda.Device().synchronize

    def tape_step(ps: list, xs: Any, ys: Any) -> list:
        with tf.GradientTape() as tape:
            tape.watch(ps)
            loss = tf_loss(tf, ps, xs, ys)
        return tape.gradient(loss, ps)

    with tf.device("/GPU:0"):
        gp = [tf.constant(p) for p in params]
        gx, gy = tf.constant(x), tf.constant(y)
    assert gp[0].device.endswith("GPU:0"), gp[0].device
    cp = [cupy.asarray(p) for p in params]
    cx, cy = cupy.asarray(x), cupy.asarray(y)
    tp = [tf.constant(p) for p in params]
    tx, ty = tf.constant(x), tf.constant(y)
    gpu_ms = _median_ms(lambda: tape_step(gp, gx, gy), sync, repeat)
    hand_ms = _median_ms(lambda: numpy_grad(cp, cx, cy), sync, repeat)
    cpu_ms = _median_ms(lambda: tape_step(tp, tx, ty), lambda: None, max(3, repeat // 4))
    worst = max(float(np.max(np.abs(g.numpy() - c.numpy()) / (1e-3 + np.abs(c.numpy()))))
                for g, c in zip(tape_step(gp, gx, gy), tape_step(tp, tx, ty)))
    print(f"MLP {width} wide, batch {batch}, float32, forward + backward:")
    print(f"  tapegrad on CuPy       {gpu_ms:8.2f} ms")
    print(f"  hand-written CuPy      {hand_ms:8.2f} ms   (ratio {gpu_ms / hand_ms:.2f})")
    print(f"  tapegrad on NumPy, CPU {cpu_ms:8.2f} ms")
    print(f"  gradients vs the CPU's: largest relative difference {worst:.1e}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--width", type=int, default=1024)
    ap.add_argument("--batch", type=int, default=256)
    a = ap.parse_args(argv)
    gpus = tf.config.list_physical_devices("GPU")
    if not gpus:
        print("bench_cupy: no GPU (CuPy missing, or it sees no device): nothing to run.")
        return
    import cupy
    print(f"GPU: {cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()} ({len(gpus)} seen)")
    op_table(cupy)
    mlp(cupy, a.width, a.batch, a.repeat)


if __name__ == "__main__":
    main()
