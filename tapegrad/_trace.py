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
  replayed values; pending writes are committed before it, so no guard may follow it;
* ``check``: a validation of values (``_convert.check_values``: indices in range, ...), run
  again on each replay's values, as TensorFlow's kernels check at run time;
* ``draw``: a random draw (:func:`draw`), a function of its input slots that draws afresh at each
  replay (stateful ones advance their kernel's Philox state; stateless ones depend on their seed
  slot). A Generator's draw reads its state variable's slot and writes the advanced state.

A tensor made during the trace without an op (``_tensor.wrap``, which tells :func:`_on_wrap`
while a tracer runs) becomes a constant of the program. Made by the user's code, its value came
from Python values or from reads the tracer guards; made inside tapegrad, it may hold a value
computed from an input's value behind the tracer's back, so a program that depends on it runs
eagerly instead, unless its maker is marked ``_tensor.constant_maker`` (audited: its constants
depend on shapes, Python values and guarded reads only).

:func:`compile_program` turns the steps into a flat list of NumPy calls run by one loop (no
Tensor, dispatch or tape in between); :meth:`Program.run_engine` re-dispatches the same steps through the
engine, for calls under an outer tape or accumulator.
"""
from __future__ import annotations

import contextlib
import functools
import os
import re
import sys
import threading
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from . import _backend as _bk, _jit, _nest, _recorders as _rec, _tensor
from ._convert import check_values, convert_to_tensor
from ._dispatch import REGISTRY, apply
from ._tensor import Tensor, VariableBase, wrap
from .errors import InternalError

VALUE_SHAPED: set = set()  # ops whose output shape depends on input values (see value_shaped)
_PKG = os.path.dirname(os.path.abspath(__file__))
_OUT_BY_NAME = frozenset({np.maximum, np.minimum})  # (NumPy deprecates their positional out)
# frames skipped to find who made a tensor: conversion, and comprehensions (their function made it)
_PLUMBING = frozenset(os.path.join(_PKG, f) for f in ("_tensor.py", "_convert.py"))
_INNER = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"})
# Keras is written on the public API only (its reads of values are the tracer's guarded reads), so
# is tf.compat (TF1's API); an extension type converts its fields' values as the user's code would
_ABOVE = (os.path.join(_PKG, "keras", ""), os.path.join(_PKG, "compat", ""),
          os.path.join(_PKG, "experimental", "_extension_type.py"))
_TRACER_FILES = frozenset(os.path.join(_PKG, f) for f in ("_trace.py", "_function.py"))
_lock = threading.Lock()
_tracing = 0  # tracers running in all threads: the wrap hook is installed while > 0


VARIABLE_ON_RETRACE = (
    "tf.function only supports singleton tf.Variables created on the first call. Make sure the "
    "tf.Variable is only created once or created outside tf.function. See "
    "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")
VARIABLE_ON_LATER_CALL = "Creating variables on a non-first call to a function decorated with tf.function."


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


class _Bodies:
    """The loop bodies and branches of a run of a ``tf.function``, each a graph of its own for
    the random ops in it (``tapegrad.random``): a trace's, or an eager run's (:class:`GraphRun`)."""

    def loop(self) -> tuple | None:
        """The key of the innermost loop body or branch running (a path of ordinals) and the
        number of its current run (iteration), or None outside them."""
        return (self.loops[-1][0], self.loops[-1][1]) if self.loops else None

    def on_loop(self, items: Iterable, branch: int | None = None) -> Iterator:
        """``items`` one at a time as the iterations of one while loop's body (AutoGraph's ``for
        x in tensor``, ``tf.while_loop``, ``map_fn``, ...), or as the run of a conditional's
        branch ``branch``: a frame of ``loops`` while each runs."""
        top = not self.loops
        if self.loops:
            parent = self.loops[-1]
            key, parent[2] = parent[0] + (parent[2],), parent[2] + 1
        else:
            key, self.top_loops = (self.top_loops,), self.top_loops + 1
        if branch is not None:
            key += (("branch", branch),)
        first = getattr(self, "n", None)  # (a trace's slots: those the loop made, for FuncGraph)
        try:
            for x in items:
                self.runs += 1
                frame = [key, self.runs, 0]
                self.loops.append(frame)
                try:
                    yield x
                finally:
                    self.loops.remove(frame)
        finally:
            if top and first is not None:
                self.loop_spans.append((first, self.n, branch is not None))


class Tracer(_Bodies, _rec.Recorder):
    """Records the steps of one run; see the module docstring."""

    def __init__(self, owner: Any = None) -> None:
        self.owner = self if owner is None else owner  # what the trace's random kernels belong to
        self.slot: dict[int, int] = {}   # id(tensor) -> slot
        self.keep: list = []             # the tensors keyed by id, kept alive
        self.n = 0
        self.consts: dict[int, Any] = {}
        self.kinds: dict[int, str] = {}  # slot -> dtype kind
        self.steps: list = []
        self.res: list = []              # resources: Variables (arguments, then captured)
        self.n_arg_res = 0               # the first n_arg_res: the arguments, given at each call
        self.no_variables: str | None = None  # the error a Variable made now raises (a later trace)
        self.res_of: dict[int, int] = {}  # id(variable) -> resource index
        self.cur: dict[int, int] = {}    # resource -> slot of its value in this run
        self.problem: tuple | None = None
        self.quiet = False               # the problem is expected: run eagerly without a warning
        self.called = False              # a replayable call ran: no guard may follow
        self.n_inputs = 0
        self.random_graphs: dict | None = None  # tapegrad.random's graphs: the trace's, loop bodies'
        self.loops: list = []            # the loop bodies (or branches) running: [key, run, loops started in it]
        self.runs = 0                    # body runs (iterations, branches) started
        self.top_loops = 0               # loops and conditionals started outside any body
        self.made: dict[int, tuple] = {}    # tensor _id -> (code, line) of an unaudited maker
        self.suspect: dict[int, tuple] = {}  # constant slot -> (why, where) of an unaudited maker
        self.inner: dict[int, bool] = {}    # tensor _id -> made in this trace inside tapegrad (or not)
        self.sizes_read = False             # the function read a computed tensor's size into Python
        self.loop_spans: list = []          # (first slot, end slot, is a branch) of each outermost loop

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

    def arguments(self, variables: list) -> None:
        """The Variables passed as arguments (distinct, in order): resources given at each call."""
        for v in variables:
            self.resource(v)
        self.n_arg_res = len(self.res)

    def on_variable_create(self, v: Any) -> None:
        if self.no_variables:
            raise ValueError(self.no_variables)

    def _read_step(self, r: int, s: int) -> None:
        """Read resource ``r`` into slot ``s``; a Variable of a shape not fully declared (its value
        may take another shape between calls) is guarded by its shape."""
        self.steps.append(("read", r, s))
        if getattr(self.res[r], "_shape", None) is not None:
            self.steps.append(("shape", s, np.shape(self.keep[s]._value)))

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
            v = t._value
            # a user's NumPy array (an operand taken as it is) is captured by value, as TF does
            self.consts[s] = v.copy() if type(v) is np.ndarray and (v.flags.writeable or not v.flags.owndata) else v
            site = self.made.get(t._id)
            if site is not None:
                code, line = site
                why = (f"{code.co_name} ({os.path.relpath(code.co_filename, _PKG)}:{line}) made a "
                       "constant during the trace that may hold a value computed from an input's value")
                self.suspect[s] = (why, user_line())
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
        if _bk.seen and any(type(o) is _bk.ArrayTensor for o in outs):
            be = outs[0].backend
            self.fail(f"op {op.name} ran on {be} arrays, and a trace replays NumPy forwards only; every "
                      f"call runs the Python function op by op on {be} (same results"
                      f"{', still lazy' if be == 'dask' else ''}): nothing to fix, or leave out tf.function")
        ins = [self.slot_of(x) for x in xs]
        outs_s = [self.new_slot(o) for o in outs]
        self.steps.append(("op", op, ins, p, outs_s))
        if op in VALUE_SHAPED or any(self.kinds[i] in "iub" and i not in self.consts for i in ins):
            for o, s in zip(outs, outs_s):
                self.steps.append(("shape", s, np.shape(o._value)))

    def on_variable_read(self, v: Any) -> None:
        snap = v._snap
        if id(snap) not in self.slot:
            s = self.new_slot(snap)
            r = self.resource(v)
            self._read_step(r, s)
            self.cur[r] = s

    def on_variable_assign(self, v: Any, how: str = "", value: Any = None) -> None:
        if how not in ("assign", "assign_add", "assign_sub"):
            self.fail(f"a Variable update other than assign, assign_add and assign_sub ({v.name})")
            return
        r = self.resource(v)
        if r not in self.cur:  # (the value it had: read where the write happens)
            prev = self.new_slot(wrap(np.empty(0)))
            self.steps.append(("read", r, prev))  # (no shape guard: a write replaces the value)
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
                      "(an optimizer update, or a stateful tf.numpy_function that a retrace would "
                      "call twice)")
        v = t._value
        self.steps.append(("guard", s, np.shape(v), np.asarray(v).tobytes(), user_line()))

    def on_check(self, check: Callable, xs: Any) -> None:
        self.steps.append(("check", check, [self.slot_of(x) for x in xs]))

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

    def on_draw(self, fn: Callable, xs: list, outs: tuple, stateful: bool) -> None:
        ins = [self.slot_of(x) for x in xs]
        self.steps.append(("draw", fn, ins, [self.new_slot(o) for o in outs], stateful))

    def draw_from(self, v: Any, fn: Callable, xs: Any = ()) -> Tensor:
        """A draw ``fn(state, *values of xs) -> (new state, sample)`` on Variable ``v``'s value (a
        Generator's)."""
        r = self.resource(v)
        prev = self.cur.get(r)
        if prev is None:
            prev = self.cur[r] = self.new_slot(wrap(v._snap._value))
            self._read_step(r, prev)
        new, sample = (wrap(a) for a in fn(v._snap._value, *[x._value for x in xs]))
        v._set(new._value, fresh=True)  # (this run's own update, unseen by the recorders)
        self.on_draw(fn, [self.keep[prev], *xs], (new, sample), True)
        out = self.new_slot(v._snap)
        self.steps.append(("write", r, "assign", prev, self.slot[id(new)], out))
        self.cur[r] = out
        return sample

    def finish(self, outputs: list) -> "Program | None":
        """The program whose results are the slots of ``outputs`` (tensor leaves); None (and
        :attr:`problem` set) when it depends on a constant of an unaudited maker."""
        out_slots = [self.slot_of(t) for t in outputs]
        if self.suspect:
            used = set(out_slots)
            for step in _live(self.steps, out_slots):
                used.update(_reads(step))
            bad = [self.suspect[s] for s in sorted(used.intersection(self.suspect))]
            if bad:
                self.problem = bad[0]
                return None
        live = _live(self.steps, out_slots)
        size_free = not self.sizes_read and _size_free(live, out_slots, self.consts, self.keep, self.inner)
        steps = _fold(self.steps, self.consts, self.keep)
        prog = Program(steps, self.consts, self.res, out_slots, self.n_inputs, [t._value for t in self.keep],
                       self.n_arg_res)
        prog.size_free = size_free
        return prog


