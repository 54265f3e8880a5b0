"""tf.vectorized_map by batching rules (tapegrad/_vmap.py): every op with a rule, on the op
table's inputs, gives the stacked per-row values and gradients; which ops have no rule; the
fallback to one call per row; tapes around and inside fn."""
from __future__ import annotations

import warnings
import zlib

import numpy as np
import pytest

import tapegrad as tf
from tapegrad._dispatch import REGISTRY
from tapegrad._vmap import rule_of

from optable import OpCase, all_cases

# ops whose rows' results cannot be stacked (Unique: per-row lengths) or that draw per call
NO_RULE = {"Unique", "RandomShuffle", "UniqueShare", "Where",  # (output sizes depend on values)
           "ComputeAccidentalHits",
           # strings: ragged results (row lengths depend on values), a whole tensor's text, joins by
           # value-dependent segments
           "StringSplitV2", "StringBytesSplit", "UnicodeDecode", "UnicodeDecodeWithOffsets", "UnicodeSplit",
           "UnicodeEncode",
           "StringFormat", "UnsortedSegmentJoin", "StringNGrams",
           # (a row's counts span all its entries; per-row batches and windows of CTC; scatters
           # whose ties need the whole row; flat indices that count the row's batch)
           "HistogramFixedWidth", "HistogramFixedWidthBins", "CTCLoss", "TensorScatterMax",
           "TensorScatterMin", "MaxPoolArgmax", "CollapseRepeated",
           # (Keras's CTC decoders lay paths out (paths, batch, time); category counts of a 2-D batch)
           "CTCGreedyDecode", "CTCBeamSearchDecode", "EncodeCategorical"}
N = 3  # rows
# cases whose fn makes vectorized_map fall back to one call per row (checked all the same):
# sort and top_k compute each row's order in Python
FALLS_BACK = {"sort", "sort-axis0-desc", "top_k", "dropout",  # (dropout: a random draw per row)
              "RandomGamma"}  # (its row computes the gamma inverse CDF in SciPy)


def _rtol(t) -> float:  # batched and per-row BLAS calls may round float32 differently
    return 1e-4 if t.dtype in (tf.float32, tf.complex64, tf.float16) else 1e-7


def test_which_registered_ops_have_batching_rules() -> None:
    without = {name for name, op in REGISTRY.items() if rule_of(op) is None}
    assert without == NO_RULE, (
        f"ops without a batching rule: {sorted(without - NO_RULE)} (register one beside the op's declaration "
        f"with tapegrad._vmap.register, or list the op here with the reason); listed here but having one: "
        f"{sorted(NO_RULE - without)}")


def _cases() -> list:
    out = []
    for c in all_cases():
        if set(c.covers) & NO_RULE:
            continue
        for i, shapes in enumerate(c.shapes):
            k = len(shapes)
            patterns = [(True,) * k] + ([tuple(j == m for j in range(k)) for m in range(k)] if k > 1 else [])
            for pat in patterns:
                out.append(pytest.param(c, shapes, pat, id=f"{c.name}-{i}-{''.join('b' if b else 'u' for b in pat)}"))
    return out


def _draw(case: OpCase, shapes: tuple, rng: np.random.Generator) -> list:
    if case.make is not None:
        return [np.asarray(a) for a in case.make(rng, shapes)]
    doms = case.domain if isinstance(case.domain, list) else [case.domain] * len(shapes)
    out = []
    for s, (lo, hi) in zip(shapes, doms):
        a = rng.uniform(lo, hi, size=s)
        out.append(a + 1j * rng.uniform(lo, hi, size=s) if case.complex else a)
    return out


def _leaves(y: object) -> list:
    return list(y) if isinstance(y, (list, tuple)) else [y]


@pytest.mark.parametrize("case,shapes,pattern", _cases())
def test_vectorized_map_equals_stacked_rows(case: OpCase, shapes: tuple, pattern: tuple) -> None:
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    draws = [_draw(case, shapes, rng) for _ in range(N)]
    args = [tf.constant(np.stack([d[j] for d in draws]) if b else draws[0][j]) for j, b in enumerate(pattern)]
    batched = [j for j, b in enumerate(pattern) if b]

    def row_fn(row: tuple) -> object:
        it = iter(row)
        return case.fn(*[next(it) if b else a for a, b in zip(args, pattern)])

    def weighted(ys: list) -> tf.Tensor:
        total = tf.constant(0.0, tf.float64)
        for y, w in zip(ys, weights):
            if y.dtype.is_floating:
                total += tf.reduce_sum(tf.cast(y, tf.float64) * w)
        return total

    with tf.GradientTape(persistent=True) as tape:
        tape.watch(args)
        loop = case.name in FALLS_BACK
        vm = _leaves(tf.vectorized_map(row_fn, tuple(args[j] for j in batched), fallback_to_while_loop=loop,
                                       warn=False))
        rows = [_leaves(row_fn(tuple(args[j][i] for j in batched))) for i in range(N)]
        ref = [tf.stack([r[k] for r in rows]) for k in range(len(vm))]
        weights = [rng.standard_normal(tuple(y.shape)) for y in ref]
        lv, lr = weighted(vm), weighted(ref)
    for v, r in zip(vm, ref):
        assert v.dtype == r.dtype and v.shape == r.shape
        if v.dtype == tf.string:
            np.testing.assert_array_equal(v.numpy(), r.numpy())
        else:
            np.testing.assert_allclose(v.numpy(), r.numpy(), rtol=_rtol(r), atol=1e-9)
    if case.nondiff:
        return
    for gv, gr in zip(tape.gradient(lv, args), tape.gradient(lr, args)):
        assert (gv is None) == (gr is None)
        if gv is not None:
            gr = tf.convert_to_tensor(gr)
            rtol = max([_rtol(gr)] + [_rtol(r) for r in ref])  # (a float32 output's rounding reaches the inputs)
            np.testing.assert_allclose(tf.convert_to_tensor(gv).numpy(), gr.numpy(), rtol=rtol, atol=1e-9)


