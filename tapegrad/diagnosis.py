"""Why is my gradient ``None``? Explain mode for GradientTape, and the tape's statistics.

A gradient is ``None`` when the tape recorded no differentiable path from the target to the
source. TensorFlow says nothing more; tapegrad can say why and where, in two ways:

* ``tape.gradient(target, sources, unconnected_gradients="raise")`` (also for ``jacobian`` and
  ``batch_jacobian``) raises :class:`tapegrad.errors.UnconnectedGradientError`, a ``ValueError``
  that names, for every unconnected source, the cause and the file and line of your code where it
  happened. A Keras weight is named by its path (``dense_1/kernel``), as Keras names it.
* **Explain mode** makes the tape keep a light log while it records (op names, tensor ids and the
  file and line of the calling code; never values), so the causes can be found. Turn it on for
  one tape with ``tape.explain()`` (or :func:`explain`), or for every new tape with
  :func:`enable` / ``with tapegrad.diagnosis.explaining():`` or the environment variable
  ``TAPEGRAD_EXPLAIN=1``. In explain mode a ``None`` gradient also warns
  (:class:`NoneGradientWarning`) with the same explanation, and :func:`diagnose` answers the
  question after the fact.

Without explain mode ``"raise"`` still raises, with the causes the tape can see without a log
(an integer source, a Variable that was not watched, a target the tape never saw).

The causes named (``Cause.kind``):

==================== ============================================================================
``int_dtype``        the source has an integer or bool dtype
``outside_tape``     the target was computed outside the tape's ``with`` block
``not_watched``      a constant that was never ``tape.watch``-ed
``not_trainable``    a Variable created with ``trainable=False``
``watch_accessed``   the tape has ``watch_accessed_variables=False`` and the Variable was not watched
``not_read``         a Variable that no op read while the tape recorded: the target's computation
                     never used it (an unused variable or layer), or only a value computed from
                     it before the tape
``watched_late``     ``tape.watch(x)`` came after ``x`` was used
``stop_gradient``    the path goes through ``tf.stop_gradient``
``stop_recording``   the path goes through ops run inside ``tape.stop_recording()``
``int_on_path``      an op on the path produced an integer or bool tensor
``nondiff_op``       the path goes through a non-differentiable op (named)
``nondiff_input``    the path enters an op through an input that has no gradient (named)
``escaped``          the value left the tape: ``.numpy()``, ``float()``, ``int()``, ``bool()``,
                     ``np.asarray`` or a NumPy function tapegrad does not implement (named)
``assign``           the path goes through ``Variable.assign``, which does not carry gradients
``disconnected``     none of the above: the source is used, but nothing computed from it reaches
                     the target (a layer or model output that the loss leaves out)
``partial``          (a note) explain mode was turned on after the tape had recorded ops
==================== ============================================================================

>>> import tapegrad as tf, numpy as np
>>> x = tf.constant(2.0)
>>> with tf.GradientTape() as tape:
...     _ = tape.explain()
...     tape.watch(x)
...     y = tf.constant(np.square(x.numpy()))      # leaves the tape through .numpy()
>>> try:
...     tape.gradient(y, x, unconnected_gradients="raise")
... except tf.errors.UnconnectedGradientError as e:
...     print(e.diagnoses[0].causes[0].kind)
escaped
"""
from __future__ import annotations

import contextlib
import os
import sys
import warnings
from dataclasses import dataclass, field
from typing import Any, Iterator, NamedTuple

import numpy as np

from . import _tape
from ._recorders import Recorder, pop as _pop, push as _push
from ._tensor import IndexedSlices, Tensor, next_id as _next_id
from ._variable import Variable
from .errors import UnconnectedGradientError

__all__ = ["explain", "enable", "disable", "explaining", "diagnose", "stats", "Cause",
           "SourceDiagnosis", "Diagnosis", "TapeStats", "NoneGradientWarning",
           "UnconnectedGradientError"]


class NoneGradientWarning(UserWarning):
    """A gradient came out ``None`` on a tape in explain mode; the message says why."""


# ---------------------------------------------------------------------------- where in user code
_PKG = os.path.dirname(os.path.abspath(__file__)) + os.sep
_PKG_REAL = os.path.dirname(os.path.realpath(__file__)) + os.sep
_INSIDE: dict = {}  # code object -> defined inside the tapegrad package


def _inside(code: Any) -> bool:
    r = _INSIDE.get(code)
    if r is None:
        fn = code.co_filename
        r = _INSIDE[code] = fn.startswith(_PKG) or fn.startswith(_PKG_REAL)
    return r