def start(tr: Tracer) -> None:
    """Make ``tr`` record this thread's work (and install the wrap hook)."""
    global _tracing
    with _lock:
        _tracing += 1
        _tensor.on_wrap = _on_wrap
        _tensor.on_size = _on_size
    _rec.push(tr)


def stop(tr: Tracer) -> None:
    """End :func:`start`."""
    global _tracing
    _rec.pop(tr)
    with _lock:
        _tracing -= 1
        if not _tracing:
            _tensor.on_wrap = None
            _tensor.on_size = None


def _on_wrap(t: Tensor) -> None:
    """Note the maker of ``t`` (a tensor made without an op) in this thread's tracers, unless it
    is audited: the user's code, the tracer itself, or a ``_tensor.constant_maker``.

    The maker is found up the stack from ``wrap``: conversion converts its first argument, and a
    function that was given the converted value as an argument (``tf.gather(x, indices)``, an
    operator's operand) passes it on from its caller."""
    if current() is None:  # (another thread is tracing)
        return
    obj = t._value
    f = sys._getframe(2)
    while f is not None:
        code = f.f_code
        if code in _tensor.CONSTANT_MAKERS or code.co_filename in _TRACER_FILES:
            _note_inner(t, True)
            return
        if code.co_name in _INNER or _is_arg(f, obj):
            f = f.f_back
        elif code.co_filename in _PLUMBING:
            if code.co_argcount:
                obj = f.f_locals.get(code.co_varnames[0])
            f = f.f_back
        else:
            break
    _note_inner(t, f is None or f.f_code.co_filename.startswith(_PKG))
    if f is None or not f.f_code.co_filename.startswith(_PKG) or f.f_code.co_filename.startswith(_ABOVE):
        return
    for rec in _rec.tls.stack:
        if type(rec) is Tracer:
            rec.made[t._id] = (f.f_code, f.f_lineno)


