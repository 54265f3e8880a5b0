"""Traces for ``tf.function``: a recorder that turns one eager run into a replayable program.

A :class:`Tracer` is a recorder (``_recorders``) active while the Python function runs once.
Every tensor it meets gets a *slot*: a function input, a constant (a tensor made without an op),
a Variable read, an op output. The program is the list of steps in execution order:

* ``op``: an op's NumPy forward on input slots, giving output slots. A GradientTape's backward
  walk computes with ops too, so a training step records its forward and backward alike;
* ``read``/``write``: a Variable's value read, or replaced (``assign``, ``assign_add``,
  ``assign_sub``). Writes stay pending until the replay completes;
* ``guard``: a value the Python code read (``bool(t)``, ``float(t)``, ``.numpy()``, ...) or a
  shape that depends on values. At replay the value is recomputed there and compared with the
  traced one; a difference abandons the replay (:class:`Miss`) before any write is made;
* ``call``: a function marked :func:`replayable` (optimizer updates, printing), run again with the
  replayed values; pending writes are committed before it, so no guard may follow it.

:func:`compile_program` turns the steps into a flat list of NumPy calls run by one loop (no
Tensor, dispatch or tape in between); :meth:`Program.run_engine` re-dispatches the same steps through the
engine, for calls under an outer tape or accumulator.
"""
from __future__ import annotations

import functools
import os
import sys
from typing import Any, Callable

import numpy as np

from . import _nest, _recorders as _rec
from ._convert import convert_to_tensor
from ._dispatch import REGISTRY, apply
from ._tensor import Tensor, VariableBase, wrap

# ops whose output shape depends on input values (beyond those fed integer or bool tensors)
_VALUE_SHAPED = frozenset({"Unique"})
_PKG = os.path.dirname(os.path.abspath(__file__))


class Miss(Exception):
    """A guard of a replayed program saw another value than its trace did."""


class Unreplayable(Exception):
    """The trace cannot be replayed; ``args``: the reason, where in the user's code."""


def user_line() -> str:
    """``file:line`` of the innermost frame outside tapegrad."""
    f = sys._getframe(1)
    while f is not None and os.path.dirname(os.path.abspath(f.f_code.co_filename)).startswith(_PKG):
        f = f.f_back
    return "?" if f is None else f"{f.f_code.co_filename}:{f.f_lineno}"


