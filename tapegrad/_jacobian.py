"""Jacobians as batched vector-Jacobian products.

``tape.jacobian(y, x)`` is the stack of the VJPs ``e_iᵀ ∂y/∂x`` for every basis vector ``e_i``
of the flattened target. Vectorised (``experimental_use_pfor=True``, the default), the seeds are
stacked along a leading batch axis and the tape is walked once: every cotangent carries that
axis, each op's VJP rule handles it (the engine loops over rows only for ops declared
``batch_ok=False``). With ``experimental_use_pfor=False`` the tape is walked once per row with an
ordinary (unbatched) one-hot seed; the numbers are the same.

Memory: the walk holds cotangents ``n`` times the size of the tensors they belong to. When ``n``
times the largest tensor the walk will meet (the target, a recorded op's output, or an input that
receives a cotangent) exceeds the budget (:data:`DEFAULT_MEMORY_BUDGET`, see
:func:`set_jacobian_memory_budget`), the seeds go through in chunks, one walk per chunk; a
one-shot tape is released after the last one. The chunks are written into the preallocated
result, so the peak is the result plus one chunk's walk (under an outer tape the chunks are
kept for it and joined by a recorded ``concat``: one more copy). Before any walk, the result
and the working buffers of one row are compared with the available memory
(:mod:`tapegrad._memory`): chunks shrink to fit, and a result that cannot fit at all raises
``ResourceExhaustedError`` at once, saying how to compute it in pieces.

``batch_jacobian(y, x)`` seeds column ``j`` of every example at once (``m = y[0].size`` seeds)
and takes the gradient with respect to the whole source: block ``i`` is then
``Σ_k ∂y[k, j]/∂x[i]``, which is the per-example Jacobian when examples do not interact (as
TensorFlow assumes; :func:`tapegrad.autodiff.check_batch_independence` verifies it).

Seeds: the rows of a read-only identity matrix kept between calls (:func:`_identity`, at most
:data:`SEED_CACHE_BYTES` in all), so repeated Jacobians of one size allocate no seeds: in a
process where glibc still returns freed blocks of a few hundred KiB to the OS, every such
allocation is page-faulted again on every call. ``batch_jacobian`` broadcasts those rows over the
batch axis (a view).
"""
from __future__ import annotations

import math
import threading
from typing import Any, Callable

import numpy as np

from . import _memory, _recorders as _rec, _seam
from ._tensor import IndexedSlices, Tensor, constant_maker, wrap as _wrap
from ._variable import Variable
from ._walk import UnconnectedGradients
from .errors import ResourceExhaustedError, TargetStructureError

__all__ = ["jacobian", "batch_jacobian", "set_jacobian_memory_budget", "DEFAULT_MEMORY_BUDGET"]

DEFAULT_MEMORY_BUDGET = 256 * 2**20
"""Bytes of cotangent one Jacobian walk may hold for its largest tensor (256 MB)."""

_budget = DEFAULT_MEMORY_BUDGET

SEED_CACHE_BYTES = 32 * 2**20
"""Bytes of identity seeds kept for later Jacobians (32 MB; never more than the memory budget)."""

_identities: dict[tuple[int, np.dtype], np.ndarray] = {}   # least recently used first
_identities_lock = threading.Lock()


def set_jacobian_memory_budget(nbytes: int | None) -> int:
    """Set how many bytes a Jacobian walk may spend on the cotangents of its largest tensor.

    A Jacobian with ``n`` rows carries ``n`` cotangents for every tensor of the walk at once.
    When ``n * largest_tensor_bytes`` exceeds the budget, the rows are split into chunks that fit
    and the tape is walked once per chunk (results are the same). ``None`` restores
    :data:`DEFAULT_MEMORY_BUDGET` (256 MB). Returns the previous budget.

    >>> import tapegrad as tf
    >>> old = tf.autodiff.set_jacobian_memory_budget(16 * 2**20)
    >>> _ = tf.autodiff.set_jacobian_memory_budget(old)
    """
    global _budget
    if nbytes is None:
        nbytes = DEFAULT_MEMORY_BUDGET
    if isinstance(nbytes, bool) or not isinstance(nbytes, (int, np.integer)) or nbytes <= 0:
        raise ValueError(f"The Jacobian memory budget must be a positive number of bytes, got {nbytes!r}.")
    old, _budget = _budget, int(nbytes)
    return old