def _on_size(t: Tensor) -> None:
    """A tensor's size read into Python (``.shape``, ``len``): outside tapegrad's own code, that
    of a tensor the trace computed makes the trace depend on the sizes (not size-free)."""
    f = sys._getframe(2)
    if f.f_code.co_filename.startswith(_PKG) and not f.f_code.co_filename.startswith(_ABOVE):
        return
    for rec in _rec.tls.stack:
        if type(rec) is Tracer:
            s = rec.slot.get(id(t))
            if s is not None and s not in rec.consts:
                rec.sizes_read = True


def _note_inner(t: Tensor, inner: bool) -> None:
    for rec in _rec.tls.stack:
        if type(rec) is Tracer:
            rec.inner[t._id] = inner


_SIZE_FREE_PARAMS = (type(None), bool, float, complex, str, np.dtype, type, np.floating, np.bool_)
_AXIS_PARAMS = frozenset({"axis", "axes"})  # (axes index the rank, which a signature fixes)


def _size_free_param(v: Any) -> bool:
    """Whether an op parameter cannot hold an input's size: no integer (but a dtype, a flag)."""
    if isinstance(v, (tuple, list)):
        return all(_size_free_param(x) for x in v)
    if isinstance(v, dict):
        return all(_size_free_param(x) for x in v.values())
    return isinstance(v, _SIZE_FREE_PARAMS) or type(v).__name__ == "DType"


def _size_free(steps: list, outs: list, consts: dict, keep: list, inner: dict) -> bool:
    """Whether a trace's live steps hold nothing that an input's size could have set, so that it
    replays on inputs of other sizes (the dimensions an ``input_signature`` declares None): ops
    whose parameters hold no integer other than axes, Variable reads and writes, guards (which
    compare shapes too); constants made during the trace by the function's own code, of no
    integer dtype (a size read in Python is an int). Random draws, value checks and host calls
    keep Python values in callables: not size-free."""
    for step in steps:
        kind = step[0]
        if kind == "op":
            if not all(k in _AXIS_PARAMS or _size_free_param(v) for k, v in step[3].items()):
                return False
        elif kind not in ("read", "write", "guard", "shape"):
            return False
    for i in {i for step in steps for i in _reads(step)}.union(outs):
        made_inner = inner.get(keep[i]._id) if i in consts else None
        if made_inner or made_inner is not None and np.asarray(consts[i]).dtype.kind in "iu":
            return False
    return True


def _is_arg(f: Any, obj: Any) -> bool:
    """Whether ``obj`` is an argument of frame ``f``'s function (or an item of a list or tuple
    argument, ``*args`` and ``**kwargs`` included)."""
    code = f.f_code
    n = code.co_argcount + code.co_kwonlyargcount
    n += bool(code.co_flags & 4) + bool(code.co_flags & 8)  # *args, **kwargs
    if not n:
        return False
    loc = f.f_locals
    for name in code.co_varnames[:n]:
        a = loc.get(name)
        if a is obj:
            return True
        if type(a) is dict:
            a = list(a.values())
        if type(a) in (list, tuple) and any(x is obj for x in a):
            return True
    return False


def current() -> Tracer | None:
    """The tracer active in this thread, if any."""
    if _rec.active:
        for rec in _rec.tls.stack:
            if type(rec) is Tracer:
                return rec
    return None


class GraphRun(_Bodies, _rec.Recorder):
    """An eager run of a ``tf.function`` that cannot be replayed: it records nothing, but its
    random ops are the nodes of the function's graph (op seeds by position, kernels that live on
    between calls and are those of the function's traces), as TensorFlow's graph runs them."""

    def __init__(self, owner: Any) -> None:
        self.owner = owner
        self.random_graphs: dict | None = None
        self.loops: list = []
        self.runs = self.top_loops = 0


