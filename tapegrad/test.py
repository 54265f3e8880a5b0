"""``tapegrad.test``: TensorFlow's ``tf.test`` (``TestCase`` with its assert helpers, ``main``, the
build queries) and gradient checking.

:func:`compute_gradient` matches ``tf.test.compute_gradient``. :func:`check_grads` is the checker
the test-suite runs over every op: in a random direction it compares reverse mode (the
dot-product test ``<u, J v> == <Jᵀu, v>``), forward mode and central differences, then recurses
on the VJP for second order.
"""
from __future__ import annotations

import collections.abc
import contextlib
import functools
import types
import math
import random as _pyrandom
import re
import sys
import tempfile
import unittest
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from . import _nest, dtypes as _dt, errors
from .errors import disable_traceback_filtering
from ._convert import convert_to_tensor
from ._tensor import IndexedSlices, Tensor, VariableBase, wrap as _wrap
from .ops.random import set_seed

__all__ = ["compute_gradient", "check_grads", "GradientCheckError", "TestCase", "main", "Benchmark",
           "gpu_device_name", "is_gpu_available", "is_built_with_cuda", "is_built_with_gpu_support",
           "is_built_with_rocm", "is_built_with_xla", "is_cpu_target_available", "benchmark_config",
           "disable_with_predicate", "with_eager_op_as_function"]

DEFAULT_GRAPH_SEED = 87654321  # (TF's random_seed.DEFAULT_GRAPH_SEED: TestCase.setUp seeds with it)


class GradientCheckError(AssertionError):
    """A derivative disagreed with finite differences (or forward with reverse mode)."""


def _as_arrays(xs: Sequence[Any]) -> list[np.ndarray]:
    return [np.array(convert_to_tensor(x)._value) for x in xs]


def compute_gradient(f: Callable, x: Sequence[Any], delta: float | None = None) -> tuple[list, list]:
    """Theoretical and numerical Jacobians of ``f`` at ``x`` (a list of arguments).

    Returns ``(theoretical, numerical)``: lists with one 2-D array per argument, of shape
    ``[x_size, y_size]`` (as ``tf.test.compute_gradient``). The numerical Jacobian uses central
    differences with step ``delta`` (1/1024 by default, exact in binary).

    >>> import tapegrad as tf
    >>> th, nu = tf.test.compute_gradient(lambda x: x * x, [tf.constant([1.0, 2.0], tf.float64)])
    >>> th[0]
    array([[2., 0.],
           [0., 4.]])
    """
    from ._tape import GradientTape
    delta = 1.0 / 1024 if delta is None else float(delta)
    xs = _as_arrays(x)
    y0 = convert_to_tensor(f(*[_wrap(v) for v in xs]))
    ysize = y0._value.size
    theo, numer = [], []
    for i, xi in enumerate(xs):
        jt = np.zeros((xi.size, ysize), dtype=xi.dtype if xi.dtype.kind in "fc" else np.float64)
        for r in range(ysize):
            ts = [_wrap(v) for v in xs]
            with GradientTape() as tape:
                tape.watch(ts[i])
                y = convert_to_tensor(f(*ts))
            seed = np.zeros(ysize, y._value.dtype)
            seed[r] = 1
            g = tape.gradient(y, ts[i], output_gradients=_wrap(seed.reshape(y._value.shape)),
                              unconnected_gradients="zero")
            jt[:, r] = np.asarray(convert_to_tensor(g)._value).reshape(-1)
        jn = np.zeros_like(jt)
        for c in range(xi.size):
            plus, minus = [v.copy() for v in xs], [v.copy() for v in xs]
            plus[i].reshape(-1)[c] += delta
            minus[i].reshape(-1)[c] -= delta
            yp = np.asarray(convert_to_tensor(f(*[_wrap(v) for v in plus]))._value, dtype=jt.dtype)
            ym = np.asarray(convert_to_tensor(f(*[_wrap(v) for v in minus]))._value, dtype=jt.dtype)
            jn[c, :] = ((yp - ym) / (2 * delta)).reshape(-1)
        theo.append(jt)
        numer.append(jn)
    return theo, numer


def _flat_out(y: Any) -> list[Tensor]:
    from . import _nest
    return [convert_to_tensor(t) for t in _nest.flatten(y)]


def _inner(a: Sequence[np.ndarray], b: Sequence[np.ndarray]) -> float:
    return float(sum(np.real(np.vdot(p, q)) for p, q in zip(a, b)))


