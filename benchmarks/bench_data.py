"""An input pipeline: ``from_tensor_slices((x, y)).shuffle(1000).batch(64)`` over 60000 × 784
float32 images and int64 labels (MNIST's size), one full pass, against a hand-written NumPy loop
(a permutation of the indices, then ``x[idx]``, ``y[idx]`` per batch of 64).

Run: python -m benchmarks.bench_data [--lib tapegrad] [--repeat 7]
"""
from __future__ import annotations

import argparse
from typing import Any, Callable

import numpy as np

from ._harness import paired, ratio

NAME = "data"
TITLE = "tf.data input pipeline"
DESCRIPTION = (
    "One pass of `from_tensor_slices((x, y)).shuffle(1000).batch(64)` over a 60000 × 784 float32 "
    "array and 60000 int64 labels, each batch's tensors touched, against a NumPy loop that "
    "permutes the indices and gathers `x[idx]`, `y[idx]` per batch of 64, in the same process.")
COLUMNS = [("ms", "pass ms", "{:.1f}"), ("base_ms", "NumPy loop ms", "{:.1f}"), ("ratio", "ratio", "{:.2f}")]
TARGETS: list = []
SUPPORTED = ("tapegrad", "tensorflow")


def _data(n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    return rng.random((n, 784), dtype=np.float32), rng.integers(0, 10, n).astype(np.int64)


def _numpy_pass(x: np.ndarray, y: np.ndarray) -> Callable[[], Any]:
    rng = np.random.default_rng(1)

    def run() -> int:
        perm = rng.permutation(len(x))
        total = 0
        for i in range(0, len(x), 64):
            idx = perm[i:i + 64]
            xb, yb = x[idx], y[idx]
            total += xb.shape[0] + yb.shape[0]
        return total
    return run


def _pipeline_pass(lib: str, x: np.ndarray, y: np.ndarray) -> Callable[[], Any]:
    if lib == "tapegrad":
        import tapegrad as tf
    else:
        import tensorflow as tf
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1000, seed=1).batch(64)

    def run() -> int:
        total = 0
        for xb, yb in ds:
            total += xb.shape[0] + yb.shape[0]
        return total
    return run


def measure(lib: str, smoke: bool = False, repeat: int = 7) -> list[dict]:
    if lib not in SUPPORTED:
        raise ValueError(f"unknown library {lib!r}; expected one of {SUPPORTED}")
    n = 2000 if smoke else 60000
    x, y = _data(n)
    base, pipe = _numpy_pass(x, y), _pipeline_pass(lib, x, y)
    if base() != pipe():
        raise AssertionError("the pipeline and the NumPy loop saw different numbers of rows")
    t = paired({"base": base, "lib": pipe}, 2 if smoke else repeat, 0.0 if smoke else 0.2)
    return [{"lib": lib, "ms": t["median"]["lib"] * 1e3, "base_ms": t["median"]["base"] * 1e3,
             "ratio": ratio(t, "lib", "base")}]


def main(argv: Any = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lib", default="tapegrad", choices=SUPPORTED)
    p.add_argument("--repeat", type=int, default=7)
    a = p.parse_args(argv)
    rows = measure(a.lib, repeat=a.repeat)
    r = rows[0]
    print(f"{a.lib}: {r['ms']:.1f} ms a pass, NumPy loop {r['base_ms']:.1f} ms (ratio {r['ratio']:.2f})")
    return rows


if __name__ == "__main__":
    main()
