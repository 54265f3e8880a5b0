"""``tf.vectorized_map`` by batching rules (JAX's ``vmap``, TensorFlow's ``pfor``).

``fn`` runs once, on the first row of ``elems``, with a :class:`Batcher` as the only active
recorder. Each op that runs on a value depending on the row is told to the batcher, which applies
the op's *batching rule* to the batched values: every batched value carries its batch axis first;
values that do not depend on the row (constants, captured tensors, Variable reads) stay
unbatched. The rules run with the caller's recorders visible, so outer tapes, accumulators and
tracers see the batched computation (and never the row's): gradients with respect to ``elems``
and to captured tensors and Variables, and higher derivatives, are those of the batch.

A rule is ``rule(op, n, xs, bat, p) -> output or tuple of outputs``: ``n`` the batch size,
``xs`` the inputs (batched ones with the leading axis), ``bat`` per input whether it is batched,
``p`` the op's params. An op's family file registers its rule right after the op's declaration
(:func:`register`, keyed by the op); :func:`rule_of` finds it in :data:`RULES`, else gives the
broadcasting rule to ops declared ``deriv=`` (elementwise) or ``broadcast=True``. The generic
rules (:func:`broadcasting`, :func:`leading`, :func:`axes`, :func:`one_axis`,
:func:`shape_first`) and helpers (:func:`lift`, :func:`align`, :func:`reshape`) are here.

The row run cannot decide what other rows need: a row value read into Python (``bool``,
``float``, ``.numpy()``), a Variable update, or an op without a rule raises :class:`Unbatchable`,
and ``vectorized_map`` runs ``fn`` once per row instead.
"""
from __future__ import annotations

import sys
from typing import Any, Callable

import numpy as np

from . import _nest, _recorders as _rec
from ._backend import Boxed, wrap_array
from ._convert import convert_to_tensor
from ._dispatch import REGISTRY, Op, _offer, apply
from ._tensor import IndexedSlices, Tensor, wrap

__all__ = ["Unbatchable", "vmap", "rule_of", "register", "RULES"]


class Unbatchable(Exception):
    """``fn`` did something the batcher cannot batch; ``args[0]`` says what."""


class Batcher(_rec.Recorder):
    """The recorder of the row run: the batched value of every row tensor, by tensor id."""

    __slots__ = ("n", "outer", "batched", "before")

    def __init__(self, n: int, outer: list) -> None:
        self.n = n
        self.outer = outer           # the caller's recorders: they see the batched ops
        self.batched: dict[int, Tensor] = {}
        self.before: dict[int, tuple] = {}  # Variable id -> (Variable, its value when first read)

    def record(self, op: Op, xs: Any, p: dict, ans: Any, k: int) -> None:
        self._op(op, xs, p, ans if type(ans) is tuple else (ans,))

    def on_nondiff(self, op: Op, xs: Any, outs: tuple, p: Any = None) -> None:
        self._op(op, xs, p or {}, outs)

    def _op(self, op: Op, xs: Any, p: dict, outs: tuple) -> None:
        got = self.batched
        bat = tuple([x._id in got for x in xs])
        if True not in bat:  # the same for every row: the caller's recorders see it as it ran
            if self.outer:
                self.outer_run(_offer, op, xs, p, outs if op.nout != 1 else outs[0], self.outer)
            return
        rule = rule_of(op)
        if rule is None:
            raise Unbatchable(f"op {op.name} has no batching rule")
        args = [got[x._id] if b else x for x, b in zip(xs, bat)]
        res = self.outer_run(rule, op, self.n, args, bat, p)
        if type(res) is not tuple:
            res = (res,)
        for o, r in zip(outs, res):
            ov, rv = o._value, r._value
            if rv.shape[1:] != ov.shape or rv.shape[0] != self.n or rv.dtype != ov.dtype:
                raise Unbatchable(f"the batching rule of {op.name} gave {rv.dtype}{list(rv.shape)} for "
                                  f"rows of {ov.dtype}{list(ov.shape)} (a bug: please report it)")
            got[o._id] = r

    def outer_run(self, fn: Callable, *args: Any) -> Any:
        """``fn(*args)`` with the caller's recorders active instead of the row run's."""
        with _rec.swapped(self.outer):
            return fn(*args)

    def on_variable_read(self, v: Any) -> None:
        self.before.setdefault(v._id, (v, v._snap._value))
        for rec in self.outer:  # (an outer tape watches a trainable Variable on read)
            rec.on_variable_read(v)

    def on_variable_assign(self, v: Any, how: str = "", value: Any = None) -> None:
        # undone before the per-row fallback runs fn again: the value of the first read, else
        # (an update fn never read) the inverse of assign_add/assign_sub; an assign that nothing
        # read before is overwritten by the fallback's first row
        old = self.before.get(v._id)
        if old is not None:
            v._set(old[1])
        elif how in ("assign_add", "assign_sub"):
            d = np.asarray(convert_to_tensor(value)._value, v._snap._value.dtype)
            v._set((np.subtract if how == "assign_add" else np.add)(v._snap._value, d))
        raise Unbatchable(f"fn updates the Variable {v.name!r}")

    def on_escape(self, t: Any, how: str) -> None:
        if t._id in self.batched:
            raise Unbatchable(f"fn reads a value that depends on the row into Python ({how})")

    def on_random(self, xs: Any, stateful: bool) -> None:
        if stateful or any(x._id in self.batched for x in xs):
            raise Unbatchable("fn draws random numbers (each row needs a draw of its own)")

    def output(self, v: Any) -> Tensor:
        """The batched value of an output leaf of the row run (repeated when it is invariant)."""
        if isinstance(v, IndexedSlices):
            raise Unbatchable("fn returns IndexedSlices")
        t = convert_to_tensor(v)
        b = self.batched.get(t._id)
        if b is None:
            b = self.outer_run(lift, t, self.n)
        return b


