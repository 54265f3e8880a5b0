"""TF1 graph mode: the program a ``tf.Graph`` records while it is the default graph, and its runs.

A graph made default (``as_default()``, or the global graph after ``disable_eager_execution``)
puts a ``tf.function`` :class:`~tapegrad._trace.Tracer` on the recorder stack: ops still run
when built (on placeholders' stand-in values: ones, zeros for integers, unknown dimensions 1),
and every op, Variable read and Variable update is a step of the graph's program. Building
changes nothing a run sees: a Variable update is a ``write`` step, run when ``Session.run`` asks
for it. ``Session.run(fetches, feed_dict)`` keeps the steps the fetches need and runs them
through the engine on the fed values (:func:`execute`): reads see the Variables' values at the
run, writes are committed at its end (all reads of a run see the values before it).
``tf.gradients`` is a ``grad`` step: the run records its ops on a GradientTape and takes the
gradient there, so gradients follow the fed shapes.
"""
from __future__ import annotations

import contextlib
import os
import sys
import warnings
from typing import Any

import numpy as np

from .. import _recorders as _rec, _trace
from .._convert import check_values
from .._dispatch import apply
from .._tape import GradientTape
from .._tensor import Tensor, TensorShape, next_id, wrap
from .._variable import Variable
from ..errors import InvalidArgumentError

class Feed:
    """A placeholder: the resource its ``read`` step reads (the fed value, or the default), its
    declared shape and its name. The placeholder itself is a plain tensor, the stand-in."""

    def __init__(self, stand_in: Tensor, shape: TensorShape, name: str, default: Tensor | None) -> None:
        self.stand_in, self.shape, self.name, self.default = stand_in, shape, name, default

    def dims(self) -> str:
        """The declared shape as TensorFlow's errors write it: ``[?,3]``."""
        if self.shape.rank is None:
            return "<unknown>"
        return "[" + ",".join("?" if d is None else str(d) for d in self.shape.as_list()) + "]"


_PKG = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # (tapegrad's own code)
SESSIONS: list = []  # the default sessions, innermost last (a Session's `with` block, InteractiveSession)


class Operation:
    """A TF1 graph operation fetched for its effect (``Session.run`` returns None for it): an
    initializer (``run``), or a group of what it needs (``needs``: tensors and operations)."""

    def __init__(self, name: str, run: Any = None, needs: Any = ()) -> None:
        self.name, self._run, self.needs = name, run, list(needs)

    def run(self, feed_dict: Any = None, session: Any = None) -> None:
        """Run this operation in ``session`` (the default session: the innermost ``with
        tf.compat.v1.Session()`` block's, or an ``InteractiveSession``)."""
        session = session or (SESSIONS[-1] if SESSIONS else None)
        if session is None:
            raise ValueError("Cannot execute operation using `run()`: No default session is registered. Use "
                             "`sess.run(op)` or pass an explicit session to `run(session=sess)`")
        session.run(self, feed_dict=feed_dict)

    def __repr__(self) -> str:
        return f"<tf.Operation '{self.name}' type={'NoOp' if self._run is None else 'Init'}>"


def new_tracer(graph: Any) -> _trace.Tracer:
    """The recorder of ``graph``'s program: a Tracer whose writes leave each Variable to be read
    afresh by later steps, and which says where an update cannot be deferred."""
    tr = _trace.Tracer()
    tr.tf1_graph = graph
    base = tr.on_variable_assign

    def on_variable_assign(v: Any, how: str = "", value: Any = None) -> None:
        if how not in ("assign", "assign_add", "assign_sub"):
            raise NotImplementedError(
                f"{how or 'this update'} of variable {v.name!r} in a TF1 graph: tapegrad defers assign, "
                "assign_add and assign_sub to Session.run; write the update with those.")
        r = tr.resource(v)
        tr.cur.pop(r, None)  # (the value it adds to: read at the run)
        base(v, how, value)
        tr.cur.pop(r, None)
        graph._assigned = v._snap         # (the update's result: what assign returns here)
        v._set(v._snap._value, fresh=True)  # (later reads are steps of their own)
    def host_call(fn: Any, args: tuple, kwargs: dict) -> Any:
        raise NotImplementedError(
            f"{getattr(fn, '__qualname__', fn)} in a TF1 graph: tapegrad's graphs defer ops and Variables' "
            "assign, assign_add and assign_sub to Session.run, not Python steps (a Keras optimizer's update, "
            "tf.print); train with tf.compat.v1.train's optimizers, or run the step eagerly.")
    base_op = tr._op

    def _op(op: Any, xs: Any, p: dict, outs: tuple) -> None:
        base_op(op, xs, p, outs)
        call = _named_call()
        if call is not None:
            graph._name_result(call[0], call[1], outs[0])
    tr.on_variable_assign = on_variable_assign
    tr.host_call = host_call
    tr._op = _op
    return tr


