"""Cost of TensorFlow-exact random numbers: ``tf.random.normal([1000, 1000])`` (Philox-4x32-10 and
TF's Box-Muller in NumPy) and ``stateless_uniform`` against NumPy's own
``default_rng().standard_normal`` / ``random`` of the same size, measured in the same run.
Run: python -m benchmarks.bench_random [--lib tapegrad|tensorflow] [--repeat 7] [--n 1000], or through
``python -m benchmarks.run --only random``.
"""
from __future__ import annotations

import argparse

import numpy as np

from ._harness import paired, ratio

NAME = "random"
TITLE = "TensorFlow-exact random numbers"
DESCRIPTION = (
    "`tf.random.normal([1000, 1000])` (stateful, global seed 1) and `tf.random.stateless_uniform` "
    "of the same shape, float32, against NumPy's `default_rng().standard_normal` / `random` of the "
    "same size in the same process. tapegrad computes TF's Philox-4x32-10 stream and Box-Muller in "
    "NumPy, so its draws are TF's numbers; TensorFlow's own kernels are timed as a peer.")
COLUMNS = [("tf_normal_ms", "normal ms", "{:.1f}"), ("numpy_normal_ms", "NumPy normal ms", "{:.1f}"),
           ("normal_ratio", "normal ratio", "{:.2f}"),
           ("tf_stateless_uniform_ms", "stateless uniform ms", "{:.1f}"),
           ("numpy_uniform_ms", "NumPy uniform ms", "{:.1f}"), ("uniform_ratio", "uniform ratio", "{:.2f}")]
TARGETS: list = []
SUPPORTED = ("tapegrad", "tensorflow")


def measure(lib: str = "tapegrad", smoke: bool = False, n: int = 1000, repeat: int = 7) -> list[dict]:
    if lib not in SUPPORTED:
        raise ValueError(f"unknown library {lib!r}; expected one of {SUPPORTED}")
    if lib == "tapegrad":
        import tapegrad as tf
    else:
        import tensorflow as tf
    if smoke:
        n, repeat = min(n, 8), 1

    rng = np.random.default_rng(0)
    tf.random.set_seed(1)
    fns = {"numpy_normal": lambda: rng.standard_normal((n, n), dtype=np.float32),
           "tf_normal": lambda: tf.random.normal([n, n]),
           "numpy_uniform": lambda: rng.random((n, n), dtype=np.float32),
           "tf_stateless_uniform": lambda: tf.random.stateless_uniform([n, n], seed=[1, 2])}
    t = paired(fns, repeat, min_time=0.0 if smoke else 0.05)
    return [{"lib": lib, "n": n, **{f"{k}_ms": v * 1e3 for k, v in t["median"].items()},
             "normal_ratio": ratio(t, "tf_normal", "numpy_normal"),
             "uniform_ratio": ratio(t, "tf_stateless_uniform", "numpy_uniform")}]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lib", default="tapegrad", choices=SUPPORTED)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--n", type=int, default=1000)
    a = p.parse_args()
    (r,) = measure(a.lib, n=a.n, repeat=a.repeat)
    print(f"{a.lib}, [{r['n']}, {r['n']}] float32:")
    print(f"  tf.random.normal {r['tf_normal_ms']:.1f} ms, numpy standard_normal "
          f"{r['numpy_normal_ms']:.1f} ms: ratio {r['normal_ratio']:.1f}")
    print(f"  tf.random.stateless_uniform {r['tf_stateless_uniform_ms']:.1f} ms, numpy random "
          f"{r['numpy_uniform_ms']:.1f} ms: ratio {r['uniform_ratio']:.1f}")


if __name__ == "__main__":
    main()
