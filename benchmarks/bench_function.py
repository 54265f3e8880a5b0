"""``tf.function``: traced training steps against hand-written NumPy and the peers' compilers.

Three workloads, each a whole step inside ``@tf.function`` (TensorFlow's own ``tf.function`` for
TensorFlow; PyTorch eager and ``torch.compile`` for PyTorch):

* chain: 333 × ``y = sin(y * 1.0001 + 0.001)`` on 10 float64 numbers, forward and gradient (the
  per-op overhead workload of ``bench_per_op``, traced);
* MLP: one SGD step of ``bench_mlp``'s 3-layer network (1024 wide, batch 256, float32; BLAS-bound);
* CNN: one SGD step of Conv2D(8 filters 3×3, VALID) – ReLU – MaxPool 2×2 – Dense(10) – softmax
  cross-entropy on digits-shaped data (8×8×1, batch 64, float32).

Each row gives the first call (tracing and compiling), a later call, the hand-written NumPy step
measured in the same process and their ratio.
Run: python -m benchmarks.bench_function [--lib tapegrad] [--repeat 9]
"""
from __future__ import annotations

import argparse
import functools
import time
from typing import Any, Callable

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from . import bench_mlp, bench_per_op
from ._harness import LIBS, paired, ratio

NAME = "function"
TITLE = "8. tf.function: traced steps"
DESCRIPTION = (
    "A whole step inside `@tf.function` (TensorFlow: its `tf.function`; PyTorch: eager, and "
    "`torch.compile` where it compiles): *chain*, 333 × `sin(y·1.0001 + 0.001)` on 10 float64 "
    "numbers, forward and gradient; *MLP*, one SGD step of the 1024-wide 3-layer MLP at batch 256 "
    "(float32); *CNN*, one SGD step of Conv2D(8, 3×3)–ReLU–MaxPool(2)–Dense(10)–softmax "
    "cross-entropy on 8×8×1 images, batch 64 (float32). *First call*: tracing and compiling. "
    "Baseline: the same step written by hand in NumPy, in the same process.")
SUPPORTED = ("tapegrad", "tensorflow", "torch")
COLUMNS = [
    ("dtype", "workload", "{}"),
    ("first_ms", "first call ms", "{:.1f}"),
    ("ms", "later call ms", "{:.3f}"),
    ("base_ms", "hand-written NumPy ms", "{:.3f}"),
    ("ratio", "ratio", "{:.2f}"),
]
TARGETS = [("traced chain ≤ 1.2 × hand-written NumPy", "chain_ratio", 1.2)]


# --------------------------------------------------------------------------- the CNN
def cnn_init(batch: int = 64, seed: int = 0) -> tuple[list, np.ndarray, np.ndarray]:
    """Parameters ``[kernel, kernel bias, W, b]``, images ``x`` and one-hot labels ``y``."""
    rng = np.random.default_rng(seed)
    params = [(rng.standard_normal((3, 3, 1, 8)) / 3).astype(np.float32), np.zeros(8, np.float32),
              (rng.standard_normal((72, 10)) / np.sqrt(72)).astype(np.float32), np.zeros(10, np.float32)]
    x = rng.uniform(0, 1, (batch, 8, 8, 1)).astype(np.float32)
    y = np.eye(10, dtype=np.float32)[rng.integers(0, 10, batch)]
    return params, x, y


def cnn_numpy_grad(params: list, x: np.ndarray, y: np.ndarray) -> list:
    """The CNN's gradients by a hand-written backward pass."""
    k, kb, w, b = params
    n = x.shape[0]
    cols = sliding_window_view(x[..., 0], (3, 3), axis=(1, 2)).reshape(n * 36, 9)
    z = (cols @ k.reshape(9, 8)).reshape(n, 6, 6, 8) + kb
    h = np.maximum(z, 0)
    hp = h.reshape(n, 3, 2, 3, 2, 8)
    m = hp.max(axis=(2, 4))
    flat = m.reshape(n, 72)
    logits = flat @ w + b
    e = np.exp(logits - logits.max(1, keepdims=True))
    d = (e / e.sum(1, keepdims=True) - y) / n
    gw, gb = flat.T @ d, d.sum(0)
    dm = (d @ w.T).reshape(n, 3, 1, 3, 1, 8)
    dz = ((hp == m[:, :, None, :, None, :]) * dm).reshape(n, 6, 6, 8) * (z > 0)
    dz2 = dz.reshape(n * 36, 8)
    return [(cols.T @ dz2).reshape(3, 3, 1, 8), dz2.sum(0), gw, gb]


