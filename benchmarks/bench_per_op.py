"""Per-op overhead: a chain of elementwise ops on a small array, forward under a tape plus gradient.

The chain repeats ``y = sin(y * 1.0001 + 0.001)`` (three ops) on a 10-element float64 array,
999 ops in all. Reports microseconds per op for the library and for hand-written NumPy (forward
and backward written out by hand) measured in the same process, and their ratio; also the cost of
the same chain with no tape active over bare NumPy calls.
Run: python -m benchmarks.bench_per_op [--n 999] [--repeat 15]
"""
from __future__ import annotations

import argparse
import statistics
from typing import Any, Callable

import numpy as np

from ._harness import LIBS, paired, ratio

NAME = "per_op"
TITLE = "1. Per-op overhead"
DESCRIPTION = (
    "A chain of 999 elementwise ops (`y = sin(y * 1.0001 + 0.001)` repeated) on a 10-element "
    "float64 array: forward under a tape plus `gradient` (each library's own way: "
    "`GradientTape`, `torch.autograd.grad`, `jax.vjp` without `jit`, `autograd.make_vjp`). "
    "Baseline: the same forward and its backward written out by hand in NumPy. *No tape*: the "
    "same chain with no tape active; its overhead is the time over bare NumPy calls, per op, "
    "as a fraction of the hand-written forward+backward time per op.")
COLUMNS = [
    ("us_per_op", "µs/op (tape + gradient)", "{:.2f}"),
    ("base_us_per_op", "hand-written NumPy µs/op", "{:.2f}"),
    ("ratio", "ratio", "{:.2f}"),
    ("notape_us_per_op", "no tape µs/op", "{:.2f}"),
    ("bare_us_per_op", "bare NumPy µs/op", "{:.2f}"),
    ("notape_overhead_us", "no-tape overhead µs/op", "{:.2f}"),
    ("overhead_ratio", "overhead / hand-written op", "{:.2f}"),
]
TARGETS = [
    ("tape + gradient ≤ 3.0 × hand-written NumPy (the default, pure-Python install)", "ratio", 3.0),
    ("no-tape overhead ≤ 0.55 × a hand-written NumPy op (0.6 µs of 1.1)", "overhead_ratio", 0.55),
]


def chain_numpy(x0: np.ndarray, n: int) -> np.ndarray:
    # forward: y = sin(y * 1.0001 + 0.001), keeping what backward needs
    saved = []
    y = x0
    for _ in range(n // 3):
        a = y * 1.0001
        b = a + 0.001
        saved.append(b)
        y = np.sin(b)
    g = np.ones_like(y)
    for b in reversed(saved):
        g = g * np.cos(b)
        g = g * 1.0001
    return g


def chain_tapegrad(tf: Any, x0: Any, n: int) -> Any:
    """Forward under a tape and gradient; ``tf`` is tapegrad or TensorFlow (the same code)."""
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(n // 3):
            y = tf.sin(y * 1.0001 + 0.001)
    return tape.gradient(y, x)


def chain_notape(tf: Any, x0: Any, n: int) -> Any:
    y = tf.constant(x0)
    for _ in range(n // 3):
        y = tf.sin(y * 1.0001 + 0.001)
    return y


def chain_bare(x0: np.ndarray, n: int) -> np.ndarray:
    y = x0
    for _ in range(n // 3):
        y = np.sin(y * 1.0001 + 0.001)
    return y


def _library(lib: str, x0: np.ndarray, n: int) -> tuple[Callable[[], Any], Callable[[], Any] | None]:
    """(forward + gradient, forward with no tape) for ``lib``; each returns a NumPy array."""
    k = n // 3
    if lib in ("tapegrad", "tensorflow"):
        import importlib
        tf = importlib.import_module(lib)
        return (lambda: chain_tapegrad(tf, x0, n).numpy()), (lambda: chain_notape(tf, x0, n).numpy())
    if lib == "torch":
        import torch
        x = torch.tensor(x0, requires_grad=True)
        xc = torch.tensor(x0)

        def grad() -> Any:
            y = x
            for _ in range(k):
                y = torch.sin(y * 1.0001 + 0.001)
            return torch.autograd.grad(y, x, torch.ones_like(y))[0].numpy()

        def fwd() -> Any:
            y = xc
            for _ in range(k):
                y = torch.sin(y * 1.0001 + 0.001)
            return y.numpy()
        return grad, fwd
    if lib == "jax":
        import jax
        jax.config.update("jax_enable_x64", True)
        import jax.numpy as jnp
        xj = jnp.asarray(x0)

        def f(y: Any) -> Any:
            for _ in range(k):
                y = jnp.sin(y * 1.0001 + 0.001)
            return y

        def grad() -> Any:
            y, vjp = jax.vjp(f, xj)
            return np.asarray(vjp(jnp.ones_like(y))[0])
        return grad, (lambda: np.asarray(f(xj)))
    if lib == "autograd":
        import autograd.numpy as anp
        from autograd import make_vjp

        def fa(y: Any) -> Any:
            for _ in range(k):
                y = anp.sin(y * 1.0001 + 0.001)
            return y

        def grad() -> Any:
            vjp, y = make_vjp(fa)(x0)
            return vjp(np.ones_like(y))
        return grad, None   # with no tape, autograd runs plain NumPy
    raise ValueError(f"unknown library {lib!r}; expected one of {LIBS}")


def measure(lib: str, smoke: bool = False, n: int = 999, repeat: int = 15) -> list[dict]:
    if smoke:
        n, repeat = 30, 2
    x0 = np.linspace(0.1, 1.0, 10)
    grad, fwd = _library(lib, x0, n)
    np.testing.assert_allclose(grad(), chain_numpy(x0, n), rtol=1e-10)
    fns = {"base": lambda: chain_numpy(x0, n), "lib": grad, "bare": lambda: chain_bare(x0, n)}
    if fwd is not None:
        fns["notape"] = fwd
    t = paired(fns, 2 if smoke else (5 if lib == "jax" else repeat), 0.001 if smoke else 0.05)
    m = {k: v / n * 1e6 for k, v in t["median"].items()}
    row = {"lib": lib, "us_per_op": m["lib"], "base_us_per_op": m["base"],
           "ratio": ratio(t, "lib", "base"), "bare_us_per_op": m["bare"]}
    if fwd is not None:
        s = t["samples"]
        over = statistics.median((a - b) / c for a, b, c in zip(s["notape"], s["bare"], s["base"]))
        row.update(notape_us_per_op=m["notape"], notape_overhead_us=m["notape"] - m["bare"],
                   overhead_ratio=over)
    return [row]


def main(argv: Any = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=999)
    p.add_argument("--repeat", type=int, default=15)
    p.add_argument("--lib", default="tapegrad", choices=LIBS)
    a = p.parse_args(argv)
    rows = measure(a.lib, n=a.n, repeat=a.repeat)
    r = rows[0]
    print(f"per op, forward under a tape + gradient: {a.lib} {r['us_per_op']:.2f} us, hand-written "
          f"NumPy {r['base_us_per_op']:.2f} us (ratio {r['ratio']:.2f})")
    if "notape_us_per_op" in r:
        print(f"per op, no tape: {a.lib} {r['notape_us_per_op']:.2f} us, bare NumPy "
              f"{r['bare_us_per_op']:.2f} us (overhead {r['notape_overhead_us']:.2f} us = "
              f"{r['overhead_ratio']:.2f} x a hand-written op)")
    return rows


if __name__ == "__main__":
    main()