def _named_call() -> tuple | None:
    """(frame, name) of the tapegrad function the user's code called, when it is a function (not
    a method) given a ``name=``: the op it returns is named so in a TF1 graph, as TensorFlow names
    it; None otherwise."""
    f: Any = sys._getframe(2)
    called = None
    while f is not None:
        if f.f_code.co_filename.startswith(_PKG):
            called = f
        elif called is not None:
            break
        f = f.f_back
    if called is None:
        return None
    code = called.f_code
    if code.co_argcount and code.co_varnames[0] in ("self", "cls"):
        return None
    name = called.f_locals.get("name") if "name" in code.co_varnames[:code.co_argcount + code.co_kwonlyargcount] \
        else None
    return (called, name) if isinstance(name, str) and name else None


def placeholder(tr: _trace.Tracer, dtype: Any, shape: Any, name: str, default: Any = None) -> Tensor:
    """A placeholder of ``tr``'s graph (``default``: a tensor, for ``placeholder_with_default``)."""
    static = TensorShape(shape)
    if default is not None:
        value = np.asarray(default._value)
    else:
        dims = [1 if d is None else d for d in static.as_list()] if static.rank is not None else [1]
        value = (np.ones if dtype.is_floating or dtype.is_complex else np.zeros)(dims, dtype.as_numpy_dtype)
    t = Tensor()
    t._value, t._id = value, next_id()
    s = tr.new_slot(t)
    feed = Feed(t, static, name, default)
    tr.steps.append(("read", tr.resource(feed), s))
    tr.__dict__.setdefault("feed_at", {})[s] = feed
    return t


def gradients(tr: _trace.Tracer, ys: list, xs: list, grad_ys: list | None) -> list:
    """``tf.gradients`` in a graph: a ``grad`` step; None where ``xs[i]`` does not reach ``sum(ys)``."""
    def slot(t: Any) -> int:
        return tr.slot_of(t if isinstance(t, Tensor) else wrap(np.asarray(t)))
    ys_s = [slot(y) for y in ys]
    gy_s = None if grad_ys is None else [None if g is None else slot(g) for g in grad_ys]
    spec, outs, dummies = [], [], []
    for x in xs:
        if isinstance(x, Variable):
            spec.append(("r", tr.resource(x)))
            value = x._snap._value
        else:
            spec.append(("s", slot(x)))
            value = x._value
        dummies.append(wrap(np.zeros_like(value)))
    reached = _reached(tr, spec)
    result = []
    for (kind, i), d in zip(spec, dummies):
        if not any(y in reached[(kind, i)] for y in ys_s):
            result.append(None)
            outs.append(None)
            continue
        outs.append(tr.new_slot(d))
        result.append(d)
    tr.steps.append(("grad", ys_s, spec, outs, gy_s))
    return result


def _reached(tr: _trace.Tracer, spec: list) -> dict:
    """For each source of ``spec``, the slots computed from it."""
    out = {}
    for kind, i in spec:
        seen = {i} if kind == "s" else set()
        for step in tr.steps:
            k = step[0]
            if k == "read" and kind == "r" and step[1] == i:
                seen.add(step[2])
            elif k in ("op", "draw") and any(s in seen for s in step[2]):
                seen.update(step[4] if k == "op" else step[3])
            elif k == "write" and (step[3] in seen or step[4] in seen):
                seen.add(step[5])
            elif k == "grad" and any(y in seen for y in step[1]):
                seen.update(s for s in step[3] if s is not None)
        out[(kind, i)] = seen
    return out


def _needs_of(x: Any, tr: _trace.Tracer, slots: set, runs: list, seen: set) -> None:
    if isinstance(x, Operation):
        if id(x) in seen:
            return
        seen.add(id(x))
        if x._run is not None:
            runs.append(x._run)
        for n in x.needs:
            _needs_of(n, tr, slots, runs, seen)
    elif isinstance(x, Tensor) and (id(x) in tr.slot or x._id in tr.made):  # (made: a suspect constant)
        slots.add(tr.slot_of(x))


