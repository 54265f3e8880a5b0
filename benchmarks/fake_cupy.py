"""A NumPy-backed stand-in for CuPy: runs the GPU code paths on a machine without a GPU.

``install(gpus=2)`` puts a module named ``cupy`` in ``sys.modules`` whose arrays hold NumPy arrays
and a device number, with CuPy's protocols: NumPy's ufuncs and functions dispatch to them when
CuPy has one of the same name (``cupy_names.json``, read from CuPy's sources by
``tools/record_cupy_names.py``; SciPy's special ufuncs map to ``cupyx.scipy.special``), they
refuse implicit conversion to NumPy (``.get()`` copies to the host, as CuPy's), they refuse NumPy
array operands, and an operation on arrays of two devices fails. tapegrad's array-API namespace for
them is ``array_api_compat.numpy`` run on the wrapped arrays. The tests (``tests/test_backends.py``)
and ``python -m benchmarks.bench_cupy --fake`` use it; nothing here is timed as a GPU.
"""
from __future__ import annotations

import contextlib
import functools
import json
import pathlib
import sys
import types
from typing import Any, Iterator

import numpy as np

from tapegrad import _backend

_current = [0]


@functools.lru_cache(maxsize=None)
def names(namespace: str) -> frozenset:
    """The public names of one of CuPy's namespaces (``"cupy"``, ``"cupy.linalg"``, ...)."""
    record = json.loads((pathlib.Path(__file__).with_name("cupy_names.json")).read_text())
    return frozenset(record["names"].get(namespace, ()))


def _in_cupy(func: Any) -> bool:
    """Whether CuPy's ``__array_function__`` finds a function of ``func``'s module path and name."""
    path = (func.__module__ or "").split(".")
    return path[0] == "numpy" and func.__name__ in names(".".join(["cupy", *path[1:]]))


def _device_of(args: Any) -> int:
    devs: set = set()

    def scan(x: Any) -> None:
        if isinstance(x, ndarray):
            devs.add(x.device.id)
        elif isinstance(x, (list, tuple)):
            for y in x:
                scan(y)
        elif isinstance(x, np.ndarray) and x.ndim:
            raise TypeError(f"Unsupported type {type(x)}")  # as CuPy: no NumPy array operands
    scan(args)
    if len(devs) > 1:
        raise ValueError(f"arrays of devices {sorted(devs)} in one operation")
    return devs.pop() if devs else _current[0]


def _unwrap(x: Any) -> Any:
    if isinstance(x, ndarray):
        return x.a
    if isinstance(x, (list, tuple)):
        return type(x)(_unwrap(y) for y in x)
    return x


def _wrap(x: Any, dev: int) -> Any:
    if isinstance(x, (np.ndarray, np.generic)):
        return ndarray(np.asarray(x), dev)
    if isinstance(x, tuple):  # (named tuples of results: slogdet, eigh, ...)
        items = [_wrap(y, dev) for y in x]
        return type(x)(*items) if hasattr(x, "_fields") else tuple(items)
    if isinstance(x, list):
        return [_wrap(y, dev) for y in x]
    return x


def _call(f: Any, args: tuple, kwargs: dict, host_ok: bool = False) -> Any:
    dev = _current[0] if host_ok else _device_of((args, tuple(kwargs.values())))
    out = f(*_unwrap(args), **{k: _unwrap(v) for k, v in kwargs.items()})
    return _wrap(out, dev)


