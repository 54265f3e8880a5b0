"""``tf.py_function`` and ``tf.numpy_function``, as TensorFlow runs them eagerly.

``py_function`` calls its function on tapegrad tensors while the tapes record, so tapegrad code
inside it is differentiated like any other; ``numpy_function`` calls it on NumPy arrays, and its
results are new constants (no gradient), as in TensorFlow.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np

from . import _nest, _recorders as _rec, _trace, dtypes as _dt
from ._convert import convert_to_tensor
from ._tensor import Tensor
from ._variable import Variable
from .errors import InvalidArgumentError

__all__ = ["py_function", "numpy_function"]


def _decorator_or_none(op: Callable, opname: str, func: Any, inp: Any, Tout: Any, **kw: Any) -> Any:
    if Tout is None:
        raise TypeError(f"Missing required argument: 'Tout'\n  If using {opname} as a decorator, "
                        f"set `Tout`\n  **by name** above the function:\n  `@{opname}(Tout=tout)`")
    if func is None:
        if inp is not None:
            raise TypeError(f"Don't set the `inp` argument when using {opname} as a decorator "
                            "(`func=None`).")

        def decorator(fun: Callable) -> Callable:
            @functools.wraps(fun)
            def wrapper(*args: Any) -> Any:
                return op(fun, inp=args, Tout=Tout, **kw)
            return wrapper
        return decorator
    if not callable(func):
        raise ValueError(f"Expected func to be callable. Received func={func} of type {type(func)}.")
    if inp is None:
        raise TypeError(f"Missing argument `inp`: the list of arguments to the function, unless "
                        f"you use `{opname}` as a decorator (`func=None`).")
    if isinstance(inp, (Tensor, Variable)):
        raise TypeError(f"{opname}'s `inp` is the list of the function's arguments; got a single "
                        "tensor: pass [x].")
    return None


def _output(value: Any, dtype: _dt.DType, k: int) -> Tensor:
    if isinstance(value, Variable):
        raise RuntimeError("Attempting to return a variable from an eagerly executed py_func. "
                           "Only numeric data structures like Tensors or NumPy arrays should be "
                           "returned; to return the value of a variable, return "
                           f"`.read_value()` of it: {value}")
    if isinstance(value, Tensor):
        if value.dtype != dtype:
            raise InvalidArgumentError(
                f"tf.py_function: func returned {value.dtype.name} for output {k}, but Tout says "
                f"{dtype.name}. Cast it inside func with tf.cast, or change Tout.")
        return value
    return convert_to_tensor(value, dtype=dtype)


def py_function(func: Callable | None = None, inp: Any = None, Tout: Any = None,
                name: Any = None) -> Any:
    """Call ``func(*inp)`` on tapegrad tensors; its results become tensors of dtypes ``Tout``.

    ``func`` runs while the tapes record, so the tapegrad ops it runs are differentiated: the
    gradient flows to ``inp`` (and, unlike TensorFlow, to variables ``func`` reads). ``Tout`` is a
    dtype (one result, returned as a tensor) or a list of dtypes (a list of results, returned as a
    list). A tensor result must have its dtype in ``Tout``; NumPy arrays and Python numbers are
    converted to it. Usable as a decorator: ``@tf.py_function(Tout=tf.float32)``.

    >>> import tapegrad as tf
    >>> x = tf.constant([1.0, 2.0])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.py_function(lambda a: tf.reduce_sum(a ** 2), [x], Tout=tf.float32)
    >>> tape.gradient(y, x).numpy()
    array([2., 4.], dtype=float32)
    """
    decorator = _decorator_or_none(py_function, "tf.py_function", func, inp, Tout, name=name)
    if decorator is not None:
        return decorator
    many = isinstance(Tout, (list, tuple))
    douts = [_dt.as_dtype(t) for t in (Tout if many else [Tout])]
    args = [convert_to_tensor(x) for x in inp]
    _rec.note_stateful()
    if not douts and _trace.current() is not None:  # (a step of the trace: it runs at every call)
        _trace.replayable(_for_effect)(func, *args)
        return []
    ret = func(*args)  # type: ignore[misc]
    if ret is None:
        if douts:
            raise ValueError(f"tf.py_function: func returned None, but Tout asks for {len(douts)} "
                             "result(s).")
        return []
    vals = list(ret) if isinstance(ret, (list, tuple)) else [ret]
    if len(vals) != len(douts):
        raise ValueError(f"tf.py_function: func returned {len(vals)} value(s) but Tout has "
                         f"{len(douts)} dtype(s).")
    outs = [_output(v, d, k) for k, (v, d) in enumerate(zip(vals, douts))]
    return outs if many else outs[0]


def _for_effect(func: Callable, *args: Any) -> None:
    """``func(*args)`` of a ``tf.py_function`` without results (``Tout=[]``)."""
    ret = func(*args)
    if ret is not None and _nest.flatten(ret):
        raise ValueError(f"tf.py_function: func returned {len(_nest.flatten(ret))} value(s) but "
                         "Tout has 0 dtype(s).")


def numpy_function(func: Callable | None = None, inp: Any = None, Tout: Any = None,
                   stateful: bool = True, name: Any = None) -> Any:
    """Call ``func`` on NumPy arrays (``np.array`` of each of ``inp``) and convert its results to
    tensors.

    The results are constants: no gradient flows through ``numpy_function`` (a tape gives
    ``None`` for its inputs), as in TensorFlow. As TensorFlow does eagerly, the results keep the
    dtypes ``func`` gave them (``Tout`` is checked for presence only), a nest of results is
    flattened, and a single result is returned as a tensor. Usable as a decorator:
    ``@tf.numpy_function(Tout=tf.float32)``.

    >>> import tapegrad as tf, numpy as np
    >>> tf.numpy_function(lambda a: a * 2, [tf.constant([0.5, 1.0])], Tout=tf.float32).numpy()
    array([1., 2.], dtype=float32)
    """
    decorator = _decorator_or_none(numpy_function, "tf.numpy_function", func, inp, Tout,
                                   stateful=stateful, name=name)
    if decorator is not None:
        return decorator
    if _trace.current() is not None:
        return _traced_numpy_function(func, inp, stateful)
    if stateful:
        _rec.note_stateful()
    # (in a dataset's function or a Keras step, graphs in TensorFlow: values as a graph hands them)
    ret = func(*[_graph_value(x) if _rec.graph_runs() else np.array(x) for x in inp])  # type: ignore[misc]
    outs = [None if v is None else convert_to_tensor(v) for v in _nest.flatten(ret)]
    return outs[0] if len(outs) == 1 else outs


def _graph_value(v: Any) -> Any:
    """A value as TensorFlow's graph hands it to ``numpy_function``: an array, but a scalar as a
    NumPy scalar (a string one as ``bytes``); eagerly TensorFlow gives 0-d arrays."""
    a = np.array(v)
    return a[()] if a.ndim == 0 else a


def _traced_numpy_function(func: Callable, inp: Any, stateful: bool) -> Any:
    """In a ``tf.function`` trace: one step that calls ``func`` again at every replay (a draw step:
    its results are new constants each time), as TensorFlow's graph runs the op at every call."""
    xs = [convert_to_tensor(x) for x in inp]
    traced: list = []

    def call(*values: np.ndarray) -> tuple:
        flat = _nest.flatten(func(*[_graph_value(v) for v in values]))
        if any(v is None for v in flat):
            raise ValueError("tf.numpy_function: func returned None inside a tf.function; return "
                             "arrays (TensorFlow's graph needs a value for every output).")
        outs = tuple(convert_to_tensor(v)._value for v in flat)
        sig = [(o.dtype, o.ndim) for o in outs]
        if traced and sig != traced:
            raise InvalidArgumentError(
                f"tf.numpy_function: func returned {sig} (dtype, rank) where it returned {traced} "
                "when the tf.function was traced; return the same dtypes and ranks on every call.")
        traced[:] = sig
        return outs

    outs = list(_trace.draw(call, xs, bool(stateful)))
    if stateful:
        _trace.side_effect()
    return outs[0] if len(outs) == 1 else outs
