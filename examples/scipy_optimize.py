"""SciPy's optimizers with exact derivatives from tapegrad: gradients, Hessian-vector products,
Hessians and Jacobians instead of finite differences.

``scipy.optimize.minimize`` takes the objective's gradient with ``jac=True`` (the function returns
``(value, gradient)``), a Hessian-vector product with ``hessp=`` (Newton-CG, trust-ncg,
trust-krylov) and the Hessian with ``hess=`` (trust-exact); ``scipy.optimize.least_squares``
takes the residuals' Jacobian with ``jac=``. Each is a few lines of ``GradientTape``:

* the gradient: one tape;
* ``H p``: a ``ForwardAccumulator`` pushing ``p`` through the tape's gradient (forward-over-
  reverse), about the cost of two gradients and exact, with no Hessian formed;
* ``H``: the Jacobian of the gradient (two nested tapes);
* the Jacobian of a vector of residuals: ``tape.jacobian``.

Problems: the Rosenbrock function in ``--dim`` dimensions (its minimum is all ones; SciPy's
``rosen_der``, ``rosen_hess_prod`` and ``rosen_hess``, written by hand, check the derivatives),
and fitting ``a exp(-b t) + c`` to noisy samples by nonlinear least squares. The output compares
the number of objective evaluations with BFGS on finite-difference gradients.

Run: ``python examples/scipy_optimize.py [--dim 20]`` (``--quick``: 6 dimensions).
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np
from scipy import optimize

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import tapegrad as tf  # noqa: E402


def rosenbrock(x):
    return tf.reduce_sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def value_and_gradient(f, x: np.ndarray) -> tuple[float, np.ndarray]:
    """``(f(x), ∇f(x))`` as NumPy, for ``minimize(..., jac=True)``."""
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return float(y), tape.gradient(y, x).numpy()


def hessian_vector_product(f, x: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``∇²f(x) p`` by forward-over-reverse, for ``minimize(..., hessp=...)``."""
    x = tf.constant(x)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(p)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        g = tape.gradient(y, x)
    return acc.jvp(g).numpy()


def hessian(f, x: np.ndarray) -> np.ndarray:
    """``∇²f(x)``, the Jacobian of the gradient, for ``minimize(..., hess=...)``."""
    x = tf.constant(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return outer.jacobian(g, x).numpy()


def counted(fun):
    """``fun`` with a count of its calls in ``.calls``."""
    def wrapper(*args):
        wrapper.calls += 1
        return fun(*args)
    wrapper.calls = 0
    return wrapper


def check_rosenbrock_derivatives(dim: int, seed: int = 0) -> float:
    """The largest relative difference from SciPy's hand-written Rosenbrock derivatives."""
    rng = np.random.default_rng(seed)
    x, p = rng.normal(size=dim), rng.normal(size=dim)
    pairs = [(value_and_gradient(rosenbrock, x)[1], optimize.rosen_der(x)),
             (hessian_vector_product(rosenbrock, x, p), optimize.rosen_hess_prod(x, p)),
             (hessian(rosenbrock, x), optimize.rosen_hess(x))]
    worst = max(float(np.max(np.abs(a - b)) / np.max(np.abs(b))) for a, b in pairs)
    print(f"gradient, H p and H against SciPy's rosen_der/rosen_hess_prod/rosen_hess: {worst:.1e}")
    return worst


def minimize_rosenbrock(dim: int) -> dict:
    x0 = np.zeros(dim)
    fg = lambda x: value_and_gradient(rosenbrock, x)  # noqa: E731
    runs = {
        "BFGS, finite differences": dict(fun=lambda x: float(rosenbrock(tf.constant(x))), method="BFGS"),
        "BFGS, exact gradient": dict(fun=fg, jac=True, method="BFGS"),
        "Newton-CG, exact H p": dict(fun=fg, jac=True, method="Newton-CG",
                                     hessp=lambda x, p: hessian_vector_product(rosenbrock, x, p)),
        "trust-krylov, exact H p": dict(fun=fg, jac=True, method="trust-krylov",
                                        hessp=lambda x, p: hessian_vector_product(rosenbrock, x, p)),
        "trust-exact, exact H": dict(fun=fg, jac=True, method="trust-exact",
                                     hess=lambda x: hessian(rosenbrock, x)),
    }
    out = {}
    for name, kw in runs.items():
        fun = counted(kw.pop("fun"))
        res = optimize.minimize(fun, x0, options={"maxiter": 2000}, **kw)
        err = float(np.max(np.abs(res.x - 1.0)))
        out[name] = {"x": res.x, "error": err, "evaluations": fun.calls, "success": bool(res.success)}
        print(f"{name:26s} {fun.calls:6d} evaluations   max |x - 1| = {err:.1e}")
    return out


def fit_decay(seed: int = 0) -> dict:
    """``a exp(-b t) + c`` fitted by ``least_squares`` with the residuals' exact Jacobian."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0.0, 4.0, 50)
    truth = np.array([2.5, 1.3, 0.5])
    data = truth[0] * np.exp(-truth[1] * t) + truth[2] + rng.normal(scale=0.01, size=t.shape)
    tt, dd = tf.constant(t), tf.constant(data)

    def residuals(theta):
        return theta[0] * tf.exp(-theta[1] * tt) + theta[2] - dd

    def jacobian(theta: np.ndarray) -> np.ndarray:
        theta = tf.constant(theta)
        with tf.GradientTape() as tape:
            tape.watch(theta)
            r = residuals(theta)
        return tape.jacobian(r, theta).numpy()          # shape (50, 3)

    res = optimize.least_squares(lambda th: residuals(tf.constant(th)).numpy(), [1.0, 1.0, 0.0],
                                 jac=jacobian, method="lm")
    print(f"least_squares: a, b, c = {np.round(res.x, 3)} (true {truth}), {res.nfev} evaluations")
    return {"theta": res.x, "truth": truth, "jacobian": jacobian, "residuals": residuals}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dim", type=int, default=20, help="Rosenbrock's dimension (even)")
    parser.add_argument("--quick", action="store_true", help="6 dimensions")
    args = parser.parse_args(argv)
    dim = 6 if args.quick else args.dim
    if dim < 2 or dim % 2:
        parser.error(f"--dim must be an even number >= 2; got {dim}")
    return {"derivative_error": check_rosenbrock_derivatives(dim), "rosenbrock": minimize_rosenbrock(dim),
            "decay": fit_decay()}


if __name__ == "__main__":
    main()
