"""``tapegrad.config``: TensorFlow's ``tf.config``, telling the truth about tapegrad's devices.

tapegrad runs on one CPU through NumPy: ``list_physical_devices()`` lists that CPU, and
``list_physical_devices("GPU")`` lists the GPUs CuPy sees (empty without CuPy or a GPU, so the
usual GPU set-up loops run zero times). Thread
counts go to the BLAS library NumPy calls, through ``threadpoolctl`` (a dependency). By default a
matrix product below 2**25 multiply-adds runs on one BLAS thread and a larger one on BLAS's own
count (``tapegrad/_blas.py``; docs/performance.md, "Threads").

>>> import tapegrad as tf
>>> tf.config.list_physical_devices()
[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
>>> tf.config.list_physical_devices("GPU")
[]
"""
from __future__ import annotations

import collections
import functools
import logging
import types
from typing import Any, Callable

import numpy as np

from . import _backend as _bk, _blas, _jit, _numpy_interop, _trace

__all__ = ["PhysicalDevice", "LogicalDevice", "LogicalDeviceConfiguration", "list_physical_devices",
           "list_logical_devices", "get_visible_devices", "set_visible_devices",
           "set_logical_device_configuration", "get_logical_device_configuration",
           "get_soft_device_placement", "set_soft_device_placement", "experimental", "optimizer", "threading"]

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])

_CPU = PhysicalDevice("/physical_device:CPU:0", "CPU")
_LOGICAL_CPU = LogicalDevice("/device:CPU:0", "CPU")


LogicalDeviceConfiguration = collections.namedtuple(
    "LogicalDeviceConfiguration", ["memory_limit", "experimental_priority", "experimental_device_ordinal"],
    defaults=[None, None, None])
LogicalDeviceConfiguration.__doc__ = """One logical device to make of a physical one (TensorFlow's
``tf.config.LogicalDeviceConfiguration``); see :func:`set_logical_device_configuration`."""


class _Settings:
    visible = [_CPU]
    logical: dict = {}  # physical device name -> its logical devices' configurations
    soft_placement = True
    deterministic = False
    threads = {"intra": 0, "inter": 0}
    limiter: Any = None


def _of_type(devices: list, device_type: str | None) -> list:
    return [d for d in devices if device_type is None or d.device_type == device_type]


def list_physical_devices(device_type: str | None = None) -> list:
    """The physical devices, or those of ``device_type`` ("CPU", "GPU", ...): the CPU, and the
    GPUs that CuPy sees when it is installed."""
    gpus = [PhysicalDevice(f"/physical_device:GPU:{i}", "GPU") for i in range(_bk.gpu_count())]
    return _of_type([_CPU] + gpus, device_type)


def list_logical_devices(device_type: str | None = None) -> list:
    """The logical devices: ``LogicalDevice(name='/device:CPU:0', device_type='CPU')``.

    >>> import tapegrad as tf
    >>> tf.config.list_logical_devices("CPU")[0].name
    '/device:CPU:0'
    """
    gpus = [LogicalDevice(f"/device:GPU:{i}", "GPU") for i in range(_bk.gpu_count())]
    cpus = [LogicalDevice(f"/device:CPU:{i}", "CPU") for i in range(len(_Settings.logical.get(_CPU.name) or [0]))]
    return _of_type(cpus + gpus, device_type)