def check_single(value: Any, what: str, method: str) -> None:
    """A target or source that is a list, tuple or dict raises (Jacobians take one tensor)."""
    if isinstance(value, (list, tuple, dict)):
        raise TargetStructureError(
            f"GradientTape.{method} takes a single {what} tensor, got a {type(value).__name__} of "
            f"{len(value)}. Compute one {method} per {what} (on a persistent tape), or stack the "
            f"{what}s into one tensor first.")


# ---------------------------------------------------------------------------- the walks
def _identity(n: int, dtype: np.dtype) -> np.ndarray | None:
    """The read-only ``n × n`` identity of ``dtype``, kept for later calls; None when it exceeds
    the cache's bound (``SEED_CACHE_BYTES`` or the memory budget, whichever is smaller), which
    least recently used identities are dropped to honour."""
    dtype = np.dtype(dtype)
    cap = min(SEED_CACHE_BYTES, _budget)
    if n * n * dtype.itemsize > cap:
        return None
    key = (n, dtype)
    with _identities_lock:
        eye = _identities.pop(key, None)
        if eye is None:
            eye = np.eye(n, dtype=dtype)
            eye.flags.writeable = False
        total = eye.nbytes + sum(e.nbytes for e in _identities.values())
        for old in list(_identities):
            if total <= cap:
                break
            total -= _identities.pop(old).nbytes
        _identities[key] = eye
    return eye


def _nbytes(v: Any) -> int:
    return int(getattr(v, "nbytes", 8))


def _largest(entries: list, t: Tensor) -> int:
    largest = _nbytes(t._value)
    for entry in entries:
        if entry is None:
            continue
        op, xs, _, ans, needs = entry
        for o in ((ans,) if op.nout == 1 else ans):
            largest = max(largest, _nbytes(o._value))
        for i in needs:
            largest = max(largest, _nbytes(xs[i]._value))
    return largest


_ADVICE = {
    "jacobian": "Compute it in pieces: on a persistent tape, slice the target inside the tape "
                "(parts = [y[i:i + k] for i in range(0, n, k)]) and call tape.jacobian(part, x) "
                "for each; or avoid the full matrix: tape.gradient(y, x, output_gradients=v) "
                "gives vᵀJ and tf.autodiff.ForwardAccumulator gives J·u.",
    "batch_jacobian": "Compute it on slices of the batch: run the model on x[i:i + k] under its "
                      "own tape and call batch_jacobian on that slice (the examples of a batch "
                      "Jacobian are independent); or reduce the target first.",
}