def _user_where(depth: int = 2) -> tuple | None:
    """``(filename, lineno)`` of the first frame outside tapegrad, from ``depth`` frames up.

    Walked, not counted: the default starts at the hook's caller, however deep in tapegrad."""
    f: Any = sys._getframe(depth)
    inside = _INSIDE.get
    while f is not None:
        code = f.f_code
        r = inside(code)
        if r is None:
            r = _inside(code)
        if not r:
            return (code.co_filename, f.f_lineno)
        f = f.f_back
    return None


_CONVERSIONS = frozenset({"__float__", "__int__", "__bool__", "__index__", "__array__", "numpy",
                          "__complex__", "__format__"})
_HOOK_FRAMES = _CONVERSIONS | {"note_escape", "on_escape"}


# Set by tapegrad.keras: the path of the Keras layers being called ("model/dense_1"), or "".
# Explain mode notes it per recorded op, for the tape picture's op labels.
layer_scope: Any = None


def _at(where: tuple | None) -> str:
    return f" at {where[0]}:{where[1]}" if where else ""


def variable_name(v: Any) -> str:
    """How messages name a Variable: a Keras weight by its path (``"dense_1/kernel"``), as Keras
    does, and a ``tf.Variable`` by its name (``"v:0"``)."""
    try:
        return v.path
    except AttributeError:
        return v.name


# ---------------------------------------------------------------------------- results
@dataclass(frozen=True)
class Cause:
    """One reason a source got no gradient: ``kind`` (see the module docstring), a sentence
    saying what happened and what to do, and where in your code (``filename``, ``lineno``)."""

    kind: str
    message: str
    filename: str | None = None
    lineno: int | None = None

    def __str__(self) -> str:
        return self.message


@dataclass
class SourceDiagnosis:
    """Why ``source`` (``index`` in the flattened ``sources``) got no gradient."""

    index: int
    source: Any
    causes: list = field(default_factory=list)

    def label(self) -> str:
        s = self.source
        if isinstance(s, Variable):
            shape = s.shape.as_list() if s.shape.rank is not None else "[unknown shape]"
            return f"sources[{self.index}] (Variable '{variable_name(s)}', {s.dtype.name}{shape})"
        return f"sources[{self.index}] (Tensor {s.dtype.name}{list(s.shape)})"

    def __str__(self) -> str:
        lines = [self.label() + ":"]
        lines += [f"  - {c}" for c in self.causes]
        return "\n".join(lines)


class Diagnosis(list):
    """A list of :class:`SourceDiagnosis`, one per unconnected source; ``str()`` is the report."""

    def __str__(self) -> str:
        return "\n".join(str(d) for d in self)


