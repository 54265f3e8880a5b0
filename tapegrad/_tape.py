"""GradientTape and the backward walk.

Recording. A tape holds ``_ids``, the ids of the tensors it follows (watched tensors, variables
it watches, and outputs of ops it recorded), and ``_entries``, one tuple per recorded op in
execution order: ``(op, inputs, params, ans, needs)``, where ``needs`` lists the inputs that were
on the tape (the only ones that will receive cotangents). An op is recorded iff some
differentiable input is on the tape and some output has a floating or complex dtype.

Backward walk. Entries are in execution order, so walking them in reverse is a topological
order of the recorded graph; no recursion, no sort. Cotangents live in a dict keyed by tensor id.
Each entry pops its outputs' cotangents (skipping the entry when there are none), calls the op's
VJP for the inputs in ``needs``, sums broadcast cotangents back to the input's shape, and adds
the results into the dict. Leaves keep their cotangent; an intermediate source has its cotangent
copied out when its producer is reached. On a one-shot tape each entry is dropped as soon as it
has been used, so saved values are freed during the walk.

Accumulation. The first contribution to a tensor is stored as is; the second allocates a sum the
walk owns; later ones add into it in place (when no recorder needs to see the addition). Gradients
from ``gather`` stay ``IndexedSlices`` and concatenate with each other, as in TensorFlow; a dense
contribution densifies them.
"""
from __future__ import annotations

import enum
from typing import Any, Iterator

import numpy as np

from . import _nest
from ._compiled import warn_outside
from ._framed import call as _call
from ._core import (IndexedSlices, Tensor, Variable, _pop, _push, _tls, _wrap,
                    convert_to_tensor)
from . import _core
from .errors import InternalError

__all__ = ["GradientTape", "UnconnectedGradients"]


class UnconnectedGradients(enum.Enum):
    """What ``gradient`` returns for a source the target does not depend on.

    ``NONE`` (the default) gives ``None``; ``ZERO`` gives zeros of the source's shape and dtype.
    ``RAISE`` (a tapegrad extension) raises :class:`tapegrad.errors.UnconnectedGradientError`,
    naming for each unconnected source why it is unconnected (see :mod:`tapegrad.diagnosis`).
    The strings ``"none"``, ``"zero"`` and ``"raise"`` are accepted too.
    """

    NONE = "none"
    ZERO = "zero"
    RAISE = "raise"


def _parse_unconnected(u: Any) -> UnconnectedGradients:
    try:
        return UnconnectedGradients(u)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {u!r}. Use "
                         "tf.UnconnectedGradients.NONE, tf.UnconnectedGradients.ZERO, 'none', "
                         "'zero' or 'raise'.") from None


_explain_all: Any = None  # tapegrad.diagnosis.enable() puts explain mode on every new tape


_IN_CONTEXT_WARNING = (
    "Calling GradientTape.gradient on a persistent tape inside its context is significantly less "
    "efficient than calling it outside the context (it causes the gradient ops to be recorded on "
    "the tape, leading to increased CPU and memory usage). Only call GradientTape.gradient inside "
    "the context if you actually want to trace the gradient in order to compute higher order "
    "derivatives.")


class _TapeCore:
    """What recording touches: the ids a tape follows, its entries and its explainer (if any).

    The compiled build makes this a C type (see _tape.pxd); GradientTape adds the rest.
    """

    __slots__ = ("_ids", "_entries", "_explain")

    def _record(self, op: Any, xs: Any, p: dict, ans: Any, k: int) -> None:
        # ans: the output tensor, or the tuple of outputs of a multi-output op
        ids = self._ids
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
                t = ans  # (named: the compiled build reads its fields directly, see _tape.pxd)
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
                self._entries.append((op, xs, p, ans, needs))
        if self._explain is not None:
            self._explain.on_op(op, xs, ans if op.nout != 1 else (ans,), recorded=added)


