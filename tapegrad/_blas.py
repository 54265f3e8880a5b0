"""BLAS threads for matrix products: one thread below a size, BLAS's own count above it.

A matrix product that BLAS splits over threads waits for all of them; on a machine with other
work the OS deschedules some, and a product that takes 0.4 ms on one thread takes 10–80 ms (see
docs/performance.md, "Threads"). Products below :data:`SMALL` multiply-adds gain little from
threads even on an idle machine, so by default they run on one BLAS thread and larger ones on
BLAS's own count. The switch is one call into the BLAS library (through threadpoolctl's handle,
about 2 µs), made only when the count must change: a training loop whose products are all small
pays it once. The products: ``tf.matmul`` and its gradients, the convolutions, and the sums over
rows of a bias's gradient (a vector-matrix product). Nothing here runs when BLAS has one thread
anyway (``OPENBLAS_NUM_THREADS=1``), nor after ``tf.config.threading.set_intra_op_parallelism_threads(n)``, which sets ``n`` threads
for every product (0 gives the policy back). A limit set from outside (threadpoolctl's
``threadpool_limits``) is noticed at the next switch and respected, unless it set the count this
module had set last (then it cannot be told apart): to fix the count, use the setter above or
``OPENBLAS_NUM_THREADS``.
"""
from __future__ import annotations

import importlib
import math
from typing import Any

import numpy as np

SMALL = 1 << 25   # multiply-adds (m·k·n) of one product: 64×1024×512
on = True         # the size policy is in force (module-level flag: the ops' one check)
_libs: list = []  # threadpoolctl's controllers of the BLAS libraries loaded
_big = 0          # BLAS's own thread count, for large products
_now = 0          # the count this module set last (0: none yet)


def _start() -> None:
    """Find the BLAS libraries (once, at the first product) and their thread count."""
    global on, _big, _libs
    try:   # (threadpoolctl, a dependency, loaded at the first product: import time stays as it was)
        threadpoolctl = importlib.import_module("threadpoolctl")
        _libs = threadpoolctl.ThreadpoolController().select(user_api="blas").lib_controllers
    except Exception:  # (threadpoolctl missing or unable to read a library: leave BLAS alone)
        _libs = []
    _big = max((lib.num_threads for lib in _libs), default=1)
    if _big <= 1:
        on = False


def product(mnk: int) -> None:
    """Set the BLAS thread count for a product of ``mnk`` multiply-adds (call before it)."""
    global _big, _now, on
    if not _libs:
        if _big:        # (started: no BLAS library that can be told)
            return
        _start()
        if not on:
            return
    want = 1 if mnk < SMALL else _big
    if want == _now:
        return
    current = _libs[0].num_threads
    if _now and current != _now:   # someone else set a limit since: respect it
        _big = current
        if current <= 1:
            on = False
            return
        want = 1 if mnk < SMALL else _big
    for lib in _libs:
        lib.set_num_threads(want)
    _now = want


def fix(num_threads: int) -> None:
    """``set_intra_op_parallelism_threads``: ``n > 0`` threads for every product (the policy off),
    or 0 for the policy with BLAS's count as it is now."""
    global on, _now, _big, _libs
    if _now and _big:   # BLAS's own count back, before a limit is set on top of it
        for lib in _libs:
            lib.set_num_threads(_big)
    on = num_threads == 0
    _now, _big, _libs = 0, 0, []


def matmul(a: Any, b: Any, out: Any = None) -> Any:
    """``np.matmul(a, b)`` with the BLAS thread count for its size (per matrix of a batch);
    ``out``: 2-D products only, written into it."""
    if on and a.ndim and b.ndim:
        product((a.shape[-2] if a.ndim > 1 else 1) * a.shape[-1] * (b.shape[-1] if b.ndim > 1 else 1))
    if out is not None:
        return np.matmul(a, b, out=out)
    if a.ndim > 2 and b.ndim == 2 and a.flags.c_contiguous:
        # a stack of matrices times one matrix: one product of the stacked rows (NumPy would call
        # BLAS once per matrix of the stack, and not at all for some layouts of ``b``)
        return np.matmul(a.reshape(math.prod(a.shape[:-1]), a.shape[-1]), b).reshape(a.shape[:-1] + b.shape[-1:])
    return np.matmul(a, b)
