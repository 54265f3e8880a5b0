"""TensorFlow's names from graph mode, as TF 2 has them eagerly: ``tf.gradients`` and
``tf.hessians`` (which raise: use ``tf.GradientTape``), ``tf.no_gradient``, ``tf.inside_function``
and ``tf.get_logger``."""
from __future__ import annotations

import logging
from typing import Any

from . import _trace

_EAGER = "tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead."
_TRACED = ("tf.gradients is not supported by tapegrad inside tf.function either (tapegrad traces by "
           "running the function eagerly). Use tf.GradientTape instead.")
NO_GRADIENT: set = set()  # the op types given to no_gradient (tapegrad's own ops declare theirs)


def gradients(ys: Any, xs: Any, grad_ys: Any = None, name: str = "gradients", gate_gradients: bool = False,
              aggregation_method: Any = None, stop_gradients: Any = None,
              unconnected_gradients: Any = "none") -> list:
    """Graph-mode symbolic gradients: raises RuntimeError, as TensorFlow 2 does eagerly; use
    :class:`tf.GradientTape` (``tape.gradient(ys, xs)``) instead.

    >>> import tapegrad as tf
    >>> tf.gradients(tf.constant(1.0), tf.constant(1.0))
    Traceback (most recent call last):
    RuntimeError: tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead.
    """
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