# ---------------------------------------------------------------------------- the log
class _Explainer:
    """Explain mode for one tape: a light log of what the tape saw while recording.

    ``ops`` holds one tuple per op run while the tape recorded (recorded or not), and per op run
    inside ``stop_recording`` (``paused``): ``(op, input ids, output ids, output dtypes or None
    when recorded, recorded, where, paused)``. Values are never kept beyond what the tape itself
    holds: a recorded op's entry first keeps the tape's own input and output tuples (no copy, no
    work while recording) and :meth:`compact` turns them into ids before a backward walk frees
    them.
    """

    def __init__(self, tape: Any, cotangents: bool = False, warn: bool = True) -> None:
        self.ops: list = []
        self.watches: list = []   # (position in ops, ids, where)
        self.escapes: list = []   # (first id made after it, id, how, where)
        self.assigns: list = []   # (position, variable id, name, where)
        self.pauses: list = []    # (position, where)
        self.layers: dict = {}    # position in ops -> the Keras layer it ran in (layer_scope)
        self.exits: list = []     # (first id made after it, where): the `with` block ended
        self.partial = bool(_tape.recorder(tape).entries)
        self.start_id = _next_id()  # tensors with smaller ids existed before explain mode
        self.warn = warn
        self.norms: dict = {}     # (entry index, input index or -1) -> cotangent norm
        self.last_targets: tuple = ()
        self.on_cotangent = self._on_cotangent if cotangents else None
        self._shadow: Any = None
        self._paused = 0
        self._compacted = 0
        self._watched: set = set()

    # -- hooks called by the tape
    def on_op(self, op: Any, xs: Any, outs: tuple, recorded: bool, paused: bool = False) -> None:
        if recorded:  # the tape holds xs and outs already: ids later, in compact()
            where = _user_where()  # (the line of user code that ran it: causes, tape pictures)
            if layer_scope is not None:
                layer = layer_scope()
                if layer:
                    self.layers[len(self.ops)] = layer
            self.ops.append((op, xs, outs, None, True, where, False))
        else:
            self.ops.append((op, tuple([x._id for x in xs]), tuple([o._id for o in outs]),
                             tuple([o._value.dtype for o in outs]), False, _user_where(), paused))

    def compact(self) -> list:
        """Replace the tensors kept for recorded ops by their ids; returns the log."""
        ops = self.ops
        for k in range(self._compacted, len(ops)):
            op, xs, outs, dts, recorded, where, paused = ops[k]
            if recorded:
                ops[k] = (op, tuple([x._id for x in xs]), tuple([o._id for o in outs]), None, True,
                          where, False)
        self._compacted = len(ops)
        return ops

    def on_watch(self, flat: list) -> None:
        ids = tuple(t._id for t in flat if isinstance(t, (Tensor, Variable)))
        self._watched.update(ids)
        self.watches.append((len(self.ops), ids, _user_where()))

    def reset(self) -> None:
        for lst in (self.ops, self.watches, self.escapes, self.assigns, self.pauses, self.layers):
            lst.clear()
        self._compacted = 0
        self._watched.clear()
        self.norms.clear()
        self.partial = False

    def on_escape(self, t: Tensor, how: str) -> None:
        if not how.startswith(("np.", "scipy.", "ufunc:")):  # the NumPy fallback names the call itself
            # the converting code: above _note_escape <- Tensor.__float__ <- Variable.__float__ ...
            f: Any = sys._getframe(1)
            while f is not None and _inside(f.f_code) and f.f_code.co_name in _HOOK_FRAMES:
                f = f.f_back
            if f is not None and _inside(f.f_code):
                return  # tapegrad's own use of a value (a shape, an axis), not a user's
        self.escapes.append((_next_id(), t._id, how, _user_where()))

    def on_exit(self) -> None:
        self.exits.append((_next_id(), _user_where()))

    def on_assign(self, v: Variable) -> None:
        self.assigns.append((len(self.ops), v._id, variable_name(v), _user_where()))

    def on_pause(self, index: int) -> None:
        """``stop_recording`` took the tape off the stack at ``index``: log what runs meanwhile."""
        self._paused += 1
        if self._paused == 1 and index >= 0:
            self.pauses.append((len(self.ops), _user_where()))
            self._shadow = _Shadow(self)
            _push(self._shadow, index)

    def on_resume(self) -> None:
        self._paused -= 1
        if self._paused == 0 and self._shadow is not None:
            _pop(self._shadow)
            self._shadow = None

    def _on_cotangent(self, k: int, i: int, g: Any) -> None:
        parts = g if isinstance(g, tuple) else (g,)
        sq = 0.0
        for c in parts:
            if type(c) is IndexedSlices:
                c = c._dense()
            sq += float(np.linalg.norm(np.asarray(c._value).ravel())) ** 2
        self.norms[(k, i)] = sq ** 0.5


class _Shadow(Recorder):
    """Stands in the recorder stack for a paused tape: logs ops, records nothing."""

    __slots__ = ("_ex",)

    def __init__(self, ex: _Explainer) -> None:
        self._ex = ex

    def record(self, op: Any, xs: Any, p: dict, ans: Any, k: int) -> None:
        self._ex.on_op(op, xs, ans if type(ans) is tuple else (ans,), False, paused=True)

    def on_nondiff(self, op: Any, xs: Any, outs: tuple, p: Any = None) -> None:
        self._ex.on_op(op, xs, outs, False, paused=True)

    def on_variable_assign(self, v: Variable, how: str = "", value: Any = None) -> None:
        self._ex.on_assign(v)


# ---------------------------------------------------------------------------- public switches
def explain(tape: Any, cotangents: bool = False, warn: bool = True) -> Any:
    """Turn on explain mode for ``tape`` and return the tape (same as ``tape.explain()``).

    Call it before the computation, e.g. ``with tapegrad.diagnosis.explain(tf.GradientTape()) as
    tape:``. The tape then logs op names, tensor ids and the line of your code for each op (no
    values), so a ``None`` gradient can be explained: ``gradient`` warns with the causes
    (``warn=False`` turns that off), ``unconnected_gradients="raise"`` raises with them, and
    :func:`diagnose` reports them on demand. ``cotangents=True`` also keeps the norm of every
    cotangent of the last backward walk, which :func:`tapegrad.visualize.to_dot` draws on the
    edges.

    >>> import tapegrad as tf
    >>> w = tf.Variable(1.0, trainable=False)
    >>> with tf.diagnosis.explain(tf.GradientTape(), warn=False) as tape:
    ...     y = w * 2.0
    >>> print(tf.diagnosis.diagnose(tape, y, w)[0].causes[0].kind)
    not_trainable
    """
    if not isinstance(tape, _tape.GradientTape):
        raise TypeError(f"explain() takes a GradientTape, got {type(tape).__name__}.")
    ex = _tape.recorder(tape).explain
    if ex is None:
        _tape.recorder(tape).explain = _Explainer(tape, cotangents, warn)
    else:
        ex.warn = warn
        if cotangents and ex.on_cotangent is None:
            ex.on_cotangent = ex._on_cotangent
    return tape