def check_grads(f: Callable, args: Sequence[Any], order: int = 2, modes: Sequence[str] = ("rev", "fwd"),
                eps: float | None = None, rtol: float | None = None, atol: float | None = None,
                seed: int = 0) -> None:
    """Check the derivatives of ``f(*args)`` up to ``order`` in a random direction.

    For each order: the reverse-mode VJP passes the dot-product test against central
    differences (``<u, (f(x+εv) - f(x-εv))/2ε> == <VJP(u), v>``), and the forward-mode JVP
    (``"fwd"`` in ``modes``) equals the central difference. The second order checks the function
    ``x -> VJP(u)(x)`` the same way, with the VJP computed under a tape so it is differentiated
    by the library itself. Raises :class:`GradientCheckError` with the numbers on a mismatch.

    Use float64 arguments. ``f`` may return a tensor or a nest of tensors.

    >>> import tapegrad as tf
    >>> tf.test.check_grads(tf.sin, [tf.constant([0.5, 1.0], tf.float64)], order=2)
    """
    from ._tape import GradientTape
    rng = np.random.default_rng(seed)
    xs = _as_arrays(args)
    if any(x.dtype.kind not in "fc" for x in xs):
        raise TypeError("check_grads needs floating or complex arguments.")
    dt = np.result_type(*xs)
    eps = (1e-6 if dt in (np.float64, np.complex128) else 1e-2) if eps is None else eps
    rtol = (1e-5 if dt in (np.float64, np.complex128) else 5e-2) if rtol is None else rtol
    atol = (1e-6 if dt in (np.float64, np.complex128) else 5e-2) if atol is None else atol

    def rand_like(v: np.ndarray) -> np.ndarray:
        r = rng.standard_normal(v.shape)
        if v.dtype.kind == "c":
            r = r + 1j * rng.standard_normal(v.shape)
        return np.asarray(r, v.dtype)

    def call(vals: Sequence[np.ndarray]) -> list[np.ndarray]:
        return [np.asarray(t._value) for t in _flat_out(f(*[_wrap(v) for v in vals]))]

    y0 = call(xs)
    if any(y.dtype.kind not in "fc" for y in y0):
        raise TypeError("check_grads needs f to return floating outputs.")
    v = [rand_like(x) for x in xs]
    u = [rand_like(y) for y in y0]
    yp = call([x + eps * d for x, d in zip(xs, v)])
    ym = call([x - eps * d for x, d in zip(xs, v)])
    fd = [(a - b) / (2 * eps) for a, b in zip(yp, ym)]
    scale = max(1.0, max((float(np.max(np.abs(y))) for y in y0 if y.size), default=1.0))

    def close(a: float, b: float, what: str) -> None:
        if not abs(a - b) <= atol * scale + rtol * max(abs(a), abs(b)):
            raise GradientCheckError(f"{what}: {a!r} != {b!r} (difference {abs(a - b):.3g}; "
                                     f"f={getattr(f, '__name__', f)!s}, order {order})")

    ts = [_wrap(x) for x in xs]
    if "rev" in modes:
        with GradientTape() as tape:
            tape.watch(ts)
            ys = _flat_out(f(*ts))
        gs = tape.gradient(ys, ts, output_gradients=[_wrap(w) for w in u],
                           unconnected_gradients="zero")
        g_arr = [np.asarray(convert_to_tensor(g)._value) for g in gs]
        close(_inner(u, fd), _inner(g_arr, v), "reverse mode (dot-product test) vs finite differences")
    if "fwd" in modes:
        from .autodiff import ForwardAccumulator
        ts2 = [_wrap(x) for x in xs]
        with ForwardAccumulator(ts2, [_wrap(d) for d in v]) as acc:
            ys = _flat_out(f(*ts2))
        jv = acc.jvp(ys, unconnected_gradients="zero")
        for k, (a, b) in enumerate(zip(jv, fd)):
            a = np.asarray(a._value)
            err = np.max(np.abs(a - b)) if a.size else 0.0
            if not err <= atol * scale + rtol * max(float(np.max(np.abs(b))) if b.size else 0.0, 1e-300):
                raise GradientCheckError(f"forward mode vs finite differences, output {k}: max "
                                         f"difference {err:.3g}\njvp={a}\nfd={b}")
    if order > 1:
        def vjp_fn(*vals: Tensor) -> Any:
            with GradientTape() as t2:
                t2.watch(list(vals))
                ys2 = _flat_out(f(*vals))
            return t2.gradient(ys2, list(vals), output_gradients=[_wrap(w) for w in u],
                               unconnected_gradients="zero")
        vjp_fn.__name__ = f"vjp({getattr(f, '__name__', 'f')})"
        check_grads(vjp_fn, xs, order - 1, modes, eps, rtol, atol, seed + 1)


