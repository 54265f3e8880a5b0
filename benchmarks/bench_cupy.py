"""tapegrad on a GPU through CuPy: the op table, and the MLP benchmark against hand-written CuPy.

Run: python -m benchmarks.bench_cupy [--repeat 20] [--width 1024] [--batch 256] [--fake]

Needs CuPy and a GPU (``pip install 'tapegrad[gpu]'``); without them it says so and exits.
``--fake`` dry-runs everything on CPU with ``benchmarks/fake_cupy.py`` (NumPy arrays posing as
CuPy's): it checks the script and the GPU code paths, and its timings mean nothing.

1. The op table (``tests/optable``): every case on CuPy arrays, its value and reverse-mode gradient
   compared with NumPy's (``tools/backend_table.py``'s statuses: runs / forward / raises /
   differs), with the counts and every case that does not run.
2. The MLP of ``bench_mlp`` (3 layers, relu, float32): ms per forward + backward step of
   tapegrad on the GPU (parameters and data made inside ``tf.device("/GPU:0")``), of the same
   network's hand-written backward pass on CuPy arrays, of a training step (GPU Variables, SGD),
   and of tapegrad on NumPy (CPU); the gradients are checked against the CPU's.

It ends with markdown rows for docs/benchmarks.md, which get them once this has run on a GPU.
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time
import warnings
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


def op_table(cupy: Any) -> dict:
    """Every op-table case on CuPy arrays; prints the cases that do not run, returns the counts."""
    sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests")]
    import backend_table
    from optable import all_cases
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for case in all_cases():
            rows.append((case.name, backend_table.status(case, cupy.asarray)))
    counts = {k: sum(1 for _, (s, _) in rows if s == k) for k in ("runs", "forward", "raises", "differs")}
    print("op table on CuPy:", ", ".join(f"{v} {k}" for k, v in counts.items()))
    for name, (s, why) in rows:
        if s != "runs":
            print(f"  {name}: {s}: {why}")
    return counts


def mlp(cupy: Any, width: int, batch: int, repeat: int) -> dict:
    """ms per forward + backward step (and per SGD training step) of the bench_mlp network."""
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
        gv = [tf.Variable(p) for p in params]
    assert gp[0].device.endswith("GPU:0") and gv[0].device.endswith("GPU:0"), (gp[0].device, gv[0].device)
    opt = tf.optimizers.SGD(learning_rate=1e-3)

    def train_step() -> None:
        with tf.GradientTape() as tape:
            loss = tf_loss(tf, gv, gx, gy)
        opt.apply_gradients(zip(tape.gradient(loss, gv), gv))

    cp = [cupy.asarray(p) for p in params]
    cx, cy = cupy.asarray(x), cupy.asarray(y)
    tp = [tf.constant(p) for p in params]
    tx, ty = tf.constant(x), tf.constant(y)
    ms = {"gpu": _median_ms(lambda: tape_step(gp, gx, gy), sync, repeat),
          "hand": _median_ms(lambda: numpy_grad(cp, cx, cy), sync, repeat),
          "train": _median_ms(train_step, sync, repeat),
          "cpu": _median_ms(lambda: tape_step(tp, tx, ty), lambda: None, max(3, repeat // 4))}
    assert all(v.device.endswith("GPU:0") for v in gv), "the training step left the GPU"
    ms["worst"] = max(float(np.max(np.abs(g.numpy() - c.numpy()) / (1e-3 + np.abs(c.numpy()))))
                      for g, c in zip(tape_step(gp, gx, gy), tape_step(tp, tx, ty)))
    return ms


def markdown(gpu: str, counts: dict, ms: dict, width: int, batch: int) -> str:
    """The rows for docs/benchmarks.md."""
    return "\n".join([
        f"GPU: {gpu}. Op table (`tests/optable`) on CuPy arrays: "
        + ", ".join(f"{v} {k}" for k, v in counts.items()) + ".",
        "",
        f"MLP of section 2 ({width} wide, batch {batch}, float32):",
        "",
        "| run | device | ms per step | ratio to hand-written CuPy |",
        "|---|---|---|---|",
        f"| tapegrad forward + backward | GPU (CuPy) | {ms['gpu']:.2f} | {ms['gpu'] / ms['hand']:.2f} |",
        f"| hand-written CuPy forward + backward | GPU | {ms['hand']:.2f} | 1.00 |",
        f"| tapegrad training step (Variables, SGD) | GPU (CuPy) | {ms['train']:.2f} | {ms['train'] / ms['hand']:.2f} |",
        f"| tapegrad forward + backward | CPU (NumPy) | {ms['cpu']:.2f} | {ms['cpu'] / ms['hand']:.2f} |",
        "",
        f"Gradients on the GPU against the CPU's: largest relative difference {ms['worst']:.1e}."])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--width", type=int, default=1024)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--fake", action="store_true", help="dry-run on CPU with benchmarks/fake_cupy.py")
    a = ap.parse_args(argv)
    if a.fake:
        from . import fake_cupy
        with fake_cupy.install(gpus=1):
            run(a)
        return
    run(a)


def run(a: argparse.Namespace) -> None:
    gpus = tf.config.list_physical_devices("GPU")
    if not gpus:
        print("bench_cupy: no GPU (CuPy missing, or it sees no device): nothing to run.")
        return
    import cupy
    gpu = f"{cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()} ({len(gpus)} seen)"
    print(f"GPU: {gpu}")
    counts = op_table(cupy)
    ms = mlp(cupy, a.width, a.batch, a.repeat)
    print()
    print(markdown(gpu, counts, ms, a.width, a.batch))


if __name__ == "__main__":
    main()