def enable(cotangents: bool = False, warn: bool = True) -> None:
    """Turn explain mode on for every GradientTape created from now on (see :func:`explain`).

    The environment variable ``TAPEGRAD_EXPLAIN=1`` does the same when tapegrad is imported.
    """
    _tape.set_hook("explain_all", lambda tape: _Explainer(tape, cotangents, warn))


def disable() -> None:
    """Turn off :func:`enable` (tapes already in explain mode stay so)."""
    _tape.set_hook("explain_all", None)
    _explained.clear()


@contextlib.contextmanager
def explaining(cotangents: bool = False, warn: bool = True) -> Iterator[None]:
    """Explain mode for every GradientTape created inside the ``with`` block.

    >>> import tapegrad as tf, warnings
    >>> x = tf.constant(1.0)
    >>> with tf.diagnosis.explaining(), warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     with tf.GradientTape() as tape:
    ...         y = x * x                       # x is not watched
    ...     g = tape.gradient(y, x)
    >>> g is None, caught[0].category.__name__
    (True, 'NoneGradientWarning')
    """
    prev = _tape.explain_all
    enable(cotangents, warn)
    try:
        yield
    finally:
        _tape.set_hook("explain_all", prev)
        if prev is None:
            _explained.clear()


if os.environ.get("TAPEGRAD_EXPLAIN", "").strip().lower() in ("1", "true", "yes", "on"):
    enable()


# ---------------------------------------------------------------------------- statistics
class TapeStats(NamedTuple):
    """What a tape holds: recorded ``ops``, the ``bytes`` of the arrays they keep alive (inputs
    and outputs, each array counted once), the ``tensors`` it follows and the ``variables`` it
    watched."""

    ops: int
    bytes: int
    tensors: int
    variables: int

    def __str__(self) -> str:
        return (f"{self.ops} ops recorded, {_human(self.bytes)} held, {self.tensors} tensors "
                f"followed, {self.variables} variables watched")


def _human(n: float) -> str:
    if n < 1024:
        return f"{n:.0f} B"
    for unit in ("KiB", "MiB", "GiB"):
        n /= 1024
        if n < 1024:
            break
    return f"{n:.1f} {unit}"


def stats(tape: Any) -> TapeStats:
    """Count what ``tape`` holds right now (same as ``tape.stats()``); O(number of ops).

    >>> import tapegrad as tf
    >>> x = tf.ones([1000])
    >>> with tf.GradientTape(persistent=True) as tape:
    ...     tape.watch(x)
    ...     y = tf.reduce_sum(tf.exp(x) * x)
    >>> s = tape.stats(); (s.ops, s.bytes)
    (3, 12004)
    """
    rec = _tape.recorder(tape)
    seen: set = set()
    total = 0
    for entry in rec.entries:
        if entry is None:
            continue
        _, xs, _, ans, _ = entry
        for t in (*xs, *(ans if isinstance(ans, tuple) else (ans,))):
            v = t._value
            if id(v) not in seen:
                seen.add(id(v))
                total += int(getattr(v, "nbytes", 0))
    return TapeStats(sum(e is not None for e in rec.entries), total, len(rec.ids), len(rec.vars))


# ---------------------------------------------------------------------------- diagnosis
_HOW = {
    "numpy": ".numpy()",
    "__float__": "float()",
    "__int__": "int()",
    "__bool__": "bool() (or an `if`/`while` on a tensor)",
    "__array__": "conversion to a NumPy array (np.asarray, np.array, or a NumPy/SciPy function)",
}


def _how(how: str) -> str:
    if how.startswith("np."):
        return f"the NumPy call {how}, which tapegrad does not implement, so it ran on a plain array"
    if how.startswith("ufunc:"):
        return (f"the ufunc {how[6:]} (not NumPy's, e.g. SciPy's), which tapegrad does not "
                "implement, so it ran on a plain array")
    return _HOW.get(how, how)


