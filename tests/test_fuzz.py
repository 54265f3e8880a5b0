"""Property-based tests: random programs built from the op table, differentiated three ways.

Hypothesis draws a small program (a DAG of 2-6 ops from the list below, applied to 1-3 inputs of
random shapes: 0-d, size-0, broadcasting pairs; float32 or float64). ``tapegrad.test.check_grads``
then checks, at first and second order, that reverse mode (dot-product test), forward mode and
central differences agree.

A program is *compiled* once at the drawn inputs: each op is kept only if its operands are
inside its domain with a margin (log of values >= 0.25, abs away from 0, maximum away from ties,
exp of values < 3, ...); otherwise a smooth fallback (tanh, add) takes its place. The compiled
program is then replayed unchanged on the perturbed inputs of the finite differences, so it is
one smooth function. Kinks (abs, relu, maximum and reduce_max at ties) are checked separately at
the bottom, against TensorFlow's conventions (spec section 1.19).

Profiles (tests/conftest.py): ``ci`` (default) runs a fixed set of programs; run many more with
``HYPOTHESIS_PROFILE=long python -m pytest tests/test_fuzz.py``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import tapegrad as tf

MARGIN = 0.25


def _lo(a: np.ndarray) -> float:
    return float(np.min(a)) if a.size else 1.0


def _hi(a: np.ndarray) -> float:
    return float(np.max(a)) if a.size else 0.0


def _away(a: np.ndarray) -> bool:     # |a| >= MARGIN everywhere: no kink at 0 nearby
    return _lo(np.abs(a)) >= MARGIN


def _small(a: np.ndarray, bound: float) -> bool:
    return _hi(np.abs(a)) < bound


# ----------------------------------------------------------------------------- the op list
# Each entry: (name, arity, build). build(rng_int, *operand arrays) returns a function of the
# operand tensors, or None when the op does not apply to these operands (domain, shapes).
UnaryBuild = Callable[..., Any]


def _u(fn: Callable, ok: Callable[[np.ndarray], bool] = lambda a: True) -> UnaryBuild:
    return lambda k, a: fn if ok(a) else None


def _axis(k: int, a: np.ndarray) -> int:
    return k % a.ndim - a.ndim if k % 2 else k % a.ndim


def _reduce(fn: Callable, need_nonempty: bool, ok: Callable = lambda a: True) -> UnaryBuild:
    def build(k: int, a: np.ndarray) -> Any:
        if not ok(a):
            return None
        if a.ndim == 0 or k % 3 == 0:
            if need_nonempty and a.size == 0:
                return None
            return lambda x: fn(x)
        ax, keep = _axis(k, a), bool(k % 4 == 1)
        if need_nonempty and a.shape[ax] == 0:
            return None
        return lambda x: fn(x, axis=ax, keepdims=keep)
    return build


def _last_axis(fn: Callable) -> UnaryBuild:
    return lambda k, a: (lambda x: fn(x, axis=-1)) if a.ndim >= 1 else None


def _reshape(k: int, a: np.ndarray) -> Any:
    if k % 2 or a.ndim < 2:
        return lambda x: tf.reshape(x, [-1])
    shape = list(reversed(a.shape))
    return lambda x: tf.reshape(x, shape)


def _transpose(k: int, a: np.ndarray) -> Any:
    return (lambda x: tf.transpose(x)) if a.ndim >= 2 else None


def _expand(k: int, a: np.ndarray) -> Any:
    ax = k % (a.ndim + 1)
    return lambda x: tf.expand_dims(x, ax)


def _squeeze(k: int, a: np.ndarray) -> Any:
    ones = [i for i, d in enumerate(a.shape) if d == 1]
    return (lambda x: tf.squeeze(x, ones[k % len(ones)])) if ones else None


def _slice(k: int, a: np.ndarray) -> Any:
    if a.ndim == 0:
        return None
    return [lambda x: x[::-1], lambda x: x[:1], lambda x: x[..., 1:]][k % 3]


def _gather(k: int, a: np.ndarray) -> Any:
    if a.ndim == 0 or a.shape[0] == 0:
        return None
    idx = [(k + 3 * i) % a.shape[0] for i in range(1 + k % 4)]   # may repeat: adds in the VJP
    return lambda x: tf.gather(x, idx)


def _tile(k: int, a: np.ndarray) -> Any:
    if a.ndim == 0:
        return None
    mult = [1] * a.ndim
    mult[k % a.ndim] = 2
    return lambda x: tf.tile(x, mult)


def _concat_self(k: int, a: np.ndarray) -> Any:
    return (lambda x: tf.concat([x, x * 0.5], axis=_axis(k, a))) if a.ndim else None


def _pad(k: int, a: np.ndarray) -> Any:
    return (lambda x: tf.pad(x, [[1, 0]] * a.ndim)) if a.ndim else None


def _gram(k: int, a: np.ndarray) -> Any:
    if a.ndim < 2:
        return None
    perm = list(range(a.ndim - 2)) + [a.ndim - 1, a.ndim - 2]
    if k % 2:
        return lambda x: tf.matmul(x, x, transpose_b=True)
    return lambda x: tf.linalg.matmul(tf.transpose(x, perm), x)


def _einsum1(k: int, a: np.ndarray) -> Any:
    if a.ndim == 2:
        return lambda x: tf.einsum("ij,ij->j", x, x)
    if a.ndim >= 1:
        return lambda x: tf.einsum("...i,...i->...", x, x)
    return None


def _norm(k: int, a: np.ndarray) -> Any:
    if a.size == 0 or float(np.linalg.norm(a)) < MARGIN:
        return None
    return lambda x: tf.norm(x)


def _spd(x: Any) -> Any:
    """A symmetric positive definite matrix (batch) from any rank >= 2 tensor."""
    n = x.shape[-2]
    return tf.matmul(x, x, transpose_b=True) + tf.eye(n, dtype=x.dtype) * 2.0


def _linalg(fn: Callable) -> UnaryBuild:
    return lambda k, a: (lambda x: fn(_spd(x))) if a.ndim >= 2 and a.shape[-2] > 0 else None


def _sorted(fn: Callable) -> UnaryBuild:
    def build(k: int, a: np.ndarray) -> Any:
        if a.ndim == 0 or a.shape[-1] < 2:
            return None
        gaps = np.diff(np.sort(a, axis=-1), axis=-1)
        return fn if _lo(gaps) >= MARGIN else None
    return build


UNARY: list[tuple[str, UnaryBuild]] = [
    ("cholesky", _linalg(tf.linalg.cholesky)),
    ("inv", _linalg(tf.linalg.inv)),
    ("logdet", _linalg(tf.linalg.logdet)),
    ("det", _linalg(tf.linalg.det)),
    ("solve", lambda k, a: (lambda x: tf.linalg.solve(_spd(x), x)) if a.ndim >= 2 and a.shape[-2] > 0 else None),
    ("eigvalsh", _linalg(tf.linalg.eigvalsh)),
    ("sort", _sorted(lambda x: tf.sort(x, axis=-1))),
    ("top_k", _sorted(lambda x: tf.math.top_k(x, k=2).values)),
    ("log_sigmoid", _u(tf.math.log_sigmoid)),
    ("gelu", _u(tf.nn.gelu)),
    ("silu", _u(tf.nn.silu)),
    ("softsign", _u(tf.nn.softsign)),
    ("elu", _u(tf.nn.elu, _away)),
    ("l2_normalize", lambda k, a: (lambda x: tf.math.l2_normalize(x, axis=-1))
        if a.ndim and a.shape[-1] and _lo(np.linalg.norm(a, axis=-1)) >= MARGIN else None),
    ("lgamma", _u(tf.math.lgamma, lambda a: _lo(a) >= MARGIN and _hi(a) < 20)),
    # TF's cumprod gradient divides by x (NaN at 0, as in TF): keep away from 0
    ("cumprod", lambda k, a: (lambda x: tf.math.cumprod(x, axis=-1)) if a.ndim and _small(a, 2) and _away(a) else None),
    ("neg", _u(lambda x: -x)),
    ("affine", _u(lambda x: x * 1.5 - 0.5)),
    ("sin", _u(tf.sin)),
    ("cos", _u(tf.cos)),
    ("tanh", _u(tf.tanh)),
    ("sigmoid", _u(tf.sigmoid)),
    ("atan", _u(tf.math.atan)),
    ("softplus", _u(tf.nn.softplus)),
    ("erf", _u(tf.math.erf)),
    ("exp", _u(tf.exp, lambda a: _hi(a) < 3)),
    ("expm1", _u(tf.math.expm1, lambda a: _hi(a) < 3)),
    ("sinh", _u(tf.math.sinh, lambda a: _small(a, 3))),
    ("square", _u(tf.square, lambda a: _small(a, 4))),
    ("cube", _u(lambda x: x ** 3, lambda a: _small(a, 3))),
    ("log", _u(tf.math.log, lambda a: _lo(a) >= MARGIN)),
    ("sqrt", _u(tf.sqrt, lambda a: _lo(a) >= MARGIN)),
    ("rsqrt", _u(tf.math.rsqrt, lambda a: _lo(a) >= MARGIN)),
    ("log1p", _u(tf.math.log1p, lambda a: _lo(a) >= MARGIN - 1)),
    ("reciprocal", _u(tf.math.reciprocal, _away)),
    ("abs", _u(tf.abs, _away)),
    ("relu", _u(tf.nn.relu, _away)),
    ("clip", _u(lambda x: tf.clip_by_value(x, -3.0, 3.0), lambda a: _lo(np.abs(np.abs(a) - 3)) >= MARGIN)),
    ("cumsum", lambda k, a: (lambda x: tf.math.cumsum(x, axis=_axis(k, a), reverse=bool(k % 2))) if a.ndim else None),
    ("softmax", _last_axis(tf.nn.softmax)),
    ("log_softmax", _last_axis(tf.nn.log_softmax)),
    ("reduce_sum", _reduce(tf.reduce_sum, False)),
    ("reduce_mean", _reduce(tf.reduce_mean, True)),
    ("reduce_logsumexp", _reduce(tf.reduce_logsumexp, True)),
    # reduce_prod's 2nd derivative at an exact 0 is TF's (through cumprod's div_no_nan): not the math
    ("reduce_prod", _reduce(tf.reduce_prod, False, lambda a: _small(a, 2) and _away(a))),
    ("reduce_variance", _reduce(tf.math.reduce_variance, True)),
    ("reshape", _reshape),
    ("transpose", _transpose),
    ("expand_dims", _expand),
    ("squeeze", _squeeze),
    ("slice", _slice),
    ("gather", _gather),
    ("tile", _tile),
    ("concat_self", _concat_self),
    ("pad", _pad),
    ("broadcast_to", lambda k, a: (lambda x: tf.broadcast_to(x, (2,) + a.shape))),
    ("gram_matmul", _gram),
    ("einsum", _einsum1),
    ("norm", _norm),
]


def _bcast(a: np.ndarray, b: np.ndarray) -> bool:
    try:
        np.broadcast_shapes(a.shape, b.shape)
        return True
    except ValueError:
        return False


def _elementwise(fn: Callable, ok: Callable = lambda a, b: True) -> Callable:
    return lambda k, a, b: fn if _bcast(a, b) and ok(a, b) else None


def _matmul(k: int, a: np.ndarray, b: np.ndarray) -> Any:
    if a.ndim >= 2 and b.ndim >= 2 and a.shape[-1] == b.shape[-2]:
        try:
            np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        except ValueError:
            return None
        return lambda x, y: x @ y
    if a.ndim == 2 and b.ndim == 1 and a.shape[-1] == b.shape[0]:
        return lambda x, y: tf.linalg.matvec(x, y)
    return None


def _concat(k: int, a: np.ndarray, b: np.ndarray) -> Any:
    if a.ndim == 0 or a.ndim != b.ndim:
        return None
    ax = _axis(k, a)
    if any(a.shape[i] != b.shape[i] for i in range(a.ndim) if i != ax % a.ndim):
        return None
    return lambda x, y: tf.concat([x, y], axis=ax)


def _stack(k: int, a: np.ndarray, b: np.ndarray) -> Any:
    if a.shape != b.shape:
        return None
    ax = k % (a.ndim + 1)
    return lambda x, y: tf.stack([x, y], axis=ax)


def _where(k: int, a: np.ndarray, b: np.ndarray) -> Any:
    if not (_bcast(a, b) and _away(a)):
        return None
    return lambda x, y: tf.where(x > 0, x * y, y - x)


def _diff_far(a: np.ndarray, b: np.ndarray) -> bool:
    return _away(np.subtract(a, b))


BINARY: list[tuple[str, Callable]] = [
    ("add", _elementwise(lambda x, y: x + y)),
    ("sub", _elementwise(lambda x, y: x - y)),
    ("mul", _elementwise(lambda x, y: x * y)),
    ("div", _elementwise(lambda x, y: x / y, lambda a, b: _away(b))),
    ("maximum", _elementwise(tf.maximum, _diff_far)),
    ("minimum", _elementwise(tf.minimum, _diff_far)),
    ("pow", _elementwise(lambda x, y: x ** y, lambda a, b: _lo(a) >= 0.3 and _hi(a) < 4 and _small(b, 2))),
    ("squared_difference", _elementwise(tf.math.squared_difference)),
    ("where", _where),
    ("matmul", _matmul),
    ("concat", _concat),
    ("stack", _stack),
]


# ----------------------------------------------------------------------------- programs
@dataclass
class Step:
    name: str
    fn: Callable
    args: tuple[int, ...]


@dataclass
class Program:
    inputs: list[np.ndarray]
    steps: list[Step]
    outputs: tuple[int, ...]

    def __call__(self, *xs: Any) -> Any:
        vals = list(xs)
        for s in self.steps:
            vals.append(s.fn(*[vals[i] for i in s.args]))
        outs = [vals[i] for i in self.outputs]
        return outs[0] if len(outs) == 1 else outs

    def __repr__(self) -> str:
        shapes = ", ".join(f"x{i}: {a.dtype}{list(a.shape)}" for i, a in enumerate(self.inputs))
        body = "; ".join(f"v{len(self.inputs) + j} = {s.name}({', '.join(f'v{i}' for i in s.args)})"
                         for j, s in enumerate(self.steps))
        return f"Program({shapes}; {body}; return {['v%d' % i for i in self.outputs]})"


_dims = st.sampled_from([1, 2, 3, 3, 2, 0])


@st.composite
def _shapes(draw: Any) -> list[tuple]:
    """1-3 input shapes; later ones broadcast against the first (or are 0-d)."""
    rank = draw(st.sampled_from([0, 1, 1, 2, 2, 2, 3]))
    base = tuple(draw(_dims) for _ in range(rank))
    if 0 in base and draw(st.integers(0, 3)):      # keep size-0 inputs, but not too often
        base = tuple(d or 2 for d in base)
    out = [base]
    for _ in range(draw(st.integers(0, 2))):
        kind = draw(st.integers(0, 3))
        if kind == 0:
            out.append(())
        elif kind == 1:
            out.append(base)
        else:   # drop leading axes and set some to 1: broadcasts against base
            cut = draw(st.integers(0, len(base)))
            out.append(tuple(1 if draw(st.booleans()) else d for d in base[cut:]))
    return out


@st.composite
def programs(draw: Any, dtype: Any) -> Program:
    shapes = draw(_shapes())
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    inputs = [np.asarray(rng.uniform(0.3, 1.5, s) * rng.choice([-1.0, 1.0], s), dtype) for s in shapes]
    vals = [tf.constant(a) for a in inputs]
    steps: list[Step] = []
    for _ in range(draw(st.integers(2, 6))):
        n = len(vals)
        i = draw(st.integers(0, n - 1)) if draw(st.integers(0, 2)) else n - 1   # favour chains
        k = draw(st.integers(0, 2**16))
        step = None
        if draw(st.integers(0, 2)) == 0:
            name, build = draw(st.sampled_from(BINARY))
            j = draw(st.integers(0, n - 1))
            fn = build(k, vals[i].numpy(), vals[j].numpy())
            if fn is None:
                fn = _elementwise(lambda x, y: x + y)(k, vals[i].numpy(), vals[j].numpy())
                name = "add(fallback)"
            if fn is not None:
                step = Step(name, fn, (i, j))
        if step is None:
            name, build = draw(st.sampled_from(UNARY))
            fn = build(k, vals[i].numpy())
            if fn is None:
                fn, name = tf.tanh, f"tanh(for {name})"
            step = Step(name, fn, (i,))
        vals.append(step.fn(*[vals[a] for a in step.args]))
        steps.append(step)
    last = len(vals) - 1
    outputs = (last, last - 1) if draw(st.integers(0, 4)) == 0 else (last,)
    return Program(inputs, steps, outputs)


def _check(prog: Program) -> None:
    note(repr(prog))
    # float32: a step of 3e-3 (check_grads' default 1e-2 is too coarse for high-degree chains
    # such as x**81, found by the long profile; rounding noise stays well inside the tolerance)
    eps = 3e-3 if prog.inputs[0].dtype == np.float32 else None
    tf.test.check_grads(prog, [tf.constant(a) for a in prog.inputs], order=2, modes=("rev", "fwd"), eps=eps)


@given(programs(np.float64))
def test_random_programs_float64(prog: Program) -> None:
    _check(prog)


@given(programs(np.float32))
def test_random_programs_float32(prog: Program) -> None:
    _check(prog)


def _jacobian_rows(prog: Program, xs: list) -> list[np.ndarray]:
    """The Jacobian row by row: one plain VJP per output element (no batched rules)."""
    y0 = np.asarray(prog(*xs).numpy())
    cols = [np.zeros((y0.size,) + x.shape, x.numpy().dtype) for x in xs]
    for r in range(y0.size):
        seed = np.zeros(y0.size, y0.dtype)
        seed[r] = 1.0
        with tf.GradientTape() as tape:
            tape.watch(xs)
            y = prog(*xs)
        gs = tape.gradient(y, xs, output_gradients=tf.constant(seed.reshape(y0.shape)),
                           unconnected_gradients="zero")
        for c, g in zip(cols, gs):
            c[r] = tf.convert_to_tensor(g).numpy()
    return [c.reshape(y0.shape + c.shape[1:]) for c in cols]


@settings(max_examples=max(50, settings.default.max_examples // 4))
@given(programs(np.float64))
def test_random_programs_batched_jacobian(prog: Program) -> None:
    """tape.jacobian walks once with a batch axis on every cotangent: each rule must keep the
    batch axes in front. It must equal the row-by-row VJPs and the unbatched loop."""
    note(repr(prog))
    if len(prog.outputs) > 1:
        prog = Program(prog.inputs, prog.steps, prog.outputs[:1])
    xs = [tf.constant(a) for a in prog.inputs]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = prog(*xs)
    batched = tape.jacobian(y, xs, unconnected_gradients="zero")
    looped = tape.jacobian(y, xs, unconnected_gradients="zero", experimental_use_pfor=False)
    for jb, jl, jr in zip(batched, looped, _jacobian_rows(prog, xs)):
        np.testing.assert_allclose(jb.numpy(), jr, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(jl.numpy(), jr, rtol=1e-10, atol=1e-12)


@settings(max_examples=max(50, settings.default.max_examples // 4))
@given(programs(np.float64))
def test_random_programs_hessian_vector_products(prog: Program) -> None:
    """Forward-over-reverse and reverse-over-reverse give the same Hessian-vector product."""
    note(repr(prog))
    xs = [tf.constant(a) for a in prog.inputs]
    rng = np.random.default_rng(len(prog.steps))
    vs = [tf.constant(rng.standard_normal(a.shape)) for a in prog.inputs]

    def scalar(*args):
        outs = prog(*args)
        outs = outs if isinstance(outs, list) else [outs]
        return tf.add_n([tf.reduce_sum(tf.sin(o)) for o in outs])

    with tf.autodiff.ForwardAccumulator(xs, vs) as acc:
        with tf.GradientTape() as tape:
            tape.watch(xs)
            y = scalar(*xs)
        gs = tape.gradient(y, xs, unconnected_gradients="zero")
    fwd_over_rev = acc.jvp(gs, unconnected_gradients="zero")
    with tf.GradientTape() as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            y = scalar(*xs)
        gs = inner.gradient(y, xs, unconnected_gradients="zero")
        gv = tf.add_n([tf.reduce_sum(g * v) for g, v in zip(gs, vs)])
    rev_over_rev = outer.gradient(gv, xs, unconnected_gradients="zero")
    for a, b in zip(fwd_over_rev, rev_over_rev):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-8, atol=1e-10)


# ----------------------------------------------------------------------------- kinks
# At a kink there is no derivative; tapegrad must give TensorFlow's conventional one (spec 1.19,
# recorded in tests/fixtures/tf_programs.json), and forward mode must apply the same Jacobian.
KINKS = [
    # (name, fn, inputs, expected gradient of sum(fn(*inputs)) w.r.t. each input)
    ("abs-at-0", tf.abs, [[0.0, -1.0, 2.0]], [[0.0, -1.0, 1.0]]),
    ("relu-at-0", tf.nn.relu, [[-1.0, 0.0, 1.0]], [[0.0, 0.0, 1.0]]),
    ("sign", tf.sign, [[-1.0, 0.0, 1.0]], [[0.0, 0.0, 0.0]]),
    ("maximum-tie", tf.maximum, [[1.0, 2.0], [1.0, 0.0]], [[1.0, 1.0], [0.0, 0.0]]),
    ("minimum-tie", tf.minimum, [[1.0, 2.0], [1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]]),
    ("reduce_max-ties", tf.reduce_max, [[2.0, 2.0, 1.0]], [[0.5, 0.5, 0.0]]),
    ("reduce_min-ties", tf.reduce_min, [[1.0, 3.0, 1.0, 1.0]], [[1 / 3, 0.0, 1 / 3, 1 / 3]]),
    ("clip-boundaries", lambda x: tf.clip_by_value(x, 0.0, 1.0), [[-1.0, 0.0, 0.5, 1.0, 2.0]],
     [[0.0, 1.0, 1.0, 1.0, 0.0]]),
    ("relu6-at-kinks", tf.nn.relu6, [[0.0, 6.0, 3.0]], [[0.0, 0.0, 1.0]]),
]


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
@pytest.mark.parametrize("name,fn,inputs,expect", KINKS, ids=[k[0] for k in KINKS])
def test_kinks_follow_tensorflow_in_both_modes(name, fn, inputs, expect, dtype) -> None:
    xs = [tf.constant(v, dtype) for v in inputs]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = fn(*xs)
    grads = tape.gradient(y, xs, unconnected_gradients="zero")
    for g, e in zip(grads, expect):
        np.testing.assert_allclose(g.numpy(), e, rtol=1e-6)
    # forward mode: J·e_j for every basis tangent equals the reverse-mode Jacobian's column
    rev = tape.jacobian(y, xs, unconnected_gradients="zero")
    for i, x in enumerate(xs):
        for j in range(x.shape.num_elements()):
            basis = [tf.zeros_like(v) for v in xs]
            onehot = np.zeros(x.shape.num_elements(), dtype.as_numpy_dtype)
            onehot[j] = 1
            basis[i] = tf.constant(onehot.reshape(x.shape))
            with tf.autodiff.ForwardAccumulator(xs, basis) as acc:
                yf = fn(*xs)
            col = rev[i].numpy().reshape(tuple(y.shape) + (-1,))[..., j]
            np.testing.assert_allclose(acc.jvp(yf, unconnected_gradients="zero").numpy(), col,
                                       rtol=1e-6, err_msg=f"{name}: forward mode, input {i}, element {j}")


@settings(max_examples=max(50, settings.default.max_examples // 4))
@given(programs(np.float64))
def test_random_programs_variables_and_persistent_tapes(prog: Program) -> None:
    """Sources as trainable Variables (watched on access) give the gradients of watched constants,
    and a persistent tape answers twice with the same numbers."""
    note(repr(prog))
    xs = [tf.constant(a) for a in prog.inputs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = prog(*xs)
    expect = tape.gradient(y, xs, unconnected_gradients="zero")
    vs = [tf.Variable(a) for a in prog.inputs]
    with tf.GradientTape(persistent=True) as ptape:
        y = prog(*vs)
    assert set(map(id, ptape.watched_variables())) <= set(map(id, vs))
    for _ in range(2):
        got = ptape.gradient(y, vs, unconnected_gradients="zero")
        for g, e in zip(got, expect):
            np.testing.assert_array_equal(tf.convert_to_tensor(g).numpy(), tf.convert_to_tensor(e).numpy())