def cnn_loss(tf: Any, ps: list, x: Any, y: Any) -> Any:
    """The CNN's loss in TensorFlow's API (``tf`` is tapegrad or TensorFlow)."""
    k, kb, w, b = ps
    h = tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, k, 1, "VALID") + kb), 2, 2, "VALID")
    logits = tf.matmul(tf.reshape(h, [-1, 72]), w) + b
    return tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(y, logits))


def _sgd_numpy(grad: Callable, params: list, x: np.ndarray, y: np.ndarray, lr: float) -> Callable:
    ps = [p.copy() for p in params]

    def step() -> None:
        for p, g in zip(ps, grad(ps, x, y)):
            p -= lr * g
    return step


# --------------------------------------------------------------------------- the libraries
def _sizes(smoke: bool) -> tuple[int, tuple[int, int], int]:
    """Chain length, MLP (width, batch), CNN batch."""
    return (30, (16, 4), 8) if smoke else (999, (1024, 256), 64)


def _tf_steps(tf: Any, smoke: bool) -> dict:
    """(step, check) per workload with ``tf`` = tapegrad or TensorFlow: ``step`` is the traced
    function's call, ``check()`` its result to compare with NumPy's."""
    out = {}
    n, (width, batch), cnn_batch = _sizes(smoke)
    x0 = np.linspace(0.1, 1.0, 10)
    @tf.function
    def chain(x: Any) -> Any:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = functools.reduce(lambda y, _: tf.sin(y * 1.0001 + 0.001), range(n // 3), x)
        return tape.gradient(y, x)

    xc = tf.constant(x0)
    out["chain"] = (lambda: chain(xc), lambda: chain(xc).numpy(), lambda: bench_per_op.chain_numpy(x0, n))
    for name, (params, x, y), loss, grad, lr in (
            ("MLP", bench_mlp.init(width, batch, np.float32), lambda ps, x, y: bench_mlp.tf_loss(tf, ps, x, y),
             bench_mlp.numpy_grad, 1e-3),
            ("CNN", cnn_init(cnn_batch), lambda ps, x, y: cnn_loss(tf, ps, x, y), cnn_numpy_grad, 0.1)):
        vs = [tf.Variable(p) for p in params]
        xt, yt = tf.constant(x), tf.constant(y)

        @tf.function
        def step(x: Any, y: Any, vs: list = vs, loss: Callable = loss, lr: float = lr) -> Any:
            with tf.GradientTape() as tape:
                value = loss(vs, x, y)
            for v, g in zip(vs, tape.gradient(value, vs)):
                v.assign_sub(lr * g)
            return value

        def check(vs: list = vs, params: list = params, step: Any = step, xt: Any = xt, yt: Any = yt) -> list:
            for v, p in zip(vs, params):
                v.assign(p)
            step(xt, yt)
            return [v.numpy() for v in vs]

        def want(params: list = params, x: Any = x, y: Any = y, grad: Callable = grad, lr: float = lr) -> list:
            return [p - lr * g for p, g in zip(params, grad(params, x, y))]

        out[name] = (lambda step=step, xt=xt, yt=yt: step(xt, yt), check, want)
    return out


def _torch_steps(compiled: bool, smoke: bool) -> dict:
    import torch
    out = {}
    n, (width, batch), cnn_batch = _sizes(smoke)
    wrap = torch.compile if compiled else (lambda f: f)
    x0 = np.linspace(0.1, 1.0, 10)
    xc = torch.tensor(x0)

    def chain(x: Any) -> Any:
        x = x.detach().requires_grad_(True)
        y = x
        for _ in range(n // 3):
            y = torch.sin(y * 1.0001 + 0.001)
        return torch.autograd.grad(y, x, torch.ones_like(y))[0]
    chain = wrap(chain)
    out["chain"] = (lambda: chain(xc), lambda: chain(xc).numpy(), lambda: bench_per_op.chain_numpy(x0, n))

    def mlp_loss(ps: list, x: Any, y: Any) -> Any:
        w1, b1, w2, b2, w3, b3 = ps
        h = torch.relu(torch.relu(x @ w1 + b1) @ w2 + b2)
        r = h @ w3 + b3 - y
        return (r * r).sum() * (0.5 / x.shape[0])

    def cnn_loss_t(ps: list, x: Any, y: Any) -> Any:
        k, kb, w, b = ps
        z = torch.nn.functional.conv2d(x.permute(0, 3, 1, 2), k.permute(3, 2, 0, 1), kb)
        h = torch.nn.functional.max_pool2d(torch.relu(z), 2).permute(0, 2, 3, 1).reshape(-1, 72)
        return torch.nn.functional.cross_entropy(h @ w + b, y)

    for name, (params, x, y), loss, grad, lr in (
            ("MLP", bench_mlp.init(width, batch, np.float32), mlp_loss, bench_mlp.numpy_grad, 1e-3),
            ("CNN", cnn_init(cnn_batch), cnn_loss_t, cnn_numpy_grad, 0.1)):
        ps = [torch.tensor(p, requires_grad=True) for p in params]
        xt, yt = torch.from_numpy(x), torch.from_numpy(y)

        def step(ps: list = ps, loss: Callable = loss, lr: float = lr, xt: Any = xt, yt: Any = yt) -> Any:
            value = loss(ps, xt, yt)
            gs = torch.autograd.grad(value, ps)
            with torch.no_grad():
                for p, g in zip(ps, gs):
                    p.sub_(lr * g)
            return value
        step = wrap(step)

        def check(ps: list = ps, params: list = params, step: Any = step) -> list:
            with torch.no_grad():
                for p, v in zip(ps, params):
                    p.copy_(torch.from_numpy(v))
            step()
            return [p.detach().numpy().copy() for p in ps]

        def want(params: list = params, x: Any = x, y: Any = y, grad: Callable = grad, lr: float = lr) -> list:
            return [p - lr * g for p, g in zip(params, grad(params, x, y))]

        out[name] = (step, check, want)
    return out


def _numpy_base(name: str, smoke: bool) -> Callable:
    n, (width, batch), cnn_batch = _sizes(smoke)
    if name == "chain":
        x0 = np.linspace(0.1, 1.0, 10)
        return lambda: bench_per_op.chain_numpy(x0, n)
    if name == "MLP":
        params, x, y = bench_mlp.init(width, batch, np.float32)
        return _sgd_numpy(bench_mlp.numpy_grad, params, x, y, 1e-3)
    params, x, y = cnn_init(cnn_batch)
    return _sgd_numpy(cnn_numpy_grad, params, x, y, 0.1)


def _rows(lib: str, label: str, steps: dict, smoke: bool, repeat: int) -> list[dict]:
    rows = []
    for name, (call, check, want) in steps.items():
        t0 = time.perf_counter()
        call()
        first = time.perf_counter() - t0
        got, exp = check(), want()
        for a, b in zip(got if isinstance(got, list) else [got], exp if isinstance(exp, list) else [exp]):
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5 * float(np.abs(b).max()))
        t = paired({"base": _numpy_base(name, smoke), "lib": call}, 2 if smoke else repeat,
                   0.001 if smoke else 0.1)
        row = {"lib": lib, "dtype": name + label, "first_ms": first * 1e3, "ms": t["median"]["lib"] * 1e3,
               "base_ms": t["median"]["base"] * 1e3, "ratio": ratio(t, "lib", "base")}
        if name == "chain" and lib == "tapegrad":
            row["chain_ratio"] = row["ratio"]
        rows.append(row)
    return rows


def measure(lib: str, smoke: bool = False, repeat: int = 9) -> list[dict]:
    if lib in ("tapegrad", "tensorflow"):
        import importlib
        return _rows(lib, "", _tf_steps(importlib.import_module(lib), smoke), smoke, repeat)
    if lib == "torch":
        rows = _rows(lib, " (eager)", _torch_steps(False, smoke), smoke, repeat)
        try:
            rows += _rows(lib, " (torch.compile)", _torch_steps(True, smoke), smoke, repeat)
        except Exception:  # (torch.compile needs a working C++ toolchain; eager rows stand alone)
            pass
        return rows
    return []


def main(argv: Any = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lib", default="tapegrad", choices=LIBS)
    p.add_argument("--repeat", type=int, default=9)
    a = p.parse_args(argv)
    rows = measure(a.lib, repeat=a.repeat)
    for r in rows:
        print(f"{r['dtype']}: {a.lib} first call {r['first_ms']:.1f} ms, later {r['ms']:.3f} ms, "
              f"hand-written NumPy {r['base_ms']:.3f} ms (ratio {r['ratio']:.2f})")
    return rows


if __name__ == "__main__":
    main()