def set_logical_device_configuration(device: PhysicalDevice, logical_devices: Any) -> None:
    """Split the CPU into logical devices, as TensorFlow programs do to test several devices on
    one machine: ``list_logical_devices("CPU")`` then lists ``/device:CPU:0`` to ``:n-1``, which a
    ``MirroredStrategy(["/cpu:0", "/cpu:1"])`` takes as its replicas (processes, here). Every op
    still runs on the one CPU. ``logical_devices``: a list of :class:`LogicalDeviceConfiguration`,
    or ``None`` to undo it.

    >>> import tapegrad as tf
    >>> cpu = tf.config.list_physical_devices("CPU")[0]
    >>> tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    >>> [d.name for d in tf.config.list_logical_devices("CPU")]
    ['/device:CPU:0', '/device:CPU:1']
    >>> tf.config.set_logical_device_configuration(cpu, None)
    """
    if device not in list_physical_devices():
        raise ValueError(f"Unrecognized device: {device!r}; the devices are {list_physical_devices()}.")
    if logical_devices is None:
        _Settings.logical.pop(device.name, None)
        return
    configs = list(logical_devices)
    if not configs or not all(isinstance(c, LogicalDeviceConfiguration) for c in configs):
        raise ValueError("logical_devices must be a non-empty list of "
                         f"tf.config.LogicalDeviceConfiguration; got {logical_devices!r}.")
    if device.device_type == "GPU" and len(configs) > 1:
        raise ValueError("tapegrad makes one logical device of each GPU (CuPy's); split the CPU "
                         "to test several devices on one machine.")
    _Settings.logical[device.name] = configs


def get_logical_device_configuration(device: PhysicalDevice) -> list | None:
    """The configurations given to :func:`set_logical_device_configuration` (``None``: unsplit)."""
    return _Settings.logical.get(device.name)


def get_visible_devices(device_type: str | None = None) -> list:
    """The physical devices made visible by :func:`set_visible_devices` (all, by default)."""
    return _of_type(_Settings.visible, device_type)


def set_visible_devices(devices: Any, device_type: str | None = None) -> None:
    """Record which physical devices of ``device_type`` are visible (every op still runs on the
    CPU). ``devices``: a ``PhysicalDevice`` or a list of them, from :func:`list_physical_devices`.
    Raises ValueError for a device that is not one of them."""
    devices = [devices] if isinstance(devices, PhysicalDevice) else list(devices)
    for d in devices:
        if d not in list_physical_devices():
            raise ValueError(f"Unrecognized device: {d!r}; the devices are "
                             f"{list_physical_devices()} (tapegrad runs on the CPU).")
    _Settings.visible = [d for d in _Settings.visible if device_type is not None
                         and d.device_type != device_type] + _of_type(devices, device_type)


def get_soft_device_placement() -> bool:
    """Whether an op asked for a missing device runs on the CPU instead (always, in practice)."""
    return _Settings.soft_placement


def set_soft_device_placement(enabled: bool) -> None:
    """Record the setting; tapegrad places every op on the CPU either way."""
    _Settings.soft_placement = bool(enabled)


def _set_memory_growth(device: Any, enable: bool) -> None:
    if isinstance(device, PhysicalDevice) and device.device_type == "GPU" and device in list_physical_devices():
        return  # CuPy's memory pool grows as needed: the setting holds already
    raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices (tapegrad "
                     f"has only the CPU, {device!r}); list_physical_devices('GPU') is empty, so "
                     "a loop over it sets nothing.")


def _get_memory_growth(device: Any) -> bool:
    if isinstance(device, PhysicalDevice) and device.device_type == "GPU" and device in list_physical_devices():
        return True
    raise ValueError(f"Memory growth is only defined for GPUs; tapegrad has only the CPU "
                     f"({device!r}).")


def _enable_op_determinism() -> None:
    _Settings.deterministic = True  # NumPy's ops are deterministic already


def _set_threads(kind: str, num_threads: int) -> None:
    if isinstance(num_threads, bool) or not isinstance(num_threads, (int, np.integer)):
        raise TypeError(f"The number of threads must be an int (0 or less: the default); got "
                        f"{num_threads!r}.")
    if kind != "intra":
        _Settings.threads[kind] = int(num_threads)
        return  # NumPy runs one op at a time: there is no pool of ops to size
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        raise ImportError("tf.config.threading.set_intra_op_parallelism_threads needs threadpoolctl "
                          "(a dependency of tapegrad): pip install threadpoolctl") from None
    _Settings.threads[kind] = int(num_threads)
    _blas.fix(max(int(num_threads), 0))
    if _Settings.limiter is not None:
        _Settings.limiter.restore_original_limits()
        _Settings.limiter = None
    if num_threads > 0:
        _Settings.limiter = threadpool_limits(limits=int(num_threads), user_api="blas")


