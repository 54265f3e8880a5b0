"""Memory: peak traced memory (tracemalloc) of one MLP training step, against hand-written NumPy.

One SGD step of the MLP of the large-work benchmark (float64): forward under a non-persistent
tape, gradients, update of the six parameters (``assign_sub``). The baseline is the same step with a
hand-written NumPy backward pass and in-place update. Peak is measured above what was allocated
before the step (parameters and data are not counted; tracing starts before they are made, so that
replacing a parameter's array counts as freeing the old one). Then a persistent tape records the same forward and
computes the gradients: what it holds, and what is left once the tape and the gradients are
deleted: first the tape (its memory must go at once), then the gradients (before and after
``gc.collect()``).
tracemalloc sees NumPy's allocations only, so PyTorch, TensorFlow and JAX (own allocators) are
not measured; HIPS autograd (NumPy underneath) is.
Run: python -m benchmarks.bench_memory [--lib tapegrad]
"""
from __future__ import annotations

import argparse
import gc
import tracemalloc
from typing import Any, Callable

from . import bench_mlp
from ._harness import LIBS

NAME = "memory"
TITLE = "5. Memory of one training step"
DESCRIPTION = (
    "Peak memory traced by `tracemalloc` during one SGD step of the large-work MLP (float64, 1024 "
    "wide, batch 256; parameters and data allocated before and not counted): forward under a "
    "non-persistent tape, gradients, update (`assign_sub`). Baseline: the same step with a "
    "hand-written NumPy backward pass and in-place update. Then a persistent tape: memory it holds after `gradient` (besides the "
    "gradients), what is left after `del tape`, then after `del grads`, then after `gc.collect()`. tracemalloc sees NumPy's "
    "allocations only, so PyTorch, TensorFlow and JAX (own allocators) are not measured here.")
COLUMNS = [
    ("peak_mb", "peak MB", "{:.1f}"),
    ("base_mb", "hand-written NumPy peak MB", "{:.1f}"),
    ("ratio", "ratio", "{:.2f}"),
    ("held_mb", "persistent tape holds MB", "{:.1f}"),
    ("left_mb", "left after del tape MB", "{:.3f}"),
    ("left_grads_mb", "left after del grads MB", "{:.3f}"),
    ("left_gc_mb", "left after gc.collect() MB", "{:.3f}"),
]
TARGETS = [
    ("peak of a training step ≤ 1.3 × hand-written NumPy", "ratio", 1.3),
    ("a deleted persistent tape leaves ≤ 0.1 MB (no gc.collect needed)", "left_mb", 0.1),
]
SUPPORTED = ("tapegrad", "autograd")


def _peak(fn: Callable[[], Any]) -> float:
    """Peak traced bytes above the level at the start of ``fn`` (tracemalloc running)."""
    gc.collect()
    tracemalloc.reset_peak()
    start = tracemalloc.get_traced_memory()[0]
    fn()
    return tracemalloc.get_traced_memory()[1] - start


def measure(lib: str, smoke: bool = False, width: int = 1024, batch: int = 256) -> list[dict]:
    if lib not in LIBS:
        raise ValueError(f"unknown library {lib!r}; expected one of {LIBS}")
    if lib not in SUPPORTED:
        return []
    if smoke:
        width, batch = 16, 4
    # Tracing starts before the parameters exist: an update that replaces a parameter's array
    # frees the old one, and tracemalloc counts that only for arrays it saw allocated.
    tracemalloc.start()
    try:
        params, x, y = bench_mlp.init(width, batch, "float64")
        net = bench_mlp.Net(lib, params, x, y)
        net.step()   # warm-up: lazy imports and caches are not part of a step
        bench_mlp.numpy_step(params, x, y)
        mb = 1 / 2**20
        row = {"lib": lib, "peak_mb": _peak(net.step) * mb,
               "base_mb": _peak(lambda: bench_mlp.numpy_step(params, x, y)) * mb}
        row["ratio"] = row["peak_mb"] / row["base_mb"]
        if hasattr(net, "grad_persistent_tape"):
            gc.collect()
            start = tracemalloc.get_traced_memory()[0]
            grads, tape = net.grad_persistent_tape()
            grad_bytes = sum(g.numpy().nbytes for g in grads)
            row["held_mb"] = (tracemalloc.get_traced_memory()[0] - start - grad_bytes) * mb
            del tape
            row["left_mb"] = (tracemalloc.get_traced_memory()[0] - start - grad_bytes) * mb
            del grads
            row["left_grads_mb"] = (tracemalloc.get_traced_memory()[0] - start) * mb
            gc.collect()
            row["left_gc_mb"] = (tracemalloc.get_traced_memory()[0] - start) * mb
    finally:
        tracemalloc.stop()
    return [row]


def main(argv: Any = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lib", default="tapegrad", choices=SUPPORTED)
    a = p.parse_args(argv)
    rows = measure(a.lib)
    for r in rows:
        print(", ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in r.items()))
    return rows


if __name__ == "__main__":
    main()
