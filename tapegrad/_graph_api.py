"""TensorFlow's names from graph mode, as TF 2 has them eagerly: ``tf.gradients`` and
``tf.hessians`` (which raise: use ``tf.GradientTape``), ``tf.no_gradient``, ``tf.inside_function``,
``tf.init_scope``, ``tf.is_symbolic_tensor``, ``tf.tuple``, ``tf.timestamp``, ``tf.parallel_stack``,
``tf.type_spec_from_value`` and ``tf.get_logger``."""
from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from . import _fingerprint, _function, _recorders as _rec, _trace
from ._convert import convert_to_tensor, host_value
from ._spec import TensorSpec
from ._tensor import Tensor, constant_maker, wrap
from .errors import InvalidArgumentError

_EAGER = "tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead."
_TRACED = ("tf.gradients is not supported by tapegrad inside tf.function either (tapegrad traces by "
           "running the function eagerly). Use tf.GradientTape instead.")
NO_GRADIENT: set = set()  # the op types given to no_gradient (tapegrad's own ops declare theirs)


def gradients(ys: Any, xs: Any, grad_ys: Any = None, name: str = "gradients", gate_gradients: bool = False,
              aggregation_method: Any = None, stop_gradients: Any = None,
              unconnected_gradients: Any = "none") -> list:
    """Graph-mode symbolic gradients: in a TF1 graph (``tf.Graph().as_default()``), the gradients of
    ``sum(ys)`` with respect to ``xs`` (tensors or variables; None where unconnected), computed at
    each ``Session.run``; elsewhere raises RuntimeError, as TensorFlow 2 does eagerly: use
    :class:`tf.GradientTape` (``tape.gradient(ys, xs)``) instead.

    >>> import tapegrad as tf
    >>> tf.gradients(tf.constant(1.0), tf.constant(1.0))
    Traceback (most recent call last):
    RuntimeError: tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead.
    """
    g = getattr(_trace.innermost(), "tf1_graph", None)
    if g is not None:  # (a TF1 graph: tapegrad.compat)
        return g._gradients(ys, xs, grad_ys)
    raise RuntimeError(_EAGER if _trace.current() is None else _TRACED)


def hessians(ys: Any, xs: Any, gate_gradients: bool = False, aggregation_method: Any = None,
             name: str = "hessians") -> list:
    """Graph-mode Hessians: raises RuntimeError as :func:`gradients` does; use
    ``tf.autodiff.hessian`` or two nested :class:`tf.GradientTape` instead."""
    return gradients(ys, xs)


def no_gradient(op_type: str) -> None:
    """Declare that the op type ``op_type`` has no gradient (a graph-mode registration; tapegrad's
    own ops declare their gradients, so this only checks and records the name).

    >>> import tapegrad as tf
    >>> tf.no_gradient("MyOp")
    """
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    NO_GRADIENT.add(op_type)


REGISTERED_GRADIENTS: dict = {}


class RegisterGradient:
    """``@tf.RegisterGradient("OpType")``: TensorFlow's registration of a gradient function
    ``f(op, grad)`` for a graph op type, used through ``Graph.gradient_override_map``. tapegrad
    has no graph ops to override: it checks and records the registration (a second one for the
    same name is TensorFlow's ``KeyError``) and returns ``f`` unchanged; to give a computation
    your own gradient, wrap it in ``tf.custom_gradient``.

    >>> import tapegrad as tf
    >>> @tf.RegisterGradient("MyDoubledSquare")
    ... def _grad(op, grad):
    ...     return 2 * grad
    >>> _grad(None, 1.0)
    2.0
    """

    def __init__(self, op_type: str) -> None:
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f: Any) -> Any:
        if self._op_type in REGISTERED_GRADIENTS:
            raise KeyError(f"Registering two gradient with name '{self._op_type}'! (Previous registration was "
                           f"in {REGISTERED_GRADIENTS[self._op_type]!r}) (tapegrad uses neither: to give a "
                           "computation your own gradient, use tf.custom_gradient)")
        REGISTERED_GRADIENTS[self._op_type] = f
        return f


def inside_function() -> bool:
    """True while a ``tf.function`` is being traced (the opposite of ``tf.executing_eagerly()``).

    >>> import tapegrad as tf
    >>> tf.inside_function()
    False
    """
    return _trace.current() is not None


def get_logger() -> logging.Logger:
    """The ``"tensorflow"`` logger of Python's ``logging``, as TensorFlow returns it (programs call
    ``tf.get_logger().setLevel("ERROR")``).

    >>> import tapegrad as tf
    >>> tf.get_logger().name
    'tensorflow'
    """
    return logging.getLogger("tensorflow")


