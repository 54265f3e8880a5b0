"""The memory tapegrad may claim for work it can size before starting.

TensorFlow fails at once when an allocation cannot be satisfied (``ResourceExhaustedError``).
tapegrad sizes two kinds of work in advance and refuses them up front with the same error type,
instead of filling memory chunk by chunk or computing for hours: a Jacobian (its result and its
working buffers) and ``broadcast_to`` (whose result is a free NumPy view, but which TensorFlow
materialises, so that a consumer such as ``matmul`` would run over every element).

The budget is the machine's available memory: ``MemAvailable`` in ``/proc/meminfo``, capped by a
cgroup v2 memory limit when one is set, else the physical memory; :func:`set_memory_limit`
overrides it.

:func:`keep_freed` is the heap policy of a model's steps and of ``tf.function`` calls: glibc hands a freed block of 128 KiB or
more back to the kernel (an ``mmap`` of its own, or by trimming the heap's top), so the large
temporaries of a training step had their pages faulted in afresh at every step (1,800 page
faults a step on the benchmark's CNN, a fifth of its time; 3,900 and a third of it in a custom
training loop of ``tf.function`` steps). Inside it, glibc keeps freed memory
for the next step (blocks up to 32 MiB come from the heap, whose top is not trimmed), as
TensorFlow's allocator keeps its pool; on leaving, the thresholds are those glibc's own adaptive
rule converges to (``mmap`` above 32 MiB, trimming above twice that). Nothing happens off glibc,
or when the user has set glibc's malloc tunables (``MALLOC_*_`` or ``GLIBC_TUNABLES``).
"""
from __future__ import annotations

import ctypes
import functools
import os
import sys
import threading
from typing import Any, Callable

import numpy as np

from .errors import ResourceExhaustedError

__all__ = ["set_memory_limit", "available", "over", "check", "fmt", "keep_freed"]

_limit: int | None = None
CHEAP = 64 * 2**20
"""Without a set limit, sizes up to this many bytes are not checked (no read of /proc/meminfo)."""


def set_memory_limit(nbytes: int | None) -> int | None:
    """Set the bytes of memory tapegrad assumes are available when it refuses work up front.

    A Jacobian whose result and working buffers would exceed it, or a ``broadcast_to`` result
    larger than it, raises :class:`tapegrad.errors.ResourceExhaustedError` before any work.
    ``None`` (the default) reads the machine's available memory at each check. Returns the
    previous setting.

    >>> import tapegrad as tf
    >>> old = tf.autodiff.set_memory_limit(2**30)
    >>> tf.autodiff.set_memory_limit(old) == 2**30
    True
    """
    global _limit
    if nbytes is not None and (isinstance(nbytes, bool) or not isinstance(nbytes, (int, np.integer))
                               or nbytes <= 0):
        raise ValueError(f"The memory limit must be a positive number of bytes or None, got {nbytes!r}.")
    old, _limit = _limit, None if nbytes is None else int(nbytes)
    return old


def _read_int(path: str) -> int | None:
    try:
        with open(path, "rb") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def available() -> int | None:
    """Bytes of memory available now (None when the platform does not say)."""
    if _limit is not None:
        return _limit
    avail = None
    try:
        with open("/proc/meminfo", "rb") as f:
            for line in f:
                if line.startswith(b"MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError, IndexError):
        pass
    if avail is None:
        try:
            avail = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (AttributeError, ValueError, OSError):
            return None
    cap = _read_int("/sys/fs/cgroup/memory.max")   # "max" (no limit) reads as None
    if cap is not None:
        avail = min(avail, max(0, cap - (_read_int("/sys/fs/cgroup/memory.current") or 0)))
    return avail


def fmt(nbytes: float) -> str:
    """``nbytes`` for people: ``3.64 TiB``."""
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if nbytes < 1024 or unit == "TiB":
            return f"{nbytes:.0f} bytes" if unit == "bytes" else f"{nbytes:.2f} {unit}"
        nbytes /= 1024
    return ""  # unreachable


def over(nbytes: int) -> int | None:
    """The available memory if ``nbytes`` exceed it, else None."""
    if _limit is None and nbytes <= CHEAP:
        return None
    avail = available()
    return avail if avail is not None and nbytes > avail else None


def check(nbytes: int, op: str, what: str, advice: str) -> None:
    """Raise ResourceExhaustedError when ``nbytes`` (for ``what``) exceed the available memory."""
    avail = over(nbytes)
    if avail is not None:
        raise ResourceExhaustedError(too_much(op, what, nbytes, avail, advice))


def too_much(op: str, what: str, nbytes: int, avail: int, advice: str) -> str:
    return (f"{op}: {what} would need {fmt(nbytes)}, more than the {fmt(avail)} of memory "
            f"available. {advice} (tapegrad refuses this up front; if more memory is free than "
            f"it sees, tf.autodiff.set_memory_limit(nbytes) overrides the estimate.)")


# -- the heap during a model's steps (see the module's docstring) ---------------------------------
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3     # glibc's mallopt parameters
_MMAP_MAX = 32 * 2**20                            # glibc's DEFAULT_MMAP_THRESHOLD_MAX (64-bit)
_heap_lock = threading.Lock()
_heap_depth = 0
_mallopt: Any = None                              # libc's mallopt; False where it is not used


def _glibc_mallopt() -> Any:
    global _mallopt
    if _mallopt is None:
        _mallopt = False
        tunables = os.environ.get("GLIBC_TUNABLES", "")
        if (sys.platform.startswith("linux") and "malloc" not in tunables
                and not any(k.startswith("MALLOC_") and k.endswith("_") for k in os.environ)):
            try:
                libc = ctypes.CDLL(None)
                libc.gnu_get_libc_version  # (glibc, not musl: their mallopt differ)
                _mallopt = libc.mallopt
                _mallopt.argtypes, _mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
            except (OSError, AttributeError):
                _mallopt = False
    return _mallopt


def keep_freed(fn: Callable) -> Callable:
    """Run ``fn`` with freed memory kept for reuse (a model's ``fit``/``evaluate``/``predict``, a
    ``tf.function``'s call)."""
    @functools.wraps(fn)
    def kept(*args: Any, **kwargs: Any) -> Any:
        global _heap_depth
        mallopt = _glibc_mallopt()
        if not mallopt:
            return fn(*args, **kwargs)
        with _heap_lock:
            _heap_depth += 1
            if _heap_depth == 1:
                mallopt(_M_MMAP_THRESHOLD, _MMAP_MAX)
                mallopt(_M_TRIM_THRESHOLD, 2**31 - 1)
        try:
            return fn(*args, **kwargs)
        finally:
            with _heap_lock:
                _heap_depth -= 1
                if _heap_depth == 0:
                    mallopt(_M_TRIM_THRESHOLD, 2 * _MMAP_MAX)
    return kept