# ---- tf.test: the test case, main, the build queries -----------------------------------------------

def gpu_device_name() -> str:
    """The name of a GPU device: ``""``, tapegrad runs on the CPU (NumPy).

    >>> import tapegrad as tf
    >>> tf.test.gpu_device_name()
    ''
    """
    return ""


def is_gpu_available(cuda_only: bool = False, min_cuda_compute_capability: Any = None) -> bool:
    """False: tapegrad has no GPU device (TF's deprecated query; see ``tf.config.list_physical_devices``).

    >>> import tapegrad as tf
    >>> tf.test.is_gpu_available()
    False
    """
    return False


def is_built_with_cuda() -> bool:
    """False: tapegrad is not built with CUDA (it is pure Python on NumPy).

    >>> import tapegrad as tf
    >>> tf.test.is_built_with_cuda()
    False
    """
    return False


def is_built_with_rocm() -> bool:
    """False: tapegrad is not built with ROCm.

    >>> import tapegrad as tf
    >>> tf.test.is_built_with_rocm()
    False
    """
    return False


def is_built_with_gpu_support() -> bool:
    """False: tapegrad has no GPU build (CUDA or ROCm).

    >>> import tapegrad as tf
    >>> tf.test.is_built_with_gpu_support()
    False
    """
    return False


def is_built_with_xla() -> bool:
    """False: tapegrad has no XLA compiler (``jit_compile=True`` runs the function as traced).

    >>> import tapegrad as tf
    >>> tf.test.is_built_with_xla()
    False
    """
    return False


def is_cpu_target_available(cpu: str) -> bool:
    """True: tapegrad runs on whatever CPU NumPy runs on (TF asks its LLVM build about ``cpu``).

    >>> import tapegrad as tf
    >>> tf.test.is_cpu_target_available("x86")
    True
    """
    return True


def benchmark_config() -> dict:
    """A session config for benchmarks: an empty dict (tapegrad has no Grappler to configure).

    >>> import tapegrad as tf
    >>> tf.test.benchmark_config()
    {}
    """
    return {}


