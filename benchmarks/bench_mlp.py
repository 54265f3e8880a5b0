"""Large work: a 3-layer MLP (1024 wide, batch 256), forward and backward, float32 and float64.

Each library computes the loss and the gradients of all six parameters; the baseline is the same
network with its backward pass written out by hand in NumPy, timed in the same process. BLAS does
almost all the work, so the ratio shows what the library adds on top of it.
The MLP builders here are shared with the memory and second-order workloads.
Run: python -m benchmarks.bench_mlp [--lib tapegrad] [--repeat 9]
"""
from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from ._harness import LIBS, paired, ratio

NAME = "mlp"
TITLE = "2. Large work: MLP forward and backward"
DESCRIPTION = (
    "`x (256×1024) → relu(x W1 + b1) → relu(· W2 + b2) → · W3 + b3`, every layer 1024 wide, loss "
    "`0.5 · sum((out − y)²) / 256`; forward and the gradients of all six parameters (eager: "
    "`GradientTape`, `torch.autograd.grad`, `jax.grad` without `jit`, `autograd.grad`). Baseline: "
    "the same network with a hand-written NumPy backward pass, in the same process.")
COLUMNS = [
    ("dtype", "dtype", "{}"),
    ("ms", "ms per step", "{:.1f}"),
    ("base_ms", "hand-written NumPy ms", "{:.1f}"),
    ("ratio", "ratio", "{:.3f}"),
]
TARGETS = [("forward + backward ≤ 1.05 × hand-written NumPy (each dtype)", "ratio", 1.05)]


# --------------------------------------------------------------------------- the network
def init(width: int, batch: int, dtype: Any, seed: int = 0) -> tuple[list, np.ndarray, np.ndarray]:
    """Parameters ``[W1, b1, W2, b2, W3, b3]``, inputs ``x`` and targets ``y`` (NumPy arrays)."""
    rng = np.random.default_rng(seed)
    params = []
    for _ in range(3):
        params.append((rng.standard_normal((width, width)) / np.sqrt(width)).astype(dtype))
        params.append((0.1 * rng.standard_normal(width)).astype(dtype))
    x = rng.standard_normal((batch, width)).astype(dtype)
    y = rng.standard_normal((batch, width)).astype(dtype)
    return params, x, y


def _act_np(z: np.ndarray, act: str) -> np.ndarray:
    return np.maximum(z, 0) if act == "relu" else np.tanh(z)


def numpy_grad(params: list, x: np.ndarray, y: np.ndarray, act: str = "relu") -> list:
    """Loss gradients by a hand-written backward pass."""
    w1, b1, w2, b2, w3, b3 = params
    n = x.shape[0]
    z1 = x @ w1 + b1
    h1 = _act_np(z1, act)
    z2 = h1 @ w2 + b2
    h2 = _act_np(z2, act)
    r = h2 @ w3 + b3 - y
    d3 = r * (1.0 / n)
    gw3, gb3 = h2.T @ d3, d3.sum(0)
    d2 = d3 @ w3.T
    d2 *= (z2 > 0) if act == "relu" else 1 - h2 * h2
    gw2, gb2 = h1.T @ d2, d2.sum(0)
    d1 = d2 @ w2.T
    d1 *= (z1 > 0) if act == "relu" else 1 - h1 * h1
    gw1, gb1 = x.T @ d1, d1.sum(0)
    return [gw1, gb1, gw2, gb2, gw3, gb3]


def numpy_step(params: list, x: np.ndarray, y: np.ndarray, lr: float = 1e-3) -> None:
    """One SGD training step, in place."""
    for p, g in zip(params, numpy_grad(params, x, y)):
        p -= lr * g


def tf_loss(tf: Any, params: Any, x: Any, y: Any, act: str = "relu") -> Any:
    """The loss in TensorFlow's API (``tf`` is tapegrad or TensorFlow)."""
    w1, b1, w2, b2, w3, b3 = params
    f = tf.nn.relu if act == "relu" else tf.tanh
    h = f(tf.matmul(x, w1) + b1)
    h = f(tf.matmul(h, w2) + b2)
    r = tf.matmul(h, w3) + b3 - y
    return tf.reduce_sum(r * r) * (0.5 / x.shape[0])