class Tracer(_rec.Recorder):
    """Records the steps of one run; see the module docstring."""

    def __init__(self) -> None:
        self.slot: dict[int, int] = {}   # id(tensor) -> slot
        self.keep: list = []             # the tensors keyed by id, kept alive
        self.n = 0
        self.consts: dict[int, Any] = {}
        self.kinds: dict[int, str] = {}  # slot -> dtype kind
        self.steps: list = []
        self.res: list = []              # resources: Variables (arguments, then captured)
        self.res_of: dict[int, int] = {}  # id(variable) -> resource index
        self.cur: dict[int, int] = {}    # resource -> slot of its value in this run
        self.problem: tuple | None = None
        self.called = False              # a replayable call ran: no guard may follow
        self.n_inputs = 0

    # -- slots
    def new_slot(self, t: Any) -> int:
        s = self.n
        self.n += 1
        self.slot[id(t)] = s
        self.keep.append(t)
        self.kinds[s] = t._value.dtype.kind
        return s

    def input(self, t: Tensor) -> int:
        """A function input's slot (inputs take the first slots, before anything else)."""
        self.n_inputs = self.n + 1
        return self.new_slot(t)

    def resource(self, v: Any) -> int:
        r = self.res_of.get(id(v))
        if r is None:
            r = self.res_of[id(v)] = len(self.res)
            self.res.append(v)
        return r

    def slot_of(self, t: Any) -> int:
        s = self.slot.get(id(t))
        if s is None:
            s = self.new_slot(t)
            self.consts[s] = t._value
        return s

    def fail(self, reason: str) -> None:
        if self.problem is None:
            self.problem = (reason, user_line())

    # -- the recorder protocol
    def record(self, op: Any, xs: Any, p: dict, ans: Any, k: int) -> None:
        self._op(op, xs, p, ans if type(ans) is tuple else (ans,))

    def on_nondiff(self, op: Any, xs: Any, outs: tuple, p: Any = None) -> None:
        self._op(op, xs, p or {}, outs)

    def _op(self, op: Any, xs: Any, p: dict, outs: tuple) -> None:
        if REGISTRY.get(op.name) is not op:
            self.fail(f"op {op.name} is made per call (custom_gradient) and has no replayable form")
        ins = [self.slot_of(x) for x in xs]
        outs_s = [self.new_slot(o) for o in outs]
        self.steps.append(("op", op, ins, p, outs_s))
        if op.name in _VALUE_SHAPED or any(self.kinds[i] in "iub" and i not in self.consts for i in ins):
            for o, s in zip(outs, outs_s):
                self.steps.append(("shape", s, np.shape(o._value)))

    def on_variable_read(self, v: Any) -> None:
        snap = v._snap
        if id(snap) not in self.slot:
            s = self.new_slot(snap)
            r = self.resource(v)
            self.steps.append(("read", r, s))
            self.cur[r] = s

    def on_variable_assign(self, v: Any, how: str = "", value: Any = None) -> None:
        if how not in ("assign", "assign_add", "assign_sub"):
            self.fail(f"a Variable update other than assign, assign_add and assign_sub ({v.name})")
            return
        r = self.resource(v)
        if r not in self.cur:  # (the value it had: read where the write happens)
            prev = self.new_slot(wrap(np.empty(0)))
            self.steps.append(("read", r, prev))
            self.cur[r] = prev
        if isinstance(value, (Tensor, VariableBase)):
            src = self.slot_of(convert_to_tensor(value))
        elif how == "assign":
            src = self.slot_of(wrap(v._snap._value))
        else:
            src = self.slot_of(wrap(np.asarray(value, v._snap._value.dtype)))
        out = self.new_slot(v._snap)
        self.steps.append(("write", r, how, self.cur[r], src, out))
        self.cur[r] = out

    def on_escape(self, t: Any, how: str) -> None:
        s = self.slot.get(id(t))
        if s is None or s in self.consts:
            return
        if self.called:
            self.fail(f"a tensor's value is read into Python ({how}) after a replayable call "
                      "(an optimizer update)")
        v = t._value
        self.steps.append(("guard", s, np.shape(v), np.asarray(v).tobytes(), user_line()))

    def host_call(self, fn: Callable, args: tuple, kwargs: dict) -> Any:
        leaves = _nest.flatten((list(args), kwargs))
        spec = []
        for x in leaves:
            if isinstance(x, VariableBase):
                spec.append(("r", self.resource(x)))
            elif isinstance(x, Tensor):
                spec.append(("s", self.slot_of(x)))
            else:
                spec.append(("k", x))
        self.steps.append(("call", fn, (list(args), kwargs), spec))
        self.called = True
        k = _rec.tls.stack.index(self)
        out = _rec.run_hidden(k, fn, *args, **kwargs) if not kwargs else \
            _rec.run_hidden(k, functools.partial(fn, **kwargs), *args)
        for r, v in enumerate(self.res):  # values changed behind the tracer: read them again
            self.cur.pop(r, None)
        if isinstance(out, Tensor) and not isinstance(out, VariableBase):
            self.fail(f"{getattr(fn, '__qualname__', fn)} returned a tensor")
        return out

    def finish(self, outputs: list) -> "Program":
        """The program whose results are the slots of ``outputs`` (tensor leaves)."""
        out_slots = [self.slot_of(t) for t in outputs]
        return Program(self.steps, self.consts, self.res, out_slots, self.n_inputs)


def current() -> Tracer | None:
    """The tracer active in this thread, if any."""
    if _rec.active:
        for rec in _rec.tls.stack:
            if type(rec) is Tracer:
                return rec
    return None


def replayable(fn: Callable) -> Callable:
    """Mark ``fn`` (which works on tensors' values outside the ops, e.g. an optimizer update or
    printing) as one step of a ``tf.function`` trace: each replay calls it again with the
    replayed tensors and Variables; other arguments are those of the trace."""
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        tr = current()
        if tr is None:
            return fn(*args, **kwargs)
        args = tuple(list(a) if hasattr(a, "__next__") else a for a in args)
        return tr.host_call(fn, args, kwargs)
    return call


def _rebuild(structure: Any, spec: list, env: Any, res: list, tensors: bool) -> tuple:
    vals = []
    for kind, x in spec:
        if kind == "r":
            vals.append(res[x])
        elif kind == "s":
            v = env[x]
            vals.append(v if tensors else wrap(v))
        else:
            vals.append(x)
    return _nest.pack_sequence_as(structure, vals)


class Program:
    """A finished trace: its steps with the dead ones dropped, and how to replay them."""

    def __init__(self, steps: list, consts: dict, res: list, outs: list, n_inputs: int) -> None:
        self.consts, self.res, self.outs, self.n_inputs = consts, res, outs, n_inputs
        self.steps = _live(steps, outs)
        self.fast = compile_program(self)

    def run_engine(self, inputs: list, res: list) -> list:
        """Replay through the engine (outer recorders see every op); returns output tensors."""
        env: dict[int, Any] = {s: wrap(v) for s, v in self.consts.items()}
        for s, t in enumerate(inputs):
            env[s] = t
        pending: dict[int, Any] = {}
        for step in self.steps:
            kind = step[0]
            if kind == "op":
                _, op, ins, p, outs = step
                r = apply(op, [env[i] for i in ins], p)
                for s, t in zip(outs, r if type(r) is tuple else (r,)):
                    env[s] = t
            elif kind == "read":
                env[step[2]] = res[step[1]].read_value()
            elif kind == "write":
                _, r, how, prev, src, out = step
                a, b = env[prev]._value, env[src]._value
                env[out] = pending[r] = wrap(b if how == "assign" else np.add(a, b) if how == "assign_add"
                                             else np.subtract(a, b))
            elif kind == "guard":
                v = env[step[1]]._value
                if np.shape(v) != step[2] or np.asarray(v).tobytes() != step[3]:
                    raise Miss()
            elif kind == "shape":
                if np.shape(env[step[1]]._value) != step[2]:
                    raise Miss()
            else:  # call
                _commit_tensors(pending, res)
                fn, structure, spec = step[1:]
                a, kw = _rebuild(structure, spec, env, res, True)
                fn(*a, **kw)
        _commit_tensors(pending, res)
        return [env[s] for s in self.outs]