def disable_with_predicate(pred: Callable[[], bool], skip_message: str) -> Callable:
    """A test-method decorator that skips the test (``skip_message``) when ``pred()`` is true.

    >>> import tapegrad as tf
    >>> skip_on_cpu = tf.test.disable_with_predicate(lambda: not tf.test.is_gpu_available(), "needs a GPU")
    >>> callable(skip_on_cpu(lambda self: None))
    True
    """
    def decorator(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            if pred():
                self.skipTest(skip_message)
            return func(self, *args, **kwargs)
        return wrapper
    return decorator


def with_eager_op_as_function(cls: Any = None, only_as_function: bool = False) -> Any:
    """A test-class decorator that returns the class unchanged (as TensorFlow 2.21's, where eager
    ops always run as functions).

    >>> import tapegrad as tf
    >>> tf.test.with_eager_op_as_function(int) is int
    True
    """
    def decorator(c: Any) -> Any:
        return c
    return decorator(cls) if cls is not None else decorator


def _sync_devices() -> None:
    """Wait for every device's pending work: nothing to wait for (tapegrad's ops are synchronous)."""


experimental = types.SimpleNamespace(sync_devices=_sync_devices)  # (tf.test.experimental)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the ``TestCase`` tests of ``__main__`` (``unittest.main``, as TF's absl runner does).

    Call it under ``if __name__ == "__main__":``; it exits with the tests' status.
    """
    unittest.main(module="__main__", argv=list(argv) if argv is not None else None)


class _FakeEagerSession:
    """What ``cached_session()`` yields when executing eagerly: ``run(t)`` is ``evaluate(t)``."""

    def __init__(self, test_case: "TestCase") -> None:
        self._test_case = test_case

    def run(self, fetches: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs.pop("feed_dict", {}):
            raise RuntimeError("feed_dict is not supported when eager execution is enabled "
                               "(in this case, sess.run(t) is shorthand for t.numpy()")
        if args or kwargs:
            raise RuntimeError("Optional args are not supported when eager execution is enabled "
                               "(in this case, sess.run(t) is shorthand for t.numpy()")
        return self._test_case.evaluate(fetches)

    def __enter__(self) -> "_FakeEagerSession":
        return self

    def __exit__(self, *exc: Any) -> None:
        return None


def _where(cond: np.ndarray) -> tuple:
    return np.where(cond)


class TestCase(unittest.TestCase):
    """``tf.test.TestCase``: a ``unittest.TestCase`` with TensorFlow's assert helpers.

    ``setUp`` seeds Python's, NumPy's and tapegrad's global generators with TF's default graph
    seed (87654321), as TF's does. ``evaluate`` turns tensors (nested, sparse, ragged) into NumPy
    values; ``cached_session``/``session`` yield an object whose ``run`` is ``evaluate``.

    >>> import tapegrad as tf
    >>> class T(tf.test.TestCase):
    ...     def test_add(self):
    ...         self.assertAllClose(tf.constant([1.0, 2.0]) + 1.0, [2.0, 3.0])
    >>> import unittest
    >>> unittest.TextTestRunner(stream=open("/dev/null", "w")).run(
    ...     unittest.defaultTestLoader.loadTestsFromTestCase(T)).wasSuccessful()
    True
    """

    _set_default_seed = True

    def __init__(self, methodName: str = "runTest") -> None:  # noqa: N803  (unittest's name)
        super().__init__(methodName)
        disable_traceback_filtering()  # (TF's: unfiltered stack traces during the test)
        self._tempdir: str | None = None

    def setUp(self) -> None:  # noqa: N802  (unittest's name)
        super().setUp()
        _pyrandom.seed(DEFAULT_GRAPH_SEED)
        np.random.seed(DEFAULT_GRAPH_SEED)
        if self._set_default_seed:
            set_seed(DEFAULT_GRAPH_SEED)
        if self.id().endswith(".test_session"):  # (TF's: the poorly named method is no test)
            self.skipTest("Not a test.")

    def get_temp_dir(self) -> str:
        """A temporary folder for this test, the same one on every call."""
        if not self._tempdir:
            self._tempdir = tempfile.mkdtemp()
        return self._tempdir

    # -- evaluation
    def _eval_tensor(self, tensor: Any) -> Any:
        if tensor is None:
            return None
        if callable(tensor) and not isinstance(tensor, (Tensor, VariableBase)):
            return self._eval_helper(tensor())
        if isinstance(tensor, IndexedSlices):
            return _IndexedSlicesValue(tensor.values.numpy(), tensor.indices.numpy(),
                                       None if tensor.dense_shape is None else tensor.dense_shape.numpy())
        if hasattr(tensor, "numpy") and callable(tensor.numpy):
            return tensor.numpy()
        if all(hasattr(tensor, a) for a in ("indices", "values", "dense_shape")):  # a SparseTensor
            return _SparseTensorValue(tensor.indices.numpy(), tensor.values.numpy(), tensor.dense_shape.numpy())
        if hasattr(tensor, "to_list") and hasattr(tensor, "row_splits"):
            return _RaggedTensorValue(self._eval_tensor(tensor.values), tensor.row_splits.numpy())
        if isinstance(tensor, (np.ndarray, np.generic, int, float, complex, bool, str, bytes)):
            return tensor
        raise ValueError(f"Unsupported type {type(tensor).__name__!r}.")

    def _eval_helper(self, tensors: Any) -> Any:
        if tensors is None:
            return None
        return _nest.map_structure(self._eval_tensor, tensors)

    def evaluate(self, tensors: Any) -> Any:
        """The NumPy values of ``tensors`` (a tensor, or a nest of them)."""
        return self._eval_helper(tensors)

    @contextlib.contextmanager
    def cached_session(self, graph: Any = None, config: Any = None, use_gpu: bool = True,
                       force_gpu: bool = False) -> Iterator[_FakeEagerSession]:
        """Yields a session whose ``run(t)`` is ``self.evaluate(t)`` (tapegrad executes eagerly)."""
        if force_gpu:
            raise errors.InvalidArgumentError("force_gpu=True: tapegrad has no GPU device.")
        yield _FakeEagerSession(self)

    session = cached_session
    test_session = cached_session

    # -- closeness
    def _GetNdArray(self, a: Any) -> np.ndarray:  # noqa: N802  (TF's name)
        if isinstance(a, (Tensor, VariableBase)):
            a = a.numpy()
        if not isinstance(a, np.ndarray):
            try:
                return np.array(a)
            except ValueError as e:
                if "inhomogeneous shape" in str(e):
                    return np.array(a, dtype=object)
                raise
        return a

    def _assertArrayLikeAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                                 msg: str | None = None) -> None:
        a, b = self._GetNdArray(a), self._GetNdArray(b)
        if a.shape != b.shape and (b.ndim <= 3 or b.size < 500):
            shape_msg = f"Shape mismatch: expected {a.shape}, got {b.shape} with contents {b}."
        else:
            shape_msg = f"Shape mismatch: expected {a.shape}, got {b.shape}."
        self.assertEqual(a.shape, b.shape, shape_msg)
        msgs = [msg]
        if not np.allclose(a, b, rtol=rtol, atol=atol):
            cond = np.logical_or(np.abs(a - b) > atol + rtol * np.abs(b), np.isnan(a) != np.isnan(b))
            if a.ndim:
                x, y = a[_where(cond)], b[_where(cond)]
                msgs.append(f"not close where = {_where(cond)}")
            else:
                x, y = a, b
            msgs.append(f"not close lhs = {x}")
            msgs.append(f"not close rhs = {y}")
            msgs.append(f"not close dif = {np.abs(x - y)}")
            msgs.append(f"not close tol = {atol + rtol * np.abs(y)}")
            msgs.append(f"dtype = {a.dtype}, shape = {a.shape}")
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg="\n".join(map(str, msgs)),
                                       equal_nan=True)

    def _assertAllCloseRecursive(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                                 path: list | None = None, msg: str | None = None) -> None:
        path = path or []
        path_str = ("[" + "][".join(str(p) for p in path) + "]") if path else ""
        msg = msg if msg else ""
        a, b = (v._asdict() if hasattr(v, "_asdict") else v for v in (a, b))
        a_is_dict = isinstance(a, collections.abc.Mapping)
        if a_is_dict != isinstance(b, collections.abc.Mapping):
            raise ValueError(f"Can't compare dict to non-dict, a{path_str} vs b{path_str}. {msg}")
        if a_is_dict:
            self.assertCountEqual(a.keys(), b.keys(), msg=f"mismatched keys: a{path_str} has keys {a.keys()}, "
                                  f"but b{path_str} has keys {b.keys()}. {msg}")
            for k in a:
                self._assertAllCloseRecursive(a[k], b[k], rtol, atol, path + [k], msg)
        elif isinstance(a, (list, tuple)):
            try:
                self._assertArrayLikeAllClose(self._GetNdArray(a), self._GetNdArray(b), rtol, atol,
                                              f"Mismatched value: a{path_str} is different from b{path_str}. {msg}")
            except (ValueError, TypeError, NotImplementedError):
                if len(a) != len(b):
                    raise ValueError(f"Mismatched length: a{path_str} has {len(a)} items, but b{path_str} has "
                                     f"{len(b)} items. {msg}") from None
                for idx, (x, y) in enumerate(zip(a, b)):
                    self._assertAllCloseRecursive(x, y, rtol, atol, path + [str(idx)], msg)
        else:
            try:
                self._assertArrayLikeAllClose(a, b, rtol, atol,
                                              f"Mismatched value: a{path_str} is different from b{path_str}. {msg}")
            except TypeError as e:
                m = f"Error: a{path_str} has {type(a)}, but b{path_str} has {type(b)}. {msg}"
                e.args = ((e.args[0] + " : " + m,) + e.args[1:]) if e.args else (m,)
                raise

    def assertAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                       msg: str | None = None) -> None:
        """``a`` and ``b`` (tensors, arrays, or nests of them: dicts, namedtuples, lists) are close
        elementwise: ``|a - b| <= atol + rtol * |b|``, NaN equal to NaN (``np.allclose``)."""
        self._assertAllCloseRecursive(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertAllCloseAccordingToType(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                                      float_rtol: float = 1e-6, float_atol: float = 1e-6,
                                      half_rtol: float = 1e-3, half_atol: float = 1e-3,
                                      bfloat16_rtol: float = 1e-2, bfloat16_atol: float = 1e-2,
                                      msg: str | None = None) -> None:
        """``assertAllClose`` with the tolerances raised to the float32/float16 ones by dtype."""
        a, b = self._GetNdArray(a), self._GetNdArray(b)
        if np.float32 in (a.dtype, b.dtype) or np.complex64 in (a.dtype, b.dtype):
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if np.float16 in (a.dtype, b.dtype):
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertNotAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                          msg: str | None = None) -> None:
        """``a`` and ``b`` differ (beyond the tolerances) somewhere."""
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)
        except AssertionError:
            return
        raise AssertionError(f"The two values are close at all elements. {msg or ''}")

    def assertAllEqual(self, a: Any, b: Any, msg: str | None = None) -> None:  # noqa: N802
        """``a`` and ``b`` have the same shape and values (NaN equal to NaN for floats)."""
        msg = msg if msg else ""
        a, b = self._GetNdArray(a), self._GetNdArray(b)
        if b.ndim <= 3 or b.size < 500:
            self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}. "
                             f"Contents: {b!r}. \n{msg}.")
        else:
            self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}. {msg}")
        if a.dtype.kind in "SUO" or b.dtype.kind in "SUO":
            a, b = (np.vectorize(lambda v: v.encode("utf-8") if isinstance(v, str) else v, otypes=[object])(x)
                    if x.size else x for x in (a, b))
        same = a == b
        if a.dtype.kind in "fc":
            same = np.logical_or(same, np.logical_and(np.isnan(a), np.isnan(b)))
        if not np.all(same):
            msgs = [msg]
            diff = np.logical_not(same)
            if a.ndim:
                x, y = a[_where(diff)], b[_where(diff)]
                msgs.append(f"not equal where = {_where(diff)}")
            else:
                x, y = a, b
            msgs.append(f"not equal lhs = {x!r}")
            msgs.append(f"not equal rhs = {y!r}")
            np.testing.assert_array_equal(a, b, err_msg="\n".join(msgs))

    def assertNotAllEqual(self, a: Any, b: Any, msg: str | None = None) -> None:  # noqa: N802
        """``a`` and ``b`` differ somewhere."""
        try:
            self.assertAllEqual(a, b)
        except AssertionError:
            return
        raise AssertionError(f"The two values are equal at all elements. {msg or ''}")

    def assertAllGreater(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        """Every element of ``a`` is ``> comparison_target``."""
        self.assertGreater(np.min(self._GetNdArray(a)), comparison_target)

    def assertAllLess(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        """Every element of ``a`` is ``< comparison_target``."""
        self.assertLess(np.max(self._GetNdArray(a)), comparison_target)

    def assertAllGreaterEqual(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        """Every element of ``a`` is ``>= comparison_target``."""
        self.assertGreaterEqual(np.min(self._GetNdArray(a)), comparison_target)

    def assertAllLessEqual(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        """Every element of ``a`` is ``<= comparison_target``."""
        self.assertLessEqual(np.max(self._GetNdArray(a)), comparison_target)

    @staticmethod
    def _format_subscripts(subscripts: tuple, value: np.ndarray, limit: int = 10, indent: int = 2) -> list:
        prefix = " " * indent
        if np.ndim(value) == 0:
            return [prefix + "[0] : " + str(value)]
        subs = np.transpose(subscripts)
        lines = [prefix + str(s) + " : " + str(value[tuple(s)]) for s in subs[:limit]]
        if len(subs) > limit:
            lines.append(prefix + "...")
        return lines

    def assertAllInRange(self, target: Any, lower_bound: Any, upper_bound: Any,  # noqa: N802
                         open_lower_bound: bool = False, open_upper_bound: bool = False) -> None:
        """Every element of ``target`` lies in the range (closed unless ``open_*_bound``); no NaN."""
        target = self._GetNdArray(target)
        if not (np.issubdtype(target.dtype, np.floating) or np.issubdtype(target.dtype, np.integer)):
            raise AssertionError(f"The value of {target} does not have an ordered numeric type, instead it "
                                 f"has type: {target.dtype}")
        nan = _where(np.isnan(target))
        if np.size(nan):
            raise AssertionError(f"{len(nan[0])} of the {np.size(target)} element(s) are NaN. Subscripts(s) and "
                                 "value(s) of the NaN element(s):\n" + "\n".join(self._format_subscripts(nan, target)))
        range_str = (("(" if open_lower_bound else "[") + str(lower_bound) + ", " + str(upper_bound)
                     + (")" if open_upper_bound else "]"))
        bad = np.less_equal(target, lower_bound) if open_lower_bound else np.less(target, lower_bound)
        bad = bad | (np.greater_equal(target, upper_bound) if open_upper_bound else np.greater(target, upper_bound))
        subs = _where(bad)
        if np.size(subs):
            raise AssertionError(f"{len(subs[0])} of the {np.size(target)} element(s) are outside the range "
                                 f"{range_str}. Subscript(s) and value(s) of the offending elements:\n"
                                 + "\n".join(self._format_subscripts(subs, target)))

    def assertAllInSet(self, target: Any, expected_set: Any) -> None:  # noqa: N802
        """Every element of ``target`` is in ``expected_set``."""
        diff = np.setdiff1d(self._GetNdArray(target).flatten(), list(expected_set))
        if np.size(diff):
            raise AssertionError(f"{np.size(diff)} unique element(s) are not in the set {expected_set}: {diff}")

    def assertDTypeEqual(self, target: Any, expected_dtype: Any) -> None:  # noqa: N802
        """``target``'s NumPy dtype is ``expected_dtype``."""
        if isinstance(expected_dtype, _dt.DType):
            expected_dtype = expected_dtype.as_numpy_dtype
        self.assertEqual(self._GetNdArray(target).dtype, expected_dtype)

    def assertNear(self, f1: Any, f2: Any, err: float, msg: str | None = None) -> None:  # noqa: N802
        """``|f1 - f2| <= err`` for two floats."""
        f1, f2 = np.squeeze(f1), np.squeeze(f2)
        if f1 != f2:
            diff = math.fabs(f1 - f2)
            self.assertTrue(diff <= err, "%f != %f +/- %f (difference: %g)%s"
                            % (f1, f2, err, diff, f" ({msg})" if msg is not None else ""))

    def assertArrayNear(self, farray1: Any, farray2: Any, err: float, msg: str | None = None) -> None:  # noqa: N802
        """Two float lists of one length, near elementwise (``assertNear``)."""
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertNDArrayNear(self, ndarray1: Any, ndarray2: Any, err: float, msg: str | None = None) -> None:  # noqa: N802
        """The 2-norm of ``ndarray1 - ndarray2`` is below ``err``."""
        self.assertTrue(np.linalg.norm(np.asarray(ndarray1) - np.asarray(ndarray2)) < err, msg=msg)

    def assertShapeEqual(self, input_a: Any, input_b: Any, msg: str | None = None) -> None:  # noqa: N802
        """Two arrays, NumPy scalars or tensors have the same (static) shape."""
        for n, v in (("input_a", input_a), ("input_b", input_b)):
            if not isinstance(v, (np.ndarray, np.generic, Tensor, VariableBase)):
                raise TypeError(f"{n} must be a Numpy ndarray, Numpy scalar, or a Tensor.Instead received {type(v)}")
        sa = input_a.get_shape().as_list() if isinstance(input_a, (Tensor, VariableBase)) else input_a.shape
        sb = input_b.get_shape().as_list() if isinstance(input_b, (Tensor, VariableBase)) else input_b.shape
        self.assertAllEqual(sa, sb, msg=msg)

    def assertDeviceEqual(self, device1: Any, device2: Any, msg: str | None = None) -> None:  # noqa: N802
        """Two device names are the same (after canonicalisation: ``""`` and ``None`` agree)."""
        self.assertEqual(str(device1 or ""), str(device2 or ""),
                         f"Devices {device1} and {device2} are not equal. {msg or ''}")

    @contextlib.contextmanager
    def assertRaisesWithPredicateMatch(self, exception_type: type, expected_err_re_or_predicate: Any  # noqa: N802
                                       ) -> Iterator[None]:
        """Code in the block raises ``exception_type`` whose message matches the regular expression
        (searched) or satisfies the predicate."""
        if callable(expected_err_re_or_predicate):
            predicate = expected_err_re_or_predicate
        else:
            def predicate(e: BaseException) -> Any:
                text = e.message if isinstance(e, errors.OpError) and getattr(e, "message", None) else str(e)
                return re.search(expected_err_re_or_predicate, text)
        try:
            yield
            self.fail(exception_type.__name__ + " not raised")
        except Exception as e:  # noqa: BLE001  (TF's: any other error is a failure naming it)
            if not isinstance(e, exception_type) or not predicate(e):
                raise AssertionError(f"Exception of type {type(e)}: {e}") from e

    def assertRaisesOpError(self, expected_err_re_or_predicate: Any) -> Any:  # noqa: N802
        """``assertRaisesWithPredicateMatch(tf.errors.OpError, ...)``."""
        return self.assertRaisesWithPredicateMatch(errors.OpError, expected_err_re_or_predicate)

    def assertRaisesIncompatibleShapesError(self, exception_type: type = errors.InvalidArgumentError  # noqa: N802
                                            ) -> Any:
        """The block raises a shape-incompatibility error."""
        return self.assertRaisesWithPredicateMatch(
            exception_type, r"Incompatible shapes|Dimensions must be equal|required broadcastable shapes")

    # -- absl's TestCase helpers that TF's inherits
    def assertLen(self, container: Any, expected_len: int, msg: str | None = None) -> None:  # noqa: N802
        """``len(container) == expected_len``."""
        if len(container) != expected_len:
            self.fail(f"{container!r} has length of {len(container)}, expected {expected_len}.", )

    def assertEmpty(self, container: Any, msg: str | None = None) -> None:  # noqa: N802
        """``container`` has no element."""
        if len(container):
            self.fail(msg or f"{container!r} has length of {len(container)}.")

    def assertNotEmpty(self, container: Any, msg: str | None = None) -> None:  # noqa: N802
        """``container`` has an element."""
        if not len(container):
            self.fail(msg or f"{container!r} has length of 0.")

    def assertStartsWith(self, actual: str, expected_start: str, msg: str | None = None) -> None:  # noqa: N802
        """``actual`` starts with ``expected_start``."""
        if not actual.startswith(expected_start):
            self.fail(msg or f"{actual!r} does not start with {expected_start!r}")

    def assertSameElements(self, expected_seq: Any, actual_seq: Any, msg: str | None = None) -> None:  # noqa: N802
        """The two sequences hold the same set of elements (multiplicity ignored)."""
        missing, extra = set(expected_seq) - set(actual_seq), set(actual_seq) - set(expected_seq)
        if missing or extra:
            self.fail(msg or f"Expected, but missing:\n  {sorted(missing, key=repr)!r}\n"
                      f"Unexpected, but present:\n  {sorted(extra, key=repr)!r}")

    assertItemsEqual = unittest.TestCase.assertCountEqual


class _SparseTensorValue(tuple):
    """A SparseTensor's NumPy parts (TF's ``SparseTensorValue``): ``indices``, ``values``, ``dense_shape``."""

    def __new__(cls, indices: Any, values: Any, dense_shape: Any) -> "_SparseTensorValue":
        return tuple.__new__(cls, (indices, values, dense_shape))

    indices = property(lambda self: self[0])
    values = property(lambda self: self[1])
    dense_shape = property(lambda self: self[2])


class _IndexedSlicesValue(tuple):
    """An IndexedSlices' NumPy parts (TF's ``IndexedSlicesValue``): ``values``, ``indices``, ``dense_shape``."""

    def __new__(cls, values: Any, indices: Any, dense_shape: Any) -> "_IndexedSlicesValue":
        return tuple.__new__(cls, (values, indices, dense_shape))

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])
    dense_shape = property(lambda self: self[2])