class GradientTape(_TapeCore):
    """Record operations so that their gradients can be computed (reverse mode).

    Operations run inside ``with tf.GradientTape() as tape:`` on watched tensors are recorded;
    ``tape.gradient(target, sources)`` then walks them backwards. Trainable Variables read in the
    context are watched automatically; other tensors need ``tape.watch(x)``::

        >>> import tapegrad as tf
        >>> x = tf.constant(3.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * x
        >>> float(tape.gradient(y, x))
        6.0

    What ``gradient`` computes: with targets ``y_1..y_n`` and seeds ``v_i`` (``output_gradients``,
    ones by default), the result for each source ``x`` is ``Σ_i v_iᵀ ∂y_i/∂x``, a vector-Jacobian
    product. A non-scalar or list target is therefore *summed*; use :meth:`jacobian` for the
    per-element derivatives.

    Args:
      persistent: allow several ``gradient``/``jacobian`` calls (memory is held until the tape is
        deleted). A non-persistent tape frees what it recorded during its one backward walk.
      watch_accessed_variables: watch trainable Variables automatically when they are read.
    """

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True) -> None:
        self._persistent = bool(persistent)
        self._watch_accessed = bool(watch_accessed_variables)
        self._ids: set[int] = set()
        self._entries: list = []
        self._vars: dict[int, Variable] = {}
        self._recording = False
        self._entered = False
        self._used = False        # a one-shot tape that has run its backward walk
        self._failed: str | None = None
        self._stopped_for_good = False
        self._explain = None if _explain_all is None else _explain_all(self)  # diagnosis.py

    # ------------------------------------------------------------------ context
    def __enter__(self) -> "GradientTape":
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter an "
                             "already-active tape.")
        if self._used:
            raise RuntimeError("This non-persistent GradientTape has already computed its gradient "
                               "and cannot record again. Create a new tape (or use persistent=True).")
        self._entered = True
        self._recording = True
        self._stopped_for_good = False
        _push(self)
        return self

    def __exit__(self, typ: Any, val: Any, tb: Any) -> None:
        if self._recording:
            _pop(self)
            self._recording = False
        if self._explain is not None:
            self._explain.on_exit()

    def _check_entered(self, what: str) -> None:
        if not self._entered:
            raise RuntimeError(
                f"GradientTape.{what}() was called on a tape that was never entered. Use it as a "
                "context manager: `with tf.GradientTape() as tape: ...`, then call "
                f"tape.{what}(...).")

    # ------------------------------------------------------------------ recording hooks
    def _on_nondiff(self, op: Any, xs: Any, outs: tuple) -> None:
        if self._explain is not None:
            self._explain.on_op(op, xs, outs, recorded=False)

    def _on_variable_read(self, v: Variable) -> None:
        if self._watch_accessed and v._trainable and v._id not in self._vars:
            self._watch_var(v)

    def _watch_var(self, v: Variable) -> None:
        self._vars[v._id] = v
        if v._snap._value.dtype.kind in "fc":
            self._ids.add(v._id)

    # ------------------------------------------------------------------ public API
    def watch(self, tensor: Any) -> None:
        """Follow ``tensor`` (a Tensor, a Variable, or any nest of them) from now on.

        Only operations run after ``watch`` are recorded. Integer and bool tensors cannot carry
        gradients: watching one warns and its gradient is ``None``.
        """
        self._check_entered("watch")
        flat = _nest.flatten(tensor)
        if not flat and isinstance(tensor, (list, tuple, dict)):
            warn_outside("GradientTape.watch was given an empty structure; nothing is watched.")
        for t in flat:
            if isinstance(t, Variable):
                self._watch_var(t)
                kind = t._snap._value.dtype.kind
            elif isinstance(t, Tensor):
                kind = t._value.dtype.kind
                if kind in "fc":
                    self._ids.add(t._id)
            elif isinstance(t, IndexedSlices):
                self.watch(t.values)
                continue
            else:
                raise ValueError(
                    f"Passed in object {t!r} of type {type(t).__name__!r}, not tf.Tensor or "
                    "tf.Variable. GradientTape.watch follows tapegrad tensors only: convert the "
                    "value first with x = tf.constant(value) (or tf.convert_to_tensor) and use x "
                    "in the computation.")
            if kind not in "fc":
                warn_outside(
                    "The dtype of the watched tensor must be floating (e.g. tf.float32), got "
                    f"tf.{t.dtype.name}. Its gradient will be None: create it as a float, or "
                    "tf.cast(x, tf.float32) it before watching.")
        if self._explain is not None:
            self._explain.on_watch(flat)

    def explain(self, cotangents: bool = False, warn: bool = True) -> "GradientTape":
        """Explain mode: keep a light log (op names, ids, lines of your code) so that a ``None``
        gradient says why. Returns the tape; see :func:`tapegrad.diagnosis.explain`.

        >>> import tapegrad as tf
        >>> x = tf.constant(1.0)
        >>> with tf.GradientTape().explain() as tape:
        ...     y = x * x                 # x was never watched
        >>> tape.gradient(y, x, unconnected_gradients="raise")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        tapegrad.errors.UnconnectedGradientError: No gradient for the source:
        sources[0] (Tensor float32[]):
          - the source is a constant that was never watched; it is first used by Mul at ...
        """
        from .diagnosis import explain
        return explain(self, cotangents, warn)

    def stats(self) -> Any:
        """What the tape holds: ``TapeStats(ops, bytes, tensors, variables)`` (see
        :func:`tapegrad.diagnosis.stats`)."""
        from .diagnosis import stats
        return stats(self)

    def watched_variables(self) -> tuple:
        """The variables this tape watched (explicitly or on access), in creation order."""
        return tuple(sorted(self._vars.values(), key=lambda v: v._uid))

    def stop_recording(self) -> "_StopRecording":
        """A context manager in which this tape records nothing (other tapes carry on).

        >>> import tapegrad as tf
        >>> x = tf.constant(2.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     with tape.stop_recording():
        ...         y = x * x          # a constant for this tape
        ...     z = y * x
        >>> float(tape.gradient(z, x))
        4.0
        """
        if not self._entered:
            raise RuntimeError("Trying to stop recording a tape which is not recording (it was "
                               "never entered).")
        if not self._recording:
            raise ValueError("Tape is not recording: stop_recording() must be used inside the "
                             "tape's `with` block.")
        return _StopRecording(self)

    def reset(self) -> None:
        """Discard everything recorded and watched so far; keep recording (call inside ``with``)."""
        if not self._recording:
            raise ValueError("Tape is not recording: reset() must be called inside the tape's "
                             "`with` block.")
        self._ids = set()
        self._entries = []
        self._vars = {}
        if self._explain is not None:
            self._explain.reset()

    # ------------------------------------------------------------------ gradient
    def _begin_backward(self) -> None:
        """Checks and in-context behaviour common to gradient/jacobian/batch_jacobian."""
        self._check_entered("gradient")
        if self._failed is not None:   # checked first: a failed walk also marks the tape used
            raise RuntimeError(f"This GradientTape's backward pass failed earlier ({self._failed}); "
                               "its recorded state was released. Record again on a new tape.")
        if self._used:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set "
                               "of gradients (or jacobians). Pass persistent=True to call "
                               "gradient more than once.")
        if self._recording:
            if self._persistent:
                _core.warn_once("in-context", _IN_CONTEXT_WARNING)
            else:
                _pop(self)
                self._recording = False
                self._stopped_for_good = True

    def gradient(self, target: Any, sources: Any, output_gradients: Any = None,
                 unconnected_gradients: Any = UnconnectedGradients.NONE) -> Any:
        """Vector-Jacobian product of ``target`` with respect to ``sources``.

        Returns, for every source ``x``, ``Σ_i v_iᵀ ∂y_i/∂x`` summed over the flattened targets
        ``y_i``, where ``v_i`` is ``output_gradients[i]`` (ones when not given): the gradient of
        ``Σ_i sum(v_i * y_i)``. The result mirrors the structure of ``sources``; each entry has
        its source's shape and dtype, or is ``None`` when the source is not connected to the
        target (``unconnected_gradients="zero"`` gives zeros instead).

        Args:
          target: a Tensor or Variable, or a nest of them (their gradients are summed).
          sources: a Tensor or Variable, or a nest of them.
          output_gradients: the vector ``v``: one tensor per flattened target, of that target's
            shape (converted to its dtype); ``None`` entries mean ones.
          unconnected_gradients: ``tf.UnconnectedGradients.NONE``/``"none"`` or ``ZERO``/``"zero"``.

        >>> import tapegrad as tf
        >>> x = tf.constant([1.0, 2.0, 3.0])
        >>> with tf.GradientTape(persistent=True) as tape:
        ...     tape.watch(x)
        ...     y = x * x                                   # dy/dx is diag(2x)
        >>> tape.gradient(y, x).numpy()                     # ones ᵀ J = 2x
        array([2., 4., 6.], dtype=float32)
        >>> tape.gradient(y, x, output_gradients=tf.constant([1.0, 0.0, 10.0])).numpy()
        array([ 2.,  0., 60.], dtype=float32)
        """
        mode = _parse_unconnected(unconnected_gradients)
        if target is None:
            raise TypeError("Argument `target` should be a Tensor or a nested structure of Tensors "
                            "or Variables to be differentiated, but received None.")
        self._begin_backward()
        flat_t = self._flat_targets(target)
        flat_s = self._flat_sources(sources)
        seeds = self._seeds(flat_t, output_gradients)
        grads = self._run(flat_t, seeds, flat_s, mode)
        return _nest.pack_sequence_as(sources, grads)

    # -- helpers shared with jacobian
    @staticmethod
    def _flat_targets(target: Any) -> list:
        flat = _nest.flatten(target)
        out = []
        for i, t in enumerate(flat):
            if isinstance(t, Variable):
                t = t._snap
            elif isinstance(t, IndexedSlices):
                t = convert_to_tensor(t)
            elif not isinstance(t, Tensor):
                where = "target" if len(flat) == 1 else f"target[{i}] (flattened)"
                raise TypeError(f"{where} is a {type(t).__name__}, not a tapegrad Tensor or Variable. "
                                "Gradients can only be taken of tensors computed with tapegrad ops "
                                "inside the tape's context.")
            out.append(t)
        return out

    @staticmethod
    def _flat_sources(sources: Any) -> list:
        flat = _nest.flatten(sources)
        for i, s in enumerate(flat):
            if not isinstance(s, (Tensor, Variable)):
                where = "sources" if not isinstance(sources, (list, tuple, dict)) else f"sources[{i}] (flattened)"
                hint = (" Convert it with tf.constant(...) before the computation and tape.watch it."
                        if isinstance(s, (np.ndarray, np.generic, float, int)) else "")
                raise TypeError(f"{where} is a {type(s).__name__}, not a tapegrad Tensor or "
                                f"Variable: gradients are taken with respect to tensors that the "
                                f"tape followed.{hint}")
        return flat

    @staticmethod
    def _seeds(flat_t: list, output_gradients: Any) -> list:
        n = len(flat_t)
        if output_gradients is None:
            return [None] * n
        if n == 1 and not isinstance(output_gradients, (list, tuple, dict)):
            og = [output_gradients]
        else:
            og = _nest.flatten(output_gradients)
            if n == 1 and len(og) != 1:
                raise ValueError(
                    f"output_gradients has {len(og)} entries but there is 1 target. For a single "
                    f"target pass one tensor of the target's shape {list(flat_t[0]._value.shape)}, "
                    "e.g. output_gradients=tf.constant([...]); a Python list is read as one seed "
                    "per target.")
        if len(og) != n:
            raise ValueError(f"output_gradients has {len(og)} entries but the target has {n} "
                             "tensors (after flattening); give one seed per target tensor, or None "
                             "for ones.")
        seeds = []
        for i, (t, s) in enumerate(zip(flat_t, og)):
            if s is None:
                seeds.append(None)
                continue
            if isinstance(s, IndexedSlices):
                s = convert_to_tensor(s)
            if t._value.dtype.kind != "c" and np.iscomplexobj(s._value if isinstance(s, Tensor) else s):
                raise ValueError(f"output_gradients[{i}] is complex but target[{i}] is "
                                 f"{t.dtype.name}: casting the seed would drop its imaginary part. "
                                 "Pass a real seed (e.g. tf.math.real(seed)).")
            if isinstance(s, (Tensor, Variable)):
                s = convert_to_tensor(s)
                if s._value.dtype != t._value.dtype:
                    s = _cast_seed(s, t)
            else:
                try:
                    s = _wrap(np.asarray(s, dtype=t._value.dtype))
                except (TypeError, ValueError):
                    raise ValueError(f"output_gradients[{i}] could not be converted to the target's "
                                     f"dtype {t.dtype.name}: {s!r}.") from None
            if s._value.shape != t._value.shape:
                raise ValueError(f"output_gradients[{i}] has shape {list(s._value.shape)} but "
                                 f"target[{i}] has shape {list(t._value.shape)}; each seed must have "
                                 "its target's shape.")
            seeds.append(s)
        return seeds

    def _run(self, flat_t: list, seeds: list, flat_s: list, mode: UnconnectedGradients,
             batch: int | None = None, keep: bool = False) -> list:
        # keep=True: a one-shot tape keeps its entries for another walk (Jacobian rows/chunks).
        ct: dict[int, Any] = {}
        owned: set[int] = set()
        for t, s in zip(flat_t, seeds):
            if s is None:
                s = _ones_seed(t, batch)
            _accumulate(ct, owned, t._id, s)
        src_ids = {s._id for s in flat_s}
        entries = self._entries
        free = not (self._persistent or keep)
        check = None
        if self._explain is not None or mode is UnconnectedGradients.RAISE:
            from .diagnosis import _BackwardCheck
            check = _BackwardCheck(self, flat_t, flat_s, mode)
        if free:
            self._entries = []
            self._used = True
        try:
            found = _backward(entries, ct, owned, src_ids, free, batch,
                              None if check is None else check.on_cotangent)
        except BaseException as e:
            if free:
                self._failed = f"{type(e).__name__}: {e}"
            raise
        finally:
            if free:
                entries.clear()
                self._ids = set()
        out = []
        for s in flat_s:
            g = found.get(s._id)
            if g is None:
                g = ct.get(s._id)
            if g is None:
                if mode is UnconnectedGradients.ZERO:
                    v = s._snap._value if isinstance(s, Variable) else s._value
                    shape = v.shape if batch is None else (batch,) + v.shape
                    g = _wrap(np.zeros(shape, v.dtype))
            elif isinstance(s, (Tensor, Variable)) and not isinstance(g, IndexedSlices):
                v = s._snap._value if isinstance(s, Variable) else s._value
                if v.dtype.kind not in "fc" and not (g._value.dtype == v.dtype):
                    g = None if mode is not UnconnectedGradients.ZERO else _wrap(np.zeros(v.shape, v.dtype))
            out.append(g)
        if check is not None:
            check.end(out)
        return out

    # ------------------------------------------------------------------ jacobians (autodiff/_jacobian.py)
    def jacobian(self, target: Any, sources: Any, unconnected_gradients: Any = UnconnectedGradients.NONE,
                 parallel_iterations: Any = None, experimental_use_pfor: bool = True) -> Any:
        """Full Jacobian: each entry has shape ``target.shape + source.shape``.

        ``result[i..., j...] = ∂target[i...] / ∂source[j...]``. Computed as one batched backward
        walk over all rows (``experimental_use_pfor=True``) or one walk per row (``False``); both
        give identical numbers.

        >>> import tapegrad as tf
        >>> x = tf.constant([1.0, 2.0])
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * x
        >>> tape.jacobian(y, x).numpy()
        array([[2., 0.],
               [0., 4.]], dtype=float32)
        """
        from ._jacobian import jacobian
        return jacobian(self, target, sources, unconnected_gradients, parallel_iterations,
                        experimental_use_pfor)

    def batch_jacobian(self, target: Any, source: Any, unconnected_gradients: Any = UnconnectedGradients.NONE,
                       parallel_iterations: Any = None, experimental_use_pfor: bool = True) -> Any:
        """Per-example Jacobians: ``[b] + target.shape[1:] + source.shape[1:]``.

        Assumes ``target[i]`` depends only on ``source[i]``, as TensorFlow does;
        :func:`tapegrad.autodiff.check_batch_independence` verifies that assumption.
        """
        from ._jacobian import batch_jacobian
        return batch_jacobian(self, target, source, unconnected_gradients, parallel_iterations,
                              experimental_use_pfor)

    def __del__(self) -> None:
        if getattr(self, "_recording", False):
            try:
                _pop(self)
            except Exception:
                pass


