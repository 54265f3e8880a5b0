"""Jacobian cost: the Jacobian of ``tanh(W x)`` from R^256 to R^256 (float64) against one
vector-Jacobian product of the same function, measured in the same run.

Both timings include the forward pass under a tape. The Jacobian is one backward walk with 256
stacked seeds (``tape.jacobian``, the default vectorised path); the loop path
(``experimental_use_pfor=False``, one walk per row) and forward mode (``autodiff.jacfwd``, one
pass per input element) are reported for comparison. Target: vectorised Jacobian <= 5 VJPs.
Run: python -m benchmarks.bench_jacobian [--n 256] [--repeat 21]
"""
from __future__ import annotations

import argparse
from typing import Any, Callable

import numpy as np

from ._harness import LIBS, paired, ratio

NAME = "jacobian"
TITLE = "3. Jacobian"
DESCRIPTION = (
    "The full Jacobian of `tanh(W x)`, R^256 → R^256, float64, forward included: "
    "`tape.jacobian` (one vectorised backward walk), `torch.func.jacrev` (faster here than "
    "`torch.autograd.functional.jacobian(vectorize=True)`), `jax.jacrev` without `jit`, `autograd.jacobian`. Baseline: one VJP of the "
    "same function in the same library (forward + gradient with a seed `v`). The last column "
    "compares with the Jacobian written by hand in NumPy, `(1 − y²)[:, None] · W`, forward included.")
COLUMNS = [
    ("vjp_us", "one VJP µs", "{:.0f}"),
    ("jac_us", "Jacobian µs", "{:.0f}"),
    ("ratio", "Jacobian / VJP", "{:.2f}"),
    ("vs_numpy", "Jacobian / hand-written NumPy", "{:.1f}"),
]
TARGETS = [("Jacobian ≤ 5 × one VJP", "ratio", 5.0)]


def problem(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    return (rng.standard_normal((n, n)) / np.sqrt(n), rng.standard_normal(n), rng.standard_normal(n))


def numpy_jacobian(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    y = np.tanh(w @ x)
    return (1 - y * y)[:, None] * w


def _tf_api(tf: Any, w0: Any, x0: Any, v0: Any) -> dict[str, Callable[[], Any]]:
    """One VJP and the Jacobian in TensorFlow's API (``tf`` is tapegrad or TensorFlow)."""
    w, x, v = tf.constant(w0), tf.constant(x0), tf.constant(v0)

    def f(x: Any) -> Any:
        return tf.tanh(tf.linalg.matvec(w, x))

    def vjp() -> Any:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x, output_gradients=v).numpy()

    def jac(use_pfor: bool = True) -> Callable[[], Any]:
        def run() -> Any:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = f(x)
            return tape.jacobian(y, x, experimental_use_pfor=use_pfor).numpy()
        return run

    out = {"vjp": vjp, "jac": jac(True)}
    if tf.__name__ == "tapegrad":
        jf = tf.autodiff.jacfwd(f)
        out.update(jac_loop=jac(False), jacfwd=lambda: jf(x).numpy())
    return out


def _library(lib: str, w0: np.ndarray, x0: np.ndarray, v0: np.ndarray) -> dict[str, Callable[[], Any]]:
    if lib in ("tapegrad", "tensorflow"):
        import importlib
        return _tf_api(importlib.import_module(lib), w0, x0, v0)
    if lib == "torch":
        import torch
        w, v = torch.from_numpy(w0), torch.from_numpy(v0)
        f = lambda x: torch.tanh(w @ x)  # noqa: E731

        def vjp() -> Any:
            x = torch.tensor(x0, requires_grad=True)
            return torch.autograd.grad(f(x), x, v)[0].numpy()
        jr, xt = torch.func.jacrev(f), torch.from_numpy(x0)
        return {"vjp": vjp, "jac": lambda: jr(xt).numpy()}
    if lib == "jax":
        import jax
        jax.config.update("jax_enable_x64", True)
        import jax.numpy as jnp
        w, x, v = jnp.asarray(w0), jnp.asarray(x0), jnp.asarray(v0)
        f = lambda x: jnp.tanh(w @ x)  # noqa: E731

        def vjp() -> Any:
            _, back = jax.vjp(f, x)
            return np.asarray(back(v)[0])
        jr = jax.jacrev(f)
        return {"vjp": vjp, "jac": lambda: np.asarray(jr(x))}
    if lib == "autograd":
        import autograd
        import autograd.numpy as anp
        f = lambda x: anp.tanh(anp.dot(w0, x))  # noqa: E731

        def vjp() -> Any:
            back, _ = autograd.make_vjp(f)(x0)
            return back(v0)
        ja = autograd.jacobian(f)
        return {"vjp": vjp, "jac": lambda: ja(x0)}
    raise ValueError(f"unknown library {lib!r}; expected one of {LIBS}")


def measure(lib: str, smoke: bool = False, n: int = 256, repeat: int = 21) -> list[dict]:
    if smoke:
        n, repeat = 8, 2
    w0, x0, v0 = problem(n)
    fns = _library(lib, w0, x0, v0)
    want = numpy_jacobian(w0, x0)
    for k in fns:
        got = fns[k]()
        if k.startswith("jac"):
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-13)
        else:
            np.testing.assert_allclose(got, v0 @ want, rtol=1e-10, atol=1e-13)
    main_fns = {"vjp": fns["vjp"], "jac": fns["jac"], "numpy": lambda: numpy_jacobian(w0, x0)}
    t = paired(main_fns, repeat, 0.001 if smoke else 0.05)
    row = {"lib": lib, "vjp_us": t["median"]["vjp"] * 1e6, "jac_us": t["median"]["jac"] * 1e6,
           "ratio": ratio(t, "jac", "vjp"), "vs_numpy": ratio(t, "jac", "numpy")}
    rows = [row]
    for k, label in (("jac_loop", "tapegrad, experimental_use_pfor=False"),
                     ("jacfwd", "tapegrad, autodiff.jacfwd (forward mode)")):
        if k in fns:
            t2 = paired({"vjp": fns["vjp"], k: fns[k], "numpy": main_fns["numpy"]},
                        max(2, repeat // 4), 0.001 if smoke else 0.05)
            rows.append({"lib": label, "vjp_us": t2["median"]["vjp"] * 1e6,
                         "jac_us": t2["median"][k] * 1e6, "ratio": ratio(t2, k, "vjp"),
                         "vs_numpy": ratio(t2, k, "numpy"), "info": True})
    return rows


def main(argv: Any = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=21)
    ap.add_argument("--lib", default="tapegrad", choices=LIBS)
    a = ap.parse_args(argv)
    rows = measure(a.lib, n=a.n, repeat=a.repeat)
    print(f"tanh(W x), R^{a.n} -> R^{a.n}, float64 (median of {a.repeat})")
    for r in rows:
        print(f"  {r['lib']:42s} VJP {r['vjp_us']:9.1f} us  Jacobian {r['jac_us']:10.1f} us "
              f"= {r['ratio']:6.2f} VJPs = {r['vs_numpy']:6.1f} x hand-written NumPy")
    print(f"ratio jacobian / vjp = {rows[0]['ratio']:.2f} (target <= 5)")
    return rows


if __name__ == "__main__":
    main()