def _enable_strict_numpy_interop() -> None:
    """Make a recorded tensor given to a NumPy or SciPy function that cannot keep it on the tape
    a ``TypeError`` instead of a warning (docs/numpy.md). A tapegrad setting; TensorFlow has none.

    >>> import numpy as np, tapegrad as tf
    >>> tf.config.experimental.enable_strict_numpy_interop()
    >>> x = tf.constant([1.0, 3.0])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     np.median(x)
    Traceback (most recent call last):
    TypeError: np.median was given a tensor that a GradientTape ...
    >>> tf.config.experimental.disable_strict_numpy_interop()
    """
    _numpy_interop.STRICT = True


def _disable_strict_numpy_interop() -> None:
    """Back to the default: such a call warns (at the user's line) and returns the NumPy value."""
    _numpy_interop.STRICT = False


def _threading_namespace() -> types.SimpleNamespace:
    def set_intra_op_parallelism_threads(num_threads: int) -> None:
        """Threads within one op: the BLAS thread count of every matrix product, set through
        threadpoolctl. 0 restores the default: one thread for a product below 2**25
        multiply-adds, BLAS's own count for a larger one.

        >>> import tapegrad as tf
        >>> tf.config.threading.set_intra_op_parallelism_threads(1)
        >>> tf.config.threading.get_intra_op_parallelism_threads()
        1
        >>> tf.config.threading.set_intra_op_parallelism_threads(0)
        """
        _set_threads("intra", num_threads)

    def set_inter_op_parallelism_threads(num_threads: int) -> None:
        """Recorded only: tapegrad runs one op at a time."""
        _set_threads("inter", num_threads)

    def get_intra_op_parallelism_threads() -> int:
        """The count set by :func:`set_intra_op_parallelism_threads` (0: the default policy)."""
        return _Settings.threads["intra"]

    def get_inter_op_parallelism_threads() -> int:
        return _Settings.threads["inter"]

    return types.SimpleNamespace(**{f.__name__: f for f in (
        set_intra_op_parallelism_threads, set_inter_op_parallelism_threads,
        get_intra_op_parallelism_threads, get_inter_op_parallelism_threads)})


threading = _threading_namespace()
"""``tf.config.threading``: ``set_/get_intra_op_parallelism_threads``, ``..._inter_op_...``."""

def _set_jit(enabled: bool | str) -> None:
    """Compile the optimizers' updates (TensorFlow: XLA auto-clustering; tapegrad: each dense
    update as one numba loop, the same bits as NumPy's passes, where numba is installed:
    ``pip install tapegrad[jit]``, docs/performance.md). ``True`` or ``"autoclustering"`` turns
    it on, ``False`` off (the default). It applies to every optimizer whose model was not
    compiled with its own ``jit_compile``.

    >>> import tapegrad as tf
    >>> tf.config.optimizer.get_jit()
    ''
    """
    if not (type(enabled) is bool or enabled == "autoclustering"):
        raise ValueError(f"tf.config.optimizer.set_jit takes True, False or 'autoclustering'; got "
                         f"{enabled!r} (TensorFlow reads any other value as True or False without "
                         "a word).")
    _jit.set_enabled(enabled in (True, "autoclustering"))


def _get_jit() -> str:
    """``"autoclustering"`` when :func:`set_jit` turned compiled updates on, else ``""``."""
    return "autoclustering" if _jit.enabled() else ""


# TensorFlow's Grappler options (graph rewrites: constant folding, pruning, ...): tapegrad has no
# Grappler; they are kept and read back as TensorFlow keeps them, and debug_stripper acts (_trace)
_GRAPPLER_OPTIONS = ("layout_optimizer", "constant_folding", "shape_optimization", "remapping",
                     "arithmetic_optimization", "dependency_optimization", "loop_optimization",
                     "function_optimization", "debug_stripper", "disable_model_pruning", "scoped_allocator_optimization",
                     "pin_to_host_optimization", "implementation_selector", "auto_mixed_precision",
                     "disable_meta_optimizer", "min_graph_nodes", "auto_parallel")