@contextlib.contextmanager
def init_scope() -> Iterator[None]:
    """Run the block outside every ``tf.function`` being traced and every tape, as TensorFlow's
    ``init_scope`` lifts it out of function graphs and pauses the gradient tape: its ops run once,
    eagerly, when the function is traced (not at each call), and are not recorded.

    >>> import tapegrad as tf
    >>> v, log = tf.Variable(0), []
    >>> @tf.function
    ... def f():
    ...     with tf.init_scope():
    ...         v.assign_add(1)  # once, at trace time
    ...         log.append(tf.executing_eagerly())
    ...     return v + 0
    >>> [int(f()) for _ in range(3)], log
    ([1, 1, 1], [True])
    """
    depth, _function._state.depth = getattr(_function._state, "depth", 0), 0
    try:
        with _rec.swapped([]):
            yield
    finally:
        _function._state.depth = depth


def is_symbolic_tensor(tensor: Any) -> bool:
    """False: tapegrad's tensors always hold values.

    >>> import tapegrad as tf
    >>> tf.is_symbolic_tensor(tf.constant(1.0))
    False
    """
    return False


def tuple(tensors: Any, control_inputs: Any = None, name: Any = None) -> list:  # noqa: A001
    """The tensors, as a list (TensorFlow groups them in graphs; eagerly they are returned as they are)."""
    return [None if t is None else convert_to_tensor(t) for t in tensors]


def timestamp(name: Any = None) -> Tensor:
    """Seconds since the epoch, as a float64 scalar tensor.

    >>> import tapegrad as tf
    >>> tf.timestamp().dtype
    tf.float64
    """
    return convert_to_tensor(np.float64(time.time()))


def type_spec_from_value(value: Any) -> Any:
    """The :class:`TensorSpec` of a tensor (or of what converts to one); the spec of a composite
    value that has one (an extension type's ``T.Spec``).

    >>> import tapegrad as tf
    >>> tf.type_spec_from_value(tf.constant([1.0, 2.0]))
    TensorSpec(shape=(2,), dtype=tf.float32, name=None)
    """
    spec = None if isinstance(value, Tensor) else getattr(value, "_type_spec", None)
    if spec is not None:
        return spec() if callable(spec) else spec
    t = convert_to_tensor(value)
    return TensorSpec(t.shape, t.dtype)


def parallel_stack(values: Any, name: str = "parallel_stack") -> Tensor:
    """:func:`tf.stack` along a new first axis, inside ``tf.function`` only: eagerly it raises
    RuntimeError, as TensorFlow's does."""
    if _trace.current() is None:
        raise RuntimeError("tf.parallel_stack() is not compatible with eager execution.")
    return convert_to_tensor(list(values))  # (a list holding tensors is stacked on the tape)


def _fp_bytes(data: bytes) -> np.ndarray:
    return np.frombuffer(_fingerprint.fingerprint64(data).to_bytes(8, "little"), np.uint8)


@constant_maker  # (from a guarded read of the input: host_value)
def fingerprint(data: Any, method: str = "farmhash64", name: Any = None) -> Any:
    """TensorFlow's ``tf.fingerprint``: a ``[rows, 8]`` uint8 fingerprint (FarmHash
    ``Fingerprint64``, little-endian) of each row of ``data`` along its first dimension: of a
    numeric row's bytes, of a string, or of the fingerprints of a row's strings. TensorFlow's
    bytes, bit for bit.

    >>> import tapegrad as tf
    >>> tf.fingerprint(tf.constant(["abc"])).numpy()
    array([[105, 243, 231, 116, 160, 179, 165,  36]], dtype=uint8)
    """
    if method != "farmhash64":
        raise InvalidArgumentError(f"Unsupported fingerprint method: {method} [Op:Fingerprint]")
    t = convert_to_tensor(data)
    v = np.asarray(host_value(t, "data"))
    if v.ndim < 1:
        raise InvalidArgumentError(f"`data` should have at least one dimension: {list(v.shape)} [Op:Fingerprint]")
    rows = v.reshape(v.shape[0], -1) if v.shape[0] else v.reshape(0, 0)
    out = np.zeros((v.shape[0], 8), np.uint8)
    for i, row in enumerate(rows):
        if v.dtype == object:
            parts = [p if isinstance(p, bytes) else str(p).encode() for p in row]
            out[i] = _fp_bytes(parts[0]) if len(parts) == 1 else _fp_bytes(b"".join(_fp_bytes(p).tobytes()
                                                                                   for p in parts))
        else:
            out[i] = _fp_bytes(np.ascontiguousarray(row).astype(row.dtype.newbyteorder("<")).tobytes())
    return wrap(out)


class AggregationMethod:
    """How ``tf.gradients`` adds the gradients of a tensor's uses (TF's constants; tapegrad's
    tape always adds them in one ``add_n``).

    >>> import tapegrad as tf
    >>> tf.AggregationMethod.DEFAULT == tf.AggregationMethod.ADD_N
    True
    """

    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2