@contextlib.contextmanager
def graph_run(owner: Any) -> Iterator[None]:
    """Run the block as an eager run of the ``tf.function`` graph ``owner`` (:class:`GraphRun`)."""
    run = GraphRun(owner)
    _rec.push(run)
    try:
        yield
    finally:
        _rec.pop(run)


def innermost_graph() -> "Tracer | GraphRun | None":
    """The tracer or eager graph run of the innermost ``tf.function`` running in this thread."""
    if _rec.active:
        for rec in reversed(_rec.tls.stack):
            if type(rec) is Tracer or type(rec) is GraphRun:
                return rec
    return None


# TensorFlow's Grappler options (tf.config.optimizer.set_experimental_options): tapegrad runs no
# graph rewriter; of them, only debug_stripper acts (a trace leaves out check_numerics, as TF's)
GRAPPLER: dict = {"disable_model_pruning": False, "disable_meta_optimizer": False}


def stripping_debug() -> bool:
    """Whether a debug op (``check_numerics``) is being traced while ``debug_stripper`` is on."""
    return bool(GRAPPLER.get("debug_stripper")) and current() is not None


def value_shaped(op: Any) -> None:
    """Declare that ``op``'s output shape depends on its inputs' values beyond those of integer or
    bool inputs (``Unique``, ``Where``), so a trace guards them; called in the op's family file,
    beside its declaration."""
    if sys._getframe(1).f_globals.get("__name__") != op.module:
        raise ValueError(f"{op.name} is declared value-shaped outside {op.module}: declare it there, "
                         "beside the op's declaration")
    VALUE_SHAPED.add(op)


def innermost() -> Tracer | None:
    """The tracer of the innermost ``tf.function`` being traced in this thread, if any."""
    if _rec.active:
        for rec in reversed(_rec.tls.stack):
            if type(rec) is Tracer:
                return rec
    return None


_undo = threading.local()


def replaying() -> bool:
    """Whether a program replay runs in this thread."""
    return getattr(_undo, "log", None) is not None


def on_miss(fn: Callable) -> None:
    """Call ``fn`` if the replay running misses a guard: it undoes a side effect (a random
    kernel's draw) that the trace taken instead repeats."""
    _undo.log.append(fn)


def _undoable(run: Callable, inputs: list, *rest: Any) -> list:
    prev, _undo.log = getattr(_undo, "log", None), []
    log = _undo.log
    try:
        out = run(inputs, *rest)
    except Miss:
        for fn in reversed(log):
            fn()
        raise
    finally:
        _undo.log = prev
    if prev is not None:
        prev.extend(log)
    return out


def draw(fn: Callable, xs: list, stateful: bool) -> tuple:
    """Output tensors of the random draw ``fn(*values of xs) -> arrays``; traces record it as a
    step that draws again at each replay (``stateful``: it advances a state, so it always runs)."""
    _rec.note_random(xs, stateful)
    outs = tuple(wrap(a) for a in fn(*[x._value for x in xs]))
    if _rec.active:
        for rec in _rec.tls.stack:
            if type(rec) is Tracer:
                rec.on_draw(fn, xs, outs, stateful)
    return outs


def run_eagerly(reason: str) -> None:
    """The function being traced is one to run eagerly, as expected, without a warning (its
    work happens elsewhere, e.g. ``strategy.run`` on a mirrored strategy's replicas)."""
    for rec in _rec.tls.stack:
        if type(rec) is Tracer and rec.problem is None:
            rec.fail(reason)
            rec.quiet = True


def side_effect() -> None:
    """A step that cannot be undone ran (a stateful ``tf.numpy_function``): a replay that missed
    a later guard would repeat it, so no guard may follow in the traces recording."""
    for rec in _rec.tls.stack:
        if type(rec) is Tracer:
            rec.called = True


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
        if any(isinstance(x, _tensor.IndexedSlices) for x in _nest.flatten((list(args), kwargs))):
            # (a sparse gradient: its tensors are replayed too, not kept as the trace's values)
            args, kwargs = _nest.map_structure(_as_parts, (args, kwargs))
            return tr.host_call(functools.partial(_with_slices, fn), args, kwargs)
        return tr.host_call(fn, args, kwargs)
    return call


class _SlicesParts(tuple):
    """An IndexedSlices as the nest of its three parts, for a replayable call's arguments."""

    _fields = ("values", "indices", "dense_shape")

    def __new__(cls, *parts: Any) -> "_SlicesParts":
        return tuple.__new__(cls, parts)


def _as_parts(x: Any) -> Any:
    return _SlicesParts(x.values, x.indices, x.dense_shape) if isinstance(x, _tensor.IndexedSlices) else x


def _back(x: Any) -> Any:
    """``x`` with each :class:`_SlicesParts` in its lists, tuples and dicts an IndexedSlices again."""
    if type(x) is _SlicesParts:
        return _tensor.IndexedSlices(*x)
    if type(x) in (list, tuple):
        return type(x)(_back(y) for y in x)
    if type(x) is dict:
        return {k: _back(v) for k, v in x.items()}
    return x


def _with_slices(fn: Callable, *args: Any, **kwargs: Any) -> Any:
    return fn(*_back(args), **_back(kwargs))


def _rebuild(pack: Callable[[list], Any], spec: list, env: Any, res: list, tensors: bool) -> tuple:
    vals = []
    for kind, x in spec:
        if kind == "r":
            vals.append(res[x])
        elif kind == "s":
            v = env[x]
            vals.append(v if tensors else wrap(v))
        else:
            vals.append(x)
    return pack(vals)