class _Graph:
    """The explain log as a graph (built once per diagnosis)."""

    def __init__(self, ex: _Explainer) -> None:
        self.ops = ex.compact()
        self.producer: dict = {}
        self.consumers: dict = {}
        for k, (_, ins, outs, *_rest) in enumerate(ex.ops):
            for o in outs:
                self.producer[o] = k
            for i, x in enumerate(ins):
                self.consumers.setdefault(x, []).append((k, i))

    def forward(self, start: int, on_tape: bool) -> set:
        """Ids computed from ``start``; with ``on_tape`` only along differentiable recorded inputs."""
        seen = {start}
        todo = [start]
        ops = self.ops
        while todo:
            u = todo.pop()
            for k, i in self.consumers.get(u, ()):
                op, _, outs, dts, recorded, _, paused = ops[k]
                if on_tape and (not recorded or paused or (op.diff is not None and not op.diff[i])):
                    continue
                for o in outs:
                    if o not in seen:
                        seen.add(o)
                        todo.append(o)
        return seen

    def backward(self, starts: list) -> set:
        seen = set(starts)
        todo = list(starts)
        while todo:
            u = todo.pop()
            k = self.producer.get(u)
            if k is None:
                continue
            for x in self.ops[k][1]:
                if x not in seen:
                    seen.add(x)
                    todo.append(x)
        return seen


def _cause(kind: str, message: str, where: tuple | None = None) -> Cause:
    return Cause(kind, message, where[0] if where else None, where[1] if where else None)


def _first_use(graph: _Graph, sid: int) -> tuple | None:
    uses = graph.consumers.get(sid)
    if not uses:
        return None
    k = uses[0][0]
    return k, graph.ops[k][0].name, graph.ops[k][5]


def _cut_cause(op: Any, i: int, dts: tuple | None, paused: bool, where: tuple | None,
               pauses: list, k: int) -> Cause:
    name = op.name
    if paused:
        pw = max((p for p in pauses if p[0] <= k), key=lambda p: p[0], default=(0, None))[1]
        return _cause("stop_recording",
                      f"the path goes through {name}{_at(where)}, which ran inside "
                      f"tape.stop_recording(){_at(pw)}: the tape did not record it, so its result "
                      "is a constant. Move that computation out of the stop_recording block.", where)
    if name == "StopGradient":
        return _cause("stop_gradient",
                      f"the path is cut by tf.stop_gradient{_at(where)}: its result is a constant "
                      "for every tape, by design.", where)
    kinds = "" if dts is None else "".join(np.dtype(d).kind for d in dts)
    if op.nondiff:
        out = f" (it outputs {np.dtype(dts[0]).name})" if kinds and kinds[0] not in "fc" else ""
        return _cause("nondiff_op",
                      f"the path goes through {name}{_at(where)}, which is not differentiable"
                      f"{out}: its output is a constant for tapes. Use a differentiable formulation, "
                      "or a straight-through trick such as x + tf.stop_gradient(f(x) - x).", where)
    if op.diff is not None and not op.diff[i]:
        return _cause("nondiff_input",
                      f"the path enters {name}{_at(where)} through its input {i}, which has no "
                      "gradient (an index, a condition or a shape).", where)
    if kinds and not any(c in "fc" for c in kinds):
        return _cause("int_on_path",
                      f"{name}{_at(where)} produced a {np.dtype(dts[0]).name} tensor on the path: "
                      "integer and bool tensors carry no gradient. Keep the computation in floating "
                      "point (cast to an integer type only outside the differentiated part).", where)
    return _cause("nondiff_op", f"the tape did not record {name}{_at(where)}.", where)


def _variable_causes(tape: Any, ex: _Explainer | None, s: Variable) -> list:
    """A Variable the tape never watched: why."""
    name = variable_name(s)
    if not s.trainable:
        return [_cause("not_trainable",
                       f"Variable '{name}' is not trainable (trainable=False): tapes do not watch "
                       "it automatically. Call tape.watch(v) inside the `with` block, or create it "
                       "with trainable=True.")]
    if not _tape.recorder(tape).watch_accessed:
        return [_cause("watch_accessed",
                       f"the tape has watch_accessed_variables=False and Variable '{name}' was "
                       "never passed to tape.watch(): call tape.watch(v) before using it.")]
    escaped = _escape_cause(ex, s._id) if ex is not None else None
    if escaped is not None:
        return [escaped]
    # The tape sees reads only while it records: this variable fed no op of its computation. What
    # it cannot tell is a value computed from the variable before the tape from any other input
    # (the data `x`), so it blames no tensor of the target's history.
    return [_cause("not_read",
                   f"Variable '{name}' was never used by the computation of the target: no "
                   "operation read it while the tape was recording (an unused variable, or a layer "
                   "that was never called, e.g. created in __init__ but left out of call()). Use "
                   "it in the computation inside the `with` block, or leave it out of the sources. "
                   "(A value computed from it before the `with` block is a constant for the tape: "
                   "compute it inside the block.)")]


