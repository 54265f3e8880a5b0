"""Cost of ``tf.vectorized_map`` against the same computation batched by hand in NumPy, measured
in the same run.

- matvec: ``vectorized_map(lambda x: tanh(W x), X)``, 256 rows, W 64x64 float32, against NumPy's
  ``tanh(X @ W.T)``; also ``map_fn`` (one call per row) for scale. Target: <= 3x hand-batched.
- per-example gradients: ``vectorized_map`` of ``tape.gradient`` of a row's loss
  ``sum(tanh(W x)^2)`` with respect to W (the use TensorFlow's docs show), against the NumPy
  formula ``(2 y (1 - y^2))^T``-outer-``x`` per row, batched.

TensorFlow's own ``tf.vectorized_map`` (pfor, eager) is timed as a peer when TensorFlow is
importable (never in CI), in the same run, as a ratio to the same NumPy baseline.
Run: python -m benchmarks.bench_vmap [--repeat 7] [--rows 256] [--dim 64]
"""
from __future__ import annotations

import argparse

import numpy as np

from ._harness import available, paired, ratio


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


def measure(rows: int = 256, dim: int = 64, repeat: int = 7) -> dict:
    import tapegrad as tf

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
    if available("tensorflow"):
        import tensorflow as real_tf
        t_matvec, t_grads = _workloads(real_tf, W, X)
        fns.update(tf_vmap_matvec=t_matvec, tf_vmap_grads=t_grads)
    t = paired(fns, repeat)
    out = {"rows": rows, "dim": dim, **{f"{k}_us": v * 1e6 for k, v in t["median"].items()},
           "matvec_ratio": ratio(t, "vmap_matvec", "numpy_matvec"),
           "map_fn_ratio": ratio(t, "map_fn_matvec", "numpy_matvec"),
           "grads_ratio": ratio(t, "vmap_grads", "numpy_grads")}
    if "tf_vmap_matvec" in fns:
        out.update(tf_matvec_ratio=ratio(t, "tf_vmap_matvec", "numpy_matvec"),
                   tf_grads_ratio=ratio(t, "tf_vmap_grads", "numpy_grads"))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--rows", type=int, default=256)
    p.add_argument("--dim", type=int, default=64)
    a = p.parse_args()
    r = measure(a.rows, a.dim, a.repeat)
    print(f"{r['rows']} rows, W {r['dim']}x{r['dim']} float32 (ratios: to hand-batched NumPy, same run)")
    print(f"  matvec+tanh: vectorized_map {r['vmap_matvec_us']:.0f} us, NumPy {r['numpy_matvec_us']:.0f} us: "
          f"ratio {r['matvec_ratio']:.1f} (map_fn: {r['map_fn_ratio']:.0f})")
    print(f"  per-example gradients: vectorized_map {r['vmap_grads_us']:.0f} us, NumPy "
          f"{r['numpy_grads_us']:.0f} us: ratio {r['grads_ratio']:.1f}")
    if "tf_matvec_ratio" in r:
        print(f"  TensorFlow's vectorized_map: matvec ratio {r['tf_matvec_ratio']:.1f}, "
              f"per-example gradients ratio {r['tf_grads_ratio']:.1f}")


if __name__ == "__main__":
    main()