def _feeds_under(tr: _trace.Tracer) -> dict:
    """For each slot of ``tr``'s program, the Feeds (resource indices) it is computed from."""
    cached = getattr(tr, "feeds_under", None)
    if cached is not None and cached[0] == len(tr.steps):
        return cached[1]
    under: dict = {}
    none: frozenset = frozenset()
    for step in tr.steps:
        kind = step[0]
        if kind == "read" and isinstance(tr.res[step[1]], Feed):
            under[step[2]] = frozenset((step[1],))
        elif kind in ("op", "draw"):
            u = none.union(*[under.get(i, none) for i in step[2]])
            for o in (step[4] if kind == "op" else step[3]):
                under[o] = u
        elif kind == "write":
            under[step[5]] = under.get(step[3], none) | under.get(step[4], none)
        elif kind == "grad":
            u = none.union(*[under.get(i, none) for i in step[1]])
            for o in step[3]:
                if o is not None:
                    under[o] = u
    tr.feeds_under = (len(tr.steps), under)
    return under


def prune(tr: _trace.Tracer, slots: set, deps: list, fed: dict) -> list:
    """The steps of ``tr``'s program that computing ``slots`` needs, in order. ``deps``: (first
    slot, end slot, slots) for each ``control_dependencies`` block: a step whose outputs were
    made in the block needs those slots too. A guard (a value computed from placeholders' stand-ins
    and read into Python when building) before a step kept is kept when the run has the feeds it
    needs: it checks the value."""
    need = set(slots)
    under = _feeds_under(tr)
    have = {r for r, res in enumerate(tr.res) if isinstance(res, Feed) and (res in fed or res.default is not None)}
    kept = []
    for step in reversed(tr.steps):
        kind = step[0]
        if kind == "op" or kind == "draw":
            outs = step[4] if kind == "op" else step[3]
            if not any(o in need for o in outs) or all(o in fed for o in outs):  # (a fed tensor: given)
                continue
            need.update(step[2])
        elif kind == "read":
            if step[2] not in need:
                continue
        elif kind == "write":
            if step[5] not in need:
                continue
            need.update((step[3], step[4]))
            outs = (step[5],)
        elif kind == "grad":
            if not any(o in need for o in step[3] if o is not None):
                continue
            need.update(step[1])
            need.update(s for s in (step[4] or ()) if s is not None)
            need.update(i for k, i in step[2] if k == "s")
            outs = [o for o in step[3] if o is not None]
        elif kind == "check":
            if not all(i in need for i in step[2]):
                continue
            outs = ()
        elif kind == "guard":  # (one of a value computed from placeholders: from their stand-ins)
            feeds = under.get(step[1])
            if not kept or not feeds or not feeds <= have:
                continue
            need.add(step[1])
            outs = ()
        else:  # shape (the stand-in values' own), call
            continue
        for lo, hi, more in deps:
            if any(lo <= o < hi for o in outs):
                need.update(more)
        kept.append(step)
    kept.reverse()
    return kept


_RESIZED = ("Placeholders {} are fed sizes other than the stand-in the graph was built on (unknown "
            "dimensions: 1), and a step of the graph fixed that size when it was built; give the "
            "placeholders the full shapes you feed (or compute shapes with ops, e.g. tf.shape).")


def _check_resized(tr: _trace.Tracer, step: tuple, args: list, resized: list) -> None:
    """Fed sizes other than the stand-ins': refuse an op given a constant that tapegrad made, while
    building, of the shape another input had then (``tf.ones_like(x)``, ``tf.zeros_like``), when
    that input's shape is now another: the constant would not follow the feed."""
    ins = step[2]
    for i in ins:
        if i in tr.consts and np.ndim(tr.consts[i]) and tr.inner.get(tr.keep[i]._id):
            built = np.shape(tr.consts[i])
            for j, t in zip(ins, args):
                if j not in tr.consts and np.shape(tr.keep[j]._value) == built and np.shape(t._value) != built:
                    raise NotImplementedError(
                        _RESIZED.format(", ".join(resized)) + f" Here op {step[1].name} is given a tensor made "
                        f"when the graph was built, of the stand-in's shape {built} (tf.ones_like, "
                        "tf.zeros_like, tf.fill of a shape read in Python).")