def _diagnose_one(tape: Any, ex: _Explainer | None, graph: _Graph | None, s: Any, index: int,
                  flat_t: list, pre_on_tape: bool | None, target_seen: bool | None) -> SourceDiagnosis:
    d = SourceDiagnosis(index, s)
    causes = d.causes
    sid = s._id
    is_var = isinstance(s, Variable)
    v = s._snap._value if is_var else s._value
    tids = [t._id for t in flat_t]
    if v.dtype.kind not in "fc":
        made = (f"Variable '{variable_name(s)}' holds {s.dtype.name} (tf.Variable(0) is an integer, "
                "tf.Variable(0.0) a float)" if is_var else f"the source has dtype {s.dtype.name}")
        use = None if graph is None else _first_use(graph, sid)
        used = f" (first used by {use[1]}{_at(use[2])})" if use else ""
        causes.append(_cause("int_dtype", f"{made}{used}. Only floating-point and complex tensors "
                                          "get gradients: create it as a float or cast it with "
                                          "tf.cast(x, tf.float32) before using it.",
                             use[2] if use else None))
    elif is_var and sid not in _tape.recorder(tape).vars:
        causes += _variable_causes(tape, ex, s)
    elif target_seen is False and graph is not None and (where := _after_exit(ex, flat_t)):
        causes.append(_cause("outside_tape",
                             f"the target was computed after the tape's `with` block{_at(where)} "
                             "had ended, so the tape did not record it. Move that computation "
                             "into the block (for a second derivative, the inner tape's gradient "
                             "call too).", where))
    elif target_seen is False and (graph is None or any(t._id < ex.start_id for t in flat_t)):
        causes.append(_cause("outside_tape",
                             ("the tape never saw the target being computed: it was made outside "
                              "the tape's `with` block (or is a constant)" if graph is not None else
                              "the tape did not record the target: it was computed outside the "
                              "tape's `with` block, or only from values the tape was not watching") +
                             ". Compute it inside the block, after watching the sources."))
    elif graph is None and pre_on_tape is None:
        causes.append(_cause("disconnected", "the tape has freed its record (a one-shot tape after "
                                             "gradient) and was not in explain mode, so the cause "
                                             "is unknown: record again with tape.explain()."))
    elif graph is None:
        if not pre_on_tape:
            causes.append(_cause("not_watched",
                                 "the source is a constant the tape was not following: call "
                                 "tape.watch(x) before using x, or make it a tf.Variable."))
        else:
            causes.append(_cause("disconnected", "the tape recorded no differentiable path from the "
                                                 "source to the target."))
    else:
        causes += _logged_causes(tape, ex, graph, s, tids)
    if ex is not None and ex.partial:
        causes.append(_cause("partial", "explain mode was turned on after the tape had recorded "
                                        "ops; turn it on before the computation for a full answer."))
    return d