def vmap(fn: Callable, elems: Any, flat: list, n: int) -> Any:
    """``fn`` mapped over the ``n`` rows of ``elems`` (flat leaves ``flat``), batched; raises
    :class:`Unbatchable` when ``fn`` does something without a batching rule."""
    b = Batcher(n, _rec.tls.stack)
    rows = []
    for t in flat:
        v = t._value
        r = wrap(v[0] if v.dtype != object else np.asarray(v[0], dtype=object)) if type(v) is not Boxed \
            else wrap_array(v.a[0], v.backend)  # (a string row: a 0-d object array, not bytes)
        b.batched[r._id] = t
        rows.append(r)
    with _rec.swapped([]):
        _rec.push(b)
        try:
            out = fn(_nest.pack_sequence_as(elems, rows))
            res = [None if v is None else b.output(v) for v in _nest.flatten(out)]
        finally:
            _rec.pop(b)
    return _nest.pack_sequence_as(out, res)


# ---------------------------------------------------------------------------- the rules
_R = REGISTRY
RULES: dict[Op, Callable] = {}  # op -> its batching rule, registered beside the op's declaration


def register(op: Op, rule: Callable) -> None:
    """Register ``rule`` as ``op``'s batching rule; called in the op's family file, right after
    the op's declaration (an op declared with ``deriv=`` or ``broadcast=True`` needs none:
    :func:`broadcasting` is its rule)."""
    if sys._getframe(1).f_globals.get("__name__") != op.module:
        raise ValueError(f"the batching rule of {op.name} is registered in "
                         f"{sys._getframe(1).f_globals.get('__name__')}: register it in {op.module}, "
                         "beside the op's declaration")
    if op in RULES:
        raise ValueError(f"op {op.name} has a batching rule already")
    RULES[op] = rule


def rule_of(op: Op) -> Callable | None:
    """The batching rule of ``op`` (None: it has none)."""
    rule = RULES.get(op)
    if rule is None and (op.derivs is not None or op.bcast) and _R.get(op.name) is op:
        return broadcasting  # (not for an op made per call: custom_gradient)
    return rule


def _rank(x: Tensor, b: bool) -> int:
    return x._value.ndim - b


def reshape(x: Tensor, shape: tuple) -> Tensor:
    return apply(_R["Reshape"], (x,), {"shape": shape})


def lift(x: Tensor, n: int) -> Tensor:
    """An unbatched value repeated over the batch."""
    s = x._value.shape
    return apply(_R["BroadcastTo"], (reshape(x, (1,) + s),), {"shape": (n,) + s})


def lift_all(n: int, xs: list, bat: tuple) -> list:
    return [x if b else lift(x, n) for x, b in zip(xs, bat)]


def align(xs: list, bat: tuple, core: int = 0) -> list:
    """Batched inputs with ones after the batch axis up to the largest row rank, so NumPy's
    broadcasting (from the right) pairs the rows' axes as it did for one row."""
    r = max(max(_rank(x, b) for x, b in zip(xs, bat)), core)
    out = []
    for x, b in zip(xs, bat):
        s = x._value.shape
        if b and len(s) - 1 < r:
            x = reshape(x, s[:1] + (1,) * (r + 1 - len(s)) + s[1:])
        out.append(x)
    return out


def broadcasting(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    """Elementwise ops, and ops whose leading axes broadcast (matmul, solves, conv's images)."""
    return apply(op, align(xs, bat), p)


def leading(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    """Ops whose leading axes are batch axes shared by all inputs (matrix functions, ...), and
    elementwise ops of equal shapes not declared ``broadcast`` (their rules do not unbroadcast)."""
    return apply(op, lift_all(n, xs, bat), p)


def axis(x: Tensor, a: int, extra: int = 0) -> int:
    """Row axis ``a`` (of a row of rank ``ndim - 1 + extra``) as an axis of the batch."""
    return a % (x._value.ndim - 1 + extra) + 1


def one_axis(key: str) -> Callable:
    """The rule of an op whose param ``key`` is one axis of its first input (others: unbatched)."""
    def rule(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
        if True in bat[1:]:
            raise Unbatchable(f"op {op.name} with indices that depend on the row")
        return apply(op, xs, {**p, key: axis(xs[0], p[key])})
    return rule


def axes(key: str) -> Callable:
    """The rule of a one-input op whose param ``key`` is a tuple of axes (None: all)."""
    def rule(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
        x, = xs
        a = p[key]
        a = tuple(range(1, x._value.ndim)) if a is None else tuple(axis(x, i) for i in a)
        return apply(op, xs, {**p, key: a})
    return rule


def shape_first(key: str) -> Callable:
    """The rule of an op whose param ``key`` is its output's shape (reshape, a cotangent op's shape)."""
    def rule(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
        return apply(op, xs, {**p, key: (n,) + tuple(p[key])})
    return rule
