"""GradientTape: the user API of reverse mode.

A GradientTape records into a :class:`~tapegrad._recorders.Tape` (``GradientTape._rec``), which
holds ``ids``, the ids of the tensors it follows (watched tensors, variables it watches, outputs
of ops it recorded), and ``entries``, one ``(op, inputs, params, ans, needs)`` per recorded op in
execution order, ``needs`` listing the inputs that were on the tape (the only ones that will
receive cotangents). An op is recorded iff some differentiable input is on the tape and some
output has a floating or complex dtype. ``gradient`` seeds the targets and runs the backward walk
(``_walk.py``); a one-shot tape is released as the walk frees its entries.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from . import _nest, _recorders as _rec, _seam
from ._backend import ArrayTensor, filled
from ._convert import convert_to_tensor
from ._dispatch import zeros_like
from ._recorders import Tape
from ._tensor import CompositeTensor, IndexedSlices, Tensor, constant_maker, wrap
from ._variable import Variable
from . import _jacobian
from ._walk import UnconnectedGradients, _parse_unconnected, accumulate, backward
from ._warn import warn_outside

__all__ = ["GradientTape", "UnconnectedGradients"]


# The hook points: explanations plug in here, and the tape does not import them. Each is declared
# here and set with set_hook (as _seam declares the ops the engine needs); None: nothing plugged in.
HOOKS = {
    "explain_all": "diagnosis.enable(): tape -> the explain-mode log of every new tape",
    "backward_check": "(tape, flat targets, flat sources, mode) -> diagnosis's check of one walk in "
                      'explain mode or with unconnected_gradients="raise" (tapegrad/__init__.py: '
                      "diagnosis loads on first use)",
    "diagnosis": "() -> the diagnosis module, for GradientTape.explain and stats (tapegrad/__init__.py)",
}
explain_all: Callable | None = None
backward_check: Callable | None = None
diagnosis: Callable | None = None


def set_hook(name: str, fn: Callable | None) -> Callable | None:
    """Plug ``fn`` into the hook point ``name`` (None: unplug it); returns what was there."""
    if name not in HOOKS:
        raise RuntimeError(f"_tape.set_hook: {name!r} is not a hook point; they are {sorted(HOOKS)}")
    prev = globals()[name]
    globals()[name] = fn
    return prev


_IN_CONTEXT_WARNING = (
    "Calling GradientTape.gradient on a persistent tape inside its context is significantly less "
    "efficient than calling it outside the context (it causes the gradient ops to be recorded on "
    "the tape, leading to increased CPU and memory usage). Only call GradientTape.gradient inside "
    "the context if you actually want to trace the gradient in order to compute higher order "
    "derivatives.")


class GradientTape:
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
        self._rec = Tape(bool(watch_accessed_variables))
        self._recording = False
        self._entered = False
        self._used = False        # a one-shot tape that has run its backward walk
        self._failed: str | None = None
        self._stopped_for_good = False
        if explain_all is not None:  # diagnosis.enable(): explain mode on every new tape
            self._rec.explain = explain_all(self)

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
        _rec.push(self._rec)
        return self

    def __exit__(self, typ: Any, val: Any, tb: Any) -> None:
        if self._recording:
            _rec.pop(self._rec)
            self._recording = False
        if self._rec.explain is not None:
            self._rec.explain.on_exit()

    def _check_entered(self, what: str) -> None:
        if not self._entered:
            raise RuntimeError(
                f"GradientTape.{what}() was called on a tape that was never entered. Use it as a "
                "context manager: `with tf.GradientTape() as tape: ...`, then call "
                f"tape.{what}(...).")

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
                self._rec.watch_variable(t)
                kind = t._snap._value.dtype.kind
            elif isinstance(t, Tensor):
                kind = t._value.dtype.kind
                if kind in "fc":
                    self._rec.ids.add(t._id)
            elif isinstance(t, IndexedSlices):
                self.watch(t.values)
                continue
            elif isinstance(t, CompositeTensor):  # (a RaggedTensor: its flat values; an extension type: its tensors)
                self.watch(t._components() if t._TRACED_BY_COMPONENTS else t._flat())
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
        if self._rec.explain is not None:
            self._rec.explain.on_watch(flat)

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
        return tapegrad_diagnosis().explain(self, cotangents, warn)

    def stats(self) -> Any:
        """What the tape holds: ``TapeStats(ops, bytes, tensors, variables)`` (see
        :func:`tapegrad.diagnosis.stats`)."""
        return tapegrad_diagnosis().stats(self)

    def watched_variables(self) -> tuple:
        """The variables this tape watched (explicitly or on access), in creation order."""
        return tuple(sorted(self._rec.vars.values(), key=lambda v: v._uid))

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
        self._rec.clear()
        if self._rec.explain is not None:
            self._rec.explain.reset()

    # ------------------------------------------------------------------ gradient
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
        begin_backward(self)
        flat_t = flat_targets(target)
        flat_s = flat_sources(sources)
        seeds = _seeds(flat_t, output_gradients)
        grads = run_backward(self, flat_t, seeds, flat_s, mode)
        if any(isinstance(s, CompositeTensor) for s in _nest.flatten(sources)):
            grads = _composite_grads(_nest.flatten(sources), grads)
        return _nest.pack_sequence_as(sources, grads)

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
        mode = _parse_unconnected(unconnected_gradients)
        if target is None:
            raise TypeError("Argument `target` should be a Tensor or a Variable to be differentiated, "
                            "but received None.")
        _jacobian.check_single(target, "target", "jacobian")
        parallel = _jacobian.check_parallel(parallel_iterations)
        begin_backward(self)
        (t,) = flat_targets(target)
        flat_s = flat_sources(sources)
        out = _jacobian.jacobian(_walks(self), t, flat_s, mode, bool(experimental_use_pfor), parallel)
        return _nest.pack_sequence_as(sources, out)

    def batch_jacobian(self, target: Any, source: Any, unconnected_gradients: Any = UnconnectedGradients.NONE,
                       parallel_iterations: Any = None, experimental_use_pfor: bool = True) -> Any:
        """Per-example Jacobians: ``[b] + target.shape[1:] + source.shape[1:]``.

        Assumes ``target[i]`` depends only on ``source[i]``, as TensorFlow does;
        :func:`tapegrad.autodiff.check_batch_independence` verifies that assumption.
        """
        mode = _parse_unconnected(unconnected_gradients)
        if target is None:
            raise TypeError("Argument `target` should be a Tensor or a Variable to be differentiated, "
                            "but received None.")
        _jacobian.check_single(target, "target", "batch_jacobian")
        _jacobian.check_single(source, "source", "batch_jacobian")
        parallel = _jacobian.check_parallel(parallel_iterations)
        begin_backward(self)
        (t,) = flat_targets(target)
        (s,) = flat_sources(source)
        return _jacobian.batch_jacobian(_walks(self), t, s, mode, bool(experimental_use_pfor), parallel)

    def __del__(self) -> None:
        if getattr(self, "_recording", False):
            try:
                _rec.pop(self._rec)
            except Exception:
                pass


def _cast_seed(s: Tensor, t: Tensor) -> Tensor:
    return _seam.cast(s, t.dtype)


@constant_maker
def _ones_seed(t: Tensor) -> Tensor:
    v = t._value
    if type(t) is ArrayTensor:
        return filled(v, 1)
    return wrap(np.ones(v.shape, v.dtype) if v.ndim else v.dtype.type(1))


# ---- the friend API: what the engine's other modules (_jacobian, _custom, diagnosis, visualize)
# use of a GradientTape, and all they use of it (docs/contributing.md, "The friend API")

def recorder(tape: GradientTape) -> Tape:
    """The tape's recorder: ``ids``, ``entries``, ``vars``, ``explain``, ``watch_accessed``."""
    return tape._rec