class Program:
    """A finished trace: its steps with the dead ones dropped, and how to replay them."""

    def __init__(self, steps: list, consts: dict, res: list, outs: list, n_inputs: int,
                 values: list, n_arg_res: int = 0) -> None:
        # the Variables passed as arguments are not kept: each call gives its own (TF's spec keys)
        self.res = [None] * n_arg_res + res[n_arg_res:]
        self.consts, self.outs, self.n_inputs, self.n_arg_res = consts, outs, n_inputs, n_arg_res
        self.steps = _live(steps, outs)
        self.n_slots = len(values)
        self.values = values
        self.thread = threading.get_ident()
        self.fast = compile_program(self, True)
        # (the trace's values were needed to size the buffers; their shapes and dtypes are kept
        # for the fused version a hot program gets: _FUSE_AFTER)
        self.values = [(v.shape, v.dtype, v.flags.c_contiguous) if type(v) is np.ndarray else None
                       for v in values]
        self.calls = 0
        self._shared: Callable | None = None
        # a replay that may miss a guard after a stateful draw takes its draws back (on_miss)
        kinds = [st[0] for st in self.steps]
        self.undo = ("guard" in kinds or "shape" in kinds) and any(
            st[0] == "draw" and st[4] for st in self.steps)

    def resized(self) -> "Program":
        """This size-free program for inputs of other sizes: no buffers sized by the trace."""
        if self._shared is None:
            self._shared = compile_program(self, False)
        other = object.__new__(Program)
        other.__dict__.update(self.__dict__)
        other.fast = self._shared
        other.origin = self
        return other

    def resources(self, variables: list) -> list:
        """The resources of a call that passes Variables ``variables`` (distinct, in order)."""
        return list(variables) + self.res[self.n_arg_res:]

    def run(self, inputs: list) -> list:
        """Replay on input arrays, then the Variables passed as arguments (no outer recorder);
        returns output arrays."""
        if threading.get_ident() == self.thread:
            self.calls += 1
            if self.calls == _FUSE_AFTER and self.values is not None and _jit.ops_wanted():
                self.fast = compile_program(self, True, True)
            return _undoable(self.fast, inputs) if self.undo else self.fast(inputs)
        if self._shared is None:
            self._shared = compile_program(self, False)
        return _undoable(self._shared, inputs) if self.undo else self._shared(inputs)

    def run_engine(self, inputs: list, res: list) -> list:
        """Replay through the engine (outer recorders see every op); returns output tensors."""
        return _undoable(self._run_engine, inputs, res) if self.undo else self._run_engine(inputs, res)

    def _run_engine(self, inputs: list, res: list) -> list:
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
            elif kind == "draw":  # (through draw: an outer trace records it as a draw too)
                for s, t in zip(step[3], draw(step[1], [env[i] for i in step[2]], step[4])):
                    env[s] = t
            elif kind == "read":
                env[step[2]] = res[step[1]].read_value()
            elif kind == "write":
                _, r, how, prev, src, out = step
                a, b = env[prev]._value, env[src]._value
                env[out] = pending[r] = wrap(b if how == "assign" else np.add(a, b) if how == "assign_add"
                                             else np.subtract(a, b))
            elif kind == "guard":
                t = env[step[1]]
                _rec.note_escape(t, "a guard of a nested tf.function")  # (an outer trace guards it too)
                v = t._value
                if np.shape(v) != step[2] or np.asarray(v).tobytes() != step[3]:
                    raise Miss()
            elif kind == "shape":
                if np.shape(env[step[1]]._value) != step[2]:
                    raise Miss()
            elif kind == "check":  # (through check_values: an outer trace records it too)
                check_values(step[1], *[env[i] for i in step[2]])
            else:  # call
                _commit_tensors(pending, res)
                fn, structure, spec = step[1:]
                a, kw = _rebuild(_nest.packer(structure), spec, env, res, True)
                tr = current()
                if tr is None:
                    fn(*a, **kw)
                else:  # (an outer trace records the call as a step of its own)
                    tr.host_call(fn, a, kw)
        _commit_tensors(pending, res)
        return [env[s] for s in self.outs]


def _commit_tensors(pending: dict, res: list) -> None:
    for r, t in pending.items():
        res[r].assign(t)
    pending.clear()


def _reads(step: tuple) -> Any:
    """The slots a step reads."""
    kind = step[0]
    if kind == "op" or kind == "draw" or kind == "check":
        return step[2]
    if kind == "write":
        return (step[3], step[4])
    if kind == "guard" or kind == "shape":
        return (step[1],)
    if kind == "call":
        return [x for k, x in step[3] if k == "s"]
    return ()


def _live(steps: list, outs: list) -> list:
    """The steps something depends on (outputs, guards, writes, calls), in order."""
    need = set(outs)
    kept = []
    for step in reversed(steps):
        kind = step[0]
        if (kind == "op" and not any(o in need for o in step[4])
                or kind == "draw" and not step[4] and not any(o in need for o in step[3])
                or kind == "read" and step[2] not in need):
            continue
        need.update(_reads(step))
        kept.append(step)
    kept.reverse()
    return kept


def _fold(steps: list, consts: dict, keep: list) -> list:
    """Constant folding: an op whose inputs are all constants gives constants (the trace's values)."""
    out = []
    for step in steps:
        kind = step[0]
        if kind == "op" and all(i in consts for i in step[2]):
            for o in step[4]:
                consts[o] = keep[o]._value
            continue
        if kind == "check" and all(i in consts for i in step[2]):  # (checked when traced)
            continue
        if kind in ("guard", "shape") and step[1] in consts:
            continue
        out.append(step)
    return out


