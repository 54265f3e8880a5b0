"""A Keras-style CNN training step on digits-shaped data, against hand-written NumPy.

``Conv2D(16, 3, relu) → MaxPooling2D(2) → Flatten → Dense(10)`` on 8×8×1 images (the shape of
scikit-learn's digits), batch 64, float32: forward, mean sparse softmax cross-entropy, the
gradients of the four parameters and an SGD update, eager in every library. The baseline is the
same step written out by hand in NumPy (im2col convolution, reshaped max pooling, hand-written
backward pass), timed in the same process.
Run: python -m benchmarks.bench_cnn [--lib tapegrad] [--repeat 9]
"""
from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ._harness import LIBS, paired, ratio

NAME = "cnn"
TITLE = "7. CNN training step (digits-shaped)"
DESCRIPTION = (
    "`Conv2D(16, 3, relu) → MaxPooling2D(2) → Flatten → Dense(10)` on 8×8×1 images, batch 64, "
    "float32; mean sparse softmax cross-entropy, gradients of the four parameters, SGD update "
    "(eager: Keras layers under a `GradientTape` in tapegrad and TensorFlow, `torch.autograd.grad` "
    "with `torch.nn.functional`). "
    "Baseline: the same step with an im2col convolution and a hand-written backward pass in "
    "NumPy, in the same process.")
COLUMNS = [
    ("ms", "ms per step", "{:.2f}"),
    ("base_ms", "hand-written NumPy ms", "{:.2f}"),
    ("ratio", "ratio", "{:.2f}"),
]
TARGETS = [("training step ≤ 4 × hand-written NumPy", "ratio", 4.0)]
SUPPORTED = ("tapegrad", "tensorflow", "torch")
LR = 0.1


def init(batch: int = 64, filters: int = 16, seed: int = 0) -> tuple[list, np.ndarray, np.ndarray]:
    """Parameters ``[kernel (3, 3, 1, F), bias (F,), W (F*9, 10), b (10,)]``, images
    ``[batch, 8, 8, 1]`` in [0, 1] and integer labels."""
    rng = np.random.default_rng(seed)
    params = [rng.uniform(-0.4, 0.4, (3, 3, 1, filters)), np.zeros(filters),
              rng.uniform(-0.2, 0.2, (filters * 9, 10)), np.zeros(10)]
    x = rng.integers(0, 17, (batch, 8, 8, 1)) / 16.0
    y = rng.integers(0, 10, batch).astype(np.int32)
    return [p.astype(np.float32) for p in params], x.astype(np.float32), y


def numpy_grad(params: list, x: np.ndarray, y: np.ndarray) -> list:
    """The loss's gradients by a hand-written backward pass."""
    k, b1, w, b2 = params
    n, f = x.shape[0], k.shape[3]
    cols = sliding_window_view(x[..., 0], (3, 3), axis=(1, 2)).reshape(n * 36, 9)
    z = (cols @ k.reshape(9, f) + b1).reshape(n, 6, 6, f)
    h = np.maximum(z, 0)
    win = h.reshape(n, 3, 2, 3, 2, f)
    p = win.max(axis=(2, 4))
    flat = p.reshape(n, 9 * f)
    logits = flat @ w + b2
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    d = e / e.sum(axis=1, keepdims=True)
    d[np.arange(n), y] -= 1
    d /= n
    gw, gb2 = flat.T @ d, d.sum(0)
    dp = (d @ w.T).reshape(n, 3, 1, 3, 1, f)
    dz = ((win == p[:, :, None, :, None, :]) * dp).reshape(n, 6, 6, f) * (z > 0)
    dz = dz.reshape(n * 36, f)
    return [(cols.T @ dz).reshape(k.shape), dz.sum(0), gw, gb2]


def numpy_step(params: list, x: np.ndarray, y: np.ndarray) -> None:
    for p, g in zip(params, numpy_grad(params, x, y)):
        p -= LR * g