def _logged_causes(tape: Any, ex: _Explainer, graph: _Graph, s: Any, tids: list) -> list:
    """Causes found by walking the explain log from the source towards the target."""
    sid = s._id
    causes: list = []
    watch_at = next(((pos, w) for pos, ids, w in ex.watches if sid in ids), None)
    produced = sid in graph.producer and graph.ops[graph.producer[sid]][4]
    use = _first_use(graph, sid)
    if not isinstance(s, Variable) and watch_at is None and not produced:
        hint = f"; it is first used by {use[1]}{_at(use[2])}" if use else "; the tape never saw it used"
        return [_cause("not_watched",
                       f"the source is a constant that was never watched{hint}. Call tape.watch(x) "
                       "before using x (or make it a tf.Variable).", use[2] if use else None)]
    watch_pos = watch_at[0] if watch_at is not None else -1
    if watch_at is not None and use is not None and use[0] < watch_pos:
        causes.append(_cause("watched_late",
                             f"tape.watch() was called{_at(watch_at[1])}, after the source was used "
                             f"by {use[1]}{_at(use[2])}; only operations after watch() are recorded. "
                             "Call tape.watch(x) first.", watch_at[1]))
    reach = graph.forward(sid, on_tape=False)
    back = graph.backward(tids)
    if any(t in reach for t in tids):
        seen: set = set()
        for u in graph.forward(sid, on_tape=True):
            for k, i in graph.consumers.get(u, ()):
                op, _, outs, dts, recorded, where, paused = graph.ops[k]
                if u == sid and k < watch_pos:
                    continue  # a use before watch(): reported above
                cut = not recorded or paused or (op.diff is not None and not op.diff[i])
                if cut and any(o in back for o in outs) and (op.name, where) not in seen:
                    seen.add((op.name, where))
                    causes.append(_cut_cause(op, i, dts, paused, where, ex.pauses, k))
        return causes
    # a tensor the target uses that no logged op made, made after the escape: the value came back
    newest = max((x for x in back if x not in graph.producer), default=-1)
    for after, eid, how, where in ex.escapes:
        if eid in reach and newest > after:
            causes.append(_escaped(how, where))
    for _, vid, name, where in ex.assigns:
        if vid in back and vid != sid:
            causes.append(_cause("assign",
                                 f"Variable '{name}' was changed by assign{_at(where)} and the target "
                                 "reads it: assign stores a value, it does not connect the variable "
                                 "to the expression the value came from. Use the expression itself "
                                 "in the target.", where))
    if not causes and not any(t in graph.producer for t in tids):
        causes.append(_cause("outside_tape",
                             "the target is a constant made inside the tape (tf.constant, or a "
                             "conversion of NumPy or Python values), not computed from the source "
                             "by tapegrad ops."))
    if not causes:
        what = f"Variable '{variable_name(s)}'" if isinstance(s, Variable) else "the source"
        used = (f"{what} is used (first by {use[1]}{_at(use[2])}), but nothing computed from it "
                "reaches the target" if use else f"no operation used {what} while the tape recorded")
        causes.append(_cause("disconnected",
                             f"the target does not depend on the source: {used} (e.g. a layer or "
                             "model output that the loss leaves out). Use it in the target, or "
                             "leave it out of the sources; if its value should reach the target, "
                             "look for a value converted outside tapegrad on the way.",
                             use[2] if use else None))
    return causes


def _escaped(how: str, where: tuple | None) -> Cause:
    return _cause("escaped",
                  f"the value left the tape through {_how(how)}{_at(where)}: anything computed from "
                  "the result is a constant. Use tapegrad ops instead (tf.* functions, or the NumPy "
                  "functions tapegrad implements).", where)


def _escape_cause(ex: _Explainer, vid: int) -> Cause | None:
    """A Variable whose value left the tape (``v.numpy()``) while it recorded, never read by an op."""
    for _, eid, how, where in ex.escapes:
        if eid == vid:
            return _escaped(how, where)
    return None


def _after_exit(ex: _Explainer, flat_t: list) -> tuple | None:
    """Where the ``with`` block ended, if the targets were all made after it (``None`` if not)."""
    if ex.exits and all(t._id >= ex.exits[-1][0] for t in flat_t):
        return ex.exits[-1][1]
    return None


def _diagnose(tape: Any, flat_t: list, flat_s: list, which: list, pre: list | None,
              target_seen: bool | None) -> Diagnosis:
    ex = _tape.recorder(tape).explain
    graph = _Graph(ex) if ex is not None else None
    if graph is not None and not ex.partial:
        target_seen = any(t._id in graph.producer or t._id in ex._watched or t._id in _tape.recorder(tape).vars
                          for t in flat_t)
    return Diagnosis(_diagnose_one(tape, ex, graph, flat_s[j], j, flat_t,
                                   None if pre is None else pre[j], target_seen) for j in which)


