"""``tf.name_scope``, ``tf.get_current_name_scope``, ``tf.device`` and ``tf.DeviceSpec``.

Name scopes are kept per thread, as in TensorFlow's eager mode: they prefix the names of
Variables created inside them and nothing else (tensors have no names). ``tf.device`` parses
its device string as TensorFlow does. A GPU scope places new constants on that GPU with CuPy
when CuPy and the GPU are present (see ``_backend``); otherwise ops run on the CPU, as
TensorFlow's eager mode does with soft placement when the requested device does not exist.
"""
from __future__ import annotations

import threading
from typing import Any

from . import _backend as _bk

__all__ = ["name_scope", "get_current_name_scope", "device", "DeviceSpec"]

CPU_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"
_DEVICE_TYPES = frozenset({"CPU", "GPU", "TPU", "CUSTOM", "EPU"})


class _State(threading.local):
    scope = ""  # "" or "a/b/"


_state = _State()


def get_current_name_scope() -> str:
    """The current name scope, without its trailing slash (``""`` outside every scope).

    >>> import tapegrad as tf
    >>> with tf.name_scope("a"), tf.name_scope("b"):
    ...     tf.get_current_name_scope()
    'a/b'
    """
    return _state.scope[:-1]


def prefixed(name: str) -> str:
    """``name`` inside the current name scope (what a Variable created here is called)."""
    return _state.scope + name


class name_scope:  # noqa: N801  (TensorFlow's name)
    """A context manager that opens the name scope ``name`` inside the current one.

    Entering returns the full scope string, ``"outer/name/"``. A name ending in ``"/"`` is
    absolute: it replaces the current scope instead of nesting inside it; ``""`` resets to the
    top. Variables created inside are named ``"<scope>/<name>:0"``.

    >>> import tapegrad as tf
    >>> with tf.name_scope("layer1") as scope:
    ...     w = tf.Variable(1.0, name="w")
    >>> scope, w.name
    ('layer1/', 'layer1/w:0')
    """

    __slots__ = ("_name", "_saved")

    def __init__(self, name: str) -> None:
        if not isinstance(name, str):
            raise ValueError(f"name for name_scope must be a string. Received: {name!r} of type "
                             f"{type(name).__name__}.")
        self._name = name
        self._saved: list = []

    @property
    def name(self) -> str:
        return self._name

    def __enter__(self) -> str:
        old = _state.scope
        name = self._name
        new = "" if not name else name if name.endswith("/") else old + name + "/"
        self._saved.append(old)
        _state.scope = new
        return new

    def __exit__(self, *exc: Any) -> None:
        _state.scope = self._saved.pop()


class DeviceSpec:
    """A parsed device name (``tf.DeviceSpec``): job, replica, task, device type and index.

    >>> import tapegrad as tf
    >>> spec = tf.DeviceSpec.from_string("/job:worker/gpu:1")
    >>> spec.job, spec.device_type, spec.device_index, spec.to_string()
    ('worker', 'GPU', 1, '/job:worker/device:GPU:1')
    """

    __slots__ = ("job", "replica", "task", "device_type", "device_index")

    def __init__(self, job: str | None = None, replica: int | None = None, task: int | None = None,
                 device_type: str | None = None, device_index: int | None = None) -> None:
        self.job = job
        self.replica = None if replica is None else int(replica)
        self.task = None if task is None else int(task)
        self.device_type = device_type
        self.device_index = None if device_index is None else int(device_index)

    @classmethod
    def from_string(cls, spec: str) -> "DeviceSpec":
        """Parse ``"/job:<j>/replica:<r>/task:<t>/device:<TYPE>:<i>"`` (any part may be left
        out; ``"/gpu:0"`` and ``"CPU"`` are short forms). Raises ValueError on an unknown part."""
        job = replica = task = dtype = index = None
        for part in (spec or "").split("/"):
            y = part.split(":")
            if y[0] == "":
                continue
            if len(y) == 2 and y[0] in ("job", "replica", "task"):
                if y[0] == "job":
                    job = y[1]
                elif y[0] == "replica":
                    replica = y[1]
                else:
                    task = y[1]
            elif (len(y) in (1, 2) and y[0].upper() in _DEVICE_TYPES) or (len(y) == 3 and y[0] == "device"):
                if dtype is not None:
                    raise ValueError(f"Multiple device types are not allowed while parsing the "
                                     f"device spec: {spec}.")
                dtype, idx = (y[0].upper(), y[1:]) if len(y) < 3 else (y[1], y[2:])
                if idx and idx[0] != "*":
                    index = _int(idx[0], spec)
            else:
                raise ValueError(f"Unknown attribute '{y[0]}' is encountered while parsing the "
                                 f"device spec: '{spec}'. Expected parts like '/job:<name>', "
                                 "'/replica:<n>', '/task:<n>', '/device:<TYPE>:<n>' or "
                                 "'/<TYPE>:<n>' with TYPE one of CPU, GPU, TPU.")
        return cls(job, _int(replica, spec), _int(task, spec), dtype, index)

    def to_string(self) -> str:
        out = ""
        for key in ("job", "replica", "task"):
            if getattr(self, key) is not None:
                out += f"/{key}:{getattr(self, key)}"
        if self.device_type is not None:
            index = "*" if self.device_index is None else self.device_index
            out += f"/device:{self.device_type}:{index}"
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

    def __hash__(self) -> int:
        return hash(self.to_string())

    def __repr__(self) -> str:
        return (f"<DeviceSpec(job={self.job}, replica={self.replica}, task={self.task}, "
                f"device_type={self.device_type}, device_index={self.device_index})>")


def _int(value: Any, spec: str) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"Expected an integer or '*' in the device spec {spec!r}, got "
                         f"{value!r}.") from None


class device:  # noqa: N801  (TensorFlow's name)
    """A context manager that asks for ops to run on a device.

    The device name is parsed as TensorFlow parses it (a malformed one raises ValueError). With
    CuPy installed and a GPU present, ``"/GPU:<n>"`` places the tensors that ``tf.constant``
    makes inside the scope on GPU ``n`` (CuPy arrays; ops on them run on that GPU, and an op
    mixing them with CPU tensors raises, naming both devices). Otherwise a GPU or TPU name is
    accepted and the ops run on the CPU, as TensorFlow's eager mode does when the device does
    not exist (soft placement); ``Tensor.device`` then reports the CPU.

    >>> import tapegrad as tf
    >>> with tf.device("/GPU:0"):
    ...     x = tf.constant([1.0]) * 2
    >>> x.device
    '/job:localhost/replica:0/task:0/device:CPU:0'
    """

    __slots__ = ("spec",)

    def __init__(self, device_name: str | DeviceSpec | None) -> None:
        if isinstance(device_name, DeviceSpec) or device_name is None:
            self.spec = device_name
        elif isinstance(device_name, str):
            self.spec = DeviceSpec.from_string(device_name)
        elif callable(device_name):
            raise RuntimeError("tf.device does not support functions when eager execution is "
                               "enabled.")
        else:
            raise ValueError(f"Expected a device name string, a tf.DeviceSpec or None; got "
                             f"{device_name!r} of type {type(device_name).__name__}.")

    def __enter__(self) -> None:
        _bk.push_device(self.spec)

    def __exit__(self, *exc: Any) -> None:
        _bk.pop_device()