def _tf_api(tf: Any, keras: Any, params: list, x: np.ndarray, y: np.ndarray) -> tuple:
    """The step with Keras layers and a ``GradientTape`` (tapegrad's or TensorFlow's)."""
    L = keras.layers
    net = [L.Conv2D(params[0].shape[3], 3, activation="relu"), L.MaxPooling2D(), L.Flatten(), L.Dense(10)]
    xt, yt = tf.constant(x), tf.constant(y)

    def logits() -> Any:
        h = xt
        for layer in net:
            h = layer(h)
        return h

    logits()
    net[0].set_weights(params[:2])
    net[3].set_weights(params[2:])
    ps = net[0].trainable_weights + net[3].trainable_weights

    def grad() -> list:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(yt, logits()))
        return tape.gradient(loss, ps)

    def step() -> None:
        for p, g in zip(ps, grad()):
            p.assign_sub(LR * g)

    return (lambda: [g.numpy() for g in grad()]), step


def _torch(params: list, x: np.ndarray, y: np.ndarray) -> tuple:
    import torch
    import torch.nn.functional as F
    k, b1, w, b2 = params
    ps = [torch.tensor(k.transpose(3, 2, 0, 1).copy(), requires_grad=True), torch.tensor(b1, requires_grad=True),
          torch.tensor(w, requires_grad=True), torch.tensor(b2, requires_grad=True)]
    xt, yt = torch.from_numpy(x.transpose(0, 3, 1, 2).copy()), torch.from_numpy(y.astype(np.int64))

    def grad() -> Any:
        kt, bt, wt, bt2 = ps
        h = F.max_pool2d(F.relu(F.conv2d(xt, kt, bt)), 2)
        logits = h.permute(0, 2, 3, 1).reshape(xt.shape[0], -1) @ wt + bt2   # NHWC flattening order
        return torch.autograd.grad(F.cross_entropy(logits, yt), ps)

    def step() -> None:
        gs = grad()
        with torch.no_grad():
            for p, g in zip(ps, gs):
                p -= LR * g

    def grads() -> list:
        g = [a.numpy() for a in grad()]
        return [g[0].transpose(2, 3, 1, 0)] + g[1:]

    return grads, step


def setup(lib: str, params: list, x: np.ndarray, y: np.ndarray) -> tuple:
    """``(grads, step)`` for ``lib``: the gradients as NumPy arrays in the baseline's layout, and
    one training step (in place on the library's own copy of the parameters)."""
    if lib == "tapegrad":
        import tapegrad
        from tapegrad import keras
        return _tf_api(tapegrad, keras, params, x, y)
    if lib == "tensorflow":
        import tensorflow
        return _tf_api(tensorflow, tensorflow.keras, params, x, y)
    if lib == "torch":
        return _torch(params, x, y)
    raise ValueError(f"unknown library {lib!r}; expected one of {SUPPORTED}")


def measure(lib: str, smoke: bool = False, batch: int = 64, repeat: int = 9) -> list[dict]:
    if lib not in LIBS:
        raise ValueError(f"unknown library {lib!r}; expected one of {LIBS}")
    if lib not in SUPPORTED:
        return []
    if smoke:
        batch, repeat = 4, 2
    params, x, y = init(batch)
    grads, step = setup(lib, params, x, y)
    for a, b in zip(grads(), numpy_grad(params, x, y)):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5 * np.abs(b).max())
    base = [p.copy() for p in params]
    t = paired({"base": lambda: numpy_step(base, x, y), "lib": step}, repeat, 0.001 if smoke else 0.2)
    return [{"lib": lib, "ms": t["median"]["lib"] * 1e3, "base_ms": t["median"]["base"] * 1e3,
             "ratio": ratio(t, "lib", "base")}]


def main(argv: Any = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lib", default="tapegrad", choices=LIBS)
    p.add_argument("--repeat", type=int, default=9)
    a = p.parse_args(argv)
    rows = measure(a.lib, repeat=a.repeat)
    for r in rows:
        print(f"{a.lib} {r['ms']:.2f} ms, hand-written NumPy {r['base_ms']:.2f} ms (ratio {r['ratio']:.2f})")
    return rows


if __name__ == "__main__":
    main()