class _RaggedTensorValue:
    """A RaggedTensor's NumPy parts (TF's ``RaggedTensorValue``): ``values``, ``row_splits``, ``to_list()``."""

    def __init__(self, values: Any, row_splits: np.ndarray) -> None:
        self.values, self.row_splits = values, row_splits

    def to_list(self) -> list:
        vals = self.values.to_list() if isinstance(self.values, _RaggedTensorValue) else np.asarray(self.values).tolist()
        return [vals[a:b] for a, b in zip(self.row_splits[:-1], self.row_splits[1:])]


class Benchmark:
    """``tf.test.Benchmark``: a base for benchmark classes; ``report_benchmark`` records an entry
    in ``tapegrad.test.Benchmark.reports`` (TF writes it to a file or the log).

    >>> import tapegrad as tf
    >>> class B(tf.test.Benchmark):
    ...     def benchmark_add(self):
    ...         self.report_benchmark(iters=10, wall_time=0.5)
    >>> B().benchmark_add(); B.reports[-1]["iters"]
    10
    """

    reports: list = []

    @classmethod
    def is_abstract(cls) -> bool:
        return len(cls.mro()) <= 2

    def _get_name(self, overwrite_name: str | None = None) -> str:
        frame = sys._getframe(2)
        caller = frame.f_code.co_name
        return f"{type(self).__name__}.{overwrite_name or caller}"

    def report_benchmark(self, iters: int | None = None, cpu_time: float | None = None,
                         wall_time: float | None = None, throughput: float | None = None,
                         extras: dict | None = None, name: str | None = None,
                         metrics: list | None = None) -> None:
        """Record a benchmark entry (name, iterations, times, extras, metrics)."""
        entry = {"name": self._get_name(name), "iters": iters, "cpu_time": cpu_time, "wall_time": wall_time,
                 "throughput": throughput, "extras": dict(extras or {}), "metrics": list(metrics or [])}
        Benchmark.reports.append(entry)

    def evaluate(self, tensors: Any) -> Any:
        """The NumPy values of ``tensors`` (as ``TestCase.evaluate``)."""
        return TestCase("__init__").evaluate(tensors)
