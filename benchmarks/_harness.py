"""Timing, peer detection and the row format shared by the workloads.

Every workload times its library and its baseline in the same process, back to back: each repeat
runs every timed function once (in rotating order), so load that comes and goes on a shared
machine hits all of them alike. A ratio is the median over repeats of (library / baseline) within
the repeat; the times shown are medians of the repeats.
"""
from __future__ import annotations

import gc
import importlib.util
import math
import statistics
import time
from typing import Any, Callable

# The libraries a workload may time; peers are timed only when importable (never a dependency).
LIBS = ("tapegrad", "torch", "tensorflow", "jax", "autograd")
PEERS = LIBS[1:]


def available(lib: str) -> bool:
    """Whether ``lib`` can be imported here (checked without importing it)."""
    return importlib.util.find_spec(lib) is not None


def calibrate(fn: Callable[[], Any], min_time: float) -> int:
    """How many calls make one sample last at least ``min_time`` seconds (after a warm-up call)."""
    t0 = time.perf_counter()
    fn()
    t = time.perf_counter() - t0
    return max(1, math.ceil(min_time / max(t, 1e-9)))


def paired(fns: dict[str, Callable[[], Any]], repeat: int, min_time: float = 0.02) -> dict:
    """Time each function ``repeat`` times, interleaved; return per-call medians in seconds and
    the per-repeat times (``samples``) for ratios. The first key is the baseline."""
    numbers = {k: calibrate(f, min_time) for k, f in fns.items()}
    samples: dict[str, list[float]] = {k: [] for k in fns}
    keys = list(fns)
    for r in range(repeat):
        order = keys[r % len(keys):] + keys[:r % len(keys)]
        for k in order:
            f, n = fns[k], numbers[k]
            gc.collect()
            t0 = time.perf_counter()
            for _ in range(n):
                f()
            samples[k].append((time.perf_counter() - t0) / n)
    return {"median": {k: statistics.median(v) for k, v in samples.items()}, "samples": samples}


def ratio(timing: dict, num: str, den: str) -> float:
    """Median over repeats of ``num / den`` (both measured in the same repeat)."""
    s = timing["samples"]
    return statistics.median(a / b for a, b in zip(s[num], s[den]))


def thread_env(threads: int) -> dict[str, str]:
    """Environment that gives NumPy's BLAS and every peer ``threads`` compute threads."""
    n = str(threads)
    return {"OPENBLAS_NUM_THREADS": n, "OMP_NUM_THREADS": n, "MKL_NUM_THREADS": n,
            "TF_NUM_INTRAOP_THREADS": n, "TF_NUM_INTEROP_THREADS": n,
            "XLA_FLAGS": f"--xla_cpu_multi_thread_eigen={'true' if threads > 1 else 'false'} "
                         f"intra_op_parallelism_threads={n}"}


def versions() -> dict[str, str]:
    """Versions of Python, NumPy, SciPy and whichever peers are installed (imports nothing new
    beyond package metadata and tapegrad)."""
    import platform
    from importlib import metadata

    import tapegrad
    out = {"Python": platform.python_version(), "tapegrad": tapegrad.version.TAPEGRAD_VERSION}
    for dist, name in (("numpy", "NumPy"), ("scipy", "SciPy"), ("torch", "PyTorch"),
                       ("tensorflow-cpu", "TensorFlow"), ("tensorflow", "TensorFlow"),
                       ("jax", "JAX"), ("jaxlib", "jaxlib"), ("autograd", "autograd")):
        if name in out:
            continue
        try:
            out[name] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    return out


def machine() -> dict[str, str]:
    """CPU model, core count, OS and load average, read from the system."""
    import os
    import platform
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    info = {"CPU": cpu, "cores": str(os.cpu_count()), "OS": platform.platform()}
    try:
        info["load average (1, 5, 15 min) at the start"] = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        pass
    return info