def diagnose(tape: Any, target: Any, sources: Any) -> Diagnosis:
    """Why ``tape.gradient(target, sources)`` is (or was) ``None`` for some sources.

    Returns a :class:`Diagnosis`: one :class:`SourceDiagnosis` per source that has no recorded
    differentiable path to the target (connected sources are left out); ``print()`` it for a
    report. Works before or after ``gradient``, also on a used non-persistent tape. The tape must
    have been in explain mode while recording (``tape.explain()``); otherwise every source is
    examined with only what the tape still knows (its dtype, whether it was watched).

    >>> import tapegrad as tf
    >>> x = tf.constant([1.0, 2.0])
    >>> with tf.GradientTape().explain(warn=False) as tape:
    ...     tape.watch(x)
    ...     y = tf.reduce_sum(tf.stop_gradient(x * x))
    >>> [c.kind for c in tf.diagnosis.diagnose(tape, y, x)[0].causes]
    ['stop_gradient']
    """
    flat_t = _tape.flat_targets(target)
    flat_s = _tape.flat_sources(sources)
    tids = {t._id for t in flat_t}
    rec = _tape.recorder(tape)
    ex = rec.explain
    if ex is None:  # no log: every source but the targets, with what the tape still knows
        ids = rec.ids
        freed = _tape.used(tape) and not ids
        pre = [None if freed else (s._id in ids or s._id in rec.vars) for s in flat_s]
        which = [j for j, s in enumerate(flat_s) if s._id not in tids]
        return _diagnose(tape, flat_t, flat_s, which, pre, None if freed else any(i in ids for i in tids))
    graph = _Graph(ex)
    watched = ex._watched

    def connected(s: Any) -> bool:
        i = s._id
        if i in tids:
            return True
        started = i in watched or i in rec.vars or (i in graph.producer and graph.ops[graph.producer[i]][4])
        return started and bool(graph.forward(i, on_tape=True) & tids)

    which = [j for j, s in enumerate(flat_s) if not connected(s)]
    return _diagnose(tape, flat_t, flat_s, which, None, None)


# ---------------------------------------------------------------------------- the gradient hook
_TURN_ON = ("For the line where the path was cut, run again with the environment variable "
            "TAPEGRAD_EXPLAIN=1, or turn on explain mode before recording with tape.explain() or "
            "tf.diagnosis.enable().")
# Variable id -> whether the last explain-mode gradient that left it None warned (cleared when
# explain mode is turned off for every tape).
_explained: dict = {}


def none_gradient_hint(sources: Any) -> str:
    """The sentence a None-gradient message ends with (the optimizer's warning and error): where
    the cause is, or how to get it. It never says to turn on explain mode when it is on."""
    warned = [_explained.get(s._id) for s in sources]
    if all(warned):
        return ("Explain mode is on: the NoneGradientWarning that tape.gradient gave says why, "
                "and at which line.")
    if _tape.explain_all is not None or None not in warned:
        return ("Explain mode is on, but the tape did not warn (warn=False, or it was made "
                "before explain mode was turned on): tf.diagnosis.diagnose(tape, loss, "
                "variables) says why, and at which line.")
    return _TURN_ON
class _BackwardCheck:
    """Made by ``GradientTape._run`` in explain mode or with ``unconnected_gradients="raise"``.

    Before the walk it notes what the tape knows (the walk may free it) and hands the walk
    ``on_cotangent`` (``None`` unless cotangent norms are kept); :meth:`end` explains the sources
    whose gradient came out ``None``: it raises in ``"raise"`` mode and warns in explain mode.
    """

    def __init__(self, tape: Any, flat_t: list, flat_s: list, mode: Any) -> None:
        self.tape, self.flat_t, self.flat_s, self.mode = tape, flat_t, flat_s, mode
        rec = _tape.recorder(tape)
        ids = rec.ids
        self.pre = [s._id in ids or s._id in rec.vars for s in flat_s]
        self.target_seen = any(t._id in ids for t in flat_t)
        self.on_cotangent = None
        ex = rec.explain
        if ex is not None:
            ex.compact()  # before the walk frees what the tape recorded
            ex.last_targets = tuple(t._id for t in flat_t)
            if ex.on_cotangent is not None:
                ex.norms.clear()
                self.on_cotangent = ex.on_cotangent

    def end(self, out: list) -> None:
        missing = [j for j, g in enumerate(out) if g is None]
        if not missing:
            return
        raise_ = self.mode is _tape.UnconnectedGradients.RAISE
        ex = _tape.recorder(self.tape).explain
        if not raise_ and ex is not None:  # what the optimizer's None-gradient warning says
            none = [self.flat_s[j]._id for j in missing if isinstance(self.flat_s[j], Variable)]
            _explained.update(dict.fromkeys(none, ex.warn))
        if not raise_ and (ex is None or not ex.warn):
            return
        diag = _diagnose(self.tape, self.flat_t, self.flat_s, missing, self.pre, self.target_seen)
        n = len(self.flat_s)
        text = (f"No gradient for {len(missing)} of {n} sources:\n" if n > 1 else
                "No gradient for the source:\n") + str(diag)
        if ex is None:
            text += f"\n({_TURN_ON})"
        if raise_:
            err = UnconnectedGradientError(text)
            err.diagnoses = diag
            raise err
        where = _user_where()
        if where is not None:
            warnings.warn_explicit(text, NoneGradientWarning, where[0], where[1])
        else:
            warnings.warn(text, NoneGradientWarning, stacklevel=2)