def execute(tr: _trace.Tracer, steps: list, fed: dict, out_slots: list) -> list:
    """Run ``steps`` (from :func:`prune`) with ``fed``: {slot or Feed: tensor}; returns the
    tensors of ``out_slots``. Variable writes are committed at the end. A step that reads a
    constant which tapegrad computed from a value while building (the tracer's suspects, which
    a ``tf.function`` runs eagerly for) raises: it holds the stand-ins' value."""
    for ins in [out_slots] + [step[2] for step in steps if step[0] in ("op", "draw", "check")]:
        for i in ins:
            if i in tr.suspect:
                why, where = tr.suspect[i]
                raise NotImplementedError(
                    f"This TF1 graph cannot run: {why} (at {where}), when the graph was built on "
                    "placeholders' stand-in values and Variables' values then; compute it with other ops.")
    env: dict = {s: t for s, t in fed.items() if isinstance(s, int)}  # (tensors fed in place of their ops)

    def val(s: int) -> Any:
        t = env.get(s)
        if t is None:
            t = env[s] = wrap(tr.consts[s])
        return t

    resized = [f.name for f, t in fed.items() if isinstance(f, Feed)
               and np.shape(t._value) != np.shape(f.stand_in._value)]
    pending: dict = {}
    stack = [r for r in _rec.tls.stack if r is not tr]
    grads = any(step[0] == "grad" for step in steps)  # (a tape records the run only for them)
    with _rec.swapped(stack), warnings.catch_warnings(), \
            GradientTape(persistent=True) if grads else contextlib.nullcontext() as tape:
        warnings.filterwarnings("ignore", "Calling GradientTape.gradient on a persistent tape inside")
        for step in steps:
            kind = step[0]
            if kind == "op":
                _, op, ins, p, outs = step
                args = [val(i) for i in ins]
                if resized:
                    _check_resized(tr, step, args, resized)
                try:
                    r = apply(op, args, p)
                except Exception as e:
                    if resized:
                        _add_note(e, _RESIZED.format(", ".join(resized)) + f" (op {op.name})")
                    raise
                for s, t in zip(outs, r if type(r) is tuple else (r,)):
                    env[s] = fed.get(s, t)
            elif kind == "draw":
                for s, t in zip(step[3], _trace.draw(step[1], [val(i) for i in step[2]], step[4])):
                    env[s] = fed.get(s, t)
            elif kind == "read":
                res = tr.res[step[1]]
                if isinstance(res, Feed):
                    t = fed.get(res, res.default)
                    if t is None:
                        raise InvalidArgumentError(
                            f"You must feed a value for placeholder tensor '{res.name}' with dtype "
                            f"{res.stand_in.dtype.name} and shape {res.dims()}")
                    if grads and (t.dtype.is_floating or t.dtype.is_complex):
                        tape.watch(t)
                else:
                    t = res.read_value()
                env[step[2]] = fed.get(step[2], t)
            elif kind == "write":
                _, r, how, prev, src, out = step
                a, b = val(prev)._value, val(src)._value
                env[out] = pending[r] = wrap(b if how == "assign" else np.add(a, b) if how == "assign_add"
                                             else np.subtract(a, b))
            elif kind == "check":
                check_values(step[1], *[val(i) for i in step[2]])
            elif kind == "guard":
                v = np.asarray(val(step[1])._value)
                if v.shape != step[2] or v.tobytes() != step[3]:
                    raise NotImplementedError(
                        f"A value of this TF1 graph was read into Python when the graph was built ({step[4]}: "
                        "a shape given as a tensor, or a tensor's value used by Python code); tapegrad built "
                        "the graph by running it on placeholders' stand-in values, and this run's value differs. "
                        + (_RESIZED.format(", ".join(resized)) if resized else ""))
            else:  # grad
                _, ys, spec, outs, gys = step
                y = val(ys[0])
                for s in ys[1:]:
                    y = y + val(s)
                sources = [tr.res[i] if k == "r" else val(i) for k, i in spec]
                gy = None if gys is None else [val(s) for s in gys if s is not None]
                if gy is not None and len(ys) > 1:
                    raise NotImplementedError("tf.gradients with several ys and grad_ys: give one y.")
                gs = tape.gradient(y, sources, output_gradients=gy[0] if gy else None)
                for s, g, src in zip(outs, gs, sources):
                    if s is not None:
                        env[s] = fed.get(s, g if g is not None else wrap(np.zeros_like(
                            src._snap._value if isinstance(src, Variable) else src._value)))
        for r, t in pending.items():
            tr.res[r].assign(t)
    return [val(s) for s in out_slots]


def _add_note(e: BaseException, note: str) -> None:
    """``e.add_note(note)`` (Python 3.11+); on 3.10 the note joins the message."""
    if hasattr(e, "add_note"):
        e.add_note(note)
    else:
        if e.args and isinstance(e.args[0], str):
            e.args = (f"{e.args[0]}\n{note}",) + e.args[1:]
        if isinstance(getattr(e, "message", None), str):   # (tf.errors' OpError keeps its text there)
            e.message = f"{e.message}\n{note}"  # type: ignore[attr-defined]
