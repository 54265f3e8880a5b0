"""``tapegrad.test``: gradient checking.

:func:`compute_gradient` matches ``tf.test.compute_gradient``. :func:`check_grads` is the checker
the test-suite runs over every op: in a random direction it compares reverse mode (the
dot-product test ``<u, J v> == <Jᵀu, v>``), forward mode and central differences, then recurses
on the VJP for second order.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from ._convert import convert_to_tensor
from ._tensor import Tensor, wrap as _wrap

__all__ = ["compute_gradient", "check_grads", "GradientCheckError"]


class GradientCheckError(AssertionError):
    """A derivative disagreed with finite differences (or forward with reverse mode)."""


def _as_arrays(xs: Sequence[Any]) -> list[np.ndarray]:
    return [np.array(convert_to_tensor(x)._value) for x in xs]


def compute_gradient(f: Callable, x: Sequence[Any], delta: float | None = None) -> tuple[list, list]:
    """Theoretical and numerical Jacobians of ``f`` at ``x`` (a list of arguments).

    Returns ``(theoretical, numerical)``: lists with one 2-D array per argument, of shape
    ``[x_size, y_size]`` (as ``tf.test.compute_gradient``). The numerical Jacobian uses central
    differences with step ``delta`` (1/1024 by default, exact in binary).

    >>> import tapegrad as tf
    >>> th, nu = tf.test.compute_gradient(lambda x: x * x, [tf.constant([1.0, 2.0], tf.float64)])
    >>> th[0]
    array([[2., 0.],
           [0., 4.]])
    """
    from ._tape import GradientTape
    delta = 1.0 / 1024 if delta is None else float(delta)
    xs = _as_arrays(x)
    y0 = convert_to_tensor(f(*[_wrap(v) for v in xs]))
    ysize = y0._value.size
    theo, numer = [], []
    for i, xi in enumerate(xs):
        jt = np.zeros((xi.size, ysize), dtype=xi.dtype if xi.dtype.kind in "fc" else np.float64)
        for r in range(ysize):
            ts = [_wrap(v) for v in xs]
            with GradientTape() as tape:
                tape.watch(ts[i])
                y = convert_to_tensor(f(*ts))
            seed = np.zeros(ysize, y._value.dtype)
            seed[r] = 1
            g = tape.gradient(y, ts[i], output_gradients=_wrap(seed.reshape(y._value.shape)),
                              unconnected_gradients="zero")
            jt[:, r] = np.asarray(convert_to_tensor(g)._value).reshape(-1)
        jn = np.zeros_like(jt)
        for c in range(xi.size):
            plus, minus = [v.copy() for v in xs], [v.copy() for v in xs]
            plus[i].reshape(-1)[c] += delta
            minus[i].reshape(-1)[c] -= delta
            yp = np.asarray(convert_to_tensor(f(*[_wrap(v) for v in plus]))._value, dtype=jt.dtype)
            ym = np.asarray(convert_to_tensor(f(*[_wrap(v) for v in minus]))._value, dtype=jt.dtype)
            jn[c, :] = ((yp - ym) / (2 * delta)).reshape(-1)
        theo.append(jt)
        numer.append(jn)
    return theo, numer


def _flat_out(y: Any) -> list[Tensor]:
    from . import _nest
    return [convert_to_tensor(t) for t in _nest.flatten(y)]


def _inner(a: Sequence[np.ndarray], b: Sequence[np.ndarray]) -> float:
    return float(sum(np.real(np.vdot(p, q)) for p, q in zip(a, b)))


def check_grads(f: Callable, args: Sequence[Any], order: int = 2, modes: Sequence[str] = ("rev", "fwd"),
                eps: float | None = None, rtol: float | None = None, atol: float | None = None,
                seed: int = 0) -> None:
    """Check the derivatives of ``f(*args)`` up to ``order`` in a random direction.

    For each order: the reverse-mode VJP passes the dot-product test against central
    differences (``<u, (f(x+εv) - f(x-εv))/2ε> == <VJP(u), v>``), and the forward-mode JVP
    (``"fwd"`` in ``modes``) equals the central difference. The second order checks the function
    ``x -> VJP(u)(x)`` the same way, with the VJP computed under a tape so it is differentiated
    by the library itself. Raises :class:`GradientCheckError` with the numbers on a mismatch.

    Use float64 arguments. ``f`` may return a tensor or a nest of tensors.

    >>> import tapegrad as tf
    >>> tf.test.check_grads(tf.sin, [tf.constant([0.5, 1.0], tf.float64)], order=2)
    """
    from ._tape import GradientTape
    rng = np.random.default_rng(seed)
    xs = _as_arrays(args)
    if any(x.dtype.kind not in "fc" for x in xs):
        raise TypeError("check_grads needs floating or complex arguments.")
    dt = np.result_type(*xs)
    eps = (1e-6 if dt in (np.float64, np.complex128) else 1e-2) if eps is None else eps
    rtol = (1e-5 if dt in (np.float64, np.complex128) else 5e-2) if rtol is None else rtol
    atol = (1e-6 if dt in (np.float64, np.complex128) else 5e-2) if atol is None else atol

    def rand_like(v: np.ndarray) -> np.ndarray:
        r = rng.standard_normal(v.shape)
        if v.dtype.kind == "c":
            r = r + 1j * rng.standard_normal(v.shape)
        return np.asarray(r, v.dtype)

    def call(vals: Sequence[np.ndarray]) -> list[np.ndarray]:
        return [np.asarray(t._value) for t in _flat_out(f(*[_wrap(v) for v in vals]))]

    y0 = call(xs)
    if any(y.dtype.kind not in "fc" for y in y0):
        raise TypeError("check_grads needs f to return floating outputs.")
    v = [rand_like(x) for x in xs]
    u = [rand_like(y) for y in y0]
    yp = call([x + eps * d for x, d in zip(xs, v)])
    ym = call([x - eps * d for x, d in zip(xs, v)])
    fd = [(a - b) / (2 * eps) for a, b in zip(yp, ym)]
    scale = max(1.0, max((float(np.max(np.abs(y))) for y in y0 if y.size), default=1.0))

    def close(a: float, b: float, what: str) -> None:
        if not abs(a - b) <= atol * scale + rtol * max(abs(a), abs(b)):
            raise GradientCheckError(f"{what}: {a!r} != {b!r} (difference {abs(a - b):.3g}; "
                                     f"f={getattr(f, '__name__', f)!s}, order {order})")

    ts = [_wrap(x) for x in xs]
    if "rev" in modes:
        with GradientTape() as tape:
            tape.watch(ts)
            ys = _flat_out(f(*ts))
        gs = tape.gradient(ys, ts, output_gradients=[_wrap(w) for w in u],
                           unconnected_gradients="zero")
        g_arr = [np.asarray(convert_to_tensor(g)._value) for g in gs]
        close(_inner(u, fd), _inner(g_arr, v), "reverse mode (dot-product test) vs finite differences")
    if "fwd" in modes:
        from .autodiff import ForwardAccumulator
        ts2 = [_wrap(x) for x in xs]
        with ForwardAccumulator(ts2, [_wrap(d) for d in v]) as acc:
            ys = _flat_out(f(*ts2))
        jv = acc.jvp(ys, unconnected_gradients="zero")
        for k, (a, b) in enumerate(zip(jv, fd)):
            a = np.asarray(a._value)
            err = np.max(np.abs(a - b)) if a.size else 0.0
            if not err <= atol * scale + rtol * max(float(np.max(np.abs(b))) if b.size else 0.0, 1e-300):
                raise GradientCheckError(f"forward mode vs finite differences, output {k}: max "
                                         f"difference {err:.3g}\njvp={a}\nfd={b}")
    if order > 1:
        def vjp_fn(*vals: Tensor) -> Any:
            with GradientTape() as t2:
                t2.watch(list(vals))
                ys2 = _flat_out(f(*vals))
            return t2.gradient(ys2, list(vals), output_gradients=[_wrap(w) for w in u],
                               unconnected_gradients="zero")
        vjp_fn.__name__ = f"vjp({getattr(f, '__name__', 'f')})"
        check_grads(vjp_fn, xs, order - 1, modes, eps, rtol, atol, seed + 1)