class ndarray(np.lib.mixins.NDArrayOperatorsMixin):  # noqa: N801 (CuPy's name)
    """A NumPy array standing for a CuPy array on GPU ``device.id``."""

    __module__ = "cupy"

    def __init__(self, a: Any, dev: int) -> None:
        self.a, self.device = np.asarray(a), types.SimpleNamespace(id=dev)

    shape = property(lambda self: self.a.shape)
    dtype = property(lambda self: self.a.dtype)
    ndim = property(lambda self: self.a.ndim)
    size = property(lambda self: self.a.size)
    T = property(lambda self: ndarray(self.a.T, self.device.id))

    def get(self) -> np.ndarray:
        return self.a.copy()

    def copy(self) -> "ndarray":
        return ndarray(self.a.copy(), self.device.id)

    def astype(self, dtype: Any, copy: bool = True) -> "ndarray":
        return ndarray(self.a.astype(dtype, copy=copy), self.device.id)

    def sum(self, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> "ndarray":
        return ndarray(self.a.sum(axis=axis, dtype=dtype, keepdims=keepdims), self.device.id)

    def reshape(self, *shape: Any) -> "ndarray":
        return ndarray(self.a.reshape(*shape), self.device.id)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        raise TypeError("Implicit conversion to a NumPy array is not allowed. Please use `.get()` "
                        "to construct a NumPy array explicitly.")  # as CuPy

    def __getitem__(self, key: Any) -> "ndarray":
        return _call(lambda a, k: a[k], (self, key), {})

    def __setitem__(self, key: Any, value: Any) -> None:
        _device_of((self, key, value))
        self.a[_unwrap(key)] = _unwrap(value)

    def __len__(self) -> int:
        return len(self.a)

    def __float__(self) -> float:
        return float(self.a)

    def __int__(self) -> int:
        return int(self.a)

    def __bool__(self) -> bool:
        return bool(self.a)

    def __repr__(self) -> str:
        return f"fake_cupy.array({self.a!r}, device={self.device.id})"

    def __getattr__(self, name: str) -> Any:  # NumPy's other methods (CuPy has them): .any(), .ravel(), ...
        if name.startswith("__"):
            raise AttributeError(name)
        a = getattr(self.a, name)
        if not callable(a):
            return _wrap(a, self.device.id)
        return lambda *args, **kwargs: _wrap(a(*_unwrap(args), **kwargs), self.device.id)

    def __array_ufunc__(self, ufunc: Any, method: str, *args: Any, **kwargs: Any) -> Any:
        if ufunc.__name__ not in names("cupy") | names("cupyx.scipy.special"):
            return NotImplemented  # (NumPy then raises TypeError, as with CuPy)
        return _call(getattr(ufunc, method), args, kwargs)

    def __array_function__(self, func: Any, types_: Any, args: tuple, kwargs: dict) -> Any:
        if not _in_cupy(func):
            return NotImplemented
        return _call(func, args, kwargs)


class _Namespace:
    """A namespace of functions on wrapped arrays (NumPy's, or array-api-compat's for NumPy),
    with the names CuPy's namespace ``cupy_name`` has (and those array-api-compat adds itself)."""

    def __init__(self, ns: Any, cupy_name: str, compat: bool) -> None:
        self._ns, self._cupy_name, self._compat = ns, cupy_name, compat

    def __getattr__(self, name: str) -> Any:
        f = getattr(self._ns, name)
        plain = getattr(np, name, None) if self._cupy_name == "cupy" else \
            getattr(getattr(np, self._cupy_name.split(".")[-1], None), name, None)
        own = self._compat and not isinstance(f, types.ModuleType) and f is not plain
        if name not in names(self._cupy_name) and not own:
            raise AttributeError(f"module '{self._cupy_name}' has no attribute '{name}' (fake CuPy)")
        if isinstance(f, types.ModuleType):
            return _Namespace(f, f"{self._cupy_name}.{name}", self._compat)
        if callable(f) and not isinstance(f, type):
            host_ok = name in ("asarray", "array")  # (copies host data to the current device)

            def call(*args: Any, **kwargs: Any) -> Any:
                return _call(f, args, kwargs, host_ok)
            return call
        return f


class Device:
    """``cupy.cuda.Device``: a context making ``id`` the current device."""

    def __init__(self, i: int | None = None) -> None:
        self.id = _current[0] if i is None else i

    def __enter__(self) -> "Device":
        self.prev, _current[0] = _current[0], self.id
        return self

    def __exit__(self, *exc: Any) -> None:
        _current[0] = self.prev

    def synchronize(self) -> None:
        return None


def _module(gpus: int) -> types.ModuleType:
    cupy = types.ModuleType("cupy")
    cupy.__getattr__ = lambda name: getattr(_Namespace(np, "cupy", False), name)  # type: ignore[method-assign]  # cupy.zeros, ...
    cupy.ndarray = ndarray
    cupy.asarray = lambda v, dtype=None: (v if isinstance(v, ndarray) and dtype is None else
                                          ndarray(np.array(_unwrap(v), dtype=dtype), _current[0]))
    cupy.array = lambda v, dtype=None, copy=True: ndarray(np.array(_unwrap(v), dtype=dtype), _current[0])
    cupy.cuda = types.SimpleNamespace(
        Device=Device,
        runtime=types.SimpleNamespace(getDeviceCount=lambda: gpus,
                                      getDeviceProperties=lambda i: {"name": b"fake GPU (NumPy)"}))
    return cupy


def _cupyx() -> dict:
    """``cupyx.scipy.special`` and ``cupyx.scipy.linalg``: SciPy's functions of CuPy's names, on
    the wrapped arrays."""
    import scipy.linalg
    import scipy.special
    mods = {name: types.ModuleType(name) for name in ("cupyx", "cupyx.scipy", "cupyx.scipy.special",
                                                       "cupyx.scipy.linalg")}
    mods["cupyx"].scipy = mods["cupyx.scipy"]
    mods["cupyx.scipy"].special, mods["cupyx.scipy"].linalg = mods["cupyx.scipy.special"], mods["cupyx.scipy.linalg"]
    for sub, real in (("special", scipy.special), ("linalg", scipy.linalg)):
        ns = _Namespace(real, f"cupyx.scipy.{sub}", False)
        for name in names(f"cupyx.scipy.{sub}"):
            if hasattr(real, name):
                setattr(mods[f"cupyx.scipy.{sub}"], name, getattr(ns, name))
    return mods


@contextlib.contextmanager
def install(gpus: int = 2) -> Iterator[types.ModuleType]:
    """Within: ``import cupy`` (and ``cupyx.scipy``) give the fake, and tapegrad sees ``gpus`` GPUs."""
    import array_api_compat.numpy as compat_np
    cupy = _module(gpus)
    extra = _cupyx()
    saved = (sys.modules.get("cupy"), list(_backend._gpus), _backend._compat_namespace,
             {k: sys.modules.get(k) for k in extra})
    sys.modules["cupy"] = cupy
    sys.modules.update(extra)
    _backend._gpus[:] = []
    _backend._compat_namespace = lambda be: _Namespace(compat_np, "cupy", True)
    _backend._BACKENDS.pop(ndarray, None)
    try:
        yield cupy
    finally:
        for name, module in [("cupy", saved[0]), *saved[3].items()]:
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
        _backend._gpus[:] = saved[1]
        _backend._compat_namespace = saved[2]
        _backend._BACKENDS.pop(ndarray, None)
