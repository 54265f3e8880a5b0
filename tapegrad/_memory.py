"""The memory tapegrad may claim for work it can size before starting.

TensorFlow fails at once when an allocation cannot be satisfied (``ResourceExhaustedError``).
tapegrad sizes two kinds of work in advance and refuses them up front with the same error type,
instead of filling memory chunk by chunk or computing for hours: a Jacobian (its result and its
working buffers) and ``broadcast_to`` (whose result is a free NumPy view, but which TensorFlow
materialises, so that a consumer such as ``matmul`` would run over every element).

The budget is the machine's available memory: ``MemAvailable`` in ``/proc/meminfo``, capped by a
cgroup v2 memory limit when one is set, else the physical memory; :func:`set_memory_limit`
overrides it.
"""
from __future__ import annotations

import os

import numpy as np

from .errors import ResourceExhaustedError

__all__ = ["set_memory_limit", "available", "over", "check", "fmt"]

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