def _commit_tensors(pending: dict, res: list) -> None:
    for r, t in pending.items():
        res[r].assign(t)
    pending.clear()


def _live(steps: list, outs: list) -> list:
    """The steps something depends on (outputs, guards, writes, calls), in order."""
    need = set(outs)
    kept = []
    for step in reversed(steps):
        kind = step[0]
        if kind == "op":
            if not any(o in need for o in step[4]):
                continue
            need.update(step[2])
        elif kind == "read":
            if step[2] not in need:
                continue
        elif kind == "write":
            need.update((step[3], step[4]))
        elif kind in ("guard", "shape"):
            need.add(step[1])
        else:
            need.update(x for k, x in step[3] if k == "s")
        kept.append(step)
    kept.reverse()
    return kept


def compile_program(prog: Program) -> Callable:
    """One function ``run(inputs, res) -> outputs`` looping over a flat list of NumPy calls for
    the steps (slots in one list; unary and binary calls without params take the short paths)."""
    code: list[tuple] = []   # (kind, fn, ins, out, extra)
    pending: dict[int, tuple] = {}

    def commit() -> None:
        for r, (slot, fresh) in pending.items():
            code.append((_COMMIT, r, slot, fresh, None))
        pending.clear()

    for step in prog.steps:
        kind = step[0]
        if kind == "op":
            _, op, ins, p, outs = step
            if op.nout != 1:
                code.append((_MULTI, op.fwd, ins, outs, p))
            elif p:
                code.append((_CALLP, op.fwd, ins, outs[0], p))
            elif len(ins) == 1:
                code.append((_CALL1, op.fwd, ins[0], outs[0], None))
            elif len(ins) == 2:
                code.append((_CALL2, op.fwd, ins[0], outs[0], ins[1]))
            else:
                code.append((_CALLP, op.fwd, ins, outs[0], p))
        elif kind == "read":
            code.append((_READ, step[1], None, step[2], None))
        elif kind == "write":
            _, r, how, prev, src, out = step
            if how == "assign":
                code.append((_CALL1, _same, src, out, None))
            else:
                code.append((_CALL2, np.add if how == "assign_add" else np.subtract, prev, out, src))
            pending[r] = (out, how != "assign")
        elif kind == "guard":
            code.append((_GUARD, step[2], step[1], step[3], None))
        elif kind == "shape":
            code.append((_GUARD, step[2], step[1], None, None))
        else:
            commit()
            code.append((_HOST, step[1], step[2], step[3], None))
    commit()
    nslots = 1 + max([prog.n_inputs - 1] + list(prog.consts) + [o for st in prog.steps if st[0] == "op"
                                                                 for o in st[4]]
                     + [st[2] for st in prog.steps if st[0] == "read"]
                     + [st[5] for st in prog.steps if st[0] == "write"])
    base: list = [None] * nslots
    for s, v in prog.consts.items():
        base[s] = v
    outs = prog.outs
    n_in = prog.n_inputs

    def run(inputs: list, R: list) -> list:
        env = base.copy()
        env[:n_in] = inputs
        for kind, f, a, o, b in code:
            if kind is _CALL2:
                env[o] = f(env[a], env[b])
            elif kind is _CALL1:
                env[o] = f(env[a])
            elif kind is _CALLP:
                env[o] = f(*[env[i] for i in a], **b)
            elif kind is _MULTI:
                for s, v in zip(o, f(*[env[i] for i in a], **b)):
                    env[s] = v
            elif kind is _READ:
                env[o] = R[f]._snap._value
            elif kind is _GUARD:
                v = env[a]
                if v.shape != f or (o is not None and v.tobytes() != o):
                    raise Miss
            elif kind is _COMMIT:
                R[f]._set(env[a], o)
            else:
                args, kw = _rebuild(a, o, env, R, False)
                f(*args, **kw)
        return [env[s] for s in outs]
    return run


def _same(x: Any) -> Any:
    return x


_CALL2, _CALL1, _CALLP, _MULTI, _READ, _GUARD, _COMMIT, _HOST = (
    "call2", "call1", "callp", "multi", "read", "guard", "commit", "host")
