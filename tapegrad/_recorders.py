"""The recorder stack: who is told that an op ran, and the protocol they implement.

A *recorder* is told about every op that runs in its thread while it is active: a tape
(``_tape.Tape``, behind ``GradientTape``), a forward-mode accumulator (``ForwardAccumulator``),
the variable collector of ``custom_gradient``, explain mode's log of a paused tape, and later the
``tf.function`` tracer. Recorders form a per-thread stack, outermost first. A recorder at position
``k`` that runs ops of its own (a ForwardAccumulator's tangent rules) runs them through
:func:`run_hidden`, with only the recorders before it visible, so outer recorders see inner ones'
work and never the reverse: this is what makes forward-over-reverse and reverse-over-forward work.

The dispatcher (``_dispatch``) reads :data:`active` first: with no recorder active in any thread
an op costs one global read beyond its NumPy call.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Iterable, Iterator


class Recorder:
    """The recorder protocol, with do-nothing defaults (subclass it and override what you need).

    ``record(op, xs, p, ans, k)``: a differentiable op ran on input tensors ``xs`` with static
    params ``p`` and gave ``ans`` (its output Tensor, or the tuple of outputs of a multi-output
    op); ``k`` is this recorder's position in the stack (for :func:`run_hidden`).
    ``on_nondiff(op, xs, outs, p)``: an op without derivative ran (its outputs are constants).
    ``on_variable_create(v)``: a Variable is being made (before its initial value is computed).
    ``on_variable_read(v)``: a Variable was read (converted to a Tensor).
    ``on_variable_assign(v, how, value)``: a Variable's value was replaced (``how``: ``"assign"``,
    ``"assign_add"`` or ``"assign_sub"`` with the operand ``value`` as given; ``""`` for other
    updates).
    ``on_escape(t, how)``: a tensor's value left the library (``numpy()``, ``float()``, ...).
    ``on_check(check, xs)``: ``check(*values of xs)`` validated tensors' values (``_convert.check_values``).
    ``on_random(xs, stateful)``: random numbers are about to be drawn from the values of ``xs``
    (a stateless draw's seed and parameters); ``stateful``: the draw advances a generator's state.
    ``stand_ins``: while this recorder is active, tensors stand in for symbolic ones whose unknown
    dimensions got arbitrary sizes (Keras's functional construction): see :func:`standing_in`.
    ``follows(t)``: whether this recorder follows tensor or Variable ``t`` (a tape that would
    give it a gradient, an accumulator that holds its tangent): NumPy interop warns when such a
    tensor leaves the library through a NumPy or SciPy function.
    ``on_loop(items, branch)``: a loop starts (a Python ``for`` over a tensor's rows,
    ``tf.while_loop``, ``map_fn``, ...) whose iterations ``items`` are, or (``branch``: its index)
    the branch a conditional takes, ``items`` its one run; an iterator to walk them with (a
    trace's: each item one run of TF's while-loop body or branch function), or None.
    """

    __slots__ = ()
    solo = False  # (a Tape's: whether it is the only recorder of its thread, the hot path's case)
    stand_ins = False  # (Keras's functional construction: tensors stand in for symbolic ones)

    def record(self, op: Any, xs: Any, p: dict, ans: Any, k: int) -> None:
        pass

    def on_nondiff(self, op: Any, xs: Any, outs: tuple, p: Any = None) -> None:
        pass

    def on_variable_create(self, v: Any) -> None:
        pass

    def on_variable_read(self, v: Any) -> None:
        pass

    def on_variable_assign(self, v: Any, how: str = "", value: Any = None) -> None:
        pass

    def on_escape(self, t: Any, how: str) -> None:
        pass

    def on_random(self, xs: Any, stateful: bool) -> None:
        pass

    def on_check(self, check: Callable, xs: Any) -> None:
        pass

    def on_loop(self, items: Iterable, branch: int | None = None) -> Iterator | None:
        return None

    def follows(self, t: Any) -> bool:
        return False


class Tape(Recorder):
    """What a GradientTape records into (the recorder on the stack), and the interface that the
    walk, the Jacobians, ``custom_gradient``, diagnosis and the tape picture read:

    ``ids``: ids of the tensors the tape follows; ``entries``: ``(op, xs, params, ans, needs)``
    per recorded op, in execution order; ``vars``: watched Variables by id; ``explain``: explain
    mode's log (``diagnosis``) or None; ``watch_accessed``: watch trainable Variables on read.
    """

    __slots__ = ("ids", "entries", "vars", "explain", "watch_accessed", "solo")

    def __init__(self, watch_accessed: bool) -> None:
        self.solo = False
        self.ids: set[int] = set()
        self.entries: list = []
        self.vars: dict[int, Any] = {}
        self.explain: Any = None
        self.watch_accessed = watch_accessed

    def clear(self) -> None:
        """Forget everything recorded and watched (the saved tensors are freed)."""
        self.ids = set()
        self.entries = []
        self.vars = {}

    def record(self, op: Any, xs: Any, p: dict, ans: Any, k: int) -> None:
        # ans: the output tensor, or the tuple of outputs of a multi-output op
        ids = self.ids
        diff = op.diff
        n = len(xs)
        if n == 2:
            x, y = xs
            a = x._id in ids and (diff is None or diff[0])
            b = y._id in ids and (diff is None or diff[1])
            needs = (_NEEDS01 if b else _NEEDS0) if a else (_NEEDS1 if b else None)
        elif n == 1:
            x = xs[0]
            needs = _NEEDS0 if x._id in ids and (diff is None or diff[0]) else None
        elif diff is None:
            needs = [i for i, x in enumerate(xs) if x._id in ids] or None
        else:
            needs = [i for i, x in enumerate(xs) if diff[i] and x._id in ids] or None
        added = False
        if needs is not None:
            if op.nout == 1:
                t = ans
                kind = t._value.dtype.kind
                if kind == "f" or kind == "c":
                    ids.add(t._id)
                    added = True
            else:
                for o in ans:
                    if o._value.dtype.kind in "fc":
                        ids.add(o._id)
                        added = True
            if added:
                self.entries.append((op, xs, p, ans, needs))
        if self.explain is not None:
            self.explain.on_op(op, xs, ans if op.nout != 1 else (ans,), recorded=added)

    def on_nondiff(self, op: Any, xs: Any, outs: tuple, p: Any = None) -> None:
        if self.explain is not None:
            self.explain.on_op(op, xs, outs, recorded=False)

    def on_variable_read(self, v: Any) -> None:
        if self.watch_accessed and v._trainable and v._id not in self.vars:
            self.watch_variable(v)

    def on_variable_assign(self, v: Any, how: str = "", value: Any = None) -> None:
        if self.explain is not None:
            self.explain.on_assign(v)

    def on_escape(self, t: Any, how: str) -> None:
        if self.explain is not None:
            self.explain.on_escape(t, how)

    def follows(self, t: Any) -> bool:  # (a trainable Variable: watched when it is read)
        return t._id in self.ids or (self.watch_accessed and getattr(t, "_trainable", False))

    def watch_variable(self, v: Any) -> None:
        self.vars[v._id] = v
        if v._snap._value.dtype.kind in "fc":
            self.ids.add(v._id)


_NEEDS0, _NEEDS1, _NEEDS01 = (0,), (1,), (0, 1)
# ``needs`` of a call whose input 0 has the output's shape (its other operand was a Python
# scalar): the walk need not check whether to sum its cotangent back to its shape
NEEDS0_SHAPED = tuple([0])  # (built at run time: a distinct object from _NEEDS0)


class _State(threading.local):
    def __init__(self) -> None:
        self.stack: list = []
        self.seed_walk = 0  # > 0 inside a vectorised Jacobian walk (identity seeds: see matmul)
        self.stateful = 0  # calls with state beyond their inputs so far: see note_stateful


tls = _State()
active = 0  # recorders active in any thread: the no-recorder fast path reads only this
_lock = threading.Lock()


def push(rec: Recorder, index: int | None = None) -> None:
    """Make ``rec`` active in this thread (on top, or at ``index``)."""
    global active
    with _lock:
        active += 1
    if index is None:
        tls.stack.append(rec)
    else:
        tls.stack.insert(index, rec)
    _solo(tls.stack)


def _solo(stack: list, gone: Any = ()) -> None:
    """Clear ``solo`` on the tapes in ``gone``; set it on the tapes in ``stack``."""
    for r in gone:
        if type(r) is Tape:
            r.solo = False
    one = len(stack) == 1
    for r in stack:
        if type(r) is Tape:
            r.solo = one


def pop(rec: Recorder) -> int:
    """Deactivate ``rec``; returns the position it had (-1 if it was not active)."""
    global active
    stack = tls.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is rec:
            del stack[i]
            _solo(stack, (rec,))
            with _lock:
                active -= 1
            return i
    return -1


def recording() -> bool:
    """Whether some recorder is active in this thread."""
    return bool(active and tls.stack)


def standing_in() -> bool:
    """Whether tensors in this thread stand in for symbolic ones (an active recorder's
    ``stand_ins``): a shape check that TensorFlow cannot make on an unknown dimension at trace
    time, such as a reshape's element count, gives a stand-in of the shape asked for instead of
    an error."""
    return bool(active) and any(r.stand_ins for r in tls.stack)


class swapped:
    """``with swapped(stack):`` makes the list ``stack`` this thread's recorder stack for the
    block (``[]``: none is visible) and restores the previous one after it; ``as`` gives the
    previous one. The one way to swap the stack (``push``/``pop`` change it in place)."""

    __slots__ = ("stack", "saved")

    def __init__(self, stack: list) -> None:
        self.stack = stack

    def __enter__(self) -> list:
        self.saved = saved = tls.stack
        tls.stack = self.stack
        _solo(self.stack, saved)
        return saved

    def __exit__(self, *exc: Any) -> None:
        tls.stack = self.saved
        _solo(self.saved, self.stack)


def run_hidden(k: int, fn: Callable, *args: Any) -> Any:
    """Run ``fn`` with only the recorders before position ``k`` visible in this thread."""
    with swapped(tls.stack[:k]):
        return fn(*args)


escape_hook: Callable | None = None
"""Called as ``escape_hook(t, how)`` after the recorders by :func:`note_escape` (while a recorder
is active): NumPy interop sets it, to warn when NumPy or SciPy converts a followed tensor."""


def note_escape(t: Any, how: str) -> None:
    """Tell the recorders that tensor ``t`` left the library (``how``: the method)."""
    if active:
        for rec in tls.stack:
            rec.on_escape(t, how)
        if escape_hook is not None:
            escape_hook(t, how)


def followed(t: Any) -> bool:
    """Whether a recorder of this thread follows tensor or Variable ``t`` (see ``Recorder.follows``)."""
    if active:
        for rec in tls.stack:
            if rec.follows(t):
                return True
    return False


def note_check(check: Callable, xs: Any) -> None:
    """Tell the recorders that ``check`` validated the values of ``xs`` (see ``Recorder.on_check``)."""
    for rec in tls.stack:
        rec.on_check(check, xs)


def note_random(xs: Any, stateful: bool) -> None:
    """Tell the recorders that random numbers are about to be drawn (see ``Recorder.on_random``)."""
    if active:
        for rec in tls.stack:
            rec.on_random(xs, stateful)


def iterate(items: Iterable, branch: int | None = None) -> Iterator:
    """Walk ``items``, the iterations of one loop (a Python ``for`` over a tensor's rows;
    ``tf.while_loop``, ``map_fn``, ``scan``, ``foldl``/``foldr``), or the one run of branch
    ``branch`` of a conditional: as the innermost recorder that treats them as one (``on_loop``)
    says."""
    if active:
        for rec in reversed(tls.stack):
            it = rec.on_loop(items, branch)
            if it is not None:
                return it
    return iter(items)


def note_stateful() -> None:
    """A call with state beyond its inputs ran in this thread (a Variable update, a
    ``py_function``). tf.data counts them around its functions' calls: TensorFlow refuses to
    checkpoint an iterator whose functions have state, and so does tapegrad."""
    tls.stateful += 1


def note_variable_create(v: Any) -> None:
    if active:
        for rec in tls.stack:
            rec.on_variable_create(v)


def note_variable_read(v: Any) -> None:
    if active:
        for rec in tls.stack:
            rec.on_variable_read(v)


def note_variable_assign(v: Any, how: str = "", value: Any = None) -> None:
    if active:
        for rec in tls.stack:
            rec.on_variable_assign(v, how, value)


def _no_graph() -> bool:
    return False


# whether a TensorFlow graph's function runs now (a dataset's function, a Keras step): set by
# ops/random, which runs them (numpy_function hands such a graph's values as TensorFlow does)
graph_runs: Callable[[], bool] = _no_graph
