"""tf.distribute.MirroredStrategy on this machine: training steps per second of an MLP with 1
and 2 replicas (Dask worker processes), against one plain process in the same run.

Run: python -m benchmarks.bench_distribute [--rounds 5] [--smoke]
(or as the ``distribute`` workload of ``python -m benchmarks.run``)

For a small (128 wide) and a large (1024 wide) MLP — three dense layers, tanh, global batch
512 — and for two threading set-ups (every process limited to one BLAS thread with
threadpoolctl, which makes the comparison fair on a machine with as many cores as replicas,
and as many BLAS threads as cores, NumPy's default), it gives: ms per step of the plain loop, of
1 replica and of 2 replicas; the speed-up of 2 replicas over 1; the cost of one empty
``strategy.run`` (the round trip to the replicas) and of one all-reduce of the model's
gradients; and the CPU time of the step's own thread (``time.thread_time``: plain, 1 replica,
the busier of 2 replicas), which a busy machine does not inflate as it does wall time. Needs
``pip install 'tapegrad[dask]'``.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import time
from typing import Any, Iterator

import numpy as np

import tapegrad as tf

NAME = "distribute"
TITLE = "tf.distribute: data-parallel training on Dask"
DESCRIPTION = (
    "`MirroredStrategy` with 1 and 2 replicas (Dask worker processes on this machine) training a "
    "three-layer MLP (1024 inputs, two tanh layers of the given width, 10 outputs, global batch "
    "512, float32, SGD), against the same step in one plain process; timed in turn, five steps "
    "in a row each (as a training loop runs them; the first of each five is not counted), so that "
    "all see the same load. Threads: one BLAS thread per process (threadpoolctl), "
    "the fair comparison with as many replicas as cores, or as many as there are cores (NumPy's "
    "default). *Empty run*: `strategy.run` of a function that does nothing (the round trip to 2 "
    "replicas); *all-reduce*: one all-reduce of the model's gradients across 2 replicas, less the "
    "empty run. CPU ms: the step's own thread (plain, 1 replica, the busier of 2 replicas).")
COLUMNS = [("threads", "threads per process", "{}"), ("width", "width", "{}"),
           ("plain_ms", "plain ms", "{:.1f}"), ("one_ms", "1 replica ms", "{:.1f}"),
           ("two_ms", "2 replicas ms", "{:.1f}"), ("speedup", "speed-up 2 vs 1", "{:.2f}×"),
           ("two_over_one", "2 / 1", "{:.3f}"), ("empty_ms", "empty run ms", "{:.2f}"),
           ("reduce_ms", "all-reduce ms", "{:.2f}"), ("cpu", "CPU ms: plain / 1 / each of 2", "{}")]
TARGETS = [("2 replicas' step ≤ 0.625 × 1 replica's, a speed-up ≥ 1.6× (1024 wide, one BLAS "
            "thread per process)", "two_over_one_target", 0.625)]
SUPPORTED = ("tapegrad",)
REQUIRES = ("distributed", "threadpoolctl")
BATCH = 512


def _params(width: int) -> list:
    rng = np.random.default_rng(0)
    shapes = [(1024, width), (width,), (width, width), (width,), (width, 10), (10,)]
    return [tf.Variable((rng.normal(size=s) / np.sqrt(s[0] if len(s) == 2 else 1)).astype(np.float32))
            for s in shapes]


def _loss(params: list, x: Any, y: Any) -> Any:
    w1, b1, w2, b2, w3, b3 = params
    h = tf.tanh(tf.matmul(x, w1) + b1)
    h = tf.tanh(tf.matmul(h, w2) + b2)
    return tf.reduce_sum((tf.matmul(h, w3) + b3 - y) ** 2) / BATCH


def _data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1)
    return rng.normal(size=(BATCH, 1024)).astype(np.float32), rng.normal(size=(BATCH, 10)).astype(np.float32)


@contextlib.contextmanager
def _blas(threads: int | None) -> Iterator[None]:
    if threads is None:
        yield
        return
    from threadpoolctl import threadpool_limits
    with threadpool_limits(threads):
        yield


def _interleaved(fns: dict, rounds: int, block: int = 5) -> dict:
    """Median ms of each of ``fns`` over ``rounds`` rounds that call each in turn ``block`` times
    in a row, as a training loop calls its step (the first call of a block, which pays for the
    switch from the others, and the first round are warm-up), so that all see the same load on
    a busy machine; and the median of what each returns (the CPU ms of its busiest thread, or
    None)."""
    wall: dict = {k: [] for k in fns}
    cpu: dict = {k: [] for k in fns}
    for i in range(rounds + 1):
        for k, fn in fns.items():
            for j in range(block):
                t = time.perf_counter()
                c = fn()
                if i and j:
                    wall[k].append(time.perf_counter() - t)
                    cpu[k].append(c)
    return {k: (1e3 * float(np.median(wall[k])), None if cpu[k][0] is None else float(np.median(cpu[k])))
            for k in fns}


def _cpu_ms(out: Any, strategy: Any) -> float:
    return max(float(v) for v in strategy.experimental_local_results(out))


def _plain_step(width: int, threads: int | None) -> Any:
    params, opt = _params(width), tf.optimizers.SGD(0.01)
    x, y = (tf.constant(a) for a in _data())

    def step() -> float:
        c = time.thread_time()
        with _blas(threads), tf.GradientTape() as tape:
            loss = _loss(params, x, y)
        with _blas(threads):
            opt.apply_gradients(zip(tape.gradient(loss, params), params))
        return 1e3 * (time.thread_time() - c)
    return step


def _strategy_steps(strategy: Any, width: int) -> tuple:
    """A training step, an empty run and an all-reduce of the model's gradients on ``strategy``."""
    with strategy.scope():
        params, opt = _params(width), tf.optimizers.SGD(0.01)
    x, y = _data()
    n = strategy.num_replicas_in_sync
    xs = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(np.array_split(x, n)[ctx.replica_id_in_sync_group]))
    ys = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(np.array_split(y, n)[ctx.replica_id_in_sync_group]))
    grads = [np.zeros(p.shape, np.float32) for p in params]

    def step(xb: Any, yb: Any) -> Any:
        c = time.thread_time()
        with tf.GradientTape() as tape:
            loss = _loss(params, xb, yb)
        opt.apply_gradients(zip(tape.gradient(loss, params), params))
        return tf.constant(1e3 * (time.thread_time() - c))

    def empty() -> None:
        return None

    def reduce_only() -> None:
        tf.distribute.get_replica_context().all_reduce("SUM", grads)

    return (lambda: _cpu_ms(strategy.run(step, args=(xs, ys)), strategy),
            lambda: strategy.run(empty) and None, lambda: strategy.run(reduce_only) and None)


