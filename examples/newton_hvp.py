"""Newton's method without ever forming the Hessian: Newton-CG with Hessian-vector products.

Each Newton step solves ``H p = -g`` by conjugate gradients, which only needs products ``H v``.
Such a product costs about as much as a gradient, two ways:

* forward-over-reverse: a ``ForwardAccumulator`` pushing the tangent ``v`` through the
  computation of the gradient by a ``GradientTape``, so ``acc.jvp(g) = H v``;
* reverse-over-reverse: two nested tapes, the outer one differentiating ``gᵀv``.

(``tf.autodiff.hvp(f, x, v)`` packages the first way in one call; it is a tapegrad extension,
as is ``tf.autodiff.hessian``, used here only to check the products.)

Problems: L2-regularised logistic regression (convex: Newton converges quadratically) and the
Rosenbrock function (not convex: where CG meets negative curvature the system is damped,
``(H + λI) p = -g``, and a backtracking line search keeps every step downhill).

Run: ``python examples/newton_hvp.py [--problem rosenbrock]`` (``--quick``: two Newton steps).
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import tapegrad as tf  # noqa: E402


# --------------------------------------------------------------------------- problems
def logistic_problem(seed: int = 0, n: int = 400, d: int = 20, l2: float = 1e-2):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d))
    w_true = rng.normal(size=d)
    y = (rng.uniform(size=n) < 1 / (1 + np.exp(-x @ w_true))).astype(np.float64)
    xt, yt = tf.constant(x), tf.constant(y)

    def loss(w):
        logits = tf.linalg.matvec(xt, w)
        data = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=yt, logits=logits))
        return data + 0.5 * l2 * tf.reduce_sum(w * w)

    return loss, np.zeros(d)


def rosenbrock_problem(d: int = 10):
    def loss(x):
        return tf.reduce_sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)

    x0 = np.tile([-1.2, 1.0], d // 2)
    return loss, x0


# --------------------------------------------------------------------------- derivatives
def value_and_gradient(f: Callable, x: np.ndarray) -> tuple[float, np.ndarray]:
    w = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(w)
        value = f(w)
    return float(value), tape.gradient(value, w).numpy()


def hvp_forward_over_reverse(f: Callable, x: np.ndarray, v: np.ndarray) -> np.ndarray:
    """H v as the directional derivative (along v) of the gradient."""
    w = tf.constant(x)
    with tf.autodiff.ForwardAccumulator(w, tf.constant(v)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(w)
            value = f(w)
        grad = tape.gradient(value, w)
    return acc.jvp(grad).numpy()


def hvp_reverse_over_reverse(f: Callable, x: np.ndarray, v: np.ndarray) -> np.ndarray:
    """H v as the gradient of gᵀv (the inner tape's gradient is itself recorded)."""
    w, vt = tf.constant(x), tf.constant(v)
    with tf.GradientTape() as outer:
        outer.watch(w)
        with tf.GradientTape() as inner:
            inner.watch(w)
            value = f(w)
        g_dot_v = tf.reduce_sum(inner.gradient(value, w) * vt)
    return outer.gradient(g_dot_v, w).numpy()


def full_hessian(f: Callable, x: np.ndarray) -> np.ndarray:
    """The whole Hessian (for checking only), with tapegrad's functional helper."""
    return tf.autodiff.hessian(f)(tf.constant(x)).numpy()


# --------------------------------------------------------------------------- Newton-CG
def conjugate_gradient(hvp: Callable[[np.ndarray], np.ndarray], g: np.ndarray,
                       max_iter: int, tol: float) -> tuple[np.ndarray | None, int]:
    """Approximately solve H p = -g. Returns (None, k) if CG meets negative curvature."""
    p = np.zeros_like(g)
    r = -g.copy()
    d = r.copy()
    rr = r @ r
    for k in range(max_iter):
        hd = hvp(d)
        curvature = d @ hd
        if curvature <= 0:  # H is not positive definite along d
            return None, k + 1
        a = rr / curvature
        p = p + a * d
        r = r - a * hd
        rr_new = r @ r
        if np.sqrt(rr_new) <= tol:
            return p, k + 1
        d = r + (rr_new / rr) * d
        rr = rr_new
    return p, max_iter


def newton_cg(f: Callable, x0: np.ndarray, iters: int, hvp_fn: Callable, verbose: bool = True):
    """Damped Newton-CG: solve (H + damping I) p = -g, raising the damping where H is not
    positive definite and lowering it after full steps; then a backtracking line search."""
    x = x0.astype(np.float64)
    damping = 0.0
    history = []
    for it in range(iters):
        value, g = value_and_gradient(f, x)
        gnorm = float(np.linalg.norm(g))
        history.append((value, gnorm))
        if verbose:
            print(f"iter {it:3d}  f {value: .10e}  |g| {gnorm:.3e}  damping {damping:.1e}")
        if gnorm < 1e-10:
            break
        tol = min(0.5, np.sqrt(gnorm)) * gnorm  # forcing term: superlinear convergence
        while True:
            lam = damping
            p, _ = conjugate_gradient(lambda v: hvp_fn(f, x, v) + lam * v, g,
                                      max_iter=4 * x.size, tol=tol)
            if p is not None:
                break
            damping = max(4.0 * damping, 1e-3 * max(1.0, gnorm))
        step, slope = 1.0, g @ p
        while True:  # backtracking (Armijo) line search
            trial = x + step * p
            if value_and_gradient(f, trial)[0] <= value + 1e-4 * step * slope or step < 1e-12:
                break
            step *= 0.5
        damping = damping / 4.0 if step == 1.0 else damping
        x = trial
    return x, history


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="two Newton steps only")
    parser.add_argument("--problem", choices=["logistic", "rosenbrock"], default="logistic")
    parser.add_argument("--hvp", choices=["forward-over-reverse", "reverse-over-reverse"],
                        default="forward-over-reverse")
    parser.add_argument("--iters", type=int, default=100)
    args = parser.parse_args(argv)

    f, x0 = logistic_problem() if args.problem == "logistic" else rosenbrock_problem()

    # Every way of computing H v agrees with the full Hessian times v.
    rng = np.random.default_rng(1)
    v = rng.normal(size=x0.size)
    x_check = x0 + 0.1 * rng.normal(size=x0.size)
    exact = full_hessian(f, x_check) @ v
    fwd = hvp_forward_over_reverse(f, x_check, v)
    rev = hvp_reverse_over_reverse(f, x_check, v)
    lib = tf.autodiff.hvp(f, tf.constant(x_check), tf.constant(v)).numpy()
    err = max(np.max(np.abs(h - exact)) for h in (fwd, rev, lib)) / np.max(np.abs(exact))
    print(f"Hessian-vector products against the full Hessian: max relative error {err:.1e}")

    hvp_fn = hvp_forward_over_reverse if args.hvp == "forward-over-reverse" else hvp_reverse_over_reverse
    iters = 2 if args.quick else args.iters
    x, history = newton_cg(f, x0, iters, hvp_fn)
    print(f"{args.problem}: f = {history[-1][0]:.10g} after {len(history)} evaluations, "
          f"|g| = {history[-1][1]:.2e}")
    if args.problem == "rosenbrock":
        print(f"distance to the minimum (1, ..., 1): {np.linalg.norm(x - 1.0):.2e}")
    return {"x": x, "history": history, "hvp_error": float(err)}


if __name__ == "__main__":
    main()