def _cast_seed(s: Tensor, t: Tensor) -> Tensor:
    from .ops.math import cast
    return cast(s, t.dtype)


def _ones_seed(t: Tensor, batch: int | None) -> Tensor:
    v = t._value
    if batch is None:
        return _wrap(np.ones(v.shape, v.dtype) if v.ndim else v.dtype.type(1))
    n = v.size
    return _wrap(np.eye(n, dtype=v.dtype).reshape((n,) + v.shape))


_NEEDS0, _NEEDS1, _NEEDS01 = (0,), (1,), (0, 1)


class _StopRecording:
    def __init__(self, tape: GradientTape) -> None:
        self._tape = tape
        self._index = -1

    def __enter__(self) -> None:
        self._index = _pop(self._tape)
        self._tape._recording = False
        if self._tape._explain is not None:
            self._tape._explain.on_pause(self._index)

    def __exit__(self, *exc: Any) -> None:
        if self._tape._explain is not None:
            self._tape._explain.on_resume()
        if self._index >= 0 and not self._tape._stopped_for_good:
            _push(self._tape, self._index)
            self._tape._recording = True


# ---------------------------------------------------------------------------- the walk
def _accumulate(ct: dict, owned: set, key: int, g: Any) -> None:
    prev = ct.get(key)
    if prev is None:
        ct[key] = g
        return
    if type(g) is IndexedSlices or type(prev) is IndexedSlices:
        ct[key] = _add_sparse(prev, g)
        owned.discard(key)
        return
    if not (_core._active and _tls.stack):
        pv, gv = prev._value, g._value
        if key in owned:
            _call(np.add, pv, gv, out=pv)  # (_framed: NumPy's warnings stay silenced)
            return
        s = _call(np.add, pv, gv)
        if type(s) is np.ndarray and s.shape == pv.shape:
            owned.add(key)
        ct[key] = _wrap(s)
        return
    ct[key] = prev + g