def _private(prog: Program) -> set:
    """Slots that may live in a buffer reused by every call: the array output of a ufunc step that
    only ufunc steps and checks read (no output, Variable write, host call or view keeps it)."""
    ufunc = {}
    for step in prog.steps:
        if step[0] == "op" and type(step[1].fwd) is np.ufunc and not step[3] and step[1].nout == 1:
            ufunc[step[4][0]] = step
    bad = set(prog.outs)
    for step in prog.steps:
        kind = step[0]
        if kind == "op":
            if type(step[1].fwd) is not np.ufunc or step[3]:
                bad.update(step[2])
        elif kind == "write":
            bad.update((step[3], step[4]))
        elif kind == "draw":
            bad.update(step[2])
        elif kind == "call":
            bad.update(x for k, x in step[3] if k == "s")
    return {o for o, st in ufunc.items() if o not in bad and len(_spec(prog, o)[0]) > 0}


def _spec(prog: Program, slot: int) -> tuple:
    """``(shape, dtype)`` of a slot's value in the trace (``((), None)`` if not an array)."""
    v = prog.consts[slot] if slot in prog.consts else prog.values[slot]
    if type(v) is np.ndarray:
        return v.shape, v.dtype
    return v[:2] if type(v) is tuple else ((), None)


def _contiguous(prog: Program, slot: int) -> bool:
    """Whether a slot's value was C-contiguous in the trace."""
    v = prog.consts[slot] if slot in prog.consts else prog.values[slot]
    return v.flags.c_contiguous if type(v) is np.ndarray else type(v) is tuple and v[2]


_FUSE_AFTER = 16   # replays of a program before its elementwise chains are compiled (with numba)
_FUSE = {np.multiply: "*", np.add: "+", np.subtract: "-", np.divide: "/", np.negative: "-"}
_FUSE_NAMED = {"Relu": "relu", "ReluGrad": "relugrad"}   # (ops/nn.py's lambdas: max(x, 0), g * (x > 0))
_ARITY = {"relu": 1, "relugrad": 2}
_FUSE_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
_ROW = 16   # rows of at least this many: a loop per row; shorter: one flat loop (or NumPy)


def _fuse_symbol(op: Any, n_in: int) -> Any:
    """The tree symbol of an op that may join a chain, else None."""
    sym = _FUSE.get(op.fwd) if type(op.fwd) is np.ufunc else _FUSE_NAMED.get(op.name)
    if sym is None or n_in != _ARITY.get(sym, 1 if op.fwd is np.negative else 2):
        return None
    return sym


def _input_kind(ishape: tuple, shape: tuple) -> Any:
    """How a fused loop over ``shape`` reads an input of ``ishape`` (_jit.fused's kinds), or None:
    full, a 0-d scalar, and with rows of _ROW or more a bias along the last axis or one value per
    row (what a layer's bias add and a normalization's keepdims statistics broadcast)."""
    if ishape == shape:
        return "f"
    if not ishape:
        return "s"
    if shape[-1] < _ROW:
        return None
    if ishape[-1] == shape[-1] and len(ishape) <= len(shape) and all(d == 1 for d in ishape[:-1]):
        return "b"
    if ishape == shape[:-1] + (1,) and len(shape) > 1:
        return "c"
    return None


def _fusions(prog: Program) -> tuple:
    """Chains of elementwise arithmetic to run as one compiled loop each (_jit.fused): ``(roots,
    members)``, ``roots[slot] = (tree, input slots, flat)`` for the last op of a chain, whose line
    computes the chain; ``members``: the other ops' outputs (no line of their own).

    An op joins: +, -, *, / or negation, ReLU or its gradient, float32/64, no parameters, every
    input of its output's shape and dtype, a 0-d array of its dtype, or (rows of _ROW or more) a
    bias along the last axis or one value per row. An op's output is inside its consumer's chain
    when that consumer is the only reader (not an output of the program), has the same shape,
    and only ops run between them; the chain then computes it when the consumer runs, from inputs
    all computed before (a slot is written once per replay). A chain is two ops or more, or one
    ReLU gradient (one loop for NumPy's comparison and product)."""
    uses: dict = {}
    for step in prog.steps:
        for x in _reads(step):
            uses[x] = uses.get(x, 0) + 1
    for x in prog.outs:
        uses[x] = uses.get(x, 0) + 2
    joins: dict = {}                      # output slot -> (step index, step, symbol)
    last_other = -1                       # index of the last step that is not an op
    inner: dict = {}                      # member slot -> True
    for n, step in enumerate(prog.steps):
        if step[0] != "op":
            last_other = n
            continue
        op, ins, p, outs = step[1:]
        sym = None if p or op.nout != 1 else _fuse_symbol(op, len(ins))
        if sym is None:
            continue
        shape, dtype = _spec(prog, outs[0])
        if dtype not in _FUSE_DTYPES or not shape:
            continue
        if not all(_spec(prog, i)[1] == dtype and _input_kind(_spec(prog, i)[0], shape) for i in ins):
            continue
        joins[outs[0]] = (n, step, sym)
        for i in ins:
            if i in joins and uses.get(i) == 1 and joins[i][0] > last_other and _spec(prog, i)[0] == shape:
                inner[i] = True

    def tree(slot: int, inputs: list, members: list, top: bool = False) -> tuple:
        if not top and slot not in inner:
            if slot not in inputs:
                inputs.append(slot)
            return ("a", inputs.index(slot))
        members.append(slot)
        _, step, sym = joins[slot]
        return (sym,) + tuple(tree(i, inputs, members) for i in step[2])

    roots: dict = {}
    for slot, (n, step, sym) in joins.items():
        if slot not in inner and (sym == "relugrad" or any(i in inner for i in step[2])):
            inputs: list = []
            members: list = []
            t = tree(slot, inputs, members, True)
            # rows of _ROW or more: a loop per row (any strides); shorter: one loop over the
            # arrays as 1-D when they were contiguous; else NumPy's passes are faster
            flat = _spec(prog, slot)[0][-1] < _ROW
            if not flat or all(_contiguous(prog, i) for i in inputs if _spec(prog, i)[0]):
                roots[slot] = (t, inputs, flat)
            else:
                for m in members[1:]:
                    del inner[m]
    return roots, inner