_grappler = _trace.GRAPPLER


def _set_experimental_options(options: dict) -> None:
    """Keep TensorFlow's Grappler options (``{"constant_folding": True, ...}``); tapegrad runs no
    graph rewriter, so of them only ``debug_stripper`` acts: a ``tf.function`` traced while it is
    on leaves out ``tf.debugging.check_numerics``, as TensorFlow's stripped graph does. An unknown
    option is a ``ValueError``.

    >>> import tapegrad as tf
    >>> tf.config.optimizer.set_experimental_options({"constant_folding": False})
    >>> tf.config.optimizer.get_experimental_options()["constant_folding"]
    False
    """
    unknown = [k for k in options if k not in _GRAPPLER_OPTIONS]
    if unknown:
        raise ValueError(f"Unknown optimizer option(s) {unknown}; TensorFlow's are {list(_GRAPPLER_OPTIONS)}.")
    _grappler.update(options)


def _get_experimental_options() -> dict:
    """The Grappler options set (TensorFlow's two defaults, then those set, in TensorFlow's order)."""
    return {k: v for k, v in sorted(_grappler.items(), key=lambda kv: (kv[0] in ("disable_model_pruning",
                                                                               "disable_meta_optimizer"),))}


optimizer = types.SimpleNamespace(set_jit=_set_jit, get_jit=_get_jit,
                                  set_experimental_options=_set_experimental_options,
                                  get_experimental_options=_get_experimental_options)
"""``tf.config.optimizer``: ``set_jit``/``get_jit`` (compiled optimizer updates, with numba) and
``set_experimental_options``/``get_experimental_options`` (Grappler's options, kept; only
``debug_stripper`` acts)."""

experimental = types.SimpleNamespace(
    set_memory_growth=_set_memory_growth, get_memory_growth=_get_memory_growth,
    enable_op_determinism=_enable_op_determinism, list_physical_devices=list_physical_devices,
    list_logical_devices=list_logical_devices, get_visible_devices=get_visible_devices,
    set_visible_devices=set_visible_devices, set_virtual_device_configuration=set_logical_device_configuration,
    get_virtual_device_configuration=get_logical_device_configuration,
    VirtualDeviceConfiguration=LogicalDeviceConfiguration,
    enable_strict_numpy_interop=_enable_strict_numpy_interop,
    disable_strict_numpy_interop=_disable_strict_numpy_interop)
"""``tf.config.experimental``: the device listings again, ``set_memory_growth`` (ValueError on
the CPU, as in TensorFlow), ``enable_op_determinism`` (NumPy's ops are deterministic), and
tapegrad's ``enable_strict_numpy_interop``/``disable_strict_numpy_interop`` (docs/numpy.md)."""


def __getattr__(name: str) -> Any:
    if name in ("run_functions_eagerly", "functions_run_eagerly"):  # tf.function's switches
        from . import _function
        return getattr(_function, name)
    if name in ("experimental_run_functions_eagerly", "experimental_functions_run_eagerly"):
        from . import _function  # (TensorFlow's deprecated aliases, which warn at each call)
        return _deprecated_alias(getattr(_function, name[len("experimental_"):]), name)
    raise AttributeError(f"module 'tapegrad.config' has no attribute {name!r}")


def _deprecated_alias(fn: Callable, name: str) -> Callable:
    """``fn`` under its deprecated experimental ``name``: TensorFlow's warning at each call."""
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        logging.getLogger("tensorflow").warning(
            f"{name} is deprecated and will be removed in a future version.\nInstructions for "
            f"updating:\nUse `tf.config.{fn.__name__}` instead of the experimental version.")
        return fn(*args, **kwargs)
    call.__name__ = name
    return call