def _add_sparse(a: Any, b: Any) -> Any:
    if type(a) is IndexedSlices and type(b) is IndexedSlices:
        from .ops.array import concat
        return IndexedSlices(concat([a.values, b.values], 0), concat([a.indices, b.indices], 0),
                             a.dense_shape)
    if type(a) is IndexedSlices:
        a = a._dense()
    if type(b) is IndexedSlices:
        b = b._dense()
    return a + b


def _backward(entries: list, ct: dict, owned: set, src_ids: set, free: bool,
              batch: int | None, observe: Any = None) -> dict:
    # observe(k, i, cotangent): explain mode's record of cotangent norms (i = -1: the output's)
    from .ops.array import unbroadcast
    found: dict[int, Any] = {}
    pop = ct.pop
    for k in range(len(entries) - 1, -1, -1):
        op, xs, p, ans, needs = entries[k]
        if free:
            entries[k] = None
        if op.nout == 1:
            aid = ans._id
            g = pop(aid, None)
            if g is None:
                continue
            if aid in src_ids:
                found[aid] = g
            if owned:
                owned.discard(aid)
            if type(g) is IndexedSlices:
                g = g._dense()
        else:
            gs = [pop(o._id, None) for o in ans]
            if gs.count(None) == len(gs):
                continue
            for i, o in enumerate(ans):
                if o._id in src_ids and gs[i] is not None:
                    found[o._id] = gs[i]
                owned.discard(o._id)
                if gs[i] is None:
                    shape = o._value.shape if batch is None else (batch,) + o._value.shape
                    gs[i] = _wrap(np.zeros(shape, o._value.dtype))
                elif type(gs[i]) is IndexedSlices:
                    gs[i] = gs[i]._dense()
            g = tuple(gs)
        if observe is not None:
            observe(k, -1, g)
        if batch is None or op.batch_ok:
            grads = op.bwd(g, ans, needs, xs, p)
        else:
            grads = _rowwise(op, g, ans, needs, xs, p, batch)
        bc = op.bcast
        for i, gi in zip(needs, grads):
            if gi is None:
                continue
            x = xs[i]
            tg = type(gi)
            if tg is not IndexedSlices:
                if tg is not Tensor:
                    gi = convert_to_tensor(gi)
                if bc:
                    if batch is None:
                        if gi._value.shape != x._value.shape:
                            gi = unbroadcast(gi, x._value.shape, 0)
                    elif gi._value.shape != (batch,) + x._value.shape:
                        gi = unbroadcast(gi, (batch,) + x._value.shape, 1)
            if batch is not None and tg is Tensor and gi._value.shape != (batch,) + x._value.shape:
                raise InternalError(
                    None, None, f"In a Jacobian walk the VJP rule of {op.name} returned a cotangent of "
                    f"shape {list(gi._value.shape)} for an input of shape {list(x._value.shape)} (expected "
                    f"{[batch] + list(x._value.shape)}): the rule drops the leading batch axis. Declare "
                    "the op with batch_ok=False or keep the axis in the rule.")
            if observe is not None:
                observe(k, i, gi)
            xid = x._id
            if xid in ct:
                _accumulate(ct, owned, xid, gi)
            else:
                ct[xid] = gi
    return found


def _rowwise(op: Any, g: Any, ans: Any, needs: list, xs: Any, p: dict, batch: int) -> list:
    """VJP of an op whose rule cannot take a batch axis: one call per row, then stack."""
    from .ops.array import stack, unbroadcast
    rows: list[list] = []
    for r in range(batch):
        gr = tuple(x[r] for x in g) if isinstance(g, tuple) else g[r]
        res = op.bwd(gr, ans, needs, xs, p)
        fixed = []
        for i, gi in zip(needs, res):
            if gi is not None and op.bcast and gi._value.shape != xs[i]._value.shape:
                gi = unbroadcast(gi, xs[i]._value.shape)
            if type(gi) is IndexedSlices:
                gi = gi._dense()
            fixed.append(gi)
        rows.append(fixed)
    out = []
    for j, i in enumerate(needs):
        col = [row[j] for row in rows]
        if all(c is None for c in col):
            out.append(None)
            continue
        col = [c if c is not None else _wrap(np.zeros(xs[i]._value.shape, xs[i]._value.dtype)) for c in col]
        out.append(stack(col))
    return out


def iter_entries(tape: GradientTape) -> Iterator[tuple]:
    """The recorded entries (for the tape picture)."""
    return iter(tape._entries)