def compile_program(prog: Program, buffers: bool, fuse: bool = False) -> Callable:
    """``run(inputs) -> outputs``: the steps as one straight-line Python function calling NumPy.

    The source is made of internal names only: slots ``s<n>``, and names (``f<n>``, ``c<n>``,
    ``b<n>``) bound in the namespace built here to the callables, constants and buffers; no value,
    user string or op name enters it, and :func:`_check_source` verifies its shape before it is
    compiled (docs/function.md). ``buffers``: ufunc steps write into preallocated arrays (for the
    thread that traced; other threads get a version without). ``fuse``: chains of elementwise
    arithmetic run as one compiled loop each (:func:`_fusions`; numba)."""
    ns: dict[str, Any] = {}
    lines: list[str] = []

    def bind(obj: Any, prefix: str = "f") -> str:
        name = f"{prefix}{len(ns)}"
        ns[name] = obj
        return name

    def sl(i: int) -> str:
        return f"s{i}" if i not in prog.consts else const[i]

    const = {i: bind(v, "c") for i, v in prog.consts.items()}
    nvar = prog.n_arg_res

    def var(r: int) -> str:  # (a Variable passed as an argument: an input after the arrays)
        return f"s{prog.n_slots + r}"
    private = _private(prog) if buffers else set()
    roots, inner = _fusions(prog) if fuse else ({}, {})
    pending: dict[int, tuple] = {}
    hosts: list[int] = []   # (the lines calling back into Python)
    for step in prog.steps:
        kind = step[0]
        if kind == "op" and (step[4][0] in inner or step[4][0] in roots):
            if step[4][0] in roots:
                tree, ins, flat = roots[step[4][0]]
                shape, dtype = _spec(prog, step[4][0])
                kinds = "".join(_input_kind(_spec(prog, i)[0], shape) for i in ins)
                run = _fused_run(_jit.fused(tree, kinds, 1 if flat else len(shape), dtype), kinds, flat,
                                 np.empty(shape, dtype) if step[4][0] in private else None, shape, dtype)
                lines.append(f"s{step[4][0]} = {bind(run)}({', '.join(sl(i) for i in ins)})")
        elif kind == "op":
            _, op, ins, p, outs = step
            args = ", ".join(sl(i) for i in ins)
            fwd = functools.partial(op.fwd, **p) if p else op.fwd
            if outs[0] in private:
                buf = np.empty(*_spec(prog, outs[0]))
                if op.fwd in _OUT_BY_NAME:
                    fwd = functools.partial(op.fwd, out=buf)
                else:
                    args += ", " + bind(buf, "b")
            f = bind(fwd)
            lines.append(f"{_targets(outs, op.nout != 1)} = {f}({args})")
        elif kind == "draw":
            lines.append(f"{_targets(step[3], True)} = {bind(step[1])}({', '.join(sl(i) for i in step[2])})")
        elif kind == "read":
            r = step[1]
            lines.append(f"s{step[2]} = {bind(_read_arg)}({var(r)})" if r < nvar else
                         f"s{step[2]} = {bind(_reader(prog.res[r]))}()")
        elif kind == "write":
            _, r, how, prev, src, out = step
            if how == "assign":
                lines.append(f"s{out} = {sl(src)}")
            else:
                f = bind(np.add if how == "assign_add" else np.subtract)
                lines.append(f"s{out} = {f}({sl(prev)}, {sl(src)})")
            pending[r] = (out, how != "assign")
        elif kind in ("guard", "shape"):
            check = _guard(step[2], step[3] if kind == "guard" else None)
            lines.append(f"{bind(check)}(s{step[1]})")
        elif kind == "check":
            lines.append(f"{bind(step[1])}({', '.join(sl(i) for i in step[2])})")
        else:
            lines.extend(_commits(pending, prog.res, bind, var, nvar))
            fn, structure, spec = step[1:]
            args = [var(r) for r in range(nvar)] + [sl(x) for k, x in spec if k == "s"]
            hosts.append(len(lines))
            lines.append(f"{bind(_host(fn, structure, spec, prog.res, nvar))}({', '.join(args)})")
    lines.extend(_commits(pending, prog.res, bind, var, nvar))
    names = [f"s{i}" for i in range(prog.n_inputs)] + [var(r) for r in range(nvar)]
    head = f"    {', '.join(names)}{',' if len(names) == 1 else ''} = inputs\n" if names else ""
    ret = f"return [{', '.join(sl(i) for i in prog.outs)}]"
    lines = _release_before_hosts(lines, hosts, ret)
    src = "def run(inputs):\n" + head + "".join(f"    {ln}\n" for ln in lines) + f"    {ret}\n"
    _check_source(src)
    exec(compile(src, "<tf.function trace>", "exec"), ns)  # noqa: S102 (see _check_source)
    return ns["run"]