def _plan(entries: list, t: Tensor, flat_s: list, n: int, vectorised: bool,
          parallel_iterations: Any, method: str) -> tuple[int, bool]:
    """Rows per backward walk, and whether they go straight into preallocated results.

    Per row, a walk holds at least two cotangents of the largest tensor (the one consumed and the
    one produced) and, until copied, its row of the result."""
    largest = _largest(entries, t)
    row = sum(_value(s).nbytes for s in flat_s)
    result = n * row
    chunk = max(1, _budget // max(largest, 1)) if vectorised else 1
    if parallel_iterations is not None:
        chunk = min(chunk, parallel_iterations)
    chunk = min(chunk, n)
    recording = _rec.recording()
    batch = method == "batch_jacobian"
    work = 2 * largest
    # bytes for walks of c < n rows: fixed + c * per; one walk of all n rows: `whole`
    if recording:   # the chunks are kept for the outer tapes, joined, (batch) transposed
        fixed, per, whole = (2 + batch) * result, work, (1 + batch) * result + n * work
    else:
        fixed, per = result, work + row
        whole = result + n * (work if vectorised and not batch else work + row)
    need = whole if chunk == n else fixed + chunk * per
    avail = _memory.over(need)
    if avail is not None:
        chunk = min(chunk, n - 1, max(0, (avail - fixed) // per))
        if chunk < 1:
            what = (f"the result ({n} rows of {_memory.fmt(row)}: {_memory.fmt(result)}"
                    + (", kept in pieces and joined for the outer GradientTape that records this"
                       " call" if recording else "")
                    + f") plus the working buffers of one row (at least {_memory.fmt(work)})")
            raise ResourceExhaustedError(_memory.too_much(
                method, what, min(whole, fixed + per), avail, _ADVICE[method]))
    return chunk, not recording and (chunk < n or not vectorised or batch)


def check_parallel(parallel_iterations: Any) -> Any:
    """``parallel_iterations`` checked: None or a positive int."""
    if parallel_iterations is None:
        return None
    if isinstance(parallel_iterations, bool) or not isinstance(parallel_iterations, (int, np.integer)) \
            or parallel_iterations < 1:
        raise ValueError("parallel_iterations must be None or a positive int (the most rows one "
                         f"backward walk handles), got {parallel_iterations!r}.")
    return int(parallel_iterations)


class Walks:
    """What the Jacobians use of a GradientTape (``_tape``'s friend API; this module sits below it):
    ``run`` is ``run_backward`` and ``release`` is ``release`` of the tape, ``entries`` its
    recorder's entries."""

    __slots__ = ("run", "release", "entries")

    def __init__(self, run: Callable, release: Callable, entries: list) -> None:
        self.run, self.release, self.entries = run, release, entries


@constant_maker
def _rows(walks: Walks, t: Tensor, flat_s: list, mode: UnconnectedGradients, n: int,
          seed_rows: Callable[[int, int], np.ndarray], vectorised: bool,
          parallel_iterations: Any, method: str = "jacobian") -> list:
    """For each source, the stacked VJPs of seeds ``0..n-1``: shape ``(n,) + source.shape``, or
    ``(source.shape[0], n) + source.shape[1:]`` for ``batch_jacobian`` (``None`` for an
    unconnected source with ``mode`` NONE)."""
    chunk, direct = _plan(walks.entries, t, flat_s, n, vectorised, parallel_iterations, method)
    swap = method == "batch_jacobian"
    spans = [(a, min(a + chunk, n)) for a in range(0, n, chunk)]
    parts: list[list] = [[] for _ in flat_s]
    outs: list = [None] * len(flat_s)   # direct: the preallocated results
    try:
        for k, (a, b) in enumerate(spans):
            keep = k < len(spans) - 1
            if vectorised:
                _rec.tls.seed_walk += 1   # lets matmul exploit the identity seeds' diagonal structure
                try:
                    grads = walks.run([t], [_wrap(seed_rows(a, b))], flat_s, mode, batch=b - a, keep=keep)
                finally:
                    _rec.tls.seed_walk -= 1
            else:
                grads = walks.run([t], [_wrap(seed_rows(a, b)[0])], flat_s, mode, keep=keep)
            for j, g in enumerate(grads):
                if type(g) is IndexedSlices:
                    g = g._dense()
                if not direct or g is None:
                    parts[j].append(g)
                    continue
                v = g._value if vectorised else g._value[None]
                if outs[j] is None:
                    shape = (v.shape[1], n) + v.shape[2:] if swap else (n,) + v.shape[1:]
                    outs[j] = np.empty(shape, v.dtype)
                if swap:
                    outs[j][:, a:b] = np.swapaxes(v, 0, 1)
                else:
                    outs[j][a:b] = v
            grads = g = None
    except BaseException as e:
        walks.release(e)
        raise
    concat, stack, transpose = _seam.concat, _seam.stack, _seam.transpose
    out = []
    for j, ps in enumerate(parts):  # connectivity does not depend on the seeds: all None or none
        if outs[j] is not None:
            out.append(_wrap(outs[j]))
            continue
        if ps[0] is None:
            out.append(None)
            continue
        r = (ps[0] if len(ps) == 1 else concat(ps, 0)) if vectorised else stack(ps)
        out.append(transpose(r, [1, 0] + list(range(2, r._value.ndim))) if swap else r)
    return out


def _value(s: Any) -> Any:
    return s._snap._value if isinstance(s, Variable) else s._value


def _empty(shape: tuple, s: Any) -> Tensor:
    return _wrap(np.zeros(shape, _value(s).dtype))


# ---------------------------------------------------------------------------- jacobian
def jacobian(walks: Walks, t: Tensor, flat_s: list, mode: UnconnectedGradients, vectorised: bool,
             parallel_iterations: int | None) -> list:
    """``GradientTape.jacobian`` of the flat target ``t``: one entry per source, of shape
    ``target.shape + source.shape``."""
    reshape = _seam.reshape
    tshape = t._value.shape
    n = t._value.size
    if n == 0:  # no rows to compute; one walk tells which sources are connected (None otherwise)
        grads = walks.run([t], [_wrap(np.zeros(tshape, t._value.dtype))], flat_s, mode)
        return [None if g is None else _empty(tshape + _value(s).shape, s) for g, s in zip(grads, flat_s)]
    dt = t._value.dtype
    eye = _identity(n, dt)

    def seed_rows(a: int, b: int) -> np.ndarray:
        if eye is not None:
            return eye[a:b].reshape((b - a,) + tshape)
        z = np.zeros((b - a, n), dt)
        z[np.arange(b - a), np.arange(a, b)] = 1
        return z.reshape((b - a,) + tshape)

    rows = _rows(walks, t, flat_s, mode, n, seed_rows, vectorised, parallel_iterations)
    return [None if r is None else reshape(r, tshape + _value(s).shape) for r, s in zip(rows, flat_s)]


# ---------------------------------------------------------------------------- batch_jacobian
def check_batch_shapes(tshape: tuple, sshape: tuple) -> None:
    """The target and source shapes of a batch Jacobian checked (rank >= 2, one batch size)."""
    for what, shape in (("target", tshape), ("source", sshape)):
        if len(shape) < 2:
            raise ValueError(
                f"batch_jacobian: the {what} has shape {shape} (rank {len(shape)}) but must have "
                "rank at least 2, [batch, ...]. For tensors without a batch axis use "
                "tape.jacobian.")
    if tshape[0] != sshape[0]:
        raise ValueError(
            f"batch_jacobian: the first (batch) dimension of the target shape {tshape} and of the "
            f"source shape {sshape} must match ({tshape[0]} != {sshape[0]}). Example i of the "
            "target must be computed from example i of the source.")


def batch_jacobian(walks: Walks, t: Tensor, s: Any, mode: UnconnectedGradients, vectorised: bool,
                   parallel_iterations: int | None) -> Any:
    """``GradientTape.batch_jacobian`` of the flat target ``t`` and source ``s``:
    ``[b] + target.shape[1:] + source.shape[1:]``.

    Unlike TensorFlow (which always gives zeros), an unconnected source gives ``None`` unless
    ``unconnected_gradients="zero"``.
    """
    reshape = _seam.reshape
    tshape, sshape = t._value.shape, _value(s).shape
    check_batch_shapes(tshape, sshape)
    b, rest = tshape[0], tshape[1:]
    m = math.prod(rest)
    final = (b,) + rest + sshape[1:]
    if m == 0 or b == 0:
        walks.release()
        return _empty(final, s)
    dt = t._value.dtype
    eye = _identity(m, dt)

    def seed_rows(a: int, c: int) -> np.ndarray:
        if eye is not None:
            return np.broadcast_to(eye[a:c, None, :], (c - a, b, m)).reshape((c - a, b) + rest)
        z = np.zeros((c - a, b, m), dt)
        k = np.arange(c - a)
        z[k[:, None], np.arange(b)[None, :], (a + k)[:, None]] = 1
        return z.reshape((c - a, b) + rest)

    (g,) = _rows(walks, t, [s], mode, m, seed_rows, vectorised, parallel_iterations, "batch_jacobian")
    return None if g is None else reshape(g, final)