# ---------------------------------------------------------------------------- semantics
def _no_fallback(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return tf.vectorized_map(fn, *a, fallback_to_while_loop=False, **k)


def test_per_example_gradients_match_a_loop_and_stay_on_the_outer_tape() -> None:
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((5, 4)))
    w = tf.Variable(rng.standard_normal((3, 4)))

    def grad_row(r):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(tf.tanh(tf.linalg.matvec(w, r)) ** 2)
        return t.gradient(loss, w)

    with tf.GradientTape() as outer:
        g = _no_fallback(grad_row, x)
        s = tf.reduce_sum(g * g)
    rows = [grad_row(x[i]) for i in range(5)]
    np.testing.assert_allclose(g.numpy(), np.stack([r.numpy() for r in rows]), rtol=1e-10)
    with tf.GradientTape() as outer2:
        s2 = tf.reduce_sum(tf.stack([r * r for r in [grad_row(x[i]) for i in range(5)]]))
    np.testing.assert_allclose(outer.gradient(s, w).numpy(), outer2.gradient(s2, w).numpy(), rtol=1e-9)


def test_second_derivative_through_vectorized_map() -> None:
    x = tf.constant([[0.5, -1.0], [2.0, 0.25]])
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.reduce_sum(_no_fallback(lambda r: tf.reduce_sum(tf.sin(r) * r), x))
        g = t1.gradient(y, x)
        s = tf.reduce_sum(g)
    h = t2.gradient(s, x).numpy()
    xv = x.numpy()
    np.testing.assert_allclose(h, 2 * np.cos(xv) - xv * np.sin(xv), rtol=1e-6)  # d/dx (sin x + x cos x)


def test_forward_accumulator_sees_the_batched_computation() -> None:
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y = _no_fallback(lambda r: tf.reduce_sum(r * r), x)
    np.testing.assert_allclose(acc.jvp(y).numpy(), [6.0, 14.0])


def test_invariant_outputs_are_repeated_and_none_kept() -> None:
    v = tf.Variable([1.0, 2.0])
    x = tf.constant([[1.0], [2.0], [3.0]])
    with tf.GradientTape() as t:
        a, b, c = _no_fallback(lambda r: (v * 2.0, r + 1.0, None), x)
        s = tf.reduce_sum(a)
    assert a.shape == (3, 2) and b.shape == (3, 1) and c is None
    np.testing.assert_allclose(t.gradient(s, v).numpy(), [6.0, 6.0])


@pytest.mark.parametrize("fn,cause", [
    (lambda r: tf.unique(r)[0], "op Unique has no batching rule"),
    (lambda r: r * 2 if float(r[0]) > 0 else -r, "reads a value that depends on the row into Python"),
])
def test_fallback_warns_with_the_cause_and_gives_the_loop_results(fn, cause) -> None:
    x = tf.constant([[1.0, 2.0], [-3.0, -4.0]])
    with pytest.warns(UserWarning, match=cause):
        got = tf.vectorized_map(fn, x)
    np.testing.assert_array_equal(got.numpy(), tf.map_fn(fn, x).numpy())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tf.vectorized_map(fn, x, warn=False)
    with pytest.raises(ValueError, match=cause):
        tf.vectorized_map(fn, x, fallback_to_while_loop=False)


def test_variable_update_in_fn_falls_back_to_one_call_per_row() -> None:
    v = tf.Variable(0.0)
    x = tf.constant([1.0, 2.0, 3.0])

    def fn(r):
        v.assign_add(r)
        return r + v

    with pytest.warns(UserWarning, match="updates the Variable"):
        y = tf.vectorized_map(fn, x)
    assert float(v) == 6.0
    np.testing.assert_allclose(y.numpy(), [2.0, 5.0, 9.0])


def test_nested_elems_and_captured_tensors() -> None:
    a = tf.constant(np.arange(6.0).reshape(3, 2))
    b = tf.constant([1, 2, 3])
    m = tf.constant([[1.0, 0.0], [1.0, 1.0]], tf.float64)
    got = _no_fallback(lambda e: tf.linalg.matvec(m, e["a"]) * tf.cast(e["b"], tf.float64), {"a": a, "b": b})
    want = np.stack([(m.numpy() @ a.numpy()[i]) * (i + 1) for i in range(3)])
    np.testing.assert_allclose(got.numpy(), want)


def test_random_draws_inside_fn_are_per_row():
    x = tf.zeros([4, 3])
    with pytest.warns(UserWarning, match="draws random numbers"):
        y = tf.vectorized_map(lambda r: r + tf.random.normal([3]), x)
    assert len({tuple(row) for row in y.numpy().tolist()}) == 4  # a draw per row, as TF's pfor
    same = tf.vectorized_map(lambda r: r + tf.random.stateless_normal([3], seed=[1, 2]), x)
    assert len({tuple(row) for row in same.numpy().tolist()}) == 1  # one stateless seed: one draw