def _walks(tape: GradientTape) -> _jacobian.Walks:
    return _jacobian.Walks(lambda *a, **k: run_backward(tape, *a, **k), lambda failed=None: release(tape, failed),
                           tape._rec.entries)


def used(tape: GradientTape) -> bool:
    """Whether a one-shot tape has run its backward walk (its entries are freed)."""
    return tape._used


def begin_backward(tape: GradientTape) -> None:
    """Checks and in-context behaviour common to gradient/jacobian/batch_jacobian."""
    tape._check_entered("gradient")
    if tape._failed is not None:   # checked first: a failed walk also marks the tape used
        raise RuntimeError(f"This GradientTape's backward pass failed earlier ({tape._failed}); "
                           "its recorded state was released. Record again on a new tape.")
    if tape._used:
        raise RuntimeError("A non-persistent GradientTape can only be used to compute one set "
                           "of gradients (or jacobians). Pass persistent=True to call "
                           "gradient more than once.")
    if tape._recording:
        if tape._persistent:
            warn_outside(_IN_CONTEXT_WARNING)
        else:
            _rec.pop(tape._rec)
            tape._recording = False
            tape._stopped_for_good = True


def flat_targets(target: Any) -> list:
    """A target nest as the flat tensors to seed (a Variable's value, a composite's flat values)."""
    flat = _nest.flatten(target)
    out = []
    for i, t in enumerate(flat):
        if isinstance(t, Variable):
            t = t._snap
        elif isinstance(t, IndexedSlices):
            t = convert_to_tensor(t)
        elif isinstance(t, CompositeTensor):
            t = t._flat()
        elif not isinstance(t, Tensor):
            where = "target" if len(flat) == 1 else f"target[{i}] (flattened)"
            raise TypeError(f"{where} is a {type(t).__name__}, not a tapegrad Tensor or Variable. "
                            "Gradients can only be taken of tensors computed with tapegrad ops "
                            "inside the tape's context.")
        out.append(t)
    return out