def measure(lib: str = "tapegrad", smoke: bool = False, rounds: int = 5) -> list[dict]:
    """One row per (threads per process, width)."""
    if lib != "tapegrad":
        raise ValueError(f"only tapegrad has this workload; got {lib!r}")
    rounds = 1 if smoke else rounds
    rows = []
    cores = os.cpu_count() or 1
    for threads in ((1,) if smoke else (1, cores)):
        one = tf.distribute.MirroredStrategy(num_replicas=1, blas_threads=threads)
        two = tf.distribute.MirroredStrategy(num_replicas=2, blas_threads=threads)
        try:
            for w in ((128,) if smoke else (128, 1024)):
                step1, _, _ = _strategy_steps(one, w)
                step2, empty2, reduce2 = _strategy_steps(two, w)
                r = _interleaved({"plain": _plain_step(w, threads), 1: step1, 2: step2,
                                  "empty": empty2, "reduce": reduce2}, rounds, 2 if smoke else 5)
                (p, pc), (a, ac), (b, bc) = r["plain"], r[1], r[2]
                row = {"lib": "tapegrad", "threads": f"{threads}" + (" (all cores)" if threads == cores > 1 else ""),
                       "width": w, "plain_ms": p, "one_ms": a, "two_ms": b, "speedup": a / b,
                       "two_over_one": b / a, "empty_ms": r["empty"][0],
                       "reduce_ms": r["reduce"][0] - r["empty"][0], "cpu": f"{pc:.1f} / {ac:.1f} / {bc:.1f}"}
                if threads == 1 and w == 1024:
                    row["two_over_one_target"] = b / a
                rows.append(row)
        finally:
            one.close()
            two.close()
    return rows


def main(argv: list | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of 5 steps of each set-up")
    parser.add_argument("--smoke", action="store_true", help="one round of 2 steps, small model only")
    args = parser.parse_args(argv)
    rows = measure(smoke=args.smoke, rounds=args.rounds)
    print("| " + " | ".join(h for _, h, _ in COLUMNS) + " |")
    print("|---" * len(COLUMNS) + "|")
    for r in rows:
        print("| " + " | ".join(f.format(r[k]) for k, _, f in COLUMNS) + " |")
    return rows


if __name__ == "__main__":
    main()