def _release_before_hosts(lines: list, hosts: list, ret: str) -> list:
    """``lines`` with a ``del`` before each host call of the slots assigned above it and used
    nowhere below: the arrays a step no longer needs (a layer's weights as read, activations)
    are freed before Python code runs, which may then find a variable's value held by nobody
    else and update it in place (Variable._sole_value), and which allocates into the memory
    they leave."""
    if not hosts:
        return lines
    uses: dict[str, int] = {}   # slot -> the last line reading it (len(lines): the return)
    born: dict[str, int] = {}
    for k, ln in enumerate(lines + [ret]):
        target, _, expr = ln.rpartition(" = ") if " = " in ln else ("", "", ln)
        for name in _SLOT.findall(expr):
            uses[name] = k
        for name in _SLOT.findall(target):
            born.setdefault(name, k)
    out: list = []
    last = 0
    for h in hosts:
        out.extend(lines[last:h])
        dead = [n for n, b in born.items() if b < h and last <= max(b, uses.get(n, -1)) < h]
        if dead:
            out.append("del " + ", ".join(sorted(dead, key=lambda n: int(n[1:]))))
        last = h
    return out + lines[last:]


_SLOT = re.compile(r"\bs[0-9]+\b")


def _fused_run(loop: Callable, kinds: str, flat: bool, buf: Any, shape: tuple, dtype: Any) -> Callable:
    """The replay's call of a fused loop: into ``buf`` (a private slot's buffer) or a new array;
    ``flat``: the arrays as 1-D (inputs contiguous in the trace: a view; otherwise a copy); a
    bias input as 1-D, a per-row input without its last axis (_jit.fused's kinds)."""
    if flat:
        keep = tuple(k != "s" for k in kinds)

        def run(*a: Any) -> np.ndarray:
            out = np.empty(shape, dtype) if buf is None else buf
            loop(*[x.reshape(-1) if k else x for x, k in zip(a, keep)], out.reshape(-1))
            return out
        return run
    if "b" not in kinds and "c" not in kinds:
        def run_rows(*a: Any) -> np.ndarray:
            out = np.empty(shape, dtype) if buf is None else buf
            loop(*a, out)
            return out
        return run_rows
    shapes = tuple(shape[-1:] if k == "b" else shape[:-1] if k == "c" else None for k in kinds)

    def run_broadcast(*a: Any) -> np.ndarray:
        out = np.empty(shape, dtype) if buf is None else buf
        loop(*[x if s is None else x.reshape(s) for x, s in zip(a, shapes)], out)
        return out
    return run_broadcast


def _targets(slots: Any, tuple_: bool) -> str:
    names = ", ".join(f"s{i}" for i in slots)
    return names + "," if tuple_ and "," not in names else names


def _commits(pending: dict, res: list, bind: Callable, var: Callable, nvar: int) -> list:
    out = [f"{bind(functools.partial(_commit_arg, fresh))}({var(r)}, s{slot})" if r < nvar else
           f"{bind(functools.partial(_commit, res[r], fresh))}(s{slot})"
           for r, (slot, fresh) in pending.items()]
    pending.clear()
    return out


def _commit(v: Any, fresh: bool, value: Any) -> None:
    v._set(value, fresh)


def _commit_arg(fresh: bool, v: Any, value: Any) -> None:
    v._set(value, fresh)


def _read_arg(v: Any) -> Any:
    return v._snap._value


def _reader(v: Any) -> Callable:
    return lambda: v._snap._value


def _guard(shape: tuple, data: bytes | None) -> Callable:
    def check(v: Any) -> None:
        if v.shape != shape or (data is not None and v.tobytes() != data):
            raise Miss
    return check


def _host(fn: Callable, structure: Any, spec: list, res: list, nvar: int) -> Callable:
    pack = _nest.packer(structure)

    def call(*values: Any) -> None:
        it = iter(values[nvar:])
        env = {x: next(it) for k, x in spec if k == "s"}
        a, kw = _rebuild(pack, spec, env, list(values[:nvar]) + res[nvar:], False)
        fn(*a, **kw)
    return call


_N = r"(?:[sfcb][0-9]+|inputs)"
_NAMES = rf"(?:{_N}(?:, {_N})*)?"
_CALL = rf"{_N}\({_NAMES}\)"
_STATEMENT = re.compile(rf"    (?:{_N}(?:, {_N})*,? = (?:{_N}|{_CALL})|{_CALL}|del s[0-9]+(?:, s[0-9]+)*)")
_RETURN = re.compile(rf"    return \[{_NAMES}\]")


def _check_source(src: str) -> None:
    """The generated module is one function ``run(inputs)`` whose statements are assignments to
    names (or tuples of names) of a name or a call of a name on names, calls of a name on names,
    ``del`` of slots, and a final ``return`` of a list of names; every name is an internal one. Anything else is an
    InternalError (the generator has a bug), and nothing is compiled. The check reads the lines,
    not an ``ast`` tree: CPython 3.11's ``ast.parse`` keeps its recursion depth in process-wide
    state, so a parse in another thread (a traceback being formatted) can fail ours with a
    SystemError (CPython gh-106905)."""
    lines = src.split("\n")
    ok = (len(lines) >= 3 and lines[0] == "def run(inputs):" and lines[-1] == ""
          and _RETURN.fullmatch(lines[-2]) is not None
          and all(_STATEMENT.fullmatch(ln) for ln in lines[1:-2]))
    if not ok:
        raise InternalError("tf.function: the generated replay code has an unexpected form "
                            "(a bug in tapegrad._trace; please report it)")