def flat_sources(sources: Any) -> list:
    """A source nest as its flat tensors and Variables (a composite's flat values)."""
    flat = [s._flat() if isinstance(s, CompositeTensor) else s for s in _nest.flatten(sources)]
    for i, s in enumerate(flat):
        if not isinstance(s, (Tensor, Variable)):
            where = "sources" if not isinstance(sources, (list, tuple, dict)) else f"sources[{i}] (flattened)"
            hint = (" Convert it with tf.constant(...) before the computation and tape.watch it."
                    if isinstance(s, (np.ndarray, np.generic, float, int)) else "")
            raise TypeError(f"{where} is a {type(s).__name__}, not a tapegrad Tensor or "
                            f"Variable: gradients are taken with respect to tensors that the "
                            f"tape followed.{hint}")
    return flat


def run_backward(tape: GradientTape, flat_t: list, seeds: list, flat_s: list, mode: UnconnectedGradients,
                 batch: int | None = None, keep: bool = False) -> list:
    """The cotangents of ``flat_s`` from targets ``flat_t`` seeded with ``seeds`` (None: ones);
    ``batch``: seeds and cotangents carry a leading axis of that many rows; ``keep``: a one-shot
    tape keeps its entries for another walk (Jacobian rows, chunks)."""
    ct: dict[int, Any] = {}
    owned: set[int] = set()
    for t, s in zip(flat_t, seeds):
        if s is None:  # (batched walks, Jacobians, always pass their seeds)
            s = _ones_seed(t)
        accumulate(ct, owned, t._id, s)
    src_ids = {s._id for s in flat_s}
    rec = tape._rec
    entries = rec.entries
    free = not (tape._persistent or keep)
    check = None
    if rec.explain is not None or mode is UnconnectedGradients.RAISE:
        check = backward_check(tape, flat_t, flat_s, mode)
    if free:
        release(tape)  # the walk frees the entries as it goes
    try:
        found = backward(entries, ct, owned, src_ids, free, batch,
                         None if check is None else check.on_cotangent)
    except BaseException as e:
        if free:
            tape._failed = f"{type(e).__name__}: {e}"
            entries.clear()
        raise
    out = []
    for s in flat_s:
        g = found.get(s._id)
        if g is None:
            g = ct.get(s._id)
        if g is None:
            if mode is UnconnectedGradients.ZERO:
                g = zeros_like(s._snap if isinstance(s, Variable) else s, () if batch is None else (batch,))
        elif isinstance(s, (Tensor, Variable)) and not isinstance(g, IndexedSlices):
            v = s._snap._value if isinstance(s, Variable) else s._value
            if v.dtype.kind not in "fc" and not (g._value.dtype == v.dtype):
                g = None if mode is not UnconnectedGradients.ZERO else zeros_like(s._snap if isinstance(s, Variable) else s)
        out.append(g)
    if check is not None:
        check.end(out)
    return out


def release(tape: GradientTape, failed: BaseException | None = None) -> None:
    """A one-shot tape is done (its walk ran, or failed part-way: ``failed``): free what it
    recorded; later calls say why it cannot be used again. A persistent tape keeps everything."""
    if tape._persistent or tape._used:
        return
    if failed is not None:
        tape._failed = f"{type(failed).__name__}: {failed}"
    tape._used = True
    tape._rec.entries = []
    tape._rec.ids = set()


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
                s = wrap(np.asarray(s, dtype=t._value.dtype))
            except (TypeError, ValueError):
                raise ValueError(f"output_gradients[{i}] could not be converted to the target's "
                                 f"dtype {t.dtype.name}: {s!r}.") from None
        if s._value.shape != t._value.shape:
            raise ValueError(f"output_gradients[{i}] has shape {list(s._value.shape)} but "
                             f"target[{i}] has shape {list(t._value.shape)}; each seed must have "
                             "its target's shape.")
        seeds.append(s)
    return seeds


class _StopRecording:
    def __init__(self, tape: GradientTape) -> None:
        self._tape = tape
        self._index = -1

    def __enter__(self) -> None:
        self._index = _rec.pop(self._tape._rec)
        self._tape._recording = False
        if self._tape._rec.explain is not None:
            self._tape._rec.explain.on_pause(self._index)

    def __exit__(self, *exc: Any) -> None:
        if self._tape._rec.explain is not None:
            self._tape._rec.explain.on_resume()
        if self._index >= 0 and not self._tape._stopped_for_good:
            _rec.push(self._tape._rec, self._index)
            self._tape._recording = True


def tapegrad_diagnosis() -> Any:
    """The diagnosis module (loaded on first use, to keep ``import tapegrad`` light)."""
    return diagnosis()


def _composite_grads(sources: list, grads: list) -> list:
    """A composite source's gradient as the same composite (a RaggedTensor for a RaggedTensor),
    from the gradient of its flat tensor, as TensorFlow gives it."""
    return [s._with_flat(convert_to_tensor(g)) if isinstance(s, CompositeTensor) and g is not None else g
            for s, g in zip(sources, grads)]
