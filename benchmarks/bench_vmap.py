"""Cost of ``tf.vectorized_map`` against the same computation batched by hand in NumPy, measured
in the same run.

- matvec: ``vectorized_map(lambda x: tanh(W x), X)``, 256 rows, W 64x64 float32, against NumPy's
  ``tanh(X @ W.T)``; also ``map_fn`` (one call per row) for scale. Target: <= 3x hand-batched.
- per-example gradients: ``vectorized_map`` of ``tape.gradient`` of a row's loss
  ``sum(tanh(W x)^2)`` with respect to W (the use TensorFlow's docs show), against the NumPy
  formula ``(2 y (1 - y^2))^T``-outer-``x`` per row, batched.

TensorFlow's own ``tf.vectorized_map`` (pfor, eager) is timed as a peer when TensorFlow is
importable (never in CI), in its own process, as a ratio to the same NumPy baseline.
Run: python -m benchmarks.bench_vmap [--lib tapegrad|tensorflow] [--repeat 7] [--rows 256] [--dim 64],
or through ``python -m benchmarks.run --only vmap``.
"""
from __future__ import annotations

import argparse

import numpy as np

from ._harness import paired, ratio


def _workloads(mod, W: np.ndarray, X: np.ndarray) -> tuple:
    w, x = mod.constant(W), mod.constant(X)
    v = mod.Variable(W)

    def matvec():
        return mod.vectorized_map(lambda r: mod.tanh(mod.linalg.matvec(w, r)), x)

    def grad_row(r):
        with mod.GradientTape() as t:
            loss = mod.reduce_sum(mod.tanh(mod.linalg.matvec(v, r)) ** 2)
        return t.gradient(loss, v)

    return matvec, lambda: mod.vectorized_map(grad_row, x)


NAME = "vmap"
TITLE = "tf.vectorized_map"
DESCRIPTION = (
    "`vectorized_map(lambda x: tanh(W x), X)` (256 rows, W 64 × 64 float32) and per-example "
    "gradients (`vectorized_map` of `tape.gradient` of `sum(tanh(W x)^2)` w.r.t. W), each against "
    "the same computation batched by hand in NumPy in the same process; `map_fn` (one call per row) "
    "for scale.")
COLUMNS = [("vmap_matvec_us", "matvec µs", "{:.0f}"), ("numpy_matvec_us", "NumPy matvec µs", "{:.0f}"),
           ("matvec_ratio", "matvec ratio", "{:.2f}"), ("map_fn_ratio", "map_fn ratio", "{:.0f}"),
           ("vmap_grads_us", "per-example grads µs", "{:.0f}"),
           ("numpy_grads_us", "NumPy grads µs", "{:.0f}"), ("grads_ratio", "grads ratio", "{:.2f}")]
TARGETS = [("vectorized_map ≤ 3× the hand-batched NumPy matvec", "matvec_ratio", 3.0)]
SUPPORTED = ("tapegrad", "tensorflow")


def measure(lib: str = "tapegrad", smoke: bool = False, rows: int = 256, dim: int = 64,
            repeat: int = 7) -> list[dict]:
    if lib not in SUPPORTED:
        raise ValueError(f"unknown library {lib!r}; expected one of {SUPPORTED}")
    if lib == "tapegrad":
        import tapegrad as tf
    else:
        import tensorflow as tf
    if smoke:
        rows, dim, repeat = 8, 4, 1

    rng = np.random.default_rng(0)
    W = (rng.standard_normal((dim, dim)) / np.sqrt(dim)).astype(np.float32)
    X = rng.standard_normal((rows, dim)).astype(np.float32)

    def np_matvec():
        return np.tanh(X @ W.T)

    def np_grads():
        y = np.tanh(X @ W.T)
        return np.einsum("bi,bj->bij", 2 * y * (1 - y * y), X)

    matvec, grads = _workloads(tf, W, X)
    xt, wt = tf.constant(X), tf.constant(W)
    fns = {"numpy_matvec": np_matvec, "vmap_matvec": matvec,
           "map_fn_matvec": lambda: tf.map_fn(lambda r: tf.tanh(tf.linalg.matvec(wt, r)), xt),
           "numpy_grads": np_grads, "vmap_grads": grads}
    np.testing.assert_allclose(matvec().numpy(), np_matvec(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(grads().numpy(), np_grads(), rtol=1e-4, atol=1e-5)
    t = paired(fns, repeat, 0.0 if smoke else 0.02)
    return [{"lib": lib, "rows": rows, "dim": dim, **{f"{k}_us": v * 1e6 for k, v in t["median"].items()},
             "matvec_ratio": ratio(t, "vmap_matvec", "numpy_matvec"),
             "map_fn_ratio": ratio(t, "map_fn_matvec", "numpy_matvec"),
             "grads_ratio": ratio(t, "vmap_grads", "numpy_grads")}]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lib", default="tapegrad", choices=SUPPORTED)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--rows", type=int, default=256)
    p.add_argument("--dim", type=int, default=64)
    a = p.parse_args()
    (r,) = measure(a.lib, rows=a.rows, dim=a.dim, repeat=a.repeat)
    print(f"{a.lib}: {r['rows']} rows, W {r['dim']}x{r['dim']} float32 (ratios: to hand-batched NumPy, same run)")
    print(f"  matvec+tanh: vectorized_map {r['vmap_matvec_us']:.0f} us, NumPy {r['numpy_matvec_us']:.0f} us: "
          f"ratio {r['matvec_ratio']:.1f} (map_fn: {r['map_fn_ratio']:.0f})")
    print(f"  per-example gradients: vectorized_map {r['vmap_grads_us']:.0f} us, NumPy "
          f"{r['numpy_grads_us']:.0f} us: ratio {r['grads_ratio']:.1f}")


if __name__ == "__main__":
    main()