class Net:
    """The MLP in one library: ``grad()`` (NumPy arrays), ``step()`` (one SGD step) and
    ``hvp()`` (Hessian-vector product with fixed directions ``v``), all eager."""

    def __init__(self, lib: str, params: list, x: np.ndarray, y: np.ndarray, act: str = "relu") -> None:
        self.lib = lib
        rng = np.random.default_rng(1)
        vs = [rng.standard_normal(p.shape).astype(p.dtype) for p in params]
        getattr(self, "_setup_" + lib)(params, x, y, vs, act)

    def _setup_tapegrad(self, params: list, x: Any, y: Any, vs: list, act: str) -> None:
        import tapegrad
        self._setup_tf_api(tapegrad, params, x, y, vs, act)

    def _setup_tensorflow(self, params: list, x: Any, y: Any, vs: list, act: str) -> None:
        import tensorflow
        self._setup_tf_api(tensorflow, params, x, y, vs, act)

    def _setup_tf_api(self, tf: Any, params: list, x: Any, y: Any, vs: list, act: str) -> None:
        ps = [tf.Variable(p) for p in params]
        xt, yt = tf.constant(x), tf.constant(y)
        vt = [tf.constant(v) for v in vs]

        def grad(persistent: bool = False) -> Any:
            with tf.GradientTape(persistent=persistent) as tape:
                loss = tf_loss(tf, ps, xt, yt, act)
            return tape.gradient(loss, ps), tape

        def step() -> None:
            gs, _ = grad()
            for p, g in zip(ps, gs):
                p.assign_sub(1e-3 * g)

        def hvp() -> list:
            with tf.GradientTape() as outer:
                with tf.GradientTape() as inner:
                    loss = tf_loss(tf, ps, xt, yt, act)
                gs = inner.gradient(loss, ps)
                gv = tf.add_n([tf.reduce_sum(g * v) for g, v in zip(gs, vt)])
            return [h.numpy() for h in outer.gradient(gv, ps)]

        self.grad = lambda: [g.numpy() for g in grad()[0]]
        self.grad_persistent_tape = lambda: grad(True)
        self.step, self.hvp = step, hvp

    def _setup_torch(self, params: list, x: Any, y: Any, vs: list, act: str) -> None:
        import torch
        ps = [torch.tensor(p, requires_grad=True) for p in params]
        xt, yt = torch.from_numpy(x), torch.from_numpy(y)
        vt = [torch.from_numpy(v) for v in vs]
        f = torch.relu if act == "relu" else torch.tanh

        def loss() -> Any:
            w1, b1, w2, b2, w3, b3 = ps
            h = f(xt @ w1 + b1)
            h = f(h @ w2 + b2)
            r = h @ w3 + b3 - yt
            return (r * r).sum() * (0.5 / xt.shape[0])

        def hvp() -> list:
            gs = torch.autograd.grad(loss(), ps, create_graph=True)
            gv = sum((g * v).sum() for g, v in zip(gs, vt))
            return [h.numpy() for h in torch.autograd.grad(gv, ps)]

        self.grad = lambda: [g.numpy() for g in torch.autograd.grad(loss(), ps)]
        self.hvp = hvp

    def _setup_jax(self, params: list, x: Any, y: Any, vs: list, act: str) -> None:
        import jax
        jax.config.update("jax_enable_x64", True)
        import jax.numpy as jnp
        ps = [jnp.asarray(p) for p in params]
        xt, yt = jnp.asarray(x), jnp.asarray(y)
        vt = [jnp.asarray(v) for v in vs]
        f = jax.nn.relu if act == "relu" else jnp.tanh

        def loss(p: list) -> Any:
            w1, b1, w2, b2, w3, b3 = p
            h = f(xt @ w1 + b1)
            h = f(h @ w2 + b2)
            r = h @ w3 + b3 - yt
            return jnp.sum(r * r) * (0.5 / xt.shape[0])

        g = jax.grad(loss)
        self.grad = lambda: [np.asarray(a) for a in g(ps)]
        self.hvp = lambda: [np.asarray(a) for a in jax.jvp(g, (ps,), (vt,))[1]]

    def _setup_autograd(self, params: list, x: Any, y: Any, vs: list, act: str) -> None:
        import autograd.numpy as anp
        from autograd import grad

        def loss(p: list) -> Any:
            w1, b1, w2, b2, w3, b3 = p
            h = anp.dot(x, w1) + b1
            h = anp.maximum(h, 0) if act == "relu" else anp.tanh(h)
            h = anp.dot(h, w2) + b2
            h = anp.maximum(h, 0) if act == "relu" else anp.tanh(h)
            r = anp.dot(h, w3) + b3 - y
            return anp.sum(r * r) * (0.5 / x.shape[0])

        g = grad(loss)
        gv = grad(lambda p: sum(anp.sum(a * v) for a, v in zip(g(p), vs)))
        ps = [p.copy() for p in params]

        def step() -> None:
            for p, d in zip(ps, g(ps)):
                p -= 1e-3 * d

        self.grad = lambda: list(g(ps))
        self.step = step
        self.hvp = lambda: list(gv(ps))


# --------------------------------------------------------------------------- the workload
def measure(lib: str, smoke: bool = False, width: int = 1024, batch: int = 256,
            repeat: int = 9) -> list[dict]:
    if smoke:
        width, batch, repeat = 16, 4, 2
    rows = []
    for dtype in (np.float32, np.float64):
        params, x, y = init(width, batch, dtype)
        net = Net(lib, params, x, y)
        tol = 2e-3 if dtype == np.float32 else 1e-9
        for a, b in zip(net.grad(), numpy_grad(params, x, y)):
            np.testing.assert_allclose(a, b, rtol=tol, atol=tol * np.abs(b).max())
        t = paired({"base": lambda: numpy_grad(params, x, y), "lib": net.grad},
                   repeat, 0.001 if smoke else 0.2)
        rows.append({"lib": lib, "dtype": np.dtype(dtype).name, "ms": t["median"]["lib"] * 1e3,
                     "base_ms": t["median"]["base"] * 1e3, "ratio": ratio(t, "lib", "base")})
    return rows


def main(argv: Any = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lib", default="tapegrad", choices=LIBS)
    p.add_argument("--repeat", type=int, default=9)
    a = p.parse_args(argv)
    rows = measure(a.lib, repeat=a.repeat)
    for r in rows:
        print(f"{r['dtype']}: {a.lib} {r['ms']:.1f} ms, hand-written NumPy {r['base_ms']:.1f} ms "
              f"(ratio {r['ratio']:.3f})")
    return rows


if __name__ == "__main__":
    main()
